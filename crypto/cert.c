/*
 * cert.c — certificates: canonical encoding, strict decoding, issuing and
 * verification against a trust anchor.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

/* Field offsets of the canonical encoding (see batsec_crypto.h). */
#define CERT_OFF_VERSION	0
#define CERT_OFF_ROLES		1
#define CERT_OFF_NAMELEN	2
#define CERT_OFF_RESERVED	3
#define CERT_OFF_NODE		4
#define CERT_OFF_ISSUER		36
#define CERT_OFF_NBEFORE	68
#define CERT_OFF_NAFTER		76
#define CERT_OFF_NAME		84
#define CERT_OFF_SIG		BS_CERT_SIGNED_LEN

_Static_assert(CERT_OFF_NAME + BS_CERT_NAME_MAX == BS_CERT_SIGNED_LEN,
    "certificate layout");
_Static_assert(BS_CERT_SIGNED_LEN + BS_SIG_LEN == BS_CERT_LEN,
    "certificate length");

/* 1 when the n bytes of name are all printable ASCII without space. */
static int
cert_name_ok(const uint8_t *name, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (name[i] < 0x21 || name[i] > 0x7e)
			return 0;
	return 1;
}

/* What is wrong with the fields of a certificate structure, or NULL. */
static const char *
cert_fields_problem(const struct bs_cert *c)
{
	size_t n = strnlen(c->name, sizeof(c->name));

	if (c->roles & ~BS_ROLE_MASK)
		return "unknown role bits";
	if (n > BS_CERT_NAME_MAX)
		return "name longer than 32 bytes";
	if (!cert_name_ok((const uint8_t *)c->name, n))
		return "name has a byte outside 0x21..0x7e";
	if (c->not_after <= c->not_before)
		return "not-after is not later than not-before";
	return NULL;
}

/* Canonical bytes 0..BS_CERT_SIGNED_LEN-1 (everything but the signature). */
static void
cert_encode_signed(uint8_t out[static BS_CERT_SIGNED_LEN],
    const struct bs_cert *c)
{
	size_t n = strnlen(c->name, BS_CERT_NAME_MAX);

	memset(out, 0, BS_CERT_SIGNED_LEN);
	out[CERT_OFF_VERSION] = BS_CERT_VERSION;
	out[CERT_OFF_ROLES] = c->roles;
	out[CERT_OFF_NAMELEN] = (uint8_t)n;
	memcpy(out + CERT_OFF_NODE, c->node_pk, BS_PK_LEN);
	memcpy(out + CERT_OFF_ISSUER, c->issuer_pk, BS_PK_LEN);
	bs_put64(out + CERT_OFF_NBEFORE, c->not_before);
	bs_put64(out + CERT_OFF_NAFTER, c->not_after);
	memcpy(out + CERT_OFF_NAME, c->name, n);
}

void
bs_cert_encode(uint8_t out[static BS_CERT_LEN], const struct bs_cert *c)
{
	cert_encode_signed(out, c);
	memcpy(out + CERT_OFF_SIG, c->sig, BS_SIG_LEN);
}

const char *
bs_cert_format_problem(const uint8_t *in, size_t len)
{
	size_t n, i;

	if (in == NULL || len != BS_CERT_LEN)
		return "length is not 180 bytes";
	if (in[CERT_OFF_VERSION] != BS_CERT_VERSION)
		return "unsupported format version";
	if (in[CERT_OFF_ROLES] & ~BS_ROLE_MASK)
		return "unknown role bits";
	if (in[CERT_OFF_RESERVED] != 0)
		return "reserved byte not zero";
	n = in[CERT_OFF_NAMELEN];
	if (n > BS_CERT_NAME_MAX)
		return "name longer than 32 bytes";
	if (!cert_name_ok(in + CERT_OFF_NAME, n))
		return "name has a byte outside 0x21..0x7e";
	for (i = n; i < BS_CERT_NAME_MAX; i++)
		if (in[CERT_OFF_NAME + i] != 0)
			return "name padding not zero";
	if (bs_get64(in + CERT_OFF_NAFTER) <= bs_get64(in + CERT_OFF_NBEFORE))
		return "not-after is not later than not-before";
	return NULL;
}

int
bs_cert_decode(struct bs_cert *c, const uint8_t *in, size_t len)
{
	size_t n;

	if (bs_cert_format_problem(in, len) != NULL)
		return BS_CERT_EFORMAT;
	memset(c, 0, sizeof(*c));
	n = in[CERT_OFF_NAMELEN];
	c->roles = in[CERT_OFF_ROLES];
	memcpy(c->node_pk, in + CERT_OFF_NODE, BS_PK_LEN);
	memcpy(c->issuer_pk, in + CERT_OFF_ISSUER, BS_PK_LEN);
	c->not_before = bs_get64(in + CERT_OFF_NBEFORE);
	c->not_after = bs_get64(in + CERT_OFF_NAFTER);
	memcpy(c->name, in + CERT_OFF_NAME, n);
	memcpy(c->sig, in + CERT_OFF_SIG, BS_SIG_LEN);
	return BS_CERT_OK;
}

int
bs_cert_issue(struct bs_cert *c, const struct bs_identity *ca,
    const uint8_t node_pk[static BS_PK_LEN], const char *name,
    uint8_t roles, uint64_t not_before, uint64_t not_after)
{
	uint8_t buf[BS_CERT_SIGNED_LEN];
	size_t n;

	if (name == NULL)
		return -1;
	n = strnlen(name, BS_CERT_NAME_MAX + 1);
	if (n > BS_CERT_NAME_MAX)
		return -1;
	memset(c, 0, sizeof(*c));
	c->roles = roles;
	memcpy(c->node_pk, node_pk, BS_PK_LEN);
	memcpy(c->issuer_pk, ca->pk, BS_PK_LEN);
	c->not_before = not_before;
	c->not_after = not_after;
	memcpy(c->name, name, n);
	if (cert_fields_problem(c) != NULL)
		goto fail;
	cert_encode_signed(buf, c);
	if (bs_sign(c->sig, BS_DOM_CERT, buf, sizeof(buf), ca) != 0)
		goto fail;
	return 0;
fail:
	memset(c, 0, sizeof(*c));
	return -1;
}

/* BS_CERT_OK, BS_CERT_ENOTYET or BS_CERT_EEXPIRED; written to not overflow. */
static int
cert_check_window(const struct bs_cert *c, uint64_t now)
{
	if (now == 0)
		return BS_CERT_OK;
	if (now < c->not_before && c->not_before - now > BS_CERT_SKEW)
		return BS_CERT_ENOTYET;
	if (now > c->not_after && now - c->not_after > BS_CERT_SKEW)
		return BS_CERT_EEXPIRED;
	return BS_CERT_OK;
}

int
bs_cert_verify(const struct bs_cert *c,
    const uint8_t anchor_pk[static BS_PK_LEN], uint64_t now)
{
	uint8_t buf[BS_CERT_SIGNED_LEN];

	if (cert_fields_problem(c) != NULL)
		return BS_CERT_EFORMAT;
	if (sodium_memcmp(c->issuer_pk, anchor_pk, BS_PK_LEN) != 0)
		return BS_CERT_EISSUER;
	cert_encode_signed(buf, c);
	if (bs_verify(c->sig, BS_DOM_CERT, buf, sizeof(buf), anchor_pk) != 0)
		return BS_CERT_ESIG;
	return cert_check_window(c, now);
}

const char *
bs_cert_strerror(int err)
{
	switch (err) {
	case BS_CERT_OK:
		return "valid";
	case BS_CERT_EFORMAT:
		return "malformed certificate";
	case BS_CERT_EISSUER:
		return "issuer is not a trusted anchor";
	case BS_CERT_ESIG:
		return "bad signature";
	case BS_CERT_ENOTYET:
		return "not yet valid";
	case BS_CERT_EEXPIRED:
		return "expired";
	}
	return "unknown certificate error";
}
