/*
 * fwd_ifaces.c — the forwarder's mesh interfaces over their lifetime
 * (fwd_ifaces.h).
 */
#include <sys/epoll.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fwd_data.h"
#include "fwd_fast.h"
#include "fwd_iface.h"
#include "fwd_ifaces.h"
#include "fwd_parser.h"
#include "fwd_poll.h"
#include "fwd_tables.h"
#include "fwd_tap.h"
#include "fwd_types.h"
#include "netio/netlink.h"

static struct fwd_iface *
fwd_if(struct fwd *f, size_t i)
{
	return &f->ifs.v[i];
}

static void
fwd_if_reset(struct fwd_iface *v, const char *name)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->rs.fd = -1;
	v->fast_link = -1;
}

void
fwd_ifaces_init(struct fwd *f)
{
	struct log_rl rl = LOG_RL_INIT(5, 1);
	size_t i;

	memset(&f->ifs, 0, sizeof(f->ifs));
	f->ifs.err_rl = rl;
	for (i = 0; i < f->cfg.n_ifaces && i < BS_CONF_MAX_IFACES; i++)
		fwd_if_reset(fwd_if(f, i), f->cfg.ifaces[i]);
	f->ifs.n = i;
}

/* Index of the configured interface called name, or -1. */
static int
fwd_if_by_name(struct fwd *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->ifs.n; i++)
		if (strcmp(fwd_if(f, i)->name, name) == 0)
			return (int)i;
	return -1;
}

/* Register raw socket i with the event loop: 0, or -1 with errno. */
static int
fwd_if_watch(struct fwd *f, size_t i)
{
	return fwd_poll_add(f->epfd, fwd_if(f, i)->rs.fd, EPOLLIN,
	    FWD_POLL_TAG(FWD_POLL_RAW, i));
}

static void
fwd_if_unwatch(struct fwd *f, const struct fwd_iface *v)
{
	fwd_poll_del(f->epfd, v->rs.fd);
}

/* ---- telling the parser --------------------------------------------------------- */

static void
fwd_if_tell(struct fwd *f, size_t i, uint8_t state)
{
	struct fwd_iface *v = fwd_if(f, i);
	struct ipc_iface m;

	if (!fwd_parser_up(&f->parser))
		return;
	memset(&m, 0, sizeof(m));
	m.ifindex = (uint32_t)v->ifindex;
	m.state = state;
	snprintf(m.name, sizeof(m.name), "%s", v->name);
	if (state != IPC_IFACE_REMOVED) {
		m.mtu = v->mtu;
		memcpy(m.mac, v->mac, BS_ADDR_LEN);
		m.hop_penalty = v->hop_penalty;
		m.half_duplex = v->wireless != 0;
	}
	fwd_parser_send(&f->parser, IPC_IFACE, &m, sizeof(m));
}

static void
fwd_if_tell_state(struct fwd *f, size_t i)
{
	fwd_if_tell(f, i, fwd_if(f, i)->running ? IPC_IFACE_UP :
	    IPC_IFACE_DOWN);
}

void
fwd_ifaces_announce(struct fwd *f)
{
	size_t i;

	for (i = 0; i < f->ifs.n; i++) {
		if (fwd_if(f, i)->ifindex == 0)
			continue;
		ipc_ctx_iface_add(&f->parser.ctx,
		    (uint32_t)fwd_if(f, i)->ifindex);
		fwd_if_tell_state(f, i);
	}
}

/* ---- appear, change, go -------------------------------------------------------------- */

static void
fwd_if_open(struct fwd *f, size_t i)
{
	struct fwd_iface *v = fwd_if(f, i);

	if (rawsock_open(&v->rs, v->ifindex, f->cfg.ethertype) != 0) {
		log_warn("mesh interface %s (ifindex %d): cannot open a raw "
		    "socket", v->name, v->ifindex);
		return;
	}
	if (fwd_if_watch(f, i) != 0) {
		log_warn("mesh interface %s: epoll", v->name);
		rawsock_close(&v->rs);
	}
}

static void
fwd_if_gone(struct fwd *f, size_t i, const char *why)
{
	struct fwd_iface *v = fwd_if(f, i);

	if (v->ifindex == 0)
		return;
	log_info("mesh interface %s (ifindex %d) %s", v->name, v->ifindex,
	    why);
	fwd_fast_if_down(f, v);
	fwd_if_unwatch(f, v);
	rawsock_close(&v->rs);
	fwd_if_tell(f, i, IPC_IFACE_REMOVED);
	ipc_ctx_iface_del(&f->parser.ctx, (uint32_t)v->ifindex);
	/* As ipc_ctx: its neighbours (and their link keys) go with it. */
	if (f->tables != NULL)
		fwd_neigh_flush_iface(f->tables, (uint32_t)v->ifindex);
	v->ifindex = 0;
	v->running = 0;
	f->ifs.mtu_dirty = 1;
}

static void
fwd_if_take(struct fwd_iface *v, const struct nl_link *link)
{
	v->ifindex = link->ifindex;
	v->running = nl_link_running(link);
	if (link->mtu != 0)
		v->mtu = link->mtu;
	if (link->has_mac)
		memcpy(v->mac, link->mac, BS_ADDR_LEN);
}

/* 1 when the kernel calls the interface name wireless (cfg80211 or WEXT). */
static int
fwd_if_sys_wireless(const char *name)
{
	static const char *const leaf[] = { "wireless", "phy80211" };
	char path[64 + IFNAMSIZ];
	struct stat st;
	size_t k;

	for (k = 0; k < sizeof(leaf) / sizeof(leaf[0]); k++) {
		if (snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name,
		    leaf[k]) >= (int)sizeof(path))
			return 0;
		if (stat(path, &st) == 0)
			return 1;
	}
	return 0;
}

/* Settle v's medium and broadcast repeats from its line in cfg. */
static void
fwd_if_medium(struct fwd_iface *v, const struct bs_config *cfg, size_t i)
{
	const struct bs_conf_iface *o = &cfg->iface_opt[i];

	if (o->medium == BS_MEDIUM_AUTO)
		v->wireless = v->ifindex != 0 && fwd_if_sys_wireless(v->name);
	else
		v->wireless = o->medium == BS_MEDIUM_WIRELESS;
	v->bcast_repeat = config_iface_repeat(o, v->wireless != 0);
	v->hop_penalty = o->hop_penalty;
}

/*
 * Its line may have new options (reload): settle them again; the parser
 * hears of a new medium or hop penalty.
 */
static void
fwd_if_reoptions(struct fwd *f, size_t i, const struct bs_config *cfg)
{
	struct fwd_iface *v = fwd_if(f, i);
	int wireless = v->wireless;
	unsigned rep = v->bcast_repeat;
	uint8_t pen = v->hop_penalty;

	fwd_if_medium(v, cfg, i);
	if (v->wireless != wireless || v->bcast_repeat != rep ||
	    v->hop_penalty != pen)
		log_info("mesh interface %s: %s, bcast-repeat %u, "
		    "hop-penalty %u", v->name,
		    v->wireless ? "wireless" : "wired", v->bcast_repeat,
		    v->hop_penalty);
	if (v->wireless != wireless || v->hop_penalty != pen)
		fwd_if_tell_state(f, i);
}

static void
fwd_if_appear(struct fwd *f, size_t i, const struct nl_link *link)
{
	struct fwd_iface *v = fwd_if(f, i);

	fwd_if_take(v, link);
	fwd_if_medium(v, &f->cfg, i);
	log_info("mesh interface %s (ifindex %d) present, %s, mtu %u, %s, "
	    "bcast-repeat %u, hop-penalty %u", v->name, v->ifindex,
	    v->running ? "up" : "down", v->mtu,
	    v->wireless ? "wireless" : "wired", v->bcast_repeat,
	    v->hop_penalty);
	fwd_if_open(f, i);
	if (!link->has_mac && v->rs.fd >= 0)
		memcpy(v->mac, v->rs.mac, BS_ADDR_LEN);
	ipc_ctx_iface_add(&f->parser.ctx, (uint32_t)v->ifindex);
	fwd_if_tell_state(f, i);
	f->ifs.mtu_dirty = 1;
}

static void
fwd_if_update(struct fwd *f, size_t i, const struct nl_link *link)
{
	struct fwd_iface *v = fwd_if(f, i), old = *v;

	fwd_if_take(v, link);
	if (v->running != old.running)
		log_info("mesh interface %s is %s", v->name,
		    v->running ? "up" : "down");
	if (memcmp(v->mac, old.mac, BS_ADDR_LEN) != 0 && v->rs.fd >= 0 &&
	    rawsock_refresh_mac(&v->rs) != 0)
		log_warn("mesh interface %s: reading its new MAC", v->name);
	if (v->mtu != old.mtu)
		f->ifs.mtu_dirty = 1;
	if (v->rs.fd < 0 && v->running && !old.running)
		fwd_if_open(f, i);	/* a retry after a failed open */
	if (v->running != old.running || v->mtu != old.mtu ||
	    memcmp(v->mac, old.mac, BS_ADDR_LEN) != 0) {
		fwd_if_tell_state(f, i);
		f->fast_dirty = 1;
	}
}

/* The TAP itself was deleted under us: nothing left to serve. */
static void
fwd_tap_event(struct fwd *f, const struct nl_link *link)
{
	if (link->event != NL_LINK_DEL)
		return;
	log_warnx("TAP interface %s was deleted; shutting down", f->tap.name);
	f->quit = 1;
	f->exit_code = 1;
}

/* A netlink link event or dump entry. */
static void
fwd_ifaces_link_cb(const struct nl_link *link, void *arg)
{
	struct fwd *f = arg;
	int i = fwd_if_by_name(f, link->name);
	int j = link->ifindex > 0 ? fwd_iface_find(&f->ifs,
	    (uint32_t)link->ifindex) : -1;

	if (f->tap.fd >= 0 && link->ifindex == f->tap.ifindex) {
		fwd_tap_event(f, link);
		return;
	}
	/* Our ifindex now has another name: ours is gone (renamed). */
	if (j >= 0 && j != i)
		fwd_if_gone(f, (size_t)j, "was renamed");
	if (i < 0)
		return;
	if (f->ifs.resyncing)
		fwd_if(f, (size_t)i)->seen = 1;
	if (link->event == NL_LINK_DEL) {
		if (fwd_if(f, (size_t)i)->ifindex == link->ifindex)
			fwd_if_gone(f, (size_t)i, "was deleted");
		return;
	}
	if (fwd_if(f, (size_t)i)->ifindex == link->ifindex) {
		fwd_if_update(f, (size_t)i, link);
		return;
	}
	fwd_if_gone(f, (size_t)i, "was replaced");
	fwd_if_appear(f, (size_t)i, link);
}

/* ---- MTU policy ------------------------------------------------------------------------ */

void
fwd_ifaces_mtu(struct fwd *f)
{
	int idx[BS_CONF_MAX_IFACES] = { 0 };
	uint32_t mtu[BS_CONF_MAX_IFACES] = { 0 }, tap_mtu = 0;
	size_t map[BS_CONF_MAX_IFACES], i, n = 0;

	f->ifs.mtu_dirty = 0;
	for (i = 0; i < f->ifs.n; i++)
		if (fwd_if(f, i)->ifindex != 0) {
			map[n] = i;
			idx[n++] = fwd_if(f, i)->ifindex;
		}
	if (nl_mtu_apply(f->nl, idx, n, BATSEC_INNER_MTU, f->tap.ifindex, mtu,
	    &tap_mtu) != 0) {
		if (errno == ERANGE)
			log_warnx("a mesh interface's MTU is below %u, too "
			    "small even for fragments; TAP MTU unchanged",
			    BATSEC_FRAG_MTU_MIN);
		else
			log_warn("applying the MTU policy");
		return;
	}
	for (i = 0; i < n; i++)
		if (fwd_if(f, map[i])->mtu != mtu[i]) {
			log_info("mesh interface %s: MTU %u -> %u",
			    fwd_if(f, map[i])->name, fwd_if(f, map[i])->mtu,
			    mtu[i]);
			fwd_if(f, map[i])->mtu = mtu[i];
			fwd_if_tell_state(f, map[i]);
		}
	if (tap_mtu != f->tap_mtu)
		log_info("%s: MTU %u", f->tap.name, tap_mtu);
	f->tap_mtu = tap_mtu;
}

/* ---- start, events, stop ---------------------------------------------------------------- */

void
fwd_ifaces_start(struct fwd *f)
{
	size_t i;

	if (nl_link_dump(f->nl, fwd_ifaces_link_cb, f) < 0)
		log_warn("listing network interfaces");
	for (i = 0; i < f->ifs.n; i++)
		if (fwd_if(f, i)->ifindex == 0)
			log_info("mesh interface %s does not exist (yet); "
			    "waiting for it", fwd_if(f, i)->name);
	fwd_ifaces_mtu(f);
}

/* After lost events: dump everything, then drop what the dump lacked. */
static void
fwd_ifaces_resync(struct fwd *f)
{
	size_t i;

	log_warnx("netlink events were lost; re-reading every interface");
	for (i = 0; i < f->ifs.n; i++)
		fwd_if(f, i)->seen = 0;
	f->ifs.resyncing = 1;
	if (nl_events_resync(f->nlev, f->nl, fwd_ifaces_link_cb, f) < 0) {
		f->ifs.resyncing = 0;
		log_warn("netlink resync");
		return;
	}
	f->ifs.resyncing = 0;
	for (i = 0; i < f->ifs.n; i++)
		if (!fwd_if(f, i)->seen)
			fwd_if_gone(f, i, "disappeared");
}

void
fwd_ifaces_events(struct fwd *f)
{
	if (nl_events_recv(f->nlev, fwd_ifaces_link_cb, f) < 0) {
		if (errno == ENOBUFS || errno == EBADMSG)
			fwd_ifaces_resync(f);
		else if (errno != EAGAIN && errno != EINTR)
			log_rl(&f->ifs.err_rl, LOG_WARNING, "netlink events: %s",
			    strerror(errno));
	}
	if (f->ifs.mtu_dirty)
		fwd_ifaces_mtu(f);
}

int
fwd_ifaces_rx(struct fwd *f, size_t i)
{
	struct rawsock_frame fr[RAWSOCK_BATCH_MAX];
	struct fwd_iface *v = fwd_if(f, i);
	uint64_t now;
	int n, k;

	if (v->rs.fd < 0) {
		errno = EBADF;
		return -1;
	}
	n = rawsock_recv_batch(&v->rs, f->rxbufs, FWD_RXBUF_LEN,
	    RAWSOCK_BATCH_MAX, fr);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ENETDOWN)
			log_rl(&f->ifs.err_rl, LOG_WARNING, "mesh interface %s: "
			    "receive: %s", v->name, strerror(errno));
		return -1;
	}
	now = log_now_ms();	/* one burst: one time */
	for (k = 0; k < n; k++) {
		v->rx_frames++;
		/* Data frames are the forwarder's own business (fwd_data.c). */
		if (f->data != NULL && fwd_data_is_data(fr[k].payload,
		    fr[k].len)) {
			fwd_data_mesh_rx(f->data, (uint32_t)v->ifindex,
			    fr[k].src, fr[k].dst, fr[k].payload, fr[k].len,
			    now);
			continue;
		}
		fwd_parser_send_frame(&f->parser, (uint32_t)v->ifindex,
		    fr[k].src, fr[k].dst, fr[k].payload, fr[k].len);
	}
	return 0;
}

/* Receive-queue drops are logged at most this often. */
#define FWD_DROP_LOG_MS	60000

void
fwd_ifaces_collect_drops(struct fwd *f, uint64_t now)
{
	struct fwd_iface *v;
	size_t i;
	long n;
	int any = 0;

	for (i = 0; i < f->ifs.n; i++) {
		v = fwd_if(f, i);
		if ((n = rawsock_collect_drops(&v->rs)) > 0)
			v->drops_unlogged += (uint64_t)n;
		any |= v->drops_unlogged != 0;
	}
	if (!any || now < f->ifs.drop_log_ms)
		return;
	for (i = 0; i < f->ifs.n; i++) {
		v = fwd_if(f, i);
		if (v->drops_unlogged == 0)
			continue;
		log_warnx("mesh interface %s: the kernel dropped %llu received "
		    "frames, the socket's receive queue was full (the "
		    "forwarder is not keeping up with the traffic)", v->name,
		    (unsigned long long)v->drops_unlogged);
		v->drops_unlogged = 0;
	}
	f->ifs.drop_log_ms = now + FWD_DROP_LOG_MS;
}

/*
 * A mesh socket receives through a ring (rawsock.h) while its interface
 * brings FWD_RING_ON_FPS frames a second or more, and goes back to the
 * socket queue after FWD_RING_QUIET_S seconds below FWD_RING_OFF_FPS.
 * The ring saves a system call and a wake-up per frame, but its 1 MiB
 * is resident for as long as it exists, where an idle queue costs
 * nothing; so only busy interfaces have one.
 */
#define FWD_RING_ON_FPS		20000
#define FWD_RING_OFF_FPS	2000
#define FWD_RING_QUIET_S	10
#define FWD_RING_DRAIN_MAX	8	/* bursts read before the switch */

void
fwd_ifaces_ring_tick(struct fwd *f, uint64_t now)
{
	struct fwd_iface *v;
	uint64_t frames, ms;
	size_t i;
	int k;

	for (i = 0; i < f->ifs.n; i++) {
		v = fwd_if(f, i);
		frames = v->rx_frames - v->ring_frames;
		ms = now - v->ring_ms;
		v->ring_frames = v->rx_frames;
		if (v->ring_ms == 0 || ms == 0 || now < v->ring_ms ||
		    v->rs.fd < 0) {
			v->ring_ms = now;
			continue;
		}
		v->ring_ms = now;
		frames = frames * 1000 / ms;
		if (v->rs.ring.map == NULL) {
			v->ring_quiet = 0;
			if (frames < FWD_RING_ON_FPS)
				continue;
			/*
			 * Setting up the ring drops what is queued: read what
			 * a few bursts hold first.  A forwarder this busy
			 * seldom sees its socket empty, so what came in
			 * meanwhile is lost, once, as on a queue overflow.
			 */
			for (k = 0; k < FWD_RING_DRAIN_MAX; k++)
				if (fwd_ifaces_rx(f, i) != 0)
					break;
			if (f->data != NULL)
				fwd_data_flush(f->data);
			fwd_tap_flush(f);
			if (rawsock_ring_on(&v->rs) != 0) {
				log_rl(&f->ifs.err_rl, LOG_WARNING, "mesh "
				    "interface %s: no receive ring: %s",
				    v->name, strerror(errno));
				continue;
			}
			log_info("mesh interface %s: %llu frames/s, receiving "
			    "through a ring", v->name,
			    (unsigned long long)frames);
		} else if (frames >= FWD_RING_OFF_FPS) {
			v->ring_quiet = 0;
		} else if (++v->ring_quiet >= FWD_RING_QUIET_S &&
		    !rawsock_ring_busy(&v->rs)) {
			rawsock_ring_off(&v->rs);
			v->ring_quiet = 0;
			log_info("mesh interface %s: quiet, receive ring %s",
			    v->name, v->rs.ring.map == NULL ? "gone" :
			    "kept (the kernel would not free it)");
		}
	}
}

void
fwd_ifaces_close(struct fwd *f)
{
	size_t i;

	for (i = 0; i < f->ifs.n; i++) {
		fwd_fast_if_down(f, fwd_if(f, i));
		fwd_if_unwatch(f, fwd_if(f, i));
		rawsock_close(&fwd_if(f, i)->rs);
		fwd_if(f, i)->ifindex = 0;
	}
}

/* ---- reload ----------------------------------------------------------------------------- */

static int
fwd_name_in(const struct bs_config *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->n_ifaces; i++)
		if (strcmp(cfg->ifaces[i], name) == 0)
			return 1;
	return 0;
}

/* Index of name in old, or -1. */
static int
fwd_find_in(const struct fwd_ifaces *old, const char *name)
{
	size_t j;

	for (j = 0; j < old->n; j++)
		if (strcmp(old->v[j].name, name) == 0)
			return (int)j;
	return -1;
}

/*
 * Lay the table out in the new configured order, keeping the state of the
 * interfaces that stay.  Raw sockets are registered with epoll under their
 * index, so every one is registered again.
 */
static void
fwd_ifaces_relayout(struct fwd *f, const struct bs_config *cfg)
{
	struct fwd_ifaces old = f->ifs;
	size_t i;
	int k;

	for (i = 0; i < old.n; i++)
		fwd_if_unwatch(f, &old.v[i]);
	for (i = 0; i < cfg->n_ifaces && i < BS_CONF_MAX_IFACES; i++) {
		if ((k = fwd_find_in(&old, cfg->ifaces[i])) >= 0)
			f->ifs.v[i] = old.v[k];
		else
			fwd_if_reset(fwd_if(f, i), cfg->ifaces[i]);
		if (fwd_if(f, i)->rs.fd >= 0 && fwd_if_watch(f, i) != 0)
			log_warn("mesh interface %s: epoll", fwd_if(f, i)->name);
	}
	f->ifs.n = i;
}

void
fwd_ifaces_reconfigure(struct fwd *f, const struct bs_config *cfg)
{
	struct nl_link link;
	size_t i;

	for (i = 0; i < f->ifs.n; i++)
		if (!fwd_name_in(cfg, fwd_if(f, i)->name))
			fwd_if_gone(f, i, "is no longer configured");
	fwd_ifaces_relayout(f, cfg);
	for (i = 0; i < f->ifs.n; i++) {
		if (fwd_if(f, i)->ifindex != 0) {
			fwd_if_reoptions(f, i, cfg);
			continue;
		}
		if (nl_link_get_by_name(f->nl, fwd_if(f, i)->name, &link) == 0)
			fwd_ifaces_link_cb(&link, f);
		else
			log_info("mesh interface %s does not exist (yet); "
			    "waiting for it", fwd_if(f, i)->name);
	}
	fwd_ifaces_mtu(f);
}
