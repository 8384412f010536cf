/*
 * ipc.c — framing, format checks, queueing and policy-snapshot chunking of
 * the forwarder <-> parser channel.  See ipc.h for the layers of checks.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/log.h"
#include "batsec_crypto.h"
#include "batsec_policy.h"
#include "ipc.h"
#include "wire.h"

/* The limits in ipc_msg.h must cover what the other modules produce. */
_Static_assert(IPC_FRAME_MAX >= WIRE_OGM_MAX_LEN, "OGM frame fits FRAME");
_Static_assert(IPC_FRAME_MAX >= WIRE_HELLO_MAX_LEN, "HELLO fits FRAME");
_Static_assert(IPC_RELAY_MAX == WIRE_OGM_ENTRY_LEN(WIRE_TVLV_MAX),
    "RELAY holds the largest OGM entry");
_Static_assert(BS_POLICY_SNAP_MAX <= IPC_POLICY_MAX, "snapshot fits");
_Static_assert(IPC_INTERVAL_MIN == WIRE_INTERVAL_MIN &&
    IPC_INTERVAL_MAX == WIRE_INTERVAL_MAX, "interval range");
_Static_assert(IPC_TT_MAX == WIRE_TT_MAX, "TT entries");

#define IPC_RELAY_MIN	WIRE_OGM_COMPACT_LEN

/* ---- value checks shared by the format checkers --------------------------- */

int
ipc_mac_is_unicast(const uint8_t mac[static BS_ADDR_LEN])
{
	static const uint8_t zero[BS_ADDR_LEN];

	return (mac[0] & 0x01) == 0 && memcmp(mac, zero, BS_ADDR_LEN) != 0;
}

/* A mesh address is locally administered and unicast (bs_mesh_addr). */
static int
ipc_addr_is_mesh(const uint8_t a[static BS_ADDR_LEN])
{
	return (a[0] & 0x03) == 0x02;
}

static int
ipc_addr_matches_pk(const uint8_t addr[static BS_ADDR_LEN],
    const uint8_t pk[static BS_PK_LEN])
{
	uint8_t want[BS_ADDR_LEN];

	bs_mesh_addr(want, pk);
	return memcmp(want, addr, BS_ADDR_LEN) == 0;
}

static int
ipc_zero(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/*
 * 1 when s[0..size) holds a NUL-terminated string of printable ASCII with
 * only zero bytes after the NUL (and at least one character unless
 * allow_empty).
 */
int
ipc_str_field_ok(const char *s, size_t size, int allow_empty)
{
	size_t n;

	for (n = 0; n < size && s[n] != '\0'; n++)
		if (s[n] < 0x20 || s[n] > 0x7e)
			return 0;
	if (n == size || (n == 0 && !allow_empty))
		return 0;
	return ipc_zero(s + n, size - n);
}

static const char *
ipc_str_problem(const char *s, size_t size)
{
	size_t n;

	for (n = 0; n < size && s[n] != '\0'; n++)
		if (s[n] < 0x20 || s[n] > 0x7e)
			return "contains a non-printable byte";
	if (n == size)
		return "is not NUL-terminated within its field";
	if (!ipc_zero(s + n, size - n))
		return "has non-zero bytes after its NUL";
	return NULL;
}

static int
ipc_ifindex_ok(uint32_t ifindex)
{
	return ifindex >= 1 && ifindex <= INT32_MAX;
}

static int
ipc_level_ok(unsigned level)
{
	return level >= IPC_LOG_ERR && level <= IPC_LOG_DEBUG;
}

/* ---- format checkers, one per type (layer 2) ---------------------------- */

typedef int (*ipc_chk_fn)(const union ipc_payload *u, char *err,
    size_t errlen);

static int
chk_config(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_config *c = &u->config;

	if (!ipc_addr_matches_pk(c->own_addr, c->own_pk))
		return log_errf(err, errlen, "own_addr is not the mesh address "
		    "of own_pk");
	if (c->ethertype < IPC_ETHERTYPE_MIN)
		return log_errf(err, errlen, "ethertype 0x%04x is below 0x%04x",
		    c->ethertype, IPC_ETHERTYPE_MIN);
	if (c->hello_ms < IPC_INTERVAL_MIN || c->hello_ms > IPC_INTERVAL_MAX)
		return log_errf(err, errlen, "hello_ms %u out of range %u..%u",
		    c->hello_ms, IPC_INTERVAL_MIN, IPC_INTERVAL_MAX);
	if (c->ogm_ms < IPC_INTERVAL_MIN || c->ogm_ms > IPC_INTERVAL_MAX)
		return log_errf(err, errlen, "ogm_ms %u out of range %u..%u",
		    c->ogm_ms, IPC_INTERVAL_MIN, IPC_INTERVAL_MAX);
	if (!ipc_level_ok(c->log_level))
		return log_errf(err, errlen, "log_level %u out of range %u..%u",
		    c->log_level, IPC_LOG_ERR, IPC_LOG_DEBUG);
	if (!ipc_zero(c->reserved, sizeof(c->reserved)))
		return log_errf(err, errlen, "reserved bytes not 0");
	return 0;
}

static int
chk_policy_mark(const union ipc_payload *u, char *err,
    size_t errlen)
{
	if (u->policy_mark.total > IPC_POLICY_MAX)
		return log_errf(err, errlen, "total %u exceeds %u",
		    u->policy_mark.total, IPC_POLICY_MAX);
	return 0;
}

static int
chk_policy_chunk(const union ipc_payload *u, char *err,
    size_t errlen)
{
	const struct ipc_policy_chunk *c = &u->policy_chunk;

	if (c->offset > IPC_POLICY_MAX - c->len)
		return log_errf(err, errlen, "offset %u + len %u exceeds %u",
		    c->offset, c->len, IPC_POLICY_MAX);
	if (c->reserved != 0)
		return log_errf(err, errlen, "reserved field not 0");
	return 0;
}

static int
chk_ifname(const char name[IFNAMSIZ], char *err, size_t errlen)
{
	const char *why = ipc_str_problem(name, IFNAMSIZ);

	if (why != NULL)
		return log_errf(err, errlen, "name %s", why);
	if (name[0] == '\0' || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0 || strpbrk(name, "/: ") != NULL)
		return log_errf(err, errlen, "name '%s' is not an interface "
		    "name", name);
	return 0;
}

static int
chk_iface(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_iface *f = &u->iface;

	if (!ipc_ifindex_ok(f->ifindex))
		return log_errf(err, errlen, "ifindex %u invalid", f->ifindex);
	if (f->state > IPC_IFACE_REMOVED)
		return log_errf(err, errlen, "state %u unknown", f->state);
	if (f->state == IPC_IFACE_REMOVED) {
		if (f->mtu != 0 || !ipc_zero(f->mac, sizeof(f->mac)))
			return log_errf(err, errlen, "mtu and mac of a removed "
			    "interface not 0");
	} else {
		if (f->mtu < IPC_MTU_MIN || f->mtu > IPC_MTU_MAX)
			return log_errf(err, errlen, "mtu %u out of range "
			    "%u..%u", f->mtu, IPC_MTU_MIN, IPC_MTU_MAX);
		if (!ipc_mac_is_unicast(f->mac))
			return log_errf(err, errlen, "mac is zero or multicast");
	}
	if (f->half_duplex > 1)
		return log_errf(err, errlen, "half_duplex %u is not 0 or 1",
		    f->half_duplex);
	if (f->state == IPC_IFACE_REMOVED &&
	    (f->hop_penalty != 0 || f->half_duplex != 0))
		return log_errf(err, errlen, "hop_penalty and half_duplex of "
		    "a removed interface not 0");
	if (!ipc_zero(f->reserved, sizeof(f->reserved)))
		return log_errf(err, errlen, "reserved field not 0");
	return chk_ifname(f->name, err, errlen);
}

static int
chk_frame(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_frame *f = &u->frame;

	if (!ipc_ifindex_ok(f->ifindex))
		return log_errf(err, errlen, "ifindex %u invalid", f->ifindex);
	if (!ipc_mac_is_unicast(f->src))
		return log_errf(err, errlen, "src is zero or multicast");
	if (f->reserved != 0)
		return log_errf(err, errlen, "reserved field not 0");
	return 0;
}

static int
chk_link_key(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_link_key *k = &u->link_key;

	if (!ipc_ifindex_ok(k->ifindex))
		return log_errf(err, errlen, "ifindex %u invalid", k->ifindex);
	if (k->status > IPC_LINK_KEY_REFUSED)
		return log_errf(err, errlen, "status %u unknown", k->status);
	if (k->status == IPC_LINK_KEY_REFUSED &&
	    (!ipc_zero(k->key, sizeof(k->key)) ||
	    !ipc_zero(k->key_id, sizeof(k->key_id))))
		return log_errf(err, errlen, "refused key not all 0");
	if (!ipc_zero(k->reserved, sizeof(k->reserved)))
		return log_errf(err, errlen, "reserved bytes not 0");
	return 0;
}

static int
chk_log(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_log *l = &u->log;
	const char *why;

	if (!ipc_level_ok(l->level))
		return log_errf(err, errlen, "level %u out of range %u..%u",
		    l->level, IPC_LOG_ERR, IPC_LOG_DEBUG);
	if (!ipc_zero(l->reserved, sizeof(l->reserved)))
		return log_errf(err, errlen, "reserved bytes not 0");
	if ((why = ipc_str_problem(l->text, sizeof(l->text))) != NULL)
		return log_errf(err, errlen, "text %s", why);
	return 0;
}

static int
chk_route(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_route *r = &u->route;

	if (!ipc_addr_matches_pk(r->orig_addr, r->orig_pk))
		return log_errf(err, errlen, "orig_addr is not the mesh "
		    "address of orig_pk");
	if (!ipc_addr_is_mesh(r->nexthop))
		return log_errf(err, errlen, "nexthop is not a mesh address");
	if (!ipc_ifindex_ok(r->ifindex))
		return log_errf(err, errlen, "ifindex %u invalid", r->ifindex);
	if (r->tq < 1)
		return log_errf(err, errlen, "tq 0 out of range 1..255");
	if (r->hops < 1 || r->hops > IPC_ROUTE_MAX_HOPS)
		return log_errf(err, errlen, "hops %u out of range 1..%u",
		    r->hops, IPC_ROUTE_MAX_HOPS);
	if (!ipc_zero(r->reserved, sizeof(r->reserved)))
		return log_errf(err, errlen, "reserved bytes not 0");
	if (r->epoch == 0)
		return log_errf(err, errlen, "epoch 0 out of range");
	return 0;
}

static int
chk_route_alt(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_route_alt *a = &u->route_alt;
	const struct ipc_route_cand *c;
	unsigned i, j;

	if (!ipc_addr_is_mesh(a->orig_addr))
		return log_errf(err, errlen, "orig_addr is not a mesh address");
	if (a->reserved != 0)
		return log_errf(err, errlen, "reserved field not 0");
	for (i = 0; i < a->count; i++) {
		c = &a->c[i];
		if (!ipc_addr_is_mesh(c->nexthop))
			return log_errf(err, errlen, "candidate %u: nexthop is "
			    "not a mesh address", i);
		if (!ipc_ifindex_ok(c->ifindex))
			return log_errf(err, errlen, "candidate %u: ifindex %u "
			    "invalid", i, c->ifindex);
		if (c->hops < 1 || c->hops > IPC_ROUTE_MAX_HOPS)
			return log_errf(err, errlen, "candidate %u: hops %u out "
			    "of range 1..%u", i, c->hops, IPC_ROUTE_MAX_HOPS);
		for (j = 0; j < i; j++)
			if (a->c[j].ifindex == c->ifindex &&
			    memcmp(a->c[j].nexthop, c->nexthop,
			    BS_ADDR_LEN) == 0)
				return log_errf(err, errlen, "candidate %u "
				    "repeats candidate %u", i, j);
	}
	return 0;
}

/* An originator's address and two reserved bytes (ROUTE_DEL, DESC_WANT). */
static int
chk_addr2(const uint8_t addr[static BS_ADDR_LEN], const uint8_t res[2],
    char *err, size_t errlen)
{
	if (!ipc_addr_is_mesh(addr))
		return log_errf(err, errlen, "orig_addr is not a mesh address");
	if (!ipc_zero(res, 2))
		return log_errf(err, errlen, "reserved bytes not 0");
	return 0;
}

static int
chk_route_del(const union ipc_payload *u, char *err,
    size_t errlen)
{
	return chk_addr2(u->route_del.orig_addr, u->route_del.reserved, err,
	    errlen);
}

static int
chk_desc_want(const union ipc_payload *u, char *err, size_t errlen)
{
	return chk_addr2(u->desc_want.orig_addr, u->desc_want.reserved, err,
	    errlen);
}

static int
chk_hello_sign(const union ipc_payload *u, char *err, size_t errlen)
{
	if (!ipc_ifindex_ok(u->hello_sign.ifindex))
		return log_errf(err, errlen, "ifindex %u invalid",
		    u->hello_sign.ifindex);
	if (u->hello_sign.reserved != 0)
		return log_errf(err, errlen, "reserved bytes not 0");
	return 0;
}

static int
chk_neigh(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_neigh *n = &u->neigh;

	if (!ipc_addr_matches_pk(n->addr, n->pk))
		return log_errf(err, errlen, "addr is not the mesh address of pk");
	if (!ipc_mac_is_unicast(n->mac))
		return log_errf(err, errlen, "mac is zero or multicast");
	if (!ipc_ifindex_ok(n->ifindex))
		return log_errf(err, errlen, "ifindex %u invalid", n->ifindex);
	if (n->state > IPC_NEIGH_UP)
		return log_errf(err, errlen, "state %u unknown", n->state);
	if (n->rx_count > WIRE_RX_WINDOW)
		return log_errf(err, errlen, "rx_count %u exceeds %u",
		    n->rx_count, WIRE_RX_WINDOW);
	if (n->state == IPC_NEIGH_UP && n->epoch == 0)
		return log_errf(err, errlen, "epoch of an up neighbour is 0");
	if (n->state == IPC_NEIGH_DOWN && (n->tq != 0 || n->rx_count != 0))
		return log_errf(err, errlen, "tq and rx_count of a down "
		    "neighbour not 0");
	if (n->state == IPC_NEIGH_DOWN && !ipc_zero(n->salt, sizeof(n->salt)))
		return log_errf(err, errlen, "salt of a down neighbour not 0");
	if ((n->flags & ~IPC_NEIGH_F_MASK) != 0 ||
	    (n->state != IPC_NEIGH_UP && n->flags != 0))
		return log_errf(err, errlen, "flags 0x%02x not allowed",
		    (unsigned)n->flags);
	return 0;
}

static int
chk_link_key_req(const union ipc_payload *u, char *err,
    size_t errlen)
{
	if (!ipc_ifindex_ok(u->link_key_req.ifindex))
		return log_errf(err, errlen, "ifindex %u invalid",
		    u->link_key_req.ifindex);
	return 0;
}

static int
ipc_vid_ok(uint16_t vid)
{
	uint16_t id = vid & WIRE_VID_MASK;

	if (vid == 0)
		return 1;
	return vid == (WIRE_VID_TAGGED | id) && id >= 1 && id <= 4094;
}

static int
chk_tt(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_tt *t = &u->tt;
	unsigned i, j;

	if (!ipc_addr_is_mesh(t->orig_addr))
		return log_errf(err, errlen, "orig_addr is not a mesh address");
	if (t->reserved[0] != 0 || t->reserved[1] != 0 || t->reserved[2] != 0)
		return log_errf(err, errlen, "reserved field not 0");
	if (t->pages == 0 ? t->page != 0 : (t->pages < WIRE_TT_PAGES_MIN ||
	    t->pages > WIRE_TT_PAGES_MAX || (t->pages & (t->pages - 1)) != 0 ||
	    t->page >= t->pages))
		return log_errf(err, errlen, "page %u of %u invalid", t->page,
		    t->pages);
	for (i = 0; i < t->count; i++) {
		if (!ipc_mac_is_unicast(t->e[i].mac))
			return log_errf(err, errlen, "entry %u: mac is zero or "
			    "multicast", i);
		if (!ipc_vid_ok(t->e[i].vid))
			return log_errf(err, errlen, "entry %u: vid 0x%04x "
			    "invalid", i, t->e[i].vid);
		if ((t->e[i].flags & ~WIRE_TT_F_MASK) != 0 ||
		    t->e[i].reserved != 0)
			return log_errf(err, errlen, "entry %u: flags 0x%02x "
			    "or reserved not 0", i, t->e[i].flags);
		for (j = 0; j < i; j++)
			if (t->e[i].vid == t->e[j].vid &&
			    memcmp(t->e[i].mac, t->e[j].mac, BS_ADDR_LEN) == 0)
				return log_errf(err, errlen, "entry %u "
				    "repeats entry %u", i, j);
		if (t->pages != 0 && wire_tt_bucket(t->e[i].mac, t->e[i].vid,
		    t->pages) != t->page)
			return log_errf(err, errlen, "entry %u: not in page "
			    "%u of %u", i, t->page, t->pages);
	}
	return 0;
}

_Static_assert(IPC_MCAST_MAX == WIRE_MCAST_MAX, "one MCAST fits");

static int
chk_mcast(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_mcast *m = &u->mcast;
	unsigned i, j;

	if (!ipc_addr_is_mesh(m->orig_addr))
		return log_errf(err, errlen, "orig_addr is not a mesh address");
	if (m->reserved[0] != 0 || m->reserved[1] != 0 || m->reserved[2] != 0)
		return log_errf(err, errlen, "reserved field not 0");
	if (m->known > 1 || (m->flags & ~WIRE_MCAST_F_MASK) != 0 ||
	    (!m->known && (m->flags != 0 || m->count != 0)))
		return log_errf(err, errlen, "known %u flags 0x%02x count %u "
		    "invalid", m->known, m->flags, m->count);
	for (i = 0; i < m->count; i++) {
		if (!wire_mcast_group_ok(m->group[i]))
			return log_errf(err, errlen, "group %u: not an IPv4 or "
			    "IPv6 group address", i);
		for (j = 0; j < i; j++)
			if (memcmp(m->group[i], m->group[j], BS_ADDR_LEN) == 0)
				return log_errf(err, errlen, "group %u repeats "
				    "group %u", i, j);
	}
	return 0;
}

static int
chk_gw(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_gw *g = &u->gw;

	if (!ipc_addr_is_mesh(g->orig_addr))
		return log_errf(err, errlen, "orig_addr is not a mesh address");
	if (g->op > IPC_GW_ANNOUNCE)
		return log_errf(err, errlen, "op %u unknown", g->op);
	if (g->op == IPC_GW_ANNOUNCE && (g->down == 0 || g->up == 0))
		return log_errf(err, errlen, "announced bandwidth is 0");
	if (g->op == IPC_GW_WITHDRAW && (g->down != 0 || g->up != 0))
		return log_errf(err, errlen, "withdrawal carries a bandwidth");
	if (g->reserved != 0)
		return log_errf(err, errlen, "reserved field not 0");
	return 0;
}

/*
 * The sizes and fixed fields of one OGM entry; no signature check.  The
 * codec reads them (wire_ogm_head_get); the reasons are ours.
 */
static int
chk_ogm_entry(const uint8_t *e, size_t len, char *err,
    size_t errlen)
{
	struct wire_ogm_head h;
	size_t tvlv_len;

	if (wire_ogm_head_get(e, len, &h) != WIRE_OK)
		return log_errf(err, errlen, "entry of %zu bytes is too short "
		    "or of an unknown kind", len);
	tvlv_len = h.tvlv_len;
	if (h.mut.kind == WIRE_OGM_COMPACT) {
		if (len != WIRE_OGM_COMPACT_LEN)
			return log_errf(err, errlen, "compact entry of %zu "
			    "bytes", len);
		if (!ipc_addr_is_mesh(h.orig))
			return log_errf(err, errlen, "compact entry's "
			    "originator is not a mesh address");
	} else if (tvlv_len > WIRE_TVLV_MAX || tvlv_len % 2 != 0 ||
	    len != WIRE_OGM_ENTRY_LEN(tvlv_len))
		return log_errf(err, errlen, "entry of %zu bytes has tvlv_len "
		    "%zu", len, tvlv_len);
	if (h.mut.ttl == 0)
		return log_errf(err, errlen, "entry ttl is 0");
	if (h.mut.hops < 1 || h.mut.hops > BS_MAXHOPS)
		return log_errf(err, errlen, "entry hops %u out of range 1..%u",
		    (unsigned)h.mut.hops, BS_MAXHOPS);
	if (!ipc_addr_is_mesh(h.mut.prev_sender))
		return log_errf(err, errlen, "entry previous sender is not a "
		    "mesh address");
	if (h.mut.kind == WIRE_OGM_FULL && (h.interval_ms < IPC_INTERVAL_MIN ||
	    h.interval_ms > IPC_INTERVAL_MAX))
		return log_errf(err, errlen, "entry interval %u out of range",
		    (unsigned)h.interval_ms);
	if (h.flags != 0 || h.sgn_reserved != 0)
		return log_errf(err, errlen, "entry reserved or flag bytes "
		    "not 0");
	return 0;
}

static int
chk_relay(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_relay *r = &u->relay;

	if (r->ifindex != IPC_IFINDEX_ALL && !ipc_ifindex_ok(r->ifindex))
		return log_errf(err, errlen, "ifindex %u invalid", r->ifindex);
	if (r->reserved != 0)
		return log_errf(err, errlen, "reserved field not 0");
	return chk_ogm_entry(r->entry, r->len, err, errlen);
}

static int
chk_stats(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_stats *s = &u->stats;
	unsigned i, j;

	if (s->reserved != 0 || s->reserved2 != 0)
		return log_errf(err, errlen, "reserved fields not 0");
	for (i = 0; i < s->count; i++) {
		if (ipc_stat_name(s->s[i].id) == NULL)
			return log_errf(err, errlen, "entry %u: counter id %u "
			    "unknown", i, s->s[i].id);
		if (s->s[i].reserved != 0)
			return log_errf(err, errlen, "entry %u: reserved field "
			    "not 0", i);
		for (j = 0; j < i; j++)
			if (s->s[j].id == s->s[i].id)
				return log_errf(err, errlen, "entry %u repeats "
				    "counter id %u", i, s->s[i].id);
	}
	return 0;
}

/* A revocation record in its canonical form (the signature is not ours). */
static int
chk_revoke(const union ipc_payload *u, char *err, size_t errlen)
{
	const char *why = bs_revoke_format_problem(u->revoke.rec,
	    BS_REVOKE_LEN);

	if (why != NULL)
		return log_errf(err, errlen, "record: %s", why);
	return 0;
}

static int
chk_pin(const union ipc_payload *u, char *err, size_t errlen)
{
	if (ipc_zero(u->pin.pk, BS_PK_LEN))
		return log_errf(err, errlen, "pk is all zero");
	return 0;
}

static int
chk_heartbeat(const union ipc_payload *u, char *err, size_t errlen)
{
	if (u->heartbeat.seq == 0)
		return log_errf(err, errlen, "seq is 0");
	if (u->heartbeat.reserved != 0)
		return log_errf(err, errlen, "reserved field not 0");
	return 0;
}

/* A certificate in its canonical form (the signature is checked later). */
static int
chk_cert(const union ipc_payload *u, char *err, size_t errlen)
{
	const char *why = bs_cert_format_problem(u->cert.cert, BS_CERT_LEN);

	if (why != NULL)
		return log_errf(err, errlen, "certificate: %s", why);
	return 0;
}

static int
chk_pins(const union ipc_payload *u, char *err, size_t errlen)
{
	const struct ipc_pins *p = &u->pins;
	unsigned i, j;

	if (!ipc_zero(p->reserved, sizeof(p->reserved)))
		return log_errf(err, errlen, "reserved field not 0");
	for (i = 0; i < p->count; i++) {
		if (ipc_zero(p->pk[i], BS_PK_LEN))
			return log_errf(err, errlen, "key %u is all zero", i);
		for (j = 0; j < i; j++)
			if (memcmp(p->pk[i], p->pk[j], BS_PK_LEN) == 0)
				return log_errf(err, errlen, "key %u repeats "
				    "key %u", i, j);
	}
	return 0;
}

/* ---- the type table ------------------------------------------------------ */

struct ipc_desc {
	uint16_t type;
	enum ipc_role to;	/* the role that receives it */
	const char *name;
	size_t size;		/* sizeof the payload struct */
	size_t fixed;		/* bytes before the array (size if none) */
	size_t count_off;	/* offset of the count field */
	size_t count_width;	/* 0: fixed-size type; else 1 or 2 bytes */
	const char *count_name;
	size_t unit;		/* array bytes per count */
	size_t count_min, count_max;
	ipc_chk_fn check;
};

#define FIXED(t, role, nm, st, fn) \
	{ t, role, nm, sizeof(st), sizeof(st), 0, 0, NULL, 0, 0, 0, fn }
#define VAR(t, role, nm, st, arr, cnt, unit, lo, hi, fn) \
	{ t, role, nm, sizeof(st), offsetof(st, arr), offsetof(st, cnt), \
	  sizeof(((st *)0)->cnt), #cnt, unit, lo, hi, fn }

static const struct ipc_desc ipc_descs[] = {
	FIXED(IPC_CONFIG, IPC_ROLE_PARSER, "CONFIG", struct ipc_config,
	    chk_config),
	FIXED(IPC_POLICY_BEGIN, IPC_ROLE_PARSER, "POLICY_BEGIN",
	    struct ipc_policy_mark, chk_policy_mark),
	VAR(IPC_POLICY_CHUNK, IPC_ROLE_PARSER, "POLICY_CHUNK",
	    struct ipc_policy_chunk, data, len, 1, 1, IPC_POLICY_CHUNK_MAX,
	    chk_policy_chunk),
	FIXED(IPC_POLICY_END, IPC_ROLE_PARSER, "POLICY_END",
	    struct ipc_policy_mark, chk_policy_mark),
	FIXED(IPC_IFACE, IPC_ROLE_PARSER, "IFACE", struct ipc_iface, chk_iface),
	VAR(IPC_FRAME, IPC_ROLE_PARSER, "FRAME", struct ipc_frame, data, len,
	    1, 1, IPC_FRAME_MAX, chk_frame),
	FIXED(IPC_LINK_KEY, IPC_ROLE_PARSER, "LINK_KEY", struct ipc_link_key,
	    chk_link_key),
	VAR(IPC_PINS, IPC_ROLE_PARSER, "PINS", struct ipc_pins, pk, count,
	    BS_PK_LEN, 1, IPC_PINS_MAX, chk_pins),
	FIXED(IPC_HEARTBEAT, IPC_ROLE_PARSER, "HEARTBEAT", struct ipc_heartbeat,
	    chk_heartbeat),
	FIXED(IPC_LOG, IPC_ROLE_FORWARDER, "LOG", struct ipc_log, chk_log),
	FIXED(IPC_ROUTE_ADD, IPC_ROLE_FORWARDER, "ROUTE_ADD", struct ipc_route,
	    chk_route),
	FIXED(IPC_ROUTE_DEL, IPC_ROLE_FORWARDER, "ROUTE_DEL",
	    struct ipc_route_del, chk_route_del),
	VAR(IPC_ROUTE_ALT, IPC_ROLE_FORWARDER, "ROUTE_ALT",
	    struct ipc_route_alt, c, count, sizeof(struct ipc_route_cand), 0,
	    IPC_ROUTE_ALT_MAX, chk_route_alt),
	FIXED(IPC_NEIGH, IPC_ROLE_FORWARDER, "NEIGH", struct ipc_neigh,
	    chk_neigh),
	FIXED(IPC_LINK_KEY_REQ, IPC_ROLE_FORWARDER, "LINK_KEY_REQ",
	    struct ipc_link_key_req, chk_link_key_req),
	VAR(IPC_TT, IPC_ROLE_FORWARDER, "TT", struct ipc_tt, e, count,
	    sizeof(struct ipc_tt_entry), 0, IPC_TT_MAX, chk_tt),
	FIXED(IPC_GW, IPC_ROLE_FORWARDER, "GW", struct ipc_gw, chk_gw),
	VAR(IPC_MCAST, IPC_ROLE_FORWARDER, "MCAST", struct ipc_mcast, group,
	    count, BS_ADDR_LEN, 0, IPC_MCAST_MAX, chk_mcast),
	FIXED(IPC_DESC_WANT, IPC_ROLE_FORWARDER, "DESC_WANT",
	    struct ipc_desc_want, chk_desc_want),
	FIXED(IPC_HELLO_SIGN, IPC_ROLE_FORWARDER, "HELLO_SIGN",
	    struct ipc_hello_sign, chk_hello_sign),
	VAR(IPC_RELAY, IPC_ROLE_FORWARDER, "RELAY", struct ipc_relay, entry,
	    len, 1, IPC_RELAY_MIN, IPC_RELAY_MAX, chk_relay),
	VAR(IPC_STATS, IPC_ROLE_FORWARDER, "STATS", struct ipc_stats, s, count,
	    sizeof(struct ipc_stat), 1, IPC_STATS_MAX, chk_stats),
	FIXED(IPC_REVOKE, IPC_ROLE_FORWARDER, "REVOKE", struct ipc_revoke,
	    chk_revoke),
	FIXED(IPC_PIN, IPC_ROLE_FORWARDER, "PIN", struct ipc_pin, chk_pin),
	FIXED(IPC_HEARTBEAT_ACK, IPC_ROLE_FORWARDER, "HEARTBEAT_ACK",
	    struct ipc_heartbeat, chk_heartbeat),
	FIXED(IPC_CERT, IPC_ROLE_FORWARDER, "CERT", struct ipc_cert, chk_cert),
};

#undef FIXED
#undef VAR

static const struct ipc_desc *
ipc_desc_find(uint16_t type)
{
	size_t i;

	for (i = 0; i < sizeof(ipc_descs) / sizeof(ipc_descs[0]); i++)
		if (ipc_descs[i].type == type)
			return &ipc_descs[i];
	return NULL;
}

size_t
ipc_obj_size(uint16_t type)
{
	const struct ipc_desc *d = ipc_desc_find(type);

	return d != NULL ? d->size : 0;
}

const char *
ipc_type_name(uint16_t type)
{
	const struct ipc_desc *d = ipc_desc_find(type);

	return d != NULL ? d->name : "unknown";
}

const char *
ipc_stat_name(uint32_t id)
{
#define IPC_STAT_NAME_(sym, num, str)	case num: return str;
	switch (id) {
	IPC_STATS_LIST(IPC_STAT_NAME_)
	default:
		return NULL;
	}
#undef IPC_STAT_NAME_
}

/* The count field of a variable type, read from the payload p. */
static size_t
ipc_count(const struct ipc_desc *d, const void *p)
{
	const uint8_t *b = p;
	uint16_t v16;

	if (d->count_width == 1)
		return b[d->count_off];
	memcpy(&v16, b + d->count_off, sizeof(v16));
	return v16;
}

/*
 * Exact payload length for the type, given a payload (or object) whose
 * fixed part is at p; -1 with err set when the count is out of range.
 */
static int
ipc_want_len(const struct ipc_desc *d, const void *p,
    size_t *want, char *err, size_t errlen)
{
	size_t count;

	if (d->count_width == 0) {
		*want = d->size;
		return 0;
	}
	count = ipc_count(d, p);
	if (count < d->count_min || count > d->count_max)
		return log_errf(err, errlen, "IPC %s: %s %zu out of range "
		    "%zu..%zu", d->name, d->count_name, count, d->count_min,
		    d->count_max);
	*want = d->fixed + count * d->unit;
	return 0;
}

/* The payload's size is exactly what the type and its count say. */
static int
ipc_payload_size_ok(const struct ipc_desc *d, const uint8_t *p,
    size_t len, char *err, size_t errlen)
{
	size_t want;

	if (len < d->fixed)
		return log_errf(err, errlen, "IPC %s: payload of %zu bytes, "
		    "the fixed part alone is %zu", d->name, len, d->fixed);
	if (ipc_want_len(d, p, &want, err, errlen) != 0)
		return -1;
	if (len != want)
		return log_errf(err, errlen, "IPC %s: payload of %zu bytes, "
		    "expected %zu", d->name, len, want);
	return 0;
}

/* Layer 2: size, then the type's field checks on an aligned copy. */
static int
ipc_payload_check(const struct ipc_desc *d, const uint8_t *p,
    size_t len, char *err, size_t errlen)
{
	union ipc_payload u;
	char why[160];

	if (ipc_payload_size_ok(d, p, len, err, errlen) != 0)
		return -1;
	memset(&u, 0, sizeof(u));
	memcpy(&u, p, len);
	if (d->check(&u, why, sizeof(why)) != 0)
		return log_errf(err, errlen, "IPC %s: %s", d->name, why);
	return 0;
}

/* Layers 1 and 2 over the datagram p[0..n). */
static int
ipc_datagram_check(const uint8_t *p, size_t n,
    enum ipc_role receiver, char *err, size_t errlen)
{
	const struct ipc_desc *d;
	struct ipc_hdr h;

	if (n < IPC_HDR_LEN)
		return log_errf(err, errlen, "IPC: datagram of %zu bytes is "
		    "shorter than the %d-byte header", n, IPC_HDR_LEN);
	memcpy(&h, p, sizeof(h));
	if (h.len > IPC_MAX_PAYLOAD)
		return log_errf(err, errlen, "IPC: header len %u exceeds the "
		    "maximum %d", h.len, IPC_MAX_PAYLOAD);
	if (n - IPC_HDR_LEN != h.len)
		return log_errf(err, errlen, "IPC: datagram of %zu bytes, header "
		    "len %u says %zu", n, h.len, (size_t)h.len + IPC_HDR_LEN);
	if (h.reserved != 0)
		return log_errf(err, errlen, "IPC: header reserved field is "
		    "0x%x, not 0", h.reserved);
	if ((d = ipc_desc_find(h.type)) == NULL)
		return log_errf(err, errlen, "IPC: unknown type 0x%04x", h.type);
	if (d->to != receiver)
		return log_errf(err, errlen, "IPC %s: type not accepted in this "
		    "direction", d->name);
	return ipc_payload_check(d, p + IPC_HDR_LEN, h.len, err, errlen);
}

int
ipc_msg_parse(struct ipc_msg *msg, const void *buf, size_t len,
    enum ipc_role receiver, char *err, size_t errlen)
{
	if (ipc_datagram_check(buf, len, receiver, err, errlen) != 0)
		return -1;
	memcpy(msg, buf, len);
	return 0;
}

int
ipc_msg_check(const struct ipc_msg *msg, enum ipc_role receiver,
    char *err, size_t errlen)
{
	if (msg->hdr.len > IPC_MAX_PAYLOAD)
		return log_errf(err, errlen, "IPC: header len %u exceeds the "
		    "maximum %d", msg->hdr.len, IPC_MAX_PAYLOAD);
	return ipc_datagram_check((const uint8_t *)msg,
	    IPC_HDR_LEN + (size_t)msg->hdr.len, receiver, err, errlen);
}

int
ipc_get(const struct ipc_msg *msg, uint16_t type, void *obj,
    size_t objsize)
{
	const struct ipc_desc *d = ipc_desc_find(type);

	if (d == NULL || msg->hdr.type != type || objsize != d->size ||
	    msg->hdr.len > IPC_MAX_PAYLOAD ||
	    ipc_payload_size_ok(d, msg->data, msg->hdr.len, NULL, 0) != 0)
		return -1;
	memcpy(obj, msg->data, msg->hdr.len);
	memset((uint8_t *)obj + msg->hdr.len, 0, objsize - msg->hdr.len);
	return 0;
}

int
ipc_encode(void *buf, size_t cap, uint16_t type, const void *obj,
    size_t objsize, size_t *outlen, char *err, size_t errlen)
{
	const struct ipc_desc *d = ipc_desc_find(type);
	struct ipc_hdr h;
	size_t len;

	if (d == NULL)
		return log_errf(err, errlen, "IPC: unknown type 0x%04x", type);
	if (objsize != d->size)
		return log_errf(err, errlen, "IPC %s: object of %zu bytes, the "
		    "struct is %zu", d->name, objsize, d->size);
	if (ipc_want_len(d, obj, &len, err, errlen) != 0)
		return -1;
	if (cap < IPC_HDR_LEN || cap - IPC_HDR_LEN < len)
		return log_errf(err, errlen, "IPC %s: %zu-byte buffer too "
		    "small", d->name, cap);
	memset(&h, 0, sizeof(h));
	h.type = type;
	h.len = (uint16_t)len;
	memcpy(buf, &h, sizeof(h));
	memcpy((uint8_t *)buf + IPC_HDR_LEN, obj, len);
	*outlen = IPC_HDR_LEN + len;
	return ipc_datagram_check(buf, *outlen, d->to, err, errlen);
}

/* ---- the socket and the outgoing queue ---------------------------------- */

struct ipc_qent {
	struct ipc_qent *next;
	size_t len;
	uint8_t buf[];
};

/* What a queued message counts against queue_max. */
#define IPC_QCOST(len)	(sizeof(struct ipc_qent) + (len))

int
ipc_socketpair(int fds[2])
{
	return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds);
}

int
ipc_init(struct ipc *ipc, int fd, enum ipc_role role, size_t queue_max,
    char *err, size_t errlen)
{
	int type = 0;
	socklen_t tl = sizeof(type);

	memset(ipc, 0, sizeof(*ipc));
	ipc->fd = -1;
	if (role != IPC_ROLE_FORWARDER && role != IPC_ROLE_PARSER)
		return log_errf(err, errlen, "IPC: invalid role %d", (int)role);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0)
		return log_errf(err, errlen, "IPC: fd %d: %s", fd,
		    strerror(errno));
	if (type != SOCK_SEQPACKET)
		return log_errf(err, errlen, "IPC: fd %d is not a SOCK_SEQPACKET "
		    "socket", fd);
	ipc->fd = fd;
	ipc->role = role;
	ipc->queue_max = queue_max != 0 ? queue_max : IPC_QUEUE_DEFAULT;
	return 0;
}

static void
ipc_queue_free(struct ipc *ipc)
{
	struct ipc_qent *q, *next;

	for (q = ipc->head; q != NULL; q = next) {
		next = q->next;
		free(q);
	}
	ipc->head = ipc->tail = NULL;
	ipc->queued = ipc->nqueued = 0;
}

void
ipc_close(struct ipc *ipc)
{
	ipc_queue_free(ipc);
	if (ipc->fd >= 0)
		close(ipc->fd);
	ipc->fd = -1;
}

void
ipc_clear(struct ipc *ipc)
{
	memset(ipc, 0, sizeof(*ipc));
	ipc->fd = -1;
}

int
ipc_fd(const struct ipc *ipc)
{
	return ipc->fd;
}

size_t
ipc_queued(const struct ipc *ipc)
{
	return ipc->queued;
}

const char *
ipc_error(const struct ipc *ipc)
{
	return ipc->err;
}

/* One send attempt: 1 sent, 0 would block, -1 error (errno). */
static int
ipc_try_send(int fd, const uint8_t *buf, size_t len)
{
	ssize_t r;

	do
		r = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
	if ((size_t)r != len) {
		errno = EIO;	/* a SEQPACKET send is all or nothing */
		return -1;
	}
	return 1;
}

static int
ipc_enqueue(struct ipc *ipc, const uint8_t *buf, size_t len)
{
	struct ipc_qent *q;

	if (ipc->queued > ipc->queue_max ||
	    IPC_QCOST(len) > ipc->queue_max - ipc->queued) {
		errno = ENOBUFS;
		return -1;
	}
	if ((q = malloc(sizeof(*q) + len)) == NULL)
		return -1;
	q->next = NULL;
	q->len = len;
	memcpy(q->buf, buf, len);
	if (ipc->tail != NULL)
		ipc->tail->next = q;
	else
		ipc->head = q;
	ipc->tail = q;
	ipc->queued += IPC_QCOST(len);
	ipc->nqueued++;
	return 0;
}

/*
 * Send now when nothing waits (order is kept) and the channel is not
 * corked, else queue a copy.
 */
static int
ipc_send_datagram(struct ipc *ipc, const uint8_t *buf, size_t len)
{
	int r;

	if (ipc->fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (ipc->head == NULL && !ipc->corked) {
		r = ipc_try_send(ipc->fd, buf, len);
		if (r != 0)
			return r > 0 ? 0 : -1;
	}
	if (ipc->corked && ipc->nqueued == IPC_CORK_MAX && ipc_flush(ipc) < 0)
		return -1;
	return ipc_enqueue(ipc, buf, len);
}

static enum ipc_role
ipc_peer_role(enum ipc_role role)
{
	return role == IPC_ROLE_FORWARDER ? IPC_ROLE_PARSER : IPC_ROLE_FORWARDER;
}

int
ipc_send(struct ipc *ipc, uint16_t type, const void *obj, size_t objsize)
{
	const struct ipc_desc *d = ipc_desc_find(type);
	uint8_t buf[IPC_MAX_MSG];
	size_t len;

	if (d != NULL && d->to != ipc_peer_role(ipc->role)) {
		log_errf(ipc->err, sizeof(ipc->err), "IPC %s: this end may not "
		    "send it", d->name);
		errno = EINVAL;
		return -1;
	}
	if (ipc_encode(buf, sizeof(buf), type, obj, objsize, &len, ipc->err,
	    sizeof(ipc->err)) != 0) {
		errno = EINVAL;
		return -1;
	}
	return ipc_send_datagram(ipc, buf, len);
}

/*
 * Up to IPC_CORK_MAX queued messages per sendmmsg(2).  After a short
 * count the loop calls again: that call says why (would block, or the
 * error that stopped the first).
 */
int
ipc_flush(struct ipc *ipc)
{
	struct mmsghdr mm[IPC_CORK_MAX];
	struct iovec iov[IPC_CORK_MAX];
	struct ipc_qent *q;
	unsigned n;
	int i, r;

	while (ipc->head != NULL) {
		memset(mm, 0, sizeof(mm));
		for (n = 0, q = ipc->head; q != NULL && n < IPC_CORK_MAX;
		    q = q->next, n++) {
			iov[n].iov_base = q->buf;
			iov[n].iov_len = q->len;
			mm[n].msg_hdr.msg_iov = &iov[n];
			mm[n].msg_hdr.msg_iovlen = 1;
		}
		do
			r = sendmmsg(ipc->fd, mm, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return (errno == EAGAIN || errno == EWOULDBLOCK) ? 1 : -1;
		for (i = 0; i < r; i++) {
			q = ipc->head;
			if (mm[i].msg_len != q->len) {
				errno = EIO;	/* all or nothing on SEQPACKET */
				return -1;
			}
			ipc->head = q->next;
			if (ipc->head == NULL)
				ipc->tail = NULL;
			ipc->queued -= IPC_QCOST(q->len);
			ipc->nqueued--;
			free(q);
		}
	}
	return 0;
}

void
ipc_cork(struct ipc *ipc)
{
	ipc->corked = 1;
}

int
ipc_uncork(struct ipc *ipc)
{
	ipc->corked = 0;
	return ipc_flush(ipc);
}

int
ipc_flush_wait(struct ipc *ipc, int timeout_ms)
{
	struct pollfd pfd = { .fd = ipc->fd, .events = POLLOUT };
	uint64_t end = log_now_ms() + (uint64_t)(timeout_ms > 0 ?
	    timeout_ms : 0), now;
	int r;

	while ((r = ipc_flush(ipc)) == 1) {
		if ((now = log_now_ms()) >= end)
			return 1;
		if (poll(&pfd, 1, (int)(end - now)) < 0 && errno != EINTR)
			return -1;
	}
	return r;
}

int
ipc_pending(const struct ipc *ipc)
{
	return ipc->head != NULL;
}

short
ipc_poll_events(const struct ipc *ipc)
{
	return (short)(POLLIN | (ipc->head != NULL ? POLLOUT : 0));
}

int
ipc_recv(struct ipc *ipc, struct ipc_msg *msg, char *err, size_t errlen)
{
	struct iovec iov = { .iov_base = msg, .iov_len = sizeof(*msg) };
	struct msghdr mh;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	do
		n = recvmsg(ipc->fd, &mh, MSG_DONTWAIT | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return IPC_RECV_NONE;
		if (errno == ECONNRESET)
			return IPC_RECV_EOF;
		log_errf(err, errlen, "IPC: recvmsg: %s", strerror(errno));
		return IPC_RECV_BAD;
	}
	if (n == 0)
		return IPC_RECV_EOF;
	if (mh.msg_flags & MSG_CTRUNC) {
		log_errf(err, errlen, "IPC: message carried ancillary data");
		return IPC_RECV_BAD;
	}
	if ((mh.msg_flags & MSG_TRUNC) || (size_t)n > sizeof(*msg)) {
		log_errf(err, errlen, "IPC: datagram of %zd bytes exceeds the "
		    "maximum %d", n, IPC_MAX_MSG);
		return IPC_RECV_BAD;
	}
	if (ipc_datagram_check((const uint8_t *)msg, (size_t)n,
	    ipc->role, err, errlen) != 0)
		return IPC_RECV_BAD;
	return IPC_RECV_MSG;
}

/* ---- LOG ------------------------------------------------------------------ */

int
ipc_logf(struct ipc *ipc, int level, const char *fmt, ...)
{
	struct ipc_log l;
	va_list ap;
	size_t i;

	memset(&l, 0, sizeof(l));
	l.level = (uint8_t)(level >= 0 && level <= 255 ? level : 0);
	va_start(ap, fmt);
	vsnprintf(l.text, sizeof(l.text), fmt, ap);
	va_end(ap);
	for (i = 0; i < sizeof(l.text) && l.text[i] != '\0'; i++)
		if (l.text[i] < 0x20 || l.text[i] > 0x7e)
			l.text[i] = '?';
	return ipc_send(ipc, IPC_LOG, &l, sizeof(l));
}

/* ---- policy snapshots ------------------------------------------------------ */

int
ipc_send_policy(struct ipc *ipc, uint32_t serial, const uint8_t *data,
    size_t len)
{
	struct ipc_policy_mark mark = { .serial = serial };
	struct ipc_policy_chunk c;
	size_t nchunks, need, off;

	if (ipc->role != IPC_ROLE_FORWARDER) {
		errno = EINVAL;
		return -1;
	}
	if (len > IPC_POLICY_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	nchunks = (len + IPC_POLICY_CHUNK_MAX - 1) / IPC_POLICY_CHUNK_MAX;
	need = 2 * IPC_QCOST(IPC_HDR_LEN + sizeof(mark)) +
	    nchunks * IPC_QCOST(IPC_HDR_LEN + offsetof(struct ipc_policy_chunk,
	    data)) + len;
	if (ipc->queued > ipc->queue_max ||
	    need > ipc->queue_max - ipc->queued) {
		errno = ENOBUFS;
		return -1;
	}
	mark.total = (uint32_t)len;
	if (ipc_send(ipc, IPC_POLICY_BEGIN, &mark, sizeof(mark)) != 0)
		return -1;
	memset(&c, 0, sizeof(c));
	c.serial = serial;
	for (off = 0; off < len; off += c.len) {
		c.offset = (uint32_t)off;
		c.len = (uint16_t)(len - off < IPC_POLICY_CHUNK_MAX ?
		    len - off : IPC_POLICY_CHUNK_MAX);
		memcpy(c.data, data + off, c.len);
		if (ipc_send(ipc, IPC_POLICY_CHUNK, &c, sizeof(c)) != 0)
			return -1;
	}
	return ipc_send(ipc, IPC_POLICY_END, &mark, sizeof(mark));
}

void
ipc_snap_init(struct ipc_snap *s)
{
	memset(s, 0, sizeof(*s));
}

void
ipc_snap_free(struct ipc_snap *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

static int
ipc_snap_begin(struct ipc_snap *s, const struct ipc_msg *msg,
    char *err, size_t errlen)
{
	struct ipc_policy_mark m;

	ipc_snap_free(s);
	if (ipc_get(msg, IPC_POLICY_BEGIN, &m, sizeof(m)) != 0 ||
	    m.total > IPC_POLICY_MAX)
		return log_errf(err, errlen, "IPC POLICY_BEGIN: malformed");
	if ((s->buf = malloc(m.total != 0 ? m.total : 1)) == NULL)
		return log_errf(err, errlen, "IPC POLICY_BEGIN: cannot allocate "
		    "%u bytes", m.total);
	s->serial = m.serial;
	s->total = m.total;
	s->active = 1;
	return 0;
}

static int
ipc_snap_chunk(struct ipc_snap *s, const struct ipc_msg *msg,
    char *err, size_t errlen)
{
	struct ipc_policy_chunk c;

	if (ipc_get(msg, IPC_POLICY_CHUNK, &c, sizeof(c)) != 0)
		return log_errf(err, errlen, "IPC POLICY_CHUNK: malformed");
	if (c.serial != s->serial)
		return log_errf(err, errlen, "IPC POLICY_CHUNK: serial %u, "
		    "snapshot %u is in progress", c.serial, s->serial);
	if (c.offset != s->got)
		return log_errf(err, errlen, "IPC POLICY_CHUNK: offset %u, "
		    "expected %u", c.offset, s->got);
	if (c.len > s->total - s->got)
		return log_errf(err, errlen, "IPC POLICY_CHUNK: %u bytes at %u "
		    "pass the total of %u", c.len, c.offset, s->total);
	memcpy(s->buf + s->got, c.data, c.len);
	s->got += c.len;
	return 0;
}

static int
ipc_snap_end(struct ipc_snap *s, const struct ipc_msg *msg,
    char *err, size_t errlen)
{
	struct ipc_policy_mark m;

	if (ipc_get(msg, IPC_POLICY_END, &m, sizeof(m)) != 0)
		return log_errf(err, errlen, "IPC POLICY_END: malformed");
	if (m.serial != s->serial || m.total != s->total)
		return log_errf(err, errlen, "IPC POLICY_END: serial %u total %u "
		    "does not match BEGIN (%u, %u)", m.serial, m.total,
		    s->serial, s->total);
	if (s->got != s->total)
		return log_errf(err, errlen, "IPC POLICY_END: only %u of %u "
		    "bytes arrived", s->got, s->total);
	s->active = 0;
	return 1;
}

int
ipc_snap_feed(struct ipc_snap *s, const struct ipc_msg *msg, char *err,
    size_t errlen)
{
	int r;

	if (!s->active)
		ipc_snap_free(s);	/* a completed snapshot lives until now */
	switch (msg->hdr.type) {
	case IPC_POLICY_BEGIN:
		r = ipc_snap_begin(s, msg, err, errlen);
		break;
	case IPC_POLICY_CHUNK:
	case IPC_POLICY_END:
		if (!s->active) {
			r = log_errf(err, errlen, "IPC %s: no snapshot in "
			    "progress", ipc_type_name(msg->hdr.type));
			break;
		}
		r = msg->hdr.type == IPC_POLICY_CHUNK ?
		    ipc_snap_chunk(s, msg, err, errlen) :
		    ipc_snap_end(s, msg, err, errlen);
		break;
	default:
		r = log_errf(err, errlen, "IPC %s: not a policy message",
		    ipc_type_name(msg->hdr.type));
	}
	if (r < 0)
		ipc_snap_free(s);
	return r;
}
