/*
 * pinset.h — a set of TOFU pins: mesh address -> the key that owns it,
 * sorted by address, one key per address, at most a given number.  The
 * parser decides with it (pcore_trust.c), the forwarder keeps its copy
 * in one (fwd_pins.c).
 */
#ifndef BATSEC_PINSET_H
#define BATSEC_PINSET_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

struct pinset_entry {
	uint8_t addr[BS_ADDR_LEN];	/* the sort key */
	uint8_t pk[BS_PK_LEN];
	/*
	 * When the pin was last used, in its owner's clock (the parser:
	 * monotonic ms; the forwarder: Unix seconds); 0 before any (set by
	 * pinset_add).  told: the parser's last report of it (IPC_PIN).
	 */
	uint64_t seen;
	uint64_t told;
};

struct pinset {
	struct pinset_entry *v;
	size_t n, cap;
};

/* The key pinned to addr, or NULL. */
const uint8_t *pinset_find(const struct pinset *s,
	    const uint8_t addr[static BS_ADDR_LEN]);
/*
 * Pin addr to pk: 1 when added, 0 when addr is pinned already (to any
 * key), -1 when the set holds max entries or memory ran out.
 */
int	pinset_add(struct pinset *s, const uint8_t addr[static BS_ADDR_LEN],
	    const uint8_t pk[static BS_PK_LEN], size_t max);
/* The entry of addr, to change (seen, told), or NULL. */
struct pinset_entry *pinset_get(struct pinset *s,
	    const uint8_t addr[static BS_ADDR_LEN]);
/*
 * Remove every entry whose seen is below before (an entry with seen 0
 * stays); the number removed.
 */
size_t	pinset_expire(struct pinset *s, uint64_t before);
/* Forget every entry (the struct may be used again). */
void	pinset_free(struct pinset *s);

#endif /* BATSEC_PINSET_H */
