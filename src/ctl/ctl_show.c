/*
 * ctl_show.c — the daemon commands that show batsecd's tables and state:
 * originators (o), neighbors (n), interfaces (if), gateways (gw), clients
 * (tt), stats (s), status, anchors, policy show.  Each is one request and
 * its reply shown as a table or "name: value" lines (ctl_daemon.c).
 */
#include <stddef.h>

#include "ctl_daemon.h"
#include "ctl_render.h"
#include "ctl_show.h"
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
	{ "gateways", CTLP_CMD_GATEWAYS, CTL_OPS_NONE, NULL,
	  CTL_SHAPE_TABLE, ctl_cols_gateways },
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

int
ctl_show_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	return ctl_daemon_run(ctl, cmd, argc, argv, ctl_show_dcmds);
}
