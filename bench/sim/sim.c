/*
 * sim.c — the simulator's engine: nodes (a pcore and a forwarder model
 * each), the event queue, frame delivery with loss, the attackers, and
 * the measurements (reachability, stretch, best-TQ agreement, rates,
 * memory).  See sim.h.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SIM_CALLGRIND	1
#endif
#endif

#include "batsec_policy.h"
#include "lib/t_ipc.h"
#include "lib/t_policy.h"
#include "sim.h"
#include "proto/ipc.h"
#include "proto/wire.h"

#define SIM_EPOCH	1
#define SIM_HELLO_MS	1000		/* batsec.conf defaults */
#define SIM_OGM_MS	1000
#define SIM_HOP_PENALTY	30
#define SIM_TICK_MS	1000

enum ev_type { EV_RX, EV_HELLO, EV_OGM, EV_FLUSH, EV_TICK, EV_BURST_HELLO,
    EV_BURST_OGM };

struct sim_frame {
	uint16_t len;
	uint8_t data[];
};

struct ev {
	uint64_t t;
	uint64_t seq;			/* ties: first scheduled first */
	uint32_t node;
	uint32_t type;
	struct sim_frame *f;		/* EV_RX */
};

/* The whole simulated mesh (one run at a time). */
struct sim {
	struct sim_opts o;
	struct sim_graph g;
	struct sim_node *nodes;
	uint8_t *dist;			/* n x n BFS hops, 255: beyond */
	unsigned *need;			/* see needed_counts() */
	uint64_t now, seq, rng;
	struct ev *heap;
	size_t nheap, capheap;
	/* addr -> node index, open addressing */
	uint64_t *mkey;
	uint32_t *mval;
	size_t mcap;
	uint8_t *snap;			/* the policy snapshot all load */
	size_t snap_len;
	struct fwd_agg agg;		/* one frame under construction */
	struct fwd_orig syb;		/* scratch for Sybil entries */
	uint64_t route_changes;
	uint32_t orig_cap;
	int fail;
	/* --cut: when one of the two first dropped the other, when both
	 * had (0: not yet), when both held each other again after it. */
	uint64_t cut_drop_ms, cut_both_ms, cut_back_ms;
	uint64_t cut_unrouted_ms, cut_routed_ms;	/* pairs, after T0 / T1 */
	/* Live mode: the packet socket (-1: none) and what crossed it. */
	int live_fd, live_ifindex;
	uint64_t live_tx, live_rx_ctl, live_rx_data;
};

static struct sim S;
static int sim_cur = -1;		/* the node pcore runs for, or -1 */
static const uint8_t sim_bcast[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

/* ---- event queue (binary heap) ----------------------------------------- */

static int
ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void
ev_push(uint64_t t, uint32_t node, uint32_t type, struct sim_frame *f)
{
	struct ev e = { t, S.seq++, node, type, f }, tmp;
	size_t i;

	if (S.nheap == S.capheap) {
		size_t cap = S.capheap ? S.capheap * 2 : 4096;
		struct ev *p = realloc(S.heap, cap * sizeof(*p));

		if (p == NULL) {
			fprintf(stderr, "batsec-sim: out of memory (events)\n");
			exit(1);
		}
		S.heap = p;
		S.capheap = cap;
	}
	i = S.nheap++;
	S.heap[i] = e;
	while (i > 0 && ev_less(&S.heap[i], &S.heap[(i - 1) / 2])) {
		tmp = S.heap[i];
		S.heap[i] = S.heap[(i - 1) / 2];
		S.heap[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static struct ev
ev_pop(void)
{
	struct ev top = S.heap[0], tmp;
	size_t i = 0, l, m;

	S.heap[0] = S.heap[--S.nheap];
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < S.nheap && ev_less(&S.heap[l], &S.heap[m]))
			m = l;
		if (l + 1 < S.nheap && ev_less(&S.heap[l + 1], &S.heap[m]))
			m = l + 1;
		if (m == i)
			break;
		tmp = S.heap[i];
		S.heap[i] = S.heap[m];
		S.heap[m] = tmp;
		i = m;
	}
	return top;
}

static uint64_t
sim_jitter(uint32_t ms)
{
	/* fwd_jitter's law (+-FWD_JITTER_PCT %), from the seeded PRNG. */
	uint32_t spread = ms * FWD_JITTER_PCT / 100;

	return ms - spread + sim_rand(&S.rng) % (2 * spread + 1);
}

/* ---- address map ------------------------------------------------------- */

static uint64_t
addr_key(const uint8_t a[static BS_ADDR_LEN])
{
	uint64_t k = 0;
	int i;

	for (i = 0; i < BS_ADDR_LEN; i++)
		k = k << 8 | a[i];
	return k + 1;			/* never 0: 0 marks a free slot */
}

static int
map_put(const uint8_t a[static BS_ADDR_LEN], uint32_t v)
{
	uint64_t k = addr_key(a);
	size_t i = (size_t)(k * 0x9e3779b97f4a7c15ull) & (S.mcap - 1);

	while (S.mkey[i] != 0) {
		if (S.mkey[i] == k)
			return -1;	/* two nodes, one address */
		i = (i + 1) & (S.mcap - 1);
	}
	S.mkey[i] = k;
	S.mval[i] = v;
	return 0;
}

static long
map_get(const uint8_t a[static BS_ADDR_LEN])
{
	uint64_t k = addr_key(a);
	size_t i = (size_t)(k * 0x9e3779b97f4a7c15ull) & (S.mcap - 1);

	while (S.mkey[i] != 0) {
		if (S.mkey[i] == k)
			return S.mval[i];
		i = (i + 1) & (S.mcap - 1);
	}
	return -1;
}

/* ---- the forwarder model ---------------------------------------------- */

static struct sim_fnb *
fnb_find(struct sim_node *v, const uint8_t pk[static BS_PK_LEN])
{
	unsigned i;

	for (i = 0; i < v->n_fnb; i++)
		if (memcmp(v->fnb[i].pk, pk, BS_PK_LEN) == 0)
			return &v->fnb[i];
	return NULL;
}

/* The forwarder's cold start (fwd_announce_burst): the same buckets. */
static void
burst(struct sim_node *v, int new_neigh)
{
	uint32_t idx = (uint32_t)(v - S.nodes);
	uint64_t due;

	/* As fwd_announce_relay_hold (fwd_announce_burst calls it). */
	fwd_relayq_hold(&v->orig.rq, S.now + FWD_RELAY_HOLD_OGMS *
	    (uint64_t)SIM_OGM_MS);
	if (S.o.no_burst)
		return;
	if (new_neigh)
		fwd_ogm_want_full(&v->orig, 2);	/* as fwd_announce_burst */
	if (new_neigh && fwd_bucket_due(&v->hello_burst) == 0) {
		due = fwd_bucket_want(&v->hello_burst, S.now, 0);
		ev_push(due, idx, EV_BURST_HELLO, NULL);
	}
	if (fwd_bucket_due(&v->orig.ogm_burst) == 0) {
		due = fwd_bucket_want(&v->orig.ogm_burst, S.now,
		    FWD_BURST_OGM_DELAY_MS);
		ev_push(due, idx, EV_BURST_OGM, NULL);
	}
}

/* IPC_NEIGH as the forwarder's table takes it; the link key at once. */
static void	sim_req_push(struct sim_node *v,
		    const struct ipc_link_key_req *r);

/*
 * Live mode, the real daemon as neighbour: its OGM key as batsecd's
 * forwarder derives it (fwd_links.c: the root of both ends' MAC, epoch
 * and link salt; our salt is the one send_hello() puts in our HELLOs),
 * again whenever its epoch or salt changes, handed to pcore unasked then.
 */
static void
live_ogm_key(struct sim_node *v, struct sim_fnb *b, const struct ipc_neigh *m)
{
	uint8_t lk[BS_LINKKEY_LEN], root[BS_LINKROOT_LEN], k[BS_LINKKEY_LEN];
	struct bs_hop_end me, peer;
	struct ipc_link_key_req r;

	if (bs_link_key(lk, &v->id, m->pk) != 0) {
		b->has_key = 0;
		return;
	}
	me.pk = v->id.pk;
	me.mac = v->mac;
	me.epoch = SIM_EPOCH;
	me.salt = v->id.pk;
	peer.pk = m->pk;
	peer.mac = m->mac;
	peer.epoch = m->epoch;
	peer.salt = m->salt;
	bs_link_root(root, lk, &me, &peer);
	bs_ogm_key(k, root);
	if (memcmp(k, b->key, sizeof(k)) != 0) {
		memcpy(b->key, k, sizeof(k));
		bs_link_keyid(b->key_id, b->key);
		b->has_key = 1;
		memcpy(r.peer_pk, m->pk, BS_PK_LEN);
		r.ifindex = m->ifindex;
		sim_req_push(v, &r);
	}
	sodium_memzero(lk, sizeof(lk));
	sodium_memzero(root, sizeof(root));
	sodium_memzero(k, sizeof(k));
}

static void
fwd_neigh(struct sim_node *v, const struct ipc_neigh *m)
{
	struct sim_fnb *b = fnb_find(v, m->pk);
	int created = 0, back;
	uint8_t old_tq;

	if (m->state == IPC_NEIGH_DOWN) {
		if (b != NULL) {
			sodium_memzero(b->key, sizeof(b->key));
			*b = v->fnb[--v->n_fnb];
			/* As fwd_apply_neigh (FWD_NEIGH_GONE). */
			fwd_relayq_hold(&v->orig.rq, S.now +
			    FWD_RELAY_HOLD_OGMS * (uint64_t)SIM_OGM_MS);
		}
		return;
	}
	if (b == NULL) {
		if (v->n_fnb == v->cap_fnb) {
			unsigned cap = v->cap_fnb ? v->cap_fnb * 2 : 8;
			struct sim_fnb *p = realloc(v->fnb, cap * sizeof(*p));

			if (p == NULL)
				return;
			v->fnb = p;
			v->cap_fnb = cap;
		}
		b = &v->fnb[v->n_fnb++];
		memset(b, 0, sizeof(*b));
		created = 1;
		memcpy(b->pk, m->pk, BS_PK_LEN);
		memcpy(b->addr, m->addr, BS_ADDR_LEN);
		if (bs_link_key(b->key, &v->id, b->pk) == 0) {
			bs_link_keyid(b->key_id, b->key);
			b->has_key = 1;
		}
	}
	/* As fwd_apply_neigh and fwd_announce_burst: who needs our
	 * signed HELLO (a restarted parser's burst: simulated parsers do
	 * not restart); one that comes back (IPC_NEIGH_F_BACK) gets
	 * neither signed HELLOs nor full OGMs. */
	back = (m->flags & IPC_NEIGH_F_BACK) != 0;
	if (created && !back)
		fwd_hello_want_sign(&v->hsign, 1);
	else if ((m->flags & IPC_NEIGH_F_SIGN) != 0)
		fwd_hello_want_sign(&v->hsign, 0);
	if ((m->flags & IPC_NEIGH_F_OWN) != 0)		/* as fwd_apply_neigh */
		fwd_ogm_want_full(&v->orig, 1);
	if ((m->flags & IPC_NEIGH_F_DESC) != 0)		/* as fwd_apply_neigh */
		v->orig.fresh_until_ms = S.now + FWD_FRESH_OGMS *
		    (uint64_t)SIM_OGM_MS;
	b->rx_count = m->rx_count;
	old_tq = b->tq;
	b->tq = m->tq;
	if (created || (old_tq == 0 && m->tq > 0))
		burst(v, created && !back);
	if (S.o.live_iface != NULL &&
	    memcmp(m->pk, S.o.live_pk, BS_PK_LEN) == 0)
		live_ogm_key(v, b, m);
}

static void flush(struct sim_node *v, int own);

/* A liar announces every relay with the best TQ its hop count allows. */
static void
liar_rewrite(struct ipc_relay *r)
{
	r->entry[1] = routing_tq_ceiling(r->entry[2], SIM_HOP_PENALTY);
}

static void
sim_req_push(struct sim_node *v, const struct ipc_link_key_req *r)
{
	if (v->n_req == v->cap_req) {
		unsigned cap = v->cap_req ? v->cap_req * 2 : 4;
		struct ipc_link_key_req *p = realloc(v->req, cap * sizeof(*p));

		if (p == NULL)
			return;
		v->req = p;
		v->cap_req = cap;
	}
	memcpy(&v->req[v->n_req++], r, sizeof(*v->req));
}

static int
sim_emit(void *arg, uint16_t type, const void *obj, size_t size)
{
	struct sim_node *v = arg;
	int64_t *acct = sim_heap_acct;

	(void)size;
	sim_heap_acct = NULL;		/* the forwarder's memory, not pcore's */
	switch (type) {
	case IPC_NEIGH:
		fwd_neigh(v, obj);
		break;
	case IPC_DESC_WANT:		/* as fwd_apply_desc_want */
		if (!S.o.no_want && fwd_want_add(&v->orig.want,
		    ((const struct ipc_desc_want *)obj)->orig_addr,
		    SIM_HELLO_MS, S.now) != 0)
			v->orig.c.want_full++;
		break;
	case IPC_HELLO_SIGN:		/* as fwd_apply_hello_sign */
		if (!S.o.no_sign_ask)
			fwd_hello_want_sign(&v->hsign, 0);
		break;
	case IPC_LINK_KEY_REQ:
		sim_req_push(v, obj);
		break;
	case IPC_RELAY: {
		struct ipc_relay r;

		memcpy(&r, obj, sizeof(r));
		if (v->role == SIM_LIAR)
			liar_rewrite(&r);
		/* As fwd_announce_relay: a frame's worth goes out first. */
		if (fwd_relayq_deadline(&v->orig.rq) == 1)
			flush(v, 0);
		v->relay_lost += fwd_relayq_push(&v->orig.rq, r.ifindex,
		    r.entry, r.len, S.now);
		break;
	}
	case IPC_ROUTE_ADD:
	case IPC_ROUTE_DEL:
		S.route_changes++;
		break;
	default:
		break;
	}
	sim_heap_acct = acct;
	return 0;
}

/* The forwarder answers LINK_KEY_REQs with the key it derived. */
static void
answer_keys(struct sim_node *v)
{
	struct ipc_link_key k;
	struct sim_fnb *b;
	unsigned i;

	for (i = 0; i < v->n_req; i++) {
		memset(&k, 0, sizeof(k));
		memcpy(k.peer_pk, v->req[i].peer_pk, BS_PK_LEN);
		k.ifindex = v->req[i].ifindex;
		b = fnb_find(v, k.peer_pk);
		if (b == NULL || !b->has_key)
			k.status = IPC_LINK_KEY_REFUSED;
		else {
			k.status = IPC_LINK_KEY_OK;
			memcpy(k.key, b->key, BS_LINKKEY_LEN);
			memcpy(k.key_id, b->key_id, BS_KEYID_LEN);
		}
		sim_heap_acct = &v->heap_tables;
		if (pcore_link_key(&v->pc, &k, NULL, 0) != 0)
			S.fail = 1;
		sim_heap_acct = NULL;
		sodium_memzero(&k, sizeof(k));
	}
	v->n_req = 0;
}

/* A frame leaves node u: everyone on the link hears it after the delay. */
static int
transmit(struct sim_node *u, const uint8_t *frame, size_t len)
{
	struct sim_frame *f = malloc(sizeof(*f) + len);

	if (f == NULL)
		return -1;
	f->len = (uint16_t)len;
	memcpy(f->data, frame, len);
	u->tx_bytes += len + 14;	/* Ethernet header counted */
	u->tx_frames++;
	if (S.live_fd >= 0 && (unsigned)(u - S.nodes) < S.o.live_k &&
	    sim_live_send(S.live_fd, S.live_ifindex, u->mac, frame,
	    len) == 0)
		S.live_tx++;
	ev_push(S.now + SIM_LINK_DELAY_MS, (uint32_t)(u - S.nodes), EV_RX, f);
	return 0;
}

static int
agg_emit(void *arg, const uint8_t *frame, size_t len)
{
	return transmit(arg, frame, len);
}

/*
 * A Sybil flooder's stranger OGMs: each key signs a fresh OGM; the entry
 * goes out as if relayed once (hops 1, prev_sender the stranger, the hop
 * chain stepped), which the hops-0 rule and the chain let through.
 */
static void
sybil_entries(struct sim_node *v, struct fwd_agg *a)
{
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	uint8_t elem[BS_CHAIN_LEN], saddr[BS_ADDR_LEN];
	unsigned i;

	v->syb_seqno++;
	for (i = 0; i < S.o.sybil_keys; i++) {
		S.syb.id = &v->syb[i];
		bs_mesh_addr(S.syb.own_addr, v->syb[i].pk);
		memcpy(saddr, S.syb.own_addr, BS_ADDR_LEN);
		S.syb.ogm_seqno = v->syb_seqno - 1;
		if (fwd_ogm_originate(&S.syb, NULL, 0, 0, 0) != WIRE_OK)
			continue;
		if (wire_ogm_mut_get(S.syb.own, S.syb.own_len, &m) !=
		    WIRE_OK)
			continue;
		bs_chain_step(elem, m.chain);
		m.ttl = FWD_OGM_TTL - 1;
		m.tq = routing_tq_ceiling(1, SIM_HOP_PENALTY);
		m.hops = 1;
		m.prev_sender = saddr;
		m.chain = elem;
		if (wire_ogm_mut_put(S.syb.own, WIRE_OGM_MUT_LEN, &m) ==
		    WIRE_OK)
			(void)fwd_agg_add(a, S.syb.own, S.syb.own_len);
	}
}

/* Own OGM (when own), the relay queue and any flood, aggregated. */
static void
flush(struct sim_node *v, int own)
{
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	size_t nkeys = 0, i;

	for (i = 0; i < v->n_fnb; i++) {
		if (!v->fnb[i].has_key)
			continue;
		if (nkeys < WIRE_MAX_TAGS) {
			keys[nkeys].key = v->fnb[i].key;
			keys[nkeys].key_id = v->fnb[i].key_id;
		}
		nkeys++;
	}
	fwd_agg_begin(&S.agg, &v->orig, keys, nkeys, SIM_MTU, agg_emit, v);
	if (own && v->orig.own_len > 0)
		(void)fwd_agg_add(&S.agg, v->orig.own, v->orig.own_len);
	for (i = 0; i < v->orig.rq.n; i++) {
		const struct fwd_relay_ent *e = fwd_relayq_at(&v->orig.rq, i);

		if (fwd_agg_add(&S.agg, e->entry, e->len) == WIRE_OK)
			v->orig.c.relay_sent++;
	}
	if (own && v->role == SIM_SYBIL)
		sybil_entries(v, &S.agg);
	(void)fwd_agg_end(&S.agg);
	fwd_relayq_clear(&v->orig.rq);
	v->flush_at = 0;
}

/* After pcore ran: relays waiting go out now (a full frame) or later. */
static void
relay_due(struct sim_node *v)
{
	uint64_t at = fwd_relayq_deadline(&v->orig.rq);

	if (at == 0)
		return;
	if (at <= S.now) {
		flush(v, 0);
		return;
	}
	if (v->flush_at == 0 || at < v->flush_at) {
		v->flush_at = at;
		ev_push(at, (uint32_t)(v - S.nodes), EV_FLUSH, NULL);
	}
}

static void
send_hello(struct sim_node *v)
{
	struct fwd_peer peers[WIRE_HELLO_MAX_NEIGH];
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	const uint8_t *want[WIRE_HELLO_MAX_WANT];
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	size_t n = 0, nkeys = 0, len = 0, i;
	unsigned nwant = fwd_want_list(&v->orig.want, S.now, want);

	for (i = 0; i < v->n_fnb && n < WIRE_HELLO_MAX_NEIGH; i++) {
		peers[n].addr = v->fnb[i].addr;
		peers[n++].rx_count = v->role == SIM_LIAR ? ROUTING_WINDOW :
		    v->fnb[i].rx_count;
	}
	for (i = 0; i < v->n_fnb; i++) {
		if (!v->fnb[i].has_key)
			continue;
		if (nkeys < WIRE_MAX_TAGS) {
			keys[nkeys].key = v->fnb[i].key;
			keys[nkeys].key_id = v->fnb[i].key_id;
		}
		nkeys++;
	}
	if (S.o.hello_sign || fwd_hello_sign_due(&v->hsign, n, nkeys)) {
		nkeys = 0;
		v->hello_signed++;
	}
	/* Link salt: any 16 bytes (the simulated forwarders hand out the
	 * static key, which the parser cannot tell from another). */
	if (fwd_hello_build_cert(&v->id, v->mac, SIM_HELLO_MS, SIM_EPOCH,
	    ++v->hello_seqno, v->id.pk, peers, n, NULL,
	    S.now < v->orig.fresh_until_ms ? WIRE_HELLO_F_FRESH : 0, keys,
	    nkeys, want, nwant, buf, sizeof(buf), &len) == WIRE_OK)
		(void)transmit(v, buf, len);
}

/* --cut: the link between x and y is down now. */
static int
cut_now(uint32_t x, uint32_t y)
{
	if (S.o.cut_t1_ms == 0 || S.now < S.o.cut_t0_ms ||
	    S.now >= S.o.cut_t1_ms)
		return 0;
	return (x == S.o.cut_a && y == S.o.cut_b) ||
	    (x == S.o.cut_b && y == S.o.cut_a);
}

/* --cut: after each event, whether the two hold each other (in their
 * forwarders' neighbour tables, as after IPC_NEIGH UP). */
static void
cut_watch(void)
{
	int ab, ba;

	if (S.o.cut_t1_ms == 0 || S.now < S.o.cut_t0_ms ||
	    S.cut_back_ms != 0)
		return;
	ab = fnb_find(&S.nodes[S.o.cut_a], S.nodes[S.o.cut_b].id.pk) != NULL;
	ba = fnb_find(&S.nodes[S.o.cut_b], S.nodes[S.o.cut_a].id.pk) != NULL;
	if (S.cut_drop_ms == 0 && (!ab || !ba))
		S.cut_drop_ms = S.now > 0 ? S.now : 1;
	if (S.cut_both_ms == 0 && !ab && !ba)
		S.cut_both_ms = S.now > 0 ? S.now : 1;
	if (S.cut_drop_ms != 0 && S.now >= S.o.cut_t1_ms && ab && ba)
		S.cut_back_ms = S.now;
}

static int converged(void);

/*
 * --cut: the first check after T0 at which a pair had no route, and the
 * first after T1 at which every pair had one again.
 */
static void
cut_routes(uint64_t now_ms)
{
	int all = converged();

	if (!all && S.cut_unrouted_ms == 0)
		S.cut_unrouted_ms = now_ms;
	if (all && now_ms >= S.o.cut_t1_ms && S.cut_unrouted_ms != 0)
		S.cut_routed_ms = now_ms;
}

/* --cut: the two nodes share a link in the graph. */
static int
cut_linked(void)
{
	const struct sim_graph *g = &S.g;
	unsigned k;

	if (S.o.cut_a >= S.o.n || S.o.cut_b >= S.o.n)
		return 0;
	for (k = g->off[S.o.cut_a]; k < g->off[S.o.cut_a + 1]; k++)
		if (g->adj[k] == S.o.cut_b)
			return 1;
	return 0;
}

/* --cut: one line on stderr, the re-link time after the cut ended. */
static void
cut_report(void)
{
	const struct sim_opts *o = &S.o;
	char both[48] = "";

	if (o->cut_t1_ms == 0)
		return;
	fprintf(stderr, "cut: nodes %u-%u, %.1f-%.1f s: ", o->cut_a, o->cut_b,
	    o->cut_t0_ms / 1000.0, o->cut_t1_ms / 1000.0);
	if (S.cut_drop_ms == 0) {
		fprintf(stderr, "neither dropped the other\n");
		return;
	}
	if (S.cut_both_ms != 0)
		snprintf(both, sizeof(both), ", both at %.1f s",
		    S.cut_both_ms / 1000.0);
	if (S.cut_back_ms == 0)
		fprintf(stderr, "first dropped at %.1f s%s, not re-linked by "
		    "%.1f s\n", S.cut_drop_ms / 1000.0, both, S.now / 1000.0);
	else
		fprintf(stderr, "first dropped at %.1f s%s, re-linked at "
		    "%.1f s, relink %.1f s after the cut\n",
		    S.cut_drop_ms / 1000.0, both, S.cut_back_ms / 1000.0,
		    (S.cut_back_ms - o->cut_t1_ms) / 1000.0);
	if (S.cut_unrouted_ms == 0)
		fprintf(stderr, "cut: every pair kept a route\n");
	else if (S.cut_routed_ms == 0)
		fprintf(stderr, "cut: a pair unrouted from %.1f s, not all "
		    "routed again by %.1f s\n", S.cut_unrouted_ms / 1000.0,
		    S.now / 1000.0);
	else
		fprintf(stderr, "cut: a pair unrouted from %.1f s, all routed "
		    "again at %.1f s, %.1f s after the cut\n",
		    S.cut_unrouted_ms / 1000.0, S.cut_routed_ms / 1000.0,
		    (S.cut_routed_ms - o->cut_t1_ms) / 1000.0);
}

static void
deliver(uint32_t from, struct sim_frame *f)
{
	const struct sim_graph *g = &S.g;
	struct sim_node *u = &S.nodes[from], *v;
	unsigned k;

	for (k = g->off[from]; k < g->off[from + 1]; k++) {
		if (S.o.loss > 0 && sim_unit(&S.rng) < S.o.loss)
			continue;
		if (cut_now(from, g->adj[k]))
			continue;
		v = &S.nodes[g->adj[k]];
		if (S.now < v->start_at)
			continue;	/* not started: nobody listens */
		sim_heap_acct = &v->heap_tables;
		sim_cur = (int)g->adj[k];
		(void)pcore_frame(&v->pc, SIM_IFINDEX, u->mac, sim_bcast,
		    f->data, f->len, S.now);
		sim_cur = -1;
		sim_heap_acct = NULL;
		answer_keys(v);
		relay_due(v);
	}
	free(f);
}

/*
 * The own OGM, full or compact as fwd_announce_ogm decides; in live mode
 * with the node's client MAC in its TT.
 */
static int
live_originate(struct sim_node *v)
{
	struct wire_tt_entry tt = { 0 };
	uint8_t mac[6] = { 0x02, 0x5f }, desc[16];
	unsigned ntt = 0;

	if (S.o.live_iface != NULL) {
		bs_put32(mac + 2, (uint32_t)(v - S.nodes) + 1);
		tt.mac = mac;
		tt.vid = 0;
		ntt = 1;
	}
	fwd_ogm_desc_digest(desc, &tt, ntt, 0, 0, NULL, 0, NULL, 0);
	if (fwd_ogm_full_due(&v->orig, desc, 0))
		return fwd_ogm_originate(&v->orig, &tt, ntt, 0, 0);
	return fwd_ogm_originate_compact(&v->orig);
}

static void
run_event(const struct ev *e)
{
	struct sim_node *v = &S.nodes[e->node];
	int r;

	S.now = e->t;
	switch (e->type) {
	case EV_RX:
		deliver(e->node, e->f);
		break;
	case EV_BURST_HELLO:
		if ((r = fwd_bucket_take(&v->hello_burst, SIM_HELLO_MS,
		    S.now)) != FWD_BURST_SEND) {
			v->burst_refused += r == FWD_BURST_REFUSED;
			break;
		}
		v->burst_hello++;
		/* FALLTHROUGH */
	case EV_HELLO:
		if (e->type == EV_HELLO && e->t != v->hello_at)
			break;		/* a burst restarted the timer */
		send_hello(v);
		v->hello_at = S.now + sim_jitter(SIM_HELLO_MS);
		ev_push(v->hello_at, e->node, EV_HELLO, NULL);
		break;
	case EV_BURST_OGM:
		if ((r = fwd_bucket_take(&v->orig.ogm_burst, SIM_OGM_MS,
		    S.now)) != FWD_BURST_SEND) {
			v->burst_refused += r == FWD_BURST_REFUSED;
			break;
		}
		v->burst_ogm++;
		/* FALLTHROUGH */
	case EV_OGM:
		if (e->type == EV_OGM && e->t != v->ogm_at)
			break;
		if (live_originate(v) != WIRE_OK)
			S.fail = 1;
		flush(v, 1);
		v->ogm_at = S.now + sim_jitter(SIM_OGM_MS);
		ev_push(v->ogm_at, e->node, EV_OGM, NULL);
		break;
	case EV_FLUSH:
		if (v->flush_at == e->t)
			flush(v, 0);
		break;
	case EV_TICK:
		sim_heap_acct = &v->heap_tables;
		sim_cur = (int)e->node;
		(void)pcore_tick(&v->pc, S.now);
		sim_cur = -1;
		sim_heap_acct = NULL;
		ev_push(S.now + SIM_TICK_MS, e->node, EV_TICK, NULL);
		break;
	default:
		break;
	}
}

/* Run every event before t_end. */
static void
run_until(uint64_t t_end)
{
	struct ev e;

	while (S.nheap > 0 && S.heap[0].t < t_end && !S.fail) {
		e = ev_pop();
		run_event(&e);
		cut_watch();
	}
	S.now = t_end;
}

/* ---- set-up ----------------------------------------------------------- */

static int
make_policy(void)
{
	struct bs_policy *pol = bs_policy_new();
	uint32_t need;
	unsigned i;
	int rc = -1;

	if (pol == NULL)
		return -1;
	/* Open only when there are strangers to admit: the flooders. */
	pol->mode = S.o.sybils > 0 ? BS_POLICY_OPEN : BS_POLICY_ALLOWLIST;
	need = S.o.n + S.o.n / 4;
	if (need > pol->limits.originators) {
		uint32_t cap = pol->limits.originators;

		while (cap < need)
			cap *= 2;
		pol->limits.originators = cap;
	}
	for (i = 0; i < S.o.n_limits; i++)
		*(uint32_t *)((char *)&pol->limits +
		    bs_policy_limit_defs[S.o.limits[i].idx].offset) =
		    S.o.limits[i].value;
	S.orig_cap = pol->limits.originators;
	for (i = 0; i < S.o.n; i++)
		if (S.nodes[i].role != SIM_SYBIL &&
		    bs_policy_trust_add(pol, S.nodes[i].id.pk, NULL, 0, NULL,
		    0) != 0)
			goto out;
	if (S.o.live_iface != NULL &&
	    bs_policy_trust_add(pol, S.o.live_pk, NULL, 0, NULL, 0) != 0)
		goto out;
	S.snap = t_policy_snapshot(pol, &S.snap_len);
	rc = 0;
out:
	bs_policy_free(pol);
	return rc;
}

static int
node_identity(struct sim_node *v, unsigned i)
{
	uint8_t seed[BS_SEED_LEN];
	unsigned k;

	for (k = 0; k < BS_SEED_LEN; k += 8) {
		uint64_t r = sim_rand(&S.rng);

		memcpy(seed + k, &r, 8);
	}
	if (bs_identity_from_seed(&v->id, seed) != 0)
		return -1;
	sodium_memzero(seed, sizeof(seed));
	bs_mesh_addr(v->addr, v->id.pk);
	v->mac[0] = 0x02;
	v->mac[1] = 0x5e;
	bs_put32(v->mac + 2, i + 1);
	return 0;
}

static int
node_start(struct sim_node *v, uint32_t idx)
{
	struct ipc_config c;
	struct ipc_iface f;
	char err[160] = "";
	int r;

	pcore_init(&v->pc, sim_emit, v);
	v->pc.no_fisheye = S.o.no_fisheye ? 1 : 0;
	if (S.o.fisheye_hops > 0) {
		v->pc.fisheye_hops = (uint8_t)S.o.fisheye_hops;
		v->pc.fisheye_gap_max = (uint8_t)S.o.fisheye_gap_max;
	}
	c = t_ipc_config((struct t_config){ .pk = v->id.pk,
	    .ethertype = 0x88b5, .epoch = SIM_EPOCH, .hello_ms = SIM_HELLO_MS,
	    .ogm_ms = SIM_OGM_MS, .hop_penalty = SIM_HOP_PENALTY,
	    .log_level = IPC_LOG_WARNING });
	f = t_ipc_iface((struct t_iface){ .ifindex = SIM_IFINDEX,
	    .mtu = SIM_MTU, .mac = v->mac, .state = IPC_IFACE_UP,
	    .name = "sim0" });
	sim_heap_acct = &v->heap_tables;
	r = pcore_config(&v->pc, &c, err, sizeof(err));
	if (r == 0)
		r = pcore_iface(&v->pc, &f, err, sizeof(err));
	sim_heap_acct = &v->heap_policy;
	if (r == 0)
		r = pcore_policy(&v->pc, 1, S.snap, S.snap_len, err,
		    sizeof(err));
	sim_heap_acct = NULL;
	if (r != 0) {
		fprintf(stderr, "batsec-sim: node %u: %s\n", idx, err);
		return -1;
	}
	fwd_orig_init(&v->orig, &v->id, SIM_EPOCH, SIM_OGM_MS, SIM_HELLO_MS);
	if (S.o.far_set)
		fwd_relayq_far(&v->orig.rq, (uint8_t)S.o.far_hops,
		    S.o.far_ms);
	if (S.o.full_every > 0)
		v->orig.full_every = S.o.full_every;
	if (S.o.start_spread_ms > 0) {
		/* As batsecd: the first HELLO as soon as it is up. */
		v->start_at = sim_rand(&S.rng) % S.o.start_spread_ms;
		v->hello_at = v->start_at;
	} else
		v->hello_at = sim_rand(&S.rng) % SIM_HELLO_MS;
	v->ogm_at = v->start_at + sim_jitter(SIM_OGM_MS);
	ev_push(v->hello_at, idx, EV_HELLO, NULL);
	ev_push(v->ogm_at, idx, EV_OGM, NULL);
	ev_push(v->start_at + SIM_TICK_MS + sim_rand(&S.rng) % SIM_TICK_MS,
	    idx, EV_TICK, NULL);
	return 0;
}

static int
sybil_keys(struct sim_node *v)
{
	unsigned i;

	if (S.o.sybil_keys == 0)
		return 0;	/* a passive stranger: the control run */
	if ((v->syb = calloc(S.o.sybil_keys, sizeof(*v->syb))) == NULL)
		return -1;
	for (i = 0; i < S.o.sybil_keys; i++) {
		uint8_t seed[BS_SEED_LEN];
		unsigned k;

		for (k = 0; k < BS_SEED_LEN; k += 8) {
			uint64_t r = sim_rand(&S.rng);

			memcpy(seed + k, &r, 8);
		}
		if (bs_identity_from_seed(&v->syb[i], seed) != 0)
			return -1;
	}
	return 0;
}

/* Attackers: liars first, then flooders, at random distinct places. */
static void
assign_roles(void)
{
	unsigned want = S.o.liars + S.o.sybils, done = 0, i;

	while (done < want && done < S.o.n) {
		i = (unsigned)(sim_rand(&S.rng) % S.o.n);
		if (S.nodes[i].role != SIM_HONEST)
			continue;
		S.nodes[i].role = done < S.o.liars ? SIM_LIAR : SIM_SYBIL;
		done++;
	}
}

static int
dist_matrix(void)
{
	uint32_t *d = malloc(S.o.n * sizeof(*d));
	unsigned s, t;

	S.dist = malloc((size_t)S.o.n * S.o.n);
	if (d == NULL || S.dist == NULL) {
		free(d);
		return -1;
	}
	for (s = 0; s < S.o.n; s++) {
		sim_bfs(&S.g, s, d);
		for (t = 0; t < S.o.n; t++)
			S.dist[(size_t)s * S.o.n + t] =
			    d[t] > 254 ? 255 : (uint8_t)d[t];
	}
	free(d);
	return 0;
}

static int
sim_setup(const struct sim_opts *o)
{
	unsigned i;

	memset(&S, 0, sizeof(S));
	S.o = *o;
	S.live_fd = -1;
	S.rng = o->seed * 0x2545f4914f6cdd1dull + 1;
	if (sim_graph_build(&S.g, o) != 0 || dist_matrix() != 0)
		return -1;
	S.nodes = calloc(o->n, sizeof(*S.nodes));
	for (S.mcap = 16; S.mcap < 4 * (size_t)o->n; S.mcap *= 2)
		;
	S.mkey = calloc(S.mcap, sizeof(*S.mkey));
	S.mval = calloc(S.mcap, sizeof(*S.mval));
	if (S.nodes == NULL || S.mkey == NULL || S.mval == NULL)
		return -1;
	for (i = 0; i < o->n; i++)
		if (node_identity(&S.nodes[i], i) != 0 ||
		    map_put(S.nodes[i].addr, i) != 0)
			return -1;
	assign_roles();
	if (make_policy() != 0)
		return -1;
	for (i = 0; i < o->n; i++) {
		if (node_start(&S.nodes[i], i) != 0)
			return -1;
		if (S.nodes[i].role == SIM_SYBIL && sybil_keys(&S.nodes[i]) != 0)
			return -1;
	}
	/* Scratch originator for flood entries (its id set per key). */
	if (o->sybils > 0)
		fwd_orig_init(&S.syb, &S.nodes[0].id, SIM_EPOCH, SIM_OGM_MS,
		    SIM_HELLO_MS);
	return 0;
}

static void
sim_teardown(void)
{
	unsigned i;

	while (S.nheap > 0) {
		struct ev e = ev_pop();

		free(e.f);
	}
	for (i = 0; S.nodes != NULL && i < S.o.n; i++) {
		struct sim_node *v = &S.nodes[i];

		pcore_free(&v->pc);
		if (v->fnb != NULL)
			sodium_memzero(v->fnb, v->cap_fnb * sizeof(*v->fnb));
		free(v->fnb);
		free(v->req);
		if (v->syb != NULL)
			sodium_memzero(v->syb, S.o.sybil_keys * sizeof(*v->syb));
		free(v->syb);
		bs_identity_wipe(&v->id);
	}
	free(S.nodes);
	free(S.heap);
	free(S.mkey);
	free(S.mval);
	free(S.snap);
	free(S.dist);
	free(S.need);
	sim_graph_free(&S.g);
	memset(&S, 0, sizeof(S));
}

/* ---- measurements ------------------------------------------------------ */

static int
honest(unsigned i)
{
	return S.nodes[i].role == SIM_HONEST;
}

/* Route walk outcomes per source for one destination. */
enum { W_UNKNOWN = 0, W_BUSY, W_OK, W_FAIL };

struct walk {
	uint8_t *st;			/* W_* */
	uint16_t *hops;			/* W_OK: hops to the destination */
	uint8_t *clean;			/* W_OK: honest nodes only after */
	unsigned *stack;
};

/* Next hop of s towards d as s's routing table has it; -1 when none. */
static long
next_hop(unsigned s, unsigned d)
{
	struct routing_orig_info oi;

	if (S.nodes[s].pc.rt == NULL ||
	    routing_orig_get(S.nodes[s].pc.rt, S.nodes[d].id.pk, &oi) !=
	    ROUTING_OK || !oi.has_route)
		return -1;
	return map_get(oi.nexthop);
}

/* Walks that ended in a loop, or at a node without a (linked) next hop. */
static unsigned long walk_loops, walk_ends;

/*
 * Follow next hops from s towards d, resolving every node on the way
 * (memoised across sources: O(n) per destination).  clean[x]: every
 * node between x and d is honest.
 */
static void
walk_from(struct walk *w, unsigned s, unsigned d)
{
	unsigned depth = 0, x = s, nxt = UINT32_MAX, k, y;
	int ok = 0;
	long nh;

	for (;;) {
		if (w->st[x] == W_OK || w->st[x] == W_FAIL) {
			ok = w->st[x] == W_OK;
			nxt = x;
			break;
		}
		if (w->st[x] == W_BUSY) {
			walk_loops++;
			break;			/* a loop */
		}
		if (x == d) {
			w->st[d] = W_OK;
			w->hops[d] = 0;
			w->clean[d] = 1;
			ok = 1;
			nxt = d;
			break;
		}
		w->st[x] = W_BUSY;
		w->stack[depth++] = x;
		nh = next_hop(x, d);
		if (nh < 0 || !sim_linked(&S.g, x, (unsigned)nh)) {
			walk_ends++;
			break;
		}
		x = (unsigned)nh;
	}
	for (k = depth; k-- > 0;) {
		y = w->stack[k];
		if (!ok) {
			w->st[y] = W_FAIL;
			continue;
		}
		w->st[y] = W_OK;
		w->hops[y] = (uint16_t)(w->hops[nxt] + 1);
		w->clean[y] = w->clean[nxt] && (nxt == d || honest(nxt));
		nxt = y;
	}
}

/* Pairs by BFS hops: 1-8, 9-16, 17-24, 25-33 (SIM_HORIZON). */
#define REACH_BANDS	4
#define REACH_BAND(h)	((h) <= 8 ? 0 : (h) <= 16 ? 1 : (h) <= 24 ? 2 : 3)

struct reach {
	unsigned long routable, routed, clean, beyond;
	unsigned long band_routable[REACH_BANDS], band_routed[REACH_BANDS];
	double stretch_sum, stretch_max;
	unsigned long stretch_n;
};

/*
 * On stderr: the routable pairs and the share routed by BFS distance.
 * With 5 % loss and hop penalty 30 a path's TQ falls to 0 after about 25
 * hops, so the last band is where a mesh larger than the horizon loses
 * pairs (bench/README.md, Scale).
 */
static void
reach_bands(const struct reach *r)
{
	static const char *const name[REACH_BANDS] = {
		"1-8", "9-16", "17-24", "25-33"
	};
	unsigned i;

	fprintf(stderr, "reach by BFS hops:");
	for (i = 0; i < REACH_BANDS; i++)
		fprintf(stderr, " %s %lu/%lu (%.2f %%)%s", name[i],
		    r->band_routed[i], r->band_routable[i],
		    r->band_routable[i] ?
		    100.0 * r->band_routed[i] / r->band_routable[i] : 0.0,
		    i + 1 < REACH_BANDS ? "," : "");
	fprintf(stderr, "; beyond 33: %lu pairs\n", r->beyond);
}

static int
measure_reach(struct reach *r)
{
	unsigned n = S.o.n, s, d;
	struct walk w;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	w.st = malloc(n);
	w.hops = malloc(n * sizeof(*w.hops));
	w.clean = malloc(n);
	w.stack = malloc((n + 1) * sizeof(*w.stack));
	if (w.st == NULL || w.hops == NULL || w.clean == NULL ||
	    w.stack == NULL)
		goto out;
	for (d = 0; d < n; d++) {
		if (!honest(d))
			continue;
		memset(w.st, W_UNKNOWN, n);
		for (s = 0; s < n; s++) {
			uint8_t bd = S.dist[(size_t)s * n + d];

			if (s == d || !honest(s))
				continue;
			if (bd > SIM_HORIZON) {
				r->beyond++;
				continue;
			}
			r->routable++;
			r->band_routable[REACH_BAND(bd)]++;
			walk_from(&w, s, d);
			if (w.st[s] != W_OK)
				continue;
			r->routed++;
			r->band_routed[REACH_BAND(bd)]++;
			if (w.clean[s])
				r->clean++;
			{
				double st = (double)w.hops[s] / bd;

				r->stretch_sum += st;
				r->stretch_n++;
				if (st > r->stretch_max)
					r->stretch_max = st;
			}
		}
	}
	rc = 0;
out:
	free(w.st);
	free(w.hops);
	free(w.clean);
	free(w.stack);
	return rc;
}

/*
 * What s's link to neighbour nb does to an OGM: its link TQ (the
 * product for tq_recv = 255, with the routing core's warm-up scaling);
 * -1 when nb is no bidirectional neighbour of s.
 */
static int
link_view(unsigned s, unsigned nb, uint8_t *ltq)
{
	struct routing_neigh_info ni;

	if (routing_neigh_get(S.nodes[s].pc.rt, SIM_IFINDEX, S.nodes[nb].addr,
	    &ni) != ROUTING_OK || !ni.bidirectional)
		return -1;
	*ltq = ni.link_tq;
	return 0;
}

/*
 * tq through a link of link TQ ltq.  The routing core multiplies by
 * tq_own and tq_asym in one product; tq * ltq / 255 equals it when the
 * link is perfect (ltq 255) and is within one unit of it otherwise.
 */
static uint8_t
via_link(uint8_t tq, uint8_t ltq)
{
	return (uint8_t)((unsigned)tq * ltq / 255);
}

/*
 * The best TQ every node can have towards d given the link estimates the
 * parsers hold now (B.A.T.M.A.N. IV's arithmetic: the originator sends
 * 255, a receiver multiplies by its link, a relay applies the hop
 * penalty), by label-correcting search; best[d] = 255.
 */
static void
best_tq(unsigned d, uint8_t *best, unsigned *queue, uint8_t *inq)
{
	unsigned n = S.o.n, h = 0, t = 0, k, u, s;
	uint8_t ltq, out, val;

	memset(best, 0, n);
	memset(inq, 0, n);
	best[d] = 255;
	queue[t++ % n] = d;
	inq[d] = 1;
	while (h != t) {
		u = queue[h++ % n];
		inq[u] = 0;
		out = u == d ? 255 : routing_tq_hop(best[u], SIM_HOP_PENALTY);
		for (k = S.g.off[u]; k < S.g.off[u + 1]; k++) {
			s = S.g.adj[k];
			if (s == d || link_view(s, u, &ltq) != 0)
				continue;
			val = via_link(out, ltq);
			if (val > best[s]) {
				best[s] = val;
				if (!inq[s]) {
					inq[s] = 1;
					queue[t++ % n] = s;
				}
			}
		}
	}
}

/*
 * Route TQ against the best TQ the current link estimates allow: the
 * fraction of pairs whose route has exactly the best TQ through a next
 * hop that offers it (what --check asserts on a lossless mesh after the
 * links warmed up), and the mean ratio route TQ / best TQ.  Destinations:
 * all when n <= 300, else 64 sampled.
 */
static void
measure_best(struct sim_result *r)
{
	unsigned n = S.o.n, d, s, i, ndest = n <= 300 ? n : 64;
	uint8_t *best = malloc(n), *inq = malloc(n), ltq;
	unsigned *queue = malloc(n * sizeof(*queue));
	unsigned long ok = 0, all = 0;
	double ratio = 0;
	uint64_t st = S.o.seed + 99;
	struct routing_orig_info oi;
	long nh;

	if (best == NULL || inq == NULL || queue == NULL)
		goto out;
	for (i = 0; i < ndest; i++) {
		d = ndest == n ? i : (unsigned)(sim_rand(&st) % n);
		if (!honest(d))
			continue;
		best_tq(d, best, queue, inq);
		for (s = 0; s < n; s++) {
			if (s == d || !honest(s) || best[s] == 0)
				continue;
			all++;
			if (routing_orig_get(S.nodes[s].pc.rt, S.nodes[d].id.pk,
			    &oi) != ROUTING_OK || !oi.has_route ||
			    (nh = map_get(oi.nexthop)) < 0 ||
			    link_view(s, (unsigned)nh, &ltq) != 0)
				continue;
			ratio += oi.tq >= best[s] ? 1.0 :
			    (double)oi.tq / best[s];
			if (oi.tq == best[s] && via_link((unsigned)nh == d ?
			    255 : routing_tq_hop(best[nh], SIM_HOP_PENALTY),
			    ltq) == best[s])
				ok++;
		}
	}
	r->tq_checked = all;
	r->best_tq = all > 0 ? (double)ok / all : 0;
	r->tq_ratio = all > 0 ? ratio / all : 0;
out:
	free(best);
	free(inq);
	free(queue);
}

/*
 * SIM_COUNTERS=1 in the environment: pcore's counters (IPC_STATS ids)
 * and entry outcomes summed over the nodes, per node and second of the
 * window, on stderr after the row (a diagnostic; the row is unchanged).
 */
static uint64_t cnt_stat[IPC_STAT_ID_END], cnt_entry[PCORE_E_COUNT];
static uint64_t cnt_fwd[FWD_OCOUNT_N];	/* the forwarders' (fwd_ocount) */

/*
 * With SIM_COUNTERS: every Ed25519 check by domain, and for OGM entries
 * whether the same node checked the same bytes before (a copy its
 * signature cache no longer held), with the time since it first did.
 */
int sim_track;
static uint64_t trk_dom[8], trk_again[8], trk_age[6], trk_full;
static uint64_t cnt_sc[5];		/* sigcache hits misses inserts replaced nslots */

struct trk_slot {
	uint64_t a, b;			/* a == 0: empty */
	uint32_t t_s;
};
#define TRK_BITS	23
static struct trk_slot *trk;
static uint64_t trk_used;

void
sim_verify_note(unsigned dom, const uint64_t h[2])
{
	static const uint32_t age_max[5] = { 2, 10, 40, 70, 200 };
	uint64_t a, i, m = ((uint64_t)1 << TRK_BITS) - 1;
	uint32_t now_s = (uint32_t)(S.now / 1000), age;
	unsigned k;

	trk_dom[dom & 7]++;
	if (dom != BS_DOM_OGM || sim_cur < 0)
		return;
	/* The simulator's own table, not the node's: this runs inside a
	 * pcore call, while the node's heap is counted, so not through the
	 * counting wrapper (setting sim_heap_acct to NULL around calloc
	 * does not work: the compiler may drop a store a call to calloc
	 * cannot read). */
	if (trk == NULL && (trk = __real_calloc(m + 1, sizeof(*trk))) == NULL)
		return;
	a = (h[0] ^ ((uint64_t)(sim_cur + 1) * 0x9e3779b97f4a7c15ull)) | 1;
	for (i = a & m;; i = (i + 1) & m) {
		if (trk[i].a == 0)
			break;
		if (trk[i].a == a && trk[i].b == h[1]) {
			trk_again[dom & 7]++;
			age = now_s - trk[i].t_s;
			for (k = 0; k < 5 && age >= age_max[k]; k++)
				;
			trk_age[k]++;
			return;
		}
	}
	if (trk_used * 10 >= (m + 1) * 7) {
		trk_full++;
		return;
	}
	trk[i].a = a;
	trk[i].b = h[1];
	trk[i].t_s = now_s;
	trk_used++;
}

static void
counters_take(int sign)
{
	unsigned i, k;

	for (i = 0; i < S.o.n; i++) {
		for (k = 0; k < IPC_STAT_ID_END; k++)
			cnt_stat[k] += sign > 0 ? S.nodes[i].pc.stat[k] :
			    -S.nodes[i].pc.stat[k];
		for (k = 0; k < PCORE_E_COUNT; k++)
			cnt_entry[k] += sign > 0 ? S.nodes[i].pc.entry[k] :
			    -S.nodes[i].pc.entry[k];
		for (k = 0; k < FWD_OCOUNT_N; k++)
			cnt_fwd[k] += sign > 0 ?
			    fwd_ocount_get(&S.nodes[i].orig.c, k) :
			    -fwd_ocount_get(&S.nodes[i].orig.c, k);
		{
			const struct sigcache *c = &S.nodes[i].pc.sigs;
			uint64_t v[5] = { c->hits, c->misses, c->inserts,
			    c->replaced, c->nslots };

			for (k = 0; k < 5; k++)
				cnt_sc[k] += sign > 0 ? v[k] : -v[k];
		}
	}
}

static void
counters_print(unsigned window_s)
{
	double per = (double)S.o.n * window_s;
	unsigned k;

	for (k = 1; k < IPC_STAT_ID_END; k++)
		if (cnt_stat[k] != 0 && ipc_stat_name(k) != NULL)
			fprintf(stderr, "counter %-20s %12.2f /node/s\n",
			    ipc_stat_name(k), (double)cnt_stat[k] / per);
	for (k = 0; k < PCORE_E_COUNT; k++)
		if (cnt_entry[k] != 0)
			fprintf(stderr, "entry   %-20s %12.2f /node/s\n",
			    pcore_entry_name((enum pcore_entry)k),
			    (double)cnt_entry[k] / per);
	for (k = 0; k < FWD_OCOUNT_N; k++)
		if (cnt_fwd[k] != 0)
			fprintf(stderr, "fwd     %-20s %12.4f /node/s\n",
			    fwd_ocount_name(k), (double)cnt_fwd[k] / per);
	{
		static const char *scn[4] = { "hits", "misses", "inserts",
		    "replaced" };
		static const char *agen[6] = { "<2s", "2-10s", "10-40s",
		    "40-70s", "70-200s", ">=200s" };

		for (k = 0; k < 4; k++)
			fprintf(stderr, "sigcache %-19s %12.4f /node/s\n",
			    scn[k], (double)cnt_sc[k] / per);
		fprintf(stderr, "sigcache nslots (end)          %u (node 0)\n",
		    S.nodes[0].pc.sigs.nslots);
		for (k = 1; k < 8; k++)
			if (trk_dom[k] != 0)
				fprintf(stderr, "verify dom %u %12.4f /node/s, "
				    "again %12.4f /node/s\n", k,
				    (double)trk_dom[k] / per,
				    (double)trk_again[k] / per);
		for (k = 0; k < 6; k++)
			fprintf(stderr, "verify again age %-7s %12.4f /node/s\n",
			    agen[k], (double)trk_age[k] / per);
		fprintf(stderr, "verify tracking table full: %llu\n",
		    (unsigned long long)trk_full);
		{
			unsigned i, d, big = 0, b16 = 0, dmax = 0;

			for (i = 0; i < S.o.n; i++) {
				d = S.g.off[i + 1] - S.g.off[i];
				big += d > WIRE_MAX_TAGS;
				b16 += d > 16;
				if (d > dmax)
					dmax = d;
			}
			fprintf(stderr, "degree: %u nodes above %u (the most "
			    "link tags in a trailer), %u above 16, the "
			    "highest %u\n", big, (unsigned)WIRE_MAX_TAGS, b16,
			    dmax);
		}
	}
}

static void
totals(struct sim_totals *t)
{
	unsigned i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < S.o.n; i++) {
		const struct sim_node *v = &S.nodes[i];

		t->tx_bytes += v->tx_bytes;
		t->tx_frames += v->tx_frames;
		t->rx_frames += v->pc.stat[IPC_STAT_RX_FRAMES];
		t->sig_verified += v->pc.stat[IPC_STAT_SIG_VERIFIED];
		t->sig_cache_hit += v->pc.stat[IPC_STAT_SIG_CACHE_HIT];
		t->ogm_accepted += v->pc.entry[PCORE_E_ACCEPT];
		t->relay_lost += v->relay_lost;
		t->lim_frames += v->pc.drop[PCORE_DROP_RATE] +
		    v->pc.drop[PCORE_DROP_BUDGET];
		t->lim_entries += v->pc.entry[PCORE_E_INTRO] +
		    v->pc.entry[PCORE_E_BUDGET];
	}
	/* Hop-chain and OGM-chain hashes as pcore counts them (the full
	 * entries' hop chains go through its signature cache, compact
	 * entries through bs_chain_link, memoised or not). */
	for (i = 0; i < S.o.n; i++)
		t->chain_checks += S.nodes[i].pc.stat[IPC_STAT_CHAIN_STEPS];
	t->ed_real = sim_ed_real;
}

/* Bytes per link: what both ends send, sum over u of tx_u * deg(u) / E. */
static double
link_bytes(void)
{
	double sum = 0;
	unsigned i;

	for (i = 0; i < S.o.n; i++)
		sum += (double)S.nodes[i].tx_bytes *
		    (S.g.off[i + 1] - S.g.off[i]);
	return S.g.edges > 0 ? sum / S.g.edges : 0;
}

/* Honest destinations within the horizon of each node (cached). */
static unsigned *
needed_counts(void)
{
	unsigned n = S.o.n, s, d;

	if (S.need != NULL)
		return S.need;
	if ((S.need = calloc(n, sizeof(*S.need))) == NULL)
		return NULL;
	for (s = 0; s < n; s++)
		for (d = 0; d < n; d++)
			if (d != s && honest(d) &&
			    S.dist[(size_t)s * n + d] <= SIM_HORIZON)
				S.need[s]++;
	return S.need;
}

/* Every routable honest pair routed: a cheap test first, then walks. */
static int
converged(void)
{
	unsigned *need = needed_counts();
	struct reach rc;
	unsigned i;

	if (need == NULL)
		return 0;
	for (i = 0; i < S.o.n; i++)
		if (honest(i) && routing_orig_count(S.nodes[i].pc.rt) <
		    need[i])
			return 0;
	if (measure_reach(&rc) != 0)
		return 0;
	return rc.routed == rc.routable;
}

/* SIM_COUNTERS: how far from converged (originators missing, pairs). */
static void
progress_print(uint64_t t_ms)
{
	unsigned *need = needed_counts();
	unsigned long missing = 0;
	struct reach rc;
	unsigned i, c;

	walk_loops = walk_ends = 0;
	if (need == NULL || measure_reach(&rc) != 0)
		return;
	for (i = 0; i < S.o.n; i++)
		if (honest(i) && (c = routing_orig_count(S.nodes[i].pc.rt)) <
		    need[i])
			missing += need[i] - c;
	fprintf(stderr, "progress t=%llus originators_missing=%lu "
	    "pairs_unrouted=%lu of %lu (walks: %lu loops, %lu dead ends)\n",
	    (unsigned long long)(t_ms / 1000), missing,
	    rc.routable - rc.routed, rc.routable, walk_loops, walk_ends);
}

static void
fill_result(struct sim_result *r, const struct sim_totals *a,
    const struct sim_totals *b, double lb_a, double win)
{
	unsigned n = S.o.n, i, h = 0, diam = 0;
	double tab = 0, pol = 0, origs = 0, nodes_s = n * win;
	uint64_t ver, hit;
	struct reach rc;
	size_t k;

	for (k = 0; k < (size_t)n * n; k++)
		if (S.dist[k] != 255 && S.dist[k] > diam)
			diam = S.dist[k];
	for (i = 0; i < n; i++) {
		if (!honest(i))
			continue;
		h++;
		tab += (double)S.nodes[i].heap_tables;
		pol += (double)S.nodes[i].heap_policy;
		origs += routing_orig_count(S.nodes[i].pc.rt);
	}
	r->n = n;
	r->honest = h;
	r->edges = S.g.edges;
	r->bridged = S.g.bridged;
	r->degree = 2.0 * S.g.edges / n;
	r->diameter = diam;
	r->mem_tables = tab / h;
	r->mem_policy = pol / h;
	r->mem_static = (double)sizeof(struct pcore);
	r->orig_per_node = origs / h;
	r->window_s = win;
	r->bytes_node_s = (double)(b->tx_bytes - a->tx_bytes) / nodes_s;
	r->frames_node_s = (double)(b->tx_frames - a->tx_frames) / nodes_s;
	r->bytes_link_s = (link_bytes() - lb_a) / win;
	ver = b->sig_verified - a->sig_verified;
	hit = b->sig_cache_hit - a->sig_cache_hit;
	r->verif_node_s = (double)ver / nodes_s;
	r->cache_hit = ver + hit > 0 ? (double)hit / (ver + hit) : 0;
	r->chain_node_s = (double)(b->chain_checks - a->chain_checks) /
	    nodes_s;
	r->relay_lost = b->relay_lost - a->relay_lost;
	r->relay_lost_node_s = (double)r->relay_lost / nodes_s;
	r->lim_frames_node_s = (double)(b->lim_frames - a->lim_frames) /
	    nodes_s;
	r->lim_entries_node_s = (double)(b->lim_entries - a->lim_entries) /
	    nodes_s;
	r->orig_cap = S.orig_cap;
	if (measure_reach(&rc) == 0) {
		r->routable = rc.routable;
		r->unroutable = rc.beyond;
		r->reach = rc.routable ? (double)rc.routed / rc.routable : 0;
		r->honest_paths = rc.routable ? (double)rc.clean / rc.routable :
		    0;
		r->stretch_mean = rc.stretch_n ? rc.stretch_sum / rc.stretch_n :
		    0;
		r->stretch_max = rc.stretch_max;
		reach_bands(&rc);
	}
	measure_best(r);
}

int
sim_run(const struct sim_opts *o, struct sim_result *r)
{
	struct sim_totals a, b;
	clock_t c0 = clock();
	uint64_t t, t_conv = 0, step;
	double lb_a;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	sim_memo = o->memo;
	sim_ed_real = sim_chain_calls = 0;
	sim_memo_reset();
	sim_rng_seed(o->seed);
	sim_track = getenv("SIM_COUNTERS") != NULL;
	/* A sweep's runs share nothing: node i of the last run is not ours. */
	__real_free(trk);
	trk = NULL;
	trk_used = trk_full = 0;
	r->memo = o->memo;
	if (sim_setup(o) != 0) {
		fprintf(stderr, "batsec-sim: set-up failed\n");
		goto out;
	}
	if (o->cut_t1_ms != 0 && !cut_linked()) {
		fprintf(stderr, "batsec-sim: --cut: nodes %u and %u are not "
		    "linked in this graph\n", o->cut_a, o->cut_b);
		goto out;
	}
	/* Convergence to the tenth of a second up to 100 nodes (a cold
	 * start takes a few seconds there), to the second above (each check
	 * walks every pair). */
	step = o->n <= 100 ? 100 : 1000;
	for (t = 1; t * step <= (uint64_t)(o->settle_s > 0 ? o->settle_s :
	    o->max_s) * 1000 && !S.fail; t++) {
		run_until(t * step);
		if (t_conv == 0 && converged()) {
			t_conv = t * step;
			if (o->settle_s == 0)
				break;
		}
		if (o->cut_t1_ms != 0 && t * step >= o->cut_t0_ms &&
		    S.cut_routed_ms == 0)
			cut_routes(t * step);
		if (getenv("SIM_COUNTERS") != NULL && t * step % 5000 == 0)
			progress_print(t * step);
		if (!o->quiet && o->n >= 300 && t % 10 == 0)
			fprintf(stderr, "batsec-sim: n=%u t=%llus cpu=%.0fs\n",
			    o->n, (unsigned long long)t,
			    (double)(clock() - c0) / CLOCKS_PER_SEC);
	}
	r->converged = t_conv > 0;
	r->conv_s = (double)t_conv / 1000;
	totals(&a);
	lb_a = link_bytes();
#ifdef SIM_CALLGRIND
	/* Under callgrind (bench/footprint: --instr-atstart=no) only the
	 * window is counted; outside valgrind these do nothing. */
	CALLGRIND_START_INSTRUMENTATION;
	CALLGRIND_ZERO_STATS;
#endif
	if (getenv("SIM_COUNTERS") != NULL) {
		memset(cnt_stat, 0, sizeof(cnt_stat));
		memset(cnt_entry, 0, sizeof(cnt_entry));
		memset(cnt_fwd, 0, sizeof(cnt_fwd));
		memset(cnt_sc, 0, sizeof(cnt_sc));
		memset(trk_dom, 0, sizeof(trk_dom));
		memset(trk_again, 0, sizeof(trk_again));
		memset(trk_age, 0, sizeof(trk_age));
		counters_take(-1);
	}
	run_until(S.now + (uint64_t)o->window_s * 1000);
	if (getenv("SIM_COUNTERS") != NULL) {
		counters_take(1);
		counters_print(o->window_s);
	}
#ifdef SIM_CALLGRIND
	CALLGRIND_DUMP_STATS_AT("window");
	CALLGRIND_STOP_INSTRUMENTATION;
#endif
	totals(&b);
	if (S.fail) {
		fprintf(stderr, "batsec-sim: a pcore call failed\n");
		goto out;
	}
	cut_report();
	fill_result(r, &a, &b, lb_a, o->window_s);
	r->cpu_s = (double)(clock() - c0) / CLOCKS_PER_SEC;
	rc = 0;
out:
	sim_teardown();
	return rc;
}

/* ---- live mode (bench/footprint) ---------------------------------------- */

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A frame the daemon sent: HELLO and OGM to the nodes on its link. */
static void
live_deliver(const uint8_t src[static 6], const uint8_t dst[static 6],
    const uint8_t *p, size_t len)
{
	unsigned k;

	if (p[0] != WIRE_T_HELLO && p[0] != WIRE_T_OGM) {
		S.live_rx_data++;
		return;
	}
	S.live_rx_ctl++;
	for (k = 0; k < S.o.live_k && k < S.o.n; k++) {
		struct sim_node *v = &S.nodes[k];

		sim_heap_acct = &v->heap_tables;
		(void)pcore_frame(&v->pc, SIM_IFINDEX, src, dst, p, len,
		    S.now);
		sim_heap_acct = NULL;
		answer_keys(v);
		relay_due(v);
	}
}

int
sim_live(const struct sim_opts *o)
{
	uint8_t (*pk)[BS_PK_LEN] = NULL;
	uint8_t buf[2048], src[6], dst[6];
	uint64_t t0, now, next_report = 10000;
	struct pollfd pfd;
	long len = 0;
	unsigned i;
	int rc = -1;

	sim_memo = o->memo;
	sim_ed_real = sim_chain_calls = 0;
	sim_memo_reset();
	if (sim_setup(o) != 0) {
		fprintf(stderr, "batsec-sim: set-up failed\n");
		goto out;
	}
	if ((pk = calloc(o->n, sizeof(*pk))) == NULL)
		goto out;
	for (i = 0; i < o->n; i++)
		memcpy(pk[i], S.nodes[i].id.pk, BS_PK_LEN);
	if (o->live_policy != NULL &&
	    sim_live_policy(o->live_policy, pk, o->n, o->live_pk) != 0) {
		fprintf(stderr, "batsec-sim: writing %s failed\n",
		    o->live_policy);
		goto out;
	}
	if ((S.live_fd = sim_live_open(o->live_iface, &S.live_ifindex)) < 0)
		goto out;
	printf("live: %u simulated nodes, %u of them on %s with the daemon, "
	    "%u s\n", o->n, o->live_k, o->live_iface, o->live_secs);
	fflush(stdout);
	t0 = mono_ms();
	for (;;) {
		now = mono_ms() - t0;
		if (now >= (uint64_t)o->live_secs * 1000 || S.fail)
			break;
		run_until(now + 1);
		pfd.fd = S.live_fd;
		pfd.events = POLLIN;
		(void)poll(&pfd, 1, 5);
		while ((len = sim_live_recv(S.live_fd, src, dst, buf,
		    sizeof(buf))) > 0)
			live_deliver(src, dst, buf, (size_t)len);
		if (len < 0) {
			perror("batsec-sim: live receive");
			break;
		}
		if (now >= next_report) {
			fprintf(stderr, "batsec-sim: live t=%llus sent %llu, "
			    "heard %llu control and %llu data frames\n",
			    (unsigned long long)now / 1000,
			    (unsigned long long)S.live_tx,
			    (unsigned long long)S.live_rx_ctl,
			    (unsigned long long)S.live_rx_data);
			next_report += 10000;
		}
	}
	printf("live: sent %llu frames, heard %llu control and %llu data "
	    "frames\n", (unsigned long long)S.live_tx,
	    (unsigned long long)S.live_rx_ctl,
	    (unsigned long long)S.live_rx_data);
	rc = S.fail || len < 0 ? -1 : 0;
out:
	free(pk);
	sim_live_close(S.live_fd);
	S.live_fd = -1;
	sim_teardown();
	return rc;
}
