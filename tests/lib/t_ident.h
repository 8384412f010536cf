/*
 * t_ident.h — identities from fixed seeds, for tests, fuzz harnesses,
 * seed generators and the benchmarks: the seed is BS_SEED_LEN bytes of
 * one value, so the same fill gives the same keys, mesh address and
 * signatures on every run and in every program.
 *
 * A failure (libsodium not initialised) aborts: these run in Check
 * fixtures, in main() before any test and in harness set-up alike.
 */
#ifndef BATSEC_T_IDENT_H
#define BATSEC_T_IDENT_H

#include <stdint.h>

#include "batsec_crypto.h"

/* The identity whose seed is BS_SEED_LEN bytes of fill. */
void	t_ident(struct bs_identity *id, uint8_t fill);
/* The same, and its mesh address in addr when addr is not NULL. */
void	t_ident_addr(struct bs_identity *id, uint8_t *addr, uint8_t fill);
/* Only that identity's public key (the secret part is wiped). */
void	t_ident_pk(uint8_t pk[BS_PK_LEN], uint8_t fill);

#endif /* BATSEC_T_IDENT_H */
