/*
 * fwd_burst.h — the cold-start burst (batsec-protocol(7), "Cold start").
 * When a neighbour first appears on an interface (its first NEIGH UP) the
 * forwarder sends a HELLO there at once instead of waiting up to a HELLO
 * interval, so that the neighbour hears its echo and the link becomes
 * bidirectional at both ends within one exchange; when a neighbour is new
 * or its link becomes bidirectional it also sends its own OGM
 * FWD_BURST_OGM_DELAY_MS later (after the HELLO, and after the
 * neighbour's parser has had time to fetch the link key) instead of at
 * the next OGM interval.
 *
 * Bounded, so that an attacker making up new neighbours (new MACs and
 * keys, each with a valid signed HELLO) cannot make a node flood: each
 * kind of extra send has a token bucket of FWD_BURST_TOKENS tokens that
 * refills at one token per interval (the HELLO interval for the HELLO
 * bucket of each interface, the OGM interval for the one own-OGM bucket),
 * and two extra sends of one bucket are at least FWD_BURST_GAP_MS apart;
 * requests while one is pending join it, requests that find the bucket
 * empty are dropped (counted; the regular timers carry on).  Over any T
 * ms an interface thus sends at most FWD_BURST_TOKENS + T / hello_ms
 * extra HELLOs, and the node at most FWD_BURST_TOKENS + T / ogm_ms extra
 * own OGMs: at most twice the regular rates in the long run, whatever
 * the number of neighbours made up.  An extra send restarts the regular
 * timer of its kind (the next regular one follows an interval later), so
 * a node that meets many neighbours does not send an extra frame on top
 * of a regular one due right after.
 *
 * Pure logic on the caller's clock: no I/O (fwd_announce.c sends, and
 * the simulator of bench/sim runs the same code).
 */
#ifndef BATSEC_FWD_BURST_H
#define BATSEC_FWD_BURST_H

#include <stdint.h>

#define FWD_BURST_TOKENS	4	/* bucket size, in extra sends */
#define FWD_BURST_GAP_MS	100	/* between two extra sends of a bucket */
#define FWD_BURST_OGM_DELAY_MS	20	/* own OGM after the trigger */

struct fwd_bucket {
	uint64_t credit_ms;		/* tokens * interval, at most full */
	uint64_t at_ms;			/* when credit_ms was computed */
	uint64_t sent_ms;		/* last extra send (0: none) */
	uint64_t due_ms;		/* a pending extra send (0: none) */
	int started;
};

/* What fwd_bucket_take decided. */
enum { FWD_BURST_NONE = 0, FWD_BURST_SEND, FWD_BURST_REFUSED };

/*
 * Ask for an extra send at now_ms + delay_ms (not before FWD_BURST_GAP_MS
 * after the last one).  A pending request is kept (the new one joins it).
 * Returns the due time.
 */
uint64_t fwd_bucket_want(struct fwd_bucket *b, uint64_t now_ms,
	    uint32_t delay_ms);
/* The pending extra send's due time, 0 when none. */
uint64_t fwd_bucket_due(const struct fwd_bucket *b);
/*
 * At or after the due time: FWD_BURST_SEND (a token taken: send now) or
 * FWD_BURST_REFUSED (bucket empty: the request is dropped); FWD_BURST_NONE
 * when nothing is due.  interval_ms: the refill period of one token.
 */
int	fwd_bucket_take(struct fwd_bucket *b, uint32_t interval_ms,
	    uint64_t now_ms);

#endif /* BATSEC_FWD_BURST_H */
