/*
 * ctl_settings.c — batsec-ctl set NAME VALUE, get [NAME] (one request
 * each, ctl_daemon.c) and event: the daemon's event ring polled every
 * CTL_EVENT_POLL_MS with a cursor (the number of the last event shown)
 * over one connection, printed as lines or JSON lines until interrupted.
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
#include "ctl_daemon.h"
#include "ctl_render.h"
#include "ctl_settings.h"
#include "ctl_util.h"
#include "proto/ctlproto.h"

#define CTL_EVENT_POLL_MS	200

/* ---- set / get ------------------------------------------------------------------ */

static int
ctl_set_words(const struct ctl_cmd *cmd, int n, char **ops)
{
	(void)ops;
	if (n < 2)
		return ctl_usage_err(cmd, "needs a NAME and a VALUE");
	if (n > 3)
		return ctl_usage_err(cmd, "too many arguments");
	return 0;
}

static int
ctl_get_words(const struct ctl_cmd *cmd, int n, char **ops)
{
	(void)ops;
	if (n > 1)
		return ctl_usage_err(cmd, "takes at most one NAME");
	return 0;
}

static const struct ctl_dcmd ctl_settings_dcmds[] = {
	{ "set", CTLP_CMD_SET, CTL_OPS_WORDS, ctl_set_words, CTL_SHAPE_OBJECT,
	  NULL },
	{ "get", CTLP_CMD_GET, CTL_OPS_WORDS, ctl_get_words, CTL_SHAPE_OBJECT,
	  NULL },
	{ NULL, NULL, CTL_OPS_NONE, NULL, CTL_SHAPE_NONE, NULL }
};

int
ctl_settings_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	return ctl_daemon_run(ctl, cmd, argc, argv, ctl_settings_dcmds);
}

/* ---- event ---------------------------------------------------------------------- */

static volatile sig_atomic_t ctl_event_stop;

static void
ctl_event_signal(int sig)
{
	(void)sig;
	ctl_event_stop = 1;
}

static void
ctl_event_sleep(void)
{
	struct timespec ts = { 0, CTL_EVENT_POLL_MS * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !ctl_event_stop)
		;
}

/* A field of rec as text (for a line), "" when missing. */
static void
ctl_event_str(const struct ctlp_record *rec, const char *name, char *out,
    size_t len)
{
	const struct ctlp_field *f = ctl_field(rec, name);

	out[0] = '\0';
	if (f != NULL && f->type == CTLP_F_STR)
		(void)snprintf(out, len, "%.*s", (int)f->str_len, f->str);
}

/* One event as "HH:MM:SS.mmm TYPE EVENT [ADDRESS] [DETAIL]". */
static void
ctl_event_line(const struct ctlp_record *rec)
{
	const struct ctlp_field *t = ctl_field(rec, "time_ms");
	char type[32], ev[32], addr[32], detail[CTLP_STR_MAX + 1], hms[16];
	struct tm tm;
	time_t sec;

	hms[0] = '\0';
	if (t != NULL && t->type == CTLP_F_U64) {
		sec = (time_t)(t->u64 / 1000);
		if (localtime_r(&sec, &tm) != NULL)
			(void)strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	}
	ctl_event_str(rec, "type", type, sizeof(type));
	ctl_event_str(rec, "event", ev, sizeof(ev));
	ctl_event_str(rec, "address", addr, sizeof(addr));
	ctl_event_str(rec, "detail", detail, sizeof(detail));
	(void)printf("%s.%03u %s %s%s%s%s%s\n", hms, t != NULL ?
	    (unsigned)(t->u64 % 1000) : 0u, type, ev, addr[0] ? " " : "", addr,
	    detail[0] ? " " : "", detail);
}

/*
 * Show the records of one reply; the cursor moves to the last seq.
 * 0, or -1 on a reply that is not events.
 */
static int
ctl_event_show(const struct ctl *ctl, const struct ctl_in *in,
    uint64_t *cursor)
{
	const struct ctlp_field *seq, *lost;
	struct ctlp_record rec;
	size_t pos = 0;
	int first;

	while (ctl_in_next(in, &pos, &rec) == 0) {
		if ((lost = ctl_field(&rec, "lost")) != NULL &&
		    lost->type == CTLP_F_U64) {
			if (ctl->json)
				(void)printf("{\"lost\":%" PRIu64 "}\n",
				    lost->u64);
			else
				(void)printf("events lost %" PRIu64 "\n",
				    lost->u64);
			continue;
		}
		if ((seq = ctl_field(&rec, "seq")) == NULL ||
		    seq->type != CTLP_F_U64 || seq->u64 <= *cursor) {
			ctl_warnx("%s: malformed reply: no new seq", ctl->sock);
			return -1;
		}
		*cursor = seq->u64;
		if (ctl->json) {
			first = 1;
			(void)putchar('{');
			ctl_json_fields(&rec, &first);
			(void)puts("}");
		} else
			ctl_event_line(&rec);
	}
	return 0;
}

/* The newest event's number, to start after it. */
static int
ctl_event_last(struct ctl *ctl, int fd, uint64_t *last)
{
	struct ctl_in in = { NULL, 0, 0, 0 };
	const struct ctlp_field *f;
	struct ctlp_record rec;
	size_t pos = 0;
	int rc;

	if ((rc = ctl_exchange(ctl, fd, CTLP_CMD_EVENTS, 0, NULL, &in)) == 0) {
		if (ctl_in_next(&in, &pos, &rec) != 0 ||
		    (f = ctl_field(&rec, "last")) == NULL ||
		    f->type != CTLP_F_U64) {
			ctl_warnx("%s: malformed reply: no last", ctl->sock);
			rc = CTL_EXIT_FAIL;
		} else
			*last = f->u64;
	}
	free(in.buf);
	return rc;
}

static int
ctl_event_opts(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv, int *all)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	*all = 0;
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":ajh", opts, NULL)) != -1) {
		if (ch == 'a')
			*all = 1;
		else if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help_shown(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if (argc - optind != 0)
		return ctl_usage_err(cmd, "takes no arguments");
	return 0;
}

int
ctl_event(struct ctl *ctl, const struct ctl_cmd *cmd, int argc, char **argv)
{
	struct ctl_in in = { NULL, 0, 0, 0 };
	struct sigaction sa;
	char arg[24];
	const char *args[1] = { arg };
	uint64_t cursor = 0;
	int fd, all, rc;

	if ((rc = ctl_event_opts(ctl, cmd, argc, argv, &all)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ctl_event_signal;
	/* A request under way finishes; the loop then ends. */
	sa.sa_flags = SA_RESTART;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);
	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	if (!all && (rc = ctl_event_last(ctl, fd, &cursor)) != 0)
		goto out;
	while (!ctl_event_stop) {
		(void)snprintf(arg, sizeof(arg), "%" PRIu64, cursor);
		in.len = in.records = 0;
		if ((rc = ctl_exchange(ctl, fd, CTLP_CMD_EVENTS, 1, args,
		    &in)) != 0)
			break;
		if (ctl_event_show(ctl, &in, &cursor) != 0 ||
		    ctl_flush_stdout() != 0) {
			rc = CTL_EXIT_FAIL;
			break;
		}
		/* A full batch: there may be more at once. */
		if (in.records < 64)
			ctl_event_sleep();
	}
out:
	(void)close(fd);
	free(in.buf);
	return rc;
}
