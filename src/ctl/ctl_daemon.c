/*
 * ctl_daemon.c — the daemon commands that are one request and its reply
 * shown: pick the entry of the family's table, check the operands, send
 * the request, render the records.  The families own their tables
 * (ctl_show.c, ctl_trust.c).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "ctl_client.h"
#include "ctl_daemon.h"
#include "ctl_files.h"
#include "ctl_render.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

/* The most subcommands a group of a table lists in a message. */
#define CTL_SUBS_MAX		8

static const struct ctl_dcmd *
ctl_dcmd_find(const struct ctl_dcmd *table, const char *path)
{
	const struct ctl_dcmd *d;

	for (d = table; d->path != NULL; d++)
		if (strcmp(d->path, path) == 0)
			return d;
	return NULL;
}

/* The subcommands of group in table, as "add, remove or list". */
static void
ctl_dcmd_subs(char *out, size_t outlen, const struct ctl_dcmd *table,
    const char *group)
{
	const char *sub[CTL_SUBS_MAX];
	const struct ctl_dcmd *d;
	size_t i, k = 0, len = strlen(group), used;

	for (d = table; d->path != NULL && k < CTL_SUBS_MAX; d++)
		if (strncmp(d->path, group, len) == 0 && d->path[len] == ' ')
			sub[k++] = d->path + len + 1;
	out[0] = '\0';
	for (i = 0; i < k; i++) {
		used = strlen(out);
		(void)snprintf(out + used, outlen - used, "%s%s", i == 0 ? "" :
		    i + 1 < k ? ", " : " or ", sub[i]);
	}
}

/*
 * The entry of table for cmd; a group picks its subcommand from the first
 * operand (*skip = 1).  NULL after a usage error (*rc).
 */
static const struct ctl_dcmd *
ctl_daemon_pick(const struct ctl_dcmd *table, const struct ctl_cmd *cmd,
    int n, char **ops, int *skip, int *rc)
{
	char path[64], subs[128];
	const struct ctl_dcmd *dc;

	*skip = 0;
	*rc = CTL_EXIT_FAIL;
	if ((dc = ctl_dcmd_find(table, cmd->name)) != NULL)
		return dc;
	if (n == 0) {
		ctl_dcmd_subs(subs, sizeof(subs), table, cmd->name);
		*rc = ctl_usage_err(cmd, "missing subcommand (%s)", subs);
		return NULL;
	}
	(void)snprintf(path, sizeof(path), "%s %.20s", cmd->name, ops[0]);
	if ((dc = ctl_dcmd_find(table, path)) == NULL)
		*rc = ctl_usage_err(cmd, "unknown command '%s'", ops[0]);
	*skip = 1;
	return dc;
}

/* Check the operands of dc against their form; 0 or a usage error. */
static int
ctl_check_operands(const struct ctl_cmd *cmd, const struct ctl_dcmd *dc,
    int n, char **ops)
{
	int rc;

	if (dc->ops == CTL_OPS_NONE && n > 0)
		return ctl_usage_err(cmd, "too many arguments");
	if (dc->ops == CTL_OPS_NONE)
		return 0;
	if (dc->ops == CTL_OPS_WORDS) {
		if (n > CTLP_ARGS_MAX)
			return ctl_usage_err(cmd, "too many arguments");
		return dc->more != NULL ? dc->more(cmd, n, ops) : 0;
	}
	if (n == 0)
		return ctl_usage_err(cmd, "missing argument");
	if (*ops[0] == '\0')
		return ctl_usage_err(cmd, "empty key or file name");
	if (dc->more == NULL && n > 1)
		return ctl_usage_err(cmd, "too many arguments");
	if (dc->more != NULL && (rc = dc->more(cmd, n - 1, ops + 1)) != 0)
		return rc;
	/* What more accepts today is far less; the request holds no more. */
	if (n > CTLP_ARGS_MAX)
		return ctl_usage_err(cmd, "too many arguments");
	return 0;
}

/*
 * Turn the operands into request arguments: a KEY (text, file or "-") is
 * read here and sent as base64, the rest is passed as given.
 */
static int
ctl_daemon_args(struct ctl *ctl, const struct ctl_dcmd *dc, int n,
    char **ops, char key[static BS_KEY_B64_LEN + 1], const char **args)
{
	uint8_t pk[BS_PK_LEN];
	int i, rc;

	if (dc->ops == CTL_OPS_NONE)
		return 0;
	if (dc->ops == CTL_OPS_WORDS) {
		for (i = 0; i < n; i++)
			args[i] = ops[i];
		return 0;
	}
	if ((rc = ctl_load_pubkey(ctl, ops[0], pk)) != 0)
		return rc;
	bs_key_to_b64(key, pk);
	args[0] = key;
	for (i = 1; i < n; i++)
		args[i] = ops[i];
	return 0;
}

int
ctl_daemon_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv, const struct ctl_dcmd *table)
{
	const char *args[CTLP_ARGS_MAX];
	char key[BS_KEY_B64_LEN + 1];
	const struct ctl_dcmd *dc;
	struct ctl_in in = { NULL, 0, 0, 0 };
	char **ops;
	int fd, n, skip, rc;

	if ((rc = ctl_opts_basic(ctl, cmd, argc, argv, 1)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	ops = argv + optind;
	n = argc - optind;
	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	dc = ctl_daemon_pick(table, cmd, n, ops, &skip, &rc);
	if (dc != NULL) {
		ops += skip;
		n -= skip;
		if ((rc = ctl_check_operands(cmd, dc, n, ops)) == 0 &&
		    (rc = ctl_daemon_args(ctl, dc, n, ops, key, args)) == 0 &&
		    (rc = ctl_exchange(ctl, fd, dc->wire, (size_t)n, args,
		    &in)) == 0)
			rc = ctl_render(ctl, dc->shape, dc->cols, &in);
	}
	(void)close(fd);
	free(in.buf);
	return rc;
}
