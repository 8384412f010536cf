/*
 * fwd_ifaces.h — the forwarder's mesh interfaces over their lifetime.
 *
 * An interface is configured by name.  It may not exist at start-up; it
 * may go down and up, be deleted, or be deleted and created again (with a
 * new ifindex) while batsecd runs.  Netlink link events drive all of it:
 * the raw socket is opened (and registered with the event loop,
 * fwd_poll.h) when the name appears and closed when it goes, the parser
 * hears of every change (IPC_IFACE), and the MTU policy runs again
 * whenever the set of interfaces or one of their MTUs changes.  Frames
 * read from a raw socket go to the data plane (data frames) or to the
 * parser (control frames).  The table itself is struct fwd_ifaces
 * (fwd_types.h); lookups in it are fwd_iface.h's.
 */
#ifndef BATSEC_FWD_IFACES_H
#define BATSEC_FWD_IFACES_H

#include <stddef.h>
#include <stdint.h>

struct bs_config;
struct fwd;

void	fwd_ifaces_init(struct fwd *f);
/* Look every configured interface up and open what exists. */
void	fwd_ifaces_start(struct fwd *f);
void	fwd_ifaces_close(struct fwd *f);
/* Replace the configured list (SIGHUP): keeps what stays. */
void	fwd_ifaces_reconfigure(struct fwd *f, const struct bs_config *cfg);
/* Read the event socket; resync after ENOBUFS / EBADMSG. */
void	fwd_ifaces_events(struct fwd *f);
/*
 * Frames waiting on mesh interface i: one burst.  0 when one was read,
 * -1 with errno when none (EAGAIN: the socket is empty).
 */
int	fwd_ifaces_rx(struct fwd *f, size_t i);
/*
 * Read what the kernel dropped on every mesh socket because its receive
 * queue was full (once a second, and before the counters are shown);
 * log it at most once a minute.
 */
void	fwd_ifaces_collect_drops(struct fwd *f, uint64_t now);
/* Once a second: a receive ring for busy mesh sockets. */
void	fwd_ifaces_ring_tick(struct fwd *f, uint64_t now);
/* Re-apply the MTU policy over the present interfaces. */
void	fwd_ifaces_mtu(struct fwd *f);
/* Send IFACE for every present interface (to a new parser). */
void	fwd_ifaces_announce(struct fwd *f);

#endif /* BATSEC_FWD_IFACES_H */
