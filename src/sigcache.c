/*
 * sigcache.c — the verified-signature cache of the parser (sigcache.h).
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "sigcache.h"

_Static_assert((SIGCACHE_SLOTS & (SIGCACHE_SLOTS - 1)) == 0,
    "SIGCACHE_SLOTS is a power of two");
_Static_assert(SIGCACHE_KEY_LEN >= crypto_generichash_KEYBYTES_MIN &&
    SIGCACHE_KEY_LEN <= crypto_generichash_KEYBYTES_MAX, "cache key length");
_Static_assert(SIGCACHE_DIGEST_LEN >= crypto_generichash_BYTES_MIN,
    "digest length");

int
sigcache_init(struct sigcache *c, const uint8_t key[static SIGCACHE_KEY_LEN])
{
	memset(c, 0, sizeof(*c));
	c->slot = calloc(SIGCACHE_SLOTS, sizeof(*c->slot));
	c->used = calloc(SIGCACHE_SLOTS / 8, 1);
	if (c->slot == NULL || c->used == NULL) {
		sigcache_free(c);
		return -1;
	}
	memcpy(c->key, key, SIGCACHE_KEY_LEN);
	return 0;
}

void
sigcache_free(struct sigcache *c)
{
	free(c->slot);
	free(c->used);
	sodium_memzero(c, sizeof(*c));
}

void
sigcache_clear(struct sigcache *c)
{
	if (c->used != NULL)
		memset(c->used, 0, SIGCACHE_SLOTS / 8);
}

void
sigcache_digest(const struct sigcache *c, const uint8_t *signed_part,
    size_t len, const uint8_t sig[static BS_SIG_LEN],
    uint8_t out[static SIGCACHE_DIGEST_LEN])
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, c->key, SIGCACHE_KEY_LEN,
	    SIGCACHE_DIGEST_LEN);
	crypto_generichash_update(&st, signed_part, len);
	crypto_generichash_update(&st, sig, BS_SIG_LEN);
	crypto_generichash_final(&st, out, SIGCACHE_DIGEST_LEN);
}

/* The slot a digest lives in: its first bytes, already keyed. */
static uint32_t
sigcache_index(const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	uint32_t v;

	memcpy(&v, d, sizeof(v));
	return v & (SIGCACHE_SLOTS - 1);
}

static int
sigcache_used(const struct sigcache *c, uint32_t i)
{
	return (c->used[i / 8] >> (i % 8)) & 1;
}

int
sigcache_lookup(struct sigcache *c, const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	uint32_t i = sigcache_index(d);

	if (c->slot != NULL && sigcache_used(c, i) &&
	    memcmp(c->slot[i], d, SIGCACHE_DIGEST_LEN) == 0) {
		c->hits++;
		return 1;
	}
	c->misses++;
	return 0;
}

void
sigcache_insert(struct sigcache *c, const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	uint32_t i = sigcache_index(d);

	if (c->slot == NULL)
		return;
	if (sigcache_used(c, i))
		c->replaced++;
	memcpy(c->slot[i], d, SIGCACHE_DIGEST_LEN);
	c->used[i / 8] |= (uint8_t)(1u << (i % 8));
	c->inserts++;
}
