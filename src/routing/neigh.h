/*
 * neigh.h — the neighbour table: one entry per (interface, key) learned
 * from verified HELLOs, its HELLO receive window and link TQ, and the
 * lost-neighbour rule.  The routing_* functions are the public API (also
 * through routing.h); the rt_neigh_* ones serve orig.c and routing.c only.
 */
#ifndef BATSEC_NEIGH_H
#define BATSEC_NEIGH_H

#include <stdint.h>

#include "routing_types.h"

struct rt_neigh;

/*
 * Apply a HELLO at now_ms.  ROUTING_OK and *res filled, or EINVAL, EOWN,
 * EOLD, EEPOCH, EFULL (total or per-interface cap, or no free interface
 * slot), ECOLLIDE (address of another key on that interface); on an
 * error nothing changed and *res is zeroed.
 */
int	routing_hello(struct routing *rt, const struct routing_hello *h,
	    uint64_t now_ms, struct routing_hello_result *res);

/* ROUTING_OK and *out, or ROUTING_ENOENT. */
int	routing_neigh_get(const struct routing *rt, uint32_t ifindex,
	    const uint8_t addr[static BS_ADDR_LEN],
	    struct routing_neigh_info *out);
/*
 * Iterate: start with *pos = 0; returns 1 with *out filled while entries
 * remain, then 0.  ifindex 0 means every interface.  The order is stable
 * while the table does not change.
 */
int	routing_neigh_next(const struct routing *rt, uint32_t ifindex,
	    uint32_t *pos, struct routing_neigh_info *out);
unsigned routing_neigh_count(const struct routing *rt);
/*
 * An authentic frame other than a HELLO (an OGM frame whose link tag
 * verified and whose counter was fresh) came from this neighbour: it
 * feeds the busy-neighbour rule of the lost-neighbour check.  Unknown
 * neighbours are ignored.
 */
void	routing_neigh_heard(struct routing *rt, uint32_t ifindex,
	    const uint8_t addr[static BS_ADDR_LEN], uint64_t now_ms);

/* ---- for orig.c and routing.c ------------------------------------------- */

/* Index of the neighbour (ifindex, addr), or RT_NIL. */
uint32_t rt_neigh_lookup(const struct routing *rt, uint32_t ifindex,
	    const uint8_t addr[static BS_ADDR_LEN]);
void	rt_neigh_info(const struct rt_neigh *n,
	    struct routing_neigh_info *o);

enum rt_mark {
	RT_MARK_EXPIRED,	/* not heard for neigh_timeout_ms at now_ms */
	RT_MARK_IFACE,		/* on ifindex */
	RT_MARK_KEY,		/* with key pk, any interface */
	RT_MARK_ONE,		/* with key pk on ifindex */
};
/*
 * Mark neighbours dead; returns how many.  Dead neighbours stay in place
 * until rt_orig_sweep() has moved the routes off them and rt_neigh_reap()
 * frees them, emitting NEIGH_DOWN for each.
 */
unsigned rt_neigh_mark(struct routing *rt, enum rt_mark how, uint64_t now_ms,
	    uint32_t ifindex, const uint8_t *pk);
void	rt_neigh_reap(struct routing *rt, routing_event_fn cb, void *arg,
	    struct routing_purge_result *res);

#endif /* BATSEC_NEIGH_H */
