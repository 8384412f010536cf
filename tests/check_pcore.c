/*
 * check_pcore.c — the parser core: configuration, interfaces, policy
 * snapshots, and pcore_frame() over valid frames (built with the wire
 * codec's builders) and a table of malformed ones, with the per-reason
 * counters, the STATS and LOG messages it emits (each checked as the
 * forwarder's ipc layer would), rate limiting of its log lines, and a
 * random-bytes run in which every frame is counted exactly once.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "ipc.h"
#include "pcore.h"
#include "wire.h"

static struct bs_identity id_own, id_peer, id_orig;
static uint8_t addr_own[6], addr_peer[6], addr_orig[6];
static const uint8_t mac_peer[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t mac_own[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
static const uint8_t mac_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

#define IFX	7	/* the test's mesh interface */
#define T0	100000	/* a monotonic clock reading */

/* ---- capturing what pcore emits ------------------------------------------ */

#define CAP_MAX	64

struct capture {
	unsigned n;
	unsigned invalid;	/* messages the forwarder would refuse */
	unsigned n_log, n_stats;
	struct ipc_msg last_stats;
	char last_log[IPC_LOG_TEXT_MAX];
};

static struct capture cap;

/* Encode and parse as the forwarder's receiving end would. */
static int
cap_emit(void *arg, uint16_t type, const void *obj, size_t size)
{
	uint8_t buf[IPC_MAX_MSG];
	struct ipc_msg m;
	size_t len;
	char err[256];

	(void)arg;
	cap.n++;
	if (ipc_encode(buf, sizeof(buf), type, obj, size, &len, err,
	    sizeof(err)) != 0 || ipc_msg_parse(&m, buf, len,
	    IPC_ROLE_FORWARDER, err, sizeof(err)) != 0) {
		cap.invalid++;
		return -1;
	}
	if (type == IPC_LOG) {
		cap.n_log++;
		memcpy(cap.last_log, ((const struct ipc_log *)obj)->text,
		    sizeof(cap.last_log));
	} else if (type == IPC_STATS) {
		cap.n_stats++;
		cap.last_stats = m;
	}
	return 0;
}

/* ---- fixtures ----------------------------------------------------------- */

static void
identity(struct bs_identity *id, uint8_t *addr, uint8_t fill)
{
	uint8_t seed[BS_SEED_LEN];

	memset(seed, fill, sizeof(seed));
	if (bs_identity_from_seed(id, seed) != 0)
		abort();
	bs_mesh_addr(addr, id->pk);
}

static void
keys_init(void)
{
	if (bs_crypto_init() != 0)
		abort();
	identity(&id_own, addr_own, 0x11);
	identity(&id_peer, addr_peer, 0x22);
	identity(&id_orig, addr_orig, 0x33);
}

static void
config_of(struct ipc_config *c, uint8_t level)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->own_pk, id_own.pk, BS_PK_LEN);
	memcpy(c->own_addr, addr_own, BS_ADDR_LEN);
	c->ethertype = 0x88b5;
	c->epoch = 5;
	c->hello_ms = 1000;
	c->ogm_ms = 1000;
	c->hop_penalty = 30;
	c->log_level = level;
}

static void
iface_of(struct ipc_iface *f, uint32_t ifindex, uint8_t state)
{
	memset(f, 0, sizeof(*f));
	f->ifindex = ifindex;
	f->state = state;
	snprintf(f->name, sizeof(f->name), "mesh%u", ifindex);
	if (state != IPC_IFACE_REMOVED) {
		f->mtu = 1534;
		memcpy(f->mac, mac_own, 6);
	}
}

static struct pcore pc;

/* A configured core with interface IFX up, at the given log level. */
static void
core_up(uint8_t level)
{
	struct ipc_config c;
	struct ipc_iface f;
	char err[256];

	memset(&cap, 0, sizeof(cap));
	pcore_init(&pc, cap_emit, NULL);
	config_of(&c, level);
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), 0);
	iface_of(&f, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
}

/* ---- frame builders ------------------------------------------------------- */

struct frame {
	uint8_t buf[WIRE_OGM_MAX_LEN];
	size_t len;
};

static void
make_hello(struct frame *fr, const struct bs_identity *id,
    const uint8_t ifmac[6])
{
	struct wire_hello h;
	uint8_t sig[BS_SIG_LEN];

	memset(&h, 0, sizeof(h));
	h.pk = id->pk;
	h.ifmac = ifmac;
	h.interval_ms = 1000;
	h.epoch = 3;
	h.seqno = 42;
	ck_assert_int_eq(wire_hello_build(fr->buf, sizeof(fr->buf), &h,
	    &fr->len), WIRE_OK);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_HELLO, fr->buf, fr->len, id), 0);
	ck_assert_int_eq(wire_sig_append(fr->buf, sizeof(fr->buf), &fr->len,
	    sig), WIRE_OK);
}

/* One entry by orig, sent by sender, MAC trailer with one (dummy) tag. */
static void
make_ogm(struct frame *fr, const struct bs_identity *sender,
    const struct bs_identity *orig)
{
	uint8_t seed[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN], block[512];
	uint8_t saddr[6], oaddr[6], sig[BS_SIG_LEN];
	uint8_t keyid[BS_KEYID_LEN] = { 1, 2, 3, 4 }, tag[BS_TAG_LEN] = { 9 };
	struct wire_ogm_signed s;
	struct wire_ogm_mut m;
	struct wire_ogm_builder b;
	size_t blen;

	bs_mesh_addr(saddr, sender->pk);
	bs_mesh_addr(oaddr, orig->pk);
	bs_chain_new(seed, anchor);
	memset(&s, 0, sizeof(s));
	s.pk = orig->pk;
	s.epoch = 2;
	s.seqno = 10;
	s.interval_ms = 1000;
	s.anchor = anchor;
	ck_assert_int_eq(wire_ogm_signed_build(block, sizeof(block), &s,
	    &blen), WIRE_OK);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, block, blen, orig), 0);
	ck_assert_int_eq(wire_sig_append(block, sizeof(block), &blen, sig),
	    WIRE_OK);
	memset(&m, 0, sizeof(m));
	m.ttl = 50;
	m.tq = 255;
	m.prev_sender = oaddr;
	m.chain = seed;
	ck_assert_int_eq(wire_ogm_begin(&b, fr->buf, sizeof(fr->buf), saddr),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_add(&b, &m, block, blen), WIRE_OK);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_MAC, 1, 77, NULL,
	    NULL), WIRE_OK);
	ck_assert_int_eq(wire_ogm_add_tag(&b, keyid, tag), WIRE_OK);
	ck_assert_int_eq(wire_ogm_finish(&b, &fr->len), WIRE_OK);
}

static void
make_unicast(struct frame *fr)
{
	uint8_t inner[60] = { 0 };
	struct wire_unicast u;

	memset(&u, 0, sizeof(u));
	u.ttl = 5;
	u.dst = addr_own;
	u.src = addr_peer;
	u.inner = inner;
	u.inner_len = sizeof(inner);
	ck_assert_int_eq(wire_unicast_build(fr->buf, sizeof(fr->buf), &u,
	    &fr->len), WIRE_OK);
}

static void
make_bcast(struct frame *fr)
{
	uint8_t inner[60] = { 0 };
	struct wire_bcast b;

	memset(&b, 0, sizeof(b));
	b.ttl = 5;
	b.seqno = 1;
	b.orig = addr_peer;
	b.inner = inner;
	b.inner_len = sizeof(inner);
	ck_assert_int_eq(wire_bcast_build(fr->buf, sizeof(fr->buf), &b,
	    &fr->len), WIRE_OK);
}

static enum pcore_drop
feed(const struct frame *fr)
{
	return pcore_frame(&pc, IFX, mac_peer, mac_bcast, fr->buf, fr->len,
	    T0);
}

/* ---- valid frames ----------------------------------------------------------- */

START_TEST(test_hello_accepted)
{
	struct frame fr;

	core_up(IPC_LOG_INFO);
	make_hello(&fr, &id_peer, mac_peer);
	ck_assert_int_eq(feed(&fr), PCORE_ACCEPT);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_FRAMES], 1);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_HELLO], 1);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_OGM], 0);
	ck_assert_uint_eq(pc.stat[IPC_STAT_DROP_MALFORMED], 0);
	ck_assert_uint_eq(cap.invalid, 0);
	pcore_free(&pc);
}
END_TEST

START_TEST(test_ogm_accepted)
{
	struct frame fr;

	core_up(IPC_LOG_INFO);
	make_ogm(&fr, &id_peer, &id_orig);
	ck_assert_int_eq(feed(&fr), PCORE_ACCEPT);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_OGM], 1);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_HELLO], 0);
	/* Ethernet padding of short frames is not an issue for OGM/HELLO:
	 * both are longer than the 46-byte minimum payload. */
	ck_assert_uint_ge(fr.len, 46);
	pcore_free(&pc);
}
END_TEST

/* ---- refused frames, one reason each ------------------------------------------ */

enum mut {
	M_EMPTY, M_ONE_BYTE, M_VERSION, M_TYPE, M_HELLO_TRUNC, M_HELLO_TRAIL,
	M_HELLO_FLAGS, M_HELLO_INTERVAL, M_HELLO_MAC, M_HELLO_OWN, M_OGM_TRUNC,
	M_OGM_COUNT0, M_OGM_OWN, M_OGM_TRAIL, M_UNICAST, M_BCAST,
};

static const struct {
	enum mut mut;
	enum pcore_drop want;
	int malformed;		/* counts as drop_malformed */
} bad[] = {
	{ M_EMPTY, PCORE_DROP_EMPTY, 1 },
	{ M_ONE_BYTE, PCORE_DROP_MALFORMED, 1 },
	{ M_VERSION, PCORE_DROP_VERSION, 1 },
	{ M_TYPE, PCORE_DROP_TYPE, 1 },
	{ M_HELLO_TRUNC, PCORE_DROP_MALFORMED, 1 },
	{ M_HELLO_TRAIL, PCORE_DROP_MALFORMED, 1 },
	{ M_HELLO_FLAGS, PCORE_DROP_MALFORMED, 1 },
	{ M_HELLO_INTERVAL, PCORE_DROP_MALFORMED, 1 },
	{ M_HELLO_MAC, PCORE_DROP_HELLO_MAC, 1 },
	{ M_HELLO_OWN, PCORE_DROP_OWN, 0 },
	{ M_OGM_TRUNC, PCORE_DROP_MALFORMED, 1 },
	{ M_OGM_COUNT0, PCORE_DROP_MALFORMED, 1 },
	{ M_OGM_OWN, PCORE_DROP_OWN, 0 },
	{ M_OGM_TRAIL, PCORE_DROP_MALFORMED, 1 },
	{ M_UNICAST, PCORE_DROP_DATA, 0 },
	{ M_BCAST, PCORE_DROP_DATA, 0 },
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
		make_hello(fr, &id_peer, mac_peer);
		fr->buf[1] = 2;
		break;
	case M_TYPE:
		make_hello(fr, &id_peer, mac_peer);
		fr->buf[0] = 0x07;
		break;
	case M_HELLO_TRUNC:
		make_hello(fr, &id_peer, mac_peer);
		fr->len--;
		break;
	case M_HELLO_TRAIL:
		make_hello(fr, &id_peer, mac_peer);
		fr->buf[fr->len++] = 0;
		break;
	case M_HELLO_FLAGS:
		make_hello(fr, &id_peer, mac_peer);
		fr->buf[2] = 0x80;	/* a reserved flag bit */
		break;
	case M_HELLO_INTERVAL:
		make_hello(fr, &id_peer, mac_peer);
		fr->buf[42] = 0;	/* interval 0 ms */
		fr->buf[43] = 0;
		break;
	case M_HELLO_MAC:
		make_hello(fr, &id_peer, mac_own);	/* != Ethernet source */
		break;
	case M_HELLO_OWN:
		make_hello(fr, &id_own, mac_peer);
		break;
	case M_OGM_TRUNC:
		make_ogm(fr, &id_peer, &id_orig);
		fr->len = WIRE_OGM_HDR_LEN + 10;
		break;
	case M_OGM_COUNT0:
		make_ogm(fr, &id_peer, &id_orig);
		fr->buf[2] = 0;		/* num_entries 0 */
		break;
	case M_OGM_OWN:
		make_ogm(fr, &id_own, &id_orig);
		break;
	case M_OGM_TRAIL:
		make_ogm(fr, &id_peer, &id_orig);
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

	core_up(IPC_LOG_INFO);
	memset(&fr, 0, sizeof(fr));
	make_bad(&fr, bad[_i].mut);
	why = feed(&fr);
	ck_assert_msg(why == bad[_i].want, "case %d: got %s, want %s", _i,
	    pcore_drop_name(why), pcore_drop_name(bad[_i].want));
	ck_assert_uint_eq(pc.drop[bad[_i].want], 1);
	for (k = 0; k < PCORE_DROP_COUNT; k++)
		total += pc.drop[k];
	ck_assert_uint_eq(total, 1);	/* exactly one reason */
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_FRAMES], 1);
	ck_assert_uint_eq(pc.stat[IPC_STAT_DROP_MALFORMED],
	    (uint64_t)bad[_i].malformed);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_HELLO] +
	    pc.stat[IPC_STAT_RX_OGM], 0);
	/* Codec errors are also counted by their wire_err code. */
	if (bad[_i].want == PCORE_DROP_MALFORMED) {
		for (total = 0, k = 1; k < PCORE_WIRE_ERRS; k++)
			total += pc.wire_err[k];
		ck_assert_uint_eq(total, 1);
	}
	ck_assert_uint_eq(cap.n_log, 0);	/* level info: no drop lines */
	pcore_free(&pc);
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

	memset(&cap, 0, sizeof(cap));
	pcore_init(&pc, cap_emit, NULL);
	make_hello(&fr, &id_peer, mac_peer);
	ck_assert_int_eq(feed(&fr), PCORE_DROP_NOCONFIG);
	pcore_free(&pc);

	core_up(IPC_LOG_INFO);
	ck_assert_int_eq(pcore_frame(&pc, IFX + 1, mac_peer, mac_bcast, fr.buf,
	    fr.len, T0), PCORE_DROP_IFACE);
	ck_assert_int_eq(pcore_frame(&pc, IFX, mcast, mac_bcast, fr.buf,
	    fr.len, T0), PCORE_DROP_SRC);
	ck_assert_int_eq(pcore_frame(&pc, IFX, zero, mac_bcast, fr.buf,
	    fr.len, T0), PCORE_DROP_SRC);
	iface_of(&f, IFX, IPC_IFACE_DOWN);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	ck_assert_int_eq(feed(&fr), PCORE_DROP_IFACE_DOWN);
	iface_of(&f, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	ck_assert_int_eq(feed(&fr), PCORE_ACCEPT);
	iface_of(&f, IFX, IPC_IFACE_REMOVED);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	ck_assert_ptr_null(pcore_iface_find(&pc, IFX));
	ck_assert_int_eq(feed(&fr), PCORE_DROP_IFACE);
	ck_assert_uint_eq(pc.drop[PCORE_DROP_IFACE], 2);
	ck_assert_uint_eq(pc.drop[PCORE_DROP_SRC], 2);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_FRAMES], 6);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_HELLO], 1);
	pcore_free(&pc);
}
END_TEST

/* ---- configuration, interfaces, policy ----------------------------------------- */

START_TEST(test_config_rules)
{
	struct ipc_config c;
	char err[128];

	core_up(IPC_LOG_INFO);
	/* Log level and timing may change; key, epoch, ethertype not. */
	config_of(&c, IPC_LOG_DEBUG);
	c.hop_penalty = 40;
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), 0);
	ck_assert_uint_eq(pc.cfg.log_level, IPC_LOG_DEBUG);
	config_of(&c, IPC_LOG_INFO);
	c.epoch++;
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot change"));
	config_of(&c, IPC_LOG_INFO);
	c.ethertype = 0x88b6;
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), -1);
	config_of(&c, IPC_LOG_INFO);
	memcpy(c.own_pk, id_peer.pk, BS_PK_LEN);
	bs_mesh_addr(c.own_addr, id_peer.pk);
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), -1);
	/* The address must belong to the key, configured or not. */
	config_of(&c, IPC_LOG_INFO);
	c.own_addr[5] ^= 1;
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "own_addr"));
	ck_assert_uint_eq(pc.cfg.epoch, 5);
	pcore_free(&pc);
}
END_TEST

START_TEST(test_iface_table)
{
	struct ipc_iface f;
	char err[128];
	uint32_t i;

	memset(&cap, 0, sizeof(cap));
	pcore_init(&pc, cap_emit, NULL);
	for (i = 1; i <= PCORE_MAX_IFACES; i++) {
		iface_of(&f, i, IPC_IFACE_UP);
		ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	}
	iface_of(&f, 1000, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "full"));
	/* An update of a known one still works, and removal frees a slot. */
	iface_of(&f, 3, IPC_IFACE_DOWN);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	ck_assert_int_eq(pcore_iface_find(&pc, 3)->up, 0);
	iface_of(&f, 3, IPC_IFACE_REMOVED);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	iface_of(&f, 1000, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	ck_assert_str_eq(pcore_iface_find(&pc, 1000)->name, "mesh1000");
	/* Removing an unknown interface is harmless; ifindex 0 is not. */
	iface_of(&f, 5000, IPC_IFACE_REMOVED);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	iface_of(&f, 0, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), -1);
	pcore_free(&pc);
}
END_TEST

START_TEST(test_policy_snapshot)
{
	static const char text[] = "mode open\n";
	struct bs_policy *pol = NULL;
	uint8_t snap[4096], junk[16] = { 'B', 'S', 'P', 'L' };
	size_t n = 0;
	char err[256];

	core_up(IPC_LOG_INFO);
	ck_assert_int_eq(bs_policy_parse_buf(text, sizeof(text) - 1, "t", NULL,
	    0, &pol, err, sizeof(err)), 0);
	ck_assert_int_eq(bs_policy_snapshot_encode(pol, snap, sizeof(snap),
	    &n), 0);
	ck_assert_int_eq(pcore_policy(&pc, 7, snap, n, err, sizeof(err)), 0);
	ck_assert_uint_eq(pc.policy_serial, 7);
	ck_assert_int_eq(pc.policy->mode, BS_POLICY_OPEN);
	/* A bad snapshot is refused and the old policy stays. */
	ck_assert_int_eq(pcore_policy(&pc, 8, junk, sizeof(junk), err,
	    sizeof(err)), -1);
	ck_assert_uint_eq(pc.policy_serial, 7);
	ck_assert_ptr_nonnull(pc.policy);
	ck_assert_int_eq(pcore_policy(&pc, 9, snap, n - 1, err, sizeof(err)),
	    -1);
	ck_assert_uint_eq(pc.policy_serial, 7);
	bs_policy_free(pol);
	pcore_free(&pc);
	ck_assert_ptr_null(pc.policy);
}
END_TEST

/* ---- emitted messages ------------------------------------------------------------ */

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

	core_up(IPC_LOG_INFO);
	/* Nothing happened: nothing to send. */
	next = pcore_tick(&pc, T0);
	ck_assert_uint_eq(cap.n_stats, 0);
	ck_assert_uint_eq(next, T0 + PCORE_STATS_MS);
	make_hello(&fr, &id_peer, mac_peer);
	memset(&bad_fr, 0, sizeof(bad_fr));
	bad_fr.buf[0] = 0x07;
	bad_fr.buf[1] = 1;
	bad_fr.len = 60;
	feed(&fr);
	feed(&bad_fr);
	pcore_tick(&pc, T0);
	ck_assert_uint_eq(cap.n_stats, 1);
	ck_assert_uint_eq(stats_value(&cap.last_stats, IPC_STAT_RX_FRAMES), 2);
	ck_assert_uint_eq(stats_value(&cap.last_stats, IPC_STAT_RX_HELLO), 1);
	ck_assert_uint_eq(stats_value(&cap.last_stats,
	    IPC_STAT_DROP_MALFORMED), 1);
	/* More frames, but within PCORE_STATS_MS: held back. */
	feed(&fr);
	next = pcore_tick(&pc, T0 + PCORE_STATS_MS - 1);
	ck_assert_uint_eq(cap.n_stats, 1);
	ck_assert_uint_eq(next, T0 + PCORE_STATS_MS);
	pcore_tick(&pc, T0 + PCORE_STATS_MS);
	ck_assert_uint_eq(cap.n_stats, 2);
	ck_assert_uint_eq(stats_value(&cap.last_stats, IPC_STAT_RX_HELLO), 2);
	/* No change: no message. */
	pcore_tick(&pc, T0 + 10 * PCORE_STATS_MS);
	ck_assert_uint_eq(cap.n_stats, 2);
	ck_assert_uint_eq(cap.invalid, 0);
	pcore_free(&pc);
}
END_TEST

/* A flood of bad frames yields a bounded number of (valid) log lines. */
START_TEST(test_drop_log_limited)
{
	struct frame fr;
	int i;

	core_up(IPC_LOG_DEBUG);
	make_hello(&fr, &id_peer, mac_own);
	for (i = 0; i < 1000; i++)
		feed(&fr);
	ck_assert_uint_eq(pc.drop[PCORE_DROP_HELLO_MAC], 1000);
	ck_assert_uint_eq(cap.n_log, PCORE_LOG_BURST);
	ck_assert_uint_eq(cap.invalid, 0);
	ck_assert_ptr_nonnull(strstr(cap.last_log, "HELLO interface MAC"));
	/* Time refills the bucket, and the line says what was not logged. */
	pcore_frame(&pc, IFX, mac_peer, mac_bcast, fr.buf, fr.len, T0 + 10000);
	ck_assert_uint_eq(cap.n_log, PCORE_LOG_BURST + 1);
	ck_assert_ptr_nonnull(strstr(cap.last_log, "990"));
	pcore_free(&pc);
}
END_TEST

START_TEST(test_drop_log_detail)
{
	struct frame fr;

	core_up(IPC_LOG_DEBUG);
	make_bad(&fr, M_HELLO_INTERVAL);
	ck_assert_int_eq(feed(&fr), PCORE_DROP_MALFORMED);
	ck_assert_uint_eq(cap.n_log, 1);
	/* The field, its offset and the codec's reason are named. */
	ck_assert_ptr_nonnull(strstr(cap.last_log, "offset 42"));
	ck_assert_ptr_nonnull(strstr(cap.last_log, "11:22:33:44:55"));
	pcore_free(&pc);
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

START_TEST(test_emit_failure)
{
	struct ipc_config c;
	struct ipc_iface f;
	struct frame fr;
	char err[128];

	pcore_init(&pc, emit_fail, NULL);
	config_of(&c, IPC_LOG_DEBUG);
	ck_assert_int_eq(pcore_config(&pc, &c, err, sizeof(err)), 0);
	iface_of(&f, IFX, IPC_IFACE_UP);
	ck_assert_int_eq(pcore_iface(&pc, &f, err, sizeof(err)), 0);
	make_bad(&fr, M_TYPE);
	feed(&fr);
	pcore_tick(&pc, T0);
	ck_assert_uint_eq(pc.emit_failed, 2);	/* one LOG, one STATS */
	pcore_free(&pc);
}
END_TEST

/* ---- random input ------------------------------------------------------------------- */

START_TEST(test_random_bytes)
{
	static struct frame fr;
	uint64_t sum;
	size_t k;
	int i;

	core_up(IPC_LOG_DEBUG);
	for (i = 0; i < 3000; i++) {
		fr.len = bs_random_uniform(WIRE_OGM_MAX_LEN + 1);
		bs_random(fr.buf, fr.len);
		/* Half of them look like our frame types, to get deeper. */
		if (fr.len >= 2 && (i & 1)) {
			fr.buf[0] = (i & 2) ? WIRE_T_HELLO : WIRE_T_OGM;
			fr.buf[1] = WIRE_VERSION;
		}
		pcore_frame(&pc, IFX, mac_peer, mac_bcast, fr.buf, fr.len,
		    T0 + (uint64_t)i);
	}
	for (sum = 0, k = 1; k < PCORE_DROP_COUNT; k++)
		sum += pc.drop[k];
	sum += pc.stat[IPC_STAT_RX_HELLO] + pc.stat[IPC_STAT_RX_OGM];
	ck_assert_uint_eq(sum, 3000);
	ck_assert_uint_eq(pc.stat[IPC_STAT_RX_FRAMES], 3000);
	ck_assert_uint_eq(cap.invalid, 0);
	pcore_free(&pc);
}
END_TEST

START_TEST(test_drop_names)
{
	int k;

	for (k = 0; k < PCORE_DROP_COUNT; k++)
		ck_assert_str_ne(pcore_drop_name((enum pcore_drop)k), "?");
	ck_assert_str_eq(pcore_drop_name(PCORE_DROP_COUNT), "?");
	ck_assert_str_eq(pcore_drop_name((enum pcore_drop)-1), "?");
}
END_TEST

static Suite *
pcore_suite(void)
{
	Suite *s = suite_create("pcore");
	TCase *tc;

	tc = tcase_create("frames");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hello_accepted);
	tcase_add_test(tc, test_ogm_accepted);
	tcase_add_loop_test(tc, test_refused, 0, N_BAD);
	tcase_add_test(tc, test_origin);
	tcase_add_test(tc, test_random_bytes);
	suite_add_tcase(s, tc);

	tc = tcase_create("state");
	tcase_add_test(tc, test_config_rules);
	tcase_add_test(tc, test_iface_table);
	tcase_add_test(tc, test_policy_snapshot);
	tcase_add_test(tc, test_drop_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("emit");
	tcase_add_test(tc, test_stats_pacing);
	tcase_add_test(tc, test_drop_log_limited);
	tcase_add_test(tc, test_drop_log_detail);
	tcase_add_test(tc, test_emit_failure);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	keys_init();
	sr = srunner_create(pcore_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
