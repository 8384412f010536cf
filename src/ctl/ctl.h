/*
 * ctl.h — the types every file of batsec-ctl shares: the exit statuses,
 * the options given before the command, and an entry of the command table
 * (batsec-ctl.c).  Types and constants only; each file declares its own
 * functions in its own header.
 */
#ifndef BATSEC_CTL_H
#define BATSEC_CTL_H

#define CTL_PROG		"batsec-ctl"
#define CTL_EXIT_OK		0
#define CTL_EXIT_FAIL		1
#define CTL_EXIT_USAGE		2

/* Buffer for a library's one-line error message. */
#define CTL_ERRLEN		512
/* Internal: an option parser printed help and the command is done. */
#define CTL_HELP_SHOWN		(-1)

/* Global state: options given before the command. */
struct ctl {
	const char *sock;	/* control socket (-s), for daemon commands */
	int json;		/* -j: JSON output where a command has it */
	int stdin_used;		/* an argument has already read stdin */
};

struct ctl_cmd;
typedef int ctl_run_fn(struct ctl *, const struct ctl_cmd *, int, char **);

/* ctl_cmd.flags */
#define CTL_CMD_DAEMON		0x1	/* talks to batsecd: listed with the
					   daemon commands */
#define CTL_CMD_SOCKET_HELP	0x2	/* its help says it needs the
					   control socket */

/*
 * One entry of a command table.  A group (key, cert) has sub, a leaf has
 * run.  usage is the synopsis and option list printed by --help; NULL
 * marks a daemon command that this version cannot run yet.
 */
struct ctl_cmd {
	const char *name;
	const char *alias;
	const char *path;	/* full name for messages: "key generate" */
	ctl_run_fn *run;
	const struct ctl_cmd *sub;
	const char *usage;
	unsigned flags;
};

#endif /* BATSEC_CTL_H */
