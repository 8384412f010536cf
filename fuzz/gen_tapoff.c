/*
 * gen_tapoff.c — writes the seed corpus of fuzz_tapoff into the directory
 * named by argv[1], each file named by (the first 20 bytes of) its
 * SHA-256.  The layouts are those fuzz_tapoff.c documents: tx seeds are
 * TSO packets and frames whose checksum the host left to us, rx seeds
 * sequences of segments as the mesh would deliver them.  Deterministic.
 */
#include <string.h>

#include "bs_bytes.h"
#include "lib/t_csum.h"
#include "lib/t_seed.h"
#include "netio/tapoff.h"

#define GEN_MAX		(TAPOFF_PKT_MAX + 64)
#define GEN_RX_MAX	(1u << 18)

#define G_FIN	0x01
#define G_PSH	0x08
#define G_ACK	0x10
#define G_CWR	0x80

/* A packet: flow f (0..3) of IPv4/IPv6, TCP (timestamps or not) or UDP. */
struct gen_pk {
	int v6, vlan, ts, udp;
	unsigned flow;
	uint32_t seq;
	uint16_t ipid;
	uint8_t flags;
};

static size_t
gen_l3(const struct gen_pk *k)
{
	return k->vlan ? 18 : 14;
}

static size_t
gen_l4(const struct gen_pk *k)
{
	return gen_l3(k) + (k->v6 ? 40 : 20);
}

static size_t
gen_hlen(const struct gen_pk *k)
{
	return gen_l4(k) + (k->udp ? 8 : k->ts ? 32 : 20);
}

static void
gen_ip(uint8_t *ip, const struct gen_pk *k, size_t l4len)
{
	uint8_t proto = k->udp ? 17 : 6;

	if (k->v6) {
		bs_put32(ip, 0x60000000u | k->flow);
		bs_put16(ip + 4, (uint16_t)l4len);
		ip[6] = proto;
		ip[7] = 64;
		memset(ip + 8, 0, 32);
		ip[8] = ip[24] = 0xfd;
		ip[23] = 1;
		ip[39] = (uint8_t)(2 + k->flow);
		return;
	}
	ip[0] = 0x45;
	ip[1] = 0;
	bs_put16(ip + 2, (uint16_t)(20 + l4len));
	bs_put16(ip + 4, k->ipid);
	bs_put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = proto;
	bs_put16(ip + 10, 0);
	bs_put32(ip + 12, 0x0a000001);
	bs_put32(ip + 16, 0x0a000002 + k->flow);
	bs_put16(ip + 10, tapoff_fold(tapoff_sum(0, ip, 20)));
}

/* The frame of k with plen payload bytes (from stream offset k->seq). */
static size_t
gen_build(uint8_t *b, const struct gen_pk *k, size_t plen)
{
	static const uint8_t macs[12] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01
	};
	size_t l3 = gen_l3(k), l4 = gen_l4(k), h = gen_hlen(k), i;
	size_t l4len = h - l4 + plen;
	uint8_t *th = b + l4;

	memcpy(b, macs, 12);
	if (k->vlan) {
		bs_put16(b + 12, 0x8100);
		bs_put16(b + 14, 7);
	}
	bs_put16(b + l3 - 2, k->v6 ? 0x86dd : 0x0800);
	gen_ip(b + l3, k, l4len);
	bs_put16(th, (uint16_t)(40000 + k->flow));
	bs_put16(th + 2, 443);
	if (k->udp) {
		bs_put16(th + 4, (uint16_t)l4len);
		bs_put16(th + 6, 0);
	} else {
		bs_put32(th + 4, k->seq);
		bs_put32(th + 8, 0x10203040);
		th[12] = (uint8_t)((k->ts ? 8 : 5) << 4);
		th[13] = k->flags;
		bs_put16(th + 14, 1024);
		bs_put32(th + 16, 0);
		if (k->ts) {
			bs_put32(th + 20, 0x0101080a);
			bs_put32(th + 24, 100000);
			bs_put32(th + 28, 200000);
		}
	}
	for (i = 0; i < plen; i++)
		b[h + i] = (uint8_t)((k->seq + i) * 13 + k->flow);
	bs_put16(th + (k->udp ? 6 : 16), (uint16_t)~t_csum_fold(
	    t_csum_pseudo(b + l3, k->v6, k->udp ? 17 : 6, l4len) +
	    tapoff_sum(0, th, l4len)));
	return h + plen;
}

/* A tx seed: mode 0, virtio header, frame_max, the packet. */
static void
gen_tx(const struct gen_pk *k, size_t plen, uint8_t vflags, uint8_t gso,
    uint16_t mss, uint16_t fmax)
{
	static uint8_t s[13 + GEN_MAX];
	size_t len = gen_build(s + 13, k, plen), l4 = gen_l4(k);
	uint16_t f16;
	uint8_t *csum = s + 13 + l4 + (k->udp ? 6 : 16);

	s[0] = 0;
	s[1] = vflags;
	s[2] = gso;
	f16 = (uint16_t)gen_hlen(k);
	memcpy(s + 3, &f16, 2);
	memcpy(s + 5, &mss, 2);
	f16 = (uint16_t)l4;
	memcpy(s + 7, &f16, 2);
	f16 = k->udp ? 6 : 16;
	memcpy(s + 9, &f16, 2);
	bs_put16(s + 11, fmax);
	/* The host leaves the pseudo-header sum in the checksum field. */
	if (vflags & 1)
		bs_put16(csum, t_csum_fold(t_csum_pseudo(s + 13 + gen_l3(k),
		    k->v6, k->udp ? 17 : 6, len - l4)));
	t_seed_write(s, 13 + len);
}

/* An rx seed being assembled: mode byte, then length-prefixed frames. */
static uint8_t rx_buf[GEN_RX_MAX];
static struct t_seedbuf rx_seed = { rx_buf, sizeof(rx_buf), 0 };

static void
rx_start(uint8_t mode)
{
	rx_seed.len = 0;
	t_seed_put(&rx_seed, &mode, 1);
}

static void
rx_frame(const uint8_t *f, size_t len)
{
	uint8_t n[2];

	bs_put16(n, (uint16_t)len);
	t_seed_put(&rx_seed, n, sizeof(n));
	t_seed_put(&rx_seed, f, len);
}

/* n segments of mss bytes of k's flow, the last one with last_flags. */
static void
rx_run(struct gen_pk *k, unsigned n, size_t mss, uint8_t last_flags)
{
	static uint8_t f[GEN_MAX];
	unsigned i;

	for (i = 0; i < n; i++) {
		k->flags = i + 1 == n ? last_flags : G_ACK;
		rx_frame(f, gen_build(f, k, mss));
		k->seq += (uint32_t)mss;
		k->ipid++;
	}
}

static void
rx_arp(void)
{
	static const uint8_t arp[42] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 0x01,
		0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
		0x02, 0, 0, 0, 0, 0x01, 10, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 10, 0, 0, 2,
	};

	rx_frame(arp, sizeof(arp));
}

static void
gen_tx_seeds(void)
{
	struct gen_pk k;

	memset(&k, 0, sizeof(k));
	k.ts = 1;
	k.seq = 1000;
	k.flags = G_ACK | G_PSH;
	gen_tx(&k, 45 * 1448, 1, 1, 1448, 1514);
	gen_tx(&k, 3000, 1, 1, 1448, 1514);
	k.ipid = 0xfffe;
	gen_tx(&k, 1449, 1, 1, 1448, 1514);
	k.v6 = 1;
	gen_tx(&k, 5000, 1, 4, 1428, 1514);
	k.flags = G_ACK | G_FIN | G_PSH;
	gen_tx(&k, 100, 1, 4, 1428, 1514);
	k.v6 = 0;
	k.vlan = 1;
	k.ts = 0;
	k.flags = G_ACK | G_CWR | G_PSH;
	gen_tx(&k, 2000, 1, 0x81, 536, 1518);
	/* Checksums left to us, and a frame as it is. */
	k.vlan = 0;
	k.flags = G_ACK;
	gen_tx(&k, 500, 1, 0, 0, 1514);
	gen_tx(&k, 500, 0, 0, 0, 1514);
	k.udp = 1;
	gen_tx(&k, 301, 1, 0, 0, 1514);
	k.v6 = 1;
	gen_tx(&k, 64, 1, 0, 0, 1514);
}

static void
gen_rx_seeds(void)
{
	struct gen_pk a, b;
	uint32_t skip;
	uint8_t mode;

	memset(&a, 0, sizeof(a));
	a.ts = 1;
	a.seq = 5000;
	b = a;
	b.v6 = 1;
	b.flow = 1;
	/* A run of five, and the same with every third write failing. */
	for (mode = 0x01; mode <= 0x31; mode = (uint8_t)(mode + 0x30)) {
		rx_start(mode);
		rx_run(&a, 5, 1000, G_ACK);
		t_seed_flush(&rx_seed);
	}
	rx_start(0x07);
	rx_run(&b, 4, 1200, G_ACK | G_PSH);
	t_seed_flush(&rx_seed);
	/* Two flows interleaved. */
	rx_start(0x03);
	rx_run(&a, 2, 1000, G_ACK);
	rx_run(&b, 1, 1000, G_ACK);
	rx_run(&a, 1, 1000, G_ACK);
	rx_run(&b, 2, 1000, G_ACK);
	t_seed_flush(&rx_seed);
	/* A PSH run, then a run ended by a short segment. */
	rx_start(0x21);
	rx_run(&a, 3, 1448, G_ACK | G_PSH);
	rx_run(&a, 3, 1448, G_ACK);
	rx_run(&a, 1, 100, G_ACK);
	t_seed_flush(&rx_seed);
	/* Out of order: a segment skipped, then sent, then a retransmission. */
	rx_start(0x03);
	rx_run(&a, 1, 1000, G_ACK);
	skip = a.seq;
	a.seq += 1000;
	rx_run(&a, 1, 1000, G_ACK);
	a.seq = skip;
	rx_run(&a, 1, 1000, G_ACK);
	rx_run(&a, 2, 1000, G_ACK);
	t_seed_flush(&rx_seed);
	/* A short segment in the middle of a stream. */
	rx_start(0x03);
	rx_run(&a, 2, 1000, G_ACK);
	rx_run(&a, 1, 500, G_ACK);
	rx_run(&a, 2, 1000, G_ACK);
	t_seed_flush(&rx_seed);
	/* ARP in the middle of a run. */
	rx_start(0x01);
	rx_run(&a, 2, 800, G_ACK);
	rx_arp();
	rx_run(&a, 2, 800, G_ACK);
	t_seed_flush(&rx_seed);
}

int
main(int argc, char **argv)
{
	t_seed_main(argc, argv, "gen_tapoff", T_SEED_SHA256);
	gen_tx_seeds();
	gen_rx_seeds();
	return 0;
}
