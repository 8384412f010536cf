/*
 * ctl_show.c — the daemon commands that show batsecd's tables and state:
 * originators (o), neighbors (n), interfaces (if), gateways (gw), clients
 * (tt), stats (s), status, anchors, policy show.  Each is one request and
 * its reply shown as a table or "name: value" lines (ctl_daemon.c).
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_client.h"
#include "ctl_daemon.h"
#include "ctl_render.h"
#include "ctl_show.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

/* Like `batctl o`: '*' marks the best next hop of each originator. */
static const struct ctl_col ctl_cols_originators[] = {
	{ "best", "", CTL_FMT_TEXT, "*", "" },
	CTL_COL("address", "Originator", CTL_FMT_TEXT),
	CTL_COL("last_seen_ms", "last-seen", CTL_FMT_SECS),
	CTL_COL("tq", "TQ", CTL_FMT_NUM),
	CTL_COL("next_hop", "Nexthop", CTL_FMT_TEXT),
	CTL_COL("interface", "Interface", CTL_FMT_TEXT),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_neighbors[] = {
	CTL_COL("interface", "IF", CTL_FMT_TEXT),
	CTL_COL("address", "Neighbor", CTL_FMT_TEXT),
	CTL_COL("last_seen_ms", "last-seen", CTL_FMT_SECS),
	CTL_COL("link_tq", "link TQ", CTL_FMT_NUM),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_interfaces[] = {
	CTL_COL("name", "Interface", CTL_FMT_TEXT),
	{ "active", "Status", CTL_FMT_TEXT, "active", "inactive" },
	CTL_COL("mtu", "MTU", CTL_FMT_NUM),
	CTL_COL("address", "MAC", CTL_FMT_TEXT),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_gateways[] = {
	{ "best", "", CTL_FMT_TEXT, "*", "" },
	CTL_COL("address", "Router", CTL_FMT_TEXT),
	CTL_COL("tq", "TQ", CTL_FMT_NUM),
	CTL_COL("next_hop", "Nexthop", CTL_FMT_TEXT),
	CTL_COL("interface", "Interface", CTL_FMT_TEXT),
	CTL_COL("bandwidth_down_kbit", "Down kbit/s", CTL_FMT_NUM),
	CTL_COL("bandwidth_up_kbit", "Up kbit/s", CTL_FMT_NUM),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_clients[] = {
	CTL_COL("client", "Client", CTL_FMT_TEXT),
	CTL_COL("vid", "VID", CTL_FMT_NUM),
	CTL_COL("originator", "Originator", CTL_FMT_TEXT),
	CTL_COL("last_seen_ms", "last-seen", CTL_FMT_SECS),
	{ "isolated", "Flags", CTL_FMT_TEXT, "I", "" },
	CTL_COL_END
};

static const struct ctl_col ctl_cols_anchors[] = {
	CTL_COL("key", "Anchor", CTL_FMT_TEXT),
	CTL_COL("name", "Name", CTL_FMT_TEXT),
	CTL_COL("revocations", "Revocations", CTL_FMT_NUM),
	{ "blocked", "Blocked", CTL_FMT_TEXT, "yes", "no" },
	CTL_COL_END
};

static const struct ctl_dcmd ctl_show_dcmds[] = {
	{ "originators", CTLP_CMD_ORIGINATORS, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_TABLE, ctl_cols_originators },
	{ "neighbors", CTLP_CMD_NEIGHBORS, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_TABLE, ctl_cols_neighbors },
	{ "interfaces", CTLP_CMD_INTERFACES, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_TABLE, ctl_cols_interfaces },
	{ "clients", CTLP_CMD_CLIENTS, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_TABLE, ctl_cols_clients },
	{ "stats", CTLP_CMD_STATS, CTL_OPS_NONE, NULL, CTL_SHAPE_OBJECT,
	  NULL },
	{ "status", CTLP_CMD_STATUS, CTL_OPS_NONE, NULL, CTL_SHAPE_OBJECT,
	  NULL },
	{ "anchors", CTLP_CMD_ANCHORS, CTL_OPS_NONE, NULL, CTL_SHAPE_TABLE,
	  ctl_cols_anchors },
	{ "policy show", CTLP_CMD_POLICY_SHOW, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_LINES, NULL },
	{ NULL, NULL, CTL_OPS_NONE, NULL, CTL_SHAPE_NONE, NULL }
};

/* A string field of rec as text; "" when it is missing or not a string. */
static void
ctl_show_str(char *out, size_t len, const struct ctlp_record *rec,
    const char *name)
{
	const struct ctlp_field *f = ctl_field(rec, name);

	if (f != NULL && f->type == CTLP_F_STR)
		(void)snprintf(out, len, "%.*s", (int)f->str_len, f->str);
	else
		out[0] = '\0';
}

/*
 * The line above the gateway table, from status: "Gateway mode: off",
 * "... server", or "... client, selection class 20, selected ADDR".
 */
static void
ctl_show_gw_mode(const struct ctl_in *in)
{
	char mode[32], sel[64];
	const struct ctlp_field *f;
	struct ctlp_record rec;
	size_t pos = 0;

	if (ctl_in_next(in, &pos, &rec) != 0)
		return;
	ctl_show_str(mode, sizeof(mode), &rec, "gw_mode");
	if (mode[0] == '\0')
		return;
	(void)printf("Gateway mode: %s", mode);
	if ((f = ctl_field(&rec, "gw_sel_class")) != NULL &&
	    f->type == CTLP_F_U64) {
		ctl_show_str(sel, sizeof(sel), &rec, "gw_selected");
		(void)printf(", selection class %llu, selected %s",
		    (unsigned long long)f->u64, sel[0] != '\0' ? sel : "none");
	}
	(void)putchar('\n');
}

/*
 * gateways (gw): the table, under a line with the mode, the class and
 * the selection (from status) unless -j: the JSON array stays as it
 * was, its records carry "selected", and status has the mode.
 */
static int
ctl_show_gateways(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	struct ctl_in st = { NULL, 0, 0, 0 }, in = { NULL, 0, 0, 0 };
	int fd, rc;

	if ((rc = ctl_opts_basic(ctl, cmd, argc, argv, 1)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	if (argc - optind > 0)
		rc = ctl_usage_err(cmd, "too many arguments");
	else if (!ctl->json &&
	    (rc = ctl_exchange(ctl, fd, CTLP_CMD_STATUS, 0, NULL, &st)) != 0)
		;
	else if ((rc = ctl_exchange(ctl, fd, CTLP_CMD_GATEWAYS, 0, NULL,
	    &in)) == 0) {
		if (!ctl->json)
			ctl_show_gw_mode(&st);
		rc = ctl_render(ctl, CTL_SHAPE_TABLE, ctl_cols_gateways, &in);
	}
	(void)close(fd);
	free(st.buf);
	free(in.buf);
	return rc;
}

int
ctl_show_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	if (strcmp(cmd->name, "gateways") == 0)
		return ctl_show_gateways(ctl, cmd, argc, argv);
	return ctl_daemon_run(ctl, cmd, argc, argv, ctl_show_dcmds);
}
