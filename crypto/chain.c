/*
 * chain.c — the hop chain: a relay can add hops but never remove them.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"

/*
 * The label is the first 16 bytes of the hashed message, not a BLAKE2b
 * key: a keyed BLAKE2b compresses the key as a block of its own, so the
 * unkeyed form over label || x (28 bytes, one block) costs half as much
 * (224 against 438 ns on the 2-core VM), and OGMs are authenticated by
 * this function alone (bs_chain_link).  "v3": 12-byte elements, the head
 * of the 16-byte output (v2 used all 16).
 */
const uint8_t bs_chain_label[BS_CHAIN_LABEL_LEN] = "batsec-chain-v3";

_Static_assert(BS_CHAIN_HASH_LEN >= crypto_generichash_BYTES_MIN &&
    BS_CHAIN_LEN <= BS_CHAIN_HASH_LEN, "element is a prefix of the hash");

void
bs_chain_step(uint8_t out[static BS_CHAIN_LEN],
    const uint8_t in[static BS_CHAIN_LEN])
{
	uint8_t m[BS_CHAIN_LABEL_LEN + BS_CHAIN_LEN], h[BS_CHAIN_HASH_LEN];

	/* Through a temporary so out may alias in. */
	memcpy(m, bs_chain_label, BS_CHAIN_LABEL_LEN);
	memcpy(m + BS_CHAIN_LABEL_LEN, in, BS_CHAIN_LEN);
	crypto_generichash(h, sizeof(h), m, sizeof(m), NULL, 0);
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
	return sodium_memcmp(x, anchor, BS_CHAIN_LEN) == 0 ? 0 : -1;
}

/* ---- the OGM chain ---------------------------------------------------- */

/*
 * Position of (seqno, hops) relative to (ref_seqno, ref_hops): how many
 * steps lead from the first to the second (negative: the other way).
 * Each sequence number takes BS_MAXHOPS positions; a later one is nearer
 * the seed (bs_ogmchain_new).
 */
int64_t
bs_chain_dist(uint32_t ref_seqno, unsigned ref_hops, uint32_t seqno,
    unsigned hops)
{
	int32_t ds = (int32_t)(seqno - ref_seqno);

	return (int64_t)ds * BS_MAXHOPS + (int64_t)ref_hops - (int64_t)hops;
}

void
bs_ogmchain_new(struct bs_ogmchain *c, uint32_t base)
{
	uint8_t x[BS_CHAIN_LEN];
	unsigned i;

	randombytes_buf(x, sizeof(x));
	for (i = BS_OGMCHAIN_SEQNOS; i-- > 0;) {
		memcpy(c->hop0[i], x, BS_CHAIN_LEN);
		(void)bs_chain_iter(x, x, BS_MAXHOPS);
	}
	memcpy(c->anchor0, x, BS_CHAIN_LEN);
	sodium_memzero(x, sizeof(x));
	c->base = base;
	c->valid = 1;
}

int
bs_ogmchain_get(const struct bs_ogmchain *c, uint32_t seqno,
    uint8_t element[static BS_CHAIN_LEN], uint8_t anchor[static BS_CHAIN_LEN])
{
	uint32_t i = seqno - c->base;

	if (!c->valid || i >= BS_OGMCHAIN_SEQNOS)
		return -1;
	memcpy(element, c->hop0[i], BS_CHAIN_LEN);
	memcpy(anchor, i > 0 ? c->hop0[i - 1] : c->anchor0, BS_CHAIN_LEN);
	return 0;
}

int
bs_chain_link(const uint8_t ref[static BS_CHAIN_LEN], uint32_t ref_seqno,
    unsigned ref_hops, const uint8_t element[static BS_CHAIN_LEN],
    uint32_t seqno, unsigned hops, unsigned max_steps, unsigned *steps)
{
	int64_t d = bs_chain_dist(ref_seqno, ref_hops, seqno, hops);
	uint64_t n = d < 0 ? (uint64_t)-d : (uint64_t)d;
	uint8_t x[BS_CHAIN_LEN];
	uint64_t i;

	*steps = 0;
	if (ref_hops > BS_MAXHOPS || hops > BS_MAXHOPS || n > max_steps)
		return -1;
	/* Hash the nearer-to-the-seed one towards the other. */
	memcpy(x, d >= 0 ? element : ref, BS_CHAIN_LEN);
	for (i = 0; i < n; i++)
		bs_chain_step(x, x);
	*steps = (unsigned)n;
	return sodium_memcmp(x, d >= 0 ? ref : element, BS_CHAIN_LEN) == 0 ?
	    0 : -1;
}
