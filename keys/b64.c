/*
 * b64.c — strict base64 for keys and armour, message helpers, addresses.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "batsec_keys.h"
#include "keys_impl.h"

#define B64_VARIANT	sodium_base64_VARIANT_ORIGINAL

void
keys_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *
keys_name(const char *name)
{
	return name != NULL ? name : "(input)";
}

void
bs_key_to_b64(char out[static BS_KEY_B64_LEN + 1],
    const uint8_t key[static 32])
{
	sodium_bin2base64(out, BS_KEY_B64_LEN + 1, key, 32, B64_VARIANT);
}

int
bs_key_from_b64(uint8_t key[static 32], const char *s, size_t len)
{
	if (s == NULL || len != BS_KEY_B64_LEN)
		return -1;
	return bs_b64_decode_exact(key, 32, s, len) == 32 ? 0 : -1;
}

int
bs_b64_encode(char *out, size_t outlen, const uint8_t *in, size_t inlen)
{
	size_t need = sodium_base64_ENCODED_LEN(inlen, B64_VARIANT);

	/* need counts the NUL; the text length must also fit an int. */
	if (out == NULL || outlen < need || need - 1 > (size_t)INT_MAX)
		return -1;
	if (in == NULL && inlen != 0)
		return -1;
	sodium_bin2base64(out, outlen, in, inlen, B64_VARIANT);
	return (int)(need - 1);
}

/*
 * 1 when any byte of s has its high bit set.  libsodium 1.0.18's
 * sodium_base642bin reads such bytes as a signed char and decodes every one
 * of 0x80..0xff as '/', so they must be refused before it sees them.
 * Branch-free, like the decoder itself, since key text is secret.
 */
static int
b64_has_high_bytes(const char *s, size_t len)
{
	unsigned acc = 0;
	size_t i;

	for (i = 0; i < len; i++)
		acc |= (unsigned char)s[i];
	return (acc & 0x80) != 0;
}

int
bs_b64_decode_exact(uint8_t *out, size_t outlen, const char *in,
    size_t inlen)
{
	size_t got = 0;

	if (out == NULL || in == NULL || outlen > (size_t)INT_MAX)
		return -1;
	/* Canonical padded base64 of outlen bytes has exactly this length. */
	if (inlen != sodium_base64_ENCODED_LEN(outlen, B64_VARIANT) - 1 ||
	    b64_has_high_bytes(in, inlen))
		return -1;
	/*
	 * No ignore set and no end pointer: libsodium then refuses any
	 * character outside the alphabet, missing or extra padding, non-zero
	 * unused bits, and input it did not consume entirely.
	 */
	if (sodium_base642bin(out, outlen, in, inlen, NULL, &got, NULL,
	    B64_VARIANT) != 0 || got != outlen) {
		sodium_memzero(out, outlen);
		return -1;
	}
	return (int)got;
}

void
bs_addr_to_str(char out[static 18], const uint8_t addr[static 6])
{
	(void)snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
	    addr[0], addr[1], addr[2], addr[3], addr[4], addr[5]);
}
