/*
 * pcore_drop.c — what a refused frame or OGM entry counts as: its name,
 * its IPC counter, its reason in the per-source table (pcore_limits.h),
 * and, for frames, the rate-limited debug line (pcore_drop.h).
 */
#include <stdio.h>

#include "pcore_base.h"
#include "pcore_drop.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "proto/wire.h"

/* ---- frames -------------------------------------------------------------- */

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

const char *
pcore_drop_name(enum pcore_drop why)
{
	if ((unsigned)why >= PCORE_DROP_COUNT)
		return "?";
	return pcore_drop_names[why];
}

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

/* ---- OGM entries --------------------------------------------------------- */

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
	[PCORE_E_NODESC] = "compact entry without a chain reference",
	[PCORE_E_CHAIN] = "OGM chain element does not verify",
};

const char *
pcore_entry_name(enum pcore_entry what)
{
	if ((unsigned)what >= PCORE_E_COUNT)
		return "?";
	return pcore_entry_names[what];
}

static const enum ipc_stat_id pcore_entry_stat[PCORE_E_COUNT] = {
	[PCORE_E_ACCEPT] = IPC_STAT_OGM_ACCEPTED,
	[PCORE_E_OWN] = IPC_STAT_DROP_OWN,
	[PCORE_E_POLICY] = IPC_STAT_DROP_POLICY,
	[PCORE_E_HOPS] = IPC_STAT_DROP_HOP_CHAIN,
	[PCORE_E_OLD] = IPC_STAT_DROP_OLD_SEQNO,
	[PCORE_E_DUP] = IPC_STAT_DROP_DUPLICATE,
	[PCORE_E_FULL] = IPC_STAT_DROP_TABLE_FULL,
	[PCORE_E_ROUTING] = IPC_STAT_DROP_ROUTING,
	/* PCORE_E_SIG: pcore_verify counted sig_failed. */
	[PCORE_E_INTRO] = IPC_STAT_DROP_INTRO_QUOTA,
	[PCORE_E_BUDGET] = IPC_STAT_DROP_VERIFY_BUDGET,
	[PCORE_E_NODESC] = IPC_STAT_DROP_NO_CHAIN,
	[PCORE_E_CHAIN] = IPC_STAT_DROP_CHAIN,
};

/* What a refused entry counts as against the frame's source. */
static const int8_t pcore_entry_reason[PCORE_E_COUNT] = {
	[PCORE_E_ACCEPT] = -1,
	[PCORE_E_OWN] = -1,
	[PCORE_E_POLICY] = PL_R_QUOTA,
	[PCORE_E_HOPS] = PL_R_HOPS,
	[PCORE_E_OLD] = PL_R_STALE,
	[PCORE_E_DUP] = PL_R_STALE,
	[PCORE_E_FULL] = PL_R_QUOTA,
	[PCORE_E_ROUTING] = PL_R_STALE,
	[PCORE_E_SIG] = PL_R_SIG,
	[PCORE_E_INTRO] = PL_R_QUOTA,
	[PCORE_E_BUDGET] = PL_R_QUOTA,
	[PCORE_E_NODESC] = -1,		/* an honest relay's too */
	[PCORE_E_CHAIN] = PL_R_HOPS,
};

/* One entry of an authenticated OGM frame came to what. */
void
pcore_entry_done(struct pcore *pc, enum pcore_entry what, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], uint64_t now_ms)
{
	pc->entry[what]++;
	if (pcore_entry_stat[what] != 0)
		pcore_count(pc, pcore_entry_stat[what]);
	if (pcore_entry_reason[what] >= 0)
		pcore_lim_account(pc, ifindex, src,
		    (enum pl_reason)pcore_entry_reason[what], now_ms);
}
