/*
 * armor.c — text armour for certificates and revocation records:
 *   -----BEGIN <LABEL>-----\n<base64 of the canonical bytes>\n-----END <LABEL>-----\n
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "batsec_keys.h"
#include "keys_impl.h"

#define ARMOR_CERT	"BATSEC CERTIFICATE"
#define ARMOR_REVOKE	"BATSEC REVOCATION"
#define ARMOR_DASHES	"-----"

/* One armoured kind: its label, binary size and what it is called. */
struct armor_kind {
	const char *label;
	size_t binlen;
	const char *what;
};

static const struct armor_kind armor_cert = {
	ARMOR_CERT, BS_CERT_LEN, "certificate"
};
static const struct armor_kind armor_revoke = {
	ARMOR_REVOKE, BS_REVOKE_LEN, "revocation record"
};

/*
 * Take the next line from *p (of *rem bytes): its start and length without
 * the newline.  *had_nl tells whether a newline ended it.
 */
static void
armor_next_line(const char **p, size_t *rem, const char **line,
    size_t *len, int *had_nl)
{
	const char *nl = memchr(*p, '\n', *rem);

	*line = *p;
	*len = nl != NULL ? (size_t)(nl - *p) : *rem;
	*had_nl = nl != NULL;
	*p += *len + (size_t)*had_nl;
	*rem -= *len + (size_t)*had_nl;
}

/* 1 when line is exactly "-----<word> <label>-----". */
static int
armor_is_marker(const char *line, size_t len, const char *word,
    const char *label)
{
	char want[64];
	int n;

	n = snprintf(want, sizeof(want), ARMOR_DASHES "%s %s" ARMOR_DASHES,
	    word, label);
	return n > 0 && (size_t)n == len && memcmp(line, want, len) == 0;
}

/* Decode the body line into out (k->binlen bytes); 0 or -1 with err set. */
static int
armor_body(const struct armor_kind *k, const char *line, size_t len,
    uint8_t *out, const char *name, char *err, size_t errlen)
{
	size_t want = sodium_base64_ENCODED_LEN(k->binlen,
	    sodium_base64_VARIANT_ORIGINAL) - 1;

	if (len != want) {
		keys_errf(err, errlen, "%s: %s body is %zu characters long, "
		    "expected %zu", name, k->what, len, want);
		return -1;
	}
	if (bs_b64_decode_exact(out, k->binlen, line, len) < 0) {
		keys_errf(err, errlen, "%s: %s body is not valid base64",
		    name, k->what);
		return -1;
	}
	return 0;
}

/* Unwrap armoured text into k->binlen bytes; 0 or -1 with err set. */
static int
armor_unwrap(const struct armor_kind *k, const char *buf, size_t len,
    uint8_t *out, const char *name, char *err, size_t errlen)
{
	const char *line;
	size_t ll;
	int nl;

	if (buf == NULL || len == 0) {
		keys_errf(err, errlen, "%s: empty file, expected a %s", name,
		    k->what);
		return -1;
	}
	armor_next_line(&buf, &len, &line, &ll, &nl);
	if (!armor_is_marker(line, ll, "BEGIN", k->label)) {
		keys_errf(err, errlen, "%s: first line is not "
		    "\"-----BEGIN %s-----\"", name, k->label);
		return -1;
	}
	if (nl)
		armor_next_line(&buf, &len, &line, &ll, &nl);
	if (!nl) {
		keys_errf(err, errlen, "%s: %s ends before the END line",
		    name, k->what);
		return -1;
	}
	if (armor_body(k, line, ll, out, name, err, errlen) != 0)
		return -1;
	armor_next_line(&buf, &len, &line, &ll, &nl);
	if (!armor_is_marker(line, ll, "END", k->label)) {
		keys_errf(err, errlen, "%s: third line is not "
		    "\"-----END %s-----\"", name, k->label);
		return -1;
	}
	if (len != 0) {
		keys_errf(err, errlen, "%s: unexpected data after the END line",
		    name);
		return -1;
	}
	return 0;
}

/* Armour bin into out; the text length or -1 when out is too small. */
static int
armor_wrap(const struct armor_kind *k, char *out, size_t outlen,
    const uint8_t *bin)
{
	char b64[BS_ARMOR_MAX];
	int n;

	if (out == NULL || bs_b64_encode(b64, sizeof(b64), bin, k->binlen) < 0)
		return -1;
	n = snprintf(out, outlen, ARMOR_DASHES "BEGIN %s" ARMOR_DASHES "\n"
	    "%s\n" ARMOR_DASHES "END %s" ARMOR_DASHES "\n", k->label, b64,
	    k->label);
	if (n < 0 || (size_t)n >= outlen)
		return -1;
	return n;
}

int
bs_cert_parse_armor(const char *buf, size_t len, struct bs_cert *c,
    const char *name, char *err, size_t errlen)
{
	uint8_t bin[BS_CERT_LEN];
	const char *why;

	name = keys_name(name);
	if (armor_unwrap(&armor_cert, buf, len, bin, name, err, errlen) != 0)
		return -1;
	why = bs_cert_format_problem(bin, sizeof(bin));
	if (why != NULL || bs_cert_decode(c, bin, sizeof(bin)) != BS_CERT_OK) {
		keys_errf(err, errlen, "%s: malformed certificate: %s", name,
		    why != NULL ? why : "cannot decode");
		return -1;
	}
	return 0;
}

int
bs_revoke_parse_armor(const char *buf, size_t len, struct bs_revoke *r,
    const char *name, char *err, size_t errlen)
{
	uint8_t bin[BS_REVOKE_LEN];
	const char *why;

	name = keys_name(name);
	if (armor_unwrap(&armor_revoke, buf, len, bin, name, err, errlen) != 0)
		return -1;
	why = bs_revoke_format_problem(bin, sizeof(bin));
	if (why != NULL || bs_revoke_decode(r, bin, sizeof(bin)) != 0) {
		keys_errf(err, errlen, "%s: malformed revocation record: %s",
		    name, why != NULL ? why : "cannot decode");
		return -1;
	}
	return 0;
}

int
bs_cert_to_armor(char *out, size_t outlen, const struct bs_cert *c)
{
	uint8_t bin[BS_CERT_LEN];

	bs_cert_encode(bin, c);
	return armor_wrap(&armor_cert, out, outlen, bin);
}

int
bs_revoke_to_armor(char *out, size_t outlen, const struct bs_revoke *r)
{
	uint8_t bin[BS_REVOKE_LEN];

	bs_revoke_encode(bin, r);
	return armor_wrap(&armor_revoke, out, outlen, bin);
}

int
bs_cert_load(const char *path, struct bs_cert *c, char *err, size_t errlen)
{
	char buf[BS_KEYFILE_MAX];
	int n = bs_file_read_small(path, buf, sizeof(buf), 0, err, errlen);

	if (n < 0)
		return -1;
	return bs_cert_parse_armor(buf, (size_t)n, c, path, err, errlen);
}

int
bs_revoke_load(const char *path, struct bs_revoke *r, char *err,
    size_t errlen)
{
	char buf[BS_KEYFILE_MAX];
	int n = bs_file_read_small(path, buf, sizeof(buf), 0, err, errlen);

	if (n < 0)
		return -1;
	return bs_revoke_parse_armor(buf, (size_t)n, r, path, err, errlen);
}

int
bs_cert_write(const char *path, const struct bs_cert *c, int flags, char *err,
    size_t errlen)
{
	char text[BS_ARMOR_MAX];
	int n = bs_cert_to_armor(text, sizeof(text), c);

	if (n < 0) {
		keys_errf(err, errlen, "%s: cannot encode certificate", path);
		return -1;
	}
	return bs_file_write(path, text, (size_t)n, 0644, flags, err, errlen);
}

int
bs_cert_save(const char *path, const struct bs_cert *c, char *err,
    size_t errlen)
{
	return bs_cert_write(path, c, 0, err, errlen);
}

int
bs_revoke_write(const char *path, const struct bs_revoke *r, int flags,
    char *err, size_t errlen)
{
	char text[BS_ARMOR_MAX];
	int n = bs_revoke_to_armor(text, sizeof(text), r);

	if (n < 0) {
		keys_errf(err, errlen, "%s: cannot encode revocation record",
		    path);
		return -1;
	}
	return bs_file_write(path, text, (size_t)n, 0644, flags, err, errlen);
}

int
bs_revoke_save(const char *path, const struct bs_revoke *r, char *err,
    size_t errlen)
{
	return bs_revoke_write(path, r, 0, err, errlen);
}
