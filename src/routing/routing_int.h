/*
 * routing_int.h — the tables' layout, shared by the modules of the
 * routing core (rt_base.c, neigh.c, orig.c, routing.c).  Types only, no
 * functions: each module's header declares its own.  Nothing outside
 * src/routing includes this; callers hold a struct routing by pointer.
 *
 * Entries live in arrays and refer to each other by index; RT_NIL ends a
 * hash chain or a free list.  Each table has two hash indexes (by key and
 * by address), chained through the entries.
 */
#ifndef BATSEC_ROUTING_INT_H
#define BATSEC_ROUTING_INT_H

#include <stdint.h>

#include "routing_types.h"

#define RT_NIL		UINT32_MAX
#define RT_NO_ROUTER	0xff

/* One next-hop candidate of an originator: 32 bytes. */
struct rt_cand {
	uint64_t last_seen_ms;
	uint64_t bits;		/* bit i: delivered (orig seqno - i) */
	uint16_t neigh;		/* index into the neighbour pool */
	uint8_t ring[ROUTING_TQ_RING];
	uint8_t ring_pos;
	uint8_t tq_avg;		/* mean of the non-zero ring slots */
	uint8_t hops;		/* wire hops of its last ranked copy */
};

/* An originator: 376 bytes (see routing.h, Memory). */
struct rt_orig {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t used;
	uint8_t cls;
	uint8_t n_cand;
	uint8_t router;		/* index into cand, RT_NO_ROUTER */
	uint8_t last_ttl;	/* ttl of the last NO_DUP copy */
	uint8_t relayed;	/* relay_epoch/seqno are valid */
	uint32_t epoch;
	uint32_t seqno;		/* newest accepted in epoch */
	uint32_t relay_epoch;
	uint32_t relay_seqno;
	uint32_t next_pk;	/* hash chain; the free list when unused */
	uint32_t next_addr;
	uint64_t last_seen_ms;
	uint64_t last_refresh_ms;
	uint8_t aux[ROUTING_AUX_LEN];	/* the caller's, opaque */
	struct rt_cand cand[ROUTING_ORIG_ROUTERS];
};

/* A neighbour on one interface. */
struct rt_neigh {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint32_t ifindex;	/* 0: free slot */
	uint32_t epoch;
	uint32_t seqno;
	uint64_t bits;		/* bit i: got HELLO seqno (seqno - i) */
	uint64_t last_seen_ms;
	uint32_t next_pk;	/* hash chain; the free list when unused */
	uint32_t next_addr;
	uint8_t rq;		/* popcount(bits) */
	uint8_t span;		/* HELLO seqnos since first heard, <= 64 */
	uint8_t echo;
	uint8_t tq_own;
	uint8_t tq_asym;
	uint8_t link_tq;
	uint8_t iface;		/* slot in routing.ifaces */
	uint8_t dead;		/* marked for removal by rt_reap() */
	uint32_t gap_ms;	/* its HELLO interval as seen; 0: unknown */
	uint64_t heard_ms;	/* its last authentic frame of any kind */
	uint16_t frames;	/* other frames since its last HELLO */
	uint16_t fpi_x8;	/* frames per HELLO interval, x8; 0: unknown */
	uint16_t announced_ms;	/* the HELLO interval it announces; 0: none */
};

struct rt_iface {
	uint32_t ifindex;	/* 0: free */
	uint32_t count;		/* neighbours on it */
};

struct routing {
	struct routing_params p;
	uint8_t own_pk[BS_PK_LEN];
	uint8_t own_addr[BS_ADDR_LEN];
	uint8_t hkey[ROUTING_HASH_KEY_LEN];

	struct rt_orig *orig;		/* orig_alloc entries */
	uint32_t orig_alloc;		/* doubles up to orig_cap */
	uint32_t orig_top;		/* entries [0, top) were ever used */
	uint32_t orig_count;
	uint32_t orig_free;		/* free list through next_pk */
	uint32_t *orig_bkt_pk;		/* orig_mask + 1 heads each */
	uint32_t *orig_bkt_addr;
	uint32_t orig_mask;
	/* The slot the last originator lookup found, by key or by address:
	 * lookups try it first (a packet's entry looks its originator up
	 * five or six times, and each full lookup hashes the key and misses
	 * the cache on a bucket).  A hint, not state: lookups of a const
	 * table write it through orig_hint (which points at orig_hint_slot),
	 * and it is used only when that slot is in use and holds the key
	 * asked for, so a stale hint costs one comparison. */
	uint32_t *orig_hint;
	uint32_t orig_hint_slot;

	struct rt_neigh *neigh;		/* neigh_cap entries */
	uint32_t neigh_top;
	uint32_t neigh_count;
	uint32_t neigh_free;
	uint32_t *neigh_bkt_pk;
	uint32_t *neigh_bkt_addr;
	uint32_t neigh_mask;
	uint32_t neigh_dead;		/* marked dead, not yet reaped */

	struct rt_iface ifaces[ROUTING_MAX_IFACES];
};

#endif /* BATSEC_ROUTING_INT_H */
