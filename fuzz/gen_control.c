/*
 * gen_control.c — seed inputs for fuzz_control.c, built with the
 * project's own encoders (ctlproto.c), into the directory named by
 * argv[1]:
 *	gen_control fuzz/corpus/control
 * Each file is named by a hash of its content.  The harness is included
 * so every seed is also run through it once.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_control.c"
#include "lib/t_seed.h"

/* A request, and near misses: cut short, one byte more, version 2. */
static void
gen_request(const char *name, size_t argc, const char *const argv[])
{
	uint8_t buf[CTLP_MSG_MAX + 1];
	size_t n;

	if (ctlp_request_encode(buf, CTLP_MSG_MAX, name, argc, argv, &n,
	    NULL, 0) != 0) {
		fprintf(stderr, "gen_control: cannot encode %s\n", name);
		exit(1);
	}
	t_seed_write(buf, n);
	t_seed_write(buf, n - 1);
	buf[n] = 0;
	t_seed_write(buf, n + 1);
	buf[0] = CTLP_VERSION + 1;
	t_seed_write(buf, n);
}

static void
gen_record(void)
{
	uint8_t buf[CTLP_MSG_MAX];
	struct ctlp_rec w;
	size_t n;

	ctlp_rec_begin(&w, buf, sizeof(buf));
	(void)ctlp_rec_str(&w, "address", "02:00:00:00:00:01", 17);
	(void)ctlp_rec_u64(&w, "tq", 255);
	(void)ctlp_rec_bool(&w, "best", 1);
	if (ctlp_rec_end(&w, &n) != 0)
		exit(1);
	t_seed_write(buf, n);
}

static void
gen_end(uint8_t status, uint32_t records, const char *msg)
{
	uint8_t buf[CTLP_END_MAX];
	struct ctlp_end e;
	size_t n;

	memset(&e, 0, sizeof(e));
	e.status = status;
	e.records = records;
	(void)snprintf(e.msg, sizeof(e.msg), "%s", msg);
	if (ctlp_end_encode(buf, sizeof(buf), &e, &n, NULL, 0) != 0)
		exit(1);
	t_seed_write(buf, n);
}

int
main(int argc, char **argv)
{
	static const char key[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
	static const char *const trust[] = { key, "name", "roof-1",
	    "gateway" };
	static const char *const echo8[] = { "1", "2", "3", "4", "5", "6",
	    "7", " ~" };
	static const char *const n3[] = { "3" }, *const n999[] = { "999" };
	static const char *const msg[] = { "key already trusted" };
	static const char *const k1[] = { key };
	static const char *const bad[] = { "name", "x", "gateway", "gateway" };
	static const char *const hp[] = { "hop-penalty", "60" };
	static const char *const hpbad[] = { "hop-penalty", "256" };
	static const char *const gw[] = { "gateway", "server", "10mbit/2mbit" };
	static const char *const hname[] = { "hello-interval" };
	static const char *const cur0[] = { "0" };
	static const char *const rec[] = { "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "AAAAAAAAAAAAAAAAAAA=" };

	t_seed_main(argc, argv, "gen_control", T_SEED_BLAKE2B_64);
	t_seed_run(LLVMFuzzerTestOneInput);
	gen_request("status", 0, NULL);
	gen_request("version", 0, NULL);
	gen_request("echo", 0, NULL);
	gen_request("echo", 8, echo8);
	gen_request("echo", 4, trust);
	gen_request("table", 1, n3);
	gen_request("table", 1, n999);
	gen_request("fail", 1, msg);
	gen_request("noend", 0, NULL);
	gen_request("dup", 0, NULL);
	gen_request("trust-add", 4, trust);
	gen_request("status", 1, n3);
	gen_request("trust-list", 0, NULL);
	gen_request("trust-add", 1, k1);
	gen_request("trust-add", 4, bad);
	gen_request("trust-remove", 1, k1);
	gen_request("block", 1, k1);
	gen_request("unblock", 1, k1);
	gen_request("revoke", 1, k1);
	gen_request("revoke-record", 1, rec);
	gen_request("anchors", 0, NULL);
	gen_request("policy-show", 0, NULL);
	gen_request("reload", 0, NULL);
	gen_request("set", 2, hp);
	gen_request("set", 2, hpbad);
	gen_request("set", 3, gw);
	gen_request("get", 0, NULL);
	gen_request("get", 1, hname);
	gen_request("events", 0, NULL);
	gen_request("events", 1, cur0);
	gen_record();
	gen_end(CTLP_OK, 3, "");
	gen_end(CTLP_E_UNKNOWN, 0, "unknown command 'x'");
	return 0;
}
