/*
 * fuzz_control.c — the control socket's request path as a hostile local
 * client drives it, and the reply decoders batsec-ctl uses.
 *
 * Input: one datagram, as control.c reads it from a client.
 *  1. control_dispatch() with a fake command table (below) decodes and
 *     runs it.  Oracles (abort on failure): the reply always ends; every
 *     message of it decodes with the client's decoders; the END counts
 *     the records sent, and an error reply sends none; a request that
 *     decodes encodes back to the same bytes.
 *  2. The same bytes go to ctlp_record_decode and ctlp_end_decode (what a
 *     client receives); what passes must encode back to the same bytes.
 *
 * The fake commands (gen_control.c writes seeds for each):
 *	echo [ARG...]	one record: argc and each argument as a string
 *	table N		N records (N decimal, capped) of mixed fields
 *	fail MSG	an error whose message is MSG
 *	noend		forgets to end its reply
 *	dup		a record with a duplicate field name
 * plus the built-ins status and version.  Replies are capped at
 * FUZZ_REPLY_MAX bytes so "table" reaches the too-large path.
 *  3. control_dispatch() with batsecd's real table (fwd_control_cmds)
 *     over a forwarder that has no tables, an empty policy and paths
 *     that do not exist: every argument check of the trust commands
 *     (trust-add/remove/list, block, unblock, revoke, revoke-record,
 *     anchors, policy-show, reload) runs for real; an edit that passes
 *     them fails writing the policy file, so no file is ever touched and
 *     the running policy must stay empty (checked); set, get and events
 *     run on the forwarder's settings (no parser to tell) and its event
 *     ring.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_policy.h"
#include "forwarder/control.h"
#include "proto/ctlproto.h"
#include "forwarder/fwd_control.h"
#include "forwarder/fwd_trust.h"
#include "forwarder/fwd_types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_REPLY_MAX	(64u << 10)
#define FUZZ_TABLE_MAX	2000

static void
fuzz_echo(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	char name[24];
	size_t i;

	(void)ctx;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "argc", argc);
	for (i = 0; i < argc; i++) {
		(void)snprintf(name, sizeof(name), "a%zu", i);
		ctl_reply_field_str(r, name, argv[i]);
	}
	ctl_reply_ok(r);
}

static void
fuzz_table(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	uint8_t addr[6] = { 0x02, 0, 0, 0, 0, 0 }, pk[32];
	size_t i, n = strtoul(argv[0], NULL, 10);

	(void)ctx;
	(void)argc;
	if (n > FUZZ_TABLE_MAX)
		n = FUZZ_TABLE_MAX;
	memset(pk, 0x33, sizeof(pk));
	for (i = 0; i < n; i++) {
		addr[5] = (uint8_t)i;
		pk[0] = (uint8_t)i;
		ctl_reply_record_begin(r);
		ctl_reply_field_addr(r, "address", addr);
		ctl_reply_field_key(r, "key", pk);
		ctl_reply_field_u64(r, "tq", i);
		ctl_reply_field_bool(r, "best", (int)(i & 1));
		ctl_reply_field_str(r, "interface", argv[0]);
	}
	ctl_reply_ok(r);
}

static void
fuzz_fail(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "x", 1);
	ctl_reply_error(r, CTLP_E_FAILED, "%s", argv[0]);
}

static void
fuzz_noend(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "x", 1);
}

static void
fuzz_dup(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	ctl_reply_record_begin(r);
	ctl_reply_field_u64(r, "x", 1);
	ctl_reply_field_bool(r, "x", 0);
	ctl_reply_ok(r);
}

static const struct control_cmd fuzz_cmds[] = {
	{ "echo", 0, CTLP_ARGS_MAX, fuzz_echo },
	{ "table", 1, 1, fuzz_table },
	{ "fail", 1, 1, fuzz_fail },
	{ "noend", 0, 0, fuzz_noend },
	{ "dup", 0, 0, fuzz_dup },
	{ NULL, 0, 0, NULL }
};

/* A request that decodes must encode back to exactly its bytes. */
static void
fuzz_request_roundtrip(const uint8_t *data, size_t size)
{
	static struct ctlp_request rq;
	static uint8_t out[CTLP_MSG_MAX];
	const char *argv[CTLP_ARGS_MAX];
	size_t i, n;

	if (ctlp_request_decode(data, size, &rq, NULL, 0) != 0)
		return;
	for (i = 0; i < rq.argc; i++)
		argv[i] = rq.arg[i];
	if (ctlp_request_encode(out, sizeof(out), rq.name, rq.argc, argv, &n,
	    NULL, 0) != 0 || n != size || memcmp(out, data, size) != 0)
		abort();
}

/* Walk the reply as a client would; abort on anything inconsistent. */
static void
fuzz_check_reply(const struct ctl_reply *r)
{
	static struct ctlp_record rec;
	struct ctlp_end e;
	const uint8_t *msg;
	size_t len, pos = 0, records = 0;

	if (!ctl_reply_ended(r))
		abort();
	while (ctl_reply_next(r, &pos, &msg, &len) == 0) {
		if (len > CTLP_MSG_MAX || len < CTLP_HDR_LEN)
			abort();
		if (msg[1] == CTLP_T_END) {
			if (ctlp_end_decode(msg, len, &e, NULL, 0) != 0 ||
			    e.records != records ||
			    e.status != ctl_reply_status(r) ||
			    ctl_reply_next(r, &pos, &msg, &len) == 0)
				abort();
			return;
		}
		if (ctlp_record_decode(msg, len, &rec, NULL, 0) != 0)
			abort();
		records++;
	}
	abort();
}

static void
fuzz_dispatch(const uint8_t *data, size_t size)
{
	static struct ctl_reply r;

	ctl_reply_init(&r, FUZZ_REPLY_MAX, NULL, 0);
	control_dispatch(fuzz_cmds, NULL, data, size, &r);
	fuzz_check_reply(&r);
	ctl_reply_free(&r);
}

/* A forwarder with nothing but an empty policy and unusable paths. */
static struct fwd *
fuzz_fwd(void)
{
	static struct fwd f;
	static int ready;

	if (ready)
		return &f;
	if (bs_crypto_init() != 0 || (f.policy = bs_policy_new()) == NULL)
		abort();
	snprintf(f.cfg.policy, sizeof(f.cfg.policy),
	    "/nonexistent/batsec-fuzz/policy");
	snprintf(f.cfg.state_dir, sizeof(f.cfg.state_dir),
	    "/nonexistent/batsec-fuzz");
	snprintf(f.cfg.key, sizeof(f.cfg.key), "/nonexistent/batsec-fuzz/key");
	f.parser.ipc.fd = -1;
	ready = 1;
	return &f;
}

static void
fuzz_dispatch_real(const uint8_t *data, size_t size)
{
	static struct ctl_reply r;
	struct fwd *f = fuzz_fwd();

	ctl_reply_init(&r, FUZZ_REPLY_MAX, NULL, 0);
	control_dispatch(fwd_control_cmds, f, data, size, &r);
	fuzz_check_reply(&r);
	ctl_reply_free(&r);
	/* Nothing could be written, so nothing may have changed. */
	if (f->policy->n_trust != 0 || f->policy->n_block != 0 ||
	    f->policy->n_revoke != 0 || f->policy_serial != 0)
		abort();
}

/* Re-encode a decoded record field by field. */
static void
fuzz_record_roundtrip(const uint8_t *data, size_t size)
{
	static struct ctlp_record rec;
	static uint8_t out[CTLP_MSG_MAX];
	const struct ctlp_field *f;
	struct ctlp_rec w;
	size_t i, n;
	int rc = 0;

	if (ctlp_record_decode(data, size, &rec, NULL, 0) != 0)
		return;
	ctlp_rec_begin(&w, out, sizeof(out));
	for (i = 0; i < rec.n; i++) {
		f = &rec.f[i];
		if (f->type == CTLP_F_STR)
			rc |= ctlp_rec_str(&w, f->name, f->str, f->str_len);
		else if (f->type == CTLP_F_U64)
			rc |= ctlp_rec_u64(&w, f->name, f->u64);
		else
			rc |= ctlp_rec_bool(&w, f->name, (int)f->u64);
	}
	if (rc != 0 || ctlp_rec_end(&w, &n) != 0 || n != size ||
	    memcmp(out, data, size) != 0)
		abort();
}

static void
fuzz_end_roundtrip(const uint8_t *data, size_t size)
{
	uint8_t out[CTLP_END_MAX];
	struct ctlp_end e;
	size_t n;

	if (ctlp_end_decode(data, size, &e, NULL, 0) != 0)
		return;
	if (ctlp_end_encode(out, sizeof(out), &e, &n, NULL, 0) != 0 ||
	    n != size || memcmp(out, data, size) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_request_roundtrip(data, size);
	fuzz_dispatch(data, size);
	fuzz_dispatch_real(data, size);
	fuzz_record_roundtrip(data, size);
	fuzz_end_roundtrip(data, size);
	return 0;
}
