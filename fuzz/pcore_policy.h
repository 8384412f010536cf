/*
 * pcore_policy.h — the policy of a POLICY record of fuzz_pcore's input
 * format, shared by fuzz/fuzz_pcore.c and tests/check_parser_proc.c
 * (which replays pcore's corpus through a real sandboxed parser and must
 * build the same policies).  Test code only: static inline, no library.
 *
 * mode bit 0: mode open, else allowlist; bits 1..5: tiny limits, to reach
 * the quotas, budgets and shares of pcore_limits.c; clients and cap, when
 * not 0, set clients per originator and the originator cap (16 + cap);
 * bit i of trust trusts key pk[i] (i < n), as a gateway when bit i of gw
 * is set.  0, or -1 when a trust entry was refused.
 */
#ifndef BATSEC_FUZZ_PCORE_POLICY_H
#define BATSEC_FUZZ_PCORE_POLICY_H

#include <stdint.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"

static inline int
fz_pcore_policy_fill(struct bs_policy *pol, uint8_t mode, uint8_t trust,
    uint8_t gw, uint8_t clients, uint8_t cap,
    const uint8_t pk[][BS_PK_LEN], int n)
{
	struct bs_policy_limits *l = &pol->limits;
	int i;

	pol->mode = (mode & 1) ? BS_POLICY_OPEN : BS_POLICY_ALLOWLIST;
	if (mode & 0x02) {
		l->intro_rate = 1;
		l->intro_burst = 2;
	}
	if (mode & 0x04) {
		l->verify_rate = 1;
		l->verify_burst = 3;
		l->verify_global_rate = 2;
		l->verify_global_burst = 8;
	}
	if (mode & 0x08) {
		l->frame_rate = 1;
		l->frame_burst = 4;
	}
	if (mode & 0x10) {
		l->stranger_share = 50;
		l->neighbor_stranger_share = 34;
	}
	if (mode & 0x20)
		l->roam_per_minute = 0;
	if (clients != 0)
		l->clients_per_originator = clients;
	if (cap != 0)
		l->originators = 16u + cap;
	for (i = 0; i < n && i < 8; i++)
		if (((trust >> i) & 1) && bs_policy_trust_add(pol, pk[i], NULL,
		    (gw >> i) & 1, NULL, 0) != 0)
			return -1;
	return 0;
}

#endif /* BATSEC_FUZZ_PCORE_POLICY_H */
