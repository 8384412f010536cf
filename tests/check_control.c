/*
 * check_control.c — the control socket: the wire format (ctlproto.c)
 * round trips and every malformed message (table-driven), the reply
 * builder and request dispatch (control.c), a real server on a temporary
 * socket path driven by in-process clients (access rules, limits,
 * timeouts, large replies), and batsec-ctl rendering tables and JSON
 * from that server (fork + exec of $B/batsec-ctl).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "forwarder/control.h"
#include "proto/ctlproto.h"
#include "common/version.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

#define NOBODY		65534	/* uid nobody, gid nogroup (Debian) */
#define BIG_TABLE	4096

static uint64_t now_ms = 1000000;
static char tdir[64];
static char spath[96];	/* fits sun_path */

/* ---- helpers ------------------------------------------------------------ */

static void
tmp_setup(void)
{
	t_tmpdir(tdir, sizeof(tdir), "check_control");
	snprintf(spath, sizeof(spath), "%s/ctl.sock", tdir);
}

static void
tmp_teardown(void)
{
	t_rmtree(tdir);
}

/* Encode a request; the test fails if the encoder refuses. */
static size_t
req(uint8_t *buf, const char *name, size_t argc, const char *const argv[])
{
	char err[256];
	size_t n;

	ck_assert_msg(ctlp_request_encode(buf, CTLP_MSG_MAX, name, argc, argv,
	    &n, err, sizeof(err)) == 0, "encode %s: %s", name, err);
	return n;
}

/* ---- fake handlers ------------------------------------------------------ */

struct fake {
	size_t n_orig;		/* records of "originators" */
	int stats_split;	/* stats as two records */
	int fail;		/* trust-add / block answer with an error */
	size_t calls;
	size_t argc;
	char argv[CTLP_ARGS_MAX][CTLP_ARG_MAX + 1];
};

static struct fake fake;

static void
fake_record_args(struct fake *f, size_t argc, const char *const argv[])
{
	size_t i;

	f->calls++;
	f->argc = argc;
	for (i = 0; i < argc; i++)
		snprintf(f->argv[i], sizeof(f->argv[i]), "%s", argv[i]);
	ck_assert_ptr_null(argv[argc]);
}

static void
fake_pk(uint8_t pk[32], size_t i)
{
	memset(pk, 0x5a, 32);
	pk[0] = (uint8_t)(i >> 8);
	pk[1] = (uint8_t)i;
}

static void
h_originators(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fake *f = ctx;
	uint8_t addr[6] = { 0x02, 0, 0, 0, 0, 0 }, nh[6] = { 0x02, 0, 0, 0,
	    1, 0 }, pk[32];
	size_t i;

	(void)argc;
	(void)argv;
	for (i = 0; i < f->n_orig; i++) {
		addr[4] = (uint8_t)(i >> 8);
		addr[5] = (uint8_t)i;
		nh[5] = (uint8_t)(i % 2);
		fake_pk(pk, i);
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "address", addr);
		ctl_reply_field_key(r, "key", pk);
		ctl_reply_field_addr(r, "next_hop", nh);
		ctl_reply_field_u64(r, "tq", 255 - (i * 30) % 256);
		ctl_reply_field_str(r, "interface", "mesh0");
		ctl_reply_field_u64(r, "last_seen_ms", 240 + i * 1000);
		ctl_reply_field_bool(r, "best", i != 1);
	}
	ctl_reply_ok(r);
}

static void
h_neighbors(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	uint8_t addr[6] = { 0x02, 0, 0, 0, 0, 0x0a }, pk[32];
	size_t i;

	(void)ctx;
	(void)argc;
	(void)argv;
	for (i = 0; i < 2; i++) {
		addr[5] = (uint8_t)(0x0a + i);
		fake_pk(pk, 100 + i);
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "address", addr);
		ctl_reply_field_key(r, "key", pk);
		ctl_reply_field_str(r, "interface", i ? "wlan-long" : "mesh0");
		ctl_reply_field_u64(r, "link_tq", 200 + i);
		ctl_reply_field_u64(r, "last_seen_ms", 100 + i * 12000);
	}
	ctl_reply_ok(r);
}

static void
h_stats(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fake *f = ctx;

	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "tx", 10);
	ctl_reply_field_u64(r, "rx", 20);
	if (f->stats_split)
		ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "rx_dropped", 0);
	ctl_reply_ok(r);
}

static void
h_trust_list(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_ok(r);
}

static void
h_change(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct fake *f = ctx;

	fake_record_args(f, argc, argv);
	if (f->fail)
		ctl_reply_error(r, CTLP_E_FAILED, "%s: key already listed",
		    argv[0]);
	else
		ctl_reply_ok(r);
}

/* Each argument back as a string field a0, a1, ... */
static void
h_echo(void *ctx, size_t argc, const char *const argv[], struct ctl_reply *r)
{
	char name[24];
	size_t i;

	fake_record_args(ctx, argc, argv);
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "argc", argc);
	for (i = 0; i < argc; i++) {
		snprintf(name, sizeof(name), "a%zu", i);
		ctl_reply_field_str(r, name, argv[i]);
	}
	ctl_reply_ok(r);
}

/* Records until the builder gives up: a reply too large. */
static void
h_huge(void *ctx, size_t argc, const char *const argv[], struct ctl_reply *r)
{
	char s[CTLP_STR_MAX + 1];
	size_t i;

	(void)ctx;
	(void)argc;
	(void)argv;
	memset(s, 'x', CTLP_STR_MAX);
	s[CTLP_STR_MAX] = '\0';
	for (i = 0; i < 2 * CTLP_REPLY_MAX / CTLP_STR_MAX; i++) {
		ctl_reply_record_begin(r);
		ctl_reply_field_str(r, "s", s);
	}
	ctl_reply_ok(r);
}

static void
h_no_end(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "x", 1);
}

static void
h_error_after_records(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "x", 1);
	ctl_reply_error(r, CTLP_E_FAILED, "bad\nthing\x1b");
}

static void
h_dup_field(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "x", 1);
	ctl_reply_field_u64(r, "x", 2);
	ctl_reply_ok(r);
}

static void
h_field_outside(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_field_u64(r, "x", 1);
	ctl_reply_ok(r);
}

static void
h_bad_name(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_bool(r, "Bad-Name", 1);
	ctl_reply_ok(r);
}

static void
h_too_many_fields(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	char name[8];
	size_t i;

	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	for (i = 0; i <= CTLP_FIELDS_MAX; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		ctl_reply_field_u64(r, name, i);
	}
	ctl_reply_ok(r);
}

static void
h_controls(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_str(r, "s", "a\tb\nc\x7f" "d\xc3\xa9");
	ctl_reply_ok(r);
}

/* Overrides the built-in version. */
static void
h_version(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_str(r, "version", "mine");
	ctl_reply_ok(r);
}

static void
h_status_extra(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_field_bool(r, "parser_up", 1);
}

static const struct control_cmd fake_cmds[] = {
	{ CTLP_CMD_ORIGINATORS, 0, 0, h_originators },
	{ CTLP_CMD_NEIGHBORS, 0, 0, h_neighbors },
	{ CTLP_CMD_STATS, 0, 0, h_stats },
	{ CTLP_CMD_TRUST_LIST, 0, 0, h_trust_list },
	{ CTLP_CMD_TRUST_ADD, 1, 4, h_change },
	{ CTLP_CMD_BLOCK, 1, 1, h_change },
	{ CTLP_CMD_RELOAD, 0, 0, h_change },
	{ "echo", 0, CTLP_ARGS_MAX, h_echo },
	{ "two", 2, 2, h_echo },
	{ "huge", 0, 0, h_huge },
	{ "no-end", 0, 0, h_no_end },
	{ "err-after", 0, 0, h_error_after_records },
	{ "dup", 0, 0, h_dup_field },
	{ "outside", 0, 0, h_field_outside },
	{ "bad-name", 0, 0, h_bad_name },
	{ "many", 0, 0, h_too_many_fields },
	{ "controls", 0, 0, h_controls },
	{ NULL, 0, 0, NULL }
};

/* ---- wire format: requests ---------------------------------------------- */

static const char arg512[] =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static const struct {
	const char *name;
	size_t argc;
	const char *argv[CTLP_ARGS_MAX];
} req_ok[] = {
	{ "status", 0, { NULL } },
	{ "a", 1, { "x" } },
	{ "trust-add", 4, { "AAAA", "name", "roof", "gateway" } },
	{ "abcdefghijklmnopqrstuvwxyz012345", 0, { NULL } },
	{ "x9-", 8, { "1", "2", "3", "4", "5", "6", "7", " ~" } },
	{ "long", 2, { arg512, "with spaces and \"quotes\" \\" } },
};

START_TEST(request_roundtrip)
{
	struct ctlp_request rq;
	uint8_t buf[CTLP_MSG_MAX];
	char err[256];
	size_t n, i;

	n = req(buf, req_ok[_i].name, req_ok[_i].argc, req_ok[_i].argv);
	ck_assert_int_eq(buf[0], CTLP_VERSION);
	ck_assert_int_eq(buf[1], CTLP_T_REQUEST);
	ck_assert_msg(ctlp_request_decode(buf, n, &rq, err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_str_eq(rq.name, req_ok[_i].name);
	ck_assert_uint_eq(rq.argc, req_ok[_i].argc);
	for (i = 0; i < rq.argc; i++)
		ck_assert_str_eq(rq.arg[i], req_ok[_i].argv[i]);
}
END_TEST

static const struct {
	const char *what;
	const char *name;
	size_t argc;
	const char *argv[CTLP_ARGS_MAX + 1];
	const char *err;
} req_bad[] = {
	{ "empty name", "", 0, { NULL }, "bad command name" },
	{ "upper case", "Status", 0, { NULL }, "bad command name" },
	{ "leading digit", "1abc", 0, { NULL }, "bad command name" },
	{ "leading dash", "-abc", 0, { NULL }, "bad command name" },
	{ "underscore", "a_b", 0, { NULL }, "bad command name" },
	{ "33 bytes", "abcdefghijklmnopqrstuvwxyz0123456", 0, { NULL },
	  "bad command name" },
	{ "9 arguments", "x", 9, { "1", "2", "3", "4", "5", "6", "7", "8",
	  "9" }, "more than 8 arguments" },
	{ "empty argument", "x", 2, { "a", "" }, "argument 2 is empty" },
	{ "newline", "x", 1, { "a\nb" }, "argument 1 holds a byte" },
	{ "tab", "x", 1, { "a\tb" }, "not printable" },
	{ "DEL", "x", 1, { "\x7f" }, "not printable" },
	{ "UTF-8", "x", 1, { "\xc3\xa9" }, "not printable" },
};

START_TEST(request_encode_refused)
{
	uint8_t buf[CTLP_MSG_MAX];
	char err[256] = "";
	size_t n = 0;

	ck_assert_msg(ctlp_request_encode(buf, sizeof(buf), req_bad[_i].name,
	    req_bad[_i].argc, req_bad[_i].argv, &n, err, sizeof(err)) == -1,
	    "%s accepted", req_bad[_i].what);
	ck_assert_msg(strstr(err, req_bad[_i].err) != NULL, "%s: '%s'",
	    req_bad[_i].what, err);
}
END_TEST

START_TEST(request_encode_limits)
{
	char big[CTLP_ARG_MAX + 2];
	const char *argv[1] = { big };
	uint8_t buf[CTLP_MSG_MAX];
	char err[256];
	size_t n;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(ctlp_request_encode(buf, sizeof(buf), "x", 1, argv,
	    &n, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "longer than 512"));
	/* A buffer too small for the request. */
	ck_assert_int_eq(ctlp_request_encode(buf, 5, "status", 0, NULL, &n,
	    err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "does not fit"));
}
END_TEST

/* Malformed requests: raw bytes and the status they must get. */
#define RAW(s)	s, sizeof(s) - 1
static const struct {
	const char *what;
	const char *bytes;
	size_t len;
	int status;
	const char *err;
} raw_bad[] = {
	{ "empty", RAW(""), CTLP_E_PROTO, "shorter than its header" },
	{ "one byte", RAW("\x01"), CTLP_E_PROTO, "shorter than its header" },
	{ "version 0", RAW("\x00\x01\x02hi\x00"), CTLP_E_VERSION,
	  "version 0" },
	{ "version 2", RAW("\x02\x01\x02hi\x00"), CTLP_E_VERSION,
	  "version 2" },
	{ "version 255", RAW("\xff\x01"), CTLP_E_VERSION, "version 255" },
	{ "type record", RAW("\x01\x02\x02hi\x00"), CTLP_E_PROTO,
	  "message type 2" },
	{ "type end", RAW("\x01\x03\x00\x00\x00\x00\x00\x00"), CTLP_E_PROTO,
	  "message type 3" },
	{ "type 0", RAW("\x01\x00\x02hi\x00"), CTLP_E_PROTO, "type 0" },
	{ "no name length", RAW("\x01\x01"), CTLP_E_PROTO, "truncated" },
	{ "name length 0", RAW("\x01\x01\x00\x00"), CTLP_E_PROTO,
	  "bad command name" },
	{ "name past the end", RAW("\x01\x01\x05hi"), CTLP_E_PROTO,
	  "truncated command name" },
	{ "name 33 bytes", RAW("\x01\x01\x21"
	  "abcdefghijklmnopqrstuvwxyz0123456\x00"), CTLP_E_PROTO,
	  "bad command name" },
	{ "name upper case", RAW("\x01\x01\x02Hi\x00"), CTLP_E_PROTO,
	  "bad command name" },
	{ "name with NUL", RAW("\x01\x01\x02h\x00\x00"), CTLP_E_PROTO,
	  "bad command name" },
	{ "name with newline", RAW("\x01\x01\x02h\n\x00"), CTLP_E_PROTO,
	  "bad command name" },
	{ "no argument count", RAW("\x01\x01\x02hi"), CTLP_E_PROTO,
	  "argument count" },
	{ "9 arguments", RAW("\x01\x01\x02hi\x09"), CTLP_E_PROTO,
	  "9 arguments" },
	{ "255 arguments", RAW("\x01\x01\x02hi\xff"), CTLP_E_PROTO,
	  "255 arguments" },
	{ "argument missing", RAW("\x01\x01\x02hi\x01"), CTLP_E_PROTO,
	  "argument 1 truncated" },
	{ "argument length cut", RAW("\x01\x01\x02hi\x01\x00"), CTLP_E_PROTO,
	  "argument 1 truncated" },
	{ "argument past the end", RAW("\x01\x01\x02hi\x01\x00\x05" "abc"),
	  CTLP_E_PROTO, "argument 1 truncated" },
	{ "argument length 0", RAW("\x01\x01\x02hi\x01\x00\x00"),
	  CTLP_E_PROTO, "argument 1 is empty" },
	{ "argument length 65535", RAW("\x01\x01\x02hi\x01\xff\xff" "abc"),
	  CTLP_E_PROTO, "argument 1 truncated" },
	{ "second argument cut", RAW("\x01\x01\x02hi\x02\x00\x01" "a\x00"),
	  CTLP_E_PROTO, "argument 2 truncated" },
	{ "argument with NUL", RAW("\x01\x01\x02hi\x01\x00\x03" "a\x00" "b"),
	  CTLP_E_PROTO, "not printable" },
	{ "argument with newline", RAW("\x01\x01\x02hi\x01\x00\x01\n"),
	  CTLP_E_PROTO, "not printable" },
	{ "argument with 0xff", RAW("\x01\x01\x02hi\x01\x00\x01\xff"),
	  CTLP_E_PROTO, "not printable" },
	{ "trailing byte", RAW("\x01\x01\x02hi\x00\x00"), CTLP_E_PROTO,
	  "1 bytes of trailing data" },
	{ "trailing after argument", RAW("\x01\x01\x02hi\x01\x00\x01" "ab"),
	  CTLP_E_PROTO, "trailing data" },
};
#define N_RAW_BAD	((int)(sizeof(raw_bad) / sizeof(raw_bad[0])))

START_TEST(request_decode_refused)
{
	struct ctlp_request rq;
	char err[256] = "";
	uint8_t *copy;
	int rc;

	/* An exact-size heap copy, so ASan sees any over-read. */
	copy = malloc(raw_bad[_i].len ? raw_bad[_i].len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, raw_bad[_i].bytes, raw_bad[_i].len);
	rc = ctlp_request_decode(copy, raw_bad[_i].len, &rq, err, sizeof(err));
	free(copy);
	ck_assert_msg(rc == raw_bad[_i].status, "%s: status %d, want %d (%s)",
	    raw_bad[_i].what, rc, raw_bad[_i].status, err);
	ck_assert_msg(strstr(err, raw_bad[_i].err) != NULL,
	    "%s: message '%s' lacks '%s'", raw_bad[_i].what, err,
	    raw_bad[_i].err);
	ck_assert_uint_eq(rq.argc, 0);
}
END_TEST

START_TEST(request_decode_oversize)
{
	static uint8_t buf[CTLP_MSG_MAX + 1];
	struct ctlp_request rq;
	char err[256];

	buf[0] = CTLP_VERSION;
	buf[1] = CTLP_T_REQUEST;
	ck_assert_int_eq(ctlp_request_decode(buf, sizeof(buf), &rq, err,
	    sizeof(err)), CTLP_E_PROTO);
	ck_assert_ptr_nonnull(strstr(err, "more than 8192"));
}
END_TEST

/* ---- wire format: records and ends -------------------------------------- */

START_TEST(record_roundtrip)
{
	uint8_t buf[CTLP_MSG_MAX];
	struct ctlp_record rec;
	struct ctlp_rec w;
	char big[CTLP_STR_MAX + 1], err[256];
	size_t n;

	memset(big, '~', CTLP_STR_MAX);
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_str(&w, "address", "02:00:00:00:00:01",
	    17), 0);
	ck_assert_int_eq(ctlp_rec_str(&w, "empty", "", 0), 0);
	ck_assert_int_eq(ctlp_rec_str(&w, "big", big, CTLP_STR_MAX), 0);
	ck_assert_int_eq(ctlp_rec_u64(&w, "max", UINT64_MAX), 0);
	ck_assert_int_eq(ctlp_rec_u64(&w, "zero", 0), 0);
	ck_assert_int_eq(ctlp_rec_bool(&w, "yes", 7), 0);
	ck_assert_int_eq(ctlp_rec_bool(&w, "no", 0), 0);
	ck_assert_int_eq(ctlp_rec_end(&w, &n), 0);
	ck_assert_msg(ctlp_record_decode(buf, n, &rec, err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_uint_eq(rec.n, 7);
	ck_assert_str_eq(rec.f[0].name, "address");
	ck_assert_int_eq(rec.f[0].type, CTLP_F_STR);
	ck_assert_uint_eq(rec.f[0].str_len, 17);
	ck_assert_int_eq(memcmp(rec.f[0].str, "02:00:00:00:00:01", 17), 0);
	ck_assert_uint_eq(rec.f[1].str_len, 0);
	ck_assert_uint_eq(rec.f[2].str_len, CTLP_STR_MAX);
	ck_assert_int_eq(rec.f[3].type, CTLP_F_U64);
	ck_assert(rec.f[3].u64 == UINT64_MAX);
	ck_assert(rec.f[4].u64 == 0);
	ck_assert_int_eq(rec.f[5].type, CTLP_F_BOOL);
	ck_assert(rec.f[5].u64 == 1);
	ck_assert(rec.f[6].u64 == 0);
}
END_TEST

START_TEST(record_writer_refuses)
{
	uint8_t buf[CTLP_MSG_MAX];
	char big[CTLP_STR_MAX + 1], name[8];
	struct ctlp_rec w;
	size_t n, i;

	memset(big, 'a', sizeof(big));
	/* No fields. */
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_end(&w, &n), -1);
	/* Each bad field makes the record unusable. */
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_str(&w, "s", big, CTLP_STR_MAX + 1), -1);
	ck_assert_int_eq(ctlp_rec_u64(&w, "ok", 1), -1);
	ck_assert_int_eq(ctlp_rec_end(&w, &n), -1);
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_str(&w, "s", "a\nb", 3), -1);
	ck_assert_int_eq(ctlp_rec_end(&w, &n), -1);
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_u64(&w, "Bad", 1), -1);
	ck_assert_int_eq(ctlp_rec_end(&w, &n), -1);
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_bool(&w, "", 1), -1);
	ctlp_rec_begin(&w, buf, sizeof(buf));
	ck_assert_int_eq(ctlp_rec_bool(&w, "a-b", 1), -1);
	/* 64 fields fit, the 65th does not. */
	ctlp_rec_begin(&w, buf, sizeof(buf));
	for (i = 0; i < CTLP_FIELDS_MAX; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		ck_assert_int_eq(ctlp_rec_u64(&w, name, i), 0);
	}
	ck_assert_int_eq(ctlp_rec_u64(&w, "more", 1), -1);
	/* A record larger than one datagram. */
	ctlp_rec_begin(&w, buf, sizeof(buf));
	for (i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "s%zu", i);
		ck_assert_int_eq(ctlp_rec_str(&w, name, big, CTLP_STR_MAX), 0);
	}
	ck_assert_int_eq(ctlp_rec_str(&w, "s7", big, CTLP_STR_MAX), -1);
	/* A small buffer. */
	ctlp_rec_begin(&w, buf, 8);
	ck_assert_int_eq(ctlp_rec_u64(&w, "x", 1), -1);
}
END_TEST

static const struct {
	const char *what;
	const char *bytes;
	size_t len;
	const char *err;
} rec_bad[] = {
	{ "no field count", RAW("\x01\x02"), "field count" },
	{ "0 fields", RAW("\x01\x02\x00"), "field count" },
	{ "65 fields", RAW("\x01\x02\x41"), "field count" },
	{ "field missing", RAW("\x01\x02\x01"), "field 1: truncated" },
	{ "name past the end", RAW("\x01\x02\x01\x02\x05" "ab"),
	  "field 1: truncated" },
	{ "name empty", RAW("\x01\x02\x01\x02\x00"), "field 1" },
	{ "name upper", RAW("\x01\x02\x01\x03\x01X\x01"), "bad name" },
	{ "name with dash", RAW("\x01\x02\x01\x03\x03" "a-b\x01"),
	  "bad name" },
	{ "unknown type", RAW("\x01\x02\x01\x04\x01x\x01"),
	  "value of type 4" },
	{ "bool 2", RAW("\x01\x02\x01\x03\x01x\x02"), "value of type 3" },
	{ "bool missing", RAW("\x01\x02\x01\x03\x01x"), "value of type 3" },
	{ "u64 short", RAW("\x01\x02\x01\x02\x01x\x00\x00\x00\x00\x00\x00\x00"),
	  "value of type 2" },
	{ "string length cut", RAW("\x01\x02\x01\x01\x01x\x00"),
	  "value of type 1" },
	{ "string past the end", RAW("\x01\x02\x01\x01\x01x\x00\x04" "abc"),
	  "value of type 1" },
	{ "string 1025", RAW("\x01\x02\x01\x01\x01x\x04\x01"),
	  "value of type 1" },
	{ "string newline", RAW("\x01\x02\x01\x01\x01x\x00\x01\n"),
	  "value of type 1" },
	{ "string NUL", RAW("\x01\x02\x01\x01\x01x\x00\x01\x00"),
	  "value of type 1" },
	{ "duplicate name", RAW("\x01\x02\x02\x03\x01x\x01\x03\x01x\x00"),
	  "'x' appears twice" },
	{ "second field missing", RAW("\x01\x02\x02\x03\x01x\x01"),
	  "field 2" },
	{ "trailing byte", RAW("\x01\x02\x01\x03\x01x\x01\x00"),
	  "trailing data" },
	{ "other version", RAW("\x07\x02\x01\x03\x01x\x01"), "version 7" },
	{ "type request", RAW("\x01\x01\x01\x03\x01x\x01"), "type 1" },
};

START_TEST(record_decode_refused)
{
	struct ctlp_record rec;
	char err[256] = "";
	uint8_t *copy;
	int rc;

	copy = malloc(rec_bad[_i].len);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, rec_bad[_i].bytes, rec_bad[_i].len);
	rc = ctlp_record_decode(copy, rec_bad[_i].len, &rec, err, sizeof(err));
	free(copy);
	ck_assert_msg(rc != 0, "%s accepted", rec_bad[_i].what);
	ck_assert_msg(strstr(err, rec_bad[_i].err) != NULL, "%s: '%s'",
	    rec_bad[_i].what, err);
	ck_assert_uint_eq(rec.n, 0);
}
END_TEST

START_TEST(end_roundtrip)
{
	struct ctlp_end e, d;
	uint8_t buf[CTLP_END_MAX];
	char err[256];
	size_t n;

	memset(&e, 0, sizeof(e));
	e.status = CTLP_OK;
	e.records = 4096;
	ck_assert_int_eq(ctlp_end_encode(buf, sizeof(buf), &e, &n, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(ctlp_end_decode(buf, n, &d, err, sizeof(err)), 0);
	ck_assert_int_eq(d.status, CTLP_OK);
	ck_assert_uint_eq(d.records, 4096);
	ck_assert_str_eq(d.msg, "");

	memset(&e, 0, sizeof(e));
	e.status = 200;		/* a code this version does not know */
	memset(e.msg, '~', CTLP_ERR_MAX);
	ck_assert_int_eq(ctlp_end_encode(buf, sizeof(buf), &e, &n, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(n, CTLP_END_MAX);
	ck_assert_int_eq(ctlp_end_decode(buf, n, &d, err, sizeof(err)), 0);
	ck_assert_int_eq(d.status, 200);
	ck_assert_uint_eq(strlen(d.msg), CTLP_ERR_MAX);
	ck_assert_str_eq(ctlp_status_str(200), "error");
	ck_assert_str_eq(ctlp_status_str(CTLP_E_PERM), "permission denied");
}
END_TEST

static const struct {
	const char *what;
	uint8_t status;
	uint32_t records;
	const char *msg;
	const char *err;
} end_bad_enc[] = {
	{ "success with a message", CTLP_OK, 0, "hm", "success with a" },
	{ "error without a message", CTLP_E_FAILED, 0, "", "without a" },
	{ "error after records", CTLP_E_FAILED, 3, "x", "after records" },
	{ "control character", CTLP_E_FAILED, 0, "a\nb", "not printable" },
};

START_TEST(end_encode_refused)
{
	struct ctlp_end e;
	uint8_t buf[CTLP_END_MAX];
	char err[256] = "";
	size_t n;

	memset(&e, 0, sizeof(e));
	e.status = end_bad_enc[_i].status;
	e.records = end_bad_enc[_i].records;
	snprintf(e.msg, sizeof(e.msg), "%s", end_bad_enc[_i].msg);
	ck_assert_int_eq(ctlp_end_encode(buf, sizeof(buf), &e, &n, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, end_bad_enc[_i].err) != NULL, "%s: '%s'",
	    end_bad_enc[_i].what, err);
}
END_TEST

static const struct {
	const char *what;
	const char *bytes;
	size_t len;
	const char *err;
} end_bad[] = {
	{ "header only", RAW("\x01\x03"), "truncated" },
	{ "records cut", RAW("\x01\x03\x00\x00\x00"), "truncated" },
	{ "message length missing", RAW("\x01\x03\x00\x00\x00\x00\x00"),
	  "truncated" },
	{ "message past the end", RAW("\x01\x03\x08\x00\x00\x00\x00\x03" "ab"),
	  "truncated" },
	{ "success with a message", RAW("\x01\x03\x00\x00\x00\x00\x00\x01" "a"),
	  "success with a message" },
	{ "error without a message", RAW("\x01\x03\x08\x00\x00\x00\x00\x00"),
	  "error without" },
	{ "error with records", RAW("\x01\x03\x08\x00\x00\x00\x01\x01" "a"),
	  "error after records" },
	{ "message newline", RAW("\x01\x03\x08\x00\x00\x00\x00\x01\n"),
	  "not printable" },
	{ "trailing byte", RAW("\x01\x03\x00\x00\x00\x00\x00\x00\x00"),
	  "trailing data" },
	{ "other version", RAW("\x02\x03\x00\x00\x00\x00\x00\x00"),
	  "version 2" },
	{ "type record", RAW("\x01\x02\x00\x00\x00\x00\x00\x00"), "type 2" },
};

START_TEST(end_decode_refused)
{
	struct ctlp_end e;
	char err[256] = "";
	uint8_t *copy;
	int rc;

	copy = malloc(end_bad[_i].len);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, end_bad[_i].bytes, end_bad[_i].len);
	rc = ctlp_end_decode(copy, end_bad[_i].len, &e, err, sizeof(err));
	free(copy);
	ck_assert_msg(rc != 0, "%s accepted", end_bad[_i].what);
	ck_assert_msg(strstr(err, end_bad[_i].err) != NULL, "%s: '%s'",
	    end_bad[_i].what, err);
}
END_TEST

/* The address form of ping's argument. */
START_TEST(mac_parse)
{
	static const uint8_t want[6] = { 0x02, 0xab, 0xcd, 0xef, 0x00, 0x9f };
	static const char *const bad[] = { "", "02:ab:cd:ef:00",
	    "02:ab:cd:ef:00:9", "02:ab:cd:ef:00:9f:", "02-ab-cd-ef-00-9f",
	    "02:ab:cd:ef:00:9g", " 2:ab:cd:ef:00:9f", "02:ab:cd:ef:00:9f0",
	    "0x:ab:cd:ef:00:9f" };
	uint8_t mac[6];
	size_t i;

	ck_assert_int_eq(ctlp_mac_parse("02:ab:cd:ef:00:9f", mac), 0);
	ck_assert_mem_eq(mac, want, 6);
	memset(mac, 0, sizeof(mac));
	ck_assert_int_eq(ctlp_mac_parse("02:AB:Cd:eF:00:9F", mac), 0);
	ck_assert_mem_eq(mac, want, 6);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ctlp_mac_parse(bad[i], mac) == -1, "took '%s'",
		    bad[i]);
	ck_assert_int_eq(ctlp_mac_parse(NULL, mac), -1);
}
END_TEST

START_TEST(header_and_names)
{
	uint8_t type = 0;
	char err[128];

	ck_assert_int_eq(ctlp_header((const uint8_t *)"\x01\x03", 2, &type,
	    err, sizeof(err)), 0);
	ck_assert_int_eq(type, CTLP_T_END);
	ck_assert_int_eq(ctlp_header((const uint8_t *)"\x01", 1, &type, err,
	    sizeof(err)), CTLP_E_PROTO);
	ck_assert(ctlp_cmd_name_ok("trust-add", 9));
	ck_assert(!ctlp_cmd_name_ok("trust_add", 9));
	ck_assert(ctlp_field_name_ok("last_seen_ms", 12));
	ck_assert(!ctlp_field_name_ok("last-seen", 9));
	ck_assert(!ctlp_field_name_ok("_x", 2));
	ck_assert(ctlp_printable(" ~", 2));
	ck_assert(!ctlp_printable("\x1f", 1));
}
END_TEST

/* ---- reply builder and dispatch (no sockets) ---------------------------- */

/* Dispatch raw bytes; the reply is checked for the expected status. */
static void
dispatch_raw(const uint8_t *buf, size_t len, struct ctl_reply *r)
{
	ctl_reply_init(r, 0, NULL, now_ms);
	control_dispatch(fake_cmds, &fake, buf, len, r);
	ck_assert(ctl_reply_ended(r));
}

static void
dispatch(const char *name, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	uint8_t buf[CTLP_MSG_MAX];

	dispatch_raw(buf, req(buf, name, argc, argv), r);
}

/* The END of an ended reply, and how many records came before it. */
static size_t
reply_end(const struct ctl_reply *r, struct ctlp_end *e)
{
	const uint8_t *msg;
	size_t len, pos = 0, records = 0;
	char err[256];

	while (ctl_reply_next(r, &pos, &msg, &len) == 0) {
		ck_assert_uint_le(len, CTLP_MSG_MAX);
		if (msg[1] == CTLP_T_END) {
			ck_assert_msg(ctlp_end_decode(msg, len, e, err,
			    sizeof(err)) == 0, "%s", err);
			ck_assert_int_eq(ctl_reply_next(r, &pos, &msg, &len),
			    -1);
			return records;
		}
		records++;
	}
	ck_abort_msg("reply without END");
	return 0;
}

/* The first record of a reply. */
static void
reply_first(const struct ctl_reply *r, struct ctlp_record *rec)
{
	const uint8_t *msg;
	size_t len, pos = 0;
	char err[256];

	ck_assert_int_eq(ctl_reply_next(r, &pos, &msg, &len), 0);
	ck_assert_msg(ctlp_record_decode(msg, len, rec, err, sizeof(err)) == 0,
	    "%s", err);
}

START_TEST(dispatch_builtins)
{
	struct ctl_reply r;
	struct ctlp_record rec;
	struct ctlp_end e;

	dispatch("status", 0, NULL, &r);
	ck_assert_uint_eq(reply_end(&r, &e), 1);
	ck_assert_int_eq(e.status, CTLP_OK);
	ck_assert_uint_eq(e.records, 1);
	reply_first(&r, &rec);
	ck_assert_str_eq(rec.f[0].name, "version");
	ck_assert_int_eq(memcmp(rec.f[0].str, BATSEC_VERSION,
	    rec.f[0].str_len), 0);
	ck_assert_uint_eq(rec.f[0].str_len, strlen(BATSEC_VERSION));
	ck_assert_str_eq(rec.f[1].name, "protocol");
	ck_assert(rec.f[1].u64 == CTLP_VERSION);
	ctl_reply_free(&r);

	ctl_reply_init(&r, 0, NULL, now_ms);
	control_dispatch(NULL, NULL, (const uint8_t *)"\x01\x01\x07version\x00",
	    11, &r);
	reply_first(&r, &rec);
	ck_assert_uint_eq(rec.f[0].str_len, strlen(BATSEC_VERSION));
	ck_assert_str_eq(rec.f[1].name, "protocol");
	ctl_reply_free(&r);
}
END_TEST

static const struct control_cmd version_override[] = {
	{ "version", 0, 0, h_version },
	{ NULL, 0, 0, NULL }
};

START_TEST(dispatch_override)
{
	struct ctl_reply r;
	struct ctlp_record rec;
	uint8_t buf[CTLP_MSG_MAX];

	ctl_reply_init(&r, 0, NULL, now_ms);
	control_dispatch(version_override, NULL, buf, req(buf, "version", 0,
	    NULL), &r);
	reply_first(&r, &rec);
	ck_assert_int_eq(memcmp(rec.f[0].str, "mine", 4), 0);
	ctl_reply_free(&r);
}
END_TEST

/* Requests that the dispatcher answers with an error. */
static const struct {
	const char *name;
	size_t argc;
	const char *argv[CTLP_ARGS_MAX];
	int status;
	const char *msg;
} disp_err[] = {
	{ "nope", 0, { NULL }, CTLP_E_UNKNOWN, "unknown command 'nope'" },
	{ "status", 1, { "x" }, CTLP_E_USAGE,
	  "status: takes 0 arguments, got 1" },
	{ "block", 0, { NULL }, CTLP_E_USAGE,
	  "block: takes 1 argument, got 0" },
	{ "two", 1, { "a" }, CTLP_E_USAGE, "two: takes 2 arguments, got 1" },
	{ "trust-add", 5, { "k", "name", "n", "gateway", "x" }, CTLP_E_USAGE,
	  "trust-add: takes 1 to 4 arguments, got 5" },
	{ "no-end", 0, { NULL }, CTLP_E_INTERNAL,
	  "no-end: the command gave no reply" },
	{ "err-after", 0, { NULL }, CTLP_E_FAILED, "bad?thing?" },
	{ "dup", 0, { NULL }, CTLP_E_INTERNAL, "'x' appears twice" },
	{ "outside", 0, { NULL }, CTLP_E_INTERNAL, "outside a record" },
	{ "bad-name", 0, { NULL }, CTLP_E_INTERNAL, "'Bad-Name' is invalid" },
	{ "many", 0, { NULL }, CTLP_E_INTERNAL, "'f64' is invalid" },
	{ "huge", 0, { NULL }, CTLP_E_TOOBIG, "reply larger than" },
};

START_TEST(dispatch_errors)
{
	struct ctl_reply r;
	struct ctlp_end e;

	dispatch(disp_err[_i].name, disp_err[_i].argc, disp_err[_i].argv, &r);
	ck_assert_uint_eq(reply_end(&r, &e), 0);
	ck_assert_int_eq(ctl_reply_status(&r), disp_err[_i].status);
	ck_assert_int_eq(e.status, disp_err[_i].status);
	ck_assert_uint_eq(e.records, 0);
	ck_assert_msg(strstr(e.msg, disp_err[_i].msg) != NULL, "%s: '%s'",
	    disp_err[_i].name, e.msg);
	ctl_reply_free(&r);
}
END_TEST

/* Every malformed request gets an error reply with the decoder's status. */
START_TEST(dispatch_malformed)
{
	struct ctl_reply r;
	struct ctlp_end e;
	uint8_t *copy;

	copy = malloc(raw_bad[_i].len ? raw_bad[_i].len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, raw_bad[_i].bytes, raw_bad[_i].len);
	dispatch_raw(copy, raw_bad[_i].len, &r);
	free(copy);
	ck_assert_uint_eq(reply_end(&r, &e), 0);
	ck_assert_int_eq(e.status, raw_bad[_i].status);
	ck_assert_ptr_nonnull(strstr(e.msg, raw_bad[_i].err));
	ck_assert_uint_eq(fake.calls, 0);
	ctl_reply_free(&r);
}
END_TEST

START_TEST(dispatch_passes_arguments)
{
	const char *argv[CTLP_ARGS_MAX] = { "1", "two", " ~", arg512, "5",
	    "6", "7", "8" };
	struct ctl_reply r;
	struct ctlp_record rec;
	struct ctlp_end e;
	size_t i;

	memset(&fake, 0, sizeof(fake));
	dispatch("echo", CTLP_ARGS_MAX, argv, &r);
	ck_assert_uint_eq(reply_end(&r, &e), 1);
	ck_assert_int_eq(e.status, CTLP_OK);
	ck_assert_uint_eq(fake.calls, 1);
	ck_assert_uint_eq(fake.argc, CTLP_ARGS_MAX);
	for (i = 0; i < CTLP_ARGS_MAX; i++)
		ck_assert_str_eq(fake.argv[i], argv[i]);
	reply_first(&r, &rec);
	ck_assert_uint_eq(rec.n, CTLP_ARGS_MAX + 1);
	ctl_reply_free(&r);

	dispatch("echo", 0, NULL, &r);
	ck_assert_uint_eq(fake.argc, 0);
	ctl_reply_free(&r);
}
END_TEST

START_TEST(builder_sanitizes_and_bounds)
{
	struct ctl_reply r;
	struct ctlp_record rec;
	struct ctlp_end e;
	size_t i, records;

	dispatch("controls", 0, NULL, &r);
	reply_first(&r, &rec);
	ck_assert_uint_eq(rec.f[0].str_len, 9);
	ck_assert_int_eq(memcmp(rec.f[0].str, "a?b?c?d??", 9), 0);
	ctl_reply_free(&r);

	/* A small maximum: records that fit, then a clean error. */
	ctl_reply_init(&r, 100, NULL, now_ms);
	for (i = 0; i < 10; i++) {
		ctl_reply_record_begin(&r);
		ctl_reply_field_u64(&r, "n", i);
	}
	ctl_reply_ok(&r);
	ck_assert_uint_eq(reply_end(&r, &e), 0);
	ck_assert_int_eq(e.status, CTLP_E_TOOBIG);
	ck_assert_ptr_nonnull(strstr(e.msg, "larger than 100 bytes"));
	ctl_reply_free(&r);

	ctl_reply_init(&r, 100, NULL, now_ms);
	for (i = 0; i < 5; i++) {
		ctl_reply_record_begin(&r);
		ctl_reply_field_u64(&r, "n", i);
	}
	ctl_reply_ok(&r);
	records = reply_end(&r, &e);
	ck_assert_int_eq(e.status, CTLP_OK);
	ck_assert_uint_eq(records, 5);
	ck_assert_uint_eq(e.records, 5);
	/* Calls after the end change nothing. */
	ctl_reply_record_begin(&r);
	ctl_reply_field_u64(&r, "late", 1);
	ctl_reply_error(&r, CTLP_E_FAILED, "late");
	ck_assert_uint_eq(reply_end(&r, &e), 5);
	ck_assert_int_eq(e.status, CTLP_OK);
	ctl_reply_free(&r);

	/* An error with status 0 or an empty message is still an error. */
	ctl_reply_init(&r, 0, NULL, now_ms);
	ctl_reply_error(&r, CTLP_OK, "%s", "");
	ck_assert_uint_eq(reply_end(&r, &e), 0);
	ck_assert_int_eq(e.status, CTLP_E_INTERNAL);
	ck_assert_str_eq(e.msg, "internal error");
	ctl_reply_free(&r);
}
END_TEST

START_TEST(cred_rules)
{
	static const gid_t groups[] = { 10, 20, 30 };

	ck_assert(control_cred_ok(0, 99, NULL, 0, 1000, 0, 0));
	ck_assert(control_cred_ok(1000, 99, NULL, 0, 1000, 0, 0));
	ck_assert(!control_cred_ok(1001, 99, NULL, 0, 1000, 0, 0));
	/* No group: its number means nothing. */
	ck_assert(!control_cred_ok(1001, 20, groups, 3, 1000, 0, 20));
	ck_assert(control_cred_ok(1001, 20, NULL, 0, 1000, 1, 20));
	ck_assert(control_cred_ok(1001, 99, groups, 3, 1000, 1, 30));
	ck_assert(control_cred_ok(1001, 99, groups, 3, 1000, 1, 10));
	ck_assert(!control_cred_ok(1001, 99, groups, 3, 1000, 1, 40));
	ck_assert(!control_cred_ok(1001, 99, groups, 2, 1000, 1, 30));
}
END_TEST

/* ---- the server ---------------------------------------------------------- */

static struct control *
srv_open_opts(struct control_opts *o)
{
	struct control *c;
	char err[512] = "";

	o->path = o->path != NULL ? o->path : spath;
	o->cmds = o->cmds != NULL ? o->cmds : fake_cmds;
	o->ctx = &fake;
	c = control_open(o, now_ms, err, sizeof(err));
	ck_assert_msg(c != NULL, "control_open: %s", err);
	return c;
}

static struct control *
srv_open(void)
{
	struct control_opts o = { .group = "" };

	return srv_open_opts(&o);
}

static int
cli_connect(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	ck_assert_msg(connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0,
	    "connect %s: %s", path, strerror(errno));
	return fd;
}

static void
cli_send_raw(int fd, const void *buf, size_t len)
{
	ck_assert_int_eq(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

static void
cli_send(int fd, const char *name, size_t argc, const char *const argv[])
{
	uint8_t buf[CTLP_MSG_MAX];

	cli_send_raw(fd, buf, req(buf, name, argc, argv));
}

typedef void rec_check_fn(const struct ctlp_record *rec, size_t i);

struct got {
	size_t records;
	int have_end;
	int eof;
	struct ctlp_end end;
	struct ctlp_record first;
	uint8_t first_buf[CTLP_MSG_MAX];
};

/* Take one message off fd; 1 when the reply (or the connection) ended. */
static int
got_msg(int fd, struct got *g, rec_check_fn *check, int *again)
{
	static uint8_t buf[CTLP_MSG_MAX + 1];
	struct ctlp_record rec;
	char err[256];
	ssize_t n;

	n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		*again = 1;
		return 0;
	}
	ck_assert_msg(n >= 0, "recv: %s", strerror(errno));
	if (n == 0) {
		g->eof = 1;
		return 1;
	}
	ck_assert_int_ge(n, 2);
	if (buf[1] == CTLP_T_END) {
		ck_assert_msg(ctlp_end_decode(buf, (size_t)n, &g->end, err,
		    sizeof(err)) == 0, "%s", err);
		g->have_end = 1;
		return 1;
	}
	ck_assert_msg(ctlp_record_decode(buf, (size_t)n, &rec, err,
	    sizeof(err)) == 0, "%s", err);
	if (g->records == 0) {
		memcpy(g->first_buf, buf, (size_t)n);
		ck_assert_int_eq(ctlp_record_decode(g->first_buf, (size_t)n,
		    &g->first, err, sizeof(err)), 0);
	}
	if (check != NULL)
		check(&rec, g->records);
	g->records++;
	return 0;
}

/* Turn the server until fd has a whole reply (or EOF). */
static void
pump_check(struct control *c, int fd, struct got *g, rec_check_fn *check)
{
	long iter;
	int again;

	memset(g, 0, sizeof(*g));
	for (iter = 0; iter < 1000000; iter++) {
		control_run(c, now_ms);
		again = 0;
		while (!again)
			if (got_msg(fd, g, check, &again))
				return;
	}
	ck_abort_msg("no complete reply");
}

static void
pump(struct control *c, int fd, struct got *g)
{
	pump_check(c, fd, g, NULL);
}

/* One request and its reply on a fresh connection. */
static void
ask(struct control *c, const char *name, size_t argc,
    const char *const argv[], struct got *g)
{
	int fd = cli_connect(spath);

	cli_send(fd, name, argc, argv);
	pump(c, fd, g);
	close(fd);
}

START_TEST(server_socket_file)
{
	struct control_opts o = { .group = "" };
	struct control *c;
	struct stat st;

	c = srv_open_opts(&o);
	ck_assert_int_eq(lstat(spath, &st), 0);
	ck_assert(S_ISSOCK(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_uint_eq(st.st_uid, geteuid());
	control_close(c);
	ck_assert_int_eq(lstat(spath, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(server_socket_group)
{
	struct control_opts o = { 0 };
	struct control *c;
	struct group *gr = getgrgid(NOBODY);
	struct stat st;
	char sub[160], path[200];

	ck_assert_ptr_nonnull(gr);
	o.group = gr->gr_name;
	/* The parent directory does not exist yet. */
	snprintf(sub, sizeof(sub), "%s/run", tdir);
	snprintf(path, sizeof(path), "%s/batsecd.sock", sub);
	o.path = path;
	c = srv_open_opts(&o);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0660);
	ck_assert_uint_eq(st.st_gid, NOBODY);
	ck_assert_int_eq(lstat(sub, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, CONTROL_DIR_MODE);
	ck_assert_uint_eq(st.st_gid, NOBODY);
	control_close(c);
}
END_TEST

START_TEST(server_missing_group_is_root_only)
{
	struct control_opts o = { .group = "no-such-group-batsec" };
	struct control *c;
	struct stat st;

	c = srv_open_opts(&o);
	ck_assert_int_eq(lstat(spath, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	control_close(c);
}
END_TEST

START_TEST(server_stale_socket_removed)
{
	struct sockaddr_un sun;
	struct control *c;
	struct got g;
	int fd;

	/* A socket file left by a crashed daemon: bound, nobody listens. */
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", spath);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	close(fd);
	c = srv_open();
	ask(c, "status", 0, NULL, &g);
	ck_assert(g.have_end);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	control_close(c);
}
END_TEST

START_TEST(server_refuses_second_daemon)
{
	struct control_opts o = { .path = spath, .group = "", .cmds = fake_cmds };
	struct control *c, *c2;
	struct got g;
	char err[512] = "";

	c = srv_open();
	c2 = control_open(&o, now_ms, err, sizeof(err));
	ck_assert_ptr_null(c2);
	ck_assert_msg(strstr(err, "another batsecd is listening") != NULL,
	    "%s", err);
	ck_assert_ptr_nonnull(strstr(err, spath));
	/* The first one still serves. */
	ask(c, "status", 0, NULL, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	control_close(c);
}
END_TEST

static void
open_fails(const char *path, const struct control_cmd *cmds, const char *want)
{
	struct control_opts o = { .path = path, .group = "", .cmds = cmds };
	char err[512] = "";

	ck_assert_ptr_null(control_open(&o, now_ms, err, sizeof(err)));
	ck_assert_msg(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
}

static const struct control_cmd bad_table[] = {
	{ "Bad", 0, 0, h_echo },
	{ NULL, 0, 0, NULL }
};

static const struct control_cmd bad_table2[] = {
	{ "ok", 3, 2, h_echo },
	{ NULL, 0, 0, NULL }
};

START_TEST(server_open_errors)
{
	char path[300], file[200];
	struct stat st;
	int fd;

	/* Not a socket: left alone. */
	fd = open(spath, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "keep", 4), 4);
	close(fd);
	open_fails(spath, NULL, "exists and is not a socket");
	ck_assert_int_eq(stat(spath, &st), 0);
	ck_assert_int_eq(st.st_size, 4);
	/* The parent is a file. */
	snprintf(path, sizeof(path), "%s/sock", spath);
	open_fails(path, NULL, "is not a directory");
	/* The grandparent is missing: only the parent is created. */
	snprintf(file, sizeof(file), "%s/a/b/sock", tdir);
	open_fails(file, NULL, "cannot create directory");
	memset(path, 'x', sizeof(path));
	path[108] = '\0';
	open_fails(path, NULL, "longer than 107");
	open_fails("", NULL, "empty");
	unlink(spath);
	open_fails(spath, bad_table, "bad command table entry 'Bad'");
	open_fails(spath, bad_table2, "bad command table entry 'ok'");
}
END_TEST

START_TEST(server_version_and_status)
{
	struct control_opts o = { .group = "",
	    .status_extra = h_status_extra };
	struct control *c;
	struct got g;

	c = srv_open_opts(&o);
	now_ms += 1500;
	ask(c, "version", 0, NULL, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	ck_assert_uint_eq(g.records, 1);
	ck_assert_str_eq(g.first.f[0].name, "version");

	ask(c, "status", 0, NULL, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	ck_assert_uint_eq(g.end.records, 1);
	ck_assert_uint_eq(g.first.n, 5);
	ck_assert_str_eq(g.first.f[2].name, "uptime_ms");
	ck_assert(g.first.f[2].u64 == 1500);
	ck_assert_str_eq(g.first.f[3].name, "clients");
	ck_assert(g.first.f[3].u64 == 1);
	ck_assert_str_eq(g.first.f[4].name, "parser_up");
	ck_assert(g.first.f[4].u64 == 1);
	ck_assert_uint_eq(control_counters(c)->requests, 2);
	ck_assert_uint_eq(control_counters(c)->accepted, 2);
	control_close(c);
}
END_TEST

/* One connection: errors, then a good request on the same connection. */
START_TEST(server_keeps_serving)
{
	static uint8_t big[CTLP_MSG_MAX + 100];
	struct control *c;
	struct got g;
	int fd, i;

	c = srv_open();
	fd = cli_connect(spath);
	cli_send(fd, "nope", 0, NULL);
	pump(c, fd, &g);
	ck_assert_int_eq(g.end.status, CTLP_E_UNKNOWN);
	ck_assert_str_eq(g.end.msg, "unknown command 'nope'");

	/* Oversize: read truncated, answered, connection kept. */
	memset(big, 'a', sizeof(big));
	big[0] = CTLP_VERSION;
	big[1] = CTLP_T_REQUEST;
	cli_send_raw(fd, big, sizeof(big));
	pump(c, fd, &g);
	ck_assert_int_eq(g.end.status, CTLP_E_PROTO);
	ck_assert_str_eq(g.end.msg, "request longer than 8192 bytes");

	/* Truncated and garbage requests. */
	for (i = 1; i < N_RAW_BAD; i++) {
		cli_send_raw(fd, raw_bad[i].bytes, raw_bad[i].len);
		pump(c, fd, &g);
		ck_assert_msg(g.have_end, "%s: no reply", raw_bad[i].what);
		ck_assert_int_eq(g.end.status, raw_bad[i].status);
	}
	cli_send(fd, "status", 0, NULL);
	pump(c, fd, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	ck_assert_uint_eq(g.records, 1);
	ck_assert_uint_eq(control_clients(c), 1);
	ck_assert_uint_eq(control_counters(c)->errors, (uint64_t)N_RAW_BAD + 1);
	close(fd);
	control_close(c);
}
END_TEST

START_TEST(server_client_limit)
{
	struct control_opts o = { .group = "", .clients_max = 3 };
	struct control *c;
	struct got g;
	int fd[4], extra, i;

	c = srv_open_opts(&o);
	for (i = 0; i < 3; i++)
		fd[i] = cli_connect(spath);
	control_run(c, now_ms);
	ck_assert_uint_eq(control_clients(c), 3);
	/* The fourth gets one END and is disconnected. */
	fd[3] = cli_connect(spath);
	pump(c, fd[3], &g);
	ck_assert(g.have_end);
	ck_assert_int_eq(g.end.status, CTLP_E_BUSY);
	ck_assert_ptr_nonnull(strstr(g.end.msg, "too many control clients"));
	pump(c, fd[3], &g);
	ck_assert(g.eof);
	ck_assert_uint_eq(control_counters(c)->refused_busy, 1);
	/* The three still work. */
	for (i = 0; i < 3; i++) {
		cli_send(fd[i], "status", 0, NULL);
		pump(c, fd[i], &g);
		ck_assert_int_eq(g.end.status, CTLP_OK);
	}
	/* A slot frees when a client leaves. */
	close(fd[0]);
	control_run(c, now_ms);
	ck_assert_uint_eq(control_clients(c), 2);
	extra = cli_connect(spath);
	cli_send(extra, "status", 0, NULL);
	pump(c, extra, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	close(extra);
	for (i = 1; i < 4; i++)
		close(fd[i]);
	control_close(c);
}
END_TEST

START_TEST(server_idle_timeout)
{
	struct control_opts o = { .group = "", .idle_ms = 5000 };
	struct control *c;
	struct got g;
	int fd;

	c = srv_open_opts(&o);
	ck_assert_int_eq(control_timeout(c, now_ms), -1);
	fd = cli_connect(spath);
	control_run(c, now_ms);
	ck_assert_uint_eq(control_clients(c), 1);
	ck_assert_int_eq(control_timeout(c, now_ms), 5000);
	ck_assert_int_eq(control_timeout(c, now_ms + 4000), 1000);
	control_expire(c, now_ms + 4999);
	ck_assert_uint_eq(control_clients(c), 1);
	/* A request resets the clock. */
	now_ms += 4000;
	cli_send(fd, "status", 0, NULL);
	pump(c, fd, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	control_expire(c, now_ms + 4999);
	ck_assert_uint_eq(control_clients(c), 1);
	ck_assert_int_eq(control_timeout(c, now_ms + 6000), 0);
	control_run(c, now_ms + 5000);
	ck_assert_uint_eq(control_clients(c), 0);
	ck_assert_uint_eq(control_counters(c)->timeouts, 1);
	pump(c, fd, &g);
	ck_assert(g.eof);
	close(fd);
	control_close(c);
}
END_TEST

static void
check_orig(const struct ctlp_record *rec, size_t i)
{
	char addr[32];

	ck_assert_uint_eq(rec->n, 7);
	snprintf(addr, sizeof(addr), "02:00:00:00:%02zx:%02zx", i >> 8,
	    i & 0xff);
	ck_assert_str_eq(rec->f[0].name, "address");
	ck_assert_int_eq(memcmp(rec->f[0].str, addr, 17), 0);
	ck_assert_str_eq(rec->f[5].name, "last_seen_ms");
	ck_assert(rec->f[5].u64 == 240 + i * 1000);
}

START_TEST(server_large_reply)
{
	struct control *c;
	struct got g;
	int fd;

	memset(&fake, 0, sizeof(fake));
	fake.n_orig = BIG_TABLE;
	c = srv_open();
	fd = cli_connect(spath);
	cli_send(fd, "originators", 0, NULL);
	pump_check(c, fd, &g, check_orig);
	ck_assert(g.have_end);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	ck_assert_uint_eq(g.records, BIG_TABLE);
	ck_assert_uint_eq(g.end.records, BIG_TABLE);
	/* And again on the same connection. */
	cli_send(fd, "originators", 0, NULL);
	pump_check(c, fd, &g, check_orig);
	ck_assert_uint_eq(g.records, BIG_TABLE);
	close(fd);
	control_close(c);
}
END_TEST

START_TEST(server_reply_too_large)
{
	struct control *c;
	struct got g;

	c = srv_open();
	ask(c, "huge", 0, NULL, &g);
	ck_assert_uint_eq(g.records, 0);
	ck_assert_int_eq(g.end.status, CTLP_E_TOOBIG);
	control_close(c);
}
END_TEST

/* A client that leaves in the middle of a large reply. */
START_TEST(server_client_leaves_mid_reply)
{
	uint8_t buf[CTLP_MSG_MAX + 1];
	struct control *c;
	struct got g;
	int fd, i, got = 0;

	memset(&fake, 0, sizeof(fake));
	fake.n_orig = BIG_TABLE;
	c = srv_open();
	fd = cli_connect(spath);
	cli_send(fd, "originators", 0, NULL);
	for (i = 0; i < 1000 && got < 10; i++) {
		control_run(c, now_ms);
		while (got < 10 && recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			got++;
	}
	ck_assert_int_eq(got, 10);
	ck_assert_uint_eq(control_clients(c), 1);
	close(fd);
	for (i = 0; i < 10 && control_clients(c) > 0; i++)
		control_run(c, now_ms);
	ck_assert_uint_eq(control_clients(c), 0);
	ask(c, "status", 0, NULL, &g);
	ck_assert_int_eq(g.end.status, CTLP_OK);
	control_close(c);
}
END_TEST

/* control_close removes only the socket it made. */
START_TEST(server_close_keeps_foreign_file)
{
	struct control *c;
	struct stat st;
	int fd;

	c = srv_open();
	ck_assert_int_eq(unlink(spath), 0);
	fd = open(spath, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	control_close(c);
	ck_assert_int_eq(lstat(spath, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
}
END_TEST

/* recv as batsec-ctl does it: past one ECONNRESET of a hang-up. */
static ssize_t
child_recv(int fd, uint8_t *buf)
{
	ssize_t n = recv(fd, buf, CTLP_MSG_MAX + 1, 0);

	if (n < 0 && errno == ECONNRESET)
		n = recv(fd, buf, CTLP_MSG_MAX + 1, 0);
	return n;
}

/*
 * A child with the given credentials connects and asks for status; its
 * exit code is the END status (or 100+ for a failure of its own).
 */
static int
child_status(struct control *c, uid_t uid, gid_t gid, const gid_t *groups,
    size_t ngroups)
{
	struct timeval tv = { 60, 0 };
	struct sockaddr_un sun;
	struct ctlp_end e;
	uint8_t buf[CTLP_MSG_MAX + 1];
	struct pollfd p;
	ssize_t n;
	pid_t pid;
	int fd, st;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (setgroups(ngroups, groups) != 0 || setgid(gid) != 0 ||
		    setuid(uid) != 0)
			_exit(100);
		fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", spath);
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0)
			_exit(101);
		n = (ssize_t)req(buf, "status", 0, NULL);
		(void)send(fd, buf, (size_t)n, MSG_NOSIGNAL);
		while ((n = child_recv(fd, buf)) > 1 &&
		    buf[1] == CTLP_T_RECORD)
			;
		if (n <= 0 || ctlp_end_decode(buf, (size_t)n, &e, NULL, 0))
			_exit(102);
		/* After a refusal the daemon hangs up. */
		if (e.status != CTLP_OK && child_recv(fd, buf) != 0)
			_exit(103);
		_exit(e.status);
	}
	for (;;) {
		p.fd = control_fd(c);
		p.events = POLLIN;
		(void)poll(&p, 1, 100);
		control_run(c, now_ms);
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
	}
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

START_TEST(server_refuses_outsider)
{
	struct control_opts o = { .group = "root" };
	struct control *c;

	if (geteuid() != 0) {
		fprintf(stderr, "server_refuses_outsider: needs root\n");
		return;
	}
	c = srv_open_opts(&o);
	/* Let anyone reach the socket: the credential check must refuse. */
	ck_assert_int_eq(chmod(tdir, 0755), 0);
	ck_assert_int_eq(chmod(spath, 0666), 0);
	ck_assert_int_eq(child_status(c, NOBODY, NOBODY, NULL, 0),
	    CTLP_E_PERM);
	ck_assert_uint_eq(control_counters(c)->refused_perm, 1);
	ck_assert_uint_eq(control_counters(c)->accepted, 0);
	ck_assert_uint_eq(control_clients(c), 0);
	/* Root is served. */
	ck_assert_int_eq(child_status(c, 0, 0, NULL, 0), CTLP_OK);
	control_close(c);
}
END_TEST

/* Members of the control group: by primary or supplementary group. */
static const struct {
	gid_t gid;
	gid_t groups[2];
	size_t ngroups;
	int want;
} member_cases[] = {
	{ NOBODY, { 0 }, 0, CTLP_OK },		/* primary group */
	{ 4242, { 4243, NOBODY }, 2, CTLP_OK },	/* supplementary */
	{ 4242, { 4243 }, 1, CTLP_E_PERM },	/* neither */
};

START_TEST(server_group_members)
{
	struct control_opts o = { 0 };
	struct control *c;
	struct group *gr;

	if (geteuid() != 0) {
		fprintf(stderr, "server_group_members: needs root\n");
		return;
	}
	gr = getgrgid(NOBODY);
	ck_assert_ptr_nonnull(gr);
	o.group = gr->gr_name;
	c = srv_open_opts(&o);
	/* The socket keeps its 0660 root:group: only the directory opens. */
	ck_assert_int_eq(chmod(tdir, 0755), 0);
	if (member_cases[_i].want != CTLP_OK)
		ck_assert_int_eq(chmod(spath, 0666), 0);
	ck_assert_int_eq(child_status(c, NOBODY, member_cases[_i].gid,
	    member_cases[_i].groups, member_cases[_i].ngroups),
	    member_cases[_i].want);
	control_close(c);
}
END_TEST

/* ---- batsec-ctl against the server -------------------------------------- */

static char ctl_path[512];

static void
ctl_find(void)
{
	const char *b = getenv("B");

	snprintf(ctl_path, sizeof(ctl_path), "%s/batsec-ctl",
	    b != NULL && *b != '\0' ? b : "build");
	ck_assert_msg(access(ctl_path, X_OK) == 0, "%s is not built (run from "
	    "the top directory, B= the build directory)", ctl_path);
}

struct ctl_run {
	int rc;
	char *out;
	char *err;
};

/*
 * Run batsec-ctl -s SOCKET args... while the server c turns (NULL: no
 * server).
 */
static void
run_ctl(struct control *c, struct ctl_run *r, const char *const *args)
{
	static char abuf[16][CTLP_ARG_MAX + 1], dash_s[] = "-s";
	char *argv[20], out[200], err[200];
	struct pollfd p;
	pid_t pid;
	int i, st, ofd, efd;

	ctl_find();
	snprintf(out, sizeof(out), "%s/out", tdir);
	snprintf(err, sizeof(err), "%s/err", tdir);
	argv[0] = ctl_path;
	argv[1] = dash_s;
	argv[2] = spath;
	for (i = 0; args[i] != NULL && i < 16; i++) {
		snprintf(abuf[i], sizeof(abuf[i]), "%s", args[i]);
		argv[3 + i] = abuf[i];
	}
	argv[3 + i] = NULL;
	ofd = open(out, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	efd = open(err, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	ck_assert(ofd >= 0 && efd >= 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(ofd, 1);
		dup2(efd, 2);
		close(0);
		(void)open("/dev/null", O_RDONLY);
		execv(ctl_path, argv);
		_exit(127);
	}
	close(ofd);
	close(efd);
	while (c == NULL) {
		if (waitpid(pid, &st, 0) == pid)
			break;
	}
	while (c != NULL) {
		p.fd = control_fd(c);
		p.events = POLLIN;
		(void)poll(&p, 1, 100);
		control_run(c, now_ms);
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
	}
	ck_assert_msg(WIFEXITED(st), "batsec-ctl died: status %d", st);
	r->rc = WEXITSTATUS(st);
	r->out = t_slurp(out, NULL);
	r->err = t_slurp(err, NULL);
}

static void
run_free(struct ctl_run *r)
{
	free(r->out);
	free(r->err);
}

/* Success: exit 0, nothing on stderr. */
static void
run_ok(struct control *c, struct ctl_run *r, const char *const *args)
{
	run_ctl(c, r, args);
	ck_assert_msg(r->rc == 0 && r->err[0] == '\0', "%s: exit %d: %s",
	    args[0], r->rc, r->err);
}

/* Failure: exit rc, nothing on stdout, one line "batsec-ctl: ...want..." */
static void
run_fails(struct control *c, int rc, const char *want,
    const char *const *args)
{
	struct ctl_run r;
	char *nl;

	run_ctl(c, &r, args);
	ck_assert_msg(r.rc == rc, "%s: exit %d, want %d (%s)", args[0], r.rc,
	    rc, r.err);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(strncmp(r.err, "batsec-ctl: ", 12) == 0, "%s", r.err);
	nl = strchr(r.err, '\n');
	ck_assert_msg(nl != NULL && nl[1] == '\0', "not one line: %s", r.err);
	ck_assert_msg(strstr(r.err, want) != NULL, "'%s' lacks '%s'", r.err,
	    want);
	run_free(&r);
}

/* A minimal JSON checker: 1 when s is exactly one valid JSON value. */
static const char *json_value(const char *p, int depth);

static const char *
json_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *
json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				if (strspn(p + 1, "0123456789abcdefABCDEF") < 4)
					return NULL;
				p += 4;
			} else if (strchr("\"\\/bfnrt", *p) == NULL ||
			    *p == '\0') {
				return NULL;
			}
		}
	}
	return p + 1;
}

static const char *
json_list(const char *p, char close, int depth, int members)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (members) {
			if ((p = json_string(json_ws(p))) == NULL)
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if ((p = json_value(p, depth + 1)) == NULL)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *
json_value(const char *p, int depth)
{
	size_t n;

	if (depth > 32)
		return NULL;
	p = json_ws(p);
	if (*p == '{')
		return json_list(p, '}', depth, 1);
	if (*p == '[')
		return json_list(p, ']', depth, 0);
	if (*p == '"')
		return json_string(p);
	if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
		return p + 4;
	if (strncmp(p, "false", 5) == 0)
		return p + 5;
	n = strspn(p + (*p == '-'), "0123456789");
	return n > 0 ? p + (*p == '-') + n : NULL;
}

static int
json_ok(const char *s)
{
	const char *p = json_value(s, 0);

	return p != NULL && *json_ws(p) == '\0';
}

START_TEST(json_checker)
{
	ck_assert(json_ok("[]\n"));
	ck_assert(json_ok("{\"a\":[1,true,false,null,\"x\\\"\\u0041\"],\"b\":{}}"));
	ck_assert(!json_ok("[1,]"));
	ck_assert(!json_ok("{\"a\"1}"));
	ck_assert(!json_ok("{\"a\":1}}"));
	ck_assert(!json_ok("[\"a\nb\"]"));
	ck_assert(!json_ok("["));
}
END_TEST

START_TEST(ctl_originators_table)
{
	static const char *const args[] = { "originators", NULL };
	static const char want[] =
	    "   Originator         last-seen   TQ  Nexthop            Interface\n"
	    "*  02:00:00:00:00:00     0.240s  255  02:00:00:00:01:00  mesh0\n"
	    "   02:00:00:00:00:01     1.240s  225  02:00:00:00:01:01  mesh0\n"
	    "*  02:00:00:00:00:02     2.240s  195  02:00:00:00:01:00  mesh0\n";
	struct control *c;
	struct ctl_run r;

	memset(&fake, 0, sizeof(fake));
	fake.n_orig = 3;
	c = srv_open();
	run_ok(c, &r, args);
	ck_assert_str_eq(r.out, want);
	run_free(&r);
	/* The alias and an empty table: only the header. */
	fake.n_orig = 0;
	run_ok(c, &r, (const char *const[]){ "o", NULL });
	ck_assert_str_eq(r.out, "  Originator  last-seen  TQ  Nexthop  "
	    "Interface\n");
	run_free(&r);
	control_close(c);
}
END_TEST

START_TEST(ctl_originators_json)
{
	char key[BS_KEY_B64_LEN + 1], want[512];
	uint8_t pk[32];
	struct control *c;
	struct ctl_run r;

	memset(&fake, 0, sizeof(fake));
	fake.n_orig = 3;
	c = srv_open();
	run_ok(c, &r, (const char *const[]){ "-j", "originators", NULL });
	ck_assert_msg(json_ok(r.out), "not JSON: %s", r.out);
	ck_assert_int_eq(r.out[0], '[');
	ck_assert_uint_eq(t_count(r.out, "{"), 3);
	fake_pk(pk, 1);
	bs_key_to_b64(key, pk);
	snprintf(want, sizeof(want), "{\"address\":\"02:00:00:00:00:01\","
	    "\"key\":\"%s\",\"next_hop\":\"02:00:00:00:01:01\",\"tq\":225,"
	    "\"interface\":\"mesh0\",\"last_seen_ms\":1240,\"best\":false}",
	    key);
	ck_assert_msg(strstr(r.out, want) != NULL, "%s lacks %s", r.out, want);
	run_free(&r);
	/* -j after the command works too; an empty table is []. */
	fake.n_orig = 0;
	run_ok(c, &r, (const char *const[]){ "o", "-j", NULL });
	ck_assert_str_eq(r.out, "[]\n");
	run_free(&r);
	control_close(c);
}
END_TEST

START_TEST(ctl_neighbors)
{
	static const char want[] =
	    "IF         Neighbor           last-seen  link TQ\n"
	    "mesh0      02:00:00:00:00:0a     0.100s      200\n"
	    "wlan-long  02:00:00:00:00:0b    12.100s      201\n";
	struct control *c;
	struct ctl_run r;

	c = srv_open();
	run_ok(c, &r, (const char *const[]){ "n", NULL });
	ck_assert_str_eq(r.out, want);
	run_free(&r);
	run_ok(c, &r, (const char *const[]){ "-j", "neighbors", NULL });
	ck_assert_msg(json_ok(r.out), "not JSON: %s", r.out);
	ck_assert_uint_eq(t_count(r.out, "\"address\":"), 2);
	ck_assert_uint_eq(t_count(r.out, "\"key\":"), 2);
	ck_assert_ptr_nonnull(strstr(r.out, "\"interface\":\"wlan-long\","
	    "\"link_tq\":201,\"last_seen_ms\":12100}"));
	run_free(&r);
	control_close(c);
}
END_TEST

START_TEST(ctl_stats_and_status)
{
	struct control *c;
	struct ctl_run r;
	int split;

	c = srv_open();
	for (split = 0; split < 2; split++) {
		memset(&fake, 0, sizeof(fake));
		fake.stats_split = split;
		run_ok(c, &r, (const char *const[]){ "s", NULL });
		ck_assert_str_eq(r.out, "tx: 10\nrx: 20\nrx_dropped: 0\n");
		run_free(&r);
		run_ok(c, &r, (const char *const[]){ "-j", "stats", NULL });
		ck_assert_str_eq(r.out,
		    "{\"tx\":10,\"rx\":20,\"rx_dropped\":0}\n");
		run_free(&r);
	}
	run_ok(c, &r, (const char *const[]){ "status", NULL });
	ck_assert_ptr_nonnull(strstr(r.out, "version: " BATSEC_VERSION "\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "protocol: 1\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "clients: 1\n"));
	run_free(&r);
	run_ok(c, &r, (const char *const[]){ "-j", "status", NULL });
	ck_assert(json_ok(r.out));
	ck_assert_ptr_nonnull(strstr(r.out, "{\"version\":\"" BATSEC_VERSION
	    "\",\"protocol\":1,"));
	run_free(&r);
	/* trust list: an empty table. */
	run_ok(c, &r, (const char *const[]){ "trust", "list", NULL });
	ck_assert_str_eq(r.out, "Key  Address  Name  Gateway\n");
	run_free(&r);
	control_close(c);
}
END_TEST

START_TEST(ctl_big_table)
{
	struct control *c;
	struct ctl_run r;

	memset(&fake, 0, sizeof(fake));
	fake.n_orig = BIG_TABLE;
	c = srv_open();
	run_ok(c, &r, (const char *const[]){ "-j", "o", NULL });
	ck_assert(json_ok(r.out));
	ck_assert_uint_eq(t_count(r.out, "\"address\":"), BIG_TABLE);
	ck_assert_ptr_nonnull(strstr(r.out, "\"address\":\"02:00:00:00:0f:ff\""));
	run_free(&r);
	run_ok(c, &r, (const char *const[]){ "o", NULL });
	ck_assert_uint_eq(t_count(r.out, "\n"), BIG_TABLE + 1);
	run_free(&r);
	control_close(c);
}
END_TEST

START_TEST(ctl_changes_send_arguments)
{
	char keyfile[200], key[BS_KEY_B64_LEN + 1];
	struct bs_identity id;
	struct control *c;
	struct ctl_run r;
	FILE *f;

	ck_assert_int_eq(bs_crypto_init(), 0);
	t_ident(&id, 0x42);
	bs_key_to_b64(key, id.pk);
	snprintf(keyfile, sizeof(keyfile), "%s/node.pub", tdir);
	f = fopen(keyfile, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", key);
	fclose(f);
	memset(&fake, 0, sizeof(fake));
	c = srv_open();
	/* A key file is sent as its base64 text. */
	run_ok(c, &r, (const char *const[]){ "trust", "add", keyfile, "name",
	    "roof-1", "gateway", NULL });
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	ck_assert_uint_eq(fake.argc, 4);
	ck_assert_str_eq(fake.argv[0], key);
	ck_assert_str_eq(fake.argv[1], "name");
	ck_assert_str_eq(fake.argv[2], "roof-1");
	ck_assert_str_eq(fake.argv[3], "gateway");
	run_ok(c, &r, (const char *const[]){ "block", key, NULL });
	run_free(&r);
	ck_assert_uint_eq(fake.argc, 1);
	ck_assert_str_eq(fake.argv[0], key);
	run_ok(c, &r, (const char *const[]){ "reload", NULL });
	run_free(&r);
	ck_assert_uint_eq(fake.argc, 0);
	ck_assert_uint_eq(fake.calls, 3);
	/* The daemon's error: its message, exit 1. */
	fake.fail = 1;
	run_fails(c, 1, "key already listed", (const char *const[]){ "block",
	    key, NULL });
	control_close(c);
}
END_TEST

START_TEST(ctl_errors)
{
	struct control *c;

	c = srv_open();
	/* The fake daemon has no gateways command. */
	run_fails(c, 1, "batsec-ctl: unknown command 'gateways'\n",
	    (const char *const[]){ "gw", NULL });
	run_fails(c, 2, "block: missing argument",
	    (const char *const[]){ "block", NULL });
	run_fails(c, 2, "too many arguments",
	    (const char *const[]){ "o", "x", NULL });
	run_fails(c, 2, "trust: unknown command 'frob'",
	    (const char *const[]){ "trust", "frob", NULL });
	run_fails(c, 2, "missing subcommand",
	    (const char *const[]){ "trust", NULL });
	run_fails(c, 2, "unexpected argument 'admin'",
	    (const char *const[]){ "trust", "add",
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "admin", NULL });
	run_fails(c, 2, "bad name 'a b'", (const char *const[]){ "trust",
	    "add", "x", "name", "a b", NULL });
	run_fails(c, 1, "not a base64 public key",
	    (const char *const[]){ "block", "garbage", NULL });
	ck_assert_uint_eq(fake.calls, 0);
	control_close(c);
	/* Nothing listens any more. */
	run_fails(NULL, 1, "cannot connect to", (const char *const[]){
	    "status", NULL });
}
END_TEST

START_TEST(ctl_cannot_connect)
{
	char want[300];

	control_close(srv_open());
	snprintf(want, sizeof(want), "batsec-ctl: originators: needs the "
	    "batsecd control socket: cannot connect to %s: No such file or "
	    "directory\n", spath);
	run_fails(NULL, 1, want, (const char *const[]){ "o", NULL });
}
END_TEST

static Suite *
control_suite(void)
{
	Suite *s = suite_create("control");
	TCase *tc;

	tc = tcase_create("request");
	tcase_add_loop_test(tc, request_roundtrip, 0,
	    (int)(sizeof(req_ok) / sizeof(req_ok[0])));
	tcase_add_loop_test(tc, request_encode_refused, 0,
	    (int)(sizeof(req_bad) / sizeof(req_bad[0])));
	tcase_add_test(tc, request_encode_limits);
	tcase_add_loop_test(tc, request_decode_refused, 0, N_RAW_BAD);
	tcase_add_test(tc, request_decode_oversize);
	tcase_add_test(tc, header_and_names);
	tcase_add_test(tc, mac_parse);
	suite_add_tcase(s, tc);

	tc = tcase_create("record");
	tcase_add_test(tc, record_roundtrip);
	tcase_add_test(tc, record_writer_refuses);
	tcase_add_loop_test(tc, record_decode_refused, 0,
	    (int)(sizeof(rec_bad) / sizeof(rec_bad[0])));
	tcase_add_test(tc, end_roundtrip);
	tcase_add_loop_test(tc, end_encode_refused, 0,
	    (int)(sizeof(end_bad_enc) / sizeof(end_bad_enc[0])));
	tcase_add_loop_test(tc, end_decode_refused, 0,
	    (int)(sizeof(end_bad) / sizeof(end_bad[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("dispatch");
	tcase_add_test(tc, dispatch_builtins);
	tcase_add_test(tc, dispatch_override);
	tcase_add_loop_test(tc, dispatch_errors, 0,
	    (int)(sizeof(disp_err) / sizeof(disp_err[0])));
	tcase_add_loop_test(tc, dispatch_malformed, 0, N_RAW_BAD);
	tcase_add_test(tc, dispatch_passes_arguments);
	tcase_add_test(tc, builder_sanitizes_and_bounds);
	tcase_add_test(tc, cred_rules);
	suite_add_tcase(s, tc);

	tc = tcase_create("server");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, server_socket_file);
	tcase_add_test(tc, server_socket_group);
	tcase_add_test(tc, server_missing_group_is_root_only);
	tcase_add_test(tc, server_stale_socket_removed);
	tcase_add_test(tc, server_refuses_second_daemon);
	tcase_add_test(tc, server_open_errors);
	tcase_add_test(tc, server_version_and_status);
	tcase_add_test(tc, server_keeps_serving);
	tcase_add_test(tc, server_client_limit);
	tcase_add_test(tc, server_idle_timeout);
	tcase_add_test(tc, server_large_reply);
	tcase_add_test(tc, server_reply_too_large);
	tcase_add_test(tc, server_client_leaves_mid_reply);
	tcase_add_test(tc, server_close_keeps_foreign_file);
	tcase_add_test(tc, server_refuses_outsider);
	suite_add_tcase(s, tc);

	/* SO_PEERGROUPS, which qemu-user does not translate. */
	tc = tcase_create("server-groups");
	tcase_set_tags(tc, T_TAG_NATIVE);
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_loop_test(tc, server_group_members, 0,
	    (int)(sizeof(member_cases) / sizeof(member_cases[0])));
	suite_add_tcase(s, tc);

	/* Runs build/batsec-ctl: a program of the build's own architecture. */
	tc = tcase_create("batsec-ctl");
	tcase_set_tags(tc, T_TAG_NATIVE);
	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, json_checker);
	tcase_add_test(tc, ctl_originators_table);
	tcase_add_test(tc, ctl_originators_json);
	tcase_add_test(tc, ctl_neighbors);
	tcase_add_test(tc, ctl_stats_and_status);
	tcase_add_test(tc, ctl_big_table);
	tcase_add_test(tc, ctl_changes_send_arguments);
	tcase_add_test(tc, ctl_errors);
	tcase_add_test(tc, ctl_cannot_connect);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(control_suite());
}
