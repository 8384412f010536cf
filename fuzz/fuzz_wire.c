/*
 * fuzz_wire.c — every parser of the wire codec (src/proto/wire.c), with a
 * round-trip oracle.
 *
 * The first byte of the input is the frame type and picks the parser, so
 * the corpus is real frames: HELLO, OGM of version 3 (full entries, with a
 * walk of every entry's TVLV region with the iterator and the typed
 * decoders, and compact entries, rebuilt with wire_ogm_compact_build; both
 * also read alone with wire_ogm_head_get), and the data frames of
 * version 2: UNICAST and ECHO (sealed), BCAST (signed, tagged), FRAG (a
 * piece of a UNICAST).  The
 * byte WIRE_FUZZ_TVLV instead hands the rest of the input to the TVLV
 * region parser alone.  Any other first byte runs every parser, which must
 * all refuse it.
 *
 * Whatever a parser accepts is rebuilt with the builders from the parsed
 * view and must come out byte for byte identical; a parser error must name
 * a field and an offset inside the input.  Any violation abort()s.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/wire.h"

#define WIRE_FUZZ_TVLV	0xf0

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

/* An error must say where, within the input. */
static void
fz_where(int r, const struct wire_where *w, size_t size)
{
	if (r == WIRE_OK)
		fz_check(w->field == NULL);
	else
		fz_check(r < 0 && w->field != NULL && w->off <= size);
}

static void
fz_hello(const uint8_t *data, size_t size)
{
	static uint8_t out[WIRE_HELLO_MAX_LEN];
	static struct wire_hello h;
	size_t len;
	unsigned i;
	int r;

	r = wire_hello_parse(data, size, &h);
	fz_where(r, &h.where, size);
	if (r != WIRE_OK)
		return;
	fz_check(h.len == size && h.signed_ptr == data);
	fz_check(h.tr.counter == ((uint64_t)h.epoch << 32 | h.seqno));
	fz_check(h.tr.auth == WIRE_AUTH_SIG ?
	    h.sig != NULL && h.tr.num_tags == 0 &&
	    h.signed_len + BS_SIG_LEN == size :
	    h.sig == NULL && h.tr.num_tags >= 1 &&
	    h.tr.num_tags <= WIRE_MAX_TAGS &&
	    h.signed_len + h.tr.num_tags * WIRE_TAG_ENTRY_LEN == size);
	fz_check(wire_hello_build(out, sizeof(out), &h, &len) == WIRE_OK);
	fz_check(len == h.signed_len);
	if (h.sig != NULL)
		fz_check(wire_sig_append(out, sizeof(out), &len, h.sig) ==
		    WIRE_OK);
	for (i = 0; i < h.tr.num_tags; i++)
		fz_check(wire_tag_append(out, sizeof(out), &len,
		    h.tr.tags[i].keyid, h.tr.tags[i].tag) == WIRE_OK);
	fz_check(len == size && memcmp(out, data, size) == 0);
}

/* Re-encode one known container with its typed builder. */
static void
fz_tvlv_known(const struct wire_tvlv *t, const uint8_t *raw)
{
	struct wire_tt_entry e[WIRE_TT_MAX];
	uint8_t out[WIRE_TVLV_MAX];
	struct wire_tvlvs one;
	const uint8_t *p;
	uint32_t down, up;
	size_t len = 0;
	unsigned i, n;
	int r = WIRE_EINVAL;

	switch (t->type) {
	case WIRE_TVLV_GATEWAY:
		fz_check(wire_tvlv_gateway(t, &down, &up) == WIRE_OK);
		r = wire_tvlv_put_gateway(out, sizeof(out), &len, down, up);
		break;
	case WIRE_TVLV_TT:
		fz_check(wire_tvlv_tt(t, &p, &n) == WIRE_OK);
		fz_check(n <= WIRE_TT_MAX);
		for (i = 0; i < n; i++)
			wire_tt_get(p, i, &e[i]);
		r = wire_tvlv_put_tt(out, sizeof(out), &len, e, n);
		break;
	case WIRE_TVLV_CERT:
		fz_check(wire_tvlv_cert(t, &p) == WIRE_OK);
		r = wire_tvlv_put_cert(out, sizeof(out), &len, p);
		break;
	case WIRE_TVLV_REVOKE:
		fz_check(wire_tvlv_revoke(t, &p) == WIRE_OK);
		r = wire_tvlv_put_revoke(out, sizeof(out), &len, p);
		break;
	case WIRE_TVLV_TT_PAGE:
	case WIRE_TVLV_MCAST:
		/* No single-container decoder: the container as a region. */
		fz_check(wire_tvlvs_parse(raw, WIRE_TVLV_HDR_LEN + t->len,
		    &one) == WIRE_OK);
		if (t->type == WIRE_TVLV_MCAST) {
			r = wire_tvlv_put_mcast(out, sizeof(out), &len,
			    one.mcast_flags, one.mcast, one.mcast_count);
			break;
		}
		fz_check(one.page.n <= WIRE_TT_PAGE_MAX);
		for (i = 0; i < one.page.n; i++)
			wire_tt_get(one.page.entries, i, &e[i]);
		one.page.e = e;
		r = wire_tvlv_put_tt_page(out, sizeof(out), &len, &one.page);
		break;
	}
	fz_check(r == WIRE_OK);
	fz_check(len == WIRE_TVLV_HDR_LEN + (size_t)t->len);
	fz_check(memcmp(out, raw, len) == 0);
}

/*
 * Walk a region the region parser accepted: the iterator must agree with
 * it container by container, and every container must re-encode exactly.
 */
static void
fz_tvlv_walk(const uint8_t *region, size_t len, const struct wire_tvlvs *tv)
{
	uint8_t out[WIRE_TVLV_MAX];
	struct wire_tvlv_iter it;
	struct wire_tvlv t;
	unsigned unknown = 0, present = 0;
	size_t olen, at;
	int r;

	wire_tvlv_iter_init(&it, region, len);
	for (;;) {
		at = it.off;
		if ((r = wire_tvlv_next(&it, &t)) == 0)
			break;
		fz_check(r == 1 && t.value == region + at + WIRE_TVLV_HDR_LEN);
		olen = 0;
		fz_check(wire_tvlv_put(out, sizeof(out), &olen, t.type,
		    t.version, t.value, t.len) == WIRE_OK);
		fz_check(memcmp(out, region + at, olen) == 0);
		if (wire_tvlv_is_known(&t)) {
			present |= 1u << t.type;
			fz_tvlv_known(&t, region + at);
		} else {
			unknown++;
		}
	}
	fz_check(it.off == len && unknown == tv->unknown &&
	    present == tv->present);
}

static void
fz_tvlv_region(const uint8_t *data, size_t size)
{
	struct wire_tvlvs tv;
	int r;

	r = wire_tvlvs_parse(data, size, &tv);
	fz_where(r, &tv.where, size);
	if (r == WIRE_OK)
		fz_tvlv_walk(data, size, &tv);
}

/*
 * The one-entry reader (wire_ogm_head_get, which the IPC checks use)
 * agrees with the frame parser on an accepted entry, and refuses a
 * compact one, or a full one without TVLVs, cut short by one byte (it
 * does not look past the fixed fields).
 */
static void
fz_ogm_head(const struct wire_ogm_entry *e)
{
	struct wire_ogm_head h;

	fz_check(wire_ogm_head_get(e->raw, e->raw_len, &h) == WIRE_OK);
	fz_check(h.mut.kind == e->mut.kind && h.mut.ttl == e->mut.ttl &&
	    h.mut.tq == e->mut.tq && h.mut.hops == e->mut.hops &&
	    h.mut.prev_sender == e->mut.prev_sender &&
	    h.mut.chain == e->mut.chain);
	if (e->mut.kind == WIRE_OGM_COMPACT)
		fz_check(h.pk == NULL && h.orig == e->cp.orig);
	else
		fz_check(h.pk == e->sgn.pk && h.orig == NULL &&
		    h.tvlv_len == e->sgn.tvlv_len &&
		    h.interval_ms == e->sgn.interval_ms);
	if (e->mut.kind == WIRE_OGM_COMPACT ||
	    e->raw_len == WIRE_OGM_ENTRY_MIN)
		fz_check(wire_ogm_head_get(e->raw, e->raw_len - 1, &h) < 0);
}

/*
 * A compact entry: exactly the mutable part and the block that
 * wire_ogm_compact_build() makes of its address and seqno; nothing of a
 * full entry is set.
 */
static void
fz_ogm_compact(const struct wire_ogm_entry *e)
{
	uint8_t blk[WIRE_OGM_COMPACT_BLOCK];

	fz_check(e->raw_len == WIRE_OGM_COMPACT_LEN &&
	    e->block == e->raw + WIRE_OGM_MUT_LEN &&
	    e->block_len == WIRE_OGM_COMPACT_BLOCK && e->cp.orig == e->block);
	fz_check(e->sgn.pk == NULL && e->sig == NULL &&
	    e->signed_ptr == NULL && e->signed_len == 0);
	fz_check(wire_addr_is_mesh(e->cp.orig));
	fz_check(wire_ogm_compact_build(blk, e->cp.orig, e->cp.seqno) ==
	    WIRE_OK && memcmp(blk, e->block, sizeof(blk)) == 0);
}

static void
fz_ogm_entry(const struct wire_ogm_entry *e, const uint8_t *frame,
    size_t size, unsigned idx)
{
	static uint8_t blk[WIRE_OGM_FIXED_LEN + WIRE_TVLV_MAX];
	uint8_t mut[WIRE_OGM_MUT_LEN];
	size_t len, off;

	fz_check(e->mut.kind == WIRE_OGM_FULL ||
	    e->mut.kind == WIRE_OGM_COMPACT);
	fz_check(wire_ogm_mut_put(mut, sizeof(mut), &e->mut) == WIRE_OK &&
	    memcmp(mut, e->raw, sizeof(mut)) == 0);
	fz_check(wire_ogm_entry_offset(frame, size, idx, &off) == WIRE_OK);
	fz_check(frame + off == e->raw);
	fz_ogm_head(e);
	if (e->mut.kind == WIRE_OGM_COMPACT) {
		fz_ogm_compact(e);
		return;
	}
	fz_check(e->cp.orig == NULL);
	fz_check(wire_ogm_signed_build(blk, sizeof(blk), &e->sgn, &len) ==
	    WIRE_OK);
	fz_check(len == e->signed_len && memcmp(blk, e->signed_ptr, len) == 0);
	fz_check(e->sig == e->signed_ptr + e->signed_len);
	fz_check(e->block == e->signed_ptr &&
	    e->block_len == e->signed_len + BS_SIG_LEN &&
	    e->raw_len == WIRE_OGM_MUT_LEN + e->block_len);
	fz_tvlv_walk(e->sgn.tvlv, e->sgn.tvlv_len, &e->tv);
}

static void
fz_ogm(const uint8_t *data, size_t size)
{
	static uint8_t out[WIRE_OGM_MAX_LEN];
	static struct wire_ogm o;
	struct wire_ogm_builder b;
	size_t len, cov_len;
	const uint8_t *cov;
	unsigned i;
	int r;

	r = wire_ogm_parse(data, size, &o);
	fz_where(r, &o.where, size);
	if (r != WIRE_OK)
		return;
	fz_check(o.len == size && o.tr.covered == data);
	fz_check(wire_ogm_begin(&b, out, sizeof(out), o.sender) == WIRE_OK);
	for (i = 0; i < o.num_entries; i++) {
		fz_ogm_entry(&o.e[i], data, size, i);
		/* The mutable part carries the kind: the compact block. */
		fz_check(wire_ogm_add(&b, &o.e[i].mut, o.e[i].block,
		    o.e[i].block_len) == WIRE_OK);
	}
	fz_check(wire_ogm_trailer(&b, o.tr.auth, o.tr.num_tags, o.tr.counter,
	    &cov, &cov_len) == WIRE_OK);
	fz_check(cov_len == o.tr.covered_len);
	for (i = 0; i < o.tr.num_tags; i++)
		fz_check(wire_ogm_add_tag(&b, o.tr.tags[i].keyid,
		    o.tr.tags[i].tag) == WIRE_OK);
	if (o.tr.auth == WIRE_AUTH_SIG)
		fz_check(wire_ogm_add_sig(&b, o.tr.sig) == WIRE_OK);
	fz_check(wire_ogm_finish(&b, &len) == WIRE_OK);
	fz_check(len == size && memcmp(out, data, size) == 0);
}

/* The accepted padding is all zero and the rebuilt frame is the rest. */
static void
fz_data_tail(const uint8_t *data, size_t size, size_t len, size_t pad,
    const uint8_t *out, size_t olen)
{
	size_t i;

	fz_check(len + pad == size && olen == len);
	fz_check(pad == 0 || size <= WIRE_ETH_MIN_PAYLOAD);
	for (i = len; i < size; i++)
		fz_check(data[i] == 0);
	fz_check(memcmp(out, data, len) == 0);
}

/*
 * UNICAST and ECHO: the frame ends exactly with the AEAD tag, and laying
 * it out again from the view (then hop fields, ciphertext and tags copied
 * in) gives the same bytes.  An ECHO-sized ciphertext also goes through
 * the ECHO plaintext parser, as the forwarder does after opening it.
 */
static void
fz_sealed(const uint8_t *data, size_t size)
{
	static uint8_t out[WIRE_SEALED_OVERHEAD + WIRE_INNER_MAX];
	uint8_t ad[WIRE_SEALED_AD_LEN], in[WIRE_SEALED_HOP_IN];
	uint8_t body[WIRE_ECHO_BODY_LEN];
	struct wire_sealed s;
	struct wire_echo e;
	uint8_t xbody[WIRE_TTLX_BODY_LEN];
	struct wire_ttlx x;
	size_t len;
	int r;

	r = wire_sealed_parse(data, size, &s);
	fz_where(r, &s.where, size);
	if (r != WIRE_OK)
		return;
	fz_check(s.len == size && s.type == data[0]);
	fz_check(s.ct == data + WIRE_SEALED_CT_OFF &&
	    s.aead_tag == data + size - BS_AEAD_TAG_LEN);
	fz_check(wire_sealed_layout(out, sizeof(out), s.type, &s.e, s.ct_len,
	    &len) == WIRE_OK && len == size);
	wire_sealed_set_hop(out, s.ttl, s.keyid, s.hop_counter);
	memcpy(out + WIRE_HOP_TAG_OFF, s.hop_tag, BS_HOPTAG_LEN);
	memcpy(out + WIRE_SEALED_CT_OFF, s.ct, s.ct_len);
	memcpy(out + len - BS_AEAD_TAG_LEN, s.aead_tag, BS_AEAD_TAG_LEN);
	fz_check(memcmp(out, data, size) == 0);
	wire_sealed_ad(data, ad);
	fz_check(ad[0] == data[0] &&
	    memcmp(ad + 1, data + WIRE_E2E_OFF, WIRE_E2E_HDR_LEN) == 0);
	wire_sealed_hop_input(data, size, in);
	fz_check(memcmp(in, data, WIRE_HOP_TAG_OFF) == 0 &&
	    memcmp(in + WIRE_SEALED_HOP_IN - BS_AEAD_TAG_LEN, s.aead_tag,
	    BS_AEAD_TAG_LEN) == 0);
	if ((s.type == WIRE_T_ECHO || s.type == WIRE_T_TRACE) &&
	    wire_echo_body_parse(s.ct, s.ct_len, &e) == WIRE_OK) {
		wire_echo_body_put(body, &e);
		fz_check(memcmp(body, s.ct, sizeof(body)) == 0);
	}
	/* A TTLX body read as such (a fuzzer may put any bytes there). */
	if (s.type == WIRE_T_TTLX &&
	    wire_ttlx_body_parse(s.ct, s.ct_len, &x) == WIRE_OK) {
		wire_ttlx_body_put(xbody, &x);
		fz_check(memcmp(xbody, s.ct, sizeof(xbody)) == 0 &&
		    x.dst == s.ct && wire_addr_is_mesh(x.dst));
	}
}

/*
 * BCAST: the signed block rebuilt from the view and signature, then the
 * frame around it with the same tags, gives the same bytes.
 */
static void
fz_bcast(const uint8_t *data, size_t size)
{
	static uint8_t out[WIRE_BCAST_MAX_LEN], block[WIRE_BCAST_BLOCK_MAX];
	uint8_t in[WIRE_BCAST_TAG_IN];
	struct wire_bcast b;
	size_t len, blen;
	unsigned i;
	int r;

	r = wire_bcast_parse(data, size, &b);
	fz_where(r, &b.where, size);
	if (r != WIRE_OK)
		return;
	fz_check(wire_bcast_signed_build(block, sizeof(block),
	    &(struct wire_bcast_sgn){ .orig = b.orig, .epoch = b.epoch,
	    .seqno = b.seqno, .inner = b.inner, .inner_len = b.inner_len },
	    &blen) == WIRE_OK);
	fz_check(blen == b.signed_len && memcmp(block, b.signed_ptr,
	    blen) == 0);
	fz_check(wire_sig_append(block, sizeof(block), &blen, b.sig) ==
	    WIRE_OK && blen == b.block_len);
	fz_check(wire_bcast_frame(out, sizeof(out), b.ttl, b.num_tags,
	    b.hop_counter, block, blen, &len) == WIRE_OK);
	for (i = 0; i < b.num_tags; i++) {
		wire_bcast_set_tag(out, i, b.tags + i * WIRE_BCAST_TAG_LEN,
		    b.tags + i * WIRE_BCAST_TAG_LEN + BS_KEYID_LEN);
		fz_check(wire_bcast_find_tag(&b, b.tags + i *
		    WIRE_BCAST_TAG_LEN) <= (int)i);
	}
	fz_data_tail(data, size, b.len, b.pad_len, out, len);
	wire_bcast_tag_input(data, &b, in);
	fz_check(memcmp(in, data, WIRE_BCAST_FIXED) == 0);
}

/* FRAG: rebuilt from the view with the same hop part, the same bytes. */
static void
fz_frag(const uint8_t *data, size_t size)
{
	static uint8_t out[WIRE_FRAG_MAX_LEN], in[WIRE_FRAG_HOP_IN_MAX];
	struct wire_frag f;
	size_t len;
	int r;

	r = wire_frag_parse(data, size, &f);
	fz_where(r, &f.where, size);
	if (r != WIRE_OK)
		return;
	fz_check(f.len == size && f.piece == data + WIRE_FRAG_HDR_LEN);
	fz_check(f.piece_len >= 1 && f.piece_len < f.total &&
	    f.offset + f.piece_len <= f.total);
	fz_check(wire_frag_build(out, sizeof(out), &f, &len) == WIRE_OK &&
	    len == size);
	wire_sealed_set_hop(out, f.ttl, f.keyid, f.hop_counter);
	memcpy(out + WIRE_HOP_TAG_OFF, f.hop_tag, BS_HOPTAG_LEN);
	fz_check(memcmp(out, data, size) == 0);
	fz_check(wire_frag_hop_input(data, size, in) == size - BS_HOPTAG_LEN);
	fz_check(memcmp(in, data, WIRE_HOP_TAG_OFF) == 0 &&
	    memcmp(in + WIRE_HOP_TAG_OFF, data + WIRE_E2E_OFF,
	    size - WIRE_E2E_OFF) == 0);
}

/* Not a known type: every parser refuses it at the header. */
static void
fz_other(const uint8_t *data, size_t size)
{
	static struct wire_ogm o;
	struct wire_hello h;
	struct wire_sealed s;
	struct wire_bcast b;
	struct wire_frag f;
	uint8_t type;
	int r = wire_peek(data, size, &type);

	fz_check(r == WIRE_ETRUNC || r == WIRE_EVERSION || r == WIRE_ETYPE);
	/*
	 * wire_peek checks the type, then the version of that type; the
	 * parsers check the version their type has first, so they may name
	 * the version where wire_peek named the type: both at the header.
	 */
	fz_check(wire_hello_parse(data, size, &h) < 0);
	fz_check(wire_ogm_parse(data, size, &o) < 0);
	fz_check(wire_sealed_parse(data, size, &s) < 0);
	fz_check(wire_bcast_parse(data, size, &b) < 0);
	fz_check(wire_frag_parse(data, size, &f) < 0);
	fz_check(h.where.off <= 1 && o.where.off <= 1 &&
	    s.where.off <= 1 && b.where.off <= 1 && f.where.off <= 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t type;

	if (size == 0) {
		fz_other(data, size);
		return 0;
	}
	switch (data[0]) {
	case WIRE_T_HELLO:
		fz_hello(data, size);
		break;
	case WIRE_T_OGM:
		fz_ogm(data, size);
		break;
	case WIRE_T_UNICAST:
	case WIRE_T_ECHO:
	case WIRE_T_TRACE:
	case WIRE_T_TTLX:
		fz_sealed(data, size);
		break;
	case WIRE_T_BCAST:
		fz_bcast(data, size);
		break;
	case WIRE_T_FRAG:
		fz_frag(data, size);
		break;
	case WIRE_FUZZ_TVLV:
		fz_tvlv_region(data + 1, size - 1);
		break;
	default:
		fz_other(data, size);
		return 0;
	}
	/* The dispatcher agrees with the parser it picked. */
	if (wire_peek(data, size, &type) == WIRE_OK)
		fz_check(type == data[0]);
	return 0;
}
