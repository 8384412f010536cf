/*
 * gen_fastpath.c — writes the seed corpus of fuzz_fastpath into the
 * directory named by argv[1]: a mode byte (fuzz_fastpath.c) and a frame
 * as a mesh interface receives it, over the tables of
 * tests/lib/t_fastpath.h — v2 UNICASTs the program relays (ciphertexts of
 * 14 to 1518 bytes, TTL 2), an ECHO, and one of each kind it hands to
 * user space or drops (TTL 1, for us, from us, a broadcast, version 1 and
 * 3, another ethertype or host, a stranger, no route, a wrong keyid, a bad
 * tag, a counter of another lane), most with mode 2 (tagged afresh by the
 * harness).  Each file is named by (the first 20 bytes of) its SHA-256.
 * Deterministic.
 */
#include <string.h>

#include "lib/t_fastpath.h"
#include "lib/t_seed.h"
#include "proto/wire.h"

static uint8_t f[1 + T_FPM_FRAME_MAX];
static uint64_t ctr = 1;

/* A v2 frame of type and inner bytes with byte at set to val (at 0:
 * unchanged), under mode. */
static void
gen_one(uint8_t mode, uint8_t type, size_t inner, size_t at, uint8_t val)
{
	size_t len = t_fpm_frame_ctr(f + 1, inner, type, ctr++);

	f[0] = mode;
	if (at != 0)
		f[1 + at] = val;
	t_seed_write(f, 1 + len);
}

int
main(int argc, char **argv)
{
	static const size_t inner[] = { 14, 26, 100, 1400, 1514, 1518 };
	size_t i, len;

	t_seed_main(argc, argv, "gen_fastpath", T_SEED_SHA256);
	for (i = 0; i < sizeof(inner) / sizeof(inner[0]); i++)
		gen_one(0, WIRE_T_UNICAST, inner[i], 0, 0);
	gen_one(0, WIRE_T_ECHO, T_FPM_ECHO_LEN, 0, 0);
	gen_one(2, WIRE_T_UNICAST, 100, 16, 2);	/* TTL 2: relayed with 1 */
	gen_one(2, WIRE_T_UNICAST, 100, 16, 1);	/* TTL 1 */
	gen_one(2, WIRE_T_UNICAST, 100, 14, WIRE_T_BCAST);
	gen_one(2, WIRE_T_UNICAST, 100, 15, 1);	/* version 1 */
	gen_one(2, WIRE_T_UNICAST, 100, 15, 3);	/* version 3 */
	gen_one(2, WIRE_T_UNICAST, 100, 13, 0xb6); /* another ethertype */
	gen_one(2, WIRE_T_UNICAST, 100, 5, 0x01);	/* another host */
	gen_one(2, WIRE_T_UNICAST, 100, 11, 0x09);	/* not a neighbour */
	gen_one(2, WIRE_T_UNICAST, 100, 43, 0x00);	/* no route */
	gen_one(2, WIRE_T_UNICAST, 100, 17, 0x01);	/* reserved byte */
	gen_one(2, WIRE_T_UNICAST, 100, 21, 0x00);	/* wrong keyid */
	gen_one(3, WIRE_T_UNICAST, 100, 21, 0x00);	/* keyid mended */
	gen_one(0, WIRE_T_UNICAST, 100, 30, 0x00);	/* bad tag */
	gen_one(2, WIRE_T_UNICAST, 100, 22, 0x05);	/* lane 5 */
	gen_one(2, WIRE_T_ECHO, T_FPM_ECHO_LEN + 1, 0, 0); /* ECHO too long */
	/* For us, and from us. */
	f[0] = 2;
	len = t_fpm_frame_ctr(f + 1, 100, WIRE_T_UNICAST, ctr++);
	memcpy(f + 1 + 38, t_fpm_own, 6);
	t_seed_write(f, 1 + len);
	len = t_fpm_frame_ctr(f + 1, 100, WIRE_T_UNICAST, ctr++);
	memcpy(f + 1 + 44, t_fpm_own, 6);
	t_seed_write(f, 1 + len);
	/* One byte too many (another frame: its tag fails without mode 2). */
	f[0] = 0;
	len = t_fpm_frame_ctr(f + 1, 100, WIRE_T_UNICAST, ctr++);
	f[1 + len] = 0;
	t_seed_write(f, 1 + len + 1);
	return 0;
}
