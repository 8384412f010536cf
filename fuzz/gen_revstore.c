/*
 * gen_revstore.c — writes the seed corpus of fuzz_revstore into the
 * directory named by argv[1]: revocation store files as batsecd writes
 * them (one base64 record a line), and as a crash or an editor leaves
 * them.  Each file is named by (the first 20 bytes of) its SHA-256.
 * Deterministic: fixed keys, and Ed25519 signatures are deterministic.
 */
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "lib/t_ident.h"
#include "lib/t_seed.h"
#include "proto/ctlproto.h"

#define GEN_LINE	(CTLP_REVOKE_B64_LEN + 1)
#define GEN_FILE_MAX	(8 * GEN_LINE + 64)

static uint8_t gen_buf[GEN_FILE_MAX];

/* One record as a line: CA ca revokes key pk at time at. */
static void
gen_record(struct t_seedbuf *g, const struct bs_identity *ca,
    const uint8_t *pk, uint64_t at, const char *eol)
{
	struct bs_revoke r;
	uint8_t enc[BS_REVOKE_LEN];
	char b64[CTLP_REVOKE_B64_LEN + 1];

	t_seed_ok(bs_revoke_issue(&r, ca, pk, at), "revocation record");
	bs_revoke_encode(enc, &r);
	if (bs_b64_encode(b64, sizeof(b64), enc, sizeof(enc)) !=
	    CTLP_REVOKE_B64_LEN)
		t_seed_fail("base64");
	t_seed_put(g, b64, CTLP_REVOKE_B64_LEN);
	t_seed_put(g, eol, strlen(eol));
}

int
main(int argc, char **argv)
{
	struct bs_identity ca, ca2, n1, n2, n3;
	struct t_seedbuf g = { gen_buf, sizeof(gen_buf), 0 };

	t_seed_main(argc, argv, "gen_revstore", T_SEED_SHA256);
	t_ident(&ca, 0xca);
	t_ident(&ca2, 0xcb);
	t_ident(&n1, 0x01);
	t_ident(&n2, 0x02);
	t_ident(&n3, 0x03);

	/* As batsecd writes it: three records of two CAs. */
	gen_record(&g, &ca, n1.pk, 1750000000, "\n");
	gen_record(&g, &ca, n2.pk, 1750000100, "\n");
	gen_record(&g, &ca2, n3.pk, 1750000200, "\n");
	t_seed_flush(&g);
	/* One record, no newline at the end (a crash mid-append). */
	gen_record(&g, &ca, n1.pk, 1, "");
	t_seed_flush(&g);
	/* A duplicate, a second issuer for the same key, CRLF, a comment,
	 * an empty line and a truncated record: skipped, kept, skipped... */
	gen_record(&g, &ca, n2.pk, 1750000100, "\n");
	gen_record(&g, &ca, n2.pk, 1750000100, "\n");
	gen_record(&g, &ca2, n2.pk, 1750000300, "\r\n");
	t_seed_put(&g, "# edited by hand\n\n", 18);
	gen_record(&g, &ca, n3.pk, 0, "\n");
	g.len -= 10;
	t_seed_flush(&g);
	/* The empty file. */
	t_seed_flush(&g);
	return 0;
}
