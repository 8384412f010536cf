/*
 * batsec-ctl.c — the batsec command-line tool.
 *
 * Offline commands (keys and certificates) work on files and need no
 * daemon.  The daemon commands (originators, neighbors, trust, ...) send
 * one request over batsecd's control socket (-s) and render the typed
 * records of the reply (ctlproto.h) as a table, "name: value" lines or,
 * with -j, JSON; the daemon never formats text for people.
 *
 * Exit status: 0 success, 1 failure, 2 usage error.  Every error is one
 * line on stderr starting with "batsec-ctl: ".  Secret key material is
 * written only by `key generate` (to its file or stdout) and wiped from
 * memory after use.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "batsec_policy.h"
#include "common/config.h"
#include "proto/ctlproto.h"
#include "common/version.h"

#define CTL_PROG		"batsec-ctl"
#define CTL_EXIT_OK		0
#define CTL_EXIT_FAIL		1
#define CTL_EXIT_USAGE		2

#define CTL_ERRLEN		512
#define CTL_DAY			86400ULL
#define CTL_DAYS_DEFAULT	365
#define CTL_DAYS_MAX		3650
/* Latest time a certificate may carry: 9999-12-31T23:59:59Z. */
#define CTL_TIME_MAX		253402300799ULL
/* cert issue refuses to date a certificate from a clock before 2020. */
#define CTL_CLOCK_MIN		1577836800ULL
#define CTL_STDIN_NAME		"<stdin>"
/* Internal: an option parser printed help and the command is done. */
#define CTL_HELP_SHOWN		(-1)

/* Global state: options given before the command. */
struct ctl {
	const char *sock;	/* control socket (-s), for daemon commands */
	int json;		/* -j: JSON output where a command has it */
	int stdin_used;		/* an argument has already read stdin */
};

struct ctl_cmd;
typedef int ctl_run_fn(struct ctl *, const struct ctl_cmd *, int, char **);

/*
 * One entry of a command table.  A group (key, cert) has sub, a leaf has
 * run.  usage is the synopsis and option list printed by --help; NULL
 * marks a daemon command that this version cannot run yet.
 */
struct ctl_cmd {
	const char *name;
	const char *alias;
	const char *path;	/* full name for messages: "key generate" */
	ctl_run_fn *run;
	const struct ctl_cmd *sub;
	const char *usage;
};

/* ---- messages ---------------------------------------------------------- */

/*
 * Print "batsec-ctl: <message>" as exactly one line: control characters
 * (a newline in a file name, an escape sequence) become '?'.
 */
static void __attribute__((format(printf, 1, 2)))
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

/* Report a library error message (it already names the file). */
static int
ctl_fail(const char *err)
{
	ctl_warnx("%s", err);
	return CTL_EXIT_FAIL;
}

/* Report a usage error of cmd with a pointer to its help. */
static int __attribute__((format(printf, 2, 3)))
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

/* Flush stdout and report a failed write (closed pipe, full disk). */
static int
ctl_flush_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ctl_warnx("write to stdout failed: %s", strerror(errno));
		return CTL_EXIT_FAIL;
	}
	return CTL_EXIT_OK;
}

/* ---- help -------------------------------------------------------------- */

static const char ctl_global_usage[] =
    "usage: " CTL_PROG " [-j] [-s SOCKET] COMMAND [ARGS]\n"
    "\n"
    "global options:\n"
    "  -j          JSON output (cert show and the daemon commands)\n"
    "  -s SOCKET   control socket of batsecd (default "
    BS_CONF_DEF_SOCKET ")\n"
    "  -h, --help  this help; '" CTL_PROG " COMMAND --help' for one "
    "command\n";

static ctl_run_fn ctl_daemon_run, ctl_ping, ctl_revoke;

/* 1 for a command that talks to batsecd. */
static int
ctl_is_daemon(const struct ctl_cmd *cmd)
{
	return cmd->run == ctl_daemon_run || cmd->run == ctl_ping ||
	    cmd->run == ctl_revoke;
}

/* Usage of one leaf command, or of every leaf of a group. */
static void
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

static int
ctl_help(const struct ctl_cmd *cmd)
{
	(void)printf("usage: " CTL_PROG " [-j] [-s SOCKET] %s ...\n\n",
	    cmd->path);
	ctl_print_usage(stdout, cmd);
	if (cmd->run == ctl_daemon_run || cmd->run == ctl_revoke)
		(void)printf("\nThis command needs a running batsecd: it talks "
		    "to its control socket\n(-s SOCKET, default "
		    BS_CONF_DEF_SOCKET ").\n");
	return ctl_flush_stdout();
}

/* ---- option parsing ---------------------------------------------------- */

/* Prepare getopt_long for a fresh argument vector. */
static void
ctl_opt_reset(void)
{
	/* glibc: optind 0 also resets its internal permutation state. */
	optind = 0;
	opterr = 0;
}

/* Turn getopt_long's '?' or ':' into a usage error of cmd. */
static int
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

/* Require exactly `want` operands after the options. */
static int
ctl_operands(const struct ctl_cmd *cmd, int argc, int want, int optional)
{
	int have = argc - optind;

	if (have > want)
		return ctl_usage_err(cmd, "too many arguments");
	if (have < want && !optional)
		return ctl_usage_err(cmd, "missing argument");
	return 0;
}

/*
 * Strict unsigned decimal: digits only, no sign, no spaces, at most max.
 * 0 on success.
 */
static int
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

/* A certificate name: 1..32 bytes of printable ASCII without space. */
static const char *
ctl_name_problem(const char *name)
{
	size_t i, n = strnlen(name, BS_CERT_NAME_MAX + 1);

	if (n == 0)
		return "is empty";
	if (n > BS_CERT_NAME_MAX)
		return "is longer than 32 characters";
	for (i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x21 ||
		    (unsigned char)name[i] > 0x7e)
			return "may only hold printable ASCII, no spaces";
	return NULL;
}

/* ---- input helpers ----------------------------------------------------- */

/*
 * Read all of stdin into buf (at most BS_KEYFILE_MAX bytes); the length,
 * or -1 after reporting.  Only one argument may name stdin.
 */
static ssize_t
ctl_read_stdin(struct ctl *ctl, char *buf, size_t buflen)
{
	size_t got = 0, limit = buflen - 1;
	ssize_t r;

	if (ctl->stdin_used) {
		ctl_warnx("only one argument can be read from stdin");
		return -1;
	}
	ctl->stdin_used = 1;
	for (;;) {
		r = read(STDIN_FILENO, buf + got, buflen - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ctl_warnx(CTL_STDIN_NAME ": read failed: %s",
			    strerror(errno));
			return -1;
		}
		if (r == 0)
			return (ssize_t)got;
		got += (size_t)r;
		if (got > limit) {
			ctl_warnx(CTL_STDIN_NAME ": more than %zu bytes",
			    limit);
			return -1;
		}
	}
}

/* The identity in secret key file path ("-": stdin); 0 or exit status. */
static int
ctl_load_seckey(struct ctl *ctl, const char *path, struct bs_identity *id)
{
	char buf[BS_KEYFILE_MAX + 1], err[CTL_ERRLEN];
	uint8_t seed[BS_SEED_LEN];
	ssize_t n;
	int rc = CTL_EXIT_FAIL;

	if (strcmp(path, "-") != 0)
		return bs_seckey_load(path, id, err, sizeof(err)) == 0 ?
		    CTL_EXIT_OK : ctl_fail(err);
	n = ctl_read_stdin(ctl, buf, sizeof(buf));
	if (n < 0)
		goto out;
	if (bs_seckey_parse(buf, (size_t)n, seed, CTL_STDIN_NAME, err,
	    sizeof(err)) != 0) {
		(void)ctl_fail(err);
		goto out;
	}
	if (bs_identity_from_seed(id, seed) != 0) {
		ctl_warnx(CTL_STDIN_NAME ": cannot derive the key pair");
		goto out;
	}
	rc = CTL_EXIT_OK;
out:
	sodium_memzero(buf, sizeof(buf));
	sodium_memzero(seed, sizeof(seed));
	return rc;
}

/*
 * Load a public key argument that is not "-": key text or a file.  When
 * no such file exists, say that the text is not a key either, rather than
 * only "No such file".
 */
static int
ctl_load_pubkey_arg(const char *arg, uint8_t pk[BS_PK_LEN])
{
	char err[CTL_ERRLEN];
	struct stat st;

	if (bs_pubkey_load(arg, pk, err, sizeof(err)) == 0)
		return CTL_EXIT_OK;
	if (lstat(arg, &st) != 0 && errno == ENOENT) {
		ctl_warnx("%s: not a base64 public key (%d characters) "
		    "and no such file", arg, BS_KEY_B64_LEN);
		return CTL_EXIT_FAIL;
	}
	return ctl_fail(err);
}

/*
 * A public key given as base64 text, a public key file, or "-" (stdin).
 * An existing file of the same name as valid key text wins (bs_pubkey_load).
 * The key must be a valid Ed25519 point of the main subgroup, so garbage
 * (or a secret key read as a public key, half of the time) is refused.
 */
static int
ctl_load_pubkey(struct ctl *ctl, const char *arg, uint8_t pk[BS_PK_LEN])
{
	char buf[BS_KEYFILE_MAX + 1], err[CTL_ERRLEN];
	const char *name = arg;
	ssize_t n;

	if (strcmp(arg, "-") != 0) {
		if (ctl_load_pubkey_arg(arg, pk) != 0)
			return CTL_EXIT_FAIL;
	} else {
		name = CTL_STDIN_NAME;
		n = ctl_read_stdin(ctl, buf, sizeof(buf));
		if (n < 0)
			return CTL_EXIT_FAIL;
		if (bs_pubkey_parse(buf, (size_t)n, pk, name, err,
		    sizeof(err)) != 0)
			return ctl_fail(err);
	}
	if (crypto_core_ed25519_is_valid_point(pk) != 1) {
		ctl_warnx("%s: not a valid Ed25519 public key", name);
		return CTL_EXIT_FAIL;
	}
	return CTL_EXIT_OK;
}

/* A certificate from an armoured file or "-" (stdin). */
static int
ctl_load_cert(struct ctl *ctl, const char *arg, struct bs_cert *c)
{
	char buf[BS_KEYFILE_MAX + 1], err[CTL_ERRLEN];
	ssize_t n;

	if (strcmp(arg, "-") != 0)
		return bs_cert_load(arg, c, err, sizeof(err)) == 0 ?
		    CTL_EXIT_OK : ctl_fail(err);
	n = ctl_read_stdin(ctl, buf, sizeof(buf));
	if (n < 0)
		return CTL_EXIT_FAIL;
	if (bs_cert_parse_armor(buf, (size_t)n, c, CTL_STDIN_NAME, err,
	    sizeof(err)) != 0)
		return ctl_fail(err);
	return CTL_EXIT_OK;
}

/* The current time as unix seconds, or 0 after reporting. */
static uint64_t
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

/* ---- output helpers ---------------------------------------------------- */

/* write(2) all of buf to fd, so secrets never sit in a stdio buffer. */
static int
ctl_write_all(int fd, const char *buf, size_t len)
{
	ssize_t w;

	while (len > 0) {
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Print a 32-byte key as one base64 line. */
static int
ctl_print_key(const uint8_t key[static 32])
{
	char b64[BS_KEY_B64_LEN + 1];

	bs_key_to_b64(b64, key);
	(void)printf("%s\n", b64);
	return ctl_flush_stdout();
}

/* A saver writes obj to path atomically (bs_seckey_save, bs_cert_save). */
typedef int ctl_save_fn(const char *path, const void *obj, char *err,
    size_t errlen);

static int
ctl_save_seckey(const char *path, const void *obj, char *err, size_t errlen)
{
	return bs_seckey_save(path, obj, err, errlen);
}

static int
ctl_save_cert(const char *path, const void *obj, char *err, size_t errlen)
{
	return bs_cert_save(path, obj, err, errlen);
}

/*
 * Write obj to path atomically without ever replacing an existing file:
 * save writes a fresh temporary name in the same directory (its own
 * temp + fsync + rename), then link(2) publishes it under path, which
 * fails with EEXIST however the race with another writer goes.
 */
static int
ctl_save_new(const char *path, ctl_save_fn *save, const void *obj)
{
	char tmp[PATH_MAX], err[CTL_ERRLEN];
	int fd, n, e;

	n = snprintf(tmp, sizeof(tmp), "%s.new.XXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		ctl_warnx("%s: path too long", path);
		return CTL_EXIT_FAIL;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ctl_warnx("%s: cannot create: %s", path, strerror(errno));
		return CTL_EXIT_FAIL;
	}
	(void)close(fd);
	if (save(tmp, obj, err, sizeof(err)) != 0) {
		(void)unlink(tmp);
		return ctl_fail(err);
	}
	e = link(tmp, path) == 0 ? 0 : errno;
	(void)unlink(tmp);
	if (e == EEXIST) {
		ctl_warnx("%s: already exists; use -f to replace it", path);
		return CTL_EXIT_FAIL;
	}
	if (e != 0) {
		ctl_warnx("%s: cannot create: %s", path, strerror(e));
		return CTL_EXIT_FAIL;
	}
	if (bs_file_sync_dir(path, err, sizeof(err)) != 0)
		return ctl_fail(err);
	return CTL_EXIT_OK;
}

/* Save obj to path: replace an existing file only when force is set. */
static int
ctl_save(const char *path, int force, ctl_save_fn *save, const void *obj)
{
	char err[CTL_ERRLEN];

	if (!force)
		return ctl_save_new(path, save, obj);
	return save(path, obj, err, sizeof(err)) == 0 ? CTL_EXIT_OK :
	    ctl_fail(err);
}

/* ---- key --------------------------------------------------------------- */

/* The secret key as one base64 line on stdout, bypassing stdio. */
static int
ctl_print_secret(const struct bs_identity *id)
{
	char line[BS_KEY_B64_LEN + 2];
	int rc = CTL_EXIT_OK;

	bs_key_to_b64(line, id->seed);
	line[BS_KEY_B64_LEN] = '\n';
	if (ctl_write_all(STDOUT_FILENO, line, BS_KEY_B64_LEN + 1) != 0) {
		ctl_warnx("write to stdout failed: %s", strerror(errno));
		rc = CTL_EXIT_FAIL;
	}
	sodium_memzero(line, sizeof(line));
	return rc;
}

static int
ctl_key_generate(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bs_identity id;
	const char *out = NULL;
	int ch, force = 0, rc;

	(void)ctl;
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":fho:", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			force = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			return ctl_help(cmd);
		default:
			return ctl_bad_option(cmd, ch, argv);
		}
	}
	if ((rc = ctl_operands(cmd, argc, 0, 0)) != 0)
		return rc;
	if (out != NULL && *out == '\0')
		return ctl_usage_err(cmd, "empty file name for -o");
	if (force && out == NULL)
		return ctl_usage_err(cmd, "-f needs -o FILE");
	if (bs_identity_generate(&id) != 0) {
		ctl_warnx("cannot generate a key pair");
		return CTL_EXIT_FAIL;
	}
	if (out != NULL)
		rc = ctl_save(out, force, ctl_save_seckey, &id);
	else
		rc = ctl_print_secret(&id);
	bs_identity_wipe(&id);
	return rc;
}

static int
ctl_key_public(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bs_identity id;
	const char *path;
	int ch, rc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (ch == 'h')
			return ctl_help(cmd);
		return ctl_bad_option(cmd, ch, argv);
	}
	if ((rc = ctl_operands(cmd, argc, 1, 1)) != 0)
		return rc;
	path = optind < argc ? argv[optind] : "-";
	if (*path == '\0')
		return ctl_usage_err(cmd, "empty file name");
	if ((rc = ctl_load_seckey(ctl, path, &id)) != 0)
		return rc;
	rc = ctl_print_key(id.pk);
	bs_identity_wipe(&id);
	return rc;
}

static int
ctl_key_address(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "secret", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bs_identity id;
	uint8_t pk[BS_PK_LEN], addr[BS_ADDR_LEN];
	char str[18];
	const char *arg;
	int ch, secret = 0, rc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":hS", opts, NULL)) != -1) {
		if (ch == 'S')
			secret = 1;
		else if (ch == 'h')
			return ctl_help(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if ((rc = ctl_operands(cmd, argc, 1, 0)) != 0)
		return rc;
	arg = argv[optind];
	if (*arg == '\0')
		return ctl_usage_err(cmd, "empty key or file name");
	if (secret) {
		if ((rc = ctl_load_seckey(ctl, arg, &id)) != 0)
			return rc;
		memcpy(pk, id.pk, sizeof(pk));
		bs_identity_wipe(&id);
	} else if ((rc = ctl_load_pubkey(ctl, arg, pk)) != 0) {
		return rc;
	}
	bs_mesh_addr(addr, pk);
	bs_addr_to_str(str, addr);
	(void)printf("%s\n", str);
	return ctl_flush_stdout();
}

/* ---- cert issue -------------------------------------------------------- */

/* What cert issue was asked for; times are 0 when not given. */
struct ctl_issue {
	const char *ca, *key, *name, *out;
	uint64_t days, not_before, not_after;
	int days_set, nb_set, na_set, gateway, force;
};

enum {
	CTL_OPT_CA = 0x100,
	CTL_OPT_KEY,
	CTL_OPT_NAME,
	CTL_OPT_DAYS,
	CTL_OPT_GATEWAY,
	CTL_OPT_NOT_BEFORE,
	CTL_OPT_NOT_AFTER,
	CTL_OPT_ANCHOR,
	CTL_OPT_RECORD,
};

/* An expert time option: unix seconds up to CTL_TIME_MAX. */
static int
ctl_issue_time(const struct ctl_cmd *cmd, const char *opt, const char *arg,
    uint64_t *t, int *set)
{
	if (ctl_parse_u64(arg, CTL_TIME_MAX, t) != 0)
		return ctl_usage_err(cmd, "%s must be unix seconds from 0 "
		    "to %llu", opt, CTL_TIME_MAX);
	*set = 1;
	return 0;
}

/* Store one cert issue option; 0 or a usage-error exit status. */
static int
ctl_issue_opt(const struct ctl_cmd *cmd, struct ctl_issue *is, int ch,
    const char *arg)
{
	const char *why;

	switch (ch) {
	case CTL_OPT_CA:
		is->ca = arg;
		break;
	case CTL_OPT_KEY:
		is->key = arg;
		break;
	case CTL_OPT_NAME:
		if ((why = ctl_name_problem(arg)) != NULL)
			return ctl_usage_err(cmd, "--name %s", why);
		is->name = arg;
		break;
	case CTL_OPT_DAYS:
		if (ctl_parse_u64(arg, CTL_DAYS_MAX, &is->days) != 0 ||
		    is->days == 0)
			return ctl_usage_err(cmd, "--days must be a whole "
			    "number from 1 to %d", CTL_DAYS_MAX);
		is->days_set = 1;
		break;
	case CTL_OPT_NOT_BEFORE:
		return ctl_issue_time(cmd, "--not-before", arg, &is->not_before,
		    &is->nb_set);
	case CTL_OPT_NOT_AFTER:
		return ctl_issue_time(cmd, "--not-after", arg, &is->not_after,
		    &is->na_set);
	case CTL_OPT_GATEWAY:
		is->gateway = 1;
		break;
	case 'f':
		is->force = 1;
		break;
	case 'o':
		if (*arg == '\0')
			return ctl_usage_err(cmd, "empty file name for -o");
		is->out = arg;
		break;
	}
	return 0;
}

/*
 * The validity window: not-before is now unless --not-before is given
 * (verifiers tolerate BS_CERT_SKEW of clock difference, so no backdating
 * is needed); not-after is not-before + days unless --not-after is given.
 */
static int
ctl_issue_window(const struct ctl_cmd *cmd, struct ctl_issue *is)
{
	uint64_t now;

	if (is->days_set && is->na_set)
		return ctl_usage_err(cmd, "--days and --not-after exclude "
		    "each other");
	if (!is->nb_set) {
		if ((now = ctl_now()) == 0)
			return CTL_EXIT_FAIL;
		/* A router without a real-time clock boots in 1970. */
		if (now < CTL_CLOCK_MIN) {
			ctl_warnx("the system clock looks unset (unix time "
			    "%" PRIu64 "); set it or give --not-before", now);
			return CTL_EXIT_FAIL;
		}
		is->not_before = now;
	}
	if (!is->na_set) {
		if (!is->days_set)
			is->days = CTL_DAYS_DEFAULT;
		if (is->not_before > CTL_TIME_MAX - is->days * CTL_DAY)
			return ctl_usage_err(cmd, "validity ends after the "
			    "year 9999");
		is->not_after = is->not_before + is->days * CTL_DAY;
	}
	if (is->not_after <= is->not_before)
		return ctl_usage_err(cmd, "--not-after must be later than "
		    "not-before");
	return 0;
}

/* Parse the options of cert issue into is; 0, or an exit status. */
static int
ctl_issue_parse(const struct ctl_cmd *cmd, struct ctl_issue *is, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, CTL_OPT_CA },
		{ "key", required_argument, NULL, CTL_OPT_KEY },
		{ "name", required_argument, NULL, CTL_OPT_NAME },
		{ "days", required_argument, NULL, CTL_OPT_DAYS },
		{ "gateway", no_argument, NULL, CTL_OPT_GATEWAY },
		{ "not-before", required_argument, NULL, CTL_OPT_NOT_BEFORE },
		{ "not-after", required_argument, NULL, CTL_OPT_NOT_AFTER },
		{ "force", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, rc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":fho:", opts, NULL)) != -1) {
		if (ch == 'h')
			return ctl_help(cmd) == 0 ? CTL_HELP_SHOWN :
			    CTL_EXIT_FAIL;
		if (ch == '?' || ch == ':')
			return ctl_bad_option(cmd, ch, argv);
		if ((rc = ctl_issue_opt(cmd, is, ch, optarg)) != 0)
			return rc;
	}
	if ((rc = ctl_operands(cmd, argc, 0, 0)) != 0)
		return rc;
	if (is->ca == NULL || *is->ca == '\0')
		return ctl_usage_err(cmd, "--ca CAKEYFILE is required");
	if (is->key == NULL || *is->key == '\0')
		return ctl_usage_err(cmd, "--key PUBKEY is required");
	if (is->force && is->out == NULL)
		return ctl_usage_err(cmd, "-f needs -o FILE");
	if (strcmp(is->ca, "-") == 0 && strcmp(is->key, "-") == 0)
		return ctl_usage_err(cmd, "--ca and --key cannot both be "
		    "read from stdin");
	return ctl_issue_window(cmd, is);
}

/* Write the certificate armoured to stdout. */
static int
ctl_print_cert(const struct bs_cert *c)
{
	char text[BS_ARMOR_MAX];

	if (bs_cert_to_armor(text, sizeof(text), c) < 0) {
		ctl_warnx("cannot encode the certificate");
		return CTL_EXIT_FAIL;
	}
	(void)fputs(text, stdout);
	return ctl_flush_stdout();
}

static int
ctl_cert_issue(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	struct ctl_issue is = { 0 };
	struct bs_identity ca;
	struct bs_cert c;
	uint8_t pk[BS_PK_LEN];
	int rc;

	rc = ctl_issue_parse(cmd, &is, argc, argv);
	if (rc != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if ((rc = ctl_load_pubkey(ctl, is.key, pk)) != 0)
		return rc;
	if ((rc = ctl_load_seckey(ctl, is.ca, &ca)) != 0)
		return rc;
	rc = bs_cert_issue(&c, &ca, pk, is.name != NULL ? is.name : "",
	    is.gateway ? BS_ROLE_GATEWAY : 0, is.not_before, is.not_after);
	bs_identity_wipe(&ca);
	if (rc != 0) {
		ctl_warnx("cannot issue the certificate");
		return CTL_EXIT_FAIL;
	}
	if (is.out != NULL)
		return ctl_save(is.out, is.force, ctl_save_cert, &c);
	return ctl_print_cert(&c);
}

/* ---- cert show --------------------------------------------------------- */

/* UTC ISO-8601 of t, or NULL when t cannot be shown (after year 9999). */
static const char *
ctl_iso_time(char out[static 32], uint64_t t)
{
	struct tm tm;
	time_t tt;

	if (t > CTL_TIME_MAX)
		return NULL;
	tt = (time_t)t;
	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return NULL;
	return out;
}

/* Print len bytes of s as a JSON string (quotes included). */
static void
ctl_json_strn(const char *s, size_t len)
{
	unsigned char ch;
	size_t i;

	(void)putchar('"');
	for (i = 0; i < len; i++) {
		ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			(void)printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			(void)printf("\\u%04x", ch);
		else
			(void)putchar(ch);
	}
	(void)putchar('"');
}

static void
ctl_json_str(const char *s)
{
	ctl_json_strn(s, strlen(s));
}

/* Text values of a certificate, shared by the two output forms. */
struct ctl_cert_view {
	char node[BS_KEY_B64_LEN + 1], issuer[BS_KEY_B64_LEN + 1];
	char addr[18], nb_buf[32], na_buf[32];
	const char *nb, *na;
	int sig_ok;
};

static void
ctl_cert_view(struct ctl_cert_view *v, const struct bs_cert *c)
{
	uint8_t addr[BS_ADDR_LEN];

	bs_key_to_b64(v->node, c->node_pk);
	bs_key_to_b64(v->issuer, c->issuer_pk);
	bs_mesh_addr(addr, c->node_pk);
	bs_addr_to_str(v->addr, addr);
	v->nb = ctl_iso_time(v->nb_buf, c->not_before);
	v->na = ctl_iso_time(v->na_buf, c->not_after);
	/* now == 0: signature against the cert's own issuer, no clock. */
	v->sig_ok = bs_cert_verify(c, c->issuer_pk, 0) == BS_CERT_OK;
}

static void
ctl_cert_show_text(const struct bs_cert *c, const struct ctl_cert_view *v)
{
	(void)printf("version: %d\n", BS_CERT_VERSION);
	(void)printf("node-key: %s\n", v->node);
	(void)printf("node-address: %s\n", v->addr);
	(void)printf("issuer-key: %s\n", v->issuer);
	(void)printf("name:%s%s\n", c->name[0] ? " " : "", c->name);
	(void)printf("roles: %s\n", c->roles & BS_ROLE_GATEWAY ? "gateway" :
	    "none");
	(void)printf("not-before: %s (%" PRIu64 ")\n",
	    v->nb ? v->nb : "out-of-range", c->not_before);
	(void)printf("not-after: %s (%" PRIu64 ")\n",
	    v->na ? v->na : "out-of-range", c->not_after);
	(void)printf("signature-valid: %s\n", v->sig_ok ? "yes" : "no");
}

static void
ctl_cert_show_json(const struct bs_cert *c, const struct ctl_cert_view *v)
{
	(void)printf("{\"version\":%d,\"node_key\":\"%s\","
	    "\"node_address\":\"%s\",\"issuer_key\":\"%s\",\"name\":",
	    BS_CERT_VERSION, v->node, v->addr, v->issuer);
	ctl_json_str(c->name);
	(void)printf(",\"roles\":[%s],\"not_before\":%" PRIu64
	    ",\"not_before_utc\":", c->roles & BS_ROLE_GATEWAY ?
	    "\"gateway\"" : "", c->not_before);
	if (v->nb)
		ctl_json_str(v->nb);
	else
		(void)fputs("null", stdout);
	(void)printf(",\"not_after\":%" PRIu64 ",\"not_after_utc\":",
	    c->not_after);
	if (v->na)
		ctl_json_str(v->na);
	else
		(void)fputs("null", stdout);
	(void)printf(",\"signature_valid\":%s}\n",
	    v->sig_ok ? "true" : "false");
}

static int
ctl_cert_show(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctl_cert_view v;
	struct bs_cert c;
	int ch, rc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":hj", opts, NULL)) != -1) {
		if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if ((rc = ctl_operands(cmd, argc, 1, 0)) != 0)
		return rc;
	if (*argv[optind] == '\0')
		return ctl_usage_err(cmd, "empty file name");
	if ((rc = ctl_load_cert(ctl, argv[optind], &c)) != 0)
		return rc;
	ctl_cert_view(&v, &c);
	if (ctl->json)
		ctl_cert_show_json(&c, &v);
	else
		ctl_cert_show_text(&c, &v);
	return ctl_flush_stdout();
}

/* ---- cert verify ------------------------------------------------------- */

static int
ctl_cert_verify(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "anchor", required_argument, NULL, CTL_OPT_ANCHOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint8_t anchor[BS_PK_LEN];
	struct bs_cert c;
	const char *anchor_arg = NULL, *path;
	uint64_t now;
	int ch, rc;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (ch == CTL_OPT_ANCHOR)
			anchor_arg = optarg;
		else if (ch == 'h')
			return ctl_help(cmd);
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if ((rc = ctl_operands(cmd, argc, 1, 0)) != 0)
		return rc;
	path = argv[optind];
	if (*path == '\0')
		return ctl_usage_err(cmd, "empty file name");
	if (anchor_arg == NULL || *anchor_arg == '\0')
		return ctl_usage_err(cmd, "--anchor CAPUBKEY is required");
	if ((rc = ctl_load_pubkey(ctl, anchor_arg, anchor)) != 0 ||
	    (rc = ctl_load_cert(ctl, path, &c)) != 0)
		return rc;
	if ((now = ctl_now()) == 0)
		return CTL_EXIT_FAIL;
	rc = bs_cert_verify(&c, anchor, now);
	if (rc != BS_CERT_OK) {
		ctl_warnx("%s: %s", strcmp(path, "-") ? path : CTL_STDIN_NAME,
		    bs_cert_strerror(rc));
		return CTL_EXIT_FAIL;
	}
	(void)printf("%s\n", bs_cert_strerror(rc));
	return ctl_flush_stdout();
}

/* ---- daemon commands: the control socket client ------------------------ */

/* Seconds to wait for batsecd to take the request or send the reply. */
#define CTL_REPLY_TIMEOUT_S	30

/* How a table column shows its field. */
enum ctl_fmt {
	CTL_FMT_TEXT = 0,	/* as sent, left-aligned */
	CTL_FMT_NUM,		/* right-aligned */
	CTL_FMT_SECS,		/* milliseconds as seconds "1.234s", right */
};

struct ctl_col {
	const char *field;	/* field name in the records */
	const char *header;
	enum ctl_fmt fmt;
	const char *yes, *no;	/* booleans (no: also a missing field) */
};

/* How a reply is shown. */
enum ctl_shape {
	CTL_SHAPE_NONE = 0,	/* success prints nothing */
	CTL_SHAPE_TABLE,	/* a table; JSON: an array of objects */
	CTL_SHAPE_OBJECT,	/* "name: value" lines; JSON: one object */
	CTL_SHAPE_LINES,	/* the "line" field of each record; JSON:
				   an array of objects */
};

/* What follows the command name on the command line. */
enum ctl_operands {
	CTL_OPS_NONE = 0,
	CTL_OPS_KEY,		/* KEY */
	CTL_OPS_TRUST,		/* KEY [name NAME] [gateway] */
};

/* A daemon command: the request it sends and how the reply is shown. */
struct ctl_dcmd {
	const char *path;		/* as in ctl_cmd, "trust add" */
	const char *wire;		/* request name (ctlproto.h) */
	enum ctl_operands ops;
	enum ctl_shape shape;
	const struct ctl_col *cols;	/* table columns, NULL-terminated */
};

#define CTL_COL(f, h, fmt)	{ f, h, fmt, NULL, NULL }
#define CTL_COL_END		{ NULL, NULL, CTL_FMT_TEXT, NULL, NULL }
#define CTL_COLS_MAX		8

/* Like `batctl o`: '*' marks the best next hop of each originator. */
static const struct ctl_col ctl_cols_originators[] = {
	{ "best", "", CTL_FMT_TEXT, "*", "" },
	CTL_COL("address", "Originator", CTL_FMT_TEXT),
	CTL_COL("last_seen_ms", "last-seen", CTL_FMT_SECS),
	CTL_COL("tq", "TQ", CTL_FMT_NUM),
	CTL_COL("next_hop", "Nexthop", CTL_FMT_TEXT),
	CTL_COL("interface", "Interface", CTL_FMT_TEXT),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_neighbors[] = {
	CTL_COL("interface", "IF", CTL_FMT_TEXT),
	CTL_COL("address", "Neighbor", CTL_FMT_TEXT),
	CTL_COL("last_seen_ms", "last-seen", CTL_FMT_SECS),
	CTL_COL("link_tq", "link TQ", CTL_FMT_NUM),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_interfaces[] = {
	CTL_COL("name", "Interface", CTL_FMT_TEXT),
	{ "active", "Status", CTL_FMT_TEXT, "active", "inactive" },
	CTL_COL("mtu", "MTU", CTL_FMT_NUM),
	CTL_COL("address", "MAC", CTL_FMT_TEXT),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_gateways[] = {
	{ "best", "", CTL_FMT_TEXT, "*", "" },
	CTL_COL("address", "Router", CTL_FMT_TEXT),
	CTL_COL("tq", "TQ", CTL_FMT_NUM),
	CTL_COL("next_hop", "Nexthop", CTL_FMT_TEXT),
	CTL_COL("interface", "Interface", CTL_FMT_TEXT),
	CTL_COL("bandwidth_down_kbit", "Down kbit/s", CTL_FMT_NUM),
	CTL_COL("bandwidth_up_kbit", "Up kbit/s", CTL_FMT_NUM),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_clients[] = {
	CTL_COL("client", "Client", CTL_FMT_TEXT),
	CTL_COL("vid", "VID", CTL_FMT_NUM),
	CTL_COL("originator", "Originator", CTL_FMT_TEXT),
	CTL_COL("last_seen_ms", "last-seen", CTL_FMT_SECS),
	CTL_COL_END
};

static const struct ctl_col ctl_cols_trust[] = {
	CTL_COL("key", "Key", CTL_FMT_TEXT),
	CTL_COL("address", "Address", CTL_FMT_TEXT),
	CTL_COL("name", "Name", CTL_FMT_TEXT),
	{ "gateway", "Gateway", CTL_FMT_TEXT, "yes", "no" },
	CTL_COL_END
};

static const struct ctl_col ctl_cols_anchors[] = {
	CTL_COL("key", "Anchor", CTL_FMT_TEXT),
	CTL_COL("name", "Name", CTL_FMT_TEXT),
	CTL_COL("revocations", "Revocations", CTL_FMT_NUM),
	{ "blocked", "Blocked", CTL_FMT_TEXT, "yes", "no" },
	CTL_COL_END
};

static const struct ctl_dcmd ctl_dcmds[] = {
	{ "originators", CTLP_CMD_ORIGINATORS, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_originators },
	{ "neighbors", CTLP_CMD_NEIGHBORS, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_neighbors },
	{ "interfaces", CTLP_CMD_INTERFACES, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_interfaces },
	{ "gateways", CTLP_CMD_GATEWAYS, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_gateways },
	{ "clients", CTLP_CMD_CLIENTS, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_clients },
	{ "stats", CTLP_CMD_STATS, CTL_OPS_NONE, CTL_SHAPE_OBJECT, NULL },
	{ "status", CTLP_CMD_STATUS, CTL_OPS_NONE, CTL_SHAPE_OBJECT, NULL },
	{ "trust add", CTLP_CMD_TRUST_ADD, CTL_OPS_TRUST, CTL_SHAPE_NONE,
	  NULL },
	{ "trust remove", CTLP_CMD_TRUST_REMOVE, CTL_OPS_KEY, CTL_SHAPE_NONE,
	  NULL },
	{ "trust list", CTLP_CMD_TRUST_LIST, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_trust },
	{ "block", CTLP_CMD_BLOCK, CTL_OPS_KEY, CTL_SHAPE_NONE, NULL },
	{ "unblock", CTLP_CMD_UNBLOCK, CTL_OPS_KEY, CTL_SHAPE_NONE, NULL },
	{ "revoke", CTLP_CMD_REVOKE, CTL_OPS_KEY, CTL_SHAPE_NONE, NULL },
	{ "reload", CTLP_CMD_RELOAD, CTL_OPS_NONE, CTL_SHAPE_NONE, NULL },
	{ "anchors", CTLP_CMD_ANCHORS, CTL_OPS_NONE, CTL_SHAPE_TABLE,
	  ctl_cols_anchors },
	{ "policy show", CTLP_CMD_POLICY_SHOW, CTL_OPS_NONE, CTL_SHAPE_LINES,
	  NULL },
	{ NULL, NULL, CTL_OPS_NONE, CTL_SHAPE_NONE, NULL }
};

static const struct ctl_dcmd *
ctl_dcmd_find(const char *path)
{
	const struct ctl_dcmd *d;

	for (d = ctl_dcmds; d->path != NULL; d++)
		if (strcmp(d->path, path) == 0)
			return d;
	return NULL;
}

/* The records of a reply, each after a u16 length, all validated. */
struct ctl_in {
	uint8_t *buf;
	size_t len, cap;
	size_t records;
};

/* Connect to batsecd: the socket fd, or -1 after reporting. */
static int
ctl_connect(const struct ctl *ctl, const struct ctl_cmd *cmd)
{
	struct timeval tv = { CTL_REPLY_TIMEOUT_S, 0 };
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, ctl->sock, strlen(ctl->sock));
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ctl_warnx("cannot create a socket: %s", strerror(errno));
		return -1;
	}
	/* The send timeout also bounds connect() on a full backlog. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		ctl_warnx("%s: needs the batsecd control socket: cannot "
		    "connect to %s: %s", cmd->path, ctl->sock, strerror(errno));
		(void)close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send the request.  A daemon that refused us (permission, too many
 * clients) may have closed already; its END is still waiting to be read,
 * so EPIPE is not reported here.
 */
static int
ctl_send_request(int fd, const struct ctl *ctl, const uint8_t *req,
    size_t len)
{
	ssize_t n;

	do
		n = send(fd, req, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n >= 0 || errno == EPIPE || errno == ECONNRESET)
		return 0;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		ctl_warnx("%s: batsecd did not take the request within %d "
		    "seconds", ctl->sock, CTL_REPLY_TIMEOUT_S);
	else
		ctl_warnx("%s: cannot send the request: %s", ctl->sock,
		    strerror(errno));
	return -1;
}

/*
 * One datagram into buf (CTLP_MSG_MAX + 1 bytes): its length, or -1.
 * A daemon that hung up on us (a refusal) may leave ECONNRESET pending in
 * front of its END; the error is reported once, then the END is read.
 */
static ssize_t
ctl_recv_msg(int fd, const struct ctl *ctl, uint8_t *buf)
{
	struct iovec iov = { buf, CTLP_MSG_MAX + 1 };
	struct msghdr mh;
	ssize_t n;
	int resets = 0;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	do
		n = recvmsg(fd, &mh, 0);
	while (n < 0 && (errno == EINTR || (errno == ECONNRESET &&
	    resets++ == 0)));
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		ctl_warnx("%s: no reply from batsecd within %d seconds",
		    ctl->sock, CTL_REPLY_TIMEOUT_S);
	else if (n < 0)
		ctl_warnx("%s: cannot read the reply: %s", ctl->sock,
		    strerror(errno));
	else if (n == 0)
		ctl_warnx("%s: batsecd closed the connection before the end "
		    "of its reply", ctl->sock);
	else if ((mh.msg_flags & MSG_TRUNC) || n > CTLP_MSG_MAX)
		ctl_warnx("%s: malformed reply: a message longer than %d "
		    "bytes", ctl->sock, CTLP_MSG_MAX);
	else
		return n;
	return -1;
}

/* Keep a validated record; 0, or -1 after reporting. */
static int
ctl_in_add(struct ctl_in *in, const struct ctl *ctl, const uint8_t *msg,
    size_t n)
{
	struct ctlp_record rec;
	char err[CTL_ERRLEN];
	size_t cap;
	uint8_t *p;

	if (ctlp_record_decode(msg, n, &rec, err, sizeof(err)) != 0) {
		ctl_warnx("%s: malformed reply: %s", ctl->sock, err);
		return -1;
	}
	if (n + 2 > CTLP_REPLY_MAX - in->len) {
		ctl_warnx("%s: reply larger than %u bytes", ctl->sock,
		    CTLP_REPLY_MAX);
		return -1;
	}
	if (n + 2 > in->cap - in->len) {
		cap = in->cap == 0 ? 65536 : in->cap * 2;
		if (cap > CTLP_REPLY_MAX)
			cap = CTLP_REPLY_MAX;
		if ((p = realloc(in->buf, cap)) == NULL) {
			ctl_warnx("out of memory for the reply");
			return -1;
		}
		in->buf = p;
		in->cap = cap;
	}
	bs_put16(in->buf + in->len, (uint16_t)n);
	memcpy(in->buf + in->len + 2, msg, n);
	in->len += n + 2;
	in->records++;
	return 0;
}

/* The END: 0 on success, or -1 after reporting (a daemon error too). */
static int
ctl_in_end(const struct ctl_in *in, const struct ctl *ctl,
    const uint8_t *msg, size_t n)
{
	struct ctlp_end e;
	char err[CTL_ERRLEN];

	if (ctlp_end_decode(msg, n, &e, err, sizeof(err)) != 0) {
		ctl_warnx("%s: malformed reply: %s", ctl->sock, err);
		return -1;
	}
	if (e.status != CTLP_OK) {
		ctl_warnx("%s", e.msg);
		return -1;
	}
	if (e.records != in->records) {
		ctl_warnx("%s: malformed reply: %zu records, the end says "
		    "%" PRIu32, ctl->sock, in->records, e.records);
		return -1;
	}
	return 0;
}

/* Read records until the END; 0, or -1 after reporting. */
static int
ctl_recv_reply(int fd, const struct ctl *ctl, struct ctl_in *in)
{
	uint8_t buf[CTLP_MSG_MAX + 1], type = 0;
	char err[CTL_ERRLEN];
	ssize_t n;
	int rc;

	for (;;) {
		if ((n = ctl_recv_msg(fd, ctl, buf)) < 0)
			return -1;
		rc = ctlp_header(buf, (size_t)n, &type, err, sizeof(err));
		if (rc == CTLP_E_VERSION) {
			ctl_warnx("%s: batsecd speaks another control "
			    "protocol: %s", ctl->sock, err);
			return -1;
		}
		if (rc == 0 && type == CTLP_T_END)
			return ctl_in_end(in, ctl, buf, (size_t)n);
		if (rc == 0 && type != CTLP_T_RECORD)
			(void)snprintf(err, sizeof(err), "unexpected message "
			    "type %u", type);
		if (rc != 0 || type != CTLP_T_RECORD) {
			ctl_warnx("%s: malformed reply: %s", ctl->sock, err);
			return -1;
		}
		if (ctl_in_add(in, ctl, buf, (size_t)n) != 0)
			return -1;
	}
}

/* Send name with its arguments and collect the reply; 0 or exit status. */
static int
ctl_exchange(const struct ctl *ctl, int fd, const char *name, size_t argc,
    const char *const argv[], struct ctl_in *in)
{
	uint8_t req[CTLP_MSG_MAX];
	char err[CTL_ERRLEN];
	size_t len;

	if (ctlp_request_encode(req, sizeof(req), name, argc, argv, &len, err,
	    sizeof(err)) != 0)
		return ctl_usage_err(NULL, "%s: %s", name, err);
	if (ctl_send_request(fd, ctl, req, len) != 0 ||
	    ctl_recv_reply(fd, ctl, in) != 0)
		return CTL_EXIT_FAIL;
	return CTL_EXIT_OK;
}

/* The next record of in at *pos (validated when it arrived). */
static int
ctl_in_next(const struct ctl_in *in, size_t *pos, struct ctlp_record *rec)
{
	size_t n;

	if (in->len - *pos < 2)
		return -1;
	n = bs_get16(in->buf + *pos);
	if (n > in->len - *pos - 2 || ctlp_record_decode(in->buf + *pos + 2,
	    n, rec, NULL, 0) != 0)
		return -1;
	*pos += n + 2;
	return 0;
}

static const struct ctlp_field *
ctl_field(const struct ctlp_record *rec, const char *name)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		if (strcmp(rec->f[i].name, name) == 0)
			return &rec->f[i];
	return NULL;
}

/* Field f as text; col (may be NULL) chooses the format. */
static void
ctl_value(char *out, size_t outlen, const struct ctlp_field *f,
    const struct ctl_col *col)
{
	const char *yes = col != NULL && col->yes != NULL ? col->yes : "yes";
	const char *no = col != NULL && col->no != NULL ? col->no : "no";

	if (f == NULL)
		(void)snprintf(out, outlen, "%s", col != NULL &&
		    col->no != NULL ? col->no : "-");
	else if (f->type == CTLP_F_STR)
		(void)snprintf(out, outlen, "%.*s", (int)f->str_len, f->str);
	else if (f->type == CTLP_F_BOOL)
		(void)snprintf(out, outlen, "%s", f->u64 ? yes : no);
	else if (col != NULL && col->fmt == CTL_FMT_SECS)
		(void)snprintf(out, outlen, "%" PRIu64 ".%03us",
		    f->u64 / 1000, (unsigned)(f->u64 % 1000));
	else
		(void)snprintf(out, outlen, "%" PRIu64, f->u64);
}

/*
 * One table line: the headers (rec NULL) or a record's cells, padded to
 * the widths w; numbers right-aligned, no trailing blanks.
 */
static void
ctl_table_line(const struct ctl_col *cols, size_t ncols, const size_t *w,
    const struct ctlp_record *rec)
{
	char cell[CTLP_STR_MAX + 32];
	size_t i, len, pad = 0;

	for (i = 0; i < ncols; i++) {
		if (rec == NULL)
			(void)snprintf(cell, sizeof(cell), "%s",
			    cols[i].header);
		else
			ctl_value(cell, sizeof(cell),
			    ctl_field(rec, cols[i].field), &cols[i]);
		len = strlen(cell);
		pad += i > 0 ? 2 : 0;
		if (cols[i].fmt != CTL_FMT_TEXT)
			pad += w[i] - len;
		if (len > 0) {
			(void)printf("%*s%s", (int)pad, "", cell);
			pad = 0;
		}
		if (cols[i].fmt == CTL_FMT_TEXT)
			pad += w[i] - len;
	}
	(void)putchar('\n');
}

static void
ctl_render_table(const struct ctl_col *cols, const struct ctl_in *in)
{
	char cell[CTLP_STR_MAX + 32];
	struct ctlp_record rec;
	size_t w[CTL_COLS_MAX], ncols, i, pos = 0;

	for (ncols = 0; ncols < CTL_COLS_MAX && cols[ncols].field; ncols++)
		w[ncols] = strlen(cols[ncols].header);
	while (ctl_in_next(in, &pos, &rec) == 0) {
		for (i = 0; i < ncols; i++) {
			ctl_value(cell, sizeof(cell),
			    ctl_field(&rec, cols[i].field), &cols[i]);
			if (strlen(cell) > w[i])
				w[i] = strlen(cell);
		}
	}
	ctl_table_line(cols, ncols, w, NULL);
	pos = 0;
	while (ctl_in_next(in, &pos, &rec) == 0)
		ctl_table_line(cols, ncols, w, &rec);
}

/* Every field of every record as "name: value" lines. */
static void
ctl_render_object(const struct ctl_in *in)
{
	char val[CTLP_STR_MAX + 32];
	struct ctlp_record rec;
	size_t i, pos = 0;

	while (ctl_in_next(in, &pos, &rec) == 0) {
		for (i = 0; i < rec.n; i++) {
			ctl_value(val, sizeof(val), &rec.f[i], NULL);
			(void)printf("%s: %s\n", rec.f[i].name, val);
		}
	}
}

/* The "line" field of every record, one per line. */
static void
ctl_render_lines(const struct ctl_in *in)
{
	const struct ctlp_field *f;
	struct ctlp_record rec;
	size_t pos = 0;

	while (ctl_in_next(in, &pos, &rec) == 0)
		if ((f = ctl_field(&rec, "line")) != NULL &&
		    f->type == CTLP_F_STR)
			(void)printf("%.*s\n", (int)f->str_len, f->str);
}

/* The fields of rec as JSON members, after a comma unless *first. */
static void
ctl_json_fields(const struct ctlp_record *rec, int *first)
{
	const struct ctlp_field *f;
	size_t i;

	for (i = 0; i < rec->n; i++) {
		f = &rec->f[i];
		(void)printf("%s\"%s\":", *first ? "" : ",", f->name);
		*first = 0;
		if (f->type == CTLP_F_STR)
			ctl_json_strn(f->str, f->str_len);
		else if (f->type == CTLP_F_BOOL)
			(void)fputs(f->u64 ? "true" : "false", stdout);
		else
			(void)printf("%" PRIu64, f->u64);
	}
}

/* A table as an array of objects, an object command as one object. */
static void
ctl_render_json(enum ctl_shape shape, const struct ctl_in *in)
{
	struct ctlp_record rec;
	size_t pos = 0;
	int first = 1, first_rec = 1;

	(void)fputs(shape == CTL_SHAPE_TABLE ? "[" : "{", stdout);
	while (ctl_in_next(in, &pos, &rec) == 0) {
		if (shape == CTL_SHAPE_TABLE) {
			(void)fputs(first_rec ? "{" : ",{", stdout);
			first = 1;
		}
		ctl_json_fields(&rec, &first);
		if (shape == CTL_SHAPE_TABLE)
			(void)putchar('}');
		first_rec = 0;
	}
	(void)puts(shape == CTL_SHAPE_TABLE ? "]" : "}");
}

static int
ctl_render(const struct ctl *ctl, const struct ctl_dcmd *dc,
    const struct ctl_in *in)
{
	if (dc->shape == CTL_SHAPE_NONE)
		return CTL_EXIT_OK;
	if (ctl->json)
		ctl_render_json(dc->shape == CTL_SHAPE_LINES ? CTL_SHAPE_TABLE :
		    dc->shape, in);
	else if (dc->shape == CTL_SHAPE_LINES)
		ctl_render_lines(in);
	else if (dc->shape == CTL_SHAPE_TABLE)
		ctl_render_table(dc->cols, in);
	else
		ctl_render_object(in);
	return ctl_flush_stdout();
}

/* The options after name in trust add: [name NAME] [gateway]. */
static int
ctl_trust_opts(const struct ctl_cmd *cmd, int n, char **ops)
{
	int i, named = 0, gateway = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(ops[i], "gateway") == 0 && !gateway) {
			gateway = 1;
		} else if (strcmp(ops[i], "name") == 0 && !named) {
			if (++i >= n)
				return ctl_usage_err(cmd, "name needs a NAME");
			if (!bs_policy_name_ok(ops[i], strlen(ops[i])))
				return ctl_usage_err(cmd, "bad name '%s' (1-%d "
				    "characters A-Z a-z 0-9 . _ -)", ops[i],
				    BS_POLICY_NAME_MAX);
			named = 1;
		} else {
			return ctl_usage_err(cmd, "unexpected argument '%s'",
			    ops[i]);
		}
	}
	return 0;
}

/* Check the operands of dc against their form; 0 or a usage error. */
static int
ctl_check_operands(const struct ctl_cmd *cmd, const struct ctl_dcmd *dc,
    int n, char **ops)
{
	if (dc->ops == CTL_OPS_NONE && n > 0)
		return ctl_usage_err(cmd, "too many arguments");
	if (dc->ops == CTL_OPS_NONE)
		return 0;
	if (n == 0)
		return ctl_usage_err(cmd, "missing argument");
	if (*ops[0] == '\0')
		return ctl_usage_err(cmd, "empty key or file name");
	if (dc->ops == CTL_OPS_KEY && n > 1)
		return ctl_usage_err(cmd, "too many arguments");
	if (dc->ops == CTL_OPS_TRUST)
		return ctl_trust_opts(cmd, n - 1, ops + 1);
	return 0;
}

/*
 * The command of the table for cmd: trust picks its subcommand from the
 * first operand (*skip = 1).  NULL after a usage error (*rc).
 */
static const struct ctl_dcmd *
ctl_daemon_pick(const struct ctl_cmd *cmd, int n, char **ops, int *skip,
    int *rc)
{
	char path[64];
	const struct ctl_dcmd *dc;

	*skip = 0;
	*rc = CTL_EXIT_FAIL;
	if (strcmp(cmd->name, "trust") != 0 && strcmp(cmd->name, "policy") != 0)
		return ctl_dcmd_find(cmd->name);
	if (n == 0) {
		*rc = ctl_usage_err(cmd, "missing subcommand (%s)",
		    strcmp(cmd->name, "trust") == 0 ? "add, remove or list" :
		    "show");
		return NULL;
	}
	(void)snprintf(path, sizeof(path), "%s %.20s", cmd->name, ops[0]);
	if ((dc = ctl_dcmd_find(path)) == NULL)
		*rc = ctl_usage_err(cmd, "unknown command '%s'", ops[0]);
	*skip = 1;
	return dc;
}

/*
 * Turn the operands into request arguments: a KEY (text, file or "-") is
 * read here and sent as base64, the rest is passed as given.
 */
static int
ctl_daemon_args(struct ctl *ctl, const struct ctl_dcmd *dc, int n,
    char **ops, char key[static BS_KEY_B64_LEN + 1], const char **args)
{
	uint8_t pk[BS_PK_LEN];
	int i, rc;

	if (dc->ops == CTL_OPS_NONE)
		return 0;
	if ((rc = ctl_load_pubkey(ctl, ops[0], pk)) != 0)
		return rc;
	bs_key_to_b64(key, pk);
	args[0] = key;
	for (i = 1; i < n; i++)
		args[i] = ops[i];
	return 0;
}

/* Parse -h / -j of a daemon command; 0, or an exit status when done. */
static int
ctl_daemon_opts(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":hj", opts, NULL)) != -1) {
		if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help(cmd) == 0 ? CTL_HELP_SHOWN :
			    CTL_EXIT_FAIL;
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	return 0;
}

/*
 * Run a daemon command.  The socket is connected before the operands are
 * checked: without a running batsecd nothing else can succeed, and every
 * daemon command then gives that same answer.
 */
static int
ctl_daemon_run(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	const char *args[CTLP_ARGS_MAX];
	char key[BS_KEY_B64_LEN + 1];
	const struct ctl_dcmd *dc;
	struct ctl_in in = { NULL, 0, 0, 0 };
	char **ops;
	int fd, n, skip, rc;

	if ((rc = ctl_daemon_opts(ctl, cmd, argc, argv)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	ops = argv + optind;
	n = argc - optind;
	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	dc = ctl_daemon_pick(cmd, n, ops, &skip, &rc);
	if (dc != NULL) {
		ops += skip;
		n -= skip;
		/* The forms checked allow at most 4 operands. */
		if ((rc = ctl_check_operands(cmd, dc, n, ops)) == 0 &&
		    (rc = ctl_daemon_args(ctl, dc, n, ops, key, args)) == 0 &&
		    (rc = ctl_exchange(ctl, fd, dc->wire, (size_t)n, args,
		    &in)) == 0)
			rc = ctl_render(ctl, dc, &in);
	}
	(void)close(fd);
	free(in.buf);
	return rc;
}

/* ---- revoke: locally, or a CA revocation record ------------------------- */

struct ctl_revoke_opts {
	const char *ca;			/* --ca CAKEYFILE */
	const char *record;		/* --record FILE */
	const char *out;		/* -o FILE: write, do not send */
	int force;
};

static int
ctl_save_revoke(const char *path, const void *obj, char *err, size_t errlen)
{
	return bs_revoke_save(path, obj, err, errlen);
}

static int
ctl_revoke_opts(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv, struct ctl_revoke_opts *o)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, CTL_OPT_CA },
		{ "record", required_argument, NULL, CTL_OPT_RECORD },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof(*o));
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":fhjo:", opts, NULL)) != -1) {
		if (ch == CTL_OPT_CA)
			o->ca = optarg;
		else if (ch == CTL_OPT_RECORD)
			o->record = optarg;
		else if (ch == 'o')
			o->out = optarg;
		else if (ch == 'f')
			o->force = 1;
		else if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help(cmd) == 0 ? CTL_HELP_SHOWN :
			    CTL_EXIT_FAIL;
		else
			return ctl_bad_option(cmd, ch, argv);
	}
	if (o->ca != NULL && o->record != NULL)
		return ctl_usage_err(cmd, "--ca and --record exclude each "
		    "other");
	if (o->out != NULL && o->ca == NULL)
		return ctl_usage_err(cmd, "-o needs --ca");
	if ((o->ca != NULL && *o->ca == '\0') ||
	    (o->record != NULL && *o->record == '\0') ||
	    (o->out != NULL && *o->out == '\0'))
		return ctl_usage_err(cmd, "empty file name");
	return 0;
}

/* One request with one argument on fd; the reply has no records. */
static int
ctl_send1(struct ctl *ctl, int fd, const char *wire, const char *arg)
{
	struct ctl_in in = { NULL, 0, 0, 0 };
	const char *args[1];
	int rc;

	args[0] = arg;
	rc = ctl_exchange(ctl, fd, wire, 1, args, &in);
	free(in.buf);
	return rc;
}

static int
ctl_send_record(struct ctl *ctl, int fd, const struct bs_revoke *r)
{
	uint8_t raw[BS_REVOKE_LEN];
	char b64[CTLP_REVOKE_B64_LEN + 1];

	bs_revoke_encode(raw, r);
	if (bs_b64_encode(b64, sizeof(b64), raw, sizeof(raw)) < 0) {
		ctl_warnx("revoke: cannot encode the record");
		return CTL_EXIT_FAIL;
	}
	return ctl_send1(ctl, fd, CTLP_CMD_REVOKE_RECORD, b64);
}

/* A record signed with the CA key in path for pk. */
static int
ctl_revoke_issue(struct ctl *ctl, const char *path,
    const uint8_t pk[static BS_PK_LEN], struct bs_revoke *r)
{
	struct bs_identity ca;
	uint64_t now;
	int rc;

	if ((now = ctl_now()) == 0)
		return CTL_EXIT_FAIL;
	if ((rc = ctl_load_seckey(ctl, path, &ca)) != 0)
		return rc;
	rc = bs_revoke_issue(r, &ca, pk, now) == 0 ? CTL_EXIT_OK :
	    CTL_EXIT_FAIL;
	bs_identity_wipe(&ca);
	if (rc != 0)
		ctl_warnx("revoke: cannot sign the record");
	return rc;
}

/* The record or key of a revoke command, then the request on fd. */
static int
ctl_revoke_do(struct ctl *ctl, const struct ctl_cmd *cmd,
    const struct ctl_revoke_opts *o, int n, char **ops, int fd)
{
	char key[BS_KEY_B64_LEN + 1], err[CTL_ERRLEN];
	uint8_t pk[BS_PK_LEN];
	struct bs_revoke r;
	int rc;

	if (o->record != NULL) {
		if (n != 0)
			return ctl_usage_err(cmd, "--record takes no KEY");
		if (bs_revoke_load(o->record, &r, err, sizeof(err)) != 0)
			return ctl_fail(err);
		return ctl_send_record(ctl, fd, &r);
	}
	if (n != 1)
		return ctl_usage_err(cmd, n == 0 ? "missing KEY" :
		    "too many arguments");
	if (*ops[0] == '\0')
		return ctl_usage_err(cmd, "empty key or file name");
	if ((rc = ctl_load_pubkey(ctl, ops[0], pk)) != 0)
		return rc;
	if (o->ca == NULL) {
		bs_key_to_b64(key, pk);
		return ctl_send1(ctl, fd, CTLP_CMD_REVOKE, key);
	}
	if ((rc = ctl_revoke_issue(ctl, o->ca, pk, &r)) != 0)
		return rc;
	if (o->out != NULL)
		return ctl_save(o->out, o->force, ctl_save_revoke, &r);
	return ctl_send_record(ctl, fd, &r);
}

/*
 * revoke KEY: a local revoke entry.  revoke --ca CAKEYFILE KEY: a CA
 * record, sent to batsecd (which spreads it) or written with -o.
 * revoke --record FILE: send a record made elsewhere.  As every daemon
 * command, it connects before it looks at its operands, except with -o,
 * which needs no daemon.
 */
static int
ctl_revoke(struct ctl *ctl, const struct ctl_cmd *cmd, int argc, char **argv)
{
	struct ctl_revoke_opts o;
	int fd = -1, rc;

	if ((rc = ctl_revoke_opts(ctl, cmd, argc, argv, &o)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if (o.out == NULL && (fd = ctl_connect(ctl, cmd)) < 0)
		return CTL_EXIT_FAIL;
	rc = ctl_revoke_do(ctl, cmd, &o, argc - optind, argv + optind, fd);
	if (fd >= 0)
		(void)close(fd);
	return rc;
}

/* ---- version, help and the command tables ------------------------------ */

static int
ctl_version(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	(void)ctl;
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		return ctl_help(cmd);
	if (argc != 1)
		return ctl_usage_err(cmd, "takes no arguments");
	(void)printf(CTL_PROG " %s\n", BATSEC_VERSION);
	return ctl_flush_stdout();
}

/* ---- ping: the mesh ping ------------------------------------------------- */

#define CTL_PING_COUNT_MAX	100000
#define CTL_PING_FRAME_LEN	20	/* an ECHO frame (batsec-protocol(7)) */

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
	int ch;

	o->count = 5;
	o->interval = 1;
	o->wait = 1;
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":c:i:W:jh", opts, NULL)) != -1) {
		if (ch == 'c') {
			if (ctl_parse_u64(optarg, CTL_PING_COUNT_MAX,
			    &count) != 0 || count == 0)
				return ctl_usage_err(cmd, "-c: a count of 1 to "
				    "%d", CTL_PING_COUNT_MAX);
			o->count = (long)count;
		} else if (ch == 'i') {
			if (ctl_num(optarg, 0.01, 60, &o->interval) != 0)
				return ctl_usage_err(cmd, "-i: 0.01 to 60 "
				    "seconds");
		} else if (ch == 'W') {
			if (ctl_num(optarg, 0.01, 60, &o->wait) != 0)
				return ctl_usage_err(cmd, "-W: 0.01 to 60 "
				    "seconds");
		} else if (ch == 'j')
			ctl->json = 1;
		else if (ch == 'h')
			return ctl_help(cmd) == 0 ? CTL_HELP_SHOWN :
			    CTL_EXIT_FAIL;
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
 * Wait up to wait seconds for the reply to request seqno: 1 with *rtt_us,
 * 0 none came, -1 the exchange failed (reported).
 */
static int
ctl_ping_wait(struct ctl *ctl, int fd, uint64_t seqno, double wait,
    uint64_t *rtt_us)
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
			r = 1;
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
 * 1 with *rtt_us, 0 no reply within wait, -1 failed (reported); orig
 * gets the originator batsecd sent the request to.
 */
static int
ctl_ping_one(struct ctl *ctl, const struct ctl_cmd *cmd, const char *target,
    double wait, char *orig, size_t origlen, uint64_t *rtt_us)
{
	struct ctl_in in = { NULL, 0, 0, 0 };
	struct ctlp_field seq, addr;
	const char *args[1] = { target };
	int fd, r = -1;

	if ((fd = ctl_connect(ctl, cmd)) < 0)
		return -1;
	if (ctl_exchange(ctl, fd, CTLP_CMD_PING, 1, args, &in) == 0 &&
	    ctl_first_field(ctl, &in, "seqno", CTLP_F_U64, &seq) == 0 &&
	    ctl_first_field(ctl, &in, "address", CTLP_F_STR, &addr) == 0) {
		(void)snprintf(orig, origlen, "%.*s", (int)addr.str_len,
		    addr.str);
		r = ctl_ping_wait(ctl, fd, seq.u64, wait, rtt_us);
	}
	(void)close(fd);
	free(in.buf);
	return r;
}

/*
 * ping ADDRESS: echo requests through the mesh, one every interval; the
 * round trip is timed by batsecd, from the request leaving to the reply
 * arriving.
 */
static int
ctl_ping(struct ctl *ctl, const struct ctl_cmd *cmd, int argc, char **argv)
{
	struct ctl_ping_opts o;
	struct sigaction sa;
	const char *target;
	char orig[CTLP_STR_MAX + 1] = "";
	uint64_t rtt = 0, sum = 0, lo = 0, hi = 0;
	long k, sent = 0, got = 0;
	double t0;
	int rc, r;

	if ((rc = ctl_ping_opts(ctl, cmd, argc, argv, &o)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	target = argv[optind];
	/* Interrupted (Ctrl-C), ping stops and still prints its summary. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ctl_ping_sigint;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, NULL);
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

static int ctl_help_cmd(struct ctl *, const struct ctl_cmd *, int, char **);

static const struct ctl_cmd ctl_key_cmds[] = {
	{ "generate", NULL, "key generate", ctl_key_generate, NULL,
	  "  key generate [-f] [-o FILE]\n"
	  "      New secret key, as one base64 line to stdout or to FILE.\n"
	  "      -o, --output FILE  write it to FILE (mode 0600, atomically)\n"
	  "      -f, --force        replace FILE if it exists\n" },
	{ "public", NULL, "key public", ctl_key_public, NULL,
	  "  key public [FILE | -]\n"
	  "      Public key (one base64 line) of the secret key in FILE\n"
	  "      (mode 0600 or stricter) or on stdin (- or no FILE).\n" },
	{ "address", NULL, "key address", ctl_key_address, NULL,
	  "  key address [-S] KEY | FILE | -\n"
	  "      Mesh address of a public key: base64 text, a public key\n"
	  "      file, or stdin (-).\n"
	  "      -S, --secret       the argument is a secret key file or -\n" },
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

static const struct ctl_cmd ctl_cert_cmds[] = {
	{ "issue", NULL, "cert issue", ctl_cert_issue, NULL,
	  "  cert issue --ca CAKEYFILE --key PUBKEY [--name NAME]\n"
	  "             [--days DAYS] [--gateway] [-f] [-o FILE]\n"
	  "      Certificate for PUBKEY (base64 text or file), signed\n"
	  "      with the CA secret key, valid from now for DAYS days.\n"
	  "      --name NAME        1-32 printable ASCII, no spaces\n"
	  "      --days DAYS        1-3650, default 365\n"
	  "      --gateway          grant the gateway role\n"
	  "      -o, --output FILE  write it to FILE instead of stdout\n"
	  "      -f, --force        replace FILE if it exists\n" },
	{ "show", NULL, "cert show", ctl_cert_show, NULL,
	  "  cert show [-j] FILE | -\n"
	  "      Fields of a certificate, and whether its signature verifies\n"
	  "      for the issuer it names.\n"
	  "      -j, --json         one JSON object\n" },
	{ "verify", NULL, "cert verify", ctl_cert_verify, NULL,
	  "  cert verify --anchor CAPUBKEY FILE | -\n"
	  "      Print \"valid\" and exit 0 when the certificate is issued\n"
	  "      by CAPUBKEY (base64 text or file), its signature verifies\n"
	  "      and it is valid now; else print why and exit 1.\n" },
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

#define CTL_DAEMON(n, a, u)	{ n, a, n, ctl_daemon_run, NULL, u }

static const struct ctl_cmd ctl_cmds[] = {
	{ "key", NULL, "key", NULL, ctl_key_cmds, NULL },
	{ "cert", NULL, "cert", NULL, ctl_cert_cmds, NULL },
	{ "version", NULL, "version", ctl_version, NULL,
	  "  version\n"
	  "      Print the version of " CTL_PROG ".\n" },
	{ "help", NULL, "help", ctl_help_cmd, NULL,
	  "  help [COMMAND [SUBCOMMAND]]\n"
	  "      This help, or that of one command.\n" },
	CTL_DAEMON("originators", "o",
	  "  originators (o)\n"
	  "      Every originator with its last-seen time, TQ, next hop and\n"
	  "      interface; '*' marks the best next hop.\n"),
	CTL_DAEMON("neighbors", "n",
	  "  neighbors (n)\n"
	  "      The direct neighbours per interface, last seen, link TQ.\n"),
	CTL_DAEMON("interfaces", "if",
	  "  interfaces (if)\n"
	  "      The mesh interfaces and whether they are active.\n"),
	CTL_DAEMON("gateways", "gw",
	  "  gateways (gw)\n"
	  "      Internet gateways announced in the mesh.\n"),
	CTL_DAEMON("clients", "tt",
	  "  clients (tt)\n"
	  "      Client MAC addresses (translation table) and their node.\n"),
	CTL_DAEMON("stats", "s",
	  "  stats (s)\n"
	  "      The daemon's counters.\n"),
	CTL_DAEMON("status", NULL,
	  "  status\n"
	  "      Whether batsecd answers: its version, uptime, clients.\n"),
	CTL_DAEMON("trust", NULL,
	  "  trust add KEY [name NAME] [gateway]\n"
	  "  trust remove KEY\n"
	  "  trust list\n"
	  "      Change or list the trusted keys; a change is written to the\n"
	  "      policy file.  KEY is base64 text, a public key file or -.\n"),
	CTL_DAEMON("block", NULL,
	  "  block KEY\n"
	  "      Drop everything from KEY (kept in the policy file).\n"),
	CTL_DAEMON("unblock", NULL,
	  "  unblock KEY\n"
	  "      Remove KEY from the block list.\n"),
	{ "revoke", NULL, "revoke", ctl_revoke, NULL,
	  "  revoke KEY\n"
	  "      Revoke KEY on this node only (a revoke line in the policy).\n"
	  "  revoke --ca CAKEYFILE [-o FILE [-f]] KEY\n"
	  "      Sign a revocation record for KEY with the CA secret key and\n"
	  "      hand it to batsecd, which stores it and spreads it through\n"
	  "      the mesh; with -o write it to FILE instead.\n"
	  "  revoke --record FILE\n"
	  "      Hand a record written with -o to batsecd.\n" },
	CTL_DAEMON("anchors", NULL,
	  "  anchors\n"
	  "      The CA keys of the policy, with the revocation records\n"
	  "      held from each.\n"),
	CTL_DAEMON("policy", NULL,
	  "  policy show\n"
	  "      The running policy as canonical text, and the CA\n"
	  "      revocations in force as comments.\n"),
	CTL_DAEMON("reload", NULL,
	  "  reload\n"
	  "      Read the policy file again; on an error the running\n"
	  "      policy stays.\n"),
	{ "ping", "p", "ping", ctl_ping, NULL,
	  "  ping [-c COUNT] [-i SECONDS] [-W SECONDS] ADDRESS\n"
	  "      Echo requests through the mesh to an originator (or the\n"
	  "      one that announces client MAC ADDRESS); round trips as\n"
	  "      batsecd timed them.  Exit 0 when a reply came; Ctrl-C\n"
	  "      stops it with the summary.\n"
	  "      -c, --count COUNT  requests (default 5)\n"
	  "      -i, --interval S   seconds between requests (default 1)\n"
	  "      -W, --wait S       seconds to wait for each reply (1)\n" },
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

/* The full help: every offline command, the daemon commands, options. */
static int
ctl_help_all(void)
{
	const struct ctl_cmd *c;

	(void)printf("%s\noffline commands:\n", ctl_global_usage);
	for (c = ctl_cmds; c->name != NULL; c++)
		if (!ctl_is_daemon(c))
			ctl_print_usage(stdout, c);
	(void)printf("\ndaemon commands (need a running batsecd; -j for "
	    "JSON):\n");
	for (c = ctl_cmds; c->name != NULL; c++)
		if (ctl_is_daemon(c))
			ctl_print_usage(stdout, c);
	return ctl_flush_stdout();
}

static const struct ctl_cmd *
ctl_lookup(const struct ctl_cmd *table, const char *name)
{
	const struct ctl_cmd *c;

	for (c = table; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0 ||
		    (c->alias != NULL && strcmp(c->alias, name) == 0))
			return c;
	return NULL;
}

static int
ctl_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0 ||
	    strcmp(arg, "help") == 0;
}

/* help [COMMAND [SUBCOMMAND]]: walk the tables without running anything. */
static int
ctl_help_cmd(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	const struct ctl_cmd *c = NULL, *table = ctl_cmds;
	int i;

	(void)ctl;
	if (argc == 1)
		return ctl_help_all();
	for (i = 1; i < argc; i++) {
		if (table == NULL)
			return ctl_usage_err(cmd, "'%s' has no subcommands",
			    c->path);
		if ((c = ctl_lookup(table, argv[i])) == NULL)
			return ctl_usage_err(cmd, "unknown command '%s'",
			    argv[i]);
		table = c->sub;
	}
	return ctl_help(c);
}

/*
 * Run argv[0] from table: a group dispatches its first argument to its
 * sub-table, a leaf parses its own options (argv[0] is its name).
 */
static int
ctl_dispatch(struct ctl *ctl, const struct ctl_cmd *group,
    const struct ctl_cmd *table, int argc, char **argv)
{
	const struct ctl_cmd *c = ctl_lookup(table, argv[0]);

	if (c == NULL)
		return ctl_usage_err(group, "unknown command '%s'", argv[0]);
	if (c->run != NULL)
		return c->run(ctl, c, argc, argv);
	if (argc < 2)
		return ctl_usage_err(c, "missing subcommand");
	if (ctl_is_help(argv[1]))
		return ctl_help(c);
	return ctl_dispatch(ctl, c, c->sub, argc - 1, argv + 1);
}

_Static_assert(BS_CONF_SOCKET_MAX < sizeof(((struct sockaddr_un *)0)->sun_path),
    "a socket path of BS_CONF_SOCKET_MAX bytes and its NUL fit sun_path");

/* Check -s SOCKET: a path that fits in sockaddr_un. */
static int
ctl_socket_arg(const char *path)
{
	if (*path == '\0')
		return ctl_usage_err(NULL, "empty socket path");
	if (strlen(path) > BS_CONF_SOCKET_MAX)
		return ctl_usage_err(NULL, "socket path longer than %d bytes",
		    BS_CONF_SOCKET_MAX);
	return 0;
}

/*
 * The tool may hold a CA secret key: keep it out of core dumps and away
 * from same-user debuggers.  Failure only loses this extra protection.
 */
static void
ctl_harden(void)
{
	struct rlimit rl = { 0, 0 };

	(void)setrlimit(RLIMIT_CORE, &rl);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctl ctl = { BS_CONF_DEF_SOCKET, 0, 0 };
	int ch, rc;

	ctl_harden();
	if (bs_crypto_init() != 0) {
		ctl_warnx("cannot initialise libsodium");
		return CTL_EXIT_FAIL;
	}
	ctl_opt_reset();
	/* '+': stop at the command name; its options belong to it. */
	while ((ch = getopt_long(argc, argv, "+:hjs:", opts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			return ctl_help_all();
		case 'j':
			ctl.json = 1;
			break;
		case 's':
			if ((rc = ctl_socket_arg(optarg)) != 0)
				return rc;
			ctl.sock = optarg;
			break;
		default:
			return ctl_bad_option(NULL, ch, argv);
		}
	}
	if (optind >= argc)
		return ctl_usage_err(NULL, "no command given");
	return ctl_dispatch(&ctl, NULL, ctl_cmds, argc - optind, argv + optind);
}
