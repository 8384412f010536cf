/*
 * fwd_ttpage.h — our own translation table in pages, when it has more
 * clients than one TT container holds (WIRE_TT_MAX).
 *
 * batsec-protocol(7), LARGE TRANSLATION TABLES: the table is split into
 * `pages` buckets by wire_tt_bucket(), the smallest power of two
 * (WIRE_TT_PAGES_MIN..MAX) that leaves no bucket above WIRE_TT_PAGE_MAX
 * entries, and each own OGM carries one page.  A page whose content
 * changed goes out in the next FWD_TTPAGE_REPEAT OGMs (the newest change
 * first, then changed pages in turn, so one lost OGM does not hide the
 * change), otherwise the pages go in rotation, so that a node that just
 * arrived learns the whole table within `pages` OGM intervals.  A new
 * page count changes every page: the rotation brings them, so that a
 * change that comes next is not queued behind all of them.  The version (ttvn) counts the
 * table's changes; the checksum is the sum of wire_tt_sum() over the
 * entries, so a receiver can tell when the pages it holds are the whole
 * current table.  With 64 pages a bucket that still holds more than
 * WIRE_TT_PAGE_MAX clients keeps its first ones (ascending order); the
 * rest are counted (tt_page_full) and not announced.
 */
#ifndef BATSEC_FWD_TTPAGE_H
#define BATSEC_FWD_TTPAGE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

#define FWD_TTPAGE_REPEAT	3

struct fwd_ttpage {
	int built;			/* pages below made from version */
	uint64_t version;		/* fwd_local_tt()'s version */
	uint16_t ttvn;
	uint16_t total;			/* entries announced */
	uint32_t sum;
	uint8_t pages;			/* 0: not paged */
	uint8_t next;			/* rotation */
	uint32_t page_sum[WIRE_TT_PAGES_MAX];
	uint8_t page_n[WIRE_TT_PAGES_MAX];
	uint8_t urgent[WIRE_TT_PAGES_MAX]; /* sends left after a change */
	uint64_t sent;			/* pages sent */
	uint64_t full;			/* entries left out: bucket full */
};

/*
 * Append the page for our next OGM to buf[*len] (cap bytes): tt holds
 * all n local clients (n > WIRE_TT_MAX), version is fwd_local_tt()'s.
 * WIRE_OK, or the builder's error (*len unchanged).
 */
int	fwd_ttpage_put(struct fwd_ttpage *p, const struct wire_tt_entry *tt,
	    unsigned n, uint64_t version, uint8_t *buf, size_t cap,
	    size_t *len);
/* Forget the pages (the table is small again): the next paged one anew. */
void	fwd_ttpage_reset(struct fwd_ttpage *p);

#endif
