/*
 * ctl_ping.c — batsec-ctl ping: echo requests through the mesh to an
 * originator, sent and timed by batsecd; one connection per echo, then
 * the reply polled for.  Ctrl-C stops it with the summary.  And
 * batsec-ctl traceroute: TRACE probes of TTL 1, 2, ... the same way,
 * each answered by the relay where its TTL ran out or by the destination.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl_client.h"
#include "ctl_ping.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

#define CTL_PING_COUNT_MAX	100000
#define CTL_PING_FRAME_LEN	20	/* an ECHO frame (batsec-protocol(7)) */
#define CTL_TRACE_FRAME_LEN	74	/* a TRACE frame, all of it */
#define CTL_TRACE_PROBES_MAX	10
#define CTL_TRACE_HOPS_MAX	255

/* How a probe ended: */
enum {
	CTL_PROBE_NONE = 0,		/* no answer in time */
	CTL_PROBE_REPLIED,		/* the destination answered */
	CTL_PROBE_EXPIRED,		/* a relay answered (hop) */
};

struct ctl_ping_opts {
	long count;			/* -c */
	double interval;		/* -i, seconds */
	double wait;			/* -W, seconds per reply */
};

static double
ctl_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Set by SIGINT during a ping: stop and print the statistics. */
static volatile sig_atomic_t ctl_ping_stop;

static void
ctl_ping_sigint(int sig)
{
	(void)sig;
	ctl_ping_stop = 1;
}

static void
ctl_sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !ctl_ping_stop)
		;
}

/* A whole decimal number in [lo, hi] into *out: 0, or -1. */
static int
ctl_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (*s == '\0' || *s == '+' || *s == '-' || *s == ' ')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* Option -opt's argument, what (1 to max) into *v: 0, or the usage error. */
static int
ctl_opt_count(const struct ctl_cmd *cmd, int opt, const char *what,
    uint64_t max, uint64_t *v)
{
	if (ctl_parse_u64(optarg, max, v) != 0 || *v == 0)
		return ctl_usage_err(cmd, "-%c: %s of 1 to %" PRIu64, opt, what,
		    max);
	return 0;
}

/* Option -opt's argument, 0.01 to 60 seconds into *s: 0, or the error. */
static int
ctl_opt_secs(const struct ctl_cmd *cmd, int opt, double *s)
{
	if (ctl_num(optarg, 0.01, 60, s) != 0)
		return ctl_usage_err(cmd, "-%c: 0.01 to 60 seconds", opt);
	return 0;
}

/* SIGINT stops a ping or traceroute, which still prints what it has. */
static void
ctl_ping_catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ctl_ping_sigint;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, NULL);
}

static int
ctl_ping_opts(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv, struct ctl_ping_opts *o)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "wait", required_argument, NULL, 'W' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t count;
	int ch, rc;

	o->count = 5;
	o->interval = 1;
	o->wait = 1;
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":c:i:W:jh", opts, NULL)) != -1) {
		if (ch == 'c') {
			if ((rc = ctl_opt_count(cmd, ch, "a count",
			    CTL_PING_COUNT_MAX, &count)) != 0)
				return rc;
			o->count = (long)count;
		} else if (ch == 'i' || ch == 'W') {
			if ((rc = ctl_opt_secs(cmd, ch, ch == 'i' ?
			    &o->interval : &o->wait)) != 0)
				return rc;
		} else if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help_shown(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if (argc - optind != 1)
		return ctl_usage_err(cmd, "takes one address");
	return 0;
}

/* Field name of the first record of in: 0 and *f, or -1 after reporting. */
static int
ctl_first_field(const struct ctl *ctl, const struct ctl_in *in,
    const char *name, int type, struct ctlp_field *out)
{
	struct ctlp_record rec;
	const struct ctlp_field *f;
	size_t pos = 0;

	if (ctl_in_next(in, &pos, &rec) != 0 ||
	    (f = ctl_field(&rec, name)) == NULL || f->type != type) {
		ctl_warnx("%s: malformed reply: no %s", ctl->sock, name);
		return -1;
	}
	*out = *f;
	return 0;
}

/*
 * Wait up to wait seconds for the answer to request seqno:
 * CTL_PROBE_REPLIED or _EXPIRED with *rtt_us (and the relay in hop),
 * CTL_PROBE_NONE, or -1 the exchange failed (reported).
 */
static int
ctl_ping_wait(struct ctl *ctl, int fd, uint64_t seqno, double wait,
    uint64_t *rtt_us, char *hop, size_t hoplen)
{
	char arg[24];
	const char *args[1] = { arg };
	double end = ctl_now_s() + wait, pause = 0.001;
	struct ctl_in in = { NULL, 0, 0, 0 };
	struct ctlp_field st, rtt;
	int r = 0;

	(void)snprintf(arg, sizeof(arg), "%" PRIu64, seqno);
	for (;;) {
		in.len = in.records = 0;
		if (ctl_exchange(ctl, fd, CTLP_CMD_PING_RESULT, 1, args,
		    &in) != 0 || ctl_first_field(ctl, &in, "state",
		    CTLP_F_STR, &st) != 0 || ctl_first_field(ctl, &in,
		    "rtt_us", CTLP_F_U64, &rtt) != 0) {
			r = -1;
			break;
		}
		if (st.str_len == 7 && memcmp(st.str, "replied", 7) == 0) {
			*rtt_us = rtt.u64;
			r = CTL_PROBE_REPLIED;
			break;
		}
		if (st.str_len == 7 && memcmp(st.str, "expired", 7) == 0) {
			if (ctl_first_field(ctl, &in, "hop", CTLP_F_STR,
			    &st) != 0) {
				r = -1;
				break;
			}
			(void)snprintf(hop, hoplen, "%.*s", (int)st.str_len,
			    st.str);
			*rtt_us = rtt.u64;
			r = CTL_PROBE_EXPIRED;
			break;
		}
		if (ctl_now_s() >= end || ctl_ping_stop)
			break;
		ctl_sleep_s(pause);
		if (pause < 0.01)
			pause *= 2;
	}
	free(in.buf);
	return r;
}

/*
 * One echo: a connection of its own (batsecd drops a client idle for 10
 * s, and -i may be longer), the request, then the wait for its reply.
 * A TRACE probe with ttl when ttl is not 0.  As ctl_ping_wait, but 1 for
 * a reply; orig gets the originator batsecd sent the request to.
 */
static int
ctl_probe_one(struct ctl *ctl, const struct ctl_cmd *cmd, const char *target,
    unsigned ttl, double wait, char *orig, size_t origlen, uint64_t *rtt_us,
    char *hop, size_t hoplen)
{
	struct ctl_in in = { NULL, 0, 0, 0 };
	struct ctlp_field seq, addr;
	char ttls[8];
	const char *args[2] = { target, ttls };
	int fd, r = -1;

	(void)snprintf(ttls, sizeof(ttls), "%u", ttl);
	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return -1;
	if (ctl_exchange(ctl, fd, ttl != 0 ? CTLP_CMD_TRACE : CTLP_CMD_PING,
	    ttl != 0 ? 2 : 1, args, &in) == 0 &&
	    ctl_first_field(ctl, &in, "seqno", CTLP_F_U64, &seq) == 0 &&
	    ctl_first_field(ctl, &in, "address", CTLP_F_STR, &addr) == 0) {
		(void)snprintf(orig, origlen, "%.*s", (int)addr.str_len,
		    addr.str);
		r = ctl_ping_wait(ctl, fd, seq.u64, wait, rtt_us, hop,
		    hoplen);
	}
	(void)close(fd);
	free(in.buf);
	return r;
}

static int
ctl_ping_one(struct ctl *ctl, const struct ctl_cmd *cmd, const char *target,
    double wait, char *orig, size_t origlen, uint64_t *rtt_us)
{
	char hop[CTLP_STR_MAX + 1];

	return ctl_probe_one(ctl, cmd, target, 0, wait, orig, origlen, rtt_us,
	    hop, sizeof(hop));
}

/*
 * ping ADDRESS: echo requests through the mesh, one every interval; the
 * round trip is timed by batsecd, from the request leaving to the reply
 * arriving.
 */
int
ctl_ping(struct ctl *ctl, const struct ctl_cmd *cmd, int argc, char **argv)
{
	struct ctl_ping_opts o;
	const char *target;
	char orig[CTLP_STR_MAX + 1] = "";
	uint64_t rtt = 0, sum = 0, lo = 0, hi = 0;
	long k, sent = 0, got = 0;
	double t0;
	int rc, r;

	if ((rc = ctl_ping_opts(ctl, cmd, argc, argv, &o)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	target = argv[optind];
	ctl_ping_catch_sigint();
	if (ctl->json)
		(void)printf("{\"replies\":[");
	for (k = 1; k <= o.count && !ctl_ping_stop; k++) {
		t0 = ctl_now_s();
		if ((r = ctl_ping_one(ctl, cmd, target, o.wait, orig,
		    sizeof(orig), &rtt)) < 0) {
			rc = CTL_EXIT_FAIL;
			break;
		}
		if (sent++ == 0 && !ctl->json)
			(void)printf("PING %s (%s): %d bytes\n", target, orig,
			    CTL_PING_FRAME_LEN);
		if (r == 1) {
			got++;
			sum += rtt;
			lo = got == 1 || rtt < lo ? rtt : lo;
			hi = rtt > hi ? rtt : hi;
		}
		if (ctl->json) {
			(void)printf("%s{\"seq\":%ld,\"rtt_us\":", k == 1 ? "" :
			    ",", k);
			if (r == 1)
				(void)printf("%" PRIu64 "}", rtt);
			else
				(void)printf("null}");
		} else if (r == 1)
			(void)printf("%d bytes from %s: seq=%ld time=%" PRIu64
			    ".%03" PRIu64 " ms\n", CTL_PING_FRAME_LEN, orig, k,
			    rtt / 1000, rtt % 1000);
		else
			(void)printf("no reply from %s: seq=%ld\n", orig, k);
		(void)fflush(stdout);
		if (k < o.count && !ctl_ping_stop)
			ctl_sleep_s(t0 + o.interval - ctl_now_s());
	}
	if (ctl->json) {
		(void)printf("],\"address\":");
		ctl_json_str(orig);
		(void)printf(",\"transmitted\":%ld,\"received\":%ld}\n", sent,
		    got);
	} else if (sent > 0) {
		(void)printf("--- %s ping statistics ---\n"
		    "%ld transmitted, %ld received, %ld%% loss\n", target,
		    sent, got, (sent - got) * 100 / sent);
		if (got > 0)
			(void)printf("rtt min/avg/max = %" PRIu64 ".%03" PRIu64
			    "/%" PRIu64 ".%03" PRIu64 "/%" PRIu64 ".%03" PRIu64
			    " ms\n", lo / 1000, lo % 1000,
			    sum / (uint64_t)got / 1000,
			    sum / (uint64_t)got % 1000, hi / 1000, hi % 1000);
	}
	if (ctl_flush_stdout() != 0)
		return CTL_EXIT_FAIL;
	return rc == 0 && got > 0 ? CTL_EXIT_OK : CTL_EXIT_FAIL;
}

/*
 * The names of the trusted keys, by mesh address (trust list): *names
 * filled, 0; -1 when they could not be had (reported).
 */
static int
ctl_trace_names(struct ctl *ctl, const struct ctl_cmd *cmd,
    struct ctl_in *names)
{
	int fd, r;

	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return -1;
	r = ctl_exchange(ctl, fd, CTLP_CMD_TRUST_LIST, 0, NULL, names);
	(void)close(fd);
	return r;
}

/* The name the trust list gives addr: its field, or NULL. */
static const struct ctlp_field *
ctl_trace_name(const struct ctl_in *names, const char *addr,
    struct ctlp_record *rec)
{
	const struct ctlp_field *a, *n;
	size_t pos = 0;

	while (ctl_in_next(names, &pos, rec) == 0) {
		if ((a = ctl_field(rec, "address")) != NULL &&
		    (n = ctl_field(rec, "name")) != NULL &&
		    a->type == CTLP_F_STR && n->type == CTLP_F_STR &&
		    n->str_len > 0 && a->str_len == strlen(addr) &&
		    memcmp(a->str, addr, a->str_len) == 0)
			return n;
	}
	return NULL;
}

struct ctl_trace_opts {
	unsigned probes;		/* -c, per hop */
	double wait;			/* -w, seconds per probe */
	unsigned max_hops;		/* -m */
};

static int
ctl_trace_opts(const struct ctl_cmd *cmd, int argc, char **argv,
    struct ctl_trace_opts *o)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "wait", required_argument, NULL, 'w' },
		{ "max-hops", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t v;
	int ch, rc;

	o->probes = 3;
	o->wait = 1;
	o->max_hops = 30;
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":c:w:m:h", opts, NULL)) != -1) {
		if (ch == 'c') {
			if ((rc = ctl_opt_count(cmd, ch, "a probe count",
			    CTL_TRACE_PROBES_MAX, &v)) != 0)
				return rc;
			o->probes = (unsigned)v;
		} else if (ch == 'w') {
			if ((rc = ctl_opt_secs(cmd, ch, &o->wait)) != 0)
				return rc;
		} else if (ch == 'm') {
			if ((rc = ctl_opt_count(cmd, ch, "a hop count",
			    CTL_TRACE_HOPS_MAX, &v)) != 0)
				return rc;
			o->max_hops = (unsigned)v;
		} else if (ch == 'h')
			return ctl_help_shown(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if (argc - optind != 1)
		return ctl_usage_err(cmd, "takes one address");
	return 0;
}

/* The mesh address addr, and " (NAME)" when the trust list names it. */
static void
ctl_trace_addr(const struct ctl *ctl, const struct ctl_in *names,
    const char *addr)
{
	char name[CTLP_STR_MAX + 1];
	const struct ctlp_field *nm;
	struct ctlp_record rec;

	name[0] = '\0';
	if ((nm = ctl_trace_name(names, addr, &rec)) != NULL)
		(void)snprintf(name, sizeof(name), "%.*s", (int)nm->str_len,
		    nm->str);
	if (!ctl->json) {
		(void)printf(" %s", addr);
		if (name[0] != '\0')
			(void)printf(" (%s)", name);
		return;
	}
	(void)printf("\"address\":");
	ctl_json_str(addr);
	if (name[0] != '\0') {
		(void)printf(",\"name\":");
		ctl_json_str(name);
	}
}

/*
 * traceroute ADDRESS: for TTL 1, 2, ... up to -m, -c TRACE probes one
 * after the other, each waited for -w seconds; a line per TTL with the
 * node that answered (the first one, when probes got different ones) and
 * each probe's round trip, "*" for none; the node's name after its
 * address when the trust list has one.  With -j one object: "hops", an
 * array of {"ttl", "address" (null: none answered), "name" (when known),
 * "rtt_us": [µs or null a probe]}, the "address" asked and "reached".
 * It stops at the TTL the destination answered; exit 0 only then.
 */
int
ctl_traceroute(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	struct ctl_trace_opts o;
	const char *target;
	char orig[CTLP_STR_MAX + 1] = "", hop[CTLP_STR_MAX + 1];
	char shown[CTLP_STR_MAX + 1];
	struct ctl_in names = { NULL, 0, 0, 0 };
	uint64_t rtt[CTL_TRACE_PROBES_MAX];
	int res[CTL_TRACE_PROBES_MAX];
	unsigned ttl, k, n;
	int rc = 0, reached = 0;

	if ((rc = ctl_trace_opts(cmd, argc, argv, &o)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	target = argv[optind];
	if (ctl_trace_names(ctl, cmd, &names) != 0) {
		free(names.buf);
		return CTL_EXIT_FAIL;
	}
	ctl_ping_catch_sigint();
	if (ctl->json)
		(void)printf("{\"hops\":[");
	for (ttl = 1; ttl <= o.max_hops && !reached && !ctl_ping_stop &&
	    rc == 0; ttl++) {
		shown[0] = '\0';
		for (n = 0; n < o.probes && !ctl_ping_stop; n++) {
			if ((res[n] = ctl_probe_one(ctl, cmd, target, ttl,
			    o.wait, orig, sizeof(orig), &rtt[n], hop,
			    sizeof(hop))) < 0) {
				rc = -1;
				break;
			}
			if (ttl == 1 && n == 0 && !ctl->json)
				(void)printf("traceroute to %s (%s), %u hops "
				    "max, %d byte packets\n", target, orig,
				    o.max_hops, CTL_TRACE_FRAME_LEN);
			if (n == 0 && !ctl->json)
				(void)printf("%2u:", ttl);
			if (res[n] == CTL_PROBE_REPLIED) {
				reached = 1;
				(void)snprintf(hop, sizeof(hop), "%s", orig);
			}
			if (res[n] != CTL_PROBE_NONE && shown[0] == '\0') {
				(void)snprintf(shown, sizeof(shown), "%s", hop);
				if (!ctl->json)
					ctl_trace_addr(ctl, &names, shown);
			}
			if (ctl->json)
				continue;
			if (res[n] == CTL_PROBE_NONE)
				(void)printf(" *");
			else
				(void)printf("  %" PRIu64 ".%03" PRIu64 " ms",
				    rtt[n] / 1000, rtt[n] % 1000);
			(void)fflush(stdout);
		}
		if (!ctl->json) {
			if (n > 0)
				(void)printf("\n");
			continue;
		}
		if (n == 0)
			continue;
		(void)printf("%s{\"ttl\":%u,", ttl == 1 ? "" : ",", ttl);
		if (shown[0] != '\0')
			ctl_trace_addr(ctl, &names, shown);
		else
			(void)printf("\"address\":null");
		(void)printf(",\"rtt_us\":[");
		for (k = 0; k < n; k++) {
			if (res[k] == CTL_PROBE_NONE)
				(void)printf("%snull", k == 0 ? "" : ",");
			else
				(void)printf("%s%" PRIu64, k == 0 ? "" : ",",
				    rtt[k]);
		}
		(void)printf("]}");
	}
	free(names.buf);
	if (ctl->json) {
		(void)printf("],\"address\":");
		ctl_json_str(orig);
		(void)printf(",\"reached\":%s}\n", reached ? "true" : "false");
	}
	if (ctl_flush_stdout() != 0 || rc != 0)
		return CTL_EXIT_FAIL;
	if (!reached) {
		ctl_warnx("%s (%s) not reached within %u hops", target, orig,
		    o.max_hops);
		return CTL_EXIT_FAIL;
	}
	return CTL_EXIT_OK;
}
