/*
 * pcore.c — the parser's core: configuration, interfaces, policy,
 * counters, periodic work and the dispatch of received frames to the
 * HELLO (pcore_hello.c) and OGM (pcore_ogm.c) pipelines.  No system
 * calls: everything leaves through pc->emit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore.h"
#include "pcore_int.h"
#include "pcore_trust.h"
#include "proto/wire.h"

_Static_assert(PCORE_MAX_NEIGH <= ROUTING_NEIGH_CAP_MAX, "neighbour cap");
_Static_assert(PCORE_MAX_IFACES <= ROUTING_MAX_IFACES, "interface slots");

static const char *const pcore_drop_names[PCORE_DROP_COUNT] = {
	[PCORE_ACCEPT] = "accepted",
	[PCORE_DROP_NOCONFIG] = "not configured yet",
	[PCORE_DROP_IFACE] = "unknown interface",
	[PCORE_DROP_IFACE_DOWN] = "interface down",
	[PCORE_DROP_SRC] = "source MAC not unicast",
	[PCORE_DROP_EMPTY] = "empty frame",
	[PCORE_DROP_VERSION] = "unsupported protocol version",
	[PCORE_DROP_TYPE] = "unknown frame type",
	[PCORE_DROP_DATA] = "data frame",
	[PCORE_DROP_MALFORMED] = "malformed",
	[PCORE_DROP_HELLO_MAC] = "HELLO interface MAC is not the source MAC",
	[PCORE_DROP_OWN] = "own frame",
	[PCORE_DROP_POLICY] = "key refused by the policy",
	[PCORE_DROP_SIG] = "bad HELLO signature",
	[PCORE_DROP_REPLAY] = "replayed HELLO or frame counter",
	[PCORE_DROP_NOT_NEIGH] = "sender is not a neighbour",
	[PCORE_DROP_NO_LINK_KEY] = "no link key with the sender yet",
	[PCORE_DROP_LINK_AUTH] = "link authentication failed",
	[PCORE_DROP_TABLE_FULL] = "neighbour table full",
	[PCORE_DROP_ROUTING] = "refused by the routing core",
	[PCORE_DROP_RATE] = "over the frame rate",
	[PCORE_DROP_BUDGET] = "over the verification budget",
};

/* The IPC counter of each frame drop; 0: counted elsewhere. */
static const enum ipc_stat_id pcore_drop_stat[PCORE_DROP_COUNT] = {
	[PCORE_DROP_NOCONFIG] = IPC_STAT_DROP_IFACE,
	[PCORE_DROP_IFACE] = IPC_STAT_DROP_IFACE,
	[PCORE_DROP_IFACE_DOWN] = IPC_STAT_DROP_IFACE,
	[PCORE_DROP_SRC] = IPC_STAT_DROP_MALFORMED,
	[PCORE_DROP_EMPTY] = IPC_STAT_DROP_MALFORMED,
	[PCORE_DROP_VERSION] = IPC_STAT_DROP_MALFORMED,
	[PCORE_DROP_TYPE] = IPC_STAT_DROP_MALFORMED,
	[PCORE_DROP_DATA] = IPC_STAT_DROP_DATA,
	[PCORE_DROP_MALFORMED] = IPC_STAT_DROP_MALFORMED,
	[PCORE_DROP_HELLO_MAC] = IPC_STAT_DROP_MALFORMED,
	[PCORE_DROP_OWN] = IPC_STAT_DROP_OWN,
	[PCORE_DROP_POLICY] = IPC_STAT_DROP_POLICY,
	/* PCORE_DROP_SIG: pcore_verify counted sig_failed. */
	[PCORE_DROP_REPLAY] = IPC_STAT_DROP_REPLAY,
	[PCORE_DROP_NOT_NEIGH] = IPC_STAT_DROP_NOT_NEIGH,
	[PCORE_DROP_NO_LINK_KEY] = IPC_STAT_DROP_NO_LINK_KEY,
	[PCORE_DROP_LINK_AUTH] = IPC_STAT_DROP_LINK_AUTH,
	[PCORE_DROP_TABLE_FULL] = IPC_STAT_DROP_TABLE_FULL,
	[PCORE_DROP_ROUTING] = IPC_STAT_DROP_ROUTING,
	[PCORE_DROP_RATE] = IPC_STAT_DROP_FRAME_RATE,
	[PCORE_DROP_BUDGET] = IPC_STAT_DROP_VERIFY_BUDGET,
};

static const char *const pcore_entry_names[PCORE_E_COUNT] = {
	[PCORE_E_ACCEPT] = "accepted",
	[PCORE_E_OWN] = "own OGM",
	[PCORE_E_POLICY] = "originator refused by the policy",
	[PCORE_E_HOPS] = "hop count, TQ ceiling or hop chain",
	[PCORE_E_OLD] = "old epoch or seqno",
	[PCORE_E_DUP] = "duplicate",
	[PCORE_E_FULL] = "originator table full",
	[PCORE_E_ROUTING] = "refused by the routing core",
	[PCORE_E_SIG] = "bad OGM signature",
	[PCORE_E_INTRO] = "over the introduction quota",
	[PCORE_E_BUDGET] = "over the verification budget",
};

const char *
pcore_drop_name(enum pcore_drop why)
{
	if ((unsigned)why >= PCORE_DROP_COUNT)
		return "?";
	return pcore_drop_names[why];
}

const char *
pcore_entry_name(enum pcore_entry what)
{
	if ((unsigned)what >= PCORE_E_COUNT)
		return "?";
	return pcore_entry_names[what];
}

/* ---- life cycle ------------------------------------------------------------------- */

void
pcore_init(struct pcore *pc, pcore_emit_fn emit, void *emit_arg)
{
	struct log_rl rl = LOG_RL_INIT(PCORE_LOG_BURST, PCORE_LOG_RATE);

	memset(pc, 0, sizeof(*pc));
	pc->emit = emit;
	pc->emit_arg = emit_arg;
	pc->drop_log = rl;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	/* Reproducible runs; the keys change no result anyway. */
	memset(pc->rt_key, 0x5a, sizeof(pc->rt_key));
	memset(pc->sig_key, 0xa5, sizeof(pc->sig_key));
#else
	bs_random(pc->rt_key, sizeof(pc->rt_key));
	bs_random(pc->sig_key, sizeof(pc->sig_key));
#endif
}

void
pcore_free(struct pcore *pc)
{
	routing_free(pc->rt);
	pc->rt = NULL;
	sigcache_free(&pc->sigs);
	pcore_lim_free(pc);
	pcore_trust_free(pc);
	sodium_memzero(pc->neigh, sizeof(pc->neigh));
	bs_policy_free(pc->policy);
	pc->policy = NULL;
}

/* ---- output ------------------------------------------------------------------------- */

int
pcore_emit(struct pcore *pc, uint16_t type, const void *obj, size_t size)
{
	if (pc->emit != NULL && pc->emit(pc->emit_arg, type, obj, size) == 0)
		return 0;
	pc->emit_failed++;
	pcore_count(pc, IPC_STAT_EMIT_FAILED);
	return -1;
}

/*
 * A LOG line to the forwarder.  Before CONFIG (which carries the level)
 * only warnings and errors are sent.
 */
void
pcore_logf(struct pcore *pc, int level, const char *fmt, ...)
{
	int max = pc->configured ? pc->cfg.log_level : IPC_LOG_WARNING;
	struct ipc_log l;
	va_list ap;
	size_t i;

	if (level > max)
		return;
	memset(&l, 0, sizeof(l));
	l.level = (uint8_t)level;
	va_start(ap, fmt);
	vsnprintf(l.text, sizeof(l.text), fmt, ap);
	va_end(ap);
	for (i = 0; l.text[i] != '\0'; i++)
		if (l.text[i] < 0x20 || l.text[i] > 0x7e)
			l.text[i] = '?';
	pcore_emit(pc, IPC_LOG, &l, sizeof(l));
}

static int
pcore_fail(char *err, size_t errlen, const char *msg)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

/* ---- policy and keys ------------------------------------------------------------------ */

int
pcore_key_admitted(const struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
    uint8_t *cls)
{
	/* The policy, certificates and TOFU pins (pcore_trust.h). */
	*cls = pcore_trust_class(pc, pk);
	return *cls == BS_CLASS_TRUSTED || *cls == BS_CLASS_CERTIFIED ||
	    *cls == BS_CLASS_STRANGER;
}

int
pcore_verify(struct pcore *pc, const uint8_t sig[static BS_SIG_LEN],
    enum bs_domain dom, const uint8_t *msg, size_t len,
    const uint8_t pk[static BS_PK_LEN])
{
	if (PCORE_FUZZ_BYPASS(sig) ||
	    bs_verify(sig, dom, msg, len, pk) == 0) {
		pcore_count(pc, IPC_STAT_SIG_VERIFIED);
		return 0;
	}
	pcore_count(pc, IPC_STAT_SIG_FAILED);
	return -1;
}

int
pcore_newer(uint32_t e1, uint32_t s1, uint32_t e2, uint32_t s2)
{
	uint32_t d = s1 - s2;

	if (e1 != e2)
		return e1 > e2;
	return d != 0 && d < 0x80000000u;
}

static void
pcore_rt_params(const struct pcore *pc, struct routing_params *p)
{
	routing_params_default(p);
	p->neigh_cap = PCORE_MAX_NEIGH;
	p->hop_penalty = pc->cfg.hop_penalty;
	if (pc->policy != NULL)
		p->orig_cap = pc->policy->limits.originators;
}

/* Remove every neighbour and originator whose key is no longer admitted. */
static void
pcore_policy_sweep(struct pcore *pc)
{
	struct routing_orig_info oi;
	struct routing_neigh_info ni;
	uint32_t pos = 0;
	uint8_t cls;

	/* Removal frees slots in place, so the iteration goes on safely. */
	while (routing_orig_next(pc->rt, &pos, &oi)) {
		if (!pcore_key_admitted(pc, oi.pk, &cls))
			routing_remove_key(pc->rt, oi.pk, pcore_event, pc,
			    NULL);
		else if (cls != oi.cls)
			routing_orig_set_class(pc->rt, oi.pk, cls);
	}
	pos = 0;
	while (routing_neigh_next(pc->rt, 0, &pos, &ni))
		if (!pcore_key_admitted(pc, ni.pk, &cls))
			routing_remove_key(pc->rt, ni.pk, pcore_event, pc,
			    NULL);
}

/*
 * A lowered `limit originators`: remove entries until cap is met, worst
 * class first (in table order within a class).  Removing a key removes
 * its neighbour entries too; trusted entries go last.
 */
static void
pcore_evict(struct pcore *pc, uint32_t cap)
{
	static const uint8_t order[] = { BS_CLASS_BLOCKED, BS_CLASS_REFUSED,
	    BS_CLASS_STRANGER, BS_CLASS_CERTIFIED, BS_CLASS_TRUSTED };
	struct routing_orig_info oi;
	uint32_t pos;
	size_t k;

	for (k = 0; k < sizeof(order); k++) {
		pos = 0;
		while (routing_orig_count(pc->rt) > cap &&
		    routing_orig_next(pc->rt, &pos, &oi))
			if (oi.cls == order[k])
				routing_remove_key(pc->rt, oi.pk, pcore_event,
				    pc, NULL);
	}
}

static void
pcore_count_strangers(struct pcore *pc)
{
	struct routing_orig_info oi;
	uint32_t pos = 0;

	pc->n_strangers = 0;
	while (routing_orig_next(pc->rt, &pos, &oi))
		if (oi.cls == BS_CLASS_STRANGER)
			pc->n_strangers++;
	pcore_lim_recount(pc);
}

static void
pcore_policy_apply(struct pcore *pc)
{
	struct routing_params p;

	if (pc->rt == NULL)
		return;
	pcore_policy_sweep(pc);
	pcore_rt_params(pc, &p);
	if (routing_set_params(pc->rt, &p) == ROUTING_EFULL) {
		pcore_evict(pc, p.orig_cap);
		if (routing_set_params(pc->rt, &p) != ROUTING_OK)
			pcore_logf(pc, IPC_LOG_ERR, "policy: originator cap "
			    "%u not applied", p.orig_cap);
	}
	pcore_count_strangers(pc);
}

void
pcore_policy_resweep(struct pcore *pc)
{
	pcore_policy_apply(pc);
}

/* ---- forwarder input -------------------------------------------------------- */

static int
pcore_setup(struct pcore *pc, char *err, size_t errlen)
{
	struct routing_params p;

	pcore_rt_params(pc, &p);
	pc->rt = routing_new(&p, pc->cfg.own_pk, pc->cfg.own_addr, pc->rt_key);
	if (pc->rt == NULL || sigcache_init(&pc->sigs, pc->sig_key) != 0 ||
	    pcore_lim_setup(pc) != 0) {
		routing_free(pc->rt);
		pc->rt = NULL;
		sigcache_free(&pc->sigs);
		return pcore_fail(err, errlen, "CONFIG: out of memory for the "
		    "routing tables");
	}
	return 0;
}

int
pcore_config(struct pcore *pc, const struct ipc_config *c, char *err,
    size_t errlen)
{
	struct routing_params p;
	uint8_t addr[BS_ADDR_LEN];

	bs_mesh_addr(addr, c->own_pk);
	if (memcmp(addr, c->own_addr, BS_ADDR_LEN) != 0)
		return pcore_fail(err, errlen, "CONFIG: own_addr is not the "
		    "mesh address of own_pk");
	if (pc->configured &&
	    (memcmp(pc->cfg.own_pk, c->own_pk, BS_PK_LEN) != 0 ||
	    pc->cfg.epoch != c->epoch || pc->cfg.ethertype != c->ethertype))
		return pcore_fail(err, errlen, "CONFIG: own key, epoch and "
		    "ethertype cannot change");
	pc->cfg = *c;
	if (!pc->configured && pcore_setup(pc, err, errlen) != 0)
		return -1;
	pc->configured = 1;
	pcore_rt_params(pc, &p);
	if (routing_set_params(pc->rt, &p) != ROUTING_OK)
		pcore_policy_apply(pc);
	return 0;
}

int
pcore_policy(struct pcore *pc, uint32_t serial, const uint8_t *snap,
    size_t len, char *err, size_t errlen)
{
	struct bs_policy *pol = NULL;

	if (bs_policy_snapshot_decode(snap, len, &pol, err, errlen) != 0)
		return -1;
	bs_policy_free(pc->policy);
	pc->policy = pol;
	pc->policy_serial = serial;
	pcore_logf(pc, IPC_LOG_DEBUG, "policy %u: mode %s, %zu trusted, "
	    "%zu blocked", serial, bs_policy_mode_name(pol->mode),
	    pol->n_trust, pol->n_block);
	pcore_policy_apply(pc);
	return 0;
}

/* Slot of ifindex (0: the first free slot), or -1. */
static int
pcore_iface_index(const struct pcore *pc, uint32_t ifindex)
{
	int i;

	for (i = 0; i < PCORE_MAX_IFACES; i++)
		if (pc->ifaces[i].ifindex == ifindex)
			return i;
	return -1;
}

const struct pcore_iface *
pcore_iface_find(const struct pcore *pc, uint32_t ifindex)
{
	int i;

	if (ifindex == 0 || (i = pcore_iface_index(pc, ifindex)) < 0)
		return NULL;
	return &pc->ifaces[i];
}

/* The neighbours of an interface that went down or away are gone. */
static void
pcore_iface_flush(struct pcore *pc, uint32_t ifindex)
{
	if (pc->rt != NULL)
		routing_iface_flush(pc->rt, ifindex, pcore_event, pc, NULL);
}

int
pcore_iface(struct pcore *pc, const struct ipc_iface *ifc, char *err,
    size_t errlen)
{
	struct pcore_iface *f;
	int i;

	if (ifc->ifindex == 0)
		return pcore_fail(err, errlen, "IFACE: ifindex 0");
	i = pcore_iface_index(pc, ifc->ifindex);
	if (ifc->state == IPC_IFACE_REMOVED) {
		if (i >= 0)
			memset(&pc->ifaces[i], 0, sizeof(pc->ifaces[i]));
		pcore_iface_flush(pc, ifc->ifindex);
		return 0;
	}
	if (i < 0 && (i = pcore_iface_index(pc, 0)) < 0)
		return pcore_fail(err, errlen, "IFACE: interface table full");
	f = &pc->ifaces[i];
	f->ifindex = ifc->ifindex;
	f->mtu = ifc->mtu;
	memcpy(f->mac, ifc->mac, BS_ADDR_LEN);
	f->up = ifc->state == IPC_IFACE_UP;
	memcpy(f->name, ifc->name, IFNAMSIZ);
	f->name[IFNAMSIZ - 1] = '\0';
	if (!f->up)
		pcore_iface_flush(pc, ifc->ifindex);
	return 0;
}

/* ---- counters, STATS, periodic work ------------------------------------------ */

void
pcore_count(struct pcore *pc, enum ipc_stat_id id)
{
	pc->stat[id]++;
	pc->stats_dirty = 1;
}

int
pcore_stats(const struct pcore *pc, struct ipc_stats *out)
{
	uint64_t v, lim[IPC_STAT_ID_END];
	uint32_t id;
	uint16_t n = 0;

	memcpy(lim, pc->stat, sizeof(lim));
	pcore_lim_stats(pc, lim, IPC_STAT_ID_END);
	memset(out, 0, sizeof(*out));
	for (id = 1; id < IPC_STAT_ID_END && n < IPC_STATS_MAX; id++) {
		v = lim[id];
		if (id == IPC_STAT_ORIGINATORS)
			v = pc->rt != NULL ? routing_orig_count(pc->rt) : 0;
		else if (id == IPC_STAT_NEIGHBOURS)
			v = pc->rt != NULL ? routing_neigh_count(pc->rt) : 0;
		else if (id == IPC_STAT_TOFU_PINS)
			v = pcore_trust_pin_count(pc);
		out->s[n].id = id;
		out->s[n].value = v;
		n++;
	}
	out->count = n;
	return n;
}

/* Milliseconds since then_ms (0 when the clock went backwards). */
static uint64_t
pcore_since(uint64_t now_ms, uint64_t then_ms)
{
	return now_ms >= then_ms ? now_ms - then_ms : 0;
}

/* routing_purge every PCORE_PURGE_MS; the time of the next one. */
static uint64_t
pcore_purge(struct pcore *pc, uint64_t now_ms)
{
	struct routing_purge_result r;

	if (pc->rt == NULL)
		return now_ms + PCORE_PURGE_MS;
	if (pc->purged_ms != 0 &&
	    pcore_since(now_ms, pc->purged_ms) < PCORE_PURGE_MS)
		return pc->purged_ms + PCORE_PURGE_MS;
	routing_purge(pc->rt, now_ms, pcore_event, pc, &r);
	/* Out of memory keeps the old size: only costs verifications. */
	(void)sigcache_fit(&pc->sigs, routing_orig_count(pc->rt));
	if (r.neigh_removed + r.orig_removed + r.routes_changed +
	    r.routes_deleted > 0)
		pc->stats_dirty = 1;
	pc->purged_ms = now_ms != 0 ? now_ms : 1;
	return now_ms + PCORE_PURGE_MS;
}

static uint64_t
pcore_send_stats(struct pcore *pc, uint64_t now_ms)
{
	struct ipc_stats st;

	if (!pc->stats_dirty)
		return now_ms + PCORE_STATS_MS;
	if (pc->stats_sent_ms != 0 &&
	    pcore_since(now_ms, pc->stats_sent_ms) < PCORE_STATS_MS)
		return pc->stats_sent_ms + PCORE_STATS_MS;
	pcore_stats(pc, &st);
	pc->stats_dirty = 0;
	pcore_emit(pc, IPC_STATS, &st, sizeof(st));
	pc->stats_sent_ms = now_ms != 0 ? now_ms : 1;
	return now_ms + PCORE_STATS_MS;
}

uint64_t
pcore_tick(struct pcore *pc, uint64_t now_ms)
{
	uint64_t a, b;

	pcore_trust_tick(pc, now_ms);
	a = pcore_purge(pc, now_ms);
	b = pcore_send_stats(pc, now_ms);

	return a < b ? a : b;
}

/* ---- frames -------------------------------------------------------------------- */

/* What a frame drop counts as against its source; -1: not its fault. */
static int
pcore_drop_reason(enum pcore_drop why)
{
	switch (why) {
	case PCORE_DROP_SRC:
	case PCORE_DROP_EMPTY:
	case PCORE_DROP_VERSION:
	case PCORE_DROP_TYPE:
	case PCORE_DROP_MALFORMED:
	case PCORE_DROP_HELLO_MAC:
		return PL_R_MALFORMED;
	case PCORE_DROP_REPLAY:
	case PCORE_DROP_NOT_NEIGH:
	case PCORE_DROP_NO_LINK_KEY:
	case PCORE_DROP_LINK_AUTH:
		return PL_R_AUTH;
	case PCORE_DROP_SIG:
		return PL_R_SIG;
	case PCORE_DROP_POLICY:
	case PCORE_DROP_TABLE_FULL:
	case PCORE_DROP_BUDGET:
		return PL_R_QUOTA;
	case PCORE_DROP_RATE:
		return PL_R_RATE;
	case PCORE_DROP_ROUTING:
		return PL_R_STALE;
	default:
		return -1;
	}
}

enum pcore_drop
pcore_drop(struct pcore *pc, enum pcore_drop why, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const struct wire_where *where,
    int werr, uint64_t now_ms)
{
	char detail[96] = "", more[64] = "";
	uint64_t dropped = 0;
	int r;

	pc->drop[why]++;
	if (pcore_drop_stat[why] != 0)
		pcore_count(pc, pcore_drop_stat[why]);
	if ((r = pcore_drop_reason(why)) >= 0)
		pcore_lim_account(pc, ifindex, src, (enum pl_reason)r, now_ms);
	if (!pc->configured || pc->cfg.log_level < IPC_LOG_DEBUG ||
	    !log_rl_allow(&pc->drop_log, now_ms, &dropped))
		return why;
	if (where != NULL)
		snprintf(detail, sizeof(detail), ": %s at offset %zu: %s",
		    where->field != NULL ? where->field : "frame", where->off,
		    wire_strerror(werr));
	if (dropped > 0)
		snprintf(more, sizeof(more), " (%llu earlier drops not logged)",
		    (unsigned long long)dropped);
	pcore_logf(pc, IPC_LOG_DEBUG, "drop frame on ifindex %u from "
	    "%02x:%02x:%02x:%02x:%02x:%02x: %s%s%s", ifindex, src[0], src[1],
	    src[2], src[3], src[4], src[5], pcore_drop_name(why), detail, more);
	return why;
}

/* A codec error: counted by its code, then as a drop. */
enum pcore_drop
pcore_malformed(struct pcore *pc, int werr, const struct wire_where *where,
    uint32_t ifindex, const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms)
{
	if (werr < 0 && -werr < PCORE_WIRE_ERRS)
		pc->wire_err[-werr]++;
	return pcore_drop(pc, PCORE_DROP_MALFORMED, ifindex, src, where, werr,
	    now_ms);
}

/* Where the frame came from: configured, known interface, sane source. */
static enum pcore_drop
pcore_frame_origin(const struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN])
{
	const struct pcore_iface *f;

	if (!pc->configured)
		return PCORE_DROP_NOCONFIG;
	if ((f = pcore_iface_find(pc, ifindex)) == NULL)
		return PCORE_DROP_IFACE;
	if (!f->up)
		return PCORE_DROP_IFACE_DOWN;
	if (!wire_mac_is_unicast(src))
		return PCORE_DROP_SRC;
	return PCORE_ACCEPT;
}

enum pcore_drop
pcore_frame(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN],
    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *bytes, size_t len,
    uint64_t now_ms)
{
	enum pcore_drop why;
	uint8_t type = 0;
	int r;

	(void)dst;	/* the socket's filter admitted only frames for us */
	pcore_count(pc, IPC_STAT_RX_FRAMES);
	if ((why = pcore_frame_origin(pc, ifindex, src)) != PCORE_ACCEPT)
		return pcore_drop(pc, why, ifindex, src, NULL, 0, now_ms);
	if (bytes == NULL || len == 0)
		return pcore_drop(pc, PCORE_DROP_EMPTY, ifindex, src, NULL, 0,
		    now_ms);
	/* The frame rate of the source, before any parsing. */
	if (pcore_lim_frame(pc, ifindex, src, now_ms) != 0)
		return pcore_drop(pc, PCORE_DROP_RATE, ifindex, src, NULL, 0,
		    now_ms);
	r = wire_peek(bytes, len, &type);
	if (r == WIRE_EVERSION)
		return pcore_drop(pc, PCORE_DROP_VERSION, ifindex, src, NULL, 0,
		    now_ms);
	if (r == WIRE_ETYPE)
		return pcore_drop(pc, PCORE_DROP_TYPE, ifindex, src, NULL, 0,
		    now_ms);
	if (r != WIRE_OK) {
		struct wire_where w = { "type", 0 };

		return pcore_malformed(pc, r, &w, ifindex, src, now_ms);
	}
	switch (type) {
	case WIRE_T_HELLO:
		return pcore_hello(pc, ifindex, src, bytes, len, now_ms);
	case WIRE_T_OGM:
		return pcore_ogm(pc, ifindex, src, bytes, len, now_ms);
	default:
		return pcore_drop(pc, PCORE_DROP_DATA, ifindex, src, NULL, 0,
		    now_ms);
	}
}
