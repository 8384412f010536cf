/*
 * fuzz_conf.c — batsec.conf(5) parser and batsecd's command-line parser.
 *
 * Input is a configuration file, unless it starts with "\0ARGV\0": then
 * the rest is a NUL-separated argument list for config_parse_args(), and
 * for parser_parse_args() (the parser's own command line, which the
 * forwarder writes: -P [-d] -u USER -r CHROOT).
 *
 * Besides memory safety, the harness checks what callers rely on (and
 * aborts when it does not hold):
 *   - an accepted configuration dumps to text that parses back to an
 *     equal configuration and dumps to the same text again;
 *   - config_validate() of an accepted configuration fails only for the
 *     two whole-configuration reasons (no interface, TAP name reused);
 *   - a rejected one yields a one-line message naming the file;
 *   - accepted command-line values always apply to the defaults;
 *   - the parser's command line is accepted only in its one shape, and
 *     then USER and CHROOT are the arguments themselves.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "parser/parser.h"

#define FUZZ_NAME	"fuzz.conf"
#define FUZZ_ERRLEN	512
#define FUZZ_MAX_ARGS	40

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz_argv_magic[6] = { '\0', 'A', 'R', 'G', 'V', '\0' };
static char fuzz_prog[] = "batsecd";

static void
fuzz_check_err(const char *err, const char *prefix)
{
	if (strnlen(err, FUZZ_ERRLEN) >= FUZZ_ERRLEN || err[0] == '\0' ||
	    strchr(err, '\n') != NULL)
		abort();
	if (prefix != NULL && strncmp(err, prefix, strlen(prefix)) != 0)
		abort();
}

/* Dump, parse back, compare, dump again: the round-trip oracle. */
static void
fuzz_roundtrip(const struct bs_config *cfg)
{
	static char d1[BS_CONF_DUMP_MAX], d2[BS_CONF_DUMP_MAX];
	static struct bs_config back;
	char err[FUZZ_ERRLEN];
	int n;

	n = config_dump(cfg, d1, sizeof(d1));
	if (n <= 0)
		abort();
	if (config_parse_buf(&back, d1, (size_t)n, "dump", err,
	    sizeof(err)) != 0)
		abort();
	if (!config_equal(cfg, &back))
		abort();
	if (config_dump(&back, d2, sizeof(d2)) != n || memcmp(d1, d2,
	    (size_t)n) != 0)
		abort();
}

static bool
fuzz_tap_reused(const struct bs_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->n_ifaces; i++)
		if (strcmp(cfg->ifaces[i], cfg->tap) == 0)
			return true;
	return false;
}

static void
fuzz_file(const uint8_t *data, size_t size)
{
	static struct bs_config cfg;
	char err[FUZZ_ERRLEN];
	bool whole_ok;

	if (config_parse_buf(&cfg, (const char *)data, size, FUZZ_NAME, err,
	    sizeof(err)) != 0) {
		fuzz_check_err(err, FUZZ_NAME ":");
		return;
	}
	fuzz_roundtrip(&cfg);
	whole_ok = cfg.n_ifaces > 0 && !fuzz_tap_reused(&cfg);
	if ((config_validate(&cfg, err, sizeof(err)) == 0) != whole_ok)
		abort();
}

static void
fuzz_parser_args(int argc, char **argv)
{
	struct parser_args pa;
	char err[FUZZ_ERRLEN];
	int i;

	if (parser_parse_args(argc, argv, &pa, err, sizeof(err)) != 0) {
		fuzz_check_err(err, NULL);
		return;
	}
	i = argc == 7 ? 3 : 2;
	if ((argc != 6 && argc != 7) || strcmp(argv[1], "-P") != 0 ||
	    pa.debug != (argc == 7) || pa.user != argv[i + 1] ||
	    pa.chroot_dir != argv[i + 3])
		abort();
}

static void
fuzz_args(const uint8_t *data, size_t size)
{
	static struct bs_config cfg;
	struct bs_args args;
	char *argv[FUZZ_MAX_ARGS + 1];
	char err[FUZZ_ERRLEN], *copy, *p, *end;
	int argc = 0;

	/* A NUL-terminated copy, split at every NUL into arguments. */
	if ((copy = malloc(size + 1)) == NULL)
		return;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = fuzz_prog;
	for (p = copy, end = copy + size; p <= end && argc < FUZZ_MAX_ARGS;
	    p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	if (config_parse_args(argc, argv, &args, err, sizeof(err)) != 0) {
		fuzz_check_err(err, NULL);
	} else if (args.role == BS_ROLE_PARSER) {
		if (argc != 2 || strcmp(argv[1], "-P") != 0)
			abort();
	} else {
		config_defaults(&cfg);
		if (config_apply_args(&cfg, &args, err, sizeof(err)) != 0)
			abort();
		fuzz_roundtrip(&cfg);
	}
	fuzz_parser_args(argc, argv);
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= sizeof(fuzz_argv_magic) &&
	    memcmp(data, fuzz_argv_magic, sizeof(fuzz_argv_magic)) == 0)
		fuzz_args(data + sizeof(fuzz_argv_magic),
		    size - sizeof(fuzz_argv_magic));
	else
		fuzz_file(data, size);
	return 0;
}
