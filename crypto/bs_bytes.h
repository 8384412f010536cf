/*
 * bs_bytes.h — byte-level helpers every layer of batsec shares: big-endian
 * loads and stores, and the search of a sorted array keyed by bytes.
 *
 * Header only, no dependency beyond the C library, so the lowest code (the
 * crypto library's encoders, the TAP offloads) and the highest use the
 * same few lines.  batsec_crypto.h includes it.
 */
#ifndef BATSEC_BS_BYTES_H
#define BATSEC_BS_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Big-endian loads and stores used by every encoder in the project. */
static inline void
bs_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
bs_put32(uint8_t *p, uint32_t v)
{
	bs_put16(p, (uint16_t)(v >> 16));
	bs_put16(p + 2, (uint16_t)v);
}

static inline void
bs_put64(uint8_t *p, uint64_t v)
{
	bs_put32(p, (uint32_t)(v >> 32));
	bs_put32(p + 4, (uint32_t)v);
}

static inline uint16_t
bs_get16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t
bs_get32(const uint8_t *p)
{
	return (uint32_t)bs_get16(p) << 16 | bs_get16(p + 2);
}

static inline uint64_t
bs_get64(const uint8_t *p)
{
	return (uint64_t)bs_get32(p) << 32 | bs_get32(p + 4);
}

/*
 * In an array of n elements of stride bytes, sorted by the key_len bytes
 * at key_off of each element (memcmp order): the index of the first
 * element whose key is >= key, or n.  *found is 1 when that element's key
 * equals key.
 */
static inline size_t
bs_sorted_index(const void *base, size_t n,
    size_t stride, size_t key_off, const void *key, size_t key_len,
    int *found)
{
	const uint8_t *p;
	size_t lo = 0, hi = n, mid;

	/* An empty array may be NULL: no pointer arithmetic on it. */
	if (n == 0) {
		*found = 0;
		return 0;
	}
	p = (const uint8_t *)base + key_off;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (memcmp(p + mid * stride, key, key_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < n && memcmp(p + lo * stride, key, key_len) == 0;
	return lo;
}

#endif /* BATSEC_BS_BYTES_H */
