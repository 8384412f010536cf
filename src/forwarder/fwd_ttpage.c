/*
 * fwd_ttpage.c — our own translation table in pages (fwd_ttpage.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fwd_tables.h"
#include "fwd_ttpage.h"

/* A bucket can hold the whole local table. */
#define FWD_TTPAGE_COLLECT	FWD_LTT_MAX

void
fwd_ttpage_reset(struct fwd_ttpage *p)
{
	uint16_t ttvn = p->ttvn;

	memset(p, 0, sizeof(*p));
	p->ttvn = ttvn;			/* versions keep counting */
}

/* Ascending by (MAC, vid): the order WIRE_TVLV_TT_PAGE requires. */
static int
fwd_ttpage_cmp(const void *a, const void *b)
{
	const struct wire_tt_entry *x = a, *y = b;
	int c = memcmp(x->mac, y->mac, BS_ADDR_LEN);

	if (c != 0)
		return c;
	return (x->vid > y->vid) - (x->vid < y->vid);
}

/* The smallest page count that leaves no bucket above WIRE_TT_PAGE_MAX. */
static unsigned
fwd_ttpage_count(const struct wire_tt_entry *tt, unsigned n)
{
	unsigned cnt[WIRE_TT_PAGES_MAX], pages, i, worst;

	for (pages = WIRE_TT_PAGES_MIN; pages < WIRE_TT_PAGES_MAX;
	    pages *= 2) {
		memset(cnt, 0, sizeof(cnt));
		worst = 0;
		for (i = 0; i < n; i++) {
			unsigned b = wire_tt_bucket(tt[i].mac, tt[i].vid,
			    pages);

			if (++cnt[b] > worst)
				worst = cnt[b];
		}
		if (worst <= WIRE_TT_PAGE_MAX)
			break;
	}
	return pages;
}

/*
 * The entries of page `page` into out (at most WIRE_TT_PAGE_MAX,
 * ascending), their count; *left: how many did not fit.
 */
static unsigned
fwd_ttpage_collect(const struct wire_tt_entry *tt, unsigned n,
    unsigned pages, unsigned page, struct wire_tt_entry *out, unsigned *left)
{
	struct wire_tt_entry all[FWD_TTPAGE_COLLECT];
	unsigned i, k = 0;

	*left = 0;
	for (i = 0; i < n; i++) {
		if (wire_tt_bucket(tt[i].mac, tt[i].vid, pages) != page)
			continue;
		if (k == FWD_TTPAGE_COLLECT) {
			(*left)++;
			continue;
		}
		all[k++] = tt[i];
	}
	qsort(all, k, sizeof(all[0]), fwd_ttpage_cmp);
	if (k > WIRE_TT_PAGE_MAX) {
		*left += k - WIRE_TT_PAGE_MAX;
		k = WIRE_TT_PAGE_MAX;
	}
	memcpy(out, all, k * sizeof(all[0]));
	return k;
}

/* A new local table: page count, shares, changed pages marked urgent. */
static void
fwd_ttpage_rebuild(struct fwd_ttpage *p, const struct wire_tt_entry *tt,
    unsigned n, uint64_t version)
{
	struct wire_tt_entry e[WIRE_TT_PAGE_MAX];
	unsigned pages = fwd_ttpage_count(tt, n), pg, k, i, left;
	uint32_t share;
	int changed = pages != p->pages;

	p->total = 0;
	p->sum = 0;
	for (pg = 0; pg < pages; pg++) {
		k = fwd_ttpage_collect(tt, n, pages, pg, e, &left);
		p->full += left;
		share = 0;
		for (i = 0; i < k; i++)
			share += wire_tt_sum(e[i].mac, e[i].vid, e[i].flags);
		/* A new page count: the rotation brings every page. */
		if (pages == p->pages && (share != p->page_sum[pg] ||
		    k != p->page_n[pg])) {
			p->urgent[pg] = FWD_TTPAGE_REPEAT;
			changed = 1;
		}
		p->page_sum[pg] = share;
		p->page_n[pg] = (uint8_t)k;
		p->total = (uint16_t)(p->total + k);
		p->sum += share;
	}
	if (pages != p->pages) {
		for (pg = pages; pg < WIRE_TT_PAGES_MAX; pg++)
			p->urgent[pg] = 0;
		p->next = 0;
	}
	p->pages = (uint8_t)pages;
	if (changed || !p->built)
		p->ttvn++;
	p->version = version;
	p->built = 1;
}

/*
 * The changed page with the most sends left (the newest change first;
 * ties in turn from the rotation's place), else the rotation's page.
 */
static unsigned
fwd_ttpage_pick(struct fwd_ttpage *p)
{
	unsigned i, pg, best = p->pages;

	for (i = 0; i < p->pages; i++) {
		pg = (p->next + i) % p->pages;
		if (p->urgent[pg] > 0 &&
		    (best == p->pages || p->urgent[pg] > p->urgent[best]))
			best = pg;
	}
	if (best < p->pages) {
		p->urgent[best]--;
		return best;
	}
	pg = p->next;
	p->next = (uint8_t)((pg + 1) % p->pages);
	return pg;
}

int
fwd_ttpage_put(struct fwd_ttpage *p, const struct wire_tt_entry *tt,
    unsigned n, uint64_t version, uint8_t *buf, size_t cap, size_t *len)
{
	struct wire_tt_entry e[WIRE_TT_PAGE_MAX];
	struct wire_tt_page pg;
	unsigned left;
	int r;

	if (n <= WIRE_TT_MAX || tt == NULL)
		return WIRE_EINVAL;
	if (!p->built || version != p->version)
		fwd_ttpage_rebuild(p, tt, n, version);
	memset(&pg, 0, sizeof(pg));
	pg.ttvn = p->ttvn;
	pg.total = p->total;
	pg.sum = p->sum;
	pg.pages = p->pages;
	pg.page = (uint8_t)fwd_ttpage_pick(p);
	pg.n = fwd_ttpage_collect(tt, n, p->pages, pg.page, e, &left);
	pg.e = e;
	if ((r = wire_tvlv_put_tt_page(buf, cap, len, &pg)) == WIRE_OK)
		p->sent++;
	return r;
}
