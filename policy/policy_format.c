/*
 * policy_format.c — the canonical text of a policy.
 *
 * One writer serves both the length computation and the output: it counts
 * every byte and copies only what fits, so the two can never disagree.
 */
#include <stdio.h>
#include <string.h>

#include "batsec_keys.h"
#include "batsec_policy.h"

#define HEADER "# batsec policy in canonical form, see batsec-policy(5); " \
	"comments are not kept\n"

/* Longest line of each kind, with its '\n'. */
#define L_MODE		(sizeof("mode allowlist\n") - 1)
#define L_LIMIT		(sizeof("limit  4294967295\n") - 1 + 24)
#define L_ANCHOR	(sizeof("anchor  name  revokes-anchors " \
			 "revocation-days 36500\n") - 1 + BS_KEY_B64_LEN + \
			 BS_POLICY_NAME_MAX)
#define L_INCLUDE	(sizeof("include \n") - 1 + BS_POLICY_PATH_MAX)
#define L_TRUST		(sizeof("trust  name  gateway\n") - 1 + \
			 BS_KEY_B64_LEN + BS_POLICY_NAME_MAX)
#define L_KEY		(sizeof("revoke \n") - 1 + BS_KEY_B64_LEN)

/* What the library writes can always be read back. */
_Static_assert(sizeof(HEADER) - 1 + L_MODE +
    BS_POLICY_LIMIT_COUNT * L_LIMIT + BS_POLICY_MAX_ANCHOR * L_ANCHOR +
    BS_POLICY_MAX_INCLUDE * L_INCLUDE + BS_POLICY_MAX_TRUST * L_TRUST +
    (BS_POLICY_MAX_BLOCK + BS_POLICY_MAX_REVOKE) * L_KEY <
    BS_POLICY_FILE_MAX, "canonical policy text could exceed the file limit");
_Static_assert(sizeof("include ") - 1 + BS_POLICY_PATH_MAX <=
    BS_POLICY_LINE_MAX, "include DIR does not fit in a line");

struct out {
	char *buf;
	size_t cap;	/* bytes of buf usable for text (NUL excluded) */
	size_t len;	/* bytes produced so far, written or not */
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->cap && n <= o->cap - o->len)
		memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void
put_key(struct out *o, const uint8_t pk[static BS_PK_LEN])
{
	char b64[BS_KEY_B64_LEN + 1];

	bs_key_to_b64(b64, pk);
	put(o, b64, BS_KEY_B64_LEN);
}

static void
put_name(struct out *o, const char *name)
{
	if (name[0] == '\0')
		return;
	puts_(o, " name ");
	puts_(o, name);
}

static void
put_anchor_opts(struct out *o, const struct bs_policy_anchor *a)
{
	char num[24];

	put_name(o, a->name);
	if (a->revokes_anchors)
		puts_(o, " revokes-anchors");
	if (a->revocation_days != BS_POLICY_REVOKE_DAYS_DEF) {
		snprintf(num, sizeof(num), " %u", a->revocation_days);
		puts_(o, " revocation-days");
		puts_(o, num);
	}
}

static void
put_limits(struct out *o, const struct bs_policy_limits *l)
{
	char num[16];
	size_t i;
	uint32_t v;

	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++) {
		v = bs_policy_limit_get(l, i);
		if (v == bs_policy_limit_defs[i].def)
			continue;
		snprintf(num, sizeof(num), " %u\n", v);
		puts_(o, "limit ");
		puts_(o, bs_policy_limit_defs[i].name);
		puts_(o, num);
	}
}

static void
put_keys(struct out *o, const char *word,
    const struct bs_policy_key *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		puts_(o, word);
		put_key(o, k[i].pk);
		put(o, "\n", 1);
	}
}

static void
write_policy(struct out *o, const struct bs_policy *pol)
{
	const char *mode = bs_policy_mode_name(pol->mode);
	size_t i;

	puts_(o, HEADER);
	puts_(o, "mode ");
	puts_(o, mode != NULL ? mode : "allowlist");
	put(o, "\n", 1);
	put_limits(o, &pol->limits);
	for (i = 0; i < pol->n_anchor; i++) {
		puts_(o, "anchor ");
		put_key(o, pol->anchor[i].pk);
		put_anchor_opts(o, &pol->anchor[i]);
		put(o, "\n", 1);
	}
	for (i = 0; i < pol->n_include; i++) {
		puts_(o, "include ");
		puts_(o, pol->include[i]);
		put(o, "\n", 1);
	}
	for (i = 0; i < pol->n_trust; i++) {
		if (pol->trust[i].include != 0)
			continue;	/* kept as its include directive */
		puts_(o, "trust ");
		put_key(o, pol->trust[i].pk);
		put_name(o, pol->trust[i].name);
		if (pol->trust[i].gateway)
			puts_(o, " gateway");
		put(o, "\n", 1);
	}
	put_keys(o, "block ", pol->block, pol->n_block);
	put_keys(o, "revoke ", pol->revoke, pol->n_revoke);
}

size_t
bs_policy_format_len(const struct bs_policy *pol)
{
	struct out o = { NULL, 0, 0 };

	write_policy(&o, pol);
	return o.len;
}

int
bs_policy_format(const struct bs_policy *pol, char *buf, size_t buflen,
    size_t *outlen)
{
	struct out o = { buf, buflen > 0 ? buflen - 1 : 0, 0 };

	write_policy(&o, pol);
	if (buflen == 0 || o.len >= buflen)
		return -1;
	buf[o.len] = '\0';
	if (outlen != NULL)
		*outlen = o.len;
	return 0;
}
