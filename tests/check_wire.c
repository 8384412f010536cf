/*
 * check_wire.c — unit tests of the wire codec (src/proto/wire.c).
 *
 * Every frame type is built by the codec from known inputs ("recipes"),
 * signed with the crypto library, parsed back and compared field by field,
 * rebuilt from the parsed view and compared byte by byte.  The malformed
 * inputs are derived from those valid frames: every truncation point, and a
 * table of single-field edits, each with the error and the offset the
 * parser must report.  Parsed copies are malloc'ed to their exact length so
 * ASan reports any read past the end.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"

#define FRAME_MAX	8192

struct frame {
	uint8_t buf[FRAME_MAX];
	size_t len;
	uint8_t type;
};

/* 0: the sending node, 1 and 2: originators, 3: the CA. */
static struct bs_identity ids[4];

static void
setup_ids(void)
{
	unsigned i;

	ck_assert_int_eq(bs_crypto_init(), 0);
	for (i = 0; i < 4; i++)
		t_ident(&ids[i], (uint8_t)(0x11 * (i + 1)));
}

static void
neigh_addr(uint8_t a[BS_ADDR_LEN], unsigned i)
{
	static const uint8_t base[BS_ADDR_LEN] = { 0x02, 0xa0, 0, 0, 0, 0 };

	memcpy(a, base, BS_ADDR_LEN);
	a[5] = (uint8_t)i;
}

static void
make_cert(uint8_t out[BS_CERT_LEN], const uint8_t pk[BS_PK_LEN])
{
	struct bs_cert c;

	ck_assert_int_eq(bs_cert_issue(&c, &ids[3], pk, "node-a",
	    BS_ROLE_GATEWAY, 1000, 2000), 0);
	bs_cert_encode(out, &c);
}

static void
make_revoke(uint8_t out[BS_REVOKE_LEN], const uint8_t pk[BS_PK_LEN])
{
	struct bs_revoke r;

	ck_assert_int_eq(bs_revoke_issue(&r, &ids[3], pk, 1500), 0);
	bs_revoke_encode(out, &r);
}

/* ---- HELLO recipes ----------------------------------------------------- */

static const uint8_t hello_ifmac[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 1, 2, 3 };
static const uint8_t hello_salt[BS_LINKSALT_LEN] = { 0x5a, 1, 2, 3, 4, 5, 6,
    7, 8, 9, 10, 11, 12, 13, 14, 0xa5 };

static void
hello_eq(const struct wire_hello *a, const struct wire_hello *b)
{
	unsigned i;

	ck_assert_uint_eq(a->num_neigh, b->num_neigh);
	ck_assert_mem_eq(a->pk, b->pk, BS_PK_LEN);
	ck_assert_mem_eq(a->ifmac, b->ifmac, BS_ADDR_LEN);
	ck_assert_uint_eq(a->interval_ms, b->interval_ms);
	ck_assert_uint_eq(a->epoch, b->epoch);
	ck_assert_uint_eq(a->seqno, b->seqno);
	ck_assert_mem_eq(a->salt, b->salt, BS_LINKSALT_LEN);
	for (i = 0; i < a->num_neigh; i++) {
		ck_assert_mem_eq(a->neigh[i].addr, b->neigh[i].addr,
		    BS_ADDR_LEN);
		ck_assert_uint_eq(a->neigh[i].rx_count, b->neigh[i].rx_count);
	}
	ck_assert_int_eq(a->cert == NULL, b->cert == NULL);
	if (a->cert != NULL)
		ck_assert_mem_eq(a->cert, b->cert, BS_CERT_LEN);
	ck_assert_uint_eq(a->num_want, b->num_want);
	for (i = 0; i < a->num_want; i++)
		ck_assert_mem_eq(a->want[i], b->want[i], BS_ADDR_LEN);
	ck_assert_uint_eq(a->tr.auth, b->tr.auth);
	ck_assert_uint_eq(a->tr.num_tags, b->tr.num_tags);
}

/* A made-up OGM link key for tag i of a tagged HELLO. */
static void
hello_tag_key(uint8_t key[static BS_LINKKEY_LEN], uint8_t id[static BS_KEYID_LEN],
    unsigned i)
{
	memset(key, 0x40 + (int)i, BS_LINKKEY_LEN);
	bs_link_keyid(id, key);
}

/* A HELLO with n neighbours, a certificate or not, signed (tags 0) or
 * with that many link tags, asking for nwant originators' entries. */
static void
make_hello(struct frame *f, unsigned n, int with_cert, unsigned tags,
    unsigned nwant)
{
	static uint8_t addrs[WIRE_HELLO_MAX_NEIGH][BS_ADDR_LEN];
	static uint8_t wants[WIRE_HELLO_MAX_WANT][BS_ADDR_LEN];
	static uint8_t cert[BS_CERT_LEN];
	uint8_t key[BS_LINKKEY_LEN], id[BS_KEYID_LEN], tag[BS_TAG_LEN];
	uint8_t sig[BS_SIG_LEN], sender[BS_ADDR_LEN];
	struct wire_hello h, v;
	size_t len, cov;
	unsigned i;

	memset(&h, 0, sizeof(h));
	h.pk = ids[0].pk;
	h.ifmac = hello_ifmac;
	h.interval_ms = 1000;
	h.epoch = 7;
	h.seqno = 0x01020304;
	h.salt = hello_salt;
	h.num_neigh = n;
	for (i = 0; i < n; i++) {
		neigh_addr(addrs[i], i);
		h.neigh[i].addr = addrs[i];
		h.neigh[i].rx_count = (uint8_t)(i % (WIRE_RX_WINDOW + 1));
	}
	if (with_cert) {
		make_cert(cert, ids[0].pk);
		h.cert = cert;
	}
	h.num_want = nwant;
	for (i = 0; i < nwant; i++) {
		neigh_addr(wants[i], 0x80 + i);
		h.want[i] = wants[i];
	}
	h.tr.auth = tags > 0 ? WIRE_AUTH_MAC : WIRE_AUTH_SIG;
	h.tr.num_tags = tags;
	ck_assert_int_eq(wire_hello_build(f->buf, sizeof(f->buf), &h, &len),
	    WIRE_OK);
	ck_assert_uint_eq(len, WIRE_HELLO_FIXED_LEN + WIRE_HELLO_NEIGH_LEN * n +
	    (with_cert ? BS_CERT_LEN : 0) + (nwant > 0 ? 1 + 6 * nwant : 0) +
	    WIRE_HELLO_TRAILER_HDR_LEN);
	cov = len;
	if (tags == 0) {
		ck_assert_int_eq(bs_sign(sig, BS_DOM_HELLO, f->buf, len,
		    &ids[0]), 0);
		ck_assert_int_eq(wire_sig_append(f->buf, sizeof(f->buf), &len,
		    sig), WIRE_OK);
	}
	bs_mesh_addr(sender, ids[0].pk);
	for (i = 0; i < tags; i++) {
		hello_tag_key(key, id, i);
		bs_link_mac(tag, key, sender, (uint64_t)7 << 32 | 0x01020304,
		    f->buf, cov);
		ck_assert_int_eq(wire_tag_append(f->buf, sizeof(f->buf), &len,
		    id, tag), WIRE_OK);
	}
	f->len = len;
	f->type = WIRE_T_HELLO;
	/* parse(build(x)) == x */
	ck_assert_int_eq(wire_hello_parse(f->buf, f->len, &v), WIRE_OK);
	hello_eq(&v, &h);
	ck_assert_uint_eq(v.flags, (with_cert ? WIRE_HELLO_F_CERT : 0) |
	    (nwant > 0 ? WIRE_HELLO_F_WANT : 0));
	if (tags == 0)
		ck_assert_mem_eq(v.sig, sig, BS_SIG_LEN);
	else
		ck_assert_ptr_null(v.sig);
	ck_assert_uint_eq(v.tr.counter, (uint64_t)7 << 32 | 0x01020304);
	ck_assert_ptr_eq(v.tr.covered, f->buf);
	ck_assert_uint_eq(v.tr.covered_len, cov);
	ck_assert_uint_eq(v.len, f->len);
	ck_assert_ptr_null(v.where.field);
	/* The salt sits right after the sequence number. */
	ck_assert_uint_eq(f->buf[1], WIRE_HELLO_VERSION);
	ck_assert_uint_eq(f->buf[1], 4);
	ck_assert_mem_eq(f->buf + WIRE_HELLO_SALT_OFF, hello_salt,
	    BS_LINKSALT_LEN);
	ck_assert_ptr_eq(v.salt, f->buf + WIRE_HELLO_SALT_OFF);
	/* Each tag verifies under its key, over the covered bytes. */
	for (i = 0; i < tags; i++) {
		hello_tag_key(key, id, i);
		ck_assert_int_eq(wire_trailer_find(&v.tr, id), (int)i);
		ck_assert_int_eq(bs_link_mac_verify(v.tr.tags[i].tag, key,
		    sender, v.tr.counter, v.tr.covered, v.tr.covered_len), 0);
	}
}

/* ---- OGM recipes ------------------------------------------------------- */

enum tv_kind { TV_NONE, TV_GW_TT_UNK, TV_CERT_REV, TV_GWV2, TV_GW, TV_TT64 };

struct ent_spec {
	unsigned orig;			/* index into ids */
	uint8_t ttl, tq, hops;
	enum tv_kind tv;
	uint32_t seqno;
};

struct ogm_spec {
	unsigned n;
	struct ent_spec e[3];
	uint8_t auth;
	unsigned ntags;
};

static const struct ogm_spec ogm_specs[] = {
	{ 1, { { 1, 50, 255, 0, TV_NONE, 1 } }, WIRE_AUTH_MAC, 1 },
	{ 3, { { 1, 50, 255, 0, TV_GW_TT_UNK, 2 },
	    { 2, 47, 200, 3, TV_CERT_REV, 3 },
	    { 1, 50, 10, BS_MAXHOPS, TV_GWV2, 4 } }, WIRE_AUTH_MAC, 16 },
	{ 2, { { 2, 50, 255, 0, TV_GW, 5 }, { 1, 49, 225, 1, TV_TT64, 6 } },
	    WIRE_AUTH_SIG, 0 },
};

#define OGM_COUNTER	(((uint64_t)9 << 32) | 77)
/* A full entry's tvlv_len, from the start of its signed part. */
#define S_TVLV_LEN	(44 + BS_CHAIN_LEN)
/* ogm_specs[2]'s frame: 12 + (146 + 12) + (146 + 4 + 64 x 12) + 76. */
#define OGMSIG_LEN	1164
#define GW_DOWN		10000
#define GW_UP		2000

/* Inputs of the last OGM built, kept for the comparisons. */
static struct {
	uint8_t sender[BS_ADDR_LEN];
	uint8_t block[3][2048];
	size_t block_len[3];
	uint8_t tvlv[3][WIRE_TVLV_MAX];
	uint8_t seed[3][BS_CHAIN_LEN], anchor[3][BS_CHAIN_LEN];
	uint8_t chain[3][BS_CHAIN_LEN], prev[3][BS_ADDR_LEN];
	uint8_t cert[BS_CERT_LEN], rev[BS_REVOKE_LEN];
	struct wire_ogm_signed sgn[3];
	struct wire_ogm_mut mut[3];
	uint8_t keyid[WIRE_MAX_TAGS][BS_KEYID_LEN];
	uint8_t tag[WIRE_MAX_TAGS][BS_TAG_LEN];
	uint8_t linksig[BS_SIG_LEN];
} os;

static const uint8_t tt_mac0[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 0, 0, 0 };

static void
tt_mac(uint8_t *m, unsigned i)
{
	memcpy(m, tt_mac0, BS_ADDR_LEN);
	m[5] = (uint8_t)i;
}

static size_t
make_tt(uint8_t *buf, size_t cap, size_t len, unsigned n)
{
	static uint8_t macs[WIRE_TT_MAX][BS_ADDR_LEN];
	struct wire_tt_entry e[WIRE_TT_MAX] = { 0 };
	unsigned i;

	for (i = 0; i < n; i++) {
		tt_mac(macs[i], i);
		e[i].mac = macs[i];
		e[i].vid = (n == 3 && i == 1) ? (WIRE_VID_TAGGED | 5) : 0;
		e[i].flags = (n == 3 && i == 1) ? WIRE_TT_F_ISOLATED : 0;
	}
	ck_assert_int_eq(wire_tvlv_put_tt(buf, cap, &len, e, n), WIRE_OK);
	return len;
}

static size_t
make_tvlv(uint8_t *buf, size_t cap, enum tv_kind kind)
{
	static const uint8_t unk[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	size_t len = 0;

	switch (kind) {
	case TV_NONE:
		break;
	case TV_GW_TT_UNK:
		ck_assert_int_eq(wire_tvlv_put_gateway(buf, cap, &len, GW_DOWN,
		    GW_UP), WIRE_OK);
		len = make_tt(buf, cap, len, 3);
		ck_assert_int_eq(wire_tvlv_put(buf, cap, &len, 0x7f, 1, unk, 8),
		    WIRE_OK);
		break;
	case TV_CERT_REV:
		make_cert(os.cert, ids[2].pk);
		make_revoke(os.rev, ids[1].pk);
		ck_assert_int_eq(wire_tvlv_put_cert(buf, cap, &len, os.cert),
		    WIRE_OK);
		ck_assert_int_eq(wire_tvlv_put_revoke(buf, cap, &len, os.rev),
		    WIRE_OK);
		break;
	case TV_GWV2:
		ck_assert_int_eq(wire_tvlv_put(buf, cap, &len,
		    WIRE_TVLV_GATEWAY, 2, unk, 8), WIRE_OK);
		break;
	case TV_GW:
		ck_assert_int_eq(wire_tvlv_put_gateway(buf, cap, &len, GW_DOWN,
		    GW_UP), WIRE_OK);
		break;
	case TV_TT64:
		len = make_tt(buf, cap, len, WIRE_TT_MAX);
		break;
	}
	return len;
}

/* The signed block of entry i, as its originator makes it once. */
static void
make_block(unsigned i, const struct ent_spec *es)
{
	struct wire_ogm_signed *s = &os.sgn[i];
	uint8_t sig[BS_SIG_LEN];
	size_t len;

	memset(os.seed[i], 0x40 + (int)i, BS_CHAIN_LEN);
	ck_assert_int_eq(bs_chain_iter(os.anchor[i], os.seed[i], BS_MAXHOPS),
	    0);
	memset(s, 0, sizeof(*s));
	s->pk = ids[es->orig].pk;
	s->epoch = 9;
	s->seqno = es->seqno;
	s->interval_ms = 1000;
	s->anchor = os.anchor[i];
	s->tvlv = os.tvlv[i];
	s->tvlv_len = make_tvlv(os.tvlv[i], sizeof(os.tvlv[i]), es->tv);
	ck_assert_int_eq(wire_ogm_signed_build(os.block[i],
	    sizeof(os.block[i]), s, &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_OGM_FIXED_LEN + s->tvlv_len);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, os.block[i], len,
	    &ids[es->orig]), 0);
	ck_assert_int_eq(wire_sig_append(os.block[i], sizeof(os.block[i]),
	    &len, sig), WIRE_OK);
	os.block_len[i] = len;
}

/* The mutable part as a relay at es->hops would send it. */
static void
make_mut(unsigned i, const struct ent_spec *es)
{
	struct wire_ogm_mut *m = &os.mut[i];

	ck_assert_int_eq(bs_chain_iter(os.chain[i], os.seed[i], es->hops), 0);
	bs_mesh_addr(os.prev[i], es->hops == 0 ? ids[es->orig].pk : ids[3].pk);
	m->ttl = es->ttl;
	m->tq = es->tq;
	m->hops = es->hops;
	m->prev_sender = os.prev[i];
	m->chain = os.chain[i];
}

/* The last tag is a real one for ids[1]; the others are placeholders. */
static void
make_tags(struct wire_ogm_builder *b, unsigned n, const uint8_t *cov,
    size_t cov_len)
{
	uint8_t key[BS_LINKKEY_LEN];
	unsigned t;

	for (t = 0; t < n; t++) {
		if (t + 1 == n) {
			ck_assert_int_eq(bs_link_key(key, &ids[0], ids[1].pk),
			    0);
			bs_link_keyid(os.keyid[t], key);
			bs_link_mac(os.tag[t], key, os.sender, OGM_COUNTER, cov,
			    cov_len);
		} else {
			memset(os.keyid[t], 0, BS_KEYID_LEN);
			os.keyid[t][0] = 0xf0;
			os.keyid[t][3] = (uint8_t)t;
			memset(os.tag[t], (int)t, BS_TAG_LEN);
		}
		ck_assert_int_eq(wire_ogm_add_tag(b, os.keyid[t], os.tag[t]),
		    WIRE_OK);
	}
}

static void
tvlvs_expect(const struct wire_tvlvs *tv, enum tv_kind kind)
{
	switch (kind) {
	case TV_NONE:
		ck_assert_uint_eq(tv->present, 0);
		ck_assert_uint_eq(tv->unknown, 0);
		break;
	case TV_GW_TT_UNK:
		ck_assert_uint_eq(tv->present, (1u << WIRE_TVLV_GATEWAY) |
		    (1u << WIRE_TVLV_TT));
		ck_assert_uint_eq(tv->gw_down, GW_DOWN);
		ck_assert_uint_eq(tv->gw_up, GW_UP);
		ck_assert_uint_eq(tv->tt_count, 3);
		ck_assert_uint_eq(tv->unknown, 1);
		break;
	case TV_CERT_REV:
		ck_assert_uint_eq(tv->present, (1u << WIRE_TVLV_CERT) |
		    (1u << WIRE_TVLV_REVOKE));
		ck_assert_mem_eq(tv->cert, os.cert, BS_CERT_LEN);
		ck_assert_mem_eq(tv->revoke, os.rev, BS_REVOKE_LEN);
		break;
	case TV_GWV2:
		ck_assert_uint_eq(tv->present, 0);
		ck_assert_uint_eq(tv->unknown, 1);
		break;
	case TV_GW:
		ck_assert_uint_eq(tv->present, 1u << WIRE_TVLV_GATEWAY);
		break;
	case TV_TT64:
		ck_assert_uint_eq(tv->tt_count, WIRE_TT_MAX);
		break;
	}
}

static void
ogm_entry_expect(const struct wire_ogm_entry *e, unsigned i,
    const struct ent_spec *es)
{
	ck_assert_uint_eq(e->mut.ttl, es->ttl);
	ck_assert_uint_eq(e->mut.tq, es->tq);
	ck_assert_uint_eq(e->mut.hops, es->hops);
	ck_assert_mem_eq(e->mut.prev_sender, os.prev[i], BS_ADDR_LEN);
	ck_assert_mem_eq(e->mut.chain, os.chain[i], BS_CHAIN_LEN);
	ck_assert_mem_eq(e->sgn.pk, ids[es->orig].pk, BS_PK_LEN);
	ck_assert_uint_eq(e->sgn.epoch, 9);
	ck_assert_uint_eq(e->sgn.seqno, es->seqno);
	ck_assert_uint_eq(e->sgn.flags, 0);
	ck_assert_uint_eq(e->sgn.interval_ms, 1000);
	ck_assert_mem_eq(e->sgn.anchor, os.anchor[i], BS_CHAIN_LEN);
	ck_assert_uint_eq(e->sgn.tvlv_len, os.sgn[i].tvlv_len);
	ck_assert_mem_eq(e->sgn.tvlv, os.tvlv[i], e->sgn.tvlv_len);
	ck_assert_uint_eq(e->block_len, os.block_len[i]);
	ck_assert_mem_eq(e->block, os.block[i], e->block_len);
	ck_assert_uint_eq(e->signed_len, e->block_len - BS_SIG_LEN);
	ck_assert_ptr_eq(e->signed_ptr, e->block);
	ck_assert_ptr_eq(e->sig, e->block + e->signed_len);
	ck_assert_ptr_eq(e->raw + WIRE_OGM_MUT_LEN, e->block);
	ck_assert_uint_eq(e->raw_len, WIRE_OGM_MUT_LEN + e->block_len);
	tvlvs_expect(&e->tv, es->tv);
}

static void
make_ogm(struct frame *f, const struct ogm_spec *sp)
{
	static struct wire_ogm o;
	struct wire_ogm_builder b;
	const uint8_t *cov;
	size_t cov_len;
	unsigned i;

	bs_mesh_addr(os.sender, ids[0].pk);
	ck_assert_int_eq(wire_ogm_begin(&b, f->buf, sizeof(f->buf), os.sender),
	    WIRE_OK);
	for (i = 0; i < sp->n; i++) {
		make_block(i, &sp->e[i]);
		make_mut(i, &sp->e[i]);
		ck_assert_int_eq(wire_ogm_add(&b, &os.mut[i], os.block[i],
		    os.block_len[i]), WIRE_OK);
	}
	ck_assert_int_eq(wire_ogm_trailer(&b, sp->auth, sp->ntags, OGM_COUNTER,
	    &cov, &cov_len), WIRE_OK);
	ck_assert_ptr_eq(cov, f->buf);
	if (sp->auth == WIRE_AUTH_MAC) {
		make_tags(&b, sp->ntags, cov, cov_len);
	} else {
		ck_assert_int_eq(bs_sign(os.linksig, BS_DOM_LINK, cov, cov_len,
		    &ids[0]), 0);
		ck_assert_int_eq(wire_ogm_add_sig(&b, os.linksig), WIRE_OK);
	}
	ck_assert_int_eq(wire_ogm_finish(&b, &f->len), WIRE_OK);
	ck_assert_uint_eq(f->len, cov_len - WIRE_TRAILER_HDR_LEN +
	    wire_trailer_len(sp->auth, sp->ntags));
	f->type = WIRE_T_OGM;

	/* parse(build(x)) == x */
	ck_assert_int_eq(wire_ogm_parse(f->buf, f->len, &o), WIRE_OK);
	ck_assert_uint_eq(o.num_entries, sp->n);
	ck_assert_mem_eq(o.sender, os.sender, BS_ADDR_LEN);
	for (i = 0; i < sp->n; i++)
		ogm_entry_expect(&o.e[i], i, &sp->e[i]);
	ck_assert_uint_eq(o.tr.auth, sp->auth);
	ck_assert_uint_eq(o.tr.num_tags, sp->ntags);
	ck_assert(o.tr.counter == OGM_COUNTER);
	ck_assert_ptr_eq(o.tr.covered, f->buf);
	ck_assert_uint_eq(o.tr.covered_len, cov_len);
	for (i = 0; i < sp->ntags; i++) {
		ck_assert_mem_eq(o.tr.tags[i].keyid, os.keyid[i], BS_KEYID_LEN);
		ck_assert_mem_eq(o.tr.tags[i].tag, os.tag[i], BS_TAG_LEN);
	}
	if (sp->auth == WIRE_AUTH_SIG)
		ck_assert_mem_eq(o.tr.sig, os.linksig, BS_SIG_LEN);
	else
		ck_assert_ptr_null(o.tr.sig);
	ck_assert_uint_eq(o.len, f->len);
}

/* ---- data recipes (version 2) ------------------------------------------ */

static const uint8_t mac_a[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 0xa0, 0, 1 };
static const uint8_t mac_b[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 0xb0, 0, 2 };

#define SEALED_CTR	0x0102030405060708ull	/* e2e counter */
#define SEALED_HOPCTR	0x00aabbccddeeff11ull	/* hop counter, lane 0 */
#define BC_HOPCTR	0x0011223344556677ull
#define BC_SEQNO	0xdeadbeefu

/* Link i (0..7): ids[0] on mac_a, ids[1] on mac_b with last byte i. */
static void
link_i(struct t_link *l, unsigned i)
{
	uint8_t mb[BS_ADDR_LEN];

	memcpy(mb, mac_b, sizeof(mb));
	mb[5] = (uint8_t)(2 + i);
	t_link_keys(l, (struct t_end){ &ids[0], mac_a, 5, NULL },
	    (struct t_end){ &ids[1], mb, 7 + i, NULL });
}

/* The e2e key ids[2] -> ids[1], epochs 3 and 4. */
static void
sealed_key(uint8_t k[BS_E2EKEY_LEN])
{
	t_e2e_key(k, &ids[2], 3, ids[1].pk, 4);
}

static void
fill_inner(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + 1);
}

/* A UNICAST of inner_len, or an ECHO, TRACE or TTLX (its body). */
static void
make_sealed(struct frame *f, uint8_t type, size_t inner_len)
{
	static uint8_t inner[WIRE_INNER_MAX], pt[WIRE_INNER_MAX];
	uint8_t dst[BS_ADDR_LEN], src[BS_ADDR_LEN], k[BS_E2EKEY_LEN];
	uint8_t in[WIRE_SEALED_HOP_IN], ad[WIRE_SEALED_AD_LEN];
	struct wire_echo eb = { WIRE_ECHO_REQUEST, 0xa1b2, 0xc3d4 }, eg;
	struct wire_ttlx xb, xg;
	struct t_link l;
	struct wire_sealed v;

	bs_mesh_addr(dst, ids[1].pk);
	bs_mesh_addr(src, ids[2].pk);
	xb.dst = dst;
	xb.counter = 0x0102030405060708ull;
	if (type == WIRE_T_ECHO || type == WIRE_T_TRACE) {
		wire_echo_body_put(inner, &eb);
		inner_len = WIRE_ECHO_BODY_LEN;
	} else if (type == WIRE_T_TTLX) {
		wire_ttlx_body_put(inner, &xb);
		inner_len = WIRE_TTLX_BODY_LEN;
	} else
		fill_inner(inner, inner_len);
	link_i(&l, 0);
	sealed_key(k);
	f->len = t_sealed(f->buf, sizeof(f->buf), (struct t_sealed){
	    .type = type, .ttl = 50, .hop = &l, .hop_ctr = SEALED_HOPCTR,
	    .e2e_key = k, .e = { .dst = dst, .src = src, .src_epoch = 3,
	    .dst_epoch = 4, .counter = SEALED_CTR }, .pt = inner,
	    .pt_len = inner_len });
	ck_assert_uint_eq(f->len, WIRE_SEALED_OVERHEAD + inner_len);
	f->type = type;
	/* parse(build(x)) == x, field by field */
	ck_assert_int_eq(wire_sealed_parse(f->buf, f->len, &v), WIRE_OK);
	ck_assert_ptr_null(v.where.field);
	ck_assert_uint_eq(v.type, type);
	ck_assert_uint_eq(v.ttl, 50);
	ck_assert_ptr_eq(v.keyid, f->buf + WIRE_HOP_KEYID_OFF);
	ck_assert_mem_eq(v.keyid, l.keyid, BS_KEYID_LEN);
	ck_assert_uint_eq(v.hop_counter, SEALED_HOPCTR);
	ck_assert_ptr_eq(v.hop_tag, f->buf + WIRE_HOP_TAG_OFF);
	ck_assert_mem_eq(v.e.dst, dst, BS_ADDR_LEN);
	ck_assert_mem_eq(v.e.src, src, BS_ADDR_LEN);
	ck_assert_ptr_eq(v.e.dst, f->buf + 24);
	ck_assert_ptr_eq(v.e.src, f->buf + 30);
	ck_assert_uint_eq(v.e.src_epoch, 3);
	ck_assert_uint_eq(v.e.dst_epoch, 4);
	ck_assert_uint_eq(v.e.counter, SEALED_CTR);
	ck_assert_ptr_eq(v.ct, f->buf + WIRE_SEALED_CT_OFF);
	ck_assert_uint_eq(v.ct_len, inner_len);
	ck_assert_ptr_eq(v.aead_tag, f->buf + f->len - BS_AEAD_TAG_LEN);
	ck_assert_uint_eq(v.len, f->len);
	/* The hop tag checks; the AEAD opens to the plaintext. */
	wire_sealed_hop_input(f->buf, f->len, in);
	ck_assert_int_eq(bs_hop_tag_verify(v.hop_tag, l.key, in, sizeof(in)),
	    0);
	wire_sealed_ad(f->buf, ad);
	ck_assert_int_eq(bs_aead_open(pt, BS_AEAD_CHACHA20, k, v.e.counter, ad,
	    sizeof(ad), v.ct, v.ct_len, v.aead_tag), 0);
	ck_assert_mem_eq(pt, inner, inner_len);
	if (type == WIRE_T_ECHO || type == WIRE_T_TRACE) {
		ck_assert_int_eq(wire_echo_body_parse(pt, v.ct_len, &eg),
		    WIRE_OK);
		ck_assert_uint_eq(eg.kind, WIRE_ECHO_REQUEST);
		ck_assert_uint_eq(eg.ident, 0xa1b2);
		ck_assert_uint_eq(eg.seqno, 0xc3d4);
	}
	if (type == WIRE_T_TTLX) {
		ck_assert_int_eq(wire_ttlx_body_parse(pt, v.ct_len, &xg),
		    WIRE_OK);
		ck_assert_mem_eq(xg.dst, dst, BS_ADDR_LEN);
		ck_assert_uint_eq(xg.counter, 0x0102030405060708ull);
	}
}

static void
make_bcast(struct frame *f, unsigned ntags, size_t inner_len)
{
	static uint8_t inner[WIRE_INNER_MAX];
	static struct t_link l[WIRE_BCAST_MAX_TAGS];
	const struct t_link *lp[WIRE_BCAST_MAX_TAGS];
	uint8_t orig[BS_ADDR_LEN], in[WIRE_BCAST_TAG_IN];
	struct wire_bcast v;
	size_t s = WIRE_BCAST_FIXED + ntags * WIRE_BCAST_TAG_LEN;
	unsigned i;

	fill_inner(inner, inner_len);
	bs_mesh_addr(orig, ids[2].pk);
	for (i = 0; i < ntags; i++) {
		link_i(&l[i], i);
		lp[i] = &l[i];
	}
	f->len = t_bcast(f->buf, sizeof(f->buf), (struct t_bcast){
	    .ttl = 49, .hop_ctr = BC_HOPCTR, .hops = lp, .num_tags = ntags,
	    .orig = &ids[2], .epoch = 0x00010203, .seqno = BC_SEQNO,
	    .inner = inner, .inner_len = inner_len });
	ck_assert_uint_eq(f->len, s + WIRE_BCAST_SGN_LEN + inner_len +
	    BS_SIG_LEN);
	f->type = WIRE_T_BCAST;
	ck_assert_int_eq(wire_bcast_parse(f->buf, f->len, &v), WIRE_OK);
	ck_assert_ptr_null(v.where.field);
	ck_assert_uint_eq(v.ttl, 49);
	ck_assert_uint_eq(v.num_tags, ntags);
	ck_assert_uint_eq(v.hop_counter, BC_HOPCTR);
	ck_assert_ptr_eq(v.tags, f->buf + WIRE_BCAST_FIXED);
	ck_assert_ptr_eq(v.block, f->buf + s);
	ck_assert_uint_eq(v.block_len, WIRE_BCAST_SGN_LEN + inner_len +
	    BS_SIG_LEN);
	ck_assert_mem_eq(v.orig, orig, BS_ADDR_LEN);
	ck_assert_ptr_eq(v.orig, f->buf + s + 4);
	ck_assert_uint_eq(v.epoch, 0x00010203);
	ck_assert_uint_eq(v.seqno, BC_SEQNO);
	ck_assert_ptr_eq(v.inner, f->buf + s + WIRE_BCAST_SGN_LEN);
	ck_assert_uint_eq(v.inner_len, inner_len);
	ck_assert_mem_eq(v.inner, inner, inner_len);
	ck_assert_ptr_eq(v.signed_ptr, f->buf + s);
	ck_assert_uint_eq(v.signed_len, WIRE_BCAST_SGN_LEN + inner_len);
	ck_assert_ptr_eq(v.sig, f->buf + f->len - BS_SIG_LEN);
	ck_assert_uint_eq(v.len, f->len);
	ck_assert_uint_eq(v.pad_len, 0);
	ck_assert_int_eq(bs_verify(v.sig, BS_DOM_BCAST, v.signed_ptr,
	    v.signed_len, ids[2].pk), 0);
	wire_bcast_tag_input(f->buf, &v, in);
	for (i = 0; i < ntags; i++) {
		ck_assert_int_eq(wire_bcast_find_tag(&v, l[i].keyid), (int)i);
		ck_assert_int_eq(bs_hop_tag_verify(v.tags + i *
		    WIRE_BCAST_TAG_LEN + BS_KEYID_LEN, l[i].key, in,
		    sizeof(in)), 0);
	}
}

/* ---- recipe table ------------------------------------------------------ */

enum recipe {
	R_HELLO0, R_HELLO3, R_HELLO3C, R_HELLO64C, R_HELLO3T, R_HELLO64T,
	R_HELLO3W, R_HELLO3CW8T,
	R_OGM1, R_OGM3, R_OGMSIG,
	R_UC_MIN, R_UC_MID, R_UC_MAX, R_ECHO, R_TRACE, R_TTLX,
	R_BC1_MIN, R_BC1_MAX, R_BC8_MIN, R_BC8_MAX,
	R_COUNT
};

static void
make(enum recipe r, struct frame *f)
{
	memset(f, 0, sizeof(*f));
	switch (r) {
	case R_HELLO0:	make_hello(f, 0, 0, 0, 0); break;
	case R_HELLO3:	make_hello(f, 3, 0, 0, 0); break;
	case R_HELLO3C:	make_hello(f, 3, 1, 0, 0); break;
	case R_HELLO64C: make_hello(f, WIRE_HELLO_MAX_NEIGH, 1, 0, 0); break;
	case R_HELLO3T:	make_hello(f, 3, 0, 3, 0); break;
	case R_HELLO64T:
		make_hello(f, WIRE_HELLO_MAX_NEIGH, 1, WIRE_MAX_TAGS, 0);
		break;
	case R_HELLO3W:	make_hello(f, 3, 0, 0, 2); break;
	case R_HELLO3CW8T:
		make_hello(f, 3, 1, 2, WIRE_HELLO_MAX_WANT);
		break;
	case R_OGM1:	make_ogm(f, &ogm_specs[0]); break;
	case R_OGM3:	make_ogm(f, &ogm_specs[1]); break;
	case R_OGMSIG:	make_ogm(f, &ogm_specs[2]); break;
	case R_UC_MIN:	make_sealed(f, WIRE_T_UNICAST, WIRE_INNER_MIN); break;
	case R_UC_MID:	make_sealed(f, WIRE_T_UNICAST, 60); break;
	case R_UC_MAX:	make_sealed(f, WIRE_T_UNICAST, WIRE_INNER_MAX); break;
	case R_ECHO:	make_sealed(f, WIRE_T_ECHO, 0); break;
	case R_TRACE:	make_sealed(f, WIRE_T_TRACE, 0); break;
	case R_TTLX:	make_sealed(f, WIRE_T_TTLX, 0); break;
	case R_BC1_MIN:	make_bcast(f, 1, WIRE_INNER_MIN); break;
	case R_BC1_MAX:	make_bcast(f, 1, WIRE_INNER_MAX); break;
	case R_BC8_MIN:	make_bcast(f, 8, WIRE_INNER_MIN); break;
	case R_BC8_MAX:	make_bcast(f, 8, WIRE_INNER_MAX); break;
	case R_COUNT:	ck_abort(); break;
	}
}

static int
is_sealed(uint8_t type)
{
	return wire_is_sealed(type);
}

/* Parse with the parser of f's type; where gets the parser's report. */
static int
parse_as(uint8_t type, const uint8_t *p, size_t len, struct wire_where *w)
{
	static struct wire_hello h;
	static struct wire_ogm o;
	static struct wire_sealed u;
	static struct wire_bcast b;
	int r;

	switch (type) {
	case WIRE_T_HELLO:
		r = wire_hello_parse(p, len, &h);
		*w = h.where;
		return r;
	case WIRE_T_OGM:
		r = wire_ogm_parse(p, len, &o);
		*w = o.where;
		return r;
	case WIRE_T_UNICAST:
	case WIRE_T_ECHO:
	case WIRE_T_TRACE:
	case WIRE_T_TTLX:
		r = wire_sealed_parse(p, len, &u);
		*w = u.where;
		return r;
	default:
		r = wire_bcast_parse(p, len, &b);
		*w = b.where;
		return r;
	}
}

/* ---- round trips ------------------------------------------------------- */

static void
rebuild_hello(const struct frame *f)
{
	uint8_t out[WIRE_HELLO_MAX_LEN];
	struct wire_hello v;
	size_t len;
	unsigned i;

	ck_assert_int_eq(wire_hello_parse(f->buf, f->len, &v), WIRE_OK);
	if (v.tr.auth == WIRE_AUTH_SIG)
		ck_assert_int_eq(bs_verify(v.sig, BS_DOM_HELLO, v.signed_ptr,
		    v.signed_len, v.pk), 0);
	ck_assert_int_eq(wire_hello_build(out, sizeof(out), &v, &len), WIRE_OK);
	ck_assert_uint_eq(len, v.signed_len);
	if (v.tr.auth == WIRE_AUTH_SIG)
		ck_assert_int_eq(wire_sig_append(out, sizeof(out), &len, v.sig),
		    WIRE_OK);
	for (i = 0; i < v.tr.num_tags; i++)
		ck_assert_int_eq(wire_tag_append(out, sizeof(out), &len,
		    v.tr.tags[i].keyid, v.tr.tags[i].tag), WIRE_OK);
	ck_assert_uint_eq(len, f->len);
	ck_assert_mem_eq(out, f->buf, len);
}

static void
check_link_auth(const struct wire_ogm *o)
{
	uint8_t key[BS_LINKKEY_LEN], keyid[BS_KEYID_LEN];
	int i;

	if (o->tr.auth == WIRE_AUTH_SIG) {
		ck_assert_int_eq(bs_verify(o->tr.sig, BS_DOM_LINK,
		    o->tr.covered, o->tr.covered_len, ids[0].pk), 0);
		return;
	}
	/* The receiver ids[1] finds its tag by key id and checks it. */
	ck_assert_int_eq(bs_link_key(key, &ids[1], ids[0].pk), 0);
	bs_link_keyid(keyid, key);
	i = wire_trailer_find(&o->tr, keyid);
	ck_assert_int_eq(i, (int)o->tr.num_tags - 1);
	ck_assert_int_eq(bs_link_mac_verify(o->tr.tags[i].tag, key, o->sender,
	    o->tr.counter, o->tr.covered, o->tr.covered_len), 0);
}

static void
rebuild_ogm(const struct frame *f)
{
	static struct wire_ogm o;
	static uint8_t out[WIRE_OGM_MAX_LEN], blk[2048];
	struct wire_ogm_builder b;
	const struct wire_ogm_entry *e;
	size_t len, blen;
	unsigned i;

	ck_assert_int_eq(wire_ogm_parse(f->buf, f->len, &o), WIRE_OK);
	ck_assert_int_eq(wire_ogm_begin(&b, out, sizeof(out), o.sender),
	    WIRE_OK);
	for (i = 0; i < o.num_entries; i++) {
		e = &o.e[i];
		ck_assert_int_eq(bs_verify(e->sig, BS_DOM_OGM, e->signed_ptr,
		    e->signed_len, e->sgn.pk), 0);
		ck_assert_int_eq(bs_chain_verify(e->sgn.anchor, e->mut.chain,
		    e->mut.hops), 0);
		/* The signed part rebuilt from its fields is the same bytes. */
		ck_assert_int_eq(wire_ogm_signed_build(blk, sizeof(blk),
		    &e->sgn, &blen), WIRE_OK);
		ck_assert_uint_eq(blen, e->signed_len);
		ck_assert_mem_eq(blk, e->signed_ptr, blen);
		ck_assert_int_eq(wire_ogm_add(&b, &e->mut, e->block,
		    e->block_len), WIRE_OK);
	}
	check_link_auth(&o);
	ck_assert_int_eq(wire_ogm_trailer(&b, o.tr.auth, o.tr.num_tags,
	    o.tr.counter, NULL, NULL), WIRE_OK);
	for (i = 0; i < o.tr.num_tags; i++)
		ck_assert_int_eq(wire_ogm_add_tag(&b, o.tr.tags[i].keyid,
		    o.tr.tags[i].tag), WIRE_OK);
	if (o.tr.auth == WIRE_AUTH_SIG)
		ck_assert_int_eq(wire_ogm_add_sig(&b, o.tr.sig), WIRE_OK);
	ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_OK);
	ck_assert_uint_eq(len, f->len);
	ck_assert_mem_eq(out, f->buf, len);
}

static void
rebuild_data(const struct frame *f)
{
	static uint8_t out[WIRE_BCAST_MAX_LEN], blk[WIRE_BCAST_BLOCK_MAX];
	struct wire_sealed u;
	struct wire_bcast b;
	struct wire_bcast_sgn sg;
	size_t len, blen;
	unsigned i;

	if (is_sealed(f->type)) {
		ck_assert_int_eq(wire_sealed_parse(f->buf, f->len, &u),
		    WIRE_OK);
		memset(out, 0xee, sizeof(out));
		ck_assert_int_eq(wire_sealed_layout(out, sizeof(out), u.type,
		    &u.e, u.ct_len, &len), WIRE_OK);
		ck_assert_uint_eq(len, f->len);
		/* The layout leaves ttl and the hop part zero. */
		for (i = 2; i < WIRE_HOP_LEN; i++)
			ck_assert_uint_eq(out[i], 0);
		ck_assert_uint_eq(out[WIRE_SEALED_CT_OFF], 0xee);
		wire_sealed_set_hop(out, u.ttl, u.keyid, u.hop_counter);
		memcpy(out + WIRE_HOP_TAG_OFF, u.hop_tag, BS_HOPTAG_LEN);
		memcpy(out + WIRE_SEALED_CT_OFF, u.ct, u.ct_len);
		memcpy(out + len - BS_AEAD_TAG_LEN, u.aead_tag,
		    BS_AEAD_TAG_LEN);
	} else {
		ck_assert_int_eq(wire_bcast_parse(f->buf, f->len, &b), WIRE_OK);
		sg.orig = b.orig;
		sg.epoch = b.epoch;
		sg.seqno = b.seqno;
		sg.inner = b.inner;
		sg.inner_len = b.inner_len;
		ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg,
		    &blen), WIRE_OK);
		ck_assert_uint_eq(blen, b.signed_len);
		ck_assert_mem_eq(blk, b.signed_ptr, blen);
		ck_assert_int_eq(wire_sig_append(blk, sizeof(blk), &blen,
		    b.sig), WIRE_OK);
		ck_assert_uint_eq(blen, b.block_len);
		ck_assert_int_eq(wire_bcast_frame(out, sizeof(out), b.ttl,
		    b.num_tags, b.hop_counter, blk, blen, &len), WIRE_OK);
		for (i = 0; i < b.num_tags; i++)
			wire_bcast_set_tag(out, i, b.tags + i *
			    WIRE_BCAST_TAG_LEN, b.tags + i *
			    WIRE_BCAST_TAG_LEN + BS_KEYID_LEN);
	}
	ck_assert_uint_eq(len, f->len);
	ck_assert_mem_eq(out, f->buf, len);
}

START_TEST(test_roundtrip)
{
	static struct frame f;
	uint8_t type;

	make((enum recipe)_i, &f);
	ck_assert_int_eq(wire_peek(f.buf, f.len, &type), WIRE_OK);
	ck_assert_uint_eq(type, f.type);
	switch (f.type) {
	case WIRE_T_HELLO:
		rebuild_hello(&f);
		break;
	case WIRE_T_OGM:
		rebuild_ogm(&f);
		break;
	default:
		rebuild_data(&f);
		break;
	}
}
END_TEST

/* Every strict prefix of every valid frame is refused as truncated. */
START_TEST(test_truncation)
{
	static struct frame f;
	struct wire_where w;
	uint8_t *q;
	size_t n;

	make((enum recipe)_i, &f);
	for (n = 0; n < f.len; n++) {
		q = t_dup(f.buf, n);
		if (f.type == WIRE_T_UNICAST &&
		    n >= WIRE_SEALED_OVERHEAD + WIRE_INNER_MIN) {
			/* Sealed frames have no length field: a shorter
			 * ciphertext (the AEAD refuses it). */
			ck_assert_int_eq(parse_as(f.type, q, n, &w), WIRE_OK);
			free(q);
			continue;
		}
		ck_assert_msg(parse_as(f.type, q, n, &w) == WIRE_ETRUNC,
		    "recipe %d cut at %zu: %s", _i, n,
		    wire_strerror(parse_as(f.type, q, n, &w)));
		ck_assert_ptr_nonnull(w.field);
		ck_assert_uint_le(w.off, n);
		free(q);
	}
	/* And the whole frame, exactly sized, is accepted. */
	q = t_dup(f.buf, f.len);
	ck_assert_int_eq(parse_as(f.type, q, f.len, &w), WIRE_OK);
	ck_assert_ptr_null(w.field);
	free(q);
}
END_TEST

/* ---- malformed inputs -------------------------------------------------- */

/* Places in a valid frame, found by parsing it. */
enum mark {
	M_START, M_END,
	M_NEIGH0, M_NEIGH1, M_CERT, M_WANT, M_HTR,	/* HELLO */
	M_E0, M_E0S, M_E0T, M_E1T, M_E2,	/* OGM entries */
	M_TR, M_TAGS,				/* OGM trailer */
};

static size_t
mark_off(const struct frame *f, enum mark m)
{
	static struct wire_ogm o;
	struct wire_hello h;

	switch (m) {
	case M_START:	return 0;
	case M_END:	return f->len;
	case M_NEIGH0:	return WIRE_HELLO_FIXED_LEN;
	case M_NEIGH1:
		return WIRE_HELLO_FIXED_LEN + WIRE_HELLO_NEIGH_LEN;
	case M_CERT:
		ck_assert_int_eq(wire_hello_parse(f->buf, f->len, &h), WIRE_OK);
		return (size_t)(h.cert - f->buf);
	case M_WANT:		/* the count byte before the addresses */
		ck_assert_int_eq(wire_hello_parse(f->buf, f->len, &h), WIRE_OK);
		return (size_t)(h.want[0] - f->buf) - 1;
	case M_HTR:
		ck_assert_int_eq(wire_hello_parse(f->buf, f->len, &h), WIRE_OK);
		return h.tr.covered_len - WIRE_HELLO_TRAILER_HDR_LEN;
	default:
		break;
	}
	ck_assert_int_eq(wire_ogm_parse(f->buf, f->len, &o), WIRE_OK);
	switch (m) {
	case M_E0:	return (size_t)(o.e[0].raw - f->buf);
	case M_E0S:	return (size_t)(o.e[0].signed_ptr - f->buf);
	case M_E0T:	return (size_t)(o.e[0].sgn.tvlv - f->buf);
	case M_E1T:	return (size_t)(o.e[1].sgn.tvlv - f->buf);
	case M_E2:	return (size_t)(o.e[2].raw - f->buf);
	case M_TR:	return o.tr.covered_len - WIRE_TRAILER_HDR_LEN;
	case M_TAGS:	return o.tr.covered_len;
	default:	ck_abort();
	}
	return 0;
}

/*
 * An edit: write `width` bytes of `value` (big-endian) at mark + delta, or,
 * with width APPEND, append `value` bytes of `fill`.  The parser must
 * return err and, unless at is NO_AT, report offset mark + delta + at.
 */
#define APPEND	0
#define NO_AT	(-1000)

struct bad {
	enum recipe r;
	enum mark m;
	size_t delta;
	unsigned width;
	uint64_t value;
	uint8_t fill;
	int err;
	int at;
};

#define NADDR(i)	(0x02a000000000ull | (i))	/* neigh_addr(i) */
#define TTMAC(i)	(0x00163e000000ull | (i))	/* tt_mac(i) */

static const struct bad bad[] = {
	/* common header */
	{ R_HELLO3C, M_START, 1, 1, 1, 0, WIRE_EVERSION, 0 },	/* old HELLO */
	{ R_HELLO3C, M_START, 1, 1, 2, 0, WIRE_EVERSION, 0 },	/* v2 */
	{ R_HELLO3C, M_START, 1, 1, 3, 0, WIRE_EVERSION, 0 },	/* v3 */
	{ R_OGM3, M_START, 1, 1, 2, 0, WIRE_EVERSION, 0 },	/* v2 */
	{ R_HELLO3, M_START, 52, 8, 0, 0, WIRE_OK, 0 },	/* any salt */
	{ R_HELLO3, M_START, 60, 8, ~0ull, 0, WIRE_OK, 0 },
	{ R_HELLO3C, M_START, 1, 1, 0, 0, WIRE_EVERSION, 0 },
	{ R_HELLO3C, M_START, 0, 1, WIRE_T_OGM, 0, WIRE_ETYPE, 0 },
	{ R_HELLO3C, M_START, 0, 1, 0x99, 0, WIRE_ETYPE, 0 },
	{ R_OGM3, M_START, 0, 1, WIRE_T_HELLO, 0, WIRE_ETYPE, 0 },
	{ R_OGM3, M_START, 1, 1, 0xff, 0, WIRE_EVERSION, 0 },
	{ R_UC_MID, M_START, 0, 1, WIRE_T_BCAST, 0, WIRE_ETYPE, 0 },
	{ R_UC_MID, M_START, 0, 1, WIRE_T_HELLO, 0, WIRE_ETYPE, 0 },
	{ R_UC_MID, M_START, 1, 1, 1, 0, WIRE_EVERSION, 0 },	/* v1 */
	{ R_UC_MID, M_START, 1, 1, 3, 0, WIRE_EVERSION, 0 },
	{ R_UC_MID, M_START, 1, 1, 0, 0, WIRE_EVERSION, 0 },
	{ R_ECHO, M_START, 1, 1, 1, 0, WIRE_EVERSION, 0 },
	{ R_BC1_MIN, M_START, 0, 1, WIRE_T_UNICAST, 0, WIRE_ETYPE, 0 },
	{ R_BC1_MIN, M_START, 1, 1, 1, 0, WIRE_EVERSION, 0 },
	{ R_BC8_MAX, M_START, 1, 1, 1, 0, WIRE_EVERSION, 0 },
	{ R_BC8_MAX, M_START, 1, 1, 0xff, 0, WIRE_EVERSION, 0 },
	/* HELLO */
	{ R_HELLO3C, M_START, 2, 1, 0x08, 0, WIRE_ERESERVED, 0 },
	{ R_HELLO3C, M_START, 2, 1, 0x80, 0, WIRE_ERESERVED, 0 },
	/* No certificate flag: its bytes read as the trailer. */
	{ R_HELLO3C, M_START, 2, 1, 0x00, 0, WIRE_ERESERVED, NO_AT },
	{ R_HELLO0, M_START, 2, 1, 0x01, 0, WIRE_ETRUNC, NO_AT },
	{ R_HELLO3C, M_START, 3, 1, 65, 0, WIRE_ECOUNT, 0 },
	{ R_HELLO3C, M_START, 3, 1, 255, 0, WIRE_ECOUNT, 0 },
	/* One neighbour fewer: its entry reads as the trailer. */
	{ R_HELLO3, M_START, 3, 1, 2, 0, WIRE_ECOUNT, NO_AT },
	{ R_HELLO3, M_START, 36, 1, 0x01, 0, WIRE_EADDR, 0 },
	{ R_HELLO3, M_START, 36, 6, 0, 0, WIRE_EADDR, 0 },
	{ R_HELLO3, M_START, 36, 1, 0x02, 0, WIRE_OK, 0 },
	{ R_HELLO3, M_START, 42, 2, 99, 0, WIRE_ERANGE, 0 },
	{ R_HELLO3, M_START, 42, 2, 60001, 0, WIRE_ERANGE, 0 },
	{ R_HELLO3, M_START, 42, 2, 0, 0, WIRE_ERANGE, 0 },
	{ R_HELLO3, M_START, 42, 2, 100, 0, WIRE_OK, 0 },
	{ R_HELLO3, M_START, 42, 2, 60000, 0, WIRE_OK, 0 },
	{ R_HELLO3, M_START, 44, 4, 0, 0, WIRE_ERANGE, 0 },	/* epoch */
	{ R_HELLO3, M_START, 44, 4, 1, 0, WIRE_OK, 0 },
	{ R_HELLO3, M_START, 44, 4, 0xffffffff, 0, WIRE_OK, 0 },
	{ R_HELLO3, M_NEIGH0, 0, 1, 0x03, 0, WIRE_EADDR, 0 },
	{ R_HELLO3, M_NEIGH0, 0, 1, 0x00, 0, WIRE_EADDR, 0 },
	{ R_HELLO3, M_NEIGH0, 6, 1, 65, 0, WIRE_ERANGE, 0 },
	{ R_HELLO3, M_NEIGH0, 6, 1, 64, 0, WIRE_OK, 0 },
	{ R_HELLO3, M_NEIGH0, 7, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_HELLO3, M_NEIGH1, 0, 6, NADDR(0), 0, WIRE_EDUP, 0 },
	{ R_HELLO64C, M_NEIGH1, 0, 6, NADDR(63), 0, WIRE_EDUP, NO_AT },
	{ R_HELLO3C, M_CERT, 0, 1, 2, 0, WIRE_ECERT, 0 },
	{ R_HELLO3C, M_CERT, 3, 1, 1, 0, WIRE_ECERT, -3 },
	{ R_HELLO3C, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
	{ R_HELLO0, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
	{ R_HELLO3T, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
	/* HELLO want list */
	{ R_HELLO3W, M_WANT, 0, 1, 0, 0, WIRE_ECOUNT, 0 },
	{ R_HELLO3W, M_WANT, 0, 1, WIRE_HELLO_MAX_WANT + 1, 0, WIRE_ECOUNT, 0 },
	{ R_HELLO3W, M_WANT, 0, 1, 255, 0, WIRE_ECOUNT, 0 },
	/* One fewer: the second address reads as the trailer. */
	{ R_HELLO3W, M_WANT, 0, 1, 1, 0, WIRE_ECOUNT, NO_AT },
	{ R_HELLO3W, M_WANT, 1, 1, 0x03, 0, WIRE_EADDR, 0 },
	{ R_HELLO3W, M_WANT, 1, 1, 0x00, 0, WIRE_EADDR, 0 },
	{ R_HELLO3W, M_WANT, 7, 6, NADDR(0x80), 0, WIRE_EDUP, 0 },
	{ R_HELLO3CW8T, M_WANT, 43, 6, NADDR(0x80), 0, WIRE_EDUP, 0 },
	/* Any mesh address, one listed as a neighbour too. */
	{ R_HELLO3W, M_WANT, 7, 6, NADDR(1), 0, WIRE_OK, 0 },
	/* Flag without the list, list without the flag: refused. */
	{ R_HELLO3, M_START, 2, 1, WIRE_HELLO_F_WANT, 0, WIRE_EADDR, NO_AT },
	{ R_HELLO3W, M_START, 2, 1, 0x00, 0, WIRE_ECOUNT, NO_AT },
	{ R_HELLO3CW8T, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
	/* HELLO trailer */
	{ R_HELLO3, M_HTR, 0, 1, 0, 0, WIRE_EAUTH, 0 },
	{ R_HELLO3, M_HTR, 0, 1, 3, 0, WIRE_EAUTH, 0 },
	{ R_HELLO3, M_HTR, 1, 1, 1, 0, WIRE_ECOUNT, 0 },
	{ R_HELLO3, M_HTR, 2, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_HELLO3, M_HTR, 3, 1, 0x80, 0, WIRE_ERESERVED, 0 },
	{ R_HELLO3T, M_HTR, 1, 1, 0, 0, WIRE_ECOUNT, 0 },
	{ R_HELLO3T, M_HTR, 1, 1, WIRE_MAX_TAGS + 1, 0, WIRE_ECOUNT, 0 },
	{ R_HELLO3T, M_HTR, 1, 1, 4, 0, WIRE_ETRUNC, NO_AT },
	{ R_HELLO3T, M_HTR, 1, 1, 2, 0, WIRE_ETRAILING, NO_AT },
	{ R_HELLO3T, M_HTR, 0, 1, WIRE_AUTH_SIG, 0, WIRE_ECOUNT, NO_AT },
	{ R_HELLO3T, M_HTR, 24, 4, 0x11111111, 0, WIRE_OK, 0 },
	{ R_HELLO64T, M_HTR, 1, 1, WIRE_MAX_TAGS, 0, WIRE_OK, 0 },
	/* OGM header */
	{ R_OGM3, M_START, 2, 1, 0, 0, WIRE_ECOUNT, 0 },
	{ R_OGM3, M_START, 2, 1, 41, 0, WIRE_ECOUNT, 0 },
	{ R_OGM3, M_START, 2, 1, 2, 0, WIRE_EAUTH, NO_AT },
	{ R_OGM1, M_START, 2, 1, 2, 0, WIRE_EADDR, NO_AT },
	{ R_OGM3, M_START, 3, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_START, 4, 1, 0x01, 0, WIRE_EADDR, 0 },
	{ R_OGM3, M_START, 4, 1, 0x00, 0, WIRE_EADDR, 0 },
	{ R_OGM3, M_START, 10, 2, 1, 0, WIRE_ERESERVED, 1 },
	{ R_OGM3, M_START, 11, 1, 0x80, 0, WIRE_ERESERVED, 0 },
	/* OGM entry, mutable part */
	{ R_OGM3, M_E0, 2, 1, BS_MAXHOPS + 1, 0, WIRE_ERANGE, 0 },
	{ R_OGM3, M_E0, 2, 1, 255, 0, WIRE_ERANGE, 0 },
	{ R_OGM3, M_E0, 2, 1, BS_MAXHOPS, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0, 0, 1, 0, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0, 3, 1, 2, 0, WIRE_ERANGE, 0 },	/* entry kind */
	{ R_OGM3, M_E0, 4, 1, 0x03, 0, WIRE_EADDR, 0 },
	{ R_OGM3, M_E2, 2, 1, BS_MAXHOPS + 1, 0, WIRE_ERANGE, 0 },
	/* OGM entry, signed part */
	{ R_OGM3, M_E0S, 40, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0S, 41, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0S, 42, 2, 99, 0, WIRE_ERANGE, 0 },
	{ R_OGM3, M_E0S, 42, 2, 60001, 0, WIRE_ERANGE, 0 },
	{ R_OGM3, M_E0S, 32, 4, 0, 0, WIRE_ERANGE, 0 },	/* epoch */
	{ R_OGM3, M_E0S, 32, 4, 1, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0S, S_TVLV_LEN, 2, 63, 0, WIRE_ELEN, 0 },
	{ R_OGM3, M_E0S, S_TVLV_LEN, 2, WIRE_TVLV_MAX + 2, 0, WIRE_ELEN, 0 },
	{ R_OGM3, M_E0S, S_TVLV_LEN, 2, 0xffff, 0, WIRE_ELEN, 0 },
	{ R_OGM3, M_E0S, S_TVLV_LEN, 2, 60, 0, WIRE_ELEN, 4 + 52 },
	{ R_OGM3, M_E0S, S_TVLV_LEN + 2, 2, 1, 0, WIRE_ERESERVED, 1 },
	{ R_OGM1, M_E0S, S_TVLV_LEN, 2, 2, 0, WIRE_ELEN, 4 },
	/* TVLVs of entry 0: GW at 0, TT(3) at 12, unknown(8) at 52 */
	{ R_OGM3, M_E0T, 1, 1, 2, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0T, 2, 2, 7, 0, WIRE_ELEN, -2 },
	{ R_OGM3, M_E0T, 2, 2, 6, 0, WIRE_ELEN, 2 },
	{ R_OGM3, M_E0T, 4, 4, 0, 0, WIRE_ERANGE, 0 },
	{ R_OGM3, M_E0T, 8, 4, 0, 0, WIRE_ERANGE, 0 },
	{ R_OGM3, M_E0T, 14, 2, 30, 0, WIRE_ELEN, 2 },
	{ R_OGM3, M_E0T, 14, 2, 0, 0, WIRE_ELEN, 2 },
	{ R_OGM3, M_E0T, 16, 1, 0x01, 0, WIRE_EADDR, 0 },
	{ R_OGM3, M_E0T, 16, 6, 0, 0, WIRE_EADDR, 0 },
	{ R_OGM3, M_E0T, 22, 2, 0x0001, 0, WIRE_EVID, 0 },
	{ R_OGM3, M_E0T, 22, 2, 0x8000, 0, WIRE_EVID, 0 },
	{ R_OGM3, M_E0T, 22, 2, 0x8fff, 0, WIRE_EVID, 0 },
	{ R_OGM3, M_E0T, 22, 2, 0x9001, 0, WIRE_EVID, 0 },
	{ R_OGM3, M_E0T, 22, 2, 0x8001, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0T, 22, 2, 0x8ffe, 0, WIRE_OK, 0 },
	/* TT flags: 0x01 isolated client (ap-isolation), others reserved */
	{ R_OGM3, M_E0T, 24, 1, WIRE_TT_F_ISOLATED, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0T, 36, 1, WIRE_TT_F_ISOLATED, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0T, 24, 1, 0x02, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0T, 24, 1, 0x03, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0T, 24, 1, 0x20, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0T, 36, 1, 0x80, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0T, 25, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_OGM3, M_E0T, 27, 1, 1, 0, WIRE_ERESERVED, -2 },
	{ R_OGM3, M_E0T, 28, 6, TTMAC(0), 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0T, 40, 6, TTMAC(0), 0, WIRE_EDUP, 0 },
	{ R_OGM3, M_E0T, 52, 1, WIRE_TVLV_GATEWAY, 0, WIRE_EDUP, 0 },
	{ R_OGM3, M_E0T, 52, 1, WIRE_TVLV_TT, 0, WIRE_EDUP, 0 },
	{ R_OGM3, M_E0T, 52, 1, WIRE_TVLV_CERT, 0, WIRE_ELEN, 4 },
	{ R_OGM3, M_E0T, 52, 1, 0, 0, WIRE_OK, 0 },
	{ R_OGM3, M_E0T, 54, 2, 10, 0, WIRE_ELEN, -2 },
	{ R_OGM3, M_E0T, 54, 2, 6, 0, WIRE_ELEN, 8 },
	{ R_OGM3, M_E0T, 54, 2, 9, 0, WIRE_ELEN, -2 },
	/* TVLVs of entry 1: CERT at 0, REVOKE at 184 */
	{ R_OGM3, M_E1T, 4, 1, 2, 0, WIRE_ECERT, 0 },
	{ R_OGM3, M_E1T, 2, 2, 178, 0, WIRE_ELEN, 2 },
	{ R_OGM3, M_E1T, 0, 1, WIRE_TVLV_REVOKE, 0, WIRE_ELEN, 4 },
	{ R_OGM3, M_E1T, 188, 1, 2, 0, WIRE_ECERT, 0 },
	{ R_OGM3, M_E1T, 189, 1, 1, 0, WIRE_ECERT, -1 },
	{ R_OGM3, M_E1T, 184, 1, WIRE_TVLV_CERT, 0, WIRE_EDUP, 0 },
	/* trailer */
	{ R_OGM3, M_TR, 0, 1, 3, 0, WIRE_EAUTH, 0 },
	{ R_OGM3, M_TR, 0, 1, 0, 0, WIRE_EAUTH, 0 },
	{ R_OGM3, M_TR, 0, 1, WIRE_AUTH_SIG, 0, WIRE_ECOUNT, 1 },
	{ R_OGM3, M_TR, 1, 1, 0, 0, WIRE_ECOUNT, 0 },
	{ R_OGM3, M_TR, 1, 1, WIRE_MAX_TAGS + 1, 0, WIRE_ECOUNT, 0 },
	{ R_OGM3, M_TR, 1, 1, 15, 0, WIRE_ETRAILING, NO_AT },	/* of 16 */
	{ R_OGM3, M_TR, 2, 2, 1, 0, WIRE_ERESERVED, 1 },
	{ R_OGM3, M_TR, 4, 8, 0, 0, WIRE_OK, 0 },
	{ R_OGM3, M_TAGS, WIRE_TAG_ENTRY_LEN, 4, 0xf0000000, 0, WIRE_EDUP, 0 },
	{ R_OGM3, M_TAGS, 2 * WIRE_TAG_ENTRY_LEN, 4, 0xf0000000, 0, WIRE_EDUP,
	    0 },
	{ R_OGM3, M_TAGS, 4, 4, 0xf0000000, 0, WIRE_OK, 0 },
	{ R_OGMSIG, M_TR, 0, 1, WIRE_AUTH_MAC, 0, WIRE_ECOUNT, 1 },
	{ R_OGMSIG, M_TR, 1, 1, 1, 0, WIRE_ECOUNT, 0 },
	{ R_OGMSIG, M_TR, 0, 1, 0x82, 0, WIRE_EAUTH, 0 },
	{ R_OGM3, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
	{ R_OGMSIG, M_END, 0, APPEND, 2, 0, WIRE_ETRAILING, 0 },
	{ R_OGMSIG, M_END, 0, APPEND, WIRE_OGM_MAX_LEN - OGMSIG_LEN, 0,
	    WIRE_ETRAILING, 0 },
	{ R_OGMSIG, M_END, 0, APPEND, WIRE_OGM_MAX_LEN - OGMSIG_LEN + 1, 0,
	    WIRE_ETOOLONG, WIRE_OGM_MAX_LEN - OGMSIG_LEN },
	/* UNICAST and ECHO: the hop part, the e2e header, the length */
	{ R_UC_MID, M_START, 2, 1, 0, 0, WIRE_OK, 0 },		/* ttl */
	{ R_UC_MID, M_START, 3, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_UC_MID, M_START, 3, 1, 0x80, 0, WIRE_ERESERVED, 0 },
	{ R_ECHO, M_START, 3, 1, 0x10, 0, WIRE_ERESERVED, 0 },
	{ R_UC_MID, M_START, 4, 4, 0, 0, WIRE_OK, 0 },		/* key id */
	{ R_UC_MID, M_START, 8, 8, UINT64_MAX, 0, WIRE_OK, 0 },
	{ R_UC_MID, M_START, 16, 8, 0, 0, WIRE_OK, 0 },		/* hop tag */
	{ R_UC_MID, M_START, 24, 1, 0x01, 0, WIRE_EADDR, 0 },
	{ R_UC_MID, M_START, 24, 1, 0x00, 0, WIRE_EADDR, 0 },
	{ R_UC_MID, M_START, 24, 1, 0x06, 0, WIRE_OK, 0 },
	{ R_UC_MID, M_START, 30, 1, 0x03, 0, WIRE_EADDR, 0 },
	{ R_ECHO, M_START, 30, 1, 0x00, 0, WIRE_EADDR, 0 },
	{ R_UC_MID, M_START, 36, 4, 0, 0, WIRE_ERANGE, 0 },	/* epochs */
	{ R_UC_MID, M_START, 36, 4, 1, 0, WIRE_OK, 0 },
	{ R_UC_MID, M_START, 40, 4, 0, 0, WIRE_ERANGE, 0 },
	{ R_UC_MID, M_START, 40, 4, 0xffffffff, 0, WIRE_OK, 0 },
	{ R_ECHO, M_START, 40, 4, 0, 0, WIRE_ERANGE, 0 },
	{ R_UC_MID, M_START, 44, 8, 0, 0, WIRE_OK, 0 },		/* counter */
	/* the ciphertext's length: UNICAST 14..1518, ECHO exactly 6 */
	{ R_UC_MID, M_START, 0, 1, WIRE_T_ECHO, 0, WIRE_ETOOLONG, 52 },
	{ R_UC_MIN, M_START, 0, 1, WIRE_T_ECHO, 0, WIRE_ETOOLONG, 52 },
	{ R_ECHO, M_START, 0, 1, WIRE_T_UNICAST, 0, WIRE_ETRUNC, 52 },
	{ R_UC_MID, M_END, 0, APPEND, 1, 0, WIRE_OK, 0 },
	{ R_UC_MIN, M_END, 0, APPEND, WIRE_INNER_MAX - WIRE_INNER_MIN, 0x55,
	    WIRE_OK, 0 },
	{ R_UC_MIN, M_END, 0, APPEND, WIRE_INNER_MAX - WIRE_INNER_MIN + 1, 0,
	    WIRE_ETOOLONG, 52 - 82 },
	/* trailing bytes: the frame is exact, so they are ciphertext */
	{ R_UC_MAX, M_END, 0, APPEND, 1, 0, WIRE_ETOOLONG, 52 - 1586 },
	{ R_UC_MAX, M_END, 0, APPEND, 1, 0xff, WIRE_ETOOLONG, 52 - 1586 },
	{ R_ECHO, M_END, 0, APPEND, 1, 0, WIRE_ETOOLONG, 52 - 74 },
	{ R_ECHO, M_END, 0, APPEND, 16, 0, WIRE_ETOOLONG, 52 - 74 },
	/* BCAST (signed header at S = 24 with 1 tag, 108 with 8) */
	{ R_BC1_MIN, M_START, 2, 1, 0, 0, WIRE_OK, 0 },		/* ttl */
	{ R_BC1_MIN, M_START, 3, 1, 0, 0, WIRE_ECOUNT, 0 },
	{ R_BC1_MIN, M_START, 3, 1, 9, 0, WIRE_ECOUNT, 0 },
	{ R_BC8_MAX, M_START, 3, 1, 9, 0, WIRE_ECOUNT, 0 },
	{ R_BC8_MAX, M_START, 3, 1, 255, 0, WIRE_ECOUNT, 0 },
	/* one tag more: the signed header starts in the epoch (0x00010203) */
	{ R_BC1_MIN, M_START, 3, 1, 2, 0, WIRE_ERESERVED, 33 },
	{ R_BC1_MIN, M_START, 4, 8, 0, 0, WIRE_OK, 0 },		/* counter */
	{ R_BC8_MIN, M_START, 12, 96, 0, 0, WIRE_OK, 0 },	/* tags */
	{ R_BC1_MIN, M_START, 24, 1, 1, 0, WIRE_ERESERVED, 0 },	/* flags */
	{ R_BC1_MIN, M_START, 25, 1, 1, 0, WIRE_ERESERVED, 0 },
	{ R_BC8_MIN, M_START, 108, 1, 0x80, 0, WIRE_ERESERVED, 0 },
	{ R_BC1_MIN, M_START, 26, 2, WIRE_INNER_MIN - 1, 0, WIRE_ELEN, 0 },
	{ R_BC1_MIN, M_START, 26, 2, WIRE_INNER_MAX + 1, 0, WIRE_ELEN, 0 },
	{ R_BC1_MIN, M_START, 26, 2, 0, 0, WIRE_ELEN, 0 },
	{ R_BC1_MIN, M_START, 26, 2, 0xffff, 0, WIRE_ELEN, 0 },
	{ R_BC8_MAX, M_START, 110, 2, WIRE_INNER_MAX + 1, 0, WIRE_ELEN, 0 },
	/* inner length beyond the frame: the signature is cut */
	{ R_BC1_MIN, M_START, 26, 2, 15, 0, WIRE_ETRUNC, 24 + 20 + 15 - 26 },
	{ R_BC8_MIN, M_START, 110, 2, 1518, 0, WIRE_ETRUNC, NO_AT },
	/* shorter: what follows is not padding (the frame is over 46) */
	{ R_BC1_MAX, M_START, 26, 2, 1517, 0, WIRE_ETRAILING, 1625 - 26 },
	{ R_BC1_MIN, M_START, 28, 1, 0x01, 0, WIRE_EADDR, 0 },	/* orig */
	{ R_BC8_MAX, M_START, 112, 1, 0x00, 0, WIRE_EADDR, 0 },
	{ R_BC1_MIN, M_START, 34, 4, 0, 0, WIRE_ERANGE, 0 },	/* epoch */
	{ R_BC1_MIN, M_START, 38, 4, 0, 0, WIRE_OK, 0 },	/* seqno */
	{ R_BC1_MIN, M_START, 42, 2, 1, 0, WIRE_ERESERVED, 1 },
	{ R_BC8_MAX, M_START, 126, 2, 0x100, 0, WIRE_ERESERVED, 0 },
	{ R_BC1_MIN, M_END, -64, 64, 0, 0, WIRE_OK, 0 },	/* signature */
	/* padding: a BCAST is never below the 46-byte minimum */
	{ R_BC1_MIN, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
	{ R_BC1_MIN, M_END, 0, APPEND, 16, 0xff, WIRE_ETRAILING, 0 },
	{ R_BC8_MAX, M_END, 0, APPEND, 1, 0, WIRE_ETRAILING, 0 },
};

static void
apply_edit(struct frame *f, const struct bad *b, size_t off)
{
	unsigned i;

	if (b->width == APPEND) {
		ck_assert_uint_le(b->value, sizeof(f->buf) - f->len);
		memset(f->buf + f->len, b->fill, (size_t)b->value);
		f->len += (size_t)b->value;
		return;
	}
	ck_assert_uint_le(off + b->width, f->len);
	/* Wider than 8 bytes: value's bytes at the end, zeros before. */
	for (i = 0; i < b->width; i++)
		f->buf[off + i] = b->width - 1 - i >= 8 ? 0 :
		    (uint8_t)(b->value >> (8 * (b->width - 1 - i)));
}

START_TEST(test_malformed)
{
	static struct frame f;
	const struct bad *b = &bad[_i];
	struct wire_where w;
	size_t off;
	uint8_t *q;
	int r;

	make(b->r, &f);
	off = mark_off(&f, b->m) + b->delta;
	apply_edit(&f, b, off);
	q = t_dup(f.buf, f.len);
	r = parse_as(f.type, q, f.len, &w);
	ck_assert_msg(r == b->err, "row %d: got %d (%s) at %s/%zu, want %d",
	    _i, r, wire_strerror(r), w.field ? w.field : "-", w.off, b->err);
	if (r != WIRE_OK) {
		ck_assert_ptr_nonnull(w.field);
		if (b->at != NO_AT)
			ck_assert_msg(w.off == (size_t)((long)off + b->at),
			    "row %d: offset %zu, want %ld", _i, w.off,
			    (long)off + b->at);
	} else {
		ck_assert_ptr_null(w.field);
	}
	free(q);
}
END_TEST

/* The TTLX body: dst of mesh form, reserved zero, exactly 16 bytes. */
START_TEST(test_ttlx_body)
{
	static const uint8_t d[BS_ADDR_LEN] = { 0x02, 1, 2, 3, 4, 5 };
	uint8_t b[WIRE_TTLX_BODY_LEN + 1];
	struct wire_ttlx x = { d, 0x1122334455667788ull }, y;

	wire_ttlx_body_put(b, &x);
	ck_assert_uint_eq(b[6] | b[7], 0);
	ck_assert_int_eq(wire_ttlx_body_parse(b, WIRE_TTLX_BODY_LEN, &y),
	    WIRE_OK);
	ck_assert_ptr_eq(y.dst, b);
	ck_assert_uint_eq(y.counter, x.counter);
	ck_assert_int_eq(wire_ttlx_body_parse(b, WIRE_TTLX_BODY_LEN - 1, &y),
	    WIRE_ETRUNC);
	b[WIRE_TTLX_BODY_LEN] = 0;
	ck_assert_int_eq(wire_ttlx_body_parse(b, WIRE_TTLX_BODY_LEN + 1, &y),
	    WIRE_ETRAILING);
	b[7] = 1;				/* reserved */
	ck_assert_int_ne(wire_ttlx_body_parse(b, WIRE_TTLX_BODY_LEN, &y),
	    WIRE_OK);
	b[7] = 0;
	b[0] = 0x03;				/* a group address */
	ck_assert_int_eq(wire_ttlx_body_parse(b, WIRE_TTLX_BODY_LEN, &y),
	    WIRE_ERANGE);
	b[0] = 0x00;				/* a global one */
	ck_assert_int_eq(wire_ttlx_body_parse(b, WIRE_TTLX_BODY_LEN, &y),
	    WIRE_ERANGE);
	ck_assert_int_eq(wire_ttlx_body_parse(NULL, 0, &y), WIRE_ETRUNC);
}
END_TEST

/* The version a frame of type t must carry. */
static unsigned
version_of(uint8_t t)
{
	if (t == WIRE_T_HELLO)
		return WIRE_HELLO_VERSION;
	return t == WIRE_T_OGM ? WIRE_OGM_VERSION : WIRE_DATA_VERSION;
}

/* No parser accepts a frame of another type, nor a NULL buffer. */
START_TEST(test_cross_type)
{
	static const uint8_t types[] = { WIRE_T_HELLO, WIRE_T_OGM,
	    WIRE_T_UNICAST, WIRE_T_BCAST, WIRE_T_ECHO, WIRE_T_TRACE,
	    WIRE_T_TTLX };
	static struct frame f;
	struct wire_where w;
	unsigned i;

	/* Data frames are version 2, OGM 3, HELLO 4: where the versions
	 * agree the type is what each parser refuses, elsewhere the version
	 * (checked first). */
	make((enum recipe)_i, &f);
	for (i = 0; i < sizeof(types); i++) {
		int same = version_of(types[i]) == version_of(f.type);

		/* One parser reads UNICAST and ECHO alike. */
		if (types[i] == f.type ||
		    (is_sealed(types[i]) && is_sealed(f.type)))
			continue;
		ck_assert_int_eq(parse_as(types[i], f.buf, f.len, &w),
		    same ? WIRE_ETYPE : WIRE_EVERSION);
		ck_assert_str_eq(w.field, same ? "type" : "version");
		ck_assert_uint_eq(w.off, same ? 0 : 1);
	}
	for (i = 0; i < sizeof(types); i++)
		ck_assert_int_eq(parse_as(types[i], NULL, 100, &w),
		    WIRE_ETRUNC);
}
END_TEST

/* ---- TVLV iteration and typed decoders --------------------------------- */

START_TEST(test_tvlv_iter)
{
	static const uint8_t unk[4] = { 9, 9, 9, 9 };
	uint8_t region[WIRE_TVLV_MAX];
	struct wire_tvlv_iter it;
	struct wire_tvlv t;
	struct wire_tt_entry e;
	const uint8_t *tt, *c;
	uint32_t down, up;
	size_t len = 0;
	unsigned n;

	setup_ids();
	ck_assert_int_eq(wire_tvlv_put(region, sizeof(region), &len, 0x55, 1,
	    unk, 4), WIRE_OK);
	ck_assert_int_eq(wire_tvlv_put_gateway(region, sizeof(region), &len,
	    1, 2), WIRE_OK);
	len = make_tt(region, sizeof(region), len, 3);
	ck_assert_int_eq(wire_tvlv_put(region, sizeof(region), &len, 0x56, 3,
	    NULL, 0), WIRE_OK);
	wire_tvlv_iter_init(&it, region, len);

	ck_assert_int_eq(wire_tvlv_next(&it, &t), 1);
	ck_assert_uint_eq(t.type, 0x55);
	ck_assert_uint_eq(t.len, 4);
	ck_assert_mem_eq(t.value, unk, 4);
	ck_assert(!wire_tvlv_is_known(&t));
	ck_assert_int_eq(wire_tvlv_gateway(&t, &down, &up), WIRE_ETYPE);

	ck_assert_int_eq(wire_tvlv_next(&it, &t), 1);
	ck_assert(wire_tvlv_is_known(&t));
	ck_assert_int_eq(wire_tvlv_gateway(&t, &down, &up), WIRE_OK);
	ck_assert_uint_eq(down, 1);
	ck_assert_uint_eq(up, 2);
	ck_assert_int_eq(wire_tvlv_tt(&t, &tt, &n), WIRE_ETYPE);

	ck_assert_int_eq(wire_tvlv_next(&it, &t), 1);
	ck_assert_int_eq(wire_tvlv_tt(&t, &tt, &n), WIRE_OK);
	ck_assert_uint_eq(n, 3);
	wire_tt_get(tt, 1, &e);
	ck_assert_uint_eq(e.vid, WIRE_VID_TAGGED | 5);
	ck_assert_uint_eq(e.mac[5], 1);
	ck_assert_uint_eq(e.flags, WIRE_TT_F_ISOLATED);
	wire_tt_get(tt, 0, &e);
	ck_assert_uint_eq(e.flags, 0);
	ck_assert_int_eq(wire_tvlv_cert(&t, &c), WIRE_ETYPE);
	ck_assert_int_eq(wire_tvlv_revoke(&t, &c), WIRE_ETYPE);

	ck_assert_int_eq(wire_tvlv_next(&it, &t), 1);
	ck_assert_uint_eq(t.type, 0x56);
	ck_assert_uint_eq(t.version, 3);
	ck_assert_uint_eq(t.len, 0);
	ck_assert_int_eq(wire_tvlv_next(&it, &t), 0);
	ck_assert_int_eq(wire_tvlv_next(&it, &t), 0);
	ck_assert_uint_eq(it.off, len);
}
END_TEST

START_TEST(test_tvlv_cert_revoke)
{
	uint8_t region[512], cert[BS_CERT_LEN], rev[BS_REVOKE_LEN];
	struct wire_tvlv_iter it;
	struct wire_tvlvs tv;
	struct wire_tvlv t;
	const uint8_t *p;
	size_t len = 0;

	setup_ids();
	make_cert(cert, ids[1].pk);
	make_revoke(rev, ids[2].pk);
	ck_assert_int_eq(wire_tvlv_put_revoke(region, sizeof(region), &len,
	    rev), WIRE_OK);
	ck_assert_int_eq(wire_tvlv_put_cert(region, sizeof(region), &len,
	    cert), WIRE_OK);
	wire_tvlv_iter_init(&it, region, len);
	ck_assert_int_eq(wire_tvlv_next(&it, &t), 1);
	ck_assert_int_eq(wire_tvlv_revoke(&t, &p), WIRE_OK);
	ck_assert_mem_eq(p, rev, BS_REVOKE_LEN);
	ck_assert_int_eq(wire_tvlv_next(&it, &t), 1);
	ck_assert_int_eq(wire_tvlv_cert(&t, &p), WIRE_OK);
	ck_assert_mem_eq(p, cert, BS_CERT_LEN);
	ck_assert_int_eq(wire_tvlvs_parse(region, len, &tv), WIRE_OK);
	ck_assert_mem_eq(tv.cert, cert, BS_CERT_LEN);
	ck_assert_mem_eq(tv.revoke, rev, BS_REVOKE_LEN);
	/* A malformed record inside: refused with the crypto's reason. */
	region[4 + 1] = 0xff;
	ck_assert_int_eq(wire_tvlvs_parse(region, len, &tv), WIRE_ECERT);
	ck_assert_uint_eq(tv.where.off, 4);
	ck_assert_ptr_nonnull(tv.where.field);
}
END_TEST

/* Regions the walker must refuse, with the offset it reports. */
static const struct {
	uint8_t bytes[16];
	size_t len;
	int err;
	size_t at;
} bad_regions[] = {
	{ { 0x7f, 1, 0 }, 3, WIRE_ELEN, 0 },	/* odd region */
	{ { 0x7f, 1 }, 2, WIRE_ELEN, 0 },	/* header cut */
	{ { 0x7f, 1, 0, 2, 0, 0 }, 4, WIRE_ELEN, 0 },	/* value cut */
	{ { 0x7f, 1, 0, 1, 0, 0 }, 6, WIRE_ELEN, 0 },	/* odd value */
	{ { 0x7f, 1, 0, 0, 0x7f, 1 }, 6, WIRE_ELEN, 4 },
	{ { 0x7f, 1, 0, 0, 0x7f, 1, 0xff, 0xfe }, 8, WIRE_ELEN, 4 },
	{ { 1, 1, 0, 8, 0, 0, 0, 1, 0, 0, 0, 1 }, 12, WIRE_OK, 0 },
	{ { 1, 1, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0 }, 12, WIRE_ERANGE, 8 },
	{ { 1, 1, 0, 4, 0, 0, 0, 1 }, 8, WIRE_ELEN, 4 },
	{ { 1, 1, 0, 0, 1, 1, 0, 0 }, 8, WIRE_ELEN, 4 },
	{ { 1, 2, 0, 0, 1, 2, 0, 0 }, 8, WIRE_OK, 0 },	/* v2: unknown */
	{ { 3, 1, 0, 0 }, 4, WIRE_ELEN, 4 },
	{ { 4, 1, 0, 2, 1, 0 }, 6, WIRE_ELEN, 4 },
	{ { 2, 1, 0, 0 }, 4, WIRE_ELEN, 4 },
	{ { 0 }, 0, WIRE_OK, 0 },
};

START_TEST(test_tvlv_regions)
{
	struct wire_tvlvs tv;
	uint8_t *q;
	int r;

	q = t_dup(bad_regions[_i].bytes, bad_regions[_i].len);
	r = wire_tvlvs_parse(q, bad_regions[_i].len, &tv);
	ck_assert_msg(r == bad_regions[_i].err, "region %d: %s", _i,
	    wire_strerror(r));
	if (r != WIRE_OK) {
		ck_assert_uint_eq(tv.where.off, bad_regions[_i].at);
		ck_assert_ptr_nonnull(tv.where.field);
	}
	free(q);
}
END_TEST

/* A region larger than WIRE_TVLV_MAX is refused before it is walked. */
START_TEST(test_tvlv_too_long)
{
	static uint8_t region[WIRE_TVLV_MAX + 2], zero[WIRE_TVLV_MAX];
	struct wire_tvlvs tv;
	size_t len = 0;

	memset(region, 0, sizeof(region));
	ck_assert_int_eq(wire_tvlvs_parse(region, sizeof(region), &tv),
	    WIRE_ELEN);
	/* One unknown container filling exactly WIRE_TVLV_MAX is fine. */
	ck_assert_int_eq(wire_tvlv_put(region, sizeof(region), &len, 0x70, 1,
	    zero, WIRE_TVLV_MAX - WIRE_TVLV_HDR_LEN), WIRE_OK);
	ck_assert_int_eq(wire_tvlvs_parse(region, len, &tv), WIRE_OK);
	ck_assert_uint_eq(tv.unknown, 1);
}
END_TEST

/*
 * TT pages (batsec-protocol(7) LARGE TRANSLATION TABLES): the clients of
 * one bucket round-trip with the header; the parser refuses a page out
 * of order, out of its bucket, with a bad page count or number, a total
 * below its entries, reserved bytes set, or next to a whole TT.
 */
static unsigned
page_fill(uint8_t macs[][BS_ADDR_LEN], struct wire_tt_entry *e, unsigned max,
    unsigned pages, unsigned page)
{
	unsigned i, k = 0;

	for (i = 0; k < max && i < 4096; i++) {
		uint8_t m[BS_ADDR_LEN] = { 0x02, 0xaa, 0, 0, (uint8_t)(i >> 8),
		    (uint8_t)i };

		if (wire_tt_bucket(m, 0, pages) != page)
			continue;
		memcpy(macs[k], m, BS_ADDR_LEN);
		e[k].mac = macs[k];
		e[k].vid = 0;
		e[k].flags = 0;
		k++;
	}
	return k;			/* ascending: i grows */
}

START_TEST(test_tvlv_tt_page)
{
	static uint8_t macs[WIRE_TT_PAGE_MAX][BS_ADDR_LEN];
	struct wire_tt_entry e[WIRE_TT_PAGE_MAX], te;
	uint8_t buf[WIRE_TVLV_MAX], *v = buf + WIRE_TVLV_HDR_LEN;
	struct wire_tt_page pg = { 0 }, alt;
	struct wire_tvlvs tv;
	uint32_t sum = 0;
	size_t len = 0, l2;
	unsigned i, n;

	n = page_fill(macs, e, 20, 16, 5);
	ck_assert_uint_eq(n, 20);
	for (i = 0; i < n; i++)
		sum += wire_tt_sum(e[i].mac, e[i].vid, e[i].flags);
	pg.ttvn = 7;
	pg.total = 300;
	pg.sum = sum;
	pg.pages = 16;
	pg.page = 5;
	pg.n = n;
	pg.e = e;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &len, &pg),
	    WIRE_OK);
	ck_assert_uint_eq(len, WIRE_TVLV_HDR_LEN + WIRE_TT_PAGE_HDR_LEN +
	    20 * WIRE_TT_ENTRY_LEN);
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_OK);
	ck_assert(tv.present & (1u << WIRE_TVLV_TT_PAGE));
	ck_assert_uint_eq(tv.page.ttvn, 7);
	ck_assert_uint_eq(tv.page.total, 300);
	ck_assert_uint_eq(tv.page.sum, sum);
	ck_assert_uint_eq(tv.page.pages, 16);
	ck_assert_uint_eq(tv.page.page, 5);
	ck_assert_uint_eq(tv.page.n, 20);
	for (i = 0; i < n; i++) {
		wire_tt_get(tv.page.entries, i, &te);
		ck_assert_mem_eq(te.mac, macs[i], BS_ADDR_LEN);
	}
	/* An empty page (a bucket whose last client left) is fine. */
	alt = pg;
	alt.n = 0;
	l2 = 0;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &l2, &alt),
	    WIRE_OK);
	ck_assert_int_eq(wire_tvlvs_parse(buf, l2, &tv), WIRE_OK);
	ck_assert_uint_eq(tv.page.n, 0);
	/* The builder refuses what the parser would. */
	alt = pg;
	alt.pages = 12;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &l2, &alt),
	    WIRE_EINVAL);
	alt = pg;
	alt.page = 16;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &l2, &alt),
	    WIRE_EINVAL);
	alt = pg;
	alt.page = 6;			/* entries of bucket 5 */
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &l2, &alt),
	    WIRE_EINVAL);
	alt = pg;
	alt.total = 19;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &l2, &alt),
	    WIRE_EINVAL);
	alt = pg;
	alt.pages = 128;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &l2, &alt),
	    WIRE_EINVAL);
	/* The parser: each refusal names its field. */
	len = 0;
	ck_assert_int_eq(wire_tvlv_put_tt_page(buf, sizeof(buf), &len, &pg),
	    WIRE_OK);
	memcpy(v + WIRE_TT_PAGE_HDR_LEN, macs[1], BS_ADDR_LEN); /* 1, 1 */
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_EDUP);
	ck_assert_str_eq(tv.where.field, "TT page order");
	ck_assert_uint_eq(tv.where.off, WIRE_TVLV_HDR_LEN +
	    WIRE_TT_PAGE_HDR_LEN + WIRE_TT_ENTRY_LEN);
	memcpy(v + WIRE_TT_PAGE_HDR_LEN, macs[0], BS_ADDR_LEN);
	v[9] = 4;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ERANGE);
	ck_assert_str_eq(tv.where.field, "TT page bucket");
	v[9] = 16;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ERANGE);
	ck_assert_str_eq(tv.where.field, "TT page number");
	v[9] = 5;
	v[8] = 1;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ERANGE);
	ck_assert_str_eq(tv.where.field, "TT page count");
	v[8] = 16;
	v[11] = 1;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ERESERVED);
	v[11] = 0;
	v[2] = 0;
	v[3] = 19;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ECOUNT);
	ck_assert_str_eq(tv.where.field, "TT page total");
	v[2] = (uint8_t)(300 >> 8);
	v[3] = (uint8_t)300;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_OK);
	/* A page next to a whole TT is refused. */
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 3),
	    WIRE_OK);
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_EDUP);
	ck_assert_str_eq(tv.where.field, "TT with TT page");
}
END_TEST

/*
 * MCAST (batsec-protocol(7) MULTICAST LISTENERS): flags and IPv4 / IPv6
 * group addresses round-trip; an unknown flag, a reserved byte, a MAC
 * that is not an IP group, a repeated group or too many are refused.
 */
START_TEST(test_tvlv_mcast)
{
	uint8_t g[3 * BS_ADDR_LEN] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03,
	    0x33, 0x33, 0x00, 0x01, 0x12, 0x34,
	    0x33, 0x33, 0xff, 0x00, 0x00, 0x07 };
	uint8_t buf[WIRE_TVLV_MAX], many[(WIRE_MCAST_MAX + 1) * BS_ADDR_LEN];
	uint8_t *v = buf + WIRE_TVLV_HDR_LEN;
	struct wire_tvlvs tv;
	size_t len = 0, l2;
	unsigned i;

	ck_assert_int_eq(wire_tvlv_put_mcast(buf, sizeof(buf), &len,
	    WIRE_MCAST_F_ALL6, g, 3), WIRE_OK);
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_OK);
	ck_assert(tv.present & (1u << WIRE_TVLV_MCAST));
	ck_assert_uint_eq(tv.mcast_flags, WIRE_MCAST_F_ALL6);
	ck_assert_uint_eq(tv.mcast_count, 3);
	ck_assert_mem_eq(tv.mcast, g, sizeof(g));
	l2 = 0;
	ck_assert_int_eq(wire_tvlv_put_mcast(buf + 64, sizeof(buf) - 64, &l2,
	    0, NULL, 0), WIRE_OK);
	ck_assert_uint_eq(l2, WIRE_TVLV_HDR_LEN + WIRE_MCAST_HDR_LEN);
	for (i = 0; i <= WIRE_MCAST_MAX; i++) {
		memcpy(many + i * BS_ADDR_LEN, g + BS_ADDR_LEN, BS_ADDR_LEN);
		many[i * BS_ADDR_LEN + 5] = (uint8_t)i;
	}
	ck_assert_int_eq(wire_tvlv_put_mcast(buf + 64, sizeof(buf) - 64, &l2,
	    0, many, WIRE_MCAST_MAX + 1), WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put_mcast(buf + 64, sizeof(buf) - 64, &l2,
	    0x04, g, 1), WIRE_EINVAL);
	/* The parser, field by field. */
	v[0] = 0x80;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ERESERVED);
	ck_assert_str_eq(tv.where.field, "MCAST flags");
	v[0] = 0;
	v[1] = 1;
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_ERESERVED);
	v[1] = 0;
	v[2 + 3] = 0x81;		/* 01:00:5e:81:..: not an IPv4 group */
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_EADDR);
	ck_assert_uint_eq(tv.where.off, WIRE_TVLV_HDR_LEN + 2);
	v[2 + 3] = 0x01;
	memcpy(v + 2 + 2 * BS_ADDR_LEN, g, BS_ADDR_LEN);
	ck_assert_int_eq(wire_tvlvs_parse(buf, len, &tv), WIRE_EDUP);
	ck_assert_uint_eq(tv.where.off, WIRE_TVLV_HDR_LEN + 2 +
	    2 * BS_ADDR_LEN);
	ck_assert(wire_mcast_group_ok(g));
	ck_assert(!wire_mcast_group_ok((const uint8_t[]){ 1, 0x80, 0xc2, 0, 0,
	    0 }));
}
END_TEST

/* The typed decoders refuse a known container whose value is wrong. */
START_TEST(test_tvlv_typed_errors)
{
	static uint8_t v[WIRE_TVLV_MAX];
	struct wire_tvlv t = { WIRE_TVLV_GATEWAY, WIRE_TVLV_VERSION, 6, v };
	struct wire_tvlvs tv;
	const uint8_t *p;
	uint32_t down, up;
	unsigned n, i;

	memset(v, 0, sizeof(v));
	ck_assert_int_eq(wire_tvlv_gateway(&t, &down, &up), WIRE_ELEN);
	t.len = WIRE_GW_LEN;
	ck_assert_int_eq(wire_tvlv_gateway(&t, &down, &up), WIRE_ERANGE);

	/* 65 valid, distinct TT entries: one too many. */
	t.type = WIRE_TVLV_TT;
	for (i = 0; i <= WIRE_TT_MAX; i++)
		tt_mac(v + (size_t)i * WIRE_TT_ENTRY_LEN, i);
	t.len = (WIRE_TT_MAX + 1) * WIRE_TT_ENTRY_LEN;
	ck_assert_int_eq(wire_tvlv_tt(&t, &p, &n), WIRE_ECOUNT);
	t.len = WIRE_TT_MAX * WIRE_TT_ENTRY_LEN;
	ck_assert_int_eq(wire_tvlv_tt(&t, &p, &n), WIRE_OK);
	ck_assert_uint_eq(n, WIRE_TT_MAX);
	v[6] = 0x10;
	ck_assert_int_eq(wire_tvlv_tt(&t, &p, &n), WIRE_EVID);
	v[6] = 0;

	t.type = WIRE_TVLV_CERT;
	t.len = BS_CERT_LEN - 2;
	ck_assert_int_eq(wire_tvlv_cert(&t, &p), WIRE_ELEN);
	t.len = BS_CERT_LEN;
	ck_assert_int_eq(wire_tvlv_cert(&t, &p), WIRE_ECERT);
	t.type = WIRE_TVLV_REVOKE;
	ck_assert_int_eq(wire_tvlv_revoke(&t, &p), WIRE_ELEN);
	t.len = BS_REVOKE_LEN;
	ck_assert_int_eq(wire_tvlv_revoke(&t, &p), WIRE_ECERT);
	t.version = 2;
	ck_assert_int_eq(wire_tvlv_revoke(&t, &p), WIRE_ETYPE);

	/* The same 65 entries inside a region. */
	memmove(v + WIRE_TVLV_HDR_LEN, v, (WIRE_TT_MAX + 1) *
	    WIRE_TT_ENTRY_LEN);
	v[0] = WIRE_TVLV_TT;
	v[1] = WIRE_TVLV_VERSION;
	bs_put16(v + 2, (WIRE_TT_MAX + 1) * WIRE_TT_ENTRY_LEN);
	ck_assert_int_eq(wire_tvlvs_parse(v, WIRE_TVLV_HDR_LEN +
	    (WIRE_TT_MAX + 1) * WIRE_TT_ENTRY_LEN, &tv), WIRE_ECOUNT);
	ck_assert_str_eq(tv.where.field, "TT entry count");
	ck_assert_uint_eq(tv.where.off, WIRE_TVLV_HDR_LEN);
	ck_assert_int_eq(wire_tvlvs_parse(NULL, 4, &tv), WIRE_ETRUNC);
	ck_assert_int_eq(wire_tvlvs_parse(NULL, 0, &tv), WIRE_OK);
}
END_TEST

/* ---- builders: refusals ------------------------------------------------ */

/* Every capacity below the frame size fails with WIRE_ESPACE. */
START_TEST(test_build_space)
{
	static struct frame f;
	static struct wire_ogm o;
	struct wire_hello h;
	struct wire_sealed u;
	struct wire_bcast b;
	struct wire_bcast_sgn sg;
	size_t cap, len;
	uint8_t *q;
	int r = WIRE_OK;

	make((enum recipe)_i, &f);
	if (f.type == WIRE_T_OGM) {
		ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
		f.len = o.e[0].signed_len;	/* the signed-part builder */
	}
	for (cap = 0; cap < f.len; cap++) {
		q = malloc(cap != 0 ? cap : 1);
		ck_assert_ptr_nonnull(q);
		switch (f.type) {
		case WIRE_T_HELLO:
			ck_assert_int_eq(wire_hello_parse(f.buf, f.len,
			    &h), WIRE_OK);
			r = wire_hello_build(q, cap, &h, &len);
			if (cap >= h.signed_len && h.sig != NULL) {
				len = h.signed_len;
				r = wire_sig_append(q, cap, &len, h.sig);
			}
			if (cap >= h.signed_len && h.sig == NULL) {
				unsigned t;

				len = h.signed_len;
				for (t = 0; t < h.tr.num_tags &&
				    (r = wire_tag_append(q, cap, &len,
				    h.tr.tags[t].keyid, h.tr.tags[t].tag)) ==
				    WIRE_OK; t++)
					;
			}
			break;
		case WIRE_T_OGM:
			r = wire_ogm_signed_build(q, cap, &o.e[0].sgn, &len);
			break;
		case WIRE_T_UNICAST:
		case WIRE_T_ECHO:
		case WIRE_T_TRACE:
		case WIRE_T_TTLX:
			ck_assert_int_eq(wire_sealed_parse(f.buf, f.len, &u),
			    WIRE_OK);
			r = wire_sealed_layout(q, cap, u.type, &u.e, u.ct_len,
			    &len);
			break;
		default:
			ck_assert_int_eq(wire_bcast_parse(f.buf, f.len, &b),
			    WIRE_OK);
			r = wire_bcast_frame(q, cap, b.ttl, b.num_tags,
			    b.hop_counter, b.block, b.block_len, &len);
			/* The signed block's builder: short of its length. */
			if (cap < b.signed_len) {
				sg.orig = b.orig;
				sg.epoch = b.epoch;
				sg.seqno = b.seqno;
				sg.inner = b.inner;
				sg.inner_len = b.inner_len;
				ck_assert_int_eq(wire_bcast_signed_build(q, cap,
				    &sg, &len), WIRE_ESPACE);
			}
			break;
		}
		ck_assert_int_eq(r, WIRE_ESPACE);
		free(q);
	}
}
END_TEST

/* The OGM frame builder: every capacity short of the frame fails cleanly
 * at some step, and the steps before it still succeeded. */
START_TEST(test_build_ogm_space)
{
	static struct frame f;
	static struct wire_ogm o;
	struct wire_ogm_builder b;
	size_t cap;
	unsigned i;
	uint8_t *q;
	int r;

	make((enum recipe)(R_OGM1 + _i), &f);
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	for (cap = 0; cap < f.len; cap++) {
		q = malloc(cap != 0 ? cap : 1);
		ck_assert_ptr_nonnull(q);
		r = wire_ogm_begin(&b, q, cap, o.sender);
		for (i = 0; r == WIRE_OK && i < o.num_entries; i++)
			r = wire_ogm_add(&b, &o.e[i].mut, o.e[i].block,
			    o.e[i].block_len);
		if (r == WIRE_OK)
			r = wire_ogm_trailer(&b, o.tr.auth, o.tr.num_tags,
			    o.tr.counter, NULL, NULL);
		ck_assert_int_eq(r, WIRE_ESPACE);
		/* A failed add left the builder consistent. */
		ck_assert_uint_le(b.len, cap);
		free(q);
	}
}
END_TEST

START_TEST(test_build_hello_inval)
{
	static struct frame f;
	static uint8_t badcert[BS_CERT_LEN];
	uint8_t buf[WIRE_HELLO_MAX_LEN], mc[BS_ADDR_LEN] = { 0x01, 0, 0, 0, 0,
	    1 }, la0[BS_ADDR_LEN] = { 0x00, 1, 2, 3, 4, 5 };
	struct wire_hello h, v;
	size_t len;

	make(R_HELLO3C, &f);
	ck_assert_int_eq(wire_hello_parse(f.buf, f.len, &h), WIRE_OK);
	v = h; v.ifmac = mc;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.pk = NULL;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.salt = NULL;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.interval_ms = WIRE_INTERVAL_MIN - 1;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.num_neigh = WIRE_HELLO_MAX_NEIGH + 1;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.neigh[1].addr = la0;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.neigh[2].rx_count = WIRE_RX_WINDOW + 1;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.neigh[2].addr = v.neigh[0].addr;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.cert = badcert;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	/* Trailer: tags 1..32 with WIRE_AUTH_MAC, none with a signature. */
	v = h; v.tr.auth = WIRE_AUTH_MAC; v.tr.num_tags = 0;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.tr.auth = WIRE_AUTH_MAC; v.tr.num_tags = WIRE_MAX_TAGS + 1;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.tr.auth = WIRE_AUTH_SIG; v.tr.num_tags = 1;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.tr.auth = 3; v.tr.num_tags = 0;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len),
	    WIRE_EINVAL);
	v = h; v.tr.auth = WIRE_AUTH_MAC; v.tr.num_tags = WIRE_MAX_TAGS;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len), WIRE_OK);
	ck_assert_uint_eq(buf[len - 4], WIRE_AUTH_MAC);
	ck_assert_uint_eq(buf[len - 3], WIRE_MAX_TAGS);
	ck_assert_int_eq(wire_tag_append(buf, len + WIRE_TAG_ENTRY_LEN - 1,
	    &len, buf, buf),
	    WIRE_ESPACE);
	/* tr.auth 0 (a zeroed builder input) signs. */
	v = h; v.tr.auth = 0; v.tr.num_tags = 0;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len), WIRE_OK);
	ck_assert_uint_eq(buf[len - 4], WIRE_AUTH_SIG);
	/* The certificate flag follows the pointer, not h.flags. */
	v = h; v.cert = NULL; v.flags = WIRE_HELLO_F_CERT;
	ck_assert_int_eq(wire_hello_build(buf, sizeof(buf), &v, &len), WIRE_OK);
	ck_assert_uint_eq(buf[2], 0);
	len = 0;
	ck_assert_int_eq(wire_sig_append(buf, 10, &len, h.sig), WIRE_ESPACE);
	len = 11;
	ck_assert_int_eq(wire_sig_append(buf, 10, &len, h.sig), WIRE_EINVAL);
}
END_TEST

START_TEST(test_build_ogm_inval)
{
	static struct frame f;
	static struct wire_ogm o;
	uint8_t buf[2048], odd[3] = { 0x7f, 1, 0 }, dup[24] = { 1, 1, 0, 8, 0,
	    0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 8, 0, 0, 0, 1, 0, 0, 0, 1 };
	uint8_t mc[BS_ADDR_LEN] = { 0x03 };
	struct wire_ogm_signed s;
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	size_t len;

	make(R_OGM3, &f);
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	s = o.e[0].sgn; s.flags = 1;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.interval_ms = WIRE_INTERVAL_MAX + 1;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.pk = NULL;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.anchor = NULL;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.tvlv = odd; s.tvlv_len = 3;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.tvlv = dup; s.tvlv_len = sizeof(dup);
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.tvlv_len = WIRE_TVLV_MAX + 2;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.tvlv = NULL;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_EINVAL);
	s = o.e[0].sgn; s.tvlv = NULL; s.tvlv_len = 0;
	ck_assert_int_eq(wire_ogm_signed_build(buf, sizeof(buf), &s, &len),
	    WIRE_OK);
	ck_assert_uint_eq(len, WIRE_OGM_FIXED_LEN);

	m = o.e[0].mut; m.hops = BS_MAXHOPS + 1;
	ck_assert_int_eq(wire_ogm_mut_put(buf, sizeof(buf), &m), WIRE_EINVAL);
	m = o.e[0].mut; m.prev_sender = mc;
	ck_assert_int_eq(wire_ogm_mut_put(buf, sizeof(buf), &m), WIRE_EINVAL);
	m = o.e[0].mut; m.chain = NULL;
	ck_assert_int_eq(wire_ogm_mut_put(buf, sizeof(buf), &m), WIRE_EINVAL);
	m = o.e[0].mut;
	ck_assert_int_eq(wire_ogm_mut_put(buf, WIRE_OGM_MUT_LEN - 1, &m),
	    WIRE_ESPACE);
	ck_assert_int_eq(wire_ogm_mut_put(buf, WIRE_OGM_MUT_LEN, &m), WIRE_OK);
	ck_assert_mem_eq(buf, o.e[0].raw, WIRE_OGM_MUT_LEN);
}
END_TEST

/* The frame builder refuses calls out of order and bad blocks. */
START_TEST(test_build_ogm_order)
{
	static struct frame f;
	static struct wire_ogm o;
	static uint8_t buf[WIRE_OGM_MAX_LEN], blk[2048];
	uint8_t mc[BS_ADDR_LEN] = { 0x01 }, kid[BS_KEYID_LEN] = { 1 },
	    tag[BS_TAG_LEN] = { 0 }, sig[BS_SIG_LEN] = { 0 };
	const struct wire_ogm_entry *e;
	struct wire_ogm_builder b;
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL }, cm;
	uint8_t cblk[WIRE_OGM_COMPACT_BLOCK];
	size_t len;
	unsigned i;

	make(R_OGM1, &f);
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	e = &o.e[0];
	ck_assert_int_eq(wire_ogm_begin(&b, buf, sizeof(buf), mc), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, e->block, e->block_len),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_begin(&b, NULL, sizeof(buf), o.sender),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_begin(&b, buf, WIRE_OGM_HDR_LEN - 1,
	    o.sender), WIRE_ESPACE);
	ck_assert_int_eq(wire_ogm_begin(&b, buf, sizeof(buf), o.sender),
	    WIRE_OK);
	/* No trailer before an entry, no finish before a trailer. */
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_SIG, 0, 1, NULL, NULL),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add_tag(&b, kid, tag), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add_sig(&b, sig), WIRE_EINVAL);
	/* A block must be exactly one signed part and its signature. */
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, e->block, e->block_len - 1),
	    WIRE_EINVAL);
	memcpy(blk, e->block, e->block_len);
	blk[e->block_len] = 0;
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, blk, e->block_len + 1),
	    WIRE_EINVAL);
	blk[40] = 1;	/* entry flags */
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, blk, e->block_len),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, NULL, 0), WIRE_EINVAL);
	m = e->mut;
	m.hops = BS_MAXHOPS + 1;
	ck_assert_int_eq(wire_ogm_add(&b, &m, e->block, e->block_len),
	    WIRE_EINVAL);
	ck_assert_uint_eq(b.len, WIRE_OGM_HDR_LEN);
	ck_assert_uint_eq(b.num_entries, 0);
	ck_assert_uint_eq(buf[2], 0);
	/* A full entry, then compact ones up to the count. */
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, e->block, e->block_len),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_compact_build(cblk, o.sender, 7), WIRE_OK);
	cm = e->mut;
	cm.kind = WIRE_OGM_COMPACT;
	/* A compact entry takes exactly its 10 bytes, a full one its own. */
	ck_assert_int_eq(wire_ogm_add(&b, &cm, e->block, e->block_len),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add(&b, &cm, cblk, sizeof(cblk) - 1),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, cblk, sizeof(cblk)),
	    WIRE_EINVAL);
	cm.kind = 2;
	ck_assert_int_eq(wire_ogm_add(&b, &cm, cblk, sizeof(cblk)),
	    WIRE_EINVAL);
	cm.kind = WIRE_OGM_COMPACT;
	for (i = 1; i < WIRE_OGM_MAX_ENTRIES; i++)
		ck_assert_int_eq(wire_ogm_add(&b, &cm, cblk, sizeof(cblk)),
		    WIRE_OK);
	ck_assert_int_eq(wire_ogm_add(&b, &cm, cblk, sizeof(cblk)),
	    WIRE_ECOUNT);
	ck_assert_int_eq(wire_ogm_set_mut(&b, WIRE_OGM_MAX_ENTRIES, &e->mut),
	    WIRE_ERANGE);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_MAC, 0, 1, NULL, NULL),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_SIG, 1, 1, NULL, NULL),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_trailer(&b, 3, 1, 1, NULL, NULL),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_MAC, 2, 1, NULL, NULL),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_MAC, 2, 1, NULL, NULL),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add(&b, &e->mut, e->block, e->block_len),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_set_mut(&b, 0, &e->mut), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add_sig(&b, sig), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add_tag(&b, kid, tag), WIRE_OK);
	ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_add_tag(&b, kid, tag), WIRE_EDUP);
	kid[0] = 2;
	ck_assert_int_eq(wire_ogm_add_tag(&b, kid, tag), WIRE_OK);
	ck_assert_int_eq(wire_ogm_add_tag(&b, kid, tag), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_OK);
	ck_assert_int_eq(wire_ogm_parse(buf, len, &o), WIRE_OK);
	ck_assert_uint_eq(o.num_entries, WIRE_OGM_MAX_ENTRIES);
	ck_assert_uint_eq(o.e[0].mut.kind, WIRE_OGM_FULL);
	ck_assert_ptr_null(o.e[0].cp.orig);
	for (i = 1; i < WIRE_OGM_MAX_ENTRIES; i++) {
		ck_assert_uint_eq(o.e[i].mut.kind, WIRE_OGM_COMPACT);
		ck_assert_uint_eq(o.e[i].raw_len, WIRE_OGM_COMPACT_LEN);
		ck_assert_uint_eq(o.e[i].cp.seqno, 7);
		ck_assert_mem_eq(o.e[i].cp.orig, o.sender, BS_ADDR_LEN);
		ck_assert_ptr_null(o.e[i].sgn.pk);
		ck_assert_ptr_null(o.e[i].sig);
	}
	ck_assert_int_eq(wire_trailer_find(&o.tr, kid), 1);
	kid[0] = 3;
	ck_assert_int_eq(wire_trailer_find(&o.tr, kid), -1);
}
END_TEST

/*
 * A compact entry (batsec-protocol(7), "OGM CHAIN"): read on its own as
 * IPC_RELAY carries it, and every defect of one refused in a frame.
 */
START_TEST(test_ogm_compact)
{
	static struct frame f;
	static struct wire_ogm o;
	static uint8_t buf[WIRE_OGM_MAX_LEN];
	struct wire_ogm_builder b;
	struct wire_ogm_head h;
	struct wire_ogm_mut m;
	uint8_t blk[WIRE_OGM_COMPACT_BLOCK], ent[WIRE_OGM_COMPACT_LEN];
	uint8_t tag[BS_TAG_LEN] = { 1 }, kid[BS_KEYID_LEN] = { 1 };
	uint8_t nb[WIRE_OGM_COMPACT_BLOCK], nomesh[BS_ADDR_LEN] = { 0x01 };
	size_t len, off;

	make(R_OGM1, &f);
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	m = o.e[0].mut;
	m.kind = WIRE_OGM_COMPACT;
	m.hops = 3;
	ck_assert_int_eq(wire_ogm_compact_build(blk, o.sender, 0xfffffffeu),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_compact_build(nb, nomesh, 1), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_mut_put(ent, sizeof(ent), &m), WIRE_OK);
	memcpy(ent + WIRE_OGM_MUT_LEN, blk, sizeof(blk));
	ck_assert_int_eq(wire_ogm_head_get(ent, sizeof(ent), &h), WIRE_OK);
	ck_assert_uint_eq(h.mut.kind, WIRE_OGM_COMPACT);
	ck_assert_uint_eq(h.mut.hops, 3);
	ck_assert_ptr_null(h.pk);
	ck_assert_mem_eq(h.orig, o.sender, BS_ADDR_LEN);
	ck_assert_int_eq(wire_ogm_head_get(ent, sizeof(ent) - 1, &h),
	    WIRE_ETRUNC);
	ent[3] = 2;
	ck_assert_int_eq(wire_ogm_head_get(ent, sizeof(ent), &h), WIRE_ERANGE);
	ent[3] = WIRE_OGM_COMPACT;
	/* In a frame: parsed back exactly. */
	ck_assert_int_eq(wire_ogm_begin(&b, buf, sizeof(buf), o.sender),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_add(&b, &m, blk, sizeof(blk)), WIRE_OK);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_MAC, 1, 9, NULL, NULL),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_add_tag(&b, kid, tag), WIRE_OK);
	ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_OGM_HDR_LEN + WIRE_OGM_COMPACT_LEN +
	    WIRE_TRAILER_HDR_LEN + WIRE_TAG_ENTRY_LEN);
	ck_assert_int_eq(wire_ogm_parse(buf, len, &o), WIRE_OK);
	ck_assert_uint_eq(o.e[0].cp.seqno, 0xfffffffeu);
	ck_assert_mem_eq(o.e[0].raw, ent, sizeof(ent));
	ck_assert_int_eq(wire_ogm_entry_offset(buf, len, 0, &off), WIRE_OK);
	ck_assert_uint_eq(off, WIRE_OGM_HDR_LEN);
	/* Not a mesh address as originator; an unknown kind. */
	buf[WIRE_OGM_HDR_LEN + WIRE_OGM_MUT_LEN] = 0x01;
	ck_assert_int_eq(wire_ogm_parse(buf, len, &o), WIRE_EADDR);
	ck_assert_str_eq(o.where.field, "originator address");
	ck_assert_uint_eq(o.where.off, WIRE_OGM_HDR_LEN + WIRE_OGM_MUT_LEN);
	buf[WIRE_OGM_HDR_LEN + WIRE_OGM_MUT_LEN] = ent[WIRE_OGM_MUT_LEN];
	buf[WIRE_OGM_HDR_LEN + 3] = 2;
	ck_assert_int_eq(wire_ogm_parse(buf, len, &o), WIRE_ERANGE);
	ck_assert_str_eq(o.where.field, "entry kind");
	/* Version 1 is refused. */
	buf[WIRE_OGM_HDR_LEN + 3] = WIRE_OGM_COMPACT;
	buf[1] = 1;
	ck_assert_int_eq(wire_ogm_parse(buf, len, &o), WIRE_EVERSION);
}
END_TEST

/* Frames larger than WIRE_OGM_MAX_LEN cannot be built. */
START_TEST(test_build_ogm_max)
{
	static struct frame f;
	static struct wire_ogm o;
	static uint8_t buf[2 * WIRE_OGM_MAX_LEN];
	const struct wire_ogm_entry *e;
	struct wire_ogm_builder b;
	unsigned i;
	int r = WIRE_OK;

	make(R_OGMSIG, &f);
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	e = &o.e[1];	/* 928 bytes */
	ck_assert_int_eq(wire_ogm_begin(&b, buf, sizeof(buf), o.sender),
	    WIRE_OK);
	ck_assert_uint_eq(b.cap, WIRE_OGM_MAX_LEN);
	for (i = 0; i < 5 && r == WIRE_OK; i++)
		r = wire_ogm_add(&b, &e->mut, e->block, e->block_len);
	ck_assert_int_eq(r, WIRE_ESPACE);
	ck_assert_uint_eq(b.num_entries, 4);
	ck_assert_uint_eq(b.len, WIRE_OGM_HDR_LEN + 4 * e->raw_len);
	/* 12 + 4 * 928 = 3724: a 16-tag trailer (332) still fits. */
	ck_assert_uint_ge(b.cap - b.len, wire_trailer_len(WIRE_AUTH_MAC, 16));
}
END_TEST

START_TEST(test_build_tvlv_inval)
{
	static const uint8_t zero[BS_CERT_LEN];
	uint8_t buf[1024], m0[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 0, 0, 1 },
	    mc[BS_ADDR_LEN] = { 0x01, 0, 0, 0, 0, 1 }, z[BS_ADDR_LEN] = { 0 };
	struct wire_tt_entry e[WIRE_TT_MAX + 1] = { 0 };
	size_t len = 0;
	unsigned i;

	ck_assert_int_eq(wire_tvlv_put_gateway(buf, sizeof(buf), &len, 0, 1),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put_gateway(buf, sizeof(buf), &len, 1, 0),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 0),
	    WIRE_EINVAL);
	for (i = 0; i <= WIRE_TT_MAX; i++) {
		e[i].mac = m0;
		e[i].vid = (uint16_t)(WIRE_VID_TAGGED | (i + 1));
	}
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e,
	    WIRE_TT_MAX + 1), WIRE_EINVAL);
	e[0].vid = 0x0001;
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 1),
	    WIRE_EINVAL);
	e[0].vid = 0;
	e[1].vid = 0;
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 2),
	    WIRE_EINVAL);
	e[1].vid = WIRE_VID_TAGGED | 2;
	e[1].flags = 0x02;		/* not a defined flag */
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 2),
	    WIRE_EINVAL);
	e[1].flags = 0;
	e[1].vid = 0;
	e[1].mac = mc;
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 2),
	    WIRE_EINVAL);
	e[1].mac = z;
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 2),
	    WIRE_EINVAL);
	e[1].mac = NULL;
	ck_assert_int_eq(wire_tvlv_put_tt(buf, sizeof(buf), &len, e, 2),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put_cert(buf, sizeof(buf), &len, zero),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put_revoke(buf, sizeof(buf), &len, zero),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put(buf, sizeof(buf), &len, 9, 1, zero, 3),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put(buf, sizeof(buf), &len, 9, 1, NULL, 2),
	    WIRE_EINVAL);
	ck_assert_int_eq(wire_tvlv_put(buf, sizeof(buf), &len, 9, 1, zero,
	    WIRE_TVLV_MAX), WIRE_EINVAL);
	ck_assert_uint_eq(len, 0);
	/* Space: a container that does not fit leaves *len alone. */
	ck_assert_int_eq(wire_tvlv_put_gateway(buf, 11, &len, 1, 1),
	    WIRE_ESPACE);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(wire_tvlv_put_gateway(buf, 12, &len, 1, 1), WIRE_OK);
	ck_assert_uint_eq(len, 12);
	ck_assert_int_eq(wire_tvlv_put_gateway(buf, 23, &len, 1, 1),
	    WIRE_ESPACE);
	ck_assert_uint_eq(len, 12);
	len = 13;
	ck_assert_int_eq(wire_tvlv_put_gateway(buf, 12, &len, 1, 1),
	    WIRE_EINVAL);
}
END_TEST

START_TEST(test_build_data_inval)
{
	static uint8_t buf[WIRE_BCAST_MAX_LEN], blk[WIRE_BCAST_BLOCK_MAX + 8];
	uint8_t inner[WIRE_INNER_MAX + 1] = { 0 }, mc[BS_ADDR_LEN] = { 0x03 },
	    ok[BS_ADDR_LEN] = { 0x02, 1 }, sig[BS_SIG_LEN] = { 0 };
	struct wire_e2e e = { ok, ok, 1, 1, 0 };
	struct wire_bcast_sgn sg = { ok, 1, 0, inner, 20 };
	size_t len, bl;

	/* wire_sealed_layout: type, addresses, epochs, lengths, space */
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, 20, &len), WIRE_OK);
	ck_assert_uint_eq(len, 20 + WIRE_SEALED_OVERHEAD);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_BCAST,
	    &e, 20, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_HELLO,
	    &e, 20, &len), WIRE_EINVAL);
	e.dst = NULL;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, 20, &len), WIRE_EINVAL);
	e.dst = mc;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, 20, &len), WIRE_EINVAL);
	e.dst = ok;
	e.src = NULL;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_ECHO,
	    &e, 6, &len), WIRE_EINVAL);
	e.src = mc;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_ECHO,
	    &e, 6, &len), WIRE_EINVAL);
	e.src = ok;
	e.src_epoch = 0;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, 20, &len), WIRE_EINVAL);
	e.src_epoch = 1;
	e.dst_epoch = 0;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, 20, &len), WIRE_EINVAL);
	e.dst_epoch = 1;
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, WIRE_INNER_MIN - 1, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, WIRE_INNER_MAX + 1, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, WIRE_INNER_MAX, &len), WIRE_OK);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_ECHO,
	    &e, 5, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_ECHO,
	    &e, 7, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_ECHO,
	    &e, 6, &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_ECHO_LEN);
	ck_assert_int_eq(wire_sealed_layout(NULL, 1000, WIRE_T_ECHO, &e, 6,
	    &len), WIRE_ESPACE);
	ck_assert_int_eq(wire_sealed_layout(buf, WIRE_ECHO_LEN - 1,
	    WIRE_T_ECHO, &e, 6, &len), WIRE_ESPACE);
	ck_assert_int_eq(wire_sealed_layout(buf, WIRE_SEALED_OVERHEAD - 1,
	    WIRE_T_ECHO, &e, 6, &len), WIRE_ESPACE);
	ck_assert_int_eq(wire_sealed_layout(buf, WIRE_ECHO_LEN, WIRE_T_ECHO,
	    &e, 6, &len), WIRE_OK);
	/* TRACE: the echo body's 6 bytes; TTLX: 16. */
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_TRACE,
	    &e, 7, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_TRACE,
	    &e, 6, &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_ECHO_LEN);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_TTLX,
	    &e, 15, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_TTLX,
	    &e, 17, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_TTLX,
	    &e, 16, &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_TTLX_LEN);
	ck_assert_int_eq(wire_sealed_layout(buf, WIRE_TTLX_LEN - 1,
	    WIRE_T_TTLX, &e, 16, &len), WIRE_ESPACE);

	/* wire_bcast_signed_build: originator, epoch, inner, space */
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &bl),
	    WIRE_OK);
	ck_assert_uint_eq(bl, WIRE_BCAST_SGN_LEN + 20);
	sg.orig = NULL;
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &len),
	    WIRE_EINVAL);
	sg.orig = mc;
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &len),
	    WIRE_EINVAL);
	sg.orig = ok;
	sg.epoch = 0;
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &len),
	    WIRE_EINVAL);
	sg.epoch = 1;
	sg.inner = NULL;
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &len),
	    WIRE_EINVAL);
	sg.inner = inner;
	sg.inner_len = WIRE_INNER_MIN - 1;
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &len),
	    WIRE_EINVAL);
	sg.inner_len = WIRE_INNER_MAX + 1;
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &len),
	    WIRE_EINVAL);
	sg.inner_len = 20;
	ck_assert_int_eq(wire_bcast_signed_build(NULL, 100, &sg, &len),
	    WIRE_ESPACE);
	ck_assert_int_eq(wire_bcast_signed_build(blk, WIRE_BCAST_SGN_LEN + 19,
	    &sg, &len), WIRE_ESPACE);
	ck_assert_int_eq(wire_bcast_signed_build(blk, WIRE_BCAST_SGN_LEN + 20,
	    &sg, &len), WIRE_OK);
	ck_assert_int_eq(wire_sig_append(blk, sizeof(blk), &bl, sig), WIRE_OK);
	ck_assert_uint_eq(bl, WIRE_BCAST_SGN_LEN + 20 + BS_SIG_LEN);

	/* wire_bcast_frame: tag count, a block that does not parse, space */
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 1, 0, blk, bl,
	    &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_BCAST_FIXED + WIRE_BCAST_TAG_LEN + bl);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 8, 0, blk, bl,
	    &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_BCAST_FIXED + 8 * WIRE_BCAST_TAG_LEN + bl);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 0, 0, blk, bl,
	    &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 9, 0, blk, bl,
	    &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 1, 0, NULL, bl,
	    &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 1, 0, blk,
	    bl - 1, &len), WIRE_EINVAL);
	blk[bl] = 0;
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 1, 0, blk,
	    bl + 1, &len), WIRE_EINVAL);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 1, 0, blk, 0,
	    &len), WIRE_EINVAL);
	blk[0] = 1;				/* flags */
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 5, 1, 0, blk, bl,
	    &len), WIRE_EINVAL);
	blk[0] = 0;
	ck_assert_int_eq(wire_bcast_frame(NULL, 1000, 5, 1, 0, blk, bl, &len),
	    WIRE_ESPACE);
	ck_assert_int_eq(wire_bcast_frame(buf, WIRE_BCAST_FIXED +
	    WIRE_BCAST_TAG_LEN + bl - 1, 5, 1, 0, blk, bl, &len), WIRE_ESPACE);
	ck_assert_int_eq(wire_bcast_frame(buf, WIRE_BCAST_FIXED + 11, 5, 1, 0,
	    blk, bl, &len), WIRE_ESPACE);
	ck_assert_int_eq(wire_bcast_frame(buf, WIRE_BCAST_FIXED +
	    WIRE_BCAST_TAG_LEN + bl, 5, 1, 0, blk, bl, &len), WIRE_OK);
}
END_TEST

/*
 * Known answers for the frame format: fixed inputs give these bytes,
 * written out from the offsets of DP2.md / wire.h by hand.
 */
static const uint8_t kat_dst[BS_ADDR_LEN] = { 0x02, 0x11, 0x22, 0x33, 0x44,
    0x55 };
static const uint8_t kat_src[BS_ADDR_LEN] = { 0x06, 0x66, 0x77, 0x88, 0x99,
    0xaa };

START_TEST(test_kat_sealed)
{
	static const uint8_t want_hdr[WIRE_SEALED_CT_OFF] = {
		0x42, 0x02, 0x3f, 0x00,				/* 0 */
		0xa1, 0xa2, 0xa3, 0xa4,				/* 4 keyid */
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,	/* 8 ctr */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 16 tag */
		0x02, 0x11, 0x22, 0x33, 0x44, 0x55,		/* 24 dst */
		0x06, 0x66, 0x77, 0x88, 0x99, 0xaa,		/* 30 src */
		0x01, 0x02, 0x03, 0x04,				/* 36 */
		0x05, 0x06, 0x07, 0x08,				/* 40 */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* 44 */
	};
	static const uint8_t want_body[WIRE_ECHO_BODY_LEN] = {
		0x02, 0x00, 0x12, 0x34, 0xab, 0xcd };
	static const uint8_t keyid[BS_KEYID_LEN] = { 0xa1, 0xa2, 0xa3, 0xa4 };
	struct wire_e2e e = { kat_dst, kat_src, 0x01020304, 0x05060708,
	    0x1122334455667788ull };
	struct wire_echo eb = { WIRE_ECHO_REPLY, 0x1234, 0xabcd }, eg;
	uint8_t buf[WIRE_ECHO_LEN], in[WIRE_SEALED_HOP_IN],
	    want_in[WIRE_SEALED_HOP_IN], ad[WIRE_SEALED_AD_LEN];
	struct wire_sealed s;
	size_t len, i;

	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_ECHO, &e,
	    WIRE_ECHO_BODY_LEN, &len), WIRE_OK);
	ck_assert_uint_eq(len, 74);
	wire_sealed_set_hop(buf, 0x3f, keyid, 0x0100000000000005ull);
	ck_assert_mem_eq(buf, want_hdr, sizeof(want_hdr));
	/* The layout writes nothing past the e2e header. */
	for (i = WIRE_SEALED_CT_OFF; i < len; i++)
		ck_assert_uint_eq(buf[i], 0xee);
	wire_echo_body_put(buf + 52, &eb);
	ck_assert_mem_eq(buf + 52, want_body, sizeof(want_body));
	ck_assert_int_eq(wire_echo_body_parse(want_body, 6, &eg), WIRE_OK);
	ck_assert_uint_eq(eg.kind, WIRE_ECHO_REPLY);
	ck_assert_uint_eq(eg.ident, 0x1234);
	ck_assert_uint_eq(eg.seqno, 0xabcd);
	for (i = 0; i < 16; i++)
		buf[58 + i] = (uint8_t)(0xc0 + i);	/* AEAD tag */
	/* The hop tag's input: 0..15, 24..51, the last 16 bytes. */
	memcpy(want_in, want_hdr, 16);
	memcpy(want_in + 16, want_hdr + 24, 28);
	for (i = 0; i < 16; i++)
		want_in[44 + i] = (uint8_t)(0xc0 + i);
	wire_sealed_hop_input(buf, len, in);
	ck_assert_mem_eq(in, want_in, sizeof(in));
	/* A new hop tag does not change it. */
	memset(buf + 16, 0x77, 8);
	wire_sealed_hop_input(buf, len, in);
	ck_assert_mem_eq(in, want_in, sizeof(in));
	/* The AD: the type byte, then bytes 24..51. */
	wire_sealed_ad(buf, ad);
	ck_assert_uint_eq(ad[0], 0x42);
	ck_assert_mem_eq(ad + 1, want_hdr + 24, 28);
	ck_assert_int_eq(wire_sealed_parse(buf, len, &s), WIRE_OK);
	ck_assert_uint_eq(s.ttl, 0x3f);
	ck_assert_uint_eq(s.hop_counter >> WIRE_LANE_SHIFT, 1);
	ck_assert_uint_eq(s.e.counter, 0x1122334455667788ull);
	ck_assert_uint_eq(s.e.src_epoch, 0x01020304);
	ck_assert_uint_eq(s.e.dst_epoch, 0x05060708);
	ck_assert_ptr_eq(s.aead_tag, buf + 58);
	ck_assert_ptr_eq(s.hop_tag, buf + 16);
	/* A UNICAST: type 0x40 and the same header. */
	ck_assert_int_eq(wire_sealed_layout(buf, sizeof(buf), WIRE_T_UNICAST,
	    &e, 6, &len), WIRE_EINVAL);
}
END_TEST

START_TEST(test_kat_bcast)
{
	static const uint8_t want_sgn[WIRE_BCAST_SGN_LEN] = {
		0x00, 0x00, 0x00, 0x0e,				/* 0 */
		0x02, 0x11, 0x22, 0x33, 0x44, 0x55,		/* 4 orig */
		0x0a, 0x0b, 0x0c, 0x0d,				/* 10 epoch */
		0xde, 0xad, 0xbe, 0xef,				/* 14 seqno */
		0x00, 0x00,					/* 18 */
	};
	static const uint8_t want_fixed[WIRE_BCAST_FIXED] = {
		0x41, 0x02, 0x07, 0x02,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	static const uint8_t keyid[BS_KEYID_LEN] = { 0xb1, 0xb2, 0xb3, 0xb4 };
	static const uint8_t tag[BS_HOPTAG_LEN] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t inner[14], blk[WIRE_BCAST_BLOCK_MAX], sig[BS_SIG_LEN],
	    buf[256], in[WIRE_BCAST_TAG_IN], zero[24] = { 0 };
	struct wire_bcast_sgn sg = { kat_dst, 0x0a0b0c0d, 0xdeadbeef, inner,
	    sizeof(inner) };
	struct wire_bcast b;
	size_t bl, len, i;

	for (i = 0; i < sizeof(inner); i++)
		inner[i] = (uint8_t)(0x30 + i);
	memset(sig, 0x5a, sizeof(sig));
	ck_assert_int_eq(wire_bcast_signed_build(blk, sizeof(blk), &sg, &bl),
	    WIRE_OK);
	ck_assert_uint_eq(bl, 34);
	ck_assert_mem_eq(blk, want_sgn, sizeof(want_sgn));
	ck_assert_mem_eq(blk + 20, inner, sizeof(inner));
	ck_assert_int_eq(wire_sig_append(blk, sizeof(blk), &bl, sig), WIRE_OK);
	ck_assert_uint_eq(bl, 98);
	ck_assert_int_eq(wire_bcast_frame(buf, sizeof(buf), 7, 2,
	    0x0102030405060708ull, blk, bl, &len), WIRE_OK);
	ck_assert_uint_eq(len, 12 + 24 + 98);
	ck_assert_mem_eq(buf, want_fixed, sizeof(want_fixed));
	ck_assert_mem_eq(buf + 12, zero, 24);
	ck_assert_mem_eq(buf + 36, want_sgn, sizeof(want_sgn));
	ck_assert_mem_eq(buf + 56, inner, sizeof(inner));
	ck_assert_mem_eq(buf + 70, sig, sizeof(sig));
	wire_bcast_set_tag(buf, 1, keyid, tag);
	ck_assert_mem_eq(buf + 12, zero, 12);
	ck_assert_mem_eq(buf + 24, keyid, 4);
	ck_assert_mem_eq(buf + 28, tag, 8);
	ck_assert_int_eq(wire_bcast_parse(buf, len, &b), WIRE_OK);
	ck_assert_int_eq(wire_bcast_find_tag(&b, keyid), 1);
	ck_assert_int_eq(wire_bcast_find_tag(&b, tag), -1);
	/* Each tag covers 0..11 (byte 3 as sent), the signed header and
	 * the signature: 96 bytes. */
	wire_bcast_tag_input(buf, &b, in);
	ck_assert_mem_eq(in, want_fixed, 12);
	ck_assert_mem_eq(in + 12, want_sgn, 20);
	ck_assert_mem_eq(in + 32, sig, 64);
}
END_TEST


/* ---- relaying ---------------------------------------------------------- */

/*
 * A relay rewrites the mutable part in place (one more hop, one chain
 * step, new TTL/TQ/previous sender): the originator's signature still
 * verifies, the hop chain verifies at the new count, nothing else moved.
 */
START_TEST(test_relay_in_place)
{
	static struct frame f, g;
	static struct wire_ogm o, p;
	uint8_t chain[BS_CHAIN_LEN], prev[BS_ADDR_LEN];
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	size_t off;
	unsigned i;

	make(R_OGM3, &f);
	g = f;
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	for (i = 0; i < o.num_entries; i++) {
		ck_assert_int_eq(wire_ogm_entry_offset(f.buf, f.len, i, &off),
		    WIRE_OK);
		ck_assert_ptr_eq(f.buf + off, o.e[i].raw);
	}
	ck_assert_int_eq(wire_ogm_entry_offset(f.buf, f.len, 3, &off),
	    WIRE_ERANGE);
	ck_assert_int_eq(wire_ogm_entry_offset(f.buf, 20, 0, &off),
	    WIRE_ETRUNC);

	ck_assert_int_eq(wire_ogm_entry_offset(g.buf, g.len, 1, &off), WIRE_OK);
	bs_chain_step(chain, o.e[1].mut.chain);
	bs_mesh_addr(prev, ids[0].pk);
	m.ttl = (uint8_t)(o.e[1].mut.ttl - 1);
	m.tq = (uint8_t)(o.e[1].mut.tq * (255 - 30) / 255);
	m.hops = (uint8_t)(o.e[1].mut.hops + 1);
	m.prev_sender = prev;
	m.chain = chain;
	ck_assert_int_eq(wire_ogm_mut_put(g.buf + off, g.len - off, &m),
	    WIRE_OK);
	ck_assert_int_eq(wire_ogm_parse(g.buf, g.len, &p), WIRE_OK);
	ck_assert_uint_eq(p.e[1].mut.hops, o.e[1].mut.hops + 1);
	ck_assert_uint_eq(p.e[1].mut.tq, 176);
	ck_assert_mem_eq(p.e[1].mut.prev_sender, prev, BS_ADDR_LEN);
	ck_assert_int_eq(bs_verify(p.e[1].sig, BS_DOM_OGM, p.e[1].signed_ptr,
	    p.e[1].signed_len, p.e[1].sgn.pk), 0);
	ck_assert_int_eq(bs_chain_verify(p.e[1].sgn.anchor, p.e[1].mut.chain,
	    p.e[1].mut.hops), 0);
	/* Claiming one hop fewer with the new element fails the chain. */
	ck_assert_int_ne(bs_chain_verify(p.e[1].sgn.anchor, p.e[1].mut.chain,
	    o.e[1].mut.hops), 0);
	ck_assert_mem_eq(g.buf, f.buf, off);
	ck_assert_mem_eq(g.buf + off + WIRE_OGM_MUT_LEN,
	    f.buf + off + WIRE_OGM_MUT_LEN, f.len - off - WIRE_OGM_MUT_LEN);
	/* The link MAC covered the old mutable part: it no longer checks. */
	ck_assert_int_ne(memcmp(g.buf, f.buf, f.len), 0);
}
END_TEST

/* A relay aggregates received blocks into its own frame via the builder. */
START_TEST(test_relay_builder)
{
	static struct frame f;
	static struct wire_ogm o, p;
	static uint8_t buf[WIRE_OGM_MAX_LEN];
	uint8_t sender[BS_ADDR_LEN], sig[BS_SIG_LEN];
	struct wire_ogm_builder b;
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	const uint8_t *cov;
	size_t cov_len, len;
	unsigned i;

	make(R_OGM3, &f);
	ck_assert_int_eq(wire_ogm_parse(f.buf, f.len, &o), WIRE_OK);
	bs_mesh_addr(sender, ids[2].pk);
	ck_assert_int_eq(wire_ogm_begin(&b, buf, sizeof(buf), sender), WIRE_OK);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(wire_ogm_add(&b, &o.e[i].mut, o.e[i].block,
		    o.e[i].block_len), WIRE_OK);
	m = o.e[0].mut;
	m.ttl = 3;
	ck_assert_int_eq(wire_ogm_set_mut(&b, 1, &m), WIRE_OK);
	ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_SIG, 0, 5, &cov,
	    &cov_len), WIRE_OK);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_LINK, cov, cov_len, &ids[2]), 0);
	ck_assert_int_eq(wire_ogm_add_sig(&b, sig), WIRE_OK);
	ck_assert_int_eq(wire_ogm_add_sig(&b, sig), WIRE_EINVAL);
	ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_OK);
	ck_assert_int_eq(wire_ogm_parse(buf, len, &p), WIRE_OK);
	ck_assert_uint_eq(p.num_entries, 2);
	ck_assert_uint_eq(p.e[1].mut.ttl, 3);
	ck_assert_uint_eq(p.e[1].mut.hops, o.e[0].mut.hops);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(bs_verify(p.e[i].sig, BS_DOM_OGM,
		    p.e[i].signed_ptr, p.e[i].signed_len, p.e[i].sgn.pk), 0);
	ck_assert_int_eq(bs_verify(p.tr.sig, BS_DOM_LINK, p.tr.covered,
	    p.tr.covered_len, ids[2].pk), 0);
	ck_assert_int_eq(wire_trailer_find(&p.tr, o.tr.tags[0].keyid), -1);
	/* A signature by another key, or over other bytes, fails. */
	ck_assert_int_ne(bs_verify(p.tr.sig, BS_DOM_LINK, p.tr.covered,
	    p.tr.covered_len, ids[0].pk), 0);
	ck_assert_int_ne(bs_verify(p.e[0].sig, BS_DOM_HELLO, p.e[0].signed_ptr,
	    p.e[0].signed_len, p.e[0].sgn.pk), 0);
}
END_TEST

/* ---- small helpers ----------------------------------------------------- */

START_TEST(test_peek_ttl_strerror)
{
	uint8_t p[3] = { WIRE_T_UNICAST, WIRE_VERSION, 9 }, type = 0;
	const char *s[WIRE_EINVAL * -1 + 1];
	int e, j;

	ck_assert_int_eq(wire_peek(p, 0, &type), WIRE_ETRUNC);
	ck_assert_int_eq(wire_peek(p, 1, &type), WIRE_ETRUNC);
	ck_assert_int_eq(wire_peek(NULL, 2, &type), WIRE_ETRUNC);
	/* Data frames and HELLO are version 2 only; OGM stays version 1. */
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = WIRE_DATA_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_UNICAST);
	p[0] = WIRE_T_BCAST;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_BCAST);
	p[1] = WIRE_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[0] = WIRE_T_ECHO;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = 3;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = WIRE_DATA_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_ECHO);
	p[0] = WIRE_T_HELLO;
	p[1] = WIRE_VERSION;		/* a version-1 HELLO: no salt */
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = 3;			/* version 3: 16-byte tags */
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = WIRE_HELLO_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_HELLO);
	p[0] = WIRE_T_OGM;
	p[1] = WIRE_VERSION;		/* a version-1 OGM: no compact entries */
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = 2;			/* version 2: 16-byte tags */
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = 4;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[1] = WIRE_OGM_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_OGM);
	p[1] = WIRE_VERSION;
	p[0] = 0x03;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_ETYPE);
	p[0] = WIRE_T_FRAG;		/* 0x45, a data frame */
	p[1] = WIRE_DATA_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_FRAG);
	p[1] = WIRE_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_EVERSION);
	p[0] = WIRE_T_TRACE;
	p[1] = WIRE_DATA_VERSION;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_TRACE);
	p[0] = WIRE_T_TTLX;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_OK);
	ck_assert_uint_eq(type, WIRE_T_TTLX);
	p[0] = 0x46;
	ck_assert_int_eq(wire_peek(p, 2, &type), WIRE_ETYPE);

	/* Every error has its own message. */
	for (e = WIRE_OK; e >= WIRE_EINVAL; e--) {
		s[-e] = wire_strerror(e);
		ck_assert_str_ne(s[-e], wire_strerror(1));
		for (j = 0; j < -e; j++)
			ck_assert_str_ne(s[-e], s[j]);
	}
	ck_assert_str_eq(wire_strerror(-100), wire_strerror(1));
}
END_TEST

/* The ECHO plaintext: exactly 6 bytes, kind 1 or 2, reserved zero. */
START_TEST(test_echo)
{
	uint8_t body[16] = { 0 }, out[WIRE_ECHO_BODY_LEN];
	struct wire_echo e = { WIRE_ECHO_REQUEST, 0xa1b2, 0xc3d4 }, g;
	size_t n;
	unsigned i;

	wire_echo_body_put(body, &e);
	ck_assert_int_eq(wire_echo_body_parse(body, 6, &g), WIRE_OK);
	ck_assert_uint_eq(g.kind, WIRE_ECHO_REQUEST);
	ck_assert_uint_eq(g.ident, 0xa1b2);
	ck_assert_uint_eq(g.seqno, 0xc3d4);
	wire_echo_body_put(out, &g);
	ck_assert_mem_eq(out, body, sizeof(out));
	for (n = 0; n < 6; n++)
		ck_assert_int_eq(wire_echo_body_parse(body, n, &g),
		    WIRE_ETRUNC);
	ck_assert_int_eq(wire_echo_body_parse(NULL, 6, &g), WIRE_ETRUNC);
	for (n = 7; n < sizeof(body); n++)
		ck_assert_int_eq(wire_echo_body_parse(body, n, &g),
		    WIRE_ETRAILING);
	for (i = 0; i < 256; i++) {
		body[0] = (uint8_t)i;
		ck_assert_int_eq(wire_echo_body_parse(body, 6, &g),
		    i == 1 || i == 2 ? WIRE_OK : WIRE_ERANGE);
	}
	body[0] = WIRE_ECHO_REPLY;
	body[1] = 1;
	ck_assert_int_eq(wire_echo_body_parse(body, 6, &g), WIRE_ERESERVED);
	body[1] = 0x80;
	ck_assert_int_eq(wire_echo_body_parse(body, 6, &g), WIRE_ERESERVED);
	body[1] = 0;
	ck_assert_int_eq(wire_echo_body_parse(body, 6, &g), WIRE_OK);
	ck_assert_uint_eq(g.kind, WIRE_ECHO_REPLY);
}
END_TEST

START_TEST(test_addr_forms)
{
	uint8_t pk[BS_PK_LEN], a[BS_ADDR_LEN];
	unsigned i;

	/* Every derived mesh address has the form the parser requires. */
	for (i = 0; i < 64; i++) {
		memset(pk, (int)i, sizeof(pk));
		bs_mesh_addr(a, pk);
		ck_assert(wire_addr_is_mesh(a));
		ck_assert(wire_mac_is_unicast(a));
	}
	a[0] = 0x00;
	ck_assert(!wire_addr_is_mesh(a));
	a[0] = 0x03;
	ck_assert(!wire_addr_is_mesh(a));
	ck_assert(!wire_mac_is_unicast(a));
	memset(a, 0, sizeof(a));
	ck_assert(!wire_mac_is_unicast(a));
	a[5] = 1;
	ck_assert(wire_mac_is_unicast(a));
}
END_TEST

static Suite *
wire_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *tc;

	tc = tcase_create("roundtrip");
	tcase_add_unchecked_fixture(tc, setup_ids, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_roundtrip, 0, R_COUNT);
	tcase_add_loop_test(tc, test_truncation, 0, R_COUNT);
	tcase_add_loop_test(tc, test_cross_type, 0, R_COUNT);
	tcase_add_test(tc, test_ttlx_body);
	tcase_add_test(tc, test_ogm_compact);
	tcase_add_loop_test(tc, test_malformed, 0,
	    (int)(sizeof(bad) / sizeof(bad[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("tvlv");
	tcase_add_unchecked_fixture(tc, setup_ids, NULL);
	tcase_add_test(tc, test_tvlv_iter);
	tcase_add_test(tc, test_tvlv_cert_revoke);
	tcase_add_loop_test(tc, test_tvlv_regions, 0,
	    (int)(sizeof(bad_regions) / sizeof(bad_regions[0])));
	tcase_add_test(tc, test_tvlv_too_long);
	tcase_add_test(tc, test_tvlv_typed_errors);
	tcase_add_test(tc, test_tvlv_tt_page);
	tcase_add_test(tc, test_tvlv_mcast);
	suite_add_tcase(s, tc);

	tc = tcase_create("build");
	tcase_add_unchecked_fixture(tc, setup_ids, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_build_space, 0, R_COUNT);
	tcase_add_loop_test(tc, test_build_ogm_space, 0, 3);
	tcase_add_test(tc, test_build_hello_inval);
	tcase_add_test(tc, test_build_ogm_inval);
	tcase_add_test(tc, test_build_ogm_order);
	tcase_add_test(tc, test_build_ogm_max);
	tcase_add_test(tc, test_build_tvlv_inval);
	tcase_add_test(tc, test_build_data_inval);
	tcase_add_test(tc, test_kat_sealed);
	tcase_add_test(tc, test_kat_bcast);
	suite_add_tcase(s, tc);

	tc = tcase_create("relay");
	tcase_add_unchecked_fixture(tc, setup_ids, NULL);
	tcase_add_test(tc, test_relay_in_place);
	tcase_add_test(tc, test_relay_builder);
	tcase_add_test(tc, test_peek_ttl_strerror);
	tcase_add_test(tc, test_addr_forms);
	tcase_add_test(tc, test_echo);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(wire_suite());
}
