/*
 * pcore.c — the parser's core: configuration, interfaces, policy and the
 * receive pipeline over frames the forwarder passed on.  No system calls:
 * everything leaves through pc->emit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "batsec_policy.h"
#include "pcore.h"
#include "wire.h"

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
};

const char *
pcore_drop_name(enum pcore_drop why)
{
	if ((unsigned)why >= PCORE_DROP_COUNT)
		return "?";
	return pcore_drop_names[why];
}

void
pcore_init(struct pcore *pc, pcore_emit_fn emit, void *emit_arg)
{
	struct log_rl rl = LOG_RL_INIT(PCORE_LOG_BURST, PCORE_LOG_RATE);

	memset(pc, 0, sizeof(*pc));
	pc->emit = emit;
	pc->emit_arg = emit_arg;
	pc->drop_log = rl;
}

void
pcore_free(struct pcore *pc)
{
	bs_policy_free(pc->policy);
	pc->policy = NULL;
}

static void
pcore_emit(struct pcore *pc, uint16_t type, const void *obj, size_t size)
{
	if (pc->emit == NULL || pc->emit(pc->emit_arg, type, obj, size) != 0)
		pc->emit_failed++;
}

/*
 * A LOG line to the forwarder.  Before CONFIG (which carries the level)
 * only warnings and errors are sent.
 */
static void pcore_logf(struct pcore *pc, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
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

/* ---- forwarder input -------------------------------------------------------- */

int
pcore_config(struct pcore *pc, const struct ipc_config *c, char *err,
    size_t errlen)
{
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
	pc->configured = 1;
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
	return 0;
}

/* ---- counters and STATS ------------------------------------------------------ */

static void
pcore_count(struct pcore *pc, enum ipc_stat_id id)
{
	pc->stat[id]++;
	pc->stats_dirty = 1;
}

int
pcore_stats(const struct pcore *pc, struct ipc_stats *out)
{
	uint32_t id;
	uint16_t n = 0;

	memset(out, 0, sizeof(*out));
	for (id = 1; id < IPC_STAT_ID_END && n < IPC_STATS_MAX; id++) {
		out->s[n].id = id;
		out->s[n].value = pc->stat[id];
		n++;
	}
	out->count = n;
	return n;
}

uint64_t
pcore_tick(struct pcore *pc, uint64_t now_ms)
{
	struct ipc_stats st;

	if (!pc->stats_dirty)
		return now_ms + PCORE_STATS_MS;
	if (pc->stats_sent_ms != 0 && now_ms >= pc->stats_sent_ms &&
	    now_ms - pc->stats_sent_ms < PCORE_STATS_MS)
		return pc->stats_sent_ms + PCORE_STATS_MS;
	pcore_stats(pc, &st);
	pcore_emit(pc, IPC_STATS, &st, sizeof(st));
	pc->stats_sent_ms = now_ms != 0 ? now_ms : 1;
	pc->stats_dirty = 0;
	return now_ms + PCORE_STATS_MS;
}

/* ---- frames -------------------------------------------------------------------- */

/* Drops that mean the bytes themselves were bad count as malformed. */
static int
pcore_drop_is_malformed(enum pcore_drop why)
{
	return why == PCORE_DROP_SRC || why == PCORE_DROP_EMPTY ||
	    why == PCORE_DROP_VERSION || why == PCORE_DROP_TYPE ||
	    why == PCORE_DROP_MALFORMED || why == PCORE_DROP_HELLO_MAC;
}

static enum pcore_drop
pcore_drop(struct pcore *pc, enum pcore_drop why, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const struct wire_where *where,
    int werr, uint64_t now_ms)
{
	char detail[96] = "", more[64] = "";
	uint64_t dropped = 0;

	pc->drop[why]++;
	if (pcore_drop_is_malformed(why))
		pcore_count(pc, IPC_STAT_DROP_MALFORMED);
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
static enum pcore_drop
pcore_malformed(struct pcore *pc, int werr, const struct wire_where *where,
    uint32_t ifindex, const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms)
{
	if (werr < 0 && -werr < PCORE_WIRE_ERRS)
		pc->wire_err[-werr]++;
	return pcore_drop(pc, PCORE_DROP_MALFORMED, ifindex, src, where, werr,
	    now_ms);
}

static enum pcore_drop
pcore_hello(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct wire_hello h;
	int r;

	if ((r = wire_hello_parse(p, len, &h)) != WIRE_OK)
		return pcore_malformed(pc, r, &h.where, ifindex, src, now_ms);
	if (memcmp(h.ifmac, src, BS_ADDR_LEN) != 0)
		return pcore_drop(pc, PCORE_DROP_HELLO_MAC, ifindex, src, NULL,
		    0, now_ms);
	if (memcmp(h.pk, pc->cfg.own_pk, BS_PK_LEN) == 0)
		return pcore_drop(pc, PCORE_DROP_OWN, ifindex, src, NULL, 0,
		    now_ms);
	/* Mesh routing change: neighbour table, link key, link quality. */
	pcore_count(pc, IPC_STAT_RX_HELLO);
	return PCORE_ACCEPT;
}

static enum pcore_drop
pcore_ogm(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct wire_ogm o;	/* 3.5 KB of views into p */
	int r;

	if ((r = wire_ogm_parse(p, len, &o)) != WIRE_OK)
		return pcore_malformed(pc, r, &o.where, ifindex, src, now_ms);
	if (memcmp(o.sender, pc->cfg.own_addr, BS_ADDR_LEN) == 0)
		return pcore_drop(pc, PCORE_DROP_OWN, ifindex, src, NULL, 0,
		    now_ms);
	/* Mesh routing change: the receive pipeline, steps 2-9. */
	pcore_count(pc, IPC_STAT_RX_OGM);
	return PCORE_ACCEPT;
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
