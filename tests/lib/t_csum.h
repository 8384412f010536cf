/*
 * t_csum.h — the Internet checksum (RFC 1071) written apart from the TAP
 * offloads (src/netio/tapoff.c), so that their tests, harness and seed
 * generator check and build packets with a sum of their own.
 */
#ifndef BATSEC_T_CSUM_H
#define BATSEC_T_CSUM_H

#include <stddef.h>
#include <stdint.h>

/* acc plus the n bytes at p as big-endian 16-bit words (odd: zero-padded). */
uint64_t	t_csum_add(uint64_t acc, const uint8_t *p, size_t n);
/* The folded sum, not complemented. */
uint16_t	t_csum_fold(uint64_t acc);
/* The pseudo-header sum of the IPv4 (v6: IPv6) header at ip. */
uint64_t	t_csum_pseudo(const uint8_t *ip, int v6, uint8_t proto,
		    size_t l4len);

#endif /* BATSEC_T_CSUM_H */
