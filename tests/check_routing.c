/*
 * check_routing.c — unit tests of the routing core (src/routing/routing.c,
 * src/routing/neigh.c, src/routing/orig.c).
 *
 * Nodes are numbered; node n has a fake public key, mesh address and
 * interface MAC derived from n (the routing core trusts its caller for
 * key/address consistency, so no crypto is needed).  Node 0 is "us".
 * Links are made perfect by feeding 64 HELLOs that report all of ours
 * heard.  The last test case simulates a chain of four tables exchanging
 * HELLOs and OGMs through the API.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "routing/routing.h"
#include "lib/t_check.h"

#define US		0
#define IF1		1
#define IF2		2
#define EPOCH		7
#define T0		1000000ull	/* a start time well above 0 */
#define MAX_EVENTS	64
#define MAX_NODES	8192

static const uint8_t hkey_a[ROUTING_HASH_KEY_LEN] = "0123456789abcdef";
static const uint8_t hkey_b[ROUTING_HASH_KEY_LEN] = "fedcba9876543210";

/* ---- node identities ---------------------------------------------------- */

static void
node_pk(unsigned id, uint8_t pk[BS_PK_LEN])
{
	memset(pk, 0xa5, BS_PK_LEN);
	pk[0] = (uint8_t)id;
	pk[1] = (uint8_t)(id >> 8);
}

static void
node_addr(unsigned id, uint8_t a[BS_ADDR_LEN])
{
	const uint8_t base[BS_ADDR_LEN] = { 0x02, 0xbb, 0, 0, 0, 0 };

	memcpy(a, base, BS_ADDR_LEN);
	a[4] = (uint8_t)(id >> 8);
	a[5] = (uint8_t)id;
}

static void
node_mac(unsigned id, uint8_t m[BS_ADDR_LEN])
{
	const uint8_t base[BS_ADDR_LEN] = { 0x0a, 0xcc, 0, 0, 0, 0 };

	memcpy(m, base, BS_ADDR_LEN);
	m[4] = (uint8_t)(id >> 8);
	m[5] = (uint8_t)id;
}

/* Identity buffers that outlive the call (the structs point into them). */
struct ident {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
};

static struct ident idents[MAX_NODES];

static const struct ident *
ident(unsigned id)
{
	ck_assert_uint_lt(id, MAX_NODES);
	node_pk(id, idents[id].pk);
	node_addr(id, idents[id].addr);
	node_mac(id, idents[id].mac);
	return &idents[id];
}

/* ---- tables ------------------------------------------------------------- */

static struct routing *
mk_rt_id(unsigned self, const struct routing_params *p, const uint8_t *hkey)
{
	struct routing_params d;
	struct routing *rt;
	const struct ident *me = ident(self);

	if (p == NULL) {
		routing_params_default(&d);
		p = &d;
	}
	rt = routing_new(p, me->pk, me->addr, hkey);
	ck_assert_ptr_nonnull(rt);
	return rt;
}

static struct routing *
mk_rt(const struct routing_params *p)
{
	return mk_rt_id(US, p, hkey_a);
}

/* Per-neighbour HELLO seqno counters of the single-table tests. */
static uint32_t hseq[MAX_NODES];

static int
hello_full(struct routing *rt, uint32_t ifindex, unsigned id, uint32_t epoch,
    uint32_t seqno, uint8_t echo, uint64_t now,
    struct routing_hello_result *res)
{
	const struct ident *n = ident(id);
	struct routing_hello h = {
		.ifindex = ifindex, .pk = n->pk, .addr = n->addr,
		.mac = n->mac, .epoch = epoch, .seqno = seqno, .echo = echo,
	};

	return routing_hello(rt, &h, now, res);
}

/* The next HELLO of neighbour id (epoch EPOCH); must be accepted. */
static void
hello_next(struct routing *rt, uint32_t ifindex, unsigned id, uint8_t echo,
    uint64_t now)
{
	struct routing_hello_result res;

	ck_assert_int_eq(hello_full(rt, ifindex, id, EPOCH, ++hseq[id], echo,
	    now, &res), ROUTING_OK);
}

/* 64 HELLOs, all of ours heard: link TQ 255. */
static void
perfect(struct routing *rt, uint32_t ifindex, unsigned id, uint64_t now)
{
	struct routing_neigh_info ni;
	int i;

	for (i = 0; i < ROUTING_WINDOW; i++)
		hello_next(rt, ifindex, id, ROUTING_WINDOW, now);
	ck_assert_int_eq(routing_neigh_get(rt, ifindex, ident(id)->addr, &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.link_tq, 255);
}

/* What an OGM entry's test names: nodes by number, and the numbers. */
struct ogm_of {
	unsigned orig;			/* the originator */
	unsigned sender;		/* the neighbour it came from */
	unsigned prev;			/* the sender before that one */
	uint32_t seqno;
	uint8_t tq;
	uint8_t hops;
	uint8_t ttl;
};

/* The entry, heard on IF1 in epoch EPOCH, of class 3. */
static struct routing_ogm
ogm(struct ogm_of o)
{
	struct routing_ogm m = {
		.orig_pk = ident(o.orig)->pk, .orig_addr = ident(o.orig)->addr,
		.epoch = EPOCH, .seqno = o.seqno, .tq = o.tq, .hops = o.hops,
		.ttl = o.ttl, .prev_sender = ident(o.prev)->addr,
		.ifindex = IF1, .sender = ident(o.sender)->addr, .cls = 3,
	};

	return m;
}

/* Apply m; routing_ogm_check must agree with routing_ogm. */
static int
apply(struct routing *rt, const struct routing_ogm *m, uint64_t now,
    struct routing_ogm_result *res)
{
	int c = routing_ogm_check(rt, m);
	int r = routing_ogm(rt, m, now, res);

	ck_assert_int_eq(c, r);
	return r;
}

static void
apply_ok(struct routing *rt, const struct routing_ogm *m, uint64_t now,
    struct routing_ogm_result *res)
{
	int r = apply(rt, m, now, res);

	ck_assert_msg(r == ROUTING_OK, "routing_ogm: %s", routing_strerror(r));
}

static void
orig_of(const struct routing *rt, unsigned id, struct routing_orig_info *oi)
{
	ck_assert_int_eq(routing_orig_get(rt, ident(id)->pk, oi), ROUTING_OK);
}

static void
assert_route(const struct routing *rt, unsigned orig, unsigned nexthop,
    uint8_t tq, uint8_t hops)
{
	struct routing_orig_info oi;

	orig_of(rt, orig, &oi);
	ck_assert_uint_eq(oi.has_route, 1);
	ck_assert_mem_eq(oi.nexthop, ident(nexthop)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(oi.tq, tq);
	ck_assert_uint_eq(oi.hops, hops);
}

/* Events recorded by the purge callback. */
struct evlog {
	unsigned n;
	struct routing_event ev[MAX_EVENTS];
};

static void
ev_record(void *arg, const struct routing_event *ev)
{
	struct evlog *l = arg;

	ck_assert_uint_lt(l->n, MAX_EVENTS);
	l->ev[l->n++] = *ev;
}

static uint8_t
router_avg(const struct routing *rt, unsigned orig, unsigned neigh)
{
	struct routing_router_info ri[ROUTING_ORIG_ROUTERS];
	int i, n = routing_orig_routers(rt, ident(orig)->pk, ri,
	    ROUTING_ORIG_ROUTERS);

	for (i = 0; i < n; i++)
		if (memcmp(ri[i].addr, ident(neigh)->addr, BS_ADDR_LEN) == 0)
			return ri[i].tq_avg;
	return 0;
}

/* ---- TQ arithmetic ------------------------------------------------------ */

/* Reference: perfect links, hop penalty 30, a node h+1 hops away. */
static const uint8_t ref_ceiling[] = {
	255, 225, 198, 174, 153, 135, 119, 105, 92, 81,
};

START_TEST(test_tq_ceiling_table)
{
	ck_assert_uint_eq(routing_tq_ceiling((unsigned)_i, 30),
	    ref_ceiling[_i]);
}
END_TEST

START_TEST(test_tq_ceiling_edges)
{
	unsigned h;

	for (h = 0; h <= ROUTING_MAX_HOPS; h++)
		ck_assert_uint_eq(routing_tq_ceiling(h, 0), 255);
	ck_assert_uint_eq(routing_tq_ceiling(0, 255), 255);
	ck_assert_uint_eq(routing_tq_ceiling(1, 255), 0);
	ck_assert_uint_eq(routing_tq_ceiling(32, 30), 0);
	/* Monotone: one more hop never allows more. */
	for (h = 0; h < ROUTING_MAX_HOPS; h++)
		ck_assert_uint_le(routing_tq_ceiling(h + 1, 30),
		    routing_tq_ceiling(h, 30));
	ck_assert_uint_eq(routing_tq_hop(255, 30), 225);
	ck_assert_uint_eq(routing_tq_hop(1, 30), 0);
	ck_assert_uint_eq(routing_tq_hop(200, 0), 200);
}
END_TEST

static const struct {
	unsigned rq;
	uint8_t asym;
} ref_asym[] = {
	{ 64, 255 }, { 48, 252 }, { 40, 242 }, { 32, 224 }, { 24, 193 },
	{ 16, 148 }, { 8, 85 }, { 4, 45 }, { 1, 12 }, { 0, 0 },
};

START_TEST(test_tq_asym_table)
{
	ck_assert_uint_eq(routing_tq_asym(ref_asym[_i].rq), ref_asym[_i].asym);
}
END_TEST

START_TEST(test_tq_formulas)
{
	unsigned rq, echo;

	/* The reference example: rq 48, eq 40 -> tq_own 212, asym 252. */
	ck_assert_uint_eq(routing_tq_combine(255, 212, 252), 209);
	ck_assert_uint_eq(routing_tq_combine(0, 255, 255), 0);
	ck_assert_uint_eq(routing_tq_combine(255, 255, 255), 255);
	ck_assert_uint_eq(routing_tq_asym(65), 255);	/* clamped */
	ck_assert_uint_eq(routing_tq_own(0), 0);
	ck_assert_uint_eq(routing_tq_own(64), 255);
	ck_assert_uint_eq(routing_tq_own(100), 255);
	/*
	 * tq_own from the one-way echo equals batman's round-trip formula
	 * 255 * min(eq, rq) / rq with eq = echo * rq / 64, wherever that eq
	 * is a whole number.
	 */
	for (rq = 1; rq <= 64; rq++)
		for (echo = 0; echo <= 64; echo++) {
			unsigned eq;

			if (echo * rq % 64 != 0)
				continue;
			eq = echo * rq / 64;
			ck_assert_uint_eq(routing_tq_own(echo),
			    255 * (eq < rq ? eq : rq) / rq);
		}
	ck_assert_uint_eq(routing_link_tq(64, 64), 255);
	ck_assert_uint_eq(routing_link_tq(0, 64), 0);
	ck_assert_uint_eq(routing_link_tq(64, 0), 0);
	ck_assert_uint_eq(routing_link_tq(1, 1), 0);
	ck_assert_uint_eq(routing_link_tq(32, 32), 127 * 224 / 255);
}
END_TEST

/* ---- neighbours --------------------------------------------------------- */

static const unsigned asym_rq[] = { 64, 48, 32, 16, 8 };
static const uint8_t asym_link[] = { 255, 252, 224, 148, 85 };

/* rq of the last 64 received, all ours heard: link TQ = asym penalty. */
START_TEST(test_link_asym)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_neigh_info ni;
	unsigned i, rq = asym_rq[_i];

	/*
	 * Heard once at seqno 1, then nothing until the last rq of seqnos
	 * 65..128: a full window has passed since it was first heard, so
	 * this is batman's formula, no warm-up scaling.
	 */
	{
		struct routing_hello_result res;

		ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, 1, 64, T0,
		    &res), ROUTING_OK);
	}
	for (i = 128 - rq + 1; i <= 128; i++) {
		struct routing_hello_result res;

		ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, i, 64, T0,
		    &res), ROUTING_OK);
	}
	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(5)->addr, &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.rq, rq);
	ck_assert_uint_eq(ni.echo, 64);
	ck_assert_uint_eq(ni.link_tq, asym_link[_i]);
	routing_free(rt);
}
END_TEST

/* Missing every fourth HELLO gives rq 48 too. */
START_TEST(test_link_gaps)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result res;
	uint32_t s;

	/* 1..65: the window 2..65 is full, so no warm-up scaling. */
	for (s = 1; s <= 65; s++)
		if (s % 4 != 0)
			ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, s, 48,
			    T0, &res), ROUTING_OK);
	ck_assert_uint_eq(res.rq, 48);
	ck_assert_uint_eq(res.echo, 48);
	ck_assert_uint_eq(res.link_tq,
	    routing_tq_combine(255, routing_tq_own(48), 252));
	ck_assert_uint_eq(res.link_tq, 188);
	routing_free(rt);
}
END_TEST

/*
 * Warm-up: the echo is taken as the neighbour reports it (scaled by its
 * own count of our sequence numbers), whatever the two ends' rates.  Two
 * tables, US and 5, where 5 sends two HELLOs for each of ours (cold-start
 * bursts), each HELLO echoing what its sender's table reports of the
 * receiver (rq_report): both links are at 255 from the second round.
 * With raw counts in the HELLOs, scaled by the receiver over the
 * sender's span (the rule before 2026-12-07), US rated 5 at about 128.
 */
static void
rates_hello(struct routing *from, unsigned from_id, struct routing *to,
    unsigned to_id, uint32_t seqno, struct routing_hello_result *res)
{
	const struct ident *f = ident(from_id);
	struct routing_neigh_info ni;
	struct routing_hello h = {
		.ifindex = IF1, .pk = f->pk, .addr = f->addr, .mac = f->mac,
		.epoch = EPOCH, .seqno = seqno,
	};

	if (routing_neigh_get(from, IF1, ident(to_id)->addr, &ni) ==
	    ROUTING_OK)
		h.echo = ni.rq_report;
	ck_assert_int_eq(routing_hello(to, &h, T0, res), ROUTING_OK);
}

START_TEST(test_link_warmup_rates)
{
	struct routing *rt = mk_rt(NULL), *five = mk_rt_id(5, NULL, hkey_a);
	struct routing_hello_result res, res5;
	struct routing_neigh_info ni;
	uint32_t s;

	for (s = 1; s <= 20; s++) {
		rates_hello(five, 5, rt, US, 2 * s - 1, &res);
		rates_hello(five, 5, rt, US, 2 * s, &res);
		rates_hello(rt, US, five, 5, s, &res5);
		if (s > 1) {
			ck_assert_uint_eq(res.link_tq, 255);
			ck_assert_uint_eq(res5.link_tq, 255);
		}
	}
	routing_free(five);
	/* One lost both ways of 10 (neighbour 6): 9 of 10 heard, reported
	 * as 57; it reports 57 of ours. */
	for (s = 1; s <= 10; s++)
		if (s != 4)
			ck_assert_int_eq(hello_full(rt, IF1, 6, EPOCH, s,
			    (uint8_t)(s > 1 ? 57 : 0), T0, &res), ROUTING_OK);
	ck_assert_uint_eq(res.link_tq, routing_tq_combine(255,
	    routing_tq_own(57), routing_tq_asym(57)));
	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(6)->addr, &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.rq, 9);
	ck_assert_uint_eq(ni.rq_report, 9 * 64 / 10);
	routing_free(rt);
}
END_TEST

/*
 * Warm-up: until a full window has passed, rq counts out of the HELLOs
 * that could have arrived since the neighbour was first heard, and so does
 * the echo the neighbour reports (it scales its own count).
 */
START_TEST(test_link_warmup)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result res;
	uint32_t s;

	/* A perfect link is at 255 from the first HELLO that echoes us. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, 1, 0, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.link_tq, 0);
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, 2, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.link_tq, 255);
	/*
	 * Every other HELLO lost both ways: 5 of 9 heard (35 of 64 scaled),
	 * half of ours echoed (32 of 64 as the neighbour reports it): about
	 * what the full window will show, not a fifth of it.
	 */
	for (s = 1; s <= 9; s += 2)
		ck_assert_int_eq(hello_full(rt, IF1, 6, EPOCH, s,
		    (uint8_t)(s > 1 ? 32 : 0), T0, &res), ROUTING_OK);
	ck_assert_uint_eq(res.rq, 5);
	ck_assert_uint_eq(res.link_tq, routing_tq_combine(255,
	    routing_tq_own(32), routing_tq_asym(35)));
	ck_assert_uint_le(res.link_tq - routing_link_tq(32, 32), 10);
	/* A restart (a newer epoch) begins a new warm-up. */
	for (s = 10; s <= 80; s++)
		ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, s, 64, T0,
		    &res), ROUTING_OK);
	ck_assert_uint_eq(res.link_tq, 255);
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH + 1, 1, 0, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 1);
	ck_assert_uint_eq(res.link_tq, 0);
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH + 1, 2, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.link_tq, 255);
	routing_free(rt);
}
END_TEST

START_TEST(test_hello_bidirectional)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result res;
	struct routing_ogm m;
	struct routing_ogm_result or;

	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, 1, 0, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.neigh_new, 1);
	ck_assert_uint_eq(res.changed, 1);
	ck_assert_uint_eq(res.bidirectional, 0);
	ck_assert_uint_eq(res.bidir_changed, 0);
	ck_assert_uint_eq(res.link_tq, 0);
	/* Not bidirectional: its OGMs are refused. */
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &or), ROUTING_EUNIDIR);
	ck_assert_uint_eq(routing_orig_count(rt), 0);
	/* It hears us: bidirectional from now on. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, 2, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.neigh_new, 0);
	ck_assert_uint_eq(res.bidirectional, 1);
	ck_assert_uint_eq(res.bidir_changed, 1);
	ck_assert_uint_eq(res.rq, 2);
	/* Warm-up: 2 of the 2 HELLOs it sent since we first heard it. */
	ck_assert_uint_eq(res.link_tq, 255);
	/* A HELLO that changes nothing visible says so. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, 3, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.changed, 1);	/* rq 2 -> 3 */
	hseq[5] = 3;
	perfect(rt, IF1, 5, T0);
	hello_next(rt, IF1, 5, 64, T0);
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, ++hseq[5], 64, T0,
	    &res), ROUTING_OK);
	ck_assert_uint_eq(res.changed, 0);
	ck_assert_uint_eq(res.bidir_changed, 0);
	/* Stops hearing us. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, EPOCH, ++hseq[5], 0, T0,
	    &res), ROUTING_OK);
	ck_assert_uint_eq(res.bidirectional, 0);
	ck_assert_uint_eq(res.bidir_changed, 1);
	ck_assert_uint_eq(res.changed, 1);
	routing_free(rt);
}
END_TEST

static uint8_t
rq_of(const struct routing *rt, unsigned id)
{
	struct routing_neigh_info ni;

	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(id)->addr, &ni),
	    ROUTING_OK);
	return ni.rq;
}

START_TEST(test_hello_window)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result res;
	struct routing_neigh_info ni;

	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 100, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 101, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(rq_of(rt, 5), 2);
	/* Replays and reordering: not newer, refused, nothing changes. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 101, 64, T0 + 5, &res),
	    ROUTING_EOLD);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 100, 64, T0 + 5, &res),
	    ROUTING_EOLD);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 101u - 0x80000000u, 64,
	    T0 + 5, &res), ROUTING_EOLD);
	ck_assert_uint_eq(res.changed, 0);
	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(5)->addr, &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.last_seen_ms, T0);
	/* A gap of 2: the window slides by 3, one bit per HELLO received. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 104, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 3);
	/* 63 ahead keeps the oldest bit ... */
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 167, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 2);
	/* ... 64 ahead drops them all. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 231, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 1);
	/* Older epoch: never; newer epoch: a fresh window at any seqno. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 232, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 2);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 9, 5000, 64, T0, &res),
	    ROUTING_EEPOCH);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 11, 233, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 1);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 12, 3, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 1);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 12, 4, 64, T0, &res),
	    ROUTING_OK);
	ck_assert_uint_eq(res.rq, 2);
	ck_assert_int_eq(hello_full(rt, IF1, 5, 10, 5000, 64, T0, &res),
	    ROUTING_EEPOCH);
	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(5)->addr, &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.epoch, 12);
	ck_assert_uint_eq(ni.seqno, 4);
	routing_free(rt);
}
END_TEST

START_TEST(test_hello_wrap)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result res;
	uint32_t s = 0xfffffff0u;
	int i;

	for (i = 0; i < 40; i++, s++)
		ck_assert_int_eq(hello_full(rt, IF1, 5, 1, s, 64, T0, &res),
		    ROUTING_OK);
	ck_assert_uint_eq(s, 0x18);
	ck_assert_uint_eq(res.rq, 40);
	/* Just before the wrap is now old. */
	ck_assert_int_eq(hello_full(rt, IF1, 5, 1, 0xffffffffu, 64, T0, &res),
	    ROUTING_EOLD);
	routing_free(rt);
}
END_TEST

START_TEST(test_hello_errors)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result res;
	const struct ident *n = ident(5), *other = ident(6), *me = ident(US);
	struct routing_hello h = {
		.ifindex = IF1, .pk = n->pk, .addr = n->addr, .mac = n->mac,
		.epoch = 1, .seqno = 1, .echo = 64,
	};
	struct routing_hello bad;

	bad = h;
	bad.ifindex = 0;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EINVAL);
	bad = h;
	bad.echo = 65;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EINVAL);
	bad = h;
	bad.pk = NULL;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EINVAL);
	bad = h;
	bad.mac = NULL;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EINVAL);
	ck_assert_int_eq(routing_hello(rt, NULL, T0, &res), ROUTING_EINVAL);
	bad = h;
	bad.pk = me->pk;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EOWN);
	bad = h;
	bad.addr = me->addr;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EOWN);
	ck_assert_uint_eq(routing_neigh_count(rt), 0);
	ck_assert_int_eq(routing_hello(rt, &h, T0, &res), ROUTING_OK);
	/* Another key claiming the same address on that interface. */
	bad = h;
	bad.pk = other->pk;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_ECOLLIDE);
	/* ... is fine on another interface (tables are per interface). */
	bad.ifindex = IF2;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_OK);
	/* A known key with another address is a caller bug. */
	bad = h;
	bad.addr = other->addr;
	bad.seqno = 2;
	ck_assert_int_eq(routing_hello(rt, &bad, T0, &res), ROUTING_EINVAL);
	ck_assert_uint_eq(routing_neigh_count(rt), 2);
	/* The MAC may change; the entry follows it. */
	h.seqno = 2;
	h.mac = other->mac;
	ck_assert_int_eq(routing_hello(rt, &h, T0, &res), ROUTING_OK);
	ck_assert_uint_eq(res.changed, 1);
	routing_free(rt);
}
END_TEST

START_TEST(test_neigh_caps)
{
	struct routing_params p;
	struct routing *rt;
	struct routing_hello_result res;
	unsigned i;

	routing_params_default(&p);
	p.neigh_cap = 40;
	p.neigh_iface_cap = 3;
	rt = mk_rt(&p);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(hello_full(rt, IF1, 100 + i, 1, 1, 0, T0,
		    &res), ROUTING_OK);
	ck_assert_int_eq(hello_full(rt, IF1, 103, 1, 1, 0, T0, &res),
	    ROUTING_EFULL);
	ck_assert_uint_eq(res.neigh_new, 0);
	/* A known neighbour still updates on a full interface. */
	ck_assert_int_eq(hello_full(rt, IF1, 100, 1, 2, 0, T0, &res),
	    ROUTING_OK);
	/* Other interfaces have their own quota ... */
	ck_assert_int_eq(hello_full(rt, IF2, 103, 1, 1, 0, T0, &res),
	    ROUTING_OK);
	/* ... up to ROUTING_MAX_IFACES interfaces. */
	for (i = 3; i <= ROUTING_MAX_IFACES; i++)
		ck_assert_int_eq(hello_full(rt, i, 200 + i, 1, 1, 0, T0, &res),
		    ROUTING_OK);
	ck_assert_int_eq(hello_full(rt, ROUTING_MAX_IFACES + 1, 300, 1, 1, 0,
	    T0, &res), ROUTING_EFULL);
	ck_assert_uint_eq(routing_neigh_count(rt), 2 + ROUTING_MAX_IFACES);
	/* The total cap. */
	for (i = 0; routing_neigh_count(rt) < 40; i++)
		ck_assert_int_eq(hello_full(rt, 3 + i / 2, 400 + i, 1, 1, 0, T0,
		    &res), ROUTING_OK);
	ck_assert_int_eq(hello_full(rt, IF2, 500, 1, 1, 0, T0, &res),
	    ROUTING_EFULL);
	/* Room again after the interface is flushed. */
	routing_iface_flush(rt, IF1, NULL, NULL, NULL);
	ck_assert_uint_eq(routing_neigh_count(rt), 37);
	ck_assert_int_eq(hello_full(rt, IF2, 500, 1, 1, 0, T0, &res),
	    ROUTING_OK);
	/* The freed interface slot is reusable by a new ifindex. */
	ck_assert_int_eq(hello_full(rt, 99, 501, 1, 1, 0, T0, &res),
	    ROUTING_OK);
	routing_free(rt);
}
END_TEST

START_TEST(test_neigh_iter)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_neigh_info ni;
	uint32_t pos = 0;
	unsigned n1 = 0, n2 = 0;

	hello_next(rt, IF1, 5, 64, T0);
	hello_next(rt, IF1, 6, 64, T0 + 1);
	hello_next(rt, IF2, 7, 0, T0 + 2);
	while (routing_neigh_next(rt, 0, &pos, &ni)) {
		ck_assert(ni.ifindex == IF1 || ni.ifindex == IF2);
		n1++;
	}
	ck_assert_uint_eq(n1, 3);
	ck_assert_uint_eq(routing_neigh_next(rt, 0, &pos, &ni), 0);
	pos = 0;
	while (routing_neigh_next(rt, IF2, &pos, &ni)) {
		ck_assert_mem_eq(ni.pk, ident(7)->pk, BS_PK_LEN);
		ck_assert_mem_eq(ni.addr, ident(7)->addr, BS_ADDR_LEN);
		ck_assert_mem_eq(ni.mac, ident(7)->mac, BS_ADDR_LEN);
		ck_assert_uint_eq(ni.last_seen_ms, T0 + 2);
		ck_assert_uint_eq(ni.bidirectional, 0);
		n2++;
	}
	ck_assert_uint_eq(n2, 1);
	ck_assert_int_eq(routing_neigh_get(rt, IF2, ident(5)->addr, &ni),
	    ROUTING_ENOENT);
	routing_free(rt);
}
END_TEST

/* ---- OGM: TQ, relay, ceiling -------------------------------------------- */

/*
 * One node, perfect links: an entry arriving with hops h and the best TQ
 * for h is stored at that TQ and relayed at the next one.
 */
START_TEST(test_ogm_hops_tq)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;
	unsigned h = (unsigned)_i, orig = h == 0 ? 5 : 9;

	perfect(rt, IF1, 5, T0);
	m = ogm((struct ogm_of){ .orig = orig, .sender = 5,
	    .prev = h == 0 ? 5 : h == 1 ? 9 : 8, .seqno = 1,
	    .tq = ref_ceiling[h], .hops = (uint8_t)h, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, ref_ceiling[h]);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_ADDED);
	ck_assert_uint_eq(res.info.tq, ref_ceiling[h]);
	ck_assert_uint_eq(res.info.hops, h + 1);
	ck_assert_uint_eq(res.relay, 1);
	ck_assert_uint_eq(res.relay_tq, ref_ceiling[h + 1]);
	ck_assert_uint_eq(res.relay_hops, h + 1);
	ck_assert_uint_eq(res.relay_ttl, 49);
	ck_assert_mem_eq(res.relay_prev_sender, ident(5)->addr, BS_ADDR_LEN);
	routing_free(rt);
}
END_TEST

START_TEST(test_ogm_ceiling_and_link)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;
	struct routing_hello_result hr;
	uint32_t s;

	perfect(rt, IF1, 5, T0);
	/* A relay claiming more than one hop allows: capped at 225. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 255, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 225);
	ck_assert_uint_eq(res.relay_tq, 198);
	/* A lossy link scales the TQ in batman's single product. */
	for (s = 1; s <= 65; s++)
		if (s % 4 != 0)
			ck_assert_int_eq(hello_full(rt, IF1, 6, EPOCH, s, 48,
			    T0, &hr), ROUTING_OK);
	m = ogm((struct ogm_of){ .orig = 10, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq,
	    routing_tq_combine(200, routing_tq_own(48), 252));
	ck_assert_uint_eq(res.tq, 148);
	/* TQ 0 as received, or 0 after the link. */
	m = ogm((struct ogm_of){ .orig = 11, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 0, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ETQ);
	m = ogm((struct ogm_of){ .orig = 11, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 1, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ETQ);
	ck_assert_uint_eq(routing_orig_count(rt), 2);
	routing_free(rt);
}
END_TEST

/*
 * Per-interface hop penalty (batman-adv's hardif hop_penalty): an OGM
 * received on an interface with penalty p has its TQ, after the ceiling
 * and the link, times (255 - p) / 255, so the same neighbour heard on a
 * penalised interface loses to the other one; the relay carries the
 * lowered TQ and the ceilings still hold.
 */
START_TEST(test_ogm_iface_penalty)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_router_info ri[ROUTING_ORIG_ROUTERS];
	struct routing_ogm_result res;
	struct routing_ogm m;
	int i, n;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF2, 5, T0);
	/* Neighbour 5's own OGM on IF2 (penalty 100), then on IF1 (none). */
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5,
	    .seqno = 1, .tq = 255, .hops = 0, .ttl = 50 });
	m.ifindex = IF2;
	m.iface_penalty = 100;
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 155);
	ck_assert_uint_eq(res.relay_tq, routing_tq_hop(155, 30));
	ck_assert_uint_eq(res.relay_tq_back, res.relay_tq);
	m.ifindex = IF1;
	m.iface_penalty = 0;
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 255);
	ck_assert_uint_eq(res.info.ifindex, IF1);
	assert_route(rt, 5, 5, 255, 1);
	n = routing_orig_routers(rt, ident(5)->pk, ri, ROUTING_ORIG_ROUTERS);
	ck_assert_int_eq(n, 2);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(ri[i].tq_avg, ri[i].ifindex == IF1 ? 255 :
		    155);
		ck_assert_uint_eq(ri[i].best, ri[i].ifindex == IF1);
	}
	/* A relayed entry at its ceiling: 225, then the penalty: below it. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 1, .tq = 255, .hops = 1, .ttl = 50 });
	m.ifindex = IF2;
	m.iface_penalty = 100;
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 225 * 155 / 255);
	ck_assert_uint_le(res.relay_tq, ref_ceiling[2]);
	ck_assert_uint_eq(res.relay_tq, routing_tq_hop(136, 30));
	/* Penalty 255 leaves nothing: refused as TQ 0, nothing changes. */
	m = ogm((struct ogm_of){ .orig = 10, .sender = 5, .prev = 5,
	    .seqno = 1, .tq = 255, .hops = 1, .ttl = 50 });
	m.iface_penalty = 255;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ETQ);
	ck_assert_uint_eq(routing_orig_count(rt), 2);
	routing_free(rt);
}
END_TEST

/*
 * Half duplex (batman-adv IV's wireless rule): the copy relayed back out
 * on the half-duplex interface it arrived on pays the hop penalty a
 * second time; the other interfaces get the usual relay TQ.
 */
START_TEST(test_ogm_half_duplex)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 1, .tq = 225, .hops = 1, .ttl = 50 });
	m.half_duplex = 1;
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 225);
	ck_assert_uint_eq(res.relay_tq, 198);
	ck_assert_uint_eq(res.relay_tq_back, 174);	/* 198 * 225 / 255 */
	/* Wired: the same relay TQ everywhere. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 2, .tq = 225, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.relay_tq, 198);
	ck_assert_uint_eq(res.relay_tq_back, 198);
	/* Both rules together: penalty 50 on the way in, then the halves. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 3, .tq = 225, .hops = 1, .ttl = 50 });
	m.half_duplex = 1;
	m.iface_penalty = 50;
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 225 * 205 / 255);
	ck_assert_uint_eq(res.relay_tq, routing_tq_hop(180, 30));
	ck_assert_uint_eq(res.relay_tq_back,
	    routing_tq_hop(routing_tq_hop(180, 30), 30));
	/* A flag is 0 or 1. */
	m.seqno = 4;
	m.half_duplex = 2;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EINVAL);
	routing_free(rt);
}
END_TEST

START_TEST(test_ogm_ttl)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 2 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.relay, 1);
	ck_assert_uint_eq(res.relay_ttl, 1);
	/* TTL 1: used for routing, not relayed. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 2,
	    .tq = 200, .hops = 1, .ttl = 1 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 1);
	ck_assert_uint_eq(res.relay, 0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 3,
	    .tq = 200, .hops = 1, .ttl = 0 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 1);
	ck_assert_uint_eq(res.relay, 0);
	/* The last hop the chain allows is not relayed either. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 4,
	    .tq = 1, .hops = ROUTING_MAX_HOPS, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ETQ);
	{
		struct routing_params p = *routing_get_params(rt);

		p.hop_penalty = 0;
		ck_assert_int_eq(routing_set_params(rt, &p), ROUTING_OK);
	}
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.relay, 0);
	/* A TQ the hop penalty takes to 0 is not relayed. */
	{
		struct routing_params p = *routing_get_params(rt);

		p.hop_penalty = 255;
		ck_assert_int_eq(routing_set_params(rt, &p), ROUTING_OK);
	}
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 255);
	ck_assert_uint_eq(res.relay, 0);
	routing_free(rt);
}
END_TEST

START_TEST(test_ogm_guards)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	/* Our own OGM echoed back, and our own relay echoed back. */
	m = ogm((struct ogm_of){ .orig = US, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EOWN);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = US, .seqno = 1,
	    .tq = 200, .hops = 2, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EECHO);
	/* hops 0 only from the originator, with itself as prev_sender. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 9, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EHOPS);
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 6, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EHOPS);
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 6, .seqno = 1,
	    .tq = 225, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EHOPS);
	/* Sender unknown, or known only on another interface. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 7, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ENONEIGH);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.ifindex = IF2;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ENONEIGH);
	/* Malformed calls. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = ROUTING_MAX_HOPS + 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EINVAL);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.ifindex = 0;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EINVAL);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.prev_sender = NULL;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EINVAL);
	ck_assert_int_eq(routing_ogm_check(rt, NULL), ROUTING_EINVAL);
	ck_assert_uint_eq(routing_orig_count(rt), 0);
	/* Address of another key: a direct originator must be the neighbour. */
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	m.orig_pk = ident(6)->pk;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ECOLLIDE);
	/* ... and an address already held by another originator. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 2,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.orig_pk = ident(10)->pk;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ECOLLIDE);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 2,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.orig_addr = ident(10)->addr;
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EINVAL);
	ck_assert_uint_eq(routing_orig_count(rt), 1);
	routing_free(rt);
}
END_TEST

/*
 * batman's loop guard.  Our best next hop towards 9 is 5, and 5 is its own
 * best next hop.  Neighbour 6 relays 9's OGM that it got from 5: 6 is a
 * sibling behind 5, ignored.  The same copy with another previous sender
 * is used.
 */
START_TEST(test_ogm_loop_guard)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 9, .seqno = 1,
	    .tq = 225, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	assert_route(rt, 9, 5, 225, 2);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 5, .seqno = 1,
	    .tq = 198, .hops = 2, .ttl = 49 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ELOOP);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 5, .seqno = 2,
	    .tq = 198, .hops = 2, .ttl = 49 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_ELOOP);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 198, .hops = 2, .ttl = 49 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
	/* The originator itself as previous sender is never a loop. */
	m = ogm((struct ogm_of){ .orig = 5, .sender = 6, .prev = 5, .seqno = 2,
	    .tq = 225, .hops = 1, .ttl = 49 });
	apply_ok(rt, &m, T0, &res);
	routing_free(rt);
}
END_TEST

/* ---- OGM: seqno windows and duplicates ---------------------------------- */

START_TEST(test_ogm_window)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 1000, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.orig_new, 1);
	ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
	ck_assert_uint_eq(res.changed, 1);
	/* The same copy again from the same neighbour. */
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
	ck_assert_uint_eq(res.relay, 0);
	/* The same seqno from another neighbour: counted, not relayed. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 1000, .tq = 180, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
	ck_assert_uint_eq(res.ranked, 1);
	ck_assert_uint_eq(res.relay, 0);
	ck_assert_uint_eq(res.orig_new, 0);
	/* 63 behind, never seen: accepted (late), 64 behind: too old. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 1000 - 63, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
	ck_assert_uint_eq(res.relay, 0);	/* not newer than relayed */
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 1000 - 64, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EOLD);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 1000 - 0x10000, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EOLD);
	/* The window moves with a newer seqno: 1000 is now 10 behind. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 1010, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 1000, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 1000, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 1001, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
	/* A jump of more than the window forgets everything older. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 5000, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 4990, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
	orig_of(rt, 9, &oi);
	ck_assert_uint_eq(oi.seqno, 5000);
	routing_free(rt);
}
END_TEST

START_TEST(test_ogm_wrap_epoch)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;
	uint32_t s;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	for (s = 0xfffffffeu; s != 2; s++) {
		m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
		    .seqno = s, .tq = 200, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
		ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
		ck_assert_uint_eq(res.relay, 1);
	}
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 0xffffffffu, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
	    .seqno = 0xffffffffu, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
	/* A newer epoch restarts the sequence anywhere ... */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 3,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.epoch = EPOCH + 1;
	apply_ok(rt, &m, T0 + 1, &res);
	ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
	ck_assert_uint_eq(res.relay, 1);
	orig_of(rt, 9, &oi);
	ck_assert_uint_eq(oi.epoch, EPOCH + 1);
	ck_assert_uint_eq(oi.seqno, 3);
	ck_assert_uint_eq(oi.last_refresh_ms, T0 + 1);
	/* ... and the old epoch is never accepted again, whatever the seqno. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 4,
	    .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EEPOCH);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
	    .seqno = 0x7fffffffu, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EEPOCH);
	/*
	 * After the reset the old window is gone: seqno 1 of the new epoch
	 * is two behind 3 but new (in the old epoch 5 had delivered the seqno
	 * two behind the newest).
	 */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	m.epoch = EPOCH + 1;
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_NO_DUP);
	routing_free(rt);
}
END_TEST

/* One relay per seqno, whichever order the copies come in. */
START_TEST(test_ogm_relay_once)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;
	unsigned relays = 0;
	uint32_t s;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	perfect(rt, IF1, 7, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.relay, 1);
	for (s = 2; s < 12; s++) {
		relays = 0;
		/* A worse neighbour's copy first: not from the best. */
		m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
		    .seqno = s, .tq = 150, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
		relays += res.relay;
		ck_assert_uint_eq(res.relay, 0);
		/* The best next hop's copy: relayed, once. */
		m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8,
		    .seqno = s, .tq = 220, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
		ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
		relays += res.relay;
		ck_assert_uint_eq(res.relay, 1);
		ck_assert_uint_eq(res.relay_tq, routing_tq_hop(220, 30));
		ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
		m = ogm((struct ogm_of){ .orig = 9, .sender = 7, .prev = 8,
		    .seqno = s, .tq = 150, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
		relays += res.relay;
		ck_assert_uint_eq(relays, 1);
	}
	routing_free(rt);
}
END_TEST

/* A duplicate with a much lower TTL is not ranked (batman's last_ttl-3). */
START_TEST(test_ogm_dup_ttl)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	perfect(rt, IF1, 7, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 40 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 37 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 1);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 7, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 36 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 0);
	ck_assert_uint_eq(res.changed, 0);
	/* Nor is a duplicate of an older seqno. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 2,
	    .tq = 200, .hops = 1, .ttl = 40 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 7, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 40 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
	ck_assert_uint_eq(res.ranked, 0);
	ck_assert_uint_eq(res.changed, 0);
	/* 7 holds no candidate, so nothing remembers its copies. */
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
	ck_assert_uint_eq(router_avg(rt, 9, 7), 0);
	routing_free(rt);
}
END_TEST

/* ---- best next hop ------------------------------------------------------ */

START_TEST(test_best_switch)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_ADDED);
	assert_route(rt, 9, 5, 200, 2);
	/* A worse copy changes nothing. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 190, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
	assert_route(rt, 9, 5, 200, 2);
	/* Still worse on average: no switch. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 2,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(router_avg(rt, 9, 6), 195);	/* (190+200)/2 */
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
	/* A better one takes over. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 3,
	    .tq = 225, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(router_avg(rt, 9, 6), 205);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_NEXTHOP);
	ck_assert_uint_eq(res.relay, 1);
	assert_route(rt, 9, 6, 205, 2);
	/* The router's own change of TQ is a metric change. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 4,
	    .tq = 225, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_METRIC);
	routing_free(rt);
}
END_TEST

/*
 * Originator 9's seqnos first..last, each from neighbour a (TQ tqa) and
 * then from b (TQ tqb), with prev_sender 8 and the given hops; *res is
 * the outcome of the last copy.
 */
static void
both_deliver(struct routing *rt, unsigned a, uint8_t tqa, unsigned b,
    uint8_t tqb, uint8_t hops, uint32_t first, uint32_t last,
    struct routing_ogm_result *res)
{
	struct routing_ogm m;
	uint32_t sq;

	for (sq = first; sq <= last; sq++) {
		m = ogm((struct ogm_of){ .orig = 9, .sender = a, .prev = 8,
		    .seqno = sq, .tq = tqa, .hops = hops, .ttl = 50 });
		apply_ok(rt, &m, T0, res);
		m = ogm((struct ogm_of){ .orig = 9, .sender = b, .prev = 8,
		    .seqno = sq, .tq = tqb, .hops = hops, .ttl = 50 });
		apply_ok(rt, &m, T0, res);
	}
}

/*
 * Equal averages: the candidate that delivered more of the last 5
 * seqnos wins.  The mean leaves zeros out, so a router that stopped
 * delivering (its path died further on) keeps its average until its whole
 * ring is 0; an equally good live candidate takes over at the first
 * seqno the router missed, not 5 seqnos later.
 */
START_TEST(test_best_tie_fresh)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;
	uint32_t sq;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	/* Both deliver seqnos 1..5 at 198, 5 first: 5 is the router. */
	both_deliver(rt, 5, 198, 6, 198, 2, 1, 5, &res);
	ck_assert_uint_eq(res.dup, ROUTING_ORIG_DUP);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
	assert_route(rt, 9, 5, 198, 3);
	/* 5 goes quiet for 9: 6 alone delivers seqno 6, and takes over. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 6,
	    .tq = 198, .hops = 2, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(router_avg(rt, 9, 5), 198);	/* zeros left out */
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_NEXTHOP);
	assert_route(rt, 9, 6, 198, 3);
	/* Back to equal delivery: 6 stays (no flapping on a tie). */
	for (sq = 7; sq <= 12; sq++) {
		both_deliver(rt, 6, 198, 5, 198, 2, sq, sq, &res);
		ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
	}
	assert_route(rt, 9, 6, 198, 3);
	routing_free(rt);
}
END_TEST

/* Equal averages: the more symmetric link (higher echo) wins, else stay. */
START_TEST(test_best_tie_echo)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;
	int i;

	perfect(rt, IF1, 5, T0);
	for (i = 0; i < 64; i++)
		hello_next(rt, IF1, 6, 60, T0);
	/* 214 over the echo-60 link is 200, like 200 over a perfect one. */
	ck_assert_uint_eq(routing_tq_combine(214, routing_tq_own(60), 255),
	    200);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 214, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.tq, 200);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
	assert_route(rt, 9, 5, 200, 2);
	/* Router via the less symmetric link; the better one ties: switch. */
	m = ogm((struct ogm_of){ .orig = 10, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 214, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	assert_route(rt, 10, 6, 200, 2);
	m = ogm((struct ogm_of){ .orig = 10, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_NEXTHOP);
	assert_route(rt, 10, 5, 200, 2);
	routing_free(rt);
}
END_TEST

/*
 * A next hop that goes silent ages out through the zeros the other
 * neighbour's new seqnos push into its ring: after five of them.
 */
START_TEST(test_best_ageing)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_ogm m;
	uint32_t s;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	both_deliver(rt, 5, 220, 6, 100, 1, 1, 5, &res);
	assert_route(rt, 9, 5, 220, 2);
	for (s = 6; s <= 10; s++) {
		m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
		    .seqno = s, .tq = 100, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
		if (s < 10) {
			ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
			ck_assert_uint_eq(res.relay, 0);
			assert_route(rt, 9, 5, 220, 2);
		}
	}
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_NEXTHOP);
	ck_assert_uint_eq(res.relay, 1);
	assert_route(rt, 9, 6, 100, 2);
	ck_assert_uint_eq(router_avg(rt, 9, 5), 0);
	routing_free(rt);
}
END_TEST

/* Candidates are capped; a better newcomer replaces the weakest. */
START_TEST(test_best_candidates_cap)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_router_info ri[ROUTING_ORIG_ROUTERS + 2];
	struct routing_ogm_result res;
	struct routing_ogm m;
	unsigned i;
	int n;

	for (i = 0; i < ROUTING_ORIG_ROUTERS + 2; i++)
		perfect(rt, IF1, 20 + i, T0);
	for (i = 0; i < ROUTING_ORIG_ROUTERS; i++) {
		m = ogm((struct ogm_of){ .orig = 9, .sender = 20 + i, .prev = 8,
		    .seqno = 1, .tq = (uint8_t)(150 + i), .hops = 1,
		    .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
		ck_assert_uint_eq(res.ranked, 1);
	}
	assert_route(rt, 9, 20 + ROUTING_ORIG_ROUTERS - 1,
	    150 + ROUTING_ORIG_ROUTERS - 1, 2);
	/* Not better than the weakest (150): not ranked, nothing evicted. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 28, .prev = 8, .seqno = 1,
	    .tq = 150, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 0);
	ck_assert_int_eq(routing_orig_routers(rt, ident(9)->pk, ri, 10),
	    ROUTING_ORIG_ROUTERS);
	ck_assert_uint_eq(router_avg(rt, 9, 20), 150);
	/* Better: takes the weakest's place and the route. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 29, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 1);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_NEXTHOP);
	n = routing_orig_routers(rt, ident(9)->pk, ri, 10);
	ck_assert_int_eq(n, ROUTING_ORIG_ROUTERS);
	ck_assert_uint_eq(router_avg(rt, 9, 20), 0);	/* gone */
	for (i = 0; i < (unsigned)n; i++)
		ck_assert_uint_eq(ri[i].best, memcmp(ri[i].addr,
		    ident(29)->addr, BS_ADDR_LEN) == 0);
	ck_assert_int_eq(routing_orig_routers(rt, ident(9)->pk, ri, 3), 3);
	/*
	 * The router is never the one replaced, even when its own average
	 * fell below the others' (it stays router until someone beats it).
	 */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 29, .prev = 8, .seqno = 2,
	    .tq = 10, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_METRIC);
	assert_route(rt, 9, 29, 115, 2);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 20, .prev = 8, .seqno = 2,
	    .tq = 140, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 0);	/* only the router is < 140 */
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_SAME);
	assert_route(rt, 9, 29, 115, 2);
	ck_assert_uint_eq(router_avg(rt, 9, 21), 151);
	/* A newcomer above 151 replaces 21, the weakest non-router ... */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 20, .prev = 8, .seqno = 2,
	    .tq = 152, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.ranked, 1);
	ck_assert_uint_eq(router_avg(rt, 9, 21), 0);
	ck_assert_uint_eq(router_avg(rt, 9, 20), 152);
	/* ... and, beating the router, becomes the next hop. */
	ck_assert_uint_eq(res.route, ROUTING_ROUTE_NEXTHOP);
	assert_route(rt, 9, 20, 152, 2);
	ck_assert_int_eq(routing_orig_routers(rt, ident(10)->pk, ri, 3),
	    ROUTING_ENOENT);
	routing_free(rt);
}
END_TEST

/* ---- purge -------------------------------------------------------------- */

START_TEST(test_purge_neigh)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_purge_result pr;
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;
	struct evlog log;
	uint64_t t1 = T0 + 1000;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, t1);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, t1, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, t1, &res);
	m = ogm((struct ogm_of){ .orig = 10, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, t1, &res);
	/* Exactly at the timeout nothing goes. */
	memset(&log, 0, sizeof(log));
	routing_purge(rt, T0 + ROUTING_NEIGH_TIMEOUT, ev_record, &log, &pr);
	ck_assert_uint_eq(log.n, 0);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	ck_assert_uint_eq(routing_neigh_count(rt), 2);
	/* One ms later neighbour 5 goes: routes first, then the neighbour. */
	routing_purge(rt, T0 + ROUTING_NEIGH_TIMEOUT + 1, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	ck_assert_uint_eq(pr.routers_removed, 2);
	ck_assert_uint_eq(pr.routes_changed, 1);
	ck_assert_uint_eq(pr.routes_deleted, 1);
	ck_assert_uint_eq(pr.orig_removed, 0);
	ck_assert_uint_eq(log.n, 3);
	ck_assert_int_eq(log.ev[0].type, ROUTING_EV_ROUTE);
	ck_assert_mem_eq(log.ev[0].info.pk, ident(9)->pk, BS_PK_LEN);
	ck_assert_uint_eq(log.ev[0].route, ROUTING_ROUTE_NEXTHOP);
	ck_assert_mem_eq(log.ev[0].info.nexthop, ident(6)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(log.ev[0].info.tq, 200);
	ck_assert_int_eq(log.ev[1].type, ROUTING_EV_ROUTE);
	ck_assert_uint_eq(log.ev[1].route, ROUTING_ROUTE_DELETED);
	ck_assert_mem_eq(log.ev[1].info.addr, ident(10)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(log.ev[1].info.has_route, 0);
	ck_assert_int_eq(log.ev[2].type, ROUTING_EV_NEIGH_DOWN);
	ck_assert_mem_eq(log.ev[2].neigh.pk, ident(5)->pk, BS_PK_LEN);
	ck_assert_uint_eq(log.ev[2].neigh.ifindex, IF1);
	ck_assert_uint_eq(routing_neigh_count(rt), 1);
	/* The originator without a route stays until its own timeout. */
	orig_of(rt, 10, &oi);
	ck_assert_uint_eq(oi.has_route, 0);
	ck_assert_uint_eq(oi.routers, 0);
	/* Its OGMs via the purged neighbour are refused now. */
	m = ogm((struct ogm_of){ .orig = 10, .sender = 5, .prev = 8, .seqno = 2,
	    .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, t1, &res), ROUTING_ENONEIGH);
	/* A HELLO after the purge makes a fresh neighbour. */
	hello_next(rt, IF1, 5, 64, t1 + ROUTING_NEIGH_TIMEOUT);
	ck_assert_uint_eq(rq_of(rt, 5), 1);
	routing_free(rt);
}
END_TEST

START_TEST(test_purge_orig)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_orig_info oi;
	struct routing_purge_result pr;
	struct routing_ogm_result res;
	struct routing_ogm m;
	struct evlog log;
	uint64_t t;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF1, 6, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 10, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	/*
	 * Keep both neighbours alive by HELLO; only 6 keeps delivering 9's
	 * OGMs: candidate 5 times out after 200 s, the route moves to 6.
	 * Four new seqnos from 6 push four zeros into 5's ring, one short
	 * of ageing it out.
	 */
	for (t = T0 + 60000; t <= T0 + 240000; t += 60000) {
		hello_next(rt, IF1, 5, 64, t);
		hello_next(rt, IF1, 6, 64, t);
		m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8,
		    .seqno = (uint32_t)(t / 1000), .tq = 200, .hops = 1,
		    .ttl = 50 });
		apply_ok(rt, &m, t, &res);
	}
	assert_route(rt, 9, 5, 220, 2);	/* 5's average is still 220 */
	memset(&log, 0, sizeof(log));
	routing_purge(rt, T0 + ROUTING_NEIGH_TIMEOUT + 1, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	ck_assert_uint_eq(pr.routers_removed, 2);
	ck_assert_uint_eq(pr.routes_changed, 1);
	ck_assert_uint_eq(pr.routes_deleted, 1);
	ck_assert_uint_eq(log.n, 2);
	ck_assert_uint_eq(log.ev[0].route, ROUTING_ROUTE_NEXTHOP);
	ck_assert_mem_eq(log.ev[0].info.pk, ident(9)->pk, BS_PK_LEN);
	ck_assert_uint_eq(log.ev[1].route, ROUTING_ROUTE_DELETED);
	ck_assert_mem_eq(log.ev[1].info.pk, ident(10)->pk, BS_PK_LEN);
	assert_route(rt, 9, 6, 200, 2);
	/*
	 * Originator 10, not heard for 400 s and without a route: removed.
	 * The neighbours, HELLOing every 60 s, stay (they would be lost
	 * after 150 s of silence).
	 */
	for (t = T0 + 300000; t <= T0 + 360000; t += 60000) {
		hello_next(rt, IF1, 5, 64, t);
		hello_next(rt, IF1, 6, 64, t);
	}
	memset(&log, 0, sizeof(log));
	routing_purge(rt, T0 + ROUTING_ORIG_TIMEOUT, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.orig_removed, 0);
	routing_purge(rt, T0 + ROUTING_ORIG_TIMEOUT + 1, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.orig_removed, 1);
	ck_assert_uint_eq(routing_orig_count(rt), 1);
	ck_assert_uint_eq(log.n, 1);
	ck_assert_int_eq(log.ev[0].type, ROUTING_EV_ORIG_DEL);
	ck_assert_mem_eq(log.ev[0].info.pk, ident(10)->pk, BS_PK_LEN);
	ck_assert_int_eq(routing_orig_get(rt, ident(10)->pk, &oi),
	    ROUTING_ENOENT);
	routing_free(rt);
}
END_TEST

/*
 * A neighbour that goes silent is removed once it missed more HELLOs in a
 * row than its loss rate makes plausible: 2 on a clean link (2.5
 * intervals of silence), 5 when it loses one HELLO in five (5.5).
 */
START_TEST(test_neigh_lost)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result hr;
	struct routing_purge_result pr;
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;
	uint64_t t = T0, last = 0;
	uint32_t i;

	/* One HELLO a second; neighbour 6 loses every fifth. */
	for (i = 1; i <= 64; i++, t += 1000) {
		hello_next(rt, IF1, 5, 64, t);
		if (i % 5 != 0)
			ck_assert_int_eq(hello_full(rt, IF1, 6, EPOCH, i, 64,
			    t, &hr), ROUTING_OK);
		last = t;
	}
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, last, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, last, &res);
	assert_route(rt, 9, 5, 220, 2);
	routing_purge(rt, last + 2500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	/* Two HELLOs missed: 5 is gone and the route moves to 6. */
	routing_purge(rt, last + 2501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	ck_assert_uint_eq(pr.routes_changed, 1);
	ck_assert_uint_eq(routing_neigh_count(rt), 1);
	orig_of(rt, 9, &oi);
	ck_assert_uint_eq(oi.has_route, 1);
	ck_assert_mem_eq(oi.nexthop, ident(6)->addr, BS_ADDR_LEN);
	routing_purge(rt, last + 5500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_purge(rt, last + 5501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	ck_assert_uint_eq(pr.routes_deleted, 1);
	ck_assert_uint_eq(routing_neigh_count(rt), 0);
	orig_of(rt, 9, &oi);
	ck_assert_uint_eq(oi.has_route, 0);
	/* A neighbour heard only in bursts (no interval measured) stays. */
	perfect(rt, IF1, 7, t);
	routing_purge(rt, t + 100000, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_free(rt);
}
END_TEST

/*
 * A neighbour that raises its HELLO interval at run time (batsec-ctl set)
 * sends a HELLO announcing the new one at once: silence is then measured
 * in the announced interval, not the one measured so far, so it is not
 * lost 2.5 old intervals later; it is 2.5 new intervals later.  Lowering
 * it again takes effect with the next HELLO.
 */
static void
hello_iv(struct routing *rt, unsigned id, uint16_t iv, uint64_t now)
{
	struct routing_hello_result res;
	const struct ident *n = ident(id);
	struct routing_hello h = {
		.ifindex = IF1, .pk = n->pk, .addr = n->addr, .mac = n->mac,
		.epoch = EPOCH, .seqno = ++hseq[id], .echo = 64,
		.interval_ms = iv,
	};

	ck_assert_int_eq(routing_hello(rt, &h, now, &res), ROUTING_OK);
}

START_TEST(test_neigh_interval_change)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_purge_result pr;
	uint64_t t = T0;
	uint32_t i;

	for (i = 0; i < 64; i++, t += 1000)
		hello_iv(rt, 5, 1000, t);
	/* The measured 1000 ms alone would drop it after 2500 ms. */
	hello_iv(rt, 5, 5000, t);
	routing_purge(rt, t + 2501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_purge(rt, t + 4999, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	/* Back to 1000 ms: the next silence of 2.5 s counts again. */
	t += 5000;
	hello_iv(rt, 5, 1000, t);
	routing_purge(rt, t + 2500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_purge(rt, t + 2501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	routing_free(rt);
}
END_TEST

/*
 * A neighbour's early HELLO (its cold-start burst, batsec-protocol(7)
 * "Cold start": sent as soon as it meets a new neighbour, its regular
 * timer restarted) is no sample of its interval: said to come every
 * 1000 ms, a HELLO 30 ms after the last one would otherwise make the
 * estimate 30 ms (the first sample) and the neighbour lost after 75 ms
 * of silence.  With the interval unknown (0) the sample counts as before.
 */
START_TEST(test_neigh_burst_gap)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_hello_result hr;
	struct routing_purge_result pr;
	struct routing_hello h;
	uint64_t t = T0;
	unsigned k;

	for (k = 0; k < 2; k++) {
		const struct ident *n = ident(5 + k);

		memset(&h, 0, sizeof(h));
		h.ifindex = IF1;
		h.pk = n->pk;
		h.addr = n->addr;
		h.mac = n->mac;
		h.epoch = EPOCH;
		h.echo = 1;
		h.interval_ms = k == 0 ? 1000 : 0;
		h.seqno = 1;
		ck_assert_int_eq(routing_hello(rt, &h, t, &hr), ROUTING_OK);
		h.seqno = 2;		/* the burst, 30 ms later */
		ck_assert_int_eq(routing_hello(rt, &h, t + 30, &hr),
		    ROUTING_OK);
		h.seqno = 3;		/* the restarted timer */
		ck_assert_int_eq(routing_hello(rt, &h, t + 1030, &hr),
		    ROUTING_OK);
	}
	/* 500 ms of silence: neighbour 5 (1000 ms measured) stays; 6 took
	 * the 30 ms gap in (average 30 * 7/8 + 1000 / 8 = 151 ms) and is
	 * lost after 2.5 of those. */
	routing_purge(rt, t + 1030 + 500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	ck_assert_uint_eq(routing_neigh_count(rt), 1);
	routing_purge(rt, t + 1030 + 2500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_purge(rt, t + 1030 + 2501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	routing_free(rt);
}
END_TEST

/*
 * A busy neighbour, heard (HELLO or OGM) at least 2m times an interval
 * (m = 2 on a clean link), is also lost after 1.5 intervals without any
 * frame: 5 sends 5 frames a second (HELLO and 4 OGM frames: 4m would
 * not have been enough); 6 sends 3 (too few for the rule);
 * 7 sends 10, and goes on sending OGMs for 1 s after its last HELLO.
 */
START_TEST(test_neigh_lost_busy)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_purge_result pr;
	struct routing_neigh_info ni;
	uint64_t t = T0, last = 0, u;
	uint32_t i;

	for (i = 1; i <= 64; i++, t += 1000) {
		/* The frames between the previous HELLO and this one. */
		for (u = 900; u > 0; u -= 100) {
			if (u % 200 == 0)
				routing_neigh_heard(rt, IF1, ident(5)->addr,
				    t - u);
			if (u % 400 == 0)
				routing_neigh_heard(rt, IF1, ident(6)->addr,
				    t - u);
			routing_neigh_heard(rt, IF1, ident(7)->addr, t - u);
		}
		hello_next(rt, IF1, 5, 64, t);
		hello_next(rt, IF1, 6, 64, t);
		hello_next(rt, IF1, 7, 64, t);
		last = t;
	}
	/* Then all three go silent, but 7 sends OGMs for one more second. */
	for (u = 100; u <= 1000; u += 100)
		routing_neigh_heard(rt, IF1, ident(7)->addr, last + u);
	/* Unknown neighbours are ignored. */
	routing_neigh_heard(rt, IF1, ident(8)->addr, last + 100);
	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(8)->addr, &ni),
	    ROUTING_ENOENT);
	routing_purge(rt, last + 1500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_purge(rt, last + 1501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	ck_assert_int_eq(routing_neigh_get(rt, IF1, ident(5)->addr, &ni),
	    ROUTING_ENOENT);
	/* 7 was heard at +1000: not silent for 1.5 s yet at +2500... */
	routing_purge(rt, last + 2500, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	/* ...but it missed two HELLOs, as 6 did: the HELLO rule. */
	routing_purge(rt, last + 2501, NULL, NULL, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 2);
	ck_assert_uint_eq(routing_neigh_count(rt), 0);
	routing_free(rt);
}
END_TEST

/* An originator with a route at its timeout: ROUTE deleted, ORIG_DEL. */
START_TEST(test_purge_orig_route)
{
	struct routing_params p;
	struct routing *rt;
	struct routing_purge_result pr;
	struct routing_ogm_result res;
	struct routing_ogm m;
	struct evlog log;

	routing_params_default(&p);
	p.orig_timeout_ms = 5000;
	rt = mk_rt(&p);
	perfect(rt, IF1, 5, T0);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	memset(&log, 0, sizeof(log));
	routing_purge(rt, T0 + 5001, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.orig_removed, 1);
	ck_assert_uint_eq(pr.routes_deleted, 1);
	ck_assert_uint_eq(log.n, 2);
	ck_assert_int_eq(log.ev[0].type, ROUTING_EV_ROUTE);
	ck_assert_uint_eq(log.ev[0].route, ROUTING_ROUTE_DELETED);
	ck_assert_int_eq(log.ev[1].type, ROUTING_EV_ORIG_DEL);
	ck_assert_uint_eq(routing_neigh_count(rt), 1);
	/* The clock going backwards removes nothing. */
	routing_purge(rt, 0, NULL, NULL, NULL);
	ck_assert_uint_eq(routing_neigh_count(rt), 1);
	/* After removal the originator is learned afresh. */
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0 + 6000, &res);
	ck_assert_uint_eq(res.orig_new, 1);
	routing_free(rt);
}
END_TEST

START_TEST(test_remove_key_flush)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_purge_result pr;
	struct routing_ogm_result res;
	struct routing_ogm m;
	struct evlog log;

	perfect(rt, IF1, 5, T0);
	perfect(rt, IF2, 5, T0);
	perfect(rt, IF1, 6, T0);
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 6, .prev = 8, .seqno = 1,
	    .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	/* Revoke 5: its originator and both its neighbour entries go. */
	memset(&log, 0, sizeof(log));
	ck_assert_int_eq(routing_remove_key(rt, ident(5)->pk, ev_record, &log,
	    &pr), ROUTING_OK);
	ck_assert_uint_eq(pr.orig_removed, 1);
	ck_assert_uint_eq(pr.neigh_removed, 2);
	ck_assert_uint_eq(pr.routes_changed, 1);
	ck_assert_uint_eq(log.n, 5);
	ck_assert_int_eq(log.ev[0].type, ROUTING_EV_ROUTE);
	ck_assert_int_eq(log.ev[1].type, ROUTING_EV_ORIG_DEL);
	ck_assert_int_eq(log.ev[2].type, ROUTING_EV_ROUTE);
	ck_assert_int_eq(log.ev[3].type, ROUTING_EV_NEIGH_DOWN);
	ck_assert_int_eq(log.ev[4].type, ROUTING_EV_NEIGH_DOWN);
	assert_route(rt, 9, 6, 200, 2);
	ck_assert_int_eq(routing_remove_key(rt, ident(5)->pk, NULL, NULL,
	    NULL), ROUTING_ENOENT);
	/* Interface down: its neighbours and the routes through them go. */
	memset(&log, 0, sizeof(log));
	routing_iface_flush(rt, IF1, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 1);
	ck_assert_uint_eq(pr.routes_deleted, 1);
	ck_assert_uint_eq(log.n, 2);
	ck_assert_uint_eq(routing_neigh_count(rt), 0);
	routing_iface_flush(rt, IF1, ev_record, &log, &pr);
	ck_assert_uint_eq(pr.neigh_removed, 0);
	routing_iface_flush(rt, 0, NULL, NULL, NULL);
	routing_free(rt);
}
END_TEST

/* ---- caps, eviction hook, iteration ------------------------------------- */

START_TEST(test_orig_cap)
{
	struct routing_params p;
	struct routing *rt;
	struct routing_ogm_result res;
	struct routing_ogm m;
	unsigned i;

	routing_params_default(&p);
	p.orig_cap = 3;
	rt = mk_rt(&p);
	perfect(rt, IF1, 5, T0);
	for (i = 0; i < 3; i++) {
		m = ogm((struct ogm_of){ .orig = 100 + i, .sender = 5,
		    .prev = 8, .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
	}
	m = ogm((struct ogm_of){ .orig = 103, .sender = 5, .prev = 8,
	    .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EFULL);
	ck_assert_uint_eq(res.orig_new, 0);
	ck_assert_uint_eq(routing_orig_count(rt), 3);
	/* Known originators keep updating. */
	m = ogm((struct ogm_of){ .orig = 100, .sender = 5, .prev = 8,
	    .seqno = 2, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	/* The cap cannot go below the entries held ... */
	p.orig_cap = 2;
	ck_assert_int_eq(routing_set_params(rt, &p), ROUTING_EFULL);
	/* ... but can go up (the hash grows), and then there is room. */
	p.orig_cap = 100;
	ck_assert_int_eq(routing_set_params(rt, &p), ROUTING_OK);
	for (i = 3; i < 100; i++) {
		m = ogm((struct ogm_of){ .orig = 100 + i, .sender = 5,
		    .prev = 8, .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0, &res);
	}
	for (i = 0; i < 100; i++)
		assert_route(rt, 100 + i, 5, 200, 2);
	m = ogm((struct ogm_of){ .orig = 200, .sender = 5, .prev = 8,
	    .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EFULL);
	/* Removing one makes room for one. */
	ck_assert_int_eq(routing_remove_key(rt, ident(150)->pk, NULL, NULL,
	    NULL), ROUTING_OK);
	apply_ok(rt, &m, T0, &res);
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EDUP);
	m = ogm((struct ogm_of){ .orig = 201, .sender = 5, .prev = 8,
	    .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EFULL);
	routing_free(rt);
}
END_TEST

/* The default cap, filled: every entry found, one more refused. */
START_TEST(test_orig_cap_default)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;
	unsigned i;
	uint32_t pos = 0, n = 0;

	perfect(rt, IF1, 5, T0);
	for (i = 0; i < ROUTING_ORIG_CAP; i++) {
		m = ogm((struct ogm_of){ .orig = 10 + i, .sender = 5, .prev = 8,
		    .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
		apply_ok(rt, &m, T0 + i, &res);
	}
	m = ogm((struct ogm_of){ .orig = 10 + ROUTING_ORIG_CAP, .sender = 5,
	    .prev = 8, .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EFULL);
	for (i = 0; i < ROUTING_ORIG_CAP; i++) {
		ck_assert_int_eq(routing_orig_get_addr(rt, ident(10 + i)->addr,
		    &oi), ROUTING_OK);
		ck_assert_mem_eq(oi.pk, ident(10 + i)->pk, BS_PK_LEN);
	}
	while (routing_orig_next(rt, &pos, &oi))
		n++;
	ck_assert_uint_eq(n, ROUTING_ORIG_CAP);
	ck_assert_int_eq(routing_orig_get_addr(rt, ident(9)->addr, &oi),
	    ROUTING_ENOENT);
	routing_free(rt);
}
END_TEST

START_TEST(test_evict_candidate)
{
	struct routing *rt = mk_rt(NULL);
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;
	unsigned i;

	perfect(rt, IF1, 5, T0);
	for (i = 0; i < 6; i++) {
		m = ogm((struct ogm_of){ .orig = 100 + i, .sender = 5,
		    .prev = 8, .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
		m.cls = i % 2 ? 2 : 4;
		apply_ok(rt, &m, T0 + 10 * i, &res);
	}
	/* Refresh 101 (class 2): 103 becomes the oldest of class 2. */
	m = ogm((struct ogm_of){ .orig = 101, .sender = 5, .prev = 8,
	    .seqno = 2, .tq = 200, .hops = 1, .ttl = 50 });
	m.cls = 2;
	apply_ok(rt, &m, T0 + 100, &res);
	ck_assert_int_eq(routing_orig_evict_candidate(rt, 2, &oi), 1);
	ck_assert_mem_eq(oi.pk, ident(103)->pk, BS_PK_LEN);
	ck_assert_uint_eq(oi.cls, 2);
	ck_assert_uint_eq(oi.last_refresh_ms, T0 + 30);
	/* A duplicate copy is not a refresh. */
	perfect(rt, IF1, 6, T0);
	m = ogm((struct ogm_of){ .orig = 100, .sender = 6, .prev = 8,
	    .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
	m.cls = 4;
	apply_ok(rt, &m, T0 + 200, &res);
	ck_assert_int_eq(routing_orig_evict_candidate(rt, 4, &oi), 1);
	ck_assert_mem_eq(oi.pk, ident(100)->pk, BS_PK_LEN);
	ck_assert_uint_eq(oi.last_seen_ms, T0 + 200);
	ck_assert_int_eq(routing_orig_evict_candidate(rt, 3, &oi), 0);
	/* Reclassify: 100 leaves class 4. */
	ck_assert_int_eq(routing_orig_set_class(rt, ident(100)->pk, 3),
	    ROUTING_OK);
	ck_assert_int_eq(routing_orig_evict_candidate(rt, 3, &oi), 1);
	ck_assert_int_eq(routing_orig_evict_candidate(rt, 4, &oi), 1);
	ck_assert_mem_eq(oi.pk, ident(102)->pk, BS_PK_LEN);
	ck_assert_int_eq(routing_orig_set_class(rt, ident(99)->pk, 3),
	    ROUTING_ENOENT);
	routing_free(rt);
}
END_TEST

/*
 * routing_orig_remove (eviction): only the originator goes, its route
 * deleted before ORIG_DEL; a neighbour with the same key stays, and the
 * slot is reused by the next originator.
 */
START_TEST(test_orig_remove)
{
	struct routing_params p;
	struct routing *rt;
	struct routing_ogm_result res;
	struct routing_ogm m;
	struct evlog log;

	routing_params_default(&p);
	p.orig_cap = 2;
	rt = mk_rt(&p);
	perfect(rt, IF1, 5, T0);
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 10, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	ck_assert_int_eq(apply(rt, &m, T0, &res), ROUTING_EFULL);
	memset(&log, 0, sizeof(log));
	ck_assert_int_eq(routing_orig_remove(rt, ident(5)->pk, ev_record,
	    &log), ROUTING_OK);
	ck_assert_uint_eq(log.n, 2);
	ck_assert_int_eq(log.ev[0].type, ROUTING_EV_ROUTE);
	ck_assert_uint_eq(log.ev[0].route, ROUTING_ROUTE_DELETED);
	ck_assert_int_eq(log.ev[1].type, ROUTING_EV_ORIG_DEL);
	ck_assert_mem_eq(log.ev[1].info.pk, ident(5)->pk, BS_PK_LEN);
	ck_assert_uint_eq(routing_orig_count(rt), 1);
	ck_assert_uint_eq(routing_neigh_count(rt), 1);
	assert_route(rt, 9, 5, 220 * 255 / 255, 2);
	/* The room it left takes a new originator. */
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.orig_new, 1);
	ck_assert_int_eq(routing_orig_remove(rt, ident(5)->pk, NULL, NULL),
	    ROUTING_ENOENT);
	routing_free(rt);
}
END_TEST

/*
 * Lookups try the slot the last one found first (orig.c, orig_hint): a
 * slot freed and taken by another originator must not answer for the
 * one that left, by key or by address.
 */
START_TEST(test_orig_lookup_hint)
{
	struct routing_params p;
	struct routing *rt;
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;

	routing_params_default(&p);
	rt = mk_rt(&p);
	perfect(rt, IF1, 5, T0);
	m = ogm((struct ogm_of){ .orig = 5, .sender = 5, .prev = 5, .seqno = 1,
	    .tq = 255, .hops = 0, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	m = ogm((struct ogm_of){ .orig = 9, .sender = 5, .prev = 8, .seqno = 1,
	    .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	/* The hint on 9, then on 5; 5 leaves and 10 takes its slot. */
	ck_assert_int_eq(routing_orig_get(rt, ident(9)->pk, &oi), ROUTING_OK);
	ck_assert_int_eq(routing_orig_get_addr(rt, ident(5)->addr, &oi),
	    ROUTING_OK);
	ck_assert_mem_eq(oi.pk, ident(5)->pk, BS_PK_LEN);
	ck_assert_int_eq(routing_orig_remove(rt, ident(5)->pk, NULL, NULL),
	    ROUTING_OK);
	ck_assert_int_eq(routing_orig_get(rt, ident(5)->pk, &oi),
	    ROUTING_ENOENT);
	ck_assert_int_eq(routing_orig_get_addr(rt, ident(5)->addr, &oi),
	    ROUTING_ENOENT);
	m = ogm((struct ogm_of){ .orig = 10, .sender = 5, .prev = 8,
	    .seqno = 1, .tq = 220, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0, &res);
	ck_assert_uint_eq(res.orig_new, 1);
	ck_assert_int_eq(routing_orig_get_addr(rt, ident(10)->addr, &oi),
	    ROUTING_OK);
	ck_assert_mem_eq(oi.pk, ident(10)->pk, BS_PK_LEN);
	ck_assert_int_eq(routing_orig_get(rt, ident(5)->pk, &oi),
	    ROUTING_ENOENT);
	ck_assert_int_eq(routing_orig_get_addr(rt, ident(5)->addr, &oi),
	    ROUTING_ENOENT);
	/* Key and address of different originators, one after the other. */
	ck_assert_int_eq(routing_orig_get(rt, ident(9)->pk, &oi), ROUTING_OK);
	ck_assert_mem_eq(oi.addr, ident(9)->addr, BS_ADDR_LEN);
	ck_assert_int_eq(routing_orig_get_addr(rt, ident(10)->addr, &oi),
	    ROUTING_OK);
	ck_assert_mem_eq(oi.pk, ident(10)->pk, BS_PK_LEN);
	ck_assert_int_eq(routing_orig_get(rt, ident(9)->pk, &oi), ROUTING_OK);
	ck_assert_mem_eq(oi.pk, ident(9)->pk, BS_PK_LEN);
	routing_free(rt);
}
END_TEST

/* Tables fed the same input under different hash keys dump the same. */
static void
feed(struct routing *rt)
{
	struct routing_ogm_result res;
	struct routing_ogm m;
	unsigned i;

	for (i = 0; i < 4; i++)
		perfect(rt, IF1, 20 + i, T0);
	for (i = 0; i < 300; i++) {
		m = ogm((struct ogm_of){ .orig = 100 + (i * 7919) % 257,
		    .sender = 20 + i % 4, .prev = 8, .seqno = 1 + i / 257,
		    .tq = (uint8_t)(100 + i % 100), .hops = 1, .ttl = 50 });
		(void)routing_ogm(rt, &m, T0 + i, &res);
	}
	ck_assert_int_eq(routing_remove_key(rt, ident(100 + 7)->pk, NULL,
	    NULL, NULL), ROUTING_OK);
	m = ogm((struct ogm_of){ .orig = 1000, .sender = 21, .prev = 8,
	    .seqno = 1, .tq = 200, .hops = 1, .ttl = 50 });
	apply_ok(rt, &m, T0 + 400, &res);
}

START_TEST(test_deterministic)
{
	struct routing *a = mk_rt_id(US, NULL, hkey_a);
	struct routing *b = mk_rt_id(US, NULL, hkey_b);
	struct routing_orig_info oa, ob;
	uint32_t pa = 0, pb = 0;
	unsigned n = 0;

	memset(hseq, 0, sizeof(hseq));
	feed(a);
	memset(hseq, 0, sizeof(hseq));
	feed(b);
	ck_assert_uint_eq(routing_orig_count(a), routing_orig_count(b));
	while (routing_orig_next(a, &pa, &oa)) {
		ck_assert_int_eq(routing_orig_next(b, &pb, &ob), 1);
		ck_assert_mem_eq(&oa, &ob, sizeof(oa));
		n++;
	}
	ck_assert_int_eq(routing_orig_next(b, &pb, &ob), 0);
	ck_assert_uint_eq(n, 257);
	routing_free(a);
	routing_free(b);
}
END_TEST

START_TEST(test_params)
{
	struct routing_params p, q;
	const struct ident *me = ident(US);
	struct routing *rt;

	routing_params_default(&p);
	ck_assert_int_eq(routing_params_check(&p), ROUTING_OK);
	ck_assert_uint_eq(p.hop_penalty, 30);
	ck_assert_uint_eq(p.orig_cap, 4096);
	ck_assert_uint_eq(p.neigh_timeout_ms, 200000);
	ck_assert_uint_eq(p.orig_timeout_ms, 400000);
	ck_assert_int_eq(routing_params_check(NULL), ROUTING_EINVAL);
	q = p; q.orig_cap = 0;
	ck_assert_int_eq(routing_params_check(&q), ROUTING_EINVAL);
	q = p; q.orig_cap = ROUTING_ORIG_CAP_MAX + 1;
	ck_assert_int_eq(routing_params_check(&q), ROUTING_EINVAL);
	q = p; q.neigh_cap = ROUTING_NEIGH_CAP_MAX + 1;
	ck_assert_int_eq(routing_params_check(&q), ROUTING_EINVAL);
	q = p; q.neigh_iface_cap = 65;
	ck_assert_int_eq(routing_params_check(&q), ROUTING_EINVAL);
	q = p; q.neigh_timeout_ms = 0;
	ck_assert_int_eq(routing_params_check(&q), ROUTING_EINVAL);
	q = p; q.orig_timeout_ms = ROUTING_TIMEOUT_MAX + 1;
	ck_assert_int_eq(routing_params_check(&q), ROUTING_EINVAL);
	ck_assert_ptr_null(routing_new(&q, me->pk, me->addr, hkey_a));
	rt = mk_rt(&p);
	q = p; q.neigh_cap = 10;
	ck_assert_int_eq(routing_set_params(rt, &q), ROUTING_EINVAL);
	q = p; q.neigh_iface_cap = 10;
	ck_assert_int_eq(routing_set_params(rt, &q), ROUTING_EINVAL);
	q = p; q.orig_timeout_ms = 0;
	ck_assert_int_eq(routing_set_params(rt, &q), ROUTING_EINVAL);
	q = p; q.hop_penalty = 60; q.orig_cap = 16;
	ck_assert_int_eq(routing_set_params(rt, &q), ROUTING_OK);
	ck_assert_uint_eq(routing_get_params(rt)->hop_penalty, 60);
	ck_assert_uint_eq(routing_get_params(rt)->orig_cap, 16);
	routing_free(rt);
	routing_free(NULL);
}
END_TEST

START_TEST(test_strerror)
{
	int i, j;

	for (i = 0; i > -ROUTING_NERR; i--) {
		ck_assert_str_ne(routing_strerror(i), "?");
		for (j = 0; j > i; j--)
			ck_assert_str_ne(routing_strerror(i),
			    routing_strerror(j));
	}
	ck_assert_str_eq(routing_strerror(ROUTING_ENOENT), "no such entry");
	ck_assert_str_eq(routing_strerror(-ROUTING_NERR), "?");
	ck_assert_str_eq(routing_strerror(1), "?");
}
END_TEST

/* ---- a chain of four nodes ---------------------------------------------- */

#define SIM_N		4
#define SIM_QUEUE	256

struct simnode {
	struct routing *rt;
	unsigned id;
	uint32_t hseq;
	unsigned relays;
};

struct simtx {
	unsigned from;			/* node index */
	unsigned orig;			/* node index */
	uint32_t seqno;
	uint8_t tq, hops, ttl;
	uint8_t prev[BS_ADDR_LEN];
};

struct sim {
	struct simnode n[SIM_N];
	struct simtx q[SIM_QUEUE];
	unsigned qh, qt;
	unsigned echoes, own;
};

/* Linear chain: i and j are neighbours when they differ by one. */
static int
sim_adjacent(unsigned i, unsigned j)
{
	return i + 1 == j || j + 1 == i;
}

static void
sim_hellos(struct sim *s, uint64_t now)
{
	struct routing_hello_result hr;
	struct routing_neigh_info ni;
	unsigned i, j;

	for (i = 0; i < SIM_N; i++) {
		struct simnode *src = &s->n[i];

		src->hseq++;
		for (j = 0; j < SIM_N; j++) {
			const struct ident *me = ident(src->id);
			struct routing_hello h = {
				.ifindex = IF1, .pk = me->pk, .addr = me->addr,
				.mac = me->mac, .epoch = 1, .seqno = src->hseq,
			};

			if (!sim_adjacent(i, j))
				continue;
			/* What src's HELLO says about j: its rq for j. */
			if (routing_neigh_get(src->rt, IF1,
			    ident(s->n[j].id)->addr, &ni) == ROUTING_OK)
				h.echo = ni.rq_report;
			ck_assert_int_eq(routing_hello(s->n[j].rt, &h, now,
			    &hr), ROUTING_OK);
		}
	}
}

static void
sim_push(struct sim *s, const struct simtx *tx)
{
	ck_assert_uint_lt(s->qt - s->qh, SIM_QUEUE);
	s->q[s->qt++ % SIM_QUEUE] = *tx;
}

/* Deliver one transmission to every neighbour of its sender. */
static void
sim_deliver(struct sim *s, const struct simtx *tx, uint64_t now)
{
	struct routing_ogm_result res;
	unsigned j;
	int r;

	for (j = 0; j < SIM_N; j++) {
		struct routing_ogm m = {
			.orig_pk = ident(s->n[tx->orig].id)->pk,
			.orig_addr = ident(s->n[tx->orig].id)->addr,
			.epoch = 1, .seqno = tx->seqno, .tq = tx->tq,
			.hops = tx->hops, .ttl = tx->ttl,
			.prev_sender = tx->prev, .ifindex = IF1,
			.sender = ident(s->n[tx->from].id)->addr,
			.cls = 4,
		};
		struct simtx fw;

		if (!sim_adjacent(tx->from, j))
			continue;
		r = routing_ogm(s->n[j].rt, &m, now, &res);
		if (r == ROUTING_EOWN || r == ROUTING_EECHO) {
			s->own += r == ROUTING_EOWN;
			s->echoes += r == ROUTING_EECHO;
			continue;
		}
		ck_assert_msg(r == ROUTING_OK, "node %u: %s", j,
		    routing_strerror(r));
		if (!res.relay)
			continue;
		s->n[j].relays++;
		fw = *tx;
		fw.from = j;
		fw.tq = res.relay_tq;
		fw.hops = res.relay_hops;
		fw.ttl = res.relay_ttl;
		memcpy(fw.prev, res.relay_prev_sender, BS_ADDR_LEN);
		sim_push(s, &fw);
	}
}

static void
sim_round(struct sim *s, uint32_t seqno, uint64_t now)
{
	unsigned i;

	for (i = 0; i < SIM_N; i++) {
		struct simtx tx = {
			.from = i, .orig = i, .seqno = seqno, .tq = 255,
			.hops = 0, .ttl = 50,
		};

		memcpy(tx.prev, ident(s->n[i].id)->addr, BS_ADDR_LEN);
		sim_push(s, &tx);
	}
	while (s->qh != s->qt) {
		struct simtx tx = s->q[s->qh++ % SIM_QUEUE];

		sim_deliver(s, &tx, now);
	}
}

START_TEST(test_chain)
{
	static struct sim s;
	unsigned i, round;
	uint64_t now = T0;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < SIM_N; i++) {
		s.n[i].id = 1000 + i;	/* A, B, C, D */
		s.n[i].rt = mk_rt_id(s.n[i].id, NULL, hkey_a);
	}
	for (i = 0; i < ROUTING_WINDOW + 1; i++, now += 1000)
		sim_hellos(&s, now);
	for (round = 1; round <= 3; round++, now += 1000) {
		for (i = 0; i < SIM_N; i++)
			s.n[i].relays = 0;
		sim_round(&s, round, now);
		/*
		 * Each node relays each other originator's OGM once, the
		 * ends too (B.A.T.M.A.N. IV has no split horizon; the copy
		 * comes back to its sender as an echo and stops there).
		 */
		for (i = 0; i < SIM_N; i++)
			ck_assert_uint_eq(s.n[i].relays, SIM_N - 1);
	}
	/* D learns A at 198 via C, three hops away. */
	assert_route(s.n[3].rt, 1000, 1002, 198, 3);
	assert_route(s.n[3].rt, 1001, 1002, 225, 2);
	assert_route(s.n[3].rt, 1002, 1002, 255, 1);
	/* And the other way round. */
	assert_route(s.n[0].rt, 1003, 1001, 198, 3);
	assert_route(s.n[0].rt, 1002, 1001, 225, 2);
	assert_route(s.n[1].rt, 1003, 1002, 225, 2);
	for (i = 0; i < SIM_N; i++) {
		ck_assert_uint_eq(routing_orig_count(s.n[i].rt), SIM_N - 1);
		ck_assert_uint_eq(routing_neigh_count(s.n[i].rt),
		    i == 0 || i == SIM_N - 1 ? 1 : 2);
	}
	/* Relays came back as echoes (B, C's relays heard by their source). */
	ck_assert_uint_gt(s.echoes, 0);
	ck_assert_uint_gt(s.own, 0);
	for (i = 0; i < SIM_N; i++)
		routing_free(s.n[i].rt);
}
END_TEST

/* ---- suite -------------------------------------------------------------- */

static void
reset(void)
{
	memset(hseq, 0, sizeof(hseq));
}

static Suite *
routing_suite(void)
{
	Suite *s = suite_create("routing");
	TCase *tc;

	tc = tcase_create("tq");
	tcase_add_loop_test(tc, test_tq_ceiling_table, 0,
	    (int)sizeof(ref_ceiling));
	tcase_add_test(tc, test_tq_ceiling_edges);
	tcase_add_loop_test(tc, test_tq_asym_table, 0,
	    (int)(sizeof(ref_asym) / sizeof(ref_asym[0])));
	tcase_add_test(tc, test_tq_formulas);
	suite_add_tcase(s, tc);

	tc = tcase_create("neigh");
	tcase_add_checked_fixture(tc, reset, NULL);
	tcase_add_loop_test(tc, test_link_asym, 0,
	    (int)(sizeof(asym_rq) / sizeof(asym_rq[0])));
	tcase_add_test(tc, test_link_gaps);
	tcase_add_test(tc, test_link_warmup);
	tcase_add_test(tc, test_link_warmup_rates);
	tcase_add_test(tc, test_hello_bidirectional);
	tcase_add_test(tc, test_hello_window);
	tcase_add_test(tc, test_hello_wrap);
	tcase_add_test(tc, test_hello_errors);
	tcase_add_test(tc, test_neigh_caps);
	tcase_add_test(tc, test_neigh_iter);
	suite_add_tcase(s, tc);

	tc = tcase_create("ogm");
	tcase_add_checked_fixture(tc, reset, NULL);
	tcase_add_loop_test(tc, test_ogm_hops_tq, 0, 5);
	tcase_add_test(tc, test_ogm_ceiling_and_link);
	tcase_add_test(tc, test_ogm_ttl);
	tcase_add_test(tc, test_ogm_iface_penalty);
	tcase_add_test(tc, test_ogm_half_duplex);
	tcase_add_test(tc, test_ogm_guards);
	tcase_add_test(tc, test_ogm_loop_guard);
	tcase_add_test(tc, test_ogm_window);
	tcase_add_test(tc, test_ogm_wrap_epoch);
	tcase_add_test(tc, test_ogm_relay_once);
	tcase_add_test(tc, test_ogm_dup_ttl);
	suite_add_tcase(s, tc);

	tc = tcase_create("best");
	tcase_add_checked_fixture(tc, reset, NULL);
	tcase_add_test(tc, test_best_switch);
	tcase_add_test(tc, test_best_tie_fresh);
	tcase_add_test(tc, test_best_tie_echo);
	tcase_add_test(tc, test_best_ageing);
	tcase_add_test(tc, test_best_candidates_cap);
	suite_add_tcase(s, tc);

	tc = tcase_create("purge");
	tcase_add_checked_fixture(tc, reset, NULL);
	tcase_add_test(tc, test_purge_neigh);
	tcase_add_test(tc, test_purge_orig);
	tcase_add_test(tc, test_purge_orig_route);
	tcase_add_test(tc, test_neigh_lost);
	tcase_add_test(tc, test_neigh_interval_change);
	tcase_add_test(tc, test_neigh_lost_busy);
	tcase_add_test(tc, test_neigh_burst_gap);
	tcase_add_test(tc, test_remove_key_flush);
	suite_add_tcase(s, tc);

	tc = tcase_create("tables");
	tcase_add_checked_fixture(tc, reset, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_orig_cap);
	tcase_add_test(tc, test_orig_cap_default);
	tcase_add_test(tc, test_evict_candidate);
	tcase_add_test(tc, test_orig_remove);
	tcase_add_test(tc, test_orig_lookup_hint);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_params);
	tcase_add_test(tc, test_strerror);
	suite_add_tcase(s, tc);

	tc = tcase_create("chain");
	tcase_add_checked_fixture(tc, reset, NULL);
	tcase_add_test(tc, test_chain);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(routing_suite());
}
