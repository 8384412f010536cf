/*
 * gen_fwdchan.c — seed inputs for fuzz_fwdchan.c, built with the
 * project's own encoders (ipc_encode, fwd_ogm_originate, bs_revoke_*),
 * into the directory named by argv[1]:
 *	gen_fwdchan fuzz/corpus/fwdchan
 * Each file is named by the first 20 bytes of its SHA-256.  The harness
 * is included, so both share the fixed forwarder (our identity, the
 * interfaces), and every seed is run through it once.
 *
 * The seeds: a whole session with one neighbour (NEIGH, LINK_KEY_REQ,
 * ROUTE_ADD, TT, GW, real signed OGM entries and compact ones to relay,
 * STATS, LOG, a CA revocation record, ROUTE_DEL, NEIGH DOWN); interfaces
 * going away and coming back around the messages about them; a violation
 * followed by the new parser's messages; enough relays with large TVLV
 * regions for several aggregated frames; more compact relays than a frame
 * holds; routes that expire while the clock moves.
 */
#include <stdio.h>

#include "fuzz_fwdchan.c"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"
#include "lib/t_seed.h"

#define GEN_MAX		(64 * 1024)
#define GEN_EPOCH	9

static uint8_t gen_buf[GEN_MAX];
static struct t_seedbuf gen_seed = { gen_buf, sizeof(gen_buf), 0 };

/* The neighbour n1 (also on interface B), an originator, a CA. */
static struct bs_identity gen_n1, gen_orig, gen_ca;
static uint8_t gen_n1_addr[BS_ADDR_LEN], gen_orig_addr[BS_ADDR_LEN];
static const uint8_t gen_n1_mac[BS_ADDR_LEN] = {
	0x02, 0x00, 0x5e, 0x10, 0x00, 0x01
};

/* The forwarder role of fuzz_ipc.c. */
static void
gen_start(void)
{
	t_ipcs_start(&gen_seed, 0);
}

/* One message, as the parser's ipc_send would put it on the channel. */
static void
gen_add(uint16_t type, const void *obj)
{
	t_ipcs_msg(&gen_seed, type, obj);
}

/* The clock moves FUZZ_TICK_MS (a datagram of length 0). */
static void
gen_tick(void)
{
	t_ipcs_raw(&gen_seed, NULL, 0);
}

/* Interface event (a datagram of length 1). */
static void
gen_iface(uint32_t ifindex, int removed)
{
	uint8_t b = (uint8_t)((ifindex == FUZZ_IF_B ? 1 : 0) |
	    (removed ? 2 : 0));

	t_ipcs_raw(&gen_seed, &b, 1);
}

static void
gen_neigh(struct ipc_neigh *n, uint32_t ifindex, uint8_t state)
{
	int up = state == IPC_NEIGH_UP;

	*n = t_ipc_neigh((struct t_neigh){ .pk = gen_n1.pk,
	    .addr = gen_n1_addr, .mac = gen_n1_mac, .ifindex = ifindex,
	    .state = state, .tq = up ? 240 : 0, .rx_count = up ? 60 : 0 });
}

static void
gen_route(struct ipc_route *r, uint32_t ifindex, uint8_t hops)
{
	*r = t_ipc_route((struct t_route){ .orig_pk = gen_orig.pk,
	    .orig_addr = gen_orig_addr, .nexthop = gen_n1_addr,
	    .ifindex = ifindex, .tq = 198, .hops = hops, .epoch = 2 });
}

/*
 * A real OGM entry of the originator (seqno `seq`, ntt clients, a gateway
 * when gw), as the parser relays it: hops 1, from n1.
 */
static void
gen_relay(struct ipc_relay *rl, uint32_t seq, unsigned ntt, int gw)
{
	static uint8_t macs[WIRE_TT_MAX][BS_ADDR_LEN];
	static const uint8_t chain[BS_CHAIN_LEN] = { 0x5a };
	struct wire_tt_entry tt[WIRE_TT_MAX] = { 0 };
	static struct fwd_orig o;
	struct wire_ogm_mut m;
	unsigned i;

	fwd_orig_init(&o, &gen_orig, GEN_EPOCH, 1000, 1000);
	o.ogm_seqno = seq - 1;
	for (i = 0; i < ntt && i < WIRE_TT_MAX; i++) {
		macs[i][0] = 0x02;
		macs[i][4] = (uint8_t)(i >> 8);
		macs[i][5] = (uint8_t)(i + 1);
		tt[i].mac = macs[i];
		tt[i].vid = i % 3 == 0 ? 0 : (uint16_t)(WIRE_VID_TAGGED | i);
	}
	fz_check(fwd_ogm_originate(&o, tt, ntt, gw ? 1000 : 0, gw ? 200 : 0) ==
	    WIRE_OK);
	memset(&m, 0, sizeof(m));
	m.ttl = 49;
	m.tq = 200;
	m.hops = 1;
	m.prev_sender = gen_n1_addr;
	m.chain = chain;
	fz_check(wire_ogm_mut_put(o.own, o.own_len, &m) == WIRE_OK);
	memset(rl, 0, sizeof(*rl));
	rl->ifindex = IPC_IFINDEX_ALL;
	rl->len = (uint16_t)o.own_len;
	memcpy(rl->entry, o.own, o.own_len);
}

/*
 * The originator's compact OGM of seqno `seq` (fwd_ogm_originate_compact
 * after a full one started its OGM chain), as the parser relays it: hops
 * 1, from n1, the chain element hashed once; 32 bytes.
 */
static void
gen_relay_compact(struct ipc_relay *rl, uint32_t seq)
{
	static struct fwd_orig o;
	uint8_t elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m;

	fwd_orig_init(&o, &gen_orig, GEN_EPOCH, 1000, 1000);
	o.ogm_seqno = seq - 2;
	fz_check(fwd_ogm_originate(&o, NULL, 0, 0, 0) == WIRE_OK);
	fz_check(fwd_ogm_originate_compact(&o) == WIRE_OK &&
	    o.own_len == WIRE_OGM_COMPACT_LEN);
	fz_check(wire_ogm_mut_get(o.own, o.own_len, &m) == WIRE_OK &&
	    m.kind == WIRE_OGM_COMPACT);
	bs_chain_step(elem, m.chain);
	m.ttl = 49;
	m.tq = 200;
	m.hops = 1;
	m.prev_sender = gen_n1_addr;
	m.chain = elem;
	fz_check(wire_ogm_mut_put(o.own, o.own_len, &m) == WIRE_OK);
	memset(rl, 0, sizeof(*rl));
	rl->ifindex = IPC_IFINDEX_ALL;
	rl->len = (uint16_t)o.own_len;
	memcpy(rl->entry, o.own, o.own_len);
}

static void
seed_session(void)
{
	static struct ipc_relay rl;
	static struct ipc_tt tt;
	struct ipc_neigh n;
	struct ipc_route r;
	struct ipc_route_del d;
	struct ipc_route_alt alt;
	struct ipc_link_key_req q;
	struct ipc_gw gw;
	struct ipc_stats st;
	struct ipc_log l;
	struct ipc_revoke rv;
	struct ipc_pin pin;
	struct bs_revoke rec;

	gen_start();
	gen_neigh(&n, FUZZ_IF_A, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	memset(&q, 0, sizeof(q));
	memcpy(q.peer_pk, gen_n1.pk, BS_PK_LEN);
	q.ifindex = FUZZ_IF_A;
	gen_add(IPC_LINK_KEY_REQ, &q);
	gen_route(&r, FUZZ_IF_A, 2);
	gen_add(IPC_ROUTE_ADD, &r);
	/* n1 on the other interface too: the route's other candidate. */
	gen_neigh(&n, FUZZ_IF_B, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	alt = t_ipc_route_alt(gen_orig_addr, gen_n1_addr, FUZZ_IF_B);
	gen_add(IPC_ROUTE_ALT, &alt);
	memset(&tt, 0, sizeof(tt));
	memcpy(tt.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	tt.count = 2;
	memcpy(tt.e[0].mac, "\x02\x11\x22\x33\x44\x55", BS_ADDR_LEN);
	memcpy(tt.e[1].mac, "\x02\x11\x22\x33\x44\x56", BS_ADDR_LEN);
	tt.e[1].vid = 0x8000 | 7;
	gen_add(IPC_TT, &tt);
	memset(&gw, 0, sizeof(gw));
	memcpy(gw.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	gw.op = IPC_GW_ANNOUNCE;
	gw.down = 1000;
	gw.up = 200;
	gen_add(IPC_GW, &gw);
	/* A page of a paged table, then multicast listeners. */
	{
		struct ipc_mcast mc = t_ipc_mcast(gen_orig_addr);

		tt = t_ipc_tt_page(gen_orig_addr, 4, 2, 3);
		gen_add(IPC_TT, &tt);
		gen_add(IPC_MCAST, &mc);
	}
	/* A description asked for (descriptions on request). */
	{
		struct ipc_desc_want dw;

		memset(&dw, 0, sizeof(dw));
		memcpy(dw.orig_addr, gen_orig_addr, BS_ADDR_LEN);
		gen_add(IPC_DESC_WANT, &dw);
	}
	/* A signed HELLO asked for (HELLO authentication). */
	{
		struct ipc_hello_sign hs;

		memset(&hs, 0, sizeof(hs));
		hs.ifindex = FUZZ_IF_A;
		gen_add(IPC_HELLO_SIGN, &hs);
	}
	gen_relay(&rl, 10, 2, 1);
	gen_add(IPC_RELAY, &rl);
	gen_relay(&rl, 11, 0, 0);
	gen_add(IPC_RELAY, &rl);
	gen_relay_compact(&rl, 12);
	gen_add(IPC_RELAY, &rl);
	rl.ifindex = FUZZ_IF_B;
	gen_add(IPC_RELAY, &rl);
	memset(&st, 0, sizeof(st));
	st.count = 2;
	st.s[0].id = IPC_STAT_RX_OGM;
	st.s[0].value = 12;
	st.s[1].id = IPC_STAT_SIG_VERIFIED;
	st.s[1].value = 3;
	gen_add(IPC_STATS, &st);
	memset(&l, 0, sizeof(l));
	l.level = IPC_LOG_INFO;
	snprintf(l.text, sizeof(l.text), "originator up");
	gen_add(IPC_LOG, &l);
	fz_check(bs_revoke_issue(&rec, &gen_ca, gen_orig.pk, 1750000000) == 0);
	bs_revoke_encode(rv.rec, &rec);
	gen_add(IPC_REVOKE, &rv);
	memcpy(pin.pk, gen_orig.pk, BS_PK_LEN);
	gen_add(IPC_PIN, &pin);
	memcpy(pin.pk, gen_n1.pk, BS_PK_LEN);
	gen_add(IPC_PIN, &pin);
	gen_add(IPC_PIN, &pin);		/* again: kept once */
	gen_tick();
	gw.op = IPC_GW_WITHDRAW;
	gw.down = gw.up = 0;
	gen_add(IPC_GW, &gw);
	tt.count = 0;
	gen_add(IPC_TT, &tt);
	memset(&d, 0, sizeof(d));
	memcpy(d.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	gen_add(IPC_ROUTE_DEL, &d);
	gen_neigh(&n, FUZZ_IF_A, IPC_NEIGH_DOWN);
	gen_add(IPC_NEIGH, &n);
	t_seed_flush(&gen_seed);
}

/* Interface B goes away and comes back around messages about it. */
static void
seed_iface_churn(void)
{
	struct ipc_neigh n;
	struct ipc_route r;

	gen_start();
	gen_neigh(&n, FUZZ_IF_B, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	gen_route(&r, FUZZ_IF_B, 1);
	gen_add(IPC_ROUTE_ADD, &r);
	gen_iface(FUZZ_IF_B, 1);
	gen_add(IPC_ROUTE_ADD, &r);		/* stale */
	gen_neigh(&n, FUZZ_IF_B, IPC_NEIGH_DOWN);
	gen_add(IPC_NEIGH, &n);		/* stale */
	gen_iface(FUZZ_IF_B, 0);
	gen_neigh(&n, FUZZ_IF_B, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	gen_add(IPC_ROUTE_ADD, &r);
	gen_neigh(&n, FUZZ_IF_GONE, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);		/* stale */
	t_seed_flush(&gen_seed);
}

/* A route through a stranger: the parser is replaced; the next one talks. */
static void
seed_violation(void)
{
	struct ipc_neigh n;
	struct ipc_route r;

	gen_start();
	gen_neigh(&n, FUZZ_IF_A, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	gen_route(&r, FUZZ_IF_A, 3);
	gen_add(IPC_ROUTE_ADD, &r);
	memcpy(r.nexthop, gen_orig_addr, BS_ADDR_LEN);
	gen_add(IPC_ROUTE_ADD, &r);		/* violation */
	gen_neigh(&n, FUZZ_IF_A, IPC_NEIGH_UP);
	n.tq = 100;
	gen_add(IPC_NEIGH, &n);
	gen_route(&r, FUZZ_IF_A, 1);
	gen_add(IPC_ROUTE_ADD, &r);
	t_seed_flush(&gen_seed);
}

/*
 * Relays with big TVLV regions, every third one compact: several frames
 * at the interface MTU.
 */
static void
seed_many_relays(void)
{
	static struct ipc_relay rl;
	unsigned i;

	gen_start();
	for (i = 0; i < 20; i++) {
		if (i % 3 == 2)
			gen_relay_compact(&rl, 100 + i);
		else
			gen_relay(&rl, 100 + i, (i * 7) % (WIRE_TT_MAX + 1),
			    i & 1);
		if (rl.len <= IPC_RELAY_MAX)
			gen_add(IPC_RELAY, &rl);
	}
	t_seed_flush(&gen_seed);
}

/*
 * More compact relays than one frame holds (WIRE_OGM_MAX_ENTRIES, and
 * fewer at the MTU), then a full one.
 */
static void
seed_compact_relays(void)
{
	static struct ipc_relay rl;
	unsigned i;

	gen_start();
	for (i = 0; i < WIRE_OGM_MAX_ENTRIES + 5; i++) {
		gen_relay_compact(&rl, 200 + i);
		gen_add(IPC_RELAY, &rl);
	}
	gen_relay(&rl, 300, 3, 1);
	gen_add(IPC_RELAY, &rl);
	t_seed_flush(&gen_seed);
}

/* A route and a client set that nobody refreshes: the purge takes them. */
static void
seed_expiry(void)
{
	static struct ipc_tt tt;
	struct ipc_neigh n;
	struct ipc_route r;
	unsigned i;

	gen_start();
	gen_neigh(&n, FUZZ_IF_A, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	gen_route(&r, FUZZ_IF_A, 2);
	gen_add(IPC_ROUTE_ADD, &r);
	memset(&tt, 0, sizeof(tt));
	memcpy(tt.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	tt.count = 1;
	memcpy(tt.e[0].mac, "\x02\x11\x22\x33\x44\x57", BS_ADDR_LEN);
	gen_add(IPC_TT, &tt);
	for (i = 0; i < 7; i++)
		gen_tick();
	gen_add(IPC_ROUTE_ADD, &r);
	t_seed_flush(&gen_seed);
}

int
main(int argc, char **argv)
{
	t_seed_main(argc, argv, "gen_fwdchan", T_SEED_SHA256);
	t_seed_run(LLVMFuzzerTestOneInput);
	fuzz_init();
	t_ident_addr(&gen_n1, gen_n1_addr, 0x22);
	t_ident_addr(&gen_orig, gen_orig_addr, 0x33);
	t_ident(&gen_ca, 0x44);
	seed_session();
	seed_iface_churn();
	seed_violation();
	seed_many_relays();
	seed_compact_relays();
	seed_expiry();
	return 0;
}
