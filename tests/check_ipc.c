/*
 * check_ipc.c — the forwarder <-> parser channel: round trips of every
 * message type over a real socketpair, refusal of every malformed framing,
 * payload and state violation (table-driven), the bounded outgoing queue
 * and policy-snapshot chunking.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "batsec_crypto.h"
#include "forwarder/ipc_check.h"
#include "proto/ipc.h"
#include "proto/wire.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

static struct bs_identity id_own, id_n1, id_n2, id_orig;
static uint8_t addr_own[6], addr_n1[6], addr_n2[6], addr_orig[6];

#define IF_A	2	/* live mesh interfaces of the test context */
#define IF_B	3
#define IF_GONE	5	/* removed by the forwarder */
#define IF_NONE	9	/* never existed */

static const uint16_t all_types[] = {
	IPC_CONFIG, IPC_POLICY_BEGIN, IPC_POLICY_CHUNK, IPC_POLICY_END,
	IPC_IFACE, IPC_FRAME, IPC_LINK_KEY, IPC_LOG, IPC_ROUTE_ADD,
	IPC_ROUTE_DEL, IPC_NEIGH, IPC_LINK_KEY_REQ, IPC_TT, IPC_GW, IPC_RELAY,
	IPC_STATS, IPC_PINS, IPC_PIN, IPC_HEARTBEAT, IPC_HEARTBEAT_ACK,
	IPC_CERT, IPC_ROUTE_ALT, IPC_MCAST, IPC_DESC_WANT, IPC_HELLO_SIGN,
};
#define N_TYPES	((int)(sizeof(all_types) / sizeof(all_types[0])))

/* Called from main(), outside any test: no ck_assert here. */
static void
keys_init(void)
{
	if (bs_crypto_init() != 0)
		abort();
	t_ident_addr(&id_own, addr_own, 0x11);
	t_ident_addr(&id_n1, addr_n1, 0x22);
	t_ident_addr(&id_n2, addr_n2, 0x33);
	t_ident_addr(&id_orig, addr_orig, 0x44);
}

static enum ipc_role
receiver_of(uint16_t type)
{
	return type < 0x40 ? IPC_ROLE_PARSER : IPC_ROLE_FORWARDER;
}

static void
mac(uint8_t *m, uint8_t last)
{
	static const uint8_t base[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x00 };

	memcpy(m, base, 6);
	m[5] = last;
}

/*
 * An OGM entry with a 12-byte GATEWAY TVLV: 158 bytes.  E_* are offsets
 * in the entry (batsec-protocol(7), "Entry": the signed part starts at
 * WIRE_OGM_MUT_LEN, 22).
 */
#define E_SGN		WIRE_OGM_MUT_LEN
#define E_FLAGS		(E_SGN + 40)
#define E_INTERVAL	(E_SGN + 42)
#define E_ANCHOR	(E_SGN + 44)
#define E_TVLV_LEN	(E_ANCHOR + BS_CHAIN_LEN)
#define E_RESERVED	(E_TVLV_LEN + 2)
#define E_TVLV		(E_RESERVED + 2)
#define E_LEN		(E_TVLV + 12 + BS_SIG_LEN)
_Static_assert(E_LEN == 158, "entry of the IPC tests");

static size_t
ogm_entry(uint8_t *e, const uint8_t *pk, uint8_t hops)
{
	memset(e, 0, E_LEN);
	e[0] = 50;			/* ttl */
	e[1] = 200;			/* tq */
	e[2] = hops;
	memcpy(e + 4, addr_n1, 6);	/* previous sender */
	memset(e + 10, 0xc1, BS_CHAIN_LEN);	/* hop-chain element */
	memcpy(e + E_SGN, pk, 32);
	bs_put32(e + E_SGN + 32, 9);	/* epoch */
	bs_put32(e + E_SGN + 36, 1234);	/* seqno */
	bs_put16(e + E_INTERVAL, 1000);
	memset(e + E_ANCHOR, 0xa5, BS_CHAIN_LEN);
	bs_put16(e + E_TVLV_LEN, 12);
	e[E_TVLV] = 0x01;		/* GATEWAY, version 1, len 8 */
	e[E_TVLV + 1] = 1;
	bs_put16(e + E_TVLV + 2, 8);
	bs_put32(e + E_TVLV + 4, 100);
	bs_put32(e + E_TVLV + 8, 20);
	memset(e + E_TVLV + 12, 0x5a, 64);	/* signature (not checked) */
	return E_LEN;
}

/* A valid payload of every type, consistent with ctx_with_neigh(). */
static void
sample(uint16_t type, union ipc_payload *u)
{
	struct bs_cert c;
	size_t i;

	memset(u, 0, sizeof(*u));
	switch (type) {
	case IPC_CONFIG:
		memcpy(u->config.own_pk, id_own.pk, 32);
		memcpy(u->config.own_addr, addr_own, 6);
		u->config.ethertype = 0x88b5;
		u->config.epoch = 7;
		u->config.hello_ms = 1000;
		u->config.ogm_ms = 1000;
		u->config.hop_penalty = 30;
		u->config.log_level = IPC_LOG_INFO;
		break;
	case IPC_POLICY_BEGIN:
	case IPC_POLICY_END:
		u->policy_mark.serial = 1;
		u->policy_mark.total = 10;
		break;
	case IPC_POLICY_CHUNK:
		u->policy_chunk.serial = 1;
		u->policy_chunk.len = 10;
		memcpy(u->policy_chunk.data, "0123456789", 10);
		break;
	case IPC_IFACE:
		u->iface.ifindex = IF_A;
		u->iface.mtu = 1630;
		mac(u->iface.mac, 0x0a);
		u->iface.state = IPC_IFACE_UP;
		strcpy(u->iface.name, "mesh0");
		break;
	case IPC_FRAME:
		u->frame.ifindex = IF_A;
		mac(u->frame.src, 0x77);
		memset(u->frame.dst, 0xff, 6);
		u->frame.len = 60;
		for (i = 0; i < 60; i++)
			u->frame.data[i] = (uint8_t)i;
		break;
	case IPC_LINK_KEY:
		memcpy(u->link_key.peer_pk, id_n1.pk, 32);
		u->link_key.ifindex = IF_A;
		memset(u->link_key.key_id, 0x12, 4);
		memset(u->link_key.key, 0x34, 32);
		break;
	case IPC_LOG:
		u->log.level = IPC_LOG_WARNING;
		strcpy(u->log.text, "neighbour 02:00:5e:10:00:01 up");
		break;
	case IPC_ROUTE_ADD:
		memcpy(u->route.orig_pk, id_orig.pk, 32);
		memcpy(u->route.orig_addr, addr_orig, 6);
		memcpy(u->route.nexthop, addr_n1, 6);
		u->route.ifindex = IF_A;
		u->route.tq = 200;
		u->route.hops = 2;
		u->route.epoch = 3;
		break;
	case IPC_ROUTE_DEL:
		memcpy(u->route_del.orig_addr, addr_orig, 6);
		break;
	case IPC_ROUTE_ALT:
		memcpy(u->route_alt.orig_addr, addr_orig, 6);
		u->route_alt.count = 1;
		memcpy(u->route_alt.c[0].nexthop, addr_n1, 6);
		u->route_alt.c[0].tq = 150;
		u->route_alt.c[0].hops = 3;
		u->route_alt.c[0].ifindex = IF_A;
		break;
	case IPC_NEIGH:
		memcpy(u->neigh.pk, id_n1.pk, 32);
		memcpy(u->neigh.addr, addr_n1, 6);
		mac(u->neigh.mac, 0x01);
		u->neigh.ifindex = IF_A;
		u->neigh.state = IPC_NEIGH_UP;
		u->neigh.tq = 240;
		u->neigh.rx_count = 60;
		u->neigh.epoch = 5;
		break;
	case IPC_LINK_KEY_REQ:
		memcpy(u->link_key_req.peer_pk, id_n1.pk, 32);
		u->link_key_req.ifindex = IF_A;
		break;
	case IPC_TT:
		memcpy(u->tt.orig_addr, addr_orig, 6);
		u->tt.count = 3;
		for (i = 0; i < 3; i++)
			mac(u->tt.e[i].mac, (uint8_t)(0x40 + i));
		u->tt.e[1].vid = 0x8000 | 10;
		/* An isolated client: a repeat differs in its flags only. */
		u->tt.e[2].flags = WIRE_TT_F_ISOLATED;
		break;
	case IPC_DESC_WANT:
		memcpy(u->desc_want.orig_addr, addr_orig, 6);
		break;
	case IPC_HELLO_SIGN:
		u->hello_sign.ifindex = IF_A;
		break;
	case IPC_MCAST:
		memcpy(u->mcast.orig_addr, addr_orig, 6);
		u->mcast.known = 1;
		u->mcast.flags = WIRE_MCAST_F_ALL6;
		u->mcast.count = 2;
		memcpy(u->mcast.group[0], "\x01\x00\x5e\x01\x02\x03", 6);
		memcpy(u->mcast.group[1], "\x01\x00\x5e\x01\x02\x04", 6);
		break;
	case IPC_GW:
		memcpy(u->gw.orig_addr, addr_orig, 6);
		u->gw.op = IPC_GW_ANNOUNCE;
		u->gw.down = 100;
		u->gw.up = 20;
		break;
	case IPC_RELAY:
		u->relay.ifindex = IPC_IFINDEX_ALL;
		u->relay.len = (uint16_t)ogm_entry(u->relay.entry, id_orig.pk,
		    2);
		break;
	case IPC_STATS:
		u->stats.count = 3;
		u->stats.s[0].id = IPC_STAT_RX_FRAMES;
		u->stats.s[0].value = 10;
		u->stats.s[1].id = IPC_STAT_SIG_VERIFIED;
		u->stats.s[1].value = 5;
		u->stats.s[2].id = IPC_STAT_NEIGHBOURS;
		u->stats.s[2].value = UINT64_MAX;
		break;
	case IPC_PINS:
		u->pins.count = 3;
		memcpy(u->pins.pk[0], id_n1.pk, BS_PK_LEN);
		memcpy(u->pins.pk[1], id_n2.pk, BS_PK_LEN);
		memcpy(u->pins.pk[2], id_orig.pk, BS_PK_LEN);
		break;
	case IPC_PIN:
		memcpy(u->pin.pk, id_orig.pk, BS_PK_LEN);
		break;
	case IPC_HEARTBEAT:
	case IPC_HEARTBEAT_ACK:
		u->heartbeat.seq = 7;
		break;
	case IPC_CERT:
		ck_assert_int_eq(bs_cert_issue(&c, &id_orig, id_n1.pk, "n1",
		    BS_ROLE_GATEWAY, 1700000000, 1900000000), 0);
		bs_cert_encode(u->cert.cert, &c);
		break;
	default:
		ck_abort_msg("no sample for type %u", type);
	}
}

/*
 * Payload length by the formulas of ipc_msg.h, computed independently of
 * ipc.c (so a wrong count is sent as it is).
 */
static size_t
raw_len(uint16_t type, const union ipc_payload *u)
{
	switch (type) {
	case IPC_POLICY_CHUNK:
		return 12 + (size_t)u->policy_chunk.len;
	case IPC_FRAME:
		return 20 + (size_t)u->frame.len;
	case IPC_TT:
		return 12 + sizeof(struct ipc_tt_entry) * (size_t)u->tt.count;
	case IPC_MCAST:
		return 12 + 6 * (size_t)u->mcast.count;
	case IPC_RELAY:
		return 8 + (size_t)u->relay.len;
	case IPC_STATS:
		return 8 + 16 * (size_t)u->stats.count;
	case IPC_PINS:
		return 8 + 32 * (size_t)u->pins.count;
	case IPC_ROUTE_ALT:
		return 8 + 12 * (size_t)u->route_alt.count;
	default:
		return ipc_obj_size(type);
	}
}

/* Header + payload bytes into buf (IPC_MAX_MSG + 64), no checks. */
static size_t
raw_msg(uint8_t *buf, uint16_t type, const union ipc_payload *u,
    int delta)
{
	struct ipc_hdr h = { .type = type };
	size_t len = (size_t)((long)raw_len(type, u) + delta);

	memset(buf, 0, IPC_MAX_MSG + 64);
	h.len = (uint16_t)len;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, u, len < sizeof(*u) ? len : sizeof(*u));
	return 8 + len;
}

static void
pair(struct ipc *fwd, struct ipc *par, size_t qmax)
{
	int fds[2];
	char err[256];

	ck_assert_int_eq(ipc_socketpair(fds), 0);
	ck_assert_msg(ipc_init(fwd, fds[0], IPC_ROLE_FORWARDER, qmax, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_msg(ipc_init(par, fds[1], IPC_ROLE_PARSER, qmax, err,
	    sizeof(err)) == 0, "%s", err);
}

static void
ctx_base(struct ipc_ctx *ctx)
{
	ipc_ctx_init(ctx, addr_own);
	ck_assert_int_eq(ipc_ctx_iface_add(ctx, IF_A), 0);
	ck_assert_int_eq(ipc_ctx_iface_add(ctx, IF_B), 0);
	ck_assert_int_eq(ipc_ctx_iface_add(ctx, IF_GONE), 0);
	ipc_ctx_iface_del(ctx, IF_GONE);
}

static void
msg_of(struct ipc_msg *m, uint16_t type,
    const union ipc_payload *u)
{
	uint8_t buf[IPC_MAX_MSG];
	size_t n;
	char err[256];

	ck_assert_msg(ipc_encode(buf, sizeof(buf), type, u, ipc_obj_size(type),
	    &n, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(ipc_msg_parse(m, buf, n, receiver_of(type), err,
	    sizeof(err)) == 0, "%s", err);
}

/* Base context plus neighbour n1 up on IF_A, via a vetted NEIGH. */
static void
ctx_with_neigh(struct ipc_ctx *ctx)
{
	union ipc_payload u;
	struct ipc_msg m;
	char err[256];

	ctx_base(ctx);
	sample(IPC_NEIGH, &u);
	msg_of(&m, IPC_NEIGH, &u);
	ck_assert_msg(ipc_check(ctx, &m, err, sizeof(err)) == IPC_CHECK_OK,
	    "%s", err);
	ipc_ctx_apply(ctx, &m);
	ck_assert_ptr_nonnull(ipc_ctx_neigh_find(ctx, addr_n1, IF_A));
}

/* ---- round trips ------------------------------------------------------------ */

START_TEST(roundtrip_every_type)
{
	uint16_t type = all_types[_i];
	struct ipc fwd, par, *tx, *rx;
	union ipc_payload u, v;
	struct ipc_msg m;
	size_t size = ipc_obj_size(type);
	char err[256];

	sample(type, &u);
	pair(&fwd, &par, 0);
	tx = receiver_of(type) == IPC_ROLE_PARSER ? &fwd : &par;
	rx = tx == &fwd ? &par : &fwd;
	ck_assert_msg(ipc_send(tx, type, &u, size) == 0, "%s", ipc_error(tx));
	ck_assert_int_eq(ipc_pending(tx), 0);
	ck_assert_msg(ipc_recv(rx, &m, err, sizeof(err)) == IPC_RECV_MSG,
	    "%s", err);
	ck_assert_uint_eq(m.hdr.type, type);
	ck_assert_uint_eq(m.hdr.len, raw_len(type, &u));
	memset(&v, 0xee, sizeof(v));
	ck_assert_int_eq(ipc_get(&m, type, &v, size), 0);
	ck_assert_mem_eq(&u, &v, size);
	/* Exact sizes only, and only for the message's own type. */
	ck_assert_int_eq(ipc_get(&m, type, &v, size - 1), -1);
	ck_assert_int_eq(ipc_get(&m, type, &v, size + 1), -1);
	ck_assert_int_eq(ipc_get(&m, type == IPC_LOG ? IPC_GW : IPC_LOG, &v,
	    sizeof(v)), -1);
	ck_assert_int_eq(ipc_recv(rx, &m, err, sizeof(err)), IPC_RECV_NONE);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

/* ---- framing: refused by ipc_recv and ipc_msg_parse --------------------------- */

struct frame_case {
	const char *name;
	uint16_t type;		/* payload sample to start from, 0: none */
	size_t dgram;		/* datagram bytes when type == 0 */
	uint16_t hlen;		/* header len when type == 0 */
	uint16_t htype;		/* header type override (0: keep) */
	uint32_t reserved;
	int delta;		/* datagram bytes beyond header + payload */
	enum ipc_role to;
	const char *want;
};

static const struct frame_case frame_cases[] = {
	{ "shorter than a header", 0, 4, 0, 0, 0, 0, IPC_ROLE_FORWARDER,
	  "shorter than the 8-byte header" },
	{ "header len past the datagram", 0, 8, 10, IPC_LOG, 0, 0,
	  IPC_ROLE_FORWARDER, "header len 10 says 18" },
	{ "trailing byte", IPC_LOG, 0, 0, 0, 0, 1, IPC_ROLE_FORWARDER,
	  "datagram of 269 bytes, header len 260" },
	{ "missing byte", IPC_LOG, 0, 0, 0, 0, -1, IPC_ROLE_FORWARDER,
	  "datagram of 267 bytes, header len 260" },
	{ "header len over the maximum", 0, 8, IPC_MAX_PAYLOAD + 1, IPC_LOG, 0,
	  0, IPC_ROLE_FORWARDER, "exceeds the maximum" },
	{ "oversize datagram", 0, 8 + 5000, 5000, IPC_FRAME, 0, 0,
	  IPC_ROLE_PARSER, "exceeds the maximum" },
	{ "unknown type", IPC_LOG, 0, 0, 0x99, 0, 0, IPC_ROLE_FORWARDER,
	  "unknown type 0x0099" },
	{ "type 0xffff", IPC_LOG, 0, 0, 0xffff, 0, 0, IPC_ROLE_FORWARDER,
	  "unknown type 0xffff" },
	{ "type zero", 0, 8, 0, 0, 0, 0, IPC_ROLE_FORWARDER,
	  "unknown type 0x0000" },
	{ "forwarder type sent to the forwarder", IPC_CONFIG, 0, 0, 0, 0, 0,
	  IPC_ROLE_FORWARDER, "not accepted in this direction" },
	{ "parser type sent to the parser", IPC_ROUTE_ADD, 0, 0, 0, 0, 0,
	  IPC_ROLE_PARSER, "not accepted in this direction" },
	{ "header reserved", IPC_LOG, 0, 0, 0, 1, 0, IPC_ROLE_FORWARDER,
	  "reserved field is 0x1" },
};

static size_t
frame_case_build(const struct frame_case *c, uint8_t *buf)
{
	union ipc_payload u;
	struct ipc_hdr h;
	size_t n;

	if (c->type == 0) {
		memset(&h, 0, sizeof(h));
		h.type = c->htype;
		h.len = c->hlen;
		memcpy(buf, &h, sizeof(h) < c->dgram ? sizeof(h) : c->dgram);
		return c->dgram;
	}
	sample(c->type, &u);
	n = raw_msg(buf, c->type, &u, 0);
	memcpy(&h, buf, sizeof(h));
	if (c->htype != 0)
		h.type = c->htype;
	h.reserved = c->reserved;
	memcpy(buf, &h, sizeof(h));
	return (size_t)((long)n + c->delta);
}

START_TEST(framing_refused)
{
	const struct frame_case *c = &frame_cases[_i];
	static uint8_t buf[8 + 5000 + 64];
	struct ipc fwd, par, *rx, *tx;
	struct ipc_msg m;
	char err[256] = "";
	size_t n;

	memset(buf, 0, sizeof(buf));
	n = frame_case_build(c, buf);
	ck_assert_int_eq(ipc_msg_parse(&m, buf, n, c->to, err, sizeof(err)),
	    -1);
	ck_assert_msg(strstr(err, c->want) != NULL, "%s: '%s' lacks '%s'",
	    c->name, err, c->want);
	pair(&fwd, &par, 0);
	rx = c->to == IPC_ROLE_FORWARDER ? &fwd : &par;
	tx = rx == &fwd ? &par : &fwd;
	ck_assert_int_eq(send(tx->fd, buf, n, 0), (ssize_t)n);
	err[0] = '\0';
	ck_assert_int_eq(ipc_recv(rx, &m, err, sizeof(err)), IPC_RECV_BAD);
	ck_assert_msg(strstr(err, c->want) != NULL, "%s: '%s' lacks '%s'",
	    c->name, err, c->want);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

/* Every type, one byte more or less than its exact size. */
START_TEST(payload_size_exact)
{
	uint16_t type = all_types[_i / 2];
	int delta = _i % 2 ? 1 : -1;
	uint8_t buf[IPC_MAX_MSG + 64];
	union ipc_payload u;
	struct ipc_msg m;
	char err[256] = "";
	size_t n;

	sample(type, &u);
	n = raw_msg(buf, type, &u, delta);
	ck_assert_int_eq(ipc_msg_parse(&m, buf, n, receiver_of(type), err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "payload of") != NULL, "%s: %s",
	    ipc_type_name(type), err);
	/* The unchanged message passes, so the refusal is the size's. */
	n = raw_msg(buf, type, &u, 0);
	ck_assert_msg(ipc_msg_parse(&m, buf, n, receiver_of(type), err,
	    sizeof(err)) == 0, "%s", err);
}
END_TEST

START_TEST(ancillary_data_refused)
{
	struct ipc fwd, par;
	union ipc_payload u;
	uint8_t buf[IPC_MAX_MSG + 64];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov;
	struct msghdr mh;
	struct cmsghdr *cm;
	struct ipc_msg m;
	char err[256] = "";
	int fd = 0;

	pair(&fwd, &par, 0);
	sample(IPC_LOG, &u);
	iov.iov_base = buf;
	iov.iov_len = raw_msg(buf, IPC_LOG, &u, 0);
	memset(&mh, 0, sizeof(mh));
	memset(&ctl, 0, sizeof(ctl));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(fd));
	ck_assert_int_eq(sendmsg(par.fd, &mh, 0), (ssize_t)iov.iov_len);
	ck_assert_int_eq(ipc_recv(&fwd, &m, err, sizeof(err)), IPC_RECV_BAD);
	ck_assert_msg(strstr(err, "ancillary") != NULL, "%s", err);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

START_TEST(eof_and_empty_datagram)
{
	struct ipc fwd, par;
	struct ipc_msg m;
	char err[256];

	pair(&fwd, &par, 0);
	ck_assert_int_eq(ipc_recv(&fwd, &m, err, sizeof(err)), IPC_RECV_NONE);
	ck_assert_int_eq(send(par.fd, "", 0, 0), 0);
	ck_assert_int_eq(ipc_recv(&fwd, &m, err, sizeof(err)), IPC_RECV_EOF);
	ipc_close(&par);
	ck_assert_int_eq(ipc_recv(&fwd, &m, err, sizeof(err)), IPC_RECV_EOF);
	ipc_close(&fwd);
}
END_TEST

START_TEST(init_refuses_non_seqpacket)
{
	struct ipc ch;
	char err[256] = "";
	int fds[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	ck_assert_int_eq(ipc_init(&ch, fds[0], IPC_ROLE_PARSER, 0, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a SOCK_SEQPACKET") != NULL, "%s", err);
	ck_assert_int_eq(ipc_init(&ch, fds[0], (enum ipc_role)7, 0, err,
	    sizeof(err)), -1);
	close(fds[0]);
	close(fds[1]);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(ipc_init(&ch, fds[0], IPC_ROLE_PARSER, 0, err,
	    sizeof(err)), -1);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* ---- payload format (layer 2) --------------------------------------------------- */

struct fmt_case {
	uint16_t type;
	size_t off;		/* byte offset in the payload struct */
	size_t width;		/* 1, 2 or 4: integer; otherwise raw bytes */
	uint32_t value;
	const char *bytes;	/* raw bytes (width of them) when non-NULL */
	int delta;		/* payload length change */
	const char *want;
	int flip;		/* XOR the byte with value instead */
};

#define F(t, st, f, w, v, want) \
	{ t, offsetof(st, f), w, v, NULL, 0, want, 0 }
#define FB(t, st, f, w, b, want) \
	{ t, offsetof(st, f), w, 0, b, 0, want, 0 }
#define FX(t, st, f, v, want) \
	{ t, offsetof(st, f), 1, v, NULL, 0, want, 1 }

static const char zero32[BS_PK_LEN];

static const struct fmt_case fmt_cases[] = {
	/* CONFIG */
	FX(IPC_CONFIG, struct ipc_config, own_addr[5], 0x10,
	    "own_addr is not the mesh address"),
	FX(IPC_CONFIG, struct ipc_config, own_pk[31], 0x01,
	    "own_addr is not the mesh address"),
	F(IPC_CONFIG, struct ipc_config, ethertype, 2, 0x05ff,
	    "ethertype 0x05ff"),
	F(IPC_CONFIG, struct ipc_config, hello_ms, 2, 99, "hello_ms 99"),
	F(IPC_CONFIG, struct ipc_config, ogm_ms, 2, 60001, "ogm_ms 60001"),
	F(IPC_CONFIG, struct ipc_config, log_level, 1, 2, "log_level 2"),
	F(IPC_CONFIG, struct ipc_config, log_level, 1, 8, "log_level 8"),
	F(IPC_CONFIG, struct ipc_config, reserved[1], 1, 1, "reserved"),
	/* POLICY */
	F(IPC_POLICY_BEGIN, struct ipc_policy_mark, total, 4,
	    IPC_POLICY_MAX + 1, "total 8388609 exceeds"),
	F(IPC_POLICY_END, struct ipc_policy_mark, total, 4, 0xffffffff,
	    "exceeds"),
	F(IPC_POLICY_CHUNK, struct ipc_policy_chunk, len, 2, 0,
	    "len 0 out of range 1..4096"),
	F(IPC_POLICY_CHUNK, struct ipc_policy_chunk, offset, 4,
	    IPC_POLICY_MAX - 5, "exceeds"),
	F(IPC_POLICY_CHUNK, struct ipc_policy_chunk, reserved, 2, 1,
	    "reserved"),
	/* IFACE */
	F(IPC_IFACE, struct ipc_iface, ifindex, 4, 0, "ifindex 0"),
	F(IPC_IFACE, struct ipc_iface, ifindex, 4, 0x80000000u, "ifindex"),
	F(IPC_IFACE, struct ipc_iface, state, 1, 3, "state 3"),
	F(IPC_IFACE, struct ipc_iface, mtu, 4, 67, "mtu 67"),
	F(IPC_IFACE, struct ipc_iface, mac[0], 1, 0x03, "mac is zero or "
	    "multicast"),
	FB(IPC_IFACE, struct ipc_iface, mac, 6, "\0\0\0\0\0\0", "mac is zero"),
	FB(IPC_IFACE, struct ipc_iface, name, 16, "abcdefghijklmnop",
	    "not NUL-terminated"),
	FB(IPC_IFACE, struct ipc_iface, name, 3, "a\tb", "non-printable"),
	FB(IPC_IFACE, struct ipc_iface, name, 6, "\0\0\0\0\0\0",
	    "is not an interface name"),
	FB(IPC_IFACE, struct ipc_iface, name, 3, "a/b",
	    "is not an interface name"),
	FB(IPC_IFACE, struct ipc_iface, name, 6, "..\0\0\0\0",
	    "is not an interface name"),
	FB(IPC_IFACE, struct ipc_iface, name, 6, "a:b\0\0\0",
	    "is not an interface name"),
	FB(IPC_IFACE, struct ipc_iface, name, 6, "a b\0\0\0",
	    "is not an interface name"),
	FB(IPC_IFACE, struct ipc_iface, name, 8, "mesh0\0x\0",
	    "non-zero bytes after its NUL"),
	F(IPC_IFACE, struct ipc_iface, state, 1, IPC_IFACE_REMOVED,
	    "removed interface not 0"),
	F(IPC_IFACE, struct ipc_iface, reserved[2], 1, 1, "reserved"),
	F(IPC_IFACE, struct ipc_iface, half_duplex, 1, 2,
	    "half_duplex 2 is not 0 or 1"),
	/* FRAME */
	F(IPC_FRAME, struct ipc_frame, ifindex, 4, 0, "ifindex 0"),
	F(IPC_FRAME, struct ipc_frame, src[0], 1, 0x01, "src is zero or "
	    "multicast"),
	F(IPC_FRAME, struct ipc_frame, len, 2, 0, "len 0 out of range"),
	F(IPC_FRAME, struct ipc_frame, len, 2, IPC_FRAME_MAX + 1,
	    "len 4097 out of range"),
	F(IPC_FRAME, struct ipc_frame, reserved, 2, 1, "reserved"),
	/* LINK_KEY */
	F(IPC_LINK_KEY, struct ipc_link_key, status, 1, 2, "status 2"),
	F(IPC_LINK_KEY, struct ipc_link_key, status, 1, IPC_LINK_KEY_REFUSED,
	    "refused key not all 0"),
	F(IPC_LINK_KEY, struct ipc_link_key, ifindex, 4, 0, "ifindex 0"),
	F(IPC_LINK_KEY, struct ipc_link_key, reserved[2], 1, 1, "reserved"),
	/* LOG */
	F(IPC_LOG, struct ipc_log, level, 1, 0, "level 0 out of range 3..7"),
	F(IPC_LOG, struct ipc_log, level, 1, 2, "level 2"),
	F(IPC_LOG, struct ipc_log, level, 1, 8, "level 8"),
	F(IPC_LOG, struct ipc_log, reserved[0], 1, 1, "reserved"),
	F(IPC_LOG, struct ipc_log, text[3], 1, '\n', "non-printable"),
	F(IPC_LOG, struct ipc_log, text[3], 1, 0x80, "non-printable"),
	F(IPC_LOG, struct ipc_log, text[3], 1, 0x7f, "non-printable"),
	F(IPC_LOG, struct ipc_log, text[200], 1, 'x',
	    "non-zero bytes after its NUL"),
	{ IPC_LOG, offsetof(struct ipc_log, text), 256, 0,
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  0, "not NUL-terminated", 0 },
	/* ROUTE_ADD */
	FX(IPC_ROUTE_ADD, struct ipc_route, orig_addr[2], 0xff,
	    "orig_addr is not the mesh address"),
	FX(IPC_ROUTE_ADD, struct ipc_route, orig_pk[7], 0x80,
	    "orig_addr is not the mesh address"),
	F(IPC_ROUTE_ADD, struct ipc_route, nexthop[0], 1, 0x03,
	    "nexthop is not a mesh address"),
	F(IPC_ROUTE_ADD, struct ipc_route, nexthop[0], 1, 0x00,
	    "nexthop is not a mesh address"),
	F(IPC_ROUTE_ADD, struct ipc_route, ifindex, 4, 0, "ifindex 0"),
	F(IPC_ROUTE_ADD, struct ipc_route, tq, 1, 0, "tq 0 out of range"),
	F(IPC_ROUTE_ADD, struct ipc_route, hops, 1, 0, "hops 0 out of range"),
	F(IPC_ROUTE_ADD, struct ipc_route, hops, 1, IPC_ROUTE_MAX_HOPS + 1,
	    "hops 34 out of range 1..33"),
	F(IPC_ROUTE_ADD, struct ipc_route, reserved[0], 1, 1, "reserved"),
	F(IPC_ROUTE_ADD, struct ipc_route, epoch, 4, 0, "epoch 0 out of range"),
	/* ROUTE_DEL */
	F(IPC_ROUTE_DEL, struct ipc_route_del, orig_addr[0], 1, 0x01,
	    "not a mesh address"),
	F(IPC_ROUTE_DEL, struct ipc_route_del, reserved[1], 1, 1, "reserved"),
	/* DESC_WANT */
	F(IPC_DESC_WANT, struct ipc_desc_want, orig_addr[0], 1, 0x01,
	    "not a mesh address"),
	F(IPC_DESC_WANT, struct ipc_desc_want, orig_addr[0], 1, 0x00,
	    "not a mesh address"),
	F(IPC_DESC_WANT, struct ipc_desc_want, reserved[0], 1, 1, "reserved"),
	/* HELLO_SIGN */
	F(IPC_HELLO_SIGN, struct ipc_hello_sign, ifindex, 4, 0, "ifindex 0"),
	F(IPC_HELLO_SIGN, struct ipc_hello_sign, reserved, 4, 1, "reserved"),
	/* NEIGH */
	FX(IPC_NEIGH, struct ipc_neigh, addr[4], 0x01,
	    "addr is not the mesh address"),
	FX(IPC_NEIGH, struct ipc_neigh, pk[0], 0x40,
	    "addr is not the mesh address"),
	FB(IPC_NEIGH, struct ipc_neigh, mac, 6, "\0\0\0\0\0\0",
	    "mac is zero or multicast"),
	F(IPC_NEIGH, struct ipc_neigh, mac[0], 1, 0xff,
	    "mac is zero or multicast"),
	F(IPC_NEIGH, struct ipc_neigh, ifindex, 4, 0, "ifindex 0"),
	F(IPC_NEIGH, struct ipc_neigh, state, 1, 2, "state 2"),
	F(IPC_NEIGH, struct ipc_neigh, rx_count, 1, 65, "rx_count 65"),
	F(IPC_NEIGH, struct ipc_neigh, state, 1, IPC_NEIGH_DOWN,
	    "down neighbour not 0"),
	F(IPC_NEIGH, struct ipc_neigh, flags, 1, 0x20, "flags 0x20 not allowed"),
	F(IPC_NEIGH, struct ipc_neigh, epoch, 4, 0, "epoch of an up"),
	/* LINK_KEY_REQ */
	F(IPC_LINK_KEY_REQ, struct ipc_link_key_req, ifindex, 4, 0,
	    "ifindex 0"),
	/* ROUTE_ALT */
	F(IPC_ROUTE_ALT, struct ipc_route_alt, orig_addr[0], 1, 0x00,
	    "orig_addr is not a mesh address"),
	F(IPC_ROUTE_ALT, struct ipc_route_alt, count, 1, IPC_ROUTE_ALT_MAX + 1,
	    "count 8 out of range 0..7"),
	F(IPC_ROUTE_ALT, struct ipc_route_alt, reserved, 1, 1, "reserved"),
	F(IPC_ROUTE_ALT, struct ipc_route_alt, c[0].nexthop[0], 1, 0x03,
	    "candidate 0: nexthop is not a mesh address"),
	F(IPC_ROUTE_ALT, struct ipc_route_alt, c[0].ifindex, 4, 0,
	    "candidate 0: ifindex 0 invalid"),
	F(IPC_ROUTE_ALT, struct ipc_route_alt, c[0].hops, 1, 0,
	    "candidate 0: hops 0 out of range 1..33"),
	F(IPC_ROUTE_ALT, struct ipc_route_alt, c[0].hops, 1, 34,
	    "candidate 0: hops 34 out of range 1..33"),
	/* TT */
	F(IPC_TT, struct ipc_tt, orig_addr[0], 1, 0x00, "not a mesh address"),
	F(IPC_TT, struct ipc_tt, count, 1, IPC_TT_MAX + 1,
	    "count 65 out of range 0..64"),
	F(IPC_TT, struct ipc_tt, e[1].mac[0], 1, 0x01, "entry 1: mac"),
	FB(IPC_TT, struct ipc_tt, e[2].mac, 6, "\0\0\0\0\0\0", "entry 2: mac"),
	F(IPC_TT, struct ipc_tt, e[0].vid, 2, 0x0005, "entry 0: vid 0x0005"),
	F(IPC_TT, struct ipc_tt, e[0].vid, 2, 0x8000, "entry 0: vid 0x8000"),
	F(IPC_TT, struct ipc_tt, e[0].vid, 2, 0x8fff, "entry 0: vid 0x8fff"),
	F(IPC_TT, struct ipc_tt, e[0].vid, 2, 0x900a, "entry 0: vid 0x900a"),
	F(IPC_TT, struct ipc_tt, e[2].mac[5], 1, 0x40, "entry 2 repeats "
	    "entry 0"),
	F(IPC_TT, struct ipc_tt, reserved[2], 1, 1, "reserved"),
	F(IPC_TT, struct ipc_tt, page, 1, 1, "page 1 of 0 invalid"),
	F(IPC_TT, struct ipc_tt, pages, 1, 3, "page 0 of 3 invalid"),
	F(IPC_TT, struct ipc_tt, pages, 1, 1, "page 0 of 1 invalid"),
	F(IPC_TT, struct ipc_tt, pages, 1, 128, "page 0 of 128 invalid"),
	F(IPC_TT, struct ipc_tt, pages, 1, 64, "not in page 0 of 64"),
	F(IPC_TT, struct ipc_tt, e[1].flags, 1, 0x02, "entry 1: flags 0x02"),
	F(IPC_TT, struct ipc_tt, e[2].flags, 1, 0x81, "entry 2: flags 0x81"),
	F(IPC_TT, struct ipc_tt, e[0].reserved, 1, 1, "entry 0: flags 0x00 "
	    "or reserved"),
	/* MCAST */
	F(IPC_MCAST, struct ipc_mcast, orig_addr[0], 1, 0x00,
	    "not a mesh address"),
	F(IPC_MCAST, struct ipc_mcast, count, 1, IPC_MCAST_MAX + 1,
	    "count 33 out of range 0..32"),
	F(IPC_MCAST, struct ipc_mcast, known, 1, 2, "known 2"),
	F(IPC_MCAST, struct ipc_mcast, flags, 1, 0x04, "flags 0x04"),
	F(IPC_MCAST, struct ipc_mcast, reserved[1], 1, 1, "reserved"),
	F(IPC_MCAST, struct ipc_mcast, group[1][0], 1, 0x02, "group 1: not"),
	F(IPC_MCAST, struct ipc_mcast, group[1][5], 1, 0x03, "group 1 repeats "
	    "group 0"),
	/* GW */
	F(IPC_GW, struct ipc_gw, orig_addr[0], 1, 0x00, "not a mesh address"),
	F(IPC_GW, struct ipc_gw, op, 1, 2, "op 2"),
	F(IPC_GW, struct ipc_gw, down, 4, 0, "bandwidth is 0"),
	F(IPC_GW, struct ipc_gw, up, 4, 0, "bandwidth is 0"),
	F(IPC_GW, struct ipc_gw, op, 1, IPC_GW_WITHDRAW, "withdrawal carries"),
	F(IPC_GW, struct ipc_gw, reserved, 1, 1, "reserved"),
	/* RELAY */
	F(IPC_RELAY, struct ipc_relay, ifindex, 4, 0x80000000u, "ifindex"),
	F(IPC_RELAY, struct ipc_relay, len, 2, 31, "len 31 out of range "
	    "32..1170"),
	F(IPC_RELAY, struct ipc_relay, len, 2, 1171, "len 1171"),
	F(IPC_RELAY, struct ipc_relay, len, 2, 160, "has tvlv_len 12"),
	F(IPC_RELAY, struct ipc_relay, entry[E_TVLV_LEN + 1], 1, 13,
	    "tvlv_len 13"),
	F(IPC_RELAY, struct ipc_relay, entry[0], 1, 0, "ttl is 0"),
	F(IPC_RELAY, struct ipc_relay, entry[2], 1, 0, "hops 0 out of range"),
	F(IPC_RELAY, struct ipc_relay, entry[2], 1, 33, "hops 33"),
	F(IPC_RELAY, struct ipc_relay, entry[4], 1, 0x01, "previous sender"),
	F(IPC_RELAY, struct ipc_relay, entry[E_INTERVAL], 1, 0xff,
	    "interval 65512"),
	FB(IPC_RELAY, struct ipc_relay, entry[E_INTERVAL], 2, "\x00\x63",
	    "interval 99"),
	F(IPC_RELAY, struct ipc_relay, entry[3], 1, 2, "unknown kind"),
	F(IPC_RELAY, struct ipc_relay, entry[3], 1, 1, "compact entry of 158 "
	    "bytes"),
	F(IPC_RELAY, struct ipc_relay, entry[E_FLAGS], 1, 1,
	    "reserved or flag"),
	F(IPC_RELAY, struct ipc_relay, entry[E_RESERVED + 1], 1, 1,
	    "reserved or flag"),
	F(IPC_RELAY, struct ipc_relay, reserved, 2, 1, "reserved"),
	/* STATS */
	F(IPC_STATS, struct ipc_stats, count, 2, 0, "count 0 out of range"),
	F(IPC_STATS, struct ipc_stats, count, 2, IPC_STATS_MAX + 1,
	    "count 97"),
	F(IPC_STATS, struct ipc_stats, s[1].id, 4, 0, "counter id 0 unknown"),
	F(IPC_STATS, struct ipc_stats, s[1].id, 4, IPC_STAT_ID_END,
	    "unknown"),
	F(IPC_STATS, struct ipc_stats, s[2].id, 4, IPC_STAT_RX_FRAMES,
	    "entry 2 repeats counter id 1"),
	F(IPC_STATS, struct ipc_stats, s[0].reserved, 4, 1, "entry 0: "
	    "reserved"),
	F(IPC_STATS, struct ipc_stats, reserved2, 4, 1, "reserved"),
	/* PINS and PIN */
	F(IPC_PINS, struct ipc_pins, count, 2, 0, "count 0 out of range"),
	F(IPC_PINS, struct ipc_pins, count, 2, IPC_PINS_MAX + 1,
	    "out of range"),
	F(IPC_PINS, struct ipc_pins, reserved[5], 1, 1, "reserved"),
	FB(IPC_PINS, struct ipc_pins, pk[1], BS_PK_LEN, zero32,
	    "key 1 is all zero"),
	FB(IPC_PINS, struct ipc_pins, pk[2], BS_PK_LEN, (const char *)id_n1.pk,
	    "key 2 repeats key 0"),
	FB(IPC_PIN, struct ipc_pin, pk, BS_PK_LEN, zero32, "pk is all zero"),
	/* HEARTBEAT, HEARTBEAT_ACK and CERT */
	F(IPC_HEARTBEAT, struct ipc_heartbeat, seq, 4, 0, "seq is 0"),
	F(IPC_HEARTBEAT, struct ipc_heartbeat, reserved, 4, 1, "reserved"),
	F(IPC_HEARTBEAT_ACK, struct ipc_heartbeat, seq, 4, 0, "seq is 0"),
	F(IPC_HEARTBEAT_ACK, struct ipc_heartbeat, reserved, 4, 9,
	    "reserved"),
	FX(IPC_CERT, struct ipc_cert, cert[0], 0x03, "certificate: "),
	FX(IPC_CERT, struct ipc_cert, cert[3], 0x01, "certificate: "),
	/* Counts that disagree with the payload size. */
	{ IPC_TT, offsetof(struct ipc_tt, count), 1, 3, NULL, -10,
	  "payload of 32 bytes, expected 42", 0 },
	{ IPC_TT, offsetof(struct ipc_tt, count), 1, 2, NULL, 10,
	  "payload of 42 bytes, expected 32", 0 },
	{ IPC_STATS, offsetof(struct ipc_stats, count), 2, 3, NULL, -16,
	  "expected", 0 },
	{ IPC_PINS, offsetof(struct ipc_pins, count), 2, 3, NULL, 32,
	  "payload of 136 bytes, expected 104", 0 },
	{ IPC_FRAME, offsetof(struct ipc_frame, len), 2, 60, NULL, 1,
	  "payload of 81 bytes, expected 80", 0 },
	{ IPC_RELAY, offsetof(struct ipc_relay, len), 2, 168, NULL, -1,
	  "expected 176", 0 },
	{ IPC_POLICY_CHUNK, offsetof(struct ipc_policy_chunk, len), 2, 10,
	  NULL, 4, "expected 22", 0 },
};

#undef F
#undef FB
#undef FX

static void
fmt_patch(const struct fmt_case *c, union ipc_payload *u)
{
	uint8_t *p = (uint8_t *)u + c->off;
	uint16_t v16 = (uint16_t)c->value;

	if (c->flip)
		*p ^= (uint8_t)c->value;
	else if (c->bytes != NULL)
		memcpy(p, c->bytes, c->width);
	else if (c->width == 1)
		*p = (uint8_t)c->value;
	else if (c->width == 2)
		memcpy(p, &v16, 2);
	else
		memcpy(p, &c->value, 4);
}

START_TEST(format_refused)
{
	const struct fmt_case *c = &fmt_cases[_i];
	uint8_t buf[IPC_MAX_MSG + 64], out[IPC_MAX_MSG];
	struct ipc fwd, par, *rx, *tx;
	union ipc_payload u;
	struct ipc_msg m;
	char err[256] = "";
	size_t n;

	sample(c->type, &u);
	fmt_patch(c, &u);
	n = raw_msg(buf, c->type, &u, c->delta);
	/* The pure check. */
	ck_assert_int_eq(ipc_msg_parse(&m, buf, n, receiver_of(c->type), err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, c->want) != NULL, "case %d (%s): '%s' lacks "
	    "'%s'", _i, ipc_type_name(c->type), err, c->want);
	/* The same refusal through a real socket. */
	pair(&fwd, &par, 0);
	rx = receiver_of(c->type) == IPC_ROLE_FORWARDER ? &fwd : &par;
	tx = rx == &fwd ? &par : &fwd;
	ck_assert_int_eq(send(tx->fd, buf, n, 0), (ssize_t)n);
	err[0] = '\0';
	ck_assert_int_eq(ipc_recv(rx, &m, err, sizeof(err)), IPC_RECV_BAD);
	ck_assert_msg(strstr(err, c->want) != NULL, "case %d: '%s'", _i, err);
	/* And the sender refuses to produce it. */
	if (c->delta == 0) {
		ck_assert_int_eq(ipc_encode(out, sizeof(out), c->type, &u,
		    ipc_obj_size(c->type), &n, err, sizeof(err)), -1);
		errno = 0;
		ck_assert_int_eq(ipc_send(tx, c->type, &u,
		    ipc_obj_size(c->type)), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_msg(strstr(ipc_error(tx), c->want) != NULL, "%s",
		    ipc_error(tx));
	}
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

/* Edge values that must pass, so the range checks are not too strict. */
START_TEST(format_edges_accepted)
{
	uint8_t buf[IPC_MAX_MSG];
	char err[256];
	union ipc_payload u;
	struct ipc_msg m;
	size_t i, n;

	sample(IPC_ROUTE_ADD, &u);
	u.route.tq = 255;
	u.route.hops = IPC_ROUTE_MAX_HOPS;
	msg_of(&m, IPC_ROUTE_ADD, &u);
	u.route.tq = 1;
	u.route.hops = 1;
	msg_of(&m, IPC_ROUTE_ADD, &u);
	sample(IPC_ROUTE_ALT, &u);
	u.route_alt.count = IPC_ROUTE_ALT_MAX;
	for (i = 0; i < IPC_ROUTE_ALT_MAX; i++) {
		u.route_alt.c[i] = u.route_alt.c[0];
		u.route_alt.c[i].ifindex = (uint32_t)(i + 1);
		u.route_alt.c[i].tq = (uint8_t)(i * 40);
		u.route_alt.c[i].hops = i % 2 ? IPC_ROUTE_MAX_HOPS : 1;
	}
	msg_of(&m, IPC_ROUTE_ALT, &u);
	/* The same neighbour on the same interface twice. */
	u.route_alt.c[6].ifindex = 3;
	ck_assert_int_ne(ipc_encode(buf, sizeof(buf), IPC_ROUTE_ALT, &u,
	    sizeof(u.route_alt), &n, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "candidate 6 repeats candidate 2"));
	u.route_alt.count = 0;
	msg_of(&m, IPC_ROUTE_ALT, &u);
	sample(IPC_TT, &u);
	u.tt.count = 0;
	msg_of(&m, IPC_TT, &u);
	u.tt.count = IPC_TT_MAX;
	for (i = 0; i < IPC_TT_MAX; i++) {
		mac(u.tt.e[i].mac, (uint8_t)i);
		u.tt.e[i].vid = i % 2 ? 0x8000 | 4094 : 0;
	}
	msg_of(&m, IPC_TT, &u);
	sample(IPC_LOG, &u);
	memset(u.log.text, 0, sizeof(u.log.text));
	msg_of(&m, IPC_LOG, &u);		/* empty text is allowed */
	memset(u.log.text, '~', sizeof(u.log.text) - 1);
	msg_of(&m, IPC_LOG, &u);
	sample(IPC_FRAME, &u);
	u.frame.len = IPC_FRAME_MAX;
	msg_of(&m, IPC_FRAME, &u);
	u.frame.len = 1;
	msg_of(&m, IPC_FRAME, &u);
	sample(IPC_IFACE, &u);
	u.iface.hop_penalty = 255;
	u.iface.half_duplex = 1;
	msg_of(&m, IPC_IFACE, &u);
	u.iface.state = IPC_IFACE_REMOVED;
	u.iface.mtu = 0;
	memset(u.iface.mac, 0, 6);
	ck_assert_int_ne(ipc_encode(buf, sizeof(buf), IPC_IFACE, &u,
	    sizeof(u.iface), &n, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "removed interface not 0"));
	u.iface.hop_penalty = 0;
	ck_assert_int_ne(ipc_encode(buf, sizeof(buf), IPC_IFACE, &u,
	    sizeof(u.iface), &n, err, sizeof(err)), 0);
	u.iface.half_duplex = 0;
	msg_of(&m, IPC_IFACE, &u);
	memset(u.iface.name, 'x', IFNAMSIZ - 1);
	msg_of(&m, IPC_IFACE, &u);
	sample(IPC_LINK_KEY, &u);
	u.link_key.status = IPC_LINK_KEY_REFUSED;
	memset(u.link_key.key, 0, 32);
	memset(u.link_key.key_id, 0, 4);
	msg_of(&m, IPC_LINK_KEY, &u);
	sample(IPC_GW, &u);
	u.gw.op = IPC_GW_WITHDRAW;
	u.gw.down = u.gw.up = 0;
	msg_of(&m, IPC_GW, &u);
	sample(IPC_NEIGH, &u);
	u.neigh.state = IPC_NEIGH_DOWN;
	u.neigh.tq = u.neigh.rx_count = 0;
	msg_of(&m, IPC_NEIGH, &u);
	sample(IPC_POLICY_BEGIN, &u);
	u.policy_mark.total = IPC_POLICY_MAX;
	msg_of(&m, IPC_POLICY_BEGIN, &u);
	/* Every counter id once is fine; IPC_STATS_MAX entries repeat one. */
	sample(IPC_STATS, &u);
	u.stats.count = IPC_STATS_MAX;
	for (i = 0; i < IPC_STATS_MAX; i++)
		u.stats.s[i].id = (uint32_t)(i % (IPC_STAT_ID_END - 1) + 1);
	ck_assert_int_eq(ipc_encode(&m, sizeof(m), IPC_STATS, &u,
	    sizeof(u.stats), &i, NULL, 0), -1);
	u.stats.count = IPC_STAT_ID_END - 1;
	msg_of(&m, IPC_STATS, &u);
}
END_TEST

/* ---- state checks (layer 3) ------------------------------------------------------- */

enum sem_setup { S_NONE, S_FULL, S_KEY_CLASH };

struct sem_case {
	const char *name;
	uint16_t type;
	void (*edit)(union ipc_payload *u);
	enum sem_setup setup;
	int want_rc;
	const char *want;
};

static void
e_none(union ipc_payload *u) { (void)u; }
static void
e_route_if_none(union ipc_payload *u) { u->route.ifindex = IF_NONE; }
static void
e_route_if_gone(union ipc_payload *u) { u->route.ifindex = IF_GONE; }
static void
e_route_if_b(union ipc_payload *u) { u->route.ifindex = IF_B; }
static void
e_route_via_n2(union ipc_payload *u)
{
	memcpy(u->route.nexthop, addr_n2, 6);
}
static void
e_route_own(union ipc_payload *u)
{
	memcpy(u->route.orig_pk, id_own.pk, 32);
	memcpy(u->route.orig_addr, addr_own, 6);
}
static void
e_route_to_n1(union ipc_payload *u)
{
	memcpy(u->route.orig_pk, id_n1.pk, 32);
	memcpy(u->route.orig_addr, addr_n1, 6);
	u->route.hops = 1;
}
static void
e_neigh_n2(union ipc_payload *u)
{
	memcpy(u->neigh.pk, id_n2.pk, 32);
	memcpy(u->neigh.addr, addr_n2, 6);
}
static void
e_neigh_n2_down(union ipc_payload *u)
{
	e_neigh_n2(u);
	u->neigh.state = IPC_NEIGH_DOWN;
	u->neigh.tq = u->neigh.rx_count = 0;
}
static void
e_neigh_down(union ipc_payload *u)
{
	u->neigh.state = IPC_NEIGH_DOWN;
	u->neigh.tq = u->neigh.rx_count = 0;
}
static void
e_neigh_down_b(union ipc_payload *u)
{
	e_neigh_down(u);
	u->neigh.ifindex = IF_B;
}
static void
e_neigh_own(union ipc_payload *u)
{
	memcpy(u->neigh.pk, id_own.pk, 32);
	memcpy(u->neigh.addr, addr_own, 6);
}
static void
e_neigh_if_none(union ipc_payload *u) { u->neigh.ifindex = IF_NONE; }
static void
e_neigh_if_gone(union ipc_payload *u) { u->neigh.ifindex = IF_GONE; }
static void
e_neigh_update(union ipc_payload *u)
{
	u->neigh.tq = 12;
	u->neigh.mac[5] = 0x99;
}
static void
e_lkr_n2(union ipc_payload *u)
{
	memcpy(u->link_key_req.peer_pk, id_n2.pk, 32);
}
static void
e_lkr_if_b(union ipc_payload *u) { u->link_key_req.ifindex = IF_B; }
static void
e_lkr_if_none(union ipc_payload *u)
{
	u->link_key_req.ifindex = IF_NONE;
}
static void
e_lkr_if_gone(union ipc_payload *u)
{
	u->link_key_req.ifindex = IF_GONE;
}
static void
e_tt_own(union ipc_payload *u) { memcpy(u->tt.orig_addr, addr_own, 6); }
static void
e_gw_own(union ipc_payload *u) { memcpy(u->gw.orig_addr, addr_own, 6); }
static void
e_want_own(union ipc_payload *u)
{
	memcpy(u->desc_want.orig_addr, addr_own, 6);
}
static void
e_sign_if_b(union ipc_payload *u) { u->hello_sign.ifindex = IF_B; }
static void
e_sign_if_none(union ipc_payload *u) { u->hello_sign.ifindex = IF_NONE; }
static void
e_sign_if_gone(union ipc_payload *u) { u->hello_sign.ifindex = IF_GONE; }
static void
e_del_own(union ipc_payload *u)
{
	memcpy(u->route_del.orig_addr, addr_own, 6);
}
static void
e_relay_own(union ipc_payload *u)
{
	ogm_entry(u->relay.entry, id_own.pk, 1);
}
static void
e_relay_if_b(union ipc_payload *u) { u->relay.ifindex = IF_B; }
static void
e_relay_if_none(union ipc_payload *u) { u->relay.ifindex = IF_NONE; }
static void
e_relay_if_gone(union ipc_payload *u) { u->relay.ifindex = IF_GONE; }
static void
e_alt_none(union ipc_payload *u) { u->route_alt.count = 0; }
static void
e_alt_own(union ipc_payload *u)
{
	memcpy(u->route_alt.orig_addr, addr_own, 6);
}
/* A second candidate, n2, which is not up. */
static void
e_alt_n2(union ipc_payload *u)
{
	u->route_alt.c[1] = u->route_alt.c[0];
	memcpy(u->route_alt.c[1].nexthop, addr_n2, 6);
	u->route_alt.count = 2;
}
static void
e_alt_if_b(union ipc_payload *u) { u->route_alt.c[0].ifindex = IF_B; }
static void
e_alt_if_none(union ipc_payload *u) { u->route_alt.c[0].ifindex = IF_NONE; }
static void
e_alt_if_gone(union ipc_payload *u) { u->route_alt.c[0].ifindex = IF_GONE; }

static const struct sem_case sem_cases[] = {
	{ "route ok", IPC_ROUTE_ADD, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "route to a neighbour itself", IPC_ROUTE_ADD, e_route_to_n1, S_NONE,
	  IPC_CHECK_OK, NULL },
	{ "route via unknown iface", IPC_ROUTE_ADD, e_route_if_none, S_NONE,
	  IPC_CHECK_BAD, "ifindex 9 is not a mesh interface" },
	{ "route via removed iface", IPC_ROUTE_ADD, e_route_if_gone, S_NONE,
	  IPC_CHECK_STALE, NULL },
	{ "route via neighbour on another iface", IPC_ROUTE_ADD,
	  e_route_if_b, S_NONE, IPC_CHECK_BAD, "next hop is not an up "
	  "neighbour on ifindex 3" },
	{ "route via neighbour not up", IPC_ROUTE_ADD, e_route_via_n2, S_NONE,
	  IPC_CHECK_BAD, "next hop is not an up neighbour" },
	{ "route to our own address", IPC_ROUTE_ADD, e_route_own, S_NONE,
	  IPC_CHECK_BAD, "ROUTE_ADD: names our own address" },
	{ "route delete ok", IPC_ROUTE_DEL, e_none, S_NONE, IPC_CHECK_OK,
	  NULL },
	{ "route delete of ourselves", IPC_ROUTE_DEL, e_del_own, S_NONE,
	  IPC_CHECK_BAD, "own address" },
	{ "neigh update", IPC_NEIGH, e_neigh_update, S_NONE, IPC_CHECK_OK,
	  NULL },
	{ "neigh new", IPC_NEIGH, e_neigh_n2, S_NONE, IPC_CHECK_OK, NULL },
	{ "neigh down", IPC_NEIGH, e_neigh_down, S_NONE, IPC_CHECK_OK, NULL },
	{ "neigh down not up", IPC_NEIGH, e_neigh_n2_down, S_NONE,
	  IPC_CHECK_STALE, NULL },
	{ "neigh down on other iface", IPC_NEIGH, e_neigh_down_b, S_NONE,
	  IPC_CHECK_STALE, NULL },
	{ "neigh is us", IPC_NEIGH, e_neigh_own, S_NONE, IPC_CHECK_BAD,
	  "NEIGH: names our own address" },
	{ "neigh on unknown iface", IPC_NEIGH, e_neigh_if_none, S_NONE,
	  IPC_CHECK_BAD, "ifindex 9 is not a mesh interface" },
	{ "neigh on removed iface", IPC_NEIGH, e_neigh_if_gone, S_NONE,
	  IPC_CHECK_STALE, NULL },
	{ "neigh table full", IPC_NEIGH, e_neigh_n2, S_FULL, IPC_CHECK_BAD,
	  "more than 256 neighbours" },
	{ "neigh update when full", IPC_NEIGH, e_neigh_update, S_FULL,
	  IPC_CHECK_OK, NULL },
	{ "neigh address claimed by another key", IPC_NEIGH, e_none,
	  S_KEY_CLASH, IPC_CHECK_BAD, "claimed by another key" },
	{ "link key req ok", IPC_LINK_KEY_REQ, e_none, S_NONE, IPC_CHECK_OK,
	  NULL },
	{ "link key req not up", IPC_LINK_KEY_REQ, e_lkr_n2, S_NONE,
	  IPC_CHECK_BAD, "peer is not an up neighbour on ifindex 2" },
	{ "link key req other iface", IPC_LINK_KEY_REQ, e_lkr_if_b, S_NONE,
	  IPC_CHECK_BAD, "peer is not an up neighbour on ifindex 3" },
	{ "link key req unknown iface", IPC_LINK_KEY_REQ, e_lkr_if_none,
	  S_NONE, IPC_CHECK_BAD, "not a mesh interface" },
	{ "link key req removed iface", IPC_LINK_KEY_REQ, e_lkr_if_gone,
	  S_NONE, IPC_CHECK_STALE, NULL },
	{ "tt ok", IPC_TT, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "tt of ourselves", IPC_TT, e_tt_own, S_NONE, IPC_CHECK_BAD,
	  "TT: names our own address" },
	{ "desc want ok", IPC_DESC_WANT, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "desc want of ourselves", IPC_DESC_WANT, e_want_own, S_NONE,
	  IPC_CHECK_BAD, "DESC_WANT: names our own address" },
	{ "hello sign ok", IPC_HELLO_SIGN, e_none, S_NONE, IPC_CHECK_OK,
	  NULL },
	{ "hello sign on another iface", IPC_HELLO_SIGN, e_sign_if_b, S_NONE,
	  IPC_CHECK_OK, NULL },
	{ "hello sign on unknown iface", IPC_HELLO_SIGN, e_sign_if_none,
	  S_NONE, IPC_CHECK_BAD, "HELLO_SIGN: ifindex 9 is not a mesh "
	  "interface" },
	{ "hello sign on removed iface", IPC_HELLO_SIGN, e_sign_if_gone,
	  S_NONE, IPC_CHECK_STALE, NULL },
	{ "gw ok", IPC_GW, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "gw of ourselves", IPC_GW, e_gw_own, S_NONE, IPC_CHECK_BAD,
	  "GW: names our own address" },
	{ "relay to all", IPC_RELAY, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "relay on one iface", IPC_RELAY, e_relay_if_b, S_NONE, IPC_CHECK_OK,
	  NULL },
	{ "relay on unknown iface", IPC_RELAY, e_relay_if_none, S_NONE,
	  IPC_CHECK_BAD, "not a mesh interface" },
	{ "relay on removed iface", IPC_RELAY, e_relay_if_gone, S_NONE,
	  IPC_CHECK_STALE, NULL },
	{ "relay of our own OGM", IPC_RELAY, e_relay_own, S_NONE,
	  IPC_CHECK_BAD, "RELAY: names our own address" },
	{ "log", IPC_LOG, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "stats", IPC_STATS, e_none, S_NONE, IPC_CHECK_OK, NULL },
	{ "route alternatives", IPC_ROUTE_ALT, e_none, S_NONE, IPC_CHECK_OK,
	  NULL },
	{ "route alternatives cleared", IPC_ROUTE_ALT, e_alt_none, S_NONE,
	  IPC_CHECK_OK, NULL },
	{ "route alternatives of ourselves", IPC_ROUTE_ALT, e_alt_own, S_NONE,
	  IPC_CHECK_BAD, "ROUTE_ALT: names our own address" },
	{ "route alternative not up", IPC_ROUTE_ALT, e_alt_n2, S_NONE,
	  IPC_CHECK_BAD, "candidate 1 is not an up neighbour on ifindex 2" },
	{ "route alternative on another iface", IPC_ROUTE_ALT, e_alt_if_b,
	  S_NONE, IPC_CHECK_BAD, "candidate 0 is not an up neighbour on "
	  "ifindex 3" },
	{ "route alternative on unknown iface", IPC_ROUTE_ALT, e_alt_if_none,
	  S_NONE, IPC_CHECK_BAD, "ifindex 9 is not a mesh interface" },
	{ "route alternative on removed iface", IPC_ROUTE_ALT, e_alt_if_gone,
	  S_NONE, IPC_CHECK_STALE, NULL },
};

/* n1 stays in slot 0; fill the rest with made-up neighbours on IF_B. */
static void
ctx_fill(struct ipc_ctx *ctx)
{
	size_t i;

	for (i = 0; i < IPC_MAX_NEIGH; i++) {
		if (ctx->neigh[i].ifindex != 0)
			continue;
		memset(ctx->neigh[i].pk, (int)i, 32);
		ctx->neigh[i].addr[0] = 0x02;
		ctx->neigh[i].addr[5] = (uint8_t)i;
		ctx->neigh[i].ifindex = IF_B;
		ctx->n_neigh++;
	}
}

START_TEST(state_checks)
{
	const struct sem_case *c = &sem_cases[_i];
	struct ipc_ctx ctx;
	union ipc_payload u;
	struct ipc_msg m;
	char err[256] = "";
	int rc;

	ctx_with_neigh(&ctx);
	if (c->setup == S_FULL)
		ctx_fill(&ctx);
	if (c->setup == S_KEY_CLASH)
		memcpy(ctx.neigh[0].pk, id_n2.pk, 32);
	sample(c->type, &u);
	c->edit(&u);
	msg_of(&m, c->type, &u);
	rc = ipc_check(&ctx, &m, err, sizeof(err));
	ck_assert_msg(rc == c->want_rc, "%s: rc %d, want %d (%s)", c->name, rc,
	    c->want_rc, err);
	if (c->want != NULL)
		ck_assert_msg(strstr(err, c->want) != NULL, "%s: '%s' lacks "
		    "'%s'", c->name, err, c->want);
}
END_TEST

START_TEST(check_includes_format)
{
	struct ipc_ctx ctx;
	union ipc_payload u;
	struct ipc_msg m;
	char err[256] = "";

	ctx_with_neigh(&ctx);
	sample(IPC_ROUTE_ADD, &u);
	msg_of(&m, IPC_ROUTE_ADD, &u);
	m.data[offsetof(struct ipc_route, tq)] = 0;
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)), IPC_CHECK_BAD);
	ck_assert_msg(strstr(err, "tq 0") != NULL, "%s", err);
	m.hdr.len = 9999;
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)), IPC_CHECK_BAD);
	ck_assert_msg(strstr(err, "exceeds the maximum") != NULL, "%s", err);
	/* A forwarder -> parser type is never valid from the parser. */
	sample(IPC_CONFIG, &u);
	msg_of(&m, IPC_CONFIG, &u);
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)), IPC_CHECK_BAD);
	ck_assert_msg(strstr(err, "direction") != NULL, "%s", err);
}
END_TEST

START_TEST(ctx_apply_and_ifaces)
{
	struct ipc_ctx ctx;
	union ipc_payload u;
	struct ipc_msg m;
	char err[256];
	uint32_t i;

	ctx_with_neigh(&ctx);
	ck_assert_uint_eq(ctx.n_neigh, 1);
	/* A second UP is an update, not a second entry. */
	sample(IPC_NEIGH, &u);
	e_neigh_update(&u);
	msg_of(&m, IPC_NEIGH, &u);
	ipc_ctx_apply(&ctx, &m);
	ck_assert_uint_eq(ctx.n_neigh, 1);
	/* The same key on another interface is another neighbour. */
	u.neigh.ifindex = IF_B;
	msg_of(&m, IPC_NEIGH, &u);
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)), IPC_CHECK_OK);
	ipc_ctx_apply(&ctx, &m);
	ck_assert_uint_eq(ctx.n_neigh, 2);
	/* DOWN removes it; routes through it are then refused. */
	e_neigh_down(&u);
	msg_of(&m, IPC_NEIGH, &u);
	ipc_ctx_apply(&ctx, &m);
	ck_assert_uint_eq(ctx.n_neigh, 1);
	ck_assert_ptr_null(ipc_ctx_neigh_find(&ctx, addr_n1, IF_B));
	/* Removing an interface forgets its neighbours; messages go stale. */
	ipc_ctx_iface_del(&ctx, IF_A);
	ck_assert_uint_eq(ctx.n_neigh, 0);
	sample(IPC_ROUTE_ADD, &u);
	msg_of(&m, IPC_ROUTE_ADD, &u);
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)),
	    IPC_CHECK_STALE);
	/* When it comes back, the stale neighbour is not up. */
	ck_assert_int_eq(ipc_ctx_iface_add(&ctx, IF_A), 0);
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)), IPC_CHECK_BAD);
	/* Capacity: 32 live interfaces; a removed slot is reused. */
	ipc_ctx_init(&ctx, addr_own);
	ck_assert_int_eq(ipc_ctx_iface_add(&ctx, 0), -1);
	for (i = 1; i <= IPC_CTX_MAX_IFACES; i++)
		ck_assert_int_eq(ipc_ctx_iface_add(&ctx, i), 0);
	ck_assert_int_eq(ipc_ctx_iface_add(&ctx, 100), -1);
	ck_assert_int_eq(ipc_ctx_iface_add(&ctx, 7), 0);	/* known */
	ipc_ctx_iface_del(&ctx, 7);
	ck_assert_int_eq(ipc_ctx_iface_add(&ctx, 100), 0);
	sample(IPC_RELAY, &u);
	u.relay.ifindex = 7;
	msg_of(&m, IPC_RELAY, &u);
	/* 7's slot went to 100, so 7 is now unknown, not stale. */
	ck_assert_int_eq(ipc_check(&ctx, &m, err, sizeof(err)), IPC_CHECK_BAD);
}
END_TEST

/* ---- queueing ------------------------------------------------------------------------ */

static void
log_n(union ipc_payload *u, unsigned n)
{
	memset(u, 0, sizeof(*u));
	u->log.level = IPC_LOG_DEBUG;
	snprintf(u->log.text, sizeof(u->log.text), "message %u", n);
}

/* recv every waiting LOG line; they must be "message first.." in order. */
static unsigned
recv_in_order(struct ipc *fwd, unsigned first)
{
	union ipc_payload u, exp;
	struct ipc_msg m;
	char err[256];
	unsigned got = 0;
	int r;

	while ((r = ipc_recv(fwd, &m, err, sizeof(err))) == IPC_RECV_MSG) {
		ck_assert_int_eq(ipc_get(&m, IPC_LOG, &u, sizeof(u.log)), 0);
		log_n(&exp, first + got);
		ck_assert_msg(strcmp(u.log.text, exp.log.text) == 0,
		    "out of order at %u: %s", first + got, u.log.text);
		got++;
	}
	ck_assert_int_eq(r, IPC_RECV_NONE);
	return got;
}

/* Parser sends LOG lines until some are queued, then the queue drains. */
START_TEST(queue_keeps_order)
{
	struct ipc fwd, par;
	union ipc_payload u;
	unsigned sent = 0, got = 0, want_total;

	pair(&fwd, &par, 0);
	ck_assert_int_eq(ipc_poll_events(&par), POLLIN);
	while (par.nqueued < 50) {
		log_n(&u, sent++);
		ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), 0);
		ck_assert_msg(sent < 100000, "the socket never filled");
	}
	want_total = sent;
	ck_assert_int_ne(ipc_pending(&par), 0);
	ck_assert_int_eq(ipc_poll_events(&par), POLLIN | POLLOUT);
	ck_assert_int_eq(ipc_flush(&par), 1);	/* nobody read yet */
	while (got < want_total) {
		got += recv_in_order(&fwd, got);
		ck_assert_int_ge(ipc_flush(&par), 0);
	}
	ck_assert_int_eq(ipc_pending(&par), 0);
	ck_assert_uint_eq(par.queued, 0);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

/* Corked sends wait for ipc_uncork, then leave together and in order. */
START_TEST(cork_holds_then_flushes)
{
	struct ipc fwd, par;
	union ipc_payload u;
	unsigned i;

	pair(&fwd, &par, 0);
	ipc_cork(&par);
	for (i = 0; i < 5; i++) {
		log_n(&u, i);
		ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), 0);
	}
	ck_assert_uint_eq(par.nqueued, 5);
	ck_assert_uint_eq(recv_in_order(&fwd, 0), 0);	/* nothing left yet */
	ck_assert_int_eq(ipc_uncork(&par), 0);
	ck_assert_int_eq(ipc_pending(&par), 0);
	ck_assert_uint_eq(recv_in_order(&fwd, 0), 5);
	/* Uncorked again: a send goes out at once. */
	log_n(&u, 5);
	ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), 0);
	ck_assert_uint_eq(par.nqueued, 0);
	ck_assert_uint_eq(recv_in_order(&fwd, 5), 1);
	/* A long corked run is flushed every IPC_CORK_MAX messages. */
	ipc_cork(&par);
	for (i = 0; i < IPC_CORK_MAX + 3; i++) {
		log_n(&u, 6 + i);
		ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), 0);
	}
	ck_assert_uint_eq(par.nqueued, 3);
	ck_assert_uint_eq(recv_in_order(&fwd, 6), IPC_CORK_MAX);
	ck_assert_int_eq(ipc_uncork(&par), 0);
	ck_assert_uint_eq(recv_in_order(&fwd, 6 + IPC_CORK_MAX), 3);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

START_TEST(queue_is_bounded)
{
	struct ipc fwd, par;
	union ipc_payload u;
	unsigned n = 0;
	size_t before;
	static uint8_t snap[20000];

	pair(&fwd, &par, 4096);
	log_n(&u, 0);
	for (;;) {
		if (ipc_send(&par, IPC_LOG, &u, sizeof(u.log)) != 0)
			break;
		ck_assert_msg(++n < 100000, "never refused");
	}
	ck_assert_int_eq(errno, ENOBUFS);
	ck_assert_int_gt(par.nqueued, 0);
	ck_assert_uint_le(par.queued, 4096);
	/* A policy snapshot is queued whole or not at all. */
	sample(IPC_FRAME, &u);
	while (fwd.nqueued == 0)
		ck_assert_int_eq(ipc_send(&fwd, IPC_FRAME, &u,
		    sizeof(u.frame)), 0);
	before = fwd.nqueued;
	ck_assert_int_eq(ipc_send_policy(&fwd, 3, snap, sizeof(snap)), -1);
	ck_assert_int_eq(errno, ENOBUFS);
	ck_assert_uint_eq(fwd.nqueued, before);
	ck_assert_int_eq(ipc_send_policy(&fwd, 3, NULL, IPC_POLICY_MAX + 1),
	    -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_int_eq(ipc_send_policy(&par, 3, snap, 10), -1);
	ck_assert_int_eq(errno, EINVAL);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

START_TEST(flush_wait_times_out_then_drains)
{
	struct ipc fwd, par;
	union ipc_payload u;
	struct ipc_msg m;
	char err[256];

	pair(&fwd, &par, 0);
	log_n(&u, 1);
	while (par.nqueued == 0)
		ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), 0);
	ck_assert_int_eq(ipc_flush_wait(&par, 20), 1);
	while (ipc_pending(&par)) {
		while (ipc_recv(&fwd, &m, err, sizeof(err)) == IPC_RECV_MSG)
			;
		ck_assert_int_ge(ipc_flush_wait(&par, 0), 0);
	}
	ck_assert_int_eq(ipc_flush_wait(&par, 1000), 0);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

START_TEST(send_to_closed_peer)
{
	struct ipc fwd, par;
	union ipc_payload u;

	pair(&fwd, &par, 0);
	ipc_close(&fwd);
	log_n(&u, 1);
	errno = 0;
	/* MSG_NOSIGNAL: an error, not SIGPIPE. */
	ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), -1);
	ck_assert_int_eq(errno, EPIPE);
	ipc_close(&par);
	ipc_close(&par);			/* idempotent */
	ck_assert_int_eq(ipc_send(&par, IPC_LOG, &u, sizeof(u.log)), -1);
	ck_assert_int_eq(errno, EBADF);
}
END_TEST

START_TEST(send_refuses_bugs)
{
	struct ipc fwd, par;
	union ipc_payload u;

	pair(&fwd, &par, 0);
	sample(IPC_CONFIG, &u);
	errno = 0;
	ck_assert_int_eq(ipc_send(&par, IPC_CONFIG, &u, sizeof(u.config)), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(strstr(ipc_error(&par), "may not send") != NULL, "%s",
	    ipc_error(&par));
	ck_assert_int_eq(ipc_send(&fwd, IPC_CONFIG, &u, sizeof(u)), -1);
	ck_assert_msg(strstr(ipc_error(&fwd), "the struct is 52") != NULL,
	    "%s", ipc_error(&fwd));
	ck_assert_int_eq(ipc_send(&fwd, 0x3f, &u, sizeof(u)), -1);
	ck_assert_msg(strstr(ipc_error(&fwd), "unknown type") != NULL, "%s",
	    ipc_error(&fwd));
	ck_assert_int_eq(ipc_send(&fwd, IPC_CONFIG, &u, sizeof(u.config)), 0);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

START_TEST(logf_sanitizes)
{
	struct ipc fwd, par;
	struct ipc_log l;
	struct ipc_msg m;
	char err[256], big[400];

	pair(&fwd, &par, 0);
	ck_assert_int_eq(ipc_logf(&par, IPC_LOG_ERR, "bad %s\n\x01%d",
	    "frame", 7), 0);
	ck_assert_int_eq(ipc_recv(&fwd, &m, err, sizeof(err)), IPC_RECV_MSG);
	ck_assert_int_eq(ipc_get(&m, IPC_LOG, &l, sizeof(l)), 0);
	ck_assert_str_eq(l.text, "bad frame??7");
	ck_assert_uint_eq(l.level, IPC_LOG_ERR);
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(ipc_logf(&par, IPC_LOG_INFO, "%s", big), 0);
	ck_assert_int_eq(ipc_recv(&fwd, &m, err, sizeof(err)), IPC_RECV_MSG);
	ck_assert_int_eq(ipc_get(&m, IPC_LOG, &l, sizeof(l)), 0);
	ck_assert_uint_eq(strlen(l.text), IPC_LOG_TEXT_MAX - 1);
	ck_assert_int_eq(ipc_logf(&par, 1, "emergency"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(ipc_logf(&par, 300, "nonsense"), -1);
	ipc_close(&fwd);
	ipc_close(&par);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(ipc_type_name(IPC_ROUTE_ADD), "ROUTE_ADD");
	ck_assert_str_eq(ipc_type_name(IPC_POLICY_CHUNK), "POLICY_CHUNK");
	ck_assert_str_eq(ipc_type_name(0x99), "unknown");
	ck_assert_uint_eq(ipc_obj_size(0x99), 0);
	ck_assert_uint_eq(ipc_obj_size(IPC_NEIGH), sizeof(struct ipc_neigh));
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_RX_FRAMES), "rx_frames");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_UNDER_LOAD), "under_load");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_EMIT_FAILED), "emit_failed");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_REVOKE_LEARNT),
	    "revoke_learnt");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_ID_END - 1),
	    "hello_sign_asked");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_ID_END - 2), "desc_want_over");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_ID_END - 3), "desc_want_rx");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_DESC_WANTED), "desc_wanted");
	ck_assert_str_eq(ipc_stat_name(IPC_STAT_RX_HELLO_MAC), "rx_hello_mac");
	ck_assert_str_eq(ipc_type_name(IPC_DESC_WANT), "DESC_WANT");
	ck_assert_str_eq(ipc_type_name(IPC_HELLO_SIGN), "HELLO_SIGN");
	ck_assert_uint_eq(ipc_obj_size(IPC_HELLO_SIGN), 8);
	ck_assert_str_eq(ipc_type_name(IPC_PINS), "PINS");
	ck_assert_str_eq(ipc_type_name(IPC_PIN), "PIN");
	ck_assert_str_eq(ipc_type_name(IPC_HEARTBEAT), "HEARTBEAT");
	ck_assert_str_eq(ipc_type_name(IPC_HEARTBEAT_ACK), "HEARTBEAT_ACK");
	ck_assert_str_eq(ipc_type_name(IPC_CERT), "CERT");
	ck_assert_ptr_null(ipc_stat_name(0));
	ck_assert_ptr_null(ipc_stat_name(IPC_STAT_ID_END));
	ck_assert_int_eq(ipc_str_field_ok("ab\0\0", 4, 0), 1);
	ck_assert_int_eq(ipc_str_field_ok("\0\0\0\0", 4, 0), 0);
	ck_assert_int_eq(ipc_str_field_ok("\0\0\0\0", 4, 1), 1);
	ck_assert_int_eq(ipc_str_field_ok("abcd", 4, 0), 0);
	ck_assert_int_eq(ipc_str_field_ok("a\0b\0", 4, 0), 0);
	ck_assert_int_eq(ipc_mac_is_unicast((const uint8_t *)"\2\0\0\0\0\1"), 1);
	ck_assert_int_eq(ipc_mac_is_unicast((const uint8_t *)"\3\0\0\0\0\1"), 0);
	ck_assert_int_eq(ipc_mac_is_unicast((const uint8_t *)"\0\0\0\0\0\0"), 0);
}
END_TEST

/* ---- policy snapshots ------------------------------------------------------------------ */

static void
snapshot_over_socket(size_t len)
{
	struct ipc fwd, par;
	struct ipc_snap s;
	struct ipc_msg m;
	uint8_t *data = malloc(len ? len : 1);
	char err[256];
	size_t i;
	int r, done = 0, rounds = 0;

	ck_assert_ptr_nonnull(data);
	for (i = 0; i < len; i++)
		data[i] = (uint8_t)(i * 7 + i / 251);
	pair(&fwd, &par, 0);
	ipc_snap_init(&s);
	ck_assert_int_eq(ipc_send_policy(&fwd, 42, data, len), 0);
	while (!done) {
		ck_assert_int_ge(ipc_flush(&fwd), 0);
		while (!done && (r = ipc_recv(&par, &m, err, sizeof(err))) ==
		    IPC_RECV_MSG) {
			r = ipc_snap_feed(&s, &m, err, sizeof(err));
			ck_assert_msg(r >= 0, "%s", err);
			done = r == 1;
		}
		ck_assert_msg(++rounds < 100000, "snapshot never completed");
	}
	ck_assert_uint_eq(s.total, len);
	ck_assert_uint_eq(s.serial, 42);
	ck_assert_int_eq(memcmp(s.buf, data, len), 0);
	ck_assert_int_eq(ipc_pending(&fwd), 0);
	ipc_snap_free(&s);
	free(data);
	ipc_close(&fwd);
	ipc_close(&par);
}

START_TEST(snapshot_roundtrip)
{
	static const size_t sizes[] = { 0, 1, IPC_POLICY_CHUNK_MAX,
	    IPC_POLICY_CHUNK_MAX + 1, 300000 };

	snapshot_over_socket(sizes[_i]);
}
END_TEST

static void
pol_msg(struct ipc_msg *m, uint16_t type, uint32_t serial,
    uint32_t a, uint16_t len)
{
	union ipc_payload u;

	memset(&u, 0, sizeof(u));
	if (type == IPC_POLICY_CHUNK) {
		u.policy_chunk.serial = serial;
		u.policy_chunk.offset = a;
		u.policy_chunk.len = len;
		memset(u.policy_chunk.data, 0x61, len);
	} else {
		u.policy_mark.serial = serial;
		u.policy_mark.total = a;
	}
	msg_of(m, type, &u);
}

struct snap_step {
	uint16_t type;
	uint32_t serial;
	uint32_t a;		/* total, or chunk offset */
	uint16_t len;
	int want;		/* ipc_snap_feed result */
	const char *err;
};

struct snap_case {
	const char *name;
	struct snap_step steps[5];
};

#define B(s, t)		{ IPC_POLICY_BEGIN, s, t, 0, 0, NULL }
#define C(s, o, l)	{ IPC_POLICY_CHUNK, s, o, l, 0, NULL }
#define E(s, t)		{ IPC_POLICY_END, s, t, 0, 1, NULL }
#define BAD(t, s, a, l, e)	{ t, s, a, l, -1, e }

static const struct snap_case snap_cases[] = {
	{ "chunk without begin", { BAD(IPC_POLICY_CHUNK, 1, 0, 5,
	  "no snapshot in progress") } },
	{ "end without begin", { BAD(IPC_POLICY_END, 1, 5, 0,
	  "no snapshot in progress") } },
	{ "serial mismatch", { B(1, 10), BAD(IPC_POLICY_CHUNK, 2, 0, 5,
	  "serial 2, snapshot 1") } },
	{ "gap", { B(1, 10), C(1, 0, 4), BAD(IPC_POLICY_CHUNK, 1, 5, 5,
	  "offset 5, expected 4") } },
	{ "overlap", { B(1, 10), C(1, 0, 4), BAD(IPC_POLICY_CHUNK, 1, 3, 5,
	  "offset 3, expected 4") } },
	{ "past the total", { B(1, 10), C(1, 0, 8), BAD(IPC_POLICY_CHUNK, 1,
	  8, 3, "pass the total of 10") } },
	{ "end too early", { B(1, 10), C(1, 0, 8), BAD(IPC_POLICY_END, 1, 10,
	  0, "only 8 of 10 bytes") } },
	{ "end total differs", { B(1, 10), C(1, 0, 10), BAD(IPC_POLICY_END, 1,
	  11, 0, "does not match BEGIN") } },
	{ "end serial differs", { B(1, 10), C(1, 0, 10), BAD(IPC_POLICY_END, 7,
	  10, 0, "does not match BEGIN") } },
	{ "error drops the partial", { B(1, 10), C(1, 0, 4),
	  BAD(IPC_POLICY_CHUNK, 1, 5, 5, "offset"), BAD(IPC_POLICY_CHUNK, 1,
	  4, 6, "no snapshot in progress") } },
	{ "begin restarts", { B(1, 10), C(1, 0, 4), B(2, 3), C(2, 0, 3),
	  E(2, 3) } },
	{ "empty snapshot", { B(9, 0), E(9, 0) } },
	{ "after completion", { B(1, 2), C(1, 0, 2), E(1, 2),
	  BAD(IPC_POLICY_CHUNK, 1, 2, 1, "no snapshot in progress") } },
};

#undef B
#undef C
#undef E
#undef BAD

START_TEST(snapshot_sequence_errors)
{
	const struct snap_case *c = &snap_cases[_i];
	struct ipc_snap s;
	struct ipc_msg m;
	char err[256];
	size_t i;
	int r;

	ipc_snap_init(&s);
	for (i = 0; i < 5 && c->steps[i].type != 0; i++) {
		const struct snap_step *st = &c->steps[i];

		pol_msg(&m, st->type, st->serial, st->a, st->len);
		err[0] = '\0';
		r = ipc_snap_feed(&s, &m, err, sizeof(err));
		ck_assert_msg(r == st->want, "%s step %zu: %d (%s)", c->name, i,
		    r, err);
		if (st->err != NULL)
			ck_assert_msg(strstr(err, st->err) != NULL, "%s step "
			    "%zu: '%s' lacks '%s'", c->name, i, err, st->err);
		if (r < 0)
			ck_assert_ptr_null(s.buf);
	}
	ipc_snap_free(&s);
}
END_TEST

START_TEST(snapshot_rejects_other_types)
{
	struct ipc_snap s;
	union ipc_payload u;
	struct ipc_msg m;
	char err[256] = "";

	ipc_snap_init(&s);
	sample(IPC_FRAME, &u);
	msg_of(&m, IPC_FRAME, &u);
	ck_assert_int_eq(ipc_snap_feed(&s, &m, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a policy message") != NULL, "%s", err);
}
END_TEST

static Suite *
ipc_suite(void)
{
	Suite *s = suite_create("ipc");
	TCase *tc;

	tc = tcase_create("roundtrip");
	tcase_add_loop_test(tc, roundtrip_every_type, 0, N_TYPES);
	suite_add_tcase(s, tc);

	tc = tcase_create("framing");
	tcase_add_loop_test(tc, framing_refused, 0,
	    (int)(sizeof(frame_cases) / sizeof(frame_cases[0])));
	tcase_add_loop_test(tc, payload_size_exact, 0, 2 * N_TYPES);
	tcase_add_test(tc, ancillary_data_refused);
	tcase_add_test(tc, eof_and_empty_datagram);
	tcase_add_test(tc, init_refuses_non_seqpacket);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_loop_test(tc, format_refused, 0,
	    (int)(sizeof(fmt_cases) / sizeof(fmt_cases[0])));
	tcase_add_test(tc, format_edges_accepted);
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);

	tc = tcase_create("state");
	tcase_add_loop_test(tc, state_checks, 0,
	    (int)(sizeof(sem_cases) / sizeof(sem_cases[0])));
	tcase_add_test(tc, check_includes_format);
	tcase_add_test(tc, ctx_apply_and_ifaces);
	suite_add_tcase(s, tc);

	tc = tcase_create("queue");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, queue_keeps_order);
	tcase_add_test(tc, queue_is_bounded);
	tcase_add_test(tc, cork_holds_then_flushes);
	tcase_add_test(tc, flush_wait_times_out_then_drains);
	tcase_add_test(tc, send_to_closed_peer);
	tcase_add_test(tc, send_refuses_bugs);
	tcase_add_test(tc, logf_sanitizes);
	suite_add_tcase(s, tc);

	tc = tcase_create("snapshot");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, snapshot_roundtrip, 0, 5);
	tcase_add_loop_test(tc, snapshot_sequence_errors, 0,
	    (int)(sizeof(snap_cases) / sizeof(snap_cases[0])));
	tcase_add_test(tc, snapshot_rejects_other_types);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	keys_init();
	return t_run(ipc_suite());
}
