/*
 * ctl_cert.c — batsec-ctl cert issue, cert show, cert verify: community
 * certificates, signed with a CA secret key and checked offline.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "ctl_cert.h"
#include "ctl_files.h"
#include "ctl_util.h"

#define CTL_DAY			86400ULL
#define CTL_DAYS_DEFAULT	365
#define CTL_DAYS_MAX		3650
/* cert issue refuses to date a certificate from a clock before 2020. */
#define CTL_CLOCK_MIN		1577836800ULL

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

/* ---- cert issue -------------------------------------------------------- */

/* What cert issue was asked for; times are 0 when not given. */
struct ctl_issue {
	const char *ca, *key, *name, *out;
	uint64_t days, not_before, not_after;
	int days_set, nb_set, na_set, gateway, force;
};

/* The long options that have no short form. */
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
			return ctl_help_shown(cmd);
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

int
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
		return ctl_save(is.out, is.force, ctl_write_cert, &c);
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

int
ctl_cert_show(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	struct ctl_cert_view v;
	struct bs_cert c;
	int rc;

	if ((rc = ctl_opts_basic(ctl, cmd, argc, argv, 1)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
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

int
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
	int rc;

	if ((rc = ctl_opts_one(cmd, argc, argv, ":h", opts, CTL_OPT_ANCHOR,
	    &anchor_arg, &path, "file name")) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
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
