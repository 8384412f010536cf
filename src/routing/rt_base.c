/*
 * rt_base.c — hashing, bucket arrays and elapsed time, which the
 * neighbour and originator tables share (rt_base.h).
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "routing_int.h"
#include "rt_base.h"

_Static_assert(crypto_shorthash_KEYBYTES == ROUTING_HASH_KEY_LEN,
    "hash key length");

/* ---- hashing ------------------------------------------------------------ */

/* SipHash-2-4 of (ifindex, key) under the table's random key. */
uint32_t
rt_hash(const struct routing *rt, uint32_t ifindex, const uint8_t *key,
    size_t len)
{
	uint8_t buf[4 + BS_PK_LEN];
	uint8_t out[crypto_shorthash_BYTES];
	uint32_t h;

	if (len > BS_PK_LEN)
		len = BS_PK_LEN;
	memcpy(buf, &ifindex, 4);
	memcpy(buf + 4, key, len);
	crypto_shorthash(out, buf, 4 + len, rt->hkey);
	memcpy(&h, out, sizeof(h));
	return h;
}

/* ---- bucket arrays ------------------------------------------------------ */

uint32_t
rt_buckets_for(uint32_t cap)
{
	uint32_t n = 16;

	while (n < cap)
		n <<= 1;
	return n;
}

/* n bucket heads, all empty; NULL when out of memory. */
uint32_t *
rt_buckets_new(uint32_t n)
{
	uint32_t *b = malloc((size_t)n * sizeof(*b));
	uint32_t i;

	if (b == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		b[i] = RT_NIL;
	return b;
}

/* ---- time --------------------------------------------------------------- */

/* Milliseconds from then_ms to now_ms; 0 if the clock went backwards. */
uint64_t
rt_elapsed(uint64_t now_ms, uint64_t then_ms)
{
	return now_ms >= then_ms ? now_ms - then_ms : 0;
}
