/*
 * ipc.h — the forwarder <-> parser channel (an imsg-like layer).
 *
 * Messages and payloads are in ipc_msg.h.  The channel is an AF_UNIX
 * SOCK_SEQPACKET socketpair: one message per datagram, never merged or
 * split by the kernel.  Three layers of checking, cheapest first:
 *
 *  1. framing (ipc_recv, ipc_msg_parse): the datagram is at least a
 *     header, hdr.len <= IPC_MAX_PAYLOAD, the datagram is exactly
 *     header + hdr.len bytes (truncation detected with MSG_TRUNC),
 *     hdr.reserved == 0, the type is known and travels this way;
 *  2. format (also done by ipc_recv): the payload size is exact for the
 *     type (for variable types: fixed part + count * element, count in
 *     range), strings terminated and printable, reserved fields 0, enum
 *     fields known, and every check that needs no state (MACs unicast and
 *     non-zero, tq and hop ranges, address == bs_mesh_addr(key), ...);
 *  3. state (ipc_check, the forwarder's forwarder/ipc_check.h): the
 *     message fits what the forwarder knows (interface exists, next hop
 *     is an up neighbour, ...).
 *
 * A message from the parser that fails any layer means the parser is
 * compromised or broken: the forwarder logs the error line, kills the
 * parser and respawns it.  Nothing is allocated before layer 2 passes.
 *
 * Sending never blocks: ipc_send() tries the socket once and otherwise
 * queues a copy (bounded in bytes); the event loop polls for POLLOUT while
 * ipc_pending() and then calls ipc_flush().  The sender checks every
 * message with layers 1-2 too, so a bug is caught where it is made.
 *
 * Typical forwarder loop:
 *	struct ipc ch; struct ipc_msg m; char err[256];
 *	ipc_init(&ch, fd, IPC_ROLE_FORWARDER, 0, err, sizeof err);
 *	pfd.events = ipc_poll_events(&ch);
 *	...POLLOUT: if (ipc_flush(&ch) < 0) -> parser gone
 *	...POLLIN:  while ((r = ipc_recv(&ch, &m, err, sizeof err)) ==
 *		        IPC_RECV_MSG) {
 *			if (ipc_check(&ctx, &m, err, sizeof err) ==
 *			    IPC_CHECK_BAD) -> log err, kill, respawn
 *			...apply; ipc_ctx_apply(&ctx, &m);
 *		    }
 *		    if (r == IPC_RECV_BAD) -> log err, kill, respawn
 *		    if (r == IPC_RECV_EOF) -> reap, respawn
 * and to read a payload:
 *	struct ipc_route rt;
 *	if (ipc_get(&m, IPC_ROUTE_ADD, &rt, sizeof rt) == 0) ...
 */
#ifndef BATSEC_IPC_H
#define BATSEC_IPC_H

#include <stddef.h>
#include <stdint.h>

#include "ipc_msg.h"

enum ipc_role {
	IPC_ROLE_FORWARDER = 1,	/* receives parser -> forwarder types */
	IPC_ROLE_PARSER = 2,	/* receives forwarder -> parser types */
};

/* One received message: header and payload, as they were on the wire. */
struct ipc_msg {
	struct ipc_hdr hdr;
	uint8_t data[IPC_MAX_PAYLOAD];
};

struct ipc_qent;

/* Outgoing queue default: a full policy snapshot plus room for traffic. */
#define IPC_QUEUE_DEFAULT	(IPC_POLICY_MAX + (4u << 20))

/* One end of the channel.  Fields are private to ipc.c. */
struct ipc {
	int fd;
	enum ipc_role role;
	size_t queue_max;	/* bytes the queue may hold (with overhead) */
	size_t queued;		/* bytes it holds now */
	size_t nqueued;		/* messages it holds now */
	struct ipc_qent *head, *tail;
	int corked;		/* ipc_cork(): hold sends until ipc_uncork() */
	char err[224];		/* why the last ipc_send said EINVAL */
};

/* socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC); 0 or -1 (errno). */
int ipc_socketpair(int fds[2]);

/*
 * Take over fd (must be a SOCK_SEQPACKET socket: checked) as our end of
 * the channel.  queue_max bounds the outgoing queue in bytes; 0 means
 * IPC_QUEUE_DEFAULT.  The fd's blocking mode does not matter: every call
 * uses MSG_DONTWAIT.  Returns 0, or -1 with err set.
 */
int ipc_init(struct ipc *ipc, int fd, enum ipc_role role, size_t queue_max,
    char *err, size_t errlen);
/* Free the queue and close the fd (a no-op on a cleared or closed ipc). */
void ipc_close(struct ipc *ipc);
/* An end with no channel yet (fd -1): what ipc_close() leaves. */
void ipc_clear(struct ipc *ipc);
/* The channel's descriptor, -1 when there is none. */
int ipc_fd(const struct ipc *ipc);
/* Bytes the outgoing queue holds now (counted against queue_max). */
size_t ipc_queued(const struct ipc *ipc);

/*
 * Send the payload obj (objsize must be sizeof the type's struct in
 * ipc_msg.h; for variable types only the used part of the array is sent,
 * as its count/len field says).  Returns 0 when sent or queued, -1 with
 * errno: EINVAL the message fails the receiver's format checks or goes the
 * wrong way (a bug: ipc_error() says which field), ENOBUFS the
 * queue is full, ENOMEM, or a socket error such as EPIPE (peer gone).
 */
int ipc_send(struct ipc *ipc, uint16_t type, const void *obj, size_t objsize);
/*
 * Queue a whole policy snapshot as POLICY_BEGIN, CHUNKs, POLICY_END, all
 * or nothing: ENOBUFS (nothing queued) when the queue cannot take all of
 * it, EMSGSIZE when len > IPC_POLICY_MAX.  Forwarder only.
 */
int ipc_send_policy(struct ipc *ipc, uint32_t serial, const uint8_t *data,
    size_t len);
/*
 * Parser: send a LOG line, formatted like printf; the text is cut to 255
 * bytes and any non-printable byte becomes '?'.  Same returns as ipc_send.
 * Uses no system call but the send, so it works inside the sandbox.
 */
int ipc_logf(struct ipc *ipc, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The error line of the last ipc_send that returned EINVAL. */
const char *ipc_error(const struct ipc *ipc);

/*
 * Send queued messages until the socket would block.  Returns 0 when the
 * queue is empty, 1 when messages remain (poll for POLLOUT), -1 on a
 * socket error (errno; the peer is gone).
 */
int ipc_flush(struct ipc *ipc);
/*
 * Hold what ipc_send() sends until ipc_uncork(), which flushes it: the
 * messages one input gives rise to then leave in one sendmmsg(2) and the
 * peer wakes once for them, not once each.  A corked queue is flushed
 * early when it holds IPC_CORK_MAX messages.  ipc_uncork() returns what
 * ipc_flush() returns.
 */
#define IPC_CORK_MAX	32
void ipc_cork(struct ipc *ipc);
int ipc_uncork(struct ipc *ipc);
/* Flush, waiting with poll(2) up to timeout_ms; 0 empty, 1 timed out, -1. */
int ipc_flush_wait(struct ipc *ipc, int timeout_ms);
/* Non-zero while messages wait in the queue. */
int ipc_pending(const struct ipc *ipc);
/* POLLIN, plus POLLOUT while messages wait: the events to poll for. */
short ipc_poll_events(const struct ipc *ipc);

#define IPC_RECV_MSG	1	/* *msg holds a message that passed layers 1-2 */
#define IPC_RECV_NONE	0	/* nothing to read now */
#define IPC_RECV_BAD	(-1)	/* refused message or socket error: err set */
#define IPC_RECV_EOF	(-2)	/* peer closed (or sent a 0-byte datagram) */
/*
 * Receive one message into msg.  A refused message is consumed: the
 * caller treats the peer as broken.  Passed file descriptors are never
 * accepted (the kernel discards them and the message is refused).
 */
int ipc_recv(struct ipc *ipc, struct ipc_msg *msg, char *err, size_t errlen);

/* ---- pure functions: no system calls, usable by tests and fuzzers ------- */

/*
 * Layers 1 and 2 over a datagram of len bytes, as `receiver` would see
 * it; on success the datagram is copied into msg.  0 or -1 with err set.
 */
int ipc_msg_parse(struct ipc_msg *msg, const void *buf, size_t len,
    enum ipc_role receiver, char *err, size_t errlen);
/* Layers 1 and 2 over a message already in a struct ipc_msg. */
int ipc_msg_check(const struct ipc_msg *msg, enum ipc_role receiver,
    char *err, size_t errlen);
/*
 * Copy the payload of a checked message into obj.  Fails (-1) unless
 * msg's type is `type`, objsize == sizeof the type's struct, and the
 * payload size is exactly what the type (and its count field) says.
 * Bytes of obj past the used part of a variable array are zeroed.
 */
int ipc_get(const struct ipc_msg *msg, uint16_t type, void *obj,
    size_t objsize);
/*
 * Encode a message (header + payload) into buf of cap bytes; *outlen gets
 * its length.  Checks it as its receiver would (layers 1-2); -1 with err
 * set otherwise (cap too small, wrong objsize, bad fields).
 */
int ipc_encode(void *buf, size_t cap, uint16_t type, const void *obj,
    size_t objsize, size_t *outlen, char *err, size_t errlen);
/* sizeof the payload struct of a type, 0 when unknown. */
size_t ipc_obj_size(uint16_t type);
/* "ROUTE_ADD", ...; "unknown" for an unknown type. */
const char *ipc_type_name(uint16_t type);
/* "rx_frames", ...; NULL for an unknown counter id. */
const char *ipc_stat_name(uint32_t id);
/* The same value checks as the receiver, for code that builds payloads. */
int ipc_mac_is_unicast(const uint8_t mac[static BS_ADDR_LEN]);
int ipc_str_field_ok(const char *s, size_t size, int allow_empty);

/* ---- policy snapshot reassembly (parser) -------------------------------- */

struct ipc_snap {
	uint8_t *buf;		/* total bytes, allocated at POLICY_BEGIN */
	uint32_t serial;
	uint32_t total;
	uint32_t got;
	int active;		/* between BEGIN and END */
};

void ipc_snap_init(struct ipc_snap *s);
/*
 * Feed a POLICY_BEGIN, POLICY_CHUNK or POLICY_END message.  Returns 1 when
 * END completed a snapshot: s->buf holds s->total bytes, and stays valid
 * until the next feed or ipc_snap_free; 0 when more is expected; -1 with
 * err set on a sequence error (chunk without BEGIN, serial mismatch, gap
 * or overlap, past total, END before complete, allocation failure), after
 * which the partial snapshot is dropped.  A BEGIN while another snapshot
 * is incomplete drops the old one and starts over (the forwarder may
 * retry after a failed send).
 */
int ipc_snap_feed(struct ipc_snap *s, const struct ipc_msg *msg, char *err,
    size_t errlen);
void ipc_snap_free(struct ipc_snap *s);

#endif /* BATSEC_IPC_H */
