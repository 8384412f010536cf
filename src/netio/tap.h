/*
 * tap.h — the batsec TAP device (the node's own port on the mesh segment).
 *
 * The forwarder opens one TAP interface ("batsec0" by default): frames the
 * host sends through it are read here and carried over the mesh; frames
 * delivered to this node from the mesh are written here.
 *
 * The device is created with IFF_TAP | IFF_NO_PI | IFF_VNET_HDR |
 * IFF_TUN_EXCL and is not
 * persistent: the kernel removes the interface when the descriptor is
 * closed (also when the process dies).  IFF_TUN_EXCL makes tap_open() fail
 * with EBUSY when any interface of that name already exists, so batsecd
 * never attaches to a device someone else set up.
 *
 * The descriptor is non-blocking and close-on-exec.  Its MTU starts at 1500;
 * set it with nl_link_set_mtu() (see nl_mtu_apply() in netlink.h), bring it
 * up with nl_link_set_up().
 */
#ifndef BATSEC_TAP_H
#define BATSEC_TAP_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Largest frame the kernel hands over on a TAP without offloads. */
#define TAP_FRAME_MAX	65535
/*
 * Every frame either way is preceded by a struct virtio_net_hdr of
 * TAP_VNET_LEN bytes (IFF_VNET_HDR).  Until tap_offload() it is all
 * zeros from the kernel; after it, a read may be a TCP packet of up to
 * TAP_PKT_MAX bytes to segment, or leave a checksum to us (tapoff.h).
 */
#define TAP_VNET_LEN	10
#define TAP_PKT_MAX	(14 + 4 + 65535)

struct tap {
	int	fd;		/* non-blocking, close-on-exec; -1 when closed */
	int	ifindex;	/* the kernel's interface index */
	char	name[IFNAMSIZ];	/* NUL-terminated interface name */
};

/*
 * Creates the TAP interface `name` (1..IFNAMSIZ-1 bytes, no '/', ':', '%'
 * or white space, not "." or "..": nl_ifname_valid()).  The name is checked
 * before it is copied anywhere.  The interface is created down.
 * Returns 0, or -1 with errno: EINVAL (bad name), EBUSY (name in use),
 * EPERM (no CAP_NET_ADMIN), or what open/ioctl reported.  On failure
 * tap->fd is -1.
 */
int	tap_open(struct tap *tap, const char *name);

/*
 * Lets the kernel hand over TCP packets of up to 64 KiB (TSO for IPv4 and
 * IPv6, ECN included) and frames with their checksum left to us, as it
 * would to a NIC with those offloads.  0, or -1 with errno.
 */
int	tap_offload(const struct tap *tap);

/*
 * As tap_read(), but the virtio header is kept in vnet and a frame may be
 * up to TAP_PKT_MAX bytes.
 */
ssize_t	tap_read_vnet(const struct tap *tap, uint8_t vnet[TAP_VNET_LEN],
	    void *buf, size_t len);

/*
 * As tap_write(), with the virtio header vnet (a frame of up to
 * TAP_PKT_MAX bytes when vnet says it is a GSO packet).
 */
int	tap_write_vnet(const struct tap *tap, const uint8_t vnet[TAP_VNET_LEN],
	    const void *frame, size_t len);

/*
 * Reads one frame (Ethernet header included) into buf; the virtio header
 * is read and dropped (use it only without tap_offload()).  Returns its length
 * (>= 14), or -1 with errno: EAGAIN (nothing queued), EMSGSIZE (the frame
 * was longer than len and has been discarded; pass TAP_FRAME_MAX bytes to
 * never see this), EPROTO (shorter than an Ethernet header; dropped),
 * EINVAL (len is 0), or a read(2) error.
 */
ssize_t	tap_read(const struct tap *tap, void *buf, size_t len);

/*
 * Writes one whole Ethernet frame (14..TAP_FRAME_MAX bytes) to the host,
 * behind an all-zero virtio header (a plain frame).
 * Returns 0, or -1 with errno: EINVAL (bad length), EIO (short write), or a
 * write(2) error (EIO also while the interface is down).
 */
int	tap_write(const struct tap *tap, const void *frame, size_t len);

/* Closes the descriptor (removing the interface); safe to call twice. */
void	tap_close(struct tap *tap);

#endif /* BATSEC_TAP_H */
