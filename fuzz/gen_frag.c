/*
 * gen_frag.c — writes the seed corpus of fuzz_frag into the directory
 * named by argv[1]: FRAG pieces as fwd_data.c cuts them (a full-size
 * UNICAST in 2 pieces, the smallest in 2, a frame in 16, in and out of
 * order), and what a hostile neighbour sends (duplicates, overlaps,
 * totals that disagree, a 17th piece, a chain left to time out, a flood
 * of chains from many fragmenters and from one).  Deterministic; each
 * file is named by (the first 20 bytes of) its SHA-256.
 */
#include <string.h>

#include "lib/t_seed.h"
#include "proto/wire.h"

static uint8_t gen_whole[WIRE_FRAG_TOTAL_MAX];
static uint8_t gen_buf[1 << 16];
static struct t_seedbuf gen_s = { gen_buf, sizeof(gen_buf), 0 };

/* One record: op, then piece [off, off + len) of a frame of total. */
static void
gen_piece(uint8_t op, uint8_t who, uint32_t seqno, uint16_t total,
    uint16_t off, size_t len)
{
	uint8_t dst[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0, 0x01 };
	uint8_t orig[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0, 0 };
	uint8_t fr[WIRE_FRAG_MAX_LEN], hdr[3];
	struct wire_frag f;
	size_t n;

	orig[5] = who;
	memset(&f, 0, sizeof(f));
	f.dst = dst;
	f.orig = orig;
	f.seqno = seqno;
	f.total = total;
	f.offset = off;
	f.piece = gen_whole + off;
	f.piece_len = len;
	t_seed_ok(wire_frag_build(fr, sizeof(fr), &f, &n), "wire_frag_build");
	hdr[0] = op;
	hdr[1] = (uint8_t)(n >> 8);
	hdr[2] = (uint8_t)n;
	t_seed_put(&gen_s, hdr, sizeof(hdr));
	t_seed_put(&gen_s, fr, n);
}

/* A frame of total bytes cut into k even pieces, in order or reversed. */
static void
gen_cut(uint8_t who, uint32_t seqno, uint16_t total, unsigned k, int rev)
{
	size_t size = (total + k - 1) / k, i, j, off, len;

	for (j = 0; j < k; j++) {
		i = rev ? k - 1 - j : j;
		off = i * size;
		len = total - off < size ? total - off : size;
		gen_piece(0, who, seqno, total, (uint16_t)off, len);
	}
}

int
main(int argc, char **argv)
{
	unsigned i;

	t_seed_main(argc, argv, "gen_frag", T_SEED_SHA256);
	for (i = 0; i < sizeof(gen_whole); i++)
		gen_whole[i] = (uint8_t)(i * 13 + 1);

	gen_cut(1, 1, WIRE_FRAG_TOTAL_MAX, 2, 0);
	t_seed_flush(&gen_s);
	gen_cut(1, 2, WIRE_FRAG_TOTAL_MIN, 2, 1);
	t_seed_flush(&gen_s);
	gen_cut(2, 3, WIRE_FRAG_TOTAL_MAX, 16, 1);
	t_seed_flush(&gen_s);
	/* Two chains interleaved, the same seqno from two fragmenters. */
	gen_piece(0, 1, 9, 600, 0, 300);
	gen_piece(0, 2, 9, 600, 300, 300);
	gen_piece(0, 2, 9, 600, 0, 300);
	gen_piece(0, 1, 9, 600, 300, 300);
	t_seed_flush(&gen_s);
	/* A duplicate, an overlap, then the rest. */
	gen_piece(0, 1, 4, 300, 0, 100);
	gen_piece(0, 1, 4, 300, 0, 100);
	gen_piece(0, 1, 4, 300, 50, 100);
	gen_piece(0, 1, 4, 300, 100, 200);
	t_seed_flush(&gen_s);
	/* Totals that disagree. */
	gen_piece(0, 1, 5, 300, 0, 100);
	gen_piece(0, 1, 5, 400, 100, 100);
	t_seed_flush(&gen_s);
	/* A 17th piece. */
	for (i = 0; i <= 16; i++)
		gen_piece(0, 1, 6, 200, (uint16_t)i, 1);
	t_seed_flush(&gen_s);
	/* A chain that times out before its last piece. */
	gen_piece(0, 1, 7, 200, 0, 100);
	gen_piece(0x80 | 21 << 2, 1, 7, 200, 100, 100);
	t_seed_flush(&gen_s);
	/* Floods: many fragmenters from neighbour 1, an honest chain from
	 * neighbour 0 across it; then many chains of one. */
	gen_piece(0, 1, 8, 1000, 0, 500);
	for (i = 0; i < 40; i++)
		gen_piece(1, (uint8_t)(10 + i), 1, 1000, 0, 100);
	gen_piece(0, 1, 8, 1000, 500, 500);
	t_seed_flush(&gen_s);
	for (i = 0; i < 12; i++)
		gen_piece(0, 3, 100 + i, 1000, 0, 100);
	gen_piece(1, 3, 100, 1000, 100, 900);
	gen_piece(1, 3, 111, 1000, 100, 900);
	t_seed_flush(&gen_s);
	return 0;
}
