/*
 * fuzz_tapoff.c — the TAP offloads (src/netio/tapoff.c): TSO and checksum
 * completion of what the host sends, joining of what the mesh delivers.
 *
 * Input: a mode byte m, then
 *   m & 1 == 0 (tx): virtio header (10, native endian) | frame_max (2,
 *	big-endian, clamped into 60..TAPOFF_PKT_MAX) | the packet read from
 *	the TAP.  It goes through tapoff_tx() once.
 *   m & 1 == 1 (rx): up to FZ_FRAMES records, each length (2, big-endian)
 *	| bytes (a length past the end takes what is left); frames shorter
 *	than an Ethernet header are skipped.  m & 4: the IP length fields
 *	are set to the frame's, m & 2: the IPv4 header and TCP checksums are
 *	made valid, so that mutated segments stay joinable.  m >> 4 = N > 0:
 *	every Nth write to the TAP fails.  Each frame goes to
 *	tapoff_gro_add(), then tapoff_gro_flush() runs.
 *
 * Oracles (abort): tx: every frame has 14..frame_max bytes and the
 * return value is the number of frames; a refused request counts
 * tx_bad; a TSO request (TCPV4/TCPV6, ECN bit ignored) yields frames only
 * for Ethernet (one 802.1Q tag at most) + IPv4/IPv6 without extension
 * headers + TCP and a non-zero gso_size, and then every segment carries
 * the input's headers but for the IP length, the IPv4 ID (first + index)
 * and the checksums (which verify), sequence numbers continue, FIN/PSH
 * only on the last and CWR only on the first, every segment but the last
 * carries gso_size bytes and the payloads concatenate to the input's;
 * without GSO the frame is the input, with the checksum completed at
 * csum_start + csum_offset when NEEDS_CSUM asks (0 sent as 0xffff).
 * rx: every write holds 14..TAPOFF_PKT_MAX bytes; every input frame is
 * written (or its write attempted) exactly once, in order: a write
 * without GSO is the next input frame byte for byte (and verifies when
 * flagged DATA_VALID), a GSO write of 2+ segments has the documented
 * header and, cut again by tapoff_tx(), gives back the next inputs (but
 * for IPv4 ID and checksums) with verifying checksums; a call returns -1
 * exactly when one of its writes failed; the counters add up.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bs_bytes.h"
#include "lib/t_csum.h"
#include "netio/tapoff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_FRAMES	256
#define FZ_ARENA	(1u << 20)
#define FZ_FIN		0x01
#define FZ_PSH		0x08
#define FZ_CWR		0x80
#define FZ_NEEDS_CSUM	1
#define FZ_DATA_VALID	2
#define FZ_TCPV4	1
#define FZ_TCPV6	4

#define FZ_CHECK(c)	do { if (!(c)) abort(); } while (0)

/* ---- the virtio header --------------------------------------------------- */

static uint16_t
fz_vnet16(const uint8_t *v, size_t off)
{
	uint16_t x;

	memcpy(&x, v + off, 2);
	return x;
}

/* ---- TCP packets -------------------------------------------------------- */

struct fz_tcp {
	size_t l3, l4, hlen;
	int v6;
};

/* Ethernet (+ one 802.1Q tag when vlan_ok), IPv4/IPv6, TCP: 0 or -1. */
static int
fz_parse(const uint8_t *f, size_t len, int vlan_ok, struct fz_tcp *t)
{
	size_t l3 = 14, ihl, thl;
	uint16_t type;

	if (len < 14)
		return -1;
	type = bs_get16(f + 12);
	if (vlan_ok && type == 0x8100) {
		if (len < 18)
			return -1;
		type = bs_get16(f + 16);
		l3 = 18;
	}
	if (type == 0x0800) {
		if (len - l3 < 20 || f[l3] >> 4 != 4 || f[l3 + 9] != 6)
			return -1;
		ihl = (size_t)(f[l3] & 15) * 4;
		t->v6 = 0;
	} else if (type == 0x86dd) {
		if (len - l3 < 40 || f[l3] >> 4 != 6 || f[l3 + 6] != 6)
			return -1;
		ihl = 40;
		t->v6 = 1;
	} else
		return -1;
	if (ihl < 20 || len - l3 < ihl + 20)
		return -1;
	thl = (size_t)(f[l3 + ihl + 12] >> 4) * 4;
	if (thl < 20 || len - l3 - ihl < thl)
		return -1;
	t->l3 = l3;
	t->l4 = l3 + ihl;
	t->hlen = l3 + ihl + thl;
	return 0;
}

/* The IPv4 header (if any) and TCP checksums of a frame verify. */
static int
fz_tcp_ok(const uint8_t *f, size_t len, const struct fz_tcp *t)
{
	if (!t->v6 && t_csum_fold(t_csum_add(0, f + t->l3, t->l4 - t->l3)) !=
	    0xffff)
		return 0;
	return t_csum_fold(t_csum_pseudo(f + t->l3, t->v6, 6, len - t->l4) +
	    t_csum_add(0, f + t->l4, len - t->l4)) == 0xffff;
}

/*
 * Segment s and input frame in (both parsed as t) have the same
 * headers but for the IP length, the IPv4 ID and checksums, the TCP
 * sequence number, flags and checksum.
 */
static int
fz_same_headers(const uint8_t *s, const uint8_t *in, const struct fz_tcp *t)
{
	const uint8_t *a = s + t->l3, *b = in + t->l3;
	const uint8_t *ta = s + t->l4, *tb = in + t->l4;

	if (memcmp(s, in, t->l3) != 0)
		return 0;
	if (t->v6 ? memcmp(a, b, 4) != 0 || memcmp(a + 6, b + 6, 34) != 0 :
	    memcmp(a, b, 2) != 0 || memcmp(a + 6, b + 6, 4) != 0 ||
	    memcmp(a + 12, b + 12, t->l4 - t->l3 - 12) != 0)
		return 0;
	return memcmp(ta, tb, 4) == 0 && memcmp(ta + 8, tb + 8, 5) == 0 &&
	    memcmp(ta + 14, tb + 14, 2) == 0 &&
	    memcmp(ta + 18, tb + 18, t->hlen - t->l4 - 18) == 0;
}

/* ---- tx ------------------------------------------------------------------ */

struct fz_tx {
	const uint8_t *in;	/* the input packet, untouched */
	size_t len, fmax, mss;
	uint8_t flags, gso, tso, parsed;
	uint16_t cstart, coff;
	struct fz_tcp t;
	size_t n, poff, last_plen;
	uint8_t last_flags;
};

static void
fz_tx_tso(struct fz_tx *x, const uint8_t *f, size_t len)
{
	const struct fz_tcp *t = &x->t;
	const uint8_t *ip = f + t->l3, *th = f + t->l4;
	uint8_t fl = x->in[t->l4 + 13], got;
	size_t plen;

	FZ_CHECK(x->parsed && x->mss != 0 && len >= t->hlen);
	/* The previous segment was not the last: gso_size, no FIN/PSH. */
	if (x->n > 0)
		FZ_CHECK(x->last_plen == x->mss &&
		    (x->last_flags & (FZ_FIN | FZ_PSH)) == 0);
	FZ_CHECK(fz_same_headers(f, x->in, t) && fz_tcp_ok(f, len, t));
	if (t->v6)
		FZ_CHECK(bs_get16(ip + 4) == len - t->l4);
	else
		FZ_CHECK(bs_get16(ip + 2) == len - t->l3 &&
		    bs_get16(ip + 4) == (uint16_t)(bs_get16(x->in + t->l3 + 4) +
		    x->n));
	FZ_CHECK(bs_get32(th + 4) == bs_get32(x->in + t->l4 + 4) +
	    (uint32_t)x->poff);
	got = th[13];
	FZ_CHECK((got & (uint8_t)~(FZ_FIN | FZ_PSH | FZ_CWR)) ==
	    (fl & (uint8_t)~(FZ_FIN | FZ_PSH | FZ_CWR)));
	FZ_CHECK((got & FZ_CWR) == (x->n == 0 ? (fl & FZ_CWR) : 0));
	FZ_CHECK((got & (FZ_FIN | FZ_PSH)) == 0 ||
	    (got & (FZ_FIN | FZ_PSH)) == (fl & (FZ_FIN | FZ_PSH)));
	plen = len - t->hlen;
	FZ_CHECK(plen <= x->mss && plen <= x->len - t->hlen - x->poff);
	FZ_CHECK(memcmp(f + t->hlen, x->in + t->hlen + x->poff, plen) == 0);
	x->poff += plen;
	x->last_plen = plen;
	x->last_flags = got;
}

/* Without GSO: the input, with the checksum completed if asked. */
static void
fz_tx_plain(struct fz_tx *x, const uint8_t *f, size_t len)
{
	size_t at = (size_t)x->cstart + x->coff;
	uint16_t c;

	FZ_CHECK(x->n == 0 && len == x->len);
	if ((x->flags & FZ_NEEDS_CSUM) == 0) {
		FZ_CHECK(memcmp(f, x->in, len) == 0);
		return;
	}
	FZ_CHECK(x->cstart <= len && at <= len && len - at >= 2);
	c = (uint16_t)~t_csum_fold(t_csum_add(0, x->in + x->cstart,
	    len - x->cstart));
	if (c == 0)
		c = 0xffff;
	FZ_CHECK(memcmp(f, x->in, at) == 0 && bs_get16(f + at) == c &&
	    memcmp(f + at + 2, x->in + at + 2, len - at - 2) == 0);
}

static void
fz_tx_emit(void *arg, const uint8_t *frame, size_t len)
{
	struct fz_tx *x = arg;

	FZ_CHECK(len >= 14 && len <= x->fmax);
	if (x->tso)
		fz_tx_tso(x, frame, len);
	else
		fz_tx_plain(x, frame, len);
	x->n++;
}

static void
fz_tx(const uint8_t *data, size_t size)
{
	struct tapoff_stats st;
	struct fz_tx x;
	uint8_t *pkt, *seg;
	size_t n, base;

	if (size < 13 || size - 13 > TAPOFF_PKT_MAX)
		return;
	memset(&x, 0, sizeof(x));
	memset(&st, 0, sizeof(st));
	x.in = data + 13;
	x.len = size - 13;
	x.fmax = bs_get16(data + 11);
	if (x.fmax < 60)
		x.fmax = 60;
	x.flags = data[1];
	x.gso = data[2];
	x.mss = fz_vnet16(data + 1, 4);
	x.cstart = fz_vnet16(data + 1, 6);
	x.coff = fz_vnet16(data + 1, 8);
	base = x.gso & 0x7f;
	x.tso = base == FZ_TCPV4 || base == FZ_TCPV6;
	x.parsed = fz_parse(x.in, x.len, 1, &x.t) == 0;
	/* Exact copies, so ASan sees any access past either end. */
	pkt = malloc(x.len != 0 ? x.len : 1);
	seg = malloc(x.fmax);
	if (pkt == NULL || seg == NULL)
		abort();
	if (x.len != 0)
		memcpy(pkt, x.in, x.len);
	n = tapoff_tx(data + 1, pkt, x.len, seg, x.fmax, fz_tx_emit, &x, &st);
	FZ_CHECK(n == x.n && st.tx_bad == (n == 0 ? 1u : 0u));
	if (base != 0 && !x.tso)
		FZ_CHECK(n == 0);
	if (x.tso && n > 0) {
		FZ_CHECK(x.poff == x.len - x.t.hlen);
		FZ_CHECK((x.last_flags & (FZ_FIN | FZ_PSH)) ==
		    (x.in[x.t.l4 + 13] & (FZ_FIN | FZ_PSH)));
		FZ_CHECK(st.tso_in == 1 && st.tso_segs == n);
	}
	free(seg);
	free(pkt);
}

/* ---- rx ------------------------------------------------------------------ */

struct fz_frame {
	size_t off, len;
};

static uint8_t fz_arena[FZ_ARENA];
static uint8_t fz_gbuf[TAPOFF_PKT_MAX];
static uint8_t fz_pkt[TAPOFF_PKT_MAX];
static uint8_t fz_seg[TAPOFF_PKT_MAX];
static struct fz_frame fz_frames[FZ_FRAMES];

struct fz_rx {
	size_t nframes, cursor;
	unsigned every, writes, failed, call_failed;
	uint64_t gso_writes, gso_segs;
	/* The re-cut of a GSO write: */
	size_t seg_j;
	struct fz_tcp t;
};

static const uint8_t *
fz_in(size_t i)
{
	return fz_arena + fz_frames[i].off;
}

/* Segment seg_j of a GSO write, cut again: input cursor + seg_j. */
static void
fz_rx_emit(void *arg, const uint8_t *f, size_t len)
{
	struct fz_rx *x = arg;
	const struct fz_tcp *t = &x->t;
	size_t i = x->cursor + x->seg_j;
	const uint8_t *in;

	FZ_CHECK(i < x->nframes && len == fz_frames[i].len && len >= t->hlen);
	in = fz_in(i);
	FZ_CHECK(fz_same_headers(f, in, t) && fz_tcp_ok(f, len, t));
	FZ_CHECK(memcmp(f + t->l4 + 4, in + t->l4 + 4, 4) == 0 &&
	    f[t->l4 + 13] == in[t->l4 + 13]);
	FZ_CHECK(memcmp(f + t->hlen, in + t->hlen, len - t->hlen) == 0);
	x->seg_j++;
}

static void
fz_rx_gso(struct fz_rx *x, const uint8_t *vnet, const uint8_t *pkt,
    size_t len)
{
	struct tapoff_stats st;
	const struct fz_tcp *t = &x->t;
	size_t n;

	FZ_CHECK(fz_parse(pkt, len, 0, &x->t) == 0);
	FZ_CHECK(vnet[0] == FZ_NEEDS_CSUM &&
	    vnet[1] == (t->v6 ? FZ_TCPV6 : FZ_TCPV4) &&
	    fz_vnet16(vnet, 2) == t->hlen && fz_vnet16(vnet, 6) == t->l4 &&
	    fz_vnet16(vnet, 8) == 16 && fz_vnet16(vnet, 4) != 0);
	FZ_CHECK(t->v6 ? bs_get16(pkt + t->l3 + 4) == len - t->l4 :
	    bs_get16(pkt + t->l3 + 2) == len - t->l3 &&
	    t_csum_fold(t_csum_add(0, pkt + t->l3, t->l4 - t->l3)) == 0xffff);
	FZ_CHECK(bs_get16(pkt + t->l4 + 16) ==
	    t_csum_fold(t_csum_pseudo(pkt + t->l3, t->v6, 6, len - t->l4)));
	memcpy(fz_pkt, pkt, len);
	memset(&st, 0, sizeof(st));
	x->seg_j = 0;
	n = tapoff_tx(vnet, fz_pkt, len, fz_seg, TAPOFF_PKT_MAX, fz_rx_emit, x,
	    &st);
	FZ_CHECK(n >= 2 && n == x->seg_j);
	x->cursor += n;
	x->gso_writes++;
	x->gso_segs += n;
}

static int
fz_rx_write(void *arg, const uint8_t vnet[TAPOFF_VNET_LEN], const uint8_t *pkt,
    size_t len)
{
	struct fz_rx *x = arg;
	struct fz_tcp t;
	size_t i;

	FZ_CHECK(len >= 14 && len <= TAPOFF_PKT_MAX);
	if (vnet[1] != 0)
		fz_rx_gso(x, vnet, pkt, len);
	else {
		i = x->cursor++;
		FZ_CHECK(i < x->nframes && len == fz_frames[i].len &&
		    memcmp(pkt, fz_in(i), len) == 0);
		FZ_CHECK((vnet[0] == 0 || vnet[0] == FZ_DATA_VALID) &&
		    fz_vnet16(vnet, 2) == 0 && fz_vnet16(vnet, 4) == 0 &&
		    fz_vnet16(vnet, 6) == 0 && fz_vnet16(vnet, 8) == 0);
		if (vnet[0] == FZ_DATA_VALID)
			FZ_CHECK(fz_parse(pkt, len, 0, &t) == 0 &&
			    fz_tcp_ok(pkt, len, &t));
	}
	x->writes++;
	if (x->every != 0 && x->writes % x->every == 0) {
		x->failed++;
		x->call_failed = 1;
		return -1;
	}
	return 0;
}

/* Lengths (m & 4) and checksums (m & 2) of a TCP frame made right. */
static void
fz_fix(uint8_t *f, size_t len, uint8_t m)
{
	struct fz_tcp t;
	uint8_t *ip;

	if (fz_parse(f, len, 0, &t) != 0)
		return;
	ip = f + t.l3;
	if ((m & 4) != 0 && len - t.l3 <= 0xffff) {
		if (t.v6)
			bs_put16(ip + 4, (uint16_t)(len - t.l4));
		else
			bs_put16(ip + 2, (uint16_t)(len - t.l3));
	}
	if ((m & 2) == 0)
		return;
	if (!t.v6) {
		bs_put16(ip + 10, 0);
		bs_put16(ip + 10, (uint16_t)~t_csum_fold(t_csum_add(0, ip,
		    t.l4 - t.l3)));
	}
	bs_put16(f + t.l4 + 16, 0);
	bs_put16(f + t.l4 + 16, (uint16_t)~t_csum_fold(t_csum_pseudo(ip,
	    t.v6, 6, len - t.l4) + t_csum_add(0, f + t.l4, len - t.l4)));
}

/* Split the input into frames, copied into the arena. */
static size_t
fz_rx_frames(const uint8_t *p, size_t rem, uint8_t m)
{
	size_t n = 0, used = 0, l;

	while (rem >= 2 && n < FZ_FRAMES) {
		l = bs_get16(p);
		p += 2;
		rem -= 2;
		if (l > rem)
			l = rem;
		if (l > FZ_ARENA - used)
			break;
		if (l >= 14) {
			memcpy(fz_arena + used, p, l);
			fz_fix(fz_arena + used, l, m);
			fz_frames[n].off = used;
			fz_frames[n].len = l;
			used += l;
			n++;
		}
		p += l;
		rem -= l;
	}
	return n;
}

static void
fz_rx(const uint8_t *data, size_t size)
{
	struct tapoff_stats st;
	struct tapoff_gro g;
	struct fz_rx x;
	size_t i;
	int r;

	memset(&x, 0, sizeof(x));
	memset(&st, 0, sizeof(st));
	x.every = data[0] >> 4;
	x.nframes = fz_rx_frames(data + 1, size - 1, data[0]);
	tapoff_gro_init(&g, fz_gbuf);
	for (i = 0; i <= x.nframes; i++) {
		x.call_failed = 0;
		if (i < x.nframes)
			r = tapoff_gro_add(&g, fz_in(i), fz_frames[i].len,
			    fz_rx_write, &x, &st);
		else
			r = tapoff_gro_flush(&g, fz_rx_write, &x, &st);
		FZ_CHECK(r == (x.call_failed ? -1 : 0));
		/* What was written so far never runs ahead of the input. */
		FZ_CHECK(x.cursor <= i + 1);
	}
	FZ_CHECK(x.cursor == x.nframes);
	FZ_CHECK(st.write_errors == x.failed && st.gro_out == x.gso_writes &&
	    st.gro_segs == x.gso_segs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if ((data[0] & 1) == 0)
		fz_tx(data, size);
	else
		fz_rx(data, size);
	return 0;
}
