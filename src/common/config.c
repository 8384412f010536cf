/*
 * config.c — batsec.conf(5) parser, defaults and command-line overrides.
 *
 * The file format is deliberately small: one directive per line, tokens
 * separated by blanks, '#' starting a comment where a token would start.
 * There is no quoting, so no value may contain a blank; every value is
 * checked by the same function whether it came from the file or from a
 * flag, which is what lets config_dump() output always parse back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "config.h"

_Static_assert(BS_CONF_SOCKET_MAX + 1 == sizeof(((struct sockaddr_un *)0)->sun_path),
    "BS_CONF_SOCKET_MAX must match sockaddr_un.sun_path");
_Static_assert(BS_CONF_PATH_MAX + 16 < BS_CONF_LINE_MAX,
    "a dumped path directive must fit on one line");

#define CONF_WHERE_MAX	1200	/* "name:line: directive" or "option -x" */
#define CONF_QUOTE_MAX	64	/* bytes of a value quoted in a message */
#define CONF_MAX_TOKENS	8	/* tokens remembered per line */
#define CONF_BW_MAX_KBIT	(UINT64_C(100) * UINT32_MAX)

static const char conf_usage_line[] =
    "batsecd [-dfV] [-c config] [-k keyfile] [-p policyfile] [-s socket] "
    "[-t tapname] [-S statedir] [-i iface]...";

const char *
config_usage(void)
{
	return conf_usage_line;
}

/* ---- error messages ---------------------------------------------------- */

static void conf_err(char *err, size_t errlen, const char *where,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Writes "where: message" into err; where may be NULL or empty. */
static void
conf_err(char *err, size_t errlen, const char *where, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (err == NULL || errlen == 0)
		return;
	err[0] = '\0';
	if (where != NULL && where[0] != '\0')
		n = snprintf(err, errlen, "%s: ", where);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/*
 * A value made fit to appear inside quotes in a one-line message: at most
 * CONF_QUOTE_MAX bytes, control characters replaced by '?', "..." appended
 * when cut.
 */
struct conf_quoted {
	char s[CONF_QUOTE_MAX + 4];
};

static const char *
conf_quote(struct conf_quoted *q, const char *v)
{
	size_t i;

	for (i = 0; v[i] != '\0' && i < CONF_QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)v[i];
		q->s[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (v[i] != '\0')
		memcpy(&q->s[i], "...", 3), i += 3;
	q->s[i] = '\0';
	return q->s;
}

/* ---- value checks, shared by the file and the command line ------------- */

/* Blank, control character or DEL: never allowed inside a value. */
static bool
conf_is_space_or_ctrl(unsigned char c)
{
	return c <= 0x20 || c == 0x7f;
}

/* Why name is not a usable interface name, or NULL when it is. */
static const char *
conf_ifname_problem(const char *name)
{
	size_t i, len = strnlen(name, IFNAMSIZ);

	if (len == 0)
		return "empty";
	if (len > BS_CONF_IFNAME_MAX)
		return "longer than 15 bytes";
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return "'.' and '..' are reserved";
	if (name[0] == '#')
		return "begins with '#', which starts a comment";
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '/')
			return "contains '/'";
		if (c == ':')
			return "contains ':'";
		if (conf_is_space_or_ctrl(c))
			return "contains a blank or control character";
	}
	return NULL;
}

static int
conf_set_ifname(char dst[IFNAMSIZ], const char *val, const char *where,
    char *err, size_t errlen)
{
	struct conf_quoted q;
	const char *why = conf_ifname_problem(val);

	if (why != NULL) {
		conf_err(err, errlen, where,
		    "'%s' is not a valid interface name: %s",
		    conf_quote(&q, val), why);
		return -1;
	}
	memset(dst, 0, IFNAMSIZ);
	memcpy(dst, val, strlen(val));
	return 0;
}

/* Checks a path of at most maxlen bytes; the message names where. */
static int
conf_check_path(const char *path, size_t maxlen, const char *where,
    char *err, size_t errlen)
{
	struct conf_quoted q;
	size_t i, len = strnlen(path, maxlen + 1);

	if (len > maxlen) {
		conf_err(err, errlen, where, "'%s': path longer than %zu bytes",
		    conf_quote(&q, path), maxlen);
		return -1;
	}
	if (len == 0 || path[0] != '/') {
		conf_err(err, errlen, where, "'%s' is not an absolute path",
		    conf_quote(&q, path));
		return -1;
	}
	for (i = 0; i < len; i++)
		if (conf_is_space_or_ctrl((unsigned char)path[i])) {
			conf_err(err, errlen, where, "'%s': path contains a "
			    "blank or control character", conf_quote(&q, path));
			return -1;
		}
	return 0;
}

static int
conf_set_path(char *dst, size_t dstsize, const char *val, const char *where,
    char *err, size_t errlen)
{
	if (conf_check_path(val, dstsize - 1, where, err, errlen) != 0)
		return -1;
	memset(dst, 0, dstsize);
	memcpy(dst, val, strlen(val));
	return 0;
}

/*
 * A chroot directory of "/" (or "/.", "//", "/..") would give the
 * sandboxed parser the whole filesystem.
 */
static bool
conf_path_is_root(const char *path)
{
	return strspn(path, "/.") == strlen(path);
}

static int
conf_set_chroot(char *dst, size_t dstsize, const char *val, const char *where,
    char *err, size_t errlen)
{
	struct conf_quoted q;

	if (conf_set_path(dst, dstsize, val, where, err, errlen) != 0)
		return -1;
	if (conf_path_is_root(val)) {
		conf_err(err, errlen, where,
		    "'%s' is the root directory; the parser needs an empty one",
		    conf_quote(&q, val));
		memset(dst, 0, dstsize);
		return -1;
	}
	return 0;
}

static const char *
conf_user_problem(const char *user)
{
	size_t i, len = strnlen(user, BS_CONF_USER_MAX + 1);

	if (len == 0)
		return "empty";
	if (len > BS_CONF_USER_MAX)
		return "longer than 32 bytes";
	if (user[0] == '-' || user[0] == '.')
		return "begins with '-' or '.'";
	for (i = 0; i < len; i++) {
		char c = user[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return "only letters, digits, '_', '-' and '.' are allowed";
	}
	return NULL;
}

static int
conf_set_user(char dst[BS_CONF_USER_MAX + 1], const char *val,
    const char *where, char *err, size_t errlen)
{
	struct conf_quoted q;
	const char *why = conf_user_problem(val);

	if (why != NULL) {
		conf_err(err, errlen, where, "'%s' is not a valid user name: %s",
		    conf_quote(&q, val), why);
		return -1;
	}
	memset(dst, 0, BS_CONF_USER_MAX + 1);
	memcpy(dst, val, strlen(val));
	return 0;
}

/* ---- numbers ----------------------------------------------------------- */

/* Decimal digits only; 0, -1 when not a number, -2 when above UINT64_MAX. */
static int
conf_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (s[0] == '\0')
		return -1;
	for (i = 0; s[i] != '\0'; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int
conf_parse_range(const char *val, uint64_t min, uint64_t max, uint64_t *out,
    const char *where, char *err, size_t errlen)
{
	struct conf_quoted q;
	uint64_t v = 0;
	int rc = conf_parse_u64(val, &v);

	if (rc == -1) {
		conf_err(err, errlen, where, "'%s' is not a decimal number",
		    conf_quote(&q, val));
		return -1;
	}
	if (rc == -2 || v < min || v > max) {
		conf_err(err, errlen, where, "%s is out of range %llu..%llu",
		    conf_quote(&q, val), (unsigned long long)min,
		    (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

/* ---- ethertype --------------------------------------------------------- */

/*
 * Ethertypes batsec refuses: sharing one with a protocol the hosts already
 * speak would feed that protocol's frames to batsec and batsec's to it.
 */
static const struct {
	uint16_t	type;
	const char	*name;
} conf_reserved_ethertypes[] = {
	{ 0x0800, "IPv4" },
	{ 0x0806, "ARP" },
	{ 0x4305, "batman-adv" },
	{ 0x8035, "RARP" },
	{ 0x8100, "802.1Q VLAN" },
	{ 0x86dd, "IPv6" },
	{ 0x8847, "MPLS" },
	{ 0x8848, "MPLS" },
	{ 0x8863, "PPPoE" },
	{ 0x8864, "PPPoE" },
	{ 0x888e, "802.1X EAPOL" },
	{ 0x88a8, "802.1ad VLAN" },
	{ 0x88cc, "LLDP" },
	{ 0x88e5, "MACsec" },
	{ 0x9100, "QinQ VLAN" },
	{ 0xffff, "reserved" },
};

static const char *
conf_ethertype_owner(uint16_t type)
{
	size_t i;

	for (i = 0; i < sizeof(conf_reserved_ethertypes) /
	    sizeof(conf_reserved_ethertypes[0]); i++)
		if (conf_reserved_ethertypes[i].type == type)
			return conf_reserved_ethertypes[i].name;
	return NULL;
}

static int
conf_check_ethertype(uint16_t type, const char *where, char *err,
    size_t errlen)
{
	const char *owner;

	if (type < BS_CONF_ETHERTYPE_MIN) {
		conf_err(err, errlen, where, "0x%04x is below 0x%04x "
		    "(smaller values are 802.3 length fields)", type,
		    BS_CONF_ETHERTYPE_MIN);
		return -1;
	}
	if ((owner = conf_ethertype_owner(type)) != NULL) {
		conf_err(err, errlen, where, "0x%04x is in use by %s; "
		    "0x88b5 and 0x88b6 are free for local protocols", type,
		    owner);
		return -1;
	}
	return 0;
}

static int
conf_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0x" followed by one to four hexadecimal digits. */
static int
conf_parse_ethertype(const char *val, uint16_t *out, const char *where,
    char *err, size_t errlen)
{
	struct conf_quoted q;
	unsigned v = 0;
	size_t i, n = strlen(val);

	if (n < 3 || n > 6 || val[0] != '0' || (val[1] != 'x' &&
	    val[1] != 'X'))
		goto bad;
	for (i = 2; i < n; i++) {
		int h = conf_hexval(val[i]);
		if (h < 0)
			goto bad;
		v = v * 16 + (unsigned)h;
	}
	if (conf_check_ethertype((uint16_t)v, where, err, errlen) != 0)
		return -1;
	*out = (uint16_t)v;
	return 0;
bad:
	conf_err(err, errlen, where,
	    "'%s' is not a hexadecimal ethertype like 0x88b5",
	    conf_quote(&q, val));
	return -1;
}

/* ---- gateway bandwidth ------------------------------------------------- */

static const struct {
	const char	*suffix;
	uint64_t	kbit;	/* multiplier to kbit/s */
} conf_bw_units[] = {
	{ "", 1 },
	{ "k", 1 }, { "kbit", 1 },
	{ "m", 1000 }, { "mbit", 1000 },
	{ "g", 1000000 }, { "gbit", 1000000 },
};

static int
conf_bw_unit(const char *s, uint64_t *mult)
{
	size_t i;

	for (i = 0; i < sizeof(conf_bw_units) / sizeof(conf_bw_units[0]); i++)
		if (strcasecmp(s, conf_bw_units[i].suffix) == 0) {
			*mult = conf_bw_units[i].kbit;
			return 0;
		}
	return -1;
}

/*
 * One bandwidth: digits, optionally '.' and up to six more digits, then an
 * optional unit (none or k/kbit: kbit/s; m/mbit: Mbit/s; g/gbit: Gbit/s,
 * any case).  The result must be a whole, non-zero number of 100 kbit/s
 * that fits 32 bits; nothing is rounded.
 */
static int
conf_parse_bw(const char *s, uint32_t *units, const char *where, char *err,
    size_t errlen)
{
	struct conf_quoted q;
	uint64_t ip = 0, fp = 0, pow = 1, mult = 1, kbit;
	size_t i = 0, nint = 0, nfrac = 0;
	bool dot = false;

	for (; s[i] >= '0' && s[i] <= '9'; i++, nint++)
		if (nint < 15)
			ip = ip * 10 + (uint64_t)(s[i] - '0');
	if (s[i] == '.') {
		dot = true;
		for (i++; s[i] >= '0' && s[i] <= '9'; i++, nfrac++)
			if (nfrac < 6)
				fp = fp * 10 + (uint64_t)(s[i] - '0'),
				pow *= 10;
	}
	if (nint == 0 || (dot && nfrac == 0) ||
	    conf_bw_unit(&s[i], &mult) != 0) {
		conf_err(err, errlen, where, "bandwidth '%s' is not a number "
		    "with an optional unit kbit, mbit or gbit",
		    conf_quote(&q, s));
		return -1;
	}
	if (nfrac > 6) {
		conf_err(err, errlen, where, "bandwidth '%s' has more than 6 "
		    "decimal places", conf_quote(&q, s));
		return -1;
	}
	if (nint > 15 || ip > CONF_BW_MAX_KBIT / mult)
		goto range;
	if ((fp * mult) % pow != 0) {
		conf_err(err, errlen, where, "bandwidth '%s' is not a whole "
		    "number of kbit/s", conf_quote(&q, s));
		return -1;
	}
	kbit = ip * mult + fp * mult / pow;
	if (kbit == 0 || kbit > CONF_BW_MAX_KBIT)
		goto range;
	if (kbit % 100 != 0) {
		conf_err(err, errlen, where, "bandwidth '%s' is %llu kbit/s, "
		    "not a multiple of 100 kbit/s", conf_quote(&q, s),
		    (unsigned long long)kbit);
		return -1;
	}
	*units = (uint32_t)(kbit / 100);
	return 0;
range:
	conf_err(err, errlen, where, "bandwidth '%s' is out of range "
	    "100..%llu kbit/s", conf_quote(&q, s),
	    (unsigned long long)CONF_BW_MAX_KBIT);
	return -1;
}

/* "DOWN/UP", both bandwidths as conf_parse_bw() takes them. */
static int
conf_parse_bw_pair(const char *val, uint32_t *down, uint32_t *up,
    const char *where, char *err, size_t errlen)
{
	char tmp[BS_CONF_LINE_MAX + 1];
	struct conf_quoted q;
	char *slash;
	size_t n = strlen(val);

	slash = memchr(val, '/', n);
	if (n >= sizeof(tmp) || slash == NULL || slash == val ||
	    slash[1] == '\0' || strchr(slash + 1, '/') != NULL) {
		conf_err(err, errlen, where, "'%s' is not DOWN/UP, "
		    "e.g. 10mbit/2mbit", conf_quote(&q, val));
		return -1;
	}
	memcpy(tmp, val, n + 1);
	tmp[slash - val] = '\0';
	if (conf_parse_bw(tmp, down, where, err, errlen) != 0 ||
	    conf_parse_bw(slash + 1, up, where, err, errlen) != 0)
		return -1;
	return 0;
}

/* ---- log level --------------------------------------------------------- */

static const struct {
	const char		*name;
	enum bs_log_level	level;
} conf_log_levels[] = {
	{ "error", BS_LOG_ERROR },
	{ "warning", BS_LOG_WARNING },
	{ "info", BS_LOG_INFO },
	{ "debug", BS_LOG_DEBUG },
};

const char *
config_log_level_name(enum bs_log_level level)
{
	size_t i;

	for (i = 0; i < sizeof(conf_log_levels) / sizeof(conf_log_levels[0]);
	    i++)
		if (conf_log_levels[i].level == level)
			return conf_log_levels[i].name;
	return "?";
}

/* ---- interface list ---------------------------------------------------- */

static ssize_t
conf_find_iface(const struct bs_config *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->n_ifaces && i < BS_CONF_MAX_IFACES; i++)
		if (strncmp(cfg->ifaces[i], name, IFNAMSIZ) == 0)
			return (ssize_t)i;
	return -1;
}

static int
conf_add_iface(struct bs_config *cfg, const char *name, const char *where,
    char *err, size_t errlen)
{
	char tmp[IFNAMSIZ];

	if (conf_set_ifname(tmp, name, where, err, errlen) != 0)
		return -1;
	if (conf_find_iface(cfg, tmp) >= 0) {
		conf_err(err, errlen, where, "'%s' is listed twice", tmp);
		return -1;
	}
	if (cfg->n_ifaces >= BS_CONF_MAX_IFACES) {
		conf_err(err, errlen, where, "more than %d interfaces",
		    BS_CONF_MAX_IFACES);
		return -1;
	}
	memcpy(cfg->ifaces[cfg->n_ifaces++], tmp, IFNAMSIZ);
	return 0;
}

/* ---- defaults ---------------------------------------------------------- */

void
config_defaults(struct bs_config *cfg)
{
	/* Zeroed first, so every string field is NUL-padded to its end. */
	memset(cfg, 0, sizeof(*cfg));
	memcpy(cfg->tap, BS_CONF_DEF_TAP, sizeof(BS_CONF_DEF_TAP));
	memcpy(cfg->key, BS_CONF_DEF_KEY, sizeof(BS_CONF_DEF_KEY));
	memcpy(cfg->policy, BS_CONF_DEF_POLICY, sizeof(BS_CONF_DEF_POLICY));
	memcpy(cfg->socket, BS_CONF_DEF_SOCKET, sizeof(BS_CONF_DEF_SOCKET));
	memcpy(cfg->state_dir, BS_CONF_DEF_STATE_DIR,
	    sizeof(BS_CONF_DEF_STATE_DIR));
	memcpy(cfg->user, BS_CONF_DEF_USER, sizeof(BS_CONF_DEF_USER));
	memcpy(cfg->chroot_dir, BS_CONF_DEF_CHROOT, sizeof(BS_CONF_DEF_CHROOT));
	cfg->ethertype = BS_CONF_DEF_ETHERTYPE;
	cfg->orig_interval_ms = BS_CONF_DEF_ORIG_MS;
	cfg->hello_interval_ms = BS_CONF_DEF_HELLO_MS;
	cfg->link_rekey_s = BS_CONF_DEF_REKEY_S;
	cfg->hop_penalty = BS_CONF_DEF_HOP_PENALTY;
	cfg->gw_mode = BS_GW_OFF;
	cfg->gw_sel_class = BS_CONF_DEF_GW_CLASS;
	cfg->log_level = BS_LOG_INFO;
	cfg->fast_path = BS_FAST_ON;
	cfg->epoch_seed = BS_EPOCH_SEED_AUTO;
	cfg->dat = true;
}

/* ---- the file ---------------------------------------------------------- */

struct conf_parser {
	struct bs_config	cfg;
	const char		*name;
	size_t			line;
	size_t			seen[32];	/* line of first use, per directive */
	char			where[CONF_WHERE_MAX];
	char			*err;
	size_t			errlen;
};

struct conf_directive {
	const char	*name;
	int		(*set)(struct conf_parser *, char **, size_t);
	size_t		min_args;
	size_t		max_args;
	bool		repeatable;
};

static const char *const conf_medium_names[] = {
	[BS_MEDIUM_AUTO] = "auto", [BS_MEDIUM_WIRED] = "wired",
	[BS_MEDIUM_WIRELESS] = "wireless",
};
#define CONF_N_MEDIA	(sizeof(conf_medium_names) / sizeof(conf_medium_names[0]))

const char *
config_medium_name(enum bs_medium m)
{
	return (size_t)m < CONF_N_MEDIA ? conf_medium_names[m] : "?";
}

unsigned
config_iface_repeat(const struct bs_conf_iface *o, bool wireless)
{
	if (o->repeat_set)
		return o->bcast_repeat;
	return wireless ? BS_CONF_DEF_REPEAT_WIRELESS :
	    BS_CONF_DEF_REPEAT_WIRED;
}

/* hop-penalty N of an interface line (av[i] is the word hop-penalty). */
static int
conf_iface_penalty(struct conf_parser *p, char **av, size_t ac, size_t *i,
    struct bs_conf_iface *o)
{
	uint64_t v;

	if (*i + 1 >= ac) {
		conf_err(p->err, p->errlen, p->where,
		    "hop-penalty needs a value");
		return -1;
	}
	if (conf_parse_range(av[++*i], 0, UINT8_MAX, &v, p->where, p->err,
	    p->errlen) != 0)
		return -1;
	o->hop_penalty = (uint8_t)v;
	return 0;
}

/*
 * The words after the name: [auto|wired|wireless] [bcast-repeat N]
 * [hop-penalty N].
 */
static int
conf_iface_words(struct conf_parser *p, char **av, size_t ac,
    struct bs_conf_iface *o)
{
	struct conf_quoted q;
	bool medium_set = false, penalty_set = false;
	uint64_t v;
	size_t i, m;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < ac; i++) {
		for (m = 0; m < CONF_N_MEDIA; m++)
			if (strcmp(av[i], conf_medium_names[m]) == 0)
				break;
		if (m < CONF_N_MEDIA && !medium_set && !o->repeat_set &&
		    !penalty_set) {
			o->medium = (enum bs_medium)m;
			medium_set = true;
			continue;
		}
		if (strcmp(av[i], "hop-penalty") == 0 && !penalty_set) {
			if (conf_iface_penalty(p, av, ac, &i, o) != 0)
				return -1;
			penalty_set = true;
			continue;
		}
		if (strcmp(av[i], "bcast-repeat") == 0 && !o->repeat_set &&
		    !penalty_set) {
			if (i + 1 >= ac) {
				conf_err(p->err, p->errlen, p->where,
				    "bcast-repeat needs a count");
				return -1;
			}
			if (conf_parse_range(av[++i], 0,
			    BS_CONF_BCAST_REPEAT_MAX, &v, p->where, p->err,
			    p->errlen) != 0)
				return -1;
			o->bcast_repeat = (uint8_t)v;
			o->repeat_set = true;
			continue;
		}
		conf_err(p->err, p->errlen, p->where, "'%s' is not auto, "
		    "wired, wireless, bcast-repeat N or hop-penalty N (in that "
		    "order, each once)", conf_quote(&q, av[i]));
		return -1;
	}
	return 0;
}

static int
conf_d_interface(struct conf_parser *p, char **av, size_t ac)
{
	struct bs_conf_iface o;

	if (conf_iface_words(p, av + 1, ac - 1, &o) != 0 ||
	    conf_add_iface(&p->cfg, av[0], p->where, p->err, p->errlen) != 0)
		return -1;
	p->cfg.iface_opt[p->cfg.n_ifaces - 1] = o;
	return 0;
}

static int
conf_d_tap(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_ifname(p->cfg.tap, av[0], p->where, p->err,
	    p->errlen);
}

static int
conf_d_key(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_path(p->cfg.key, sizeof(p->cfg.key), av[0], p->where,
	    p->err, p->errlen);
}

static int
conf_d_policy(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_path(p->cfg.policy, sizeof(p->cfg.policy), av[0],
	    p->where, p->err, p->errlen);
}

static int
conf_d_socket(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_path(p->cfg.socket, sizeof(p->cfg.socket), av[0],
	    p->where, p->err, p->errlen);
}

static int
conf_d_state_dir(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_path(p->cfg.state_dir, sizeof(p->cfg.state_dir),
	    av[0], p->where, p->err, p->errlen);
}

static int
conf_d_user(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_user(p->cfg.user, av[0], p->where, p->err, p->errlen);
}

static int
conf_d_chroot(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_set_chroot(p->cfg.chroot_dir, sizeof(p->cfg.chroot_dir),
	    av[0], p->where, p->err, p->errlen);
}

static int
conf_d_ethertype(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_parse_ethertype(av[0], &p->cfg.ethertype, p->where,
	    p->err, p->errlen);
}

static int
conf_d_interval(struct conf_parser *p, const char *val, uint32_t *dst)
{
	uint64_t v;

	if (conf_parse_range(val, BS_CONF_INTERVAL_MIN, BS_CONF_INTERVAL_MAX,
	    &v, p->where, p->err, p->errlen) != 0)
		return -1;
	*dst = (uint32_t)v;
	return 0;
}

static int
conf_d_orig_interval(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_d_interval(p, av[0], &p->cfg.orig_interval_ms);
}

static int
conf_d_hello_interval(struct conf_parser *p, char **av, size_t ac)
{
	(void)ac;
	return conf_d_interval(p, av[0], &p->cfg.hello_interval_ms);
}

static int
conf_d_link_rekey(struct conf_parser *p, char **av, size_t ac)
{
	uint64_t v;

	(void)ac;
	if (conf_parse_range(av[0], BS_CONF_REKEY_MIN_S, BS_CONF_REKEY_MAX_S,
	    &v, p->where, p->err, p->errlen) != 0)
		return -1;
	p->cfg.link_rekey_s = (uint32_t)v;
	return 0;
}

static int
conf_d_hop_penalty(struct conf_parser *p, char **av, size_t ac)
{
	uint64_t v;

	(void)ac;
	if (conf_parse_range(av[0], 0, UINT8_MAX, &v, p->where, p->err,
	    p->errlen) != 0)
		return -1;
	p->cfg.hop_penalty = (uint8_t)v;
	return 0;
}

/*
 * gw-mode (or its older name gateway): off | client | server DOWN/UP.
 * The two names are one directive: the second of them is refused.
 */
static int
conf_d_gateway(struct conf_parser *p, char **av, size_t ac)
{
	struct conf_quoted q;

	if (strcmp(av[0], "off") == 0 || strcmp(av[0], "client") == 0) {
		if (ac > 1) {
			conf_err(p->err, p->errlen, p->where,
			    "unexpected argument '%s' after '%s'",
			    conf_quote(&q, av[1]), av[0]);
			return -1;
		}
		p->cfg.gw_mode = av[0][0] == 'o' ? BS_GW_OFF : BS_GW_CLIENT;
		p->cfg.gw_down = p->cfg.gw_up = 0;
		return 0;
	}
	if (strcmp(av[0], "server") != 0) {
		conf_err(p->err, p->errlen, p->where,
		    "'%s' is not 'off', 'client' or 'server'",
		    conf_quote(&q, av[0]));
		return -1;
	}
	if (ac < 2) {
		conf_err(p->err, p->errlen, p->where,
		    "'server' needs the bandwidth DOWN/UP, e.g. 10mbit/2mbit");
		return -1;
	}
	if (conf_parse_bw_pair(av[1], &p->cfg.gw_down, &p->cfg.gw_up,
	    p->where, p->err, p->errlen) != 0)
		return -1;
	p->cfg.gw_mode = BS_GW_SERVER;
	return 0;
}

static int
conf_d_gw_sel_class(struct conf_parser *p, char **av, size_t ac)
{
	uint64_t v;

	(void)ac;
	if (conf_parse_range(av[0], BS_CONF_GW_CLASS_MIN, BS_CONF_GW_CLASS_MAX,
	    &v, p->where, p->err, p->errlen) != 0)
		return -1;
	p->cfg.gw_sel_class = (uint8_t)v;
	return 0;
}

static int
conf_d_log_level(struct conf_parser *p, char **av, size_t ac)
{
	struct conf_quoted q;
	size_t i;

	(void)ac;
	for (i = 0; i < sizeof(conf_log_levels) / sizeof(conf_log_levels[0]);
	    i++)
		if (strcmp(av[0], conf_log_levels[i].name) == 0) {
			p->cfg.log_level = conf_log_levels[i].level;
			return 0;
		}
	conf_err(p->err, p->errlen, p->where, "'%s' is not one of error, "
	    "warning, info, debug", conf_quote(&q, av[0]));
	return -1;
}

static int
conf_d_ap_isolation(struct conf_parser *p, char **av, size_t ac)
{
	struct conf_quoted q;

	(void)ac;
	if (strcmp(av[0], "on") == 0 || strcmp(av[0], "off") == 0) {
		p->cfg.ap_isolation = strcmp(av[0], "on") == 0;
		return 0;
	}
	conf_err(p->err, p->errlen, p->where, "'%s' is neither 'on' nor 'off'",
	    conf_quote(&q, av[0]));
	return -1;
}

/*
 * The index of word in names[0..n) into *out: 0, or -1 with "'word' is
 * not <expect>" as the error.
 */
static int
conf_pick(struct conf_parser *p, const char *word,
    const char *const *names, size_t n, const char *expect, size_t *out)
{
	struct conf_quoted q;
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(word, names[i]) == 0) {
			*out = i;
			return 0;
		}
	conf_err(p->err, p->errlen, p->where, "'%s' is not %s",
	    conf_quote(&q, word), expect);
	return -1;
}

#define CONF_NAMES(a)	(a), sizeof(a) / sizeof((a)[0])

static const char *const conf_fast_path_names[] = {
	[BS_FAST_OFF] = "off", [BS_FAST_ON] = "on", [BS_FAST_TC] = "tc",
};

static int
conf_d_fast_path(struct conf_parser *p, char **av, size_t ac)
{
	size_t i;

	(void)ac;
	if (conf_pick(p, av[0], CONF_NAMES(conf_fast_path_names),
	    "on, off or tc", &i) != 0)
		return -1;
	p->cfg.fast_path = (enum bs_fast_path)i;
	return 0;
}

static const char *const conf_epoch_seed_names[] = {
	[BS_EPOCH_SEED_AUTO] = "auto", [BS_EPOCH_SEED_CLOCK] = "clock",
	[BS_EPOCH_SEED_NONE] = "none",
};

static int
conf_d_epoch_seed(struct conf_parser *p, char **av, size_t ac)
{
	size_t i;

	(void)ac;
	if (conf_pick(p, av[0], CONF_NAMES(conf_epoch_seed_names),
	    "auto, clock or none", &i) != 0)
		return -1;
	p->cfg.epoch_seed = (enum bs_epoch_seed)i;
	return 0;
}

static int
conf_d_dat(struct conf_parser *p, char **av, size_t ac)
{
	struct conf_quoted q;

	(void)ac;
	if (strcmp(av[0], "on") == 0 || strcmp(av[0], "off") == 0) {
		p->cfg.dat = strcmp(av[0], "on") == 0;
		return 0;
	}
	conf_err(p->err, p->errlen, p->where, "'%s' is not on or off",
	    conf_quote(&q, av[0]));
	return -1;
}

static const char *const conf_mcast_names[] = {
	[BS_MCAST_AUTO] = "auto", [BS_MCAST_EXACT] = "exact",
	[BS_MCAST_FLOOD] = "flood",
};

static int
conf_d_mcast(struct conf_parser *p, char **av, size_t ac)
{
	size_t i;

	(void)ac;
	if (conf_pick(p, av[0], CONF_NAMES(conf_mcast_names),
	    "one of auto, exact, flood", &i) != 0)
		return -1;
	p->cfg.mcast = (enum bs_mcast_mode)i;
	return 0;
}

static const char *const conf_e2e_cipher_names[] = {
	[BS_E2E_AUTO] = "auto", [BS_E2E_CHACHA20] = "chacha20-poly1305",
};

static int
conf_d_e2e_cipher(struct conf_parser *p, char **av, size_t ac)
{
	size_t i;

	(void)ac;
	if (conf_pick(p, av[0], CONF_NAMES(conf_e2e_cipher_names),
	    "auto or chacha20-poly1305", &i) != 0)
		return -1;
	p->cfg.e2e_cipher = (enum bs_e2e_cipher)i;
	return 0;
}

static int
conf_d_bla(struct conf_parser *p, char **av, size_t ac)
{
	struct conf_quoted q;

	(void)ac;
	if (strcmp(av[0], "on") == 0 || strcmp(av[0], "off") == 0) {
		p->cfg.bla = strcmp(av[0], "on") == 0;
		return 0;
	}
	conf_err(p->err, p->errlen, p->where, "'%s' is not on or off",
	    conf_quote(&q, av[0]));
	return -1;
}

static const struct conf_directive conf_directives[] = {
	{ "interface", conf_d_interface, 1, 6, true },
	{ "tap", conf_d_tap, 1, 1, false },
	{ "key", conf_d_key, 1, 1, false },
	{ "policy", conf_d_policy, 1, 1, false },
	{ "socket", conf_d_socket, 1, 1, false },
	{ "state-dir", conf_d_state_dir, 1, 1, false },
	{ "user", conf_d_user, 1, 1, false },
	{ "chroot", conf_d_chroot, 1, 1, false },
	{ "ethertype", conf_d_ethertype, 1, 1, false },
	{ "orig-interval", conf_d_orig_interval, 1, 1, false },
	{ "hello-interval", conf_d_hello_interval, 1, 1, false },
	{ "link-rekey", conf_d_link_rekey, 1, 1, false },
	{ "hop-penalty", conf_d_hop_penalty, 1, 1, false },
	{ "gateway", conf_d_gateway, 1, 2, false },
	{ "gw-mode", conf_d_gateway, 1, 2, false },
	{ "gw-sel-class", conf_d_gw_sel_class, 1, 1, false },
	{ "log-level", conf_d_log_level, 1, 1, false },
	{ "ap-isolation", conf_d_ap_isolation, 1, 1, false },
	{ "fast-path", conf_d_fast_path, 1, 1, false },
	{ "epoch-seed", conf_d_epoch_seed, 1, 1, false },
	{ "dat", conf_d_dat, 1, 1, false },
	{ "multicast-listeners", conf_d_mcast, 1, 1, false },
	{ "bla", conf_d_bla, 1, 1, false },
	{ "e2e-cipher", conf_d_e2e_cipher, 1, 1, false },
};
#define CONF_N_DIRECTIVES \
	(sizeof(conf_directives) / sizeof(conf_directives[0]))
_Static_assert(CONF_N_DIRECTIVES <= 32, "conf_parser.seen is too small");

/*
 * Splits line (NUL-terminated, writable) at blanks into tok; a token that
 * starts with '#' ends the line.  Returns the number of tokens, which may
 * exceed CONF_MAX_TOKENS (only that many are stored).
 */
static size_t
conf_tokenize(char *line, char *tok[CONF_MAX_TOKENS])
{
	size_t n = 0;
	char *s = line;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			return n;
		if (n < CONF_MAX_TOKENS)
			tok[n] = s;
		n++;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
		if (*s != '\0')
			*s++ = '\0';
	}
}

static int
conf_run_directive(struct conf_parser *p, size_t idx, char **tok,
    size_t ntok)
{
	const struct conf_directive *d = &conf_directives[idx];
	struct conf_quoted q;
	size_t nargs = ntok - 1, k;

	/* Two names of one directive (gateway, gw-mode) count as one. */
	for (k = 0; k < idx; k++)
		if (conf_directives[k].set == d->set) {
			idx = k;
			break;
		}
	snprintf(p->where, sizeof(p->where), "%s:%zu: %s", p->name, p->line,
	    d->name);
	if (!d->repeatable && p->seen[idx] != 0) {
		conf_err(p->err, p->errlen, p->where,
		    "given twice (first on line %zu)", p->seen[idx]);
		return -1;
	}
	if (nargs < d->min_args) {
		conf_err(p->err, p->errlen, p->where, "missing argument");
		return -1;
	}
	if (nargs > d->max_args) {
		conf_err(p->err, p->errlen, p->where,
		    "unexpected extra argument '%s'",
		    conf_quote(&q, tok[d->max_args + 1]));
		return -1;
	}
	p->seen[idx] = p->line;
	return d->set(p, tok + 1, nargs);
}

static int
conf_parse_line(struct conf_parser *p, const char *text, size_t len)
{
	char line[BS_CONF_LINE_MAX + 1];
	char *tok[CONF_MAX_TOKENS];
	struct conf_quoted q;
	size_t i, ntok;

	snprintf(p->where, sizeof(p->where), "%s:%zu", p->name, p->line);
	if (len > BS_CONF_LINE_MAX) {
		conf_err(p->err, p->errlen, p->where,
		    "line longer than %d bytes", BS_CONF_LINE_MAX);
		return -1;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			conf_err(p->err, p->errlen, p->where,
			    "control character 0x%02x in line", c);
			return -1;
		}
	}
	memcpy(line, text, len);
	line[len] = '\0';
	if ((ntok = conf_tokenize(line, tok)) == 0)
		return 0;
	for (i = 0; i < CONF_N_DIRECTIVES; i++)
		if (strcmp(tok[0], conf_directives[i].name) == 0)
			return conf_run_directive(p, i, tok, ntok);
	conf_err(p->err, p->errlen, p->where, "unknown directive '%s'",
	    conf_quote(&q, tok[0]));
	return -1;
}

static int
conf_parse_text(struct conf_parser *p, const char *buf, size_t len)
{
	size_t pos = 0;

	if (len > BS_CONF_FILE_MAX) {
		conf_err(p->err, p->errlen, p->name,
		    "larger than %d bytes", BS_CONF_FILE_MAX);
		return -1;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - (buf + pos)) : len - pos;

		p->line++;
		if (conf_parse_line(p, buf + pos, n) != 0)
			return -1;
		pos += n + (nl != NULL);
	}
	return 0;
}

int
config_parse_buf(struct bs_config *cfg, const char *buf, size_t len,
    const char *name, char *err, size_t errlen)
{
	struct conf_parser *p;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	/* On the heap: the parser state is a few kilobytes. */
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		conf_err(err, errlen, name, "out of memory");
		return -1;
	}
	config_defaults(&p->cfg);
	p->name = name != NULL ? name : "batsec.conf";
	p->err = err;
	p->errlen = errlen;
	rc = conf_parse_text(p, buf, len);
	if (rc == 0)
		*cfg = p->cfg;
	free(p);
	return rc;
}

/* ---- runtime settings (batsec-ctl set / get) -------------------------- */

static const char *const conf_runtime_names[] = {
	"hop-penalty", "orig-interval", "hello-interval", "gateway",
	"gw-sel-class", "log-level", "ap-isolation", "dat",
};
#define CONF_N_RUNTIME \
	(sizeof(conf_runtime_names) / sizeof(conf_runtime_names[0]))

const char *
config_runtime_name(size_t i)
{
	return i < CONF_N_RUNTIME ? conf_runtime_names[i] : NULL;
}

static bool
conf_is_runtime(const char *name)
{
	size_t i;

	for (i = 0; i < CONF_N_RUNTIME; i++)
		if (strcmp(name, conf_runtime_names[i]) == 0)
			return true;
	return strcmp(name, "gw-mode") == 0;
}

int
config_set_runtime(struct bs_config *cfg, size_t argc,
    const char *const argv[], char *err, size_t errlen)
{
	char copy[CONF_MAX_TOKENS][BS_CONF_LINE_MAX + 1];
	char *tok[CONF_MAX_TOKENS];
	const struct conf_directive *d = NULL;
	struct conf_parser *p;
	struct conf_quoted q;
	size_t i;
	int rc;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (argc == 0 || argv[0] == NULL) {
		conf_err(err, errlen, NULL, "no setting named");
		return -1;
	}
	for (i = 0; i < CONF_N_DIRECTIVES && conf_is_runtime(argv[0]); i++)
		if (strcmp(argv[0], conf_directives[i].name) == 0)
			d = &conf_directives[i];
	if (d == NULL) {
		conf_err(err, errlen, NULL, "'%s' cannot be set at run time "
		    "(one of hop-penalty, orig-interval, hello-interval, "
		    "gateway, gw-sel-class, log-level, ap-isolation, dat)",
		    conf_quote(&q, argv[0]));
		return -1;
	}
	if (argc - 1 < d->min_args || argc - 1 > d->max_args) {
		conf_err(err, errlen, d->name, argc - 1 < d->min_args ?
		    "missing value" : "too many values");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (argv[i] == NULL || strlen(argv[i]) > BS_CONF_LINE_MAX) {
			conf_err(err, errlen, d->name, "value too long");
			return -1;
		}
		memcpy(copy[i], argv[i], strlen(argv[i]) + 1);
		tok[i] = copy[i];
	}
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		conf_err(err, errlen, d->name, "out of memory");
		return -1;
	}
	/* The file's own check: the same ranges, the same messages. */
	p->cfg = *cfg;
	p->name = "set";
	p->err = err;
	p->errlen = errlen;
	snprintf(p->where, sizeof(p->where), "%s", d->name);
	rc = d->set(p, tok + 1, argc - 1);
	if (rc == 0)
		*cfg = p->cfg;
	free(p);
	return rc;
}

static bool
conf_is_gw_name(const char *name)
{
	return strcmp(name, "gateway") == 0 || strcmp(name, "gw-mode") == 0;
}

int
config_get_runtime(const struct bs_config *cfg, const char *name, char *buf,
    size_t len)
{
	int n;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (strcmp(name, "hop-penalty") == 0)
		n = snprintf(buf, len, "%u", cfg->hop_penalty);
	else if (strcmp(name, "orig-interval") == 0)
		n = snprintf(buf, len, "%u", cfg->orig_interval_ms);
	else if (strcmp(name, "hello-interval") == 0)
		n = snprintf(buf, len, "%u", cfg->hello_interval_ms);
	else if (conf_is_gw_name(name) && cfg->gw_mode == BS_GW_SERVER)
		n = snprintf(buf, len, "server %llu/%llu",
		    (unsigned long long)cfg->gw_down * 100,
		    (unsigned long long)cfg->gw_up * 100);
	else if (conf_is_gw_name(name))
		n = snprintf(buf, len, "%s",
		    cfg->gw_mode == BS_GW_CLIENT ? "client" : "off");
	else if (strcmp(name, "gw-sel-class") == 0)
		n = snprintf(buf, len, "%u", cfg->gw_sel_class);
	else if (strcmp(name, "log-level") == 0)
		n = snprintf(buf, len, "%s",
		    config_log_level_name(cfg->log_level));
	else if (strcmp(name, "ap-isolation") == 0)
		n = snprintf(buf, len, "%s", cfg->ap_isolation ? "on" : "off");
	else if (strcmp(name, "dat") == 0)
		n = snprintf(buf, len, "%s", cfg->dat ? "on" : "off");
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* ---- the command line -------------------------------------------------- */

/* Stores one option's value; the values are checked afterwards. */
static int
conf_arg_value(struct bs_args *out, char opt, const char *val, char *err,
    size_t errlen)
{
	const char **slot = NULL;

	switch (opt) {
	case 'c': slot = &out->config; break;
	case 'k': slot = &out->key; break;
	case 'p': slot = &out->policy; break;
	case 's': slot = &out->socket; break;
	case 't': slot = &out->tap; break;
	case 'S': slot = &out->state_dir; break;
	case 'i':
		if (out->n_ifaces >= BS_CONF_MAX_IFACES) {
			conf_err(err, errlen, NULL, "option -i: more than %d "
			    "interfaces", BS_CONF_MAX_IFACES);
			return -1;
		}
		out->ifaces[out->n_ifaces++] = val;
		return 0;
	default:
		return -1;
	}
	if (*slot != NULL) {
		conf_err(err, errlen, NULL, "option -%c given twice", opt);
		return -1;
	}
	*slot = val;
	return 0;
}

/* Handles argv[*i], a cluster of flags such as "-df" or "-ceth0". */
static int
conf_arg_cluster(int argc, char **argv, int *i, struct bs_args *out,
    bool *role_flag, char *err, size_t errlen)
{
	const char *a = argv[*i];
	size_t j;

	for (j = 1; a[j] != '\0'; j++) {
		unsigned char c = (unsigned char)a[j];

		switch (c) {
		case 'd': out->debug = true; out->foreground = true; break;
		case 'f': out->foreground = true; break;
		case 'V': out->version = true; break;
		case 'P': *role_flag = true; break;
		case 'c': case 'k': case 'p': case 's': case 't': case 'S':
		case 'i':
			if (a[j + 1] != '\0')
				return conf_arg_value(out, (char)c, &a[j + 1],
				    err, errlen);
			if (*i + 1 >= argc || argv[*i + 1] == NULL) {
				conf_err(err, errlen, NULL, "option -%c "
				    "requires an argument", c);
				return -1;
			}
			return conf_arg_value(out, (char)c, argv[++*i], err,
			    errlen);
		default:
			if (c > 0x20 && c < 0x7f)
				conf_err(err, errlen, NULL,
				    "unknown option -%c", c);
			else
				conf_err(err, errlen, NULL,
				    "unknown option byte 0x%02x", c);
			return -1;
		}
	}
	return 0;
}

int
config_parse_args(int argc, char **argv, struct bs_args *out, char *err,
    size_t errlen)
{
	struct bs_config scratch;
	struct conf_quoted q;
	bool role_flag = false;
	int i;

	memset(out, 0, sizeof(*out));
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	for (i = 1; i < argc && argv[i] != NULL; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (argv[i][0] != '-' || argv[i][1] == '\0')
			break;
		if (conf_arg_cluster(argc, argv, &i, out, &role_flag, err,
		    errlen) != 0)
			goto fail;
	}
	if (i < argc && argv[i] != NULL) {
		conf_err(err, errlen, NULL, "unexpected argument '%s'",
		    conf_quote(&q, argv[i]));
		goto fail;
	}
	if (role_flag) {
		if (argc != 2 || strcmp(argv[1], "-P") != 0) {
			conf_err(err, errlen, NULL,
			    "-P (the parser role) takes no other options");
			goto fail;
		}
		memset(out, 0, sizeof(*out));
		out->role = BS_ROLE_PARSER;
		return 0;
	}
	/* Check every value now, so a bad flag fails before anything runs. */
	config_defaults(&scratch);
	if (config_apply_args(&scratch, out, err, errlen) != 0)
		goto fail;
	if (out->config != NULL && conf_check_path(out->config,
	    BS_CONF_PATH_MAX, "option -c", err, errlen) != 0)
		goto fail;
	return 0;
fail:
	memset(out, 0, sizeof(*out));
	return -1;
}

int
config_apply_args(struct bs_config *cfg, const struct bs_args *args,
    char *err, size_t errlen)
{
	struct bs_config c = *cfg;
	size_t i;

	if ((args->key != NULL && conf_set_path(c.key, sizeof(c.key),
	    args->key, "option -k", err, errlen) != 0) ||
	    (args->policy != NULL && conf_set_path(c.policy, sizeof(c.policy),
	    args->policy, "option -p", err, errlen) != 0) ||
	    (args->socket != NULL && conf_set_path(c.socket, sizeof(c.socket),
	    args->socket, "option -s", err, errlen) != 0) ||
	    (args->state_dir != NULL && conf_set_path(c.state_dir,
	    sizeof(c.state_dir), args->state_dir, "option -S", err,
	    errlen) != 0) ||
	    (args->tap != NULL && conf_set_ifname(c.tap, args->tap,
	    "option -t", err, errlen) != 0))
		return -1;
	if (args->n_ifaces > BS_CONF_MAX_IFACES) {
		conf_err(err, errlen, "option -i", "more than %d interfaces",
		    BS_CONF_MAX_IFACES);
		return -1;
	}
	if (args->n_ifaces > 0) {
		/* -i replaces the file's list; it does not add to it. */
		memset(c.ifaces, 0, sizeof(c.ifaces));
		memset(c.iface_opt, 0, sizeof(c.iface_opt));
		c.n_ifaces = 0;
		for (i = 0; i < args->n_ifaces; i++)
			if (conf_add_iface(&c, args->ifaces[i], "option -i",
			    err, errlen) != 0)
				return -1;
	}
	if (args->debug)
		c.log_level = BS_LOG_DEBUG;
	*cfg = c;
	return 0;
}

/* ---- validation of the whole ------------------------------------------- */

/* True when the fixed-size field s ends in a NUL. */
#define CONF_TERMINATED(s)	(memchr((s), '\0', sizeof(s)) != NULL)

static int
conf_validate_paths(const struct bs_config *cfg, char *err, size_t errlen)
{
	struct bs_config c;

	/* Re-setting each field into scratch runs exactly the file's checks. */
	if (!CONF_TERMINATED(cfg->key) || !CONF_TERMINATED(cfg->policy) ||
	    !CONF_TERMINATED(cfg->socket) || !CONF_TERMINATED(cfg->state_dir) ||
	    !CONF_TERMINATED(cfg->chroot_dir) || !CONF_TERMINATED(cfg->user) ||
	    !CONF_TERMINATED(cfg->tap)) {
		conf_err(err, errlen, NULL, "configuration has an "
		    "unterminated string");
		return -1;
	}
	if (conf_set_path(c.key, sizeof(c.key), cfg->key, "key", err,
	    errlen) != 0 ||
	    conf_set_path(c.policy, sizeof(c.policy), cfg->policy, "policy",
	    err, errlen) != 0 ||
	    conf_set_path(c.socket, sizeof(c.socket), cfg->socket, "socket",
	    err, errlen) != 0 ||
	    conf_set_path(c.state_dir, sizeof(c.state_dir), cfg->state_dir,
	    "state-dir", err, errlen) != 0 ||
	    conf_set_chroot(c.chroot_dir, sizeof(c.chroot_dir),
	    cfg->chroot_dir, "chroot", err, errlen) != 0 ||
	    conf_set_user(c.user, cfg->user, "user", err, errlen) != 0 ||
	    conf_set_ifname(c.tap, cfg->tap, "tap", err, errlen) != 0)
		return -1;
	return 0;
}

static int
conf_validate_ifaces(const struct bs_config *cfg, char *err, size_t errlen)
{
	struct bs_config c;
	size_t i;

	if (cfg->n_ifaces == 0) {
		conf_err(err, errlen, NULL, "no mesh interface configured: add "
		    "'interface NAME' to batsec.conf or give -i NAME");
		return -1;
	}
	if (cfg->n_ifaces > BS_CONF_MAX_IFACES) {
		conf_err(err, errlen, "interface", "more than %d interfaces",
		    BS_CONF_MAX_IFACES);
		return -1;
	}
	c.n_ifaces = 0;
	for (i = 0; i < cfg->n_ifaces; i++) {
		if (!CONF_TERMINATED(cfg->ifaces[i])) {
			conf_err(err, errlen, "interface", "unterminated name");
			return -1;
		}
		if (conf_add_iface(&c, cfg->ifaces[i], "interface", err,
		    errlen) != 0)
			return -1;
		if ((unsigned)cfg->iface_opt[i].medium >= CONF_N_MEDIA ||
		    cfg->iface_opt[i].bcast_repeat > BS_CONF_BCAST_REPEAT_MAX) {
			conf_err(err, errlen, "interface", "%s: options out "
			    "of range", cfg->ifaces[i]);
			return -1;
		}
	}
	if (conf_find_iface(cfg, cfg->tap) >= 0) {
		conf_err(err, errlen, "tap", "'%s' is also a mesh interface",
		    cfg->tap);
		return -1;
	}
	return 0;
}

static int
conf_validate_values(const struct bs_config *cfg, char *err, size_t errlen)
{
	if (conf_check_ethertype(cfg->ethertype, "ethertype", err, errlen) != 0)
		return -1;
	if (cfg->orig_interval_ms < BS_CONF_INTERVAL_MIN ||
	    cfg->orig_interval_ms > BS_CONF_INTERVAL_MAX ||
	    cfg->hello_interval_ms < BS_CONF_INTERVAL_MIN ||
	    cfg->hello_interval_ms > BS_CONF_INTERVAL_MAX) {
		conf_err(err, errlen, NULL, "an interval is out of range "
		    "%d..%d", BS_CONF_INTERVAL_MIN, BS_CONF_INTERVAL_MAX);
		return -1;
	}
	if (cfg->link_rekey_s < BS_CONF_REKEY_MIN_S ||
	    cfg->link_rekey_s > BS_CONF_REKEY_MAX_S) {
		conf_err(err, errlen, NULL, "link-rekey is out of range "
		    "%d..%d", BS_CONF_REKEY_MIN_S, BS_CONF_REKEY_MAX_S);
		return -1;
	}
	if ((cfg->gw_mode != BS_GW_SERVER && (cfg->gw_down | cfg->gw_up) != 0) ||
	    (cfg->gw_mode == BS_GW_SERVER && (cfg->gw_down == 0 ||
	    cfg->gw_up == 0)) ||
	    (cfg->gw_mode != BS_GW_OFF && cfg->gw_mode != BS_GW_SERVER &&
	    cfg->gw_mode != BS_GW_CLIENT) ||
	    cfg->gw_sel_class < BS_CONF_GW_CLASS_MIN) {
		conf_err(err, errlen, "gateway", "inconsistent mode and "
		    "bandwidth");
		return -1;
	}
	if (strcmp(config_log_level_name(cfg->log_level), "?") == 0) {
		conf_err(err, errlen, "log-level", "unknown level %d",
		    (int)cfg->log_level);
		return -1;
	}
	return 0;
}

int
config_validate(const struct bs_config *cfg, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (conf_validate_paths(cfg, err, errlen) != 0 ||
	    conf_validate_ifaces(cfg, err, errlen) != 0 ||
	    conf_validate_values(cfg, err, errlen) != 0)
		return -1;
	return 0;
}

/* ---- loading ----------------------------------------------------------- */

/* Checks what fstat says about the open configuration file. */
static int
conf_check_file(const char *path, const struct stat *st, char *err,
    size_t errlen)
{
	if (!S_ISREG(st->st_mode)) {
		conf_err(err, errlen, path, "not a regular file");
		return -1;
	}
	if (st->st_size > BS_CONF_FILE_MAX) {
		conf_err(err, errlen, path, "larger than %d bytes",
		    BS_CONF_FILE_MAX);
		return -1;
	}
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		conf_err(err, errlen, path, "owned by uid %lu, not by root; "
		    "refusing to use it", (unsigned long)st->st_uid);
		return -1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		conf_err(err, errlen, path, "writable by group or others "
		    "(mode %04o); run chmod go-w", (unsigned)(st->st_mode &
		    07777));
		return -1;
	}
	return 0;
}

/* Reads all of fd into buf (size BS_CONF_FILE_MAX + 1); -1 on error. */
static ssize_t
conf_read_all(int fd, char *buf)
{
	size_t got = 0;

	while (got < BS_CONF_FILE_MAX + 1) {
		ssize_t n = read(fd, buf + got, BS_CONF_FILE_MAX + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/*
 * Opens and parses path into cfg (defaults included).  A missing file is
 * an error only when must_exist; otherwise cfg gets just the defaults.
 */
static int
conf_load_file(struct bs_config *cfg, const char *path, bool must_exist,
    char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int fd, rc = -1;

	/* O_NONBLOCK: a FIFO must not hang the open; fstat rejects it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT && !must_exist) {
		config_defaults(cfg);
		return 0;
	}
	if (fd < 0) {
		conf_err(err, errlen, path, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		conf_err(err, errlen, path, "%s", strerror(errno));
		goto out;
	}
	if (conf_check_file(path, &st, err, errlen) != 0)
		goto out;
	if ((buf = malloc(BS_CONF_FILE_MAX + 1)) == NULL) {
		conf_err(err, errlen, path, "out of memory");
		goto out;
	}
	if ((n = conf_read_all(fd, buf)) < 0)
		conf_err(err, errlen, path, "%s", strerror(errno));
	else
		rc = config_parse_buf(cfg, buf, (size_t)n, path, err, errlen);
	free(buf);
out:
	close(fd);
	return rc;
}

int
config_load(struct bs_config *cfg, const struct bs_args *args, char *err,
    size_t errlen)
{
	struct bs_config *c;
	const char *path = args->config != NULL ? args->config :
	    BS_CONF_DEFAULT_PATH;
	int rc = -1;

	memset(cfg, 0, sizeof(*cfg));
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if ((c = malloc(sizeof(*c))) == NULL) {
		conf_err(err, errlen, NULL, "out of memory");
		return -1;
	}
	if (conf_load_file(c, path, args->config != NULL, err, errlen) == 0 &&
	    config_apply_args(c, args, err, errlen) == 0 &&
	    config_validate(c, err, errlen) == 0) {
		*cfg = *c;
		rc = 0;
	}
	free(c);
	return rc;
}

/* ---- dump and compare -------------------------------------------------- */

struct conf_out {
	char	*buf;
	size_t	len;
	size_t	pos;
	bool	overflow;
};

static void conf_put(struct conf_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
conf_put(struct conf_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->pos) {
		o->overflow = true;
		return;
	}
	o->pos += (size_t)n;
}

int
config_dump(const struct bs_config *cfg, char *buf, size_t len)
{
	struct conf_out o = { buf, len, 0, false };
	size_t i;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	for (i = 0; i < cfg->n_ifaces && i < BS_CONF_MAX_IFACES; i++) {
		conf_put(&o, "interface %.*s", IFNAMSIZ, cfg->ifaces[i]);
		if (cfg->iface_opt[i].medium != BS_MEDIUM_AUTO)
			conf_put(&o, " %s",
			    config_medium_name(cfg->iface_opt[i].medium));
		if (cfg->iface_opt[i].repeat_set)
			conf_put(&o, " bcast-repeat %u",
			    cfg->iface_opt[i].bcast_repeat);
		if (cfg->iface_opt[i].hop_penalty != 0)
			conf_put(&o, " hop-penalty %u",
			    cfg->iface_opt[i].hop_penalty);
		conf_put(&o, "\n");
	}
	conf_put(&o, "tap %.*s\n", IFNAMSIZ, cfg->tap);
	conf_put(&o, "key %.*s\n", (int)sizeof(cfg->key), cfg->key);
	conf_put(&o, "policy %.*s\n", (int)sizeof(cfg->policy), cfg->policy);
	conf_put(&o, "socket %.*s\n", (int)sizeof(cfg->socket), cfg->socket);
	conf_put(&o, "state-dir %.*s\n", (int)sizeof(cfg->state_dir),
	    cfg->state_dir);
	conf_put(&o, "user %.*s\n", (int)sizeof(cfg->user), cfg->user);
	conf_put(&o, "chroot %.*s\n", (int)sizeof(cfg->chroot_dir),
	    cfg->chroot_dir);
	conf_put(&o, "ethertype 0x%04x\n", cfg->ethertype);
	conf_put(&o, "link-rekey %u\n", cfg->link_rekey_s);
	for (i = 0; i < CONF_N_RUNTIME; i++) {
		char v[64];

		(void)config_get_runtime(cfg, conf_runtime_names[i], v,
		    sizeof(v));
		conf_put(&o, "%s %s\n", conf_runtime_names[i], v);
	}
	conf_put(&o, "fast-path %s\n", conf_fast_path_names[cfg->fast_path]);
	conf_put(&o, "epoch-seed %s\n", conf_epoch_seed_names[cfg->epoch_seed]);
	conf_put(&o, "bla %s\n", cfg->bla ? "on" : "off");
	conf_put(&o, "e2e-cipher %s\n",
	    conf_e2e_cipher_names[cfg->e2e_cipher]);
	return o.overflow ? -1 : (int)o.pos;
}

bool
config_iface_opt_equal(const struct bs_conf_iface *a,
    const struct bs_conf_iface *b)
{
	return a->medium == b->medium && a->repeat_set == b->repeat_set &&
	    a->bcast_repeat == b->bcast_repeat &&
	    a->hop_penalty == b->hop_penalty;
}

#define CONF_STREQ(a, b)	(strncmp((a), (b), sizeof(a)) == 0)

bool
config_equal(const struct bs_config *a, const struct bs_config *b)
{
	size_t i;

	if (a->n_ifaces != b->n_ifaces || a->n_ifaces > BS_CONF_MAX_IFACES)
		return false;
	for (i = 0; i < a->n_ifaces; i++)
		if (!CONF_STREQ(a->ifaces[i], b->ifaces[i]) ||
		    !config_iface_opt_equal(&a->iface_opt[i],
		    &b->iface_opt[i]))
			return false;
	return CONF_STREQ(a->tap, b->tap) && CONF_STREQ(a->key, b->key) &&
	    CONF_STREQ(a->policy, b->policy) &&
	    CONF_STREQ(a->socket, b->socket) &&
	    CONF_STREQ(a->state_dir, b->state_dir) &&
	    CONF_STREQ(a->user, b->user) &&
	    CONF_STREQ(a->chroot_dir, b->chroot_dir) &&
	    a->ethertype == b->ethertype &&
	    a->orig_interval_ms == b->orig_interval_ms &&
	    a->hello_interval_ms == b->hello_interval_ms &&
	    a->link_rekey_s == b->link_rekey_s &&
	    a->hop_penalty == b->hop_penalty && a->gw_mode == b->gw_mode &&
	    a->gw_down == b->gw_down && a->gw_up == b->gw_up &&
	    a->gw_sel_class == b->gw_sel_class &&
	    a->log_level == b->log_level &&
	    a->ap_isolation == b->ap_isolation && a->fast_path == b->fast_path &&
	    a->epoch_seed == b->epoch_seed && a->dat == b->dat &&
	    a->mcast == b->mcast &&
	    a->bla == b->bla && a->e2e_cipher == b->e2e_cipher;
}
