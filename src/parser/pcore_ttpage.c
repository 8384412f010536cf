/*
 * pcore_ttpage.c — what the parser knows of each paged translation
 * table (pcore_ttpage.h).
 */
#include <string.h>

#include "common/zmem.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_ttpage.h"
#include "proto/ipc_msg.h"

int
pcore_ttpage_setup(struct pcore *pc)
{
	pc->lim.ttsync = zmem_alloc(PL_TTSYNC_MAX, sizeof(*pc->lim.ttsync));
	return pc->lim.ttsync == NULL ? -1 : 0;
}

void
pcore_ttpage_free(struct pcore *pc)
{
	zmem_free(pc->lim.ttsync, PL_TTSYNC_MAX, sizeof(*pc->lim.ttsync));
	pc->lim.ttsync = NULL;
}

static struct pl_ttsync *
pl_ttsync_find(const struct pcore *pc, const uint8_t *addr)
{
	unsigned i;

	if (pc->lim.ttsync == NULL)
		return NULL;
	for (i = 0; i < PL_TTSYNC_MAX; i++)
		if (pc->lim.ttsync[i].used &&
		    memcmp(pc->lim.ttsync[i].addr, addr, BS_ADDR_LEN) == 0)
			return &pc->lim.ttsync[i];
	return NULL;
}

/* A free record, else the one idle longest if idle long enough. */
static struct pl_ttsync *
pl_ttsync_room(struct pcore *pc, uint32_t now_s)
{
	struct pl_ttsync *v = NULL, *s;
	unsigned i;

	for (i = 0; i < PL_TTSYNC_MAX; i++) {
		s = &pc->lim.ttsync[i];
		if (!s->used)
			return s;
		if (v == NULL || s->last_s < v->last_s)
			v = s;
	}
	if (v != NULL && now_s > v->last_s &&
	    (uint64_t)(now_s - v->last_s) * 1000 > pcore_lim_idle_ms(pc))
		return v;
	return NULL;
}

struct pl_ttsync *
pcore_ttpage_note(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN],
    const struct wire_tt_page *pg, uint64_t now_ms)
{
	uint32_t now_s = (uint32_t)(now_ms / 1000), share = 0;
	struct wire_tt_entry te;
	struct pl_ttsync *s;
	unsigned i;

	if (pc->lim.ttsync == NULL)
		return NULL;
	if ((s = pl_ttsync_find(pc, addr)) == NULL) {
		if ((s = pl_ttsync_room(pc, now_s)) == NULL)
			return NULL;
		memset(s, 0, sizeof(*s));
		memcpy(s->addr, addr, BS_ADDR_LEN);
		s->used = 1;
	}
	if (s->pages != pg->pages) {		/* new buckets: start over */
		s->pages = pg->pages;
		s->held = 0;
		s->sent_ok = 0;
	}
	for (i = 0; i < pg->n; i++) {
		wire_tt_get(pg->entries, i, &te);
		share += wire_tt_sum(te.mac, te.vid, te.flags);
	}
	s->share[pg->page] = share;
	s->n[pg->page] = (uint8_t)pg->n;
	s->held |= UINT64_C(1) << pg->page;
	s->ttvn = pg->ttvn;
	s->total = pg->total;
	s->sum = pg->sum;
	s->last_s = now_s;
	return s;
}

int
pcore_ttpage_is_synced(const struct pl_ttsync *s)
{
	uint64_t all;
	uint32_t sum = 0;
	unsigned i, total = 0;

	if (s == NULL || !s->used || s->pages == 0)
		return 0;
	all = s->pages == 64 ? UINT64_MAX : (UINT64_C(1) << s->pages) - 1;
	if (s->held != all)
		return 0;
	for (i = 0; i < s->pages; i++) {
		sum += s->share[i];
		total += s->n[i];
	}
	return sum == s->sum && total == s->total;
}

unsigned
pcore_ttpage_synced(const struct pcore *pc)
{
	unsigned i, k = 0;

	if (pc->lim.ttsync == NULL)
		return 0;
	for (i = 0; i < PL_TTSYNC_MAX; i++)
		k += (unsigned)pcore_ttpage_is_synced(&pc->lim.ttsync[i]);
	return k;
}

int
pcore_ttpage_same(struct pl_ttsync *s, const struct ipc_tt *m)
{
	uint32_t d = 0x9e3779b9u * (uint32_t)(m->count + 1);
	unsigned i;

	if (s == NULL || m->page >= WIRE_TT_PAGES_MAX)
		return 0;
	for (i = 0; i < m->count; i++)
		d += wire_tt_sum(m->e[i].mac, m->e[i].vid, m->e[i].flags);
	if ((s->sent_ok & (UINT64_C(1) << m->page)) != 0 &&
	    s->sent[m->page] == d)
		return 1;
	s->sent[m->page] = d;
	s->sent_ok |= UINT64_C(1) << m->page;
	return 0;
}

void
pcore_ttpage_forget(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	struct pl_ttsync *s = pl_ttsync_find(pc, addr);

	if (s != NULL)
		memset(s, 0, sizeof(*s));
}
