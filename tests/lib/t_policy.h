/*
 * t_policy.h — policies for tests, harnesses and the benchmarks: the
 * binary snapshot the forwarder pushes to the parser, as one buffer.
 */
#ifndef BATSEC_T_POLICY_H
#define BATSEC_T_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_policy.h"

/*
 * pol's snapshot in a buffer from malloc (free it), *len its length;
 * aborts when it cannot be made.
 */
uint8_t	*t_policy_snapshot(const struct bs_policy *pol, size_t *len);

#endif /* BATSEC_T_POLICY_H */
