/*
 * fp_verify.c — bench/footprint's "mips" step: N Ed25519 verifications
 * (libsodium's crypto_sign_verify_detached over a 120-byte message, the
 * check that dominates batsecd's idle cost), built for x86-64 (counted
 * with callgrind) and for mipsel (counted with qemu-user, one guest
 * instruction per translation block).  Run with N = 1 and N = 3: the
 * difference over 2 is the cost of one verification.
 *
 *   fp_verify [N]	exit 0 when all N verified
 */
#include <stdio.h>
#include <stdlib.h>

#include <sodium.h>

int
main(int argc, char **argv)
{
	unsigned char pk[crypto_sign_PUBLICKEYBYTES];
	unsigned char sk[crypto_sign_SECRETKEYBYTES];
	unsigned char sig[crypto_sign_BYTES], m[120];
	long i, n = argc > 1 ? strtol(argv[1], NULL, 10) : 1, ok = 0;

	if (n < 1 || n > 1000 || sodium_init() < 0)
		return 2;
	for (i = 0; i < (long)sizeof(m); i++)
		m[i] = (unsigned char)i;
	crypto_sign_keypair(pk, sk);
	crypto_sign_detached(sig, NULL, m, sizeof(m), sk);
	for (i = 0; i < n; i++)
		ok += crypto_sign_verify_detached(sig, m, sizeof(m), pk) == 0;
	sodium_memzero(sk, sizeof(sk));
	printf("%ld of %ld verified\n", ok, n);
	return ok == n ? 0 : 1;
}
