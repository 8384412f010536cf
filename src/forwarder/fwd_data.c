/*
 * fwd_data.c — the forwarder's data plane (see fwd_data.h).
 *
 * Counting rule: every frame that comes in is counted rx on the side it
 * came from (a mesh interface or the TAP) and, from the mesh, on the
 * neighbour that sent it; a drop is counted once, on that same side,
 * except a failed or oversized send, which is counted on the interface
 * it was to leave by.  Sends are counted tx on the interface and on the
 * neighbour they go to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "fwd_data.h"
#include "fwd_iface.h"
#include "fwd_tap.h"
#include "fwd_types.h"

#define FWD_ETH_P_8021Q	0x8100
#define FWD_ETH_HLEN	14
#define FWD_VLAN_HLEN	18

static const uint8_t fwd_bcast_mac[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

/* ---- counters ------------------------------------------------------------- */

static void
fwd_count_rx(struct fwd_dcount *c, size_t len)
{
	c->rx_frames++;
	c->rx_bytes += len;
}

static void
fwd_count_tx(struct fwd_dcount *c, size_t len)
{
	c->tx_frames++;
	c->tx_bytes += len;
}

/* 1 when ifindex is among the up interfaces (and *out filled). */
static int
fwd_data_if_get(struct fwd_data *d, uint32_t ifindex, struct fwd_data_if *out)
{
	struct fwd_data_if ifs[FWD_DATA_IFC_MAX];
	size_t n, i;

	n = d->ops.ifaces(d->ops.arg, ifs, FWD_DATA_IFC_MAX);
	for (i = 0; i < n && i < FWD_DATA_IFC_MAX; i++) {
		if (ifs[i].ifindex == ifindex) {
			*out = ifs[i];
			return 1;
		}
	}
	return 0;
}

/* A counter slot that belongs to no up interface, or -1. */
static int
fwd_data_ifc_reclaim(struct fwd_data *d)
{
	struct fwd_data_if tmp;
	size_t i;

	for (i = 0; i < FWD_DATA_IFC_MAX; i++)
		if (!fwd_data_if_get(d, d->ifc[i].ifindex, &tmp))
			return (int)i;
	return -1;
}

/*
 * The counters of ifindex, created on first use.  When every slot is
 * taken, one of an interface that is no longer up is reused; there are
 * more slots than configurable interfaces, so one always is.
 */
static struct fwd_data_ifc *
fwd_data_ifc_slot(struct fwd_data *d, uint32_t ifindex)
{
	int i, free_i = -1;

	for (i = 0; i < FWD_DATA_IFC_MAX; i++) {
		if (d->ifc[i].ifindex == ifindex)
			return &d->ifc[i];
		if (d->ifc[i].ifindex == 0 && free_i < 0)
			free_i = i;
	}
	if (free_i < 0 && (free_i = fwd_data_ifc_reclaim(d)) < 0)
		free_i = FWD_DATA_IFC_MAX - 1;
	memset(&d->ifc[free_i], 0, sizeof(d->ifc[free_i]));
	d->ifc[free_i].ifindex = ifindex;
	return &d->ifc[free_i];
}

static struct fwd_dcount *
fwd_data_ifc(struct fwd_data *d, uint32_t ifindex)
{
	return &fwd_data_ifc_slot(d, ifindex)->c;
}

static const struct fwd_data_ifc *
fwd_data_ifc_find(const struct fwd_data *d, uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < FWD_DATA_IFC_MAX; i++)
		if (ifindex != 0 && d->ifc[i].ifindex == ifindex)
			return &d->ifc[i];
	return NULL;
}

const struct fwd_dcount *
fwd_data_iface_counters(const struct fwd_data *d, uint32_t ifindex)
{
	const struct fwd_data_ifc *s = fwd_data_ifc_find(d, ifindex);

	return s != NULL ? &s->c : NULL;
}

uint64_t
fwd_data_iface_transit(const struct fwd_data *d, uint32_t ifindex)
{
	const struct fwd_data_ifc *s = fwd_data_ifc_find(d, ifindex);

	return s != NULL ? s->transit : 0;
}

void
fwd_data_count_relayed(struct fwd_data *d, uint32_t ifindex,
    struct fwd_neigh *n, uint64_t rx_frames, uint64_t rx_bytes,
    uint64_t tx_frames, uint64_t tx_bytes)
{
	struct fwd_dcount *c[2] = { ifindex != 0 ? fwd_data_ifc(d, ifindex) :
	    NULL, n != NULL ? &n->c : NULL };
	size_t i;

	for (i = 0; i < 2; i++) {
		if (c[i] == NULL)
			continue;
		c[i]->rx_frames += rx_frames;
		c[i]->rx_bytes += rx_bytes;
		c[i]->tx_frames += tx_frames;
		c[i]->tx_bytes += tx_bytes;
	}
}

static void
fwd_dcount_add(struct fwd_dcount *out, const struct fwd_dcount *c)
{
	uint64_t a[FWD_DCOUNT_N], b[FWD_DCOUNT_N];
	size_t i;

	memcpy(a, out, sizeof(a));
	memcpy(b, c, sizeof(b));
	for (i = 0; i < FWD_DCOUNT_N; i++)
		a[i] += b[i];
	memcpy(out, a, sizeof(a));
}

void
fwd_data_totals(const struct fwd_data *d, struct fwd_dcount *out)
{
	size_t i;

	*out = d->tap;
	for (i = 0; i < FWD_DATA_IFC_MAX; i++)
		if (d->ifc[i].ifindex != 0)
			fwd_dcount_add(out, &d->ifc[i].c);
}

/* Count a drop of a frame from neighbour n on the interface counters c. */
#define FWD_DROP(c, n, field) do {		\
	(c)->field++;				\
	(n)->c.field++;				\
} while (0)

/* ---- set-up ---------------------------------------------------------------- */

void
fwd_data_init(struct fwd_data *d, struct fwd_tables *t,
    const struct bs_identity *id, uint32_t epoch,
    const struct fwd_data_ops *ops)
{
	struct log_rl rl = LOG_RL_INIT(5, 1);

	memset(d, 0, sizeof(*d));
	d->t = t;
	d->ops = *ops;
	d->err_rl = rl;
	d->id = id;
	d->epoch = epoch;
	bs_mesh_addr(d->own_addr, id->pk);
	d->start_ms = log_now_ms();
	d->ping_ident = (uint16_t)randombytes_random();
	d->ping_seqno = (uint16_t)randombytes_random();
	d->echo_b.tokens = FWD_ECHO_BURST;
	d->ttlx_b.tokens = FWD_TTLX_BURST;
	fwd_links_init(&d->links, id, epoch);
	d->aes = (uint8_t)bs_aead_available(BS_AEAD_AES256GCM);
	d->now_ms = d->start_ms;
	fwd_dat_init(&d->dat);
	fwd_mcast_init(&d->mcast);
	fwd_bla_init(&d->bla);
	fwd_frag_init(&d->frag);
	d->frag_seqno = randombytes_random();
}

int
fwd_data_is_data(const uint8_t *payload, size_t len)
{
	return len > 0 && (payload[0] == WIRE_T_BCAST ||
	    payload[0] == WIRE_T_FRAG || wire_is_sealed(payload[0]));
}

/* ---- sending ------------------------------------------------------------------ */

/* The outcome of one frame to the mesh, sent or not (drop_send). */
static void
fwd_data_sent(struct fwd_data *d, uint32_t ifindex, size_t len,
    struct fwd_neigh *n, int ok)
{
	struct fwd_dcount *c = fwd_data_ifc(d, ifindex);

	if (!ok) {
		c->drop_send++;
		return;
	}
	fwd_count_tx(c, len);
	if (n != NULL)
		fwd_count_tx(&n->c, len);
}

/* Send the queued frames of ifindex (marked done with len 0) at once. */
static void
fwd_data_flush_if(struct fwd_data *d, uint32_t ifindex)
{
	struct fwd_data_tx tx[FWD_TXQ_MAX];
	size_t idx[FWD_TXQ_MAX];
	size_t i, k = 0, sent;

	for (i = 0; i < d->txn; i++) {
		if (d->txe[i].ifindex != ifindex || d->txe[i].len == 0)
			continue;
		tx[k].dst = d->txe[i].dst;
		tx[k].frame = d->txbuf + i * FWD_TXQ_SLOT;
		tx[k].len = d->txe[i].len;
		idx[k++] = i;
	}
	if (k == 0)
		return;
	sent = d->ops.send_batch(d->ops.arg, ifindex, tx, k);
	for (i = 0; i < k; i++) {
		fwd_data_sent(d, ifindex, tx[i].len, d->txe[idx[i]].n,
		    i < sent);
		d->txe[idx[i]].len = 0;
	}
}

void
fwd_data_flush(struct fwd_data *d)
{
	size_t i;

	for (i = 0; i < d->txn; i++)
		if (d->txe[i].len != 0)
			fwd_data_flush_if(d, d->txe[i].ifindex);
	d->txn = 0;
}

void
fwd_data_fini(struct fwd_data *d)
{
	free(d->txbuf);
	d->txbuf = NULL;
	free(d->brepbuf);
	d->brepbuf = NULL;
	memset(d->brep, 0, sizeof(d->brep));
	d->brepn = 0;
	d->txn = 0;
	fwd_frag_fini(&d->frag);
}

_Static_assert(FWD_TXQ_MAX <= RAWSOCK_BATCH_MAX, "one sendmmsg per flush");

/* Queue a frame: 0, or -1 when it cannot be (no batch sender, too long). */
static int
fwd_data_queue(struct fwd_data *d, uint32_t ifindex, const uint8_t *dst,
    const uint8_t *frame, size_t len, struct fwd_neigh *n)
{
	struct fwd_data_txe *e;

	if (d->ops.send_batch == NULL || len == 0 || len > FWD_TXQ_SLOT)
		return -1;
	if (d->txbuf == NULL &&
	    (d->txbuf = malloc((size_t)FWD_TXQ_MAX * FWD_TXQ_SLOT)) == NULL)
		return -1;
	if (d->txn == FWD_TXQ_MAX)
		fwd_data_flush(d);
	e = &d->txe[d->txn];
	e->ifindex = ifindex;
	memcpy(e->dst, dst, BS_ADDR_LEN);
	e->len = len;
	e->n = n;
	memcpy(d->txbuf + d->txn * FWD_TXQ_SLOT, frame, len);
	d->txn++;
	return 0;
}

/*
 * Send frame[0..len) to dst on interface ifp; n (may be NULL) is the
 * neighbour it goes to.  Queued when it can be (counted at the flush),
 * else sent now, after what is queued, and counted.
 */
static void
fwd_data_send(struct fwd_data *d, const struct fwd_data_if *ifp,
    const uint8_t *dst, const uint8_t *frame, size_t len, struct fwd_neigh *n)
{
	if (len > ifp->mtu) {
		fwd_data_ifc(d, ifp->ifindex)->drop_too_big++;
		return;
	}
	if (fwd_data_queue(d, ifp->ifindex, dst, frame, len, n) == 0)
		return;
	fwd_data_flush(d);
	fwd_data_sent(d, ifp->ifindex, len, n, d->ops.send(d->ops.arg,
	    ifp->ifindex, dst, frame, len) == 0);
}

/*
 * The next hop towards originator orig: its route, neighbour entry and
 * the interface to send on.  0, or -1 when there is no usable route (no
 * route, the next hop is no longer an up neighbour, or its interface is
 * down).
 */
static int
fwd_data_next_hop(struct fwd_data *d, const uint8_t *orig,
    const struct fwd_route **rp, struct fwd_neigh **nh,
    struct fwd_data_if *ifp)
{
	const struct fwd_route *r = fwd_route_find(d->t, orig);

	if (r == NULL)
		return -1;
	if ((*nh = fwd_neigh_find(d->t, r->nexthop, r->ifindex)) == NULL)
		return -1;
	if (rp != NULL)
		*rp = r;
	return fwd_data_if_get(d, r->ifindex, ifp) ? 0 : -1;
}

/* An inner frame for batsec0; c and n (may be NULL) count a failure. */
static void
fwd_data_to_tap(struct fwd_data *d, struct fwd_dcount *c, struct fwd_neigh *n,
    const uint8_t *inner, size_t len)
{
	if (d->ops.tap_write(d->ops.arg, inner, len) != 0) {
		c->drop_tap_write++;
		if (n != NULL)
			n->c.drop_tap_write++;
		return;
	}
	fwd_count_tx(&d->tap, len);
}

/*
 * A neighbour solicitation or advertisement in frame, 1 and *nd; 0 when
 * there is none, or a bad one (counted; it goes on as any frame).
 */
static int
fwd_data_nd(struct fwd_data *d, const uint8_t *frame, size_t len,
    struct fwd_nd *nd)
{
	int rc = fwd_dat_nd_parse(frame, len, nd);

	if (rc < 0)
		d->dat.c.nd_malformed++;
	return rc > 0;
}

/*
 * An inner frame from originator orig for batsec0: the mapping of an ARP
 * frame or a neighbour advertisement in it is learnt for answers
 * (fwd_dat.h) before it goes on.
 */
static void
fwd_data_from_orig(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const uint8_t *orig, const uint8_t *inner,
    size_t len)
{
	struct fwd_arp a;
	struct fwd_nd nd;

	/* Bridge loop avoidance: ANNOUNCEs belong to one LAN, never carried
	 * across the mesh (fwd_bla.h), whether bla is on or off. */
	if (fwd_bla_is_group(inner, len)) {
		d->bla.c.drops_group++;
		return;
	}
	if (d->dat.enabled && fwd_dat_arp_parse(inner, len, &a))
		(void)fwd_dat_learn(&d->dat, d->t, &a, orig, d->now_ms);
	else if (d->dat.enabled && fwd_data_nd(d, inner, len, &nd))
		(void)fwd_dat_nd_learn(&d->dat, d->t, &nd, orig, d->now_ms);
	fwd_data_to_tap(d, c, n, inner, len);
}

/* ---- hop by hop ------------------------------------------------------------------ */

/*
 * The keys with neighbour n, reached through our interface ifp, up to
 * date (fwd_links.c: made on first use, after a new MAC, epoch or salt of
 * either end, switched and dropped on their timers).  1 when n has a key
 * to send under, 0 when it cannot (its key is refused by bs_link_key).
 */
static int
fwd_hop_ready(struct fwd_data *d, struct fwd_neigh *n,
    const struct fwd_data_if *ifp)
{
	return fwd_links_ready(&d->links, n, ifp->mac, d->now_ms);
}

/* Our next hop counter (lane 0: batsecd's own). */
static uint64_t
fwd_hop_counter(struct fwd_data *d)
{
	return ++d->hop_ctr & ((UINT64_C(1) << WIRE_LANE_SHIFT) - 1);
}

/* What a FRAG says about the frame it is a piece of. */
struct fwd_frag_of {
	const uint8_t *dst;		/* destination originator */
	const uint8_t *orig;		/* fragmenter */
	uint32_t seqno;
	uint16_t total;
};

/*
 * Piece [off, off + len) of the end-to-end part of frame o to neighbour
 * nh on ifp: as one FRAG when it fits ifp's MTU, else cut into pieces
 * that do (fwd_frag_plan), each with its own hop part.
 */
static void
fwd_frag_send(struct fwd_data *d, const struct fwd_data_if *ifp,
    struct fwd_neigh *nh, uint8_t ttl, const struct fwd_frag_of *o,
    uint16_t off, const uint8_t *piece, size_t len, struct fwd_dcount *c)
{
	uint8_t in[WIRE_FRAG_HOP_IN_MAX];
	struct wire_frag f;
	size_t n, size, i, flen, inlen;

	if (ifp->mtu <= WIRE_FRAG_HDR_LEN || fwd_frag_plan(len,
	    ifp->mtu - WIRE_FRAG_HDR_LEN, &n, &size) != 0) {
		d->frag.cnt.frag_drop_too_small++;
		fwd_data_ifc(d, ifp->ifindex)->drop_too_big++;
		return;
	}
	if (!fwd_hop_ready(d, nh, ifp)) {
		c->drop_no_key++;
		return;
	}
	memset(&f, 0, sizeof(f));
	f.dst = o->dst;
	f.orig = o->orig;
	f.seqno = o->seqno;
	f.total = o->total;
	for (i = 0; i < n; i++) {
		f.offset = (uint16_t)(off + i * size);
		f.piece = piece + i * size;
		f.piece_len = len - i * size < size ? len - i * size : size;
		if (wire_frag_build(d->fbuf, sizeof(d->fbuf), &f, &flen) !=
		    WIRE_OK) {
			c->drop_malformed++;
			return;
		}
		wire_sealed_set_hop(d->fbuf, ttl, nh->hop.keyid,
		    fwd_hop_counter(d));
		inlen = wire_frag_hop_input(d->fbuf, flen, in);
		bs_hop_tag(d->fbuf + WIRE_HOP_TAG_OFF, nh->hop.key, in, inlen);
		fwd_data_send(d, ifp, nh->mac, d->fbuf, flen, nh);
		d->frag.cnt.frag_sent++;
	}
}

/*
 * A sealed frame (UNICAST, ECHO, TRACE, TTLX) of len bytes in d->buf,
 * e2e part done: give it its hop part for neighbour nh and send it; a
 * UNICAST too long for ifp goes as FRAG pieces of its end-to-end part,
 * cut by us.
 */
static void
fwd_sealed_send(struct fwd_data *d, const struct fwd_data_if *ifp,
    struct fwd_neigh *nh, uint8_t ttl, size_t len, struct fwd_dcount *c)
{
	uint8_t in[WIRE_SEALED_HOP_IN];
	struct fwd_frag_of o;

	if (len > ifp->mtu && d->buf[0] == WIRE_T_UNICAST &&
	    len > WIRE_E2E_OFF) {
		o.dst = d->buf + WIRE_E2E_OFF;
		o.orig = d->own_addr;
		o.seqno = ++d->frag_seqno;
		o.total = (uint16_t)(len - WIRE_E2E_OFF);
		d->frag.cnt.frag_cut++;
		fwd_frag_send(d, ifp, nh, ttl, &o, 0, d->buf + WIRE_E2E_OFF,
		    len - WIRE_E2E_OFF, c);
		return;
	}
	if (!fwd_hop_ready(d, nh, ifp)) {
		c->drop_no_key++;
		return;
	}
	wire_sealed_set_hop(d->buf, ttl, nh->hop.keyid, fwd_hop_counter(d));
	wire_sealed_hop_input(d->buf, len, in);
	bs_hop_tag(d->buf + WIRE_HOP_TAG_OFF, nh->hop.key, in, sizeof(in));
	fwd_data_send(d, ifp, nh->mac, d->buf, len, nh);
}

/*
 * The hop check of a frame from neighbour n on ifp: key id, replay
 * window, tag (cheapest first).  1 when it passes (and the counter is
 * marked seen), else 0 with the drop counted.
 */
static int
fwd_hop_check(struct fwd_data *d, struct fwd_dcount *c, struct fwd_neigh *n,
    const struct fwd_data_if *ifp, const uint8_t *keyid, uint64_t counter,
    const uint8_t *tag, const uint8_t *in, size_t inlen)
{
	unsigned lane = (unsigned)(counter >> WIRE_LANE_SHIFT);
	struct bs_replay *w;
	struct fwd_hop *h;

	if (!fwd_hop_ready(d, n, ifp)) {
		FWD_DROP(c, n, drop_no_key);
		return 0;
	}
	/* The key we send under, or the other one while it lasts. */
	if ((h = fwd_links_rx(n, keyid, d->now_ms)) == NULL) {
		FWD_DROP(c, n, drop_stale_key);
		return 0;
	}
	if (lane >= FWD_HOP_LANES) {
		FWD_DROP(c, n, drop_replay);
		return 0;
	}
	w = &h->rx[lane];
	if (!bs_replay_fresh(w, counter)) {
		FWD_DROP(c, n, drop_replay);
		return 0;
	}
	if (bs_hop_tag_verify(tag, h->key, in, inlen) != 0) {
		FWD_DROP(c, n, drop_bad_tag);
		return 0;
	}
	bs_replay_mark(w, counter);
	h->used_ms = d->now_ms;
	return 1;
}

/* ---- end to end -------------------------------------------------------------------- */

/*
 * The state of the pair (us, r's originator) with keys for r's current
 * epoch and ours: made, or made anew after the peer restarted.  NULL
 * when its key is refused.  A new key starts our counter above anything
 * this process can have sent under it before (FWD_CTR_SHIFT).
 */
static struct fwd_e2e *
fwd_e2e_ready(struct fwd_data *d, const struct fwd_route *r)
{
	struct fwd_e2e *p = fwd_e2e_get(d->t, r->orig_addr, 1);
	uint8_t l[BS_LINKKEY_LEN];

	if (p->epoch == r->epoch)
		return p;
	if (bs_link_key(l, d->id, r->orig_pk) != 0)
		return NULL;
	bs_e2e_key(p->tx_key, BS_AEAD_CHACHA20, l, d->id->pk, r->orig_pk,
	    d->epoch, r->epoch);
	bs_e2e_key(p->rx_key, BS_AEAD_CHACHA20, l, r->orig_pk, d->id->pk,
	    r->epoch, d->epoch);
	if (d->aes) {
		bs_e2e_key(p->tx_aes, BS_AEAD_AES256GCM, l, d->id->pk,
		    r->orig_pk, d->epoch, r->epoch);
		bs_e2e_key(p->rx_aes, BS_AEAD_AES256GCM, l, r->orig_pk,
		    d->id->pk, r->epoch, d->epoch);
	}
	sodium_memzero(l, sizeof(l));
	p->peer_aes = 0;
	p->tx_ctr = (log_now_ms() - d->start_ms + 1) << FWD_CTR_SHIFT;
	memset(&p->rx, 0, sizeof(p->rx));
	p->epoch = r->epoch;
	return p;
}

/*
 * The suite byte of our next frame to p: we offer AES-256-GCM when we
 * can open it, and seal with it once p offered it too.
 */
static uint8_t
fwd_e2e_suite(const struct fwd_data *d, const struct fwd_e2e *p)
{
	if (!d->aes)
		return 0;
	return p->peer_aes ? WIRE_E2E_S_CAN_AES | WIRE_E2E_S_AES :
	    WIRE_E2E_S_CAN_AES;
}

/*
 * Seal plaintext pt (pt_len bytes) of type for originator dst into
 * d->buf, *len the frame's length; the next hop in *nh and *ifp.  0, or
 * -1 with the reason counted on c.
 */
static int
fwd_seal(struct fwd_data *d, uint8_t type, const uint8_t *dst,
    const uint8_t *pt, size_t pt_len, struct fwd_neigh **nh,
    struct fwd_data_if *ifp, size_t *len, struct fwd_dcount *c)
{
	const struct fwd_route *r;
	struct fwd_e2e *p;
	struct wire_e2e e;
	uint8_t ad[WIRE_SEALED_AD_LEN], suite;
	int aes;

	if (fwd_data_next_hop(d, dst, &r, nh, ifp) != 0) {
		c->drop_no_route++;
		return -1;
	}
	/* 2^56 frames under one key: not in this universe, but no wrap. */
	if ((p = fwd_e2e_ready(d, r)) == NULL ||
	    p->tx_ctr >= WIRE_E2E_CTR_MASK) {
		c->drop_no_key++;
		return -1;
	}
	suite = fwd_e2e_suite(d, p);
	aes = (suite & WIRE_E2E_S_AES) != 0;
	e.dst = dst;
	e.src = d->own_addr;
	e.src_epoch = d->epoch;
	e.dst_epoch = r->epoch;
	e.counter = (uint64_t)suite << WIRE_E2E_SUITE_SHIFT | ++p->tx_ctr;
	if (wire_sealed_layout(d->buf, sizeof(d->buf), type, &e, pt_len,
	    len) != WIRE_OK) {
		c->drop_malformed++;
		return -1;
	}
	wire_sealed_ad(d->buf, ad);
	if (bs_aead_seal(d->buf + WIRE_SEALED_CT_OFF,
	    d->buf + *len - BS_AEAD_TAG_LEN,
	    aes ? BS_AEAD_AES256GCM : BS_AEAD_CHACHA20,
	    aes ? p->tx_aes : p->tx_key, e.counter, ad, sizeof(ad), pt,
	    pt_len) != 0) {
		c->drop_no_key++;
		return -1;
	}
	c->tx_aes += (uint64_t)aes;
	return 0;
}

/*
 * Open a sealed frame s for us into d->pt: the source must be an
 * originator we have a route to (its key and epoch), both epochs
 * current, the counter fresh, the AEAD tag right.  1, or 0 with the
 * drop counted.
 */
static int
fwd_open(struct fwd_data *d, struct fwd_dcount *c, struct fwd_neigh *n,
    const uint8_t *frame, const struct wire_sealed *s)
{
	const struct fwd_route *r = fwd_route_find(d->t, s->e.src);
	struct fwd_e2e *p;
	uint8_t ad[WIRE_SEALED_AD_LEN];
	uint8_t suite = (uint8_t)(s->e.counter >> WIRE_E2E_SUITE_SHIFT);
	uint64_t ctr = s->e.counter & WIRE_E2E_CTR_MASK;
	int aes = (suite & WIRE_E2E_S_AES) != 0;

	if (r == NULL) {
		FWD_DROP(c, n, drop_no_key);
		return 0;
	}
	if (s->e.dst_epoch != d->epoch || s->e.src_epoch != r->epoch) {
		FWD_DROP(c, n, drop_epoch);
		return 0;
	}
	if ((p = fwd_e2e_ready(d, r)) == NULL) {
		FWD_DROP(c, n, drop_no_key);
		return 0;
	}
	if (!bs_replay_fresh(&p->rx, ctr)) {
		FWD_DROP(c, n, drop_replay);
		return 0;
	}
	/* A suite we do not know or do not open cannot verify: no AEAD. */
	wire_sealed_ad(frame, ad);
	if ((suite & (uint8_t)~WIRE_E2E_S_KNOWN) != 0 || (aes && !d->aes) ||
	    bs_aead_open(d->pt, aes ? BS_AEAD_AES256GCM : BS_AEAD_CHACHA20,
	    aes ? p->rx_aes : p->rx_key, s->e.counter, ad, sizeof(ad),
	    s->ct, s->ct_len, s->aead_tag) != 0) {
		FWD_DROP(c, n, drop_e2e);
		return 0;
	}
	bs_replay_mark(&p->rx, ctr);
	p->peer_aes = (suite & WIRE_E2E_S_CAN_AES) != 0;
	c->rx_aes += (uint64_t)aes;
	return 1;
}

/* ---- broadcasts -------------------------------------------------------------------- */

/*
 * Queue the BCAST frame[0..len) just sent on ifp for its repeats, when
 * ifp has any.  A full queue costs this broadcast its repeats (counted).
 */
static void
fwd_brep_add(struct fwd_data *d, const struct fwd_data_if *ifp,
    const uint8_t *frame, size_t len)
{
	size_t i;

	if (ifp->bcast_repeat == 0 || len == 0 || len > ifp->mtu ||
	    len > FWD_DATA_FRAME_MAX)
		return;
	if (d->brepn >= FWD_BREP_MAX || (d->brepbuf == NULL &&
	    (d->brepbuf = malloc((size_t)FWD_BREP_MAX *
	    FWD_DATA_FRAME_MAX)) == NULL)) {
		d->bcast_repeat_drops++;
		return;
	}
	for (i = 0; i < FWD_BREP_MAX && d->brep[i].left != 0; i++)
		;
	if (i == FWD_BREP_MAX) {	/* brepn disagrees: cannot happen */
		d->bcast_repeat_drops++;
		return;
	}
	d->brep[i].ifindex = ifp->ifindex;
	d->brep[i].left = ifp->bcast_repeat;
	d->brep[i].due_ms = d->now_ms + FWD_BREP_GAP_MS;
	d->brep[i].len = len;
	memcpy(d->brepbuf + i * FWD_DATA_FRAME_MAX, frame, len);
	d->brepn++;
}

uint64_t
fwd_data_repeat_deadline(const struct fwd_data *d)
{
	uint64_t at = 0;
	size_t i;

	for (i = 0; i < FWD_BREP_MAX && d->brepn > 0; i++)
		if (d->brep[i].left != 0 &&
		    (at == 0 || d->brep[i].due_ms < at))
			at = d->brep[i].due_ms;
	return at;
}

void
fwd_data_repeat_run(struct fwd_data *d, uint64_t now_ms)
{
	struct fwd_data_if ifp;
	struct fwd_brep *e;
	size_t i;

	if (d->brepn == 0)
		return;
	d->now_ms = now_ms;
	for (i = 0; i < FWD_BREP_MAX; i++) {
		e = &d->brep[i];
		if (e->left == 0 || e->due_ms > now_ms)
			continue;
		if (fwd_data_if_get(d, e->ifindex, &ifp) && e->len <= ifp.mtu) {
			fwd_data_send(d, &ifp, fwd_bcast_mac,
			    d->brepbuf + i * FWD_DATA_FRAME_MAX, e->len, NULL);
			d->bcast_repeats++;
			e->left--;
		} else {
			e->left = 0;	/* its interface went */
		}
		e->due_ms = now_ms + FWD_BREP_GAP_MS;
		if (e->left == 0)
			d->brepn--;
	}
	fwd_data_flush(d);
}

/* One BCAST of the signed block blk with tags for the k neighbours grp. */
static void
fwd_bcast_send_group(struct fwd_data *d, const struct fwd_data_if *ifp,
    struct fwd_neigh *const *grp, size_t k, const uint8_t *blk, size_t blen,
    uint8_t ttl)
{
	uint8_t in[WIRE_BCAST_TAG_IN], tag[BS_HOPTAG_LEN];
	struct wire_bcast b;
	size_t j, len;

	if (wire_bcast_frame(d->buf, sizeof(d->buf), ttl, (unsigned)k,
	    fwd_hop_counter(d), blk, blen, &len) != WIRE_OK ||
	    wire_bcast_parse(d->buf, len, &b) != WIRE_OK) {
		fwd_data_ifc(d, ifp->ifindex)->drop_malformed++;
		return;
	}
	wire_bcast_tag_input(d->buf, &b, in);
	for (j = 0; j < k; j++) {
		bs_hop_tag(tag, grp[j]->hop.key, in, sizeof(in));
		wire_bcast_set_tag(d->buf, (unsigned)j, grp[j]->hop.keyid, tag);
	}
	fwd_data_send(d, ifp, fwd_bcast_mac, d->buf, len,
	    k == 1 ? grp[0] : NULL);
	fwd_brep_add(d, ifp, d->buf, len);
}

/*
 * Send the signed block (blen bytes at blk, not in d->buf) as BCASTs
 * with ttl on every up interface, to every neighbour with a hop key but
 * except (the one it came from; may be NULL): one frame per group of
 * neighbours whose tags fit the interface's MTU (at most
 * WIRE_BCAST_MAX_TAGS).  Not on in_ifindex (where it came in; 0: ours)
 * unless that is wireless: on a wired segment every neighbour there
 * heard the sender too.
 */
static void
fwd_bcast_flood(struct fwd_data *d, const uint8_t *blk, size_t blen,
    uint8_t ttl, const struct fwd_neigh *except, uint32_t in_ifindex)
{
	struct fwd_data_if ifs[FWD_DATA_IFC_MAX];
	struct fwd_neigh *grp[WIRE_BCAST_MAX_TAGS], *nb;
	size_t nif, i, cur, fit, k;

	nif = d->ops.ifaces(d->ops.arg, ifs, FWD_DATA_IFC_MAX);
	for (i = 0; i < nif && i < FWD_DATA_IFC_MAX; i++) {
		if (ifs[i].ifindex == in_ifindex && !ifs[i].wireless)
			continue;
		if (ifs[i].mtu < WIRE_BCAST_FIXED + WIRE_BCAST_TAG_LEN ||
		    blen > ifs[i].mtu - WIRE_BCAST_FIXED - WIRE_BCAST_TAG_LEN) {
			fwd_data_ifc(d, ifs[i].ifindex)->drop_too_big++;
			continue;
		}
		fit = (ifs[i].mtu - WIRE_BCAST_FIXED - blen) /
		    WIRE_BCAST_TAG_LEN;
		if (fit > WIRE_BCAST_MAX_TAGS)
			fit = WIRE_BCAST_MAX_TAGS;
		cur = 0;
		k = 0;
		while ((nb = fwd_neigh_next(d->t, ifs[i].ifindex, &cur)) !=
		    NULL) {
			if (nb == except || !fwd_hop_ready(d, nb, &ifs[i]))
				continue;
			grp[k++] = nb;
			if (k == fit) {
				fwd_bcast_send_group(d, &ifs[i], grp, k, blk,
				    blen, ttl);
				k = 0;
			}
		}
		if (k > 0)
			fwd_bcast_send_group(d, &ifs[i], grp, k, blk, blen, ttl);
	}
}

/*
 * The broadcast (orig, epoch, seqno): 1 when it may be new (the window
 * of orig's current epoch has not seen it), else 0.  A broadcast of an
 * epoch older than the route's, or than the window's, is old.
 */
static int
fwd_bcast_fresh(const struct fwd_e2e *p, const struct fwd_route *r,
    uint32_t epoch, uint32_t seqno)
{
	if (epoch < r->epoch)
		return 0;
	if (p == NULL)
		return 1;
	if (epoch < p->bcast_epoch)
		return 0;
	return epoch > p->bcast_epoch || bs_replay_fresh(&p->bcast, seqno);
}

/* One signature check from neighbour n: FWD_SIG_RATE a second. */
static int
fwd_sig_token(struct fwd_neigh *n, uint64_t now_ms)
{
	struct fwd_hop *h = &n->hop;
	uint64_t add;

	if (h->sig_tokens_ms == 0 || now_ms < h->sig_tokens_ms) {
		h->sig_tokens_ms = now_ms;
		h->sig_tokens = FWD_SIG_BURST;
	}
	add = (now_ms - h->sig_tokens_ms) * FWD_SIG_RATE / 1000;
	if (add > 0) {
		h->sig_tokens = add >= FWD_SIG_BURST - h->sig_tokens ?
		    FWD_SIG_BURST : h->sig_tokens + (uint32_t)add;
		h->sig_tokens_ms += add * 1000 / FWD_SIG_RATE;
	}
	if (h->sig_tokens == 0)
		return 0;
	h->sig_tokens--;
	return 1;
}

/* ---- from the TAP ---------------------------------------------------------------- */

/*
 * The VLAN field of a TT entry for an Ethernet frame: 0 untagged (or
 * priority-tagged), WIRE_VID_TAGGED | id for an 802.1Q tag.
 */
static uint16_t
fwd_frame_vid(const uint8_t *frame, size_t len)
{
	uint16_t tpid, id;

	tpid = bs_get16(frame + 12);
	if (tpid != FWD_ETH_P_8021Q || len < FWD_VLAN_HLEN)
		return 0;
	id = (uint16_t)(bs_get16(frame + 14) & WIRE_VID_MASK);
	return id == 0 ? 0 : (uint16_t)(WIRE_VID_TAGGED | id);
}

/* ---- AP isolation (batsec.conf(5) ap-isolation) ------------------------------ */

/*
 * A remote client counts as isolated when its originator announces it
 * with WIRE_TT_F_ISOLATED and is not a gateway we know of (a gateway's
 * clients stay reachable whatever it announces).
 */
static int
fwd_client_isolated(const struct fwd_tables *t, const struct fwd_client *cl)
{
	return cl != NULL && (cl->flags & WIRE_TT_F_ISOLATED) != 0 &&
	    fwd_gw_find(t, cl->orig_addr) == NULL;
}

int
fwd_data_isolated(const struct fwd_tables *t, const uint8_t *frame,
    size_t len, int to_mesh)
{
	const uint8_t *local = to_mesh ? frame + 6 : frame;
	const uint8_t *remote = to_mesh ? frame : frame + 6;
	uint16_t vid;

	/* Only unicast between two clients: broadcast and multicast go
	 * through (as batman-adv), and so does the node itself. */
	if (!fwd_local_isolated(t) || len < FWD_ETH_HLEN ||
	    (frame[0] & 0x01) || fwd_local_is_own(t, local))
		return 0;
	vid = fwd_frame_vid(frame, len);
	return fwd_client_isolated(t, fwd_client_find(t, remote, vid));
}

void
fwd_data_isolation(struct fwd *f)
{
	if (f->tables != NULL)
		fwd_local_set_isolated(f->tables, f->cfg.ap_isolation &&
		    f->cfg.gw_mode != BS_GW_SERVER);
}

static void
fwd_data_tap_bcast(struct fwd_data *d, const uint8_t *frame, size_t len)
{
	struct wire_bcast_sgn s;
	uint8_t sig[BS_SIG_LEN];
	size_t n;

	s.orig = d->own_addr;
	s.epoch = d->epoch;
	s.seqno = ++d->bcast_seqno;
	s.inner = frame;
	s.inner_len = len;
	if (wire_bcast_signed_build(d->blk, sizeof(d->blk), &s, &n) !=
	    WIRE_OK || bs_sign(sig, BS_DOM_BCAST, d->blk, n, d->id) != 0 ||
	    wire_sig_append(d->blk, sizeof(d->blk), &n, sig) != WIRE_OK) {
		d->tap.drop_malformed++;
		return;
	}
	fwd_bcast_flood(d, d->blk, n, FWD_DATA_TTL, NULL, 0);
}

static void
fwd_data_tap_unicast(struct fwd_data *d, const uint8_t *orig,
    const uint8_t *frame, size_t len)
{
	struct fwd_data_if ifp;
	struct fwd_neigh *nh;
	size_t n;

	if (fwd_seal(d, WIRE_T_UNICAST, orig, frame, len, &nh, &ifp, &n,
	    &d->tap) != 0)
		return;
	fwd_sealed_send(d, &ifp, nh, FWD_DATA_TTL, n, &d->tap);
}

/*
 * An ARP frame of one of our clients (fwd_dat.h): 1 when it was handled
 * here, a request the cache answered on batsec0 (it does not go into the
 * mesh) or a reply flooded as an announcement; 0: on as usual.
 */
static int
fwd_data_tap_arp(struct fwd_data *d, const uint8_t *frame, size_t len)
{
	uint8_t reply[FWD_DAT_REPLY_MAX];
	struct fwd_arp a;
	size_t n;

	if (!d->dat.enabled || !fwd_dat_arp_parse(frame, len, &a))
		return 0;
	if (!(frame[0] & 0x01)) {
		/* A reply of our client: flooded when it announces. */
		if (!fwd_dat_own(&d->dat, &a, d->now_ms))
			return 0;
		fwd_data_tap_bcast(d, frame, len);
		return 1;
	}
	if ((n = fwd_dat_answer(&d->dat, d->t, &a, d->now_ms, reply)) == 0) {
		(void)fwd_dat_own(&d->dat, &a, d->now_ms);
		return 0;
	}
	fwd_data_to_tap(d, &d->tap, NULL, reply, n);
	return 1;
}

/*
 * The same for a neighbour solicitation or advertisement of one of our
 * clients: a multicast solicitation the cache answered on batsec0, or a
 * unicast advertisement flooded as an announcement.
 */
static int
fwd_data_tap_nd(struct fwd_data *d, const uint8_t *frame, size_t len)
{
	uint8_t reply[FWD_DAT_REPLY_MAX];
	struct fwd_nd nd;
	size_t n;

	if (!d->dat.enabled || !fwd_data_nd(d, frame, len, &nd))
		return 0;
	if (!(frame[0] & 0x01)) {
		if (!fwd_dat_nd_own(&d->dat, &nd, d->now_ms))
			return 0;
		fwd_data_tap_bcast(d, frame, len);
		return 1;
	}
	if ((n = fwd_dat_nd_answer(&d->dat, d->t, &nd, d->now_ms,
	    reply)) == 0)
		return 0;
	fwd_data_to_tap(d, &d->tap, NULL, reply, n);
	return 1;
}

/*
 * A group frame of our clients: the listeners it reports learnt, and, to
 * a group the mesh knows the listeners of (fwd_mcast.h), one UNICAST per
 * listening originator, or nothing when none listens.  0 when it is to
 * be flooded.
 */
static int
fwd_data_tap_mcast(struct fwd_data *d, const uint8_t *frame, size_t len)
{
	uint8_t to[FWD_MCAST_UNICAST_MAX][BS_ADDR_LEN];
	int k, i;

	fwd_mcast_snoop(&d->mcast, frame, len,
	    fwd_local_is_own(d->t, frame + 6), d->now_ms);
	if (!fwd_mcast_snoopable(frame) || d->mcast.mode == BS_MCAST_FLOOD ||
	    (k = fwd_mcast_targets(&d->mcast, d->t, frame, to)) < 0)
		return 0;
	for (i = 0; i < k; i++)
		fwd_data_tap_unicast(d, to[i], frame, len);
	return 1;
}

int
fwd_data_bla_tick(struct fwd_data *d, uint64_t now_ms)
{
	uint8_t frame[FWD_BLA_FRAME_LEN];
	uint64_t before = d->bla.c.unlearnt;
	size_t n, i;

	d->now_ms = now_ms;
	n = fwd_bla_tick(&d->bla, d->t, d->id, d->epoch, now_ms, frame);
	if (n > 0)
		fwd_data_to_tap(d, &d->tap, NULL, frame, n);
	/* After a change of the set: the LAN's bridges learn the mesh
	 * clients we serve now behind us (CLAIMs), a burst a tick. */
	for (i = 0; i < FWD_BLA_CLAIM_BURST; i++) {
		if ((n = fwd_bla_claim_next(&d->bla, d->t, d->own_addr,
		    frame)) == 0)
			break;
		fwd_data_to_tap(d, &d->tap, NULL, frame, n);
	}
	return d->bla.c.unlearnt != before;
}

void
fwd_data_tap_rx(struct fwd_data *d, const uint8_t *frame, size_t len,
    uint64_t now_ms)
{
	const struct fwd_client *cl;
	uint16_t vid;

	d->now_ms = now_ms;
	fwd_count_rx(&d->tap, len);
	if (len < FWD_ETH_HLEN || !wire_mac_is_unicast(frame + 6)) {
		d->tap.drop_malformed++;
		return;
	}
	if (len > WIRE_INNER_MAX) {
		d->tap.drop_too_big++;
		return;
	}
	vid = fwd_frame_vid(frame, len);
	/* Bridge loop avoidance (fwd_bla.h): ANNOUNCEs of the other
	 * backbones of this LAN end here; the frames of clients another
	 * backbone serves are dropped or go on without being learnt. */
	switch (fwd_bla_from_lan(&d->bla, d->t, d->own_addr, frame, len, vid,
	    now_ms)) {
	case FWD_BLA_CONSUMED:
	case FWD_BLA_DROP:
		return;
	case FWD_BLA_PASS:
		(void)fwd_local_learn(d->t, frame + 6, vid, now_ms);
		break;
	case FWD_BLA_PASS_NOLEARN:
		break;
	}
	/* Gateway client mode: the DHCP request to our gateway alone. */
	if (fwd_gw_steer(&d->gw, frame, len) &&
	    fwd_route_find(d->t, d->gw.sel) != NULL) {
		d->gw.steered++;
		fwd_data_tap_unicast(d, d->gw.sel, frame, len);
		return;
	}
	if (fwd_data_tap_arp(d, frame, len) || fwd_data_tap_nd(d, frame, len))
		return;
	if ((frame[0] & 0x01) && fwd_data_tap_mcast(d, frame, len))
		return;
	if ((frame[0] & 0x01) ||
	    (cl = fwd_client_find(d->t, frame, vid)) == NULL) {
		fwd_data_tap_bcast(d, frame, len);
		return;
	}
	if (fwd_data_isolated(d->t, frame, len, 1)) {
		d->tap.drop_isolated_out++;
		return;
	}
	fwd_data_tap_unicast(d, cl->orig_addr, frame, len);
}

/* ---- from the mesh ------------------------------------------------------------------ */

static void	fwd_trace_expired(struct fwd_data *d,
		    const struct wire_sealed *s, uint64_t now_ms);

/*
 * A sealed frame for another originator: ttl - 1 along the route, with
 * our hop part for the next hop; the end-to-end part travels unchanged.
 * A TRACE whose TTL runs out here is answered (fwd_trace_expired).
 */
static void
fwd_data_forward(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const uint8_t *p, const struct wire_sealed *s)
{
	struct fwd_data_if ifp;
	struct fwd_neigh *nh;

	if (s->ttl <= 1) {
		FWD_DROP(c, n, drop_ttl);
		if (s->type == WIRE_T_TRACE)
			fwd_trace_expired(d, s, d->now_ms);
		return;
	}
	if (fwd_data_next_hop(d, s->e.dst, NULL, &nh, &ifp) != 0) {
		FWD_DROP(c, n, drop_no_route);
		return;
	}
	memcpy(d->buf, p, s->len);
	fwd_sealed_send(d, &ifp, nh, (uint8_t)(s->ttl - 1), s->len, c);
}

/*
 * The inner frame of a UNICAST from orig for us.  A group frame (sent to
 * us as a UNICAST for the multicast listeners, fwd_mcast.h) goes into a
 * LAN other backbones bridge too only as a BCAST would: when we are the
 * one for its source (fwd_bla.h).
 */
static void
fwd_data_unicast_in(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const uint8_t *orig, const uint8_t *inner,
    size_t len)
{
	if (len >= FWD_ETH_HLEN && (inner[0] & 0x01) &&
	    !fwd_bla_to_lan(&d->bla, d->t, d->own_addr, orig, inner, len,
	    fwd_frame_vid(inner, len), d->now_ms))
		return;
	fwd_data_from_orig(d, c, n, orig, inner, len);
}

static void	fwd_echo_for_us(struct fwd_data *d, const uint8_t *src,
		    const struct wire_echo *in, uint64_t now_ms);
static void	fwd_ttlx_for_us(struct fwd_data *d, const uint8_t *src,
		    const struct wire_ttlx *x);

/*
 * The plaintext in d->pt of a sealed frame s for us, not a UNICAST: an
 * ECHO or TRACE (a TRACE is only ever a request) or a TTLX.
 */
static void
fwd_data_rx_control(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const struct wire_sealed *s, uint64_t now_ms)
{
	struct wire_echo e;
	struct wire_ttlx x;

	if (s->type == WIRE_T_TTLX) {
		if (wire_ttlx_body_parse(d->pt, s->ct_len, &x) != WIRE_OK) {
			FWD_DROP(c, n, drop_malformed);
			return;
		}
		fwd_ttlx_for_us(d, s->e.src, &x);
		return;
	}
	if (wire_echo_body_parse(d->pt, s->ct_len, &e) != WIRE_OK ||
	    (s->type == WIRE_T_TRACE && e.kind != WIRE_ECHO_REQUEST)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	fwd_echo_for_us(d, s->e.src, &e, now_ms);
}

/* A UNICAST or ECHO from neighbour n on interface ifp. */
static void
fwd_data_rx_sealed(struct fwd_data *d, struct fwd_data_ifc *ic,
    const struct fwd_data_if *ifp, struct fwd_neigh *n, const uint8_t *dst,
    const uint8_t *p, size_t len, uint64_t now_ms)
{
	struct fwd_dcount *c = &ic->c;
	uint8_t in[WIRE_SEALED_HOP_IN];
	struct wire_sealed s;

	/* Addressed to one interface, never to a group. */
	if (wire_sealed_parse(p, len, &s) != WIRE_OK || (dst[0] & 0x01)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	wire_sealed_hop_input(p, s.len, in);
	if (!fwd_hop_check(d, c, n, ifp, s.keyid, s.hop_counter, s.hop_tag,
	    in, sizeof(in)))
		return;
	/* Ours, back from the mesh: a routing loop.  Sending it on would
	 * only go round again; it was never meant for us. */
	if (memcmp(s.e.src, d->own_addr, BS_ADDR_LEN) == 0) {
		if (s.type != WIRE_T_UNICAST)
			d->echo.drop_own++;
		else
			FWD_DROP(c, n, drop_own_unicast);
		return;
	}
	if (memcmp(s.e.dst, d->own_addr, BS_ADDR_LEN) != 0) {
		if (s.type == WIRE_T_UNICAST)
			ic->transit++;
		fwd_data_forward(d, c, n, p, &s);
		return;
	}
	if (!fwd_open(d, c, n, p, &s))
		return;
	if (s.type == WIRE_T_UNICAST) {
		if (fwd_gw_rx_drop(&d->gw, s.e.src, d->pt, s.ct_len))
			d->gw.dropped++;
		else if (fwd_data_isolated(d->t, d->pt, s.ct_len, 0))
			FWD_DROP(c, n, drop_isolated_in);
		else
			fwd_data_unicast_in(d, c, n, s.e.src, d->pt, s.ct_len);
		return;
	}
	fwd_data_rx_control(d, c, n, &s, now_ms);
}

/*
 * The end-to-end part of a UNICAST put together from FRAG pieces (the
 * last of them from neighbour n): opened as if it had come whole.
 */
static void
fwd_data_rx_joined(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, uint8_t ttl, const uint8_t *e2e, size_t len)
{
	struct wire_sealed s;

	memset(d->buf, 0, WIRE_E2E_OFF);
	d->buf[0] = WIRE_T_UNICAST;
	d->buf[1] = WIRE_DATA_VERSION;
	d->buf[2] = ttl;
	memcpy(d->buf + WIRE_E2E_OFF, e2e, len);
	/* Only a UNICAST for us can come of it: the type is ours. */
	if (wire_sealed_parse(d->buf, WIRE_E2E_OFF + len, &s) != WIRE_OK ||
	    memcmp(s.e.dst, d->own_addr, BS_ADDR_LEN) != 0) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	if (memcmp(s.e.src, d->own_addr, BS_ADDR_LEN) == 0) {
		FWD_DROP(c, n, drop_own_unicast);
		return;
	}
	if (!fwd_open(d, c, n, d->buf, &s))
		return;
	fwd_data_unicast_in(d, c, n, s.e.src, d->pt, s.ct_len);
}

/* A FRAG from neighbour n on interface ifp. */
static void
fwd_data_rx_frag(struct fwd_data *d, struct fwd_dcount *c,
    const struct fwd_data_if *ifp, struct fwd_neigh *n, const uint8_t *dst,
    const uint8_t *p, size_t len, uint64_t now_ms)
{
	uint8_t in[WIRE_FRAG_HOP_IN_MAX];
	struct fwd_data_if oif;
	struct fwd_frag_of o;
	struct fwd_neigh *nh;
	struct wire_frag f;
	const uint8_t *whole;
	size_t whole_len, inlen;

	if (wire_frag_parse(p, len, &f) != WIRE_OK || (dst[0] & 0x01)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	inlen = wire_frag_hop_input(p, f.len, in);
	if (!fwd_hop_check(d, c, n, ifp, f.keyid, f.hop_counter, f.hop_tag,
	    in, inlen))
		return;
	/* A piece we cut, back from the mesh: a routing loop. */
	if (memcmp(f.orig, d->own_addr, BS_ADDR_LEN) == 0) {
		FWD_DROP(c, n, drop_own_unicast);
		return;
	}
	if (memcmp(f.dst, d->own_addr, BS_ADDR_LEN) != 0) {
		if (f.ttl <= 1) {
			FWD_DROP(c, n, drop_ttl);
			return;
		}
		if (fwd_data_next_hop(d, f.dst, NULL, &nh, &oif) != 0) {
			FWD_DROP(c, n, drop_no_route);
			return;
		}
		o.dst = f.dst;
		o.orig = f.orig;
		o.seqno = f.seqno;
		o.total = f.total;
		fwd_frag_send(d, &oif, nh, (uint8_t)(f.ttl - 1), &o, f.offset,
		    f.piece, f.piece_len, c);
		return;
	}
	/* Buffers only for fragmenters that are originators we know. */
	if (fwd_route_find(d->t, f.orig) == NULL) {
		d->frag.cnt.frag_drop_unknown++;
		return;
	}
	if (fwd_frag_add(&d->frag, n->addr, f.orig, f.seqno, f.total, f.offset,
	    f.piece, f.piece_len, now_ms, &whole, &whole_len) == 1)
		fwd_data_rx_joined(d, c, n, f.ttl, whole, whole_len);
}

static void
fwd_data_rx_bcast(struct fwd_data *d, struct fwd_dcount *c,
    const struct fwd_data_if *ifp, struct fwd_neigh *n, const uint8_t *dst,
    const uint8_t *p, size_t len, uint64_t now_ms)
{
	uint8_t in[WIRE_BCAST_TAG_IN];
	const struct fwd_route *r;
	struct fwd_e2e *pe;
	struct wire_bcast b;
	int i;

	if (wire_bcast_parse(p, len, &b) != WIRE_OK || !(dst[0] & 0x01)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	if (!fwd_hop_ready(d, n, ifp)) {
		FWD_DROP(c, n, drop_no_key);
		return;
	}
	if ((i = wire_bcast_find_tag(&b, n->hop.keyid)) < 0 &&
	    (!n->alt.has_key ||
	    (i = wire_bcast_find_tag(&b, n->alt.keyid)) < 0) &&
	    (!n->old.has_key ||
	    (i = wire_bcast_find_tag(&b, n->old.keyid)) < 0)) {
		FWD_DROP(c, n, drop_stale_key);
		return;
	}
	wire_bcast_tag_input(p, &b, in);
	if (!fwd_hop_check(d, c, n, ifp, b.tags + (size_t)i *
	    WIRE_BCAST_TAG_LEN, b.hop_counter,
	    b.tags + (size_t)i * WIRE_BCAST_TAG_LEN + BS_KEYID_LEN, in,
	    sizeof(in)))
		return;
	if (memcmp(b.orig, d->own_addr, BS_ADDR_LEN) == 0) {
		FWD_DROP(c, n, drop_own_bcast);
		return;
	}
	/* Duplicates go before the signature is checked: each broadcast
	 * costs one verification per node, however many paths bring it. */
	if ((r = fwd_route_find(d->t, b.orig)) == NULL) {
		FWD_DROP(c, n, drop_no_key);
		return;
	}
	/* Looked up, not made: only a verified broadcast may take a slot
	 * (and evict another originator's state). */
	pe = fwd_e2e_get(d->t, b.orig, 0);
	if (!fwd_bcast_fresh(pe, r, b.epoch, b.seqno)) {
		FWD_DROP(c, n, drop_dup_bcast);
		return;
	}
	if (!fwd_sig_token(n, now_ms)) {
		FWD_DROP(c, n, drop_sig_budget);
		return;
	}
	if (bs_verify(b.sig, BS_DOM_BCAST, b.signed_ptr, b.signed_len,
	    r->orig_pk) != 0) {
		FWD_DROP(c, n, drop_bad_sig);
		return;
	}
	if (pe == NULL)
		pe = fwd_e2e_get(d->t, b.orig, 1);
	fwd_e2e_bcast_mark(d->t, pe, b.epoch, b.seqno);
	/* A DHCP answer of a gateway we do not use: relayed, not ours. */
	/* An unknown unicast flooded: not delivered, still sent on. */
	if (fwd_gw_rx_drop(&d->gw, b.orig, b.inner, b.inner_len))
		d->gw.dropped++;
	else if (fwd_data_isolated(d->t, b.inner, b.inner_len, 0))
		FWD_DROP(c, n, drop_isolated_in);
	/* Bridge loop avoidance: into a LAN other backbones bridge too,
	 * only when we are the one for its source (fwd_bla.h); relayed on
	 * all the same. */
	else if (b.inner_len >= FWD_ETH_HLEN &&
	    !fwd_bla_to_lan(&d->bla, d->t, d->own_addr, b.orig, b.inner,
	    b.inner_len, fwd_frame_vid(b.inner, b.inner_len), now_ms))
		;
	else
		fwd_data_from_orig(d, c, n, b.orig, b.inner, b.inner_len);
	if (b.ttl > 1)
		fwd_bcast_flood(d, b.block, b.block_len, (uint8_t)(b.ttl - 1),
		    n, ifp->ifindex);
}

/* ---- the mesh ping --------------------------------------------------------------- */

/*
 * Seal body (len bytes) as a frame of type for dst and send it with ttl;
 * *counter (may be NULL) gets its end-to-end counter.  0, or -1 (no
 * route or no key).
 */
static int
fwd_ctl_frame_send(struct fwd_data *d, uint8_t type, uint8_t ttl,
    const uint8_t *dst, const uint8_t *body, size_t len, uint64_t *counter)
{
	struct fwd_data_if ifp;
	struct fwd_neigh *nh;
	struct fwd_dcount c;
	size_t n;

	memset(&c, 0, sizeof(c));
	if (fwd_seal(d, type, dst, body, len, &nh, &ifp, &n, &c) != 0)
		return -1;
	if (counter != NULL)
		*counter = bs_get64(d->buf + WIRE_E2E_OFF + 20);
	fwd_sealed_send(d, &ifp, nh, ttl, n, &c);
	return c.drop_no_key == 0 ? 0 : -1;
}

/* Seal e for dst and send it as type with ttl; 0, or -1 as above. */
static int
fwd_echo_send(struct fwd_data *d, uint8_t type, uint8_t ttl,
    const uint8_t *dst, const struct wire_echo *e, uint64_t *counter)
{
	uint8_t body[WIRE_ECHO_BODY_LEN];

	wire_echo_body_put(body, e);
	return fwd_ctl_frame_send(d, type, ttl, dst, body, sizeof(body),
	    counter);
}

/* An echo request (a TRACE when trace) to dst with ttl: as fwd_data_ping. */
static int
fwd_data_probe(struct fwd_data *d, const uint8_t *dst, int trace, uint8_t ttl,
    uint16_t *seqno)
{
	const struct fwd_route *r;
	struct fwd_ping *pg;
	struct wire_echo e;
	uint64_t sent_us, counter = 0;

	e.kind = WIRE_ECHO_REQUEST;
	e.ident = d->ping_ident;
	e.seqno = (uint16_t)(d->ping_seqno + 1);
	pg = &d->ping[e.seqno % FWD_PING_SLOTS];
	pg->state = FWD_PING_NONE;
	/* The clock starts before the send: on a veth the send itself runs
	 * the next hops' receive path, and the reply may be on its way
	 * before sendmmsg returns. */
	sent_us = log_now_us();
	d->now_ms = sent_us / 1000;
	if (fwd_echo_send(d, trace ? WIRE_T_TRACE : WIRE_T_ECHO, ttl, dst, &e,
	    &counter) != 0)
		return -1;
	fwd_data_flush(d);
	d->ping_seqno = e.seqno;
	memcpy(pg->dst, dst, BS_ADDR_LEN);
	pg->seqno = e.seqno;
	pg->state = FWD_PING_SENT;
	pg->trace = trace != 0;
	pg->ttl = ttl;
	memset(pg->first_hop, 0, sizeof(pg->first_hop));
	if ((r = fwd_route_find(d->t, dst)) != NULL)
		memcpy(pg->first_hop, r->nexthop, BS_ADDR_LEN);
	pg->counter = counter;
	memset(pg->hop, 0, sizeof(pg->hop));
	pg->sent_us = sent_us;
	pg->rtt_us = 0;
	if (trace)
		d->echo.traces_sent++;
	else
		d->echo.requests_sent++;
	*seqno = e.seqno;
	return 0;
}

int
fwd_data_ping(struct fwd_data *d, const uint8_t dst[static BS_ADDR_LEN],
    uint16_t *seqno)
{
	return fwd_data_probe(d, dst, 0, FWD_DATA_TTL, seqno);
}

int
fwd_data_trace(struct fwd_data *d, const uint8_t dst[static BS_ADDR_LEN],
    uint8_t ttl, uint16_t *seqno)
{
	if (ttl == 0)
		return -1;
	return fwd_data_probe(d, dst, 1, ttl, seqno);
}

int
fwd_data_ping_result(const struct fwd_data *d, uint16_t seqno,
    uint64_t *rtt_us, uint8_t *hop)
{
	const struct fwd_ping *pg = &d->ping[seqno % FWD_PING_SLOTS];

	if (pg->state == FWD_PING_NONE || pg->seqno != seqno)
		return -1;
	*rtt_us = pg->rtt_us;
	if (hop != NULL)
		memcpy(hop, pg->hop, BS_ADDR_LEN);
	return pg->state;
}

/* One token of b: rate a second, at most burst at once. */
static int
fwd_tokens_take(struct fwd_tokens *b, uint64_t now_ms, uint32_t rate,
    uint32_t burst)
{
	uint64_t add;

	if (now_ms < b->refill_ms)
		b->refill_ms = now_ms;		/* the clock went back */
	add = (now_ms - b->refill_ms) * rate / 1000;
	if (add > 0) {
		b->tokens = add >= burst - b->tokens ? burst :
		    b->tokens + (uint32_t)add;
		b->refill_ms += add * 1000 / rate;
	}
	if (b->tokens == 0)
		return 0;
	b->tokens--;
	return 1;
}

/* One reply token: FWD_ECHO_RATE a second, at most FWD_ECHO_BURST. */
static int
fwd_echo_token(struct fwd_data *d, uint64_t now_ms)
{
	return fwd_tokens_take(&d->echo_b, now_ms, FWD_ECHO_RATE,
	    FWD_ECHO_BURST);
}

/*
 * The TTLX bucket of source src: its slot, or a free one, or the one
 * unused longest (its bucket starts full).
 */
static struct fwd_tokens *
fwd_ttlx_src_tokens(struct fwd_data *d, const uint8_t *src, uint64_t now_ms)
{
	struct fwd_ttlx_src *e, *pick = &d->ttlx_src[0];
	size_t i;

	for (i = 0; i < FWD_TTLX_SRCS; i++) {
		e = &d->ttlx_src[i];
		if (memcmp(e->addr, src, BS_ADDR_LEN) == 0) {
			pick = e;
			goto found;
		}
		if (e->used_ms < pick->used_ms)
			pick = e;
	}
	memcpy(pick->addr, src, BS_ADDR_LEN);
	pick->b.tokens = FWD_TTLX_SRC_BURST;
	pick->b.refill_ms = now_ms;
found:
	pick->used_ms = now_ms;
	return &pick->b;
}

/*
 * A TRACE s for another originator whose TTL ran out here: a TTLX to its
 * source, sealed end to end from us, within the rate limits.  Only a
 * TRACE is ever answered, and an answer is never a TRACE: answers cannot
 * answer each other.
 */
static void
fwd_trace_expired(struct fwd_data *d, const struct wire_sealed *s,
    uint64_t now_ms)
{
	uint8_t body[WIRE_TTLX_BODY_LEN];
	struct wire_ttlx x;

	d->echo.trace_expired++;
	if (fwd_route_find(d->t, s->e.src) == NULL) {
		d->echo.ttlx_drop_no_route++;
		return;
	}
	if (!fwd_tokens_take(fwd_ttlx_src_tokens(d, s->e.src, now_ms), now_ms,
	    FWD_TTLX_SRC_RATE, FWD_TTLX_SRC_BURST)) {
		d->echo.ttlx_drop_src_rate++;
		return;
	}
	if (!fwd_tokens_take(&d->ttlx_b, now_ms, FWD_TTLX_RATE,
	    FWD_TTLX_BURST)) {
		d->echo.ttlx_drop_rate++;
		return;
	}
	x.dst = s->e.dst;
	x.counter = s->e.counter;
	wire_ttlx_body_put(body, &x);
	if (fwd_ctl_frame_send(d, WIRE_T_TTLX, FWD_DATA_TTL, s->e.src, body,
	    sizeof(body), NULL) == 0)
		d->echo.ttlx_sent++;
	else
		d->echo.ttlx_drop_no_route++;
}

/*
 * An authenticated TTLX from relay src for us: completes the TRACE of
 * ours it names (destination and counter), when one is waiting; for a
 * TTL-1 TRACE only when src is the neighbour it went to.
 */
static void
fwd_ttlx_for_us(struct fwd_data *d, const uint8_t *src,
    const struct wire_ttlx *x)
{
	struct fwd_ping *pg;
	size_t i;

	for (i = 0; i < FWD_PING_SLOTS; i++) {
		pg = &d->ping[i];
		if (pg->state != FWD_PING_SENT || !pg->trace ||
		    pg->counter != x->counter ||
		    memcmp(pg->dst, x->dst, BS_ADDR_LEN) != 0)
			continue;
		if (pg->ttl == 1 &&
		    memcmp(pg->first_hop, src, BS_ADDR_LEN) != 0) {
			d->echo.ttlx_wrong_hop++;
			return;
		}
		pg->rtt_us = log_now_us() - pg->sent_us;
		pg->state = FWD_PING_EXPIRED;
		memcpy(pg->hop, src, BS_ADDR_LEN);
		d->echo.ttlx_received++;
		return;
	}
	d->echo.ttlx_unmatched++;
}

/* An authenticated ECHO from src for us: answer or complete a ping. */
static void
fwd_echo_for_us(struct fwd_data *d, const uint8_t *src,
    const struct wire_echo *in, uint64_t now_ms)
{
	struct fwd_ping *pg;
	struct wire_echo e;

	if (in->kind == WIRE_ECHO_REQUEST) {
		d->echo.requests_received++;
		if (!fwd_echo_token(d, now_ms)) {
			d->echo.drop_rate++;
			return;
		}
		e.kind = WIRE_ECHO_REPLY;
		e.ident = in->ident;
		e.seqno = in->seqno;
		if (fwd_echo_send(d, WIRE_T_ECHO, FWD_DATA_TTL, src, &e,
		    NULL) == 0)
			d->echo.replies_sent++;
		else
			d->echo.drop_no_route++;
		return;
	}
	pg = &d->ping[in->seqno % FWD_PING_SLOTS];
	if (in->ident != d->ping_ident || pg->state != FWD_PING_SENT ||
	    pg->seqno != in->seqno ||
	    memcmp(pg->dst, src, BS_ADDR_LEN) != 0) {
		d->echo.drop_unmatched++;
		return;
	}
	pg->rtt_us = log_now_us() - pg->sent_us;
	pg->state = FWD_PING_REPLIED;
	d->echo.replies_received++;
}

void
fwd_data_mesh_rx(struct fwd_data *d, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN],
    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *payload,
    size_t len, uint64_t now_ms)
{
	struct fwd_data_ifc *s = fwd_data_ifc_slot(d, ifindex);
	struct fwd_dcount *c = &s->c;
	struct fwd_data_if ifp;
	struct fwd_neigh *n;

	d->now_ms = now_ms;
	fwd_count_rx(c, len);
	if ((n = fwd_neigh_find_mac(d->t, src, ifindex)) == NULL ||
	    !fwd_data_if_get(d, ifindex, &ifp)) {
		c->drop_not_neigh++;
		return;
	}
	fwd_count_rx(&n->c, len);
	if (len < WIRE_HDR_LEN || payload[1] != WIRE_DATA_VERSION) {
		FWD_DROP(c, n, drop_version);
		return;
	}
	if (wire_is_sealed(payload[0]))
		fwd_data_rx_sealed(d, s, &ifp, n, dst, payload, len, now_ms);
	else if (payload[0] == WIRE_T_BCAST)
		fwd_data_rx_bcast(d, c, &ifp, n, dst, payload, len, now_ms);
	else if (payload[0] == WIRE_T_FRAG)
		fwd_data_rx_frag(d, c, &ifp, n, dst, payload, len, now_ms);
	else
		FWD_DROP(c, n, drop_malformed);
}

/* ---- the daemon's I/O ----------------------------------------------------------------- */

static int
fwd_data_real_send(void *arg, uint32_t ifindex,
    const uint8_t dst[static BS_ADDR_LEN], const void *payload, size_t len)
{
	struct fwd *f = arg;
	struct fwd_iface *v = fwd_iface_usable_by_index(&f->ifs, ifindex);

	if (v == NULL)
		return -1;
	if (rawsock_send(&v->rs, dst, payload, len) == 0)
		return 0;
	if (errno != EAGAIN && errno != ENETDOWN && errno != ENXIO)
		log_rl(&f->data->err_rl, LOG_WARNING, "mesh interface %s: "
		    "send: %s", v->name, strerror(errno));
	return -1;
}

/* sendmmsg once more after a short count: the error it hid, if any. */
static size_t
fwd_data_real_send_batch(void *arg, uint32_t ifindex,
    const struct fwd_data_tx *tx, size_t n)
{
	struct rawsock_txmsg m[FWD_TXQ_MAX];
	struct fwd *f = arg;
	struct fwd_iface *v = fwd_iface_usable_by_index(&f->ifs, ifindex);
	size_t i, done = 0;
	int r = 0;

	if (v == NULL || n > FWD_TXQ_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		m[i].dst = tx[i].dst;
		m[i].payload = tx[i].frame;
		m[i].len = tx[i].len;
	}
	while (done < n &&
	    (r = rawsock_send_batch(&v->rs, m + done, n - done)) > 0)
		done += (size_t)r;
	if (r < 0 && errno != EAGAIN && errno != ENETDOWN && errno != ENXIO)
		log_rl(&f->data->err_rl, LOG_WARNING, "mesh interface %s: "
		    "send: %s", v->name, strerror(errno));
	return done;
}

static int
fwd_data_real_tap(void *arg, const void *frame, size_t len)
{
	/* Joined with the frames around it where it can be (tapoff.h). */
	return fwd_tap_deliver(arg, frame, len);
}

static size_t
fwd_data_real_ifaces(void *arg, struct fwd_data_if *out, size_t max)
{
	struct fwd *f = arg;
	struct fwd_iface *v;
	size_t i, n = 0;

	for (i = 0; i < f->ifs.n && n < max; i++) {
		v = &f->ifs.v[i];
		if (!fwd_iface_usable(v))
			continue;
		out[n].ifindex = (uint32_t)v->ifindex;
		out[n].mtu = v->mtu;
		memcpy(out[n].mac, v->mac, BS_ADDR_LEN);
		out[n].wireless = v->wireless != 0;
		out[n].bcast_repeat = (uint8_t)v->bcast_repeat;
		n++;
	}
	return n;
}

int
fwd_data_setup(struct fwd *f)
{
	struct fwd_data_ops ops;

	memset(&ops, 0, sizeof(ops));
	ops.send = fwd_data_real_send;
	ops.send_batch = fwd_data_real_send_batch;
	ops.tap_write = fwd_data_real_tap;
	ops.ifaces = fwd_data_real_ifaces;
	ops.arg = f;
	if ((f->tables = fwd_tables_new()) == NULL)
		return -1;
	if ((f->data = malloc(sizeof(*f->data))) == NULL) {
		fwd_tables_free(f->tables);
		f->tables = NULL;
		return -1;
	}
	fwd_data_init(f->data, f->tables, &f->id, f->epoch, &ops);
	f->data->aes = (uint8_t)(f->data->aes &&
	    f->cfg.e2e_cipher == BS_E2E_AUTO);
	fwd_data_isolation(f);
	f->data->dat.enabled = f->cfg.dat;
	f->data->mcast.mode = (uint8_t)f->cfg.mcast;
	fwd_bla_enable(&f->data->bla, f->cfg.bla, log_now_ms());
	return 0;
}

void
fwd_data_teardown(struct fwd *f)
{
	if (f->data != NULL)
		fwd_data_fini(f->data);
	free(f->data);
	f->data = NULL;
	fwd_tables_free(f->tables);
	f->tables = NULL;
}
