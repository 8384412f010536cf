/*
 * gen_keyfile.c — writes the seed corpus of fuzz_keyfile into the directory
 * named by argv[1], each file named by (the first 20 bytes of) its SHA-256:
 * key lines, certificate and revocation armour, near misses, and past
 * crashes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_keys.h"

static const char *gen_dir;

static void
gen_write(const char *text, size_t len)
{
	uint8_t h[crypto_hash_sha256_BYTES];
	char hex[41], path[4096];
	FILE *f;

	crypto_hash_sha256(h, (const uint8_t *)text, len);
	sodium_bin2hex(hex, sizeof(hex), h, 20);
	if (snprintf(path, sizeof(path), "%s/%s", gen_dir, hex) >=
	    (int)sizeof(path) || (f = fopen(path, "wb")) == NULL ||
	    fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "gen_keyfile: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void
gen_str(const char *text)
{
	gen_write(text, strlen(text));
}

/* The armour text, and the same without its final newline. */
static void
gen_armor(const char *text, int n)
{
	if (n <= 0)
		exit(1);
	gen_write(text, (size_t)n);
	gen_write(text, (size_t)n - 1);
}

int
main(int argc, char **argv)
{
	struct bs_identity ca, node;
	struct bs_cert c;
	struct bs_revoke r;
	uint8_t seed[BS_SEED_LEN];
	char line[BS_KEY_B64_LEN + 2], text[BS_ARMOR_MAX];

	if (argc != 2 || bs_crypto_init() != 0) {
		fprintf(stderr, "usage: gen_keyfile DIR\n");
		return 2;
	}
	gen_dir = argv[1];
	memset(seed, 0x01, sizeof(seed));
	if (bs_identity_from_seed(&ca, seed) != 0)
		return 1;
	memset(seed, 0x42, sizeof(seed));
	if (bs_identity_from_seed(&node, seed) != 0)
		return 1;
	bs_key_to_b64(line, node.seed);
	strcat(line, "\n");
	gen_str(line);
	bs_key_to_b64(line, node.pk);
	gen_str(line);
	if (bs_cert_issue(&c, &ca, node.pk, "node-1.example", BS_ROLE_GATEWAY,
	    1700000000, 1800000000) != 0 ||
	    bs_revoke_issue(&r, &ca, node.pk, 1750000000) != 0)
		return 1;
	gen_armor(text, bs_cert_to_armor(text, sizeof(text), &c));
	gen_armor(text, bs_revoke_to_armor(text, sizeof(text), &r));
	/* Near misses: padding for 31 bytes, CRLF, trailing data, empty. */
	gen_str("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\n");
	gen_str("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n");
	gen_str("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\nx");
	gen_str("");
	/* Found by fuzzing: libsodium 1.0.18 alone reads 0x8b as '/'. */
	gen_str("IVL40Zt5HSRFMkLhXy6rbLfP+\x8b" "tqXtMAl5YOBpiB2xI=");
	return 0;
}
