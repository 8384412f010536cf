/*
 * gen_fastpath.c — writes the seed corpus of fuzz_fastpath into the
 * directory named by argv[1]: frames as a mesh interface receives them,
 * over the tables of tests/lib/t_fastpath.h — UNICASTs the program relays
 * (inner frames of 14 to 1518 bytes, TTL 2), and one of each kind it
 * hands to user space (TTL 1, for us, from us, padded, a broadcast, a
 * newer version, another ethertype or host, a stranger, no route).  Each
 * file is named by (the first 20 bytes of) its SHA-256.  Deterministic.
 */
#include <string.h>

#include "lib/t_fastpath.h"
#include "lib/t_seed.h"
#include "proto/wire.h"

/* A UNICAST of inner bytes with byte at set to val (at 0: unchanged). */
static void
gen_one(size_t inner, size_t at, uint8_t val)
{
	static uint8_t f[T_FPM_FRAME_MAX];
	size_t len = t_fpm_frame(f, inner);

	if (at != 0)
		f[at] = val;
	t_seed_write(f, len);
}

int
main(int argc, char **argv)
{
	static const size_t inner[] = { 14, 26, 100, 1400, 1514, 1518 };
	static uint8_t f[T_FPM_FRAME_MAX];
	size_t i, len;

	t_seed_main(argc, argv, "gen_fastpath", T_SEED_SHA256);
	for (i = 0; i < sizeof(inner) / sizeof(inner[0]); i++)
		gen_one(inner[i], 0, 0);
	gen_one(100, 16, 2);			/* TTL 2: relayed with 1 */
	gen_one(100, 16, 1);			/* TTL 1 */
	gen_one(100, 14, WIRE_T_BCAST);
	gen_one(100, 15, 2);			/* version 2 */
	gen_one(100, 13, 0xb6);			/* another ethertype */
	gen_one(100, 5, 0x01);			/* another host */
	gen_one(100, 1, 0xff);			/* another host's MAC */
	gen_one(100, 11, 0x09);			/* not a neighbour */
	gen_one(100, 23, 0x00);			/* no route */
	gen_one(100, 33, 0x01);			/* reserved byte */
	/* For us, and from us. */
	len = t_fpm_frame(f, 100);
	memcpy(f + 18, t_fpm_own, 6);
	t_seed_write(f, len);
	len = t_fpm_frame(f, 100);
	memcpy(f + 24, t_fpm_own, 6);
	t_seed_write(f, len);
	/* Padded to the Ethernet minimum, and one byte too many. */
	len = t_fpm_frame(f, 14);
	memset(f + len, 0, 60 - len);
	t_seed_write(f, 60);
	len = t_fpm_frame(f, 100);
	f[len] = 0;
	t_seed_write(f, len + 1);
	return 0;
}
