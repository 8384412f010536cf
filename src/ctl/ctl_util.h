/*
 * ctl_util.h — what every batsec-ctl command uses: error messages and exit
 * statuses, a command's help, option and number parsing, the clock, JSON
 * strings.
 */
#ifndef BATSEC_CTL_UTIL_H
#define BATSEC_CTL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctl.h"

/* Latest time a certificate may carry: 9999-12-31T23:59:59Z. */
#define CTL_TIME_MAX		253402300799ULL

/*
 * Print "batsec-ctl: <message>" as exactly one line: control characters
 * (a newline in a file name, an escape sequence) become '?'.
 */
void	ctl_warnx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/* Report a library error message (it already names the file): exit 1. */
int	ctl_fail(const char *err);
/* A usage error of cmd (NULL: of the tool) with a pointer to its help. */
int	ctl_usage_err(const struct ctl_cmd *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Flush stdout and report a failed write (closed pipe, full disk). */
int	ctl_flush_stdout(void);

/* Usage of one leaf command, or of every leaf of a group. */
void	ctl_print_usage(FILE *f, const struct ctl_cmd *cmd);
/* The help of cmd on stdout; an exit status. */
int	ctl_help(const struct ctl_cmd *cmd);
/* The help of cmd from an option parser: CTL_HELP_SHOWN or exit 1. */
int	ctl_help_shown(const struct ctl_cmd *cmd);

/* Prepare getopt_long for a fresh argument vector. */
void	ctl_opt_reset(void);
/* Turn getopt_long's '?' or ':' into a usage error of cmd. */
int	ctl_bad_option(const struct ctl_cmd *cmd, int ch, char **argv);
/*
 * The options of a command that has only -h, and -j when json is set:
 * 0, CTL_HELP_SHOWN, or an exit status.
 */
/*
 * The options of a command that takes one besides --help (want: its
 * getopt value) and exactly one operand: *val is set to its argument, or
 * "" for a flag, when given; *operand to the operand, which must not be
 * empty ("empty WHAT").  0, CTL_HELP_SHOWN after --help, or the exit
 * status of what went wrong.
 */
struct option;
int	ctl_opts_one(const struct ctl_cmd *cmd, int argc, char **argv,
	    const char *shortopts, const struct option *opts, int want,
	    const char **val, const char **operand, const char *what);
int	ctl_opts_basic(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
	    char **argv, int json);
/* Require exactly `want` operands after the options (optional: or none). */
int	ctl_operands(const struct ctl_cmd *cmd, int argc, int want,
	    int optional);
/* Strict unsigned decimal up to max: 0, or -1. */
int	ctl_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* The current time as unix seconds, or 0 after reporting. */
uint64_t ctl_now(void);

/* Print len bytes of s as a JSON string (quotes included). */
void	ctl_json_strn(const char *s, size_t len);
/* The same on out; bytes outside 0x20..0x7e as \u00XX. */
void	ctl_json_fstrn(FILE *out, const char *s, size_t len);
void	ctl_json_str(const char *s);

#endif /* BATSEC_CTL_UTIL_H */
