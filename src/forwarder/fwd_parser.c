/*
 * fwd_parser.c — the forwarder's side of the parser: spawning it with a
 * clean slate, watching it die, respawning it with back-off, and the
 * channel, where every message from the parser is hostile.
 */
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "common/log.h"
#include "forwarder.h"
#include "fwd_pins.h"
#include "fwd_tables.h"
#include "fwd_trust.h"
#include "common/sandbox.h"

#define FWD_CHAN_FD	3	/* the parser finds its channel here */

void
fwd_parser_init(struct fwd_parser *fp, const struct bs_identity *id)
{
	struct log_rl lrl = LOG_RL_INIT(FWD_PARSER_LOG_BURST,
	    FWD_PARSER_LOG_RATE);
	struct log_rl nrl = LOG_RL_INIT(10, 1);

	memset(fp, 0, sizeof(*fp));
	fp->ipc.fd = -1;
	fp->id = id;
	fp->backoff_ms = FWD_RESPAWN_MIN_MS;
	fp->log_rl = lrl;
	fp->note_rl = nrl;
}

int
fwd_parser_setup(struct fwd_parser *fp, const char *user,
    const char *chroot_dir, int debug, char *err, size_t errlen)
{
	ssize_t n;

	if (strlen(user) >= sizeof(fp->user) ||
	    strlen(chroot_dir) >= sizeof(fp->chroot_dir))
		return log_errf(err, errlen, "parser user or chroot too long");
	n = readlink("/proc/self/exe", fp->exe, sizeof(fp->exe));
	if (n < 0)
		return log_errf(err, errlen, "readlink /proc/self/exe: %s",
		    strerror(errno));
	if ((size_t)n >= sizeof(fp->exe) || fp->exe[0] != '/')
		return log_errf(err, errlen, "/proc/self/exe: not a usable path");
	fp->exe[n] = '\0';
	snprintf(fp->user, sizeof(fp->user), "%s", user);
	snprintf(fp->chroot_dir, sizeof(fp->chroot_dir), "%s", chroot_dir);
	fp->debug = debug;
	return 0;
}

int
fwd_parser_up(const struct fwd_parser *fp)
{
	return fp->ipc.fd >= 0;
}

int
fwd_parser_attach(struct fwd_parser *fp, int fd, pid_t pid,
    const uint8_t own_addr[static BS_ADDR_LEN], char *err, size_t errlen)
{
	/* The frame share is enforced by fwd_parser_send_frame; the rest of
	 * the default queue is room for a whole policy snapshot. */
	if (ipc_init(&fp->ipc, fd, IPC_ROLE_FORWARDER, 0, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	ipc_ctx_init(&fp->ctx, own_addr);
	memset(fp->stat, 0, sizeof(fp->stat));
	fp->pid = pid;
	return 0;
}

/* ---- spawning ----------------------------------------------------------------- */

/*
 * In the child, between fork and execve: only async-signal-safe calls.
 * The channel goes to fd 3, /dev/null to 0-2, every other descriptor is
 * closed, the signal mask and SIGPIPE's disposition are reset (both
 * survive execve), and the environment is empty.
 */
static void __attribute__((noreturn))
fwd_child_exec(int chan, const char *exe, char *const argv[])
{
	static char *const envp[] = { NULL };
	struct sigaction sa;
	struct rlimit rl;
	sigset_t none;
	int null;
	unsigned fd;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &sa, NULL);
	if (chan == FWD_CHAN_FD) {
		if (fcntl(chan, F_SETFD, 0) != 0)
			_exit(127);
	} else if (dup2(chan, FWD_CHAN_FD) != FWD_CHAN_FD)
		_exit(127);
	if ((null = open("/dev/null", O_RDWR)) < 0 || dup2(null, 0) != 0 ||
	    dup2(null, 1) != 1 || dup2(null, 2) != 2)
		_exit(127);
	if (close_range(FWD_CHAN_FD + 1, ~0U, 0) != 0) {
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			_exit(127);
		for (fd = FWD_CHAN_FD + 1; fd < rl.rlim_cur && fd < 1048576;
		    fd++)
			close((int)fd);
	}
	execve(exe, argv, envp);
	_exit(127);
}

int
fwd_parser_spawn(struct fwd_parser *fp,
    const uint8_t own_addr[static BS_ADDR_LEN], uint64_t now_ms, char *err,
    size_t errlen)
{
	char *argv[] = { "batsecd", "-P", "-u", fp->user, "-r", fp->chroot_dir,
	    NULL };
	char *argv_debug[] = { "batsecd", "-P", "-d", "-u", fp->user, "-r",
	    fp->chroot_dir, NULL };
	int sv[2];
	pid_t pid;

	if (fp->pid != 0 || fp->ipc.fd >= 0)
		return log_errf(err, errlen, "a parser is still running");
	if (ipc_socketpair(sv) != 0)
		return log_errf(err, errlen, "socketpair: %s", strerror(errno));
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return log_errf(err, errlen, "fork: %s", strerror(errno));
	}
	if (pid == 0)
		fwd_child_exec(sv[1], fp->exe, fp->debug ? argv_debug : argv);
	close(sv[1]);
	fp->spawned_ms = now_ms;
	fp->respawn_at_ms = 0;
	fp->c.spawns++;
	if (fwd_parser_attach(fp, sv[0], pid, own_addr, err, errlen) != 0) {
		sandbox_kill(pid, SIGKILL);
		return -1;
	}
	log_info("parser started (pid %ld)", (long)pid);
	return 0;
}

/* ---- death and respawn --------------------------------------------------------- */

void
fwd_describe_status(int status, char *buf, size_t len)
{
	const char *abbrev;

	if (WIFEXITED(status)) {
		snprintf(buf, len, "exited with status %d%s",
		    WEXITSTATUS(status), WEXITSTATUS(status) ==
		    SANDBOX_SIGSYS_EXIT ? " (seccomp, debug mode: forbidden "
		    "system call)" : WEXITSTATUS(status) == 127 ?
		    " (could not execute the parser)" : "");
		return;
	}
	if (!WIFSIGNALED(status)) {
		snprintf(buf, len, "stopped (status 0x%x)", (unsigned)status);
		return;
	}
	abbrev = sigabbrev_np(WTERMSIG(status));
	snprintf(buf, len, "killed by signal %s%s%s",
	    abbrev != NULL ? "SIG" : "", abbrev != NULL ? abbrev : "?",
	    WTERMSIG(status) == SIGSYS ? " (seccomp: forbidden system call)" :
	    "");
}

void
fwd_parser_kill(struct fwd_parser *fp, const char *why)
{
	if (why != NULL)
		log_warnx("parser (pid %ld): %s; killing it", (long)fp->pid,
		    why);
	if (fp->pid > 0 && sandbox_kill(fp->pid, SIGKILL) != 0 &&
	    errno != ESRCH)
		log_warn("kill parser (pid %ld)", (long)fp->pid);
	if (why != NULL)
		fp->c.kills++;
	ipc_close(&fp->ipc);
}

int
fwd_parser_reaped(struct fwd_parser *fp, pid_t pid, int status,
    uint64_t now_ms)
{
	uint64_t lived, at;
	char how[96];

	if (pid <= 0 || pid != fp->pid)
		return 0;
	fwd_describe_status(status, how, sizeof(how));
	log_warnx("parser (pid %ld) %s", (long)pid, how);
	fp->pid = 0;
	fp->c.deaths++;
	ipc_close(&fp->ipc);
	lived = now_ms >= fp->spawned_ms ? now_ms - fp->spawned_ms : 0;
	if (lived >= FWD_PARSER_STABLE_MS)
		fp->backoff_ms = FWD_RESPAWN_MIN_MS;
	at = fp->spawned_ms + fp->backoff_ms;
	fp->respawn_at_ms = at > now_ms ? at : now_ms;
	if (lived < FWD_PARSER_STABLE_MS && fp->backoff_ms < FWD_RESPAWN_MAX_MS)
		fp->backoff_ms = fp->backoff_ms * 2 > FWD_RESPAWN_MAX_MS ?
		    FWD_RESPAWN_MAX_MS : fp->backoff_ms * 2;
	log_info("respawning the parser in %llu ms",
	    (unsigned long long)(fp->respawn_at_ms - now_ms));
	return 1;
}

int
fwd_parser_respawn_due(const struct fwd_parser *fp, uint64_t now_ms)
{
	return fp->pid == 0 && fp->respawn_at_ms != 0 &&
	    now_ms >= fp->respawn_at_ms;
}

void
fwd_parser_stop(struct fwd_parser *fp)
{
	int status;

	ipc_close(&fp->ipc);
	if (fp->pid <= 0)
		return;
	sandbox_kill(fp->pid, SIGKILL);
	while (waitpid(fp->pid, &status, 0) < 0 && errno == EINTR)
		;
	fp->pid = 0;
	fp->respawn_at_ms = 0;
}

/* ---- sending ---------------------------------------------------------------------- */

int
fwd_parser_send(struct fwd_parser *fp, uint16_t type, const void *obj,
    size_t objsize)
{
	if (fp->ipc.fd < 0) {
		errno = ENOTCONN;
		return -1;
	}
	if (ipc_send(&fp->ipc, type, obj, objsize) == 0)
		return 0;
	if (errno == EINVAL)
		log_warnx("IPC %s not sent: %s", ipc_type_name(type),
		    ipc_error(&fp->ipc));
	return -1;
}

/*
 * Bytes waiting in the channel's queue.  ipc.h has no accessor for it
 * (reported as an API gap); the field is read, never written.
 */
static size_t
fwd_ipc_queued(const struct ipc *ipc)
{
	return ipc->queued;
}

void
fwd_parser_send_frame(struct fwd_parser *fp, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN],
    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *payload,
    size_t len)
{
	struct ipc_frame fr;

	if (fp->ipc.fd < 0) {
		fp->c.drop_no_parser++;
		return;
	}
	if (len == 0 || len > IPC_FRAME_MAX) {
		fp->c.drop_size++;
		return;
	}
	if (!ipc_mac_is_unicast(src)) {
		fp->c.drop_src++;
		return;
	}
	if (fwd_ipc_queued(&fp->ipc) >= FWD_FRAME_QUEUE_MAX) {
		fp->c.drop_queue++;
		return;
	}
	fr.ifindex = ifindex;
	memcpy(fr.src, src, BS_ADDR_LEN);
	memcpy(fr.dst, dst, BS_ADDR_LEN);
	fr.len = (uint16_t)len;
	fr.reserved = 0;
	memcpy(fr.data, payload, len);
	if (ipc_send(&fp->ipc, IPC_FRAME, &fr, sizeof(fr)) == 0)
		fp->c.frames_sent++;
	else
		fp->c.drop_queue++;
}

/* ---- receiving ---------------------------------------------------------------------- */

static enum fwd_chan_rc
fwd_on_log(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_log l;

	if (ipc_get(m, IPC_LOG, &l, sizeof(l)) != 0)
		return FWD_CHAN_KILL;
	/* ipc_recv proved the text NUL-terminated and printable. */
	log_rl(&fp->log_rl, l.level, "parser: %s", l.text);
	return FWD_CHAN_OK;
}

static enum fwd_chan_rc
fwd_on_stats(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_stats st;
	uint64_t old_rx = fp->stat[IPC_STAT_RX_FRAMES];
	unsigned i;

	if (ipc_get(m, IPC_STATS, &st, sizeof(st)) != 0)
		return FWD_CHAN_KILL;
	for (i = 0; i < st.count && i < IPC_STATS_MAX; i++)
		if (st.s[i].id < IPC_STAT_ID_END)	/* ipc checked it too */
			fp->stat[st.s[i].id] = st.s[i].value;
	if (fp->stat[IPC_STAT_RX_FRAMES] != old_rx)
		log_rl(&fp->note_rl, LOG_DEBUG, "parser stats: rx_frames %llu "
		    "rx_hello %llu rx_ogm %llu drop_malformed %llu",
		    (unsigned long long)fp->stat[IPC_STAT_RX_FRAMES],
		    (unsigned long long)fp->stat[IPC_STAT_RX_HELLO],
		    (unsigned long long)fp->stat[IPC_STAT_RX_OGM],
		    (unsigned long long)fp->stat[IPC_STAT_DROP_MALFORMED]);
	return FWD_CHAN_OK;
}

/* Derive the link key the parser asked for; the secret never leaves us
 * except in this answer, and our copies are wiped. */
static enum fwd_chan_rc
fwd_on_link_key_req(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_link_key_req rq;
	struct ipc_link_key k;

	if (ipc_get(m, IPC_LINK_KEY_REQ, &rq, sizeof(rq)) != 0)
		return FWD_CHAN_KILL;
	memset(&k, 0, sizeof(k));
	memcpy(k.peer_pk, rq.peer_pk, BS_PK_LEN);
	k.ifindex = rq.ifindex;
	if (fp->id == NULL || bs_link_key(k.key, fp->id, rq.peer_pk) != 0) {
		sodium_memzero(k.key, sizeof(k.key));
		k.status = IPC_LINK_KEY_REFUSED;
	} else
		bs_link_keyid(k.key_id, k.key);
	if (fwd_parser_send(fp, IPC_LINK_KEY, &k, sizeof(k)) != 0)
		log_rl(&fp->note_rl, LOG_WARNING, "LINK_KEY answer not sent");
	/* Our own frames to that neighbour carry tags under the same key. */
	if (fp->owner != NULL && k.status == IPC_LINK_KEY_OK)
		fwd_orig_link_key(fp->owner, k.peer_pk, k.ifindex, k.key,
		    k.key_id);
	sodium_memzero(&k, sizeof(k));
	return FWD_CHAN_OK;
}

/*
 * The vetted routing updates (they passed ipc_check): into the tables of
 * the forwarder, when there is one (a test's bare channel has none).
 */
static enum fwd_chan_rc
fwd_on_neigh(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_neigh n;
	const struct fwd_neigh *old;
	uint8_t old_mac[BS_ADDR_LEN] = { 0 };

	if (ipc_get(m, IPC_NEIGH, &n, sizeof(n)) != 0)
		return FWD_CHAN_KILL;
	if (fp->owner == NULL || fp->owner->tables == NULL)
		return FWD_CHAN_OK;
	/* The in-kernel relay cares for a neighbour's coming, going and
	 * MAC, not for its link quality. */
	if ((old = fwd_neigh_find_pk(fp->owner->tables, n.pk,
	    n.ifindex)) != NULL)
		memcpy(old_mac, old->mac, BS_ADDR_LEN);
	switch (fwd_neigh_update(fp->owner->tables, &n, log_now_ms())) {
	case FWD_NEIGH_FULL:
		log_rl(&fp->note_rl, LOG_WARNING, "neighbour table full: "
		    "NEIGH UP ignored");
		break;
	case FWD_NEIGH_NEW:
	case FWD_NEIGH_GONE:
		fp->owner->fast_dirty = 1;
		break;
	case FWD_NEIGH_CHANGED:
		old = fwd_neigh_find_pk(fp->owner->tables, n.pk, n.ifindex);
		if (old != NULL && memcmp(old->mac, old_mac, BS_ADDR_LEN) != 0)
			fp->owner->fast_dirty = 1;
		break;
	default:
		break;
	}
	return FWD_CHAN_OK;
}

static enum fwd_chan_rc
fwd_on_route_add(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_route rt;
	int moved;

	if (ipc_get(m, IPC_ROUTE_ADD, &rt, sizeof(rt)) != 0)
		return FWD_CHAN_KILL;
	if (fp->owner == NULL || fp->owner->tables == NULL)
		return FWD_CHAN_OK;
	moved = fwd_fast_route_moved(fp->owner, rt.orig_addr, rt.nexthop,
	    rt.ifindex);
	if (fwd_route_add(fp->owner->tables, &rt, log_now_ms()) != 0)
		log_rl(&fp->note_rl, LOG_WARNING, "route table full: "
		    "ROUTE_ADD ignored");
	else if (moved)
		fwd_fast_route_changed(fp->owner, rt.orig_addr);
	return FWD_CHAN_OK;
}

static enum fwd_chan_rc
fwd_on_route_del(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_route_del rd;

	if (ipc_get(m, IPC_ROUTE_DEL, &rd, sizeof(rd)) != 0)
		return FWD_CHAN_KILL;
	if (fp->owner != NULL && fp->owner->tables != NULL &&
	    fwd_route_del(fp->owner->tables, rd.orig_addr) != 0)
		fwd_fast_route_changed(fp->owner, rd.orig_addr);
	return FWD_CHAN_OK;
}

static enum fwd_chan_rc
fwd_on_tt(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_tt tt;

	if (ipc_get(m, IPC_TT, &tt, sizeof(tt)) != 0)
		return FWD_CHAN_KILL;
	if (fp->owner != NULL && fp->owner->tables != NULL &&
	    fwd_client_set(fp->owner->tables, &tt, log_now_ms()) < tt.count)
		log_rl(&fp->note_rl, LOG_WARNING, "client table full: part "
		    "of a TT update ignored");
	return FWD_CHAN_OK;
}

static enum fwd_chan_rc
fwd_on_gw(struct fwd_parser *fp, const struct ipc_msg *m)
{
	struct ipc_gw gw;

	if (ipc_get(m, IPC_GW, &gw, sizeof(gw)) != 0)
		return FWD_CHAN_KILL;
	if (fp->owner != NULL && fp->owner->tables != NULL &&
	    fwd_gw_update(fp->owner->tables, &gw, log_now_ms()) != 0)
		log_rl(&fp->note_rl, LOG_WARNING, "gateway table full: GW "
		    "ignored");
	return FWD_CHAN_OK;
}

/* An entry to relay; one that is not a well-formed entry is a violation. */
static enum fwd_chan_rc
fwd_on_relay(struct fwd_parser *fp, const struct ipc_msg *m)
{
	static struct ipc_relay rl;	/* 1.2 KiB */

	if (ipc_get(m, IPC_RELAY, &rl, sizeof(rl)) != 0)
		return FWD_CHAN_KILL;
	if (fp->owner == NULL)
		return fwd_relay_entry_ok(rl.entry, rl.len) == 0 ?
		    FWD_CHAN_OK : FWD_CHAN_KILL;
	return fwd_orig_relay(fp->owner, &rl, log_now_ms()) == 0 ?
	    FWD_CHAN_OK : FWD_CHAN_KILL;
}

enum fwd_chan_rc
fwd_parser_handle(struct fwd_parser *fp, const struct ipc_msg *m, char *why,
    size_t whylen)
{
	int r = ipc_check(&fp->ctx, m, why, whylen);

	if (r == IPC_CHECK_BAD)
		return FWD_CHAN_KILL;
	if (r == IPC_CHECK_STALE) {
		fp->c.stale++;
		return FWD_CHAN_OK;
	}
	fp->c.msgs++;
	ipc_ctx_apply(&fp->ctx, m);
	switch (m->hdr.type) {
	case IPC_LOG:
		r = fwd_on_log(fp, m);
		break;
	case IPC_STATS:
		r = fwd_on_stats(fp, m);
		break;
	case IPC_LINK_KEY_REQ:
		r = fwd_on_link_key_req(fp, m);
		break;
	case IPC_NEIGH:
		r = fwd_on_neigh(fp, m);
		break;
	case IPC_ROUTE_ADD:
		r = fwd_on_route_add(fp, m);
		break;
	case IPC_ROUTE_DEL:
		r = fwd_on_route_del(fp, m);
		break;
	case IPC_TT:
		r = fwd_on_tt(fp, m);
		break;
	case IPC_GW:
		r = fwd_on_gw(fp, m);
		break;
	case IPC_RELAY:
		r = fwd_on_relay(fp, m);
		break;
	case IPC_REVOKE:
		r = fp->owner == NULL || fwd_trust_on_revoke(fp->owner, m) ==
		    0 ? FWD_CHAN_OK : FWD_CHAN_KILL;
		break;
	case IPC_PIN:
		r = fp->owner == NULL || fwd_pins_on_pin(fp->owner, m) == 0 ?
		    FWD_CHAN_OK : FWD_CHAN_KILL;
		break;
	default:
		/* ipc_check knows every type that travels this way. */
		r = FWD_CHAN_KILL;
	}
	if (r == FWD_CHAN_KILL)
		log_errf(why, whylen, "IPC %s: payload refused",
		    ipc_type_name(m->hdr.type));
	return (enum fwd_chan_rc)r;
}

enum fwd_chan_rc
fwd_parser_read(struct fwd_parser *fp, char *why, size_t whylen)
{
	struct ipc_msg m;
	enum fwd_chan_rc rc;
	int i, r;

	if (fp->ipc.fd < 0)
		return FWD_CHAN_EOF;
	for (i = 0; i < FWD_MSGS_PER_READ; i++) {
		r = ipc_recv(&fp->ipc, &m, why, whylen);
		if (r == IPC_RECV_NONE)
			return FWD_CHAN_OK;
		if (r == IPC_RECV_EOF) {
			log_errf(why, whylen, "closed the channel");
			return FWD_CHAN_EOF;
		}
		if (r != IPC_RECV_MSG)
			return FWD_CHAN_KILL;
		if ((rc = fwd_parser_handle(fp, &m, why, whylen)) != FWD_CHAN_OK)
			return rc;
	}
	return FWD_CHAN_OK;
}
