/*
 * gen_pinstore.c — writes the seed corpus of fuzz_pinstore into the
 * directory named by argv[1]: pin store files as batsecd writes them (one
 * base64 key a line) and as a crash or an editor leaves them.  Each file
 * is named by (the first 20 bytes of) its SHA-256.  Deterministic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"

#define GEN_FILE_MAX	(300 * (BS_KEY_B64_LEN + 2))

static const char *gen_dir;

struct gen_file {
	char	buf[GEN_FILE_MAX];
	size_t	len;
};

static void
gen_write(const struct gen_file *g)
{
	uint8_t h[crypto_hash_sha256_BYTES];
	char hex[41], path[4096];
	FILE *f;

	crypto_hash_sha256(h, (const uint8_t *)g->buf, g->len);
	sodium_bin2hex(hex, sizeof(hex), h, 20);
	if (snprintf(path, sizeof(path), "%s/%s", gen_dir, hex) >=
	    (int)sizeof(path) || (f = fopen(path, "wb")) == NULL ||
	    fwrite(g->buf, 1, g->len, f) != g->len || fclose(f) != 0) {
		fprintf(stderr, "gen_pinstore: %s: %s\n", path,
		    strerror(errno));
		exit(1);
	}
}

static void
gen_add(struct gen_file *g, const char *s, size_t len)
{
	if (len > sizeof(g->buf) - g->len)
		exit(1);
	memcpy(g->buf + g->len, s, len);
	g->len += len;
}

/* The key of the identity with seed bytes fill, as a line. */
static void
gen_key(struct gen_file *g, uint8_t fill, const char *eol)
{
	struct bs_identity id;
	uint8_t seed[BS_SEED_LEN];
	char b64[BS_KEY_B64_LEN + 1];

	memset(seed, fill, sizeof(seed));
	if (bs_identity_from_seed(&id, seed) != 0)
		exit(1);
	bs_key_to_b64(b64, id.pk);
	bs_identity_wipe(&id);
	gen_add(g, b64, BS_KEY_B64_LEN);
	gen_add(g, eol, strlen(eol));
}

int
main(int argc, char **argv)
{
	static struct gen_file g;
	unsigned i;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_pinstore DIR\n");
		return 2;
	}
	gen_dir = argv[1];
	if (bs_crypto_init() != 0)
		return 1;

	/* As batsecd writes it: three keys. */
	memset(&g, 0, sizeof(g));
	gen_key(&g, 0x01, "\n");
	gen_key(&g, 0x02, "\n");
	gen_key(&g, 0x03, "\n");
	gen_write(&g);
	/* One key, no newline at the end (cut off). */
	memset(&g, 0, sizeof(g));
	gen_key(&g, 0x04, "");
	gen_write(&g);
	/* A repeat, CRLF, a comment, an empty line, the zero key and a
	 * truncated key: skipped, and the good ones kept. */
	memset(&g, 0, sizeof(g));
	gen_key(&g, 0x05, "\n");
	gen_key(&g, 0x05, "\n");
	gen_key(&g, 0x06, "\r\n");
	gen_add(&g, "# edited by hand\n\n", 18);
	gen_add(&g, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", 45);
	gen_key(&g, 0x07, "\n");
	g.len -= 10;
	gen_write(&g);
	/* More keys than one IPC_PINS message carries. */
	memset(&g, 0, sizeof(g));
	for (i = 0; i < 250; i++)
		gen_key(&g, (uint8_t)(0x10 + i), "\n");
	gen_write(&g);
	/* The empty file. */
	memset(&g, 0, sizeof(g));
	gen_write(&g);
	return 0;
}
