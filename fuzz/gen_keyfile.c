/*
 * gen_keyfile.c — writes the seed corpus of fuzz_keyfile into the directory
 * named by argv[1], each file named by (the first 20 bytes of) its SHA-256:
 * key lines, certificate and revocation armour, near misses, and past
 * crashes.
 */
#include <string.h>

#include "batsec_keys.h"
#include "lib/t_ident.h"
#include "lib/t_seed.h"

static void
gen_str(const char *text)
{
	t_seed_write(text, strlen(text));
}

/* The armour text, and the same without its final newline. */
static void
gen_armor(const char *text, int n)
{
	if (n <= 0)
		t_seed_fail("armour");
	t_seed_write(text, (size_t)n);
	t_seed_write(text, (size_t)n - 1);
}

int
main(int argc, char **argv)
{
	struct bs_identity ca, node;
	struct bs_cert c;
	struct bs_revoke r;
	char line[BS_KEY_B64_LEN + 2], text[BS_ARMOR_MAX];

	t_seed_main(argc, argv, "gen_keyfile", T_SEED_SHA256);
	t_ident(&ca, 0x01);
	t_ident(&node, 0x42);
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
