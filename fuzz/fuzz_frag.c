/*
 * fuzz_frag.c — FRAG reassembly (src/forwarder/fwd_frag.c) behind the
 * FRAG codec (wire_frag_parse), as the destination of the pieces runs
 * them once their hop tags verified: a hostile neighbour chooses every
 * byte after the hop part.
 *
 * Input: a sequence of records, each
 *	op (1) | length (2, big-endian) | length bytes
 * (a length past the end takes what is left), at most FUZZ_MAX_RECORDS.
 * op bit 7 set: the clock moves ((op >> 2) & 0x1f) * 500 ms first; op
 * bits 0-1: the piece came from neighbour 0..3.  The bytes
 * are a FRAG frame: parsed with wire_frag_parse; one that parses must
 * be built again byte for byte by wire_frag_build, and its piece goes to
 * fwd_frag_add (the hop part is not checked here: fuzz_data.c does).
 *
 * Oracles (abort): no more than FWD_FRAG_CHAINS chains in all,
 * FWD_FRAG_PER_NEIGH from one neighbour and FWD_FRAG_PER_ORIG of one
 * fragmenter from one neighbour; a completed frame is exactly its
 * total length, and each of its bytes is the byte at that place of some
 * piece accepted for that (fragmenter, seqno) since its last completion;
 * every refusal is counted once (the counters add up to the pieces in);
 * after the clock passes FWD_FRAG_TIMEOUT_MS nothing is held.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "forwarder/fwd_frag.h"
#include "proto/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_RECORDS	512
#define FUZZ_TICK_MS		500

/* A piece accepted, as the harness remembers it. */
struct fuzz_piece {
	uint8_t orig[BS_ADDR_LEN];
	uint32_t seqno;
	uint16_t off, len;
	const uint8_t *p;
	int live;
};

static struct fwd_frag fuzz_r;
static struct fuzz_piece fuzz_pieces[FUZZ_MAX_RECORDS];
static size_t fuzz_npieces;

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

static int
fuzz_same(const struct fuzz_piece *q, const uint8_t *orig, uint32_t seqno)
{
	return q->live && q->seqno == seqno &&
	    memcmp(q->orig, orig, BS_ADDR_LEN) == 0;
}

/* Every byte of out comes from a piece accepted for its chain. */
static void
fuzz_check_whole(const uint8_t *orig, uint32_t seqno, const uint8_t *out,
    size_t len)
{
	const struct fuzz_piece *q;
	size_t at, i;
	int found;

	for (at = 0; at < len; at++) {
		found = 0;
		for (i = 0; i < fuzz_npieces && !found; i++) {
			q = &fuzz_pieces[i];
			found = fuzz_same(q, orig, seqno) && at >= q->off &&
			    at < (size_t)q->off + q->len &&
			    q->p[at - q->off] == out[at];
		}
		fz_check(found);
	}
	for (i = 0; i < fuzz_npieces; i++)
		if (fuzz_same(&fuzz_pieces[i], orig, seqno))
			fuzz_pieces[i].live = 0;
}

static uint64_t
fuzz_refused(const struct fwd_frag_counters *c)
{
	return c->frag_drop_dup + c->frag_drop_overlap + c->frag_drop_size +
	    c->frag_drop_count + c->frag_drop_nomem;
}

static void
fuzz_piece(const uint8_t *from, const uint8_t *p, size_t len, uint64_t now,
    uint64_t *in, uint64_t *kept)
{
	uint8_t again[WIRE_FRAG_MAX_LEN];
	struct wire_frag f;
	const uint8_t *out = NULL;
	size_t out_len = 0, n = 0;
	uint64_t before;
	int r;

	if (wire_frag_parse(p, len, &f) != WIRE_OK)
		return;
	/* The builder writes what the parser read (hop part zero). */
	fz_check(wire_frag_build(again, sizeof(again), &f, &n) == WIRE_OK);
	fz_check(n == f.len && n == len);
	fz_check(memcmp(again + WIRE_HOP_LEN, p + WIRE_HOP_LEN,
	    n - WIRE_HOP_LEN) == 0);
	before = fuzz_refused(&fuzz_r.cnt);
	r = fwd_frag_add(&fuzz_r, from, f.orig, f.seqno, f.total, f.offset, f.piece,
	    f.piece_len, now, &out, &out_len);
	(*in)++;
	fz_check(r >= -1 && r <= 1);
	fz_check(fuzz_refused(&fuzz_r.cnt) == before + (r == -1));
	if (r >= 0) {
		struct fuzz_piece *q = &fuzz_pieces[fuzz_npieces++];

		memcpy(q->orig, f.orig, BS_ADDR_LEN);
		q->seqno = f.seqno;
		q->off = f.offset;
		q->len = (uint16_t)f.piece_len;
		q->p = f.piece;
		q->live = 1;
		(*kept)++;
	}
	if (r == 1) {
		fz_check(out != NULL && out_len == f.total);
		fuzz_check_whole(f.orig, f.seqno, out, out_len);
	}
	fz_check(fwd_frag_in_use(&fuzz_r, NULL, NULL) <= FWD_FRAG_CHAINS);
	fz_check(fwd_frag_in_use(&fuzz_r, from, NULL) <= FWD_FRAG_PER_NEIGH);
	fz_check(fwd_frag_in_use(&fuzz_r, from, f.orig) <= FWD_FRAG_PER_ORIG);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t now = 1000000, in = 0, kept = 0;
	size_t off = 0, len, nrec = 0;
	uint8_t op, from[BS_ADDR_LEN] = { 0x02, 0xf0, 0, 0, 0, 0 };

	fwd_frag_init(&fuzz_r);
	fuzz_npieces = 0;
	while (off + 3 <= size && nrec++ < FUZZ_MAX_RECORDS) {
		op = data[off];
		len = (size_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = size - off;
		if (op & 0x80)
			now += (uint64_t)((op >> 2) & 0x1f) * FUZZ_TICK_MS;
		from[5] = op & 3;
		fuzz_piece(from, data + off, len, now, &in, &kept);
		off += len;
	}
	/* Every piece in was refused once or kept. */
	fz_check(fuzz_r.cnt.frag_received == in);
	fz_check(fuzz_refused(&fuzz_r.cnt) + kept == in);
	fwd_frag_expire(&fuzz_r, now + FWD_FRAG_TIMEOUT_MS);
	fz_check(fwd_frag_in_use(&fuzz_r, NULL, NULL) == 0);
	fwd_frag_fini(&fuzz_r);
	return 0;
}
