/*
 * tap.c — the batsec TAP device: /dev/net/tun with IFF_TAP | IFF_NO_PI |
 * IFF_VNET_HDR.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <net/if.h>
#include <linux/if_tun.h>

#include "netlink.h"
#include "tap.h"

#define TAP_DEVICE	"/dev/net/tun"
#define TAP_ETH_HLEN	14

/* TUNSETIFF on a fresh descriptor; the kernel writes back the final name. */
static int
tap_setiff(int fd, const char *name, char out[IFNAMSIZ])
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	/* nl_ifname_valid() has bounded the name below IFNAMSIZ. */
	memcpy(ifr.ifr_name, name, strlen(name) + 1);
	/* ifr_flags is a short; IFF_TUN_EXCL is its top bit. */
	ifr.ifr_flags = (short)(IFF_TAP | IFF_NO_PI | IFF_VNET_HDR |
	    IFF_TUN_EXCL);
	if (ioctl(fd, TUNSETIFF, &ifr) != 0)
		return -1;
	ifr.ifr_name[IFNAMSIZ - 1] = '\0';
	/* Names with '%' are refused, so the kernel must keep ours as is. */
	if (strcmp(ifr.ifr_name, name) != 0) {
		errno = EPROTO;
		return -1;
	}
	memcpy(out, ifr.ifr_name, IFNAMSIZ);
	return 0;
}

int
tap_open(struct tap *tap, const char *name)
{
	int saved, hdrsz = TAP_VNET_LEN;

	tap->fd = -1;
	tap->ifindex = 0;
	tap->name[0] = '\0';
	if (name == NULL || !nl_ifname_valid(name)) {
		errno = EINVAL;
		return -1;
	}
	tap->fd = open(TAP_DEVICE, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (tap->fd < 0)
		return -1;
	if (tap_setiff(tap->fd, name, tap->name) != 0 ||
	    ioctl(tap->fd, TUNSETVNETHDRSZ, &hdrsz) != 0)
		goto fail;
	tap->ifindex = (int)if_nametoindex(tap->name);
	if (tap->ifindex <= 0)
		goto fail;
	return 0;
fail:
	saved = errno;
	tap_close(tap);
	errno = saved;
	return -1;
}

int
tap_offload(const struct tap *tap)
{
	unsigned int off = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6 |
	    TUN_F_TSO_ECN;

	return ioctl(tap->fd, TUNSETOFFLOAD, off);
}

ssize_t
tap_read_vnet(const struct tap *tap, uint8_t vnet[TAP_VNET_LEN],
    void *buf, size_t len)
{
	uint8_t guard;
	struct iovec iov[3] = {
		{ .iov_base = vnet, .iov_len = TAP_VNET_LEN },
		{ .iov_base = buf, .iov_len = len },
		{ .iov_base = &guard, .iov_len = sizeof(guard) },
	};
	ssize_t n;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * The kernel copies what fits and drops the rest of a frame without
	 * saying so: one guard byte past the buffer tells a frame that
	 * filled it from one that did not fit, which is never passed on.
	 */
	n = readv(tap->fd, iov, 3);
	if (n < 0)
		return -1;
	if ((size_t)n < TAP_VNET_LEN + TAP_ETH_HLEN) {
		errno = EPROTO;
		return -1;
	}
	n -= TAP_VNET_LEN;
	if ((size_t)n > len) {
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

ssize_t
tap_read(const struct tap *tap, void *buf, size_t len)
{
	uint8_t vnet[TAP_VNET_LEN];

	return tap_read_vnet(tap, vnet, buf, len);
}

int
tap_write_vnet(const struct tap *tap, const uint8_t vnet[TAP_VNET_LEN],
    const void *frame, size_t len)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)(uintptr_t)vnet, .iov_len = TAP_VNET_LEN },
		{ .iov_base = (void *)(uintptr_t)frame, .iov_len = len },
	};
	ssize_t n;

	if (len < TAP_ETH_HLEN || len > TAP_PKT_MAX) {
		errno = EINVAL;
		return -1;
	}
	n = writev(tap->fd, iov, 2);
	if (n < 0)
		return -1;
	if ((size_t)n != TAP_VNET_LEN + len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int
tap_write(const struct tap *tap, const void *frame, size_t len)
{
	static const uint8_t plain[TAP_VNET_LEN];

	if (len > TAP_FRAME_MAX) {
		errno = EINVAL;
		return -1;
	}
	return tap_write_vnet(tap, plain, frame, len);
}

void
tap_close(struct tap *tap)
{
	if (tap->fd >= 0)
		(void)close(tap->fd);
	tap->fd = -1;
	tap->ifindex = 0;
}
