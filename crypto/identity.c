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

/*
 * The last addresses computed, by key: the forwarder derives the address
 * of an originator's key for each route, relay and policy check, about
 * one BLAKE2b per OGM entry heard, always for the same few hundred keys.
 * Direct-mapped on the key's first byte (keys are uniform; a crafted key
 * only evicts, costing one hash as without the memo).  Public data only;
 * each process has its own copy, and the daemons are single-threaded.
 */
#define ADDR_MEMO_SLOTS 256
static struct {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t used;
} addr_memo[ADDR_MEMO_SLOTS];

void
bs_mesh_addr(uint8_t addr[static BS_ADDR_LEN],
    const uint8_t pk[static BS_PK_LEN])
{
	uint8_t h[crypto_generichash_BYTES];
	unsigned slot = pk[0] % ADDR_MEMO_SLOTS;

	if (addr_memo[slot].used &&
	    memcmp(addr_memo[slot].pk, pk, BS_PK_LEN) == 0) {
		memcpy(addr, addr_memo[slot].addr, BS_ADDR_LEN);
		return;
	}
	crypto_generichash(h, sizeof(h), pk, BS_PK_LEN,
	    (const unsigned char *)addr_hash_key, sizeof(addr_hash_key) - 1);
	memcpy(addr, h, BS_ADDR_LEN);
	/* A unicast, locally administered MAC address. */
	addr[0] = (uint8_t)((addr[0] | 0x02) & ~0x01);
	memcpy(addr_memo[slot].pk, pk, BS_PK_LEN);
	memcpy(addr_memo[slot].addr, addr, BS_ADDR_LEN);
	addr_memo[slot].used = 1;
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
