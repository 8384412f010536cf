/*
 * routing.c — the routing core's top: status names, parameters, the
 * tables' life cycle, and the removal entry points that tie neighbours
 * (neigh.c) and originators (orig.c) together.  See routing.h for the
 * model.
 *
 * The floors of src/routing, each including only what is below it:
 *	routing.c	this file (routing.h: the public API)
 *	orig.c		originators and their next-hop candidates
 *	neigh.c		neighbours, HELLO windows, link TQ
 *	rt_base.c	hashing, buckets, elapsed time
 *	seqno.c, tq.c	the (epoch, seqno) order; TQ arithmetic
 *	routing_int.h	the tables' layout (types only)
 *	routing_types.h	limits, status codes, records (types only)
 */
#include <stdlib.h>
#include <string.h>

#include "neigh.h"
#include "orig.h"
#include "routing.h"
#include "routing_int.h"
#include "rt_base.h"

_Static_assert(sizeof(struct rt_cand) == 32, "rt_cand size");
_Static_assert(sizeof(struct rt_orig) <= 1024, "rt_orig over 1 KiB");
_Static_assert(ROUTING_NEIGH_CAP_MAX <= UINT16_MAX, "rt_cand.neigh is u16");
_Static_assert(ROUTING_ORIG_ROUTERS < RT_NO_ROUTER, "router index");

static const char *const routing_errs[ROUTING_NERR] = {
	"ok",
	"invalid argument",
	"own key or address",
	"not newer than the last accepted",
	"older epoch",
	"duplicate from the same neighbour",
	"table full",
	"out of memory",
	"address belongs to another key",
	"sender is not a neighbour on that interface",
	"link to the sender is not bidirectional",
	"TQ is zero",
	"previous sender is this node",
	"relayed by a sibling of the best next hop",
	"hop count inconsistent with the sender",
	"no such entry",
};

const char *
routing_strerror(int status)
{
	if (status > 0 || status <= -ROUTING_NERR)
		return "?";
	return routing_errs[-status];
}

/* ---- parameters --------------------------------------------------------- */

void
routing_params_default(struct routing_params *p)
{
	memset(p, 0, sizeof(*p));
	p->orig_cap = ROUTING_ORIG_CAP;
	p->neigh_cap = ROUTING_NEIGH_CAP;
	p->neigh_iface_cap = ROUTING_NEIGH_IFACE_CAP;
	p->neigh_timeout_ms = ROUTING_NEIGH_TIMEOUT;
	p->orig_timeout_ms = ROUTING_ORIG_TIMEOUT;
	p->hop_penalty = ROUTING_HOP_PENALTY;
}

static int
routing_in(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v >= lo && v <= hi;
}

int
routing_params_check(const struct routing_params *p)
{
	if (p == NULL ||
	    !routing_in(p->orig_cap, 1, ROUTING_ORIG_CAP_MAX) ||
	    !routing_in(p->neigh_cap, 1, ROUTING_NEIGH_CAP_MAX) ||
	    !routing_in(p->neigh_iface_cap, 1, ROUTING_NEIGH_IFACE_CAP) ||
	    !routing_in(p->neigh_timeout_ms, 1, ROUTING_TIMEOUT_MAX) ||
	    !routing_in(p->orig_timeout_ms, 1, ROUTING_TIMEOUT_MAX))
		return ROUTING_EINVAL;
	return ROUTING_OK;
}

/* ---- lifecycle ---------------------------------------------------------- */

struct routing *
routing_new(const struct routing_params *p,
    const uint8_t own_pk[static BS_PK_LEN],
    const uint8_t own_addr[static BS_ADDR_LEN],
    const uint8_t hash_key[static ROUTING_HASH_KEY_LEN])
{
	struct routing *rt;
	uint32_t nb, ob;

	if (routing_params_check(p) != ROUTING_OK ||
	    (rt = calloc(1, sizeof(*rt))) == NULL)
		return NULL;
	rt->p = *p;
	memcpy(rt->own_pk, own_pk, BS_PK_LEN);
	memcpy(rt->own_addr, own_addr, BS_ADDR_LEN);
	memcpy(rt->hkey, hash_key, ROUTING_HASH_KEY_LEN);
	nb = rt_buckets_for(p->neigh_cap);
	ob = rt_buckets_for(p->orig_cap);
	rt->neigh = calloc(p->neigh_cap, sizeof(*rt->neigh));
	rt->neigh_bkt_pk = rt_buckets_new(nb);
	rt->neigh_bkt_addr = rt_buckets_new(nb);
	rt->orig_bkt_pk = rt_buckets_new(ob);
	rt->orig_bkt_addr = rt_buckets_new(ob);
	rt->neigh_mask = nb - 1;
	rt->orig_mask = ob - 1;
	rt->neigh_free = RT_NIL;
	rt->orig_free = RT_NIL;
	rt->orig_hint_slot = RT_NIL;
	rt->orig_hint = &rt->orig_hint_slot;
	if (rt->neigh == NULL || rt->neigh_bkt_pk == NULL ||
	    rt->neigh_bkt_addr == NULL || rt->orig_bkt_pk == NULL ||
	    rt->orig_bkt_addr == NULL) {
		routing_free(rt);
		return NULL;
	}
	return rt;
}

void
routing_free(struct routing *rt)
{
	if (rt == NULL)
		return;
	free(rt->neigh);
	free(rt->neigh_bkt_pk);
	free(rt->neigh_bkt_addr);
	free(rt->orig);
	free(rt->orig_bkt_pk);
	free(rt->orig_bkt_addr);
	free(rt);
}

const struct routing_params *
routing_get_params(const struct routing *rt)
{
	return &rt->p;
}

int
routing_set_params(struct routing *rt, const struct routing_params *p)
{
	int r;

	if (routing_params_check(p) != ROUTING_OK ||
	    p->neigh_cap != rt->p.neigh_cap ||
	    p->neigh_iface_cap != rt->p.neigh_iface_cap)
		return ROUTING_EINVAL;
	if (p->orig_cap < rt->orig_count)
		return ROUTING_EFULL;
	if ((r = rt_orig_rehash(rt, p->orig_cap)) != ROUTING_OK)
		return r;
	rt->p = *p;
	return ROUTING_OK;
}

/* ---- removal ------------------------------------------------------------ */

static void
routing_res_init(struct routing_purge_result *res)
{
	if (res != NULL)
		memset(res, 0, sizeof(*res));
}

void
routing_purge(struct routing *rt, uint64_t now_ms, routing_event_fn cb,
    void *arg, struct routing_purge_result *res)
{
	routing_res_init(res);
	rt_neigh_mark(rt, RT_MARK_EXPIRED, now_ms, 0, NULL);
	rt_orig_sweep(rt, 1, now_ms, cb, arg, res);
	rt_neigh_reap(rt, cb, arg, res);
}

void
routing_iface_flush(struct routing *rt, uint32_t ifindex, routing_event_fn cb,
    void *arg, struct routing_purge_result *res)
{
	routing_res_init(res);
	if (ifindex == 0 || rt_neigh_mark(rt, RT_MARK_IFACE, 0, ifindex,
	    NULL) == 0)
		return;
	rt_orig_sweep(rt, 0, 0, cb, arg, res);
	rt_neigh_reap(rt, cb, arg, res);
}

int
routing_remove_key(struct routing *rt, const uint8_t pk[static BS_PK_LEN],
    routing_event_fn cb, void *arg, struct routing_purge_result *res)
{
	int found;

	routing_res_init(res);
	found = rt_orig_remove_pk(rt, pk, cb, arg, res) == ROUTING_OK;
	if (rt_neigh_mark(rt, RT_MARK_KEY, 0, 0, pk) > 0) {
		found = 1;
		rt_orig_sweep(rt, 0, 0, cb, arg, res);
		rt_neigh_reap(rt, cb, arg, res);
	}
	return found ? ROUTING_OK : ROUTING_ENOENT;
}

int
routing_neigh_remove(struct routing *rt, uint32_t ifindex,
    const uint8_t pk[static BS_PK_LEN], routing_event_fn cb, void *arg,
    struct routing_purge_result *res)
{
	routing_res_init(res);
	if (ifindex == 0 || rt_neigh_mark(rt, RT_MARK_ONE, 0, ifindex, pk) == 0)
		return ROUTING_ENOENT;
	rt_orig_sweep(rt, 0, 0, cb, arg, res);
	rt_neigh_reap(rt, cb, arg, res);
	return ROUTING_OK;
}
