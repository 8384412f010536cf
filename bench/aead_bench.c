/*
 * aead_bench.c — the end-to-end AEAD's cost per full-size TCP segment
 * (issue #19: "ChaCha20-Poly1305 and AES-256-GCM where the CPU has
 * AES-NI: pick by measurement").  Seals and opens 1448 bytes with 20
 * bytes of associated data (the mesh header) with batsec's own
 * bs_aead_seal/bs_aead_open (ChaCha20-Poly1305, IETF), and the same with
 * libsodium's AES-256-GCM where crypto_aead_aes256gcm_is_available()
 * says the CPU can; prints ns per operation, the best of AEAD_ROUNDS
 * rounds (default 5) of AEAD_N operations (default 200 000).
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

enum op { CHACHA_SEAL, CHACHA_OPEN, GCM_SEAL, GCM_OPEN };

static uint8_t key[32], ad[AD], msg[SEG], ct[SEG], out[SEG], tag[16];

/* n operations of op; its time in ns, or 0 when an open failed. */
static uint64_t
run(enum op op, long n)
{
	crypto_aead_aes256gcm_state st;
	uint8_t nonce[12] = { 0 };
	uint64_t t0, t, c;
	long i;
	int bad = 0;

	if (op == GCM_SEAL || op == GCM_OPEN)
		(void)crypto_aead_aes256gcm_beforenm(&st, key);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		switch (op) {
		case CHACHA_SEAL:
			bs_aead_seal(ct, tag, key, (uint64_t)i, ad, AD, msg,
			    SEG);
			break;
		case CHACHA_OPEN:
			bad |= bs_aead_open(out, key, 7, ad, AD, ct, SEG, tag);
			break;
		case GCM_SEAL:
			c = (uint64_t)i;
			memcpy(nonce + 4, &c, sizeof(c));
			(void)crypto_aead_aes256gcm_encrypt_detached_afternm(ct,
			    tag, NULL, msg, SEG, ad, AD, NULL, nonce, &st);
			break;
		case GCM_OPEN:
			bad |= crypto_aead_aes256gcm_decrypt_detached_afternm(
			    out, NULL, ct, SEG, tag, ad, AD, nonce, &st);
			break;
		}
	}
	t = now_ns() - t0;
	return bad ? 0 : t;
}

/* The best of rounds runs of n, as ns per operation; -1 on a failure. */
static double
best(enum op op, long rounds, long n)
{
	double b = -1, v;
	uint64_t t;
	long r;

	for (r = 0; r < rounds; r++) {
		if ((t = run(op, n)) == 0)
			return -1;
		v = (double)t / (double)n;
		if (b < 0 || v < b)
			b = v;
	}
	return b;
}

/*
 * One AEAD: its seal (op) and open (op + 1) timed, the frame every open
 * checks sealed before it (counter 7, or the zero nonce); 0, or 1 when
 * an open failed.
 */
static int
measure(const char *name, enum op seal, long rounds, long n)
{
	static const uint8_t nonce[12];
	double s, o;

	s = best(seal, rounds, n);
	if (seal == CHACHA_SEAL)
		bs_aead_seal(ct, tag, key, 7, ad, AD, msg, SEG);
	else
		(void)crypto_aead_aes256gcm_encrypt_detached(ct, tag, NULL,
		    msg, SEG, ad, AD, NULL, nonce, key);
	o = best((enum op)(seal + 1), rounds, n);
	if (s < 0 || o < 0) {
		fprintf(stderr, "aead_bench: %s open failed\n", name);
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
	if (measure("ChaCha20-Poly1305 (batsec's)", CHACHA_SEAL, rounds, n))
		return 1;
	if (!crypto_aead_aes256gcm_is_available()) {
		printf("aead: AES-256-GCM: not available on this CPU "
		    "(libsodium needs AES-NI and CLMUL)\n");
		return 0;
	}
	return measure("AES-256-GCM (libsodium, AES-NI)", GCM_SEAL, rounds, n);
}
