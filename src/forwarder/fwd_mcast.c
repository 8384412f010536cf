/*
 * fwd_mcast.c — multicast listeners (fwd_mcast.h).
 */
#include <string.h>

#include "fwd_mcast.h"
#include "fwd_tables.h"
#include "proto/ipc_msg.h"

#define MC_ETH_HLEN	14
#define MC_EXT_MAX	4		/* IPv6 extension headers walked */

void
fwd_mcast_init(struct fwd_mcast *m)
{
	memset(m, 0, sizeof(*m));
}

static uint16_t
mc_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

int
fwd_mcast_snoopable(const uint8_t dst[static BS_ADDR_LEN])
{
	static const uint8_t zero3[3];

	if (!wire_mcast_group_ok(dst))
		return 0;
	/* 224.0.0.0/24 and 33:33:00:00:00:xx: everyone listens. */
	if (dst[0] == 0x01)
		return !(dst[3] == 0 && dst[4] == 0);
	return memcmp(dst + 2, zero3, 3) != 0;
}

static int
mc_local_live(const struct fwd_mcast_local *l, uint64_t now_ms)
{
	return l->used && (l->own || (now_ms >= l->seen_ms &&
	    now_ms - l->seen_ms < FWD_MCAST_LISTEN_MS));
}

/* A report for group mac (family 0 IPv4, 1 IPv6): join or leave. */
static void
mc_note(struct fwd_mcast *m, const uint8_t mac[BS_ADDR_LEN], int fam,
    int join, int own, uint64_t now_ms)
{
	struct fwd_mcast_local *l, *room = NULL;
	unsigned i;

	if (!fwd_mcast_snoopable(mac))
		return;
	for (i = 0; i < FWD_MCAST_LOCAL_MAX; i++) {
		l = &m->local[i];
		if (l->used && memcmp(l->group, mac, BS_ADDR_LEN) == 0) {
			if (join) {
				l->seen_ms = now_ms;
				l->own |= (uint8_t)(own != 0);
				m->c.reports++;
			} else {
				memset(l, 0, sizeof(*l));
				m->c.leaves++;
			}
			return;
		}
		if (room == NULL && !mc_local_live(l, now_ms))
			room = l;
	}
	if (!join)
		return;
	m->c.reports++;
	if (room == NULL) {
		/* Cannot list it: ask for every group of the family. */
		m->c.local_full++;
		m->all_until_ms[fam] = now_ms + FWD_MCAST_LISTEN_MS;
		return;
	}
	memset(room, 0, sizeof(*room));
	memcpy(room->group, mac, BS_ADDR_LEN);
	room->used = 1;
	room->own = own != 0;
	room->seen_ms = now_ms;
}

/* One IGMPv3 / MLDv2 group record type: 1 join, 0 leave, -1 neither. */
static int
mc_record(uint8_t type, uint16_t nsrc)
{
	switch (type) {
	case 2:			/* MODE_IS_EXCLUDE */
	case 4:			/* CHANGE_TO_EXCLUDE_MODE */
		return 1;
	case 1:			/* MODE_IS_INCLUDE */
	case 5:			/* ALLOW_NEW_SOURCES */
		return nsrc > 0 ? 1 : -1;
	case 3:			/* CHANGE_TO_INCLUDE_MODE */
		return nsrc > 0 ? 1 : 0;
	default:		/* BLOCK_OLD_SOURCES, unknown */
		return -1;
	}
}

static void
mc_mac4(const uint8_t g[4], uint8_t mac[BS_ADDR_LEN])
{
	mac[0] = 0x01;
	mac[1] = 0x00;
	mac[2] = 0x5e;
	mac[3] = g[1] & 0x7f;
	mac[4] = g[2];
	mac[5] = g[3];
}

static void
mc_mac6(const uint8_t g[16], uint8_t mac[BS_ADDR_LEN])
{
	mac[0] = 0x33;
	mac[1] = 0x33;
	memcpy(mac + 2, g + 12, 4);
}

/*
 * The group records of an IGMPv3 (fam 0) or MLDv2 (fam 1) report p[0..n):
 * the number of records at 6, records from 8: type, aux words, source
 * count, the group (4 or 16 bytes), the sources, the aux data.  Stops at
 * the first record that does not fit.
 */
static void
mc_records(struct fwd_mcast *m, const uint8_t *p, size_t n, int fam,
    int own, uint64_t now_ms)
{
	size_t glen = fam ? 16 : 4, off, rl;
	uint8_t mac[BS_ADDR_LEN];
	unsigned nrec = mc_get16(p + 6), i;
	int j;

	for (off = 8, i = 0; i < nrec; i++, off += rl) {
		if (n - off < 4 + glen)
			return;
		rl = 4 + glen + glen * (size_t)mc_get16(p + off + 2) + 4 *
		    (size_t)p[off + 1];
		if (rl > n - off)
			return;
		if (fam ? p[off + 4] != 0xff : (p[off + 4] & 0xf0) != 0xe0)
			continue;
		if ((j = mc_record(p[off], mc_get16(p + off + 2))) < 0)
			continue;
		if (fam)
			mc_mac6(p + off + 4, mac);
		else
			mc_mac4(p + off + 4, mac);
		mc_note(m, mac, fam, j, own, now_ms);
	}
}

/* IGMP message p[0..n): v1/v2 reports and leaves, v3 reports. */
static void
mc_igmp(struct fwd_mcast *m, const uint8_t *p, size_t n, int own,
    uint64_t now_ms)
{
	uint8_t mac[BS_ADDR_LEN];

	if (n < 8)
		return;
	if (p[0] == 0x12 || p[0] == 0x16 || p[0] == 0x17) {
		if ((p[4] & 0xf0) != 0xe0)
			return;
		mc_mac4(p + 4, mac);
		mc_note(m, mac, 0, p[0] != 0x17, own, now_ms);
		return;
	}
	if (p[0] == 0x22)
		mc_records(m, p, n, 0, own, now_ms);
}

/* ICMPv6 message p[0..n): MLDv1 reports and dones, MLDv2 reports. */
static void
mc_mld(struct fwd_mcast *m, const uint8_t *p, size_t n, int own,
    uint64_t now_ms)
{
	uint8_t mac[BS_ADDR_LEN];

	if (n < 8)
		return;
	if (p[0] == 131 || p[0] == 132) {
		if (n < 24 || p[8] != 0xff)
			return;
		mc_mac6(p + 8, mac);
		mc_note(m, mac, 1, p[0] == 131, own, now_ms);
		return;
	}
	if (p[0] == 143)
		mc_records(m, p, n, 1, own, now_ms);
}

void
fwd_mcast_snoop(struct fwd_mcast *m, const uint8_t *frame, size_t len,
    int own, uint64_t now_ms)
{
	size_t off = MC_ETH_HLEN, ihl, tot, plen;
	uint16_t type;
	uint8_t nh;
	unsigned k;

	if (len < MC_ETH_HLEN || !(frame[0] & 0x01))
		return;
	type = mc_get16(frame + 12);
	if (type == 0x8100 && len >= MC_ETH_HLEN + 4) {
		type = mc_get16(frame + 16);
		off += 4;
	}
	if (type == 0x0800) {
		if (len - off < 20 || (frame[off] >> 4) != 4)
			return;
		ihl = (size_t)(frame[off] & 0x0f) * 4;
		tot = mc_get16(frame + off + 2);
		if (ihl < 20 || tot < ihl || tot > len - off ||
		    frame[off + 9] != 2)
			return;
		mc_igmp(m, frame + off + ihl, tot - ihl, own, now_ms);
		return;
	}
	if (type != 0x86dd || len - off < 40 || (frame[off] >> 4) != 6)
		return;
	plen = mc_get16(frame + off + 4);
	nh = frame[off + 6];
	off += 40;
	if (plen > len - off)
		return;
	/* Hop-by-hop (MLD's router alert) and destination options. */
	for (k = 0; k < MC_EXT_MAX && (nh == 0 || nh == 60); k++) {
		size_t el;

		if (plen < 8)
			return;
		el = ((size_t)frame[off + 1] + 1) * 8;
		if (el > plen)
			return;
		nh = frame[off];
		off += el;
		plen -= el;
	}
	if (nh == 58)
		mc_mld(m, frame + off, plen, own, now_ms);
}

int
fwd_mcast_put(struct fwd_mcast *m, uint8_t *buf, size_t cap, size_t *len,
    int bridged, uint64_t now_ms)
{
	uint8_t g[WIRE_MCAST_MAX * BS_ADDR_LEN];
	uint8_t flags = 0;
	unsigned i, n = 0, live = 0;

	if (m->mode == BS_MCAST_FLOOD ||
	    (m->mode == BS_MCAST_AUTO && bridged))
		return wire_tvlv_put_mcast(buf, cap, len,
		    WIRE_MCAST_F_ALL4 | WIRE_MCAST_F_ALL6, NULL, 0);
	if (now_ms < m->all_until_ms[0])
		flags |= WIRE_MCAST_F_ALL4;
	if (now_ms < m->all_until_ms[1])
		flags |= WIRE_MCAST_F_ALL6;
	for (i = 0; i < FWD_MCAST_LOCAL_MAX; i++) {
		const struct fwd_mcast_local *l = &m->local[i];

		if (!mc_local_live(l, now_ms))
			continue;
		live++;
		if ((l->group[0] == 0x01 && (flags & WIRE_MCAST_F_ALL4)) ||
		    (l->group[0] == 0x33 && (flags & WIRE_MCAST_F_ALL6)))
			continue;
		if (n < WIRE_MCAST_MAX)
			memcpy(g + (size_t)n * BS_ADDR_LEN, l->group,
			    BS_ADDR_LEN);
		n++;
	}
	if (n > WIRE_MCAST_MAX) {		/* more than a container lists */
		flags = WIRE_MCAST_F_ALL4 | WIRE_MCAST_F_ALL6;
		n = 0;
	}
	if (wire_tvlv_put_mcast(buf, cap, len, flags, g, n) == WIRE_OK)
		return WIRE_OK;
	/* No room for the list: every group, in 6 bytes (or nothing). */
	if (live > 0)
		flags = WIRE_MCAST_F_ALL4 | WIRE_MCAST_F_ALL6;
	return wire_tvlv_put_mcast(buf, cap, len, flags, NULL, 0);
}

static struct fwd_mcast_orig *
mc_orig_find(struct fwd_mcast *m, const uint8_t *orig)
{
	unsigned i;

	for (i = 0; i < FWD_MCAST_ORIG_MAX; i++)
		if (m->orig[i].used &&
		    memcmp(m->orig[i].orig, orig, BS_ADDR_LEN) == 0)
			return &m->orig[i];
	return NULL;
}

void
fwd_mcast_remote(struct fwd_mcast *m, const struct ipc_mcast *msg,
    uint64_t now_ms)
{
	struct fwd_mcast_orig *o = mc_orig_find(m, msg->orig_addr), *old;
	unsigned i;

	if (o == NULL) {
		for (i = 0, old = NULL; i < FWD_MCAST_ORIG_MAX && o == NULL;
		    i++) {
			if (!m->orig[i].used)
				o = &m->orig[i];
			else if (old == NULL ||
			    m->orig[i].since_ms < old->since_ms)
				old = &m->orig[i];
		}
		if (o == NULL) {		/* the set heard of longest ago */
			m->c.orig_full++;
			o = old;
		}
		memset(o, 0, sizeof(*o));
		memcpy(o->orig, msg->orig_addr, BS_ADDR_LEN);
		o->used = 1;
	}
	o->known = msg->known != 0;
	o->flags = msg->flags;
	o->n = msg->count <= WIRE_MCAST_MAX ? msg->count : WIRE_MCAST_MAX;
	memcpy(o->group, msg->group, (size_t)o->n * BS_ADDR_LEN);
	o->since_ms = now_ms;
}

static int
mc_orig_wants(const struct fwd_mcast_orig *o, const uint8_t *dst)
{
	unsigned i;

	if (dst[0] == 0x01 && (o->flags & WIRE_MCAST_F_ALL4))
		return 1;
	if (dst[0] == 0x33 && (o->flags & WIRE_MCAST_F_ALL6))
		return 1;
	for (i = 0; i < o->n; i++)
		if (memcmp(o->group[i], dst, BS_ADDR_LEN) == 0)
			return 1;
	return 0;
}

int
fwd_mcast_targets(struct fwd_mcast *m, const struct fwd_tables *t,
    const uint8_t dst[static BS_ADDR_LEN], uint8_t out[][BS_ADDR_LEN])
{
	size_t routed = 0, want = 0;
	unsigned i;

	for (i = 0; i < FWD_MCAST_ORIG_MAX; i++) {
		const struct fwd_mcast_orig *o = &m->orig[i];

		if (!o->used || !o->known || fwd_route_find(t, o->orig) == NULL)
			continue;
		routed++;
		if (!mc_orig_wants(o, dst))
			continue;
		if (want < FWD_MCAST_UNICAST_MAX)
			memcpy(out[want], o->orig, BS_ADDR_LEN);
		want++;
	}
	/* Someone we reach did not say what it listens to; or too many. */
	if (routed < fwd_route_count(t) || want > FWD_MCAST_UNICAST_MAX) {
		m->c.flooded++;
		return -1;
	}
	if (want == 0) {
		m->c.no_listener++;
		return 0;
	}
	m->c.unicast++;
	m->c.unicast_copies += want;
	return (int)want;
}

unsigned
fwd_mcast_local_list(const struct fwd_mcast *m, uint64_t now_ms,
    uint8_t out[][BS_ADDR_LEN], unsigned max)
{
	unsigned i, n = 0;

	for (i = 0; i < FWD_MCAST_LOCAL_MAX && n < max; i++)
		if (mc_local_live(&m->local[i], now_ms))
			memcpy(out[n++], m->local[i].group, BS_ADDR_LEN);
	return n;
}
