/*
 * gen_data.c — writes the seed corpus of fuzz_data into the directory named
 * by argv[1], each file named by (the first 20 bytes of) its SHA-256.
 *
 * Each seed is a sequence of fuzz_data records (see fuzz_data.c for the
 * format and the fixed context) built with the wire codec: TAP frames to
 * known clients (direct, over two hops, on a VLAN, over a route whose next
 * hop is down, too big for the interface), broadcasts from the TAP, and
 * mesh UNICAST/BCAST frames for us, to forward, at the end of their TTL,
 * padded, duplicated, our own, and from a host that is not a neighbour.
 * Deterministic.
 */
#include <string.h>

#include "batsec_crypto.h"
#include "lib/t_frames.h"
#include "lib/t_seed.h"
#include "proto/wire.h"

/* As in fuzz_data.c. */
#define GEN_NODES	8
#define K_TAP		0x80
#define K_IF_B		0x04
#define K_DST_US	0x00
#define K_DST_BCAST	0x10
#define K_DST_GROUP	0x20
#define K_DST_OTHER	0x30
/* kind & 3 = sender node - 1 (node 4 is no neighbour). */
#define K_FROM(n)	((uint8_t)((n) - 1))

#define GEN_MAX		16384

static uint8_t gen_addr[GEN_NODES][BS_ADDR_LEN];
static uint8_t gen_buf[GEN_MAX];
static struct t_seedbuf gen_seed = { gen_buf, sizeof(gen_buf), 0 };

/* Append one record. */
static void
gen_rec(uint8_t kind, uint8_t dt, const uint8_t *p, size_t len)
{
	uint8_t h[4] = { kind, dt, (uint8_t)(len >> 8), (uint8_t)len };

	if (len > 0xffff)
		t_seed_fail("record size");
	t_seed_put(&gen_seed, h, sizeof(h));
	t_seed_put(&gen_seed, p, len);
}

static void
gen_client(unsigned id, uint8_t mac[BS_ADDR_LEN])
{
	memcpy(mac, (const uint8_t[]){ 0x52, 0x54, 0, 0, 0, 0 }, BS_ADDR_LEN);
	mac[5] = (uint8_t)id;
}

/* An Ethernet frame from client 9 to dst; vid > 0 adds an 802.1Q tag. */
static size_t
gen_eth(uint8_t *buf, const uint8_t *dst, uint16_t vid, size_t len)
{
	uint8_t src[BS_ADDR_LEN];

	gen_client(9, src);
	return t_eth(buf, dst, src, vid, len);
}

static size_t
gen_unicast(uint8_t *buf, uint8_t ttl, unsigned dst, unsigned src,
    const uint8_t *inner, size_t inner_len)
{
	return t_unicast(buf, 2048, (struct wire_unicast){ .ttl = ttl,
	    .dst = gen_addr[dst], .src = gen_addr[src], .inner = inner,
	    .inner_len = inner_len });
}

static size_t
gen_bcast(uint8_t *buf, uint8_t ttl, uint32_t seqno, unsigned orig,
    const uint8_t *inner, size_t inner_len)
{
	return t_bcast(buf, 2048, (struct wire_bcast){ .ttl = ttl,
	    .seqno = seqno, .orig = gen_addr[orig], .inner = inner,
	    .inner_len = inner_len });
}

static const uint8_t gen_bc[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

/* One seed per TAP case. */
static void
gen_tap(void)
{
	static const struct { unsigned client; uint16_t vid; size_t len; }
	    cases[] = {
		{ 1, 0, 98 },		/* node 1, direct */
		{ 5, 0, 200 },		/* node 5 via 3 */
		{ 6, 10, 300 },		/* VLAN 10 */
		{ 7, 0, 60 },		/* next hop down */
		{ 5, 0, WIRE_INNER_MAX },	/* too big for B */
		{ 99, 0, 60 },		/* unknown: flooded */
	};
	uint8_t inner[2048], mac[BS_ADDR_LEN];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gen_client(cases[i].client, mac);
		gen_rec(K_TAP, 0, inner, gen_eth(inner, mac, cases[i].vid,
		    cases[i].len));
		t_seed_flush(&gen_seed);
	}
	gen_rec(K_TAP, 0, inner, gen_eth(inner, gen_bc, 0, 42));
	gen_rec(K_TAP, 0, inner, gen_eth(inner, gen_bc, 0, 42));
	t_seed_flush(&gen_seed);
}

static size_t
gen_echo(uint8_t *buf, uint8_t ttl, uint8_t kind, unsigned dst, unsigned src)
{
	return t_echo(buf, 2048, (struct wire_echo){ .ttl = ttl, .kind = kind,
	    .dst = gen_addr[dst], .src = gen_addr[src], .ident = 0x5150,
	    .seqno = 3 });
}

/* Echo requests for us (answered via node 3 on B, or no route back), a
 * reply to no ping of ours, one to forward, and a burst of requests. */
static void
gen_mesh_echo(void)
{
	uint8_t p[2048];
	size_t n;
	int i;

	n = gen_echo(p, 50, WIRE_ECHO_REQUEST, 0, 5);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_echo(p, 50, WIRE_ECHO_REQUEST, 0, 4);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_echo(p, 50, WIRE_ECHO_REPLY, 0, 5);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	n = gen_echo(p, 9, WIRE_ECHO_REQUEST, 2, 1);
	memset(p + n, 0, WIRE_ETH_MIN_PAYLOAD - n);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, WIRE_ETH_MIN_PAYLOAD);
	t_seed_flush(&gen_seed);
	n = gen_echo(p, 50, WIRE_ECHO_REQUEST, 0, 1);
	for (i = 0; i < 30; i++)
		gen_rec(K_FROM(1) | K_DST_US, i == 25 ? 2 : 0, p, n);
	t_seed_flush(&gen_seed);
}

static void
gen_mesh_unicast(void)
{
	uint8_t inner[2048], p[2048], mac[BS_ADDR_LEN];
	size_t il, n;

	gen_client(1, mac);
	il = gen_eth(inner, mac, 0, 100);
	/* For us. */
	n = gen_unicast(p, 50, 0, 5, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	/* To forward to node 2 (B), and at the end of its TTL. */
	n = gen_unicast(p, 50, 2, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	n = gen_unicast(p, 1, 2, 1, inner, il);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	/* Minimum inner frame, zero-padded to 46 bytes. */
	il = gen_eth(inner, mac, 0, 14);
	n = gen_unicast(p, 9, 0, 5, inner, il);
	memset(p + n, 0, WIRE_ETH_MIN_PAYLOAD - n);
	gen_rec(K_FROM(2) | K_IF_B | K_DST_US, 0, p, WIRE_ETH_MIN_PAYLOAD);
	t_seed_flush(&gen_seed);
	/* From a host that is not a neighbour; to a group address. */
	n = gen_unicast(p, 9, 0, 5, inner, il);
	gen_rec(K_FROM(4) | K_DST_US, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_GROUP, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_OTHER, 0, p, n);
	t_seed_flush(&gen_seed);
}

static void
gen_mesh_bcast(void)
{
	uint8_t inner[2048], p[2048];
	size_t il, n;

	il = gen_eth(inner, gen_bc, 0, 60);
	/* New, duplicate via another neighbour, next, our own. */
	n = gen_bcast(p, 50, 7, 5, inner, il);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_BCAST, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	n = gen_bcast(p, 50, 8, 5, inner, il);
	gen_rec(K_FROM(2) | K_IF_B | K_DST_BCAST, 1, p, n);
	n = gen_bcast(p, 50, 1, 0, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	t_seed_flush(&gen_seed);
	/* TTL 1; and a restart of node 6's numbering after a long pause. */
	n = gen_bcast(p, 1, 5000, 6, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	n = gen_bcast(p, 9, 3, 6, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 40, p, n);
	t_seed_flush(&gen_seed);
	/* A large one that does not fit interface B. */
	il = gen_eth(inner, gen_bc, 0, WIRE_INNER_MAX);
	n = gen_bcast(p, 9, 1, 2, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	t_seed_flush(&gen_seed);
}

/* A long mixed sequence with ageing: routes expire after 60 s. */
static void
gen_mixed(void)
{
	uint8_t inner[2048], p[2048], mac[BS_ADDR_LEN];
	size_t il, n;

	gen_client(1, mac);
	il = gen_eth(inner, mac, 0, 80);
	gen_rec(K_TAP, 0, inner, il);
	n = gen_unicast(p, 50, 2, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 30, p, n);
	gen_rec(K_TAP, 61, inner, il);		/* the route has expired */
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_bcast(p, 50, 1, 5, inner, il);
	gen_rec(K_FROM(3) | K_DST_BCAST, 255, p, n);
	t_seed_flush(&gen_seed);
}

int
main(int argc, char **argv)
{
	uint8_t pk[BS_PK_LEN];
	unsigned i;

	t_seed_main(argc, argv, "gen_data", T_SEED_SHA256);
	for (i = 0; i < GEN_NODES; i++) {
		memset(pk, 0x40 + (int)i, sizeof(pk));
		bs_mesh_addr(gen_addr[i], pk);
	}
	gen_tap();
	gen_mesh_unicast();
	gen_mesh_echo();
	gen_mesh_bcast();
	gen_mixed();
	return 0;
}
