/*
 * fwd_poll.h — the forwarder's epoll set: what each descriptor in it is
 * (a tag: its kind in the high 32 bits, an index in the low ones), and
 * adding, changing and removing one.  The event loop (forwarder.c) reads
 * the tags; the modules that open descriptors register them here, so
 * none of them calls back up into the loop.
 */
#ifndef BATSEC_FWD_POLL_H
#define BATSEC_FWD_POLL_H

#include <stddef.h>
#include <stdint.h>

enum fwd_poll_kind {
	FWD_POLL_SIG = 1,	/* the signalfd */
	FWD_POLL_NLEV = 2,	/* netlink link events */
	FWD_POLL_TAP = 3,
	FWD_POLL_CHAN = 4,	/* the parser channel */
	FWD_POLL_RAW = 5,	/* mesh interface i's raw socket */
	FWD_POLL_CTL = 6,	/* the control socket */
};

#define FWD_POLL_TAG(kind, i)	(((uint64_t)(kind) << 32) | (uint64_t)(i))
#define FWD_POLL_KIND(tag)	((tag) >> 32)
#define FWD_POLL_INDEX(tag)	((size_t)((tag) & 0xffffffffu))

/* epoll_ctl(ADD / MOD) of fd for events under tag: 0, or -1 with errno. */
int	fwd_poll_add(int epfd, int fd, uint32_t events, uint64_t tag);
int	fwd_poll_mod(int epfd, int fd, uint32_t events, uint64_t tag);
/* Remove fd (nothing when fd < 0). */
void	fwd_poll_del(int epfd, int fd);

#endif /* BATSEC_FWD_POLL_H */
