/*
 * t_frames.c — frames made with the wire codec's builders (t_frames.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_frames.h"

/* A codec call that must succeed. */
static void
wire_ok(int r, const char *what)
{
	if (r != WIRE_OK) {
		fprintf(stderr, "t_frames: %s: %s\n", what, wire_strerror(r));
		abort();
	}
}

/* A crypto call that must succeed. */
static void
crypto_ok(int r, const char *what)
{
	if (r != 0) {
		fprintf(stderr, "t_frames: %s failed\n", what);
		abort();
	}
}

size_t
t_eth(uint8_t *buf, const uint8_t *dst, const uint8_t *src, uint16_t vid,
    size_t len)
{
	size_t i, h = 12;

	if (len < (vid != 0 ? 18u : 14u))
		wire_ok(WIRE_ETRUNC, "Ethernet frame");
	memcpy(buf, dst, BS_ADDR_LEN);
	memcpy(buf + BS_ADDR_LEN, src, BS_ADDR_LEN);
	if (vid != 0) {
		buf[h++] = 0x81;
		buf[h++] = 0x00;
		buf[h++] = (uint8_t)(vid >> 8);
		buf[h++] = (uint8_t)vid;
	}
	buf[h++] = 0x08;
	buf[h++] = 0x00;
	for (i = h; i < len; i++)
		buf[i] = (uint8_t)i;
	return len;
}

/* dst, src, an 802.1Q tag of vid when vid is not 0, type: its length. */
static size_t
t_eth_head(uint8_t *buf, const uint8_t *dst, const uint8_t *src,
    uint16_t vid, uint16_t type)
{
	size_t off = 14;

	memcpy(buf, dst, BS_ADDR_LEN);
	memcpy(buf + 6, src, BS_ADDR_LEN);
	if (vid != 0) {
		bs_put16(buf + 12, 0x8100);
		bs_put16(buf + 14, vid);
		off += 4;
	}
	bs_put16(buf + off - 2, type);
	return off;
}

size_t
t_arp(uint8_t *buf, uint16_t op, const uint8_t *edst, const uint8_t *sha,
    const uint8_t spa[4], const uint8_t *tha, const uint8_t tpa[4],
    uint16_t vid)
{
	size_t off;
	uint8_t *p;

	memset(buf, 0, 64);
	off = t_eth_head(buf, edst, sha, vid, 0x0806);
	p = buf + off;
	bs_put16(p, 1);			/* Ethernet */
	bs_put16(p + 2, 0x0800);	/* IPv4 */
	p[4] = 6;
	p[5] = 4;
	bs_put16(p + 6, op);
	memcpy(p + 8, sha, BS_ADDR_LEN);
	memcpy(p + 14, spa, 4);
	memcpy(p + 18, tha, BS_ADDR_LEN);
	memcpy(p + 24, tpa, 4);
	return off + 46;
}

/* The ICMPv6 checksum, by the book: pseudo-header, then the message. */
static uint16_t
t_icmp6_sum(const uint8_t *ip, const uint8_t *m, size_t len)
{
	uint64_t sum = 58 + len;
	size_t i;

	for (i = 8; i < 40; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	for (i = 0; i < len; i++)
		sum += (i & 1) ? m[i] : (uint32_t)m[i] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void
t_icmp6_fix(uint8_t *buf)
{
	uint8_t *ip = buf + (bs_get16(buf + 12) == 0x8100 ? 18 : 14);

	bs_put16(ip + 42, 0);
	bs_put16(ip + 42, t_icmp6_sum(ip, ip + 40, bs_get16(ip + 4)));
}

size_t
t_nd(uint8_t *buf, uint8_t type, const uint8_t *edst, const uint8_t *esrc,
    const uint8_t src[16], const uint8_t dst[16], const uint8_t target[16],
    uint8_t flags, const uint8_t *lla, uint16_t vid)
{
	size_t off, plen = lla != NULL ? 32 : 24;
	uint8_t *ip, *m;

	memset(buf, 0, 98);
	off = t_eth_head(buf, edst, esrc, vid, 0x86dd);
	ip = buf + off;
	ip[0] = 0x60;
	bs_put16(ip + 4, (uint16_t)plen);
	ip[6] = 58;
	ip[7] = 255;
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	m = ip + 40;
	m[0] = type;
	if (type == 136)
		m[4] = flags;
	memcpy(m + 8, target, 16);
	if (lla != NULL) {
		m[24] = type == 135 ? 1 : 2;
		m[25] = 1;
		memcpy(m + 26, lla, BS_ADDR_LEN);
	}
	t_icmp6_fix(buf);
	return off + 40 + plen;
}

void
t_salt(uint8_t salt[BS_LINKSALT_LEN], const uint8_t *pk)
{
	size_t i;

	for (i = 0; i < BS_LINKSALT_LEN; i++)
		salt[i] = (uint8_t)(pk[i] ^ 0x5a);
}

void
t_link_root(uint8_t root[BS_LINKROOT_LEN], struct t_end a, struct t_end b)
{
	uint8_t lk[BS_LINKKEY_LEN], sa[BS_LINKSALT_LEN], sb[BS_LINKSALT_LEN];
	struct bs_hop_end ea = { a.id->pk, a.mac, a.epoch, a.salt };
	struct bs_hop_end eb = { b.id->pk, b.mac, b.epoch, b.salt };

	if (ea.salt == NULL) {
		t_salt(sa, a.id->pk);
		ea.salt = sa;
	}
	if (eb.salt == NULL) {
		t_salt(sb, b.id->pk);
		eb.salt = sb;
	}
	crypto_ok(bs_link_key(lk, a.id, b.id->pk), "link key");
	bs_link_root(root, lk, &ea, &eb);
}

void
t_link_keys(struct t_link *l, struct t_end a, struct t_end b)
{
	uint8_t root[BS_LINKROOT_LEN];

	t_link_root(root, a, b);
	bs_hop_key(l->key, root);
	bs_hop_keyid(l->keyid, l->key);
	bs_ogm_key(l->ogm_key, root);
	bs_link_keyid(l->ogm_keyid, l->ogm_key);
}

void
t_e2e_key_aead(uint8_t k[BS_E2EKEY_LEN], enum bs_aead aead,
    const struct bs_identity *src, uint32_t src_epoch, const uint8_t *dst_pk,
    uint32_t dst_epoch)
{
	uint8_t lk[BS_LINKKEY_LEN];

	crypto_ok(bs_link_key(lk, src, dst_pk), "link key");
	bs_e2e_key(k, aead, lk, src->pk, dst_pk, src_epoch, dst_epoch);
}

void
t_e2e_key(uint8_t k[BS_E2EKEY_LEN], const struct bs_identity *src,
    uint32_t src_epoch, const uint8_t *dst_pk, uint32_t dst_epoch)
{
	t_e2e_key_aead(k, BS_AEAD_CHACHA20, src, src_epoch, dst_pk,
	    dst_epoch);
}

void
t_sealed_retag(uint8_t *buf, size_t len, const struct t_link *hop,
    uint8_t ttl, uint64_t hop_ctr)
{
	uint8_t in[WIRE_SEALED_HOP_IN];

	wire_sealed_set_hop(buf, ttl, hop->keyid, hop_ctr);
	wire_sealed_hop_input(buf, len, in);
	bs_hop_tag(buf + WIRE_HOP_TAG_OFF, hop->key, in, sizeof(in));
}

size_t
t_sealed(uint8_t *buf, size_t cap, struct t_sealed s)
{
	uint8_t ad[WIRE_SEALED_AD_LEN];
	size_t n;

	wire_ok(wire_sealed_layout(buf, cap, s.type != 0 ? s.type :
	    WIRE_T_UNICAST, &s.e, s.pt_len, &n), "sealed frame");
	wire_sealed_ad(buf, ad);
	bs_aead_seal(buf + WIRE_SEALED_CT_OFF, buf + n - BS_AEAD_TAG_LEN,
	    s.aead, s.e2e_key, s.e.counter, ad, sizeof(ad), s.pt, s.pt_len);
	t_sealed_retag(buf, n, s.hop, s.ttl, s.hop_ctr);
	return n;
}

size_t
t_bcast(uint8_t *buf, size_t cap, struct t_bcast b)
{
	uint8_t blk[WIRE_BCAST_BLOCK_MAX], sig[BS_SIG_LEN];
	uint8_t in[WIRE_BCAST_TAG_IN], tag[BS_HOPTAG_LEN];
	uint8_t orig[BS_ADDR_LEN];
	struct wire_bcast_sgn sg;
	struct wire_bcast p;
	size_t bl, n;
	unsigned i;

	bs_mesh_addr(orig, b.orig->pk);
	sg.orig = orig;
	sg.epoch = b.epoch;
	sg.seqno = b.seqno;
	sg.inner = b.inner;
	sg.inner_len = b.inner_len;
	wire_ok(wire_bcast_signed_build(blk, sizeof(blk), &sg, &bl), "BCAST");
	crypto_ok(bs_sign(sig, BS_DOM_BCAST, blk, bl, b.orig), "BCAST sig");
	wire_ok(wire_sig_append(blk, sizeof(blk), &bl, sig), "BCAST sig");
	wire_ok(wire_bcast_frame(buf, cap, b.ttl, b.num_tags, b.hop_ctr, blk,
	    bl, &n), "BCAST");
	wire_ok(wire_bcast_parse(buf, n, &p), "BCAST");
	wire_bcast_tag_input(buf, &p, in);
	for (i = 0; i < b.num_tags; i++) {
		bs_hop_tag(tag, b.hops[i]->key, in, sizeof(in));
		wire_bcast_set_tag(buf, i, b.hops[i]->keyid, tag);
	}
	return n;
}

size_t
t_hello(uint8_t *buf, size_t cap, const struct wire_hello *h,
    const struct bs_identity *id)
{
	uint8_t sig[BS_SIG_LEN], salt[BS_LINKSALT_LEN];
	struct wire_hello v = *h;
	size_t len;

	if (v.salt == NULL) {
		t_salt(salt, id->pk);
		v.salt = salt;
	}
	v.tr.auth = WIRE_AUTH_SIG;
	v.tr.num_tags = 0;
	wire_ok(wire_hello_build(buf, cap, &v, &len), "HELLO");
	crypto_ok(bs_sign(sig, BS_DOM_HELLO, buf, len, id), "HELLO signature");
	wire_ok(wire_sig_append(buf, cap, &len, sig), "HELLO signature");
	return len;
}

size_t
t_hello_tagged(uint8_t *buf, size_t cap, const struct wire_hello *h,
    const struct t_link *const *links, unsigned num_tags)
{
	uint8_t tag[BS_TAG_LEN], salt[BS_LINKSALT_LEN], addr[BS_ADDR_LEN];
	struct wire_hello v = *h;
	size_t len, cov;
	unsigned i;

	if (v.salt == NULL) {
		t_salt(salt, v.pk);
		v.salt = salt;
	}
	v.tr.auth = WIRE_AUTH_MAC;
	v.tr.num_tags = num_tags;
	wire_ok(wire_hello_build(buf, cap, &v, &len), "tagged HELLO");
	bs_mesh_addr(addr, v.pk);
	cov = len;
	for (i = 0; i < num_tags; i++) {
		bs_link_mac(tag, links[i]->ogm_key, addr,
		    (uint64_t)v.epoch << 32 | v.seqno, buf, cov);
		wire_ok(wire_tag_append(buf, cap, &len, links[i]->ogm_keyid,
		    tag), "HELLO tag");
	}
	return len;
}

size_t
t_ogm_block(uint8_t *out, size_t cap, const struct t_ogm_entry *e)
{
	uint8_t anchor[BS_CHAIN_LEN], sig[BS_SIG_LEN];
	struct wire_ogm_signed s;
	size_t len;

	crypto_ok(bs_chain_iter(anchor, e->chain_seed, BS_MAXHOPS), "anchor");
	memset(&s, 0, sizeof(s));
	s.pk = e->orig->pk;
	s.epoch = e->epoch;
	s.seqno = e->seqno;
	s.interval_ms = e->interval_ms;
	s.anchor = anchor;
	s.tvlv = e->tvlv;
	s.tvlv_len = e->tvlv_len;
	wire_ok(wire_ogm_signed_build(out, cap, &s, &len), "OGM entry");
	crypto_ok(bs_sign(sig, BS_DOM_OGM, out, len, e->orig),
	    "OGM signature");
	wire_ok(wire_sig_append(out, cap, &len, sig), "OGM signature");
	return len;
}

void
t_ogm_mut(struct wire_ogm_mut *m, uint8_t elem[BS_CHAIN_LEN],
    const struct t_ogm_entry *e)
{
	crypto_ok(bs_chain_iter(elem, e->chain_seed, e->hops), "hop chain");
	memset(m, 0, sizeof(*m));
	m->ttl = e->ttl;
	m->tq = e->tq;
	m->hops = e->hops;
	m->prev_sender = e->prev_sender;
	m->chain = elem;
}

void
t_ogm_add(struct wire_ogm_builder *b, const struct t_ogm_entry *e)
{
	uint8_t blk[WIRE_OGM_FIXED_LEN + WIRE_TVLV_MAX + BS_SIG_LEN];
	uint8_t elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	size_t len;

	len = t_ogm_block(blk, sizeof(blk), e);
	t_ogm_mut(&m, elem, e);
	wire_ok(wire_ogm_add(b, &m, blk, len), "OGM entry");
}

size_t
t_ogm_raw(uint8_t *out, size_t cap, const struct t_ogm_entry *e)
{
	uint8_t elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	size_t len;

	if (cap < WIRE_OGM_MUT_LEN)
		wire_ok(WIRE_ETRUNC, "OGM entry");
	len = t_ogm_block(out + WIRE_OGM_MUT_LEN, cap - WIRE_OGM_MUT_LEN, e);
	t_ogm_mut(&m, elem, e);
	wire_ok(wire_ogm_mut_put(out, WIRE_OGM_MUT_LEN, &m), "OGM entry");
	return WIRE_OGM_MUT_LEN + len;
}

void
t_link_tag(uint8_t keyid[BS_KEYID_LEN], uint8_t tag[BS_TAG_LEN],
    const struct bs_identity *from, const uint8_t *to_pk,
    const uint8_t *sender, uint64_t counter, const uint8_t *cov,
    size_t cov_len)
{
	uint8_t key[BS_LINKKEY_LEN];

	crypto_ok(bs_link_key(key, from, to_pk), "link key");
	bs_link_keyid(keyid, key);
	bs_link_mac(tag, key, sender, counter, cov, cov_len);
}

size_t
t_ogm_frame(uint8_t *buf, size_t cap, const struct t_ogm_frame *f)
{
	uint8_t kid[BS_KEYID_LEN], tag[BS_TAG_LEN], sig[BS_SIG_LEN];
	struct wire_ogm_builder b;
	const uint8_t *cov;
	size_t clen, len;
	unsigned i;

	wire_ok(wire_ogm_begin(&b, buf, cap, f->sender), "OGM frame");
	for (i = 0; i < f->n; i++)
		t_ogm_add(&b, &f->e[i]);
	wire_ok(wire_ogm_trailer(&b, f->auth, f->auth == WIRE_AUTH_MAC ? 1 : 0,
	    f->counter, &cov, &clen), "OGM trailer");
	if (f->auth == WIRE_AUTH_MAC) {
		t_link_tag(kid, tag, f->from, f->to_pk, f->sender, f->counter,
		    cov, clen);
		wire_ok(wire_ogm_add_tag(&b, kid, tag), "OGM tag");
	} else {
		crypto_ok(bs_sign(sig, BS_DOM_LINK, cov, clen, f->from),
		    "OGM link signature");
		wire_ok(wire_ogm_add_sig(&b, sig), "OGM link signature");
	}
	wire_ok(wire_ogm_finish(&b, &len), "OGM frame");
	return len;
}
