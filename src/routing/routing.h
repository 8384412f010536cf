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
 * its first HELLO in this epoch, reaches 64), rq and echo are scaled to
 * 64 slots by span (echo by span - 1, one short counting as full), so
 * a fresh link is near its final
 * TQ after a few HELLOs instead of 64 intervals (see neigh_scaled()).
 * The link TQ shown in dumps and
 * sent to the forwarder is the product for tq_recv = 255.  A neighbour is
 * bidirectional when its link TQ is at least 1 (batman's
 * TQ_TOTAL_BIDRECT_LIMIT); OGMs from a neighbour that is not are refused.
 * There is no per-interface penalty and there is one routing table, not
 * one per outgoing interface (batman's per-interface tables serve
 * multi-radio half-duplex penalties we do not model).
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
 *    multiplied by the link: 0 before or after is ROUTING_ETQ;
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

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

#define ROUTING_TQ_MAX		255
#define ROUTING_WINDOW		64	/* TQ_LOCAL_WINDOW_SIZE */
#define ROUTING_TQ_RING		5	/* TQ_GLOBAL_WINDOW_SIZE */
#define ROUTING_ORIG_ROUTERS	8	/* next-hop candidates per orig. */
#define ROUTING_MAX_HOPS	BS_MAXHOPS	/* wire hops field 0..32 */
#define ROUTING_MAX_IFACES	32	/* as PCORE_MAX_IFACES */
#define ROUTING_TTL_SIMILAR	3	/* dup ranked if ttl >= last - 3 */
#define ROUTING_HASH_KEY_LEN	16
#define ROUTING_AUX_LEN		32	/* caller bytes per originator */

/* Defaults and ranges of struct routing_params. */
#define ROUTING_HOP_PENALTY	30
#define ROUTING_ORIG_CAP	4096	/* as policy "limit originators" */
#define ROUTING_ORIG_CAP_MAX	(1u << 20)
#define ROUTING_NEIGH_CAP	256	/* as IPC_MAX_NEIGH */
#define ROUTING_NEIGH_CAP_MAX	4096
#define ROUTING_NEIGH_IFACE_CAP	64	/* a HELLO lists at most 64 */
#define ROUTING_NEIGH_TIMEOUT	200000	/* ms, PURGE_TIMEOUT */
#define ROUTING_ORIG_TIMEOUT	400000	/* ms, 2 x PURGE_TIMEOUT */
#define ROUTING_TIMEOUT_MAX	86400000u	/* ms, one day */

enum routing_status {
	ROUTING_OK = 0,
	ROUTING_EINVAL = -1,	/* argument out of range: a caller bug */
	ROUTING_EOWN = -2,	/* our own key or address */
	ROUTING_EOLD = -3,	/* not newer / behind the seqno window */
	ROUTING_EEPOCH = -4,	/* epoch older than the known one */
	ROUTING_EDUP = -5,	/* the sender already delivered this seqno */
	ROUTING_EFULL = -6,	/* a table is at its cap */
	ROUTING_ENOMEM = -7,	/* allocation failed (below the cap) */
	ROUTING_ECOLLIDE = -8,	/* the address belongs to another key */
	ROUTING_ENONEIGH = -9,	/* sender is no neighbour on that iface */
	ROUTING_EUNIDIR = -10,	/* link to the sender not bidirectional */
	ROUTING_ETQ = -11,	/* TQ 0, as received or after the link */
	ROUTING_EECHO = -12,	/* previous sender is us */
	ROUTING_ELOOP = -13,	/* relayed by a sibling of our router */
	ROUTING_EHOPS = -14,	/* hop count inconsistent with the sender */
	ROUTING_ENOENT = -15,	/* no such entry */
};
#define ROUTING_NERR	16

/* "ok", "older epoch", ...; "?" for an unknown value. */
const char *routing_strerror(int status);

struct routing_params {
	uint32_t orig_cap;		/* 1..ROUTING_ORIG_CAP_MAX */
	uint32_t neigh_cap;		/* all ifaces, 1..NEIGH_CAP_MAX */
	uint32_t neigh_iface_cap;	/* per interface, 1..64 */
	uint32_t neigh_timeout_ms;	/* 1..ROUTING_TIMEOUT_MAX */
	uint32_t orig_timeout_ms;	/* 1..ROUTING_TIMEOUT_MAX */
	uint8_t hop_penalty;		/* 0..255, per relay, /255 */
};

void	routing_params_default(struct routing_params *p);
/* 0, or ROUTING_EINVAL when a field is out of its range. */
int	routing_params_check(const struct routing_params *p);

struct routing;

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

/* ---- TQ arithmetic (batman-adv IV, integer math) ------------------------ */

/* 255 - 255 * (64 - rq)^3 / 64^3; rq 0..64 (larger is clamped to 64). */
uint8_t	routing_tq_asym(unsigned rq);
/* Forward link estimate from the neighbour's count of our HELLOs. */
uint8_t	routing_tq_own(unsigned echo);
/* tq * tq_own * tq_asym / 255^2: batman's single product. */
uint8_t	routing_tq_combine(uint8_t tq, uint8_t tq_own, uint8_t tq_asym);
/* Link TQ of a neighbour: routing_tq_combine(255, own(echo), asym(rq)). */
uint8_t	routing_link_tq(unsigned rq, unsigned echo);
/* tq * (255 - hop_penalty) / 255: what one relay leaves. */
uint8_t	routing_tq_hop(uint8_t tq, uint8_t hop_penalty);
/*
 * The best TQ an entry can carry when it arrives with this hops field
 * (relays passed): 255 with the penalty applied hops times.  Hop penalty
 * 30: 255, 225, 198, 174, 153 for hops 0..4.
 */
uint8_t	routing_tq_ceiling(unsigned hops, uint8_t hop_penalty);

/* ---- neighbours (HELLO) ------------------------------------------------- */

/* A verified HELLO. */
struct routing_hello {
	uint32_t ifindex;		/* receiving interface, not 0 */
	const uint8_t *pk;		/* sender key, BS_PK_LEN */
	const uint8_t *addr;		/* bs_mesh_addr(pk), BS_ADDR_LEN */
	const uint8_t *mac;		/* its interface MAC, BS_ADDR_LEN */
	uint32_t epoch;
	uint32_t seqno;
	uint8_t echo;			/* its rx_count for us, 0..64 */
};

struct routing_hello_result {
	uint8_t neigh_new;		/* the entry was created */
	uint8_t changed;		/* new, or mac / link TQ / rq / echo
					   / bidirectional changed */
	uint8_t bidir_changed;		/* bidirectional flipped */
	uint8_t bidirectional;
	uint8_t link_tq;
	uint8_t rq;
	uint8_t echo;
};

/*
 * Apply a HELLO at now_ms.  ROUTING_OK and *res filled, or EINVAL, EOWN,
 * EOLD, EEPOCH, EFULL (total or per-interface cap, or no free interface
 * slot), ECOLLIDE (address of another key on that interface); on an
 * error nothing changed and *res is zeroed.
 */
int	routing_hello(struct routing *rt, const struct routing_hello *h,
	    uint64_t now_ms, struct routing_hello_result *res);

struct routing_neigh_info {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint32_t ifindex;
	uint32_t epoch;
	uint32_t seqno;			/* last HELLO seqno accepted */
	uint8_t rq;			/* its HELLOs we got, of last 64 */
	uint8_t echo;			/* our HELLOs it got, of last 64 */
	uint8_t link_tq;
	uint8_t bidirectional;
	uint64_t last_seen_ms;
};

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

/* ---- originators (OGM) -------------------------------------------------- */

/* A verified OGM entry as received. */
struct routing_ogm {
	const uint8_t *orig_pk;		/* BS_PK_LEN */
	const uint8_t *orig_addr;	/* bs_mesh_addr(orig_pk) */
	uint32_t epoch;
	uint32_t seqno;
	uint8_t tq;			/* mutable part, as received */
	uint8_t hops;			/* 0..ROUTING_MAX_HOPS */
	uint8_t ttl;
	const uint8_t *prev_sender;	/* BS_ADDR_LEN */
	uint32_t ifindex;		/* receiving interface */
	const uint8_t *sender;		/* sending neighbour's address */
	uint8_t cls;			/* caller's class of the originator,
					   stored with the entry */
};

enum routing_dup {
	ROUTING_NO_DUP = 0,		/* no candidate delivered it */
	ROUTING_ORIG_DUP = 1,		/* another neighbour did */
};

enum routing_route_change {
	ROUTING_ROUTE_SAME = 0,		/* nothing the forwarder uses */
	ROUTING_ROUTE_ADDED = 1,	/* there was no route */
	ROUTING_ROUTE_NEXTHOP = 2,	/* the best next hop changed */
	ROUTING_ROUTE_METRIC = 3,	/* same next hop, TQ or hops changed */
	ROUTING_ROUTE_DELETED = 4,	/* no route now (removals only) */
};

struct routing_orig_info {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t nexthop[BS_ADDR_LEN];	/* best next hop's mesh address */
	uint32_t ifindex;		/* ... and its interface */
	uint8_t has_route;		/* 0: nexthop, ifindex, tq, hops 0 */
	uint8_t tq;			/* its average TQ, 1..255 */
	uint8_t hops;			/* route hops: 1 = direct, 1..33 */
	uint8_t cls;
	uint8_t routers;		/* next-hop candidates held */
	uint32_t epoch;
	uint32_t seqno;			/* newest accepted */
	uint64_t last_seen_ms;		/* last accepted copy */
	uint64_t last_refresh_ms;	/* last new (epoch, seqno) */
	uint8_t aux[ROUTING_AUX_LEN];	/* routing_orig_set_aux() */
};

struct routing_ogm_result {
	uint8_t orig_new;		/* the originator entry was created */
	uint8_t changed;		/* table contents changed (always on
					   ROUTING_OK except an unranked dup) */
	uint8_t dup;			/* enum routing_dup */
	uint8_t ranked;			/* the TQ went into a ring */
	uint8_t route;			/* enum routing_route_change */
	uint8_t tq;			/* TQ after ceiling and link */
	uint8_t relay;			/* 1: rebroadcast it with: */
	uint8_t relay_ttl;
	uint8_t relay_tq;
	uint8_t relay_hops;
	uint8_t relay_prev_sender[BS_ADDR_LEN];
	struct routing_orig_info info;	/* the originator, updated */
};

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

/* One next-hop candidate of an originator. */
struct routing_router_info {
	uint8_t addr[BS_ADDR_LEN];	/* the neighbour's mesh address */
	uint32_t ifindex;
	uint8_t tq_avg;
	uint8_t hops;			/* route hops through it, 1..33 */
	uint8_t best;			/* 1: the current best next hop */
	uint64_t last_seen_ms;
};

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

/* ---- removal and purge -------------------------------------------------- */

enum routing_event_type {
	ROUTING_EV_ROUTE = 1,		/* route changed or deleted */
	ROUTING_EV_ORIG_DEL = 2,	/* originator removed */
	ROUTING_EV_NEIGH_DOWN = 3,	/* neighbour removed: neigh */
};

struct routing_event {
	enum routing_event_type type;
	uint8_t route;			/* ROUTE: routing_route_change */
	struct routing_orig_info info;	/* ROUTE, ORIG_DEL: after it */
	struct routing_neigh_info neigh;	/* NEIGH_DOWN: as it was */
};

/*
 * Receives every change a removal causes, in an order the forwarder can
 * apply one by one: an originator's ROUTE (changed or deleted) before its
 * ORIG_DEL, and every route through a neighbour moved or deleted before
 * that neighbour's NEIGH_DOWN.  It must not call back into the table.
 */
typedef void (*routing_event_fn)(void *arg, const struct routing_event *ev);

struct routing_purge_result {
	unsigned neigh_removed;
	unsigned routers_removed;	/* next-hop candidates dropped */
	unsigned orig_removed;
	unsigned routes_changed;	/* moved to another next hop */
	unsigned routes_deleted;
};

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
 * Remove only the originator entry of pk (eviction for a better class):
 * its ROUTE deleted, then ORIG_DEL; its neighbour entries stay.
 * ROUTING_OK or ROUTING_ENOENT.
 */
int	routing_orig_remove(struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], routing_event_fn cb, void *arg);
/*
 * Remove a key everywhere (block, revocation): its originator entry and
 * its neighbour entries on all interfaces.  ROUTING_ENOENT when it was
 * in neither table.
 */
int	routing_remove_key(struct routing *rt,
	    const uint8_t pk[static BS_PK_LEN], routing_event_fn cb, void *arg,
	    struct routing_purge_result *res);

#endif /* BATSEC_ROUTING_H */
