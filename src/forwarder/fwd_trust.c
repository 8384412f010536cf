/*
 * fwd_trust.c — trust management in the forwarder (fwd_trust.h): live
 * policy edits, the own certificate, CA revocation records, and the
 * policy snapshot the parser gets.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_keys.h"
#include "batsec_policy.h"
#include "common/log.h"
#include "control.h"
#include "fwd_parser.h"
#include "fwd_events.h"
#include "fwd_trust.h"
#include "fwd_types.h"
#include "proto/ipc.h"
#include "proto/wire.h"
#include "state.h"

/* ---- the own certificate ------------------------------------------------------ */

/*
 * KEY.cert: absent is fine (no certificate), anything else must be a
 * certificate for our key.  Its validity window is not checked here:
 * other nodes judge it; an expired one is logged.
 */
static int
fwd_trust_load_cert(struct fwd *f, char *err, size_t errlen)
{
	struct fwd_trust *t = &f->trust;
	char path[BS_CONF_PATH_MAX + sizeof(FWD_TRUST_CERT_SUFFIX)];
	uint8_t raw[BS_CERT_LEN];
	struct bs_cert c;
	struct stat st;

	snprintf(path, sizeof(path), "%s" FWD_TRUST_CERT_SUFFIX, f->cfg.key);
	if (stat(path, &st) != 0 && errno == ENOENT) {
		if (t->have_cert)
			log_info("%s: gone; no certificate sent any more",
			    path);
		t->have_cert = 0;
		return 0;
	}
	if (bs_cert_load(path, &c, err, errlen) != 0)
		return -1;
	if (memcmp(c.node_pk, f->id.pk, BS_PK_LEN) != 0)
		return log_errf(err, errlen, "%s: certificate is for "
		    "another node key", path);
	if (c.not_after < (uint64_t)time(NULL))
		log_warnx("%s: certificate expired; other nodes in mode ca "
		    "will refuse this node", path);
	bs_cert_encode(raw, &c);
	if (!t->have_cert || memcmp(raw, t->cert, BS_CERT_LEN) != 0) {
		memcpy(t->cert, raw, BS_CERT_LEN);
		t->have_cert = 1;
		t->cert_burst = FWD_TRUST_CERT_BURST;
		log_info("%s: certificate \"%s\" loaded", path, c.name);
	}
	return 0;
}

const uint8_t *
fwd_trust_own_cert(const struct fwd_trust *t)
{
	return t->have_cert ? t->cert : NULL;
}

/* ---- revocation records -------------------------------------------------------- */

static const struct fwd_rev *
fwd_rev_find(const struct fwd_trust *t, const uint8_t pk[static BS_PK_LEN],
    const uint8_t issuer[static BS_PK_LEN])
{
	size_t i;

	for (i = 0; i < t->n_rev; i++)
		if (memcmp(t->rev[i].r.revoked_pk, pk, BS_PK_LEN) == 0 &&
		    memcmp(t->rev[i].r.issuer_pk, issuer, BS_PK_LEN) == 0)
			return &t->rev[i];
	return NULL;
}

/* Unix seconds for the records' expiry; 0 when the clock is not set. */
static uint64_t
fwd_rev_now(void)
{
	time_t now = time(NULL);

	return now < FWD_TRUST_CLOCK_MIN ? 0 : (uint64_t)now;
}

/*
 * Why a stored record does not count under the running policy at now,
 * or NULL when it does (batsec-policy(5) REVOCATION): the policy's rules
 * (bs_policy_revoke_problem), and the issuer must not be an anchor that
 * a counting record of an anchor with revokes-anchors revoked.  Records
 * that revoke an anchor are judged on the policy alone: their issuers
 * have revokes-anchors, which no record can revoke.
 */
static const char *
fwd_rev_problem(const struct fwd *f, const struct bs_revoke *r, uint64_t now)
{
	const struct fwd_trust *t = &f->trust;
	const char *why;
	size_t i;

	if ((why = bs_policy_revoke_problem(f->policy, r, now)) != NULL)
		return why;
	if (bs_policy_anchor_find(f->policy, r->revoked_pk) != NULL)
		return NULL;
	for (i = 0; i < t->n_rev; i++)
		if (memcmp(t->rev[i].r.revoked_pk, r->issuer_pk,
		    BS_PK_LEN) == 0 && bs_policy_revoke_problem(f->policy,
		    &t->rev[i].r, now) == NULL)
			return "the issuer is an anchor revoked by another "
			    "anchor";
	return NULL;
}

/* 1 when the stored record v counts now. */
static int
fwd_rev_active(const struct fwd *f, const struct fwd_rev *v, uint64_t now)
{
	return fwd_rev_problem(f, &v->r, now) == NULL;
}

/*
 * Check raw as a record: canonical, signature valid and, when
 * need_counts, one that counts under the running policy now.  0 with
 * *out filled.
 */
static int
fwd_rev_check(const struct fwd *f, const uint8_t raw[static BS_REVOKE_LEN],
    int need_counts, struct fwd_rev *out, char *err, size_t errlen)
{
	const char *why;

	if ((why = bs_revoke_format_problem(raw, BS_REVOKE_LEN)) != NULL ||
	    bs_revoke_decode(&out->r, raw, BS_REVOKE_LEN) != 0)
		return log_errf(err, errlen, "malformed revocation "
		    "record: %s", why != NULL ? why : "?");
	if (need_counts && (why = fwd_rev_problem(f, &out->r,
	    fwd_rev_now())) != NULL)
		return log_errf(err, errlen, "%s", why);
	if (bs_revoke_verify(&out->r, out->r.issuer_pk) != 0)
		return log_errf(err, errlen, "the record's signature "
		    "does not verify");
	memcpy(out->raw, raw, BS_REVOKE_LEN);
	return 0;
}

static int
fwd_rev_append(struct fwd_trust *t, const struct fwd_rev *v)
{
	struct fwd_rev *n;

	if (t->n_rev >= FWD_TRUST_REVOKE_MAX)
		return -1;
	if ((n = realloc(t->rev, (t->n_rev + 1) * sizeof(*n))) == NULL)
		return -1;
	n[t->n_rev++] = *v;
	t->rev = n;
	return 0;
}

static void
fwd_rev_path(const struct fwd *f, char *path, size_t len)
{
	snprintf(path, len, "%s/" FWD_TRUST_REVOKE_FILE, f->cfg.state_dir);
}

/* Write every record, one base64 line each, atomically. */
static int
fwd_rev_save(const struct fwd *f, char *err, size_t errlen)
{
	const struct fwd_trust *t = &f->trust;
	char path[BS_CONF_PATH_MAX + sizeof(FWD_TRUST_REVOKE_FILE) + 1];
	const size_t line = CTLP_REVOKE_B64_LEN + 1;
	char *buf;
	size_t i;
	int rc;

	if ((buf = malloc(t->n_rev * line + 1)) == NULL)
		return log_errf(err, errlen, "out of memory");
	for (i = 0; i < t->n_rev; i++) {
		bs_b64_encode(buf + i * line, line + 1, t->rev[i].raw,
		    BS_REVOKE_LEN);
		buf[i * line + line - 1] = '\n';
	}
	fwd_rev_path(f, path, sizeof(path));
	rc = bs_file_write_atomic(path, buf, t->n_rev * line, 0644, err,
	    errlen);
	free(buf);
	return rc;
}

/* One line of the store: a record, or a warning naming file:line. */
static void
fwd_rev_load_line(void *arg, const char *path, size_t lineno, const char *s,
    size_t len)
{
	struct fwd *f = arg;
	uint8_t raw[BS_REVOKE_LEN];
	struct fwd_rev v;
	char err[256];

	if (len != CTLP_REVOKE_B64_LEN ||
	    bs_b64_decode_exact(raw, sizeof(raw), s, len) != BS_REVOKE_LEN) {
		log_warnx("%s:%zu: not a base64 revocation record; skipped",
		    path, lineno);
		return;
	}
	if (fwd_rev_check(f, raw, 0, &v, err, sizeof(err)) != 0) {
		log_warnx("%s:%zu: %s; skipped", path, lineno, err);
		return;
	}
	if (fwd_rev_find(&f->trust, v.r.revoked_pk, v.r.issuer_pk) == NULL &&
	    fwd_rev_append(&f->trust, &v) != 0)
		log_warnx("%s:%zu: more than %d records; the rest skipped",
		    path, lineno, FWD_TRUST_REVOKE_MAX);
}

static int
fwd_rev_load(struct fwd *f, char *err, size_t errlen)
{
	char path[BS_CONF_PATH_MAX + sizeof(FWD_TRUST_REVOKE_FILE) + 1];

	fwd_rev_path(f, path, sizeof(path));
	if (state_read_lines(path, FWD_TRUST_REVOKE_FILE_MAX,
	    fwd_rev_load_line, f, err, errlen) < 0)
		return -1;
	if (f->trust.n_rev > 0)
		log_info("%s: %zu revocation records", path, f->trust.n_rev);
	return 0;
}

void
fwd_trust_rev_parse(struct fwd *f, const char *path, const char *buf,
    size_t len)
{
	state_lines(path, buf, len, fwd_rev_load_line, f);
}

size_t
fwd_trust_rev_count(const struct fwd_trust *t)
{
	return t->n_rev;
}

const uint8_t *
fwd_trust_rev_record(const struct fwd_trust *t, size_t i)
{
	return i < t->n_rev ? t->rev[i].raw : NULL;
}

/* The policy or the revocations changed: the registered hook, if any. */
static void
fwd_trust_changed(struct fwd *f)
{
	if (f->trust.changed != NULL)
		f->trust.changed(f);
}

/*
 * A new record: store it, persist it, and apply it (new snapshot for the
 * parser).  0; 1 when it was known already; -1 with err.
 */
/* A trust event about key pk ("block", "trust add", ...). */
static void
fwd_event_key(struct fwd *f, const char *what, const uint8_t pk[BS_PK_LEN])
{
	char key[BS_KEY_B64_LEN + 1];
	uint8_t addr[BS_ADDR_LEN];

	bs_key_to_b64(key, pk);
	bs_mesh_addr(addr, pk);
	fwd_events_note(&f->events, FWD_EV_TRUST, what, addr, "key %s", key);
}

static int
fwd_rev_add(struct fwd *f, const uint8_t raw[static BS_REVOKE_LEN],
    char *err, size_t errlen)
{
	struct fwd_trust *t = &f->trust;
	struct fwd_rev v;
	char key[BS_KEY_B64_LEN + 1];

	if (fwd_rev_check(f, raw, 1, &v, err, errlen) != 0)
		return -1;
	if (fwd_rev_find(t, v.r.revoked_pk, v.r.issuer_pk) != NULL)
		return 1;
	if (fwd_rev_append(t, &v) != 0)
		return log_errf(err, errlen, "the store is full (%d "
		    "records)", FWD_TRUST_REVOKE_MAX);
	if (fwd_rev_save(f, err, errlen) != 0) {
		t->n_rev--;
		return -1;
	}
	bs_key_to_b64(key, v.r.revoked_pk);
	log_info("revocation of %s by the CA stored and applied", key);
	fwd_event_key(f, "revoke-record", v.r.revoked_pk);
	f->policy_serial++;
	fwd_trust_changed(f);
	fwd_trust_push(f);
	return 0;
}

int
fwd_trust_on_revoke(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;
	struct fwd_rev v;
	char err[256];

	/*
	 * Checked again: the parser's word is not enough.  A record our
	 * policy refuses is one a correct parser never sends (a violation:
	 * the parser is killed), unless the parser may not have read the
	 * policy that refuses it yet (fwd_parser_settled).
	 */
	if (fwd_rev_check(f, u->revoke.rec, 1, &v, err, sizeof(err)) != 0) {
		log_warnx("revocation record from the parser refused: %s",
		    err);
		/* Expiry is a matter of the second each side read its
		 * clock: a record that expired since the parser took it
		 * is no violation. */
		if (bs_revoke_decode(&v.r, u->revoke.rec, BS_REVOKE_LEN) == 0 &&
		    bs_policy_revoke_expired(f->policy, &v.r, fwd_rev_now()))
			return 0;
		return fwd_parser_settled(&f->parser) && !f->policy_pending ?
		    -1 : 0;
	}
	/* Not the parser's fault: the store is full or cannot be written. */
	if (fwd_rev_add(f, u->revoke.rec, err, sizeof(err)) < 0)
		log_warnx("revocation record from the mesh not stored: %s",
		    err);
	return 0;
}

const struct bs_policy *
fwd_trust_effective(struct fwd *f, struct bs_policy **owned)
{
	const struct fwd_trust *t = &f->trust;
	struct bs_policy *p = NULL;
	uint64_t now = fwd_rev_now();
	size_t i;

	*owned = NULL;
	for (i = 0; i < t->n_rev; i++) {
		if (!fwd_rev_active(f, &t->rev[i], now) ||
		    bs_policy_is_revoked(f->policy, t->rev[i].r.revoked_pk))
			continue;
		if (p == NULL && (p = bs_policy_dup(f->policy)) == NULL)
			return NULL;
		/* Already there (two issuers) or the list full: skip. */
		(void)bs_policy_revoke(p, t->rev[i].r.revoked_pk, NULL, 0);
	}
	*owned = p;
	return p != NULL ? p : f->policy;
}

/*
 * Queue the policy as a snapshot (with the CA revocations in force,
 * fwd_trust_effective); on ENOBUFS try again later.
 */
void
fwd_trust_push(struct fwd *f)
{
	struct bs_policy *owned = NULL;
	const struct bs_policy *pol;
	size_t len, n = 0;
	uint8_t *buf;

	f->policy_pending = 1;
	if (!fwd_parser_up(&f->parser))
		return;
	if ((pol = fwd_trust_effective(f, &owned)) == NULL ||
	    (buf = malloc(len = bs_policy_snapshot_len(pol))) == NULL) {
		log_warn("policy snapshot");
		bs_policy_free(owned);
		return;
	}
	if (bs_policy_snapshot_encode(pol, buf, len, &n) != 0)
		log_warnx("policy snapshot: encoding failed");
	else if (fwd_parser_send_policy(&f->parser, f->policy_serial, buf,
	    n) == 0)
		f->policy_pending = 0;
	else if (errno != ENOBUFS)
		log_warn("sending the policy to the parser");
	free(buf);
	bs_policy_free(owned);
}

/* ---- what our OGMs carry ---------------------------------------------------- */

size_t
fwd_trust_ogm_tvlvs(struct fwd *f, uint8_t *buf, size_t room)
{
	struct fwd_trust *t = &f->trust;
	size_t len = 0, i, k;
	uint32_t every = f->policy->limits.cert_every;
	uint64_t now = fwd_rev_now();

	t->ogms++;
	if (t->have_cert && (t->cert_burst > 0 || every == 0 ||
	    t->ogms % every == 0) &&
	    wire_tvlv_put_cert(buf, room, &len, t->cert) == WIRE_OK &&
	    t->cert_burst > 0)
		t->cert_burst--;
	/* One active record in turn, when it fits. */
	for (k = 0; k < t->n_rev; k++) {
		i = (t->rev_next + k) % t->n_rev;
		if (!fwd_rev_active(f, &t->rev[i], now))
			continue;
		if (wire_tvlv_put_revoke(buf, room, &len, t->rev[i].raw) ==
		    WIRE_OK)
			t->rev_next = (i + 1) % t->n_rev;
		break;
	}
	return len;
}

/* ---- start, reload, commit --------------------------------------------------- */

/*
 * Drop the records that have expired under the running policy
 * (bs_policy_revoke_expired): out of the store and the file, and, with
 * push (not at start, before the parser's channel exists), a new
 * snapshot for the parser.  The number dropped.
 */
static size_t
fwd_rev_prune(struct fwd *f, uint64_t now, int push)
{
	struct fwd_trust *t = &f->trust;
	size_t i, k = 0, gone;
	char err[256];

	for (i = 0; i < t->n_rev; i++)
		if (!bs_policy_revoke_expired(f->policy, &t->rev[i].r, now))
			t->rev[k++] = t->rev[i];
	if ((gone = t->n_rev - k) == 0)
		return 0;
	t->n_rev = k;
	t->rev_next = 0;
	log_info("%zu revocation records expired; dropped", gone);
	if (fwd_rev_save(f, err, sizeof(err)) != 0)
		log_warnx("%s", err);
	if (push) {
		f->policy_serial++;
		fwd_trust_push(f);
	}
	return gone;
}

void
fwd_trust_tick(struct fwd *f, uint64_t now_ms)
{
	if (f->trust.rev_check_ms != 0 &&
	    now_ms - f->trust.rev_check_ms < FWD_TRUST_REV_CHECK_MS)
		return;
	f->trust.rev_check_ms = now_ms;
	(void)fwd_rev_prune(f, fwd_rev_now(), 1);
}

int
fwd_trust_start(struct fwd *f, char *err, size_t errlen)
{
	if (fwd_trust_load_cert(f, err, errlen) != 0 ||
	    fwd_rev_load(f, err, errlen) != 0)
		return -1;
	(void)fwd_rev_prune(f, fwd_rev_now(), 0);
	return 0;
}

void
fwd_trust_stop(struct fwd *f)
{
	free(f->trust.rev);
	memset(&f->trust, 0, sizeof(f->trust));
}

/* Make pol the running policy and tell the parser. */
static void
fwd_trust_install(struct fwd *f, struct bs_policy *pol)
{
	bs_policy_free(f->policy);
	f->policy = pol;
	f->policy_serial++;
	fwd_trust_changed(f);
	fwd_trust_push(f);
}

int
fwd_trust_reload(struct fwd *f, char *err, size_t errlen)
{
	struct bs_policy *pol = NULL;
	char cerr[512];

	if (bs_policy_parse_file(f->cfg.policy, 0, &pol, err, errlen) != 0)
		return -1;
	fwd_trust_install(f, pol);
	log_info("policy %s reloaded: mode %s, %zu trusted, %zu anchors, "
	    "%zu blocked", f->cfg.policy, bs_policy_mode_name(pol->mode),
	    pol->n_trust, pol->n_anchor, pol->n_block);
	if (fwd_trust_load_cert(f, cerr, sizeof(cerr)) != 0)
		log_warnx("%s; keeping the certificate sent so far", cerr);
	fwd_events_note(&f->events, FWD_EV_TRUST, "reload", NULL, "mode %s, %zu trusted, "
	    "%zu anchors, %zu blocked", bs_policy_mode_name(pol->mode),
	    pol->n_trust, pol->n_anchor, pol->n_block);
	return 0;
}

/* The policy file's mode, to keep it over a rewrite. */
static unsigned
fwd_policy_mode(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return FWD_TRUST_POLICY_MODE;
	return (unsigned)st.st_mode & 07777;
}

/*
 * Write pol to the policy file (canonical text, atomically: a crash
 * leaves the old file or the new one) and make it the running policy.
 * On failure pol is freed and nothing changed.
 */
static int
fwd_trust_commit(struct fwd *f, struct bs_policy *pol, char *err,
    size_t errlen)
{
	size_t len = 0, cap;
	char *text;
	int rc = -1;

	if (bs_policy_validate(pol, err, errlen) != 0)
		goto out;
	cap = bs_policy_format_len(pol) + 1;
	if ((text = malloc(cap)) == NULL) {
		log_errf(err, errlen, "out of memory");
		goto out;
	}
	if (bs_policy_format(pol, text, cap, &len) == 0)
		rc = bs_file_write_atomic(f->cfg.policy, text, len,
		    fwd_policy_mode(f->cfg.policy), err, errlen);
	else
		log_errf(err, errlen, "policy text did not fit");
	free(text);
out:
	if (rc != 0) {
		bs_policy_free(pol);
		return -1;
	}
	fwd_trust_install(f, pol);
	return 0;
}

/* ---- control-socket handlers ---------------------------------------------- */

typedef int fwd_edit_fn(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen);

/* argv[0] as a key; 0, or an error reply and -1. */
static int
fwd_ctl_key(const char *arg, uint8_t pk[static BS_PK_LEN],
    struct ctl_reply *r)
{
	if (bs_key_from_b64(pk, arg, strlen(arg)) != 0) {
		ctl_reply_error(r, CTLP_E_USAGE, "bad key (expected %d "
		    "characters of base64)", BS_KEY_B64_LEN);
		return -1;
	}
	return 0;
}

/* Copy, change, write, install; the reply says how it went. */
static void
fwd_ctl_edit(struct fwd *f, struct ctl_reply *r, fwd_edit_fn *edit,
    const char *what, const uint8_t pk[static BS_PK_LEN])
{
	struct bs_policy *pol;
	char err[512], key[BS_KEY_B64_LEN + 1];

	if ((pol = bs_policy_dup(f->policy)) == NULL) {
		ctl_reply_error(r, CTLP_E_FAILED, "out of memory");
		return;
	}
	if (edit(pol, pk, err, sizeof(err)) != 0) {
		bs_policy_free(pol);
		ctl_reply_error(r, CTLP_E_FAILED, "%s", err);
		return;
	}
	if (fwd_trust_commit(f, pol, err, sizeof(err)) != 0) {
		ctl_reply_error(r, CTLP_E_FAILED, "%s; the policy is "
		    "unchanged", err);
		return;
	}
	bs_key_to_b64(key, pk);
	log_info("control: %s %s", what, key);
	fwd_event_key(f, what, pk);
	ctl_reply_ok(r);
}

/* trust-add KEY [name NAME] [gateway], checked as strictly as the client. */
struct fwd_add_args {
	const char *name;
	int gateway;
};

static int
fwd_ctl_add_args(size_t argc, const char *const argv[],
    struct fwd_add_args *a, struct ctl_reply *r)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "gateway") == 0 && !a->gateway) {
			a->gateway = 1;
		} else if (strcmp(argv[i], "name") == 0 && a->name == NULL &&
		    i + 1 < argc && bs_policy_name_ok(argv[i + 1],
		    strlen(argv[i + 1]))) {
			a->name = argv[++i];
		} else {
			ctl_reply_error(r, CTLP_E_USAGE, "argument %zu: "
			    "expected name NAME or gateway", i + 1);
			return -1;
		}
	}
	return 0;
}

void
fwd_trust_ctl_add(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	struct fwd_add_args a;
	struct bs_policy *pol;
	uint8_t pk[BS_PK_LEN];
	char err[512];

	if (fwd_ctl_key(argv[0], pk, r) != 0 ||
	    fwd_ctl_add_args(argc, argv, &a, r) != 0)
		return;
	if ((pol = bs_policy_dup(f->policy)) == NULL) {
		ctl_reply_error(r, CTLP_E_FAILED, "out of memory");
		return;
	}
	if (bs_policy_trust_add(pol, pk, a.name, a.gateway, err,
	    sizeof(err)) != 0) {
		bs_policy_free(pol);
		ctl_reply_error(r, CTLP_E_FAILED, "%s", err);
		return;
	}
	if (fwd_trust_commit(f, pol, err, sizeof(err)) != 0) {
		ctl_reply_error(r, CTLP_E_FAILED, "%s; the policy is "
		    "unchanged", err);
		return;
	}
	log_info("control: trust add %s%s%s", argv[0], a.name ? " name " :
	    "", a.name ? a.name : "");
	fwd_event_key(f, "trust add", pk);
	ctl_reply_ok(r);
}

#define FWD_CTL_KEYCMD(fn, edit, what)					\
void									\
fn(void *ctx, size_t argc, const char *const argv[],			\
    struct ctl_reply *r)						\
{									\
	uint8_t pk[BS_PK_LEN];						\
									\
	(void)argc;							\
	if (fwd_ctl_key(argv[0], pk, r) == 0)				\
		fwd_ctl_edit(ctx, r, edit, what, pk);			\
}

FWD_CTL_KEYCMD(fwd_trust_ctl_remove, bs_policy_trust_remove, "trust remove")
FWD_CTL_KEYCMD(fwd_trust_ctl_block, bs_policy_block, "block")
FWD_CTL_KEYCMD(fwd_trust_ctl_unblock, bs_policy_unblock, "unblock")
FWD_CTL_KEYCMD(fwd_trust_ctl_revoke, bs_policy_revoke, "revoke")

void
fwd_trust_ctl_revoke_record(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	uint8_t raw[BS_REVOKE_LEN];
	size_t len = strlen(argv[0]);
	char err[256];
	int rc;

	(void)argc;
	if (len != CTLP_REVOKE_B64_LEN ||
	    bs_b64_decode_exact(raw, sizeof(raw), argv[0], len) !=
	    BS_REVOKE_LEN) {
		ctl_reply_error(r, CTLP_E_USAGE, "expected the base64 of a "
		    "%d-byte revocation record", BS_REVOKE_LEN);
		return;
	}
	if ((rc = fwd_rev_add(f, raw, err, sizeof(err))) < 0)
		ctl_reply_error(r, CTLP_E_FAILED, "%s", err);
	else if (rc == 1)
		ctl_reply_error(r, CTLP_E_FAILED, "this record is already "
		    "stored");
	else
		ctl_reply_ok(r);
}

void
fwd_trust_ctl_reload(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	char err[512];

	(void)argc;
	(void)argv;
	if (fwd_trust_reload(ctx, err, sizeof(err)) != 0) {
		log_warnx("reload: %s; keeping the old policy", err);
		ctl_reply_error(r, CTLP_E_FAILED, "%s; the running policy "
		    "stays", err);
		return;
	}
	ctl_reply_ok(r);
}

void
fwd_trust_ctl_list(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	const struct fwd *f = ctx;
	const struct bs_policy_trust *t;
	uint8_t addr[BS_ADDR_LEN];
	size_t i;

	(void)argc;
	(void)argv;
	for (i = 0; i < f->policy->n_trust; i++) {
		t = &f->policy->trust[i];
		bs_mesh_addr(addr, t->pk);
		ctl_reply_record_begin(r);
		ctl_reply_field_key(r, "key", t->pk);
		ctl_reply_field_addr(r, "address", addr);
		ctl_reply_field_str(r, "name", t->name);
		ctl_reply_field_bool(r, "gateway", t->gateway != 0);
		ctl_reply_field_bool(r, "blocked",
		    bs_policy_is_blocked(f->policy, t->pk) ||
		    bs_policy_is_revoked(f->policy, t->pk));
		ctl_reply_field_str(r, "include", t->include == 0 ? "" :
		    f->policy->include[t->include - 1]);
	}
	ctl_reply_ok(r);
}

void
fwd_trust_ctl_anchors(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	const struct fwd *f = ctx;
	const struct bs_policy_anchor *a;
	uint8_t addr[BS_ADDR_LEN];
	size_t i, k, n;

	(void)argc;
	(void)argv;
	for (i = 0; i < f->policy->n_anchor; i++) {
		a = &f->policy->anchor[i];
		for (k = 0, n = 0; k < f->trust.n_rev; k++)
			n += memcmp(f->trust.rev[k].r.issuer_pk, a->pk,
			    BS_PK_LEN) == 0;
		bs_mesh_addr(addr, a->pk);
		ctl_reply_record_begin(r);
		ctl_reply_field_key(r, "key", a->pk);
		ctl_reply_field_addr(r, "address", addr);
		ctl_reply_field_str(r, "name", a->name);
		ctl_reply_field_bool(r, "blocked",
		    bs_policy_is_blocked(f->policy, a->pk) ||
		    bs_policy_is_revoked(f->policy, a->pk));
		ctl_reply_field_u64(r, "revocations", n);
	}
	ctl_reply_ok(r);
}

/* Each line of text as one record. */
static void
fwd_ctl_lines(struct ctl_reply *r, char *text, size_t len)
{
	size_t pos = 0, end;

	while (pos < len) {
		end = pos;
		while (end < len && text[end] != '\n')
			end++;
		text[end] = '\0';
		ctl_reply_record_begin(r);
		ctl_reply_field_str(r, "line", text + pos);
		pos = end + 1;
	}
}

/* The CA revocations in force, as comments after the policy text. */
static void
fwd_ctl_rev_lines(const struct fwd *f, struct ctl_reply *r)
{
	const struct fwd_trust *t = &f->trust;
	char line[64 + 2 * BS_KEY_B64_LEN], a[BS_KEY_B64_LEN + 1],
	    k[BS_KEY_B64_LEN + 1];
	uint64_t now = fwd_rev_now();
	size_t i;

	for (i = 0; i < t->n_rev; i++) {
		if (!fwd_rev_active(f, &t->rev[i], now))
			continue;
		bs_key_to_b64(k, t->rev[i].r.revoked_pk);
		bs_key_to_b64(a, t->rev[i].r.issuer_pk);
		snprintf(line, sizeof(line), "# revoked by anchor %s: %s", a,
		    k);
		ctl_reply_record_begin(r);
		ctl_reply_field_str(r, "line", line);
	}
}

void
fwd_trust_ctl_policy_show(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	const struct fwd *f = ctx;
	size_t cap = bs_policy_format_len(f->policy) + 1, len = 0;
	char *text;

	(void)argc;
	(void)argv;
	if ((text = malloc(cap)) == NULL ||
	    bs_policy_format(f->policy, text, cap, &len) != 0) {
		free(text);
		ctl_reply_error(r, CTLP_E_FAILED, "out of memory");
		return;
	}
	fwd_ctl_lines(r, text, len);
	free(text);
	fwd_ctl_rev_lines(f, r);
	ctl_reply_ok(r);
}
