/*
 * check_pcore_trust.c — what the parser's core does with certificates,
 * pending keys and revocation records (pcore_trust.h), with a fake
 * real-time clock: which certificates admit a key, the validity window
 * with its clock skew, nodes without a clock, expiry, renewal and
 * downgrade, the gateway right, anchors that go, the pending set, and
 * revocation records from an anchor (and from anything else).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "batsec_policy.h"
#include "proto/ipc.h"
#include "parser/pcore.h"
#include "parser/pcore_trust.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

#define T0	1750000000ULL	/* 2025-06-15: "now" */
#define HOUR	3600ULL

static struct pcore pc;
static uint64_t fake_now;
static struct bs_identity ca, rogue, node, other;
static unsigned n_revoke_msgs, n_pin_msgs, fail_pins;
static uint8_t last_pin[BS_PK_LEN];

static uint64_t
fake_clock(void)
{
	return fake_now;
}

static int
emit(void *arg, uint16_t type, const void *obj, size_t n)
{
	(void)arg;
	if (type == IPC_REVOKE)
		n_revoke_msgs++;
	if (type == IPC_PIN && fail_pins > 0) {
		fail_pins--;
		return -1;	/* as when the channel's queue is full */
	}
	if (type == IPC_PIN) {
		ck_assert_uint_eq(n, sizeof(struct ipc_pin));
		memcpy(last_pin, obj, BS_PK_LEN);
		n_pin_msgs++;
	}
	return 0;
}

/* Replace the running policy with text, "@C" standing for the CA key and
 * "@R" for the rogue's. */
static void
use_policy(const char *in)
{
	char b64[BS_KEY_B64_LEN + 1], text[512], err[256];
	struct bs_policy *pol = NULL;
	size_t o = 0;

	while (*in != '\0' && o + BS_KEY_B64_LEN + 1 < sizeof(text)) {
		if (in[0] == '@' && (in[1] == 'C' || in[1] == 'R')) {
			bs_key_to_b64(b64, in[1] == 'C' ? ca.pk : rogue.pk);
			memcpy(text + o, b64, BS_KEY_B64_LEN);
			o += BS_KEY_B64_LEN;
			in += 2;
		} else {
			text[o++] = *in++;
		}
	}
	text[o] = '\0';
	ck_assert_msg(bs_policy_parse_buf(text, o, "t", NULL, 0, &pol, err,
	    sizeof(err)) == 0, "%s", err);
	bs_policy_free(pc.policy);
	pc.policy = pol;
}

static void
setup(void)
{
	ck_assert_int_eq(bs_crypto_init(), 0);
	t_ident(&ca, 1);
	t_ident(&rogue, 2);
	t_ident(&node, 3);
	t_ident(&other, 4);
	pcore_init(&pc, emit, NULL);
	pcore_trust_set_clock(&pc, fake_clock);
	fake_now = T0;
	n_revoke_msgs = 0;
	use_policy("mode ca\nanchor @C name ca\n");
}

static void
teardown(void)
{
	pcore_free(&pc);
}

/* A certificate for pk by issuer, valid [nb, na], in raw bytes. */
static void
make_cert(uint8_t raw[static BS_CERT_LEN], const struct bs_identity *issuer,
    const uint8_t pk[static BS_PK_LEN], uint8_t roles, uint64_t nb,
    uint64_t na)
{
	struct bs_cert c;

	ck_assert_int_eq(bs_cert_issue(&c, issuer, pk, "n1", roles, nb, na),
	    0);
	bs_cert_encode(raw, &c);
}

/* Offer raw for pk as a verified HELLO would. */
static int
give(const uint8_t pk[static BS_PK_LEN], const uint8_t *raw)
{
	struct pcore_cert_cand cand;

	if (!pcore_trust_precheck(&pc, pk, raw, &cand))
		return -2;
	return pcore_trust_accept(&pc, &cand);
}

START_TEST(test_cert_admits)
{
	uint8_t raw[BS_CERT_LEN];

	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	ck_assert_uint_eq(pc.stat[IPC_STAT_CERT_ACCEPTED], 1);
	/* The same bytes again: nothing new. */
	ck_assert_int_eq(give(node.pk, raw), 0);
	ck_assert_uint_eq(pc.stat[IPC_STAT_CERT_ACCEPTED], 1);
	/* Another key is not admitted by it. */
	ck_assert_int_eq(pcore_trust_class(&pc, other.pk), BS_CLASS_REFUSED);
}
END_TEST

/* Certificates the precheck refuses before any signature work. */
enum { R_OTHER_KEY, R_OTHER_CA, R_EXPIRED, R_NOT_YET, R_ALLOWLIST,
    R_ANCHOR_BLOCKED, R_ANCHOR_REVOKED, R_MALFORMED, R_NULL, R_KEY_BLOCKED,
    R_KEY_REVOKED, R_COUNT };

START_TEST(test_cert_prechecks)
{
	uint8_t raw[BS_CERT_LEN];
	const uint8_t *p = raw;
	char b64[BS_KEY_B64_LEN + 1], text[256];

	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	switch (_i) {
	case R_OTHER_KEY:
		make_cert(raw, &ca, other.pk, 0, T0 - HOUR, T0 + HOUR);
		break;
	case R_OTHER_CA:
		make_cert(raw, &rogue, node.pk, 0, T0 - HOUR, T0 + HOUR);
		break;
	case R_EXPIRED:
		make_cert(raw, &ca, node.pk, 0, T0 - 3 * HOUR, T0 - 2 * HOUR);
		break;
	case R_NOT_YET:
		make_cert(raw, &ca, node.pk, 0, T0 + HOUR, T0 + 2 * HOUR);
		break;
	case R_ALLOWLIST:
		use_policy("mode allowlist\nanchor @C\n");
		break;
	case R_ANCHOR_BLOCKED:
		use_policy("mode ca\nanchor @C\nblock @C\n");
		break;
	case R_ANCHOR_REVOKED:
		use_policy("mode ca\nanchor @C\nrevoke @C\n");
		break;
	case R_MALFORMED:
		raw[0] = 9;	/* format version */
		break;
	case R_NULL:
		p = NULL;
		break;
	case R_KEY_BLOCKED:
	case R_KEY_REVOKED:
		bs_key_to_b64(b64, node.pk);
		snprintf(text, sizeof(text), "mode ca\nanchor @C\n%s %s\n",
		    _i == R_KEY_BLOCKED ? "block" : "revoke", b64);
		use_policy(text);
		break;
	}
	ck_assert_int_eq(give(node.pk, p), -2);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), _i >= R_KEY_BLOCKED ?
	    BS_CLASS_BLOCKED : BS_CLASS_REFUSED);
	ck_assert_uint_eq(pc.stat[IPC_STAT_CERT_ACCEPTED], 0);
}
END_TEST

START_TEST(test_cert_bad_signature)
{
	uint8_t raw[BS_CERT_LEN];

	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	raw[BS_CERT_SIGNED_LEN + 3] ^= 0x10;
	/* The precheck does no signature work; the accept does. */
	ck_assert_int_eq(give(node.pk, raw), -1);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	ck_assert_uint_eq(pc.stat[IPC_STAT_CERT_REFUSED], 1);
}
END_TEST

/* The window with BS_CERT_SKEW either way: (clock, still certified). */
static const struct { int64_t at; int ok; } skew_cases[] = {
	{ -(int64_t)BS_CERT_SKEW - 1, 0 },	/* before not-before - skew */
	{ -(int64_t)BS_CERT_SKEW, 1 },
	{ 0, 1 },
	{ (int64_t)(2 * HOUR + BS_CERT_SKEW), 1 },	/* not-after + skew */
	{ (int64_t)(2 * HOUR + BS_CERT_SKEW) + 1, 0 },
};

START_TEST(test_cert_skew)
{
	uint8_t raw[BS_CERT_LEN];
	struct pcore_cert_cand cand;

	/* Valid [T0, T0 + 2h]; accepted at T0, judged at T0 + at. */
	make_cert(raw, &ca, node.pk, 0, T0, T0 + 2 * HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	fake_now = (uint64_t)((int64_t)T0 + skew_cases[_i].at);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk) ==
	    BS_CLASS_CERTIFIED, skew_cases[_i].ok);
	ck_assert_int_eq(pcore_trust_precheck(&pc, node.pk, raw, &cand),
	    skew_cases[_i].ok);
}
END_TEST

START_TEST(test_no_clock)
{
	uint8_t raw[BS_CERT_LEN];

	/* A router without an RTC boots in 1970: windows are not checked. */
	fake_now = 600;
	ck_assert_uint_eq(pcore_trust_now(&pc), 0);
	make_cert(raw, &ca, node.pk, 0, T0 - 2 * HOUR, T0 - HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	pcore_trust_tick(&pc, 10 * PCORE_TRUST_CHECK_MS);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	/* Once the clock is set, the expired certificate no longer counts. */
	fake_now = T0;
	ck_assert_uint_eq(pcore_trust_now(&pc), T0);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	/* Just before 2024: still "no clock". */
	fake_now = PCORE_TRUST_CLOCK_MIN - 1;
	ck_assert_uint_eq(pcore_trust_now(&pc), 0);
}
END_TEST

START_TEST(test_expiry_tick)
{
	uint8_t raw[BS_CERT_LEN];

	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	fake_now = T0 + HOUR + BS_CERT_SKEW + 1;
	pcore_trust_tick(&pc, 10 * PCORE_TRUST_CHECK_MS);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	/* Dropped, not just judged: back in time it does not come back. */
	fake_now = T0;
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
}
END_TEST

START_TEST(test_renewal_and_downgrade)
{
	uint8_t gw[BS_CERT_LEN], plain[BS_CERT_LEN];

	make_cert(gw, &ca, node.pk, BS_ROLE_GATEWAY, T0 - HOUR, T0 + HOUR);
	make_cert(plain, &ca, node.pk, 0, T0 - HOUR, T0 + 2 * HOUR);
	ck_assert_int_eq(give(node.pk, gw), 0);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 1);
	/* A renewal (later not-after) replaces it. */
	pcore_trust_offer(&pc, node.pk, plain);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 0);
	/* The older one presented again changes nothing. */
	pcore_trust_offer(&pc, node.pk, gw);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 0);
	ck_assert_uint_eq(pc.stat[IPC_STAT_CERT_ACCEPTED], 2);
}
END_TEST

START_TEST(test_gateway_right)
{
	uint8_t raw[BS_CERT_LEN];
	char text[256], b64[BS_KEY_B64_LEN + 1];

	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 0);
	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 0);
	/* A trust entry decides alone: its gateway flag. */
	bs_key_to_b64(b64, node.pk);
	snprintf(text, sizeof(text), "mode ca\nanchor @C\ntrust %s gateway\n",
	    b64);
	use_policy(text);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, other.pk), 0);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 1);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_TRUSTED);
}
END_TEST

START_TEST(test_anchor_goes)
{
	uint8_t raw[BS_CERT_LEN];

	make_cert(raw, &ca, node.pk, BS_ROLE_GATEWAY, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	use_policy("mode open\n");
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_STRANGER);
	ck_assert_int_eq(pcore_trust_gateway_ok(&pc, node.pk), 0);
	use_policy("mode open\nanchor @C\n");
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	use_policy("mode allowlist\nanchor @C\n");
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
}
END_TEST

START_TEST(test_pending)
{
	uint8_t raw[BS_CERT_LEN];

	use_policy("mode ca\nanchor @C\nlimit pending-certs 2\n");
	pcore_trust_pending(&pc, node.pk);
	pcore_trust_pending(&pc, node.pk);
	ck_assert_uint_eq(pcore_trust_pending_count(&pc), 1);
	pcore_trust_pending(&pc, other.pk);
	pcore_trust_pending(&pc, rogue.pk);
	ck_assert_uint_eq(pcore_trust_pending_count(&pc), 2);
	ck_assert_uint_eq(pc.stat[IPC_STAT_CERT_MISSING], 4);
	pcore_trust_pending(&pc, node.pk);
	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	ck_assert_uint_eq(pcore_trust_pending_count(&pc), 1);
	use_policy("mode ca\nanchor @C\nlimit pending-certs 0\n");
	pcore_trust_pending(&pc, ca.pk);
	ck_assert_uint_eq(pcore_trust_pending_count(&pc), 1);
}
END_TEST

START_TEST(test_pin_same_key)
{
	use_policy("mode open\n");
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_STRANGER);
	pcore_trust_pin(&pc, node.pk);
	pcore_trust_pin(&pc, node.pk);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_STRANGER);
	ck_assert_int_eq(pcore_trust_class(&pc, other.pk), BS_CLASS_STRANGER);
}
END_TEST

/*
 * A new pin goes to the forwarder once (IPC_PIN); pins the forwarder
 * hands a new parser (IPC_PINS) are made without going back up, and the
 * statistics count them all.
 */
START_TEST(test_pin_emitted_and_restored)
{
	struct ipc_pins m;
	struct ipc_stats st;
	uint16_t i;
	int seen = 0;

	use_policy("mode open\n");
	n_pin_msgs = 0;
	pcore_trust_pin(&pc, node.pk);
	pcore_trust_pin(&pc, node.pk);
	ck_assert_uint_eq(n_pin_msgs, 1);
	ck_assert_mem_eq(last_pin, node.pk, BS_PK_LEN);
	ck_assert_uint_eq(pcore_trust_pin_count(&pc), 1);
	memset(&m, 0, sizeof(m));
	m.count = 2;
	memcpy(m.pk[0], other.pk, BS_PK_LEN);
	memcpy(m.pk[1], node.pk, BS_PK_LEN);
	pcore_pins(&pc, &m);
	ck_assert_uint_eq(n_pin_msgs, 1);
	ck_assert_uint_eq(pcore_trust_pin_count(&pc), 2);
	pcore_trust_pin(&pc, other.pk);
	ck_assert_uint_eq(n_pin_msgs, 1);
	ck_assert_int_gt(pcore_stats(&pc, &st), 0);
	for (i = 0; i < st.count; i++)
		if (st.s[i].id == IPC_STAT_TOFU_PINS) {
			ck_assert_uint_eq(st.s[i].value, 2);
			seen = 1;
		}
	ck_assert_int_eq(seen, 1);
}
END_TEST

/*
 * A pin whose IPC_PIN could not be sent is not lost: the next tick
 * sends every pin again (the forwarder ignores those it has), once a
 * second until one pass gets them all out.
 */
START_TEST(test_pin_resent_after_emit_failure)
{
	use_policy("mode open\n");
	n_pin_msgs = 0;
	fail_pins = 1;
	pcore_trust_pin(&pc, node.pk);
	ck_assert_uint_eq(n_pin_msgs, 0);
	ck_assert_uint_eq(pcore_trust_pin_count(&pc), 1);
	pcore_trust_tick(&pc, 10000);
	ck_assert_uint_eq(n_pin_msgs, 1);
	ck_assert_mem_eq(last_pin, node.pk, BS_PK_LEN);
	pcore_trust_tick(&pc, 12000);
	ck_assert_uint_eq(n_pin_msgs, 1);
	/* A second failure, and the resend fails too: tried again later. */
	fail_pins = 2;
	pcore_trust_pin(&pc, other.pk);
	pcore_trust_tick(&pc, 14000);
	ck_assert_uint_eq(n_pin_msgs, 1);
	pcore_trust_tick(&pc, 14500);
	ck_assert_uint_eq(n_pin_msgs, 1);
	pcore_trust_tick(&pc, 15000);
	ck_assert_uint_eq(n_pin_msgs, 3);
	pcore_trust_tick(&pc, 17000);
	ck_assert_uint_eq(n_pin_msgs, 3);
	fail_pins = 0;
}
END_TEST

/*
 * TOFU: node's address pinned to another key (as if that key's address
 * collided with node's and it came first): node is refused as a
 * stranger, but a trust entry or a certificate still admits it.
 */
START_TEST(test_pin_conflict)
{
	uint8_t addr[BS_ADDR_LEN], raw[BS_CERT_LEN];
	char text[256], b64[BS_KEY_B64_LEN + 1];

	use_policy("mode open\nanchor @C\n");
	bs_mesh_addr(addr, node.pk);
	pcore_trust_pin_addr(&pc, addr, other.pk);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	ck_assert_int_eq(pcore_trust_class(&pc, other.pk), BS_CLASS_STRANGER);
	/* The first pin stays: pinning node's own key changes nothing. */
	pcore_trust_pin(&pc, node.pk);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, raw), 0);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	bs_key_to_b64(b64, node.pk);
	snprintf(text, sizeof(text), "mode open\ntrust %s\n", b64);
	use_policy(text);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_TRUSTED);
}
END_TEST

static void
make_rev(uint8_t raw[static BS_REVOKE_LEN], const struct bs_identity *issuer,
    const uint8_t pk[static BS_PK_LEN])
{
	struct bs_revoke r;

	ck_assert_int_eq(bs_revoke_issue(&r, issuer, pk, T0), 0);
	bs_revoke_encode(raw, &r);
}

START_TEST(test_revoke_from_anchor)
{
	uint8_t raw[BS_REVOKE_LEN], cert[BS_CERT_LEN];

	make_cert(cert, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, cert), 0);
	make_rev(raw, &ca, node.pk);
	pcore_trust_revoke(&pc, raw);
	ck_assert_uint_eq(n_revoke_msgs, 1);
	ck_assert_int_eq(bs_policy_is_revoked(pc.policy, node.pk), 1);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_BLOCKED);
	ck_assert_uint_eq(pc.stat[IPC_STAT_REVOKE_LEARNT], 1);
	/* Known already: no second message. */
	pcore_trust_revoke(&pc, raw);
	ck_assert_uint_eq(n_revoke_msgs, 1);
	/* Its certificate does not bring it back. */
	ck_assert_int_eq(give(node.pk, cert), -2);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_BLOCKED);
}
END_TEST

/*
 * The scope of a record (batsec-policy(5) REVOCATION): which issuer may
 * revoke which key under which policy, and when a record has expired.
 * The record is issued at T0 by ca ('C') or rogue ('R') for node ('N')
 * or the other anchor; now is T0 + dt.
 */
static const struct scope_case {
	const char *policy;
	char issuer, revoked;
	uint64_t dt;
	unsigned sent;
} scope_cases[] = {
	{ "mode ca\nanchor @C\n", 'C', 'N', 0, 1 },
	/* a blocked or locally revoked anchor revokes nothing */
	{ "mode ca\nanchor @C\nblock @C\n", 'C', 'N', 0, 0 },
	{ "mode ca\nanchor @C\nanchor @R\nrevoke @C\n", 'C', 'N', 0, 0 },
	/* an anchor revokes another anchor only with revokes-anchors */
	{ "mode ca\nanchor @C\nanchor @R\n", 'C', 'R', 0, 0 },
	{ "mode ca\nanchor @C\nanchor @R\n", 'R', 'C', 0, 0 },
	{ "mode ca\nanchor @C revokes-anchors\nanchor @R\n", 'C', 'R', 0, 1 },
	{ "mode ca\nanchor @C revokes-anchors\nanchor @R\n", 'R', 'C', 0, 0 },
	{ "mode ca\nanchor @C revokes-anchors\nanchor @R revokes-anchors\n",
	  'C', 'R', 0, 0 },
	/* expiry: issued_at + revocation-days (+ 300 s of skew) */
	{ "mode ca\nanchor @C revocation-days 1\n", 'C', 'N', 86400 + 300, 1 },
	{ "mode ca\nanchor @C revocation-days 1\n", 'C', 'N', 86400 + 301, 0 },
	{ "mode ca\nanchor @C\n", 'C', 'N', 3650 * 86400ULL, 1 },
	{ "mode ca\nanchor @C\n", 'C', 'N', 3651 * 86400ULL, 0 },
};

START_TEST(test_revoke_scope)
{
	const struct scope_case *sc = &scope_cases[_i];
	const struct bs_identity *issuer = sc->issuer == 'C' ? &ca : &rogue;
	const uint8_t *target = sc->revoked == 'N' ? node.pk :
	    sc->revoked == 'C' ? ca.pk : rogue.pk;
	uint8_t raw[BS_REVOKE_LEN];

	use_policy(sc->policy);
	make_rev(raw, issuer, target);
	fake_now = T0 + sc->dt;
	ck_assert_int_eq(pcore_trust_revoke(&pc, raw), (int)sc->sent);
	ck_assert_uint_eq(n_revoke_msgs, sc->sent);
	ck_assert_int_eq(bs_policy_is_revoked(pc.policy, target),
	    (int)sc->sent);
}
END_TEST

/* A record's anchor revoked by a record of an anchor with revokes-anchors:
 * its certificates and its records stop counting at once. */
START_TEST(test_revoke_anchor_by_anchor)
{
	uint8_t raw[BS_REVOKE_LEN], cert[BS_CERT_LEN];

	use_policy("mode ca\nanchor @C revokes-anchors\nanchor @R\n");
	make_cert(cert, &rogue, node.pk, 0, T0 - HOUR, T0 + HOUR);
	ck_assert_int_eq(give(node.pk, cert), 0);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	make_rev(raw, &ca, rogue.pk);
	ck_assert_int_eq(pcore_trust_revoke(&pc, raw), 1);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	make_rev(raw, &rogue, other.pk);
	ck_assert_int_eq(pcore_trust_revoke(&pc, raw), 0);
	ck_assert_int_eq(bs_policy_is_revoked(pc.policy, other.pk), 0);
	ck_assert_uint_eq(n_revoke_msgs, 1);
}
END_TEST

enum { V_ROGUE, V_BAD_SIG, V_MALFORMED, V_NO_POLICY, V_COUNT };

START_TEST(test_revoke_ignored)
{
	uint8_t raw[BS_REVOKE_LEN];

	make_rev(raw, _i == V_ROGUE ? &rogue : &ca, node.pk);
	if (_i == V_BAD_SIG)
		raw[BS_REVOKE_SIGNED_LEN + 1] ^= 1;
	if (_i == V_MALFORMED)
		raw[1] = 1;	/* reserved */
	if (_i == V_NO_POLICY) {
		bs_policy_free(pc.policy);
		pc.policy = NULL;
	}
	pcore_trust_revoke(&pc, raw);
	pcore_trust_revoke(&pc, raw);
	ck_assert_uint_eq(n_revoke_msgs, 0);
	ck_assert_uint_eq(pc.stat[IPC_STAT_REVOKE_LEARNT], 0);
	if (pc.policy != NULL)
		ck_assert_int_eq(bs_policy_is_revoked(pc.policy, node.pk), 0);
}
END_TEST

/*
 * The OGM hooks: a REVOKE container counts only in a newer entry of a
 * trusted or certified originator; a CERT container admits a key only
 * through entry_cert + entry_verified.  (cls, newer, revocations sent).
 */
static const struct { uint8_t cls; int newer; unsigned sent; } hook_cases[] = {
	{ BS_CLASS_STRANGER, 1, 0 },
	{ BS_CLASS_CERTIFIED, 0, 0 },
	{ BS_CLASS_CERTIFIED, 1, 1 },
	{ BS_CLASS_TRUSTED, 1, 1 },
};

START_TEST(test_entry_hooks_revoke)
{
	struct wire_ogm_entry e;
	uint8_t raw[BS_REVOKE_LEN];

	memset(&e, 0, sizeof(e));
	make_rev(raw, &ca, node.pk);
	e.sgn.pk = other.pk;
	e.tv.present = 1u << WIRE_TVLV_REVOKE;
	e.tv.revoke = raw;
	pcore_trust_entry_done(&pc, &e, hook_cases[_i].cls, 0,
	    hook_cases[_i].newer);
	ck_assert_uint_eq(n_revoke_msgs, hook_cases[_i].sent);
}
END_TEST

START_TEST(test_entry_hooks_cert)
{
	struct wire_ogm_entry e;
	struct pcore_cert_cand cand, *c;
	uint8_t raw[BS_CERT_LEN];

	memset(&e, 0, sizeof(e));
	e.sgn.pk = node.pk;
	/* No certificate: refused, and the key waits (mode ca). */
	ck_assert_ptr_null(pcore_trust_entry_cert(&pc, &e, &cand));
	ck_assert_uint_eq(pcore_trust_pending_count(&pc), 1);
	make_cert(raw, &ca, node.pk, 0, T0 - HOUR, T0 + HOUR);
	e.tv.present = 1u << WIRE_TVLV_CERT;
	e.tv.cert = raw;
	c = pcore_trust_entry_cert(&pc, &e, &cand);
	ck_assert_ptr_eq(c, &cand);
	/* Not kept before the entry's own signature was checked. */
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_REFUSED);
	ck_assert_int_eq(pcore_trust_entry_verified(&pc, &e,
	    BS_CLASS_CERTIFIED, c), 0);
	ck_assert_int_eq(pcore_trust_class(&pc, node.pk), BS_CLASS_CERTIFIED);
	ck_assert_uint_eq(pcore_trust_pending_count(&pc), 0);
	/* A forged CA signature: the entry is refused by policy. */
	e.sgn.pk = other.pk;
	make_cert(raw, &ca, other.pk, 0, T0 - HOUR, T0 + HOUR);
	raw[BS_CERT_SIGNED_LEN] ^= 0x80;
	c = pcore_trust_entry_cert(&pc, &e, &cand);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(pcore_trust_entry_verified(&pc, &e,
	    BS_CLASS_CERTIFIED, c), -1);
	ck_assert_int_eq(pcore_trust_class(&pc, other.pk), BS_CLASS_REFUSED);
}
END_TEST

static Suite *
trust_suite(void)
{
	Suite *s = suite_create("pcore_trust");
	TCase *tc = tcase_create("certificates");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cert_admits);
	tcase_add_loop_test(tc, test_cert_prechecks, 0, R_COUNT);
	tcase_add_test(tc, test_cert_bad_signature);
	tcase_add_loop_test(tc, test_cert_skew, 0, T_NELEM(skew_cases));
	tcase_add_test(tc, test_no_clock);
	tcase_add_test(tc, test_expiry_tick);
	tcase_add_test(tc, test_renewal_and_downgrade);
	tcase_add_test(tc, test_gateway_right);
	tcase_add_test(tc, test_anchor_goes);
	suite_add_tcase(s, tc);
	tc = tcase_create("pending, pins, revocations");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pending);
	tcase_add_test(tc, test_pin_same_key);
	tcase_add_test(tc, test_pin_emitted_and_restored);
	tcase_add_test(tc, test_pin_resent_after_emit_failure);
	tcase_add_test(tc, test_pin_conflict);
	tcase_add_test(tc, test_revoke_from_anchor);
	tcase_add_loop_test(tc, test_revoke_ignored, 0, V_COUNT);
	tcase_add_loop_test(tc, test_revoke_scope, 0, T_NELEM(scope_cases));
	tcase_add_test(tc, test_revoke_anchor_by_anchor);
	tcase_add_loop_test(tc, test_entry_hooks_revoke, 0, T_NELEM(hook_cases));
	tcase_add_test(tc, test_entry_hooks_cert);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(trust_suite());
}
