/*
 * check_frag.c — FRAG (batsec-protocol(7)): the wire codec and the
 * reassembler of fwd_frag.h: in order, out of order, duplicates,
 * overlaps, sizes out of range or inconsistent, too many pieces, the
 * timeout, the memory bound under a flood, and how frames are cut.
 */
#include <check.h>
#include <string.h>

#include "forwarder/fwd_frag.h"
#include "lib/t_check.h"
#include "proto/wire.h"

static const uint8_t A[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0, 0xaa };
static const uint8_t B[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0, 0xbb };
/* Neighbours the pieces come from; add() uses FROM. */
static const uint8_t N1[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0x01, 0x01 };
static const uint8_t N2[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0x01, 0x02 };
static const uint8_t *FROM = N1;

static struct fwd_frag R;
static uint8_t whole[WIRE_FRAG_TOTAL_MAX];

static void
setup(void)
{
	size_t i;

	fwd_frag_init(&R);
	FROM = N1;
	for (i = 0; i < sizeof(whole); i++)
		whole[i] = (uint8_t)(i * 7 + 3);
}

static void
teardown(void)
{
	fwd_frag_fini(&R);
}

/* Piece [off, off + len) of whole, total bytes, chain (orig, seqno). */
static int
add(const uint8_t *orig, uint32_t seqno, uint16_t total, uint16_t off,
    size_t len, uint64_t now, size_t *out_len)
{
	const uint8_t *out = NULL;
	size_t olen = 0;
	int r;

	r = fwd_frag_add(&R, FROM, orig, seqno, total, off, whole + off, len, now,
	    &out, &olen);
	if (r == 1) {
		ck_assert_uint_eq(olen, total);
		ck_assert_mem_eq(out, whole, total);
	}
	if (out_len != NULL)
		*out_len = olen;
	return r;
}

/* ---- wire ---------------------------------------------------------------- */

static size_t
build(uint8_t *buf, uint16_t total, uint16_t off, size_t len)
{
	struct wire_frag f;
	size_t n = 0;

	memset(&f, 0, sizeof(f));
	f.dst = A;
	f.orig = B;
	f.seqno = 0x01020304;
	f.total = total;
	f.offset = off;
	f.piece = whole;
	f.piece_len = len;
	ck_assert_int_eq(wire_frag_build(buf, WIRE_FRAG_MAX_LEN, &f, &n),
	    WIRE_OK);
	return n;
}

START_TEST(test_wire_roundtrip)
{
	uint8_t buf[WIRE_FRAG_MAX_LEN], in[WIRE_FRAG_HOP_IN_MAX];
	struct wire_frag f;
	uint8_t type;
	size_t n;

	n = build(buf, 1562, 1000, 562);
	ck_assert_uint_eq(n, WIRE_FRAG_HDR_LEN + 562);
	ck_assert_uint_eq(buf[0], WIRE_T_FRAG);
	ck_assert_uint_eq(buf[1], WIRE_DATA_VERSION);
	ck_assert_int_eq(wire_peek(buf, n, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_FRAG);
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_OK);
	ck_assert_mem_eq(f.dst, A, BS_ADDR_LEN);
	ck_assert_mem_eq(f.orig, B, BS_ADDR_LEN);
	ck_assert_uint_eq(f.seqno, 0x01020304);
	ck_assert_uint_eq(f.total, 1562);
	ck_assert_uint_eq(f.offset, 1000);
	ck_assert_uint_eq(f.piece_len, 562);
	ck_assert_ptr_eq(f.piece, buf + WIRE_FRAG_HDR_LEN);
	ck_assert_uint_eq(f.len, n);
	/* The layout of batsec-protocol(7). */
	ck_assert_mem_eq(buf + 24, A, BS_ADDR_LEN);
	ck_assert_mem_eq(buf + 30, B, BS_ADDR_LEN);
	ck_assert_uint_eq(buf[36], 1);
	ck_assert_uint_eq(buf[39], 4);
	ck_assert_uint_eq(buf[40] << 8 | buf[41], 1562);
	ck_assert_uint_eq(buf[42] << 8 | buf[43], 1000);
	/* The hop tag's input leaves out the tag, nothing else. */
	ck_assert_uint_eq(wire_frag_hop_input(buf, n, in), n - BS_HOPTAG_LEN);
	ck_assert_mem_eq(in, buf, 16);
	ck_assert_mem_eq(in + 16, buf + 24, n - 24);
}
END_TEST

START_TEST(test_wire_refused)
{
	uint8_t buf[WIRE_FRAG_MAX_LEN + 8];
	struct wire_frag f;
	size_t n;

	n = build(buf, 100, 10, 20);
	/* Trailing bytes: a piece longer than the rest of total. */
	buf[n] = 0;
	ck_assert_int_eq(wire_frag_parse(buf, n + 81, &f), WIRE_ELEN);
	ck_assert_int_eq(wire_frag_parse(buf, n - 20, &f), WIRE_ETRUNC);
	ck_assert_int_eq(wire_frag_parse(buf, WIRE_FRAG_HDR_LEN - 1, &f),
	    WIRE_ETRUNC);
	/* Total out of range. */
	buf[40] = 0;
	buf[41] = WIRE_FRAG_TOTAL_MIN - 1;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_ERANGE);
	ck_assert_str_eq(f.where.field, "total length");
	buf[40] = (WIRE_FRAG_TOTAL_MAX + 1) >> 8;
	buf[41] = (WIRE_FRAG_TOTAL_MAX + 1) & 0xff;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_ERANGE);
	/* Offset at or past total, piece past total, whole frame. */
	n = build(buf, 100, 10, 20);
	buf[42] = 0;
	buf[43] = 100;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_ERANGE);
	buf[43] = 81;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_ELEN);
	buf[43] = 80;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_OK);
	ck_assert_int_eq(wire_frag_parse(buf, WIRE_FRAG_HDR_LEN + 100, &f),
	    WIRE_ELEN);
	/* Reserved byte, addresses, version. */
	n = build(buf, 100, 10, 20);
	buf[3] = 1;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_ERESERVED);
	buf[3] = 0;
	buf[30] = 0x01;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_EADDR);
	buf[30] = 0x02;
	buf[1] = 1;
	ck_assert_int_eq(wire_frag_parse(buf, n, &f), WIRE_EVERSION);
	/* The builder refuses what the parser would. */
	memset(&f, 0, sizeof(f));
	f.dst = A;
	f.orig = B;
	f.total = 100;
	f.piece = whole;
	f.piece_len = 100;
	ck_assert_int_eq(wire_frag_build(buf, sizeof(buf), &f, &n),
	    WIRE_EINVAL);
	f.piece_len = 10;
	f.offset = 95;
	ck_assert_int_eq(wire_frag_build(buf, sizeof(buf), &f, &n),
	    WIRE_EINVAL);
	f.offset = 0;
	ck_assert_int_eq(wire_frag_build(buf, WIRE_FRAG_HDR_LEN + 9, &f, &n),
	    WIRE_ESPACE);
}
END_TEST

/* ---- reassembly -------------------------------------------------------- */

START_TEST(test_in_order)
{
	size_t len;

	ck_assert_int_eq(add(A, 1, 1562, 0, 781, 0, NULL), 0);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 1);
	ck_assert_int_eq(add(A, 1, 1562, 781, 781, 1, &len), 1);
	ck_assert_uint_eq(len, 1562);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 0);
	ck_assert_uint_eq(R.cnt.frag_reassembled, 1);
	ck_assert_uint_eq(R.cnt.frag_received, 2);
}
END_TEST

START_TEST(test_out_of_order)
{
	uint16_t off[] = { 300, 0, 500, 100, 200, 400 };
	size_t i;

	for (i = 0; i + 1 < T_NELEM(off); i++)
		ck_assert_int_eq(add(A, 7, 600, off[i], 100, i, NULL), 0);
	/* Another fragmenter's chain in between, the same seqno. */
	ck_assert_int_eq(add(B, 7, 600, 0, 300, 3, NULL), 0);
	ck_assert_int_eq(add(A, 7, 600, off[i], 100, 9, NULL), 1);
	ck_assert_int_eq(add(B, 7, 600, 300, 300, 9, NULL), 1);
	/* Uneven pieces, the last first. */
	ck_assert_int_eq(add(A, 8, 58, 50, 8, 9, NULL), 0);
	ck_assert_int_eq(add(A, 8, 58, 0, 1, 9, NULL), 0);
	ck_assert_int_eq(add(A, 8, 58, 1, 49, 9, NULL), 1);
	ck_assert_uint_eq(R.cnt.frag_reassembled, 3);
}
END_TEST

START_TEST(test_duplicate)
{
	ck_assert_int_eq(add(A, 1, 200, 0, 100, 0, NULL), 0);
	ck_assert_int_eq(add(A, 1, 200, 0, 100, 0, NULL), -1);
	ck_assert_uint_eq(R.cnt.frag_drop_dup, 1);
	/* The chain is still whole. */
	ck_assert_int_eq(add(A, 1, 200, 100, 100, 0, NULL), 1);
	/* After completion, a late duplicate starts a chain that times out. */
	ck_assert_int_eq(add(A, 1, 200, 100, 100, 1, NULL), 0);
	fwd_frag_expire(&R, 1 + FWD_FRAG_TIMEOUT_MS);
	ck_assert_uint_eq(R.cnt.frag_drop_timeout, 1);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 0);
}
END_TEST

START_TEST(test_overlap)
{
	ck_assert_int_eq(add(A, 1, 300, 100, 100, 0, NULL), 0);
	ck_assert_int_eq(add(A, 1, 300, 150, 100, 0, NULL), -1);
	ck_assert_int_eq(add(A, 1, 300, 50, 51, 0, NULL), -1);
	ck_assert_int_eq(add(A, 1, 300, 120, 10, 0, NULL), -1);
	ck_assert_int_eq(add(A, 1, 300, 0, 250, 0, NULL), -1);
	ck_assert_uint_eq(R.cnt.frag_drop_overlap, 4);
	/* Touching is not overlapping. */
	ck_assert_int_eq(add(A, 1, 300, 0, 100, 0, NULL), 0);
	ck_assert_int_eq(add(A, 1, 300, 200, 100, 0, NULL), 1);
}
END_TEST

START_TEST(test_sizes)
{
	/* Total out of range, piece past total, piece the whole frame. */
	ck_assert_int_eq(add(A, 1, WIRE_FRAG_TOTAL_MAX + 1, 0, 100, 0, NULL),
	    -1);
	ck_assert_int_eq(add(A, 1, WIRE_FRAG_TOTAL_MIN - 1, 0, 10, 0, NULL),
	    -1);
	ck_assert_int_eq(add(A, 1, 200, 150, 51, 0, NULL), -1);
	ck_assert_int_eq(add(A, 1, 200, 0, 200, 0, NULL), -1);
	ck_assert_int_eq(add(A, 1, 200, 0, 0, 0, NULL), -1);
	ck_assert_uint_eq(R.cnt.frag_drop_size, 5);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 0);
	/* Pieces that disagree on the total: the chain goes. */
	ck_assert_int_eq(add(A, 2, 200, 0, 100, 0, NULL), 0);
	ck_assert_int_eq(add(A, 2, 300, 100, 100, 0, NULL), -1);
	ck_assert_uint_eq(R.cnt.frag_drop_size, 6);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 0);
	ck_assert_int_eq(add(A, 2, 200, 100, 100, 0, NULL), 0);
	ck_assert_uint_eq(R.cnt.frag_reassembled, 0);
}
END_TEST

START_TEST(test_too_many)
{
	size_t i;

	for (i = 0; i < FWD_FRAG_MAX; i++)
		ck_assert_int_eq(add(A, 1, 100, (uint16_t)i, 1, 0, NULL), 0);
	ck_assert_int_eq(add(A, 1, 100, FWD_FRAG_MAX, 84, 0, NULL), -1);
	ck_assert_uint_eq(R.cnt.frag_drop_count, 1);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 0);
	/* Sixteen is allowed. */
	for (i = 0; i + 1 < FWD_FRAG_MAX; i++)
		ck_assert_int_eq(add(A, 2, 100, (uint16_t)i, 1, 0, NULL), 0);
	ck_assert_int_eq(add(A, 2, 100, FWD_FRAG_MAX - 1, 85, 0, NULL), 1);
}
END_TEST

START_TEST(test_timeout)
{
	ck_assert_int_eq(add(A, 1, 200, 0, 100, 1000, NULL), 0);
	fwd_frag_expire(&R, 1000 + FWD_FRAG_TIMEOUT_MS - 1);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 1);
	/* The late piece finds no chain: it starts one of its own. */
	ck_assert_int_eq(add(A, 1, 200, 100, 100, 1000 + FWD_FRAG_TIMEOUT_MS,
	    NULL), 0);
	ck_assert_uint_eq(R.cnt.frag_drop_timeout, 1);
	ck_assert_uint_eq(R.cnt.frag_reassembled, 0);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), 1);
}
END_TEST

START_TEST(test_memory_bound)
{
	uint8_t orig[BS_ADDR_LEN];
	uint32_t s;
	size_t i;

	/* One fragmenter: at most FWD_FRAG_PER_ORIG chains. */
	for (s = 0; s < 1000; s++)
		ck_assert_int_eq(add(A, s, 1562, 0, 100, 0, NULL), 0);
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, A), FWD_FRAG_PER_ORIG);
	ck_assert_uint_eq(R.cnt.frag_drop_evicted, 1000 - FWD_FRAG_PER_ORIG);
	/* Many fragmenters from one neighbour: FWD_FRAG_PER_NEIGH. */
	memcpy(orig, B, sizeof(orig));
	for (i = 0; i < 1000; i++) {
		orig[4] = (uint8_t)(i >> 8);
		orig[5] = (uint8_t)i;
		ck_assert_int_eq(add(orig, 1, 1562, 0, 100, 1, NULL), 0);
		ck_assert_uint_le(fwd_frag_in_use(&R, N1, NULL),
		    FWD_FRAG_PER_NEIGH);
	}
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), FWD_FRAG_PER_NEIGH);
	/* Another neighbour's chains are not pushed out by N1's flood. */
	FROM = N2;
	ck_assert_int_eq(add(A, 5000, 1562, 0, 781, 2, NULL), 0);
	ck_assert_int_eq(add(B, 5000, 1562, 0, 781, 2, NULL), 0);
	FROM = N1;
	for (i = 0; i < 1000; i++) {
		orig[4] = 0x80;
		orig[5] = (uint8_t)i;
		(void)add(orig, 2, 1562, 0, 100, 2, NULL);
		/* N1 forges A's name too: its own chains of A churn. */
		(void)add(A, 9000 + (uint32_t)i, 1562, 0, 100, 2, NULL);
	}
	ck_assert_uint_eq(fwd_frag_in_use(&R, N1, NULL), FWD_FRAG_PER_NEIGH);
	FROM = N2;
	ck_assert_int_eq(add(A, 5000, 1562, 781, 781, 2, NULL), 1);
	ck_assert_int_eq(add(B, 5000, 1562, 781, 781, 2, NULL), 1);
	ck_assert_uint_le(fwd_frag_in_use(&R, NULL, NULL), FWD_FRAG_CHAINS);
}
END_TEST

START_TEST(test_full)
{
	uint8_t from[BS_ADDR_LEN], orig[BS_ADDR_LEN];
	size_t i;

	/* Every buffer taken by many neighbours, N1 holding the most (and
	 * the newest). */
	memcpy(from, N2, sizeof(from));
	memcpy(orig, B, sizeof(orig));
	FROM = from;
	for (i = 0; i < FWD_FRAG_CHAINS - FWD_FRAG_PER_NEIGH; i++) {
		from[5] = (uint8_t)(0x10 + i);
		ck_assert_int_eq(add(A, 2 + (uint32_t)i, 1562, 0, 100, 0,
		    NULL), 0);
	}
	FROM = N1;
	for (i = 0; i < FWD_FRAG_PER_NEIGH; i++) {
		orig[5] = (uint8_t)i;
		ck_assert_int_eq(add(orig, 1, 1562, 0, 100, 0, NULL), 0);
	}
	FROM = from;
	ck_assert_uint_eq(fwd_frag_in_use(&R, NULL, NULL), FWD_FRAG_CHAINS);
	ck_assert_uint_eq(R.cnt.frag_drop_evicted, 0);
	/* A newcomer's chain pushes out one of N1's, the largest share. */
	from[5] = 0x7f;
	ck_assert_int_eq(add(A, 100, 1562, 0, 100, 0, NULL), 0);
	ck_assert_uint_eq(R.cnt.frag_drop_evicted, 1);
	ck_assert_uint_eq(fwd_frag_in_use(&R, N1, NULL),
	    FWD_FRAG_PER_NEIGH - 1);
	ck_assert_uint_eq(fwd_frag_in_use(&R, from, NULL), 1);
}
END_TEST

START_TEST(test_plan)
{
	size_t n, size;

	ck_assert_int_eq(fwd_frag_plan(1562, 1280 - WIRE_FRAG_HDR_LEN, &n,
	    &size), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(size, 781);
	ck_assert_int_eq(fwd_frag_plan(1562, 98, &n, &size), 0);
	ck_assert_uint_eq(n, 16);
	ck_assert_uint_le(size, 98);
	ck_assert_int_eq(fwd_frag_plan(1562, 97, &n, &size), -1);
	ck_assert_int_eq(fwd_frag_plan(100, 100, &n, &size), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(fwd_frag_plan(100, 0, &n, &size), -1);
	ck_assert_int_eq(fwd_frag_plan(0, 10, &n, &size), -1);
	/* The smallest usable MTU of netlink.h carries the largest frame. */
	ck_assert_int_eq(fwd_frag_plan(WIRE_FRAG_TOTAL_MAX,
	    142 - WIRE_FRAG_HDR_LEN, &n, &size), 0);
}
END_TEST

static Suite *
frag_suite(void)
{
	Suite *s = suite_create("frag");
	TCase *tc;

	tc = tcase_create("wire");
	tcase_add_test(tc, test_wire_roundtrip);
	tcase_add_test(tc, test_wire_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("reassembly");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_in_order);
	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_duplicate);
	tcase_add_test(tc, test_overlap);
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_too_many);
	tcase_add_test(tc, test_timeout);
	tcase_add_test(tc, test_memory_bound);
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_plan);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(frag_suite());
}
