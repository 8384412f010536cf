/*
 * pcore_desc.h — the last full OGM entry verified of each originator,
 * kept so that it can be handed on to neighbours that need it
 * (batsec-protocol(7), "OGM CHAIN", "Descriptions for new neighbours and on request").
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
struct pcore_neigh;

struct pcore_desc {
	uint8_t addr[BS_ADDR_LEN];	/* originator; all zero: free */
	uint8_t hops;			/* of the copy verified */
	uint8_t used;
	uint8_t elem[BS_CHAIN_LEN];	/* its hop-chain element */
	uint8_t from[BS_ADDR_LEN];	/* the neighbour it came from */
	uint16_t len;			/* of blk */
	uint32_t epoch, seqno;
	uint64_t sent_ms;		/* last handed on (0: never) */
	uint64_t wanted_until_ms;	/* a neighbour asked for it */
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

/*
 * Descriptions on request (batsec-protocol(7), "Descriptions on
 * request").  A neighbour relayed a compact entry of addr that this node
 * cannot take (no full entry of it verified, or its chain lost):
 * pcore_desc_ask sends IPC_DESC_WANT, so that our next HELLOs ask the
 * neighbours for it.  At most PCORE_WANT_PER_OGM addresses per OGM
 * interval; an address asked for is not asked for again before
 * PCORE_WANT_AGAIN_OGMS intervals, doubled at each ask that brought
 * nothing up to PCORE_WANT_BACKOFF_MAX doublings (an originator our
 * policy refuses is asked for rarely), and forgotten once its full
 * entry is kept; PCORE_WANT_RECENT (pcore_int.h) addresses are
 * remembered.
 */
#define PCORE_WANT_PER_OGM	8
#define PCORE_WANT_AGAIN_OGMS	4
#define PCORE_WANT_BACKOFF_MAX	6
void	pcore_desc_ask(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN],
	    uint64_t now_ms);
/*
 * Neighbour n's authenticated HELLO asks for the num (WIRE_HELLO_MAX_WANT
 * at most) originators in want: each whose full entry this node keeps is
 * handed on before its next compact entry relayed within
 * PCORE_UPGRADE_OGMS intervals.  n has PCORE_WANT_PER_OGM marks per OGM
 * interval; beyond, wants are counted (desc_want_over) and ignored.  A
 * want of our own address makes our forwarder's next OGM full (1 is
 * returned: IPC_NEIGH_F_OWN), at most every PCORE_WANT_AGAIN_OGMS
 * intervals; our own entries are not kept here.
 */
int	pcore_desc_wanted(struct pcore *pc, struct pcore_neigh *n,
	    const uint8_t *const *want, unsigned num, uint64_t now_ms);
/* 1 when d is to be handed on at now_ms (a fresh neighbour or a want). */
int	pcore_desc_due(const struct pcore *pc, const struct pcore_desc *d,
	    uint64_t now_ms);
/* d was handed on at now_ms. */
void	pcore_desc_sent(struct pcore_desc *d, uint64_t now_ms);


#endif /* BATSEC_PCORE_DESC_H */
