/*
 * fwd_links.h — the keys of each link with a neighbour (batsec-protocol(7),
 * "LINK KEYS"): our link salt per mesh interface, its rotation, and the
 * two key slots of each neighbour entry.
 *
 * A link's root R comes from the static link key of the two node keys
 * (bs_link_key, never stored and never handed out) and both ends' MAC,
 * epoch and link salt (bs_link_root); from R the hop key of the data
 * frames and the OGM key of the OGM trailers (bs_hop_key, bs_ogm_key).
 * Only the OGM key leaves the forwarder, in IPC_LINK_KEY.
 *
 * Our salt of an interface is random, made when the interface is first
 * used, and made anew every rekey interval and at every parser respawn
 * (fwd_links_rotate_all).  The neighbour's salt comes from its HELLOs
 * (IPC_NEIGH).  A neighbour entry has two key slots (struct fwd_hop):
 *   hop  the key we send under, and accept;
 *   alt  the other key we accept: the new one during our own rotation
 *        (for tx_delay after the new salt, while our HELLOs tell the
 *        neighbour of it), then the old one for a grace period.
 * A new salt of the neighbour's puts the new key in hop at once and keeps
 * the old ones for the grace period: alt the one the neighbour used last,
 * old (a third slot) an older one still in its grace (both ends may be
 * rotating at once).  Each slot has its own replay windows.
 *
 * Floor: just above fwd_tables.c (it works on neighbour entries).
 */
#ifndef BATSEC_FWD_LINKS_H
#define BATSEC_FWD_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "fwd_tables.h"

#define FWD_LINKS_IF_MAX	32	/* interfaces with a salt */
/* link-rekey: the default and the bounds (batsec.conf(5)), ms. */
#define FWD_REKEY_DEFAULT_MS	(10 * 60 * 1000)
#define FWD_REKEY_MIN_MS	(10 * 1000)
#define FWD_REKEY_MAX_MS	(24 * 60 * 60 * 1000)
/*
 * We send under the old key for this many HELLO intervals after a new
 * salt of ours, and old keys are accepted for FWD_GRACE_HELLOS after they
 * stopped being the newest.
 */
#define FWD_TX_DELAY_HELLOS	2
#define FWD_GRACE_HELLOS	5
#define FWD_GRACE_MIN_MS	5000	/* and at least this long */

struct fwd_link_salt {
	uint32_t ifindex;		/* 0: free */
	uint8_t salt[BS_LINKSALT_LEN];	/* in our HELLOs */
	uint64_t made_ms;		/* when salt was made */
	uint64_t tx_new_ms;		/* we send under salt's keys from then */
	uint32_t gen;			/* salts made here */
};

struct fwd_links {
	const struct bs_identity *id;	/* our node key (not owned) */
	uint32_t epoch;			/* ours */
	uint64_t rekey_ms;
	uint64_t tx_delay_ms;
	uint64_t grace_ms;
	struct fwd_link_salt s[FWD_LINKS_IF_MAX];
	uint64_t rotations;		/* salts made anew */
	uint64_t keys_made;		/* roots derived */
	uint64_t keys_refused;		/* bs_link_key refused the peer */
};

/* Defaults: rekey FWD_REKEY_DEFAULT_MS, a HELLO interval of 1 s. */
void	fwd_links_init(struct fwd_links *L, const struct bs_identity *id,
	    uint32_t epoch);
/* The rekey interval (clamped to the bounds) and the HELLO interval. */
void	fwd_links_config(struct fwd_links *L, uint64_t rekey_ms,
	    uint64_t hello_ms);
/*
 * Our salt on ifindex (made on first use); made anew when rekey_ms have
 * passed.  NULL when the table is full.  *rotated (may be NULL) is set to
 * 1 when the salt was just made anew.
 */
const struct fwd_link_salt *fwd_links_salt(struct fwd_links *L,
	    uint32_t ifindex, uint64_t now_ms, int *rotated);
/* Our salt on ifindex, made on first use but never anew; NULL: full. */
const struct fwd_link_salt *fwd_links_own_salt(struct fwd_links *L,
	    uint32_t ifindex, uint64_t now_ms);
/* New salts on every interface at once (parser respawn). */
void	fwd_links_rotate_all(struct fwd_links *L, uint64_t now_ms);
/* Forget the salt of an interface that went away. */
void	fwd_links_iface_gone(struct fwd_links *L, uint32_t ifindex);

/*
 * Bring n's slots up to date with both ends' MAC, epoch and salt (ifmac:
 * ours on n's interface): derive the newest key when it is missing,
 * switch our sending to it when due, drop an old key after its grace.
 * 1 when n->hop holds a key (to send under), 0 when none can be made.
 */
int	fwd_links_ready(struct fwd_links *L, struct fwd_neigh *n,
	    const uint8_t ifmac[static BS_ADDR_LEN], uint64_t now_ms);
/*
 * The slot of n whose key id is keyid (hop or, while it lasts, alt), or
 * NULL.  Call fwd_links_ready first.
 */
struct fwd_hop *fwd_links_rx(struct fwd_neigh *n,
	    const uint8_t keyid[static BS_KEYID_LEN], uint64_t now_ms);
/*
 * The OGM key of the newest key of n (the one to hand the parser) and its
 * id; -1 when n has none.
 */
int	fwd_links_ogm_key(struct fwd_links *L, struct fwd_neigh *n,
	    const uint8_t ifmac[static BS_ADDR_LEN], uint64_t now_ms,
	    uint8_t key[static BS_LINKKEY_LEN],
	    uint8_t key_id[static BS_KEYID_LEN]);

#endif /* BATSEC_FWD_LINKS_H */
