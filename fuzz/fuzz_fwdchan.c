/*
 * fuzz_fwdchan.c — what the forwarder does with the parser's messages
 * once they passed the checks: fwd_parser_handle() with a forwarder
 * behind it (its handlers registered by forwarder_handlers), so a
 * compromised parser drives the neighbour,
 * route, client and gateway tables (fwd_tables.c), the LINK_KEY answers
 * and the key cache, the relay queue (fwd_orig.c), the revocation path
 * (fwd_trust.c) and the TOFU pins (fwd_pins.c; kept in memory, never
 * written here: no timer runs).  fuzz_ipc.c stops at ipc_check(); this
 * goes on.
 *
 * Input: the forwarder-role format of fuzz_ipc.c, so its seeds work here
 * too: one byte (ignored), then datagrams, each preceded by a 2-byte
 * big-endian length (a length past the end takes what is left), at most
 * FUZZ_MAX_RECORDS of them.  Two
 * lengths that no datagram can have are events of the forwarder:
 *	length 0	the clock moves 10 s and fwd_tables_purge runs;
 *	length 1, b	interface (b & 1 ? B : A) is removed (b & 2) as
 *			fwd_ifaces.c removes one (ipc_ctx_iface_del,
 *			fwd_neigh_flush_iface), or comes back.
 * Every other datagram goes through ipc_msg_parse (forwarder role) and
 * fwd_parser_handle.  A violation is handled as the forwarder handles it:
 * the parser is "replaced", i.e. the tables forget what it said
 * (fwd_tables_parser_reset) and the check context starts again.  At the
 * end the relay queue is aggregated into OGM frames as fwd_announce.c
 * sends them (fwd_agg_*, one interface, no link keys: signed trailer).
 *
 * The forwarder: our identity is the seed of 32 bytes 0x11 (as in
 * fuzz_ipc.c); interfaces FUZZ_IF_A and FUZZ_IF_B exist, FUZZ_IF_GONE was
 * removed; the policy is mode open with no entry and no anchor (every
 * key is a stranger, so no revocation record is ever stored, and
 * nothing is written to disk); logging is at LOG_ERR.
 *
 * Oracles (abort): the neighbour table and the check context agree
 * (same count; every neighbour in the table is up in the context with
 * the same key and interface); no table grows past its cap; no route,
 * client set or gateway is about our own address; every route has a TQ
 * of 1..255 and 1..IPC_ROUTE_MAX_HOPS hops, at most IPC_ROUTE_ALT_MAX
 * other candidates with hops in that range; a queued relay entry is
 * accepted by the aggregator and every aggregated frame parses with the
 * wire codec, with as many entries as were added; at most FWD_PINS_MAX
 * pins are kept, one per mesh address, none all zero.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "forwarder/forwarder.h"
#include "forwarder/fwd_orig.h"
#include "forwarder/fwd_pins.h"
#include "forwarder/fwd_tables.h"
#include "forwarder/fwd_types.h"
#include "proto/ipc.h"
#include "common/log.h"
#include "proto/wire.h"
#include "lib/t_ident.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_OWN_SEED	0x11
#define FUZZ_IF_A	2
#define FUZZ_IF_B	3
#define FUZZ_IF_GONE	5
#define FUZZ_MTU	1534
#define FUZZ_TICK_MS	10000
/*
 * Records per input: a check of the tables walks every slot (some 12000),
 * so thousands of 2-byte records would make an input slow, not deeper.
 */
#define FUZZ_MAX_RECORDS	1024

static struct fwd F;
static uint64_t fuzz_clock;	/* added to log_now_ms() for purges */
static unsigned fuzz_entries;	/* entries in the frames aggregated */

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

static void
fuzz_init(void)
{
	static int ready;

	if (ready)
		return;
	fz_check(bs_crypto_init() == 0);
	log_init(LOG_DEST_STDERR, LOG_ERR, "fuzz_fwdchan");
	t_ident_addr(&F.id, F.own_addr, FUZZ_OWN_SEED);
	F.epoch = 7;
	fz_check((F.policy = bs_policy_new()) != NULL);
	/* Mode open: every key but a pinned address's rival passes the
	 * forwarder's own policy check (fwd_admit.h), so the tables fill. */
	F.policy->mode = BS_POLICY_OPEN;
	F.policy_serial = 1;
	ready = 1;
}

/* The check context a new parser gets, as fwd_parser_attach and
 * fwd_ifaces_announce make it. */
static void
fuzz_ctx_reset(void)
{
	ipc_ctx_init(&F.parser.ctx, F.own_addr);
	fz_check(ipc_ctx_iface_add(&F.parser.ctx, FUZZ_IF_A) == 0);
	fz_check(ipc_ctx_iface_add(&F.parser.ctx, FUZZ_IF_B) == 0);
	fz_check(ipc_ctx_iface_add(&F.parser.ctx, FUZZ_IF_GONE) == 0);
	ipc_ctx_iface_del(&F.parser.ctx, FUZZ_IF_GONE);
}

static void
fuzz_start(void)
{
	fz_check((F.tables = fwd_tables_new()) != NULL);
	fwd_orig_init(&F.orig, &F.id, F.epoch, 1000, 1000);
	fwd_parser_init(&F.parser, &F.id);
	forwarder_handlers(&F);
	fuzz_ctx_reset();
	fuzz_clock = 0;
}

static void
fuzz_iface_event(uint8_t b)
{
	uint32_t ifindex = (b & 1) ? FUZZ_IF_B : FUZZ_IF_A;

	if (b & 2) {
		ipc_ctx_iface_del(&F.parser.ctx, ifindex);
		fwd_neigh_flush_iface(F.tables, ifindex);
	} else
		fz_check(ipc_ctx_iface_add(&F.parser.ctx, ifindex) == 0);
}

/* The tables against the context and the caps. */
static void
fuzz_tables_ok(void)
{
	const struct ipc_ctx_neigh *cn;
	const struct fwd_route *r;
	const struct fwd_client *c;
	const struct fwd_gw *g;
	struct fwd_neigh *n;
	size_t cur, count = 0, i;

	cur = 0;
	while ((n = fwd_neigh_next(F.tables, 0, &cur)) != NULL) {
		cn = ipc_ctx_neigh_find(&F.parser.ctx, n->addr, n->ifindex);
		fz_check(cn != NULL && memcmp(cn->pk, n->pk, BS_PK_LEN) == 0);
		count++;
	}
	fz_check(count == F.parser.ctx.n_neigh);
	fz_check(count == fwd_neigh_count(F.tables, 0));
	fz_check(count <= FWD_NEIGH_MAX);
	fz_check(fwd_route_count(F.tables) <= FWD_ROUTE_MAX);
	fz_check(fwd_client_count(F.tables) <= FWD_RTT_MAX);
	fz_check(fwd_gw_count(F.tables) <= FWD_GW_MAX);
	cur = 0;
	while ((r = fwd_route_next(F.tables, &cur)) != NULL) {
		fz_check(memcmp(r->orig_addr, F.own_addr, BS_ADDR_LEN) != 0);
		fz_check(r->tq >= 1 && r->hops >= 1 &&
		    r->hops <= IPC_ROUTE_MAX_HOPS);
		fz_check(r->n_alt <= IPC_ROUTE_ALT_MAX);
		for (i = 0; i < r->n_alt; i++)
			fz_check(r->alt[i].hops >= 1 &&
			    r->alt[i].hops <= IPC_ROUTE_MAX_HOPS &&
			    r->alt[i].ifindex != 0);
	}
	cur = 0;
	while ((c = fwd_client_next(F.tables, &cur)) != NULL)
		fz_check(memcmp(c->orig_addr, F.own_addr, BS_ADDR_LEN) != 0);
	cur = 0;
	while ((g = fwd_gw_next(F.tables, &cur)) != NULL)
		fz_check(memcmp(g->orig_addr, F.own_addr, BS_ADDR_LEN) != 0);
}

static void
fuzz_pins_ok(void)
{
	uint8_t a[BS_ADDR_LEN], b[BS_ADDR_LEN];
	size_t n = fwd_pins_count(&F.pins), i, j;

	fz_check(n <= FWD_PINS_MAX && fwd_pins_key(&F.pins, n) == NULL);
	for (i = 0; i < n; i++) {
		fz_check(!sodium_is_zero(fwd_pins_key(&F.pins, i), BS_PK_LEN));
		bs_mesh_addr(a, fwd_pins_key(&F.pins, i));
		for (j = 0; j < i; j++) {
			bs_mesh_addr(b, fwd_pins_key(&F.pins, j));
			fz_check(memcmp(a, b, BS_ADDR_LEN) != 0);
		}
	}
}

/* One datagram from the parser, as fwd_parser_read takes it. */
static void
fuzz_datagram(const uint8_t *p, size_t len)
{
	static struct ipc_msg m;
	char why[256];

	if (ipc_msg_parse(&m, p, len, IPC_ROLE_FORWARDER, NULL, 0) != 0 ||
	    fwd_parser_handle(&F.parser, &m, why, sizeof(why)) ==
	    FWD_CHAN_KILL) {
		/* A new parser: the tables forget the old one's word. */
		fwd_tables_parser_reset(F.tables);
		fuzz_ctx_reset();
	}
}

/* Every aggregated frame is an OGM frame the codec takes whole. */
static int
fuzz_emit(void *arg, const uint8_t *frame, size_t len)
{
	static struct wire_ogm o;

	(void)arg;
	fz_check(wire_ogm_parse(frame, len, &o) == WIRE_OK);
	fuzz_entries += o.num_entries;
	return 0;
}

/* The relay queue goes out as fwd_announce.c sends it on one interface. */
static void
fuzz_relays_out(void)
{
	static struct fwd_agg a;
	const struct fwd_relay_ent *e;
	unsigned added = 0;
	size_t i;
	int r;

	fuzz_entries = 0;
	fwd_agg_begin(&a, &F.orig, NULL, 0, FUZZ_MTU, fuzz_emit, NULL);
	for (i = 0; i < F.orig.rq.n; i++) {
		e = fwd_relayq_at(&F.orig.rq, i);
		r = fwd_agg_add(&a, e->entry, e->len);
		fz_check(r == WIRE_OK || r == WIRE_ELEN);
		added += r == WIRE_OK;
	}
	fz_check(fwd_agg_end(&a) == 0);
	fz_check(fuzz_entries == added);
	fwd_relayq_clear(&F.orig.rq);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 1, len;
	unsigned n;

	if (size < 1)
		return 0;
	fuzz_init();
	fuzz_start();
	for (n = 0; n < FUZZ_MAX_RECORDS && size - off >= 2; n++) {
		len = (size_t)data[off] << 8 | data[off + 1];
		off += 2;
		if (len > size - off)
			len = size - off;
		if (len == 0)	/* a purge only removes: checked at the end */
			(void)fwd_tables_purge(F.tables, log_now_ms() +
			    (fuzz_clock += FUZZ_TICK_MS));
		else {
			if (len == 1)
				fuzz_iface_event(data[off]);
			else
				fuzz_datagram(data + off, len);
			fuzz_tables_ok();
		}
		off += len;
	}
	fuzz_tables_ok();
	fuzz_pins_ok();
	fuzz_relays_out();
	fwd_pins_forget(&F.pins);
	fwd_tables_free(F.tables);
	F.tables = NULL;
	return 0;
}
