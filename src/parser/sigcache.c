/*
 * sigcache.c — the verified-signature cache of the parser (sigcache.h).
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "sigcache.h"
#include "common/zmem.h"

_Static_assert((SIGCACHE_SLOTS_MIN & (SIGCACHE_SLOTS_MIN - 1)) == 0 &&
    (SIGCACHE_SLOTS_MAX & (SIGCACHE_SLOTS_MAX - 1)) == 0 &&
    SIGCACHE_SLOTS_MIN <= SIGCACHE_SLOTS_MAX,
    "SIGCACHE_SLOTS_MIN and _MAX are powers of two");
_Static_assert((SIGCACHE_WAYS & (SIGCACHE_WAYS - 1)) == 0 &&
    SIGCACHE_WAYS <= SIGCACHE_SLOTS_MIN && SIGCACHE_SLOTS_MIN >= 8,
    "SIGCACHE_WAYS is a power of two");
_Static_assert(SIGCACHE_KEY_LEN >= crypto_generichash_KEYBYTES_MIN &&
    SIGCACHE_KEY_LEN <= crypto_generichash_KEYBYTES_MAX, "cache key length");
_Static_assert(SIGCACHE_DIGEST_LEN >= crypto_generichash_BYTES_MIN,
    "digest length");


static void
sigcache_arrays_free(struct sigcache *t)
{
	zmem_free(t->slot, t->nslots, sizeof(*t->slot));
	zmem_free(t->chain, t->nslots, sizeof(*t->chain));
	free(t->used);
	t->slot = NULL;
	t->chain = NULL;
	t->used = NULL;
}

/* The three slot arrays of n slots (a power of two, >= 8): 0 or -1. */
static int
sigcache_arrays(struct sigcache *t, uint32_t n)
{
	t->slot = zmem_alloc(n, sizeof(*t->slot));
	t->chain = zmem_alloc(n, sizeof(*t->chain));
	t->used = calloc(n / 8, 1);
	t->nslots = n;
	if (t->slot == NULL || t->chain == NULL || t->used == NULL) {
		sigcache_arrays_free(t);
		return -1;
	}
	return 0;
}

/*
 * The hop chain's hash (crypto/chain.c, bs_chain_step) up to its input:
 * unkeyed BLAKE2b-128 that has taken the 16-byte label.
 */
static void
sigcache_chain_init(crypto_generichash_state *st)
{
	crypto_generichash_init(st, NULL, 0, BS_CHAIN_HASH_LEN);
	crypto_generichash_update(st, bs_chain_label, BS_CHAIN_LABEL_LEN);
}

int
sigcache_init(struct sigcache *c, const uint8_t key[static SIGCACHE_KEY_LEN])
{
	memset(c, 0, sizeof(*c));
	if (sigcache_arrays(c, SIGCACHE_SLOTS_MIN) != 0) {
		memset(c, 0, sizeof(*c));
		return -1;
	}
	if ((c->st = aligned_alloc(64, 2 * sizeof(*c->st))) == NULL) {
		sigcache_free(c);
		return -1;
	}
	memcpy(c->key, key, SIGCACHE_KEY_LEN);
	sigcache_chain_init(&c->st[0]);
	crypto_generichash_init(&c->st[1], c->key, SIGCACHE_KEY_LEN,
	    SIGCACHE_DIGEST_LEN);
	return 0;
}

void
sigcache_free(struct sigcache *c)
{
	sigcache_arrays_free(c);
	free(c->st);
	sodium_memzero(c, sizeof(*c));
}

/* A copy of prepared state which (0 chain, 1 digest), or a fresh one. */
static void
sigcache_state(const struct sigcache *c, int which,
    crypto_generichash_state *st)
{
	if (c->st != NULL)
		*st = c->st[which];
	else if (which == 0)
		sigcache_chain_init(st);
	else
		crypto_generichash_init(st, c->key, SIGCACHE_KEY_LEN,
		    SIGCACHE_DIGEST_LEN);
}

void
sigcache_chain_step(const struct sigcache *c, uint8_t out[static BS_CHAIN_LEN],
    const uint8_t in[static BS_CHAIN_LEN])
{
	crypto_generichash_state st;
	uint8_t h[BS_CHAIN_HASH_LEN];

	sigcache_state(c, 0, &st);
	crypto_generichash_update(&st, in, BS_CHAIN_LEN);
	crypto_generichash_final(&st, h, sizeof(h));
	memcpy(out, h, BS_CHAIN_LEN);
}

/* x <- H^n(x). */
static void
sigcache_chain_iter(const struct sigcache *c, uint8_t x[static BS_CHAIN_LEN],
    unsigned n)
{
	while (n-- > 0)
		sigcache_chain_step(c, x, x);
}

int
sigcache_chain_verify(struct sigcache *c, int slot,
    const uint8_t anchor[static BS_CHAIN_LEN],
    const uint8_t elem[static BS_CHAIN_LEN], unsigned hops)
{
	struct sigcache_chain *m;
	uint8_t x[BS_CHAIN_LEN];

	if (hops > BS_MAXHOPS)
		return -1;
	m = slot >= 0 && (uint32_t)slot < c->nslots && c->chain != NULL ?
	    &c->chain[slot] : NULL;
	if (m == NULL || m->hops > BS_MAXHOPS) {
		memcpy(x, elem, BS_CHAIN_LEN);
		sigcache_chain_iter(c, x, BS_MAXHOPS - hops);
		return sodium_memcmp(x, anchor, BS_CHAIN_LEN) == 0 ? 0 : -1;
	}
	/* A known element at m->hops: walk the shorter way to it. */
	if (hops >= m->hops) {
		memcpy(x, m->elem, BS_CHAIN_LEN);
		sigcache_chain_iter(c, x, hops - m->hops);
		return sodium_memcmp(x, elem, BS_CHAIN_LEN) == 0 ? 0 : -1;
	}
	memcpy(x, elem, BS_CHAIN_LEN);
	sigcache_chain_iter(c, x, m->hops - hops);
	if (sodium_memcmp(x, m->elem, BS_CHAIN_LEN) != 0)
		return -1;
	memcpy(m->elem, elem, BS_CHAIN_LEN);
	m->hops = (uint8_t)hops;
	return 0;
}

void
sigcache_digest(const struct sigcache *c, const uint8_t *signed_part,
    size_t len, const uint8_t sig[static BS_SIG_LEN],
    uint8_t out[static SIGCACHE_DIGEST_LEN])
{
	crypto_generichash_state st;

	sigcache_state(c, 1, &st);
	crypto_generichash_update(&st, signed_part, len);
	crypto_generichash_update(&st, sig, BS_SIG_LEN);
	crypto_generichash_final(&st, out, SIGCACHE_DIGEST_LEN);
}

void
sigcache_digest_bad(const uint8_t d[static SIGCACHE_DIGEST_LEN],
    uint8_t out[static SIGCACHE_DIGEST_LEN])
{
	memcpy(out, d, SIGCACHE_DIGEST_LEN);
	out[SIGCACHE_DIGEST_LEN - 1] ^= 0x80;
}

/* The first slot of a digest's set: its first bytes, already keyed. */
static uint32_t
sigcache_index(const struct sigcache *c,
    const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	uint32_t v;

	memcpy(&v, d, sizeof(v));
	return v & (c->nslots - 1) & ~(uint32_t)(SIGCACHE_WAYS - 1);
}

static int
sigcache_used(const struct sigcache *c, uint32_t i)
{
	return (c->used[i / 8] >> (i % 8)) & 1;
}

/*
 * The slot for digest d: the way of its set that holds it or is free,
 * else the way a digest byte (keyed) picks.
 */
static uint32_t
sigcache_place(const struct sigcache *c,
    const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	uint32_t i = sigcache_index(c, d), w;

	for (w = 0; w < SIGCACHE_WAYS; w++)
		if (!sigcache_used(c, i + w) ||
		    memcmp(c->slot[i + w], d, SIGCACHE_DIGEST_LEN) == 0)
			return i + w;
	return i + (d[4] & (SIGCACHE_WAYS - 1));
}

int
sigcache_fit(struct sigcache *c, uint32_t n_orig)
{
	struct sigcache t;
	uint32_t want = SIGCACHE_SLOTS_MIN, i, j;

	while (want < SIGCACHE_SLOTS_MAX &&
	    want < (uint64_t)n_orig * SIGCACHE_PER_ORIG)
		want *= 2;
	if (c->slot == NULL)
		return -1;
	if (want == c->nslots || (want < c->nslots && want > c->nslots / 4))
		return 0;
	if (sigcache_arrays(&t, want) != 0)
		return -1;
	/* Shrinking may fill a set: the later entry stays, as on insert. */
	for (i = 0; i < c->nslots; i++) {
		if (!sigcache_used(c, i))
			continue;
		j = sigcache_place(&t, c->slot[i]);
		memcpy(t.slot[j], c->slot[i], SIGCACHE_DIGEST_LEN);
		t.chain[j] = c->chain[i];
		t.used[j / 8] |= (uint8_t)(1u << (j % 8));
	}
	sigcache_arrays_free(c);
	c->slot = t.slot;
	c->chain = t.chain;
	c->used = t.used;
	c->nslots = t.nslots;
	return 0;
}

int
sigcache_find(struct sigcache *c, const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	uint32_t i, w;

	if (c->slot == NULL) {
		c->misses++;
		return -1;
	}
	i = sigcache_index(c, d);
	for (w = 0; w < SIGCACHE_WAYS; w++)
		if (sigcache_used(c, i + w) &&
		    memcmp(c->slot[i + w], d, SIGCACHE_DIGEST_LEN) == 0) {
			c->hits++;
			return (int)(i + w);
		}
	c->misses++;
	return -1;
}

int
sigcache_lookup(struct sigcache *c, const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	return sigcache_find(c, d) >= 0;
}

void
sigcache_insert(struct sigcache *c, const uint8_t d[static SIGCACHE_DIGEST_LEN])
{
	sigcache_insert_chain(c, d, NULL, 0);
}

void
sigcache_insert_chain(struct sigcache *c,
    const uint8_t d[static SIGCACHE_DIGEST_LEN], const uint8_t *elem,
    unsigned hops)
{
	uint32_t i;

	if (c->slot == NULL)
		return;
	i = sigcache_place(c, d);
	if (sigcache_used(c, i))
		c->replaced++;
	memcpy(c->slot[i], d, SIGCACHE_DIGEST_LEN);
	c->chain[i].hops = 0xff;
	if (elem != NULL && hops <= BS_MAXHOPS) {
		memcpy(c->chain[i].elem, elem, BS_CHAIN_LEN);
		c->chain[i].hops = (uint8_t)hops;
	}
	c->used[i / 8] |= (uint8_t)(1u << (i % 8));
	c->inserts++;
}
