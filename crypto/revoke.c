/*
 * revoke.c — revocation records: canonical encoding, strict decoding,
 * issuing and verification against a trust anchor.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

#define REV_OFF_VERSION		0
#define REV_OFF_RESERVED	1
#define REV_RESERVED_LEN	3
#define REV_OFF_REVOKED		4
#define REV_OFF_ISSUER		36
#define REV_OFF_ISSUED		68
#define REV_OFF_SIG		BS_REVOKE_SIGNED_LEN

_Static_assert(REV_OFF_ISSUED + 8 == BS_REVOKE_SIGNED_LEN, "revocation layout");
_Static_assert(BS_REVOKE_SIGNED_LEN + BS_SIG_LEN == BS_REVOKE_LEN,
    "revocation length");

static void
revoke_encode_signed(uint8_t out[static BS_REVOKE_SIGNED_LEN],
    const struct bs_revoke *r)
{
	memset(out, 0, BS_REVOKE_SIGNED_LEN);
	out[REV_OFF_VERSION] = BS_REVOKE_VERSION;
	memcpy(out + REV_OFF_REVOKED, r->revoked_pk, BS_PK_LEN);
	memcpy(out + REV_OFF_ISSUER, r->issuer_pk, BS_PK_LEN);
	bs_put64(out + REV_OFF_ISSUED, r->issued_at);
}

void
bs_revoke_encode(uint8_t out[static BS_REVOKE_LEN], const struct bs_revoke *r)
{
	revoke_encode_signed(out, r);
	memcpy(out + REV_OFF_SIG, r->sig, BS_SIG_LEN);
}

const char *
bs_revoke_format_problem(const uint8_t *in, size_t len)
{
	size_t i;

	if (in == NULL || len != BS_REVOKE_LEN)
		return "length is not 140 bytes";
	if (in[REV_OFF_VERSION] != BS_REVOKE_VERSION)
		return "unsupported format version";
	for (i = 0; i < REV_RESERVED_LEN; i++)
		if (in[REV_OFF_RESERVED + i] != 0)
			return "reserved byte not zero";
	return NULL;
}

int
bs_revoke_decode(struct bs_revoke *r, const uint8_t *in, size_t len)
{
	if (bs_revoke_format_problem(in, len) != NULL)
		return -1;
	memset(r, 0, sizeof(*r));
	memcpy(r->revoked_pk, in + REV_OFF_REVOKED, BS_PK_LEN);
	memcpy(r->issuer_pk, in + REV_OFF_ISSUER, BS_PK_LEN);
	r->issued_at = bs_get64(in + REV_OFF_ISSUED);
	memcpy(r->sig, in + REV_OFF_SIG, BS_SIG_LEN);
	return 0;
}

int
bs_revoke_issue(struct bs_revoke *r, const struct bs_identity *ca,
    const uint8_t revoked_pk[static BS_PK_LEN], uint64_t issued_at)
{
	uint8_t buf[BS_REVOKE_SIGNED_LEN];

	memset(r, 0, sizeof(*r));
	memcpy(r->revoked_pk, revoked_pk, BS_PK_LEN);
	memcpy(r->issuer_pk, ca->pk, BS_PK_LEN);
	r->issued_at = issued_at;
	revoke_encode_signed(buf, r);
	if (bs_sign(r->sig, BS_DOM_REVOKE, buf, sizeof(buf), ca) != 0) {
		memset(r, 0, sizeof(*r));
		return -1;
	}
	return 0;
}

int
bs_revoke_verify(const struct bs_revoke *r,
    const uint8_t anchor_pk[static BS_PK_LEN])
{
	uint8_t buf[BS_REVOKE_SIGNED_LEN];

	if (sodium_memcmp(r->issuer_pk, anchor_pk, BS_PK_LEN) != 0)
		return -1;
	revoke_encode_signed(buf, r);
	return bs_verify(r->sig, BS_DOM_REVOKE, buf, sizeof(buf), anchor_pk);
}
