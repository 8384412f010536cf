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
	d->blk = copy;
	pc->desc_bytes += len;
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
