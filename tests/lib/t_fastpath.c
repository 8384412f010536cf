/*
 * t_fastpath.c — the in-kernel relay's test tables, frames and reference
 * relay (t_fastpath.h).
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "proto/wire.h"
#include "t_fastpath.h"

const uint8_t t_fpm_own[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
const uint8_t t_fpm_dst[6] = { 0x06, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
const uint8_t t_fpm_src[6] = { 0x0a, 0x01, 0x02, 0x03, 0x04, 0x05 };
const uint8_t t_fpm_in_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
const uint8_t t_fpm_nh_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x02 };
const uint8_t t_fpm_out_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x03 };
const uint8_t t_fpm_lo_mac[6] = { 0 };
const struct fastpath_hop t_fpm_in_hop = {
	.key = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
	.keyid = { 0xa1, 0xb2, 0xc3, 0xd4 },
};
const struct fastpath_hop t_fpm_nh_hop = {
	.key = { 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
	    0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f },
	.keyid = { 0x5e, 0x6f, 0x70, 0x81 },
};

/* Frame offsets: Ethernet, then the payload (DP2.md offsets + 14). */
#define O_TYPE		14
#define O_VERSION	15
#define O_TTL		16
#define O_RSV		17
#define O_KEYID		18
#define O_CTR		22
#define O_TAG		30
#define O_DST		38
#define O_SRC		44
#define O_E2E_END	66

/* The reference's windows: the sender's lanes under its one key. */
struct t_window {
	uint64_t highest;
	uint8_t seen[32];		/* bit i: highest - i seen */
};
static struct t_window t_win[256];
/* The newest counter the program used in each of its lanes (+ 1). */
static uint64_t t_ours[256];
static uint64_t t_next_ctr = 1000;

int
t_fpm_open(struct fastpath *fp, char *err, size_t errlen)
{
	memset(t_win, 0, sizeof(t_win));
	memset(t_ours, 0, sizeof(t_ours));
	if (sodium_init() < 0) {
		(void)snprintf(err, errlen, "sodium_init failed");
		return -1;
	}
	if (fastpath_open(fp, T_FPM_ET, t_fpm_own, err, errlen) != 0)
		return -1;
	if (fastpath_iface_add(fp, T_FPM_IN_IF, t_fpm_lo_mac, T_FPM_MTU) != 0 ||
	    fastpath_iface_add(fp, T_FPM_OUT_IF, t_fpm_out_mac,
	    T_FPM_MTU) != 0 ||
	    fastpath_neigh_add(fp, T_FPM_IN_IF, t_fpm_in_mac, &t_fpm_in_hop,
	    NULL) != 0 ||
	    fastpath_neigh_add(fp, T_FPM_OUT_IF, t_fpm_nh_mac, &t_fpm_nh_hop,
	    NULL) != 0 ||
	    fastpath_route_set(fp, t_fpm_dst, T_FPM_OUT_IF,
	    t_fpm_nh_mac) != 0 ||
	    fastpath_alive(fp, UINT64_MAX) != 0) {
		(void)snprintf(err, errlen, "filling the maps failed");
		fastpath_close(fp);
		return -1;
	}
	return 0;
}

uint64_t
t_fpm_counter(const uint8_t *f)
{
	uint64_t v = 0;
	int k;

	for (k = 0; k < 8; k++)
		v = (v << 8) | f[O_CTR + k];
	return v;
}

void
t_fpm_set_counter(uint8_t *f, uint64_t counter)
{
	int k;

	for (k = 7; k >= 0; k--, counter >>= 8)
		f[O_CTR + k] = (uint8_t)counter;
}

int
t_fpm_tag(const uint8_t *f, size_t len, const uint8_t key[16],
    uint8_t tag[8])
{
	uint8_t in[60];

	if (len < 14 + T_FPM_OVERHEAD)
		return -1;
	memcpy(in, f + 14, 16);
	memcpy(in + 16, f + 14 + 24, 28);
	memcpy(in + 44, f + len - 16, 16);
	return crypto_shorthash_siphash24(tag, in, sizeof(in), key) == 0 ?
	    0 : -1;
}

void
t_fpm_retag(uint8_t *f, size_t len, const uint8_t key[16])
{
	uint8_t tag[8];

	if (t_fpm_tag(f, len, key, tag) == 0)
		memcpy(f + O_TAG, tag, 8);
}

size_t
t_fpm_frame_ctr(uint8_t *f, size_t inner, uint8_t type, uint64_t counter)
{
	size_t i, len = 14 + T_FPM_OVERHEAD + inner;

	memset(f, 0, O_E2E_END);
	memcpy(f, t_fpm_lo_mac, 6);
	memcpy(f + 6, t_fpm_in_mac, 6);
	f[12] = T_FPM_ET >> 8;
	f[13] = T_FPM_ET & 0xff;
	f[O_TYPE] = type;
	f[O_VERSION] = T_FPM_V2;
	f[O_TTL] = 5;
	memcpy(f + O_KEYID, t_fpm_in_hop.keyid, 4);
	t_fpm_set_counter(f, counter);
	memcpy(f + O_DST, t_fpm_dst, 6);
	memcpy(f + O_SRC, t_fpm_src, 6);
	for (i = 50; i < O_E2E_END; i++)	/* epochs, e2e counter */
		f[i] = (uint8_t)(i * 13 + 1);
	for (i = 0; i < inner + 16; i++)	/* ciphertext, AEAD tag */
		f[O_E2E_END + i] = (uint8_t)(i * 7 + 3);
	t_fpm_retag(f, len, t_fpm_in_hop.key);
	return len;
}

size_t
t_fpm_frame(uint8_t *f, size_t inner)
{
	return t_fpm_frame_ctr(f, inner, WIRE_T_UNICAST, t_next_ctr++);
}

/* DP2.md's window: fresh when newer than the highest, or within the last
 * 256 and not seen; commit marks it seen. */
static int
t_window_fresh(struct t_window *w, uint64_t c, int commit)
{
	uint64_t d, i, k;

	if (c > w->highest) {
		if (!commit)
			return 1;
		d = c - w->highest;
		for (k = 0; k < d && k < 256; k++) {
			/* shift by one: bit i+1 = bit i */
			for (i = 31; i > 0; i--)
				w->seen[i] = (uint8_t)((w->seen[i] << 1) |
				    (w->seen[i - 1] >> 7));
			w->seen[0] = (uint8_t)(w->seen[0] << 1);
		}
		w->highest = c;
		w->seen[0] |= 1;
		return 1;
	}
	d = w->highest - c;
	if (d >= 256 || (w->seen[d / 8] & (1u << (d % 8))))
		return 0;
	if (commit)
		w->seen[d / 8] |= (uint8_t)(1u << (d % 8));
	return 1;
}

enum t_fpm_verdict
t_fpm_model(const uint8_t *f, size_t len, uint8_t *want, int commit)
{
	uint8_t tag[8];
	uint64_t ctr;
	size_t plen;

	if (len < 14 + T_FPM_OVERHEAD + T_FPM_ECHO_LEN ||
	    len > 14 + T_FPM_OVERHEAD + WIRE_INNER_MAX)
		return T_FPM_PASS;
	plen = len - 14;
	/* For this host (test runs: the loopback's MAC, all zero). */
	if (memcmp(f, t_fpm_lo_mac, 6) != 0 || f[12] != (T_FPM_ET >> 8) ||
	    f[13] != (T_FPM_ET & 0xff))
		return T_FPM_PASS;
	if (f[O_TYPE] == WIRE_T_UNICAST) {
		if (plen < T_FPM_OVERHEAD + WIRE_INNER_MIN)
			return T_FPM_PASS;
	} else if (f[O_TYPE] != WIRE_T_ECHO ||
	    plen != T_FPM_OVERHEAD + T_FPM_ECHO_LEN)
		return T_FPM_PASS;
	if (f[O_VERSION] != T_FPM_V2 || f[O_RSV] != 0 || f[O_TTL] <= 1 ||
	    (f[O_DST] & 3) != 2 || (f[O_SRC] & 3) != 2 ||
	    memcmp(f + O_SRC, t_fpm_own, 6) == 0)
		return T_FPM_PASS;
	/* The sender: the one neighbour on the receiving interface. */
	if (memcmp(f + 6, t_fpm_in_mac, 6) != 0 ||
	    memcmp(f + O_KEYID, t_fpm_in_hop.keyid, 4) != 0 ||
	    t_fpm_tag(f, len, t_fpm_in_hop.key, tag) != 0 ||
	    memcmp(tag, f + O_TAG, 8) != 0)
		return T_FPM_PASS;
	ctr = t_fpm_counter(f);
	if (!t_window_fresh(&t_win[ctr >> 56], ctr & ((1ULL << 56) - 1),
	    commit))
		return T_FPM_DROP;
	if (memcmp(f + O_DST, t_fpm_dst, 6) != 0 || plen > T_FPM_MTU)
		return T_FPM_PASS;
	memcpy(want, t_fpm_nh_mac, 6);
	memcpy(want + 6, t_fpm_out_mac, 6);
	memcpy(want + 12, f + 12, plen + 2);
	want[O_TTL] = (uint8_t)(f[O_TTL] - 1);
	memcpy(want + O_KEYID, t_fpm_nh_hop.keyid, 4);
	memset(want + O_CTR, 0, 16);
	return T_FPM_RELAY;
}

const char *
t_fpm_judge(const uint8_t *f, size_t len, int verdict, const uint8_t *out)
{
	static uint8_t want[T_FPM_FRAME_MAX], got[T_FPM_FRAME_MAX];
	uint8_t tag[8];
	uint64_t ctr, low;
	unsigned lane;
	enum t_fpm_verdict m;

	m = t_fpm_model(f, len, want, 1);
	if (verdict == FASTPATH_REDIRECT) {
		if (m != T_FPM_RELAY)
			return "relayed a frame the reference does not relay";
		memcpy(got, out, len);
		memset(got + O_CTR, 0, 16);
		if (memcmp(got, want, len) != 0)
			return "relayed it differently from the reference";
		ctr = t_fpm_counter(out);
		lane = (unsigned)(ctr >> 56);
		low = ctr & ((1ULL << 56) - 1);
		if (lane == 0)
			return "relayed with a counter of lane 0";
		if (low + 1 <= t_ours[lane])
			return "relayed with a counter not above its lane's last";
		t_ours[lane] = low + 1;
		if (t_fpm_tag(out, len, t_fpm_nh_hop.key, tag) != 0 ||
		    memcmp(tag, out + O_TAG, 8) != 0)
			return "relayed with a wrong hop tag";
		return NULL;
	}
	if (verdict == FASTPATH_DROP) {
		if (m != T_FPM_DROP)
			return "dropped a frame the reference does not drop";
		return NULL;
	}
	if (verdict != FASTPATH_PASS)
		return "a verdict other than relay, pass or drop";
	if (m == T_FPM_RELAY)
		return "passed a frame the reference relays";
	if (m == T_FPM_DROP)
		return "passed a replay the reference drops";
	if (memcmp(out, f, len) != 0)
		return "passed the frame on changed";
	return NULL;
}
