/*
 * pcore_ogm.h — the OGM pipeline of the parser's core.
 */
#ifndef BATSEC_PCORE_OGM_H
#define BATSEC_PCORE_OGM_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "pcore_int.h"

/*
 * An OGM frame (p, len bytes, its type already peeked) on ifindex from
 * src: PCORE_ACCEPT once the frame passed its checks (each entry is then
 * counted under its own outcome, pcore_entry_done()), or why the frame
 * was dropped (counted by pcore_drop()).
 */
enum pcore_drop pcore_ogm(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p,
	    size_t len, uint64_t now_ms);

/*
 * Fisheye relaying (pcore_int.h, PCORE_FISHEYE_*): the sequence-number
 * gap of compact entries relayed with hops value `hops`: 1 below 8, 2
 * below 16, 4 from 16 on (pc->fisheye_hops, fisheye_gap_max); 1
 * whatever the hops when pc->no_fisheye.  A
 * receiver expects the gap of the hops an entry arrived with, the same
 * value its sender relayed it with.
 */
unsigned pcore_fisheye_gap(const struct pcore *pc, unsigned hops);

#endif /* BATSEC_PCORE_OGM_H */
