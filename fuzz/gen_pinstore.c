/*
 * gen_pinstore.c — writes the seed corpus of fuzz_pinstore into the
 * directory named by argv[1]: pin store files as batsecd writes them (a
 * base64 key and the time of its last use a line), as older versions
 * wrote them (a key alone) and as a crash or an editor leaves them.  Each file
 * is named by (the first 20 bytes of) its SHA-256.  Deterministic.
 */
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "lib/t_ident.h"
#include "lib/t_seed.h"

#define GEN_FILE_MAX	(300 * (BS_KEY_B64_LEN + 2))

static uint8_t gen_buf[GEN_FILE_MAX];

/* The key of the identity with seed bytes fill, as a line. */
static void
gen_key(struct t_seedbuf *g, uint8_t fill, const char *eol)
{
	uint8_t pk[BS_PK_LEN];
	char b64[BS_KEY_B64_LEN + 1];

	t_ident_pk(pk, fill);
	bs_key_to_b64(b64, pk);
	t_seed_put(g, b64, BS_KEY_B64_LEN);
	t_seed_put(g, eol, strlen(eol));
}

int
main(int argc, char **argv)
{
	struct t_seedbuf g = { gen_buf, sizeof(gen_buf), 0 };
	unsigned i;

	t_seed_main(argc, argv, "gen_pinstore", T_SEED_SHA256);

	/* As batsecd writes it: three keys with their last use. */
	gen_key(&g, 0x01, " 1800000000\n");
	gen_key(&g, 0x02, " 1704067200\n");
	gen_key(&g, 0x03, " 0\n");
	t_seed_flush(&g);
	/* As older versions wrote it: keys alone. */
	gen_key(&g, 0x01, "\n");
	gen_key(&g, 0x02, "\n");
	gen_key(&g, 0x03, "\n");
	t_seed_flush(&g);
	/* Bad times of last use (kept as used now): none, letters, too
	 * many digits, two spaces, one far in the future. */
	gen_key(&g, 0x08, " \n");
	gen_key(&g, 0x09, " 17x\n");
	gen_key(&g, 0x0a, " 123456789012345678901234\n");
	gen_key(&g, 0x0b, "  1800000000\n");
	gen_key(&g, 0x0c, " 99999999999\n");
	t_seed_flush(&g);
	/* One key, no newline at the end (cut off). */
	gen_key(&g, 0x04, "");
	t_seed_flush(&g);
	/* A repeat, CRLF, a comment, an empty line, the zero key and a
	 * truncated key: skipped, and the good ones kept. */
	gen_key(&g, 0x05, "\n");
	gen_key(&g, 0x05, "\n");
	gen_key(&g, 0x06, "\r\n");
	t_seed_put(&g, "# edited by hand\n\n", 18);
	t_seed_put(&g, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", 45);
	gen_key(&g, 0x07, "\n");
	g.len -= 10;
	t_seed_flush(&g);
	/* More keys than one IPC_PINS message carries. */
	for (i = 0; i < 250; i++)
		gen_key(&g, (uint8_t)(0x10 + i), "\n");
	t_seed_flush(&g);
	/* The empty file. */
	t_seed_flush(&g);
	return 0;
}
