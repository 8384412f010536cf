/*
 * check_fastpath.c — the in-kernel UNICAST/ECHO relay (src/netio/fastpath.c):
 * the program the kernel verified, run over frames with BPF_PROG_TEST_RUN
 * in a private network namespace (as if received on its loopback device,
 * ifindex 1, whose MAC is all zero), and its maps.
 *
 * What a user relies on: a frame the relay forwards is forwarded as
 * DP2.md says (MACs to the next hop, TTL - 1, the next link's keyid, a
 * counter of a relay lane, the next link's tag, nothing else changed);
 * only frames whose hop tag it verified under the sender's key, with a
 * fresh counter, are relayed; a verified replay is dropped; every other
 * frame reaches user space untouched.  The differential test holds the
 * program against a reference in C over libsodium's SipHash
 * (t_fpm_judge(), tests/lib/t_fastpath.h, which fuzz_fastpath uses too)
 * over many mutated frames.  test_bench prints the program's cost per
 * frame.  Needs root (CAP_BPF, CAP_NET_ADMIN).
 */
#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_packet.h>

#include "netio/fastpath.h"
#include "netio/netlink.h"
#include "netio/rawsock.h"
#include "proto/wire.h"
#include "lib/t_fastpath.h"
#include "lib/t_check.h"

#define IN_IF		T_FPM_IN_IF
#define OUT_IF		T_FPM_OUT_IF
#define INNER		100
#define MTU		T_FPM_MTU
#define LOW_MASK	((1ULL << 56) - 1)

static struct fastpath fp;
static unsigned our_lane;		/* 1 + the CPU the tests run on */

/* ---- fixture and helpers ------------------------------------------------ */

static void
fp_setup(void)
{
	char err[256];
	cpu_set_t set;
	int cpu;

	ck_assert_msg(unshare(CLONE_NEWNET) == 0,
	    "unshare(CLONE_NEWNET): %s (these tests run as root)",
	    strerror(errno));
	/* One CPU, so the program's lane is known. */
	cpu = sched_getcpu();
	ck_assert_int_ge(cpu, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
	our_lane = (unsigned)cpu + 1;
	ck_assert_msg(t_fpm_open(&fp, err, sizeof(err)) == 0, "%s", err);
}

static void
fp_teardown(void)
{
	fastpath_close(&fp);
}

static int
run(const uint8_t *f, size_t len, uint8_t *out)
{
	int verdict = 0;

	memset(out, 0xee, 2048);
	ck_assert_msg(fastpath_test_run(&fp, f, len, out, 2048, &verdict) == 0,
	    "BPF_PROG_TEST_RUN: %s", strerror(errno));
	return verdict;
}

static const struct fastpath_hop *
hop_of(const uint8_t *mac)
{
	return memcmp(mac, t_fpm_in_mac, 6) == 0 ? &t_fpm_in_hop :
	    &t_fpm_nh_hop;
}

static void
take_neigh(uint32_t ifindex, const uint8_t *mac, struct fastpath_count *c)
{
	ck_assert_int_eq(fastpath_neigh_take(&fp, ifindex, mac, c), 0);
	ck_assert_int_eq(fastpath_neigh_add(&fp, ifindex, mac, hop_of(mac),
	    NULL), 0);
}

static void
take_iface(uint32_t ifindex, const uint8_t *mac, struct fastpath_count *c)
{
	ck_assert_int_eq(fastpath_iface_take(&fp, ifindex, c), 0);
	ck_assert_int_eq(fastpath_iface_add(&fp, ifindex, mac, MTU), 0);
}

static uint64_t
sum(const struct fastpath_count *c)
{
	return c->rx_frames + c->rx_bytes + c->tx_frames + c->tx_bytes +
	    c->drop_replay;
}

static uint64_t
total_counts(void)
{
	struct fastpath_count c;
	uint64_t t = 0;

	take_neigh(IN_IF, t_fpm_in_mac, &c);
	t += sum(&c);
	take_neigh(OUT_IF, t_fpm_nh_mac, &c);
	t += sum(&c);
	take_iface(IN_IF, t_fpm_lo_mac, &c);
	t += sum(&c);
	take_iface(OUT_IF, t_fpm_out_mac, &c);
	t += sum(&c);
	return t;
}

/* out is f relayed to the next hop: MACs, TTL - 1, the next link's keyid,
 * a counter of our lane above *last (updated), its tag; the rest as is. */
static void
assert_relayed(const uint8_t *f, size_t len, const uint8_t *out,
    uint64_t *last)
{
	uint8_t tag[8];
	uint64_t ctr = t_fpm_counter(out);

	ck_assert_mem_eq(out, t_fpm_nh_mac, 6);
	ck_assert_mem_eq(out + 6, t_fpm_out_mac, 6);
	ck_assert_mem_eq(out + 12, f + 12, 4);
	ck_assert_int_eq(out[16], f[16] - 1);
	ck_assert_int_eq(out[17], 0);
	ck_assert_mem_eq(out + 18, t_fpm_nh_hop.keyid, 4);
	ck_assert_uint_eq(ctr >> 56, our_lane);
	ck_assert_uint_ge(ctr & LOW_MASK, fp.ctr_base);
	ck_assert_uint_gt((ctr & LOW_MASK) + 1, *last);
	*last = (ctr & LOW_MASK) + 1;
	ck_assert_int_eq(t_fpm_tag(out, len, t_fpm_nh_hop.key, tag), 0);
	ck_assert_mem_eq(out + 30, tag, 8);
	ck_assert_mem_eq(out + 38, f + 38, len - 38);
}

/* ---- relayed ------------------------------------------------------------- */

START_TEST(test_relay)
{
	uint8_t f[2048], out[2048];
	struct fastpath_count c;
	size_t len = t_fpm_frame(f, INNER);
	uint64_t last = 0;

	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	assert_relayed(f, len, out, &last);
	/* The first counter of a lane is the base; then one more each. */
	ck_assert_uint_eq(t_fpm_counter(out) & LOW_MASK, fp.ctr_base);
	len = t_fpm_frame(f, INNER);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	assert_relayed(f, len, out, &last);
	ck_assert_uint_eq(t_fpm_counter(out) & LOW_MASK, fp.ctr_base + 1);
	/* Counted once on each side, without the Ethernet header. */
	take_neigh(IN_IF, t_fpm_in_mac, &c);
	ck_assert_uint_eq(c.rx_frames, 2);
	ck_assert_uint_eq(c.rx_bytes, 2 * (len - 14));
	ck_assert_uint_eq(c.tx_frames, 0);
	ck_assert_uint_eq(c.drop_replay, 0);
	take_neigh(OUT_IF, t_fpm_nh_mac, &c);
	ck_assert_uint_eq(c.tx_frames, 2);
	ck_assert_uint_eq(c.tx_bytes, 2 * (len - 14));
	ck_assert_uint_eq(c.rx_frames, 0);
	take_iface(IN_IF, t_fpm_lo_mac, &c);
	ck_assert_uint_eq(c.rx_frames, 2);
	ck_assert_uint_eq(c.rx_bytes, 2 * (len - 14));
	take_iface(OUT_IF, t_fpm_out_mac, &c);
	ck_assert_uint_eq(c.tx_frames, 2);
	ck_assert_uint_eq(c.tx_bytes, 2 * (len - 14));
}
END_TEST

/* The largest and smallest UNICAST, an ECHO, a payload exactly the MTU,
 * TTL 2. */
START_TEST(test_relay_limits)
{
	uint8_t f[2048], out[2048];
	size_t len = t_fpm_frame(f, WIRE_INNER_MAX);
	uint64_t last = 0;

	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	assert_relayed(f, len, out, &last);
	len = t_fpm_frame(f, WIRE_INNER_MAX);
	ck_assert_int_eq(fastpath_iface_add(&fp, OUT_IF, t_fpm_out_mac,
	    (uint32_t)(len - 15)), 0);
	ck_assert_int_eq(run(f, len, out), FASTPATH_PASS);
	ck_assert_mem_eq(out, f, len);
	len = t_fpm_frame(f, WIRE_INNER_MAX);
	ck_assert_int_eq(fastpath_iface_add(&fp, OUT_IF, t_fpm_out_mac,
	    (uint32_t)(len - 14)), 0);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	len = t_fpm_frame(f, WIRE_INNER_MIN);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	assert_relayed(f, len, out, &last);
	len = t_fpm_frame_ctr(f, T_FPM_ECHO_LEN, WIRE_T_ECHO, 9ULL << 56 | 77);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	assert_relayed(f, len, out, &last);
	len = t_fpm_frame(f, INNER);
	f[16] = 2;
	t_fpm_retag(f, len, t_fpm_in_hop.key);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	ck_assert_int_eq(out[16], 1);
	assert_relayed(f, len, out, &last);
}
END_TEST

/* ---- the replay windows ------------------------------------------------------ */

static int
run_ctr(uint64_t ctr)
{
	uint8_t f[2048], out[2048];
	size_t len = t_fpm_frame_ctr(f, INNER, WIRE_T_UNICAST, ctr);
	int v = run(f, len, out);

	if (v != FASTPATH_REDIRECT)
		ck_assert_mem_eq(out, f, len);
	return v;
}

START_TEST(test_replay)
{
	const uint64_t c = 100000, l7 = 7ULL << 56;
	struct fastpath_count cnt;
	struct fastpath_replay_key keys[8];

	ck_assert_int_eq(run_ctr(c), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(c), FASTPATH_DROP);	/* the same again */
	ck_assert_int_eq(run_ctr(c - 10), FASTPATH_REDIRECT); /* late */
	ck_assert_int_eq(run_ctr(c - 10), FASTPATH_DROP);
	ck_assert_int_eq(run_ctr(c - 256), FASTPATH_DROP); /* too old */
	ck_assert_int_eq(run_ctr(c - 255), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(c + 1000), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(c), FASTPATH_DROP);	/* now too old too */
	ck_assert_int_eq(run_ctr(c + 744), FASTPATH_DROP);
	ck_assert_int_eq(run_ctr(c + 745), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(c + 745), FASTPATH_DROP);
	/* Another lane: a window of its own (an old counter is fresh
	 * there); and lane 0's is still where it was. */
	ck_assert_int_eq(run_ctr(l7 | 5), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(l7 | 5), FASTPATH_DROP);
	ck_assert_int_eq(run_ctr(l7 | 4), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(5), FASTPATH_DROP);
	ck_assert_int_eq(run_ctr(c + 1001), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(0xffULL << 56 | LOW_MASK),
	    FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(0xffULL << 56 | LOW_MASK), FASTPATH_DROP);
	ck_assert_uint_eq(fastpath_replay_keys(&fp, keys, 8), 3);
	/* Counted on the sender. */
	take_neigh(IN_IF, t_fpm_in_mac, &cnt);
	ck_assert_uint_eq(cnt.drop_replay, 9);
	ck_assert_uint_eq(cnt.rx_frames, 9);
	/* A frame for us, or without a route, takes its counter too (user
	 * space judges it next); its replay is dropped here. */
	{
		uint8_t f[2048], out[2048];
		size_t len = t_fpm_frame_ctr(f, INNER, WIRE_T_UNICAST, c + 2000);

		memcpy(f + 38, t_fpm_own, 6);
		t_fpm_retag(f, len, t_fpm_in_hop.key);
		ck_assert_int_eq(run(f, len, out), FASTPATH_PASS);
		ck_assert_int_eq(run(f, len, out), FASTPATH_DROP);
	}
}
END_TEST

/* A new hop key (a new epoch) starts new windows; the old ones can go. */
START_TEST(test_replay_new_key)
{
	struct fastpath_hop h = t_fpm_in_hop, got;
	struct fastpath_replay_key keys[8];
	struct fastpath_count taken;
	uint8_t f[2048], out[2048];
	size_t len;

	ck_assert_int_eq(run_ctr(500), FASTPATH_REDIRECT);
	ck_assert_int_eq(run_ctr(500), FASTPATH_DROP);
	h.key[0] ^= 1;
	h.keyid[3] ^= 1;
	ck_assert_int_eq(fastpath_neigh_add(&fp, IN_IF, t_fpm_in_mac, &h,
	    &taken), 0);
	ck_assert_uint_eq(taken.rx_frames, 1);
	ck_assert_uint_eq(taken.drop_replay, 1);
	ck_assert_int_eq(fastpath_neigh_hop(&fp, IN_IF, t_fpm_in_mac, &got),
	    1);
	ck_assert_mem_eq(&got, &h, sizeof(h));
	/* The old key's frames are strangers now. */
	ck_assert_int_eq(run_ctr(501), FASTPATH_PASS);
	len = t_fpm_frame_ctr(f, INNER, WIRE_T_UNICAST, 500);
	memcpy(f + 18, h.keyid, 4);
	t_fpm_retag(f, len, h.key);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	ck_assert_int_eq(run(f, len, out), FASTPATH_DROP);
	ck_assert_uint_eq(fastpath_replay_keys(&fp, keys, 8), 2);
	ck_assert_int_eq(fastpath_replay_del(&fp, &keys[0]), 0);
	ck_assert_int_eq(fastpath_replay_del(&fp, &keys[1]), 0);
	ck_assert_uint_eq(fastpath_replay_keys(&fp, keys, 8), 0);
	/* Without a key: nothing from it is relayed. */
	ck_assert_int_eq(fastpath_neigh_add(&fp, IN_IF, t_fpm_in_mac, NULL,
	    NULL), 0);
	ck_assert_int_eq(fastpath_neigh_hop(&fp, IN_IF, t_fpm_in_mac, &got),
	    0);
	ck_assert_int_eq(run(f, len, out), FASTPATH_PASS);
	ck_assert_int_eq(fastpath_neigh_hop(&fp, IN_IF, t_fpm_nh_mac, &got),
	    -1);
}
END_TEST

/* ---- handed to user space ---------------------------------------------------- */

enum pass_case {
	P_OTHER_HOST, P_MULTICAST, P_ETHERTYPE, P_TYPE_BCAST, P_TYPE_OGM,
	P_VERSION1, P_VERSION3, P_RSV, P_TTL1, P_TTL0, P_DST_FORM, P_DST_GROUP,
	P_SRC_FORM, P_SRC_OWN, P_INNER_SHORT, P_INNER_LONG, P_ECHO_LONG,
	P_ECHO_SHORT, P_TRAILING, P_TRUNCATED, P_HEADER_ONLY, P_NOT_NEIGH,
	P_NEIGH_OTHER_IF, P_NO_ROUTE, P_FOR_US, P_NH_GONE, P_OUT_IF_GONE,
	P_IN_IF_GONE, P_MTU, P_BAD_TAG, P_TAG_TTL, P_TAG_CTR, P_TAG_E2E,
	P_TAG_AEAD, P_TAG_OTHER_KEY, P_KEYID, P_NO_KEY, P_NH_NO_KEY,
	P_V1_FRAME,
	N_PASS_CASES
};

START_TEST(test_pass)
{
	uint8_t f[2048], out[2048];
	size_t len = t_fpm_frame(f, INNER);
	int retag = 1;

	switch ((enum pass_case)_i) {
	case P_OTHER_HOST: f[5] = 1; break;
	case P_MULTICAST: f[0] = 0x01; break;
	case P_ETHERTYPE: f[13] ^= 1; break;
	case P_TYPE_BCAST: f[14] = WIRE_T_BCAST; break;
	case P_TYPE_OGM: f[14] = 0x02; break;
	case P_VERSION1: f[15] = 1; break;
	case P_VERSION3: f[15] = 3; break;
	case P_RSV: f[17] = 1; break;
	case P_TTL1: f[16] = 1; break;
	case P_TTL0: f[16] = 0; break;
	case P_DST_FORM: f[38] = 0x04; break;
	case P_DST_GROUP: f[38] = 0x03; break;
	case P_SRC_FORM: f[44] = 0x00; break;
	case P_SRC_OWN: memcpy(f + 44, t_fpm_own, 6); break;
	case P_INNER_SHORT: len = t_fpm_frame(f, 13); break;
	case P_INNER_LONG: len = t_fpm_frame(f, WIRE_INNER_MAX + 1); break;
	case P_ECHO_LONG:
		len = t_fpm_frame_ctr(f, 7, WIRE_T_ECHO, 99);
		break;
	case P_ECHO_SHORT:
		len = t_fpm_frame_ctr(f, 5, WIRE_T_ECHO, 99);
		break;
	/* The length is the frame's: another frame, the tag over its end
	 * wrong. */
	case P_TRAILING: f[len++] = 0; retag = 0; break;
	case P_TRUNCATED: len--; retag = 0; break;
	case P_HEADER_ONLY: len = 14 + 52; retag = 0; break;
	case P_NOT_NEIGH: f[11] ^= 0x10; break;
	case P_NEIGH_OTHER_IF:
		ck_assert_int_eq(fastpath_neigh_add(&fp, OUT_IF, t_fpm_in_mac,
		    &t_fpm_in_hop, NULL), 0);
		ck_assert_int_eq(fastpath_neigh_take(&fp, IN_IF, t_fpm_in_mac,
		    &(struct fastpath_count){ 0 }), 0);
		break;
	case P_NO_ROUTE: f[43] ^= 0x01; break;
	case P_FOR_US: memcpy(f + 38, t_fpm_own, 6); break;
	case P_NH_GONE:
		ck_assert_int_eq(fastpath_neigh_take(&fp, OUT_IF, t_fpm_nh_mac,
		    &(struct fastpath_count){ 0 }), 0);
		break;
	case P_OUT_IF_GONE:
		ck_assert_int_eq(fastpath_iface_take(&fp, OUT_IF,
		    &(struct fastpath_count){ 0 }), 0);
		break;
	case P_IN_IF_GONE:
		ck_assert_int_eq(fastpath_iface_take(&fp, IN_IF,
		    &(struct fastpath_count){ 0 }), 0);
		break;
	case P_MTU:
		ck_assert_int_eq(fastpath_iface_add(&fp, OUT_IF, t_fpm_out_mac,
		    (uint32_t)(len - 15)), 0);
		break;
	/* The tag: wrong, or right but over other bytes or another key. */
	case P_BAD_TAG: f[30] ^= 0x80; retag = 0; break;
	case P_TAG_TTL: f[16] = 4; retag = 0; break;
	case P_TAG_CTR: f[29] ^= 1; retag = 0; break;
	case P_TAG_E2E: f[60] ^= 1; retag = 0; break;
	case P_TAG_AEAD: f[len - 1] ^= 1; retag = 0; break;
	case P_TAG_OTHER_KEY:
		t_fpm_retag(f, len, t_fpm_nh_hop.key);
		retag = 0;
		break;
	case P_KEYID: f[21] ^= 1; break;
	case P_NO_KEY:
		ck_assert_int_eq(fastpath_neigh_add(&fp, IN_IF, t_fpm_in_mac,
		    NULL, NULL), 0);
		break;
	case P_NH_NO_KEY:
		ck_assert_int_eq(fastpath_neigh_add(&fp, OUT_IF, t_fpm_nh_mac,
		    NULL, NULL), 0);
		break;
	case P_V1_FRAME:
		/* A version-1 UNICAST as main's relay took it. */
		memset(f + 14, 0, 20);
		f[14] = WIRE_T_UNICAST;
		f[15] = 1;
		f[16] = 5;
		memcpy(f + 18, t_fpm_dst, 6);
		memcpy(f + 24, t_fpm_src, 6);
		f[31] = INNER;
		len = 34 + INNER;
		retag = 0;
		break;
	case N_PASS_CASES:
		break;
	}
	if (retag)
		t_fpm_retag(f, len, t_fpm_in_hop.key);
	ck_assert_msg(run(f, len, out) == FASTPATH_PASS, "case %d relayed",
	    _i);
	ck_assert_msg(memcmp(out, f, len) == 0, "case %d: frame changed", _i);
	/* Nothing was counted: user space counts what it is handed. */
	if (_i != P_NEIGH_OTHER_IF && _i != P_NH_GONE && _i != P_OUT_IF_GONE &&
	    _i != P_IN_IF_GONE && _i != P_NO_KEY && _i != P_NH_NO_KEY)
		ck_assert_uint_eq(total_counts(), 0);
}
END_TEST

/* ---- differential: the program against the reference ------------------------- */

/* t_fpm_judge() (tests/lib/t_fastpath.h) over mutated frames. */
static uint32_t rng = 0x9e3779b9u;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* A counter: new, one of the last few, or of another lane. */
static uint64_t
pick_counter(uint64_t *next)
{
	switch (rnd() % 8) {
	case 0:
		return *next - rnd() % 300;	/* late, seen, or too old */
	case 1:
		return ((uint64_t)(rnd() % 4) << 56) | (*next / 2 +
		    rnd() % 600);
	default:
		return (*next += 1 + rnd() % 3);
	}
}

START_TEST(test_differential)
{
	uint8_t f[2048], out[2048];
	size_t len, k, nflip, pos, relayed = 0, passed = 0, dropped = 0;
	uint64_t next = 5000;
	const char *why;
	int v;

	for (k = 0; k < 20000; k++) {
		switch (rnd() % 4) {
		case 0:
			len = t_fpm_frame_ctr(f, T_FPM_ECHO_LEN + rnd() % 3 - 1,
			    WIRE_T_ECHO, pick_counter(&next));
			break;
		case 1:
			len = t_fpm_frame_ctr(f, 10 + rnd() % 40,
			    WIRE_T_UNICAST, pick_counter(&next));
			break;
		default:
			len = t_fpm_frame_ctr(f, INNER, WIRE_T_UNICAST,
			    pick_counter(&next));
			break;
		}
		/* Flip bits in the headers (and sometimes the length); not
		 * in the counter's low 56 bits: a flip there would move lane
		 * 0's window beyond every later frame (pick_counter() varies
		 * the counters). */
		for (nflip = rnd() % 3; nflip > 0; nflip--) {
			pos = rnd() % 70;
			if (pos < 23 || pos > 29)
				f[pos] ^= (uint8_t)(1u << (rnd() % 8));
		}
		if (rnd() % 8 == 0)
			len += rnd() % 5;	/* stale bytes: zero or not */
		if (rnd() % 8 == 0 && len > 14)
			len -= rnd() % 5;
		/* Mostly tagged as the neighbour would after the change. */
		if (rnd() % 4 != 0)
			t_fpm_retag(f, len, t_fpm_in_hop.key);
		v = run(f, len, out);
		why = t_fpm_judge(f, len, v, out);
		ck_assert_msg(why == NULL, "frame %zu: %s", k, why);
		if (v == FASTPATH_REDIRECT)
			relayed++;
		else if (v == FASTPATH_DROP)
			dropped++;
		else
			passed++;
	}
	fprintf(stderr, "differential: %zu relayed, %zu passed, %zu dropped\n",
	    relayed, passed, dropped);
	/* Every outcome was exercised. */
	ck_assert_uint_gt(relayed, 1000);
	ck_assert_uint_gt(passed, 1000);
	ck_assert_uint_gt(dropped, 500);
}
END_TEST

/* ---- the maps ---------------------------------------------------------------- */

START_TEST(test_maps)
{
	uint8_t keys[8 * 6], mac[6];
	struct fastpath_neigh_key nk[8];
	struct fastpath_count c;
	uint32_t ifs[8], ifindex;
	uint8_t f[2048], out[2048];
	size_t len = t_fpm_frame(f, INNER);

	ck_assert_uint_eq(fastpath_route_keys(&fp, keys, 8), 1);
	ck_assert_mem_eq(keys, t_fpm_dst, 6);
	ck_assert_int_eq(fastpath_route_get(&fp, t_fpm_dst, &ifindex, mac), 0);
	ck_assert_uint_eq(ifindex, OUT_IF);
	ck_assert_mem_eq(mac, t_fpm_nh_mac, 6);
	ck_assert_uint_eq(fastpath_neigh_keys(&fp, nk, 8), 2);
	ck_assert_uint_eq(fastpath_iface_keys(&fp, ifs, 8), 2);
	/* Adding a neighbour again keeps what it counted. */
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	ck_assert_int_eq(fastpath_neigh_add(&fp, IN_IF, t_fpm_in_mac,
	    &t_fpm_in_hop, NULL), 0);
	ck_assert_int_eq(fastpath_neigh_take(&fp, IN_IF, t_fpm_in_mac, &c), 0);
	ck_assert_uint_eq(c.rx_frames, 1);
	ck_assert_int_eq(fastpath_neigh_take(&fp, IN_IF, t_fpm_in_mac, &c), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* A deleted route is gone for the program too. */
	ck_assert_int_eq(fastpath_neigh_add(&fp, IN_IF, t_fpm_in_mac,
	    &t_fpm_in_hop, NULL), 0);
	ck_assert_int_eq(fastpath_route_del(&fp, t_fpm_dst), 0);
	ck_assert_uint_eq(fastpath_route_keys(&fp, keys, 8), 0);
	ck_assert_int_eq(fastpath_route_get(&fp, t_fpm_dst, &ifindex, mac), -1);
	len = t_fpm_frame(f, INNER);
	ck_assert_int_eq(run(f, len, out), FASTPATH_PASS);
	/* Replaced in place. */
	ck_assert_int_eq(fastpath_route_set(&fp, t_fpm_dst, OUT_IF,
	    t_fpm_in_mac), 0);
	ck_assert_int_eq(fastpath_route_set(&fp, t_fpm_dst, OUT_IF,
	    t_fpm_nh_mac), 0);
	ck_assert_uint_eq(fastpath_route_keys(&fp, keys, 8), 1);
	len = t_fpm_frame(f, INNER);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	/* No attach to nothing. */
	ck_assert_int_eq(fastpath_attach(&fp, 0), -1);
}
END_TEST

/* A link at a real interface's ingress, and gone with its fd. */
START_TEST(test_attach)
{
	int link = fastpath_attach(&fp, IN_IF);

	ck_assert_msg(link >= 0, "attach at lo: %s", strerror(errno));
	/* One program per interface and link. */
	ck_assert_int_eq(close(link), 0);
	link = fastpath_attach(&fp, IN_IF);
	ck_assert_msg(link >= 0, "attach again: %s", strerror(errno));
	ck_assert_int_eq(close(link), 0);
	ck_assert_int_eq(fastpath_attach(&fp, 999999), -1);
}
END_TEST

/* ---- the deadline ------------------------------------------------------------ */

/* Past its deadline, or before one was set, the program relays nothing. */
START_TEST(test_alive)
{
	uint8_t f[2048], out[2048];
	size_t len = t_fpm_frame(f, INNER);
	struct fastpath fresh;
	char err[256];
	int verdict = 0;

	ck_assert_int_eq(fastpath_alive(&fp, fastpath_now_ns() - 1), 0);
	ck_assert_int_eq(run(f, len, out), FASTPATH_PASS);
	ck_assert_mem_eq(out, f, len);
	ck_assert_uint_eq(total_counts(), 0);
	ck_assert_int_eq(fastpath_alive(&fp, fastpath_now_ns() +
	    10000000000u), 0);
	ck_assert_int_eq(run(f, len, out), FASTPATH_REDIRECT);
	len = t_fpm_frame(f, INNER);
	/* A program just loaded has no deadline yet. */
	ck_assert_msg(fastpath_open(&fresh, T_FPM_ET, t_fpm_own, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(fastpath_iface_add(&fresh, IN_IF, t_fpm_lo_mac, MTU),
	    0);
	ck_assert_int_eq(fastpath_iface_add(&fresh, OUT_IF, t_fpm_out_mac, MTU),
	    0);
	ck_assert_int_eq(fastpath_neigh_add(&fresh, IN_IF, t_fpm_in_mac,
	    &t_fpm_in_hop, NULL), 0);
	ck_assert_int_eq(fastpath_neigh_add(&fresh, OUT_IF, t_fpm_nh_mac,
	    &t_fpm_nh_hop, NULL), 0);
	ck_assert_int_eq(fastpath_route_set(&fresh, t_fpm_dst, OUT_IF,
	    t_fpm_nh_mac), 0);
	ck_assert_int_eq(fastpath_test_run(&fresh, f, len, out, sizeof(out),
	    &verdict), 0);
	ck_assert_int_eq(verdict, FASTPATH_PASS);
	ck_assert_int_eq(fastpath_alive(&fresh, UINT64_MAX), 0);
	ck_assert_int_eq(fastpath_test_run(&fresh, f, len, out, sizeof(out),
	    &verdict), 0);
	ck_assert_int_eq(verdict, FASTPATH_REDIRECT);
	fastpath_close(&fresh);
}
END_TEST

/* ---- attached to real interfaces --------------------------------------------- */

/*
 * Two veth pairs, va-vb and wa-wb: a frame sent on va arrives at vb,
 * where the program is attached; it relays to the "next hop" wb through
 * wa.  The maps describe exactly that.
 */
struct wire2 {
	struct nl_sock *nl;
	struct nl_link va, vb, wa, wb;
	int tx, rx;			/* AF_PACKET on va and on wb */
};

static void
link_up(struct wire2 *w, const char *name, struct nl_link *l)
{
	ck_assert_int_eq(nl_link_get_by_name(w->nl, name, l), 0);
	ck_assert_int_eq(nl_link_set_up(w->nl, l->ifindex, true), 0);
}

static int
packet_socket(int ifindex)
{
	struct sockaddr_ll sll;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 300000 };
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(T_FPM_ET));

	ck_assert_int_ge(fd, 0);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(T_FPM_ET);
	sll.sll_ifindex = ifindex;
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
	    sizeof(tv)), 0);
	return fd;
}

static void
wire2_setup(struct wire2 *w)
{
	memset(w, 0, sizeof(*w));
	ck_assert_ptr_nonnull(w->nl = nl_open());
	ck_assert_int_eq(nl_veth_create(w->nl, "va", "vb"), 0);
	ck_assert_int_eq(nl_veth_create(w->nl, "wa", "wb"), 0);
	link_up(w, "va", &w->va);
	link_up(w, "vb", &w->vb);
	link_up(w, "wa", &w->wa);
	link_up(w, "wb", &w->wb);
	ck_assert_int_eq(fastpath_iface_add(&fp, (uint32_t)w->vb.ifindex,
	    w->vb.mac, MTU), 0);
	ck_assert_int_eq(fastpath_iface_add(&fp, (uint32_t)w->wa.ifindex,
	    w->wa.mac, MTU), 0);
	ck_assert_int_eq(fastpath_neigh_add(&fp, (uint32_t)w->vb.ifindex,
	    w->va.mac, &t_fpm_in_hop, NULL), 0);
	ck_assert_int_eq(fastpath_neigh_add(&fp, (uint32_t)w->wa.ifindex,
	    w->wb.mac, &t_fpm_nh_hop, NULL), 0);
	ck_assert_int_eq(fastpath_route_set(&fp, t_fpm_dst,
	    (uint32_t)w->wa.ifindex, w->wb.mac), 0);
	w->tx = packet_socket(w->va.ifindex);
	w->rx = packet_socket(w->wb.ifindex);
}

static void
wire2_teardown(struct wire2 *w)
{
	(void)close(w->tx);
	(void)close(w->rx);
	(void)nl_link_delete(w->nl, w->va.ifindex);
	(void)nl_link_delete(w->nl, w->wa.ifindex);
	nl_close(w->nl);
}

/* Sends a relayable frame on va: 1 when wb got it relayed (the next hop
 * as destination, wa as source, TTL - 1, the next link's keyid, a
 * counter of a relay lane and its tag, the rest as sent), else 0. */
static int
wire2_relays(struct wire2 *w, uint8_t tag)
{
	uint8_t f[2048], in[2048], t[8];
	size_t len = t_fpm_frame(f, INNER);
	ssize_t n;

	memcpy(f, w->vb.mac, 6);
	memcpy(f + 6, w->va.mac, 6);
	f[66] = tag;
	t_fpm_retag(f, len, t_fpm_in_hop.key);
	ck_assert_int_eq(send(w->tx, f, len, 0), (ssize_t)len);
	while ((n = recv(w->rx, in, sizeof(in), 0)) >= 0) {
		if ((size_t)n != len || in[66] != tag)
			continue;
		ck_assert_mem_eq(in, w->wb.mac, 6);
		ck_assert_mem_eq(in + 6, w->wa.mac, 6);
		ck_assert_int_eq(in[16], f[16] - 1);
		ck_assert_mem_eq(in + 18, t_fpm_nh_hop.keyid, 4);
		ck_assert_uint_ge(in[22], 1);
		ck_assert_int_eq(t_fpm_tag(in, len, t_fpm_nh_hop.key, t), 0);
		ck_assert_mem_eq(in + 30, t, 8);
		ck_assert_mem_eq(in + 38, f + 38, len - 38);
		return 1;
	}
	return 0;
}

/* A tcx link: relays while its fd is open. */
START_TEST(test_attach_tcx_relays)
{
	struct wire2 w;
	int link;

	wire2_setup(&w);
	ck_assert_int_eq(wire2_relays(&w, 1), 0);
	link = fastpath_attach(&fp, w.vb.ifindex);
	ck_assert_msg(link >= 0, "tcx attach: %s", strerror(errno));
	ck_assert_int_eq(wire2_relays(&w, 2), 1);
	ck_assert_int_eq(close(link), 0);
	ck_assert_int_eq(wire2_relays(&w, 3), 0);
	wire2_teardown(&w);
}
END_TEST

/*
 * VLAN tags (batsecd(8), "In-kernel relay"): a frame sent on va with a
 * tag after the MACs arrives at vb with the tag moved out of the frame by
 * the kernel (skb->vlan_present) before the relay runs.  The socket path
 * (rawsock.c's filter on a socket bound to vb) and the relay must treat
 * it alike: whether the forwarder's socket gets a tagged frame may not
 * depend on whether the relay is attached, and the relay relays none.
 * A priority tag (VID 0) is cleared by the kernel before the socket sees
 * the frame; a tag for a VLAN no device of vb's serves makes it a frame
 * for another host; neither is the relay's to take.
 */
static const struct vlan_case {
	uint16_t tpid, tci;
} vlan_cases[] = {
	{ 0x8100, 100 },		/* 802.1Q, VLAN 100 */
	{ 0x8100, 0 },			/* 802.1p priority tag */
	{ 0x8100, 0xe000 | 7 },		/* priority 7, VLAN 7 */
	{ 0x88a8, 100 },		/* 802.1ad service tag */
};

/* The relayable frame of wire2_relays with the tag after the MACs. */
static size_t
vlan_frame(const struct wire2 *w, const struct vlan_case *c, uint8_t tag,
    uint8_t *f, size_t cap)
{
	uint8_t plain[2048];
	size_t len = t_fpm_frame(plain, INNER);

	ck_assert_uint_le(len + 4, cap);
	memcpy(plain, w->vb.mac, 6);
	memcpy(plain + 6, w->va.mac, 6);
	plain[66] = tag;
	t_fpm_retag(plain, len, t_fpm_in_hop.key);
	memcpy(f, plain, 12);
	f[12] = (uint8_t)(c->tpid >> 8);
	f[13] = (uint8_t)c->tpid;
	f[14] = (uint8_t)(c->tci >> 8);
	f[15] = (uint8_t)c->tci;
	memcpy(f + 16, plain + 12, len - 12);
	return len + 4;
}

/* 1 when fd (nonblocking or not) gets a frame with byte 66 (after the
 * Ethernet header) equal to tag within 300 ms. */
static int
got_tag(int fd, uint8_t tag)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t in[2048];
	ssize_t n;

	while (poll(&p, 1, 300) == 1) {
		n = recv(fd, in, sizeof(in), MSG_DONTWAIT);
		if (n > 66 && in[66] == tag)
			return 1;
	}
	return 0;
}

START_TEST(test_vlan_agree)
{
	const struct vlan_case *c = &vlan_cases[_i];
	struct rawsock rs;
	struct wire2 w;
	uint8_t f[2048];
	size_t len;
	int link, sock_off, sock_on, relayed;

	wire2_setup(&w);
	ck_assert_int_eq(rawsock_open(&rs, w.vb.ifindex, T_FPM_ET), 0);
	len = vlan_frame(&w, c, 1, f, sizeof(f));
	ck_assert_int_eq(send(w.tx, f, len, 0), (ssize_t)len);
	sock_off = got_tag(rs.fd, 1);
	link = fastpath_attach(&fp, w.vb.ifindex);
	ck_assert_msg(link >= 0, "tcx attach: %s", strerror(errno));
	/* Untagged, the same frame is relayed: the relay is working. */
	ck_assert_int_eq(wire2_relays(&w, 2), 1);
	len = vlan_frame(&w, c, 3, f, sizeof(f));
	ck_assert_int_eq(send(w.tx, f, len, 0), (ssize_t)len);
	sock_on = got_tag(rs.fd, 3);
	relayed = got_tag(w.rx, 3);
	ck_assert_msg(!relayed, "tpid %04x tci %04x: the relay relayed a "
	    "tagged frame (the socket path %s it)", c->tpid, c->tci,
	    sock_off ? "takes" : "refuses");
	ck_assert_msg(sock_on == sock_off, "tpid %04x tci %04x: the socket "
	    "gets the tagged frame %s the relay, %s it", c->tpid, c->tci,
	    sock_off ? "without" : "with", sock_off ? "not with" : "not without");
	ck_assert_int_eq(close(link), 0);
	rawsock_close(&rs);
	wire2_teardown(&w);
}
END_TEST

/*
 * A tc filter (kernels without tcx, fast-path tc): relays once attached,
 * and not past its deadline, though still attached; replaced in place
 * when attached again; relays nothing once removed.
 */
START_TEST(test_attach_tc_relays)
{
	struct wire2 w;

	wire2_setup(&w);
	ck_assert_int_eq(wire2_relays(&w, 1), 0);
	ck_assert_msg(nl_tc_bpf_attach(w.nl, w.vb.ifindex, fp.prog_fd,
	    "batsec_relay", 0xb5ec, T_FPM_ET) == 0, "tc attach: %s: %s",
	    strerror(errno), nl_errmsg(w.nl));
	ck_assert_int_eq(wire2_relays(&w, 2), 1);
	ck_assert_int_eq(fastpath_alive(&fp, fastpath_now_ns() - 1), 0);
	ck_assert_int_eq(wire2_relays(&w, 3), 0);
	ck_assert_int_eq(fastpath_alive(&fp, UINT64_MAX), 0);
	ck_assert_int_eq(wire2_relays(&w, 4), 1);
	ck_assert_int_eq(nl_tc_bpf_attach(w.nl, w.vb.ifindex, fp.prog_fd,
	    "batsec_relay", 0xb5ec, T_FPM_ET), 0);
	ck_assert_int_eq(wire2_relays(&w, 5), 1);
	ck_assert_int_eq(nl_tc_bpf_detach(w.nl, w.vb.ifindex, 0xb5ec), 0);
	ck_assert_int_eq(wire2_relays(&w, 6), 0);
	ck_assert_int_eq(nl_tc_bpf_detach(w.nl, w.vb.ifindex, 0xb5ec), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* Preference 0 would be every filter: refused. */
	ck_assert_int_eq(nl_tc_bpf_detach(w.nl, w.vb.ifindex, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(nl_tc_bpf_attach(w.nl, w.vb.ifindex, fp.prog_fd,
	    "batsec_relay", 0, T_FPM_ET), -1);
	ck_assert_int_eq(errno, EINVAL);
	wire2_teardown(&w);
}
END_TEST

/* ---- the cost per frame -------------------------------------------------------- */

/*
 * The kernel's mean time per run (BPF_PROG_TEST_RUN, repeat): a frame
 * relayed (relayed back to its sender, whose key and MAC it then has
 * again, so every repetition relays: TTL 255, 200 repetitions a call),
 * one with a bad tag, a verified replay, a version-1 frame.
 */
static double
bench(const uint8_t *f, size_t len, uint32_t repeat, int calls, int want)
{
	uint64_t total = 0;
	uint32_t ns;
	int v, k;

	for (k = 0; k < calls; k++) {
		ck_assert_int_eq(fastpath_test_repeat(&fp, f, len, repeat, &v,
		    &ns), 0);
		ck_assert_int_eq(v, want);
		total += ns;
	}
	return (double)total / calls;
}

START_TEST(test_bench)
{
	static const uint8_t back[6] = { 0x06, 0x0b, 0x0a, 0x0c, 0x0c, 0x00 };
	uint8_t f[2048];
	double relay = 0, badtag, replay, v1;
	size_t len;
	int k;

	ck_assert_int_eq(fastpath_neigh_add(&fp, IN_IF, t_fpm_lo_mac,
	    &t_fpm_in_hop, NULL), 0);
	ck_assert_int_eq(fastpath_route_set(&fp, back, IN_IF, t_fpm_lo_mac),
	    0);
	for (k = 0; k < 200; k++) {
		len = t_fpm_frame(f, 1400);
		memcpy(f + 6, t_fpm_lo_mac, 6);
		memcpy(f + 38, back, 6);
		f[16] = 255;
		t_fpm_retag(f, len, t_fpm_in_hop.key);
		relay += bench(f, len, 200, 1, FASTPATH_REDIRECT);
	}
	relay /= 200;
	len = t_fpm_frame(f, 1400);
	f[30] ^= 1;
	badtag = bench(f, len, 20000, 10, FASTPATH_PASS);
	len = t_fpm_frame(f, 1400);
	memcpy(f + 38, t_fpm_own, 6);		/* passed up, then replays */
	t_fpm_retag(f, len, t_fpm_in_hop.key);
	replay = bench(f, len, 20000, 10, FASTPATH_DROP);
	memset(f + 14, 0, 20);
	f[14] = WIRE_T_UNICAST;
	f[15] = 1;
	v1 = bench(f, len, 20000, 10, FASTPATH_PASS);
	fprintf(stderr, "fastpath cost per %zu-byte frame (ns): relayed %.0f, "
	    "bad tag %.0f, replay dropped %.0f, v1 passed %.0f\n", len,
	    relay, badtag, replay, v1);
}
END_TEST

START_TEST(test_open_errors)
{
	struct fastpath closed;

	fastpath_init(&closed);
	ck_assert_int_eq(fastpath_loaded(&closed), 0);
	ck_assert_int_eq(fastpath_attach(&closed, IN_IF), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(fastpath_loaded(&fp), 1);
	fastpath_close(&closed);
}
END_TEST

static Suite *
fastpath_suite(void)
{
	Suite *s = suite_create("fastpath");
	TCase *tc = tcase_create("relay");

	tcase_add_checked_fixture(tc, fp_setup, fp_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_relay);
	tcase_add_test(tc, test_relay_limits);
	tcase_add_test(tc, test_replay);
	tcase_add_test(tc, test_replay_new_key);
	tcase_add_loop_test(tc, test_pass, 0, N_PASS_CASES);
	tcase_add_test(tc, test_differential);
	tcase_add_test(tc, test_maps);
	tcase_add_test(tc, test_attach);
	tcase_add_test(tc, test_alive);
	tcase_add_test(tc, test_attach_tcx_relays);
	tcase_add_test(tc, test_attach_tc_relays);
	tcase_add_loop_test(tc, test_vlan_agree, 0,
	    (int)(sizeof(vlan_cases) / sizeof(vlan_cases[0])));
	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_bench);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(fastpath_suite());
}
