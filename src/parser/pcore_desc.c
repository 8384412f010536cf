/*
 * pcore_desc.c — the kept full OGM entries (pcore_desc.h).
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "common/zmem.h"
#include "pcore_base.h"
#include "pcore_desc.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "routing/routing.h"

int
pcore_desc_setup(struct pcore *pc)
{
	pc->desc = zmem_alloc(PCORE_DESC_SLOTS, sizeof(*pc->desc));
	pc->desc_bytes = 0;
	pc->upgrade_until_ms = 0;
	return pc->desc != NULL ? 0 : -1;
}

void
pcore_desc_free(struct pcore *pc)
{
	size_t i;

	if (pc->desc == NULL)
		return;
	for (i = 0; i < PCORE_DESC_SLOTS; i++)
		free(pc->desc[i].blk);
	zmem_free(pc->desc, PCORE_DESC_SLOTS, sizeof(*pc->desc));
	pc->desc = NULL;
	pc->desc_bytes = 0;
}

/* The remembered ask of addr, or NULL. */
static struct pcore_want *
pcore_want_find(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	unsigned i;

	for (i = 0; i < PCORE_WANT_RECENT; i++)
		if (pc->want[i].ms != 0 &&
		    memcmp(pc->want[i].addr, addr, BS_ADDR_LEN) == 0)
			return &pc->want[i];
	return NULL;
}

/* The set of addr: PCORE_DESC_WAYS records. */
static struct pcore_desc *
pcore_desc_set(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	size_t sets = PCORE_DESC_SLOTS / PCORE_DESC_WAYS;

	return &pc->desc[(pcore_lim_hash(pc, addr, BS_ADDR_LEN) % sets) *
	    PCORE_DESC_WAYS];
}

struct pcore_desc *
pcore_desc_get(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	struct pcore_desc *set;
	size_t i;

	if (pc->desc == NULL)
		return NULL;
	set = pcore_desc_set(pc, addr);
	for (i = 0; i < PCORE_DESC_WAYS; i++)
		if (set[i].used && memcmp(set[i].addr, addr, BS_ADDR_LEN) == 0)
			return &set[i];
	return NULL;
}

static void
pcore_desc_clear(struct pcore *pc, struct pcore_desc *d)
{
	pc->desc_bytes -= d->len;
	free(d->blk);
	memset(d, 0, sizeof(*d));
}

int
pcore_desc_keep(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN],
    uint32_t epoch, uint32_t seqno, unsigned hops,
    const uint8_t elem[static BS_CHAIN_LEN],
    const uint8_t from[static BS_ADDR_LEN], const uint8_t *blk, size_t len)
{
	struct pcore_desc *d, *set;
	struct pcore_want *w;
	uint8_t *copy;
	size_t i;

	if (pc->desc == NULL || len == 0 || len > UINT16_MAX)
		return -1;
	if ((d = pcore_desc_get(pc, addr)) != NULL) {
		if (d->epoch == epoch && !routing_newer(epoch, seqno, d->epoch,
		    d->seqno))
			return 0;	/* the one kept is as new */
		if (d->epoch != epoch && !routing_newer(epoch, seqno,
		    d->epoch, d->seqno))
			return 0;
	} else {
		set = pcore_desc_set(pc, addr);
		for (i = 0; i < PCORE_DESC_WAYS && set[i].used; i++)
			;
		if (i == PCORE_DESC_WAYS) {
			pcore_count(pc, IPC_STAT_DESC_FULL);
			return -1;
		}
		d = &set[i];
	}
	if (pc->desc_bytes - d->len + len > PCORE_DESC_BYTES ||
	    (copy = malloc(len)) == NULL) {
		pcore_count(pc, IPC_STAT_DESC_FULL);
		return -1;
	}
	memcpy(copy, blk, len);
	if (d->used)
		pcore_desc_clear(pc, d);
	d->used = 1;
	memcpy(d->addr, addr, BS_ADDR_LEN);
	d->hops = (uint8_t)hops;
	memcpy(d->elem, elem, BS_CHAIN_LEN);
	memcpy(d->from, from, BS_ADDR_LEN);
	d->len = (uint16_t)len;
	d->epoch = epoch;
	d->seqno = seqno;
	d->sent_ms = 0;
	d->wanted_until_ms = 0;
	d->blk = copy;
	pc->desc_bytes += len;
	if ((w = pcore_want_find(pc, addr)) != NULL)
		memset(w, 0, sizeof(*w));	/* it came: ask again at once */
	return 0;
}

void
pcore_desc_forget(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN])
{
	struct pcore_desc *d = pcore_desc_get(pc, addr);

	if (d != NULL)
		pcore_desc_clear(pc, d);
}

void
pcore_desc_fresh(struct pcore *pc, uint64_t now_ms)
{
	uint64_t until = now_ms + (uint64_t)PCORE_UPGRADE_OGMS *
	    (pc->cfg.ogm_ms > 0 ? pc->cfg.ogm_ms : 1000);

	if (until > pc->upgrade_until_ms)
		pc->upgrade_until_ms = until;
}

int
pcore_desc_upgrading(const struct pcore *pc, uint64_t now_ms)
{
	return now_ms < pc->upgrade_until_ms;
}

static uint64_t
pcore_desc_ogm_ms(const struct pcore *pc)
{
	return pc->cfg.ogm_ms > 0 ? pc->cfg.ogm_ms : 1000;
}

void
pcore_desc_ask(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN],
    uint64_t now_ms)
{
	uint64_t ogm = pcore_desc_ogm_ms(pc);
	struct ipc_desc_want m;
	struct pcore_want *w;
	unsigned i;

	if (now_ms >= pc->want_period_ms + ogm || now_ms < pc->want_period_ms) {
		pc->want_period_ms = now_ms;
		pc->want_n = 0;
	}
	if (pc->want_n >= PCORE_WANT_PER_OGM)
		return;
	if ((w = pcore_want_find(pc, addr)) != NULL) {
		if (now_ms >= w->ms && now_ms - w->ms <
		    ((uint64_t)PCORE_WANT_AGAIN_OGMS * ogm) << w->tries)
			return;
		if (w->tries < PCORE_WANT_BACKOFF_MAX)
			w->tries++;
	} else {
		/* A free slot, else the next in turn (the ring's oldest). */
		for (i = 0; i < PCORE_WANT_RECENT && pc->want[i].ms != 0; i++)
			;
		if (i == PCORE_WANT_RECENT) {
			i = pc->want_next;
			pc->want_next = (pc->want_next + 1) % PCORE_WANT_RECENT;
		}
		w = &pc->want[i];
		memcpy(w->addr, addr, BS_ADDR_LEN);
		w->tries = 0;
	}
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr, BS_ADDR_LEN);
	if (pcore_emit(pc, IPC_DESC_WANT, &m, sizeof(m)) != 0)
		return;
	w->ms = now_ms != 0 ? now_ms : 1;
	pc->want_n++;
	pcore_count(pc, IPC_STAT_DESC_ASKED);
}

int
pcore_desc_wanted(struct pcore *pc, struct pcore_neigh *n,
    const uint8_t *const *want, unsigned num, uint64_t now_ms)
{
	uint64_t ogm = pcore_desc_ogm_ms(pc);
	struct pcore_desc *d;
	unsigned i;
	int own = 0;

	if (now_ms >= n->want_period_ms + ogm || now_ms < n->want_period_ms) {
		n->want_period_ms = now_ms;
		n->want_n = 0;
	}
	for (i = 0; i < num; i++) {
		if (n->want_n >= PCORE_WANT_PER_OGM) {
			pcore_count(pc, IPC_STAT_DESC_WANT_OVER);
			continue;
		}
		n->want_n++;
		/* Ours: the forwarder's next OGM full, at most every
		 * PCORE_WANT_AGAIN_OGMS intervals whoever asks. */
		if (memcmp(want[i], pc->cfg.own_addr, BS_ADDR_LEN) == 0) {
			if (pc->own_wanted_ms == 0 || now_ms < pc->own_wanted_ms ||
			    now_ms >= pc->own_wanted_ms +
			    PCORE_WANT_AGAIN_OGMS * ogm) {
				pc->own_wanted_ms = now_ms;
				own = 1;
				pcore_count(pc, IPC_STAT_DESC_WANT_RX);
			}
			continue;
		}
		if ((d = pcore_desc_get(pc, want[i])) == NULL)
			continue;
		d->wanted_until_ms = now_ms + PCORE_UPGRADE_OGMS * ogm;
		pcore_count(pc, IPC_STAT_DESC_WANT_RX);
	}
	return own;
}

int
pcore_desc_due(const struct pcore *pc, const struct pcore_desc *d,
    uint64_t now_ms)
{
	return pcore_desc_upgrading(pc, now_ms) || now_ms < d->wanted_until_ms;
}

void
pcore_desc_sent(struct pcore_desc *d, uint64_t now_ms)
{
	d->sent_ms = now_ms;
	d->wanted_until_ms = 0;
}
