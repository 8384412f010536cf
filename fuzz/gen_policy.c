/*
 * gen_policy.c — write the seed corpus of fuzz_policy into a directory
 * (default fuzz/corpus/policy): policy texts prefixed with 'T' and their
 * binary snapshots, made by the library's own encoder, prefixed with 'S'.
 * Files are named by the BLAKE2b-128 of their content.  Policy files named
 * after the directory are added as text seeds too.
 *
 *   gen_policy fuzz/corpus/policy policy/examples/allowlist.policy ...
 *
 *   cc -Icrypto -Ikeys -Ipolicy fuzz/gen_policy.c build/libbatsec_policy.a \
 *       build/libbatsec_keys.a build/libbatsec_crypto.a -lsodium
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "lib/t_seed.h"

#define K1 "G6cRd9CZAu4AYp2bQx9p9Jb3VRTYyYWEpGS+l3qll8A="
#define K2 "ada5ZF49ZjIMqXmu97dzelDcnXtSxF5qvj0oeIkWY60="
#define K3 "jFYj63Veu3F3aLQjYQ2lxLQ4UpbCrxEY3HcpN1/ZgLY="
#define K4 "Ua7nWgfqEgLEVRaPrkLgLRb0bsAKKR1AkltK9/FREE8="
#define CA "wdi73D9nRD1/CicK00bC1Cv2ZnwLEGMi2CIAgrPv9Yk="

static const char *const texts[] = {
	"",
	"mode open\n",
	"# comment\n\nmode allowlist\ntrust " K1 " name alice gateway\n",
	"mode ca\nanchor " CA " name community\ntrust " K2 "\n",
	"trust " K1 " gateway name a.b-c_d\nblock " K1 "\nrevoke " K2 "\n",
	"include peers.d\ninclude /etc/batsec/keys.d\ntrust " K3 "\n",
	"limit originators 16\nlimit stranger-share 0\nlimit cert-every 1000\n"
	"limit verify-global-burst 10000000\nlimit roam-per-minute 0\n",
	"mode open\nanchor " CA "\ntrust " K4 " name x # note\n\tblock " K3
	"\t\n",
	"mode ca\nanchor " CA " revokes-anchors revocation-days 30\n"
	"anchor " K4 " name sub revocation-days 36500\n",
	/* Near misses for the error paths. */
	"mode ca\n",
	"trust " K1 "\ntrust " K1 "\n",
	"trust " K1 " name\n",
	"limit originators 15\n",
	"anchor " CA " revocation-days 0\n",
	"mode open\r\n",
	"frob\n",
};

/* One seed: the kind byte, then the data. */
static void
put_seed(char kind, const void *data, size_t len)
{
	uint8_t *buf = malloc(1 + len);

	if (buf == NULL)
		t_seed_fail("malloc");
	buf[0] = (uint8_t)kind;
	memcpy(buf + 1, data, len);
	t_seed_write(buf, 1 + len);
	free(buf);
}

static int
put_snapshot(const struct bs_policy *pol)
{
	size_t len = bs_policy_snapshot_len(pol);
	uint8_t *buf = malloc(len);

	if (buf == NULL || bs_policy_snapshot_encode(pol, buf, len, &len) != 0)
		return -1;
	put_seed('S', buf, len);
	free(buf);
	return 0;
}

/* A text seed, and the snapshot of its policy when it parses. */
static int
put_text(const char *text, size_t len)
{
	struct bs_policy *pol;
	char err[256];
	int r;

	put_seed('T', text, len);
	if (bs_policy_parse_buf(text, len, "seed", NULL,
	    BS_POLICY_SKIP_INCLUDE, &pol, err, sizeof(err)) != 0)
		return 0;
	r = put_snapshot(pol);
	bs_policy_free(pol);
	return r;
}

static int
put_file(const char *path)
{
	static char buf[65536];
	size_t len;
	FILE *f = fopen(path, "rb");

	if (f == NULL) {
		perror(path);
		return -1;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return put_text(buf, len);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "fuzz/corpus/policy";
	size_t i;
	int a;

	t_seed_open("gen_policy", dir, T_SEED_BLAKE2B);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (put_text(texts[i], strlen(texts[i])) != 0)
			return 1;
	for (a = 2; a < argc; a++)
		if (put_file(argv[a]) != 0)
			return 1;
	return 0;
}
