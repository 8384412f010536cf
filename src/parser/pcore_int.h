/*
 * pcore_int.h — the parser core's types: struct pcore and everything it
 * holds (interfaces, the parser's side of each neighbour, the attack-
 * resistance state), the outcomes of a frame and of an OGM entry, and
 * what the core keeps in an originator's aux bytes.  Types and constants
 * only, no functions: each module declares its own in its header.
 *
 * Every module of the core includes this; it is their floor.  Nothing
 * outside src/parser includes it by name: callers get it through pcore.h,
 * the public API, because they hold a struct pcore and read its counters
 * and table sizes (tests, fuzz harnesses, the simulator).
 *
 * The modules, each including only what is below it (pcore.h tells the
 * pipeline; DESIGN.md §5):
 *	pcore.c		configuration, interfaces, dispatch, periodic work
 *	pcore_hello.c, pcore_ogm.c	the two receive pipelines
 *	pcore_rt.c	routing parameters; the tables follow the policy
 *	pcore_neigh.c	the neighbour store, routing events, routes out
 *	pcore_drop.c	what a refused frame or entry counts as
 *	pcore_claims.c	who owns a client MAC
 *	pcore_limits.c	buckets, per-source table, epoch memory, admission,
 *			neighbour slots by class, when a stranger is pinned
 *	pcore_trust.c	key classes: certificates, pins, revocations
 *	pcore_base.c	output, log, counters, counted signature checks
 *	sigcache.c	the signature and hop-chain cache (no pcore types)
 */
#ifndef BATSEC_PCORE_INT_H
#define BATSEC_PCORE_INT_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "proto/ipc_msg.h"
#include "common/log.h"
#include "routing/routing_types.h"
#include "sigcache.h"

struct bs_policy;
struct pcore_trust;		/* pcore_trust.c */
struct pl_src;			/* pcore_limits.h */
struct pl_mem;
struct pl_claim;
struct pl_ttsync;
struct pl_pincand;

#define PCORE_MAX_IFACES	32	/* as IPC_CTX_MAX_IFACES */
#define PCORE_MAX_NEIGH		IPC_MAX_NEIGH	/* as the forwarder */

/* Why a frame was refused.  Append only: the values index counters. */
enum pcore_drop {
	PCORE_ACCEPT = 0,	/* not a drop: the frame passed */
	PCORE_DROP_NOCONFIG,	/* before the forwarder's CONFIG */
	PCORE_DROP_IFACE,	/* unknown interface */
	PCORE_DROP_IFACE_DOWN,	/* interface is down */
	PCORE_DROP_SRC,		/* Ethernet source not unicast / zero */
	PCORE_DROP_EMPTY,	/* no payload */
	PCORE_DROP_VERSION,	/* protocol version is not 1 */
	PCORE_DROP_TYPE,	/* unknown frame type */
	PCORE_DROP_DATA,	/* UNICAST/BCAST: the forwarder's business */
	PCORE_DROP_MALFORMED,	/* the wire codec refused it */
	PCORE_DROP_HELLO_MAC,	/* HELLO interface MAC != Ethernet source */
	PCORE_DROP_OWN,		/* our own HELLO or OGM came back */
	PCORE_DROP_POLICY,	/* HELLO key refused by the policy */
	PCORE_DROP_SIG,		/* HELLO signature does not verify */
	PCORE_DROP_REPLAY,	/* HELLO not newer, or frame counter not
				   above the last one accepted */
	PCORE_DROP_NOT_NEIGH,	/* OGM sender: no neighbour (or MAC) */
	PCORE_DROP_NO_LINK_KEY,	/* the sender's link key is not known */
	PCORE_DROP_LINK_AUTH,	/* no tag for us, bad tag or signature */
	PCORE_DROP_TABLE_FULL,	/* HELLO: the neighbour table is full */
	PCORE_DROP_ROUTING,	/* HELLO: address of another key there */
	PCORE_DROP_RATE,	/* source or neighbour over its frame rate */
	PCORE_DROP_BUDGET,	/* HELLO, or OGM frame with a signature
				   trailer, over the verification budget */
	PCORE_DROP_COUNT
};

/* What became of one entry of an authenticated OGM frame. */
enum pcore_entry {
	PCORE_E_ACCEPT = 0,	/* routing_ogm() took it */
	PCORE_E_OWN,		/* our own OGM */
	PCORE_E_POLICY,		/* originator refused by the policy */
	PCORE_E_HOPS,		/* hops-0 rule, TQ ceiling or hop chain */
	PCORE_E_OLD,		/* older epoch / seqno out of the window */
	PCORE_E_DUP,		/* duplicate, echo of our relay, or loop */
	PCORE_E_FULL,		/* table (or stranger share) full */
	PCORE_E_ROUTING,	/* another refusal of the routing core */
	PCORE_E_SIG,		/* signature does not verify */
	PCORE_E_INTRO,		/* new originator over the intro quota */
	PCORE_E_BUDGET,		/* over the verification budget */
	PCORE_E_NODESC,		/* compact entry without a usable chain
				   reference: wait for a full entry */
	PCORE_E_CHAIN,		/* compact entry's OGM chain element wrong */
	PCORE_E_COUNT
};

/*
 * Compact entries (pcore_ogm.c): the hashes free per entry (one sequence
 * number ahead plus a hop difference); beyond that each started
 * PCORE_CHAIN_UNIT hashes are paid as one signature check from the
 * verification budgets (192 BLAKE2b compressions of 224 ns cost about
 * one Ed25519 check, 43 us, on the 2-core x86-64 VM); and the most one
 * entry may cost: 69 sequence numbers, 12 units.  That is what a node
 * walks after it took an originator's last full entry from a neighbour
 * (descriptions for new neighbours and on request, pcore_desc.h): full
 * entries go at least every 64th interval (FWD_FULL_EVERY), so the next
 * compact entry may be 64 sequence numbers ahead of it, plus a fisheye
 * gap of 4 and a hop difference.  A shorter limit (17, when full entries
 * went every 16th) left such a node asking for the same stale entry
 * again and again (in the simulator 0.2 % of the node-originator pairs
 * of N = 1 000 never routed).
 */
#define PCORE_CHAIN_FREE	(2 * BS_MAXHOPS)
#define PCORE_CHAIN_UNIT	192
#define PCORE_CHAIN_MAX		(69 * BS_MAXHOPS)	/* 2 208 */

/*
 * Fisheye relaying (batsec-protocol(7), "OGM CHAIN", after OLSR's
 * fisheye): a relay hands on a COMPACT entry whose relayed hops value r
 * is at least PCORE_FISHEYE_HOPS only for sequence numbers that are
 * multiples of pcore_fisheye_gap(r) (pcore_base.h): 1 below 8 hops, 2
 * below 16, PCORE_FISHEYE_GAP = 4 from 16 on (measured with the
 * simulator, bench/sim --fisheye: gap 8 from 16 hops on, or starting
 * at 4 hops, saved more bytes but left more routing loops at N = 300
 * and 1 000).  The gaps are powers of two and grow with r, so every
 * relay along a path keeps a subset of what the one before it kept:
 * the same sequence numbers survive end to end.  Full entries, the
 * hand-ons of pcore_desc.c, and every compact entry while a neighbour
 * needs descriptions are always relayed.
 *
 * The receiver expects the gap g of the hops an entry arrives with: a
 * walk towards the seed (a newer entry) is free up to BS_MAXHOPS x 2 g
 * hashes (one gap and one lost copy, or one gap and a hop difference;
 * 64 at g = 1, as PCORE_CHAIN_FREE) and walked up to BS_MAXHOPS x
 * (2 g + 2) (one lost copy and a hop difference), never less than
 * PCORE_CHAIN_MAX: 256 free and 544 walked at g = 4.  A walk away from
 * the seed (an older entry) keeps PCORE_CHAIN_FREE and PCORE_CHAIN_MAX:
 * forward walks are bounded in total by how far the originator's chain
 * really moved, backward ones are not.  No gap above
 * PCORE_FISHEYE_GAP_MAX is ever used (pcore.fisheye_gap_max, which the
 * simulator may raise to it), so no walk exceeds PCORE_CHAIN_MAX_FISHEYE
 * = 576 hashes beyond PCORE_CHAIN_MAX's, which is larger: no walk
 * exceeds PCORE_CHAIN_MAX.
 */
#define PCORE_FISHEYE_HOPS	8
#define PCORE_FISHEYE_GAP	4
#define PCORE_FISHEYE_GAP_MAX	8
#define PCORE_CHAIN_MAX_FISHEYE	((2 * PCORE_FISHEYE_GAP_MAX + 2) * BS_MAXHOPS)

/* Wire codec errors are 0..-17 (enum wire_err); counted by -err. */
#define PCORE_WIRE_ERRS		18

/* What the parser knows about a mesh interface (from IPC_IFACE). */
struct pcore_iface {
	uint32_t ifindex;		/* 0: free slot */
	uint32_t mtu;
	uint8_t mac[BS_ADDR_LEN];
	uint8_t up;
	uint8_t hop_penalty;		/* on OGMs received here */
	uint8_t half_duplex;		/* wireless: relays sent back out
					   here pay the hop penalty again */
	char name[IFNAMSIZ];
	uint64_t sign_ask_ms;		/* IPC_HELLO_SIGN: none before */
};

enum pcore_key_state {
	PCORE_KEY_NONE = 0,		/* not asked for yet */
	PCORE_KEY_REQUESTED,		/* LINK_KEY_REQ sent */
	PCORE_KEY_OK,			/* key and key_id hold it */
	PCORE_KEY_REFUSED,		/* the forwarder could not */
};

/*
 * A token bucket: burst tokens, refilled at rate per second, kept in
 * thousandths.  A zeroed bucket is full the first time it is used.
 */
struct pl_bucket {
	uint64_t milli;
	uint64_t last_ms;
	uint32_t started;
	uint32_t reserved;
};

/* The attack-resistance state (pcore_limits.h). */
struct pcore_limits {
	uint8_t key[16];		/* hashes: derived from rt_key */
	struct pl_src *src;		/* PL_SRC_SLOTS, NULL before CONFIG */
	struct pl_mem *mem;		/* PL_MEM_SLOTS */
	struct pl_claim *claims;	/* PL_CLAIM_SLOTS */
	struct pl_ttsync *ttsync;	/* PL_TTSYNC_MAX (pcore_ttpage.h) */
	uint32_t mem_stamp;
	struct pl_bucket intro;		/* intro-global-rate / -burst */
	struct pl_bucket verify;	/* verify-global-rate / -burst */
	struct pl_bucket spill;		/* PL_SPILL_MULT x frame limits */
	uint8_t under_load;
	uint64_t under_load_entered;
	struct log_rl note_rl;		/* notices about attacks */
	/* Strangers holding a route, not pinned yet (pcore_lim_pins). */
	struct pl_pincand *pincand;	/* PCORE_PIN_MAX, sorted by key */
	size_t n_pincand;
	uint32_t pin_mark;
	uint64_t pins_ms;		/* last pass */
};

/*
 * The parser's side of a neighbour, next to its routing entry (same
 * identity, created and removed with it): what was told to the
 * forwarder, the link key, and the replay state of its OGM frames.
 */
struct pcore_neigh {
	uint32_t ifindex;		/* 0: free slot */
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t announced;		/* NEIGH UP went out (and no DOWN) */
	uint8_t key_state;		/* enum pcore_key_state */
	uint8_t have_counter;
	uint32_t epoch;			/* the epoch NEIGH UP last told */
	uint8_t salt[BS_LINKSALT_LEN];	/* the link salt NEIGH UP last told */
	uint8_t key_id[BS_KEYID_LEN];
	uint8_t key[BS_LINKKEY_LEN];	/* secret: wiped when it goes */
	/*
	 * The key before the last one the forwarder gave, accepted too
	 * until a frame verifies under the new one (a rotation's overlap,
	 * batsec-protocol(7) LINK KEYS); has_prev 0: none.
	 */
	uint8_t has_prev;
	uint8_t prev_key_id[BS_KEYID_LEN];
	uint8_t prev_key[BS_LINKKEY_LEN];	/* secret */
	uint64_t counter;		/* last frame counter accepted */
	uint64_t key_req_ms;		/* when LINK_KEY_REQ went out */
	/* Attack resistance (pcore_limits.h). */
	struct pl_bucket frames;	/* authenticated OGM frames */
	struct pl_bucket intro;		/* new originators */
	struct pl_bucket verify;	/* OGM entry verifications */
	uint32_t strangers;		/* strangers it introduced */
	uint64_t pin_period_ms;		/* its pin period began (0: none) */
	uint32_t pins;			/* TOFU pins it caused in it */
	uint64_t want_period_ms;	/* its wants (pcore_desc_wanted) */
	unsigned want_n;
};

/*
 * Output callback: send one message (as ipc_send takes it).  0 on
 * success; -1 when it could not be sent (pcore counts it and goes on).
 */
typedef int (*pcore_emit_fn)(void *arg, uint16_t type, const void *obj,
    size_t objsize);

/*
 * The link key of a neighbour that left the routing table (it missed a
 * few HELLOs: loss, an outage), kept so that its next tagged HELLO can
 * bring it back at once (pcore_hello.c): without it, a node that lost a
 * neighbour which still lists it would take it again only at that
 * neighbour's next signed HELLO, up to FWD_HELLO_SIGN_EVERY intervals
 * later.  When both lost each other, neither tags for the other: the
 * first tagged HELLO of the other asks for a signed HELLO of ours
 * (pcore_hello.h, IPC_HELLO_SIGN), which brings them back.  The key is the one
 * the parser held; a neighbour that restarted or made a new salt has
 * another.  PCORE_LOST_KEYS of them, the oldest overwritten.
 */
#define PCORE_LOST_KEYS		64
/* Originators whose full entries pcore_desc_ask asked for lately. */
#define PCORE_WANT_RECENT	64
struct pcore_lost_key {
	uint32_t ifindex;		/* 0: free */
	uint8_t addr[BS_ADDR_LEN];
	uint8_t pk[BS_PK_LEN];
	uint8_t key[BS_LINKKEY_LEN];
	uint8_t key_id[BS_KEYID_LEN];
	uint32_t epoch;			/* its HELLOs' epoch when it left */
};

struct pcore {
	pcore_emit_fn emit;
	void *emit_arg;

	/* CONFIG from the forwarder; configured is 0 until it arrived. */
	int configured;
	struct ipc_config cfg;
	/*
	 * 1: no fisheye relaying and no gap expected by the receiver (every
	 * compact entry relayed, PCORE_CHAIN_FREE / _MAX, claims as without
	 * it): the simulator's --no-fisheye, for comparison.  Not in the
	 * IPC config; batsecd leaves it 0.
	 */
	uint8_t no_fisheye;
	/*
	 * The fisheye rule (pcore_fisheye_gap): gap 2 from fisheye_hops
	 * relayed hops on, doubling at each doubling of the hops, at most
	 * fisheye_gap_max (a power of two <= PCORE_FISHEYE_GAP_MAX).
	 * pcore_init sets PCORE_FISHEYE_HOPS and PCORE_FISHEYE_GAP; the
	 * simulator's --fisheye HOPS,GAP tries others.
	 */
	uint8_t fisheye_hops;
	uint8_t fisheye_gap_max;

	struct bs_policy *policy;	/* NULL until the first snapshot:
					   every key is refused until then */
	uint32_t policy_serial;

	struct pcore_iface ifaces[PCORE_MAX_IFACES];

	/* Created by the first CONFIG; caps from the policy's limits. */
	struct routing *rt;
	struct sigcache sigs;
	struct pcore_neigh neigh[PCORE_MAX_NEIGH];
	struct pcore_lost_key lost[PCORE_LOST_KEYS];
	unsigned lost_next;
	uint32_t n_strangers;		/* originators of class STRANGER */
	struct pcore_trust *trust;	/* pcore_trust.h; NULL until used */
	struct pcore_limits lim;	/* pcore_limits.h */
	uint16_t neigh_gen[PCORE_MAX_NEIGH];	/* slot reuse count */
	uint8_t rt_key[ROUTING_HASH_KEY_LEN];	/* random, pcore_init */
	uint8_t sig_key[SIGCACHE_KEY_LEN];

	/* Kept full entries, handed on to fresh neighbours (pcore_desc.h). */
	struct pcore_desc *desc;	/* PCORE_DESC_SLOTS, NULL before CONFIG */
	size_t desc_bytes;		/* their blocks */
	uint64_t upgrade_until_ms;	/* some neighbour needs them till */
	uint64_t desc_wanted_ms;	/* pcore_neigh_want_desc: last request */
	uint64_t own_wanted_ms;		/* pcore_desc_wanted: our own entry
					   last asked of the forwarder */
	struct pcore_want {		/* pcore_desc_ask: asked lately */
		uint8_t addr[BS_ADDR_LEN];
		uint8_t tries;		/* asks without the entry coming */
		uint64_t ms;		/* last asked; 0: free */
	} want[PCORE_WANT_RECENT];
	unsigned want_next;		/* slot to take when none is free */
	uint64_t want_period_ms;	/* the OGM interval want_n counts in */
	unsigned want_n;
	uint32_t far_s;			/* the second far_n counts in */
	uint32_t far_n;			/* originators lost in it */

	/* Counters. */
	uint64_t stat[IPC_STAT_ID_END];		/* by enum ipc_stat_id */
	uint64_t drop[PCORE_DROP_COUNT];	/* by enum pcore_drop */
	uint64_t entry[PCORE_E_COUNT];		/* by enum pcore_entry */
	uint64_t wire_err[PCORE_WIRE_ERRS];	/* PCORE_DROP_MALFORMED by -err */
	uint64_t emit_failed;			/* messages emit refused */

	/* STATS, purge and log pacing (the caller's monotonic clock). */
	uint64_t stats_sent_ms;
	uint64_t purged_ms;
	int stats_dirty;
	struct log_rl drop_log;		/* debug lines about dropped frames */
};

/*
 * Fuzzing builds only (batsecd.c refuses to compile with the macro): a
 * signature or MAC tag whose first byte is 0 passes without being
 * checked, so mutated frames get past authentication; any other value is
 * checked for real, so the failure paths stay reachable.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define PCORE_FUZZ_BYPASS(p)	((p)[0] == 0)
#else
#define PCORE_FUZZ_BYPASS(p)	0
#endif

/*
 * What pcore keeps in routing's per-originator aux bytes: what the
 * forwarder was last told about the originator's clients and gateway.
 */
/* pcore_aux.tt_count of an originator whose table comes in pages. */
#define PCORE_TT_PAGED	0xff

struct pcore_aux {
	uint8_t tt_digest[16];		/* of the TT entries last sent */
	uint8_t tt_count;		/* entries in the last IPC_TT, or
					   PCORE_TT_PAGED */
	uint8_t gw;			/* 1: the last IPC_GW was ANNOUNCE */
	uint16_t intro;			/* stranger: 1 + the neighbour slot
					   that introduced it; 0 none */
	uint32_t gw_down, gw_up;	/* ... with these bandwidths */
	uint16_t intro_gen;		/* pc->neigh_gen[slot] back then */
	uint8_t roam_takes;		/* clients taken from live owners */
	uint8_t roam_window;		/* ... in this minute (low 8 bits) */
	/*
	 * The OGM chain's reference (batsec-protocol(7), "OGM CHAIN"): the
	 * verified element nearest the seed, of (chain_epoch, chain_seqno,
	 * chain_hops); compact entries are checked against it.
	 */
	uint8_t chain_ref[BS_CHAIN_LEN];
	uint32_t chain_epoch;
	uint32_t chain_seqno;
	uint8_t chain_hops;
	uint8_t chain_ok;		/* 1: chain_ref holds an element */
	uint8_t reserved[6];		/* (was 2 with 16-byte elements) */
	/*
	 * Client claims (pcore_claims.c): a compact entry says nothing of
	 * the clients, so a claim the originator's last full entry made
	 * (its seen_s >= tt_s) stays as fresh as the originator's newest
	 * OGM of any kind (live_s).  Seconds, as pl_claim.seen_s.
	 */
	uint32_t tt_s;			/* the last full entry's clients */
	uint32_t live_s;		/* the newest OGM, full or compact */
	uint32_t far_s;			/* counted as lost (pcore_neigh_want_desc)
					   in this second */
};
_Static_assert(sizeof(struct pcore_aux) == ROUTING_AUX_LEN, "pcore_aux");

#endif /* BATSEC_PCORE_INT_H */
