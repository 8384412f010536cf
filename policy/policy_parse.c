/*
 * policy_parse.c — the policy text parser (batsec-policy(5)).
 *
 * The text is read line by line into a fresh struct bs_policy.  Every
 * problem stops the parse with "FILE:LINE: directive: problem"; the
 * caller's policy is never touched.  Duplicate keys are found as they are
 * added through a small hash set keyed with a random SipHash key, so even
 * an include directory full of crafted keys costs linear time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_keys.h"
#include "batsec_policy.h"

#define MAXTOK		8	/* words kept per line; more is an error */
#define INC_SCAN_MAX	65536	/* directory entries looked at per include */

enum { SEEN_TRUST, SEEN_ANCHOR, SEEN_BLOCK, SEEN_REVOKE, SEEN_KINDS };

struct tok {
	const char *s;
	size_t len;
};

/* Open-addressing set of keys; the value is the line that added the key. */
struct seen {
	uint8_t (*key)[BS_PK_LEN];
	uint32_t *line;			/* 0: empty slot */
	size_t cap, n;
};

struct pctx {
	struct bs_policy *pol;
	size_t cap_trust, cap_anchor, cap_block, cap_revoke;
	const char *name;		/* file name for messages */
	const char *basedir;		/* for relative include DIRs */
	unsigned flags;
	unsigned line;
	const char *inc_file;		/* set while reading an included file */
	unsigned inc_line;
	uint16_t inc_idx;		/* provenance of included entries */
	unsigned mode_line;
	unsigned limit_line[BS_POLICY_LIMIT_COUNT];
	struct seen seen[SEEN_KINDS];
	uint8_t hkey[crypto_shorthash_KEYBYTES];
	char *err;
	size_t errlen;
};

static int perr(struct pctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
perr(struct pctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->err == NULL || c->errlen == 0)
		return -1;
	if (c->inc_file != NULL)
		n = snprintf(c->err, c->errlen, "%s:%u: include: %s:%u: ",
		    c->name, c->line, c->inc_file, c->inc_line);
	else
		n = snprintf(c->err, c->errlen, "%s:%u: ", c->name, c->line);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && memcmp(t->s, word, t->len) == 0;
}

/* Words are echoed in messages; the lexer made them printable ASCII. */
#define TOKF		"'%.*s'"
#define TOKA(t)		(int)((t)->len > 40 ? 40 : (t)->len), (t)->s

/* ---- duplicate detection ------------------------------------------------- */

static size_t
seen_slot(const struct pctx *c, const struct seen *s,
    const uint8_t pk[static BS_PK_LEN])
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t v = 0;
	size_t i;

	crypto_shorthash(h, pk, BS_PK_LEN, c->hkey);
	for (i = 0; i < sizeof(h); i++)
		v = v << 8 | h[i];
	i = (size_t)(v & (s->cap - 1));
	while (s->line[i] != 0 && memcmp(s->key[i], pk, BS_PK_LEN) != 0)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static int
seen_grow(struct pctx *c, struct seen *s)
{
	struct seen g = { NULL, NULL, s->cap ? s->cap * 2 : 64, s->n };
	size_t i, j;

	g.key = calloc(g.cap, sizeof(*g.key));
	g.line = calloc(g.cap, sizeof(*g.line));
	if (g.key == NULL || g.line == NULL) {
		free(g.key);
		free(g.line);
		return -1;
	}
	for (i = 0; i < s->cap; i++) {
		if (s->line[i] == 0)
			continue;
		j = seen_slot(c, &g, s->key[i]);
		memcpy(g.key[j], s->key[i], BS_PK_LEN);
		g.line[j] = s->line[i];
	}
	free(s->key);
	free(s->line);
	*s = g;
	return 0;
}

/* 0 after recording pk, or -1 with the message naming the earlier line. */
static int
seen_add(struct pctx *c, int kind, const char *what,
    const uint8_t pk[static BS_PK_LEN])
{
	struct seen *s = &c->seen[kind];
	size_t i;

	if ((s->n + 1) * 2 > s->cap && seen_grow(c, s) != 0)
		return perr(c, "out of memory");
	i = seen_slot(c, s, pk);
	if (s->line[i] != 0)
		return perr(c, "%s: key listed twice (first on line %u)", what,
		    s->line[i]);
	memcpy(s->key[i], pk, BS_PK_LEN);
	s->line[i] = c->line;
	s->n++;
	return 0;
}

/* ---- growing arrays ------------------------------------------------------ */

/* Make room for one more element of size sz below max; -1 when full/OOM. */
static int
grow(struct pctx *c, void **arr, size_t n, size_t *cap, size_t sz,
    size_t max, const char *what)
{
	size_t ncap;
	void *p;

	if (n >= max)
		return perr(c, "%s: more than %zu entries", what, max);
	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	if (ncap > max)
		ncap = max;
	if ((p = realloc(*arr, ncap * sz)) == NULL)
		return perr(c, "out of memory");
	*arr = p;
	*cap = ncap;
	return 0;
}

/* ---- lexer --------------------------------------------------------------- */

/*
 * Split one line into words.  Tabs and spaces separate words; '#' at the
 * start of a line or after a blank starts a comment.  Control characters
 * are refused everywhere, bytes >= 0x80 outside comments.
 */
static int
lex(struct pctx *c, const char *s, size_t len, struct tok *t,
    size_t *ntok)
{
	size_t i = 0, n = 0;

	while (i < len) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == ' ' || ch == '\t') {
			i++;
			continue;
		}
		if (ch == '#') {
			for (; i < len; i++) {
				ch = (unsigned char)s[i];
				if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
					return perr(c, "control character 0x%02x",
					    ch);
			}
			break;
		}
		if (n == MAXTOK)
			return perr(c, TOKF ": too many words", TOKA(&t[0]));
		t[n].s = s + i;
		for (; i < len && s[i] != ' ' && s[i] != '\t'; i++) {
			ch = (unsigned char)s[i];
			if (ch < 0x20 || ch == 0x7f)
				return perr(c, "control character 0x%02x", ch);
			if (ch >= 0x80)
				return perr(c, "non-ASCII byte outside a comment");
		}
		t[n].len = (size_t)(s + i - t[n].s);
		n++;
	}
	*ntok = n;
	return 0;
}

/* ---- words --------------------------------------------------------------- */

static int
parse_key(struct pctx *c, const char *what, const struct tok *t,
    uint8_t pk[static BS_PK_LEN])
{
	if (t->len != BS_KEY_B64_LEN)
		return perr(c, "%s: bad key (expected %d characters of base64)",
		    what, BS_KEY_B64_LEN);
	if (bs_key_from_b64(pk, t->s, t->len) != 0)
		return perr(c, "%s: bad key (not base64 of a 32-byte key)",
		    what);
	return 0;
}

static int
parse_name(struct pctx *c, const char *what, const struct tok *t,
    size_t i, size_t n, char name[static BS_POLICY_NAME_MAX + 1])
{
	if (name[0] != '\0')
		return perr(c, "%s: name given twice", what);
	if (i + 1 >= n)
		return perr(c, "%s: name: missing NAME", what);
	if (!bs_policy_name_ok(t[i + 1].s, t[i + 1].len))
		return perr(c, "%s: bad name " TOKF " (1..%d characters of "
		    "A-Z a-z 0-9 . _ -)", what, TOKA(&t[i + 1]),
		    BS_POLICY_NAME_MAX);
	memcpy(name, t[i + 1].s, t[i + 1].len);
	name[t[i + 1].len] = '\0';
	return 0;
}

static int
parse_decimal(const struct tok *t, uint64_t *v)
{
	size_t i;

	if (t->len == 0 || t->len > 12)
		return -1;
	*v = 0;
	for (i = 0; i < t->len; i++) {
		if (t->s[i] < '0' || t->s[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(t->s[i] - '0');
	}
	return 0;
}

/* ---- directives ---------------------------------------------------------- */

/* t[0] is the key; the options follow.  Used by "trust" and include files. */
static int
add_trust(struct pctx *c, const struct tok *t, size_t n)
{
	struct bs_policy *pol = c->pol;
	struct bs_policy_trust e;
	size_t i;

	memset(&e, 0, sizeof(e));
	if (n < 1)
		return perr(c, "trust: missing KEY");
	if (parse_key(c, "trust", &t[0], e.pk) != 0)
		return -1;
	for (i = 1; i < n; i++) {
		if (tok_is(&t[i], "name")) {
			if (parse_name(c, "trust", t, i, n, e.name) != 0)
				return -1;
			i++;
		} else if (tok_is(&t[i], "gateway")) {
			if (e.gateway)
				return perr(c, "trust: gateway given twice");
			e.gateway = 1;
		} else {
			return perr(c, "trust: unknown option " TOKF
			    " (expected name NAME or gateway)", TOKA(&t[i]));
		}
	}
	e.include = c->inc_idx;
	if (grow(c, (void **)&pol->trust, pol->n_trust, &c->cap_trust,
	    sizeof(e), BS_POLICY_MAX_TRUST, "trust") != 0 ||
	    seen_add(c, SEEN_TRUST, "trust", e.pk) != 0)
		return -1;
	pol->trust[pol->n_trust++] = e;
	return 0;
}

static int
d_trust(struct pctx *c, const struct tok *t, size_t n)
{
	return add_trust(c, t + 1, n - 1);
}

/* anchor options: name NAME, revokes-anchors, revocation-days DAYS. */
static int
anchor_option(struct pctx *c, const struct tok *t, size_t *i, size_t n,
    struct bs_policy_anchor *e, int *days_set)
{
	uint64_t v;

	if (tok_is(&t[*i], "name")) {
		if (parse_name(c, "anchor", t, *i, n, e->name) != 0)
			return -1;
		(*i)++;
	} else if (tok_is(&t[*i], "revokes-anchors")) {
		if (e->revokes_anchors)
			return perr(c, "anchor: revokes-anchors given twice");
		e->revokes_anchors = 1;
	} else if (tok_is(&t[*i], "revocation-days")) {
		if (*days_set)
			return perr(c, "anchor: revocation-days given twice");
		if (*i + 1 >= n || parse_decimal(&t[*i + 1], &v) != 0 ||
		    v < 1 || v > BS_POLICY_REVOKE_DAYS_MAX)
			return perr(c, "anchor: revocation-days: expected a "
			    "number of days from 1 to %d",
			    BS_POLICY_REVOKE_DAYS_MAX);
		e->revocation_days = (uint32_t)v;
		*days_set = 1;
		(*i)++;
	} else {
		return perr(c, "anchor: unknown option " TOKF " (expected "
		    "name NAME, revokes-anchors or revocation-days DAYS)",
		    TOKA(&t[*i]));
	}
	return 0;
}

static int
d_anchor(struct pctx *c, const struct tok *t, size_t n)
{
	struct bs_policy *pol = c->pol;
	struct bs_policy_anchor e;
	size_t i;
	int days_set = 0;

	memset(&e, 0, sizeof(e));
	e.revocation_days = BS_POLICY_REVOKE_DAYS_DEF;
	if (n < 2)
		return perr(c, "anchor: missing CAKEY");
	if (parse_key(c, "anchor", &t[1], e.pk) != 0)
		return -1;
	for (i = 2; i < n; i++)
		if (anchor_option(c, t, &i, n, &e, &days_set) != 0)
			return -1;
	if (grow(c, (void **)&pol->anchor, pol->n_anchor, &c->cap_anchor,
	    sizeof(e), BS_POLICY_MAX_ANCHOR, "anchor") != 0 ||
	    seen_add(c, SEEN_ANCHOR, "anchor", e.pk) != 0)
		return -1;
	pol->anchor[pol->n_anchor++] = e;
	return 0;
}

static int
add_key(struct pctx *c, const struct tok *t, size_t n, int kind)
{
	const char *what = kind == SEEN_BLOCK ? "block" : "revoke";
	struct bs_policy *pol = c->pol;
	struct bs_policy_key **arr = kind == SEEN_BLOCK ? &pol->block :
	    &pol->revoke;
	size_t *cnt = kind == SEEN_BLOCK ? &pol->n_block : &pol->n_revoke;
	size_t *cap = kind == SEEN_BLOCK ? &c->cap_block : &c->cap_revoke;
	size_t max = kind == SEEN_BLOCK ? BS_POLICY_MAX_BLOCK :
	    BS_POLICY_MAX_REVOKE;
	struct bs_policy_key e;

	if (n < 2)
		return perr(c, "%s: missing KEY", what);
	if (n > 2)
		return perr(c, "%s: too many arguments", what);
	if (parse_key(c, what, &t[1], e.pk) != 0 ||
	    grow(c, (void **)arr, *cnt, cap, sizeof(e), max, what) != 0 ||
	    seen_add(c, kind, what, e.pk) != 0)
		return -1;
	(*arr)[(*cnt)++] = e;
	return 0;
}

static int
d_block(struct pctx *c, const struct tok *t, size_t n)
{
	return add_key(c, t, n, SEEN_BLOCK);
}

static int
d_revoke(struct pctx *c, const struct tok *t, size_t n)
{
	return add_key(c, t, n, SEEN_REVOKE);
}

static int
d_mode(struct pctx *c, const struct tok *t, size_t n)
{
	static const enum bs_policy_mode modes[] = {
		BS_POLICY_ALLOWLIST, BS_POLICY_CA, BS_POLICY_OPEN
	};
	size_t i;

	if (n != 2)
		return perr(c, "mode: expected one of allowlist, ca, open");
	if (c->mode_line != 0)
		return perr(c, "mode: given twice (first on line %u)",
		    c->mode_line);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (tok_is(&t[1], bs_policy_mode_name(modes[i]))) {
			c->pol->mode = modes[i];
			c->mode_line = c->line;
			return 0;
		}
	}
	return perr(c, "mode: unknown mode " TOKF
	    " (expected allowlist, ca or open)", TOKA(&t[1]));
}

static int
d_limit(struct pctx *c, const struct tok *t, size_t n)
{
	const struct bs_policy_limit_def *d;
	uint64_t v;
	uint32_t v32;
	size_t i;

	if (n != 3)
		return perr(c, "limit: expected NAME VALUE");
	for (i = 0; i < BS_POLICY_LIMIT_COUNT; i++)
		if (tok_is(&t[1], bs_policy_limit_defs[i].name))
			break;
	if (i == BS_POLICY_LIMIT_COUNT)
		return perr(c, "limit: unknown limit " TOKF, TOKA(&t[1]));
	d = &bs_policy_limit_defs[i];
	if (c->limit_line[i] != 0)
		return perr(c, "limit %s: given twice (first on line %u)",
		    d->name, c->limit_line[i]);
	if (parse_decimal(&t[2], &v) != 0)
		return perr(c, "limit %s: bad value " TOKF
		    " (expected a decimal number)", d->name, TOKA(&t[2]));
	if (v < d->min || v > d->max)
		return perr(c, "limit %s: " TOKF " out of range %u..%u",
		    d->name, TOKA(&t[2]), d->min, d->max);
	v32 = (uint32_t)v;
	memcpy((char *)&c->pol->limits + d->offset, &v32, sizeof(v32));
	c->limit_line[i] = c->line;
	return 0;
}

static int include_dir(struct pctx *c, const char *dir);

static int
d_include(struct pctx *c, const struct tok *t, size_t n)
{
	struct bs_policy *pol = c->pol;
	char *dir;
	size_t i;

	if (n != 2)
		return perr(c, "include: expected one DIR (no spaces)");
	if (!bs_policy_path_ok(t[1].s, t[1].len))
		return perr(c, "include: DIR longer than %d bytes",
		    BS_POLICY_PATH_MAX);
	if (pol->n_include >= BS_POLICY_MAX_INCLUDE)
		return perr(c, "include: more than %d include directives",
		    BS_POLICY_MAX_INCLUDE);
	for (i = 0; i < pol->n_include; i++)
		if (tok_is(&t[1], pol->include[i]))
			return perr(c, "include " TOKF ": given twice",
			    TOKA(&t[1]));
	if ((dir = strndup(t[1].s, t[1].len)) == NULL)
		return perr(c, "out of memory");
	pol->include[pol->n_include++] = dir;
	if (c->flags & BS_POLICY_SKIP_INCLUDE)
		return 0;
	return include_dir(c, dir);
}

static const struct {
	const char *word;
	int (*fn)(struct pctx *, const struct tok *, size_t);
} directives[] = {
	{ "mode", d_mode },
	{ "trust", d_trust },
	{ "anchor", d_anchor },
	{ "block", d_block },
	{ "revoke", d_revoke },
	{ "include", d_include },
	{ "limit", d_limit },
};

static int
policy_line(struct pctx *c, const struct tok *t, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++)
		if (tok_is(&t[0], directives[i].word))
			return directives[i].fn(c, t, n);
	return perr(c, "unknown directive " TOKF, TOKA(&t[0]));
}

/*
 * Feed each line of buf that holds words to fn, at most max of them (0: no
 * limit).  The line counter is the policy file's, or the included file's
 * while one is read.
 */
static int
parse_lines(struct pctx *c, const char *buf, size_t len,
    int (*fn)(struct pctx *, const struct tok *, size_t), size_t max,
    size_t *nlines)
{
	unsigned *lineno = c->inc_file != NULL ? &c->inc_line : &c->line;
	struct tok t[MAXTOK];
	size_t off = 0, l, n = 0;
	const char *nl;

	*nlines = 0;
	while (off < len) {
		nl = memchr(buf + off, '\n', len - off);
		l = nl != NULL ? (size_t)(nl - (buf + off)) : len - off;
		(*lineno)++;
		if (l > BS_POLICY_LINE_MAX)
			return perr(c, "line longer than %d bytes",
			    BS_POLICY_LINE_MAX);
		if (lex(c, buf + off, l, t, &n) != 0)
			return -1;
		if (n > 0) {
			if (max != 0 && *nlines == max)
				return perr(c, "more than one key line");
			if (fn(c, t, n) != 0)
				return -1;
			(*nlines)++;
		}
		off += l + (nl != NULL);
	}
	return 0;
}

/* ---- include DIR --------------------------------------------------------- */

/*
 * Read all of fd (at most max bytes) into a new NUL-terminated buffer.
 * 0 on success, -1 with errno on a read error, -2 when larger than max.
 * The buffer grows as the file does: a 4 MiB buffer for a policy of a few
 * lines would, once freed, also have raised malloc's mmap threshold for
 * the rest of the daemon's life.
 */
static int
read_all(int fd, size_t max, char **out, size_t *outlen)
{
	size_t len = 0, cap = 4096;
	ssize_t r;
	char *buf, *nb;

	if ((buf = malloc(cap)) == NULL)
		return -1;
	for (;;) {
		if (cap - len < 2) {	/* room for one more byte and a NUL */
			cap = cap > (max + 2) / 2 ? max + 2 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				return -1;
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > max) {
			free(buf);
			return -2;
		}
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

static int
key_file_name(const char *n)
{
	size_t len = strlen(n);

	if (n[0] == '.' || len < 5)
		return 0;
	return strcmp(n + len - 4, ".key") == 0 ||
	    strcmp(n + len - 4, ".pub") == 0;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
free_names(char **names, size_t n)
{
	while (n > 0)
		free(names[--n]);
	free(names);
}

/* Sorted names of the candidate key files in d. */
static int
list_key_files(struct pctx *c, DIR *d, const char *dir,
    char ***out, size_t *nout)
{
	char **names = NULL;
	size_t n = 0, scanned = 0;
	struct dirent *de;

	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (++scanned > INC_SCAN_MAX) {
			free_names(names, n);
			return perr(c, "include %s: more than %d directory "
			    "entries", dir, INC_SCAN_MAX);
		}
		if (!key_file_name(de->d_name))
			continue;
		if (n == BS_POLICY_INCLUDE_FILES) {
			free_names(names, n);
			return perr(c, "include %s: more than %d key files",
			    dir, BS_POLICY_INCLUDE_FILES);
		}
		if (n == 0 && (names = calloc(BS_POLICY_INCLUDE_FILES,
		    sizeof(*names))) == NULL)
			return perr(c, "out of memory");
		if ((names[n] = strdup(de->d_name)) == NULL) {
			free_names(names, n);
			return perr(c, "out of memory");
		}
		n++;
	}
	if (errno != 0) {
		free_names(names, n);
		return perr(c, "include %s: %s", dir, strerror(errno));
	}
	if (n > 0)
		qsort(names, n, sizeof(*names), str_cmp);
	*out = names;
	*nout = n;
	return 0;
}

/* Parse one file of the directory; non-regular files are skipped. */
static int
include_file(struct pctx *c, int dfd, const char *dir,
    const char *fname)
{
	char disp[BS_POLICY_PATH_MAX + 2 + 256], why[sizeof(disp) + 128];
	struct stat st;
	size_t len, nlines;
	char *buf;
	int fd, r;

	if (fstatat(dfd, fname, &st, 0) != 0 || !S_ISREG(st.st_mode))
		return 0;
	snprintf(disp, sizeof(disp), "%s/%s", dir, fname);
	fd = openat(dfd, fname, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return perr(c, "include %s: %s", disp, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	if (bs_file_check_perms(disp, (uint32_t)st.st_uid,
	    (uint32_t)st.st_mode, 0, why, sizeof(why)) != 0) {
		close(fd);
		return perr(c, "include %s", why);
	}
	r = read_all(fd, BS_POLICY_INCLUDE_FILE_MAX, &buf, &len);
	close(fd);
	if (r == -2)
		return perr(c, "include %s: larger than %d bytes", disp,
		    BS_POLICY_INCLUDE_FILE_MAX);
	if (r != 0)
		return perr(c, "include %s: %s", disp, strerror(errno));
	c->inc_file = disp;
	c->inc_line = 0;
	r = parse_lines(c, buf, len, add_trust, 1, &nlines);
	if (r == 0 && nlines == 0)
		r = perr(c, "no key line");
	c->inc_file = NULL;
	free(buf);
	return r;
}

static int
include_dir(struct pctx *c, const char *dir)
{
	char path[BS_POLICY_PATH_MAX * 2 + 8], why[BS_POLICY_PATH_MAX + 160];
	char **names = NULL;
	struct stat st;
	size_t n = 0, i;
	DIR *d;
	int dfd, r = 0;

	if (dir[0] == '/' || c->basedir == NULL)
		snprintf(path, sizeof(path), "%s", dir);
	else if ((size_t)snprintf(path, sizeof(path), "%s/%s", c->basedir,
	    dir) >= sizeof(path))
		return perr(c, "include %s: path too long", dir);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return perr(c, "include %s: %s", dir, strerror(errno));
	/* Whoever may add a file there may add a trusted key. */
	if (fstat(dfd, &st) != 0 || bs_file_check_perms(dir,
	    (uint32_t)st.st_uid, (uint32_t)st.st_mode, 0, why,
	    sizeof(why)) != 0) {
		close(dfd);
		return perr(c, "include %s", why);
	}
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return perr(c, "include %s: %s", dir, strerror(errno));
	}
	c->inc_idx = (uint16_t)c->pol->n_include;
	if (list_key_files(c, d, dir, &names, &n) != 0)
		r = -1;
	for (i = 0; r == 0 && i < n; i++)
		r = include_file(c, dirfd(d), dir, names[i]);
	c->inc_idx = 0;
	free_names(names, n);
	closedir(d);
	return r;
}

/* ---- driver -------------------------------------------------------------- */

static int
pk_sort_cmp(const void *a, const void *b)
{
	return memcmp(a, b, BS_PK_LEN);
}

static void
pctx_free(struct pctx *c)
{
	size_t i;

	for (i = 0; i < SEEN_KINDS; i++) {
		free(c->seen[i].key);
		free(c->seen[i].line);
	}
	sodium_memzero(c->hkey, sizeof(c->hkey));
}

static int
finish(struct pctx *c)
{
	struct bs_policy *pol = c->pol;
	char msg[256];

	if (pol->n_trust > 0)
		qsort(pol->trust, pol->n_trust, sizeof(*pol->trust),
		    pk_sort_cmp);
	if (pol->n_anchor > 0)
		qsort(pol->anchor, pol->n_anchor, sizeof(*pol->anchor),
		    pk_sort_cmp);
	if (pol->n_block > 0)
		qsort(pol->block, pol->n_block, sizeof(*pol->block),
		    pk_sort_cmp);
	if (pol->n_revoke > 0)
		qsort(pol->revoke, pol->n_revoke, sizeof(*pol->revoke),
		    pk_sort_cmp);
	if (pol->mode == BS_POLICY_CA && pol->n_anchor == 0) {
		c->line = c->mode_line;
		return perr(c, "mode ca: no anchor given (add an anchor "
		    "line or use mode allowlist)");
	}
	if (bs_policy_validate(pol, msg, sizeof(msg)) != 0)
		return perr(c, "%s", msg);
	return 0;
}

int
bs_policy_parse_buf(const char *buf, size_t len, const char *name,
    const char *basedir, unsigned flags, struct bs_policy **out, char *err,
    size_t errlen)
{
	struct pctx c;
	size_t nlines;
	int r;

	memset(&c, 0, sizeof(c));
	c.name = name != NULL ? name : "policy";
	c.basedir = basedir;
	c.flags = flags;
	c.err = err;
	c.errlen = errlen;
	if (len > BS_POLICY_FILE_MAX) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: larger than %u bytes",
			    c.name, BS_POLICY_FILE_MAX);
		return -1;
	}
	if ((c.pol = bs_policy_new()) == NULL)
		return perr(&c, "out of memory");
	randombytes_buf(c.hkey, sizeof(c.hkey));
	r = parse_lines(&c, buf, len, policy_line, 0, &nlines);
	if (r == 0)
		r = finish(&c);
	pctx_free(&c);
	if (r != 0) {
		bs_policy_free(c.pol);
		return -1;
	}
	*out = c.pol;
	return 0;
}

static int
file_err(char *err, size_t errlen, const char *path,
    const char *what)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s: %s", path, what);
	return -1;
}

/* Directory part of path: "." when there is none. */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

int
bs_policy_parse_file(const char *path, unsigned flags,
    struct bs_policy **out, char *err, size_t errlen)
{
	struct stat st;
	char *buf, *dir;
	size_t len;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return file_err(err, errlen, path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return file_err(err, errlen, path, "not a regular file");
	}
	/* Owned by root or us, writable by nobody else (batsec-policy(5)). */
	if (bs_file_check_perms(path, (uint32_t)st.st_uid,
	    (uint32_t)st.st_mode, 0, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	r = read_all(fd, BS_POLICY_FILE_MAX, &buf, &len);
	close(fd);
	if (r == -2)
		return file_err(err, errlen, path, "larger than 4 MiB");
	if (r != 0)
		return file_err(err, errlen, path, strerror(errno));
	if ((dir = dir_of(path)) == NULL) {
		free(buf);
		return file_err(err, errlen, path, "out of memory");
	}
	r = bs_policy_parse_buf(buf, len, path, dir, flags, out, err, errlen);
	free(dir);
	free(buf);
	return r;
}
