/*
 * fuzz_data.c — the forwarder's data plane (src/forwarder/fwd_data.c) as the mesh
 * and the hosts on batsec0 drive it.
 *
 * Input: a sequence of records, each
 *	kind (1) | dt (1) | length (2, big-endian) | length bytes
 * (a length past the end takes what is left).  dt advances the clock by
 * dt * 1000 ms; when it is non-zero the tables are purged as the loop
 * would.  kind:
 *	bit 7 set: a frame read from the TAP (the bytes are the Ethernet frame);
 *	bit 7 clear: a frame from the mesh (the bytes are the Ethernet payload),
 *	    bits 0-1: from the MAC of FUZZ_NODE_N1 + (kind & 3) (node 4 is not
 *	    a neighbour), bit 2: on FUZZ_IF_B instead of FUZZ_IF_A,
 *	    bits 4-5: Ethernet destination: our interface MAC, broadcast,
 *	    a multicast group, another host;
 *	bit 6 (either way): gateway client mode with node 5 selected
 *	    (fwd_gwsel.h: DHCP steered to it, other DHCP answers dropped)
 *	    from this record on, or off again.
 *
 * The fixed context (gen_data.c writes seeds for it): node n has the
 * identity t_ident(0x40 + n), epoch n + 1 and interface MAC 0a:cc:0:0:0:n
 * (the same on both of its interfaces); we are node 0 with
 * the TAP MAC FUZZ_TAP_MAC; interfaces A (MTU 1630) and B (MTU 1400) are
 * up; node 1 is a neighbour on A, node 2 on B, node 3 on A and B; routes:
 * 1 via 1 (A), 2 via 2 (B), 5 via 3 (B), 6 via 7 (A; node 7 is not up);
 * clients: FUZZ_CLIENT(1..3) behind 1, FUZZ_CLIENT(5) and, on VLAN 10,
 * FUZZ_CLIENT(6) behind 5, FUZZ_CLIENT(7) behind 6.
 *
 * Oracles (abort on failure): everything sent on an interface is a
 * well-formed version-2 UNICAST, BCAST, ECHO, TRACE, TTLX or FRAG with
 * ttl > 0 that fits the interface MTU; a BCAST goes to ff:ff:ff:ff:ff:ff,
 * the others to an up neighbour's MAC on that interface, under the hop
 * key id of that link and with a hop tag that verifies (a FRAG we cut
 * only of a frame longer than that MTU); every tag of a BCAST verifies
 * under the hop key of a neighbour on that interface; an ECHO from us is
 * a reply to a request we received (full TTL), a UNICAST from us one of
 * the TAP's (full TTL); we never originate a TRACE (only batsec-ctl
 * does); a TTLX from us answers a TRACE that expired here, at full TTL,
 * and there are never more of them than FWD_TTLX_BURST + FWD_TTLX_RATE a
 * second of the input's clock; only frames of 14..1518 bytes are written
 * to the TAP; the counters add up (every frame in is counted once).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "forwarder/fwd_data.h"
#include "forwarder/fwd_tables.h"
#include "lib/t_frames.h"
#include "lib/t_ident.h"
#include "proto/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_IF_A	2
#define FUZZ_IF_B	3
#define FUZZ_MTU_A	1630
#define FUZZ_MTU_B	1400
#define FUZZ_T0		1000000ull
#define FUZZ_NODES	8
#define FUZZ_MAX_RECORDS	256

static const uint8_t fuzz_tap_mac[BS_ADDR_LEN] = {
	0x06, 0x00, 0x00, 0x00, 0x00, 0x01
};

struct fuzz_node {
	struct bs_identity id;
	uint8_t addr[BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint32_t epoch;
	struct t_link link;		/* hop key with node 0 (not for 0) */
};

static struct fuzz_node fuzz_nodes[FUZZ_NODES];
static struct fwd_data fuzz_dp;
static uint64_t fuzz_sent, fuzz_written, fuzz_now;

/* Node n: t_ident(0x40 + n), epoch n + 1; its hop key with node 0. */
static void
fuzz_init(void)
{
	static int ready;
	struct fuzz_node *n;
	unsigned i;

	if (ready)
		return;
	if (bs_crypto_init() != 0)
		abort();
	for (i = 0; i < FUZZ_NODES; i++) {
		n = &fuzz_nodes[i];
		t_ident_addr(&n->id, n->addr, (uint8_t)(0x40 + i));
		memcpy(n->mac, (const uint8_t[]){ 0x0a, 0xcc, 0, 0, 0, 0 },
		    BS_ADDR_LEN);
		n->mac[5] = (uint8_t)i;
		n->epoch = i + 1;
	}
	for (i = 1; i < FUZZ_NODES; i++)
		t_link_keys(&fuzz_nodes[i].link, (struct t_end){
		    &fuzz_nodes[0].id, fuzz_nodes[0].mac, fuzz_nodes[0].epoch,
		    NULL }, (struct t_end){ &fuzz_nodes[i].id,
		    fuzz_nodes[i].mac, fuzz_nodes[i].epoch, NULL });
	ready = 1;
}

/* The node whose interface MAC is mac, or NULL. */
static const struct fuzz_node *
fuzz_node_mac(const uint8_t *mac)
{
	unsigned i;

	for (i = 1; i < FUZZ_NODES; i++)
		if (memcmp(fuzz_nodes[i].mac, mac, BS_ADDR_LEN) == 0)
			return &fuzz_nodes[i];
	return NULL;
}

static void
fuzz_client(unsigned id, uint8_t mac[BS_ADDR_LEN])
{
	memcpy(mac, (const uint8_t[]){ 0x52, 0x54, 0, 0, 0, 0 }, BS_ADDR_LEN);
	mac[5] = (uint8_t)id;
}

/* ---- captured I/O and its oracles ----------------------------------------- */

static uint32_t
fuzz_mtu(uint32_t ifindex)
{
	if (ifindex == FUZZ_IF_A)
		return FUZZ_MTU_A;
	if (ifindex == FUZZ_IF_B)
		return FUZZ_MTU_B;
	abort();
}

/* A frame to neighbour dst: its link's key id, a hop tag over in. */
static void
fuzz_check_hop(const struct fwd_data *d, uint32_t ifindex,
    const uint8_t *dst, const uint8_t *keyid, const uint8_t *tag,
    const uint8_t *in, size_t inlen)
{
	const struct fuzz_node *n;

	if (fwd_neigh_find_mac(d->t, dst, ifindex) == NULL ||
	    (n = fuzz_node_mac(dst)) == NULL)
		abort();
	if (memcmp(keyid, n->link.keyid, BS_KEYID_LEN) != 0 ||
	    bs_hop_tag_verify(tag, n->link.key, in, inlen) != 0)
		abort();
}

/* A FRAG (a piece of a UNICAST too long for the MTU), as a UNICAST. */
static void
fuzz_check_frag(const struct fwd_data *d, uint32_t ifindex,
    const uint8_t *dst, const uint8_t *p, size_t len)
{
	uint8_t in[WIRE_FRAG_HOP_IN_MAX];
	struct wire_frag f;
	size_t inlen;

	if (wire_frag_parse(p, len, &f) != WIRE_OK || f.ttl == 0)
		abort();
	inlen = wire_frag_hop_input(p, len, in);
	fuzz_check_hop(d, ifindex, dst, f.keyid, f.hop_tag, in, inlen);
	/* Only a frame too long for the smaller interface is cut. */
	if (memcmp(f.orig, d->own_addr, BS_ADDR_LEN) == 0 &&
	    WIRE_E2E_OFF + (size_t)f.total <= fuzz_mtu(ifindex))
		abort();
}

/* A sealed frame (UNICAST, ECHO, TRACE, TTLX) to neighbour dst: its link's key id and hop tag. */
static void
fuzz_check_sealed(const struct fwd_data *d, uint32_t ifindex,
    const uint8_t *dst, const uint8_t *p, size_t len)
{
	uint8_t in[WIRE_SEALED_HOP_IN];
	struct wire_sealed s;

	if (wire_sealed_parse(p, len, &s) != WIRE_OK || s.ttl == 0)
		abort();
	wire_sealed_hop_input(p, len, in);
	fuzz_check_hop(d, ifindex, dst, s.keyid, s.hop_tag, in, sizeof(in));
	if (memcmp(s.e.src, d->own_addr, BS_ADDR_LEN) != 0)
		return;
	/* Ours: a UNICAST from the TAP or a reply, at full TTL, our epoch. */
	if (s.ttl != FWD_DATA_TTL || s.e.src_epoch != fuzz_nodes[0].epoch)
		abort();
	if (s.type == WIRE_T_ECHO &&
	    d->echo.replies_sent > d->echo.requests_received)
		abort();
	if (s.type == WIRE_T_TRACE)
		abort();
	if (s.type == WIRE_T_TTLX && (d->echo.ttlx_sent >=
	    d->echo.trace_expired || d->echo.ttlx_sent >= FWD_TTLX_BURST +
	    (fuzz_now - FUZZ_T0) / 1000 * FWD_TTLX_RATE))
		abort();
}

/* Every tag verifies under the key of a neighbour on that interface. */
static void
fuzz_check_bcast(const struct fwd_data *d, uint32_t ifindex,
    const uint8_t *dst, const uint8_t *p, size_t len)
{
	static const uint8_t bc[BS_ADDR_LEN] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	uint8_t in[WIRE_BCAST_TAG_IN];
	const struct fuzz_node *n;
	const uint8_t *tag;
	struct wire_bcast b;
	unsigned i, j;

	if (wire_bcast_parse(p, len, &b) != WIRE_OK || b.pad_len != 0 ||
	    b.ttl == 0 || memcmp(dst, bc, BS_ADDR_LEN) != 0)
		abort();
	wire_bcast_tag_input(p, &b, in);
	for (i = 0; i < b.num_tags; i++) {
		tag = b.tags + i * WIRE_BCAST_TAG_LEN;
		for (j = 1; j < FUZZ_NODES; j++) {
			n = &fuzz_nodes[j];
			if (memcmp(tag, n->link.keyid, BS_KEYID_LEN) == 0)
				break;
		}
		if (j == FUZZ_NODES ||
		    fwd_neigh_find_mac(d->t, n->mac, ifindex) == NULL ||
		    bs_hop_tag_verify(tag + BS_KEYID_LEN, n->link.key, in,
		    sizeof(in)) != 0)
			abort();
	}
}

static int
fuzz_send(void *arg, uint32_t ifindex, const uint8_t dst[static BS_ADDR_LEN],
    const void *payload, size_t len)
{
	const struct fwd_data *d = arg;
	const uint8_t *p = payload;

	if (len == 0 || len > fuzz_mtu(ifindex))
		abort();
	if (wire_is_sealed(p[0]))
		fuzz_check_sealed(d, ifindex, dst, p, len);
	else if (p[0] == WIRE_T_BCAST)
		fuzz_check_bcast(d, ifindex, dst, p, len);
	else if (p[0] == WIRE_T_FRAG)
		fuzz_check_frag(d, ifindex, dst, p, len);
	else
		abort();
	fuzz_sent++;
	return 0;
}

static int
fuzz_tap_write(void *arg, const void *frame, size_t len)
{
	(void)arg;
	if (frame == NULL || len < WIRE_INNER_MIN || len > WIRE_INNER_MAX)
		abort();
	fuzz_written++;
	return 0;
}

static size_t
fuzz_ifaces(void *arg, struct fwd_data_if *out, size_t max)
{
	(void)arg;
	if (max < 2)
		abort();
	memset(out, 0, 2 * sizeof(*out));
	out[0].ifindex = FUZZ_IF_A;
	out[0].mtu = FUZZ_MTU_A;
	memcpy(out[0].mac, fuzz_nodes[0].mac, BS_ADDR_LEN);
	out[1].ifindex = FUZZ_IF_B;
	out[1].mtu = FUZZ_MTU_B;
	memcpy(out[1].mac, fuzz_nodes[0].mac, BS_ADDR_LEN);
	return 2;
}

/* ---- the fixed context ------------------------------------------------------ */

/* Our link salts: t_salt of our key on both interfaces, as the keys. */
static void
fuzz_salts(struct fwd_data *d)
{
	size_t i;

	(void)fwd_links_own_salt(&d->links, FUZZ_IF_A, FUZZ_T0);
	(void)fwd_links_own_salt(&d->links, FUZZ_IF_B, FUZZ_T0);
	for (i = 0; i < FWD_LINKS_IF_MAX; i++)
		if (d->links.s[i].ifindex != 0)
			t_salt(d->links.s[i].salt, fuzz_nodes[0].id.pk);
}

static void
fuzz_neigh(struct fwd_tables *t, unsigned n, uint32_t ifindex)
{
	struct ipc_neigh m;

	memset(&m, 0, sizeof(m));
	memcpy(m.pk, fuzz_nodes[n].id.pk, BS_PK_LEN);
	memcpy(m.addr, fuzz_nodes[n].addr, BS_ADDR_LEN);
	memcpy(m.mac, fuzz_nodes[n].mac, BS_ADDR_LEN);
	m.ifindex = ifindex;
	m.epoch = fuzz_nodes[n].epoch;
	m.state = IPC_NEIGH_UP;
	m.tq = 200;
	m.rx_count = 64;
	t_salt(m.salt, m.pk);
	if (fwd_neigh_update(t, &m, FUZZ_T0) != FWD_NEIGH_NEW)
		abort();
}

static void
fuzz_route(struct fwd_tables *t, unsigned dst, unsigned via,
    uint32_t ifindex)
{
	struct ipc_route r;

	memset(&r, 0, sizeof(r));
	memcpy(r.orig_pk, fuzz_nodes[dst].id.pk, BS_PK_LEN);
	memcpy(r.orig_addr, fuzz_nodes[dst].addr, BS_ADDR_LEN);
	memcpy(r.nexthop, fuzz_nodes[via].addr, BS_ADDR_LEN);
	r.ifindex = ifindex;
	r.tq = 100;
	r.hops = dst == via ? 1 : 2;
	r.epoch = fuzz_nodes[dst].epoch;
	if (fwd_route_add(t, &r, FUZZ_T0) != 0)
		abort();
}

/* Clients first..last of orig, on VLAN vid (0: untagged). */
static void
fuzz_tt(struct fwd_tables *t, unsigned orig, unsigned first, unsigned last,
    uint16_t vid)
{
	static struct ipc_tt m;
	unsigned i;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, fuzz_nodes[orig].addr, BS_ADDR_LEN);
	for (i = first; i <= last; i++) {
		fuzz_client(i, m.e[m.count].mac);
		m.e[m.count++].vid = vid;
	}
	if (fwd_client_set(t, &m, FUZZ_T0) != m.count)
		abort();
}

static struct fwd_tables *
fuzz_tables(void)
{
	struct fwd_tables *t = fwd_tables_new();
	static struct ipc_tt m5;

	if (t == NULL)
		abort();
	fuzz_neigh(t, 1, FUZZ_IF_A);
	fuzz_neigh(t, 2, FUZZ_IF_B);
	fuzz_neigh(t, 3, FUZZ_IF_A);
	fuzz_neigh(t, 3, FUZZ_IF_B);
	fuzz_route(t, 1, 1, FUZZ_IF_A);
	fuzz_route(t, 2, 2, FUZZ_IF_B);
	fuzz_route(t, 5, 3, FUZZ_IF_B);
	fuzz_route(t, 6, 7, FUZZ_IF_A);
	fuzz_tt(t, 1, 1, 3, 0);
	/* Node 5: client 5 untagged and client 6 on VLAN 10. */
	memset(&m5, 0, sizeof(m5));
	memcpy(m5.orig_addr, fuzz_nodes[5].addr, BS_ADDR_LEN);
	m5.count = 2;
	fuzz_client(5, m5.e[0].mac);
	fuzz_client(6, m5.e[1].mac);
	m5.e[1].vid = WIRE_VID_TAGGED | 10;
	if (fwd_client_set(t, &m5, FUZZ_T0) != 2)
		abort();
	fuzz_tt(t, 6, 7, 7, 0);
	if (fwd_local_set_own(t, fuzz_tap_mac, FUZZ_T0) != 0)
		abort();
	return t;
}

/* ---- driving it ------------------------------------------------------------------ */

static const uint8_t *
fuzz_eth_dst(unsigned sel)
{
	static const uint8_t bc[BS_ADDR_LEN] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	static const uint8_t grp[BS_ADDR_LEN] = { 0x01, 0, 0x5e, 0, 0, 1 };
	static const uint8_t other[BS_ADDR_LEN] = { 0x0a, 0xee, 0, 0, 0, 9 };

	switch (sel & 3) {
	case 0:
		return fuzz_nodes[0].mac;
	case 1:
		return bc;
	case 2:
		return grp;
	default:
		return other;
	}
}

static void
fuzz_record(struct fwd_data *d, uint8_t kind, const uint8_t *p, size_t len,
    uint64_t now)
{
	uint32_t ifindex;

	if (kind & 0x40) {
		d->gw.client = d->gw.has_sel = (uint8_t)!d->gw.client;
		memcpy(d->gw.sel, fuzz_nodes[5].addr, BS_ADDR_LEN);
	}
	if (kind & 0x80) {
		fwd_data_tap_rx(d, p, len, now);
		return;
	}
	ifindex = (kind & 0x04) ? FUZZ_IF_B : FUZZ_IF_A;
	fwd_data_mesh_rx(d, ifindex, fuzz_nodes[1 + (kind & 3)].mac,
	    fuzz_eth_dst(kind >> 4), p, len, now);
}

/* Every frame that came in was counted once as rx. */
static void
fuzz_check_totals(const struct fwd_data *d, uint64_t frames_in)
{
	struct fwd_dcount tot;

	fwd_data_totals(d, &tot);
	if (tot.rx_frames != frames_in || tot.tx_frames != fuzz_sent +
	    fuzz_written)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fwd_data_ops ops = {
		.send = fuzz_send,
		.tap_write = fuzz_tap_write,
		.ifaces = fuzz_ifaces,
		.arg = &fuzz_dp,
	};
	struct fwd_tables *t;
	uint64_t now = FUZZ_T0, in = 0;
	size_t off = 0, len;
	uint8_t kind, dt;

	fuzz_init();
	t = fuzz_tables();
	fwd_data_init(&fuzz_dp, t, &fuzz_nodes[0].id, fuzz_nodes[0].epoch,
	    &ops);
	fuzz_salts(&fuzz_dp);
	/* Bridge loop avoidance (fwd_bla.h) on for inputs of odd length. */
	fwd_bla_enable(&fuzz_dp.bla, (size & 1) != 0, now);
	fuzz_sent = fuzz_written = 0;
	fuzz_now = now;
	while (size - off >= 4 && in < FUZZ_MAX_RECORDS) {
		kind = data[off];
		dt = data[off + 1];
		len = (size_t)data[off + 2] << 8 | data[off + 3];
		off += 4;
		if (len > size - off)
			len = size - off;
		if (dt != 0) {
			now += (uint64_t)dt * 1000;
			(void)fwd_tables_purge(t, now);
			(void)fwd_data_bla_tick(&fuzz_dp, now);
		}
		fuzz_now = now;
		fuzz_record(&fuzz_dp, kind, data + off, len, now);
		in++;
		off += len;
	}
	fwd_data_flush(&fuzz_dp);
	fuzz_check_totals(&fuzz_dp, in);
	fwd_data_fini(&fuzz_dp);
	fwd_tables_free(t);
	return 0;
}
