/*
 * seqno.h — the order of (epoch, seqno) pairs, one rule for the whole
 * mesh (routing.h, Neighbours; batsec-protocol(7)): the epoch first, then
 * the seqno in 32-bit serial arithmetic, so 0xffffffff -> 0 is one step
 * forward.  Used by the neighbour and originator tables and the parser.
 */
#ifndef BATSEC_SEQNO_H
#define BATSEC_SEQNO_H

#include <stdint.h>

/* 1 when (e1, s1) is newer than (e2, s2). */
int	routing_newer(uint32_t e1, uint32_t s1, uint32_t e2, uint32_t s2);

#endif /* BATSEC_SEQNO_H */
