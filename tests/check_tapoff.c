/*
 * check_tapoff.c — unit tests of the TAP offloads (src/netio/tapoff.c).
 *
 * Packets are built here from recipes, with checksums computed by this
 * file's own small RFC 1071 code (not tapoff_sum), so a checksum bug in
 * the module cannot hide itself.  The expected segments of a TSO packet
 * are built independently from the same recipe and compared byte for
 * byte; a joined packet is checked field by field, then cut again by
 * tapoff_tx() and compared with the segments it was made of.  Packets
 * handed to the module are malloc'ed to their exact length so ASan sees
 * any read or write past the end.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bs_bytes.h"
#include "netio/tapoff.h"
#include "lib/t_check.h"
#include "lib/t_csum.h"

#define T_BUF		(TAPOFF_PKT_MAX + 64)
#define T_CAP_N		256
#define T_ARENA		(3u * 65536u + T_CAP_N * 1600u)

/* virtio_net_hdr (linux/virtio_net.h), native endian. */
#define V_NEEDS_CSUM	1
#define V_DATA_VALID	2
#define V_GSO_NONE	0
#define V_GSO_TCPV4	1
#define V_GSO_UDP	3
#define V_GSO_TCPV6	4
#define V_GSO_UDP_L4	5
#define V_GSO_ECN	0x80

#define F_FIN	0x01
#define F_SYN	0x02
#define F_RST	0x04
#define F_PSH	0x08
#define F_ACK	0x10
#define F_URG	0x20
#define F_ECE	0x40
#define F_CWR	0x80

#define P_ICMP	1
#define P_TCP	6
#define P_UDP	17

/* ---- the virtio header --------------------------------------------------- */

static void
vnet_make(uint8_t v[TAPOFF_VNET_LEN], uint8_t flags, uint8_t gso,
    uint16_t hdr_len, uint16_t gso_size, uint16_t cstart, uint16_t coff)
{
	v[0] = flags;
	v[1] = gso;
	memcpy(v + 2, &hdr_len, 2);
	memcpy(v + 4, &gso_size, 2);
	memcpy(v + 6, &cstart, 2);
	memcpy(v + 8, &coff, 2);
}

/* Field at byte offset off (2, 4, 6 or 8) of a virtio header. */
static uint16_t
vnet16(const uint8_t *v, size_t off)
{
	uint16_t x;

	memcpy(&x, v + off, 2);
	return x;
}

/* ---- packets ------------------------------------------------------------- */

/* A recipe for one Ethernet frame carrying TCP, UDP or ICMP. */
struct pk {
	int v6, vlan;
	uint8_t proto;		/* P_TCP, P_UDP, P_ICMP */
	unsigned ihl;		/* IPv4 header words */
	uint8_t tos, ttl, mac_x, dst_x;
	uint16_t ipid, frag;	/* IPv4 ID, flags + fragment offset */
	uint32_t flow;		/* IPv6 flow label */
	uint16_t sport, dport, win;
	uint32_t seq, ack;
	uint8_t flags;
	int ts;			/* NOP NOP timestamps: 12 option bytes */
	uint32_t tsval;
};

static struct pk
pk_base(int v6)
{
	struct pk k;

	memset(&k, 0, sizeof(k));
	k.v6 = v6;
	k.proto = P_TCP;
	k.ihl = 5;
	k.ttl = 64;
	k.frag = 0x4000;	/* DF */
	k.flow = 0x12345;
	k.sport = 40000;
	k.dport = 80;
	k.win = 502;
	k.seq = 0x01000000;
	k.ack = 0xabcdef01;
	k.flags = F_ACK;
	k.ts = 1;
	k.tsval = 777;
	return k;
}

static size_t
pk_l3(const struct pk *k)
{
	return k->vlan ? 18 : 14;
}

static size_t
pk_l4(const struct pk *k)
{
	return pk_l3(k) + (k->v6 ? 40 : k->ihl * 4);
}

static size_t
pk_l4h(const struct pk *k)
{
	if (k->proto == P_TCP)
		return 20 + (k->ts ? 12 : 0);
	return 8;
}

/* Ethernet + IP + L4 header length. */
static size_t
pk_hlen(const struct pk *k)
{
	return pk_l4(k) + pk_l4h(k);
}

/* Payload byte i of a stream: not periodic at any small period. */
static uint8_t
pay_byte(size_t i)
{
	return (uint8_t)(i * 7 + (i >> 8) * 13 + (i >> 13));
}

static void
pay_fill(uint8_t *p, size_t off, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = pay_byte(off + i);
}

static void
pk_eth(uint8_t *b, const struct pk *k)
{
	static const uint8_t macs[12] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01
	};

	memcpy(b, macs, 12);
	b[11] ^= k->mac_x;
	if (k->vlan) {
		bs_put16(b + 12, 0x8100);
		bs_put16(b + 14, 0x0064);
	}
	bs_put16(b + pk_l3(k) - 2, k->v6 ? 0x86dd : 0x0800);
}

static void
pk_ip(uint8_t *ip, const struct pk *k, size_t l4len)
{
	size_t i, ihl = k->ihl * 4;

	if (k->v6) {
		bs_put32(ip, 0x60000000u | (uint32_t)k->tos << 20 | k->flow);
		bs_put16(ip + 4, (uint16_t)l4len);
		ip[6] = k->proto;
		ip[7] = k->ttl;
		memset(ip + 8, 0, 32);
		ip[8] = 0xfd;
		ip[23] = 1;
		ip[24] = 0xfd;
		ip[39] = (uint8_t)(2 ^ k->dst_x);
		return;
	}
	ip[0] = (uint8_t)(0x40 | k->ihl);
	ip[1] = k->tos;
	bs_put16(ip + 2, (uint16_t)(ihl + l4len));
	bs_put16(ip + 4, k->ipid);
	bs_put16(ip + 6, k->frag);
	ip[8] = k->ttl;
	ip[9] = k->proto;
	bs_put16(ip + 10, 0);
	bs_put32(ip + 12, 0x0a000001);
	bs_put32(ip + 16, 0x0a000002u ^ k->dst_x);
	for (i = 20; i < ihl; i++)
		ip[i] = i + 1 < ihl ? 0x01 : 0x00;	/* NOPs, EOL */
	bs_put16(ip + 10, (uint16_t)~t_csum_fold(t_csum_add(0, ip, ihl)));
}

static void
pk_tcp(uint8_t *th, const struct pk *k)
{
	bs_put16(th, k->sport);
	bs_put16(th + 2, k->dport);
	bs_put32(th + 4, k->seq);
	bs_put32(th + 8, k->ack);
	th[12] = (uint8_t)((k->ts ? 8 : 5) << 4);
	th[13] = k->flags;
	bs_put16(th + 14, k->win);
	bs_put16(th + 16, 0);
	bs_put16(th + 18, 0);
	if (k->ts) {
		bs_put32(th + 20, 0x0101080a);
		bs_put32(th + 24, k->tsval);
		bs_put32(th + 28, 4242);
	}
}

/*
 * The frame of recipe k with payload pay (plen bytes) into b: valid
 * IPv4 header and L4 checksums (UDP's 0 sent as 0xffff).  Its length.
 */
static size_t
pk_build(uint8_t *b, const struct pk *k, const uint8_t *pay, size_t plen)
{
	size_t l3 = pk_l3(k), l4 = pk_l4(k), l4len = pk_l4h(k) + plen;
	uint8_t *th = b + l4;
	uint16_t c;

	ck_assert_uint_le(l4 + l4len, T_BUF);
	pk_eth(b, k);
	pk_ip(b + l3, k, l4len);
	if (k->proto == P_TCP)
		pk_tcp(th, k);
	else {
		bs_put16(th, k->proto == P_UDP ? k->sport : 0x0800);
		bs_put16(th + 2, k->proto == P_UDP ? k->dport : 0);
		bs_put16(th + 4, k->proto == P_UDP ? (uint16_t)l4len : 0x1234);
		bs_put16(th + 6, k->proto == P_UDP ? 0 : 1);
	}
	memcpy(th + pk_l4h(k), pay, plen);
	if (k->proto == P_ICMP) {
		bs_put16(th + 2, (uint16_t)~t_csum_fold(t_csum_add(0, th,
		    l4len)));
		return l4 + l4len;
	}
	c = (uint16_t)~t_csum_fold(t_csum_pseudo(b + l3, k->v6, k->proto,
	    l4len) + t_csum_add(0, th, l4len));
	if (k->proto == P_UDP && c == 0)
		c = 0xffff;
	bs_put16(th + (k->proto == P_TCP ? 16 : 6), c);
	return l4 + l4len;
}

/* The TCP checksum of frame f verifies (IPv4 header too). */
static int
tcp_ok(const uint8_t *f, size_t len, size_t l3, int v6)
{
	size_t l4 = l3 + (v6 ? 40 : (size_t)(f[l3] & 15) * 4);

	if (!v6 && t_csum_fold(t_csum_add(0, f + l3, l4 - l3)) != 0xffff)
		return 0;
	return t_csum_fold(t_csum_pseudo(f + l3, v6, P_TCP, len - l4) +
	    t_csum_add(0, f + l4, len - l4)) == 0xffff;
}

/* ---- capturing what the module emits and writes --------------------------- */

struct cap {
	uint8_t *arena;
	size_t used;
	unsigned n;
	size_t off[T_CAP_N], len[T_CAP_N];
	uint8_t vnet[T_CAP_N][TAPOFF_VNET_LEN];
	unsigned fail_from;	/* writes from this number (1-based) fail */
	unsigned fail_only;	/* only this write (1-based) fails */
};

static struct cap *
cap_new(void)
{
	struct cap *c = calloc(1, sizeof(*c));

	ck_assert_ptr_nonnull(c);
	c->arena = malloc(T_ARENA);
	ck_assert_ptr_nonnull(c->arena);
	return c;
}

static void
cap_free(struct cap *c)
{
	free(c->arena);
	free(c);
}

static void
cap_reset(struct cap *c)
{
	c->used = 0;
	c->n = 0;
}

static void
cap_store(struct cap *c, const uint8_t *vnet, const uint8_t *p, size_t len)
{
	ck_assert_uint_lt(c->n, T_CAP_N);
	ck_assert_uint_le(len, T_ARENA - c->used);
	memcpy(c->arena + c->used, p, len);
	if (vnet != NULL)
		memcpy(c->vnet[c->n], vnet, TAPOFF_VNET_LEN);
	c->off[c->n] = c->used;
	c->len[c->n] = len;
	c->used += len;
	c->n++;
}

static const uint8_t *
cap_pkt(const struct cap *c, unsigned i)
{
	ck_assert_uint_lt(i, c->n);
	return c->arena + c->off[i];
}

static void
cap_emit(void *arg, const uint8_t *frame, size_t len)
{
	cap_store(arg, NULL, frame, len);
}

static int
cap_write(void *arg, const uint8_t vnet[TAPOFF_VNET_LEN], const uint8_t *pkt,
    size_t len)
{
	struct cap *c = arg;
	unsigned k;

	cap_store(c, vnet, pkt, len);
	k = c->n;
	if ((c->fail_from != 0 && k >= c->fail_from) || k == c->fail_only)
		return -1;
	return 0;
}

static void
assert_same(const uint8_t *got, size_t glen, const uint8_t *want,
    size_t wlen, const char *what, unsigned i)
{
	size_t j;

	ck_assert_msg(glen == wlen, "%s %u: length %zu, want %zu", what, i,
	    glen, wlen);
	for (j = 0; j < wlen; j++)
		ck_assert_msg(got[j] == want[j],
		    "%s %u: byte %zu is 0x%02x, want 0x%02x", what, i, j,
		    got[j], want[j]);
}

static void
assert_vnet_zero(const struct cap *c, unsigned i)
{
	static const uint8_t zero[TAPOFF_VNET_LEN];

	ck_assert_msg(memcmp(c->vnet[i], zero, TAPOFF_VNET_LEN) == 0,
	    "write %u: virtio header not all zero", i);
}

/* ---- the checksum helpers ------------------------------------------------ */

static const struct {
	uint8_t data[9];
	size_t len;
	uint64_t acc;
	uint16_t folded;	/* tapoff_fold(tapoff_sum(acc, data, len)) */
} sum_cases[] = {
	/* RFC 1071 4.1: the sum is 0xddf2, its complement 0x220d. */
	{ { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 }, 8, 0, 0x220d },
	{ { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7, 0x01 }, 9, 0,
	    0x210d },
	{ { 0x01 }, 1, 0, 0xfeff },
	{ { 0 }, 0, 0, 0xffff },
	{ { 0 }, 0, 0xffff, 0x0000 },
	{ { 0xff, 0xff }, 2, 0, 0x0000 },
	{ { 0x12, 0x34 }, 2, 0x10000, 0xedca },
	{ { 0 }, 0, 0xffffffffffffull, 0x0000 },
	{ { 0x80, 0x00, 0x80, 0x00 }, 4, 0, 0xfffe },
};

START_TEST(test_sum)
{
	ck_assert_uint_eq(tapoff_fold(tapoff_sum(sum_cases[_i].acc,
	    sum_cases[_i].data, sum_cases[_i].len)), sum_cases[_i].folded);
}
END_TEST

/* A long buffer summed whole, in even pieces and by this file agree. */
START_TEST(test_sum_long)
{
	static uint8_t b[70001];
	uint64_t s;

	pay_fill(b, 3, sizeof(b));
	s = tapoff_sum(tapoff_sum(0, b, 4096), b + 4096, sizeof(b) - 4096);
	ck_assert_uint_eq(tapoff_fold(s), (uint16_t)~t_csum_fold(t_csum_add(0,
	    b, sizeof(b))));
	ck_assert_uint_eq(tapoff_fold(tapoff_sum(0, b, sizeof(b))),
	    tapoff_fold(s));
}
END_TEST

/* ---- TSO ------------------------------------------------------------------- */

struct tso_case {
	const char *name;
	int v6, vlan, ts;
	unsigned ihl;
	uint8_t flags, ecn;
	uint16_t ipid;
	size_t plen, mss;
	int roundtrip;
};

static const struct tso_case tso_cases[] = {
	/* 45 x 1448, as Linux sizes a TSO packet; IDs wrap. */
	{ "v4 64K", 0, 0, 1, 5, F_ACK | F_PSH, 0, 0xfff0, 65160, 1448, 1 },
	{ "v6 64K", 1, 0, 1, 5, F_ACK | F_PSH, 0, 0, 65160, 1448, 1 },
	/*
	 * 20 + 32 + 65483 = 65535, the largest IPv4 packet, and 40 + 32 +
	 * 65463 for IPv6: 45 segments and a short 46th.
	 */
	{ "v4 max", 0, 0, 1, 5, F_ACK | F_PSH, 0, 0xffff, 65483, 1448, 0 },
	{ "v6 max", 1, 0, 1, 5, F_ACK | F_PSH, 0, 0, 65463, 1448, 0 },
	{ "v4 vlan flags", 0, 1, 0, 5, F_ACK | F_PSH | F_FIN | F_CWR,
	    V_GSO_ECN, 7, 5000, 1000, 0 },
	{ "v4 options", 0, 0, 1, 7, F_ACK, 0, 300, 3000, 1448, 0 },
	{ "v6 vlan fin", 1, 1, 0, 5, F_ACK | F_FIN | F_CWR | F_ECE, 0, 0,
	    2897, 1448, 0 },
	{ "one segment", 0, 0, 1, 5, F_ACK | F_PSH, 0, 1, 1448, 1448, 0 },
};

static struct pk
tso_recipe(const struct tso_case *tc)
{
	struct pk k = pk_base(tc->v6);

	k.vlan = tc->vlan;
	k.ts = tc->ts;
	k.ihl = tc->ihl;
	k.flags = tc->flags;
	k.ipid = tc->ipid;
	return k;
}

/*
 * The TSO packet of recipe k (payload plen from stream offset 0) as the
 * host's TCP stack hands it over: its checksum field holds the
 * pseudo-header sum.  Its length; vnet filled.
 */
static size_t
tso_build(uint8_t *b, uint8_t vnet[TAPOFF_VNET_LEN], const struct pk *k,
    size_t plen, size_t mss, uint8_t ecn)
{
	static uint8_t pay[65536];
	size_t len, l4 = pk_l4(k);

	pay_fill(pay, 0, plen);
	len = pk_build(b, k, pay, plen);
	bs_put16(b + l4 + 16, t_csum_fold(t_csum_pseudo(b + pk_l3(k), k->v6,
	    P_TCP, len - l4)));
	vnet_make(vnet, V_NEEDS_CSUM, (uint8_t)((k->v6 ? V_GSO_TCPV6 :
	    V_GSO_TCPV4) | ecn), (uint16_t)pk_hlen(k), (uint16_t)mss,
	    (uint16_t)l4, 16);
	return len;
}

/* Segment i of the TSO packet of recipe k, built from the recipe. */
static size_t
tso_expect(uint8_t *b, const struct pk *k0, size_t plen, size_t mss,
    unsigned i, uint16_t id0)
{
	static uint8_t pay[65536];
	struct pk k = *k0;
	size_t off = (size_t)i * mss;
	size_t n = plen - off < mss ? plen - off : mss;
	int last = off + n == plen;

	k.seq = k0->seq + (uint32_t)off;
	k.ipid = (uint16_t)(id0 + i);
	if (!last)
		k.flags &= (uint8_t)~(F_FIN | F_PSH);
	if (i > 0)
		k.flags &= (uint8_t)~F_CWR;
	pay_fill(pay, off, n);
	return pk_build(b, &k, pay, n);
}

/* The frames in c are the segments of recipe k, byte for byte. */
static void
tso_check(const struct cap *c, const struct pk *k, size_t plen, size_t mss,
    uint16_t id0)
{
	static uint8_t want[T_BUF];
	unsigned i, nseg = (unsigned)((plen + mss - 1) / mss);
	size_t wlen;

	ck_assert_uint_eq(c->n, nseg);
	for (i = 0; i < nseg; i++) {
		wlen = tso_expect(want, k, plen, mss, i, id0);
		assert_same(cap_pkt(c, i), c->len[i], want, wlen, "segment",
		    i);
		ck_assert(tcp_ok(cap_pkt(c, i), c->len[i], pk_l3(k), k->v6));
	}
}

/*
 * Feed the segments in c to the joiner: one write, a GSO packet whose
 * fields are checked; then cut it again and compare.
 */
static void
tso_roundtrip(const struct cap *segs, const struct pk *k, size_t plen,
    size_t mss)
{
	static uint8_t gbuf[TAPOFF_PKT_MAX];
	struct tapoff_stats st;
	struct tapoff_gro g;
	struct cap *w = cap_new(), *again = cap_new();
	size_t l3 = pk_l3(k), l4 = pk_l4(k), hlen = pk_hlen(k), jlen;
	const uint8_t *j, *ip;
	uint8_t *pkt, *seg;
	unsigned i;

	memset(&st, 0, sizeof(st));
	tapoff_gro_init(&g, gbuf);
	for (i = 0; i < segs->n; i++)
		ck_assert_int_eq(tapoff_gro_add(&g, cap_pkt(segs, i),
		    segs->len[i], cap_write, w, &st), 0);
	/* The last segment carries PSH: written at once. */
	ck_assert_uint_eq(w->n, 1);
	ck_assert_int_eq(tapoff_gro_flush(&g, cap_write, w, &st), 0);
	ck_assert_uint_eq(w->n, 1);
	ck_assert_uint_eq(st.gro_out, 1);
	ck_assert_uint_eq(st.gro_segs, segs->n);

	j = cap_pkt(w, 0);
	jlen = w->len[0];
	ip = j + l3;
	ck_assert_uint_eq(jlen, hlen + plen);
	ck_assert_uint_eq(w->vnet[0][0], V_NEEDS_CSUM);
	ck_assert_uint_eq(w->vnet[0][1], k->v6 ? V_GSO_TCPV6 : V_GSO_TCPV4);
	ck_assert_uint_eq(vnet16(w->vnet[0], 2), hlen);
	ck_assert_uint_eq(vnet16(w->vnet[0], 4), mss);
	ck_assert_uint_eq(vnet16(w->vnet[0], 6), l4);
	ck_assert_uint_eq(vnet16(w->vnet[0], 8), 16);
	/* Headers: the first segment's, lengths and checksums redone. */
	ck_assert_mem_eq(j, cap_pkt(segs, 0), l3);
	if (k->v6)
		ck_assert_uint_eq(bs_get16(ip + 4), jlen - l4);
	else {
		ck_assert_uint_eq(bs_get16(ip + 2), jlen - l3);
		ck_assert_uint_eq(bs_get16(ip + 4), k->ipid);
		ck_assert_uint_eq(t_csum_fold(t_csum_add(0, ip, l4 - l3)),
		    0xffff);
	}
	ck_assert_uint_eq(bs_get32(j + l4 + 4), k->seq);
	ck_assert_uint_eq(j[l4 + 13], F_ACK | F_PSH);
	ck_assert_uint_eq(bs_get16(j + l4 + 16), t_csum_fold(t_csum_pseudo(ip,
	    k->v6, P_TCP, jlen - l4)));
	for (i = 0; i < plen; i++)
		ck_assert_msg(j[hlen + i] == pay_byte(i), "payload byte %u", i);

	/* Back through tapoff_tx: the same segments, byte for byte. */
	pkt = t_dup(j, jlen);
	seg = malloc(hlen + mss);
	ck_assert_ptr_nonnull(seg);
	memset(&st, 0, sizeof(st));
	ck_assert_uint_eq(tapoff_tx(w->vnet[0], pkt, jlen, seg, hlen + mss,
	    cap_emit, again, &st), segs->n);
	ck_assert_uint_eq(again->n, segs->n);
	for (i = 0; i < segs->n; i++)
		assert_same(cap_pkt(again, i), again->len[i], cap_pkt(segs, i),
		    segs->len[i], "re-cut segment", i);
	free(seg);
	free(pkt);
	cap_free(w);
	cap_free(again);
}

START_TEST(test_tso)
{
	static uint8_t b[T_BUF];
	const struct tso_case *tc = &tso_cases[_i];
	struct pk k = tso_recipe(tc);
	struct tapoff_stats st;
	struct cap *c = cap_new();
	uint8_t vnet[TAPOFF_VNET_LEN], *pkt, *seg;
	size_t len, fmax = pk_hlen(&k) + tc->mss;
	size_t n = (tc->plen + tc->mss - 1) / tc->mss;

	len = tso_build(b, vnet, &k, tc->plen, tc->mss, tc->ecn);
	/* The largest segment exactly fills frame_max. */
	pkt = t_dup(b, len);
	seg = malloc(fmax);
	ck_assert_ptr_nonnull(seg);
	memset(&st, 0, sizeof(st));
	ck_assert_uint_eq(tapoff_tx(vnet, pkt, len, seg, fmax, cap_emit, c,
	    &st), n);
	ck_assert_uint_eq(st.tso_in, 1);
	ck_assert_uint_eq(st.tso_segs, n);
	ck_assert_uint_eq(st.tx_bad, 0);
	tso_check(c, &k, tc->plen, tc->mss, tc->ipid);
	if (tc->roundtrip)
		tso_roundtrip(c, &k, tc->plen, tc->mss);
	free(seg);
	free(pkt);

	/* One byte less: the whole packet is refused. */
	cap_reset(c);
	pkt = t_dup(b, len);
	seg = malloc(fmax - 1);
	ck_assert_ptr_nonnull(seg);
	memset(&st, 0, sizeof(st));
	ck_assert_uint_eq(tapoff_tx(vnet, pkt, len, seg, fmax - 1, cap_emit,
	    c, &st), 0);
	ck_assert_uint_eq(c->n, 0);
	ck_assert_uint_eq(st.tx_bad, 1);
	free(seg);
	free(pkt);
	cap_free(c);
}
END_TEST

/* ---- checksum completion ------------------------------------------------- */

struct csum_case {
	const char *name;
	int v6, vlan;
	uint8_t proto;
	size_t plen;
	int zero;	/* payload chosen so the checksum comes out 0 */
};

static const struct csum_case csum_cases[] = {
	{ "tcp v4", 0, 0, P_TCP, 1000, 0 },
	{ "tcp v6 vlan", 1, 1, P_TCP, 1, 0 },
	{ "udp v4", 0, 0, P_UDP, 513, 0 },
	{ "udp v6", 1, 0, P_UDP, 0, 0 },
	{ "udp v4 zero", 0, 0, P_UDP, 100, 1 },
	{ "udp v6 zero", 1, 0, P_UDP, 64, 1 },
};

START_TEST(test_csum)
{
	static uint8_t want[T_BUF], pay[2048];
	const struct csum_case cc = csum_cases[_i];
	struct pk k = pk_base(cc.v6);
	struct tapoff_stats st;
	struct cap *c = cap_new();
	uint8_t vnet[TAPOFF_VNET_LEN], *pkt, *seg;
	size_t len, l4, coff = cc.proto == P_TCP ? 16 : 6;
	uint16_t field;

	k.vlan = cc.vlan;
	k.proto = cc.proto;
	l4 = pk_l4(&k);
	pay_fill(pay, 9, cc.plen);
	if (cc.zero) {
		/* The checksum as the last payload word makes the sum 0. */
		pay[cc.plen - 2] = pay[cc.plen - 1] = 0;
		len = pk_build(want, &k, pay, cc.plen);
		memcpy(pay + cc.plen - 2, want + l4 + coff, 2);
	}
	len = pk_build(want, &k, pay, cc.plen);
	if (cc.zero)
		ck_assert_uint_eq(bs_get16(want + l4 + coff), 0xffff);
	field = t_csum_fold(t_csum_pseudo(want + pk_l3(&k), k.v6, cc.proto,
	    len - l4));
	pkt = t_dup(want, len);
	bs_put16(pkt + l4 + coff, field);
	vnet_make(vnet, V_NEEDS_CSUM, V_GSO_NONE, 0, 0, (uint16_t)l4,
	    (uint16_t)coff);
	seg = malloc(len);
	ck_assert_ptr_nonnull(seg);
	memset(&st, 0, sizeof(st));
	ck_assert_uint_eq(tapoff_tx(vnet, pkt, len, seg, len, cap_emit, c,
	    &st), 1);
	ck_assert_uint_eq(c->n, 1);
	ck_assert_uint_eq(st.csum_done, 1);
	ck_assert_uint_eq(st.tx_bad, 0);
	assert_same(cap_pkt(c, 0), c->len[0], want, len, "frame", 0);
	/* And it verifies by summing, pseudo-header included. */
	ck_assert_uint_eq(t_csum_fold(t_csum_pseudo(want + pk_l3(&k), k.v6,
	    cc.proto, len - l4) + t_csum_add(0, cap_pkt(c, 0) + l4, len - l4)),
	    0xffff);
	free(seg);
	free(pkt);
	cap_free(c);
}
END_TEST

/* No NEEDS_CSUM: the frame goes out as it is; too long: refused. */
START_TEST(test_plain_frame)
{
	static uint8_t b[T_BUF], pay[600];
	struct pk k = pk_base(0);
	struct tapoff_stats st;
	struct cap *c = cap_new();
	uint8_t vnet[TAPOFF_VNET_LEN], *pkt, seg[1514];
	size_t len;

	pay_fill(pay, 0, sizeof(pay));
	len = pk_build(b, &k, pay, sizeof(pay));
	b[len - 1] ^= 0x55;	/* a bad checksum is not ours to fix */
	vnet_make(vnet, 0, V_GSO_NONE, 0, 0, 0, 0);
	pkt = t_dup(b, len);
	memset(&st, 0, sizeof(st));
	ck_assert_uint_eq(tapoff_tx(vnet, pkt, len, seg, len, cap_emit, c,
	    &st), 1);
	assert_same(cap_pkt(c, 0), c->len[0], b, len, "frame", 0);
	ck_assert_uint_eq(st.csum_done, 0);
	cap_reset(c);
	ck_assert_uint_eq(tapoff_tx(vnet, pkt, len, seg, len - 1, cap_emit, c,
	    &st), 0);
	ck_assert_uint_eq(c->n, 0);
	ck_assert_uint_eq(st.tx_bad, 1);
	free(pkt);
	cap_free(c);
}
END_TEST

/* ---- refusals -------------------------------------------------------------- */

enum {
	R_GSO_UDP, R_GSO_UDP_L4, R_GSO_SIZE0, R_FRAME_MAX, R_V6_EXT,
	R_V4_UDP, R_ARP, R_DOFF4, R_IHL4, R_VERSION, R_TWO_VLANS,
	R_CSUM_PAST_END, R_CSUM_START_PAST_END, R_SHORT_ETH,
	R_COUNT
};

static const char *const refuse_names[R_COUNT] = {
	"gso UDP", "gso UDP_L4", "gso_size 0", "frame_max", "v6 ext header",
	"v4 UDP as TCPV4", "ARP as TCPV4", "doff 4", "IHL 4",
	"version 6 in 0x0800", "two 802.1Q tags", "csum offset past end",
	"csum start past end", "NONE shorter than Ethernet",
};

/*
 * Refusal r applied to a valid TSO v4 packet (3000 bytes by 1448) or
 * frame: 0 frames, tx_bad counted once.
 */
START_TEST(test_refuse)
{
	static uint8_t b[T_BUF], pay[3000];
	struct pk k = pk_base(_i == R_V6_EXT);
	struct tapoff_stats st;
	struct cap *c = cap_new();
	uint8_t vnet[TAPOFF_VNET_LEN], *pkt, *seg;
	size_t len, l4, fmax = 1514;

	pay_fill(pay, 0, sizeof(pay));
	if (_i == R_V4_UDP)
		k.proto = P_UDP;
	len = tso_build(b, vnet, &k, sizeof(pay), 1448, 0);
	if (_i == R_V4_UDP)
		len = pk_build(b, &k, pay, sizeof(pay));
	l4 = pk_l4(&k);
	switch (_i) {
	case R_GSO_UDP:
		vnet[1] = V_GSO_UDP;
		break;
	case R_GSO_UDP_L4:
		vnet[1] = V_GSO_UDP_L4;
		break;
	case R_GSO_SIZE0:
		vnet_make(vnet, V_NEEDS_CSUM, V_GSO_TCPV4, (uint16_t)l4 + 32,
		    0, (uint16_t)l4, 16);
		break;
	case R_FRAME_MAX:
		fmax = 1513;
		break;
	case R_V6_EXT:
		/* A hop-by-hop header (PadN) between IPv6 and TCP. */
		memmove(b + l4 + 8, b + l4, len - l4);
		b[l4] = P_TCP;
		b[l4 + 1] = 0;
		b[l4 + 2] = 1;
		b[l4 + 3] = 4;
		memset(b + l4 + 4, 0, 4);
		b[14 + 6] = 0;
		bs_put16(b + 14 + 4, (uint16_t)(bs_get16(b + 14 + 4) + 8));
		len += 8;
		vnet_make(vnet, V_NEEDS_CSUM, V_GSO_TCPV6, (uint16_t)l4 + 40,
		    1448, (uint16_t)l4 + 8, 16);
		fmax = 1600;
		break;
	case R_ARP:
		bs_put16(b + 12, 0x0806);
		break;
	case R_DOFF4:
		b[l4 + 12] = 0x40;
		break;
	case R_IHL4:
		b[14] = 0x44;
		break;
	case R_VERSION:
		b[14] = 0x65;
		break;
	case R_TWO_VLANS:
		memmove(b + 20, b + 12, len - 12);
		bs_put16(b + 12, 0x8100);
		bs_put16(b + 14, 5);
		bs_put16(b + 16, 0x8100);
		bs_put16(b + 18, 6);
		len += 8;
		fmax = 1600;
		break;
	case R_CSUM_PAST_END:
	case R_CSUM_START_PAST_END:
		len = pk_build(b, &k, pay, 1000);
		vnet_make(vnet, V_NEEDS_CSUM, V_GSO_NONE, 0, 0,
		    _i == R_CSUM_PAST_END ? (uint16_t)(len - 16) :
		    (uint16_t)(len + 1), _i == R_CSUM_PAST_END ? 15 : 0);
		break;
	case R_SHORT_ETH:
		len = 13;
		vnet_make(vnet, 0, V_GSO_NONE, 0, 0, 0, 0);
		break;
	default:
		break;
	}
	pkt = t_dup(b, len);
	seg = malloc(fmax);
	ck_assert_ptr_nonnull(seg);
	memset(&st, 0, sizeof(st));
	ck_assert_msg(tapoff_tx(vnet, pkt, len, seg, fmax, cap_emit, c,
	    &st) == 0, "%s: not refused", refuse_names[_i]);
	ck_assert_uint_eq(c->n, 0);
	ck_assert_uint_eq(st.tx_bad, 1);
	free(seg);
	free(pkt);
	cap_free(c);
}
END_TEST

/* Every cut inside the headers of a TSO packet is refused. */
START_TEST(test_truncated)
{
	static uint8_t b[T_BUF];
	struct pk k = pk_base(_i % 3 == 2);
	struct tapoff_stats st;
	struct cap *c = cap_new();
	uint8_t vnet[TAPOFF_VNET_LEN], *pkt, seg[1600];
	size_t len, cut;

	k.vlan = _i % 3 == 1;
	len = tso_build(b, vnet, &k, 3000, 1448, 0);
	memset(&st, 0, sizeof(st));
	for (cut = 0; cut < pk_hlen(&k); cut++) {
		pkt = t_dup(b, cut);
		ck_assert_msg(tapoff_tx(vnet, pkt, cut, seg, sizeof(seg),
		    cap_emit, c, &st) == 0, "cut at %zu of %zu accepted", cut,
		    len);
		free(pkt);
	}
	ck_assert_uint_eq(c->n, 0);
	ck_assert_uint_eq(st.tx_bad, pk_hlen(&k));
	cap_free(c);
}
END_TEST

/* ---- GRO ------------------------------------------------------------------- */

#define A_MSS	1000

struct gro_fx {
	uint8_t gbuf[TAPOFF_PKT_MAX];
	struct tapoff_gro g;
	struct tapoff_stats st;
	struct cap *w;
	uint8_t f[8][T_BUF];	/* frames of a test, kept for comparing */
	size_t flen[8];
};

static struct gro_fx *
gro_new(void)
{
	struct gro_fx *x = calloc(1, sizeof(*x));

	ck_assert_ptr_nonnull(x);
	tapoff_gro_init(&x->g, x->gbuf);
	x->w = cap_new();
	return x;
}

static void
gro_free(struct gro_fx *x)
{
	cap_free(x->w);
	free(x);
}

/* Segment i of flow A (v4 or v6, timestamps) with plen payload bytes. */
static struct pk
seg_recipe(int v6, unsigned i)
{
	struct pk k = pk_base(v6);

	k.seq += i * A_MSS;
	k.ipid = (uint16_t)(100 + 37 * i);	/* IDs need not be in order */
	return k;
}

static size_t
seg_build(uint8_t *b, const struct pk *k, size_t plen)
{
	static uint8_t pay[65536];

	pay_fill(pay, k->seq - 0x01000000u, plen);
	return pk_build(b, k, pay, plen);
}

/* Add frame slot s of x; its return value must be want. */
static void
gro_put(struct gro_fx *x, unsigned s, int want)
{
	uint8_t *p = t_dup(x->f[s], x->flen[s]);

	ck_assert_int_eq(tapoff_gro_add(&x->g, p, x->flen[s], cap_write, x->w,
	    &x->st), want);
	free(p);
}

/*
 * Write i is the join of frame slots first..last (in x->f): GSO header,
 * lengths, pseudo-header sum, payload.
 */
static void
assert_joined(const struct gro_fx *x, unsigned i, unsigned first,
    unsigned last, int v6)
{
	const uint8_t *j = cap_pkt(x->w, i), *f0 = x->f[first];
	size_t l4 = 14 + (v6 ? 40 : 20), hlen = l4 + 32, jlen = hlen, pl;
	unsigned s;

	for (s = first; s <= last; s++)
		jlen += x->flen[s] - hlen;
	ck_assert_uint_eq(x->w->len[i], jlen);
	ck_assert_uint_eq(x->w->vnet[i][0], V_NEEDS_CSUM);
	ck_assert_uint_eq(x->w->vnet[i][1], v6 ? V_GSO_TCPV6 : V_GSO_TCPV4);
	ck_assert_uint_eq(vnet16(x->w->vnet[i], 2), hlen);
	ck_assert_uint_eq(vnet16(x->w->vnet[i], 4), x->flen[first] - hlen);
	ck_assert_uint_eq(vnet16(x->w->vnet[i], 6), l4);
	ck_assert_uint_eq(vnet16(x->w->vnet[i], 8), 16);
	ck_assert_mem_eq(j, f0, 14);
	if (v6) {
		ck_assert_mem_eq(j + 14, f0 + 14, 4);
		ck_assert_uint_eq(bs_get16(j + 18), jlen - l4);
		ck_assert_mem_eq(j + 20, f0 + 20, 34);
	} else {
		ck_assert_mem_eq(j + 14, f0 + 14, 2);
		ck_assert_uint_eq(bs_get16(j + 16), jlen - 14);
		ck_assert_mem_eq(j + 18, f0 + 18, 6);
		ck_assert_mem_eq(j + 26, f0 + 26, 8);
		ck_assert_uint_eq(t_csum_fold(t_csum_add(0, j + 14, 20)),
		    0xffff);
	}
	ck_assert_mem_eq(j + l4, f0 + l4, 13);
	ck_assert_uint_eq(j[l4 + 13], x->f[last][l4 + 13]);
	ck_assert_mem_eq(j + l4 + 14, f0 + l4 + 14, 2);
	ck_assert_mem_eq(j + l4 + 18, f0 + l4 + 18, 14);
	ck_assert_uint_eq(bs_get16(j + l4 + 16), t_csum_fold(
	    t_csum_pseudo(j + 14, v6, P_TCP, jlen - l4)));
	pl = hlen;
	for (s = first; s <= last; s++) {
		ck_assert_mem_eq(j + pl, x->f[s] + hlen, x->flen[s] - hlen);
		pl += x->flen[s] - hlen;
	}
}

/* Write i is frame slot s as it came, unjoined. */
static void
assert_alone(const struct gro_fx *x, unsigned i, unsigned s, int zero)
{
	assert_same(cap_pkt(x->w, i), x->w->len[i], x->f[s], x->flen[s],
	    "write", i);
	ck_assert_uint_eq(x->w->vnet[i][1], V_GSO_NONE);
	if (zero)
		assert_vnet_zero(x->w, i);
	else
		ck_assert_msg(x->w->vnet[i][0] == 0 ||
		    x->w->vnet[i][0] == V_DATA_VALID,
		    "write %u: flags 0x%02x", i, x->w->vnet[i][0]);
}

/* Five segments, then flush: one packet of five. */
START_TEST(test_gro_run)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;
	int v6 = _i;

	for (i = 0; i < 5; i++) {
		k = seg_recipe(v6, i);
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
		gro_put(x, i, 0);
	}
	ck_assert_uint_eq(x->w->n, 0);
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 1);
	assert_joined(x, 0, 0, 4, v6);
	ck_assert_uint_eq(x->st.gro_out, 1);
	ck_assert_uint_eq(x->st.gro_segs, 5);
	/* Nothing left. */
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 1);
	gro_free(x);
}
END_TEST

/* One segment alone: DATA_VALID, unchanged. */
START_TEST(test_gro_single)
{
	struct gro_fx *x = gro_new();
	struct pk k = seg_recipe(_i, 0);

	x->flen[0] = seg_build(x->f[0], &k, 10);
	gro_put(x, 0, 0);
	ck_assert_uint_eq(x->w->n, 0);
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 1);
	assert_same(cap_pkt(x->w, 0), x->w->len[0], x->f[0], x->flen[0],
	    "write", 0);
	ck_assert_uint_eq(x->w->vnet[0][0], V_DATA_VALID);
	ck_assert_uint_eq(x->w->vnet[0][1], V_GSO_NONE);
	ck_assert_uint_eq(x->st.gro_out, 0);
	gro_free(x);
}
END_TEST

/* PSH on the third segment: the run of three is written at once. */
START_TEST(test_gro_psh)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;

	for (i = 0; i < 3; i++) {
		k = seg_recipe(_i, i);
		if (i == 2)
			k.flags |= F_PSH;
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
		gro_put(x, i, 0);
		ck_assert_uint_eq(x->w->n, i == 2 ? 1 : 0);
	}
	assert_joined(x, 0, 0, 2, _i);
	ck_assert_uint_eq(cap_pkt(x->w, 0)[(_i ? 54 : 34) + 13],
	    F_ACK | F_PSH);
	/* A lone PSH segment is written at once, too. */
	k = seg_recipe(_i, 3);
	k.flags |= F_PSH;
	x->flen[3] = seg_build(x->f[3], &k, A_MSS);
	gro_put(x, 3, 0);
	ck_assert_uint_eq(x->w->n, 2);
	assert_alone(x, 1, 3, 0);
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 2);
	gro_free(x);
}
END_TEST

/* A segment shorter than the first ends the run at once. */
START_TEST(test_gro_short)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;

	for (i = 0; i < 3; i++) {
		k = seg_recipe(_i, i);
		x->flen[i] = seg_build(x->f[i], &k, i == 2 ? 400 : A_MSS);
		gro_put(x, i, 0);
	}
	ck_assert_uint_eq(x->w->n, 1);
	assert_joined(x, 0, 0, 2, _i);
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 1);
	gro_free(x);
}
END_TEST

/*
 * After a pending run of two (slots 0, 1), frame X (slot 2) that does
 * not continue it: the run is written first, then X unchanged.  zero:
 * X cannot be joined at all, so its virtio header is all zero.
 */
enum {
	B_GAP, B_RETRANS, B_DPORT, B_ACK, B_TTL, B_TOS, B_MAC, B_TSVAL,
	B_LONGER, B_SYN, B_FIN, B_RST, B_URG, B_ECE, B_CWR, B_NOACK,
	B_EMPTY, B_MF, B_FRAGOFF, B_IHL6, B_VLAN, B_PADDED, B_BAD_IPCSUM,
	B_BAD_TCPCSUM, B_ARP, B_ICMP, B_UDP, B_DADDR, B_V6_FLOW, B_V6_HOPS,
	B_V6_EXT, B_V6_DADDR,
	B_COUNT
};

static const struct brk_case {
	const char *name;
	int v6, zero, bad_csum;
} brk_cases[B_COUNT] = {
	[B_GAP] = { "seq gap", 0, 0, 0 },
	[B_RETRANS] = { "retransmission", 0, 0, 0 },
	[B_DPORT] = { "other port", 0, 0, 0 },
	[B_ACK] = { "other ack", 0, 0, 0 },
	[B_TTL] = { "other TTL", 0, 0, 0 },
	[B_TOS] = { "other TOS", 0, 0, 0 },
	[B_MAC] = { "other MAC", 0, 0, 0 },
	[B_TSVAL] = { "other timestamp", 0, 0, 0 },
	[B_LONGER] = { "longer than the first", 0, 0, 0 },
	[B_SYN] = { "SYN", 0, 1, 0 },
	[B_FIN] = { "FIN", 0, 1, 0 },
	[B_RST] = { "RST", 0, 1, 0 },
	[B_URG] = { "URG", 0, 1, 0 },
	[B_ECE] = { "ECE", 0, 1, 0 },
	[B_CWR] = { "CWR", 0, 1, 0 },
	[B_NOACK] = { "no ACK", 0, 1, 0 },
	[B_EMPTY] = { "no payload", 0, 1, 0 },
	[B_MF] = { "more fragments", 0, 1, 0 },
	[B_FRAGOFF] = { "fragment offset", 0, 1, 0 },
	[B_IHL6] = { "IPv4 options", 0, 1, 0 },
	[B_VLAN] = { "802.1Q tag", 0, 1, 0 },
	[B_PADDED] = { "Ethernet padding", 0, 1, 0 },
	[B_BAD_IPCSUM] = { "bad IPv4 header checksum", 0, 1, 0 },
	[B_BAD_TCPCSUM] = { "bad TCP checksum", 0, 1, 1 },
	[B_ARP] = { "ARP", 0, 1, 0 },
	[B_ICMP] = { "ICMP", 0, 1, 0 },
	[B_UDP] = { "UDP", 0, 1, 0 },
	[B_V6_FLOW] = { "v6 other flow label", 1, 0, 0 },
	[B_V6_HOPS] = { "v6 other hop limit", 1, 0, 0 },
	[B_V6_EXT] = { "v6 extension header", 1, 1, 0 },
	[B_DADDR] = { "other destination", 0, 0, 0 },
	[B_V6_DADDR] = { "v6 other destination", 1, 0, 0 },
};

/* A 42-byte ARP request. */
static size_t
arp_build(uint8_t *b)
{
	static const uint8_t arp[42] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 0x01,
		0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
		0x02, 0, 0, 0, 0, 0x01, 10, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 10, 0, 0, 2,
	};

	memcpy(b, arp, sizeof(arp));
	return sizeof(arp);
}

static size_t
brk_build(uint8_t *b, unsigned which)
{
	static uint8_t pay[64];
	const struct brk_case *bc = &brk_cases[which];
	struct pk k = seg_recipe(bc->v6, 2);
	size_t plen = A_MSS, len, l4;

	switch (which) {
	case B_GAP: k.seq += 1; break;
	case B_RETRANS: k.seq -= A_MSS; break;
	case B_DPORT: k.dport++; break;
	case B_ACK: k.ack++; break;
	case B_TTL: k.ttl--; break;
	case B_TOS: k.tos = 0x10; break;
	case B_MAC: k.mac_x = 1; break;
	case B_TSVAL: k.tsval++; break;
	case B_LONGER: plen = A_MSS + 1; break;
	case B_SYN: k.flags |= F_SYN; break;
	case B_FIN: k.flags |= F_FIN; break;
	case B_RST: k.flags |= F_RST; break;
	case B_URG: k.flags |= F_URG; break;
	case B_ECE: k.flags |= F_ECE; break;
	case B_CWR: k.flags |= F_CWR; break;
	case B_NOACK: k.flags = F_PSH; break;
	case B_EMPTY: plen = 0; break;
	case B_MF: k.frag = 0x2000; break;
	case B_FRAGOFF: k.frag = 0x0001; break;
	case B_IHL6: k.ihl = 6; break;
	case B_VLAN: k.vlan = 1; break;
	case B_V6_FLOW: k.flow ^= 1; break;
	case B_V6_HOPS: k.ttl = 1; break;
	case B_DADDR:
	case B_V6_DADDR: k.dst_x = 0x40; break;
	case B_ARP:
		return arp_build(b);
	case B_ICMP:
		k.proto = P_ICMP;
		return pk_build(b, &k, pay, sizeof(pay));
	case B_UDP:
		k.proto = P_UDP;
		plen = 200;
		break;
	default:
		break;
	}
	len = seg_build(b, &k, plen);
	l4 = pk_l4(&k);
	switch (which) {
	case B_PADDED:
		b[len] = 0;	/* IP says len - 14; the frame is longer */
		return len + 1;
	case B_BAD_IPCSUM:
		b[24] ^= 0x01;
		break;
	case B_BAD_TCPCSUM:
		b[l4 + 16] ^= 0x80;
		break;
	case B_V6_EXT:
		memmove(b + l4 + 8, b + l4, len - l4);
		b[l4] = P_TCP;
		b[l4 + 1] = 0;
		b[l4 + 2] = 1;
		b[l4 + 3] = 4;
		memset(b + l4 + 4, 0, 4);
		b[14 + 6] = 0;
		bs_put16(b + 14 + 4, (uint16_t)(bs_get16(b + 14 + 4) + 8));
		len += 8;
		break;
	default:
		break;
	}
	return len;
}

START_TEST(test_gro_break)
{
	const struct brk_case *bc = &brk_cases[_i];
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;

	for (i = 0; i < 2; i++) {
		k = seg_recipe(bc->v6, i);
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
		gro_put(x, i, 0);
	}
	x->flen[2] = brk_build(x->f[2], (unsigned)_i);
	gro_put(x, 2, 0);
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_msg(x->w->n == 2, "%s: %u writes", bc->name, x->w->n);
	assert_joined(x, 0, 0, 1, bc->v6);
	assert_alone(x, 1, 2, bc->zero);
	ck_assert_uint_eq(x->st.rx_bad_csum, bc->bad_csum);
	ck_assert_uint_eq(x->st.gro_out, 1);
	ck_assert_uint_eq(x->st.gro_segs, 2);
	gro_free(x);
}
END_TEST

/* Two flows interleaved: nothing joined, the order kept. */
START_TEST(test_gro_interleave)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;

	for (i = 0; i < 6; i++) {
		k = seg_recipe(_i, i / 2);
		if (i & 1)
			k.sport = 40001;
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
		gro_put(x, i, 0);
	}
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 6);
	for (i = 0; i < 6; i++)
		assert_alone(x, i, i, 0);
	ck_assert_uint_eq(x->st.gro_out, 0);
	gro_free(x);
}
END_TEST

/* A run, ARP, ICMP, a run: in that order; the others zero-headed. */
START_TEST(test_gro_non_tcp)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;

	for (i = 0; i < 2; i++) {
		k = seg_recipe(0, i);
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
	}
	x->flen[2] = brk_build(x->f[2], B_ARP);
	x->flen[3] = brk_build(x->f[3], B_ICMP);
	for (i = 4; i < 6; i++) {
		k = seg_recipe(0, i - 2);
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
	}
	for (i = 0; i < 6; i++)
		gro_put(x, i, 0);
	ck_assert_uint_eq(x->w->n, 3);
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 4);
	assert_joined(x, 0, 0, 1, 0);
	assert_alone(x, 1, 2, 1);
	assert_alone(x, 2, 3, 1);
	assert_joined(x, 3, 4, 5, 0);
	ck_assert_uint_eq(x->st.gro_out, 2);
	ck_assert_uint_eq(x->st.gro_segs, 4);
	/* Non-TCP with nothing pending: written at once. */
	gro_put(x, 2, 0);
	ck_assert_uint_eq(x->w->n, 5);
	assert_alone(x, 4, 2, 1);
	gro_free(x);
}
END_TEST

/*
 * The 65535-byte limit: IPv4 without options, 5 x 13099 + 40 = 65535
 * joins exactly; IPv6, 5 x 13000 + 60 = 65060 and a sixth would pass it.
 * Six segments: a run of five, then the sixth alone.
 */
START_TEST(test_gro_limit)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	size_t mss = _i ? 13000 : 13099, hl = _i ? 74 : 54;
	uint8_t *j;
	unsigned i;

	for (i = 0; i < 6; i++) {
		k = seg_recipe(_i, 0);
		k.ts = 0;
		k.seq += (uint32_t)(i * mss);
		x->flen[i] = seg_build(x->f[i], &k, mss);
		gro_put(x, i, 0);
	}
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 2);
	ck_assert_uint_eq(x->w->len[0], hl + 5 * mss);
	ck_assert_uint_le(x->w->len[0], TAPOFF_PKT_MAX);
	j = x->w->arena + x->w->off[0];
	if (_i)
		ck_assert_uint_eq(bs_get16(j + 18), 20 + 5 * mss);
	else
		ck_assert_uint_eq(bs_get16(j + 16), 65535);
	ck_assert_uint_eq(x->w->vnet[0][1], _i ? V_GSO_TCPV6 : V_GSO_TCPV4);
	ck_assert_uint_eq(vnet16(x->w->vnet[0], 2), hl);
	ck_assert_mem_eq(j + hl, x->f[0] + hl, mss);
	ck_assert_mem_eq(j + hl + 4 * mss, x->f[4] + hl, mss);
	assert_alone(x, 1, 5, 0);
	ck_assert_uint_eq(x->st.gro_segs, 5);
	gro_free(x);
}
END_TEST

/* Checksum failures are counted and never joined. */
START_TEST(test_gro_bad_csum)
{
	struct gro_fx *x = gro_new();
	struct pk k;
	unsigned i;

	for (i = 0; i < 3; i++) {
		k = seg_recipe(_i, i);
		x->flen[i] = seg_build(x->f[i], &k, A_MSS);
		x->f[i][x->flen[i] - 1] ^= 0x20;	/* payload */
		gro_put(x, i, 0);
	}
	ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w, &x->st), 0);
	ck_assert_uint_eq(x->w->n, 3);
	for (i = 0; i < 3; i++)
		assert_alone(x, i, i, 1);
	ck_assert_uint_eq(x->st.rx_bad_csum, 3);
	ck_assert_uint_eq(x->st.gro_out, 0);
	gro_free(x);
}
END_TEST

/*
 * A failing write: gro_add or gro_flush returns -1 and write_errors
 * counts it.  Cases: ARP with nothing pending; flush of a pending
 * segment; a pending run flushed fine, then the ARP's write fails; a
 * lone PSH segment written at once; a joined run ended by PSH.
 */
START_TEST(test_gro_write_error)
{
	struct gro_fx *x = gro_new();
	struct pk k = seg_recipe(0, 0);
	unsigned i;

	x->flen[0] = seg_build(x->f[0], &k, A_MSS);
	k = seg_recipe(0, 1);
	x->flen[1] = seg_build(x->f[1], &k, A_MSS);
	k.flags |= F_PSH;
	x->flen[2] = seg_build(x->f[2], &k, A_MSS);
	x->flen[3] = arp_build(x->f[3]);
	switch (_i) {
	case 0:
		x->w->fail_from = 1;
		gro_put(x, 3, -1);
		break;
	case 1:
		gro_put(x, 0, 0);
		x->w->fail_from = 1;
		ck_assert_int_eq(tapoff_gro_flush(&x->g, cap_write, x->w,
		    &x->st), -1);
		break;
	case 2:
		x->w->fail_only = 2;
		for (i = 0; i < 2; i++)
			gro_put(x, i, 0);
		gro_put(x, 3, -1);
		ck_assert_uint_eq(x->w->n, 2);
		assert_joined(x, 0, 0, 1, 0);
		assert_alone(x, 1, 3, 1);
		break;
	case 3:
		x->w->fail_from = 1;
		gro_put(x, 2, -1);
		break;
	default:
		x->w->fail_from = 1;
		gro_put(x, 0, 0);
		gro_put(x, 2, -1);
		memcpy(x->f[1], x->f[2], x->flen[2]);
		ck_assert_uint_eq(x->w->n, 1);
		assert_joined(x, 0, 0, 1, 0);
		break;
	}
	ck_assert_uint_eq(x->st.write_errors, 1);
	gro_free(x);
}
END_TEST

static Suite *
tapoff_suite(void)
{
	Suite *s = suite_create("tapoff");
	TCase *tc;

	tc = tcase_create("sum");
	tcase_add_loop_test(tc, test_sum, 0,
	    (int)(sizeof(sum_cases) / sizeof(sum_cases[0])));
	tcase_add_test(tc, test_sum_long);
	suite_add_tcase(s, tc);

	tc = tcase_create("tx");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_tso, 0,
	    (int)(sizeof(tso_cases) / sizeof(tso_cases[0])));
	tcase_add_loop_test(tc, test_csum, 0,
	    (int)(sizeof(csum_cases) / sizeof(csum_cases[0])));
	tcase_add_test(tc, test_plain_frame);
	tcase_add_loop_test(tc, test_refuse, 0, R_COUNT);
	tcase_add_loop_test(tc, test_truncated, 0, 3);
	suite_add_tcase(s, tc);

	tc = tcase_create("gro");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_gro_run, 0, 2);
	tcase_add_loop_test(tc, test_gro_single, 0, 2);
	tcase_add_loop_test(tc, test_gro_psh, 0, 2);
	tcase_add_loop_test(tc, test_gro_short, 0, 2);
	tcase_add_loop_test(tc, test_gro_break, 0, B_COUNT);
	tcase_add_loop_test(tc, test_gro_interleave, 0, 2);
	tcase_add_test(tc, test_gro_non_tcp);
	tcase_add_loop_test(tc, test_gro_limit, 0, 2);
	tcase_add_loop_test(tc, test_gro_bad_csum, 0, 2);
	tcase_add_loop_test(tc, test_gro_write_error, 0, 5);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(tapoff_suite());
}
