/*
 * fwd_fast.h — the forwarder's side of the in-kernel UNICAST relay
 * (netio/fastpath.h).  Loaded by fwd_fast_start() (before the
 * capabilities go), attached to a mesh interface once it is busy; a
 * route change goes to its map at once, anything else it mirrors sets
 * f->fast_dirty and is synced at the end of the loop round; its counters
 * are taken by fwd_fast_fold() once a second and before they are shown.
 */
#ifndef BATSEC_FWD_FAST_H
#define BATSEC_FWD_FAST_H

#include <stdint.h>

struct fwd;
struct fwd_iface;

/* Attach where UNICASTs pass through (FWD_FAST_ATTACH_FPS a second),
 * take the counts, keep the program alive: once a second. */
#define FWD_FAST_ATTACH_FPS	100
/* The program relays only until FWD_FAST_ALIVE_MS after the last tick
 * (fastpath_alive): a tc filter outlives a killed or stuck forwarder. */
#define FWD_FAST_ALIVE_MS	3000
/* The tc filter's preference and name (batsecd(8), "In-kernel relay"). */
#define FWD_FAST_TC_PRIO	0xb5ec
#define FWD_FAST_TC_NAME	"batsec_relay"

void	fwd_fast_start(struct fwd *f);
void	fwd_fast_stop(struct fwd *f);
void	fwd_fast_tick(struct fwd *f);
void	fwd_fast_if_down(struct fwd *f, struct fwd_iface *v);
/* 1 when the program is attached there (a tcx link or a tc filter). */
int	fwd_fast_attached(const struct fwd_iface *v);
void	fwd_fast_fold(struct fwd *f);
void	fwd_fast_sync(struct fwd *f);
/* 1 when a ROUTE_ADD for orig would add it or move it elsewhere. */
int	fwd_fast_route_moved(const struct fwd *f, const uint8_t *orig,
	    const uint8_t *nexthop, uint32_t ifindex);
/* The route to orig was added, moved or deleted: into the map now. */
void	fwd_fast_route_changed(struct fwd *f, const uint8_t *orig);

#endif /* BATSEC_FWD_FAST_H */
