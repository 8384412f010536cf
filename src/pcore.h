/*
 * pcore.h — the parser's core: plain functions over buffers, no system
 * calls, so unit tests, fuzz harnesses and the simulator call it directly.
 *
 * The sandboxed parser process (parser.c) feeds it what arrives on the
 * channel — CONFIG, policy snapshots, IFACE changes, FRAMEs — and sends
 * whatever it emits back to the forwarder.  Output goes through a
 * callback, so pcore itself never touches a descriptor:
 *
 *	static int emit(void *arg, uint16_t type, const void *obj, size_t n)
 *	{ return ipc_send(arg, type, obj, n); }
 *	pcore_init(&pc, emit, &ipc);
 *
 * Every frame is hostile.  pcore_frame() applies the receive pipeline of
 * DESIGN.md §5, cheapest check first; in this version that is step 1
 * (the wire codec: lengths, version, type, counts, reserved fields) plus
 * the checks that need no keys (arrived on a known interface that is up,
 * from a unicast source, HELLO's interface MAC equals the Ethernet source,
 * not our own frame).  Each refused frame is counted under exactly one
 * reason (enum pcore_drop).  The mesh routing change adds the neighbour
 * and originator tables, the link-MAC, replay, policy and signature steps
 * to struct pcore and behind pcore_frame(); the fields it will fill are
 * marked below.
 *
 * Emitted messages: IPC_LOG (debug lines about dropped frames, rate
 * limited, and problems with forwarder input) and IPC_STATS (from
 * pcore_tick, at most every PCORE_STATS_MS while counters change).
 */
#ifndef BATSEC_PCORE_H
#define BATSEC_PCORE_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "ipc_msg.h"
#include "log.h"

struct bs_policy;

#define PCORE_MAX_IFACES	32	/* as IPC_CTX_MAX_IFACES */
#define PCORE_STATS_MS		1000	/* STATS at most this often */
/* Debug log lines about dropped frames: burst, then per second. */
#define PCORE_LOG_BURST		10
#define PCORE_LOG_RATE		2

/* Why a frame was refused.  Append only: the values index counters. */
enum pcore_drop {
	PCORE_ACCEPT = 0,	/* not a drop: the frame passed */
	PCORE_DROP_NOCONFIG,	/* before the forwarder's CONFIG */
	PCORE_DROP_IFACE,	/* unknown interface */
	PCORE_DROP_IFACE_DOWN,	/* interface is down */
	PCORE_DROP_SRC,		/* Ethernet source not unicast / zero */
	PCORE_DROP_EMPTY,	/* no payload */
	PCORE_DROP_VERSION,	/* protocol version is not 1 */
	PCORE_DROP_TYPE,	/* unknown frame type */
	PCORE_DROP_DATA,	/* UNICAST/BCAST: the forwarder's business */
	PCORE_DROP_MALFORMED,	/* the wire codec refused it */
	PCORE_DROP_HELLO_MAC,	/* HELLO interface MAC != Ethernet source */
	PCORE_DROP_OWN,		/* our own HELLO or OGM came back */
	PCORE_DROP_COUNT
};

/* Wire codec errors are 0..-17 (enum wire_err); counted by -err. */
#define PCORE_WIRE_ERRS		18

/* What the parser knows about a mesh interface (from IPC_IFACE). */
struct pcore_iface {
	uint32_t ifindex;		/* 0: free slot */
	uint32_t mtu;
	uint8_t mac[BS_ADDR_LEN];
	uint8_t up;
	char name[IFNAMSIZ];
	/* Mesh routing change: per-interface neighbour list goes here. */
};

/*
 * Output callback: send one message (as ipc_send takes it).  0 on
 * success; -1 when it could not be sent (pcore counts it and goes on).
 */
typedef int (*pcore_emit_fn)(void *arg, uint16_t type, const void *obj,
    size_t objsize);

struct pcore {
	pcore_emit_fn emit;
	void *emit_arg;

	/* CONFIG from the forwarder; configured is 0 until it arrived. */
	int configured;
	struct ipc_config cfg;

	struct bs_policy *policy;	/* NULL until the first snapshot */
	uint32_t policy_serial;

	struct pcore_iface ifaces[PCORE_MAX_IFACES];

	/*
	 * Mesh routing change: neighbour table, originator table, signature
	 * cache, token buckets (introductions, verifications, frames) and
	 * the relay queue are added here, bounded by the policy's limits.
	 */

	/* Counters. */
	uint64_t stat[IPC_STAT_ID_END];		/* by enum ipc_stat_id */
	uint64_t drop[PCORE_DROP_COUNT];	/* by enum pcore_drop */
	uint64_t wire_err[PCORE_WIRE_ERRS];	/* PCORE_DROP_MALFORMED by -err */
	uint64_t emit_failed;			/* messages emit refused */

	/* STATS and log pacing (times from the caller's monotonic clock). */
	uint64_t stats_sent_ms;
	int stats_dirty;
	struct log_rl drop_log;		/* debug lines about dropped frames */
};

void	pcore_init(struct pcore *pc, pcore_emit_fn emit, void *emit_arg);
/* Frees the policy; the struct may be pcore_init'ed again. */
void	pcore_free(struct pcore *pc);

/*
 * IPC_CONFIG.  The first one configures; a later one may change only
 * the intervals, hop penalty and log level (own key, address, epoch and
 * ethertype are fixed for the parser's lifetime): 0, or -1 with err set.
 */
int	pcore_config(struct pcore *pc, const struct ipc_config *c, char *err,
	    size_t errlen);

/* A complete policy snapshot (bs_policy_snapshot_decode): 0 or -1. */
int	pcore_policy(struct pcore *pc, uint32_t serial, const uint8_t *snap,
	    size_t len, char *err, size_t errlen);

/* IPC_IFACE: add, update or (REMOVED) forget an interface; 0 or -1. */
int	pcore_iface(struct pcore *pc, const struct ipc_iface *ifc, char *err,
	    size_t errlen);
const struct pcore_iface *pcore_iface_find(const struct pcore *pc,
	    uint32_t ifindex);

/*
 * One received frame: the Ethernet payload `bytes` (len bytes) that
 * arrived on ifindex from src to dst, at now_ms.  Returns PCORE_ACCEPT
 * or the reason it was dropped (also counted).
 */
enum pcore_drop pcore_frame(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN],
	    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *bytes,
	    size_t len, uint64_t now_ms);

/*
 * Periodic work at now_ms: emits STATS when counters changed and
 * PCORE_STATS_MS passed since the last.  Returns the time of the next
 * call that could do something (now_ms + PCORE_STATS_MS at most).
 */
uint64_t pcore_tick(struct pcore *pc, uint64_t now_ms);

/* Fill a STATS message with the counters that have an IPC id; count. */
int	pcore_stats(const struct pcore *pc, struct ipc_stats *out);

/* "unknown interface", ...; "?" for an unknown value. */
const char *pcore_drop_name(enum pcore_drop why);

#endif /* BATSEC_PCORE_H */
