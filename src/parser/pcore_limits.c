/*
 * pcore_limits.c — token buckets, the per-source table, the epoch
 * memory, the verification budget and the originator admission rules
 * of the parser (pcore_limits.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_trust.h"
#include "common/zmem.h"
#include "routing/routing.h"

_Static_assert(sizeof(struct pl_mem) == 32, "pl_mem size");
_Static_assert(PCORE_MAX_NEIGH < UINT16_MAX, "aux intro slot");
_Static_assert(IPC_STAT_SRC1_MAC + IPC_STAT_SRC_SLOTS * IPC_STAT_SRC_FIELDS ==
    IPC_STAT_SRC4_HOPS + 1, "per-source counter ids");
_Static_assert(PL_TOP == IPC_STAT_SRC_SLOTS, "sources shown");

/* ---- token buckets ------------------------------------------------------------------ */

/* Refill to now_ms; a clock that went back only moves last_ms. */
static void
pl_refill(struct pl_bucket *b, uint32_t rate, uint32_t burst, uint64_t now_ms)
{
	uint64_t cap = (uint64_t)burst * 1000, dt;

	if (!b->started) {
		b->milli = cap;
		b->last_ms = now_ms;
		b->started = 1;
		return;
	}
	if (now_ms > b->last_ms) {
		dt = now_ms - b->last_ms;
		if (dt > 86400000u)
			dt = 86400000u;	/* a day refills any bucket */
		b->milli += dt * rate;	/* ms * tokens/s = milli-tokens */
	}
	b->last_ms = now_ms;
	if (b->milli > cap)
		b->milli = cap;
}

uint64_t
pl_bucket_level(struct pl_bucket *b, uint32_t rate, uint32_t burst,
    uint64_t now_ms)
{
	pl_refill(b, rate, burst, now_ms);
	return b->milli / 1000;
}

int
pl_bucket_take(struct pl_bucket *b, uint32_t rate, uint32_t burst,
    uint64_t now_ms)
{
	pl_refill(b, rate, burst, now_ms);
	if (b->milli < 1000)
		return 0;
	b->milli -= 1000;
	return 1;
}

void
pl_bucket_refund(struct pl_bucket *b, uint32_t burst)
{
	b->milli += 1000;
	if (b->milli > (uint64_t)burst * 1000)
		b->milli = (uint64_t)burst * 1000;
}

/* ---- set-up ------------------------------------------------------------------------- */

int
pcore_lim_setup(struct pcore *pc)
{
	static const char ctx[] = "batsec pcore_limits";
	struct pcore_limits *l = &pc->lim;
	struct log_rl rl = LOG_RL_INIT(5, 1);

	crypto_generichash(l->key, sizeof(l->key), (const uint8_t *)ctx,
	    sizeof(ctx) - 1, pc->rt_key, sizeof(pc->rt_key));
	l->note_rl = rl;
	/* Sparse hash sets: only the pages used become resident. */
	l->src = zmem_alloc(PL_SRC_SLOTS, sizeof(*l->src));
	l->mem = zmem_alloc(PL_MEM_SLOTS, sizeof(*l->mem));
	l->claims = zmem_alloc(PL_CLAIM_SLOTS, sizeof(*l->claims));
	l->pincand = zmem_alloc(PCORE_PIN_MAX, sizeof(*l->pincand));
	if (l->src == NULL || l->mem == NULL || l->claims == NULL ||
	    l->pincand == NULL) {
		pcore_lim_free(pc);
		return -1;
	}
	return 0;
}

void
pcore_lim_free(struct pcore *pc)
{
	zmem_free(pc->lim.src, PL_SRC_SLOTS, sizeof(*pc->lim.src));
	zmem_free(pc->lim.mem, PL_MEM_SLOTS, sizeof(*pc->lim.mem));
	zmem_free(pc->lim.claims, PL_CLAIM_SLOTS, sizeof(*pc->lim.claims));
	zmem_free(pc->lim.pincand, PCORE_PIN_MAX, sizeof(*pc->lim.pincand));
	pc->lim.pincand = NULL;
	pc->lim.n_pincand = 0;
	pc->lim.src = NULL;
	pc->lim.mem = NULL;
	pc->lim.claims = NULL;
}

/* The policy's limits, or the defaults before the first snapshot. */
const struct bs_policy_limits *
pcore_lim_limits(const struct pcore *pc)
{
	static struct bs_policy_limits def;
	static int init;

	if (pc->policy != NULL)
		return &pc->policy->limits;
	if (!init) {
		bs_policy_limits_default(&def);
		init = 1;
	}
	return &def;
}

uint64_t
pcore_lim_hash(const struct pcore *pc, const uint8_t *in, size_t len)
{
	uint8_t out[crypto_shorthash_BYTES];
	uint64_t v;

	crypto_shorthash(out, in, len, pc->lim.key);
	memcpy(&v, out, sizeof(v));
	return v;
}

uint64_t
pcore_lim_idle_ms(const struct pcore *pc)
{
	uint64_t idle = (uint64_t)pc->cfg.ogm_ms * PL_EVICT_IDLE_OGMS;

	return idle < PL_EVICT_IDLE_MIN_MS ? PL_EVICT_IDLE_MIN_MS : idle;
}

/* ---- the per-source table ----------------------------------------------------------- */

static struct pl_src *
pl_src_get(struct pcore *pc, uint32_t ifindex,
    const uint8_t mac[static BS_ADDR_LEN], uint64_t now_ms)
{
	uint8_t in[4 + BS_ADDR_LEN];
	struct pl_src *set, *victim;
	unsigned i;

	if (pc->lim.src == NULL)
		return NULL;
	memcpy(in, &ifindex, 4);
	memcpy(in + 4, mac, BS_ADDR_LEN);
	set = &pc->lim.src[(pcore_lim_hash(pc, in, sizeof(in)) % PL_SRC_SETS) *
	    PL_SRC_WAYS];
	victim = &set[0];
	for (i = 0; i < PL_SRC_WAYS; i++) {
		if (set[i].ifindex == ifindex &&
		    memcmp(set[i].mac, mac, BS_ADDR_LEN) == 0) {
			set[i].last_ms = now_ms;
			return &set[i];
		}
		if (set[i].ifindex == 0 || (victim->ifindex != 0 &&
		    set[i].last_ms < victim->last_ms))
			victim = &set[i];
	}
	/* A new source takes a free way or the one heard least recently. */
	memset(victim, 0, sizeof(*victim));
	victim->ifindex = ifindex;
	memcpy(victim->mac, mac, BS_ADDR_LEN);
	victim->last_ms = now_ms;
	return victim;
}

static void
pl_note(struct pcore *pc, uint64_t now_ms, const char *what, uint32_t ifindex,
    const uint8_t mac[static BS_ADDR_LEN])
{
	uint64_t dropped = 0;

	if (!log_rl_allow(&pc->lim.note_rl, now_ms, &dropped))
		return;
	pcore_logf(pc, IPC_LOG_NOTICE, "%s: ifindex %u source "
	    "%02x:%02x:%02x:%02x:%02x:%02x (%llu notices suppressed)", what,
	    ifindex, mac[0], mac[1], mac[2], mac[3], mac[4], mac[5],
	    (unsigned long long)dropped);
}

int
pcore_lim_frame(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	struct pl_src *s = pl_src_get(pc, ifindex, src, now_ms);

	if (s == NULL || pl_bucket_take(&s->frames, l->frame_rate,
	    l->frame_burst, now_ms))
		return 0;
	if (s->auth_ms != 0 && now_ms >= s->auth_ms &&
	    now_ms - s->auth_ms <= PL_AUTH_FRESH_MS &&
	    pl_bucket_take(&pc->lim.spill, l->frame_rate * PL_SPILL_MULT,
	    l->frame_burst * PL_SPILL_MULT, now_ms))
		return 0;
	if (s->drops[PL_R_RATE] == 0)
		pl_note(pc, now_ms, "control frames over the frame rate",
		    ifindex, src);
	return -1;
}

void
pcore_lim_authentic(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms)
{
	struct pl_src *s = pl_src_get(pc, ifindex, src, now_ms);

	if (s != NULL)
		s->auth_ms = now_ms != 0 ? now_ms : 1;
}

int
pcore_lim_neigh_frame(struct pcore *pc, struct pcore_neigh *n,
    uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);

	return pl_bucket_take(&n->frames, l->frame_rate, l->frame_burst,
	    now_ms) ? 0 : -1;
}

void
pcore_lim_account(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], enum pl_reason r, uint64_t now_ms)
{
	struct pl_src *s;

	if ((unsigned)r >= PL_R_COUNT ||
	    (s = pl_src_get(pc, ifindex, src, now_ms)) == NULL)
		return;
	s->drops[r]++;
}

/* ---- verification budget ------------------------------------------------------------ */

/*
 * Under load while the global verify bucket is below PL_LOAD_ENTER_PCT
 * of its burst, until it is back to PL_LOAD_LEAVE_PCT (hysteresis, as
 * WireGuard's cookie mode).
 */
static void
pl_load_update(struct pcore *pc, uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	struct pcore_limits *lim = &pc->lim;
	uint64_t lvl, burst = l->verify_global_burst;

	lvl = pl_bucket_level(&lim->verify, l->verify_global_rate, l->
	    verify_global_burst, now_ms);
	if (!lim->under_load && lvl * 100 < burst * PL_LOAD_ENTER_PCT) {
		lim->under_load = 1;
		lim->under_load_entered++;
		pc->stats_dirty = 1;
		pcore_logf(pc, IPC_LOG_NOTICE, "under load: signature "
		    "checks of unknown keys postponed");
	} else if (lim->under_load && lvl * 100 >= burst * PL_LOAD_LEAVE_PCT) {
		lim->under_load = 0;
		pc->stats_dirty = 1;
		pcore_logf(pc, IPC_LOG_NOTICE, "load back to normal");
	}
}

/* Both buckets have a token: take them (the global one last). */
static int
pl_budget_take(struct pcore *pc, struct pl_bucket *own, uint32_t rate,
    uint32_t burst, uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);

	if (pl_bucket_level(own, rate, burst, now_ms) == 0)
		return -1;
	if (!pl_bucket_take(&pc->lim.verify, l->verify_global_rate,
	    l->verify_global_burst, now_ms))
		return -1;
	pl_bucket_take(own, rate, burst, now_ms);
	return 0;
}

int
pcore_lim_hello_budget(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], int known, uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	struct pl_src *s = pl_src_get(pc, ifindex, src, now_ms);
	int r;

	if (s == NULL)
		return 0;
	pl_load_update(pc, now_ms);
	if (pc->lim.under_load && !known)
		return -1;
	r = pl_budget_take(pc, &s->verify, l->verify_rate, l->verify_burst,
	    now_ms);
	pl_load_update(pc, now_ms);
	return r;
}

int
pcore_lim_verify_left(struct pcore *pc, struct pcore_neigh *n,
    uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);

	return pl_bucket_level(&n->verify, l->verify_rate, l->verify_burst,
	    now_ms) > 0 && pl_bucket_level(&pc->lim.verify,
	    l->verify_global_rate, l->verify_global_burst, now_ms) > 0;
}

int
pcore_lim_verify_budget(struct pcore *pc, struct pcore_neigh *n, int known,
    uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	int r;

	pl_load_update(pc, now_ms);
	if (pc->lim.under_load && !known)
		return -1;
	r = pl_budget_take(pc, &n->verify, l->verify_rate, l->verify_burst,
	    now_ms);
	pl_load_update(pc, now_ms);
	return r;
}

/* ---- admission of new originators ----------------------------------------------------- */

static struct pcore_neigh *pl_introducer(struct pcore *pc,
    const uint8_t aux[]);

/*
 * The entry of class cls refreshed least recently, when it may go:
 * with idle_only only after PL_EVICT_IDLE_OGMS intervals without a new
 * seqno (fisheye gaps of its hops, when compact), with only set only
 * when that neighbour introduced it.
 */
static int
pl_evict_pick(struct pcore *pc, uint8_t cls, int idle_only,
    const struct pcore_neigh *only, uint64_t now_ms, struct pl_admit *a)
{
	struct routing_orig_info oi;
	uint64_t idle = pcore_lim_idle_ms(pc);
	struct pcore_aux aux;

	if (!routing_orig_evict_candidate(pc->rt, cls, &oi))
		return 0;
	/* A distant originator's compact entries come only every fisheye
	 * gap-th interval (pcore_fisheye_gap): idle counts in those. */
	memcpy(&aux, oi.aux, sizeof(aux));
	if (aux.chain_ok)
		idle *= pcore_fisheye_gap(pc, aux.chain_hops);
	if (idle_only && now_ms >= oi.last_refresh_ms &&
	    now_ms - oi.last_refresh_ms < idle)
		return 0;
	if (idle_only && now_ms < oi.last_refresh_ms)
		return 0;
	if (only != NULL && pl_introducer(pc, oi.aux) != only)
		return 0;
	a->evict = 1;
	memcpy(a->evict_pk, oi.pk, BS_PK_LEN);
	return 1;
}

/* Room for a stranger: the class share and the neighbour's share. */
static int
pl_admit_stranger(struct pcore *pc, const struct pcore_neigh *n,
    int table_full, uint64_t now_ms, struct pl_admit *a)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	uint64_t cap = routing_get_params(pc->rt)->orig_cap, scap, ncap;

	scap = cap * l->stranger_share / 100;
	ncap = scap * l->neighbor_stranger_share / 100;
	if (ncap == 0)
		ncap = 1;
	if (scap == 0)
		return PCORE_E_FULL;
	/* At its share a neighbour can only replace an idle one of its own. */
	if (n->strangers >= ncap)
		return pl_evict_pick(pc, BS_CLASS_STRANGER, 1, n, now_ms, a) ?
		    PCORE_E_ACCEPT : PCORE_E_FULL;
	if (pc->n_strangers < scap && !table_full)
		return PCORE_E_ACCEPT;
	return pl_evict_pick(pc, BS_CLASS_STRANGER, 1, NULL, now_ms, a) ?
	    PCORE_E_ACCEPT : PCORE_E_FULL;
}

/* Room in a full table for a certified or trusted key: a lower class. */
static int
pl_admit_better(struct pcore *pc, uint8_t cls, int table_full, uint64_t now_ms,
    struct pl_admit *a)
{
	if (!table_full)
		return PCORE_E_ACCEPT;
	if (pl_evict_pick(pc, BS_CLASS_STRANGER, 0, NULL, now_ms, a))
		return PCORE_E_ACCEPT;
	if (cls == BS_CLASS_TRUSTED &&
	    pl_evict_pick(pc, BS_CLASS_CERTIFIED, 0, NULL, now_ms, a))
		return PCORE_E_ACCEPT;
	return PCORE_E_FULL;
}

int
pcore_lim_admit(struct pcore *pc, struct pcore_neigh *n,
    const struct routing_ogm *m, int table_full, uint64_t now_ms,
    struct pl_admit *a)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	int quota = m->cls != BS_CLASS_TRUSTED, r;

	memset(a, 0, sizeof(*a));
	/* Trusted keys are listed one by one: no introduction quota. */
	if (quota && (pl_bucket_level(&n->intro, l->intro_rate,
	    l->intro_burst, now_ms) == 0 || pl_bucket_level(&pc->lim.intro,
	    l->intro_global_rate, l->intro_global_burst, now_ms) == 0))
		return PCORE_E_INTRO;
	if (m->cls == BS_CLASS_STRANGER)
		r = pl_admit_stranger(pc, n, table_full, now_ms, a);
	else
		r = pl_admit_better(pc, m->cls, table_full, now_ms, a);
	if (r != PCORE_E_ACCEPT || !quota)
		return r;
	pl_bucket_take(&n->intro, l->intro_rate, l->intro_burst, now_ms);
	pl_bucket_take(&pc->lim.intro, l->intro_global_rate,
	    l->intro_global_burst, now_ms);
	return PCORE_E_ACCEPT;
}

void
pcore_lim_stranger_new(struct pcore *pc, struct pcore_neigh *n, uint8_t aux[])
{
	struct pcore_aux x;
	size_t slot = (size_t)(n - pc->neigh);

	memcpy(&x, aux, sizeof(x));
	x.intro = (uint16_t)(slot + 1);
	x.intro_gen = pc->neigh_gen[slot];
	memcpy(aux, &x, sizeof(x));
	n->strangers++;
}

/* The neighbour that introduced a stranger, while it is still there. */
static struct pcore_neigh *
pl_introducer(struct pcore *pc, const uint8_t aux[])
{
	struct pcore_aux x;
	size_t slot;

	memcpy(&x, aux, sizeof(x));
	if (x.intro == 0 || x.intro > PCORE_MAX_NEIGH)
		return NULL;
	slot = (size_t)x.intro - 1;
	if (pc->neigh[slot].ifindex == 0 || pc->neigh_gen[slot] != x.intro_gen)
		return NULL;
	return &pc->neigh[slot];
}

void
pcore_lim_reclass(struct pcore *pc, uint8_t was, uint8_t is, uint8_t aux[])
{
	struct pcore_neigh *n;
	struct pcore_aux x;

	if (was == is)
		return;
	if (is == BS_CLASS_STRANGER) {
		pc->n_strangers++;	/* introduced by nobody in particular */
		return;
	}
	if (was != BS_CLASS_STRANGER)
		return;
	if (pc->n_strangers > 0)
		pc->n_strangers--;
	if ((n = pl_introducer(pc, aux)) != NULL && n->strangers > 0)
		n->strangers--;
	memcpy(&x, aux, sizeof(x));
	x.intro = 0;
	x.intro_gen = 0;
	memcpy(aux, &x, sizeof(x));
}

void
pcore_lim_recount(struct pcore *pc)
{
	struct routing_orig_info oi;
	struct pcore_neigh *n;
	uint32_t pos = 0;
	size_t i;

	for (i = 0; i < PCORE_MAX_NEIGH; i++)
		pc->neigh[i].strangers = 0;
	while (routing_orig_next(pc->rt, &pos, &oi))
		if (oi.cls == BS_CLASS_STRANGER &&
		    (n = pl_introducer(pc, oi.aux)) != NULL)
			n->strangers++;
}

/* ---- epoch memory ------------------------------------------------------------------- */

/*
 * An originator is remembered by its key; a neighbour by its key and
 * our interface, because a node numbers the HELLOs of each of its
 * interfaces on its own.
 */
struct pl_mem_id {
	uint8_t in[BS_PK_LEN + 4];
	size_t len;
};

static void
pl_mem_id(struct pl_mem_id *id, const uint8_t pk[static BS_PK_LEN],
    uint32_t ifindex)
{
	memcpy(id->in, pk, BS_PK_LEN);
	id->len = BS_PK_LEN;
	if (ifindex != 0) {
		memcpy(id->in + BS_PK_LEN, &ifindex, 4);
		id->len += 4;
	}
}

static struct pl_mem *
pl_mem_set(const struct pcore *pc, const struct pl_mem_id *id, uint64_t *tag)
{
	uint64_t h = pcore_lim_hash(pc, id->in, id->len);

	*tag = h | 1;		/* never 0, which marks a free way */
	return &pc->lim.mem[((h >> 32) % PL_MEM_SETS) * PL_MEM_WAYS];
}

static const struct pl_mem *
pl_mem_find(const struct pcore *pc, const struct pl_mem_id *id)
{
	const struct pl_mem *set;
	uint64_t tag;
	unsigned i;

	if (pc->lim.mem == NULL)
		return NULL;
	set = pl_mem_set(pc, id, &tag);
	for (i = 0; i < PL_MEM_WAYS; i++)
		if (set[i].tag == tag)
			return &set[i];
	return NULL;
}

/*
 * The way for pk: its own, a free one, or the lowest class no better
 * than cls, oldest first.  NULL when every way holds a better class:
 * strangers cannot flush what is remembered of trusted keys.
 */
static struct pl_mem *
pl_mem_slot(struct pcore *pc, const struct pl_mem_id *id, uint8_t cls)
{
	struct pl_mem *set, *v = NULL;
	uint64_t tag;
	unsigned i;

	set = pl_mem_set(pc, id, &tag);
	for (i = 0; i < PL_MEM_WAYS; i++)
		if (set[i].tag == tag)
			return &set[i];
	for (i = 0; i < PL_MEM_WAYS; i++) {
		if (set[i].tag == 0) {
			v = &set[i];
			break;
		}
		if (set[i].cls <= cls && (v == NULL || set[i].cls < v->cls ||
		    (set[i].cls == v->cls && set[i].stamp < v->stamp)))
			v = &set[i];
	}
	if (v == NULL)
		return NULL;
	memset(v, 0, sizeof(*v));
	v->tag = tag;
	v->cls = cls;
	v->stamp = ++pc->lim.mem_stamp;
	return v;
}

static void
pl_mem_put(uint32_t *e, uint32_t *s, uint8_t *have, uint8_t bit,
    uint32_t epoch, uint32_t seqno)
{
	if ((*have & bit) && !routing_newer(epoch, seqno, *e, *s))
		return;
	*e = epoch;
	*s = seqno;
	*have |= bit;
}

void
pcore_lim_orig_gone(struct pcore *pc, const struct routing_orig_info *oi)
{
	struct pl_mem_id id;
	struct pcore_neigh *n;
	struct pl_mem *m;

	if (oi->cls == BS_CLASS_STRANGER &&
	    (n = pl_introducer(pc, oi->aux)) != NULL && n->strangers > 0)
		n->strangers--;
	pl_mem_id(&id, oi->pk, 0);
	if (pc->lim.mem == NULL || (m = pl_mem_slot(pc, &id, oi->cls)) == NULL)
		return;
	pl_mem_put(&m->o_epoch, &m->o_seqno, &m->have, 1, oi->epoch,
	    oi->seqno);
}

void
pcore_lim_neigh_gone(struct pcore *pc, const struct routing_neigh_info *ni)
{
	struct pl_mem_id id;
	struct pl_mem *m;
	uint8_t cls;

	pcore_key_admitted(pc, ni->pk, &cls);
	pl_mem_id(&id, ni->pk, ni->ifindex);
	if (pc->lim.mem == NULL || (m = pl_mem_slot(pc, &id, cls)) == NULL)
		return;
	pl_mem_put(&m->h_epoch, &m->h_seqno, &m->have, 2, ni->epoch,
	    ni->seqno);
}

int
pcore_lim_orig_stale(const struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
    uint32_t epoch, uint32_t seqno)
{
	struct pl_mem_id id;
	const struct pl_mem *m;

	pl_mem_id(&id, pk, 0);
	m = pl_mem_find(pc, &id);
	return m != NULL && (m->have & 1) &&
	    !routing_newer(epoch, seqno, m->o_epoch, m->o_seqno);
}

int
pcore_lim_hello_stale(const struct pcore *pc, uint32_t ifindex,
    const uint8_t pk[static BS_PK_LEN], uint32_t epoch, uint32_t seqno)
{
	struct pl_mem_id id;
	const struct pl_mem *m;

	pl_mem_id(&id, pk, ifindex);
	m = pl_mem_find(pc, &id);
	return m != NULL && (m->have & 2) &&
	    !routing_newer(epoch, seqno, m->h_epoch, m->h_seqno);
}

/* ---- the neighbour table by class ------------------------------------------------------ */

/* Stranger neighbours on ifindex, or on every interface when it is 0. */
static unsigned
pl_neigh_strangers(const struct pcore *pc, uint32_t ifindex)
{
	unsigned i, k = 0;

	for (i = 0; i < PCORE_MAX_NEIGH; i++)
		if (pc->neigh[i].ifindex != 0 && (ifindex == 0 ||
		    pc->neigh[i].ifindex == ifindex) &&
		    pcore_trust_class(pc, pc->neigh[i].pk) == BS_CLASS_STRANGER)
			k++;
	return k;
}

int
pcore_lim_neigh_room(struct pcore *pc, uint32_t ifindex, uint8_t cls)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	const struct routing_params *rp;

	if (cls != BS_CLASS_STRANGER || pc->rt == NULL)
		return 0;
	rp = routing_get_params(pc->rt);
	if (pl_neigh_strangers(pc, ifindex) >=
	    (uint64_t)rp->neigh_iface_cap * l->stranger_neighbors / 100 ||
	    pl_neigh_strangers(pc, 0) >=
	    (uint64_t)rp->neigh_cap * l->stranger_neighbors / 100)
		return -1;
	return 0;
}

/* The neighbour in slot i may go for a key of class cls: its class. */
static int
pl_neigh_lower(const struct pcore *pc, unsigned i, uint8_t cls, uint8_t *c)
{
	*c = pcore_trust_class(pc, pc->neigh[i].pk);
	return *c < cls && (*c <= BS_CLASS_STRANGER || cls == BS_CLASS_TRUSTED);
}

int
pcore_lim_neigh_victim(struct pcore *pc, uint32_t ifindex, uint8_t cls,
    uint32_t *vif, uint8_t vpk[static BS_PK_LEN])
{
	struct routing_neigh_info ni;
	unsigned i, best = PCORE_MAX_NEIGH;
	uint64_t best_seen = 0;
	uint8_t c, best_c = 0;
	int here, best_here = 0;

	if (cls <= BS_CLASS_STRANGER || pc->rt == NULL)
		return 0;
	for (i = 0; i < PCORE_MAX_NEIGH; i++) {
		if (pc->neigh[i].ifindex == 0 || !pl_neigh_lower(pc, i, cls, &c) ||
		    routing_neigh_get(pc->rt, pc->neigh[i].ifindex,
		    pc->neigh[i].addr, &ni) != ROUTING_OK)
			continue;
		here = pc->neigh[i].ifindex == ifindex;
		/* Same interface first, then the lower class, then idle. */
		if (best < PCORE_MAX_NEIGH && (best_here > here ||
		    (best_here == here && (best_c < c || (best_c == c &&
		    best_seen <= ni.last_seen_ms)))))
			continue;
		best = i;
		best_here = here;
		best_c = c;
		best_seen = ni.last_seen_ms;
	}
	if (best == PCORE_MAX_NEIGH)
		return 0;
	*vif = pc->neigh[best].ifindex;
	memcpy(vpk, pc->neigh[best].pk, BS_PK_LEN);
	return 1;
}

/* ---- TOFU pins --------------------------------------------------------------------------- */

/* The neighbour a stranger is charged to: its introducer, else its next hop. */
static struct pcore_neigh *
pl_pin_neigh(struct pcore *pc, const struct routing_orig_info *oi)
{
	struct pcore_neigh *n;
	unsigned i;

	if ((n = pl_introducer(pc, oi->aux)) != NULL)
		return n;
	for (i = 0; i < PCORE_MAX_NEIGH; i++)
		if (pc->neigh[i].ifindex != 0 &&
		    pc->neigh[i].ifindex == oi->ifindex &&
		    memcmp(pc->neigh[i].addr, oi->nexthop, BS_ADDR_LEN) == 0)
			return &pc->neigh[i];
	return NULL;
}

/* One more pin for n within its period: 1 when allowed (and counted). */
static int
pl_pin_quota(struct pcore *pc, struct pcore_neigh *n, uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);

	if (n->pin_period_ms == 0 || now_ms < n->pin_period_ms ||
	    now_ms - n->pin_period_ms >= PL_PIN_PERIOD_MS) {
		n->pin_period_ms = now_ms != 0 ? now_ms : 1;
		n->pins = 0;
	}
	if (n->pins >= l->pins_per_neighbor)
		return 0;
	n->pins++;
	return 1;
}

/* A routed stranger not pinned yet: its candidate, or its pin when due. */
static void
pl_pin_candidate(struct pcore *pc, const struct routing_orig_info *oi,
    uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	struct pcore_limits *lim = &pc->lim;
	struct pl_pincand *c;
	struct pcore_neigh *n;
	size_t i;
	int found;

	i = bs_sorted_index(lim->pincand, lim->n_pincand, sizeof(*c),
	    offsetof(struct pl_pincand, pk), oi->pk, BS_PK_LEN, &found);
	if (!found) {
		if (lim->n_pincand >= PCORE_PIN_MAX)
			return;		/* tried again next pass */
		memmove(&lim->pincand[i + 1], &lim->pincand[i],
		    (lim->n_pincand - i) * sizeof(*c));
		c = &lim->pincand[i];
		memcpy(c->pk, oi->pk, BS_PK_LEN);
		c->since_ms = now_ms;
		c->mark = lim->pin_mark;
		lim->n_pincand++;
		if (l->pin_after > 0)
			return;
	}
	c = &lim->pincand[i];
	c->mark = lim->pin_mark;
	if (now_ms < c->since_ms ||
	    now_ms - c->since_ms < (uint64_t)l->pin_after * 1000 ||
	    pcore_trust_pin_count(pc) >= PCORE_PIN_MAX ||
	    (n = pl_pin_neigh(pc, oi)) == NULL || !pl_pin_quota(pc, n, now_ms))
		return;
	pcore_trust_pin(pc, oi->pk);
	pcore_trust_pin_used(pc, oi->pk, now_ms);
	c->mark = lim->pin_mark - 1;	/* pinned: the sweep drops it */
}

/* Forget the candidates this pass did not see routed. */
static void
pl_pin_sweep(struct pcore_limits *lim)
{
	size_t i, k = 0;

	for (i = 0; i < lim->n_pincand; i++)
		if (lim->pincand[i].mark == lim->pin_mark)
			lim->pincand[k++] = lim->pincand[i];
	lim->n_pincand = k;
}

void
pcore_lim_pins(struct pcore *pc, uint64_t now_ms)
{
	const struct bs_policy_limits *l = pcore_lim_limits(pc);
	struct pcore_limits *lim = &pc->lim;
	struct routing_orig_info oi;
	uint32_t pos = 0;

	if (pc->rt == NULL || lim->pincand == NULL || pc->policy == NULL ||
	    (lim->pins_ms != 0 && now_ms >= lim->pins_ms &&
	    now_ms - lim->pins_ms < PL_PINS_MS))
		return;
	lim->pins_ms = now_ms != 0 ? now_ms : 1;
	lim->pin_mark++;
	while (pc->policy->mode == BS_POLICY_OPEN &&
	    routing_orig_next(pc->rt, &pos, &oi)) {
		if (oi.cls != BS_CLASS_STRANGER || !oi.has_route ||
		    pcore_trust_pin_used(pc, oi.pk, now_ms))
			continue;
		pl_pin_candidate(pc, &oi, now_ms);
	}
	pl_pin_sweep(lim);
	pcore_trust_pins_age(pc, now_ms, (uint64_t)l->pin_max_age * 86400000u);
}

/* ---- counters ----------------------------------------------------------------------- */

/* Drops that show an attack (not the mesh's normal duplicates). */
static uint64_t
pl_score(const struct pl_src *s)
{
	uint64_t v = 0;
	int r;

	for (r = 0; r < PL_R_COUNT; r++)
		if (r != PL_R_STALE)
			v += s->drops[r];
	return v;
}

/* The PL_TOP sources with the highest score, best first. */
static unsigned
pl_top(const struct pcore *pc, const struct pl_src *top[PL_TOP])
{
	unsigned i, k, n = 0;
	uint64_t sc;

	for (i = 0; pc->lim.src != NULL && i < PL_SRC_SLOTS; i++) {
		const struct pl_src *s = &pc->lim.src[i];

		if (s->ifindex == 0 || (sc = pl_score(s)) == 0)
			continue;
		for (k = n; k > 0 && pl_score(top[k - 1]) < sc; k--)
			if (k < PL_TOP)
				top[k] = top[k - 1];
		if (k < PL_TOP) {
			top[k] = s;
			if (n < PL_TOP)
				n++;
		}
	}
	return n;
}

static uint64_t
pl_mac_u64(const struct pl_src *s)
{
	uint64_t v = (uint64_t)(s->ifindex & 0xffff) << 48;
	int i;

	for (i = 0; i < BS_ADDR_LEN; i++)
		v |= (uint64_t)s->mac[i] << (8 * (BS_ADDR_LEN - 1 - i));
	return v;
}

void
pcore_lim_stats(const struct pcore *pc, uint64_t *v, size_t n)
{
	const struct pl_src *top[PL_TOP];
	uint64_t *o, total;
	unsigned k, cnt;
	int r;

	if (n < IPC_STAT_ID_END)
		return;
	v[IPC_STAT_STRANGERS] = pc->n_strangers;
	v[IPC_STAT_UNDER_LOAD] = pc->lim.under_load;
	v[IPC_STAT_UNDER_LOAD_ENTERED] = pc->lim.under_load_entered;
	cnt = pl_top(pc, top);
	for (k = 0; k < PL_TOP; k++) {
		o = &v[IPC_STAT_SRC1_MAC + k * IPC_STAT_SRC_FIELDS];
		memset(o, 0, IPC_STAT_SRC_FIELDS * sizeof(*o));
		if (k >= cnt)
			continue;
		for (total = 0, r = 0; r < PL_R_COUNT; r++)
			total += top[k]->drops[r];
		o[0] = pl_mac_u64(top[k]);
		o[1] = total;
		o[2] = top[k]->drops[PL_R_MALFORMED];
		o[3] = top[k]->drops[PL_R_RATE];
		o[4] = top[k]->drops[PL_R_AUTH];
		o[5] = top[k]->drops[PL_R_SIG];
		o[6] = top[k]->drops[PL_R_QUOTA];
		o[7] = top[k]->drops[PL_R_HOPS];
	}
}
