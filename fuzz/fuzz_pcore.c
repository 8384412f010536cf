/*
 * fuzz_pcore.c — the parser core driven as a whole, with state that lives
 * across the frames of one input: neighbour and originator tables, HELLO
 * and seqno windows, frame counters, the signature cache, table caps.
 *
 * Every input starts the same way: a CONFIG for our identity (seed of 32
 * bytes 0x11, epoch 7), mesh interfaces FUZZ_IF_A (up) and FUZZ_IF_B
 * (down), and a policy chosen by the first byte.  Then records follow
 * until the input ends or a record does not fit (the record types, the
 * identities, the MACs and the POLICY bytes are in tests/lib/t_pcore_in.h,
 * which gen_pcore.c and tests/check_parser_proc.c use too):
 *
 *	0x00 FRAME	if(1) src(1) len(2, big-endian) bytes[len]
 *			a control frame on interface (if & 1 ? B : A) from
 *			the MAC t_pcin_macs[src % T_PCIN_NMACS]; the clock
 *			moves one millisecond
 *	0x01 TICK	u16 big-endian: the clock moves that many times 100 ms,
 *			then pcore_tick (purge, STATS)
 *	0x02 IFACE	if(1) state(1): UP, DOWN or REMOVED (state % 3)
 *	0x03 POLICY	mode(1) trust(1) gateway(1) clients(1) cap(1): a new
 *			snapshot; trust/gateway are bit masks over the fuzz
 *			identities (bit i: seed (i + 2) * 0x11), clients and
 *			cap set those limits when not 0; mode bit 0: open,
 *			bits 1..5 tiny attack-resistance limits (so that the
 *			quotas, budgets, under-load mode, shares, evictions
 *			and roaming rules of pcore_limits.c are reached):
 *			1 intro-burst 2, 2 verify-burst 3 and
 *			verify-global-burst 8, 3 frame-burst 4, 4 stranger-
 *			share 50 and neighbor-stranger-share 34, 5 roam-per-
 *			minute 0
 *	0x04 CONFIG	hop_penalty(1): a later CONFIG with another penalty
 *	0x05 KEYS	mode(1): how the forwarder answers LINK_KEY_REQs from
 *			now on: 0 with the right key, 1 refused, 2 never,
 *			3 with a key id that does not match (an error)
 *
 * First byte: bit 0 mode open (else allowlist), bit 1 debug logging.
 * The default trust list is identities 0..2 (P, Q, O: seeds 0x22, 0x33,
 * 0x44) with the gateway right for P and O; identity 3 (seed 0x55) is
 * untrusted.  gen_pcore.c writes seeds in this format.
 *
 * Oracles (abort): every message pcore emits passes the forwarder's
 * format checks and ipc_check() against a context that mirrors the
 * forwarder (interfaces as the records set them, neighbours from the
 * NEIGH messages); every frame is counted under exactly one drop reason
 * or accepted; every entry of an accepted OGM frame gets one outcome.
 *
 * Fuzzing builds (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) let a
 * signature, a MAC tag or a compact OGM entry's chain element whose first
 * byte is 0 pass unchecked (pcore_int.h); the replayer of `make check` is
 * a normal build and checks everything.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "forwarder/ipc_check.h"
#include "proto/ipc.h"
#include "parser/pcore.h"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"
#include "lib/t_pcore_in.h"
#include "lib/t_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_IF_A	2
#define FUZZ_IF_B	3
#define FUZZ_T0		1000000
#define FUZZ_MAX_REQS	16

enum { KEYS_OK, KEYS_REFUSED, KEYS_NEVER, KEYS_BADID };

static const uint8_t fuzz_bcast[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

static struct bs_identity fuzz_own;
static uint8_t fuzz_pk[T_PCIN_NIDS][BS_PK_LEN];

/* One run's state. */
struct fuzz {
	struct pcore pc;
	struct ipc_ctx ctx;
	uint64_t now;
	int keys;			/* KEYS_* */
	struct ipc_link_key_req req[FUZZ_MAX_REQS];
	unsigned n_req;
	uint32_t serial;
};

static struct fuzz F;

static void
fuzz_init(void)
{
	static int ready;
	int i;

	if (ready)
		return;
	if (bs_crypto_init() != 0)
		abort();
	t_ident(&fuzz_own, T_PCIN_OWN_SEED);
	for (i = 0; i < T_PCIN_NIDS; i++)
		t_ident_pk(fuzz_pk[i], T_PCIN_PEER_SEED(i));
	ready = 1;
}

/* The forwarder's view of each message: it must never refuse one. */
static int
fuzz_emit(void *arg, uint16_t type, const void *obj, size_t size)
{
	static uint8_t buf[IPC_MAX_MSG];
	static struct ipc_msg m;
	struct fuzz *f = arg;
	size_t len;

	if (ipc_encode(buf, sizeof(buf), type, obj, size, &len, NULL, 0) != 0 ||
	    ipc_msg_parse(&m, buf, len, IPC_ROLE_FORWARDER, NULL, 0) != 0)
		abort();
	switch (ipc_check(&f->ctx, &m, NULL, 0)) {
	case IPC_CHECK_BAD:
		abort();
	case IPC_CHECK_OK:
		ipc_ctx_apply(&f->ctx, &m);
		break;
	default:
		break;
	}
	if (type == IPC_LINK_KEY_REQ && f->n_req < FUZZ_MAX_REQS)
		memcpy(&f->req[f->n_req++], obj, sizeof(f->req[0]));
	return 0;
}

/* The forwarder answers the key requests collected meanwhile. */
static void
fuzz_answer_keys(struct fuzz *f)
{
	struct ipc_link_key k;
	unsigned i;

	for (i = 0; i < f->n_req && f->keys != KEYS_NEVER; i++) {
		memset(&k, 0, sizeof(k));
		memcpy(k.peer_pk, f->req[i].peer_pk, BS_PK_LEN);
		k.ifindex = f->req[i].ifindex;
		if (f->keys == KEYS_REFUSED ||
		    bs_link_key(k.key, &fuzz_own, k.peer_pk) != 0) {
			sodium_memzero(k.key, sizeof(k.key));
			k.status = IPC_LINK_KEY_REFUSED;
		} else
			bs_link_keyid(k.key_id, k.key);
		if (f->keys == KEYS_BADID && k.status == IPC_LINK_KEY_OK)
			k.key_id[0] ^= 1;
		if (pcore_link_key(&f->pc, &k, NULL, 0) != 0 &&
		    f->keys != KEYS_BADID)
			abort();
	}
	f->n_req = 0;
}

static void
fuzz_policy(struct fuzz *f, uint8_t mode, uint8_t trust, uint8_t gw,
    uint8_t clients, uint8_t cap)
{
	struct bs_policy *pol = bs_policy_new();

	if (pol == NULL)
		abort();
	if (t_pcin_policy_fill(pol, mode, trust, gw, clients, cap,
	    (const uint8_t (*)[BS_PK_LEN])fuzz_pk, T_PCIN_NIDS) != 0 ||
	    t_pcore_policy(&f->pc, ++f->serial, pol, NULL, 0) != 0)
		abort();
	bs_policy_free(pol);
}

static void
fuzz_iface(struct fuzz *f, uint32_t ifindex, uint8_t state)
{
	int gone = state == IPC_IFACE_REMOVED;
	struct ipc_iface ifc = t_ipc_iface((struct t_iface){
	    .ifindex = ifindex, .mtu = gone ? 0 : 1534,
	    .mac = gone ? NULL : t_pcin_macs[0], .state = state,
	    .name = ifindex == FUZZ_IF_A ? "mesh0" : "mesh1" });

	if (gone)
		ipc_ctx_iface_del(&f->ctx, ifindex);
	else if (ipc_ctx_iface_add(&f->ctx, ifindex) != 0)
		abort();
	if (pcore_iface(&f->pc, &ifc, NULL, 0) != 0)
		abort();
}

static void
fuzz_config(struct fuzz *f, uint8_t hop_penalty, uint8_t level)
{
	struct ipc_config c = t_ipc_config((struct t_config){
	    .pk = fuzz_own.pk, .ethertype = 0x88b5, .epoch = T_PCIN_EPOCH,
	    .hello_ms = 1000, .ogm_ms = 1000, .hop_penalty = hop_penalty,
	    .log_level = level });

	if (pcore_config(&f->pc, &c, NULL, 0) != 0)
		abort();
}

static void
fuzz_start(struct fuzz *f, uint8_t flags)
{
	memset(f, 0, sizeof(*f));
	f->now = FUZZ_T0;
	ipc_ctx_init(&f->ctx, t_pcin_macs[0]);	/* own_addr set below */
	bs_mesh_addr(f->ctx.own_addr, fuzz_own.pk);
	pcore_init(&f->pc, fuzz_emit, f);
	fuzz_config(f, 30, (flags & 2) ? IPC_LOG_DEBUG : IPC_LOG_INFO);
	fuzz_iface(f, FUZZ_IF_A, IPC_IFACE_UP);
	fuzz_iface(f, FUZZ_IF_B, IPC_IFACE_DOWN);
	fuzz_policy(f, flags & 1, 0x07, 0x05, 0, 0);
}

/* Totals that must add up whatever happened. */
static uint64_t
fuzz_sum(const uint64_t *v, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

/*
 * The tables within their caps; the strangers attributed to neighbours
 * are strangers in the table.
 */
static void
fuzz_bounds(const struct fuzz *f)
{
	uint64_t attributed = 0;
	size_t i;

	if (f->pc.rt == NULL)
		return;
	if (routing_orig_count(f->pc.rt) >
	    routing_get_params(f->pc.rt)->orig_cap)
		abort();
	for (i = 0; i < PCORE_MAX_NEIGH; i++)
		attributed += f->pc.neigh[i].strangers;
	if (attributed > f->pc.n_strangers)
		abort();
}

static void
fuzz_frame(struct fuzz *f, const uint8_t *p, size_t len, uint8_t ifsel,
    uint8_t src)
{
	uint64_t drops = fuzz_sum(f->pc.drop, PCORE_DROP_COUNT);
	uint64_t entries = fuzz_sum(f->pc.entry, PCORE_E_COUNT);
	uint64_t ogms = f->pc.stat[IPC_STAT_RX_OGM];
	enum pcore_drop why;

	f->now++;
	why = pcore_frame(&f->pc, (ifsel & 1) ? FUZZ_IF_B : FUZZ_IF_A,
	    t_pcin_macs[src % T_PCIN_NMACS], fuzz_bcast, p, len, f->now);
	if ((why == PCORE_ACCEPT) ==
	    (fuzz_sum(f->pc.drop, PCORE_DROP_COUNT) == drops + 1))
		abort();
	/* Entries get an outcome only in an authenticated OGM frame. */
	if (f->pc.stat[IPC_STAT_RX_OGM] == ogms &&
	    fuzz_sum(f->pc.entry, PCORE_E_COUNT) != entries)
		abort();
	fuzz_bounds(f);
	fuzz_answer_keys(f);
}

/* One record at p (rem bytes); the bytes it used, 0 to stop. */
static size_t
fuzz_record(struct fuzz *f, const uint8_t *p, size_t rem)
{
	size_t len;

	switch (p[0]) {
	case T_PCIN_FRAME:
		if (rem < 5 || (len = bs_get16(p + 3)) > rem - 5 ||
		    len > IPC_FRAME_MAX)
			return 0;
		fuzz_frame(f, p + 5, len, p[1], p[2]);
		return 5 + len;
	case T_PCIN_TICK:
		if (rem < 3)
			return 0;
		f->now += (uint64_t)bs_get16(p + 1) * 100;
		pcore_tick(&f->pc, f->now);
		return 3;
	case T_PCIN_IFACE:
		if (rem < 3)
			return 0;
		fuzz_iface(f, (p[1] & 1) ? FUZZ_IF_B : FUZZ_IF_A, p[2] % 3);
		return 3;
	case T_PCIN_POLICY:
		if (rem < 6)
			return 0;
		fuzz_policy(f, p[1], p[2], p[3], p[4], p[5]);
		return 6;
	case T_PCIN_CONFIG:
		if (rem < 2)
			return 0;
		fuzz_config(f, p[1], f->pc.cfg.log_level);
		return 2;
	case T_PCIN_KEYS:
		if (rem < 2)
			return 0;
		f->keys = p[1] % 4;
		return 2;
	default:
		return 0;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 1, used;

	if (size < 1)
		return 0;
	fuzz_init();
	fuzz_start(&F, data[0]);
	while (off < size && (used = fuzz_record(&F, data + off,
	    size - off)) != 0)
		off += used;
	F.now += 1000;
	pcore_tick(&F.pc, F.now);
	pcore_free(&F.pc);
	return 0;
}
