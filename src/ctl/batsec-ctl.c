/*
 * batsec-ctl.c — the batsec command-line tool: the command table, help,
 * dispatch and main.  Each command family lives in its own file behind
 * the table: ctl_key.c, ctl_cert.c (offline: key and certificate files),
 * ctl_show.c, ctl_trust.c, ctl_ping.c, ctl_mon.c (daemon commands).
 *
 * Offline commands (keys and certificates) work on files and need no
 * daemon.  The daemon commands (originators, neighbors, trust, ...) send
 * one request over batsecd's control socket (-s) and render the typed
 * records of the reply (ctlproto.h) as a table, "name: value" lines or,
 * with -j, JSON; the daemon never formats text for people.
 *
 * Exit status: 0 success, 1 failure, 2 usage error.  Every error is one
 * line on stderr starting with "batsec-ctl: ".  Secret key material is
 * written only by `key generate` (to its file or stdout) and wiped from
 * memory after use.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "batsec_crypto.h"
#include "common/config.h"
#include "common/version.h"
#include "ctl.h"
#include "ctl_cert.h"
#include "ctl_key.h"
#include "ctl_mon.h"
#include "ctl_ping.h"
#include "ctl_settings.h"
#include "ctl_show.h"
#include "ctl_trust.h"
#include "ctl_util.h"

static const char ctl_global_usage[] =
    "usage: " CTL_PROG " [-j] [-s SOCKET] COMMAND [ARGS]\n"
    "\n"
    "global options:\n"
    "  -j          JSON output (cert show and the daemon commands)\n"
    "  -s SOCKET   control socket of batsecd (default "
    BS_CONF_DEF_SOCKET ")\n"
    "  -h, --help  this help; '" CTL_PROG " COMMAND --help' for one "
    "command\n";

static ctl_run_fn ctl_help_cmd, ctl_version;

static const struct ctl_cmd ctl_key_cmds[] = {
	{ "generate", NULL, "key generate", ctl_key_generate, NULL,
	  "  key generate [-f] [-o FILE]\n"
	  "      New secret key, as one base64 line to stdout or to FILE.\n"
	  "      -o, --output FILE  write it to FILE (mode 0600, atomically)\n"
	  "      -f, --force        replace FILE if it exists\n",
	  0 },
	{ "public", NULL, "key public", ctl_key_public, NULL,
	  "  key public [FILE | -]\n"
	  "      Public key (one base64 line) of the secret key in FILE\n"
	  "      (mode 0600 or stricter) or on stdin (- or no FILE).\n",
	  0 },
	{ "address", NULL, "key address", ctl_key_address, NULL,
	  "  key address [-S] KEY | FILE | -\n"
	  "      Mesh address of a public key: base64 text, a public key\n"
	  "      file, or stdin (-).\n"
	  "      -S, --secret       the argument is a secret key file or -\n",
	  0 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0 }
};

static const struct ctl_cmd ctl_cert_cmds[] = {
	{ "issue", NULL, "cert issue", ctl_cert_issue, NULL,
	  "  cert issue --ca CAKEYFILE --key PUBKEY [--name NAME]\n"
	  "             [--days DAYS] [--gateway] [-f] [-o FILE]\n"
	  "      Certificate for PUBKEY (base64 text or file), signed\n"
	  "      with the CA secret key, valid from now for DAYS days.\n"
	  "      --name NAME        1-32 printable ASCII, no spaces\n"
	  "      --days DAYS        1-3650, default 365\n"
	  "      --gateway          grant the gateway role\n"
	  "      -o, --output FILE  write it to FILE instead of stdout\n"
	  "      -f, --force        replace FILE if it exists\n",
	  0 },
	{ "show", NULL, "cert show", ctl_cert_show, NULL,
	  "  cert show [-j] FILE | -\n"
	  "      Fields of a certificate, and whether its signature verifies\n"
	  "      for the issuer it names.\n"
	  "      -j, --json         one JSON object\n",
	  0 },
	{ "verify", NULL, "cert verify", ctl_cert_verify, NULL,
	  "  cert verify --anchor CAPUBKEY FILE | -\n"
	  "      Print \"valid\" and exit 0 when the certificate is issued\n"
	  "      by CAPUBKEY (base64 text or file), its signature verifies\n"
	  "      and it is valid now; else print why and exit 1.\n",
	  0 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0 }
};

/* A command of a daemon family's table (ctl_show.c, ctl_trust.c). */
#define CTL_DAEMON(n, a, run, u)	\
	{ n, a, n, run, NULL, u, CTL_CMD_DAEMON | CTL_CMD_SOCKET_HELP }

static const struct ctl_cmd ctl_cmds[] = {
	{ "key", NULL, "key", NULL, ctl_key_cmds, NULL, 0 },
	{ "cert", NULL, "cert", NULL, ctl_cert_cmds, NULL, 0 },
	{ "version", NULL, "version", ctl_version, NULL,
	  "  version\n"
	  "      Print the version of " CTL_PROG ".\n",
	  0 },
	{ "help", NULL, "help", ctl_help_cmd, NULL,
	  "  help [COMMAND [SUBCOMMAND]]\n"
	  "      This help, or that of one command.\n",
	  0 },
	CTL_DAEMON("originators", "o", ctl_show_run,
	  "  originators (o)\n"
	  "      Every originator with its last-seen time, TQ, next hop and\n"
	  "      interface; '*' marks the best next hop.\n"),
	CTL_DAEMON("neighbors", "n", ctl_show_run,
	  "  neighbors (n)\n"
	  "      The direct neighbours per interface, last seen, link TQ.\n"),
	CTL_DAEMON("interfaces", "if", ctl_show_run,
	  "  interfaces (if)\n"
	  "      The mesh interfaces and whether they are active.\n"),
	CTL_DAEMON("gateways", "gw", ctl_show_run,
	  "  gateways (gw)\n"
	  "      Internet gateways announced in the mesh, under this\n"
	  "      node's gateway mode, class and selection.\n"),
	CTL_DAEMON("clients", "tt", ctl_show_run,
	  "  clients (tt)\n"
	  "      Client MAC addresses (translation table) and their node.\n"),
	CTL_DAEMON("stats", "s", ctl_show_run,
	  "  stats (s)\n"
	  "      The daemon's counters.\n"),
	CTL_DAEMON("status", NULL, ctl_show_run,
	  "  status\n"
	  "      Whether batsecd answers: its version, uptime, clients.\n"),
	CTL_DAEMON("trust", NULL, ctl_trust_run,
	  "  trust add KEY [name NAME] [gateway]\n"
	  "  trust remove KEY\n"
	  "  trust list\n"
	  "      Change or list the trusted keys; a change is written to the\n"
	  "      policy file.  KEY is base64 text, a public key file or -.\n"),
	CTL_DAEMON("block", NULL, ctl_trust_run,
	  "  block KEY\n"
	  "      Drop everything from KEY (kept in the policy file).\n"),
	CTL_DAEMON("unblock", NULL, ctl_trust_run,
	  "  unblock KEY\n"
	  "      Remove KEY from the block list.\n"),
	{ "revoke", NULL, "revoke", ctl_revoke, NULL,
	  "  revoke KEY\n"
	  "      Revoke KEY on this node only (a revoke line in the policy).\n"
	  "  revoke --ca CAKEYFILE [-o FILE [-f]] KEY\n"
	  "      Sign a revocation record for KEY with the CA secret key and\n"
	  "      hand it to batsecd, which stores it and spreads it through\n"
	  "      the mesh; with -o write it to FILE instead.\n"
	  "  revoke --record FILE\n"
	  "      Hand a record written with -o to batsecd.\n",
	  CTL_CMD_DAEMON | CTL_CMD_SOCKET_HELP },
	CTL_DAEMON("anchors", NULL, ctl_show_run,
	  "  anchors\n"
	  "      The CA keys of the policy, with the revocation records\n"
	  "      held from each.\n"),
	CTL_DAEMON("policy", NULL, ctl_show_run,
	  "  policy show\n"
	  "      The running policy as canonical text, and the CA\n"
	  "      revocations in force as comments.\n"),
	CTL_DAEMON("reload", NULL, ctl_trust_run,
	  "  reload\n"
	  "      Read the policy file again; on an error the running\n"
	  "      policy stays.\n"),
	{ "metrics", NULL, "metrics", ctl_mon_metrics, NULL,
	  "  metrics [-o FILE]\n"
	  "      The daemon's counters, table sizes, drops by reason and\n"
	  "      neighbour TQ in the Prometheus text format; batsec_up 0\n"
	  "      (and exit 1) when batsecd does not answer.\n"
	  "      -o, --output FILE  replace FILE atomically (mode 0644),\n"
	  "                         for node_exporter's textfile collector\n",
	  CTL_CMD_DAEMON | CTL_CMD_SOCKET_HELP },
	{ "nodeinfo", NULL, "nodeinfo", ctl_mon_nodeinfo, NULL,
	  "  nodeinfo\n"
	  "      What community maps show of this node, as JSON shaped like\n"
	  "      Gluon's respondd: node id, hostname, key, version,\n"
	  "      neighbours with TQ, clients, gateway.\n",
	  CTL_CMD_DAEMON | CTL_CMD_SOCKET_HELP },
	{ "ping", "p", "ping", ctl_ping, NULL,
	  "  ping [-c COUNT] [-i SECONDS] [-W SECONDS] ADDRESS\n"
	  "      Echo requests through the mesh to an originator (or the\n"
	  "      one that announces client MAC ADDRESS); round trips as\n"
	  "      batsecd timed them.  Exit 0 when a reply came; Ctrl-C\n"
	  "      stops it with the summary.\n"
	  "      -c, --count COUNT  requests (default 5)\n"
	  "      -i, --interval S   seconds between requests (default 1)\n"
	  "      -W, --wait S       seconds to wait for each reply (1)\n",
	  CTL_CMD_DAEMON },
	{ "traceroute", "tr", "traceroute", ctl_traceroute, NULL,
	  "  traceroute [-c COUNT] [-w SECONDS] [-m HOPS] ADDRESS\n"
	  "      The path through the mesh to an originator (or the one\n"
	  "      that announces client MAC ADDRESS), as batctl traceroute\n"
	  "      shows it: probes of TTL 1, 2, ... answered by the relay\n"
	  "      where the TTL ran out, or by the destination, each answer\n"
	  "      authenticated end to end; names from the trust list.\n"
	  "      Exit 0 when the destination answered.\n"
	  "      -c, --count COUNT  probes per hop (default 3)\n"
	  "      -w, --wait S       seconds to wait for each answer (1)\n"
	  "      -m, --max-hops N   highest TTL tried (default 30)\n",
	  CTL_CMD_DAEMON },
	CTL_DAEMON("set", NULL, ctl_settings_run,
	  "  set NAME VALUE\n"
	  "      Change a setting of the running batsecd: hop-penalty,\n"
	  "      orig-interval, hello-interval, gateway or gw-mode (off,\n"
	  "      client, or server DOWN/UP), gw-sel-class, log-level,\n"
	  "      ap-isolation (on, off) or dat (on, off), checked as\n"
	  "      batsec.conf checks it.\n"
	  "      Runtime only: batsec.conf is not written, and SIGHUP\n"
	  "      applies the file's values again.\n"),
	CTL_DAEMON("get", NULL, ctl_settings_run,
	  "  get [NAME]\n"
	  "      The running value of every runtime setting, or of NAME.\n"),
	{ "event", NULL, "event", ctl_event, NULL,
	  "  event [-a] [-j]\n"
	  "      Stream route, neighbour, gateway, trust and settings\n"
	  "      changes until interrupted, a line (-j: a JSON object)\n"
	  "      each; \"events lost N\" when more came between two polls\n"
	  "      than batsecd keeps (256).\n"
	  "      -a, --all  first the events batsecd still keeps\n",
	  CTL_CMD_DAEMON },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0 }
};

/* The full help: every offline command, the daemon commands, options. */
static int
ctl_help_all(void)
{
	const struct ctl_cmd *c;

	(void)printf("%s\noffline commands:\n", ctl_global_usage);
	for (c = ctl_cmds; c->name != NULL; c++)
		if ((c->flags & CTL_CMD_DAEMON) == 0)
			ctl_print_usage(stdout, c);
	(void)printf("\ndaemon commands (need a running batsecd; -j for "
	    "JSON):\n");
	for (c = ctl_cmds; c->name != NULL; c++)
		if (c->flags & CTL_CMD_DAEMON)
			ctl_print_usage(stdout, c);
	return ctl_flush_stdout();
}

static const struct ctl_cmd *
ctl_lookup(const struct ctl_cmd *table, const char *name)
{
	const struct ctl_cmd *c;

	for (c = table; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0 ||
		    (c->alias != NULL && strcmp(c->alias, name) == 0))
			return c;
	return NULL;
}

static int
ctl_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0 ||
	    strcmp(arg, "help") == 0;
}

/* help [COMMAND [SUBCOMMAND]]: walk the tables without running anything. */
static int
ctl_help_cmd(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	const struct ctl_cmd *c = NULL, *table = ctl_cmds;
	int i;

	(void)ctl;
	if (argc == 1)
		return ctl_help_all();
	for (i = 1; i < argc; i++) {
		if (table == NULL)
			return ctl_usage_err(cmd, "'%s' has no subcommands",
			    c->path);
		if ((c = ctl_lookup(table, argv[i])) == NULL)
			return ctl_usage_err(cmd, "unknown command '%s'",
			    argv[i]);
		table = c->sub;
	}
	return ctl_help(c);
}

/*
 * Run argv[0] from table: a group dispatches its first argument to its
 * sub-table, a leaf parses its own options (argv[0] is its name).
 */
static int
ctl_dispatch(struct ctl *ctl, const struct ctl_cmd *group,
    const struct ctl_cmd *table, int argc, char **argv)
{
	const struct ctl_cmd *c = ctl_lookup(table, argv[0]);

	if (c == NULL)
		return ctl_usage_err(group, "unknown command '%s'", argv[0]);
	if (c->run != NULL)
		return c->run(ctl, c, argc, argv);
	if (argc < 2)
		return ctl_usage_err(c, "missing subcommand");
	if (ctl_is_help(argv[1]))
		return ctl_help(c);
	return ctl_dispatch(ctl, c, c->sub, argc - 1, argv + 1);
}

/* version: this program's version. */
static int
ctl_version(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	(void)ctl;
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		return ctl_help(cmd);
	if (argc != 1)
		return ctl_usage_err(cmd, "takes no arguments");
	(void)printf(CTL_PROG " %s\n", BATSEC_VERSION);
	return ctl_flush_stdout();
}

/* Check -s SOCKET: a path that fits in sockaddr_un. */
static int
ctl_socket_arg(const char *path)
{
	if (*path == '\0')
		return ctl_usage_err(NULL, "empty socket path");
	if (strlen(path) > BS_CONF_SOCKET_MAX)
		return ctl_usage_err(NULL, "socket path longer than %d bytes",
		    BS_CONF_SOCKET_MAX);
	return 0;
}

/*
 * The tool may hold a CA secret key: keep it out of core dumps and away
 * from same-user debuggers.  Failure only loses this extra protection.
 */
static void
ctl_harden(void)
{
	struct rlimit rl = { 0, 0 };

	(void)setrlimit(RLIMIT_CORE, &rl);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctl ctl = { BS_CONF_DEF_SOCKET, 0, 0 };
	int ch, rc;

	ctl_harden();
	if (bs_crypto_init() != 0) {
		ctl_warnx("cannot initialise libsodium");
		return CTL_EXIT_FAIL;
	}
	ctl_opt_reset();
	/* '+': stop at the command name; its options belong to it. */
	while ((ch = getopt_long(argc, argv, "+:hjs:", opts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			return ctl_help_all();
		case 'j':
			ctl.json = 1;
			break;
		case 's':
			if ((rc = ctl_socket_arg(optarg)) != 0)
				return rc;
			ctl.sock = optarg;
			break;
		default:
			return ctl_bad_option(NULL, ch, argv);
		}
	}
	if (optind >= argc)
		return ctl_usage_err(NULL, "no command given");
	return ctl_dispatch(&ctl, NULL, ctl_cmds, argc - optind, argv + optind);
}
