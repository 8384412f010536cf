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
#define FWD_LTT_MAX		1024		/* local clients (batsecd(8)) */
#define FWD_LTT_AGE_MS		300000		/* idle local client ageing */
#define FWD_ROAM_QUIET_MS	500		/* roaming: see fwd_client_set */
#define FWD_ROAM_WITHDRAW_MAX	8		/* ... withdrawals per window */
#define FWD_ROAM_WINDOW_MS	60000
#define FWD_E2E_MAX		1024		/* originators with data state */
/* Replay windows per neighbour: lane 0 (batsecd) and the kernel's lanes. */
#define FWD_HOP_LANES		17

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
	X(drop_too_big,		"drop_too_big") \
	X(drop_version,		"drop_version") \
	X(drop_no_key,		"drop_no_key") \
	X(drop_stale_key,	"drop_stale_key") \
	X(drop_bad_tag,		"drop_bad_tag") \
	X(drop_replay,		"drop_replay") \
	X(drop_epoch,		"drop_epoch") \
	X(drop_e2e,		"drop_e2e") \
	X(drop_bad_sig,		"drop_bad_sig") \
	X(drop_sig_budget,	"drop_sig_budget") \
	X(drop_isolated_out,	"drop_ap_isolation_out") \
	X(drop_isolated_in,	"drop_ap_isolation_in") \
	X(tx_aes,		"tx_aes256gcm") \
	X(rx_aes,		"rx_aes256gcm")

COUNTERS_STRUCT(fwd_dcount, FWD_DCOUNT_LIST);

/* Number of counters and the i-th one by index (for dumps). */
#define FWD_DCOUNT_N	(sizeof(struct fwd_dcount) / sizeof(uint64_t))
const char *fwd_dcount_name(size_t i);
uint64_t fwd_dcount_get(const struct fwd_dcount *c, size_t i);

/* ---- entries ---------------------------------------------------------------- */

/*
 * One key of a link (batsec-protocol(7), "Data frames" and "LINK KEYS"):
 * the SipHash hop key and the OGM key from one root, their ids, what the
 * root was made of (both salts, the MACs and the neighbour's epoch), and
 * a replay window per lane of the neighbour's hop counter.  Made by
 * fwd_links.c; wiped when the neighbour goes.
 */
struct fwd_hop {
	uint8_t key[BS_HOPKEY_LEN];
	uint8_t keyid[BS_KEYID_LEN];
	int has_key;
	uint32_t peer_epoch;		/* the epochs the key is for */
	uint8_t ogm_key[BS_LINKKEY_LEN];	/* the OGM trailer key */
	uint8_t ogm_keyid[BS_KEYID_LEN];
	uint8_t own_salt[BS_LINKSALT_LEN];	/* the salts it is for */
	uint8_t peer_salt[BS_LINKSALT_LEN];
	uint8_t own_mac[BS_ADDR_LEN];	/* the MACs it is for */
	uint8_t peer_mac[BS_ADDR_LEN];
	uint64_t used_ms;		/* a frame last verified under it */
	struct bs_replay rx[FWD_HOP_LANES];
	uint64_t sig_tokens_ms;		/* BCAST verify budget (fwd_data.c) */
	uint32_t sig_tokens;
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
	uint32_t epoch;			/* its HELLOs' (IPC_NEIGH) */
	uint8_t salt[BS_LINKSALT_LEN];	/* its HELLOs' link salt (IPC_NEIGH) */
	/*
	 * Owned by fwd_links.c: the key we send under (and accept), and
	 * the other one we accept until alt_until_ms (0: until our own
	 * rotation makes it the one we send under).
	 */
	struct fwd_hop hop;
	struct fwd_hop alt;
	uint64_t alt_until_ms;
	struct fwd_hop old;		/* an older one, until old_until_ms */
	uint64_t old_until_ms;
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
	uint8_t n_alt;			/* the other candidates ... */
	struct ipc_route_cand alt[IPC_ROUTE_ALT_MAX];	/* (ROUTE_ALT) */
	int32_t next_;			/* private */
	uint8_t used_;
};

/* One client MAC an originator announces. */
struct fwd_client {
	uint8_t mac[BS_ADDR_LEN];
	uint16_t vid;			/* 0 or WIRE_VID_TAGGED | id */
	uint8_t orig_addr[BS_ADDR_LEN];
	uint8_t flags;			/* WIRE_TT_F_*, as last announced */
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
	uint64_t contest_ms;		/* another originator's claim came,
					   0 none (roaming, fwd_client_set) */
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
	uint64_t local_learnt;		/* new local clients (not the TAP) */
	uint64_t local_contested;	/* another originator claimed one */
	uint64_t local_withdrawn;	/* ... and we withdrew it (roamed) */
	uint64_t local_kept;		/* ... kept: withdrawals over budget */
	uint64_t e2e_evicted;		/* data state of an originator reused */
	uint64_t bcast_restarts;	/* originator restarted: its broadcast
					   window moved to its new epoch */
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
 * FWD_LTT_AGE_MS, withdraw contested local clients not heard since the
 * other claim came (fwd_client_set).  Returns how many entries went.
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
/*
 * Apply IPC_ROUTE_ALT: the route's other next-hop candidates (display
 * only).  0, or -1 when there is no route to the originator.
 */
int	fwd_route_alt(struct fwd_tables *t, const struct ipc_route_alt *a);
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
 *
 * Roaming: when a MAC that is one of our own (non-permanent) local
 * clients comes to be claimed by another originator (the parser passed
 * that claim: it is signed, and the newest one), the client has
 * presumably moved there.  Not heard on batsec0 for FWD_ROAM_QUIET_MS:
 * it is withdrawn from the local table at once (we stop announcing it);
 * else it is marked contested and fwd_tables_purge withdraws it unless
 * it spoke again after the claim came.  A withdrawn client that speaks
 * again is learnt afresh (and announced again).  At most
 * FWD_ROAM_WITHDRAW_MAX withdrawals per FWD_ROAM_WINDOW_MS: a node that
 * claims our clients in bulk (a claim proves nothing about where the
 * client is) cannot make us give them all up; past that, a contested
 * client stays ours (counted in local_kept).
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
/* The last local client withdrawn (fwd_client_set); zeros when none. */
void	fwd_local_last_withdrawn(const struct fwd_tables *t,
	    uint8_t mac[static BS_ADDR_LEN], uint16_t *vid);
/*
 * A frame from batsec0 with this source: learn or refresh it.  Ignores
 * non-unicast sources.  1 new, 0 refreshed/ignored, -1 table full.
 */
int	fwd_local_learn(struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
	    uint64_t now_ms);
/*
 * Forget a learnt local client (bridge loop avoidance, fwd_bla.h: another
 * backbone gateway serves it now): 1 gone, 0 not there or permanent.
 */
int	fwd_local_forget(struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid);
const struct fwd_local *fwd_local_find(const struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid);
const struct fwd_local *fwd_local_next(const struct fwd_tables *t,
	    size_t *cursor);
size_t	fwd_local_count(const struct fwd_tables *t);
/*
 * AP isolation (batsec.conf(5) ap-isolation): when on, every local client
 * but the TAP's own MAC is announced with WIRE_TT_F_ISOLATED.  A change
 * changes the version fwd_local_tt() reports.
 */
void	fwd_local_set_isolated(struct fwd_tables *t, int on);
int	fwd_local_isolated(const struct fwd_tables *t);
/* 1 when mac is the TAP's own MAC (the permanent entry). */
int	fwd_local_is_own(const struct fwd_tables *t,
	    const uint8_t mac[static BS_ADDR_LEN]);
/*
 * Fill out[0..max) with the local clients (at most max): for
 * wire_tvlv_put_tt() when there are WIRE_TT_MAX or fewer, else for the
 * pages of fwd_ttpage.h.  out[i].mac points into the table (valid until
 * the local table changes).  Returns the count; 0 means omit the TVLV.
 * *version (optional) changes whenever the set changed.
 */
unsigned fwd_local_tt(const struct fwd_tables *t, struct wire_tt_entry *out,
	    unsigned max, uint64_t *version);

/* ---- per-originator data state (the data plane) -------------------------- */

/*
 * What the data plane keeps per originator it exchanges frames with: the
 * end-to-end keys of both directions for one epoch of the peer (and ours),
 * for both AEADs, whether the peer offered AES-256-GCM,
 * our send counter, the receive window, and the broadcast window of the
 * peer's current epoch.  FWD_E2E_MAX are kept; when full, the one
 * created longest ago is reused (counted as e2e_evicted).
 */
struct fwd_e2e {
	uint8_t orig[BS_ADDR_LEN];
	uint32_t epoch;			/* the peer's epoch of the keys; 0: none */
	uint8_t tx_key[BS_E2EKEY_LEN];	/* ChaCha20-Poly1305 */
	uint8_t rx_key[BS_E2EKEY_LEN];
	uint8_t tx_aes[BS_E2EKEY_LEN];	/* AES-256-GCM, if we offer it */
	uint8_t rx_aes[BS_E2EKEY_LEN];
	uint8_t peer_aes;		/* its last frame that opened offered
					   AES-256-GCM (WIRE_E2E_S_CAN_AES) */
	uint64_t tx_ctr;		/* last counter sent (56 bits) */
	struct bs_replay rx;
	uint32_t bcast_epoch;		/* epoch of the broadcast window */
	struct bs_replay bcast;
	int32_t next_;			/* private */
	uint8_t used_;
};

/* The state of orig, or NULL; with create, a new (zeroed) one if none. */
struct fwd_e2e *fwd_e2e_get(struct fwd_tables *t,
	    const uint8_t orig[static BS_ADDR_LEN], int create);
/*
 * Forget the data state of orig (keys wiped): its key is no longer
 * admitted (fwd_admit.h).  Its slot is not reused before its turn.
 */
void	fwd_e2e_forget(struct fwd_tables *t,
	    const uint8_t orig[static BS_ADDR_LEN]);
/*
 * Mark broadcast (epoch, seqno) of p seen: a newer epoch than the
 * window's starts the window anew (counted as bcast_restarts when it had
 * one).
 */
void	fwd_e2e_bcast_mark(struct fwd_tables *t, struct fwd_e2e *p,
	    uint32_t epoch, uint32_t seqno);

#endif /* BATSEC_FWD_TABLES_H */
