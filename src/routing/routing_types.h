/*
 * routing_types.h — the routing core's vocabulary: its limits and
 * defaults, status codes, parameters, and the records that go in and
 * come out (a verified HELLO or OGM entry, what a table holds about a
 * neighbour or an originator, the events a removal causes).  Types and
 * constants only, no functions: the floor of src/routing, which the
 * modules of the core and every caller (through routing.h) stand on.
 * The model is described in routing.h.
 */
#ifndef BATSEC_ROUTING_TYPES_H
#define BATSEC_ROUTING_TYPES_H

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
#define ROUTING_AUX_LEN		72	/* caller bytes per originator */

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

struct routing_params {
	uint32_t orig_cap;		/* 1..ROUTING_ORIG_CAP_MAX */
	uint32_t neigh_cap;		/* all ifaces, 1..NEIGH_CAP_MAX */
	uint32_t neigh_iface_cap;	/* per interface, 1..64 */
	uint32_t neigh_timeout_ms;	/* 1..ROUTING_TIMEOUT_MAX */
	uint32_t orig_timeout_ms;	/* 1..ROUTING_TIMEOUT_MAX */
	uint8_t hop_penalty;		/* 0..255, per relay, /255 */
};

/* The tables (routing_int.h); callers hold only a pointer. */
struct routing;

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
	uint16_t interval_ms;		/* the HELLO interval it announces;
					   0: unknown */
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

struct routing_neigh_info {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint32_t ifindex;
	uint32_t epoch;
	uint32_t seqno;			/* last HELLO seqno accepted */
	uint8_t rq;			/* its HELLOs we got, of last 64 */
	uint8_t echo;			/* our HELLOs it got, as it reports
					   them (0..64, scaled in warm-up) */
	/*
	 * What our HELLOs report of it (their rx_count): rq, scaled during
	 * warm-up to 64 slots out of the sequence numbers since we first
	 * heard it (batsec-protocol(7), "Neighbours and link quality").
	 */
	uint8_t rq_report;
	uint8_t link_tq;
	uint8_t bidirectional;
	uint64_t last_seen_ms;
};

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
	uint8_t iface_penalty;		/* the receiving interface's hop
					   penalty, 0..255 (0: none) */
	uint8_t half_duplex;		/* 1: the receiving interface is
					   half duplex (wireless) */
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
	uint8_t relay_tq_back;		/* for the copy sent back out on the
					   receiving interface: relay_tq,
					   or with the hop penalty applied
					   again when it is half duplex */
	uint8_t relay_hops;
	uint8_t relay_prev_sender[BS_ADDR_LEN];
	struct routing_orig_info info;	/* the originator, updated */
};

/* One next-hop candidate of an originator. */
struct routing_router_info {
	uint8_t addr[BS_ADDR_LEN];	/* the neighbour's mesh address */
	uint32_t ifindex;
	uint8_t tq_avg;
	uint8_t hops;			/* route hops through it, 1..33 */
	uint8_t best;			/* 1: the current best next hop */
	uint64_t last_seen_ms;
};

/* ---- removal events ----------------------------------------------------- */

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

#endif /* BATSEC_ROUTING_TYPES_H */
