/*
 * check_fwd_data.c — unit tests of the forwarder's tables (src/forwarder/fwd_tables.c)
 * and data plane (src/forwarder/fwd_data.c).
 *
 * No network: the data plane's I/O callbacks record what would have been
 * sent on a mesh interface or written to the TAP, and the list of up
 * interfaces is a test array.  Node n has a fake public key derived from n,
 * its mesh address is bs_mesh_addr(pk) as in the daemon, and its interface
 * MAC is 0a:cc:00:00:00:n.  Node 0 is us.  Time is passed in explicitly.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "forwarder/fwd_data.h"
#include "forwarder/fwd_tables.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"
#include "lib/t_ipc.h"

#define US		0
#define IF1		11
#define IF2		12
#define IF3		13
#define MTU		1630
#define T0		1000000ull
#define MAX_SENDS	64
#define MAX_TAPS	16
#define FRAME_MAX	2048

/* ---- nodes ------------------------------------------------------------------ */

struct node {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
};

static struct node nodes[FWD_ROUTE_MAX + 8];

static const struct node *
node(unsigned id)
{
	struct node *n;

	ck_assert_uint_lt(id, sizeof(nodes) / sizeof(nodes[0]));
	n = &nodes[id];
	memset(n->pk, 0x5a, BS_PK_LEN);
	n->pk[0] = (uint8_t)id;
	n->pk[1] = (uint8_t)(id >> 8);
	bs_mesh_addr(n->addr, n->pk);
	memcpy(n->mac, (const uint8_t[]){ 0x0a, 0xcc, 0, 0, 0, 0 },
	    BS_ADDR_LEN);
	n->mac[4] = (uint8_t)(id >> 8);
	n->mac[5] = (uint8_t)id;
	return n;
}

/* A client MAC (of a host behind some node's batsec0). */
static void
client_mac(unsigned id, uint8_t mac[BS_ADDR_LEN])
{
	memcpy(mac, (const uint8_t[]){ 0x52, 0x54, 0, 0, 0, 0 }, BS_ADDR_LEN);
	mac[3] = (uint8_t)(id >> 16);
	mac[4] = (uint8_t)(id >> 8);
	mac[5] = (uint8_t)id;
}

/* ---- captured I/O -------------------------------------------------------- */

struct sent {
	uint32_t ifindex;
	uint8_t dst[BS_ADDR_LEN];
	uint8_t buf[FRAME_MAX];
	size_t len;
};

struct written {
	uint8_t buf[FRAME_MAX];
	size_t len;
};

static struct sent sends[MAX_SENDS];
static size_t n_sends;
static struct written taps[MAX_TAPS];
static size_t n_taps;
static struct fwd_data_if up[FWD_DATA_IFC_MAX];
static size_t n_up;
static uint32_t fail_ifindex;	/* send on it fails */
static int tap_fails;

static struct fwd_tables *tab;
static struct fwd_data dp;

static int
cap_send(void *arg, uint32_t ifindex, const uint8_t dst[static BS_ADDR_LEN],
    const void *payload, size_t len)
{
	struct sent *s;

	ck_assert_ptr_eq(arg, &dp);
	if (ifindex == fail_ifindex)
		return -1;
	ck_assert_uint_lt(n_sends, MAX_SENDS);
	ck_assert_uint_le(len, FRAME_MAX);
	s = &sends[n_sends++];
	s->ifindex = ifindex;
	memcpy(s->dst, dst, BS_ADDR_LEN);
	memcpy(s->buf, payload, len);
	s->len = len;
	return 0;
}

/* Batch sends (when enabled): each call takes at most batch_accept. */
static size_t batch_calls;
static size_t batch_accept;

static size_t
cap_batch(void *arg, uint32_t ifindex, const struct fwd_data_tx *tx, size_t n)
{
	size_t i, k = n < batch_accept ? n : batch_accept;

	ck_assert_ptr_eq(arg, &dp);
	ck_assert_uint_ge(n, 1);
	ck_assert_uint_le(n, FWD_TXQ_MAX);
	batch_calls++;
	if (ifindex == fail_ifindex)
		return 0;
	for (i = 0; i < k; i++)
		ck_assert_int_eq(cap_send(arg, ifindex, tx[i].dst, tx[i].frame,
		    tx[i].len), 0);
	return k;
}

static int
cap_tap(void *arg, const void *frame, size_t len)
{
	ck_assert_ptr_eq(arg, &dp);
	if (tap_fails)
		return -1;
	ck_assert_uint_lt(n_taps, MAX_TAPS);
	ck_assert_uint_le(len, FRAME_MAX);
	memcpy(taps[n_taps].buf, frame, len);
	taps[n_taps].len = len;
	n_taps++;
	return 0;
}

static size_t
cap_ifaces(void *arg, struct fwd_data_if *out, size_t max)
{
	size_t i;

	ck_assert_ptr_eq(arg, &dp);
	for (i = 0; i < n_up && i < max; i++)
		out[i] = up[i];
	return i;
}

/* Interfaces IF1, IF2, ... up (n of them), each with MTU. */
static void
set_up(size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		up[i].ifindex = IF1 + (uint32_t)i;
		up[i].mtu = MTU;
	}
	n_up = n;
}

static void
setup(void)
{
	struct fwd_data_ops ops = {
		.send = cap_send,
		.tap_write = cap_tap,
		.ifaces = cap_ifaces,
		.arg = &dp,
	};

	ck_assert_int_eq(bs_crypto_init(), 0);
	tab = fwd_tables_new();
	ck_assert_ptr_nonnull(tab);
	fwd_data_init(&dp, tab, node(US)->addr, &ops);
	dp.bcast_seqno = 1000;
	n_sends = n_taps = 0;
	fail_ifindex = 0;
	tap_fails = 0;
	set_up(2);
}

/* As setup, with frames to the mesh queued and sent by cap_batch. */
static void
setup_batch(void)
{
	setup();
	dp.ops.send_batch = cap_batch;
	batch_calls = 0;
	batch_accept = FWD_TXQ_MAX;
}

static void
teardown(void)
{
	fwd_data_fini(&dp);
	fwd_tables_free(tab);
	tab = NULL;
}

/* ---- table helpers -------------------------------------------------------- */

static enum fwd_neigh_rc
neigh(unsigned id, uint32_t ifindex, int state_up, uint8_t tq, uint64_t now)
{
	const struct node *n = node(id);
	struct ipc_neigh m = t_ipc_neigh((struct t_neigh){ .pk = n->pk,
	    .addr = n->addr, .mac = n->mac, .ifindex = ifindex,
	    .state = state_up ? IPC_NEIGH_UP : IPC_NEIGH_DOWN,
	    .tq = state_up ? tq : 0, .rx_count = state_up ? 64 : 0 });

	return fwd_neigh_update(tab, &m, now);
}

static int
route_epoch(unsigned dst, unsigned via, uint32_t ifindex, uint32_t epoch,
    uint64_t now)
{
	struct ipc_route r = t_ipc_route((struct t_route){
	    .orig_pk = node(dst)->pk, .orig_addr = node(dst)->addr,
	    .nexthop = node(via)->addr, .ifindex = ifindex, .tq = 200,
	    .hops = dst == via ? 1 : 2, .epoch = epoch });

	return fwd_route_add(tab, &r, now);
}

static int
route(unsigned dst, unsigned via, uint32_t ifindex, uint64_t now)
{
	return route_epoch(dst, via, ifindex, 1, now);
}

/* IPC_TT for orig: clients first..first+count-1, untagged. */
static size_t
tt(unsigned orig, unsigned first, unsigned count, uint64_t now)
{
	static struct ipc_tt m;
	unsigned i;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, node(orig)->addr, BS_ADDR_LEN);
	m.count = (uint8_t)count;
	for (i = 0; i < count; i++)
		client_mac(first + i, m.e[i].mac);
	return fwd_client_set(tab, &m, now);
}

static int
gw(unsigned orig, int announce, uint32_t down, uint64_t now)
{
	struct ipc_gw m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, node(orig)->addr, BS_ADDR_LEN);
	m.op = announce ? IPC_GW_ANNOUNCE : IPC_GW_WITHDRAW;
	m.down = announce ? down : 0;
	m.up = announce ? down / 10 + 1 : 0;
	return fwd_gw_update(tab, &m, now);
}

/* ---- frame helpers ----------------------------------------------------------- */

static const uint8_t bcast_mac[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

/* An Ethernet frame dst, src, IPv4 ethertype, then len-14 bytes of fill. */
static size_t
eth(uint8_t *buf, const uint8_t *dst, const uint8_t *src, size_t len)
{
	return t_eth(buf, dst, src, 0, len);
}

/* The same with an 802.1Q tag carrying VLAN id. */
static size_t
eth_vlan(uint8_t *buf, const uint8_t *dst, const uint8_t *src, uint16_t id,
    size_t len)
{
	return t_eth(buf, dst, src, id, len);
}

static size_t
mk_unicast(uint8_t *buf, uint8_t ttl, const uint8_t *dst, const uint8_t *src,
    const uint8_t *inner, size_t inner_len)
{
	return t_unicast(buf, FRAME_MAX, (struct wire_unicast){ .ttl = ttl,
	    .dst = dst, .src = src, .inner = inner, .inner_len = inner_len });
}

static size_t
mk_bcast(uint8_t *buf, uint8_t ttl, uint32_t seqno, const uint8_t *orig,
    const uint8_t *inner, size_t inner_len)
{
	return t_bcast(buf, FRAME_MAX, (struct wire_bcast){ .ttl = ttl,
	    .seqno = seqno, .orig = orig, .inner = inner,
	    .inner_len = inner_len });
}

/* Mesh rx on ifindex from node id's MAC to dst. */
static void
rx_from(unsigned id, uint32_t ifindex, const uint8_t *dst, const uint8_t *p,
    size_t len, uint64_t now)
{
	fwd_data_mesh_rx(&dp, ifindex, node(id)->mac, dst, p, len, now);
}

static const struct fwd_dcount *
ifc(uint32_t ifindex)
{
	const struct fwd_dcount *c = fwd_data_iface_counters(&dp, ifindex);

	ck_assert_ptr_nonnull(c);
	return c;
}

static const struct fwd_dcount *
ncount(unsigned id, uint32_t ifindex)
{
	const struct fwd_neigh *n = fwd_neigh_find(tab, node(id)->addr,
	    ifindex);

	ck_assert_ptr_nonnull(n);
	return &n->c;
}

/* ==== tables: neighbours ===================================================== */

START_TEST(test_neigh_lifecycle)
{
	struct fwd_neigh *n;

	ck_assert_int_eq(neigh(1, IF1, 1, 100, T0), FWD_NEIGH_NEW);
	ck_assert_int_eq(neigh(1, IF1, 1, 100, T0 + 5), FWD_NEIGH_SAME);
	ck_assert_int_eq(neigh(1, IF1, 1, 120, T0 + 9), FWD_NEIGH_CHANGED);
	n = fwd_neigh_find(tab, node(1)->addr, IF1);
	ck_assert_ptr_nonnull(n);
	ck_assert_uint_eq(n->tq, 120);
	ck_assert_uint_eq(n->rx_count, 64);
	ck_assert_uint_eq(n->up_ms, T0);
	ck_assert_uint_eq(n->last_ms, T0 + 9);
	ck_assert_mem_eq(n->pk, node(1)->pk, BS_PK_LEN);
	ck_assert_mem_eq(n->mac, node(1)->mac, BS_ADDR_LEN);
	ck_assert_ptr_eq(fwd_neigh_find_mac(tab, node(1)->mac, IF1), n);
	ck_assert_ptr_eq(fwd_neigh_find_pk(tab, node(1)->pk, IF1), n);
	/* Same neighbour, other interface: a separate entry. */
	ck_assert_ptr_null(fwd_neigh_find(tab, node(1)->addr, IF2));
	ck_assert_ptr_null(fwd_neigh_find_mac(tab, node(1)->mac, IF2));
	ck_assert_ptr_null(fwd_neigh_find_pk(tab, node(2)->pk, IF1));
	ck_assert_int_eq(neigh(1, IF2, 1, 50, T0), FWD_NEIGH_NEW);
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), 2);
	ck_assert_uint_eq(fwd_neigh_count(tab, IF1), 1);
	ck_assert_int_eq(neigh(1, IF1, 0, 0, T0 + 10), FWD_NEIGH_GONE);
	ck_assert_ptr_null(fwd_neigh_find(tab, node(1)->addr, IF1));
	ck_assert_ptr_null(fwd_neigh_find_mac(tab, node(1)->mac, IF1));
	ck_assert_int_eq(neigh(1, IF1, 0, 0, T0 + 11), FWD_NEIGH_UNKNOWN);
	ck_assert_ptr_nonnull(fwd_neigh_find(tab, node(1)->addr, IF2));
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), 1);
}
END_TEST

/* A new interface MAC is indexed; the old one no longer finds it. */
START_TEST(test_neigh_mac_change)
{
	struct ipc_neigh m;
	uint8_t newmac[BS_ADDR_LEN] = { 0x0a, 0xdd, 1, 2, 3, 4 };

	ck_assert_int_eq(neigh(1, IF1, 1, 100, T0), FWD_NEIGH_NEW);
	memset(&m, 0, sizeof(m));
	memcpy(m.pk, node(1)->pk, BS_PK_LEN);
	memcpy(m.addr, node(1)->addr, BS_ADDR_LEN);
	memcpy(m.mac, newmac, BS_ADDR_LEN);
	m.ifindex = IF1;
	m.state = IPC_NEIGH_UP;
	m.tq = 100;
	m.rx_count = 64;
	ck_assert_int_eq(fwd_neigh_update(tab, &m, T0 + 1), FWD_NEIGH_CHANGED);
	ck_assert_ptr_null(fwd_neigh_find_mac(tab, node(1)->mac, IF1));
	ck_assert_ptr_eq(fwd_neigh_find_mac(tab, newmac, IF1),
	    fwd_neigh_find(tab, node(1)->addr, IF1));
}
END_TEST

/* Link keys: kept across updates, wiped when it goes or its key changes. */
START_TEST(test_neigh_link_key)
{
	static const uint8_t zero[BS_LINKKEY_LEN];
	struct fwd_neigh *n;
	struct ipc_neigh m;

	neigh(1, IF1, 1, 100, T0);
	n = fwd_neigh_find(tab, node(1)->addr, IF1);
	ck_assert_int_eq(n->has_key, 0);
	memset(n->link_key, 0x77, BS_LINKKEY_LEN);
	memset(n->key_id, 0x66, BS_KEYID_LEN);
	n->has_key = 1;
	ck_assert_int_eq(neigh(1, IF1, 1, 90, T0 + 1), FWD_NEIGH_CHANGED);
	n = fwd_neigh_find(tab, node(1)->addr, IF1);
	ck_assert_int_eq(n->has_key, 1);
	ck_assert_uint_eq(n->link_key[31], 0x77);
	/* Down: the slot is wiped before reuse. */
	neigh(1, IF1, 0, 0, T0 + 2);
	ck_assert_int_eq(neigh(1, IF1, 1, 90, T0 + 3), FWD_NEIGH_NEW);
	n = fwd_neigh_find(tab, node(1)->addr, IF1);
	ck_assert_int_eq(n->has_key, 0);
	ck_assert_mem_eq(n->link_key, zero, BS_LINKKEY_LEN);
	/* Another key claiming the address: replaced, key gone. */
	n->has_key = 1;
	memset(n->link_key, 0x77, BS_LINKKEY_LEN);
	memset(&m, 0, sizeof(m));
	memcpy(m.pk, node(2)->pk, BS_PK_LEN);
	memcpy(m.addr, node(1)->addr, BS_ADDR_LEN);
	memcpy(m.mac, node(1)->mac, BS_ADDR_LEN);
	m.ifindex = IF1;
	m.state = IPC_NEIGH_UP;
	ck_assert_int_eq(fwd_neigh_update(tab, &m, T0 + 4), FWD_NEIGH_NEW);
	n = fwd_neigh_find(tab, node(1)->addr, IF1);
	ck_assert_mem_eq(n->pk, node(2)->pk, BS_PK_LEN);
	ck_assert_int_eq(n->has_key, 0);
	ck_assert_mem_eq(n->link_key, zero, BS_LINKKEY_LEN);
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), 1);
}
END_TEST

START_TEST(test_neigh_iterate_flush)
{
	struct fwd_neigh *n;
	size_t cur = 0, seen = 0;
	unsigned id;

	for (id = 1; id <= 6; id++)
		neigh(id, id % 2 ? IF1 : IF2, 1, 100, T0);
	while ((n = fwd_neigh_next(tab, IF1, &cur)) != NULL) {
		ck_assert_uint_eq(n->ifindex, IF1);
		seen++;
	}
	ck_assert_uint_eq(seen, 3);
	ck_assert_ptr_null(fwd_neigh_next(tab, IF1, &cur));
	cur = 0;
	seen = 0;
	while (fwd_neigh_next(tab, 0, &cur) != NULL)
		seen++;
	ck_assert_uint_eq(seen, 6);
	ck_assert_uint_eq(fwd_neigh_flush_iface(tab, IF2), 3);
	ck_assert_uint_eq(fwd_neigh_count(tab, IF2), 0);
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), 3);
	ck_assert_ptr_null(fwd_neigh_find(tab, node(2)->addr, IF2));
	ck_assert_ptr_nonnull(fwd_neigh_find(tab, node(1)->addr, IF1));
}
END_TEST

START_TEST(test_neigh_cap)
{
	unsigned id;

	for (id = 1; id <= FWD_NEIGH_MAX; id++)
		ck_assert_int_eq(neigh(id, IF1, 1, 10, T0), FWD_NEIGH_NEW);
	ck_assert_int_eq(neigh(FWD_NEIGH_MAX + 1, IF1, 1, 10, T0),
	    FWD_NEIGH_FULL);
	ck_assert_uint_eq(fwd_tables_counters(tab)->neigh_full, 1);
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), FWD_NEIGH_MAX);
	/* Every one is still found (hash chains intact). */
	for (id = 1; id <= FWD_NEIGH_MAX; id++)
		ck_assert_ptr_nonnull(fwd_neigh_find_mac(tab, node(id)->mac,
		    IF1));
	/* A freed slot is reused. */
	ck_assert_int_eq(neigh(7, IF1, 0, 0, T0), FWD_NEIGH_GONE);
	ck_assert_int_eq(neigh(FWD_NEIGH_MAX + 1, IF1, 1, 10, T0),
	    FWD_NEIGH_NEW);
	ck_assert_ptr_null(fwd_neigh_find(tab, node(7)->addr, IF1));
	/* After a reset the whole table is free again, and empty. */
	fwd_tables_parser_reset(tab);
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), 0);
	ck_assert_ptr_null(fwd_neigh_find(tab, node(1)->addr, IF1));
	for (id = FWD_NEIGH_MAX; id >= 1; id--)
		ck_assert_int_eq(neigh(id + 10, IF2, 1, 20, T0),
		    FWD_NEIGH_NEW);
	ck_assert_int_eq(neigh(1, IF2, 1, 10, T0), FWD_NEIGH_FULL);
	for (id = FWD_NEIGH_MAX; id >= 1; id--)
		ck_assert_ptr_nonnull(fwd_neigh_find_mac(tab,
		    node(id + 10)->mac, IF2));
	ck_assert_ptr_null(fwd_neigh_find_mac(tab, node(5)->mac, IF1));
}
END_TEST

/* ==== tables: routes ========================================================= */

START_TEST(test_route_add_refresh_del)
{
	const struct fwd_route *r;

	neigh(1, IF1, 1, 100, T0);
	neigh(2, IF2, 1, 100, T0);
	ck_assert_ptr_null(fwd_route_find(tab, node(5)->addr));
	ck_assert_int_eq(route(5, 1, IF1, T0), 0);
	r = fwd_route_find(tab, node(5)->addr);
	ck_assert_ptr_nonnull(r);
	ck_assert_mem_eq(r->nexthop, node(1)->addr, BS_ADDR_LEN);
	ck_assert_mem_eq(r->orig_pk, node(5)->pk, BS_PK_LEN);
	ck_assert_uint_eq(r->ifindex, IF1);
	ck_assert_uint_eq(r->hops, 2);
	ck_assert_uint_eq(r->tq, 200);
	/* Changed next hop: same entry, new fields, added_ms kept. */
	ck_assert_int_eq(route(5, 2, IF2, T0 + 500), 0);
	r = fwd_route_find(tab, node(5)->addr);
	ck_assert_mem_eq(r->nexthop, node(2)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(r->ifindex, IF2);
	ck_assert_uint_eq(r->added_ms, T0);
	ck_assert_uint_eq(r->refresh_ms, T0 + 500);
	ck_assert_uint_eq(fwd_route_count(tab), 1);
	ck_assert_int_eq(fwd_route_del(tab, node(5)->addr), 1);
	ck_assert_int_eq(fwd_route_del(tab, node(5)->addr), 0);
	ck_assert_ptr_null(fwd_route_find(tab, node(5)->addr));
	ck_assert_uint_eq(fwd_route_count(tab), 0);
}
END_TEST

START_TEST(test_route_expiry)
{
	neigh(1, IF1, 1, 100, T0);
	route(5, 1, IF1, T0);
	route(6, 1, IF1, T0);
	route(6, 1, IF1, T0 + 30000);		/* refreshed */
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + FWD_ROUTE_EXPIRE_MS - 1),
	    0);
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + FWD_ROUTE_EXPIRE_MS), 1);
	ck_assert_ptr_null(fwd_route_find(tab, node(5)->addr));
	ck_assert_ptr_nonnull(fwd_route_find(tab, node(6)->addr));
	ck_assert_uint_eq(fwd_tables_counters(tab)->route_expired, 1);
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + 30000 +
	    FWD_ROUTE_EXPIRE_MS), 1);
	ck_assert_uint_eq(fwd_route_count(tab), 0);
	/* A clock that went backwards expires nothing. */
	route(7, 1, IF1, T0);
	ck_assert_uint_eq(fwd_tables_purge(tab, 5), 0);
}
END_TEST

START_TEST(test_route_cap_iterate)
{
	const struct fwd_route *r;
	size_t cur = 0, seen = 0;
	unsigned id;

	neigh(1, IF1, 1, 100, T0);
	for (id = 2; id < FWD_ROUTE_MAX + 2; id++)
		ck_assert_int_eq(route(id, 1, IF1, T0), 0);
	ck_assert_int_eq(route(FWD_ROUTE_MAX + 2, 1, IF1, T0), -1);
	ck_assert_uint_eq(fwd_tables_counters(tab)->route_full, 1);
	/* A refresh of a known one still works when full. */
	ck_assert_int_eq(route(2, 1, IF1, T0 + 1), 0);
	while ((r = fwd_route_next(tab, &cur)) != NULL) {
		ck_assert_ptr_eq(fwd_route_find(tab, r->orig_addr), r);
		seen++;
	}
	ck_assert_uint_eq(seen, FWD_ROUTE_MAX);
	/* After a reset: none left, and room for as many again. */
	fwd_tables_parser_reset(tab);
	cur = 0;
	ck_assert_ptr_null(fwd_route_next(tab, &cur));
	ck_assert_ptr_null(fwd_route_find(tab, node(2)->addr));
	neigh(1, IF1, 1, 100, T0);
	for (id = 2; id < FWD_ROUTE_MAX + 2; id++)
		ck_assert_int_eq(route(id, 1, IF1, T0), 0);
	ck_assert_int_eq(route(FWD_ROUTE_MAX + 2, 1, IF1, T0), -1);
}
END_TEST

/* ==== tables: remote TT, gateways ============================================ */

START_TEST(test_client_set_replace)
{
	const struct fwd_client *c;
	uint8_t mac[BS_ADDR_LEN];

	ck_assert_uint_eq(tt(5, 100, 3, T0), 3);
	ck_assert_uint_eq(fwd_client_count(tab), 3);
	client_mac(101, mac);
	c = fwd_client_find(tab, mac, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert_mem_eq(c->orig_addr, node(5)->addr, BS_ADDR_LEN);
	ck_assert_ptr_null(fwd_client_find(tab, mac, WIRE_VID_TAGGED | 5));
	/* Replace: 101, 102 stay, 100 goes, 103 comes. */
	ck_assert_uint_eq(tt(5, 101, 3, T0 + 1), 3);
	client_mac(100, mac);
	ck_assert_ptr_null(fwd_client_find(tab, mac, 0));
	client_mac(103, mac);
	ck_assert_ptr_nonnull(fwd_client_find(tab, mac, 0));
	ck_assert_uint_eq(fwd_client_count(tab), 3);
	/* Roaming: 103 moves to node 6; node 5's other clients stay. */
	ck_assert_uint_eq(tt(6, 103, 1, T0 + 2), 1);
	c = fwd_client_find(tab, mac, 0);
	ck_assert_mem_eq(c->orig_addr, node(6)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(c->since_ms, T0 + 2);
	ck_assert_uint_eq(fwd_client_count(tab), 3);
	/* Count 0 clears node 5 (101, 102), not node 6's 103. */
	ck_assert_uint_eq(tt(5, 0, 0, T0 + 3), 0);
	ck_assert_uint_eq(fwd_client_count(tab), 1);
	ck_assert_ptr_nonnull(fwd_client_find(tab, mac, 0));
}
END_TEST

START_TEST(test_client_vid)
{
	static struct ipc_tt m;
	const struct fwd_client *c;
	size_t cur = 0, seen = 0;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, node(5)->addr, BS_ADDR_LEN);
	m.count = 2;
	client_mac(1, m.e[0].mac);
	client_mac(1, m.e[1].mac);
	m.e[1].vid = WIRE_VID_TAGGED | 7;
	ck_assert_uint_eq(fwd_client_set(tab, &m, T0), 2);
	ck_assert_ptr_nonnull(fwd_client_find(tab, m.e[0].mac, 0));
	ck_assert_ptr_nonnull(fwd_client_find(tab, m.e[0].mac,
	    WIRE_VID_TAGGED | 7));
	while ((c = fwd_client_next(tab, &cur)) != NULL)
		seen++;
	ck_assert_uint_eq(seen, 2);
}
END_TEST

START_TEST(test_client_cap)
{
	unsigned o, per = IPC_TT_MAX, full = FWD_RTT_MAX / IPC_TT_MAX;

	for (o = 0; o < full; o++)
		ck_assert_uint_eq(tt(10 + o, o * per, per, T0), per);
	ck_assert_uint_eq(fwd_client_count(tab), FWD_RTT_MAX);
	ck_assert_uint_eq(tt(10 + full, full * per, 5, T0), 0);
	ck_assert_uint_eq(fwd_tables_counters(tab)->client_full, 5);
	/* Room again after an originator clears its set. */
	tt(10, 0, 0, T0);
	ck_assert_uint_eq(tt(10 + full, full * per, 5, T0), 5);
}
END_TEST

START_TEST(test_gw)
{
	const struct fwd_gw *g;
	size_t cur = 0;
	unsigned id;

	ck_assert_int_eq(gw(5, 1, 1000, T0), 0);
	ck_assert_int_eq(gw(5, 1, 2000, T0 + 1), 0);
	g = fwd_gw_find(tab, node(5)->addr);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->down, 2000);
	ck_assert_uint_eq(g->up, 201);
	ck_assert_uint_eq(g->last_ms, T0 + 1);
	ck_assert_ptr_eq(fwd_gw_next(tab, &cur), g);
	ck_assert_ptr_null(fwd_gw_next(tab, &cur));
	ck_assert_int_eq(gw(5, 0, 0, T0 + 2), 0);
	ck_assert_ptr_null(fwd_gw_find(tab, node(5)->addr));
	ck_assert_int_eq(gw(5, 0, 0, T0 + 2), 0);	/* withdraw twice */
	for (id = 0; id < FWD_GW_MAX; id++)
		ck_assert_int_eq(gw(100 + id, 1, 10, T0), 0);
	ck_assert_int_eq(gw(100 + FWD_GW_MAX, 1, 10, T0), -1);
	ck_assert_uint_eq(fwd_tables_counters(tab)->gw_full, 1);
	ck_assert_uint_eq(fwd_gw_count(tab), FWD_GW_MAX);
}
END_TEST

/* A dead parser's state goes; the local TT (our own) stays. */
START_TEST(test_parser_reset)
{
	uint8_t mac[BS_ADDR_LEN];

	neigh(1, IF1, 1, 100, T0);
	route(5, 1, IF1, T0);
	tt(5, 1, 2, T0);
	gw(5, 1, 10, T0);
	client_mac(9, mac);
	fwd_local_learn(tab, mac, 0, T0);
	fwd_tables_parser_reset(tab);
	ck_assert_uint_eq(fwd_neigh_count(tab, 0), 0);
	ck_assert_uint_eq(fwd_route_count(tab), 0);
	ck_assert_uint_eq(fwd_client_count(tab), 0);
	ck_assert_uint_eq(fwd_gw_count(tab), 0);
	ck_assert_uint_eq(fwd_local_count(tab), 1);
	ck_assert_int_eq(neigh(1, IF1, 1, 100, T0), FWD_NEIGH_NEW);
}
END_TEST

/* ==== tables: local TT ======================================================== */

START_TEST(test_local_learn_age)
{
	const struct fwd_local *l;
	uint8_t own[BS_ADDR_LEN] = { 0x06, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t a[BS_ADDR_LEN], b[BS_ADDR_LEN];

	client_mac(1, a);
	client_mac(2, b);
	ck_assert_int_eq(fwd_local_set_own(tab, own, T0), 0);
	ck_assert_int_eq(fwd_local_learn(tab, own, 0, T0 + 1), 0);
	ck_assert_int_eq(fwd_local_learn(tab, a, 0, T0), 1);
	ck_assert_int_eq(fwd_local_learn(tab, a, 0, T0 + 100000), 0);
	ck_assert_int_eq(fwd_local_learn(tab, b, 0, T0), 1);
	ck_assert_uint_eq(fwd_local_count(tab), 3);
	l = fwd_local_find(tab, a, 0);
	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(l->first_ms, T0);
	ck_assert_uint_eq(l->last_ms, T0 + 100000);
	ck_assert_int_eq(l->permanent, 0);
	ck_assert_int_eq(fwd_local_find(tab, own, 0)->permanent, 1);
	/* b idle 300 s goes; a (refreshed) stays; own never goes. */
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + FWD_LTT_AGE_MS - 1), 0);
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + FWD_LTT_AGE_MS), 1);
	ck_assert_ptr_null(fwd_local_find(tab, b, 0));
	ck_assert_ptr_nonnull(fwd_local_find(tab, a, 0));
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + 100000 +
	    FWD_LTT_AGE_MS), 1);
	ck_assert_uint_eq(fwd_tables_purge(tab, T0 + 1000 * FWD_LTT_AGE_MS),
	    0);
	ck_assert_ptr_nonnull(fwd_local_find(tab, own, 0));
	ck_assert_uint_eq(fwd_tables_counters(tab)->local_aged, 2);
}
END_TEST

START_TEST(test_local_ignored)
{
	uint8_t mcast[BS_ADDR_LEN] = { 0x01, 0x00, 0x5e, 0, 0, 1 };
	uint8_t zero[BS_ADDR_LEN] = { 0 };
	uint8_t a[BS_ADDR_LEN];

	client_mac(1, a);
	ck_assert_int_eq(fwd_local_learn(tab, mcast, 0, T0), 0);
	ck_assert_int_eq(fwd_local_learn(tab, zero, 0, T0), 0);
	ck_assert_int_eq(fwd_local_learn(tab, a, 5, T0), 0);	/* no flag */
	ck_assert_int_eq(fwd_local_learn(tab, a, WIRE_VID_TAGGED, T0), 0);
	ck_assert_int_eq(fwd_local_learn(tab, a, WIRE_VID_TAGGED | 0xfff,
	    T0), 0);
	ck_assert_int_eq(fwd_local_learn(tab, a, WIRE_VID_TAGGED | 0x1005,
	    T0), 0);
	ck_assert_uint_eq(fwd_local_count(tab), 0);
	ck_assert_int_eq(fwd_local_set_own(tab, mcast, T0), -1);
	ck_assert_int_eq(fwd_local_learn(tab, a, WIRE_VID_TAGGED | 4094, T0),
	    1);
}
END_TEST

START_TEST(test_local_cap_tt)
{
	struct wire_tt_entry e[WIRE_TT_MAX + 4];
	uint8_t own[BS_ADDR_LEN] = { 0x06, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t own2[BS_ADDR_LEN] = { 0x06, 0x11, 0x22, 0x33, 0x44, 0x56 };
	uint8_t mac[BS_ADDR_LEN], buf[WIRE_TVLV_MAX];
	uint64_t v1, v2;
	size_t len = 0;
	unsigned i, n;

	ck_assert_uint_eq(fwd_local_tt(tab, e, WIRE_TT_MAX, &v1), 0);
	fwd_local_set_own(tab, own, T0);
	for (i = 0; i < FWD_LTT_MAX - 1; i++) {
		client_mac(i, mac);
		ck_assert_int_eq(fwd_local_learn(tab, mac, 0, T0), 1);
	}
	client_mac(999, mac);
	ck_assert_int_eq(fwd_local_learn(tab, mac, 0, T0), -1);
	ck_assert_uint_eq(fwd_tables_counters(tab)->local_full, 1);
	n = fwd_local_tt(tab, e, WIRE_TT_MAX + 4, &v2);
	ck_assert_uint_eq(n, WIRE_TT_MAX);
	ck_assert_uint_ne(v1, v2);
	ck_assert_uint_eq(fwd_local_tt(tab, e, 3, NULL), 3);
	/* What it fills is a valid TT TVLV value. */
	n = fwd_local_tt(tab, e, WIRE_TT_MAX, &v1);
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, n),
	    WIRE_OK);
	ck_assert_uint_eq(fwd_local_tt(tab, e, WIRE_TT_MAX, &v2), n);
	ck_assert_uint_eq(v1, v2);		/* unchanged set */
	/* A new own MAC replaces the old permanent entry. */
	ck_assert_int_eq(fwd_local_set_own(tab, own2, T0), 0);
	ck_assert_ptr_null(fwd_local_find(tab, own, 0));
	ck_assert_int_eq(fwd_local_find(tab, own2, 0)->permanent, 1);
	ck_assert_uint_eq(fwd_local_count(tab), FWD_LTT_MAX);
}
END_TEST

/* ==== tables: broadcast windows ============================================== */

struct bc_step {
	uint32_t seqno;
	uint64_t dt;		/* ms after T0 */
	int want;
};

static const struct {
	const char *name;
	struct bc_step s[8];
	size_t n;
} bc_cases[] = {
	{ "first, repeat", { { 10, 0, 1 }, { 10, 0, 0 } }, 2 },
	{ "ahead, then behind in window",
	    { { 10, 0, 1 }, { 12, 0, 1 }, { 11, 0, 1 }, { 11, 0, 0 },
	      { 10, 0, 0 }, { 12, 0, 0 } }, 6 },
	{ "edge of the window",
	    { { 100, 0, 1 }, { 37, 0, 1 }, { 36, 0, 0 }, { 37, 0, 0 } }, 4 },
	{ "jump ahead clears the window",
	    { { 100, 0, 1 }, { 300, 0, 1 }, { 100, 0, 0 }, { 299, 0, 1 } },
	    4 },
	{ "wrap around",
	    { { 0xfffffffe, 0, 1 }, { 0xffffffff, 0, 1 }, { 0, 0, 1 },
	      { 0xfffffffe, 0, 0 }, { 1, 0, 1 } }, 5 },
	{ "restart after quiet",
	    { { 5000, 0, 1 }, { 3, 1000, 0 },
	      { 3, FWD_BCAST_RESET_MS - 1, 0 }, { 3, FWD_BCAST_RESET_MS, 1 },
	      { 3, FWD_BCAST_RESET_MS, 0 }, { 4, FWD_BCAST_RESET_MS, 1 } },
	    6 },
};

START_TEST(test_bcast_window)
{
	size_t k;

	for (k = 0; k < bc_cases[_i].n; k++) {
		const struct bc_step *s = &bc_cases[_i].s[k];

		ck_assert_msg(fwd_bcast_check(tab, node(5)->addr, s->seqno,
		    T0 + s->dt) == s->want, "%s: step %zu", bc_cases[_i].name,
		    k);
	}
	/* Another originator has its own window. */
	ck_assert_int_eq(fwd_bcast_check(tab, node(6)->addr, 10, T0), 1);
}
END_TEST

/*
 * An originator that restarts draws its first BCAST seqno anew, as often
 * behind its old window as ahead: the higher epoch of its OGMs (ROUTE_ADD)
 * lets that through at once, for FWD_BCAST_GRACE_MS, instead of after
 * FWD_BCAST_RESET_MS of quiet.
 */
START_TEST(test_bcast_restart_epoch)
{
	const uint8_t *o5 = node(5)->addr, *o6 = node(6)->addr;
	uint64_t g = T0 + 2000 + FWD_BCAST_GRACE_MS;

	ck_assert_int_eq(route_epoch(5, 1, IF1, 100, T0), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 5000, T0), 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 3, T0 + 1000), 0);
	/* A refresh with the same epoch, or a lower one, changes nothing. */
	ck_assert_int_eq(route_epoch(5, 1, IF1, 100, T0 + 1500), 0);
	ck_assert_int_eq(route_epoch(5, 1, IF1, 99, T0 + 1600), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 3, T0 + 1700), 0);
	ck_assert_uint_eq(fwd_tables_counters(tab)->bcast_restarts, 0);
	/* It restarted: its new seqnos are taken at once. */
	ck_assert_int_eq(route_epoch(5, 1, IF1, 101, T0 + 2000), 0);
	ck_assert_uint_eq(fwd_tables_counters(tab)->bcast_restarts, 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 3, T0 + 2500), 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 3, T0 + 2600), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 4, T0 + 2600), 1);
	/*
	 * A copy of the old instance (a replay) may take the window over
	 * during the grace, but cannot lock the new one out.
	 */
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 5001, T0 + 3000), 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 5, T0 + 4000), 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 5, T0 + 4001), 0);
	/* After the grace, old copies are old again. */
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 6, g - 1), 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 5002, g), 1);
	ck_assert_int_eq(fwd_bcast_check(tab, o5, 7, g + 1), 0);
	/* A window opened before any route learns the epoch, no grace. */
	ck_assert_int_eq(fwd_bcast_check(tab, o6, 10, T0), 1);
	ck_assert_int_eq(route_epoch(6, 1, IF1, 50, T0 + 1), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, o6, 10u - 100u, T0 + 2), 0);
	ck_assert_uint_eq(fwd_tables_counters(tab)->bcast_restarts, 1);
	/* ... and a later restart gets one. */
	ck_assert_int_eq(route_epoch(6, 1, IF1, 51, T0 + 3), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, o6, 10u - 100u, T0 + 4), 1);
	ck_assert_uint_eq(fwd_tables_counters(tab)->bcast_restarts, 2);
}
END_TEST

START_TEST(test_bcast_evict)
{
	unsigned id;

	for (id = 0; id < FWD_BCAST_ORIG_MAX; id++)
		ck_assert_int_eq(fwd_bcast_check(tab, node(id + 1)->addr, 7,
		    T0), 1);
	for (id = 0; id < FWD_BCAST_ORIG_MAX; id++)
		ck_assert_int_eq(fwd_bcast_check(tab, node(id + 1)->addr, 7,
		    T0), 0);
	ck_assert_uint_eq(fwd_tables_counters(tab)->bcast_evicted, 0);
	/* One more: the oldest (node 1) is forgotten, the rest kept. */
	ck_assert_int_eq(fwd_bcast_check(tab, node(FWD_BCAST_ORIG_MAX +
	    1)->addr, 7, T0), 1);
	ck_assert_uint_eq(fwd_tables_counters(tab)->bcast_evicted, 1);
	ck_assert_int_eq(fwd_bcast_check(tab, node(2)->addr, 7, T0), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, node(FWD_BCAST_ORIG_MAX +
	    1)->addr, 7, T0), 0);
	ck_assert_int_eq(fwd_bcast_check(tab, node(1)->addr, 7, T0), 1);
}
END_TEST

START_TEST(test_dcount_names)
{
	struct fwd_dcount c;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.drop_ttl = 42;
	for (i = 0; i < FWD_DCOUNT_N; i++)
		ck_assert_ptr_nonnull(fwd_dcount_name(i));
	ck_assert_ptr_null(fwd_dcount_name(FWD_DCOUNT_N));
	ck_assert_str_eq(fwd_dcount_name(0), "rx_frames");
	for (i = 0; i < FWD_DCOUNT_N; i++)
		if (strcmp(fwd_dcount_name(i), "drop_ttl") == 0)
			ck_assert_uint_eq(fwd_dcount_get(&c, i), 42);
	ck_assert_uint_eq(fwd_dcount_get(&c, FWD_DCOUNT_N), 0);
}
END_TEST

/* ==== data plane: from the TAP ================================================= */

/* Us -- 1 (IF1) -- 5, with client 100 behind node 5. */
static void
topo_line(void)
{
	neigh(1, IF1, 1, 200, T0);
	route(5, 1, IF1, T0);
	tt(5, 100, 1, T0);
}

START_TEST(test_tap_unicast)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	struct wire_unicast u;
	size_t len;

	topo_line();
	client_mac(100, dst);
	client_mac(7, src);
	len = eth(frame, dst, src, 98);
	fwd_data_tap_rx(&dp, frame, len, T0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF1);
	ck_assert_mem_eq(sends[0].dst, node(1)->mac, BS_ADDR_LEN);
	ck_assert_int_eq(wire_unicast_parse(sends[0].buf, sends[0].len, &u),
	    WIRE_OK);
	ck_assert_uint_eq(u.ttl, FWD_DATA_TTL);
	ck_assert_mem_eq(u.dst, node(5)->addr, BS_ADDR_LEN);
	ck_assert_mem_eq(u.src, node(US)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(u.inner_len, len);
	ck_assert_mem_eq(u.inner, frame, len);
	ck_assert_uint_eq(sends[0].len, WIRE_UNICAST_HDR_LEN + len);
	ck_assert_uint_eq(dp.tap.rx_frames, 1);
	ck_assert_uint_eq(dp.tap.rx_bytes, len);
	ck_assert_uint_eq(ifc(IF1)->tx_frames, 1);
	ck_assert_uint_eq(ifc(IF1)->tx_bytes, sends[0].len);
	ck_assert_uint_eq(ncount(1, IF1)->tx_frames, 1);
	ck_assert_uint_eq(n_taps, 0);
	/* The source was learnt. */
	ck_assert_ptr_nonnull(fwd_local_find(tab, src, 0));
}
END_TEST

/* Broadcast, multicast and unknown unicast: BCAST on every up iface. */
static const uint8_t flood_dsts[][BS_ADDR_LEN] = {
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb },
	{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
	{ 0x52, 0x54, 0x00, 0x99, 0x99, 0x99 },	/* unknown client */
};

START_TEST(test_tap_flood)
{
	uint8_t frame[FRAME_MAX], src[BS_ADDR_LEN];
	struct wire_bcast b;
	size_t len, k;

	set_up(3);
	topo_line();
	client_mac(7, src);
	len = eth(frame, flood_dsts[_i], src, 60);
	fwd_data_tap_rx(&dp, frame, len, T0);
	fwd_data_tap_rx(&dp, frame, len, T0);
	ck_assert_uint_eq(n_sends, 6);
	for (k = 0; k < n_sends; k++) {
		ck_assert_uint_eq(sends[k].ifindex, IF1 + k % 3);
		ck_assert_mem_eq(sends[k].dst, bcast_mac, BS_ADDR_LEN);
		ck_assert_int_eq(wire_bcast_parse(sends[k].buf, sends[k].len,
		    &b), WIRE_OK);
		ck_assert_uint_eq(b.ttl, FWD_DATA_TTL);
		ck_assert_uint_eq(b.seqno, 1001 + k / 3);
		ck_assert_mem_eq(b.orig, node(US)->addr, BS_ADDR_LEN);
		ck_assert_uint_eq(b.inner_len, len);
		ck_assert_mem_eq(b.inner, frame, len);
	}
	ck_assert_uint_eq(ifc(IF3)->tx_frames, 2);
	ck_assert_uint_eq(dp.tap.rx_frames, 2);
}
END_TEST

/* A client with a route that does not work: dropped, counted. */
START_TEST(test_tap_no_route)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	size_t len;

	client_mac(100, dst);
	client_mac(7, src);
	len = eth(frame, dst, src, 60);
	tt(5, 100, 1, T0);			/* no route at all */
	fwd_data_tap_rx(&dp, frame, len, T0);
	route(5, 1, IF1, T0);			/* next hop not up */
	fwd_data_tap_rx(&dp, frame, len, T0);
	neigh(1, IF3, 1, 200, T0);		/* next hop on a down iface */
	route(5, 1, IF3, T0);
	fwd_data_tap_rx(&dp, frame, len, T0);
	ck_assert_uint_eq(n_sends, 0);
	ck_assert_uint_eq(dp.tap.drop_no_route, 3);
}
END_TEST

START_TEST(test_tap_bad_frames)
{
	uint8_t frame[FRAME_MAX], src[BS_ADDR_LEN];
	uint8_t msrc[BS_ADDR_LEN] = { 0x03, 0, 0, 0, 0, 1 };

	client_mac(7, src);
	eth(frame, bcast_mac, src, 60);
	fwd_data_tap_rx(&dp, frame, 13, T0);
	fwd_data_tap_rx(&dp, frame, 0, T0);
	eth(frame, bcast_mac, msrc, 60);
	fwd_data_tap_rx(&dp, frame, 60, T0);
	ck_assert_uint_eq(dp.tap.drop_malformed, 3);
	eth(frame, bcast_mac, src, WIRE_INNER_MAX + 1);
	fwd_data_tap_rx(&dp, frame, WIRE_INNER_MAX + 1, T0);
	ck_assert_uint_eq(dp.tap.drop_too_big, 1);
	ck_assert_uint_eq(n_sends, 0);
	ck_assert_uint_eq(dp.tap.rx_frames, 4);
	ck_assert_uint_eq(fwd_local_count(tab), 0);
	/* The largest inner frame goes out whole. */
	fwd_data_tap_rx(&dp, frame, WIRE_INNER_MAX, T0);
	ck_assert_uint_eq(n_sends, 2);
	ck_assert_uint_eq(sends[0].len, WIRE_BCAST_HDR_LEN + WIRE_INNER_MAX);
}
END_TEST

/* MTU and send errors are counted on the interface they were for. */
START_TEST(test_tap_mtu_send_error)
{
	uint8_t frame[FRAME_MAX], src[BS_ADDR_LEN];

	client_mac(7, src);
	eth(frame, bcast_mac, src, 1000);
	set_up(3);
	up[0].mtu = 1000;		/* IF1: too small for 16 + 1000 */
	fail_ifindex = IF2;
	fwd_data_tap_rx(&dp, frame, 1000, T0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF3);
	ck_assert_uint_eq(ifc(IF1)->drop_too_big, 1);
	ck_assert_uint_eq(ifc(IF2)->drop_send, 1);
	ck_assert_uint_eq(ifc(IF3)->tx_frames, 1);
	ck_assert_uint_eq(ifc(IF1)->tx_frames, 0);
}
END_TEST

/* ---- batched sending ---------------------------------------------------------- */

/* Frames wait for the flush, then go out one call per interface, in order. */
START_TEST(test_batch_flush)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	size_t i;

	set_up(3);
	topo_line();
	client_mac(100, dst);
	client_mac(7, src);
	eth(frame, bcast_mac, src, 200);
	fwd_data_tap_rx(&dp, frame, 200, T0);		/* IF1, IF2, IF3 */
	eth(frame, dst, src, 300);
	fwd_data_tap_rx(&dp, frame, 300, T0);		/* IF1 */
	eth(frame, bcast_mac, src, 400);
	fwd_data_tap_rx(&dp, frame, 400, T0);		/* IF1, IF2, IF3 */
	ck_assert_uint_eq(n_sends, 0);
	ck_assert_uint_eq(dp.txn, 7);
	fwd_data_flush(&dp);
	ck_assert_uint_eq(dp.txn, 0);
	ck_assert_uint_eq(batch_calls, 3);
	ck_assert_uint_eq(n_sends, 7);
	/* IF1's three first, in the order they came, then IF2's, IF3's. */
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(sends[i].ifindex, IF1);
	ck_assert_uint_eq(sends[0].buf[0], WIRE_T_BCAST);
	ck_assert_uint_eq(sends[1].buf[0], WIRE_T_UNICAST);
	ck_assert_mem_eq(sends[1].dst, node(1)->mac, BS_ADDR_LEN);
	ck_assert_uint_eq(sends[1].len, WIRE_UNICAST_HDR_LEN + 300);
	ck_assert_uint_eq(sends[2].len, WIRE_BCAST_HDR_LEN + 400);
	ck_assert_uint_eq(sends[3].ifindex, IF2);
	ck_assert_uint_eq(sends[4].ifindex, IF2);
	ck_assert_uint_eq(sends[5].ifindex, IF3);
	ck_assert_uint_eq(sends[6].len, WIRE_BCAST_HDR_LEN + 400);
	ck_assert_uint_eq(ifc(IF1)->tx_frames, 3);
	ck_assert_uint_eq(ifc(IF1)->tx_bytes, sends[0].len + sends[1].len +
	    sends[2].len);
	ck_assert_uint_eq(ifc(IF2)->tx_frames, 2);
	ck_assert_uint_eq(ifc(IF3)->tx_frames, 2);
	ck_assert_uint_eq(ncount(1, IF1)->tx_frames, 1);
	/* An empty queue sends nothing. */
	fwd_data_flush(&dp);
	ck_assert_uint_eq(batch_calls, 3);
}
END_TEST

/* What a batch call did not take is counted as drop_send, once. */
START_TEST(test_batch_partial)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	int i;

	topo_line();
	client_mac(100, dst);
	client_mac(7, src);
	eth(frame, dst, src, 100);
	batch_accept = 1;
	for (i = 0; i < 3; i++)
		fwd_data_tap_rx(&dp, frame, 100, T0);
	fwd_data_flush(&dp);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(ifc(IF1)->tx_frames, 1);
	ck_assert_uint_eq(ifc(IF1)->drop_send, 2);
	ck_assert_uint_eq(ncount(1, IF1)->tx_frames, 1);
	/* A call that sends nothing. */
	fail_ifindex = IF1;
	fwd_data_tap_rx(&dp, frame, 100, T0);
	fwd_data_flush(&dp);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(ifc(IF1)->drop_send, 3);
	ck_assert_uint_eq(dp.txn, 0);
}
END_TEST

/* A full queue is flushed before the next frame is queued. */
START_TEST(test_batch_full)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	int i;

	topo_line();
	client_mac(100, dst);
	client_mac(7, src);
	eth(frame, dst, src, 100);
	for (i = 0; i < FWD_TXQ_MAX + 1; i++) {
		frame[20] = (uint8_t)i;
		fwd_data_tap_rx(&dp, frame, 100, T0);
	}
	ck_assert_uint_eq(batch_calls, 1);
	ck_assert_uint_eq(n_sends, FWD_TXQ_MAX);
	ck_assert_uint_eq(dp.txn, 1);
	fwd_data_flush(&dp);
	ck_assert_uint_eq(batch_calls, 2);
	ck_assert_uint_eq(n_sends, FWD_TXQ_MAX + 1);
	for (i = 0; i < FWD_TXQ_MAX + 1; i++)
		ck_assert_uint_eq(sends[i].buf[WIRE_UNICAST_HDR_LEN + 20],
		    (uint8_t)i);
	ck_assert_uint_eq(ifc(IF1)->tx_frames, FWD_TXQ_MAX + 1);
}
END_TEST

/* Relayed UNICASTs are queued too. */
START_TEST(test_batch_relay)
{
	uint8_t frame[FRAME_MAX], p[FRAME_MAX];
	struct wire_unicast u;
	size_t n;

	set_up(2);
	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF2, 1, 200, T0);
	route(5, 2, IF2, T0);
	eth(frame, node(9)->mac, node(8)->mac, 80);
	n = mk_unicast(p, 10, node(5)->addr, node(6)->addr, frame, 80);
	fwd_data_mesh_rx(&dp, IF1, node(1)->mac, node(US)->mac, p, n, T0);
	ck_assert_uint_eq(n_sends, 0);
	fwd_data_flush(&dp);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF2);
	ck_assert_mem_eq(sends[0].dst, node(2)->mac, BS_ADDR_LEN);
	ck_assert_int_eq(wire_unicast_parse(sends[0].buf, sends[0].len, &u),
	    WIRE_OK);
	ck_assert_uint_eq(u.ttl, 9);
	ck_assert_uint_eq(ncount(2, IF2)->tx_frames, 1);
	ck_assert_uint_eq(ncount(1, IF1)->rx_frames, 1);
}
END_TEST

/* VLAN-tagged frames: learnt with their VLAN, looked up with it. */
START_TEST(test_tap_vlan)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	static struct ipc_tt m;
	struct wire_unicast u;

	neigh(1, IF1, 1, 200, T0);
	route(5, 1, IF1, T0);
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, node(5)->addr, BS_ADDR_LEN);
	m.count = 1;
	client_mac(100, m.e[0].mac);
	m.e[0].vid = WIRE_VID_TAGGED | 42;
	fwd_client_set(tab, &m, T0);
	client_mac(100, dst);
	client_mac(7, src);
	/* Untagged: not that client -> flooded. */
	eth(frame, dst, src, 64);
	fwd_data_tap_rx(&dp, frame, 64, T0);
	ck_assert_uint_eq(n_sends, 2);
	ck_assert_uint_eq(sends[0].buf[0], WIRE_T_BCAST);
	/* Tagged 42 (priority bits set too): unicast. */
	eth_vlan(frame, dst, src, 0xe000 | 42, 64);
	fwd_data_tap_rx(&dp, frame, 64, T0);
	ck_assert_uint_eq(n_sends, 3);
	ck_assert_int_eq(wire_unicast_parse(sends[2].buf, sends[2].len, &u),
	    WIRE_OK);
	ck_assert_mem_eq(u.dst, node(5)->addr, BS_ADDR_LEN);
	ck_assert_ptr_nonnull(fwd_local_find(tab, src, WIRE_VID_TAGGED | 42));
	ck_assert_ptr_nonnull(fwd_local_find(tab, src, 0));
	/* Priority-tagged (VLAN 0) counts as untagged. */
	eth_vlan(frame, dst, src, 0x2000, 64);
	fwd_data_tap_rx(&dp, frame, 64, T0);
	ck_assert_uint_eq(sends[3].buf[0], WIRE_T_BCAST);
	ck_assert_uint_eq(fwd_local_count(tab), 2);
}
END_TEST

/* Learning through the data path, and ageing through purge. */
START_TEST(test_tap_learn_age)
{
	uint8_t frame[FRAME_MAX], a[BS_ADDR_LEN], b[BS_ADDR_LEN];
	uint8_t own[BS_ADDR_LEN] = { 0x06, 0x11, 0x22, 0x33, 0x44, 0x55 };

	fwd_local_set_own(tab, own, T0);
	client_mac(1, a);
	client_mac(2, b);
	eth(frame, bcast_mac, a, 60);
	fwd_data_tap_rx(&dp, frame, 60, T0);
	eth(frame, bcast_mac, b, 60);
	fwd_data_tap_rx(&dp, frame, 60, T0);
	eth(frame, bcast_mac, own, 60);
	fwd_data_tap_rx(&dp, frame, 60, T0);
	ck_assert_uint_eq(fwd_local_count(tab), 3);
	eth(frame, bcast_mac, a, 60);
	fwd_data_tap_rx(&dp, frame, 60, T0 + FWD_LTT_AGE_MS - 1);
	fwd_tables_purge(tab, T0 + FWD_LTT_AGE_MS);
	ck_assert_ptr_nonnull(fwd_local_find(tab, a, 0));
	ck_assert_ptr_null(fwd_local_find(tab, b, 0));
	fwd_tables_purge(tab, T0 + 2 * FWD_LTT_AGE_MS);
	ck_assert_uint_eq(fwd_local_count(tab), 1);
	ck_assert_ptr_nonnull(fwd_local_find(tab, own, 0));
}
END_TEST

/* ==== data plane: from the mesh =============================================== */

START_TEST(test_mesh_unicast_for_us)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, c1, c2, 100);
	len = mk_unicast(p, 7, node(US)->addr, node(5)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(n_taps, 1);
	ck_assert_uint_eq(taps[0].len, il);
	ck_assert_mem_eq(taps[0].buf, inner, il);
	ck_assert_uint_eq(n_sends, 0);
	ck_assert_uint_eq(ifc(IF1)->rx_frames, 1);
	ck_assert_uint_eq(ifc(IF1)->rx_bytes, len);
	ck_assert_uint_eq(ncount(1, IF1)->rx_frames, 1);
	ck_assert_uint_eq(dp.tap.tx_frames, 1);
	ck_assert_uint_eq(dp.tap.tx_bytes, il);
	/* A minimum frame with zero Ethernet padding is accepted too. */
	il = eth(inner, c1, c2, 14);
	len = mk_unicast(p, 7, node(US)->addr, node(5)->addr, inner, il);
	memset(p + len, 0, WIRE_ETH_MIN_PAYLOAD - len);
	rx_from(1, IF1, node(US)->mac, p, WIRE_ETH_MIN_PAYLOAD, T0);
	ck_assert_uint_eq(n_taps, 2);
	ck_assert_uint_eq(taps[1].len, 14);
}
END_TEST

/* A UNICAST with our own source from the mesh: neither delivered nor sent
 * on, whether it names us or another node as its destination. */
START_TEST(test_mesh_unicast_own_src)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF2, 1, 200, T0);
	route(5, 2, IF2, T0);
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, c1, c2, 60);
	len = mk_unicast(p, 7, node(5)->addr, node(US)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	len = mk_unicast(p, 7, node(US)->addr, node(US)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(n_sends, 0);
	ck_assert_uint_eq(n_taps, 0);
	ck_assert_uint_eq(ifc(IF1)->drop_own_unicast, 2);
	ck_assert_uint_eq(ncount(1, IF1)->drop_own_unicast, 2);
	ck_assert_uint_eq(ifc(IF1)->rx_frames, 2);
	/* Another source is forwarded as before. */
	len = mk_unicast(p, 7, node(5)->addr, node(9)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF2);
}
END_TEST

START_TEST(test_mesh_unicast_forward)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	struct wire_unicast u;
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF2, 1, 200, T0);
	route(5, 2, IF2, T0);
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, c1, c2, 20);
	len = mk_unicast(p, 2, node(5)->addr, node(9)->addr, inner, il);
	/* With zero padding: forwarded without it. */
	memset(p + len, 0, WIRE_ETH_MIN_PAYLOAD - len);
	rx_from(1, IF1, node(US)->mac, p, WIRE_ETH_MIN_PAYLOAD, T0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(n_taps, 0);
	ck_assert_uint_eq(sends[0].ifindex, IF2);
	ck_assert_mem_eq(sends[0].dst, node(2)->mac, BS_ADDR_LEN);
	ck_assert_uint_eq(sends[0].len, len);
	ck_assert_int_eq(wire_unicast_parse(sends[0].buf, sends[0].len, &u),
	    WIRE_OK);
	ck_assert_uint_eq(u.ttl, 1);
	ck_assert_mem_eq(u.dst, node(5)->addr, BS_ADDR_LEN);
	ck_assert_mem_eq(u.src, node(9)->addr, BS_ADDR_LEN);
	ck_assert_mem_eq(u.inner, inner, il);
	/* Only the TTL differs from what came in. */
	ck_assert_mem_eq(sends[0].buf + 3, p + 3, len - 3);
	ck_assert_uint_eq(ifc(IF1)->rx_frames, 1);
	ck_assert_uint_eq(ifc(IF2)->tx_frames, 1);
	ck_assert_uint_eq(ncount(1, IF1)->rx_frames, 1);
	ck_assert_uint_eq(ncount(2, IF2)->tx_frames, 1);
	ck_assert_uint_eq(ncount(2, IF2)->rx_frames, 0);
}
END_TEST

START_TEST(test_mesh_unicast_ttl_noroute)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, c1, c2, 60);
	/* No route to node 5. */
	len = mk_unicast(p, 9, node(5)->addr, node(9)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_no_route, 1);
	ck_assert_uint_eq(ncount(1, IF1)->drop_no_route, 1);
	/* TTL 1 (and 0) would reach 0: dropped, even with a route. */
	route(5, 1, IF1, T0);
	len = mk_unicast(p, 1, node(5)->addr, node(9)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	len = mk_unicast(p, 0, node(5)->addr, node(9)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_ttl, 2);
	ck_assert_uint_eq(ncount(1, IF1)->drop_ttl, 2);
	ck_assert_uint_eq(n_sends, 0);
	/* For us, TTL 1 is still delivered. */
	len = mk_unicast(p, 1, node(US)->addr, node(9)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(n_taps, 1);
}
END_TEST

/* ---- the mesh ping ------------------------------------------------------------------- */

static size_t
mk_echo(uint8_t *buf, uint8_t ttl, uint8_t kind, const uint8_t *dst,
    const uint8_t *src, uint16_t ident, uint16_t seqno)
{
	return t_echo(buf, FRAME_MAX, (struct wire_echo){ .ttl = ttl,
	    .kind = kind, .dst = dst, .src = src, .ident = ident,
	    .seqno = seqno });
}

/* Our ping to node 5 (through node 2), its reply, and the result. */
START_TEST(test_echo_ping_and_reply)
{
	uint8_t p[FRAME_MAX];
	struct wire_echo e;
	uint64_t rtt = 99;
	uint16_t seq, seq2;
	size_t len;

	neigh(2, IF2, 1, 200, T0);
	/* No route yet: refused, nothing sent, no slot taken. */
	ck_assert_int_eq(fwd_data_ping(&dp, node(5)->addr, &seq), -1);
	ck_assert_uint_eq(n_sends, 0);
	route(5, 2, IF2, T0);
	ck_assert_int_eq(fwd_data_ping(&dp, node(5)->addr, &seq), 0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF2);
	ck_assert_mem_eq(sends[0].dst, node(2)->mac, BS_ADDR_LEN);
	ck_assert_int_eq(wire_echo_parse(sends[0].buf, sends[0].len, &e),
	    WIRE_OK);
	ck_assert_uint_eq(e.kind, WIRE_ECHO_REQUEST);
	ck_assert_uint_eq(e.ttl, FWD_DATA_TTL);
	ck_assert_mem_eq(e.dst, node(5)->addr, BS_ADDR_LEN);
	ck_assert_mem_eq(e.src, node(US)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(e.seqno, seq);
	ck_assert_int_eq(fwd_data_ping_result(&dp, seq, &rtt), FWD_PING_SENT);
	ck_assert_int_eq(fwd_data_ping_result(&dp, (uint16_t)(seq + 1), &rtt),
	    -1);
	/* A reply from another originator, or with another ident: no. */
	len = mk_echo(p, 9, WIRE_ECHO_REPLY, node(US)->addr, node(6)->addr,
	    e.ident, seq);
	rx_from(2, IF2, node(US)->mac, p, len, T0);
	len = mk_echo(p, 9, WIRE_ECHO_REPLY, node(US)->addr, node(5)->addr,
	    (uint16_t)(e.ident + 1), seq);
	rx_from(2, IF2, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(dp.echo.drop_unmatched, 2);
	ck_assert_int_eq(fwd_data_ping_result(&dp, seq, &rtt), FWD_PING_SENT);
	/* The reply. */
	len = mk_echo(p, 9, WIRE_ECHO_REPLY, node(US)->addr, node(5)->addr,
	    e.ident, seq);
	rx_from(2, IF2, node(US)->mac, p, len, T0);
	ck_assert_int_eq(fwd_data_ping_result(&dp, seq, &rtt),
	    FWD_PING_REPLIED);
	ck_assert_uint_lt(rtt, 60000000);
	ck_assert_uint_eq(dp.echo.requests_sent, 1);
	ck_assert_uint_eq(dp.echo.replies_received, 1);
	/* Twice is once: the second copy is unmatched. */
	rx_from(2, IF2, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(dp.echo.replies_received, 1);
	ck_assert_uint_eq(dp.echo.drop_unmatched, 3);
	ck_assert_uint_eq(n_taps, 0);
	/* FWD_PING_SLOTS later requests push this one out. */
	for (len = 0; len < FWD_PING_SLOTS; len++)
		ck_assert_int_eq(fwd_data_ping(&dp, node(5)->addr, &seq2), 0);
	ck_assert_int_eq(fwd_data_ping_result(&dp, seq, &rtt), -1);
	ck_assert_int_eq(fwd_data_ping_result(&dp, seq2, &rtt), FWD_PING_SENT);
}
END_TEST

/* A request for us is answered along the route, at most FWD_ECHO_RATE a s. */
START_TEST(test_echo_request_answered)
{
	uint8_t p[FRAME_MAX];
	struct wire_echo e;
	size_t len, i;

	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF2, 1, 200, T0);
	route(5, 2, IF2, T0);
	/* No route back to node 6: counted, nothing sent. */
	len = mk_echo(p, 3, WIRE_ECHO_REQUEST, node(US)->addr, node(6)->addr,
	    7, 8);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(dp.echo.drop_no_route, 1);
	ck_assert_uint_eq(n_sends, 0);
	/* From node 5, arriving through node 1: answered through node 2. */
	len = mk_echo(p, 1, WIRE_ECHO_REQUEST, node(US)->addr, node(5)->addr,
	    0xbeef, 42);
	memset(p + len, 0, WIRE_ETH_MIN_PAYLOAD - len);
	rx_from(1, IF1, node(US)->mac, p, WIRE_ETH_MIN_PAYLOAD, T0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF2);
	ck_assert_mem_eq(sends[0].dst, node(2)->mac, BS_ADDR_LEN);
	ck_assert_uint_eq(sends[0].len, WIRE_ECHO_LEN);
	ck_assert_int_eq(wire_echo_parse(sends[0].buf, sends[0].len, &e),
	    WIRE_OK);
	ck_assert_uint_eq(e.kind, WIRE_ECHO_REPLY);
	ck_assert_uint_eq(e.ttl, FWD_DATA_TTL);
	ck_assert_mem_eq(e.dst, node(5)->addr, BS_ADDR_LEN);
	ck_assert_mem_eq(e.src, node(US)->addr, BS_ADDR_LEN);
	ck_assert_uint_eq(e.ident, 0xbeef);
	ck_assert_uint_eq(e.seqno, 42);
	ck_assert_uint_eq(n_taps, 0);
	/* A flood in one instant: the rest of the burst, then nothing. */
	for (i = 0; i < 3 * FWD_ECHO_BURST; i++)
		rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(dp.echo.replies_sent, FWD_ECHO_BURST - 1);
	ck_assert_uint_eq(dp.echo.drop_rate, 2 * FWD_ECHO_BURST + 2);
	/* A second later, FWD_ECHO_RATE more. */
	for (i = 0; i < 3 * FWD_ECHO_BURST; i++)
		rx_from(1, IF1, node(US)->mac, p, len, T0 + 1000);
	ck_assert_uint_eq(dp.echo.replies_sent,
	    FWD_ECHO_BURST - 1 + FWD_ECHO_RATE);
	ck_assert_uint_eq(dp.echo.requests_received, 6 * FWD_ECHO_BURST + 2);
}
END_TEST

/* An ECHO for someone else is forwarded as a UNICAST is. */
START_TEST(test_echo_forwarded)
{
	uint8_t p[FRAME_MAX];
	struct wire_echo e;
	size_t len;

	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF2, 1, 200, T0);
	route(5, 2, IF2, T0);
	len = mk_echo(p, 4, WIRE_ECHO_REQUEST, node(5)->addr, node(9)->addr,
	    1, 2);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_uint_eq(sends[0].ifindex, IF2);
	ck_assert_int_eq(wire_echo_parse(sends[0].buf, sends[0].len, &e),
	    WIRE_OK);
	ck_assert_uint_eq(e.ttl, 3);
	ck_assert_mem_eq(sends[0].buf + 3, p + 3, len - 3);
	ck_assert_uint_eq(dp.echo.requests_received, 0);
	/* TTL 1: dropped; no route: dropped; to a group MAC: malformed. */
	len = mk_echo(p, 1, WIRE_ECHO_REQUEST, node(5)->addr, node(9)->addr,
	    1, 3);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	len = mk_echo(p, 9, WIRE_ECHO_REPLY, node(6)->addr, node(9)->addr,
	    1, 4);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_ttl, 1);
	ck_assert_uint_eq(ifc(IF1)->drop_no_route, 1);
	ck_assert_uint_eq(ifc(IF1)->drop_malformed, 1);
	ck_assert_uint_eq(n_sends, 1);
	/* Claiming our own address as source: neither forwarded nor, when
	 * it is for us, answered. */
	len = mk_echo(p, 9, WIRE_ECHO_REQUEST, node(5)->addr, node(US)->addr,
	    1, 5);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	len = mk_echo(p, 9, WIRE_ECHO_REQUEST, node(US)->addr,
	    node(US)->addr, 1, 6);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	ck_assert_uint_eq(dp.echo.drop_own, 2);
	ck_assert_uint_eq(dp.echo.requests_received, 0);
	ck_assert_uint_eq(n_sends, 1);
	ck_assert_int_ne(fwd_data_is_data(p, len), 0);
}
END_TEST

/* Sources that are not up neighbours on that interface. */
START_TEST(test_mesh_not_neighbour)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF1, 1, 200, T0);
	neigh(2, IF1, 0, 0, T0);		/* went down */
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, c1, c2, 60);
	len = mk_unicast(p, 9, node(US)->addr, node(9)->addr, inner, il);
	rx_from(3, IF1, node(US)->mac, p, len, T0);	/* never seen */
	rx_from(1, IF2, node(US)->mac, p, len, T0);	/* other interface */
	rx_from(2, IF1, node(US)->mac, p, len, T0);	/* down */
	len = mk_bcast(p, 9, 1, node(9)->addr, inner, il);
	rx_from(3, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_not_neigh, 3);
	ck_assert_uint_eq(ifc(IF2)->drop_not_neigh, 1);
	ck_assert_uint_eq(ifc(IF1)->rx_frames, 3);
	ck_assert_uint_eq(n_taps, 0);
	ck_assert_uint_eq(n_sends, 0);
	/* A non-neighbour's BCAST did not touch the duplicate window. */
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(n_taps, 1);
}
END_TEST

/* Malformed data frames from a neighbour. */
enum { MF_TRUNC, MF_VERSION, MF_TRAILING, MF_PAD_NONZERO, MF_UC_GROUP,
    MF_BC_UNICAST, MF_RESERVED, MF_INNER_SHORT, MF_SRC_NOT_MESH, MF_END };

START_TEST(test_mesh_malformed)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	const uint8_t *dst = node(US)->mac;
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, c1, c2, 20);
	len = mk_unicast(p, 9, node(US)->addr, node(9)->addr, inner, il);
	switch (_i) {
	case MF_TRUNC:
		len = WIRE_UNICAST_HDR_LEN - 1;
		break;
	case MF_VERSION:
		p[1] = 2;
		break;
	case MF_TRAILING:		/* garbage after a long frame */
		len = mk_unicast(p, 9, node(US)->addr, node(9)->addr, inner,
		    eth(inner, c1, c2, 200));
		p[len++] = 0;
		break;
	case MF_PAD_NONZERO:
		memset(p + len, 0, WIRE_ETH_MIN_PAYLOAD - len);
		p[WIRE_ETH_MIN_PAYLOAD - 1] = 1;
		len = WIRE_ETH_MIN_PAYLOAD;
		break;
	case MF_UC_GROUP:
		dst = bcast_mac;
		break;
	case MF_BC_UNICAST:
		len = mk_bcast(p, 9, 1, node(9)->addr, inner, il);
		break;
	case MF_RESERVED:
		p[3] = 1;
		break;
	case MF_INNER_SHORT:
		p[16] = 0;
		p[17] = 13;
		break;
	case MF_SRC_NOT_MESH:
		p[10] |= 0x01;
		break;
	}
	rx_from(1, IF1, dst, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_malformed, 1);
	ck_assert_uint_eq(ncount(1, IF1)->drop_malformed, 1);
	ck_assert_uint_eq(n_taps, 0);
	ck_assert_uint_eq(n_sends, 0);
}
END_TEST

START_TEST(test_mesh_bcast)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c1[6], c2[6];
	struct wire_bcast b;
	size_t il, len, k;

	set_up(3);
	neigh(1, IF1, 1, 200, T0);
	neigh(2, IF2, 1, 200, T0);
	client_mac(1, c1);
	client_mac(2, c2);
	il = eth(inner, bcast_mac, c2, 90);
	len = mk_bcast(p, 5, 77, node(9)->addr, inner, il);
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(n_taps, 1);
	ck_assert_mem_eq(taps[0].buf, inner, il);
	ck_assert_uint_eq(n_sends, 3);
	for (k = 0; k < 3; k++) {
		ck_assert_uint_eq(sends[k].ifindex, IF1 + k);
		ck_assert_mem_eq(sends[k].dst, bcast_mac, BS_ADDR_LEN);
		ck_assert_int_eq(wire_bcast_parse(sends[k].buf, sends[k].len,
		    &b), WIRE_OK);
		ck_assert_uint_eq(b.ttl, 4);
		ck_assert_uint_eq(b.seqno, 77);
		ck_assert_mem_eq(b.orig, node(9)->addr, BS_ADDR_LEN);
		ck_assert_mem_eq(sends[k].buf + 3, p + 3, len - 3);
	}
	/* The same broadcast via another neighbour, and again: dropped. */
	rx_from(2, IF2, bcast_mac, p, len, T0 + 10);
	rx_from(1, IF1, bcast_mac, p, len, T0 + 20);
	ck_assert_uint_eq(n_taps, 1);
	ck_assert_uint_eq(n_sends, 3);
	ck_assert_uint_eq(ifc(IF2)->drop_dup_bcast, 1);
	ck_assert_uint_eq(ifc(IF1)->drop_dup_bcast, 1);
	ck_assert_uint_eq(ncount(2, IF2)->drop_dup_bcast, 1);
	/* The next seqno passes. */
	len = mk_bcast(p, 5, 78, node(9)->addr, inner, il);
	rx_from(2, IF2, bcast_mac, p, len, T0 + 30);
	ck_assert_uint_eq(n_taps, 2);
	ck_assert_uint_eq(n_sends, 6);
	ck_assert_uint_eq(ifc(IF1)->rx_frames, 2);
	ck_assert_uint_eq(ifc(IF2)->rx_frames, 2);
	ck_assert_uint_eq(ifc(IF1)->tx_frames, 2);
}
END_TEST

START_TEST(test_mesh_bcast_own_ttl)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c2[6];
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	client_mac(2, c2);
	il = eth(inner, bcast_mac, c2, 60);
	/* Our own broadcast coming back. */
	len = mk_bcast(p, 5, 1001, node(US)->addr, inner, il);
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_own_bcast, 1);
	ck_assert_uint_eq(ncount(1, IF1)->drop_own_bcast, 1);
	ck_assert_uint_eq(n_taps, 0);
	ck_assert_uint_eq(n_sends, 0);
	/* TTL 1: delivered, not rebroadcast. */
	len = mk_bcast(p, 1, 5, node(9)->addr, inner, il);
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(n_taps, 1);
	ck_assert_uint_eq(n_sends, 0);
	/* TTL 0 too (the copy is new); still never rebroadcast. */
	len = mk_bcast(p, 0, 6, node(9)->addr, inner, il);
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(n_taps, 2);
	ck_assert_uint_eq(n_sends, 0);
}
END_TEST

START_TEST(test_mesh_tap_error)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c2[6];
	size_t il, len;

	neigh(1, IF1, 1, 200, T0);
	client_mac(2, c2);
	il = eth(inner, bcast_mac, c2, 60);
	tap_fails = 1;
	len = mk_unicast(p, 9, node(US)->addr, node(9)->addr, inner, il);
	rx_from(1, IF1, node(US)->mac, p, len, T0);
	len = mk_bcast(p, 5, 1, node(9)->addr, inner, il);
	rx_from(1, IF1, bcast_mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_tap_write, 2);
	ck_assert_uint_eq(ncount(1, IF1)->drop_tap_write, 2);
	ck_assert_uint_eq(dp.tap.tx_frames, 0);
	/* The broadcast is still passed on to the rest of the mesh. */
	ck_assert_uint_eq(n_sends, 2);
}
END_TEST

/* Interface counters for many interfaces, and totals. */
START_TEST(test_counters_ifaces_totals)
{
	uint8_t inner[FRAME_MAX], p[FRAME_MAX], c2[6];
	struct fwd_dcount tot;
	size_t il, len;
	uint32_t i;

	client_mac(2, c2);
	il = eth(inner, bcast_mac, c2, 60);
	len = mk_bcast(p, 5, 1, node(9)->addr, inner, il);
	ck_assert_ptr_null(fwd_data_iface_counters(&dp, IF1));
	ck_assert_ptr_null(fwd_data_iface_counters(&dp, 0));
	/* More interfaces than slots, none of them up: slots are reused. */
	for (i = 100; i < 100 + 2 * FWD_DATA_IFC_MAX; i++)
		rx_from(3, i, bcast_mac, p, len, T0);
	ck_assert_ptr_nonnull(fwd_data_iface_counters(&dp,
	    100 + 2 * FWD_DATA_IFC_MAX - 1));
	ck_assert_uint_eq(fwd_data_iface_counters(&dp, 100 + 2 *
	    FWD_DATA_IFC_MAX - 1)->drop_not_neigh, 1);
	/* Up interfaces keep theirs. */
	rx_from(3, IF1, bcast_mac, p, len, T0);
	rx_from(3, IF2, bcast_mac, p, len, T0);
	for (i = 200; i < 200 + 2 * FWD_DATA_IFC_MAX; i++)
		rx_from(3, i, bcast_mac, p, len, T0);
	ck_assert_uint_eq(ifc(IF1)->drop_not_neigh, 1);
	ck_assert_uint_eq(ifc(IF2)->drop_not_neigh, 1);
	/* Every slot holds one frame (the reused ones lost theirs). */
	fwd_data_totals(&dp, &tot);
	ck_assert_uint_eq(tot.rx_frames, FWD_DATA_IFC_MAX);
	ck_assert_uint_eq(tot.drop_not_neigh, FWD_DATA_IFC_MAX);
	/* TAP side adds in. */
	fwd_data_tap_rx(&dp, inner, il, T0);
	fwd_data_totals(&dp, &tot);
	ck_assert_uint_eq(tot.rx_frames, FWD_DATA_IFC_MAX + 1);
	ck_assert_uint_eq(tot.tx_frames, 2);
}
END_TEST

START_TEST(test_is_data)
{
	const uint8_t uc[] = { WIRE_T_UNICAST }, bc[] = { WIRE_T_BCAST };
	const uint8_t hello[] = { WIRE_T_HELLO }, ogm[] = { WIRE_T_OGM };

	ck_assert_int_eq(fwd_data_is_data(uc, 1), 1);
	ck_assert_int_eq(fwd_data_is_data(bc, 1), 1);
	ck_assert_int_eq(fwd_data_is_data(hello, 1), 0);
	ck_assert_int_eq(fwd_data_is_data(ogm, 1), 0);
	ck_assert_int_eq(fwd_data_is_data(uc, 0), 0);
}
END_TEST

/* The data plane with an empty frame or an unknown type from a neighbour. */
START_TEST(test_mesh_empty_type)
{
	const uint8_t hello[] = { WIRE_T_HELLO, 1 };

	neigh(1, IF1, 1, 200, T0);
	rx_from(1, IF1, bcast_mac, hello, 0, T0);
	rx_from(1, IF1, bcast_mac, hello, sizeof(hello), T0);
	ck_assert_uint_eq(ifc(IF1)->drop_malformed, 2);
}
END_TEST

/*
 * Two data planes back to back: a frame from our TAP comes out of node 5's
 * TAP unchanged.
 */
START_TEST(test_end_to_end)
{
	uint8_t frame[FRAME_MAX], dst[BS_ADDR_LEN], src[BS_ADDR_LEN];
	uint8_t wire[FRAME_MAX];
	struct fwd_data_ops ops;
	size_t len, wlen;

	topo_line();
	client_mac(100, dst);
	client_mac(7, src);
	len = eth(frame, dst, src, 300);
	fwd_data_tap_rx(&dp, frame, len, T0);
	ck_assert_uint_eq(n_sends, 1);
	wlen = sends[0].len;
	memcpy(wire, sends[0].buf, wlen);
	/* Hand it to node 5, which has us as a neighbour. */
	fwd_tables_free(tab);
	setup();
	ops = dp.ops;
	fwd_data_init(&dp, tab, node(5)->addr, &ops);
	neigh(US, IF1, 1, 200, T0);
	rx_from(US, IF1, node(5)->mac, wire, wlen, T0);
	ck_assert_uint_eq(n_taps, 1);
	ck_assert_uint_eq(taps[0].len, len);
	ck_assert_mem_eq(taps[0].buf, frame, len);
}
END_TEST

static Suite *
fwd_data_suite(void)
{
	Suite *s = suite_create("fwd_data");
	TCase *tc;

	tc = tcase_create("neighbours");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_neigh_lifecycle);
	tcase_add_test(tc, test_neigh_mac_change);
	tcase_add_test(tc, test_neigh_link_key);
	tcase_add_test(tc, test_neigh_iterate_flush);
	tcase_add_test(tc, test_neigh_cap);
	suite_add_tcase(s, tc);

	tc = tcase_create("routes");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_route_add_refresh_del);
	tcase_add_test(tc, test_route_expiry);
	tcase_add_test(tc, test_route_cap_iterate);
	suite_add_tcase(s, tc);

	tc = tcase_create("tt_gw");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_client_set_replace);
	tcase_add_test(tc, test_client_vid);
	tcase_add_test(tc, test_client_cap);
	tcase_add_test(tc, test_gw);
	tcase_add_test(tc, test_parser_reset);
	suite_add_tcase(s, tc);

	tc = tcase_create("local_tt");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_local_learn_age);
	tcase_add_test(tc, test_local_ignored);
	tcase_add_test(tc, test_local_cap_tt);
	suite_add_tcase(s, tc);

	tc = tcase_create("bcast_window");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_bcast_window, 0,
	    sizeof(bc_cases) / sizeof(bc_cases[0]));
	tcase_add_test(tc, test_bcast_evict);
	tcase_add_test(tc, test_bcast_restart_epoch);
	tcase_add_test(tc, test_dcount_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("from_tap");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tap_unicast);
	tcase_add_loop_test(tc, test_tap_flood, 0,
	    sizeof(flood_dsts) / sizeof(flood_dsts[0]));
	tcase_add_test(tc, test_tap_no_route);
	tcase_add_test(tc, test_tap_bad_frames);
	tcase_add_test(tc, test_tap_mtu_send_error);
	tcase_add_test(tc, test_tap_vlan);
	tcase_add_test(tc, test_tap_learn_age);
	suite_add_tcase(s, tc);

	tc = tcase_create("batch");
	tcase_add_checked_fixture(tc, setup_batch, teardown);
	tcase_add_test(tc, test_batch_flush);
	tcase_add_test(tc, test_batch_partial);
	tcase_add_test(tc, test_batch_full);
	tcase_add_test(tc, test_batch_relay);
	suite_add_tcase(s, tc);

	tc = tcase_create("from_mesh");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mesh_unicast_for_us);
	tcase_add_test(tc, test_mesh_unicast_forward);
	tcase_add_test(tc, test_mesh_unicast_own_src);
	tcase_add_test(tc, test_mesh_unicast_ttl_noroute);
	tcase_add_test(tc, test_mesh_not_neighbour);
	tcase_add_test(tc, test_echo_ping_and_reply);
	tcase_add_test(tc, test_echo_request_answered);
	tcase_add_test(tc, test_echo_forwarded);
	tcase_add_loop_test(tc, test_mesh_malformed, 0, MF_END);
	tcase_add_test(tc, test_mesh_bcast);
	tcase_add_test(tc, test_mesh_bcast_own_ttl);
	tcase_add_test(tc, test_mesh_tap_error);
	tcase_add_test(tc, test_mesh_empty_type);
	tcase_add_test(tc, test_counters_ifaces_totals);
	tcase_add_test(tc, test_is_data);
	tcase_add_test(tc, test_end_to_end);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(fwd_data_suite());
}
