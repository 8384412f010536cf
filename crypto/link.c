/*
 * link.c — pairwise link keys between neighbours and the per-frame MAC.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

static const char link_kdf_prefix[] = "batsec-link-v1";
static const char link_keyid_msg[] = "batsec-keyid";

#define LINK_PREFIX_LEN	(sizeof(link_kdf_prefix) - 1)
/* The tag is the head of a BLAKE2b-128 output (libsodium's shortest). */
#define LINK_MAC_FULL	16
_Static_assert(LINK_MAC_FULL >= crypto_generichash_BYTES_MIN &&
    BS_TAG_LEN <= LINK_MAC_FULL, "link tag is a prefix of BLAKE2b-128");

/*
 * Shared X25519 secret between our key and the peer's.  -1 when the peer's
 * key is not a valid point of the main subgroup (libsodium rejects small
 * order and non-canonical encodings) or the result is all zero.
 */
static int
link_shared(uint8_t shared[static crypto_scalarmult_BYTES],
    const struct bs_identity *own, const uint8_t peer_pk[static BS_PK_LEN])
{
	uint8_t own_x[crypto_scalarmult_SCALARBYTES];
	uint8_t peer_x[crypto_scalarmult_BYTES];
	int rc = -1;

	if (crypto_sign_ed25519_pk_to_curve25519(peer_x, peer_pk) != 0)
		return -1;
	if (crypto_sign_ed25519_sk_to_curve25519(own_x, own->sk) != 0)
		goto out;
	if (crypto_scalarmult(shared, own_x, peer_x) != 0)
		goto out;
	if (sodium_is_zero(shared, crypto_scalarmult_BYTES))
		goto out;
	rc = 0;
out:
	sodium_memzero(own_x, sizeof(own_x));
	if (rc != 0)
		sodium_memzero(shared, crypto_scalarmult_BYTES);
	return rc;
}

int
bs_link_key(uint8_t key[static BS_LINKKEY_LEN],
    const struct bs_identity *own, const uint8_t peer_pk[static BS_PK_LEN])
{
	uint8_t shared[crypto_scalarmult_BYTES];
	uint8_t msg[LINK_PREFIX_LEN + 2 * BS_PK_LEN];
	const uint8_t *lo = own->pk, *hi = peer_pk;
	int order = memcmp(own->pk, peer_pk, BS_PK_LEN);

	/* A link to ourselves is a reflected frame, never a neighbour. */
	if (order == 0)
		return -1;
	if (order > 0) {
		lo = peer_pk;
		hi = own->pk;
	}
	if (link_shared(shared, own, peer_pk) != 0)
		return -1;
	memcpy(msg, link_kdf_prefix, LINK_PREFIX_LEN);
	memcpy(msg + LINK_PREFIX_LEN, lo, BS_PK_LEN);
	memcpy(msg + LINK_PREFIX_LEN + BS_PK_LEN, hi, BS_PK_LEN);
	crypto_generichash(key, BS_LINKKEY_LEN, msg, sizeof(msg),
	    shared, sizeof(shared));
	sodium_memzero(shared, sizeof(shared));
	return 0;
}

void
bs_link_keyid(uint8_t id[static BS_KEYID_LEN],
    const uint8_t key[static BS_LINKKEY_LEN])
{
	uint8_t h[crypto_generichash_BYTES];

	crypto_generichash(h, sizeof(h), (const unsigned char *)link_keyid_msg,
	    sizeof(link_keyid_msg) - 1, key, BS_LINKKEY_LEN);
	memcpy(id, h, BS_KEYID_LEN);
}

void
bs_link_mac(uint8_t tag[static BS_TAG_LEN],
    const uint8_t key[static BS_LINKKEY_LEN],
    const uint8_t sender_addr[static BS_ADDR_LEN], uint64_t counter,
    const uint8_t *frame, size_t len)
{
	crypto_generichash_state st;
	uint8_t ctr[8], full[LINK_MAC_FULL];

	bs_put64(ctr, counter);
	crypto_generichash_init(&st, key, BS_LINKKEY_LEN, sizeof(full));
	crypto_generichash_update(&st, sender_addr, BS_ADDR_LEN);
	crypto_generichash_update(&st, ctr, sizeof(ctr));
	if (len != 0)
		crypto_generichash_update(&st, frame, len);
	crypto_generichash_final(&st, full, sizeof(full));
	memcpy(tag, full, BS_TAG_LEN);
	sodium_memzero(&st, sizeof(st));
	sodium_memzero(full, sizeof(full));
}

int
bs_link_mac_verify(const uint8_t tag[static BS_TAG_LEN],
    const uint8_t key[static BS_LINKKEY_LEN],
    const uint8_t sender_addr[static BS_ADDR_LEN], uint64_t counter,
    const uint8_t *frame, size_t len)
{
	uint8_t want[BS_TAG_LEN];
	int rc;

	if (frame == NULL && len != 0)
		return -1;
	bs_link_mac(want, key, sender_addr, counter, frame, len);
	rc = sodium_memcmp(want, tag, BS_TAG_LEN) == 0 ? 0 : -1;
	sodium_memzero(want, sizeof(want));
	return rc;
}
