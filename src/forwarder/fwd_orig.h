/*
 * fwd_orig.h — what the forwarder originates: its HELLOs and OGMs, the
 * aggregation of its own OGM with the entries the parser asks it to
 * relay, and the link-authentication trailer of every OGM frame.
 *
 * The forwarder is the only holder of the node key, so everything that is
 * signed or tagged with it is made here: builders over caller buffers
 * (fwd_hello_build, fwd_ogm_originate, struct fwd_agg) that take the
 * neighbour list and link keys as arguments, the bounded relay queue, and
 * the readers of the neighbour table that give those lists and keys
 * (fwd_tables.h; the link key lives in the neighbour's entry, derived
 * once with bs_link_key and wiped by the table when it goes).  No system
 * call and no forwarder: tests/check_fwd_orig.c parses what they build
 * with the wire codec and verifies it, the simulator (bench/sim) runs
 * them, and fwd_announce.c sends what they build on the forwarder's
 * timers and raw sockets.
 *
 * Timing (batsec-protocol(7)): a HELLO per up mesh interface every hello
 * interval and an OGM every OGM interval, each with a uniform jitter of
 * +-FWD_JITTER_PCT percent.  Relay entries wait at most the relay delay
 * (fwd_relay_delay: a tenth of the OGM interval, 10..100 ms; compact
 * entries of originators FWD_RELAY_FAR_HOPS or more away up to
 * FWD_RELAY_FAR_MULT delays, see fwd_relayq_deadline) and then go out,
 * aggregated, on every up interface (or the one the parser named); the
 * node's own OGM takes the waiting ones with it.
 *
 * Frame counter: (epoch << 32) | n, where n counts the OGM frames this
 * boot sent (on all interfaces together), so every receiver sees it grow
 * strictly, also across restarts (the epoch grows at every start).  When
 * n would wrap, nothing more is sent until a restart (at one frame per
 * 50 ms that is seven years away).
 */
#ifndef BATSEC_FWD_ORIG_H
#define BATSEC_FWD_ORIG_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "common/counters.h"
#include "fwd_burst.h"
#include "proto/ipc_msg.h"
#include "proto/wire.h"

struct fwd_links;

struct fwd_tables;

#define FWD_OGM_TTL		50	/* own OGMs leave with this TTL */
#define FWD_OGM_TQ		255
#define FWD_JITTER_PCT		10	/* intervals +- 10 %, uniform */
/* Relay queue bounds: entries, bytes, and the longest wait. */
#define FWD_RELAY_QMAX		64
#define FWD_RELAY_QBYTES	(64u << 10)
/*
 * The longest a relay entry waits for others to share its frame: a tenth
 * of the OGM interval, between these bounds (100 ms at the default 1 s, as
 * batman-adv's BATADV_MAX_AGGREGATION_MS).  On a 50-node chain this cut
 * the idle OGM bytes by 4.5 % against a fixed 50 ms (fewer, fuller frames:
 * one Ethernet header, OGM header and trailer per frame), for about 50 ms
 * more per hop in propagation.
 */
#define FWD_RELAY_DELAY_MIN_MS	10
#define FWD_RELAY_DELAY_MAX_MS	100
/*
 * A compact entry relayed with FWD_RELAY_FAR_HOPS or more hops (its
 * originator that far away) may wait FWD_RELAY_FAR_MULT relay delays
 * instead of one, unless a full entry or a nearer one is waiting too (then
 * all go at that one's deadline) or a frame's worth (FWD_RELAY_FRAME_BYTES)
 * is queued; and not for FWD_RELAY_HOLD_OGMS OGM intervals after one of
 * the node's neighbours came, came back, went or became bidirectional
 * (fwd_relayq_hold).  See batsec-protocol(7), "Aggregation".
 */
#define FWD_RELAY_FAR_HOPS	2
#define FWD_RELAY_FAR_MULT	3
#define FWD_RELAY_FRAME_BYTES	1200
#define FWD_RELAY_HOLD_OGMS	8
/* The signed part of an own OGM entry with every TVLV we may add. */
#define FWD_OWN_BLOCK_MAX	(WIRE_OGM_FIXED_LEN + WIRE_TVLV_MAX + BS_SIG_LEN)
#define FWD_OWN_ENTRY_MAX	(WIRE_OGM_MUT_LEN + FWD_OWN_BLOCK_MAX)

/* ---- builders ------------------------------------------------------------- */

/* A neighbour as a HELLO lists it. */
struct fwd_peer {
	const uint8_t *addr;		/* mesh address, BS_ADDR_LEN */
	uint8_t rx_count;		/* its HELLOs we heard, 0..64 */
};

/* A neighbour a trailer carries a tag for. */
struct fwd_tagkey {
	const uint8_t *key;		/* BS_LINKKEY_LEN */
	const uint8_t *key_id;		/* BS_KEYID_LEN */
};

/*
 * A HELLO into buf: sender id->pk, the interface MAC ifmac, the interval,
 * epoch, seqno and link salt (BS_LINKSALT_LEN), and the n (at most
 * WIRE_HELLO_MAX_NEIGH) peers; signed (BS_DOM_HELLO, node key).
 * *len = its length.  WIRE_OK or a wire error (WIRE_EINVAL for bad
 * input, WIRE_ESPACE when cap is too small).
 */
int	fwd_hello_build(const struct bs_identity *id,
	    const uint8_t ifmac[static BS_ADDR_LEN], uint16_t interval_ms,
	    uint32_t epoch, uint32_t seqno, const uint8_t *salt,
	    const struct fwd_peer *peers, size_t n, uint8_t *buf, size_t cap,
	    size_t *len);
/*
 * fwd_hello_build carrying cert (BS_CERT_LEN bytes) when not NULL,
 * flags (WIRE_HELLO_F_FRESH) and the nwant (0..WIRE_HELLO_MAX_WANT)
 * wanted originators' addresses, authenticated by nkeys (1..WIRE_MAX_TAGS)
 * link tags under keys, or signed when nkeys is 0.
 */
int	fwd_hello_build_cert(const struct bs_identity *id,
	    const uint8_t ifmac[static BS_ADDR_LEN], uint16_t interval_ms,
	    uint32_t epoch, uint32_t seqno, const uint8_t *salt,
	    const struct fwd_peer *peers, size_t n, const uint8_t *cert,
	    uint8_t flags, const struct fwd_tagkey *keys, size_t nkeys,
	    const uint8_t *const *want, unsigned nwant,
	    uint8_t *buf, size_t cap, size_t *len);

/*
 * Originators whose full OGM entry our parser asked for (IPC_DESC_WANT,
 * batsec-protocol(7) "Descriptions on request"): each rides in our
 * HELLOs on every interface for FWD_WANT_HELLOS hello intervals, at most
 * WIRE_HELLO_MAX_WANT at a time (a further one is refused and counted);
 * an address already listed is not listed twice.
 */
#define FWD_WANT_HELLOS		2
struct fwd_wants {
	uint8_t addr[WIRE_HELLO_MAX_WANT][BS_ADDR_LEN];
	uint64_t until_ms[WIRE_HELLO_MAX_WANT];
};
/* Ask for addr's full entry from now_ms: 0, or -1 when the list is full. */
int	fwd_want_add(struct fwd_wants *w, const uint8_t addr[static BS_ADDR_LEN],
	    uint16_t hello_ms, uint64_t now_ms);
/* The addresses still asked for at now_ms into out: how many. */
unsigned fwd_want_list(const struct fwd_wants *w, uint64_t now_ms,
	    const uint8_t *out[static WIRE_HELLO_MAX_WANT]);

/*
 * HELLO authentication (batsec-protocol(7), HELLO): a HELLO carries link
 * tags, one per neighbour on the interface, under the OGM link keys, when
 * every neighbour it lists has one and there are 1..WIRE_MAX_TAGS of
 * them; it is signed (so that a node that holds no key with us yet can
 * take it) the first FWD_HELLO_SIGN_NEW times after a neighbour appeared
 * or said its parser started again (IPC_NEIGH_F_FRESH), at most every
 * FWD_HELLO_REQ_GAP-th time while a neighbour does not list us
 * (IPC_NEIGH_F_SIGN) or our parser heard tagged HELLOs it cannot check
 * from a node that does not list us (IPC_HELLO_SIGN: two nodes that
 * dropped each other, or meet for the first time), and at least every
 * FWD_HELLO_SIGN_EVERY-th time (a node we do not hear at all).  A
 * neighbour that keeps asking costs its neighbours no more than every
 * fourth HELLO signed.
 */
#define FWD_HELLO_SIGN_EVERY	64
#define FWD_HELLO_SIGN_NEW	2
#define FWD_HELLO_REQ_GAP	4

struct fwd_hsign {
	uint32_t since;			/* HELLOs since the last signed one */
	uint8_t left;			/* signed ones still owed */
	uint8_t req;			/* a neighbour does not list us */
};

/* soon != 0: the next FWD_HELLO_SIGN_NEW HELLOs; else one within the gap. */
void	fwd_hello_want_sign(struct fwd_hsign *s, int soon);
/*
 * For the HELLO about to go out listing npeers neighbours, nkeys of whom
 * have a link key (as fwd_orig_tagkeys counts): 1 sign it, 0 tag it.
 * Counts the HELLO.
 */
int	fwd_hello_sign_due(struct fwd_hsign *s, size_t npeers, size_t nkeys);

/* Counters of the origination code (the "stats" dump names them). */
#define FWD_OCOUNT_LIST(X) \
	X(hello_sent,		"tx_hello") \
	X(hello_signed,		"tx_hello_signed") \
	X(ogm_originated,	"ogm_originated") \
	X(ogm_frames,		"tx_ogm_frames") \
	X(ogm_frames_mac,	"tx_ogm_trailer_mac") \
	X(ogm_frames_sig,	"tx_ogm_trailer_sig") \
	X(ogm_entries,		"tx_ogm_entries") \
	X(relay_queued,		"relay_queued") \
	X(relay_sent,		"relay_sent") \
	X(relay_drop_queue,	"relay_drop_queue") \
	X(relay_drop_iface,	"relay_drop_no_iface") \
	X(relay_not_back,	"relay_not_sent_back") \
	X(entry_too_big,	"drop_entry_mtu") \
	X(send_errors,		"tx_errors") \
	X(sign_failed,		"sign_failed") \
	X(counter_exhausted,	"counter_exhausted") \
	X(link_keys,		"link_keys_derived") \
	X(link_key_failed,	"link_key_failed") \
	X(burst_hello,		"tx_hello_burst") \
	X(burst_ogm,		"tx_ogm_burst") \
	X(burst_refused,	"burst_refused") \
	X(ogm_full,		"tx_ogm_full") \
	X(ogm_compact,		"tx_ogm_compact") \
	X(want_sent,		"desc_want_sent") \
	X(want_full,		"desc_want_full")

COUNTERS_STRUCT(fwd_ocount, FWD_OCOUNT_LIST);
#define FWD_OCOUNT_N	(sizeof(struct fwd_ocount) / sizeof(uint64_t))
const char *fwd_ocount_name(size_t i);
uint64_t fwd_ocount_get(const struct fwd_ocount *c, size_t i);

/* One relay entry waiting to go out. */
struct fwd_relay_ent {
	uint32_t ifindex;		/* IPC_IFINDEX_ALL or one interface */
	uint16_t len;
	uint8_t entry[IPC_RELAY_MAX];	/* mutable part + signed block */
};

/* The bounded relay queue: a ring, oldest first. */
struct fwd_relayq {
	struct fwd_relay_ent v[FWD_RELAY_QMAX];
	size_t head;			/* index of the oldest */
	size_t n;
	size_t bytes;			/* sum of the entries' len */
	uint64_t first_ms;		/* when the oldest waiting one came */
	uint64_t near_ms;		/* when the oldest full or near one
					   came, if has_near */
	int has_near;
	uint32_t delay_ms;		/* longest wait (fwd_relay_delay) */
	uint32_t far_ms;		/* longest wait of far compact ones */
	uint8_t far_hops;		/* hops from which one is far; 0: none */
	uint64_t hold_until_ms;		/* no far waits before (fwd_relayq_hold) */
};

/* What the origination code keeps (one per forwarder). */
struct fwd_orig {
	const struct bs_identity *id;
	uint8_t own_addr[BS_ADDR_LEN];
	uint32_t epoch;
	uint16_t ogm_ms;
	uint16_t hello_ms;
	uint32_t ogm_seqno;		/* of the last own OGM */
	uint32_t hello_seqno;		/* highest HELLO seqno used anywhere */
	uint32_t counter;		/* OGM frames sent this boot */
	uint64_t next_ogm_ms;		/* 0: not started */
	uint8_t own[FWD_OWN_ENTRY_MAX];	/* the last own OGM entry, whole */
	size_t own_len;
	struct fwd_relayq rq;
	struct fwd_bucket ogm_burst;	/* extra own OGMs (fwd_burst.h) */
	/* Full and compact own OGMs (fwd_ogm_full_due). */
	struct bs_ogmchain chain;
	uint8_t desc[16];		/* digest of the last description */
	int have_desc;
	uint32_t full_seqno;		/* seqno of the last full own OGM */
	unsigned full_left;		/* full ones still owed */
	unsigned full_every;		/* refresh: at least every Nth */
	uint64_t fresh_until_ms;	/* our parser asked for descriptions
					   (IPC_NEIGH_F_DESC): our HELLOs
					   carry the fresh flag until then */
	struct fwd_wants want;		/* and these originators' entries */
	struct fwd_ocount c;
};

/*
 * Full own OGMs (batsec-protocol(7), "OGM CHAIN"): FWD_FULL_REPEAT in a
 * row at start, after the description changed and when a neighbour
 * appeared (fwd_ogm_want_full), and then at least one in every
 * FWD_FULL_EVERY; the others are compact.
 */
#define FWD_FULL_REPEAT		3
/*
 * Every node checks N / FWD_FULL_EVERY signatures a second for these.  At
 * 16 that was most of a node's checks (19 a second at N = 300 in the
 * simulator); 64 takes them to 7-9 there.  A node that missed an
 * originator's full entries asks for that one (descriptions on request,
 * src/parser/pcore_desc.h) instead of waiting up to 64 intervals for the
 * next, which without the request left pairs unrouted for a minute or
 * more (bench/README.md, "Descriptions on request").
 */
#define FWD_FULL_EVERY		64
/*
 * OGM intervals after its parser (re)started during which the node's
 * HELLOs carry WIRE_HELLO_F_FRESH: the parser knows no full entries, so
 * neighbours hand them on (src/parser/pcore_desc.h).
 */
#define FWD_FRESH_OGMS		4

/*
 * Zero state for id (kept by reference), epoch and the two intervals;
 * the first FWD_FULL_REPEAT own OGMs go full.
 */
void	fwd_orig_init(struct fwd_orig *o, const struct bs_identity *id,
	    uint32_t epoch, uint16_t ogm_ms, uint16_t hello_ms);
/* interval_ms +- FWD_JITTER_PCT %, uniform (never below 1). */
uint64_t fwd_jitter(uint32_t interval_ms);
/*
 * The next frame counter, (epoch << 32) | ++n: 0, or -1 (counted) when
 * n is exhausted.
 */
int	fwd_orig_counter(struct fwd_orig *o, uint64_t *ctr);

/*
 * A new own OGM into o->own: seqno + 1, a fresh hop-chain seed and anchor,
 * mutable part {FWD_OGM_TTL, FWD_OGM_TQ, hops 0, own address, seed},
 * signed part {own key, epoch, seqno, flags 0, OGM interval, anchor,
 * TVLVs: TT with the ntt (<= WIRE_TT_MAX) clients tt when ntt > 0, and
 * GATEWAY when gw_down and gw_up are both > 0}, signed with BS_DOM_OGM.
 * WIRE_OK, or an error with o->own_len 0 (nothing to send).
 */
int	fwd_ogm_originate(struct fwd_orig *o, const struct wire_tt_entry *tt,
	    unsigned ntt, uint32_t gw_down, uint32_t gw_up);
/*
 * Whether the next own OGM must be full: force (a certificate or
 * revocation to carry, a paged table), a description whose digest (desc,
 * 16 bytes over what the full entry's TVLVs say of clients, gateway and
 * listeners) differs from the last one (then FWD_FULL_REPEAT full ones),
 * full ones still owed, the end of the OGM chain, or FWD_FULL_EVERY
 * (o->full_every) since the last full one.
 */
int	fwd_ogm_full_due(struct fwd_orig *o, const uint8_t desc[static 16],
	    int force);
/*
 * The description digest fwd_ogm_full_due takes: the ntt clients tt, the
 * gateway bandwidths and two ranges of encoded TVLVs (a page, the
 * listeners).
 */
void	fwd_ogm_desc_digest(uint8_t out[static 16],
	    const struct wire_tt_entry *tt, unsigned ntt, uint32_t gw_down,
	    uint32_t gw_up, const uint8_t *a, size_t alen, const uint8_t *b,
	    size_t blen);
/* The next n own OGMs go full (a new neighbour). */
void	fwd_ogm_want_full(struct fwd_orig *o, unsigned n);
/*
 * A compact own OGM into o->own: seqno + 1, mutable part {FWD_OGM_TTL,
 * FWD_OGM_TQ, hops 0, kind compact, own address, the chain's hops-0
 * element}, own address and seqno.  WIRE_EINVAL (own_len 0) when the
 * chain does not cover the seqno: fwd_ogm_full_due said full then.
 */
int	fwd_ogm_originate_compact(struct fwd_orig *o);
/*
 * fwd_ogm_originate with extra_len bytes of TVLV containers, already
 * encoded, after TT and GATEWAY (certificate, revocation: fwd_trust.h).
 */
int	fwd_ogm_originate_ext(struct fwd_orig *o,
	    const struct wire_tt_entry *tt, unsigned ntt, uint32_t gw_down,
	    uint32_t gw_up, const uint8_t *extra, size_t extra_len);

/* Where finished frames go: 0 sent, -1 not (counted by the caller). */
typedef int (*fwd_frame_fn)(void *arg, const uint8_t *frame, size_t len);

/*
 * Aggregation of entries into OGM frames for one interface: each frame
 * holds at most WIRE_OGM_MAX_ENTRIES entries, is at most the interface
 * MTU (and WIRE_OGM_MAX_LEN) long with its trailer, and ends with the
 * trailer for the nkeys neighbours given: MAC tags when 1..WIRE_MAX_TAGS,
 * else (none, or too many) an Ed25519 signature (BS_DOM_LINK).  An entry
 * too long for a frame with the tags (up to 12 + 12 x WIRE_MAX_TAGS
 * trailer bytes) but not with a signature's 76 goes out in a signed
 * frame of its own, which takes the entries after it while they fit.
 */
struct fwd_agg {
	struct fwd_orig *o;
	const struct fwd_tagkey *keys;
	size_t nkeys;
	uint8_t auth;			/* the open frame's: WIRE_AUTH_MAC or _SIG */
	size_t tlen;			/* its trailer bytes */
	uint8_t auth_dflt;		/* a new frame's, and its trailer bytes */
	size_t tlen_dflt;
	size_t cap;			/* frame bytes allowed */
	fwd_frame_fn emit;
	void *arg;
	struct wire_ogm_builder b;	/* b.buf NULL: no frame open */
	unsigned frames;		/* emitted */
	uint8_t buf[WIRE_OGM_MAX_LEN];
};

void	fwd_agg_begin(struct fwd_agg *a, struct fwd_orig *o,
	    const struct fwd_tagkey *keys, size_t nkeys, size_t mtu,
	    fwd_frame_fn emit, void *arg);
/*
 * Add one whole entry (22-byte mutable part, then signed part and
 * signature), closing the open frame first when it would not fit.
 * WIRE_OK; WIRE_ELEN (counted as entry_too_big) when the entry cannot fit
 * even an empty frame, tagged or signed; WIRE_EINVAL when it is malformed.
 */
int	fwd_agg_add(struct fwd_agg *a, const uint8_t *entry, size_t len);
/* Close and emit the open frame, if any.  0, or -1 when it was lost. */
int	fwd_agg_end(struct fwd_agg *a);

/*
 * 0 when entry is one well-formed OGM entry (as wire_ogm_add takes it):
 * a sanity check of an IPC_RELAY before it is queued.
 */
int	fwd_relay_entry_ok(const uint8_t *entry, size_t len);

/* The relay delay for an OGM interval (see FWD_RELAY_DELAY_MAX_MS). */
uint32_t fwd_relay_delay(uint32_t ogm_ms);
/*
 * An empty queue whose entries wait at most delay_ms, compact ones
 * relayed with FWD_RELAY_FAR_HOPS or more hops FWD_RELAY_FAR_MULT times
 * as long.
 */
void	fwd_relayq_init(struct fwd_relayq *q, uint32_t delay_ms);
/* Far entries from far_hops hops (0: none) wait far_ms (tests, bench). */
void	fwd_relayq_far(struct fwd_relayq *q, uint8_t far_hops, uint32_t far_ms);
/*
 * Entries queued before until_ms wait one relay delay whatever their hops
 * (a change among the neighbours: fresh paths should spread at once).
 */
void	fwd_relayq_hold(struct fwd_relayq *q, uint64_t until_ms);
/*
 * Queue a copy; when FWD_RELAY_QMAX entries or FWD_RELAY_QBYTES bytes
 * would be exceeded, the oldest ones are dropped.  Returns how many were
 * dropped (the caller counts them).
 */
size_t	fwd_relayq_push(struct fwd_relayq *q, uint32_t ifindex,
	    const uint8_t *entry, size_t len, uint64_t now_ms);
/* The i-th oldest waiting entry (i < q->n). */
const struct fwd_relay_ent *fwd_relayq_at(const struct fwd_relayq *q,
	    size_t i);
/*
 * When the queue must be flushed: the oldest full or near entry's arrival
 * + delay_ms, or the oldest one's + far_ms, whichever comes first; 1 (at
 * once) when FWD_RELAY_FRAME_BYTES or WIRE_OGM_MAX_ENTRIES are waiting; 0
 * when empty.
 */
uint64_t fwd_relayq_deadline(const struct fwd_relayq *q);
/* Empty the queue (its delays stay). */
void	fwd_relayq_clear(struct fwd_relayq *q);
/*
 * 1 when a relay entry would go back only to the neighbour it came from:
 * the interface has exactly one neighbour and it is the entry's previous
 * sender.  Such a copy could only come back to us as an echo, so it is
 * not sent there (on a chain of point-to-point links that halves the
 * relayed bytes).  entry is a checked OGM entry (fwd_relay_entry_ok).
 */
int	fwd_relay_back_only(struct fwd_tables *t, uint32_t ifindex,
	    const uint8_t *entry, size_t len);

/* ---- reading the neighbour table ---------------------------------------- */

/*
 * The neighbours up on ifindex as a HELLO lists them: at most max (and
 * WIRE_HELLO_MAX_NEIGH), those with the highest rx_count first when there
 * are more.  Returns the count; the pointers stay valid until the table
 * changes.
 */
size_t	fwd_orig_peers(struct fwd_tables *t, uint32_t ifindex,
	    struct fwd_peer *out, size_t max);
/*
 * The OGM keys we send under to the neighbours up on ifindex (our MAC
 * there: ifmac), brought up to date now (fwd_links_ready, kept in their
 * table entries).  Fills out[0..min(count, max)) and returns count, the
 * number of neighbours with a key; a neighbour whose key cannot be
 * derived (bs_link_key refuses its public key) is left out.  Neighbours
 * with and without a key are counted in c (optional).
 */
size_t	fwd_orig_tagkeys(struct fwd_tables *t, struct fwd_links *L,
	    uint32_t ifindex, const uint8_t ifmac[static BS_ADDR_LEN],
	    uint64_t now_ms, struct fwd_tagkey *out, size_t max,
	    struct fwd_ocount *c);

#endif /* BATSEC_FWD_ORIG_H */
