/*
 * t_policy.c — policy snapshots for tests (t_policy.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "t_policy.h"

uint8_t *
t_policy_snapshot(const struct bs_policy *pol, size_t *len)
{
	size_t cap = bs_policy_snapshot_len(pol);
	uint8_t *snap = malloc(cap != 0 ? cap : 1);

	if (snap == NULL ||
	    bs_policy_snapshot_encode(pol, snap, cap, len) != 0) {
		fprintf(stderr, "t_policy_snapshot: cannot encode\n");
		abort();
	}
	return snap;
}

int
t_pcore_policy(struct pcore *pc, uint32_t serial, const struct bs_policy *pol,
    char *err, size_t errlen)
{
	size_t len;
	uint8_t *snap = t_policy_snapshot(pol, &len);
	int r;

	r = pcore_policy(pc, serial, snap, len, err, errlen);
	free(snap);
	return r;
}
