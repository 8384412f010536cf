/*
 * pcore_claims.h — who owns a client MAC (translation table) when several
 * originators claim it in their signed OGMs.  The rules are in
 * pcore_claims.c and batsecd(8), CLIENT CLAIMS; the table is part of the
 * attack-resistance state (pcore_limits.h).
 */
#ifndef BATSEC_PCORE_CLAIMS_H
#define BATSEC_PCORE_CLAIMS_H

#include <stdint.h>

#include "batsec_crypto.h"

struct pcore;
struct pcore_aux;
struct routing_orig_info;

/*
 * May originator oi (in its newest signed OGM) claim client (mac, vid)
 * at now_ms?  1, and oi owns it; 0 when another originator's claim
 * stands (a better class, or the same class within the roaming limit).
 * a: oi's auxiliary state, whose budget of takes from live owners is
 * spent here (NULL: no such budget).
 */
int	pcore_claim(struct pcore *pc, const struct routing_orig_info *oi,
	    struct pcore_aux *a, const uint8_t mac[static BS_ADDR_LEN],
	    uint16_t vid, uint64_t now_ms);

/*
 * A page of a paged table (WIRE_TVLV_TT_PAGE) from owner's newest OGM:
 * owner's claims in that bucket that the page no longer has are withdrawn
 * (released at once, as batsec-protocol(7) ROAMING says), its claims in
 * the other buckets are refreshed (a paged owner claims its whole table
 * in every OGM, one page of it in full).  Returns how many live claims
 * owner holds outside the page.
 */
struct wire_tt_page;
unsigned pcore_claim_page_sweep(struct pcore *pc,
	    const uint8_t owner[static BS_ADDR_LEN],
	    const struct wire_tt_page *pg, uint64_t now_ms);

#endif /* BATSEC_PCORE_CLAIMS_H */
