/*
 * wire.c — parse and build batsec protocol version 1 frames.
 *
 * The layout is batsec-protocol(7).  Parsers walk a read cursor that
 * compares every field against the bytes that remain before advancing and
 * remembers the first field it refused; builders walk a write cursor that
 * does the same against the capacity left.  Neither allocates.
 */
#include <string.h>

#include "bs_bytes.h"
#include "wire.h"

/* Every signed range must fit bs_sign()'s bound. */
_Static_assert(WIRE_OGM_FIXED_LEN + WIRE_TVLV_MAX <= BS_SIGN_MAX_MSG,
    "OGM signed part exceeds BS_SIGN_MAX_MSG");
_Static_assert(WIRE_HELLO_MAX_LEN - BS_SIG_LEN <= BS_SIGN_MAX_MSG,
    "HELLO signed part exceeds BS_SIGN_MAX_MSG");
_Static_assert(WIRE_OGM_MAX_LEN - BS_SIG_LEN <= BS_SIGN_MAX_MSG,
    "link-signed range exceeds BS_SIGN_MAX_MSG");
_Static_assert(WIRE_TVLV_MCAST < 32, "present bitmask too small");

/* ---- read cursor ------------------------------------------------------- */

struct rcur {
	const uint8_t *p;	/* next unread byte */
	size_t rem;		/* bytes left */
	size_t off;		/* offset of p in the frame */
	int err;		/* first error, sticky */
	const char *field;
	size_t err_off;
};

static void
rc_init(struct rcur *c, const uint8_t *p, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->p = p;
	c->rem = p != NULL ? len : 0;
}

/* Record the first failure; later ones are consequences of it. */
static void
rc_fail(struct rcur *c, int err, const char *field, size_t off)
{
	if (c->err != 0)
		return;
	c->err = err;
	c->field = field;
	c->err_off = off;
}

/* The next n bytes, or NULL (cursor failed) when fewer remain. */
static const uint8_t *
rc_take(struct rcur *c, size_t n, const char *field)
{
	const uint8_t *q;

	if (c->err != 0)
		return NULL;
	if (n > c->rem) {
		rc_fail(c, WIRE_ETRUNC, field, c->off);
		return NULL;
	}
	q = c->p;
	c->p += n;
	c->rem -= n;
	c->off += n;
	return q;
}

static uint8_t
rc_u8(struct rcur *c, const char *field)
{
	const uint8_t *q = rc_take(c, 1, field);

	return q != NULL ? q[0] : 0;
}

static uint16_t
rc_u16(struct rcur *c, const char *field)
{
	const uint8_t *q = rc_take(c, 2, field);

	return q != NULL ? bs_get16(q) : 0;
}

static uint32_t
rc_u32(struct rcur *c, const char *field)
{
	const uint8_t *q = rc_take(c, 4, field);

	return q != NULL ? bs_get32(q) : 0;
}

static uint64_t
rc_u64(struct rcur *c, const char *field)
{
	const uint8_t *q = rc_take(c, 8, field);

	return q != NULL ? bs_get64(q) : 0;
}

/* A byte that must lie in lo..hi; err when it does not (then 0). */
static unsigned
rc_u8_in(struct rcur *c, const char *field, unsigned lo, unsigned hi,
    int err)
{
	size_t at = c->off;
	const uint8_t *q = rc_take(c, 1, field);

	if (q == NULL)
		return 0;
	if (q[0] < lo || q[0] > hi) {
		rc_fail(c, err, field, at);
		return 0;
	}
	return q[0];
}

static unsigned
rc_u16_in(struct rcur *c, const char *field, unsigned lo, unsigned hi,
    int err)
{
	size_t at = c->off;
	const uint8_t *q = rc_take(c, 2, field);
	unsigned v;

	if (q == NULL)
		return 0;
	v = bs_get16(q);
	if (v < lo || v > hi) {
		rc_fail(c, err, field, at);
		return 0;
	}
	return v;
}

/* An epoch: 1 or more (a node's first epoch is 1, state_epoch_next). */
static uint32_t
rc_epoch(struct rcur *c, const char *field)
{
	size_t at = c->off;
	uint32_t v = rc_u32(c, field);

	if (c->err == 0 && v == 0)
		rc_fail(c, WIRE_ERANGE, field, at);
	return v;
}

/* n reserved bytes, all zero. */
static void
rc_zero(struct rcur *c, size_t n, const char *field)
{
	size_t at = c->off, i;
	const uint8_t *q = rc_take(c, n, field);

	for (i = 0; q != NULL && i < n; i++)
		if (q[i] != 0) {
			rc_fail(c, WIRE_ERESERVED, field, at + i);
			return;
		}
}

/* A flags byte with no bit outside mask. */
static uint8_t
rc_flags(struct rcur *c, const char *field, uint8_t mask)
{
	size_t at = c->off;
	uint8_t v = rc_u8(c, field);

	if (c->err == 0 && (v & ~mask) != 0)
		rc_fail(c, WIRE_ERESERVED, field, at);
	return v & mask;
}

static const uint8_t *
rc_mesh_addr(struct rcur *c, const char *field)
{
	size_t at = c->off;
	const uint8_t *q = rc_take(c, BS_ADDR_LEN, field);

	if (q != NULL && !wire_addr_is_mesh(q))
		rc_fail(c, WIRE_EADDR, field, at);
	return q;
}

static const uint8_t *
rc_unicast_mac(struct rcur *c, const char *field)
{
	size_t at = c->off;
	const uint8_t *q = rc_take(c, BS_ADDR_LEN, field);

	if (q != NULL && !wire_mac_is_unicast(q))
		rc_fail(c, WIRE_EADDR, field, at);
	return q;
}

/* Type and version (the version checked first). */
static void
rc_hdr_v(struct rcur *c, uint8_t type, uint8_t version)
{
	const uint8_t *q = rc_take(c, WIRE_HDR_LEN, "frame header");

	if (q == NULL)
		return;
	if (q[1] != version)
		rc_fail(c, WIRE_EVERSION, "version", 1);
	else if (q[0] != type)
		rc_fail(c, WIRE_ETYPE, "type", 0);
}

/* Type and version of an OGM: version WIRE_OGM_VERSION. */
static void
rc_hdr(struct rcur *c, uint8_t type)
{
	rc_hdr_v(c, type, WIRE_OGM_VERSION);
}

/* Nothing may follow the frame. */
static void
rc_end(struct rcur *c)
{
	if (c->err == 0 && c->rem != 0)
		rc_fail(c, WIRE_ETRAILING, "trailing bytes", c->off);
}

/*
 * Data frames only: what follows the inner frame is accepted as Ethernet
 * padding when the whole payload is at most the 46-byte minimum and every
 * padding byte is zero.  Returns the padding length.
 */
static size_t
rc_padding(struct rcur *c, size_t total)
{
	size_t i, n = c->rem;

	if (c->err != 0 || n == 0)
		return 0;
	if (total > WIRE_ETH_MIN_PAYLOAD) {
		rc_fail(c, WIRE_ETRAILING, "trailing bytes", c->off);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (c->p[i] != 0) {
			rc_fail(c, WIRE_EPADDING, "padding", c->off + i);
			return 0;
		}
	(void)rc_take(c, n, "padding");
	return n;
}

static int
rc_done(const struct rcur *c, struct wire_where *w)
{
	w->field = c->err != 0 ? c->field : NULL;
	w->off = c->err != 0 ? c->err_off : 0;
	return c->err;
}

/* ---- write cursor ------------------------------------------------------ */

struct wcur {
	uint8_t *p;
	size_t rem;
	int err;
};

static void
wc_init(struct wcur *w, uint8_t *buf, size_t cap)
{
	w->p = buf;
	w->rem = buf != NULL ? cap : 0;
	w->err = 0;
}

static uint8_t *
wc_take(struct wcur *w, size_t n)
{
	uint8_t *q;

	if (w->err != 0 || n > w->rem) {
		w->err = WIRE_ESPACE;
		return NULL;
	}
	q = w->p;
	w->p += n;
	w->rem -= n;
	return q;
}

static void
wc_u8(struct wcur *w, uint8_t v)
{
	uint8_t *q = wc_take(w, 1);

	if (q != NULL)
		q[0] = v;
}

static void
wc_u16(struct wcur *w, uint16_t v)
{
	uint8_t *q = wc_take(w, 2);

	if (q != NULL)
		bs_put16(q, v);
}

static void
wc_u32(struct wcur *w, uint32_t v)
{
	uint8_t *q = wc_take(w, 4);

	if (q != NULL)
		bs_put32(q, v);
}

static void
wc_u64(struct wcur *w, uint64_t v)
{
	uint8_t *q = wc_take(w, 8);

	if (q != NULL)
		bs_put64(q, v);
}

/* memmove: a caller may hand us bytes from the buffer being written. */
static void
wc_bytes(struct wcur *w, const uint8_t *src, size_t n)
{
	uint8_t *q = wc_take(w, n);

	if (q != NULL && n != 0)
		memmove(q, src, n);
}

static void
wc_zero(struct wcur *w, size_t n)
{
	uint8_t *q = wc_take(w, n);

	if (q != NULL)
		memset(q, 0, n);
}

/* ---- common ------------------------------------------------------------ */

const char *
wire_strerror(int err)
{
	switch (err) {
	case WIRE_OK:		return "no error";
	case WIRE_ETRUNC:	return "frame truncated";
	case WIRE_EVERSION:	return "unsupported protocol version";
	case WIRE_ETYPE:	return "unknown or unexpected frame type";
	case WIRE_ERESERVED:
		return "reserved field or unknown flag not zero";
	case WIRE_ECOUNT:	return "count out of range";
	case WIRE_ELEN:
		return "length odd, too large or inconsistent";
	case WIRE_ERANGE:	return "value out of range";
	case WIRE_EADDR:	return "invalid address";
	case WIRE_EVID:		return "invalid VLAN id";
	case WIRE_EAUTH:	return "unknown link-auth type";
	case WIRE_EDUP:		return "duplicate item";
	case WIRE_ECERT:	return "malformed certificate or revocation";
	case WIRE_ETRAILING:	return "trailing bytes after the frame";
	case WIRE_EPADDING:	return "Ethernet padding not zero";
	case WIRE_ETOOLONG:	return "frame too long";
	case WIRE_ESPACE:	return "output buffer too small";
	case WIRE_EINVAL:	return "invalid argument";
	}
	return "unknown wire error";
}

int
wire_peek(const uint8_t *p, size_t len, uint8_t *type)
{
	if (p == NULL || len < WIRE_HDR_LEN)
		return WIRE_ETRUNC;
	switch (p[0]) {
	case WIRE_T_HELLO:
		if (p[1] != WIRE_HELLO_VERSION)
			return WIRE_EVERSION;
		*type = p[0];
		return WIRE_OK;
	case WIRE_T_OGM:
		if (p[1] != WIRE_OGM_VERSION)
			return WIRE_EVERSION;
		*type = p[0];
		return WIRE_OK;
	case WIRE_T_UNICAST:
	case WIRE_T_BCAST:
	case WIRE_T_ECHO:
	case WIRE_T_TRACE:
	case WIRE_T_TTLX:
	case WIRE_T_FRAG:
		if (p[1] != WIRE_DATA_VERSION)
			return WIRE_EVERSION;
		*type = p[0];
		return WIRE_OK;
	}
	return WIRE_ETYPE;
}

int
wire_addr_is_mesh(const uint8_t addr[static BS_ADDR_LEN])
{
	/* Locally administered bit set, multicast bit clear (bs_mesh_addr). */
	return (addr[0] & 0x03) == 0x02;
}

int
wire_mac_is_unicast(const uint8_t mac[static BS_ADDR_LEN])
{
	static const uint8_t zero[BS_ADDR_LEN];

	return (mac[0] & 0x01) == 0 && memcmp(mac, zero, BS_ADDR_LEN) != 0;
}

int
wire_sig_append(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t sig[static BS_SIG_LEN])
{
	if (buf == NULL || *len > cap)
		return WIRE_EINVAL;
	if (BS_SIG_LEN > cap - *len)
		return WIRE_ESPACE;
	memmove(buf + *len, sig, BS_SIG_LEN);
	*len += BS_SIG_LEN;
	return WIRE_OK;
}

static int
interval_ok(unsigned ms)
{
	return ms >= WIRE_INTERVAL_MIN && ms <= WIRE_INTERVAL_MAX;
}

/* Format check of a certificate at a parse cursor. */
static const uint8_t *
rc_cert(struct rcur *c, const char *field)
{
	size_t at = c->off;
	const uint8_t *q = rc_take(c, BS_CERT_LEN, field);
	const char *why;

	if (q != NULL && (why = bs_cert_format_problem(q, BS_CERT_LEN)) != NULL)
		rc_fail(c, WIRE_ECERT, why, at);
	return q;
}

/* ---- link trailer (OGM frames and HELLOs) ------------------------------------ */

static void
trailer_tag(struct rcur *c, struct wire_trailer *t, unsigned i)
{
	size_t at = c->off;
	unsigned j;

	t->tags[i].keyid = rc_take(c, BS_KEYID_LEN, "tag key id");
	t->tags[i].tag = rc_take(c, BS_TAG_LEN, "tag");
	for (j = 0; c->err == 0 && j < i; j++)
		if (memcmp(t->tags[j].keyid, t->tags[i].keyid,
		    BS_KEYID_LEN) == 0)
			rc_fail(c, WIRE_EDUP, "tag key id", at);
}

/*
 * The link trailer of an OGM frame (with_counter: the 8-byte frame
 * counter in its header) or a HELLO (without: its epoch and sequence
 * number are the counter).
 */
static void
link_trailer(struct rcur *c, const uint8_t *frame, struct wire_trailer *t,
    int with_counter)
{
	size_t at = c->off;
	unsigned i, lo = 0, hi = 0;

	t->auth = rc_u8(c, "auth type");
	if (c->err == 0 && t->auth != WIRE_AUTH_MAC && t->auth != WIRE_AUTH_SIG)
		rc_fail(c, WIRE_EAUTH, "auth type", at);
	if (t->auth == WIRE_AUTH_MAC) {
		lo = 1;
		hi = WIRE_MAX_TAGS;
	}
	t->num_tags = rc_u8_in(c, "num_tags", lo, hi, WIRE_ECOUNT);
	rc_zero(c, 2, "trailer reserved");
	if (with_counter)
		t->counter = rc_u64(c, "frame counter");
	t->covered = frame;
	t->covered_len = c->off;
	if (t->auth == WIRE_AUTH_SIG)
		t->sig = rc_take(c, BS_SIG_LEN, with_counter ?
		    "link signature" : "signature");
	for (i = 0; c->err == 0 && i < t->num_tags; i++)
		trailer_tag(c, t, i);
}

/* ---- HELLO ------------------------------------------------------------- */

static void
hello_neigh(struct rcur *c, struct wire_hello *h, unsigned i)
{
	size_t at = c->off;
	unsigned j;

	h->neigh[i].addr = rc_mesh_addr(c, "neighbour address");
	h->neigh[i].rx_count = (uint8_t)rc_u8_in(c, "neighbour rx_count", 0,
	    WIRE_RX_WINDOW, WIRE_ERANGE);
	rc_zero(c, 1, "neighbour reserved");
	for (j = 0; c->err == 0 && j < i; j++)
		if (memcmp(h->neigh[j].addr, h->neigh[i].addr,
		    BS_ADDR_LEN) == 0)
			rc_fail(c, WIRE_EDUP, "neighbour address", at);
}

static void
hello_want(struct rcur *c, struct wire_hello *h, unsigned i)
{
	size_t at = c->off;
	unsigned j;

	h->want[i] = rc_mesh_addr(c, "wanted originator");
	for (j = 0; c->err == 0 && j < i; j++)
		if (memcmp(h->want[j], h->want[i], BS_ADDR_LEN) == 0)
			rc_fail(c, WIRE_EDUP, "wanted originator", at);
}

/* Two mesh addresses in list[0..n) alike, or one that is not a mesh address. */
static int
addrs_bad(const struct wire_hello_neigh *nb, const uint8_t *const *list,
    unsigned n)
{
	unsigned i, j;

	for (i = 0; i < n; i++) {
		const uint8_t *a = nb != NULL ? nb[i].addr : list[i];

		if (a == NULL || !wire_addr_is_mesh(a))
			return 1;
		for (j = 0; j < i; j++)
			if (memcmp(nb != NULL ? nb[j].addr : list[j], a,
			    BS_ADDR_LEN) == 0)
				return 1;
	}
	return 0;
}

int
wire_hello_parse(const uint8_t *p, size_t len, struct wire_hello *h)
{
	struct rcur c;
	unsigned i;

	memset(h, 0, sizeof(*h));
	rc_init(&c, p, len);
	rc_hdr_v(&c, WIRE_T_HELLO, WIRE_HELLO_VERSION);
	h->flags = rc_flags(&c, "flags", WIRE_HELLO_F_MASK);
	h->num_neigh = rc_u8_in(&c, "num_neigh", 0, WIRE_HELLO_MAX_NEIGH,
	    WIRE_ECOUNT);
	h->pk = rc_take(&c, BS_PK_LEN, "public key");
	h->ifmac = rc_unicast_mac(&c, "interface MAC");
	h->interval_ms = (uint16_t)rc_u16_in(&c, "hello interval",
	    WIRE_INTERVAL_MIN, WIRE_INTERVAL_MAX, WIRE_ERANGE);
	h->epoch = rc_epoch(&c, "epoch");
	h->seqno = rc_u32(&c, "seqno");
	h->salt = rc_take(&c, BS_LINKSALT_LEN, "link salt");
	for (i = 0; c.err == 0 && i < h->num_neigh; i++)
		hello_neigh(&c, h, i);
	if (h->flags & WIRE_HELLO_F_CERT)
		h->cert = rc_cert(&c, "certificate");
	if (h->flags & WIRE_HELLO_F_WANT) {
		h->num_want = rc_u8_in(&c, "num_want", 1, WIRE_HELLO_MAX_WANT,
		    WIRE_ECOUNT);
		for (i = 0; c.err == 0 && i < h->num_want; i++)
			hello_want(&c, h, i);
	}
	link_trailer(&c, p, &h->tr, 0);
	h->tr.counter = (uint64_t)h->epoch << 32 | h->seqno;
	h->signed_ptr = h->tr.covered;
	h->signed_len = h->tr.covered_len;
	h->sig = h->tr.sig;
	rc_end(&c);
	h->len = c.off;
	return rc_done(&c, &h->where);
}

/* The rules wire_hello_parse() applies, on builder input. */
static int
hello_check(const struct wire_hello *h)
{
	unsigned i;

	if (h->pk == NULL || h->ifmac == NULL || h->salt == NULL ||
	    !wire_mac_is_unicast(h->ifmac))
		return WIRE_EINVAL;
	if (!interval_ok(h->interval_ms) || h->num_neigh > WIRE_HELLO_MAX_NEIGH)
		return WIRE_EINVAL;
	if (h->cert != NULL && bs_cert_format_problem(h->cert,
	    BS_CERT_LEN) != NULL)
		return WIRE_EINVAL;
	if (h->tr.auth == WIRE_AUTH_MAC ? h->tr.num_tags < 1 ||
	    h->tr.num_tags > WIRE_MAX_TAGS :
	    (h->tr.auth != 0 && h->tr.auth != WIRE_AUTH_SIG) ||
	    h->tr.num_tags != 0)
		return WIRE_EINVAL;
	if (h->num_want > WIRE_HELLO_MAX_WANT ||
	    addrs_bad(h->neigh, NULL, h->num_neigh) ||
	    addrs_bad(NULL, h->want, h->num_want))
		return WIRE_EINVAL;
	for (i = 0; i < h->num_neigh; i++)
		if (h->neigh[i].rx_count > WIRE_RX_WINDOW)
			return WIRE_EINVAL;
	return WIRE_OK;
}

int
wire_hello_build(uint8_t *buf, size_t cap, const struct wire_hello *h,
    size_t *len)
{
	struct wcur w;
	unsigned i;
	int r;

	if ((r = hello_check(h)) != WIRE_OK)
		return r;
	wc_init(&w, buf, cap);
	wc_u8(&w, WIRE_T_HELLO);
	wc_u8(&w, WIRE_HELLO_VERSION);
	wc_u8(&w, (uint8_t)((h->cert != NULL ? WIRE_HELLO_F_CERT : 0) |
	    (h->num_want > 0 ? WIRE_HELLO_F_WANT : 0) |
	    (h->flags & WIRE_HELLO_F_FRESH)));
	wc_u8(&w, (uint8_t)h->num_neigh);
	wc_bytes(&w, h->pk, BS_PK_LEN);
	wc_bytes(&w, h->ifmac, BS_ADDR_LEN);
	wc_u16(&w, h->interval_ms);
	wc_u32(&w, h->epoch);
	wc_u32(&w, h->seqno);
	wc_bytes(&w, h->salt, BS_LINKSALT_LEN);
	for (i = 0; i < h->num_neigh; i++) {
		wc_bytes(&w, h->neigh[i].addr, BS_ADDR_LEN);
		wc_u8(&w, h->neigh[i].rx_count);
		wc_zero(&w, 1);
	}
	if (h->cert != NULL)
		wc_bytes(&w, h->cert, BS_CERT_LEN);
	if (h->num_want > 0)
		wc_u8(&w, (uint8_t)h->num_want);
	for (i = 0; i < h->num_want; i++)
		wc_bytes(&w, h->want[i], BS_ADDR_LEN);
	wc_u8(&w, h->tr.auth == WIRE_AUTH_MAC ? WIRE_AUTH_MAC : WIRE_AUTH_SIG);
	wc_u8(&w, (uint8_t)h->tr.num_tags);
	wc_zero(&w, 2);
	if (w.err != 0)
		return w.err;
	*len = cap - w.rem;
	return WIRE_OK;
}

int
wire_tag_append(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t keyid[static BS_KEYID_LEN],
    const uint8_t tag[static BS_TAG_LEN])
{
	if (*len > cap || cap - *len < WIRE_TAG_ENTRY_LEN)
		return WIRE_ESPACE;
	memmove(buf + *len, keyid, BS_KEYID_LEN);
	memmove(buf + *len + BS_KEYID_LEN, tag, BS_TAG_LEN);
	*len += WIRE_TAG_ENTRY_LEN;
	return WIRE_OK;
}

/* ---- TVLV -------------------------------------------------------------- */

void
wire_tvlv_iter_init(struct wire_tvlv_iter *it, const uint8_t *region,
    size_t len)
{
	it->p = region;
	it->rem = region != NULL ? len : 0;
	it->off = 0;
}

int
wire_tvlv_next(struct wire_tvlv_iter *it, struct wire_tvlv *t)
{
	size_t vlen;

	if (it->rem == 0)
		return 0;
	if (it->rem < WIRE_TVLV_HDR_LEN)
		return WIRE_ELEN;
	vlen = bs_get16(it->p + 2);
	if ((vlen & 1) != 0 || vlen > it->rem - WIRE_TVLV_HDR_LEN)
		return WIRE_ELEN;
	t->type = it->p[0];
	t->version = it->p[1];
	t->len = (uint16_t)vlen;
	t->value = it->p + WIRE_TVLV_HDR_LEN;
	it->p += WIRE_TVLV_HDR_LEN + vlen;
	it->rem -= WIRE_TVLV_HDR_LEN + vlen;
	it->off += WIRE_TVLV_HDR_LEN + vlen;
	return 1;
}

int
wire_tvlv_is_known(const struct wire_tvlv *t)
{
	return t->version == WIRE_TVLV_VERSION &&
	    t->type >= WIRE_TVLV_GATEWAY && t->type <= WIRE_TVLV_MCAST;
}

static int
where_set(struct wire_where *w, int err, const char *field, size_t off)
{
	if (w != NULL) {
		w->field = field;
		w->off = off;
	}
	return err;
}

/* Offsets in w are within the container's value. */
static int
gw_check(const struct wire_tvlv *t, struct wire_where *w)
{
	if (t->len != WIRE_GW_LEN)
		return where_set(w, WIRE_ELEN, "gateway length", 0);
	if (bs_get32(t->value) == 0)
		return where_set(w, WIRE_ERANGE, "gateway bandwidth down", 0);
	if (bs_get32(t->value + 4) == 0)
		return where_set(w, WIRE_ERANGE, "gateway bandwidth up", 4);
	return WIRE_OK;
}

static int
vid_ok(uint16_t vid)
{
	unsigned id = vid & WIRE_VID_MASK;

	if (vid == 0)
		return 1;
	return (vid & ~(WIRE_VID_TAGGED | WIRE_VID_MASK)) == 0 &&
	    (vid & WIRE_VID_TAGGED) != 0 && id >= 1 && id <= 4094;
}

/* One entry's own fields (MAC, vid, flags, reserved). */
static int
tt_entry_fields(const uint8_t *e, size_t at, struct wire_where *w)
{
	if (!wire_mac_is_unicast(e))
		return where_set(w, WIRE_EADDR, "TT client MAC", at);
	if (!vid_ok(bs_get16(e + 6)))
		return where_set(w, WIRE_EVID, "TT vid", at + 6);
	if ((e[8] & ~WIRE_TT_F_MASK) != 0)
		return where_set(w, WIRE_ERESERVED, "TT flags", at + 8);
	if (e[9] != 0 || e[10] != 0 || e[11] != 0)
		return where_set(w, WIRE_ERESERVED, "TT reserved", at + 9);
	return WIRE_OK;
}

static int
tt_entry_check(const uint8_t *v, unsigned i, struct wire_where *w)
{
	const uint8_t *e = v + (size_t)i * WIRE_TT_ENTRY_LEN;
	size_t at = (size_t)i * WIRE_TT_ENTRY_LEN;
	unsigned j;
	int r;

	if ((r = tt_entry_fields(e, at, w)) != WIRE_OK)
		return r;
	/* A client (MAC, vid) appears once; n <= 64 keeps this cheap. */
	for (j = 0; j < i; j++)
		if (memcmp(v + (size_t)j * WIRE_TT_ENTRY_LEN, e, 8) == 0)
			return where_set(w, WIRE_EDUP, "TT entry", at);
	return WIRE_OK;
}

static int
tt_check(const struct wire_tvlv *t, struct wire_where *w)
{
	unsigned i, n;
	int r;

	if (t->len == 0 || t->len % WIRE_TT_ENTRY_LEN != 0)
		return where_set(w, WIRE_ELEN, "TT length", 0);
	n = t->len / WIRE_TT_ENTRY_LEN;
	if (n > WIRE_TT_MAX)
		return where_set(w, WIRE_ECOUNT, "TT entry count", 0);
	for (i = 0; i < n; i++)
		if ((r = tt_entry_check(t->value, i, w)) != WIRE_OK)
			return r;
	return WIRE_OK;
}

static uint32_t
fnv1a(uint32_t h, const uint8_t *p, size_t n)
{
	while (n-- > 0)
		h = (h ^ *p++) * 16777619u;
	return h;
}

unsigned
wire_tt_bucket(const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
    unsigned pages)
{
	uint8_t v[2];

	bs_put16(v, vid);
	return fnv1a(fnv1a(2166136261u, mac, BS_ADDR_LEN), v, 2) &
	    (pages - 1);
}

uint32_t
wire_tt_sum(const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
    uint8_t flags)
{
	uint8_t v[3];

	bs_put16(v, vid);
	v[2] = flags;
	return fnv1a(fnv1a(2166136261u, mac, BS_ADDR_LEN), v, 3);
}

static int
pages_ok(unsigned pages)
{
	return pages >= WIRE_TT_PAGES_MIN && pages <= WIRE_TT_PAGES_MAX &&
	    (pages & (pages - 1)) == 0;
}

/*
 * A TT page: header fields in range, entries well formed, in the page's
 * bucket and strictly ascending by (MAC, vid), which also rules out
 * repeats in O(n).
 */
static int
tt_page_check(const struct wire_tvlv *t, struct wire_tt_page *pg,
    struct wire_where *w)
{
	const uint8_t *v = t->value, *e;
	unsigned i, n;
	size_t at;
	int r;

	if (t->len < WIRE_TT_PAGE_HDR_LEN ||
	    (t->len - WIRE_TT_PAGE_HDR_LEN) % WIRE_TT_ENTRY_LEN != 0)
		return where_set(w, WIRE_ELEN, "TT page length", 0);
	n = (t->len - WIRE_TT_PAGE_HDR_LEN) / WIRE_TT_ENTRY_LEN;
	if (n > WIRE_TT_PAGE_MAX)
		return where_set(w, WIRE_ECOUNT, "TT page entry count", 0);
	if (bs_get16(v + 2) == 0 || bs_get16(v + 2) > WIRE_TT_TOTAL_MAX ||
	    bs_get16(v + 2) < n)
		return where_set(w, WIRE_ECOUNT, "TT page total", 2);
	if (!pages_ok(v[8]))
		return where_set(w, WIRE_ERANGE, "TT page count", 8);
	if (v[9] >= v[8])
		return where_set(w, WIRE_ERANGE, "TT page number", 9);
	if (v[10] != 0 || v[11] != 0)
		return where_set(w, WIRE_ERESERVED, "TT page reserved", 10);
	for (i = 0; i < n; i++) {
		at = WIRE_TT_PAGE_HDR_LEN + (size_t)i * WIRE_TT_ENTRY_LEN;
		e = v + at;
		if ((r = tt_entry_fields(e, at, w)) != WIRE_OK)
			return r;
		if (i > 0 && memcmp(e - WIRE_TT_ENTRY_LEN, e, 8) >= 0)
			return where_set(w, WIRE_EDUP, "TT page order", at);
		if (wire_tt_bucket(e, bs_get16(e + 6), v[8]) != v[9])
			return where_set(w, WIRE_ERANGE, "TT page bucket", at);
	}
	if (pg != NULL) {
		memset(pg, 0, sizeof(*pg));
		pg->ttvn = bs_get16(v);
		pg->total = bs_get16(v + 2);
		pg->sum = bs_get32(v + 4);
		pg->pages = v[8];
		pg->page = v[9];
		pg->n = n;
		pg->entries = v + WIRE_TT_PAGE_HDR_LEN;
	}
	return WIRE_OK;
}

int
wire_mcast_group_ok(const uint8_t mac[static BS_ADDR_LEN])
{
	if (mac[0] == 0x01 && mac[1] == 0x00 && mac[2] == 0x5e)
		return (mac[3] & 0x80) == 0;
	return mac[0] == 0x33 && mac[1] == 0x33;
}

/* MCAST: flags known, reserved 0, groups well formed, none twice. */
static int
mcast_check(const struct wire_tvlv *t, struct wire_where *w)
{
	const uint8_t *v = t->value;
	unsigned i, j, n;

	if (t->len < WIRE_MCAST_HDR_LEN ||
	    (t->len - WIRE_MCAST_HDR_LEN) % BS_ADDR_LEN != 0)
		return where_set(w, WIRE_ELEN, "MCAST length", 0);
	n = (t->len - WIRE_MCAST_HDR_LEN) / BS_ADDR_LEN;
	if (n > WIRE_MCAST_MAX)
		return where_set(w, WIRE_ECOUNT, "MCAST group count", 0);
	if ((v[0] & ~WIRE_MCAST_F_MASK) != 0)
		return where_set(w, WIRE_ERESERVED, "MCAST flags", 0);
	if (v[1] != 0)
		return where_set(w, WIRE_ERESERVED, "MCAST reserved", 1);
	for (i = 0; i < n; i++) {
		const uint8_t *g = v + WIRE_MCAST_HDR_LEN + (size_t)i *
		    BS_ADDR_LEN;

		if (!wire_mcast_group_ok(g))
			return where_set(w, WIRE_EADDR, "MCAST group",
			    WIRE_MCAST_HDR_LEN + (size_t)i * BS_ADDR_LEN);
		for (j = 0; j < i; j++)
			if (memcmp(v + WIRE_MCAST_HDR_LEN + (size_t)j *
			    BS_ADDR_LEN, g, BS_ADDR_LEN) == 0)
				return where_set(w, WIRE_EDUP, "MCAST group",
				    WIRE_MCAST_HDR_LEN + (size_t)i *
				    BS_ADDR_LEN);
	}
	return WIRE_OK;
}

static int
cert_check(const struct wire_tvlv *t, struct wire_where *w)
{
	const char *why;

	if (t->len != BS_CERT_LEN)
		return where_set(w, WIRE_ELEN, "certificate length", 0);
	if ((why = bs_cert_format_problem(t->value, t->len)) != NULL)
		return where_set(w, WIRE_ECERT, why, 0);
	return WIRE_OK;
}

static int
revoke_check(const struct wire_tvlv *t, struct wire_where *w)
{
	const char *why;

	if (t->len != BS_REVOKE_LEN)
		return where_set(w, WIRE_ELEN, "revocation length", 0);
	if ((why = bs_revoke_format_problem(t->value, t->len)) != NULL)
		return where_set(w, WIRE_ECERT, why, 0);
	return WIRE_OK;
}

static int
known_type(const struct wire_tvlv *t, uint8_t type)
{
	return wire_tvlv_is_known(t) && t->type == type;
}

int
wire_tvlv_gateway(const struct wire_tvlv *t, uint32_t *down, uint32_t *up)
{
	int r;

	if (!known_type(t, WIRE_TVLV_GATEWAY))
		return WIRE_ETYPE;
	if ((r = gw_check(t, NULL)) != WIRE_OK)
		return r;
	*down = bs_get32(t->value);
	*up = bs_get32(t->value + 4);
	return WIRE_OK;
}

int
wire_tvlv_tt(const struct wire_tvlv *t, const uint8_t **entries, unsigned *n)
{
	int r;

	if (!known_type(t, WIRE_TVLV_TT))
		return WIRE_ETYPE;
	if ((r = tt_check(t, NULL)) != WIRE_OK)
		return r;
	*entries = t->value;
	*n = t->len / WIRE_TT_ENTRY_LEN;
	return WIRE_OK;
}

int
wire_tvlv_cert(const struct wire_tvlv *t, const uint8_t **cert)
{
	int r;

	if (!known_type(t, WIRE_TVLV_CERT))
		return WIRE_ETYPE;
	if ((r = cert_check(t, NULL)) != WIRE_OK)
		return r;
	*cert = t->value;
	return WIRE_OK;
}

int
wire_tvlv_revoke(const struct wire_tvlv *t, const uint8_t **rec)
{
	int r;

	if (!known_type(t, WIRE_TVLV_REVOKE))
		return WIRE_ETYPE;
	if ((r = revoke_check(t, NULL)) != WIRE_OK)
		return r;
	*rec = t->value;
	return WIRE_OK;
}

void
wire_tt_get(const uint8_t *entries, unsigned i, struct wire_tt_entry *out)
{
	const uint8_t *e = entries + (size_t)i * WIRE_TT_ENTRY_LEN;

	out->mac = e;
	out->vid = bs_get16(e + 6);
	out->flags = e[8];
}

/* Decode one known container into out (w: offset within its value). */
static int
tvlv_decode(const struct wire_tvlv *t, struct wire_tvlvs *out,
    struct wire_where *w)
{
	int r;

	switch (t->type) {
	case WIRE_TVLV_GATEWAY:
		if ((r = gw_check(t, w)) == WIRE_OK) {
			out->gw_down = bs_get32(t->value);
			out->gw_up = bs_get32(t->value + 4);
		}
		return r;
	case WIRE_TVLV_TT:
		if ((r = tt_check(t, w)) == WIRE_OK) {
			out->tt = t->value;
			out->tt_count = t->len / WIRE_TT_ENTRY_LEN;
		}
		return r;
	case WIRE_TVLV_CERT:
		if ((r = cert_check(t, w)) == WIRE_OK)
			out->cert = t->value;
		return r;
	case WIRE_TVLV_TT_PAGE:
		return tt_page_check(t, &out->page, w);
	case WIRE_TVLV_MCAST:
		if ((r = mcast_check(t, w)) == WIRE_OK) {
			out->mcast_flags = t->value[0];
			out->mcast = t->value + WIRE_MCAST_HDR_LEN;
			out->mcast_count = (t->len - WIRE_MCAST_HDR_LEN) /
			    BS_ADDR_LEN;
		}
		return r;
	default:
		if ((r = revoke_check(t, w)) == WIRE_OK)
			out->revoke = t->value;
		return r;
	}
}

int
wire_tvlvs_parse(const uint8_t *region, size_t len, struct wire_tvlvs *out)
{
	struct wire_tvlv_iter it;
	struct wire_tvlv t;
	struct wire_where w;
	size_t at;
	int r;

	memset(out, 0, sizeof(*out));
	if (region == NULL && len != 0)
		return where_set(&out->where, WIRE_ETRUNC, "TVLV region", 0);
	if (len > WIRE_TVLV_MAX || (len & 1) != 0)
		return where_set(&out->where, WIRE_ELEN, "TVLV region length",
		    0);
	wire_tvlv_iter_init(&it, region, len);
	for (;;) {
		at = it.off;
		if ((r = wire_tvlv_next(&it, &t)) == 0)
			return WIRE_OK;
		if (r < 0)
			return where_set(&out->where, r, "TVLV length", at);
		if (!wire_tvlv_is_known(&t)) {
			out->unknown++;
			continue;
		}
		if ((out->present & (1u << t.type)) != 0)
			return where_set(&out->where, WIRE_EDUP, "TVLV type",
			    at);
		out->present |= 1u << t.type;
		/* A whole table and a page of one: which would hold? */
		if ((out->present & (1u << WIRE_TVLV_TT)) != 0 &&
		    (out->present & (1u << WIRE_TVLV_TT_PAGE)) != 0)
			return where_set(&out->where, WIRE_EDUP,
			    "TT with TT page", at);
		if ((r = tvlv_decode(&t, out, &w)) != WIRE_OK)
			return where_set(&out->where, r, w.field,
			    at + WIRE_TVLV_HDR_LEN + w.off);
	}
}

int
wire_tvlv_put(uint8_t *buf, size_t cap, size_t *len, uint8_t type,
    uint8_t version, const uint8_t *value, size_t vlen)
{
	struct wcur w;

	if (buf == NULL || *len > cap || (vlen & 1) != 0 ||
	    vlen > WIRE_TVLV_MAX - WIRE_TVLV_HDR_LEN ||
	    (value == NULL && vlen != 0))
		return WIRE_EINVAL;
	wc_init(&w, buf + *len, cap - *len);
	wc_u8(&w, type);
	wc_u8(&w, version);
	wc_u16(&w, (uint16_t)vlen);
	wc_bytes(&w, value, vlen);
	if (w.err != 0)
		return w.err;
	*len += WIRE_TVLV_HDR_LEN + vlen;
	return WIRE_OK;
}

int
wire_tvlv_put_gateway(uint8_t *buf, size_t cap, size_t *len, uint32_t down,
    uint32_t up)
{
	uint8_t v[WIRE_GW_LEN];

	if (down == 0 || up == 0)
		return WIRE_EINVAL;
	bs_put32(v, down);
	bs_put32(v + 4, up);
	return wire_tvlv_put(buf, cap, len, WIRE_TVLV_GATEWAY,
	    WIRE_TVLV_VERSION, v, sizeof(v));
}

int
wire_tvlv_put_tt(uint8_t *buf, size_t cap, size_t *len,
    const struct wire_tt_entry *e, unsigned n)
{
	uint8_t v[WIRE_TT_MAX * WIRE_TT_ENTRY_LEN];
	struct wire_tvlv t;
	unsigned i;

	if (n == 0 || n > WIRE_TT_MAX || e == NULL)
		return WIRE_EINVAL;
	memset(v, 0, sizeof(v));
	for (i = 0; i < n; i++) {
		if (e[i].mac == NULL)
			return WIRE_EINVAL;
		memcpy(v + (size_t)i * WIRE_TT_ENTRY_LEN, e[i].mac,
		    BS_ADDR_LEN);
		bs_put16(v + (size_t)i * WIRE_TT_ENTRY_LEN + 6, e[i].vid);
		v[(size_t)i * WIRE_TT_ENTRY_LEN + 8] = e[i].flags;
	}
	t.type = WIRE_TVLV_TT;
	t.version = WIRE_TVLV_VERSION;
	t.len = (uint16_t)(n * WIRE_TT_ENTRY_LEN);
	t.value = v;
	if (tt_check(&t, NULL) != WIRE_OK)
		return WIRE_EINVAL;
	return wire_tvlv_put(buf, cap, len, t.type, t.version, v, t.len);
}

int
wire_tvlv_put_tt_page(uint8_t *buf, size_t cap, size_t *len,
    const struct wire_tt_page *pg)
{
	uint8_t v[WIRE_TT_PAGE_HDR_LEN + WIRE_TT_PAGE_MAX * WIRE_TT_ENTRY_LEN];
	struct wire_tvlv t;
	uint8_t *e;
	unsigned i;

	if (pg == NULL || pg->n > WIRE_TT_PAGE_MAX ||
	    (pg->n > 0 && pg->e == NULL))
		return WIRE_EINVAL;
	memset(v, 0, sizeof(v));
	bs_put16(v, pg->ttvn);
	bs_put16(v + 2, pg->total);
	bs_put32(v + 4, pg->sum);
	v[8] = pg->pages;
	v[9] = pg->page;
	for (i = 0; i < pg->n; i++) {
		if (pg->e[i].mac == NULL)
			return WIRE_EINVAL;
		e = v + WIRE_TT_PAGE_HDR_LEN + (size_t)i * WIRE_TT_ENTRY_LEN;
		memcpy(e, pg->e[i].mac, BS_ADDR_LEN);
		bs_put16(e + 6, pg->e[i].vid);
		e[8] = pg->e[i].flags;
	}
	t.type = WIRE_TVLV_TT_PAGE;
	t.version = WIRE_TVLV_VERSION;
	t.len = (uint16_t)(WIRE_TT_PAGE_HDR_LEN + pg->n * WIRE_TT_ENTRY_LEN);
	t.value = v;
	if (tt_page_check(&t, NULL, NULL) != WIRE_OK)
		return WIRE_EINVAL;
	return wire_tvlv_put(buf, cap, len, t.type, t.version, v, t.len);
}

int
wire_tvlv_put_mcast(uint8_t *buf, size_t cap, size_t *len, uint8_t flags,
    const uint8_t *groups, unsigned n)
{
	uint8_t v[WIRE_MCAST_HDR_LEN + WIRE_MCAST_MAX * BS_ADDR_LEN];
	struct wire_tvlv t;

	if (n > WIRE_MCAST_MAX || (n > 0 && groups == NULL))
		return WIRE_EINVAL;
	v[0] = flags;
	v[1] = 0;
	if (n > 0)
		memcpy(v + WIRE_MCAST_HDR_LEN, groups, (size_t)n * BS_ADDR_LEN);
	t.type = WIRE_TVLV_MCAST;
	t.version = WIRE_TVLV_VERSION;
	t.len = (uint16_t)(WIRE_MCAST_HDR_LEN + n * BS_ADDR_LEN);
	t.value = v;
	if (mcast_check(&t, NULL) != WIRE_OK)
		return WIRE_EINVAL;
	return wire_tvlv_put(buf, cap, len, t.type, t.version, v, t.len);
}

int
wire_tvlv_put_cert(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t cert[static BS_CERT_LEN])
{
	if (bs_cert_format_problem(cert, BS_CERT_LEN) != NULL)
		return WIRE_EINVAL;
	return wire_tvlv_put(buf, cap, len, WIRE_TVLV_CERT, WIRE_TVLV_VERSION,
	    cert, BS_CERT_LEN);
}

int
wire_tvlv_put_revoke(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t rec[static BS_REVOKE_LEN])
{
	if (bs_revoke_format_problem(rec, BS_REVOKE_LEN) != NULL)
		return WIRE_EINVAL;
	return wire_tvlv_put(buf, cap, len, WIRE_TVLV_REVOKE,
	    WIRE_TVLV_VERSION, rec, BS_REVOKE_LEN);
}

/* ---- OGM: parsing ------------------------------------------------------ */

static void
ogm_mut(struct rcur *c, struct wire_ogm_mut *m)
{
	m->ttl = rc_u8(c, "ttl");
	m->tq = rc_u8(c, "tq");
	m->hops = (uint8_t)rc_u8_in(c, "hops", 0, BS_MAXHOPS, WIRE_ERANGE);
	m->kind = (uint8_t)rc_u8_in(c, "entry kind", WIRE_OGM_FULL,
	    WIRE_OGM_COMPACT, WIRE_ERANGE);
	m->prev_sender = rc_mesh_addr(c, "previous sender");
	m->chain = rc_take(c, BS_CHAIN_LEN, "hop-chain element");
}

/* tvlv_len: even and at most WIRE_TVLV_MAX. */
static size_t
rc_tvlv_len(struct rcur *c)
{
	size_t at = c->off;
	unsigned v = rc_u16_in(c, "tvlv_len", 0, WIRE_TVLV_MAX, WIRE_ELEN);

	if (c->err == 0 && (v & 1) != 0)
		rc_fail(c, WIRE_ELEN, "tvlv_len", at);
	return c->err == 0 ? v : 0;
}

/* The TVLV region: carved out, then walked on its own. */
static const uint8_t *
rc_tvlvs(struct rcur *c, size_t n, struct wire_tvlvs *tv)
{
	size_t at = c->off;
	const uint8_t *q = rc_take(c, n, "TVLVs");
	int r;

	if (q != NULL && (r = wire_tvlvs_parse(q, n, tv)) != WIRE_OK)
		rc_fail(c, r, tv->where.field, at + tv->where.off);
	return q;
}

/* Signed part and signature: the block a relay copies unchanged. */
static void
ogm_block(struct rcur *c, struct wire_ogm_entry *e)
{
	struct wire_ogm_signed *s = &e->sgn;
	size_t start = c->off;

	e->block = e->signed_ptr = c->p;
	s->pk = rc_take(c, BS_PK_LEN, "originator key");
	s->epoch = rc_epoch(c, "epoch");
	s->seqno = rc_u32(c, "seqno");
	s->flags = rc_flags(c, "entry flags", WIRE_OGM_FLAGS_MASK);
	rc_zero(c, 1, "entry reserved");
	s->interval_ms = (uint16_t)rc_u16_in(c, "OGM interval",
	    WIRE_INTERVAL_MIN, WIRE_INTERVAL_MAX, WIRE_ERANGE);
	s->anchor = rc_take(c, BS_CHAIN_LEN, "hop-chain anchor");
	s->tvlv_len = rc_tvlv_len(c);
	rc_zero(c, 2, "entry reserved");
	s->tvlv = rc_tvlvs(c, s->tvlv_len, &e->tv);
	e->signed_len = c->off - start;
	e->sig = rc_take(c, BS_SIG_LEN, "OGM signature");
	e->block_len = c->off - start;
}

/* A compact entry's block: the originator's address and seqno. */
static void
ogm_compact(struct rcur *c, struct wire_ogm_entry *e)
{
	size_t start = c->off;

	e->block = c->p;
	e->cp.orig = rc_mesh_addr(c, "originator address");
	e->cp.seqno = rc_u32(c, "seqno");
	e->block_len = c->off - start;
}

static void
ogm_entry(struct rcur *c, struct wire_ogm_entry *e)
{
	size_t start = c->off;

	e->raw = c->p;
	ogm_mut(c, &e->mut);
	if (c->err == 0 && e->mut.kind == WIRE_OGM_COMPACT)
		ogm_compact(c, e);
	else
		ogm_block(c, e);
	e->raw_len = c->off - start;
}

/* Header fields after type/version; returns num_entries (0 on error). */
static unsigned
ogm_hdr(struct rcur *c, size_t len, const uint8_t **sender)
{
	unsigned n;

	rc_hdr(c, WIRE_T_OGM);
	if (c->err == 0 && len > WIRE_OGM_MAX_LEN)
		rc_fail(c, WIRE_ETOOLONG, "frame length", WIRE_OGM_MAX_LEN);
	n = rc_u8_in(c, "num_entries", 1, WIRE_OGM_MAX_ENTRIES, WIRE_ECOUNT);
	rc_zero(c, 1, "header reserved");
	*sender = rc_mesh_addr(c, "sender");
	rc_zero(c, 2, "header reserved");
	return c->err == 0 ? n : 0;
}

int
wire_ogm_parse(const uint8_t *p, size_t len, struct wire_ogm *o)
{
	struct rcur c;
	unsigned i;

	memset(o, 0, sizeof(*o));
	rc_init(&c, p, len);
	o->num_entries = ogm_hdr(&c, len, &o->sender);
	for (i = 0; c.err == 0 && i < o->num_entries; i++)
		ogm_entry(&c, &o->e[i]);
	link_trailer(&c, p, &o->tr, 1);
	rc_end(&c);
	o->len = c.off;
	return rc_done(&c, &o->where);
}

int
wire_trailer_find(const struct wire_trailer *t,
    const uint8_t keyid[static BS_KEYID_LEN])
{
	unsigned i;

	if (t->auth != WIRE_AUTH_MAC)
		return -1;
	for (i = 0; i < t->num_tags && i < WIRE_MAX_TAGS; i++)
		if (memcmp(t->tags[i].keyid, keyid, BS_KEYID_LEN) == 0)
			return (int)i;
	return -1;
}

int
wire_ogm_entry_offset(const uint8_t *frame, size_t len, unsigned idx,
    size_t *off)
{
	struct wire_ogm_entry e;
	const uint8_t *sender;
	struct rcur c;
	unsigned i, n;
	size_t start;

	rc_init(&c, frame, len);
	n = ogm_hdr(&c, len, &sender);
	for (i = 0; c.err == 0 && i < n; i++) {
		start = c.off;
		ogm_entry(&c, &e);
		if (c.err == 0 && i == idx) {
			*off = start;
			return WIRE_OK;
		}
	}
	return c.err != 0 ? c.err : WIRE_ERANGE;
}

/* ---- OGM: one entry on its own, fields not judged ---------------------- */

/* n reserved bytes read without judging them: their OR. */
static uint8_t
rc_or(struct rcur *c, size_t n, const char *field)
{
	const uint8_t *q = rc_take(c, n, field);
	uint8_t v = 0;
	size_t i;

	for (i = 0; q != NULL && i < n; i++)
		v |= q[i];
	return v;
}

/* The mutable part as ogm_mut() reads it. */
static void
ogm_mut_raw(struct rcur *c, struct wire_ogm_mut *m)
{
	m->ttl = rc_u8(c, "ttl");
	m->tq = rc_u8(c, "tq");
	m->hops = rc_u8(c, "hops");
	m->kind = rc_u8(c, "entry kind");
	m->prev_sender = rc_take(c, BS_ADDR_LEN, "previous sender");
	m->chain = rc_take(c, BS_CHAIN_LEN, "hop-chain element");
}

int
wire_ogm_mut_get(const uint8_t *src, size_t avail, struct wire_ogm_mut *m)
{
	struct rcur c;

	rc_init(&c, src, avail);
	ogm_mut_raw(&c, m);
	return c.err;
}

int
wire_ogm_head_get(const uint8_t *e, size_t len, struct wire_ogm_head *h)
{
	struct rcur c;

	memset(h, 0, sizeof(*h));
	if (e == NULL || len < WIRE_OGM_MUT_LEN)
		return WIRE_ETRUNC;
	rc_init(&c, e, len);
	ogm_mut_raw(&c, &h->mut);
	if (h->mut.kind == WIRE_OGM_COMPACT) {
		h->orig = rc_take(&c, BS_ADDR_LEN, "originator address");
		(void)rc_u32(&c, "seqno");
		return c.err;
	}
	if (h->mut.kind != WIRE_OGM_FULL)
		return WIRE_ERANGE;
	if (len < WIRE_OGM_ENTRY_MIN)
		return WIRE_ETRUNC;
	h->pk = rc_take(&c, BS_PK_LEN, "originator key");
	(void)rc_u32(&c, "epoch");
	(void)rc_u32(&c, "seqno");
	h->flags = rc_u8(&c, "entry flags");
	h->sgn_reserved = rc_or(&c, 1, "entry reserved");
	h->interval_ms = rc_u16(&c, "OGM interval");
	(void)rc_take(&c, BS_CHAIN_LEN, "hop-chain anchor");
	h->tvlv_len = rc_u16(&c, "tvlv_len");
	h->sgn_reserved |= rc_or(&c, 2, "entry reserved");
	return c.err;
}

/* ---- OGM: building ----------------------------------------------------- */

static int
ogm_signed_check(const struct wire_ogm_signed *s)
{
	struct wire_tvlvs tv;

	if (s->pk == NULL || s->anchor == NULL)
		return WIRE_EINVAL;
	if ((s->flags & ~WIRE_OGM_FLAGS_MASK) != 0 ||
	    !interval_ok(s->interval_ms))
		return WIRE_EINVAL;
	if (s->tvlv_len > WIRE_TVLV_MAX || (s->tvlv_len & 1) != 0 ||
	    (s->tvlv == NULL && s->tvlv_len != 0))
		return WIRE_EINVAL;
	if (wire_tvlvs_parse(s->tvlv, s->tvlv_len, &tv) != WIRE_OK)
		return WIRE_EINVAL;
	return WIRE_OK;
}

int
wire_ogm_signed_build(uint8_t *buf, size_t cap,
    const struct wire_ogm_signed *s, size_t *len)
{
	struct wcur w;
	int r;

	if ((r = ogm_signed_check(s)) != WIRE_OK)
		return r;
	wc_init(&w, buf, cap);
	wc_bytes(&w, s->pk, BS_PK_LEN);
	wc_u32(&w, s->epoch);
	wc_u32(&w, s->seqno);
	wc_u8(&w, s->flags);
	wc_zero(&w, 1);
	wc_u16(&w, s->interval_ms);
	wc_bytes(&w, s->anchor, BS_CHAIN_LEN);
	wc_u16(&w, (uint16_t)s->tvlv_len);
	wc_zero(&w, 2);
	wc_bytes(&w, s->tvlv, s->tvlv_len);
	if (w.err != 0)
		return w.err;
	*len = cap - w.rem;
	return WIRE_OK;
}

int
wire_ogm_mut_put(uint8_t *dst, size_t avail, const struct wire_ogm_mut *m)
{
	struct wcur w;

	if (m->hops > BS_MAXHOPS || m->kind > WIRE_OGM_COMPACT ||
	    m->prev_sender == NULL || m->chain == NULL ||
	    !wire_addr_is_mesh(m->prev_sender))
		return WIRE_EINVAL;
	wc_init(&w, dst, avail);
	wc_u8(&w, m->ttl);
	wc_u8(&w, m->tq);
	wc_u8(&w, m->hops);
	wc_u8(&w, m->kind);
	wc_bytes(&w, m->prev_sender, BS_ADDR_LEN);
	wc_bytes(&w, m->chain, BS_CHAIN_LEN);
	return w.err;
}

int
wire_ogm_begin(struct wire_ogm_builder *b, uint8_t *buf, size_t cap,
    const uint8_t sender[static BS_ADDR_LEN])
{
	struct wcur w;

	memset(b, 0, sizeof(*b));
	if (buf == NULL || !wire_addr_is_mesh(sender))
		return WIRE_EINVAL;
	cap = cap < WIRE_OGM_MAX_LEN ? cap : WIRE_OGM_MAX_LEN;
	wc_init(&w, buf, cap);
	wc_u8(&w, WIRE_T_OGM);
	wc_u8(&w, WIRE_OGM_VERSION);
	wc_u8(&w, 0);		/* num_entries: wire_ogm_add() counts */
	wc_zero(&w, 1);
	wc_bytes(&w, sender, BS_ADDR_LEN);
	wc_zero(&w, 2);
	if (w.err != 0)
		return w.err;
	b->buf = buf;
	b->cap = cap;
	b->len = WIRE_OGM_HDR_LEN;
	return WIRE_OK;
}

/*
 * A block must be exactly one well-formed signed part plus signature, or
 * for kind WIRE_OGM_COMPACT one compact block.
 */
static int
ogm_block_check(uint8_t kind, const uint8_t *block, size_t len)
{
	struct wire_ogm_entry e;
	struct rcur c;

	rc_init(&c, block, len);
	if (kind == WIRE_OGM_COMPACT)
		ogm_compact(&c, &e);
	else
		ogm_block(&c, &e);
	rc_end(&c);
	return c.err;
}

int
wire_ogm_compact_build(uint8_t out[static WIRE_OGM_COMPACT_BLOCK],
    const uint8_t orig[static BS_ADDR_LEN], uint32_t seqno)
{
	struct wcur w;

	if (!wire_addr_is_mesh(orig))
		return WIRE_EINVAL;
	wc_init(&w, out, WIRE_OGM_COMPACT_BLOCK);
	wc_bytes(&w, orig, BS_ADDR_LEN);
	wc_u32(&w, seqno);
	return w.err;
}

int
wire_ogm_add(struct wire_ogm_builder *b, const struct wire_ogm_mut *m,
    const uint8_t *block, size_t block_len)
{
	uint8_t *dst;
	int r;

	if (b->buf == NULL || b->trailer_off != 0)
		return WIRE_EINVAL;
	if (b->num_entries >= WIRE_OGM_MAX_ENTRIES)
		return WIRE_ECOUNT;
	if (block == NULL || m->kind > WIRE_OGM_COMPACT ||
	    ogm_block_check(m->kind, block, block_len) != WIRE_OK)
		return WIRE_EINVAL;
	if (WIRE_OGM_MUT_LEN > b->cap - b->len ||
	    block_len > b->cap - b->len - WIRE_OGM_MUT_LEN)
		return WIRE_ESPACE;
	dst = b->buf + b->len;
	if ((r = wire_ogm_mut_put(dst, WIRE_OGM_MUT_LEN, m)) != WIRE_OK)
		return r;
	memmove(dst + WIRE_OGM_MUT_LEN, block, block_len);
	b->entry_off[b->num_entries++] = b->len;
	b->len += WIRE_OGM_MUT_LEN + block_len;
	b->buf[2] = (uint8_t)b->num_entries;
	return WIRE_OK;
}

int
wire_ogm_set_mut(struct wire_ogm_builder *b, unsigned idx,
    const struct wire_ogm_mut *m)
{
	if (b->buf == NULL || b->trailer_off != 0)
		return WIRE_EINVAL;
	if (idx >= b->num_entries)
		return WIRE_ERANGE;
	return wire_ogm_mut_put(b->buf + b->entry_off[idx], WIRE_OGM_MUT_LEN,
	    m);
}

size_t
wire_trailer_len(uint8_t auth, unsigned num_tags)
{
	if (auth == WIRE_AUTH_MAC && num_tags >= 1 && num_tags <= WIRE_MAX_TAGS)
		return WIRE_TRAILER_HDR_LEN + num_tags * WIRE_TAG_ENTRY_LEN;
	if (auth == WIRE_AUTH_SIG && num_tags == 0)
		return WIRE_TRAILER_HDR_LEN + BS_SIG_LEN;
	return 0;
}

int
wire_ogm_trailer(struct wire_ogm_builder *b, uint8_t auth, unsigned num_tags,
    uint64_t counter, const uint8_t **covered, size_t *covered_len)
{
	size_t tl = wire_trailer_len(auth, num_tags);
	struct wcur w;

	if (b->buf == NULL || b->trailer_off != 0 || b->num_entries == 0 ||
	    tl == 0)
		return WIRE_EINVAL;
	if (tl > b->cap - b->len)
		return WIRE_ESPACE;
	wc_init(&w, b->buf + b->len, WIRE_TRAILER_HDR_LEN);
	wc_u8(&w, auth);
	wc_u8(&w, (uint8_t)num_tags);
	wc_zero(&w, 2);
	wc_u64(&w, counter);
	if (w.err != 0)
		return w.err;
	b->trailer_off = b->len;
	b->len += WIRE_TRAILER_HDR_LEN;
	b->auth = auth;
	b->num_tags = num_tags;
	if (covered != NULL)
		*covered = b->buf;
	if (covered_len != NULL)
		*covered_len = b->len;
	return WIRE_OK;
}

int
wire_ogm_add_tag(struct wire_ogm_builder *b,
    const uint8_t keyid[static BS_KEYID_LEN],
    const uint8_t tag[static BS_TAG_LEN])
{
	const uint8_t *tags;
	unsigned i;

	if (b->buf == NULL || b->trailer_off == 0 || b->auth != WIRE_AUTH_MAC ||
	    b->tags_done >= b->num_tags)
		return WIRE_EINVAL;
	tags = b->buf + b->trailer_off + WIRE_TRAILER_HDR_LEN;
	for (i = 0; i < b->tags_done; i++)
		if (memcmp(tags + (size_t)i * WIRE_TAG_ENTRY_LEN, keyid,
		    BS_KEYID_LEN) == 0)
			return WIRE_EDUP;
	/* Room for every tag was checked by wire_ogm_trailer(). */
	if (WIRE_TAG_ENTRY_LEN > b->cap - b->len)
		return WIRE_ESPACE;
	memmove(b->buf + b->len, keyid, BS_KEYID_LEN);
	memmove(b->buf + b->len + BS_KEYID_LEN, tag, BS_TAG_LEN);
	b->len += WIRE_TAG_ENTRY_LEN;
	b->tags_done++;
	return WIRE_OK;
}

int
wire_ogm_add_sig(struct wire_ogm_builder *b,
    const uint8_t sig[static BS_SIG_LEN])
{
	if (b->buf == NULL || b->trailer_off == 0 || b->auth != WIRE_AUTH_SIG ||
	    b->sig_done)
		return WIRE_EINVAL;
	if (wire_sig_append(b->buf, b->cap, &b->len, sig) != WIRE_OK)
		return WIRE_ESPACE;
	b->sig_done = 1;
	return WIRE_OK;
}

int
wire_ogm_finish(struct wire_ogm_builder *b, size_t *len)
{
	if (b->buf == NULL || b->trailer_off == 0)
		return WIRE_EINVAL;
	if (b->auth == WIRE_AUTH_MAC ? b->tags_done != b->num_tags
	    : !b->sig_done)
		return WIRE_EINVAL;
	*len = b->len;
	return WIRE_OK;
}

/* ---- data frames, version 2 ---------------------------------------------- */

static void
rc_e2e(struct rcur *c, struct wire_e2e *e)
{
	e->dst = rc_mesh_addr(c, "destination");
	e->src = rc_mesh_addr(c, "source");
	e->src_epoch = rc_epoch(c, "source epoch");
	e->dst_epoch = rc_epoch(c, "destination epoch");
	e->counter = rc_u64(c, "counter");
}

int
wire_is_sealed(uint8_t type)
{
	return type == WIRE_T_UNICAST || type == WIRE_T_ECHO ||
	    type == WIRE_T_TRACE || type == WIRE_T_TTLX;
}

/* The plaintext lengths a sealed frame of type may carry: [*lo, *hi]. */
static void
wire_sealed_pt_range(uint8_t type, size_t *lo, size_t *hi)
{
	if (type == WIRE_T_ECHO || type == WIRE_T_TRACE)
		*lo = *hi = WIRE_ECHO_BODY_LEN;
	else if (type == WIRE_T_TTLX)
		*lo = *hi = WIRE_TTLX_BODY_LEN;
	else {
		*lo = WIRE_INNER_MIN;
		*hi = WIRE_INNER_MAX;
	}
}

int
wire_sealed_parse(const uint8_t *p, size_t len, struct wire_sealed *s)
{
	struct rcur c;
	size_t lo, hi;

	memset(s, 0, sizeof(*s));
	if (p == NULL || len < WIRE_HDR_LEN) {
		rc_init(&c, p, 0);
		rc_fail(&c, WIRE_ETRUNC, "frame header", 0);
		return rc_done(&c, &s->where);
	}
	s->type = wire_is_sealed(p[0]) ? p[0] : WIRE_T_UNICAST;
	rc_init(&c, p, len);
	rc_hdr_v(&c, s->type, WIRE_DATA_VERSION);
	s->ttl = rc_u8(&c, "ttl");
	rc_zero(&c, 1, "reserved");
	s->keyid = rc_take(&c, BS_KEYID_LEN, "hop key id");
	s->hop_counter = rc_u64(&c, "hop counter");
	s->hop_tag = rc_take(&c, BS_HOPTAG_LEN, "hop tag");
	rc_e2e(&c, &s->e);
	if (c.err == 0) {
		wire_sealed_pt_range(s->type, &lo, &hi);
		if (c.rem < BS_AEAD_TAG_LEN + lo)
			rc_fail(&c, WIRE_ETRUNC, "ciphertext", c.off);
		else if (c.rem > BS_AEAD_TAG_LEN + hi)
			rc_fail(&c, WIRE_ETOOLONG, "ciphertext", c.off);
		else
			s->ct_len = c.rem - BS_AEAD_TAG_LEN;
	}
	s->ct = rc_take(&c, s->ct_len, "ciphertext");
	s->aead_tag = rc_take(&c, BS_AEAD_TAG_LEN, "AEAD tag");
	s->len = c.off;
	rc_end(&c);
	return rc_done(&c, &s->where);
}

int
wire_sealed_layout(uint8_t *buf, size_t cap, uint8_t type,
    const struct wire_e2e *e, size_t pt_len, size_t *len)
{
	struct wcur w;
	size_t lo, hi;

	if (!wire_is_sealed(type) || e->dst == NULL ||
	    e->src == NULL || !wire_addr_is_mesh(e->dst) ||
	    !wire_addr_is_mesh(e->src) || e->src_epoch == 0 ||
	    e->dst_epoch == 0)
		return WIRE_EINVAL;
	wire_sealed_pt_range(type, &lo, &hi);
	if (pt_len < lo || pt_len > hi)
		return WIRE_EINVAL;
	if (buf == NULL || cap < WIRE_SEALED_OVERHEAD ||
	    pt_len > cap - WIRE_SEALED_OVERHEAD)
		return WIRE_ESPACE;
	wc_init(&w, buf, WIRE_SEALED_CT_OFF);
	wc_u8(&w, type);
	wc_u8(&w, WIRE_DATA_VERSION);
	wc_zero(&w, WIRE_HOP_LEN - 2);
	wc_bytes(&w, e->dst, BS_ADDR_LEN);
	wc_bytes(&w, e->src, BS_ADDR_LEN);
	wc_u32(&w, e->src_epoch);
	wc_u32(&w, e->dst_epoch);
	wc_u64(&w, e->counter);
	if (w.err == WIRE_OK)
		*len = WIRE_SEALED_OVERHEAD + pt_len;
	return w.err;
}

void
wire_sealed_set_hop(uint8_t *frame, uint8_t ttl,
    const uint8_t keyid[static BS_KEYID_LEN], uint64_t counter)
{
	frame[2] = ttl;
	frame[3] = 0;
	memcpy(frame + WIRE_HOP_KEYID_OFF, keyid, BS_KEYID_LEN);
	bs_put64(frame + WIRE_HOP_CTR_OFF, counter);
}

void
wire_sealed_hop_input(const uint8_t *frame, size_t len,
    uint8_t out[static WIRE_SEALED_HOP_IN])
{
	memcpy(out, frame, WIRE_HOP_TAG_OFF);
	memcpy(out + WIRE_HOP_TAG_OFF, frame + WIRE_E2E_OFF, WIRE_E2E_HDR_LEN);
	memcpy(out + WIRE_HOP_TAG_OFF + WIRE_E2E_HDR_LEN,
	    frame + len - BS_AEAD_TAG_LEN, BS_AEAD_TAG_LEN);
}

void
wire_sealed_ad(const uint8_t *frame, uint8_t out[static WIRE_SEALED_AD_LEN])
{
	out[0] = frame[0];
	memcpy(out + 1, frame + WIRE_E2E_OFF, WIRE_E2E_HDR_LEN);
}

int
wire_echo_body_parse(const uint8_t *p, size_t len, struct wire_echo *e)
{
	struct rcur c;
	struct wire_where w;

	memset(e, 0, sizeof(*e));
	rc_init(&c, p, len);
	e->kind = (uint8_t)rc_u8_in(&c, "kind", WIRE_ECHO_REQUEST,
	    WIRE_ECHO_REPLY, WIRE_ERANGE);
	rc_zero(&c, 1, "reserved");
	e->ident = (uint16_t)rc_u16(&c, "ident");
	e->seqno = (uint16_t)rc_u16(&c, "seqno");
	rc_end(&c);
	return rc_done(&c, &w);
}

void
wire_echo_body_put(uint8_t out[static WIRE_ECHO_BODY_LEN],
    const struct wire_echo *e)
{
	out[0] = e->kind;
	out[1] = 0;
	bs_put16(out + 2, e->ident);
	bs_put16(out + 4, e->seqno);
}

int
wire_ttlx_body_parse(const uint8_t *p, size_t len, struct wire_ttlx *x)
{
	struct rcur c;
	struct wire_where w;

	memset(x, 0, sizeof(*x));
	rc_init(&c, p, len);
	x->dst = rc_take(&c, BS_ADDR_LEN, "trace dst");
	rc_zero(&c, 2, "reserved");
	x->counter = rc_u64(&c, "trace counter");
	rc_end(&c);
	if (c.err == 0 && !wire_addr_is_mesh(x->dst))
		rc_fail(&c, WIRE_ERANGE, "trace dst", 0);
	return rc_done(&c, &w);
}

void
wire_ttlx_body_put(uint8_t out[static WIRE_TTLX_BODY_LEN],
    const struct wire_ttlx *x)
{
	memcpy(out, x->dst, BS_ADDR_LEN);
	out[6] = 0;
	out[7] = 0;
	bs_put64(out + 8, x->counter);
}

/* The signed header and inner frame at the cursor (into b). */
static void
rc_bcast_signed(struct rcur *c, struct wire_bcast *b)
{
	b->signed_ptr = c->p;
	b->block = c->p;
	rc_zero(c, 2, "flags");
	b->inner_len = rc_u16_in(c, "inner length", WIRE_INNER_MIN,
	    WIRE_INNER_MAX, WIRE_ELEN);
	b->orig = rc_mesh_addr(c, "originator");
	b->epoch = rc_epoch(c, "epoch");
	b->seqno = rc_u32(c, "seqno");
	rc_zero(c, 2, "reserved");
	b->inner = rc_take(c, b->inner_len, "inner frame");
	b->signed_len = WIRE_BCAST_SGN_LEN + b->inner_len;
	b->sig = rc_take(c, BS_SIG_LEN, "signature");
	b->block_len = b->signed_len + BS_SIG_LEN;
}

int
wire_bcast_parse(const uint8_t *p, size_t len, struct wire_bcast *b)
{
	struct rcur c;

	memset(b, 0, sizeof(*b));
	rc_init(&c, p, len);
	rc_hdr_v(&c, WIRE_T_BCAST, WIRE_DATA_VERSION);
	b->ttl = rc_u8(&c, "ttl");
	b->num_tags = rc_u8_in(&c, "number of tags", 1, WIRE_BCAST_MAX_TAGS,
	    WIRE_ECOUNT);
	b->hop_counter = rc_u64(&c, "hop counter");
	b->tags = rc_take(&c, b->num_tags * WIRE_BCAST_TAG_LEN, "tags");
	rc_bcast_signed(&c, b);
	b->len = c.off;
	b->pad_len = rc_padding(&c, len);
	return rc_done(&c, &b->where);
}

int
wire_bcast_find_tag(const struct wire_bcast *b,
    const uint8_t keyid[static BS_KEYID_LEN])
{
	unsigned i;

	for (i = 0; i < b->num_tags; i++)
		if (memcmp(b->tags + i * WIRE_BCAST_TAG_LEN, keyid,
		    BS_KEYID_LEN) == 0)
			return (int)i;
	return -1;
}

void
wire_bcast_tag_input(const uint8_t *frame, const struct wire_bcast *b,
    uint8_t out[static WIRE_BCAST_TAG_IN])
{
	memcpy(out, frame, WIRE_BCAST_FIXED);
	memcpy(out + WIRE_BCAST_FIXED, b->block, WIRE_BCAST_SGN_LEN);
	memcpy(out + WIRE_BCAST_FIXED + WIRE_BCAST_SGN_LEN, b->sig, BS_SIG_LEN);
}

int
wire_bcast_signed_build(uint8_t *buf, size_t cap,
    const struct wire_bcast_sgn *s, size_t *len)
{
	struct wcur w;

	if (s->orig == NULL || !wire_addr_is_mesh(s->orig) || s->epoch == 0 ||
	    s->inner == NULL || s->inner_len < WIRE_INNER_MIN ||
	    s->inner_len > WIRE_INNER_MAX)
		return WIRE_EINVAL;
	if (buf == NULL || cap < WIRE_BCAST_SGN_LEN ||
	    s->inner_len > cap - WIRE_BCAST_SGN_LEN)
		return WIRE_ESPACE;
	memmove(buf + WIRE_BCAST_SGN_LEN, s->inner, s->inner_len);
	wc_init(&w, buf, WIRE_BCAST_SGN_LEN);
	wc_zero(&w, 2);
	wc_u16(&w, (uint16_t)s->inner_len);
	wc_bytes(&w, s->orig, BS_ADDR_LEN);
	wc_u32(&w, s->epoch);
	wc_u32(&w, s->seqno);
	wc_zero(&w, 2);
	if (w.err == WIRE_OK)
		*len = WIRE_BCAST_SGN_LEN + s->inner_len;
	return w.err;
}

int
wire_bcast_frame(uint8_t *buf, size_t cap, uint8_t ttl, unsigned num_tags,
    uint64_t counter, const uint8_t *block, size_t block_len, size_t *len)
{
	struct wire_bcast b;
	size_t hlen;
	struct wcur w;

	if (num_tags < 1 || num_tags > WIRE_BCAST_MAX_TAGS || block == NULL)
		return WIRE_EINVAL;
	hlen = WIRE_BCAST_FIXED + num_tags * WIRE_BCAST_TAG_LEN;
	if (buf == NULL || cap < hlen || block_len > cap - hlen)
		return WIRE_ESPACE;
	memmove(buf + hlen, block, block_len);
	wc_init(&w, buf, hlen);
	wc_u8(&w, WIRE_T_BCAST);
	wc_u8(&w, WIRE_DATA_VERSION);
	wc_u8(&w, ttl);
	wc_u8(&w, (uint8_t)num_tags);
	wc_u64(&w, counter);
	wc_zero(&w, num_tags * WIRE_BCAST_TAG_LEN);
	if (w.err != WIRE_OK)
		return w.err;
	if (wire_bcast_parse(buf, hlen + block_len, &b) != WIRE_OK ||
	    b.len != hlen + block_len)
		return WIRE_EINVAL;
	*len = hlen + block_len;
	return WIRE_OK;
}

void
wire_bcast_set_tag(uint8_t *frame, unsigned idx,
    const uint8_t keyid[static BS_KEYID_LEN],
    const uint8_t tag[static BS_HOPTAG_LEN])
{
	uint8_t *t = frame + WIRE_BCAST_FIXED + idx * WIRE_BCAST_TAG_LEN;

	memcpy(t, keyid, BS_KEYID_LEN);
	memcpy(t + BS_KEYID_LEN, tag, BS_HOPTAG_LEN);
}

/* ---- FRAG ----------------------------------------------------------------- */

int
wire_frag_parse(const uint8_t *p, size_t len, struct wire_frag *f)
{
	struct rcur c;
	size_t at;

	memset(f, 0, sizeof(*f));
	rc_init(&c, p, p == NULL ? 0 : len);
	rc_hdr_v(&c, WIRE_T_FRAG, WIRE_DATA_VERSION);
	f->ttl = rc_u8(&c, "ttl");
	rc_zero(&c, 1, "reserved");
	f->keyid = rc_take(&c, BS_KEYID_LEN, "hop key id");
	f->hop_counter = rc_u64(&c, "hop counter");
	f->hop_tag = rc_take(&c, BS_HOPTAG_LEN, "hop tag");
	f->dst = rc_mesh_addr(&c, "destination");
	f->orig = rc_mesh_addr(&c, "fragmenter");
	f->seqno = rc_u32(&c, "fragment seqno");
	f->total = (uint16_t)rc_u16_in(&c, "total length", WIRE_FRAG_TOTAL_MIN,
	    WIRE_FRAG_TOTAL_MAX, WIRE_ERANGE);
	at = c.off;
	f->offset = rc_u16(&c, "offset");
	if (c.err == 0 && f->offset >= f->total)
		rc_fail(&c, WIRE_ERANGE, "offset", at);
	if (c.err == 0) {
		if (c.rem == 0)
			rc_fail(&c, WIRE_ETRUNC, "piece", c.off);
		else if (c.rem > (size_t)(f->total - f->offset) ||
		    c.rem >= f->total)
			rc_fail(&c, WIRE_ELEN, "piece", c.off);
		else
			f->piece_len = c.rem;
	}
	f->piece = rc_take(&c, f->piece_len, "piece");
	f->len = c.off;
	rc_end(&c);
	return rc_done(&c, &f->where);
}

int
wire_frag_build(uint8_t *buf, size_t cap, const struct wire_frag *f,
    size_t *len)
{
	struct wcur w;

	if (f->dst == NULL || f->orig == NULL || f->piece == NULL ||
	    !wire_addr_is_mesh(f->dst) || !wire_addr_is_mesh(f->orig) ||
	    f->total < WIRE_FRAG_TOTAL_MIN || f->total > WIRE_FRAG_TOTAL_MAX ||
	    f->piece_len == 0 || f->piece_len >= f->total ||
	    f->offset >= f->total || f->piece_len > (size_t)(f->total -
	    f->offset))
		return WIRE_EINVAL;
	if (buf == NULL || cap < WIRE_FRAG_HDR_LEN ||
	    f->piece_len > cap - WIRE_FRAG_HDR_LEN)
		return WIRE_ESPACE;
	wc_init(&w, buf, cap);
	wc_u8(&w, WIRE_T_FRAG);
	wc_u8(&w, WIRE_DATA_VERSION);
	wc_zero(&w, WIRE_HOP_LEN - 2);
	wc_bytes(&w, f->dst, BS_ADDR_LEN);
	wc_bytes(&w, f->orig, BS_ADDR_LEN);
	wc_u32(&w, f->seqno);
	wc_u16(&w, f->total);
	wc_u16(&w, f->offset);
	wc_bytes(&w, f->piece, f->piece_len);
	if (w.err == WIRE_OK)
		*len = WIRE_FRAG_HDR_LEN + f->piece_len;
	return w.err;
}

size_t
wire_frag_hop_input(const uint8_t *frame, size_t len,
    uint8_t out[static WIRE_FRAG_HOP_IN_MAX])
{
	if (len < WIRE_FRAG_HDR_LEN || len > WIRE_FRAG_MAX_LEN)
		return 0;
	memcpy(out, frame, WIRE_HOP_TAG_OFF);
	memcpy(out + WIRE_HOP_TAG_OFF, frame + WIRE_E2E_OFF,
	    len - WIRE_E2E_OFF);
	return len - BS_HOPTAG_LEN;
}
