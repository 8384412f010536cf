/*
 * check_fwd_dat.c — unit tests of the ARP and ND answer cache
 * (src/forwarder/fwd_dat.c): parsing (ARP; neighbour solicitations and
 * advertisements, byte by byte), learning only claimed MACs, the
 * answers' bytes, the bound, the timeout, claims that move or go,
 * conflicting mappings.  The remote TT and the routes are real tables
 * (fwd_tables.c) filled as the parser would; time is passed in.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bs_bytes.h"
#include "forwarder/fwd_dat.h"
#include "forwarder/fwd_tables.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"

#define T0	1000000ull

static struct fwd_tables *t;
static struct fwd_dat *dt;

/* Originator n: mesh address 02:0a:00:00:00:n, a route through itself. */
static void
orig_addr(unsigned n, uint8_t a[BS_ADDR_LEN])
{
	static const uint8_t base[BS_ADDR_LEN] = { 0x02, 0x0a, 0, 0, 0, 0 };

	memcpy(a, base, BS_ADDR_LEN);
	a[5] = (uint8_t)n;
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

static void
route(unsigned n, uint64_t now)
{
	struct ipc_route r;

	memset(&r, 0, sizeof(r));
	memset(r.orig_pk, (int)n, sizeof(r.orig_pk));
	orig_addr(n, r.orig_addr);
	orig_addr(n, r.nexthop);
	r.ifindex = 3;
	r.tq = 200;
	r.hops = 1;
	r.epoch = 1;
	ck_assert_int_eq(fwd_route_add(t, &r, now), 0);
}

/* Originator n claims clients first..first+count-1 (vid 0). */
static void
claims(unsigned n, unsigned first, unsigned count, uint64_t now)
{
	struct ipc_tt m;
	unsigned i;

	memset(&m, 0, sizeof(m));
	orig_addr(n, m.orig_addr);
	ck_assert_uint_le(count, IPC_TT_MAX);
	for (i = 0; i < count; i++)
		client_mac(first + i, m.e[i].mac);
	m.count = (uint8_t)count;
	ck_assert_uint_eq(fwd_client_set(t, &m, now), count);
}

/* 10.0.x.y for n = x * 256 + y. */
static void
ip_of(unsigned n, uint8_t ip[4])
{
	ip[0] = 10;
	ip[1] = 0;
	ip[2] = (uint8_t)(n >> 8);
	ip[3] = (uint8_t)n;
}

/* An ARP frame, 60 bytes, or 64 with a tag of tci when tagged. */
static size_t
arp_frame(uint8_t *f, uint16_t op, const uint8_t *edst, const uint8_t *sha,
    const uint8_t spa[4], const uint8_t *tha, const uint8_t tpa[4],
    int tagged, uint16_t tci)
{
	return t_arp(f, op, edst, sha, spa, tha, tpa, tagged ? tci : 0);
}

static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t zero6[6];

/*
 * Originator o says: client c has address ip_of(n) (a gratuitous reply);
 * what fwd_dat_learn returns.
 */
static int
learn_ip(unsigned o, unsigned c, unsigned n, uint64_t now)
{
	uint8_t f[64], mac[6], ip[4], orig[6];
	struct fwd_arp a;

	client_mac(c, mac);
	ip_of(n, ip);
	orig_addr(o, orig);
	(void)arp_frame(f, 2, bcast, mac, ip, bcast, ip, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
	return fwd_dat_learn(dt, t, &a, orig, now);
}

/* The same for ip_of(c). */
static int
learn(unsigned o, unsigned c, uint64_t now)
{
	return learn_ip(o, c, c, now);
}

/* 1 when the cache answers ip_of(c) with client c's MAC. */
static int
serves(unsigned c, uint64_t now)
{
	uint8_t ip[4], mac[6], want[6];

	ip_of(c, ip);
	if (!fwd_dat_lookup(dt, t, ip, 0, now, mac, NULL))
		return 0;
	client_mac(c, want);
	ck_assert_mem_eq(mac, want, 6);
	return 1;
}

/* Originators 1 and 2, with routes, claiming clients 10 and 20. */
static void
two_origs(void)
{
	route(1, T0);
	route(2, T0);
	claims(1, 10, 1, T0);
	claims(2, 20, 1, T0);
}

static void
setup(void)
{
	ck_assert_int_ge(sodium_init(), 0);
	t = fwd_tables_new();
	dt = malloc(sizeof(*dt));
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(dt);
	fwd_dat_init(dt);
}

static void
teardown(void)
{
	fwd_tables_free(t);
	free(dt);
}

/* ---- parsing ------------------------------------------------------------- */

START_TEST(test_parse)
{
	uint8_t f[64], mac[6], ip[4], ip2[4];
	struct fwd_arp a;
	size_t n;

	client_mac(1, mac);
	ip_of(1, ip);
	ip_of(2, ip2);
	n = arp_frame(f, 1, bcast, mac, ip, zero6, ip2, 1, 0x2005);
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 1);
	ck_assert_uint_eq(a.op, 1);
	ck_assert_uint_eq(a.vid, WIRE_VID_TAGGED | 5);
	ck_assert_mem_eq(a.spa, ip, 4);
	ck_assert_mem_eq(a.tpa, ip2, 4);
	ck_assert_mem_eq(a.sha, mac, 6);
	/* Short, wrong type, wrong sizes, unknown op. */
	ck_assert_int_eq(fwd_dat_arp_parse(f, 18 + 27, &a), 0);
	n = arp_frame(f, 1, bcast, mac, ip, zero6, ip2, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 41, &a), 0);
	f[12] = 0x08;
	f[13] = 0x00;
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 0);
	n = arp_frame(f, 1, bcast, mac, ip, zero6, ip2, 0, 0);
	f[14 + 4] = 8;
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 0);
	n = arp_frame(f, 3, bcast, mac, ip, zero6, ip2, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 0);
}
END_TEST

/* ---- learning and answering ------------------------------------------- */

START_TEST(test_answer)
{
	uint8_t f[64], out[FWD_DAT_REPLY_MAX], req[6], ip1[4], ip2[4], mac2[6];
	struct fwd_arp a;
	size_t n;

	route(1, T0);
	claims(1, 2, 1, T0);
	ck_assert_int_eq(learn(1, 2, T0), 1);
	ck_assert_uint_eq(fwd_dat_count(dt), 1);
	/* Our client 02:cc:00:00:00:01 (10.0.0.1) asks for 10.0.0.2. */
	client_mac(1, req);
	client_mac(2, mac2);
	ip_of(1, ip1);
	ip_of(2, ip2);
	n = arp_frame(f, 1, bcast, req, ip1, zero6, ip2, 1, 0x0007);
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 1);
	/* Tagged 7: no mapping in that VLAN. */
	ck_assert_uint_eq(fwd_dat_answer(dt, t, &a, T0 + 1, out), 0);
	ck_assert_uint_eq(dt->c.flooded, 1);
	n = arp_frame(f, 1, bcast, req, ip1, zero6, ip2, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 1);
	n = fwd_dat_answer(dt, t, &a, T0 + 1, out);
	ck_assert_uint_eq(n, 60);
	ck_assert_uint_eq(dt->c.answered, 1);
	ck_assert_mem_eq(out, req, 6);
	ck_assert_mem_eq(out + 6, mac2, 6);
	ck_assert_uint_eq(bs_get16(out + 12), 0x0806);
	ck_assert_uint_eq(bs_get16(out + 14 + 6), 2);
	ck_assert_mem_eq(out + 14 + 8, mac2, 6);
	ck_assert_mem_eq(out + 14 + 14, ip2, 4);
	ck_assert_mem_eq(out + 14 + 18, req, 6);
	ck_assert_mem_eq(out + 14 + 24, ip1, 4);
	/* The reply parses as the mapping it states. */
	ck_assert_int_eq(fwd_dat_arp_parse(out, n, &a), 1);
	ck_assert_uint_eq(a.op, 2);
	/* Gratuitous requests and probes are not answered. */
	n = arp_frame(f, 1, bcast, req, ip2, zero6, ip2, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 1);
	ck_assert_uint_eq(fwd_dat_answer(dt, t, &a, T0 + 1, out), 0);
	memset(ip1, 0, 4);
	n = arp_frame(f, 1, bcast, req, ip1, zero6, ip2, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, n, &a), 1);
	ck_assert_uint_eq(fwd_dat_answer(dt, t, &a, T0 + 1, out), 0);
	ck_assert_uint_eq(dt->c.answered, 1);
	/* Off: nothing learnt, nothing answered. */
	dt->enabled = 0;
	ck_assert_int_eq(serves(2, T0 + 1), 0);
}
END_TEST

/* A MAC the sender does not claim is never stored or served. */
START_TEST(test_refuse_unclaimed)
{
	two_origs();
	/* Originator 2 states a mapping for originator 1's client. */
	ck_assert_int_eq(learn(2, 10, T0), -1);
	ck_assert_uint_eq(dt->c.refused_unclaimed, 1);
	ck_assert_uint_eq(fwd_dat_count(dt), 0);
	ck_assert_int_eq(serves(10, T0), 0);
	/* A MAC nobody claims. */
	ck_assert_int_eq(learn(2, 99, T0), -1);
	ck_assert_uint_eq(dt->c.refused_unclaimed, 2);
	/* The claim without a route: refused too. */
	claims(3, 30, 1, T0);
	ck_assert_int_eq(learn(3, 30, T0), -1);
	/* The owner: stored and served. */
	ck_assert_int_eq(learn(1, 10, T0), 1);
	ck_assert_int_eq(serves(10, T0), 1);
}
END_TEST

/* A member stating an address it does not own with its own MAC. */
START_TEST(test_conflict)
{
	two_origs();
	ck_assert_int_eq(learn(1, 10, T0), 1);
	/* 2 says 10.0.0.10 is at its client 20. */
	ck_assert_int_eq(learn_ip(2, 20, 10, T0 + 5), -1);
	ck_assert_uint_eq(dt->c.conflicts, 1);
	ck_assert_int_eq(serves(10, T0 + 6), 0);
	/* Nor after the owner speaks again, until the timeout passes. */
	ck_assert_int_eq(learn(1, 10, T0 + 10), -1);
	ck_assert_int_eq(serves(10, T0 + 11), 0);
	ck_assert_int_eq(serves(10, T0 + 10 + FWD_DAT_TIMEOUT_MS - 1), 0);
	ck_assert_int_eq(learn(1, 10, T0 + 10 + FWD_DAT_TIMEOUT_MS), 1);
	ck_assert_int_eq(serves(10, T0 + 11 + FWD_DAT_TIMEOUT_MS), 1);
}
END_TEST

START_TEST(test_timeout)
{
	route(1, T0);
	claims(1, 10, 2, T0);
	ck_assert_int_eq(learn(1, 10, T0), 1);
	ck_assert_int_eq(learn(1, 11, T0), 1);
	ck_assert_int_eq(serves(10, T0 + FWD_DAT_TIMEOUT_MS - 1), 1);
	/* Learning again refreshes. */
	ck_assert_int_eq(learn(1, 11, T0 + FWD_DAT_TIMEOUT_MS - 1), 1);
	ck_assert_int_eq(serves(10, T0 + FWD_DAT_TIMEOUT_MS), 0);
	ck_assert_uint_eq(dt->c.expired, 1);
	ck_assert_uint_eq(fwd_dat_count(dt), 1);
	/* The purge takes what nobody looks up. */
	ck_assert_uint_eq(fwd_dat_purge(dt, t, T0 + 2 * FWD_DAT_TIMEOUT_MS), 1);
	ck_assert_uint_eq(fwd_dat_count(dt), 0);
	/* A clock that went back is not trusted either. */
	ck_assert_int_eq(learn(1, 10, T0), 1);
	ck_assert_int_eq(serves(10, T0 - 1), 0);
}
END_TEST

/* The client roams to another originator, or its claim goes. */
START_TEST(test_claim_moved)
{
	route(1, T0);
	route(2, T0);
	claims(1, 10, 2, T0);
	ck_assert_int_eq(learn(1, 10, T0), 1);
	ck_assert_int_eq(learn(1, 11, T0), 1);
	/* Client 10 now claimed by 2: 1's mapping is not served. */
	claims(1, 11, 1, T0 + 1);
	claims(2, 10, 1, T0 + 1);
	ck_assert_int_eq(serves(10, T0 + 2), 0);
	ck_assert_uint_eq(dt->c.invalidated, 1);
	/* 2 tells it again: served, from 2. */
	ck_assert_int_eq(learn(2, 10, T0 + 3), 1);
	ck_assert_int_eq(serves(10, T0 + 4), 1);
	/* 1 withdraws client 11: dropped by the purge. */
	claims(1, 0, 0, T0 + 5);
	ck_assert_uint_eq(fwd_dat_purge(dt, t, T0 + 6), 1);
	ck_assert_int_eq(serves(11, T0 + 6), 0);
	/* 2's route goes: not served. */
	ck_assert_int_eq(fwd_route_del(t, (const uint8_t[]){ 0x02, 0x0a, 0,
	    0, 0, 2 }), 1);
	ck_assert_int_eq(serves(10, T0 + 7), 0);
	ck_assert_uint_eq(fwd_dat_count(dt), 0);
}
END_TEST

/* FWD_DAT_MAX entries at most; the least recently learnt goes first. */
#define B_ORIGS	20
#define B_EACH	55		/* B_ORIGS * B_EACH > FWD_DAT_MAX */

START_TEST(test_bound)
{
	unsigned o, i, c, over = B_ORIGS * B_EACH - FWD_DAT_MAX;

	for (o = 1; o <= B_ORIGS; o++) {
		route(o, T0);
		claims(o, o * 100, B_EACH, T0);
	}
	/* Client 100 learnt first, then refreshed when the cache is full:
	 * it stays, the next ones go. */
	for (o = 1; o <= B_ORIGS; o++)
		for (i = 0; i < B_EACH; i++) {
			if (fwd_dat_count(dt) == FWD_DAT_MAX &&
			    dt->c.evicted == 0)
				ck_assert_int_eq(learn(1, 100, T0 + 5000), 1);
			ck_assert_int_eq(learn(o, o * 100 + i,
			    T0 + o * 100 + i), 1);
		}
	ck_assert_uint_eq(fwd_dat_count(dt), FWD_DAT_MAX);
	ck_assert_uint_eq(dt->c.evicted, over);
	for (c = 0, o = 1; o <= B_ORIGS; o++)
		for (i = 0; i < B_EACH; i++, c++)
			ck_assert_int_eq(serves(o * 100 + i, T0 + 9000),
			    (c == 0 || c > over));
}
END_TEST

/* One originator cannot push the others' mappings out. */
START_TEST(test_per_orig)
{
	uint8_t mac[6], ip[4];
	unsigned i;

	two_origs();
	ck_assert_int_eq(learn(2, 20, T0), 1);
	/* Originator 1: FWD_DAT_MAX addresses for its one client. */
	for (i = 0; i < FWD_DAT_MAX; i++)
		ck_assert_int_eq(learn_ip(1, 10, 1000 + i, T0 + 1 + i), 1);
	ck_assert_uint_eq(fwd_dat_count(dt), FWD_DAT_PER_ORIG + 1);
	ck_assert_uint_eq(dt->c.evicted, FWD_DAT_MAX - FWD_DAT_PER_ORIG);
	ck_assert_int_eq(serves(20, T0 + 2000), 1);
	/* Its newest ones stay, its oldest went. */
	ip_of(1000 + FWD_DAT_MAX - 1, ip);
	ck_assert_int_eq(fwd_dat_lookup(dt, t, ip, 0, T0 + 2000, mac, NULL), 1);
	ip_of(1000, ip);
	ck_assert_int_eq(fwd_dat_lookup(dt, t, ip, 0, T0 + 2000, mac, NULL), 0);
}
END_TEST

/* Our clients' replies: flooded once per address and FWD_DAT_ANNOUNCE_MS. */
START_TEST(test_own_announce)
{
	uint8_t f[64], mac[6], ip[4], peer[6], pip[4];
	struct fwd_arp a;
	unsigned i;

	client_mac(1, mac);
	ip_of(1, ip);
	client_mac(2, peer);
	ip_of(2, pip);
	(void)arp_frame(f, 2, peer, mac, ip, peer, pip, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0), 1);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0 + 1), 0);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0 + FWD_DAT_ANNOUNCE_MS - 1), 0);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0 + FWD_DAT_ANNOUNCE_MS), 1);
	ck_assert_uint_eq(dt->c.announced, 2);
	/* A flooded request of the client announced it already. */
	ip_of(3, ip);
	(void)arp_frame(f, 1, bcast, mac, ip, zero6, pip, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0), 0);
	(void)arp_frame(f, 2, peer, mac, ip, peer, pip, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0 + 1), 0);
	/* Bounded: the oldest address is forgotten, announced again. */
	for (i = 0; i < FWD_DAT_OWN_MAX; i++) {
		ip_of(1000 + i, ip);
		(void)arp_frame(f, 2, peer, mac, ip, peer, pip, 0, 0);
		ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
		ck_assert_int_eq(fwd_dat_own(dt, &a, T0 + 10 + i), 1);
	}
	ip_of(3, ip);
	(void)arp_frame(f, 2, peer, mac, ip, peer, pip, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0 + 10 + i), 1);
	/* Off: nothing. */
	dt->enabled = 0;
	ip_of(4, ip);
	(void)arp_frame(f, 2, peer, mac, ip, peer, pip, 0, 0);
	ck_assert_int_eq(fwd_dat_arp_parse(f, 60, &a), 1);
	ck_assert_int_eq(fwd_dat_own(dt, &a, T0), 0);
}
END_TEST

/* ---- IPv6 neighbour discovery ------------------------------------------- */

/* fd99::x:y for n = x * 256 + y. */
static void
ip6_of(unsigned n, uint8_t ip[16])
{
	memset(ip, 0, 16);
	ip[0] = 0xfd;
	ip[1] = 0x99;
	ip[14] = (uint8_t)(n >> 8);
	ip[15] = (uint8_t)n;
}

/* The solicited-node group of ip, as IPv6 and Ethernet addresses. */
static void
snode(const uint8_t ip[16], uint8_t g[16], uint8_t eth[6])
{
	memset(g, 0, 16);
	g[0] = 0xff;
	g[1] = 0x02;
	g[11] = 1;
	g[12] = 0xff;
	memcpy(g + 13, ip + 13, 3);
	eth[0] = eth[1] = 0x33;
	memcpy(eth + 2, g + 12, 4);
}

/*
 * Originator o advertises (solicited, override, flags | those) client c
 * at fd99::n, in vid; what fwd_dat_nd_learn returns.
 */
static int
learn6(unsigned o, unsigned c, unsigned n, uint8_t flags, uint16_t vid,
    uint64_t now)
{
	uint8_t f[100], mac[6], ip[16], peer[16], orig[6];
	struct fwd_nd nd;
	size_t len;

	client_mac(c, mac);
	ip6_of(n, ip);
	ip6_of(1, peer);
	orig_addr(o, orig);
	len = t_nd(f, FWD_ND_NA, zero6 + 0, mac, ip, peer, ip,
	    (uint8_t)(0x60 | flags), mac, vid);
	f[0] = 0x02;			/* a unicast destination */
	ck_assert_int_eq(fwd_dat_nd_parse(f, len, &nd), 1);
	return fwd_dat_nd_learn(dt, t, &nd, orig, now);
}

/* 1 when the cache answers fd99::c with client c's MAC. */
static int
serves6(unsigned c, uint64_t now)
{
	uint8_t ip[16], mac[6], want[6];

	ip6_of(c, ip);
	if (!fwd_dat_lookup6(dt, t, ip, 0, now, mac, NULL))
		return 0;
	client_mac(c, want);
	ck_assert_mem_eq(mac, want, 6);
	return 1;
}

/* Our client 1 (fd99::1) solicits fd99::n, multicast, tagged tci. */
static size_t
ns_frame(uint8_t *f, unsigned n, uint16_t tci)
{
	uint8_t req[6], src[16], ip[16], g[16], eg[6];

	client_mac(1, req);
	ip6_of(1, src);
	ip6_of(n, ip);
	snode(ip, g, eg);
	return t_nd(f, FWD_ND_NS, eg, req, src, g, ip, 0, req, tci);
}

/* What fwd_dat_nd_parse says of f (len) after byte i is set to v. */
static int
nd_mut(const uint8_t *f, size_t len, size_t i, uint8_t v, int fix)
{
	uint8_t g[128];
	struct fwd_nd nd;

	memcpy(g, f, len);
	g[i] = v;
	if (fix)
		t_icmp6_fix(g);
	return fwd_dat_nd_parse(g, len, &nd);
}

START_TEST(test_nd_parse)
{
	uint8_t f[128], g[128], req[6], src[16], ip[16], grp[16], eg[6];
	struct fwd_nd nd;
	size_t n, m = 14 + 40;		/* the ICMPv6 message, untagged */

	n = ns_frame(f, 2, 0x2005);
	ck_assert_uint_eq(n, 18 + 40 + 32);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(nd.type, FWD_ND_NS);
	ck_assert_uint_eq(nd.vid, WIRE_VID_TAGGED | 5);
	ck_assert_int_eq(nd.tagged, 1);
	client_mac(1, req);
	ip6_of(1, src);
	ip6_of(2, ip);
	ck_assert_mem_eq(nd.lla, req, 6);
	ck_assert_mem_eq(nd.src, src, 16);
	ck_assert_mem_eq(nd.target, ip, 16);
	n = ns_frame(f, 2, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(nd.tagged, 0);
	/* Not ND at all: 0.  An ARP frame, UDP, ICMPv6 echo, IPv4. */
	ck_assert_int_eq(nd_mut(f, n, 12, 0x08, 0), 0);
	ck_assert_int_eq(nd_mut(f, n, 14 + 6, 17, 0), 0);
	ck_assert_int_eq(nd_mut(f, n, m, 128, 1), 0);
	ck_assert_int_eq(nd_mut(f, n, 14, 0x40, 0), 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, 14 + 40, &nd), 0);
	/* ND, but wrong: -1.  Hop limit, code, checksum. */
	ck_assert_int_eq(nd_mut(f, n, 14 + 7, 254, 0), -1);
	ck_assert_int_eq(nd_mut(f, n, 14 + 7, 1, 0), -1);
	ck_assert_int_eq(nd_mut(f, n, m + 1, 1, 1), -1);
	ck_assert_int_eq(nd_mut(f, n, m + 2, (uint8_t)(f[m + 2] ^ 1), 0), -1);
	ck_assert_int_eq(nd_mut(f, n, m + 20, (uint8_t)(f[m + 20] ^ 1), 0),
	    -1);
	/* Truncated, too long, a payload length that lies. */
	ck_assert_int_eq(fwd_dat_nd_parse(f, n - 1, &nd), -1);
	ck_assert_int_eq(fwd_dat_nd_parse(f, 14 + 40 + 23, &nd), -1);
	memcpy(g, f, n);
	g[n] = 0;
	ck_assert_int_eq(fwd_dat_nd_parse(g, n + 1, &nd), -1);
	ck_assert_int_eq(nd_mut(f, n, 14 + 5, 24, 1), -1);
	/* Options: length 0, past the end, an SLLA of 16 bytes, two. */
	ck_assert_int_eq(nd_mut(f, n, m + 25, 0, 1), -1);
	ck_assert_int_eq(nd_mut(f, n, m + 25, 2, 1), -1);
	memcpy(g, f, n);
	bs_put16(g + 14 + 4, 40);
	memset(g + n, 0, 8);
	g[n + 1] = 1;			/* an unknown option type 0: skipped */
	t_icmp6_fix(g);
	ck_assert_int_eq(fwd_dat_nd_parse(g, n + 8, &nd), 1);
	g[m + 25] = 2;
	g[n] = 1;			/* one SLLA of 16 bytes */
	t_icmp6_fix(g);
	ck_assert_int_eq(fwd_dat_nd_parse(g, n + 8, &nd), -1);
	g[m + 25] = 1;
	memcpy(g + n, f + m + 24, 8);	/* two SLLAs */
	t_icmp6_fix(g);
	ck_assert_int_eq(fwd_dat_nd_parse(g, n + 8, &nd), -1);
	/* A multicast target; a multicast source. */
	ck_assert_int_eq(nd_mut(f, n, m + 8, 0xff, 1), -1);
	ck_assert_int_eq(nd_mut(f, n, 14 + 8, 0xff, 1), -1);
	/* DAD: from ::, without an SLLA fine, with one not. */
	memset(src, 0, 16);
	snode(ip, grp, eg);
	n = t_nd(f, FWD_ND_NS, eg, req, src, grp, ip, 0, NULL, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_ptr_null(nd.lla);
	n = t_nd(f, FWD_ND_NS, eg, req, src, grp, ip, 0, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), -1);
	/* An NA: flags read; Solicited to a multicast group is wrong. */
	ip6_of(1, src);
	n = t_nd(f, FWD_ND_NA, req, req, ip, src, ip, 0xe0, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(nd.flags, 0xe0);
	n = t_nd(f, FWD_ND_NA, eg, req, ip, grp, ip, 0x60, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), -1);
	n = t_nd(f, FWD_ND_NA, eg, req, ip, grp, ip, 0x20, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
}
END_TEST

START_TEST(test_nd_answer)
{
	uint8_t f[128], out[FWD_DAT_REPLY_MAX], req[6], mac2[6], src[16];
	uint8_t ip[16], g[16], eg[6];
	struct fwd_nd nd, na;
	size_t n, r;
	const uint8_t *m;
	struct ipc_tt tt;

	/* Originator 1 claims client 2 untagged and in VLAN 7. */
	route(1, T0);
	memset(&tt, 0, sizeof(tt));
	orig_addr(1, tt.orig_addr);
	client_mac(2, tt.e[0].mac);
	client_mac(2, tt.e[1].mac);
	tt.e[1].vid = WIRE_VID_TAGGED | 7;
	tt.count = 2;
	ck_assert_uint_eq(fwd_client_set(t, &tt, T0), 2);
	ck_assert_int_eq(learn6(1, 2, 2, 0, 0, T0), 1);
	ck_assert_uint_eq(dt->c.nd_learnt, 1);
	client_mac(1, req);
	client_mac(2, mac2);
	ip6_of(1, src);
	ip6_of(2, ip);
	/* Tagged 7: no mapping in that VLAN, flooded. */
	n = ns_frame(f, 2, 0x0007);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 1, out), 0);
	ck_assert_uint_eq(dt->c.nd_flooded, 1);
	n = ns_frame(f, 2, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	r = fwd_dat_nd_answer(dt, t, &nd, T0 + 1, out);
	ck_assert_uint_eq(r, 14 + 40 + 32);
	ck_assert_uint_eq(dt->c.nd_answered, 1);
	/* Every byte. */
	ck_assert_mem_eq(out, req, 6);
	ck_assert_mem_eq(out + 6, mac2, 6);
	ck_assert_uint_eq(bs_get16(out + 12), 0x86dd);
	ck_assert_uint_eq(bs_get32(out + 14), 0x60000000);
	ck_assert_uint_eq(bs_get16(out + 18), 32);
	ck_assert_uint_eq(out[20], 58);
	ck_assert_uint_eq(out[21], 255);
	ck_assert_mem_eq(out + 22, ip, 16);
	ck_assert_mem_eq(out + 38, src, 16);
	m = out + 54;
	ck_assert_uint_eq(m[0], 136);
	ck_assert_uint_eq(m[1], 0);
	ck_assert_uint_eq(bs_get32(m + 4), 0x40000000);
	ck_assert_mem_eq(m + 8, ip, 16);
	ck_assert_uint_eq(m[24], 2);
	ck_assert_uint_eq(m[25], 1);
	ck_assert_mem_eq(m + 26, mac2, 6);
	/* Its checksum is right (recomputed independently: same). */
	memcpy(f, out, r);
	t_icmp6_fix(f);
	ck_assert_mem_eq(f, out, r);
	ck_assert_int_eq(fwd_dat_nd_parse(out, r, &na), 1);
	ck_assert_uint_eq(na.type, FWD_ND_NA);
	ck_assert_uint_eq(na.flags, FWD_ND_F_SOLICITED);
	ck_assert_mem_eq(na.lla, mac2, 6);
	/* A router's advertisement: the answer says Router. */
	ck_assert_int_eq(learn6(1, 2, 2, FWD_ND_F_ROUTER, 0, T0 + 2), 1);
	n = ns_frame(f, 2, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 3, out), r);
	ck_assert_uint_eq(out[54 + 4], FWD_ND_F_SOLICITED | FWD_ND_F_ROUTER);
	/* In VLAN 7 once learnt there: tagged answer. */
	ck_assert_int_eq(learn6(1, 2, 2, 0, 0x0007, T0 + 4), 1);
	n = ns_frame(f, 2, 0x0007);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	r = fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out);
	ck_assert_uint_eq(r, 18 + 40 + 32);
	ck_assert_uint_eq(bs_get16(out + 12), 0x8100);
	ck_assert_uint_eq(bs_get16(out + 14), 0x0007);
	ck_assert_int_eq(fwd_dat_nd_parse(out, r, &na), 1);
	ck_assert_uint_eq(na.vid, WIRE_VID_TAGGED | 7);
	ck_assert_uint_eq(dt->c.nd_answered, 3);
	/* Not answered, not counted as flooded: DAD (source ::), another
	 * group, an SLLA that is not the Ethernet source, none, a target
	 * that is the source. */
	snode(ip, g, eg);
	memset(src, 0, 16);
	n = t_nd(f, FWD_ND_NS, eg, req, src, g, ip, 0, NULL, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	ip6_of(1, src);
	g[15] ^= 1;
	n = t_nd(f, FWD_ND_NS, eg, req, src, g, ip, 0, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	g[15] ^= 1;
	eg[5] ^= 1;
	n = t_nd(f, FWD_ND_NS, eg, req, src, g, ip, 0, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	eg[5] ^= 1;
	n = t_nd(f, FWD_ND_NS, eg, req, src, g, ip, 0, mac2, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	n = t_nd(f, FWD_ND_NS, eg, req, src, g, ip, 0, NULL, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	n = t_nd(f, FWD_ND_NS, eg, req, ip, g, ip, 0, req, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	ck_assert_uint_eq(dt->c.nd_answered, 3);
	ck_assert_uint_eq(dt->c.nd_flooded, 1);
	/* An NA is no question. */
	n = ns_frame(f, 2, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	nd.type = FWD_ND_NA;
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	/* Off: nothing learnt, nothing answered. */
	dt->enabled = 0;
	nd.type = FWD_ND_NS;
	ck_assert_uint_eq(fwd_dat_nd_answer(dt, t, &nd, T0 + 5, out), 0);
	ck_assert_int_eq(learn6(1, 3, 3, 0, 0, T0 + 5), 0);
	ck_assert_int_eq(serves6(2, T0 + 5), 0);
}
END_TEST

/* Unclaimed MACs, conflicts, timeouts and moves, as for ARP. */
START_TEST(test_nd_refuse)
{
	uint8_t f[128], mac[6], ip[16], peer[16], orig[6], v4[4], out[6];
	struct fwd_nd nd;
	size_t n;

	two_origs();
	/* Originator 2 advertises originator 1's client; nobody's MAC. */
	ck_assert_int_eq(learn6(2, 10, 10, 0, 0, T0), -1);
	ck_assert_int_eq(learn6(2, 99, 99, 0, 0, T0), -1);
	ck_assert_uint_eq(dt->c.refused_unclaimed, 2);
	ck_assert_int_eq(serves6(10, T0), 0);
	ck_assert_uint_eq(fwd_dat_count(dt), 0);
	/* Without a target link-layer address: nothing to learn. */
	client_mac(10, mac);
	ip6_of(10, ip);
	ip6_of(1, peer);
	orig_addr(1, orig);
	n = t_nd(f, FWD_ND_NA, mac, mac, ip, peer, ip, 0x60, NULL, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_learn(dt, t, &nd, orig, T0), 0);
	/* An IPv4-mapped target cannot state an IPv4 mapping. */
	memset(ip, 0, 16);
	ip[10] = ip[11] = 0xff;
	ip_of(10, ip + 12);
	n = t_nd(f, FWD_ND_NA, mac, mac, ip, peer, ip, 0x60, mac, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_learn(dt, t, &nd, orig, T0), 0);
	ip_of(10, v4);
	ck_assert_int_eq(fwd_dat_lookup(dt, t, v4, 0, T0, out, NULL), 0);
	/* A solicitation teaches nothing. */
	n = ns_frame(f, 10, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_learn(dt, t, &nd, orig, T0), 0);
	/* The owner: served, IPv4 and IPv6 side by side. */
	ck_assert_int_eq(learn6(1, 10, 10, 0, 0, T0), 1);
	ck_assert_int_eq(learn(1, 10, T0), 1);
	ck_assert_int_eq(serves6(10, T0 + 1), 1);
	ck_assert_int_eq(serves(10, T0 + 1), 1);
	ck_assert_uint_eq(fwd_dat_count(dt), 2);
	/* 2 says fd99::10 is at its client 20: neither is served. */
	ck_assert_int_eq(learn6(2, 20, 10, 0, 0, T0 + 2), -1);
	ck_assert_uint_eq(dt->c.conflicts, 1);
	ck_assert_int_eq(serves6(10, T0 + 3), 0);
	ck_assert_int_eq(serves(10, T0 + 3), 1);
	/* Timeout. */
	ck_assert_int_eq(learn6(2, 20, 20, 0, 0, T0 + 3), 1);
	ck_assert_int_eq(serves6(20, T0 + 3 + FWD_DAT_TIMEOUT_MS - 1), 1);
	ck_assert_int_eq(serves6(20, T0 + 3 + FWD_DAT_TIMEOUT_MS), 0);
	/* The client moves to originator 2: 1's mapping is dropped. */
	ck_assert_int_eq(learn6(1, 10, 11, 0, 0, T0 + 4), 1);
	claims(1, 0, 0, T0 + 5);
	claims(2, 10, 1, T0 + 5);
	ck_assert_int_eq(serves6(11, T0 + 6), 0);
	ck_assert_uint_ge(dt->c.invalidated, 1);
}
END_TEST

/* Our clients' unicast advertisements: flooded once per address. */
START_TEST(test_nd_own)
{
	uint8_t f[128], mac[6], peer[6], ip[16], pip[16], g[16], eg[6];
	struct fwd_nd nd;
	size_t n;

	client_mac(1, mac);
	client_mac(2, peer);
	ip6_of(1, ip);
	ip6_of(2, pip);
	n = t_nd(f, FWD_ND_NA, peer, mac, ip, pip, ip, 0x60, mac, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_own(dt, &nd, T0), 1);
	ck_assert_int_eq(fwd_dat_nd_own(dt, &nd, T0 + 1), 0);
	ck_assert_int_eq(fwd_dat_nd_own(dt, &nd, T0 + FWD_DAT_ANNOUNCE_MS),
	    1);
	ck_assert_uint_eq(dt->c.nd_announced, 2);
	/* Multicast (flooded anyway), without a TLLA, or a solicitation. */
	snode(ip, g, eg);
	ip6_of(3, ip);
	n = t_nd(f, FWD_ND_NA, eg, mac, ip, g, ip, 0x20, mac, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_own(dt, &nd, T0), 0);
	n = t_nd(f, FWD_ND_NA, peer, mac, ip, pip, ip, 0x60, NULL, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_own(dt, &nd, T0), 0);
	n = ns_frame(f, 2, 0);
	ck_assert_int_eq(fwd_dat_nd_parse(f, n, &nd), 1);
	ck_assert_int_eq(fwd_dat_nd_own(dt, &nd, T0), 0);
	ck_assert_uint_eq(dt->c.nd_announced, 2);
}
END_TEST

static Suite *
fwd_dat_suite(void)
{
	Suite *s = suite_create("fwd_dat");
	TCase *tc = tcase_create("cache");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_answer);
	tcase_add_test(tc, test_refuse_unclaimed);
	tcase_add_test(tc, test_conflict);
	tcase_add_test(tc, test_timeout);
	tcase_add_test(tc, test_claim_moved);
	tcase_add_test(tc, test_bound);
	tcase_add_test(tc, test_own_announce);
	tcase_add_test(tc, test_per_orig);
	tcase_add_test(tc, test_nd_parse);
	tcase_add_test(tc, test_nd_answer);
	tcase_add_test(tc, test_nd_refuse);
	tcase_add_test(tc, test_nd_own);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(fwd_dat_suite());
}
