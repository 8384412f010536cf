/*
 * ctl_daemon.h — a daemon command that is one request and its reply shown
 * (ctl_render.h), run from a table of such commands that the family owns
 * (ctl_show.c, ctl_trust.c).
 */
#ifndef BATSEC_CTL_DAEMON_H
#define BATSEC_CTL_DAEMON_H

#include "ctl.h"
#include "ctl_render.h"

/* What follows the command name on the command line. */
enum ctl_operands {
	CTL_OPS_NONE = 0,
	CTL_OPS_KEY,		/* KEY, then what more accepts */
	CTL_OPS_WORDS,		/* words sent as given; more checks them */
};

/* Check the n operands after KEY; 0 or a usage error (ctl_usage_err). */
typedef int ctl_ops_fn(const struct ctl_cmd *cmd, int n, char **ops);

/* A daemon command: the request it sends and how the reply is shown. */
struct ctl_dcmd {
	const char *path;		/* as in ctl_cmd, "trust add" */
	const char *wire;		/* request name (ctlproto.h) */
	enum ctl_operands ops;
	ctl_ops_fn *more;		/* operands after KEY; NULL: none */
	enum ctl_shape shape;
	const struct ctl_col *cols;	/* table columns, NULL-terminated */
};

/*
 * Run cmd from table, which ends with a NULL path: the entry named like
 * cmd, or for a group ("trust", "policy") the entry "GROUP SUB" named by
 * the first operand.  A KEY operand (text, file or "-") is sent as base64.
 * The socket is connected before the operands are checked: without a
 * running batsecd nothing else can succeed, and every daemon command then
 * gives that same answer.  An exit status.
 */
int	ctl_daemon_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
	    char **argv, const struct ctl_dcmd *table);

#endif /* BATSEC_CTL_DAEMON_H */
