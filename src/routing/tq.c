/*
 * tq.c — TQ arithmetic of B.A.T.M.A.N. IV in integers (tq.h).
 */
#include <stdint.h>

#include "routing_types.h"
#include "tq.h"

uint8_t
routing_tq_asym(unsigned rq)
{
	uint32_t inv, cube;

	if (rq > ROUTING_WINDOW)
		rq = ROUTING_WINDOW;
	inv = ROUTING_WINDOW - rq;
	cube = inv * inv * inv;
	return (uint8_t)(ROUTING_TQ_MAX - ROUTING_TQ_MAX * cube /
	    (ROUTING_WINDOW * ROUTING_WINDOW * ROUTING_WINDOW));
}

uint8_t
routing_tq_own(unsigned echo)
{
	if (echo > ROUTING_WINDOW)
		echo = ROUTING_WINDOW;
	return (uint8_t)(ROUTING_TQ_MAX * echo / ROUTING_WINDOW);
}

uint8_t
routing_tq_combine(uint8_t tq, uint8_t tq_own, uint8_t tq_asym)
{
	uint32_t p = (uint32_t)tq * tq_own * tq_asym;

	return (uint8_t)(p / (ROUTING_TQ_MAX * ROUTING_TQ_MAX));
}

uint8_t
routing_link_tq(unsigned rq, unsigned echo)
{
	return routing_tq_combine(ROUTING_TQ_MAX, routing_tq_own(echo),
	    routing_tq_asym(rq));
}

uint8_t
routing_tq_hop(uint8_t tq, uint8_t hop_penalty)
{
	return (uint8_t)((uint32_t)tq * (ROUTING_TQ_MAX - hop_penalty) /
	    ROUTING_TQ_MAX);
}

uint8_t
routing_tq_ceiling(unsigned hops, uint8_t hop_penalty)
{
	uint8_t tq = ROUTING_TQ_MAX;

	while (hops-- > 0 && tq != 0 && hop_penalty != 0)
		tq = routing_tq_hop(tq, hop_penalty);
	return tq;
}
