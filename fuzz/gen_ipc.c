/*
 * gen_ipc.c — seed inputs for fuzz_ipc.c, built with the project's own
 * encoder (ipc_encode), into the directory named by argv[1]:
 *	gen_ipc fuzz/corpus/ipc
 * Each file is named by a hash of its content.  The harness is included
 * so both share its fixed context (our identity, the interfaces); every
 * seed is also run through it once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "fuzz_ipc.c"

#define GEN_MAX	(64 * 1024)

struct gen {
	uint8_t buf[GEN_MAX];
	size_t len;
};

static struct bs_identity gen_n1, gen_orig;
static uint8_t gen_n1_addr[BS_ADDR_LEN], gen_orig_addr[BS_ADDR_LEN];

static void gen_identity(struct bs_identity *id, uint8_t *addr, uint8_t fill)
{
	uint8_t seed[BS_SEED_LEN];

	memset(seed, fill, sizeof(seed));
	if (bs_identity_from_seed(id, seed) != 0)
		abort();
	bs_mesh_addr(addr, id->pk);
}

static void gen_start(struct gen *g, enum ipc_role role)
{
	g->buf[0] = role == IPC_ROLE_PARSER ? 1 : 0;
	g->len = 1;
}

/* Append one datagram with its 2-byte length prefix. */
static void gen_add(struct gen *g, uint16_t type, const void *obj)
{
	uint8_t dgram[IPC_MAX_MSG];
	char err[256];
	size_t n;

	if (ipc_encode(dgram, sizeof(dgram), type, obj, ipc_obj_size(type), &n,
	    err, sizeof(err)) != 0) {
		fprintf(stderr, "gen_ipc: %s\n", err);
		exit(1);
	}
	if (n > GEN_MAX - g->len - 2)
		abort();
	g->buf[g->len++] = (uint8_t)(n >> 8);
	g->buf[g->len++] = (uint8_t)n;
	memcpy(g->buf + g->len, dgram, n);
	g->len += n;
}

static void gen_write(const char *dir, const struct gen *g)
{
	uint8_t h[8];
	char path[4096];
	FILE *f;

	crypto_generichash(h, sizeof(h), g->buf, g->len, NULL, 0);
	snprintf(path, sizeof(path), "%s/%02x%02x%02x%02x%02x%02x%02x%02x",
	    dir, h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(g->buf, 1, g->len, f) != g->len || fclose(f) != 0) {
		fprintf(stderr, "gen_ipc: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	LLVMFuzzerTestOneInput(g->buf, g->len);
}

static void mk_neigh(struct ipc_neigh *n, uint8_t state)
{
	memset(n, 0, sizeof(*n));
	memcpy(n->pk, gen_n1.pk, BS_PK_LEN);
	memcpy(n->addr, gen_n1_addr, BS_ADDR_LEN);
	memcpy(n->mac, "\x02\x00\x5e\x10\x00\x01", BS_ADDR_LEN);
	n->ifindex = FUZZ_IF_A;
	n->state = state;
	if (state == IPC_NEIGH_UP) {
		n->tq = 240;
		n->rx_count = 60;
	}
}

static void mk_relay(struct ipc_relay *r)
{
	uint8_t *e = r->entry;

	memset(r, 0, sizeof(*r));
	r->ifindex = IPC_IFINDEX_ALL;
	r->len = 168;
	e[0] = 50;
	e[1] = 200;
	e[2] = 2;
	memcpy(e + 4, gen_n1_addr, BS_ADDR_LEN);
	memcpy(e + 28, gen_orig.pk, BS_PK_LEN);
	bs_put32(e + 64, 77);
	bs_put16(e + 70, 1000);
	bs_put16(e + 88, 12);
	e[92] = 1;
	e[93] = 1;
	bs_put16(e + 94, 8);
	bs_put32(e + 96, 100);
	bs_put32(e + 100, 20);
}

/* The parser's view of a neighbour and what it learns through it. */
static void seed_forwarder_session(const char *dir)
{
	static struct gen g;
	struct ipc_neigh n;
	struct ipc_route r = { .ifindex = FUZZ_IF_A, .tq = 198, .hops = 2,
	    .epoch = 2 };
	struct ipc_route_del d;
	struct ipc_link_key_req q = { .ifindex = FUZZ_IF_A };
	struct ipc_tt tt;
	struct ipc_gw gw = { .op = IPC_GW_ANNOUNCE, .down = 100, .up = 20 };
	struct ipc_stats st;
	struct ipc_log l = { .level = IPC_LOG_INFO };
	struct ipc_relay rl;
	struct ipc_pin pin;

	gen_start(&g, IPC_ROLE_FORWARDER);
	mk_neigh(&n, IPC_NEIGH_UP);
	gen_add(&g, IPC_NEIGH, &n);
	memcpy(q.peer_pk, gen_n1.pk, BS_PK_LEN);
	gen_add(&g, IPC_LINK_KEY_REQ, &q);
	memcpy(r.orig_pk, gen_orig.pk, BS_PK_LEN);
	memcpy(r.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	memcpy(r.nexthop, gen_n1_addr, BS_ADDR_LEN);
	gen_add(&g, IPC_ROUTE_ADD, &r);
	memset(&tt, 0, sizeof(tt));
	memcpy(tt.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	tt.count = 2;
	memcpy(tt.e[0].mac, "\x02\x11\x22\x33\x44\x55", BS_ADDR_LEN);
	memcpy(tt.e[1].mac, "\x02\x11\x22\x33\x44\x56", BS_ADDR_LEN);
	tt.e[1].vid = 0x8000 | 7;
	gen_add(&g, IPC_TT, &tt);
	memcpy(gw.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	gen_add(&g, IPC_GW, &gw);
	mk_relay(&rl);
	gen_add(&g, IPC_RELAY, &rl);
	memset(&st, 0, sizeof(st));
	st.count = 2;
	st.s[0].id = IPC_STAT_RX_OGM;
	st.s[0].value = 12;
	st.s[1].id = IPC_STAT_SIG_VERIFIED;
	st.s[1].value = 3;
	gen_add(&g, IPC_STATS, &st);
	snprintf(l.text, sizeof(l.text), "originator up");
	gen_add(&g, IPC_LOG, &l);
	memcpy(pin.pk, gen_orig.pk, BS_PK_LEN);
	gen_add(&g, IPC_PIN, &pin);
	memcpy(d.orig_addr, gen_orig_addr, BS_ADDR_LEN);
	memset(d.reserved, 0, sizeof(d.reserved));
	gen_add(&g, IPC_ROUTE_DEL, &d);
	mk_neigh(&n, IPC_NEIGH_DOWN);
	gen_add(&g, IPC_NEIGH, &n);
	gen_add(&g, IPC_ROUTE_ADD, &r);		/* now refused: next hop down */
	gen_write(dir, &g);

	/* Messages about the removed interface and an unknown one. */
	gen_start(&g, IPC_ROLE_FORWARDER);
	mk_neigh(&n, IPC_NEIGH_UP);
	n.ifindex = FUZZ_IF_GONE;
	gen_add(&g, IPC_NEIGH, &n);
	n.ifindex = FUZZ_IF_B;
	gen_add(&g, IPC_NEIGH, &n);
	r.ifindex = FUZZ_IF_B;
	gen_add(&g, IPC_ROUTE_ADD, &r);
	rl.ifindex = 9;
	gen_add(&g, IPC_RELAY, &rl);
	gen_write(dir, &g);
}

static void seed_parser_session(const char *dir)
{
	static struct gen g;
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
	struct bs_identity own;
	uint8_t seed[BS_SEED_LEN];
	size_t i, off;

	memset(seed, FUZZ_OWN_SEED, sizeof(seed));
	if (bs_identity_from_seed(&own, seed) != 0)
		abort();
	gen_start(&g, IPC_ROLE_PARSER);
	memcpy(c.own_pk, own.pk, BS_PK_LEN);
	bs_mesh_addr(c.own_addr, own.pk);
	bs_identity_wipe(&own);
	gen_add(&g, IPC_CONFIG, &c);
	memcpy(f.mac, "\x02\x00\x00\x00\x00\x0a", BS_ADDR_LEN);
	gen_add(&g, IPC_IFACE, &f);
	fr.ifindex = FUZZ_IF_A;
	memcpy(fr.src, "\x02\x00\x00\x00\x00\x0b", BS_ADDR_LEN);
	memset(fr.dst, 0xff, BS_ADDR_LEN);
	fr.len = 60;
	fr.data[0] = 0x01;	/* a HELLO header */
	fr.data[1] = 0x01;
	gen_add(&g, IPC_FRAME, &fr);
	memcpy(k.peer_pk, gen_n1.pk, BS_PK_LEN);
	memset(k.key_id, 0x12, sizeof(k.key_id));
	memset(k.key, 0x34, sizeof(k.key));
	gen_add(&g, IPC_LINK_KEY, &k);
	for (i = 0; i < sizeof(snap); i++)
		snap[i] = (uint8_t)(i * 13);
	gen_add(&g, IPC_POLICY_BEGIN, &mark);
	ch.serial = 1;
	for (off = 0; off < sizeof(snap); off += ch.len) {
		ch.offset = (uint32_t)off;
		ch.len = (uint16_t)(sizeof(snap) - off < IPC_POLICY_CHUNK_MAX ?
		    sizeof(snap) - off : IPC_POLICY_CHUNK_MAX);
		memcpy(ch.data, snap + off, ch.len);
		gen_add(&g, IPC_POLICY_CHUNK, &ch);
	}
	gen_add(&g, IPC_POLICY_END, &mark);
	memset(&pins, 0, sizeof(pins));
	pins.count = 2;
	memcpy(pins.pk[0], gen_n1.pk, BS_PK_LEN);
	memcpy(pins.pk[1], k.peer_pk, BS_PK_LEN);
	pins.pk[1][0] ^= 0x01;
	gen_add(&g, IPC_PINS, &pins);
	f.state = IPC_IFACE_REMOVED;
	f.mtu = 0;
	memset(f.mac, 0, BS_ADDR_LEN);
	gen_add(&g, IPC_IFACE, &f);
	gen_write(dir, &g);

	/* A snapshot that goes wrong: a gap, then a fresh start. */
	gen_start(&g, IPC_ROLE_PARSER);
	mark.total = 20;
	gen_add(&g, IPC_POLICY_BEGIN, &mark);
	ch.offset = 4;
	ch.len = 10;
	gen_add(&g, IPC_POLICY_CHUNK, &ch);
	mark.serial = 2;
	gen_add(&g, IPC_POLICY_BEGIN, &mark);
	ch.serial = 2;
	ch.offset = 0;
	ch.len = 20;
	gen_add(&g, IPC_POLICY_CHUNK, &ch);
	gen_add(&g, IPC_POLICY_END, &mark);
	gen_write(dir, &g);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_ipc DIR\n");
		return 2;
	}
	fuzz_init();
	gen_identity(&gen_n1, gen_n1_addr, 0x22);
	gen_identity(&gen_orig, gen_orig_addr, 0x44);
	seed_forwarder_session(argv[1]);
	seed_parser_session(argv[1]);
	return 0;
}
