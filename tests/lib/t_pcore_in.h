/*
 * t_pcore_in.h — the input of fuzz/fuzz_pcore.c, a conversation with one
 * parser core: the records, the fixed identities and interface MACs, and
 * what a POLICY record's bytes mean.  fuzz_pcore reads it, fuzz/gen_pcore.c
 * writes it, tests/check_parser_proc.c replays it through a real sandboxed
 * parser; they all take these facts from here.
 *
 * Records (fuzz_pcore.c describes each one's bytes): FRAME, TICK, IFACE,
 * POLICY, CONFIG, KEYS.  The node under test has the identity of seed
 * T_PCIN_OWN_SEED and epoch T_PCIN_EPOCH; the others (P, Q, O, U) have
 * seeds T_PCIN_PEER_SEED(0..3); a FRAME's source byte picks a MAC of
 * t_pcin_macs: ours, P's, Q's, O's, U's, and one nobody has.
 */
#ifndef BATSEC_T_PCORE_IN_H
#define BATSEC_T_PCORE_IN_H

#include <stdint.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"

enum t_pcin_rec {
	T_PCIN_FRAME,
	T_PCIN_TICK,
	T_PCIN_IFACE,
	T_PCIN_POLICY,
	T_PCIN_CONFIG,
	T_PCIN_KEYS,
};

#define T_PCIN_OWN_SEED		0x11
#define T_PCIN_EPOCH		7
#define T_PCIN_NIDS		4	/* P, Q, O, U */
#define T_PCIN_PEER_SEED(i)	((uint8_t)(0x22 + 0x11 * (i)))
#define T_PCIN_NMACS		6

extern const uint8_t t_pcin_macs[T_PCIN_NMACS][BS_ADDR_LEN];

/*
 * The policy of a POLICY record, into pol: mode bit 0: mode open, else
 * allowlist; bits 1..5: tiny limits, to reach the quotas, budgets and
 * shares of pcore_limits.c; clients and cap, when not 0, set clients per
 * originator and the originator cap (16 + cap); bit i of trust trusts key
 * pk[i] (i < n), as a gateway when bit i of gw is set.  0, or -1 when a
 * trust entry was refused.
 */
int	t_pcin_policy_fill(struct bs_policy *pol, uint8_t mode, uint8_t trust,
	    uint8_t gw, uint8_t clients, uint8_t cap,
	    const uint8_t pk[][BS_PK_LEN], int n);

#endif /* BATSEC_T_PCORE_IN_H */
