/*
 * identity.c — library start-up, node identity, mesh address, randomness.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

/* Key of the BLAKE2b hash that turns a public key into a mesh address. */
static const char addr_hash_key[] = "batsec-addr-v1";

int
bs_crypto_init(void)
{
	/* sodium_init returns 1 when already initialised, which is fine. */
	return sodium_init() < 0 ? -1 : 0;
}

int
bs_identity_from_seed(struct bs_identity *id,
    const uint8_t seed[static BS_SEED_LEN])
{
	/* memmove: the caller may pass id->seed itself. */
	memmove(id->seed, seed, BS_SEED_LEN);
	if (crypto_sign_seed_keypair(id->pk, id->sk, id->seed) != 0) {
		bs_identity_wipe(id);
		return -1;
	}
	return 0;
}

int
bs_identity_generate(struct bs_identity *id)
{
	uint8_t seed[BS_SEED_LEN];
	int rc;

	randombytes_buf(seed, sizeof(seed));
	rc = bs_identity_from_seed(id, seed);
	sodium_memzero(seed, sizeof(seed));
	return rc;
}

void
bs_identity_wipe(struct bs_identity *id)
{
	sodium_memzero(id, sizeof(*id));
}

void
bs_mesh_addr(uint8_t addr[static BS_ADDR_LEN],
    const uint8_t pk[static BS_PK_LEN])
{
	uint8_t h[crypto_generichash_BYTES];

	crypto_generichash(h, sizeof(h), pk, BS_PK_LEN,
	    (const unsigned char *)addr_hash_key, sizeof(addr_hash_key) - 1);
	memcpy(addr, h, BS_ADDR_LEN);
	/* A unicast, locally administered MAC address. */
	addr[0] = (uint8_t)((addr[0] | 0x02) & ~0x01);
}

void
bs_random(void *buf, size_t len)
{
	randombytes_buf(buf, len);
}

uint32_t
bs_random_uniform(uint32_t upper)
{
	return randombytes_uniform(upper);
}
