/*
 * fastpath_model.h — the tables, frames and oracle of the in-kernel
 * relay's tests, shared by tests/check_fastpath.c, fuzz/fuzz_fastpath.c
 * and fuzz/gen_fastpath.c.  Test code only: static inline, no library.
 *
 * The program runs under BPF_PROG_TEST_RUN as if the frame arrived on
 * the loopback device of the current namespace (ifindex 1, MAC all
 * zero).  The tables: that interface and FPM_OUT_IF (any ifindex: a test
 * run sends nothing), one neighbour on each, and a route to FPM_DST via
 * the neighbour on FPM_OUT_IF.
 *
 * The oracle holds the program against what batsecd's own relay does
 * (fwd_data_mesh_rx, fwd_data_forward): what the program relays,
 * batsecd would relay the same way, byte for byte; what batsecd would
 * relay without Ethernet padding, the program relays; everything else
 * leaves the program unchanged.
 */
#ifndef BATSEC_FUZZ_FASTPATH_MODEL_H
#define BATSEC_FUZZ_FASTPATH_MODEL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "netio/fastpath.h"
#include "proto/wire.h"

#define FPM_IN_IF	1	/* the namespace's loopback */
#define FPM_OUT_IF	7
#define FPM_MTU		1534
#define FPM_ET		0x88b5
#define FPM_FRAME_MAX	2048

static const uint8_t fpm_own[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t fpm_dst[6] = { 0x06, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
static const uint8_t fpm_src[6] = { 0x0a, 0x01, 0x02, 0x03, 0x04, 0x05 };
static const uint8_t fpm_in_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t fpm_nh_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x02 };
static const uint8_t fpm_out_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x03 };
static const uint8_t fpm_lo_mac[6] = { 0 };

/* The program and its tables: 0, or -1 (err says why). */
static inline int
fpm_open(struct fastpath *fp, char *err, size_t errlen)
{
	if (fastpath_open(fp, FPM_ET, fpm_own, err, errlen) != 0)
		return -1;
	if (fastpath_iface_add(fp, FPM_IN_IF, fpm_lo_mac, FPM_MTU) != 0 ||
	    fastpath_iface_add(fp, FPM_OUT_IF, fpm_out_mac, FPM_MTU) != 0 ||
	    fastpath_neigh_add(fp, FPM_IN_IF, fpm_in_mac) != 0 ||
	    fastpath_neigh_add(fp, FPM_OUT_IF, fpm_nh_mac) != 0 ||
	    fastpath_route_set(fp, fpm_dst, FPM_OUT_IF, fpm_nh_mac) != 0 ||
	    fastpath_alive(fp, UINT64_MAX) != 0) {
		(void)snprintf(err, errlen, "filling the maps failed");
		fastpath_close(fp);
		return -1;
	}
	return 0;
}

/* A UNICAST from the neighbour to us, fpm_src -> fpm_dst, TTL 5, with
 * an inner frame of inner bytes: its length. */
static inline size_t
fpm_frame(uint8_t *f, size_t inner)
{
	size_t i;

	memset(f, 0, 34);
	memcpy(f, fpm_lo_mac, 6);
	memcpy(f + 6, fpm_in_mac, 6);
	f[12] = FPM_ET >> 8;
	f[13] = FPM_ET & 0xff;
	f[14] = WIRE_T_UNICAST;
	f[15] = WIRE_VERSION;
	f[16] = 5;
	memcpy(f + 18, fpm_dst, 6);
	memcpy(f + 24, fpm_src, 6);
	f[30] = (uint8_t)(inner >> 8);
	f[31] = (uint8_t)inner;
	for (i = 0; i < inner; i++)
		f[34 + i] = (uint8_t)(i * 7 + 3);
	return 34 + inner;
}

/*
 * What batsecd's relay does with frame f under these tables: 1 and the
 * frame it sends in want, or 0 when it does not relay it.  *padded: it
 * does, but the frame had Ethernet padding.
 */
static inline int
fpm_model(const uint8_t *f, size_t len, uint8_t *want, int *padded)
{
	struct wire_unicast u;

	*padded = 0;
	if (len < 15 || (f[0] & 0x01) || memcmp(f, fpm_lo_mac, 6) != 0 ||
	    f[12] != (FPM_ET >> 8) || f[13] != (FPM_ET & 0xff) ||
	    memcmp(f + 6, fpm_in_mac, 6) != 0 || f[14] != WIRE_T_UNICAST ||
	    wire_unicast_parse(f + 14, len - 14, &u) != WIRE_OK)
		return 0;
	if (memcmp(u.src, fpm_own, 6) == 0 || memcmp(u.dst, fpm_own, 6) == 0 ||
	    u.ttl <= 1 || memcmp(u.dst, fpm_dst, 6) != 0 || u.len > FPM_MTU)
		return 0;
	*padded = u.pad_len != 0;
	memcpy(want, fpm_nh_mac, 6);
	memcpy(want + 6, fpm_out_mac, 6);
	memcpy(want + 12, f + 12, 2);
	memcpy(want + 14, f + 14, u.len);
	want[16] = (uint8_t)(u.ttl - 1);
	return 1;
}

/*
 * The oracle over one run: the program's verdict and output for input
 * f.  NULL when they are right, else what is wrong.
 */
static inline const char *
fpm_judge(const uint8_t *f, size_t len, int verdict, const uint8_t *out)
{
	static uint8_t want[FPM_FRAME_MAX];
	int m, padded;

	m = fpm_model(f, len, want, &padded);
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

#endif /* BATSEC_FUZZ_FASTPATH_MODEL_H */
