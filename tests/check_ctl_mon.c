/*
 * check_ctl_mon.c — batsec-ctl's monitoring renderers: the Prometheus
 * text writer (ctl_prom.c: names, escapes, what it refuses) and the
 * metrics and nodeinfo renderers (ctl_metrics.c) over replies built
 * with the control protocol's own record writer.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs_bytes.h"
#include "ctl/ctl_metrics.h"
#include "ctl/ctl_prom.h"
#include "lib/t_check.h"
#include "proto/ctlproto.h"

/* ---- helpers ----------------------------------------------------------- */

/* A stream into memory; t_mem_end closes it and returns the text. */
struct t_mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void
t_mem_begin(struct t_mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(m->f);
}

static char *
t_mem_end(struct t_mem *m)
{
	ck_assert_int_eq(fclose(m->f), 0);
	return m->buf;
}

/* Append the record w wrote to in as ctl_client.c stores it. */
static void
t_in_add(struct ctl_in *in, struct ctlp_rec *w)
{
	size_t len;

	ck_assert_int_eq(ctlp_rec_end(w, &len), 0);
	in->buf = realloc(in->buf, in->len + 2 + len);
	ck_assert_ptr_nonnull(in->buf);
	bs_put16(in->buf + in->len, (uint16_t)len);
	memcpy(in->buf + in->len + 2, w->buf, len);
	in->len += 2 + len;
	in->cap = in->len;
	in->records++;
}

static void
t_str(struct ctlp_rec *w, const char *name, const char *v)
{
	ck_assert_int_eq(ctlp_rec_str(w, name, v, strlen(v)), 0);
}

static void
t_u64(struct ctlp_rec *w, const char *name, uint64_t v)
{
	ck_assert_int_eq(ctlp_rec_u64(w, name, v), 0);
}

static uint8_t recbuf[CTLP_MSG_MAX];

struct t_stat {
	const char *name;
	uint64_t v;
};

static const struct t_stat fwd_stats[] = {
	{ "tx_hello", 12 }, { "relay_drop_queue", 6 }, { "parser_spawns", 3 },
	{ "drop_no_parser", 5 }, { "rx_queue_drops", 13 },
	{ "relay_waiting", 1 }, { "data_rx_frames", 10 },
	{ "data_tx_bytes", 11 }, { "data_drop_no_route", 4 },
	{ "fwd_routes", 2 }, { "route_full", 7 },
};

static const struct t_stat parser_stats[] = {
	{ "drop_malformed", 3 }, { "drop_table_full", 8 },
	{ "sig_verified", 9 }, { "under_load", 1 }, { "originators", 2 },
};

/* One stats record of the n counters s. */
static void
t_stats(struct ctl_in *in, const struct t_stat *s, int n)
{
	struct ctlp_rec w;
	int i;

	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	for (i = 0; i < n; i++)
		t_u64(&w, s[i].name, s[i].v);
	t_in_add(in, &w);
}

/* A node as the daemon would describe it (fields as fwd_control.c). */
static void
t_node(struct ctl_mon_in *in)
{
	struct ctlp_rec w;

	memset(in, 0, sizeof(*in));
	in->up = 1;
	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "version", "0.1.0");
	t_u64(&w, "protocol", 1);
	t_u64(&w, "uptime_ms", 61005);
	t_u64(&w, "clients", 1);
	t_str(&w, "address", "02:00:00:00:00:02");
	t_str(&w, "key", "AAAA/+==");
	ck_assert_int_eq(ctlp_rec_bool(&w, "parser_running", 1), 0);
	t_in_add(&in->status, &w);

	/* stats: the forwarder's record, then the parser's. */
	t_stats(&in->stats, fwd_stats, T_NELEM(fwd_stats));
	t_stats(&in->stats, parser_stats, T_NELEM(parser_stats));
	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "src1_mac", "00:00:00:00:00:00");
	t_u64(&w, "src1_drops", 99);
	t_in_add(&in->stats, &w);

	/* An interface whose name needs escaping: '"' and '\' are allowed. */
	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "name", "m\"1\\x");
	ck_assert_int_eq(ctlp_rec_bool(&w, "active", 1), 0);
	t_str(&w, "address", "0a:00:00:00:00:01");
	t_u64(&w, "neighbours", 1);
	t_in_add(&in->interfaces, &w);

	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "address", "02:00:00:00:00:03");
	t_str(&w, "key", "BBBB");
	t_str(&w, "interface", "m\"1\\x");
	t_u64(&w, "link_tq", 240);
	t_u64(&w, "last_seen_ms", 1500);
	t_str(&w, "mac", "0a:00:00:00:00:03");
	t_in_add(&in->neighbors, &w);

	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "address", "02:00:00:00:00:03");
	t_str(&w, "next_hop", "02:00:00:00:00:03");
	t_u64(&w, "tq", 240);
	ck_assert_int_eq(ctlp_rec_bool(&w, "best", 1), 0);
	t_in_add(&in->gateways, &w);

	/* Clients: the TAP's own MAC (permanent), one local, one remote. */
	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "client", "0e:00:00:00:00:02");
	ck_assert_int_eq(ctlp_rec_bool(&w, "local", 1), 0);
	ck_assert_int_eq(ctlp_rec_bool(&w, "permanent", 1), 0);
	t_in_add(&in->clients, &w);
	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "client", "0e:00:00:00:01:02");
	ck_assert_int_eq(ctlp_rec_bool(&w, "local", 1), 0);
	ck_assert_int_eq(ctlp_rec_bool(&w, "permanent", 0), 0);
	t_in_add(&in->clients, &w);
	ctlp_rec_begin(&w, recbuf, sizeof(recbuf));
	t_str(&w, "client", "0e:00:00:00:00:03");
	ck_assert_int_eq(ctlp_rec_bool(&w, "local", 0), 0);
	t_in_add(&in->clients, &w);
}

/* ---- the writer ---------------------------------------------------------- */

static const struct {
	const char *name;
	int metric, label;
} names[] = {
	{ "batsec_up", 1, 1 },
	{ "a:b", 1, 0 },
	{ "_x9", 1, 1 },
	{ "__x", 1, 0 },		/* reserved for labels only */
	{ "9a", 0, 0 },
	{ "", 0, 0 },
	{ "a-b", 0, 0 },
	{ "a b", 0, 0 },
	{ "é", 0, 0 },
	/* PROM_NAME_MAX + 1 characters */
	{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 0 },
};

START_TEST(test_names)
{
	ck_assert_msg(prom_metric_name_ok(names[_i].name) ==
	    names[_i].metric, "metric name %s", names[_i].name);
	ck_assert_msg(prom_label_name_ok(names[_i].name) == names[_i].label,
	    "label name %s", names[_i].name);
}
END_TEST

START_TEST(test_escapes)
{
	struct prom_label l[2] = { { "a", "x\"y\\z\nw" }, { "b", "" } };
	struct t_mem m;
	struct prom p;
	char *out;

	t_mem_begin(&m);
	prom_init(&p, m.f);
	prom_family(&p, "g", PROM_GAUGE, "two\\lines\nhere \"quoted\"");
	prom_sample(&p, l, 2, 18446744073709551615ULL);
	prom_sample_ms(&p, NULL, 0, 5);
	prom_sample_ms(&p, l + 1, 1, 61005);
	ck_assert_int_eq(prom_finish(&p), 0);
	out = t_mem_end(&m);
	ck_assert_str_eq(out,
	    "# HELP g two\\\\lines\\nhere \"quoted\"\n"
	    "# TYPE g gauge\n"
	    "g{a=\"x\\\"y\\\\z\\nw\",b=\"\"} 18446744073709551615\n"
	    "g 0.005\n"
	    "g{b=\"\"} 61.005\n");
	free(out);
}
END_TEST

/* Each misuse leaves the stream without the bad line and p.bad set. */
enum misuse {
	MU_REPEAT_FAMILY, MU_COUNTER_NAME, MU_BAD_FAMILY, MU_NO_FAMILY,
	MU_BAD_LABEL, MU_LABEL_TWICE, MU_TOO_MANY, MU_NULL_VALUE, MU_N
};

START_TEST(test_refused)
{
	struct prom_label l[PROM_LABELS_MAX + 1];
	char ln[PROM_LABELS_MAX + 1][8];
	struct t_mem m;
	struct prom p;
	char *out;
	size_t i;

	for (i = 0; i < PROM_LABELS_MAX + 1; i++) {
		(void)snprintf(ln[i], sizeof(ln[i]), "l%zu", i);
		l[i].name = ln[i];
		l[i].value = "v";
	}
	t_mem_begin(&m);
	prom_init(&p, m.f);
	if (_i != MU_NO_FAMILY)
		prom_family(&p, "c_total", PROM_COUNTER, "h");
	ck_assert_int_eq(p.bad, 0);
	switch (_i) {
	case MU_REPEAT_FAMILY:
		prom_family(&p, "g", PROM_GAUGE, "h");
		prom_family(&p, "c_total", PROM_COUNTER, "h");
		break;
	case MU_COUNTER_NAME:
		prom_family(&p, "c", PROM_COUNTER, "h");
		break;
	case MU_BAD_FAMILY:
		prom_family(&p, "c-d", PROM_GAUGE, "h");
		break;
	case MU_NO_FAMILY:
		prom_sample(&p, NULL, 0, 1);
		break;
	case MU_BAD_LABEL:
		l[0].name = "__name__";
		prom_sample(&p, l, 1, 1);
		break;
	case MU_LABEL_TWICE:
		l[1].name = l[0].name;
		prom_sample(&p, l, 2, 1);
		break;
	case MU_TOO_MANY:
		prom_sample(&p, l, PROM_LABELS_MAX + 1, 1);
		break;
	case MU_NULL_VALUE:
		l[0].value = NULL;
		prom_sample(&p, l, 1, 1);
		break;
	}
	ck_assert_int_eq(prom_finish(&p), -1);
	out = t_mem_end(&m);
	/* Nothing but the good family's (or no family's) two lines. */
	ck_assert_uint_le(t_count(out, "\n"), _i == MU_REPEAT_FAMILY ? 4 : 2);
	ck_assert_uint_eq(t_count(out, "c_total 1"), 0);
	ck_assert_uint_eq(t_count(out, "c-d"), 0);
	free(out);
}
END_TEST

START_TEST(test_family_limit)
{
	char name[32];
	struct t_mem m;
	struct prom p;
	size_t i;

	t_mem_begin(&m);
	prom_init(&p, m.f);
	for (i = 0; i < PROM_FAMILIES_MAX; i++) {
		(void)snprintf(name, sizeof(name), "g%zu", i);
		prom_family(&p, name, PROM_GAUGE, "h");
	}
	ck_assert_int_eq(p.bad, 0);
	prom_family(&p, "one_more", PROM_GAUGE, "h");
	ck_assert_int_eq(p.bad, 1);
	free(t_mem_end(&m));
}
END_TEST

/* ---- metrics ---------------------------------------------------------------- */

static const char *const metric_lines[] = {
	"batsec_up 1\n",
	"batsec_info{version=\"0.1.0\",protocol=\"1\","
	    "address=\"02:00:00:00:00:02\",key=\"AAAA/+==\"} 1\n",
	"batsec_uptime_seconds 61.005\n",
	"batsec_parser_running 1\n",
	"batsec_drops_total{stage=\"relay\",reason=\"queue\"} 6\n",
	"batsec_drops_total{stage=\"forwarder\",reason=\"no_parser\"} 5\n",
	"batsec_drops_total{stage=\"socket\",reason=\"rx_queue\"} 13\n",
	"batsec_drops_total{stage=\"data\",reason=\"no_route\"} 4\n",
	"batsec_drops_total{stage=\"tables\",reason=\"route_full\"} 7\n",
	"batsec_drops_total{stage=\"parser\",reason=\"malformed\"} 3\n",
	"batsec_drops_total{stage=\"parser\",reason=\"table_full\"} 8\n",
	"batsec_table_entries{table=\"relay_waiting\"} 1\n",
	"batsec_table_entries{table=\"fwd_routes\"} 2\n",
	"batsec_table_entries{table=\"originators\"} 2\n",
	"batsec_verify_under_load 1\n",
	"batsec_signatures_total{result=\"verified\"} 9\n",
	"batsec_data_frames_total{direction=\"rx\"} 10\n",
	"batsec_data_bytes_total{direction=\"tx\"} 11\n",
	"batsec_parser_restarts_total 2\n",
	"# TYPE batsec_tx_hello_total counter\nbatsec_tx_hello_total 12\n",
	"# TYPE batsec_parser_spawns_total counter\n"
	    "batsec_parser_spawns_total 3\n",
	"batsec_neighbour_tq{interface=\"m\\\"1\\\\x\","
	    "neighbour=\"02:00:00:00:00:03\"} 240\n",
	"batsec_neighbour_last_seen_seconds{interface=\"m\\\"1\\\\x\","
	    "neighbour=\"02:00:00:00:00:03\"} 1.500\n",
	"batsec_interface_active{interface=\"m\\\"1\\\\x\"} 1\n",
	"batsec_interface_neighbours{interface=\"m\\\"1\\\\x\"} 1\n",
	"batsec_gateway_tq{gateway=\"02:00:00:00:00:03\"} 240\n",
	"batsec_gateway_selected{gateway=\"02:00:00:00:00:03\"} 1\n",
};

START_TEST(test_metrics)
{
	struct ctl_mon_in in;
	struct t_mem m;
	char *out;
	size_t i;

	t_node(&in);
	t_mem_begin(&m);
	ck_assert_int_eq(ctl_metrics_prom(m.f, &in), 0);
	out = t_mem_end(&m);
	for (i = 0; i < sizeof(metric_lines) / sizeof(metric_lines[0]); i++)
		ck_assert_msg(t_count(out, metric_lines[i]) == 1,
		    "once: %s in\n%s", metric_lines[i], out);
	/* One family per kind, the srcN_ slots left out, every sample
	 * after a TYPE line. */
	ck_assert_uint_eq(t_count(out, "# TYPE batsec_drops_total "), 1);
	ck_assert_uint_eq(t_count(out, "\nbatsec_drops_total{"), 7);
	ck_assert_uint_eq(t_count(out, "src1"), 0);
	ck_assert_uint_eq(t_count(out, "# TYPE "), t_count(out, "# HELP "));
	ck_assert_uint_eq(t_count(out, "# TYPE "), 19);
	free(out);
	ctl_mon_in_free(&in);
}
END_TEST

START_TEST(test_metrics_down)
{
	struct ctl_mon_in in;
	struct t_mem m;
	char *out;

	t_node(&in);
	in.up = 0;
	t_mem_begin(&m);
	ck_assert_int_eq(ctl_metrics_prom(m.f, &in), 0);
	out = t_mem_end(&m);
	ck_assert_str_eq(out, "# HELP batsec_up 1 when batsecd answered on "
	    "its control socket.\n# TYPE batsec_up gauge\nbatsec_up 0\n");
	free(out);
	ctl_mon_in_free(&in);
}
END_TEST

/* ---- nodeinfo ----------------------------------------------------------------- */

START_TEST(test_nodeinfo)
{
	struct ctl_mon_in in;
	struct t_mem m;
	char *out;

	t_node(&in);
	t_mem_begin(&m);
	ck_assert_int_eq(ctl_metrics_nodeinfo(m.f, &in, "h\"o\\st\n"), 0);
	out = t_mem_end(&m);
	ck_assert_str_eq(out,
	    "{\"nodeinfo\":{\"node_id\":\"020000000002\","
	    "\"hostname\":\"h\\\"o\\\\st\\u000a\","
	    "\"network\":{\"mac\":\"02:00:00:00:00:02\","
	    "\"mesh\":{\"batsec\":{\"interfaces\":{\"other\":"
	    "[\"0a:00:00:00:00:01\"]}}}},"
	    "\"software\":{\"batsec\":{\"version\":\"0.1.0\",\"protocol\":1}},"
	    "\"batsec\":{\"key\":\"AAAA/+==\"}},"
	    "\"statistics\":{\"node_id\":\"020000000002\",\"uptime\":61.005,"
	    "\"clients\":{\"total\":1},\"gateway\":\"02:00:00:00:00:03\","
	    "\"gateway_nexthop\":\"02:00:00:00:00:03\"},"
	    "\"neighbours\":{\"node_id\":\"020000000002\",\"batsec\":{"
	    "\"0a:00:00:00:00:01\":{\"interface\":\"m\\\"1\\\\x\","
	    "\"neighbours\":{\"02:00:00:00:00:03\":{\"tq\":240,"
	    "\"lastseen\":1.500,\"mac\":\"0a:00:00:00:00:03\","
	    "\"key\":\"BBBB\"}}}}}}\n");
	free(out);
	ctl_mon_in_free(&in);
}
END_TEST

/* Nothing known (a daemon that answered with empty replies). */
START_TEST(test_nodeinfo_empty)
{
	struct ctl_mon_in in;
	struct t_mem m;
	char *out;

	memset(&in, 0, sizeof(in));
	in.up = 1;
	t_mem_begin(&m);
	ck_assert_int_eq(ctl_metrics_nodeinfo(m.f, &in, ""), 0);
	out = t_mem_end(&m);
	ck_assert_str_eq(out,
	    "{\"nodeinfo\":{\"node_id\":\"\",\"hostname\":\"\","
	    "\"network\":{\"mac\":\"\",\"mesh\":{\"batsec\":{\"interfaces\":"
	    "{\"other\":[]}}}},\"software\":{\"batsec\":{\"version\":\"\","
	    "\"protocol\":0}},\"batsec\":{\"key\":\"\"}},"
	    "\"statistics\":{\"node_id\":\"\",\"uptime\":0.000,"
	    "\"clients\":{\"total\":0}},"
	    "\"neighbours\":{\"node_id\":\"\",\"batsec\":{}}}\n");
	free(out);
}
END_TEST

/* ---- suite -------------------------------------------------------------- */

static Suite *
ctl_mon_suite(void)
{
	Suite *s = suite_create("ctl_mon");
	TCase *tc;

	tc = tcase_create("prom");
	tcase_add_loop_test(tc, test_names, 0, T_NELEM(names));
	tcase_add_test(tc, test_escapes);
	tcase_add_loop_test(tc, test_refused, 0, MU_N);
	tcase_add_test(tc, test_family_limit);
	suite_add_tcase(s, tc);
	tc = tcase_create("render");
	tcase_add_test(tc, test_metrics);
	tcase_add_test(tc, test_metrics_down);
	tcase_add_test(tc, test_nodeinfo);
	tcase_add_test(tc, test_nodeinfo_empty);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(ctl_mon_suite());
}
