/*
 * check_pcore.c — the parser core.  Frames are real: HELLOs and OGMs
 * built with the wire codec's builders, signed with several identities,
 * link MACs computed with bs_link_key / bs_link_mac.  Each node under
 * test is a pcore instance plus what its forwarder would hold: an
 * ipc_ctx through which EVERY emitted message passes ipc_check (the
 * forwarder's validator; a refusal would get the parser killed) and is
 * applied with ipc_ctx_apply, the neighbour list its HELLOs carry (from
 * the NEIGH messages), and the answers to LINK_KEY_REQ.
 *
 * Covered: configuration, interfaces, policy snapshots; neighbour
 * discovery between two instances; routes, relays, the 3-node chain;
 * every frame and entry drop reason, with the signature counters showing
 * which checks came before any signature work; the signature cache;
 * TT and GW messages; purge, interface loss and policy changes; STATS,
 * LOG pacing, emit failures and random input.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "forwarder/ipc_check.h"
#include "proto/ipc.h"
#include "parser/pcore.h"
#include "parser/pcore_base.h"
#include "parser/pcore_desc.h"
#include "parser/pcore_hello.h"
#include "parser/pcore_limits.h"
#include "parser/pcore_neigh.h"
#include "parser/pcore_ttpage.h"
#include "parser/pcore_trust.h"
#include "routing/routing.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"
#include "lib/t_policy.h"

#define IFX	7	/* the test's mesh interface */
#define T0	100000	/* a monotonic clock reading */
#define EPOCH	5	/* every node's epoch */
#define NMSG	512	/* messages kept per node */
#define NB_MAX	72	/* neighbours a test's forwarder holds */

/* Identities: X is the node under test in most cases. */
enum { I_X, I_P, I_Q, I_O, I_U, I_N };

static struct bs_identity ids[I_N];
static uint8_t addrs[I_N][BS_ADDR_LEN];
static const uint8_t macs[I_N][BS_ADDR_LEN] = {
	{ 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x77 },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x88 },
};
static const uint8_t mac_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static uint64_t now_ms = T0;

static void
keys_init(void)
{
	int i;

	if (bs_crypto_init() != 0)
		abort();
	for (i = 0; i < I_N; i++)
		t_ident_addr(&ids[i], addrs[i], (uint8_t)(0x11 * (i + 1)));
}

/* ---- a node: pcore plus what its forwarder knows ------------------------------ */

struct fwd_nb {
	int up;
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint32_t ifindex;
	uint8_t tq, rx;
};

struct node {
	int who;			/* index into ids */
	struct pcore pc;
	struct ipc_ctx ctx;
	struct ipc_msg *msg;		/* the first NMSG messages emitted */
	unsigned n;			/* messages emitted */
	unsigned invalid;		/* refused by ipc_check: fatal */
	unsigned stale;			/* IPC_CHECK_STALE */
	char err[256];
	unsigned n_log, n_stats;
	char last_log[IPC_LOG_TEXT_MAX];
	struct ipc_msg last_stats;
	struct fwd_nb nb[NB_MAX];	/* the forwarder's neighbours */
	int auto_key;			/* answer LINK_KEY_REQ */
	unsigned keyed;			/* messages looked at for that */
	uint32_t hello_seqno, ogm_seqno;
	uint64_t counter;		/* OGM frame counter */
};

static struct node X, P, Q;

static void
fwd_nb_apply(struct node *n, const struct ipc_neigh *m)
{
	struct fwd_nb *free_nb = NULL, *b;
	size_t i;

	for (i = 0; i < sizeof(n->nb) / sizeof(n->nb[0]); i++) {
		b = &n->nb[i];
		if (!b->up) {
			if (free_nb == NULL)
				free_nb = b;
			continue;
		}
		if (b->ifindex == m->ifindex &&
		    memcmp(b->addr, m->addr, BS_ADDR_LEN) == 0)
			break;
	}
	b = i < sizeof(n->nb) / sizeof(n->nb[0]) ? &n->nb[i] : free_nb;
	if (b == NULL)
		abort();
	if (m->state == IPC_NEIGH_DOWN) {
		memset(b, 0, sizeof(*b));
		return;
	}
	b->up = 1;
	memcpy(b->pk, m->pk, BS_PK_LEN);
	memcpy(b->addr, m->addr, BS_ADDR_LEN);
	b->ifindex = m->ifindex;
	b->tq = m->tq;
	b->rx = m->rx_count;
}

/* Encode, parse and check as the forwarder's receiving end would. */
static int
node_emit(void *arg, uint16_t type, const void *obj, size_t size)
{
	struct node *n = arg;
	uint8_t buf[IPC_MAX_MSG];
	struct ipc_msg m;
	struct ipc_neigh ng;
	size_t len;
	int r;

	if (ipc_encode(buf, sizeof(buf), type, obj, size, &len, n->err,
	    sizeof(n->err)) != 0 || ipc_msg_parse(&m, buf, len,
	    IPC_ROLE_FORWARDER, n->err, sizeof(n->err)) != 0) {
		n->invalid++;
		fprintf(stderr, "refused: %s\n", n->err);
		return -1;
	}
	r = ipc_check(&n->ctx, &m, n->err, sizeof(n->err));
	if (r == IPC_CHECK_BAD) {
		n->invalid++;
		fprintf(stderr, "ipc_check: %s\n", n->err);
		return 0;
	}
	if (r == IPC_CHECK_STALE)
		n->stale++;
	else
		ipc_ctx_apply(&n->ctx, &m);
	if (n->n < NMSG)
		n->msg[n->n] = m;
	n->n++;
	if (type == IPC_LOG) {
		n->n_log++;
		memcpy(n->last_log, ((const struct ipc_log *)obj)->text,
		    sizeof(n->last_log));
	} else if (type == IPC_STATS) {
		n->n_stats++;
		n->last_stats = m;
	} else if (type == IPC_NEIGH && r == IPC_CHECK_OK &&
	    ipc_get(&m, IPC_NEIGH, &ng, sizeof(ng)) == 0)
		fwd_nb_apply(n, &ng);
	return 0;
}

static void
config_of(struct ipc_config *c, int who, uint8_t level)
{
	*c = t_ipc_config((struct t_config){ .pk = ids[who].pk,
	    .ethertype = 0x88b5, .epoch = EPOCH, .hello_ms = 1000,
	    .ogm_ms = 1000, .hop_penalty = 30, .log_level = level });
}

static void
iface_of(struct ipc_iface *f, int who, uint32_t ifindex, uint8_t state)
{
	int gone = state == IPC_IFACE_REMOVED;
	char name[16];

	snprintf(name, sizeof(name), "mesh%u", ifindex);
	*f = t_ipc_iface((struct t_iface){ .ifindex = ifindex,
	    .mtu = gone ? 0 : 1630, .mac = gone ? NULL : macs[who],
	    .state = state, .name = name });
}

/* What a node's policy says. */
struct polspec {
	enum bs_policy_mode mode;
	unsigned trust;			/* bit per identity */
	unsigned gateway;		/* ... trusted with the gateway right */
	uint32_t clients;		/* limit clients-per-originator, 0: dflt */
	uint32_t originators;		/* limit originators, 0: default */
};

static const struct polspec pol_default = {
	BS_POLICY_ALLOWLIST,
	1u << I_X | 1u << I_P | 1u << I_Q | 1u << I_O,
	1u << I_P | 1u << I_O, 0, 0
};

static void
node_policy(struct node *n, const struct polspec *ps, uint32_t serial)
{
	struct bs_policy *pol = bs_policy_new();
	char err[256];
	int i;

	ck_assert_ptr_nonnull(pol);
	pol->mode = ps->mode;
	if (ps->clients != 0)
		pol->limits.clients_per_originator = ps->clients;
	if (ps->originators != 0)
		pol->limits.originators = ps->originators;
	for (i = 0; i < I_N; i++)
		if (ps->trust & (1u << i))
			ck_assert_int_eq(bs_policy_trust_add(pol, ids[i].pk,
			    NULL, (ps->gateway >> i) & 1, err, sizeof(err)), 0);
	ck_assert_int_eq(t_pcore_policy(&n->pc, serial, pol, err,
	    sizeof(err)), 0);
	bs_policy_free(pol);
}

/* A configured node with interface IFX up and the default policy. */
static void
node_up(struct node *n, int who, uint8_t level)
{
	struct ipc_config c;
	struct ipc_iface f;
	char err[256];

	memset(n, 0, sizeof(*n));
	n->who = who;
	n->auto_key = 1;
	n->msg = calloc(NMSG, sizeof(*n->msg));
	ck_assert_ptr_nonnull(n->msg);
	ipc_ctx_init(&n->ctx, addrs[who]);
	ck_assert_int_eq(ipc_ctx_iface_add(&n->ctx, IFX), 0);
	pcore_init(&n->pc, node_emit, n);
	config_of(&c, who, level);
	ck_assert_int_eq(pcore_config(&n->pc, &c, err, sizeof(err)), 0);
	iface_of(&f, who, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&n->pc, &f, err, sizeof(err)), 0);
	node_policy(n, &pol_default, 1);
}

/* Every message the node sent was one the forwarder accepts. */
static void
node_down(struct node *n)
{
	ck_assert_msg(n->invalid == 0, "%u messages refused: %s", n->invalid,
	    n->err);
	pcore_free(&n->pc);
	free(n->msg);
	n->msg = NULL;
}

/* The forwarder answers LINK_KEY_REQs with bs_link_key. */
static void
node_pump(struct node *n)
{
	struct ipc_link_key_req q;
	struct ipc_link_key k;
	char err[128];

	for (; n->keyed < n->n && n->keyed < NMSG; n->keyed++) {
		if (!n->auto_key || ipc_get(&n->msg[n->keyed],
		    IPC_LINK_KEY_REQ, &q, sizeof(q)) != 0)
			continue;
		memset(&k, 0, sizeof(k));
		memcpy(k.peer_pk, q.peer_pk, BS_PK_LEN);
		k.ifindex = q.ifindex;
		ck_assert_int_eq(bs_link_key(k.key, &ids[n->who], q.peer_pk),
		    0);
		bs_link_keyid(k.key_id, k.key);
		ck_assert_int_eq(pcore_link_key(&n->pc, &k, err, sizeof(err)),
		    0);
	}
}

/* Index of the first message of type at or after from, or -1. */
static int
msg_find(const struct node *n, unsigned from, uint16_t type, void *obj,
    size_t size)
{
	unsigned i;

	for (i = from; i < n->n && i < NMSG; i++)
		if (n->msg[i].hdr.type == type)
			return obj == NULL || ipc_get(&n->msg[i], type, obj,
			    size) == 0 ? (int)i : -1;
	return -1;
}

static unsigned
msg_count(const struct node *n, unsigned from, uint16_t type)
{
	unsigned i, c = 0;

	for (i = from; i < n->n && i < NMSG; i++)
		c += n->msg[i].hdr.type == type;
	return c;
}

/* Signature work done so far by a node. */
static uint64_t
sig_work(const struct node *n)
{
	return n->pc.stat[IPC_STAT_SIG_VERIFIED] +
	    n->pc.stat[IPC_STAT_SIG_FAILED];
}

/* ---- frames ---------------------------------------------------------------------- */

struct frame {
	uint8_t buf[WIRE_OGM_MAX_LEN];
	size_t len;
};

static enum pcore_drop
feed_from(struct node *n, int from, const struct frame *fr)
{
	enum pcore_drop why;

	why = pcore_frame(&n->pc, IFX, macs[from], mac_bcast, fr->buf,
	    fr->len, now_ms);
	node_pump(n);
	return why;
}

static void
hello_build(struct frame *fr, int who, const uint8_t ifmac[6],
    uint32_t seqno, const struct wire_hello_neigh *nb, unsigned nn)
{
	struct wire_hello h = { .pk = ids[who].pk, .ifmac = ifmac,
	    .interval_ms = 1000, .epoch = EPOCH, .seqno = seqno,
	    .num_neigh = nn };

	if (nn > 0)
		memcpy(h.neigh, nb, nn * sizeof(*nb));
	fr->len = t_hello(fr->buf, sizeof(fr->buf), &h, &ids[who]);
}

/*
 * A HELLO of who with one link tag, under the key who's forwarder shares
 * with `to` (node_pump hands the parser the same), or under a made-up key
 * (bogus), with the salt t_hello puts in who's signed HELLOs.
 */
static void
hello_tagged(struct frame *fr, int who, int to, uint32_t seqno,
    const struct wire_hello_neigh *nb, unsigned nn, int bogus)
{
	uint8_t salt[BS_LINKSALT_LEN], key[BS_LINKKEY_LEN], id[BS_KEYID_LEN];
	uint8_t tag[BS_TAG_LEN], sender[BS_ADDR_LEN];
	struct wire_hello h = { .pk = ids[who].pk, .ifmac = macs[who],
	    .interval_ms = 1000, .epoch = EPOCH, .seqno = seqno,
	    .num_neigh = nn, .tr = { .auth = WIRE_AUTH_MAC, .num_tags = 1 } };
	size_t len;

	if (nn > 0)
		memcpy(h.neigh, nb, nn * sizeof(*nb));
	t_salt(salt, ids[who].pk);
	h.salt = salt;
	ck_assert_int_eq(wire_hello_build(fr->buf, sizeof(fr->buf), &h, &len),
	    WIRE_OK);
	ck_assert_int_eq(bs_link_key(key, &ids[who], ids[to].pk), 0);
	if (bogus)
		key[0] ^= 1;
	bs_link_keyid(id, key);
	bs_mesh_addr(sender, ids[who].pk);
	bs_link_mac(tag, key, sender, (uint64_t)EPOCH << 32 | seqno, fr->buf,
	    len);
	ck_assert_int_eq(wire_tag_append(fr->buf, sizeof(fr->buf), &len, id,
	    tag), WIRE_OK);
	fr->len = len;
}

/* NEIGH messages of node n with exactly these flags. */
static unsigned
neigh_flagged(const struct node *n, uint8_t flags)
{
	struct ipc_neigh ng;
	unsigned i, c = 0;

	for (i = 0; i < n->n && i < NMSG; i++)
		if (n->msg[i].hdr.type == IPC_NEIGH &&
		    ipc_get(&n->msg[i], IPC_NEIGH, &ng, sizeof(ng)) == 0 &&
		    ng.flags == flags)
			c++;
	return c;
}

/* The HELLO node n's forwarder sends: its up neighbours and rx counts. */
static void
hello_of(struct frame *fr, struct node *n)
{
	struct wire_hello_neigh nb[16];
	unsigned i, k = 0;

	for (i = 0; i < NB_MAX && k < 16; i++)
		if (n->nb[i].up && n->nb[i].ifindex == IFX) {
			nb[k].addr = n->nb[i].addr;
			nb[k].rx_count = n->nb[i].rx;
			k++;
		}
	hello_build(fr, n->who, macs[n->who], ++n->hello_seqno, nb, k);
}

static enum pcore_drop
hello_to(struct node *from, struct node *to)
{
	struct frame fr;

	hello_of(&fr, from);
	return feed_from(to, from->who, &fr);
}

/*
 * rounds of HELLOs both ways, then one more from a, so that b also hears
 * a's count of b's last HELLO: 64 rounds make a perfect link (TQ 255).
 */
static void
link_up(struct node *a, struct node *b, int rounds)
{
	int i;

	for (i = 0; i < rounds; i++) {
		ck_assert_int_eq(hello_to(a, b), PCORE_ACCEPT);
		ck_assert_int_eq(hello_to(b, a), PCORE_ACCEPT);
	}
	ck_assert_int_eq(hello_to(a, b), PCORE_ACCEPT);
}

/* One OGM entry to build. */
struct ent {
	int orig;			/* identity index */
	uint32_t epoch, seqno;
	uint8_t ttl, tq, hops;
	const uint8_t *prev;		/* NULL: the originator's address */
	uint8_t seed[BS_CHAIN_LEN];	/* element = H^hops(seed) */
	const uint8_t *tvlv;
	size_t tvlv_len;
};

static void
ent_init(struct ent *e, int orig, uint32_t seqno, uint8_t hops)
{
	memset(e, 0, sizeof(*e));
	e->orig = orig;
	e->epoch = EPOCH;
	e->seqno = seqno;
	e->ttl = (uint8_t)(50 - hops);
	e->tq = routing_tq_ceiling(hops, 30);
	e->hops = hops;
	memset(e->seed, (int)(seqno * 7 + (unsigned)orig), sizeof(e->seed));
}


/* Up to 16 raw entries (mutable part + block) for one frame. */
struct agg {
	uint8_t raw[WIRE_OGM_MAX_ENTRIES][IPC_RELAY_MAX];
	size_t len[WIRE_OGM_MAX_ENTRIES];
	unsigned n;
};

static uint8_t *
agg_add_raw(struct agg *a, const uint8_t *raw, size_t len)
{
	ck_assert_uint_lt(a->n, WIRE_OGM_MAX_ENTRIES);
	ck_assert_uint_le(len, IPC_RELAY_MAX);
	memcpy(a->raw[a->n], raw, len);
	a->len[a->n] = len;
	return a->raw[a->n++];
}

/* The entry, signed by its originator, as a relay hands it on. */
static uint8_t *
agg_add(struct agg *a, const struct ent *e)
{
	uint8_t raw[IPC_RELAY_MAX];

	return agg_add_raw(a, raw, t_ogm_raw(raw, sizeof(raw),
	    &(struct t_ogm_entry){ .orig = &ids[e->orig], .epoch = e->epoch,
	    .seqno = e->seqno, .interval_ms = 1000, .chain_seed = e->seed,
	    .tvlv = e->tvlv, .tvlv_len = e->tvlv_len, .ttl = e->ttl,
	    .tq = e->tq, .hops = e->hops,
	    .prev_sender = e->prev != NULL ? e->prev : addrs[e->orig] }));
}

/*
 * A compact entry (batsec-protocol(7), "OGM CHAIN") naming orig: element
 * H^hops(e->seed), the address and e->seqno.
 */
static uint8_t *
agg_add_compact_as(struct agg *a, const struct ent *e,
    const uint8_t orig[static BS_ADDR_LEN])
{
	struct wire_ogm_mut m = { .kind = WIRE_OGM_COMPACT };
	uint8_t raw[WIRE_OGM_COMPACT_LEN], elem[BS_CHAIN_LEN];

	ck_assert_int_eq(bs_chain_iter(elem, e->seed, e->hops), 0);
	m.ttl = e->ttl;
	m.tq = e->tq;
	m.hops = e->hops;
	m.prev_sender = e->prev != NULL ? e->prev : addrs[e->orig];
	m.chain = elem;
	ck_assert_int_eq(wire_ogm_mut_put(raw, sizeof(raw), &m), WIRE_OK);
	ck_assert_int_eq(wire_ogm_compact_build(raw + WIRE_OGM_MUT_LEN,
	    orig, e->seqno), WIRE_OK);
	return agg_add_raw(a, raw, sizeof(raw));
}

/* A compact entry of e's originator. */
static uint8_t *
agg_add_compact(struct agg *a, const struct ent *e)
{
	return agg_add_compact_as(a, e, addrs[e->orig]);
}

/* How a frame is authenticated. */
struct auth {
	uint8_t type;			/* WIRE_AUTH_MAC or WIRE_AUTH_SIG */
	int tag_from, tag_to;		/* MAC: the link key of these two */
	int signer;			/* SIG: identity */
	int bad;			/* flip a bit of the tag / signature */
};

/* When set, MAC trailers are made with this OGM key instead. */
static const uint8_t *frame_key;

static void
frame_of(struct frame *fr, int sender, const struct agg *a,
    const struct auth *au, uint64_t counter)
{
	uint8_t keyid[BS_KEYID_LEN], tag[BS_TAG_LEN], sig[BS_SIG_LEN];
	struct wire_ogm_builder b;
	struct wire_ogm_mut m;
	const uint8_t *cov;
	size_t clen;
	unsigned i;

	ck_assert_int_eq(wire_ogm_begin(&b, fr->buf, sizeof(fr->buf),
	    addrs[sender]), WIRE_OK);
	for (i = 0; i < a->n; i++) {
		ck_assert_int_eq(wire_ogm_mut_get(a->raw[i], a->len[i], &m),
		    WIRE_OK);
		ck_assert_int_eq(wire_ogm_add(&b, &m, a->raw[i] +
		    WIRE_OGM_MUT_LEN, a->len[i] - WIRE_OGM_MUT_LEN), WIRE_OK);
	}
	ck_assert_int_eq(wire_ogm_trailer(&b, au->type,
	    au->type == WIRE_AUTH_MAC ? 1 : 0, counter, &cov, &clen), WIRE_OK);
	if (au->type == WIRE_AUTH_MAC) {
		if (frame_key != NULL) {
			bs_link_keyid(keyid, frame_key);
			bs_link_mac(tag, frame_key, addrs[sender], counter,
			    cov, clen);
		} else
			t_link_tag(keyid, tag, &ids[au->tag_from],
			    ids[au->tag_to].pk, addrs[sender], counter, cov,
			    clen);
		tag[0] ^= (uint8_t)(au->bad ? 1 : 0);
		ck_assert_int_eq(wire_ogm_add_tag(&b, keyid, tag), WIRE_OK);
	} else {
		ck_assert_int_eq(bs_sign(sig, BS_DOM_LINK, cov, clen,
		    &ids[au->signer]), 0);
		sig[5] ^= (uint8_t)(au->bad ? 1 : 0);
		ck_assert_int_eq(wire_ogm_add_sig(&b, sig), WIRE_OK);
	}
	ck_assert_int_eq(wire_ogm_finish(&b, &fr->len), WIRE_OK);
}

/* from sends the aggregate to `to`, tagged with their link key. */
static enum pcore_drop
send_agg(struct node *from, struct node *to, const struct agg *a)
{
	struct auth au = { WIRE_AUTH_MAC, from->who, to->who, 0, 0 };
	struct frame fr;

	frame_of(&fr, from->who, a, &au, ((uint64_t)EPOCH << 32) |
	    ++from->counter);
	return feed_from(to, from->who, &fr);
}

/* One entry from one node to another. */
static enum pcore_drop
send_ent(struct node *from, struct node *to, const struct ent *e)
{
	static struct agg a;

	a.n = 0;
	agg_add(&a, e);
	return send_agg(from, to, &a);
}

/* The node's own OGM, as its forwarder originates it. */
static enum pcore_drop
send_own(struct node *from, struct node *to)
{
	struct ent e;

	ent_init(&e, from->who, ++from->ogm_seqno, 0);
	return send_ent(from, to, &e);
}

/* ---- neighbours ------------------------------------------------------------------ */

/* A first HELLO: NEIGH UP (not bidirectional yet) and LINK_KEY_REQ. */
START_TEST(test_hello_first)
{
	struct ipc_link_key_req q;
	struct ipc_neigh ng;
	struct frame fr;
	int i;

	node_up(&X, I_X, IPC_LOG_INFO);
	X.auto_key = 0;
	hello_build(&fr, I_P, macs[I_P], 42, NULL, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_FRAMES], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_HELLO], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_VERIFIED], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_MALFORMED], 0);
	i = msg_find(&X, 0, IPC_NEIGH, &ng, sizeof(ng));
	ck_assert_int_ge(i, 0);
	ck_assert_mem_eq(ng.pk, ids[I_P].pk, BS_PK_LEN);
	ck_assert_mem_eq(ng.addr, addrs[I_P], 6);
	ck_assert_mem_eq(ng.mac, macs[I_P], 6);
	ck_assert_uint_eq(ng.ifindex, IFX);
	ck_assert_uint_eq(ng.state, IPC_NEIGH_UP);
	ck_assert_uint_eq(ng.tq, 0);		/* P did not list us */
	/* 1 of 1 heard, reported as 64 of 64 (warm-up scaling). */
	ck_assert_uint_eq(ng.rx_count, 64);
	/* The key request follows the UP (the forwarder needs it up). */
	ck_assert_int_gt(msg_find(&X, 0, IPC_LINK_KEY_REQ, &q, sizeof(q)), i);
	ck_assert_mem_eq(q.peer_pk, ids[I_P].pk, BS_PK_LEN);
	ck_assert_uint_eq(q.ifindex, IFX);
	ck_assert_uint_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->key_state,
	    PCORE_KEY_REQUESTED);
	/* The same HELLO again is a replay, refused before the signature. */
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_REPLAY);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_VERIFIED], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_REPLAY], 1);
	/* P does not list us: after the UP, an UP asking our forwarder to
	 * sign a HELLO (P cannot check tags under a key it lacks). */
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_SIGN), 1);
	/* A newer one changes rx_count: UP again; the key is not asked
	 * for twice while the request is fresh. */
	hello_build(&fr, I_P, macs[I_P], 43, NULL, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(neigh_flagged(&X, 0), 2);
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_SIGN), 2);
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 1);
	/* Unanswered for PCORE_KEY_RETRY_MS: asked again. */
	now_ms += PCORE_KEY_RETRY_MS;
	hello_build(&fr, I_P, macs[I_P], 44, NULL, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 2);
	node_down(&X);
}
END_TEST

/* Two instances exchanging HELLOs through the test become bidirectional
 * neighbours with perfect links and the same link key. */
START_TEST(test_neigh_discovery)
{
	struct routing_neigh_info ni;
	struct ipc_neigh ng;
	uint8_t key[BS_LINKKEY_LEN];
	const struct pcore_neigh *pn;
	int i, first_bidir = -1;
	unsigned k;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	for (i = 0; i < 64; i++) {
		ck_assert_int_eq(hello_to(&X, &P), PCORE_ACCEPT);
		ck_assert_int_eq(hello_to(&P, &X), PCORE_ACCEPT);
		if (first_bidir < 0 && X.nb[0].tq > 0)
			first_bidir = i;
	}
	/* X reports P's HELLOs out of the ones it could have heard: every
	 * one, though X has not heard P's 64th yet. */
	ck_assert_uint_eq(P.nb[0].tq, 255);
	ck_assert_int_eq(hello_to(&X, &P), PCORE_ACCEPT);
	/*
	 * Bidirectional from the first HELLO that echoes us (the warm-up
	 * scaling of batsec-protocol(7)), perfect after 64.
	 */
	ck_assert_int_eq(first_bidir, 0);
	ck_assert_int_eq(routing_neigh_get(X.pc.rt, IFX, addrs[I_P], &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.bidirectional, 1);
	ck_assert_uint_eq(ni.link_tq, 255);
	/* The forwarder's view (the last NEIGH UP of each side). */
	ck_assert_uint_eq(X.nb[0].tq, 255);
	ck_assert_uint_eq(X.nb[0].rx, 64);
	ck_assert_uint_eq(P.nb[0].tq, 255);
	ck_assert_uint_eq(P.nb[0].rx, 64);
	for (k = 0; k < X.n; k++)
		if (ipc_get(&X.msg[k], IPC_NEIGH, &ng, sizeof(ng)) == 0)
			ck_assert_uint_eq(ng.state, IPC_NEIGH_UP);
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 1);
	ck_assert_uint_eq(msg_count(&P, 0, IPC_LINK_KEY_REQ), 1);
	/* Both ends hold K(X, P) from their forwarder's bs_link_key. */
	ck_assert_int_eq(bs_link_key(key, &ids[I_P], ids[I_X].pk), 0);
	pn = pcore_neigh_find(&X.pc, IFX, addrs[I_P]);
	ck_assert_uint_eq(pn->key_state, PCORE_KEY_OK);
	ck_assert_mem_eq(pn->key, key, BS_LINKKEY_LEN);
	pn = pcore_neigh_find(&P.pc, IFX, addrs[I_X]);
	ck_assert_uint_eq(pn->key_state, PCORE_KEY_OK);
	ck_assert_mem_eq(pn->key, key, BS_LINKKEY_LEN);
	ck_assert_uint_eq(X.stale + P.stale, 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* The forwarder hands X the OGM key key for neighbour P. */
static void
give_key(const uint8_t key[BS_LINKKEY_LEN])
{
	struct ipc_link_key k;
	char err[128];

	memset(&k, 0, sizeof(k));
	memcpy(k.peer_pk, ids[I_P].pk, BS_PK_LEN);
	k.ifindex = IFX;
	memcpy(k.key, key, BS_LINKKEY_LEN);
	bs_link_keyid(k.key_id, k.key);
	ck_assert_int_eq(pcore_link_key(&X.pc, &k, err, sizeof(err)), 0);
}

/* P's own OGM to X, tagged under key. */
static enum pcore_drop
ogm_under(const uint8_t key[BS_LINKKEY_LEN])
{
	enum pcore_drop why;

	frame_key = key;
	why = send_own(&P, &X);
	frame_key = NULL;
	return why;
}

/*
 * Link salts (#20 item 3): NEIGH carries the salt of the neighbour's
 * HELLOs; a new salt is told at once and the key asked for again while
 * the old one stays in use; after the new key comes, frames under the
 * old one pass until one under the new one verified, then no more.
 */
START_TEST(test_link_salt_rekey)
{
	uint8_t s1[BS_LINKSALT_LEN], s2[BS_LINKSALT_LEN];
	uint8_t k1[BS_LINKKEY_LEN], k2[BS_LINKKEY_LEN];
	struct wire_hello h;
	struct ipc_neigh ng;
	struct frame fr;
	int i, j;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	X.auto_key = 0;
	memset(s1, 0x11, sizeof(s1));
	memset(s2, 0x22, sizeof(s2));
	memset(k1, 0xa1, sizeof(k1));
	memset(k2, 0xb2, sizeof(k2));
	memset(&h, 0, sizeof(h));
	h.pk = ids[I_P].pk;
	h.ifmac = macs[I_P];
	h.interval_ms = 1000;
	h.epoch = EPOCH;
	h.seqno = 1;
	h.salt = s1;
	fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_P]);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_int_ge(i = msg_find(&X, 0, IPC_NEIGH, &ng, sizeof(ng)), 0);
	ck_assert_uint_eq(ng.state, IPC_NEIGH_UP);
	ck_assert_mem_eq(ng.salt, s1, sizeof(s1));
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 1);
	give_key(k1);
	ck_assert_int_eq(ogm_under(k1), PCORE_ACCEPT);
	/* The same salt again: nothing to tell, nothing to ask. */
	h.seqno = 2;
	fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_P]);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 1);
	/* A new salt: NEIGH UP with it and LINK_KEY_REQ at once. */
	j = (int)X.n;
	h.seqno = 3;
	h.salt = s2;
	fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_P]);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_int_ge(msg_find(&X, (unsigned)j, IPC_NEIGH, &ng, sizeof(ng)),
	    0);
	ck_assert_mem_eq(ng.salt, s2, sizeof(s2));
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 2);
	/* Until the answer comes, the key we hold stays in use. */
	ck_assert_int_eq(ogm_under(k1), PCORE_ACCEPT);
	give_key(k2);
	/* The overlap: the old key, then the new one. */
	ck_assert_int_eq(ogm_under(k1), PCORE_ACCEPT);
	ck_assert_int_eq(ogm_under(k2), PCORE_ACCEPT);
	/* The neighbour moved to the new key: the old one is gone. */
	ck_assert_int_eq(ogm_under(k1), PCORE_DROP_LINK_AUTH);
	ck_assert_int_eq(ogm_under(k2), PCORE_ACCEPT);
	ck_assert_uint_eq(X.invalid, 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

START_TEST(test_link_key_answers)
{
	struct ipc_link_key k;
	struct frame fr;
	char err[128];

	node_up(&X, I_X, IPC_LOG_INFO);
	X.auto_key = 0;
	hello_build(&fr, I_P, macs[I_P], 1, NULL, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	memset(&k, 0, sizeof(k));
	memcpy(k.peer_pk, ids[I_P].pk, BS_PK_LEN);
	k.ifindex = IFX;
	ck_assert_int_eq(bs_link_key(k.key, &ids[I_X], ids[I_P].pk), 0);
	/* A key id that is not the key's is a forwarder bug. */
	memset(k.key_id, 0xee, sizeof(k.key_id));
	ck_assert_int_eq(pcore_link_key(&X.pc, &k, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "key id"));
	ck_assert_uint_ne(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->key_state,
	    PCORE_KEY_OK);
	/* For a neighbour we do not have (other interface): ignored. */
	bs_link_keyid(k.key_id, k.key);
	k.ifindex = IFX + 1;
	ck_assert_int_eq(pcore_link_key(&X.pc, &k, err, sizeof(err)), 0);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX + 1, addrs[I_P]));
	/* Refused: remembered, no key. */
	memset(&k, 0, sizeof(k));
	memcpy(k.peer_pk, ids[I_P].pk, BS_PK_LEN);
	k.ifindex = IFX;
	k.status = IPC_LINK_KEY_REFUSED;
	ck_assert_int_eq(pcore_link_key(&X.pc, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->key_state,
	    PCORE_KEY_REFUSED);
	node_down(&X);
}
END_TEST

/* Mode open lets strangers in; allowlist refuses them before any
 * signature work and they never enter a table. */
START_TEST(test_hello_policy)
{
	struct polspec open = pol_default;
	struct frame fr;

	node_up(&X, I_X, IPC_LOG_INFO);
	hello_build(&fr, I_U, macs[I_U], 1, NULL, 0);
	ck_assert_int_eq(feed_from(&X, I_U, &fr), PCORE_DROP_POLICY);
	ck_assert_uint_eq(sig_work(&X), 0);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_POLICY], 1);
	ck_assert_uint_eq(routing_neigh_count(X.pc.rt), 0);
	ck_assert_uint_eq(X.n, 0);
	open.mode = BS_POLICY_OPEN;
	node_policy(&X, &open, 2);
	ck_assert_int_eq(feed_from(&X, I_U, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(routing_neigh_count(X.pc.rt), 1);
	node_down(&X);
}
END_TEST

/* ---- routes, relays, the 3-node chain ------------------------------------------ */

START_TEST(test_ogm_route)
{
	struct ipc_route r;
	struct ipc_relay rl;
	unsigned mark;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	link_up(&X, &P, 64);
	mark = X.n;
	ck_assert_int_eq(send_own(&P, &X), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.orig_pk, ids[I_P].pk, BS_PK_LEN);
	ck_assert_mem_eq(r.orig_addr, addrs[I_P], 6);
	ck_assert_mem_eq(r.nexthop, addrs[I_P], 6);
	ck_assert_uint_eq(r.ifindex, IFX);
	ck_assert_uint_eq(r.tq, 255);
	ck_assert_uint_eq(r.hops, 1);
	ck_assert_uint_eq(r.epoch, EPOCH);
	/* X relays it: P is its own best next hop. */
	ck_assert_int_ge(msg_find(&X, mark, IPC_RELAY, &rl, sizeof(rl)), 0);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_RELAYED], 1);
	/* The next seqno refreshes the unchanged route. */
	mark = X.n;
	ck_assert_int_eq(send_own(&P, &X), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_ADD), 1);
	ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_uint_eq(r.tq, 255);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_ACCEPTED], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_OGM], 2);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* The first IPC_RELAY of node n after mark, as a raw entry. */
static void
relay_of(const struct node *n, unsigned mark, struct ipc_relay *rl)
{
	ck_assert_int_ge(msg_find(n, mark, IPC_RELAY, rl, sizeof(*rl)), 0);
	ck_assert_uint_eq(rl->ifindex, IPC_IFINDEX_ALL);
}

/*
 * O - P - X in a line (O and X do not hear each other): O's OGM relayed
 * by P reaches X with hops 1 and the TQ after one hop penalty, and X
 * routes to O via P.
 */
START_TEST(test_chain3)
{
	static struct node O;
	static struct agg a;
	struct ipc_relay rl;
	struct ipc_route r;
	unsigned mark;

	node_up(&O, I_O, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&X, I_X, IPC_LOG_INFO);
	link_up(&O, &P, 64);
	link_up(&P, &X, 64);
	mark = P.n;
	ck_assert_int_eq(send_own(&O, &P), PCORE_ACCEPT);
	ck_assert_int_ge(msg_find(&P, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.nexthop, addrs[I_O], 6);
	relay_of(&P, mark, &rl);
	ck_assert_uint_eq(rl.entry[0], 49);		/* ttl */
	ck_assert_uint_eq(rl.entry[1], 225);		/* tq after penalty */
	ck_assert_uint_eq(rl.entry[2], 1);		/* hops */
	ck_assert_mem_eq(rl.entry + 4, addrs[I_O], 6);	/* got it from O */
	/* P's forwarder sends it on; X hears it from P. */
	a.n = 0;
	agg_add_raw(&a, rl.entry, rl.len);
	mark = X.n;
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.orig_addr, addrs[I_O], 6);
	ck_assert_mem_eq(r.nexthop, addrs[I_P], 6);
	ck_assert_uint_eq(r.ifindex, IFX);
	ck_assert_uint_eq(r.tq, 225);
	ck_assert_uint_eq(r.hops, 2);
	/* X relays it one hop further. */
	relay_of(&X, mark, &rl);
	ck_assert_uint_eq(rl.entry[1], 198);
	ck_assert_uint_eq(rl.entry[2], 2);
	ck_assert_mem_eq(rl.entry + 4, addrs[I_P], 6);
	/* X's copy echoed back by P: P refuses it (prev_sender is P). */
	a.n = 0;
	agg_add_raw(&a, rl.entry, rl.len);
	ck_assert_int_eq(send_agg(&X, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_DUP], 1);
	node_down(&O);
	node_down(&P);
	node_down(&X);
}
END_TEST

/*
 * O - P - X in a line, O with a new OGM chain (ch).  New neighbours get
 * full entries handed on for a while (test_desc_handon): not from P here.
 */
static void
opx_up(struct node *o, struct bs_ogmchain *ch)
{
	node_up(o, I_O, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&X, I_X, IPC_LOG_INFO);
	link_up(o, &P, 64);
	link_up(&P, &X, 64);
	P.pc.upgrade_until_ms = 0;
	bs_ogmchain_new(ch, 1);
}

/*
 * Compact entries (batsec-protocol(7), "OGM CHAIN"), O - P - X in a
 * line: P takes O's compact entries once it verified a full one, each
 * proven by the chain with no signature checked, and relays them
 * compact; X, which has not seen a full one yet, waits for it
 * (NODESC), then takes them too.  Wrong elements, fewer hops than
 * relayed, a seqno too far ahead, an unknown originator and a key the
 * policy no longer admits are refused; a gap of a few seqnos is
 * walked; a new epoch's chain is anchored by its first full entry.
 */
START_TEST(test_compact_chain)
{
	static struct node O;
	static struct agg a;
	static struct bs_ogmchain ch;
	struct polspec ps = pol_default;
	uint8_t anchor[BS_CHAIN_LEN];
	struct ipc_relay rl;
	struct ipc_route r;
	struct ent e;
	uint64_t sigs, steps;
	unsigned mark;

	opx_up(&O, &ch);
	/* Before any full entry: nothing to check it against. */
	ent_init(&e, I_O, 1, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 1, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_NODESC], 1);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DROP_NO_CHAIN], 1);
	/* The full entry of seqno 1. */
	a.n = 0;
	agg_add(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_ACCEPT], 1);
	/* Compact seqno 2: a route refresh, no signature, relayed. */
	sigs = sig_work(&P);
	steps = P.pc.stat[IPC_STAT_CHAIN_STEPS];
	ent_init(&e, I_O, 2, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 2, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	mark = P.n;
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_OGM_COMPACT], 1);
	ck_assert_uint_eq(sig_work(&P), sigs);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_CHAIN_STEPS] - steps, BS_MAXHOPS);
	ck_assert_int_ge(msg_find(&P, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.orig_addr, addrs[I_O], 6);
	relay_of(&P, mark, &rl);
	ck_assert_uint_eq(rl.len, WIRE_OGM_COMPACT_LEN);
	ck_assert_uint_eq(rl.entry[2], 1);			/* hops */
	ck_assert_uint_eq(rl.entry[3], WIRE_OGM_COMPACT);	/* kind */
	ck_assert_mem_eq(rl.entry + 4, addrs[I_O], 6);
	/* X has no full entry of O: it waits. */
	a.n = 0;
	agg_add_raw(&a, rl.entry, rl.len);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_NODESC], 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 0);
	/* Refused at P: a made-up element, and an honest one claimed with
	 * fewer hops than it has (as a relay that drops a hop would). */
	ent_init(&e, I_O, 3, 0);
	memset(e.seed, 0x5a, sizeof(e.seed));
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_CHAIN], 1);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DROP_CHAIN], 1);
	/* Q relays seqno 3 at hops 1 but says hops 0... only O may send
	 * hops 0, so it claims hops 1 with the hops-2 element instead. */
	node_up(&Q, I_Q, IPC_LOG_INFO);
	link_up(&Q, &P, 64);
	P.pc.upgrade_until_ms = 0;
	ent_init(&e, I_O, 3, 1);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 3, e.seed, anchor), 0);
	ck_assert_int_eq(bs_chain_iter(e.seed, e.seed, 1), 0);
	e.prev = addrs[I_O];
	a.n = 0;
	agg_add_compact(&a, &e);	/* element H^2, hops 1 */
	ck_assert_int_eq(send_agg(&Q, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_CHAIN], 2);
	/* Seqno 6 after a gap (3..5 lost): walked and accepted. */
	ent_init(&e, I_O, 6, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 6, e.seed, anchor), 0);
	steps = P.pc.stat[IPC_STAT_CHAIN_STEPS];
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_ACCEPT], 3);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_CHAIN_STEPS] - steps,
	    4 * BS_MAXHOPS);
	/* Seqno 6 + 70: beyond the walk P does (PCORE_CHAIN_MAX, 69
	 * seqnos). */
	ent_init(&e, I_O, 6 + 70, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 6 + 70, e.seed, anchor), 0);
	steps = P.pc.stat[IPC_STAT_CHAIN_STEPS];
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_NODESC], 2);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_CHAIN_STEPS], steps);
	/* ... so P lost O's chain: it asks its forwarder to have the
	 * neighbours hand on full entries (the fresh flag), naming O, the
	 * neighbour that relayed it; once per PCORE_DESC_WANT_OGMS. */
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_WANTED], 1);
	ck_assert_uint_eq(neigh_flagged(&P, IPC_NEIGH_F_DESC), 1);
	{
		struct ipc_neigh nd;
		int k = -1;
		unsigned i;

		for (i = 0; i < P.n && i < NMSG; i++)
			if (P.msg[i].hdr.type == IPC_NEIGH &&
			    ipc_get(&P.msg[i], IPC_NEIGH, &nd,
			    sizeof(nd)) == 0 && nd.flags == IPC_NEIGH_F_DESC)
				k = (int)i;
		ck_assert_int_ge(k, 0);
		ck_assert_mem_eq(nd.addr, addrs[I_O], BS_ADDR_LEN);
		ck_assert_uint_eq(nd.state, IPC_NEIGH_UP);
	}
	ent_init(&e, I_O, 6 + 71, 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_WANTED], 1);
	/* An originator P never heard of: it asks for that one's full
	 * entry (test_desc_want), not for everything. */
	ent_init(&e, I_U, 7, 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_NODESC], 4);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_WANTED], 1);
	/* The full entry of seqno 7 reaches X through P; then X takes
	 * compact ones relayed by P. */
	ent_init(&e, I_O, 7, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 7, e.seed, anchor), 0);
	a.n = 0;
	agg_add(&a, &e);
	mark = P.n;
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	relay_of(&P, mark, &rl);
	a.n = 0;
	agg_add_raw(&a, rl.entry, rl.len);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	ent_init(&e, I_O, 8, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 8, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	mark = P.n;
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	relay_of(&P, mark, &rl);
	a.n = 0;
	agg_add_raw(&a, rl.entry, rl.len);
	mark = X.n;
	sigs = sig_work(&X);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_COMPACT], 1);
	ck_assert_uint_eq(sig_work(&X), sigs);
	ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.nexthop, addrs[I_P], 6);
	ck_assert_uint_eq(r.hops, 2);
	/* The policy no longer trusts O: its compact entries go too. */
	ps.trust &= ~(1u << I_O);
	node_policy(&P, &ps, 2);
	ent_init(&e, I_O, 9, 1);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 9, e.seed, anchor), 0);
	e.prev = addrs[I_O];
	steps = P.pc.entry[PCORE_E_POLICY] + P.pc.entry[PCORE_E_NODESC];
	a.n = 0;
	agg_add_compact(&a, &e);	/* relayed by Q */
	ck_assert_int_eq(send_agg(&Q, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_OGM_COMPACT], 3);
	ck_assert_uint_eq(P.pc.entry[PCORE_E_POLICY] +
	    P.pc.entry[PCORE_E_NODESC], steps + 1);
	node_policy(&P, &pol_default, 3);
	link_up(&O, &P, 64);		/* P removed the neighbour too */
	P.pc.upgrade_until_ms = 0;
	/* O restarts: a new epoch and a new chain, anchored again by a
	 * full entry of the new epoch. */
	ent_init(&e, I_O, 1, 0);
	e.epoch = EPOCH + 1;
	bs_ogmchain_new(&ch, 1);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 1, e.seed, anchor), 0);
	a.n = 0;
	agg_add(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ent_init(&e, I_O, 2, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 2, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	steps = P.pc.stat[IPC_STAT_OGM_COMPACT];
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_OGM_COMPACT], steps + 1);
	node_down(&O);
	node_down(&P);
	node_down(&Q);
	node_down(&X);
}
END_TEST

/*
 * O - P - X, P's interface IFX half duplex with hop-penalty 100 and a
 * second interface IFX + 1: P's route to O has TQ 255 * 155 / 255 = 155;
 * the relay goes out as one message per up interface, 155 * 225 / 255 =
 * 136 on IFX + 1 and 136 * 225 / 255 = 120 back out on IFX.
 */
START_TEST(test_relay_iface_penalties)
{
	static struct node O;
	struct ipc_relay rl;
	struct ipc_route r;
	struct ipc_iface f;
	char err[128];
	unsigned mark;
	int i, seen = 0;

	node_up(&O, I_O, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	iface_of(&f, I_P, IFX, IPC_IFACE_UP);
	f.hop_penalty = 100;
	f.half_duplex = 1;
	ck_assert_int_eq(pcore_iface(&P.pc, &f, err, sizeof(err)), 0);
	iface_of(&f, I_P, IFX + 1, IPC_IFACE_UP);
	ck_assert_int_eq(ipc_ctx_iface_add(&P.ctx, IFX + 1), 0);
	ck_assert_int_eq(pcore_iface(&P.pc, &f, err, sizeof(err)), 0);
	link_up(&O, &P, 64);
	mark = P.n;
	ck_assert_int_eq(send_own(&O, &P), PCORE_ACCEPT);
	ck_assert_int_ge(msg_find(&P, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_uint_eq(r.tq, 155);
	ck_assert_uint_eq(msg_count(&P, mark, IPC_RELAY), 2);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_OGM_RELAYED], 1);
	for (i = (int)mark; (i = msg_find(&P, (unsigned)i, IPC_RELAY, &rl,
	    sizeof(rl))) >= 0; i++) {
		ck_assert_uint_eq(rl.entry[1], rl.ifindex == IFX ? 120 : 136);
		seen |= rl.ifindex == IFX ? 1 : rl.ifindex == IFX + 1 ? 2 : 4;
	}
	ck_assert_int_eq(seen, 3);
	node_down(&O);
	node_down(&P);
}
END_TEST

/*
 * O heard by X through P and through Q: after the next refresh of the
 * route (via P, whose copy came first), IPC_ROUTE_ALT lists Q.
 */
START_TEST(test_route_alt)
{
	static struct node O;
	static struct agg a;
	struct ipc_route_alt alt;
	struct ipc_relay rl;
	struct ipc_route r;
	unsigned mark, s;

	node_up(&O, I_O, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&Q, I_Q, IPC_LOG_INFO);
	node_up(&X, I_X, IPC_LOG_INFO);
	link_up(&O, &P, 64);
	link_up(&O, &Q, 64);
	link_up(&P, &X, 64);
	link_up(&Q, &X, 64);
	for (s = 0; s < 2; s++) {
		mark = P.n;
		ck_assert_int_eq(send_own(&O, &P), PCORE_ACCEPT);
		relay_of(&P, mark, &rl);
		a.n = 0;
		agg_add_raw(&a, rl.entry, rl.len);
		mark = X.n;
		ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
		ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r,
		    sizeof(r)), 0);
		ck_assert_mem_eq(r.nexthop, addrs[I_P], 6);
		ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ALT, &alt,
		    sizeof(alt)), 0);
		ck_assert_mem_eq(alt.orig_addr, addrs[I_O], 6);
		/* Q is a candidate from its first copy on. */
		ck_assert_uint_eq(alt.count, s == 0 ? 0 : 1);
		mark = Q.n;
		ck_assert_int_eq(send_own(&O, &Q), PCORE_ACCEPT);
		relay_of(&Q, mark, &rl);
		a.n = 0;
		agg_add_raw(&a, rl.entry, rl.len);
		ck_assert_int_eq(send_agg(&Q, &X, &a), PCORE_ACCEPT);
	}
	ck_assert_mem_eq(alt.c[0].nexthop, addrs[I_Q], 6);
	ck_assert_uint_eq(alt.c[0].ifindex, IFX);
	ck_assert_uint_eq(alt.c[0].tq, 225);
	ck_assert_uint_eq(alt.c[0].hops, 2);
	node_down(&O);
	node_down(&P);
	node_down(&Q);
	node_down(&X);
}
END_TEST

/* A relay: mutable part rewritten, chain stepped, signed block intact. */
START_TEST(test_relay_contents)
{
	static struct agg a;
	struct ipc_relay rl;
	struct wire_ogm_entry *we;
	static struct wire_ogm o;
	struct frame fr;
	struct auth au = { WIRE_AUTH_MAC, I_X, I_Q, 0, 0 };
	uint8_t want[BS_CHAIN_LEN], sent[IPC_RELAY_MAX];
	const uint8_t *raw;
	struct ent e;
	size_t sent_len;
	unsigned mark;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	link_up(&X, &P, 64);
	ent_init(&e, I_O, 9, 1);	/* O's entry as P relays it */
	e.tq = 200;
	a.n = 0;
	raw = agg_add(&a, &e);
	sent_len = a.len[0];
	memcpy(sent, raw, sent_len);
	mark = X.n;
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	relay_of(&X, mark, &rl);
	ck_assert_uint_eq(rl.len, sent_len);
	/* Wrap it in a frame to read it with the codec. */
	a.n = 0;
	agg_add_raw(&a, rl.entry, rl.len);
	frame_of(&fr, I_X, &a, &au, 1);
	ck_assert_int_eq(wire_ogm_parse(fr.buf, fr.len, &o), WIRE_OK);
	we = &o.e[0];
	ck_assert_uint_eq(we->mut.ttl, e.ttl - 1);
	ck_assert_uint_eq(we->mut.tq, routing_tq_hop(200, 30));
	ck_assert_uint_eq(we->mut.hops, 2);
	ck_assert_mem_eq(we->mut.prev_sender, addrs[I_P], 6);
	ck_assert_int_eq(bs_chain_iter(want, e.seed, 2), 0);
	ck_assert_mem_eq(we->mut.chain, want, BS_CHAIN_LEN);
	ck_assert_int_eq(bs_chain_verify(we->sgn.anchor, we->mut.chain, 2), 0);
	/* The signed block is copied byte for byte and still verifies. */
	ck_assert_mem_eq(rl.entry + WIRE_OGM_MUT_LEN, sent + WIRE_OGM_MUT_LEN,
	    sent_len - WIRE_OGM_MUT_LEN);
	ck_assert_int_eq(bs_verify(we->sig, BS_DOM_OGM, we->signed_ptr,
	    we->signed_len, ids[I_O].pk), 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* The same OGM via a second neighbour is verified once; a copy with a
 * good signature on other signed bytes is not taken from the cache. */
START_TEST(test_sig_cache)
{
	static struct agg a;
	struct ent e;
	uint8_t *raw;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&Q, I_Q, IPC_LOG_INFO);
	link_up(&X, &P, 64);
	link_up(&X, &Q, 64);
	ent_init(&e, I_O, 77, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	ck_assert_uint_eq(sig_work(&X), 128 + 1);	/* HELLOs + entry */
	/* The interval is signed: same signature, other bytes. */
	a.n = 0;
	raw = agg_add(&a, &e);
	raw[WIRE_OGM_MUT_LEN + 42 + 1] ^= 1;	/* the interval */
	ck_assert_int_eq(send_agg(&Q, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_SIG], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_FAILED], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_CACHE_HIT], 0);
	/* The genuine copy via Q: accepted from the cache. */
	ck_assert_int_eq(send_ent(&Q, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_CACHE_HIT], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_VERIFIED], 128 + 1);
	node_down(&X);
	node_down(&P);
	node_down(&Q);
}
END_TEST

/* ---- every drop reason --------------------------------------------------------- */

/* X and P perfect neighbours (X's key answer withheld when !key). */
static void
pair_up(int key)
{
	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	X.auto_key = key;
	link_up(&X, &P, 64);
}

static void
own_agg(struct agg *a, struct node *n)
{
	struct ent e;

	a->n = 0;
	ent_init(&e, n->who, ++n->ogm_seqno, 0);
	agg_add(a, &e);
}

enum fcase {
	F_UNKNOWN_SENDER, F_WRONG_MAC, F_NO_KEY, F_BAD_TAG, F_OTHER_KEYID,
	F_BAD_LINK_SIG, F_LINK_SIG_OTHER, F_LINK_SIG_OK, F_REPLAY_SAME,
	F_REPLAY_LOWER, F_HELLO_SIG, F_OWN_SENDER,
};

static const struct {
	enum fcase c;
	enum pcore_drop want;
	enum ipc_stat_id stat;		/* counted once more */
	unsigned sig_work;		/* signature checks it cost */
} fcases[] = {
	{ F_UNKNOWN_SENDER, PCORE_DROP_NOT_NEIGH, IPC_STAT_DROP_NOT_NEIGH, 0 },
	{ F_WRONG_MAC, PCORE_DROP_NOT_NEIGH, IPC_STAT_DROP_NOT_NEIGH, 0 },
	{ F_NO_KEY, PCORE_DROP_NO_LINK_KEY, IPC_STAT_DROP_NO_LINK_KEY, 0 },
	{ F_BAD_TAG, PCORE_DROP_LINK_AUTH, IPC_STAT_DROP_LINK_AUTH, 0 },
	{ F_OTHER_KEYID, PCORE_DROP_LINK_AUTH, IPC_STAT_DROP_LINK_AUTH, 0 },
	{ F_BAD_LINK_SIG, PCORE_DROP_LINK_AUTH, IPC_STAT_DROP_LINK_AUTH, 1 },
	{ F_LINK_SIG_OTHER, PCORE_DROP_LINK_AUTH, IPC_STAT_DROP_LINK_AUTH, 1 },
	{ F_LINK_SIG_OK, PCORE_ACCEPT, IPC_STAT_OGM_ACCEPTED, 2 },
	{ F_REPLAY_SAME, PCORE_DROP_REPLAY, IPC_STAT_DROP_REPLAY, 0 },
	{ F_REPLAY_LOWER, PCORE_DROP_REPLAY, IPC_STAT_DROP_REPLAY, 0 },
	{ F_HELLO_SIG, PCORE_DROP_SIG, IPC_STAT_SIG_FAILED, 1 },
	{ F_OWN_SENDER, PCORE_DROP_OWN, IPC_STAT_DROP_OWN, 0 },
};
#define N_FCASES	((int)(sizeof(fcases) / sizeof(fcases[0])))

/* Build case c's frame into fr (sending any frame that must go first). */
static int
fcase_frame(enum fcase c, struct frame *fr)
{
	static struct agg a;
	struct auth au = { WIRE_AUTH_MAC, I_P, I_X, 0, 0 };
	int sender = I_P, src = I_P;
	uint64_t counter = 1000;

	own_agg(&a, &P);
	switch (c) {
	case F_UNKNOWN_SENDER:
		sender = src = au.tag_from = I_Q;
		break;
	case F_WRONG_MAC:
		src = I_Q;
		break;
	case F_BAD_TAG:
		au.bad = 1;
		break;
	case F_OTHER_KEYID:
		au.tag_to = I_Q;
		break;
	case F_BAD_LINK_SIG:
	case F_LINK_SIG_OTHER:
	case F_LINK_SIG_OK:
		au.type = WIRE_AUTH_SIG;
		au.signer = c == F_LINK_SIG_OTHER ? I_Q : I_P;
		au.bad = c == F_BAD_LINK_SIG;
		break;
	case F_REPLAY_SAME:
	case F_REPLAY_LOWER:
		frame_of(fr, sender, &a, &au, counter);
		ck_assert_int_eq(feed_from(&X, src, fr), PCORE_ACCEPT);
		if (c == F_REPLAY_LOWER) {
			own_agg(&a, &P);
			counter--;
		}
		break;
	case F_HELLO_SIG:
		hello_of(fr, &P);
		fr->buf[fr->len - 1] ^= 1;
		return src;
	case F_OWN_SENDER:
		sender = I_X;
		break;
	case F_NO_KEY:
		break;
	}
	frame_of(fr, sender, &a, &au, counter);
	return src;
}

START_TEST(test_frame_drops)
{
	static struct frame fr;
	enum pcore_drop why;
	uint64_t work, stat;
	int src;

	pair_up(fcases[_i].c != F_NO_KEY);
	src = fcase_frame(fcases[_i].c, &fr);
	work = sig_work(&X);
	stat = X.pc.stat[fcases[_i].stat];
	why = feed_from(&X, src, &fr);
	ck_assert_msg(why == fcases[_i].want, "case %d: got %s, want %s", _i,
	    pcore_drop_name(why), pcore_drop_name(fcases[_i].want));
	ck_assert_uint_eq(X.pc.stat[fcases[_i].stat], stat + 1);
	ck_assert_uint_eq(sig_work(&X), work + fcases[_i].sig_work);
	if (why != PCORE_ACCEPT)
		ck_assert_uint_eq(X.pc.drop[why], 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

enum ecase {
	EC_POLICY, EC_OLD_EPOCH, EC_OLD_WINDOW, EC_BAD_SIG, EC_BAD_CHAIN,
	EC_CEILING, EC_HOPS0_RELAYED, EC_HOPS0_PREV, EC_DIRECT_HOPS1,
	EC_OWN, EC_DUP,
};

static const struct {
	enum ecase c;
	enum pcore_entry want;
	enum ipc_stat_id stat;
	unsigned sig_work;
} ecases[] = {
	{ EC_POLICY, PCORE_E_POLICY, IPC_STAT_DROP_POLICY, 0 },
	{ EC_OLD_EPOCH, PCORE_E_OLD, IPC_STAT_DROP_OLD_SEQNO, 0 },
	{ EC_OLD_WINDOW, PCORE_E_OLD, IPC_STAT_DROP_OLD_SEQNO, 0 },
	{ EC_BAD_SIG, PCORE_E_SIG, IPC_STAT_SIG_FAILED, 1 },
	{ EC_BAD_CHAIN, PCORE_E_HOPS, IPC_STAT_DROP_HOP_CHAIN, 0 },
	{ EC_CEILING, PCORE_E_HOPS, IPC_STAT_DROP_HOP_CHAIN, 0 },
	{ EC_HOPS0_RELAYED, PCORE_E_HOPS, IPC_STAT_DROP_HOP_CHAIN, 0 },
	{ EC_HOPS0_PREV, PCORE_E_HOPS, IPC_STAT_DROP_HOP_CHAIN, 0 },
	{ EC_DIRECT_HOPS1, PCORE_E_HOPS, IPC_STAT_DROP_HOP_CHAIN, 0 },
	{ EC_OWN, PCORE_E_OWN, IPC_STAT_DROP_OWN, 0 },
	{ EC_DUP, PCORE_E_DUP, IPC_STAT_DROP_DUPLICATE, 0 },
};
#define N_ECASES	((int)(sizeof(ecases) / sizeof(ecases[0])))

/* Case c's entry into a (accepting whatever must come first). */
static void
ecase_entry(enum ecase c, struct agg *a)
{
	struct ent e;
	uint8_t *raw;

	a->n = 0;
	ent_init(&e, I_O, 100, 1);	/* O's entry, relayed by P */
	if (c == EC_OLD_EPOCH || c == EC_OLD_WINDOW || c == EC_DUP) {
		ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
		ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	}
	switch (c) {
	case EC_POLICY:
		e.orig = I_U;
		break;
	case EC_OLD_EPOCH:
		e.epoch = EPOCH - 1;
		e.seqno = 200;
		break;
	case EC_OLD_WINDOW:
		e.seqno = 100 - ROUTING_WINDOW;
		break;
	case EC_CEILING:
		e.tq = routing_tq_ceiling(1, 30) + 1;
		break;
	case EC_HOPS0_RELAYED:
		ent_init(&e, I_O, 100, 0);
		break;
	case EC_HOPS0_PREV:
		ent_init(&e, I_P, 100, 0);
		e.prev = addrs[I_O];
		break;
	case EC_DIRECT_HOPS1:
		ent_init(&e, I_P, 100, 1);
		break;
	case EC_OWN:
		e.orig = I_X;
		break;
	default:
		break;
	}
	raw = agg_add(a, &e);
	if (c == EC_BAD_SIG)
		raw[a->len[0] - 1] ^= 1;
	if (c == EC_BAD_CHAIN)
		raw[12] ^= 1;
}

START_TEST(test_entry_drops)
{
	static struct agg a;
	uint64_t work, stat;
	unsigned mark;

	pair_up(1);
	ecase_entry(ecases[_i].c, &a);
	work = sig_work(&X);
	stat = X.pc.stat[ecases[_i].stat];
	mark = X.n;
	/* The frame itself is fine; its entry is refused. */
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_msg(X.pc.entry[ecases[_i].want] == 1 +
	    (ecases[_i].want == PCORE_E_ACCEPT), "case %d: %s not counted",
	    _i, pcore_entry_name(ecases[_i].want));
	ck_assert_uint_eq(X.pc.stat[ecases[_i].stat], stat + 1);
	ck_assert_uint_eq(sig_work(&X), work + ecases[_i].sig_work);
	/* A refused entry changes no table: nothing is emitted. */
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_ADD) +
	    msg_count(&X, mark, IPC_RELAY) + msg_count(&X, mark, IPC_TT) +
	    msg_count(&X, mark, IPC_GW), 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* 20 extra keys for the table-cap tests. */
static struct bs_identity many[20];

static void
many_init(void)
{
	int i;

	for (i = 0; i < 20; i++)
		t_ident(&many[i], (uint8_t)(0x80 + i));
}

/* X's policy: the default trust list, the extra keys trusted or not. */
static void
caps_policy(enum bs_policy_mode mode, uint32_t cap, int trust_many,
    uint32_t serial)
{
	struct bs_policy *pol = bs_policy_new();
	char err[128];
	int i;

	ck_assert_ptr_nonnull(pol);
	pol->mode = mode;
	pol->limits.originators = cap;
	for (i = 0; i < I_N; i++)
		if (pol_default.trust & (1u << i))
			ck_assert_int_eq(bs_policy_trust_add(pol, ids[i].pk,
			    NULL, 0, err, sizeof(err)), 0);
	for (i = 0; i < 20 && trust_many; i++)
		ck_assert_int_eq(bs_policy_trust_add(pol, many[i].pk, NULL, 0,
		    err, sizeof(err)), 0);
	ck_assert_int_eq(t_pcore_policy(&X.pc, serial, pol, err,
	    sizeof(err)), 0);
	bs_policy_free(pol);
}

/* The same with limit neighbor-stranger-share set. */
static void
caps_policy_share(enum bs_policy_mode mode, uint32_t cap, uint32_t nshare,
    uint32_t serial)
{
	struct bs_policy *pol = bs_policy_new();
	char err[128];
	int i;

	ck_assert_ptr_nonnull(pol);
	pol->mode = mode;
	pol->limits.originators = cap;
	pol->limits.neighbor_stranger_share = nshare;
	for (i = 0; i < I_N; i++)
		if (pol_default.trust & (1u << i))
			ck_assert_int_eq(bs_policy_trust_add(pol, ids[i].pk,
			    NULL, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(t_pcore_policy(&X.pc, serial, pol, err,
	    sizeof(err)), 0);
	bs_policy_free(pol);
}

/* The extra keys' OGMs (seqno s), relayed by P, four per frame. */
static void
caps_send(uint32_t s)
{
	static struct agg a;
	struct ent e;
	int i, k;

	/* The identity table's slot U is borrowed for the extra keys. */
	for (i = 0; i < 20; i += 4) {
		a.n = 0;
		for (k = i; k < i + 4; k++) {
			ids[I_U] = many[k];
			bs_mesh_addr(addrs[I_U], ids[I_U].pk);
			ent_init(&e, I_U, s, 1);
			agg_add(&a, &e);
		}
		ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	}
}

/* The originator cap follows `limit originators`; a lowered cap evicts. */
START_TEST(test_table_cap)
{
	unsigned mark;

	many_init();
	pair_up(1);
	caps_policy(BS_POLICY_ALLOWLIST, 16, 1, 3);
	caps_send(1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 16);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_FULL], 4);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_TABLE_FULL], 4);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 16);
	caps_policy(BS_POLICY_ALLOWLIST, 20, 1, 4);
	caps_send(2);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 20);
	mark = X.n;
	caps_policy(BS_POLICY_ALLOWLIST, 16, 1, 5);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 16);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_DEL), 4);
	/* The same keys no longer trusted: all removed. */
	mark = X.n;
	caps_policy(BS_POLICY_ALLOWLIST, 16, 0, 6);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 0);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_DEL), 16);
	/* P itself stays. */
	ck_assert_uint_eq(routing_neigh_count(X.pc.rt), 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* Mode open: strangers fill at most stranger-share (25 %) of the table. */
START_TEST(test_stranger_share)
{
	many_init();
	pair_up(1);
	caps_policy_share(BS_POLICY_OPEN, 16, 100, 3);
	caps_send(1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 4);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_FULL], 16);
	ck_assert_uint_eq(X.pc.n_strangers, 4);
	/* The count follows purges: all gone after the timeout. */
	now_ms += ROUTING_ORIG_TIMEOUT + 1;
	pcore_tick(&X.pc, now_ms);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 0);
	ck_assert_uint_eq(X.pc.n_strangers, 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* ---- attack resistance (pcore_limits.c) ----------------------------------------- */

/*
 * X's policy: mode, limits l (NULL: defaults), the default trust list
 * and the extra keys whose bit is set in trust_many.
 */
static void
lim_policy(enum bs_policy_mode mode, const struct bs_policy_limits *l,
    uint32_t trust_many, uint32_t serial)
{
	struct bs_policy *pol = bs_policy_new();
	char err[128];
	int i;

	ck_assert_ptr_nonnull(pol);
	pol->mode = mode;
	if (l != NULL)
		pol->limits = *l;
	for (i = 0; i < I_N; i++)
		if (pol_default.trust & (1u << i))
			ck_assert_int_eq(bs_policy_trust_add(pol, ids[i].pk,
			    NULL, 0, err, sizeof(err)), 0);
	for (i = 0; i < 20; i++)
		if (trust_many & (1u << i))
			ck_assert_int_eq(bs_policy_trust_add(pol, many[i].pk,
			    NULL, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(t_pcore_policy(&X.pc, serial, pol, err,
	    sizeof(err)), 0);
	bs_policy_free(pol);
}

/* Extra keys k0..k1-1 (seqno s), relayed by `from`, one per frame. */
static void
many_send(struct node *from, int k0, int k1, uint32_t s)
{
	struct ent e;
	int k;

	for (k = k0; k < k1; k++) {
		ids[I_U] = many[k];
		bs_mesh_addr(addrs[I_U], ids[I_U].pk);
		ent_init(&e, I_U, s, 1);
		ck_assert_int_eq(send_ent(from, &X, &e), PCORE_ACCEPT);
	}
}

static int
many_known(int k)
{
	struct routing_orig_info oi;

	return routing_orig_get(X.pc.rt, many[k].pk, &oi) == ROUTING_OK;
}

/* Limits for the tests: a roomy table, strangers may use all of it. */
static void
lim_roomy(struct bs_policy_limits *l)
{
	bs_policy_limits_default(l);
	l->stranger_share = 100;
	l->neighbor_stranger_share = 100;
}

/* X with neighbours P and Q (perfect links). */
static void
trio_up(void)
{
	pair_up(1);
	node_up(&Q, I_Q, IPC_LOG_INFO);
	link_up(&X, &Q, 64);
}

static void
trio_down(void)
{
	node_down(&X);
	node_down(&P);
	node_down(&Q);
}

/* One neighbour fills at most neighbor-stranger-share of the strangers. */
START_TEST(test_neigh_stranger_share)
{
	many_init();
	trio_up();
	caps_policy(BS_POLICY_OPEN, 16, 0, 3);	/* 4 strangers, 2 each */
	many_send(&P, 0, 4, 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_FULL], 2);
	ck_assert_uint_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->strangers,
	    2);
	/* Another neighbour still gets its share. */
	many_send(&Q, 4, 8, 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 4);
	ck_assert_uint_eq(X.pc.n_strangers, 4);
	/* P's strangers leave: its share is free again. */
	now_ms += ROUTING_ORIG_TIMEOUT + 1;
	link_up(&X, &P, 2);
	link_up(&X, &Q, 2);
	pcore_tick(&X.pc, now_ms);
	ck_assert_uint_eq(X.pc.n_strangers, 0);
	ck_assert_uint_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->strangers,
	    0);
	many_send(&P, 10, 12, 1);
	ck_assert_uint_eq(X.pc.n_strangers, 2);
	trio_down();
}
END_TEST

/* New originators: per-neighbour and global introduction quotas. */
START_TEST(test_intro_quota)
{
	struct bs_policy_limits l;
	uint64_t sig0;

	many_init();
	trio_up();
	lim_roomy(&l);
	l.intro_rate = 1;
	l.intro_burst = 3;
	lim_policy(BS_POLICY_OPEN, &l, 0, 3);
	sig0 = X.pc.stat[IPC_STAT_SIG_VERIFIED];
	many_send(&P, 0, 8, 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 3);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_INTRO], 5);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_INTRO_QUOTA], 5);
	/* Refused before any signature work. */
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_VERIFIED], sig0 + 3);
	/* Two seconds give two more. */
	now_ms += 2000;
	many_send(&P, 3, 8, 2);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 5);
	/* Known originators pay nothing. */
	many_send(&P, 0, 5, 3);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 10);
	/* Trusted keys are exempt. */
	lim_policy(BS_POLICY_OPEN, &l, 0xff00, 4);
	many_send(&P, 8, 16, 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 18);
	/* The global quota binds every neighbour together. */
	l.intro_rate = 100;
	l.intro_burst = 100;
	l.intro_global_rate = 1;
	l.intro_global_burst = 1;
	lim_policy(BS_POLICY_OPEN, &l, 0, 5);
	now_ms += 10000;
	many_send(&P, 16, 17, 1);
	many_send(&Q, 17, 18, 1);
	ck_assert(many_known(16));
	ck_assert(!many_known(17));
	trio_down();
}
END_TEST

/*
 * A full stranger share: a new stranger replaces the stranger refreshed
 * least recently, and only one that has been idle; a trusted key takes
 * a stranger's place in a full table; a stranger never takes a trusted
 * key's.
 */
START_TEST(test_evict)
{
	struct bs_policy_limits l;
	struct ent e;
	int gone;

	many_init();
	pair_up(1);
	bs_policy_limits_default(&l);
	l.originators = 16;
	l.neighbor_stranger_share = 100;
	lim_policy(BS_POLICY_OPEN, &l, 0xfff00, 3);	/* 8..19 trusted */
	many_send(&P, 0, 4, 1);
	many_send(&P, 8, 20, 1);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 16);
	ck_assert_uint_eq(X.pc.n_strangers, 4);
	/* Fresh strangers are not pushed out. */
	many_send(&P, 4, 5, 1);
	ck_assert(!many_known(4));
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_EVICTED], 0);
	/* 30 s later, 0 and 1 refreshed: 2 or 3 makes room for 4. */
	now_ms += 30000;
	link_up(&X, &P, 1);
	many_send(&P, 0, 2, 2);
	many_send(&P, 8, 20, 2);
	many_send(&P, 4, 5, 1);
	ck_assert(many_known(4));
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_EVICTED], 1);
	gone = many_known(2) ? 3 : 2;
	ck_assert(!many_known(gone));
	ck_assert(many_known(0) && many_known(1));
	ck_assert_uint_eq(X.pc.n_strangers, 4);
	/* Every stranger is fresh now: 5 is refused. */
	many_send(&P, 2 + 3 - gone, 3 + 3 - gone, 2);
	many_send(&P, 5, 6, 1);
	ck_assert(!many_known(5));
	/* A trusted key (O) evicts the stranger refreshed least recently. */
	ent_init(&e, I_O, 1, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 16);
	ck_assert_uint_eq(X.pc.n_strangers, 3);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_EVICTED], 2);
	ck_assert(!many_known(0) || !many_known(1));
	/* The table is full of fresh entries: no stranger gets in. */
	many_send(&P, 6, 7, 1);
	ck_assert(!many_known(6));
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 16);
	node_down(&X);
	node_down(&P);
}
END_TEST

/*
 * Keys that left the tables: their old OGMs and HELLOs are not taken
 * again (the epoch memory), newer ones are.
 */
START_TEST(test_epoch_memory)
{
	struct frame old_hello;
	struct ent e;

	pair_up(1);
	ent_init(&e, I_O, 10, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	hello_of(&old_hello, &P);
	ck_assert_int_eq(feed_from(&X, I_P, &old_hello), PCORE_ACCEPT);
	/* Everything times out. */
	now_ms += ROUTING_ORIG_TIMEOUT + 1;
	pcore_tick(&X.pc, now_ms);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 0);
	ck_assert_uint_eq(routing_neigh_count(X.pc.rt), 0);
	/* P's old HELLO is refused before its signature, a new one is not. */
	ck_assert_int_eq(feed_from(&X, I_P, &old_hello), PCORE_DROP_REPLAY);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_REMEMBERED], 1);
	link_up(&X, &P, 64);
	/* O's captured OGM: refused; older too; newer taken. */
	ent_init(&e, I_O, 10, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ent_init(&e, I_O, 9, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_OLD], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_REMEMBERED], 3);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 0);
	ent_init(&e, I_O, 11, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 1);
	/* A lower epoch is never taken again, whatever the seqno. */
	ent_init(&e, I_O, 1000, 1);
	e.epoch = EPOCH - 1;
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_OLD], 3);
	node_down(&X);
	node_down(&P);
}
END_TEST

/*
 * Epoch 0 is no node's (the first is 1): an entry with it is malformed,
 * dropped before any signature work, and never becomes a route (whose
 * ROUTE_ADD the forwarder would refuse, killing the parser: found by
 * fuzz_pcore, where signatures are bypassed).  The builder refuses to
 * make one, so the epoch is zeroed in the finished frame.
 */
START_TEST(test_epoch_zero)
{
	struct auth au = { WIRE_AUTH_MAC, I_P, I_X, 0, 0 };
	struct frame fr;
	struct agg a;
	struct ent e;

	pair_up(1);
	ent_init(&e, I_O, 10, 1);
	a.n = 0;
	agg_add(&a, &e);
	frame_of(&fr, I_P, &a, &au, ((uint64_t)EPOCH << 32) | ++P.counter);
	memset(fr.buf + WIRE_OGM_HDR_LEN + WIRE_OGM_MUT_LEN + BS_PK_LEN, 0, 4);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_MALFORMED);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 0);
	ck_assert_uint_eq(X.invalid, 0);
	ent_init(&e, I_O, 10, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

/*
 * The verification budget: per neighbour, then globally with the under
 * load mode in which only known originators are verified.
 */
START_TEST(test_verify_budget)
{
	struct bs_policy_limits l;
	struct ipc_stats st;
	uint64_t sig0;
	unsigned i;

	many_init();
	trio_up();
	lim_roomy(&l);
	l.verify_rate = 1;
	l.verify_burst = 4;
	lim_policy(BS_POLICY_ALLOWLIST, &l, 0xfffff, 3);
	sig0 = X.pc.stat[IPC_STAT_SIG_VERIFIED];
	many_send(&P, 0, 8, 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 4);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_BUDGET], 4);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_VERIFY_BUDGET], 4);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_VERIFIED], sig0 + 4);
	/* Q has a budget of its own. */
	many_send(&Q, 4, 8, 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 8);
	/* Global: 20 tokens; under load below 5, normal again at 15. */
	now_ms += 60000;
	link_up(&X, &P, 1);
	link_up(&X, &Q, 1);
	lim_roomy(&l);
	l.verify_global_rate = 1;
	l.verify_global_burst = 20;
	lim_policy(BS_POLICY_ALLOWLIST, &l, 0xfffff, 4);
	now_ms += 60000;
	many_send(&P, 8, 20, 1);	/* 12 new ones */
	ck_assert_uint_eq(X.pc.lim.under_load, 0);
	many_send(&P, 0, 4, 2);		/* 4 known ones */
	ck_assert_uint_eq(X.pc.lim.under_load, 1);
	ck_assert_uint_eq(X.pc.lim.under_load_entered, 1);
	/* Under load: a new originator waits, a known one is served. */
	ent_init(&(struct ent){ 0 }, I_O, 1, 1);
	{
		struct ent e;

		ent_init(&e, I_O, 1, 1);
		ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	}
	ck_assert_uint_eq(X.pc.entry[PCORE_E_BUDGET], 5);
	many_send(&P, 4, 5, 2);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_BUDGET], 5);
	pcore_stats(&X.pc, &st);
	for (i = 0; i < st.count; i++)
		if (st.s[i].id == IPC_STAT_UNDER_LOAD)
			ck_assert_uint_eq(st.s[i].value, 1);
	/* 15 s refill it: normal again. */
	now_ms += 15000;
	link_up(&X, &P, 1);
	ck_assert_uint_eq(X.pc.lim.under_load, 0);
	trio_down();
}
END_TEST

/*
 * O's compact entry of seqno sq (chain ch, hops 0) from O to P: P must
 * accept it and emit want relays (IPC_RELAY), which go into rl in order.
 */
static void
compact_relays(struct node *o, struct node *p, struct bs_ogmchain *ch,
    uint32_t sq, unsigned want, struct ipc_relay rl[static 2])
{
	static struct agg a;
	uint8_t anchor[BS_CHAIN_LEN];
	struct ent e;
	unsigned mark, i, k;

	ent_init(&e, I_O, sq, 0);
	ck_assert_int_eq(bs_ogmchain_get(ch, sq, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	mark = p->n;
	ck_assert_int_eq(send_agg(o, p, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(p, mark, IPC_RELAY), want);
	for (i = mark, k = 0; i < p->n && i < NMSG && k < 2; i++)
		if (p->msg[i].hdr.type == IPC_RELAY)
			ck_assert_int_eq(ipc_get(&p->msg[i], IPC_RELAY, &rl[k++],
			    sizeof(rl[0])), 0);
}

/*
 * Descriptions for neighbours that need them (pcore_desc.h): O - P - X.
 * P verified O's full entry of seqno 1; X says in its HELLO that it knows
 * no full entries (a restarted parser): P tells its forwarder (NEIGH UP
 * with IPC_NEIGH_F_FRESH) and, relaying O's compact entry of seqno 2,
 * hands on O's full entry first (hops one more, chain stepped), once per
 * OGM interval.  X takes the full entry, then the compact one.  After
 * the window P relays compact entries alone.
 */
START_TEST(test_desc_handon)
{
	static struct node O;
	static struct agg a;
	static struct bs_ogmchain ch;
	struct ipc_relay rl[2];
	struct ipc_neigh nm;
	uint8_t anchor[BS_CHAIN_LEN];
	struct frame fr;
	struct ent e;
	unsigned mark, i, k;

	opx_up(&O, &ch);
	ent_init(&e, I_O, 1, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 1, e.seed, anchor), 0);
	a.n = 0;
	agg_add(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	/* Outside the window: only the compact relay. */
	ent_init(&e, I_O, 2, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 2, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	mark = P.n;
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&P, mark, IPC_RELAY), 1);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_RELAYED], 0);
	/* X's HELLO with the fresh flag. */
	mark = P.n;
	{
		struct wire_hello h = { .pk = ids[I_X].pk, .ifmac = macs[I_X],
		    .interval_ms = 1000, .epoch = EPOCH,
		    .seqno = ++X.hello_seqno, .flags = WIRE_HELLO_F_FRESH };

		fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_X]);
	}
	ck_assert_int_eq(feed_from(&P, I_X, &fr), PCORE_ACCEPT);
	for (i = mark, k = 0; i < P.n && i < NMSG; i++)
		if (P.msg[i].hdr.type == IPC_NEIGH &&
		    ipc_get(&P.msg[i], IPC_NEIGH, &nm, sizeof(nm)) == 0 &&
		    (nm.flags & IPC_NEIGH_F_FRESH) != 0) {
			ck_assert_uint_eq(nm.state, IPC_NEIGH_UP);
			ck_assert_mem_eq(nm.addr, addrs[I_X], 6);
			k++;
		}
	ck_assert_uint_eq(k, 1);
	/* Seqno 3, compact: the full entry of seqno 1 first. */
	compact_relays(&O, &P, &ch, 3, 2, rl);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_RELAYED], 1);
	ck_assert_uint_eq(rl[0].entry[3], WIRE_OGM_FULL);
	ck_assert_uint_eq(rl[0].entry[2], 1);			/* hops */
	ck_assert_mem_eq(rl[0].entry + 4, addrs[I_O], 6);	/* from O */
	ck_assert_uint_eq(rl[1].entry[3], WIRE_OGM_COMPACT);
	ck_assert_uint_eq(bs_get32(rl[0].entry + WIRE_OGM_MUT_LEN + 36), 1);
	/* X takes both, in that order, in one frame. */
	a.n = 0;
	agg_add_raw(&a, rl[0].entry, rl[0].len);
	agg_add_raw(&a, rl[1].entry, rl[1].len);
	mark = X.n;
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_NODESC], 0);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_COMPACT], 1);
	/* Seqno 4 in the same OGM interval: not handed on again. */
	ent_init(&e, I_O, 4, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 4, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	mark = P.n;
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&P, mark, IPC_RELAY), 1);
	/* After the window: compact alone again. */
	now_ms += (uint64_t)PCORE_UPGRADE_OGMS * 1000 + 1;
	link_up(&O, &P, 1);
	ent_init(&e, I_O, 5, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 5, e.seed, anchor), 0);
	a.n = 0;
	agg_add_compact(&a, &e);
	mark = P.n;
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&P, mark, IPC_RELAY), 1);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_RELAYED], 1);
	node_down(&O);
	node_down(&P);
	node_down(&X);
}
END_TEST

/*
 * Descriptions on request (pcore_desc.h), O - P - X.  X has no full entry
 * of O: O's compact entry relayed by P makes X ask (IPC_DESC_WANT), once
 * within PCORE_WANT_AGAIN_OGMS intervals, again after, then less often
 * (backoff), and at most PCORE_WANT_PER_OGM addresses per interval.  P,
 * whose HELLO window for fresh neighbours is over, gets X's HELLO asking
 * for O: relaying O's next compact entry it hands on O's full entry
 * first, once; X takes both and no longer asks.  A neighbour asking for
 * more than PCORE_WANT_PER_OGM originators in an interval is counted
 * and the rest ignored; an originator P does not hold is no work.
 */
START_TEST(test_desc_want)
{
	static struct node O;
	static struct agg a;
	static struct bs_ogmchain ch;
	static uint8_t asks[PCORE_WANT_PER_OGM + 2][BS_ADDR_LEN];
	struct ipc_desc_want dw;
	struct ipc_relay rl[2];
	uint8_t anchor[BS_CHAIN_LEN];
	struct frame fr;
	struct ent e;
	unsigned mark, i, k;
	uint64_t steps;
	uint32_t sq = 1;

	opx_up(&O, &ch);
	X.pc.upgrade_until_ms = 0;
	ent_init(&e, I_O, sq, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, sq, e.seed, anchor), 0);
	a.n = 0;
	agg_add(&a, &e);
	ck_assert_int_eq(send_agg(&O, &P, &a), PCORE_ACCEPT);
	/* P relays O's compact entries; X cannot take them and asks once. */
	for (i = 0; i < 3; i++) {
		compact_relays(&O, &P, &ch, ++sq, 1, rl);
		a.n = 0;
		agg_add_raw(&a, rl[0].entry, rl[0].len);
		mark = X.n;
		ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
		ck_assert_uint_eq(msg_count(&X, mark, IPC_DESC_WANT),
		    i == 0 ? 1 : 0);
		if (i == 0) {
			ck_assert_int_ge(msg_find(&X, mark, IPC_DESC_WANT, &dw,
			    sizeof(dw)), 0);
			ck_assert_mem_eq(dw.orig_addr, addrs[I_O], 6);
		}
	}
	ck_assert_uint_eq(X.pc.entry[PCORE_E_NODESC], 3);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DESC_ASKED], 1);
	/* Asked again after PCORE_WANT_AGAIN_OGMS intervals, then after
	 * twice as long. */
	now_ms += (uint64_t)PCORE_WANT_AGAIN_OGMS * 1000;
	link_up(&P, &X, 1);
	a.n = 0;
	agg_add_raw(&a, rl[0].entry, rl[0].len);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DESC_ASKED], 2);
	now_ms += (uint64_t)PCORE_WANT_AGAIN_OGMS * 1000;
	link_up(&P, &X, 1);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DESC_ASKED], 2);
	now_ms += (uint64_t)PCORE_WANT_AGAIN_OGMS * 1000;
	link_up(&P, &X, 1);
	link_up(&O, &P, 1);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DESC_ASKED], 3);
	/* 60 intervals on: P follows O's chain (two seqnos at a time, a
	 * free walk); the full entry P keeps is now 62 seqnos old. */
	for (i = 0; i < 30; i++) {
		now_ms += 1000;
		link_up(&O, &P, 1);
		link_up(&P, &X, 1);
		sq += 2;
		compact_relays(&O, &P, &ch, sq, 1, rl);
	}
	/* X's HELLO asks P for O's full entry. */
	{
		struct wire_hello h = { .pk = ids[I_X].pk, .ifmac = macs[I_X],
		    .interval_ms = 1000, .epoch = EPOCH,
		    .seqno = ++X.hello_seqno, .num_want = 1,
		    .want = { addrs[I_O] } };

		fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_X]);
	}
	ck_assert_int_eq(feed_from(&P, I_X, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_WANT_RX], 1);
	ck_assert_int_eq(pcore_desc_upgrading(&P.pc, now_ms), 0);
	/* O's next compact entry: P hands the full one on first. */
	compact_relays(&O, &P, &ch, ++sq, 2, rl);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_RELAYED], 1);
	ck_assert_uint_eq(rl[0].entry[3], WIRE_OGM_FULL);
	ck_assert_uint_eq(rl[1].entry[3], WIRE_OGM_COMPACT);
	a.n = 0;
	agg_add_raw(&a, rl[0].entry, rl[0].len);
	agg_add_raw(&a, rl[1].entry, rl[1].len);
	mark = X.n;
	steps = X.pc.stat[IPC_STAT_CHAIN_STEPS];
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	/* X walked from the old full entry to the compact one. */
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_COMPACT], 1);
	ck_assert_uint_ge(X.pc.stat[IPC_STAT_CHAIN_STEPS] - steps,
	    60 * BS_MAXHOPS);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_DESC_WANT), 0);
	/* The want is used up: the next compact entry goes alone. */
	now_ms += 1001;
	link_up(&O, &P, 1);
	link_up(&P, &X, 1);
	compact_relays(&O, &P, &ch, ++sq, 1, rl);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_RELAYED], 1);
	/* X asks for more than its share in one interval: P counts the
	 * rest and ignores it.  Unknown originators cost nothing more. */
	for (i = 0; i < PCORE_WANT_PER_OGM + 2; i++) {
		memcpy(asks[i], addrs[I_O], 6);
		asks[i][5] ^= (uint8_t)(0x10 + i);
	}
	for (i = 0; i < 2; i++) {
		struct wire_hello h = { .pk = ids[I_X].pk, .ifmac = macs[I_X],
		    .interval_ms = 1000, .epoch = EPOCH,
		    .seqno = ++X.hello_seqno, .num_want = 5 };

		for (k = 0; k < 5; k++)
			h.want[k] = asks[i * 5 + k];
		fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_X]);
		ck_assert_int_eq(feed_from(&P, I_X, &fr), PCORE_ACCEPT);
	}
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_WANT_OVER], 2);
	ck_assert_uint_eq(P.pc.stat[IPC_STAT_DESC_WANT_RX], 1);
	node_down(&O);
	node_down(&P);
	node_down(&X);
}
END_TEST

/*
 * X asks for at most PCORE_WANT_PER_OGM originators per OGM interval:
 * compact entries of more unknown originators in one interval make that
 * many IPC_DESC_WANT, the rest wait for the next interval.
 */
START_TEST(test_desc_want_rate)
{
	static struct agg a;
	uint8_t orig[BS_ADDR_LEN];
	struct ent e;
	unsigned mark, i;

	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&X, I_X, IPC_LOG_INFO);
	link_up(&P, &X, 64);
	X.pc.upgrade_until_ms = 0;
	a.n = 0;
	ent_init(&e, I_O, 1, 1);
	e.prev = addrs[I_P];
	for (i = 0; i < PCORE_WANT_PER_OGM + 3; i++) {
		memcpy(orig, addrs[I_O], BS_ADDR_LEN);
		orig[5] ^= (uint8_t)(i + 1);
		agg_add_compact_as(&a, &e, orig);
	}
	mark = X.n;
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_DESC_WANT),
	    PCORE_WANT_PER_OGM);
	now_ms += 1000;
	link_up(&P, &X, 1);
	mark = X.n;
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_DESC_WANT), 3);
	node_down(&P);
	node_down(&X);
}
END_TEST

/*
 * A want list naming X itself: X's forwarder is asked for a full own OGM
 * (IPC_NEIGH_F_OWN), at most once every PCORE_WANT_AGAIN_OGMS intervals
 * whoever asks; X keeps no full entry of its own to hand on.
 */
START_TEST(test_desc_want_own)
{
	struct frame fr;
	unsigned i, asks = 0;

	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&X, I_X, IPC_LOG_INFO);
	link_up(&P, &X, 64);
	for (i = 0; i < 2 * PCORE_WANT_AGAIN_OGMS + 1; i++) {
		struct wire_hello h = { .pk = ids[I_P].pk, .ifmac = macs[I_P],
		    .interval_ms = 1000, .epoch = EPOCH,
		    .seqno = ++P.hello_seqno, .num_want = 2,
		    .want = { addrs[I_X], addrs[I_O] }, .num_neigh = 1,
		    .neigh = { { .addr = addrs[I_X], .rx_count = 64 } } };

		fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_P]);
		ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
		asks = neigh_flagged(&X, IPC_NEIGH_F_OWN);
		/* Asked at 0, 4 and 8 intervals. */
		ck_assert_uint_eq(asks, i / PCORE_WANT_AGAIN_OGMS + 1);
		now_ms += 1000;
	}
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DESC_WANT_RX], asks);
	node_down(&P);
	node_down(&X);
}
END_TEST

/*
 * Made-up chain elements spend their sender's verification budget: with
 * verify-burst 4 and rate 1, P's first walks fail and are charged (one
 * check each for a short walk), then P gets no walk at all (BUDGET, no
 * hash) while Q, with a budget of its own, still gets its honest compact
 * entry through; a long walk (5 seqnos) is paid up front.
 */
START_TEST(test_compact_budget)
{
	static struct agg a;
	static struct bs_ogmchain ch;
	struct bs_policy_limits l;
	struct pcore_neigh *qn;
	uint8_t anchor[BS_CHAIN_LEN];
	uint64_t steps, left;
	struct ent e;
	unsigned i;

	trio_up();
	lim_roomy(&l);
	l.verify_rate = 1;
	l.verify_burst = 4;
	lim_policy(BS_POLICY_ALLOWLIST, &l, 0, 3);
	bs_ogmchain_new(&ch, 1);
	/* O's full entry of seqno 1, relayed by Q. */
	ent_init(&e, I_O, 1, 1);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 1, e.seed, anchor), 0);
	ck_assert_int_eq(bs_chain_iter(e.seed, e.seed, 0), 0);
	e.prev = addrs[I_O];
	ck_assert_int_eq(send_ent(&Q, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	/* P sends made-up elements for seqnos 2..9 (walks of 32 + ...). */
	for (i = 2; i < 10; i++) {
		ent_init(&e, I_O, i, 1);
		memset(e.seed, (int)i, sizeof(e.seed));
		e.prev = addrs[I_O];
		a.n = 0;
		agg_add_compact(&a, &e);
		ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	}
	/*
	 * Seqno 2 (32 hashes) and 3 (64) walk free and fail: one check
	 * each; 4 (96) pays one up front and fails: one more.  P's 4 are
	 * spent: 5..9 get no walk.
	 */
	ck_assert_uint_eq(X.pc.entry[PCORE_E_CHAIN], 3);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_BUDGET], 5);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_CHAIN_STEPS], 32 + 64 + 96);
	steps = X.pc.stat[IPC_STAT_CHAIN_STEPS];
	/* Q's honest compact entry of seqno 2: walked, taken. */
	ent_init(&e, I_O, 2, 1);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 2, e.seed, anchor), 0);
	e.prev = addrs[I_O];
	a.n = 0;
	agg_add_compact(&a, &e);
	ck_assert_int_eq(send_agg(&Q, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_CHAIN_STEPS] - steps, BS_MAXHOPS);
	/* P after 60 s: its budget is back; seqno 7 from Q: 5 seqnos, 160
	 * hashes, 96 beyond the free 64: one check up front. */
	now_ms += 60000;
	link_up(&X, &P, 1);
	link_up(&X, &Q, 1);
	ent_init(&e, I_O, 7, 1);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 7, e.seed, anchor), 0);
	e.prev = addrs[I_O];
	a.n = 0;
	agg_add_compact(&a, &e);
	qn = pcore_neigh_get(&X.pc, IFX, addrs[I_Q]);
	ck_assert_ptr_nonnull(qn);
	left = pl_bucket_level(&qn->verify, l.verify_rate, l.verify_burst,
	    now_ms);
	ck_assert_uint_ge(left, 1);
	steps = X.pc.stat[IPC_STAT_CHAIN_STEPS];
	ck_assert_int_eq(send_agg(&Q, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 3);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_CHAIN_STEPS] - steps, 5 * 32);
	ck_assert_uint_eq(pl_bucket_level(&qn->verify, l.verify_rate,
	    l.verify_burst, now_ms), left - 1);
	trio_down();
}
END_TEST

/* The verification budget neighbour n has left at X. */
static uint64_t
budget_left(struct pcore_neigh *n)
{
	const struct bs_policy_limits *l = pcore_lim_limits(&X.pc);

	return pl_bucket_level(&n->verify, l->verify_rate, l->verify_burst,
	    now_ms);
}

/*
 * One entry of originator `orig` (seqno s, hops h, chain ch) from `from`
 * to X, with TQ tq (0: the ceiling of h), relayed by someone else before
 * (prev_sender); compact or full.  How many IPC_RELAYs X emitted for it.
 */
static unsigned
fisheye_from(struct node *from, int orig, struct bs_ogmchain *ch,
    uint32_t s, uint8_t h, uint8_t tq, int compact)
{
	static struct agg a;
	uint8_t anchor[BS_CHAIN_LEN];
	struct ent e;
	unsigned mark = X.n;

	ent_init(&e, orig, s, h);
	ck_assert_int_eq(bs_ogmchain_get(ch, s, e.seed, anchor), 0);
	e.prev = addrs[I_U == orig ? I_O : I_U];
	if (tq != 0)
		e.tq = tq;
	a.n = 0;
	if (compact)
		agg_add_compact(&a, &e);
	else
		agg_add(&a, &e);
	ck_assert_int_eq(send_agg(from, &X, &a), PCORE_ACCEPT);
	return msg_count(&X, mark, IPC_RELAY);
}

/* The same from P with the ceiling's TQ. */
static unsigned
fisheye_send(int orig, struct bs_ogmchain *ch, uint32_t s, uint8_t h,
    int compact)
{
	return fisheye_from(&P, orig, ch, s, h, 0, compact);
}

/*
 * Fisheye relaying (batsec-protocol(7), "OGM CHAIN"): X, hearing O's
 * entries from P with hops 16 (relayed with 17), relays a compact entry
 * only when its seqno is a multiple of 4 (counted as ogm_fisheye
 * otherwise), a full one always; the route is refreshed either way.  It
 * walks 8 seqnos ahead at those hops without charging P's budget, but
 * the same walk for U's entries at hops 1 (relayed with 2: every seqno
 * relayed) costs P one check up front.  The first copy of a new seqno
 * at those hops refreshes the route (IPC_ROUTE_ADD) even from Q, which
 * is not the best next hop.  While a neighbour needs descriptions every
 * compact entry goes on.  With no_fisheye (the simulator's
 * --no-fisheye) every compact entry goes on and the long walk is
 * charged at 16 hops too.
 */
START_TEST(test_compact_fisheye)
{
	static struct bs_ogmchain ch, cu;
	struct polspec ps = pol_default;
	struct pcore_neigh *pn;
	struct ipc_relay rl;
	struct ipc_route r;
	uint64_t left, steps;
	unsigned mark, h;

	/* The rule: 1 below 8 hops, 2 below 16, then 4. */
	trio_up();
	for (h = 0; h <= BS_MAXHOPS; h++)
		ck_assert_uint_eq(pcore_fisheye_gap(&X.pc, h),
		    h < 8 ? 1 : h < 16 ? 2 : 4);
	ps.trust |= 1u << I_U;
	node_policy(&X, &ps, 2);
	X.pc.upgrade_until_ms = 0;	/* no hand-ons (test_desc_handon) */
	pn = pcore_neigh_get(&X.pc, IFX, addrs[I_P]);
	ck_assert_ptr_nonnull(pn);
	bs_ogmchain_new(&ch, 1);
	bs_ogmchain_new(&cu, 1);
	/* O's full entry of seqno 1 at hops 16: relayed (hops 17). */
	mark = X.n;
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 1, 16, 0), 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 1);
	relay_of(&X, mark, &rl);
	ck_assert_uint_eq(rl.entry[2], 17);
	ck_assert_uint_eq(rl.entry[3], WIRE_OGM_FULL);
	/* Compact seqno 2: taken (the route refreshed), not relayed. */
	left = budget_left(pn);
	mark = X.n;
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 2, 16, 1), 0);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 2);
	ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.orig_addr, addrs[I_O], 6);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_FISHEYE], 1);
	/* Seqno 8 (6 ahead, 192 hashes) and 16 (8 ahead, 256: a gap and a
	 * lost copy): free at these hops (up to 32 x 2 x 4), relayed
	 * compact with hops 17. */
	steps = X.pc.stat[IPC_STAT_CHAIN_STEPS];
	mark = X.n;
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 8, 16, 1), 1);
	relay_of(&X, mark, &rl);
	ck_assert_uint_eq(rl.entry[2], 17);
	ck_assert_uint_eq(rl.entry[3], WIRE_OGM_COMPACT);
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 16, 16, 1), 1);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_ACCEPT], 4);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_CHAIN_STEPS] - steps, 192 + 256);
	ck_assert_uint_eq(budget_left(pn), left);
	/* 17 .. 19 at hops 16 are held back; a full 20 goes on. */
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 19, 16, 1), 0);
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 20, 16, 0), 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_FISHEYE], 2);
	/* No walk beyond PCORE_CHAIN_MAX, 2 208 hashes (seqno 20 -> 89
	 * at hops 16): 91 waits. */
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 91, 16, 1), 0);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_NODESC], 1);
	/* Q's copy of seqno 22 (a lower TQ) comes first: P stays the best
	 * next hop, and the route is refreshed; P's copy is then relayed. */
	mark = X.n;
	ck_assert_uint_eq(fisheye_from(&Q, I_O, &ch, 22, 16,
	    routing_tq_ceiling(16, 30) / 2, 1), 0);
	ck_assert_int_ge(msg_find(&X, mark, IPC_ROUTE_ADD, &r, sizeof(r)), 0);
	ck_assert_mem_eq(r.orig_addr, addrs[I_O], 6);
	ck_assert_mem_eq(r.nexthop, addrs[I_P], 6);
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 22, 16, 1), 0);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_FISHEYE], 3);
	/* U at hops 1 (relayed with 2): every seqno relayed ... */
	ck_assert_uint_eq(fisheye_send(I_U, &cu, 1, 1, 0), 1);
	ck_assert_uint_eq(fisheye_send(I_U, &cu, 2, 1, 1), 1);
	ck_assert_uint_eq(fisheye_send(I_U, &cu, 3, 1, 1), 1);
	/* ... and 8 seqnos ahead (256 hashes) costs one check up front. */
	left = budget_left(pn);
	steps = X.pc.stat[IPC_STAT_CHAIN_STEPS];
	ck_assert_uint_eq(fisheye_send(I_U, &cu, 11, 1, 1), 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_CHAIN_STEPS] - steps, 256);
	ck_assert_uint_eq(budget_left(pn), left - 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_FISHEYE], 3);
	/* While a neighbour needs descriptions (pcore_desc.h) every compact
	 * entry goes on, after the hand-on of O's full entry. */
	X.pc.upgrade_until_ms = now_ms + 5000;
	mark = X.n;
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 23, 16, 1), 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DESC_RELAYED], 1);
	X.pc.upgrade_until_ms = 0;
	/* Switched off: O's seqno 25 is relayed; 33 (8 ahead at hops 16)
	 * is charged as at hops 1. */
	X.pc.no_fisheye = 1;
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 25, 16, 1), 1);
	left = budget_left(pn);
	ck_assert_uint_eq(fisheye_send(I_O, &ch, 33, 16, 1), 1);
	ck_assert_uint_eq(budget_left(pn), left - 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_FISHEYE], 3);
	trio_down();
}
END_TEST

/*
 * OGM frames with garbage signature trailers under a neighbour's MAC and
 * address (issue #20, item 1): a stale counter costs no signature; a
 * fresh one costs a token of the neighbour's and the node's verify
 * budget, so the forger spends at most those, and the node goes under
 * load as for any other flood of signatures.
 */
static enum pcore_drop
link_sig_forged(uint32_t counter)
{
	static struct agg a;
	static struct frame fr;
	struct auth au = { WIRE_AUTH_SIG, 0, 0, I_P, 1 };

	own_agg(&a, &P);
	frame_of(&fr, I_P, &a, &au, ((uint64_t)EPOCH << 32) | counter);
	return feed_from(&X, I_P, &fr);
}

START_TEST(test_link_sig_budget)
{
	struct bs_policy_limits l;
	uint64_t w0;
	unsigned i;

	pair_up(1);
	lim_roomy(&l);
	l.verify_rate = 1;
	l.verify_burst = 4;
	lim_policy(BS_POLICY_ALLOWLIST, &l, 0, 3);
	P.counter = 1000;
	ck_assert_int_eq(send_own(&P, &X), PCORE_ACCEPT);
	/* A counter not above the last one: refused before the signature. */
	w0 = sig_work(&X);
	ck_assert_int_eq(link_sig_forged(1000), PCORE_DROP_REPLAY);
	ck_assert_int_eq(link_sig_forged(5), PCORE_DROP_REPLAY);
	ck_assert_uint_eq(sig_work(&X), w0);
	/* Fresh counters: P's budget (4, one entry spent) and no more. */
	for (i = 0; i < 20; i++)
		link_sig_forged(2000 + i);
	ck_assert_uint_eq(sig_work(&X), w0 + 3);
	ck_assert_uint_eq(X.pc.drop[PCORE_DROP_LINK_AUTH], 3);
	ck_assert_uint_eq(X.pc.drop[PCORE_DROP_BUDGET], 17);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_VERIFY_BUDGET], 17);
	/* P's own frames still pass once its budget refilled (MAC tags). */
	now_ms += 10000;
	link_up(&X, &P, 1);
	ck_assert_int_eq(send_own(&P, &X), PCORE_ACCEPT);
	/* The node's budget: 20 tokens, under load below 5. */
	lim_roomy(&l);
	l.verify_global_rate = 1;
	l.verify_global_burst = 20;
	lim_policy(BS_POLICY_ALLOWLIST, &l, 0, 4);
	now_ms += 60000;
	link_up(&X, &P, 1);
	ck_assert_uint_eq(X.pc.lim.under_load, 0);
	w0 = sig_work(&X);
	for (i = 0; i < 40; i++)
		link_sig_forged(5000 + i);
	ck_assert_uint_le(sig_work(&X), w0 + 20);
	ck_assert_uint_eq(X.pc.lim.under_load, 1);
	ck_assert_uint_eq(X.pc.lim.under_load_entered, 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

/*
 * The neighbour table by class (issue #20, item 4): 64 strangers' HELLOs
 * on one interface (64 slots) take at most stranger-neighbors % of it,
 * and a trusted key's HELLO still finds a slot; with the share at 100 %
 * the trusted key takes the slot of the stranger heard least recently.
 */
static struct bs_identity strangers64[64];

static enum pcore_drop
stranger_hello(int k, uint32_t seqno)
{
	static struct frame fr;
	uint8_t mac[BS_ADDR_LEN] = { 0x02, 0x33, 0x44, 0x55, 0x66, 0 };

	mac[5] = (uint8_t)k;
	ids[I_U] = strangers64[k];
	hello_build(&fr, I_U, mac, seqno, NULL, 0);
	return pcore_frame(&X.pc, IFX, mac, mac_bcast, fr.buf, fr.len, now_ms);
}

START_TEST(test_neigh_slots)
{
	struct bs_policy_limits l;
	unsigned i, ok = 0, full = 0;
	enum pcore_drop why;

	for (i = 0; i < 64; i++)
		t_ident(&strangers64[i], (uint8_t)(0xa0 + i));
	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&Q, I_Q, IPC_LOG_INFO);
	bs_policy_limits_default(&l);
	lim_policy(BS_POLICY_OPEN, &l, 0, 3);
	for (i = 0; i < 64; i++) {
		now_ms += 10;
		why = stranger_hello((int)i, 1);
		ok += why == PCORE_ACCEPT;
		full += why == PCORE_DROP_TABLE_FULL;
	}
	ck_assert_uint_eq(ok, 64 * 75 / 100);
	ck_assert_uint_eq(full, 64 - ok);
	/* The trusted key Q: admitted. */
	ck_assert_int_eq(hello_to(&Q, &X), PCORE_ACCEPT);
	ck_assert_ptr_nonnull(pcore_neigh_find(&X.pc, IFX, addrs[I_Q]));
	node_down(&X);
	/* Strangers may fill the table: Q evicts the idlest of them. */
	node_up(&X, I_X, IPC_LOG_INFO);
	l.stranger_neighbors = 100;
	lim_policy(BS_POLICY_OPEN, &l, 0, 3);
	for (i = 0, ok = 0; i < 64; i++) {
		now_ms += 10;
		ok += stranger_hello((int)i, 2) == PCORE_ACCEPT;
	}
	ck_assert_uint_eq(ok, 64);
	ck_assert_uint_eq(routing_neigh_count(X.pc.rt), 64);
	ck_assert_int_eq(hello_to(&Q, &X), PCORE_ACCEPT);
	ck_assert_ptr_nonnull(pcore_neigh_find(&X.pc, IFX, addrs[I_Q]));
	ck_assert_uint_eq(routing_neigh_count(X.pc.rt), 64);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_EVICTED], 1);
	bs_mesh_addr(addrs[I_U], strangers64[0].pk);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_U]));
	/* A stranger never evicts: the 65th is refused. */
	ck_assert_int_eq(stranger_hello(0, 3), PCORE_DROP_TABLE_FULL);
	node_down(&X);
	node_down(&Q);
}
END_TEST

/* n's forwarder answers the link-key request for who (past NMSG). */
static void
key_answer(struct node *n, int who)
{
	struct ipc_link_key k;
	char err[128];

	memset(&k, 0, sizeof(k));
	memcpy(k.peer_pk, ids[who].pk, BS_PK_LEN);
	k.ifindex = IFX;
	ck_assert_int_eq(bs_link_key(k.key, &ids[n->who], ids[who].pk), 0);
	bs_link_keyid(k.key_id, k.key);
	ck_assert_int_eq(pcore_link_key(&n->pc, &k, err, sizeof(err)), 0);
}

/* 1 when k's address is pinned (marks the pin used: test only). */
static int
many_pinned(int k)
{
	return pcore_trust_pin_used(&X.pc, many[k].pk, now_ms);
}

/* A second of X's life with P: HELLOs both ways and X's periodic work. */
static void
pins_second(void)
{
	now_ms += 1000;
	link_up(&X, &P, 1);
	pcore_tick(&X.pc, now_ms);
}

/*
 * TOFU pins (issue #20, item 4): none at admission; a stranger is pinned
 * only once it held a route for pin-after seconds (throwaway keys never
 * are), at most pins-per-neighbor through one neighbour per hour, and a
 * pin not used for pin-max-age days is forgotten.
 */
START_TEST(test_tofu_pins)
{
	struct bs_policy_limits l;
	uint64_t tpin;
	uint32_t s = 1;
	int i, k, used = -1;

	many_init();
	pair_up(1);
	lim_roomy(&l);
	l.pin_after = 600;
	l.pins_per_neighbor = 8;
	l.pin_max_age = 1;
	lim_policy(BS_POLICY_OPEN, &l, 0, 3);
	many_send(&P, 0, 20, s++);
	ck_assert_uint_eq(X.pc.n_strangers, 20);
	pcore_tick(&X.pc, now_ms);
	ck_assert_uint_eq(pcore_trust_pin_count(&X.pc), 0);
	/* 0..9 stay, 10..19 are thrown away (gone after 400 s). */
	for (i = 1; i <= 599; i++) {
		pins_second();
		if (i % 10 == 0)
			many_send(&P, 0, 10, s++);
	}
	ck_assert_uint_eq(pcore_trust_pin_count(&X.pc), 0);
	for (i = 0; i < 3; i++)
		pins_second();
	tpin = now_ms;
	ck_assert_uint_eq(pcore_trust_pin_count(&X.pc), 8);
	for (k = 10; k < 20; k++)
		ck_assert_int_eq(many_pinned(k), 0);
	for (k = 0; k < 10; k++)
		if (many_pinned(k) && used < 0)
			used = k;
	ck_assert_int_ge(used, 0);
	for (i = 0; i < 20; i++) {
		pins_second();
		if (i % 10 == 0)
			many_send(&P, 0, 10, s++);
	}
	ck_assert_uint_eq(pcore_trust_pin_count(&X.pc), 8);
	/* Nearly a day later only `used` comes back: the others age out. */
	now_ms = tpin + 86400000u - 5000;
	pcore_tick(&X.pc, now_ms);
	ck_assert_uint_eq(pcore_trust_pin_count(&X.pc), 8);
	link_up(&X, &P, 64);
	key_answer(&X, I_P);
	many_send(&P, used, used + 1, s++);
	pins_second();
	now_ms = tpin + 86400000u + 25000;
	pcore_tick(&X.pc, now_ms);
	ck_assert_uint_eq(pcore_trust_pin_count(&X.pc), 1);
	ck_assert_int_eq(many_pinned(used), 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

/*
 * A HELLO from an epoch older than the key's OGMs show is a replay, also
 * where the key is no neighbour yet (another interface, or after it
 * left): captured before the node restarted.
 */
START_TEST(test_hello_old_epoch)
{
	struct wire_hello h;
	struct frame fr;
	uint8_t sig[BS_SIG_LEN];
	struct ent e;

	pair_up(1);
	ent_init(&e, I_O, 3, 1);
	e.epoch = EPOCH + 1;
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 1);
	memset(&h, 0, sizeof(h));
	h.pk = ids[I_O].pk;
	h.ifmac = macs[I_O];
	h.interval_ms = 1000;
	h.epoch = EPOCH;
	h.seqno = 100;
	h.salt = (const uint8_t[BS_LINKSALT_LEN]){ 0x5a };
	ck_assert_int_eq(wire_hello_build(fr.buf, sizeof(fr.buf), &h,
	    &fr.len), WIRE_OK);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_HELLO, fr.buf, fr.len,
	    &ids[I_O]), 0);
	ck_assert_int_eq(wire_sig_append(fr.buf, sizeof(fr.buf), &fr.len,
	    sig), WIRE_OK);
	ck_assert_int_eq(feed_from(&X, I_O, &fr), PCORE_DROP_REPLAY);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_O]));
	/* The current epoch is welcome. */
	h.epoch = EPOCH + 1;
	ck_assert_int_eq(wire_hello_build(fr.buf, sizeof(fr.buf), &h,
	    &fr.len), WIRE_OK);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_HELLO, fr.buf, fr.len,
	    &ids[I_O]), 0);
	ck_assert_int_eq(wire_sig_append(fr.buf, sizeof(fr.buf), &fr.len,
	    sig), WIRE_OK);
	ck_assert_int_eq(feed_from(&X, I_O, &fr), PCORE_ACCEPT);
	node_down(&X);
	node_down(&P);
}
END_TEST

/*
 * The signature cache's hop-chain step is bs_chain_step; a slot keeps
 * the element of the fewest hops seen and checks other copies against
 * it; an element off the chain fails with or without it.
 */
START_TEST(test_sigcache_chain)
{
	struct sigcache c;
	uint8_t key[SIGCACHE_KEY_LEN] = { 3 }, d[SIGCACHE_DIGEST_LEN] = { 9 };
	uint8_t seed[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN], e[6][BS_CHAIN_LEN];
	uint8_t a[BS_CHAIN_LEN], b[BS_CHAIN_LEN], bad[BS_CHAIN_LEN];
	int slot, h;

	ck_assert_int_eq(sigcache_init(&c, key), 0);
	memset(seed, 0x42, sizeof(seed));
	bs_chain_step(a, seed);
	sigcache_chain_step(&c, b, seed);
	ck_assert_mem_eq(a, b, BS_CHAIN_LEN);
	ck_assert_int_eq(bs_chain_iter(anchor, seed, BS_MAXHOPS), 0);
	for (h = 0; h < 6; h++)
		ck_assert_int_eq(bs_chain_iter(e[h], seed, (unsigned)h), 0);
	memcpy(bad, e[2], BS_CHAIN_LEN);
	bad[0] ^= 1;
	/* No slot: the whole chain. */
	ck_assert_int_eq(sigcache_chain_verify(&c, -1, anchor, e[3], 3), 0);
	ck_assert_int_eq(sigcache_chain_verify(&c, -1, anchor, e[3], 2), -1);
	ck_assert_int_eq(sigcache_chain_verify(&c, -1, anchor, bad, 2), -1);
	ck_assert_int_eq(sigcache_chain_verify(&c, -1, anchor, e[0],
	    BS_MAXHOPS + 1), -1);
	/* A slot that knows hops 3. */
	sigcache_insert_chain(&c, d, e[3], 3);
	ck_assert_int_ge(slot = sigcache_find(&c, d), 0);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[3], 3), 0);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[5], 5), 0);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[5], 4), -1);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, bad, 2), -1);
	/* Fewer hops: checked against hops 3, then kept. */
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[1], 1), 0);
	ck_assert_uint_eq(c.chain[slot].hops, 1);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[2], 1), -1);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[2], 2), 0);
	/* A slot without an element: the whole chain again. */
	sigcache_insert(&c, d);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, e[4], 4), 0);
	ck_assert_int_eq(sigcache_chain_verify(&c, slot, anchor, bad, 2), -1);
	sigcache_free(&c);
}
END_TEST

/*
 * The signature cache grows with the originator table and shrinks when
 * that falls to a quarter, within its bounds, and keeps its entries
 * (with their hop-chain elements) across both.
 */
START_TEST(test_sigcache_fit)
{
	struct sigcache c;
	uint8_t key[SIGCACHE_KEY_LEN] = { 5 }, d[200][SIGCACHE_DIGEST_LEN];
	uint8_t elem[BS_CHAIN_LEN];
	uint32_t i, found;
	int slot;

	ck_assert_int_eq(sigcache_init(&c, key), 0);
	ck_assert_uint_eq(c.nslots, SIGCACHE_SLOTS_MIN);
	for (i = 0; i < 200; i++) {
		crypto_generichash(d[i], SIGCACHE_DIGEST_LEN,
		    (const unsigned char *)&i, sizeof(i), NULL, 0);
		memset(elem, (int)i, sizeof(elem));
		sigcache_insert_chain(&c, d[i], elem, i % BS_MAXHOPS);
	}
	ck_assert_int_eq(sigcache_fit(&c, 0), 0);
	ck_assert_uint_eq(c.nslots, SIGCACHE_SLOTS_MIN);
	ck_assert_int_eq(sigcache_fit(&c, 1000), 0);	/* 8000 slots */
	ck_assert_uint_eq(c.nslots, 8192);
	for (i = 0; i < 200; i++) {
		ck_assert_int_ge(slot = sigcache_find(&c, d[i]), 0);
		ck_assert_uint_lt((uint32_t)slot, c.nslots);
		ck_assert_uint_eq(c.chain[slot].hops, i % BS_MAXHOPS);
		ck_assert_uint_eq(c.chain[slot].elem[0], i & 0xff);
	}
	ck_assert_int_eq(sigcache_fit(&c, 1000000), 0);
	ck_assert_uint_eq(c.nslots, SIGCACHE_SLOTS_MAX);
	/* 4800 slots wanted: more than a quarter, so no shrink. */
	ck_assert_int_eq(sigcache_fit(&c, 600), 0);
	ck_assert_uint_eq(c.nslots, SIGCACHE_SLOTS_MAX);
	ck_assert_int_eq(sigcache_fit(&c, 3), 0);
	ck_assert_uint_eq(c.nslots, SIGCACHE_SLOTS_MIN);
	/* 200 entries in 256 sets of 4: a full set may lose one. */
	for (i = found = 0; i < 200; i++)
		if ((slot = sigcache_find(&c, d[i])) >= 0) {
			found++;
			ck_assert_uint_eq(c.chain[slot].hops, i % BS_MAXHOPS);
		}
	ck_assert_uint_ge(found, 195);
	sigcache_free(&c);
	ck_assert_int_eq(sigcache_fit(&c, 1000), -1);
}
END_TEST

/* A bad signature is checked once, however often it comes. */
START_TEST(test_sig_bad_cached)
{
	static struct agg a;
	struct ent e;
	uint8_t *raw;
	uint64_t failed;

	pair_up(1);
	failed = X.pc.stat[IPC_STAT_SIG_FAILED];
	ent_init(&e, I_O, 3, 1);
	a.n = 0;
	raw = agg_add(&a, &e);
	raw[a.len[0] - 1] ^= 1;
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_SIG], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_FAILED], failed + 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_SIG_CACHE_HIT], 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* Drops are counted per source; the worst sources show in STATS. */
START_TEST(test_src_accounting)
{
	struct auth au = { WIRE_AUTH_MAC, I_P, I_X, 0, 1 };
	static struct agg a;
	struct ipc_stats st;
	struct frame fr;
	struct ent e;
	uint64_t v[IPC_STAT_ID_END];
	unsigned i;
	int k;

	pair_up(1);
	for (k = 0; k < 3; k++) {
		own_agg(&a, &P);
		frame_of(&fr, I_P, &a, &au, ((uint64_t)EPOCH << 32) | 1000);
		ck_assert_int_eq(feed_from(&X, I_P, &fr),
		    PCORE_DROP_LINK_AUTH);
	}
	/* TQ above the ceiling for one hop: hop integrity, against P. */
	ent_init(&e, I_O, 5, 1);
	e.tq = 255;
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(X.pc.entry[PCORE_E_HOPS], 1);
	/* Garbage from another source. */
	memset(fr.buf, 0xee, 40);
	fr.len = 40;
	feed_from(&X, I_Q, &fr);
	pcore_stats(&X.pc, &st);
	memset(v, 0, sizeof(v));
	for (i = 0; i < st.count; i++)
		v[st.s[i].id] = st.s[i].value;
	ck_assert_uint_eq(v[IPC_STAT_SRC1_MAC] & 0xffffffffffffULL,
	    0x021122334455ULL);
	ck_assert_uint_eq(v[IPC_STAT_SRC1_MAC] >> 48, IFX);
	ck_assert_uint_eq(v[IPC_STAT_SRC1_AUTH], 3);
	ck_assert_uint_eq(v[IPC_STAT_SRC1_HOPS], 1);
	ck_assert_uint_eq(v[IPC_STAT_SRC1_DROPS], 4);
	ck_assert_uint_eq(v[IPC_STAT_SRC2_MAC] & 0xffffffffffffULL,
	    0x021122334466ULL);
	ck_assert_uint_eq(v[IPC_STAT_SRC2_MALFORMED], 1);
	ck_assert_uint_eq(v[IPC_STAT_SRC3_MAC], 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* The frame rate of a source, and of an authenticated neighbour. */
START_TEST(test_frame_rate)
{
	struct bs_policy_limits l;
	static struct agg a;
	struct frame fr;
	int k, rate = 0;

	pair_up(1);
	bs_policy_limits_default(&l);
	l.frame_rate = 1;
	l.frame_burst = 5;
	lim_policy(BS_POLICY_ALLOWLIST, &l, 0, 3);
	now_ms += 10000;
	memset(fr.buf, 0xee, 40);
	fr.len = 40;
	for (k = 0; k < 8; k++)
		rate += feed_from(&X, I_Q, &fr) == PCORE_DROP_RATE;
	ck_assert_int_eq(rate, 3);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_FRAME_RATE], 3);
	/* P's own frames: 5 pass, then it waits a second. */
	for (k = 0, rate = 0; k < 8; k++) {
		own_agg(&a, &P);
		rate += send_agg(&P, &X, &a) == PCORE_DROP_RATE;
	}
	ck_assert_int_eq(rate, 3);
	now_ms += 1000;
	own_agg(&a, &P);
	ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* ---- clients and gateways ----------------------------------------------------- */

static const uint8_t client1[6] = { 0x0a, 0, 0, 0, 0, 1 };
static const uint8_t client2[6] = { 0x0a, 0, 0, 0, 0, 2 };
static const uint8_t client3[6] = { 0x0a, 0, 0, 0, 0, 3 };

/* The TT flags of the second client tvlvs() puts in. */
static uint8_t tt_flags2;

/* A TVLV region with up to two clients and an optional gateway. */
static size_t
tvlvs(uint8_t *buf, size_t cap, const uint8_t *c1, const uint8_t *c2,
    uint32_t down, uint32_t up)
{
	struct wire_tt_entry tt[2] = { 0 };
	unsigned n = 0;
	size_t len = 0;

	if (c1 != NULL) {
		tt[n].mac = c1;
		tt[n++].vid = 0;
	}
	if (c2 != NULL) {
		tt[n].mac = c2;
		tt[n].flags = tt_flags2;
		tt[n++].vid = WIRE_VID_TAGGED | 5;
	}
	if (n > 0)
		ck_assert_int_eq(wire_tvlv_put_tt(buf, cap, &len, tt, n),
		    WIRE_OK);
	if (down != 0)
		ck_assert_int_eq(wire_tvlv_put_gateway(buf, cap, &len, down,
		    up), WIRE_OK);
	return len;
}

/* from's own OGM with the given clients and gateway. */
static void
send_own_tv(struct node *from, struct node *to, const uint8_t *c1,
    const uint8_t *c2, uint32_t down, uint32_t up)
{
	uint8_t tv[256];
	struct ent e;

	ent_init(&e, from->who, ++from->ogm_seqno, 0);
	e.tvlv = tv;
	e.tvlv_len = tvlvs(tv, sizeof(tv), c1, c2, down, up);
	ck_assert_int_eq(send_ent(from, to, &e), PCORE_ACCEPT);
}

/* The last IPC_TT for originator who at or after mark: 1 and *tt, or 0. */
static int
tt_last(const struct node *n, unsigned mark, int who, struct ipc_tt *tt)
{
	struct ipc_tt t;
	unsigned i;
	int found = 0;

	for (i = mark; i < n->n && i < NMSG; i++)
		if (ipc_get(&n->msg[i], IPC_TT, &t, sizeof(t)) == 0 &&
		    memcmp(t.orig_addr, addrs[who], BS_ADDR_LEN) == 0) {
			*tt = t;
			found = 1;
		}
	return found;
}

static int
tt_has(const struct ipc_tt *tt, const uint8_t mac[6])
{
	unsigned i;

	for (i = 0; i < tt->count; i++)
		if (memcmp(tt->e[i].mac, mac, 6) == 0)
			return 1;
	return 0;
}

/*
 * Client claims (pcore_claims.c): a stranger cannot take a trusted
 * node's client; a trusted node takes a stranger's at once; between
 * equals the fresher claim wins, but a client moves at most once per
 * 60 / roam-per-minute seconds while its owner still claims it.
 */
/* X (policy open) with trusted neighbours P and Q, for the claim tests. */
static void
claims_up(void)
{
	struct polspec ps = pol_default;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&Q, I_Q, IPC_LOG_INFO);
	ps.mode = BS_POLICY_OPEN;
	node_policy(&X, &ps, 2);
	link_up(&X, &P, 64);
	link_up(&X, &Q, 64);
}

static void
claims_down(void)
{
	node_down(&X);
	node_down(&P);
	node_down(&Q);
}

START_TEST(test_claims)
{
	static struct node R;		/* a stranger (identity U) */
	struct ipc_tt tt;
	unsigned mark;

	claims_up();
	node_up(&R, I_U, IPC_LOG_INFO);
	link_up(&X, &R, 64);
	mark = X.n;
	send_own_tv(&P, &X, client1, NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt_has(&tt, client1));
	/* The stranger's claim of P's client is left out and counted. */
	send_own_tv(&R, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_U, &tt));
	ck_assert(!tt_has(&tt, client1) && tt_has(&tt, client3));
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_CLAIM], 1);
	/* A trusted claim takes the stranger's client at once. */
	send_own_tv(&P, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt_has(&tt, client3));
	send_own_tv(&R, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_U, &tt) && tt.count == 0);
	/* Q (trusted too) claims client1: the fresher claim wins once. */
	send_own_tv(&Q, &X, client1, NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_Q, &tt) && tt_has(&tt, client1));
	/* P claims it again at once: over the roaming limit, refused. */
	send_own_tv(&P, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && !tt_has(&tt, client1) &&
	    tt_has(&tt, client3));
	/* 10 s later (60 / roam-per-minute 6) it may move back. */
	now_ms += 10000;
	link_up(&X, &P, 1);
	link_up(&X, &Q, 1);
	send_own_tv(&Q, &X, client1, NULL, 0, 0);
	send_own_tv(&P, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt_has(&tt, client1));
	claims_down();
	node_down(&R);
}
END_TEST

/*
 * Paged tables (WIRE_TVLV_TT_PAGE, pcore_ttpage.h): page_macs() picks
 * client MACs of one bucket, ascending; send_own_page() sends from's own
 * OGM with one page of them.
 */
static unsigned
page_macs(uint8_t cm[][BS_ADDR_LEN], unsigned want, unsigned pages,
    unsigned page, unsigned from)
{
	unsigned i, k = 0;

	for (i = from; k < want && i < 65536; i++) {
		uint8_t m[BS_ADDR_LEN] = { 0x0a, 0, 0, 1, (uint8_t)(i >> 8),
		    (uint8_t)i };

		if (wire_tt_bucket(m, 0, pages) == page)
			memcpy(cm[k++], m, BS_ADDR_LEN);
	}
	return k;
}

static uint32_t
page_sum(uint8_t cm[][BS_ADDR_LEN], unsigned n)
{
	uint32_t sum = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		sum += wire_tt_sum(cm[i], 0, 0);
	return sum;
}

static void
send_own_page(struct node *from, struct node *to, unsigned pages,
    unsigned page, uint8_t cm[][BS_ADDR_LEN], unsigned n, unsigned total,
    uint32_t sum)
{
	struct wire_tt_entry e[WIRE_TT_PAGE_MAX] = { 0 };
	struct wire_tt_page pg = { 0 };
	uint8_t tv[WIRE_TVLV_MAX];
	size_t len = 0;
	struct ent ogm;
	unsigned i;

	for (i = 0; i < n; i++)
		e[i].mac = cm[i];
	pg.ttvn = 1;
	pg.total = (uint16_t)total;
	pg.sum = sum;
	pg.pages = (uint8_t)pages;
	pg.page = (uint8_t)page;
	pg.n = n;
	pg.e = e;
	ck_assert_int_eq(wire_tvlv_put_tt_page(tv, sizeof(tv), &len, &pg),
	    WIRE_OK);
	ent_init(&ogm, from->who, ++from->ogm_seqno, 0);
	ogm.tvlv = tv;
	ogm.tvlv_len = len;
	ck_assert_int_eq(send_ent(from, to, &ogm), PCORE_ACCEPT);
}

static unsigned
tt_count_for(const struct node *n, unsigned mark, int who)
{
	struct ipc_tt t;
	unsigned i, k = 0;

	for (i = mark; i < n->n && i < NMSG; i++)
		if (ipc_get(&n->msg[i], IPC_TT, &t, sizeof(t)) == 0 &&
		    memcmp(t.orig_addr, addrs[who], BS_ADDR_LEN) == 0)
			k++;
	return k;
}

/*
 * A page goes upstairs as an IPC_TT of its bucket, once while it does not
 * change; a page that no longer has a client withdraws P's claim at once
 * (another node takes it within the roaming limit); the table is synced
 * when every page came and the sums add up; a paged originator keeps
 * its claims in the other buckets alive.
 */
START_TEST(test_claims_pages)
{
	static uint8_t b[4][8][BS_ADDR_LEN];
	uint32_t sum = 0;
	struct ipc_tt tt;
	unsigned mark, pg, total = 0;

	claims_up();
	for (pg = 0; pg < 4; pg++) {
		ck_assert_uint_eq(page_macs(b[pg], 8, 4, pg, 0), 8);
		sum += page_sum(b[pg], 8);
		total += 8;
	}
	/* Q has client b[1][0] first. */
	mark = X.n;
	send_own_tv(&Q, &X, b[1][0], NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_Q, &tt) && tt_has(&tt, b[1][0]));
	/* P's page 1 of 4: upstairs as page 1, P takes the client. */
	mark = X.n;
	send_own_page(&P, &X, 4, 1, b[1], 8, total, sum);
	ck_assert(tt_last(&X, mark, I_P, &tt));
	ck_assert_uint_eq(tt.pages, 4);
	ck_assert_uint_eq(tt.page, 1);
	ck_assert_uint_eq(tt.count, 8);
	ck_assert(tt_has(&tt, b[1][0]));
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_TT_PAGES], 1);
	/* The same page again: nothing new upstairs. */
	mark = X.n;
	send_own_page(&P, &X, 4, 1, b[1], 8, total, sum);
	ck_assert_uint_eq(tt_count_for(&X, mark, I_P), 0);
	/* Q claims it back at once: over the roaming limit, refused. */
	send_own_tv(&Q, &X, b[1][0], NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_Q, &tt) && !tt_has(&tt, b[1][0]));
	ck_assert_uint_eq(pcore_ttpage_synced(&X.pc), 0);
	/*
	 * The other pages come, 3 s apart, page 1 not again: P's claim of
	 * b[1][0] is refreshed by each (no release after 3 intervals), so
	 * 9 s after its move Q still may not take it.
	 */
	for (pg = 0; pg < 4; pg++) {
		if (pg == 1)
			continue;
		now_ms += 3000;
		link_up(&X, &P, 1);
		link_up(&X, &Q, 1);
		send_own_page(&P, &X, 4, pg, b[pg], 8, total, sum);
	}
	ck_assert_uint_eq(pcore_ttpage_synced(&X.pc), 1);
	/* A newest page whose checksum the held pages do not add up to. */
	send_own_page(&P, &X, 4, 3, b[3], 8, total, sum + 1);
	ck_assert_uint_eq(pcore_ttpage_synced(&X.pc), 0);
	send_own_page(&P, &X, 4, 3, b[3], 8, total + 1, sum);
	ck_assert_uint_eq(pcore_ttpage_synced(&X.pc), 0);
	send_own_page(&P, &X, 4, 3, b[3], 8, total, sum);
	ck_assert_uint_eq(pcore_ttpage_synced(&X.pc), 1);
	mark = X.n;
	send_own_tv(&Q, &X, b[1][0], NULL, 0, 0);
	ck_assert(!(tt_last(&X, mark, I_Q, &tt) && tt_has(&tt, b[1][0])));
	/* P's page 1 without the client: withdrawn, Q takes it at once. */
	mark = X.n;
	send_own_page(&P, &X, 4, 1, b[1] + 1, 7, total - 1,
	    sum - wire_tt_sum(b[1][0], 0, 0));
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt.count == 7 &&
	    !tt_has(&tt, b[1][0]));
	ck_assert_uint_eq(pcore_ttpage_synced(&X.pc), 1);
	send_own_tv(&Q, &X, b[1][0], NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_Q, &tt) && tt_has(&tt, b[1][0]));
	claims_down();
}
END_TEST

/* The multicast listeners of each newer OGM go upstairs (IPC_MCAST). */
START_TEST(test_ogm_mcast)
{
	static const uint8_t g[2 * BS_ADDR_LEN] = { 0x01, 0x00, 0x5e, 0x01,
	    0x02, 0x03, 0x33, 0x33, 0x00, 0x01, 0x12, 0x34 };
	uint8_t tv[WIRE_TVLV_MAX];
	struct ipc_mcast m;
	struct ent ogm;
	unsigned mark, i;
	size_t len = 0;
	int found;

	claims_up();
	ck_assert_int_eq(wire_tvlv_put_mcast(tv, sizeof(tv), &len,
	    WIRE_MCAST_F_ALL4, g, 2), WIRE_OK);
	mark = X.n;
	ent_init(&ogm, P.who, ++P.ogm_seqno, 0);
	ogm.tvlv = tv;
	ogm.tvlv_len = len;
	ck_assert_int_eq(send_ent(&P, &X, &ogm), PCORE_ACCEPT);
	for (i = mark, found = 0; i < X.n && i < NMSG; i++)
		if (ipc_get(&X.msg[i], IPC_MCAST, &m, sizeof(m)) == 0)
			found = 1;
	ck_assert(found);
	ck_assert_mem_eq(m.orig_addr, addrs[I_P], BS_ADDR_LEN);
	ck_assert_uint_eq(m.known, 1);
	ck_assert_uint_eq(m.flags, WIRE_MCAST_F_ALL4);
	ck_assert_uint_eq(m.count, 2);
	ck_assert_mem_eq(m.group, g, sizeof(g));
	/* The next OGM has none: unknown. */
	mark = X.n;
	send_own_tv(&P, &X, NULL, NULL, 0, 0);
	for (i = mark, found = 0; i < X.n && i < NMSG; i++)
		if (ipc_get(&X.msg[i], IPC_MCAST, &m, sizeof(m)) == 0)
			found = 1;
	ck_assert(found);
	ck_assert_uint_eq(m.known, 0);
	ck_assert_uint_eq(m.count, 0);
	claims_down();
}
END_TEST

/* clients-per-originator counts a paged originator's whole table. */
START_TEST(test_claims_pages_limit)
{
	static uint8_t b[2][10][BS_ADDR_LEN];
	struct polspec ps = pol_default;
	struct ipc_tt tt;
	unsigned mark;
	uint64_t drops;

	claims_up();
	ps.mode = BS_POLICY_OPEN;
	ps.clients = 15;
	node_policy(&X, &ps, 3);
	ck_assert_uint_eq(page_macs(b[0], 10, 2, 0, 0), 10);
	ck_assert_uint_eq(page_macs(b[1], 10, 2, 1, 0), 10);
	mark = X.n;
	send_own_page(&P, &X, 2, 0, b[0], 10, 20, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt.count == 10);
	drops = X.pc.stat[IPC_STAT_DROP_CLAIM];
	send_own_page(&P, &X, 2, 1, b[1], 10, 20, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt.page == 1 &&
	    tt.count == 5);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_CLAIM], drops + 5);
	claims_down();
}
END_TEST

/*
 * Roaming (pcore_claims.c): a client its owner's OGMs stopped claiming
 * (the owner withdrew it, batsec-protocol(7) ROAMING) is released after
 * PL_CLAIM_RELEASE_OGMS intervals and may move at once, within the
 * roaming limit; one its owner still claims stays put until then.
 */
START_TEST(test_claims_release)
{
	struct ipc_tt tt;
	unsigned mark, i;

	claims_up();
	mark = X.n;
	send_own_tv(&P, &X, client1, NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt_has(&tt, client1));
	/* The client roams to Q: Q's new claim takes it at once. */
	send_own_tv(&Q, &X, client1, NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_Q, &tt) && tt_has(&tt, client1));
	/* P's stale claim (it has not withdrawn yet) is refused. */
	send_own_tv(&P, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_P, &tt) && !tt_has(&tt, client1));
	/* It roams back at once: within the roaming limit, and Q (live)
	 * still claims it for 2 s, so P's claim is refused until Q's OGMs
	 * have not claimed it for PL_CLAIM_RELEASE_OGMS (3) intervals and
	 * a second of rounding: P takes it 6 s after the last move (the
	 * roaming limit: 10 s). */
	for (i = 0; i < 6; i++) {
		now_ms += 1000;
		link_up(&X, &P, 1);
		link_up(&X, &Q, 1);
		send_own_tv(&Q, &X, i < 2 ? client1 : client2, NULL, 0, 0);
		send_own_tv(&P, &X, client1, client3, 0, 0);
		ck_assert(tt_last(&X, mark, I_P, &tt));
		ck_assert_msg(tt_has(&tt, client1) == (i == 5), "second %u", i);
	}
	ck_assert(tt_has(&tt, client1));
	claims_down();
}
END_TEST

/*
 * An owner that sends compact entries (no clients, batsec-protocol(7)
 * "OGM CHAIN") still claims the clients of its last full entry: after
 * 20 s of compact entries from P, a stranger's claim of P's client is
 * still refused (before the fix P's claim was released after 4 s, and
 * lapsed after the idle time, so the stranger took it); a client P's
 * next full entry no longer lists is released as before.
 */
START_TEST(test_claims_compact)
{
	static struct node R;		/* a stranger (identity U) */
	static struct bs_ogmchain ch;
	static struct agg a;
	uint8_t tv[256], anchor[BS_CHAIN_LEN];
	struct ipc_tt tt;
	struct ent e;
	unsigned mark, i;

	claims_up();
	node_up(&R, I_U, IPC_LOG_INFO);
	link_up(&X, &R, 64);
	X.pc.upgrade_until_ms = 0;
	bs_ogmchain_new(&ch, 1);
	mark = X.n;
	ent_init(&e, I_P, 1, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 1, e.seed, anchor), 0);
	e.tvlv = tv;
	e.tvlv_len = tvlvs(tv, sizeof(tv), client1, client2, 0, 0);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert(tt_last(&X, mark, I_P, &tt) && tt_has(&tt, client1));
	for (i = 2; i <= 21; i++) {
		now_ms += 1000;
		link_up(&X, &P, 1);
		link_up(&X, &R, 1);
		ent_init(&e, I_P, i, 0);
		ck_assert_int_eq(bs_ogmchain_get(&ch, i, e.seed, anchor), 0);
		a.n = 0;
		agg_add_compact(&a, &e);
		ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	}
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_OGM_COMPACT], 20);
	mark = X.n;
	send_own_tv(&R, &X, client1, client3, 0, 0);
	ck_assert(tt_last(&X, mark, I_U, &tt));
	ck_assert(!tt_has(&tt, client1) && tt_has(&tt, client3));
	/* P's full entry of seqno 22 lists client1 only: client2 ages
	 * out (released) while compact entries follow, then R takes it. */
	ent_init(&e, I_P, 22, 0);
	ck_assert_int_eq(bs_ogmchain_get(&ch, 22, e.seed, anchor), 0);
	e.tvlv = tv;
	e.tvlv_len = tvlvs(tv, sizeof(tv), client1, NULL, 0, 0);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	for (i = 23; i <= 40; i++) {
		now_ms += 1000;
		link_up(&X, &P, 1);
		link_up(&X, &R, 1);
		ent_init(&e, I_P, i, 0);
		ck_assert_int_eq(bs_ogmchain_get(&ch, i, e.seed, anchor), 0);
		a.n = 0;
		agg_add_compact(&a, &e);
		ck_assert_int_eq(send_agg(&P, &X, &a), PCORE_ACCEPT);
	}
	mark = X.n;
	{
		struct ent r;

		ent_init(&r, I_U, ++R.ogm_seqno, 0);
		r.tvlv = tv;
		r.tvlv_len = tvlvs(tv, sizeof(tv), client1, client2, 0, 0);
		ck_assert_int_eq(send_ent(&R, &X, &r), PCORE_ACCEPT);
	}
	ck_assert(tt_last(&X, mark, I_U, &tt));
	ck_assert(!tt_has(&tt, client1) && tt_has(&tt, client2));
	node_down(&R);
	claims_down();
}
END_TEST

/*
 * Bulk (pcore_claims.c): takes from a live owner count against the
 * claimant, at most roam-per-minute (6) per originator and minute; the
 * owner's own claims and better-class takes are not limited.
 */
START_TEST(test_claims_bulk)
{
	struct ipc_tt tt;
	uint8_t mac[8][6];
	unsigned mark, k;

	/* The start of a clock minute (the budget's window). */
	now_ms += 60000 - now_ms % 60000;
	claims_up();
	mark = X.n;
	for (k = 0; k < 8; k++) {
		memcpy(mac[k], client1, 6);
		mac[k][5] = (uint8_t)(0x40 + k);
		/* P claims client k, then Q claims it too. */
		send_own_tv(&P, &X, mac[k], NULL, 0, 0);
		ck_assert(tt_last(&X, mark, I_P, &tt) && tt_has(&tt, mac[k]));
		send_own_tv(&Q, &X, mac[k], NULL, 0, 0);
		ck_assert(tt_last(&X, mark, I_Q, &tt));
		ck_assert_msg(tt_has(&tt, mac[k]) == (k < 6),
		    "take %u of Q", k);
	}
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_CLAIM], 2);
	/* The next minute brings a new budget. */
	now_ms += 60000;
	link_up(&X, &P, 1);
	link_up(&X, &Q, 1);
	send_own_tv(&P, &X, mac[7], NULL, 0, 0);
	send_own_tv(&Q, &X, mac[7], NULL, 0, 0);
	ck_assert(tt_last(&X, mark, I_Q, &tt) && tt_has(&tt, mac[7]));
	claims_down();
}
END_TEST

START_TEST(test_tt_gw)
{
	struct ipc_tt tt;
	struct ipc_gw gw;
	struct polspec ps = pol_default;
	unsigned mark;

	node_up(&X, I_X, IPC_LOG_INFO);
	node_up(&P, I_P, IPC_LOG_INFO);
	node_up(&Q, I_Q, IPC_LOG_INFO);
	link_up(&X, &P, 64);
	link_up(&X, &Q, 64);
	/* P (a gateway by policy) announces two clients and a gateway. */
	mark = X.n;
	send_own_tv(&P, &X, client1, client2, 100, 20);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_mem_eq(tt.orig_addr, addrs[I_P], 6);
	ck_assert_uint_eq(tt.count, 2);
	ck_assert_mem_eq(tt.e[0].mac, client1, 6);
	ck_assert_uint_eq(tt.e[0].vid, 0);
	ck_assert_mem_eq(tt.e[1].mac, client2, 6);
	ck_assert_uint_eq(tt.e[1].vid, WIRE_VID_TAGGED | 5);
	ck_assert_int_ge(msg_find(&X, mark, IPC_GW, &gw, sizeof(gw)), 0);
	ck_assert_mem_eq(gw.orig_addr, addrs[I_P], 6);
	ck_assert_uint_eq(gw.op, IPC_GW_ANNOUNCE);
	ck_assert_uint_eq(gw.down, 100);
	ck_assert_uint_eq(gw.up, 20);
	/* Unchanged: nothing (only the route refresh). */
	mark = X.n;
	send_own_tv(&P, &X, client1, client2, 100, 20);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_TT) +
	    msg_count(&X, mark, IPC_GW), 0);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_ADD), 1);
	/* A client announced isolated (ap-isolation): its flag alone is a
	 * change, passed on as signed; and back. */
	mark = X.n;
	tt_flags2 = WIRE_TT_F_ISOLATED;
	send_own_tv(&P, &X, client1, client2, 100, 20);
	tt_flags2 = 0;
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_uint_eq(tt.count, 2);
	ck_assert_uint_eq(tt.e[0].flags, 0);
	ck_assert_uint_eq(tt.e[1].flags, WIRE_TT_F_ISOLATED);
	mark = X.n;
	send_own_tv(&P, &X, client1, client2, 100, 20);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_uint_eq(tt.e[1].flags, 0);
	/* One client fewer, other bandwidth. */
	mark = X.n;
	send_own_tv(&P, &X, client1, NULL, 200, 20);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_uint_eq(tt.count, 1);
	ck_assert_int_ge(msg_find(&X, mark, IPC_GW, &gw, sizeof(gw)), 0);
	ck_assert_uint_eq(gw.down, 200);
	/* Both gone: the list is cleared and the gateway withdrawn. */
	mark = X.n;
	send_own_tv(&P, &X, NULL, NULL, 0, 0);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_uint_eq(tt.count, 0);
	ck_assert_int_ge(msg_find(&X, mark, IPC_GW, &gw, sizeof(gw)), 0);
	ck_assert_uint_eq(gw.op, IPC_GW_WITHDRAW);
	ck_assert_uint_eq(gw.down + gw.up, 0);
	mark = X.n;
	send_own_tv(&P, &X, NULL, NULL, 0, 0);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_TT) +
	    msg_count(&X, mark, IPC_GW), 0);
	/* Q has no gateway right: its announcement is not passed on. */
	mark = X.n;
	send_own_tv(&Q, &X, client3, NULL, 100, 100);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_mem_eq(tt.orig_addr, addrs[I_Q], 6);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_GW), 0);
	/* limit clients-per-originator 1: only the first is passed on. */
	ps.clients = 1;
	node_policy(&X, &ps, 2);
	mark = X.n;
	send_own_tv(&P, &X, client1, client2, 0, 0);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_uint_eq(tt.count, 1);
	ck_assert_mem_eq(tt.e[0].mac, client1, 6);
	node_down(&X);
	node_down(&P);
	node_down(&Q);
}
END_TEST

/* ---- purge, interfaces, policy changes ---------------------------------------- */

/* X with neighbour P; routes to P (with a client and a gateway) and O. */
static void
routes_up(void)
{
	struct ent e;

	pair_up(1);
	send_own_tv(&P, &X, client1, NULL, 100, 20);
	ent_init(&e, I_O, 5, 1);
	ck_assert_int_eq(send_ent(&P, &X, &e), PCORE_ACCEPT);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 2);
	ck_assert_ptr_nonnull(ipc_ctx_neigh_find(&X.ctx, addrs[I_P], IFX));
}

/* After mark: ROUTE_DEL for P and O, then NEIGH DOWN for P, last. */
static void
assert_p_gone(unsigned mark)
{
	struct ipc_route_del rd;
	struct ipc_neigh ng;
	int i, down;

	down = msg_find(&X, mark, IPC_NEIGH, &ng, sizeof(ng));
	ck_assert_int_ge(down, 0);
	ck_assert_uint_eq(ng.state, IPC_NEIGH_DOWN);
	ck_assert_mem_eq(ng.pk, ids[I_P].pk, BS_PK_LEN);
	ck_assert_mem_eq(ng.mac, macs[I_P], 6);
	ck_assert_uint_eq(ng.tq + ng.rx_count, 0);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_DEL), 2);
	for (i = (int)mark; (i = msg_find(&X, (unsigned)i, IPC_ROUTE_DEL, &rd,
	    sizeof(rd))) >= 0; i++)
		ck_assert_int_lt(i, down);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_P]));
}

START_TEST(test_purge)
{
	struct ipc_tt tt;
	struct ipc_gw gw;
	unsigned mark;
	uint64_t t;

	routes_up();
	/* Nothing is stale yet. */
	mark = X.n;
	pcore_tick(&X.pc, now_ms + ROUTING_NEIGH_TIMEOUT);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_DEL) +
	    msg_count(&X, mark, IPC_NEIGH), 0);
	/* P silent past the neighbour timeout: routes, then P, go. */
	mark = X.n;
	t = now_ms + ROUTING_NEIGH_TIMEOUT + PCORE_PURGE_MS;
	pcore_tick(&X.pc, t);
	assert_p_gone(mark);
	ck_assert_ptr_null(ipc_ctx_neigh_find(&X.ctx, addrs[I_P], IFX));
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 2);
	/* The originators past theirs: P's client and gateway cleared. */
	mark = X.n;
	pcore_tick(&X.pc, now_ms + ROUTING_ORIG_TIMEOUT + 2 * PCORE_PURGE_MS);
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 0);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_mem_eq(tt.orig_addr, addrs[I_P], 6);
	ck_assert_uint_eq(tt.count, 0);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_TT), 1);
	ck_assert_int_ge(msg_find(&X, mark, IPC_GW, &gw, sizeof(gw)), 0);
	ck_assert_uint_eq(gw.op, IPC_GW_WITHDRAW);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_ROUTE_DEL), 0);
	node_down(&X);
	node_down(&P);
}
END_TEST

START_TEST(test_iface_loss)
{
	struct ipc_iface f;
	struct frame fr;
	char err[128];
	unsigned mark;

	routes_up();
	mark = X.n;
	if (_i == 0) {
		iface_of(&f, I_X, IFX, IPC_IFACE_DOWN);
	} else {
		/* The forwarder forgets the interface before telling us. */
		ipc_ctx_iface_del(&X.ctx, IFX);
		iface_of(&f, I_X, IFX, IPC_IFACE_REMOVED);
	}
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	assert_p_gone(mark);
	/* DOWN about a removed interface is stale, never a violation. */
	ck_assert_uint_eq(X.stale, _i == 0 ? 0 : 1);
	hello_of(&fr, &P);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), _i == 0 ?
	    PCORE_DROP_IFACE_DOWN : PCORE_DROP_IFACE);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_IFACE], 1);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* A new policy that no longer trusts P removes it at once. */
START_TEST(test_policy_removes)
{
	struct polspec ps = pol_default;
	struct ipc_tt tt;
	struct frame fr;
	unsigned mark;

	routes_up();
	mark = X.n;
	ps.trust &= ~(1u << I_P);
	node_policy(&X, &ps, 2);
	assert_p_gone(mark);
	ck_assert_int_ge(msg_find(&X, mark, IPC_TT, &tt, sizeof(tt)), 0);
	ck_assert_uint_eq(tt.count, 0);
	ck_assert_uint_eq(msg_count(&X, mark, IPC_GW), 1);
	/* O's entry went with its only next hop; O itself stays trusted. */
	ck_assert_uint_eq(routing_orig_count(X.pc.rt), 1);
	hello_of(&fr, &P);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_POLICY);
	node_down(&X);
	node_down(&P);
}
END_TEST

/* ---- malformed and misdirected frames ------------------------------------------ */

static void
make_ogm(struct frame *fr, int sender, int orig)
{
	static struct agg a;
	struct auth au = { WIRE_AUTH_MAC, sender, I_X, 0, 0 };
	struct ent e;

	if (sender == I_X)
		au.tag_to = I_P;
	a.n = 0;
	ent_init(&e, orig, 10, sender == orig ? 0 : 1);
	agg_add(&a, &e);
	frame_of(fr, sender, &a, &au, 77);
}

static void
make_unicast(struct frame *fr)
{
	static const struct t_link hop;
	static const uint8_t k[BS_E2EKEY_LEN];
	uint8_t inner[60] = { 0 };

	fr->len = t_sealed(fr->buf, sizeof(fr->buf), (struct t_sealed){
	    .ttl = 5, .hop = &hop, .hop_ctr = 1, .e2e_key = k,
	    .e = { .dst = addrs[I_X], .src = addrs[I_P], .src_epoch = 1,
	    .dst_epoch = 1, .counter = 1 }, .pt = inner,
	    .pt_len = sizeof(inner) });
}

static void
make_bcast(struct frame *fr)
{
	static const struct t_link hop;
	const struct t_link *hops[1] = { &hop };
	uint8_t inner[60] = { 0 };

	fr->len = t_bcast(fr->buf, sizeof(fr->buf), (struct t_bcast){
	    .ttl = 5, .hops = hops, .num_tags = 1, .orig = &ids[I_P],
	    .epoch = 1, .seqno = 1, .inner = inner,
	    .inner_len = sizeof(inner) });
}

static void
make_hello(struct frame *fr, int who, const uint8_t ifmac[6])
{
	hello_build(fr, who, ifmac, 42, NULL, 0);
}

enum mut {
	M_EMPTY, M_ONE_BYTE, M_VERSION, M_TYPE, M_HELLO_TRUNC, M_HELLO_TRAIL,
	M_HELLO_FLAGS, M_HELLO_INTERVAL, M_HELLO_MAC, M_HELLO_OWN, M_OGM_TRUNC,
	M_OGM_COUNT0, M_OGM_OWN, M_OGM_TRAIL, M_UNICAST, M_BCAST,
};

static const struct {
	enum mut mut;
	enum pcore_drop want;
	int malformed;		/* counts as drop_malformed */
	enum ipc_stat_id stat;	/* the counter it goes to */
} bad[] = {
	{ M_EMPTY, PCORE_DROP_EMPTY, 1, IPC_STAT_DROP_MALFORMED },
	{ M_ONE_BYTE, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_VERSION, PCORE_DROP_VERSION, 1, IPC_STAT_DROP_MALFORMED },
	{ M_TYPE, PCORE_DROP_TYPE, 1, IPC_STAT_DROP_MALFORMED },
	{ M_HELLO_TRUNC, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_HELLO_TRAIL, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_HELLO_FLAGS, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_HELLO_INTERVAL, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_HELLO_MAC, PCORE_DROP_HELLO_MAC, 1, IPC_STAT_DROP_MALFORMED },
	{ M_HELLO_OWN, PCORE_DROP_OWN, 0, IPC_STAT_DROP_OWN },
	{ M_OGM_TRUNC, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_OGM_COUNT0, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_OGM_OWN, PCORE_DROP_OWN, 0, IPC_STAT_DROP_OWN },
	{ M_OGM_TRAIL, PCORE_DROP_MALFORMED, 1, IPC_STAT_DROP_MALFORMED },
	{ M_UNICAST, PCORE_DROP_DATA, 0, IPC_STAT_DROP_DATA },
	{ M_BCAST, PCORE_DROP_DATA, 0, IPC_STAT_DROP_DATA },
};
#define N_BAD	((int)(sizeof(bad) / sizeof(bad[0])))

static void
make_bad(struct frame *fr, enum mut mut)
{
	switch (mut) {
	case M_EMPTY:
		fr->len = 0;
		break;
	case M_ONE_BYTE:
		fr->buf[0] = WIRE_T_HELLO;
		fr->len = 1;
		break;
	case M_VERSION:
		make_hello(fr, I_P, macs[I_P]);
		fr->buf[1] = 1;		/* a version-1 HELLO: no link salt */
		break;
	case M_TYPE:
		make_hello(fr, I_P, macs[I_P]);
		fr->buf[0] = 0x07;
		break;
	case M_HELLO_TRUNC:
		make_hello(fr, I_P, macs[I_P]);
		fr->len--;
		break;
	case M_HELLO_TRAIL:
		make_hello(fr, I_P, macs[I_P]);
		fr->buf[fr->len++] = 0;
		break;
	case M_HELLO_FLAGS:
		make_hello(fr, I_P, macs[I_P]);
		fr->buf[2] = 0x80;	/* a reserved flag bit */
		break;
	case M_HELLO_INTERVAL:
		make_hello(fr, I_P, macs[I_P]);
		fr->buf[42] = 0;	/* interval 0 ms */
		fr->buf[43] = 0;
		break;
	case M_HELLO_MAC:
		make_hello(fr, I_P, macs[I_X]);	/* != Ethernet source */
		break;
	case M_HELLO_OWN:
		make_hello(fr, I_X, macs[I_P]);
		break;
	case M_OGM_TRUNC:
		make_ogm(fr, I_P, I_O);
		fr->len = WIRE_OGM_HDR_LEN + 10;
		break;
	case M_OGM_COUNT0:
		make_ogm(fr, I_P, I_O);
		fr->buf[2] = 0;		/* num_entries 0 */
		break;
	case M_OGM_OWN:
		make_ogm(fr, I_X, I_O);
		break;
	case M_OGM_TRAIL:
		make_ogm(fr, I_P, I_O);
		fr->buf[fr->len++] = 0xff;
		break;
	case M_UNICAST:
		make_unicast(fr);
		break;
	case M_BCAST:
		make_bcast(fr);
		break;
	}
}

START_TEST(test_refused)
{
	static struct frame fr;
	enum pcore_drop why;
	size_t k, total = 0;

	node_up(&X, I_X, IPC_LOG_INFO);
	memset(&fr, 0, sizeof(fr));
	make_bad(&fr, bad[_i].mut);
	why = feed_from(&X, I_P, &fr);
	ck_assert_msg(why == bad[_i].want, "case %d: got %s, want %s", _i,
	    pcore_drop_name(why), pcore_drop_name(bad[_i].want));
	ck_assert_uint_eq(X.pc.drop[bad[_i].want], 1);
	for (k = 0; k < PCORE_DROP_COUNT; k++)
		total += X.pc.drop[k];
	ck_assert_uint_eq(total, 1);	/* exactly one reason */
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_FRAMES], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_MALFORMED],
	    (uint64_t)bad[_i].malformed);
	ck_assert_uint_eq(X.pc.stat[bad[_i].stat], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_HELLO] +
	    X.pc.stat[IPC_STAT_RX_OGM], 0);
	ck_assert_uint_eq(sig_work(&X), 0);
	/* Codec errors are also counted by their wire_err code. */
	if (bad[_i].want == PCORE_DROP_MALFORMED) {
		for (total = 0, k = 1; k < PCORE_WIRE_ERRS; k++)
			total += X.pc.wire_err[k];
		ck_assert_uint_eq(total, 1);
	}
	ck_assert_uint_eq(X.n_log, 0);	/* level info: no drop lines */
	node_down(&X);
}
END_TEST

/* Where a frame comes from is checked before its bytes. */
START_TEST(test_origin)
{
	static const uint8_t mcast[6] = { 0x03, 1, 2, 3, 4, 5 };
	static const uint8_t zero[6] = { 0 };
	struct ipc_iface f;
	struct frame fr;
	char err[128];

	memset(&X, 0, sizeof(X));
	pcore_init(&X.pc, node_emit, &X);
	make_hello(&fr, I_P, macs[I_P]);
	ck_assert_int_eq(pcore_frame(&X.pc, IFX, macs[I_P], mac_bcast, fr.buf,
	    fr.len, T0), PCORE_DROP_NOCONFIG);
	pcore_free(&X.pc);

	node_up(&X, I_X, IPC_LOG_INFO);
	ck_assert_int_eq(pcore_frame(&X.pc, IFX + 1, macs[I_P], mac_bcast,
	    fr.buf, fr.len, T0), PCORE_DROP_IFACE);
	ck_assert_int_eq(pcore_frame(&X.pc, IFX, mcast, mac_bcast, fr.buf,
	    fr.len, T0), PCORE_DROP_SRC);
	ck_assert_int_eq(pcore_frame(&X.pc, IFX, zero, mac_bcast, fr.buf,
	    fr.len, T0), PCORE_DROP_SRC);
	iface_of(&f, I_X, IFX, IPC_IFACE_DOWN);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_IFACE_DOWN);
	iface_of(&f, I_X, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	iface_of(&f, I_X, IFX, IPC_IFACE_REMOVED);
	ipc_ctx_iface_del(&X.ctx, IFX);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	ck_assert_ptr_null(pcore_iface_find(&X.pc, IFX));
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_IFACE);
	ck_assert_uint_eq(X.pc.drop[PCORE_DROP_IFACE], 2);
	ck_assert_uint_eq(X.pc.drop[PCORE_DROP_SRC], 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_FRAMES], 6);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_HELLO], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_IFACE], 3);
	node_down(&X);
}
END_TEST

/* ---- configuration, interfaces, policy ----------------------------------------- */

START_TEST(test_config_rules)
{
	struct ipc_config c;
	char err[128];

	node_up(&X, I_X, IPC_LOG_INFO);
	/* Log level and timing may change; key, epoch, ethertype not. */
	config_of(&c, I_X, IPC_LOG_DEBUG);
	c.hop_penalty = 40;
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), 0);
	ck_assert_uint_eq(X.pc.cfg.log_level, IPC_LOG_DEBUG);
	ck_assert_uint_eq(routing_get_params(X.pc.rt)->hop_penalty, 40);
	config_of(&c, I_X, IPC_LOG_INFO);
	c.epoch++;
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot change"));
	config_of(&c, I_X, IPC_LOG_INFO);
	c.ethertype = 0x88b6;
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), -1);
	config_of(&c, I_P, IPC_LOG_INFO);
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), -1);
	/* The address must belong to the key, configured or not. */
	config_of(&c, I_X, IPC_LOG_INFO);
	c.own_addr[5] ^= 1;
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "own_addr"));
	ck_assert_uint_eq(X.pc.cfg.epoch, EPOCH);
	node_down(&X);
}
END_TEST

START_TEST(test_iface_table)
{
	struct ipc_iface f;
	char err[128];
	uint32_t i;

	memset(&X, 0, sizeof(X));
	pcore_init(&X.pc, node_emit, &X);
	for (i = 1; i <= PCORE_MAX_IFACES; i++) {
		iface_of(&f, I_X, i, IPC_IFACE_UP);
		ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	}
	iface_of(&f, I_X, 1000, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "full"));
	/* An update of a known one still works, and removal frees a slot. */
	iface_of(&f, I_X, 3, IPC_IFACE_DOWN);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	ck_assert_int_eq(pcore_iface_find(&X.pc, 3)->up, 0);
	iface_of(&f, I_X, 3, IPC_IFACE_REMOVED);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	iface_of(&f, I_X, 1000, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	ck_assert_str_eq(pcore_iface_find(&X.pc, 1000)->name, "mesh1000");
	/* Removing an unknown interface is harmless; ifindex 0 is not. */
	iface_of(&f, I_X, 5000, IPC_IFACE_REMOVED);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	iface_of(&f, I_X, 0, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), -1);
	pcore_free(&X.pc);
}
END_TEST

START_TEST(test_policy_snapshot)
{
	static const char text[] = "mode open\n";
	struct bs_policy *pol = NULL;
	uint8_t snap[4096], junk[16] = { 'B', 'S', 'P', 'L' };
	size_t n = 0;
	char err[256];

	node_up(&X, I_X, IPC_LOG_INFO);
	ck_assert_int_eq(bs_policy_parse_buf(text, sizeof(text) - 1, "t", NULL,
	    0, &pol, err, sizeof(err)), 0);
	ck_assert_int_eq(bs_policy_snapshot_encode(pol, snap, sizeof(snap),
	    &n), 0);
	ck_assert_int_eq(pcore_policy(&X.pc, 7, snap, n, err, sizeof(err)), 0);
	ck_assert_uint_eq(X.pc.policy_serial, 7);
	ck_assert_int_eq(X.pc.policy->mode, BS_POLICY_OPEN);
	/* A bad snapshot is refused and the old policy stays. */
	ck_assert_int_eq(pcore_policy(&X.pc, 8, junk, sizeof(junk), err,
	    sizeof(err)), -1);
	ck_assert_uint_eq(X.pc.policy_serial, 7);
	ck_assert_ptr_nonnull(X.pc.policy);
	ck_assert_int_eq(pcore_policy(&X.pc, 9, snap, n - 1, err, sizeof(err)),
	    -1);
	ck_assert_uint_eq(X.pc.policy_serial, 7);
	bs_policy_free(pol);
	node_down(&X);
	ck_assert_ptr_null(X.pc.policy);
	ck_assert_ptr_null(X.pc.rt);
}
END_TEST

/* Before any policy arrived, every key is refused. */
START_TEST(test_no_policy_refuses)
{
	struct ipc_config c;
	struct ipc_iface f;
	struct frame fr;
	char err[128];

	memset(&X, 0, sizeof(X));
	X.msg = calloc(NMSG, sizeof(*X.msg));
	ipc_ctx_init(&X.ctx, addrs[I_X]);
	ipc_ctx_iface_add(&X.ctx, IFX);
	pcore_init(&X.pc, node_emit, &X);
	config_of(&c, I_X, IPC_LOG_INFO);
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), 0);
	iface_of(&f, I_X, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	make_hello(&fr, I_P, macs[I_P]);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_POLICY);
	ck_assert_uint_eq(sig_work(&X), 0);
	node_down(&X);
}
END_TEST

/* ---- STATS and LOG ---------------------------------------------------------------- */

static uint64_t
stats_value(const struct ipc_msg *m, uint32_t id)
{
	struct ipc_stats st;
	unsigned i;

	ck_assert_int_eq(ipc_get(m, IPC_STATS, &st, sizeof(st)), 0);
	for (i = 0; i < st.count; i++)
		if (st.s[i].id == id)
			return st.s[i].value;
	ck_abort_msg("counter %u missing", id);
	return 0;
}

START_TEST(test_stats_pacing)
{
	struct frame fr, bad_fr;
	uint64_t next;

	node_up(&X, I_X, IPC_LOG_INFO);
	/* Nothing happened: nothing to send. */
	next = pcore_tick(&X.pc, T0);
	ck_assert_uint_eq(X.n_stats, 0);
	/* The next tick: the sooner of the purge and the stats timer. */
	ck_assert_uint_eq(next, T0 + (PCORE_PURGE_MS < PCORE_STATS_MS ?
	    PCORE_PURGE_MS : PCORE_STATS_MS));
	make_hello(&fr, I_P, macs[I_P]);
	memset(&bad_fr, 0, sizeof(bad_fr));
	bad_fr.buf[0] = 0x07;
	bad_fr.buf[1] = 1;
	bad_fr.len = 60;
	feed_from(&X, I_P, &fr);
	feed_from(&X, I_P, &bad_fr);
	pcore_tick(&X.pc, T0);
	ck_assert_uint_eq(X.n_stats, 1);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_RX_FRAMES), 2);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_RX_HELLO), 1);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_SIG_VERIFIED), 1);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_NEIGHBOURS), 1);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_ORIGINATORS), 0);
	ck_assert_uint_eq(stats_value(&X.last_stats,
	    IPC_STAT_DROP_MALFORMED), 1);
	/* More frames, but within PCORE_STATS_MS: held back. */
	make_hello(&fr, I_Q, macs[I_Q]);
	feed_from(&X, I_Q, &fr);
	next = pcore_tick(&X.pc, T0 + PCORE_STATS_MS - 1);
	ck_assert_uint_eq(X.n_stats, 1);
	ck_assert_uint_eq(next, T0 + PCORE_STATS_MS);
	pcore_tick(&X.pc, T0 + PCORE_STATS_MS);
	ck_assert_uint_eq(X.n_stats, 2);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_RX_HELLO), 2);
	ck_assert_uint_eq(stats_value(&X.last_stats, IPC_STAT_NEIGHBOURS), 2);
	/* No change: no message. */
	pcore_tick(&X.pc, T0 + 10 * PCORE_STATS_MS);
	ck_assert_uint_eq(X.n_stats, 2);
	node_down(&X);
}
END_TEST

/* A flood of bad frames yields a bounded number of (valid) log lines. */
START_TEST(test_drop_log_limited)
{
	struct frame fr;
	int i;

	node_up(&X, I_X, IPC_LOG_DEBUG);
	X.n_log = 0;
	make_hello(&fr, I_P, macs[I_X]);
	for (i = 0; i < 1000; i++) {
		feed_from(&X, I_P, &fr);
		if (i == PCORE_LOG_BURST)
			ck_assert_ptr_nonnull(strstr(X.last_log,
			    "HELLO interface MAC"));
	}
	/* The source's frame burst (200) passes, the rest is over its rate. */
	ck_assert_uint_eq(X.pc.drop[PCORE_DROP_HELLO_MAC], 200);
	ck_assert_uint_eq(X.pc.drop[PCORE_DROP_RATE], 800);
	/* The debug burst, and one notice about the source over its rate. */
	ck_assert_uint_eq(X.n_log, PCORE_LOG_BURST + 1);
	ck_assert_ptr_nonnull(strstr(X.last_log, "over the frame rate"));
	/* Time refills the bucket, and the line says what was not logged. */
	pcore_frame(&X.pc, IFX, macs[I_P], mac_bcast, fr.buf, fr.len,
	    T0 + 10000);
	ck_assert_uint_eq(X.n_log, PCORE_LOG_BURST + 2);
	ck_assert_ptr_nonnull(strstr(X.last_log, "990"));
	node_down(&X);
}
END_TEST

START_TEST(test_drop_log_detail)
{
	struct frame fr;

	node_up(&X, I_X, IPC_LOG_DEBUG);
	X.n_log = 0;
	make_bad(&fr, M_HELLO_INTERVAL);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_MALFORMED);
	ck_assert_uint_eq(X.n_log, 1);
	/* The field, its offset and the codec's reason are named. */
	ck_assert_ptr_nonnull(strstr(X.last_log, "offset 42"));
	ck_assert_ptr_nonnull(strstr(X.last_log, "11:22:33:44:55"));
	node_down(&X);
}
END_TEST

/* The emit callback failing is counted, never fatal. */
static int
emit_fail(void *arg, uint16_t type, const void *obj, size_t size)
{
	(void)arg;
	(void)type;
	(void)obj;
	(void)size;
	return -1;
}

/*
 * An originator changing class (pcore_lim_reclass, after a policy change
 * or a certificate): a stranger that becomes trusted leaves the stranger
 * count and its introducer's share, and forgets the introducer; one that
 * becomes a stranger counts again (introduced by nobody); an introducer
 * whose slot was reused since (other generation) is not charged.
 */
START_TEST(test_lim_reclass)
{
	uint8_t aux[ROUTING_AUX_LEN];
	struct pcore_aux a;

	memset(&X, 0, sizeof(X));
	pcore_init(&X.pc, emit_fail, NULL);
	X.pc.neigh[3].ifindex = IFX;
	X.pc.neigh[3].strangers = 2;
	X.pc.neigh_gen[3] = 7;
	X.pc.n_strangers = 5;
	memset(&a, 0, sizeof(a));
	a.intro = 4;
	a.intro_gen = 7;
	a.tt_count = 9;
	memcpy(aux, &a, sizeof(a));

	pcore_lim_reclass(&X.pc, BS_CLASS_STRANGER, BS_CLASS_STRANGER, aux);
	ck_assert_uint_eq(X.pc.n_strangers, 5);
	pcore_lim_reclass(&X.pc, BS_CLASS_STRANGER, BS_CLASS_TRUSTED, aux);
	ck_assert_uint_eq(X.pc.n_strangers, 4);
	ck_assert_uint_eq(X.pc.neigh[3].strangers, 1);
	memcpy(&a, aux, sizeof(a));
	ck_assert_uint_eq(a.intro, 0);
	ck_assert_uint_eq(a.intro_gen, 0);
	ck_assert_uint_eq(a.tt_count, 9);	/* the rest is kept */
	/* Trusted to stranger: counted, charged to nobody. */
	pcore_lim_reclass(&X.pc, BS_CLASS_TRUSTED, BS_CLASS_STRANGER, aux);
	ck_assert_uint_eq(X.pc.n_strangers, 5);
	ck_assert_uint_eq(X.pc.neigh[3].strangers, 1);
	/* The introducer's slot was reused: its new occupant owes nothing. */
	a.intro = 4;
	a.intro_gen = 6;
	memcpy(aux, &a, sizeof(a));
	pcore_lim_reclass(&X.pc, BS_CLASS_STRANGER, BS_CLASS_TRUSTED, aux);
	ck_assert_uint_eq(X.pc.n_strangers, 4);
	ck_assert_uint_eq(X.pc.neigh[3].strangers, 1);
	pcore_free(&X.pc);
}
END_TEST

START_TEST(test_emit_failure)
{
	struct ipc_config c;
	struct ipc_iface f;
	struct frame fr;
	char err[128];

	memset(&X, 0, sizeof(X));
	pcore_init(&X.pc, emit_fail, NULL);
	config_of(&c, I_X, IPC_LOG_DEBUG);
	ck_assert_int_eq(pcore_config(&X.pc, &c, err, sizeof(err)), 0);
	iface_of(&f, I_X, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&X.pc, &f, err, sizeof(err)), 0);
	make_bad(&fr, M_TYPE);
	pcore_frame(&X.pc, IFX, macs[I_P], mac_bcast, fr.buf, fr.len, T0);
	pcore_tick(&X.pc, T0);
	ck_assert_uint_eq(X.pc.emit_failed, 2);	/* one LOG, one STATS */
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_EMIT_FAILED], 2);
	pcore_free(&X.pc);
}
END_TEST

/* A neighbour whose NEIGH UP could not be sent gets no route and no key
 * request until a later HELLO announces it. */
/*
 * HELLO version 3: a neighbour whose link key we hold authenticates its
 * HELLOs with a tag and costs no signature check; a tag that does not
 * verify, a key that is no neighbour (or whose key we lack), a replay
 * and a refused key are dropped, none of them with a signature check.
 */
START_TEST(test_hello_tagged)
{
	struct wire_hello_neigh us = { .addr = addrs[I_X], .rx_count = 3 };
	struct routing_neigh_info ni;
	struct frame fr, good;
	uint64_t sigs;

	node_up(&X, I_X, IPC_LOG_INFO);
	/* Q's tagged HELLO before any signed one: we hold no key with Q. */
	hello_tagged(&fr, I_Q, I_X, 10, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_Q, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_Q]));
	ck_assert_uint_eq(sig_work(&X), 0);
	/* P's first HELLO is signed and lists us: no request to sign; a
	 * new neighbour, so X hands full entries on for a while. */
	hello_build(&fr, I_P, macs[I_P], 42, &us, 1);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_int_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->key_state,
	    PCORE_KEY_OK);
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_SIGN), 0);
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_BACK), 0);
	ck_assert_int_eq(pcore_desc_upgrading(&X.pc, now_ms), 1);
	sigs = sig_work(&X);
	ck_assert_uint_eq(sigs, 1);
	/* Tagged under the link key: accepted without a signature. */
	hello_tagged(&good, I_P, I_X, 43, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &good), PCORE_ACCEPT);
	ck_assert_uint_eq(sig_work(&X), sigs);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_HELLO_MAC], 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_HELLO], 2);
	ck_assert_int_eq(routing_neigh_get(X.pc.rt, IFX, addrs[I_P], &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.seqno, 43);
	/* The same frame again: a replay. */
	ck_assert_int_eq(feed_from(&X, I_P, &good), PCORE_DROP_REPLAY);
	/* A tag under another key, and a flipped bit: refused, the
	 * neighbour's state untouched. */
	hello_tagged(&fr, I_P, I_X, 44, &us, 1, 1);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_LINK_AUTH);
	hello_tagged(&fr, I_P, I_X, 44, &us, 1, 0);
	fr.buf[WIRE_HELLO_FIXED_LEN + 6] ^= 1;		/* our rx_count */
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_LINK_AUTH);
	fr.buf[WIRE_HELLO_FIXED_LEN + 6] ^= 1;
	fr.buf[fr.len - 1] ^= 0x80;			/* the tag */
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_LINK_AUTH);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_DROP_LINK_AUTH], 3);
	ck_assert_int_eq(routing_neigh_get(X.pc.rt, IFX, addrs[I_P], &ni),
	    ROUTING_OK);
	ck_assert_uint_eq(ni.seqno, 43);
	/* P's tag for Q is no tag for us. */
	hello_tagged(&fr, I_P, I_Q, 45, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_LINK_AUTH);
	/* A key the policy refuses: dropped before anything else. */
	hello_tagged(&fr, I_U, I_X, 1, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_U, &fr), PCORE_DROP_POLICY);
	/* P stops listing us: accepted, and our forwarder is asked for a
	 * signed HELLO. */
	hello_tagged(&fr, I_P, I_X, 46, NULL, 0, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_SIGN), 1);
	ck_assert_uint_eq(sig_work(&X), sigs);
	/* P silent past the neighbour timeout: it leaves, its link key is
	 * kept, and its next tagged HELLO brings it back at once (no
	 * signature); a forged tag does not, nor a replay of an old one. */
	now_ms += ROUTING_NEIGH_TIMEOUT + PCORE_PURGE_MS;
	pcore_tick(&X.pc, now_ms);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_P]));
	hello_tagged(&fr, I_P, I_X, 47, &us, 1, 1);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_int_eq(feed_from(&X, I_P, &good), PCORE_DROP_REPLAY);
	ck_assert_int_eq(pcore_desc_upgrading(&X.pc, now_ms), 0);
	hello_tagged(&fr, I_P, I_X, 48, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_ptr_nonnull(pcore_neigh_find(&X.pc, IFX, addrs[I_P]));
	ck_assert_uint_eq(sig_work(&X), sigs);
	/* Announced as one that comes back: our forwarder sends it no full
	 * OGMs, and we hand no full entries on for it (it kept them). */
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_BACK), 1);
	ck_assert_int_eq(pcore_desc_upgrading(&X.pc, now_ms), 0);
	/* Gone again, and back restarted (a newer epoch, signed): new. */
	now_ms += ROUTING_NEIGH_TIMEOUT + PCORE_PURGE_MS;
	pcore_tick(&X.pc, now_ms);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_P]));
	{
		struct wire_hello h = { .pk = ids[I_P].pk, .ifmac = macs[I_P],
		    .interval_ms = 1000, .epoch = EPOCH + 1, .seqno = 1,
		    .num_neigh = 1, .neigh = { us } };

		fr.len = t_hello(fr.buf, sizeof(fr.buf), &h, &ids[I_P]);
	}
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_BACK), 1);
	ck_assert_int_eq(pcore_desc_upgrading(&X.pc, now_ms), 1);
	/* Taken on their tags: seqnos 43, 46 and 48. */
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_HELLO_MAC], 3);
	node_down(&X);
}
END_TEST

/* IPC_HELLO_SIGN messages of node n for interface IFX. */
static unsigned
sign_asks(const struct node *n)
{
	struct ipc_hello_sign m;
	unsigned i, c = 0;

	for (i = 0; i < n->n && i < NMSG; i++)
		if (n->msg[i].hdr.type == IPC_HELLO_SIGN &&
		    ipc_get(&n->msg[i], IPC_HELLO_SIGN, &m, sizeof(m)) == 0 &&
		    m.ifindex == IFX)
			c++;
	return c;
}

/*
 * A tagged HELLO we cannot check, from an admitted key that is no
 * neighbour and carries no tag under a key we hold or keep (it does not
 * list us): our forwarder is asked to sign our next HELLO
 * (IPC_HELLO_SIGN), once per PCORE_HELLO_SIGN_GAP HELLO intervals, and
 * nothing else changes.  A refused key, a malformed HELLO, a tag under
 * the key we kept that does not verify, and a neighbour we hold that
 * stops tagging for us ask nothing.
 */
START_TEST(test_hello_sign_ask)
{
	struct wire_hello_neigh us = { .addr = addrs[I_X], .rx_count = 3 };
	uint64_t gap = (uint64_t)PCORE_HELLO_SIGN_GAP * 1000;
	struct frame fr;
	unsigned n0;

	node_up(&X, I_X, IPC_LOG_INFO);
	ck_assert_uint_eq(X.pc.cfg.hello_ms, 1000);
	/* Q tags for us under a key we do not hold: one ask. */
	n0 = X.n;
	hello_tagged(&fr, I_Q, I_X, 10, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_Q, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_uint_eq(sign_asks(&X), 1);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_HELLO_SIGN_ASKED], 1);
	/* Nothing else: no neighbour, no message but the ask and the log
	 * of the drop, no signature work. */
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_Q]));
	ck_assert_uint_eq(msg_count(&X, n0, IPC_NEIGH), 0);
	ck_assert_uint_eq(msg_count(&X, n0, IPC_LINK_KEY_REQ), 0);
	ck_assert_uint_eq(sig_work(&X), 0);
	/* Q tags for someone else only (it does not list us): within the
	 * gap, no second ask; at its end, one. */
	now_ms += gap - 1;
	hello_tagged(&fr, I_Q, I_P, 11, NULL, 0, 0);
	ck_assert_int_eq(feed_from(&X, I_Q, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_uint_eq(sign_asks(&X), 1);
	now_ms += 1;
	hello_tagged(&fr, I_Q, I_P, 12, NULL, 0, 0);
	ck_assert_int_eq(feed_from(&X, I_Q, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_uint_eq(sign_asks(&X), 2);
	/* Many forged ones within a gap: still one per gap. */
	for (n0 = 0; n0 < 100; n0++) {
		now_ms += 10;
		hello_tagged(&fr, I_Q, I_X, 13 + n0, &us, 1, 1);
		ck_assert_int_eq(feed_from(&X, I_Q, &fr),
		    PCORE_DROP_NO_LINK_KEY);
	}
	ck_assert_uint_eq(sign_asks(&X), 2);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_HELLO_SIGN_ASKED], 2);
	/* A key the policy refuses, and a malformed HELLO: no ask. */
	now_ms += gap;
	hello_tagged(&fr, I_U, I_X, 1, NULL, 0, 0);
	ck_assert_int_eq(feed_from(&X, I_U, &fr), PCORE_DROP_POLICY);
	hello_tagged(&fr, I_Q, I_P, 200, NULL, 0, 0);
	fr.len -= 1;					/* the tag cut short */
	ck_assert_int_ne(feed_from(&X, I_Q, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(sign_asks(&X), 2);
	/* P, a neighbour whose key we hold, stops tagging for us: refused
	 * on its tags, no ask (our tagged HELLOs bring us back at P). */
	hello_build(&fr, I_P, macs[I_P], 42, &us, 1);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_int_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->key_state,
	    PCORE_KEY_OK);
	hello_tagged(&fr, I_P, I_Q, 43, NULL, 0, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_LINK_AUTH);
	ck_assert_uint_eq(sign_asks(&X), 2);
	/* P leaves; its key is kept.  A tag under the kept key that does
	 * not verify: no ask.  One that does not list us: an ask. */
	now_ms += ROUTING_NEIGH_TIMEOUT + PCORE_PURGE_MS;
	pcore_tick(&X.pc, now_ms);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_P]));
	hello_tagged(&fr, I_P, I_X, 44, &us, 1, 0);
	fr.buf[fr.len - 1] ^= 0x80;
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_uint_eq(sign_asks(&X), 2);
	hello_tagged(&fr, I_P, I_Q, 45, NULL, 0, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_DROP_NO_LINK_KEY);
	ck_assert_uint_eq(sign_asks(&X), 3);
	ck_assert_ptr_null(pcore_neigh_find(&X.pc, IFX, addrs[I_P]));
	/* The kept key still brings P back on a good tag. */
	hello_tagged(&fr, I_P, I_X, 46, &us, 1, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(sign_asks(&X), 3);
	node_down(&X);
}
END_TEST

static int fail_neigh;

static int
emit_fail_neigh(void *arg, uint16_t type, const void *obj, size_t size)
{
	if (type == IPC_NEIGH && fail_neigh)
		return -1;
	return node_emit(arg, type, obj, size);
}

START_TEST(test_unannounced_neigh)
{
	struct frame fr;

	node_up(&X, I_X, IPC_LOG_INFO);
	X.pc.emit = emit_fail_neigh;
	fail_neigh = 1;
	make_hello(&fr, I_P, macs[I_P]);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	ck_assert_uint_eq(X.n, 0);
	ck_assert_uint_eq(pcore_neigh_find(&X.pc, IFX, addrs[I_P])->announced,
	    0);
	fail_neigh = 0;
	hello_build(&fr, I_P, macs[I_P], 43, NULL, 0);
	ck_assert_int_eq(feed_from(&X, I_P, &fr), PCORE_ACCEPT);
	/* UP, then (P does not list us) UP asking for a signed HELLO. */
	ck_assert_uint_eq(msg_count(&X, 0, IPC_NEIGH), 2);
	ck_assert_uint_eq(neigh_flagged(&X, IPC_NEIGH_F_SIGN), 1);
	ck_assert_uint_eq(msg_count(&X, 0, IPC_LINK_KEY_REQ), 1);
	node_down(&X);
}
END_TEST

/* ---- random input ------------------------------------------------------------------- */

START_TEST(test_random_bytes)
{
	static struct frame fr;
	uint64_t sum;
	size_t k;
	int i;

	pair_up(1);
	for (i = 0; i < 3000; i++) {
		fr.len = bs_random_uniform(WIRE_OGM_MAX_LEN + 1);
		bs_random(fr.buf, fr.len);
		/* Half of them look like our frame types, to get deeper. */
		if (fr.len >= 2 && (i & 1)) {
			fr.buf[0] = (i & 2) ? WIRE_T_HELLO : WIRE_T_OGM;
			fr.buf[1] = (i & 2) ? WIRE_HELLO_VERSION :
			    WIRE_VERSION;
		}
		now_ms++;
		feed_from(&X, I_P, &fr);
	}
	for (sum = 0, k = 1; k < PCORE_DROP_COUNT; k++)
		sum += X.pc.drop[k];
	ck_assert_uint_eq(sum, 3000);
	ck_assert_uint_eq(X.pc.stat[IPC_STAT_RX_FRAMES], 3000 + 64);
	node_down(&X);
	node_down(&P);
}
END_TEST

START_TEST(test_names)
{
	int k;

	for (k = 0; k < PCORE_DROP_COUNT; k++)
		ck_assert_str_ne(pcore_drop_name((enum pcore_drop)k), "?");
	ck_assert_str_eq(pcore_drop_name(PCORE_DROP_COUNT), "?");
	ck_assert_str_eq(pcore_drop_name((enum pcore_drop)-1), "?");
	for (k = 0; k < PCORE_E_COUNT; k++)
		ck_assert_str_ne(pcore_entry_name((enum pcore_entry)k), "?");
	ck_assert_str_eq(pcore_entry_name(PCORE_E_COUNT), "?");
}
END_TEST

static Suite *
pcore_suite(void)
{
	Suite *s = suite_create("pcore");
	TCase *tc;

	tc = tcase_create("frames");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_refused, 0, N_BAD);
	tcase_add_test(tc, test_origin);
	tcase_add_test(tc, test_random_bytes);
	suite_add_tcase(s, tc);

	tc = tcase_create("neighbours");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hello_first);
	tcase_add_test(tc, test_neigh_discovery);
	tcase_add_test(tc, test_link_key_answers);
	tcase_add_test(tc, test_link_salt_rekey);
	tcase_add_test(tc, test_hello_policy);
	tcase_add_test(tc, test_unannounced_neigh);
	tcase_add_test(tc, test_hello_tagged);
	tcase_add_test(tc, test_hello_sign_ask);
	suite_add_tcase(s, tc);

	tc = tcase_create("ogm");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ogm_route);
	tcase_add_test(tc, test_chain3);
	tcase_add_test(tc, test_compact_chain);
	tcase_add_test(tc, test_compact_budget);
	tcase_add_test(tc, test_compact_fisheye);
	tcase_add_test(tc, test_desc_handon);
	tcase_add_test(tc, test_desc_want);
	tcase_add_test(tc, test_desc_want_rate);
	tcase_add_test(tc, test_desc_want_own);
	tcase_add_test(tc, test_relay_iface_penalties);
	tcase_add_test(tc, test_route_alt);
	tcase_add_test(tc, test_relay_contents);
	tcase_add_test(tc, test_sig_cache);
	tcase_add_loop_test(tc, test_frame_drops, 0, N_FCASES);
	tcase_add_loop_test(tc, test_entry_drops, 0, N_ECASES);
	tcase_add_test(tc, test_table_cap);
	tcase_add_test(tc, test_stranger_share);
	tcase_add_test(tc, test_tt_gw);
	tcase_add_test(tc, test_claims);
	tcase_add_test(tc, test_claims_release);
	tcase_add_test(tc, test_claims_compact);
	tcase_add_test(tc, test_claims_pages);
	tcase_add_test(tc, test_claims_pages_limit);
	tcase_add_test(tc, test_ogm_mcast);
	tcase_add_test(tc, test_claims_bulk);
	suite_add_tcase(s, tc);

	tc = tcase_create("limits");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_neigh_stranger_share);
	tcase_add_test(tc, test_intro_quota);
	tcase_add_test(tc, test_evict);
	tcase_add_test(tc, test_epoch_memory);
	tcase_add_test(tc, test_epoch_zero);
	tcase_add_test(tc, test_verify_budget);
	tcase_add_test(tc, test_link_sig_budget);
	tcase_add_test(tc, test_neigh_slots);
	tcase_add_test(tc, test_tofu_pins);
	tcase_add_test(tc, test_hello_old_epoch);
	tcase_add_test(tc, test_sigcache_chain);
	tcase_add_test(tc, test_sigcache_fit);
	tcase_add_test(tc, test_sig_bad_cached);
	tcase_add_test(tc, test_src_accounting);
	tcase_add_test(tc, test_frame_rate);
	suite_add_tcase(s, tc);

	tc = tcase_create("removal");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_purge);
	tcase_add_loop_test(tc, test_iface_loss, 0, 2);
	tcase_add_test(tc, test_policy_removes);
	suite_add_tcase(s, tc);

	tc = tcase_create("state");
	tcase_add_test(tc, test_config_rules);
	tcase_add_test(tc, test_iface_table);
	tcase_add_test(tc, test_policy_snapshot);
	tcase_add_test(tc, test_no_policy_refuses);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("emit");
	tcase_add_test(tc, test_stats_pacing);
	tcase_add_test(tc, test_drop_log_limited);
	tcase_add_test(tc, test_drop_log_detail);
	tcase_add_test(tc, test_emit_failure);
	tcase_add_test(tc, test_lim_reclass);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	keys_init();
	return t_run(pcore_suite());
}
