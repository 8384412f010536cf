/*
 * pcore_drop.h — what a refused frame or OGM entry counts as.  Every
 * frame the core refuses goes through pcore_drop() (or pcore_malformed()
 * for a codec error) and lands under exactly one enum pcore_drop; every
 * entry of an authenticated OGM frame goes through pcore_entry_done() and
 * lands under exactly one enum pcore_entry (pcore.h, Counters).  Each
 * also counts against its (interface, source MAC) in the per-source table
 * (pcore_limits.h).  The two name functions are part of the public API.
 */
#ifndef BATSEC_PCORE_DROP_H
#define BATSEC_PCORE_DROP_H

#include <stdint.h>

#include "batsec_crypto.h"
#include "pcore_int.h"

struct wire_where;

/* "unknown interface", ...; "?" for an unknown value. */
const char *pcore_drop_name(enum pcore_drop why);
/* "accepted", "own OGM", ...; "?" for an unknown value. */
const char *pcore_entry_name(enum pcore_entry what);

/* Count a refused frame (and maybe log it); returns why. */
enum pcore_drop pcore_drop(struct pcore *pc, enum pcore_drop why,
	    uint32_t ifindex, const uint8_t src[static BS_ADDR_LEN],
	    const struct wire_where *where, int werr, uint64_t now_ms);
/* A codec error: counted by its code (wire_err), then as a drop. */
enum pcore_drop pcore_malformed(struct pcore *pc, int werr,
	    const struct wire_where *where, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms);
/* Count what became of one OGM entry from (ifindex, src). */
void	pcore_entry_done(struct pcore *pc, enum pcore_entry what,
	    uint32_t ifindex, const uint8_t src[static BS_ADDR_LEN],
	    uint64_t now_ms);

#endif /* BATSEC_PCORE_DROP_H */
