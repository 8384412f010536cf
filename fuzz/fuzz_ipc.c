/*
 * fuzz_ipc.c — the IPC receive path as a compromised peer drives it.
 *
 * Input: one role byte, then datagrams, each preceded by a 2-byte
 * big-endian length (a length past the end takes what is left):
 *	role & 1 == 0: the forwarder receives parser -> forwarder messages:
 *	    framing + format checks (ipc_msg_parse), exact-size decode
 *	    (ipc_get), state checks (ipc_check) against a fixed context, and
 *	    ipc_ctx_apply for what passed, so a neighbour that comes up through
 *	    a valid NEIGH changes what later messages may do;
 *	role & 1 == 1: the parser receives forwarder -> parser messages, and
 *	    the POLICY_* ones go through snapshot reassembly.
 * Oracles (abort on failure): a message that passes decodes and encodes
 * back to the same bytes; the context's neighbour count matches its
 * table; a snapshot never holds more than it announced.
 *
 * The fixed context (gen_ipc.c builds seeds for it): our identity is the
 * seed of 32 bytes 0x11; mesh interfaces FUZZ_IF_A and FUZZ_IF_B are up,
 * FUZZ_IF_GONE was removed; no neighbour is up at the start.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "forwarder/ipc_check.h"
#include "proto/ipc.h"
#include "lib/t_ident.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_OWN_SEED	0x11
#define FUZZ_IF_A	2
#define FUZZ_IF_B	3
#define FUZZ_IF_GONE	5

static uint8_t fuzz_own_addr[BS_ADDR_LEN];

static void
fuzz_init(void)
{
	static int ready;
	uint8_t pk[BS_PK_LEN];

	if (ready)
		return;
	if (bs_crypto_init() != 0)
		abort();
	t_ident_pk(pk, FUZZ_OWN_SEED);
	bs_mesh_addr(fuzz_own_addr, pk);
	ready = 1;
}

static void
fuzz_ctx(struct ipc_ctx *ctx)
{
	ipc_ctx_init(ctx, fuzz_own_addr);
	if (ipc_ctx_iface_add(ctx, FUZZ_IF_A) != 0 ||
	    ipc_ctx_iface_add(ctx, FUZZ_IF_B) != 0 ||
	    ipc_ctx_iface_add(ctx, FUZZ_IF_GONE) != 0)
		abort();
	ipc_ctx_iface_del(ctx, FUZZ_IF_GONE);
}

/* A message that passed must decode and encode back to its own bytes. */
static void
fuzz_roundtrip(const struct ipc_msg *m, const uint8_t *dgram,
    size_t len)
{
	static union ipc_payload u;
	static uint8_t out[IPC_MAX_MSG];
	size_t n;

	if (ipc_get(m, m->hdr.type, &u, ipc_obj_size(m->hdr.type)) != 0)
		abort();
	if (ipc_encode(out, sizeof(out), m->hdr.type, &u,
	    ipc_obj_size(m->hdr.type), &n, NULL, 0) != 0)
		abort();
	if (n != len || memcmp(out, dgram, len) != 0)
		abort();
}

static void
fuzz_ctx_invariant(const struct ipc_ctx *ctx)
{
	size_t i, used = 0;

	for (i = 0; i < IPC_MAX_NEIGH; i++)
		used += ctx->neigh[i].ifindex != 0;
	if (used != ctx->n_neigh)
		abort();
}

static void
fuzz_forwarder(struct ipc_ctx *ctx, const struct ipc_msg *m)
{
	struct ipc_neigh n;
	char err[256];

	if (ipc_check(ctx, m, err, sizeof(err)) != IPC_CHECK_OK)
		return;
	ipc_ctx_apply(ctx, m);
	fuzz_ctx_invariant(ctx);
	if (ipc_get(m, IPC_NEIGH, &n, sizeof(n)) == 0 &&
	    (ipc_ctx_neigh_find(ctx, n.addr, n.ifindex) != NULL) !=
	    (n.state == IPC_NEIGH_UP))
		abort();
}

static void
fuzz_parser(struct ipc_snap *s, const struct ipc_msg *m)
{
	char err[256];
	int r;

	if (m->hdr.type != IPC_POLICY_BEGIN && m->hdr.type != IPC_POLICY_CHUNK &&
	    m->hdr.type != IPC_POLICY_END)
		return;
	r = ipc_snap_feed(s, m, err, sizeof(err));
	if (s->got > s->total || (r == 1 && s->got != s->total) ||
	    (r < 0 && s->buf != NULL))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ipc_ctx ctx;
	static struct ipc_msg m;
	struct ipc_snap snap;
	enum ipc_role role;
	char err[256];
	size_t len;

	fuzz_init();
	if (size < 1)
		return 0;
	role = (data[0] & 1) ? IPC_ROLE_PARSER : IPC_ROLE_FORWARDER;
	data++;
	size--;
	fuzz_ctx(&ctx);
	ipc_snap_init(&snap);
	while (size >= 2) {
		len = (size_t)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		if (ipc_msg_parse(&m, data, len, role, err, sizeof(err)) == 0) {
			fuzz_roundtrip(&m, data, len);
			if (role == IPC_ROLE_FORWARDER)
				fuzz_forwarder(&ctx, &m);
			else
				fuzz_parser(&snap, &m);
		}
		data += len;
		size -= len;
	}
	ipc_snap_free(&snap);
	return 0;
}
