/*
 * fwd_control.c — the commands of batsecd's control socket (ctlproto.h):
 * dumps of the forwarder's tables and counters as typed records, which
 * batsec-ctl renders.  Handlers run in the forwarder's loop and only read.
 *
 * Field names are the ones ctlproto.h documents; every record may carry
 * more (JSON output shows them all).  Names are unique within a command's
 * reply where the client merges records into one object ("stats"), so the
 * forwarder's own counters that share a name with one of the parser's
 * carry a prefix there ("data_rx_frames" beside the parser's "rx_frames").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "bs_bytes.h"
#include "fwd_control.h"
#include "fwd_data.h"
#include "fwd_fast.h"
#include "fwd_iface.h"
#include "fwd_ifaces.h"
#include "fwd_parser.h"
#include "fwd_pins.h"
#include "fwd_settings.h"
#include "fwd_tables.h"
#include "fwd_trust.h"
#include "fwd_types.h"
#include "proto/ipc.h"

static uint64_t
fwd_ago(uint64_t now_ms, uint64_t then_ms)
{
	return now_ms >= then_ms ? now_ms - then_ms : 0;
}

/* The configured name of an interface, or its number when it has none. */
static void
fwd_field_iface(struct ctl_reply *r, const struct fwd *f, uint32_t ifindex)
{
	const struct fwd_iface *v = fwd_iface_by_index(&f->ifs, ifindex);
	char num[16];

	if (v != NULL) {
		ctl_reply_field_str(r, "interface", v->name);
		return;
	}
	snprintf(num, sizeof(num), "%u", ifindex);
	ctl_reply_field_str(r, "interface", num);
}

/* The data-plane counters c, each name after prefix. */
static void
fwd_field_dcount(struct ctl_reply *r, const char *prefix,
    const struct fwd_dcount *c)
{
	char name[CTLP_NAME_MAX + 1];
	size_t i;

	for (i = 0; i < FWD_DCOUNT_N; i++) {
		snprintf(name, sizeof(name), "%s%s", prefix,
		    fwd_dcount_name(i));
		ctl_reply_field_u64(r, name, fwd_dcount_get(c, i));
	}
}

/* A table the data plane has not set up yet: an empty dump. */
static int
fwd_ctl_no_tables(const struct fwd *f, struct ctl_reply *r)
{
	if (f->tables != NULL)
		return 0;
	ctl_reply_ok(r);
	return 1;
}

/* ---- originators ---------------------------------------------------------------- */

/*
 * Rows of `o` in all: every route's own row, the other candidates' rows
 * while there is room, so the reply stays below CTLP_REPLY_MAX (about
 * 20000 rows) with FWD_ROUTE_MAX routes of 8 candidates each.
 */
#define FWD_CTL_ORIG_ROWS	16384
_Static_assert(FWD_ROUTE_MAX <= FWD_CTL_ORIG_ROWS, "every route a row");

/* One row of `o`: originator rt through nexthop on ifindex. */
static void
fwd_ctl_originator_row(struct ctl_reply *r, struct fwd *f,
    const struct fwd_route *rt, const uint8_t nexthop[static BS_ADDR_LEN],
    uint32_t ifindex, uint8_t tq, uint8_t hops, int best, uint64_t now)
{
	ctl_reply_record_begin(r);
	ctl_reply_field_addr(r, "address", rt->orig_addr);
	ctl_reply_field_key(r, "key", rt->orig_pk);
	ctl_reply_field_addr(r, "next_hop", nexthop);
	ctl_reply_field_u64(r, "tq", tq);
	ctl_reply_field_u64(r, "hops", hops);
	fwd_field_iface(r, f, ifindex);
	ctl_reply_field_u64(r, "last_seen_ms", fwd_ago(now, rt->refresh_ms));
	ctl_reply_field_bool(r, "best", best);
}

/*
 * Like `batctl o`, a row for every next-hop candidate: the route's (the
 * best), then the others the parser last sent (IPC_ROUTE_ALT), leaving
 * out one whose neighbour went down since, and any beyond
 * FWD_CTL_ORIG_ROWS rows in all.
 */
static void
fwd_ctl_originators(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	const struct fwd_route *rt;
	const struct ipc_route_cand *c;
	uint64_t now = log_now_ms();
	size_t cur = 0, i, room;

	(void)argc;
	(void)argv;
	if (fwd_ctl_no_tables(f, r))
		return;
	room = FWD_CTL_ORIG_ROWS - fwd_route_count(f->tables);
	while ((rt = fwd_route_next(f->tables, &cur)) != NULL) {
		fwd_ctl_originator_row(r, f, rt, rt->nexthop, rt->ifindex,
		    rt->tq, rt->hops, 1, now);
		for (i = 0; i < rt->n_alt && i < IPC_ROUTE_ALT_MAX &&
		    room > 0; i++) {
			c = &rt->alt[i];
			if (fwd_neigh_find(f->tables, c->nexthop,
			    c->ifindex) == NULL)
				continue;
			fwd_ctl_originator_row(r, f, rt, c->nexthop,
			    c->ifindex, c->tq, c->hops, 0, now);
			room--;
		}
	}
	ctl_reply_ok(r);
}

/* ---- neighbours ------------------------------------------------------------------- */

static void
fwd_ctl_neighbors(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	const struct fwd_neigh *nb;
	uint64_t now = log_now_ms();
	size_t cur = 0;

	(void)argc;
	(void)argv;
	if (fwd_ctl_no_tables(f, r))
		return;
	fwd_fast_fold(f);
	while ((nb = fwd_neigh_next(f->tables, 0, &cur)) != NULL) {
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "address", nb->addr);
		ctl_reply_field_key(r, "key", nb->pk);
		fwd_field_iface(r, f, nb->ifindex);
		ctl_reply_field_u64(r, "link_tq", nb->tq);
		ctl_reply_field_u64(r, "last_seen_ms",
		    fwd_ago(now, nb->last_ms));
		ctl_reply_field_addr(r, "mac", nb->mac);
		ctl_reply_field_u64(r, "rx_count", nb->rx_count);
		ctl_reply_field_u64(r, "up_ms", fwd_ago(now, nb->up_ms));
		ctl_reply_field_bool(r, "link_key", nb->hop.has_key != 0);
		/* The id we send under (not secret: it is on the wire). */
		ctl_reply_field_u64(r, "hop_keyid", nb->hop.has_key ?
		    bs_get32(nb->hop.keyid) : 0);
		fwd_field_dcount(r, "", &nb->c);
	}
	ctl_reply_ok(r);
}

/* ---- interfaces ------------------------------------------------------------------- */

static void
fwd_ctl_interfaces(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	const struct fwd_iface *v;
	const struct fwd_dcount *dc;
	size_t i;

	(void)argc;
	(void)argv;
	fwd_fast_fold(f);
	fwd_ifaces_collect_drops(f, log_now_ms());
	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		ctl_reply_record_begin(r);
		ctl_reply_field_str(r, "name", v->name);
		ctl_reply_field_bool(r, "active", fwd_iface_usable(v));
		ctl_reply_field_u64(r, "ifindex", (uint64_t)(v->ifindex > 0 ?
		    v->ifindex : 0));
		ctl_reply_field_u64(r, "mtu", v->mtu);
		ctl_reply_field_bool(r, "wireless", v->wireless);
		ctl_reply_field_u64(r, "bcast_repeat", v->bcast_repeat);
		if (v->ifindex > 0)
			ctl_reply_field_addr(r, "address", v->mac);
		ctl_reply_field_bool(r, "present", v->ifindex > 0);
		ctl_reply_field_bool(r, "up", v->running);
		ctl_reply_field_u64(r, "neighbours", f->tables == NULL ||
		    v->ifindex <= 0 ? 0 : fwd_neigh_count(f->tables,
		    (uint32_t)v->ifindex));
		ctl_reply_field_u64(r, "rx_mesh_frames", v->rx_frames);
		ctl_reply_field_u64(r, "tx_hello", v->tx_hello);
		ctl_reply_field_u64(r, "tx_ogm_frames", v->tx_ogm);
		ctl_reply_field_u64(r, "tx_ctl_errors", v->tx_errors);
		ctl_reply_field_u64(r, "hello_seqno", v->hello_seqno);
		/* What the socket dropped on receipt (since it was opened). */
		ctl_reply_field_u64(r, "rx_short", v->rs.stats.rx_short);
		ctl_reply_field_u64(r, "rx_trunc", v->rs.stats.rx_trunc);
		ctl_reply_field_u64(r, "rx_foreign", v->rs.stats.rx_foreign);
		ctl_reply_field_u64(r, "rx_own", v->rs.stats.rx_own);
		ctl_reply_field_u64(r, "rx_queue_drops",
		    v->rs.stats.rx_queue_drops);
		ctl_reply_field_bool(r, "rx_ring", v->rs.ring.map != NULL);
		ctl_reply_field_bool(r, "fast_path", fwd_fast_attached(v));
		dc = f->data == NULL || v->ifindex <= 0 ? NULL :
		    fwd_data_iface_counters(f->data, (uint32_t)v->ifindex);
		if (dc != NULL)
			fwd_field_dcount(r, "", dc);
	}
	ctl_reply_ok(r);
}

/* ---- clients ---------------------------------------------------------------------- */

static void
fwd_field_vid(struct ctl_reply *r, uint16_t vid)
{
	ctl_reply_field_u64(r, "vid", vid & WIRE_VID_MASK);
	ctl_reply_field_bool(r, "tagged", (vid & WIRE_VID_TAGGED) != 0);
}

static void
fwd_ctl_clients(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	const struct fwd_local *l;
	const struct fwd_client *c;
	uint64_t now = log_now_ms();
	size_t cur = 0;

	(void)argc;
	(void)argv;
	if (fwd_ctl_no_tables(f, r))
		return;
	while ((l = fwd_local_next(f->tables, &cur)) != NULL) {
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "client", l->mac);
		fwd_field_vid(r, l->vid);
		ctl_reply_field_addr(r, "originator", f->own_addr);
		ctl_reply_field_u64(r, "last_seen_ms", fwd_ago(now, l->last_ms));
		ctl_reply_field_bool(r, "local", 1);
		ctl_reply_field_bool(r, "permanent", l->permanent != 0);
		ctl_reply_field_bool(r, "isolated",
		    fwd_local_isolated(f->tables) && !l->permanent);
	}
	cur = 0;
	while ((c = fwd_client_next(f->tables, &cur)) != NULL) {
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "client", c->mac);
		fwd_field_vid(r, c->vid);
		ctl_reply_field_addr(r, "originator", c->orig_addr);
		ctl_reply_field_u64(r, "last_seen_ms",
		    fwd_ago(now, c->since_ms));
		ctl_reply_field_bool(r, "local", 0);
		ctl_reply_field_bool(r, "isolated",
		    (c->flags & WIRE_TT_F_ISOLATED) != 0);
	}
	ctl_reply_ok(r);
}

/* ---- gateways --------------------------------------------------------------------- */

/*
 * The gateway batctl marks: in client mode the selected one
 * (fwd_gateway.h), otherwise the one with a route of the highest TQ.
 */
static const struct fwd_gw *
fwd_best_gw(struct fwd *f)
{
	const struct fwd_gw *g, *best = NULL;
	struct fwd_tables *t = f->tables;
	const struct fwd_route *rt;
	unsigned best_tq = 0;
	size_t cur = 0;

	if (f->data != NULL && f->data->gw.client)
		return f->data->gw.has_sel ? fwd_gw_find(t, f->data->gw.sel) :
		    NULL;
	while ((g = fwd_gw_next(t, &cur)) != NULL) {
		rt = fwd_route_find(t, g->orig_addr);
		if (rt != NULL && rt->tq > best_tq) {
			best_tq = rt->tq;
			best = g;
		}
	}
	return best;
}

static void
fwd_ctl_gateways(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	const struct fwd_gw *g, *best;
	const struct fwd_route *rt;
	uint64_t now = log_now_ms();
	size_t cur = 0;

	(void)argc;
	(void)argv;
	if (fwd_ctl_no_tables(f, r))
		return;
	best = fwd_best_gw(f);
	while ((g = fwd_gw_next(f->tables, &cur)) != NULL) {
		rt = fwd_route_find(f->tables, g->orig_addr);
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "address", g->orig_addr);
		if (rt != NULL) {
			ctl_reply_field_key(r, "key", rt->orig_pk);
			ctl_reply_field_addr(r, "next_hop", rt->nexthop);
			ctl_reply_field_u64(r, "tq", rt->tq);
			fwd_field_iface(r, f, rt->ifindex);
		}
		ctl_reply_field_u64(r, "bandwidth_down_kbit",
		    (uint64_t)g->down * 100);
		ctl_reply_field_u64(r, "bandwidth_up_kbit",
		    (uint64_t)g->up * 100);
		ctl_reply_field_u64(r, "last_seen_ms", fwd_ago(now, g->last_ms));
		ctl_reply_field_bool(r, "best", g == best);
		ctl_reply_field_bool(r, "selected", f->data != NULL &&
		    f->data->gw.client && g == best);
	}
	ctl_reply_ok(r);
}

/* ---- ping --------------------------------------------------------------------------- */

/*
 * ping ADDRESS: an echo request to that originator, or to the one whose
 * translation table has ADDRESS as a client (untagged); trace ADDRESS
 * TTL: a TRACE probe with that TTL (1..255) to it.  The reply names the
 * request's seqno, for ping-result.
 */
static void
fwd_ctl_probe(struct fwd *f, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	const struct fwd_client *cl;
	const uint8_t *orig;
	uint8_t mac[BS_ADDR_LEN];
	unsigned long ttl = 0;
	uint16_t seqno;
	char *end;
	int rc;

	if (ctlp_mac_parse(argv[0], mac) != 0) {
		ctl_reply_error(r, CTLP_E_USAGE, "not an address "
		    "(xx:xx:xx:xx:xx:xx): %s", argv[0]);
		return;
	}
	if (argc > 1) {
		errno = 0;
		ttl = strtoul(argv[1], &end, 10);
		if (argv[1][0] < '0' || argv[1][0] > '9' || errno != 0 ||
		    *end != '\0' || ttl == 0 || ttl > 255) {
			ctl_reply_error(r, CTLP_E_USAGE, "not a TTL (1-255): "
			    "%s", argv[1]);
			return;
		}
	}
	if (f->data == NULL || f->tables == NULL) {
		ctl_reply_error(r, CTLP_E_FAILED, "the data plane is not up");
		return;
	}
	orig = mac;
	if (memcmp(mac, f->data->own_addr, BS_ADDR_LEN) == 0) {
		ctl_reply_error(r, CTLP_E_FAILED, "%s is this node", argv[0]);
		return;
	}
	if (fwd_route_find(f->tables, mac) == NULL &&
	    (cl = fwd_client_find(f->tables, mac, 0)) != NULL)
		orig = cl->orig_addr;
	rc = argc > 1 ? fwd_data_trace(f->data, orig, (uint8_t)ttl, &seqno) :
	    fwd_data_ping(f->data, orig, &seqno);
	if (rc != 0) {
		ctl_reply_error(r, CTLP_E_FAILED, "no route to %s", argv[0]);
		return;
	}
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "seqno", seqno);
	ctl_reply_field_addr(r, "address", orig);
	ctl_reply_ok(r);
}

static void
fwd_ctl_ping(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	fwd_ctl_probe(ctx, argc, argv, r);
}

static void
fwd_ctl_trace(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	fwd_ctl_probe(ctx, argc, argv, r);
}

/*
 * ping-result SEQNO: "sent", or "replied" with the round trip in µs, or
 * (a TRACE) "expired" with it and the relay that answered as "hop".
 */
static void
fwd_ctl_ping_result(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;
	unsigned long v;
	uint8_t hop[BS_ADDR_LEN];
	uint64_t rtt = 0;
	char *end;
	int st;

	(void)argc;
	errno = 0;
	v = strtoul(argv[0], &end, 10);
	if (argv[0][0] < '0' || argv[0][0] > '9' || errno != 0 ||
	    *end != '\0' || v > 0xffff) {
		ctl_reply_error(r, CTLP_E_USAGE, "not a seqno (0-65535): %s",
		    argv[0]);
		return;
	}
	if (f->data == NULL ||
	    (st = fwd_data_ping_result(f->data, (uint16_t)v, &rtt, hop)) < 0) {
		ctl_reply_error(r, CTLP_E_FAILED, "no ping with seqno %lu", v);
		return;
	}
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "seqno", v);
	ctl_reply_field_str(r, "state", st == FWD_PING_REPLIED ? "replied" :
	    st == FWD_PING_EXPIRED ? "expired" : "sent");
	ctl_reply_field_u64(r, "rtt_us", rtt);
	if (st == FWD_PING_EXPIRED)
		ctl_reply_field_addr(r, "hop", hop);
	ctl_reply_ok(r);
}

/* ---- stats ------------------------------------------------------------------------ */

/* The traceroute's counters (fwd_data.h, FWD_TTLX_*): a record apart. */
static void
fwd_stats_trace(const struct fwd *f, struct ctl_reply *r)
{
	const struct fwd_echo_counters *e;

	if (f->data == NULL)
		return;
	e = &f->data->echo;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "trace_probes_sent", e->traces_sent);
	ctl_reply_field_u64(r, "trace_ttlx_received", e->ttlx_received);
	ctl_reply_field_u64(r, "trace_ttlx_unmatched", e->ttlx_unmatched);
	ctl_reply_field_u64(r, "trace_ttlx_wrong_hop", e->ttlx_wrong_hop);
	ctl_reply_field_u64(r, "trace_expired_here", e->trace_expired);
	ctl_reply_field_u64(r, "trace_ttlx_sent", e->ttlx_sent);
	ctl_reply_field_u64(r, "trace_ttlx_drop_src_rate",
	    e->ttlx_drop_src_rate);
	ctl_reply_field_u64(r, "trace_ttlx_drop_rate", e->ttlx_drop_rate);
	ctl_reply_field_u64(r, "trace_ttlx_drop_no_route",
	    e->ttlx_drop_no_route);
}

/* Origination, the parser channel, the TAP and the control socket. */
static void
fwd_stats_forwarder(struct fwd *f, struct ctl_reply *r)
{
	const struct fwd_parser_counters *pc = &f->parser.c;
	const struct control_counters *cc;
	uint64_t drops;
	size_t i;

	ctl_reply_record_begin(r);
	for (i = 0; i < FWD_OCOUNT_N; i++)
		ctl_reply_field_u64(r, fwd_ocount_name(i),
		    fwd_ocount_get(&f->orig.c, i));
	ctl_reply_field_u64(r, "relay_waiting", f->orig.rq.n);
	ctl_reply_field_u64(r, "parser_spawns", pc->spawns);
	ctl_reply_field_u64(r, "parser_deaths", pc->deaths);
	ctl_reply_field_u64(r, "parser_kills", pc->kills);
	ctl_reply_field_u64(r, "parser_silent", pc->silent);
	ctl_reply_field_u64(r, "ipc_refused", f->admit.refused);
	ctl_reply_field_u64(r, "ipc_refused_dropped", pc->refused);
	ctl_reply_field_u64(r, "policy_removed", f->admit.removed);
	ctl_reply_field_u64(r, "ipc_msgs", pc->msgs);
	ctl_reply_field_u64(r, "ipc_stale", pc->stale);
	ctl_reply_field_u64(r, "frames_to_parser", pc->frames_sent);
	ctl_reply_field_u64(r, "drop_no_parser", pc->drop_no_parser);
	ctl_reply_field_u64(r, "drop_parser_queue", pc->drop_queue);
	ctl_reply_field_u64(r, "drop_frame_size", pc->drop_size);
	ctl_reply_field_u64(r, "drop_frame_src", pc->drop_src);
	ctl_reply_field_u64(r, "tap_rx_frames", f->tap_rx_frames);
	ctl_reply_field_u64(r, "tap_rx_errors", f->tap_rx_errors);
	ctl_reply_field_u64(r, "tap_tso_packets", f->tapoff.tso_in);
	ctl_reply_field_u64(r, "tap_tso_segments", f->tapoff.tso_segs);
	ctl_reply_field_u64(r, "tap_csum_completed", f->tapoff.csum_done);
	ctl_reply_field_u64(r, "tap_offload_refused", f->tapoff.tx_bad);
	ctl_reply_field_u64(r, "tap_gro_packets", f->tapoff.gro_out);
	ctl_reply_field_u64(r, "tap_gro_segments", f->tapoff.gro_segs);
	ctl_reply_field_u64(r, "tap_rx_bad_csum", f->tapoff.rx_bad_csum);
	ctl_reply_field_u64(r, "tap_write_errors", f->tapoff.write_errors);
	fwd_ifaces_collect_drops(f, log_now_ms());
	for (i = 0, drops = 0; i < f->ifs.n; i++)
		drops += f->ifs.v[i].rs.stats.rx_queue_drops;
	ctl_reply_field_u64(r, "rx_queue_drops", drops);
	ctl_reply_field_u64(r, "fast_path_frames", f->fast_frames);
	ctl_reply_field_u64(r, "fast_path_replays", f->fast_replays);
	ctl_reply_field_u64(r, "tofu_pins_kept", fwd_pins_count(&f->pins));
	/* The rest in a record of their own (CTLP_FIELDS_MAX a record). */
	ctl_reply_record_begin(r);
	if (f->data != NULL) {
		ctl_reply_field_u64(r, "echo_requests_sent",
		    f->data->echo.requests_sent);
		ctl_reply_field_u64(r, "echo_replies_received",
		    f->data->echo.replies_received);
		ctl_reply_field_u64(r, "echo_requests_received",
		    f->data->echo.requests_received);
		ctl_reply_field_u64(r, "echo_replies_sent",
		    f->data->echo.replies_sent);
		ctl_reply_field_u64(r, "echo_drop_rate", f->data->echo.drop_rate);
		ctl_reply_field_u64(r, "echo_drop_unmatched",
		    f->data->echo.drop_unmatched);
		ctl_reply_field_u64(r, "echo_drop_no_route",
		    f->data->echo.drop_no_route);
		ctl_reply_field_u64(r, "echo_drop_own", f->data->echo.drop_own);
		ctl_reply_field_u64(r, "gw_selections", f->data->gw.switches);
		ctl_reply_field_u64(r, "gw_dhcp_steered", f->data->gw.steered);
		ctl_reply_field_u64(r, "gw_dhcp_dropped", f->data->gw.dropped);
	}
	if (f->ctl != NULL) {
		cc = control_counters(f->ctl);
		ctl_reply_field_u64(r, "ctl_accepted", cc->accepted);
		ctl_reply_field_u64(r, "ctl_refused", cc->refused_perm +
		    cc->refused_busy);
		ctl_reply_field_u64(r, "ctl_requests", cc->requests);
	}
}

/* The ARP and ND answer cache (fwd_dat.h): a record apart. */
static void
fwd_stats_dat(struct ctl_reply *r, const struct fwd_dat *dt)
{
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "fwd_dat_entries", fwd_dat_count(dt));
	ctl_reply_field_u64(r, "dat_answered", dt->c.answered);
	ctl_reply_field_u64(r, "dat_flooded", dt->c.flooded);
	ctl_reply_field_u64(r, "dat_learnt", dt->c.learnt);
	ctl_reply_field_u64(r, "dat_refused_unclaimed",
	    dt->c.refused_unclaimed);
	ctl_reply_field_u64(r, "dat_conflicts", dt->c.conflicts);
	ctl_reply_field_u64(r, "dat_invalidated", dt->c.invalidated);
	ctl_reply_field_u64(r, "dat_expired", dt->c.expired);
	ctl_reply_field_u64(r, "dat_evicted", dt->c.evicted);
	ctl_reply_field_u64(r, "dat_announced", dt->c.announced);
	ctl_reply_field_u64(r, "dat_nd_answered", dt->c.nd_answered);
	ctl_reply_field_u64(r, "dat_nd_flooded", dt->c.nd_flooded);
	ctl_reply_field_u64(r, "dat_nd_learnt", dt->c.nd_learnt);
	ctl_reply_field_u64(r, "dat_nd_announced", dt->c.nd_announced);
	ctl_reply_field_u64(r, "dat_nd_malformed", dt->c.nd_malformed);
}

/* Bridge loop avoidance (fwd_bla.h): a record apart. */
static void
fwd_stats_bla(struct ctl_reply *r, const struct fwd_bla *b)
{
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "bla_enabled", (uint64_t)b->enabled);
	ctl_reply_field_u64(r, "bla_backbones", fwd_bla_alive(b));
	ctl_reply_field_u64(r, "bla_announced", b->c.announced);
	ctl_reply_field_u64(r, "bla_heard", b->c.heard);
	ctl_reply_field_u64(r, "bla_own", b->c.own);
	ctl_reply_field_u64(r, "bla_malformed", b->c.malformed);
	ctl_reply_field_u64(r, "bla_refused_unknown", b->c.refused_unknown);
	ctl_reply_field_u64(r, "bla_refused_replay", b->c.refused_replay);
	ctl_reply_field_u64(r, "bla_refused_sig", b->c.refused_sig);
	ctl_reply_field_u64(r, "bla_refused_rate", b->c.refused_rate);
	ctl_reply_field_u64(r, "bla_refused_full", b->c.refused_full);
	ctl_reply_field_u64(r, "bla_timeouts", b->c.timeouts);
	ctl_reply_field_u64(r, "bla_drops_lan", b->c.drops_lan);
	ctl_reply_field_u64(r, "bla_drops_lan_unicast",
	    b->c.drops_lan_unicast);
	ctl_reply_field_u64(r, "bla_drops_mesh", b->c.drops_mesh);
	ctl_reply_field_u64(r, "bla_drops_backbone", b->c.drops_backbone);
	ctl_reply_field_u64(r, "bla_drops_wait", b->c.drops_wait);
	ctl_reply_field_u64(r, "bla_drops_new_orig", b->c.drops_new_orig);
	ctl_reply_field_u64(r, "bla_drops_group", b->c.drops_group);
	ctl_reply_field_u64(r, "bla_unlearnt", b->c.unlearnt);
	ctl_reply_field_u64(r, "bla_claims_sent", b->c.claims_sent);
	ctl_reply_field_u64(r, "bla_claims_heard", b->c.claims_heard);
}

/*
 * FRAG cutting and reassembly (fwd_frag.h): a record apart, the tables'
 * record being near CTLP_FIELDS_MAX.
 */
static void
fwd_stats_frag(struct fwd *f, struct ctl_reply *r)
{
	size_t i;

	if (f->data == NULL)
		return;
	ctl_reply_record_begin(r);
	for (i = 0; i < FWD_FRAG_COUNT_N; i++)
		ctl_reply_field_u64(r, fwd_frag_count_name(i),
		    fwd_frag_count_get(&f->data->frag.cnt, i));
	ctl_reply_field_u64(r, "frag_chains",
	    fwd_frag_in_use(&f->data->frag, NULL, NULL));
}

/* The data plane's totals and what the tables hold and refused. */
static void
fwd_stats_tables(struct fwd *f, struct ctl_reply *r)
{
	const struct fwd_tables_counters *tc;
	struct fwd_dcount dc;

	if (f->tables == NULL)
		return;
	ctl_reply_record_begin(r);
	if (f->data != NULL) {
		fwd_data_totals(f->data, &dc);
		fwd_field_dcount(r, "data_", &dc);
	}
	ctl_reply_field_u64(r, "fwd_neighbours", fwd_neigh_count(f->tables, 0));
	ctl_reply_field_u64(r, "fwd_routes", fwd_route_count(f->tables));
	ctl_reply_field_u64(r, "fwd_clients", fwd_client_count(f->tables));
	ctl_reply_field_u64(r, "fwd_local_clients",
	    fwd_local_count(f->tables));
	ctl_reply_field_u64(r, "fwd_gateways", fwd_gw_count(f->tables));
	tc = fwd_tables_counters(f->tables);
	ctl_reply_field_u64(r, "neigh_full", tc->neigh_full);
	ctl_reply_field_u64(r, "route_full", tc->route_full);
	ctl_reply_field_u64(r, "route_expired", tc->route_expired);
	ctl_reply_field_u64(r, "client_full", tc->client_full);
	ctl_reply_field_u64(r, "gw_full", tc->gw_full);
	ctl_reply_field_u64(r, "local_full", tc->local_full);
	ctl_reply_field_u64(r, "local_aged", tc->local_aged);
	ctl_reply_field_u64(r, "local_learnt", tc->local_learnt);
	ctl_reply_field_u64(r, "local_contested", tc->local_contested);
	ctl_reply_field_u64(r, "local_withdrawn", tc->local_withdrawn);
	ctl_reply_field_u64(r, "local_kept", tc->local_kept);
	if (f->data != NULL) {
		const struct fwd_mcast_counters *mc = &f->data->mcast.c;

		ctl_reply_field_u64(r, "mcast_reports", mc->reports);
		ctl_reply_field_u64(r, "mcast_leaves", mc->leaves);
		ctl_reply_field_u64(r, "mcast_local_full", mc->local_full);
		ctl_reply_field_u64(r, "mcast_orig_full", mc->orig_full);
		ctl_reply_field_u64(r, "mcast_unicast", mc->unicast);
		ctl_reply_field_u64(r, "mcast_unicast_copies",
		    mc->unicast_copies);
		ctl_reply_field_u64(r, "mcast_flooded", mc->flooded);
		ctl_reply_field_u64(r, "mcast_no_listener", mc->no_listener);
	}
	ctl_reply_field_u64(r, "tt_pages_sent", f->ttpage.sent);
	ctl_reply_field_u64(r, "tt_page_full", f->ttpage.full);
	ctl_reply_field_u64(r, "e2e_evicted", tc->e2e_evicted);
	ctl_reply_field_u64(r, "bcast_restarts", tc->bcast_restarts);
	if (f->data != NULL) {
		ctl_reply_field_u64(r, "bcast_repeats",
		    f->data->bcast_repeats);
		ctl_reply_field_u64(r, "bcast_repeat_drops",
		    f->data->bcast_repeat_drops);
		fwd_stats_dat(r, &f->data->dat);
		fwd_stats_bla(r, &f->data->bla);
	}
	fwd_stats_frag(f, r);
}

/*
 * srcK_mac of the parser's STATS packs ifindex << 48 | MAC: shown as the
 * MAC and srcK_ifindex.
 */
static void
fwd_stats_src(struct ctl_reply *r, uint32_t id, const char *name, uint64_t v)
{
	uint8_t mac[6];
	char ifn[32];
	int i;

	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)(v >> (8 * (5 - i)));
	ctl_reply_field_addr(r, name, mac);
	snprintf(ifn, sizeof(ifn), "src%u_ifindex",
	    (unsigned)((id - IPC_STAT_SRC1_MAC) / IPC_STAT_SRC_FIELDS + 1));
	ctl_reply_field_u64(r, ifn, v >> 48);
}

/* Counters per record of the parser's STATS (CTLP_FIELDS_MAX is 64). */
#define FWD_STATS_PER_RECORD	40

/*
 * The parser's last STATS, under the names ipc_stat_name gives, in as
 * many records as the field limit needs (batsec-ctl merges them).
 */
static void
fwd_stats_parser(struct fwd *f, struct ctl_reply *r)
{
	const char *name;
	uint32_t id;
	size_t n = 0;

	for (id = 1; id < IPC_STAT_ID_END; id++) {
		if ((name = ipc_stat_name(id)) == NULL)
			continue;
		if (n++ % FWD_STATS_PER_RECORD == 0)
			ctl_reply_record_begin(r);
		if (id >= IPC_STAT_SRC1_MAC && id < IPC_STAT_SRC1_MAC +
		    IPC_STAT_SRC_FIELDS * IPC_STAT_SRC_SLOTS &&
		    (id - IPC_STAT_SRC1_MAC) % IPC_STAT_SRC_FIELDS == 0)
			fwd_stats_src(r, id, name, f->parser.stat[id]);
		else
			ctl_reply_field_u64(r, name, f->parser.stat[id]);
	}
}

static void
fwd_ctl_stats(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;

	(void)argc;
	(void)argv;
	fwd_fast_fold(f);
	fwd_stats_forwarder(f, r);
	fwd_stats_trace(f, r);
	fwd_stats_tables(f, r);
	fwd_stats_parser(f, r);
	ctl_reply_ok(r);
}

/* ---- status ---------------------------------------------------------------------------- */

/* Fields added to the built-in "status" record. */
static void
fwd_control_status(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fwd *f = ctx;

	(void)argc;
	(void)argv;
	ctl_reply_field_addr(r, "address", f->own_addr);
	ctl_reply_field_key(r, "key", f->id.pk);
	ctl_reply_field_u64(r, "epoch", f->epoch);
	ctl_reply_field_str(r, "tap", f->tap.name);
	ctl_reply_field_u64(r, "ogm_seqno", f->orig.ogm_seqno);
	ctl_reply_field_bool(r, "parser_running", fwd_parser_up(&f->parser));
	/* Parsers replaced for a violation, and of those for silence. */
	ctl_reply_field_u64(r, "parser_kills", f->parser.c.kills);
	ctl_reply_field_u64(r, "parser_silent", f->parser.c.silent);
	/* Gateway mode, and in client mode its class and selection. */
	ctl_reply_field_str(r, "gw_mode", f->cfg.gw_mode == BS_GW_CLIENT ?
	    "client" : f->cfg.gw_mode == BS_GW_SERVER ? "server" : "off");
	if (f->cfg.gw_mode == BS_GW_CLIENT) {
		ctl_reply_field_u64(r, "gw_sel_class", f->cfg.gw_sel_class);
		if (f->data != NULL && f->data->gw.has_sel)
			ctl_reply_field_addr(r, "gw_selected", f->data->gw.sel);
	}
}

const struct control_cmd fwd_control_cmds[] = {
	{ CTLP_CMD_ORIGINATORS, 0, 0, fwd_ctl_originators },
	{ CTLP_CMD_NEIGHBORS, 0, 0, fwd_ctl_neighbors },
	{ CTLP_CMD_INTERFACES, 0, 0, fwd_ctl_interfaces },
	{ CTLP_CMD_CLIENTS, 0, 0, fwd_ctl_clients },
	{ CTLP_CMD_GATEWAYS, 0, 0, fwd_ctl_gateways },
	{ CTLP_CMD_STATS, 0, 0, fwd_ctl_stats },
	{ CTLP_CMD_PING, 1, 1, fwd_ctl_ping },
	{ CTLP_CMD_PING_RESULT, 1, 1, fwd_ctl_ping_result },
	{ CTLP_CMD_TRACE, 2, 2, fwd_ctl_trace },
	/* Trust management (fwd_trust.c): each handler checks its
	 * arguments' form itself; the counts are checked here. */
	{ CTLP_CMD_TRUST_LIST, 0, 0, fwd_trust_ctl_list },
	{ CTLP_CMD_TRUST_ADD, 1, 4, fwd_trust_ctl_add },
	{ CTLP_CMD_TRUST_REMOVE, 1, 1, fwd_trust_ctl_remove },
	{ CTLP_CMD_BLOCK, 1, 1, fwd_trust_ctl_block },
	{ CTLP_CMD_UNBLOCK, 1, 1, fwd_trust_ctl_unblock },
	{ CTLP_CMD_REVOKE, 1, 1, fwd_trust_ctl_revoke },
	{ CTLP_CMD_REVOKE_RECORD, 1, 1, fwd_trust_ctl_revoke_record },
	{ CTLP_CMD_RELOAD, 0, 0, fwd_trust_ctl_reload },
	{ CTLP_CMD_ANCHORS, 0, 0, fwd_trust_ctl_anchors },
	{ CTLP_CMD_POLICY_SHOW, 0, 0, fwd_trust_ctl_policy_show },
	/* Runtime settings and the event ring (fwd_settings.c). */
	{ CTLP_CMD_SET, 2, 3, fwd_settings_ctl_set },
	{ CTLP_CMD_GET, 0, 1, fwd_settings_ctl_get },
	{ CTLP_CMD_EVENTS, 0, 1, fwd_settings_ctl_events },
	{ NULL, 0, 0, NULL }
};

int
fwd_control_open(struct fwd *f, char *err, size_t errlen)
{
	struct control_opts o;

	memset(&o, 0, sizeof(o));
	o.path = f->cfg.socket;
	o.cmds = fwd_control_cmds;
	o.ctx = f;
	o.status_extra = fwd_control_status;
	if ((f->ctl = control_open(&o, log_now_ms(), err, errlen)) == NULL)
		return -1;
	return 0;
}
