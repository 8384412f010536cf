/*
 * neigh.c — the neighbour table: entries per (interface, key) learned
 * from verified HELLOs, their HELLO receive windows and link TQ.
 */
#include <string.h>

#include "neigh.h"
#include "routing_int.h"
#include "rt_base.h"
#include "seqno.h"
#include "tq.h"

/* ---- lookup ------------------------------------------------------------- */

static uint32_t
neigh_bucket_pk(const struct routing *rt, uint32_t ifindex,
    const uint8_t *pk)
{
	return rt_hash(rt, ifindex, pk, BS_PK_LEN) & rt->neigh_mask;
}

static uint32_t
neigh_bucket_addr(const struct routing *rt, uint32_t ifindex,
    const uint8_t *addr)
{
	return rt_hash(rt, ifindex, addr, BS_ADDR_LEN) & rt->neigh_mask;
}

/* Index of the neighbour (ifindex, pk), or RT_NIL. */
static uint32_t
neigh_lookup_pk(const struct routing *rt, uint32_t ifindex, const uint8_t *pk)
{
	uint32_t i = rt->neigh_bkt_pk[neigh_bucket_pk(rt, ifindex, pk)];

	for (; i != RT_NIL; i = rt->neigh[i].next_pk)
		if (rt->neigh[i].ifindex == ifindex &&
		    memcmp(rt->neigh[i].pk, pk, BS_PK_LEN) == 0)
			return i;
	return RT_NIL;
}

uint32_t
rt_neigh_lookup(const struct routing *rt, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN])
{
	uint32_t i = rt->neigh_bkt_addr[neigh_bucket_addr(rt, ifindex, addr)];

	for (; i != RT_NIL; i = rt->neigh[i].next_addr)
		if (rt->neigh[i].ifindex == ifindex &&
		    memcmp(rt->neigh[i].addr, addr, BS_ADDR_LEN) == 0)
			return i;
	return RT_NIL;
}

static unsigned	neigh_rq_scaled(const struct rt_neigh *n);

void
rt_neigh_info(const struct rt_neigh *n, struct routing_neigh_info *o)
{
	memset(o, 0, sizeof(*o));
	memcpy(o->pk, n->pk, BS_PK_LEN);
	memcpy(o->addr, n->addr, BS_ADDR_LEN);
	memcpy(o->mac, n->mac, BS_ADDR_LEN);
	o->ifindex = n->ifindex;
	o->epoch = n->epoch;
	o->seqno = n->seqno;
	o->rq = n->rq;
	o->echo = n->echo;
	o->rq_report = (uint8_t)neigh_rq_scaled(n);
	o->link_tq = n->link_tq;
	o->bidirectional = n->link_tq >= 1;
	o->last_seen_ms = n->last_seen_ms;
}

/* ---- interface slots ---------------------------------------------------- */

/* Slot of ifindex; with create, a free slot if it has none.  -1: none. */
static int
neigh_iface_slot(const struct routing *rt, uint32_t ifindex, int create)
{
	int i, free_slot = -1;

	for (i = 0; i < ROUTING_MAX_IFACES; i++) {
		if (rt->ifaces[i].ifindex == ifindex)
			return i;
		if (rt->ifaces[i].ifindex == 0 && free_slot < 0)
			free_slot = i;
	}
	return create ? free_slot : -1;
}

/* ---- insertion and removal ---------------------------------------------- */

/* Can a new neighbour (ifindex, addr) get an entry?  ROUTING_OK or why. */
static int
neigh_room(const struct routing *rt, uint32_t ifindex, const uint8_t *addr)
{
	int s;

	if (rt_neigh_lookup(rt, ifindex, addr) != RT_NIL)
		return ROUTING_ECOLLIDE;
	if (rt->neigh_count >= rt->p.neigh_cap)
		return ROUTING_EFULL;
	if ((s = neigh_iface_slot(rt, ifindex, 1)) < 0 ||
	    rt->ifaces[s].count >= rt->p.neigh_iface_cap)
		return ROUTING_EFULL;
	return ROUTING_OK;
}

/* Create the entry neigh_room() allowed; its window is empty. */
static struct rt_neigh *
neigh_insert(struct routing *rt, const struct routing_hello *h)
{
	struct rt_neigh *n;
	uint32_t i, b;
	int s = neigh_iface_slot(rt, h->ifindex, 1);

	if (rt->neigh_free != RT_NIL) {
		i = rt->neigh_free;
		rt->neigh_free = rt->neigh[i].next_pk;
	} else
		i = rt->neigh_top++;
	n = &rt->neigh[i];
	memset(n, 0, sizeof(*n));
	memcpy(n->pk, h->pk, BS_PK_LEN);
	memcpy(n->addr, h->addr, BS_ADDR_LEN);
	n->ifindex = h->ifindex;
	n->iface = (uint8_t)s;
	rt->ifaces[s].ifindex = h->ifindex;
	rt->ifaces[s].count++;
	b = neigh_bucket_pk(rt, h->ifindex, h->pk);
	n->next_pk = rt->neigh_bkt_pk[b];
	rt->neigh_bkt_pk[b] = i;
	b = neigh_bucket_addr(rt, h->ifindex, h->addr);
	n->next_addr = rt->neigh_bkt_addr[b];
	rt->neigh_bkt_addr[b] = i;
	rt->neigh_count++;
	return n;
}

static void
neigh_unlink(struct routing *rt, uint32_t i)
{
	struct rt_neigh *n = &rt->neigh[i];
	uint32_t *pp;

	pp = &rt->neigh_bkt_pk[neigh_bucket_pk(rt, n->ifindex, n->pk)];
	while (*pp != i)
		pp = &rt->neigh[*pp].next_pk;
	*pp = n->next_pk;
	pp = &rt->neigh_bkt_addr[neigh_bucket_addr(rt, n->ifindex, n->addr)];
	while (*pp != i)
		pp = &rt->neigh[*pp].next_addr;
	*pp = n->next_addr;
}

static void
neigh_delete(struct routing *rt, uint32_t i)
{
	struct rt_neigh *n = &rt->neigh[i];
	struct rt_iface *f = &rt->ifaces[n->iface];

	neigh_unlink(rt, i);
	if (--f->count == 0)
		f->ifindex = 0;
	memset(n, 0, sizeof(*n));
	n->next_pk = rt->neigh_free;
	rt->neigh_free = i;
	rt->neigh_count--;
}

/* ---- HELLO window and link quality -------------------------------------- */

/* Lost neighbours (neigh_lost_misses, neigh_lost): misses in a row, odds
 * against; frames an interval for the busy rule. */
#define NEIGH_LOST_MIN		2
#define NEIGH_LOST_MAX		8
#define NEIGH_LOST_ODDS		1000u
#define NEIGH_GAP_MIN_MS	50
#define NEIGH_GAP_MAX_MS	600000
#define NEIGH_BUSY_PER_MISS	2

/* Is (epoch, seqno) acceptable for n?  ROUTING_OK, EOLD or EEPOCH. */
static int
neigh_window_check(const struct rt_neigh *n, uint32_t epoch, uint32_t seqno)
{
	if (epoch < n->epoch)
		return ROUTING_EEPOCH;
	if (!routing_newer(epoch, seqno, n->epoch, n->seqno))
		return ROUTING_EOLD;
	return ROUTING_OK;
}

/* Slide the window to (epoch, seqno), already known to be newer. */
static void
neigh_window_slide(struct rt_neigh *n, uint32_t epoch, uint32_t seqno)
{
	uint32_t d = seqno - n->seqno;

	if (epoch != n->epoch) {
		n->bits = 0;		/* it restarted: a new warm-up */
		n->span = 1;
	} else if (d >= ROUTING_WINDOW) {
		n->bits = 0;
		n->span = ROUTING_WINDOW;
	} else {
		n->bits <<= d;
		n->span = (uint8_t)(n->span + d > ROUTING_WINDOW ?
		    ROUTING_WINDOW : n->span + d);
	}
	n->bits |= 1;
	n->epoch = epoch;
	n->seqno = seqno;
}

/*
 * Warm-up.  Until a neighbour has been heard for a full window, rq counts
 * out of the HELLOs that could have arrived since, not out of 64:
 * batman-adv divides by the whole window from the start, so a perfect
 * link needs most of 64 intervals to reach a usable TQ and a fresh mesh
 * takes tens of seconds to converge.  What our HELLOs report of the
 * neighbour (routing_neigh_info.rq_report, their rx_count) is scaled the
 * same way, so the echo it reports of us needs no scaling here: each end
 * counts the other's HELLOs out of the other's own sequence numbers.
 * (Until 2026-12-07 the receiver scaled the raw echo by the span of the
 * neighbour's sequence numbers, which assumed both ends send at the same
 * rate; a node that met its neighbours one after the other sent more
 * cold-start HELLOs than some of them, and on clean veths a third of the
 * links of a 50-node chain sat at 203..239 for up to 64 s, enough to keep
 * nodes 32 hops away unreachable that long.)  Once span is 64 this is
 * batman's formula exactly.
 */
static unsigned
neigh_scaled(unsigned count, unsigned span)
{
	unsigned v;

	if (span >= ROUTING_WINDOW)
		return count;
	v = count * ROUTING_WINDOW / (span > 0 ? span : 1);
	return v > ROUTING_WINDOW ? ROUTING_WINDOW : v;
}

/* rq, scaled during warm-up: what our HELLOs report of the neighbour. */
static unsigned
neigh_rq_scaled(const struct rt_neigh *n)
{
	return neigh_scaled(n->rq, n->span);
}

/*
 * The neighbour's HELLO interval as we see it: a moving average (1/8
 * weight) of the time between two accepted HELLOs divided by the seqnos
 * they are apart, so lost HELLOs do not inflate it.  Not across a
 * restart (new epoch), and not from the first HELLO (nothing to compare).
 * At least NEIGH_GAP_MIN_MS (half the shortest configurable interval):
 * HELLOs that waited in a queue arrive closer together than they were
 * sent.  A gap shorter than half the interval the HELLO states is no
 * sample: the neighbour sent it early, as its cold-start burst does when
 * it meets a new neighbour (batsec-protocol(7), "Cold start"), and the
 * average would otherwise make it look lost after a fraction of its real
 * interval.
 */
/* A moving average with weight 1/8; 0 means no sample yet. */
static uint64_t
neigh_avg8(uint64_t avg, uint64_t sample)
{
	return avg == 0 ? sample : (avg * 7 + sample) / 8;
}

static void
neigh_gap_sample(struct rt_neigh *n, uint64_t now_ms,
    const struct routing_hello *h)
{
	uint64_t d = h->seqno - n->seqno, g;
	uint64_t el = rt_elapsed(now_ms, n->last_seen_ms);

	/* Two in the same millisecond were queued together: no measure. */
	if (h->epoch != n->epoch || d == 0 || d >= ROUTING_WINDOW || el == 0)
		return;
	g = el / d;
	if (g < (uint64_t)h->interval_ms / 2)
		return;
	if (g < NEIGH_GAP_MIN_MS)
		g = NEIGH_GAP_MIN_MS;
	if (g > NEIGH_GAP_MAX_MS)
		g = NEIGH_GAP_MAX_MS;
	n->gap_ms = (uint32_t)neigh_avg8(n->gap_ms, g);
	/* The same HELLOs measure how busy it is (neigh_lost()). */
	g = ((uint64_t)n->frames + 1) * 8 / d;
	n->fpi_x8 = (uint16_t)neigh_avg8(n->fpi_x8, g < UINT16_MAX ? g :
	    UINT16_MAX);
}

/*
 * Lost.  A neighbour whose HELLOs stop (it died, or its link went silent
 * without the carrier dropping) would otherwise keep its routes until
 * the OGMs of other neighbours have aged them out or the 200 s timeout,
 * several seconds at the least.  It is removed as soon as it missed more
 * HELLOs in a row than its loss rate makes plausible: m misses, the
 * smallest m >= NEIGH_LOST_MIN with p^m below 1/NEIGH_LOST_ODDS, where p
 * is the share of its HELLOs we missed ((64 - rq) / 64, rq as scaled
 * during warm-up), capped at NEIGH_LOST_MAX.  The silence allowed is
 * (m + 1/2) intervals: m misses exceed it, m - 1 stay below it unless
 * the jitter of m intervals adds up to more than half of one (never for
 * m <= 5 at +-10 %).  A clean link is thus dropped after 2.5 intervals of
 * silence, one losing 20 % of its HELLOs after 5.5.  Unknown interval
 * (fewer than two HELLOs): only the fixed timeout applies.
 */
static unsigned
neigh_lost_misses(const struct rt_neigh *n)
{
	uint64_t lost = ROUTING_WINDOW - neigh_rq_scaled(n);
	uint64_t pm = lost * lost, wm = (uint64_t)ROUTING_WINDOW *
	    ROUTING_WINDOW;
	unsigned m = NEIGH_LOST_MIN;

	/* p^m >= 1/ODDS  <=>  lost^m * ODDS >= 64^m; 64^8 * ODDS < 2^64. */
	while (m < NEIGH_LOST_MAX && pm * NEIGH_LOST_ODDS >= wm) {
		pm *= lost;
		wm *= ROUTING_WINDOW;
		m++;
	}
	return m;
}

/*
 * A busy neighbour (one that relays OGMs) is heard many times per HELLO
 * interval, and its silence tells sooner: it is also lost after 1.5
 * intervals without any authentic frame from it, HELLO or OGM, when it
 * sends at least NEIGH_BUSY_PER_MISS * m frames an interval on average
 * (4 on a clean link, 10 at 20 % loss), so that 1.5 intervals hold at
 * least 3m of its frames and losing all of them is far less likely than
 * the m HELLO misses of the rule above.  (It was 4m; with relays
 * aggregated over 100 ms the centre of the 5x5 grid sends fewer than 8
 * frames an interval, and its silence took 2.5 intervals again.)  A live
 * neighbour is never silent for 1.5 intervals: its own HELLOs come every
 * interval +-10 %.  On the 5x5 grid this takes the detection of a
 * silent centre from 2.5 intervals to 1.5.
 */
/*
 * The interval its silence is measured in: the larger of the measured one
 * and the one its HELLOs announce.  Nodes may run different intervals
 * (batsec.conf(5)); one that changes its own at run time (batsec-ctl set)
 * sends a HELLO with the new value at once, and a raised interval is then
 * not mistaken for lost HELLOs before the average has caught up.
 */
static uint64_t
neigh_gap(const struct rt_neigh *n)
{
	return n->announced_ms > n->gap_ms ? n->announced_ms : n->gap_ms;
}

static int
neigh_lost(const struct rt_neigh *n, uint64_t now_ms)
{
	unsigned m;

	uint64_t gap;

	if (n->gap_ms == 0)
		return 0;
	gap = neigh_gap(n);
	m = neigh_lost_misses(n);
	if (rt_elapsed(now_ms, n->last_seen_ms) > gap * (2 * m + 1) / 2)
		return 1;
	return n->fpi_x8 >= 8 * NEIGH_BUSY_PER_MISS * m &&
	    rt_elapsed(now_ms, n->heard_ms) > gap * 3 / 2;
}

static void
neigh_link_update(struct rt_neigh *n)
{
	n->rq = (uint8_t)__builtin_popcountll(n->bits);
	n->tq_own = routing_tq_own(n->echo);
	n->tq_asym = routing_tq_asym(neigh_rq_scaled(n));
	n->link_tq = routing_tq_combine(ROUTING_TQ_MAX, n->tq_own, n->tq_asym);
}

static int
neigh_hello_valid(const struct routing *rt, const struct routing_hello *h)
{
	if (h == NULL || h->pk == NULL || h->addr == NULL || h->mac == NULL ||
	    h->ifindex == 0 || h->echo > ROUTING_WINDOW)
		return ROUTING_EINVAL;
	if (memcmp(h->pk, rt->own_pk, BS_PK_LEN) == 0 ||
	    memcmp(h->addr, rt->own_addr, BS_ADDR_LEN) == 0)
		return ROUTING_EOWN;
	return ROUTING_OK;
}

static void
neigh_hello_result(const struct rt_neigh *n, const struct rt_neigh *old,
    int created, struct routing_hello_result *res)
{
	int was_bidir = !created && old->link_tq >= 1;

	res->neigh_new = (uint8_t)created;
	res->bidirectional = n->link_tq >= 1;
	res->bidir_changed = res->bidirectional != was_bidir;
	res->link_tq = n->link_tq;
	res->rq = n->rq;
	res->echo = n->echo;
	/* rq_report too: a lost HELLO during warm-up lowers it alone. */
	res->changed = created || old->link_tq != n->link_tq ||
	    old->rq != n->rq || old->echo != n->echo ||
	    neigh_rq_scaled(old) != neigh_rq_scaled(n) ||
	    memcmp(old->mac, n->mac, BS_ADDR_LEN) != 0;
}

int
routing_hello(struct routing *rt, const struct routing_hello *h,
    uint64_t now_ms, struct routing_hello_result *res)
{
	struct rt_neigh *n, old;
	uint32_t i;
	int r, created = 0;

	memset(res, 0, sizeof(*res));
	if ((r = neigh_hello_valid(rt, h)) != ROUTING_OK)
		return r;
	i = neigh_lookup_pk(rt, h->ifindex, h->pk);
	if (i != RT_NIL) {
		n = &rt->neigh[i];
		/* The address is derived from the key: it cannot differ. */
		if (memcmp(n->addr, h->addr, BS_ADDR_LEN) != 0)
			return ROUTING_EINVAL;
		if ((r = neigh_window_check(n, h->epoch, h->seqno)) !=
		    ROUTING_OK)
			return r;
		old = *n;
		/*
		 * A changed interval (batsec-ctl set on that node): the
		 * measure starts again from the announced value; this
		 * HELLO's gap still belongs to the old one.
		 */
		if (h->interval_ms != 0 && n->announced_ms != 0 &&
		    h->interval_ms != n->announced_ms) {
			n->gap_ms = h->interval_ms;
			n->fpi_x8 = 0;
		} else
			neigh_gap_sample(n, now_ms, h);
		neigh_window_slide(n, h->epoch, h->seqno);
	} else {
		if ((r = neigh_room(rt, h->ifindex, h->addr)) != ROUTING_OK)
			return r;
		n = neigh_insert(rt, h);
		old = *n;
		created = 1;
		n->epoch = h->epoch;
		n->seqno = h->seqno;
		n->bits = 1;
		n->span = 1;
	}
	memcpy(n->mac, h->mac, BS_ADDR_LEN);
	n->echo = h->echo;
	n->announced_ms = h->interval_ms;
	n->last_seen_ms = now_ms;
	n->heard_ms = now_ms;
	n->frames = 0;
	neigh_link_update(n);
	neigh_hello_result(n, &old, created, res);
	return ROUTING_OK;
}

/* ---- queries ------------------------------------------------------------ */

int
routing_neigh_get(const struct routing *rt, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN], struct routing_neigh_info *out)
{
	uint32_t i = rt_neigh_lookup(rt, ifindex, addr);

	if (i == RT_NIL)
		return ROUTING_ENOENT;
	rt_neigh_info(&rt->neigh[i], out);
	return ROUTING_OK;
}

int
routing_neigh_next(const struct routing *rt, uint32_t ifindex, uint32_t *pos,
    struct routing_neigh_info *out)
{
	uint32_t i;

	for (i = *pos; i < rt->neigh_top; i++) {
		const struct rt_neigh *n = &rt->neigh[i];

		if (n->ifindex == 0 || (ifindex != 0 && n->ifindex != ifindex))
			continue;
		rt_neigh_info(n, out);
		*pos = i + 1;
		return 1;
	}
	*pos = rt->neigh_top;
	return 0;
}

unsigned
routing_neigh_count(const struct routing *rt)
{
	return rt->neigh_count;
}

void
routing_neigh_heard(struct routing *rt, uint32_t ifindex,
    const uint8_t addr[static BS_ADDR_LEN], uint64_t now_ms)
{
	uint32_t i = rt_neigh_lookup(rt, ifindex, addr);
	struct rt_neigh *n;

	if (i == RT_NIL)
		return;
	n = &rt->neigh[i];
	n->heard_ms = now_ms;
	if (n->frames < UINT16_MAX)
		n->frames++;
}

/* ---- removal ------------------------------------------------------------ */

static int
neigh_marked(const struct routing *rt, const struct rt_neigh *n,
    enum rt_mark how, uint64_t now_ms, uint32_t ifindex, const uint8_t *pk)
{
	switch (how) {
	case RT_MARK_EXPIRED:
		return rt_elapsed(now_ms, n->last_seen_ms) >
		    rt->p.neigh_timeout_ms || neigh_lost(n, now_ms);
	case RT_MARK_IFACE:
		return n->ifindex == ifindex;
	case RT_MARK_KEY:
		return memcmp(n->pk, pk, BS_PK_LEN) == 0;
	case RT_MARK_ONE:
		return n->ifindex == ifindex &&
		    memcmp(n->pk, pk, BS_PK_LEN) == 0;
	}
	return 0;
}

unsigned
rt_neigh_mark(struct routing *rt, enum rt_mark how, uint64_t now_ms,
    uint32_t ifindex, const uint8_t *pk)
{
	unsigned marked = 0;
	uint32_t i;

	for (i = 0; i < rt->neigh_top; i++) {
		struct rt_neigh *n = &rt->neigh[i];

		if (n->ifindex == 0 || n->dead ||
		    !neigh_marked(rt, n, how, now_ms, ifindex, pk))
			continue;
		n->dead = 1;
		rt->neigh_dead++;
		marked++;
	}
	return marked;
}

void
rt_neigh_reap(struct routing *rt, routing_event_fn cb, void *arg,
    struct routing_purge_result *res)
{
	struct routing_event ev;
	uint32_t i;

	for (i = 0; i < rt->neigh_top && rt->neigh_dead > 0; i++) {
		if (rt->neigh[i].ifindex == 0 || !rt->neigh[i].dead)
			continue;
		if (cb != NULL) {
			memset(&ev, 0, sizeof(ev));
			ev.type = ROUTING_EV_NEIGH_DOWN;
			rt_neigh_info(&rt->neigh[i], &ev.neigh);
			cb(arg, &ev);
		}
		neigh_delete(rt, i);
		rt->neigh_dead--;
		if (res != NULL)
			res->neigh_removed++;
	}
}
