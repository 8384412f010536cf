/*
 * seqno.c — the order of (epoch, seqno) pairs (seqno.h).
 */
#include <stdint.h>

#include "seqno.h"

int
routing_newer(uint32_t e1, uint32_t s1, uint32_t e2, uint32_t s2)
{
	uint32_t d = s1 - s2;

	if (e1 != e2)
		return e1 > e2;
	return d != 0 && d < 0x80000000u;
}
