/*
 * ctl_metrics.c — batsecd's replies rendered for monitoring.
 *
 * Prometheus (ctl_metrics_prom): the "stats" counters are one flat set of
 * named integers (ctlproto.h); each name is sorted into a family here by
 * its form, so a counter the daemon adds later is exported too:
 *
 *	STAGE_drop_REASON, drop_REASON,	batsec_drops_total{stage,reason};
 *	  rx_queue_drops, X_full	drop_REASON is the parser's when the
 *					parser's STATS list names it, else
 *					the forwarder's
 *	fwd_*, table sizes		batsec_table_entries{table}
 *	under_load			batsec_verify_under_load
 *	sig_verified, sig_failed,	batsec_signatures_total{result}
 *	  sig_cache_hit
 *	data_{rx,tx}_{frames,bytes}	batsec_data_{frames,bytes}_total
 *	srcN_*				not exported: the sources with most
 *					drops change places (batsec-ctl stats)
 *	any other NAME			batsec_NAME_total, a counter
 *
 * The other families come from status, neighbors, interfaces and
 * gateways.  nodeinfo (ctl_metrics_nodeinfo) is a JSON object shaped like
 * the three providers of Gluon's respondd.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_metrics.h"
#include "ctl_prom.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"
#include "proto/ipc.h"

/* The longest text a field gives a label or JSON string here. */
#define MON_STR_MAX		CTLP_STR_MAX

void
ctl_mon_in_free(struct ctl_mon_in *in)
{
	free(in->status.buf);
	free(in->stats.buf);
	free(in->neighbors.buf);
	free(in->interfaces.buf);
	free(in->gateways.buf);
	free(in->clients.buf);
}

/* ---- fields ----------------------------------------------------------- */

/* Integer field name of r into *v: 0, or -1 when missing or not one. */
static int
mon_u64(const struct ctlp_record *r, const char *name, uint64_t *v)
{
	const struct ctlp_field *f = ctl_field(r, name);

	if (f == NULL || f->type == CTLP_F_STR)
		return -1;
	*v = f->u64;
	return 0;
}

/* String field name of r as a C string in out: 0, or -1 (out ""). */
static int
mon_str(const struct ctlp_record *r, const char *name,
    char out[static MON_STR_MAX + 1])
{
	const struct ctlp_field *f = ctl_field(r, name);

	out[0] = '\0';
	if (f == NULL || f->type != CTLP_F_STR || f->str_len > MON_STR_MAX)
		return -1;
	memcpy(out, f->str, f->str_len);
	out[f->str_len] = '\0';
	return 0;
}

/* The first record of in (status): 0, or -1 when there is none. */
static int
mon_first(const struct ctl_in *in, struct ctlp_record *r)
{
	size_t pos = 0;

	return in->buf == NULL ? -1 : ctl_in_next(in, &pos, r);
}

/* ---- stats families ----------------------------------------------------- */

enum mon_kind {
	MK_SKIP = 0,
	MK_DROP,
	MK_ENTRIES,
	MK_UNDER_LOAD,
	MK_SIG,
	MK_FRAMES,
	MK_BYTES,
	MK_OTHER,
};

/* What one stats field becomes: a family and its label values. */
struct mon_class {
	enum mon_kind kind;
	char l1[CTLP_NAME_MAX + 1], l2[CTLP_NAME_MAX + 1];
};

struct mon_fam {
	enum mon_kind kind;
	const char *name;
	enum prom_type type;
	const char *help;
	const char *l1, *l2;		/* label names; NULL: none */
};

static const struct mon_fam mon_stat_fams[] = {
	{ MK_DROP, "batsec_drops_total", PROM_COUNTER,
	  "Frames, OGM entries and messages dropped, by the stage that "
	  "dropped them and why (the drop counters of batsec-ctl stats; "
	  "the parser counts drop_remembered also under another reason).",
	  "stage", "reason" },
	{ MK_ENTRIES, "batsec_table_entries", PROM_GAUGE,
	  "Entries in batsecd's tables and queues now, named as in "
	  "batsec-ctl stats (fwd_*: the forwarder's, the others the "
	  "parser's).", "table", NULL },
	{ MK_UNDER_LOAD, "batsec_verify_under_load", PROM_GAUGE,
	  "1 while the parser's global signature verification budget is "
	  "low and signatures of unknown keys are refused.", NULL, NULL },
	{ MK_SIG, "batsec_signatures_total", PROM_COUNTER,
	  "Ed25519 signature checks of the parser by result, and signatures "
	  "found in its cache (no check).", "result", NULL },
	{ MK_FRAMES, "batsec_data_frames_total", PROM_COUNTER,
	  "Data frames the data plane received from and sent to the mesh.",
	  "direction", NULL },
	{ MK_BYTES, "batsec_data_bytes_total", PROM_COUNTER,
	  "Bytes of data frames received from and sent to the mesh.",
	  "direction", NULL },
};

/* The parser's current values that are not counters (ipc_msg.h). */
static const char *const mon_parser_gauges[] = {
	"originators", "neighbours", "strangers", "tofu_pins",
	"relay_waiting", "tofu_pins_kept", "tt_synced", NULL
};

static int
mon_in_list(const char *const *list, const char *name)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, name) == 0)
			return 1;
	return 0;
}

/* 1 when the parser's STATS message has a counter called name. */
static int
mon_parser_stat(const char *name)
{
	const char *s;
	uint32_t id;

	for (id = 1; id < IPC_STAT_ID_END; id++)
		if ((s = ipc_stat_name(id)) != NULL && strcmp(s, name) == 0)
			return 1;
	return 0;
}

static void
mon_set(struct mon_class *c, enum mon_kind kind, const char *l1,
    size_t l1len, const char *l2)
{
	c->kind = kind;
	(void)snprintf(c->l1, sizeof(c->l1), "%.*s", (int)l1len, l1);
	(void)snprintf(c->l2, sizeof(c->l2), "%s", l2 != NULL ? l2 : "");
}

/* The drop counters' stage and reason; 0, or -1 for other names. */
static int
mon_classify_drop(const char *name, struct mon_class *c)
{
	const char *d = strstr(name, "_drop_");
	size_t len = strlen(name);

	if (strcmp(name, "rx_queue_drops") == 0)
		mon_set(c, MK_DROP, "socket", 6, "rx_queue");
	else if (strncmp(name, "drop_", 5) == 0 && mon_parser_stat(name))
		mon_set(c, MK_DROP, "parser", 6, name + 5);
	else if (strncmp(name, "drop_", 5) == 0)
		mon_set(c, MK_DROP, "forwarder", 9, name + 5);
	else if (d != NULL && d[6] != '\0')
		mon_set(c, MK_DROP, name, (size_t)(d - name), d + 6);
	else if (len > 5 && strcmp(name + len - 5, "_full") == 0)
		mon_set(c, MK_DROP, "tables", 6, name);
	else
		return -1;
	return 0;
}

static void
mon_classify(const char *name, struct mon_class *c)
{
	mon_set(c, MK_OTHER, "", 0, NULL);
	if (strncmp(name, "src", 3) == 0 && name[3] >= '0' && name[3] <= '9')
		c->kind = MK_SKIP;
	else if (strcmp(name, "under_load") == 0)
		c->kind = MK_UNDER_LOAD;
	else if (strncmp(name, "fwd_", 4) == 0 ||
	    mon_in_list(mon_parser_gauges, name))
		mon_set(c, MK_ENTRIES, name, strlen(name), NULL);
	else if (strncmp(name, "sig_", 4) == 0 && (strcmp(name + 4,
	    "verified") == 0 || strcmp(name + 4, "failed") == 0 ||
	    strcmp(name + 4, "cache_hit") == 0))
		mon_set(c, MK_SIG, name + 4, strlen(name + 4), NULL);
	else if (strncmp(name, "data_", 5) == 0 && (strncmp(name + 5, "rx_",
	    3) == 0 || strncmp(name + 5, "tx_", 3) == 0) &&
	    (strcmp(name + 8, "frames") == 0 || strcmp(name + 8,
	    "bytes") == 0))
		mon_set(c, name[8] == 'f' ? MK_FRAMES : MK_BYTES, name + 5, 2,
		    NULL);
	else
		(void)mon_classify_drop(name, c);
}

/* Every integer field of the stats reply of kind, as samples of fam. */
static void
mon_stats_family(struct prom *p, const struct ctl_in *stats,
    const struct mon_fam *fam)
{
	struct prom_label l[2];
	struct ctlp_record r;
	struct mon_class c;
	size_t pos = 0, i;
	int opened = 0;

	while (ctl_in_next(stats, &pos, &r) == 0) {
		for (i = 0; i < r.n; i++) {
			if (r.f[i].type == CTLP_F_STR)
				continue;
			mon_classify(r.f[i].name, &c);
			if (c.kind != fam->kind)
				continue;
			if (!opened++)
				prom_family(p, fam->name, fam->type, fam->help);
			l[0].name = fam->l1;
			l[0].value = c.l1;
			l[1].name = fam->l2;
			l[1].value = c.l2;
			prom_sample(p, l, fam->l1 == NULL ? 0 : fam->l2 ==
			    NULL ? 1 : 2, r.f[i].u64);
		}
	}
}

/* The counters no family above took: batsec_NAME_total each. */
static void
mon_stats_other(struct prom *p, const struct ctl_in *stats)
{
	char name[PROM_NAME_MAX + 1], help[128];
	struct ctlp_record r;
	struct mon_class c;
	size_t pos = 0, i;

	while (ctl_in_next(stats, &pos, &r) == 0) {
		for (i = 0; i < r.n; i++) {
			if (r.f[i].type == CTLP_F_STR)
				continue;
			mon_classify(r.f[i].name, &c);
			if (c.kind != MK_OTHER)
				continue;
			(void)snprintf(name, sizeof(name), "batsec_%s_total",
			    r.f[i].name);
			(void)snprintf(help, sizeof(help), "The counter %s of "
			    "batsec-ctl stats.", r.f[i].name);
			prom_family(p, name, PROM_COUNTER, help);
			prom_sample(p, NULL, 0, r.f[i].u64);
		}
	}
}

/* parser_spawns counts the first start too: restarts are the rest. */
static void
mon_parser_restarts(struct prom *p, const struct ctl_in *stats)
{
	struct ctlp_record r;
	size_t pos = 0;
	uint64_t v;

	while (ctl_in_next(stats, &pos, &r) == 0) {
		if (mon_u64(&r, "parser_spawns", &v) != 0)
			continue;
		prom_family(p, "batsec_parser_restarts_total", PROM_COUNTER,
		    "Times the forwarder started the parser again (after it "
		    "died or was killed for a violation or silence).");
		prom_sample(p, NULL, 0, v > 0 ? v - 1 : 0);
		return;
	}
}

static void
mon_stats(struct prom *p, const struct ctl_in *stats)
{
	size_t i;

	for (i = 0; i < sizeof(mon_stat_fams) / sizeof(mon_stat_fams[0]); i++)
		mon_stats_family(p, stats, &mon_stat_fams[i]);
	mon_parser_restarts(p, stats);
	mon_stats_other(p, stats);
}

/* ---- status, neighbours, interfaces, gateways ---------------------------- */

static void
mon_status(struct prom *p, const struct ctl_in *status)
{
	char ver[MON_STR_MAX + 1], addr[MON_STR_MAX + 1], key[MON_STR_MAX + 1];
	char proto[24];
	struct prom_label l[4];
	struct ctlp_record r;
	uint64_t v;

	if (mon_first(status, &r) != 0)
		return;
	(void)mon_str(&r, "version", ver);
	(void)mon_str(&r, "address", addr);
	(void)mon_str(&r, "key", key);
	if (mon_u64(&r, "protocol", &v) != 0)
		v = 0;
	(void)snprintf(proto, sizeof(proto), "%" PRIu64, v);
	l[0] = (struct prom_label){ "version", ver };
	l[1] = (struct prom_label){ "protocol", proto };
	l[2] = (struct prom_label){ "address", addr };
	l[3] = (struct prom_label){ "key", key };
	prom_family(p, "batsec_info", PROM_GAUGE, "Always 1: batsecd's "
	    "version, control protocol, mesh address and public key.");
	prom_sample(p, l, 4, 1);
	if (mon_u64(&r, "uptime_ms", &v) == 0) {
		prom_family(p, "batsec_uptime_seconds", PROM_GAUGE,
		    "Seconds since batsecd started.");
		prom_sample_ms(p, NULL, 0, v);
	}
	if (mon_u64(&r, "parser_running", &v) == 0) {
		prom_family(p, "batsec_parser_running", PROM_GAUGE,
		    "1 while the sandboxed parser runs.");
		prom_sample(p, NULL, 0, v);
	}
}

/*
 * Field field of every record of in as a sample of family name, labelled
 * by the string fields k1 (label n1) and k2 (n2, NULL: none); records
 * without the field are left out.  ms: the field is in milliseconds.
 */
struct mon_per {
	const char *name, *help, *field;
	const char *n1, *k1, *n2, *k2;
	int ms;
};

static void
mon_per_record(struct prom *p, const struct ctl_in *in,
    const struct mon_per *m)
{
	char v1[MON_STR_MAX + 1], v2[MON_STR_MAX + 1];
	struct prom_label l[2];
	struct ctlp_record r;
	size_t pos = 0;
	uint64_t v;
	int opened = 0;

	while (ctl_in_next(in, &pos, &r) == 0) {
		if (mon_u64(&r, m->field, &v) != 0 ||
		    mon_str(&r, m->k1, v1) != 0 ||
		    (m->k2 != NULL && mon_str(&r, m->k2, v2) != 0))
			continue;
		if (!opened++)
			prom_family(p, m->name, PROM_GAUGE, m->help);
		l[0] = (struct prom_label){ m->n1, v1 };
		l[1] = (struct prom_label){ m->n2, v2 };
		if (m->ms)
			prom_sample_ms(p, l, m->k2 != NULL ? 2 : 1, v);
		else
			prom_sample(p, l, m->k2 != NULL ? 2 : 1, v);
	}
}

static const struct mon_per mon_neighbour_pers[] = {
	{ "batsec_neighbour_tq", "Link TQ (0-255) of each direct neighbour "
	  "per interface.", "link_tq", "interface", "interface", "neighbour",
	  "address", 0 },
	{ "batsec_neighbour_last_seen_seconds", "Seconds since each direct "
	  "neighbour was last heard.", "last_seen_ms", "interface",
	  "interface", "neighbour", "address", 1 },
};

static const struct mon_per mon_iface_pers[] = {
	{ "batsec_interface_active", "1 while the mesh interface is present, "
	  "up and used.", "active", "interface", "name", NULL, NULL, 0 },
	{ "batsec_interface_neighbours", "Direct neighbours per mesh "
	  "interface.", "neighbours", "interface", "name", NULL, NULL, 0 },
};

static const struct mon_per mon_gw_pers[] = {
	{ "batsec_gateway_tq", "TQ of the route to each gateway.", "tq",
	  "gateway", "address", NULL, NULL, 0 },
	{ "batsec_gateway_selected", "1 for the gateway in use (client "
	  "mode), else the one with the best route.", "best", "gateway", "address", NULL, NULL, 0 },
};

static void
mon_pers(struct prom *p, const struct ctl_in *in, const struct mon_per *m,
    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mon_per_record(p, in, &m[i]);
}

#define MON_N(a)	(sizeof(a) / sizeof((a)[0]))

int
ctl_metrics_prom(FILE *out, const struct ctl_mon_in *in)
{
	struct prom *p;
	int rc;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return -1;
	prom_init(p, out);
	prom_family(p, "batsec_up", PROM_GAUGE, "1 when batsecd answered "
	    "on its control socket.");
	prom_sample(p, NULL, 0, in->up ? 1 : 0);
	if (in->up) {
		mon_status(p, &in->status);
		mon_stats(p, &in->stats);
		mon_pers(p, &in->neighbors, mon_neighbour_pers,
		    MON_N(mon_neighbour_pers));
		mon_pers(p, &in->interfaces, mon_iface_pers,
		    MON_N(mon_iface_pers));
		mon_pers(p, &in->gateways, mon_gw_pers, MON_N(mon_gw_pers));
	}
	rc = prom_finish(p);
	free(p);
	return rc;
}

/* ---- nodeinfo ------------------------------------------------------------------ */

static void
mon_json_str(FILE *out, const char *s)
{
	ctl_json_fstrn(out, s, strlen(s));
}

/* Milliseconds as a JSON number of seconds with three decimals. */
static void
mon_json_secs(FILE *out, uint64_t ms)
{
	(void)fprintf(out, "%" PRIu64 ".%03u", ms / 1000,
	    (unsigned)(ms % 1000));
}

/* "aa:bb:cc:dd:ee:ff" as Gluon's node_id "aabbccddeeff". */
static void
mon_node_id(const char *addr, char *out, size_t outlen)
{
	size_t k = 0;

	for (; *addr != '\0' && k + 1 < outlen; addr++)
		if (*addr != ':')
			out[k++] = *addr;
	out[k] = '\0';
}

/* The local clients: entries of this node but the TAP's own MAC. */
static uint64_t
mon_local_clients(const struct ctl_in *clients)
{
	struct ctlp_record r;
	size_t pos = 0;
	uint64_t local, perm, n = 0;

	while (ctl_in_next(clients, &pos, &r) == 0)
		if (mon_u64(&r, "local", &local) == 0 && local &&
		    (mon_u64(&r, "permanent", &perm) != 0 || !perm))
			n++;
	return n;
}

static void
mon_nodeinfo_node(FILE *out, const struct ctl_mon_in *in,
    const struct ctlp_record *st, const char *node_id, const char *hostname)
{
	char s[MON_STR_MAX + 1];
	struct ctlp_record r;
	size_t pos = 0;
	uint64_t v;
	int first = 1;

	(void)fprintf(out, "\"nodeinfo\":{\"node_id\":");
	mon_json_str(out, node_id);
	(void)fprintf(out, ",\"hostname\":");
	mon_json_str(out, hostname);
	(void)mon_str(st, "address", s);
	(void)fprintf(out, ",\"network\":{\"mac\":");
	mon_json_str(out, s);
	(void)fprintf(out, ",\"mesh\":{\"batsec\":{\"interfaces\":{\"other\":[");
	while (ctl_in_next(&in->interfaces, &pos, &r) == 0) {
		if (mon_str(&r, "address", s) != 0)
			continue;
		(void)fputs(first ? "" : ",", out);
		mon_json_str(out, s);
		first = 0;
	}
	(void)fprintf(out, "]}}}},\"software\":{\"batsec\":{\"version\":");
	(void)mon_str(st, "version", s);
	mon_json_str(out, s);
	(void)fprintf(out, ",\"protocol\":%" PRIu64 "}},\"batsec\":{\"key\":",
	    mon_u64(st, "protocol", &v) == 0 ? v : 0);
	(void)mon_str(st, "key", s);
	mon_json_str(out, s);
	(void)fputs("}}", out);
}

static void
mon_nodeinfo_stats(FILE *out, const struct ctl_mon_in *in,
    const struct ctlp_record *st, const char *node_id)
{
	char s[MON_STR_MAX + 1];
	struct ctlp_record r;
	size_t pos = 0;
	uint64_t v;

	(void)fprintf(out, ",\"statistics\":{\"node_id\":");
	mon_json_str(out, node_id);
	(void)fprintf(out, ",\"uptime\":");
	mon_json_secs(out, mon_u64(st, "uptime_ms", &v) == 0 ? v : 0);
	(void)fprintf(out, ",\"clients\":{\"total\":%" PRIu64 "}",
	    mon_local_clients(&in->clients));
	while (ctl_in_next(&in->gateways, &pos, &r) == 0) {
		if (mon_u64(&r, "best", &v) != 0 || !v ||
		    mon_str(&r, "address", s) != 0)
			continue;
		(void)fprintf(out, ",\"gateway\":");
		mon_json_str(out, s);
		if (mon_str(&r, "next_hop", s) == 0) {
			(void)fprintf(out, ",\"gateway_nexthop\":");
			mon_json_str(out, s);
		}
		break;
	}
	(void)fputc('}', out);
}

/* The neighbours on interface ifname as members of a JSON object. */
static void
mon_nodeinfo_iface_neigh(FILE *out, const struct ctl_in *neighbors,
    const char *ifname)
{
	char s[MON_STR_MAX + 1];
	struct ctlp_record r;
	size_t pos = 0;
	uint64_t v;
	int first = 1;

	while (ctl_in_next(neighbors, &pos, &r) == 0) {
		if (mon_str(&r, "interface", s) != 0 || strcmp(s, ifname) != 0 ||
		    mon_str(&r, "address", s) != 0)
			continue;
		(void)fputs(first ? "" : ",", out);
		first = 0;
		mon_json_str(out, s);
		(void)fprintf(out, ":{\"tq\":%" PRIu64 ",\"lastseen\":",
		    mon_u64(&r, "link_tq", &v) == 0 ? v : 0);
		mon_json_secs(out, mon_u64(&r, "last_seen_ms", &v) == 0 ? v : 0);
		if (mon_str(&r, "mac", s) == 0) {
			(void)fprintf(out, ",\"mac\":");
			mon_json_str(out, s);
		}
		if (mon_str(&r, "key", s) == 0) {
			(void)fprintf(out, ",\"key\":");
			mon_json_str(out, s);
		}
		(void)fputc('}', out);
	}
}

/* Per interface with an address: its name and its neighbours. */
static void
mon_nodeinfo_neigh(FILE *out, const struct ctl_mon_in *in,
    const char *node_id)
{
	char name[MON_STR_MAX + 1], mac[MON_STR_MAX + 1];
	struct ctlp_record r;
	size_t pos = 0;
	int first = 1;

	(void)fprintf(out, ",\"neighbours\":{\"node_id\":");
	mon_json_str(out, node_id);
	(void)fprintf(out, ",\"batsec\":{");
	while (ctl_in_next(&in->interfaces, &pos, &r) == 0) {
		if (mon_str(&r, "name", name) != 0 ||
		    mon_str(&r, "address", mac) != 0)
			continue;
		(void)fputs(first ? "" : ",", out);
		first = 0;
		mon_json_str(out, mac);
		(void)fprintf(out, ":{\"interface\":");
		mon_json_str(out, name);
		(void)fprintf(out, ",\"neighbours\":{");
		mon_nodeinfo_iface_neigh(out, &in->neighbors, name);
		(void)fputs("}}", out);
	}
	(void)fputs("}}", out);
}

int
ctl_metrics_nodeinfo(FILE *out, const struct ctl_mon_in *in,
    const char *hostname)
{
	char addr[MON_STR_MAX + 1], node_id[MON_STR_MAX + 1];
	struct ctlp_record *st;
	int rc;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return -1;
	if (mon_first(&in->status, st) != 0)
		st->n = 0;
	(void)mon_str(st, "address", addr);
	mon_node_id(addr, node_id, sizeof(node_id));
	(void)fputc('{', out);
	mon_nodeinfo_node(out, in, st, node_id, hostname);
	mon_nodeinfo_stats(out, in, st, node_id);
	mon_nodeinfo_neigh(out, in, node_id);
	(void)fputs("}\n", out);
	free(st);
	rc = fflush(out) != 0 || ferror(out) ? -1 : 0;
	return rc;
}
