/*
 * fuzz_keyfile.c — the text parsers of the keys library on arbitrary bytes:
 * secret key and public key lines, certificate and revocation armour, and
 * the strict base64 decoder.  Every input goes through all of them.
 *
 * Checked with abort(): an accepted text is the canonical one (re-encoding
 * gives back the input), and every refusal leaves one line naming the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NAME "fuzz"

/* A refusal message is one non-empty line starting with the input's name. */
static void
fuzz_check_err(const char *err)
{
	size_t n = strlen(FUZZ_NAME);

	if (strncmp(err, FUZZ_NAME ": ", n + 2) != 0 || err[n + 2] == '\0' ||
	    strchr(err, '\n') != NULL)
		abort();
}

/* Accepted key text is exactly the canonical line, newline optional. */
static void
fuzz_check_line(const char *text, size_t len, const uint8_t key[static 32])
{
	char b64[BS_KEY_B64_LEN + 1];

	bs_key_to_b64(b64, key);
	if (len != BS_KEY_B64_LEN && len != BS_KEY_B64_LEN + 1)
		abort();
	if (memcmp(b64, text, BS_KEY_B64_LEN) != 0)
		abort();
	if (len == BS_KEY_B64_LEN + 1 && text[BS_KEY_B64_LEN] != '\n')
		abort();
}

/* Accepted armour is exactly what the encoder writes, final '\n' optional. */
static void
fuzz_check_armor(const char *text, size_t len, const char *out, int n)
{
	if (n < 0)
		abort();
	if ((size_t)n == len && memcmp(out, text, len) == 0)
		return;
	if ((size_t)n == len + 1 && memcmp(out, text, len) == 0)
		return;
	abort();
}

static void
fuzz_keys(const char *text, size_t size)
{
	char err[256];
	uint8_t key[32];

	err[0] = '\0';
	if (bs_seckey_parse(text, size, key, FUZZ_NAME, err, sizeof(err)) == 0)
		fuzz_check_line(text, size, key);
	else
		fuzz_check_err(err);
	if (bs_pubkey_parse(text, size, key, FUZZ_NAME, err, sizeof(err)) == 0)
		fuzz_check_line(text, size, key);
	else
		fuzz_check_err(err);
	if (bs_key_from_b64(key, text, size) == 0 && size != BS_KEY_B64_LEN)
		abort();
}

static void
fuzz_armor(const char *text, size_t size)
{
	char err[256], out[BS_ARMOR_MAX];
	struct bs_cert c;
	struct bs_revoke r;

	if (bs_cert_parse_armor(text, size, &c, FUZZ_NAME, err,
	    sizeof(err)) == 0)
		fuzz_check_armor(text, size, out,
		    bs_cert_to_armor(out, sizeof(out), &c));
	else
		fuzz_check_err(err);
	if (bs_revoke_parse_armor(text, size, &r, FUZZ_NAME, err,
	    sizeof(err)) == 0)
		fuzz_check_armor(text, size, out,
		    bs_revoke_to_armor(out, sizeof(out), &r));
	else
		fuzz_check_err(err);
}

/* The generic decoder, for each output length the input length allows. */
static void
fuzz_b64(const char *text, size_t size)
{
	uint8_t bin[BS_ARMOR_MAX];
	size_t full = size / 4 * 3, k;
	int n;

	if (full > sizeof(bin))
		return;
	for (k = 0; k < 3 && k < full; k++) {
		n = bs_b64_decode_exact(bin, full - k, text, size);
		if (n >= 0 && (size_t)n != full - k)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;

	fuzz_keys(text, size);
	fuzz_armor(text, size);
	fuzz_b64(text, size);
	return 0;
}
