/*
 * chain.c — the hop chain: a relay can add hops but never remove them.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

static const char chain_key[] = "batsec-chain-v1";

void
bs_chain_step(uint8_t out[static BS_CHAIN_LEN],
    const uint8_t in[static BS_CHAIN_LEN])
{
	uint8_t h[BS_CHAIN_LEN];

	/* Through a temporary so out may alias in. */
	crypto_generichash(h, sizeof(h), in, BS_CHAIN_LEN,
	    (const unsigned char *)chain_key, sizeof(chain_key) - 1);
	memcpy(out, h, BS_CHAIN_LEN);
}

int
bs_chain_iter(uint8_t out[static BS_CHAIN_LEN],
    const uint8_t in[static BS_CHAIN_LEN], unsigned n)
{
	uint8_t x[BS_CHAIN_LEN];
	unsigned i;

	if (n > BS_MAXHOPS)
		return -1;
	memcpy(x, in, BS_CHAIN_LEN);
	for (i = 0; i < n; i++)
		bs_chain_step(x, x);
	memcpy(out, x, BS_CHAIN_LEN);
	return 0;
}

void
bs_chain_new(uint8_t seed[static BS_CHAIN_LEN],
    uint8_t anchor[static BS_CHAIN_LEN])
{
	randombytes_buf(seed, BS_CHAIN_LEN);
	(void)bs_chain_iter(anchor, seed, BS_MAXHOPS);
}

int
bs_chain_verify(const uint8_t anchor[static BS_CHAIN_LEN],
    const uint8_t element[static BS_CHAIN_LEN], unsigned hops)
{
	uint8_t x[BS_CHAIN_LEN];

	if (hops > BS_MAXHOPS)
		return -1;
	if (bs_chain_iter(x, element, BS_MAXHOPS - hops) != 0)
		return -1;
	return crypto_verify_16(x, anchor) == 0 ? 0 : -1;
}
