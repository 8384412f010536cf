/*
 * ipc_check.c — the forwarder's state checks of parser -> forwarder
 * messages (layer 3 in ipc.h).  Pure functions over a small context.
 *
 * A message that fails here could only come from a broken or compromised
 * parser: the forwarder logs the error line and replaces the parser.  The
 * one exception is IPC_CHECK_STALE: the forwarder removed an interface and
 * the parser, which hears of it through the channel, still talked about it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ipc_check.h"
#include "proto/wire.h"

static int ipc_bad(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
ipc_bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return IPC_CHECK_BAD;
}

/* ---- the context ----------------------------------------------------------- */

void
ipc_ctx_init(struct ipc_ctx *ctx, const uint8_t own_addr[static BS_ADDR_LEN])
{
	memset(ctx, 0, sizeof(*ctx));
	memcpy(ctx->own_addr, own_addr, BS_ADDR_LEN);
}

static struct ipc_ctx_iface *
ipc_ctx_iface_slot(struct ipc_ctx *ctx,
    uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < IPC_CTX_MAX_IFACES; i++)
		if (ctx->ifaces[i].ifindex == ifindex)
			return &ctx->ifaces[i];
	return NULL;
}

int
ipc_ctx_iface_add(struct ipc_ctx *ctx, uint32_t ifindex)
{
	struct ipc_ctx_iface *f;
	size_t i;

	if (ifindex == 0)
		return -1;
	if ((f = ipc_ctx_iface_slot(ctx, ifindex)) == NULL &&
	    (f = ipc_ctx_iface_slot(ctx, 0)) == NULL) {
		/* Full: reuse the slot of a removed interface. */
		for (i = 0; i < IPC_CTX_MAX_IFACES && f == NULL; i++)
			if (ctx->ifaces[i].gone)
				f = &ctx->ifaces[i];
		if (f == NULL)
			return -1;
	}
	f->ifindex = ifindex;
	f->gone = 0;
	return 0;
}

static void
ipc_ctx_neigh_drop(struct ipc_ctx *ctx, size_t i)
{
	memset(&ctx->neigh[i], 0, sizeof(ctx->neigh[i]));
	ctx->n_neigh--;
}

void
ipc_ctx_iface_del(struct ipc_ctx *ctx, uint32_t ifindex)
{
	struct ipc_ctx_iface *f;
	size_t i;

	if (ifindex == 0 || (f = ipc_ctx_iface_slot(ctx, ifindex)) == NULL)
		return;
	f->gone = 1;
	for (i = 0; i < IPC_MAX_NEIGH; i++)
		if (ctx->neigh[i].ifindex == ifindex)
			ipc_ctx_neigh_drop(ctx, i);
}

const struct ipc_ctx_neigh *
ipc_ctx_neigh_find(const struct ipc_ctx *ctx,
    const uint8_t addr[static BS_ADDR_LEN], uint32_t ifindex)
{
	size_t i;

	if (ifindex == 0)
		return NULL;
	for (i = 0; i < IPC_MAX_NEIGH; i++)
		if (ctx->neigh[i].ifindex == ifindex &&
		    memcmp(ctx->neigh[i].addr, addr, BS_ADDR_LEN) == 0)
			return &ctx->neigh[i];
	return NULL;
}

/* By key: LINK_KEY_REQ names its peer by public key. */
static const struct ipc_ctx_neigh *
ipc_ctx_neigh_by_pk(
    const struct ipc_ctx *ctx, const uint8_t pk[static BS_PK_LEN],
    uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < IPC_MAX_NEIGH; i++)
		if (ctx->neigh[i].ifindex == ifindex &&
		    memcmp(ctx->neigh[i].pk, pk, BS_PK_LEN) == 0)
			return &ctx->neigh[i];
	return NULL;
}

/*
 * IPC_CHECK_OK when ifindex is a live mesh interface, IPC_CHECK_STALE
 * when the forwarder removed it, IPC_CHECK_BAD when it never existed.
 */
static int
ipc_ctx_iface_state(const struct ipc_ctx *ctx, uint32_t ifindex)
{
	size_t i;

	if (ifindex == 0)
		return IPC_CHECK_BAD;
	for (i = 0; i < IPC_CTX_MAX_IFACES; i++)
		if (ctx->ifaces[i].ifindex == ifindex)
			return ctx->ifaces[i].gone ? IPC_CHECK_STALE :
			    IPC_CHECK_OK;
	return IPC_CHECK_BAD;
}

/* ---- per-type state checks ------------------------------------------------- */

static int
ipc_check_iface(const struct ipc_ctx *ctx, const char *what,
    uint32_t ifindex, char *err, size_t errlen)
{
	int st = ipc_ctx_iface_state(ctx, ifindex);

	if (st == IPC_CHECK_BAD)
		return ipc_bad(err, errlen, "IPC %s: ifindex %u is not a mesh "
		    "interface", what, ifindex);
	return st;
}

static int
ipc_not_own(const struct ipc_ctx *ctx, const char *what,
    const uint8_t addr[static BS_ADDR_LEN], char *err, size_t errlen)
{
	if (memcmp(addr, ctx->own_addr, BS_ADDR_LEN) == 0)
		return ipc_bad(err, errlen, "IPC %s: names our own address",
		    what);
	return IPC_CHECK_OK;
}

static int
ipc_check_route(const struct ipc_ctx *ctx,
    const struct ipc_route *r, char *err, size_t errlen)
{
	int st;

	if (ipc_not_own(ctx, "ROUTE_ADD", r->orig_addr, err, errlen) != 0)
		return IPC_CHECK_BAD;
	if ((st = ipc_check_iface(ctx, "ROUTE_ADD", r->ifindex, err,
	    errlen)) != IPC_CHECK_OK)
		return st;
	if (ipc_ctx_neigh_find(ctx, r->nexthop, r->ifindex) == NULL)
		return ipc_bad(err, errlen, "IPC ROUTE_ADD: next hop is not an "
		    "up neighbour on ifindex %u", r->ifindex);
	return IPC_CHECK_OK;
}

/* Every candidate an up neighbour on a present interface. */
static int
ipc_check_route_alt(const struct ipc_ctx *ctx,
    const struct ipc_route_alt *a, char *err, size_t errlen)
{
	unsigned i;
	int st;

	if (ipc_not_own(ctx, "ROUTE_ALT", a->orig_addr, err, errlen) != 0)
		return IPC_CHECK_BAD;
	for (i = 0; i < a->count; i++) {
		if ((st = ipc_check_iface(ctx, "ROUTE_ALT", a->c[i].ifindex,
		    err, errlen)) != IPC_CHECK_OK)
			return st;
		if (ipc_ctx_neigh_find(ctx, a->c[i].nexthop,
		    a->c[i].ifindex) == NULL)
			return ipc_bad(err, errlen, "IPC ROUTE_ALT: candidate "
			    "%u is not an up neighbour on ifindex %u", i,
			    a->c[i].ifindex);
	}
	return IPC_CHECK_OK;
}

static int
ipc_check_neigh(const struct ipc_ctx *ctx,
    const struct ipc_neigh *n, char *err, size_t errlen)
{
	const struct ipc_ctx_neigh *cur;
	int st;

	if (ipc_not_own(ctx, "NEIGH", n->addr, err, errlen) != 0)
		return IPC_CHECK_BAD;
	if ((st = ipc_check_iface(ctx, "NEIGH", n->ifindex, err, errlen)) !=
	    IPC_CHECK_OK)
		return st;
	cur = ipc_ctx_neigh_find(ctx, n->addr, n->ifindex);
	/*
	 * DOWN for a neighbour that is not up changes nothing; it can follow
	 * an interface that was removed and came back, so it is not a lie.
	 */
	if (n->state == IPC_NEIGH_DOWN)
		return cur != NULL ? IPC_CHECK_OK : IPC_CHECK_STALE;
	if (cur != NULL && memcmp(cur->pk, n->pk, BS_PK_LEN) != 0)
		return ipc_bad(err, errlen, "IPC NEIGH: address of an up "
		    "neighbour claimed by another key");
	if (cur == NULL && ctx->n_neigh >= IPC_MAX_NEIGH)
		return ipc_bad(err, errlen, "IPC NEIGH: more than %d "
		    "neighbours", IPC_MAX_NEIGH);
	return IPC_CHECK_OK;
}

static int
ipc_check_link_key_req(const struct ipc_ctx *ctx,
    const struct ipc_link_key_req *q, char *err, size_t errlen)
{
	int st;

	if ((st = ipc_check_iface(ctx, "LINK_KEY_REQ", q->ifindex, err,
	    errlen)) != IPC_CHECK_OK)
		return st;
	if (ipc_ctx_neigh_by_pk(ctx, q->peer_pk, q->ifindex) == NULL)
		return ipc_bad(err, errlen, "IPC LINK_KEY_REQ: peer is not an "
		    "up neighbour on ifindex %u", q->ifindex);
	return IPC_CHECK_OK;
}

static int
ipc_check_relay(const struct ipc_ctx *ctx,
    const struct ipc_relay *r, char *err, size_t errlen)
{
	struct wire_ogm_head h;
	uint8_t orig[BS_ADDR_LEN];

	if (wire_ogm_head_get(r->entry, r->len, &h) != WIRE_OK)
		return ipc_bad(err, errlen, "IPC RELAY: entry of %u bytes is "
		    "too short", (unsigned)r->len);
	if (h.pk != NULL)
		bs_mesh_addr(orig, h.pk);
	else
		memcpy(orig, h.orig, BS_ADDR_LEN);
	if (ipc_not_own(ctx, "RELAY", orig, err, errlen) != 0)
		return IPC_CHECK_BAD;
	if (r->ifindex == IPC_IFINDEX_ALL)
		return IPC_CHECK_OK;
	return ipc_check_iface(ctx, "RELAY", r->ifindex, err, errlen);
}

/* Layer 3 of a message that passed layers 1-2 (u holds its payload). */
static int
ipc_check_state(const struct ipc_ctx *ctx, uint16_t type,
    const union ipc_payload *u, char *err, size_t errlen)
{
	switch (type) {
	case IPC_ROUTE_ADD:
		return ipc_check_route(ctx, &u->route, err, errlen);
	case IPC_ROUTE_ALT:
		return ipc_check_route_alt(ctx, &u->route_alt, err, errlen);
	case IPC_ROUTE_DEL:
		return ipc_not_own(ctx, "ROUTE_DEL", u->route_del.orig_addr,
		    err, errlen);
	case IPC_NEIGH:
		return ipc_check_neigh(ctx, &u->neigh, err, errlen);
	case IPC_LINK_KEY_REQ:
		return ipc_check_link_key_req(ctx, &u->link_key_req, err,
		    errlen);
	case IPC_TT:
		return ipc_not_own(ctx, "TT", u->tt.orig_addr, err, errlen);
	case IPC_GW:
		return ipc_not_own(ctx, "GW", u->gw.orig_addr, err, errlen);
	case IPC_MCAST:
		return ipc_not_own(ctx, "MCAST", u->mcast.orig_addr, err,
		    errlen);
	case IPC_DESC_WANT:
		return ipc_not_own(ctx, "DESC_WANT", u->desc_want.orig_addr,
		    err, errlen);
	case IPC_HELLO_SIGN:
		return ipc_check_iface(ctx, "HELLO_SIGN", u->hello_sign.ifindex,
		    err, errlen);
	case IPC_RELAY:
		return ipc_check_relay(ctx, &u->relay, err, errlen);
	default:		/* LOG and STATS need no state */
		return IPC_CHECK_OK;
	}
}

int
ipc_check(const struct ipc_ctx *ctx, const struct ipc_msg *msg,
    char *err, size_t errlen)
{
	union ipc_payload u;
	uint16_t type = msg->hdr.type;

	if (ipc_msg_check(msg, IPC_ROLE_FORWARDER, err, errlen) != 0)
		return IPC_CHECK_BAD;
	if (ipc_get(msg, type, &u, ipc_obj_size(type)) != 0)
		return ipc_bad(err, errlen, "IPC %s: payload size",
		    ipc_type_name(type));
	return ipc_check_state(ctx, type, &u, err, errlen);
}

/* ---- applying vetted messages ------------------------------------------------ */

static void
ipc_ctx_neigh_up(struct ipc_ctx *ctx, const struct ipc_neigh *n)
{
	size_t i;

	if (ipc_ctx_neigh_find(ctx, n->addr, n->ifindex) != NULL)
		return;		/* an update: the identity is unchanged */
	for (i = 0; i < IPC_MAX_NEIGH; i++) {
		if (ctx->neigh[i].ifindex == 0) {
			memcpy(ctx->neigh[i].pk, n->pk, BS_PK_LEN);
			memcpy(ctx->neigh[i].addr, n->addr, BS_ADDR_LEN);
			ctx->neigh[i].ifindex = n->ifindex;
			ctx->n_neigh++;
			return;
		}
	}
}

static void
ipc_ctx_neigh_down(struct ipc_ctx *ctx, const struct ipc_neigh *n)
{
	const struct ipc_ctx_neigh *cur;

	cur = ipc_ctx_neigh_find(ctx, n->addr, n->ifindex);
	if (cur != NULL)
		ipc_ctx_neigh_drop(ctx, (size_t)(cur - ctx->neigh));
}

void
ipc_ctx_apply(struct ipc_ctx *ctx, const struct ipc_msg *msg)
{
	struct ipc_neigh n;

	if (ipc_get(msg, IPC_NEIGH, &n, sizeof(n)) != 0)
		return;
	if (ipc_ctx_iface_state(ctx, n.ifindex) != IPC_CHECK_OK)
		return;
	if (n.state == IPC_NEIGH_UP)
		ipc_ctx_neigh_up(ctx, &n);
	else
		ipc_ctx_neigh_down(ctx, &n);
}
