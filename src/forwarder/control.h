/*
 * control.h — batsecd's control socket: the server side of ctlproto.h.
 *
 * The socket (default /run/batsec/batsecd.sock) is AF_UNIX SOCK_SEQPACKET,
 * one request or reply message per datagram.  Every fd is non-blocking
 * and the module keeps them in an epoll instance of its own, so the
 * forwarder's loop watches one fd and calls three functions:
 *
 *	struct control_opts o = { .path = cfg->socket,
 *	    .cmds = fwd_control_cmds, .ctx = f };
 *	if ((f->ctl = control_open(&o, now, err, sizeof(err))) == NULL)
 *		fatalx("%s", err);
 *	epoll_ctl(f->epfd, EPOLL_CTL_ADD, control_fd(f->ctl), EPOLLIN...);
 *	...
 *	timeout = control_timeout(f->ctl, now);   (merge with the loop's own)
 *	... control_fd readable, or the timeout passed:
 *	control_run(f->ctl, now);
 *	...
 *	control_close(f->ctl);                     (at exit: unlinks the socket)
 *
 * A command handler adds records to the reply builder and ends it:
 *
 *	static void
 *	fwd_ctl_neighbors(void *ctx, size_t argc, const char *const argv[],
 *	    struct ctl_reply *r)
 *	{
 *		for (each neighbour n) {
 *			ctl_reply_record_begin(r);
 *			ctl_reply_field_addr(r, "address", n->addr);
 *			ctl_reply_field_key(r, "key", n->pk);
 *			ctl_reply_field_u64(r, "link_tq", n->tq);
 *			...
 *		}
 *		ctl_reply_ok(r);
 *	}
 *	static const struct control_cmd fwd_control_cmds[] = {
 *		{ CTLP_CMD_NEIGHBORS, 0, 0, fwd_ctl_neighbors },
 *		{ NULL, 0, 0, NULL }
 *	};
 *
 * Field and record errors (a bad name, more than CTLP_REPLY_MAX bytes)
 * are remembered by the builder and turn the whole reply into one error,
 * so a handler need not check every call.  Handlers run synchronously in
 * the forwarder's loop; the reply is queued whole (at most
 * CTLP_REPLY_MAX bytes) and sent as the client reads it.
 *
 * Access: the socket file is created mode 0660 owner root, group
 * CONTROL_GROUP ("batsec-ctl") when that group exists, else mode 0600 (root
 * only).  Every accepted connection is checked with SO_PEERCRED and
 * SO_PEERGROUPS (both captured by the kernel at connect time; no /proc,
 * which systemd's ProtectProc= hides, and no NSS lookups after start-up):
 * the peer must be uid 0, the daemon's own uid, or have the group as its
 * primary or a supplementary group.  Anyone else gets one END "permission
 * denied" and is disconnected at once, as is a peer beyond the client
 * limit ("too many clients"), so neither can hold a slot.
 */
#ifndef BATSEC_CONTROL_H
#define BATSEC_CONTROL_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "proto/ctlproto.h"

/*
 * Not the parser's group: the forwarder refuses to start when the
 * parser's user is in it (sandbox_parser_user_check).
 */
#define CONTROL_GROUP		"batsec-ctl"
#define CONTROL_CLIENTS_MAX	16	/* connected clients at once */
#define CONTROL_IDLE_MS		10000	/* no request / no progress: dropped */
#define CONTROL_BACKLOG		16
#define CONTROL_ACCEPT_BATCH	16	/* connections per control_run */
#define CONTROL_SEND_BATCH	128	/* messages per client per run */
#define CONTROL_ACCEPT_PAUSE_MS	1000	/* after EMFILE and the like */
#define CONTROL_DIR_MODE	0750	/* a parent directory we create */

struct control;
struct ctl_reply;

/*
 * A command.  ctx is control_opts.ctx; argv holds argc validated,
 * NUL-terminated arguments (printable ASCII, 1..CTLP_ARG_MAX bytes) and a
 * final NULL.  The handler must end r with ctl_reply_ok or
 * ctl_reply_error; one that does not gets an internal error sent for it.
 */
typedef void control_handler_fn(void *ctx, size_t argc,
    const char *const argv[], struct ctl_reply *r);

struct control_cmd {
	const char *name;		/* NULL ends a table */
	uint8_t min_args;
	uint8_t max_args;		/* at most CTLP_ARGS_MAX */
	control_handler_fn *handler;
};

struct control_opts {
	const char *path;		/* the socket, at most 107 bytes */
	const char *group;		/* NULL: CONTROL_GROUP; "": root only */
	const struct control_cmd *cmds;	/* searched before the built-ins */
	void *ctx;
	/*
	 * Optional: adds fields to the record of the built-in "status"
	 * command (argc 0, argv NULL); it must not end the reply.
	 */
	control_handler_fn *status_extra;
	uint64_t idle_ms;		/* 0: CONTROL_IDLE_MS */
	size_t clients_max;		/* 0: CONTROL_CLIENTS_MAX (the maximum) */
};

struct control_counters {
	uint64_t accepted;		/* connections admitted */
	uint64_t refused_perm;		/* peer not allowed */
	uint64_t refused_busy;		/* over the client limit */
	uint64_t requests;		/* requests dispatched */
	uint64_t errors;		/* replies that ended in an error */
	uint64_t timeouts;		/* clients dropped for idleness */
};

/*
 * The reply builder.  Its fields are private to control.c; it is declared
 * here so callers (tests, the fuzz harness) can keep one on the stack.
 */
struct ctl_reply {
	uint8_t *buf;			/* RECORDs, each after a u16 length */
	size_t len, cap, max;
	uint32_t records;
	int open;			/* rec is being written */
	int ended;
	int fail;			/* enum ctlp_status of a builder error */
	char failmsg[CTLP_ERR_MAX + 1];
	struct ctlp_rec rec;
	uint8_t recbuf[CTLP_MSG_MAX];
	uint8_t end[CTLP_END_MAX];
	size_t end_len;
	struct control *srv;		/* NULL outside a server */
	uint64_t now_ms;
};

/* ---- the server ---------------------------------------------------------- */

/*
 * Create the parent directory if missing (CONTROL_DIR_MODE, group as
 * above), remove a stale socket file when nothing listens on it (refuse
 * when something does, or when the path is not a socket), bind, set mode
 * and group, listen.  NULL with one line in err on failure.
 */
struct control *control_open(const struct control_opts *o, uint64_t now_ms,
	    char *err, size_t errlen);
/* The fd for the caller's poll/epoll (EPOLLIN): readable -> control_run. */
int	control_fd(const struct control *c);
/*
 * Do everything that is ready without blocking: accept (and check or
 * refuse) new connections, read and answer requests, send queued
 * replies; then drop clients idle for idle_ms.
 */
void	control_run(struct control *c, uint64_t now_ms);
/* Only the idle check of control_run. */
void	control_expire(struct control *c, uint64_t now_ms);
/* Milliseconds until control_run has timed work, or -1 for none. */
int	control_timeout(const struct control *c, uint64_t now_ms);
/* Disconnect everyone, close, unlink the socket if it is still ours. */
void	control_close(struct control *c);
size_t	control_clients(const struct control *c);
const struct control_counters *control_counters(const struct control *c);

/*
 * The access rule, pure: uid 0 or own_uid, or (when have_group) group as
 * the primary gid or one of the n supplementary groups.  1: allowed.
 */
int	control_cred_ok(uid_t uid, gid_t gid, const gid_t *groups, size_t n,
	    uid_t own_uid, int have_group, gid_t group);

/*
 * Decode one request datagram and run it: cmds (may be NULL) first, then
 * the built-ins "status" and "version".  Every problem (malformed, other
 * version, unknown command, argument count) ends r with an error; r is
 * always ended afterwards.  The built-ins read the server from r (given
 * to ctl_reply_init; NULL outside a server).
 */
void	control_dispatch(const struct control_cmd *cmds, void *ctx,
	    const uint8_t *req, size_t len, struct ctl_reply *r);

/* ---- the reply builder --------------------------------------------------- */

/* An empty reply of at most max bytes (0: CTLP_REPLY_MAX).  No allocation. */
void	ctl_reply_init(struct ctl_reply *r, size_t max, struct control *srv,
	    uint64_t now_ms);
void	ctl_reply_free(struct ctl_reply *r);

/* Start a record (ending the one before). */
void	ctl_reply_record_begin(struct ctl_reply *r);
/* Fields of the open record.  Control characters in s become '?'. */
void	ctl_reply_field_str(struct ctl_reply *r, const char *name,
	    const char *s);
void	ctl_reply_field_u64(struct ctl_reply *r, const char *name, uint64_t v);
void	ctl_reply_field_bool(struct ctl_reply *r, const char *name, int v);
/* A public key as base64, a mesh or MAC address as xx:xx:xx:xx:xx:xx. */
void	ctl_reply_field_key(struct ctl_reply *r, const char *name,
	    const uint8_t pk[static 32]);
void	ctl_reply_field_addr(struct ctl_reply *r, const char *name,
	    const uint8_t addr[static 6]);
/* End with success (or with the builder's own error, if one happened). */
void	ctl_reply_ok(struct ctl_reply *r);
/* End with an error: every record is dropped; one line, '?' for controls. */
void	ctl_reply_error(struct ctl_reply *r, int status, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	ctl_reply_ended(const struct ctl_reply *r);
/* The END status; only meaningful once ended. */
int	ctl_reply_status(const struct ctl_reply *r);
/*
 * Walk the messages of an ended reply: start with *pos = 0; 0 gives the
 * message at *pos and advances it, -1 when there are no more.
 */
int	ctl_reply_next(const struct ctl_reply *r, size_t *pos,
	    const uint8_t **msg, size_t *len);

#endif /* BATSEC_CONTROL_H */
