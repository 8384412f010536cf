/*
 * policy_snapshot.c — compact binary snapshot of a policy, sent from the
 * privileged forwarder to the sandboxed parser.
 *
 * The decoder treats its input as hostile: a first pass walks every record
 * with a cursor that is checked against what remains, validates names,
 * paths, flags and key order, and requires the exact length; only then is
 * memory allocated and a second pass over the same walker fills it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_policy.h"

#define TRUST_FIXED	(BS_PK_LEN + 4)	/* pk flags namelen include */
#define ANCHOR_FIXED	(BS_PK_LEN + 6)	/* pk flags days namelen */
#define ANCHOR_REVOKES	0x01
#define TRUST_GATEWAY	0x01
/* The header's counts follow the limits. */
#define SNAP_COUNTS	(8 + 4 * BS_POLICY_LIMIT_COUNT)

_Static_assert(BS_POLICY_SNAP_HDR_LEN == 4 + 4 + 4 * BS_POLICY_LIMIT_COUNT +
    4 + 12, "snapshot header layout");
_Static_assert(BS_POLICY_MAX_INCLUDE <= 255 && BS_POLICY_MAX_ANCHOR <= 255,
    "counts must fit their u8 fields");

/* ---- encoder ------------------------------------------------------------- */

size_t
bs_policy_snapshot_len(const struct bs_policy *pol)
{
	size_t len = BS_POLICY_SNAP_HDR_LEN, i;

	for (i = 0; i < pol->n_include; i++)
		len += 2 + strlen(pol->include[i]);
	for (i = 0; i < pol->n_anchor; i++)
		len += ANCHOR_FIXED + strlen(pol->anchor[i].name);
	for (i = 0; i < pol->n_trust; i++)
		len += TRUST_FIXED + strlen(pol->trust[i].name);
	return len + (pol->n_block + pol->n_revoke) * BS_PK_LEN;
}

static uint8_t *
put_bytes(uint8_t *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static uint8_t *
put_header(uint8_t *p, const struct bs_policy *pol)
{
	size_t i;

	p = put_bytes(p, BS_POLICY_SNAP_MAGIC, 4);
	*p++ = BS_POLICY_SNAP_VERSION;
	*p++ = (uint8_t)pol->mode;
	*p++ = 0;
	*p++ = 0;
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++, p += 4)
		bs_put32(p, bs_policy_limit_get(&pol->limits, i));
	*p++ = (uint8_t)pol->n_include;
	*p++ = (uint8_t)pol->n_anchor;
	*p++ = 0;
	*p++ = 0;
	bs_put32(p, (uint32_t)pol->n_trust);
	bs_put32(p + 4, (uint32_t)pol->n_block);
	bs_put32(p + 8, (uint32_t)pol->n_revoke);
	return p + 12;
}

int
bs_policy_snapshot_encode(const struct bs_policy *pol, uint8_t *out,
    size_t outlen, size_t *written)
{
	size_t len = bs_policy_snapshot_len(pol), i, n;
	uint8_t *p = out;

	if (outlen < len)
		return -1;
	p = put_header(p, pol);
	for (i = 0; i < pol->n_include; i++) {
		n = strlen(pol->include[i]);
		bs_put16(p, (uint16_t)n);
		p = put_bytes(p + 2, pol->include[i], n);
	}
	for (i = 0; i < pol->n_anchor; i++) {
		n = strlen(pol->anchor[i].name);
		p = put_bytes(p, pol->anchor[i].pk, BS_PK_LEN);
		*p++ = pol->anchor[i].revokes_anchors ? ANCHOR_REVOKES : 0;
		bs_put32(p, pol->anchor[i].revocation_days);
		p += 4;
		*p++ = (uint8_t)n;
		p = put_bytes(p, pol->anchor[i].name, n);
	}
	for (i = 0; i < pol->n_trust; i++) {
		const struct bs_policy_trust *t = &pol->trust[i];

		n = strlen(t->name);
		p = put_bytes(p, t->pk, BS_PK_LEN);
		*p++ = t->gateway ? TRUST_GATEWAY : 0;
		*p++ = (uint8_t)n;
		bs_put16(p, t->include);
		p = put_bytes(p + 2, t->name, n);
	}
	for (i = 0; i < pol->n_block; i++)
		p = put_bytes(p, pol->block[i].pk, BS_PK_LEN);
	for (i = 0; i < pol->n_revoke; i++)
		p = put_bytes(p, pol->revoke[i].pk, BS_PK_LEN);
	if (written != NULL)
		*written = (size_t)(p - out);
	return 0;
}

/* ---- decoder ------------------------------------------------------------- */

struct cur {
	const uint8_t *p;
	size_t left;
};

struct counts {
	size_t n_include, n_anchor, n_trust, n_block, n_revoke;
};

static int serr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
serr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (err == NULL || errlen == 0)
		return -1;
	n = snprintf(err, errlen, "policy snapshot: ");
	if (n > 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Point *out at the next n bytes, or fail without moving. */
static int
take(struct cur *c, size_t n, const uint8_t **out)
{
	if (n > c->left)
		return -1;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

static int
check_header(const uint8_t *h, struct bs_policy_limits *lim,
    struct counts *cnt, char *err, size_t errlen)
{
	const struct bs_policy_limit_def *d;
	size_t i;
	uint32_t v;

	if (memcmp(h, BS_POLICY_SNAP_MAGIC, 4) != 0)
		return serr(err, errlen, "bad magic");
	if (h[4] != BS_POLICY_SNAP_VERSION)
		return serr(err, errlen, "unsupported version %u", h[4]);
	if (bs_policy_mode_name((enum bs_policy_mode)h[5]) == NULL)
		return serr(err, errlen, "bad mode %u", h[5]);
	if (h[6] != 0 || h[7] != 0 || h[SNAP_COUNTS + 2] != 0 ||
	    h[SNAP_COUNTS + 3] != 0)
		return serr(err, errlen, "reserved bytes not zero");
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++) {
		d = &bs_policy_limit_defs[i];
		v = bs_get32(h + 8 + 4 * i);
		if (v < d->min || v > d->max)
			return serr(err, errlen, "limit %s: %u out of range",
			    d->name, v);
		memcpy((char *)lim + d->offset, &v, sizeof(v));
	}
	cnt->n_include = h[SNAP_COUNTS];
	cnt->n_anchor = h[SNAP_COUNTS + 1];
	cnt->n_trust = bs_get32(h + SNAP_COUNTS + 4);
	cnt->n_block = bs_get32(h + SNAP_COUNTS + 8);
	cnt->n_revoke = bs_get32(h + SNAP_COUNTS + 12);
	if (cnt->n_include > BS_POLICY_MAX_INCLUDE ||
	    cnt->n_anchor > BS_POLICY_MAX_ANCHOR ||
	    cnt->n_trust > BS_POLICY_MAX_TRUST ||
	    cnt->n_block > BS_POLICY_MAX_BLOCK ||
	    cnt->n_revoke > BS_POLICY_MAX_REVOKE)
		return serr(err, errlen, "entry count over its bound");
	return 0;
}

/* A name of namelen bytes follows; copy it into dst when filling. */
static int
walk_name(struct cur *c, size_t namelen, char *dst)
{
	const uint8_t *s;

	if (namelen > BS_POLICY_NAME_MAX || take(c, namelen, &s) != 0)
		return -1;
	if (namelen > 0 && !bs_policy_name_ok((const char *)s, namelen))
		return -1;
	if (dst != NULL) {
		memcpy(dst, s, namelen);
		dst[namelen] = '\0';
	}
	return 0;
}

/* Keys must be strictly ascending; prev is NULL for the first. */
static int
in_order(const uint8_t **prev, const uint8_t *pk)
{
	int ok = *prev == NULL || memcmp(*prev, pk, BS_PK_LEN) < 0;

	*prev = pk;
	return ok;
}

static int
walk_includes(struct cur *c, size_t n, struct bs_policy *pol)
{
	const uint8_t *h, *s;
	size_t i, len;

	for (i = 0; i < n; i++) {
		if (take(c, 2, &h) != 0)
			return -1;
		len = bs_get16(h);
		if (take(c, len, &s) != 0 ||
		    !bs_policy_path_ok((const char *)s, len))
			return -1;
		if (pol != NULL) {
			if ((pol->include[i] = malloc(len + 1)) == NULL)
				return -1;
			memcpy(pol->include[i], s, len);
			pol->include[i][len] = '\0';
			pol->n_include = i + 1;
		}
	}
	return 0;
}

static int
walk_anchors(struct cur *c, size_t n, struct bs_policy *pol)
{
	const uint8_t *h, *prev = NULL;
	size_t i;

	uint32_t days;

	for (i = 0; i < n; i++) {
		if (take(c, ANCHOR_FIXED, &h) != 0 || !in_order(&prev, h) ||
		    (h[BS_PK_LEN] & ~ANCHOR_REVOKES) != 0 ||
		    (days = bs_get32(h + BS_PK_LEN + 1)) < 1 ||
		    days > BS_POLICY_REVOKE_DAYS_MAX ||
		    walk_name(c, h[BS_PK_LEN + 5], pol != NULL ?
		    pol->anchor[i].name : NULL) != 0)
			return -1;
		if (pol != NULL) {
			memcpy(pol->anchor[i].pk, h, BS_PK_LEN);
			pol->anchor[i].revokes_anchors = h[BS_PK_LEN] &
			    ANCHOR_REVOKES;
			pol->anchor[i].revocation_days = days;
		}
	}
	return 0;
}

static int
walk_trust(struct cur *c, const struct counts *cnt,
    struct bs_policy *pol)
{
	const uint8_t *h, *prev = NULL;
	struct bs_policy_trust *t;
	size_t i;

	for (i = 0; i < cnt->n_trust; i++) {
		t = pol != NULL ? &pol->trust[i] : NULL;
		if (take(c, TRUST_FIXED, &h) != 0 || !in_order(&prev, h) ||
		    (h[BS_PK_LEN] & ~TRUST_GATEWAY) != 0 ||
		    bs_get16(h + BS_PK_LEN + 2) > cnt->n_include ||
		    walk_name(c, h[BS_PK_LEN + 1], t != NULL ? t->name :
		    NULL) != 0)
			return -1;
		if (t != NULL) {
			memcpy(t->pk, h, BS_PK_LEN);
			t->gateway = h[BS_PK_LEN] & TRUST_GATEWAY;
			t->include = bs_get16(h + BS_PK_LEN + 2);
		}
	}
	return 0;
}

static int
walk_keys(struct cur *c, size_t n, struct bs_policy_key *dst)
{
	const uint8_t *h, *prev = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (take(c, BS_PK_LEN, &h) != 0 || !in_order(&prev, h))
			return -1;
		if (dst != NULL)
			memcpy(dst[i].pk, h, BS_PK_LEN);
	}
	return 0;
}

/* Everything after the header; pol is NULL on the checking pass. */
static int
walk_body(struct cur *c, const struct counts *cnt,
    struct bs_policy *pol, char *err, size_t errlen)
{
	if (walk_includes(c, cnt->n_include, pol) != 0)
		return serr(err, errlen, "bad include record");
	if (walk_anchors(c, cnt->n_anchor, pol) != 0)
		return serr(err, errlen, "bad anchor record");
	if (walk_trust(c, cnt, pol) != 0)
		return serr(err, errlen, "bad trust record");
	if (walk_keys(c, cnt->n_block, pol != NULL ? pol->block : NULL) != 0)
		return serr(err, errlen, "bad block record");
	if (walk_keys(c, cnt->n_revoke, pol != NULL ? pol->revoke : NULL) != 0)
		return serr(err, errlen, "bad revoke record");
	if (c->left != 0)
		return serr(err, errlen, "%zu trailing bytes", c->left);
	return 0;
}

static int
alloc_lists(struct bs_policy *pol, const struct counts *cnt)
{
	if (cnt->n_trust > 0 &&
	    (pol->trust = calloc(cnt->n_trust, sizeof(*pol->trust))) == NULL)
		return -1;
	if (cnt->n_anchor > 0 && (pol->anchor = calloc(cnt->n_anchor,
	    sizeof(*pol->anchor))) == NULL)
		return -1;
	if (cnt->n_block > 0 &&
	    (pol->block = calloc(cnt->n_block, sizeof(*pol->block))) == NULL)
		return -1;
	if (cnt->n_revoke > 0 && (pol->revoke = calloc(cnt->n_revoke,
	    sizeof(*pol->revoke))) == NULL)
		return -1;
	pol->n_trust = cnt->n_trust;
	pol->n_anchor = cnt->n_anchor;
	pol->n_block = cnt->n_block;
	pol->n_revoke = cnt->n_revoke;
	return 0;
}

int
bs_policy_snapshot_decode(const uint8_t *in, size_t len,
    struct bs_policy **out, char *err, size_t errlen)
{
	struct cur c = { in, len };
	struct bs_policy_limits lim;
	struct bs_policy *pol;
	struct counts cnt;
	const uint8_t *h;
	char msg[160];

	if (take(&c, BS_POLICY_SNAP_HDR_LEN, &h) != 0)
		return serr(err, errlen, "shorter than its header");
	if (check_header(h, &lim, &cnt, err, errlen) != 0 ||
	    walk_body(&c, &cnt, NULL, err, errlen) != 0)
		return -1;
	if ((pol = bs_policy_new()) == NULL || alloc_lists(pol, &cnt) != 0) {
		bs_policy_free(pol);
		return serr(err, errlen, "out of memory");
	}
	pol->mode = (enum bs_policy_mode)h[5];
	pol->limits = lim;
	c.p = in + BS_POLICY_SNAP_HDR_LEN;
	c.left = len - BS_POLICY_SNAP_HDR_LEN;
	/* The second pass can only fail to allocate an include path. */
	if (walk_body(&c, &cnt, pol, err, errlen) != 0) {
		bs_policy_free(pol);
		return serr(err, errlen, "out of memory");
	}
	if (bs_policy_validate(pol, msg, sizeof(msg)) != 0) {
		bs_policy_free(pol);
		return serr(err, errlen, "%s", msg);
	}
	*out = pol;
	return 0;
}
