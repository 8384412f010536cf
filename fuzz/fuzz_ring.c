/*
 * fuzz_ring.c — the receive ring's block walker (src/netio/rawsock.c): the
 * input is one TPACKET_V3 block as the kernel fills it, read with
 * rawsock_block_open() and rawsock_block_next() as rawsock_recv_batch()
 * reads a ring block.
 *
 * The kernel writes the ring, but the block walker treats the offsets
 * and lengths in it as hostile all the same: one wrong offset would read
 * outside the mapping.
 *
 * Oracles (abort): the block's used length is within the input; every
 * frame handed out lies inside it; no more frames come out than the
 * block header counts, and the walk ends.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "netio/rawsock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static _Alignas(16) uint8_t blk[RAWSOCK_RING_BLOCK];
	const uint8_t *fr;
	size_t blen, off, len;
	uint32_t left, count, n = 0;
	uint8_t pt;
	int r;

	if (size > sizeof(blk))
		return 0;
	memcpy(blk, data, size);
	if (rawsock_block_open(blk, size, &blen, &off, &left) != 0)
		return 0;
	fz_check(blen <= size && off <= blen);
	count = left;
	while ((r = rawsock_block_next(blk, blen, &off, &left, &fr, &len,
	    &pt)) > 0) {
		fz_check(r == 1 || r == 2);
		fz_check(fr >= blk && len <= blen &&
		    (size_t)(fr - blk) <= blen - len);
		fz_check(++n <= count);
		fz_check(left == count - n);
	}
	fz_check(r == 0 || r == -1);
	return 0;
}
