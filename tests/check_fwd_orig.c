/*
 * check_fwd_orig.c — what the forwarder originates (fwd_orig.c,
 * fwd_announce.c) and how it applies the parser's messages (fwd_parser.c
 * and the handlers forwarder.c registers), checked the way a receiving
 * neighbour checks it:
 *
 *  - an OGM frame with our own entry and relayed ones, parsed with the
 *    wire codec: the own entry's signature, its hop chain at hops 0, its
 *    TT and GATEWAY containers, the relays unchanged, and the tag of each
 *    neighbour verified with the key that neighbour derives itself;
 *  - the trailer switches to an Ed25519 signature with no neighbour and
 *    with more than WIRE_MAX_TAGS of them;
 *  - frames never exceed the interface MTU nor WIRE_OGM_MAX_ENTRIES, keep
 *    every entry in order, and an entry that fits no frame is counted;
 *  - the frame counter grows strictly and stops (no frame) when spent;
 *  - the relay queue's entry and byte bounds, oldest dropped first, and
 *    its deadline (a tenth of the OGM interval, 10..100 ms); relays with
 *    no usable interface are counted;
 *  - HELLOs list the neighbours of the table on that interface only (the
 *    64 strongest when there are more) and are signed;
 *  - the parser's NEIGH, LINK_KEY_REQ, ROUTE_ADD/DEL, TT, GW and RELAY
 *    reach the forwarder's tables and queue; a malformed relay entry is a
 *    violation;
 *  - the cold-start burst: a new neighbour gets a HELLO at once and our
 *    OGM soon after, and an attacker making up neighbours gets at most
 *    the token buckets' bound of extra sends.
 */
#include <sys/socket.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "forwarder/forwarder.h"
#include "forwarder/fwd_admit.h"
#include "common/log.h"
#include "forwarder/fwd_announce.h"
#include "forwarder/fwd_burst.h"
#include "forwarder/fwd_data.h"
#include "forwarder/fwd_links.h"
#include "forwarder/fwd_orig.h"
#include "forwarder/fwd_tables.h"
#include "forwarder/fwd_types.h"
#include "proto/ipc.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_frames.h"
#include "lib/t_ipc.h"

#define EPOCH	7u
#define IF_A	2
#define IF_B	3
#define NPEERS	40

static struct bs_identity id_own, id_orig, id_peer[NPEERS];
static uint8_t addr_own[6], addr_orig[6], addr_peer[NPEERS][6];

static void
identity(struct bs_identity *id, uint8_t *addr, uint8_t fill)
{
	uint8_t seed[BS_SEED_LEN];

	memset(seed, fill, sizeof(seed));
	seed[0] = 0xa5;
	if (bs_identity_from_seed(id, seed) != 0)
		abort();
	bs_mesh_addr(addr, id->pk);
}

static void
keys_init(void)
{
	int i;

	if (bs_crypto_init() != 0)
		abort();
	identity(&id_own, addr_own, 1);
	identity(&id_orig, addr_orig, 2);
	for (i = 0; i < NPEERS; i++)
		identity(&id_peer[i], addr_peer[i], (uint8_t)(10 + i));
}

/* ---- helpers ------------------------------------------------------------------ */

/* Neighbour i up on ifindex with rx_count rx. */
static void
neigh_mac(uint8_t mac[6], int i)
{
	memcpy(mac, addr_peer[i], 6);
	mac[0] = 0x02;
	mac[5] ^= 0x55;
}

static void
neigh_up(struct fwd_tables *t, int i, uint32_t ifindex, uint8_t rx)
{
	uint8_t mac[6];
	struct ipc_neigh n;

	neigh_mac(mac, i);
	n = t_ipc_neigh((struct t_neigh){ .pk = id_peer[i].pk,
	    .addr = addr_peer[i], .mac = mac, .ifindex = ifindex,
	    .state = IPC_NEIGH_UP, .tq = 200, .rx_count = rx });
	ck_assert_int_ge(fwd_neigh_update(t, &n, 1000), FWD_NEIGH_SAME);
}

/* Frames an aggregate emitted, copied. */
#define CAP_FRAMES	64
struct capture {
	uint8_t f[CAP_FRAMES][WIRE_OGM_MAX_LEN];
	size_t len[CAP_FRAMES];
	size_t n;
	int refuse;
};

static struct capture cap;

static int
capture_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct capture *c = arg;

	if (c->refuse || c->n >= CAP_FRAMES)
		return -1;
	ck_assert_uint_le(len, WIRE_OGM_MAX_LEN);
	memcpy(c->f[c->n], frame, len);
	c->len[c->n++] = len;
	return 0;
}

/* Offset of a full entry's TVLVs. */
#define TVLV_OFF	(WIRE_OGM_MUT_LEN + WIRE_OGM_FIXED_LEN)

/*
 * A relay entry as the parser hands it over: orig's OGM (tvlv_pad bytes
 * of an unknown TVLV container make it bigger) one hop on, i.e. ttl 49,
 * hops 1, prev_sender = the originator, element = H(seed).
 */
static size_t
relay_entry(uint8_t *out, size_t tvlv_pad, uint32_t seqno)
{
	uint8_t tv[WIRE_TVLV_MAX], seed[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN];
	uint8_t value[WIRE_TVLV_MAX];
	size_t tvlen = 0;

	memset(value, 0x5a, sizeof(value));
	if (tvlv_pad > 0)
		ck_assert_int_eq(wire_tvlv_put(tv, sizeof(tv), &tvlen, 0x77, 1,
		    value, tvlv_pad - WIRE_TVLV_HDR_LEN), WIRE_OK);
	bs_chain_new(seed, anchor);
	return t_ogm_raw(out, IPC_RELAY_MAX, &(struct t_ogm_entry){
	    .orig = &id_orig, .epoch = 3, .seqno = seqno, .interval_ms = 1000,
	    .chain_seed = seed, .tvlv = tvlen > 0 ? tv : NULL,
	    .tvlv_len = tvlen, .ttl = 49, .tq = 225, .hops = 1,
	    .prev_sender = addr_orig });
}

/* Our link salts and keys, and our MAC on IF_A, for the tag keys. */
static struct fwd_links lk;
static const uint8_t own_ifmac[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 };

/* The OGM key of our link on IF_A with peer i, as peer i derives it. */
static struct t_link
peer_link(int i)
{
	uint8_t mac[6];
	struct t_link l;

	neigh_mac(mac, i);
	t_link_keys(&l, (struct t_end){ &id_peer[i], mac, 1, NULL },
	    (struct t_end){ &id_own, own_ifmac, EPOCH,
	    fwd_links_own_salt(&lk, IF_A, 1000)->salt });
	return l;
}

/* Verify the trailer of a parsed frame as receiver peer i would. */
static void
check_tag(const struct wire_ogm *o, int i)
{
	struct t_link l = peer_link(i);
	const uint8_t *key = l.ogm_key, *kid = l.ogm_keyid;
	int k;

	k = wire_trailer_find(&o->tr, kid);
	ck_assert_msg(k >= 0, "no tag for peer %d", i);
	ck_assert_int_eq(bs_link_mac_verify(o->tr.tags[k].tag, key, o->sender,
	    o->tr.counter, o->tr.covered, o->tr.covered_len), 0);
	/* The tag is bound to the sender address and the counter. */
	ck_assert_int_ne(bs_link_mac_verify(o->tr.tags[k].tag, key, addr_orig,
	    o->tr.counter, o->tr.covered, o->tr.covered_len), 0);
	ck_assert_int_ne(bs_link_mac_verify(o->tr.tags[k].tag, key, o->sender,
	    o->tr.counter + 1, o->tr.covered, o->tr.covered_len), 0);
}

static void
check_sig_trailer(const struct wire_ogm *o)
{
	ck_assert_uint_eq(o->tr.auth, WIRE_AUTH_SIG);
	ck_assert_ptr_nonnull(o->tr.sig);
	ck_assert_int_eq(bs_verify(o->tr.sig, BS_DOM_LINK, o->tr.covered,
	    o->tr.covered_len, id_own.pk), 0);
}

static struct fwd_orig og;
static struct fwd_agg agg;
static struct wire_ogm wo;

/* ---- OGM frames -------------------------------------------------------------------- */

START_TEST(test_own_and_relays)
{
	static const uint8_t cmac[2][6] = { { 0x02, 1, 2, 3, 4, 5 },
	    { 0x00, 0x16, 0x3e, 1, 2, 3 } };
	struct wire_tt_entry tt[2] = { { cmac[0], 0, 0 },
	    { cmac[1], WIRE_VID_TAGGED | 12, WIRE_TT_F_ISOLATED } };
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	struct wire_tt_entry got;
	struct fwd_tables *t = fwd_tables_new();
	const struct wire_ogm_entry *e;
	uint8_t r1[IPC_RELAY_MAX], r2[IPC_RELAY_MAX];
	size_t l1, l2, nkeys;

	ck_assert_ptr_nonnull(t);
	neigh_up(t, 0, IF_A, 64);
	neigh_up(t, 1, IF_A, 30);
	neigh_up(t, 2, IF_B, 64);	/* another interface: no tag */
	memset(&cap, 0, sizeof(cap));
	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	ck_assert_int_eq(fwd_ogm_originate(&og, tt, 2, 100, 20), WIRE_OK);
	ck_assert_uint_eq(og.ogm_seqno, 1);
	l1 = relay_entry(r1, 0, 10);
	l2 = relay_entry(r2, 200, 11);

	fwd_links_init(&lk, &id_own, EPOCH);
	nkeys = fwd_orig_tagkeys(t, &lk, IF_A, own_ifmac, 1000, keys,
	    WIRE_MAX_TAGS, &og.c);
	ck_assert_uint_eq(nkeys, 2);
	ck_assert_uint_eq(og.c.link_keys, 2);
	fwd_agg_begin(&agg, &og, keys, nkeys, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_add(&agg, r1, l1), WIRE_OK);
	ck_assert_int_eq(fwd_agg_add(&agg, r2, l2), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(cap.n, 1);

	ck_assert_int_eq(wire_ogm_parse(cap.f[0], cap.len[0], &wo), WIRE_OK);
	ck_assert_uint_eq(wo.num_entries, 3);
	ck_assert_mem_eq(wo.sender, addr_own, 6);
	ck_assert_uint_eq(wo.tr.counter, (uint64_t)EPOCH << 32 | 1);
	/* Our own entry, as any node checks it. */
	e = &wo.e[0];
	ck_assert_mem_eq(e->sgn.pk, id_own.pk, BS_PK_LEN);
	ck_assert_uint_eq(e->sgn.epoch, EPOCH);
	ck_assert_uint_eq(e->sgn.seqno, 1);
	ck_assert_uint_eq(e->sgn.interval_ms, 1000);
	ck_assert_int_eq(bs_verify(e->sig, BS_DOM_OGM, e->signed_ptr,
	    e->signed_len, id_own.pk), 0);
	ck_assert_int_eq(bs_chain_verify(e->sgn.anchor, e->mut.chain, 0), 0);
	ck_assert_int_ne(bs_chain_verify(e->sgn.anchor, e->mut.chain, 1), 0);
	ck_assert_uint_eq(e->mut.hops, 0);
	ck_assert_uint_eq(e->mut.ttl, FWD_OGM_TTL);
	ck_assert_uint_eq(e->mut.tq, 255);
	ck_assert_mem_eq(e->mut.prev_sender, addr_own, 6);
	ck_assert_uint_eq(e->tv.tt_count, 2);
	wire_tt_get(e->tv.tt, 1, &got);
	ck_assert_mem_eq(got.mac, cmac[1], 6);
	ck_assert_uint_eq(got.vid, WIRE_VID_TAGGED | 12);
	/* The isolated-client flag is signed in our own entry. */
	ck_assert_uint_eq(got.flags, WIRE_TT_F_ISOLATED);
	wire_tt_get(e->tv.tt, 0, &got);
	ck_assert_uint_eq(got.flags, 0);
	ck_assert(e->tv.present & (1u << WIRE_TVLV_GATEWAY));
	ck_assert_uint_eq(e->tv.gw_down, 100);
	ck_assert_uint_eq(e->tv.gw_up, 20);
	/* Relays travel byte for byte as the parser wrote them. */
	ck_assert_uint_eq(wo.e[1].raw_len, l1);
	ck_assert_mem_eq(wo.e[1].raw, r1, l1);
	ck_assert_mem_eq(wo.e[2].raw, r2, l2);
	ck_assert_int_eq(bs_chain_verify(wo.e[2].sgn.anchor, wo.e[2].mut.chain,
	    1), 0);
	/* One tag per neighbour on that interface, each verifiable. */
	ck_assert_uint_eq(wo.tr.auth, WIRE_AUTH_MAC);
	ck_assert_uint_eq(wo.tr.num_tags, 2);
	check_tag(&wo, 0);
	check_tag(&wo, 1);
	ck_assert_uint_eq(og.c.ogm_frames_mac, 1);
	ck_assert_uint_eq(og.c.ogm_entries, 3);
	fwd_tables_free(t);
}
END_TEST

/* No TT clients and no gateway: an entry without TVLVs. */
START_TEST(test_own_plain)
{
	struct wire_tt_entry tt[WIRE_TT_MAX + 1];

	memset(&cap, 0, sizeof(cap));
	fwd_orig_init(&og, &id_own, EPOCH, 500, 1000);
	ck_assert_int_eq(fwd_ogm_originate(&og, NULL, 0, 0, 0), WIRE_OK);
	fwd_agg_begin(&agg, &og, NULL, 0, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_int_eq(wire_ogm_parse(cap.f[0], cap.len[0], &wo), WIRE_OK);
	ck_assert_uint_eq(wo.e[0].sgn.tvlv_len, 0);
	ck_assert_uint_eq(wo.e[0].sgn.interval_ms, 500);
	ck_assert_uint_eq(og.own_len, WIRE_OGM_ENTRY_MIN);
	/* Too many clients is refused and leaves nothing to send. */
	memset(tt, 0, sizeof(tt));
	ck_assert_int_eq(fwd_ogm_originate(&og, tt, WIRE_TT_MAX + 1, 0, 0),
	    WIRE_EINVAL);
	ck_assert_uint_eq(og.own_len, 0);
	ck_assert_uint_eq(og.ogm_seqno, 1);
}
END_TEST

/* Neighbours on the interface -> the trailer a receiver gets. */
static const struct {
	int neigh;
	uint8_t auth;
	unsigned tags;
} trailer_cases[] = {
	{ 0, WIRE_AUTH_SIG, 0 },	/* nobody yet: signature */
	{ 1, WIRE_AUTH_MAC, 1 },
	{ 16, WIRE_AUTH_MAC, 16 },
	{ 17, WIRE_AUTH_MAC, 17 },	/* was the first signed (16 tags) */
	{ 32, WIRE_AUTH_MAC, 32 },
	{ 33, WIRE_AUTH_SIG, 0 },	/* more than 32 tags: signature */
	{ NPEERS, WIRE_AUTH_SIG, 0 },
};

/*
 * n neighbours on IF_A with keys, our own OGM made, the link keys to
 * them in keys (WIRE_MAX_TAGS room): how many.
 */
static size_t
keyed_neighbours(struct fwd_tables *t, int n, struct fwd_tagkey *keys)
{
	int i;

	for (i = 0; i < n; i++)
		neigh_up(t, i, IF_A, 64);
	memset(&cap, 0, sizeof(cap));
	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	ck_assert_int_eq(fwd_ogm_originate(&og, NULL, 0, 0, 0), WIRE_OK);
	fwd_links_init(&lk, &id_own, EPOCH);
	return fwd_orig_tagkeys(t, &lk, IF_A, own_ifmac, 1000, keys,
	    WIRE_MAX_TAGS, NULL);
}

START_TEST(test_trailer_mode)
{
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	struct fwd_tables *t = fwd_tables_new();
	size_t nkeys;
	int i;

	ck_assert_ptr_nonnull(t);
	nkeys = keyed_neighbours(t, trailer_cases[_i].neigh, keys);
	ck_assert_uint_eq(nkeys, (size_t)trailer_cases[_i].neigh);
	fwd_agg_begin(&agg, &og, keys, nkeys, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_int_eq(wire_ogm_parse(cap.f[0], cap.len[0], &wo), WIRE_OK);
	ck_assert_uint_eq(wo.tr.auth, trailer_cases[_i].auth);
	ck_assert_uint_eq(wo.tr.num_tags, trailer_cases[_i].tags);
	if (trailer_cases[_i].auth == WIRE_AUTH_SIG) {
		check_sig_trailer(&wo);
		ck_assert_uint_eq(og.c.ogm_frames_sig, 1);
	} else {
		for (i = 0; i < trailer_cases[_i].neigh; i++)
			check_tag(&wo, i);
	}
	/* Keys derived once are kept in the table entries. */
	nkeys = fwd_orig_tagkeys(t, &lk, IF_A, own_ifmac, 1000, keys,
	    WIRE_MAX_TAGS, &og.c);
	ck_assert_uint_eq(og.c.link_keys, 0);
	fwd_tables_free(t);
}
END_TEST

/* MTU, relay count and TVLV padding -> frames that all fit. */
static const struct {
	size_t mtu;
	int relays;
	size_t pad;
	size_t frames;
} split_cases[] = {
	{ 1500, 20, 0, 3 },		/* 21 of 156 bytes: 9 + 9 + 3 */
	{ 4096, 40, 0, 2 },		/* 41 of 156 bytes: 25 + 16 */
	{ 1500, 6, 1024, 6 },		/* one big entry per frame */
	{ 9000, 8, 1024, 3 },		/* capped at 4096: 3 per frame */
	{ 1200, 12, 400, 7 },		/* own + 1, then 556-byte pairs */
	{ 400, 3, 0, 2 },		/* 156-byte entries, exactly 2 fit */
};

START_TEST(test_mtu_split)
{
	static uint8_t r[48][IPC_RELAY_MAX];
	size_t len[48], k, j = 0, total = 0;
	uint64_t last = 0;
	int i;

	memset(&cap, 0, sizeof(cap));
	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	ck_assert_int_eq(fwd_ogm_originate(&og, NULL, 0, 0, 0), WIRE_OK);
	for (i = 0; i < split_cases[_i].relays; i++)
		len[i] = relay_entry(r[i], split_cases[_i].pad,
		    (uint32_t)i + 1);
	fwd_agg_begin(&agg, &og, NULL, 0, split_cases[_i].mtu, capture_frame,
	    &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	for (i = 0; i < split_cases[_i].relays; i++)
		ck_assert_int_eq(fwd_agg_add(&agg, r[i], len[i]), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(cap.n, split_cases[_i].frames);
	for (k = 0; k < cap.n; k++) {
		ck_assert_uint_le(cap.len[k], split_cases[_i].mtu);
		ck_assert_int_eq(wire_ogm_parse(cap.f[k], cap.len[k], &wo),
		    WIRE_OK);
		ck_assert_uint_le(wo.num_entries, WIRE_OGM_MAX_ENTRIES);
		check_sig_trailer(&wo);
		ck_assert_uint_gt(wo.tr.counter, last);
		last = wo.tr.counter;
		for (i = 0; i < (int)wo.num_entries; i++, j++) {
			if (j == 0) {
				ck_assert_mem_eq(wo.e[i].raw, og.own,
				    og.own_len);
				continue;
			}
			ck_assert_uint_eq(wo.e[i].raw_len, len[j - 1]);
			ck_assert_mem_eq(wo.e[i].raw, r[j - 1], len[j - 1]);
		}
		total += wo.num_entries;
	}
	ck_assert_uint_eq(total, (size_t)split_cases[_i].relays + 1);
	ck_assert_uint_eq(og.c.ogm_entries, total);
}
END_TEST

/* An entry no frame of that MTU can hold is dropped and counted. */
/*
 * Full and compact own OGMs (batsec-protocol(7), "OGM CHAIN"): full ones
 * at start, after a change of the description, for a new neighbour, at
 * the end of a chain and every FWD_FULL_EVERY; every compact one's
 * element links to the last full one's by the chain, and its hop chain
 * from the signed anchor too.
 */
START_TEST(test_full_compact)
{
	static const uint8_t cmac[6] = { 0x02, 1, 2, 3, 4, 5 };
	struct wire_tt_entry tt = { cmac, 0, 0 };
	uint8_t d0[16], d1[16], ref[BS_CHAIN_LEN], own[FWD_OWN_ENTRY_MAX];
	struct wire_ogm_head h;
	uint32_t ref_seq = 0, s;
	unsigned steps, full = 0, compact = 0, since = 0;
	int f;

	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	fwd_ogm_desc_digest(d0, &tt, 1, 0, 0, NULL, 0, NULL, 0);
	fwd_ogm_desc_digest(d1, &tt, 1, 100, 20, NULL, 0, NULL, 0);
	ck_assert_mem_ne(d0, d1, 16);
	for (s = 1; s <= 300; s++) {
		/* The description changes at 100, a neighbour comes at 200. */
		if (s == 200)
			fwd_ogm_want_full(&og, 2);
		f = fwd_ogm_full_due(&og, s >= 100 ? d1 : d0, 0);
		ck_assert_int_eq(f ? fwd_ogm_originate(&og, &tt, 1, s >= 100 ?
		    100 : 0, s >= 100 ? 20 : 0) :
		    fwd_ogm_originate_compact(&og), WIRE_OK);
		ck_assert_uint_eq(og.ogm_seqno, s);
		memcpy(own, og.own, og.own_len);
		ck_assert_int_eq(wire_ogm_head_get(own, og.own_len, &h),
		    WIRE_OK);
		ck_assert_uint_eq(h.mut.hops, 0);
		ck_assert_mem_eq(h.mut.prev_sender, addr_own, 6);
		if (s <= FWD_FULL_REPEAT || (s >= 100 &&
		    s < 100 + FWD_FULL_REPEAT) || s == 200 || s == 201 ||
		    s == BS_OGMCHAIN_SEQNOS + 1 || s == 2 * BS_OGMCHAIN_SEQNOS + 1)
			ck_assert_msg(f, "seqno %u should be full", s);
		ck_assert_msg(since < FWD_FULL_EVERY, "seqno %u: %u compact in "
		    "a row", s, since);
		if (f) {
			struct wire_ogm o1;
			uint8_t fr[FWD_OWN_ENTRY_MAX + 200];
			struct wire_ogm_builder b;
			size_t len;

			ck_assert_uint_eq(h.mut.kind, WIRE_OGM_FULL);
			ck_assert_uint_eq(og.own_len, WIRE_OGM_ENTRY_MIN +
			    h.tvlv_len);
			/* Its anchor is H^32 of its element. */
			ck_assert_int_eq(wire_ogm_begin(&b, fr, sizeof(fr),
			    addr_own), WIRE_OK);
			ck_assert_int_eq(wire_ogm_add(&b, &h.mut,
			    own + WIRE_OGM_MUT_LEN, og.own_len -
			    WIRE_OGM_MUT_LEN), WIRE_OK);
			ck_assert_int_eq(wire_ogm_trailer(&b, WIRE_AUTH_SIG, 0,
			    1, NULL, NULL), WIRE_OK);
			ck_assert_int_eq(wire_ogm_add_sig(&b, own), WIRE_OK);
			ck_assert_int_eq(wire_ogm_finish(&b, &len), WIRE_OK);
			ck_assert_int_eq(wire_ogm_parse(fr, len, &o1), WIRE_OK);
			ck_assert_uint_eq(o1.e[0].sgn.seqno, s);
			ck_assert_int_eq(bs_chain_verify(o1.e[0].sgn.anchor,
			    h.mut.chain, 0), 0);
			/* Each full one links to the last: same chain,
			 * except across a chain's end. */
			if (ref_seq != 0 && (s - 1) % BS_OGMCHAIN_SEQNOS != 0)
				ck_assert_int_eq(bs_chain_link(ref, ref_seq, 0,
				    h.mut.chain, s, 0, 100000, &steps), 0);
			full++;
			since = 0;
		} else {
			ck_assert_uint_eq(h.mut.kind, WIRE_OGM_COMPACT);
			ck_assert_uint_eq(og.own_len, WIRE_OGM_COMPACT_LEN);
			ck_assert_ptr_null(h.pk);
			ck_assert_mem_eq(h.orig, addr_own, 6);
			ck_assert_uint_eq(bs_get32(own + WIRE_OGM_MUT_LEN + 6),
			    s);
			ck_assert_int_eq(bs_chain_link(ref, ref_seq, 0,
			    h.mut.chain, s, 0, 100000, &steps), 0);
			ck_assert_uint_eq(steps, BS_MAXHOPS * (s - ref_seq));
			compact++;
			since++;
		}
		memcpy(ref, h.mut.chain, BS_CHAIN_LEN);
		ref_seq = s;
	}
	ck_assert_uint_eq(og.c.ogm_full, full);
	ck_assert_uint_eq(og.c.ogm_compact, compact);
	ck_assert_uint_eq(full + compact, 300);
	/* At most one in FWD_FULL_EVERY plus the repeats, chain ends and
	 * the new neighbour: 300 / FWD_FULL_EVERY + 3 + 3 + 2 + 2. */
	ck_assert_uint_le(full, 300 / FWD_FULL_EVERY + 10);
	ck_assert_uint_ge(compact, 270);
}
END_TEST

/* The hop chain of a compact entry: more hops link, fewer do not. */
START_TEST(test_compact_hops)
{
	uint8_t d[16] = { 0 }, full_el[BS_CHAIN_LEN], el[BS_CHAIN_LEN];
	uint8_t r5[BS_CHAIN_LEN];
	struct wire_ogm_head h;
	unsigned steps, k;

	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	ck_assert_int_eq(fwd_ogm_full_due(&og, d, 0), 1);
	ck_assert_int_eq(fwd_ogm_originate(&og, NULL, 0, 0, 0), WIRE_OK);
	ck_assert_int_eq(wire_ogm_head_get(og.own, og.own_len, &h), WIRE_OK);
	memcpy(full_el, h.mut.chain, BS_CHAIN_LEN);
	og.full_left = 0;
	ck_assert_int_eq(fwd_ogm_full_due(&og, d, 0), 0);
	ck_assert_int_eq(fwd_ogm_originate_compact(&og), WIRE_OK);
	ck_assert_int_eq(wire_ogm_head_get(og.own, og.own_len, &h), WIRE_OK);
	for (k = 0; k <= BS_MAXHOPS; k++) {
		ck_assert_int_eq(bs_chain_iter(el, h.mut.chain, k), 0);
		/* The reference: the full entry's element seen 5 hops on. */
		ck_assert_int_eq(bs_chain_iter(r5, full_el, 5), 0);
		ck_assert_int_eq(bs_chain_link(r5, 1, 5, el, 2, k, 1000,
		    &steps), 0);
		ck_assert_uint_eq(steps, BS_MAXHOPS + 5 - k);
		if (k > 0)
			ck_assert_int_eq(bs_chain_link(r5, 1, 5, el, 2, k - 1,
			    1000, &steps), -1);
		if (k < BS_MAXHOPS)
			ck_assert_int_eq(bs_chain_link(r5, 1, 5, el, 2, k + 1,
			    1000, &steps), -1);
		/* A later seqno cannot be claimed from it. */
		ck_assert_int_eq(bs_chain_link(r5, 1, 5, el, 3, k, 1000,
		    &steps), -1);
	}
	/* Too far: nothing hashed. */
	ck_assert_int_eq(bs_chain_link(full_el, 1, 0, h.mut.chain, 2, 0,
	    BS_MAXHOPS - 1, &steps), -1);
	ck_assert_uint_eq(steps, 0);
	/* The chain does not cover the seqno: compact refused. */
	og.ogm_seqno = og.chain.base + BS_OGMCHAIN_SEQNOS - 1;
	ck_assert_int_eq(fwd_ogm_full_due(&og, d, 0), 1);
	ck_assert_int_eq(fwd_ogm_originate_compact(&og), WIRE_EINVAL);
	ck_assert_uint_eq(og.own_len, 0);
}
END_TEST

START_TEST(test_entry_too_big)
{
	uint8_t r[IPC_RELAY_MAX];
	size_t l = relay_entry(r, 1024, 1);

	memset(&cap, 0, sizeof(cap));
	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	ck_assert_int_eq(fwd_ogm_originate(&og, NULL, 0, 0, 0), WIRE_OK);
	fwd_agg_begin(&agg, &og, NULL, 0, 1000, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, r, l), WIRE_ELEN);
	ck_assert_uint_eq(og.c.entry_too_big, 1);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(cap.n, 1);
	/* A malformed entry is refused, and an empty frame never sent. */
	r[WIRE_OGM_MUT_LEN + 40] = 0xff;	/* flags: undefined bit */
	fwd_agg_begin(&agg, &og, NULL, 0, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, r, l), WIRE_EINVAL);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_uint_eq(og.counter, 1);
}
END_TEST

/*
 * With 32 tags (396 trailer bytes) an entry over 1 092 bytes does not fit
 * a 1500-byte frame: it goes out in a signed frame (76 trailer bytes),
 * which takes the entries after it while they fit; the next frame is
 * tagged again.  Nothing is dropped.
 */
START_TEST(test_tagged_big_entry)
{
	static uint8_t big[IPC_RELAY_MAX], small[3][IPC_RELAY_MAX];
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	struct fwd_tables *t = fwd_tables_new();
	size_t lbig, lsmall[3], nkeys;
	int i;

	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(WIRE_MAX_TAGS, 32);
	nkeys = keyed_neighbours(t, WIRE_MAX_TAGS, keys);
	ck_assert_uint_eq(nkeys, WIRE_MAX_TAGS);
	lbig = relay_entry(big, 1024, 1);
	ck_assert_uint_gt(lbig, 1500 - WIRE_OGM_HDR_LEN -
	    wire_trailer_len(WIRE_AUTH_MAC, WIRE_MAX_TAGS));
	for (i = 0; i < 3; i++)
		lsmall[i] = relay_entry(small[i], 0, (uint32_t)i + 2);
	fwd_agg_begin(&agg, &og, keys, nkeys, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_add(&agg, big, lbig), WIRE_OK);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(fwd_agg_add(&agg, small[i], lsmall[i]),
		    WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(og.c.entry_too_big, 0);
	/* [own] tagged, [big, small 0] signed, [small 1, small 2] tagged. */
	ck_assert_uint_eq(cap.n, 3);
	ck_assert_uint_eq(og.c.ogm_frames_mac, 2);
	ck_assert_uint_eq(og.c.ogm_frames_sig, 1);
	for (i = 0; i < 3; i++)
		ck_assert_uint_le(cap.len[i], 1500);
	ck_assert_int_eq(wire_ogm_parse(cap.f[0], cap.len[0], &wo), WIRE_OK);
	ck_assert_uint_eq(wo.tr.auth, WIRE_AUTH_MAC);
	ck_assert_uint_eq(wo.tr.num_tags, WIRE_MAX_TAGS);
	ck_assert_uint_eq(wo.num_entries, 1);
	check_tag(&wo, 0);
	check_tag(&wo, WIRE_MAX_TAGS - 1);
	ck_assert_int_eq(wire_ogm_parse(cap.f[1], cap.len[1], &wo), WIRE_OK);
	check_sig_trailer(&wo);
	ck_assert_uint_eq(wo.num_entries, 2);
	ck_assert_mem_eq(wo.e[0].raw, big, lbig);
	ck_assert_mem_eq(wo.e[1].raw, small[0], lsmall[0]);
	ck_assert_int_eq(wire_ogm_parse(cap.f[2], cap.len[2], &wo), WIRE_OK);
	ck_assert_uint_eq(wo.tr.auth, WIRE_AUTH_MAC);
	ck_assert_uint_eq(wo.num_entries, 2);
	ck_assert_mem_eq(wo.e[1].raw, small[2], lsmall[2]);
	check_tag(&wo, 5);
	/* Alone in a smaller frame that holds it only signed (1 266 bytes,
	 * 1 298 with 8 tags): signed. */
	memset(&cap, 0, sizeof(cap));
	fwd_agg_begin(&agg, &og, keys, 8, 1280, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, big, lbig), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_int_eq(wire_ogm_parse(cap.f[0], cap.len[0], &wo), WIRE_OK);
	check_sig_trailer(&wo);
	/* Too long even signed: dropped and counted, as before. */
	fwd_agg_begin(&agg, &og, keys, nkeys, 1200, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, big, lbig), WIRE_ELEN);
	ck_assert_int_eq(fwd_agg_end(&agg), 0);
	ck_assert_uint_eq(og.c.entry_too_big, 1);
	ck_assert_uint_eq(cap.n, 1);
	fwd_tables_free(t);
}
END_TEST

START_TEST(test_counter)
{
	uint64_t a, b;

	fwd_orig_init(&og, &id_own, EPOCH, 1000, 1000);
	ck_assert_int_eq(fwd_orig_counter(&og, &a), 0);
	ck_assert_int_eq(fwd_orig_counter(&og, &b), 0);
	ck_assert_uint_eq(a, (uint64_t)EPOCH << 32 | 1);
	ck_assert_uint_gt(b, a);
	/* A later epoch is always above anything this one sent. */
	og.counter = UINT32_MAX - 1;
	ck_assert_int_eq(fwd_orig_counter(&og, &a), 0);
	ck_assert_uint_lt(a, (uint64_t)(EPOCH + 1) << 32);
	ck_assert_int_eq(fwd_orig_counter(&og, &b), -1);
	ck_assert_uint_eq(og.c.counter_exhausted, 1);
	/* Spent: frames are not sent rather than sent with a reused one. */
	memset(&cap, 0, sizeof(cap));
	ck_assert_int_eq(fwd_ogm_originate(&og, NULL, 0, 0, 0), WIRE_OK);
	fwd_agg_begin(&agg, &og, NULL, 0, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), -1);
	ck_assert_uint_eq(cap.n, 0);
	/* A frame the socket refused still used up its counter. */
	og.counter = 5;
	cap.refuse = 1;
	fwd_agg_begin(&agg, &og, NULL, 0, 1500, capture_frame, &cap);
	ck_assert_int_eq(fwd_agg_add(&agg, og.own, og.own_len), WIRE_OK);
	ck_assert_int_eq(fwd_agg_end(&agg), -1);
	ck_assert_uint_eq(og.counter, 6);
}
END_TEST

START_TEST(test_jitter)
{
	uint64_t v, lo = UINT64_MAX, hi = 0;
	int i;

	for (i = 0; i < 2000; i++) {
		v = fwd_jitter(1000);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	ck_assert_uint_ge(lo, 900);
	ck_assert_uint_le(hi, 1100);
	ck_assert_uint_lt(lo, hi);	/* it does vary */
	ck_assert_uint_ge(fwd_jitter(100), 90);
	ck_assert_uint_le(fwd_jitter(60000), 66000);
}
END_TEST

/* ---- relay queue -------------------------------------------------------------------- */

/* A tenth of the OGM interval, within 10..100 ms. */
START_TEST(test_relay_delay)
{
	ck_assert_uint_eq(fwd_relay_delay(1000), 100);
	ck_assert_uint_eq(fwd_relay_delay(500), 50);
	ck_assert_uint_eq(fwd_relay_delay(WIRE_INTERVAL_MIN), 10);
	ck_assert_uint_eq(fwd_relay_delay(50), FWD_RELAY_DELAY_MIN_MS);
	ck_assert_uint_eq(fwd_relay_delay(5000), FWD_RELAY_DELAY_MAX_MS);
	ck_assert_uint_eq(fwd_relay_delay(WIRE_INTERVAL_MAX),
	    FWD_RELAY_DELAY_MAX_MS);
}
END_TEST

/* A compact entry relayed with hops hops, 36 bytes at e. */
static size_t
compact_entry(uint8_t *e, uint8_t hops)
{
	static const uint8_t chain[BS_CHAIN_LEN];
	struct wire_ogm_mut m = { .ttl = 40, .tq = 100, .hops = hops,
	    .kind = WIRE_OGM_COMPACT, .prev_sender = addr_orig,
	    .chain = chain };

	ck_assert_int_eq(wire_ogm_mut_put(e, WIRE_OGM_MUT_LEN, &m), WIRE_OK);
	ck_assert_int_eq(wire_ogm_compact_build(e + WIRE_OGM_MUT_LEN,
	    addr_orig, 9), WIRE_OK);
	return WIRE_OGM_COMPACT_LEN;
}

/*
 * Far compact entries wait FWD_RELAY_FAR_MULT relay delays, unless a full
 * or near one waits too or a frame's worth is queued.
 */
START_TEST(test_relayq_far)
{
	static struct fwd_relayq q;
	uint8_t far[WIRE_OGM_COMPACT_LEN], near[WIRE_OGM_COMPACT_LEN];
	uint8_t full[IPC_RELAY_MAX];
	size_t lf = compact_entry(far, FWD_RELAY_FAR_HOPS), lfull, i;

	(void)compact_entry(near, FWD_RELAY_FAR_HOPS - 1);
	lfull = relay_entry(full, 0, 1);
	full[2] = BS_MAXHOPS;		/* far, but full */
	fwd_relayq_init(&q, 100);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 1000);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 1010);
	ck_assert_uint_eq(fwd_relayq_deadline(&q),
	    1000 + FWD_RELAY_FAR_MULT * 100);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, near, lf, 1050);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 1050 + 100);
	fwd_relayq_clear(&q);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 2000);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, full, lfull, 2050);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 2050 + 100);
	fwd_relayq_clear(&q);
	/* A frame's worth of far ones: at once. */
	for (i = 0; (i + 1) * lf < FWD_RELAY_FRAME_BYTES; i++)
		(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 3000);
	ck_assert_uint_gt(fwd_relayq_deadline(&q), 3000);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 3000);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 1);
	fwd_relayq_clear(&q);
	/* Held (a neighbour came or went): far ones queued before 5000
	 * wait one delay; the hold survives the clear; later ones wait
	 * three. */
	fwd_relayq_hold(&q, 5000);
	fwd_relayq_hold(&q, 4500);		/* never shortened */
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 4990);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 4990 + 100);
	fwd_relayq_clear(&q);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 5000);
	ck_assert_uint_eq(fwd_relayq_deadline(&q),
	    5000 + FWD_RELAY_FAR_MULT * 100);
	fwd_relayq_clear(&q);
	/* Turned off: every entry waits the relay delay. */
	fwd_relayq_far(&q, 0, 0);
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, far, lf, 6000);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 6100);
}
END_TEST

START_TEST(test_relayq_bounds)
{
	static struct fwd_relayq q;
	uint8_t e[IPC_RELAY_MAX];
	size_t dropped = 0, i;

	fwd_relayq_init(&q, 70);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 0);
	memset(e, 0, sizeof(e));
	/* By entries: 100 small ones, the 36 oldest go. */
	for (i = 0; i < 100; i++) {
		e[0] = (uint8_t)i;
		dropped += fwd_relayq_push(&q, IPC_IFINDEX_ALL, e, 200,
		    5000 + i);
	}
	ck_assert_uint_eq(q.n, FWD_RELAY_QMAX);
	ck_assert_uint_eq(dropped, 100 - FWD_RELAY_QMAX);
	ck_assert_uint_eq(fwd_relayq_at(&q, 0)->entry[0], 100 - FWD_RELAY_QMAX);
	ck_assert_uint_eq(fwd_relayq_at(&q, FWD_RELAY_QMAX - 1)->entry[0], 99);
	ck_assert_uint_eq(q.bytes, FWD_RELAY_QMAX * 200);
	/* 64 entries, more than a frame holds: at once. */
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 1);
	fwd_relayq_clear(&q);
	ck_assert_uint_eq(q.n, 0);
	ck_assert_uint_eq(q.bytes, 0);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 0);
	/* The delay survives the clear. */
	(void)fwd_relayq_push(&q, IPC_IFINDEX_ALL, e, 200, 9000);
	ck_assert_uint_eq(fwd_relayq_deadline(&q), 9000 + 70);
	fwd_relayq_clear(&q);
	/* By bytes: the largest entries, never over FWD_RELAY_QBYTES. */
	dropped = 0;
	for (i = 0; i < FWD_RELAY_QMAX; i++) {
		e[0] = (uint8_t)i;
		dropped += fwd_relayq_push(&q, IF_A, e, IPC_RELAY_MAX, 9000);
		ck_assert_uint_le(q.bytes, FWD_RELAY_QBYTES);
	}
	ck_assert_uint_eq(q.n, FWD_RELAY_QBYTES / IPC_RELAY_MAX);
	ck_assert_uint_eq(dropped + q.n, FWD_RELAY_QMAX);
	ck_assert_uint_eq(fwd_relayq_at(&q, q.n - 1)->entry[0],
	    FWD_RELAY_QMAX - 1);
	ck_assert_uint_eq(fwd_relayq_at(&q, 0)->ifindex, IF_A);
	/* Oversized or empty entries are not queued. */
	ck_assert_uint_eq(fwd_relayq_push(&q, IF_A, e, IPC_RELAY_MAX + 1, 1),
	    0);
	ck_assert_uint_eq(fwd_relayq_push(&q, IF_A, e, 0, 1), 0);
	ck_assert_uint_eq(q.n, FWD_RELAY_QBYTES / IPC_RELAY_MAX);
}
END_TEST

/* Entries the parser may hand over, and ones it must not. */
START_TEST(test_relay_entry_ok)
{
	uint8_t r[IPC_RELAY_MAX], bad[IPC_RELAY_MAX];
	size_t l = relay_entry(r, 40, 1);

	ck_assert_int_eq(fwd_relay_entry_ok(r, l), 0);
	ck_assert_int_ne(fwd_relay_entry_ok(r, l - 1), 0);
	ck_assert_int_ne(fwd_relay_entry_ok(r, WIRE_OGM_ENTRY_MIN - 1), 0);
	ck_assert_int_ne(fwd_relay_entry_ok(NULL, l), 0);
	memcpy(bad, r, l);
	bad[0] = 0;			/* ttl 0 */
	ck_assert_int_ne(fwd_relay_entry_ok(bad, l), 0);
	memcpy(bad, r, l);
	bad[3] = 1;			/* kind compact, a full length */
	ck_assert_int_ne(fwd_relay_entry_ok(bad, l), 0);
	memcpy(bad, r, l);
	bad[2] = BS_MAXHOPS + 1;	/* hops */
	ck_assert_int_ne(fwd_relay_entry_ok(bad, l), 0);
	memcpy(bad, r, l);
	bad[4] = 0x01;			/* prev_sender: multicast */
	ck_assert_int_ne(fwd_relay_entry_ok(bad, l), 0);
	memcpy(bad, r, l);
	bad[TVLV_OFF + 2] = 0x7f;	/* the first TVLV's length */
	ck_assert_int_ne(fwd_relay_entry_ok(bad, l), 0);
}
END_TEST

/* ---- HELLO -------------------------------------------------------------------------- */

START_TEST(test_hello)
{
	static const uint8_t ifmac[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	static const uint8_t salt[BS_LINKSALT_LEN] = { 1, 2, 3, 4, 5, 6, 7,
	    8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct fwd_peer peers[WIRE_HELLO_MAX_NEIGH];
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	struct fwd_tables *t = fwd_tables_new();
	struct wire_hello h;
	size_t n, len = 0, i;
	int k, found;

	ck_assert_ptr_nonnull(t);
	neigh_up(t, 0, IF_A, 64);
	neigh_up(t, 1, IF_A, 12);
	neigh_up(t, 2, IF_A, 0);
	neigh_up(t, 3, IF_B, 64);	/* heard on the other interface */
	n = fwd_orig_peers(t, IF_A, peers, WIRE_HELLO_MAX_NEIGH);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(fwd_hello_build(&id_own, ifmac, 1000, EPOCH, 42,
	    salt, peers, n, buf, sizeof(buf), &len), WIRE_OK);
	ck_assert_int_eq(wire_hello_parse(buf, len, &h), WIRE_OK);
	ck_assert_mem_eq(h.pk, id_own.pk, BS_PK_LEN);
	ck_assert_mem_eq(h.ifmac, ifmac, 6);
	ck_assert_uint_eq(h.epoch, EPOCH);
	ck_assert_uint_eq(h.seqno, 42);
	ck_assert_uint_eq(h.interval_ms, 1000);
	ck_assert_mem_eq(h.salt, salt, sizeof(salt));
	ck_assert_ptr_null(h.cert);
	ck_assert_int_eq(bs_verify(h.sig, BS_DOM_HELLO, h.signed_ptr,
	    h.signed_len, id_own.pk), 0);
	ck_assert_uint_eq(h.num_neigh, 3);
	for (k = 0; k < 3; k++) {
		found = 0;
		for (i = 0; i < h.num_neigh; i++)
			if (memcmp(h.neigh[i].addr, addr_peer[k], 6) == 0) {
				found = 1;
				ck_assert_uint_eq(h.neigh[i].rx_count,
				    k == 0 ? 64 : k == 1 ? 12 : 0);
			}
		ck_assert_msg(found, "peer %d not listed", k);
	}
	/* Nobody on an interface: an empty list, still signed. */
	ck_assert_uint_eq(fwd_orig_peers(t, 9, peers, 64), 0);
	ck_assert_int_eq(fwd_hello_build(&id_own, ifmac, 1000, EPOCH, 1,
	    salt, peers, 0, buf, sizeof(buf), &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_HELLO_FIXED_LEN +
	    WIRE_HELLO_TRAILER_HDR_LEN + BS_SIG_LEN);
	/* Bad input is refused. */
	ck_assert_int_eq(fwd_hello_build(&id_own, ifmac, 1000, EPOCH, 1,
	    salt, peers, WIRE_HELLO_MAX_NEIGH + 1, buf, sizeof(buf), &len),
	    WIRE_EINVAL);
	ck_assert_int_eq(fwd_hello_build(&id_own, ifmac, 10, EPOCH, 1,
	    salt, peers, 0, buf, sizeof(buf), &len), WIRE_EINVAL);
	ck_assert_int_eq(fwd_hello_build(&id_own, ifmac, 1000, EPOCH, 1,
	    salt, peers, 0, buf, 100, &len), WIRE_ESPACE);
	fwd_tables_free(t);
}
END_TEST

/*
 * A HELLO with link tags: one per key, each verifies under its key over
 * the bytes before the tags with counter epoch << 32 | seqno, and no
 * signature; more keys than a trailer takes, or too little room, refused.
 */
START_TEST(test_hello_tags)
{
	uint8_t buf[WIRE_HELLO_MAX_LEN], salt[BS_LINKSALT_LEN] = { 7 };
	uint8_t k[3][BS_LINKKEY_LEN], kid[3][BS_KEYID_LEN], me[BS_ADDR_LEN];
	const uint8_t ifmac[6] = { 0x02, 0, 0, 0, 0, 0x11 };
	struct fwd_tagkey keys[WIRE_MAX_TAGS + 1];
	struct fwd_peer peers[1] = { { addr_peer[0], 64 } };
	struct wire_hello h;
	size_t len = 0, i;

	for (i = 0; i < 3; i++) {
		memset(k[i], (int)(0x30 + i), BS_LINKKEY_LEN);
		bs_link_keyid(kid[i], k[i]);
		keys[i].key = k[i];
		keys[i].key_id = kid[i];
	}
	ck_assert_int_eq(fwd_hello_build_cert(&id_own, ifmac, 1000, EPOCH, 77,
	    salt, peers, 1, NULL, WIRE_HELLO_F_FRESH, keys, 3, NULL, 0, buf,
	    sizeof(buf), &len), WIRE_OK);
	ck_assert_uint_eq(len, WIRE_HELLO_FIXED_LEN + WIRE_HELLO_NEIGH_LEN +
	    WIRE_HELLO_TRAILER_HDR_LEN + 3 * WIRE_TAG_ENTRY_LEN);
	ck_assert_int_eq(wire_hello_parse(buf, len, &h), WIRE_OK);
	ck_assert_uint_eq(h.flags, WIRE_HELLO_F_FRESH);
	ck_assert_uint_eq(h.tr.auth, WIRE_AUTH_MAC);
	ck_assert_ptr_null(h.sig);
	ck_assert_uint_eq(h.tr.counter, (uint64_t)EPOCH << 32 | 77);
	bs_mesh_addr(me, id_own.pk);
	for (i = 0; i < 3; i++) {
		int j = wire_trailer_find(&h.tr, kid[i]);

		ck_assert_int_ge(j, 0);
		ck_assert_int_eq(bs_link_mac_verify(h.tr.tags[j].tag, k[i], me,
		    h.tr.counter, h.tr.covered, h.tr.covered_len), 0);
		/* Not under another key. */
		ck_assert_int_ne(bs_link_mac_verify(h.tr.tags[j].tag,
		    k[(i + 1) % 3], me, h.tr.counter, h.tr.covered,
		    h.tr.covered_len), 0);
	}
	for (i = 3; i <= WIRE_MAX_TAGS; i++)
		keys[i] = keys[0];
	ck_assert_int_eq(fwd_hello_build_cert(&id_own, ifmac, 1000, EPOCH, 78,
	    salt, peers, 1, NULL, 0, keys, WIRE_MAX_TAGS + 1, NULL, 0, buf,
	    sizeof(buf), &len), WIRE_EINVAL);
	ck_assert_int_eq(fwd_hello_build_cert(&id_own, ifmac, 1000, EPOCH, 78,
	    salt, peers, 1, NULL, 0, NULL, 2, NULL, 0, buf, sizeof(buf), &len),
	    WIRE_EINVAL);
	ck_assert_int_eq(fwd_hello_build_cert(&id_own, ifmac, 1000, EPOCH, 78,
	    salt, peers, 1, NULL, 0, keys, 3, NULL, 0, buf,
	    WIRE_HELLO_FIXED_LEN +
	    WIRE_HELLO_NEIGH_LEN + WIRE_HELLO_TRAILER_HDR_LEN +
	    2 * WIRE_TAG_ENTRY_LEN, &len), WIRE_ESPACE);
}
END_TEST

/* Signed HELLOs per 1 000 sent with these inputs, state from s. */
static unsigned
signed_of(struct fwd_hsign *s, size_t npeers, size_t nkeys, unsigned n)
{
	unsigned i, c = 0;

	for (i = 0; i < n; i++)
		c += (unsigned)fwd_hello_sign_due(s, npeers, nkeys);
	return c;
}

/*
 * When a HELLO is signed: always without keys, with a neighbour short of
 * one, or with more neighbours than tags; otherwise every 64th; the next
 * two after a new neighbour; one within four HELLOs of a request, and no
 * more often than that however often it is asked.
 */
START_TEST(test_hello_sign_schedule)
{
	struct fwd_hsign s;
	unsigned i, c;

	memset(&s, 0, sizeof(s));
	ck_assert_uint_eq(signed_of(&s, 0, 0, 100), 100);
	ck_assert_uint_eq(signed_of(&s, 5, 4, 100), 100);
	ck_assert_uint_eq(signed_of(&s, WIRE_MAX_TAGS + 1, WIRE_MAX_TAGS + 1,
	    100), 100);
	/* Steady state: every FWD_HELLO_SIGN_EVERY-th, the 64th (requests
	 * link two nodes that dropped each other, IPC_HELLO_SIGN). */
	ck_assert_uint_eq(FWD_HELLO_SIGN_EVERY, 64);
	memset(&s, 0, sizeof(s));
	ck_assert_uint_eq(signed_of(&s, 5, 5, 16 * FWD_HELLO_SIGN_EVERY), 16);
	/* As many with 17 to 32 neighbours (it was every HELLO above 16). */
	ck_assert_uint_eq(signed_of(&s, 20, 20, 16 * FWD_HELLO_SIGN_EVERY), 16);
	ck_assert_uint_eq(signed_of(&s, WIRE_MAX_TAGS, WIRE_MAX_TAGS,
	    16 * FWD_HELLO_SIGN_EVERY), 16);
	for (i = 0; i + 1 < FWD_HELLO_SIGN_EVERY; i++)
		ck_assert_int_eq(fwd_hello_sign_due(&s, 5, 5), 0);
	ck_assert_int_eq(fwd_hello_sign_due(&s, 5, 5), 1);
	/* A new neighbour: the next FWD_HELLO_SIGN_NEW at once. */
	fwd_hello_want_sign(&s, 1);
	for (i = 0; i < FWD_HELLO_SIGN_NEW; i++)
		ck_assert_int_eq(fwd_hello_sign_due(&s, 5, 5), 1);
	ck_assert_int_eq(fwd_hello_sign_due(&s, 5, 5), 0);
	/* A request: signed once the gap since the last signed is over. */
	fwd_hello_want_sign(&s, 0);
	for (c = 0, i = 0; i < FWD_HELLO_REQ_GAP; i++)
		c += (unsigned)fwd_hello_sign_due(&s, 5, 5);
	ck_assert_uint_eq(c, 1);
	/* Asked before every HELLO: every FWD_HELLO_REQ_GAP-th signed. */
	for (c = 0, i = 0; i < 100 * FWD_HELLO_REQ_GAP; i++) {
		fwd_hello_want_sign(&s, 0);
		c += (unsigned)fwd_hello_sign_due(&s, 5, 5);
	}
	ck_assert_uint_eq(c, 100);
}
END_TEST

/* More neighbours than a HELLO lists: the best-heard ones. */
START_TEST(test_hello_strongest)
{
	struct fwd_peer peers[WIRE_HELLO_MAX_NEIGH];
	struct fwd_tables *t = fwd_tables_new();
	size_t n, i;
	int k, weak = 0;

	ck_assert_ptr_nonnull(t);
	/* 40 neighbours; limit the list to 30: the 10 weakest (rx 1..10,
	 * peers 0..9) are left out. */
	for (k = 0; k < NPEERS; k++)
		neigh_up(t, k, IF_A, (uint8_t)(k + 1));
	n = fwd_orig_peers(t, IF_A, peers, 30);
	ck_assert_uint_eq(n, 30);
	for (i = 0; i < n; i++) {
		ck_assert_uint_gt(peers[i].rx_count, 10);
		for (k = 0; k < 10; k++)
			weak |= memcmp(peers[i].addr, addr_peer[k], 6) == 0;
	}
	ck_assert_int_eq(weak, 0);
	fwd_tables_free(t);
}
END_TEST

/* ---- the forwarder's side of the channel -------------------------------------------- */

static struct fwd fw;
static int fw_peer_fd = -1;	/* the fake parser's end */
static struct fwd_data fw_data;
static const struct fwd_data_ops fw_data_ops;

/* The next message the forwarder sent the fake parser: its LINK_KEY. */
static void
fw_read_link_key(struct ipc_link_key *k)
{
	uint8_t buf[IPC_MAX_MSG];
	struct ipc_msg m;
	char err[256];
	ssize_t n;

	n = recv(fw_peer_fd, buf, sizeof(buf), MSG_DONTWAIT);
	ck_assert_int_gt(n, 0);
	ck_assert_msg(ipc_msg_parse(&m, buf, (size_t)n, IPC_ROLE_PARSER, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(ipc_get(&m, IPC_LINK_KEY, k, sizeof(*k)), 0);
}

/* A parser -> forwarder message, through the receiver's checks. */
static enum fwd_chan_rc
deliver(uint16_t type, const void *obj, size_t size)
{
	static uint8_t buf[IPC_MAX_MSG];
	static struct ipc_msg m;
	char err[256], why[256] = "";
	size_t len = 0;
	enum fwd_chan_rc rc;

	ck_assert_msg(ipc_encode(buf, sizeof(buf), type, obj, size, &len, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_msg(ipc_msg_parse(&m, buf, len, IPC_ROLE_FORWARDER, err,
	    sizeof(err)) == 0, "%s", err);
	rc = fwd_parser_handle(&fw.parser, &m, why, sizeof(why));
	return rc;
}

static void
fw_setup(void)
{
	char err[256];
	size_t i;
	int sv[2];

	memset(&fw, 0, sizeof(fw));
	fw.id = id_own;
	memcpy(fw.own_addr, addr_own, 6);
	fw.epoch = EPOCH;
	fw.tables = fwd_tables_new();
	ck_assert_ptr_nonnull(fw.tables);
	fwd_orig_init(&fw.orig, &fw.id, EPOCH, 1000, 1000);
	fwd_parser_init(&fw.parser, &fw.id);
	forwarder_handlers(&fw);
	/* The forwarder checks every key against its policy (fwd_admit.h):
	 * the peers are trusted, the originator a trusted gateway. */
	fw.policy = bs_policy_new();
	ck_assert_ptr_nonnull(fw.policy);
	for (i = 0; i < NPEERS; i++)
		ck_assert_msg(bs_policy_trust_add(fw.policy, id_peer[i].pk, NULL,
		    0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(bs_policy_trust_add(fw.policy, id_orig.pk, NULL, 1, err,
	    sizeof(err)) == 0, "%s", err);
	fw.policy_serial = 1;
	ck_assert_int_eq(ipc_socketpair(sv), 0);
	ck_assert_msg(fwd_parser_attach(&fw.parser, sv[0], 0, addr_own, err,
	    sizeof(err)) == 0, "%s", err);
	fw_peer_fd = sv[1];
	ipc_ctx_iface_add(&fw.parser.ctx, IF_A);
	/* One interface, IF_A (own_ifmac), and a data plane (link keys). */
	fw.ifs.v[0].ifindex = IF_A;
	memcpy(fw.ifs.v[0].rs.mac, own_ifmac, 6);
	fw.ifs.n = 1;
	fwd_data_init(&fw_data, fw.tables, &fw.id, EPOCH, &fw_data_ops);
	fw.data = &fw_data;
	fw.cfg.orig_interval_ms = 1000;
	fw.cfg.hello_interval_ms = 1000;
}

/*
 * IPC_HELLO_SIGN (our parser heard tagged HELLOs it cannot check from a
 * node that does not list us): the next HELLO on that interface is
 * signed once the gap since the last signed one (FWD_HELLO_REQ_GAP) is
 * over, and however often it comes no more often than every
 * FWD_HELLO_REQ_GAP-th; an interface that is not ours is a violation.
 */
START_TEST(test_hello_sign_request)
{
	struct fwd_hsign *s;
	struct ipc_hello_sign m;
	unsigned i, c;

	fw_setup();
	fw.ifs.v[0].running = 1;
	s = &fw.ifs.v[0].hsign;
	memset(s, 0, sizeof(*s));
	s->since = FWD_HELLO_REQ_GAP;
	/* Steady state: not signed. */
	ck_assert_int_eq(fwd_hello_sign_due(s, 5, 5), 0);
	memset(&m, 0, sizeof(m));
	m.ifindex = IF_A;
	ck_assert_int_eq(deliver(IPC_HELLO_SIGN, &m, sizeof(m)), FWD_CHAN_OK);
	ck_assert_uint_eq(s->req, 1);
	ck_assert_int_eq(fwd_hello_sign_due(s, 5, 5), 1);
	ck_assert_int_eq(fwd_hello_sign_due(s, 5, 5), 0);
	/* Right after a signed one: signed at the end of the gap. */
	ck_assert_int_eq(deliver(IPC_HELLO_SIGN, &m, sizeof(m)), FWD_CHAN_OK);
	for (i = 1; i + 1 < FWD_HELLO_REQ_GAP; i++)
		ck_assert_int_eq(fwd_hello_sign_due(s, 5, 5), 0);
	ck_assert_int_eq(fwd_hello_sign_due(s, 5, 5), 1);
	/* Before every HELLO: every FWD_HELLO_REQ_GAP-th signed. */
	for (c = 0, i = 0; i < 16 * FWD_HELLO_REQ_GAP; i++) {
		ck_assert_int_eq(deliver(IPC_HELLO_SIGN, &m, sizeof(m)),
		    FWD_CHAN_OK);
		c += (unsigned)fwd_hello_sign_due(s, 5, 5);
	}
	ck_assert_uint_eq(c, 16);
	/* Not a mesh interface of ours (sizes and reserved bytes: check_ipc). */
	m.ifindex = IF_A + 100;
	ck_assert_int_ne(deliver(IPC_HELLO_SIGN, &m, sizeof(m)), FWD_CHAN_OK);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

/*
 * Descriptions on request: IPC_DESC_WANT puts the originator in our next
 * HELLOs for FWD_WANT_HELLOS hello intervals, once however often it is
 * asked, at most WIRE_HELLO_MAX_WANT at a time (the next one counted);
 * our own address is a violation; the HELLO built carries the list.
 */
START_TEST(test_desc_want)
{
	uint8_t buf[WIRE_HELLO_MAX_LEN], salt[BS_LINKSALT_LEN] = { 7 };
	const uint8_t ifmac[6] = { 0x02, 0, 0, 0, 0, 0x11 };
	const uint8_t *list[WIRE_HELLO_MAX_WANT];
	struct ipc_desc_want w;
	struct wire_hello h;
	uint64_t now;
	size_t len = 0;
	unsigned i, n;

	fw_setup();
	memset(&w, 0, sizeof(w));
	memcpy(w.orig_addr, addr_peer[1], 6);
	now = log_now_ms();
	ck_assert_int_eq(deliver(IPC_DESC_WANT, &w, sizeof(w)), FWD_CHAN_OK);
	ck_assert_int_eq(deliver(IPC_DESC_WANT, &w, sizeof(w)), FWD_CHAN_OK);
	n = fwd_want_list(&fw.orig.want, now, list);
	ck_assert_uint_eq(n, 1);
	ck_assert_mem_eq(list[0], addr_peer[1], 6);
	/* Gone after FWD_WANT_HELLOS intervals (and not before). */
	ck_assert_uint_eq(fwd_want_list(&fw.orig.want, log_now_ms() +
	    FWD_WANT_HELLOS * 1000 - 100, list), 1);
	ck_assert_uint_eq(fwd_want_list(&fw.orig.want, log_now_ms() +
	    FWD_WANT_HELLOS * 1000 + 100, list), 0);
	memcpy(w.orig_addr, addr_peer[2], 6);
	/* Eight at a time; the ninth is counted, not listed. */
	for (i = 0; i < WIRE_HELLO_MAX_WANT + 1; i++) {
		w.orig_addr[5] = (uint8_t)(0x60 + i);
		ck_assert_int_eq(deliver(IPC_DESC_WANT, &w, sizeof(w)),
		    FWD_CHAN_OK);
	}
	now = log_now_ms();
	n = fwd_want_list(&fw.orig.want, now, list);
	ck_assert_uint_eq(n, WIRE_HELLO_MAX_WANT);
	ck_assert_uint_eq(fw.orig.c.want_full, 2);	/* peer 1's slot too */
	/* The HELLO carries them, covered by its signature. */
	ck_assert_int_eq(fwd_hello_build_cert(&id_own, ifmac, 1000, EPOCH, 5,
	    salt, NULL, 0, NULL, 0, NULL, 0, list, n, buf, sizeof(buf),
	    &len), WIRE_OK);
	ck_assert_int_eq(wire_hello_parse(buf, len, &h), WIRE_OK);
	ck_assert_uint_eq(h.flags, WIRE_HELLO_F_WANT);
	ck_assert_uint_eq(h.num_want, n);
	for (i = 0; i < n; i++)
		ck_assert_mem_eq(h.want[i], list[i], 6);
	ck_assert_int_eq(bs_verify(h.sig, BS_DOM_HELLO, h.signed_ptr,
	    h.signed_len, id_own.pk), 0);
	ck_assert_int_eq(fwd_hello_build_cert(&id_own, ifmac, 1000, EPOCH, 6,
	    salt, NULL, 0, NULL, 0, NULL, 0, list, WIRE_HELLO_MAX_WANT + 1,
	    buf, sizeof(buf), &len), WIRE_EINVAL);
	/* Our own address: the parser broke the rules. */
	memcpy(w.orig_addr, addr_own, 6);
	ck_assert_int_ne(deliver(IPC_DESC_WANT, &w, sizeof(w)), FWD_CHAN_OK);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

START_TEST(test_dispatch)
{
	static struct ipc_relay rl;
	uint8_t key[BS_LINKKEY_LEN], kid[BS_KEYID_LEN];
	struct ipc_neigh n;
	struct ipc_link_key_req q;
	struct ipc_route rt;
	struct ipc_route_del rd;
	struct ipc_tt tt;
	struct ipc_gw gw;
	const struct fwd_route *r;
	struct fwd_neigh *nb;
	struct ipc_link_key lk_ans;
	struct t_link tl;

	fw_setup();
	memset(&n, 0, sizeof(n));
	memcpy(n.pk, id_peer[0].pk, BS_PK_LEN);
	memcpy(n.addr, addr_peer[0], 6);
	memcpy(n.mac, (const uint8_t[]){ 0x02, 9, 9, 9, 9, 9 }, 6);
	n.ifindex = IF_A;
	n.state = IPC_NEIGH_UP;
	n.epoch = 3;
	n.tq = 180;
	n.rx_count = 50;
	ck_assert_int_eq(deliver(IPC_NEIGH, &n, sizeof(n)), FWD_CHAN_OK);
	nb = fwd_neigh_find(fw.tables, addr_peer[0], IF_A);
	ck_assert_ptr_nonnull(nb);
	ck_assert_uint_eq(nb->tq, 180);
	ck_assert_uint_eq(nb->rx_count, 50);
	ck_assert_int_eq(nb->hop.has_key, 0);

	/*
	 * The key handed to the parser is the OGM key of this link (both
	 * MACs, epochs and salts), the one our tags use: never the static
	 * link key of the two node keys, nor the hop key.
	 */
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, id_peer[0].pk, BS_PK_LEN);
	q.ifindex = IF_A;
	ck_assert_int_eq(deliver(IPC_LINK_KEY_REQ, &q, sizeof(q)),
	    FWD_CHAN_OK);
	fw_read_link_key(&lk_ans);
	ck_assert_uint_eq(lk_ans.status, IPC_LINK_KEY_OK);
	nb = fwd_neigh_find(fw.tables, addr_peer[0], IF_A);
	ck_assert_int_eq(nb->hop.has_key, 1);
	t_link_keys(&tl, (struct t_end){ &id_peer[0], n.mac, 3, n.salt },
	    (struct t_end){ &id_own, own_ifmac, EPOCH,
	    fwd_links_own_salt(&fw_data.links, IF_A, 1000)->salt });
	ck_assert_int_eq(sodium_memcmp(lk_ans.key, tl.ogm_key,
	    sizeof(tl.ogm_key)), 0);
	ck_assert_mem_eq(lk_ans.key_id, tl.ogm_keyid, BS_KEYID_LEN);
	ck_assert_mem_eq(nb->hop.ogm_key, tl.ogm_key, sizeof(tl.ogm_key));
	ck_assert_int_eq(bs_link_key(key, &id_peer[0], id_own.pk), 0);
	ck_assert_mem_ne(lk_ans.key, key, sizeof(key));
	ck_assert_mem_ne(lk_ans.key, nb->hop.key, BS_HOPKEY_LEN);
	(void)kid;
	/* A key for a neighbour that is not up: refused. */
	memcpy(q.peer_pk, id_peer[1].pk, BS_PK_LEN);
	ck_assert_int_ne(deliver(IPC_LINK_KEY_REQ, &q, sizeof(q)),
	    FWD_CHAN_OK);

	memset(&rt, 0, sizeof(rt));
	memcpy(rt.orig_pk, id_orig.pk, BS_PK_LEN);
	memcpy(rt.orig_addr, addr_orig, 6);
	memcpy(rt.nexthop, addr_peer[0], 6);
	rt.ifindex = IF_A;
	rt.tq = 200;
	rt.hops = 2;
	rt.epoch = 7;
	ck_assert_int_eq(deliver(IPC_ROUTE_ADD, &rt, sizeof(rt)), FWD_CHAN_OK);
	r = fwd_route_find(fw.tables, addr_orig);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->epoch, 7);
	ck_assert_uint_eq(r->tq, 200);
	ck_assert_mem_eq(r->nexthop, addr_peer[0], 6);

	memset(&tt, 0, sizeof(tt));
	memcpy(tt.orig_addr, addr_orig, 6);
	tt.count = 1;
	memcpy(tt.e[0].mac, (const uint8_t[]){ 0x02, 7, 7, 7, 7, 7 }, 6);
	ck_assert_int_eq(deliver(IPC_TT, &tt, sizeof(tt)), FWD_CHAN_OK);
	ck_assert_ptr_nonnull(fwd_client_find(fw.tables, tt.e[0].mac, 0));

	memset(&gw, 0, sizeof(gw));
	memcpy(gw.orig_addr, addr_orig, 6);
	gw.op = IPC_GW_ANNOUNCE;
	gw.down = 100;
	gw.up = 10;
	ck_assert_int_eq(deliver(IPC_GW, &gw, sizeof(gw)), FWD_CHAN_OK);
	ck_assert_ptr_nonnull(fwd_gw_find(fw.tables, addr_orig));

	memset(&rl, 0, sizeof(rl));
	rl.ifindex = IPC_IFINDEX_ALL;
	rl.len = (uint16_t)relay_entry(rl.entry, 0, 5);
	ck_assert_int_eq(deliver(IPC_RELAY, &rl, sizeof(rl)), FWD_CHAN_OK);
	ck_assert_uint_eq(fw.orig.rq.n, 1);
	ck_assert_uint_eq(fw.orig.c.relay_queued, 1);

	memset(&rd, 0, sizeof(rd));
	memcpy(rd.orig_addr, addr_orig, 6);
	ck_assert_int_eq(deliver(IPC_ROUTE_DEL, &rd, sizeof(rd)), FWD_CHAN_OK);
	ck_assert_ptr_null(fwd_route_find(fw.tables, addr_orig));

	n.state = IPC_NEIGH_DOWN;
	n.tq = 0;
	n.rx_count = 0;
	ck_assert_int_eq(deliver(IPC_NEIGH, &n, sizeof(n)), FWD_CHAN_OK);
	ck_assert_ptr_null(fwd_neigh_find(fw.tables, addr_peer[0], IF_A));
	ck_assert_uint_eq(fw.parser.c.kills, 0);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

/* IPC_NEIGH for peer i on ifindex: UP with link TQ tq, rx_count rx and
 * flags, or DOWN. */
static void
chan_neigh_f(int i, uint32_t ifindex, uint8_t state, uint8_t tq, uint8_t rx,
    uint8_t flags)
{
	struct ipc_neigh n;

	memset(&n, 0, sizeof(n));
	memcpy(n.pk, id_peer[i].pk, BS_PK_LEN);
	memcpy(n.addr, addr_peer[i], 6);
	memcpy(n.mac, (const uint8_t[]){ 0x02, 9, 9, 9, 9, (uint8_t)i }, 6);
	n.ifindex = ifindex;
	n.state = state;
	n.epoch = 3;
	if (state == IPC_NEIGH_UP) {
		n.tq = tq;
		n.rx_count = rx;
		n.flags = flags;
	}
	ck_assert_int_eq(deliver(IPC_NEIGH, &n, sizeof(n)), FWD_CHAN_OK);
}

static void
chan_neigh(int i, uint32_t ifindex, uint8_t state, uint8_t tq, uint8_t rx)
{
	chan_neigh_f(i, ifindex, state, tq, rx, 0);
}

/* chan_neigh_up I IF: IPC_NEIGH UP for peer I on interface IF. */
static void
chan_neigh_up(int i, uint32_t ifindex)
{
	chan_neigh(i, ifindex, IPC_NEIGH_UP, 200, 60);
}

/*
 * A relay is not sent back over an interface whose only neighbour is the
 * one it came from; with a second neighbour there, or from another
 * previous sender, it is.
 */
START_TEST(test_relay_not_back)
{
	static uint8_t e[IPC_RELAY_MAX];
	size_t len;

	fw_setup();
	len = relay_entry(e, 0, 5);
	/* No neighbour on the interface: nothing to go back to. */
	ck_assert_int_eq(fwd_relay_back_only(fw.tables, IF_A, e, len), 0);
	/* The previous sender is the only neighbour: not sent there. */
	memcpy(e + 4, addr_peer[0], 6);
	chan_neigh_up(0, IF_A);
	ck_assert_int_eq(fwd_relay_back_only(fw.tables, IF_A, e, len), 1);
	/* Another previous sender: sent. */
	memcpy(e + 4, addr_peer[1], 6);
	ck_assert_int_eq(fwd_relay_back_only(fw.tables, IF_A, e, len), 0);
	/* A second neighbour on the link needs the copy. */
	memcpy(e + 4, addr_peer[0], 6);
	ipc_ctx_iface_add(&fw.parser.ctx, IF_B);
	chan_neigh_up(1, IF_B);
	ck_assert_int_eq(fwd_relay_back_only(fw.tables, IF_A, e, len), 1);
	chan_neigh_up(1, IF_A);
	ck_assert_int_eq(fwd_relay_back_only(fw.tables, IF_A, e, len), 0);
	/* Too short to hold a previous sender: never skipped. */
	ck_assert_int_eq(fwd_relay_back_only(fw.tables, IF_A, e, 9), 0);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

/* A relay entry that is not a well-formed OGM entry: kill the parser. */
START_TEST(test_dispatch_bad_relay)
{
	static struct ipc_relay rl;

	fw_setup();
	memset(&rl, 0, sizeof(rl));
	rl.ifindex = IPC_IFINDEX_ALL;
	rl.len = (uint16_t)relay_entry(rl.entry, 40, 5);
	/* Sizes stay right (ipc_check passes); a TVLV inside is broken. */
	rl.entry[TVLV_OFF + 2] = 0x7f;
	ck_assert_int_eq(deliver(IPC_RELAY, &rl, sizeof(rl)), FWD_CHAN_KILL);
	ck_assert_uint_eq(fw.orig.rq.n, 0);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

/* With no usable interface, waiting relays are dropped and counted. */
START_TEST(test_relay_no_iface)
{
	static struct ipc_relay rl;
	uint64_t at;

	fw_setup();
	fw.ifs.n = 1;		/* configured, but not present */
	fw.ifs.v[0].rs.fd = -1;
	fwd_announce_setup(&fw, 10000);
	memset(&rl, 0, sizeof(rl));
	rl.ifindex = IPC_IFINDEX_ALL;
	rl.len = (uint16_t)relay_entry(rl.entry, 0, 5);
	ck_assert_int_eq(fwd_announce_relay(&fw, &rl, 10000), 0);
	at = fwd_announce_deadline(&fw);
	/* A tenth of the 1 s OGM interval. */
	ck_assert_uint_eq(at, 10000 + 100);
	fwd_announce_run(&fw, 10000 + 100 - 1);
	ck_assert_uint_eq(fw.orig.rq.n, 1);
	fwd_announce_run(&fw, 10000 + 100);
	ck_assert_uint_eq(fw.orig.rq.n, 0);
	ck_assert_uint_eq(fw.orig.c.relay_drop_iface, 1);
	/* The next own OGM is due within the jittered interval. */
	at = fwd_announce_deadline(&fw);
	ck_assert_uint_ge(at, 10000 + 900);
	ck_assert_uint_le(at, 10000 + 1100);
	fwd_announce_run(&fw, at);
	ck_assert_uint_eq(fw.orig.ogm_seqno, 0);	/* nowhere to send */
	ck_assert_uint_gt(fwd_announce_deadline(&fw), at);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

/*
 * The cold-start buckets on their own clock (fwd_burst.h): requests join
 * a pending one, two extra sends are FWD_BURST_GAP_MS apart, and however
 * many requests come, at most FWD_BURST_TOKENS + T / interval extra sends
 * happen in T ms; an empty bucket refuses (the request is dropped).
 */
START_TEST(test_burst_bucket)
{
	struct fwd_bucket b;
	uint64_t t, sent = 0, refused = 0, last = 0;
	int r;

	memset(&b, 0, sizeof(b));
	ck_assert_uint_eq(fwd_bucket_due(&b), 0);
	ck_assert_int_eq(fwd_bucket_take(&b, 1000, 5000), FWD_BURST_NONE);
	ck_assert_uint_eq(fwd_bucket_want(&b, 5000, 20), 5020);
	/* A second request joins the first. */
	ck_assert_uint_eq(fwd_bucket_want(&b, 5010, 0), 5020);
	ck_assert_int_eq(fwd_bucket_take(&b, 1000, 5019), FWD_BURST_NONE);
	ck_assert_int_eq(fwd_bucket_take(&b, 1000, 5020), FWD_BURST_SEND);
	ck_assert_uint_eq(fwd_bucket_due(&b), 0);
	/* The next one not before the gap. */
	ck_assert_uint_eq(fwd_bucket_want(&b, 5030, 0),
	    5020 + FWD_BURST_GAP_MS);
	ck_assert_int_eq(fwd_bucket_take(&b, 1000, 5020 + FWD_BURST_GAP_MS),
	    FWD_BURST_SEND);
	/* An attacker asking every millisecond for 20 s. */
	memset(&b, 0, sizeof(b));
	for (t = 100000; t < 120000; t++) {
		(void)fwd_bucket_want(&b, t, 0);
		r = fwd_bucket_take(&b, 1000, t);
		if (r == FWD_BURST_SEND) {
			if (sent > 0)
				ck_assert_uint_ge(t - last, FWD_BURST_GAP_MS);
			sent++;
			last = t;
		} else if (r == FWD_BURST_REFUSED)
			refused++;
	}
	ck_assert_uint_le(sent, FWD_BURST_TOKENS + 20000 / 1000);
	ck_assert_uint_ge(sent, 20000 / 1000);
	ck_assert_uint_gt(refused, 0);
	/* Full at first: FWD_BURST_TOKENS at the gap, then refused. */
	memset(&b, 0, sizeof(b));
	for (t = 0; t <= FWD_BURST_TOKENS; t++) {
		ck_assert_uint_eq(fwd_bucket_want(&b, 50000 +
		    t * FWD_BURST_GAP_MS, 0), 50000 + t * FWD_BURST_GAP_MS);
		ck_assert_int_eq(fwd_bucket_take(&b, 1000, 50000 +
		    t * FWD_BURST_GAP_MS), t < FWD_BURST_TOKENS ?
		    FWD_BURST_SEND : FWD_BURST_REFUSED);
	}
	/* One interval later, one token again. */
	t = 50000 + FWD_BURST_TOKENS * FWD_BURST_GAP_MS + 1000;
	(void)fwd_bucket_want(&b, t, 0);
	ck_assert_int_eq(fwd_bucket_take(&b, 1000, t), FWD_BURST_SEND);
	(void)fwd_bucket_want(&b, t, 0);
	ck_assert_int_eq(fwd_bucket_take(&b, 1000, t + FWD_BURST_GAP_MS),
	    FWD_BURST_REFUSED);
}
END_TEST

/*
 * A new neighbour makes our next own OGMs full (it needs our description)
 * and our next HELLOs signed; one that comes back (IPC_NEIGH_F_BACK: it
 * left lately and our parser kept its key) neither; a want of our own
 * entry (IPC_NEIGH_F_OWN) makes the next OGM full.
 */
START_TEST(test_neigh_back_own)
{
	fw_setup();
	fw.ifs.v[0].running = 1;
	fw.orig.full_left = 0;
	fw.ifs.v[0].hsign.left = 0;
	chan_neigh_f(1, IF_A, IPC_NEIGH_UP, 0, 1, IPC_NEIGH_F_BACK);
	ck_assert_uint_eq(fw.orig.full_left, 0);
	ck_assert_uint_eq(fw.ifs.v[0].hsign.left, 0);
	chan_neigh_f(1, IF_A, IPC_NEIGH_UP, 200, 64, IPC_NEIGH_F_OWN);
	ck_assert_uint_eq(fw.orig.full_left, 1);
	fw.orig.full_left = 0;
	chan_neigh_f(2, IF_A, IPC_NEIGH_UP, 0, 1, 0);
	ck_assert_uint_eq(fw.orig.full_left, 2);
	ck_assert_uint_eq(fw.ifs.v[0].hsign.left, FWD_HELLO_SIGN_NEW);
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

/* NEIGH UP for peer i on IF_A with link TQ tq, or DOWN. */
static void
burst_neigh(int i, uint8_t state, uint8_t tq)
{
	chan_neigh(i, IF_A, state, tq, 1);
}

/* Frames the forwarder sent on the test interface: HELLOs and OGMs. */
static void
burst_drain(int fd, uint64_t *hellos, uint64_t *ogms)
{
	uint8_t buf[4096];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 14) {
		if (buf[14] == 0x01)
			(*hellos)++;
		else if (buf[14] == 0x02)
			(*ogms)++;
	}
}

/*
 * The forwarder answers a new neighbour at once: a HELLO right away and
 * its own OGM FWD_BURST_OGM_DELAY_MS later (and again, within the bound,
 * when a link becomes bidirectional), not an interval later.  An
 * attacker that makes up a new neighbour every 10 ms for 10 s (each one
 * coming, turning bidirectional and going) gets at most the bound of
 * extra sends: FWD_BURST_TOKENS + T / interval of each kind, counted.
 */
START_TEST(test_burst_bound)
{
	uint64_t t0, t, span, hellos = 0, ogms = 0, h0, o0;
	int sv[2], i, k;

	fw_setup();
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	fw.ifs.v[0].rs.fd = sv[0];
	fw.ifs.v[0].running = 1;
	t0 = log_now_ms();
	fwd_announce_setup(&fw, t0);
	/* The first HELLO at once, as always; the first OGM an interval on. */
	fwd_announce_run(&fw, t0);
	burst_drain(sv[1], &hellos, &ogms);
	ck_assert_uint_eq(hellos, 1);
	ck_assert_uint_eq(ogms, 0);
	ck_assert_uint_ge(fwd_announce_deadline(&fw), t0 + 900);

	/* A neighbour appears: a HELLO now, our OGM 20 ms later. */
	burst_neigh(0, IPC_NEIGH_UP, 0);
	t = log_now_ms();
	ck_assert_uint_le(fwd_announce_deadline(&fw), t);
	fwd_announce_run(&fw, t);
	burst_drain(sv[1], &hellos, &ogms);
	ck_assert_uint_eq(hellos, 2);
	ck_assert_uint_eq(fw.orig.c.burst_hello, 1);
	ck_assert_uint_eq(ogms, 0);
	ck_assert_uint_le(fwd_announce_deadline(&fw),
	    t + FWD_BURST_OGM_DELAY_MS);
	fwd_announce_run(&fw, t + FWD_BURST_OGM_DELAY_MS);
	burst_drain(sv[1], &hellos, &ogms);
	ck_assert_uint_eq(ogms, 1);
	ck_assert_uint_eq(fw.orig.c.burst_ogm, 1);
	ck_assert_uint_eq(fw.orig.ogm_seqno, 1);
	/* Its link turns bidirectional: our OGM again (after the gap). */
	burst_neigh(0, IPC_NEIGH_UP, 200);
	t = log_now_ms() + FWD_BURST_OGM_DELAY_MS + FWD_BURST_GAP_MS;
	fwd_announce_run(&fw, t);
	burst_drain(sv[1], &hellos, &ogms);
	ck_assert_uint_eq(ogms, 2);
	ck_assert_uint_eq(hellos, 2);	/* not new: no HELLO for that */
	/* A change of TQ on a bidirectional link asks for nothing. */
	burst_neigh(0, IPC_NEIGH_UP, 100);
	ck_assert_uint_eq(fwd_bucket_due(&fw.orig.ogm_burst), 0);
	ck_assert_uint_eq(fwd_bucket_due(&fw.ifs.v[0].hello_burst), 0);
	burst_neigh(0, IPC_NEIGH_DOWN, 0);

	/* The attack: 1000 new neighbours in 10 s on our clock. */
	h0 = fw.orig.c.burst_hello;
	o0 = fw.orig.c.burst_ogm;
	t0 = t;
	for (k = 0; k < 1000; k++) {
		i = 1 + k % (NPEERS - 1);
		burst_neigh(i, IPC_NEIGH_UP, 0);
		burst_neigh(i, IPC_NEIGH_UP, 255);
		burst_neigh(i, IPC_NEIGH_DOWN, 0);
		t = t0 + 10 * (uint64_t)k;
		if (log_now_ms() > t)
			t = log_now_ms();
		fwd_announce_run(&fw, t);
		burst_drain(sv[1], &hellos, &ogms);
	}
	span = t - t0;
	ck_assert_uint_le(fw.orig.c.burst_hello - h0,
	    FWD_BURST_TOKENS + span / 1000 + 1);
	ck_assert_uint_le(fw.orig.c.burst_ogm - o0,
	    FWD_BURST_TOKENS + span / 1000 + 1);
	/* ... and the bucket is used, not shut: about one a second. */
	ck_assert_uint_ge(fw.orig.c.burst_hello - h0, span / 1000);
	ck_assert_uint_ge(fw.orig.c.burst_ogm - o0, span / 1000);
	ck_assert_uint_gt(fw.orig.c.burst_refused, 0);
	/* All HELLOs sent: the regular ones (the burst restarts the timer,
	 * so at most one per 900 ms of the span) plus the extra ones. */
	ck_assert_uint_le(fw.orig.c.hello_sent,
	    2 + span / 900 + 1 + fw.orig.c.burst_hello - h0);
	close(sv[0]);
	close(sv[1]);
	fw.ifs.v[0].rs.fd = -1;
	ipc_close(&fw.parser.ipc);
	fwd_tables_free(fw.tables);
	fwd_admit_stop(&fw);
	bs_policy_free(fw.policy);
}
END_TEST

static Suite *
fwd_orig_suite(void)
{
	Suite *s = suite_create("fwd_orig");
	TCase *tc;

	tc = tcase_create("ogm");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_own_and_relays);
	tcase_add_test(tc, test_own_plain);
	tcase_add_loop_test(tc, test_trailer_mode, 0,
	    (int)(sizeof(trailer_cases) / sizeof(trailer_cases[0])));
	tcase_add_loop_test(tc, test_mtu_split, 0,
	    (int)(sizeof(split_cases) / sizeof(split_cases[0])));
	tcase_add_test(tc, test_full_compact);
	tcase_add_test(tc, test_compact_hops);
	tcase_add_test(tc, test_entry_too_big);
	tcase_add_test(tc, test_tagged_big_entry);
	tcase_add_test(tc, test_counter);
	tcase_add_test(tc, test_jitter);
	suite_add_tcase(s, tc);

	tc = tcase_create("relay");
	tcase_add_test(tc, test_relay_delay);
	tcase_add_test(tc, test_relayq_far);
	tcase_add_test(tc, test_relayq_bounds);
	tcase_add_test(tc, test_relay_entry_ok);
	suite_add_tcase(s, tc);

	tc = tcase_create("hello");
	tcase_add_test(tc, test_hello);
	tcase_add_test(tc, test_hello_tags);
	tcase_add_test(tc, test_hello_sign_schedule);
	tcase_add_test(tc, test_hello_strongest);
	suite_add_tcase(s, tc);

	tc = tcase_create("dispatch");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_dispatch);
	tcase_add_test(tc, test_desc_want);
	tcase_add_test(tc, test_hello_sign_request);
	tcase_add_test(tc, test_dispatch_bad_relay);
	tcase_add_test(tc, test_relay_no_iface);
	tcase_add_test(tc, test_relay_not_back);
	suite_add_tcase(s, tc);

	tc = tcase_create("burst");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_burst_bucket);
	tcase_add_test(tc, test_burst_bound);
	tcase_add_test(tc, test_neigh_back_own);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	keys_init();
	return t_run(fwd_orig_suite());
}
