/*
 * gen_data.c — writes the seed corpus of fuzz_data into the directory named
 * by argv[1], each file named by (the first 20 bytes of) its SHA-256.
 *
 * Each seed is a sequence of fuzz_data records (see fuzz_data.c for the
 * format and the fixed context) built with the wire codec: TAP frames to
 * known clients (direct, over two hops, on a VLAN, over a route whose next
 * hop is down, too big for the interface), broadcasts from the TAP, and
 * mesh UNICAST/BCAST/ECHO/TRACE/TTLX frames of version 2, sealed, signed and
 * hop-tagged with the keys of fuzz_data's fixed context (so they pass the
 * hop check and, for us, the AEAD): for us, to forward, at the end of
 * their TTL, duplicated, replayed, our own, tagged for another link, and
 * from a host that is not a neighbour; ARP frames and IPv6 neighbour
 * discovery for the answer cache.  Deterministic.
 */
#include <string.h>

#include "batsec_crypto.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
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
#define K_GW		0x40	/* gateway client mode on / off */

#define GEN_MAX		16384

static uint8_t gen_addr[GEN_NODES][BS_ADDR_LEN];
static struct bs_identity gen_id[GEN_NODES];
static struct t_link gen_link[GEN_NODES];	/* node n's with node 0 */
static uint64_t gen_hop_ctr[GEN_NODES], gen_e2e_ctr = 1 << 22;
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

/* As in fuzz_data.c: node n's epoch and interface MAC. */
static uint32_t
gen_epoch(unsigned n)
{
	return n + 1;
}

static void
gen_mac(unsigned n, uint8_t mac[BS_ADDR_LEN])
{
	memcpy(mac, (const uint8_t[]){ 0x0a, 0xcc, 0, 0, 0, 0 }, BS_ADDR_LEN);
	mac[5] = (uint8_t)n;
}

/* A sealed frame from src to dst, on the link of neighbour `from'. */
static size_t
gen_sealed(uint8_t *buf, uint8_t type, uint8_t ttl, unsigned from,
    unsigned dst, unsigned src, const uint8_t *pt, size_t pt_len)
{
	uint8_t k[BS_E2EKEY_LEN];

	t_e2e_key(k, &gen_id[src], gen_epoch(src), gen_id[dst].pk,
	    gen_epoch(dst));
	return t_sealed(buf, 2048, (struct t_sealed){ .type = type,
	    .ttl = ttl, .hop = &gen_link[from], .hop_ctr = ++gen_hop_ctr[from],
	    .e2e_key = k, .e = { .dst = gen_addr[dst], .src = gen_addr[src],
	    .src_epoch = gen_epoch(src), .dst_epoch = gen_epoch(dst),
	    .counter = ++gen_e2e_ctr }, .pt = pt, .pt_len = pt_len });
}

static size_t
gen_unicast(uint8_t *buf, uint8_t ttl, unsigned from, unsigned dst,
    unsigned src, const uint8_t *inner, size_t inner_len)
{
	return gen_sealed(buf, WIRE_T_UNICAST, ttl, from, dst, src, inner,
	    inner_len);
}

/* A BCAST of orig with one tag, for the link of neighbour `from'. */
static size_t
gen_bcast(uint8_t *buf, uint8_t ttl, uint32_t seqno, unsigned orig,
    unsigned from, const uint8_t *inner, size_t inner_len)
{
	const struct t_link *hop = &gen_link[from];

	return t_bcast(buf, 2048, (struct t_bcast){ .ttl = ttl,
	    .hop_ctr = ++gen_hop_ctr[from], .hops = &hop, .num_tags = 1,
	    .orig = &gen_id[orig], .epoch = gen_epoch(orig), .seqno = seqno,
	    .inner = inner, .inner_len = inner_len });
}

static const uint8_t gen_bc[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

/*
 * Multicast listeners (fwd_mcast.h): an IGMPv3 report joining 239.1.2.3,
 * then a frame to it; an MLDv2 report (behind a hop-by-hop header)
 * joining ff02::1:1234, then a frame to that group.
 */
static void
gen_tap_mcast(void)
{
	static const uint8_t g4[] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
	static const uint8_t g6[] = { 0x33, 0x33, 0x00, 0x01, 0x12, 0x34 };
	static const uint8_t r4[] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x16 };
	static const uint8_t r6[] = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x16 };
	static const uint8_t igmp[] = { 0x46, 0, 0, 40, 0, 0, 0, 0, 1, 2, 0, 0,
	    10, 99, 0, 9, 224, 0, 0, 22, 0x94, 4, 0, 0,
	    0x22, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 239, 1, 2, 3 };
	static const uint8_t mld[] = { 0x60, 0, 0, 0, 0, 36, 0, 1,
	    0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9,
	    0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16,
	    58, 0, 5, 2, 0, 0, 1, 0,
	    143, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0,
	    0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0x12, 0x34 };
	uint8_t f[256];
	size_t n;

	n = gen_eth(f, r4, 0, 14 + sizeof(igmp));
	f[12] = 0x08;
	f[13] = 0x00;
	memcpy(f + 14, igmp, sizeof(igmp));
	gen_rec(K_TAP, 0, f, n);
	gen_rec(K_TAP, 0, f, gen_eth(f, g4, 0, 80));
	t_seed_flush(&gen_seed);
	n = gen_eth(f, r6, 0, 14 + sizeof(mld));
	f[12] = 0x86;
	f[13] = 0xdd;
	memcpy(f + 14, mld, sizeof(mld));
	gen_rec(K_TAP, 0, f, n);
	gen_rec(K_TAP, 0, f, gen_eth(f, g6, 0, 80));
	t_seed_flush(&gen_seed);
}

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
	gen_tap_mcast();
}

static size_t
gen_echo(uint8_t *buf, uint8_t ttl, uint8_t kind, unsigned from,
    unsigned dst, unsigned src)
{
	uint8_t body[WIRE_ECHO_BODY_LEN];

	wire_echo_body_put(body, &(struct wire_echo){ .kind = kind,
	    .ident = 0x5150, .seqno = 3 });
	return gen_sealed(buf, WIRE_T_ECHO, ttl, from, dst, src, body,
	    sizeof(body));
}

/* Echo requests for us (answered via node 3 on B, or no route back), a
 * reply to no ping of ours, one to forward, a replayed one, and a burst
 * of requests. */
static void
gen_mesh_echo(void)
{
	uint8_t p[2048];
	size_t n;
	int i;

	n = gen_echo(p, 50, WIRE_ECHO_REQUEST, 1, 0, 5);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);		/* replayed */
	n = gen_echo(p, 50, WIRE_ECHO_REQUEST, 1, 0, 4);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_echo(p, 50, WIRE_ECHO_REPLY, 3, 0, 5);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	n = gen_echo(p, 9, WIRE_ECHO_REQUEST, 1, 2, 1);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	for (i = 0; i < 30; i++) {
		n = gen_echo(p, 50, WIRE_ECHO_REQUEST, 1, 0, 1);
		gen_rec(K_FROM(1) | K_DST_US, i == 25 ? 2 : 0, p, n);
	}
	t_seed_flush(&gen_seed);
}

/* TRACEs: to forward, expiring here (answered via node 3 on B; a flood
 * of them from one source with a pause; from a source we have no route
 * to), for us (a request; one that says it is a reply); TTLXs: for us
 * (matching no probe of ours), to forward, expiring. */
static void
gen_mesh_trace(void)
{
	uint8_t p[2048], body[WIRE_TTLX_BODY_LEN];
	struct wire_echo e = { WIRE_ECHO_REQUEST, 0x5150, 4 };
	size_t n;
	int i;

	wire_echo_body_put(body, &e);
	n = gen_sealed(p, WIRE_T_TRACE, 9, 1, 2, 1, body, WIRE_ECHO_BODY_LEN);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_sealed(p, WIRE_T_TRACE, 1, 1, 2, 5, body, WIRE_ECHO_BODY_LEN);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_sealed(p, WIRE_T_TRACE, 1, 1, 2, 4, body, WIRE_ECHO_BODY_LEN);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_sealed(p, WIRE_T_TRACE, 50, 1, 0, 5, body, WIRE_ECHO_BODY_LEN);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	e.kind = WIRE_ECHO_REPLY;
	wire_echo_body_put(body, &e);
	n = gen_sealed(p, WIRE_T_TRACE, 50, 1, 0, 5, body, WIRE_ECHO_BODY_LEN);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	wire_ttlx_body_put(body, &(struct wire_ttlx){ gen_addr[2], 77 });
	n = gen_sealed(p, WIRE_T_TTLX, 50, 3, 0, 5, body, sizeof(body));
	gen_rec(K_FROM(3) | K_IF_B | K_DST_US, 0, p, n);
	n = gen_sealed(p, WIRE_T_TTLX, 9, 1, 2, 5, body, sizeof(body));
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_sealed(p, WIRE_T_TTLX, 1, 1, 2, 5, body, sizeof(body));
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	e.kind = WIRE_ECHO_REQUEST;
	wire_echo_body_put(body, &e);
	for (i = 0; i < 40; i++) {
		n = gen_sealed(p, WIRE_T_TRACE, 1, 1, 2, i & 1 ? 5 : 1, body,
		    WIRE_ECHO_BODY_LEN);
		gen_rec(K_FROM(1) | K_DST_US, i == 30 ? 1 : 0, p, n);
	}
	t_seed_flush(&gen_seed);
}

static void
gen_mesh_unicast(void)
{
	uint8_t inner[2048], p[2048], mac[BS_ADDR_LEN];
	size_t il, n;

	gen_client(1, mac);
	il = gen_eth(inner, mac, 0, 100);
	/* For us, and the same frame again (replay). */
	n = gen_unicast(p, 50, 1, 0, 5, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	/* To forward to node 2 (B), and at the end of its TTL. */
	n = gen_unicast(p, 50, 1, 2, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	n = gen_unicast(p, 1, 3, 2, 1, inner, il);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	/* Minimum inner frame. */
	il = gen_eth(inner, mac, 0, 14);
	n = gen_unicast(p, 9, 2, 0, 5, inner, il);
	gen_rec(K_FROM(2) | K_IF_B | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
	/* From a host that is not a neighbour; to a group address; tagged
	 * for node 1's link but sent by node 3. */
	n = gen_unicast(p, 9, 1, 0, 5, inner, il);
	gen_rec(K_FROM(4) | K_DST_US, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_GROUP, 0, p, n);
	gen_rec(K_FROM(1) | K_DST_OTHER, 0, p, n);
	gen_rec(K_FROM(3) | K_DST_US, 0, p, n);
	t_seed_flush(&gen_seed);
}

static void
gen_mesh_bcast(void)
{
	uint8_t inner[2048], p[2048];
	size_t il, n;

	il = gen_eth(inner, gen_bc, 0, 60);
	/* New, duplicate via another neighbour, next, our own. */
	n = gen_bcast(p, 50, 7, 5, 3, inner, il);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_BCAST, 0, p, n);
	n = gen_bcast(p, 50, 7, 5, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	n = gen_bcast(p, 50, 8, 5, 2, inner, il);
	gen_rec(K_FROM(2) | K_IF_B | K_DST_BCAST, 1, p, n);
	n = gen_bcast(p, 50, 1, 0, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	t_seed_flush(&gen_seed);
	/* TTL 1; and a long pause before the next of node 6. */
	n = gen_bcast(p, 1, 5000, 6, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	n = gen_bcast(p, 9, 3, 6, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 40, p, n);
	t_seed_flush(&gen_seed);
	/* A large one that does not fit interface B. */
	il = gen_eth(inner, gen_bc, 0, WIRE_INNER_MAX);
	n = gen_bcast(p, 9, 1, 2, 1, inner, il);
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
	n = gen_unicast(p, 50, 1, 2, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 30, p, n);
	gen_rec(K_TAP, 61, inner, il);		/* the route has expired */
	n = gen_unicast(p, 50, 1, 2, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_bcast(p, 50, 1, 5, 3, inner, il);
	gen_rec(K_FROM(3) | K_DST_BCAST, 255, p, n);
	t_seed_flush(&gen_seed);
}

/* An IPv4 UDP frame from client 9 to dst, ports sp -> dp (DHCP). */
static size_t
gen_udp4(uint8_t *buf, const uint8_t *dst, uint16_t sp, uint16_t dport)
{
	size_t len = gen_eth(buf, dst, 0, 14 + 20 + 8 + 240);

	memset(buf + 14, 0, len - 14);
	buf[14] = 0x45;
	buf[23] = 17;
	buf[34] = (uint8_t)(sp >> 8);
	buf[35] = (uint8_t)sp;
	buf[36] = (uint8_t)(dport >> 8);
	buf[37] = (uint8_t)dport;
	return len;
}

/*
 * Gateway client mode (node 5 selected): a DHCP request from the TAP
 * steered to node 5; DHCP answers as UNICAST and BCAST from node 1 (not
 * delivered) and node 5 (delivered); mode off again, a request flooded.
 */
static void
gen_gw(void)
{
	uint8_t inner[2048], p[2048], mac[BS_ADDR_LEN];
	size_t il, n;

	il = gen_udp4(inner, gen_bc, 68, 67);
	gen_rec(K_TAP | K_GW, 0, inner, il);
	gen_client(9, mac);
	il = gen_udp4(inner, mac, 67, 68);
	n = gen_unicast(p, 50, 1, 0, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_US, 0, p, n);
	n = gen_unicast(p, 50, 3, 0, 5, inner, il);
	gen_rec(K_FROM(3) | K_DST_US, 0, p, n);
	il = gen_udp4(inner, gen_bc, 67, 68);
	n = gen_bcast(p, 50, 7, 1, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	n = gen_bcast(p, 50, 8, 5, 3, inner, il);
	gen_rec(K_FROM(3) | K_DST_BCAST, 0, p, n);
	il = gen_udp4(inner, gen_bc, 68, 67);
	gen_rec(K_TAP | K_GW, 0, inner, il);
	t_seed_flush(&gen_seed);
}

/* fd00::n, its solicited-node group as IPv6 and Ethernet addresses. */
static void
gen_ip6(unsigned n, uint8_t ip[16], uint8_t grp[16], uint8_t eth[6])
{
	static const uint8_t sn[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff };

	memset(ip, 0, 16);
	ip[0] = 0xfd;
	ip[15] = (uint8_t)n;
	memcpy(grp, sn, 16);
	grp[15] = (uint8_t)n;
	memcpy(eth, (const uint8_t[]){ 0x33, 0x33, 0xff, 0, 0, 0 }, 6);
	eth[5] = (uint8_t)n;
}

/*
 * The answer cache (fwd_dat.h): mappings of clients of nodes 1 and 5
 * (VLAN 10) in BCASTs and a UNICAST, in ARP and neighbour advertisements
 * (one of a client node 1 does not claim), then the TAP's client 9 asking
 * for them (answered), a DAD solicitation and one with a bad hop limit
 * (flooded), and client 9's own reply and advertisement (announced).
 */
static void
gen_dat(void)
{
	static const uint8_t all[16] = { 0xff, 0x02, [15] = 1 };
	static const uint8_t eall[6] = { 0x33, 0x33, 0, 0, 0, 1 };
	uint8_t inner[2048], p[2048], mac[6], me[6], ip[16], grp[16], eg[6];
	uint8_t my[16], v4[4] = { 10, 0, 0, 2 }, v4me[4] = { 10, 0, 0, 9 };
	size_t il, n;

	gen_client(9, me);
	gen_ip6(9, my, grp, eg);
	gen_client(2, mac);
	il = t_arp(inner, 2, gen_bc, mac, v4, gen_bc, v4, 0);
	n = gen_bcast(p, 50, 20, 1, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	gen_client(1, mac);
	gen_ip6(1, ip, grp, eg);
	il = t_nd(inner, 136, eall, mac, ip, all, ip, 0x20, mac, 0);
	n = gen_bcast(p, 50, 21, 1, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	gen_client(6, mac);
	gen_ip6(6, ip, grp, eg);
	il = t_nd(inner, 136, eall, mac, ip, all, ip, 0xa0, mac, 10);
	n = gen_bcast(p, 50, 22, 5, 3, inner, il);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_BCAST, 0, p, n);
	gen_client(5, mac);
	gen_ip6(5, ip, grp, eg);
	il = t_nd(inner, 136, me, mac, ip, my, ip, 0x60, mac, 0);
	n = gen_unicast(p, 50, 3, 0, 5, inner, il);
	gen_rec(K_FROM(3) | K_IF_B | K_DST_US, 0, p, n);
	gen_ip6(7, ip, grp, eg);
	il = t_nd(inner, 136, eall, mac, ip, all, ip, 0x20, mac, 0);
	n = gen_bcast(p, 50, 23, 1, 1, inner, il);
	gen_rec(K_FROM(1) | K_DST_BCAST, 0, p, n);
	/* Client 9 asks. */
	il = t_arp(inner, 1, gen_bc, me, v4me, gen_bc, v4, 0);
	gen_rec(K_TAP, 0, inner, il);
	gen_ip6(1, ip, grp, eg);
	il = t_nd(inner, 135, eg, me, my, grp, ip, 0, me, 0);
	gen_rec(K_TAP, 0, inner, il);
	gen_ip6(6, ip, grp, eg);
	il = t_nd(inner, 135, eg, me, my, grp, ip, 0, me, 10);
	gen_rec(K_TAP, 0, inner, il);
	gen_ip6(5, ip, grp, eg);
	il = t_nd(inner, 135, eg, me, my, grp, ip, 0, me, 0);
	gen_rec(K_TAP, 0, inner, il);
	il = t_nd(inner, 135, eg, me, (const uint8_t[16]){ 0 }, grp, ip, 0,
	    NULL, 0);
	gen_rec(K_TAP, 0, inner, il);
	il = t_nd(inner, 135, eg, me, my, grp, ip, 0, me, 0);
	inner[14 + 7] = 64;
	gen_rec(K_TAP, 0, inner, il);
	/* Its own answers, to client 1. */
	gen_client(1, mac);
	il = t_arp(inner, 2, mac, me, v4me, mac, v4, 0);
	gen_rec(K_TAP, 0, inner, il);
	gen_ip6(1, ip, grp, eg);
	il = t_nd(inner, 136, mac, me, my, ip, my, 0x60, me, 0);
	gen_rec(K_TAP, 0, inner, il);
	t_seed_flush(&gen_seed);
}

int
main(int argc, char **argv)
{
	uint8_t mac0[BS_ADDR_LEN], mac[BS_ADDR_LEN];
	unsigned i;

	t_seed_main(argc, argv, "gen_data", T_SEED_SHA256);
	for (i = 0; i < GEN_NODES; i++)
		t_ident_addr(&gen_id[i], gen_addr[i], (uint8_t)(0x40 + i));
	gen_mac(0, mac0);
	for (i = 1; i < GEN_NODES; i++) {
		gen_mac(i, mac);
		t_link_keys(&gen_link[i], (struct t_end){ &gen_id[i], mac,
		    gen_epoch(i), NULL }, (struct t_end){ &gen_id[0], mac0,
		    gen_epoch(0), NULL });
	}
	gen_tap();
	gen_mesh_unicast();
	gen_mesh_echo();
	gen_mesh_bcast();
	gen_mixed();
	gen_gw();
	gen_mesh_trace();
	gen_dat();			/* last: the seeds before stay */
	return 0;
}
