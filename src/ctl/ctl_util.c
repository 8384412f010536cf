/*
 * ctl_util.c — what every batsec-ctl command uses: one-line error
 * messages and the exit statuses, a command's --help, option and number
 * parsing, the clock, JSON strings.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/config.h"
#include "ctl_util.h"

/* ---- messages ---------------------------------------------------------- */

void
ctl_warnx(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (i = 0; msg[i] != '\0'; i++)
		if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
			msg[i] = '?';
	(void)fprintf(stderr, CTL_PROG ": %s\n", msg);
}

int
ctl_fail(const char *err)
{
	ctl_warnx("%s", err);
	return CTL_EXIT_FAIL;
}

int
ctl_usage_err(const struct ctl_cmd *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cmd != NULL)
		ctl_warnx("%s: %s (see '" CTL_PROG " %s --help')", cmd->path,
		    msg, cmd->path);
	else
		ctl_warnx("%s (see '" CTL_PROG " --help')", msg);
	return CTL_EXIT_USAGE;
}

int
ctl_flush_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ctl_warnx("write to stdout failed: %s", strerror(errno));
		return CTL_EXIT_FAIL;
	}
	return CTL_EXIT_OK;
}

/* ---- help of one command ----------------------------------------------- */

void
ctl_print_usage(FILE *f, const struct ctl_cmd *cmd)
{
	const struct ctl_cmd *c;

	if (cmd->sub == NULL) {
		if (cmd->usage != NULL)
			(void)fprintf(f, "%s", cmd->usage);
		else
			(void)fprintf(f, "  %s%s%s%s  (needs a running batsecd;"
			    " not available in this version)\n", cmd->name,
			    cmd->alias ? " (" : "", cmd->alias ? cmd->alias :
			    "", cmd->alias ? ")" : "");
		return;
	}
	for (c = cmd->sub; c->name != NULL; c++)
		ctl_print_usage(f, c);
}

int
ctl_help(const struct ctl_cmd *cmd)
{
	(void)printf("usage: " CTL_PROG " [-j] [-s SOCKET] %s ...\n\n",
	    cmd->path);
	ctl_print_usage(stdout, cmd);
	if (cmd->flags & CTL_CMD_SOCKET_HELP)
		(void)printf("\nThis command needs a running batsecd: it talks "
		    "to its control socket\n(-s SOCKET, default "
		    BS_CONF_DEF_SOCKET ").\n");
	return ctl_flush_stdout();
}

int
ctl_help_shown(const struct ctl_cmd *cmd)
{
	return ctl_help(cmd) == 0 ? CTL_HELP_SHOWN : CTL_EXIT_FAIL;
}

/* ---- option parsing ---------------------------------------------------- */

void
ctl_opt_reset(void)
{
	/* glibc: optind 0 also resets its internal permutation state. */
	optind = 0;
	opterr = 0;
}

int
ctl_bad_option(const struct ctl_cmd *cmd, int ch, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";

	if (ch == ':')
		return ctl_usage_err(cmd, "option '%s' needs an argument", arg);
	/*
	 * glibc sets optopt to 0 for an unknown long option, and to the
	 * option's value for a known one given a "=value" it does not take.
	 */
	if (strncmp(arg, "--", 2) == 0 && optopt != 0)
		return ctl_usage_err(cmd, "option '%s' takes no value", arg);
	if (strncmp(arg, "--", 2) == 0 || optopt <= 0x20 || optopt >= 0x7f)
		return ctl_usage_err(cmd, "unknown option '%s'", arg);
	return ctl_usage_err(cmd, "unknown option '-%c'", optopt);
}

int
ctl_opts_basic(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv, int json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct option opts_nojson[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, json ? ":hj" : ":h",
	    json ? opts : opts_nojson, NULL)) != -1) {
		if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help_shown(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	return 0;
}

int
ctl_opts_one(const struct ctl_cmd *cmd, int argc, char **argv,
    const char *shortopts, const struct option *opts, int want,
    const char **val, const char **operand, const char *what)
{
	int ch, rc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (ch == want)
			*val = optarg != NULL ? optarg : "";
		else if (ch == 'h')
			return ctl_help_shown(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if ((rc = ctl_operands(cmd, argc, 1, 0)) != 0)
		return rc;
	*operand = argv[optind];
	if (**operand == '\0')
		return ctl_usage_err(cmd, "empty %s", what);
	return 0;
}

int
ctl_operands(const struct ctl_cmd *cmd, int argc, int want, int optional)
{
	int have = argc - optind;

	if (have > want)
		return ctl_usage_err(cmd, "too many arguments");
	if (have < want && !optional)
		return ctl_usage_err(cmd, "missing argument");
	return 0;
}

/* Digits only: no sign, no spaces. */
int
ctl_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

/* ---- clock and JSON ---------------------------------------------------- */

uint64_t
ctl_now(void)
{
	time_t t = time(NULL);

	if (t <= 0 || (uint64_t)t > CTL_TIME_MAX) {
		ctl_warnx("the system clock is not set (time %lld)",
		    (long long)t);
		return 0;
	}
	return (uint64_t)t;
}

void
ctl_json_fstrn(FILE *out, const char *s, size_t len)
{
	unsigned char ch;
	size_t i;

	(void)fputc('"', out);
	for (i = 0; i < len; i++) {
		ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			(void)fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			(void)fprintf(out, "\\u%04x", ch);
		else
			(void)fputc(ch, out);
	}
	(void)fputc('"', out);
}

void
ctl_json_strn(const char *s, size_t len)
{
	ctl_json_fstrn(stdout, s, len);
}

void
ctl_json_str(const char *s)
{
	ctl_json_strn(s, strlen(s));
}
