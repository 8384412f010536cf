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
 * (and fails).  Successes are stored under the digest, failures under
 * sigcache_digest_bad() of it, so a forged entry repeated by a flooder
 * is checked once too.
 *
 * The table is SIGCACHE_WAYS-way set associative: the digest picks a
 * set, a new digest takes a free way of it or replaces the way another
 * digest byte picks.  Set and way come from the keyed digest, so a
 * sender cannot aim entries at one set.  A lost entry only costs one
 * more verification.
 *
 * The table is sized to the mesh: sigcache_fit() (the parser calls it
 * once a second) gives it SIGCACHE_PER_ORIG slots per originator in the
 * routing table, a power of two between SIGCACHE_SLOTS_MIN and
 * SIGCACHE_SLOTS_MAX, and moves the entries over.  So a small mesh
 * touches 33 KiB, not the 528 KiB that hold every OGM of a full
 * 4096-originator table for four intervals, and the cap is the same as
 * when the size was fixed.  A slot number from sigcache_find() is
 * valid until the next sigcache_fit().  No system calls besides the
 * allocator's.
 */
#ifndef BATSEC_SIGCACHE_H
#define BATSEC_SIGCACHE_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "batsec_crypto.h"

#define SIGCACHE_SLOTS_MIN	1024	/* powers of two */
#define SIGCACHE_SLOTS_MAX	16384
#define SIGCACHE_PER_ORIG	8	/* four intervals at half the slots */
#define SIGCACHE_WAYS		4	/* a power of two */
#define SIGCACHE_DIGEST_LEN	16
#define SIGCACHE_KEY_LEN	32

/*
 * With each verified entry the cache keeps the hop-chain element of the
 * fewest hops seen with it (already checked against the signed anchor):
 * a later copy with h hops is then checked with |h - hops| hash steps
 * instead of BS_MAXHOPS - h (sigcache_chain_verify).
 */
struct sigcache_chain {
	uint8_t elem[BS_CHAIN_LEN];
	uint8_t hops;			/* 0xff: nothing kept */
};

struct sigcache {
	uint8_t (*slot)[SIGCACHE_DIGEST_LEN];	/* nslots of them */
	struct sigcache_chain *chain;		/* nslots of them */
	uint8_t *used;				/* bitmap: filled slots */
	uint32_t nslots;			/* a power of two */
	uint8_t key[SIGCACHE_KEY_LEN];
	uint64_t hits, misses, inserts, replaced;
	/*
	 * Keyed BLAKE2b states with the key block absorbed: [0] the hop
	 * chain's, [1] the digest's.  On the heap (aligned_alloc), so that
	 * their 64-byte alignment is not imposed on the structs holding a
	 * cache (a struct pcore may be calloc'ed).
	 */
	crypto_generichash_state *st;
};

/*
 * Allocate an empty cache of SIGCACHE_SLOTS_MIN slots keyed with key
 * (random bytes; the key only spreads the slots).  0, or -1 when out of
 * memory (c is then empty and sigcache_free() is still safe).
 */
int	sigcache_init(struct sigcache *c,
	    const uint8_t key[static SIGCACHE_KEY_LEN]);
/*
 * Size the cache for n_orig originators: grow to SIGCACHE_PER_ORIG
 * slots each (a power of two within the bounds), or shrink once that
 * is a quarter of the present size or less; the entries move with it.
 * 0, or -1 when out of memory (the cache is then as it was).
 */
int	sigcache_fit(struct sigcache *c, uint32_t n_orig);
/* Free it; a zeroed or freed cache is fine. */
void	sigcache_free(struct sigcache *c);

/* The digest of signed[0..len) || sig under the cache's key. */
void	sigcache_digest(const struct sigcache *c,
	    const uint8_t *signed_part, size_t len, const uint8_t sig[static BS_SIG_LEN],
	    uint8_t out[static SIGCACHE_DIGEST_LEN]);
/*
 * The digest under which a signature that did NOT verify is remembered
 * (d with one bit flipped: the same slot, never equal to d).
 */
void	sigcache_digest_bad(const uint8_t d[static SIGCACHE_DIGEST_LEN],
	    uint8_t out[static SIGCACHE_DIGEST_LEN]);
/* 1 when the digest is in the cache (counted as a hit), else 0. */
int	sigcache_lookup(struct sigcache *c,
	    const uint8_t d[static SIGCACHE_DIGEST_LEN]);
/* The slot holding the digest (counted as a hit), or -1. */
int	sigcache_find(struct sigcache *c,
	    const uint8_t d[static SIGCACHE_DIGEST_LEN]);
/* Remember a verified digest, replacing its slot's occupant. */
void	sigcache_insert(struct sigcache *c,
	    const uint8_t d[static SIGCACHE_DIGEST_LEN]);
/*
 * The same, with the hop-chain element (BS_CHAIN_LEN bytes, or NULL)
 * checked for it at hops.
 */
void	sigcache_insert_chain(struct sigcache *c,
	    const uint8_t d[static SIGCACHE_DIGEST_LEN], const uint8_t *elem,
	    unsigned hops);
/*
 * bs_chain_verify(anchor, elem, hops), using what slot (from
 * sigcache_find, or -1) keeps for the entry: 0 when elem is the chain's
 * element at hops, else -1.  A slot learns an element of fewer hops.
 */
int	sigcache_chain_verify(struct sigcache *c, int slot,
	    const uint8_t anchor[static BS_CHAIN_LEN],
	    const uint8_t elem[static BS_CHAIN_LEN], unsigned hops);
/* bs_chain_step, with the keyed state prepared once. */
void	sigcache_chain_step(const struct sigcache *c,
	    uint8_t out[static BS_CHAIN_LEN],
	    const uint8_t in[static BS_CHAIN_LEN]);

#endif /* BATSEC_SIGCACHE_H */
