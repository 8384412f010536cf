/*
 * fwd_poll.c — the forwarder's epoll set (fwd_poll.h).
 */
#include <sys/epoll.h>

#include <string.h>

#include "fwd_poll.h"

static int
fwd_poll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t tag)
{
	struct epoll_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.u64 = tag;
	return epoll_ctl(epfd, op, fd, &ev);
}

int
fwd_poll_add(int epfd, int fd, uint32_t events, uint64_t tag)
{
	return fwd_poll_ctl(epfd, EPOLL_CTL_ADD, fd, events, tag);
}

int
fwd_poll_mod(int epfd, int fd, uint32_t events, uint64_t tag)
{
	return fwd_poll_ctl(epfd, EPOLL_CTL_MOD, fd, events, tag);
}

void
fwd_poll_del(int epfd, int fd)
{
	if (fd >= 0)
		epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
}
