/*
 * sign.c — detached Ed25519 signatures with domain separation, and the raw
 * RFC 8032 primitive.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

/* Stands in for a NULL message of length 0 when calling libsodium. */
static const uint8_t sign_empty[1];

/*
 * The 16-byte, NUL-padded label for a domain, or NULL for an unknown one.
 * The labels are part of every signed message: changing one breaks the
 * wire format.
 */
static const char *
sign_label(enum bs_domain dom)
{
	switch (dom) {
	case BS_DOM_HELLO:
		return "batsec1 hello";
	case BS_DOM_OGM:
		return "batsec1 ogm";
	case BS_DOM_CERT:
		return "batsec1 cert";
	case BS_DOM_REVOKE:
		return "batsec1 revoke";
	case BS_DOM_LINK:
		return "batsec1 link";
	case BS_DOM_BCAST:
		return "batsec2 bcast";
	case BS_DOM_BLA:
		return "batsec2 bla";
	}
	return NULL;
}

/*
 * Build label || msg into buf (BS_DOMAIN_LABEL_LEN + BS_SIGN_MAX_MSG bytes).
 * Returns the total length, or 0 when the domain or the length is invalid.
 */
static size_t
sign_build(uint8_t *buf, enum bs_domain dom, const uint8_t *msg, size_t len)
{
	const char *label = sign_label(dom);

	if (label == NULL || len > BS_SIGN_MAX_MSG)
		return 0;
	if (msg == NULL && len != 0)
		return 0;
	memset(buf, 0, BS_DOMAIN_LABEL_LEN);
	memcpy(buf, label, strlen(label));
	if (len != 0)
		memcpy(buf + BS_DOMAIN_LABEL_LEN, msg, len);
	return BS_DOMAIN_LABEL_LEN + len;
}

int
bs_sign(uint8_t sig[static BS_SIG_LEN], enum bs_domain dom,
    const uint8_t *msg, size_t len, const struct bs_identity *id)
{
	uint8_t buf[BS_DOMAIN_LABEL_LEN + BS_SIGN_MAX_MSG];
	size_t n = sign_build(buf, dom, msg, len);

	if (n == 0)
		return -1;
	return crypto_sign_detached(sig, NULL, buf, n, id->sk) == 0 ? 0 : -1;
}

int
bs_verify(const uint8_t sig[static BS_SIG_LEN], enum bs_domain dom,
    const uint8_t *msg, size_t len, const uint8_t pk[static BS_PK_LEN])
{
	uint8_t buf[BS_DOMAIN_LABEL_LEN + BS_SIGN_MAX_MSG];
	size_t n = sign_build(buf, dom, msg, len);

	if (n == 0)
		return -1;
	return crypto_sign_verify_detached(sig, buf, n, pk) == 0 ? 0 : -1;
}

int
bs_ed25519_sign_raw(uint8_t sig[static BS_SIG_LEN], const uint8_t *msg,
    size_t len, const struct bs_identity *id)
{
	if (msg == NULL && len != 0)
		return -1;
	if (len == 0)
		msg = sign_empty;
	return crypto_sign_detached(sig, NULL, msg, len, id->sk) == 0 ? 0 : -1;
}

int
bs_ed25519_verify_raw(const uint8_t sig[static BS_SIG_LEN],
    const uint8_t *msg, size_t len, const uint8_t pk[static BS_PK_LEN])
{
	if (msg == NULL && len != 0)
		return -1;
	if (len == 0)
		msg = sign_empty;
	return crypto_sign_verify_detached(sig, msg, len, pk) == 0 ? 0 : -1;
}
