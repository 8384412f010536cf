/*
 * policy.c — struct bs_policy: lifecycle, limits table, invariants,
 * lookups and classification.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_policy.h"

#define LIM(n, f, d, lo, hi) \
	{ n, offsetof(struct bs_policy_limits, f), d, lo, hi }

const struct bs_policy_limit_def bs_policy_limit_defs[BS_POLICY_LIMIT_COUNT] = {
	LIM("originators", originators, 4096, 16, 1048576),
	LIM("stranger-share", stranger_share, 25, 0, 100),
	LIM("neighbor-stranger-share", neighbor_stranger_share, 50, 1, 100),
	LIM("intro-rate", intro_rate, 10, 1, 10000),
	LIM("intro-burst", intro_burst, 50, 1, 100000),
	LIM("intro-global-rate", intro_global_rate, 100, 1, 100000),
	LIM("intro-global-burst", intro_global_burst, 500, 1, 1000000),
	LIM("verify-rate", verify_rate, 200, 1, 100000),
	LIM("verify-burst", verify_burst, 400, 1, 1000000),
	LIM("verify-global-rate", verify_global_rate, 2000, 1, 1000000),
	LIM("verify-global-burst", verify_global_burst, 4000, 1, 10000000),
	LIM("frame-rate", frame_rate, 100, 1, 100000),
	LIM("frame-burst", frame_burst, 200, 1, 1000000),
	LIM("clients-per-originator", clients_per_originator, 1024, 0, 65536),
	LIM("roam-per-minute", roam_per_minute, 6, 0, 600),
	LIM("pending-certs", pending_certs, 64, 0, 4096),
	LIM("cert-every", cert_every, 10, 1, 1000),
	LIM("stranger-neighbors", stranger_neighbors, 75, 0, 100),
	LIM("pin-after", pin_after, 600, 0, 604800),
	LIM("pins-per-neighbor", pins_per_neighbor, 8, 0, 4096),
	LIM("pin-max-age", pin_max_age, 30, 1, 3650),
};

_Static_assert(sizeof(struct bs_policy_limits) ==
    BS_POLICY_LIMIT_COUNT * sizeof(uint32_t), "limits table out of step");

uint32_t
bs_policy_limit_get(const struct bs_policy_limits *l, size_t i)
{
	uint32_t v;

	memcpy(&v, (const char *)l + bs_policy_limit_defs[i].offset,
	    sizeof(v));
	return v;
}

static void
limit_set(struct bs_policy_limits *l, size_t i, uint32_t v)
{
	memcpy((char *)l + bs_policy_limit_defs[i].offset, &v, sizeof(v));
}

void
bs_policy_limits_default(struct bs_policy_limits *l)
{
	size_t i;

	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++)
		limit_set(l, i, bs_policy_limit_defs[i].def);
}

/* ---- lifecycle ----------------------------------------------------------- */

struct bs_policy *
bs_policy_new(void)
{
	struct bs_policy *pol = calloc(1, sizeof(*pol));

	if (pol == NULL)
		return NULL;
	pol->mode = BS_POLICY_ALLOWLIST;
	bs_policy_limits_default(&pol->limits);
	return pol;
}

void
bs_policy_free(struct bs_policy *pol)
{
	size_t i;

	if (pol == NULL)
		return;
	free(pol->trust);
	free(pol->anchor);
	free(pol->block);
	free(pol->revoke);
	for (i = 0; i < pol->n_include; i++)
		free(pol->include[i]);
	free(pol);
}

/* malloc'd copy of n elements of size sz; NULL only on failure. */
static void *
copy_array(const void *src, size_t n, size_t sz, int *fail)
{
	void *p;

	if (n == 0)
		return NULL;
	if ((p = malloc(n * sz)) == NULL) {
		*fail = 1;
		return NULL;
	}
	memcpy(p, src, n * sz);
	return p;
}

struct bs_policy *
bs_policy_dup(const struct bs_policy *pol)
{
	struct bs_policy *c = bs_policy_new();
	int fail = 0;
	size_t i;

	if (c == NULL)
		return NULL;
	c->mode = pol->mode;
	c->limits = pol->limits;
	c->trust = copy_array(pol->trust, pol->n_trust, sizeof(*c->trust),
	    &fail);
	c->n_trust = pol->n_trust;
	c->anchor = copy_array(pol->anchor, pol->n_anchor, sizeof(*c->anchor),
	    &fail);
	c->n_anchor = pol->n_anchor;
	c->block = copy_array(pol->block, pol->n_block, sizeof(*c->block),
	    &fail);
	c->n_block = pol->n_block;
	c->revoke = copy_array(pol->revoke, pol->n_revoke, sizeof(*c->revoke),
	    &fail);
	c->n_revoke = pol->n_revoke;
	for (i = 0; i < pol->n_include; i++) {
		if ((c->include[i] = strdup(pol->include[i])) == NULL)
			fail = 1;
		c->n_include = i + 1;
	}
	if (fail) {
		bs_policy_free(c);
		return NULL;
	}
	return c;
}

static int
trust_equal(const struct bs_policy_trust *a,
    const struct bs_policy_trust *b)
{
	return memcmp(a->pk, b->pk, BS_PK_LEN) == 0 &&
	    a->gateway == b->gateway && a->include == b->include &&
	    strcmp(a->name, b->name) == 0;
}

static int
anchor_equal(const struct bs_policy_anchor *a,
    const struct bs_policy_anchor *b)
{
	return memcmp(a->pk, b->pk, BS_PK_LEN) == 0 &&
	    a->revokes_anchors == b->revokes_anchors &&
	    a->revocation_days == b->revocation_days &&
	    strcmp(a->name, b->name) == 0;
}

static int
keys_equal(const struct bs_policy_key *a, size_t na,
    const struct bs_policy_key *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof(*a)) == 0);
}

int
bs_policy_equal(const struct bs_policy *a, const struct bs_policy *b)
{
	size_t i;

	if (a->mode != b->mode || a->n_trust != b->n_trust ||
	    a->n_anchor != b->n_anchor || a->n_include != b->n_include ||
	    memcmp(&a->limits, &b->limits, sizeof(a->limits)) != 0)
		return 0;
	if (!keys_equal(a->block, a->n_block, b->block, b->n_block) ||
	    !keys_equal(a->revoke, a->n_revoke, b->revoke, b->n_revoke))
		return 0;
	for (i = 0; i < a->n_include; i++)
		if (strcmp(a->include[i], b->include[i]) != 0)
			return 0;
	for (i = 0; i < a->n_anchor; i++)
		if (!anchor_equal(&a->anchor[i], &b->anchor[i]))
			return 0;
	for (i = 0; i < a->n_trust; i++)
		if (!trust_equal(&a->trust[i], &b->trust[i]))
			return 0;
	return 1;
}

/* ---- validation ---------------------------------------------------------- */

const char *
bs_policy_mode_name(enum bs_policy_mode mode)
{
	switch (mode) {
	case BS_POLICY_ALLOWLIST:
		return "allowlist";
	case BS_POLICY_CA:
		return "ca";
	case BS_POLICY_OPEN:
		return "open";
	}
	return NULL;
}

int
bs_policy_name_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > BS_POLICY_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

int
bs_policy_path_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > BS_POLICY_PATH_MAX || s[0] == '#')
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

static int verr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
verr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The name field is NUL-terminated, and empty or a valid NAME. */
static int
field_name_ok(const char name[static BS_POLICY_NAME_MAX + 1],
    int optional)
{
	size_t len = strnlen(name, BS_POLICY_NAME_MAX + 1);

	if (len > BS_POLICY_NAME_MAX)
		return 0;
	return (optional && len == 0) || bs_policy_name_ok(name, len);
}

/* Strictly ascending keys; stride is the element size, pk first. */
static int
keys_sorted(const void *base, size_t n, size_t stride)
{
	const uint8_t *p = base;
	size_t i;

	for (i = 1; i < n; i++)
		if (memcmp(p + (i - 1) * stride, p + i * stride, BS_PK_LEN) >= 0)
			return 0;
	return 1;
}

static int
validate_lists(const struct bs_policy *pol, char *err,
    size_t errlen)
{
	size_t i;

	if (pol->n_trust > BS_POLICY_MAX_TRUST ||
	    pol->n_anchor > BS_POLICY_MAX_ANCHOR ||
	    pol->n_block > BS_POLICY_MAX_BLOCK ||
	    pol->n_revoke > BS_POLICY_MAX_REVOKE ||
	    pol->n_include > BS_POLICY_MAX_INCLUDE)
		return verr(err, errlen, "too many entries");
	if (!keys_sorted(pol->trust, pol->n_trust, sizeof(*pol->trust)) ||
	    !keys_sorted(pol->anchor, pol->n_anchor, sizeof(*pol->anchor)) ||
	    !keys_sorted(pol->block, pol->n_block, sizeof(*pol->block)) ||
	    !keys_sorted(pol->revoke, pol->n_revoke, sizeof(*pol->revoke)))
		return verr(err, errlen, "keys not sorted or not unique");
	for (i = 0; i < pol->n_trust; i++) {
		const struct bs_policy_trust *t = &pol->trust[i];

		if (t->gateway > 1 || t->include > pol->n_include ||
		    !field_name_ok(t->name, 1))
			return verr(err, errlen, "bad trust entry");
	}
	for (i = 0; i < pol->n_anchor; i++)
		if (!field_name_ok(pol->anchor[i].name, 1) ||
		    pol->anchor[i].revokes_anchors > 1 ||
		    pol->anchor[i].revocation_days < 1 ||
		    pol->anchor[i].revocation_days > BS_POLICY_REVOKE_DAYS_MAX)
			return verr(err, errlen, "bad anchor entry");
	return 0;
}

static int
validate_includes(const struct bs_policy *pol, char *err,
    size_t errlen)
{
	size_t i, j;

	for (i = 0; i < pol->n_include; i++) {
		const char *p = pol->include[i];

		if (p == NULL || !bs_policy_path_ok(p,
		    strnlen(p, BS_POLICY_PATH_MAX + 1)))
			return verr(err, errlen, "bad include path");
		for (j = 0; j < i; j++)
			if (strcmp(pol->include[j], p) == 0)
				return verr(err, errlen,
				    "include %s: given twice", p);
	}
	return 0;
}

int
bs_policy_validate(const struct bs_policy *pol, char *err, size_t errlen)
{
	size_t i;

	if (bs_policy_mode_name(pol->mode) == NULL)
		return verr(err, errlen, "bad mode");
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++) {
		const struct bs_policy_limit_def *d = &bs_policy_limit_defs[i];
		uint32_t v = bs_policy_limit_get(&pol->limits, i);

		if (v < d->min || v > d->max)
			return verr(err, errlen,
			    "limit %s: %u out of range %u..%u", d->name, v,
			    d->min, d->max);
	}
	if (validate_lists(pol, err, errlen) != 0 ||
	    validate_includes(pol, err, errlen) != 0)
		return -1;
	if (pol->mode == BS_POLICY_CA && pol->n_anchor == 0)
		return verr(err, errlen, "mode ca: no anchor given");
	return 0;
}

/* ---- lookups ------------------------------------------------------------- */

static int
pk_cmp(const void *key, const void *elem)
{
	return memcmp(key, elem, BS_PK_LEN);
}

const struct bs_policy_trust *
bs_policy_trust_find(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN])
{
	if (pol->n_trust == 0)
		return NULL;
	return bsearch(pk, pol->trust, pol->n_trust, sizeof(*pol->trust),
	    pk_cmp);
}

const struct bs_policy_anchor *
bs_policy_anchor_find(
    const struct bs_policy *pol, const uint8_t pk[static BS_PK_LEN])
{
	if (pol->n_anchor == 0)
		return NULL;
	return bsearch(pk, pol->anchor, pol->n_anchor, sizeof(*pol->anchor),
	    pk_cmp);
}

int
bs_policy_is_blocked(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN])
{
	return pol->n_block > 0 && bsearch(pk, pol->block, pol->n_block,
	    sizeof(*pol->block), pk_cmp) != NULL;
}

int
bs_policy_is_revoked(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN])
{
	return pol->n_revoke > 0 && bsearch(pk, pol->revoke, pol->n_revoke,
	    sizeof(*pol->revoke), pk_cmp) != NULL;
}

/* ---- CA revocation records ---------------------------------------------- */

int
bs_policy_revoke_expired(const struct bs_policy *pol,
    const struct bs_revoke *r, uint64_t now)
{
	const struct bs_policy_anchor *a = bs_policy_anchor_find(pol,
	    r->issuer_pk);
	uint64_t life = (uint64_t)(a != NULL ? a->revocation_days :
	    BS_POLICY_REVOKE_DAYS_DEF) * 86400 + BS_CERT_SKEW;

	return now != 0 && r->issued_at <= UINT64_MAX - life &&
	    now > r->issued_at + life;
}

const char *
bs_policy_revoke_problem(const struct bs_policy *pol,
    const struct bs_revoke *r, uint64_t now)
{
	const struct bs_policy_anchor *a, *target;

	if ((a = bs_policy_anchor_find(pol, r->issuer_pk)) == NULL)
		return "the issuer is not an anchor of the policy";
	if (bs_policy_is_blocked(pol, r->issuer_pk) ||
	    bs_policy_is_revoked(pol, r->issuer_pk))
		return "the issuer is a blocked or revoked anchor";
	if (bs_policy_revoke_expired(pol, r, now))
		return "the record has expired (revocation-days of its issuer)";
	if ((target = bs_policy_anchor_find(pol, r->revoked_pk)) != NULL &&
	    (!a->revokes_anchors || target->revokes_anchors))
		return "the record revokes an anchor, which its issuer may not "
		    "(anchor option revokes-anchors)";
	return NULL;
}

/* ---- classification ------------------------------------------------------ */

static struct bs_policy_verdict
verdict(enum bs_policy_class cls,
    enum bs_policy_reason reason, int cert_err)
{
	struct bs_policy_verdict v = { cls, reason, cert_err };

	return v;
}

/* The class of a key from the lists and the mode alone. */
static struct bs_policy_verdict
classify_lists(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN])
{
	if (bs_policy_is_revoked(pol, pk))
		return verdict(BS_CLASS_BLOCKED, BS_PR_REVOKED, 0);
	if (bs_policy_is_blocked(pol, pk))
		return verdict(BS_CLASS_BLOCKED, BS_PR_BLOCKED, 0);
	if (bs_policy_trust_find(pol, pk) != NULL)
		return verdict(BS_CLASS_TRUSTED, BS_PR_TRUSTED, 0);
	return verdict(pol->mode == BS_POLICY_OPEN ? BS_CLASS_STRANGER :
	    BS_CLASS_REFUSED, BS_PR_UNKNOWN, 0);
}

enum bs_policy_class
bs_policy_classify(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN])
{
	return classify_lists(pol, pk).cls;
}

struct bs_policy_verdict
bs_policy_classify_cert(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], const struct bs_cert *cert,
    uint64_t now)
{
	struct bs_policy_verdict v = classify_lists(pol, pk);
	int r;

	if (v.reason != BS_PR_UNKNOWN || cert == NULL)
		return v;
	if (pol->mode == BS_POLICY_ALLOWLIST)
		v.reason = BS_PR_CERT_IGNORED;
	else if (memcmp(cert->node_pk, pk, BS_PK_LEN) != 0)
		v.reason = BS_PR_CERT_OTHER_KEY;
	else if (bs_policy_anchor_find(pol, cert->issuer_pk) == NULL)
		v.reason = BS_PR_CERT_NO_ANCHOR;
	else if (bs_policy_is_revoked(pol, cert->issuer_pk) ||
	    bs_policy_is_blocked(pol, cert->issuer_pk))
		v.reason = BS_PR_CERT_ANCHOR_BLOCKED;
	else if ((r = bs_cert_verify(cert, cert->issuer_pk, now)) != BS_CERT_OK)
		v = verdict(v.cls, BS_PR_CERT_INVALID, r);
	else
		v = verdict(BS_CLASS_CERTIFIED, BS_PR_CERT_OK, 0);
	return v;
}

int
bs_policy_gateway_ok(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], const struct bs_cert *cert,
    uint64_t now)
{
	struct bs_policy_verdict v = bs_policy_classify_cert(pol, pk, cert,
	    now);

	if (v.cls == BS_CLASS_TRUSTED)
		return bs_policy_trust_find(pol, pk)->gateway == 1;
	if (v.cls == BS_CLASS_CERTIFIED)
		return (cert->roles & BS_ROLE_GATEWAY) != 0;
	return 0;
}

const char *
bs_policy_class_name(enum bs_policy_class cls)
{
	switch (cls) {
	case BS_CLASS_BLOCKED:
		return "blocked";
	case BS_CLASS_REFUSED:
		return "refused";
	case BS_CLASS_STRANGER:
		return "stranger";
	case BS_CLASS_CERTIFIED:
		return "certified";
	case BS_CLASS_TRUSTED:
		return "trusted";
	}
	return "unknown";
}

const char *
bs_policy_verdict_str(const struct bs_policy_verdict *v)
{
	switch (v->reason) {
	case BS_PR_REVOKED:
		return "key is revoked";
	case BS_PR_BLOCKED:
		return "key is blocked";
	case BS_PR_TRUSTED:
		return "key is trusted";
	case BS_PR_CERT_OK:
		return "certificate is valid";
	case BS_PR_UNKNOWN:
		return "key is not listed";
	case BS_PR_CERT_IGNORED:
		return "certificates are not accepted in mode allowlist";
	case BS_PR_CERT_OTHER_KEY:
		return "certificate is for another key";
	case BS_PR_CERT_NO_ANCHOR:
		return "certificate issuer is not an anchor";
	case BS_PR_CERT_ANCHOR_BLOCKED:
		return "certificate issuer is blocked or revoked";
	case BS_PR_CERT_INVALID:
		return bs_cert_strerror(v->cert_err);
	}
	return "unknown";
}
