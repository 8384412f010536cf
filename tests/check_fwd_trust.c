/*
 * check_fwd_trust.c — trust management in the forwarder (fwd_trust.h)
 * over a forwarder with a policy file, a key file and a state directory
 * in a temp dir, and a socketpair standing in for the parser's channel.
 *
 * Covered: every control command (reply status, what the policy file and
 * the running policy hold afterwards, the snapshot the parser gets),
 * every refusal leaving file and policy as they were, a policy file that
 * cannot be written, reload of a good and of a broken file, CA
 * revocation records (accepted, known, from a CA that is not an anchor,
 * bad signature, bad encoding; stored, loaded back, a bad stored line
 * skipped; in the parser's snapshot), the node certificate (loaded,
 * refused for another key, its cadence in OGMs), revocations in OGMs.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "batsec_keys.h"
#include "batsec_policy.h"
#include "forwarder/control.h"
#include "forwarder/fwd_parser.h"
#include "forwarder/fwd_pins.h"
#include "forwarder/fwd_trust.h"
#include "forwarder/fwd_types.h"
#include "proto/ipc.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

#define T0	1750000000ULL

static struct fwd f;
static struct bs_identity ca, rogue, other;
static char dir[64], path_pol[128], path_rev[128], path_cert[128];
static char path_pins[128];
static int peer = -1;			/* the parser's end */
static struct ipc peer_ipc;

static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fputs(text, fp) >= 0, 1);
	ck_assert_int_eq(fclose(fp), 0);
}

/* The whole file, NUL-terminated (static buffer). */
static const char *
slurp(const char *path)
{
	static char buf[65536];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (fp == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static char cakey[BS_KEY_B64_LEN + 1], nodekey[BS_KEY_B64_LEN + 1];

static void
setup(void)
{
	int sv[2];
	char err[256], text[256];

	ck_assert_int_eq(bs_crypto_init(), 0);
	t_ident(&ca, 1);
	t_ident(&rogue, 2);
	t_ident(&other, 4);
	memset(&f, 0, sizeof(f));
	t_ident(&f.id, 3);
	bs_key_to_b64(cakey, ca.pk);
	bs_key_to_b64(nodekey, other.pk);
	t_tmpdir(dir, sizeof(dir), "check_fwd_trust");
	snprintf(path_pol, sizeof(path_pol), "%s/mesh.policy", dir);
	snprintf(path_rev, sizeof(path_rev), "%s/revocations", dir);
	snprintf(path_cert, sizeof(path_cert), "%s/node.key.cert", dir);
	snprintf(path_pins, sizeof(path_pins), "%s/pins", dir);
	snprintf(f.cfg.policy, sizeof(f.cfg.policy), "%s", path_pol);
	snprintf(f.cfg.state_dir, sizeof(f.cfg.state_dir), "%s", dir);
	snprintf(f.cfg.key, sizeof(f.cfg.key), "%s/node.key", dir);
	snprintf(text, sizeof(text), "# mine\nmode ca\nanchor %s name ca\n",
	    cakey);
	put(path_pol, text);
	ck_assert_msg(bs_policy_parse_file(path_pol, 0, &f.policy, err,
	    sizeof(err)) == 0, "%s", err);
	f.policy_serial = 1;
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	ck_assert_int_eq(fwd_parser_attach(&f.parser, sv[0], 0, f.own_addr,
	    err, sizeof(err)), 0);
	peer = sv[1];
	ck_assert_int_eq(ipc_init(&peer_ipc, peer, IPC_ROLE_PARSER, 0, err,
	    sizeof(err)), 0);
}

static void
teardown(void)
{
	fwd_trust_stop(&f);
	fwd_pins_stop(&f);
	bs_policy_free(f.policy);
	ipc_close(&f.parser.ipc);
	ipc_close(&peer_ipc);
	t_rmtree(dir);
}

/* Run a handler; the END status. */
static int
run(control_handler_fn *fn, size_t argc, const char *const argv[],
    char *msg, uint32_t *records)
{
	static struct ctl_reply r;
	struct ctlp_end e;
	const uint8_t *m = NULL, *last = NULL;
	size_t pos = 0, len = 0, last_len = 0;

	ctl_reply_init(&r, 0, NULL, 0);
	fn(&f, argc, argv, &r);
	ck_assert(ctl_reply_ended(&r));
	while (ctl_reply_next(&r, &pos, &m, &len) == 0) {
		last = m;
		last_len = len;
	}
	ck_assert_ptr_nonnull(last);
	ck_assert_int_eq(ctlp_end_decode(last, last_len, &e, NULL, 0), 0);
	if (msg != NULL)
		snprintf(msg, CTLP_ERR_MAX + 1, "%s", e.msg);	/* msg: that size */
	if (records != NULL)
		*records = e.records;
	ctl_reply_free(&r);
	return e.status;
}

/* The last snapshot queued to the parser, decoded; NULL when none. */
static struct bs_policy *
last_snapshot(void)
{
	struct ipc_snap s;
	struct ipc_msg m;
	struct bs_policy *pol = NULL, *p;
	char err[256];

	ck_assert_int_ge(ipc_flush(&f.parser.ipc), 0);
	ipc_snap_init(&s);
	while (ipc_recv(&peer_ipc, &m, err, sizeof(err)) == IPC_RECV_MSG) {
		if (ipc_snap_feed(&s, &m, err, sizeof(err)) != 1)
			continue;
		p = NULL;
		ck_assert_int_eq(bs_policy_snapshot_decode(s.buf, s.total, &p,
		    err, sizeof(err)), 0);
		bs_policy_free(pol);
		pol = p;
	}
	ipc_snap_free(&s);
	return pol;
}

/* Lines of the running policy's canonical text. */
static uint32_t
text_lines(void)
{
	size_t cap = bs_policy_format_len(f.policy) + 1, len = 0, i;
	char *text = malloc(cap);
	uint32_t n = 0;

	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(bs_policy_format(f.policy, text, cap, &len), 0);
	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	free(text);
	return n;
}

START_TEST(test_trust_add_writes_and_pushes)
{
	const char *argv[] = { nodekey, "name", "n7", "gateway", NULL };
	struct bs_policy *snap, *back = NULL;
	char err[256];

	ck_assert_int_eq(run(fwd_trust_ctl_add, 4, argv, NULL, NULL), CTLP_OK);
	ck_assert_uint_eq(f.policy_serial, 2);
	ck_assert_int_eq(bs_policy_classify(f.policy, other.pk),
	    BS_CLASS_TRUSTED);
	ck_assert_int_eq(bs_policy_trust_find(f.policy, other.pk)->gateway, 1);
	/* The file holds the new policy (without the old comment). */
	ck_assert_int_eq(bs_policy_parse_file(path_pol, 0, &back, err,
	    sizeof(err)), 0);
	ck_assert(bs_policy_equal(back, f.policy));
	ck_assert_ptr_null(strstr(slurp(path_pol), "# mine"));
	/* The parser got it. */
	snap = last_snapshot();
	ck_assert_ptr_nonnull(snap);
	ck_assert(bs_policy_equal(snap, f.policy));
	bs_policy_free(snap);
	bs_policy_free(back);
}
END_TEST

/* Refused requests: (argv, argc, status, message part). */
static const struct {
	const char *a[5];
	size_t argc;
	int status;
	const char *msg;
} add_errs[] = {
	{ { "abc" }, 1, CTLP_E_USAGE, "bad key" },
	{ { "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB=" }, 1, CTLP_E_USAGE,
	  "bad key" },
	{ { "@K", "name" }, 2, CTLP_E_USAGE, "argument 2" },
	{ { "@K", "name", "a/b" }, 3, CTLP_E_USAGE, "argument 2" },
	{ { "@K", "gateway", "gateway" }, 3, CTLP_E_USAGE, "argument 3" },
	{ { "@K", "name", "a", "name", "b" }, 5, CTLP_E_USAGE, "argument 4" },
	{ { "@K", "gw" }, 2, CTLP_E_USAGE, "argument 2" },
	{ { "@K", "x" }, 2, CTLP_E_USAGE, "expected name NAME or gateway" },
};

START_TEST(test_trust_add_refused)
{
	const char *argv[6] = { NULL };
	static char before[65536];
	char msg[CTLP_ERR_MAX + 1];
	size_t i;

	snprintf(before, sizeof(before), "%s", slurp(path_pol));
	for (i = 0; i < add_errs[_i].argc; i++)
		argv[i] = strcmp(add_errs[_i].a[i], "@K") == 0 ? nodekey :
		    add_errs[_i].a[i];
	ck_assert_int_eq(run(fwd_trust_ctl_add, add_errs[_i].argc, argv, msg,
	    NULL), add_errs[_i].status);
	ck_assert_msg(strstr(msg, add_errs[_i].msg) != NULL, "got '%s'", msg);
	ck_assert_str_eq(slurp(path_pol), before);
	ck_assert_uint_eq(f.policy_serial, 1);
	ck_assert_ptr_null(last_snapshot());
}
END_TEST

START_TEST(test_edit_sequence)
{
	const char *k[] = { nodekey, NULL };
	char msg[CTLP_ERR_MAX + 1];

	ck_assert_int_eq(run(fwd_trust_ctl_remove, 1, k, msg, NULL),
	    CTLP_E_FAILED);
	ck_assert_ptr_nonnull(strstr(msg, "not trusted"));
	ck_assert_int_eq(run(fwd_trust_ctl_add, 1, k, NULL, NULL), CTLP_OK);
	ck_assert_int_eq(run(fwd_trust_ctl_add, 1, k, msg, NULL),
	    CTLP_E_FAILED);
	ck_assert_ptr_nonnull(strstr(msg, "already trusted"));
	ck_assert_int_eq(run(fwd_trust_ctl_block, 1, k, NULL, NULL), CTLP_OK);
	ck_assert_int_eq(bs_policy_classify(f.policy, other.pk),
	    BS_CLASS_BLOCKED);
	ck_assert_ptr_nonnull(strstr(slurp(path_pol), "block "));
	ck_assert_int_eq(run(fwd_trust_ctl_block, 1, k, NULL, NULL),
	    CTLP_E_FAILED);
	ck_assert_int_eq(run(fwd_trust_ctl_unblock, 1, k, NULL, NULL),
	    CTLP_OK);
	ck_assert_int_eq(run(fwd_trust_ctl_unblock, 1, k, NULL, NULL),
	    CTLP_E_FAILED);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke, 1, k, NULL, NULL), CTLP_OK);
	ck_assert_ptr_nonnull(strstr(slurp(path_pol), "revoke "));
	ck_assert_int_eq(run(fwd_trust_ctl_revoke, 1, k, NULL, NULL),
	    CTLP_E_FAILED);
	ck_assert_int_eq(run(fwd_trust_ctl_remove, 1, k, NULL, NULL), CTLP_OK);
	ck_assert_int_eq(bs_policy_classify(f.policy, other.pk),
	    BS_CLASS_BLOCKED);
	/* Five changes (add, block, unblock, revoke, remove), five new
	 * policies. */
	ck_assert_uint_eq(f.policy_serial, 6);
}
END_TEST

START_TEST(test_unwritable_policy)
{
	const char *k[] = { nodekey, NULL };
	char msg[CTLP_ERR_MAX + 1];

	snprintf(f.cfg.policy, sizeof(f.cfg.policy), "%s/no/such/dir/p",
	    dir);
	ck_assert_int_eq(run(fwd_trust_ctl_add, 1, k, msg, NULL),
	    CTLP_E_FAILED);
	ck_assert_ptr_nonnull(strstr(msg, "the policy is unchanged"));
	ck_assert_int_eq(bs_policy_classify(f.policy, other.pk),
	    BS_CLASS_REFUSED);
	ck_assert_uint_eq(f.policy_serial, 1);
}
END_TEST

START_TEST(test_reload)
{
	char msg[CTLP_ERR_MAX + 1], text[256];

	snprintf(text, sizeof(text), "mode ca\nanchor %s\ntrust %s\n", cakey,
	    nodekey);
	put(path_pol, text);
	ck_assert_int_eq(run(fwd_trust_ctl_reload, 0, NULL, NULL, NULL),
	    CTLP_OK);
	ck_assert_int_eq(bs_policy_classify(f.policy, other.pk),
	    BS_CLASS_TRUSTED);
	ck_assert_uint_eq(f.policy_serial, 2);
	put(path_pol, "mode ca\nmode open\n");
	ck_assert_int_eq(run(fwd_trust_ctl_reload, 0, NULL, msg, NULL),
	    CTLP_E_FAILED);
	ck_assert_msg(strstr(msg, "mesh.policy:2: mode: given twice") !=
	    NULL, "got '%s'", msg);
	ck_assert_ptr_nonnull(strstr(msg, "the running policy stays"));
	ck_assert_int_eq(bs_policy_classify(f.policy, other.pk),
	    BS_CLASS_TRUSTED);
	ck_assert_uint_eq(f.policy_serial, 2);
}
END_TEST

START_TEST(test_listings)
{
	const char *k[] = { nodekey, "name", "seven", NULL };
	uint32_t n;

	ck_assert_int_eq(run(fwd_trust_ctl_list, 0, NULL, NULL, &n), CTLP_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_add, 3, k, NULL, NULL), CTLP_OK);
	ck_assert_int_eq(run(fwd_trust_ctl_list, 0, NULL, NULL, &n), CTLP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(run(fwd_trust_ctl_anchors, 0, NULL, NULL, &n),
	    CTLP_OK);
	ck_assert_uint_eq(n, 1);
	/* One record per line of the canonical text. */
	ck_assert_int_eq(run(fwd_trust_ctl_policy_show, 0, NULL, NULL, &n),
	    CTLP_OK);
	ck_assert_uint_eq(n, text_lines());
}
END_TEST

/* A revocation record for pk by issuer issued at t, as batsec-ctl sends
 * it. */
static void
rev_b64_at(char out[static CTLP_REVOKE_B64_LEN + 1],
    const struct bs_identity *issuer, const uint8_t pk[static BS_PK_LEN],
    int flip, uint64_t t)
{
	uint8_t raw[BS_REVOKE_LEN];
	struct bs_revoke r;

	ck_assert_int_eq(bs_revoke_issue(&r, issuer, pk, t), 0);
	bs_revoke_encode(raw, &r);
	if (flip)
		raw[BS_REVOKE_SIGNED_LEN + 2] ^= 1;
	ck_assert_int_eq(bs_b64_encode(out, CTLP_REVOKE_B64_LEN + 1, raw,
	    sizeof(raw)), CTLP_REVOKE_B64_LEN);
}

static void
rev_b64(char out[static CTLP_REVOKE_B64_LEN + 1],
    const struct bs_identity *issuer, const uint8_t pk[static BS_PK_LEN],
    int flip)
{
	rev_b64_at(out, issuer, pk, flip, T0);
}

START_TEST(test_revoke_record)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], msg[CTLP_ERR_MAX + 1];
	const char *argv[] = { b64, NULL };
	struct bs_policy *snap, *owned;
	uint32_t n;

	rev_b64(b64, &ca, other.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	ck_assert_ptr_nonnull(slurp(path_rev));
	ck_assert_uint_eq(strlen(slurp(path_rev)), CTLP_REVOKE_B64_LEN +
	    1);
	/* The file policy is untouched; the parser's has the revocation. */
	ck_assert_int_eq(bs_policy_is_revoked(f.policy, other.pk), 0);
	snap = last_snapshot();
	ck_assert_ptr_nonnull(snap);
	ck_assert_int_eq(bs_policy_is_revoked(snap, other.pk), 1);
	bs_policy_free(snap);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, msg, NULL),
	    CTLP_E_FAILED);
	ck_assert_ptr_nonnull(strstr(msg, "already stored"));
	ck_assert_int_eq(run(fwd_trust_ctl_anchors, 0, NULL, NULL, &n),
	    CTLP_OK);
	/* policy show: the canonical text and one comment line. */
	ck_assert_int_eq(run(fwd_trust_ctl_policy_show, 0, NULL, NULL, &n),
	    CTLP_OK);
	ck_assert_uint_eq(n, text_lines() + 1);
	/* Loaded back after a restart. */
	fwd_trust_stop(&f);
	ck_assert_int_eq(fwd_trust_start(&f, msg, sizeof(msg)), 0);
	ck_assert_ptr_nonnull(fwd_trust_effective(&f, &owned));
	ck_assert_ptr_nonnull(owned);
	ck_assert_int_eq(bs_policy_is_revoked(owned, other.pk), 1);
	bs_policy_free(owned);
	/* Without the anchor the record is not in force. */
	bs_policy_free(f.policy);
	f.policy = bs_policy_new();
	ck_assert_ptr_eq(fwd_trust_effective(&f, &owned), f.policy);
	ck_assert_ptr_null(owned);
}
END_TEST

enum { RV_ROGUE, RV_BAD_SIG, RV_SHORT, RV_NOT_B64, RV_COUNT };

START_TEST(test_revoke_record_refused)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], msg[CTLP_ERR_MAX + 1];
	const char *argv[] = { b64, NULL };
	static const int want[RV_COUNT] = { CTLP_E_FAILED, CTLP_E_FAILED,
	    CTLP_E_USAGE, CTLP_E_USAGE };

	rev_b64(b64, _i == RV_ROGUE ? &rogue : &ca, other.pk, _i == RV_BAD_SIG);
	if (_i == RV_SHORT)
		b64[100] = '\0';
	if (_i == RV_NOT_B64)
		b64[10] = '*';
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, msg, NULL),
	    want[_i]);
	if (_i == RV_ROGUE)
		ck_assert_ptr_nonnull(strstr(msg, "not an anchor"));
	if (_i == RV_BAD_SIG)
		ck_assert_ptr_nonnull(strstr(msg, "does not verify"));
	ck_assert_ptr_null(slurp(path_rev));
	ck_assert_ptr_null(last_snapshot());
}
END_TEST

static void ogm_run(unsigned n, char *cert_map, char *rev_map);

/* Write the policy text (with "@C" for ca's key and "@R" for rogue's),
 * then reload it as batsec-ctl reload does. */
static void
reload_policy(const char *in)
{
	char text[1024], b64[BS_KEY_B64_LEN + 1], err[256];
	size_t o = 0;

	for (; *in != '\0'; in++) {
		ck_assert_uint_lt(o + BS_KEY_B64_LEN + 1, sizeof(text));
		if (in[0] == '@' && (in[1] == 'C' || in[1] == 'R')) {
			bs_key_to_b64(b64, *++in == 'C' ? ca.pk : rogue.pk);
			memcpy(text + o, b64, BS_KEY_B64_LEN);
			o += BS_KEY_B64_LEN;
		} else {
			text[o++] = *in;
		}
	}
	text[o] = '\0';
	put(path_pol, text);
	ck_assert_msg(fwd_trust_reload(&f, err, sizeof(err)) == 0, "%s", err);
}

/* 1 when the parser's policy (the effective one) revokes pk. */
static int
eff_revoked(const uint8_t pk[static BS_PK_LEN])
{
	struct bs_policy *owned = NULL;
	const struct bs_policy *p = fwd_trust_effective(&f, &owned);
	int rc;

	ck_assert_ptr_nonnull(p);
	rc = bs_policy_is_revoked(p, pk);
	bs_policy_free(owned);
	return rc;
}

/*
 * A stored record counts only while its issuer is an anchor that is
 * neither blocked nor revoked: judged again at every policy change, in
 * the snapshot, the OGMs and policy show.
 */
START_TEST(test_revoke_issuer_scope)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], c[8], r[8];
	const char *argv[] = { b64, NULL }, *key[] = { cakey, NULL };
	struct bs_policy *snap;
	uint32_t n;

	reload_policy("mode ca\nanchor @C name ca\nanchor @R\n");
	rev_b64(b64, &ca, other.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	ck_assert_int_eq(eff_revoked(other.pk), 1);
	/* Blocked: the record stays stored but counts no more. */
	ck_assert_int_eq(run(fwd_trust_ctl_block, 1, key, NULL, NULL),
	    CTLP_OK);
	ck_assert_int_eq(eff_revoked(other.pk), 0);
	snap = last_snapshot();
	ck_assert_ptr_nonnull(snap);
	ck_assert_int_eq(bs_policy_is_revoked(snap, other.pk), 0);
	bs_policy_free(snap);
	ogm_run(3, c, r);
	ck_assert_str_eq(r, "...");
	ck_assert_int_eq(run(fwd_trust_ctl_policy_show, 0, NULL, NULL, &n),
	    CTLP_OK);
	ck_assert_uint_eq(n, text_lines());
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 1);
	/* Unblocked: in force again. */
	ck_assert_int_eq(run(fwd_trust_ctl_unblock, 1, key, NULL, NULL),
	    CTLP_OK);
	ck_assert_int_eq(eff_revoked(other.pk), 1);
	ogm_run(1, c, r);
	ck_assert_str_eq(r, "o");
	/* Revoked by a local line, or no anchor any more: not in force. */
	reload_policy("mode ca\nanchor @C\nanchor @R\nrevoke @C\n");
	ck_assert_int_eq(eff_revoked(other.pk), 0);
	reload_policy("mode ca\nanchor @R\n");
	ck_assert_int_eq(eff_revoked(other.pk), 0);
	/* And a new record of a blocked anchor is refused. */
	reload_policy("mode ca\nanchor @C\nanchor @R\nblock @R\n");
	rev_b64(b64, &rogue, other.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_E_FAILED);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 1);
}
END_TEST

/*
 * An anchor revokes another anchor only with revokes-anchors; then the
 * revoked anchor's own records stop counting.
 */
START_TEST(test_revoke_anchor_scope)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], msg[CTLP_ERR_MAX + 1];
	const char *argv[] = { b64, NULL };
	union ipc_payload u;

	reload_policy("mode ca\nanchor @C\nanchor @R\n");
	rev_b64(b64, &rogue, other.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	ck_assert_int_eq(eff_revoked(other.pk), 1);
	rev_b64(b64, &ca, rogue.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, msg,
	    NULL), CTLP_E_FAILED);
	ck_assert_ptr_nonnull(strstr(msg, "revokes an anchor"));
	ck_assert_int_eq(eff_revoked(rogue.pk), 0);
	/* Over IPC from the parser: refused the same way. */
	ck_assert_int_eq(bs_b64_decode_exact(u.revoke.rec, BS_REVOKE_LEN, b64,
	    CTLP_REVOKE_B64_LEN), BS_REVOKE_LEN);
	ck_assert_int_eq(fwd_trust_on_revoke(&f, &u), 0);
	ck_assert_int_eq(eff_revoked(rogue.pk), 0);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 1);

	reload_policy("mode ca\nanchor @C revokes-anchors\nanchor @R\n");
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	ck_assert_int_eq(eff_revoked(rogue.pk), 1);
	ck_assert_int_eq(eff_revoked(other.pk), 0);
	/* The rogue cannot answer in kind: the other has revokes-anchors. */
	rev_b64(b64, &rogue, ca.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, msg,
	    NULL), CTLP_E_FAILED);
	ck_assert_int_eq(eff_revoked(ca.pk), 0);
	/* Without the option again, the rogue's record is back in force. */
	reload_policy("mode ca\nanchor @C\nanchor @R\n");
	ck_assert_int_eq(eff_revoked(rogue.pk), 0);
	ck_assert_int_eq(eff_revoked(other.pk), 1);
}
END_TEST

/*
 * Records expire revocation-days after their issue time: refused when
 * handed in, dropped from the store (and the file) at start.
 */
START_TEST(test_revoke_expiry)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], old[CTLP_REVOKE_B64_LEN + 1];
	char msg[CTLP_ERR_MAX + 1], text[512];
	const char *argv[] = { b64, NULL };
	uint64_t now = (uint64_t)time(NULL);

	reload_policy("mode ca\nanchor @C revocation-days 2\n");
	rev_b64_at(b64, &ca, other.pk, 0, now - 3 * 86400);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, msg,
	    NULL), CTLP_E_FAILED);
	ck_assert_ptr_nonnull(strstr(msg, "expired"));
	rev_b64_at(b64, &ca, other.pk, 0, now - 86400 - 3600);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	ck_assert_int_eq(eff_revoked(other.pk), 1);
	/* A store with one live and one expired record: at start the expired
	 * one goes, from memory and from the file. */
	rev_b64_at(old, &ca, rogue.pk, 0, now - 3 * 86400);
	snprintf(text, sizeof(text), "%s\n%s\n", old, b64);
	put(path_rev, text);
	fwd_trust_stop(&f);
	ck_assert_int_eq(fwd_trust_start(&f, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 1);
	ck_assert_int_eq(eff_revoked(rogue.pk), 0);
	ck_assert_int_eq(eff_revoked(other.pk), 1);
	snprintf(text, sizeof(text), "%s\n", b64);
	ck_assert_str_eq(slurp(path_rev), text);
	/* A longer life brings nothing back that was dropped, and a shorter
	 * one ends the other at the next check. */
	reload_policy("mode ca\nanchor @C revocation-days 1\n");
	ck_assert_int_eq(eff_revoked(other.pk), 0);
	fwd_trust_tick(&f, 1);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 0);
	ck_assert_str_eq(slurp(path_rev), "");
}
END_TEST

START_TEST(test_revocation_store_bad_line)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], text[1024], err[256];
	struct bs_policy *owned;

	rev_b64(b64, &ca, other.pk, 0);
	snprintf(text, sizeof(text), "garbage\n%s\n%.*s\n", b64, 100, b64);
	put(path_rev, text);
	ck_assert_int_eq(fwd_trust_start(&f, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(fwd_trust_effective(&f, &owned));
	ck_assert_int_eq(bs_policy_is_revoked(owned, other.pk), 1);
	bs_policy_free(owned);
}
END_TEST

/*
 * The store's reader on its own (fwd_trust_rev_parse, the fuzz target
 * revstore's entry): records of two issuers kept in file order; a
 * duplicate, a CRLF line, a record whose signature does not verify and
 * a cut-off line skipped; the last line needs no newline.
 */
START_TEST(test_revocation_store_parse)
{
	char a[CTLP_REVOKE_B64_LEN + 1], b[CTLP_REVOKE_B64_LEN + 1];
	char bad[CTLP_REVOKE_B64_LEN + 1], text[2048];
	struct bs_revoke r;
	int n;

	rev_b64(a, &ca, other.pk, 0);
	rev_b64(b, &rogue, other.pk, 0);
	rev_b64(bad, &ca, rogue.pk, 1);
	n = snprintf(text, sizeof(text), "%s\n%s\r\n%s\n%s\n%.20s\n%s", a, b,
	    a, bad, b, b);
	ck_assert_int_lt(n, (int)sizeof(text));
	fwd_trust_rev_parse(&f, "store", text, (size_t)n);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 2);
	ck_assert_ptr_null(fwd_trust_rev_record(&f.trust, 2));
	ck_assert_int_eq(bs_revoke_decode(&r,
	    fwd_trust_rev_record(&f.trust, 0), BS_REVOKE_LEN), 0);
	ck_assert_mem_eq(r.issuer_pk, ca.pk, BS_PK_LEN);
	ck_assert_int_eq(bs_revoke_decode(&r,
	    fwd_trust_rev_record(&f.trust, 1), BS_REVOKE_LEN), 0);
	ck_assert_mem_eq(r.issuer_pk, rogue.pk, BS_PK_LEN);
	ck_assert_mem_eq(r.revoked_pk, other.pk, BS_PK_LEN);
	/* The same text again adds nothing. */
	fwd_trust_rev_parse(&f, "store", text, (size_t)n);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 2);
}
END_TEST

/* Which of the next n OGMs carry the certificate / a revocation. */
static void
ogm_run(unsigned n, char *cert_map, char *rev_map)
{
	uint8_t tv[WIRE_TVLV_MAX];
	struct wire_tvlvs t;
	size_t len;
	unsigned i;

	for (i = 0; i < n; i++) {
		len = fwd_trust_ogm_tvlvs(&f, tv, sizeof(tv));
		ck_assert_int_eq(wire_tvlvs_parse(tv, len, &t), WIRE_OK);
		cert_map[i] = (t.present & (1u << WIRE_TVLV_CERT)) ? 'c' : '.';
		rev_map[i] = '.';
		if (t.present & (1u << WIRE_TVLV_REVOKE))
			rev_map[i] = memcmp(t.revoke + 4, other.pk,
			    BS_PK_LEN) == 0 ? 'o' : 'r';
	}
	cert_map[n] = rev_map[n] = '\0';
}

START_TEST(test_own_cert_cadence)
{
	char c[16], r[16], err[256], text[256];
	struct bs_cert cert;

	snprintf(text, sizeof(text), "mode ca\nanchor %s\nlimit cert-every 4\n",
	    cakey);
	put(path_pol, text);
	ck_assert_int_eq(fwd_trust_reload(&f, err, sizeof(err)), 0);
	ck_assert_ptr_null(fwd_trust_own_cert(&f.trust));
	ck_assert_int_eq(bs_cert_issue(&cert, &ca, f.id.pk, "me", 0, T0,
	    T0 + 86400), 0);
	ck_assert_int_eq(bs_cert_save(path_cert, &cert, err, sizeof(err)), 0);
	ck_assert_int_eq(fwd_trust_start(&f, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(fwd_trust_own_cert(&f.trust));
	/* Three at once after loading, then every 4th OGM. */
	ogm_run(12, c, r);
	ck_assert_str_eq(c, "cccc...c...c");
	ck_assert_str_eq(r, "............");
	/* No room: nothing. */
	ck_assert_uint_eq(fwd_trust_ogm_tvlvs(&f, (uint8_t *)text, 100), 0);
}
END_TEST

START_TEST(test_own_cert_other_key)
{
	struct bs_cert cert;
	char err[256];

	ck_assert_int_eq(bs_cert_issue(&cert, &ca, other.pk, "x", 0, T0,
	    T0 + 86400), 0);
	ck_assert_int_eq(bs_cert_save(path_cert, &cert, err, sizeof(err)), 0);
	ck_assert_int_eq(fwd_trust_start(&f, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "another node key"));
	put(path_cert, "not a certificate\n");
	ck_assert_int_eq(fwd_trust_start(&f, err, sizeof(err)), -1);
}
END_TEST

START_TEST(test_revocations_in_turn)
{
	char b64[CTLP_REVOKE_B64_LEN + 1], c[16], r[16];
	const char *argv[] = { b64, NULL };

	rev_b64(b64, &ca, other.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	rev_b64(b64, &ca, rogue.pk, 0);
	ck_assert_int_eq(run(fwd_trust_ctl_revoke_record, 1, argv, NULL,
	    NULL), CTLP_OK);
	ogm_run(6, c, r);
	/* One record per OGM, the two alternating. */
	ck_assert_int_eq(r[0] != r[1] && r[0] == r[2] && r[1] == r[3], 1);
	ck_assert_ptr_null(strchr(r, '.'));
}
END_TEST

/* ---- TOFU pins (fwd_pins.c) ------------------------------------------------ */

/* The parser sends IPC_PIN for pk; the forwarder handles it. */
static void
pin_from_parser(const uint8_t pk[static BS_PK_LEN])
{
	union ipc_payload u;
	struct ipc_pin p;
	struct ipc_msg m;
	char err[256];

	memcpy(p.pk, pk, BS_PK_LEN);
	ck_assert_int_eq(ipc_send(&peer_ipc, IPC_PIN, &p, sizeof(p)), 0);
	ck_assert_int_eq(ipc_recv(&f.parser.ipc, &m, err, sizeof(err)),
	    IPC_RECV_MSG);
	ck_assert_int_eq(ipc_get(&m, IPC_PIN, &u.pin, sizeof(u.pin)), 0);
	ck_assert_int_eq(fwd_pins_on_pin(&f, &u), 0);
}

/* IPC_PINS messages queued to the parser: their keys into keys[], the
 * number of messages returned. */
static int
pins_pushed(uint8_t (*keys)[BS_PK_LEN], size_t max, size_t *n)
{
	union ipc_payload u;
	struct ipc_msg m;
	char err[256];
	int msgs = 0;
	uint16_t i;

	*n = 0;
	ck_assert_int_ge(ipc_flush(&f.parser.ipc), 0);
	while (ipc_recv(&peer_ipc, &m, err, sizeof(err)) == IPC_RECV_MSG) {
		ck_assert_uint_eq(m.hdr.type, IPC_PINS);
		ck_assert_int_eq(ipc_get(&m, IPC_PINS, &u.pins,
		    sizeof(u.pins)), 0);
		for (i = 0; i < u.pins.count && *n < max; i++)
			memcpy(keys[(*n)++], u.pins.pk[i], BS_PK_LEN);
		msgs++;
	}
	return msgs;
}

static int
has_key(uint8_t (*keys)[BS_PK_LEN], size_t n, const uint8_t *pk)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (memcmp(keys[i], pk, BS_PK_LEN) == 0)
			return 1;
	return 0;
}

/*
 * Pins from the parser are kept once per address, written a few seconds
 * after the first change (one base64 key a line), read back after a
 * restart and handed to a new parser.
 */
START_TEST(test_pins_keep_save_push)
{
	char err[256], k1[BS_KEY_B64_LEN + 1], k2[BS_KEY_B64_LEN + 1];
	uint8_t keys[4][BS_PK_LEN];
	const char *text;
	uint64_t due;
	size_t n;

	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 0);
	ck_assert_uint_eq(fwd_pins_due(&f.pins), 0);
	pin_from_parser(other.pk);
	due = fwd_pins_due(&f.pins);
	ck_assert_uint_ne(due, 0);
	pin_from_parser(other.pk);
	pin_from_parser(rogue.pk);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 2);
	ck_assert_uint_eq(fwd_pins_due(&f.pins), due);
	fwd_pins_tick(&f, due - 1);
	ck_assert_ptr_null(slurp(path_pins));
	fwd_pins_tick(&f, due);
	ck_assert_uint_eq(fwd_pins_due(&f.pins), 0);
	text = slurp(path_pins);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(strlen(text), 2 * (BS_KEY_B64_LEN + 1 +
	    strlen(" 1800000000")));
	bs_key_to_b64(k1, other.pk);
	bs_key_to_b64(k2, rogue.pk);
	ck_assert_ptr_nonnull(strstr(text, k1));
	ck_assert_ptr_nonnull(strstr(text, k2));
	/* A new parser gets both. */
	fwd_pins_push(&f);
	ck_assert_int_eq(pins_pushed(keys, 4, &n), 1);
	ck_assert_uint_eq(n, 2);
	ck_assert(has_key(keys, n, other.pk) && has_key(keys, n, rogue.pk));
	/* After a restart. */
	fwd_pins_stop(&f);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 0);
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 2);
	fwd_pins_push(&f);
	ck_assert_int_eq(pins_pushed(keys, 4, &n), 1);
	ck_assert(has_key(keys, n, other.pk) && has_key(keys, n, rogue.pk));
	/* Nothing changed, nothing to write at the stop. */
	ck_assert_int_eq(unlink(path_pins), 0);
	fwd_pins_stop(&f);
	ck_assert_ptr_null(slurp(path_pins));
}
END_TEST

/*
 * Pins age (issue #20, item 4): each keeps its last use (when pinned,
 * and when the parser sends the key again), written with it; one not
 * used for `limit pin-max-age` days is forgotten, at start and hourly; a
 * line of a key alone (an older file) counts as used at start.
 */
static uint64_t wall_now = 1800000000;

static uint64_t
wall_clock(void)
{
	return wall_now;
}

START_TEST(test_pins_age)
{
	char err[256], text[512], k1[BS_KEY_B64_LEN + 1];
	char k2[BS_KEY_B64_LEN + 1];
	const char *got;
	uint64_t t;

	fwd_pins_set_clock(wall_clock);
	wall_now = 1800000000;
	bs_key_to_b64(k1, other.pk);
	bs_key_to_b64(k2, rogue.pk);
	snprintf(text, sizeof(text), "limit pin-max-age 2\n");
	put(path_pol, text);
	bs_policy_free(f.policy);
	ck_assert_int_eq(bs_policy_parse_file(path_pol, 0, &f.policy, err,
	    sizeof(err)), 0);
	/* An old file: keys alone, used "now". */
	snprintf(text, sizeof(text), "%s\n%s\n", k1, k2);
	put(path_pins, text);
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 2);
	/* A day later the parser still uses other's pin. */
	wall_now += 86400;
	pin_from_parser(other.pk);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 2);
	t = log_now_ms();
	fwd_pins_tick(&f, t + FWD_PINS_TOUCH_SAVE_MS);
	got = slurp(path_pins);
	ck_assert_ptr_nonnull(got);
	snprintf(text, sizeof(text), "%s 1800086400\n", k1);
	ck_assert_ptr_nonnull(strstr(got, text));
	snprintf(text, sizeof(text), "%s 1800000000\n", k2);
	ck_assert_ptr_nonnull(strstr(got, text));
	/* Two days and a second after rogue's last use: it goes. */
	wall_now = 1800000000 + 2 * 86400 + 1;
	fwd_pins_tick(&f, t + FWD_PINS_TOUCH_SAVE_MS + FWD_PINS_AGE_MS);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 1);
	ck_assert_mem_eq(fwd_pins_key(&f.pins, 0), other.pk, BS_PK_LEN);
	fwd_pins_stop(&f);
	got = slurp(path_pins);
	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_null(strstr(got, k2));
	/* Read back after more than two days: other goes at start. */
	wall_now += 2 * 86400;
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 0);
	fwd_pins_set_clock(NULL);
}
END_TEST

/* A change not written yet is written when the daemon stops. */
START_TEST(test_pins_written_at_stop)
{
	char err[256];

	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	pin_from_parser(other.pk);
	ck_assert_ptr_null(slurp(path_pins));
	fwd_pins_stop(&f);
	ck_assert_ptr_nonnull(slurp(path_pins));
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 1);
	ck_assert_mem_eq(fwd_pins_key(&f.pins, 0), other.pk, BS_PK_LEN);
	ck_assert_ptr_null(fwd_pins_key(&f.pins, 1));
}
END_TEST

/* More keys than one message holds go in several, none lost. */
START_TEST(test_pins_push_many)
{
	struct bs_identity id;
	uint8_t keys[260][BS_PK_LEN];
	char err[256];
	size_t n, i;

	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	for (i = 0; i < 250; i++) {
		t_ident(&id, (uint8_t)(10 + i));
		pin_from_parser(id.pk);
	}
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 250);
	fwd_pins_push(&f);
	ck_assert_int_eq(pins_pushed(keys, 260, &n), 3);
	ck_assert_uint_eq(n, 250);
	for (i = 0; i < 250; i++)
		ck_assert(has_key(keys, n, fwd_pins_key(&f.pins, i)));
}
END_TEST

/* FWD_PINS_MAX pins and no more; the next key is ignored, the channel
 * stays up, and what is kept is written and read back whole. */
START_TEST(test_pins_full)
{
	struct bs_identity id;
	uint8_t seed[BS_SEED_LEN];
	char err[256];
	size_t i;

	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	memset(seed, 0x5a, sizeof(seed));
	for (i = 0; i <= FWD_PINS_MAX; i++) {
		seed[0] = (uint8_t)i;
		seed[1] = (uint8_t)(i >> 8);
		ck_assert_int_eq(bs_identity_from_seed(&id, seed), 0);
		pin_from_parser(id.pk);
	}
	ck_assert_uint_eq(fwd_pins_count(&f.pins), FWD_PINS_MAX);
	/* The last key was the one left out. */
	for (i = 0; i < FWD_PINS_MAX; i++)
		ck_assert_mem_ne(fwd_pins_key(&f.pins, i), id.pk, BS_PK_LEN);
	fwd_pins_stop(&f);
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), FWD_PINS_MAX);
}
END_TEST

/*
 * The file's reader: a line that is not a key (garbage, CRLF, cut, all
 * zero) or repeats one is skipped, the rest kept; the last line needs no
 * newline.  A file that is not a regular file stops the start.
 */
START_TEST(test_pins_file_lines)
{
	char k1[BS_KEY_B64_LEN + 1], k2[BS_KEY_B64_LEN + 1], text[512];
	char err[256];

	bs_key_to_b64(k1, other.pk);
	bs_key_to_b64(k2, rogue.pk);
	snprintf(text, sizeof(text), "garbage\n%s\n%s\r\n%.*s\n"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n%s\n%s", k1, k2,
	    20, k2, k1, k2);
	put(path_pins, text);
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), 0);
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 2);
	fwd_pins_stop(&f);
	ck_assert_int_eq(unlink(path_pins), 0);
	ck_assert_int_eq(mkdir(path_pins, 0700), 0);
	ck_assert_int_eq(fwd_pins_start(&f, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, path_pins));
	ck_assert_int_eq(rmdir(path_pins), 0);
}
END_TEST

static Suite *
fwd_trust_suite(void)
{
	Suite *s = suite_create("fwd_trust");
	TCase *tc = tcase_create("control");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_trust_add_writes_and_pushes);
	tcase_add_loop_test(tc, test_trust_add_refused, 0,
	    sizeof(add_errs) / sizeof(add_errs[0]));
	tcase_add_test(tc, test_edit_sequence);
	tcase_add_test(tc, test_unwritable_policy);
	tcase_add_test(tc, test_reload);
	tcase_add_test(tc, test_listings);
	suite_add_tcase(s, tc);
	tc = tcase_create("revocations and certificates");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_revoke_record);
	tcase_add_loop_test(tc, test_revoke_record_refused, 0, RV_COUNT);
	tcase_add_test(tc, test_revocation_store_bad_line);
	tcase_add_test(tc, test_revoke_issuer_scope);
	tcase_add_test(tc, test_revoke_anchor_scope);
	tcase_add_test(tc, test_revoke_expiry);
	tcase_add_test(tc, test_own_cert_cadence);
	tcase_add_test(tc, test_own_cert_other_key);
	tcase_add_test(tc, test_revocations_in_turn);
	tcase_add_test(tc, test_revocation_store_parse);
	suite_add_tcase(s, tc);
	tc = tcase_create("pins");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pins_keep_save_push);
	tcase_add_test(tc, test_pins_written_at_stop);
	tcase_add_test(tc, test_pins_age);
	tcase_add_test(tc, test_pins_push_many);
	tcase_add_test(tc, test_pins_full);
	tcase_add_test(tc, test_pins_file_lines);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(fwd_trust_suite());
}
