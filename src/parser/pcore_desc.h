/*
 * pcore_desc.h — the last full OGM entry verified of each originator,
 * kept so that it can be handed on to neighbours that need it
 * (batsec-protocol(7), "OGM CHAIN", "Descriptions for new neighbours").
 *
 * A compact entry is useless to a node that has not verified a full entry
 * of its originator: one that just started, whose parser restarted, or
 * that has just become a neighbour.  Such a node says so (it is new to
 * us, or its HELLOs carry WIRE_HELLO_F_FRESH); for PCORE_UPGRADE_OGMS OGM
 * intervals after that, this node relays before each compact entry it
 * relays the originator's last full entry it verified (at most once per
 * originator and OGM interval), with the hop chain stepped once from
 * what it received.  The receiver verifies it as any full entry and then
 * the compact one against it.
 *
 * Bounded: PCORE_DESC_SLOTS records in a hash set of 8-way sets (zmem:
 * only the pages used are resident) whose blocks (signed part and
 * signature, at most WIRE_OGM_FIXED_LEN + WIRE_TVLV_MAX + BS_SIG_LEN
 * bytes) are allocated apart, PCORE_DESC_BYTES in all; beyond either,
 * a full entry is not kept (counted as desc_full) and its originator's
 * compact entries go without it.
 */
#ifndef BATSEC_PCORE_DESC_H
#define BATSEC_PCORE_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

#define PCORE_DESC_SLOTS	4096
#define PCORE_DESC_WAYS		8
#define PCORE_DESC_BYTES	(512u * 1024u)
#define PCORE_UPGRADE_OGMS	5	/* intervals a fresh neighbour gets */

struct pcore;

struct pcore_desc {
	uint8_t addr[BS_ADDR_LEN];	/* originator; all zero: free */
	uint8_t hops;			/* of the copy verified */
	uint8_t used;
	uint8_t elem[BS_CHAIN_LEN];	/* its hop-chain element */
	uint8_t from[BS_ADDR_LEN];	/* the neighbour it came from */
	uint16_t len;			/* of blk */
	uint32_t epoch, seqno;
	uint64_t sent_ms;		/* last handed on (0: never) */
	uint8_t *blk;			/* signed part and signature */
};

int	pcore_desc_setup(struct pcore *pc);
void	pcore_desc_free(struct pcore *pc);
/*
 * Keep the full entry of addr just verified (block blk of len bytes,
 * epoch, seqno, received at hops with elem from neighbour `from`) when
 * it is newer than the one kept: 0, or -1 when it could not be kept.
 */
int	pcore_desc_keep(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN],
	    uint32_t epoch, uint32_t seqno, unsigned hops,
	    const uint8_t elem[static BS_CHAIN_LEN],
	    const uint8_t from[static BS_ADDR_LEN], const uint8_t *blk,
	    size_t len);
/* The record of addr, or NULL. */
struct pcore_desc *pcore_desc_get(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN]);
/* addr left the originator table. */
void	pcore_desc_forget(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN]);
/* A neighbour that needs descriptions was heard at now_ms. */
void	pcore_desc_fresh(struct pcore *pc, uint64_t now_ms);
/* 1 while some neighbour needs descriptions. */
int	pcore_desc_upgrading(const struct pcore *pc, uint64_t now_ms);


#endif /* BATSEC_PCORE_DESC_H */
