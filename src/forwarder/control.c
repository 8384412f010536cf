/*
 * control.c — batsecd's control socket (control.h): the reply builder,
 * request dispatch with the built-in commands, and the non-blocking
 * server (socket set-up, peer credentials, clients, timeouts).
 */
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batsec_keys.h"
#include "control.h"
#include "common/log.h"
#include "common/version.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS	59	/* Linux 4.13 */
#endif

/* The reply buffer starts at this size and doubles up to its maximum. */
#define CONTROL_REPLY_INIT	16384
/* epoll data of the listening socket; clients are slot + 1 | gen << 8. */
#define CONTROL_TAG_LISTEN	0
#define CONTROL_EVENTS		(CONTROL_CLIENTS_MAX + 1)

struct control_client {
	int fd;				/* -1: free slot */
	uint32_t gen;			/* bumped on reuse: stale events */
	pid_t pid;
	uid_t uid;
	uint64_t last_ms;		/* connect, request or send progress */
	int sending;			/* a reply is queued (EPOLLOUT) */
	size_t send_pos;		/* ctl_reply_next position */
	struct ctl_reply reply;
};

struct control {
	int lfd;			/* listening socket */
	int epfd;			/* our epoll: lfd and every client */
	int listening;			/* lfd is in epfd (not paused) */
	uint64_t accept_resume_ms;	/* while paused */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev;			/* the socket file we made */
	ino_t ino;
	int have_group;
	gid_t group;
	char group_name[64];
	uid_t own_uid;
	const struct control_cmd *cmds;
	void *ctx;
	control_handler_fn *status_extra;
	uint64_t idle_ms;
	uint64_t started_ms;
	size_t clients_max;
	size_t nclients;
	struct control_counters cnt;
	struct log_rl rl;		/* refusals and socket errors */
	uint8_t rbuf[CTLP_MSG_MAX + 1];	/* one more: longer ones truncate */
	struct control_client cl[CONTROL_CLIENTS_MAX];
};

/* ---- the reply builder -------------------------------------------------- */

void
ctl_reply_init(struct ctl_reply *r, size_t max, struct control *srv,
    uint64_t now_ms)
{
	r->buf = NULL;
	r->len = r->cap = 0;
	r->max = max == 0 || max > CTLP_REPLY_MAX ? CTLP_REPLY_MAX : max;
	r->records = 0;
	r->open = r->ended = r->fail = 0;
	r->failmsg[0] = '\0';
	r->end_len = 0;
	r->srv = srv;
	r->now_ms = now_ms;
}

void
ctl_reply_free(struct ctl_reply *r)
{
	free(r->buf);
	r->buf = NULL;
	r->len = r->cap = 0;
}

/* Remember the first builder error; the reply will end with it. */
static void __attribute__((format(printf, 3, 4)))
ctl_reply_fail(struct ctl_reply *r, int status, const char *fmt, ...)
{
	va_list ap;

	if (r->fail != 0)
		return;
	r->fail = status;
	va_start(ap, fmt);
	(void)vsnprintf(r->failmsg, sizeof(r->failmsg), fmt, ap);
	va_end(ap);
}

/* Room for n more bytes in buf, growing it up to max. */
static int
ctl_reply_room(struct ctl_reply *r, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (n > r->max - r->len) {
		ctl_reply_fail(r, CTLP_E_TOOBIG, "reply larger than %zu bytes",
		    r->max);
		return -1;
	}
	if (n <= r->cap - r->len)
		return 0;
	cap = r->cap != 0 ? r->cap : r->max < CONTROL_REPLY_INIT ? r->max :
	    CONTROL_REPLY_INIT;
	while (cap - r->len < n)
		cap = cap > r->max / 2 ? r->max : cap * 2;
	if ((p = realloc(r->buf, cap)) == NULL) {
		ctl_reply_fail(r, CTLP_E_FAILED, "out of memory for the reply");
		return -1;
	}
	r->buf = p;
	r->cap = cap;
	return 0;
}

/*
 * Close the open record: it must decode (that catches a duplicate field
 * name where it is made), then it is appended after its u16 length.
 */
static void
ctl_reply_record_end(struct ctl_reply *r)
{
	struct ctlp_record dec;
	char err[128];
	size_t n;

	if (!r->open)
		return;
	r->open = 0;
	if (r->fail != 0)
		return;
	if (ctlp_rec_end(&r->rec, &n) != 0) {
		ctl_reply_fail(r, CTLP_E_INTERNAL, "a record with no fields or "
		    "a bad field");
		return;
	}
	if (ctlp_record_decode(r->recbuf, n, &dec, err, sizeof(err)) != 0) {
		ctl_reply_fail(r, CTLP_E_INTERNAL, "%s", err);
		return;
	}
	if (ctl_reply_room(r, n + 2) != 0)
		return;
	bs_put16(r->buf + r->len, (uint16_t)n);
	memcpy(r->buf + r->len + 2, r->recbuf, n);
	r->len += n + 2;
	r->records++;
}

void
ctl_reply_record_begin(struct ctl_reply *r)
{
	if (r->ended)
		return;
	ctl_reply_record_end(r);
	ctlp_rec_begin(&r->rec, r->recbuf, sizeof(r->recbuf));
	r->open = 1;
}

/* 1 when a field may be added; else the reply will fail. */
static int
ctl_reply_field_ready(struct ctl_reply *r, const char *name)
{
	if (r->ended || r->fail != 0)
		return 0;
	if (!r->open) {
		ctl_reply_fail(r, CTLP_E_INTERNAL, "field '%.32s' outside a "
		    "record", name);
		return 0;
	}
	return 1;
}

static void
ctl_reply_field_done(struct ctl_reply *r, const char *name, int rc)
{
	if (rc != 0)
		ctl_reply_fail(r, CTLP_E_INTERNAL, "field '%.32s' is invalid "
		    "or does not fit in one record", name);
}

void
ctl_reply_field_str(struct ctl_reply *r, const char *name, const char *s)
{
	char v[CTLP_STR_MAX];
	size_t i, n = strnlen(s, CTLP_STR_MAX + 1);

	if (!ctl_reply_field_ready(r, name))
		return;
	if (n > CTLP_STR_MAX) {
		ctl_reply_fail(r, CTLP_E_INTERNAL, "field '%.32s' is longer "
		    "than %d bytes", name, CTLP_STR_MAX);
		return;
	}
	for (i = 0; i < n; i++)
		v[i] = (unsigned char)s[i] < 0x20 ||
		    (unsigned char)s[i] > 0x7e ? '?' : s[i];
	ctl_reply_field_done(r, name, ctlp_rec_str(&r->rec, name, v, n));
}

void
ctl_reply_field_u64(struct ctl_reply *r, const char *name, uint64_t v)
{
	if (ctl_reply_field_ready(r, name))
		ctl_reply_field_done(r, name, ctlp_rec_u64(&r->rec, name, v));
}

void
ctl_reply_field_bool(struct ctl_reply *r, const char *name, int v)
{
	if (ctl_reply_field_ready(r, name))
		ctl_reply_field_done(r, name, ctlp_rec_bool(&r->rec, name, v));
}

void
ctl_reply_field_key(struct ctl_reply *r, const char *name,
    const uint8_t pk[static 32])
{
	char b64[BS_KEY_B64_LEN + 1];

	bs_key_to_b64(b64, pk);
	ctl_reply_field_str(r, name, b64);
}

void
ctl_reply_field_addr(struct ctl_reply *r, const char *name,
    const uint8_t addr[static 6])
{
	char s[18];

	bs_addr_to_str(s, addr);
	ctl_reply_field_str(r, name, s);
}

/* Store the END; the content is ours and always valid. */
static void
ctl_reply_set_end(struct ctl_reply *r, uint8_t status, const char *msg)
{
	struct ctlp_end e;

	memset(&e, 0, sizeof(e));
	e.status = status;
	e.records = status == CTLP_OK ? r->records : 0;
	(void)snprintf(e.msg, sizeof(e.msg), "%s", msg);
	if (ctlp_end_encode(r->end, sizeof(r->end), &e, &r->end_len, NULL,
	    0) != 0)
		abort();
	r->ended = 1;
}

/* Drop every record: an error reply carries none. */
static void
ctl_reply_discard(struct ctl_reply *r)
{
	r->open = 0;
	r->len = 0;
	r->records = 0;
}

static void __attribute__((format(printf, 3, 0)))
ctl_reply_vend_error(struct ctl_reply *r, int status, const char *fmt,
    va_list ap)
{
	char msg[CTLP_ERR_MAX + 1];
	size_t i;

	if (status <= CTLP_OK || status > 255)
		status = CTLP_E_INTERNAL;
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	for (i = 0; msg[i] != '\0'; i++)
		if ((unsigned char)msg[i] < 0x20 ||
		    (unsigned char)msg[i] > 0x7e)
			msg[i] = '?';
	if (msg[0] == '\0')
		(void)snprintf(msg, sizeof(msg), "%s",
		    ctlp_status_str((unsigned)status));
	ctl_reply_discard(r);
	ctl_reply_set_end(r, (uint8_t)status, msg);
}

void
ctl_reply_error(struct ctl_reply *r, int status, const char *fmt, ...)
{
	va_list ap;

	if (r->ended)
		return;
	va_start(ap, fmt);
	ctl_reply_vend_error(r, status, fmt, ap);
	va_end(ap);
}

void
ctl_reply_ok(struct ctl_reply *r)
{
	if (r->ended)
		return;
	ctl_reply_record_end(r);
	if (r->fail != 0)
		ctl_reply_error(r, r->fail, "%s", r->failmsg);
	else
		ctl_reply_set_end(r, CTLP_OK, "");
}

int
ctl_reply_ended(const struct ctl_reply *r)
{
	return r->ended;
}

int
ctl_reply_status(const struct ctl_reply *r)
{
	return r->ended && r->end_len > CTLP_HDR_LEN ? r->end[CTLP_HDR_LEN] :
	    CTLP_E_INTERNAL;
}

int
ctl_reply_next(const struct ctl_reply *r, size_t *pos, const uint8_t **msg,
    size_t *len)
{
	size_t n;

	if (!r->ended || *pos > r->len)
		return -1;
	if (*pos == r->len) {
		*msg = r->end;
		*len = r->end_len;
		*pos = r->len + 1;
		return 0;
	}
	/* Our own framing, but checked anyway: it bounds the walk. */
	if (r->len - *pos < 2)
		return -1;
	n = bs_get16(r->buf + *pos);
	if (n > r->len - *pos - 2)
		return -1;
	*msg = r->buf + *pos + 2;
	*len = n;
	*pos += n + 2;
	return 0;
}

/* ---- dispatch and the built-in commands --------------------------------- */

/* A record that starts with the daemon's and the protocol's versions. */
static void
control_version_record(struct ctl_reply *r)
{
	ctl_reply_record_begin(r);
	ctl_reply_field_str(r, "version", BATSEC_VERSION);
	ctl_reply_field_u64(r, "protocol", CTLP_VERSION);
}

static void
control_builtin_version(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	control_version_record(r);
	ctl_reply_ok(r);
}

/* Liveness: answers without touching the routing code. */
static void
control_builtin_status(void *ctx, size_t argc, const char *const argv[],
    struct ctl_reply *r)
{
	struct control *c = r->srv;

	(void)ctx;
	(void)argc;
	(void)argv;
	control_version_record(r);
	if (c != NULL) {
		ctl_reply_field_u64(r, "uptime_ms",
		    r->now_ms >= c->started_ms ? r->now_ms - c->started_ms : 0);
		ctl_reply_field_u64(r, "clients", c->nclients);
		if (c->status_extra != NULL)
			c->status_extra(c->ctx, 0, NULL, r);
	}
	ctl_reply_ok(r);
}

static const struct control_cmd control_builtins[] = {
	{ CTLP_CMD_STATUS, 0, 0, control_builtin_status },
	{ CTLP_CMD_VERSION, 0, 0, control_builtin_version },
	{ NULL, 0, 0, NULL }
};

static const struct control_cmd *
control_lookup(const struct control_cmd *table, const char *name)
{
	for (; table != NULL && table->name != NULL; table++)
		if (strcmp(table->name, name) == 0)
			return table;
	return NULL;
}

/* "takes 1 argument", "takes 0 to 4 arguments" */
static void
control_usage(struct ctl_reply *r, const struct control_cmd *cmd, size_t argc)
{
	if (cmd->min_args == cmd->max_args)
		ctl_reply_error(r, CTLP_E_USAGE, "%s: takes %u argument%s, "
		    "got %zu", cmd->name, cmd->min_args,
		    cmd->min_args == 1 ? "" : "s", argc);
	else
		ctl_reply_error(r, CTLP_E_USAGE, "%s: takes %u to %u "
		    "arguments, got %zu", cmd->name, cmd->min_args,
		    cmd->max_args, argc);
}

void
control_dispatch(const struct control_cmd *cmds, void *ctx,
    const uint8_t *req, size_t len, struct ctl_reply *r)
{
	struct ctlp_request rq;
	const struct control_cmd *cmd;
	const char *argv[CTLP_ARGS_MAX + 1];
	char err[160];
	size_t i;
	int rc;

	if ((rc = ctlp_request_decode(req, len, &rq, err, sizeof(err))) != 0) {
		ctl_reply_error(r, rc, "%s", err);
		return;
	}
	if ((cmd = control_lookup(cmds, rq.name)) == NULL)
		cmd = control_lookup(control_builtins, rq.name);
	if (cmd == NULL) {
		ctl_reply_error(r, CTLP_E_UNKNOWN, "unknown command '%s'",
		    rq.name);
		return;
	}
	if (rq.argc < cmd->min_args || rq.argc > cmd->max_args) {
		control_usage(r, cmd, rq.argc);
		return;
	}
	for (i = 0; i < rq.argc; i++)
		argv[i] = rq.arg[i];
	argv[i] = NULL;
	cmd->handler(ctx, rq.argc, argv, r);
	if (!r->ended)
		ctl_reply_error(r, CTLP_E_INTERNAL, "%s: the command gave no "
		    "reply", rq.name);
}

/* ---- access ------------------------------------------------------------- */

int
control_cred_ok(uid_t uid, gid_t gid, const gid_t *groups, size_t n,
    uid_t own_uid, int have_group, gid_t group)
{
	size_t i;

	if (uid == 0 || uid == own_uid)
		return 1;
	if (!have_group)
		return 0;
	if (gid == group)
		return 1;
	for (i = 0; i < n; i++)
		if (groups[i] == group)
			return 1;
	return 0;
}

/*
 * The peer's supplementary groups as the kernel recorded them at connect
 * time; *n = 0 where the kernel cannot say (then only the primary gid
 * counts).  Returns what the caller frees (may be NULL).
 */
static gid_t *
control_peer_groups(int fd, size_t *n)
{
	socklen_t len = 64 * sizeof(gid_t);
	gid_t *g;
	int tries;

	*n = 0;
	for (tries = 0; tries < 2; tries++) {
		if ((g = malloc(len)) == NULL)
			return NULL;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len) == 0) {
			*n = len / sizeof(gid_t);
			return g;
		}
		free(g);
		/* ERANGE: len now says how much is needed. */
		if (errno != ERANGE || len == 0 ||
		    len > NGROUPS_MAX * sizeof(gid_t))
			return NULL;
	}
	return NULL;
}

/* 1 when the peer of fd may use the socket; *cr is filled either way. */
static int
control_peer_ok(const struct control *c, int fd, struct ucred *cr)
{
	socklen_t len = sizeof(*cr);
	gid_t *groups = NULL;
	size_t n = 0;
	int ok;

	memset(cr, 0, sizeof(*cr));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cr, &len) != 0 ||
	    len != sizeof(*cr)) {
		cr->uid = (uid_t)-1;
		return 0;
	}
	if (control_cred_ok(cr->uid, cr->gid, NULL, 0, c->own_uid,
	    c->have_group, c->group))
		return 1;
	if (c->have_group)
		groups = control_peer_groups(fd, &n);
	ok = control_cred_ok(cr->uid, cr->gid, groups, n, c->own_uid,
	    c->have_group, c->group);
	free(groups);
	return ok;
}

/* ---- clients ------------------------------------------------------------ */

static uint64_t
control_tag(const struct control *c, size_t slot)
{
	return (uint64_t)c->cl[slot].gen << 8 | (slot + 1);
}

static int
control_watch(struct control *c, int op, size_t slot, uint32_t events)
{
	struct epoll_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.u64 = control_tag(c, slot);
	return epoll_ctl(c->epfd, op, c->cl[slot].fd, &ev);
}

static void
control_drop(struct control *c, size_t slot)
{
	struct control_client *cl = &c->cl[slot];

	if (cl->fd < 0)
		return;
	(void)epoll_ctl(c->epfd, EPOLL_CTL_DEL, cl->fd, NULL);
	(void)close(cl->fd);
	cl->fd = -1;
	cl->gen++;
	cl->sending = 0;
	ctl_reply_free(&cl->reply);
	c->nclients--;
}

/*
 * One END to a connection we do not keep, then close it.  What the peer
 * already sent is discarded first: closing with unread data makes the
 * peer's next read fail with ECONNRESET before it reaches our END.
 */
static void
control_refuse(int fd, int status, const char *msg)
{
	struct ctlp_end e;
	uint8_t buf[CTLP_END_MAX];
	size_t n;
	int i;

	memset(&e, 0, sizeof(e));
	e.status = (uint8_t)status;
	(void)snprintf(e.msg, sizeof(e.msg), "%s", msg);
	if (ctlp_end_encode(buf, sizeof(buf), &e, &n, NULL, 0) == 0)
		(void)send(fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	for (i = 0; i < CONTROL_BACKLOG; i++)
		if (recv(fd, buf, 0, MSG_DONTWAIT | MSG_TRUNC) < 0)
			break;
	(void)close(fd);
}

static ssize_t
control_free_slot(const struct control *c)
{
	size_t i;

	if (c->nclients >= c->clients_max)
		return -1;
	for (i = 0; i < c->clients_max; i++)
		if (c->cl[i].fd < 0)
			return (ssize_t)i;
	return -1;
}

/* Check a new connection and keep it, or refuse it. */
static void
control_admit(struct control *c, int fd, uint64_t now_ms)
{
	struct control_client *cl;
	struct ucred cr;
	ssize_t slot;

	if (!control_peer_ok(c, fd, &cr)) {
		c->cnt.refused_perm++;
		log_rl(&c->rl, LOG_WARNING, "control: refused pid %ld uid %ld: "
		    "not root and not in group %s", (long)cr.pid, (long)cr.uid,
		    c->have_group ? c->group_name : "(none)");
		control_refuse(fd, CTLP_E_PERM, "permission denied: only root "
		    "and the control group may use this socket");
		return;
	}
	if ((slot = control_free_slot(c)) < 0) {
		c->cnt.refused_busy++;
		log_rl(&c->rl, LOG_WARNING, "control: refused pid %ld: %zu "
		    "clients already", (long)cr.pid, c->nclients);
		control_refuse(fd, CTLP_E_BUSY, "too many control clients, "
		    "try again later");
		return;
	}
	cl = &c->cl[slot];
	cl->fd = fd;
	cl->pid = cr.pid;
	cl->uid = cr.uid;
	cl->last_ms = now_ms;
	cl->sending = 0;
	ctl_reply_init(&cl->reply, 0, c, now_ms);
	if (control_watch(c, EPOLL_CTL_ADD, (size_t)slot, EPOLLIN) != 0) {
		log_rl(&c->rl, LOG_WARNING, "control: epoll: %s",
		    strerror(errno));
		cl->fd = -1;
		(void)close(fd);
		return;
	}
	c->nclients++;
	c->cnt.accepted++;
}

/* Stop watching the listening socket for a while (out of fds). */
static void
control_pause_accept(struct control *c, uint64_t now_ms)
{
	if (c->listening &&
	    epoll_ctl(c->epfd, EPOLL_CTL_DEL, c->lfd, NULL) == 0)
		c->listening = 0;
	c->accept_resume_ms = now_ms + CONTROL_ACCEPT_PAUSE_MS;
}

static void
control_resume_accept(struct control *c, uint64_t now_ms)
{
	struct epoll_event ev;

	if (c->listening || now_ms < c->accept_resume_ms)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u64 = CONTROL_TAG_LISTEN;
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->lfd, &ev) == 0)
		c->listening = 1;
	else
		c->accept_resume_ms = now_ms + CONTROL_ACCEPT_PAUSE_MS;
}

static void
control_accept(struct control *c, uint64_t now_ms)
{
	int fd, i;

	for (i = 0; i < CONTROL_ACCEPT_BATCH; i++) {
		fd = accept4(c->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0) {
			control_admit(c, fd, now_ms);
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		/* EMFILE, ENOBUFS...: the pending connection would wake the
		 * loop again at once; pause instead of spinning. */
		log_rl(&c->rl, LOG_WARNING, "control: accept: %s",
		    strerror(errno));
		control_pause_accept(c, now_ms);
		return;
	}
}

/* The whole reply is out: wait for the next request. */
static int
control_sent(struct control *c, size_t slot, uint64_t now_ms)
{
	struct control_client *cl = &c->cl[slot];

	ctl_reply_free(&cl->reply);
	ctl_reply_init(&cl->reply, 0, c, now_ms);
	if (cl->sending && control_watch(c, EPOLL_CTL_MOD, slot, EPOLLIN)) {
		control_drop(c, slot);
		return -1;
	}
	cl->sending = 0;
	return 0;
}

/* Send what the client will take; 0, or -1 when it was dropped. */
static int
control_send(struct control *c, size_t slot, uint64_t now_ms)
{
	struct control_client *cl = &c->cl[slot];
	const uint8_t *msg;
	size_t len, pos;
	ssize_t n;
	int i;

	for (i = 0; i < CONTROL_SEND_BATCH; i++) {
		pos = cl->send_pos;
		if (ctl_reply_next(&cl->reply, &pos, &msg, &len) != 0)
			return control_sent(c, slot, now_ms);
		n = send(cl->fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0 || (size_t)n != len) {
			control_drop(c, slot);
			return -1;
		}
		cl->send_pos = pos;
		cl->last_ms = now_ms;
	}
	if (!cl->sending) {
		cl->sending = 1;
		if (control_watch(c, EPOLL_CTL_MOD, slot, EPOLLOUT) != 0) {
			control_drop(c, slot);
			return -1;
		}
	}
	return 0;
}

/* Read one request and start sending its reply. */
static void
control_read(struct control *c, size_t slot, uint64_t now_ms)
{
	struct control_client *cl = &c->cl[slot];
	struct iovec iov = { c->rbuf, sizeof(c->rbuf) };
	struct msghdr mh;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	n = recvmsg(cl->fd, &mh, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return;
	/* 0: the peer closed (an empty datagram reads the same). */
	if (n <= 0) {
		control_drop(c, slot);
		return;
	}
	cl->last_ms = now_ms;
	c->cnt.requests++;
	ctl_reply_init(&cl->reply, 0, c, now_ms);
	if ((mh.msg_flags & MSG_TRUNC) || (size_t)n > CTLP_MSG_MAX)
		ctl_reply_error(&cl->reply, CTLP_E_PROTO, "request longer "
		    "than %d bytes", CTLP_MSG_MAX);
	else
		control_dispatch(c->cmds, c->ctx, c->rbuf, (size_t)n,
		    &cl->reply);
	if (ctl_reply_status(&cl->reply) != CTLP_OK)
		c->cnt.errors++;
	cl->send_pos = 0;
	(void)control_send(c, slot, now_ms);
}

static void
control_client_event(struct control *c, uint64_t tag, uint64_t now_ms)
{
	size_t slot = (size_t)(tag & 0xff) - 1;

	if (slot >= c->clients_max || c->cl[slot].fd < 0 ||
	    control_tag(c, slot) != tag)
		return;		/* closed (and maybe reused) in this round */
	if (c->cl[slot].sending)
		(void)control_send(c, slot, now_ms);
	else
		control_read(c, slot, now_ms);
}

void
control_expire(struct control *c, uint64_t now_ms)
{
	size_t i;

	control_resume_accept(c, now_ms);
	for (i = 0; i < c->clients_max; i++) {
		if (c->cl[i].fd < 0 || now_ms < c->cl[i].last_ms ||
		    now_ms - c->cl[i].last_ms < c->idle_ms)
			continue;
		log_rl(&c->rl, LOG_INFO, "control: dropped idle client pid "
		    "%ld", (long)c->cl[i].pid);
		c->cnt.timeouts++;
		control_drop(c, i);
	}
}

void
control_run(struct control *c, uint64_t now_ms)
{
	struct epoll_event ev[CONTROL_EVENTS];
	int i, n;

	n = epoll_wait(c->epfd, ev, CONTROL_EVENTS, 0);
	for (i = 0; i < n; i++) {
		if (ev[i].data.u64 == CONTROL_TAG_LISTEN)
			control_accept(c, now_ms);
		else
			control_client_event(c, ev[i].data.u64, now_ms);
	}
	control_expire(c, now_ms);
}

int
control_timeout(const struct control *c, uint64_t now_ms)
{
	uint64_t next = UINT64_MAX, t;
	size_t i;

	if (!c->listening)
		next = c->accept_resume_ms;
	for (i = 0; i < c->clients_max; i++) {
		if (c->cl[i].fd < 0)
			continue;
		t = c->cl[i].last_ms + c->idle_ms;
		if (t < next)
			next = t;
	}
	if (next == UINT64_MAX)
		return -1;
	if (next <= now_ms)
		return 0;
	return next - now_ms > INT_MAX ? INT_MAX : (int)(next - now_ms);
}

size_t
control_clients(const struct control *c)
{
	return c->nclients;
}

const struct control_counters *
control_counters(const struct control *c)
{
	return &c->cnt;
}

int
control_fd(const struct control *c)
{
	return c->epfd;
}

/* ---- set-up ------------------------------------------------------------- */

/* A table mistake is a bug in the daemon: refuse to start. */
static int
control_check_cmds(const struct control_cmd *t, char *err, size_t errlen)
{
	for (; t != NULL && t->name != NULL; t++) {
		if (!ctlp_cmd_name_ok(t->name, strnlen(t->name,
		    CTLP_NAME_MAX + 1)) || t->handler == NULL ||
		    t->min_args > t->max_args || t->max_args > CTLP_ARGS_MAX) {
			log_errf(err, errlen, "control: bad command table "
			    "entry '%.40s'", t->name);
			return -1;
		}
	}
	return 0;
}

/*
 * The control group's gid, looked up once now (before any sandbox), in
 * /etc/group; through NSS only when that file cannot be read (as
 * sb_getpw() in sandbox.c, and for the same reason).
 */
static void
control_find_group(struct control *c, const char *name)
{
	struct group gr, *res = NULL;
	char buf[16384];
	FILE *f;
	int rc = 0;

	c->have_group = 0;
	(void)snprintf(c->group_name, sizeof(c->group_name), "%s", name);
	if (*name == '\0')
		return;
	if ((f = fopen("/etc/group", "re")) != NULL) {
		while ((res = fgetgrent(f)) != NULL &&
		    strcmp(res->gr_name, name) != 0)
			;
		(void)fclose(f);
	} else
		rc = getgrnam_r(name, &gr, buf, sizeof(buf), &res);
	if (rc == 0 && res != NULL) {
		c->group = res->gr_gid;
		c->have_group = 1;
	} else if (rc != 0) {
		log_warnx("control: cannot look up group %s: %s; the socket "
		    "is for root only", name, strerror(rc));
	}
}

/* Split path into its directory (without a trailing '/'). */
static int
control_dirname(const char *path, char *dir, size_t dirlen)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (slash == NULL) {
		(void)snprintf(dir, dirlen, ".");
		return 0;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= dirlen)
		return -1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

/* Create the socket's directory when it is missing; leave one that exists. */
static int
control_make_dir(const struct control *c, char *err, size_t errlen)
{
	char dir[sizeof(c->path)];
	struct stat st;

	if (control_dirname(c->path, dir, sizeof(dir)) != 0)
		return -1;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		log_errf(err, errlen, "control socket %s: %s is not a "
		    "directory", c->path, dir);
		return -1;
	}
	if (errno != ENOENT || mkdir(dir, CONTROL_DIR_MODE) != 0 ||
	    lchown(dir, (uid_t)-1, c->have_group ? c->group : (gid_t)-1) ||
	    chmod(dir, CONTROL_DIR_MODE) != 0) {
		log_errf(err, errlen, "control socket %s: cannot create "
		    "directory %s: %s", c->path, dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void
control_sockaddr(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, strlen(path));
}

/*
 * An existing file at the path: a socket nobody listens on is a leftover
 * of a crash and is removed; a listening socket means another daemon
 * runs; anything else is not ours to delete.
 */
static int
control_clear_stale(const struct control *c, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd, rc, e;

	if (lstat(c->path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		log_errf(err, errlen, "control socket %s: %s", c->path,
		    strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		log_errf(err, errlen, "control socket %s: exists and is "
		    "not a socket; not removing it", c->path);
		return -1;
	}
	if ((fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) < 0) {
		log_errf(err, errlen, "control socket: %s", strerror(errno));
		return -1;
	}
	control_sockaddr(&sun, c->path);
	rc = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
	e = errno;
	(void)close(fd);
	if (rc != 0 && e == ENOENT)
		return 0;
	if (rc == 0 || e == EAGAIN || e == EINPROGRESS) {
		log_errf(err, errlen, "control socket %s: another batsecd "
		    "is listening on it", c->path);
		return -1;
	}
	if (e != ECONNREFUSED) {
		log_errf(err, errlen, "control socket %s: %s", c->path,
		    strerror(e));
		return -1;
	}
	if (unlink(c->path) != 0 && errno != ENOENT) {
		log_errf(err, errlen, "control socket %s: cannot remove the "
		    "stale socket: %s", c->path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Bind with the final mode already set by the umask (a chmod by path
 * could follow a symlink swapped in), then give the file to the group.
 */
static int
control_bind(struct control *c, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct stat st;
	mode_t old;
	int rc;

	c->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0);
	if (c->lfd < 0)
		goto fail;
	control_sockaddr(&sun, c->path);
	old = umask(c->have_group ? 0117 : 0177);
	rc = bind(c->lfd, (struct sockaddr *)&sun, sizeof(sun));
	(void)umask(old);
	if (rc != 0 || lstat(c->path, &st) != 0)
		goto fail;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	if (c->have_group && lchown(c->path, (uid_t)-1, c->group) != 0)
		goto fail;
	if (listen(c->lfd, CONTROL_BACKLOG) != 0)
		goto fail;
	return 0;
fail:
	log_errf(err, errlen, "control socket %s: %s", c->path,
	    strerror(errno));
	return -1;
}

static int
control_epoll(struct control *c, char *err, size_t errlen)
{
	struct epoll_event ev;

	if ((c->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		log_errf(err, errlen, "control: epoll: %s", strerror(errno));
		return -1;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u64 = CONTROL_TAG_LISTEN;
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->lfd, &ev) != 0) {
		log_errf(err, errlen, "control: epoll: %s", strerror(errno));
		return -1;
	}
	c->listening = 1;
	return 0;
}

static struct control *
control_new(const struct control_opts *o, uint64_t now_ms)
{
	struct log_rl rl = LOG_RL_INIT(10, 1);
	struct control *c;
	size_t i;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->lfd = c->epfd = -1;
	(void)snprintf(c->path, sizeof(c->path), "%s", o->path);
	c->own_uid = geteuid();
	c->cmds = o->cmds;
	c->ctx = o->ctx;
	c->status_extra = o->status_extra;
	c->idle_ms = o->idle_ms != 0 ? o->idle_ms : CONTROL_IDLE_MS;
	c->clients_max = o->clients_max != 0 &&
	    o->clients_max < CONTROL_CLIENTS_MAX ? o->clients_max :
	    CONTROL_CLIENTS_MAX;
	c->started_ms = now_ms;
	c->rl = rl;
	for (i = 0; i < CONTROL_CLIENTS_MAX; i++)
		c->cl[i].fd = -1;
	control_find_group(c, o->group != NULL ? o->group : CONTROL_GROUP);
	return c;
}

struct control *
control_open(const struct control_opts *o, uint64_t now_ms, char *err,
    size_t errlen)
{
	struct control *c;
	size_t n = o->path != NULL ? strnlen(o->path, sizeof(c->path)) : 0;

	if (n == 0 || n >= sizeof(c->path)) {
		log_errf(err, errlen, "control socket: path is empty or "
		    "longer than %zu bytes", sizeof(c->path) - 1);
		return NULL;
	}
	if (control_check_cmds(o->cmds, err, errlen) != 0)
		return NULL;
	if ((c = control_new(o, now_ms)) == NULL) {
		log_errf(err, errlen, "control: out of memory");
		return NULL;
	}
	if (control_make_dir(c, err, errlen) != 0 ||
	    control_clear_stale(c, err, errlen) != 0) {
		free(c);
		return NULL;
	}
	if (control_bind(c, err, errlen) != 0 ||
	    control_epoll(c, err, errlen) != 0) {
		control_close(c);
		return NULL;
	}
	return c;
}

void
control_close(struct control *c)
{
	struct stat st;
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < CONTROL_CLIENTS_MAX; i++)
		control_drop(c, i);
	if (c->lfd >= 0) {
		(void)close(c->lfd);
		/* Only the file we bound: a newer daemon may own the path. */
		if (lstat(c->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
		    st.st_dev == c->dev && st.st_ino == c->ino)
			(void)unlink(c->path);
	}
	if (c->epfd >= 0)
		(void)close(c->epfd);
	free(c);
}
