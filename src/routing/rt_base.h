/*
 * rt_base.h — what both tables of the routing core are built from:
 * keyed hashing into power-of-two bucket arrays and elapsed time on a
 * clock that may step back.  For the modules of src/routing only
 * (neigh.c, orig.c, routing.c).
 */
#ifndef BATSEC_RT_BASE_H
#define BATSEC_RT_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "routing_types.h"

/* SipHash-2-4 of (ifindex, key) under the table's random key. */
uint32_t rt_hash(const struct routing *rt, uint32_t ifindex,
	    const uint8_t *key, size_t len);
/* The power of two (at least 16) of buckets for cap entries. */
uint32_t rt_buckets_for(uint32_t cap);
/* n bucket heads, all empty; NULL when out of memory. */
uint32_t *rt_buckets_new(uint32_t n);
/* Milliseconds from then_ms to now_ms; 0 if the clock went backwards. */
uint64_t rt_elapsed(uint64_t now_ms, uint64_t then_ms);

#endif /* BATSEC_RT_BASE_H */
