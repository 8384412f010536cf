/*
 * sim_live.c — the simulator's link to one real batsecd (live mode, used
 * by bench/footprint): an AF_PACKET socket on one interface of a veth
 * pair whose other end the daemon runs on, for frames of batsec's
 * ethertype (0x88b5).  Frames the nodes joined to the daemon send go out
 * broadcast with the node's MAC as source; every frame heard there is
 * handed back with both MAC addresses.  The daemon's policy (every
 * simulated node trusted) is written as batsec-policy(5) text.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "batsec_keys.h"
#include "sim.h"

#define SIM_ETHERTYPE	0x88b5

int
sim_live_open(const char *iface, int *ifindex)
{
	struct sockaddr_ll sll;
	int fd, rcvbuf = 4 << 20;

	*ifindex = (int)if_nametoindex(iface);
	if (*ifindex == 0) {
		fprintf(stderr, "batsec-sim: --live %s: %s\n", iface,
		    strerror(errno));
		return -1;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    htons(SIM_ETHERTYPE));
	if (fd < 0) {
		fprintf(stderr, "batsec-sim: packet socket: %s\n",
		    strerror(errno));
		return -1;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(SIM_ETHERTYPE);
	sll.sll_ifindex = *ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		fprintf(stderr, "batsec-sim: bind to %s: %s\n", iface,
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void
sim_live_close(int fd)
{
	if (fd >= 0)
		(void)close(fd);
}

int
sim_live_send(int fd, int ifindex, const uint8_t src[static 6],
    const uint8_t *frame, size_t len)
{
	uint8_t buf[14 + 2048];
	struct sockaddr_ll sll;

	if (len > sizeof(buf) - 14)
		return -1;
	memset(buf, 0xff, 6);
	memcpy(buf + 6, src, 6);
	buf[12] = SIM_ETHERTYPE >> 8;
	buf[13] = SIM_ETHERTYPE & 0xff;
	memcpy(buf + 14, frame, len);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(SIM_ETHERTYPE);
	sll.sll_ifindex = ifindex;
	sll.sll_halen = 6;
	memset(sll.sll_addr, 0xff, 6);
	if (sendto(fd, buf, 14 + len, 0, (struct sockaddr *)&sll,
	    sizeof(sll)) != (ssize_t)(14 + len))
		return -1;
	return 0;
}

/* One frame heard: its payload length, 0 when none is waiting, -1 error. */
long
sim_live_recv(int fd, uint8_t src[static 6], uint8_t dst[static 6],
    uint8_t *buf, size_t cap)
{
	uint8_t f[14 + 2048];
	struct sockaddr_ll sll;
	socklen_t sl = sizeof(sll);
	ssize_t n;

	for (;;) {
		sl = sizeof(sll);
		n = recvfrom(fd, f, sizeof(f), 0, (struct sockaddr *)&sll,
		    &sl);
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 :
			    -1;
		if (sll.sll_pkttype != PACKET_OUTGOING && n >= 15 &&
		    (size_t)n - 14 <= cap && f[12] == SIM_ETHERTYPE >> 8 &&
		    f[13] == (SIM_ETHERTYPE & 0xff))
			break;
	}
	memcpy(dst, f, 6);
	memcpy(src, f + 6, 6);
	memcpy(buf, f + 14, (size_t)n - 14);
	return (long)(n - 14);
}

int
sim_live_policy(const char *path, const uint8_t (*pk)[BS_PK_LEN],
    unsigned n, const uint8_t daemon_pk[static BS_PK_LEN])
{
	char b64[BS_KEY_B64_LEN + 1];
	FILE *f = fopen(path, "w");
	unsigned i;

	if (f == NULL)
		return -1;
	fprintf(f, "mode allowlist\n");
	bs_key_to_b64(b64, daemon_pk);
	fprintf(f, "trust %s name daemon\n", b64);
	for (i = 0; i < n; i++) {
		bs_key_to_b64(b64, pk[i]);
		fprintf(f, "trust %s name sim%u\n", b64, i);
	}
	return fclose(f) == 0 ? 0 : -1;
}
