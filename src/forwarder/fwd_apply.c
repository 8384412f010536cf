/*
 * fwd_apply.c — the parser's vetted routing updates, applied to the
 * tables and the in-kernel relay (fwd_apply.h).  Without tables (a test's
 * forwarder that has none) there is nothing to apply them to.
 */
#include <string.h>

#include "common/log.h"
#include "fwd_announce.h"
#include "fwd_data.h"
#include "fwd_apply.h"
#include "fwd_fast.h"
#include "fwd_iface.h"
#include "fwd_events.h"
#include "fwd_tables.h"
#include "fwd_types.h"

/* The configured name of an interface, for an event. */
static const char *
fwd_apply_ifname(const struct fwd *f, uint32_t ifindex)
{
	const struct fwd_iface *v = fwd_iface_by_index(&f->ifs, ifindex);

	return v != NULL ? v->name : "?";
}

int
fwd_apply_neigh(void *arg, const union ipc_payload *u)
{
	const struct ipc_neigh *n = &u->neigh;
	struct fwd *f = arg;
	const struct fwd_neigh *old;
	uint8_t old_mac[BS_ADDR_LEN] = { 0 }, old_tq = 0;
	uint64_t now_ms = log_now_ms();

	if (f->tables == NULL)
		return 0;
	/* The in-kernel relay cares for a neighbour's coming, going and
	 * MAC, not for its link quality. */
	if ((old = fwd_neigh_find_pk(f->tables, n->pk, n->ifindex)) != NULL) {
		memcpy(old_mac, old->mac, BS_ADDR_LEN);
		old_tq = old->tq;
	}
	/*
	 * Its parser started again: it knows no full OGM entry and holds no
	 * link key, so it is answered as a new neighbour is (our OGMs full
	 * for a while, a signed HELLO at once).  One that does not list us
	 * cannot check our HELLOs' tags: a signed one soon.
	 */
	if (n->state == IPC_NEIGH_UP && (n->flags & IPC_NEIGH_F_FRESH) != 0)
		fwd_announce_burst(f, n->ifindex, 1, now_ms);
	if (n->state == IPC_NEIGH_UP && (n->flags & IPC_NEIGH_F_SIGN) != 0)
		fwd_announce_sign(f, n->ifindex);
	/* Our parser lost originators' chains: neighbours, hand on full
	 * entries (the fresh flag in our HELLOs, as after a restart). */
	if (n->state == IPC_NEIGH_UP && (n->flags & IPC_NEIGH_F_DESC) != 0)
		f->orig.fresh_until_ms = now_ms + FWD_FRESH_OGMS *
		    (uint64_t)f->orig.ogm_ms;
	/* It asked for our own full entry (its parser rate-limits this). */
	if (n->state == IPC_NEIGH_UP && (n->flags & IPC_NEIGH_F_OWN) != 0)
		fwd_ogm_want_full(&f->orig, 1);
	switch (fwd_neigh_update(f->tables, n, now_ms)) {
	case FWD_NEIGH_FULL:
		log_rl(&f->parser.note_rl, LOG_WARNING, "neighbour table full: "
		    "NEIGH UP ignored");
		break;
	case FWD_NEIGH_NEW:
		/* Cold start: answer at once (fwd_burst.h); then the
		 * relay's maps and the "up" event, as for GONE.  One that
		 * comes back (IPC_NEIGH_F_BACK) knows our description and
		 * link key: no full OGMs, no signed HELLOs for it. */
		fwd_announce_burst(f, n->ifindex,
		    (n->flags & IPC_NEIGH_F_BACK) == 0, now_ms);
		/* FALLTHROUGH */
	case FWD_NEIGH_GONE:
		/* Paths change: relays go out without the far wait. */
		fwd_announce_relay_hold(f, now_ms);
		f->fast_dirty = 1;
		fwd_events_note(&f->events, FWD_EV_NEIGH, n->state == IPC_NEIGH_UP ? "up" :
		    "down", n->addr, "interface %s link_tq %u",
		    fwd_apply_ifname(f, n->ifindex), n->tq);
		break;
	case FWD_NEIGH_CHANGED:
		if (old_tq == 0 && n->tq > 0)
			fwd_announce_burst(f, n->ifindex, 0, now_ms);
		old = fwd_neigh_find_pk(f->tables, n->pk, n->ifindex);
		if (old != NULL && memcmp(old->mac, old_mac, BS_ADDR_LEN) != 0)
			f->fast_dirty = 1;
		break;
	default:
		break;
	}
	return 0;
}

int
fwd_apply_route_add(void *arg, const union ipc_payload *u)
{
	const struct ipc_route *rt = &u->route;
	struct fwd *f = arg;
	const struct fwd_route *old;
	const char *ev = NULL;
	int moved;

	if (f->tables == NULL)
		return 0;
	moved = fwd_fast_route_moved(f, rt->orig_addr, rt->nexthop,
	    rt->ifindex);
	/* An event for a new route or a new next hop, not for each TQ. */
	old = fwd_route_find(f->tables, rt->orig_addr);
	if (old == NULL)
		ev = "add";
	else if (memcmp(old->nexthop, rt->nexthop, BS_ADDR_LEN) != 0 ||
	    old->ifindex != rt->ifindex)
		ev = "change";
	if (fwd_route_add(f->tables, rt, log_now_ms()) != 0) {
		log_rl(&f->parser.note_rl, LOG_WARNING, "route table full: "
		    "ROUTE_ADD ignored");
		return 0;
	}
	if (moved)
		fwd_fast_route_changed(f, rt->orig_addr);
	if (ev != NULL)
		fwd_events_note(&f->events, FWD_EV_ROUTE, ev, rt->orig_addr, "via "
		    "%02x:%02x:%02x:%02x:%02x:%02x interface %s tq %u hops %u",
		    rt->nexthop[0], rt->nexthop[1], rt->nexthop[2],
		    rt->nexthop[3], rt->nexthop[4], rt->nexthop[5],
		    fwd_apply_ifname(f, rt->ifindex), rt->tq, rt->hops);
	return 0;
}

int
fwd_apply_route_del(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;

	if (f->tables != NULL &&
	    fwd_route_del(f->tables, u->route_del.orig_addr) != 0) {
		fwd_fast_route_changed(f, u->route_del.orig_addr);
		f->gw_dirty = 1;
		fwd_events_note(&f->events, FWD_EV_ROUTE, "del", u->route_del.orig_addr,
		    "%s", "");
	}
	return 0;
}

/* The other candidates of a route: shown by `batsec-ctl o`, not used. */
int
fwd_apply_route_alt(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;

	if (f->tables != NULL)
		(void)fwd_route_alt(f->tables, &u->route_alt);
	return 0;
}

int
fwd_apply_tt(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;

	if (f->tables != NULL &&
	    fwd_client_set(f->tables, &u->tt, log_now_ms()) < u->tt.count)
		log_rl(&f->parser.note_rl, LOG_WARNING, "client table full: "
		    "part of a TT update ignored");
	fwd_announce_clients(f, log_now_ms());
	return 0;
}

int
fwd_apply_mcast(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;

	if (f->data != NULL)
		fwd_mcast_remote(&f->data->mcast, &u->mcast, log_now_ms());
	return 0;
}

int
fwd_apply_desc_want(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;

	if (fwd_want_add(&f->orig.want, u->desc_want.orig_addr,
	    f->orig.hello_ms, log_now_ms()) != 0)
		f->orig.c.want_full++;
	return 0;
}

int
fwd_apply_hello_sign(void *arg, const union ipc_payload *u)
{
	fwd_announce_sign(arg, u->hello_sign.ifindex);
	return 0;
}

int
fwd_apply_gw(void *arg, const union ipc_payload *u)
{
	const struct ipc_gw *m = &u->gw;
	struct fwd *f = arg;
	const struct fwd_gw *old;
	int was, same;

	if (f->tables == NULL)
		return 0;
	old = fwd_gw_find(f->tables, m->orig_addr);
	was = old != NULL;
	same = was && old->down == m->down && old->up == m->up;
	if (fwd_gw_update(f->tables, m, log_now_ms()) != 0) {
		log_rl(&f->parser.note_rl, LOG_WARNING, "gateway table full: "
		    "GW ignored");
		return 0;
	}
	if (m->op == IPC_GW_ANNOUNCE && !same)
		fwd_events_note(&f->events, FWD_EV_GATEWAY, was ? "change" : "add",
		    m->orig_addr, "down %llu kbit/s up %llu kbit/s",
		    (unsigned long long)m->down * 100,
		    (unsigned long long)m->up * 100);
	else if (m->op != IPC_GW_ANNOUNCE && was) {
		fwd_events_note(&f->events, FWD_EV_GATEWAY, "del", m->orig_addr, "%s", "");
		f->gw_dirty = 1;
	}
	return 0;
}
