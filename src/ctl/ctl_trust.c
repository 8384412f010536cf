/*
 * ctl_trust.c — the daemon commands that change or list whom batsecd
 * trusts: trust add/remove/list, block, unblock, reload (one request each,
 * ctl_daemon.c), and revoke, locally or with a CA revocation record.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "batsec_policy.h"
#include "ctl_client.h"
#include "ctl_daemon.h"
#include "ctl_files.h"
#include "ctl_render.h"
#include "ctl_trust.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

/* ---- trust, block, unblock, reload -------------------------------------- */

static const struct ctl_col ctl_cols_trust[] = {
	CTL_COL("key", "Key", CTL_FMT_TEXT),
	CTL_COL("address", "Address", CTL_FMT_TEXT),
	CTL_COL("name", "Name", CTL_FMT_TEXT),
	{ "gateway", "Gateway", CTL_FMT_TEXT, "yes", "no" },
	CTL_COL_END
};

/* The options after name in trust add: [name NAME] [gateway]. */
static int
ctl_trust_opts(const struct ctl_cmd *cmd, int n, char **ops)
{
	int i, named = 0, gateway = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(ops[i], "gateway") == 0 && !gateway) {
			gateway = 1;
		} else if (strcmp(ops[i], "name") == 0 && !named) {
			if (++i >= n)
				return ctl_usage_err(cmd, "name needs a NAME");
			if (!bs_policy_name_ok(ops[i], strlen(ops[i])))
				return ctl_usage_err(cmd, "bad name '%s' (1-%d "
				    "characters A-Z a-z 0-9 . _ -)", ops[i],
				    BS_POLICY_NAME_MAX);
			named = 1;
		} else {
			return ctl_usage_err(cmd, "unexpected argument '%s'",
			    ops[i]);
		}
	}
	return 0;
}

static const struct ctl_dcmd ctl_trust_dcmds[] = {
	{ "trust add", CTLP_CMD_TRUST_ADD, CTL_OPS_KEY, ctl_trust_opts,
	  CTL_SHAPE_NONE, NULL },
	{ "trust remove", CTLP_CMD_TRUST_REMOVE, CTL_OPS_KEY, NULL,
	  CTL_SHAPE_NONE, NULL },
	{ "trust list", CTLP_CMD_TRUST_LIST, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_TABLE, ctl_cols_trust },
	{ "block", CTLP_CMD_BLOCK, CTL_OPS_KEY, NULL, CTL_SHAPE_NONE, NULL },
	{ "unblock", CTLP_CMD_UNBLOCK, CTL_OPS_KEY, NULL, CTL_SHAPE_NONE,
	  NULL },
	{ "reload", CTLP_CMD_RELOAD, CTL_OPS_NONE, NULL, CTL_SHAPE_NONE,
	  NULL },
	{ NULL, NULL, CTL_OPS_NONE, NULL, CTL_SHAPE_NONE, NULL }
};

int
ctl_trust_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	return ctl_daemon_run(ctl, cmd, argc, argv, ctl_trust_dcmds);
}

/* ---- revoke: locally, or a CA revocation record ------------------------- */

/* The long options of revoke that have no short form. */
enum {
	CTL_OPT_CA = 0x100,
	CTL_OPT_RECORD,
};

struct ctl_revoke_opts {
	const char *ca;			/* --ca CAKEYFILE */
	const char *record;		/* --record FILE */
	const char *out;		/* -o FILE: write, do not send */
	int force;
};

static int
ctl_revoke_opts(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv, struct ctl_revoke_opts *o)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, CTL_OPT_CA },
		{ "record", required_argument, NULL, CTL_OPT_RECORD },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof(*o));
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":fhjo:", opts, NULL)) != -1) {
		if (ch == CTL_OPT_CA)
			o->ca = optarg;
		else if (ch == CTL_OPT_RECORD)
			o->record = optarg;
		else if (ch == 'o')
			o->out = optarg;
		else if (ch == 'f')
			o->force = 1;
		else if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help_shown(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if (o->ca != NULL && o->record != NULL)
		return ctl_usage_err(cmd, "--ca and --record exclude each "
		    "other");
	if (o->out != NULL && o->ca == NULL)
		return ctl_usage_err(cmd, "-o needs --ca");
	if ((o->ca != NULL && *o->ca == '\0') ||
	    (o->record != NULL && *o->record == '\0') ||
	    (o->out != NULL && *o->out == '\0'))
		return ctl_usage_err(cmd, "empty file name");
	return 0;
}

/* One request with one argument on fd; the reply has no records. */
static int
ctl_send1(struct ctl *ctl, int fd, const char *wire, const char *arg)
{
	struct ctl_in in = { NULL, 0, 0, 0 };
	const char *args[1];
	int rc;

	args[0] = arg;
	rc = ctl_exchange(ctl, fd, wire, 1, args, &in);
	free(in.buf);
	return rc;
}

static int
ctl_send_record(struct ctl *ctl, int fd, const struct bs_revoke *r)
{
	uint8_t raw[BS_REVOKE_LEN];
	char b64[CTLP_REVOKE_B64_LEN + 1];

	bs_revoke_encode(raw, r);
	if (bs_b64_encode(b64, sizeof(b64), raw, sizeof(raw)) < 0) {
		ctl_warnx("revoke: cannot encode the record");
		return CTL_EXIT_FAIL;
	}
	return ctl_send1(ctl, fd, CTLP_CMD_REVOKE_RECORD, b64);
}

/* A record signed with the CA key in path for pk. */
static int
ctl_revoke_issue(struct ctl *ctl, const char *path,
    const uint8_t pk[static BS_PK_LEN], struct bs_revoke *r)
{
	struct bs_identity ca;
	uint64_t now;
	int rc;

	if ((now = ctl_now()) == 0)
		return CTL_EXIT_FAIL;
	if ((rc = ctl_load_seckey(ctl, path, &ca)) != 0)
		return rc;
	rc = bs_revoke_issue(r, &ca, pk, now) == 0 ? CTL_EXIT_OK :
	    CTL_EXIT_FAIL;
	bs_identity_wipe(&ca);
	if (rc != 0)
		ctl_warnx("revoke: cannot sign the record");
	return rc;
}

/* The record or key of a revoke command, then the request on fd. */
static int
ctl_revoke_do(struct ctl *ctl, const struct ctl_cmd *cmd,
    const struct ctl_revoke_opts *o, int n, char **ops, int fd)
{
	char key[BS_KEY_B64_LEN + 1], err[CTL_ERRLEN];
	uint8_t pk[BS_PK_LEN];
	struct bs_revoke r;
	int rc;

	if (o->record != NULL) {
		if (n != 0)
			return ctl_usage_err(cmd, "--record takes no KEY");
		if (bs_revoke_load(o->record, &r, err, sizeof(err)) != 0)
			return ctl_fail(err);
		return ctl_send_record(ctl, fd, &r);
	}
	if (n != 1)
		return ctl_usage_err(cmd, n == 0 ? "missing KEY" :
		    "too many arguments");
	if (*ops[0] == '\0')
		return ctl_usage_err(cmd, "empty key or file name");
	if ((rc = ctl_load_pubkey(ctl, ops[0], pk)) != 0)
		return rc;
	if (o->ca == NULL) {
		bs_key_to_b64(key, pk);
		return ctl_send1(ctl, fd, CTLP_CMD_REVOKE, key);
	}
	if ((rc = ctl_revoke_issue(ctl, o->ca, pk, &r)) != 0)
		return rc;
	if (o->out != NULL)
		return ctl_save(o->out, o->force, ctl_write_revoke, &r);
	return ctl_send_record(ctl, fd, &r);
}

/*
 * revoke KEY: a local revoke entry.  revoke --ca CAKEYFILE KEY: a CA
 * record, sent to batsecd (which spreads it) or written with -o.
 * revoke --record FILE: send a record made elsewhere.  As every daemon
 * command, it connects before it looks at its operands, except with -o,
 * which needs no daemon.
 */
int
ctl_revoke(struct ctl *ctl, const struct ctl_cmd *cmd, int argc, char **argv)
{
	struct ctl_revoke_opts o;
	int fd = -1, rc;

	if ((rc = ctl_revoke_opts(ctl, cmd, argc, argv, &o)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if (o.out == NULL && (fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	rc = ctl_revoke_do(ctl, cmd, &o, argc - optind, argv + optind, fd);
	if (fd >= 0)
		(void)close(fd);
	return rc;
}
