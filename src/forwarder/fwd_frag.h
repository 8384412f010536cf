/*
 * fwd_frag.h — reassembly of FRAG pieces at their destination
 * (batsec-protocol(7), "FRAG"), and how a frame is cut into them.
 *
 * A UNICAST whose frame does not fit the MTU of the interface towards
 * its next hop is cut, by the node that finds it too long (its source or
 * a relay), into FRAG frames: each carries a piece of the UNICAST's
 * end-to-end part (e2e header, ciphertext, AEAD tag), the destination,
 * the fragmenter's mesh address, the fragmenter's seqno for that frame,
 * the total length and the piece's offset.  Each FRAG gets a hop part
 * of its own on every link like other data frames; relays pass pieces
 * on (cut again when a piece does not fit the next link) and only the
 * destination puts them back together.  The reassembled part then goes
 * through the UNICAST checks (end-to-end counter, AEAD tag), which
 * authenticate the whole: a forged or mixed piece costs at most the
 * buffer it held until the chain was complete, timed out or evicted.
 *
 * Memory is fixed: FWD_FRAG_CHAINS buffers of WIRE_FRAG_TOTAL_MAX bytes,
 * allocated on the first piece.  A chain is charged to the neighbour its
 * first piece came from (hop-authenticated, unlike the fragmenter's
 * name): at most FWD_FRAG_PER_ORIG chains of one fragmenter from one
 * neighbour and FWD_FRAG_PER_NEIGH from one neighbour (its oldest gives
 * way to its new one); when every buffer is taken, the oldest chain of
 * the neighbour that holds the most gives way (all counted evicted).  A
 * neighbour flooding pieces thus churns its own share only.  A chain is dropped after FWD_FRAG_TIMEOUT_MS, or when it
 * would need more than FWD_FRAG_MAX pieces.  Pieces are refused when
 * they repeat one already held (dup), overlap one (overlap), or disagree
 * with the chain's total length (size: the chain is dropped too).
 */
#ifndef BATSEC_FWD_FRAG_H
#define BATSEC_FWD_FRAG_H

#include <stddef.h>
#include <stdint.h>

#include "common/counters.h"
#include "proto/wire.h"

#define FWD_FRAG_CHAINS		32	/* reassembly buffers in all */
#define FWD_FRAG_PER_NEIGH	16	/* ... from one neighbour */
#define FWD_FRAG_PER_ORIG	8	/* ... of one fragmenter from one */
#define FWD_FRAG_MAX		16	/* pieces per frame */
#define FWD_FRAG_TIMEOUT_MS	10000	/* a chain's life from its first */

/* X(field, "name shown by batsec-ctl stats"). */
#define FWD_FRAG_COUNT_LIST(X) \
	X(frag_cut,		"frag_cut") \
	X(frag_sent,		"frag_sent") \
	X(frag_received,	"frag_received") \
	X(frag_reassembled,	"frag_reassembled") \
	X(frag_drop_dup,	"frag_drop_dup") \
	X(frag_drop_overlap,	"frag_drop_overlap") \
	X(frag_drop_size,	"frag_drop_size") \
	X(frag_drop_count,	"frag_drop_count") \
	X(frag_drop_timeout,	"frag_drop_timeout") \
	X(frag_drop_evicted,	"frag_drop_evicted") \
	X(frag_drop_nomem,	"frag_drop_nomem") \
	X(frag_drop_unknown,	"frag_drop_unknown") \
	X(frag_drop_too_small,	"frag_drop_too_small")

COUNTERS_STRUCT(fwd_frag_counters, FWD_FRAG_COUNT_LIST);
#define FWD_FRAG_COUNT_N \
	(sizeof(struct fwd_frag_counters) / sizeof(uint64_t))
const char *fwd_frag_count_name(size_t i);
uint64_t fwd_frag_count_get(const struct fwd_frag_counters *c, size_t i);

struct fwd_frag_piece {
	uint16_t off, len;
};

struct fwd_frag_chain {
	uint8_t used;
	uint8_t npiece;
	uint8_t orig[BS_ADDR_LEN];	/* fragmenter */
	uint8_t from[BS_ADDR_LEN];	/* neighbour of the first piece */
	uint32_t seqno;
	uint16_t total;
	uint16_t have;			/* bytes held */
	uint64_t first_ms;
	uint64_t order;			/* made: larger is newer */
	struct fwd_frag_piece p[FWD_FRAG_MAX];
	uint8_t *buf;			/* WIRE_FRAG_TOTAL_MAX bytes */
};

struct fwd_frag {
	struct fwd_frag_chain c[FWD_FRAG_CHAINS];
	uint8_t *mem;			/* all buffers; on first use */
	uint64_t order;
	uint8_t out[WIRE_FRAG_TOTAL_MAX];	/* the last one completed */
	struct fwd_frag_counters cnt;
};

void	fwd_frag_init(struct fwd_frag *r);
void	fwd_frag_fini(struct fwd_frag *r);

/*
 * One piece from a FRAG already parsed (wire_frag_parse: total in
 * range, offset + piece_len <= total) and hop-checked, for us, from the
 * neighbour whose mesh address is from.  Returns
 * 1 when it completed its chain: *out (r->out, valid until the next
 * call) holds the total bytes, in order; 0 when it was kept; -1 when it
 * was refused (counted).
 */
int	fwd_frag_add(struct fwd_frag *r, const uint8_t from[static BS_ADDR_LEN],
	    const uint8_t orig[static BS_ADDR_LEN],
	    uint32_t seqno, uint16_t total, uint16_t offset,
	    const uint8_t *piece, size_t piece_len, uint64_t now_ms,
	    const uint8_t **out, size_t *out_len);
/* Drop the chains older than FWD_FRAG_TIMEOUT_MS (counted); run on each
 * piece and by the forwarder every second. */
void	fwd_frag_expire(struct fwd_frag *r, uint64_t now_ms);
/* Chains in use: those from neighbour from and of fragmenter orig (each
 * NULL: any). */
size_t	fwd_frag_in_use(const struct fwd_frag *r, const uint8_t *from,
	    const uint8_t *orig);

/*
 * How to cut len bytes into pieces of at most max bytes: *n pieces of
 * *size bytes (the last one shorter), as even as can be.  0, or -1 when
 * that takes more than FWD_FRAG_MAX pieces (or max is 0).
 */
int	fwd_frag_plan(size_t len, size_t max, size_t *n, size_t *size);

#endif /* BATSEC_FWD_FRAG_H */
