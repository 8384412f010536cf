/*
 * sigcache.h — a bounded cache of OGM signatures already verified, so an
 * entry is verified at most once however many neighbours relay it
 * (DESIGN.md §5, step 6).
 *
 * What is remembered is a digest of the exact bytes the signature covers
 * together with the signature: BLAKE2b-128, keyed with a random key, of
 * signed part || signature.  The signed part holds the originator key,
 * epoch, seqno, flags, interval, hop-chain anchor and TVLVs, so a hit
 * means "these very bytes verified before"; an entry that reuses a good
 * signature with any other signed byte changed misses and is verified
 * (and fails).  Only successes are stored.
 *
 * The table is direct-mapped: the digest picks one slot, and a new
 * digest replaces whatever was there.  The slot index comes from the
 * keyed digest, so a sender cannot aim entries at one slot.  A lost
 * entry only costs one more verification.  No system calls; the memory
 * (SIGCACHE_SLOTS * 16 bytes plus a bitmap) is allocated by
 * sigcache_init().
 */
#ifndef BATSEC_SIGCACHE_H
#define BATSEC_SIGCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

#define SIGCACHE_SLOTS		4096	/* a power of two */
#define SIGCACHE_DIGEST_LEN	16
#define SIGCACHE_KEY_LEN	32

struct sigcache {
	uint8_t (*slot)[SIGCACHE_DIGEST_LEN];	/* SIGCACHE_SLOTS of them */
	uint8_t *used;				/* bitmap: filled slots */
	uint8_t key[SIGCACHE_KEY_LEN];
	uint64_t hits, misses, inserts, replaced;
};

/*
 * Allocate an empty cache keyed with key (random bytes; the key only
 * spreads the slots).  0, or -1 when out of memory (c is then empty and
 * sigcache_free() is still safe).
 */
int	sigcache_init(struct sigcache *c,
	    const uint8_t key[static SIGCACHE_KEY_LEN]);
/* Free it; a zeroed or freed cache is fine. */
void	sigcache_free(struct sigcache *c);
/* Forget every entry (keeps the memory). */
void	sigcache_clear(struct sigcache *c);

/* The digest of signed[0..len) || sig under the cache's key. */
void	sigcache_digest(const struct sigcache *c,
	    const uint8_t *signed_part, size_t len, const uint8_t sig[static BS_SIG_LEN],
	    uint8_t out[static SIGCACHE_DIGEST_LEN]);
/* 1 when the digest is in the cache (counted as a hit), else 0. */
int	sigcache_lookup(struct sigcache *c,
	    const uint8_t d[static SIGCACHE_DIGEST_LEN]);
/* Remember a verified digest, replacing its slot's occupant. */
void	sigcache_insert(struct sigcache *c,
	    const uint8_t d[static SIGCACHE_DIGEST_LEN]);

#endif /* BATSEC_SIGCACHE_H */
