/*
 * t_csum.c — an Internet checksum of the tests' own (t_csum.h).
 */
#include "t_csum.h"

uint64_t
t_csum_add(uint64_t acc, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		acc += (uint64_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		acc += (uint64_t)p[n - 1] << 8;
	return acc;
}

uint16_t
t_csum_fold(uint64_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

uint64_t
t_csum_pseudo(const uint8_t *ip, int v6, uint8_t proto, size_t l4len)
{
	uint64_t s = v6 ? t_csum_add(0, ip + 8, 32) : t_csum_add(0, ip + 12,
	    8);

	return s + proto + l4len;
}
