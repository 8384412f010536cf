/*
 * check_fwd_settings.c — runtime settings (config_set_runtime and
 * config_get_runtime, what `batsec-ctl set` and `get` run) and the event
 * ring of `batsec-ctl event` (fwd_events.h): wrap-around, the lost count,
 * cursors, cut and cleaned text.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "common/config.h"
#include "forwarder/fwd_events.h"
#include "lib/t_check.h"

#define ERRLEN	512

/* ---- settings ---------------------------------------------------------- */

struct set_case {
	const char *argv[4];
	size_t argc;
	const char *name;	/* read back with config_get_runtime */
	const char *want;	/* the value read back */
};

static const struct set_case set_ok[] = {
	{ { "hop-penalty", "0" }, 2, "hop-penalty", "0" },
	{ { "hop-penalty", "255" }, 2, "hop-penalty", "255" },
	{ { "orig-interval", "100" }, 2, "orig-interval", "100" },
	{ { "orig-interval", "60000" }, 2, "orig-interval", "60000" },
	{ { "hello-interval", "250" }, 2, "hello-interval", "250" },
	{ { "gateway", "server", "10mbit/2mbit" }, 3, "gateway",
	  "server 10000/2000" },
	{ { "gateway", "off" }, 2, "gateway", "off" },
	{ { "gateway", "client" }, 2, "gateway", "client" },
	{ { "gw-mode", "client" }, 2, "gw-mode", "client" },
	{ { "gw-mode", "server", "5m/1m" }, 3, "gateway", "server 5000/1000" },
	{ { "gw-sel-class", "1" }, 2, "gw-sel-class", "1" },
	{ { "gw-sel-class", "255" }, 2, "gw-sel-class", "255" },
	{ { "log-level", "debug" }, 2, "log-level", "debug" },
	{ { "log-level", "error" }, 2, "log-level", "error" },
	{ { "ap-isolation", "on" }, 2, "ap-isolation", "on" },
	{ { "ap-isolation", "off" }, 2, "ap-isolation", "off" },
	{ { "dat", "off" }, 2, "dat", "off" },
	{ { "dat", "on" }, 2, "dat", "on" },
};

START_TEST(test_set_ok)
{
	const struct set_case *c = &set_ok[_i];
	struct bs_config cfg;
	char err[ERRLEN], val[64];

	config_defaults(&cfg);
	if (strcmp(c->name, "gateway") == 0 && strcmp(c->want, "off") == 0) {
		const char *on[] = { "gateway", "server", "1m/1m" };

		ck_assert_int_eq(config_set_runtime(&cfg, 3, on, err, ERRLEN),
		    0);
	}
	ck_assert_msg(config_set_runtime(&cfg, c->argc, c->argv, err,
	    ERRLEN) == 0, "%s: %s", c->argv[0], err);
	ck_assert_int_ge(config_get_runtime(&cfg, c->name, val, sizeof(val)),
	    1);
	ck_assert_str_eq(val, c->want);
}
END_TEST

/*
 * Refused values: the message is the file parser's own, without the
 * "file:line: " before it, because both run the same code.
 */
struct bad_case {
	const char *argv[4];
	size_t argc;
	const char *want;	/* the whole message */
};

static const struct bad_case set_bad[] = {
	{ { "hop-penalty", "256" }, 2,
	  "hop-penalty: 256 is out of range 0..255" },
	{ { "hop-penalty", "-1" }, 2,
	  "hop-penalty: '-1' is not a decimal number" },
	{ { "orig-interval", "99" }, 2,
	  "orig-interval: 99 is out of range 100..60000" },
	{ { "hello-interval", "60001" }, 2,
	  "hello-interval: 60001 is out of range 100..60000" },
	{ { "gateway", "proxy" }, 2,
	  "gateway: 'proxy' is not 'off', 'client' or 'server'" },
	{ { "gw-mode", "client", "1m/1m" }, 3,
	  "gw-mode: unexpected argument '1m/1m' after 'client'" },
	{ { "gw-sel-class", "0" }, 2,
	  "gw-sel-class: 0 is out of range 1..255" },
	{ { "gw-sel-class", "256" }, 2,
	  "gw-sel-class: 256 is out of range 1..255" },
	{ { "gateway", "server", "150k/1m" }, 3,
	  "gateway: bandwidth '150k' is 150 kbit/s, not a multiple of "
	  "100 kbit/s" },
	{ { "log-level", "verbose" }, 2,
	  "log-level: 'verbose' is not one of error, warning, info, debug" },
	{ { "ap-isolation", "yes" }, 2,
	  "ap-isolation: 'yes' is neither 'on' nor 'off'" },
	{ { "ap-isolation", "on", "off" }, 3, "ap-isolation: too many values" },
	{ { "dat", "yes" }, 2, "dat: 'yes' is not on or off" },
	{ { "hop-penalty" }, 1, "hop-penalty: missing value" },
	{ { "hop-penalty", "1", "2" }, 3, "hop-penalty: too many values" },
	{ { "ethertype", "0x88b6" }, 2, "'ethertype' cannot be set at run "
	  "time (one of hop-penalty, orig-interval, hello-interval, gateway, "
	  "gw-sel-class, log-level, ap-isolation, dat)" },
	{ { "interface", "eth9" }, 2, "'interface' cannot be set at run "
	  "time (one of hop-penalty, orig-interval, hello-interval, gateway, "
	  "gw-sel-class, log-level, ap-isolation, dat)" },
	{ { "nonsense", "1" }, 2, "'nonsense' cannot be set at run time "
	  "(one of hop-penalty, orig-interval, hello-interval, gateway, "
	  "gw-sel-class, log-level, ap-isolation, dat)" },
};

START_TEST(test_set_bad)
{
	const struct bad_case *c = &set_bad[_i];
	struct bs_config cfg, before;
	char err[ERRLEN], ferr[ERRLEN], text[256];
	size_t i, n;

	config_defaults(&cfg);
	before = cfg;
	ck_assert_int_eq(config_set_runtime(&cfg, c->argc, c->argv, err,
	    ERRLEN), -1);
	ck_assert_str_eq(err, c->want);
	ck_assert_int_eq(config_equal(&cfg, &before), 1);
	/* A value the file refuses too, with the same words after "f:1: ". */
	if (strstr(c->want, "at run time") != NULL || c->argc < 2 ||
	    strstr(c->want, "too many") != NULL)
		return;
	for (i = 0, n = 0; i < c->argc; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s",
		    i ? " " : "", c->argv[i]);
	ck_assert_int_eq(config_parse_buf(&cfg, text, n, "f", ferr, ERRLEN),
	    -1);
	ck_assert_str_eq(ferr + strlen("f:1: "), err);
}
END_TEST

START_TEST(test_get)
{
	struct bs_config cfg;
	char val[64], dump[BS_CONF_DUMP_MAX], line[96];
	const char *name;
	size_t i;

	config_defaults(&cfg);
	ck_assert_int_eq(config_get_runtime(&cfg, "ethertype", val,
	    sizeof(val)), -1);
	ck_assert_int_eq(config_get_runtime(&cfg, "hop-penalty", val, 2), -1);
	ck_assert_int_gt(config_dump(&cfg, dump, sizeof(dump)), 0);
	/* Every runtime setting is in the dump, spelled as get gives it. */
	for (i = 0; (name = config_runtime_name(i)) != NULL; i++) {
		ck_assert_int_gt(config_get_runtime(&cfg, name, val,
		    sizeof(val)), 0);
		snprintf(line, sizeof(line), "\n%s %s\n", name, val);
		ck_assert_msg(strstr(dump, line) != NULL, "%s", line);
	}
	ck_assert_uint_eq(i, 8);
}
END_TEST

/* ---- the event ring ---------------------------------------------------- */

static struct fwd_events ev;	/* large: not on the stack */

static void
add_n(uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = from; i <= to; i++)
		fwd_events_add(&ev, 1000 + i, FWD_EV_ROUTE, "add", NULL,
		    "n %llu", (unsigned long long)i);
}

START_TEST(test_ring_basic)
{
	const struct fwd_event *out[FWD_EVENTS_BATCH];
	uint64_t lost = 99;

	fwd_events_init(&ev);
	ck_assert_uint_eq(fwd_events_since(&ev, 0, out, FWD_EVENTS_BATCH,
	    &lost), 0);
	ck_assert_uint_eq(lost, 0);
	add_n(1, 10);
	ck_assert_uint_eq(ev.last, 10);
	ck_assert_uint_eq(fwd_events_since(&ev, 0, out, FWD_EVENTS_BATCH,
	    &lost), 10);
	ck_assert_uint_eq(lost, 0);
	ck_assert_uint_eq(out[0]->seq, 1);
	ck_assert_str_eq(out[9]->detail, "n 10");
	ck_assert_uint_eq(out[9]->time_ms, 1010);
	ck_assert_uint_eq(fwd_events_since(&ev, 7, out, FWD_EVENTS_BATCH,
	    &lost), 3);
	ck_assert_uint_eq(out[0]->seq, 8);
	ck_assert_uint_eq(fwd_events_since(&ev, 10, out, FWD_EVENTS_BATCH,
	    &lost), 0);
	/* A cursor from before a restart of the daemon: from the start. */
	ck_assert_uint_eq(fwd_events_since(&ev, 500, out, FWD_EVENTS_BATCH,
	    &lost), 10);
	ck_assert_uint_eq(out[0]->seq, 1);
	ck_assert_uint_eq(lost, 0);
}
END_TEST

START_TEST(test_ring_wrap)
{
	const struct fwd_event *out[FWD_EVENTS_BATCH];
	uint64_t lost = 0, cur;
	size_t n, total = 0;

	fwd_events_init(&ev);
	add_n(1, 300);
	/* 300 happened, 256 kept: a client at 0 lost the first 44. */
	n = fwd_events_since(&ev, 0, out, FWD_EVENTS_BATCH, &lost);
	ck_assert_uint_eq(lost, 44);
	ck_assert_uint_eq(n, FWD_EVENTS_BATCH);
	ck_assert_uint_eq(out[0]->seq, 45);
	ck_assert_str_eq(out[0]->detail, "n 45");
	/* Reading on from there loses nothing more, up to the last. */
	cur = out[n - 1]->seq;
	total = n;
	while ((n = fwd_events_since(&ev, cur, out, FWD_EVENTS_BATCH,
	    &lost)) > 0) {
		ck_assert_uint_eq(lost, 0);
		ck_assert_uint_eq(out[0]->seq, cur + 1);
		cur = out[n - 1]->seq;
		total += n;
	}
	ck_assert_uint_eq(cur, 300);
	ck_assert_uint_eq(total, FWD_EVENTS_RING);
	/* Just at the edge: cursor 44 loses none, 43 loses one. */
	fwd_events_since(&ev, 44, out, 1, &lost);
	ck_assert_uint_eq(lost, 0);
	ck_assert_uint_eq(out[0]->seq, 45);
	fwd_events_since(&ev, 43, out, 1, &lost);
	ck_assert_uint_eq(lost, 1);
	ck_assert_uint_eq(out[0]->seq, 45);
}
END_TEST

START_TEST(test_ring_text)
{
	const struct fwd_event *out[1];
	static const uint8_t addr[6] = { 2, 0, 0, 0, 0, 9 };
	char longer[300];
	uint64_t lost;

	fwd_events_init(&ev);
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	fwd_events_add(&ev, 5, FWD_EV_TRUST, "block\nme-and-more-than-15",
	    addr, "a\tb %s", longer);
	ck_assert_uint_eq(fwd_events_since(&ev, 0, out, 1, &lost), 1);
	ck_assert_str_eq(out[0]->action, "block?me-and-mo");
	ck_assert_uint_eq(strlen(out[0]->detail), FWD_EVENT_DETAIL_MAX);
	ck_assert_int_eq(strncmp(out[0]->detail, "a?b xxx", 7), 0);
	ck_assert_uint_eq(out[0]->has_addr, 1);
	ck_assert_mem_eq(out[0]->addr, addr, 6);
	ck_assert_str_eq(fwd_event_kind_name(out[0]->kind), "trust");
	ck_assert_str_eq(fwd_event_kind_name(FWD_EV_KINDS), "?");
	fwd_events_note(&ev, FWD_EV_SETTING, "set", NULL, "hop-penalty %d",
	    60);
	ck_assert_uint_eq(fwd_events_since(&ev, 1, out, 1, &lost), 1);
	ck_assert_uint_eq(out[0]->has_addr, 0);
	ck_assert_uint_gt(out[0]->time_ms, 1600000000000ULL);
}
END_TEST

static Suite *
settings_suite(void)
{
	Suite *s = suite_create("fwd_settings");
	TCase *tc;

	tc = tcase_create("settings");
	tcase_add_loop_test(tc, test_set_ok, 0, T_NELEM(set_ok));
	tcase_add_loop_test(tc, test_set_bad, 0, T_NELEM(set_bad));
	tcase_add_test(tc, test_get);
	suite_add_tcase(s, tc);
	tc = tcase_create("events");
	tcase_add_test(tc, test_ring_basic);
	tcase_add_test(tc, test_ring_wrap);
	tcase_add_test(tc, test_ring_text);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(settings_suite());
}
