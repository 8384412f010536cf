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

/* ---- set-up ---------------------------------------------------------------- */

void
fwd_data_init(struct fwd_data *d, struct fwd_tables *t,
    const uint8_t own_addr[static BS_ADDR_LEN],
    const struct fwd_data_ops *ops)
{
	struct log_rl rl = LOG_RL_INIT(5, 1);

	memset(d, 0, sizeof(*d));
	d->t = t;
	d->ops = *ops;
	d->err_rl = rl;
	memcpy(d->own_addr, own_addr, BS_ADDR_LEN);
	d->bcast_seqno = randombytes_random();
	d->ping_ident = (uint16_t)randombytes_random();
	d->ping_seqno = (uint16_t)randombytes_random();
	d->echo_tokens = FWD_ECHO_BURST;
}

int
fwd_data_is_data(const uint8_t *payload, size_t len)
{
	return len > 0 && (payload[0] == WIRE_T_UNICAST ||
	    payload[0] == WIRE_T_BCAST || payload[0] == WIRE_T_ECHO);
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
	d->txn = 0;
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

/* The built frame d->buf[0..len) to ff:ff:ff:ff:ff:ff on every up iface. */
static void
fwd_data_flood(struct fwd_data *d, size_t len)
{
	struct fwd_data_if ifs[FWD_DATA_IFC_MAX];
	size_t n, i;

	n = d->ops.ifaces(d->ops.arg, ifs, FWD_DATA_IFC_MAX);
	for (i = 0; i < n && i < FWD_DATA_IFC_MAX; i++)
		fwd_data_send(d, &ifs[i], fwd_bcast_mac, d->buf, len, NULL);
}

/*
 * The next hop towards originator orig: its neighbour entry and the
 * interface to send on.  0, or -1 when there is no usable route (no route,
 * the next hop is no longer an up neighbour, or its interface is down).
 */
static int
fwd_data_next_hop(struct fwd_data *d, const uint8_t *orig,
    struct fwd_neigh **nh, struct fwd_data_if *ifp)
{
	const struct fwd_route *r = fwd_route_find(d->t, orig);

	if (r == NULL)
		return -1;
	if ((*nh = fwd_neigh_find(d->t, r->nexthop, r->ifindex)) == NULL)
		return -1;
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

static void
fwd_data_tap_bcast(struct fwd_data *d, const uint8_t *frame, size_t len)
{
	struct wire_bcast b;
	size_t n;

	memset(&b, 0, sizeof(b));
	b.ttl = FWD_DATA_TTL;
	b.seqno = ++d->bcast_seqno;
	b.orig = d->own_addr;
	b.inner = frame;
	b.inner_len = len;
	if (wire_bcast_build(d->buf, sizeof(d->buf), &b, &n) != WIRE_OK) {
		d->tap.drop_malformed++;
		return;
	}
	fwd_data_flood(d, n);
}

static void
fwd_data_tap_unicast(struct fwd_data *d, const uint8_t *orig,
    const uint8_t *frame, size_t len)
{
	struct fwd_data_if ifp;
	struct fwd_neigh *nh;
	struct wire_unicast u;
	size_t n;

	if (fwd_data_next_hop(d, orig, &nh, &ifp) != 0) {
		d->tap.drop_no_route++;
		return;
	}
	memset(&u, 0, sizeof(u));
	u.ttl = FWD_DATA_TTL;
	u.dst = orig;
	u.src = d->own_addr;
	u.inner = frame;
	u.inner_len = len;
	if (wire_unicast_build(d->buf, sizeof(d->buf), &u, &n) != WIRE_OK) {
		d->tap.drop_malformed++;
		return;
	}
	fwd_data_send(d, &ifp, nh->mac, d->buf, n, nh);
}

void
fwd_data_tap_rx(struct fwd_data *d, const uint8_t *frame, size_t len,
    uint64_t now_ms)
{
	const struct fwd_client *cl;
	uint16_t vid;

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
	(void)fwd_local_learn(d->t, frame + 6, vid, now_ms);
	if ((frame[0] & 0x01) ||
	    (cl = fwd_client_find(d->t, frame, vid)) == NULL) {
		fwd_data_tap_bcast(d, frame, len);
		return;
	}
	fwd_data_tap_unicast(d, cl->orig_addr, frame, len);
}

/* ---- from the mesh ------------------------------------------------------------------ */

/* Count a drop of a frame from neighbour n on the interface counters c. */
#define FWD_DROP(c, n, field) do {		\
	(c)->field++;				\
	(n)->c.field++;				\
} while (0)

/*
 * A UNICAST or ECHO of flen bytes (p, padding left out) for another
 * originator to: ttl - 1 along the route.
 */
static void
fwd_data_forward(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const uint8_t *p, size_t flen, uint8_t ttl,
    const uint8_t *to)
{
	struct fwd_data_if ifp;
	struct fwd_neigh *nh;

	if (ttl <= 1) {
		FWD_DROP(c, n, drop_ttl);
		return;
	}
	if (fwd_data_next_hop(d, to, &nh, &ifp) != 0) {
		FWD_DROP(c, n, drop_no_route);
		return;
	}
	memcpy(d->buf, p, flen);
	(void)wire_data_set_ttl(d->buf, flen, (uint8_t)(ttl - 1));
	fwd_data_send(d, &ifp, nh->mac, d->buf, flen, nh);
}

static void
fwd_data_rx_unicast(struct fwd_data *d, struct fwd_data_ifc *s,
    struct fwd_neigh *n, const uint8_t *dst, const uint8_t *p, size_t len)
{
	struct fwd_dcount *c = &s->c;
	struct wire_unicast u;

	/* A UNICAST is addressed to one interface, never to a group. */
	if (wire_unicast_parse(p, len, &u) != WIRE_OK || (dst[0] & 0x01)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	/* Ours, back from the mesh: a routing loop or a forgery.  Sending
	 * it on would only go round again; delivering it would hand the
	 * host a frame it sent itself. */
	if (memcmp(u.src, d->own_addr, BS_ADDR_LEN) == 0) {
		FWD_DROP(c, n, drop_own_unicast);
		return;
	}
	if (memcmp(u.dst, d->own_addr, BS_ADDR_LEN) == 0) {
		fwd_data_to_tap(d, c, n, u.inner, u.inner_len);
		return;
	}
	s->transit++;
	fwd_data_forward(d, c, n, p, u.len, u.ttl, u.dst);
}

static void
fwd_data_rx_bcast(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const uint8_t *dst, const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct wire_bcast b;

	if (wire_bcast_parse(p, len, &b) != WIRE_OK || !(dst[0] & 0x01)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	if (memcmp(b.orig, d->own_addr, BS_ADDR_LEN) == 0) {
		FWD_DROP(c, n, drop_own_bcast);
		return;
	}
	if (!fwd_bcast_check(d->t, b.orig, b.seqno, now_ms)) {
		FWD_DROP(c, n, drop_dup_bcast);
		return;
	}
	fwd_data_to_tap(d, c, n, b.inner, b.inner_len);
	if (b.ttl <= 1)
		return;
	memcpy(d->buf, p, b.len);
	(void)wire_data_set_ttl(d->buf, b.len, (uint8_t)(b.ttl - 1));
	fwd_data_flood(d, b.len);
}

/* ---- the mesh ping --------------------------------------------------------------- */

/* Build e into d->buf and send it towards e->dst; 0, or -1 (no route). */
static int
fwd_echo_send(struct fwd_data *d, const struct wire_echo *e)
{
	struct fwd_data_if ifp;
	struct fwd_neigh *nh;
	size_t n;

	if (fwd_data_next_hop(d, e->dst, &nh, &ifp) != 0)
		return -1;
	if (wire_echo_build(d->buf, sizeof(d->buf), e, &n) != WIRE_OK)
		return -1;
	fwd_data_send(d, &ifp, nh->mac, d->buf, n, nh);
	return 0;
}

int
fwd_data_ping(struct fwd_data *d, const uint8_t dst[static BS_ADDR_LEN],
    uint16_t *seqno)
{
	struct fwd_ping *pg;
	struct wire_echo e;
	uint64_t sent_us;

	memset(&e, 0, sizeof(e));
	e.ttl = FWD_DATA_TTL;
	e.kind = WIRE_ECHO_REQUEST;
	e.dst = dst;
	e.src = d->own_addr;
	e.ident = d->ping_ident;
	e.seqno = (uint16_t)(d->ping_seqno + 1);
	pg = &d->ping[e.seqno % FWD_PING_SLOTS];
	pg->state = FWD_PING_NONE;
	/* The clock starts before the send: on a veth the send itself runs
	 * the next hops' receive path, and the reply may be on its way
	 * before sendmmsg returns. */
	sent_us = log_now_us();
	if (fwd_echo_send(d, &e) != 0)
		return -1;
	fwd_data_flush(d);
	d->ping_seqno = e.seqno;
	memcpy(pg->dst, dst, BS_ADDR_LEN);
	pg->seqno = e.seqno;
	pg->state = FWD_PING_SENT;
	pg->sent_us = sent_us;
	pg->rtt_us = 0;
	d->echo.requests_sent++;
	*seqno = e.seqno;
	return 0;
}

int
fwd_data_ping_result(const struct fwd_data *d, uint16_t seqno,
    uint64_t *rtt_us)
{
	const struct fwd_ping *pg = &d->ping[seqno % FWD_PING_SLOTS];

	if (pg->state == FWD_PING_NONE || pg->seqno != seqno)
		return -1;
	*rtt_us = pg->rtt_us;
	return pg->state;
}

/* One reply token: FWD_ECHO_RATE a second, at most FWD_ECHO_BURST. */
static int
fwd_echo_token(struct fwd_data *d, uint64_t now_ms)
{
	uint64_t add;

	if (now_ms < d->echo_refill_ms)
		d->echo_refill_ms = now_ms;	/* the clock went back */
	add = (now_ms - d->echo_refill_ms) * FWD_ECHO_RATE / 1000;
	if (add > 0) {
		d->echo_tokens = add >= FWD_ECHO_BURST - d->echo_tokens ?
		    FWD_ECHO_BURST : d->echo_tokens + (uint32_t)add;
		d->echo_refill_ms += add * 1000 / FWD_ECHO_RATE;
	}
	if (d->echo_tokens == 0)
		return 0;
	d->echo_tokens--;
	return 1;
}

/* An ECHO for us: answer a request, or complete one of our pings. */
static void
fwd_echo_for_us(struct fwd_data *d, const struct wire_echo *in,
    uint64_t now_ms)
{
	struct fwd_ping *pg;
	struct wire_echo e;

	if (in->kind == WIRE_ECHO_REQUEST) {
		d->echo.requests_received++;
		if (!fwd_echo_token(d, now_ms)) {
			d->echo.drop_rate++;
			return;
		}
		memset(&e, 0, sizeof(e));
		e.ttl = FWD_DATA_TTL;
		e.kind = WIRE_ECHO_REPLY;
		e.dst = in->src;
		e.src = d->own_addr;
		e.ident = in->ident;
		e.seqno = in->seqno;
		if (fwd_echo_send(d, &e) == 0)
			d->echo.replies_sent++;
		else
			d->echo.drop_no_route++;
		return;
	}
	pg = &d->ping[in->seqno % FWD_PING_SLOTS];
	if (in->ident != d->ping_ident || pg->state != FWD_PING_SENT ||
	    pg->seqno != in->seqno ||
	    memcmp(pg->dst, in->src, BS_ADDR_LEN) != 0) {
		d->echo.drop_unmatched++;
		return;
	}
	pg->rtt_us = log_now_us() - pg->sent_us;
	pg->state = FWD_PING_REPLIED;
	d->echo.replies_received++;
}

static void
fwd_data_rx_echo(struct fwd_data *d, struct fwd_dcount *c,
    struct fwd_neigh *n, const uint8_t *dst, const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct wire_echo e;

	/* Routed like a UNICAST: to one interface, never to a group. */
	if (wire_echo_parse(p, len, &e) != WIRE_OK || (dst[0] & 0x01)) {
		FWD_DROP(c, n, drop_malformed);
		return;
	}
	/* Ours, back from the mesh: a loop or a forgery that would make
	 * us seem to ping someone.  Never forwarded nor answered. */
	if (memcmp(e.src, d->own_addr, BS_ADDR_LEN) == 0) {
		d->echo.drop_own++;
		return;
	}
	if (memcmp(e.dst, d->own_addr, BS_ADDR_LEN) == 0)
		fwd_echo_for_us(d, &e, now_ms);
	else
		fwd_data_forward(d, c, n, p, e.len, e.ttl, e.dst);
}

void
fwd_data_mesh_rx(struct fwd_data *d, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN],
    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *payload,
    size_t len, uint64_t now_ms)
{
	struct fwd_data_ifc *s = fwd_data_ifc_slot(d, ifindex);
	struct fwd_dcount *c = &s->c;
	struct fwd_neigh *n;

	fwd_count_rx(c, len);
	if ((n = fwd_neigh_find_mac(d->t, src, ifindex)) == NULL) {
		c->drop_not_neigh++;
		return;
	}
	fwd_count_rx(&n->c, len);
	if (len > 0 && payload[0] == WIRE_T_UNICAST)
		fwd_data_rx_unicast(d, s, n, dst, payload, len);
	else if (len > 0 && payload[0] == WIRE_T_BCAST)
		fwd_data_rx_bcast(d, c, n, dst, payload, len, now_ms);
	else if (len > 0 && payload[0] == WIRE_T_ECHO)
		fwd_data_rx_echo(d, c, n, dst, payload, len, now_ms);
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
	fwd_data_init(f->data, f->tables, f->own_addr, &ops);
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
