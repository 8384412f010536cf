/*
 * pcore_hello.c — neighbours: the HELLO pipeline, the parser's side of
 * each neighbour (what the forwarder was told, the link key, the replay
 * state of its OGM frames), and the messages that table changes cause.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore.h"
#include "pcore_int.h"
#include "pcore_trust.h"
#include "proto/wire.h"

/* ---- the parser's neighbour slots ------------------------------------------- */

/* Slot of neighbour (ifindex, addr), or -1. */
static int
pcore_neigh_index(const struct pcore *pc, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN])
{
	int i;

	if (ifindex == 0)
		return -1;
	for (i = 0; i < PCORE_MAX_NEIGH; i++)
		if (pc->neigh[i].ifindex == ifindex &&
		    memcmp(pc->neigh[i].addr, addr, BS_ADDR_LEN) == 0)
			return i;
	return -1;
}

struct pcore_neigh *
pcore_neigh_get(struct pcore *pc, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN])
{
	int i = pcore_neigh_index(pc, ifindex, addr);

	return i >= 0 ? &pc->neigh[i] : NULL;
}

const struct pcore_neigh *
pcore_neigh_find(const struct pcore *pc, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN])
{
	int i = pcore_neigh_index(pc, ifindex, addr);

	return i >= 0 ? &pc->neigh[i] : NULL;
}

/* A slot for a neighbour routing_hello() just created; NULL when full. */
static struct pcore_neigh *
pcore_neigh_new(struct pcore *pc, const struct routing_neigh_info *ni)
{
	struct pcore_neigh *n;
	size_t i;

	for (i = 0; i < PCORE_MAX_NEIGH; i++) {
		n = &pc->neigh[i];
		if (n->ifindex != 0)
			continue;
		sodium_memzero(n, sizeof(*n));
		n->ifindex = ni->ifindex;
		memcpy(n->pk, ni->pk, BS_PK_LEN);
		memcpy(n->addr, ni->addr, BS_ADDR_LEN);
		return n;
	}
	return NULL;
}

/* ---- messages about neighbours ----------------------------------------------- */

static int
pcore_send_neigh(struct pcore *pc, const struct routing_neigh_info *ni,
    uint8_t state)
{
	struct ipc_neigh m;

	memset(&m, 0, sizeof(m));
	memcpy(m.pk, ni->pk, BS_PK_LEN);
	memcpy(m.addr, ni->addr, BS_ADDR_LEN);
	memcpy(m.mac, ni->mac, BS_ADDR_LEN);
	m.ifindex = ni->ifindex;
	m.state = state;
	if (state == IPC_NEIGH_UP) {
		m.tq = ni->link_tq;
		m.rx_count = ni->rq;
	}
	return pcore_emit(pc, IPC_NEIGH, &m, sizeof(m));
}

/* Ask the forwarder for the link key (it alone holds our secret key). */
static void
pcore_key_request(struct pcore *pc, struct pcore_neigh *n, uint64_t now_ms)
{
	struct ipc_link_key_req q;

	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, n->pk, BS_PK_LEN);
	q.ifindex = n->ifindex;
	if (pcore_emit(pc, IPC_LINK_KEY_REQ, &q, sizeof(q)) != 0)
		return;
	n->key_state = PCORE_KEY_REQUESTED;
	n->key_req_ms = now_ms;
}

static int
pcore_key_due(const struct pcore_neigh *n, uint64_t now_ms)
{
	if (n->key_state == PCORE_KEY_NONE)
		return 1;
	return n->key_state == PCORE_KEY_REQUESTED &&
	    (now_ms < n->key_req_ms ||
	    now_ms - n->key_req_ms >= PCORE_KEY_RETRY_MS);
}

/*
 * After an accepted HELLO: NEIGH UP when something the forwarder shows
 * changed (or it never heard of the neighbour), then LINK_KEY_REQ, which
 * the forwarder accepts only for an up neighbour.
 */
static void
pcore_neigh_tell(struct pcore *pc, const struct routing_hello_result *res,
    const struct routing_neigh_info *ni, uint64_t now_ms)
{
	struct pcore_neigh *n = pcore_neigh_get(pc, ni->ifindex, ni->addr);

	if (n == NULL && res->neigh_new)
		n = pcore_neigh_new(pc, ni);
	if (n == NULL) {
		pcore_logf(pc, IPC_LOG_ERR, "neighbour slots out of step with "
		    "the routing table");
		return;
	}
	if ((res->changed || !n->announced) &&
	    pcore_send_neigh(pc, ni, IPC_NEIGH_UP) == 0)
		n->announced = 1;
	if (n->announced && pcore_key_due(n, now_ms))
		pcore_key_request(pc, n, now_ms);
}

int
pcore_link_key(struct pcore *pc, const struct ipc_link_key *k, char *err,
    size_t errlen)
{
	uint8_t addr[BS_ADDR_LEN], id[BS_KEYID_LEN];
	struct pcore_neigh *n;

	bs_mesh_addr(addr, k->peer_pk);
	n = pcore_neigh_get(pc, k->ifindex, addr);
	if (n == NULL || memcmp(n->pk, k->peer_pk, BS_PK_LEN) != 0)
		return 0;	/* gone meanwhile */
	if (k->status != IPC_LINK_KEY_OK) {
		n->key_state = PCORE_KEY_REFUSED;
		return 0;
	}
	bs_link_keyid(id, k->key);
	if (sodium_memcmp(id, k->key_id, BS_KEYID_LEN) != 0) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "LINK_KEY: key id does not "
			    "match the key");
		return -1;
	}
	memcpy(n->key, k->key, BS_LINKKEY_LEN);
	memcpy(n->key_id, id, BS_KEYID_LEN);
	n->key_state = PCORE_KEY_OK;
	return 0;
}

/* ---- routing events ---------------------------------------------------------- */

void
pcore_route_add(struct pcore *pc, const struct routing_orig_info *oi)
{
	const struct pcore_neigh *n;
	struct ipc_route m;

	if (!oi->has_route)
		return;
	/* The forwarder refuses a next hop it was not told is up. */
	n = pcore_neigh_get(pc, oi->ifindex, oi->nexthop);
	if (n == NULL || !n->announced)
		return;
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_pk, oi->pk, BS_PK_LEN);
	memcpy(m.orig_addr, oi->addr, BS_ADDR_LEN);
	memcpy(m.nexthop, oi->nexthop, BS_ADDR_LEN);
	m.ifindex = oi->ifindex;
	m.tq = oi->tq;
	m.hops = oi->hops;
	m.epoch = oi->epoch;
	pcore_emit(pc, IPC_ROUTE_ADD, &m, sizeof(m));
}

void
pcore_route_del(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	struct ipc_route_del m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr, BS_ADDR_LEN);
	pcore_emit(pc, IPC_ROUTE_DEL, &m, sizeof(m));
}

void
pcore_orig_gone(struct pcore *pc, const struct routing_orig_info *oi)
{
	struct pcore_aux a;
	struct ipc_tt tt;
	struct ipc_gw gw;

	memcpy(&a, oi->aux, sizeof(a));
	if (a.tt_count > 0) {
		memset(&tt, 0, sizeof(tt));
		memcpy(tt.orig_addr, oi->addr, BS_ADDR_LEN);
		pcore_emit(pc, IPC_TT, &tt, sizeof(tt));
	}
	if (a.gw) {
		memset(&gw, 0, sizeof(gw));
		memcpy(gw.orig_addr, oi->addr, BS_ADDR_LEN);
		gw.op = IPC_GW_WITHDRAW;
		pcore_emit(pc, IPC_GW, &gw, sizeof(gw));
	}
	if (oi->cls == BS_CLASS_STRANGER && pc->n_strangers > 0)
		pc->n_strangers--;
	pcore_lim_orig_gone(pc, oi);
}

/* A neighbour left the routing table: tell the forwarder, wipe its key. */
static void
pcore_neigh_gone(struct pcore *pc, const struct routing_neigh_info *ni)
{
	struct pcore_neigh *n = pcore_neigh_get(pc, ni->ifindex, ni->addr);

	if (n != NULL && n->announced)
		pcore_send_neigh(pc, ni, IPC_NEIGH_DOWN);
	pcore_lim_neigh_gone(pc, ni);
	if (n != NULL)
		sodium_memzero(n, sizeof(*n));
}

void
pcore_event(void *arg, const struct routing_event *ev)
{
	struct pcore *pc = arg;

	switch (ev->type) {
	case ROUTING_EV_ROUTE:
		if (ev->route == ROUTING_ROUTE_DELETED)
			pcore_route_del(pc, ev->info.addr);
		else
			pcore_route_add(pc, &ev->info);
		break;
	case ROUTING_EV_ORIG_DEL:
		pcore_orig_gone(pc, &ev->info);
		break;
	case ROUTING_EV_NEIGH_DOWN:
		pcore_neigh_gone(pc, &ev->neigh);
		break;
	}
}

/* ---- the HELLO pipeline -------------------------------------------------------- */

/* How many of our HELLOs the sender heard (0 when we are not listed). */
static uint8_t
pcore_hello_echo(const struct pcore *pc, const struct wire_hello *h)
{
	unsigned i;

	for (i = 0; i < h->num_neigh; i++)
		if (memcmp(h->neigh[i].addr, pc->cfg.own_addr,
		    BS_ADDR_LEN) == 0)
			return h->neigh[i].rx_count;
	return 0;
}

/* A HELLO of a known neighbour that is not newer: refused before the
 * signature is looked at. */
static int
pcore_hello_replayed(const struct pcore *pc, uint32_t ifindex,
    const struct wire_hello *h, const uint8_t addr[static BS_ADDR_LEN])
{
	struct routing_neigh_info ni;

	if (routing_neigh_get(pc->rt, ifindex, addr, &ni) != ROUTING_OK ||
	    memcmp(ni.pk, h->pk, BS_PK_LEN) != 0)
		return 0;
	return !pcore_newer(h->epoch, h->seqno, ni.epoch, ni.seqno);
}

/*
 * An epoch is the node's, not the interface's: a HELLO from an epoch
 * older than the newest one seen in the key's OGMs is a replay (captured
 * before a restart), also on an interface where the key is no neighbour.
 */
static int
pcore_hello_old_epoch(const struct pcore *pc, const struct wire_hello *h)
{
	struct routing_orig_info oi;

	return routing_orig_get(pc->rt, h->pk, &oi) == ROUTING_OK &&
	    h->epoch < oi.epoch;
}

static enum pcore_drop
pcore_hello_refused(int r)
{
	switch (r) {
	case ROUTING_EOLD:
	case ROUTING_EEPOCH:
		return PCORE_DROP_REPLAY;
	case ROUTING_EFULL:
		return PCORE_DROP_TABLE_FULL;
	case ROUTING_EOWN:
		return PCORE_DROP_OWN;
	default:
		return PCORE_DROP_ROUTING;
	}
}

/*
 * After the HELLO's signature: a certificate that admits the key is
 * verified and kept (pcore_trust.h), a renewed one is offered, and a
 * stranger's address is pinned (mode open).
 */
static enum pcore_drop
pcore_hello_trust(struct pcore *pc, const struct wire_hello *h, uint8_t cls,
    const struct pcore_cert_cand *cand)
{
	if (cand != NULL)
		return pcore_trust_accept(pc, cand) == 0 ? PCORE_ACCEPT :
		    PCORE_DROP_POLICY;
	if (cls != BS_CLASS_TRUSTED && h->cert != NULL)
		pcore_trust_offer(pc, h->pk, h->cert);
	if (cls == BS_CLASS_STRANGER)
		pcore_trust_pin(pc, h->pk);
	return PCORE_ACCEPT;
}

/* The checks before routing_hello; PCORE_ACCEPT when it may go in. */
static enum pcore_drop
pcore_hello_check(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const struct wire_hello *h,
    const uint8_t addr[static BS_ADDR_LEN], uint64_t now_ms)
{
	struct pcore_cert_cand cand, *newcert = NULL;
	uint8_t cls;
	int known;

	if (memcmp(h->ifmac, src, BS_ADDR_LEN) != 0)
		return PCORE_DROP_HELLO_MAC;
	if (memcmp(h->pk, pc->cfg.own_pk, BS_PK_LEN) == 0)
		return PCORE_DROP_OWN;
	if (!pcore_key_admitted(pc, h->pk, &cls)) {
		/* Its certificate may admit it: checked in full only
		 * after the HELLO's own signature. */
		if (!pcore_trust_precheck(pc, h->pk, h->cert, &cand))
			return PCORE_DROP_POLICY;
		cls = BS_CLASS_CERTIFIED;
		newcert = &cand;
	}
	if (pcore_hello_replayed(pc, ifindex, h, addr) ||
	    pcore_hello_old_epoch(pc, h))
		return PCORE_DROP_REPLAY;
	known = pcore_neigh_get(pc, ifindex, addr) != NULL;
	if (!known &&
	    pcore_lim_hello_stale(pc, ifindex, h->pk, h->epoch, h->seqno)) {
		pcore_count(pc, IPC_STAT_DROP_REMEMBERED);
		return PCORE_DROP_REPLAY;
	}
	if (pcore_lim_hello_budget(pc, ifindex, src, known, now_ms) != 0)
		return PCORE_DROP_BUDGET;
	if (pcore_verify(pc, h->sig, BS_DOM_HELLO, h->signed_ptr,
	    h->signed_len, h->pk) != 0)
		return PCORE_DROP_SIG;
	return pcore_hello_trust(pc, h, cls, newcert);
}

enum pcore_drop
pcore_hello(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct routing_hello_result res;
	struct routing_neigh_info ni;
	struct routing_hello rh;
	struct wire_hello h;
	uint8_t addr[BS_ADDR_LEN];
	enum pcore_drop why;
	int r;

	if ((r = wire_hello_parse(p, len, &h)) != WIRE_OK)
		return pcore_malformed(pc, r, &h.where, ifindex, src, now_ms);
	bs_mesh_addr(addr, h.pk);
	if ((why = pcore_hello_check(pc, ifindex, src, &h, addr, now_ms)) !=
	    PCORE_ACCEPT)
		return pcore_drop(pc, why, ifindex, src, NULL, 0, now_ms);
	memset(&rh, 0, sizeof(rh));
	rh.ifindex = ifindex;
	rh.pk = h.pk;
	rh.addr = addr;
	rh.mac = h.ifmac;
	rh.epoch = h.epoch;
	rh.seqno = h.seqno;
	rh.echo = pcore_hello_echo(pc, &h);
	if ((r = routing_hello(pc->rt, &rh, now_ms, &res)) != ROUTING_OK)
		return pcore_drop(pc, pcore_hello_refused(r), ifindex, src,
		    NULL, 0, now_ms);
	pcore_count(pc, IPC_STAT_RX_HELLO);
	pcore_lim_authentic(pc, ifindex, src, now_ms);
	if (routing_neigh_get(pc->rt, ifindex, addr, &ni) == ROUTING_OK)
		pcore_neigh_tell(pc, &res, &ni, now_ms);
	return PCORE_ACCEPT;
}
