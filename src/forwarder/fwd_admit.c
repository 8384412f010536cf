/*
 * fwd_admit.c — the forwarder's own admission check of the parser's
 * messages and the removal of keys the policy no longer admits
 * (fwd_admit.h states the rules).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batsec_keys.h"
#include "batsec_policy.h"
#include "bs_bytes.h"
#include "common/log.h"
#include "common/pinset.h"
#include "fwd_admit.h"
#include "fwd_fast.h"
#include "fwd_parser.h"
#include "fwd_tables.h"
#include "fwd_trust.h"
#include "fwd_types.h"
#include "proto/ipc.h"
#include "proto/wire.h"

/* What a key is to be admitted for. */
enum fwd_role {
	FWD_ROLE_NODE,		/* neighbour, link key, route, clients */
	FWD_ROLE_GATEWAY,	/* an internet gateway */
};

static uint64_t
fwd_admit_now(const struct fwd_admit *a)
{
	uint64_t now = a->clock != NULL ? a->clock() : (uint64_t)time(NULL);

	return now < FWD_ADMIT_CLOCK_MIN ? 0 : now;
}

void
fwd_admit_set_clock(struct fwd *f, uint64_t (*clock)(void))
{
	f->admit.clock = clock;
}

/* ---- certificates ---------------------------------------------------------- */

static size_t
fwd_cert_index(const struct fwd_admit *a, const uint8_t pk[static BS_PK_LEN],
    int *found)
{
	return bs_sorted_index(a->certs, a->n_certs, sizeof(*a->certs),
	    offsetof(struct fwd_admit_cert, c) +
	    offsetof(struct bs_cert, node_pk), pk, BS_PK_LEN, found);
}

static const struct bs_cert *
fwd_cert_find(const struct fwd_admit *a, const uint8_t pk[static BS_PK_LEN])
{
	size_t i;
	int found;

	if (a->n_certs == 0)
		return NULL;
	i = fwd_cert_index(a, pk, &found);
	return found ? &a->certs[i].c : NULL;
}

/* The window at now (0: no clock) with the skew, and lag more at the end. */
static int
fwd_cert_window(const struct bs_cert *c, uint64_t now, uint64_t lag)
{
	if (now == 0)
		return 1;
	return now + BS_CERT_SKEW >= c->not_before &&
	    now <= c->not_after + BS_CERT_SKEW + lag;
}

/* A held certificate of pk that makes it CERTIFIED under pol, or NULL. */
static const struct bs_cert *
fwd_cert_good(const struct fwd_admit *a, const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], uint64_t lag)
{
	const struct bs_cert *c;

	if (pol->mode == BS_POLICY_ALLOWLIST ||
	    (c = fwd_cert_find(a, pk)) == NULL ||
	    bs_policy_anchor_find(pol, c->issuer_pk) == NULL ||
	    bs_policy_is_blocked(pol, c->issuer_pk) ||
	    bs_policy_is_revoked(pol, c->issuer_pk) ||
	    !fwd_cert_window(c, fwd_admit_now(a), lag))
		return NULL;
	return c;
}

/* The certificates came from an earlier parser: the new one resends. */
static void
fwd_cert_follow_parser(struct fwd *f)
{
	struct fwd_admit *a = &f->admit;

	if (a->spawns == f->parser.c.spawns)
		return;
	a->spawns = f->parser.c.spawns;
	a->n_certs = 0;
	a->cert_addrs_stale = 1;
}

/* Room for one more: drop the expired ones when full.  0 or -1. */
static int
fwd_cert_room(struct fwd_admit *a)
{
	uint64_t now = fwd_admit_now(a);
	size_t i, k = 0;

	if (a->certs == NULL && (a->certs = calloc(FWD_ADMIT_CERT_MAX,
	    sizeof(*a->certs))) == NULL)
		return -1;
	if (a->n_certs < FWD_ADMIT_CERT_MAX)
		return 0;
	for (i = 0; i < a->n_certs; i++)
		if (fwd_cert_window(&a->certs[i].c, now, 0))
			a->certs[k++] = a->certs[i];
	a->n_certs = k;
	a->cert_addrs_stale = 1;
	return k < FWD_ADMIT_CERT_MAX ? 0 : -1;
}

int
fwd_admit_on_cert(void *arg, const union ipc_payload *u)
{
	struct fwd *f = arg;
	struct fwd_admit *a = &f->admit;
	struct bs_cert c;
	size_t i;
	int r, found;

	if (bs_cert_decode(&c, u->cert.cert, BS_CERT_LEN) != BS_CERT_OK)
		return -1;	/* layer 2 checked the format */
	r = bs_cert_verify(&c, c.issuer_pk, fwd_admit_now(a));
	if (r == BS_CERT_ENOTYET || r == BS_CERT_EEXPIRED)
		return 0;	/* the parser's clock read a moment earlier */
	if (r != BS_CERT_OK) {
		log_rl(&a->rl, LOG_WARNING, "IPC CERT: %s",
		    bs_cert_strerror(r));
		return -1;
	}
	fwd_cert_follow_parser(f);
	i = a->n_certs == 0 ? 0 : fwd_cert_index(a, c.node_pk, &found);
	if (a->n_certs == 0 || !found) {
		if (fwd_cert_room(a) != 0) {
			log_rl(&a->rl, LOG_WARNING, "IPC CERT: %d certificates "
			    "held, no room for another", FWD_ADMIT_CERT_MAX);
			return 0;
		}
		i = a->n_certs == 0 ? 0 : fwd_cert_index(a, c.node_pk, &found);
		memmove(&a->certs[i + 1], &a->certs[i],
		    (a->n_certs - i) * sizeof(*a->certs));
		a->n_certs++;
	}
	a->certs[i].c = c;
	bs_mesh_addr(a->certs[i].addr, c.node_pk);
	a->cert_addrs_stale = 1;
	return 0;
}

/* ---- the verdicts ------------------------------------------------------------ */

/* Is addr pinned to a key other than pk? */
static int
fwd_pin_conflict(const struct fwd *f, const uint8_t pk[static BS_PK_LEN])
{
	uint8_t addr[BS_ADDR_LEN];
	const uint8_t *owner;

	if (f->pins.set.n == 0)
		return 0;
	bs_mesh_addr(addr, pk);
	owner = pinset_find(&f->pins.set, addr);
	return owner != NULL && memcmp(owner, pk, BS_PK_LEN) != 0;
}

/* Is pk admitted for role (fwd_admit.h)?  lag: certificate tolerance. */
static int
fwd_key_ok(const struct fwd *f, const uint8_t pk[static BS_PK_LEN],
    enum fwd_role role, uint64_t lag)
{
	const struct fwd_admit *a = &f->admit;
	const struct bs_policy *pol = a->eff;
	const struct bs_policy_trust *t;
	const struct bs_cert *c;
	enum bs_policy_class cls = bs_policy_classify(pol, pk);

	if (cls == BS_CLASS_BLOCKED)
		return 0;
	if (cls == BS_CLASS_TRUSTED) {
		t = bs_policy_trust_find(pol, pk);
		return role != FWD_ROLE_GATEWAY || (t != NULL && t->gateway);
	}
	if ((c = fwd_cert_good(a, pol, pk, lag)) != NULL)
		return role != FWD_ROLE_GATEWAY ||
		    (c->roles & BS_ROLE_GATEWAY) != 0;
	return role == FWD_ROLE_NODE && cls == BS_CLASS_STRANGER &&
	    !fwd_pin_conflict(f, pk);
}

/* A pin: mode open, no entry for the key, its address not taken. */
static int
fwd_pin_ok(const struct fwd *f, const uint8_t pk[static BS_PK_LEN])
{
	return f->admit.eff->mode == BS_POLICY_OPEN &&
	    bs_policy_classify(f->admit.eff, pk) == BS_CLASS_STRANGER &&
	    !fwd_pin_conflict(f, pk);
}

static int fwd_addr_cmp(const void *, const void *);

/* First entry of v[0..n) (sorted by address) for addr, or n. */
static size_t
fwd_addr_first(const struct fwd_admit_addr *v, size_t n,
    const uint8_t addr[static BS_ADDR_LEN])
{
	int found;

	return bs_sorted_index(v, n, sizeof(*v),
	    offsetof(struct fwd_admit_addr, addr), addr, BS_ADDR_LEN, &found);
}

/* The certificates' keys by address, sorted again after a change. */
static const struct fwd_admit_addr *
fwd_cert_addrs(struct fwd_admit *a)
{
	size_t i;

	if (!a->cert_addrs_stale)
		return a->cert_addrs;
	if (a->cert_addrs == NULL && (a->cert_addrs = calloc(
	    FWD_ADMIT_CERT_MAX, sizeof(*a->cert_addrs))) == NULL)
		return NULL;
	for (i = 0; i < a->n_certs; i++) {
		memcpy(a->cert_addrs[i].addr, a->certs[i].addr, BS_ADDR_LEN);
		memcpy(a->cert_addrs[i].pk, a->certs[i].c.node_pk, BS_PK_LEN);
		a->cert_addrs[i].listed = FWD_ADMIT_TRUST;
	}
	qsort(a->cert_addrs, a->n_certs, sizeof(*a->cert_addrs),
	    fwd_addr_cmp);
	a->cert_addrs_stale = 0;
	return a->cert_addrs;
}

/* Is an originator, known by its address only, admitted for role? */
static int
fwd_addr_ok(struct fwd *f, const uint8_t addr[static BS_ADDR_LEN],
    enum fwd_role role, uint64_t lag)
{
	struct fwd_admit *a = &f->admit;
	const struct fwd_admit_addr *v;
	int blocked = 0;
	size_t i;

	for (i = fwd_addr_first(a->addrs, a->n_addrs, addr); i < a->n_addrs &&
	    memcmp(a->addrs[i].addr, addr, BS_ADDR_LEN) == 0; i++) {
		if (a->addrs[i].listed == FWD_ADMIT_BLOCK)
			blocked = 1;
		else if (fwd_key_ok(f, a->addrs[i].pk, role, lag))
			return 1;
	}
	if ((v = fwd_cert_addrs(a)) != NULL)
		for (i = fwd_addr_first(v, a->n_certs, addr); i < a->n_certs &&
		    memcmp(v[i].addr, addr, BS_ADDR_LEN) == 0; i++)
			if (fwd_key_ok(f, v[i].pk, role, lag))
				return 1;
	return role == FWD_ROLE_NODE && a->eff->mode == BS_POLICY_OPEN &&
	    !blocked;
}

/* ---- the gate ---------------------------------------------------------------- */

/* Why a message is refused, or NULL when it is admitted. */
static const char *
fwd_admit_refusal(struct fwd *f, uint16_t type,
    const union ipc_payload *u)
{
	const struct ipc_ctx_neigh *nh;
	struct wire_ogm_head oh;
	const uint64_t lag = FWD_ADMIT_CERT_LAG;

	switch (type) {
	case IPC_NEIGH:
		if (u->neigh.state == IPC_NEIGH_UP &&
		    !fwd_key_ok(f, u->neigh.pk, FWD_ROLE_NODE, lag))
			return "neighbour key not admitted by the policy";
		return NULL;
	case IPC_LINK_KEY_REQ:
		if (!fwd_key_ok(f, u->link_key_req.peer_pk, FWD_ROLE_NODE, lag))
			return "peer key not admitted by the policy";
		return NULL;
	case IPC_ROUTE_ADD:
		if (!fwd_key_ok(f, u->route.orig_pk, FWD_ROLE_NODE, lag))
			return "originator key not admitted by the policy";
		nh = ipc_ctx_neigh_find(&f->parser.ctx, u->route.nexthop,
		    u->route.ifindex);
		if (nh == NULL || !fwd_key_ok(f, nh->pk, FWD_ROLE_NODE, lag))
			return "next hop's key not admitted by the policy";
		return NULL;
	case IPC_TT:
		if (u->tt.count > 0 &&
		    !fwd_addr_ok(f, u->tt.orig_addr, FWD_ROLE_NODE, lag))
			return "originator not admitted by the policy";
		return NULL;
	case IPC_MCAST:
		if (u->mcast.known &&
		    !fwd_addr_ok(f, u->mcast.orig_addr, FWD_ROLE_NODE, lag))
			return "originator not admitted by the policy";
		return NULL;
	case IPC_GW:
		if (u->gw.op == IPC_GW_ANNOUNCE &&
		    !fwd_addr_ok(f, u->gw.orig_addr, FWD_ROLE_GATEWAY, lag))
			return "originator may not be a gateway by the policy";
		return NULL;
	case IPC_RELAY:
		if (wire_ogm_head_get(u->relay.entry, u->relay.len, &oh) !=
		    WIRE_OK || (oh.pk != NULL ? !fwd_key_ok(f, oh.pk,
		    FWD_ROLE_NODE, lag) : !fwd_addr_ok(f, oh.orig,
		    FWD_ROLE_NODE, lag)))
			return "relayed OGM's originator key not admitted by "
			    "the policy";
		return NULL;
	case IPC_PIN:
		if (!fwd_pin_ok(f, u->pin.pk))
			return "no pin allowed for this key (mode open "
			    "strangers only)";
		return NULL;
	default:
		return NULL;
	}
}

int
fwd_admit_gate(void *arg, const struct ipc_msg *m, char *why, size_t whylen)
{
	static union ipc_payload u;	/* up to 4 KiB: not on the stack */
	struct fwd *f = arg;
	uint16_t type = m->hdr.type;
	const char *no;

	fwd_admit_sync(f);
	if (f->admit.eff == NULL) {	/* none, or out of memory */
		log_errf(why, whylen, "no policy to check IPC %s against",
		    ipc_type_name(type));
		return IPC_CHECK_BAD;
	}
	fwd_cert_follow_parser(f);
	if (ipc_get(m, type, &u, ipc_obj_size(type)) != 0)
		return IPC_CHECK_BAD;	/* ipc_check passed it: cannot be */
	if ((no = fwd_admit_refusal(f, type, &u)) == NULL)
		return IPC_CHECK_OK;
	f->admit.refused++;
	log_errf(why, whylen, "IPC %s: %s", ipc_type_name(type), no);
	if (!fwd_parser_settled(&f->parser) || f->policy_pending) {
		log_rl(&f->admit.rl, LOG_INFO, "%s; dropped (the parser has "
		    "not read the newest policy yet)", why);
		return IPC_CHECK_STALE;
	}
	return IPC_CHECK_BAD;
}

/* ---- the effective policy and its address index ------------------------------ */

static int
fwd_addr_cmp(const void *x, const void *y)
{
	const struct fwd_admit_addr *p = x, *q = y;
	int c = memcmp(p->addr, q->addr, BS_ADDR_LEN);

	return c != 0 ? c : (int)p->listed - (int)q->listed;
}

/* Index the trust, block and revoke lists of pol by address. */
static int
fwd_addr_build(struct fwd_admit *a, const struct bs_policy *pol)
{
	size_t n = pol->n_trust + pol->n_block + pol->n_revoke, i, k = 0;
	struct fwd_admit_addr *v;

	if ((v = calloc(n + 1, sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < pol->n_trust; i++, k++) {
		memcpy(v[k].pk, pol->trust[i].pk, BS_PK_LEN);
		v[k].listed = FWD_ADMIT_TRUST;
	}
	for (i = 0; i < pol->n_block; i++, k++) {
		memcpy(v[k].pk, pol->block[i].pk, BS_PK_LEN);
		v[k].listed = FWD_ADMIT_BLOCK;
	}
	for (i = 0; i < pol->n_revoke; i++, k++) {
		memcpy(v[k].pk, pol->revoke[i].pk, BS_PK_LEN);
		v[k].listed = FWD_ADMIT_BLOCK;
	}
	for (i = 0; i < k; i++)
		bs_mesh_addr(v[i].addr, v[i].pk);
	qsort(v, k, sizeof(*v), fwd_addr_cmp);
	free(a->addrs);
	a->addrs = v;
	a->n_addrs = k;
	return 0;
}

/* ---- removal ------------------------------------------------------------------ */

/* Addresses collected before the tables change (their iterators). */
#define FWD_ADMIT_GONE_MAX	(FWD_RTT_MAX + FWD_ROUTE_MAX)

struct fwd_gone {
	uint8_t addr[FWD_ADMIT_GONE_MAX][BS_ADDR_LEN];
	size_t n;
	struct ipc_neigh neigh[FWD_NEIGH_MAX];
	size_t n_neigh;
};

static void
fwd_gone_add(struct fwd_gone *g, const uint8_t addr[static BS_ADDR_LEN])
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (memcmp(g->addr[i], addr, BS_ADDR_LEN) == 0)
			return;
	if (g->n < FWD_ADMIT_GONE_MAX)
		memcpy(g->addr[g->n++], addr, BS_ADDR_LEN);
}

/* Routes to refused originators or through refused neighbours. */
static size_t
fwd_sweep_routes(struct fwd *f, struct fwd_gone *g)
{
	const struct fwd_route *r;
	const struct fwd_neigh *nh;
	size_t cursor = 0, i, n;

	g->n = 0;
	while ((r = fwd_route_next(f->tables, &cursor)) != NULL) {
		nh = fwd_neigh_find(f->tables, r->nexthop, r->ifindex);
		if (!fwd_key_ok(f, r->orig_pk, FWD_ROLE_NODE, 0) ||
		    (nh != NULL && !fwd_key_ok(f, nh->pk, FWD_ROLE_NODE, 0)))
			fwd_gone_add(g, r->orig_addr);
	}
	for (i = 0, n = 0; i < g->n; i++) {
		n += (size_t)fwd_route_del(f->tables, g->addr[i]);
		fwd_fast_route_changed(f, g->addr[i]);
		if (!fwd_addr_ok(f, g->addr[i], FWD_ROLE_NODE, 0))
			fwd_e2e_forget(f->tables, g->addr[i]);
	}
	return n;
}

/* Neighbours with refused keys, their link and hop keys with them. */
static size_t
fwd_sweep_neigh(struct fwd *f, struct fwd_gone *g)
{
	struct fwd_neigh *n;
	struct ipc_neigh *d;
	size_t cursor = 0, i;

	g->n_neigh = 0;
	while ((n = fwd_neigh_next(f->tables, 0, &cursor)) != NULL) {
		if (fwd_key_ok(f, n->pk, FWD_ROLE_NODE, 0) ||
		    g->n_neigh >= FWD_NEIGH_MAX)
			continue;
		d = &g->neigh[g->n_neigh++];
		memset(d, 0, sizeof(*d));
		memcpy(d->pk, n->pk, BS_PK_LEN);
		memcpy(d->addr, n->addr, BS_ADDR_LEN);
		memcpy(d->mac, n->mac, BS_ADDR_LEN);
		d->ifindex = n->ifindex;
		d->state = IPC_NEIGH_DOWN;
	}
	for (i = 0; i < g->n_neigh; i++)
		(void)fwd_neigh_update(f->tables, &g->neigh[i], log_now_ms());
	if (g->n_neigh > 0)
		f->fast_dirty = 1;
	return g->n_neigh;
}

/* Client lists and gateway announcements of refused originators. */
static size_t
fwd_sweep_clients(struct fwd *f, struct fwd_gone *g)
{
	const struct fwd_client *c;
	const struct fwd_gw *gw;
	struct ipc_tt tt;
	struct ipc_gw w;
	size_t cursor = 0, i, n = 0;

	g->n = 0;
	while ((c = fwd_client_next(f->tables, &cursor)) != NULL)
		if (!fwd_addr_ok(f, c->orig_addr, FWD_ROLE_NODE, 0))
			fwd_gone_add(g, c->orig_addr);
	memset(&tt, 0, sizeof(tt));
	for (i = 0; i < g->n; i++, n++) {
		memcpy(tt.orig_addr, g->addr[i], BS_ADDR_LEN);
		(void)fwd_client_set(f->tables, &tt, log_now_ms());
	}
	g->n = 0;
	cursor = 0;
	while ((gw = fwd_gw_next(f->tables, &cursor)) != NULL)
		if (!fwd_addr_ok(f, gw->orig_addr, FWD_ROLE_GATEWAY, 0))
			fwd_gone_add(g, gw->orig_addr);
	memset(&w, 0, sizeof(w));
	w.op = IPC_GW_WITHDRAW;
	for (i = 0; i < g->n; i++, n++) {
		memcpy(w.orig_addr, g->addr[i], BS_ADDR_LEN);
		(void)fwd_gw_update(f->tables, &w, log_now_ms());
	}
	return n;
}

/* Everything the effective policy no longer admits leaves the tables. */
static void
fwd_admit_sweep(struct fwd *f, const char *why)
{
	static struct fwd_gone g;	/* large: not on the stack */
	size_t routes, neigh, clients;

	if (f->tables == NULL || f->admit.eff == NULL)
		return;
	routes = fwd_sweep_routes(f, &g);
	neigh = fwd_sweep_neigh(f, &g);
	clients = fwd_sweep_clients(f, &g);
	if (routes + neigh + clients == 0)
		return;
	f->admit.removed += routes + neigh + clients;
	f->gw_dirty = 1;	/* a gateway in use may have gone */
	log_info("%s: removed %zu neighbours, %zu routes and the clients or "
	    "gateway of %zu originators that it no longer admits", why, neigh,
	    routes, clients);
}

void
fwd_admit_sync(struct fwd *f)
{
	struct fwd_admit *a = &f->admit;
	struct bs_policy *owned = NULL, *eff;
	const struct bs_policy *pol;
	struct log_rl rl = LOG_RL_INIT(10, 1);

	if (f->policy == NULL || (a->eff != NULL &&
	    a->serial == f->policy_serial))
		return;
	if (a->eff == NULL)
		a->rl = rl;
	if ((pol = fwd_trust_effective(f, &owned)) == NULL ||
	    (eff = owned != NULL ? owned : bs_policy_dup(pol)) == NULL ||
	    fwd_addr_build(a, eff) != 0) {
		/* Keep the old one; try again at the next call. */
		log_warnx("policy check: out of memory");
		bs_policy_free(owned);
		return;
	}
	bs_policy_free(a->eff);
	a->eff = eff;
	a->serial = f->policy_serial;
	fwd_admit_sweep(f, "policy");
}

void
fwd_admit_tick(struct fwd *f, uint64_t now_ms)
{
	(void)now_ms;
	fwd_admit_sync(f);
	if (f->admit.n_certs > 0)
		fwd_admit_sweep(f, "certificates");
}

void
fwd_admit_stop(struct fwd *f)
{
	struct fwd_admit *a = &f->admit;

	bs_policy_free(a->eff);
	free(a->addrs);
	free(a->certs);
	free(a->cert_addrs);
	memset(a, 0, sizeof(*a));
}
