/*
 * ctlproto.c — encode and decode control-socket messages (ctlproto.h).
 *
 * Decoders walk a cursor and compare every length with what remains
 * before using it; they copy nothing until the element is validated and
 * reject a message with bytes after its last element.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "batsec_crypto.h"
#include "ctlproto.h"

/* ---- helpers ------------------------------------------------------------ */

static int
ctlp_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static int
ctlp_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A hexadecimal digit's value, or -1. */
static int
ctlp_hexval(char c)
{
	if (ctlp_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int
ctlp_mac_parse(const char *s, uint8_t mac[6])
{
	int i, hi, lo;

	if (s == NULL || strlen(s) != 17)
		return -1;
	for (i = 0; i < 6; i++) {
		hi = ctlp_hexval(s[3 * i]);
		lo = ctlp_hexval(s[3 * i + 1]);
		if (hi < 0 || lo < 0 || (i < 5 && s[3 * i + 2] != ':'))
			return -1;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* A name of 1..CTLP_NAME_MAX bytes: a letter, then letters, digits, sep. */
static int
ctlp_name_ok(const char *s, size_t len, char sep)
{
	size_t i;

	if (len == 0 || len > CTLP_NAME_MAX || !ctlp_lower(s[0]))
		return 0;
	for (i = 1; i < len; i++)
		if (!ctlp_lower(s[i]) && !ctlp_digit(s[i]) && s[i] != sep)
			return 0;
	return 1;
}

int
ctlp_cmd_name_ok(const char *s, size_t len)
{
	return ctlp_name_ok(s, len, '-');
}

int
ctlp_field_name_ok(const char *s, size_t len)
{
	return ctlp_name_ok(s, len, '_');
}

int
ctlp_printable(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

const char *
ctlp_status_str(unsigned status)
{
	static const char *const str[] = {
		[CTLP_OK] = "success",
		[CTLP_E_PROTO] = "malformed request",
		[CTLP_E_VERSION] = "unsupported protocol version",
		[CTLP_E_UNKNOWN] = "unknown command",
		[CTLP_E_USAGE] = "bad arguments",
		[CTLP_E_PERM] = "permission denied",
		[CTLP_E_BUSY] = "too many clients",
		[CTLP_E_TOOBIG] = "reply too large",
		[CTLP_E_FAILED] = "command failed",
		[CTLP_E_INTERNAL] = "internal error",
	};

	if (status < sizeof(str) / sizeof(str[0]))
		return str[status];
	return "error";
}

/* ---- reading: a cursor over what remains -------------------------------- */

struct ctlp_cur {
	const uint8_t *p;
	size_t left;
};

static int
ctlp_get_u8(struct ctlp_cur *c, uint8_t *v)
{
	if (c->left < 1)
		return -1;
	*v = c->p[0];
	c->p++;
	c->left--;
	return 0;
}

static int
ctlp_get_u16(struct ctlp_cur *c, uint16_t *v)
{
	if (c->left < 2)
		return -1;
	*v = bs_get16(c->p);
	c->p += 2;
	c->left -= 2;
	return 0;
}

static int
ctlp_get_u32(struct ctlp_cur *c, uint32_t *v)
{
	if (c->left < 4)
		return -1;
	*v = bs_get32(c->p);
	c->p += 4;
	c->left -= 4;
	return 0;
}

static int
ctlp_get_u64(struct ctlp_cur *c, uint64_t *v)
{
	if (c->left < 8)
		return -1;
	*v = bs_get64(c->p);
	c->p += 8;
	c->left -= 8;
	return 0;
}

/* n bytes at *out; n is compared with what remains before any pointer. */
static int
ctlp_get_bytes(struct ctlp_cur *c, size_t n, const char **out)
{
	if (n > c->left)
		return -1;
	*out = (const char *)c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

int
ctlp_header(const uint8_t *buf, size_t len, uint8_t *type, char *err,
    size_t errlen)
{
	if (len < CTLP_HDR_LEN) {
		log_errf(err, errlen, "message of %zu bytes is shorter than "
		    "its header", len);
		return CTLP_E_PROTO;
	}
	if (buf[0] != CTLP_VERSION) {
		log_errf(err, errlen, "unsupported control protocol version "
		    "%u (this side speaks %d)", buf[0], CTLP_VERSION);
		return CTLP_E_VERSION;
	}
	*type = buf[1];
	return 0;
}

/* The header of a message that must be of type want; cursor after it. */
static int
ctlp_start(struct ctlp_cur *c, const uint8_t *buf, size_t len, uint8_t want,
    const char *what, char *err, size_t errlen)
{
	uint8_t type = 0;
	int rc;

	if (len > CTLP_MSG_MAX) {
		log_errf(err, errlen, "%s: %zu bytes, more than %d", what, len,
		    CTLP_MSG_MAX);
		return CTLP_E_PROTO;
	}
	if ((rc = ctlp_header(buf, len, &type, err, errlen)) != 0)
		return rc;
	if (type != want) {
		log_errf(err, errlen, "%s: message type %u, expected %u", what,
		    type, want);
		return CTLP_E_PROTO;
	}
	c->p = buf + CTLP_HDR_LEN;
	c->left = len - CTLP_HDR_LEN;
	return 0;
}

static int
ctlp_trailing(const struct ctlp_cur *c, const char *what, char *err,
    size_t errlen)
{
	if (c->left == 0)
		return 0;
	log_errf(err, errlen, "%s: %zu bytes of trailing data", what, c->left);
	return CTLP_E_PROTO;
}

/* ---- writing ------------------------------------------------------------ */

struct ctlp_out {
	uint8_t *buf;
	size_t cap;
	size_t len;
};

static int
ctlp_put(struct ctlp_out *o, const void *src, size_t n)
{
	if (n > o->cap - o->len)
		return -1;
	memcpy(o->buf + o->len, src, n);
	o->len += n;
	return 0;
}

static int
ctlp_put_u8(struct ctlp_out *o, uint8_t v)
{
	return ctlp_put(o, &v, 1);
}

static int
ctlp_put_u16(struct ctlp_out *o, uint16_t v)
{
	uint8_t b[2];

	bs_put16(b, v);
	return ctlp_put(o, b, sizeof(b));
}

static int
ctlp_put_hdr(struct ctlp_out *o, uint8_t type)
{
	return ctlp_put_u8(o, CTLP_VERSION) || ctlp_put_u8(o, type) ? -1 : 0;
}

/* The usable capacity: the caller's buffer, at most one datagram. */
static size_t
ctlp_cap(size_t buflen)
{
	return buflen < CTLP_MSG_MAX ? buflen : CTLP_MSG_MAX;
}

/* ---- REQUEST ------------------------------------------------------------ */

/* Why argument text of len bytes is refused, or NULL. */
static const char *
ctlp_arg_problem(const char *s, size_t len)
{
	if (len == 0)
		return "is empty";
	if (len > CTLP_ARG_MAX)
		return "is longer than 512 bytes";
	if (!ctlp_printable(s, len))
		return "holds a byte that is not printable ASCII";
	return NULL;
}

int
ctlp_request_encode(uint8_t *buf, size_t buflen, const char *name,
    size_t argc, const char *const argv[], size_t *outlen, char *err,
    size_t errlen)
{
	struct ctlp_out o = { buf, ctlp_cap(buflen), 0 };
	size_t i, n = strnlen(name, CTLP_NAME_MAX + 1);
	const char *why;

	if (!ctlp_cmd_name_ok(name, n)) {
		log_errf(err, errlen, "bad command name");
		return -1;
	}
	if (argc > CTLP_ARGS_MAX) {
		log_errf(err, errlen, "more than %d arguments", CTLP_ARGS_MAX);
		return -1;
	}
	if (ctlp_put_hdr(&o, CTLP_T_REQUEST) || ctlp_put_u8(&o, (uint8_t)n) ||
	    ctlp_put(&o, name, n) || ctlp_put_u8(&o, (uint8_t)argc))
		goto nospace;
	for (i = 0; i < argc; i++) {
		n = strnlen(argv[i], CTLP_ARG_MAX + 1);
		if ((why = ctlp_arg_problem(argv[i], n)) != NULL) {
			log_errf(err, errlen, "argument %zu %s", i + 1, why);
			return -1;
		}
		if (ctlp_put_u16(&o, (uint16_t)n) || ctlp_put(&o, argv[i], n))
			goto nospace;
	}
	*outlen = o.len;
	return 0;
nospace:
	log_errf(err, errlen, "request does not fit in %zu bytes", o.cap);
	return -1;
}

static int
ctlp_request_name(struct ctlp_cur *c, struct ctlp_request *req, char *err,
    size_t errlen)
{
	const char *s;
	uint8_t n;

	if (ctlp_get_u8(c, &n) != 0 || ctlp_get_bytes(c, n, &s) != 0) {
		log_errf(err, errlen, "request: truncated command name");
		return CTLP_E_PROTO;
	}
	if (!ctlp_cmd_name_ok(s, n)) {
		log_errf(err, errlen, "request: bad command name (1-%d "
		    "characters a-z, 0-9, '-', starting with a letter)",
		    CTLP_NAME_MAX);
		return CTLP_E_PROTO;
	}
	memcpy(req->name, s, n);
	req->name[n] = '\0';
	return 0;
}

static int
ctlp_request_arg(struct ctlp_cur *c, struct ctlp_request *req, size_t i,
    char *err, size_t errlen)
{
	const char *s, *why;
	uint16_t n;

	if (ctlp_get_u16(c, &n) != 0 || ctlp_get_bytes(c, n, &s) != 0) {
		log_errf(err, errlen, "request: argument %zu truncated", i + 1);
		return CTLP_E_PROTO;
	}
	if ((why = ctlp_arg_problem(s, n)) != NULL) {
		log_errf(err, errlen, "request: argument %zu %s", i + 1, why);
		return CTLP_E_PROTO;
	}
	memcpy(req->arg[i], s, n);
	req->arg[i][n] = '\0';
	return 0;
}

int
ctlp_request_decode(const uint8_t *buf, size_t len, struct ctlp_request *req,
    char *err, size_t errlen)
{
	struct ctlp_cur c;
	uint8_t argc;
	size_t i;
	int rc;

	req->argc = 0;
	req->name[0] = '\0';
	if ((rc = ctlp_start(&c, buf, len, CTLP_T_REQUEST, "request", err,
	    errlen)) != 0 || (rc = ctlp_request_name(&c, req, err,
	    errlen)) != 0)
		return rc;
	if (ctlp_get_u8(&c, &argc) != 0) {
		log_errf(err, errlen, "request: truncated before the argument "
		    "count");
		return CTLP_E_PROTO;
	}
	if (argc > CTLP_ARGS_MAX) {
		log_errf(err, errlen, "request: %u arguments, at most %d", argc,
		    CTLP_ARGS_MAX);
		return CTLP_E_PROTO;
	}
	for (i = 0; i < argc; i++)
		if ((rc = ctlp_request_arg(&c, req, i, err, errlen)) != 0)
			return rc;
	if ((rc = ctlp_trailing(&c, "request", err, errlen)) != 0)
		return rc;
	req->argc = argc;
	return 0;
}

/* ---- RECORD ------------------------------------------------------------- */

void
ctlp_rec_begin(struct ctlp_rec *w, uint8_t *buf, size_t cap)
{
	struct ctlp_out o = { buf, ctlp_cap(cap), 0 };

	w->buf = buf;
	w->cap = o.cap;
	w->nfields = 0;
	/* Header and a field count patched by ctlp_rec_end. */
	w->bad = ctlp_put_hdr(&o, CTLP_T_RECORD) || ctlp_put_u8(&o, 0);
	w->len = o.len;
}

/* Field type and name; the value follows. */
static int
ctlp_rec_field(struct ctlp_rec *w, struct ctlp_out *o, uint8_t type,
    const char *name)
{
	size_t n = strnlen(name, CTLP_NAME_MAX + 1);

	if (w->bad || w->nfields >= CTLP_FIELDS_MAX ||
	    !ctlp_field_name_ok(name, n))
		return -1;
	o->buf = w->buf;
	o->cap = w->cap;
	o->len = w->len;
	return ctlp_put_u8(o, type) || ctlp_put_u8(o, (uint8_t)n) ||
	    ctlp_put(o, name, n) ? -1 : 0;
}

/* Commit a field written through o, or mark the record bad. */
static int
ctlp_rec_commit(struct ctlp_rec *w, const struct ctlp_out *o, int rc)
{
	if (rc != 0) {
		w->bad = 1;
		return -1;
	}
	w->len = o->len;
	w->nfields++;
	return 0;
}

int
ctlp_rec_str(struct ctlp_rec *w, const char *name, const char *val,
    size_t len)
{
	struct ctlp_out o = { NULL, 0, 0 };
	int rc;

	rc = len > CTLP_STR_MAX || !ctlp_printable(val, len) ||
	    ctlp_rec_field(w, &o, CTLP_F_STR, name) ||
	    ctlp_put_u16(&o, (uint16_t)len) || ctlp_put(&o, val, len);
	return ctlp_rec_commit(w, &o, rc);
}

int
ctlp_rec_u64(struct ctlp_rec *w, const char *name, uint64_t v)
{
	struct ctlp_out o = { NULL, 0, 0 };
	uint8_t b[8];
	int rc;

	bs_put64(b, v);
	rc = ctlp_rec_field(w, &o, CTLP_F_U64, name) ||
	    ctlp_put(&o, b, sizeof(b));
	return ctlp_rec_commit(w, &o, rc);
}

int
ctlp_rec_bool(struct ctlp_rec *w, const char *name, int v)
{
	struct ctlp_out o = { NULL, 0, 0 };
	int rc;

	rc = ctlp_rec_field(w, &o, CTLP_F_BOOL, name) ||
	    ctlp_put_u8(&o, v ? 1 : 0);
	return ctlp_rec_commit(w, &o, rc);
}

int
ctlp_rec_end(struct ctlp_rec *w, size_t *outlen)
{
	if (w->bad || w->nfields == 0)
		return -1;
	w->buf[CTLP_HDR_LEN] = (uint8_t)w->nfields;
	*outlen = w->len;
	return 0;
}

static int
ctlp_field_value(struct ctlp_cur *c, struct ctlp_field *f)
{
	uint16_t n;
	uint8_t b;

	switch (f->type) {
	case CTLP_F_STR:
		if (ctlp_get_u16(c, &n) != 0 || n > CTLP_STR_MAX ||
		    ctlp_get_bytes(c, n, &f->str) != 0 ||
		    !ctlp_printable(f->str, n))
			return -1;
		f->str_len = n;
		return 0;
	case CTLP_F_U64:
		return ctlp_get_u64(c, &f->u64);
	case CTLP_F_BOOL:
		if (ctlp_get_u8(c, &b) != 0 || b > 1)
			return -1;
		f->u64 = b;
		return 0;
	default:
		return -1;
	}
}

/* 1 when name is already used by one of the first n fields. */
static int
ctlp_field_dup(const struct ctlp_record *rec, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rec->f[i].name, name) == 0)
			return 1;
	return 0;
}

static int
ctlp_field_decode(struct ctlp_cur *c, struct ctlp_record *rec, size_t i,
    char *err, size_t errlen)
{
	struct ctlp_field *f = &rec->f[i];
	const char *s;
	uint8_t n;

	memset(f, 0, sizeof(*f));
	if (ctlp_get_u8(c, &f->type) != 0 || ctlp_get_u8(c, &n) != 0 ||
	    ctlp_get_bytes(c, n, &s) != 0 || !ctlp_field_name_ok(s, n)) {
		log_errf(err, errlen, "record: field %zu: truncated or bad "
		    "name", i + 1);
		return CTLP_E_PROTO;
	}
	memcpy(f->name, s, n);
	f->name[n] = '\0';
	if (ctlp_field_dup(rec, i, f->name)) {
		log_errf(err, errlen, "record: field '%s' appears twice",
		    f->name);
		return CTLP_E_PROTO;
	}
	if (ctlp_field_value(c, f) != 0) {
		log_errf(err, errlen, "record: field '%s': bad or truncated "
		    "value of type %u", f->name, f->type);
		return CTLP_E_PROTO;
	}
	return 0;
}

int
ctlp_record_decode(const uint8_t *buf, size_t len, struct ctlp_record *rec,
    char *err, size_t errlen)
{
	struct ctlp_cur c;
	uint8_t n;
	size_t i;
	int rc;

	rec->n = 0;
	if ((rc = ctlp_start(&c, buf, len, CTLP_T_RECORD, "record", err,
	    errlen)) != 0)
		return rc;
	if (ctlp_get_u8(&c, &n) != 0 || n == 0 || n > CTLP_FIELDS_MAX) {
		log_errf(err, errlen, "record: field count missing or not in "
		    "1..%d", CTLP_FIELDS_MAX);
		return CTLP_E_PROTO;
	}
	for (i = 0; i < n; i++)
		if ((rc = ctlp_field_decode(&c, rec, i, err, errlen)) != 0)
			return rc;
	if ((rc = ctlp_trailing(&c, "record", err, errlen)) != 0)
		return rc;
	rec->n = n;
	return 0;
}

/* ---- END ---------------------------------------------------------------- */

/* Why an END of this content is invalid, or NULL. */
static const char *
ctlp_end_problem(uint8_t status, uint32_t records, const char *msg,
    size_t len)
{
	if (len > CTLP_ERR_MAX)
		return "message longer than 255 bytes";
	if (!ctlp_printable(msg, len))
		return "message holds a byte that is not printable ASCII";
	if (status == CTLP_OK && len != 0)
		return "success with a message";
	if (status != CTLP_OK && len == 0)
		return "error without a message";
	if (status != CTLP_OK && records != 0)
		return "error after records";
	return NULL;
}

int
ctlp_end_encode(uint8_t *buf, size_t buflen, const struct ctlp_end *e,
    size_t *outlen, char *err, size_t errlen)
{
	struct ctlp_out o = { buf, ctlp_cap(buflen), 0 };
	size_t n = strnlen(e->msg, sizeof(e->msg));
	const char *why;
	uint8_t rec[4];

	if ((why = ctlp_end_problem(e->status, e->records, e->msg, n))
	    != NULL) {
		log_errf(err, errlen, "end: %s", why);
		return -1;
	}
	bs_put32(rec, e->records);
	if (ctlp_put_hdr(&o, CTLP_T_END) || ctlp_put_u8(&o, e->status) ||
	    ctlp_put(&o, rec, sizeof(rec)) || ctlp_put_u8(&o, (uint8_t)n) ||
	    ctlp_put(&o, e->msg, n)) {
		log_errf(err, errlen, "end: does not fit in %zu bytes", o.cap);
		return -1;
	}
	*outlen = o.len;
	return 0;
}

int
ctlp_end_decode(const uint8_t *buf, size_t len, struct ctlp_end *e,
    char *err, size_t errlen)
{
	struct ctlp_cur c;
	const char *s, *why;
	uint8_t n;
	int rc;

	memset(e, 0, sizeof(*e));
	if ((rc = ctlp_start(&c, buf, len, CTLP_T_END, "end", err,
	    errlen)) != 0)
		return rc;
	if (ctlp_get_u8(&c, &e->status) != 0 ||
	    ctlp_get_u32(&c, &e->records) != 0 || ctlp_get_u8(&c, &n) != 0 ||
	    ctlp_get_bytes(&c, n, &s) != 0) {
		log_errf(err, errlen, "end: truncated");
		return CTLP_E_PROTO;
	}
	if ((why = ctlp_end_problem(e->status, e->records, s, n)) != NULL) {
		log_errf(err, errlen, "end: %s", why);
		return CTLP_E_PROTO;
	}
	if ((rc = ctlp_trailing(&c, "end", err, errlen)) != 0)
		return rc;
	memcpy(e->msg, s, n);
	e->msg[n] = '\0';
	return 0;
}
