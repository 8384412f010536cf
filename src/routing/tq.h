/*
 * tq.h — TQ arithmetic of B.A.T.M.A.N. IV in integers: the link TQ from
 * HELLO receive and echo counts, the hop penalty, the ceiling a hop count
 * allows (routing.h, Link TQ).  Pure functions, used by neigh.c, orig.c
 * and the parser core.
 */
#ifndef BATSEC_TQ_H
#define BATSEC_TQ_H

#include <stdint.h>

/* 255 - 255 * (64 - rq)^3 / 64^3; rq 0..64 (larger is clamped to 64). */
uint8_t	routing_tq_asym(unsigned rq);
/* Forward link estimate from the neighbour's count of our HELLOs. */
uint8_t	routing_tq_own(unsigned echo);
/* tq * tq_own * tq_asym / 255^2: batman's single product. */
uint8_t	routing_tq_combine(uint8_t tq, uint8_t tq_own, uint8_t tq_asym);
/* Link TQ of a neighbour: routing_tq_combine(255, own(echo), asym(rq)). */
uint8_t	routing_link_tq(unsigned rq, unsigned echo);
/* tq * (255 - hop_penalty) / 255: what one relay leaves. */
uint8_t	routing_tq_hop(uint8_t tq, uint8_t hop_penalty);
/*
 * The best TQ an entry can carry when it arrives with this hops field
 * (relays passed): 255 with the penalty applied hops times.  Hop penalty
 * 30: 255, 225, 198, 174, 153 for hops 0..4.
 */
uint8_t	routing_tq_ceiling(unsigned hops, uint8_t hop_penalty);

#endif /* BATSEC_TQ_H */
