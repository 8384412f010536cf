/*
 * gen_wire.c — writes the seed corpus of fuzz_wire into the directory named
 * by argv[1], each file named by (the first 20 bytes of) its SHA-256.
 *
 * Every seed is made by the codec's own builders and really signed, so the
 * corpus starts from frames a node would send: HELLOs (version 4) with and
 * without neighbours and certificate, signed or with link tags (real
 * bs_link_mac tags under made-up OGM link keys), OGM aggregates (version 3) with every TVLV
 * type and both link-auth modes, compact entries among full ones and a
 * frame of WIRE_OGM_MAX_ENTRIES compact entries, data frames of version 2
 * (UNICAST and ECHO sealed with real end-to-end and hop keys, BCAST signed
 * and tagged) of minimum, middle and maximum size, and bare TVLV regions
 * (first byte 0xf0).
 * Deterministic: fixed keys and counters, Ed25519 signatures are
 * deterministic, and the AEAD nonce is the fixed counter.
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
#include "lib/t_seed.h"
#include "proto/wire.h"

/* fuzz_wire's selector: the rest of the input is a TVLV region. */
#define GEN_TVLV_SEED	0xf0

static struct bs_identity gen_id[4];	/* node, two originators, CA */

static void
gen_cert(uint8_t out[BS_CERT_LEN], const uint8_t *pk)
{
	struct bs_cert c;

	t_seed_ok(bs_cert_issue(&c, &gen_id[3], pk, "node-1", BS_ROLE_GATEWAY,
	    1700000000, 1800000000), "cert");
	bs_cert_encode(out, &c);
}

static void
gen_revoke(uint8_t out[BS_REVOKE_LEN], const uint8_t *pk)
{
	struct bs_revoke r;

	t_seed_ok(bs_revoke_issue(&r, &gen_id[3], pk, 1750000000), "revoke");
	bs_revoke_encode(out, &r);
}

/* ---- HELLO ------------------------------------------------------------- */

/*
 * A HELLO of node 0 listing n neighbours, with a certificate or not;
 * signed (ntags 0, seqno 1000 + n) or with ntags link tags (seqno
 * 2000 + n) under made-up OGM link keys: every byte of key t is 0x40 + t, its
 * key id bs_link_keyid() of it.
 */
static void
gen_hello(unsigned n, int with_cert, unsigned ntags, unsigned nwant)
{
	static uint8_t addr[WIRE_HELLO_MAX_NEIGH][BS_ADDR_LEN];
	static uint8_t want[WIRE_HELLO_MAX_WANT][BS_ADDR_LEN];
	static const uint8_t ifmac[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 1, 2, 3 };
	static struct t_link link[WIRE_MAX_TAGS];
	const struct t_link *links[WIRE_MAX_TAGS];
	uint8_t buf[WIRE_HELLO_MAX_LEN], cert[BS_CERT_LEN];
	struct wire_hello h;
	unsigned i;

	memset(&h, 0, sizeof(h));
	h.pk = gen_id[0].pk;
	h.ifmac = ifmac;
	h.interval_ms = 500;
	h.epoch = 3;
	h.seqno = (nwant > 0 ? 3000 : ntags > 0 ? 2000 : 1000) + n;
	h.num_neigh = n;
	for (i = 0; i < n; i++) {
		bs_mesh_addr(addr[i], gen_id[i % 4].pk);
		addr[i][5] ^= (uint8_t)(i / 4);
		h.neigh[i].addr = addr[i];
		h.neigh[i].rx_count = (uint8_t)(WIRE_RX_WINDOW - i);
	}
	if (with_cert) {
		gen_cert(cert, gen_id[0].pk);
		h.cert = cert;
	}
	h.num_want = nwant;
	for (i = 0; i < nwant && i < WIRE_HELLO_MAX_WANT; i++) {
		bs_mesh_addr(want[i], gen_id[(i + 1) % 4].pk);
		want[i][4] ^= (uint8_t)(0x10 + i);
		h.want[i] = want[i];
	}
	if (ntags == 0) {
		t_seed_write(buf, t_hello(buf, sizeof(buf), &h, &gen_id[0]));
		return;
	}
	for (i = 0; i < ntags && i < WIRE_MAX_TAGS; i++) {
		memset(link[i].ogm_key, 0x40 + (int)i, sizeof(link[i].ogm_key));
		bs_link_keyid(link[i].ogm_keyid, link[i].ogm_key);
		links[i] = &link[i];
	}
	t_seed_write(buf, t_hello_tagged(buf, sizeof(buf), &h, links, ntags));
}

/* ---- TVLV regions ------------------------------------------------------ */

enum gen_tv { TV_NONE, TV_GW_TT, TV_CERT_REV, TV_ALL, TV_TT_MAX, TV_UNKNOWN,
    TV_TT_PAGE };

static size_t
gen_tt(uint8_t *buf, size_t cap, size_t len, unsigned n)
{
	static uint8_t mac[WIRE_TT_MAX][BS_ADDR_LEN];
	struct wire_tt_entry e[WIRE_TT_MAX] = { 0 };
	unsigned i;

	for (i = 0; i < n; i++) {
		mac[i][0] = 0x00;
		mac[i][1] = 0x16;
		mac[i][2] = 0x3e;
		mac[i][3] = 0xaa;
		mac[i][4] = (uint8_t)(i >> 8);
		mac[i][5] = (uint8_t)i;
		e[i].mac = mac[i];
		e[i].vid = (i % 3 == 1) ? (uint16_t)(WIRE_VID_TAGGED | (i + 1))
		    : 0;
		e[i].flags = i == 2 ? WIRE_TT_F_ISOLATED : 0;
	}
	t_seed_ok(wire_tvlv_put_tt(buf, cap, &len, e, n), "tt");
	return len;
}

/* Page 3 of 8 of a table of 300: the first 20 clients of bucket 3. */
static size_t
gen_tt_page(uint8_t *buf, size_t cap, size_t len)
{
	static uint8_t mac[20][BS_ADDR_LEN];
	struct wire_tt_entry e[20] = { 0 };
	struct wire_tt_page pg = { 0 };
	unsigned i, k = 0;

	for (i = 0; k < 20; i++) {
		uint8_t m[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 0xbb,
		    (uint8_t)(i >> 8), (uint8_t)i };

		if (wire_tt_bucket(m, 0, 8) != 3)
			continue;
		memcpy(mac[k], m, BS_ADDR_LEN);
		e[k].mac = mac[k];
		k++;
	}
	pg.ttvn = 9;
	pg.total = 300;
	pg.sum = 0x12345678;
	pg.pages = 8;
	pg.page = 3;
	pg.n = k;
	pg.e = e;
	t_seed_ok(wire_tvlv_put_tt_page(buf, cap, &len, &pg), "tt page");
	return len;
}

static size_t
gen_tvlv(uint8_t *buf, size_t cap, enum gen_tv kind)
{
	static const uint8_t unk[6] = { 'f', 'u', 't', 'u', 'r', 'e' };
	uint8_t cert[BS_CERT_LEN], rev[BS_REVOKE_LEN];
	size_t len = 0;

	if (kind == TV_GW_TT || kind == TV_ALL)
		t_seed_ok(wire_tvlv_put_gateway(buf, cap, &len, 500, 100), "gw");
	if (kind == TV_GW_TT || kind == TV_ALL)
		len = gen_tt(buf, cap, len, kind == TV_ALL ? 2 : 5);
	if (kind == TV_CERT_REV || kind == TV_ALL) {
		gen_cert(cert, gen_id[1].pk);
		t_seed_ok(wire_tvlv_put_cert(buf, cap, &len, cert), "cert tvlv");
	}
	if (kind == TV_CERT_REV || kind == TV_ALL) {
		gen_revoke(rev, gen_id[2].pk);
		t_seed_ok(wire_tvlv_put_revoke(buf, cap, &len, rev), "rev tvlv");
	}
	if (kind == TV_TT_MAX)
		len = gen_tt(buf, cap, len, WIRE_TT_MAX);
	if (kind == TV_TT_PAGE) {
		static const uint8_t g[2 * BS_ADDR_LEN] = { 0x01, 0x00, 0x5e,
		    0x01, 0x02, 0x03, 0x33, 0x33, 0x00, 0x01, 0x12, 0x34 };

		len = gen_tt_page(buf, cap, len);
		t_seed_ok(wire_tvlv_put_mcast(buf, cap, &len,
		    WIRE_MCAST_F_ALL6, g, 2), "mcast");
	}
	if (kind == TV_UNKNOWN || kind == TV_ALL) {
		t_seed_ok(wire_tvlv_put(buf, cap, &len, 0x7f, 1, unk, sizeof(unk)),
		    "unknown tvlv");
		t_seed_ok(wire_tvlv_put(buf, cap, &len, WIRE_TVLV_GATEWAY, 2, unk,
		    sizeof(unk)), "v2 tvlv");
	}
	return len;
}

static void
gen_region(enum gen_tv kind)
{
	uint8_t buf[1 + WIRE_TVLV_MAX];

	buf[0] = GEN_TVLV_SEED;
	t_seed_write(buf, 1 + gen_tvlv(buf + 1, sizeof(buf) - 1, kind));
}

/* ---- OGM --------------------------------------------------------------- */

struct gen_ent {
	unsigned orig;
	uint8_t hops;
	enum gen_tv tv;
	int compact;		/* a compact entry (tv unused) */
};

/*
 * A compact entry of orig (seqno, hops): the mutable part of kind
 * WIRE_OGM_COMPACT with the chain element H^hops(seed), then the
 * originator's mesh address and the seqno.
 */
static void
gen_compact(struct wire_ogm_builder *b, const uint8_t seed[BS_CHAIN_LEN],
    const uint8_t prev[BS_ADDR_LEN], const struct gen_ent *ge,
    uint32_t seqno)
{
	uint8_t elem[BS_CHAIN_LEN], orig[BS_ADDR_LEN];
	uint8_t blk[WIRE_OGM_COMPACT_BLOCK];
	struct wire_ogm_mut m = { .kind = WIRE_OGM_COMPACT };

	t_seed_ok(bs_chain_iter(elem, seed, ge->hops), "compact chain");
	bs_mesh_addr(orig, gen_id[ge->orig].pk);
	m.ttl = (uint8_t)(50 - ge->hops);
	m.tq = (uint8_t)(255 - 30 * (ge->hops > 8 ? 8 : ge->hops));
	m.hops = ge->hops;
	m.prev_sender = prev;
	m.chain = elem;
	t_seed_ok(wire_ogm_compact_build(blk, orig, seqno), "compact block");
	t_seed_ok(wire_ogm_add(b, &m, blk, sizeof(blk)), "compact entry");
}

/* Entry i of an aggregate: its signed block, then appended with a relay's
 * mutable part for `hops` hops; or a compact entry. */
static void
gen_entry(struct wire_ogm_builder *b, unsigned i, const struct gen_ent *ge)
{
	uint8_t tvlv[WIRE_TVLV_MAX], seed[BS_CHAIN_LEN], prev[BS_ADDR_LEN];

	memset(seed, 0x50 + (int)i, sizeof(seed));
	bs_mesh_addr(prev, gen_id[ge->hops == 0 ? ge->orig : 0].pk);
	if (ge->compact) {
		gen_compact(b, seed, prev, ge, 100 + i);
		return;
	}
	t_ogm_add(b, &(struct t_ogm_entry){ .orig = &gen_id[ge->orig],
	    .epoch = 2, .seqno = 100 + i, .interval_ms = 1000,
	    .chain_seed = seed, .tvlv = tvlv,
	    .tvlv_len = gen_tvlv(tvlv, sizeof(tvlv), ge->tv),
	    .ttl = (uint8_t)(50 - ge->hops),
	    .tq = (uint8_t)(255 - 30 * (ge->hops > 8 ? 8 : ge->hops)),
	    .hops = ge->hops, .prev_sender = prev });
}

/* Link auth: real tags for the first two neighbours, then placeholders. */
static void
gen_tags(struct wire_ogm_builder *b, unsigned n, const uint8_t *sender,
    uint64_t ctr, const uint8_t *cov, size_t cov_len)
{
	uint8_t kid[BS_KEYID_LEN], tag[BS_TAG_LEN];
	unsigned t;

	for (t = 0; t < n; t++) {
		if (t < 2) {
			t_link_tag(kid, tag, &gen_id[0], gen_id[1 + t].pk,
			    sender, ctr, cov, cov_len);
		} else {
			memset(kid, 0xc0 + (int)t, sizeof(kid));
			memset(tag, (int)t, sizeof(tag));
		}
		t_seed_ok(wire_ogm_add_tag(b, kid, tag), "tag");
	}
}

static void
gen_ogm(const struct gen_ent *ents, unsigned n, uint8_t auth, unsigned ntags)
{
	static uint8_t buf[WIRE_OGM_MAX_LEN];
	uint8_t sender[BS_ADDR_LEN], sig[BS_SIG_LEN];
	uint64_t ctr = ((uint64_t)2 << 32) | 17;
	struct wire_ogm_builder b;
	const uint8_t *cov;
	size_t cov_len, len;
	unsigned i;

	bs_mesh_addr(sender, gen_id[0].pk);
	t_seed_ok(wire_ogm_begin(&b, buf, sizeof(buf), sender), "ogm begin");
	for (i = 0; i < n; i++)
		gen_entry(&b, i, &ents[i]);
	t_seed_ok(wire_ogm_trailer(&b, auth, ntags, ctr, &cov, &cov_len),
	    "trailer");
	if (auth == WIRE_AUTH_MAC) {
		gen_tags(&b, ntags, sender, ctr, cov, cov_len);
	} else {
		t_seed_ok(bs_sign(sig, BS_DOM_LINK, cov, cov_len, &gen_id[0]),
		    "link sign");
		t_seed_ok(wire_ogm_add_sig(&b, sig), "link sig");
	}
	t_seed_ok(wire_ogm_finish(&b, &len), "ogm finish");
	t_seed_write(buf, len);
}

/* ---- data frames, version 2 ------------------------------------------- */

/*
 * The data frames travel from node 0 (interface MAC gen_ifmac, epoch 3)
 * to node 1 (gen_nhmac, epoch 5), as tests/pcap/mkpcap.py wraps them; the
 * end-to-end pair is node 2 -> node 1 (epochs 7 and 5).
 */
static const uint8_t gen_ifmac[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 1, 2, 3 };
static const uint8_t gen_nhmac[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 4, 5, 6 };

/*
 * The hop key of the link from node 0 to node `to' (its MAC: mac), both
 * with the test salts (t_salt).
 */
static void
gen_hop_key(uint8_t h[BS_HOPKEY_LEN], unsigned to, const uint8_t *mac)
{
	struct t_link l;

	t_link_keys(&l, (struct t_end){ &gen_id[0], gen_ifmac, 3, NULL },
	    (struct t_end){ &gen_id[to], mac, 5, NULL });
	memcpy(h, l.key, BS_HOPKEY_LEN);
	sodium_memzero(&l, sizeof(l));
}

/* A sealed frame of type carrying pt (pt_len bytes) from node src to dst. */
static void
gen_sealed(uint8_t type, unsigned src, unsigned dst, uint32_t src_epoch,
    uint32_t dst_epoch, const uint8_t *pt, size_t pt_len, uint64_t hop_ctr)
{
	static uint8_t buf[WIRE_SEALED_OVERHEAD + WIRE_INNER_MAX];
	uint8_t a[BS_ADDR_LEN], b[BS_ADDR_LEN], l[BS_LINKKEY_LEN];
	uint8_t k[BS_E2EKEY_LEN], h[BS_HOPKEY_LEN], kid[BS_KEYID_LEN];
	uint8_t ad[WIRE_SEALED_AD_LEN], in[WIRE_SEALED_HOP_IN];
	struct wire_e2e e;
	size_t len;

	bs_mesh_addr(a, gen_id[src].pk);
	bs_mesh_addr(b, gen_id[dst].pk);
	e = (struct wire_e2e){ .dst = b, .src = a, .src_epoch = src_epoch,
	    .dst_epoch = dst_epoch, .counter = ((uint64_t)1234 << 22) + 1 };
	/* A UNICAST offers AES-256-GCM, as from a CPU with AES-NI (still
	 * sealed with ChaCha20-Poly1305: the suite byte says which). */
	if (type == WIRE_T_UNICAST)
		e.counter |= (uint64_t)WIRE_E2E_S_CAN_AES <<
		    WIRE_E2E_SUITE_SHIFT;
	t_seed_ok(wire_sealed_layout(buf, sizeof(buf), type, &e, pt_len,
	    &len), "sealed layout");
	t_seed_ok(bs_link_key(l, &gen_id[src], gen_id[dst].pk), "e2e link");
	bs_e2e_key(k, BS_AEAD_CHACHA20, l, gen_id[src].pk, gen_id[dst].pk,
	    src_epoch, dst_epoch);
	wire_sealed_ad(buf, ad);
	bs_aead_seal(buf + WIRE_SEALED_CT_OFF, buf + len - BS_AEAD_TAG_LEN,
	    BS_AEAD_CHACHA20, k, e.counter, ad, sizeof(ad), pt, pt_len);
	gen_hop_key(h, 1, gen_nhmac);
	bs_hop_keyid(kid, h);
	wire_sealed_set_hop(buf, 50, kid, hop_ctr);
	wire_sealed_hop_input(buf, len, in);
	bs_hop_tag(buf + WIRE_HOP_TAG_OFF, h, in, sizeof(in));
	t_seed_write(buf, len);
}

static void
gen_unicast(size_t inner_len)
{
	static uint8_t inner[WIRE_INNER_MAX];
	size_t i;

	for (i = 0; i < inner_len; i++)
		inner[i] = (uint8_t)(i < 6 ? 0xff : i);
	gen_sealed(WIRE_T_UNICAST, 2, 1, 7, 5, inner, inner_len,
	    1000 + inner_len);
}

static void
gen_echo(uint8_t kind)
{
	uint8_t body[WIRE_ECHO_BODY_LEN];
	int req = kind == WIRE_ECHO_REQUEST;

	wire_echo_body_put(body, &(struct wire_echo){ .kind = kind,
	    .ident = 0x1234, .seqno = 7 });
	gen_sealed(WIRE_T_ECHO, req ? 2 : 1, req ? 1 : 2, req ? 7 : 5,
	    req ? 5 : 7, body, sizeof(body), (uint64_t)1 << 56 | kind);
}

/* A TRACE (an echo request) and a relay's TTLX answering one. */
static void
gen_trace(void)
{
	uint8_t body[WIRE_TTLX_BODY_LEN], d[BS_ADDR_LEN];

	wire_echo_body_put(body, &(struct wire_echo){ .kind =
	    WIRE_ECHO_REQUEST, .ident = 0x1234, .seqno = 8 });
	gen_sealed(WIRE_T_TRACE, 2, 1, 7, 5, body, WIRE_ECHO_BODY_LEN,
	    (uint64_t)1 << 56 | 3);
	bs_mesh_addr(d, gen_id[1].pk);
	wire_ttlx_body_put(body, &(struct wire_ttlx){ .dst = d,
	    .counter = ((uint64_t)1234 << 22) + 1 });
	gen_sealed(WIRE_T_TTLX, 1, 2, 5, 7, body, sizeof(body),
	    (uint64_t)1 << 56 | 4);
}

/*
 * A BCAST of node 2 relayed by node 0 with ntags tags: real ones for the
 * links to nodes 1 and 3, then placeholders.
 */
static void
gen_bcast(size_t inner_len, unsigned ntags)
{
	static uint8_t inner[WIRE_INNER_MAX], block[WIRE_BCAST_BLOCK_MAX];
	static uint8_t buf[WIRE_BCAST_MAX_LEN];
	static const uint8_t mac3[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 7, 8, 9 };
	uint8_t orig[BS_ADDR_LEN], sig[BS_SIG_LEN], h[BS_HOPKEY_LEN];
	uint8_t kid[BS_KEYID_LEN], tag[BS_HOPTAG_LEN];
	uint8_t in[WIRE_BCAST_TAG_IN];
	struct wire_bcast b;
	size_t i, blen, len;
	unsigned t;

	for (i = 0; i < inner_len; i++)
		inner[i] = (uint8_t)(i < 6 ? 0xff : i);
	bs_mesh_addr(orig, gen_id[2].pk);
	t_seed_ok(wire_bcast_signed_build(block, sizeof(block),
	    &(struct wire_bcast_sgn){ .orig = orig, .epoch = 7, .seqno = 4242,
	    .inner = inner, .inner_len = inner_len }, &blen), "bcast block");
	t_seed_ok(bs_sign(sig, BS_DOM_BCAST, block, blen, &gen_id[2]),
	    "bcast sign");
	t_seed_ok(wire_sig_append(block, sizeof(block), &blen, sig),
	    "bcast sig");
	t_seed_ok(wire_bcast_frame(buf, sizeof(buf), 49, ntags,
	    ((uint64_t)3 << 32) + inner_len, block, blen, &len), "bcast");
	t_seed_ok(wire_bcast_parse(buf, len, &b), "bcast parse");
	wire_bcast_tag_input(buf, &b, in);
	for (t = 0; t < ntags; t++) {
		if (t < 2) {
			gen_hop_key(h, t == 0 ? 1 : 3, t == 0 ? gen_nhmac :
			    mac3);
			bs_hop_keyid(kid, h);
			bs_hop_tag(tag, h, in, sizeof(in));
		} else {
			memset(kid, 0xc0 + (int)t, sizeof(kid));
			memset(tag, (int)t, sizeof(tag));
		}
		wire_bcast_set_tag(buf, t, kid, tag);
	}
	t_seed_write(buf, len);
}

/*
 * FRAG pieces of an end-to-end part of total bytes (the bytes are a
 * pattern: only the layout matters here) cut by node 2 with seqno 77,
 * for node 1, with real hop tags of the link to node 1: pieces of at
 * most max bytes, hop counters 2000 + offset.
 */
static void
gen_frag(uint16_t total, size_t max)
{
	static uint8_t whole[WIRE_FRAG_TOTAL_MAX], buf[WIRE_FRAG_MAX_LEN];
	static uint8_t in[WIRE_FRAG_HOP_IN_MAX];
	uint8_t a[BS_ADDR_LEN], b[BS_ADDR_LEN], h[BS_HOPKEY_LEN];
	uint8_t kid[BS_KEYID_LEN];
	struct wire_frag f;
	size_t i, len, inlen;

	for (i = 0; i < total; i++)
		whole[i] = (uint8_t)(i * 3);
	bs_mesh_addr(a, gen_id[2].pk);
	bs_mesh_addr(b, gen_id[1].pk);
	gen_hop_key(h, 1, gen_nhmac);
	bs_hop_keyid(kid, h);
	f = (struct wire_frag){ .dst = b, .orig = a, .seqno = 77,
	    .total = total };
	for (i = 0; i < total; i += max) {
		f.offset = (uint16_t)i;
		f.piece = whole + i;
		f.piece_len = total - i < max ? total - i : max;
		t_seed_ok(wire_frag_build(buf, sizeof(buf), &f, &len), "frag");
		wire_sealed_set_hop(buf, 50, kid, 2000 + i);
		inlen = wire_frag_hop_input(buf, len, in);
		bs_hop_tag(buf + WIRE_HOP_TAG_OFF, h, in, inlen);
		t_seed_write(buf, len);
	}
}

int
main(int argc, char **argv)
{
	static const struct gen_ent one[] = { { 1, 0, TV_NONE, 0 } };
	static const struct gen_ent three[] = { { 1, 0, TV_GW_TT, 0 },
	    { 2, 4, TV_CERT_REV, 0 }, { 1, BS_MAXHOPS, TV_UNKNOWN, 0 } };
	static const struct gen_ent two[] = { { 2, 1, TV_ALL, 0 },
	    { 1, 2, TV_TT_MAX, 0 } };
	static const struct gen_ent paged[] = { { 3, 1, TV_TT_PAGE, 0 },
	    { 1, 0, TV_NONE, 0 }, { 2, 0, TV_NONE, 0 }, { 1, 3, TV_NONE, 0 } };
	/* Version 2: full and compact entries mixed, and 40 compact ones. */
	static const struct gen_ent mixed[] = { { 1, 0, TV_GW_TT, 0 },
	    { 2, 1, TV_NONE, 1 }, { 3, BS_MAXHOPS, TV_NONE, 1 },
	    { 2, 4, TV_NONE, 0 }, { 1, 0, TV_NONE, 1 } };
	static struct gen_ent compact[WIRE_OGM_MAX_ENTRIES];
	static const uint8_t other[][2] = { { 0x03, 0x01 }, { 0x01, 0x02 },
	    { 0x40, 0x01 } };
	unsigned i;

	t_seed_main(argc, argv, "gen_wire", T_SEED_SHA256);
	for (i = 0; i < 4; i++)
		t_ident(&gen_id[i], (uint8_t)(0x21 * (i + 1)));
	gen_hello(0, 0, 0, 0);
	gen_hello(3, 1, 0, 0);
	gen_hello(WIRE_HELLO_MAX_NEIGH, 1, 0, 0);
	gen_hello(1, 0, 1, 0);
	gen_hello(3, 0, 3, 0);
	gen_hello(WIRE_HELLO_MAX_NEIGH, 1, WIRE_MAX_TAGS, 0);
	gen_hello(1, 0, 0, WIRE_HELLO_MAX_WANT);	/* seqno 3001 */
	gen_hello(2, 1, 2, 3);				/* 3002 */
	gen_ogm(one, 1, WIRE_AUTH_MAC, 1);
	gen_ogm(three, 3, WIRE_AUTH_MAC, WIRE_MAX_TAGS);
	gen_ogm(two, 2, WIRE_AUTH_SIG, 0);
	gen_ogm(paged, 4, WIRE_AUTH_MAC, 1);
	gen_ogm(mixed, 5, WIRE_AUTH_MAC, 2);
	for (i = 0; i < WIRE_OGM_MAX_ENTRIES; i++)
		compact[i] = (struct gen_ent){ 1 + i % 3, (uint8_t)(i % 4),
		    TV_NONE, 1 };
	gen_ogm(compact, WIRE_OGM_MAX_ENTRIES, WIRE_AUTH_MAC, 1);
	gen_unicast(WIRE_INNER_MIN);
	gen_unicast(98);
	gen_unicast(WIRE_INNER_MAX);
	gen_bcast(WIRE_INNER_MIN, 1);
	gen_bcast(342, 3);
	gen_bcast(WIRE_INNER_MAX, 1);
	gen_bcast(WIRE_INNER_MAX, WIRE_BCAST_MAX_TAGS);
	gen_echo(WIRE_ECHO_REQUEST);
	gen_echo(WIRE_ECHO_REPLY);
	gen_trace();
	gen_frag(WIRE_FRAG_TOTAL_MAX, 1280 - WIRE_FRAG_HDR_LEN);
	gen_frag(WIRE_FRAG_TOTAL_MIN, 40);
	gen_region(TV_ALL);
	gen_region(TV_GW_TT);
	gen_region(TV_UNKNOWN);
	gen_region(TV_TT_PAGE);
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		t_seed_write(other[i], sizeof(other[i]));
	return 0;
}
