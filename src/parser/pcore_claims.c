/*
 * pcore_claims.c — who owns a client MAC (translation table) when
 * several originators claim it in their signed OGMs.
 *
 * Rules (batsecd(8), CLIENT CLAIMS): a claim of a better policy class
 * (trusted > certified > stranger) takes a client at once; a claim of
 * the same class takes it from a live owner (the fresher signed claim)
 * only when the client has not moved within the last 60 / roam-per-
 * minute seconds (roam-per-minute 0: never); a claim of a worse class
 * never takes it.  An owner that brought no new OGM for
 * pcore_lim_idle_ms() has lapsed, and anyone may take the client (both
 * waits, this and the release's below, count in the owner's fisheye gaps
 * when its newest OGM was a compact entry: pcore_fisheye_gap).
 * Roaming (batsec-protocol(7), ROAMING): an owner whose OGMs have not
 * claimed the client for PL_CLAIM_RELEASE_OGMS OGM intervals (at least
 * PL_CLAIM_RELEASE_MIN_MS) has released it (the client roamed away and
 * the owner withdrew it): anyone may take it at once, whatever the
 * roaming limit; a live owner that keeps claiming it is not released.
 * Bulk: every take from a live owner of the same class (a fresher claim
 * or a released client) also counts against the claiming originator:
 * at most roam-per-minute such takes per originator and clock minute,
 * so that a node cannot steal all the clients of others at once.
 * The table is bounded (PL_CLAIM_SLOTS); a client that finds no room is
 * refused, and room is only taken from lapsed owners or worse classes.
 */
#include <string.h>

#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_claims.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "proto/wire.h"
#include "routing/routing.h"

_Static_assert(sizeof(struct pl_claim) == 24, "pl_claim size");

static uint32_t
pl_claim_secs(uint64_t now_ms)
{
	return (uint32_t)(now_ms / 1000);
}

static struct pl_claim *
pl_claim_set(const struct pcore *pc, const uint8_t mac[static BS_ADDR_LEN],
    uint16_t vid)
{
	uint8_t in[BS_ADDR_LEN + 2];

	memcpy(in, mac, BS_ADDR_LEN);
	memcpy(in + BS_ADDR_LEN, &vid, 2);
	return &pc->lim.claims[(pcore_lim_hash(pc, in, sizeof(in)) %
	    PL_CLAIM_SETS) * PL_CLAIM_WAYS];
}

/*
 * When the owner last claimed c: its own time, or, for a client the
 * owner's last full entry claimed, the owner's newest OGM since (compact
 * entries carry no clients and change none: pcore_aux.tt_s, live_s).
 * *gap: how many OGM intervals apart the owner's OGMs that time follows
 * arrive here: 1, or for live_s the fisheye gap of the hops its newest
 * one came with (pcore_fisheye_gap: relays hand on its compact entries
 * only every gap-th sequence number), by which the waits below grow.
 */
static uint32_t
pl_claim_seen(const struct pcore *pc, const struct pl_claim *c,
    unsigned *gap)
{
	struct routing_orig_info oi;
	struct pcore_aux a;

	*gap = 1;
	if ((c->flags & PL_CLAIM_F_WITHDRAWN) != 0 || pc->rt == NULL ||
	    routing_orig_get_addr(pc->rt, c->owner, &oi) != ROUTING_OK)
		return c->seen_s;
	memcpy(&a, oi.aux, sizeof(a));
	if (a.tt_s != 0 && c->seen_s >= a.tt_s && a.live_s > c->seen_s) {
		if (a.chain_ok)
			*gap = pcore_fisheye_gap(pc, a.chain_hops);
		return a.live_s;
	}
	return c->seen_s;
}

static int
pl_claim_lapsed(const struct pcore *pc, const struct pl_claim *c,
    uint64_t now_ms)
{
	unsigned gap;
	uint32_t now = pl_claim_secs(now_ms), seen = pl_claim_seen(pc, c,
	    &gap);

	return now > seen &&
	    (uint64_t)(now - seen) * 1000 > pcore_lim_idle_ms(pc) * gap;
}

/* The owner's OGMs stopped claiming it (withdrawn). */
static int
pl_claim_released(const struct pcore *pc, const struct pl_claim *c,
    uint64_t now_ms)
{
	uint64_t rel = (uint64_t)pc->cfg.ogm_ms * PL_CLAIM_RELEASE_OGMS;
	uint32_t now = pl_claim_secs(now_ms), seen;
	unsigned gap;

	if ((c->flags & PL_CLAIM_F_WITHDRAWN) != 0)
		return 1;
	if (rel < PL_CLAIM_RELEASE_MIN_MS)
		rel = PL_CLAIM_RELEASE_MIN_MS;
	seen = pl_claim_seen(pc, c, &gap);
	/* seen_s is in whole seconds: one more for its rounding. */
	return now > seen &&
	    (uint64_t)(now - seen) * 1000 >= rel * gap + 1000;
}

static int
pl_claim_free(const struct pl_claim *c)
{
	static const uint8_t zero[BS_ADDR_LEN];

	return memcmp(c->mac, zero, BS_ADDR_LEN) == 0;
}

/* A way for a new client: free, lapsed, or a worse class. */
static struct pl_claim *
pl_claim_room(const struct pcore *pc, struct pl_claim *set, uint8_t cls,
    uint64_t now_ms)
{
	struct pl_claim *v = NULL;
	unsigned i;

	for (i = 0; i < PL_CLAIM_WAYS; i++) {
		if (pl_claim_free(&set[i]) ||
		    pl_claim_lapsed(pc, &set[i], now_ms))
			return &set[i];
		if (set[i].cls < cls && (v == NULL || set[i].cls < v->cls))
			v = &set[i];
	}
	return v;
}

/* The claimant's budget of takes from live owners: 1 and one spent. */
static int
pl_claim_budget(struct pcore_aux *a, uint32_t roam, uint32_t now)
{
	uint8_t window = (uint8_t)(now / 60);

	if (a == NULL)
		return 1;
	if (a->roam_window != window) {
		a->roam_window = window;
		a->roam_takes = 0;
	}
	if (a->roam_takes >= roam || a->roam_takes == UINT8_MAX)
		return 0;
	a->roam_takes++;
	return 1;
}

/* May a claim of class cls take a client its owner still claims? */
static int
pl_claim_may_move(const struct pcore *pc, const struct pl_claim *c,
    uint8_t cls, struct pcore_aux *a, uint64_t now_ms)
{
	uint32_t roam = pcore_lim_limits(pc)->roam_per_minute;
	uint32_t now = pl_claim_secs(now_ms);

	if (pl_claim_lapsed(pc, c, now_ms) || cls > c->cls)
		return 1;
	if (cls < c->cls || roam == 0)
		return 0;
	if (!pl_claim_released(pc, c, now_ms) && c->moved_s != 0 &&
	    now >= c->moved_s && (uint64_t)(now - c->moved_s) * roam < 60)
		return 0;
	return pl_claim_budget(a, roam, now);
}

int
pcore_claim(struct pcore *pc, const struct routing_orig_info *oi,
    struct pcore_aux *a, const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
    uint64_t now_ms)
{
	struct pl_claim *set, *c = NULL;
	unsigned i;

	if (pc->lim.claims == NULL)
		return 1;
	set = pl_claim_set(pc, mac, vid);
	for (i = 0; i < PL_CLAIM_WAYS && c == NULL; i++)
		if (memcmp(set[i].mac, mac, BS_ADDR_LEN) == 0 &&
		    set[i].vid == vid)
			c = &set[i];
	if (c == NULL) {
		if ((c = pl_claim_room(pc, set, oi->cls, now_ms)) == NULL)
			return 0;
		memset(c, 0, sizeof(*c));
		memcpy(c->mac, mac, BS_ADDR_LEN);
		c->vid = vid;
	} else if (memcmp(c->owner, oi->addr, BS_ADDR_LEN) != 0) {
		if (!pl_claim_may_move(pc, c, oi->cls, a, now_ms))
			return 0;
		c->moved_s = pl_claim_secs(now_ms);
	}
	memcpy(c->owner, oi->addr, BS_ADDR_LEN);
	c->cls = oi->cls;
	c->flags = 0;
	c->seen_s = pl_claim_secs(now_ms);
	return 1;
}

/* Is (mac, vid) among the page's entries?  They are ascending. */
static int
pl_page_has(const struct wire_tt_page *pg, const uint8_t *mac, uint16_t vid)
{
	uint8_t key[8];
	unsigned lo = 0, hi = pg->n, mid;
	int c;

	memcpy(key, mac, BS_ADDR_LEN);
	key[6] = (uint8_t)(vid >> 8);
	key[7] = (uint8_t)vid;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = memcmp(pg->entries + (size_t)mid * WIRE_TT_ENTRY_LEN, key,
		    sizeof(key));
		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

unsigned
pcore_claim_page_sweep(struct pcore *pc, const uint8_t owner[static
    BS_ADDR_LEN], const struct wire_tt_page *pg, uint64_t now_ms)
{
	struct pl_claim *c;
	unsigned i, others = 0;

	if (pc->lim.claims == NULL)
		return 0;
	for (i = 0; i < PL_CLAIM_SLOTS; i++) {
		c = &pc->lim.claims[i];
		if (memcmp(c->owner, owner, BS_ADDR_LEN) != 0 ||
		    pl_claim_free(c) || (c->flags & PL_CLAIM_F_WITHDRAWN))
			continue;
		if (wire_tt_bucket(c->mac, c->vid, pg->pages) != pg->page) {
			c->seen_s = pl_claim_secs(now_ms);
			others++;
		} else if (!pl_page_has(pg, c->mac, c->vid)) {
			c->flags |= PL_CLAIM_F_WITHDRAWN;
		}
	}
	return others;
}
