/*
 * ctl_mon.c — metrics and nodeinfo: a few requests on one connection to
 * batsecd's control socket (status, stats, neighbors, interfaces,
 * gateways; clients for nodeinfo), rendered by ctl_metrics.c.
 *
 * There is no HTTP listener: the daemon's processes that face the
 * network get no socket and no privilege for monitoring.  A timer runs
 * `batsec-ctl metrics -o FILE` as a user of the control group and
 * node_exporter's textfile collector serves FILE (contrib/).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batsec_keys.h"
#include "ctl_client.h"
#include "ctl_metrics.h"
#include "ctl_mon.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

/* Mode of the -o file: node_exporter reads it as another user. */
#define CTL_MON_FILE_MODE	0644

/* The replies in; in->up when batsecd answered every one.  An exit code. */
static int
ctl_mon_fetch(const struct ctl *ctl, const struct ctl_cmd *cmd,
    struct ctl_mon_in *in, int clients)
{
	struct {
		const char *wire;
		struct ctl_in *to;
	} req[] = {
		{ CTLP_CMD_STATUS, &in->status },
		{ CTLP_CMD_STATS, &in->stats },
		{ CTLP_CMD_NEIGHBORS, &in->neighbors },
		{ CTLP_CMD_INTERFACES, &in->interfaces },
		{ CTLP_CMD_GATEWAYS, &in->gateways },
		{ CTLP_CMD_CLIENTS, &in->clients },
	};
	size_t i, n = sizeof(req) / sizeof(req[0]) - (clients ? 0 : 1);
	int fd, rc = CTL_EXIT_OK;

	in->up = 0;
	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	for (i = 0; i < n && rc == CTL_EXIT_OK; i++)
		rc = ctl_exchange(ctl, fd, req[i].wire, 0, NULL, req[i].to);
	(void)close(fd);
	in->up = rc == CTL_EXIT_OK;
	return rc;
}

/* The exposition into path, replacing it atomically: an exit status. */
static int
ctl_mon_write_file(const char *path, const struct ctl_mon_in *in)
{
	char err[CTL_ERRLEN], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if ((mem = open_memstream(&buf, &len)) == NULL) {
		ctl_warnx("metrics: out of memory");
		return CTL_EXIT_FAIL;
	}
	rc = ctl_metrics_prom(mem, in);
	if (fclose(mem) != 0 || rc != 0) {
		ctl_warnx("metrics: a name from batsecd breaks the Prometheus "
		    "format; nothing written");
		free(buf);
		return CTL_EXIT_FAIL;
	}
	rc = bs_file_write_atomic(path, buf, len, CTL_MON_FILE_MODE, err,
	    sizeof(err));
	free(buf);
	return rc == 0 ? CTL_EXIT_OK : ctl_fail(err);
}

/*
 * metrics [-o FILE]: without batsecd the output still says batsec_up 0
 * (a textfile collector would otherwise serve the last values), and the
 * exit status is 1.
 */
int
ctl_mon_metrics(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctl_mon_in in;
	const char *path = NULL;
	int ch, rc, wrc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		if (ch == 'o')
			path = optarg;
		else if (ch == 'h')
			return ctl_help(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if ((rc = ctl_operands(cmd, argc, 0, 0)) != 0)
		return rc;
	if (path != NULL && *path == '\0')
		return ctl_usage_err(cmd, "empty file name");
	memset(&in, 0, sizeof(in));
	rc = ctl_mon_fetch(ctl, cmd, &in, 0);
	if (path != NULL)
		wrc = ctl_mon_write_file(path, &in);
	else if (ctl_metrics_prom(stdout, &in) != 0)
		wrc = ferror(stdout) ? ctl_flush_stdout() : (ctl_warnx(
		    "metrics: a name from batsecd breaks the Prometheus "
		    "format"), CTL_EXIT_FAIL);
	else
		wrc = ctl_flush_stdout();
	ctl_mon_in_free(&in);
	return rc != CTL_EXIT_OK ? rc : wrc;
}

/* nodeinfo: one JSON object; hostname is this machine's. */
int
ctl_mon_nodeinfo(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	char host[HOST_NAME_MAX + 1];
	struct ctl_mon_in in;
	int rc;

	if ((rc = ctl_opts_basic(ctl, cmd, argc, argv, 0)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if ((rc = ctl_operands(cmd, argc, 0, 0)) != 0)
		return rc;
	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	memset(&in, 0, sizeof(in));
	if ((rc = ctl_mon_fetch(ctl, cmd, &in, 1)) == CTL_EXIT_OK) {
		/* A failed write shows in the flush. */
		(void)ctl_metrics_nodeinfo(stdout, &in, host);
		rc = ctl_flush_stdout();
	}
	ctl_mon_in_free(&in);
	return rc;
}
