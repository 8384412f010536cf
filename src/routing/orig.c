/*
 * orig.c — the originator table: OGM processing (seqno windows, duplicate
 * status, TQ rings, best-next-hop election, relay decision), queries, and
 * the sweep that removes stale candidates and originators.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "neigh.h"
#include "orig.h"
#include "routing_int.h"
#include "rt_base.h"
#include "seqno.h"
#include "tq.h"

/* ---- lookup ------------------------------------------------------------- */

static uint32_t
orig_bucket_pk(const struct routing *rt, const uint8_t *pk)
{
	return rt_hash(rt, 0, pk, BS_PK_LEN) & rt->orig_mask;
}

static uint32_t
orig_bucket_addr(const struct routing *rt, const uint8_t *addr)
{
	return rt_hash(rt, 0, addr, BS_ADDR_LEN) & rt->orig_mask;
}

/* The hinted slot, when it is in use and holds this key (at off, len). */
static int
orig_hinted(const struct routing *rt, uint32_t i, size_t off,
    const uint8_t *key, size_t len)
{
	return i < rt->orig_top && rt->orig[i].used &&
	    memcmp((const uint8_t *)&rt->orig[i] + off, key, len) == 0;
}

static uint32_t
orig_lookup_pk(const struct routing *rt, const uint8_t *pk)
{
	uint32_t i = *rt->orig_hint;

	if (orig_hinted(rt, i, offsetof(struct rt_orig, pk), pk, BS_PK_LEN))
		return i;
	for (i = rt->orig_bkt_pk[orig_bucket_pk(rt, pk)]; i != RT_NIL;
	    i = rt->orig[i].next_pk)
		if (memcmp(rt->orig[i].pk, pk, BS_PK_LEN) == 0)
			return *rt->orig_hint = i;
	return RT_NIL;
}

static uint32_t
orig_lookup_addr(const struct routing *rt, const uint8_t *addr)
{
	uint32_t i = *rt->orig_hint;

	if (orig_hinted(rt, i, offsetof(struct rt_orig, addr), addr,
	    BS_ADDR_LEN))
		return i;
	for (i = rt->orig_bkt_addr[orig_bucket_addr(rt, addr)]; i != RT_NIL;
	    i = rt->orig[i].next_addr)
		if (memcmp(rt->orig[i].addr, addr, BS_ADDR_LEN) == 0)
			return *rt->orig_hint = i;
	return RT_NIL;
}

/* ---- candidates and routes ---------------------------------------------- */

static const struct rt_cand *
orig_router(const struct rt_orig *o)
{
	if (o->router == RT_NO_ROUTER || o->cand[o->router].tq_avg == 0)
		return NULL;
	return &o->cand[o->router];
}

static int
orig_cand_find(const struct rt_orig *o, uint32_t neigh)
{
	int i;

	for (i = 0; i < o->n_cand; i++)
		if (o->cand[i].neigh == neigh)
			return i;
	return -1;
}

/* batman's ring average: the mean of the non-zero slots. */
static void
cand_push(struct rt_cand *c, uint8_t tq)
{
	unsigned i, n = 0, sum = 0;

	c->ring[c->ring_pos] = tq;
	c->ring_pos = (uint8_t)((c->ring_pos + 1) % ROUTING_TQ_RING);
	for (i = 0; i < ROUTING_TQ_RING; i++) {
		if (c->ring[i] != 0) {
			n++;
			sum += c->ring[i];
		}
	}
	c->tq_avg = (uint8_t)(n != 0 ? sum / n : 0);
}

/* How many of the originator's last ROUTING_TQ_RING seqnos c delivered. */
static unsigned
cand_recent(const struct rt_cand *c)
{
	return (unsigned)__builtin_popcountll(c->bits &
	    ((UINT64_C(1) << ROUTING_TQ_RING) - 1));
}

/*
 * Is candidate a a better next hop than b: higher average, then more of
 * the last seqnos delivered, then higher echo?
 */
static int
cand_better(const struct routing *rt, const struct rt_cand *a,
    const struct rt_cand *b)
{
	if (a->tq_avg != b->tq_avg)
		return a->tq_avg > b->tq_avg;
	/*
	 * Equal averages (batman's mean leaves the zeros out, so a router
	 * that stopped delivering keeps its average until its whole ring
	 * is 0): the one that delivered more of the last ROUTING_TQ_RING
	 * sequence numbers, first copy or not, is the live one.
	 */
	if (cand_recent(a) != cand_recent(b))
		return cand_recent(a) > cand_recent(b);
	return rt->neigh[a->neigh].echo > rt->neigh[b->neigh].echo;
}

/* Elect the candidate with the best non-zero average (first on ties). */
static void
orig_elect(const struct routing *rt, struct rt_orig *o)
{
	int i, best = -1;

	for (i = 0; i < o->n_cand; i++)
		if (o->cand[i].tq_avg != 0 && (best < 0 ||
		    cand_better(rt, &o->cand[i], &o->cand[best])))
			best = i;
	o->router = best < 0 ? RT_NO_ROUTER : (uint8_t)best;
}

/*
 * A slot for a new candidate: a free one, or the one with the lowest
 * average below tq that is not the router.  -1 when none qualifies.
 */
static int
orig_cand_add(struct rt_orig *o, uint32_t neigh, uint8_t tq, uint64_t now_ms)
{
	struct rt_cand *c;
	int i, v = -1;

	if (o->n_cand < ROUTING_ORIG_ROUTERS)
		v = o->n_cand++;
	else
		for (i = 0; i < o->n_cand; i++)
			if (i != o->router && o->cand[i].tq_avg < tq &&
			    (v < 0 || o->cand[i].tq_avg < o->cand[v].tq_avg))
				v = i;
	if (v < 0)
		return -1;
	c = &o->cand[v];
	memset(c, 0, sizeof(*c));
	c->neigh = (uint16_t)neigh;
	c->last_seen_ms = now_ms;
	return v;
}

static void
orig_cand_remove(struct rt_orig *o, int i)
{
	int last = o->n_cand - 1;

	if (o->router == i)
		o->router = RT_NO_ROUTER;
	if (i != last) {
		o->cand[i] = o->cand[last];
		if (o->router == last)
			o->router = (uint8_t)i;
	}
	memset(&o->cand[last], 0, sizeof(o->cand[last]));
	o->n_cand--;
}

/* What the forwarder knows of a route: compared before and after. */
struct orig_route {
	uint32_t neigh;			/* RT_NIL: no route */
	uint8_t tq;
	uint8_t hops;
};

static void
orig_route_get(const struct rt_orig *o, struct orig_route *r)
{
	const struct rt_cand *c = orig_router(o);

	r->neigh = c != NULL ? c->neigh : RT_NIL;
	r->tq = c != NULL ? c->tq_avg : 0;
	r->hops = c != NULL ? c->hops : 0;
}

static enum routing_route_change
orig_route_diff(const struct orig_route *a, const struct orig_route *b)
{
	if (a->neigh == b->neigh)
		return a->tq == b->tq && a->hops == b->hops ?
		    ROUTING_ROUTE_SAME : ROUTING_ROUTE_METRIC;
	if (a->neigh == RT_NIL)
		return ROUTING_ROUTE_ADDED;
	if (b->neigh == RT_NIL)
		return ROUTING_ROUTE_DELETED;
	return ROUTING_ROUTE_NEXTHOP;
}

static void
orig_info(const struct routing *rt, const struct rt_orig *o,
    struct routing_orig_info *out)
{
	const struct rt_cand *c = orig_router(o);

	memset(out, 0, sizeof(*out));
	memcpy(out->pk, o->pk, BS_PK_LEN);
	memcpy(out->addr, o->addr, BS_ADDR_LEN);
	out->cls = o->cls;
	out->routers = o->n_cand;
	out->epoch = o->epoch;
	out->seqno = o->seqno;
	out->last_seen_ms = o->last_seen_ms;
	out->last_refresh_ms = o->last_refresh_ms;
	memcpy(out->aux, o->aux, ROUTING_AUX_LEN);
	if (c == NULL)
		return;
	out->has_route = 1;
	memcpy(out->nexthop, rt->neigh[c->neigh].addr, BS_ADDR_LEN);
	out->ifindex = rt->neigh[c->neigh].ifindex;
	out->tq = c->tq_avg;
	out->hops = (uint8_t)(c->hops + 1);
}

/* ---- pool --------------------------------------------------------------- */

/* Make room for one more entry in the pool (below the cap). */
static int
orig_pool_reserve(struct routing *rt)
{
	struct rt_orig *p;
	uint32_t n;

	if (rt->orig_free != RT_NIL || rt->orig_top < rt->orig_alloc)
		return ROUTING_OK;
	n = rt->orig_alloc < 64 ? 64 : rt->orig_alloc * 2;
	if (n > rt->p.orig_cap)
		n = rt->p.orig_cap;
	if (n <= rt->orig_alloc)
		return ROUTING_EFULL;
	if ((p = realloc(rt->orig, (size_t)n * sizeof(*p))) == NULL)
		return ROUTING_ENOMEM;
	rt->orig = p;
	rt->orig_alloc = n;
	return ROUTING_OK;
}

static void
orig_link(struct routing *rt, uint32_t i)
{
	struct rt_orig *o = &rt->orig[i];
	uint32_t b;

	b = orig_bucket_pk(rt, o->pk);
	o->next_pk = rt->orig_bkt_pk[b];
	rt->orig_bkt_pk[b] = i;
	b = orig_bucket_addr(rt, o->addr);
	o->next_addr = rt->orig_bkt_addr[b];
	rt->orig_bkt_addr[b] = i;
}

static struct rt_orig *
orig_insert(struct routing *rt, const struct routing_ogm *m, uint64_t now_ms)
{
	struct rt_orig *o;
	uint32_t i;

	if (orig_pool_reserve(rt) != ROUTING_OK)
		return NULL;
	if (rt->orig_free != RT_NIL) {
		i = rt->orig_free;
		rt->orig_free = rt->orig[i].next_pk;
	} else
		i = rt->orig_top++;
	o = &rt->orig[i];
	memset(o, 0, sizeof(*o));
	memcpy(o->pk, m->orig_pk, BS_PK_LEN);
	memcpy(o->addr, m->orig_addr, BS_ADDR_LEN);
	o->used = 1;
	o->router = RT_NO_ROUTER;
	o->epoch = m->epoch;
	o->seqno = m->seqno;
	o->last_ttl = m->ttl;
	o->last_seen_ms = now_ms;
	o->last_refresh_ms = now_ms;
	orig_link(rt, i);
	rt->orig_count++;
	return o;
}

static void
orig_delete(struct routing *rt, uint32_t i)
{
	struct rt_orig *o = &rt->orig[i];
	uint32_t *pp;

	pp = &rt->orig_bkt_pk[orig_bucket_pk(rt, o->pk)];
	while (*pp != i)
		pp = &rt->orig[*pp].next_pk;
	*pp = o->next_pk;
	pp = &rt->orig_bkt_addr[orig_bucket_addr(rt, o->addr)];
	while (*pp != i)
		pp = &rt->orig[*pp].next_addr;
	*pp = o->next_addr;
	memset(o, 0, sizeof(*o));
	o->next_pk = rt->orig_free;
	rt->orig_free = i;
	rt->orig_count--;
}

int
rt_orig_rehash(struct routing *rt, uint32_t cap)
{
	uint32_t n = rt_buckets_for(cap), *bp, *ba, i;

	if (n <= rt->orig_mask + 1)
		return ROUTING_OK;
	bp = rt_buckets_new(n);
	ba = rt_buckets_new(n);
	if (bp == NULL || ba == NULL) {
		free(bp);
		free(ba);
		return ROUTING_ENOMEM;
	}
	free(rt->orig_bkt_pk);
	free(rt->orig_bkt_addr);
	rt->orig_bkt_pk = bp;
	rt->orig_bkt_addr = ba;
	rt->orig_mask = n - 1;
	for (i = 0; i < rt->orig_top; i++)
		if (rt->orig[i].used)
			orig_link(rt, i);
	return ROUTING_OK;
}

/* ---- OGM: checks (no change) -------------------------------------------- */

/* What the checks found out, for the update. */
struct ogm_ctx {
	uint32_t orig;			/* RT_NIL: a new originator */
	uint32_t sender;		/* neighbour index */
	int cand;			/* sender's candidate, or -1 */
	int newer;			/* (epoch, seqno) newer than known */
	int dup;			/* enum routing_dup */
	uint32_t back;			/* newest seqno - this seqno */
	uint8_t tq;			/* after ceiling and link */
};

static int
ogm_valid(const struct routing *rt, const struct routing_ogm *m)
{
	int direct;

	if (m == NULL || m->orig_pk == NULL || m->orig_addr == NULL ||
	    m->prev_sender == NULL || m->sender == NULL || m->ifindex == 0 ||
	    m->hops > ROUTING_MAX_HOPS || m->half_duplex > 1)
		return ROUTING_EINVAL;
	if (memcmp(m->orig_pk, rt->own_pk, BS_PK_LEN) == 0 ||
	    memcmp(m->orig_addr, rt->own_addr, BS_ADDR_LEN) == 0)
		return ROUTING_EOWN;
	if (memcmp(m->prev_sender, rt->own_addr, BS_ADDR_LEN) == 0)
		return ROUTING_EECHO;
	/* Only the originator sends hops 0, and it sends nothing else. */
	direct = memcmp(m->sender, m->orig_addr, BS_ADDR_LEN) == 0;
	if (direct != (m->hops == 0) || (m->hops == 0 &&
	    memcmp(m->prev_sender, m->orig_addr, BS_ADDR_LEN) != 0))
		return ROUTING_EHOPS;
	return ROUTING_OK;
}

/* The sending neighbour and this copy's TQ through it. */
static int
ogm_link(const struct routing *rt, const struct routing_ogm *m,
    struct ogm_ctx *x)
{
	const struct rt_neigh *n;
	uint8_t tq;

	if ((x->sender = rt_neigh_lookup(rt, m->ifindex, m->sender)) == RT_NIL)
		return ROUTING_ENONEIGH;
	n = &rt->neigh[x->sender];
	/* A direct originator is its own neighbour: same key, same address. */
	if (m->hops == 0 && memcmp(n->pk, m->orig_pk, BS_PK_LEN) != 0)
		return ROUTING_ECOLLIDE;
	if (n->link_tq == 0)
		return ROUTING_EUNIDIR;
	tq = routing_tq_ceiling(m->hops, rt->p.hop_penalty);
	if (m->tq < tq)
		tq = m->tq;
	x->tq = routing_tq_hop(routing_tq_combine(tq, n->tq_own, n->tq_asym),
	    m->iface_penalty);
	return x->tq == 0 ? ROUTING_ETQ : ROUTING_OK;
}

/* A new originator: its address must be free and the table not full. */
static int
ogm_new_orig(const struct routing *rt, const struct routing_ogm *m,
    struct ogm_ctx *x)
{
	if (orig_lookup_addr(rt, m->orig_addr) != RT_NIL)
		return ROUTING_ECOLLIDE;
	if (rt->orig_count >= rt->p.orig_cap)
		return ROUTING_EFULL;
	x->newer = 1;
	x->dup = ROUTING_NO_DUP;
	return ROUTING_OK;
}

/* Epoch and seqno window of a known originator; duplicate status. */
static int
ogm_window(const struct routing *rt, const struct routing_ogm *m,
    struct ogm_ctx *x)
{
	const struct rt_orig *o = &rt->orig[x->orig];
	int i;

	if (memcmp(o->addr, m->orig_addr, BS_ADDR_LEN) != 0)
		return ROUTING_EINVAL;
	x->cand = orig_cand_find(o, x->sender);
	if (m->epoch < o->epoch)
		return ROUTING_EEPOCH;
	if (routing_newer(m->epoch, m->seqno, o->epoch, o->seqno)) {
		x->newer = 1;
		x->dup = ROUTING_NO_DUP;
		return ROUTING_OK;
	}
	x->back = o->seqno - m->seqno;
	if (x->back >= ROUTING_WINDOW)
		return ROUTING_EOLD;
	x->dup = ROUTING_NO_DUP;
	for (i = 0; i < o->n_cand; i++) {
		if (!(o->cand[i].bits & (UINT64_C(1) << x->back)))
			continue;
		if (i == x->cand)
			return ROUTING_EDUP;
		x->dup = ROUTING_ORIG_DUP;
	}
	return ROUTING_OK;
}

/*
 * batman's loop guard: the copy comes from someone who got it from our
 * best next hop R (prev_sender == R, R is not the originator), and R is
 * its own best next hop: that sibling's path runs through R as ours does.
 */
static int
ogm_loop(const struct routing *rt, const struct routing_ogm *m,
    const struct ogm_ctx *x)
{
	const struct rt_cand *c, *rc;
	const struct rt_neigh *r;
	uint32_t ri;

	if (x->orig == RT_NIL || (c = orig_router(&rt->orig[x->orig])) == NULL)
		return ROUTING_OK;
	r = &rt->neigh[c->neigh];
	if (memcmp(r->addr, m->prev_sender, BS_ADDR_LEN) != 0 ||
	    memcmp(m->orig_addr, m->prev_sender, BS_ADDR_LEN) == 0)
		return ROUTING_OK;
	if ((ri = orig_lookup_addr(rt, r->addr)) == RT_NIL ||
	    (rc = orig_router(&rt->orig[ri])) == NULL)
		return ROUTING_OK;
	if (memcmp(rt->neigh[rc->neigh].addr, r->addr, BS_ADDR_LEN) != 0)
		return ROUTING_OK;
	return ROUTING_ELOOP;
}

static int
ogm_check(const struct routing *rt, const struct routing_ogm *m,
    struct ogm_ctx *x)
{
	int r;

	memset(x, 0, sizeof(*x));
	x->cand = -1;
	if ((r = ogm_valid(rt, m)) != ROUTING_OK ||
	    (r = ogm_link(rt, m, x)) != ROUTING_OK)
		return r;
	x->orig = orig_lookup_pk(rt, m->orig_pk);
	if (x->orig == RT_NIL)
		return ogm_new_orig(rt, m, x);
	if ((r = ogm_window(rt, m, x)) != ROUTING_OK)
		return r;
	return ogm_loop(rt, m, x);
}

int
routing_ogm_check(const struct routing *rt, const struct routing_ogm *m)
{
	struct ogm_ctx x;

	return ogm_check(rt, m, &x);
}

/* ---- OGM: update -------------------------------------------------------- */

/* Move every candidate's window to the new newest (epoch, seqno). */
static void
ogm_slide(struct rt_orig *o, const struct routing_ogm *m)
{
	uint32_t d = m->seqno - o->seqno;
	int i;

	for (i = 0; i < o->n_cand; i++) {
		if (m->epoch != o->epoch || d >= ROUTING_WINDOW)
			o->cand[i].bits = 0;
		else
			o->cand[i].bits <<= d;
	}
	o->epoch = m->epoch;
	o->seqno = m->seqno;
}

/*
 * Put this copy's TQ into the rings (batman's orig_update): a NO_DUP copy
 * ages every other candidate with a 0.  Returns the sender's candidate,
 * or -1 when it has none and could not get one.
 */
static int
ogm_rank(struct rt_orig *o, const struct ogm_ctx *x, uint64_t now_ms)
{
	int i, c = x->cand;

	if (x->dup == ROUTING_NO_DUP)
		for (i = 0; i < o->n_cand; i++)
			if (i != c)
				cand_push(&o->cand[i], 0);
	if (c < 0)
		c = orig_cand_add(o, x->sender, x->tq, now_ms);
	if (c < 0)
		return -1;
	cand_push(&o->cand[c], x->tq);
	return c;
}

/* Switch to candidate c if it beats the router (batman's hysteresis). */
static void
ogm_switch(const struct routing *rt, struct rt_orig *o, int c)
{
	if (o->router == RT_NO_ROUTER ||
	    cand_better(rt, &o->cand[c], &o->cand[o->router]))
		o->router = (uint8_t)c;
	if (orig_router(o) == NULL)
		orig_elect(rt, o);
}

static int
ogm_should_rank(const struct rt_orig *o, const struct routing_ogm *m,
    const struct ogm_ctx *x)
{
	if (x->dup == ROUTING_NO_DUP)
		return 1;
	return x->back == 0 &&
	    (int)m->ttl >= (int)o->last_ttl - ROUTING_TTL_SIMILAR;
}

/* Relay the first copy of a seqno that comes from the best next hop. */
static void
ogm_relay(const struct routing *rt, struct rt_orig *o,
    const struct routing_ogm *m, const struct ogm_ctx *x,
    struct routing_ogm_result *res)
{
	const struct rt_cand *c = orig_router(o);
	uint8_t tq = routing_tq_hop(x->tq, rt->p.hop_penalty);

	if (c == NULL || c->neigh != x->sender || m->ttl <= 1 ||
	    m->hops >= ROUTING_MAX_HOPS || tq == 0)
		return;
	if (o->relayed &&
	    !routing_newer(m->epoch, m->seqno, o->relay_epoch, o->relay_seqno))
		return;
	o->relayed = 1;
	o->relay_epoch = m->epoch;
	o->relay_seqno = m->seqno;
	res->relay = 1;
	res->relay_ttl = (uint8_t)(m->ttl - 1);
	res->relay_tq = tq;
	res->relay_tq_back = m->half_duplex ?
	    routing_tq_hop(tq, rt->p.hop_penalty) : tq;
	res->relay_hops = (uint8_t)(m->hops + 1);
	memcpy(res->relay_prev_sender, m->sender, BS_ADDR_LEN);
}

/* Candidate c delivered this copy (its window, its last delivery). */
static void
cand_delivered(struct rt_orig *o, int c, const struct ogm_ctx *x,
    uint64_t now_ms)
{
	o->cand[c].bits |= UINT64_C(1) << x->back;
	o->cand[c].last_seen_ms = now_ms;
}

static void
ogm_update(struct routing *rt, struct rt_orig *o, const struct routing_ogm *m,
    struct ogm_ctx *x, uint64_t now_ms, struct routing_ogm_result *res)
{
	int c = x->cand;

	if (x->newer) {
		ogm_slide(o, m);
		x->back = 0;
		o->last_refresh_ms = now_ms;
	}
	if (ogm_should_rank(o, m, x)) {
		if ((c = ogm_rank(o, x, now_ms)) >= 0) {
			o->cand[c].hops = m->hops;
			/* Counted before it competes (cand_better). */
			cand_delivered(o, c, x, now_ms);
			res->ranked = 1;
			ogm_switch(rt, o, c);
		} else if (orig_router(o) == NULL)
			orig_elect(rt, o);
		if (x->dup == ROUTING_NO_DUP)
			o->last_ttl = m->ttl;
	} else if (c >= 0)
		cand_delivered(o, c, x, now_ms);
	o->cls = m->cls;
	o->last_seen_ms = now_ms;
}

int
routing_ogm(struct routing *rt, const struct routing_ogm *m, uint64_t now_ms,
    struct routing_ogm_result *res)
{
	struct orig_route before, after;
	struct ogm_ctx x;
	struct rt_orig *o;
	int r;

	memset(res, 0, sizeof(*res));
	if ((r = ogm_check(rt, m, &x)) != ROUTING_OK)
		return r;
	if (x.orig == RT_NIL) {
		if ((o = orig_insert(rt, m, now_ms)) == NULL)
			return ROUTING_ENOMEM;
		res->orig_new = 1;
	} else
		o = &rt->orig[x.orig];
	orig_route_get(o, &before);
	ogm_update(rt, o, m, &x, now_ms, res);
	orig_route_get(o, &after);
	res->route = (uint8_t)orig_route_diff(&before, &after);
	res->dup = (uint8_t)x.dup;
	res->tq = x.tq;
	res->changed = res->orig_new || res->ranked || x.newer ||
	    res->route != ROUTING_ROUTE_SAME;
	ogm_relay(rt, o, m, &x, res);
	orig_info(rt, o, &res->info);
	return ROUTING_OK;
}

/* ---- queries ------------------------------------------------------------ */

int
routing_orig_get(const struct routing *rt, const uint8_t pk[static BS_PK_LEN],
    struct routing_orig_info *out)
{
	uint32_t i = orig_lookup_pk(rt, pk);

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	orig_info(rt, &rt->orig[i], out);
	return ROUTING_OK;
}

int
routing_orig_get_addr(const struct routing *rt,
    const uint8_t addr[static BS_ADDR_LEN], struct routing_orig_info *out)
{
	uint32_t i = orig_lookup_addr(rt, addr);

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	orig_info(rt, &rt->orig[i], out);
	return ROUTING_OK;
}

int
routing_orig_next(const struct routing *rt, uint32_t *pos,
    struct routing_orig_info *out)
{
	uint32_t i;

	for (i = *pos; i < rt->orig_top; i++) {
		if (!rt->orig[i].used)
			continue;
		orig_info(rt, &rt->orig[i], out);
		*pos = i + 1;
		return 1;
	}
	*pos = rt->orig_top;
	return 0;
}

unsigned
routing_orig_count(const struct routing *rt)
{
	return rt->orig_count;
}

int
routing_orig_routers(const struct routing *rt,
    const uint8_t pk[static BS_PK_LEN], struct routing_router_info *out,
    size_t max)
{
	const struct rt_orig *o;
	const struct rt_neigh *n;
	uint32_t i = orig_lookup_pk(rt, pk);
	size_t k;

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	o = &rt->orig[i];
	for (k = 0; k < o->n_cand && k < max; k++) {
		n = &rt->neigh[o->cand[k].neigh];
		memset(&out[k], 0, sizeof(out[k]));
		memcpy(out[k].addr, n->addr, BS_ADDR_LEN);
		out[k].ifindex = n->ifindex;
		out[k].tq_avg = o->cand[k].tq_avg;
		out[k].hops = (uint8_t)(o->cand[k].hops + 1);
		out[k].best = orig_router(o) == &o->cand[k];
		out[k].last_seen_ms = o->cand[k].last_seen_ms;
	}
	return (int)k;
}

int
routing_orig_set_class(struct routing *rt, const uint8_t pk[static BS_PK_LEN],
    uint8_t cls)
{
	uint32_t i = orig_lookup_pk(rt, pk);

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	rt->orig[i].cls = cls;
	return ROUTING_OK;
}

int
routing_orig_set_aux(struct routing *rt, const uint8_t pk[static BS_PK_LEN],
    const uint8_t aux[static ROUTING_AUX_LEN])
{
	uint32_t i = orig_lookup_pk(rt, pk);

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	memcpy(rt->orig[i].aux, aux, ROUTING_AUX_LEN);
	return ROUTING_OK;
}

int
routing_orig_evict_candidate(const struct routing *rt, uint8_t cls,
    struct routing_orig_info *out)
{
	const struct rt_orig *o, *best = NULL;
	uint32_t i;

	for (i = 0; i < rt->orig_top; i++) {
		o = &rt->orig[i];
		if (o->used && o->cls == cls && (best == NULL ||
		    o->last_refresh_ms < best->last_refresh_ms))
			best = o;
	}
	if (best == NULL)
		return 0;
	orig_info(rt, best, out);
	return 1;
}

/* ---- removal ------------------------------------------------------------ */

static void
orig_emit(const struct routing *rt, const struct rt_orig *o,
    enum routing_event_type type, enum routing_route_change how,
    routing_event_fn cb, void *arg)
{
	struct routing_event ev;

	if (cb == NULL)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.route = (uint8_t)how;
	orig_info(rt, o, &ev.info);
	cb(arg, &ev);
}

/* Remove originator i: ROUTE deleted first if it had one, then ORIG_DEL. */
static void
orig_remove(struct routing *rt, uint32_t i, routing_event_fn cb, void *arg,
    struct routing_purge_result *res)
{
	struct rt_orig *o = &rt->orig[i];

	if (orig_router(o) != NULL) {
		o->router = RT_NO_ROUTER;
		orig_emit(rt, o, ROUTING_EV_ROUTE, ROUTING_ROUTE_DELETED, cb,
		    arg);
		if (res != NULL)
			res->routes_deleted++;
	}
	orig_emit(rt, o, ROUTING_EV_ORIG_DEL, ROUTING_ROUTE_SAME, cb, arg);
	if (res != NULL)
		res->orig_removed++;
	orig_delete(rt, i);
}

int
rt_orig_remove_pk(struct routing *rt, const uint8_t pk[BS_PK_LEN],
    routing_event_fn cb, void *arg, struct routing_purge_result *res)
{
	uint32_t i = orig_lookup_pk(rt, pk);

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	orig_remove(rt, i, cb, arg, res);
	return ROUTING_OK;
}

int
routing_orig_remove(struct routing *rt, const uint8_t pk[static BS_PK_LEN],
    routing_event_fn cb, void *arg)
{
	return rt_orig_remove_pk(rt, pk, cb, arg, NULL);
}

/* Drop candidates through dead neighbours or, with timeouts, stale ones. */
static unsigned
orig_cands_sweep(const struct routing *rt, struct rt_orig *o, int timeouts,
    uint64_t now_ms)
{
	unsigned removed = 0;
	int i = 0;

	while (i < o->n_cand) {
		const struct rt_cand *c = &o->cand[i];

		if (rt->neigh[c->neigh].dead || (timeouts &&
		    rt_elapsed(now_ms, c->last_seen_ms) >
		    rt->p.neigh_timeout_ms)) {
			orig_cand_remove(o, i);
			removed++;
		} else
			i++;
	}
	return removed;
}

static void
orig_sweep_one(struct routing *rt, uint32_t i, int timeouts, uint64_t now_ms,
    routing_event_fn cb, void *arg, struct routing_purge_result *res)
{
	struct rt_orig *o = &rt->orig[i];
	struct orig_route before, after;
	enum routing_route_change how;
	unsigned n;

	if (timeouts &&
	    rt_elapsed(now_ms, o->last_seen_ms) > rt->p.orig_timeout_ms) {
		orig_remove(rt, i, cb, arg, res);
		return;
	}
	orig_route_get(o, &before);
	if ((n = orig_cands_sweep(rt, o, timeouts, now_ms)) == 0)
		return;
	if (res != NULL)
		res->routers_removed += n;
	if (orig_router(o) == NULL)
		orig_elect(rt, o);
	orig_route_get(o, &after);
	if ((how = orig_route_diff(&before, &after)) == ROUTING_ROUTE_SAME)
		return;
	if (res != NULL && how == ROUTING_ROUTE_DELETED)
		res->routes_deleted++;
	else if (res != NULL)
		res->routes_changed++;
	orig_emit(rt, o, ROUTING_EV_ROUTE, how, cb, arg);
}

void
rt_orig_sweep(struct routing *rt, int timeouts, uint64_t now_ms,
    routing_event_fn cb, void *arg, struct routing_purge_result *res)
{
	uint32_t i;

	if (!timeouts && rt->neigh_dead == 0)
		return;
	for (i = 0; i < rt->orig_top; i++)
		if (rt->orig[i].used)
			orig_sweep_one(rt, i, timeouts, now_ms, cb, arg, res);
}
