/*
 * ipc_check.h — the forwarder's state checks of parser -> forwarder
 * messages: layer 3 of the channel's checks (proto/ipc.h).  Pure functions
 * over a small context of what the forwarder knows.
 */
#ifndef BATSEC_IPC_CHECK_H
#define BATSEC_IPC_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "proto/ipc.h"

#define IPC_CTX_MAX_IFACES	32

struct ipc_ctx_iface {
	uint32_t ifindex;	/* 0: free slot */
	uint8_t gone;		/* removed by the forwarder */
};

struct ipc_ctx_neigh {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint32_t ifindex;	/* 0: free slot */
};

/*
 * What the forwarder knows, as far as the checks need it.  The forwarder
 * keeps one per parser: interfaces are its own business
 * (ipc_ctx_iface_add/del), neighbours follow the parser's vetted NEIGH
 * messages (ipc_ctx_apply).
 */
struct ipc_ctx {
	uint8_t own_addr[BS_ADDR_LEN];
	struct ipc_ctx_iface ifaces[IPC_CTX_MAX_IFACES];
	struct ipc_ctx_neigh neigh[IPC_MAX_NEIGH];
	size_t n_neigh;
};

void ipc_ctx_init(struct ipc_ctx *ctx, const uint8_t own_addr[static BS_ADDR_LEN]);
/*
 * A mesh interface exists (again).  -1 when IPC_CTX_MAX_IFACES live
 * interfaces are known already or ifindex is 0.
 */
int ipc_ctx_iface_add(struct ipc_ctx *ctx, uint32_t ifindex);
/*
 * The forwarder removed an interface: its neighbours are forgotten, and
 * messages about it that the parser sent before it heard of the removal
 * are answered IPC_CHECK_STALE rather than counted as violations.
 */
void ipc_ctx_iface_del(struct ipc_ctx *ctx, uint32_t ifindex);

#define IPC_CHECK_OK	0	/* apply the message */
#define IPC_CHECK_STALE	1	/* about a removed interface: ignore it */
#define IPC_CHECK_BAD	(-1)	/* violation: err names it; kill the parser */
/*
 * The forwarder's full validation of a parser -> forwarder message:
 * layers 1-2 again (so it is complete on its own) and then the state
 * checks: interfaces exist, a ROUTE's next hop and a LINK_KEY_REQ's peer
 * are up neighbours on that interface, an (addr, ifindex) keeps its key,
 * the neighbour table stays within IPC_MAX_NEIGH, nobody claims our own
 * address (ROUTE, NEIGH, TT, GW, RELAY's originator).  NEIGH DOWN for a
 * neighbour that is not up is IPC_CHECK_STALE.  Pure: ctx is not changed.
 */
int ipc_check(const struct ipc_ctx *ctx, const struct ipc_msg *msg,
    char *err, size_t errlen);
/* Record what an IPC_CHECK_OK message changes (NEIGH up/down). */
void ipc_ctx_apply(struct ipc_ctx *ctx, const struct ipc_msg *msg);
/* Is (addr, ifindex) an up neighbour?  Returns its slot or NULL. */
const struct ipc_ctx_neigh *ipc_ctx_neigh_find(const struct ipc_ctx *ctx,
    const uint8_t addr[static BS_ADDR_LEN], uint32_t ifindex);

#endif /* BATSEC_IPC_CHECK_H */
