/*
 * tapoff.c — TCP segmentation of what the host sends through the TAP, and
 * joining of what the mesh delivers to it (tapoff.h).
 */
#include <string.h>

#include <linux/virtio_net.h>

#include "bs_bytes.h"
#include "tapoff.h"

#define TO_ETH_LEN	14
#define TO_VLAN_LEN	4
#define TO_ETH_IP4	0x0800
#define TO_ETH_IP6	0x86DD
#define TO_ETH_VLAN	0x8100
#define TO_IP4_MIN	20
#define TO_IP6_LEN	40
#define TO_TCP_MIN	20
#define TO_PROTO_TCP	6
#define TO_TCP_CSUM	16	/* offset of the checksum in the TCP header */
#define TO_IP_MAX	65535

/* TCP flags (byte 13 of the header). */
#define TO_FIN		0x01
#define TO_SYN		0x02
#define TO_RST		0x04
#define TO_PSH		0x08
#define TO_ACK		0x10
#define TO_URG		0x20
#define TO_ECE		0x40
#define TO_CWR		0x80


/* ---- the Internet checksum (RFC 1071) ------------------------------------------- */

/*
 * The ones' complement sum does not depend on byte order (RFC 1071,
 * 2.(B)): add native 32-bit words, fold to 16 bits, and swap once at the
 * end on a little-endian machine.  This runs over every byte of every
 * TCP segment in both directions, hence 16 bytes a round into four
 * independent sums (about three times the speed of one).
 */
uint64_t
tapoff_sum(uint64_t acc, const uint8_t *p, size_t len)
{
	uint64_t s = 0, s1 = 0, s2 = 0, s3 = 0;
	uint32_t w, v[4];
	uint16_t h;
	size_t i = 0;

	/* 2^32 words of 2^32 - 1 cannot overflow 64 bits; len < 2^32. */
	for (; i + 16 <= len; i += 16) {
		memcpy(v, p + i, 16);
		s += v[0];
		s1 += v[1];
		s2 += v[2];
		s3 += v[3];
	}
	s += s1 + s2 + s3;
	for (; i + 4 <= len; i += 4) {
		memcpy(&w, p + i, 4);
		s += w;
	}
	if (i + 2 <= len) {
		memcpy(&h, p + i, 2);
		s += h;
		i += 2;
	}
	if (i < len) {
		h = 0;
		memcpy(&h, p + i, 1);	/* the high byte, in network order */
		s += h;
	}
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	s = (uint16_t)(s >> 8 | s << 8);
#endif
	return acc + s;
}

uint16_t
tapoff_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The pseudo-header's sum for a TCP (or UDP) length of l4len bytes. */
static uint64_t
to_pseudo(const uint8_t *ip, int v6, uint8_t proto, size_t l4len)
{
	uint64_t s;

	if (v6)
		s = tapoff_sum(0, ip + 8, 32);
	else
		s = tapoff_sum(0, ip + 12, 8);
	return s + proto + (l4len & 0xffff) + (l4len >> 16);
}

/* The IPv4 header checksum of the ihl bytes at ip, written in place. */
static void
to_ip4_csum(uint8_t *ip, size_t ihl)
{
	bs_put16(ip + 10, 0);
	bs_put16(ip + 10, tapoff_fold(tapoff_sum(0, ip, ihl)));
}

/* ---- parsing a TCP packet --------------------------------------------------------- */

struct to_tcp {
	size_t l3, l4, hlen;	/* offsets of IP, TCP and the payload */
	int v6;
};

/*
 * Ethernet (an 802.1Q tag allowed when vlan_ok), IPv4 or IPv6 without
 * extension headers, TCP.  0 with *t, or -1.
 */
static int
to_parse_tcp(const uint8_t *pkt, size_t len, int vlan_ok, struct to_tcp *t)
{
	size_t l3 = TO_ETH_LEN, ihl, thl;
	uint16_t type;

	if (len < TO_ETH_LEN)
		return -1;
	type = bs_get16(pkt + 12);
	if (type == TO_ETH_VLAN && vlan_ok) {
		if (len < TO_ETH_LEN + TO_VLAN_LEN)
			return -1;
		type = bs_get16(pkt + 16);
		l3 += TO_VLAN_LEN;
	}
	if (type == TO_ETH_IP4) {
		if (len - l3 < TO_IP4_MIN || pkt[l3] >> 4 != 4 ||
		    pkt[l3 + 9] != TO_PROTO_TCP)
			return -1;
		ihl = (size_t)(pkt[l3] & 0x0f) * 4;
		t->v6 = 0;
	} else if (type == TO_ETH_IP6) {
		if (len - l3 < TO_IP6_LEN || pkt[l3] >> 4 != 6 ||
		    pkt[l3 + 6] != TO_PROTO_TCP)
			return -1;
		ihl = TO_IP6_LEN;
		t->v6 = 1;
	} else
		return -1;
	if (ihl < TO_IP4_MIN || len - l3 < ihl + TO_TCP_MIN)
		return -1;
	thl = (size_t)(pkt[l3 + ihl + 12] >> 4) * 4;
	if (thl < TO_TCP_MIN || len - l3 - ihl < thl)
		return -1;
	t->l3 = l3;
	t->l4 = l3 + ihl;
	t->hlen = l3 + ihl + thl;
	return 0;
}

/* ---- host -> mesh ------------------------------------------------------------------- */

/* Complete a checksum the host left to us: ~sum from start to the end. */
static int
to_csum_complete(uint8_t *pkt, size_t len, size_t start, size_t off)
{
	uint16_t c;

	if (start < TO_ETH_LEN || start > len || off > len - start ||
	    len - start - off < 2)
		return -1;
	c = tapoff_fold(tapoff_sum(0, pkt + start, len - start));
	bs_put16(pkt + start + off, c != 0 ? c : 0xffff);
	return 0;
}

/* Segment i of n (payload off..off+plen) of the TSO packet pkt, in seg. */
static size_t
to_segment(const uint8_t *pkt, const struct to_tcp *t, uint8_t *seg,
    size_t off, size_t plen, unsigned i, int last)
{
	uint8_t *ip = seg + t->l3, *th = seg + t->l4;
	size_t tcplen = t->hlen - t->l4 + plen;
	uint8_t flags;

	memcpy(seg, pkt, t->hlen);
	memcpy(seg + t->hlen, pkt + t->hlen + off, plen);
	if (t->v6)
		bs_put16(ip + 4, (uint16_t)tcplen);
	else {
		bs_put16(ip + 2, (uint16_t)(t->l4 - t->l3 + tcplen));
		bs_put16(ip + 4, (uint16_t)(bs_get16(ip + 4) + i));
		to_ip4_csum(ip, t->l4 - t->l3);
	}
	bs_put32(th + 4, bs_get32(th + 4) + (uint32_t)off);
	flags = th[13];
	if (!last)
		flags &= (uint8_t)~(TO_FIN | TO_PSH);
	if (i > 0)
		flags &= (uint8_t)~TO_CWR;
	th[13] = flags;
	bs_put16(th + TO_TCP_CSUM, 0);
	bs_put16(th + TO_TCP_CSUM, tapoff_fold(to_pseudo(ip, t->v6,
	    TO_PROTO_TCP, tcplen) + tapoff_sum(0, th, tcplen)));
	return t->hlen + plen;
}

static size_t
to_tso(uint8_t *pkt, size_t len, uint8_t gso, size_t mss, uint8_t *seg,
    size_t frame_max, tapoff_emit_fn emit, void *arg, struct tapoff_stats *st)
{
	struct to_tcp t;
	size_t payload, off, plen, n = 0;

	if (to_parse_tcp(pkt, len, 1, &t) != 0 ||
	    t.v6 != (gso == VIRTIO_NET_HDR_GSO_TCPV6) || mss == 0 ||
	    len - t.l3 > TO_IP_MAX)
		return 0;
	payload = len - t.hlen;
	/* The largest segment must fit the mesh. */
	if (t.hlen + (payload < mss ? payload : mss) > frame_max)
		return 0;
	st->tso_in++;
	if (payload == 0) {
		emit(arg, seg, to_segment(pkt, &t, seg, 0, 0, 0, 1));
		st->tso_segs++;
		return 1;
	}
	for (off = 0; off < payload; off += plen, n++) {
		plen = payload - off < mss ? payload - off : mss;
		emit(arg, seg, to_segment(pkt, &t, seg, off, plen,
		    (unsigned)n, off + plen == payload));
	}
	st->tso_segs += n;
	return n;
}

size_t
tapoff_tx(const uint8_t vnet[TAPOFF_VNET_LEN], uint8_t *pkt, size_t len,
    uint8_t *seg, size_t frame_max, tapoff_emit_fn emit, void *arg,
    struct tapoff_stats *st)
{
	struct virtio_net_hdr h;
	uint8_t gso;
	size_t n = 0;

	memcpy(&h, vnet, sizeof(h));
	gso = h.gso_type & (uint8_t)~VIRTIO_NET_HDR_GSO_ECN;
	if (gso == VIRTIO_NET_HDR_GSO_NONE) {
		if (len < TO_ETH_LEN || len > frame_max)
			goto bad;
		if ((h.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) != 0) {
			if (to_csum_complete(pkt, len, h.csum_start,
			    h.csum_offset) != 0)
				goto bad;
			st->csum_done++;
		}
		emit(arg, pkt, len);
		return 1;
	}
	/* A TSO packet's checksum is rebuilt per segment anyway. */
	if (gso == VIRTIO_NET_HDR_GSO_TCPV4 || gso == VIRTIO_NET_HDR_GSO_TCPV6)
		n = to_tso(pkt, len, gso, h.gso_size, seg, frame_max, emit, arg,
		    st);
	if (n > 0)
		return n;
bad:
	st->tx_bad++;
	return 0;
}

/* ---- mesh -> host ------------------------------------------------------------------- */

void
tapoff_gro_init(struct tapoff_gro *g, uint8_t *buf)
{
	memset(g, 0, sizeof(*g));
	g->buf = buf;
}

static int
to_write(const uint8_t *vnet, const uint8_t *pkt, size_t len,
    tapoff_write_fn w, void *arg, struct tapoff_stats *st)
{
	if (w(arg, vnet, pkt, len) == 0)
		return 0;
	st->write_errors++;
	return -1;
}

/*
 * A segment that may be joined: t filled, *seq its sequence number,
 * *plen its payload.  The IPv4 header and TCP checksums must verify:
 * the joined packet's are rebuilt, so a corrupted segment would
 * otherwise pass.  1 joinable, 0 not.
 */
static int
to_joinable(const uint8_t *f, size_t len, struct to_tcp *t, uint32_t *seq,
    size_t *plen, struct tapoff_stats *st)
{
	const uint8_t *ip, *th;
	size_t iplen;

	if (to_parse_tcp(f, len, 0, t) != 0)
		return 0;
	ip = f + t->l3;
	th = f + t->l4;
	iplen = t->v6 ? TO_IP6_LEN + (size_t)bs_get16(ip + 4) :
	    bs_get16(ip + 2);
	if (len - t->l3 != iplen || len == t->hlen ||
	    (th[13] & (TO_FIN | TO_SYN | TO_RST | TO_URG | TO_ECE |
	    TO_CWR | TO_ACK)) != TO_ACK)
		return 0;
	/* IPv4: no options, not a fragment, header checksum good. */
	if (!t->v6 && (t->l4 - t->l3 != TO_IP4_MIN ||
	    (bs_get16(ip + 6) & 0x3fff) != 0 ||
	    tapoff_fold(tapoff_sum(0, ip, TO_IP4_MIN)) != 0))
		return 0;
	if (tapoff_fold(to_pseudo(ip, t->v6, TO_PROTO_TCP, len - t->l4) +
	    tapoff_sum(0, th, len - t->l4)) != 0) {
		st->rx_bad_csum++;
		return 0;
	}
	*seq = bs_get32(th + 4);
	*plen = len - t->hlen;
	return 1;
}

/* Same connection and headers as the pending run, but for the fields a
 * join changes: IP length, ID and checksum, TCP seq, checksum, PSH. */
static int
to_continues(const struct tapoff_gro *g, const uint8_t *f,
    const struct to_tcp *t, uint32_t seq, size_t plen)
{
	const uint8_t *a = g->buf, *ip = f + t->l3, *th = f + t->l4;
	const uint8_t *gip = a + g->l3, *gth = a + g->l4;

	if (t->v6 != g->v6 || t->l4 != g->l4 || t->hlen != g->hlen ||
	    seq != g->next_seq || plen > g->mss ||
	    g->len - g->l3 + plen > TO_IP_MAX ||
	    memcmp(f, a, TO_ETH_LEN) != 0)
		return 0;
	if (t->v6 ? memcmp(ip, gip, 4) != 0 ||
	    memcmp(ip + 6, gip + 6, TO_IP6_LEN - 6) != 0 :
	    memcmp(ip, gip, 2) != 0 || memcmp(ip + 6, gip + 6, 4) != 0 ||
	    memcmp(ip + 12, gip + 12, 8) != 0)
		return 0;
	return memcmp(th, gth, 4) == 0 &&
	    memcmp(th + 8, gth + 8, 5) == 0 &&
	    (th[13] & (uint8_t)~TO_PSH) == (gth[13] & (uint8_t)~TO_PSH) &&
	    memcmp(th + 14, gth + 14, 2) == 0 &&
	    memcmp(th + 18, gth + 18, t->hlen - t->l4 - 18) == 0;
}

int
tapoff_gro_flush(struct tapoff_gro *g, tapoff_write_fn w, void *arg,
    struct tapoff_stats *st)
{
	struct virtio_net_hdr h;
	uint8_t vnet[TAPOFF_VNET_LEN], *ip = g->buf + g->l3;
	uint8_t *th = g->buf + g->l4;
	size_t tcplen = g->len - g->l4;
	int r;

	if (g->len == 0)
		return 0;
	memset(&h, 0, sizeof(h));
	if (g->nseg == 1) {
		/* Its checksums were verified: the host need not again. */
		h.flags = VIRTIO_NET_HDR_F_DATA_VALID;
	} else {
		if (g->v6)
			bs_put16(ip + 4, (uint16_t)tcplen);
		else {
			bs_put16(ip + 2, (uint16_t)(g->len - g->l3));
			to_ip4_csum(ip, TO_IP4_MIN);
		}
		if (g->psh)
			th[13] |= TO_PSH;
		/* NEEDS_CSUM: the field holds the pseudo-header's sum. */
		bs_put16(th + TO_TCP_CSUM, (uint16_t)~tapoff_fold(to_pseudo(ip,
		    g->v6, TO_PROTO_TCP, tcplen)));
		h.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
		h.gso_type = g->v6 ? VIRTIO_NET_HDR_GSO_TCPV6 :
		    VIRTIO_NET_HDR_GSO_TCPV4;
		h.hdr_len = (uint16_t)g->hlen;
		h.gso_size = g->mss;
		h.csum_start = (uint16_t)g->l4;
		h.csum_offset = TO_TCP_CSUM;
		st->gro_out++;
		st->gro_segs += g->nseg;
	}
	memcpy(vnet, &h, sizeof(vnet));
	r = to_write(vnet, g->buf, g->len, w, arg, st);
	g->len = 0;
	g->nseg = 0;
	return r;
}

int
tapoff_gro_add(struct tapoff_gro *g, const uint8_t *frame, size_t len,
    tapoff_write_fn w, void *arg, struct tapoff_stats *st)
{
	static const uint8_t plain[TAPOFF_VNET_LEN];
	struct to_tcp t;
	uint32_t seq;
	size_t plen;
	int r = 0, psh;

	if (len < TO_ETH_LEN || len > TAPOFF_PKT_MAX)
		return -1;
	if (!to_joinable(frame, len, &t, &seq, &plen, st)) {
		r = tapoff_gro_flush(g, w, arg, st);
		return to_write(plain, frame, len, w, arg, st) != 0 ? -1 : r;
	}
	psh = (frame[t.l4 + 13] & TO_PSH) != 0;
	if (g->len != 0 && to_continues(g, frame, &t, seq, plen)) {
		memcpy(g->buf + g->len, frame + t.hlen, plen);
		g->len += plen;
		g->nseg++;
	} else {
		r = tapoff_gro_flush(g, w, arg, st);
		memcpy(g->buf, frame, len);
		g->len = len;
		g->l3 = t.l3;
		g->l4 = t.l4;
		g->hlen = t.hlen;
		g->v6 = (uint8_t)t.v6;
		g->mss = (uint16_t)plen;
		g->nseg = 1;
	}
	g->next_seq = seq + (uint32_t)plen;
	g->psh = (uint8_t)psh;
	/* PSH, a short segment or no room for another: write it now. */
	if (psh || plen < g->mss || g->len - g->l3 + g->mss > TO_IP_MAX) {
		if (tapoff_gro_flush(g, w, arg, st) != 0)
			r = -1;
	}
	return r;
}
