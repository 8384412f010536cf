/*
 * tapoff.h — segmentation and receive coalescing for the TAP (batsec0),
 * so that the host's TCP stack works with 64 KiB packets while the mesh
 * carries MTU-sized frames.
 *
 * The TAP is opened with IFF_VNET_HDR and, once tap_offload() succeeded,
 * with TCP segmentation and checksum offload: every read starts with a
 * struct virtio_net_hdr (TAPOFF_VNET_LEN bytes), and a read may return
 * a TCP packet of up to 64 KiB to be cut into segments of gso_size
 * payload bytes (TSO), or a frame whose checksum is left to us
 * (NEEDS_CSUM).  tapoff_tx() turns each read into the frames the host
 * would have sent without offloads, with valid IPv4 header and TCP/UDP
 * checksums, and hands them to emit() one by one.
 *
 * The other way, frames from the mesh are handed to tapoff_gro_add():
 * consecutive in-order TCP segments of one connection whose checksums
 * verify are joined into one packet with a GSO header (as the kernel's
 * GRO would join them at a NIC), so the host's TCP stack receives one
 * packet instead of dozens and the TAP takes one write.  Anything else is
 * written as it is, in order.  tapoff_gro_flush() writes what is pending;
 * the forwarder calls it after each burst of frames from the mesh, so a
 * segment waits at most until the end of the burst it arrived in.
 *
 * Everything here works on bytes the host or the mesh sent: every length
 * is checked against what is left before it is used, and a frame this
 * module cannot make sense of is dropped (tx) or passed through unjoined
 * (rx) and counted.
 */
#ifndef BATSEC_TAPOFF_H
#define BATSEC_TAPOFF_H

#include <stddef.h>
#include <stdint.h>

#define TAPOFF_VNET_LEN		10	/* struct virtio_net_hdr */
/* The largest packet either way: Ethernet + 802.1Q tag + 64 KiB of IP. */
#define TAPOFF_PKT_MAX		(14 + 4 + 65535)

struct tapoff_stats {
	uint64_t tso_in;	/* TSO packets read from the host */
	uint64_t tso_segs;	/* segments they were cut into */
	uint64_t csum_done;	/* checksums completed for the host */
	uint64_t tx_bad;	/* offload requests refused (dropped) */
	uint64_t gro_out;	/* joined packets written to the host */
	uint64_t gro_segs;	/* segments joined into them */
	uint64_t rx_bad_csum;	/* TCP segments whose checksum failed */
	uint64_t write_errors;	/* writes to the TAP that failed */
};

/* One frame for the mesh (from tapoff_tx). */
typedef void (*tapoff_emit_fn)(void *arg, const uint8_t *frame, size_t len);
/* Write a header and a packet to the TAP: 0, or -1. */
typedef int (*tapoff_write_fn)(void *arg, const uint8_t vnet[TAPOFF_VNET_LEN],
    const uint8_t *pkt, size_t len);

/*
 * One read from the TAP: the virtio header vnet, then pkt (len bytes,
 * modified in place).  Frames go to emit(); a segment is built in seg
 * (frame_max bytes, the largest frame the mesh may carry: the TAP's MTU
 * plus the Ethernet header, 4 more with an 802.1Q tag), and so is no
 * segment larger than frame_max.  Returns the number of frames emitted;
 * 0 when the request was refused (counted in tx_bad).
 */
size_t	tapoff_tx(const uint8_t vnet[TAPOFF_VNET_LEN], uint8_t *pkt,
	    size_t len, uint8_t *seg, size_t frame_max, tapoff_emit_fn emit,
	    void *arg, struct tapoff_stats *st);

struct tapoff_gro {
	uint8_t *buf;		/* TAPOFF_PKT_MAX bytes, the joined packet */
	size_t len;		/* 0: nothing pending */
	size_t l3, l4, hlen;	/* offsets of IP, TCP and the payload */
	uint32_t next_seq;	/* the sequence number that would continue */
	uint16_t mss;		/* payload of the first segment */
	uint8_t v6;
	uint8_t psh;		/* PSH seen: write at once */
	unsigned nseg;
};

/*
 * Ready g; buf is TAPOFF_PKT_MAX bytes of the caller's.  The write
 * callback and its arg are given to each call below.
 */
void	tapoff_gro_init(struct tapoff_gro *g, uint8_t *buf);
/*
 * One Ethernet frame (14..TAPOFF_PKT_MAX bytes) for the host: joined to
 * what is pending, or written (pending first, so the order holds).
 * 0, or -1 when a write failed (counted in write_errors).
 */
int	tapoff_gro_add(struct tapoff_gro *g, const uint8_t *frame, size_t len,
	    tapoff_write_fn w, void *arg, struct tapoff_stats *st);
/* Write what is pending.  0, or -1 when the write failed. */
int	tapoff_gro_flush(struct tapoff_gro *g, tapoff_write_fn w, void *arg,
	    struct tapoff_stats *st);

/* The Internet checksum helpers, for the tests: sum of len bytes at p
 * added to acc (big-endian 16-bit words, a last odd byte padded), and the
 * folded complement of a sum. */
uint64_t tapoff_sum(uint64_t acc, const uint8_t *p, size_t len);
uint16_t tapoff_fold(uint64_t sum);

#endif /* BATSEC_TAPOFF_H */
