/*
 * t_policy.h — policies for tests, harnesses and the benchmarks: the
 * binary snapshot the forwarder pushes to the parser, as one buffer, and
 * pushed to a parser core the way the forwarder does.
 */
#ifndef BATSEC_T_POLICY_H
#define BATSEC_T_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_policy.h"
#include "parser/pcore.h"

/*
 * pol's snapshot in a buffer from malloc (free it), *len its length;
 * aborts when it cannot be made.
 */
uint8_t	*t_policy_snapshot(const struct bs_policy *pol, size_t *len);
/* pol's snapshot given to pc as serial: pcore_policy()'s result. */
int	 t_pcore_policy(struct pcore *pc, uint32_t serial,
	    const struct bs_policy *pol, char *err, size_t errlen);

#endif /* BATSEC_T_POLICY_H */
