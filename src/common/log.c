/*
 * log.c — stderr or syslog(3) logging with levels and rate limiting.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

#define LOG_LINE_MAX	1024

static enum log_dest	log_dest = LOG_DEST_STDERR;
static int		log_level = LOG_INFO;
static const char	*log_ident = "batsecd";

static int
log_clamp(int level)
{
	if (level < LOG_ERR)
		return LOG_ERR;
	if (level > LOG_DEBUG)
		return LOG_DEBUG;
	return level;
}

/*
 * glibc has sigabbrev_np; musl (OpenWrt's C library) has not, and the
 * daemon names only the signals a process of ours can die of or receive.
 */
const char *
log_signame(int sig)
{
#ifdef __GLIBC__
	return sigabbrev_np(sig);
#else
	static const struct { int sig; const char *name; } t[] = {
		{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
		{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
		{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
		{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
		{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
		{ SIGCHLD, "CHLD" }, { SIGSYS, "SYS" }, { SIGXCPU, "XCPU" },
		{ SIGXFSZ, "XFSZ" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].sig == sig)
			return t[i].name;
	return NULL;
#endif
}

void
log_init(enum log_dest dest, int level, const char *ident)
{
	if (ident != NULL)
		log_ident = ident;
	if (log_dest == LOG_DEST_SYSLOG && dest != LOG_DEST_SYSLOG)
		closelog();
	log_dest = dest;
	log_level = log_clamp(level);
	if (dest == LOG_DEST_SYSLOG)
		openlog(log_ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void
log_set_level(int level)
{
	log_level = log_clamp(level);
}

int
log_get_level(void)
{
	return log_level;
}

int
log_enabled(int pri)
{
	return pri <= log_level;
}

/* Control characters (and bytes above 0x7e) would let a hostile string
 * start a new log line or confuse a terminal. */
static void
log_sanitize(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

void
log_vmsg(int pri, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];
	int saved = errno;

	if (!log_enabled(pri))
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	log_sanitize(line);
	if (log_dest == LOG_DEST_SYSLOG)
		syslog(pri, "%s", line);
	else
		fprintf(stderr, "%s: %s\n", log_ident, line);
	errno = saved;
}

void
log_msg(int pri, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(pri, fmt, ap);
	va_end(ap);
}

/* fmt, then ": strerror(e)" when e is non-zero, at pri. */
static void __attribute__((format(printf, 3, 0)))
log_vwith_errno(int pri, int e, const char *fmt, va_list ap)
{
	char buf[LOG_LINE_MAX];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (e != 0)
		log_msg(pri, "%s: %s", buf, strerror(e));
	else
		log_msg(pri, "%s", buf);
}

void
log_warn(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	log_vwith_errno(LOG_WARNING, e, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_WARNING, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	log_vwith_errno(LOG_ERR, e, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_ERR, fmt, ap);
	va_end(ap);
	exit(1);
}

/* ---- rate limiting -------------------------------------------------------- */

uint64_t
log_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

uint64_t
log_now_ms(void)
{
	return log_now_us() / 1000;
}

static void
log_rl_refill(struct log_rl *rl, uint64_t now_ms)
{
	uint64_t cap = (uint64_t)rl->burst * 1000;
	uint64_t dt;

	if (!rl->started) {
		rl->started = 1;
		rl->tokens_milli = cap;
		rl->last_ms = now_ms;
		return;
	}
	if (now_ms <= rl->last_ms || rl->rate == 0)
		return;
	dt = now_ms - rl->last_ms;
	rl->last_ms = now_ms;
	/* Past cap / rate ms the bucket is full whatever it held. */
	if (dt > cap / rl->rate)
		rl->tokens_milli = cap;
	else if (cap - rl->tokens_milli <= dt * rl->rate)
		rl->tokens_milli = cap;
	else
		rl->tokens_milli += dt * rl->rate;
}

int
log_rl_allow(struct log_rl *rl, uint64_t now_ms, uint64_t *suppressed)
{
	log_rl_refill(rl, now_ms);
	if (rl->tokens_milli < 1000) {
		if (rl->suppressed < UINT64_MAX)
			rl->suppressed++;
		return 0;
	}
	rl->tokens_milli -= 1000;
	if (suppressed != NULL)
		*suppressed = rl->suppressed;
	rl->suppressed = 0;
	return 1;
}

void
log_rl(struct log_rl *rl, int pri, const char *fmt, ...)
{
	char buf[LOG_LINE_MAX];
	uint64_t dropped = 0;
	va_list ap;

	if (!log_enabled(pri) || !log_rl_allow(rl, log_now_ms(), &dropped))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (dropped > 0)
		log_msg(pri, "%s (%llu similar messages suppressed)", buf,
		    (unsigned long long)dropped);
	else
		log_msg(pri, "%s", buf);
}

int
log_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		(void)vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
