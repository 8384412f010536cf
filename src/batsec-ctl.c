/*
 * batsec-ctl.c — the batsec command-line tool.
 *
 * Offline commands (keys and certificates) work on files and need no
 * daemon.  The daemon commands (originators, neighbors, trust, ...) will
 * talk to batsecd's control socket; they are listed in the command table
 * so that help, dispatch and the global options -s and -j are already in
 * place, but this version only reports that they are not available.
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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "config.h"
#include "version.h"

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

static const char ctl_daemon_usage[] =
    "daemon commands (need a running batsecd; not available in this "
    "version):\n"
    "  originators (o)  neighbors (n)  interfaces (if)  gateways (gw)\n"
    "  clients (tt)  stats (s)  trust  block  unblock  revoke  reload  "
    "ping (p)\n";

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

/* fsync the directory holding path, so a new link survives a power cut. */
static int
ctl_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc = 0;

	if (slash == NULL)
		(void)snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		(void)snprintf(dir, sizeof(dir), "/");
	else
		(void)snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path),
		    path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (fsync(fd) != 0 && errno != EINVAL)) {
		ctl_warnx("%s: cannot sync directory %s: %s", path, dir,
		    strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		(void)close(fd);
	return rc;
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
	return ctl_sync_dir(path) == 0 ? CTL_EXIT_OK : CTL_EXIT_FAIL;
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

/* Print s as a JSON string (quotes included). */
static void
ctl_json_str(const char *s)
{
	unsigned char ch;

	(void)putchar('"');
	for (; (ch = (unsigned char)*s) != '\0'; s++) {
		if (ch == '"' || ch == '\\')
			(void)printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			(void)printf("\\u%04x", ch);
		else
			(void)putchar(ch);
	}
	(void)putchar('"');
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

/* ---- version, help and the daemon commands ----------------------------- */

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

/*
 * Placeholder for the commands that talk to batsecd over the control
 * socket (ctl->sock); they arrive with the daemon's control protocol.
 */
static int
ctl_daemon_cmd(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	(void)ctl;
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		return ctl_help(cmd);
	ctl_warnx("%s: needs the batsecd control socket, which this version "
	    "of " CTL_PROG " cannot use yet", cmd->path);
	return CTL_EXIT_FAIL;
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

#define CTL_DAEMON(n, a)	{ n, a, n, ctl_daemon_cmd, NULL, NULL }

static const struct ctl_cmd ctl_cmds[] = {
	{ "key", NULL, "key", NULL, ctl_key_cmds, NULL },
	{ "cert", NULL, "cert", NULL, ctl_cert_cmds, NULL },
	{ "version", NULL, "version", ctl_version, NULL,
	  "  version\n"
	  "      Print the version of " CTL_PROG ".\n" },
	{ "help", NULL, "help", ctl_help_cmd, NULL,
	  "  help [COMMAND [SUBCOMMAND]]\n"
	  "      This help, or that of one command.\n" },
	CTL_DAEMON("originators", "o"),
	CTL_DAEMON("neighbors", "n"),
	CTL_DAEMON("interfaces", "if"),
	CTL_DAEMON("gateways", "gw"),
	CTL_DAEMON("clients", "tt"),
	CTL_DAEMON("stats", "s"),
	CTL_DAEMON("trust", NULL),
	CTL_DAEMON("block", NULL),
	CTL_DAEMON("unblock", NULL),
	CTL_DAEMON("revoke", NULL),
	CTL_DAEMON("reload", NULL),
	CTL_DAEMON("ping", "p"),
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

/* The full help: every offline command, the daemon commands, options. */
static int
ctl_help_all(void)
{
	const struct ctl_cmd *c;

	(void)printf("%s\noffline commands:\n", ctl_global_usage);
	for (c = ctl_cmds; c->name != NULL; c++)
		if (c->run != ctl_daemon_cmd)
			ctl_print_usage(stdout, c);
	(void)printf("\n%s", ctl_daemon_usage);
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
