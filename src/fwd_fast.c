/*
 * fwd_fast.c — the forwarder's side of the in-kernel UNICAST relay
 * (fastpath.h): load it at the start, attach it to every open mesh
 * interface, keep its maps equal to what the user-space relay would use
 * (fwd_data_next_hop(): a route whose next hop is a neighbour on an up
 * interface), and take its counters into the forwarder's own.
 *
 * The maps are brought up to date when something they mirror changed
 * (f->fast_dirty: a new or moved route, a route gone, a neighbour come,
 * changed or gone, an interface event), at the end of the loop round
 * that changed it, and the counters are taken once a second and before
 * the control socket shows them.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "forwarder.h"
#include "fwd_data.h"
#include "fwd_tables.h"
#include "log.h"

_Static_assert(FASTPATH_NEIGH_MAX >= FWD_NEIGH_MAX, "every neighbour");
_Static_assert(FASTPATH_ROUTES_MAX >= FWD_ROUTE_MAX, "every route");
_Static_assert(FASTPATH_IFACES_MAX >= BS_CONF_MAX_IFACES, "every iface");
_Static_assert(FASTPATH_ADDR_LEN == BS_ADDR_LEN, "addresses");

void
fwd_fast_start(struct fwd *f)
{
	char err[256];

	fastpath_init(&f->fast);
	if (!f->cfg.fast_path) {
		log_info("in-kernel relay off (fast-path off)");
		return;
	}
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

void
fwd_fast_if_up(struct fwd *f, struct fwd_iface *v)
{
	if (!fastpath_loaded(&f->fast) || v->fast_link >= 0)
		return;
	if ((v->fast_link = fastpath_attach(&f->fast, v->ifindex)) < 0)
		log_warn("mesh interface %s: attaching the in-kernel relay: "
		    "%s; its frames are relayed in batsecd", v->name,
		    strerror(errno));
	f->fast_dirty = 1;
}

void
fwd_fast_if_down(struct fwd *f, struct fwd_iface *v)
{
	if (v->fast_link < 0)
		return;
	(void)close(v->fast_link);
	v->fast_link = -1;
	f->fast_dirty = 1;
}

/* The interface the relay may use to send on ifindex, or NULL. */
static const struct fwd_iface *
fwd_fast_iface(const struct fwd *f, uint32_t ifindex)
{
	const struct fwd_iface *v;
	size_t i;

	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (v->ifindex > 0 && (uint32_t)v->ifindex == ifindex &&
		    v->running && v->rs.fd >= 0 && v->fast_link >= 0)
			return v;
	}
	return NULL;
}

/* Interfaces: counters taken, entries written afresh for those in use. */
static void
fwd_fast_fold_ifaces(struct fwd *f)
{
	uint32_t keys[FASTPATH_IFACES_MAX];
	struct fastpath_count c;
	const struct fwd_iface *v;
	size_t n, i;

	n = fastpath_iface_keys(&f->fast, keys, FASTPATH_IFACES_MAX);
	for (i = 0; i < n; i++) {
		if (fastpath_iface_take(&f->fast, keys[i], &c) != 0)
			continue;
		f->fast_frames += c.rx_frames;
		if (f->data != NULL)
			fwd_data_count_relayed(f->data, keys[i], NULL,
			    c.rx_frames, c.rx_bytes, c.tx_frames, c.tx_bytes);
	}
	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (fwd_fast_iface(f, (uint32_t)v->ifindex) == v &&
		    fastpath_iface_add(&f->fast, (uint32_t)v->ifindex, v->mac,
		    v->mtu) != 0)
			log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: "
			    "interface %s: %s", v->name, strerror(errno));
	}
}

/* Neighbours: the same. */
static void
fwd_fast_fold_neigh(struct fwd *f)
{
	static struct fastpath_neigh_key keys[FASTPATH_NEIGH_MAX];
	struct fastpath_count c;
	struct fwd_neigh *n;
	size_t k, i, cursor = 0;

	k = fastpath_neigh_keys(&f->fast, keys, FASTPATH_NEIGH_MAX);
	for (i = 0; i < k; i++) {
		if (fastpath_neigh_take(&f->fast, keys[i].ifindex, keys[i].mac,
		    &c) != 0)
			continue;
		n = fwd_neigh_find_mac(f->tables, keys[i].mac,
		    keys[i].ifindex);
		if (n != NULL && f->data != NULL)
			fwd_data_count_relayed(f->data, 0, n, c.rx_frames,
			    c.rx_bytes, c.tx_frames, c.tx_bytes);
	}
	while ((n = fwd_neigh_next(f->tables, 0, &cursor)) != NULL)
		if (fwd_fast_iface(f, n->ifindex) != NULL &&
		    fastpath_neigh_add(&f->fast, n->ifindex, n->mac) != 0)
			log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: "
			    "neighbour: %s", strerror(errno));
}

void
fwd_fast_fold(struct fwd *f)
{
	if (!fastpath_loaded(&f->fast) || f->tables == NULL)
		return;
	fwd_fast_fold_ifaces(f);
	fwd_fast_fold_neigh(f);
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

static void
fwd_fast_sync_routes(struct fwd *f)
{
	static uint8_t keys[FASTPATH_ROUTES_MAX][BS_ADDR_LEN];
	uint8_t mac[BS_ADDR_LEN], cur_mac[BS_ADDR_LEN];
	uint32_t ifindex, cur_if;
	const struct fwd_route *r;
	size_t n, i, cursor = 0;

	n = fastpath_route_keys(&f->fast, &keys[0][0], FASTPATH_ROUTES_MAX);
	for (i = 0; i < n; i++)
		if (!fwd_fast_route_want(f, keys[i], &ifindex, mac))
			(void)fastpath_route_del(&f->fast, keys[i]);
	while ((r = fwd_route_next(f->tables, &cursor)) != NULL) {
		if (!fwd_fast_route_want(f, r->orig_addr, &ifindex, mac))
			continue;
		if (fastpath_route_get(&f->fast, r->orig_addr, &cur_if,
		    cur_mac) == 0 && cur_if == ifindex &&
		    memcmp(cur_mac, mac, BS_ADDR_LEN) == 0)
			continue;
		if (fastpath_route_set(&f->fast, r->orig_addr, ifindex,
		    mac) != 0)
			log_rl(&f->ifs.err_rl, LOG_WARNING, "in-kernel relay: "
			    "route: %s", strerror(errno));
	}
}

void
fwd_fast_sync(struct fwd *f)
{
	if (!f->fast_dirty)
		return;
	f->fast_dirty = 0;
	if (!fastpath_loaded(&f->fast) || f->tables == NULL)
		return;
	fwd_fast_fold(f);
	fwd_fast_sync_routes(f);
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
