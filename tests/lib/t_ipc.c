/*
 * t_ipc.c — IPC messages for tests (t_ipc.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "proto/ipc.h"
#include "proto/wire.h"
#include "t_frames.h"
#include "t_ipc.h"

struct ipc_config
t_ipc_config(struct t_config f)
{
	struct ipc_config m;

	memset(&m, 0, sizeof(m));
	memcpy(m.own_pk, f.pk, BS_PK_LEN);
	bs_mesh_addr(m.own_addr, f.pk);
	m.ethertype = f.ethertype;
	m.epoch = f.epoch;
	m.hello_ms = f.hello_ms;
	m.ogm_ms = f.ogm_ms;
	m.hop_penalty = f.hop_penalty;
	m.log_level = f.log_level;
	return m;
}

struct ipc_iface
t_ipc_iface(struct t_iface f)
{
	struct ipc_iface m;

	memset(&m, 0, sizeof(m));
	m.ifindex = f.ifindex;
	m.mtu = f.mtu;
	if (f.mac != NULL)
		memcpy(m.mac, f.mac, BS_ADDR_LEN);
	m.state = f.state;
	m.hop_penalty = f.hop_penalty;
	m.half_duplex = f.half_duplex;
	(void)snprintf(m.name, sizeof(m.name), "%s", f.name);
	return m;
}

struct ipc_route_alt
t_ipc_route_alt(const uint8_t *orig_addr, const uint8_t *nexthop,
    uint32_t ifindex)
{
	struct ipc_route_alt m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_addr, orig_addr, BS_ADDR_LEN);
	m.count = 1;
	memcpy(m.c[0].nexthop, nexthop, BS_ADDR_LEN);
	m.c[0].tq = 120;
	m.c[0].hops = 3;
	m.c[0].ifindex = ifindex;
	return m;
}

struct ipc_neigh
t_ipc_neigh(struct t_neigh f)
{
	struct ipc_neigh m;

	memset(&m, 0, sizeof(m));
	memcpy(m.pk, f.pk, BS_PK_LEN);
	memcpy(m.addr, f.addr, BS_ADDR_LEN);
	memcpy(m.mac, f.mac, BS_ADDR_LEN);
	m.ifindex = f.ifindex;
	m.state = f.state;
	m.tq = f.tq;
	m.rx_count = f.rx_count;
	m.epoch = f.epoch != 0 || f.state != IPC_NEIGH_UP ? f.epoch : 1;
	if (f.state == IPC_NEIGH_UP && f.salt != NULL)
		memcpy(m.salt, f.salt, BS_LINKSALT_LEN);
	else if (f.state == IPC_NEIGH_UP)
		t_salt(m.salt, f.pk);
	return m;
}

struct ipc_route
t_ipc_route(struct t_route f)
{
	struct ipc_route m;

	memset(&m, 0, sizeof(m));
	memcpy(m.orig_pk, f.orig_pk, BS_PK_LEN);
	memcpy(m.orig_addr, f.orig_addr, BS_ADDR_LEN);
	memcpy(m.nexthop, f.nexthop, BS_ADDR_LEN);
	m.ifindex = f.ifindex;
	m.tq = f.tq;
	m.hops = f.hops;
	m.epoch = f.epoch;
	return m;
}

size_t
t_ipc_encode(uint8_t *buf, size_t cap, uint16_t type, const void *obj)
{
	char err[256];
	size_t n;

	if (ipc_encode(buf, cap, type, obj, ipc_obj_size(type), &n, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "t_ipc_encode: %s\n", err);
		abort();
	}
	return n;
}

void
t_ipcs_start(struct t_seedbuf *s, uint8_t role)
{
	s->len = 0;
	t_seed_put(s, &role, 1);
}

void
t_ipcs_raw(struct t_seedbuf *s, const void *p, size_t n)
{
	uint8_t h[2] = { (uint8_t)(n >> 8), (uint8_t)n };

	if (n > 0xffff)
		t_seed_fail("datagram size");
	t_seed_put(s, h, sizeof(h));
	t_seed_put(s, p, n);
}

void
t_ipcs_msg(struct t_seedbuf *s, uint16_t type, const void *obj)
{
	static uint8_t dgram[IPC_MAX_MSG];

	t_ipcs_raw(s, dgram, t_ipc_encode(dgram, sizeof(dgram), type, obj));
}

struct ipc_tt
t_ipc_tt_page(const uint8_t *orig_addr, unsigned pages, unsigned page,
    unsigned n)
{
	struct ipc_tt tt;
	unsigned i;

	memset(&tt, 0, sizeof(tt));
	memcpy(tt.orig_addr, orig_addr, BS_ADDR_LEN);
	tt.pages = (uint8_t)pages;
	tt.page = (uint8_t)page;
	for (i = 0; i < 65536 && tt.count < n && tt.count < IPC_TT_MAX; i++) {
		uint8_t m[BS_ADDR_LEN] = { 0x02, 0x11, 0x22, 0x33,
		    (uint8_t)(i >> 8), (uint8_t)i };

		if (wire_tt_bucket(m, 0, pages) == page)
			memcpy(tt.e[tt.count++].mac, m, BS_ADDR_LEN);
	}
	return tt;
}

struct ipc_mcast
t_ipc_mcast(const uint8_t *orig_addr)
{
	struct ipc_mcast mc;

	memset(&mc, 0, sizeof(mc));
	memcpy(mc.orig_addr, orig_addr, BS_ADDR_LEN);
	mc.known = 1;
	mc.flags = WIRE_MCAST_F_ALL6;
	mc.count = 2;
	memcpy(mc.group[0], "\x01\x00\x5e\x01\x02\x03", 6);
	memcpy(mc.group[1], "\x33\x33\x00\x01\x12\x34", 6);
	return mc;
}
