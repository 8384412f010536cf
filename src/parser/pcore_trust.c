/*
 * pcore_trust.c — certificates, pending keys, TOFU pins and revocation
 * records in the parser's core (pcore_trust.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_int.h"
#include "pcore_trust.h"
#include "common/pinset.h"
#include "proto/wire.h"

#define PCORE_REVOKE_BAD	8	/* refused records remembered */

struct pcore_trust {
	struct bs_cert *certs;		/* sorted by node_pk, unique */
	size_t n_certs, cap_certs;
	struct pinset pins;
	uint8_t (*pending)[BS_PK_LEN];	/* a ring of keys */
	size_t n_pending, pending_next;
	uint8_t bad_rev[PCORE_REVOKE_BAD][16];	/* hashes, a ring */
	size_t bad_next;
	pcore_clock_fn clock;
	uint64_t checked_ms;
	/*
	 * An IPC_PIN could not be sent (the channel's queue was full): every
	 * pin goes up again at the next tick that finds room, so none is
	 * missing from the forwarder's file (it ignores the ones it has).
	 */
	uint8_t pins_unsent;
	uint64_t resent_ms;
};

static struct pcore_trust *
pt_get(struct pcore *pc)
{
	if (pc->trust == NULL)
		pc->trust = calloc(1, sizeof(*pc->trust));
	return pc->trust;
}

void
pcore_trust_free(struct pcore *pc)
{
	struct pcore_trust *t = pc->trust;

	if (t == NULL)
		return;
	free(t->certs);
	pinset_free(&t->pins);
	free(t->pending);
	free(t);
	pc->trust = NULL;
}

void
pcore_trust_set_clock(struct pcore *pc, pcore_clock_fn fn)
{
	struct pcore_trust *t = pt_get(pc);

	if (t != NULL)
		t->clock = fn;
}

uint64_t
pcore_trust_now(const struct pcore *pc)
{
	struct timespec ts;
	uint64_t now;

	if (pc->trust != NULL && pc->trust->clock != NULL)
		now = pc->trust->clock();
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	else if (1)	/* reproducible runs: a fixed day in 2025 */
		now = 1750000000ULL;
#endif
	else if (clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_sec > 0)
		now = (uint64_t)ts.tv_sec;
	else
		now = 0;
	return now < PCORE_TRUST_CLOCK_MIN ? 0 : now;
}

/* ---- certificates ------------------------------------------------------------ */

/* Index of the first cert whose node key is >= pk; *found when equal. */
static size_t
pt_cert_index(const struct pcore_trust *t, const uint8_t pk[static BS_PK_LEN],
    int *found)
{
	return bs_sorted_index(t->certs, t->n_certs, sizeof(*t->certs),
	    offsetof(struct bs_cert, node_pk), pk, BS_PK_LEN, found);
}

static const struct bs_cert *
pt_cert_find(const struct pcore_trust *t, const uint8_t pk[static BS_PK_LEN])
{
	size_t i;
	int found;

	if (t == NULL)
		return NULL;
	i = pt_cert_index(t, pk, &found);
	return found ? &t->certs[i] : NULL;
}

/* The validity window at now (0: no clock, not checked), with skew. */
static int
pt_window_ok(const struct bs_cert *c, uint64_t now)
{
	if (now == 0)
		return 1;
	return now + BS_CERT_SKEW >= c->not_before &&
	    now <= c->not_after + BS_CERT_SKEW;
}

/* Everything but the signature: a usable anchor and the window. */
static int
pt_cert_good(const struct bs_policy *pol, const struct bs_cert *c,
    uint64_t now)
{
	return bs_policy_anchor_find(pol, c->issuer_pk) != NULL &&
	    !bs_policy_is_blocked(pol, c->issuer_pk) &&
	    !bs_policy_is_revoked(pol, c->issuer_pk) && pt_window_ok(c, now);
}

/* A kept certificate of pk that makes it CERTIFIED now, or NULL. */
static const struct bs_cert *
pt_good_cert(const struct pcore *pc, const uint8_t pk[static BS_PK_LEN])
{
	const struct bs_cert *c;

	if (pc->policy->mode == BS_POLICY_ALLOWLIST ||
	    (c = pt_cert_find(pc->trust, pk)) == NULL ||
	    !pt_cert_good(pc->policy, c, pcore_trust_now(pc)))
		return NULL;
	return c;
}

/* ---- pins ------------------------------------------------------------------------ */

/* 1 when pk's address is pinned to another key. */
static int
pt_pin_conflict(const struct pcore_trust *t,
    const uint8_t pk[static BS_PK_LEN])
{
	uint8_t addr[BS_ADDR_LEN];
	const uint8_t *owner;

	if (t == NULL || t->pins.n == 0)
		return 0;
	bs_mesh_addr(addr, pk);
	owner = pinset_find(&t->pins, addr);
	return owner != NULL && memcmp(owner, pk, BS_PK_LEN) != 0;
}

void
pcore_trust_pin(struct pcore *pc, const uint8_t pk[static BS_PK_LEN])
{
	uint8_t addr[BS_ADDR_LEN];
	struct ipc_pin m;

	/* An all-zero key never verifies (libsodium refuses small-order
	 * keys); only a fuzz build's signature bypass gets one here, and
	 * IPC_PIN refuses it. */
	if (sodium_is_zero(pk, BS_PK_LEN))
		return;
	bs_mesh_addr(addr, pk);
	if (pcore_trust_pin_addr(pc, addr, pk) != 1)
		return;
	memcpy(m.pk, pk, BS_PK_LEN);
	if (pcore_emit(pc, IPC_PIN, &m, sizeof(m)) != 0)
		pc->trust->pins_unsent = 1;
}

/* Send every pin up again (pins_unsent), at most once a second. */
static void
pt_pins_resend(struct pcore *pc, uint64_t now_ms)
{
	struct pcore_trust *t = pc->trust;
	struct ipc_pin m;
	size_t i;

	if (now_ms - t->resent_ms < PCORE_TRUST_CHECK_MS)
		return;
	t->resent_ms = now_ms;
	for (i = 0; i < t->pins.n; i++) {
		/* The forwarder refuses a pin for a key that has an entry
		 * now, or in a mode other than open (fwd_admit.h). */
		if (pcore_trust_class(pc, t->pins.v[i].pk) !=
		    BS_CLASS_STRANGER)
			continue;
		memcpy(m.pk, t->pins.v[i].pk, BS_PK_LEN);
		if (pcore_emit(pc, IPC_PIN, &m, sizeof(m)) != 0)
			return;
	}
	t->pins_unsent = 0;
}

int
pcore_trust_pin_addr(struct pcore *pc, const uint8_t addr[static BS_ADDR_LEN],
    const uint8_t pk[static BS_PK_LEN])
{
	struct pcore_trust *t = pt_get(pc);

	return t != NULL && pinset_add(&t->pins, addr, pk, PCORE_PIN_MAX) == 1;
}

int
pcore_trust_pin_used(struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
    uint64_t now_ms)
{
	struct pinset_entry *e;
	uint8_t addr[BS_ADDR_LEN];
	struct ipc_pin m;

	if (pc->trust == NULL || pc->trust->pins.n == 0)
		return 0;
	bs_mesh_addr(addr, pk);
	if ((e = pinset_get(&pc->trust->pins, addr)) == NULL)
		return 0;
	if (memcmp(e->pk, pk, BS_PK_LEN) != 0)
		return 1;
	e->seen = now_ms != 0 ? now_ms : 1;
	if (e->told == 0)
		e->told = e->seen;	/* it went up when it was made */
	if (now_ms - e->told < PCORE_PIN_TELL_MS)
		return 1;
	memcpy(m.pk, pk, BS_PK_LEN);
	if (pcore_emit(pc, IPC_PIN, &m, sizeof(m)) == 0)
		e->told = e->seen;
	return 1;
}

size_t
pcore_trust_pins_age(struct pcore *pc, uint64_t now_ms, uint64_t max_age_ms)
{
	struct pcore_trust *t = pc->trust;
	size_t i, gone;

	if (t == NULL || t->pins.n == 0)
		return 0;
	/* A pin not used yet (new, or from the forwarder) starts now. */
	for (i = 0; i < t->pins.n; i++)
		if (t->pins.v[i].seen == 0)
			t->pins.v[i].seen = now_ms != 0 ? now_ms : 1;
	if (now_ms <= max_age_ms)
		return 0;
	if ((gone = pinset_expire(&t->pins, now_ms - max_age_ms)) > 0) {
		pc->stats_dirty = 1;
		pcore_logf(pc, IPC_LOG_INFO, "%zu TOFU pins unused for %llu "
		    "days: forgotten", gone, (unsigned long long)(max_age_ms /
		    86400000u));
	}
	return gone;
}

size_t
pcore_trust_pin_count(const struct pcore *pc)
{
	return pc->trust != NULL ? pc->trust->pins.n : 0;
}

void
pcore_pins(struct pcore *pc, const struct ipc_pins *m)
{
	uint8_t addr[BS_ADDR_LEN];
	unsigned i;

	for (i = 0; i < m->count && i < IPC_PINS_MAX; i++) {
		bs_mesh_addr(addr, m->pk[i]);
		if (pcore_trust_pin_addr(pc, addr, m->pk[i]) == 1)
			pc->stats_dirty = 1;	/* tofu_pins changed */
	}
}

/* ---- classes ---------------------------------------------------------------------- */

uint8_t
pcore_trust_class(const struct pcore *pc, const uint8_t pk[static BS_PK_LEN])
{
	enum bs_policy_class cls;

	if (pc->policy == NULL)
		return BS_CLASS_REFUSED;
	cls = bs_policy_classify(pc->policy, pk);
	if (cls == BS_CLASS_BLOCKED || cls == BS_CLASS_TRUSTED)
		return (uint8_t)cls;
	if (pt_good_cert(pc, pk) != NULL)
		return BS_CLASS_CERTIFIED;
	if (cls == BS_CLASS_STRANGER && pt_pin_conflict(pc->trust, pk))
		return BS_CLASS_REFUSED;
	return (uint8_t)cls;
}

int
pcore_key_admitted(const struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
    uint8_t *cls)
{
	/* The policy, certificates and TOFU pins (pcore_trust.h). */
	*cls = pcore_trust_class(pc, pk);
	return *cls == BS_CLASS_TRUSTED || *cls == BS_CLASS_CERTIFIED ||
	    *cls == BS_CLASS_STRANGER;
}

int
pcore_trust_gateway_ok(const struct pcore *pc,
    const uint8_t pk[static BS_PK_LEN])
{
	const struct bs_policy_trust *t;
	const struct bs_cert *c;

	if (pc->policy == NULL ||
	    bs_policy_classify(pc->policy, pk) == BS_CLASS_BLOCKED)
		return 0;
	if ((t = bs_policy_trust_find(pc->policy, pk)) != NULL)
		return t->gateway != 0;
	c = pt_good_cert(pc, pk);
	return c != NULL && (c->roles & BS_ROLE_GATEWAY) != 0;
}

/* ---- taking certificates ------------------------------------------------------- */

int
pcore_trust_precheck(const struct pcore *pc,
    const uint8_t pk[static BS_PK_LEN], const uint8_t *raw,
    struct pcore_cert_cand *cand)
{
	/* A blocked or revoked key stays out whatever it presents. */
	if (raw == NULL || pc->policy == NULL ||
	    pc->policy->mode == BS_POLICY_ALLOWLIST ||
	    bs_policy_classify(pc->policy, pk) == BS_CLASS_BLOCKED)
		return 0;
	if (bs_cert_decode(&cand->c, raw, BS_CERT_LEN) != BS_CERT_OK ||
	    memcmp(cand->c.node_pk, pk, BS_PK_LEN) != 0 ||
	    !pt_cert_good(pc->policy, &cand->c, pcore_trust_now(pc)))
		return 0;
	memcpy(cand->raw, raw, BS_CERT_LEN);
	return 1;
}

/* Room for one more certificate: grow, or drop an expired one. */
static int
pt_cert_room(struct pcore_trust *t, uint64_t now)
{
	struct bs_cert *n;
	size_t i, cap;

	if (t->n_certs < t->cap_certs)
		return 0;
	if (t->cap_certs < PCORE_CERT_MAX) {
		cap = t->cap_certs == 0 ? 64 : t->cap_certs * 2;
		if ((n = realloc(t->certs, cap * sizeof(*n))) == NULL)
			return -1;
		t->certs = n;
		t->cap_certs = cap;
		return 0;
	}
	for (i = 0; i < t->n_certs; i++) {
		if (!pt_window_ok(&t->certs[i], now)) {
			memmove(&t->certs[i], &t->certs[i + 1],
			    (t->n_certs - i - 1) * sizeof(*t->certs));
			t->n_certs--;
			return 0;
		}
	}
	return -1;
}

static void
pt_pending_drop(struct pcore_trust *t, const uint8_t pk[static BS_PK_LEN])
{
	size_t i;

	for (i = 0; i < t->n_pending; i++)
		if (memcmp(t->pending[i], pk, BS_PK_LEN) == 0)
			memset(t->pending[i], 0, BS_PK_LEN);
}

/* Insert or replace the certificate of c->node_pk. */
static int
pt_cert_store(struct pcore_trust *t, const struct bs_cert *c, uint64_t now)
{
	size_t i;
	int found;

	i = pt_cert_index(t, c->node_pk, &found);
	if (!found) {
		if (pt_cert_room(t, now) != 0)
			return -1;
		i = pt_cert_index(t, c->node_pk, &found);
		memmove(&t->certs[i + 1], &t->certs[i], (t->n_certs - i) *
		    sizeof(*t->certs));
		t->n_certs++;
	}
	t->certs[i] = *c;
	return 0;
}

static int
pt_cert_send(struct pcore *pc, const struct bs_cert *c)
{
	struct ipc_cert m;

	bs_cert_encode(m.cert, c);
	return pcore_emit(pc, IPC_CERT, &m, sizeof(m));
}

int
pcore_trust_accept(struct pcore *pc, const struct pcore_cert_cand *cand)
{
	struct pcore_trust *t = pt_get(pc);
	const struct bs_cert *old;
	uint64_t now = pcore_trust_now(pc);

	if (t == NULL)
		return -1;
	old = pt_cert_find(t, cand->c.node_pk);
	/* The same one, or an older one presented again: nothing new. */
	if (old != NULL && (cand->c.not_after < old->not_after ||
	    (cand->c.not_after == old->not_after &&
	    memcmp(old->sig, cand->c.sig, BS_SIG_LEN) == 0)))
		return 0;
	if (!PCORE_FUZZ_BYPASS(cand->c.sig) &&
	    bs_cert_verify(&cand->c, cand->c.issuer_pk, now) != BS_CERT_OK) {
		pcore_count(pc, IPC_STAT_CERT_REFUSED);
		return -1;
	}
	/* The forwarder admits the key only with its own check of the
	 * certificate (IPC_CERT): it goes up before anything relies on it,
	 * and is not kept when it could not be sent. */
	if (pt_cert_send(pc, &cand->c) != 0 ||
	    pt_cert_store(t, &cand->c, now) != 0) {
		pcore_count(pc, IPC_STAT_CERT_REFUSED);
		return -1;
	}
	pt_pending_drop(t, cand->c.node_pk);
	pcore_count(pc, IPC_STAT_CERT_ACCEPTED);
	pcore_logf(pc, IPC_LOG_DEBUG, "certificate \"%s\" accepted",
	    cand->c.name);
	return 0;
}

void
pcore_trust_offer(struct pcore *pc, const uint8_t pk[static BS_PK_LEN],
    const uint8_t *raw)
{
	struct pcore_cert_cand cand;

	if (pcore_trust_precheck(pc, pk, raw, &cand))
		(void)pcore_trust_accept(pc, &cand);
}

/* ---- pending ------------------------------------------------------------------- */

void
pcore_trust_pending(struct pcore *pc, const uint8_t pk[static BS_PK_LEN])
{
	struct pcore_trust *t;
	size_t i, cap;

	pcore_count(pc, IPC_STAT_CERT_MISSING);
	if (pc->policy == NULL || (cap = pc->policy->limits.pending_certs) ==
	    0 || (t = pt_get(pc)) == NULL)
		return;
	if (t->pending == NULL &&
	    (t->pending = calloc(4096, BS_PK_LEN)) == NULL)
		return;
	if (cap > 4096)
		cap = 4096;
	for (i = 0; i < t->n_pending && i < cap; i++)
		if (memcmp(t->pending[i], pk, BS_PK_LEN) == 0)
			return;
	if (t->n_pending < cap)
		t->n_pending++;
	if (t->pending_next >= cap)
		t->pending_next = 0;
	memcpy(t->pending[t->pending_next], pk, BS_PK_LEN);
	t->pending_next = (t->pending_next + 1) % cap;
}

size_t
pcore_trust_pending_count(const struct pcore *pc)
{
	static const uint8_t zero[BS_PK_LEN];
	const struct pcore_trust *t = pc->trust;
	size_t i, n = 0;

	if (t == NULL)
		return 0;
	for (i = 0; i < t->n_pending; i++)
		n += memcmp(t->pending[i], zero, BS_PK_LEN) != 0;
	return n;
}

/* ---- revocations ----------------------------------------------------------------- */

/* 1 when raw was refused before (its signature failed). */
static int
pt_rev_bad(struct pcore_trust *t, const uint8_t *raw, int add)
{
	uint8_t h[16];
	size_t i;

	crypto_generichash(h, sizeof(h), raw, BS_REVOKE_LEN, NULL, 0);
	for (i = 0; i < PCORE_REVOKE_BAD; i++)
		if (memcmp(t->bad_rev[i], h, sizeof(h)) == 0)
			return 1;
	if (add) {
		memcpy(t->bad_rev[t->bad_next], h, sizeof(h));
		t->bad_next = (t->bad_next + 1) % PCORE_REVOKE_BAD;
	}
	return 0;
}

int
pcore_trust_revoke(struct pcore *pc, const uint8_t *raw)
{
	struct pcore_trust *t;
	struct ipc_revoke m;
	struct bs_revoke r;

	/* Only a record that counts (batsec-policy(5) REVOCATION): from an
	 * anchor neither blocked nor revoked, not expired, and one that
	 * revokes an anchor only with revokes-anchors.  Cheap, so first. */
	if (raw == NULL || pc->policy == NULL || (t = pt_get(pc)) == NULL ||
	    bs_revoke_decode(&r, raw, BS_REVOKE_LEN) != 0 ||
	    bs_policy_revoke_problem(pc->policy, &r,
	    pcore_trust_now(pc)) != NULL ||
	    bs_policy_is_revoked(pc->policy, r.revoked_pk) ||
	    pt_rev_bad(t, raw, 0))
		return 0;
	if (!PCORE_FUZZ_BYPASS(r.sig) &&
	    bs_revoke_verify(&r, r.issuer_pk) != 0) {
		(void)pt_rev_bad(t, raw, 1);
		return 0;
	}
	if (bs_policy_revoke(pc->policy, r.revoked_pk, NULL, 0) != 0)
		return 0;
	memcpy(m.rec, raw, BS_REVOKE_LEN);
	(void)pcore_emit(pc, IPC_REVOKE, &m, sizeof(m));
	pcore_count(pc, IPC_STAT_REVOKE_LEARNT);
	pcore_logf(pc, IPC_LOG_INFO, "a CA revocation record arrived: key "
	    "revoked");
	return 1;
}

/* ---- expiry ------------------------------------------------------------------------ */

int
pcore_trust_tick(struct pcore *pc, uint64_t now_ms)
{
	struct pcore_trust *t = pc->trust;
	uint64_t now;
	size_t i = 0, gone = 0;

	if (t != NULL && t->pins_unsent)
		pt_pins_resend(pc, now_ms);
	if (t == NULL || t->n_certs == 0 ||
	    now_ms - t->checked_ms < PCORE_TRUST_CHECK_MS)
		return 0;
	t->checked_ms = now_ms;
	if ((now = pcore_trust_now(pc)) == 0)
		return 0;
	while (i < t->n_certs) {
		if (now <= t->certs[i].not_after + BS_CERT_SKEW) {
			i++;
			continue;
		}
		memmove(&t->certs[i], &t->certs[i + 1], (t->n_certs - i - 1) *
		    sizeof(*t->certs));
		t->n_certs--;
		gone++;
	}
	if (gone == 0)
		return 0;
	pcore_logf(pc, IPC_LOG_INFO, "%zu certificates expired", gone);
	return 1;
}

/* ---- the OGM pipeline's hooks ---------------------------------------------------- */

struct pcore_cert_cand *
pcore_trust_entry_cert(struct pcore *pc, const struct wire_ogm_entry *e,
    struct pcore_cert_cand *cand)
{
	const uint8_t *raw = (e->tv.present & (1u << WIRE_TVLV_CERT)) ?
	    e->tv.cert : NULL;

	if (pcore_trust_precheck(pc, e->sgn.pk, raw, cand))
		return cand;
	if (pc->policy != NULL && pc->policy->mode == BS_POLICY_CA &&
	    bs_policy_classify(pc->policy, e->sgn.pk) == BS_CLASS_REFUSED)
		pcore_trust_pending(pc, e->sgn.pk);
	return NULL;
}

int
pcore_trust_entry_verified(struct pcore *pc, const struct wire_ogm_entry *e,
    uint8_t cls, const struct pcore_cert_cand *newcert)
{
	if (newcert != NULL)
		return pcore_trust_accept(pc, newcert);
	if (cls != BS_CLASS_TRUSTED && (e->tv.present & (1u << WIRE_TVLV_CERT)))
		pcore_trust_offer(pc, e->sgn.pk, e->tv.cert);
	return 0;
}

int
pcore_trust_entry_done(struct pcore *pc, const struct wire_ogm_entry *e,
    uint8_t cls, int orig_new, int newer)
{
	(void)orig_new;	/* pins are made later: pcore_lim_pins() */
	/* Strangers do not carry revocations: each costs a verification. */
	if (newer && cls >= BS_CLASS_CERTIFIED &&
	    (e->tv.present & (1u << WIRE_TVLV_REVOKE)))
		return pcore_trust_revoke(pc, e->tv.revoke);
	return 0;
}
