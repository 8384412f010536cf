/*
 * aead_bench.c — the end-to-end AEAD's cost per full-size TCP segment
 * (issue #19: "ChaCha20-Poly1305 and AES-256-GCM where the CPU has
 * AES-NI: pick by measurement").  Seals and opens 1448 bytes with 20
 * bytes of associated data (the mesh header) with batsec's own
 * bs_aead_seal/bs_aead_open, ChaCha20-Poly1305 (IETF) and, where the CPU
 * can (bs_aead_available), AES-256-GCM: the two a pair of nodes may use
 * (batsec-protocol(7), "Keys"); prints ns per operation, the best of
 * AEAD_ROUNDS rounds (default 5) of AEAD_N operations (default 200 000).
 *
 * Run by `make bench` before bench/run; bench/README.md has the figures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "batsec_crypto.h"

#define SEG	1448
#define AD	20

static uint64_t
now_ns(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long
env_long(const char *name, long def, long max)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return def;
	v = strtol(s, &end, 10);
	if (*end != '\0' || v < 1 || v > max) {
		fprintf(stderr, "aead_bench: %s must be 1..%ld\n", name, max);
		exit(2);
	}
	return v;
}

static uint8_t key[32], ad[AD], msg[SEG], ct[SEG], out[SEG], tag[16];

/*
 * n seals (open 0) or opens of aead; its time in ns, or 0 when an open
 * failed.  The opens check the frame sealed before them (counter 7).
 */
static uint64_t
run(enum bs_aead aead, int open, long n)
{
	uint64_t t0;
	long i;
	int bad = 0;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (open)
			bad |= bs_aead_open(out, aead, key, 7, ad, AD, ct, SEG,
			    tag);
		else
			bad |= bs_aead_seal(ct, tag, aead, key, (uint64_t)i,
			    ad, AD, msg, SEG);
	}
	return bad ? 0 : now_ns() - t0;
}

/* The best of rounds runs of n, as ns per operation; -1 on a failure. */
static double
best(enum bs_aead aead, int open, long rounds, long n)
{
	double b = -1, v;
	uint64_t t;
	long r;

	for (r = 0; r < rounds; r++) {
		if ((t = run(aead, open, n)) == 0)
			return -1;
		v = (double)t / (double)n;
		if (b < 0 || v < b)
			b = v;
	}
	return b;
}

/* One AEAD's seal and open timed; 0, or 1 when one failed. */
static int
measure(const char *name, enum bs_aead aead, long rounds, long n)
{
	double s, o = -1;

	s = best(aead, 0, rounds, n);
	if (bs_aead_seal(ct, tag, aead, key, 7, ad, AD, msg, SEG) == 0)
		o = best(aead, 1, rounds, n);
	if (s < 0 || o < 0) {
		fprintf(stderr, "aead_bench: %s failed\n", name);
		return 1;
	}
	printf("aead: %s, %d bytes: seal %.0f ns, open %.0f ns\n", name, SEG,
	    s, o);
	return 0;
}

int
main(void)
{
	long n = env_long("AEAD_N", 200000, 100000000);
	long rounds = env_long("AEAD_ROUNDS", 5, 100);

	if (sodium_init() < 0) {
		fprintf(stderr, "aead_bench: sodium_init failed\n");
		return 1;
	}
	randombytes_buf(key, sizeof(key));
	randombytes_buf(ad, sizeof(ad));
	randombytes_buf(msg, sizeof(msg));
	if (measure("ChaCha20-Poly1305", BS_AEAD_CHACHA20, rounds, n))
		return 1;
	if (!bs_aead_available(BS_AEAD_AES256GCM)) {
		printf("aead: AES-256-GCM: not available on this CPU "
		    "(libsodium needs AES-NI and CLMUL)\n");
		return 0;
	}
	return measure("AES-256-GCM (AES-NI)", BS_AEAD_AES256GCM, rounds, n);
}
