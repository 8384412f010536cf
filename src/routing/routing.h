/*
 * routing.h — the routing core of the parser: B.A.T.M.A.N. IV semantics
 * as plain functions over in-memory tables.
 *
 * No system calls, no I/O, no signature checks: callers verify HELLOs and
 * OGM entries first and pass the decoded, verified fields here.  Time is
 * an argument (now_ms, any monotonic millisecond clock), so the same calls
 * give the same tables in unit tests, fuzz harnesses and the simulator.
 * Every table has a hard cap; an insertion into a full table fails with
 * ROUTING_EFULL instead of growing.  Lookups are keyed hash tables (keyed
 * with SipHash, so chosen keys cannot pile into one bucket).
 *
 * Model (where it differs from batman-adv, the reason is given):
 *
 * Neighbours.  One entry per (interface, public key), learned from
 * verified HELLOs.  A 64-slot bitmap window holds which of the
 * neighbour's HELLO sequence numbers arrived; rq = number of bits set.
 * (epoch, seqno) pairs are ordered with the epoch first; within an epoch
 * seqnos compare in 32-bit serial arithmetic, so 0xffffffff -> 0 is one
 * step forward.  A HELLO that is not newer than the last one accepted is
 * refused (ROUTING_EOLD), an older epoch is refused (ROUTING_EEPOCH), a
 * newer epoch restarts the window, a jump of 64 or more clears it.  The
 * neighbour's HELLO also reports echo = how many of OUR last 64 HELLOs it
 * received (0 when we are not in its list).
 *
 * Link TQ.  batman-adv IV computes, from rq and its echo count eq (our own
 * OGMs that went out and came back: a round trip),
 *	tq_own  = 255 * min(eq, rq) / rq	(0 when eq < 1 or rq < 1)
 *	tq_asym = 255 - 255 * (64 - rq)^3 / 64^3
 * and multiplies a received TQ by both in one integer product:
 *	tq = tq_recv * tq_own * tq_asym / 255^2.
 * eq/rq estimates the forward delivery ratio.  Our echo is one-way (the
 * neighbour counts our HELLOs directly), so it already is that estimate:
 * we use tq_own = 255 * echo / 64, which is batman's formula with
 * eq = echo * rq / 64, without the second rounding.  The asymmetry
 * penalty and the product are batman's, except during warm-up: until
 * a neighbour has been heard for a full window (span, the seqnos since
 * its first HELLO in this epoch, reaches 64), rq is scaled to 64 slots
 * by span, and so is the rx_count our HELLOs report of the neighbour
 * (routing_neigh_info.rq_report): the echo it reports of us is scaled by
 * its own count of our seqnos and taken as it comes, whatever the two
 * ends' rates.  So a fresh link is near its final TQ after a few HELLOs
 * instead of 64 intervals (see neigh_scaled()).
 * The link TQ shown in dumps and
 * sent to the forwarder is the product for tq_recv = 255.  A neighbour is
 * bidirectional when its link TQ is at least 1 (batman's
 * TQ_TOTAL_BIDRECT_LIMIT); OGMs from a neighbour that is not are refused.
 * The receiving interface's own hop penalty (routing_ogm.iface_penalty,
 * batman's hardif hop_penalty) multiplies a received TQ by (255 -
 * penalty) / 255 after ceiling and link.  There is one routing table, not
 * one per outgoing interface: batman's per-interface tables apply the
 * half-duplex penalty (the hop penalty once more for a relay back out on
 * the wireless interface it came in on) to their own routes too; here it
 * shapes only the relayed copy for that interface (relay_tq_back).
 *
 * Originators.  One entry per originator key: its address, class byte,
 * last (epoch, seqno), and up to ROUTING_ORIG_ROUTERS next-hop candidates
 * ("routers"), each a neighbour with a ring of the last 5 TQ values
 * (TQ_GLOBAL_WINDOW_SIZE) whose average is the mean of the non-zero slots,
 * a 64-bit window of the seqnos that neighbour delivered, the hop count of
 * its last copy and when it last delivered one.  The best next hop is
 * switched to the sending neighbour when its average exceeds the current
 * router's, or equals it and it delivered more of the last 5 seqnos
 * (first copy or not: a router whose path died keeps its average, as
 * the mean leaves zeros out, but stops delivering), or equals it in both
 * and its echo count is higher (batman's "more symmetric" rule);
 * otherwise the router stays (hysteresis).  When
 * all candidates are taken, a new sender replaces the candidate with the
 * lowest average that is below the new copy's TQ and is not the router;
 * otherwise the copy is not ranked.
 *
 * OGM entry, in this order (nothing changes on any refusal):
 *  - own originator key or address: ROUTING_EOWN; prev_sender is us:
 *    ROUTING_EECHO (the echo of our own relay; batman drops it too);
 *  - hops 0 must come from the originator itself with prev_sender = the
 *    originator, and the originator can only send hops 0: ROUTING_EHOPS;
 *  - the sender must be a bidirectional neighbour on that interface:
 *    ROUTING_ENONEIGH, ROUTING_EUNIDIR (and at hops 0 that neighbour's
 *    key must be the originator's: ROUTING_ECOLLIDE);
 *  - the received TQ is capped at routing_tq_ceiling(hops), then
 *    multiplied by the link and by the interface penalty: 0 before or
 *    after is ROUTING_ETQ;
 *  - epoch older: ROUTING_EEPOCH; seqno 64 or more behind the newest:
 *    ROUTING_EOLD (also when the originator has no candidate left: a
 *    signed OGM cannot be replayed into a stale entry); the sender
 *    already delivered this seqno: ROUTING_EDUP (batman ranks such a copy
 *    again; we do not, so a neighbour cannot fill the ring by repeating);
 *  - loop guard (batman's): prev_sender is our best next hop R towards
 *    this originator (and R is not the originator), and our best next
 *    hop towards R's own originator entry is R itself: the sender got the
 *    copy from R, as we did, so it offers no better path: ROUTING_ELOOP;
 *  - a new originator needs room: ROUTING_EFULL, ROUTING_ECOLLIDE when
 *    its address belongs to another key.
 * An accepted copy is NO_DUP (a seqno no candidate delivered: newer, or
 * in the window but unseen) or ORIG_DUP (another neighbour delivered it).
 * It is ranked when NO_DUP (the sender's ring gets the TQ, every other
 * candidate's ring a 0, as batman ages routes) or ORIG_DUP with the
 * newest seqno and ttl >= last ttl - 3 (only the sender's ring).
 * It is relayed when the sender is the best next hop after the update,
 * the (epoch, seqno) is newer than the last one relayed (one relay per
 * seqno, however many copies arrive), ttl > 1, hops < ROUTING_MAX_HOPS
 * and the relayed TQ is not 0: with ttl - 1, hops + 1, TQ * (255 -
 * hop_penalty) / 255 and prev_sender = the sender.  With perfect links
 * and hop penalty 30 a node 1..5 hops away sees 255, 225, 198, 174, 153.
 * relay_tq_back is the TQ for the copy sent back out on the receiving
 * interface: relay_tq, times (255 - hop_penalty) / 255 once more when
 * that interface is half duplex (routing_ogm.half_duplex).
 * As in batman IV there is no split horizon: a relay goes out on every
 * interface and its copy coming back is an EECHO; which interfaces to
 * use is the caller's choice.  A route exists while the best next hop's
 * average is not 0.
 *
 * Timeouts (batman's PURGE_TIMEOUT; batsec-protocol(7) states them): a
 * neighbour not heard for neigh_timeout_ms (200 s) is removed, a
 * candidate that delivered no copy for neigh_timeout_ms is removed, an
 * originator not heard for orig_timeout_ms (400 s) is removed.  Unlike
 * batman, a neighbour is also removed as soon as it has missed more
 * HELLOs in a row than its loss rate makes plausible (2 on a clean link,
 * 5 at 20 % loss; neigh_lost_after() in neigh.c), so the routes through
 * a neighbour that went silent move to another candidate within about
 * 2.5 HELLO intervals instead of aging out through the zeros other
 * neighbours' OGMs push into its ring.  Once an originator entry is
 * purged its (epoch, seqno) is forgotten here; the parser keeps a bounded
 * memory of the highest (epoch, seqno) of keys that left the table
 * (pcore_limits.h) and refuses anything not newer, so signed OGMs of a
 * node silent for orig_timeout_ms cannot be replayed into a new entry.
 *
 * Memory.  The neighbour pool (neigh_cap entries of 96 bytes: 24 KiB at
 * the default cap) and the hash buckets are allocated by routing_new();
 * the originator pool grows by doubling up to orig_cap and never beyond.
 * One originator costs 376 bytes of entry (8 candidates of 32 bytes and
 * ROUTING_AUX_LEN caller bytes included) plus 8 bytes of hash buckets:
 * about 384 bytes, 1.5 MiB at the
 * default cap of 4096.  Nothing else is allocated after routing_new()
 * except that pool and, on routing_set_params() raising the cap, larger
 * bucket arrays.
 *
 * Typical use in the parser:
 *	struct routing *rt = routing_new(&params, own_pk, own_addr, hkey);
 *	HELLO verified: routing_hello(rt, &h, now, &hr); if hr.changed, send
 *	    IPC_NEIGH with routing_neigh_get();
 *	OGM entry: routing_ogm_check() before the signature work, then
 *	    after verification routing_ogm(rt, &o, now, &res); on res.route,
 *	    IPC_ROUTE_ADD from res.info; on res.relay, rewrite the mutable
 *	    part with res.relay_ttl/tq/hops/prev_sender and send IPC_RELAY;
 *	every second: routing_purge(rt, now, cb, arg), cb sending
 *	    IPC_ROUTE_DEL / IPC_ROUTE_ADD / IPC_NEIGH DOWN.
 */
#ifndef BATSEC_ROUTING_H
#define BATSEC_ROUTING_H

#include <stdint.h>

#include "batsec_crypto.h"
#include "routing_types.h"
/* The public API of the modules below routing.c (see their headers). */
#include "seqno.h"
#include "tq.h"
#include "neigh.h"
#include "orig.h"

/* "ok", "older epoch", ...; "?" for an unknown value. */
const char *routing_strerror(int status);

void	routing_params_default(struct routing_params *p);
/* 0, or ROUTING_EINVAL when a field is out of its range. */
int	routing_params_check(const struct routing_params *p);

/*
 * New, empty tables.  own_pk/own_addr: this node (its key and address are
 * refused as neighbour and originator).  hash_key: random bytes (e.g.
 * randombytes_buf before the sandbox); it only seeds the hash tables and
 * changes no result or iteration order.  NULL on bad params or no memory.
 */
struct routing *routing_new(const struct routing_params *p,
	    const uint8_t own_pk[static BS_PK_LEN],
	    const uint8_t own_addr[static BS_ADDR_LEN],
	    const uint8_t hash_key[static ROUTING_HASH_KEY_LEN]);
void	routing_free(struct routing *rt);
const struct routing_params *routing_get_params(const struct routing *rt);
/*
 * Change parameters on a running table.  neigh_cap and neigh_iface_cap
 * are fixed at routing_new (must be unchanged); orig_cap may not drop
 * below the current number of originators (ROUTING_EFULL: evict first).
 */
int	routing_set_params(struct routing *rt,
	    const struct routing_params *p);

/*
 * Remove what timed out at now_ms: neighbours, candidates, originators.
 * cb may be NULL; *res (may be NULL) counts what happened.
 */
void	routing_purge(struct routing *rt, uint64_t now_ms,
	    routing_event_fn cb, void *arg, struct routing_purge_result *res);
/* Remove every neighbour on ifindex (interface down or gone). */
void	routing_iface_flush(struct routing *rt, uint32_t ifindex,
	    routing_event_fn cb, void *arg, struct routing_purge_result *res);
/*
 * Remove a key everywhere (block, revocation): its originator entry and
 * its neighbour entries on all interfaces.  ROUTING_ENOENT when it was
 * in neither table.
 */
int	routing_remove_key(struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], routing_event_fn cb, void *arg,
	    struct routing_purge_result *res);

/*
 * Remove one neighbour entry, key pk on ifindex (the parser makes room
 * for a better class): the routes through it move or go as when it
 * times out.  ROUTING_ENOENT when there is none.
 */
int	routing_neigh_remove(struct routing *rt, uint32_t ifindex,
	    const uint8_t pk[static BS_PK_LEN], routing_event_fn cb, void *arg,
	    struct routing_purge_result *res);

#endif /* BATSEC_ROUTING_H */
