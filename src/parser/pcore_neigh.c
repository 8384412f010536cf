/*
 * pcore_neigh.c — the neighbour store and what table changes tell the
 * forwarder: the parser's side of each neighbour (what the forwarder was
 * told, the link key, the replay state of its OGM frames), NEIGH UP and
 * DOWN, LINK_KEY_REQ, ROUTE_ADD and ROUTE_DEL, and the handler of the
 * routing core's removal events (pcore_neigh.h).
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_desc.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_neigh.h"
#include "pcore_ttpage.h"
#include "proto/wire.h"
#include "routing/routing.h"

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
pcore_send_neigh_f(struct pcore *pc, const struct routing_neigh_info *ni,
    const uint8_t *salt, uint8_t state, uint8_t flags)
{
	struct ipc_neigh m;

	memset(&m, 0, sizeof(m));
	memcpy(m.pk, ni->pk, BS_PK_LEN);
	memcpy(m.addr, ni->addr, BS_ADDR_LEN);
	memcpy(m.mac, ni->mac, BS_ADDR_LEN);
	m.ifindex = ni->ifindex;
	m.state = state;
	m.epoch = ni->epoch;
	if (state == IPC_NEIGH_UP) {
		m.tq = ni->link_tq;
		m.rx_count = ni->rq_report;
		m.flags = flags;
		memcpy(m.salt, salt, BS_LINKSALT_LEN);
	}
	return pcore_emit(pc, IPC_NEIGH, &m, sizeof(m));
}

static int
pcore_send_neigh(struct pcore *pc, const struct routing_neigh_info *ni,
    const uint8_t *salt, uint8_t state)
{
	return pcore_send_neigh_f(pc, ni, salt, state, 0);
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

/* LINK_KEY_REQ for a neighbour whose key we hold: it stays in use. */
static void
pcore_key_ask(struct pcore *pc, const struct pcore_neigh *n)
{
	struct ipc_link_key_req q;

	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, n->pk, BS_PK_LEN);
	q.ifindex = n->ifindex;
	(void)pcore_emit(pc, IPC_LINK_KEY_REQ, &q, sizeof(q));
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
void
pcore_neigh_tell(struct pcore *pc, const struct routing_hello_result *res,
    const struct routing_neigh_info *ni,
    const uint8_t salt[static BS_LINKSALT_LEN], int back, uint64_t now_ms)
{
	struct pcore_neigh *n = pcore_neigh_get(pc, ni->ifindex, ni->addr);
	int rekey;

	if (n == NULL && res->neigh_new)
		n = pcore_neigh_new(pc, ni);
	if (n == NULL) {
		pcore_logf(pc, IPC_LOG_ERR, "neighbour slots out of step with "
		    "the routing table");
		return;
	}
	/* A new epoch or salt of the neighbour's: a new link key. */
	rekey = n->announced && (n->epoch != ni->epoch ||
	    memcmp(n->salt, salt, BS_LINKSALT_LEN) != 0);
	if ((res->changed || !n->announced || rekey) &&
	    pcore_send_neigh_f(pc, ni, salt, IPC_NEIGH_UP,
	    back && !n->announced ? IPC_NEIGH_F_BACK : 0) == 0) {
		n->announced = 1;
		n->epoch = ni->epoch;
		memcpy(n->salt, salt, BS_LINKSALT_LEN);
		/*
		 * Ask again at once, even with a request out (its answer may
		 * be for the old salt).  A key we hold stays in use until
		 * the new one comes.
		 */
		if (rekey && n->key_state == PCORE_KEY_OK)
			pcore_key_ask(pc, n);
		else if (rekey)
			n->key_state = PCORE_KEY_NONE;
	}
	if (n->announced && pcore_key_due(n, now_ms))
		pcore_key_request(pc, n, now_ms);
}

void
pcore_neigh_ask(struct pcore *pc, const struct routing_neigh_info *ni,
    const uint8_t salt[static BS_LINKSALT_LEN], uint8_t flags)
{
	struct pcore_neigh *n = pcore_neigh_get(pc, ni->ifindex, ni->addr);

	if (n != NULL && n->announced && flags != 0)
		(void)pcore_send_neigh_f(pc, ni, salt, IPC_NEIGH_UP, flags);
}

void
pcore_neigh_want_desc(struct pcore *pc, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN], uint64_t now_ms)
{
	uint64_t gap = (uint64_t)PCORE_DESC_WANT_OGMS *
	    (pc->cfg.ogm_ms > 0 ? pc->cfg.ogm_ms : 1000);
	const struct pcore_neigh *n = pcore_neigh_find(pc, ifindex, addr);
	struct routing_neigh_info ni;

	if (pc->desc_wanted_ms != 0 && now_ms < pc->desc_wanted_ms + gap)
		return;
	if (n == NULL || routing_neigh_get(pc->rt, ifindex, addr, &ni) !=
	    ROUTING_OK)
		return;
	pc->desc_wanted_ms = now_ms;
	pcore_neigh_ask(pc, &ni, n->salt, IPC_NEIGH_F_DESC);
	pcore_count(pc, IPC_STAT_DESC_WANTED);
}

int
pcore_neigh_tag_ok(struct pcore_neigh *n, const struct wire_trailer *t,
    const uint8_t sender[static BS_ADDR_LEN])
{
	int i;

	if ((i = wire_trailer_find(t, n->key_id)) >= 0) {
		if (PCORE_FUZZ_BYPASS(t->tags[i].tag) ||
		    bs_link_mac_verify(t->tags[i].tag, n->key, sender,
		    t->counter, t->covered, t->covered_len) == 0) {
			/* The neighbour uses the new key: the old one goes. */
			pcore_neigh_prev_drop(n);
			return 0;
		}
		return -1;
	}
	if (!n->has_prev || (i = wire_trailer_find(t, n->prev_key_id)) < 0)
		return -1;
	if (PCORE_FUZZ_BYPASS(t->tags[i].tag))
		return 0;
	return bs_link_mac_verify(t->tags[i].tag, n->prev_key, sender,
	    t->counter, t->covered, t->covered_len);
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
	/* A new key: the one it replaces stays good for the overlap. */
	if (n->key_state == PCORE_KEY_OK &&
	    sodium_memcmp(n->key_id, id, BS_KEYID_LEN) != 0) {
		memcpy(n->prev_key, n->key, BS_LINKKEY_LEN);
		memcpy(n->prev_key_id, n->key_id, BS_KEYID_LEN);
		n->has_prev = 1;
	}
	memcpy(n->key, k->key, BS_LINKKEY_LEN);
	memcpy(n->key_id, id, BS_KEYID_LEN);
	n->key_state = PCORE_KEY_OK;
	return 0;
}

void
pcore_neigh_prev_drop(struct pcore_neigh *n)
{
	if (!n->has_prev)
		return;
	sodium_memzero(n->prev_key, sizeof(n->prev_key));
	memset(n->prev_key_id, 0, sizeof(n->prev_key_id));
	n->has_prev = 0;
}

/* ---- routing events ---------------------------------------------------------- */

/*
 * The originator's next-hop candidates besides the best one, whose
 * neighbours the forwarder was told are up: IPC_ROUTE_ALT.
 */
static void
pcore_route_alt(struct pcore *pc, const struct routing_orig_info *oi)
{
	struct routing_router_info ri[ROUTING_ORIG_ROUTERS];
	const struct pcore_neigh *n;
	struct ipc_route_alt m;
	int i, k;

	k = routing_orig_routers(pc->rt, oi->pk, ri, ROUTING_ORIG_ROUTERS);
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, oi->addr, BS_ADDR_LEN);
	for (i = 0; i < k && m.count < IPC_ROUTE_ALT_MAX; i++) {
		n = pcore_neigh_get(pc, ri[i].ifindex, ri[i].addr);
		if (ri[i].best || n == NULL || !n->announced ||
		    ri[i].hops < 1 || ri[i].hops > IPC_ROUTE_MAX_HOPS)
			continue;
		memcpy(m.c[m.count].nexthop, ri[i].addr, BS_ADDR_LEN);
		m.c[m.count].tq = ri[i].tq_avg;
		m.c[m.count].hops = ri[i].hops;
		m.c[m.count].ifindex = ri[i].ifindex;
		m.count++;
	}
	pcore_emit(pc, IPC_ROUTE_ALT, &m, sizeof(m));
}

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
	if (pcore_emit(pc, IPC_ROUTE_ADD, &m, sizeof(m)) == 0)
		pcore_route_alt(pc, oi);
}

void
pcore_route_del(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	struct ipc_route_del m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr, BS_ADDR_LEN);
	pcore_emit(pc, IPC_ROUTE_DEL, &m, sizeof(m));
}

/* An originator left the routing table: clear its TT and GW upstairs. */
static void
pcore_orig_gone(struct pcore *pc, const struct routing_orig_info *oi)
{
	struct pcore_aux a;
	struct ipc_tt tt;
	struct ipc_gw gw;

	memcpy(&a, oi->aux, sizeof(a));
	if (a.tt_count == PCORE_TT_PAGED)
		pcore_ttpage_forget(pc, oi->addr);
	pcore_desc_forget(pc, oi->addr);
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

/* The kept link key of pk (address addr) on ifindex, or NULL. */
static struct pcore_lost_key *
pcore_lost_find(struct pcore *pc, uint32_t ifindex,
    const uint8_t pk[static BS_PK_LEN], const uint8_t addr[static BS_ADDR_LEN])
{
	size_t k;

	for (k = 0; k < PCORE_LOST_KEYS; k++)
		if (pc->lost[k].ifindex == ifindex &&
		    memcmp(pc->lost[k].addr, addr, BS_ADDR_LEN) == 0 &&
		    memcmp(pc->lost[k].pk, pk, BS_PK_LEN) == 0)
			return &pc->lost[k];
	return NULL;
}

/* Keep the link key of neighbour n, which leaves (pcore_lost_key): one
 * record per neighbour, its latest key. */
static void
pcore_lost_keep(struct pcore *pc, const struct pcore_neigh *n)
{
	struct pcore_lost_key *l;

	if (n->key_state != PCORE_KEY_OK)
		return;
	if ((l = pcore_lost_find(pc, n->ifindex, n->pk, n->addr)) == NULL)
		l = &pc->lost[pc->lost_next++ % PCORE_LOST_KEYS];
	sodium_memzero(l, sizeof(*l));
	l->ifindex = n->ifindex;
	memcpy(l->addr, n->addr, BS_ADDR_LEN);
	memcpy(l->pk, n->pk, BS_PK_LEN);
	memcpy(l->key, n->key, BS_LINKKEY_LEN);
	memcpy(l->key_id, n->key_id, BS_KEYID_LEN);
	l->epoch = n->epoch;
}

int
pcore_neigh_was_lost(struct pcore *pc, uint32_t ifindex,
    const uint8_t pk[static BS_PK_LEN], const uint8_t addr[static BS_ADDR_LEN],
    uint32_t epoch)
{
	const struct pcore_lost_key *l = pcore_lost_find(pc, ifindex, pk, addr);

	return l != NULL && l->epoch == epoch;
}

int
pcore_neigh_lost_tag_ok(struct pcore *pc, uint32_t ifindex,
    const uint8_t pk[static BS_PK_LEN], const struct wire_trailer *t,
    const uint8_t sender[static BS_ADDR_LEN])
{
	struct pcore_lost_key *l = pcore_lost_find(pc, ifindex, pk, sender);
	int i;

	if (l == NULL || (i = wire_trailer_find(t, l->key_id)) < 0)
		return 1;
	if (!PCORE_FUZZ_BYPASS(t->tags[i].tag) &&
	    bs_link_mac_verify(t->tags[i].tag, l->key, sender, t->counter,
	    t->covered, t->covered_len) != 0)
		return -1;
	/* Back: it gets a slot and asks for its key again. */
	sodium_memzero(l, sizeof(*l));
	return 0;
}

/* A neighbour left the routing table: tell the forwarder, wipe its key
 * (kept a while as a lost key). */
static void
pcore_neigh_gone(struct pcore *pc, const struct routing_neigh_info *ni)
{
	struct pcore_neigh *n = pcore_neigh_get(pc, ni->ifindex, ni->addr);

	if (n != NULL && n->announced)
		pcore_send_neigh(pc, ni, NULL, IPC_NEIGH_DOWN);
	/* The slot's next tenant inherits none of the strangers this one
	 * introduced (pcore_aux.intro_gen). */
	if (n != NULL)
		pc->neigh_gen[n - pc->neigh]++;
	pcore_lim_neigh_gone(pc, ni);
	if (n != NULL) {
		pcore_lost_keep(pc, n);
		sodium_memzero(n, sizeof(*n));
	}
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
