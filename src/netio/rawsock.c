/*
 * rawsock.c — AF_PACKET SOCK_RAW sockets for batsec frames, with a locked
 * classic BPF filter (the lldpd way: bind to the interface, attach and
 * lock the filter, ignore our own output).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <net/if_arp.h>
#include <linux/filter.h>
#include <linux/if_packet.h>

#include "bs_bytes.h"
#include "rawsock.h"

#define RAWSOCK_ETHERTYPE_MIN	0x0600	/* below: an 802.3 length field */
#define RAWSOCK_RING_LEN	((size_t)RAWSOCK_RING_BLOCK * RAWSOCK_RING_BLOCKS)
#define RAWSOCK_RING_FRAME	2048	/* the kernel's bookkeeping unit */
#define RAWSOCK_FILTER_ACCEPT	0x40000	/* "keep the whole frame" */

#ifndef SO_LOCK_FILTER
#define SO_LOCK_FILTER		44
#endif

/*
 * The filter: our ethertype, no VLAN tag, addressed to us.  Packet types
 * HOST (0), BROADCAST (1) and MULTICAST (2) pass; OTHERHOST (3) and
 * OUTGOING (4) do not.  A frame too short to hold offset 12..13 makes the
 * load fail, which drops it.  Instruction 5's k is patched to the
 * ethertype.
 */
#define RAWSOCK_FILTER_LEN	8
#define RAWSOCK_FILTER_ETYPE	5
static const struct sock_filter rawsock_filter_tmpl[RAWSOCK_FILTER_LEN] = {
	/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    (uint32_t)SKF_AD_OFF + SKF_AD_PKTTYPE),
	/* 1 */ BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, PACKET_MULTICAST, 5, 0),
	/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    (uint32_t)SKF_AD_OFF + SKF_AD_VLAN_TAG_PRESENT),
	/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
	/* 4 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
	/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
	/* 6 */ BPF_STMT(BPF_RET | BPF_K, RAWSOCK_FILTER_ACCEPT),
	/* 7 */ BPF_STMT(BPF_RET | BPF_K, 0),
};

/* Attaches the filter and locks it so it can never be changed. */
static int
rawsock_filter(int fd, uint16_t ethertype)
{
	struct sock_filter code[RAWSOCK_FILTER_LEN];
	struct sock_fprog prog = { .len = RAWSOCK_FILTER_LEN, .filter = code };
	int one = 1;

	memcpy(code, rawsock_filter_tmpl, sizeof(code));
	code[RAWSOCK_FILTER_ETYPE].k = ethertype;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
	    sizeof(prog)) != 0)
		return -1;
	return setsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &one, sizeof(one));
}

static int
rawsock_options(int fd)
{
	int one = 1, size = RAWSOCK_RCVBUF;

	if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
	    sizeof(one)) != 0)
		return -1;
	/* FORCE passes rmem_max when we may (CAP_NET_ADMIN). */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
	    sizeof(size)) == 0)
		return 0;
	return setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

static int
rawsock_bind(const struct rawsock *rs)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(rs->ethertype);
	sll.sll_ifindex = rs->ifindex;
	return bind(rs->fd, (const struct sockaddr *)&sll, sizeof(sll));
}

int
rawsock_open(struct rawsock *rs, int ifindex, uint16_t ethertype)
{
	int saved;

	memset(rs, 0, sizeof(*rs));
	rs->fd = -1;
	if (ifindex <= 0 || ethertype < RAWSOCK_ETHERTYPE_MIN) {
		errno = EINVAL;
		return -1;
	}
	rs->ifindex = ifindex;
	rs->ethertype = ethertype;
	/* Protocol 0: nothing is queued before the filter and the bind. */
	rs->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (rs->fd < 0)
		return -1;
	if (rawsock_filter(rs->fd, ethertype) != 0 ||
	    rawsock_options(rs->fd) != 0 || rawsock_bind(rs) != 0 ||
	    rawsock_refresh_mac(rs) != 0)
		goto fail;
	return 0;
fail:
	saved = errno;
	rawsock_close(rs);
	errno = saved;
	return -1;
}

long
rawsock_collect_drops(struct rawsock *rs)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	if (rs->fd < 0)
		return 0;
	memset(&st, 0, sizeof(st));
	if (getsockopt(rs->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) != 0)
		return -1;
	rs->stats.rx_queue_drops += st.tp_drops;
	return (long)st.tp_drops;
}

void
rawsock_close(struct rawsock *rs)
{
	if (rs->ring.map != NULL)
		(void)munmap(rs->ring.map, RAWSOCK_RING_LEN);
	memset(&rs->ring, 0, sizeof(rs->ring));
	if (rs->fd >= 0)
		(void)close(rs->fd);
	rs->fd = -1;
}

int
rawsock_refresh_mac(struct rawsock *rs)
{
	struct sockaddr_ll sll;
	socklen_t len = sizeof(sll);

	memset(&sll, 0, sizeof(sll));
	if (getsockname(rs->fd, (struct sockaddr *)&sll, &len) != 0)
		return -1;
	/* The kernel unbinds the socket when its interface is deleted. */
	if (sll.sll_ifindex != rs->ifindex) {
		errno = ENODEV;
		return -1;
	}
	if (sll.sll_hatype != ARPHRD_ETHER || sll.sll_halen != RAWSOCK_MAC_LEN ||
	    len < offsetof(struct sockaddr_ll, sll_addr) + RAWSOCK_MAC_LEN) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	memcpy(rs->mac, sll.sll_addr, RAWSOCK_MAC_LEN);
	return 0;
}

/* The Ethernet header of a frame from rs to dst. */
static void
rawsock_hdr(const struct rawsock *rs, const uint8_t *dst,
    uint8_t hdr[static RAWSOCK_HDR_LEN])
{
	memcpy(hdr, dst, RAWSOCK_MAC_LEN);
	memcpy(hdr + RAWSOCK_MAC_LEN, rs->mac, RAWSOCK_MAC_LEN);
	hdr[12] = (uint8_t)(rs->ethertype >> 8);
	hdr[13] = (uint8_t)rs->ethertype;
}

int
rawsock_send(const struct rawsock *rs,
    const uint8_t dst[static RAWSOCK_MAC_LEN], const void *payload,
    size_t len)
{
	uint8_t hdr[RAWSOCK_HDR_LEN];
	struct iovec iov[2];
	struct msghdr msg;
	ssize_t n;

	if (len > RAWSOCK_PAYLOAD_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	if (len > 0 && payload == NULL) {
		errno = EINVAL;
		return -1;
	}
	rawsock_hdr(rs, dst, hdr);
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);
	/* sendmsg() does not write through iov_base. */
	iov[1].iov_base = (void *)(uintptr_t)payload;
	iov[1].iov_len = len;
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = iov;
	msg.msg_iovlen = len > 0 ? 2 : 1;
	n = sendmsg(rs->fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0)
		return -1;
	if ((size_t)n != sizeof(hdr) + len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int
rawsock_send_batch(const struct rawsock *rs,
    const struct rawsock_txmsg *m, size_t n)
{
	uint8_t hdr[RAWSOCK_BATCH_MAX][RAWSOCK_HDR_LEN];
	struct iovec iov[RAWSOCK_BATCH_MAX][2];
	struct mmsghdr mm[RAWSOCK_BATCH_MAX];
	size_t i;
	int r;

	if (n == 0 || n > RAWSOCK_BATCH_MAX || m == NULL) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (m[i].len > RAWSOCK_PAYLOAD_MAX) {
			errno = EMSGSIZE;
			break;
		}
		if (m[i].dst == NULL || (m[i].len > 0 && m[i].payload == NULL)) {
			errno = EINVAL;
			break;
		}
		rawsock_hdr(rs, m[i].dst, hdr[i]);
		iov[i][0].iov_base = hdr[i];
		iov[i][0].iov_len = RAWSOCK_HDR_LEN;
		/* sendmmsg() does not write through iov_base. */
		iov[i][1].iov_base = (void *)(uintptr_t)m[i].payload;
		iov[i][1].iov_len = m[i].len;
		memset(&mm[i], 0, sizeof(mm[i]));
		mm[i].msg_hdr.msg_iov = iov[i];
		mm[i].msg_hdr.msg_iovlen = m[i].len > 0 ? 2 : 1;
	}
	/* A bad frame ends the batch there, as a failed send would. */
	if (i == 0)
		return -1;
	r = sendmmsg(rs->fd, mm, (unsigned int)i, MSG_DONTWAIT | MSG_NOSIGNAL);
	return r;
}

/* Checks a received frame of n bytes and fills *f: 1 kept, 0 dropped. */
static int
rawsock_take(struct rawsock *rs, const uint8_t *buf, size_t n,
    uint8_t pkttype, struct rawsock_frame *f)
{
	if (n < RAWSOCK_HDR_LEN) {
		rs->stats.rx_short++;
		return 0;
	}
	/*
	 * The filter already refused these; checking again costs nothing.
	 * A group (multicast) source address is never a real sender.
	 */
	if (bs_get16(buf + 12) != rs->ethertype ||
	    pkttype > PACKET_MULTICAST ||
	    (buf[RAWSOCK_MAC_LEN] & 0x01) != 0) {
		rs->stats.rx_foreign++;
		return 0;
	}
	/*
	 * Nobody else sends with our address: such a frame is one of ours
	 * come back (a replay, a bridged loop).  Dropped here, it costs the
	 * parser nothing, however fast it comes.
	 */
	if (memcmp(buf + RAWSOCK_MAC_LEN, rs->mac, RAWSOCK_MAC_LEN) == 0) {
		rs->stats.rx_own++;
		return 0;
	}
	memcpy(f->dst, buf, RAWSOCK_MAC_LEN);
	memcpy(f->src, buf + RAWSOCK_MAC_LEN, RAWSOCK_MAC_LEN);
	f->payload = buf + RAWSOCK_HDR_LEN;
	f->len = n - RAWSOCK_HDR_LEN;
	f->pkttype = pkttype;
	rs->stats.rx_frames++;
	return 1;
}

int
rawsock_recv(struct rawsock *rs, uint8_t *buf, size_t buflen,
    struct rawsock_frame *f)
{
	struct sockaddr_ll sll;
	struct iovec iov = { .iov_base = buf, .iov_len = buflen };
	struct msghdr msg;
	ssize_t n;

	memset(&sll, 0, sizeof(sll));
	memset(&msg, 0, sizeof(msg));
	msg.msg_name = &sll;
	msg.msg_namelen = sizeof(sll);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	/* MSG_TRUNC: the result is the frame's real length. */
	n = recvmsg(rs->fd, &msg, MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0)
		return -1;
	if ((size_t)n > buflen || (msg.msg_flags & MSG_TRUNC)) {
		rs->stats.rx_trunc++;
		errno = EMSGSIZE;
		return -1;
	}
	return rawsock_take(rs, buf, (size_t)n, sll.sll_pkttype, f);
}

/* ---- the receive ring ------------------------------------------------------ */

_Static_assert(RAWSOCK_RING_BLOCK % RAWSOCK_RING_FRAME == 0,
    "whole frames per block");

int
rawsock_ring_on(struct rawsock *rs)
{
	struct tpacket_req3 req;
	int v = TPACKET_V3, saved;
	void *m;

	if (rs->fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (rs->ring.map != NULL)
		return 0;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = RAWSOCK_RING_BLOCK;
	req.tp_block_nr = RAWSOCK_RING_BLOCKS;
	req.tp_frame_size = RAWSOCK_RING_FRAME;
	req.tp_frame_nr = RAWSOCK_RING_LEN / RAWSOCK_RING_FRAME;
	req.tp_retire_blk_tov = RAWSOCK_RING_TOV_MS;
	if (setsockopt(rs->fd, SOL_PACKET, PACKET_VERSION, &v,
	    sizeof(v)) != 0 ||
	    setsockopt(rs->fd, SOL_PACKET, PACKET_RX_RING, &req,
	    sizeof(req)) != 0)
		return -1;
	m = mmap(NULL, RAWSOCK_RING_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
	    rs->fd, 0);
	if (m == MAP_FAILED) {
		saved = errno;
		memset(&req, 0, sizeof(req));
		(void)setsockopt(rs->fd, SOL_PACKET, PACKET_RX_RING, &req,
		    sizeof(req));
		errno = saved;
		return -1;
	}
	memset(&rs->ring, 0, sizeof(rs->ring));
	rs->ring.map = m;
	return 0;
}

void
rawsock_ring_off(struct rawsock *rs)
{
	struct tpacket_req3 req;
	void *m;

	if (rs->ring.map == NULL)
		return;
	(void)munmap(rs->ring.map, RAWSOCK_RING_LEN);
	memset(&req, 0, sizeof(req));
	if (setsockopt(rs->fd, SOL_PACKET, PACKET_RX_RING, &req,
	    sizeof(req)) == 0) {
		memset(&rs->ring, 0, sizeof(rs->ring));
		return;
	}
	/* The kernel kept the ring: map it again rather than go deaf. */
	m = mmap(NULL, RAWSOCK_RING_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
	    rs->fd, 0);
	rs->ring.map = m == MAP_FAILED ? NULL : m;
}

static struct tpacket_block_desc *
rawsock_ring_block(const struct rawsock *rs)
{
	return (struct tpacket_block_desc *)(void *)(rs->ring.map +
	    (size_t)rs->ring.cur * RAWSOCK_RING_BLOCK);
}

static int
rawsock_ring_user(const struct tpacket_block_desc *bd)
{
	return (__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
	    TP_STATUS_USER) != 0;
}

int
rawsock_ring_busy(const struct rawsock *rs)
{
	return rs->ring.map != NULL && (rs->ring.left > 0 ||
	    rawsock_ring_user(rawsock_ring_block(rs)));
}

int
rawsock_block_open(const uint8_t *blk, size_t size, size_t *blk_len,
    size_t *off, uint32_t *left)
{
	struct tpacket_block_desc bd;

	*left = 0;
	if (size < sizeof(bd))
		return -1;
	memcpy(&bd, blk, sizeof(bd));
	if (bd.hdr.bh1.blk_len > size ||
	    bd.hdr.bh1.offset_to_first_pkt < sizeof(bd) ||
	    bd.hdr.bh1.offset_to_first_pkt > bd.hdr.bh1.blk_len) {
		*left = bd.hdr.bh1.num_pkts;
		return -1;
	}
	*blk_len = bd.hdr.bh1.blk_len;
	*off = bd.hdr.bh1.offset_to_first_pkt;
	*left = bd.hdr.bh1.num_pkts;
	return 0;
}

int
rawsock_block_next(const uint8_t *blk, size_t blk_len, size_t *off,
    uint32_t *left, const uint8_t **frame, size_t *len, uint8_t *pkttype)
{
	struct tpacket3_hdr h;
	struct sockaddr_ll sll;
	const size_t sll_off = TPACKET_ALIGN(sizeof(h));
	size_t o = *off;

	if (*left == 0)
		return 0;
	if (o > blk_len || blk_len - o < sll_off + sizeof(sll))
		return -1;
	memcpy(&h, blk + o, sizeof(h));
	memcpy(&sll, blk + o + sll_off, sizeof(sll));
	if (h.tp_mac < sll_off + sizeof(sll) || h.tp_mac > blk_len - o ||
	    h.tp_snaplen > blk_len - o - h.tp_mac)
		return -1;
	if (--*left > 0) {
		if (h.tp_next_offset < (uint64_t)h.tp_mac + h.tp_snaplen ||
		    h.tp_next_offset > blk_len - o)
			return -1;
		*off = o + h.tp_next_offset;
	}
	*frame = blk + o + h.tp_mac;
	*len = h.tp_snaplen;
	*pkttype = sll.sll_pkttype;
	/* Cut short (longer than a block holds): not a whole frame. */
	return h.tp_snaplen == h.tp_len ? 1 : 2;
}

/* Hand the block back to the kernel; the next one is read next. */
static void
rawsock_ring_release(struct rawsock *rs,
    struct tpacket_block_desc *bd)
{
	__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL,
	    __ATOMIC_RELEASE);
	rs->ring.left = 0;
	rs->ring.cur = (rs->ring.cur + 1) % RAWSOCK_RING_BLOCKS;
}

/*
 * rawsock_recv_batch() from the ring: up to n frames, copied out so that
 * each block goes back to the kernel as soon as it is read.  Bounded: a
 * call looks at no more than RAWSOCK_RING_BLOCKS blocks.
 */
static int
rawsock_ring_recv(struct rawsock *rs, uint8_t *bufs,
    size_t bufsize, size_t n, struct rawsock_frame *frames)
{
	struct rawsock_ring *r = &rs->ring;
	struct tpacket_block_desc *bd;
	const uint8_t *fr;
	size_t got = 0, seen = 0, len;
	unsigned opened = 0;
	uint8_t pt;
	int x, k = 0;

	while (got < n) {
		bd = rawsock_ring_block(rs);
		if (r->left == 0) {
			if (opened++ == RAWSOCK_RING_BLOCKS || !rawsock_ring_user(bd))
				break;
			if (rawsock_block_open((const uint8_t *)bd,
			    RAWSOCK_RING_BLOCK, &r->blen, &r->off,
			    &r->left) != 0 || r->left == 0) {
				if (r->left != 0)
					rs->stats.rx_short++;
				rawsock_ring_release(rs, bd);
				continue;
			}
		}
		x = rawsock_block_next((const uint8_t *)bd, r->blen, &r->off,
		    &r->left, &fr, &len, &pt);
		seen++;
		if (x < 0) {
			/* The kernel wrote it; still, never read past it. */
			rs->stats.rx_short++;
			rawsock_ring_release(rs, bd);
			continue;
		}
		if (x == 2 || len > bufsize)
			rs->stats.rx_trunc++;
		else {
			memcpy(bufs + got * bufsize, fr, len);
			k += rawsock_take(rs, bufs + got * bufsize, len, pt,
			    &frames[k]);
			got++;
		}
		if (r->left == 0)
			rawsock_ring_release(rs, bd);
	}
	if (seen == 0) {
		errno = EAGAIN;
		return -1;
	}
	return k;
}

int
rawsock_recv_batch(struct rawsock *rs, uint8_t *bufs, size_t bufsize,
    size_t n, struct rawsock_frame *frames)
{
	struct mmsghdr mm[RAWSOCK_BATCH_MAX];
	struct iovec iov[RAWSOCK_BATCH_MAX];
	struct sockaddr_ll sll[RAWSOCK_BATCH_MAX];
	size_t i, len;
	int r, k = 0;

	if (n == 0 || n > RAWSOCK_BATCH_MAX || bufsize == 0 ||
	    bufsize > SIZE_MAX / RAWSOCK_BATCH_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (rs->ring.map != NULL)
		return rawsock_ring_recv(rs, bufs, bufsize, n, frames);
	memset(mm, 0, sizeof(mm));
	memset(sll, 0, sizeof(sll));
	for (i = 0; i < n; i++) {
		iov[i].iov_base = bufs + i * bufsize;
		iov[i].iov_len = bufsize;
		mm[i].msg_hdr.msg_name = &sll[i];
		mm[i].msg_hdr.msg_namelen = sizeof(sll[i]);
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	r = recvmmsg(rs->fd, mm, (unsigned int)n, MSG_DONTWAIT | MSG_TRUNC,
	    NULL);
	if (r < 0)
		return -1;
	for (i = 0; i < (size_t)r; i++) {
		len = mm[i].msg_len;
		if (len > bufsize || (mm[i].msg_hdr.msg_flags & MSG_TRUNC)) {
			rs->stats.rx_trunc++;
			continue;
		}
		k += rawsock_take(rs, bufs + i * bufsize, len,
		    sll[i].sll_pkttype, &frames[k]);
	}
	return k;
}
