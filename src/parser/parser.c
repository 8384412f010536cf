/*
 * parser.c — the sandboxed parser process: privilege drop, then a loop
 * that feeds the channel's messages to the parser core.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "common/config.h"
#include "proto/ipc.h"
#include "common/log.h"
#include "parser.h"
#include "pcore.h"
#include "common/sandbox.h"

static int
parser_fail(char *err, size_t errlen, const char *msg)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "batsecd -P: %s", msg);
	return -1;
}

/*
 * USER and CHROOT get exactly batsec.conf(5)'s checks: they are put into
 * a default configuration (with a placeholder interface, which
 * config_validate requires) and the whole is validated.
 */
static int
parser_check_values(const char *user, const char *chroot_dir, char *err,
    size_t errlen)
{
	struct bs_config c;

	if (strlen(user) > BS_CONF_USER_MAX ||
	    strlen(chroot_dir) > BS_CONF_PATH_MAX)
		return parser_fail(err, errlen, "user or chroot too long");
	config_defaults(&c);
	memset(c.user, 0, sizeof(c.user));
	memcpy(c.user, user, strlen(user));
	memset(c.chroot_dir, 0, sizeof(c.chroot_dir));
	memcpy(c.chroot_dir, chroot_dir, strlen(chroot_dir));
	memcpy(c.ifaces[0], "mesh0", sizeof("mesh0"));
	c.n_ifaces = 1;
	return config_validate(&c, err, errlen);
}

int
parser_parse_args(int argc, char **argv, struct parser_args *pa, char *err,
    size_t errlen)
{
	int i = 2;

	memset(pa, 0, sizeof(*pa));
	if (argc < 2 || argv[1] == NULL || strcmp(argv[1], "-P") != 0)
		return parser_fail(err, errlen, "not the parser role");
	if (i < argc && argv[i] != NULL && strcmp(argv[i], "-d") == 0) {
		pa->debug = 1;
		i++;
	}
	if (argc != i + 4 || strcmp(argv[i], "-u") != 0 ||
	    strcmp(argv[i + 2], "-r") != 0 || argv[i + 4] != NULL)
		return parser_fail(err, errlen, "usage: batsecd -P [-d] -u USER "
		    "-r CHROOT (started by batsecd itself)");
	pa->user = argv[i + 1];
	pa->chroot_dir = argv[i + 3];
	return parser_check_values(pa->user, pa->chroot_dir, err, errlen);
}

/* fd 3 must be our end of a SOCK_SEQPACKET socketpair, nothing else. */
static int
parser_check_channel(int fd, char *err, size_t errlen)
{
	int type = 0, domain = 0;
	socklen_t tl = sizeof(type), dl = sizeof(domain);
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
		return parser_fail(err, errlen, "fd 3 is not a socket");
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dl) != 0 ||
	    type != SOCK_SEQPACKET || domain != AF_UNIX)
		return parser_fail(err, errlen, "fd 3 is not an AF_UNIX "
		    "SOCK_SEQPACKET socket");
	return 0;
}

/* ---- the loop ------------------------------------------------------------------ */

struct parser {
	struct ipc ipc;
	struct pcore pc;
	struct ipc_snap snap;
	struct ipc_msg msg;
};

static int
parser_emit(void *arg, uint16_t type, const void *obj, size_t objsize)
{
	return ipc_send(arg, type, obj, objsize);
}

/* Tell the forwarder, wait a little for the line to leave, exit. */
static void __attribute__((noreturn))
parser_die(struct parser *p, const char *why)
{
	ipc_logf(&p->ipc, IPC_LOG_ERR, "%s", why);
	ipc_flush_wait(&p->ipc, 1000);
	_exit(1);
}

static void
parser_on_policy(struct parser *p)
{
	char err[256];
	int r;

	r = ipc_snap_feed(&p->snap, &p->msg, err, sizeof(err));
	if (r < 0)
		parser_die(p, err);
	if (r == 1 && pcore_policy(&p->pc, p->snap.serial, p->snap.buf,
	    p->snap.total, err, sizeof(err)) != 0)
		ipc_logf(&p->ipc, IPC_LOG_ERR, "policy %u refused: %s",
		    p->snap.serial, err);
	if (r == 1)
		ipc_snap_free(&p->snap);
}

static void
parser_on_frame(struct parser *p, uint64_t now_ms)
{
	struct ipc_frame f;

	if (ipc_get(&p->msg, IPC_FRAME, &f, sizeof(f)) != 0)
		parser_die(p, "FRAME: malformed");
	pcore_frame(&p->pc, f.ifindex, f.src, f.dst, f.data, f.len, now_ms);
}

/* The link key travels in the message: every copy is wiped after use. */
static void
parser_on_link_key(struct parser *p)
{
	struct ipc_link_key k;
	char err[256];

	if (ipc_get(&p->msg, IPC_LINK_KEY, &k, sizeof(k)) != 0)
		parser_die(p, "LINK_KEY: malformed");
	if (pcore_link_key(&p->pc, &k, err, sizeof(err)) != 0)
		ipc_logf(&p->ipc, IPC_LOG_ERR, "%s", err);
	sodium_memzero(&k, sizeof(k));
	sodium_memzero(p->msg.data, sizeof(p->msg.data));
}

/*
 * The forwarder's liveness check: answered as soon as it is read, so the
 * answer also says that everything sent before it was read.  An answer
 * that finds the queue full is lost; the forwarder waits for the next.
 */
static void
parser_on_heartbeat(struct parser *p)
{
	struct ipc_heartbeat hb;

	if (ipc_get(&p->msg, IPC_HEARTBEAT, &hb, sizeof(hb)) != 0)
		parser_die(p, "HEARTBEAT: malformed");
	(void)ipc_send(&p->ipc, IPC_HEARTBEAT_ACK, &hb, sizeof(hb));
}

/* One message from the forwarder (layers 1-2 passed in ipc_recv). */
static void
parser_handle(struct parser *p, uint64_t now_ms)
{
	union ipc_payload u;
	char err[256];
	uint16_t type = p->msg.hdr.type;

	if (!p->pc.configured && type != IPC_CONFIG)
		parser_die(p, "the first message was not CONFIG");
	switch (type) {
	case IPC_CONFIG:
		if (ipc_get(&p->msg, type, &u.config, sizeof(u.config)) != 0 ||
		    pcore_config(&p->pc, &u.config, err, sizeof(err)) != 0)
			parser_die(p, "CONFIG refused");
		break;
	case IPC_POLICY_BEGIN:
	case IPC_POLICY_CHUNK:
	case IPC_POLICY_END:
		parser_on_policy(p);
		break;
	case IPC_IFACE:
		if (ipc_get(&p->msg, type, &u.iface, sizeof(u.iface)) != 0 ||
		    pcore_iface(&p->pc, &u.iface, err, sizeof(err)) != 0)
			ipc_logf(&p->ipc, IPC_LOG_WARNING, "IFACE refused");
		break;
	case IPC_FRAME:
		parser_on_frame(p, now_ms);
		break;
	case IPC_LINK_KEY:
		parser_on_link_key(p);
		break;
	case IPC_PINS:
		if (ipc_get(&p->msg, type, &u.pins, sizeof(u.pins)) != 0)
			parser_die(p, "PINS: malformed");
		pcore_pins(&p->pc, &u.pins);
		break;
	case IPC_HEARTBEAT:
		parser_on_heartbeat(p);
		break;
	default:
		parser_die(p, "unexpected message type");
	}
}

/*
 * Drain up to PARSER_MSGS_PER_WAKE messages; exits on EOF or error.  What
 * one message gives rise to (relays, route changes: up to a dozen
 * messages for one OGM frame) leaves in one go, so the forwarder wakes
 * once per frame, not once per entry.
 */
static void
parser_read(struct parser *p, uint64_t now_ms)
{
	char err[256];
	int i, r;

	for (i = 0; i < PARSER_MSGS_PER_WAKE; i++) {
		r = ipc_recv(&p->ipc, &p->msg, err, sizeof(err));
		if (r == IPC_RECV_NONE)
			return;
		if (r == IPC_RECV_EOF) {
			/* What is queued (answers, heartbeat acks) still
			 * goes: the forwarder reads until it sees EOF. */
			ipc_flush_wait(&p->ipc, 1000);
			_exit(0);
		}
		if (r != IPC_RECV_MSG)
			parser_die(p, err);
		ipc_cork(&p->ipc);
		parser_handle(p, now_ms);
		if (ipc_uncork(&p->ipc) < 0)
			_exit(1);
	}
}

static void __attribute__((noreturn))
parser_loop(struct parser *p)
{
	struct pollfd pfd;
	uint64_t now, next = 0;
	int timeout;

	for (;;) {
		now = log_now_ms();
		timeout = next > now ? (int)(next - now) : 0;
		pfd.fd = p->ipc.fd;
		pfd.events = ipc_poll_events(&p->ipc);
		pfd.revents = 0;
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			_exit(1);
		if ((pfd.revents & POLLOUT) && ipc_flush(&p->ipc) < 0)
			_exit(1);
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
			parser_read(p, log_now_ms());
		if (pfd.revents & POLLNVAL)
			_exit(1);
		ipc_cork(&p->ipc);
		next = pcore_tick(&p->pc, log_now_ms());
		if (ipc_uncork(&p->ipc) < 0)
			_exit(1);
	}
}

void
parser_main(int argc, char **argv)
{
	static struct parser p;
	struct parser_args pa;
	char err[512];
	int r;

	if (parser_parse_args(argc, argv, &pa, err, sizeof(err)) != 0 ||
	    parser_check_channel(PARSER_CHAN_FD, err, sizeof(err)) != 0) {
		/* fds 0-2 are /dev/null when batsecd started us. */
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	if (ipc_init(&p.ipc, PARSER_CHAN_FD, IPC_ROLE_PARSER, PARSER_QUEUE_MAX,
	    err, sizeof(err)) != 0)
		_exit(1);
	if (bs_crypto_init() != 0)
		parser_die(&p, "libsodium initialisation failed");
	pcore_init(&p.pc, parser_emit, &p.ipc);
	ipc_snap_init(&p.snap);
	sandbox_set_debug(pa.debug);
	if ((r = sandbox_parser_enter(pa.user, pa.chroot_dir, err,
	    sizeof(err))) < 0)
		parser_die(&p, err);
	if (r == 1)
		ipc_logf(&p.ipc, IPC_LOG_WARNING, "%s", err);
	if (sandbox_parser_seccomp() != 0)
		parser_die(&p, "loading the seccomp filter failed");
	parser_loop(&p);
}
