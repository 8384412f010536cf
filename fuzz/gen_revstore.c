/*
 * gen_revstore.c — writes the seed corpus of fuzz_revstore into the
 * directory named by argv[1]: revocation store files as batsecd writes
 * them (one base64 record a line), and as a crash or an editor leaves
 * them.  Each file is named by (the first 20 bytes of) its SHA-256.
 * Deterministic: fixed keys, and Ed25519 signatures are deterministic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "forwarder/fwd_trust.h"
#include "proto/ctlproto.h"

#define GEN_LINE	(CTLP_REVOKE_B64_LEN + 1)
#define GEN_FILE_MAX	(8 * GEN_LINE + 64)

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
		fprintf(stderr, "gen_revstore: %s: %s\n", path,
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

/* One record as a line: CA ca revokes key pk at time at. */
static void
gen_record(struct gen_file *g, const struct bs_identity *ca,
    const uint8_t *pk, uint64_t at, const char *eol)
{
	struct bs_revoke r;
	uint8_t enc[BS_REVOKE_LEN];
	char b64[CTLP_REVOKE_B64_LEN + 1];

	if (bs_revoke_issue(&r, ca, pk, at) != 0)
		exit(1);
	bs_revoke_encode(enc, &r);
	if (bs_b64_encode(b64, sizeof(b64), enc, sizeof(enc)) !=
	    CTLP_REVOKE_B64_LEN)
		exit(1);
	gen_add(g, b64, CTLP_REVOKE_B64_LEN);
	gen_add(g, eol, strlen(eol));
}

static void
gen_ident(struct bs_identity *id, uint8_t fill)
{
	uint8_t seed[BS_SEED_LEN];

	memset(seed, fill, sizeof(seed));
	if (bs_identity_from_seed(id, seed) != 0)
		exit(1);
}

int
main(int argc, char **argv)
{
	struct bs_identity ca, ca2, n1, n2, n3;
	struct gen_file g;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_revstore DIR\n");
		return 2;
	}
	gen_dir = argv[1];
	if (bs_crypto_init() != 0)
		return 1;
	gen_ident(&ca, 0xca);
	gen_ident(&ca2, 0xcb);
	gen_ident(&n1, 0x01);
	gen_ident(&n2, 0x02);
	gen_ident(&n3, 0x03);

	/* As batsecd writes it: three records of two CAs. */
	memset(&g, 0, sizeof(g));
	gen_record(&g, &ca, n1.pk, 1750000000, "\n");
	gen_record(&g, &ca, n2.pk, 1750000100, "\n");
	gen_record(&g, &ca2, n3.pk, 1750000200, "\n");
	gen_write(&g);
	/* One record, no newline at the end (a crash mid-append). */
	memset(&g, 0, sizeof(g));
	gen_record(&g, &ca, n1.pk, 1, "");
	gen_write(&g);
	/* A duplicate, a second issuer for the same key, CRLF, a comment,
	 * an empty line and a truncated record: skipped, kept, skipped... */
	memset(&g, 0, sizeof(g));
	gen_record(&g, &ca, n2.pk, 1750000100, "\n");
	gen_record(&g, &ca, n2.pk, 1750000100, "\n");
	gen_record(&g, &ca2, n2.pk, 1750000300, "\r\n");
	gen_add(&g, "# edited by hand\n\n", 18);
	gen_record(&g, &ca, n3.pk, 0, "\n");
	g.len -= 10;
	gen_write(&g);
	/* The empty file. */
	memset(&g, 0, sizeof(g));
	gen_write(&g);
	return 0;
}
