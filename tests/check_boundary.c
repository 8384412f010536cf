/*
 * check_boundary.c — the privilege boundary between the parser and the
 * forwarder (batsecd(8), PRIVILEGE SEPARATION): what a compromised
 * parser can make the forwarder accept.
 *
 * A real forwarder (its channel, checks, policy gate, handlers, tables,
 * trust and pin state: forwarder_handlers) reads a socketpair whose other
 * end this program holds as a scripted parser; a forked child that only
 * waits stands for the parser process, so a kill is seen as its death by
 * SIGKILL.  Covered:
 *  - NEIGH UP, LINK_KEY_REQ, ROUTE_ADD (originator and next hop), TT, GW,
 *    RELAY (the relayed OGM's originator) and PIN for a key the policy blocks or does not admit: refused, the
 *    parser killed, nothing in the tables, no link key handed out,
 *    nothing queued for rebroadcast;
 *  - the same messages for admitted keys: accepted (a gateway only for a
 *    key with the gateway role; a pin only in mode open for a key with no
 *    entry);
 *  - mode ca: a key is admitted by a certificate only after IPC_CERT
 *    with a certificate the forwarder verifies itself; a forged one kills;
 *  - a refused IPC_REVOKE kills the parser (item 6);
 *  - a block, a trust removal and a CA revocation while the parser never
 *    reads: the key's neighbours, routes, clients, gateway and link keys
 *    leave the tables at once; so does a key whose certificate expired,
 *    at the next tick;
 *  - the race: a message the newest policy refuses, sent before the
 *    parser answered the heartbeat that followed that policy, is dropped
 *    and the parser kept; after the answer it kills;
 *  - the heartbeat: answered ones keep the parser, a silent parser is
 *    killed after FWD_HEARTBEAT_MISS intervals and respawned, an answer
 *    to a heartbeat never sent kills.
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_keys.h"
#include "batsec_policy.h"
#include "common/log.h"
#include "forwarder/control.h"
#include "forwarder/forwarder.h"
#include "forwarder/fwd_admit.h"
#include "forwarder/fwd_parser.h"
#include "forwarder/fwd_pins.h"
#include "forwarder/fwd_tables.h"
#include "forwarder/fwd_trust.h"
#include "forwarder/fwd_types.h"
#include "proto/ipc.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"

#define IFX	4
#define T0	1750000000ULL

enum { K_OWN, K_BLOCKED, K_TRUSTED, K_TRUSTED2, K_GATEWAY, K_UNKNOWN, K_CA,
    K_CERT, K_CERTGW, K_ROGUE, K_N };

static struct fwd f;
static struct bs_identity id[K_N];
static uint8_t addr[K_N][BS_ADDR_LEN];
static char b64[K_N][BS_KEY_B64_LEN + 1];
static char dir[64], path_pol[128];
static struct ipc peer;			/* the scripted parser's end */
static pid_t child;			/* stands for the parser process */

static uint64_t now_s = T0;	/* the forwarder's clock, unix seconds */

static uint64_t
clock_t0(void)
{
	return now_s;
}

/* ---- the forwarder and its scripted parser -------------------------------------- */

static void
write_policy(const char *mode)
{
	FILE *fp = fopen(path_pol, "w");

	ck_assert_ptr_nonnull(fp);
	fprintf(fp, "mode %s\n", mode);
	fprintf(fp, "anchor %s name ca\n", b64[K_CA]);
	fprintf(fp, "trust %s name blocked\n", b64[K_BLOCKED]);
	fprintf(fp, "trust %s name t1\n", b64[K_TRUSTED]);
	fprintf(fp, "trust %s name t2\n", b64[K_TRUSTED2]);
	fprintf(fp, "trust %s name gw gateway\n", b64[K_GATEWAY]);
	fprintf(fp, "block %s\n", b64[K_BLOCKED]);
	ck_assert_int_eq(fclose(fp), 0);
}

static void
start(const char *mode)
{
	char err[256];
	int sv[2], i;

	ck_assert_int_eq(bs_crypto_init(), 0);
	log_init(LOG_DEST_STDERR, getenv("T_DEBUG") ? LOG_DEBUG : LOG_ERR, "check_boundary");
	for (i = 0; i < K_N; i++) {
		t_ident_addr(&id[i], addr[i], (uint8_t)(0x30 + i));
		bs_key_to_b64(b64[i], id[i].pk);
	}
	memset(&f, 0, sizeof(f));
	f.id = id[K_OWN];
	memcpy(f.own_addr, addr[K_OWN], BS_ADDR_LEN);
	t_tmpdir(dir, sizeof(dir), "check_boundary");
	snprintf(path_pol, sizeof(path_pol), "%s/mesh.policy", dir);
	snprintf(f.cfg.policy, sizeof(f.cfg.policy), "%s", path_pol);
	snprintf(f.cfg.state_dir, sizeof(f.cfg.state_dir), "%s", dir);
	snprintf(f.cfg.key, sizeof(f.cfg.key), "%s/node.key", dir);
	write_policy(mode);
	ck_assert_msg(bs_policy_parse_file(path_pol, 0, &f.policy, err,
	    sizeof(err)) == 0, "%s", err);
	f.policy_serial = 1;
	f.tables = fwd_tables_new();
	ck_assert_ptr_nonnull(f.tables);
	fwd_parser_init(&f.parser, &f.id);
	forwarder_handlers(&f);
	fwd_admit_set_clock(&f, clock_t0);
	if ((child = fork()) == 0) {
		for (;;)
			pause();
	}
	ck_assert_int_gt(child, 0);
	ck_assert_int_eq(ipc_socketpair(sv), 0);
	ck_assert_msg(fwd_parser_attach(&f.parser, sv[0], child, f.own_addr,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(ipc_ctx_iface_add(&f.parser.ctx, IFX), 0);
	ck_assert_msg(ipc_init(&peer, sv[1], IPC_ROLE_PARSER, 0, err,
	    sizeof(err)) == 0, "%s", err);
}

static void
start_allowlist(void)
{
	start("allowlist");
}

static void
start_ca(void)
{
	start("ca");
}

static void
start_open(void)
{
	start("open");
}

static void
stop(void)
{
	int st;

	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &st, 0);
	}
	ipc_close(&peer);
	ipc_close(&f.parser.ipc);
	fwd_tables_free(f.tables);
	fwd_admit_stop(&f);
	fwd_trust_stop(&f);
	fwd_pins_forget(&f.pins);
	bs_policy_free(f.policy);
	t_rmtree(dir);
}

/* The scripted parser sends one message. */
static void
say(uint16_t type, const void *obj, size_t size)
{
	ck_assert_msg(ipc_send(&peer, type, obj, size) == 0, "%s",
	    ipc_error(&peer));
	ck_assert_int_eq(ipc_flush(&peer), 0);
}

/* The forwarder reads; a violation is handled as forwarder.c does. */
static enum fwd_chan_rc
pump(void)
{
	char why[256] = "";
	enum fwd_chan_rc rc = fwd_parser_read(&f.parser, why, sizeof(why));

	if (rc == FWD_CHAN_KILL)
		fwd_parser_kill(&f.parser, why);
	return rc;
}

/* The stand-in parser process died of SIGKILL, and a kill was counted. */
static void
assert_killed(void)
{
	int st;

	ck_assert_uint_eq(f.parser.c.kills, 1);
	ck_assert_int_eq(waitpid(child, &st, 0), child);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	child = 0;
	ck_assert(!fwd_parser_up(&f.parser));
}

static void
assert_alive(void)
{
	int st;

	ck_assert_uint_eq(f.parser.c.kills, 0);
	ck_assert_int_eq(waitpid(child, &st, WNOHANG), 0);
	ck_assert(fwd_parser_up(&f.parser));
}

static struct ipc_neigh
neigh(int k, uint8_t state)
{
	const uint8_t mac[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0x10, (uint8_t)k };

	return t_ipc_neigh((struct t_neigh){ .pk = id[k].pk, .addr = addr[k],
	    .mac = mac, .ifindex = IFX, .state = state, .tq = 200,
	    .rx_count = 60, .epoch = 1 });
}

/* k is an up neighbour, announced and accepted. */
static void
neigh_up(int k)
{
	struct ipc_neigh n = neigh(k, IPC_NEIGH_UP);

	say(IPC_NEIGH, &n, sizeof(n));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	ck_assert_ptr_nonnull(fwd_neigh_find(f.tables, addr[k], IFX));
}

/*
 * k is an up neighbour in the channel's check context only: the parser
 * announced it under an earlier policy (the tables no longer hold it).
 */
static void
neigh_in_ctx(int k)
{
	static struct ipc_msg m;
	static uint8_t buf[IPC_MAX_MSG];
	struct ipc_neigh n = neigh(k, IPC_NEIGH_UP);
	char err[256];
	size_t len = 0;

	ck_assert_int_eq(ipc_encode(buf, sizeof(buf), IPC_NEIGH, &n, sizeof(n),
	    &len, err, sizeof(err)), 0);
	ck_assert_int_eq(ipc_msg_parse(&m, buf, len, IPC_ROLE_FORWARDER, err,
	    sizeof(err)), 0);
	ipc_ctx_apply(&f.parser.ctx, &m);
	ck_assert_ptr_nonnull(ipc_ctx_neigh_find(&f.parser.ctx, addr[k], IFX));
}

static struct ipc_route
route(int orig, int via)
{
	return t_ipc_route((struct t_route){ .orig_pk = id[orig].pk,
	    .orig_addr = addr[orig], .nexthop = addr[via], .ifindex = IFX,
	    .tq = 150, .hops = 2, .epoch = 1 });
}

static struct ipc_tt
tt(int orig)
{
	struct ipc_tt m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr[orig], BS_ADDR_LEN);
	m.count = 1;
	memcpy(m.e[0].mac, (const uint8_t[]){ 0x02, 7, 7, 7, 7, (uint8_t)orig },
	    BS_ADDR_LEN);
	return m;
}

static struct ipc_gw
gw(int orig)
{
	struct ipc_gw m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, addr[orig], BS_ADDR_LEN);
	m.op = IPC_GW_ANNOUNCE;
	m.down = 1000;
	m.up = 100;
	return m;
}

/* A certificate for k by issuer, canonical bytes. */
static struct ipc_cert
cert(int k, int issuer, uint8_t roles)
{
	struct ipc_cert m;
	struct bs_cert c;

	ck_assert_int_eq(bs_cert_issue(&c, &id[issuer], id[k].pk, "node",
	    roles, T0 - 3600, T0 + 86400), 0);
	now_s = T0;
	bs_cert_encode(m.cert, &c);
	return m;
}

/* Nothing but heartbeats came back to the parser. */
static int
link_key_answered(void)
{
	static struct ipc_msg m;
	char err[256];

	while (ipc_recv(&peer, &m, err, sizeof(err)) == IPC_RECV_MSG)
		if (m.hdr.type == IPC_LINK_KEY)
			return 1;
	return 0;
}

/* Run a control handler (a trust edit) with one key argument. */
static void
ctl(control_handler_fn *fn, int k)
{
	static struct ctl_reply r;
	const char *argv[] = { b64[k], NULL };

	ctl_reply_init(&r, 0, NULL, 0);
	fn(&f, 1, argv, &r);
	ck_assert(ctl_reply_ended(&r));
}

/* ---- refused: the parser is killed and nothing is applied ------------------------ */

struct refusal {
	const char *what;
	const char *mode;
	void (*run)(void);	/* sends the message, after any set-up */
	void (*after)(void);	/* what must not be in the tables */
};

static void
r_neigh_blocked(void)
{
	struct ipc_neigh n = neigh(K_BLOCKED, IPC_NEIGH_UP);

	say(IPC_NEIGH, &n, sizeof(n));
}

static void
a_no_blocked_neigh(void)
{
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_BLOCKED], IFX));
}

static void
r_neigh_unknown(void)
{
	struct ipc_neigh n = neigh(K_UNKNOWN, IPC_NEIGH_UP);

	say(IPC_NEIGH, &n, sizeof(n));
}

static void
a_no_unknown_neigh(void)
{
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_UNKNOWN], IFX));
}

static void
r_link_key_blocked(void)
{
	struct ipc_link_key_req q;

	neigh_in_ctx(K_BLOCKED);
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id[K_BLOCKED].pk, BS_PK_LEN);
	q.ifindex = IFX;
	say(IPC_LINK_KEY_REQ, &q, sizeof(q));
}

static void
a_no_link_key(void)
{
	ck_assert_int_eq(link_key_answered(), 0);
}

static void
r_route_blocked_orig(void)
{
	struct ipc_route r = route(K_BLOCKED, K_TRUSTED);

	neigh_up(K_TRUSTED);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
r_route_blocked_nexthop(void)
{
	struct ipc_route r = route(K_TRUSTED2, K_BLOCKED);

	neigh_in_ctx(K_BLOCKED);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
r_route_unknown_orig(void)
{
	struct ipc_route r = route(K_UNKNOWN, K_TRUSTED);

	neigh_up(K_TRUSTED);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
}

static void
a_no_route(void)
{
	ck_assert_uint_eq(fwd_route_count(f.tables), 0);
}

static void
r_tt_blocked(void)
{
	struct ipc_tt m = tt(K_BLOCKED);

	say(IPC_TT, &m, sizeof(m));
}

static void
r_tt_unknown(void)
{
	struct ipc_tt m = tt(K_UNKNOWN);

	say(IPC_TT, &m, sizeof(m));
}

static void
a_no_client(void)
{
	ck_assert_uint_eq(fwd_client_count(f.tables), 0);
}

static void
r_gw_blocked(void)
{
	struct ipc_gw m = gw(K_BLOCKED);

	say(IPC_GW, &m, sizeof(m));
}

static void
r_gw_not_gateway(void)
{
	struct ipc_gw m = gw(K_TRUSTED);

	say(IPC_GW, &m, sizeof(m));
}

static void
r_gw_stranger(void)
{
	struct ipc_gw m = gw(K_UNKNOWN);

	say(IPC_GW, &m, sizeof(m));
}

static void
a_no_gw(void)
{
	ck_assert_uint_eq(fwd_gw_count(f.tables), 0);
}

static void
r_pin_allowlist(void)
{
	struct ipc_pin m;

	memcpy(m.pk, id[K_UNKNOWN].pk, BS_PK_LEN);
	say(IPC_PIN, &m, sizeof(m));
}

/* IPC_RELAY of orig's OGM, one hop on, as the parser hands it over. */
static void
say_relay(int orig)
{
	struct ipc_relay m;
	uint8_t seed[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN];

	memset(&m, 0, sizeof(m));
	bs_chain_new(seed, anchor);
	m.ifindex = IPC_IFINDEX_ALL;
	m.len = (uint16_t)t_ogm_raw(m.entry, sizeof(m.entry),
	    &(struct t_ogm_entry){ .orig = &id[orig], .epoch = 3, .seqno = 7,
	    .interval_ms = 1000, .chain_seed = seed, .ttl = 49, .tq = 225,
	    .hops = 1, .prev_sender = addr[orig] });
	say(IPC_RELAY, &m, sizeof(m));
}

static void
r_relay_blocked(void)
{
	say_relay(K_BLOCKED);
}

static void
r_relay_unknown(void)
{
	say_relay(K_UNKNOWN);
}

static void
a_no_relay(void)
{
	ck_assert_uint_eq(f.orig.rq.n, 0);
}

static void
r_pin_blocked(void)
{
	struct ipc_pin m;

	memcpy(m.pk, id[K_BLOCKED].pk, BS_PK_LEN);
	say(IPC_PIN, &m, sizeof(m));
}

static void
r_pin_trusted(void)
{
	struct ipc_pin m;

	memcpy(m.pk, id[K_TRUSTED].pk, BS_PK_LEN);
	say(IPC_PIN, &m, sizeof(m));
}

static void
a_no_pin(void)
{
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 0);
}

static void
r_neigh_cert_unsent(void)
{
	struct ipc_neigh n = neigh(K_CERT, IPC_NEIGH_UP);

	say(IPC_NEIGH, &n, sizeof(n));
}

static void
a_no_cert_neigh(void)
{
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_CERT], IFX));
}

static void
r_cert_forged(void)
{
	struct ipc_cert m = cert(K_CERT, K_CA, 0);
	struct ipc_neigh n = neigh(K_CERT, IPC_NEIGH_UP);

	m.cert[BS_CERT_LEN - 1] ^= 1;		/* the signature */
	say(IPC_CERT, &m, sizeof(m));
	say(IPC_NEIGH, &n, sizeof(n));
}

static void
r_cert_rogue(void)
{
	struct ipc_cert m = cert(K_CERT, K_ROGUE, 0);
	struct ipc_neigh n = neigh(K_CERT, IPC_NEIGH_UP);

	say(IPC_CERT, &m, sizeof(m));		/* signed, not by an anchor */
	say(IPC_NEIGH, &n, sizeof(n));
}

static void
r_gw_cert_no_role(void)
{
	struct ipc_cert m = cert(K_CERT, K_CA, 0);
	struct ipc_gw g = gw(K_CERT);

	say(IPC_CERT, &m, sizeof(m));
	say(IPC_GW, &g, sizeof(g));
}

static void
r_revoke_rogue(void)
{
	struct ipc_revoke m;
	struct bs_revoke r;

	ck_assert_int_eq(bs_revoke_issue(&r, &id[K_ROGUE], id[K_TRUSTED].pk,
	    T0), 0);
	bs_revoke_encode(m.rec, &r);
	say(IPC_REVOKE, &m, sizeof(m));
}

static void
r_revoke_bad_sig(void)
{
	struct ipc_revoke m;
	struct bs_revoke r;

	ck_assert_int_eq(bs_revoke_issue(&r, &id[K_CA], id[K_TRUSTED].pk,
	    T0), 0);
	bs_revoke_encode(m.rec, &r);
	m.rec[BS_REVOKE_LEN - 1] ^= 1;
	say(IPC_REVOKE, &m, sizeof(m));
}

static void
a_not_revoked(void)
{
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 0);
}

static const struct refusal refusals[] = {
	{ "NEIGH UP, blocked key", "allowlist", r_neigh_blocked,
	    a_no_blocked_neigh },
	{ "NEIGH UP, unknown key", "allowlist", r_neigh_unknown,
	    a_no_unknown_neigh },
	{ "NEIGH UP, unknown key", "ca", r_neigh_unknown, a_no_unknown_neigh },
	{ "NEIGH UP, blocked key", "open", r_neigh_blocked, a_no_blocked_neigh },
	{ "LINK_KEY_REQ, blocked key", "allowlist", r_link_key_blocked,
	    a_no_link_key },
	{ "ROUTE_ADD to a blocked key", "allowlist", r_route_blocked_orig,
	    a_no_route },
	{ "ROUTE_ADD to a blocked key", "open", r_route_blocked_orig,
	    a_no_route },
	{ "ROUTE_ADD through a blocked key", "allowlist",
	    r_route_blocked_nexthop, a_no_route },
	{ "ROUTE_ADD to an unknown key", "allowlist", r_route_unknown_orig,
	    a_no_route },
	{ "TT of a blocked key", "allowlist", r_tt_blocked, a_no_client },
	{ "TT of a blocked key", "open", r_tt_blocked, a_no_client },
	{ "TT of an unknown key", "ca", r_tt_unknown, a_no_client },
	{ "GW of a blocked key", "allowlist", r_gw_blocked, a_no_gw },
	{ "GW of a trusted key without gateway", "allowlist",
	    r_gw_not_gateway, a_no_gw },
	{ "GW of a stranger", "open", r_gw_stranger, a_no_gw },
	{ "RELAY of a blocked key", "allowlist", r_relay_blocked, a_no_relay },
	{ "RELAY of a blocked key", "open", r_relay_blocked, a_no_relay },
	{ "RELAY of an unknown key", "allowlist", r_relay_unknown, a_no_relay },
	{ "RELAY of an unknown key", "ca", r_relay_unknown, a_no_relay },
	{ "PIN in mode allowlist", "allowlist", r_pin_allowlist, a_no_pin },
	{ "PIN in mode ca", "ca", r_pin_allowlist, a_no_pin },
	{ "PIN of a blocked key", "open", r_pin_blocked, a_no_pin },
	{ "PIN of a trusted key", "open", r_pin_trusted, a_no_pin },
	{ "NEIGH UP, certificate never sent", "ca", r_neigh_cert_unsent,
	    a_no_cert_neigh },
	{ "CERT with a bad signature", "ca", r_cert_forged, a_no_cert_neigh },
	{ "NEIGH UP, certificate of a non-anchor", "ca", r_cert_rogue,
	    a_no_cert_neigh },
	{ "GW, certificate without the gateway role", "ca", r_gw_cert_no_role,
	    a_no_gw },
	{ "REVOKE by a non-anchor", "ca", r_revoke_rogue, a_not_revoked },
	{ "REVOKE with a bad signature", "ca", r_revoke_bad_sig,
	    a_not_revoked },
};
#define N_REFUSALS	(sizeof(refusals) / sizeof(refusals[0]))

START_TEST(test_refused)
{
	const struct refusal *t = &refusals[_i];

	start(t->mode);
	t->run();
	/* One read takes every message the script sent. */
	ck_assert_msg(pump() == FWD_CHAN_KILL, "%s (mode %s): not refused",
	    t->what, t->mode);
	assert_killed();
	t->after();
	stop();
}
END_TEST

/* ---- admitted: accepted, applied, the parser kept ------------------------------- */

START_TEST(test_admitted_allowlist)
{
	struct ipc_link_key_req q;
	struct ipc_route r;
	struct ipc_tt m;
	struct ipc_gw g;

	start_allowlist();
	neigh_up(K_TRUSTED);
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id[K_TRUSTED].pk, BS_PK_LEN);
	q.ifindex = IFX;
	say(IPC_LINK_KEY_REQ, &q, sizeof(q));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	ck_assert_int_eq(link_key_answered(), 1);
	r = route(K_GATEWAY, K_TRUSTED);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	m = tt(K_GATEWAY);
	say(IPC_TT, &m, sizeof(m));
	g = gw(K_GATEWAY);
	say(IPC_GW, &g, sizeof(g));
	say_relay(K_GATEWAY);
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	assert_alive();
	ck_assert_uint_eq(f.orig.rq.n, 1);
	ck_assert_ptr_nonnull(fwd_route_find(f.tables, addr[K_GATEWAY]));
	ck_assert_uint_eq(fwd_client_count(f.tables), 1);
	ck_assert_ptr_nonnull(fwd_gw_find(f.tables, addr[K_GATEWAY]));
	stop();
}
END_TEST

START_TEST(test_admitted_ca)
{
	struct ipc_cert c;
	struct ipc_route r;
	struct ipc_tt m;
	struct ipc_gw g;

	start_ca();
	c = cert(K_CERTGW, K_CA, BS_ROLE_GATEWAY);
	say(IPC_CERT, &c, sizeof(c));
	neigh_up(K_CERTGW);
	r = route(K_CERTGW, K_CERTGW);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	g = gw(K_CERTGW);
	say(IPC_GW, &g, sizeof(g));
	m = tt(K_CERTGW);
	say(IPC_TT, &m, sizeof(m));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	assert_alive();
	ck_assert_ptr_nonnull(fwd_route_find(f.tables, addr[K_CERTGW]));
	ck_assert_ptr_nonnull(fwd_gw_find(f.tables, addr[K_CERTGW]));
	ck_assert_uint_eq(fwd_client_count(f.tables), 1);
	stop();
}
END_TEST

START_TEST(test_admitted_open)
{
	struct ipc_pin p;
	struct ipc_route r;
	struct ipc_tt m;

	start_open();
	neigh_up(K_UNKNOWN);
	memcpy(p.pk, id[K_UNKNOWN].pk, BS_PK_LEN);
	say(IPC_PIN, &p, sizeof(p));
	r = route(K_UNKNOWN, K_UNKNOWN);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	m = tt(K_UNKNOWN);
	say(IPC_TT, &m, sizeof(m));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	assert_alive();
	ck_assert_uint_eq(fwd_pins_count(&f.pins), 1);
	ck_assert_ptr_nonnull(fwd_route_find(f.tables, addr[K_UNKNOWN]));
	ck_assert_uint_eq(fwd_client_count(f.tables), 1);
	stop();
}
END_TEST

/* ---- trust edits while the parser never reads -------------------------------------- */

/*
 * T and the gateway G are neighbours (T with a link key), each with a
 * route and clients, G with its gateway announcement, and T2 is reached
 * through T.
 */
static void
populate(void)
{
	struct ipc_link_key_req q;
	struct ipc_route r;
	struct ipc_tt m;
	struct ipc_gw g;

	neigh_up(K_TRUSTED);
	neigh_up(K_GATEWAY);
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id[K_TRUSTED].pk, BS_PK_LEN);
	q.ifindex = IFX;
	say(IPC_LINK_KEY_REQ, &q, sizeof(q));
	r = route(K_TRUSTED, K_TRUSTED);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	r = route(K_TRUSTED2, K_TRUSTED);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	r = route(K_GATEWAY, K_GATEWAY);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	m = tt(K_TRUSTED);
	say(IPC_TT, &m, sizeof(m));
	m = tt(K_GATEWAY);
	say(IPC_TT, &m, sizeof(m));
	g = gw(K_GATEWAY);
	say(IPC_GW, &g, sizeof(g));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	/* LINK_KEY_REQ passed the gate (pump() killed nobody); the key
	 * itself needs an interface with a salt, which this harness has
	 * not (fwd_links.c). */
	ck_assert_ptr_nonnull(fwd_neigh_find(f.tables, addr[K_TRUSTED], IFX));
	ck_assert_uint_eq(fwd_route_count(f.tables), 3);
	ck_assert_uint_eq(fwd_client_count(f.tables), 2);
	ck_assert_uint_eq(fwd_gw_count(f.tables), 1);
}

START_TEST(test_block_while_hung)
{
	start_allowlist();
	populate();
	/* From now on the parser reads nothing (hung). */
	ctl(fwd_trust_ctl_block, K_TRUSTED);
	ck_assert(bs_policy_is_blocked(f.policy, id[K_TRUSTED].pk));
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_TRUSTED], IFX));
	ck_assert_ptr_null(fwd_neigh_find_pk(f.tables, id[K_TRUSTED].pk,
	    IFX));
	/* Its own route and the route through it. */
	ck_assert_ptr_null(fwd_route_find(f.tables, addr[K_TRUSTED]));
	ck_assert_ptr_null(fwd_route_find(f.tables, addr[K_TRUSTED2]));
	ck_assert_uint_eq(fwd_client_count(f.tables), 1);
	/* The rest stays. */
	ck_assert_ptr_nonnull(fwd_neigh_find(f.tables, addr[K_GATEWAY], IFX));
	ck_assert_ptr_nonnull(fwd_route_find(f.tables, addr[K_GATEWAY]));
	ck_assert_ptr_nonnull(fwd_gw_find(f.tables, addr[K_GATEWAY]));
	stop();
}
END_TEST

START_TEST(test_remove_gateway_while_hung)
{
	start_allowlist();
	populate();
	ctl(fwd_trust_ctl_remove, K_GATEWAY);
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_GATEWAY], IFX));
	ck_assert_ptr_null(fwd_route_find(f.tables, addr[K_GATEWAY]));
	ck_assert_ptr_null(fwd_gw_find(f.tables, addr[K_GATEWAY]));
	ck_assert_uint_eq(fwd_client_count(f.tables), 1);
	ck_assert_ptr_nonnull(fwd_neigh_find(f.tables, addr[K_TRUSTED], IFX));
	stop();
}
END_TEST

START_TEST(test_ca_revocation_while_hung)
{
	char rec[CTLP_REVOKE_B64_LEN + 1];
	const char *argv[] = { rec, NULL };
	uint8_t raw[BS_REVOKE_LEN];
	static struct ctl_reply r;
	struct ipc_cert c;
	struct bs_revoke v;

	start_ca();
	c = cert(K_CERT, K_CA, 0);
	say(IPC_CERT, &c, sizeof(c));
	neigh_up(K_CERT);
	ck_assert_int_eq(bs_revoke_issue(&v, &id[K_CA], id[K_CERT].pk, T0),
	    0);
	bs_revoke_encode(raw, &v);
	ck_assert_int_eq(bs_b64_encode(rec, sizeof(rec), raw, sizeof(raw)),
	    CTLP_REVOKE_B64_LEN);
	ctl_reply_init(&r, 0, NULL, 0);
	fwd_trust_ctl_revoke_record(&f, 1, argv, &r);
	ck_assert_uint_eq(fwd_trust_rev_count(&f.trust), 1);
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_CERT], IFX));
	stop();
}
END_TEST

START_TEST(test_cert_expiry_removes)
{
	struct ipc_cert c;
	struct ipc_route r;

	start_ca();
	c = cert(K_CERT, K_CA, 0);
	say(IPC_CERT, &c, sizeof(c));
	neigh_up(K_CERT);
	r = route(K_CERT, K_CERT);
	say(IPC_ROUTE_ADD, &r, sizeof(r));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	/* Within the skew: kept; past it: gone at the next tick. */
	now_s = T0 + 86400 + BS_CERT_SKEW;
	fwd_admit_tick(&f, 1000);
	ck_assert_ptr_nonnull(fwd_neigh_find(f.tables, addr[K_CERT], IFX));
	now_s++;
	fwd_admit_tick(&f, 2000);
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_CERT], IFX));
	ck_assert_ptr_null(fwd_route_find(f.tables, addr[K_CERT]));
	assert_alive();
	stop();
}
END_TEST

/* ---- the policy race ----------------------------------------------------------------- */

START_TEST(test_race_before_and_after_answer)
{
	static struct ipc_msg m;
	struct ipc_neigh n;
	struct ipc_heartbeat hb;
	char err[256];
	uint32_t fence = 0;

	start_allowlist();
	n = neigh(K_TRUSTED, IPC_NEIGH_UP);
	ctl(fwd_trust_ctl_block, K_TRUSTED);
	/* Sent before the parser read the new policy: dropped, kept. */
	say(IPC_NEIGH, &n, sizeof(n));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	assert_alive();
	ck_assert_uint_eq(f.parser.c.refused, 1);
	ck_assert_ptr_null(fwd_neigh_find(f.tables, addr[K_TRUSTED], IFX));
	/* The parser reads the policy and answers the heartbeat after it. */
	while (ipc_recv(&peer, &m, err, sizeof(err)) == IPC_RECV_MSG)
		if (m.hdr.type == IPC_HEARTBEAT) {
			ck_assert_int_eq(ipc_get(&m, IPC_HEARTBEAT, &hb,
			    sizeof(hb)), 0);
			fence = hb.seq;
		}
	ck_assert_uint_gt(fence, 0);
	memset(&hb, 0, sizeof(hb));
	hb.seq = fence;
	say(IPC_HEARTBEAT_ACK, &hb, sizeof(hb));
	ck_assert_int_eq(pump(), FWD_CHAN_OK);
	ck_assert(fwd_parser_settled(&f.parser));
	/* Now the same message is a lie. */
	say(IPC_NEIGH, &n, sizeof(n));
	ck_assert_int_eq(pump(), FWD_CHAN_KILL);
	assert_killed();
	stop();
}
END_TEST

/* ---- the heartbeat --------------------------------------------------------------------- */

/* The seq of the last HEARTBEAT the parser got, 0: none. */
static uint32_t
last_heartbeat(void)
{
	static struct ipc_msg m;
	struct ipc_heartbeat hb;
	char err[256];
	uint32_t seq = 0;

	while (ipc_recv(&peer, &m, err, sizeof(err)) == IPC_RECV_MSG)
		if (m.hdr.type == IPC_HEARTBEAT &&
		    ipc_get(&m, IPC_HEARTBEAT, &hb, sizeof(hb)) == 0)
			seq = hb.seq;
	return seq;
}

static enum fwd_chan_rc
tick(uint64_t now)
{
	char why[256] = "";
	enum fwd_chan_rc rc = fwd_parser_tick(&f.parser, now, why,
	    sizeof(why));

	(void)fwd_parser_flush(&f.parser);
	if (rc == FWD_CHAN_KILL)
		fwd_parser_kill(&f.parser, why);
	return rc;
}

START_TEST(test_heartbeat_answered)
{
	struct ipc_heartbeat hb;
	uint64_t t = 100000;
	int i;

	start_allowlist();
	memset(&hb, 0, sizeof(hb));
	for (i = 0; i < 20; i++, t += FWD_HEARTBEAT_MS) {
		ck_assert_int_eq(tick(t), FWD_CHAN_OK);
		if ((hb.seq = last_heartbeat()) != 0) {
			say(IPC_HEARTBEAT_ACK, &hb, sizeof(hb));
			ck_assert_int_eq(pump(), FWD_CHAN_OK);
		}
	}
	ck_assert_uint_ge(f.parser.hb_acked, 9);
	assert_alive();
	ck_assert_uint_eq(f.parser.c.silent, 0);
	stop();
}
END_TEST

START_TEST(test_heartbeat_silent)
{
	uint64_t t = 100000, limit = (uint64_t)FWD_HEARTBEAT_MS *
	    FWD_HEARTBEAT_MISS;
	int st;

	start_allowlist();
	ck_assert_int_eq(tick(t), FWD_CHAN_OK);
	ck_assert_int_eq(tick(t + FWD_HEARTBEAT_MS), FWD_CHAN_OK);
	ck_assert_uint_eq(last_heartbeat(), 1);
	/* Never answered: kept until the bound, killed at it. */
	ck_assert_int_eq(tick(t + FWD_HEARTBEAT_MS + limit - 1), FWD_CHAN_OK);
	ck_assert_uint_eq(f.parser.c.silent, 0);
	ck_assert_int_eq(tick(t + FWD_HEARTBEAT_MS + limit), FWD_CHAN_KILL);
	ck_assert_uint_eq(f.parser.c.silent, 1);
	ck_assert_int_eq(waitpid(child, &st, 0), child);
	/* And respawned: its death schedules the next parser. */
	ck_assert_int_eq(fwd_parser_reaped(&f.parser, child, st,
	    t + FWD_HEARTBEAT_MS + limit), 1);
	child = 0;
	ck_assert(fwd_parser_respawn_due(&f.parser, t + FWD_HEARTBEAT_MS +
	    limit + FWD_RESPAWN_MAX_MS));
	ck_assert_uint_eq(f.parser.c.kills, 1);
	stop();
}
END_TEST

START_TEST(test_heartbeat_ack_never_sent)
{
	struct ipc_heartbeat hb;

	start_allowlist();
	memset(&hb, 0, sizeof(hb));
	hb.seq = 1;
	say(IPC_HEARTBEAT_ACK, &hb, sizeof(hb));
	ck_assert_int_eq(pump(), FWD_CHAN_KILL);
	assert_killed();
	stop();
}
END_TEST

static Suite *
boundary_suite(void)
{
	Suite *s = suite_create("boundary");
	TCase *tc = tcase_create("gate");

	tcase_add_loop_test(tc, test_refused, 0, (int)N_REFUSALS);
	tcase_add_test(tc, test_admitted_allowlist);
	tcase_add_test(tc, test_admitted_ca);
	tcase_add_test(tc, test_admitted_open);
	suite_add_tcase(s, tc);
	tc = tcase_create("removal");
	tcase_add_test(tc, test_block_while_hung);
	tcase_add_test(tc, test_remove_gateway_while_hung);
	tcase_add_test(tc, test_ca_revocation_while_hung);
	tcase_add_test(tc, test_cert_expiry_removes);
	tcase_add_test(tc, test_race_before_and_after_answer);
	suite_add_tcase(s, tc);
	tc = tcase_create("heartbeat");
	tcase_add_test(tc, test_heartbeat_answered);
	tcase_add_test(tc, test_heartbeat_silent);
	tcase_add_test(tc, test_heartbeat_ack_never_sent);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(boundary_suite());
}
