/*
 * fwd_parser.c — the forwarder's side of the parser: spawning it with a
 * clean slate, watching it die, respawning it with back-off, and the
 * channel, where every message from the parser is hostile (see
 * fwd_parser.h): framed, checked, then handed to the registered handlers.
 */
#include <sys/resource.h>
#include <sys/syscall.h>
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
#include "common/sandbox.h"
#include "fwd_parser.h"

#define FWD_CHAN_FD	3	/* the parser finds its channel here */

void
fwd_parser_init(struct fwd_parser *fp, const struct bs_identity *id)
{
	struct log_rl lrl = LOG_RL_INIT(FWD_PARSER_LOG_BURST,
	    FWD_PARSER_LOG_RATE);
	struct log_rl nrl = LOG_RL_INIT(10, 1);

	memset(fp, 0, sizeof(*fp));
	ipc_clear(&fp->ipc);
	fp->exe_fd = -1;
	fp->id = id;
	fp->backoff_ms = FWD_RESPAWN_MIN_MS;
	fp->log_rl = lrl;
	fp->note_rl = nrl;
}

void
fwd_parser_handlers(struct fwd_parser *fp, const struct fwd_chan_handler *h,
    void *arg)
{
	fp->handlers = h;
	fp->handlers_arg = arg;
}

void
fwd_parser_gate(struct fwd_parser *fp, fwd_chan_gate_fn *fn, void *arg)
{
	fp->gate = fn;
	fp->gate_arg = arg;
}

void
fwd_parser_link_keys(struct fwd_parser *fp, fwd_link_key_fn *fn)
{
	fp->link_key = fn;
}

int
fwd_parser_setup(struct fwd_parser *fp, const char *user,
    const char *chroot_dir, int debug, char *err, size_t errlen)
{
	if (strlen(user) >= sizeof(fp->user) ||
	    strlen(chroot_dir) >= sizeof(fp->chroot_dir))
		return log_errf(err, errlen, "parser user or chroot too long");
	if (fp->exe_fd < 0 &&
	    (fp->exe_fd = sandbox_exe_open(NULL, err, errlen)) < 0)
		return -1;
	snprintf(fp->user, sizeof(fp->user), "%s", user);
	snprintf(fp->chroot_dir, sizeof(fp->chroot_dir), "%s", chroot_dir);
	fp->debug = debug;
	return 0;
}

int
fwd_parser_up(const struct fwd_parser *fp)
{
	return ipc_fd(&fp->ipc) >= 0;
}

int
fwd_parser_fd(const struct fwd_parser *fp)
{
	return ipc_fd(&fp->ipc);
}

int
fwd_parser_pending(const struct fwd_parser *fp)
{
	return ipc_pending(&fp->ipc);
}

int
fwd_parser_flush(struct fwd_parser *fp)
{
	return ipc_flush(&fp->ipc);
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
	fp->hb_seq = fp->hb_acked = fp->hb_fence = 0;
	fp->hb_wait_ms = fp->hb_next_ms = 0;
	return 0;
}

/* ---- spawning ----------------------------------------------------------------- */

/* Close every descriptor from lo up, but keep. */
/* close_range through syscall(2): musl has no wrapper for it. */
static int
fwd_close_range(unsigned lo, unsigned hi)
{
#ifdef SYS_close_range
	return (int)syscall(SYS_close_range, lo, hi, 0);
#else
	(void)lo;
	(void)hi;
	errno = ENOSYS;
	return -1;
#endif
}

static void
fwd_child_close_from(unsigned lo, unsigned keep)
{
	struct rlimit rl;
	unsigned fd;
	int ok;

	if (keep < lo)
		ok = fwd_close_range(lo, ~0U) == 0;
	else
		ok = (keep == lo || fwd_close_range(lo, keep - 1) == 0) &&
		    fwd_close_range(keep + 1, ~0U) == 0;
	if (ok)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		_exit(127);
	for (fd = lo; fd < rl.rlim_cur && fd < 1048576; fd++)
		if (fd != keep)
			close((int)fd);
}

/*
 * In the child, between fork and exec: only async-signal-safe calls.
 * The channel goes to fd 3, /dev/null to 0-2, every other descriptor but
 * the binary's (close-on-exec) is closed, the signal mask and SIGPIPE's
 * disposition are reset (both survive exec), and the environment is
 * empty.  The exec is the one the forwarder's seccomp filter allows.
 */
static void __attribute__((noreturn))
fwd_child_exec(int chan, int exe_fd, char *const argv[])
{
	static char *const envp[] = { NULL };
	struct sigaction sa;
	sigset_t none;
	int null;

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
	fwd_child_close_from(FWD_CHAN_FD + 1, (unsigned)exe_fd);
	(void)sandbox_exe_exec(exe_fd, argv, envp);
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

	if (fp->pid != 0 || fwd_parser_up(fp))
		return log_errf(err, errlen, "a parser is still running");
	if (fp->exe_fd < SANDBOX_EXE_FD_MIN)
		return log_errf(err, errlen, "no descriptor of the binary to "
		    "start the parser from");
	if (ipc_socketpair(sv) != 0)
		return log_errf(err, errlen, "socketpair: %s", strerror(errno));
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return log_errf(err, errlen, "fork: %s", strerror(errno));
	}
	if (pid == 0)
		fwd_child_exec(sv[1], fp->exe_fd, fp->debug ? argv_debug :
		    argv);
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
	abbrev = log_signame(WTERMSIG(status));
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
	if (!fwd_parser_up(fp)) {
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

/* ---- heartbeats ---------------------------------------------------------------- */

static int
fwd_heartbeat_send(struct fwd_parser *fp)
{
	struct ipc_heartbeat hb;

	memset(&hb, 0, sizeof(hb));
	hb.seq = fp->hb_seq + 1;
	if (hb.seq == 0 || fwd_parser_send(fp, IPC_HEARTBEAT, &hb,
	    sizeof(hb)) != 0)
		return -1;
	fp->hb_seq = hb.seq;
	return 0;
}

int
fwd_parser_send_policy(struct fwd_parser *fp, uint32_t serial,
    const uint8_t *data, size_t len)
{
	if (ipc_send_policy(&fp->ipc, serial, data, len) != 0)
		return -1;
	/* The fence: the next heartbeat, sent now if there is room, else
	 * by fwd_parser_tick(); both follow the policy on the channel. */
	fp->hb_fence = fp->hb_seq + 1;
	(void)fwd_heartbeat_send(fp);
	return 0;
}

int
fwd_parser_settled(const struct fwd_parser *fp)
{
	return fp->hb_acked >= fp->hb_fence;
}

uint64_t
fwd_parser_deadline(const struct fwd_parser *fp)
{
	if (!fwd_parser_up(fp))
		return 0;
	if (fp->hb_seq != fp->hb_acked)
		return fp->hb_wait_ms == 0 ? 1 : fp->hb_wait_ms +
		    (uint64_t)FWD_HEARTBEAT_MS * FWD_HEARTBEAT_MISS;
	return fp->hb_next_ms == 0 ? 1 : fp->hb_next_ms;
}

enum fwd_chan_rc
fwd_parser_tick(struct fwd_parser *fp, uint64_t now_ms, char *why,
    size_t whylen)
{
	uint64_t limit = (uint64_t)FWD_HEARTBEAT_MS * FWD_HEARTBEAT_MISS;

	if (!fwd_parser_up(fp))
		return FWD_CHAN_OK;
	if (fp->hb_seq != fp->hb_acked) {
		if (fp->hb_wait_ms == 0)
			fp->hb_wait_ms = now_ms;
		if (now_ms - fp->hb_wait_ms < limit)
			return FWD_CHAN_OK;
		fp->c.silent++;
		log_errf(why, whylen, "no answer to heartbeat %u for %llu ms",
		    fp->hb_acked + 1, (unsigned long long)limit);
		return FWD_CHAN_KILL;
	}
	if (fp->hb_next_ms == 0)
		fp->hb_next_ms = now_ms + FWD_HEARTBEAT_MS;
	if (now_ms < fp->hb_next_ms)
		return FWD_CHAN_OK;
	fp->hb_next_ms = now_ms + FWD_HEARTBEAT_MS;
	if (fwd_heartbeat_send(fp) == 0)
		fp->hb_wait_ms = now_ms;
	return FWD_CHAN_OK;
}

/* An answer: for a heartbeat sent and not answered yet, in order. */
static int
fwd_on_heartbeat_ack(struct fwd_parser *fp, const struct ipc_heartbeat *hb)
{
	if (hb->seq <= fp->hb_acked || hb->seq > fp->hb_seq)
		return -1;
	fp->hb_acked = hb->seq;
	fp->hb_wait_ms = 0;
	return 0;
}

void
fwd_parser_send_frame(struct fwd_parser *fp, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN],
    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *payload,
    size_t len)
{
	struct ipc_frame fr;

	if (!fwd_parser_up(fp)) {
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
	if (ipc_queued(&fp->ipc) >= FWD_FRAME_QUEUE_MAX) {
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

static void
fwd_on_log(struct fwd_parser *fp, const struct ipc_log *l)
{
	/* ipc_recv proved the text NUL-terminated and printable. */
	log_rl(&fp->log_rl, l->level, "parser: %s", l->text);
}

static void
fwd_on_stats(struct fwd_parser *fp, const struct ipc_stats *st)
{
	uint64_t old_rx = fp->stat[IPC_STAT_RX_FRAMES];
	unsigned i;

	for (i = 0; i < st->count && i < IPC_STATS_MAX; i++)
		if (st->s[i].id < IPC_STAT_ID_END)	/* ipc checked it too */
			fp->stat[st->s[i].id] = st->s[i].value;
	if (fp->stat[IPC_STAT_RX_FRAMES] != old_rx)
		log_rl(&fp->note_rl, LOG_DEBUG, "parser stats: rx_frames %llu "
		    "rx_hello %llu rx_ogm %llu drop_malformed %llu",
		    (unsigned long long)fp->stat[IPC_STAT_RX_FRAMES],
		    (unsigned long long)fp->stat[IPC_STAT_RX_HELLO],
		    (unsigned long long)fp->stat[IPC_STAT_RX_OGM],
		    (unsigned long long)fp->stat[IPC_STAT_DROP_MALFORMED]);
}

/* The registered handler of type, if any: 0, or -1 (a violation). */
static int
fwd_chan_dispatch(struct fwd_parser *fp, uint16_t type,
    const union ipc_payload *u)
{
	const struct fwd_chan_handler *h;

	for (h = fp->handlers; h != NULL && h->fn != NULL; h++)
		if (h->type == type)
			return h->fn(fp->handlers_arg, u);
	return 0;
}

/*
 * Answer the parser's LINK_KEY_REQ with the key the parent gives for that
 * link: the OGM key only (fwd_announce_link_key), never the static link
 * key nor the hop key of the data frames.
 */
static int
fwd_on_link_key_req(struct fwd_parser *fp, union ipc_payload *u)
{
	struct ipc_link_key_req rq = u->link_key_req;
	struct ipc_link_key *k = &u->link_key;

	memset(k, 0, sizeof(*k));
	memcpy(k->peer_pk, rq.peer_pk, BS_PK_LEN);
	k->ifindex = rq.ifindex;
	if (fp->link_key == NULL || fp->link_key(fp->handlers_arg, rq.peer_pk,
	    rq.ifindex, k->key, k->key_id) != 0) {
		sodium_memzero(k->key, sizeof(k->key));
		memset(k->key_id, 0, sizeof(k->key_id));
		k->status = IPC_LINK_KEY_REFUSED;
	}
	if (fwd_parser_send(fp, IPC_LINK_KEY, k, sizeof(*k)) != 0)
		log_rl(&fp->note_rl, LOG_WARNING, "LINK_KEY answer not sent");
	sodium_memzero(k, sizeof(*k));
	return 0;
}

/* A vetted message: the channel's own conversation, or a handler's. */
static int
fwd_chan_act(struct fwd_parser *fp, const struct ipc_msg *m)
{
	static union ipc_payload u;	/* up to 4 KiB: not on the stack */
	uint16_t type = m->hdr.type;

	if (ipc_get(m, type, &u, ipc_obj_size(type)) != 0)
		return -1;
	switch (type) {
	case IPC_LOG:
		fwd_on_log(fp, &u.log);
		return 0;
	case IPC_STATS:
		fwd_on_stats(fp, &u.stats);
		return 0;
	case IPC_LINK_KEY_REQ:
		return fwd_on_link_key_req(fp, &u);
	case IPC_HEARTBEAT_ACK:
		return fwd_on_heartbeat_ack(fp, &u.heartbeat);
	default:
		return fwd_chan_dispatch(fp, type, &u);
	}
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
	if (fp->gate != NULL &&
	    (r = fp->gate(fp->gate_arg, m, why, whylen)) != IPC_CHECK_OK) {
		if (r == IPC_CHECK_BAD)
			return FWD_CHAN_KILL;
		/* The parser's view moves on; the tables do not. */
		fp->c.refused++;
		ipc_ctx_apply(&fp->ctx, m);
		return FWD_CHAN_OK;
	}
	fp->c.msgs++;
	ipc_ctx_apply(&fp->ctx, m);
	if (fwd_chan_act(fp, m) == 0)
		return FWD_CHAN_OK;
	log_errf(why, whylen, "IPC %s: payload refused",
	    ipc_type_name(m->hdr.type));
	return FWD_CHAN_KILL;
}

enum fwd_chan_rc
fwd_parser_read(struct fwd_parser *fp, char *why, size_t whylen)
{
	struct ipc_msg m;
	enum fwd_chan_rc rc;
	int i, r;

	if (!fwd_parser_up(fp))
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
