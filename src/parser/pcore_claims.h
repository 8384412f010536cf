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

#endif /* BATSEC_PCORE_CLAIMS_H */
