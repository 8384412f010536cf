/*
 * fwd_tables.c — the forwarder's bounded tables (see fwd_tables.h).
 *
 * Every table is a fixed array of slots with a free list and a chained hash
 * index (int32 slot numbers, -1 ends a chain).  The hash is SipHash
 * (crypto_shorthash) under a key drawn at start-up, because several keys
 * come from the network unauthenticated (a BCAST originator field) or from
 * other hosts (client MACs): an attacker who cannot predict the bucket
 * cannot make one long chain.  Iteration walks slots, never buckets, so
 * its order does not depend on the key.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "fwd_tables.h"

#define FWD_NIL		(-1)

/* Bucket counts: powers of two, twice the capacity. */
#define FWD_NEIGH_BUCKETS	(2 * FWD_NEIGH_MAX)
#define FWD_ROUTE_BUCKETS	(2 * FWD_ROUTE_MAX)
#define FWD_RTT_BUCKETS		(2 * FWD_RTT_MAX)
#define FWD_GW_BUCKETS		(2 * FWD_GW_MAX)
#define FWD_LTT_BUCKETS		(2 * FWD_LTT_MAX)
#define FWD_E2E_BUCKETS	(2 * FWD_E2E_MAX)

_Static_assert((FWD_NEIGH_BUCKETS & (FWD_NEIGH_BUCKETS - 1)) == 0, "pow2");
_Static_assert((FWD_ROUTE_BUCKETS & (FWD_ROUTE_BUCKETS - 1)) == 0, "pow2");
_Static_assert((FWD_RTT_BUCKETS & (FWD_RTT_BUCKETS - 1)) == 0, "pow2");
_Static_assert((FWD_GW_BUCKETS & (FWD_GW_BUCKETS - 1)) == 0, "pow2");
_Static_assert((FWD_LTT_BUCKETS & (FWD_LTT_BUCKETS - 1)) == 0, "pow2");
_Static_assert((FWD_E2E_BUCKETS & (FWD_E2E_BUCKETS - 1)) == 0, "pow2");

/*
 * The replay windows of a neighbour that went, kept for when it comes
 * back with the same key, MAC and epoch on the same interface: its
 * frames recorded before then must not pass again.  FWD_NEIGH_MAX are
 * kept, the oldest reused.
 */
struct fwd_hop_keep {
	uint8_t pk[BS_PK_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint32_t ifindex;		/* 0: free */
	uint32_t epoch;
	struct bs_replay rx[FWD_HOP_LANES];
};

struct fwd_tables {
	struct fwd_hop_keep keep[FWD_NEIGH_MAX];
	size_t keep_next;
	size_t keep_n;			/* slots written so far (<= MAX) */
	uint8_t hkey[crypto_shorthash_KEYBYTES];
	struct fwd_tables_counters c;

	struct fwd_neigh neigh[FWD_NEIGH_MAX];
	int32_t neigh_addr_idx[FWD_NEIGH_BUCKETS];
	int32_t neigh_mac_idx[FWD_NEIGH_BUCKETS];
	int32_t neigh_free;
	int32_t neigh_hw;		/* slots from here on never used */
	size_t n_neigh;

	struct fwd_route route[FWD_ROUTE_MAX];
	int32_t route_idx[FWD_ROUTE_BUCKETS];
	int32_t route_free;
	int32_t route_hw;		/* slots from here on never used */
	size_t n_route;

	struct fwd_client client[FWD_RTT_MAX];
	int32_t client_idx[FWD_RTT_BUCKETS];
	int32_t client_free;
	int32_t client_hw;		/* slots from here on never used */
	size_t n_client;

	struct fwd_gw gw[FWD_GW_MAX];
	int32_t gw_idx[FWD_GW_BUCKETS];
	int32_t gw_free;
	int32_t gw_hw;			/* slots from here on never used */
	size_t n_gw;

	struct fwd_local local[FWD_LTT_MAX];
	int32_t local_idx[FWD_LTT_BUCKETS];
	int32_t local_free;
	int32_t local_hw;		/* slots from here on never used */
	size_t n_local;
	uint64_t local_version;
	uint8_t withdrawn_mac[BS_ADDR_LEN];	/* the last one withdrawn */
	uint16_t withdrawn_vid;
	uint64_t withdraw_window_ms;	/* FWD_ROAM_WINDOW_MS budget */
	unsigned withdraw_n;
	uint8_t own_mac[BS_ADDR_LEN];
	int has_own;
	int local_isolated;		/* our clients are isolated */

	struct fwd_e2e e2e[FWD_E2E_MAX];
	int32_t e2e_idx[FWD_E2E_BUCKETS];
	size_t n_e2e;			/* slots handed out so far */
	size_t e2e_evict;		/* next slot to reuse when full */
};

/* ---- counters ------------------------------------------------------------- */

COUNTERS_DEFINE(fwd_dcount_name, fwd_dcount_get, fwd_dcount, FWD_DCOUNT_LIST)

/* ---- hashing ------------------------------------------------------------------ */

/* Bucket of (a 6-byte address or MAC, a 32-bit qualifier). */
static uint32_t
fwd_hash(const struct fwd_tables *t, const uint8_t a[static BS_ADDR_LEN],
    uint32_t q, uint32_t nbuckets)
{
	uint8_t in[BS_ADDR_LEN + 4], out[crypto_shorthash_BYTES];
	uint32_t h;

	memcpy(in, a, BS_ADDR_LEN);
	memcpy(in + BS_ADDR_LEN, &q, 4);
	crypto_shorthash(out, in, sizeof(in), t->hkey);
	memcpy(&h, out, sizeof(h));
	return h & (nbuckets - 1);
}

static int
fwd_addr_eq(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, BS_ADDR_LEN) == 0;
}

/*
 * Unlink slot i from the chain starting at *head, where next_of(j) gives
 * the link field of slot j.  The chain is bounded by the table size.
 */
#define FWD_UNLINK(head, arr, field, i) do {				\
	int32_t *pp_ = (head);						\
	while (*pp_ != FWD_NIL && *pp_ != (i))				\
		pp_ = &(arr)[*pp_].field;				\
	if (*pp_ == (i))						\
		*pp_ = (arr)[i].field;					\
} while (0)

static void
fwd_idx_clear(int32_t *idx, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		idx[i] = FWD_NIL;
}

/*
 * A free slot of arr into out: the most recently freed one, else the
 * first never used.  Slots from hw on have never been written (they
 * are zero, from calloc or a reset), so the pages of a big table that
 * the mesh does not need are never touched and cost no memory.  Every
 * walk over a table stops at its hw (and over keep at keep_n): reading
 * a never-written page makes it resident on a kernel without a shared
 * zero page, and costs a cache miss per slot on every kernel.
 * FWD_NIL when the table is full.
 */
#define FWD_SLOT_TAKE(out, arr, field, head, hw, max) do {		\
	if ((head) != FWD_NIL) {					\
		(out) = (head);						\
		(head) = (arr)[(out)].field;				\
	} else if ((hw) < (max))					\
		(out) = (hw)++;						\
	else								\
		(out) = FWD_NIL;					\
} while (0)

/* ---- life cycle -------------------------------------------------------------- */

static void
fwd_neigh_reset(struct fwd_tables *t)
{
	int32_t i;

	for (i = 0; i < t->neigh_hw; i++)
		sodium_memzero(&t->neigh[i], sizeof(t->neigh[i]));
	fwd_idx_clear(t->neigh_addr_idx, FWD_NEIGH_BUCKETS);
	fwd_idx_clear(t->neigh_mac_idx, FWD_NEIGH_BUCKETS);
	t->neigh_free = FWD_NIL;
	t->neigh_hw = 0;
	t->n_neigh = 0;
}

static void
fwd_route_reset(struct fwd_tables *t)
{
	memset(t->route, 0, (size_t)t->route_hw * sizeof(t->route[0]));
	fwd_idx_clear(t->route_idx, FWD_ROUTE_BUCKETS);
	t->route_free = FWD_NIL;
	t->route_hw = 0;
	t->n_route = 0;
}

static void
fwd_client_reset(struct fwd_tables *t)
{
	memset(t->client, 0, (size_t)t->client_hw * sizeof(t->client[0]));
	fwd_idx_clear(t->client_idx, FWD_RTT_BUCKETS);
	t->client_free = FWD_NIL;
	t->client_hw = 0;
	t->n_client = 0;
}

static void
fwd_gw_reset(struct fwd_tables *t)
{
	memset(t->gw, 0, (size_t)t->gw_hw * sizeof(t->gw[0]));
	fwd_idx_clear(t->gw_idx, FWD_GW_BUCKETS);
	t->gw_free = FWD_NIL;
	t->gw_hw = 0;
	t->n_gw = 0;
}

static void
fwd_local_reset(struct fwd_tables *t)
{
	memset(t->local, 0, (size_t)t->local_hw * sizeof(t->local[0]));
	fwd_idx_clear(t->local_idx, FWD_LTT_BUCKETS);
	t->local_free = FWD_NIL;
	t->local_hw = 0;
	t->n_local = 0;
	t->local_version++;
}

struct fwd_tables *
fwd_tables_new(void)
{
	struct fwd_tables *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	randombytes_buf(t->hkey, sizeof(t->hkey));
	fwd_neigh_reset(t);
	fwd_route_reset(t);
	fwd_client_reset(t);
	fwd_gw_reset(t);
	fwd_local_reset(t);
	fwd_idx_clear(t->e2e_idx, FWD_E2E_BUCKETS);
	return t;
}

void
fwd_tables_free(struct fwd_tables *t)
{
	if (t == NULL)
		return;
	sodium_memzero(t->neigh, sizeof(t->neigh));
	sodium_memzero(t->e2e, sizeof(t->e2e));
	free(t);
}

const struct fwd_tables_counters *
fwd_tables_counters(const struct fwd_tables *t)
{
	return &t->c;
}

void
fwd_tables_parser_reset(struct fwd_tables *t)
{
	fwd_neigh_reset(t);
	fwd_route_reset(t);
	fwd_client_reset(t);
	fwd_gw_reset(t);
}

/* ---- neighbours ------------------------------------------------------------ */

static int32_t
fwd_neigh_slot(const struct fwd_tables *t, const uint8_t *addr,
    uint32_t ifindex)
{
	int32_t i;

	i = t->neigh_addr_idx[fwd_hash(t, addr, ifindex, FWD_NEIGH_BUCKETS)];
	for (; i != FWD_NIL; i = t->neigh[i].next_addr_)
		if (t->neigh[i].ifindex == ifindex &&
		    fwd_addr_eq(t->neigh[i].addr, addr))
			return i;
	return FWD_NIL;
}

static void
fwd_neigh_link_mac(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->neigh[i].mac, t->neigh[i].ifindex,
	    FWD_NEIGH_BUCKETS);

	t->neigh[i].next_mac_ = t->neigh_mac_idx[h];
	t->neigh_mac_idx[h] = i;
}

static void
fwd_neigh_unlink_mac(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->neigh[i].mac, t->neigh[i].ifindex,
	    FWD_NEIGH_BUCKETS);

	FWD_UNLINK(&t->neigh_mac_idx[h], t->neigh, next_mac_, i);
}

/* Unlink slot i from both indexes, wipe it (link key) and free it. */
static void
fwd_neigh_keep(struct fwd_tables *t, const struct fwd_neigh *n)
{
	struct fwd_hop_keep *k = &t->keep[t->keep_next];

	t->keep_next = (t->keep_next + 1) % FWD_NEIGH_MAX;
	if (t->keep_n < FWD_NEIGH_MAX)
		t->keep_n++;
	memcpy(k->pk, n->pk, BS_PK_LEN);
	memcpy(k->mac, n->mac, BS_ADDR_LEN);
	k->ifindex = n->ifindex;
	k->epoch = n->epoch;
	memcpy(k->rx, n->hop.rx, sizeof(k->rx));
}

/* A new entry n takes the windows kept for it, if any. */
static void
fwd_neigh_unkeep(struct fwd_tables *t, struct fwd_neigh *n)
{
	struct fwd_hop_keep *k;
	size_t i;

	for (i = 0; i < t->keep_n; i++) {
		k = &t->keep[i];
		if (k->ifindex != n->ifindex || k->epoch != n->epoch ||
		    !fwd_addr_eq(k->mac, n->mac) ||
		    memcmp(k->pk, n->pk, BS_PK_LEN) != 0)
			continue;
		memcpy(n->hop.rx, k->rx, sizeof(n->hop.rx));
		memset(k, 0, sizeof(*k));
		return;
	}
}

static void
fwd_neigh_remove(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->neigh[i].addr, t->neigh[i].ifindex,
	    FWD_NEIGH_BUCKETS);

	if (t->neigh[i].hop.has_key)
		fwd_neigh_keep(t, &t->neigh[i]);

	FWD_UNLINK(&t->neigh_addr_idx[h], t->neigh, next_addr_, i);
	fwd_neigh_unlink_mac(t, i);
	sodium_memzero(&t->neigh[i], sizeof(t->neigh[i]));
	t->neigh[i].next_addr_ = t->neigh_free;
	t->neigh_free = i;
	t->n_neigh--;
}

static enum fwd_neigh_rc
fwd_neigh_insert(struct fwd_tables *t, const struct ipc_neigh *m,
    uint64_t now_ms)
{
	struct fwd_neigh *n;
	uint32_t h;
	int32_t i;

	FWD_SLOT_TAKE(i, t->neigh, next_addr_, t->neigh_free, t->neigh_hw,
	    FWD_NEIGH_MAX);
	if (i == FWD_NIL) {
		t->c.neigh_full++;
		return FWD_NEIGH_FULL;
	}
	n = &t->neigh[i];
	memset(n, 0, sizeof(*n));
	memcpy(n->pk, m->pk, BS_PK_LEN);
	memcpy(n->addr, m->addr, BS_ADDR_LEN);
	memcpy(n->mac, m->mac, BS_ADDR_LEN);
	n->ifindex = m->ifindex;
	n->tq = m->tq;
	n->rx_count = m->rx_count;
	n->epoch = m->epoch;
	memcpy(n->salt, m->salt, BS_LINKSALT_LEN);
	fwd_neigh_unkeep(t, n);
	n->up_ms = n->last_ms = now_ms;
	n->used_ = 1;
	h = fwd_hash(t, n->addr, n->ifindex, FWD_NEIGH_BUCKETS);
	n->next_addr_ = t->neigh_addr_idx[h];
	t->neigh_addr_idx[h] = i;
	fwd_neigh_link_mac(t, i);
	t->n_neigh++;
	return FWD_NEIGH_NEW;
}

/* UP for neighbour slot i that exists already. */
static enum fwd_neigh_rc
fwd_neigh_refresh(struct fwd_tables *t, int32_t i, const struct ipc_neigh *m,
    uint64_t now_ms)
{
	struct fwd_neigh *n = &t->neigh[i];
	int changed = 0;

	if (!fwd_addr_eq(n->mac, m->mac)) {
		fwd_neigh_unlink_mac(t, i);
		memcpy(n->mac, m->mac, BS_ADDR_LEN);
		sodium_memzero(&n->hop, sizeof(n->hop));	/* bound to MACs */
		fwd_neigh_link_mac(t, i);
		changed = 1;
	}
	if (n->tq != m->tq || n->rx_count != m->rx_count)
		changed = 1;
	if (n->epoch != m->epoch) {
		/* Another epoch: another hop key (fwd_data.c). */
		sodium_memzero(&n->hop, sizeof(n->hop));
		n->epoch = m->epoch;
		changed = 1;
	}
	if (memcmp(n->salt, m->salt, BS_LINKSALT_LEN) != 0) {
		/* A new salt: fwd_links.c makes the new key. */
		memcpy(n->salt, m->salt, BS_LINKSALT_LEN);
		changed = 1;
	}
	n->tq = m->tq;
	n->rx_count = m->rx_count;
	n->last_ms = now_ms;
	return changed ? FWD_NEIGH_CHANGED : FWD_NEIGH_SAME;
}

enum fwd_neigh_rc
fwd_neigh_update(struct fwd_tables *t, const struct ipc_neigh *m,
    uint64_t now_ms)
{
	int32_t i = fwd_neigh_slot(t, m->addr, m->ifindex);

	if (m->state != IPC_NEIGH_UP) {
		if (i == FWD_NIL)
			return FWD_NEIGH_UNKNOWN;
		fwd_neigh_remove(t, i);
		return FWD_NEIGH_GONE;
	}
	if (i != FWD_NIL && sodium_memcmp(t->neigh[i].pk, m->pk,
	    BS_PK_LEN) != 0) {
		/* ipc_check refuses this; never keep a key under a new pk. */
		fwd_neigh_remove(t, i);
		i = FWD_NIL;
	}
	if (i == FWD_NIL)
		return fwd_neigh_insert(t, m, now_ms);
	return fwd_neigh_refresh(t, i, m, now_ms);
}

struct fwd_neigh *
fwd_neigh_find(struct fwd_tables *t, const uint8_t addr[static BS_ADDR_LEN],
    uint32_t ifindex)
{
	int32_t i = fwd_neigh_slot(t, addr, ifindex);

	return i == FWD_NIL ? NULL : &t->neigh[i];
}

struct fwd_neigh *
fwd_neigh_find_mac(struct fwd_tables *t, const uint8_t mac[static BS_ADDR_LEN],
    uint32_t ifindex)
{
	int32_t i;

	i = t->neigh_mac_idx[fwd_hash(t, mac, ifindex, FWD_NEIGH_BUCKETS)];
	for (; i != FWD_NIL; i = t->neigh[i].next_mac_)
		if (t->neigh[i].ifindex == ifindex &&
		    fwd_addr_eq(t->neigh[i].mac, mac))
			return &t->neigh[i];
	return NULL;
}

struct fwd_neigh *
fwd_neigh_find_pk(struct fwd_tables *t, const uint8_t pk[static BS_PK_LEN],
    uint32_t ifindex)
{
	struct fwd_neigh *n;
	uint8_t addr[BS_ADDR_LEN];

	bs_mesh_addr(addr, pk);
	n = fwd_neigh_find(t, addr, ifindex);
	if (n == NULL || memcmp(n->pk, pk, BS_PK_LEN) != 0)
		return NULL;
	return n;
}

struct fwd_neigh *
fwd_neigh_next(struct fwd_tables *t, uint32_t ifindex, size_t *cursor)
{
	size_t i;

	for (i = *cursor; i < (size_t)t->neigh_hw; i++) {
		if (!t->neigh[i].used_)
			continue;
		if (ifindex != 0 && t->neigh[i].ifindex != ifindex)
			continue;
		*cursor = i + 1;
		return &t->neigh[i];
	}
	*cursor = FWD_NEIGH_MAX;
	return NULL;
}

size_t
fwd_neigh_count(const struct fwd_tables *t, uint32_t ifindex)
{
	size_t i, n = 0;

	if (ifindex == 0)
		return t->n_neigh;
	for (i = 0; i < (size_t)t->neigh_hw; i++)
		if (t->neigh[i].used_ && t->neigh[i].ifindex == ifindex)
			n++;
	return n;
}

size_t
fwd_neigh_flush_iface(struct fwd_tables *t, uint32_t ifindex)
{
	size_t n = 0;
	int32_t i;

	for (i = 0; i < t->neigh_hw; i++) {
		if (t->neigh[i].used_ && t->neigh[i].ifindex == ifindex) {
			fwd_neigh_remove(t, i);
			n++;
		}
	}
	return n;
}

/* ---- routes ---------------------------------------------------------------- */

static int32_t
fwd_route_slot(const struct fwd_tables *t, const uint8_t *addr)
{
	int32_t i = t->route_idx[fwd_hash(t, addr, 0, FWD_ROUTE_BUCKETS)];

	for (; i != FWD_NIL; i = t->route[i].next_)
		if (fwd_addr_eq(t->route[i].orig_addr, addr))
			return i;
	return FWD_NIL;
}

static void
fwd_route_remove(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->route[i].orig_addr, 0, FWD_ROUTE_BUCKETS);

	FWD_UNLINK(&t->route_idx[h], t->route, next_, i);
	memset(&t->route[i], 0, sizeof(t->route[i]));
	t->route[i].next_ = t->route_free;
	t->route_free = i;
	t->n_route--;
}

int
fwd_route_add(struct fwd_tables *t, const struct ipc_route *r,
    uint64_t now_ms)
{
	struct fwd_route *e;
	int32_t i = fwd_route_slot(t, r->orig_addr);
	uint32_t h;

	if (i == FWD_NIL) {
		FWD_SLOT_TAKE(i, t->route, next_, t->route_free,
		    t->route_hw, FWD_ROUTE_MAX);
		if (i == FWD_NIL) {
			t->c.route_full++;
			return -1;
		}
		e = &t->route[i];
		memset(e, 0, sizeof(*e));
		memcpy(e->orig_addr, r->orig_addr, BS_ADDR_LEN);
		e->added_ms = now_ms;
		e->used_ = 1;
		h = fwd_hash(t, e->orig_addr, 0, FWD_ROUTE_BUCKETS);
		e->next_ = t->route_idx[h];
		t->route_idx[h] = i;
		t->n_route++;
	}
	e = &t->route[i];
	memcpy(e->orig_pk, r->orig_pk, BS_PK_LEN);
	memcpy(e->nexthop, r->nexthop, BS_ADDR_LEN);
	e->ifindex = r->ifindex;
	e->tq = r->tq;
	e->hops = r->hops;
	e->refresh_ms = now_ms;
	if (r->epoch > e->epoch)
		e->epoch = r->epoch;
	return 0;
}

int
fwd_route_alt(struct fwd_tables *t, const struct ipc_route_alt *a)
{
	int32_t i = fwd_route_slot(t, a->orig_addr);
	struct fwd_route *e;

	if (i == FWD_NIL || a->count > IPC_ROUTE_ALT_MAX)
		return -1;
	e = &t->route[i];
	memset(e->alt, 0, sizeof(e->alt));
	memcpy(e->alt, a->c, a->count * sizeof(a->c[0]));
	e->n_alt = a->count;
	return 0;
}

int
fwd_route_del(struct fwd_tables *t, const uint8_t orig_addr[static BS_ADDR_LEN])
{
	int32_t i = fwd_route_slot(t, orig_addr);

	if (i == FWD_NIL)
		return 0;
	fwd_route_remove(t, i);
	return 1;
}

const struct fwd_route *
fwd_route_find(const struct fwd_tables *t,
    const uint8_t orig_addr[static BS_ADDR_LEN])
{
	int32_t i = fwd_route_slot(t, orig_addr);

	return i == FWD_NIL ? NULL : &t->route[i];
}

const struct fwd_route *
fwd_route_next(const struct fwd_tables *t, size_t *cursor)
{
	size_t i;

	for (i = *cursor; i < (size_t)t->route_hw; i++) {
		if (t->route[i].used_) {
			*cursor = i + 1;
			return &t->route[i];
		}
	}
	*cursor = FWD_ROUTE_MAX;
	return NULL;
}

size_t
fwd_route_count(const struct fwd_tables *t)
{
	return t->n_route;
}

/* ---- remote translation table ------------------------------------------- */

static int32_t
fwd_client_slot(const struct fwd_tables *t, const uint8_t *mac, uint16_t vid)
{
	int32_t i = t->client_idx[fwd_hash(t, mac, vid, FWD_RTT_BUCKETS)];

	for (; i != FWD_NIL; i = t->client[i].next_)
		if (t->client[i].vid == vid && fwd_addr_eq(t->client[i].mac, mac))
			return i;
	return FWD_NIL;
}

static void
fwd_client_remove(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->client[i].mac, t->client[i].vid,
	    FWD_RTT_BUCKETS);

	FWD_UNLINK(&t->client_idx[h], t->client, next_, i);
	memset(&t->client[i], 0, sizeof(t->client[i]));
	t->client[i].next_ = t->client_free;
	t->client_free = i;
	t->n_client--;
}

/* Is (mac, vid) in the first n entries of e? */
static int
fwd_tt_has(const struct ipc_tt_entry *e, size_t n, const uint8_t *mac,
    uint16_t vid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].vid == vid && fwd_addr_eq(e[i].mac, mac))
			return 1;
	return 0;
}

static void fwd_local_contest(struct fwd_tables *, const uint8_t *, uint16_t,
    uint64_t);

/*
 * Store (mac, vid) -> orig.  An entry another originator had moves here
 * (the client roamed); since_ms restarts then.  0, or -1 when full.
 */
static int
fwd_client_put(struct fwd_tables *t, const uint8_t *orig,
    const struct ipc_tt_entry *e, uint64_t now_ms)
{
	struct fwd_client *c;
	int32_t i = fwd_client_slot(t, e->mac, e->vid);
	uint32_t h;

	if (i != FWD_NIL) {
		c = &t->client[i];
		if (!fwd_addr_eq(c->orig_addr, orig)) {
			memcpy(c->orig_addr, orig, BS_ADDR_LEN);
			c->since_ms = now_ms;
			fwd_local_contest(t, e->mac, e->vid, now_ms);
		}
		c->flags = e->flags;
		return 0;
	}
	FWD_SLOT_TAKE(i, t->client, next_, t->client_free, t->client_hw,
	    FWD_RTT_MAX);
	if (i == FWD_NIL) {
		t->c.client_full++;
		return -1;
	}
	c = &t->client[i];
	memcpy(c->mac, e->mac, BS_ADDR_LEN);
	c->vid = e->vid;
	memcpy(c->orig_addr, orig, BS_ADDR_LEN);
	c->flags = e->flags;
	c->since_ms = now_ms;
	c->used_ = 1;
	h = fwd_hash(t, c->mac, c->vid, FWD_RTT_BUCKETS);
	c->next_ = t->client_idx[h];
	t->client_idx[h] = i;
	t->n_client++;
	fwd_local_contest(t, e->mac, e->vid, now_ms);
	return 0;
}

/*
 * The whole table is walked once per IPC_TT (a change of an originator's
 * client list, or one page of a paged list: at most one per OGM, not a
 * per-frame event) to drop the entries the new list (or page) no longer
 * has.
 */
size_t
fwd_client_set(struct fwd_tables *t, const struct ipc_tt *m, uint64_t now_ms)
{
	size_t count = m->count <= IPC_TT_MAX ? m->count : IPC_TT_MAX;
	size_t k, stored = 0;
	int32_t i;

	for (i = 0; i < t->client_hw; i++) {
		struct fwd_client *c = &t->client[i];

		if (c->used_ && fwd_addr_eq(c->orig_addr, m->orig_addr) &&
		    (m->pages == 0 || wire_tt_bucket(c->mac, c->vid,
		    m->pages) == m->page) &&
		    !fwd_tt_has(m->e, count, c->mac, c->vid))
			fwd_client_remove(t, i);
	}
	for (k = 0; k < count; k++)
		if (fwd_client_put(t, m->orig_addr, &m->e[k], now_ms) == 0)
			stored++;
	return stored;
}

const struct fwd_client *
fwd_client_find(const struct fwd_tables *t,
    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid)
{
	int32_t i = fwd_client_slot(t, mac, vid);

	return i == FWD_NIL ? NULL : &t->client[i];
}

const struct fwd_client *
fwd_client_next(const struct fwd_tables *t, size_t *cursor)
{
	size_t i;

	for (i = *cursor; i < (size_t)t->client_hw; i++) {
		if (t->client[i].used_) {
			*cursor = i + 1;
			return &t->client[i];
		}
	}
	*cursor = FWD_RTT_MAX;
	return NULL;
}

size_t
fwd_client_count(const struct fwd_tables *t)
{
	return t->n_client;
}

/* ---- gateways --------------------------------------------------------------- */

static int32_t
fwd_gw_slot(const struct fwd_tables *t, const uint8_t *addr)
{
	int32_t i = t->gw_idx[fwd_hash(t, addr, 0, FWD_GW_BUCKETS)];

	for (; i != FWD_NIL; i = t->gw[i].next_)
		if (fwd_addr_eq(t->gw[i].orig_addr, addr))
			return i;
	return FWD_NIL;
}

static void
fwd_gw_remove(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->gw[i].orig_addr, 0, FWD_GW_BUCKETS);

	FWD_UNLINK(&t->gw_idx[h], t->gw, next_, i);
	memset(&t->gw[i], 0, sizeof(t->gw[i]));
	t->gw[i].next_ = t->gw_free;
	t->gw_free = i;
	t->n_gw--;
}

int
fwd_gw_update(struct fwd_tables *t, const struct ipc_gw *m, uint64_t now_ms)
{
	int32_t i = fwd_gw_slot(t, m->orig_addr);
	struct fwd_gw *g;
	uint32_t h;

	if (m->op != IPC_GW_ANNOUNCE) {
		if (i != FWD_NIL)
			fwd_gw_remove(t, i);
		return 0;
	}
	if (i == FWD_NIL) {
		FWD_SLOT_TAKE(i, t->gw, next_, t->gw_free, t->gw_hw,
		    FWD_GW_MAX);
		if (i == FWD_NIL) {
			t->c.gw_full++;
			return -1;
		}
		g = &t->gw[i];
		memcpy(g->orig_addr, m->orig_addr, BS_ADDR_LEN);
		g->used_ = 1;
		h = fwd_hash(t, g->orig_addr, 0, FWD_GW_BUCKETS);
		g->next_ = t->gw_idx[h];
		t->gw_idx[h] = i;
		t->n_gw++;
	}
	g = &t->gw[i];
	g->down = m->down;
	g->up = m->up;
	g->last_ms = now_ms;
	return 0;
}

const struct fwd_gw *
fwd_gw_find(const struct fwd_tables *t,
    const uint8_t orig_addr[static BS_ADDR_LEN])
{
	int32_t i = fwd_gw_slot(t, orig_addr);

	return i == FWD_NIL ? NULL : &t->gw[i];
}

const struct fwd_gw *
fwd_gw_next(const struct fwd_tables *t, size_t *cursor)
{
	size_t i;

	for (i = *cursor; i < (size_t)t->gw_hw; i++) {
		if (t->gw[i].used_) {
			*cursor = i + 1;
			return &t->gw[i];
		}
	}
	*cursor = FWD_GW_MAX;
	return NULL;
}

size_t
fwd_gw_count(const struct fwd_tables *t)
{
	return t->n_gw;
}

/* ---- local translation table -------------------------------------------- */

/* now - then, or 0 when the clock went backwards. */
static uint64_t
fwd_age(uint64_t now_ms, uint64_t then_ms)
{
	return now_ms > then_ms ? now_ms - then_ms : 0;
}

/* 0 (untagged) or WIRE_VID_TAGGED | 1..4094: what a TT entry may carry. */
static int
fwd_vid_ok(uint16_t vid)
{
	uint16_t id = vid & WIRE_VID_MASK;

	if (vid == 0)
		return 1;
	return vid == (WIRE_VID_TAGGED | id) && id != 0 && id != WIRE_VID_MASK;
}

static int32_t
fwd_local_slot(const struct fwd_tables *t, const uint8_t *mac, uint16_t vid)
{
	int32_t i = t->local_idx[fwd_hash(t, mac, vid, FWD_LTT_BUCKETS)];

	for (; i != FWD_NIL; i = t->local[i].next_)
		if (t->local[i].vid == vid && fwd_addr_eq(t->local[i].mac, mac))
			return i;
	return FWD_NIL;
}

static void
fwd_local_remove(struct fwd_tables *t, int32_t i)
{
	uint32_t h = fwd_hash(t, t->local[i].mac, t->local[i].vid,
	    FWD_LTT_BUCKETS);

	FWD_UNLINK(&t->local_idx[h], t->local, next_, i);
	memset(&t->local[i], 0, sizeof(t->local[i]));
	t->local[i].next_ = t->local_free;
	t->local_free = i;
	t->n_local--;
	t->local_version++;
}

/* A new entry; -1 when the table is full. */
static int
fwd_local_insert(struct fwd_tables *t, const uint8_t *mac, uint16_t vid,
    int permanent, uint64_t now_ms)
{
	struct fwd_local *l;
	int32_t i;
	uint32_t h;

	FWD_SLOT_TAKE(i, t->local, next_, t->local_free, t->local_hw,
	    FWD_LTT_MAX);
	if (i == FWD_NIL) {
		t->c.local_full++;
		return -1;
	}
	l = &t->local[i];
	memcpy(l->mac, mac, BS_ADDR_LEN);
	l->vid = vid;
	l->permanent = permanent;
	l->first_ms = l->last_ms = now_ms;
	l->contest_ms = 0;
	l->used_ = 1;
	h = fwd_hash(t, mac, vid, FWD_LTT_BUCKETS);
	l->next_ = t->local_idx[h];
	t->local_idx[h] = i;
	t->n_local++;
	t->local_version++;
	return 0;
}

int
fwd_local_set_own(struct fwd_tables *t, const uint8_t mac[static BS_ADDR_LEN],
    uint64_t now_ms)
{
	int32_t i;

	if (!wire_mac_is_unicast(mac))
		return -1;
	if (t->has_own && (i = fwd_local_slot(t, t->own_mac, 0)) != FWD_NIL)
		fwd_local_remove(t, i);
	t->has_own = 0;
	if ((i = fwd_local_slot(t, mac, 0)) != FWD_NIL)
		fwd_local_remove(t, i);
	if (fwd_local_insert(t, mac, 0, 1, now_ms) != 0)
		return -1;
	memcpy(t->own_mac, mac, BS_ADDR_LEN);
	t->has_own = 1;
	return 0;
}

int
fwd_local_learn(struct fwd_tables *t, const uint8_t mac[static BS_ADDR_LEN],
    uint16_t vid, uint64_t now_ms)
{
	int32_t i;

	if (!wire_mac_is_unicast(mac) || !fwd_vid_ok(vid))
		return 0;
	if ((i = fwd_local_slot(t, mac, vid)) != FWD_NIL) {
		t->local[i].last_ms = now_ms;
		return 0;
	}
	if (fwd_local_insert(t, mac, vid, 0, now_ms) != 0)
		return -1;
	t->c.local_learnt++;
	return 1;
}

int
fwd_local_forget(struct fwd_tables *t, const uint8_t mac[static BS_ADDR_LEN],
    uint16_t vid)
{
	int32_t i = fwd_local_slot(t, mac, vid);

	if (i == FWD_NIL || t->local[i].permanent)
		return 0;
	fwd_local_remove(t, i);
	return 1;
}

/* Withdraw local entry i if the budget allows: 1, else 0 (kept). */
static int
fwd_local_withdraw(struct fwd_tables *t, int32_t i, uint64_t now_ms)
{
	if (t->withdraw_window_ms == 0 ||
	    fwd_age(now_ms, t->withdraw_window_ms) >= FWD_ROAM_WINDOW_MS) {
		t->withdraw_window_ms = now_ms > 0 ? now_ms : 1;
		t->withdraw_n = 0;
	}
	if (t->withdraw_n >= FWD_ROAM_WITHDRAW_MAX) {
		t->local[i].contest_ms = 0;
		t->c.local_kept++;
		return 0;
	}
	t->withdraw_n++;
	memcpy(t->withdrawn_mac, t->local[i].mac, BS_ADDR_LEN);
	t->withdrawn_vid = t->local[i].vid;
	fwd_local_remove(t, i);
	t->c.local_withdrawn++;
	return 1;
}

void
fwd_local_last_withdrawn(const struct fwd_tables *t,
    uint8_t mac[static BS_ADDR_LEN], uint16_t *vid)
{
	memcpy(mac, t->withdrawn_mac, BS_ADDR_LEN);
	*vid = t->withdrawn_vid;
}

/* Roaming (fwd_client_set): another originator's claim of (mac, vid). */
static void
fwd_local_contest(struct fwd_tables *t, const uint8_t *mac, uint16_t vid,
    uint64_t now_ms)
{
	int32_t i = fwd_local_slot(t, mac, vid);

	if (i == FWD_NIL || t->local[i].permanent)
		return;
	t->c.local_contested++;
	if (fwd_age(now_ms, t->local[i].last_ms) >= FWD_ROAM_QUIET_MS) {
		(void)fwd_local_withdraw(t, i, now_ms);
	} else if (t->local[i].contest_ms == 0) {
		t->local[i].contest_ms = now_ms;
	}
}

const struct fwd_local *
fwd_local_find(const struct fwd_tables *t,
    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid)
{
	int32_t i = fwd_local_slot(t, mac, vid);

	return i == FWD_NIL ? NULL : &t->local[i];
}

const struct fwd_local *
fwd_local_next(const struct fwd_tables *t, size_t *cursor)
{
	size_t i;

	for (i = *cursor; i < (size_t)t->local_hw; i++) {
		if (t->local[i].used_) {
			*cursor = i + 1;
			return &t->local[i];
		}
	}
	*cursor = FWD_LTT_MAX;
	return NULL;
}

size_t
fwd_local_count(const struct fwd_tables *t)
{
	return t->n_local;
}

void
fwd_local_set_isolated(struct fwd_tables *t, int on)
{
	if (t->local_isolated != (on != 0))
		t->local_version++;
	t->local_isolated = on != 0;
}

int
fwd_local_isolated(const struct fwd_tables *t)
{
	return t->local_isolated;
}

int
fwd_local_is_own(const struct fwd_tables *t,
    const uint8_t mac[static BS_ADDR_LEN])
{
	return t->has_own && fwd_addr_eq(t->own_mac, mac);
}

unsigned
fwd_local_tt(const struct fwd_tables *t, struct wire_tt_entry *out,
    unsigned max, uint64_t *version)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < (size_t)t->local_hw && n < max; i++) {
		if (!t->local[i].used_)
			continue;
		out[n].mac = t->local[i].mac;
		out[n].vid = t->local[i].vid;
		/* The TAP's own MAC (the node itself) is never isolated. */
		out[n].flags = t->local_isolated && !t->local[i].permanent ?
		    WIRE_TT_F_ISOLATED : 0;
		n++;
	}
	if (version != NULL)
		*version = t->local_version;
	return n;
}

/* ---- purge ------------------------------------------------------------------ */

size_t
fwd_tables_purge(struct fwd_tables *t, uint64_t now_ms)
{
	size_t n = 0;
	int32_t i;

	for (i = 0; i < t->route_hw; i++) {
		if (t->route[i].used_ && fwd_age(now_ms,
		    t->route[i].refresh_ms) >= FWD_ROUTE_EXPIRE_MS) {
			fwd_route_remove(t, i);
			t->c.route_expired++;
			n++;
		}
	}
	for (i = 0; i < t->local_hw; i++) {
		struct fwd_local *l = &t->local[i];

		if (!l->used_ || l->permanent)
			continue;
		if (fwd_age(now_ms, l->last_ms) >= FWD_LTT_AGE_MS) {
			fwd_local_remove(t, i);
			t->c.local_aged++;
			n++;
		} else if (l->contest_ms != 0 && l->last_ms > l->contest_ms) {
			l->contest_ms = 0;	/* it spoke here since: ours */
		} else if (l->contest_ms != 0 &&
		    fwd_age(now_ms, l->contest_ms) >= FWD_ROAM_QUIET_MS) {
			if (fwd_local_withdraw(t, i, now_ms))
				n++;
		}
	}
	return n;
}

/* ---- per-originator data state ---------------------------------------------- */

static int32_t
fwd_e2e_slot(const struct fwd_tables *t, const uint8_t *orig)
{
	int32_t i = t->e2e_idx[fwd_hash(t, orig, 0, FWD_E2E_BUCKETS)];

	for (; i != FWD_NIL; i = t->e2e[i].next_)
		if (fwd_addr_eq(t->e2e[i].orig, orig))
			return i;
	return FWD_NIL;
}

/*
 * A slot for a new originator: the next unused one, or, when all are in
 * use, the one after the last reused (oldest first, in creation order).
 */
static int32_t
fwd_e2e_alloc(struct fwd_tables *t, const uint8_t *orig)
{
	struct fwd_e2e *p;
	uint32_t h;
	int32_t i;

	if (t->n_e2e < FWD_E2E_MAX) {
		i = (int32_t)t->n_e2e++;
	} else {
		i = (int32_t)t->e2e_evict;
		t->e2e_evict = (t->e2e_evict + 1) % FWD_E2E_MAX;
		if (t->e2e[i].used_) {	/* not forgotten (fwd_e2e_forget) */
			h = fwd_hash(t, t->e2e[i].orig, 0, FWD_E2E_BUCKETS);
			FWD_UNLINK(&t->e2e_idx[h], t->e2e, next_, i);
			t->c.e2e_evicted++;
		}
	}
	p = &t->e2e[i];
	sodium_memzero(p, sizeof(*p));
	memcpy(p->orig, orig, BS_ADDR_LEN);
	p->used_ = 1;
	h = fwd_hash(t, orig, 0, FWD_E2E_BUCKETS);
	p->next_ = t->e2e_idx[h];
	t->e2e_idx[h] = i;
	return i;
}

struct fwd_e2e *
fwd_e2e_get(struct fwd_tables *t, const uint8_t orig[static BS_ADDR_LEN],
    int create)
{
	int32_t i = fwd_e2e_slot(t, orig);

	if (i == FWD_NIL && create)
		i = fwd_e2e_alloc(t, orig);
	return i == FWD_NIL ? NULL : &t->e2e[i];
}

void
fwd_e2e_forget(struct fwd_tables *t, const uint8_t orig[static BS_ADDR_LEN])
{
	int32_t i = fwd_e2e_slot(t, orig);
	uint32_t h;

	if (i == FWD_NIL)
		return;
	h = fwd_hash(t, orig, 0, FWD_E2E_BUCKETS);
	FWD_UNLINK(&t->e2e_idx[h], t->e2e, next_, i);
	sodium_memzero(&t->e2e[i], sizeof(t->e2e[i]));
	t->e2e[i].next_ = FWD_NIL;
}

void
fwd_e2e_bcast_mark(struct fwd_tables *t, struct fwd_e2e *p, uint32_t epoch,
    uint32_t seqno)
{
	if (epoch > p->bcast_epoch) {
		if (p->bcast_epoch != 0)
			t->c.bcast_restarts++;
		memset(&p->bcast, 0, sizeof(p->bcast));
		p->bcast_epoch = epoch;
	}
	bs_replay_mark(&p->bcast, seqno);
}
