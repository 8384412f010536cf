/*
 * fwd_orig.c — the forwarder's HELLOs and OGMs: building, signing,
 * aggregating with relayed entries, link-authentication trailers, the
 * relay queue, and what they read of the neighbour table (see
 * fwd_orig.h).  No system call: fwd_announce.c sends.
 */
#include <string.h>

#include <sodium.h>

#include "fwd_links.h"
#include "fwd_orig.h"
#include "fwd_tables.h"

/* ---- counters ------------------------------------------------------------------ */

COUNTERS_DEFINE(fwd_ocount_name, fwd_ocount_get, fwd_ocount, FWD_OCOUNT_LIST)

/* ---- state ---------------------------------------------------------------------- */

void
fwd_orig_init(struct fwd_orig *o, const struct bs_identity *id,
    uint32_t epoch, uint16_t ogm_ms, uint16_t hello_ms)
{
	memset(o, 0, sizeof(*o));
	o->id = id;
	bs_mesh_addr(o->own_addr, id->pk);
	o->epoch = epoch;
	o->ogm_ms = ogm_ms;
	o->hello_ms = hello_ms;
	o->full_left = FWD_FULL_REPEAT;
	o->full_every = FWD_FULL_EVERY;
	fwd_relayq_init(&o->rq, fwd_relay_delay(ogm_ms));
}

uint64_t
fwd_jitter(uint32_t interval_ms)
{
	uint32_t spread = interval_ms * FWD_JITTER_PCT / 100;
	uint64_t v;

	v = (uint64_t)interval_ms - spread + bs_random_uniform(2 * spread + 1);
	return v > 0 ? v : 1;
}

int
fwd_orig_counter(struct fwd_orig *o, uint64_t *ctr)
{
	if (o->counter == UINT32_MAX) {
		o->c.counter_exhausted++;
		return -1;
	}
	o->counter++;
	*ctr = (uint64_t)o->epoch << 32 | o->counter;
	return 0;
}

/* ---- HELLO ------------------------------------------------------------------------ */

int
fwd_hello_build(const struct bs_identity *id,
    const uint8_t ifmac[static BS_ADDR_LEN], uint16_t interval_ms,
    uint32_t epoch, uint32_t seqno, const uint8_t *salt,
    const struct fwd_peer *peers, size_t n, uint8_t *buf, size_t cap,
    size_t *len)
{
	return fwd_hello_build_cert(id, ifmac, interval_ms, epoch, seqno,
	    salt, peers, n, NULL, 0, NULL, 0, NULL, 0, buf, cap, len);
}

int
fwd_hello_build_cert(const struct bs_identity *id,
    const uint8_t ifmac[static BS_ADDR_LEN], uint16_t interval_ms,
    uint32_t epoch, uint32_t seqno, const uint8_t *salt,
    const struct fwd_peer *peers, size_t n, const uint8_t *cert,
    uint8_t flags, const struct fwd_tagkey *keys, size_t nkeys,
    const uint8_t *const *want, unsigned nwant,
    uint8_t *buf, size_t cap, size_t *len)
{
	uint8_t sig[BS_SIG_LEN], tag[BS_TAG_LEN], addr[BS_ADDR_LEN];
	struct wire_hello h;
	size_t i, l = 0, cov;
	int r;

	if (n > WIRE_HELLO_MAX_NEIGH || nkeys > WIRE_MAX_TAGS ||
	    (nkeys > 0 && keys == NULL) || nwant > WIRE_HELLO_MAX_WANT ||
	    (nwant > 0 && want == NULL))
		return WIRE_EINVAL;
	memset(&h, 0, sizeof(h));
	h.num_neigh = (unsigned)n;
	h.pk = id->pk;
	h.ifmac = ifmac;
	h.interval_ms = interval_ms;
	h.epoch = epoch;
	h.seqno = seqno;
	h.salt = salt;
	h.cert = cert;
	h.flags = flags & WIRE_HELLO_F_FRESH;
	h.tr.auth = nkeys > 0 ? WIRE_AUTH_MAC : WIRE_AUTH_SIG;
	h.tr.num_tags = (unsigned)nkeys;
	h.num_want = nwant;
	for (i = 0; i < nwant; i++)
		h.want[i] = want[i];
	for (i = 0; i < n; i++) {
		h.neigh[i].addr = peers[i].addr;
		h.neigh[i].rx_count = peers[i].rx_count;
	}
	if ((r = wire_hello_build(buf, cap, &h, &l)) != WIRE_OK)
		return r;
	if (nkeys == 0) {
		if (bs_sign(sig, BS_DOM_HELLO, buf, l, id) != 0)
			return WIRE_EINVAL;
		if ((r = wire_sig_append(buf, cap, &l, sig)) != WIRE_OK)
			return r;
		*len = l;
		return WIRE_OK;
	}
	bs_mesh_addr(addr, id->pk);
	cov = l;	/* every tag covers the bytes before the tags */
	for (i = 0, r = WIRE_OK; i < nkeys && r == WIRE_OK; i++) {
		bs_link_mac(tag, keys[i].key, addr,
		    (uint64_t)epoch << 32 | seqno, buf, cov);
		r = wire_tag_append(buf, cap, &l, keys[i].key_id, tag);
	}
	sodium_memzero(tag, sizeof(tag));
	if (r != WIRE_OK)
		return r;
	*len = l;
	return WIRE_OK;
}

int
fwd_want_add(struct fwd_wants *w, const uint8_t addr[static BS_ADDR_LEN],
    uint16_t hello_ms, uint64_t now_ms)
{
	unsigned i, slot = WIRE_HELLO_MAX_WANT;

	for (i = 0; i < WIRE_HELLO_MAX_WANT; i++) {
		if (w->until_ms[i] > now_ms &&
		    memcmp(w->addr[i], addr, BS_ADDR_LEN) == 0)
			return 0;	/* asked already */
		if (w->until_ms[i] <= now_ms && slot == WIRE_HELLO_MAX_WANT)
			slot = i;
	}
	if (slot == WIRE_HELLO_MAX_WANT)
		return -1;
	memcpy(w->addr[slot], addr, BS_ADDR_LEN);
	w->until_ms[slot] = now_ms + (uint64_t)FWD_WANT_HELLOS * hello_ms;
	return 0;
}

unsigned
fwd_want_list(const struct fwd_wants *w, uint64_t now_ms,
    const uint8_t *out[static WIRE_HELLO_MAX_WANT])
{
	unsigned i, n = 0;

	for (i = 0; i < WIRE_HELLO_MAX_WANT; i++)
		if (w->until_ms[i] > now_ms)
			out[n++] = w->addr[i];
	return n;
}

void
fwd_hello_want_sign(struct fwd_hsign *s, int soon)
{
	if (soon)
		s->left = FWD_HELLO_SIGN_NEW;
	else
		s->req = 1;
}

int
fwd_hello_sign_due(struct fwd_hsign *s, size_t npeers, size_t nkeys)
{
	int sign = nkeys == 0 || nkeys > WIRE_MAX_TAGS || nkeys < npeers ||
	    s->left > 0 || s->since + 1 >= FWD_HELLO_SIGN_EVERY ||
	    (s->req && s->since + 1 >= FWD_HELLO_REQ_GAP);

	if (!sign) {
		s->since++;
		return 0;
	}
	s->since = 0;
	s->req = 0;
	if (s->left > 0)
		s->left--;
	return 1;
}

/* ---- own OGM ---------------------------------------------------------------------- */

/*
 * The TT and GATEWAY containers of our own OGM, then extra (containers
 * already encoded: certificate, revocation; fwd_trust.h).
 */
static int
fwd_ogm_tvlvs(uint8_t *tv, size_t cap, size_t *len,
    const struct wire_tt_entry *tt, unsigned ntt, uint32_t gw_down,
    uint32_t gw_up, const uint8_t *extra, size_t extra_len)
{
	int r;

	*len = 0;
	if (ntt > WIRE_TT_MAX)
		return WIRE_EINVAL;
	if (ntt > 0 && (r = wire_tvlv_put_tt(tv, cap, len, tt, ntt)) !=
	    WIRE_OK)
		return r;
	if (gw_down > 0 && gw_up > 0 &&
	    (r = wire_tvlv_put_gateway(tv, cap, len, gw_down, gw_up)) !=
	    WIRE_OK)
		return r;
	if (extra_len > cap - *len)
		return WIRE_EINVAL;
	if (extra_len > 0)
		memcpy(tv + *len, extra, extra_len);
	*len += extra_len;
	return WIRE_OK;
}

/* Our own entry's mutable part, hops 0, with the chain element elem. */
static int
fwd_own_mut(struct fwd_orig *o, uint8_t kind,
    const uint8_t elem[static BS_CHAIN_LEN])
{
	struct wire_ogm_mut m = { .kind = kind };

	m.ttl = FWD_OGM_TTL;
	m.tq = FWD_OGM_TQ;
	m.hops = 0;
	m.prev_sender = o->own_addr;
	m.chain = elem;
	return wire_ogm_mut_put(o->own, WIRE_OGM_MUT_LEN, &m);
}

int
fwd_ogm_originate(struct fwd_orig *o, const struct wire_tt_entry *tt,
    unsigned ntt, uint32_t gw_down, uint32_t gw_up)
{
	return fwd_ogm_originate_ext(o, tt, ntt, gw_down, gw_up, NULL, 0);
}

int
fwd_ogm_originate_ext(struct fwd_orig *o, const struct wire_tt_entry *tt,
    unsigned ntt, uint32_t gw_down, uint32_t gw_up, const uint8_t *extra,
    size_t extra_len)
{
	uint8_t tv[WIRE_TVLV_MAX], elem[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN];
	uint8_t sig[BS_SIG_LEN], *blk = o->own + WIRE_OGM_MUT_LEN;
	struct wire_ogm_signed s;
	size_t tvlen, blen;
	int r;

	o->own_len = 0;
	if ((r = fwd_ogm_tvlvs(tv, sizeof(tv), &tvlen, tt, ntt, gw_down,
	    gw_up, extra, extra_len)) != WIRE_OK)
		return r;
	/* A full entry may start a new chain (the receivers' reference). */
	if (bs_ogmchain_get(&o->chain, o->ogm_seqno + 1, elem, anchor) != 0) {
		bs_ogmchain_new(&o->chain, o->ogm_seqno + 1);
		(void)bs_ogmchain_get(&o->chain, o->ogm_seqno + 1, elem,
		    anchor);
	}
	memset(&s, 0, sizeof(s));
	s.pk = o->id->pk;
	s.epoch = o->epoch;
	s.seqno = o->ogm_seqno + 1;
	s.interval_ms = o->ogm_ms;
	s.anchor = anchor;
	s.tvlv = tvlen > 0 ? tv : NULL;
	s.tvlv_len = tvlen;
	if ((r = wire_ogm_signed_build(blk, FWD_OWN_BLOCK_MAX - BS_SIG_LEN, &s,
	    &blen)) != WIRE_OK)
		goto out;
	if (bs_sign(sig, BS_DOM_OGM, blk, blen, o->id) != 0) {
		o->c.sign_failed++;
		r = WIRE_EINVAL;
		goto out;
	}
	if ((r = wire_sig_append(blk, FWD_OWN_BLOCK_MAX, &blen, sig)) !=
	    WIRE_OK)
		goto out;
	if ((r = fwd_own_mut(o, WIRE_OGM_FULL, elem)) != WIRE_OK)
		goto out;
	o->ogm_seqno++;
	o->own_len = WIRE_OGM_MUT_LEN + blen;
	o->c.ogm_originated++;
	o->c.ogm_full++;
	o->full_seqno = o->ogm_seqno;
	if (o->full_left > 0)
		o->full_left--;
out:
	sodium_memzero(elem, sizeof(elem));
	return r;
}

int
fwd_ogm_full_due(struct fwd_orig *o, const uint8_t desc[static 16],
    int force)
{
	uint32_t next = o->ogm_seqno + 1;

	if (!o->have_desc || memcmp(desc, o->desc, sizeof(o->desc)) != 0) {
		memcpy(o->desc, desc, sizeof(o->desc));
		o->have_desc = 1;
		o->full_left = FWD_FULL_REPEAT;
	}
	return force || o->full_left > 0 || !o->chain.valid ||
	    next - o->chain.base >= BS_OGMCHAIN_SEQNOS || o->full_every <= 1 ||
	    next - o->full_seqno >= o->full_every;
}

void
fwd_ogm_desc_digest(uint8_t out[static 16], const struct wire_tt_entry *tt,
    unsigned ntt, uint32_t gw_down, uint32_t gw_up, const uint8_t *a,
    size_t alen, const uint8_t *b, size_t blen)
{
	crypto_generichash_state st;
	uint8_t v[BS_ADDR_LEN + 4];
	unsigned i;

	crypto_generichash_init(&st, NULL, 0, 16);
	for (i = 0; i < ntt; i++) {
		memcpy(v, tt[i].mac, BS_ADDR_LEN);
		bs_put16(v + BS_ADDR_LEN, tt[i].vid);
		v[BS_ADDR_LEN + 2] = tt[i].flags;
		v[BS_ADDR_LEN + 3] = 0;
		crypto_generichash_update(&st, v, sizeof(v));
	}
	bs_put32(v, gw_down);
	bs_put16(v + 4, (uint16_t)(gw_up >> 16));
	bs_put16(v + 6, (uint16_t)gw_up);
	bs_put16(v + 8, (uint16_t)ntt);
	crypto_generichash_update(&st, v, sizeof(v));
	if (alen > 0)
		crypto_generichash_update(&st, a, alen);
	bs_put32(v, (uint32_t)alen);
	crypto_generichash_update(&st, v, 4);
	if (blen > 0)
		crypto_generichash_update(&st, b, blen);
	crypto_generichash_final(&st, out, 16);
}

void
fwd_ogm_want_full(struct fwd_orig *o, unsigned n)
{
	if (o->full_left < n)
		o->full_left = n;
}

int
fwd_ogm_originate_compact(struct fwd_orig *o)
{
	uint8_t elem[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN];
	int r;

	o->own_len = 0;
	if (bs_ogmchain_get(&o->chain, o->ogm_seqno + 1, elem, anchor) != 0)
		return WIRE_EINVAL;
	if ((r = fwd_own_mut(o, WIRE_OGM_COMPACT, elem)) == WIRE_OK &&
	    (r = wire_ogm_compact_build(o->own + WIRE_OGM_MUT_LEN,
	    o->own_addr, o->ogm_seqno + 1)) == WIRE_OK) {
		o->ogm_seqno++;
		o->own_len = WIRE_OGM_COMPACT_LEN;
		o->c.ogm_originated++;
		o->c.ogm_compact++;
	}
	sodium_memzero(elem, sizeof(elem));
	return r;
}

/* ---- aggregation and trailer ------------------------------------------------------- */

void
fwd_agg_begin(struct fwd_agg *a, struct fwd_orig *o,
    const struct fwd_tagkey *keys, size_t nkeys, size_t mtu,
    fwd_frame_fn emit, void *arg)
{
	memset(&a->b, 0, sizeof(a->b));
	a->o = o;
	a->keys = keys;
	a->nkeys = nkeys;
	a->emit = emit;
	a->arg = arg;
	a->frames = 0;
	if (nkeys >= 1 && nkeys <= WIRE_MAX_TAGS) {
		a->auth_dflt = WIRE_AUTH_MAC;
		a->tlen_dflt = wire_trailer_len(WIRE_AUTH_MAC,
		    (unsigned)nkeys);
	} else {
		a->auth_dflt = WIRE_AUTH_SIG;
		a->tlen_dflt = wire_trailer_len(WIRE_AUTH_SIG, 0);
	}
	a->auth = a->auth_dflt;
	a->tlen = a->tlen_dflt;
	a->cap = mtu < sizeof(a->buf) ? mtu : sizeof(a->buf);
}

/* The tags (or the signature) over the covered bytes of a frame. */
static int
fwd_agg_auth(struct fwd_agg *a, uint64_t ctr, const uint8_t *cov,
    size_t covlen)
{
	uint8_t tag[BS_TAG_LEN], sig[BS_SIG_LEN];
	size_t i;

	if (a->auth == WIRE_AUTH_SIG) {
		if (bs_sign(sig, BS_DOM_LINK, cov, covlen, a->o->id) != 0) {
			a->o->c.sign_failed++;
			return -1;
		}
		return wire_ogm_add_sig(&a->b, sig) == WIRE_OK ? 0 : -1;
	}
	for (i = 0; i < a->nkeys; i++) {
		bs_link_mac(tag, a->keys[i].key, a->o->own_addr, ctr, cov,
		    covlen);
		if (wire_ogm_add_tag(&a->b, a->keys[i].key_id, tag) !=
		    WIRE_OK)
			return -1;
	}
	return 0;
}

/* Trailer, authentication, and out: the open frame is closed either way. */
static int
fwd_agg_close(struct fwd_agg *a)
{
	const uint8_t *cov = NULL;
	size_t covlen = 0, len = 0;
	unsigned n = a->b.num_entries;
	uint64_t ctr;
	int rc = -1;

	if (a->b.buf == NULL || n == 0) {
		memset(&a->b, 0, sizeof(a->b));
		return 0;
	}
	if (fwd_orig_counter(a->o, &ctr) == 0 &&
	    wire_ogm_trailer(&a->b, a->auth, a->auth == WIRE_AUTH_MAC ?
	    (unsigned)a->nkeys : 0, ctr, &cov, &covlen) == WIRE_OK &&
	    fwd_agg_auth(a, ctr, cov, covlen) == 0 &&
	    wire_ogm_finish(&a->b, &len) == WIRE_OK &&
	    a->emit(a->arg, a->buf, len) == 0) {
		a->frames++;
		a->o->c.ogm_frames++;
		a->o->c.ogm_entries += n;
		if (a->auth == WIRE_AUTH_MAC)
			a->o->c.ogm_frames_mac++;
		else
			a->o->c.ogm_frames_sig++;
		rc = 0;
	}
	memset(&a->b, 0, sizeof(a->b));
	a->auth = a->auth_dflt;
	a->tlen = a->tlen_dflt;
	return rc;
}

/* Whether len bytes of entry fit an empty frame with tlen trailer bytes. */
static int
fwd_agg_fits(const struct fwd_agg *a, size_t tlen, size_t len)
{
	return WIRE_OGM_HDR_LEN + tlen <= a->cap &&
	    len <= a->cap - WIRE_OGM_HDR_LEN - tlen;
}

int
fwd_agg_add(struct fwd_agg *a, const uint8_t *entry, size_t len)
{
	size_t sig = wire_trailer_len(WIRE_AUTH_SIG, 0);
	struct wire_ogm_mut m;
	int need_sig = 0;

	if (entry == NULL || len < WIRE_OGM_COMPACT_LEN)
		return WIRE_EINVAL;
	if (!fwd_agg_fits(a, a->tlen_dflt, len)) {
		/* Too long with the tags: in a signed frame. */
		if (a->auth_dflt != WIRE_AUTH_MAC ||
		    !fwd_agg_fits(a, sig, len)) {
			a->o->c.entry_too_big++;
			return WIRE_ELEN;
		}
		need_sig = 1;
	}
	if (a->b.buf != NULL && (a->b.num_entries >= WIRE_OGM_MAX_ENTRIES ||
	    len > a->cap - a->tlen - a->b.len ||
	    (need_sig && a->auth != WIRE_AUTH_SIG)))
		(void)fwd_agg_close(a);
	if (need_sig && a->b.buf == NULL) {
		a->auth = WIRE_AUTH_SIG;
		a->tlen = sig;
	}
	if (a->b.buf == NULL &&
	    wire_ogm_begin(&a->b, a->buf, a->cap, a->o->own_addr) != WIRE_OK)
		return WIRE_EINVAL;
	(void)wire_ogm_mut_get(entry, len, &m);
	return wire_ogm_add(&a->b, &m, entry + WIRE_OGM_MUT_LEN,
	    len - WIRE_OGM_MUT_LEN);
}

int
fwd_agg_end(struct fwd_agg *a)
{
	return fwd_agg_close(a);
}

int
fwd_relay_entry_ok(const uint8_t *entry, size_t len)
{
	static const uint8_t any[BS_ADDR_LEN] = { 0x02 };
	struct wire_ogm_builder b;
	struct wire_ogm_head h;
	uint8_t buf[WIRE_OGM_HDR_LEN + IPC_RELAY_MAX];

	if (len > IPC_RELAY_MAX || wire_ogm_head_get(entry, len, &h) !=
	    WIRE_OK || h.mut.ttl == 0)
		return -1;
	if (wire_ogm_begin(&b, buf, sizeof(buf), any) != WIRE_OK ||
	    wire_ogm_add(&b, &h.mut, entry + WIRE_OGM_MUT_LEN,
	    len - WIRE_OGM_MUT_LEN) != WIRE_OK)
		return -1;
	return 0;
}

/* ---- relay queue ---------------------------------------------------------------- */

uint32_t
fwd_relay_delay(uint32_t ogm_ms)
{
	uint32_t d = ogm_ms / 10;

	if (d < FWD_RELAY_DELAY_MIN_MS)
		return FWD_RELAY_DELAY_MIN_MS;
	return d > FWD_RELAY_DELAY_MAX_MS ? FWD_RELAY_DELAY_MAX_MS : d;
}

void
fwd_relayq_init(struct fwd_relayq *q, uint32_t delay_ms)
{
	q->delay_ms = delay_ms;
	q->hold_until_ms = 0;
	fwd_relayq_far(q, FWD_RELAY_FAR_HOPS, FWD_RELAY_FAR_MULT * delay_ms);
	fwd_relayq_clear(q);
}

void
fwd_relayq_hold(struct fwd_relayq *q, uint64_t until_ms)
{
	if (until_ms > q->hold_until_ms)
		q->hold_until_ms = until_ms;
}

void
fwd_relayq_far(struct fwd_relayq *q, uint8_t far_hops, uint32_t far_ms)
{
	q->far_hops = far_hops;
	q->far_ms = far_ms > q->delay_ms ? far_ms : q->delay_ms;
}

/*
 * 1 when entry may wait far_ms: compact, relayed far_hops or more hops,
 * no hold.
 */
static int
fwd_relayq_is_far(const struct fwd_relayq *q, const uint8_t *entry,
    size_t len, uint64_t now_ms)
{
	struct wire_ogm_mut m;

	if (q->far_hops == 0 || now_ms < q->hold_until_ms ||
	    wire_ogm_mut_get(entry, len, &m) != WIRE_OK)
		return 0;
	return m.kind == WIRE_OGM_COMPACT && m.hops >= q->far_hops;
}

static void
fwd_relayq_pop(struct fwd_relayq *q)
{
	q->bytes -= q->v[q->head].len;
	q->head = (q->head + 1) % FWD_RELAY_QMAX;
	q->n--;
}

size_t
fwd_relayq_push(struct fwd_relayq *q, uint32_t ifindex,
    const uint8_t *entry, size_t len, uint64_t now_ms)
{
	struct fwd_relay_ent *e;
	size_t dropped = 0;

	if (len == 0 || len > IPC_RELAY_MAX)
		return 0;
	while (q->n > 0 && (q->n >= FWD_RELAY_QMAX ||
	    q->bytes + len > FWD_RELAY_QBYTES)) {
		fwd_relayq_pop(q);
		dropped++;
	}
	if (q->n == 0)
		q->first_ms = now_ms;
	if (!q->has_near && !fwd_relayq_is_far(q, entry, len, now_ms)) {
		q->has_near = 1;
		q->near_ms = now_ms;
	}
	e = &q->v[(q->head + q->n) % FWD_RELAY_QMAX];
	e->ifindex = ifindex;
	e->len = (uint16_t)len;
	memcpy(e->entry, entry, len);
	q->n++;
	q->bytes += len;
	return dropped;
}

const struct fwd_relay_ent *
fwd_relayq_at(const struct fwd_relayq *q, size_t i)
{
	return &q->v[(q->head + i) % FWD_RELAY_QMAX];
}

uint64_t
fwd_relayq_deadline(const struct fwd_relayq *q)
{
	uint64_t at;

	if (q->n == 0)
		return 0;
	if (q->n >= WIRE_OGM_MAX_ENTRIES || q->bytes >= FWD_RELAY_FRAME_BYTES)
		return 1;
	at = q->first_ms + q->far_ms;
	if (q->has_near && q->near_ms + q->delay_ms < at)
		at = q->near_ms + q->delay_ms;
	return at;
}

void
fwd_relayq_clear(struct fwd_relayq *q)
{
	q->head = 0;
	q->n = 0;
	q->bytes = 0;
	q->first_ms = 0;
	q->near_ms = 0;
	q->has_near = 0;
}

/* ---- the neighbour table ---------------------------------------------------------- */

size_t
fwd_orig_peers(struct fwd_tables *t, uint32_t ifindex, struct fwd_peer *out,
    size_t max)
{
	const struct fwd_neigh *nb;
	size_t cur = 0, n = 0, i, low;

	if (max > WIRE_HELLO_MAX_NEIGH)
		max = WIRE_HELLO_MAX_NEIGH;
	if (ifindex == 0 || max == 0)
		return 0;
	while ((nb = fwd_neigh_next(t, ifindex, &cur)) != NULL) {
		if (n < max) {
			out[n].addr = nb->addr;
			out[n++].rx_count = nb->rx_count;
			continue;
		}
		/* Full: replace the weakest listed one by a stronger one. */
		for (low = 0, i = 1; i < n; i++)
			if (out[i].rx_count < out[low].rx_count)
				low = i;
		if (nb->rx_count > out[low].rx_count) {
			out[low].addr = nb->addr;
			out[low].rx_count = nb->rx_count;
		}
	}
	return n;
}

size_t
fwd_orig_tagkeys(struct fwd_tables *t, struct fwd_links *L, uint32_t ifindex,
    const uint8_t ifmac[static BS_ADDR_LEN], uint64_t now_ms,
    struct fwd_tagkey *out, size_t max, struct fwd_ocount *c)
{
	struct fwd_neigh *nb;
	size_t cur = 0, n = 0;
	uint64_t made = L->keys_made;

	if (ifindex == 0)
		return 0;
	while ((nb = fwd_neigh_next(t, ifindex, &cur)) != NULL) {
		if (!fwd_links_ready(L, nb, ifmac, now_ms)) {
			if (c != NULL)
				c->link_key_failed++;
			continue;
		}
		if (n < max) {
			out[n].key = nb->hop.ogm_key;
			out[n].key_id = nb->hop.ogm_keyid;
		}
		n++;
	}
	if (c != NULL)
		c->link_keys += L->keys_made - made;
	return n;
}

int
fwd_relay_back_only(struct fwd_tables *t, uint32_t ifindex,
    const uint8_t *entry, size_t len)
{
	struct fwd_neigh *n, *only = NULL;
	struct wire_ogm_mut m;
	size_t cur = 0;

	if (t == NULL || wire_ogm_mut_get(entry, len, &m) != WIRE_OK)
		return 0;
	while ((n = fwd_neigh_next(t, ifindex, &cur)) != NULL) {
		if (only != NULL)
			return 0;
		only = n;
	}
	return only != NULL && memcmp(only->addr, m.prev_sender,
	    BS_ADDR_LEN) == 0;
}
