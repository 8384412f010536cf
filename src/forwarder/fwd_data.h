/*
 * fwd_data.h — the forwarder's data plane: data frames version 2
 * (batsec-protocol(7), "Data frames").
 *
 * From batsec0 (the TAP) into the mesh:
 *   a unicast destination some originator announces (remote TT) with a
 *   route to it -> UNICAST: the inner frame sealed (ChaCha20-Poly1305)
 *   under the end-to-end key of (us -> that originator) for both current
 *   epochs, with our hop part (key id, counter, SipHash tag) for the next
 *   hop;  broadcast, multicast and unknown unicast -> BCAST: the inner
 *   frame signed with our node key (epoch, seqno), sent on every up mesh
 *   interface with one hop tag per neighbour there.  Source MACs are
 *   learnt into the local TT.
 *
 * A UNICAST longer than the MTU of the interface to its next hop (at
 * its source or at a relay) goes out as FRAG pieces instead (fwd_frag.h):
 * each with its own hop part; relays pass pieces on (cut again when they
 * do not fit), the destination puts them together and opens the whole
 * as the UNICAST it was.  The in-kernel relay leaves FRAGs, and UNICASTs
 * too long for their next hop, to this slow path.
 *
 * From a mesh interface (frames whose type byte is UNICAST, BCAST, ECHO,
 * TRACE, TTLX or FRAG; they never go to the parser), cheapest check first:
 *   the Ethernet source must be the MAC of a neighbour that is up on that
 *   interface; version 2; the layout (wire_*_parse); the hop part: our
 *   hop key with that neighbour (bound to both MACs and both epochs), the
 *   counter fresh in its lane's replay window, the tag.  Only then:
 *   UNICAST or ECHO for another originator -> ttl - 1 along the route
 *   with our hop part for the next hop; for us -> the source must be an
 *   originator we have a route to, both epochs current, the end-to-end
 *   counter fresh and the AEAD tag right: the inner frame to the TAP, or
 *   the ECHO answered (rate-limited) or matched to our ping.  TRACE and
 *   TTLX: as ECHO, and a TRACE whose TTL runs out here is answered with a
 *   TTLX (rate-limited, see FWD_TTLX_*).  BCAST: not
 *   our own, the originator known (route), (epoch, seqno) not seen, a
 *   signature token of that neighbour (FWD_SIG_RATE), the signature ->
 *   the inner frame to the TAP and, when ttl - 1 > 0, sent on to every
 *   neighbour but the one it came from, on the interface it came in on
 *   only when that is wireless (on a wired segment all its neighbours
 *   heard the sender too).  Then repeated on lossy interfaces (below).
 *
 * Sending in batches: when ops.send_batch is set, frames for the mesh
 * are queued (up to FWD_TXQ_MAX, copied) and go out with one call per
 * interface at fwd_data_flush(), which the forwarder calls after each
 * burst it read from the TAP or a mesh socket (and fwd_data_send calls
 * when the queue is full); without a queue (no send_batch, or no memory
 * for it) a frame goes out at once, after whatever is queued.  The tx /
 * drop_send counters are updated at the flush, when the outcome is
 * known; the neighbour entries queued frames count on must stay in the
 * table until then, so the caller flushes before it lets the tables
 * change (the forwarder: before it returns to its event loop).
 *
 * I/O goes through struct fwd_data_ops so tests and the fuzz harness can
 * capture it; fwd_data_setup() wires the real rawsock_send / tap_write of
 * a running forwarder.  Counters are kept per interface, per neighbour
 * (struct fwd_neigh.c) and for the TAP side; every drop has its reason.
 */
#ifndef BATSEC_FWD_DATA_H
#define BATSEC_FWD_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "fwd_gwsel.h"
#include "fwd_bla.h"
#include "fwd_dat.h"
#include "fwd_frag.h"
#include "fwd_links.h"
#include "fwd_mcast.h"
#include "fwd_tables.h"
#include "common/log.h"
#include "proto/wire.h"

struct fwd;

#define FWD_DATA_TTL		50	/* originated UNICAST and BCAST */
/* Interfaces with counters; more than the configuration allows, for churn. */
#define FWD_DATA_IFC_MAX	32
/* Largest data frame we build: a BCAST with every tag, largest inner. */
#define FWD_DATA_FRAME_MAX	WIRE_BCAST_MAX_LEN
/*
 * A new end-to-end key's first counter is (ms since start + 1) << this:
 * a key made again for the same epochs (its state was evicted) never
 * reuses a nonce unless more than 2^16 frames a millisecond were sent,
 * and the 56-bit counter lasts 2^40 ms (34 years) of a forwarder's life.
 */
#define FWD_CTR_SHIFT		16
/* Broadcast signatures checked per neighbour: a second, and at once. */
#define FWD_SIG_RATE		500
#define FWD_SIG_BURST		1000

/* Queued frames, and the bytes a queue slot holds (any data frame). */
#define FWD_TXQ_MAX		32
#define FWD_TXQ_SLOT		FWD_DATA_FRAME_MAX

/*
 * Broadcast repeats (batsec.conf(5), interface ... bcast-repeat N): each
 * BCAST sent on an interface with N > 0 is sent again, the same bytes, N
 * more times FWD_BREP_GAP_MS apart (batman-adv's 5 ms), from a queue of
 * FWD_BREP_MAX frames; a BCAST that finds it full gets no repeats
 * (counted bcast_repeat_drops).  A receiver that had the first copy drops
 * the others at its hop check (drop_replay: the same hop counter), before
 * any signature work.
 */
#define FWD_BREP_MAX		64
#define FWD_BREP_GAP_MS		5

struct fwd_brep {
	uint32_t ifindex;
	uint8_t left;			/* copies still to send; 0: free */
	uint64_t due_ms;		/* of the next one */
	size_t len;			/* its bytes: brepbuf slot */
};

/* An up mesh interface, as the data plane needs it. */
struct fwd_data_if {
	uint32_t ifindex;
	uint32_t mtu;			/* largest Ethernet payload */
	uint8_t mac[BS_ADDR_LEN];	/* ours on it (hop keys) */
	uint8_t wireless;		/* 1: BCASTs go back out on it */
	uint8_t bcast_repeat;		/* extra copies of each BCAST */
};

/* One frame of a batch send: payload to dst. */
struct fwd_data_tx {
	const uint8_t *dst;		/* BS_ADDR_LEN */
	const uint8_t *frame;
	size_t len;
};

/* A queued frame (its bytes are in the slot of the same index). */
struct fwd_data_txe {
	uint32_t ifindex;
	uint8_t dst[BS_ADDR_LEN];
	size_t len;
	struct fwd_neigh *n;		/* counted on too; may be NULL */
};

struct fwd_data_ops {
	/*
	 * Send payload (the batsec frame) to dst on ifindex; the callee adds
	 * the Ethernet header.  0, or -1 (counted as drop_send).
	 */
	int (*send)(void *arg, uint32_t ifindex,
	    const uint8_t dst[static BS_ADDR_LEN], const void *payload,
	    size_t len);
	/*
	 * Optional: send the n (1..FWD_TXQ_MAX) frames tx[] on ifindex at
	 * once.  Returns how many went out, counted from the first; the
	 * rest count as drop_send.
	 */
	size_t (*send_batch)(void *arg, uint32_t ifindex,
	    const struct fwd_data_tx *tx, size_t n);
	/* Write one Ethernet frame to the TAP.  0, or -1. */
	int (*tap_write)(void *arg, const void *frame, size_t len);
	/* The up mesh interfaces, at most max of them, into out. */
	size_t (*ifaces)(void *arg, struct fwd_data_if *out, size_t max);
	void *arg;
};

struct fwd_data_ifc {
	uint32_t ifindex;		/* 0: free */
	struct fwd_dcount c;
	uint64_t transit;		/* UNICASTs for other originators
					   received here (the in-kernel
					   relay's cue, fwd_fast.c) */
};

/*
 * The mesh ping (batsec-ctl ping; batsec-protocol(7), ECHO).  A node
 * remembers its last FWD_PING_SLOTS requests, and answers requests for
 * it with at most FWD_ECHO_RATE replies a second (bursts of
 * FWD_ECHO_BURST): requests are authenticated end to end, but an
 * admitted member must still not make it send without bound.
 */
#define FWD_PING_SLOTS		16
#define FWD_ECHO_RATE		10
#define FWD_ECHO_BURST		20

/*
 * The mesh traceroute (batsec-ctl traceroute; batsec-protocol(7), TRACE
 * and TTLX).  A probe is a TRACE (an ECHO request relays recognise) sent
 * with a chosen TTL; it shares the ping slots, and the destination
 * answers it with an ECHO reply.  A relay where a TRACE's TTL runs out
 * answers its source with a TTLX sealed end to end from itself, naming
 * the TRACE by destination and end-to-end counter; no other frame is ever
 * answered that way.  The tracer takes a TTLX for a TTL-1 TRACE only from
 * the neighbour it sent that TRACE to.  (A member that overhears a TRACE
 * further on can still answer it in its own name, authenticated as
 * itself: the TTLX proves who answered, not that it was on the path.)
 * A relay sends at most FWD_TTLX_SRC_RATE TTLXs a second to one source
 * (bursts of FWD_TTLX_SRC_BURST, over the last FWD_TTLX_SRCS sources it
 * answered; a new one takes the longest unused slot) and FWD_TTLX_RATE a
 * second in all (bursts of FWD_TTLX_BURST), so a flood of expiring
 * TRACEs, with whatever source addresses, costs it at most that many
 * answers.
 */
#define FWD_TTLX_SRCS		16
#define FWD_TTLX_SRC_RATE	3
#define FWD_TTLX_SRC_BURST	6
#define FWD_TTLX_RATE		10
#define FWD_TTLX_BURST		20

enum fwd_ping_state {
	FWD_PING_NONE = 0,
	FWD_PING_SENT,
	FWD_PING_REPLIED,
	FWD_PING_EXPIRED,		/* a TRACE: a relay's TTLX came */
};

struct fwd_ping {
	uint8_t dst[BS_ADDR_LEN];	/* the originator asked */
	uint16_t seqno;
	uint8_t state;			/* enum fwd_ping_state */
	uint8_t trace;			/* 1: sent as a TRACE */
	uint8_t ttl;			/* a TRACE's */
	uint8_t first_hop[BS_ADDR_LEN];	/* the neighbour it went to */
	uint64_t counter;		/* its end-to-end counter */
	uint8_t hop[BS_ADDR_LEN];	/* EXPIRED: the TTLX's source */
	uint64_t sent_us;		/* CLOCK_MONOTONIC */
	uint64_t rtt_us;		/* when replied */
};

/* A token bucket. */
struct fwd_tokens {
	uint32_t tokens;
	uint64_t refill_ms;
};

/* TTLX answers to one source. */
struct fwd_ttlx_src {
	uint8_t addr[BS_ADDR_LEN];	/* all zero: free */
	struct fwd_tokens b;
	uint64_t used_ms;
};

struct fwd_echo_counters {
	uint64_t requests_sent;		/* our pings */
	uint64_t replies_received;	/* ... answered */
	uint64_t requests_received;	/* for us */
	uint64_t replies_sent;
	uint64_t drop_rate;		/* requests over FWD_ECHO_RATE */
	uint64_t drop_unmatched;	/* replies to no ping of ours */
	uint64_t drop_no_route;		/* requests we cannot answer */
	uint64_t drop_own;		/* from the mesh with our source */
	uint64_t traces_sent;		/* our TRACE probes */
	uint64_t ttlx_received;		/* TTLXs for us that matched one */
	uint64_t ttlx_unmatched;	/* TTLXs for us that matched none */
	uint64_t ttlx_wrong_hop;	/* for a TTL-1 TRACE, not from the
					   neighbour it was sent to */
	uint64_t trace_expired;		/* TRACEs whose TTL ran out here */
	uint64_t ttlx_sent;		/* our answers to them */
	uint64_t ttlx_drop_src_rate;	/* over FWD_TTLX_SRC_RATE */
	uint64_t ttlx_drop_rate;	/* over FWD_TTLX_RATE */
	uint64_t ttlx_drop_no_route;	/* no route (or key) to the source */
};

struct fwd_data {
	struct fwd_tables *t;
	struct fwd_data_ops ops;
	const struct bs_identity *id;	/* our node key (not owned) */
	uint32_t epoch;			/* ours */
	uint8_t own_addr[BS_ADDR_LEN];
	uint64_t start_ms;		/* monotonic, at init */
	uint8_t aes;			/* we offer AES-256-GCM end to end:
					   the CPU has it, e2e-cipher auto */
	uint64_t hop_ctr;		/* last hop counter sent (lane 0) */
	uint32_t bcast_seqno;		/* of the last BCAST we originated */
	struct fwd_dcount tap;		/* rx: read from the TAP; tx: written */
	struct fwd_data_ifc ifc[FWD_DATA_IFC_MAX];
	struct log_rl err_rl;		/* send / TAP write errors */
	uint8_t buf[FWD_DATA_FRAME_MAX];	/* the frame being built */
	uint8_t blk[WIRE_BCAST_BLOCK_MAX];	/* a signed BCAST block */
	uint8_t pt[WIRE_INNER_MAX];	/* an opened frame's plaintext */
	size_t txn;			/* frames queued */
	struct fwd_data_txe txe[FWD_TXQ_MAX];
	uint8_t *txbuf;			/* FWD_TXQ_MAX slots; on first use */
	uint16_t ping_ident;		/* random, per start */
	uint16_t ping_seqno;		/* of the last request */
	struct fwd_ping ping[FWD_PING_SLOTS];
	struct fwd_tokens echo_b;	/* replies we may send now */
	struct fwd_tokens ttlx_b;	/* TTLXs, in all */
	struct fwd_ttlx_src ttlx_src[FWD_TTLX_SRCS];
	struct fwd_echo_counters echo;
	struct fwd_brep brep[FWD_BREP_MAX];	/* broadcast repeats */
	size_t brepn;			/* slots in use */
	uint8_t *brepbuf;		/* FWD_BREP_MAX frames; on first use */
	uint64_t bcast_repeats;		/* repeat copies sent */
	uint64_t bcast_repeat_drops;	/* BCASTs denied their repeats */
	struct fwd_links links;		/* salts and link keys */
	struct fwd_gwc gw;		/* gateway client mode (fwd_gwsel.h) */
	uint64_t now_ms;		/* of the frame being handled */
	struct fwd_dat dat;		/* ARP answers (fwd_dat.h) */
	struct fwd_mcast mcast;		/* multicast listeners (fwd_mcast.h) */
	struct fwd_bla bla;		/* bridge loop avoidance (fwd_bla.h) */
	struct fwd_frag frag;		/* FRAG reassembly (fwd_frag.h) */
	uint32_t frag_seqno;		/* of the last frame we cut */
	uint8_t fbuf[WIRE_FRAG_MAX_LEN];	/* the FRAG being built */
};

/*
 * Ready d over tables t (not owned) with our node key id (not owned; it
 * must outlive d), our epoch and the I/O callbacks.  Broadcast seqnos
 * start at 1 in each epoch.
 */
void	fwd_data_init(struct fwd_data *d, struct fwd_tables *t,
	    const struct bs_identity *id, uint32_t epoch,
	    const struct fwd_data_ops *ops);

/* One frame read from the TAP (a whole Ethernet frame). */
void	fwd_data_tap_rx(struct fwd_data *d, const uint8_t *frame, size_t len,
	    uint64_t now_ms);
/*
 * One frame from mesh interface ifindex: Ethernet source and destination
 * and the payload after the Ethernet header (padding included), whose
 * first byte is a data frame's type (fwd_data_is_data).
 */
void	fwd_data_mesh_rx(struct fwd_data *d, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN],
	    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *payload,
	    size_t len, uint64_t now_ms);
/*
 * Send an echo request to originator dst and flush it out; *seqno is
 * the ticket for fwd_data_ping_result.  0, or -1 when there is no route.
 */
int	fwd_data_ping(struct fwd_data *d, const uint8_t dst[static BS_ADDR_LEN],
	    uint16_t *seqno);
/*
 * Send a TRACE probe with ttl (1..255) to originator dst and flush it
 * out; *seqno as for fwd_data_ping.  0, or -1 when there is no route.
 */
int	fwd_data_trace(struct fwd_data *d,
	    const uint8_t dst[static BS_ADDR_LEN], uint8_t ttl,
	    uint16_t *seqno);
/*
 * The request or probe seqno: FWD_PING_SENT, FWD_PING_REPLIED with
 * *rtt_us (between the request leaving and the reply arriving), or
 * FWD_PING_EXPIRED with *rtt_us and the relay that answered in hop (may
 * be NULL); -1 when it is not among the last FWD_PING_SLOTS.
 */
int	fwd_data_ping_result(const struct fwd_data *d, uint16_t seqno,
	    uint64_t *rtt_us, uint8_t *hop);
/*
 * AP isolation: 1 when the Ethernet frame (len bytes) must not pass
 * because it is unicast between one of our clients and a remote isolated
 * client (fwd_client_isolated) while ours are isolated too; to_mesh: read
 * from the TAP (our client is the source), else for the TAP (our client
 * is the destination).  Broadcast and multicast, and frames from or to
 * the TAP's own MAC, always pass.
 */
int	fwd_data_isolated(const struct fwd_tables *t, const uint8_t *frame,
	    size_t len, int to_mesh);
/*
 * Are our clients isolated: ap-isolation on and no gateway announced
 * (a gateway's clients stay reachable).  Called at start and when the
 * settings change; the next OGM carries the flags.
 */
void	fwd_data_isolation(struct fwd *f);
/* 1 when a mesh payload is a data frame (goes to fwd_data_mesh_rx). */
int	fwd_data_is_data(const uint8_t *payload, size_t len);
/*
 * Send the queued frames (ops.send_batch, one call per interface, in
 * queue order) and count the outcome.  Nothing to do without a queue.
 */
void	fwd_data_flush(struct fwd_data *d);
/*
 * When the next broadcast repeat is due (monotonic ms), 0 when none is
 * queued.
 */
uint64_t fwd_data_repeat_deadline(const struct fwd_data *d);
/*
 * Send the broadcast repeats due by now_ms and flush them out.  A repeat
 * whose interface is no longer up is dropped (not counted as sent).
 */
void	fwd_data_repeat_run(struct fwd_data *d, uint64_t now_ms);
/* Free the queue's buffer (after a last flush). */
/*
 * Bridge loop avoidance's timer (fwd_bla_tick), about once a second: our
 * ANNOUNCE, when due, written to batsec0.  1 when the local table
 * changed (clients another backbone serves were forgotten).
 */
int	fwd_data_bla_tick(struct fwd_data *d, uint64_t now_ms);
void	fwd_data_fini(struct fwd_data *d);

/* Counters of interface ifindex, NULL when it never had any. */
const struct fwd_dcount *fwd_data_iface_counters(const struct fwd_data *d,
	    uint32_t ifindex);
/*
 * All counters summed over the interfaces and the TAP side: rx = data
 * frames that entered the forwarder (from the mesh or the TAP), tx = frames
 * that left it, each drop counted once (on the side the frame came in,
 * except drop_send and drop_too_big, counted where it was to go out).
 */
void	fwd_data_totals(const struct fwd_data *d, struct fwd_dcount *out);
/* UNICASTs for other originators that came up from interface ifindex. */
uint64_t fwd_data_iface_transit(const struct fwd_data *d, uint32_t ifindex);
/*
 * Frames the in-kernel relay (fastpath.h) counted, added to interface
 * ifindex's counters (0: none) and to neighbour n's (NULL: none).
 */
void	fwd_data_count_relayed(struct fwd_data *d, uint32_t ifindex,
	    struct fwd_neigh *n, uint64_t rx_frames, uint64_t rx_bytes,
	    uint64_t tx_frames, uint64_t tx_bytes);

/*
 * The daemon: allocate f->tables and f->data with the real I/O (raw
 * sockets of f->ifs, the TAP f->tap).  Call before the sandbox; 0 or -1.
 */
int	fwd_data_setup(struct fwd *f);
/* Free f->data and f->tables (wiping link keys). */
void	fwd_data_teardown(struct fwd *f);

#endif /* BATSEC_FWD_DATA_H */
