/*
 * pcore_limits.h — the parser's attack resistance: token buckets, the
 * per-source table (frame rate and drop accounting per interface and
 * Ethernet source), the bounded memory of the highest (epoch, seqno)
 * seen from keys that left the tables, the verification budget with
 * its "under load" mode, the neighbour table's slots by class, and when
 * a stranger's TOFU pin is made (hold time, per-neighbour quota, aging).  No system calls; batsec-policy(5) (LIMITS)
 * and batsecd(8) (ATTACK RESISTANCE) document the behaviour.
 *
 * Everything here is bounded at CONFIG time: PL_SRC_SLOTS source
 * records and PL_MEM_SLOTS remembered keys are allocated once by
 * pcore_lim_setup() and never grow.
 *
 * Order in the receive pipeline (DESIGN.md §5):
 *   pcore_frame: pcore_lim_frame() right after the 2-byte header peek
 *	(per source MAC bucket, limit frame-rate / frame-burst);
 *   OGM frame, after the frame counter and before a signature trailer
 *	is checked: pcore_lim_verify_budget() (the neighbour's and the
 *	global verify budgets; a MAC trailer costs nothing);
 *   OGM frame, after link authentication: the neighbour's own frame
 *	bucket (same limits), so a forger spoofing a neighbour's MAC
 *	cannot drain it;
 *   HELLO before the signature: pcore_lim_hello_budget();
 *   OGM entry: the epoch memory for unknown originators, then
 *	pcore_lim_admit() (class share, per-neighbour share, eviction
 *	plan, introduction quota) before the hop chain, and
 *	pcore_lim_verify_budget() right before Ed25519 on a cache miss.
 */
#ifndef BATSEC_PCORE_LIMITS_H
#define BATSEC_PCORE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "pcore_int.h"

#define PL_SRC_SETS	64	/* source table: sets of PL_SRC_WAYS */
#define PL_SRC_WAYS	4
#define PL_SRC_SLOTS	(PL_SRC_SETS * PL_SRC_WAYS)
#define PL_MEM_SETS	1024	/* epoch memory: sets of PL_MEM_WAYS */
#define PL_MEM_WAYS	4
#define PL_MEM_SLOTS	(PL_MEM_SETS * PL_MEM_WAYS)
#define PL_TOP		4	/* sources shown by `batsec-ctl stats` */
#define PL_CLAIM_SETS	4096	/* client claims: sets of PL_CLAIM_WAYS */
#define PL_CLAIM_WAYS	8
/* A client its owner's OGMs stopped claiming is released (roaming). */
#define PL_CLAIM_RELEASE_OGMS	3
#define PL_CLAIM_RELEASE_MIN_MS	2000
#define PL_CLAIM_SLOTS	(PL_CLAIM_SETS * PL_CLAIM_WAYS)
#define PL_CLAIM_F_WITHDRAWN	0x01	/* pl_claim.flags: its paged owner's
					   page came without it */
#define PL_TTSYNC_MAX	64	/* paged originators followed (pcore_ttpage.h) */
/*
 * A source that authenticated lately (a neighbour's MAC: a verified HELLO
 * or an authentic OGM frame within PL_AUTH_FRESH_MS) is not cut off when
 * its own frame bucket is empty: its frames then spend a shared spill
 * bucket of PL_SPILL_MULT times frame-rate and frame-burst and go on to
 * the cheap checks (frame counter, HELLO seqno) that refuse forgeries and
 * replays before any signature work.  So a flood under a neighbour's MAC
 * does not silence that neighbour unless it exceeds the spill rate too.
 */
#define PL_AUTH_FRESH_MS	30000
#define PL_SPILL_MULT		50
/* Under load: entered below 1/4 of the global verify burst, left at 3/4. */
#define PL_LOAD_ENTER_PCT	25
#define PL_LOAD_LEAVE_PCT	75
/*
 * A stranger may be evicted for another stranger only when it brought no
 * new (epoch, seqno) for PL_EVICT_IDLE_OGMS OGM intervals (at least
 * PL_EVICT_IDLE_MIN_MS; times the fisheye gap of the hops its newest OGM
 * came with, pcore_fisheye_gap): a flood of new strangers cannot push
 * out strangers that are alive.
 */
#define PL_EVICT_IDLE_OGMS	10
#define PL_EVICT_IDLE_MIN_MS	5000

/*
 * TOFU pins (mode open): pcore_lim_pins() looks at the strangers every
 * PL_PINS_MS; each new pin is charged to the neighbour that introduced
 * the stranger (else its next hop), at most `limit pins-per-neighbor` in
 * PL_PIN_PERIOD_MS.
 */
#define PL_PINS_MS		1000
#define PL_PIN_PERIOD_MS	3600000

/* A stranger holding a route since since_ms, not pinned yet. */
struct pl_pincand {
	uint8_t pk[BS_PK_LEN];		/* the sort key */
	uint64_t since_ms;
	uint32_t mark;			/* pass that last saw it routed */
	uint32_t reserved;
};

/* Token buckets (struct pl_bucket, pcore_int.h).  Refill at now_ms; the
 * whole tokens now held. */
uint64_t pl_bucket_level(struct pl_bucket *b, uint32_t rate, uint32_t burst,
	    uint64_t now_ms);
/* One token: 1 when taken, 0 when the bucket is empty. */
int	pl_bucket_take(struct pl_bucket *b, uint32_t rate, uint32_t burst,
	    uint64_t now_ms);
/* Put back a token taken by mistake (never above burst). */
void	pl_bucket_refund(struct pl_bucket *b, uint32_t burst);

/* What a drop is counted as in the per-source table. */
enum pl_reason {
	PL_R_MALFORMED = 0,	/* codec, bad source, version, type */
	PL_R_RATE,		/* frame rate */
	PL_R_AUTH,		/* no neighbour, no link key, bad tag,
				   replayed frame counter or HELLO */
	PL_R_SIG,		/* bad Ed25519 signature */
	PL_R_QUOTA,		/* introduction quota, verify budget,
				   table or share full, policy */
	PL_R_HOPS,		/* hops-0 rule, TQ ceiling, hop chain */
	PL_R_STALE,		/* old seqno, duplicate, routing: normal
				   in a mesh, not shown per source */
	PL_R_COUNT
};

/* One (interface, Ethernet source) pair: about 112 bytes. */
struct pl_src {
	uint32_t ifindex;		/* 0: free */
	uint8_t mac[BS_ADDR_LEN];
	uint8_t reserved[2];
	uint64_t last_ms;
	struct pl_bucket frames;	/* frame-rate / frame-burst */
	struct pl_bucket verify;	/* HELLO verifications */
	uint64_t auth_ms;		/* last authentic frame, 0 never */
	uint64_t drops[PL_R_COUNT];
};

/* A key that left the tables: its highest (epoch, seqno) seen. */
struct pl_mem {
	uint64_t tag;			/* keyed hash of the key; 0: free */
	uint32_t o_epoch, o_seqno;	/* OGM, when have & 1 */
	uint32_t h_epoch, h_seqno;	/* HELLO, when have & 2 */
	uint32_t stamp;			/* insertion order */
	uint8_t have;
	uint8_t cls;			/* its policy class when it left */
	uint8_t reserved[2];
};

/*
 * Who owns a client (MAC, VLAN): the originator whose signed OGM claims
 * it (pcore_claims.c).  24 bytes.
 */
struct pl_claim {
	uint8_t mac[BS_ADDR_LEN];	/* all zero: free */
	uint16_t vid;
	uint8_t owner[BS_ADDR_LEN];	/* originator address */
	uint8_t cls;			/* owner's class */
	uint8_t flags;			/* PL_CLAIM_F_* */
	uint32_t seen_s;		/* owner last claimed it (s) */
	uint32_t moved_s;		/* it last moved (s), 0 never */
};

struct routing_ogm;
struct routing_orig_info;
struct routing_neigh_info;

struct bs_policy_limits;

/* Allocate the tables (at the first CONFIG): 0, or -1 out of memory. */
int	pcore_lim_setup(struct pcore *pc);
void	pcore_lim_free(struct pcore *pc);
/* The policy's limits, or the defaults before the first snapshot. */
const struct bs_policy_limits *pcore_lim_limits(const struct pcore *pc);
/* Keyed SipHash of in (the tables' index). */
uint64_t pcore_lim_hash(const struct pcore *pc, const uint8_t *in, size_t len);
/*
 * How long an originator may bring no new (epoch, seqno) before it
 * counts as idle (eviction) and its client claims lapse:
 * PL_EVICT_IDLE_OGMS OGM intervals, at least PL_EVICT_IDLE_MIN_MS.
 * Both uses multiply it by the fisheye gap (pcore_fisheye_gap) of the
 * hops the originator's newest OGM came with.
 */
uint64_t pcore_lim_idle_ms(const struct pcore *pc);

/* The per-source frame bucket: 0 when the frame may go on, else -1. */
int	pcore_lim_frame(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms);
/* An authenticated OGM frame of neighbour n: its own frame bucket. */
int	pcore_lim_neigh_frame(struct pcore *pc, struct pcore_neigh *n,
	    uint64_t now_ms);
/* A frame from (ifindex, src) authenticated (HELLO or OGM frame). */
void	pcore_lim_authentic(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms);
/* Count a drop against (ifindex, src). */
void	pcore_lim_account(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], enum pl_reason r,
	    uint64_t now_ms);

/*
 * Before a HELLO signature: the per-source and global verify budgets;
 * under load only HELLOs of known neighbours are verified.  0 or -1.
 */
int	pcore_lim_hello_budget(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], int known,
	    uint64_t now_ms);
/*
 * Before an OGM entry's signature (cache miss), or an OGM frame's
 * signature trailer (known = 1: n is a neighbour): neighbour n's budget
 * and the global one; under load only known originators.  0 or -1.
 */
/*
 * 1 when the neighbour's and the node's verification budgets hold at
 * least one check (nothing taken), else 0.
 */
int	pcore_lim_verify_left(struct pcore *pc, struct pcore_neigh *n,
	    uint64_t now_ms);
int	pcore_lim_verify_budget(struct pcore *pc, struct pcore_neigh *n,
	    int known, uint64_t now_ms);

/*
 * What pcore_lim_admit decided for a new originator; the OGM pipeline
 * carries out the eviction once the entry's signature verified.
 */
struct pl_admit {
	int evict;			/* remove evict_pk first */
	uint8_t evict_pk[BS_PK_LEN];
};
/*
 * A new originator (not in the table) of class m->cls introduced by
 * neighbour n: room by class and share (planning an eviction when one
 * is allowed; table_full: the routing core said the table is full) and
 * the introduction quotas.  Returns PCORE_E_ACCEPT, PCORE_E_FULL or
 * PCORE_E_INTRO (an int: enum pcore_entry).  Takes the quota tokens
 * when it accepts.
 */
int	pcore_lim_admit(struct pcore *pc, struct pcore_neigh *n,
	    const struct routing_ogm *m, int table_full, uint64_t now_ms,
	    struct pl_admit *a);
/* A new stranger entered through neighbour n: attribute it. */
void	pcore_lim_stranger_new(struct pcore *pc, struct pcore_neigh *n,
	    uint8_t aux[]);
/*
 * An originator's class changed from was to is (a certificate, say):
 * the stranger counts follow; aux is its aux bytes (attribution
 * cleared when it stops being a stranger).
 */
void	pcore_lim_reclass(struct pcore *pc, uint8_t was, uint8_t is,
	    uint8_t aux[]);
/* An originator left the table: attribution, epoch memory. */
void	pcore_lim_orig_gone(struct pcore *pc,
	    const struct routing_orig_info *oi);
/* A neighbour left the table: HELLO epoch memory. */
void	pcore_lim_neigh_gone(struct pcore *pc,
	    const struct routing_neigh_info *ni);
/* Recount every neighbour's strangers (after a policy change). */
void	pcore_lim_recount(struct pcore *pc);

/*
 * The epoch memory: 1 when (epoch, seqno) of a key that left the table
 * is not newer than what it last sent (a replay), else 0.
 */
int	pcore_lim_orig_stale(const struct pcore *pc,
	    const uint8_t pk[static BS_PK_LEN], uint32_t epoch, uint32_t seqno);
/* The same for a neighbour on our interface ifindex (its HELLOs). */
int	pcore_lim_hello_stale(const struct pcore *pc, uint32_t ifindex,
	    const uint8_t pk[static BS_PK_LEN], uint32_t epoch, uint32_t seqno);

/*
 * The neighbour table by class, for a new neighbour of class cls on
 * ifindex: a stranger finds room only while strangers hold fewer than
 * `limit stranger-neighbors` % of the interface's slots and of all slots
 * (0, else -1); the rest is kept for trusted and certified keys.
 */
int	pcore_lim_neigh_room(struct pcore *pc, uint32_t ifindex, uint8_t cls);
/*
 * The neighbour table is full for a new neighbour of class cls on
 * ifindex: the neighbour of a lower class (a stranger; for a trusted key
 * also a certified one) heard least recently, on ifindex if there is one
 * there, else on any interface.  1 with *vif and vpk set, else 0 (a
 * stranger never evicts).  The caller removes it.
 */
int	pcore_lim_neigh_victim(struct pcore *pc, uint32_t ifindex, uint8_t cls,
	    uint32_t *vif, uint8_t vpk[static BS_PK_LEN]);

/*
 * TOFU pins, once every PL_PINS_MS (pcore_purge): a stranger in the
 * originator table that has held a route continuously for `limit
 * pin-after` seconds is pinned (pcore_trust_pin) when the neighbour that
 * introduced it (else its next hop) has not caused `limit
 * pins-per-neighbor` new pins within PL_PIN_PERIOD_MS; a pinned stranger
 * with a route marks its pin used; pins unused for `limit pin-max-age`
 * days go (pcore_trust_pins_age).  Only in mode open.
 */
void	pcore_lim_pins(struct pcore *pc, uint64_t now_ms);

/* Gauges and per-source counters into v[] (indexed by ipc_stat_id). */
void	pcore_lim_stats(const struct pcore *pc, uint64_t *v, size_t n);

#endif /* BATSEC_PCORE_LIMITS_H */
