/*
 * orig.h — the originator table: OGM processing (seqno windows,
 * duplicate status, TQ rings, best-next-hop election, relay decision),
 * queries, and the sweep that removes stale candidates and originators.
 * It stands on the neighbour table (neigh.h): a candidate is a neighbour.
 * The routing_* functions are the public API (also through routing.h);
 * the rt_orig_* ones serve routing.c only.
 */
#ifndef BATSEC_ORIG_H
#define BATSEC_ORIG_H

#include <stddef.h>
#include <stdint.h>

#include "routing_types.h"

/*
 * Everything routing_ogm() checks before it changes anything, without
 * changing anything: the caller runs it before the signature work and
 * skips the verification of an entry that would be refused anyway.
 * Returns what routing_ogm() would return (ROUTING_EFULL too when a new
 * originator meets a full table), except ROUTING_ENOMEM.
 */
int	routing_ogm_check(const struct routing *rt,
	    const struct routing_ogm *o);
/*
 * Apply a verified OGM entry at now_ms.  ROUTING_OK and *res, or one of
 * the codes above with nothing changed and *res zeroed.
 */
int	routing_ogm(struct routing *rt, const struct routing_ogm *o,
	    uint64_t now_ms, struct routing_ogm_result *res);

/* ROUTING_OK and *out, or ROUTING_ENOENT. */
int	routing_orig_get(const struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], struct routing_orig_info *out);
int	routing_orig_get_addr(const struct routing *rt,
	    const uint8_t addr[static BS_ADDR_LEN],
	    struct routing_orig_info *out);
/* Iterate as routing_neigh_next(). */
int	routing_orig_next(const struct routing *rt, uint32_t *pos,
	    struct routing_orig_info *out);
unsigned routing_orig_count(const struct routing *rt);

/* Candidates of originator pk into out[0..max): how many, or ENOENT. */
int	routing_orig_routers(const struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], struct routing_router_info *out,
	    size_t max);

/* Store a new policy class for an originator: OK or ENOENT. */
int	routing_orig_set_class(struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], uint8_t cls);
/*
 * Store ROUTING_AUX_LEN opaque caller bytes with an originator (the
 * parser keeps there what it last told the forwarder about the
 * originator's clients and gateway).  They are all zero when the entry
 * is created, never looked at by the routing core, and returned in
 * routing_orig_info.aux (also in the ORIG_DEL event).  OK or ENOENT.
 */
int	routing_orig_set_aux(struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN],
	    const uint8_t aux[static ROUTING_AUX_LEN]);
/*
 * Eviction hook: the entry of class cls refreshed least recently (ties:
 * the one first in iteration order).  1 and *out, or 0 when there is
 * none.  O(entries): for the rare full-table case.
 */
int	routing_orig_evict_candidate(const struct routing *rt, uint8_t cls,
	    struct routing_orig_info *out);

/*
 * Remove only the originator entry of pk (eviction for a better class):
 * its ROUTE deleted, then ORIG_DEL; its neighbour entries stay.
 * ROUTING_OK or ROUTING_ENOENT.
 */
int	routing_orig_remove(struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], routing_event_fn cb, void *arg);

/* ---- for routing.c ------------------------------------------------------ */

/*
 * One pass over the originators: drop candidates through dead neighbours
 * (and, with timeouts, stale candidates and originators), re-elect routers
 * and emit ROUTE / ORIG_DEL events.
 */
void	rt_orig_sweep(struct routing *rt, int timeouts, uint64_t now_ms,
	    routing_event_fn cb, void *arg, struct routing_purge_result *res);
int	rt_orig_remove_pk(struct routing *rt, const uint8_t pk[BS_PK_LEN],
	    routing_event_fn cb, void *arg, struct routing_purge_result *res);
/* Bucket arrays for a new cap (only ever larger). */
int	rt_orig_rehash(struct routing *rt, uint32_t cap);

#endif /* BATSEC_ORIG_H */
