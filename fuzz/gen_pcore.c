/*
 * gen_pcore.c — writes the seed corpus of fuzz_pcore into the directory
 * named by argv[1], each file named by (the first 20 bytes of) its
 * SHA-256.
 *
 * Each seed is a whole conversation in fuzz_pcore's record format (see
 * there): real signed HELLOs (version 4) that make P and Q bidirectional
 * neighbours of the node under test, HELLOs with link tags under the
 * link keys once the key is held (and before, and with a wrong tag), OGM frames tagged with the real link keys
 * (bs_link_key) or signed (trailer type 2), own and relayed entries with
 * valid hop chains and TVLVs, compact entries (version 3) whose OGM chain
 * elements follow from the full entries before them (and some that do
 * not), a frame of WIRE_OGM_MAX_ENTRIES compact entries, then what tests
 * the tables: replays, a
 * second path, policy and interface changes, key answers refused, time
 * passing for the purge.  A few seeds carry signatures and tags whose
 * first byte is 0: they pass only in fuzzing builds, and give the fuzzer
 * a start past authentication.  Deterministic: fixed keys and seeds.
 */
#include <string.h>

#include "batsec_crypto.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
#include "lib/t_pcore_in.h"
#include "lib/t_seed.h"
#include "proto/wire.h"

#define G_EPOCH		9	/* the peers' epoch */
/* A frame counter of the peers' epoch. */
#define G_CTR(n)	((uint64_t)G_EPOCH << 32 | (n))

/* Identities as fuzz_pcore knows them; index = MAC index. */
enum { G_OWN, G_P, G_Q, G_O, G_U, G_N };

static struct bs_identity g_id[G_N];
static uint8_t g_addr[G_N][BS_ADDR_LEN];

/* The seed being written. */
static uint8_t g_buf[1 << 18];
static struct t_seedbuf g_seed = { g_buf, sizeof(g_buf), 0 };
static uint32_t g_hello_seq[G_N], g_ogm_seq[G_N];
static uint64_t g_counter[G_N];
static int g_zero_auth;		/* first byte of signatures and tags 0 */

static void
g_put(const void *p, size_t n)
{
	t_seed_put(&g_seed, p, n);
}

static void
g_begin(uint8_t flags)
{
	g_seed.len = 0;
	memset(g_hello_seq, 0, sizeof(g_hello_seq));
	memset(g_ogm_seq, 0, sizeof(g_ogm_seq));
	memset(g_counter, 0, sizeof(g_counter));
	g_zero_auth = 0;
	g_put(&flags, 1);
}

static void
g_end(void)
{
	t_seed_flush(&g_seed);
}

/* ---- records --------------------------------------------------------------- */

static void
r_frame(uint8_t ifsel, uint8_t src, const uint8_t *p, size_t len)
{
	uint8_t h[5] = { T_PCIN_FRAME, ifsel, src, 0, 0 };

	bs_put16(h + 3, (uint16_t)len);
	g_put(h, sizeof(h));
	g_put(p, len);
}

static void
r_tick(uint16_t tenths)
{
	uint8_t r[3] = { T_PCIN_TICK, 0, 0 };

	bs_put16(r + 1, tenths);
	g_put(r, sizeof(r));
}

static void
r_iface(uint8_t ifsel, uint8_t state)
{
	uint8_t r[3] = { T_PCIN_IFACE, ifsel, state };

	g_put(r, sizeof(r));
}

static void
r_policy(uint8_t mode, uint8_t trust, uint8_t gw, uint8_t clients,
    uint8_t cap)
{
	uint8_t r[6] = { T_PCIN_POLICY, mode, trust, gw, clients, cap };

	g_put(r, sizeof(r));
}

static void
r_byte(uint8_t type, uint8_t v)
{
	uint8_t r[2] = { type, v };

	g_put(r, sizeof(r));
}

/* ---- frames ---------------------------------------------------------------- */

static void
g_sig(uint8_t sig[BS_SIG_LEN], enum bs_domain dom, const uint8_t *m,
    size_t len, int who)
{
	t_seed_ok(bs_sign(sig, dom, m, len, &g_id[who]), "sign");
	if (g_zero_auth)
		sig[0] = 0;
}

/* who's HELLO, listing the node under test with rx_count rx. */
static void
f_hello(int who, uint8_t rx, uint8_t ifsel)
{
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	struct wire_hello h;
	size_t len;

	memset(&h, 0, sizeof(h));
	h.pk = g_id[who].pk;
	h.ifmac = t_pcin_macs[who];
	h.interval_ms = 1000;
	h.epoch = G_EPOCH;
	h.seqno = ++g_hello_seq[who];
	if (rx > 0) {
		h.num_neigh = 1;
		h.neigh[0].addr = g_addr[G_OWN];
		h.neigh[0].rx_count = rx;
	}
	len = t_hello(buf, sizeof(buf), &h, &g_id[who]);
	if (g_zero_auth)
		buf[len - BS_SIG_LEN] = 0;
	r_frame(ifsel, (uint8_t)who, buf, len);
}

/*
 * who's HELLO with one link tag under K(who, node under test) (the key
 * fuzz_pcore answers LINK_KEY_REQs with), listing the node under test with
 * rx_count rx (none when rx is 0); bad: the tag's last byte flipped.
 */
static void
f_hello_tagged(int who, uint8_t rx, int bad)
{
	uint8_t buf[WIRE_HELLO_MAX_LEN], kid[BS_KEYID_LEN], tag[BS_TAG_LEN];
	uint8_t salt[BS_LINKSALT_LEN];
	struct wire_hello h;
	size_t len;

	memset(&h, 0, sizeof(h));
	h.pk = g_id[who].pk;
	h.ifmac = t_pcin_macs[who];
	h.interval_ms = 1000;
	h.epoch = G_EPOCH;
	h.seqno = ++g_hello_seq[who];
	t_salt(salt, h.pk);
	h.salt = salt;
	if (rx > 0) {
		h.num_neigh = 1;
		h.neigh[0].addr = g_addr[G_OWN];
		h.neigh[0].rx_count = rx;
	}
	h.tr.auth = WIRE_AUTH_MAC;
	h.tr.num_tags = 1;
	t_seed_ok(wire_hello_build(buf, sizeof(buf), &h, &len), "HELLO");
	t_link_tag(kid, tag, &g_id[who], g_id[G_OWN].pk, g_addr[who],
	    (uint64_t)h.epoch << 32 | h.seqno, buf, len);
	if (g_zero_auth)
		tag[0] = 0;
	if (bad)
		tag[BS_TAG_LEN - 1] ^= 0x01;
	t_seed_ok(wire_tag_append(buf, sizeof(buf), &len, kid, tag), "tag");
	r_frame(0, (uint8_t)who, buf, len);
}

/* n HELLOs from who, each listing us with a full count. */
static void
f_hellos(int who, int n)
{
	while (n-- > 0)
		f_hello(who, WIRE_RX_WINDOW, 0);
}

enum { TV_NONE, TV_TT, TV_TT_GW, TV_GW };

static size_t
g_tvlv(uint8_t *buf, size_t cap, int kind, unsigned salt)
{
	static uint8_t mac[3][BS_ADDR_LEN];
	struct wire_tt_entry e[3] = { 0 };
	size_t len = 0;
	unsigned i, n = 2 + salt % 2;

	if (kind == TV_TT || kind == TV_TT_GW) {
		for (i = 0; i < n; i++) {
			memcpy(mac[i], "\x0a\x00\x00\x00\x00", 5);
			mac[i][5] = (uint8_t)(i + salt);
			e[i].mac = mac[i];
			e[i].vid = i == 1 ? (uint16_t)(WIRE_VID_TAGGED | 5) : 0;
		}
		t_seed_ok(wire_tvlv_put_tt(buf, cap, &len, e, n), "tt");
	}
	if (kind == TV_TT_GW || kind == TV_GW)
		t_seed_ok(wire_tvlv_put_gateway(buf, cap, &len, 100 + salt, 20),
		    "gw");
	return len;
}

/*
 * An entry: orig's OGM seqno, relayed hops times (prev_sender: via); a
 * compact one (batsec-protocol(7), "OGM CHAIN") when compact.  bad_sig:
 * a full entry's signature or a compact entry's chain element is wrong.
 */
struct g_ent {
	int orig;
	uint32_t seqno;
	uint8_t hops;
	int via;			/* previous sender identity */
	int tv;
	int bad_sig;
	int compact;
};

/*
 * Each identity's OGM chain for seqnos 0..BS_OGMCHAIN_SEQNOS - 1, laid
 * out as bs_ogmchain_new() lays it out but from a fixed seed instead of
 * a random one, so that the seeds come out the same every time.  Every
 * entry takes its element from there: a full entry of seqno s has the
 * hops-0 element of s as its hop-chain seed (so its anchor is the hops-0
 * element of s - 1, as batsecd's own full OGMs), a compact one
 * H^hops of it.
 */
static struct bs_ogmchain g_chain[G_N];

static void
g_chain_init(struct bs_ogmchain *c, int who)
{
	uint8_t x[BS_CHAIN_LEN], e[BS_CHAIN_LEN], a[BS_CHAIN_LEN];
	unsigned i;

	memset(x, 0xc0 + who, sizeof(x));
	for (i = BS_OGMCHAIN_SEQNOS; i-- > 0;) {
		memcpy(c->hop0[i], x, BS_CHAIN_LEN);
		t_seed_ok(bs_chain_iter(x, x, BS_MAXHOPS), "ogm chain");
	}
	memcpy(c->anchor0, x, BS_CHAIN_LEN);
	c->base = 0;
	c->valid = 1;
	/* As the receivers check it: seqno 5 at 3 hops from seqno 2. */
	t_seed_ok(bs_ogmchain_get(c, 5, e, a), "ogm chain get");
	t_seed_ok(bs_chain_iter(e, e, 3), "ogm chain hops");
	t_seed_ok(bs_ogmchain_get(c, 2, x, a), "ogm chain get");
	t_seed_ok(bs_chain_link(x, 2, 0, e, 5, 3, 4 * BS_MAXHOPS, &i),
	    "ogm chain link");
}

/* The chain element of orig's (seqno, hops). */
static void
g_elem(uint8_t elem[BS_CHAIN_LEN], int orig, uint32_t seqno, unsigned hops)
{
	uint8_t anchor[BS_CHAIN_LEN];

	t_seed_ok(bs_ogmchain_get(&g_chain[orig], seqno, elem, anchor),
	    "ogm chain seqno");
	t_seed_ok(bs_chain_iter(elem, elem, hops), "ogm chain hops");
}

static uint8_t
g_tq(unsigned hops)
{
	uint8_t tq = 255;

	while (hops-- > 0)
		tq = (uint8_t)(tq * 225u / 255u);
	return tq;
}

/* A compact entry: the chain element proves seqno and hops. */
static void
g_compact(struct wire_ogm_builder *b, const struct g_ent *ge)
{
	uint8_t elem[BS_CHAIN_LEN], blk[WIRE_OGM_COMPACT_BLOCK];
	struct wire_ogm_mut m = { .kind = WIRE_OGM_COMPACT,
	    .ttl = (uint8_t)(50 - ge->hops), .tq = g_tq(ge->hops),
	    .hops = ge->hops, .prev_sender = g_addr[ge->via], .chain = elem };

	g_elem(elem, ge->orig, ge->seqno, ge->hops);
	if (ge->bad_sig)
		elem[BS_CHAIN_LEN - 1] ^= 1;
	/* Fuzzing builds take an element whose first byte is 0. */
	if (g_zero_auth)
		elem[0] = 0;
	else if (elem[0] == 0)
		elem[0] = 1;
	t_seed_ok(wire_ogm_compact_build(blk, g_addr[ge->orig], ge->seqno),
	    "compact block");
	t_seed_ok(wire_ogm_add(b, &m, blk, sizeof(blk)), "add compact entry");
}

static void
g_entry(struct wire_ogm_builder *b, const struct g_ent *ge)
{
	uint8_t tvlv[WIRE_TVLV_MAX], blk[WIRE_OGM_FIXED_LEN + WIRE_TVLV_MAX +
	    BS_SIG_LEN], seed[BS_CHAIN_LEN], elem[BS_CHAIN_LEN];
	struct t_ogm_entry e = { .orig = &g_id[ge->orig], .epoch = G_EPOCH,
	    .seqno = ge->seqno, .interval_ms = 1000, .chain_seed = seed,
	    .tvlv = tvlv, .ttl = (uint8_t)(50 - ge->hops),
	    .tq = g_tq(ge->hops), .hops = ge->hops,
	    .prev_sender = g_addr[ge->via] };
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	size_t len;

	if (ge->compact) {
		g_compact(b, ge);
		return;
	}
	g_elem(seed, ge->orig, ge->seqno, 0);
	e.tvlv_len = g_tvlv(tvlv, sizeof(tvlv), ge->tv, ge->seqno);
	len = t_ogm_block(blk, sizeof(blk), &e);
	if (g_zero_auth)
		blk[len - BS_SIG_LEN] = 0;
	if (ge->bad_sig)
		blk[len - 1] ^= 1;
	t_ogm_mut(&m, elem, &e);
	t_seed_ok(wire_ogm_add(b, &m, blk, len), "add entry");
}

/*
 * An OGM frame from sender with entries; auth WIRE_AUTH_MAC tags it with
 * K(sender, node under test) (plus a tag for Q when tag_q), WIRE_AUTH_SIG
 * signs it.  counter 0: the sender's next one.
 */
static void
f_ogm(int sender, const struct g_ent *e, unsigned n, uint8_t auth,
    uint64_t counter, uint8_t src)
{
	static uint8_t buf[WIRE_OGM_MAX_LEN];
	uint8_t kid[BS_KEYID_LEN], tag[BS_TAG_LEN], sig[BS_SIG_LEN];
	struct wire_ogm_builder b;
	const uint8_t *cov;
	size_t clen, len;
	unsigned i;

	if (counter == 0)
		counter = ((uint64_t)G_EPOCH << 32) | ++g_counter[sender];
	t_seed_ok(wire_ogm_begin(&b, buf, sizeof(buf), g_addr[sender]), "begin");
	for (i = 0; i < n; i++)
		g_entry(&b, &e[i]);
	t_seed_ok(wire_ogm_trailer(&b, auth, auth == WIRE_AUTH_MAC ? 1 : 0,
	    counter, &cov, &clen), "trailer");
	if (auth == WIRE_AUTH_MAC) {
		t_link_tag(kid, tag, &g_id[sender], g_id[G_OWN].pk,
		    g_addr[sender], counter, cov, clen);
		if (g_zero_auth)
			tag[0] = 0;
		t_seed_ok(wire_ogm_add_tag(&b, kid, tag), "tag");
	} else {
		g_sig(sig, BS_DOM_LINK, cov, clen, sender);
		t_seed_ok(wire_ogm_add_sig(&b, sig), "link sig");
	}
	t_seed_ok(wire_ogm_finish(&b, &len), "finish");
	r_frame(0, src, buf, len);
}

/* who's own OGM with TVLVs kind. */
static void
f_own(int who, int tv, uint8_t auth)
{
	struct g_ent e = { who, ++g_ogm_seq[who], 0, who, tv, 0, 0 };

	f_ogm(who, &e, 1, auth, 0, (uint8_t)who);
}

/* orig's OGM as neighbour via relays it (one hop). */
static void
f_relayed(int via, int orig, uint32_t seqno, int tv)
{
	struct g_ent e = { orig, seqno, 1, orig, tv, 0, 0 };

	f_ogm(via, &e, 1, WIRE_AUTH_MAC, 0, (uint8_t)via);
}

/* who's own compact OGM (its next seqno, hops 0). */
static void
f_own_compact(int who, uint8_t auth)
{
	struct g_ent e = { who, ++g_ogm_seq[who], 0, who, TV_NONE, 0, 1 };

	f_ogm(who, &e, 1, auth, 0, (uint8_t)who);
}

/* orig's compact OGM as neighbour via relays it (one hop). */
static void
f_relayed_compact(int via, int orig, uint32_t seqno, int bad)
{
	struct g_ent e = { orig, seqno, 1, orig, TV_NONE, bad, 1 };

	f_ogm(via, &e, 1, WIRE_AUTH_MAC, 0, (uint8_t)via);
}

/* ---- seeds ------------------------------------------------------------------- */

/* P becomes a neighbour, announces itself and relays O; time passes. */
static void
s_basic(uint8_t auth)
{
	g_begin(0);
	f_hellos(G_P, 4);
	f_own(G_P, TV_TT_GW, auth);
	f_relayed(G_P, G_O, 1, TV_TT);
	r_tick(10);
	f_own(G_P, TV_TT_GW, auth);
	f_own(G_P, TV_NONE, auth);
	f_relayed(G_P, G_O, 2, TV_GW);
	f_hellos(G_P, 1);
	r_tick(2010);
	r_tick(2010);
	g_end();
}

/* O heard via P and Q: the second copy comes from the signature cache. */
static void
s_two_paths(void)
{
	struct g_ent e = { G_O, 5, 1, G_O, TV_TT, 1, 0 };

	g_begin(2);
	f_hellos(G_P, 4);
	f_hellos(G_Q, 4);
	f_relayed(G_P, G_O, 5, TV_TT);
	f_ogm(G_Q, &e, 1, WIRE_AUTH_MAC, 0, G_Q);	/* bad signature */
	f_relayed(G_Q, G_O, 5, TV_TT);
	f_relayed(G_Q, G_O, 6, TV_TT);
	f_relayed(G_P, G_O, 6, TV_TT);
	f_own(G_Q, TV_GW, WIRE_AUTH_MAC);
	g_end();
}

/* Mode open: the untrusted U is a stranger. */
static void
s_open(void)
{
	g_begin(1);
	f_hellos(G_U, 3);
	f_own(G_U, TV_TT_GW, WIRE_AUTH_MAC);
	f_hellos(G_P, 3);
	f_relayed(G_P, G_U, 4, TV_NONE);
	g_end();
}

/* Allowlist: U is refused before any signature work. */
static void
s_refused(void)
{
	g_begin(0);
	f_hellos(G_U, 2);
	f_hellos(G_P, 2);
	f_relayed(G_P, G_U, 4, TV_NONE);
	f_relayed(G_P, G_OWN, 4, TV_NONE);	/* our own OGM, echoed */
	g_end();
}

static void
s_ifaces(void)
{
	g_begin(0);
	f_hellos(G_P, 3);
	f_own(G_P, TV_TT, WIRE_AUTH_MAC);
	r_iface(0, 0);			/* A down */
	f_hellos(G_P, 1);
	r_iface(0, 1);			/* A up */
	f_hellos(G_P, 2);
	f_own(G_P, TV_TT, WIRE_AUTH_MAC);
	r_iface(0, 2);			/* A removed */
	r_iface(1, 1);			/* B up */
	f_hello(G_P, WIRE_RX_WINDOW, 1);
	r_iface(0, 1);
	f_hellos(G_P, 2);
	g_end();
}

static void
s_policy(void)
{
	g_begin(0);
	f_hellos(G_P, 3);
	f_hellos(G_Q, 3);
	f_own(G_P, TV_TT_GW, WIRE_AUTH_MAC);
	f_relayed(G_Q, G_O, 3, TV_GW);
	r_policy(0, 0x06, 0x00, 1, 0);	/* P no longer trusted */
	f_hellos(G_P, 1);
	f_relayed(G_Q, G_O, 4, TV_TT_GW);
	r_policy(1, 0x07, 0x07, 0, 0);
	r_byte(T_PCIN_CONFIG, 0);		/* hop penalty 0 */
	f_hellos(G_P, 2);
	f_own(G_P, TV_NONE, WIRE_AUTH_MAC);
	g_end();
}

/* Sixteen full entries in one frame, then the same frame again (replay). */
#define G_AGG_FULL	16
static void
s_aggregate(void)
{
	struct g_ent e[G_AGG_FULL];
	unsigned i;

	g_begin(0);
	f_hellos(G_P, 3);
	for (i = 0; i < G_AGG_FULL; i++) {
		e[i].orig = i % 2 ? G_O : G_Q;
		e[i].seqno = 10 + i;
		e[i].hops = 1;
		e[i].via = e[i].orig;
		e[i].tv = i % 4 == 0 ? TV_TT : TV_NONE;
		e[i].bad_sig = i == 7;
		e[i].compact = 0;
	}
	f_ogm(G_P, e, G_AGG_FULL, WIRE_AUTH_MAC, 500, G_P);
	f_ogm(G_P, e, G_AGG_FULL, WIRE_AUTH_MAC, 500, G_P);
	f_ogm(G_P, e, 2, WIRE_AUTH_MAC, 499, G_P);
	f_ogm(G_P, e, 2, WIRE_AUTH_MAC, 501, G_Q);	/* wrong source */
	g_end();
}

/*
 * Compact entries (OGM chain): P's and O's full entries first, then
 * compact ones of both, alone and mixed with full ones in a frame, one
 * sequence number ahead (free), five ahead (paid from the verification
 * budget), too far ahead (wait for a full one), with a wrong chain
 * element, replayed; compact entries of Q (no full one yet) and of our
 * own address.
 */
static void
s_compact(uint8_t auth)
{
	struct g_ent mix[4] = {
		{ G_P, 0, 0, G_P, TV_NONE, 0, 1 },
		{ G_O, 3, 1, G_O, TV_NONE, 0, 1 },
		{ G_O, 4, 1, G_O, TV_GW, 0, 0 },
		{ G_P, 0, 0, G_P, TV_NONE, 0, 1 },
	};

	g_begin(0);
	f_hellos(G_P, 4);
	f_hellos(G_Q, 2);
	f_own(G_P, TV_TT_GW, auth);
	f_relayed(G_P, G_O, 1, TV_TT);
	f_own_compact(G_P, auth);
	f_relayed_compact(G_P, G_O, 2, 0);
	mix[0].seqno = ++g_ogm_seq[G_P];
	mix[3].seqno = ++g_ogm_seq[G_P];
	f_ogm(G_P, mix, 4, auth, 0, G_P);
	r_tick(10);
	f_relayed_compact(G_P, G_O, 9, 0);		/* 5 ahead: paid */
	f_relayed_compact(G_P, G_O, 30, 0);		/* too far: waits */
	f_relayed_compact(G_P, G_O, 10, 1);		/* wrong element */
	f_relayed_compact(G_P, G_O, 10, 0);
	f_relayed_compact(G_P, G_O, 10, 0);		/* seen */
	f_relayed_compact(G_P, G_Q, 3, 0);		/* no full one of Q */
	f_relayed_compact(G_P, G_OWN, 3, 0);		/* our own */
	f_own_compact(G_Q, WIRE_AUTH_MAC);		/* Q: none either */
	f_own(G_Q, TV_NONE, WIRE_AUTH_MAC);
	f_own_compact(G_Q, WIRE_AUTH_MAC);		/* now it has one */
	f_own_compact(G_P, auth);
	r_tick(2010);
	f_own_compact(G_P, auth);
	r_tick(2010);
	g_end();
}

/*
 * A frame of WIRE_OGM_MAX_ENTRIES compact entries of O and Q (relayed by
 * P) after their full ones; then the same frame again (a replay), and
 * again under a new counter (every seqno already seen).
 */
static void
s_compact_aggregate(void)
{
	struct g_ent e[WIRE_OGM_MAX_ENTRIES];
	unsigned i;

	g_begin(0);
	f_hellos(G_P, 3);
	f_relayed(G_P, G_O, 1, TV_TT);
	f_relayed(G_P, G_Q, 1, TV_GW);
	for (i = 0; i < WIRE_OGM_MAX_ENTRIES; i++) {
		e[i].orig = i % 2 ? G_O : G_Q;
		e[i].seqno = 2 + i / 2;
		e[i].hops = 1;
		e[i].via = e[i].orig;
		e[i].tv = TV_NONE;
		e[i].bad_sig = i == 13;
		e[i].compact = 1;
	}
	f_ogm(G_P, e, WIRE_OGM_MAX_ENTRIES, WIRE_AUTH_MAC, G_CTR(100), G_P);
	f_ogm(G_P, e, WIRE_OGM_MAX_ENTRIES, WIRE_AUTH_MAC, G_CTR(100), G_P);
	f_ogm(G_P, e, WIRE_OGM_MAX_ENTRIES, WIRE_AUTH_MAC, G_CTR(101), G_P);
	g_end();
}

/* The forwarder refuses the key, never answers, answers wrongly. */
static void
s_keys(void)
{
	g_begin(2);
	r_byte(T_PCIN_KEYS, 1);
	f_hellos(G_P, 3);
	f_own(G_P, TV_NONE, WIRE_AUTH_MAC);
	r_byte(T_PCIN_KEYS, 2);
	f_hellos(G_Q, 3);
	f_own(G_Q, TV_NONE, WIRE_AUTH_MAC);
	r_byte(T_PCIN_KEYS, 3);
	r_tick(60);
	f_hellos(G_Q, 1);
	f_own(G_Q, TV_NONE, WIRE_AUTH_MAC);
	g_end();
}

/* Signatures and tags with a zero first byte (fuzzing builds pass them). */
static void
s_bypass(void)
{
	g_begin(0);
	g_zero_auth = 1;
	f_hellos(G_P, 3);
	f_own(G_P, TV_TT_GW, WIRE_AUTH_MAC);
	f_relayed(G_P, G_O, 7, TV_TT);
	f_own(G_P, TV_NONE, WIRE_AUTH_SIG);
	/* Compact entries whose chain elements start with 0. */
	f_own_compact(G_P, WIRE_AUTH_MAC);
	f_relayed_compact(G_P, G_O, 8, 0);
	f_relayed_compact(G_P, G_O, 20, 1);
	g_end();
}

/*
 * HELLO version 4: P's tagged HELLO before it is a neighbour whose link
 * key we hold (dropped: no link key), then signed HELLOs and a tagged OGM
 * (the key is asked for and answered), tagged HELLOs that pass, one with
 * a wrong tag, one that does not list us; Q's tagged HELLO without a key;
 * time passes.  Then the same with tags whose first byte is 0 (the
 * fuzzing bypass).
 */
static void
s_hello_tagged(int zero)
{
	g_begin(0);
	g_zero_auth = zero;
	f_hello_tagged(G_P, WIRE_RX_WINDOW, 0);
	f_hellos(G_P, 4);
	f_own(G_P, TV_TT_GW, WIRE_AUTH_MAC);
	f_hello_tagged(G_P, WIRE_RX_WINDOW, 0);
	f_hello_tagged(G_P, WIRE_RX_WINDOW, 0);
	f_hello_tagged(G_P, WIRE_RX_WINDOW, 1);
	f_hello_tagged(G_P, 0, 0);
	f_hello_tagged(G_Q, WIRE_RX_WINDOW, 0);
	f_hellos(G_P, 1);
	r_tick(10);
	f_hello_tagged(G_P, WIRE_RX_WINDOW, 0);
	f_own(G_P, TV_NONE, WIRE_AUTH_MAC);
	r_tick(2010);
	g_end();
}

int
main(int argc, char **argv)
{
	int i;

	t_seed_main(argc, argv, "gen_pcore", T_SEED_SHA256);
	t_ident_addr(&g_id[G_OWN], g_addr[G_OWN], T_PCIN_OWN_SEED);
	for (i = G_P; i < G_N; i++)
		t_ident_addr(&g_id[i], g_addr[i], T_PCIN_PEER_SEED(i - G_P));
	for (i = 0; i < G_N; i++)
		g_chain_init(&g_chain[i], i);
	s_basic(WIRE_AUTH_MAC);
	s_basic(WIRE_AUTH_SIG);
	s_two_paths();
	s_open();
	s_refused();
	s_ifaces();
	s_policy();
	s_aggregate();
	s_compact(WIRE_AUTH_MAC);
	s_compact(WIRE_AUTH_SIG);
	s_compact_aggregate();
	s_keys();
	s_bypass();
	s_hello_tagged(0);
	s_hello_tagged(1);
	return 0;
}
