/*
 * rawsock.h — AF_PACKET sockets carrying batsec frames on the mesh
 * interfaces, one socket per interface.
 *
 * Each socket is SOCK_RAW (frames include the Ethernet header, so the
 * source and destination MACs are seen), bound to one ifindex and the
 * batsec ethertype, non-blocking and close-on-exec, with a 1 MiB receive
 * buffer (beyond rmem_max when we hold CAP_NET_ADMIN) and
 * PACKET_IGNORE_OUTGOING.  A classic BPF filter is attached and locked
 * (SO_LOCK_FILTER: it cannot be replaced or removed later, even by a
 * compromised process holding the descriptor).  It accepts a frame only
 * when all of these hold:
 *   - the ethertype at offset 12 is ours (no VLAN tag: a tag the NIC
 *     stripped is seen and the frame refused);
 *   - it was addressed to us: packet type HOST, BROADCAST or MULTICAST
 *     (not OTHERHOST, as seen in promiscuous mode, nor OUTGOING).
 * The filter is attached before the socket is bound, so no frame of
 * another kind is ever queued.
 *
 * Interface state: a socket on an interface that goes down reports
 * ENETDOWN once and resumes when it comes back up; if the interface is
 * deleted, close the socket and open a new one for the new ifindex.
 */
#ifndef BATSEC_RAWSOCK_H
#define BATSEC_RAWSOCK_H

#include <stddef.h>
#include <stdint.h>

#define RAWSOCK_ETHERTYPE	0x88B5	/* IEEE 802 local experimental 1 */
#define RAWSOCK_MAC_LEN		6
#define RAWSOCK_HDR_LEN		14	/* dst MAC, src MAC, ethertype */
#define RAWSOCK_PAYLOAD_MAX	65521	/* 65535 - RAWSOCK_HDR_LEN */
#define RAWSOCK_RCVBUF		(1 << 20)
#define RAWSOCK_BATCH_MAX	64	/* frames per rawsock_recv_batch() */

/* Receive counters: frames dropped here, and by the kernel. */
struct rawsock_stats {
	uint64_t	rx_frames;	/* handed to the caller */
	uint64_t	rx_short;	/* shorter than an Ethernet header */
	uint64_t	rx_trunc;	/* longer than the caller's buffer */
	uint64_t	rx_foreign;	/* wrong ethertype or packet type, or
					   a group (multicast) source MAC */
	uint64_t	rx_own;		/* our own source MAC: a frame of ours
					   sent back to us (a replay, a loop) */
	uint64_t	rx_queue_drops;	/* dropped by the kernel because the
					   socket's receive queue was full
					   (rawsock_collect_drops) */
};

/*
 * A TPACKET_V3 receive ring (rawsock_ring_on): the kernel writes frames
 * into blocks of the mapped ring and hands a block over when it is full
 * or RAWSOCK_RING_TOV_MS old, so a busy socket costs one wake-up and no
 * system call per block instead of per frame.  Its pages are resident
 * as long as it exists, so it is for busy interfaces only.
 */
#define RAWSOCK_RING_BLOCK	(1u << 16)
#define RAWSOCK_RING_BLOCKS	16	/* 1 MiB, as RAWSOCK_RCVBUF */
#define RAWSOCK_RING_TOV_MS	1

struct rawsock_ring {
	uint8_t		*map;		/* NULL: no ring */
	uint32_t	cur;		/* block read next */
	uint32_t	left;		/* frames left in it; 0: not opened */
	size_t		off;		/* the next frame's offset in it */
	size_t		blen;		/* its length as the kernel says */
};

struct rawsock {
	int			fd;		/* -1 when closed */
	int			ifindex;
	uint16_t		ethertype;
	uint8_t			mac[RAWSOCK_MAC_LEN];	/* source of sends */
	struct rawsock_stats	stats;
	struct rawsock_ring	ring;
};

/* One received frame; payload points into the caller's buffer. */
struct rawsock_frame {
	uint8_t		 dst[RAWSOCK_MAC_LEN];
	uint8_t		 src[RAWSOCK_MAC_LEN];
	const uint8_t	*payload;	/* after the Ethernet header */
	size_t		 len;		/* payload bytes (Ethernet padding included) */
	uint8_t		 pkttype;	/* PACKET_HOST, _BROADCAST or _MULTICAST */
};

/*
 * Opens the socket for interface ifindex and ethertype (>= 0x0600, i.e.
 * an ethertype and not an 802.3 length; RAWSOCK_ETHERTYPE by default) and
 * reads the interface's MAC into rs->mac.  Returns 0, or -1 with errno:
 * EINVAL (bad argument), EAFNOSUPPORT (not an Ethernet interface), ENODEV,
 * EPERM (no CAP_NET_RAW), or a socket(2)/setsockopt(2)/bind(2) error.
 * On failure rs->fd is -1.
 */
int	rawsock_open(struct rawsock *rs, int ifindex, uint16_t ethertype);

/*
 * Adds to rs->stats.rx_queue_drops what the kernel dropped since the last
 * call because the receive queue was full (PACKET_STATISTICS, which reads
 * and resets the kernel's 32-bit counter: call it at least once a second
 * or so, and before rawsock_close).  Returns how many were added, 0 when
 * the socket is closed, or -1 with errno from getsockopt(2).
 */
long	rawsock_collect_drops(struct rawsock *rs);

/* Closes the socket; safe to call twice. */
void	rawsock_close(struct rawsock *rs);

/*
 * Re-reads the interface's MAC into rs->mac (after nl_link_set_mac() or an
 * RTM_NEWLINK event with another address).  0, or -1 with errno.
 */
int	rawsock_refresh_mac(struct rawsock *rs);

/*
 * Sends one frame: dst, rs->mac as source, the ethertype, then payload
 * (0..RAWSOCK_PAYLOAD_MAX bytes; the kernel refuses more than the MTU).
 * Returns 0, or -1 with errno: EMSGSIZE (too long), EAGAIN (send queue
 * full: drop the frame), ENETDOWN, ENXIO, or another sendmsg(2) error.
 */
int	rawsock_send(const struct rawsock *rs,
	    const uint8_t dst[static RAWSOCK_MAC_LEN], const void *payload,
	    size_t len);

/* One frame of a rawsock_send_batch(): payload to dst. */
struct rawsock_txmsg {
	const uint8_t	*dst;		/* RAWSOCK_MAC_LEN bytes */
	const void	*payload;
	size_t		 len;		/* 0..RAWSOCK_PAYLOAD_MAX */
};

/*
 * Sends n (1..RAWSOCK_BATCH_MAX) frames as rawsock_send() would, with one
 * sendmmsg(2).  Returns how many went out, in order from the first
 * (sendmmsg stops at the first error; the rest were not sent), or -1 with
 * errno when the first one failed: EINVAL (bad n or argument), EMSGSIZE,
 * or a sendmmsg(2) error as for rawsock_send().
 */
int	rawsock_send_batch(const struct rawsock *rs,
	    const struct rawsock_txmsg *m, size_t n);

/*
 * Receives one frame into buf (buflen bytes: give at least MTU + 14).
 * Returns 1 with *f filled; 0 when a frame was dropped (shorter than an
 * Ethernet header, or not ours: call again); -1 with errno: EAGAIN
 * (nothing queued), EMSGSIZE (the frame was longer than buflen and has
 * been discarded, never passed on cut), ENETDOWN (see above), or another
 * recvmsg(2) error.
 */
int	rawsock_recv(struct rawsock *rs, uint8_t *buf, size_t buflen,
	    struct rawsock_frame *f);

/*
 * Receive through a ring from now on (rawsock_recv_batch reads it): 0,
 * or -1 with errno (the socket then stays as it was).  The kernel drops
 * what is queued on the socket when the ring is set up, so read the
 * socket empty right before.  rawsock_ring_off() goes back to the queue; frames
 * in blocks not yet handed over are lost, so call it when the interface
 * is quiet and rawsock_ring_busy() says no block is waiting.
 */
int	rawsock_ring_on(struct rawsock *rs);
void	rawsock_ring_off(struct rawsock *rs);
int	rawsock_ring_busy(const struct rawsock *rs);

/*
 * The header of a ring block of size bytes (as the kernel filled it;
 * checked as if hostile): its used length, the first frame's offset and
 * the number of frames.  0, or -1 when the header is inconsistent.
 */
int	rawsock_block_open(const uint8_t *blk, size_t size, size_t *blk_len,
	    size_t *off, uint32_t *left);
/*
 * One frame of a ring block of blk_len bytes (as the kernel filled it;
 * checked as if hostile): at *off, with *left frames still in the
 * block.  1 with *frame, *len and *pkttype set and *off, *left moved
 * on; 0 when the block is done; -1 when it is malformed.
 */
int	rawsock_block_next(const uint8_t *blk, size_t blk_len, size_t *off,
	    uint32_t *left, const uint8_t **frame, size_t *len,
	    uint8_t *pkttype);

/*
 * Receives up to n (<= RAWSOCK_BATCH_MAX) frames with one recvmmsg(2),
 * or from the ring when there is one: frame i is read (copied) into
 * bufs + i * bufsize.  Frames that are short, cut
 * or not ours are dropped and counted in rs->stats; the good ones fill
 * frames[0..r-1].  Returns r >= 0 (0: all received frames were dropped),
 * or -1 with errno: EAGAIN (nothing queued), EINVAL, or a recvmmsg(2)
 * error.
 */
int	rawsock_recv_batch(struct rawsock *rs, uint8_t *bufs, size_t bufsize,
	    size_t n, struct rawsock_frame *frames);

#endif /* BATSEC_RAWSOCK_H */
