/*
 * check_policy.c — unit tests of the policy library: every directive and
 * every parse error (table-driven), include directories, classification in
 * each mode, live edits, canonical text and binary snapshot round trips,
 * and rejection of corrupted snapshots.
 *
 * Keys in the tables are written "@X": the base64 of 32 bytes of 'X'.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "batsec_policy.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

/* ---- helpers ------------------------------------------------------------ */

static char errbuf[512];

static void
pkof(uint8_t pk[BS_PK_LEN], char c)
{
	memset(pk, c, BS_PK_LEN);
}

/* Expand "@X" into the base64 key of 32 bytes of X (A-Z). */
static const char *
expand(const char *tmpl)
{
	static char buf[1 << 16];
	char b64[BS_KEY_B64_LEN + 1];
	uint8_t pk[BS_PK_LEN];
	size_t o = 0;

	for (; *tmpl != '\0'; tmpl++) {
		ck_assert_uint_lt(o + BS_KEY_B64_LEN + 1, sizeof(buf));
		if (tmpl[0] == '@' && tmpl[1] >= 'A' && tmpl[1] <= 'Z') {
			pkof(pk, *++tmpl);
			bs_key_to_b64(b64, pk);
			memcpy(buf + o, b64, BS_KEY_B64_LEN);
			o += BS_KEY_B64_LEN;
		} else {
			buf[o++] = *tmpl;
		}
	}
	buf[o] = '\0';
	return buf;
}

static struct bs_policy *
parse_ok(const char *tmpl, unsigned flags)
{
	struct bs_policy *pol = NULL;
	const char *text = expand(tmpl);

	errbuf[0] = '\0';
	ck_assert_msg(bs_policy_parse_buf(text, strlen(text), "test.policy",
	    NULL, flags, &pol, errbuf, sizeof(errbuf)) == 0,
	    "parse failed: %s\n--- input:\n%s", errbuf, text);
	ck_assert_ptr_nonnull(pol);
	ck_assert_int_eq(bs_policy_validate(pol, errbuf, sizeof(errbuf)), 0);
	return pol;
}

static void
setup(void)
{
	ck_assert_int_eq(bs_crypto_init(), 0);
}

/* Parse fmt(pol) back and require an equal policy and stable text. */
static void
assert_text_round_trip(const struct bs_policy *pol,
    unsigned flags)
{
	size_t len = bs_policy_format_len(pol), got = 0, len2;
	char *text = malloc(len + 1), *text2;
	struct bs_policy *back = NULL;

	ck_assert_ptr_nonnull(text);
	ck_assert_uint_lt(len, BS_POLICY_FILE_MAX);
	ck_assert_int_eq(bs_policy_format(pol, text, len, &got), -1);
	ck_assert_int_eq(bs_policy_format(pol, text, len + 1, &got), 0);
	ck_assert_uint_eq(got, len);
	ck_assert_uint_eq(strlen(text), len);
	ck_assert_msg(bs_policy_parse_buf(text, len, "fmt", NULL, flags, &back,
	    errbuf, sizeof(errbuf)) == 0, "%s", errbuf);
	ck_assert_msg(bs_policy_equal(pol, back), "round trip differs:\n%s",
	    text);
	len2 = bs_policy_format_len(back);
	text2 = malloc(len2 + 1);
	ck_assert_ptr_nonnull(text2);
	ck_assert_int_eq(bs_policy_format(back, text2, len2 + 1, NULL), 0);
	ck_assert_str_eq(text, text2);
	free(text2);
	free(text);
	bs_policy_free(back);
}

static uint8_t *
snap(const struct bs_policy *pol, size_t *len)
{
	uint8_t *buf;

	*len = bs_policy_snapshot_len(pol);
	ck_assert_uint_le(*len, BS_POLICY_SNAP_MAX);
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	if (*len > 0)
		ck_assert_int_eq(bs_policy_snapshot_encode(pol, buf, *len - 1,
		    NULL), -1);
	ck_assert_int_eq(bs_policy_snapshot_encode(pol, buf, *len, len), 0);
	return buf;
}

static void
assert_snap_round_trip(const struct bs_policy *pol)
{
	struct bs_policy *back = NULL;
	size_t len;
	uint8_t *buf = snap(pol, &len);

	ck_assert_msg(bs_policy_snapshot_decode(buf, len, &back, errbuf,
	    sizeof(errbuf)) == 0, "%s", errbuf);
	ck_assert(bs_policy_equal(pol, back));
	bs_policy_free(back);
	free(buf);
}

/* A policy using every feature (includes recorded, not read). */
static const char *const rich_policy =
    "mode ca\n"
    "limit originators 1000\n"
    "limit stranger-share 0\n"
    "limit cert-every 1\n"
    "anchor @Z name community-ca\n"
    "anchor @Y\n"
    "include keys.d\n"
    "include /etc/batsec/more\n"
    "trust @C name carol\n"
    "trust @A name alice gateway\n"
    "trust @B gateway\n"
    "trust @D\n"
    "block @D\n"
    "block @E\n"
    "revoke @F\n"
    "revoke @A\n";

/* ---- temp directories --------------------------------------------------- */

static char tmpdir[64];

static void
make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_policy.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static int
rm_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_tmpdir(void)
{
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
put_file(const char *rel, const char *tmpl)
{
	char path[512];
	const char *text = expand(tmpl);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, strlen(text), f), strlen(text));
	ck_assert_int_eq(fclose(f), 0);
}

static void
put_dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

static int
parse_tmp(const char *rel, struct bs_policy **pol)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	errbuf[0] = '\0';
	return bs_policy_parse_file(path, 0, pol, errbuf, sizeof(errbuf));
}

/* ---- directives ---------------------------------------------------------- */

START_TEST(test_empty_defaults)
{
	struct bs_policy *pol = parse_ok("", 0);
	struct bs_policy_limits def;
	uint8_t pk[BS_PK_LEN];

	ck_assert_int_eq(pol->mode, BS_POLICY_ALLOWLIST);
	ck_assert_uint_eq(pol->n_trust + pol->n_anchor + pol->n_block +
	    pol->n_revoke + pol->n_include, 0);
	bs_policy_limits_default(&def);
	ck_assert_mem_eq(&pol->limits, &def, sizeof(def));
	ck_assert_uint_eq(pol->limits.originators, 4096);
	ck_assert_uint_eq(pol->limits.stranger_share, 25);
	ck_assert_uint_eq(pol->limits.cert_every, 10);
	pkof(pk, 'A');
	ck_assert_int_eq(bs_policy_classify(pol, pk), BS_CLASS_REFUSED);
	bs_policy_free(pol);
}
END_TEST

START_TEST(test_comments_blanks)
{
	struct bs_policy *pol = parse_ok(
	    "# whole-line comment\n"
	    "\n"
	    "   \t  \n"
	    "  # indented comment with UTF-8: caf\xc3\xa9\n"
	    "\ttrust\t@A   name  alice\t# trailing comment\n"
	    "block @B #\n", 0);
	uint8_t pk[BS_PK_LEN];

	ck_assert_uint_eq(pol->n_trust, 1);
	pkof(pk, 'A');
	ck_assert_str_eq(bs_policy_trust_find(pol, pk)->name, "alice");
	pkof(pk, 'B');
	ck_assert(bs_policy_is_blocked(pol, pk));
	bs_policy_free(pol);
}
END_TEST

START_TEST(test_trust_forms)
{
	struct bs_policy *pol = parse_ok(
	    "trust @C\n"
	    "trust @A name alice gateway\n"
	    "trust @B gateway name bob-1.x_y\n"
	    "trust @D name 0123456789abcdefghijABCDEFGHIJ._", 0);
	uint8_t pk[BS_PK_LEN];
	const struct bs_policy_trust *t;

	ck_assert_uint_eq(pol->n_trust, 4);
	/* Sorted by key. */
	ck_assert_int_eq(pol->trust[0].pk[0], 'A');
	ck_assert_int_eq(pol->trust[3].pk[0], 'D');
	pkof(pk, 'A');
	t = bs_policy_trust_find(pol, pk);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "alice");
	ck_assert_int_eq(t->gateway, 1);
	ck_assert_int_eq(t->include, 0);
	pkof(pk, 'B');
	t = bs_policy_trust_find(pol, pk);
	ck_assert_str_eq(t->name, "bob-1.x_y");
	ck_assert_int_eq(t->gateway, 1);
	pkof(pk, 'C');
	t = bs_policy_trust_find(pol, pk);
	ck_assert_str_eq(t->name, "");
	ck_assert_int_eq(t->gateway, 0);
	pkof(pk, 'D');
	ck_assert_uint_eq(strlen(bs_policy_trust_find(pol, pk)->name), 32);
	pkof(pk, 'E');
	ck_assert_ptr_null(bs_policy_trust_find(pol, pk));
	bs_policy_free(pol);
}
END_TEST

START_TEST(test_anchor_block_revoke_mode)
{
	struct bs_policy *pol = parse_ok(
	    "mode ca\nanchor @Z name ca\nanchor @Y\nblock @B\nrevoke @R\n"
	    "block @A\n", 0);
	uint8_t pk[BS_PK_LEN];

	ck_assert_int_eq(pol->mode, BS_POLICY_CA);
	pkof(pk, 'Z');
	ck_assert_str_eq(bs_policy_anchor_find(pol, pk)->name, "ca");
	pkof(pk, 'Y');
	ck_assert_str_eq(bs_policy_anchor_find(pol, pk)->name, "");
	pkof(pk, 'X');
	ck_assert_ptr_null(bs_policy_anchor_find(pol, pk));
	ck_assert_uint_eq(pol->n_block, 2);
	ck_assert_int_eq(pol->block[0].pk[0], 'A');
	pkof(pk, 'B');
	ck_assert(bs_policy_is_blocked(pol, pk));
	ck_assert(!bs_policy_is_revoked(pol, pk));
	pkof(pk, 'R');
	ck_assert(bs_policy_is_revoked(pol, pk));
	ck_assert(!bs_policy_is_blocked(pol, pk));
	bs_policy_free(pol);

	pol = parse_ok("anchor @Z revocation-days 30 revokes-anchors name r\n"
	    "anchor @Y\n", 0);
	pkof(pk, 'Z');
	ck_assert_str_eq(bs_policy_anchor_find(pol, pk)->name, "r");
	ck_assert_int_eq(bs_policy_anchor_find(pol, pk)->revokes_anchors, 1);
	ck_assert_uint_eq(bs_policy_anchor_find(pol, pk)->revocation_days, 30);
	pkof(pk, 'Y');
	ck_assert_int_eq(bs_policy_anchor_find(pol, pk)->revokes_anchors, 0);
	ck_assert_uint_eq(bs_policy_anchor_find(pol, pk)->revocation_days,
	    BS_POLICY_REVOKE_DAYS_DEF);
	assert_text_round_trip(pol, 0);
	assert_snap_round_trip(pol);
	bs_policy_free(pol);

	pol = parse_ok("mode open", 0);
	ck_assert_int_eq(pol->mode, BS_POLICY_OPEN);
	bs_policy_free(pol);
	pol = parse_ok("mode allowlist", 0);
	ck_assert_int_eq(pol->mode, BS_POLICY_ALLOWLIST);
	bs_policy_free(pol);
}
END_TEST

START_TEST(test_long_lines_and_eof)
{
	char text[2048];
	struct bs_policy *pol;

	/* A line of exactly BS_POLICY_LINE_MAX bytes is accepted. */
	memset(text, 'x', sizeof(text));
	text[0] = '#';
	text[BS_POLICY_LINE_MAX] = '\n';
	memcpy(text + BS_POLICY_LINE_MAX + 1, "mode open", 10);
	ck_assert_int_eq(bs_policy_parse_buf(text, strlen(text), "t", NULL, 0,
	    &pol, errbuf, sizeof(errbuf)), 0);
	ck_assert_int_eq(pol->mode, BS_POLICY_OPEN);	/* no final newline */
	bs_policy_free(pol);
}
END_TEST

/* Every limit: default, both ends of its range, and one past each end. */
START_TEST(test_limits)
{
	const struct bs_policy_limit_def *d = &bs_policy_limit_defs[_i];
	struct bs_policy *pol;
	char text[128];

	ck_assert(d->def >= d->min && d->def <= d->max);
	snprintf(text, sizeof(text), "limit %s %u\n", d->name, d->min);
	pol = parse_ok(text, 0);
	ck_assert_uint_eq(bs_policy_limit_get(&pol->limits, _i), d->min);
	bs_policy_free(pol);
	snprintf(text, sizeof(text), "limit %s %u\n", d->name, d->max);
	pol = parse_ok(text, 0);
	ck_assert_uint_eq(bs_policy_limit_get(&pol->limits, _i), d->max);
	assert_text_round_trip(pol, 0);
	bs_policy_free(pol);

	pol = NULL;
	snprintf(text, sizeof(text), "limit %s %u\n", d->name, d->max + 1);
	ck_assert_int_eq(bs_policy_parse_buf(text, strlen(text), "t", NULL, 0,
	    &pol, errbuf, sizeof(errbuf)), -1);
	ck_assert_ptr_null(pol);
	ck_assert_ptr_nonnull(strstr(errbuf, "out of range"));
	if (d->min > 0) {
		snprintf(text, sizeof(text), "limit %s %u\n", d->name,
		    d->min - 1);
		ck_assert_int_eq(bs_policy_parse_buf(text, strlen(text), "t",
		    NULL, 0, &pol, errbuf, sizeof(errbuf)), -1);
		ck_assert_ptr_nonnull(strstr(errbuf, "out of range"));
	}
}
END_TEST

START_TEST(test_documented_defaults)
{
	static const struct { const char *name; uint32_t def; } want[] = {
		{ "originators", 4096 }, { "stranger-share", 25 },
		{ "neighbor-stranger-share", 50 }, { "intro-rate", 10 },
		{ "intro-burst", 50 }, { "intro-global-rate", 100 },
		{ "intro-global-burst", 500 }, { "verify-rate", 200 },
		{ "verify-burst", 400 }, { "verify-global-rate", 2000 },
		{ "verify-global-burst", 4000 }, { "frame-rate", 100 },
		{ "frame-burst", 200 }, { "clients-per-originator", 1024 },
		{ "roam-per-minute", 6 }, { "pending-certs", 64 },
		{ "cert-every", 10 }, { "stranger-neighbors", 75 },
		{ "pin-after", 600 }, { "pins-per-neighbor", 8 },
		{ "pin-max-age", 30 },
	};
	size_t i;

	ck_assert_uint_eq(sizeof(want) / sizeof(want[0]),
	    BS_POLICY_LIMIT_COUNT);
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++) {
		ck_assert_str_eq(bs_policy_limit_defs[i].name, want[i].name);
		ck_assert_uint_eq(bs_policy_limit_defs[i].def, want[i].def);
	}
}
END_TEST

/* The shipped examples parse (includes not read) and round-trip. */
static const struct {
	const char *file;
	enum bs_policy_mode mode;
} examples[] = {
	{ "policy/examples/allowlist.policy", BS_POLICY_ALLOWLIST },
	{ "policy/examples/ca.policy", BS_POLICY_CA },
	{ "policy/examples/open.policy", BS_POLICY_OPEN },
};

START_TEST(test_examples)
{
	struct bs_policy *pol = NULL;

	/* tests/run starts the Check programs in the top directory. */
	ck_assert_msg(bs_policy_parse_file(examples[_i].file,
	    BS_POLICY_SKIP_INCLUDE, &pol, errbuf, sizeof(errbuf)) == 0, "%s",
	    errbuf);
	ck_assert_int_eq(pol->mode, examples[_i].mode);
	ck_assert_uint_gt(pol->n_trust, 0);
	assert_text_round_trip(pol, BS_POLICY_SKIP_INCLUDE);
	assert_snap_round_trip(pol);
	bs_policy_free(pol);
}
END_TEST

/* ---- parse errors ------------------------------------------------------- */

struct perr_case {
	const char *text;
	unsigned line;
	const char *msg;
};

#define LONG33 "aaaaaaaaaabbbbbbbbbbccccccccccddd"
/* 44 characters that are not base64; and 44 with non-zero padding bits. */
#define BAD44 "!AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
#define PAD44 "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB="

static const struct perr_case perr_cases[] = {
	{ "frob x", 1, "unknown directive 'frob'" },
	{ "\n# c\n\nTRUST @A", 4, "unknown directive 'TRUST'" },
	{ "mode", 1, "mode: expected one of allowlist, ca, open" },
	{ "mode open extra", 1, "mode: expected one of" },
	{ "mode closed", 1, "mode: unknown mode 'closed'" },
	{ "mode open\n\nmode open", 3, "mode: given twice (first on line 1)" },
	{ "mode ca\ntrust @A", 1, "mode ca: no anchor given" },
	{ "trust", 1, "trust: missing KEY" },
	{ "trust abc", 1,
	  "trust: bad key (expected 44 characters of base64)" },
	{ "trust @A=", 1, "trust: bad key (expected 44" },
	{ "trust " BAD44, 1, "trust: bad key (not base64 of a 32-byte key)" },
	{ "trust " PAD44, 1, "trust: bad key (not base64" },
	{ "trust @A#c", 1, "trust: bad key" },
	{ "trust @A name", 1, "trust: name: missing NAME" },
	{ "trust @A name a/b", 1, "trust: bad name 'a/b'" },
	{ "trust @A name " LONG33, 1, "trust: bad name" },
	{ "trust @A name a name b", 1, "trust: name given twice" },
	{ "trust @A gateway gateway", 1, "trust: gateway given twice" },
	{ "trust @A gw", 1, "trust: unknown option 'gw'" },
	{ "trust @A\ntrust @B\n\ntrust @A", 4,
	  "trust: key listed twice (first on line 1)" },
	{ "anchor", 1, "anchor: missing CAKEY" },
	{ "anchor xyz", 1, "anchor: bad key (expected 44" },
	{ "anchor @A gateway", 1, "anchor: unknown option 'gateway'" },
	{ "anchor @A name", 1, "anchor: name: missing NAME" },
	{ "anchor @A name x.y z", 1, "anchor: unknown option 'z'" },
	{ "anchor @A revokes-anchors revokes-anchors", 1,
	  "anchor: revokes-anchors given twice" },
	{ "anchor @A revocation-days", 1, "anchor: revocation-days: expected" },
	{ "anchor @A revocation-days 0", 1, "anchor: revocation-days: expected" },
	{ "anchor @A revocation-days 36501", 1,
	  "anchor: revocation-days: expected a number of days from 1 to 36500" },
	{ "anchor @A revocation-days 1 revocation-days 2", 1,
	  "anchor: revocation-days given twice" },
	{ "anchor @A name -x+", 1, "anchor: bad name '-x+'" },
	{ "anchor @A\nanchor @A", 2,
	  "anchor: key listed twice (first on line 1)" },
	{ "block", 1, "block: missing KEY" },
	{ "block @A @B", 1, "block: too many arguments" },
	{ "block 1234", 1, "block: bad key" },
	{ "block @A\nblock @A", 2, "block: key listed twice (first on line 1)" },
	{ "revoke", 1, "revoke: missing KEY" },
	{ "revoke @A x", 1, "revoke: too many arguments" },
	{ "revoke @A\nrevoke @A", 2,
	  "revoke: key listed twice (first on line 1)" },
	{ "limit", 1, "limit: expected NAME VALUE" },
	{ "limit originators", 1, "limit: expected NAME VALUE" },
	{ "limit originators 1 2", 1, "limit: expected NAME VALUE" },
	{ "limit speed 1", 1, "limit: unknown limit 'speed'" },
	{ "limit originators x", 1,
	  "limit originators: bad value 'x' (expected a decimal number)" },
	{ "limit originators -1", 1, "limit originators: bad value '-1'" },
	{ "limit originators +20", 1, "limit originators: bad value" },
	{ "limit originators 0x20", 1, "limit originators: bad value" },
	{ "limit originators 9999999999999", 1, "limit originators: bad value" },
	{ "limit originators 4294967297", 1,
	  "limit originators: '4294967297' out of range 16..1048576" },
	{ "limit stranger-share 101", 1,
	  "limit stranger-share: '101' out of range 0..100" },
	{ "limit intro-rate 0", 1, "limit intro-rate: '0' out of range" },
	{ "limit cert-every 5\nlimit cert-every 5", 2,
	  "limit cert-every: given twice (first on line 1)" },
	{ "include", 1, "include: expected one DIR" },
	{ "include a b", 1, "include: expected one DIR" },
	{ "include d\ninclude d", 2, "include 'd': given twice" },
	{ "include 1\ninclude 2\ninclude 3\ninclude 4\ninclude 5\ninclude 6\n"
	  "include 7\ninclude 8\ninclude 9\ninclude 10\ninclude 11\n"
	  "include 12\ninclude 13\ninclude 14\ninclude 15\ninclude 16\n"
	  "include 17\n", 17, "include: more than 16 include directives" },
	{ "trust @A\x01", 1, "control character 0x01" },
	{ "mode open\r\n", 1, "control character 0x0d" },
	{ "# comment \x7f\n", 1, "control character 0x7f" },
	{ "mode\x0bopen", 1, "control character 0x0b" },
	{ "trust @A name caf\xc3\xa9", 1, "non-ASCII byte outside a comment" },
	{ "a b c d e f g h i", 1, "'a': too many words" },
};

START_TEST(test_parse_errors)
{
	const struct perr_case *pc = &perr_cases[_i];
	struct bs_policy *sentinel = (struct bs_policy *)&errbuf, *pol;
	const char *text = expand(pc->text);
	char prefix[64];

	pol = sentinel;
	errbuf[0] = '\0';
	ck_assert_int_eq(bs_policy_parse_buf(text, strlen(text), "mesh.policy",
	    NULL, BS_POLICY_SKIP_INCLUDE, &pol, errbuf, sizeof(errbuf)), -1);
	ck_assert_ptr_eq(pol, sentinel);	/* *out untouched */
	snprintf(prefix, sizeof(prefix), "mesh.policy:%u: ", pc->line);
	ck_assert_msg(strncmp(errbuf, prefix, strlen(prefix)) == 0,
	    "case %d: want prefix '%s', got '%s'", _i, prefix, errbuf);
	ck_assert_msg(strstr(errbuf, pc->msg) != NULL,
	    "case %d: want '%s', got '%s'", _i, pc->msg, errbuf);
	ck_assert_ptr_null(strchr(errbuf, '\n'));
}
END_TEST

START_TEST(test_parse_error_bytes)
{
	static const char nul[] = "mode open\0";
	char *big, *line;
	struct bs_policy *pol = NULL;

	ck_assert_int_eq(bs_policy_parse_buf(nul, sizeof(nul) - 1, "p", NULL,
	    0, &pol, errbuf, sizeof(errbuf)), -1);
	ck_assert_str_eq(errbuf, "p:1: control character 0x00");

	line = malloc(BS_POLICY_LINE_MAX + 16);
	memset(line, '#', BS_POLICY_LINE_MAX + 16);
	memcpy(line, "mode open\n", 10);
	ck_assert_int_eq(bs_policy_parse_buf(line, 10 + BS_POLICY_LINE_MAX + 1,
	    "p", NULL, 0, &pol, errbuf, sizeof(errbuf)), -1);
	ck_assert_str_eq(errbuf, "p:2: line longer than 1024 bytes");
	free(line);

	big = calloc(1, BS_POLICY_FILE_MAX + 1);
	memset(big, '\n', BS_POLICY_FILE_MAX + 1);
	ck_assert_int_eq(bs_policy_parse_buf(big, BS_POLICY_FILE_MAX, "p",
	    NULL, 0, &pol, errbuf, sizeof(errbuf)), 0);
	bs_policy_free(pol);
	pol = NULL;
	ck_assert_int_eq(bs_policy_parse_buf(big, BS_POLICY_FILE_MAX + 1, "p",
	    NULL, 0, &pol, errbuf, sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "larger than"));
	ck_assert_ptr_null(pol);
	free(big);

	/* A tiny error buffer is never overrun and stays terminated. */
	ck_assert_int_eq(bs_policy_parse_buf("frob", 4, "p", NULL, 0, &pol,
	    errbuf, 5), -1);
	ck_assert_uint_le(strlen(errbuf), 4);
	ck_assert_int_eq(bs_policy_parse_buf("frob", 4, "p", NULL, 0, &pol,
	    NULL, 0), -1);
}
END_TEST

/* Entry bounds: the last allowed entry parses, one more is refused. */
START_TEST(test_entry_bounds)
{
	static const struct { const char *word; size_t max; } b[] = {
		{ "block", BS_POLICY_MAX_BLOCK },
		{ "revoke", BS_POLICY_MAX_REVOKE },
		{ "anchor", BS_POLICY_MAX_ANCHOR },
		{ "trust", BS_POLICY_MAX_TRUST },
	};
	char b64[BS_KEY_B64_LEN + 1], *text, *p, want[128];
	uint8_t pk[BS_PK_LEN];
	struct bs_policy *pol = NULL;
	size_t i, n = b[_i].max + 1;

	text = malloc(n * 64);
	ck_assert_ptr_nonnull(text);
	p = text;
	memset(pk, 0, sizeof(pk));
	for (i = 0; i < n; i++) {
		bs_put32(pk, (uint32_t)i);
		bs_key_to_b64(b64, pk);
		p += sprintf(p, "%s %s\n", b[_i].word, b64);
	}
	ck_assert_int_eq(bs_policy_parse_buf(text, (size_t)(p - text), "p",
	    NULL, 0, &pol, errbuf, sizeof(errbuf)), -1);
	snprintf(want, sizeof(want), "p:%zu: %s: more than %zu entries", n,
	    b[_i].word, b[_i].max);
	ck_assert_str_eq(errbuf, want);
	/* Drop the last line: now it fits. */
	p -= strlen(b[_i].word) + 2 + BS_KEY_B64_LEN;
	ck_assert_int_eq(bs_policy_parse_buf(text, (size_t)(p - text), "p",
	    NULL, 0, &pol, errbuf, sizeof(errbuf)), 0);
	bs_policy_free(pol);
	free(text);
}
END_TEST

/* ---- include DIR ------------------------------------------------------- */

static void
make_keys_dir(void)
{
	char a[512], b[512];

	make_tmpdir();
	put_dir("keys.d");
	put_file("keys.d/a.pub", "@A name alice gateway\n");
	put_file("keys.d/b.key", "# bob's router\n\n@B\n");
	put_file("keys.d/c.pub", "@C name carol");	/* no final newline */
	put_file("keys.d/.hidden.pub", "garbage");
	put_file("keys.d/notes.txt", "garbage");
	put_file("keys.d/x.pub~", "garbage");
	put_file("keys.d/.pub", "garbage");
	put_dir("keys.d/sub.pub");
	snprintf(a, sizeof(a), "%s/keys.d/fifo.key", tmpdir);
	ck_assert_int_eq(mkfifo(a, 0600), 0);
	put_file("target", "@D name dave\n");
	snprintf(a, sizeof(a), "%s/target", tmpdir);
	snprintf(b, sizeof(b), "%s/keys.d/link.pub", tmpdir);
	ck_assert_int_eq(symlink(a, b), 0);
	snprintf(b, sizeof(b), "%s/keys.d/dangling.pub", tmpdir);
	ck_assert_int_eq(symlink("/nonexistent/x", b), 0);
}

START_TEST(test_include_dir)
{
	struct bs_policy *pol = NULL;
	uint8_t pk[BS_PK_LEN];
	const struct bs_policy_trust *t;
	char *text;
	size_t len;

	make_keys_dir();
	put_file("mesh.policy", "trust @E name eve\ninclude keys.d\n");
	ck_assert_msg(parse_tmp("mesh.policy", &pol) == 0, "%s", errbuf);
	ck_assert_uint_eq(pol->n_include, 1);
	ck_assert_str_eq(pol->include[0], "keys.d");
	ck_assert_uint_eq(pol->n_trust, 5);	/* a b c link(d) + e */
	pkof(pk, 'A');
	t = bs_policy_trust_find(pol, pk);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->include, 1);
	ck_assert_int_eq(t->gateway, 1);
	ck_assert_str_eq(t->name, "alice");
	pkof(pk, 'B');
	ck_assert_int_eq(bs_policy_trust_find(pol, pk)->include, 1);
	pkof(pk, 'D');
	ck_assert_str_eq(bs_policy_trust_find(pol, pk)->name, "dave");
	pkof(pk, 'E');
	ck_assert_int_eq(bs_policy_trust_find(pol, pk)->include, 0);

	/* The include stays a directive in the canonical text. */
	len = bs_policy_format_len(pol);
	text = malloc(len + 1);
	ck_assert_int_eq(bs_policy_format(pol, text, len + 1, NULL), 0);
	ck_assert_ptr_nonnull(strstr(text, "\ninclude keys.d\n"));
	ck_assert_ptr_null(strstr(text, "alice"));
	ck_assert_ptr_nonnull(strstr(text, "eve"));
	put_file("canon.policy", text);
	free(text);
	{
		struct bs_policy *back = NULL;

		ck_assert_msg(parse_tmp("canon.policy", &back) == 0, "%s",
		    errbuf);
		ck_assert(bs_policy_equal(pol, back));
		bs_policy_free(back);
	}
	assert_snap_round_trip(pol);

	/* Included entries are not removed by trust remove. */
	pkof(pk, 'A');
	ck_assert_int_eq(bs_policy_trust_remove(pol, pk, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "comes from include keys.d"));
	ck_assert_int_eq(bs_policy_trust_add(pol, pk, NULL, 0, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "already trusted by include"));
	/* ... but a block entry still wins. */
	ck_assert_int_eq(bs_policy_block(pol, pk, NULL, 0), 0);
	ck_assert_int_eq(bs_policy_classify(pol, pk), BS_CLASS_BLOCKED);
	bs_policy_free(pol);

	/* Absolute DIR, read in sorted order into the same entries. */
	{
		char abs[600];
		struct bs_policy *p2 = NULL;

		snprintf(abs, sizeof(abs), "include %s/keys.d\n", tmpdir);
		ck_assert_int_eq(bs_policy_parse_buf(abs, strlen(abs), "x",
		    "/nonexistent", 0, &p2, errbuf, sizeof(errbuf)), 0);
		ck_assert_uint_eq(p2->n_trust, 4);
		bs_policy_free(p2);
	}
	rm_tmpdir();
}
END_TEST

struct inc_case {
	const char *file, *content, *msg;
};

static const struct inc_case inc_cases[] = {
	{ "bad.pub", "nonsense\n",
	  "mesh.policy:2: include: keys.d/bad.pub:1: trust: bad key "
	  "(expected 44 characters of base64)" },
	{ "two.pub", "@Q\n# c\n@R\n",
	  "mesh.policy:2: include: keys.d/two.pub:3: more than one key line" },
	{ "empty.key", "# only a comment\n\n",
	  "mesh.policy:2: include: keys.d/empty.key:2: no key line" },
	{ "dup.pub", "@E name other\n",
	  "mesh.policy:2: include: keys.d/dup.pub:1: trust: key listed twice "
	  "(first on line 1)" },
	{ "opt.pub", "@Q name a/b\n",
	  "mesh.policy:2: include: keys.d/opt.pub:1: trust: bad name 'a/b'" },
	{ "ctl.pub", "@Q\r\n",
	  "mesh.policy:2: include: keys.d/ctl.pub:1: control character 0x0d" },
};

START_TEST(test_include_errors)
{
	const struct inc_case *ic = &inc_cases[_i];
	struct bs_policy *pol = NULL;
	char path[600];

	make_keys_dir();
	snprintf(path, sizeof(path), "keys.d/%s", ic->file);
	put_file(path, ic->content);
	put_file("mesh.policy", "trust @E\ninclude keys.d\n");
	ck_assert_int_eq(parse_tmp("mesh.policy", &pol), -1);
	ck_assert_ptr_null(pol);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, ic->msg);
	ck_assert_msg(strncmp(errbuf, path, strlen(path)) == 0,
	    "want '%s', got '%s'", path, errbuf);
	rm_tmpdir();
}
END_TEST

START_TEST(test_include_dir_errors)
{
	struct bs_policy *pol = NULL;
	char path[600], big[BS_POLICY_INCLUDE_FILE_MAX + 2];
	int i;

	make_tmpdir();
	put_file("p1", "include missing.d\n");
	ck_assert_int_eq(parse_tmp("p1", &pol), -1);
	snprintf(path, sizeof(path), "%s/p1:1: include missing.d: "
	    "No such file or directory", tmpdir);
	ck_assert_str_eq(errbuf, path);

	put_file("p2", "include p1\n");		/* not a directory */
	ck_assert_int_eq(parse_tmp("p2", &pol), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, ":1: include p1: "));

	put_dir("big.d");
	memset(big, '#', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	put_file("big.d/x.pub", big);
	put_file("p3", "include big.d\n");
	ck_assert_int_eq(parse_tmp("p3", &pol), -1);
	ck_assert_ptr_nonnull(strstr(errbuf,
	    "include big.d/x.pub: larger than 4096 bytes"));

	/* More key files than BS_POLICY_INCLUDE_FILES. */
	put_dir("many.d");
	for (i = 0; i <= BS_POLICY_INCLUDE_FILES; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/many.d/%05d.pub", tmpdir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	put_file("p4", "include many.d\n");
	ck_assert_int_eq(parse_tmp("p4", &pol), -1);
	ck_assert_ptr_nonnull(strstr(errbuf,
	    "include many.d: more than 4096 key files"));

	/* Skipping includes reads nothing. */
	ck_assert_int_eq(bs_policy_parse_buf("include many.d", 14, "p", tmpdir,
	    BS_POLICY_SKIP_INCLUDE, &pol, errbuf, sizeof(errbuf)), 0);
	ck_assert_uint_eq(pol->n_include, 1);
	ck_assert_uint_eq(pol->n_trust, 0);
	bs_policy_free(pol);
	rm_tmpdir();
}
END_TEST

START_TEST(test_parse_file_errors)
{
	struct bs_policy *pol = NULL;
	char want[600];
	int fd;

	make_tmpdir();
	ck_assert_int_eq(parse_tmp("nope", &pol), -1);
	snprintf(want, sizeof(want), "%s/nope: No such file or directory",
	    tmpdir);
	ck_assert_str_eq(errbuf, want);
	put_dir("d");
	ck_assert_int_eq(parse_tmp("d", &pol), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "/d: not a regular file"));

	snprintf(want, sizeof(want), "%s/huge", tmpdir);
	fd = open(want, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, BS_POLICY_FILE_MAX + 1), 0);
	close(fd);
	ck_assert_int_eq(parse_tmp("huge", &pol), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "/huge: larger than 4 MiB"));

	put_file("bad", "mode ca\nanchor @A\n\nblock x\n");
	ck_assert_int_eq(parse_tmp("bad", &pol), -1);
	snprintf(want, sizeof(want), "%s/bad:4: block: bad key (expected 44 "
	    "characters of base64)", tmpdir);
	ck_assert_str_eq(errbuf, want);
	ck_assert_ptr_null(pol);

	put_file("good", "mode open\n");
	ck_assert_int_eq(parse_tmp("good", &pol), 0);
	ck_assert_int_eq(pol->mode, BS_POLICY_OPEN);
	bs_policy_free(pol);
	rm_tmpdir();
}
END_TEST

/*
 * Owner and mode of the policy file, an include directory and the files
 * in it (batsec-policy(5) FILES): owned by root or the reader, writable
 * by nobody else.  uid 4242 stands for another user (chown needs root:
 * the tests run as root in CI; as another user those cases only say so).
 */
static const struct perm_case {
	const char *rel;	/* what to change, under tmpdir */
	mode_t mode;		/* 0: leave */
	int owner;		/* give it to uid 4242 */
	const char *msg;	/* after tmpdir "/"; NULL: parses */
} perm_cases[] = {
	{ "mesh.policy", 0664, 0, "mesh.policy: writable by group or others "
	  "(mode 0664); run chmod go-w " },
	{ "mesh.policy", 0602, 0, "mesh.policy: writable by group or others" },
	{ "mesh.policy", 0600, 0, NULL },
	{ "mesh.policy", 0, 1, "mesh.policy: owned by uid 4242, not by root" },
	{ "keys.d", 0777, 0, "mesh.policy:2: include keys.d: writable by group "
	  "or others (mode 0777)" },
	{ "keys.d", 01777, 0, "mesh.policy:2: include keys.d: writable" },
	{ "keys.d", 0700, 0, NULL },
	{ "keys.d", 0, 1, "mesh.policy:2: include keys.d: owned by uid 4242" },
	{ "keys.d/a.pub", 0666, 0, "mesh.policy:2: include keys.d/a.pub: "
	  "writable by group or others (mode 0666)" },
	{ "keys.d/a.pub", 0, 1, "mesh.policy:2: include keys.d/a.pub: owned by "
	  "uid 4242" },
	/* A key file reached through a symbolic link: its target counts. */
	{ "target", 0620, 0, "mesh.policy:2: include keys.d/link.pub: writable" },
	{ "target", 0, 1, "mesh.policy:2: include keys.d/link.pub: owned by" },
};

START_TEST(test_file_perms)
{
	const struct perm_case *pc = &perm_cases[_i];
	struct bs_policy *pol = NULL;
	char path[600], want[700];

	make_keys_dir();
	put_file("mesh.policy", "trust @E\ninclude keys.d\n");
	snprintf(path, sizeof(path), "%s/%s", tmpdir, pc->rel);
	if (pc->mode != 0)
		ck_assert_int_eq(chmod(path, pc->mode), 0);
	if (pc->owner && geteuid() != 0) {
		fprintf(stderr, "test_file_perms %d: not root, the owner "
		    "check did not run\n", _i);
		rm_tmpdir();
		return;
	}
	if (pc->owner)
		ck_assert_int_eq(chown(path, 4242, 4242), 0);
	if (pc->msg == NULL) {
		ck_assert_msg(parse_tmp("mesh.policy", &pol) == 0, "%s",
		    errbuf);
		bs_policy_free(pol);
		rm_tmpdir();
		return;
	}
	ck_assert_int_eq(parse_tmp("mesh.policy", &pol), -1);
	ck_assert_ptr_null(pol);
	snprintf(want, sizeof(want), "%s/%s", tmpdir, pc->msg);
	ck_assert_msg(strncmp(errbuf, want, strlen(want)) == 0,
	    "want '%s', got '%s'", want, errbuf);
	ck_assert_ptr_null(strchr(errbuf, '\n'));
	rm_tmpdir();
}
END_TEST

/* ---- classification ------------------------------------------------------ */

/* Keys: T trusted, G trusted gateway, B blocked, X trusted and blocked,
 * R revoked, U unknown. */
static const char *const class_base =
    "trust @T\ntrust @G gateway\nblock @B\ntrust @X gateway\nblock @X\n"
    "revoke @R\ntrust @R\nanchor @Z\n";

struct class_case {
	const char *mode;
	char key;
	enum bs_policy_class want;
};

static const struct class_case class_cases[] = {
	{ "allowlist", 'T', BS_CLASS_TRUSTED },
	{ "allowlist", 'G', BS_CLASS_TRUSTED },
	{ "allowlist", 'B', BS_CLASS_BLOCKED },
	{ "allowlist", 'X', BS_CLASS_BLOCKED },
	{ "allowlist", 'R', BS_CLASS_BLOCKED },
	{ "allowlist", 'U', BS_CLASS_REFUSED },
	{ "ca", 'T', BS_CLASS_TRUSTED },
	{ "ca", 'B', BS_CLASS_BLOCKED },
	{ "ca", 'X', BS_CLASS_BLOCKED },
	{ "ca", 'R', BS_CLASS_BLOCKED },
	{ "ca", 'U', BS_CLASS_REFUSED },
	{ "open", 'T', BS_CLASS_TRUSTED },
	{ "open", 'B', BS_CLASS_BLOCKED },
	{ "open", 'X', BS_CLASS_BLOCKED },
	{ "open", 'R', BS_CLASS_BLOCKED },
	{ "open", 'U', BS_CLASS_STRANGER },
};

START_TEST(test_classify)
{
	const struct class_case *cc = &class_cases[_i];
	struct bs_policy *pol;
	struct bs_policy_verdict v;
	char text[1024];
	uint8_t pk[BS_PK_LEN];

	snprintf(text, sizeof(text), "mode %s\n%s", cc->mode, class_base);
	pol = parse_ok(text, 0);
	pkof(pk, cc->key);
	ck_assert_int_eq(bs_policy_classify(pol, pk), cc->want);
	v = bs_policy_classify_cert(pol, pk, NULL, 0);
	ck_assert_int_eq(v.cls, cc->want);
	ck_assert_int_eq(bs_policy_gateway_ok(pol, pk, NULL, 0),
	    cc->key == 'G');
	if (cc->key == 'R')
		ck_assert_int_eq(v.reason, BS_PR_REVOKED);
	if (cc->key == 'X' || cc->key == 'B')
		ck_assert_int_eq(v.reason, BS_PR_BLOCKED);
	ck_assert_ptr_nonnull(bs_policy_verdict_str(&v));
	bs_policy_free(pol);
}
END_TEST

/* Certificates: a CA identity issues certs for node N (32 bytes of 'N'). */
struct cert_case {
	const char *policy;	/* "@C" is the CA key */
	int variant;		/* see make_case_cert */
	uint64_t now;
	enum bs_policy_class want;
	enum bs_policy_reason reason;
	int cert_err;
	int gateway;
};

enum { CV_GOOD, CV_GOOD_GW, CV_OTHER_KEY, CV_BAD_SIG, CV_OTHER_CA, CV_NONE };

#define T0 1700000000ull

static const struct cert_case cert_cases[] = {
	{ "mode ca\nanchor @C", CV_GOOD, T0, BS_CLASS_CERTIFIED,
	  BS_PR_CERT_OK, 0, 0 },
	{ "mode ca\nanchor @C", CV_GOOD_GW, T0, BS_CLASS_CERTIFIED,
	  BS_PR_CERT_OK, 0, 1 },
	{ "mode ca\nanchor @C", CV_GOOD_GW, 0, BS_CLASS_CERTIFIED,
	  BS_PR_CERT_OK, 0, 1 },
	{ "mode ca\nanchor @C", CV_GOOD, T0 + 100000, BS_CLASS_REFUSED,
	  BS_PR_CERT_INVALID, BS_CERT_EEXPIRED, 0 },
	{ "mode ca\nanchor @C", CV_GOOD, T0 - 100000, BS_CLASS_REFUSED,
	  BS_PR_CERT_INVALID, BS_CERT_ENOTYET, 0 },
	/* The validity window [T0 - 1h, T0 + 1h] with BS_CERT_SKEW (300 s)
	 * of tolerance either way, to the second. */
	{ "mode ca\nanchor @C", CV_GOOD, T0 + 3600 + 300, BS_CLASS_CERTIFIED,
	  BS_PR_CERT_OK, 0, 0 },
	{ "mode ca\nanchor @C", CV_GOOD, T0 + 3600 + 301, BS_CLASS_REFUSED,
	  BS_PR_CERT_INVALID, BS_CERT_EEXPIRED, 0 },
	{ "mode ca\nanchor @C", CV_GOOD, T0 - 3600 - 300, BS_CLASS_CERTIFIED,
	  BS_PR_CERT_OK, 0, 0 },
	{ "mode ca\nanchor @C", CV_GOOD, T0 - 3600 - 301, BS_CLASS_REFUSED,
	  BS_PR_CERT_INVALID, BS_CERT_ENOTYET, 0 },
	/* No clock (0): the window is not checked, the rest still is. */
	{ "mode ca\nanchor @C", CV_BAD_SIG, 0, BS_CLASS_REFUSED,
	  BS_PR_CERT_INVALID, BS_CERT_ESIG, 0 },
	{ "mode ca\nanchor @C", CV_OTHER_CA, 0, BS_CLASS_REFUSED,
	  BS_PR_CERT_NO_ANCHOR, 0, 0 },
	/* An expired certificate leaves a key in mode open a stranger. */
	{ "mode open\nanchor @C", CV_GOOD_GW, T0 + 100000, BS_CLASS_STRANGER,
	  BS_PR_CERT_INVALID, BS_CERT_EEXPIRED, 0 },
	{ "mode ca\nanchor @C", CV_BAD_SIG, T0, BS_CLASS_REFUSED,
	  BS_PR_CERT_INVALID, BS_CERT_ESIG, 0 },
	{ "mode ca\nanchor @C", CV_OTHER_KEY, T0, BS_CLASS_REFUSED,
	  BS_PR_CERT_OTHER_KEY, 0, 0 },
	{ "mode ca\nanchor @C", CV_OTHER_CA, T0, BS_CLASS_REFUSED,
	  BS_PR_CERT_NO_ANCHOR, 0, 0 },
	{ "mode ca\nanchor @C", CV_NONE, T0, BS_CLASS_REFUSED,
	  BS_PR_UNKNOWN, 0, 0 },
	{ "mode ca\nanchor @C\nblock @C", CV_GOOD, T0, BS_CLASS_REFUSED,
	  BS_PR_CERT_ANCHOR_BLOCKED, 0, 0 },
	{ "mode ca\nanchor @C\nrevoke @C", CV_GOOD, T0, BS_CLASS_REFUSED,
	  BS_PR_CERT_ANCHOR_BLOCKED, 0, 0 },
	{ "mode allowlist\nanchor @C", CV_GOOD_GW, T0, BS_CLASS_REFUSED,
	  BS_PR_CERT_IGNORED, 0, 0 },
	{ "mode open\nanchor @C", CV_GOOD_GW, T0, BS_CLASS_CERTIFIED,
	  BS_PR_CERT_OK, 0, 1 },
	{ "mode open\nanchor @C", CV_BAD_SIG, T0, BS_CLASS_STRANGER,
	  BS_PR_CERT_INVALID, BS_CERT_ESIG, 0 },
	{ "mode open", CV_GOOD, T0, BS_CLASS_STRANGER,
	  BS_PR_CERT_NO_ANCHOR, 0, 0 },
	/* Entries decide alone: trust beats a cert (and its gateway role). */
	{ "mode ca\nanchor @C\ntrust @N", CV_GOOD_GW, T0, BS_CLASS_TRUSTED,
	  BS_PR_TRUSTED, 0, 0 },
	{ "mode ca\nanchor @C\ntrust @N gateway", CV_GOOD, T0,
	  BS_CLASS_TRUSTED, BS_PR_TRUSTED, 0, 1 },
	{ "mode ca\nanchor @C\nblock @N", CV_GOOD_GW, T0, BS_CLASS_BLOCKED,
	  BS_PR_BLOCKED, 0, 0 },
	{ "mode ca\nanchor @C\nrevoke @N", CV_GOOD_GW, T0, BS_CLASS_BLOCKED,
	  BS_PR_REVOKED, 0, 0 },
};

START_TEST(test_classify_cert)
{
	const struct cert_case *cc = &cert_cases[_i];
	struct bs_identity ca, other;
	char b64[BS_KEY_B64_LEN + 1], text[512], *at;
	uint8_t node[BS_PK_LEN], target[BS_PK_LEN];
	struct bs_cert cert;
	struct bs_policy *pol;
	struct bs_policy_verdict v;

	t_ident(&ca, 1);
	t_ident(&other, 2);
	pkof(node, 'N');
	memcpy(target, node, sizeof(target));
	/* Substitute the real CA key for "@C" before the @X expansion. */
	snprintf(text, sizeof(text), "%s", cc->policy);
	bs_key_to_b64(b64, ca.pk);
	while ((at = strstr(text, "@C")) != NULL) {
		char rest[512];

		snprintf(rest, sizeof(rest), "%s", at + 2);
		snprintf(at, sizeof(text) - (size_t)(at - text), "%s%s", b64,
		    rest);
	}
	pol = parse_ok(text, 0);
	if (cc->variant == CV_OTHER_KEY)
		target[0] ^= 1;
	ck_assert_int_eq(bs_cert_issue(&cert, cc->variant == CV_OTHER_CA ?
	    &other : &ca, target, "node", cc->variant == CV_GOOD_GW ?
	    BS_ROLE_GATEWAY : 0, T0 - 3600, T0 + 3600), 0);
	if (cc->variant == CV_BAD_SIG)
		cert.sig[5] ^= 0x20;
	v = bs_policy_classify_cert(pol, node, cc->variant == CV_NONE ? NULL :
	    &cert, cc->now);
	ck_assert_int_eq(v.cls, cc->want);
	ck_assert_int_eq(v.reason, cc->reason);
	if (cc->reason == BS_PR_CERT_INVALID)
		ck_assert_int_eq(v.cert_err, cc->cert_err);
	ck_assert_int_eq(bs_policy_gateway_ok(pol, node, cc->variant ==
	    CV_NONE ? NULL : &cert, cc->now), cc->gateway);
	ck_assert_ptr_nonnull(bs_policy_verdict_str(&v));
	ck_assert_str_ne(bs_policy_verdict_str(&v), "unknown");
	bs_policy_free(pol);
}
END_TEST

/*
 * Which CA revocation records count (bs_policy_revoke_problem): @M may
 * revoke anchors (and @O), @A and @B are plain anchors, @K is blocked, @L
 * revoked locally (both anchors), @N is a node key, @X no anchor.  Days: @A 10, the rest 3650.
 */
#define RP_T0	1800000000ULL
#define RP_DAY	86400ULL
static const char *const rp_policy =
    "mode ca\nanchor @M revokes-anchors\nanchor @O revokes-anchors\n"
    "anchor @A revocation-days 10\nanchor @B\nanchor @K revokes-anchors\n"
    "anchor @L\nblock @K\nrevoke @L\n";

static const struct rp_case {
	char issuer, revoked;
	uint64_t issued, now;
	const char *why;		/* NULL: counts; else a substring */
} rp_cases[] = {
	{ 'A', 'N', RP_T0, RP_T0, NULL },
	{ 'X', 'N', RP_T0, RP_T0, "not an anchor" },
	{ 'K', 'N', RP_T0, RP_T0, "blocked or revoked anchor" },
	{ 'L', 'N', RP_T0, RP_T0, "blocked or revoked anchor" },
	{ 'K', 'B', RP_T0, RP_T0, "blocked or revoked anchor" },
	/* an anchor revoking an anchor: only with revokes-anchors */
	{ 'A', 'B', RP_T0, RP_T0, "revokes an anchor" },
	{ 'A', 'A', RP_T0, RP_T0, "revokes an anchor" },
	{ 'M', 'B', RP_T0, RP_T0, NULL },
	{ 'M', 'M', RP_T0, RP_T0, "revokes an anchor" },
	/* and never one that has revokes-anchors itself */
	{ 'M', 'K', RP_T0, RP_T0, "revokes an anchor" },
	/* expiry: issued_at + revocation-days, with the skew */
	{ 'A', 'N', RP_T0, RP_T0 + 10 * RP_DAY + BS_CERT_SKEW, NULL },
	{ 'A', 'N', RP_T0, RP_T0 + 10 * RP_DAY + BS_CERT_SKEW + 1, "expired" },
	{ 'B', 'N', RP_T0, RP_T0 + 11 * RP_DAY, NULL },
	{ 'B', 'N', RP_T0, RP_T0 + 3651 * RP_DAY, "expired" },
	{ 'A', 'N', RP_T0, 0, NULL },		/* no clock */
	{ 'A', 'N', UINT64_MAX - 5, UINT64_MAX, NULL },	/* saturates */
};

START_TEST(test_revoke_scope)
{
	const struct rp_case *rc = &rp_cases[_i];
	struct bs_policy *pol = parse_ok(rp_policy, 0);
	struct bs_revoke r;
	const char *why;

	memset(&r, 0, sizeof(r));
	pkof(r.issuer_pk, rc->issuer);
	pkof(r.revoked_pk, rc->revoked);
	r.issued_at = rc->issued;
	why = bs_policy_revoke_problem(pol, &r, rc->now);
	if (rc->why == NULL)
		ck_assert_msg(why == NULL, "case %d: %s", _i, why);
	else
		ck_assert_msg(why != NULL && strstr(why, rc->why) != NULL,
		    "case %d: want '%s', got '%s'", _i, rc->why,
		    why ? why : "(counts)");
	bs_policy_free(pol);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(bs_policy_class_name(BS_CLASS_BLOCKED), "blocked");
	ck_assert_str_eq(bs_policy_class_name(BS_CLASS_REFUSED), "refused");
	ck_assert_str_eq(bs_policy_class_name(BS_CLASS_STRANGER), "stranger");
	ck_assert_str_eq(bs_policy_class_name(BS_CLASS_CERTIFIED),
	    "certified");
	ck_assert_str_eq(bs_policy_class_name(BS_CLASS_TRUSTED), "trusted");
	ck_assert_str_eq(bs_policy_mode_name(BS_POLICY_CA), "ca");
	ck_assert_ptr_null(bs_policy_mode_name((enum bs_policy_mode)3));
	ck_assert(bs_policy_name_ok("a", 1));
	ck_assert(!bs_policy_name_ok("", 0));
	ck_assert(!bs_policy_name_ok("a b", 3));
	ck_assert(!bs_policy_name_ok(LONG33, 33));
	ck_assert(bs_policy_name_ok(LONG33, 32));
	ck_assert(bs_policy_path_ok("/etc/x", 6));
	ck_assert(!bs_policy_path_ok("#x", 2));
	ck_assert(!bs_policy_path_ok("a b", 3));
	ck_assert(!bs_policy_path_ok("", 0));
}
END_TEST

/* ---- live edits ---------------------------------------------------------- */

START_TEST(test_mutators)
{
	struct bs_policy *pol = parse_ok("trust @M\n", 0), *before;
	uint8_t a[BS_PK_LEN], b[BS_PK_LEN], z[BS_PK_LEN], m[BS_PK_LEN];
	const struct bs_policy_trust *t;

	pkof(a, 'A');
	pkof(b, 'B');
	pkof(z, 'Z');
	pkof(m, 'M');
	ck_assert_int_eq(bs_policy_trust_add(pol, z, "zed", 1, errbuf,
	    sizeof(errbuf)), 0);
	ck_assert_int_eq(bs_policy_trust_add(pol, a, NULL, 0, errbuf,
	    sizeof(errbuf)), 0);
	ck_assert_int_eq(bs_policy_trust_add(pol, b, "", 7, errbuf,
	    sizeof(errbuf)), 0);
	ck_assert_uint_eq(pol->n_trust, 4);
	ck_assert_int_eq(pol->trust[0].pk[0], 'A');
	ck_assert_int_eq(pol->trust[1].pk[0], 'B');
	ck_assert_int_eq(pol->trust[2].pk[0], 'M');
	ck_assert_int_eq(pol->trust[3].pk[0], 'Z');
	t = bs_policy_trust_find(pol, z);
	ck_assert_str_eq(t->name, "zed");
	ck_assert_int_eq(t->gateway, 1);
	ck_assert_int_eq(bs_policy_trust_find(pol, b)->gateway, 1);
	ck_assert_int_eq(bs_policy_validate(pol, NULL, 0), 0);

	/* Failing edits change nothing. */
	before = bs_policy_dup(pol);
	ck_assert_ptr_nonnull(before);
	ck_assert(bs_policy_equal(pol, before));
	ck_assert_int_eq(bs_policy_trust_add(pol, a, NULL, 0, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, ": already trusted"));
	pkof(m, 'Q');
	ck_assert_int_eq(bs_policy_trust_add(pol, m, "bad name", 0, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "bad name"));
	ck_assert_int_eq(bs_policy_trust_add(pol, m, LONG33, 0, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_int_eq(bs_policy_trust_remove(pol, m, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "not trusted"));
	ck_assert_int_eq(bs_policy_unblock(pol, a, errbuf, sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "block "));
	ck_assert_ptr_nonnull(strstr(errbuf, ": not listed"));
	ck_assert_int_eq(bs_policy_unrevoke(pol, a, errbuf, sizeof(errbuf)),
	    -1);
	ck_assert(bs_policy_equal(pol, before));

	/* Block wins over trust; unblock restores it. */
	ck_assert_int_eq(bs_policy_block(pol, a, errbuf, sizeof(errbuf)), 0);
	ck_assert_int_eq(bs_policy_block(pol, a, errbuf, sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "already listed"));
	ck_assert_int_eq(bs_policy_classify(pol, a), BS_CLASS_BLOCKED);
	ck_assert_int_eq(bs_policy_unblock(pol, a, errbuf, sizeof(errbuf)), 0);
	ck_assert_int_eq(bs_policy_classify(pol, a), BS_CLASS_TRUSTED);
	ck_assert_int_eq(bs_policy_revoke(pol, z, errbuf, sizeof(errbuf)), 0);
	ck_assert_int_eq(bs_policy_revoke(pol, z, errbuf, sizeof(errbuf)), -1);
	ck_assert_int_eq(bs_policy_classify(pol, z), BS_CLASS_BLOCKED);
	ck_assert_int_eq(bs_policy_gateway_ok(pol, z, NULL, 0), 0);
	assert_text_round_trip(pol, 0);
	assert_snap_round_trip(pol);
	ck_assert_int_eq(bs_policy_unrevoke(pol, z, errbuf, sizeof(errbuf)),
	    0);
	ck_assert_int_eq(bs_policy_trust_remove(pol, a, errbuf,
	    sizeof(errbuf)), 0);
	ck_assert_int_eq(bs_policy_classify(pol, a), BS_CLASS_REFUSED);
	ck_assert(!bs_policy_equal(pol, before));
	ck_assert_int_eq(bs_policy_validate(pol, NULL, 0), 0);
	bs_policy_free(before);
	bs_policy_free(pol);
}
END_TEST

/*
 * What batsecd does for `batsec-ctl trust add` on a file with comments,
 * an include directory and limits: edit a copy, write its canonical text
 * atomically over the file, read the file back.  The result equals the
 * edited policy, keeps the include directive (its keys are not copied)
 * and the limits, and loses only the comments.
 */
START_TEST(test_edit_write_cycle)
{
	struct bs_policy *pol = NULL, *back = NULL;
	uint8_t n[BS_PK_LEN];
	char path[512], *text;
	size_t len, cap;

	make_tmpdir();
	put_dir("peers.d");
	put_file("peers.d/a.pub", "@A name anna\n");
	put_file("mesh.policy", "# the mesh\nmode open\ninclude peers.d\n"
	    "limit stranger-share 10\ntrust @B gateway # core\nblock @C\n");
	ck_assert_int_eq(parse_tmp("mesh.policy", &pol), 0);
	pkof(n, 'N');
	ck_assert_int_eq(bs_policy_trust_add(pol, n, "new", 0, errbuf,
	    sizeof(errbuf)), 0);
	cap = bs_policy_format_len(pol) + 1;
	text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(bs_policy_format(pol, text, cap, &len), 0);
	ck_assert_ptr_null(strstr(text, "# the mesh"));
	ck_assert_ptr_nonnull(strstr(text, "include peers.d\n"));
	ck_assert_ptr_null(strstr(text, "anna"));
	snprintf(path, sizeof(path), "%s/mesh.policy", tmpdir);
	ck_assert_int_eq(bs_file_write_atomic(path, text, len, 0640, errbuf,
	    sizeof(errbuf)), 0);
	ck_assert_int_eq(parse_tmp("mesh.policy", &back), 0);
	ck_assert(bs_policy_equal(pol, back));
	ck_assert_uint_eq(back->limits.stranger_share, 10);
	ck_assert_int_eq(bs_policy_classify(back, n), BS_CLASS_TRUSTED);
	/* The included key is still there and still cannot be removed. */
	pkof(n, 'A');
	ck_assert_int_eq(bs_policy_classify(back, n), BS_CLASS_TRUSTED);
	ck_assert_int_eq(bs_policy_trust_remove(back, n, errbuf,
	    sizeof(errbuf)), -1);
	free(text);
	bs_policy_free(pol);
	bs_policy_free(back);
	rm_tmpdir();
}
END_TEST

START_TEST(test_mutator_bounds)
{
	struct bs_policy *pol = bs_policy_new();
	uint8_t pk[BS_PK_LEN];
	size_t i;

	memset(pk, 0, sizeof(pk));
	for (i = 0; i < BS_POLICY_MAX_BLOCK; i++) {
		bs_put32(pk, (uint32_t)i);
		ck_assert_int_eq(bs_policy_block(pol, pk, NULL, 0), 0);
	}
	bs_put32(pk, (uint32_t)i);
	ck_assert_int_eq(bs_policy_block(pol, pk, errbuf, sizeof(errbuf)), -1);
	ck_assert_ptr_nonnull(strstr(errbuf, "more than 4096 entries"));
	ck_assert_uint_eq(pol->n_block, BS_POLICY_MAX_BLOCK);
	ck_assert_int_eq(bs_policy_validate(pol, NULL, 0), 0);
	bs_policy_free(pol);
}
END_TEST

/* ---- round trips ---------------------------------------------------------- */

static const char *const round_trip_cases[] = {
	"",
	"mode open\n",
	"mode ca\nanchor @A\n",
	"trust @A name a gateway\ntrust @B\n",
	NULL,	/* rich_policy */
};

START_TEST(test_text_round_trip)
{
	const char *tmpl = round_trip_cases[_i] != NULL ? round_trip_cases[_i] :
	    rich_policy;
	struct bs_policy *pol = parse_ok(tmpl, BS_POLICY_SKIP_INCLUDE);

	assert_text_round_trip(pol, BS_POLICY_SKIP_INCLUDE);
	assert_snap_round_trip(pol);
	bs_policy_free(pol);
}
END_TEST

START_TEST(test_canonical_text)
{
	struct bs_policy *pol = parse_ok(
	    "block @B\n  trust   @A\tgateway name x # c\nlimit intro-rate 10\n"
	    "limit frame-rate 7\nmode open\n", 0);
	char want[1024], got[1024];

	snprintf(want, sizeof(want), "%s", expand(
	    "# batsec policy in canonical form, see batsec-policy(5); "
	    "comments are not kept\n"
	    "mode open\n"
	    "limit frame-rate 7\n"
	    "trust @A name x gateway\n"
	    "block @B\n"));
	ck_assert_int_eq(bs_policy_format(pol, got, sizeof(got), NULL), 0);
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(bs_policy_format(pol, got, 0, NULL), -1);
	bs_policy_free(pol);
}
END_TEST

/* The largest policy the bounds allow still formats under the file limit,
 * parses back, and snapshots within BS_POLICY_SNAP_MAX. */
START_TEST(test_largest_policy)
{
	struct bs_policy *pol = bs_policy_new();
	size_t i, len;
	uint8_t *buf;

	pol->mode = BS_POLICY_CA;
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++) {
		uint32_t v = bs_policy_limit_defs[i].max;

		memcpy((char *)&pol->limits + bs_policy_limit_defs[i].offset,
		    &v, sizeof(v));
	}
	for (i = 0; i < BS_POLICY_MAX_INCLUDE; i++) {
		pol->include[i] = malloc(BS_POLICY_PATH_MAX + 1);
		memset(pol->include[i], 'd', BS_POLICY_PATH_MAX);
		pol->include[i][BS_POLICY_PATH_MAX] = '\0';
		pol->include[i][0] = (char)('a' + i);
	}
	pol->n_include = BS_POLICY_MAX_INCLUDE;
	pol->trust = calloc(BS_POLICY_MAX_TRUST, sizeof(*pol->trust));
	pol->anchor = calloc(BS_POLICY_MAX_ANCHOR, sizeof(*pol->anchor));
	pol->block = calloc(BS_POLICY_MAX_BLOCK, sizeof(*pol->block));
	pol->revoke = calloc(BS_POLICY_MAX_REVOKE, sizeof(*pol->revoke));
	for (i = 0; i < BS_POLICY_MAX_TRUST; i++) {
		bs_put32(pol->trust[i].pk, (uint32_t)i);
		memset(pol->trust[i].name, 'n', BS_POLICY_NAME_MAX);
		pol->trust[i].gateway = 1;
	}
	for (i = 0; i < BS_POLICY_MAX_ANCHOR; i++) {
		bs_put32(pol->anchor[i].pk, (uint32_t)i);
		memset(pol->anchor[i].name, 'a', BS_POLICY_NAME_MAX);
		pol->anchor[i].revokes_anchors = 1;
		pol->anchor[i].revocation_days = BS_POLICY_REVOKE_DAYS_MAX;
	}
	for (i = 0; i < BS_POLICY_MAX_BLOCK; i++)
		bs_put32(pol->block[i].pk, (uint32_t)i);
	for (i = 0; i < BS_POLICY_MAX_REVOKE; i++)
		bs_put32(pol->revoke[i].pk, (uint32_t)i);
	pol->n_trust = BS_POLICY_MAX_TRUST;
	pol->n_anchor = BS_POLICY_MAX_ANCHOR;
	pol->n_block = BS_POLICY_MAX_BLOCK;
	pol->n_revoke = BS_POLICY_MAX_REVOKE;
	ck_assert_msg(bs_policy_validate(pol, errbuf, sizeof(errbuf)) == 0,
	    "%s", errbuf);
	assert_text_round_trip(pol, BS_POLICY_SKIP_INCLUDE);
	buf = snap(pol, &len);
	ck_assert_uint_eq(len, BS_POLICY_SNAP_MAX);
	free(buf);
	assert_snap_round_trip(pol);
	bs_policy_free(pol);
}
END_TEST

/* ---- snapshot rejection -------------------------------------------------- */

static struct bs_policy *
rich(void)
{
	return parse_ok(rich_policy, BS_POLICY_SKIP_INCLUDE);
}

START_TEST(test_snapshot_truncations)
{
	struct bs_policy *pol = rich(), *out = NULL;
	size_t len, cut;
	uint8_t *buf = snap(pol, &len), *copy;

	for (cut = 0; cut < len; cut++) {
		/* An exact-size copy so the sanitizers catch any over-read. */
		copy = malloc(cut ? cut : 1);
		memcpy(copy, buf, cut);
		ck_assert_msg(bs_policy_snapshot_decode(copy, cut, &out,
		    errbuf, sizeof(errbuf)) == -1, "prefix %zu accepted", cut);
		ck_assert_ptr_null(out);
		ck_assert_int_eq(strncmp(errbuf, "policy snapshot: ", 17), 0);
		free(copy);
	}
	copy = malloc(len + 1);
	memcpy(copy, buf, len);
	copy[len] = 0;
	ck_assert_int_eq(bs_policy_snapshot_decode(copy, len + 1, &out, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_str_eq(errbuf, "policy snapshot: 1 trailing bytes");
	free(copy);
	free(buf);
	bs_policy_free(pol);
}
END_TEST

/*
 * Flip every bit: the strict decoder must either refuse the result or
 * accept a policy whose encoding is exactly the flipped bytes (one
 * encoding per policy, so nothing is silently normalised).
 */
START_TEST(test_snapshot_bit_flips)
{
	struct bs_policy *pol = rich(), *out;
	size_t len, i, len2;
	uint8_t *buf = snap(pol, &len), *re;
	int bit, accepted = 0;

	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			buf[i] ^= (uint8_t)(1u << bit);
			out = NULL;
			if (bs_policy_snapshot_decode(buf, len, &out, NULL,
			    0) == 0) {
				accepted++;
				re = snap(out, &len2);
				ck_assert_uint_eq(len2, len);
				ck_assert_mem_eq(re, buf, len);
				free(re);
				bs_policy_free(out);
			}
			buf[i] ^= (uint8_t)(1u << bit);
		}
	}
	/* Flips inside key bytes or limit values do decode: the test can
	 * see acceptance as well as refusal. */
	ck_assert_int_gt(accepted, 0);
	free(buf);
	bs_policy_free(pol);
}
END_TEST

/* Targeted corruptions: offset into the encoding and the new byte. */
struct corrupt_case {
	const char *what;
	long off;		/* negative: from the end */
	uint8_t val;
	const char *msg;
};

/* Offsets in the encoding of "mode ca / anchor @Z name ca / include dd /
 * trust @A name al / trust @B / block @C / revoke @D" (see corrupt_policy). */
#define OFF_INC		108	/* include: len u16, "dd" */
#define OFF_ANCHOR	(OFF_INC + 4)	/* pk flags days namelen "ca" */
#define OFF_TRUST0	(OFF_ANCHOR + 40)	/* pk flags namelen inc "al" */
#define OFF_TRUST1	(OFF_TRUST0 + 38)
#define OFF_BLOCK	(OFF_TRUST1 + 36)

static const char *const corrupt_policy =
    "mode ca\nanchor @Z name ca\ninclude dd\ntrust @A name al\n"
    "trust @B\nblock @C\nrevoke @D\n";

static const struct corrupt_case corrupt_cases[] = {
	{ "magic", 0, 'X', "bad magic" },
	{ "version", 4, 1, "unsupported version 1" },
	{ "mode", 5, 3, "bad mode 3" },
	{ "reserved 6", 6, 1, "reserved bytes not zero" },
	{ "reserved 95", 95, 1, "reserved bytes not zero" },
	{ "limit", 8, 0xff, "limit originators: 4278194176 out of range" },
	{ "n_include", 92, BS_POLICY_MAX_INCLUDE + 1, "over its bound" },
	{ "n_anchor", 93, BS_POLICY_MAX_ANCHOR + 1, "over its bound" },
	{ "n_trust", 96, 1, "over its bound" },
	{ "n_include+1", 92, 2, "bad include record" },
	{ "n_trust-1", 99, 1, "36 trailing bytes" },
	{ "include len 0", OFF_INC + 1, 0, "bad include record" },
	{ "include space", OFF_INC + 2, ' ', "bad include record" },
	{ "include #", OFF_INC + 2, '#', "bad include record" },
	{ "anchor flags", OFF_ANCHOR + 32, 2, "bad anchor record" },
	{ "anchor days max", OFF_ANCHOR + 33, 1, "bad anchor record" },
	{ "anchor name len", OFF_ANCHOR + 37, 33, "bad anchor record" },
	{ "anchor name char", OFF_ANCHOR + 38, '/', "bad anchor record" },
	{ "trust flags", OFF_TRUST0 + 32, 2, "bad trust record" },
	{ "trust include idx", OFF_TRUST0 + 35, 2, "bad trust record" },
	{ "trust name char", OFF_TRUST0 + 36, 0, "bad trust record" },
	{ "trust order", OFF_TRUST1, '@', "bad trust record" },
	{ "n_revoke", 107, 0, "32 trailing bytes" },
	{ "n_block", 103, 2, "bad revoke record" },
};

static uint8_t *
corrupt_snap(size_t *len)
{
	struct bs_policy *pol = parse_ok(corrupt_policy,
	    BS_POLICY_SKIP_INCLUDE);
	uint8_t *buf = snap(pol, len);

	bs_policy_free(pol);
	/* The offsets above assume this exact layout. */
	ck_assert_uint_eq(*len, OFF_BLOCK + 2 * BS_PK_LEN);
	ck_assert_int_eq(buf[OFF_INC + 1], 2);
	ck_assert_int_eq(buf[OFF_ANCHOR], 'Z');
	ck_assert_int_eq(buf[OFF_TRUST0], 'A');
	ck_assert_int_eq(buf[OFF_TRUST1], 'B');
	ck_assert_int_eq(buf[OFF_BLOCK], 'C');
	return buf;
}

START_TEST(test_snapshot_corruptions)
{
	const struct corrupt_case *cc = &corrupt_cases[_i];
	struct bs_policy *out = NULL;
	size_t len;
	uint8_t *buf = corrupt_snap(&len);

	buf[cc->off] = cc->val;
	ck_assert_int_eq(bs_policy_snapshot_decode(buf, len, &out, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_ptr_null(out);
	ck_assert_msg(strstr(errbuf, cc->msg) != NULL, "%s: want '%s', got "
	    "'%s'", cc->what, cc->msg, errbuf);
	free(buf);
}
END_TEST

/* Invariants only bs_policy_validate sees: mode ca with no anchor, a
 * repeated include path. */
START_TEST(test_snapshot_semantic)
{
	struct bs_policy *pol = parse_ok("mode open\ninclude a\ninclude b\n",
	    BS_POLICY_SKIP_INCLUDE), *out = NULL;
	size_t len;
	uint8_t *buf;

	pol->mode = BS_POLICY_CA;
	buf = snap(pol, &len);
	ck_assert_int_eq(bs_policy_snapshot_decode(buf, len, &out, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_str_eq(errbuf, "policy snapshot: mode ca: no anchor given");
	free(buf);
	pol->mode = BS_POLICY_OPEN;
	pol->include[1][0] = 'a';
	buf = snap(pol, &len);
	ck_assert_int_eq(bs_policy_snapshot_decode(buf, len, &out, errbuf,
	    sizeof(errbuf)), -1);
	ck_assert_str_eq(errbuf, "policy snapshot: include a: given twice");
	ck_assert_ptr_null(out);
	free(buf);
	bs_policy_free(pol);
}
END_TEST

/* ---- runner -------------------------------------------------------------- */

static Suite *
policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc;

	tc = tcase_create("directives");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_empty_defaults);
	tcase_add_test(tc, test_comments_blanks);
	tcase_add_test(tc, test_trust_forms);
	tcase_add_test(tc, test_anchor_block_revoke_mode);
	tcase_add_test(tc, test_long_lines_and_eof);
	tcase_add_loop_test(tc, test_limits, 0, BS_POLICY_LIMIT_COUNT);
	tcase_add_test(tc, test_documented_defaults);
	tcase_add_test(tc, test_names);
	tcase_add_loop_test(tc, test_examples, 0, T_NELEM(examples));
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_parse_errors, 0, T_NELEM(perr_cases));
	tcase_add_test(tc, test_parse_error_bytes);
	tcase_add_loop_test(tc, test_entry_bounds, 0, 4);
	tcase_add_test(tc, test_parse_file_errors);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("include");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_include_dir);
	tcase_add_loop_test(tc, test_include_errors, 0, T_NELEM(inc_cases));
	tcase_add_test(tc, test_include_dir_errors);
	tcase_add_loop_test(tc, test_file_perms, 0, T_NELEM(perm_cases));
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("classify");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_classify, 0, T_NELEM(class_cases));
	tcase_add_loop_test(tc, test_classify_cert, 0, T_NELEM(cert_cases));
	tcase_add_loop_test(tc, test_revoke_scope, 0, T_NELEM(rp_cases));
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("edit");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_mutators);
	tcase_add_test(tc, test_mutator_bounds);
	tcase_add_test(tc, test_edit_write_cycle);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("roundtrip");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_text_round_trip, 0,
	    T_NELEM(round_trip_cases));
	tcase_add_test(tc, test_canonical_text);
	tcase_add_test(tc, test_largest_policy);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("snapshot");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_snapshot_truncations);
	tcase_add_test(tc, test_snapshot_bit_flips);
	tcase_add_loop_test(tc, test_snapshot_corruptions, 0,
	    T_NELEM(corrupt_cases));
	tcase_add_test(tc, test_snapshot_semantic);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(policy_suite());
}
