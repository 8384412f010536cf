/*
 * fwd_fast.c — the forwarder's side of the in-kernel UNICAST relay
 * (fastpath.h): load it at the start, attach it to a mesh interface once
 * UNICASTs for other originators pass through it (fwd_fast_tick), keep
 * its maps equal to what the user-space relay would use
 * (fwd_data_next_hop(): a route whose next hop is a neighbour on an up
 * interface), and take its counters into the forwarder's own.
 *
 * It is attached with a tcx link where the kernel has them (Linux 6.6 and
 * newer) and as a tc filter (clsact, cls_bpf in direct-action mode,
 * netlink.h) where it does not, or always with fast-path tc.  A link goes
 * with the process; a filter stays, so it is removed when the interface
 * goes or the daemon stops, one left by a killed batsecd is removed when
 * the interface is first seen, and the program relays nothing unless the
 * forwarder renewed its deadline in the last FWD_FAST_ALIVE_MS.
 *
 * While it is attached anywhere, a new, moved or deleted route is written to the map at once
 * (fwd_fast_route_changed).  Everything else the maps mirror (a
 * neighbour come, gone, with a new MAC or a new hop key, an interface
 * event, routes expired, a parser restart) sets f->fast_dirty, and the
 * maps are brought up to date at the end of that loop round.  The
 * counters are taken once a second and before the control socket shows
 * them; that round also writes a neighbour's hop key afresh where the map
 * has another one (whoever changed it forgot fast_dirty), so a key is
 * never more than a second stale.
 *
 * Hop keys: each neighbour entry carries the neighbour's hop key and key
 * id (struct fwd_hop, DP2.md); one without (has_key 0) is in the map
 * without a key, and the program relays nothing from or to it.  The
 * program's replay windows are keyed by the key id, so a new key starts
 * new windows; sync deletes those of keys no longer in use.  The
 * frames the program dropped as replays are counted in f->fast_replays.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "common/log.h"
#include "fwd_data.h"
#include "fwd_fast.h"
#include "fwd_iface.h"
#include "fwd_tables.h"
#include "fwd_types.h"
#include "netio/netlink.h"

_Static_assert(FASTPATH_NEIGH_MAX >= FWD_NEIGH_MAX, "every neighbour");
_Static_assert(FASTPATH_ROUTES_MAX >= FWD_ROUTE_MAX, "every route");
_Static_assert(FASTPATH_IFACES_MAX >= BS_CONF_MAX_IFACES, "every iface");
_Static_assert(FASTPATH_ADDR_LEN == BS_ADDR_LEN, "addresses");
_Static_assert(FASTPATH_LANES == FWD_HOP_LANES, "the receivers' lanes");

void
fwd_fast_start(struct fwd *f)
{
	char err[256];

	fastpath_init(&f->fast);
	if (f->cfg.fast_path == BS_FAST_OFF) {
		log_info("in-kernel relay off (fast-path off)");
		return;
	}
	f->fast_tc = f->cfg.fast_path == BS_FAST_TC;
	if (fastpath_open(&f->fast, f->cfg.ethertype, f->own_addr, err,
	    sizeof(err)) != 0) {
		log_warn("in-kernel relay unavailable, relaying in batsecd: "
		    "%s", err);
		return;
	}
	log_debug("in-kernel relay loaded");
}

void
fwd_fast_stop(struct fwd *f)
{
	size_t i;

	for (i = 0; i < f->ifs.n; i++)
		fwd_fast_if_down(f, &f->ifs.v[i]);
	fastpath_close(&f->fast);
}

int
fwd_fast_attached(const struct fwd_iface *v)
{
	return v->fast_link >= 0 || v->fast_tc;
}

/* 1 while the program is attached somewhere: the maps matter. */
static int
fwd_fast_active(const struct fwd *f)
{
	size_t i;

	if (!fastpath_loaded(&f->fast) || f->tables == NULL)
		return 0;
	for (i = 0; i < f->ifs.n; i++)
		if (fwd_fast_attached(&f->ifs.v[i]))
			return 1;
	return 0;
}

/* The program may relay for FWD_FAST_ALIVE_MS from now. */
static int
fwd_fast_keep_alive(struct fwd *f)
{
	if (fastpath_alive(&f->fast, fastpath_now_ns() +
	    (uint64_t)FWD_FAST_ALIVE_MS * 1000000u) == 0)
		return 0;
	log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: renewing its "
	    "deadline: %s", strerror(errno));
	return -1;
}

/* As a tc filter: 0, or -1 with errno (logged by the caller). */
static int
fwd_fast_attach_tc(struct fwd *f, struct fwd_iface *v)
{
	if (nl_tc_bpf_attach(f->nl, v->ifindex, f->fast.prog_fd,
	    FWD_FAST_TC_NAME, FWD_FAST_TC_PRIO, f->cfg.ethertype) != 0)
		return -1;
	v->fast_tc = 1;
	return 0;
}

static void
fwd_fast_if_up(struct fwd *f, struct fwd_iface *v)
{
	const char *how = "a tcx link";
	int saved;

	if (fwd_fast_keep_alive(f) != 0) {
		v->fast_refused = 1;
		return;
	}
	if (!f->fast_tc &&
	    (v->fast_link = fastpath_attach(&f->fast, v->ifindex)) < 0 &&
	    errno == EINVAL && f->cfg.fast_path == BS_FAST_ON) {
		/* Linux before 6.6 knows no tcx attach type. */
		log_info("no tcx links in this kernel: the in-kernel relay "
		    "is attached as tc filters");
		f->fast_tc = 1;
	}
	if (f->fast_tc) {
		how = "a tc filter";
		if (fwd_fast_attach_tc(f, v) != 0) {
			saved = errno;
			log_warn("mesh interface %s: attaching the in-kernel "
			    "relay as a tc filter: %s%s%s; its frames are "
			    "relayed in batsecd", v->name, strerror(saved),
			    nl_errmsg(f->nl)[0] != '\0' ? ": " : "",
			    nl_errmsg(f->nl));
			v->fast_refused = 1;
			return;
		}
	} else if (v->fast_link < 0) {
		log_warn("mesh interface %s: attaching the in-kernel relay: "
		    "%s; its frames are relayed in batsecd", v->name,
		    strerror(errno));
		v->fast_refused = 1;
		return;
	}
	log_info("mesh interface %s: busy, relaying through the kernel (%s)",
	    v->name, how);
	f->fast_dirty = 1;
}

void
fwd_fast_if_down(struct fwd *f, struct fwd_iface *v)
{
	v->fast_refused = 0;
	v->fast_rx_mark = 0;
	if (v->fast_tc) {
		/* Gone with the interface, or to be removed. */
		if (nl_tc_bpf_detach(f->nl, v->ifindex, FWD_FAST_TC_PRIO) != 0 &&
		    errno != ENODEV && errno != ENOENT)
			log_warn("mesh interface %s: removing the in-kernel "
			    "relay's tc filter: %s", v->name, strerror(errno));
		v->fast_tc = 0;
		f->fast_dirty = 1;
	}
	if (v->fast_link < 0)
		return;
	(void)close(v->fast_link);
	v->fast_link = -1;
	f->fast_dirty = 1;
}

/*
 * A filter of ours on an interface we have not attached to was left by a
 * batsecd that did not stop (killed, crashed): its deadline has passed,
 * so it relays nothing, but it is removed, whatever fast-path says now.
 */
static void
fwd_fast_sweep(struct fwd *f, struct fwd_iface *v)
{
	v->fast_swept = 1;
	if (fwd_fast_attached(v) ||
	    nl_tc_bpf_detach(f->nl, v->ifindex, FWD_FAST_TC_PRIO) != 0)
		return;
	log_info("mesh interface %s: removed the in-kernel relay's tc filter "
	    "an earlier batsecd left", v->name);
}

/*
 * Once a second: attach the program to an open interface that brought
 * FWD_FAST_ATTACH_FPS UNICASTs for other originators or more since the
 * last look (broadcasts, frames for us and control frames do not
 * count: the program would not take them off the forwarder).  Lazily,
 * because a tcx attach waits for an RCU grace period (10 to 30 ms here,
 * much more on a loaded machine) and so delays a start; the program
 * stays attached until the interface goes.
 */
void
fwd_fast_tick(struct fwd *f)
{
	struct fwd_iface *v;
	uint64_t rx;
	size_t i;

	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (!v->fast_swept && v->ifindex > 0 && v->rs.fd >= 0)
			fwd_fast_sweep(f, v);
	}
	if (!fastpath_loaded(&f->fast) || f->data == NULL)
		return;
	if (fwd_fast_active(f))
		(void)fwd_fast_keep_alive(f);
	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (fwd_fast_attached(v) || v->fast_refused ||
		    !fwd_iface_usable(v))
			continue;
		/* The mark is the count + 1: 0 is "not looked yet". */
		rx = fwd_data_iface_transit(f->data, (uint32_t)v->ifindex) + 1;
		if (v->fast_rx_mark != 0 && rx >= v->fast_rx_mark &&
		    rx - v->fast_rx_mark >= FWD_FAST_ATTACH_FPS)
			fwd_fast_if_up(f, v);
		v->fast_rx_mark = rx;
	}
	fwd_fast_fold(f);
}

/* The interface the relay may receive on or send on, or NULL. */
static const struct fwd_iface *
fwd_fast_iface(struct fwd *f, uint32_t ifindex)
{
	return fwd_iface_usable_by_index(&f->ifs, ifindex);
}

static int
fwd_fast_nonzero(const struct fastpath_count *c)
{
	return (c->rx_frames | c->tx_frames | c->drop_replay) != 0;
}

/* The neighbour's hop key for the map, or NULL when it has none. */
static const struct fastpath_hop *
fwd_fast_hop(const struct fwd_neigh *n, struct fastpath_hop *h)
{
	_Static_assert(sizeof(h->key) == sizeof(n->hop.key), "hop key");
	_Static_assert(sizeof(h->keyid) == sizeof(n->hop.keyid), "keyid");

	if (!n->hop.has_key)
		return NULL;
	memcpy(h->key, n->hop.key, sizeof(h->key));
	memcpy(h->keyid, n->hop.keyid, sizeof(h->keyid));
	return h;
}

/* What an interface entry counted, into the forwarder's counters. */
static void
fwd_fast_count_iface(struct fwd *f, uint32_t ifindex,
    const struct fastpath_count *c)
{
	f->fast_frames += c->rx_frames;
	if (f->data != NULL)
		fwd_data_count_relayed(f->data, ifindex, NULL, c->rx_frames,
		    c->rx_bytes, c->tx_frames, c->tx_bytes);
}

static void
fwd_fast_count_neigh(struct fwd *f, uint32_t ifindex, const uint8_t *mac,
    const struct fastpath_count *c)
{
	struct fwd_neigh *n = fwd_neigh_find_mac(f->tables, mac, ifindex);

	f->fast_replays += c->drop_replay;
	if (n != NULL && f->data != NULL)
		fwd_data_count_relayed(f->data, 0, n, c->rx_frames,
		    c->rx_bytes, c->tx_frames, c->tx_bytes);
}

/* Interface v's entry written afresh (MAC, MTU), its counts taken. */
static void
fwd_fast_iface_renew(struct fwd *f, const struct fwd_iface *v)
{
	struct fastpath_count c;

	if (fastpath_iface_take(&f->fast, (uint32_t)v->ifindex, &c) == 0)
		fwd_fast_count_iface(f, (uint32_t)v->ifindex, &c);
	if (fastpath_iface_add(&f->fast, (uint32_t)v->ifindex, v->mac,
	    v->mtu) != 0)
		log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: "
		    "interface %s: %s", v->name, strerror(errno));
}

/*
 * The counts: once a second and before they are shown.  One lookup per
 * interface and neighbour in use; an entry is taken and written afresh
 * only when it counted something (a lookup and delete, then an insert:
 * frames in between go up to the forwarder, which counts them itself).
 */
void
fwd_fast_fold(struct fwd *f)
{
	struct fastpath_count c;
	struct fastpath_hop h, cur;
	const struct fastpath_hop *want;
	const struct fwd_iface *v;
	struct fwd_neigh *n;
	size_t i, cursor = 0;
	int has;

	if (!fwd_fast_active(f))
		return;
	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (fwd_fast_iface(f, (uint32_t)v->ifindex) == v &&
		    fastpath_iface_get(&f->fast, (uint32_t)v->ifindex,
		    &c) == 0 && fwd_fast_nonzero(&c))
			fwd_fast_iface_renew(f, v);
	}
	while ((n = fwd_neigh_next(f->tables, 0, &cursor)) != NULL) {
		want = fwd_fast_hop(n, &h);
		has = fastpath_neigh_hop(&f->fast, n->ifindex, n->mac, &cur);
		if (has >= 0 && (has != (want != NULL) || (want != NULL &&
		    memcmp(&cur, want, sizeof(cur)) != 0))) {
			/* A key changed without fast_dirty: now. */
			if (fastpath_neigh_add(&f->fast, n->ifindex, n->mac,
			    want, &c) == 0)
				fwd_fast_count_neigh(f, n->ifindex, n->mac, &c);
			f->fast_dirty = 1;	/* its old windows go */
		}
		sodium_memzero(&cur, sizeof(cur));
		if (fastpath_neigh_get(&f->fast, n->ifindex, n->mac, &c) != 0 ||
		    !fwd_fast_nonzero(&c) ||
		    fastpath_neigh_take(&f->fast, n->ifindex, n->mac, &c) != 0)
			continue;
		fwd_fast_count_neigh(f, n->ifindex, n->mac, &c);
		(void)fastpath_neigh_add(&f->fast, n->ifindex, n->mac, want,
		    NULL);
	}
	sodium_memzero(&h, sizeof(h));
}

/* Interfaces: entries for those in use (written afresh), none for others. */
static void
fwd_fast_sync_ifaces(struct fwd *f)
{
	uint32_t keys[FASTPATH_IFACES_MAX];
	struct fastpath_count c;
	const struct fwd_iface *v;
	size_t n, i;

	n = fastpath_iface_keys(&f->fast, keys, FASTPATH_IFACES_MAX);
	for (i = 0; i < n; i++)
		if (fwd_fast_iface(f, keys[i]) == NULL &&
		    fastpath_iface_take(&f->fast, keys[i], &c) == 0)
			fwd_fast_count_iface(f, keys[i], &c);
	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (fwd_fast_iface(f, (uint32_t)v->ifindex) == v)
			fwd_fast_iface_renew(f, v);
	}
}

/* Neighbours: an entry for each one on an interface in use, no other. */
static void
fwd_fast_sync_neigh(struct fwd *f)
{
	static struct fastpath_neigh_key keys[FASTPATH_NEIGH_MAX];
	struct fastpath_count c;
	struct fastpath_hop h;
	struct fwd_neigh *n;
	size_t k, i, cursor = 0;

	k = fastpath_neigh_keys(&f->fast, keys, FASTPATH_NEIGH_MAX);
	for (i = 0; i < k; i++) {
		n = fwd_neigh_find_mac(f->tables, keys[i].mac, keys[i].ifindex);
		if (n != NULL && fwd_fast_iface(f, n->ifindex) != NULL)
			continue;
		if (fastpath_neigh_take(&f->fast, keys[i].ifindex, keys[i].mac,
		    &c) == 0)
			fwd_fast_count_neigh(f, keys[i].ifindex, keys[i].mac,
			    &c);
	}
	while ((n = fwd_neigh_next(f->tables, 0, &cursor)) != NULL) {
		if (fwd_fast_iface(f, n->ifindex) == NULL)
			continue;
		/* With its hop key; one with another key is replaced. */
		if (fastpath_neigh_add(&f->fast, n->ifindex, n->mac,
		    fwd_fast_hop(n, &h), &c) != 0)
			log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: "
			    "neighbour: %s", strerror(errno));
		else if (fwd_fast_nonzero(&c))
			fwd_fast_count_neigh(f, n->ifindex, n->mac, &c);
	}
	sodium_memzero(&h, sizeof(h));
}

/* Replay windows: only those of a neighbour in the map under its current
 * hop key id. */
static void
fwd_fast_sync_replay(struct fwd *f)
{
	static struct fastpath_replay_key keys[FASTPATH_REPLAY_MAX];
	const struct fwd_neigh *n;
	size_t k, i;

	k = fastpath_replay_keys(&f->fast, keys, FASTPATH_REPLAY_MAX);
	for (i = 0; i < k; i++) {
		n = fwd_neigh_find_mac(f->tables, keys[i].mac, keys[i].ifindex);
		if (n != NULL && n->hop.has_key &&
		    fwd_fast_iface(f, n->ifindex) != NULL &&
		    memcmp(n->hop.keyid, keys[i].keyid,
		    sizeof(keys[i].keyid)) == 0)
			continue;
		(void)fastpath_replay_del(&f->fast, &keys[i]);
	}
}

/*
 * What the relay should do for orig: 1 with the out interface and the
 * next hop's MAC, 0 when user space is to handle it (as
 * fwd_data_next_hop() would find no usable route).
 */
static int
fwd_fast_route_want(struct fwd *f, const uint8_t *orig, uint32_t *ifindex,
    uint8_t mac[static BS_ADDR_LEN])
{
	const struct fwd_route *r = fwd_route_find(f->tables, orig);
	const struct fwd_neigh *nh;

	if (r == NULL || fwd_fast_iface(f, r->ifindex) == NULL ||
	    (nh = fwd_neigh_find(f->tables, r->nexthop, r->ifindex)) == NULL)
		return 0;
	*ifindex = r->ifindex;
	memcpy(mac, nh->mac, BS_ADDR_LEN);
	return 1;
}

/* Route orig in the map as fwd_fast_route_want() says. */
static void
fwd_fast_route_put(struct fwd *f, const uint8_t *orig)
{
	uint8_t mac[BS_ADDR_LEN], cur_mac[BS_ADDR_LEN];
	uint32_t ifindex, cur_if;

	if (!fwd_fast_route_want(f, orig, &ifindex, mac)) {
		(void)fastpath_route_del(&f->fast, orig);
		return;
	}
	if (fastpath_route_get(&f->fast, orig, &cur_if, cur_mac) == 0 &&
	    cur_if == ifindex && memcmp(cur_mac, mac, BS_ADDR_LEN) == 0)
		return;
	if (fastpath_route_set(&f->fast, orig, ifindex, mac) != 0)
		log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: route: "
		    "%s", strerror(errno));
}

static void
fwd_fast_sync_routes(struct fwd *f)
{
	static uint8_t keys[FASTPATH_ROUTES_MAX][BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN];
	uint32_t ifindex;
	const struct fwd_route *r;
	size_t n, i, cursor = 0;

	n = fastpath_route_keys(&f->fast, &keys[0][0], FASTPATH_ROUTES_MAX);
	for (i = 0; i < n; i++)
		if (!fwd_fast_route_want(f, keys[i], &ifindex, mac))
			(void)fastpath_route_del(&f->fast, keys[i]);
	while ((r = fwd_route_next(f->tables, &cursor)) != NULL)
		fwd_fast_route_put(f, r->orig_addr);
}

void
fwd_fast_sync(struct fwd *f)
{
	if (!f->fast_dirty)
		return;
	f->fast_dirty = 0;
	if (!fwd_fast_active(f))
		return;
	fwd_fast_sync_ifaces(f);
	fwd_fast_sync_neigh(f);
	fwd_fast_sync_replay(f);
	fwd_fast_sync_routes(f);
}

void
fwd_fast_route_changed(struct fwd *f, const uint8_t *orig)
{
	if (!f->fast_dirty && fwd_fast_active(f))
		fwd_fast_route_put(f, orig);
}

int
fwd_fast_route_moved(const struct fwd *f, const uint8_t *orig,
    const uint8_t *nexthop, uint32_t ifindex)
{
	const struct fwd_route *r;

	if (f->tables == NULL)
		return 0;
	r = fwd_route_find(f->tables, orig);
	return r == NULL || r->ifindex != ifindex ||
	    memcmp(r->nexthop, nexthop, BS_ADDR_LEN) != 0;
}
