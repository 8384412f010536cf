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

size_t
t_unicast(uint8_t *buf, size_t cap, struct wire_unicast u)
{
	size_t n;

	wire_ok(wire_unicast_build(buf, cap, &u, &n), "UNICAST");
	return n;
}

size_t
t_bcast(uint8_t *buf, size_t cap, struct wire_bcast b)
{
	size_t n;

	wire_ok(wire_bcast_build(buf, cap, &b, &n), "BCAST");
	return n;
}

size_t
t_echo(uint8_t *buf, size_t cap, struct wire_echo e)
{
	size_t n;

	wire_ok(wire_echo_build(buf, cap, &e, &n), "ECHO");
	return n;
}

size_t
t_hello(uint8_t *buf, size_t cap, const struct wire_hello *h,
    const struct bs_identity *id)
{
	uint8_t sig[BS_SIG_LEN];
	size_t len;

	wire_ok(wire_hello_build(buf, cap, h, &len), "HELLO");
	crypto_ok(bs_sign(sig, BS_DOM_HELLO, buf, len, id), "HELLO signature");
	wire_ok(wire_sig_append(buf, cap, &len, sig), "HELLO signature");
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
	struct wire_ogm_mut m;
	size_t len;

	len = t_ogm_block(blk, sizeof(blk), e);
	t_ogm_mut(&m, elem, e);
	wire_ok(wire_ogm_add(b, &m, blk, len), "OGM entry");
}

size_t
t_ogm_raw(uint8_t *out, size_t cap, const struct t_ogm_entry *e)
{
	uint8_t elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m;
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
