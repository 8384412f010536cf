/*
 * fwd_bla.c — bridge loop avoidance (see fwd_bla.h).
 */
#include <string.h>

#include <sodium.h>

#include "bs_bytes.h"
#include "fwd_bla.h"
#include "proto/wire.h"

#define BLA_ETH_HLEN	14

const uint8_t fwd_bla_group[BS_ADDR_LEN] = {
	0xff, 0x43, 0x05, 0xba, 0x5e, 0x00
};

static uint64_t
bla_age(uint64_t now_ms, uint64_t then_ms)
{
	return now_ms > then_ms ? now_ms - then_ms : 0;
}

void
fwd_bla_init(struct fwd_bla *b)
{
	memset(b, 0, sizeof(*b));
}

void
fwd_bla_enable(struct fwd_bla *b, int on, uint64_t now_ms)
{
	memset(b->bb, 0, sizeof(b->bb));
	b->claiming = 0;
	b->claim_cursor = 0;
	b->enabled = on != 0;
	b->enabled_ms = now_ms;
	b->announce_ms = 0;
	b->tokens = FWD_BLA_VERIFY_RATE;
	b->refill_ms = now_ms;
}

int
fwd_bla_is_group(const uint8_t *frame, size_t len)
{
	return len >= BLA_ETH_HLEN &&
	    memcmp(frame, fwd_bla_group, BS_ADDR_LEN) == 0;
}

/* ---- the ANNOUNCE frame ------------------------------------------------- */

size_t
fwd_bla_build(uint8_t out[static FWD_BLA_FRAME_LEN],
    const struct bs_identity *id, uint32_t epoch, uint32_t seqno)
{
	uint8_t addr[BS_ADDR_LEN], *body = out + BLA_ETH_HLEN;

	memset(out, 0, FWD_BLA_FRAME_LEN);
	bs_mesh_addr(addr, id->pk);
	memcpy(out, fwd_bla_group, BS_ADDR_LEN);
	memcpy(out + 6, addr, BS_ADDR_LEN);
	bs_put16(out + 12, FWD_BLA_ETHERTYPE);
	memcpy(body, FWD_BLA_MAGIC, 4);
	body[4] = FWD_BLA_VERSION;
	body[5] = FWD_BLA_T_ANNOUNCE;
	memcpy(body + 8, addr, BS_ADDR_LEN);
	bs_put32(body + 16, epoch);
	bs_put32(body + 20, seqno);
	if (bs_sign(body + FWD_BLA_BODY_LEN, BS_DOM_BLA, body,
	    FWD_BLA_BODY_LEN, id) != 0)
		return 0;
	return FWD_BLA_FRAME_LEN;
}

int
fwd_bla_parse(const uint8_t *frame, size_t len, struct fwd_bla_announce *a)
{
	static const uint8_t zero[2];
	const uint8_t *body = frame + BLA_ETH_HLEN;

	/* Exactly one ANNOUNCE, untagged, every reserved byte zero, and
	 * sent from the address it announces. */
	if (len != FWD_BLA_FRAME_LEN ||
	    memcmp(frame, fwd_bla_group, BS_ADDR_LEN) != 0 ||
	    bs_get16(frame + 12) != FWD_BLA_ETHERTYPE ||
	    memcmp(body, FWD_BLA_MAGIC, 4) != 0 ||
	    body[4] != FWD_BLA_VERSION || body[5] != FWD_BLA_T_ANNOUNCE ||
	    memcmp(body + 6, zero, 2) != 0 ||
	    memcmp(body + 14, zero, 2) != 0 ||
	    memcmp(body + 8, frame + 6, BS_ADDR_LEN) != 0 ||
	    !wire_mac_is_unicast(body + 8))
		return 0;
	memcpy(a->addr, body + 8, BS_ADDR_LEN);
	a->epoch = bs_get32(body + 16);
	a->seqno = bs_get32(body + 20);
	a->body = body;
	a->sig = body + FWD_BLA_BODY_LEN;
	return 1;
}

size_t
fwd_bla_claim_build(uint8_t out[static FWD_BLA_CLAIM_LEN],
    const uint8_t own[static BS_ADDR_LEN],
    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid)
{
	uint8_t *p = out + 12;

	memset(out, 0, FWD_BLA_CLAIM_LEN);
	memcpy(out, fwd_bla_group, BS_ADDR_LEN);
	memcpy(out + 6, mac, BS_ADDR_LEN);
	if (vid != 0) {
		bs_put16(p, 0x8100);
		bs_put16(p + 2, (uint16_t)(vid & WIRE_VID_MASK));
		p += 4;
	}
	bs_put16(p, FWD_BLA_ETHERTYPE);
	p += 2;
	memcpy(p, FWD_BLA_MAGIC, 4);
	p[4] = FWD_BLA_VERSION;
	p[5] = FWD_BLA_T_CLAIM;
	memcpy(p + 8, own, BS_ADDR_LEN);
	return FWD_BLA_CLAIM_LEN;
}

int
fwd_bla_claim_parse(const uint8_t *frame, size_t len)
{
	const uint8_t *p = frame + 12, *end = frame + len;

	if (len != FWD_BLA_CLAIM_LEN ||
	    memcmp(frame, fwd_bla_group, BS_ADDR_LEN) != 0 ||
	    !wire_mac_is_unicast(frame + 6))
		return 0;
	if (bs_get16(p) == 0x8100)
		p += 4;
	if (bs_get16(p) != FWD_BLA_ETHERTYPE)
		return 0;
	p += 2;
	if (memcmp(p, FWD_BLA_MAGIC, 4) != 0 || p[4] != FWD_BLA_VERSION ||
	    p[5] != FWD_BLA_T_CLAIM || p[6] != 0 || p[7] != 0 ||
	    !wire_mac_is_unicast(p + 8))
		return 0;
	for (p += 14; p < end; p++)
		if (*p != 0)
			return 0;
	return 1;
}

/* ---- the backbone table ------------------------------------------------- */

static struct fwd_bla_backbone *
bla_find(struct fwd_bla *b, const uint8_t *addr)
{
	size_t i;

	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++)
		if (b->bb[i].used &&
		    memcmp(b->bb[i].addr, addr, BS_ADDR_LEN) == 0)
			return &b->bb[i];
	return NULL;
}

/* addr has an entry, alive or timed out. */
static int
bla_known(const struct fwd_bla *b, const uint8_t *addr)
{
	size_t i;

	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++)
		if (b->bb[i].used &&
		    memcmp(b->bb[i].addr, addr, BS_ADDR_LEN) == 0)
			return 1;
	return 0;
}

/* A slot for a new backbone: a free one, else the one timed out longest
 * ago; NULL when every one is alive. */
static struct fwd_bla_backbone *
bla_slot(struct fwd_bla *b)
{
	struct fwd_bla_backbone *best = NULL;
	size_t i;

	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++) {
		if (!b->bb[i].used)
			return &b->bb[i];
		if (!b->bb[i].alive &&
		    (best == NULL || b->bb[i].last_ms < best->last_ms))
			best = &b->bb[i];
	}
	return best;
}

/* One signature check: FWD_BLA_VERIFY_RATE a second, as a bucket. */
static int
bla_token(struct fwd_bla *b, uint64_t now_ms)
{
	uint64_t add;

	if (now_ms < b->refill_ms)
		b->refill_ms = now_ms;
	add = (now_ms - b->refill_ms) * FWD_BLA_VERIFY_RATE / 1000;
	if (add > 0) {
		b->tokens = add >= FWD_BLA_VERIFY_RATE - b->tokens ?
		    FWD_BLA_VERIFY_RATE : b->tokens + (uint32_t)add;
		b->refill_ms += add * 1000 / FWD_BLA_VERIFY_RATE;
	}
	if (b->tokens == 0)
		return 0;
	b->tokens--;
	return 1;
}

int
fwd_bla_heard(struct fwd_bla *b, const struct fwd_tables *t,
    const uint8_t own[static BS_ADDR_LEN], const uint8_t *frame, size_t len,
    uint64_t now_ms)
{
	struct fwd_bla_announce a;
	const struct fwd_route *r;
	struct fwd_bla_backbone *e;

	if (!fwd_bla_parse(frame, len, &a)) {
		if (fwd_bla_claim_parse(frame, len))
			b->c.claims_heard++;
		else
			b->c.malformed++;
		return 0;
	}
	if (memcmp(a.addr, own, BS_ADDR_LEN) == 0) {
		b->c.own++;
		return 0;
	}
	if (!b->enabled)
		return 0;
	/* A member of this mesh, in the epoch its route has or a newer one
	 * (a node that restarted announces before its new OGMs are in; as
	 * its BCASTs are taken, fwd_bcast_fresh). */
	if ((r = fwd_route_find(t, a.addr)) == NULL || a.epoch < r->epoch) {
		b->c.refused_unknown++;
		return 0;
	}
	e = bla_find(b, a.addr);
	if (e != NULL && (a.epoch < e->epoch ||
	    (a.epoch == e->epoch && a.seqno <= e->seqno))) {
		b->c.refused_replay++;
		return 0;
	}
	if (e == NULL && (e = bla_slot(b)) == NULL) {
		b->c.refused_full++;
		return 0;
	}
	if (!bla_token(b, now_ms)) {
		b->c.refused_rate++;
		/* Fail safe: a flood of frames to check (forged ones, say)
		 * must not make a backbone that is alive time out, which
		 * would let broadcasts loop.  One that could not be checked
		 * keeps an alive backbone of that address and epoch alive
		 * (its seqno is not taken); it never makes a new one. */
		if (e->used && e->alive && e->epoch == a.epoch &&
		    memcmp(e->addr, a.addr, BS_ADDR_LEN) == 0)
			e->last_ms = now_ms;
		return 0;
	}
	if (bs_verify(a.sig, BS_DOM_BLA, a.body, FWD_BLA_BODY_LEN,
	    r->orig_pk) != 0) {
		b->c.refused_sig++;
		return 0;
	}
	if (!e->used || memcmp(e->addr, a.addr, BS_ADDR_LEN) != 0) {
		memset(e, 0, sizeof(*e));
		memcpy(e->addr, a.addr, BS_ADDR_LEN);
		e->used = 1;
	}
	if (!e->alive) {
		e->first_ms = now_ms;
		b->claiming = 1;		/* the set changed */
		b->claim_cursor = 0;
	}
	e->alive = 1;
	e->epoch = a.epoch;
	e->seqno = a.seqno;
	e->last_ms = now_ms;
	b->c.heard++;
	return 1;
}

size_t
fwd_bla_alive(const struct fwd_bla *b)
{
	size_t i, n = 0;

	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++)
		n += b->bb[i].used && b->bb[i].alive;
	return n;
}

int
fwd_bla_waiting(const struct fwd_bla *b, uint64_t now_ms)
{
	return b->enabled &&
	    bla_age(now_ms, b->enabled_ms) < FWD_BLA_WAIT_MS;
}

int
fwd_bla_engaged(const struct fwd_bla *b, uint64_t now_ms)
{
	return b->enabled &&
	    (fwd_bla_waiting(b, now_ms) || fwd_bla_alive(b) > 0);
}

int
fwd_bla_is_backbone(const struct fwd_bla *b,
    const uint8_t addr[static BS_ADDR_LEN])
{
	size_t i;

	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++)
		if (b->bb[i].used && b->bb[i].alive &&
		    memcmp(b->bb[i].addr, addr, BS_ADDR_LEN) == 0)
			return 1;
	return 0;
}

/* ---- the election --------------------------------------------------------- */

/* BLAKE2b-64(mac || vid || backbone), unkeyed: the same on every node. */
static uint64_t
bla_score(const uint8_t *mac, uint16_t vid, const uint8_t *bb)
{
	uint8_t in[BS_ADDR_LEN + 2 + BS_ADDR_LEN], out[8];

	memcpy(in, mac, BS_ADDR_LEN);
	bs_put16(in + BS_ADDR_LEN, vid);
	memcpy(in + BS_ADDR_LEN + 2, bb, BS_ADDR_LEN);
	crypto_generichash(out, sizeof(out), in, sizeof(in), NULL, 0);
	return bs_get64(out);
}

/* a beats b: the higher score, the higher address on a tie. */
static int
bla_beats(uint64_t sa, const uint8_t *a, uint64_t sb, const uint8_t *b)
{
	if (sa != sb)
		return sa > sb;
	return memcmp(a, b, BS_ADDR_LEN) > 0;
}

int
fwd_bla_elect(const struct fwd_bla *b, const uint8_t own[static BS_ADDR_LEN],
    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid, uint8_t *winner)
{
	const uint8_t *best = own;
	uint64_t s, best_s = bla_score(mac, vid, own);
	size_t i;

	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++) {
		if (!b->bb[i].used || !b->bb[i].alive)
			continue;
		s = bla_score(mac, vid, b->bb[i].addr);
		if (bla_beats(s, b->bb[i].addr, best_s, best)) {
			best_s = s;
			best = b->bb[i].addr;
		}
	}
	if (winner != NULL)
		memcpy(winner, best, BS_ADDR_LEN);
	return best == own;
}

/* ---- the rule ------------------------------------------------------------- */

enum fwd_bla_verdict
fwd_bla_from_lan(struct fwd_bla *b, const struct fwd_tables *t,
    const uint8_t own[static BS_ADDR_LEN], const uint8_t *frame, size_t len,
    uint16_t vid, uint64_t now_ms)
{
	const struct fwd_client *cl;
	int ours;

	if (fwd_bla_is_group(frame, len)) {
		(void)fwd_bla_heard(b, t, own, frame, len, now_ms);
		return FWD_BLA_CONSUMED;
	}
	if (!fwd_bla_engaged(b, now_ms))
		return FWD_BLA_PASS;
	if (frame[0] & 0x01) {
		if (fwd_bla_waiting(b, now_ms)) {
			b->c.drops_wait++;
			return FWD_BLA_DROP;
		}
		if (!fwd_bla_elect(b, own, frame + 6, vid, NULL)) {
			b->c.drops_lan++;
			return FWD_BLA_DROP;
		}
		return FWD_BLA_PASS;
	}
	/* Unicast to a client another backbone of this LAN announces: the
	 * destination is on the LAN and had the frame there (a bridge that
	 * flooded an unknown destination). */
	if ((cl = fwd_client_find(t, frame, vid)) != NULL &&
	    fwd_bla_is_backbone(b, cl->orig_addr)) {
		b->c.drops_lan_unicast++;
		return FWD_BLA_DROP;
	}
	ours = fwd_bla_elect(b, own, frame + 6, vid, NULL);
	return ours ? FWD_BLA_PASS : FWD_BLA_PASS_NOLEARN;
}

int
fwd_bla_to_lan(struct fwd_bla *b, const struct fwd_tables *t,
    const uint8_t own[static BS_ADDR_LEN],
    const uint8_t orig[static BS_ADDR_LEN], const uint8_t *inner,
    size_t len, uint16_t vid, uint64_t now_ms)
{
	const struct fwd_route *r;

	if (!b->enabled || len < BLA_ETH_HLEN)
		return 1;
	if (fwd_bla_waiting(b, now_ms)) {
		b->c.drops_wait++;
		return 0;
	}
	/* Until we could have heard its ANNOUNCE (which needs the route). */
	if ((r = fwd_route_find(t, orig)) == NULL ||
	    bla_age(now_ms, r->added_ms) < FWD_BLA_NEW_ORIG_MS) {
		b->c.drops_new_orig++;
		return 0;
	}
	if (fwd_bla_alive(b) == 0)
		return 1;
	if (fwd_bla_is_backbone(b, orig)) {
		b->c.drops_backbone++;
		return 0;
	}
	if (!fwd_bla_elect(b, own, inner + 6, vid, NULL)) {
		b->c.drops_mesh++;
		return 0;
	}
	return 1;
}

size_t
fwd_bla_claim_next(struct fwd_bla *b, const struct fwd_tables *t,
    const uint8_t own[static BS_ADDR_LEN],
    uint8_t out[static FWD_BLA_CLAIM_LEN])
{
	const struct fwd_client *cl;

	if (!b->enabled || !b->claiming)
		return 0;
	while ((cl = fwd_client_next(t, &b->claim_cursor)) != NULL) {
		/* Not the clients a backbone of this LAN (alive or gone)
		 * announces: they are on the LAN itself, and a CLAIM would
		 * make its bridges look for them behind us. */
		if (bla_known(b, cl->orig_addr) ||
		    !fwd_bla_elect(b, own, cl->mac, cl->vid, NULL))
			continue;
		b->c.claims_sent++;
		return fwd_bla_claim_build(out, own, cl->mac, cl->vid);
	}
	b->claiming = 0;
	b->claim_cursor = 0;
	return 0;
}

/* ---- timers --------------------------------------------------------------- */

/* Forget the local clients another backbone serves now. */
static void
bla_unlearn(struct fwd_bla *b, struct fwd_tables *t, const uint8_t *own)
{
	struct { uint8_t mac[BS_ADDR_LEN]; uint16_t vid; } go[64];
	const struct fwd_local *l;
	size_t cursor, n, i;

	do {
		n = 0;
		cursor = 0;
		while (n < sizeof(go) / sizeof(go[0]) &&
		    (l = fwd_local_next(t, &cursor)) != NULL) {
			if (l->permanent ||
			    fwd_bla_elect(b, own, l->mac, l->vid, NULL))
				continue;
			memcpy(go[n].mac, l->mac, BS_ADDR_LEN);
			go[n].vid = l->vid;
			n++;
		}
		for (i = 0; i < n; i++)
			b->c.unlearnt += (uint64_t)fwd_local_forget(t,
			    go[i].mac, go[i].vid);
	} while (n == sizeof(go) / sizeof(go[0]));
}

size_t
fwd_bla_tick(struct fwd_bla *b, struct fwd_tables *t,
    const struct bs_identity *id, uint32_t epoch, uint64_t now_ms,
    uint8_t out[static FWD_BLA_FRAME_LEN])
{
	uint8_t own[BS_ADDR_LEN];
	size_t i;

	if (!b->enabled)
		return 0;
	for (i = 0; i < FWD_BLA_BACKBONE_MAX; i++) {
		struct fwd_bla_backbone *e = &b->bb[i];

		if (e->used && e->alive &&
		    bla_age(now_ms, e->last_ms) >= FWD_BLA_TIMEOUT_MS) {
			e->alive = 0;
			b->c.timeouts++;
			b->claiming = 1;
			b->claim_cursor = 0;
		}
	}
	bs_mesh_addr(own, id->pk);
	if (fwd_bla_alive(b) > 0)
		bla_unlearn(b, t, own);
	if (b->announce_ms != 0 &&
	    bla_age(now_ms, b->announce_ms) < FWD_BLA_ANNOUNCE_MS - 100)
		return 0;
	b->announce_ms = now_ms > 0 ? now_ms : 1;
	if (fwd_bla_build(out, id, epoch, ++b->seqno) == 0)
		return 0;
	b->c.announced++;
	return FWD_BLA_FRAME_LEN;
}
