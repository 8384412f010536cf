/*
 * fwd_dat.c — the local ARP answer cache (see fwd_dat.h).
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

/* ---- the list and the index --------------------------------------------- */

static uint32_t
dat_hash(const struct fwd_dat *dt, const uint8_t ip[4], uint16_t vid)
{
	uint8_t in[6], out[crypto_shorthash_BYTES];

	memcpy(in, ip, 4);
	in[4] = (uint8_t)(vid >> 8);
	in[5] = (uint8_t)vid;
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
dat_find(const struct fwd_dat *dt, const uint8_t ip[4], uint16_t vid)
{
	int32_t i = dt->bucket[dat_hash(dt, ip, vid)];

	while (i >= 0) {
		if (memcmp(dt->e[i].ip, ip, 4) == 0 && dt->e[i].vid == vid)
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
dat_new(struct fwd_dat *dt, const uint8_t ip[4], uint16_t vid,
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
	memcpy(e->ip, ip, 4);
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

/* ---- ARP ------------------------------------------------------------------ */

int
fwd_dat_arp_parse(const uint8_t *frame, size_t len, struct fwd_arp *a)
{
	size_t off = DAT_ETH_HLEN;
	uint16_t type, id;
	const uint8_t *p;

	if (len < DAT_ETH_HLEN + DAT_ARP_LEN)
		return 0;
	memset(a, 0, sizeof(*a));
	a->eth_dst = frame;
	a->eth_src = frame + 6;
	type = bs_get16(frame + 12);
	if (type == DAT_ETH_P_8021Q) {
		if (len < DAT_ETH_HLEN + DAT_VLAN_HLEN + DAT_ARP_LEN)
			return 0;
		a->tagged = 1;
		a->tci = bs_get16(frame + 14);
		id = (uint16_t)(a->tci & WIRE_VID_MASK);
		a->vid = id == 0 ? 0 : (uint16_t)(WIRE_VID_TAGGED | id);
		type = bs_get16(frame + 16);
		off += DAT_VLAN_HLEN;
	}
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

int
fwd_dat_learn(struct fwd_dat *dt, const struct fwd_tables *t,
    const struct fwd_arp *a, const uint8_t orig[static BS_ADDR_LEN],
    uint64_t now_ms)
{
	struct fwd_dat_entry *e;
	int32_t i;

	if (!dt->enabled || !dat_ip_ok(a->spa) ||
	    !wire_mac_is_unicast(a->sha))
		return 0;
	/* The claim first: a frame that proves nothing changes nothing. */
	if (!dat_claimed(t, a->sha, a->vid, orig)) {
		dt->c.refused_unclaimed++;
		return -1;
	}
	if ((i = dat_find(dt, a->spa, a->vid)) >= 0 &&
	    dat_check(dt, t, i, now_ms)) {
		e = &dt->e[i];
		if (!e->conflict &&
		    memcmp(e->mac, a->sha, BS_ADDR_LEN) == 0 &&
		    memcmp(e->orig, orig, BS_ADDR_LEN) == 0) {
			e->learnt_ms = now_ms;
			dat_unlink(dt, i);
			dat_push_front(dt, i);
			dt->c.learnt++;
			return 1;
		}
		/* Two live mappings for one address: answer for neither. */
		if (!e->conflict)
			dt->c.conflicts++;
		e->conflict = 1;
		e->learnt_ms = now_ms;
		return -1;
	}
	i = dat_new(dt, a->spa, a->vid, orig);
	e = &dt->e[i];
	memcpy(e->mac, a->sha, BS_ADDR_LEN);
	memcpy(e->orig, orig, BS_ADDR_LEN);
	e->learnt_ms = now_ms;
	dt->c.learnt++;
	return 1;
}

int
fwd_dat_lookup(struct fwd_dat *dt, const struct fwd_tables *t,
    const uint8_t ip[static 4], uint16_t vid, uint64_t now_ms,
    uint8_t mac[static BS_ADDR_LEN], uint8_t *orig)
{
	int32_t i;

	if (!dt->enabled || (i = dat_find(dt, ip, vid)) < 0 ||
	    !dat_check(dt, t, i, now_ms) || dt->e[i].conflict)
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
	size_t off = DAT_ETH_HLEN, len;
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
	memset(out, 0, FWD_DAT_REPLY_MAX);
	memcpy(out, a->sha, BS_ADDR_LEN);
	memcpy(out + 6, mac, BS_ADDR_LEN);
	if (a->tagged) {
		bs_put16(out + 12, DAT_ETH_P_8021Q);
		bs_put16(out + 14, a->tci);
		off += DAT_VLAN_HLEN;
	}
	bs_put16(out + off - 2, DAT_ETH_P_ARP);
	p = out + off;
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
	len = off + DAT_ARP_LEN;
	if (len < 60)
		len = 60;
	dt->c.answered++;
	return len;
}

int
fwd_dat_own(struct fwd_dat *dt, const struct fwd_arp *a, uint64_t now_ms)
{
	struct fwd_dat_own *o, *slot = NULL;
	size_t i;
	int due;

	if (!dt->enabled || !dat_ip_ok(a->spa) ||
	    !wire_mac_is_unicast(a->sha) ||
	    memcmp(a->sha, a->eth_src, BS_ADDR_LEN) != 0 || now_ms == 0)
		return 0;
	for (i = 0; i < FWD_DAT_OWN_MAX; i++) {
		o = &dt->own[i];
		if (o->ms != 0 && memcmp(o->ip, a->spa, 4) == 0 &&
		    o->vid == a->vid) {
			slot = o;
			break;
		}
		/* Else the free or the oldest one. */
		if (slot == NULL || o->ms < slot->ms)
			slot = o;
	}
	due = i == FWD_DAT_OWN_MAX || now_ms < slot->ms ||
	    now_ms - slot->ms >= FWD_DAT_ANNOUNCE_MS;
	if (a->op == DAT_ARP_REPLY && !due)
		return 0;
	memcpy(slot->ip, a->spa, 4);
	slot->vid = a->vid;
	slot->ms = now_ms;
	if (a->op != DAT_ARP_REPLY)
		return 0;
	dt->c.announced++;
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
