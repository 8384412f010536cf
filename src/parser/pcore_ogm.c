/*
 * pcore_ogm.c — the OGM pipeline (DESIGN.md §5, steps 2-9): the frame's
 * link authentication and replay check, then each entry through the
 * policy, the cheap consistency checks, the routing core's pre-check,
 * the hop chain, the signature (cache first), the routing update, and
 * the messages the decision calls for.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_claims.h"
#include "pcore_desc.h"
#include "pcore_drop.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_neigh.h"
#include "pcore_ogm.h"
#include "pcore_rt.h"
#include "pcore_trust.h"
#include "pcore_ttpage.h"
#include "proto/wire.h"
#include "routing/routing.h"

/* ---- fisheye relaying (pcore_fisheye_gap: pcore_base.c) ------------------------- */

/*
 * Whether a relay of entry e with hops value relay_hops goes out: a
 * full entry always; a compact one when its sequence number is a
 * multiple of the fisheye gap of those hops (all relays use the same
 * rule, aligned on the sequence number, so the same ones survive along
 * a path), or while a neighbour needs descriptions (pcore_desc.h: a new
 * or restarted one learns every originator from the hand-ons that go
 * before the compact entries relayed, as without fisheye).
 */
static int
pcore_fisheye_pass(const struct pcore *pc, const struct wire_ogm_entry *e,
    unsigned relay_hops, uint64_t now_ms)
{
	if (e->mut.kind != WIRE_OGM_COMPACT ||
	    pcore_desc_upgrading(pc, now_ms))
		return 1;
	return e->cp.seqno % pcore_fisheye_gap(pc, relay_hops) == 0;
}

/* ---- the frame ------------------------------------------------------------------- */

/* The tag under our link key (pcore_neigh_tag_ok), or the link signature. */
static int
pcore_ogm_auth(struct pcore *pc, const struct wire_ogm *o,
    struct pcore_neigh *n)
{
	const struct wire_trailer *t = &o->tr;

	if (t->auth == WIRE_AUTH_SIG)
		return pcore_verify(pc, t->sig, BS_DOM_LINK, t->covered,
		    t->covered_len, n->pk);
	return pcore_neigh_tag_ok(n, t, o->sender);
}

/*
 * Steps 2 and 3: an up neighbour with a known key, a fresh frame counter,
 * authentic, and within its own frame rate (counted only for authentic
 * frames, so a forger using its MAC cannot spend it).  The counter is
 * looked at before the trailer: a replayed frame costs no MAC and no
 * signature.  A signature trailer (a sender with no link keys, or more
 * than WIRE_MAX_TAGS neighbours) costs an Ed25519 check, so it is paid
 * from the neighbour's and the node's verification budgets, as an OGM
 * entry's signature is, and counts towards the under-load mode: a forger
 * copying the neighbour's MAC and address spends at most that
 * neighbour's budget.
 */
static enum pcore_drop
pcore_ogm_link(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const struct wire_ogm *o,
    struct pcore_neigh **np, uint64_t now_ms)
{
	struct routing_neigh_info ni;
	struct pcore_neigh *n;

	n = pcore_neigh_get(pc, ifindex, o->sender);
	if (n == NULL || !n->announced ||
	    routing_neigh_get(pc->rt, ifindex, o->sender, &ni) != ROUTING_OK ||
	    memcmp(ni.mac, src, BS_ADDR_LEN) != 0)
		return PCORE_DROP_NOT_NEIGH;
	if (n->key_state != PCORE_KEY_OK)
		return PCORE_DROP_NO_LINK_KEY;
	if (n->have_counter && o->tr.counter <= n->counter)
		return PCORE_DROP_REPLAY;
	if (o->tr.auth == WIRE_AUTH_SIG &&
	    pcore_lim_verify_budget(pc, n, 1, now_ms) != 0)
		return PCORE_DROP_BUDGET;
	if (pcore_ogm_auth(pc, o, n) != 0)
		return PCORE_DROP_LINK_AUTH;
	n->counter = o->tr.counter;
	n->have_counter = 1;
	routing_neigh_heard(pc->rt, ifindex, o->sender, now_ms);
	pcore_lim_authentic(pc, ifindex, src, now_ms);
	if (pcore_lim_neigh_frame(pc, n, now_ms) != 0)
		return PCORE_DROP_RATE;
	*np = n;
	return PCORE_ACCEPT;
}

/* ---- entry outcomes ---------------------------------------------------------------- */

static enum pcore_entry
pcore_entry_refused(int r)
{
	switch (r) {
	case ROUTING_EOLD:
	case ROUTING_EEPOCH:
		return PCORE_E_OLD;
	case ROUTING_EDUP:
	case ROUTING_EECHO:
	case ROUTING_ELOOP:
		return PCORE_E_DUP;
	case ROUTING_EFULL:
		return PCORE_E_FULL;
	case ROUTING_EHOPS:
		return PCORE_E_HOPS;
	default:
		return PCORE_E_ROUTING;
	}
}

/* ---- entry checks -------------------------------------------------------------- */

/*
 * Only the originator sends hops 0, then with itself as previous sender,
 * and nobody may claim more TQ than `hops` relays leave.
 */
static int
pcore_entry_consistent(const struct pcore *pc, const struct wire_ogm *o,
    const struct wire_ogm_entry *e, const uint8_t oaddr[static BS_ADDR_LEN])
{
	int direct = memcmp(o->sender, oaddr, BS_ADDR_LEN) == 0;

	if (direct != (e->mut.hops == 0))
		return 0;
	if (e->mut.hops == 0 &&
	    memcmp(e->mut.prev_sender, oaddr, BS_ADDR_LEN) != 0)
		return 0;
	return e->mut.tq <= routing_tq_ceiling(e->mut.hops,
	    pc->cfg.hop_penalty);
}

/*
 * The signature, verified at most once per exact signed bytes (a
 * failure is remembered too), within the verification budget of the
 * neighbour and the node when it has to be checked.
 */
/* What the signature cache knows of an entry (pcore_entry_cached). */
struct pcore_sigq {
	uint8_t d[SIGCACHE_DIGEST_LEN];
	int slot;			/* verified before: its slot, else -1 */
};

/* Look the entry's signed bytes up in the cache (no verification). */
static void
pcore_entry_cached(struct pcore *pc, const struct wire_ogm_entry *e,
    struct pcore_sigq *q)
{
	sigcache_digest(&pc->sigs, e->signed_ptr, e->signed_len, e->sig, q->d);
	q->slot = sigcache_find(&pc->sigs, q->d);
}

static enum pcore_entry
pcore_entry_sig(struct pcore *pc, const struct wire_ogm_entry *e,
    struct pcore_neigh *n, int known, const struct pcore_sigq *q,
    uint64_t now_ms)
{
	uint8_t bad[SIGCACHE_DIGEST_LEN];

	if (q->slot >= 0) {
		pcore_count(pc, IPC_STAT_SIG_CACHE_HIT);
		return PCORE_E_ACCEPT;
	}
	sigcache_digest_bad(q->d, bad);
	if (sigcache_lookup(&pc->sigs, bad)) {
		pcore_count(pc, IPC_STAT_SIG_CACHE_HIT);
		return PCORE_E_SIG;
	}
	if (pcore_lim_verify_budget(pc, n, known, now_ms) != 0)
		return PCORE_E_BUDGET;
	if (pcore_verify(pc, e->sig, BS_DOM_OGM, e->signed_ptr, e->signed_len,
	    e->sgn.pk) != 0) {
		sigcache_insert(&pc->sigs, bad);
		return PCORE_E_SIG;
	}
	sigcache_insert_chain(&pc->sigs, q->d, e->mut.chain, e->mut.hops);
	return PCORE_E_ACCEPT;
}

/* ---- what the decision calls for ------------------------------------------------ */

/*
 * The entries[0..n) of a TT or TT page that oi may claim (pcore_claim),
 * at most room of them, into m->e; the others are counted (drop_claim).
 * How many went into m.
 */
static unsigned
pcore_tt_claims(struct pcore *pc, const struct routing_orig_info *oi,
    struct pcore_aux *a, const uint8_t *entries, unsigned n, uint64_t room,
    struct ipc_tt *m, uint64_t now_ms)
{
	struct wire_tt_entry te;
	unsigned i, k = 0;

	for (i = 0; i < n && k < IPC_TT_MAX; i++) {
		wire_tt_get(entries, i, &te);
		if (k >= room || !pcore_claim(pc, oi, a, te.mac, te.vid,
		    now_ms)) {
			pcore_count(pc, IPC_STAT_DROP_CLAIM);
			continue;
		}
		memcpy(m->e[k].mac, te.mac, BS_ADDR_LEN);
		m->e[k].vid = te.vid;
		m->e[k].flags = te.flags;	/* checked: WIRE_TT_F_MASK */
		k++;
	}
	return k;
}

/*
 * One page of a paged table (pcore_ttpage.h): the claims of its bucket
 * brought up to date (pcore_claim_page_sweep, then pcore_claim per
 * entry, within the policy's clients-per-originator over the whole
 * table), and the page upstairs as an IPC_TT of that bucket when it
 * differs from the last one sent.
 */
static int
pcore_entry_tt_page(struct pcore *pc, const struct wire_tt_page *pg,
    const struct routing_orig_info *oi, struct pcore_aux *a, uint64_t now_ms)
{
	uint32_t limit = pc->policy->limits.clients_per_originator;
	struct pl_ttsync *s;
	struct ipc_tt m;
	unsigned others;

	pcore_count(pc, IPC_STAT_TT_PAGES);
	others = pcore_claim_page_sweep(pc, oi->addr, pg, now_ms);
	s = pcore_ttpage_note(pc, oi->addr, pg, now_ms);
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, oi->addr, BS_ADDR_LEN);
	m.pages = pg->pages;
	m.page = pg->page;
	m.count = (uint8_t)pcore_tt_claims(pc, oi, a, pg->entries, pg->n,
	    others < limit ? limit - others : 0, &m, now_ms);
	if (pcore_ttpage_same(s, &m) && a->tt_count == PCORE_TT_PAGED)
		return 0;
	if (pcore_emit(pc, IPC_TT, &m, sizeof(m)) != 0) {
		if (s != NULL)
			s->sent_ok &= ~(UINT64_C(1) << pg->page);
		return 0;
	}
	a->tt_count = PCORE_TT_PAGED;
	memset(a->tt_digest, 0, sizeof(a->tt_digest));
	return 1;
}

/*
 * The client list of the newest OGM, without the clients another
 * originator's claim holds (pcore_claims.c), when it differs from the
 * last one sent; a TT page goes to pcore_entry_tt_page.
 */
static int
pcore_entry_tt(struct pcore *pc, const struct wire_ogm_entry *e,
    const struct routing_orig_info *oi, struct pcore_aux *a, uint64_t now_ms)
{
	uint8_t d[sizeof(a->tt_digest)];
	struct ipc_tt m;
	unsigned k, n = 0;

	if (e->tv.present & (1u << WIRE_TVLV_TT_PAGE))
		return pcore_entry_tt_page(pc, &e->tv.page, oi, a, now_ms);
	if (a->tt_count == PCORE_TT_PAGED) {	/* one TT again */
		pcore_ttpage_forget(pc, oi->addr);
		a->tt_count = 0;
		memset(a->tt_digest, 0xff, sizeof(a->tt_digest));
	}
	memset(d, 0, sizeof(d));
	if (e->tv.present & (1u << WIRE_TVLV_TT))
		n = e->tv.tt_count;
	if (n > pc->policy->limits.clients_per_originator)
		n = pc->policy->limits.clients_per_originator;
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, oi->addr, BS_ADDR_LEN);
	k = pcore_tt_claims(pc, oi, a, e->tv.tt, n, n, &m, now_ms);
	if (k > 0)
		crypto_generichash(d, sizeof(d), (const uint8_t *)m.e,
		    (size_t)k * sizeof(m.e[0]), NULL, 0);
	if (k == a->tt_count && memcmp(d, a->tt_digest, sizeof(d)) == 0)
		return 0;
	m.count = (uint8_t)k;
	if (pcore_emit(pc, IPC_TT, &m, sizeof(m)) != 0)
		return 0;
	a->tt_count = m.count;
	memcpy(a->tt_digest, d, sizeof(d));
	return 1;
}

/* The gateway announcement, counted only when the policy allows it. */
static int
pcore_entry_gw(struct pcore *pc, const struct wire_ogm_entry *e,
    const struct routing_orig_info *oi, struct pcore_aux *a)
{
	struct ipc_gw m;
	int gw;

	gw = (e->tv.present & (1u << WIRE_TVLV_GATEWAY)) != 0;
	/* trust ... gateway, or a kept certificate's gateway role. */
	if (gw && !pcore_trust_gateway_ok(pc, oi->pk)) {
		pcore_count(pc, IPC_STAT_DROP_GATEWAY);
		gw = 0;
	}
	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, oi->addr, BS_ADDR_LEN);
	if (gw) {
		m.op = IPC_GW_ANNOUNCE;
		m.down = e->tv.gw_down;
		m.up = e->tv.gw_up;
	}
	if (m.op == a->gw && m.down == a->gw_down && m.up == a->gw_up)
		return 0;
	if (pcore_emit(pc, IPC_GW, &m, sizeof(m)) != 0)
		return 0;
	a->gw = m.op;
	a->gw_down = m.down;
	a->gw_up = m.up;
	return 1;
}

/*
 * The multicast listeners of the newest OGM, every time (the forwarder
 * keeps one record per originator; an OGM without the container makes
 * the originator unknown there, so that group frames are flooded to it).
 */
static void
pcore_entry_mcast(struct pcore *pc, const struct wire_ogm_entry *e,
    const struct routing_orig_info *oi)
{
	struct ipc_mcast m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, oi->addr, BS_ADDR_LEN);
	if (e->tv.present & (1u << WIRE_TVLV_MCAST)) {
		m.known = 1;
		m.flags = e->tv.mcast_flags;
		m.count = (uint8_t)e->tv.mcast_count;	/* <= WIRE_MCAST_MAX */
		memcpy(m.group, e->tv.mcast, (size_t)m.count * BS_ADDR_LEN);
	}
	(void)pcore_emit(pc, IPC_MCAST, &m, sizeof(m));
}

static void
pcore_entry_tvlvs(struct pcore *pc, const struct wire_ogm_entry *e,
    const struct routing_orig_info *oi, uint64_t now_ms)
{
	struct pcore_aux a;
	int changed;

	memcpy(&a, oi->aux, sizeof(a));
	changed = pcore_entry_tt(pc, e, oi, &a, now_ms);
	/* The clients just claimed are the current ones (pcore_claims.c). */
	a.tt_s = (uint32_t)(now_ms / 1000);
	a.live_s = a.tt_s;
	changed |= pcore_entry_gw(pc, e, oi, &a);
	pcore_entry_mcast(pc, e, oi);
	changed |= memcmp(&a, oi->aux, sizeof(a)) != 0;	/* roam budget */
	if (changed)
		routing_orig_set_aux(pc->rt, oi->pk, (const uint8_t *)&a);
}

/* One IPC_RELAY of m with TQ tq for ifindex (or IPC_IFINDEX_ALL). */
static int
pcore_relay_one(struct pcore *pc, struct ipc_relay *m,
    struct wire_ogm_mut *mut, uint32_t ifindex, uint8_t tq)
{
	if (tq == 0)
		return -1;
	m->ifindex = ifindex;
	mut->tq = tq;
	if (wire_ogm_mut_put(m->entry, m->len, mut) != WIRE_OK)
		return -1;
	return pcore_emit(pc, IPC_RELAY, m, sizeof(*m));
}

/*
 * Rebroadcast: the entry with its mutable part rewritten.  When the copy
 * sent back out on the receiving (half-duplex) interface carries a lower
 * TQ than the others, each up interface gets its own message.
 */
static void
pcore_entry_relay(struct pcore *pc, uint32_t in_ifindex,
    const struct wire_ogm_entry *e, const struct routing_ogm_result *res)
{
	struct ipc_relay m;
	struct wire_ogm_mut mut;
	uint8_t elem[BS_CHAIN_LEN];
	int i, sent = 0;

	if (e->raw_len > IPC_RELAY_MAX)
		return;		/* the codec's bounds rule it out */
	memset(&m, 0, sizeof(m));
	m.len = (uint16_t)e->raw_len;
	memcpy(m.entry, e->raw, e->raw_len);
	sigcache_chain_step(&pc->sigs, elem, e->mut.chain);
	memset(&mut, 0, sizeof(mut));
	mut.kind = e->mut.kind;
	mut.ttl = res->relay_ttl;
	mut.hops = res->relay_hops;
	mut.prev_sender = res->relay_prev_sender;
	mut.chain = elem;
	if (res->relay_tq_back == res->relay_tq)
		sent = pcore_relay_one(pc, &m, &mut, IPC_IFINDEX_ALL,
		    res->relay_tq) == 0;
	else
		for (i = 0; i < PCORE_MAX_IFACES; i++) {
			const struct pcore_iface *f = &pc->ifaces[i];

			if (f->ifindex == 0 || !f->up)
				continue;
			if (pcore_relay_one(pc, &m, &mut, f->ifindex,
			    f->ifindex == in_ifindex ? res->relay_tq_back :
			    res->relay_tq) == 0)
				sent = 1;
		}
	if (sent)
		pcore_count(pc, IPC_STAT_OGM_RELAYED);
}

/*
 * After routing_ogm: route changes; the refresh (the first copy of the
 * newest seqno from the best next hop, whichever neighbour's copy came
 * first; for an entry that came with a fisheye gap above 1 also the
 * first copy of the newest seqno from any neighbour: the forwarder
 * expires routes not refreshed for FWD_ROUTE_EXPIRE_MS, and such an
 * originator's sequence numbers come gap intervals apart, each through
 * the best next hop only when no link on its path lost it); clients and
 * gateway of a newer OGM; the relay.
 */
static void
pcore_entry_act(struct pcore *pc, const struct routing_ogm *m, int newer,
    const struct wire_ogm_entry *e, const struct routing_ogm_result *res,
    uint64_t now_ms)
{
	const struct routing_orig_info *oi = &res->info;
	int newest = oi->epoch == m->epoch && oi->seqno == m->seqno;
	int from_best = oi->ifindex == m->ifindex &&
	    memcmp(oi->nexthop, m->sender, BS_ADDR_LEN) == 0;
	int first = res->dup == ROUTING_NO_DUP &&
	    pcore_fisheye_gap(pc, m->hops) > 1;

	if (res->orig_new && m->cls == BS_CLASS_STRANGER)
		pc->n_strangers++;
	if (res->route == ROUTING_ROUTE_DELETED)
		pcore_route_del(pc, oi->addr);
	else if (res->route != ROUTING_ROUTE_SAME || (newest &&
	    oi->has_route && (from_best || first)))
		pcore_route_add(pc, oi);
	if (newer)
		pcore_entry_tvlvs(pc, e, oi, now_ms);
	if (!res->relay)
		return;
	if (pcore_fisheye_pass(pc, e, res->relay_hops, now_ms))
		pcore_entry_relay(pc, m->ifindex, e, res);
	else
		pcore_count(pc, IPC_STAT_OGM_FISHEYE);
}

/*
 * Everything that costs no signature; PCORE_E_ACCEPT when it passed.
 * A new originator also passes the epoch memory and the admission
 * (class shares, eviction plan, introduction quota) here.
 */
static enum pcore_entry
pcore_entry_cheap(struct pcore *pc, const struct wire_ogm *o,
    const struct wire_ogm_entry *e, const struct routing_ogm *m,
    struct pcore_neigh *n, uint64_t now_ms, int *known, int *newer,
    struct pl_admit *adm, struct pcore_sigq *q)
{
	struct routing_orig_info old;
	int r;

	memset(adm, 0, sizeof(*adm));
	if (!pcore_entry_consistent(pc, o, e, m->orig_addr))
		return PCORE_E_HOPS;
	r = routing_ogm_check(pc->rt, m);
	if (r != ROUTING_OK && r != ROUTING_EFULL)
		return pcore_entry_refused(r);
	*known = routing_orig_get(pc->rt, m->orig_pk, &old) == ROUTING_OK;
	if (*known && r != ROUTING_OK)
		return pcore_entry_refused(r);
	if (!*known &&
	    pcore_lim_orig_stale(pc, m->orig_pk, m->epoch, m->seqno)) {
		pcore_count(pc, IPC_STAT_DROP_REMEMBERED);
		return PCORE_E_OLD;
	}
	*newer = !*known ||
	    routing_newer(m->epoch, m->seqno, old.epoch, old.seqno);
	pcore_entry_cached(pc, e, q);
	if (sigcache_chain_verify(&pc->sigs, q->slot, e->sgn.anchor,
	    e->mut.chain, e->mut.hops) != 0)
		return PCORE_E_HOPS;
	if (!*known)
		return (enum pcore_entry)pcore_lim_admit(pc, n, m,
		    r == ROUTING_EFULL, now_ms, adm);
	return PCORE_E_ACCEPT;
}

/*
 * A new stranger is attributed to the neighbour that introduced it; an
 * originator whose class changed (prev: before this entry, or NULL) is
 * counted anew.
 */
static void
pcore_entry_new(struct pcore *pc, const struct routing_ogm *m,
    struct pcore_neigh *n, struct routing_ogm_result *res,
    const struct routing_orig_info *prev)
{
	if (prev != NULL && prev->cls != m->cls) {
		pcore_lim_reclass(pc, prev->cls, m->cls, res->info.aux);
		routing_orig_set_aux(pc->rt, m->orig_pk, res->info.aux);
	}
	if (!res->orig_new || m->cls != BS_CLASS_STRANGER)
		return;
	pcore_lim_stranger_new(pc, n, res->info.aux);
	routing_orig_set_aux(pc->rt, m->orig_pk, res->info.aux);
}

/* Carry out the eviction pcore_lim_admit() planned. */
static void
pcore_entry_evict(struct pcore *pc, const struct pl_admit *a)
{
	if (!a->evict ||
	    routing_orig_remove(pc->rt, a->evict_pk, pcore_event, pc) !=
	    ROUTING_OK)
		return;
	pcore_count(pc, IPC_STAT_EVICTED);
}

/* The receiving interface's hop penalty and medium (IPC_IFACE). */
static void
pcore_entry_iface(const struct pcore *pc, struct routing_ogm *m)
{
	int i;

	for (i = 0; i < PCORE_MAX_IFACES; i++)
		if (pc->ifaces[i].ifindex == m->ifindex) {
			m->iface_penalty = pc->ifaces[i].hop_penalty;
			m->half_duplex = pc->ifaces[i].half_duplex;
			return;
		}
}

/*
 * What the routing core takes of an entry of originator (pk, addr) with
 * that epoch and seqno, received in frame o on ifindex, of class cls.
 */
static void
pcore_entry_ogm(const struct pcore *pc, struct routing_ogm *m,
    const uint8_t *pk, const uint8_t *addr, uint32_t epoch, uint32_t seqno,
    const struct wire_ogm *o, const struct wire_ogm_entry *e,
    uint32_t ifindex, uint8_t cls)
{
	memset(m, 0, sizeof(*m));
	m->orig_pk = pk;
	m->orig_addr = addr;
	m->epoch = epoch;
	m->seqno = seqno;
	m->tq = e->mut.tq;
	m->hops = e->mut.hops;
	m->ttl = e->mut.ttl;
	m->prev_sender = e->mut.prev_sender;
	m->ifindex = ifindex;
	m->sender = o->sender;
	m->cls = cls;
	pcore_entry_iface(pc, m);
}

/* ---- the OGM chain ------------------------------------------------------------ */

/*
 * Whether (epoch, seqno, hops) is nearer the chain's seed than the
 * reference a holds (or a holds none): a newer epoch or seqno, or the
 * same seqno with fewer hops.
 */
static int
pcore_chain_nearer(const struct pcore_aux *a, uint32_t epoch, uint32_t seqno,
    unsigned hops)
{
	if (!a->chain_ok || epoch != a->chain_epoch)
		return !a->chain_ok || routing_newer(epoch, 0, a->chain_epoch,
		    0);
	if (seqno != a->chain_seqno)
		return routing_newer(epoch, seqno, a->chain_epoch,
		    a->chain_seqno);
	return hops < a->chain_hops;
}

/*
 * A verified element of (epoch, seqno, hops) of pk's OGM chain becomes
 * the reference when it is nearer the seed than the one held; such an
 * element is the originator's newest OGM, so its last full entry's
 * clients stay claimed (pcore_aux.live_s, pcore_claims.c).
 */
static void
pcore_chain_note(struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
    uint32_t epoch, uint32_t seqno, unsigned hops,
    const uint8_t elem[static BS_CHAIN_LEN], uint64_t now_ms)
{
	struct routing_orig_info oi;
	struct pcore_aux a;

	if (routing_orig_get(pc->rt, pk, &oi) != ROUTING_OK)
		return;
	memcpy(&a, oi.aux, sizeof(a));
	if (!pcore_chain_nearer(&a, epoch, seqno, hops))
		return;
	memcpy(a.chain_ref, elem, BS_CHAIN_LEN);
	a.chain_epoch = epoch;
	a.chain_seqno = seqno;
	a.chain_hops = (uint8_t)hops;
	a.chain_ok = 1;
	a.live_s = (uint32_t)(now_ms / 1000);
	routing_orig_set_aux(pc->rt, pk, (const uint8_t *)&a);
}

/*
 * The walk a compact entry of `hops` hops may cost, d hashes from the
 * reference (d > 0: the entry is nearer the seed, i.e. newer): free up
 * to *free_h, walked up to *max_h (pcore_int.h, PCORE_FISHEYE_*).  Towards
 * the seed the fisheye gap g of those hops is expected: BS_MAXHOPS x 2 g
 * free (one gap and one lost copy), BS_MAXHOPS x (2 g + 2) at most (and
 * a hop difference), never less than PCORE_CHAIN_FREE and
 * PCORE_CHAIN_MAX; away from it those two.
 */
static void
pcore_chain_bounds(const struct pcore *pc, int64_t d, unsigned hops,
    int64_t *free_h, int64_t *max_h)
{
	int64_t g = pcore_fisheye_gap(pc, hops);

	*free_h = PCORE_CHAIN_FREE;
	*max_h = PCORE_CHAIN_MAX;
	if (d <= 0)
		return;
	if (BS_MAXHOPS * 2 * g > *free_h)
		*free_h = BS_MAXHOPS * 2 * g;
	if (BS_MAXHOPS * (2 * g + 2) > *max_h)
		*max_h = BS_MAXHOPS * (2 * g + 2);
}

_Static_assert(PCORE_CHAIN_MAX_FISHEYE <= PCORE_CHAIN_MAX &&
    PCORE_CHAIN_MAX_FISHEYE == BS_MAXHOPS * (2 * PCORE_FISHEYE_GAP_MAX + 2) &&
    BS_MAXHOPS * (2 * PCORE_FISHEYE_GAP + 2) <= PCORE_CHAIN_MAX,
    "the longest walk");

/* pcore_chain_check's "too far ahead": turned into PCORE_E_NODESC by its
 * caller, never counted as itself. */
#define PCORE_E_FAR	PCORE_E_COUNT

/*
 * Compact entries of originator oi (relayed by n) are too far ahead of
 * its chain reference to walk: this node missed many of its sequence
 * numbers.  When a quarter of the originators it knows (at least one)
 * are lost in the same second, the node was cut off and asks its
 * neighbours for descriptions (pcore_neigh_want_desc); fewer wait for
 * their next full entries.  A few lost originators must not ask: at a
 * thousand nodes a path change far away loses one every few seconds
 * somewhere, and each request sets every neighbour handing on all full
 * entries for several intervals (measured: 43.5 kB/s per node instead
 * of 19.5 with a request for every lost originator).
 */
static void
pcore_chain_lost(struct pcore *pc, const struct routing_orig_info *oi,
    const struct pcore_neigh *n, uint64_t now_ms)
{
	uint32_t now_s = (uint32_t)(now_ms / 1000), want;
	struct pcore_aux a;

	memcpy(&a, oi->aux, sizeof(a));
	if (a.far_s == now_s)
		return;			/* counted this second */
	a.far_s = now_s;
	routing_orig_set_aux(pc->rt, oi->pk, (const uint8_t *)&a);
	if (pc->far_s != now_s) {
		pc->far_s = now_s;
		pc->far_n = 0;
	}
	want = (uint32_t)(routing_orig_count(pc->rt) / 4);
	if (++pc->far_n >= (want > 1 ? want : 1))
		pcore_neigh_want_desc(pc, n->ifindex, n->addr, now_ms);
}

/*
 * A compact entry's element against the originator's reference.  A walk
 * of up to free_h hashes (pcore_chain_bounds: one sequence number ahead
 * and a hop difference, or two fisheye gaps) costs the sender nothing
 * while its verification budget is not empty; a longer one, up to
 * max_h, is paid up front, one signature check per PCORE_CHAIN_UNIT
 * hashes begun beyond the free ones; further than that the entry waits
 * for a full one (PCORE_E_NODESC).  A walk that fails is charged to the
 * sender afterwards, one check per PCORE_CHAIN_UNIT hashes begun, so that
 * made-up elements spend the sender's budget, and a sender whose budget
 * is empty gets no walk at all.  At most PCORE_CHAIN_MAX hashes.
 */
static enum pcore_entry
pcore_chain_check(struct pcore *pc, const struct pcore_aux *a,
    const struct wire_ogm_entry *e, struct pcore_neigh *n, uint64_t now_ms)
{
	int64_t d = bs_chain_dist(a->chain_seqno, a->chain_hops, e->cp.seqno,
	    e->mut.hops);
	int64_t free_h, max_h;
	unsigned steps;
	int64_t u;
	int r;

	pcore_chain_bounds(pc, d, e->mut.hops, &free_h, &max_h);
	if (d > max_h)
		return PCORE_E_FAR;	/* we missed many of its seqnos */
	if (d < 0)
		d = -d;
	if (d > max_h)
		return PCORE_E_NODESC;
	if (pcore_lim_verify_left(pc, n, now_ms) == 0)
		return PCORE_E_BUDGET;
	for (u = 0; d > free_h &&
	    u < (d - free_h + PCORE_CHAIN_UNIT - 1) / PCORE_CHAIN_UNIT; u++)
		if (pcore_lim_verify_budget(pc, n, 1, now_ms) != 0)
			return PCORE_E_BUDGET;
	r = bs_chain_link(a->chain_ref, a->chain_seqno, a->chain_hops,
	    e->mut.chain, e->cp.seqno, e->mut.hops, (unsigned)max_h, &steps);
	pc->stat[IPC_STAT_CHAIN_STEPS] += steps;
	pc->stats_dirty = 1;
	if (r == 0 || PCORE_FUZZ_BYPASS(e->mut.chain))
		return PCORE_E_ACCEPT;
	for (u = 0; u < (steps + PCORE_CHAIN_UNIT - 1) / PCORE_CHAIN_UNIT ||
	    u == 0; u++)
		if (pcore_lim_verify_budget(pc, n, 1, now_ms) != 0)
			break;
	return PCORE_E_CHAIN;
}

/*
 * For a neighbour that needs it (pcore_desc.h): the originator's last
 * full entry verified, handed on before the compact entry it would not
 * take without it, at most once per OGM interval, as this node received
 * it with the hop chain stepped once (so hops one more than it had, and
 * TQ no more than the ceiling of those hops allows).
 */
static void
pcore_desc_handon(struct pcore *pc, const struct routing_ogm *m,
    const struct routing_ogm_result *res, uint64_t now_ms)
{
	struct pcore_desc *d;
	struct ipc_relay rl;
	struct wire_ogm_mut mut;
	uint8_t elem[BS_CHAIN_LEN];
	unsigned ceil;

	if (!res->relay || (d = pcore_desc_get(pc, m->orig_addr)) == NULL ||
	    !pcore_desc_due(pc, d, now_ms) ||
	    d->epoch != m->epoch || d->hops >= BS_MAXHOPS ||
	    !routing_newer(m->epoch, m->seqno, d->epoch, d->seqno) ||
	    (d->sent_ms != 0 && now_ms - d->sent_ms < pc->cfg.ogm_ms) ||
	    (size_t)WIRE_OGM_MUT_LEN + d->len > IPC_RELAY_MAX)
		return;
	ceil = routing_tq_ceiling(d->hops + 1u, pc->cfg.hop_penalty);
	memset(&rl, 0, sizeof(rl));
	memset(&mut, 0, sizeof(mut));
	sigcache_chain_step(&pc->sigs, elem, d->elem);
	mut.kind = WIRE_OGM_FULL;
	mut.ttl = res->relay_ttl;
	mut.tq = (uint8_t)(res->relay_tq < ceil ? res->relay_tq : ceil);
	mut.hops = (uint8_t)(d->hops + 1);
	mut.prev_sender = d->from;
	mut.chain = elem;
	if (mut.tq == 0 || mut.ttl == 0 ||
	    wire_ogm_mut_put(rl.entry, WIRE_OGM_MUT_LEN, &mut) != WIRE_OK)
		return;
	memcpy(rl.entry + WIRE_OGM_MUT_LEN, d->blk, d->len);
	rl.len = (uint16_t)(WIRE_OGM_MUT_LEN + d->len);
	rl.ifindex = IPC_IFINDEX_ALL;
	if (pcore_emit(pc, IPC_RELAY, &rl, sizeof(rl)) != 0)
		return;
	pcore_desc_sent(d, now_ms);
	pcore_count(pc, IPC_STAT_DESC_RELAYED);
}

/*
 * A compact entry (batsec-protocol(7), "OGM CHAIN"): an originator whose
 * full entry this node verified, named by its address; its sequence
 * number and hops proven by the chain element; then the same routing
 * update and relay as a full entry, without TVLVs (the originator's
 * clients, gateway and listeners stay as its last full entry said).
 */
static enum pcore_entry
pcore_entry_compact(struct pcore *pc, uint32_t ifindex,
    const struct wire_ogm *o, const struct wire_ogm_entry *e,
    struct pcore_neigh *n, uint64_t now_ms)
{
	struct routing_ogm_result res;
	struct routing_orig_info oi;
	struct routing_ogm m;
	struct pcore_aux a;
	enum pcore_entry what;
	uint8_t cls;
	int r;

	if (memcmp(e->cp.orig, pc->cfg.own_addr, BS_ADDR_LEN) == 0)
		return PCORE_E_OWN;
	/* No full entry to take it by: ask the neighbours for one. */
	if (routing_orig_get_addr(pc->rt, e->cp.orig, &oi) != ROUTING_OK) {
		pcore_desc_ask(pc, e->cp.orig, now_ms);
		return PCORE_E_NODESC;
	}
	memcpy(&a, oi.aux, sizeof(a));
	if (!a.chain_ok || a.chain_epoch != oi.epoch) {
		pcore_desc_ask(pc, e->cp.orig, now_ms);
		return PCORE_E_NODESC;
	}
	if (!pcore_key_admitted(pc, oi.pk, &cls))
		return PCORE_E_POLICY;
	pcore_entry_ogm(pc, &m, oi.pk, oi.addr, oi.epoch, e->cp.seqno, o, e,
	    ifindex, cls);
	if (!pcore_entry_consistent(pc, o, e, oi.addr))
		return PCORE_E_HOPS;
	if ((r = routing_ogm_check(pc->rt, &m)) != ROUTING_OK)
		return pcore_entry_refused(r);
	if ((what = pcore_chain_check(pc, &a, e, n, now_ms)) == PCORE_E_FAR) {
		pcore_chain_lost(pc, &oi, n, now_ms);
		pcore_desc_ask(pc, e->cp.orig, now_ms);
		return PCORE_E_NODESC;
	}
	if (what != PCORE_E_ACCEPT)
		return what;
	if ((r = routing_ogm(pc->rt, &m, now_ms, &res)) != ROUTING_OK)
		return pcore_entry_refused(r);
	pcore_count(pc, IPC_STAT_OGM_COMPACT);
	pcore_entry_new(pc, &m, n, &res, &oi);	/* a class that changed */
	pcore_chain_note(pc, oi.pk, m.epoch, m.seqno, m.hops, e->mut.chain,
	    now_ms);
	pcore_desc_handon(pc, &m, &res, now_ms);
	pcore_entry_act(pc, &m, 0, e, &res, now_ms);
	return PCORE_E_ACCEPT;
}

static enum pcore_entry
pcore_entry(struct pcore *pc, uint32_t ifindex, const struct wire_ogm *o,
    const struct wire_ogm_entry *e, struct pcore_neigh *n, uint64_t now_ms)
{
	struct routing_ogm_result res;
	struct routing_orig_info prev;
	struct routing_ogm m;
	struct pl_admit adm;
	struct pcore_sigq q;
	struct pcore_cert_cand cand, *newcert = NULL;
	uint8_t oaddr[BS_ADDR_LEN], cls;
	enum pcore_entry what;
	int r, newer = 0, known = 0, had;

	if (e->mut.kind == WIRE_OGM_COMPACT)
		return pcore_entry_compact(pc, ifindex, o, e, n, now_ms);
	if (memcmp(e->sgn.pk, pc->cfg.own_pk, BS_PK_LEN) == 0)
		return PCORE_E_OWN;
	/* A key the policy does not admit may carry its certificate. */
	if (!pcore_key_admitted(pc, e->sgn.pk, &cls)) {
		if ((newcert = pcore_trust_entry_cert(pc, e, &cand)) == NULL)
			return PCORE_E_POLICY;
		cls = BS_CLASS_CERTIFIED;
	}
	bs_mesh_addr(oaddr, e->sgn.pk);
	pcore_entry_ogm(pc, &m, e->sgn.pk, oaddr, e->sgn.epoch, e->sgn.seqno,
	    o, e, ifindex, cls);
	if ((what = pcore_entry_cheap(pc, o, e, &m, n, now_ms, &known, &newer,
	    &adm, &q)) != PCORE_E_ACCEPT)
		return what;
	if ((what = pcore_entry_sig(pc, e, n, known, &q, now_ms)) !=
	    PCORE_E_ACCEPT)
		return what;
	if (pcore_trust_entry_verified(pc, e, cls, newcert) != 0)
		return PCORE_E_POLICY;
	pcore_entry_evict(pc, &adm);
	had = known && routing_orig_get(pc->rt, m.orig_pk, &prev) ==
	    ROUTING_OK;
	if ((r = routing_ogm(pc->rt, &m, now_ms, &res)) != ROUTING_OK)
		return pcore_entry_refused(r);
	pcore_entry_new(pc, &m, n, &res, had ? &prev : NULL);
	pcore_entry_act(pc, &m, newer, e, &res, now_ms);
	/* Its hop-chain element, now proven, anchors compact entries; the
	 * entry is kept for neighbours that need it. */
	pcore_chain_note(pc, m.orig_pk, m.epoch, m.seqno, m.hops,
	    e->mut.chain, now_ms);
	(void)pcore_desc_keep(pc, m.orig_addr, m.epoch, m.seqno, m.hops,
	    e->mut.chain, o->sender, e->block, e->block_len);
	/* A revocation it carried: the revoked key's entries go at once. */
	if (pcore_trust_entry_done(pc, e, cls, res.orig_new, newer))
		pcore_rt_sweep(pc);
	return PCORE_E_ACCEPT;
}

enum pcore_drop
pcore_ogm(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct wire_ogm o;	/* 3.5 KB of views into p */
	struct pcore_neigh *n = NULL;
	enum pcore_drop why;
	unsigned i;
	int r;

	if ((r = wire_ogm_parse(p, len, &o)) != WIRE_OK)
		return pcore_malformed(pc, r, &o.where, ifindex, src, now_ms);
	if (memcmp(o.sender, pc->cfg.own_addr, BS_ADDR_LEN) == 0)
		return pcore_drop(pc, PCORE_DROP_OWN, ifindex, src, NULL, 0,
		    now_ms);
	if ((why = pcore_ogm_link(pc, ifindex, src, &o, &n, now_ms)) !=
	    PCORE_ACCEPT)
		return pcore_drop(pc, why, ifindex, src, NULL, 0, now_ms);
	pcore_count(pc, IPC_STAT_RX_OGM);
	for (i = 0; i < o.num_entries; i++)
		pcore_entry_done(pc, pcore_entry(pc, ifindex, &o, &o.e[i], n,
		    now_ms), ifindex, src, now_ms);
	return PCORE_ACCEPT;
}
