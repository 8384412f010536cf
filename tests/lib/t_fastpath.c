/*
 * t_fastpath.c — the in-kernel relay's test tables, frames and oracle
 * (t_fastpath.h).
 */
#include <stdio.h>
#include <string.h>

#include "proto/wire.h"
#include "t_fastpath.h"

const uint8_t t_fpm_own[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
const uint8_t t_fpm_dst[6] = { 0x06, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
const uint8_t t_fpm_src[6] = { 0x0a, 0x01, 0x02, 0x03, 0x04, 0x05 };
const uint8_t t_fpm_in_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
const uint8_t t_fpm_nh_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x02 };
const uint8_t t_fpm_out_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x03 };
const uint8_t t_fpm_lo_mac[6] = { 0 };

int
t_fpm_open(struct fastpath *fp, char *err, size_t errlen)
{
	if (fastpath_open(fp, T_FPM_ET, t_fpm_own, err, errlen) != 0)
		return -1;
	if (fastpath_iface_add(fp, T_FPM_IN_IF, t_fpm_lo_mac, T_FPM_MTU) != 0 ||
	    fastpath_iface_add(fp, T_FPM_OUT_IF, t_fpm_out_mac,
	    T_FPM_MTU) != 0 ||
	    fastpath_neigh_add(fp, T_FPM_IN_IF, t_fpm_in_mac) != 0 ||
	    fastpath_neigh_add(fp, T_FPM_OUT_IF, t_fpm_nh_mac) != 0 ||
	    fastpath_route_set(fp, t_fpm_dst, T_FPM_OUT_IF,
	    t_fpm_nh_mac) != 0 ||
	    fastpath_alive(fp, UINT64_MAX) != 0) {
		(void)snprintf(err, errlen, "filling the maps failed");
		fastpath_close(fp);
		return -1;
	}
	return 0;
}

size_t
t_fpm_frame(uint8_t *f, size_t inner)
{
	size_t i;

	memset(f, 0, 34);
	memcpy(f, t_fpm_lo_mac, 6);
	memcpy(f + 6, t_fpm_in_mac, 6);
	f[12] = T_FPM_ET >> 8;
	f[13] = T_FPM_ET & 0xff;
	f[14] = WIRE_T_UNICAST;
	f[15] = 1;	/* the version-1 frame the relay knows today */
	f[16] = 5;
	memcpy(f + 18, t_fpm_dst, 6);
	memcpy(f + 24, t_fpm_src, 6);
	f[30] = (uint8_t)(inner >> 8);
	f[31] = (uint8_t)inner;
	for (i = 0; i < inner; i++)
		f[34 + i] = (uint8_t)(i * 7 + 3);
	return 34 + inner;
}

int
t_fpm_model(const uint8_t *f, size_t len, uint8_t *want, int *padded)
{
	/* The version-1 UNICAST header (20 bytes) the relay knows today. */
	struct {
		uint8_t ttl;
		const uint8_t *dst, *src;
		size_t len, pad_len;
	} u;
	size_t inner, i;

	*padded = 0;
	if (len < 34 || (f[0] & 0x01) || memcmp(f, t_fpm_lo_mac, 6) != 0 ||
	    f[12] != (T_FPM_ET >> 8) || f[13] != (T_FPM_ET & 0xff) ||
	    memcmp(f + 6, t_fpm_in_mac, 6) != 0 || f[14] != WIRE_T_UNICAST ||
	    f[15] != 1 || f[17] != 0 || f[32] != 0 || f[33] != 0 ||
	    (f[18] & 0x03) != 0x02 || (f[24] & 0x03) != 0x02)
		return 0;
	inner = (size_t)f[30] << 8 | f[31];
	if (inner < WIRE_INNER_MIN || inner > WIRE_INNER_MAX ||
	    inner > len - 34)
		return 0;
	u.ttl = f[16];
	u.dst = f + 18;
	u.src = f + 24;
	u.len = 20 + inner;
	u.pad_len = len - 34 - inner;
	if (u.pad_len != 0) {
		if (len - 14 > WIRE_ETH_MIN_PAYLOAD)
			return 0;
		for (i = 34 + inner; i < len; i++)
			if (f[i] != 0)
				return 0;
	}
	if (memcmp(u.src, t_fpm_own, 6) == 0 ||
	    memcmp(u.dst, t_fpm_own, 6) == 0 || u.ttl <= 1 ||
	    memcmp(u.dst, t_fpm_dst, 6) != 0 || u.len > T_FPM_MTU)
		return 0;
	*padded = u.pad_len != 0;
	memcpy(want, t_fpm_nh_mac, 6);
	memcpy(want + 6, t_fpm_out_mac, 6);
	memcpy(want + 12, f + 12, 2);
	memcpy(want + 14, f + 14, u.len);
	want[16] = (uint8_t)(u.ttl - 1);
	return 1;
}

const char *
t_fpm_judge(const uint8_t *f, size_t len, int verdict, const uint8_t *out)
{
	static uint8_t want[T_FPM_FRAME_MAX];
	int m, padded;

	m = t_fpm_model(f, len, want, &padded);
	if (verdict == FASTPATH_REDIRECT) {
		if (!m)
			return "relayed a frame batsecd would not relay";
		if (memcmp(out, want, len) != 0)
			return "relayed it differently from batsecd";
		return NULL;
	}
	if (verdict != FASTPATH_PASS)
		return "a verdict other than relay or pass";
	if (m && !padded)
		return "passed a frame batsecd relays";
	if (memcmp(out, f, len) != 0)
		return "passed the frame on changed";
	return NULL;
}
