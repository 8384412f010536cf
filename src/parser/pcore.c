/*
 * pcore.c — the parser's core, its top: life cycle, the forwarder's
 * input (CONFIG, policy snapshots, interfaces), the dispatch of received
 * frames to the HELLO (pcore_hello.c) and OGM (pcore_ogm.c) pipelines,
 * and periodic work (purge, STATS).  No system calls: everything leaves
 * through pc->emit (pcore_base.c).  The modules below are listed in
 * pcore_int.h.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore.h"
#include "pcore_base.h"
#include "pcore_desc.h"
#include "pcore_drop.h"
#include "pcore_hello.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_neigh.h"
#include "pcore_ogm.h"
#include "pcore_rt.h"
#include "pcore_trust.h"
#include "pcore_ttpage.h"
#include "proto/wire.h"
#include "routing/routing.h"

_Static_assert(PCORE_MAX_NEIGH <= ROUTING_NEIGH_CAP_MAX, "neighbour cap");
_Static_assert(PCORE_MAX_IFACES <= ROUTING_MAX_IFACES, "interface slots");

/* ---- life cycle ------------------------------------------------------------------- */

void
pcore_init(struct pcore *pc, pcore_emit_fn emit, void *emit_arg)
{
	struct log_rl rl = LOG_RL_INIT(PCORE_LOG_BURST, PCORE_LOG_RATE);

	memset(pc, 0, sizeof(*pc));
	pc->emit = emit;
	pc->emit_arg = emit_arg;
	pc->drop_log = rl;
	pc->fisheye_hops = PCORE_FISHEYE_HOPS;
	pc->fisheye_gap_max = PCORE_FISHEYE_GAP;
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
	pcore_ttpage_free(pc);
	pcore_desc_free(pc);
	pcore_trust_free(pc);
	sodium_memzero(pc->neigh, sizeof(pc->neigh));
	bs_policy_free(pc->policy);
	pc->policy = NULL;
}

static int
pcore_fail(char *err, size_t errlen, const char *msg)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

/* ---- forwarder input -------------------------------------------------------- */

static int
pcore_setup(struct pcore *pc, char *err, size_t errlen)
{
	struct routing_params p;

	pcore_rt_params(pc, &p);
	pc->rt = routing_new(&p, pc->cfg.own_pk, pc->cfg.own_addr, pc->rt_key);
	if (pc->rt == NULL || sigcache_init(&pc->sigs, pc->sig_key) != 0 ||
	    pcore_lim_setup(pc) != 0 || pcore_ttpage_setup(pc) != 0 ||
	    pcore_desc_setup(pc) != 0) {
		pcore_desc_free(pc);
		pcore_ttpage_free(pc);
		pcore_lim_free(pc);
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
		pcore_rt_sweep(pc);
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
	pcore_rt_sweep(pc);
	return 0;
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
	f->hop_penalty = ifc->hop_penalty;
	f->half_duplex = ifc->half_duplex;
	memcpy(f->name, ifc->name, IFNAMSIZ);
	f->name[IFNAMSIZ - 1] = '\0';
	if (!f->up)
		pcore_iface_flush(pc, ifc->ifindex);
	return 0;
}

/* ---- counters, STATS, periodic work ------------------------------------------ */

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
		else if (id == IPC_STAT_TT_SYNCED)
			v = pcore_ttpage_synced(pc);
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
	pcore_lim_pins(pc, now_ms);
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

	/* Certificates that expired: their keys' entries go. */
	if (pcore_trust_tick(pc, now_ms))
		pcore_rt_sweep(pc);
	a = pcore_purge(pc, now_ms);
	b = pcore_send_stats(pc, now_ms);

	return a < b ? a : b;
}

/* ---- frames -------------------------------------------------------------------- */

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
