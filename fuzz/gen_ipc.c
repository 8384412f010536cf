/*
 * gen_ipc.c — seed inputs for fuzz_ipc.c, built with the project's own
 * encoder (ipc_encode), into the directory named by argv[1]:
 *	gen_ipc fuzz/corpus/ipc
 * Each file is named by a hash of its content.  The harness is included
 * so both share its fixed context (our identity, the interfaces); every
 * seed is also run through it once.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_ipc.c"
#include "lib/t_ident.h"
#include "lib/t_ipc.h"
#include "lib/t_seed.h"
#include "proto/wire.h"

#define GEN_MAX	(64 * 1024)

static uint8_t gen_buf[GEN_MAX];
static struct t_seedbuf gen_seed = { gen_buf, sizeof(gen_buf), 0 };
static struct bs_identity gen_n1, gen_orig;
static uint8_t gen_n1_addr[BS_ADDR_LEN], gen_orig_addr[BS_ADDR_LEN];

static void
gen_start(enum ipc_role role)
{
	t_ipcs_start(&gen_seed, role == IPC_ROLE_PARSER ? 1 : 0);
}

static void
gen_add(uint16_t type, const void *obj)
{
	t_ipcs_msg(&gen_seed, type, obj);
}

static void
mk_neigh(struct ipc_neigh *n, uint8_t state)
{
	int up = state == IPC_NEIGH_UP;

	*n = t_ipc_neigh((struct t_neigh){ .pk = gen_n1.pk,
	    .addr = gen_n1_addr, .mac = (const uint8_t *)"\x02\x00\x5e\x10"
	    "\x00\x01", .ifindex = FUZZ_IF_A, .state = state,
	    .tq = up ? 240 : 0, .rx_count = up ? 60 : 0 });
}

/*
 * The originator's entry as n1 relays it at 2 hops, with a gateway TVLV;
 * the anchor, hop-chain element and signature are zero (fuzz_ipc checks
 * formats, not signatures).
 */
static void
mk_relay(struct ipc_relay *r)
{
	static const uint8_t zero[BS_SIG_LEN];
	uint8_t tvlv[WIRE_TVLV_MAX], *blk = r->entry + WIRE_OGM_MUT_LEN;
	size_t cap = sizeof(r->entry) - WIRE_OGM_MUT_LEN, len = 0;
	struct wire_ogm_signed s = { .pk = gen_orig.pk, .seqno = 77,
	    .interval_ms = 1000, .anchor = zero, .tvlv = tvlv };
	struct wire_ogm_mut m = { .ttl = 50, .tq = 200, .hops = 2,
	    .prev_sender = gen_n1_addr, .chain = zero };

	memset(r, 0, sizeof(*r));
	r->ifindex = IPC_IFINDEX_ALL;
	if (wire_tvlv_put_gateway(tvlv, sizeof(tvlv), &len, 100, 20) != 0)
		abort();
	s.tvlv_len = len;
	if (wire_ogm_mut_put(r->entry, WIRE_OGM_MUT_LEN, &m) != 0 ||
	    wire_ogm_signed_build(blk, cap, &s, &len) != 0 ||
	    wire_sig_append(blk, cap, &len, zero) != 0)
		abort();
	r->len = (uint16_t)(WIRE_OGM_MUT_LEN + len);
}

/*
 * The originator's compact entry (seqno 78) as n1 relays it at 2 hops:
 * 32 bytes, the chain element zero.
 */
static void
mk_relay_compact(struct ipc_relay *r)
{
	static const uint8_t zero[BS_CHAIN_LEN];
	struct wire_ogm_mut m = { .ttl = 50, .tq = 200, .hops = 2,
	    .kind = WIRE_OGM_COMPACT, .prev_sender = gen_n1_addr,
	    .chain = zero };

	memset(r, 0, sizeof(*r));
	r->ifindex = IPC_IFINDEX_ALL;
	if (wire_ogm_mut_put(r->entry, WIRE_OGM_MUT_LEN, &m) != 0 ||
	    wire_ogm_compact_build(r->entry + WIRE_OGM_MUT_LEN,
	    gen_orig_addr, 78) != 0)
		abort();
	r->len = WIRE_OGM_COMPACT_LEN;
}

/* The parser's view of a neighbour and what it learns through it. */
static void
seed_forwarder_session(void)
{
		struct ipc_neigh n;
	struct ipc_route r = t_ipc_route((struct t_route){
	    .orig_pk = gen_orig.pk, .orig_addr = gen_orig_addr,
	    .nexthop = gen_n1_addr, .ifindex = FUZZ_IF_A, .tq = 198, .hops = 2,
	    .epoch = 2 });
	struct ipc_route_del d;
	struct ipc_route_alt alt;
	struct ipc_link_key_req q = { .ifindex = FUZZ_IF_A };
	struct ipc_tt tt;
	struct ipc_gw gw = { .op = IPC_GW_ANNOUNCE, .down = 100, .up = 20 };
	struct ipc_stats st;
	struct ipc_log l = { .level = IPC_LOG_INFO };
	struct ipc_relay rl;
	struct ipc_pin pin;

	gen_start(IPC_ROLE_FORWARDER);
	mk_neigh(&n, IPC_NEIGH_UP);
	gen_add(IPC_NEIGH, &n);
	memcpy(q.peer_pk, gen_n1.pk, BS_PK_LEN);
	gen_add(IPC_LINK_KEY_REQ, &q);
	gen_add(IPC_ROUTE_ADD, &r);
	/* n1 on the other interface too: the route's other candidate. */
	n.ifindex = FUZZ_IF_B;
	gen_add(IPC_NEIGH, &n);
	n.ifindex = FUZZ_IF_A;
	alt = t_ipc_route_alt(gen_orig_addr, gen_n1_addr, FUZZ_IF_B);
	gen_add(IPC_ROUTE_ALT, &alt);
	alt.count = 0;
	gen_add(IPC_ROUTE_ALT, &alt);
	memset(&tt, 0, sizeof(tt));
	memcpy(tt.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	tt.count = 2;
	memcpy(tt.e[0].mac, "\x02\x11\x22\x33\x44\x55", BS_ADDR_LEN);
	memcpy(tt.e[1].mac, "\x02\x11\x22\x33\x44\x56", BS_ADDR_LEN);
	tt.e[1].vid = 0x8000 | 7;
	gen_add(IPC_TT, &tt);
	memcpy(gw.orig_addr, gen_orig_addr, BS_ADDR_LEN);
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
	mk_relay(&rl);
	gen_add(IPC_RELAY, &rl);
	mk_relay_compact(&rl);
	gen_add(IPC_RELAY, &rl);
	memset(&st, 0, sizeof(st));
	st.count = 2;
	st.s[0].id = IPC_STAT_RX_OGM;
	st.s[0].value = 12;
	st.s[1].id = IPC_STAT_SIG_VERIFIED;
	st.s[1].value = 3;
	gen_add(IPC_STATS, &st);
	snprintf(l.text, sizeof(l.text), "originator up");
	gen_add(IPC_LOG, &l);
	memcpy(pin.pk, gen_orig.pk, BS_PK_LEN);
	gen_add(IPC_PIN, &pin);
	memcpy(d.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	memset(d.reserved, 0, sizeof(d.reserved));
	gen_add(IPC_ROUTE_DEL, &d);
	mk_neigh(&n, IPC_NEIGH_DOWN);
	gen_add(IPC_NEIGH, &n);
	gen_add(IPC_ROUTE_ADD, &r);		/* now refused: next hop down */
	t_seed_flush(&gen_seed);

	/* Messages about the removed interface and an unknown one. */
	gen_start(IPC_ROLE_FORWARDER);
	mk_neigh(&n, IPC_NEIGH_UP);
	n.ifindex = FUZZ_IF_GONE;
	gen_add(IPC_NEIGH, &n);
	n.ifindex = FUZZ_IF_B;
	gen_add(IPC_NEIGH, &n);
	r.ifindex = FUZZ_IF_B;
	gen_add(IPC_ROUTE_ADD, &r);
	rl.ifindex = 9;
	gen_add(IPC_RELAY, &rl);
	mk_relay(&rl);
	rl.ifindex = FUZZ_IF_B;
	gen_add(IPC_RELAY, &rl);
	t_seed_flush(&gen_seed);
}

/*
 * The heartbeat and the certificates (fwd_admit.h): two answers (for
 * heartbeats never sent, in fuzz_ipc's context) and a certificate.
 */
static void
seed_heartbeat_cert(void)
{
	struct ipc_heartbeat hb = { .seq = 1 };
	struct ipc_cert m;
	struct bs_cert c;

	gen_start(IPC_ROLE_FORWARDER);
	gen_add(IPC_HEARTBEAT_ACK, &hb);
	hb.seq = 2;
	gen_add(IPC_HEARTBEAT_ACK, &hb);
	if (bs_cert_issue(&c, &gen_orig, gen_n1.pk, "n1", BS_ROLE_GATEWAY,
	    1700000000, 1900000000) == 0) {
		bs_cert_encode(m.cert, &c);
		gen_add(IPC_CERT, &m);
	}
	t_seed_flush(&gen_seed);

	gen_start(IPC_ROLE_PARSER);
	hb.seq = 1;
	gen_add(IPC_HEARTBEAT, &hb);
	t_seed_flush(&gen_seed);
}

static void
seed_parser_session(void)
{
		static uint8_t snap[6000];
	struct ipc_config c = { .ethertype = 0x88b5, .epoch = 3,
	    .hello_ms = 1000, .ogm_ms = 1000, .hop_penalty = 30,
	    .log_level = IPC_LOG_INFO };
	struct ipc_iface f = { .ifindex = FUZZ_IF_A, .mtu = 1534,
	    .state = IPC_IFACE_UP, .name = "mesh0" };
	static struct ipc_frame fr;
	struct ipc_link_key k = { .ifindex = FUZZ_IF_A };
	struct ipc_policy_mark mark = { .serial = 1, .total = sizeof(snap) };
	static struct ipc_policy_chunk ch;
	static struct ipc_pins pins;
	size_t i, off;

	gen_start(IPC_ROLE_PARSER);
	t_ident_pk(c.own_pk, FUZZ_OWN_SEED);
	bs_mesh_addr(c.own_addr, c.own_pk);
	gen_add(IPC_CONFIG, &c);
	memcpy(f.mac, "\x02\x00\x00\x00\x00\x0a", BS_ADDR_LEN);
	gen_add(IPC_IFACE, &f);
	fr.ifindex = FUZZ_IF_A;
	memcpy(fr.src, "\x02\x00\x00\x00\x00\x0b", BS_ADDR_LEN);
	memset(fr.dst, 0xff, BS_ADDR_LEN);
	fr.len = 60;
	fr.data[0] = 0x01;	/* a HELLO header */
	fr.data[1] = 0x01;
	gen_add(IPC_FRAME, &fr);
	memcpy(k.peer_pk, gen_n1.pk, BS_PK_LEN);
	memset(k.key_id, 0x12, sizeof(k.key_id));
	memset(k.key, 0x34, sizeof(k.key));
	gen_add(IPC_LINK_KEY, &k);
	for (i = 0; i < sizeof(snap); i++)
		snap[i] = (uint8_t)(i * 13);
	gen_add(IPC_POLICY_BEGIN, &mark);
	ch.serial = 1;
	for (off = 0; off < sizeof(snap); off += ch.len) {
		ch.offset = (uint32_t)off;
		ch.len = (uint16_t)(sizeof(snap) - off < IPC_POLICY_CHUNK_MAX ?
		    sizeof(snap) - off : IPC_POLICY_CHUNK_MAX);
		memcpy(ch.data, snap + off, ch.len);
		gen_add(IPC_POLICY_CHUNK, &ch);
	}
	gen_add(IPC_POLICY_END, &mark);
	memset(&pins, 0, sizeof(pins));
	pins.count = 2;
	memcpy(pins.pk[0], gen_n1.pk, BS_PK_LEN);
	memcpy(pins.pk[1], k.peer_pk, BS_PK_LEN);
	pins.pk[1][0] ^= 0x01;
	gen_add(IPC_PINS, &pins);
	f.state = IPC_IFACE_REMOVED;
	f.mtu = 0;
	memset(f.mac, 0, BS_ADDR_LEN);
	gen_add(IPC_IFACE, &f);
	t_seed_flush(&gen_seed);

	/* A snapshot that goes wrong: a gap, then a fresh start. */
	gen_start(IPC_ROLE_PARSER);
	mark.total = 20;
	gen_add(IPC_POLICY_BEGIN, &mark);
	ch.offset = 4;
	ch.len = 10;
	gen_add(IPC_POLICY_CHUNK, &ch);
	mark.serial = 2;
	gen_add(IPC_POLICY_BEGIN, &mark);
	ch.serial = 2;
	ch.offset = 0;
	ch.len = 20;
	gen_add(IPC_POLICY_CHUNK, &ch);
	gen_add(IPC_POLICY_END, &mark);
	t_seed_flush(&gen_seed);
}

int
main(int argc, char **argv)
{
	t_seed_main(argc, argv, "gen_ipc", T_SEED_BLAKE2B_64);
	t_seed_run(LLVMFuzzerTestOneInput);
	fuzz_init();
	t_ident_addr(&gen_n1, gen_n1_addr, 0x22);
	t_ident_addr(&gen_orig, gen_orig_addr, 0x44);
	seed_forwarder_session();
	seed_parser_session();
	seed_heartbeat_cert();
	return 0;
}
