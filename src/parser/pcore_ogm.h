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


#endif /* BATSEC_PCORE_OGM_H */
