/*
 * log.h — batsecd's logging: stderr (debug, foreground) or syslog(3) with
 * the daemon facility.
 *
 * Levels are syslog(3) priorities (LOG_ERR .. LOG_DEBUG, the values of
 * enum bs_log_level); a message above the current level is dropped.  Every
 * line is one line: control characters in the formatted text become '?',
 * so a hostile string cannot forge a second log line.
 *
 * Messages that an outsider can trigger (one per received frame, one per
 * parser LOG message) go through a rate limiter, a token bucket kept by the
 * caller (struct log_rl), so nobody can grow the logs without bound.  When
 * messages were suppressed, the next one that passes says how many.
 */
#ifndef BATSEC_LOG_H
#define BATSEC_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <syslog.h>	/* LOG_ERR .. LOG_DEBUG */

/* Where lines go. */
enum log_dest {
	LOG_DEST_STDERR = 0,
	LOG_DEST_SYSLOG = 1,
};

/*
 * Start logging to dest at level (a syslog priority; clamped to
 * LOG_ERR..LOG_DEBUG).  ident names the program in syslog and on stderr.
 * May be called again to switch (after daemonising).
 */
void	log_init(enum log_dest dest, int level, const char *ident);
/* A signal's name without "SIG" ("TERM"), or NULL when unknown. */
const char *log_signame(int sig);
void	log_set_level(int level);
int	log_get_level(void);
/* 1 when a message of this priority would be written. */
int	log_enabled(int pri);

void	log_msg(int pri, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	log_vmsg(int pri, const char *fmt, va_list ap)
	    __attribute__((format(printf, 2, 0)));
/* log_warn appends ": strerror(errno)"; the x variants do not. */
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Format one error line into err (errlen bytes; nothing when err is NULL
 * or errlen 0) and return -1: the "char *err, size_t errlen" convention
 * of the modules that report errors to their caller.
 */
int	log_errf(char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Log at LOG_ERR and exit(1). */
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* ---- rate limiting -------------------------------------------------------- */

/*
 * A token bucket: burst messages at once, then rate per second.  Zero it
 * with LOG_RL_INIT(burst, rate); it needs no other set-up.
 */
struct log_rl {
	uint32_t burst;
	uint32_t rate;		/* tokens per second */
	uint64_t tokens_milli;	/* tokens * 1000 */
	uint64_t last_ms;	/* time of the last refill */
	uint64_t suppressed;	/* messages dropped since the last one passed */
	int	 started;
};
#define LOG_RL_INIT(b, r)	{ .burst = (b), .rate = (r) }

/*
 * Pure: decide whether one message may pass at now_ms (a monotonic clock).
 * Returns 1 and stores in *suppressed how many were dropped before it
 * (then reset), or 0 and counts this one as dropped.
 */
int	log_rl_allow(struct log_rl *rl, uint64_t now_ms, uint64_t *suppressed);
/* log_msg through the bucket rl, on the monotonic clock. */
void	log_rl(struct log_rl *rl, int pri, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Milliseconds and microseconds of CLOCK_MONOTONIC. */
uint64_t log_now_ms(void);
uint64_t log_now_us(void);

#endif /* BATSEC_LOG_H */
