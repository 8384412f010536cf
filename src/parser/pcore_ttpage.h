/*
 * pcore_ttpage.h — what the parser knows of each paged translation
 * table (WIRE_TVLV_TT_PAGE, batsec-protocol(7) LARGE TRANSLATION TABLES).
 *
 * Per paged originator (at most PL_TTSYNC_MAX followed; when full, a
 * record idle for pcore_lim_idle_ms() is reused, else the originator is
 * not followed: its pages still pass, only unsynced and re-sent upstairs
 * each time): the page count, version, total and checksum of its newest
 * page, and for each bucket the share (sum of wire_tt_sum()) and size of
 * the last page received.  The table is "synced" when every bucket has
 * been received under the current page count and the shares and sizes
 * add up to the checksum and total the newest page announces: the
 * parser then holds the originator's whole current table.  The record
 * also remembers a digest of the last IPC_TT sent for each page, so that
 * an unchanged page is not sent to the forwarder again.
 */
#ifndef BATSEC_PCORE_TTPAGE_H
#define BATSEC_PCORE_TTPAGE_H

#include <stdint.h>

#include "batsec_crypto.h"
#include "proto/wire.h"

struct pcore;
struct ipc_tt;

struct pl_ttsync {
	uint8_t addr[BS_ADDR_LEN];
	uint8_t used;
	uint8_t pages;
	uint16_t ttvn;
	uint16_t total;
	uint32_t sum;
	uint32_t last_s;
	uint64_t held;			/* bit per bucket received */
	uint64_t sent_ok;		/* bit per bucket: sent[] valid */
	uint32_t share[WIRE_TT_PAGES_MAX];
	uint8_t n[WIRE_TT_PAGES_MAX];
	uint32_t sent[WIRE_TT_PAGES_MAX];
};

/* The records (pc->lim.ttsync), at CONFIG; -1 when out of memory. */
int	pcore_ttpage_setup(struct pcore *pc);
void	pcore_ttpage_free(struct pcore *pc);
/* Note a page of addr's table; its record, or NULL (not followed). */
struct pl_ttsync *pcore_ttpage_note(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN],
	    const struct wire_tt_page *pg, uint64_t now_ms);
/* 1 when the record holds its originator's whole current table. */
int	pcore_ttpage_is_synced(const struct pl_ttsync *s);
/* How many followed tables are synced (the tt_synced counter). */
unsigned pcore_ttpage_synced(const struct pcore *pc);
/*
 * 1 when m (one page) is what was last sent upstairs for that page;
 * else 0, and m is remembered as sent.  s may be NULL (0).
 */
int	pcore_ttpage_same(struct pl_ttsync *s, const struct ipc_tt *m);
/* addr left the routing table (or went back to one TT): forget it. */
void	pcore_ttpage_forget(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN]);

#endif /* BATSEC_PCORE_TTPAGE_H */
