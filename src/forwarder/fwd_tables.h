/*
 * fwd_tables.h — the forwarder's bounded tables (DESIGN.md §3, mesh change).
 *
 * The parser decides; the forwarder remembers what it was told, in order to
 * move data frames and to originate its own HELLOs and OGMs:
 *
 *   neighbours	from IPC_NEIGH		(addr, ifindex) -> mac, pk, tq, ...
 *   routes	from IPC_ROUTE_ADD/DEL	orig addr -> next hop, ifindex
 *   remote TT	from IPC_TT		(client mac, vid) -> orig addr
 *   gateways	from IPC_GW		orig addr -> down/up bandwidth
 *   local TT	learnt from batsec0	(client mac, vid), aged
 *
 * Every table has a fixed capacity allocated once by fwd_tables_new() and
 * a hash index, so a lookup costs O(1) whatever is in the table; only the
 * iterators (control-socket dumps, HELLO lists, OGM trailers) walk a table.
 * Time is always passed in (now_ms, a monotonic clock) so the tests decide
 * what "later" means.
 *
 * Pointers returned by a lookup or an iterator stay valid until the next
 * call that changes that table (update, delete, purge); copy what you need
 * to keep.  The link-key slot of a neighbour belongs to the origination
 * code: the table only wipes it (sodium_memzero) when the neighbour goes
 * down, is replaced, or the tables are freed.
 */
#ifndef BATSEC_FWD_TABLES_H
#define BATSEC_FWD_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "common/counters.h"
#include "proto/ipc_msg.h"
#include "proto/wire.h"

/* ---- capacities and timers ------------------------------------------------ */

#define FWD_NEIGH_MAX		IPC_MAX_NEIGH	/* all interfaces together */
#define FWD_ROUTE_MAX		4096		/* as ROUTING_ORIG_CAP */
#define FWD_ROUTE_EXPIRE_MS	60000		/* without ROUTE_ADD refresh */
#define FWD_RTT_MAX		8192		/* remote client entries */
#define FWD_GW_MAX		256
#define FWD_LTT_MAX		WIRE_TT_MAX	/* local clients (OGM TT TVLV) */
#define FWD_LTT_AGE_MS		300000		/* idle local client ageing */
#define FWD_BCAST_ORIG_MAX	1024		/* duplicate windows kept */
#define FWD_BCAST_WINDOW	64		/* seqnos remembered per orig */
/* A window not touched for this long restarts at the next seqno seen. */
#define FWD_BCAST_RESET_MS	30000
/*
 * After a ROUTE_ADD shows that an originator restarted (a higher epoch),
 * this long a seqno far from its window restarts the window too: the new
 * instance began at a random seqno, which is as likely behind the old
 * window as ahead of it.
 */
#define FWD_BCAST_GRACE_MS	10000

/* ---- data-plane counters (per interface, per neighbour, TAP) ------------ */

/*
 * X(field, "name shown by batsec-ctl").  Append-only; the control socket
 * prints them by name.
 */
#define FWD_DCOUNT_LIST(X) \
	X(rx_frames,		"rx_frames") \
	X(rx_bytes,		"rx_bytes") \
	X(tx_frames,		"tx_frames") \
	X(tx_bytes,		"tx_bytes") \
	X(drop_no_route,	"drop_no_route") \
	X(drop_ttl,		"drop_ttl") \
	X(drop_not_neigh,	"drop_not_neighbour") \
	X(drop_malformed,	"drop_malformed") \
	X(drop_dup_bcast,	"drop_dup_bcast") \
	X(drop_own_bcast,	"drop_own_bcast") \
	X(drop_own_unicast,	"drop_own_unicast") \
	X(drop_tap_write,	"drop_tap_write") \
	X(drop_send,		"drop_send") \
	X(drop_too_big,		"drop_too_big")

COUNTERS_STRUCT(fwd_dcount, FWD_DCOUNT_LIST);

/* Number of counters and the i-th one by index (for dumps). */
#define FWD_DCOUNT_N	(sizeof(struct fwd_dcount) / sizeof(uint64_t))
const char *fwd_dcount_name(size_t i);
uint64_t fwd_dcount_get(const struct fwd_dcount *c, size_t i);

/* ---- entries ---------------------------------------------------------------- */

/* The hop key of the link with a neighbour (DP2.md): the SipHash-2-4 key
 * and its key id; has_key 0 until known.  Also the in-kernel relay's
 * (fwd_fast.c copies it into its neighbour map). */
struct fwd_hop {
	uint8_t key[16];
	uint8_t keyid[4];
	int has_key;
};

struct fwd_neigh {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];	/* == bs_mesh_addr(pk) */
	uint8_t mac[BS_ADDR_LEN];	/* its interface MAC */
	uint32_t ifindex;
	uint8_t tq;			/* link TQ from the parser */
	uint8_t rx_count;		/* its HELLOs we heard, of the last 64 */
	uint64_t up_ms;			/* when it came up */
	uint64_t last_ms;		/* last IPC_NEIGH UP about it */
	/*
	 * Owned by the origination code (fwd_link_key cache): the link key
	 * with this neighbour, and its key id.  Zero and has_key 0 when the
	 * entry is created; wiped when it goes.
	 */
	uint8_t link_key[BS_LINKKEY_LEN];
	int has_key;
	uint8_t key_id[BS_KEYID_LEN];
	struct fwd_hop hop;		/* the data frames' hop key */
	struct fwd_dcount c;		/* data frames from/to it */
	/* private: hash chains */
	int32_t next_addr_;
	int32_t next_mac_;
	uint8_t used_;
};

struct fwd_route {
	uint8_t orig_pk[BS_PK_LEN];
	uint8_t orig_addr[BS_ADDR_LEN];
	uint8_t nexthop[BS_ADDR_LEN];	/* a neighbour's mesh address */
	uint32_t ifindex;
	uint8_t tq;
	uint8_t hops;
	uint32_t epoch;			/* the originator's, newest seen */
	uint64_t added_ms;		/* first ROUTE_ADD */
	uint64_t refresh_ms;		/* last ROUTE_ADD (last seen) */
	int32_t next_;			/* private */
	uint8_t used_;
};

/* One client MAC an originator announces. */
struct fwd_client {
	uint8_t mac[BS_ADDR_LEN];
	uint16_t vid;			/* 0 or WIRE_VID_TAGGED | id */
	uint8_t orig_addr[BS_ADDR_LEN];
	uint64_t since_ms;		/* when this orig announced it */
	int32_t next_;			/* private */
	uint8_t used_;
};

struct fwd_gw {
	uint8_t orig_addr[BS_ADDR_LEN];
	uint32_t down;			/* units of 100 kbit/s */
	uint32_t up;
	uint64_t last_ms;
	int32_t next_;			/* private */
	uint8_t used_;
};

/* One client on our own batsec0 side. */
struct fwd_local {
	uint8_t mac[BS_ADDR_LEN];
	uint16_t vid;
	int permanent;			/* the TAP's own MAC: never ages */
	uint64_t first_ms;
	uint64_t last_ms;
	int32_t next_;			/* private */
	uint8_t used_;
};

/* What the tables refused or threw away (the "stats" dump). */
struct fwd_tables_counters {
	uint64_t neigh_full;		/* NEIGH UP refused: table full */
	uint64_t route_full;
	uint64_t route_expired;
	uint64_t client_full;
	uint64_t gw_full;
	uint64_t local_full;		/* source MAC not learnt: full */
	uint64_t local_aged;
	uint64_t bcast_evicted;		/* duplicate window reused */
	uint64_t bcast_restarts;	/* originator restarted: its window
					   took a new start (FWD_BCAST_GRACE_MS) */
};

struct fwd_tables;	/* opaque */

/* ---- life cycle ------------------------------------------------------------- */

/* All tables, empty.  NULL when out of memory. */
struct fwd_tables *fwd_tables_new(void);
/* Wipe the link keys and free; NULL is fine. */
void	fwd_tables_free(struct fwd_tables *t);
const struct fwd_tables_counters *fwd_tables_counters(
	    const struct fwd_tables *t);

/*
 * Called from the loop (about once a second is plenty): expire routes not
 * refreshed for FWD_ROUTE_EXPIRE_MS and local clients idle for
 * FWD_LTT_AGE_MS.  Returns how many entries went.
 */
size_t	fwd_tables_purge(struct fwd_tables *t, uint64_t now_ms);

/* Forget everything learnt from the parser (it died; the new one resends). */
void	fwd_tables_parser_reset(struct fwd_tables *t);

/* ---- neighbours ------------------------------------------------------------ */

enum fwd_neigh_rc {
	FWD_NEIGH_FULL = -1,		/* UP refused: FWD_NEIGH_MAX are up */
	FWD_NEIGH_SAME = 0,		/* UP for a known one, nothing changed */
	FWD_NEIGH_NEW = 1,		/* a new neighbour came up */
	FWD_NEIGH_CHANGED = 2,		/* mac, tq or rx_count changed */
	FWD_NEIGH_GONE = 3,		/* DOWN removed it */
	FWD_NEIGH_UNKNOWN = 4,		/* DOWN for one we did not have */
};

/*
 * Apply an IPC_NEIGH (already passed ipc_check).  UP for an (addr,
 * ifindex) whose pk differs from the stored one replaces the entry (keys
 * wiped).  Routes through a neighbour that goes down stay until the
 * parser deletes them, but the data plane finds no neighbour and drops.
 */
enum fwd_neigh_rc fwd_neigh_update(struct fwd_tables *t,
	    const struct ipc_neigh *m, uint64_t now_ms);
struct fwd_neigh *fwd_neigh_find(struct fwd_tables *t,
	    const uint8_t addr[static BS_ADDR_LEN], uint32_t ifindex);
/* By interface MAC; the Ethernet source check of data frames. */
struct fwd_neigh *fwd_neigh_find_mac(struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint32_t ifindex);
/* By public key (the IPC_LINK_KEY answer). */
struct fwd_neigh *fwd_neigh_find_pk(struct fwd_tables *t,
	    const uint8_t pk[static BS_PK_LEN], uint32_t ifindex);
/*
 * Iterate: start with *cursor = 0; returns the next neighbour on ifindex
 * (0: on every interface), NULL at the end.  Do not change the table
 * while iterating.
 */
struct fwd_neigh *fwd_neigh_next(struct fwd_tables *t, uint32_t ifindex,
	    size_t *cursor);
size_t	fwd_neigh_count(const struct fwd_tables *t, uint32_t ifindex);
/* Drop every neighbour (and their keys) on an interface that went away. */
size_t	fwd_neigh_flush_iface(struct fwd_tables *t, uint32_t ifindex);

/* ---- routes ---------------------------------------------------------------- */

/*
 * Apply IPC_ROUTE_ADD: add, change, or refresh (refresh_ms = now_ms).
 * 0, or -1 when the table is full (counted).
 */
int	fwd_route_add(struct fwd_tables *t, const struct ipc_route *r,
	    uint64_t now_ms);
/* Apply IPC_ROUTE_DEL: 1 removed, 0 there was none. */
int	fwd_route_del(struct fwd_tables *t,
	    const uint8_t orig_addr[static BS_ADDR_LEN]);
const struct fwd_route *fwd_route_find(const struct fwd_tables *t,
	    const uint8_t orig_addr[static BS_ADDR_LEN]);
const struct fwd_route *fwd_route_next(const struct fwd_tables *t,
	    size_t *cursor);
size_t	fwd_route_count(const struct fwd_tables *t);

/* ---- remote translation table ------------------------------------------- */

/*
 * Apply IPC_TT: the originator's client set becomes exactly m->e[0..count)
 * (count 0 clears it).  A MAC another originator announced moves to this
 * one (roaming).  Returns the entries stored; fewer than count when the
 * table is full (counted).
 */
size_t	fwd_client_set(struct fwd_tables *t, const struct ipc_tt *m,
	    uint64_t now_ms);
const struct fwd_client *fwd_client_find(const struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid);
const struct fwd_client *fwd_client_next(const struct fwd_tables *t,
	    size_t *cursor);
size_t	fwd_client_count(const struct fwd_tables *t);

/* ---- gateways --------------------------------------------------------------- */

/* Apply IPC_GW: announce stores/updates, withdraw removes.  0 or -1 full. */
int	fwd_gw_update(struct fwd_tables *t, const struct ipc_gw *m,
	    uint64_t now_ms);
const struct fwd_gw *fwd_gw_find(const struct fwd_tables *t,
	    const uint8_t orig_addr[static BS_ADDR_LEN]);
const struct fwd_gw *fwd_gw_next(const struct fwd_tables *t, size_t *cursor);
size_t	fwd_gw_count(const struct fwd_tables *t);

/* ---- local translation table -------------------------------------------- */

/* The TAP's own MAC: a permanent entry (replaces the previous one). */
int	fwd_local_set_own(struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint64_t now_ms);
/*
 * A frame from batsec0 with this source: learn or refresh it.  Ignores
 * non-unicast sources.  1 new, 0 refreshed/ignored, -1 table full.
 */
int	fwd_local_learn(struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
	    uint64_t now_ms);
const struct fwd_local *fwd_local_find(const struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid);
const struct fwd_local *fwd_local_next(const struct fwd_tables *t,
	    size_t *cursor);
size_t	fwd_local_count(const struct fwd_tables *t);
/*
 * Fill out[0..max) for wire_tvlv_put_tt(): the local clients, at most
 * min(max, WIRE_TT_MAX).  out[i].mac points into the table (valid until
 * the local table changes).  Returns the count; 0 means omit the TVLV.
 * *version (optional) changes whenever the set changed.
 */
unsigned fwd_local_tt(const struct fwd_tables *t, struct wire_tt_entry *out,
	    unsigned max, uint64_t *version);

/* ---- broadcast duplicate windows (the data plane) ------------------------ */

/*
 * 1 when BCAST (orig, seqno) is seen for the first time (and remember it),
 * 0 when it is a duplicate or too old.  The table keeps
 * FWD_BCAST_ORIG_MAX originators and reuses the oldest slot when full.
 * A seqno FWD_BCAST_WINDOW or more behind the newest restarts the window
 * (and is taken) when the window was idle for FWD_BCAST_RESET_MS, or
 * within FWD_BCAST_GRACE_MS of a ROUTE_ADD with a higher epoch for orig
 * (fwd_route_add); otherwise it is dropped as an old copy.
 */
int	fwd_bcast_check(struct fwd_tables *t,
	    const uint8_t orig[static BS_ADDR_LEN], uint32_t seqno,
	    uint64_t now_ms);

#endif /* BATSEC_FWD_TABLES_H */
