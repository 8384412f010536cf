/*
 * fwd_dat.c — the local ARP and neighbour discovery answer cache (see
 * fwd_dat.h).
 */
#include <string.h>

#include "bs_bytes.h"
#include "fwd_dat.h"
#include "proto/wire.h"

#define DAT_ETH_P_8021Q	0x8100
#define DAT_ETH_P_ARP	0x0806
#define DAT_ETH_HLEN	14
#define DAT_VLAN_HLEN	4
#define DAT_ARP_LEN	28		/* Ethernet/IPv4 */
#define DAT_ARP_REQUEST	1
#define DAT_ARP_REPLY	2
#define DAT_ETH_P_IPV6	0x86dd
#define DAT_IP6_HLEN	40
#define DAT_ICMP6	58
#define DAT_ND_HLEN	24		/* ICMPv6 header, flags, target */
#define DAT_ND_OPT_SLLA	1
#define DAT_ND_OPT_TLLA	2
#define DAT_NA_LEN	32		/* with its target LLA option */

/* An address key: IPv6, or IPv4 as IPv4-mapped (::ffff:a.b.c.d). */
static void
dat_key4(uint8_t key[16], const uint8_t ip[4])
{
	memset(key, 0, 10);
	key[10] = key[11] = 0xff;
	memcpy(key + 12, ip, 4);
}

/* ---- the list and the index --------------------------------------------- */

static uint32_t
dat_hash(const struct fwd_dat *dt, const uint8_t ip[16], uint16_t vid)
{
	uint8_t in[18], out[crypto_shorthash_BYTES];

	memcpy(in, ip, 16);
	in[16] = (uint8_t)(vid >> 8);
	in[17] = (uint8_t)vid;
	crypto_shorthash(out, in, sizeof(in), dt->hkey);
	return (uint32_t)(bs_get32(out) & (FWD_DAT_BUCKETS - 1));
}

void
fwd_dat_clear(struct fwd_dat *dt)
{
	size_t i;

	for (i = 0; i < FWD_DAT_BUCKETS; i++)
		dt->bucket[i] = -1;
	for (i = 0; i < FWD_DAT_MAX; i++) {
		memset(&dt->e[i], 0, sizeof(dt->e[i]));
		dt->e[i].hnext = i + 1 < FWD_DAT_MAX ? (int32_t)(i + 1) : -1;
		dt->e[i].prev = dt->e[i].next = -1;
	}
	dt->free_ = 0;
	dt->head = dt->tail = -1;
	dt->n = 0;
	memset(dt->own, 0, sizeof(dt->own));
}

void
fwd_dat_init(struct fwd_dat *dt)
{
	memset(&dt->c, 0, sizeof(dt->c));
	dt->enabled = 1;
	crypto_shorthash_keygen(dt->hkey);
	fwd_dat_clear(dt);
}

size_t
fwd_dat_count(const struct fwd_dat *dt)
{
	return dt->n;
}

static void
dat_unlink(struct fwd_dat *dt, int32_t i)
{
	struct fwd_dat_entry *e = &dt->e[i];

	if (e->prev >= 0)
		dt->e[e->prev].next = e->next;
	else
		dt->head = e->next;
	if (e->next >= 0)
		dt->e[e->next].prev = e->prev;
	else
		dt->tail = e->prev;
	e->prev = e->next = -1;
}

static void
dat_push_front(struct fwd_dat *dt, int32_t i)
{
	struct fwd_dat_entry *e = &dt->e[i];

	e->prev = -1;
	e->next = dt->head;
	if (dt->head >= 0)
		dt->e[dt->head].prev = i;
	dt->head = i;
	if (dt->tail < 0)
		dt->tail = i;
}

static int32_t
dat_find(const struct fwd_dat *dt, const uint8_t ip[16], uint16_t vid)
{
	int32_t i = dt->bucket[dat_hash(dt, ip, vid)];

	while (i >= 0) {
		if (memcmp(dt->e[i].ip, ip, 16) == 0 && dt->e[i].vid == vid)
			return i;
		i = dt->e[i].hnext;
	}
	return -1;
}

static void
dat_del(struct fwd_dat *dt, int32_t i)
{
	struct fwd_dat_entry *e = &dt->e[i];
	int32_t *pp = &dt->bucket[dat_hash(dt, e->ip, e->vid)];

	while (*pp >= 0 && *pp != i)
		pp = &dt->e[*pp].hnext;
	if (*pp == i)
		*pp = e->hnext;
	dat_unlink(dt, i);
	memset(e, 0, sizeof(*e));
	e->prev = e->next = -1;
	e->hnext = dt->free_;
	dt->free_ = i;
	dt->n--;
}

/*
 * A new entry for (ip, vid) learnt from orig: orig's oldest entry makes
 * room when it has FWD_DAT_PER_ORIG, else the oldest of all when full.
 */
static int32_t
dat_new(struct fwd_dat *dt, const uint8_t ip[16], uint16_t vid,
    const uint8_t *orig)
{
	struct fwd_dat_entry *e;
	int32_t i, own_oldest = -1;
	size_t own = 0;
	uint32_t h;

	for (i = dt->tail; i >= 0; i = dt->e[i].prev)
		if (memcmp(dt->e[i].orig, orig, BS_ADDR_LEN) == 0 &&
		    own++ == 0)
			own_oldest = i;
	if (own >= FWD_DAT_PER_ORIG) {
		dat_del(dt, own_oldest);
		dt->c.evicted++;
	} else if (dt->free_ < 0) {
		dat_del(dt, dt->tail);
		dt->c.evicted++;
	}
	i = dt->free_;
	e = &dt->e[i];
	dt->free_ = e->hnext;
	memcpy(e->ip, ip, 16);
	e->vid = vid;
	e->used = 1;
	h = dat_hash(dt, ip, vid);
	e->hnext = dt->bucket[h];
	dt->bucket[h] = i;
	dat_push_front(dt, i);
	dt->n++;
	return i;
}

/* ---- validity ------------------------------------------------------------- */

static int
dat_expired(const struct fwd_dat_entry *e, uint64_t now_ms)
{
	return now_ms < e->learnt_ms ||
	    now_ms - e->learnt_ms >= FWD_DAT_TIMEOUT_MS;
}

/* mac in vid is claimed by orig, and orig is reachable. */
static int
dat_claimed(const struct fwd_tables *t, const uint8_t *mac, uint16_t vid,
    const uint8_t *orig)
{
	const struct fwd_client *cl = fwd_client_find(t, mac, vid);

	return cl != NULL &&
	    memcmp(cl->orig_addr, orig, BS_ADDR_LEN) == 0 &&
	    fwd_route_find(t, orig) != NULL;
}

/*
 * 1: entry i stays; 0: it was dropped (counted).  A conflict entry stays
 * until it expires, whatever the claims say.
 */
static int
dat_check(struct fwd_dat *dt, const struct fwd_tables *t, int32_t i,
    uint64_t now_ms)
{
	struct fwd_dat_entry *e = &dt->e[i];

	if (dat_expired(e, now_ms)) {
		dt->c.expired++;
		dat_del(dt, i);
		return 0;
	}
	if (!e->conflict && !dat_claimed(t, e->mac, e->vid, e->orig)) {
		dt->c.invalidated++;
		dat_del(dt, i);
		return 0;
	}
	return 1;
}

/* ---- frames ------------------------------------------------------------------ */

/*
 * After the Ethernet header at frame: one 802.1Q tag read into *tagged,
 * *tci and *vid; the EtherType and its offset, in *type and *off.  0
 * when len cannot hold the header, the tag and need bytes more.
 */
static int
dat_eth_parse(const uint8_t *frame, size_t len, size_t need, int *tagged,
    uint16_t *tci, uint16_t *vid, uint16_t *type, size_t *off)
{
	uint16_t id;

	if (len < DAT_ETH_HLEN + need)
		return 0;
	*off = DAT_ETH_HLEN;
	*type = bs_get16(frame + 12);
	if (*type == DAT_ETH_P_8021Q) {
		if (len < DAT_ETH_HLEN + DAT_VLAN_HLEN + need)
			return 0;
		*tagged = 1;
		*tci = bs_get16(frame + 14);
		id = (uint16_t)(*tci & WIRE_VID_MASK);
		*vid = id == 0 ? 0 : (uint16_t)(WIRE_VID_TAGGED | id);
		*type = bs_get16(frame + 16);
		*off += DAT_VLAN_HLEN;
	}
	return 1;
}

/*
 * An answer in out (FWD_DAT_REPLY_MAX bytes, zeroed): its Ethernet header
 * (tagged with tci when tagged), whose length is returned.
 */
static size_t
dat_eth_build(uint8_t *out, const uint8_t *dst, const uint8_t *src,
    int tagged, uint16_t tci, uint16_t type)
{
	size_t off = DAT_ETH_HLEN;

	memset(out, 0, FWD_DAT_REPLY_MAX);
	memcpy(out, dst, BS_ADDR_LEN);
	memcpy(out + 6, src, BS_ADDR_LEN);
	if (tagged) {
		bs_put16(out + 12, DAT_ETH_P_8021Q);
		bs_put16(out + 14, tci);
		off += DAT_VLAN_HLEN;
	}
	bs_put16(out + off - 2, type);
	return off;
}

/* ---- ARP ------------------------------------------------------------------ */

int
fwd_dat_arp_parse(const uint8_t *frame, size_t len, struct fwd_arp *a)
{
	uint16_t type;
	const uint8_t *p;
	size_t off;

	memset(a, 0, sizeof(*a));
	if (!dat_eth_parse(frame, len, DAT_ARP_LEN, &a->tagged, &a->tci,
	    &a->vid, &type, &off))
		return 0;
	a->eth_dst = frame;
	a->eth_src = frame + 6;
	if (type != DAT_ETH_P_ARP)
		return 0;
	p = frame + off;
	/* Ethernet (1), IPv4, 6-byte and 4-byte addresses. */
	if (bs_get16(p) != 1 || bs_get16(p + 2) != 0x0800 || p[4] != 6 ||
	    p[5] != 4)
		return 0;
	a->op = bs_get16(p + 6);
	if (a->op != DAT_ARP_REQUEST && a->op != DAT_ARP_REPLY)
		return 0;
	a->sha = p + 8;
	memcpy(a->spa, p + 14, 4);
	a->tha = p + 18;
	memcpy(a->tpa, p + 24, 4);
	return 1;
}

/* A host address: not 0.0.0.0, not multicast, limited broadcast, 127/8. */
static int
dat_ip_ok(const uint8_t ip[4])
{
	static const uint8_t zero[4];

	return memcmp(ip, zero, 4) != 0 && ip[0] < 224 && ip[0] != 127;
}

/*
 * The mapping ip -> mac in vid, from orig (fwd_dat_learn); router: the
 * NA's Router flag, 0 for ARP.  The counter of what was learnt is the
 * caller's (*learnt).
 */
static int
dat_learn(struct fwd_dat *dt, const struct fwd_tables *t,
    const uint8_t ip[16], uint16_t vid, const uint8_t *mac,
    const uint8_t *orig, uint8_t router, uint64_t now_ms, uint64_t *learnt)
{
	struct fwd_dat_entry *e;
	int32_t i;

	/* The claim first: a frame that proves nothing changes nothing. */
	if (!dat_claimed(t, mac, vid, orig)) {
		dt->c.refused_unclaimed++;
		return -1;
	}
	if ((i = dat_find(dt, ip, vid)) >= 0 &&
	    dat_check(dt, t, i, now_ms)) {
		e = &dt->e[i];
		if (!e->conflict &&
		    memcmp(e->mac, mac, BS_ADDR_LEN) == 0 &&
		    memcmp(e->orig, orig, BS_ADDR_LEN) == 0) {
			e->learnt_ms = now_ms;
			e->router = router;
			dat_unlink(dt, i);
			dat_push_front(dt, i);
			(*learnt)++;
			return 1;
		}
		/* Two live mappings for one address: answer for neither. */
		if (!e->conflict)
			dt->c.conflicts++;
		e->conflict = 1;
		e->learnt_ms = now_ms;
		return -1;
	}
	i = dat_new(dt, ip, vid, orig);
	e = &dt->e[i];
	memcpy(e->mac, mac, BS_ADDR_LEN);
	memcpy(e->orig, orig, BS_ADDR_LEN);
	e->router = router;
	e->learnt_ms = now_ms;
	(*learnt)++;
	return 1;
}

int
fwd_dat_learn(struct fwd_dat *dt, const struct fwd_tables *t,
    const struct fwd_arp *a, const uint8_t orig[static BS_ADDR_LEN],
    uint64_t now_ms)
{
	uint8_t key[16];

	if (!dt->enabled || !dat_ip_ok(a->spa) ||
	    !wire_mac_is_unicast(a->sha))
		return 0;
	dat_key4(key, a->spa);
	return dat_learn(dt, t, key, a->vid, a->sha, orig, 0, now_ms,
	    &dt->c.learnt);
}

/* The entry to answer for (ip, vid) now, or -1 (fwd_dat_lookup). */
static int32_t
dat_serve(struct fwd_dat *dt, const struct fwd_tables *t,
    const uint8_t ip[16], uint16_t vid, uint64_t now_ms)
{
	int32_t i;

	if (!dt->enabled || (i = dat_find(dt, ip, vid)) < 0 ||
	    !dat_check(dt, t, i, now_ms) || dt->e[i].conflict)
		return -1;
	return i;
}

int
fwd_dat_lookup(struct fwd_dat *dt, const struct fwd_tables *t,
    const uint8_t ip[static 4], uint16_t vid, uint64_t now_ms,
    uint8_t mac[static BS_ADDR_LEN], uint8_t *orig)
{
	uint8_t key[16];
	int32_t i;

	dat_key4(key, ip);
	if ((i = dat_serve(dt, t, key, vid, now_ms)) < 0)
		return 0;
	memcpy(mac, dt->e[i].mac, BS_ADDR_LEN);
	if (orig != NULL)
		memcpy(orig, dt->e[i].orig, BS_ADDR_LEN);
	return 1;
}

size_t
fwd_dat_answer(struct fwd_dat *dt, const struct fwd_tables *t,
    const struct fwd_arp *a, uint64_t now_ms,
    uint8_t out[static FWD_DAT_REPLY_MAX])
{
	uint8_t mac[BS_ADDR_LEN];
	size_t len;
	uint8_t *p;

	/* Requests of a client in its own name, not probes or
	 * announcements: those are for every host to see. */
	if (!dt->enabled || a->op != DAT_ARP_REQUEST ||
	    !wire_mac_is_unicast(a->sha) ||
	    memcmp(a->sha, a->eth_src, BS_ADDR_LEN) != 0 ||
	    !dat_ip_ok(a->spa) || !dat_ip_ok(a->tpa) ||
	    memcmp(a->spa, a->tpa, 4) == 0)
		return 0;
	if (!fwd_dat_lookup(dt, t, a->tpa, a->vid, now_ms, mac, NULL)) {
		dt->c.flooded++;
		return 0;
	}
	len = dat_eth_build(out, a->sha, mac, a->tagged, a->tci,
	    DAT_ETH_P_ARP);
	p = out + len;
	bs_put16(p, 1);
	bs_put16(p + 2, 0x0800);
	p[4] = 6;
	p[5] = 4;
	bs_put16(p + 6, DAT_ARP_REPLY);
	memcpy(p + 8, mac, BS_ADDR_LEN);
	memcpy(p + 14, a->tpa, 4);
	memcpy(p + 18, a->sha, BS_ADDR_LEN);
	memcpy(p + 24, a->spa, 4);
	/* Padded to the Ethernet minimum (60 bytes without the FCS). */
	len += DAT_ARP_LEN;
	if (len < 60)
		len = 60;
	dt->c.answered++;
	return len;
}

/*
 * Our client's address ip in vid was announced now (reply: by a reply
 * that may be flooded for it): 1 when that reply is to be flooded.
 */
static int
dat_own_note(struct fwd_dat *dt, const uint8_t ip[16], uint16_t vid,
    int reply, uint64_t now_ms)
{
	struct fwd_dat_own *o, *slot = NULL;
	size_t i;
	int due;

	for (i = 0; i < FWD_DAT_OWN_MAX; i++) {
		o = &dt->own[i];
		if (o->ms != 0 && memcmp(o->ip, ip, 16) == 0 &&
		    o->vid == vid) {
			slot = o;
			break;
		}
		/* Else the free or the oldest one. */
		if (slot == NULL || o->ms < slot->ms)
			slot = o;
	}
	due = i == FWD_DAT_OWN_MAX || now_ms < slot->ms ||
	    now_ms - slot->ms >= FWD_DAT_ANNOUNCE_MS;
	if (reply && !due)
		return 0;
	memcpy(slot->ip, ip, 16);
	slot->vid = vid;
	slot->ms = now_ms;
	return reply;
}

int
fwd_dat_own(struct fwd_dat *dt, const struct fwd_arp *a, uint64_t now_ms)
{
	uint8_t key[16];

	if (!dt->enabled || !dat_ip_ok(a->spa) ||
	    !wire_mac_is_unicast(a->sha) ||
	    memcmp(a->sha, a->eth_src, BS_ADDR_LEN) != 0 || now_ms == 0)
		return 0;
	dat_key4(key, a->spa);
	if (!dat_own_note(dt, key, a->vid, a->op == DAT_ARP_REPLY, now_ms))
		return 0;
	dt->c.announced++;
	return 1;
}

/* ---- IPv6 neighbour discovery ------------------------------------------- */

/* The ICMPv6 checksum of msg (len bytes) from src to dst (RFC 8200 8.1). */
static uint16_t
dat_icmp6_sum(const uint8_t src[16], const uint8_t dst[16],
    const uint8_t *msg, size_t len)
{
	uint32_t sum = DAT_ICMP6 + (uint32_t)len;
	size_t i;

	for (i = 0; i < 16; i += 2)
		sum += bs_get16(src + i) + bs_get16(dst + i);
	for (i = 0; i + 1 < len; i += 2)
		sum += bs_get16(msg + i);
	if (len & 1)
		sum += (uint32_t)msg[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static int
dat_ip6_zero(const uint8_t ip[16])
{
	static const uint8_t zero[16];

	return memcmp(ip, zero, 16) == 0;
}

/*
 * A host address: not ::, ::1, multicast, or IPv4-mapped (the key of an
 * IPv4 mapping).
 */
static int
dat_ip6_ok(const uint8_t ip[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const uint8_t loop[16] = { [15] = 1 };

	return !dat_ip6_zero(ip) && ip[0] != 0xff &&
	    memcmp(ip, loop, 16) != 0 && memcmp(ip, mapped, 12) != 0;
}

/* The options of nd's message opt..end: 1, or 0 when one is bad. */
static int
dat_nd_options(struct fwd_nd *nd, const uint8_t *opt, const uint8_t *end)
{
	uint8_t want = nd->type == FWD_ND_NS ? DAT_ND_OPT_SLLA :
	    DAT_ND_OPT_TLLA;
	size_t olen;

	while (opt < end) {
		if (end - opt < 2 || opt[1] == 0 ||
		    (olen = (size_t)opt[1] * 8) > (size_t)(end - opt))
			return 0;
		if (opt[0] == want) {
			/* Ethernet's is 8 bytes (RFC 2464); one only. */
			if (olen != 8 || nd->lla != NULL)
				return 0;
			nd->lla = opt + 2;
		}
		opt += olen;
	}
	return 1;
}

int
fwd_dat_nd_parse(const uint8_t *frame, size_t len, struct fwd_nd *nd)
{
	const uint8_t *ip, *m;
	uint16_t type;
	size_t off, plen;

	memset(nd, 0, sizeof(*nd));
	if (!dat_eth_parse(frame, len, DAT_IP6_HLEN + 1, &nd->tagged,
	    &nd->tci, &nd->vid, &type, &off) || type != DAT_ETH_P_IPV6)
		return 0;
	ip = frame + off;
	m = ip + DAT_IP6_HLEN;
	if ((ip[0] >> 4) != 6 || ip[6] != DAT_ICMP6 ||
	    (m[0] != FWD_ND_NS && m[0] != FWD_ND_NA))
		return 0;
	/* From here on it claims to be one: every byte must be right. */
	nd->type = m[0];
	nd->eth_dst = frame;
	nd->eth_src = frame + 6;
	plen = bs_get16(ip + 4);
	if (len - off - DAT_IP6_HLEN != plen || plen < DAT_ND_HLEN ||
	    ip[7] != 255 || m[1] != 0)
		return -1;
	memcpy(nd->src, ip + 8, 16);
	memcpy(nd->dst, ip + 24, 16);
	memcpy(nd->target, m + 8, 16);
	if (dat_icmp6_sum(nd->src, nd->dst, m, plen) != 0 ||
	    nd->target[0] == 0xff || nd->src[0] == 0xff ||
	    !dat_nd_options(nd, m + DAT_ND_HLEN, m + plen))
		return -1;
	if (nd->type == FWD_ND_NS) {
		if (dat_ip6_zero(nd->target) ||
		    (dat_ip6_zero(nd->src) && nd->lla != NULL))
			return -1;
	} else {
		nd->flags = (uint8_t)(m[4] & (FWD_ND_F_ROUTER |
		    FWD_ND_F_SOLICITED | FWD_ND_F_OVERRIDE));
		if (nd->dst[0] == 0xff && (nd->flags & FWD_ND_F_SOLICITED))
			return -1;
	}
	return 1;
}

int
fwd_dat_nd_learn(struct fwd_dat *dt, const struct fwd_tables *t,
    const struct fwd_nd *nd, const uint8_t orig[static BS_ADDR_LEN],
    uint64_t now_ms)
{
	if (!dt->enabled || nd->type != FWD_ND_NA || nd->lla == NULL ||
	    !dat_ip6_ok(nd->target) || !wire_mac_is_unicast(nd->lla))
		return 0;
	return dat_learn(dt, t, nd->target, nd->vid, nd->lla, orig,
	    (uint8_t)((nd->flags & FWD_ND_F_ROUTER) != 0), now_ms,
	    &dt->c.nd_learnt);
}

int
fwd_dat_lookup6(struct fwd_dat *dt, const struct fwd_tables *t,
    const uint8_t ip[static 16], uint16_t vid, uint64_t now_ms,
    uint8_t mac[static BS_ADDR_LEN], uint8_t *router)
{
	int32_t i;

	if (!dat_ip6_ok(ip) || (i = dat_serve(dt, t, ip, vid, now_ms)) < 0)
		return 0;
	memcpy(mac, dt->e[i].mac, BS_ADDR_LEN);
	if (router != NULL)
		*router = dt->e[i].router;
	return 1;
}

/* nd goes to its target's solicited-node group, as IPv6 and Ethernet. */
static int
dat_nd_to_group(const struct fwd_nd *nd)
{
	static const uint8_t sn[13] = { 0xff, 0x02, [11] = 1, [12] = 0xff };
	static const uint8_t esn[3] = { 0x33, 0x33, 0xff };

	return memcmp(nd->dst, sn, 13) == 0 &&
	    memcmp(nd->dst + 13, nd->target + 13, 3) == 0 &&
	    memcmp(nd->eth_dst, esn, 3) == 0 &&
	    memcmp(nd->eth_dst + 3, nd->target + 13, 3) == 0;
}

size_t
fwd_dat_nd_answer(struct fwd_dat *dt, const struct fwd_tables *t,
    const struct fwd_nd *nd, uint64_t now_ms,
    uint8_t out[static FWD_DAT_REPLY_MAX])
{
	uint8_t mac[BS_ADDR_LEN], router;
	uint8_t *ip, *m;
	size_t len;

	/* Resolution by a client in its own name, never duplicate address
	 * detection (source ::): that is for the owner to see. */
	if (!dt->enabled || nd->type != FWD_ND_NS || nd->lla == NULL ||
	    !wire_mac_is_unicast(nd->lla) ||
	    memcmp(nd->lla, nd->eth_src, BS_ADDR_LEN) != 0 ||
	    !dat_ip6_ok(nd->src) || !dat_ip6_ok(nd->target) ||
	    memcmp(nd->src, nd->target, 16) == 0 || !dat_nd_to_group(nd))
		return 0;
	if (!fwd_dat_lookup6(dt, t, nd->target, nd->vid, now_ms, mac,
	    &router)) {
		dt->c.nd_flooded++;
		return 0;
	}
	len = dat_eth_build(out, nd->eth_src, mac, nd->tagged, nd->tci,
	    DAT_ETH_P_IPV6);
	ip = out + len;
	ip[0] = 0x60;
	bs_put16(ip + 4, DAT_NA_LEN);
	ip[6] = DAT_ICMP6;
	ip[7] = 255;
	memcpy(ip + 8, nd->target, 16);
	memcpy(ip + 24, nd->src, 16);
	m = ip + DAT_IP6_HLEN;
	m[0] = FWD_ND_NA;
	/* Solicited; Override clear, as a proxy's (RFC 4861 7.2.8): it
	 * fills the requester's incomplete entry and never overrides one
	 * it has; the Router flag as the owner's last advertisement. */
	m[4] = (uint8_t)(FWD_ND_F_SOLICITED | (router ? FWD_ND_F_ROUTER : 0));
	memcpy(m + 8, nd->target, 16);
	m[DAT_ND_HLEN] = DAT_ND_OPT_TLLA;
	m[DAT_ND_HLEN + 1] = 1;
	memcpy(m + DAT_ND_HLEN + 2, mac, BS_ADDR_LEN);
	bs_put16(m + 2, dat_icmp6_sum(nd->target, nd->src, m, DAT_NA_LEN));
	dt->c.nd_answered++;
	return len + DAT_IP6_HLEN + DAT_NA_LEN;
}

int
fwd_dat_nd_own(struct fwd_dat *dt, const struct fwd_nd *nd,
    uint64_t now_ms)
{
	if (!dt->enabled || nd->type != FWD_ND_NA || nd->lla == NULL ||
	    !dat_ip6_ok(nd->target) || !wire_mac_is_unicast(nd->lla) ||
	    memcmp(nd->lla, nd->eth_src, BS_ADDR_LEN) != 0 ||
	    (nd->eth_dst[0] & 0x01) || now_ms == 0 ||
	    !dat_own_note(dt, nd->target, nd->vid, 1, now_ms))
		return 0;
	dt->c.nd_announced++;
	return 1;
}

size_t
fwd_dat_purge(struct fwd_dat *dt, const struct fwd_tables *t,
    uint64_t now_ms)
{
	size_t gone = 0;
	int32_t i, next;

	for (i = dt->head; i >= 0; i = next) {
		next = dt->e[i].next;
		if (!dat_check(dt, t, i, now_ms))
			gone++;
	}
	return gone;
}
