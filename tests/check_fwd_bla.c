/*
 * check_fwd_bla.c — unit tests of bridge loop avoidance
 * (src/forwarder/fwd_bla.c): the ANNOUNCE frame (build, parse, every byte
 * and length), what makes one believed (route, epoch, seqno, signature,
 * rate, table bound), backbones timing out, the election (one backbone
 * per client, the same on every backbone, only the lost backbone's
 * clients move), the verdicts for frames from the LAN and broadcasts
 * from the mesh, the wait period, and local clients given up.  Routes
 * and TTs are real tables (fwd_tables.c); time is passed in.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bs_bytes.h"
#include "forwarder/fwd_bla.h"
#include "forwarder/fwd_tables.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

#define T0	1000000ull
#define EPOCH	7u
#define NID	4

static struct fwd_tables *t;
static struct fwd_bla *b;
/* Node 0 is us; 1..3 other nodes with routes in epoch EPOCH. */
static struct bs_identity id[NID];
static uint8_t addr[NID][BS_ADDR_LEN];

static void
route(unsigned n, uint32_t epoch, uint64_t now)
{
	struct ipc_route r;

	memset(&r, 0, sizeof(r));
	memcpy(r.orig_pk, id[n].pk, BS_PK_LEN);
	memcpy(r.orig_addr, addr[n], BS_ADDR_LEN);
	memcpy(r.nexthop, addr[n], BS_ADDR_LEN);
	r.ifindex = 3;
	r.tq = 200;
	r.hops = 1;
	r.epoch = epoch;
	ck_assert_int_eq(fwd_route_add(t, &r, now), 0);
}

/* A client MAC: 02:cc:00:00:xx:yy. */
static void
client_mac(unsigned n, uint8_t m[BS_ADDR_LEN])
{
	static const uint8_t base[BS_ADDR_LEN] = { 0x02, 0xcc, 0, 0, 0, 0 };

	memcpy(m, base, BS_ADDR_LEN);
	m[4] = (uint8_t)(n >> 8);
	m[5] = (uint8_t)n;
}

/* Node n's ANNOUNCE number seqno, heard by us at now. */
static int
hear(unsigned n, uint32_t seqno, uint64_t now)
{
	uint8_t f[FWD_BLA_FRAME_LEN];

	ck_assert_uint_eq(fwd_bla_build(f, &id[n], EPOCH, seqno),
	    FWD_BLA_FRAME_LEN);
	return fwd_bla_heard(b, t, addr[0], f, sizeof(f), now);
}

/* An Ethernet frame from src to dst (60 bytes, IPv4 ethertype). */
static void
eth(uint8_t f[60], const uint8_t *dst, const uint8_t *src)
{
	memset(f, 0, 60);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	bs_put16(f + 12, 0x0800);
}

static void
setup(void)
{
	unsigned i;

	ck_assert_int_ge(sodium_init(), 0);
	t = fwd_tables_new();
	b = malloc(sizeof(*b));
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(b);
	for (i = 0; i < NID; i++)
		t_ident_addr(&id[i], addr[i], (uint8_t)(0x31 + i));
	for (i = 1; i < NID; i++)
		route(i, EPOCH, T0);
	fwd_bla_init(b);
	fwd_bla_enable(b, 1, T0);
}

static void
teardown(void)
{
	fwd_tables_free(t);
	free(b);
}

/* ---- the frame --------------------------------------------------------- */

START_TEST(test_frame)
{
	uint8_t f[FWD_BLA_FRAME_LEN + 1], g[FWD_BLA_FRAME_LEN];
	struct fwd_bla_announce a;
	size_t i;

	ck_assert_uint_eq(fwd_bla_build(f, &id[1], 0x01020304u, 0x0a0b0c0du),
	    FWD_BLA_FRAME_LEN);
	ck_assert_uint_eq(FWD_BLA_FRAME_LEN, 102);
	ck_assert_mem_eq(f, fwd_bla_group, 6);
	ck_assert_mem_eq(f + 6, addr[1], 6);
	ck_assert_uint_eq(bs_get16(f + 12), FWD_BLA_ETHERTYPE);
	ck_assert_int_eq(fwd_bla_is_group(f, 14), 1);
	ck_assert_int_eq(fwd_bla_is_group(f, 13), 0);
	ck_assert_int_eq(fwd_bla_parse(f, FWD_BLA_FRAME_LEN, &a), 1);
	ck_assert_mem_eq(a.addr, addr[1], 6);
	ck_assert_uint_eq(a.epoch, 0x01020304u);
	ck_assert_uint_eq(a.seqno, 0x0a0b0c0du);
	ck_assert_ptr_eq(a.body, f + 14);
	ck_assert_ptr_eq(a.sig, f + 14 + FWD_BLA_BODY_LEN);
	ck_assert_int_eq(bs_verify(a.sig, BS_DOM_BLA, a.body,
	    FWD_BLA_BODY_LEN, id[1].pk), 0);
	/* Exact length only. */
	f[FWD_BLA_FRAME_LEN] = 0;
	ck_assert_int_eq(fwd_bla_parse(f, FWD_BLA_FRAME_LEN + 1, &a), 0);
	ck_assert_int_eq(fwd_bla_parse(f, FWD_BLA_FRAME_LEN - 1, &a), 0);
	ck_assert_int_eq(fwd_bla_parse(f, 0, &a), 0);
	/* Every byte before epoch and seqno is checked by the parser;
	 * epoch, seqno and the signature by the signature. */
	for (i = 0; i < 14 + 16; i++) {
		memcpy(g, f, sizeof(g));
		g[i] ^= 0x40;
		ck_assert_msg(fwd_bla_parse(g, sizeof(g), &a) == 0,
		    "byte %zu", i);
	}
	for (i = 14 + 16; i < FWD_BLA_FRAME_LEN; i++) {
		memcpy(g, f, sizeof(g));
		g[i] ^= 0x01;
		ck_assert_int_eq(fwd_bla_parse(g, sizeof(g), &a), 1);
		ck_assert_msg(bs_verify(a.sig, BS_DOM_BLA, a.body,
		    FWD_BLA_BODY_LEN, id[1].pk) != 0, "byte %zu", i);
	}
	/* Signed in its own domain: not a BCAST signature. */
	ck_assert_int_ne(bs_verify(a.sig, BS_DOM_BCAST, f + 14,
	    FWD_BLA_BODY_LEN, id[1].pk), 0);
}
END_TEST

/* ---- believing an ANNOUNCE --------------------------------------------- */

START_TEST(test_heard)
{
	uint8_t f[FWD_BLA_FRAME_LEN];

	ck_assert_int_eq(fwd_bla_alive(b), 0);
	ck_assert_int_eq(hear(1, 1, T0), 1);
	ck_assert_uint_eq(b->c.heard, 1);
	ck_assert_int_eq(fwd_bla_alive(b), 1);
	ck_assert_int_eq(fwd_bla_is_backbone(b, addr[1]), 1);
	ck_assert_int_eq(fwd_bla_is_backbone(b, addr[2]), 0);
	/* Replays: the same seqno, an older one. */
	ck_assert_int_eq(hear(1, 1, T0 + 10), 0);
	ck_assert_int_eq(hear(1, 0, T0 + 10), 0);
	ck_assert_uint_eq(b->c.refused_replay, 2);
	ck_assert_int_eq(hear(1, 2, T0 + 10), 1);
	/* Our own, come back over a loop of the LAN. */
	ck_assert_uint_eq(fwd_bla_build(f, &id[0], EPOCH, 1), sizeof(f));
	ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f), T0), 0);
	ck_assert_uint_eq(b->c.own, 1);
	/* No route, or not the epoch its route has. */
	ck_assert_int_eq(fwd_route_del(t, addr[2]), 1);
	ck_assert_int_eq(hear(2, 1, T0), 0);
	route(2, EPOCH + 1, T0);
	ck_assert_int_eq(hear(2, 1, T0), 0);
	ck_assert_uint_eq(b->c.refused_unknown, 2);
	/* A newer epoch than the route's (node 3 restarted, its new OGMs
	 * not in yet): believed; then its older epoch is a replay. */
	ck_assert_int_eq(fwd_route_del(t, addr[3]), 1);
	route(3, EPOCH - 1, T0);
	ck_assert_int_eq(hear(3, 9, T0), 1);
	ck_assert_int_eq(fwd_route_del(t, addr[3]), 1);
	route(3, EPOCH - 2, T0);
	{
		uint8_t g[FWD_BLA_FRAME_LEN];

		ck_assert_uint_eq(fwd_bla_build(g, &id[3], EPOCH - 1, 100),
		    sizeof(g));
		ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], g, sizeof(g),
		    T0), 0);
		ck_assert_uint_eq(b->c.refused_replay, 3);
	}
	ck_assert_int_eq(hear(3, 10, T0), 1);
	fwd_bla_enable(b, 1, T0);	/* empty again */
	route(3, EPOCH, T0);
	/* A forged signature: node 3's address, node 2's key. */
	ck_assert_uint_eq(fwd_bla_build(f, &id[2], EPOCH, 5), sizeof(f));
	memcpy(f + 6, addr[3], 6);
	memcpy(f + 14 + 8, addr[3], 6);
	ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f), T0), 0);
	ck_assert_uint_eq(b->c.refused_sig, 1);
	ck_assert_int_eq(fwd_bla_is_backbone(b, addr[3]), 0);
	/* Not a frame of ours at all. */
	f[14] = 'X';
	ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f), T0), 0);
	ck_assert_uint_eq(b->c.malformed, 1);
	/* Off: nothing is learnt. */
	fwd_bla_enable(b, 0, T0);
	ck_assert_int_eq(hear(3, 1, T0), 0);
	ck_assert_int_eq(fwd_bla_alive(b), 0);
	ck_assert_int_eq(fwd_bla_engaged(b, T0), 0);
}
END_TEST

START_TEST(test_rate)
{
	uint32_t i;

	/* FWD_BLA_VERIFY_RATE checks at once, then one each 50 ms. */
	for (i = 1; i <= FWD_BLA_VERIFY_RATE; i++)
		ck_assert_int_eq(hear(1, i, T0), 1);
	ck_assert_int_eq(hear(1, 100, T0), 0);
	ck_assert_uint_eq(b->c.refused_rate, 1);
	ck_assert_int_eq(hear(1, 101, T0 + 1000 / FWD_BLA_VERIFY_RATE), 1);
}
END_TEST

/*
 * Fail safe: a flood of forged ANNOUNCEs (node 1's address, node 2's
 * key) takes every check, and node 1's real ones are refused for the
 * rate; node 1 stays alive all the same.  A new backbone is never made
 * without a check.
 */
START_TEST(test_rate_flood)
{
	uint8_t f[FWD_BLA_FRAME_LEN];
	uint64_t now = T0;
	uint32_t seq = 1, fake = 1000;
	unsigned i;

	ck_assert_int_eq(hear(1, seq++, now), 1);
	for (now = T0; now < T0 + 3 * FWD_BLA_TIMEOUT_MS; now += 50) {
		uint8_t out[FWD_BLA_FRAME_LEN];

		for (i = 0; i < 4; i++) {
			ck_assert_uint_eq(fwd_bla_build(f, &id[2], EPOCH,
			    fake++), sizeof(f));
			memcpy(f + 6, addr[1], 6);
			memcpy(f + 14 + 8, addr[1], 6);
			ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f,
			    sizeof(f), now), 0);
		}
		if ((now - T0) % 1000 == 0)
			(void)hear(1, seq++, now);
		(void)fwd_bla_tick(b, t, &id[0], EPOCH, now, out);
		ck_assert_int_eq(fwd_bla_is_backbone(b, addr[1]), 1);
	}
	ck_assert_uint_gt(b->c.refused_sig, 100);
	ck_assert_uint_gt(b->c.refused_rate, 100);
	ck_assert_uint_eq(b->c.timeouts, 0);
	/* Node 3, not checked (no token left), is not made a backbone. */
	for (i = 0; i < FWD_BLA_VERIFY_RATE; i++) {
		ck_assert_uint_eq(fwd_bla_build(f, &id[2], EPOCH, fake++),
		    sizeof(f));
		memcpy(f + 6, addr[1], 6);
		memcpy(f + 14 + 8, addr[1], 6);
		(void)fwd_bla_heard(b, t, addr[0], f, sizeof(f), now);
	}
	ck_assert_uint_eq(fwd_bla_build(f, &id[3], EPOCH, 1), sizeof(f));
	ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f), now), 0);
	ck_assert_int_eq(fwd_bla_is_backbone(b, addr[3]), 0);
}
END_TEST

START_TEST(test_timeout)
{
	uint8_t out[FWD_BLA_FRAME_LEN];

	ck_assert_int_eq(fwd_bla_waiting(b, T0), 1);
	ck_assert_int_eq(fwd_bla_engaged(b, T0), 1);
	ck_assert_int_eq(fwd_bla_waiting(b, T0 + FWD_BLA_WAIT_MS), 0);
	ck_assert_int_eq(fwd_bla_engaged(b, T0 + FWD_BLA_WAIT_MS), 0);
	ck_assert_int_eq(hear(1, 1, T0 + 1000), 1);
	ck_assert_int_eq(fwd_bla_engaged(b, T0 + FWD_BLA_WAIT_MS), 1);
	(void)fwd_bla_tick(b, t, &id[0], EPOCH,
	    T0 + 1000 + FWD_BLA_TIMEOUT_MS - 1, out);
	ck_assert_int_eq(fwd_bla_alive(b), 1);
	(void)fwd_bla_tick(b, t, &id[0], EPOCH,
	    T0 + 1000 + FWD_BLA_TIMEOUT_MS, out);
	ck_assert_int_eq(fwd_bla_alive(b), 0);
	ck_assert_uint_eq(b->c.timeouts, 1);
	ck_assert_int_eq(fwd_bla_engaged(b, T0 + 1000 + FWD_BLA_TIMEOUT_MS), 0);
	/* Heard again: alive again; an old seqno still refused. */
	ck_assert_int_eq(hear(1, 1, T0 + 6000), 0);
	ck_assert_int_eq(hear(1, 2, T0 + 6000), 1);
	ck_assert_int_eq(fwd_bla_alive(b), 1);
}
END_TEST

START_TEST(test_bound)
{
	struct bs_identity extra[FWD_BLA_BACKBONE_MAX + 1];
	uint8_t ea[FWD_BLA_BACKBONE_MAX + 1][BS_ADDR_LEN];
	uint8_t f[FWD_BLA_FRAME_LEN], out[FWD_BLA_FRAME_LEN];
	struct ipc_route r;
	uint64_t now = T0;
	size_t i;

	for (i = 0; i <= FWD_BLA_BACKBONE_MAX; i++) {
		t_ident_addr(&extra[i], ea[i], (uint8_t)(0x80 + i));
		memset(&r, 0, sizeof(r));
		memcpy(r.orig_pk, extra[i].pk, BS_PK_LEN);
		memcpy(r.orig_addr, ea[i], BS_ADDR_LEN);
		memcpy(r.nexthop, ea[i], BS_ADDR_LEN);
		r.ifindex = 3;
		r.epoch = EPOCH;
		ck_assert_int_eq(fwd_route_add(t, &r, T0), 0);
	}
	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++) {
		ck_assert_uint_eq(fwd_bla_build(f, &extra[i], EPOCH, 1),
		    sizeof(f));
		now += 100;
		ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f),
		    now), 1);
	}
	ck_assert_uint_eq(fwd_bla_alive(b), FWD_BLA_BACKBONE_MAX);
	ck_assert_uint_eq(fwd_bla_build(f, &extra[FWD_BLA_BACKBONE_MAX],
	    EPOCH, 1), sizeof(f));
	ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f), now), 0);
	ck_assert_uint_eq(b->c.refused_full, 1);
	/* The first one times out: its slot is taken. */
	(void)fwd_bla_tick(b, t, &id[0], EPOCH, T0 + 100 + FWD_BLA_TIMEOUT_MS,
	    out);
	ck_assert_uint_eq(fwd_bla_alive(b), FWD_BLA_BACKBONE_MAX - 1);
	ck_assert_int_eq(fwd_bla_heard(b, t, addr[0], f, sizeof(f),
	    T0 + 100 + FWD_BLA_TIMEOUT_MS), 1);
	ck_assert_uint_eq(fwd_bla_alive(b), FWD_BLA_BACKBONE_MAX);
	ck_assert_int_eq(fwd_bla_is_backbone(b, ea[0]), 0);
	ck_assert_int_eq(fwd_bla_is_backbone(b, ea[FWD_BLA_BACKBONE_MAX]), 1);
}
END_TEST

/* ---- the election -------------------------------------------------------- */

/* The view of node n: a bla whose alive backbones are the others in set. */
static void
view(struct fwd_bla *v, unsigned n, unsigned set)
{
	unsigned i, k = 0;

	fwd_bla_init(v);
	fwd_bla_enable(v, 1, 0);
	for (i = 0; i < NID; i++) {
		if (i == n || !(set & (1u << i)))
			continue;
		memcpy(v->bb[k].addr, addr[i], BS_ADDR_LEN);
		v->bb[k].used = v->bb[k].alive = 1;
		k++;
	}
}

START_TEST(test_elect)
{
	static struct fwd_bla v[NID];
	uint8_t mac[6], w[6], w2[6];
	unsigned c, n, won[NID] = { 0 }, moved = 0, others = 0;

	/* Backbones 0, 1, 2: each client is served by exactly one, and all
	 * three agree which. */
	for (n = 0; n < 3; n++)
		view(&v[n], n, 0x7);
	for (c = 0; c < 600; c++) {
		unsigned mine = 0;

		client_mac(c, mac);
		for (n = 0; n < 3; n++) {
			if (fwd_bla_elect(&v[n], addr[n], mac, 0, w)) {
				mine++;
				won[n]++;
			}
			if (n > 0)
				ck_assert_mem_eq(w, w2, 6);
			memcpy(w2, w, 6);
		}
		ck_assert_uint_eq(mine, 1);
	}
	/* Spread: about a third each. */
	for (n = 0; n < 3; n++)
		ck_assert_msg(won[n] > 120 && won[n] < 280, "%u: %u", n,
		    won[n]);
	/* A VLAN is another client. */
	for (c = 0; c < 600; c++) {
		client_mac(c, mac);
		(void)fwd_bla_elect(&v[0], addr[0], mac, 0, w);
		(void)fwd_bla_elect(&v[0], addr[0], mac,
		    WIRE_VID_TAGGED | 5, w2);
		others += memcmp(w, w2, 6) != 0;
	}
	ck_assert_uint_gt(others, 100);
	/* Backbone 2 goes: only its clients move. */
	view(&v[3], 0, 0x3);
	for (c = 0; c < 600; c++) {
		client_mac(c, mac);
		(void)fwd_bla_elect(&v[0], addr[0], mac, 0, w);
		(void)fwd_bla_elect(&v[3], addr[0], mac, 0, w2);
		if (memcmp(w, addr[2], 6) == 0) {
			moved++;
			continue;
		}
		ck_assert_mem_eq(w, w2, 6);
	}
	ck_assert_uint_eq(moved, won[2]);
	/* Alone: everything is ours. */
	view(&v[3], 0, 0x1);
	client_mac(1, mac);
	ck_assert_int_eq(fwd_bla_elect(&v[3], addr[0], mac, 0, NULL), 1);
}
END_TEST

/* A client MAC node n serves among backbones {0, 1}. */
static void
served_by(unsigned n, uint8_t mac[6])
{
	unsigned c;

	for (c = 0; c < 1000; c++) {
		client_mac(c, mac);
		if (fwd_bla_elect(b, addr[0], mac, 0, NULL) == (n == 0))
			return;
	}
	ck_abort_msg("no client for %u", n);
}

START_TEST(test_from_lan)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t f[60], ann[FWD_BLA_FRAME_LEN], mine[6], theirs[6], dst[6];
	uint64_t now = T0 + FWD_BLA_WAIT_MS;
	struct ipc_tt m;

	client_mac(999, dst);
	client_mac(1, mine);
	eth(f, bcast, mine);
	/* The wait period: broadcasts dropped, unicast on. */
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, T0),
	    FWD_BLA_DROP);
	ck_assert_uint_eq(b->c.drops_wait, 1);
	eth(f, dst, mine);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, T0),
	    FWD_BLA_PASS);
	/* After it, alone: everything on. */
	eth(f, bcast, mine);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_PASS);
	/* Node 1's ANNOUNCE: consumed, node 1 a backbone. */
	ck_assert_uint_eq(fwd_bla_build(ann, &id[1], EPOCH, 1), sizeof(ann));
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], ann, sizeof(ann), 0,
	    now), FWD_BLA_CONSUMED);
	ck_assert_int_eq(fwd_bla_alive(b), 1);
	/* A group frame that is no ANNOUNCE: consumed all the same. */
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], ann, 60, 0, now),
	    FWD_BLA_CONSUMED);
	ck_assert_uint_eq(b->c.malformed, 1);
	served_by(0, mine);
	served_by(1, theirs);
	/* Broadcasts: ours on, node 1's clients' dropped. */
	eth(f, bcast, mine);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_PASS);
	eth(f, bcast, theirs);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_DROP);
	ck_assert_uint_eq(b->c.drops_lan, 1);
	/* Unicast: on, node 1's client not learnt. */
	eth(f, dst, mine);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_PASS);
	eth(f, dst, theirs);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_PASS_NOLEARN);
	/* Unicast to a client node 1 announces: on this LAN, dropped; to
	 * one node 2 (no backbone) announces: on. */
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr[1], 6);
	memcpy(m.e[0].mac, dst, 6);
	m.count = 1;
	ck_assert_uint_eq(fwd_client_set(t, &m, now), 1);
	eth(f, dst, mine);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_DROP);
	ck_assert_uint_eq(b->c.drops_lan_unicast, 1);
	memcpy(m.orig_addr, addr[2], 6);
	ck_assert_uint_eq(fwd_client_set(t, &m, now), 1);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_PASS);
	/* Off: only the group frames are held back. */
	fwd_bla_enable(b, 0, now);
	eth(f, bcast, theirs);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], f, 60, 0, now),
	    FWD_BLA_PASS);
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], ann, sizeof(ann), 0,
	    now), FWD_BLA_CONSUMED);
}
END_TEST

START_TEST(test_to_lan)
{
	uint8_t f[60], mine[6], theirs[6];
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint64_t now = T0 + FWD_BLA_WAIT_MS;

	client_mac(1, mine);
	eth(f, bcast, mine);
	/* Waiting: not delivered; alone after it: delivered. */
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[2], f, 60, 0, T0), 0);
	ck_assert_uint_eq(b->c.drops_wait, 1);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[2], f, 60, 0, now), 1);
	ck_assert_int_eq(hear(1, 1, now), 1);
	served_by(0, mine);
	served_by(1, theirs);
	/* From backbone 1: the LAN had it. */
	eth(f, bcast, mine);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[1], f, 60, 0, now), 0);
	ck_assert_uint_eq(b->c.drops_backbone, 1);
	/* From node 2: only for the sources we serve. */
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[2], f, 60, 0, now), 1);
	eth(f, bcast, theirs);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[2], f, 60, 0, now), 0);
	ck_assert_uint_eq(b->c.drops_mesh, 1);
	/* Node 3's route is new (or gone): not delivered until it is
	 * FWD_BLA_NEW_ORIG_MS old, backbones or not. */
	eth(f, bcast, mine);
	ck_assert_int_eq(fwd_route_del(t, addr[3]), 1);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[3], f, 60, 0, now), 0);
	route(3, EPOCH, now);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[3], f, 60, 0,
	    now + FWD_BLA_NEW_ORIG_MS - 1), 0);
	ck_assert_uint_eq(b->c.drops_new_orig, 2);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[3], f, 60, 0,
	    now + FWD_BLA_NEW_ORIG_MS), 1);
	fwd_bla_enable(b, 0, now);
	route(3, EPOCH, now);
	ck_assert_int_eq(fwd_route_del(t, addr[3]), 1);
	route(3, EPOCH, now);
	ck_assert_int_eq(fwd_bla_to_lan(b, t, addr[0], addr[3], f, 60, 0, now), 1);
}
END_TEST

START_TEST(test_tick)
{
	uint8_t out[FWD_BLA_FRAME_LEN], mac[6], own[6] = { 2, 0, 0, 0, 0, 1 };
	struct fwd_bla_announce a;
	unsigned c, ours = 0;
	size_t cursor = 0;
	const struct fwd_local *l;

	/* The first tick announces, the next one a second later. */
	ck_assert_uint_eq(fwd_bla_tick(b, t, &id[0], EPOCH, T0, out),
	    FWD_BLA_FRAME_LEN);
	ck_assert_int_eq(fwd_bla_parse(out, sizeof(out), &a), 1);
	ck_assert_mem_eq(a.addr, addr[0], 6);
	ck_assert_uint_eq(a.epoch, EPOCH);
	ck_assert_uint_eq(a.seqno, 1);
	ck_assert_uint_eq(fwd_bla_tick(b, t, &id[0], EPOCH, T0 + 500, out), 0);
	ck_assert_uint_eq(fwd_bla_tick(b, t, &id[0], EPOCH, T0 + 1000, out),
	    FWD_BLA_FRAME_LEN);
	ck_assert_int_eq(fwd_bla_parse(out, sizeof(out), &a), 1);
	ck_assert_uint_eq(a.seqno, 2);
	ck_assert_uint_eq(b->c.announced, 2);
	/* 60 local clients and the TAP's own MAC; node 1 comes: the
	 * clients it serves are forgotten, the rest and the TAP kept. */
	ck_assert_int_eq(fwd_local_set_own(t, own, T0), 0);
	for (c = 0; c < 60; c++) {
		client_mac(c, mac);
		ck_assert_int_eq(fwd_local_learn(t, mac, 0, T0), 1);
	}
	(void)fwd_bla_tick(b, t, &id[0], EPOCH, T0 + 1100, out);
	ck_assert_uint_eq(fwd_local_count(t), 61);
	ck_assert_int_eq(hear(1, 1, T0 + 1100), 1);
	for (c = 0; c < 60; c++) {
		client_mac(c, mac);
		ours += fwd_bla_elect(b, addr[0], mac, 0, NULL);
	}
	ck_assert_uint_gt(ours, 10);
	ck_assert_uint_lt(ours, 50);
	(void)fwd_bla_tick(b, t, &id[0], EPOCH, T0 + 1200, out);
	ck_assert_uint_eq(fwd_local_count(t), ours + 1);
	ck_assert_uint_eq(b->c.unlearnt, 60 - ours);
	while ((l = fwd_local_next(t, &cursor)) != NULL)
		ck_assert(l->permanent ||
		    fwd_bla_elect(b, addr[0], l->mac, l->vid, NULL));
	/* Off: no ANNOUNCE. */
	fwd_bla_enable(b, 0, T0 + 5000);
	ck_assert_uint_eq(fwd_bla_tick(b, t, &id[0], EPOCH, T0 + 9000, out), 0);
}
END_TEST

START_TEST(test_claims)
{
	uint8_t out[FWD_BLA_CLAIM_LEN], g[FWD_BLA_CLAIM_LEN], mac[6];
	uint8_t ann[FWD_BLA_FRAME_LEN];
	unsigned c, want = 0, got = 0, i;
	struct ipc_tt m;
	size_t n;

	/* The frame: untagged and tagged, the client's MAC as source. */
	client_mac(7, mac);
	ck_assert_uint_eq(fwd_bla_claim_build(out, addr[0], mac, 0),
	    FWD_BLA_CLAIM_LEN);
	ck_assert_mem_eq(out, fwd_bla_group, 6);
	ck_assert_mem_eq(out + 6, mac, 6);
	ck_assert_int_eq(fwd_bla_claim_parse(out, sizeof(out)), 1);
	ck_assert_int_eq(fwd_bla_claim_parse(out, sizeof(out) - 1), 0);
	for (i = 0; i < FWD_BLA_CLAIM_LEN; i++) {
		memcpy(g, out, sizeof(g));
		g[i] ^= 0x01;
		/* The client's MAC and the sender's address, bar their I/G
		 * bits, are any unicast address. */
		if ((i >= 7 && i < 12) || (i >= 23 && i < 28))
			continue;
		ck_assert_msg(fwd_bla_claim_parse(g, sizeof(g)) == 0,
		    "byte %u", i);
	}
	ck_assert_uint_eq(fwd_bla_claim_build(out, addr[0], mac,
	    WIRE_VID_TAGGED | 12), FWD_BLA_CLAIM_LEN);
	ck_assert_uint_eq(bs_get16(out + 12), 0x8100);
	ck_assert_uint_eq(bs_get16(out + 14), 12);
	ck_assert_int_eq(fwd_bla_claim_parse(out, sizeof(out)), 1);
	/* Read from the LAN: consumed, counted, nothing learnt. */
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], out, sizeof(out), 0,
	    T0), FWD_BLA_CONSUMED);
	ck_assert_uint_eq(b->c.claims_heard, 1);
	ck_assert_uint_eq(b->c.malformed, 0);
	/* Node 2 (far away) announces clients 0..39, node 1 (a backbone of
	 * our LAN) 100..109.  Nothing to claim before the set changes. */
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr[2], 6);
	for (c = 0; c < 40; c++)
		client_mac(c, m.e[c].mac);
	m.count = 40;
	ck_assert_uint_eq(fwd_client_set(t, &m, T0), 40);
	memcpy(m.orig_addr, addr[1], 6);
	for (c = 0; c < 10; c++)
		client_mac(100 + c, m.e[c].mac);
	m.count = 10;
	ck_assert_uint_eq(fwd_client_set(t, &m, T0), 10);
	ck_assert_uint_eq(fwd_bla_claim_next(b, t, addr[0], out), 0);
	/* Node 1 comes: we claim node 2's clients we serve, once each. */
	ck_assert_uint_eq(fwd_bla_build(ann, &id[1], EPOCH, 1), sizeof(ann));
	ck_assert_int_eq(fwd_bla_from_lan(b, t, addr[0], ann, sizeof(ann), 0,
	    T0), FWD_BLA_CONSUMED);
	for (c = 0; c < 40; c++) {
		client_mac(c, mac);
		want += fwd_bla_elect(b, addr[0], mac, 0, NULL);
	}
	ck_assert_uint_gt(want, 5);
	ck_assert_uint_lt(want, 35);
	while ((n = fwd_bla_claim_next(b, t, addr[0], out)) != 0) {
		ck_assert_uint_eq(n, FWD_BLA_CLAIM_LEN);
		ck_assert_int_eq(fwd_bla_claim_parse(out, n), 1);
		ck_assert_int_eq(fwd_bla_elect(b, addr[0], out + 6, 0, NULL),
		    1);
		ck_assert_uint_eq(out[6 + 1], 0xcc);	/* 02:cc:00:00:00:xx */
		ck_assert_uint_lt(out[6 + 5], 40);	/* not node 1's */
		got++;
	}
	ck_assert_uint_eq(got, want);
	ck_assert_uint_eq(b->c.claims_sent, want);
	ck_assert_uint_eq(fwd_bla_claim_next(b, t, addr[0], out), 0);
	/* Node 1 times out: all of node 2's clients are ours now; node 1's
	 * own (LAN) clients are still not claimed. */
	(void)fwd_bla_tick(b, t, &id[0], EPOCH, T0 + FWD_BLA_TIMEOUT_MS, ann);
	got = 0;
	while (fwd_bla_claim_next(b, t, addr[0], out) != 0) {
		ck_assert_uint_lt(out[6 + 5], 40);
		got++;
	}
	ck_assert_uint_eq(got, 40);
}
END_TEST

static Suite *
fwd_bla_suite(void)
{
	Suite *s = suite_create("fwd_bla");
	TCase *tc = tcase_create("bla");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_frame);
	tcase_add_test(tc, test_heard);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_rate_flood);
	tcase_add_test(tc, test_timeout);
	tcase_add_test(tc, test_bound);
	tcase_add_test(tc, test_elect);
	tcase_add_test(tc, test_from_lan);
	tcase_add_test(tc, test_to_lan);
	tcase_add_test(tc, test_tick);
	tcase_add_test(tc, test_claims);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(fwd_bla_suite());
}
