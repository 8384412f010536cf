/*
 * forwarder.c — batsecd's privileged process: start-up, the event loop,
 * signals, reload and shutdown.
 *
 * Start-up does everything that can fail because of the configuration
 * before it creates any interface (TAP, raw sockets), so a bad setting
 * exits with one line and status 1 and leaves nothing behind.  The order:
 * configuration, secret key, policy, state directory, the parser's chroot
 * directory, the epoch (bumped and persisted before anything is sent),
 * the control socket; then netlink, the tables, the TAP (MAC, MTU, up),
 * the mesh interfaces; daemonise; drop to CAP_NET_ADMIN|CAP_NET_RAW and
 * load the forwarder's seccomp filter; start the parser; loop.
 *
 * The loop's timed work: the parser's respawn, HELLOs, OGMs and relay
 * flushes (fwd_announce.c), table expiry once a second, and the control
 * socket's idle clients.
 *
 * What the parser sends is applied by the modules that own the state it
 * changes; the table below tells the channel (fwd_parser.c) which.
 */
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "batsec_keys.h"
#include "batsec_policy.h"
#include "common/sandbox.h"
#include "common/version.h"
#include "control.h"
#include "forwarder.h"
#include "fwd_admit.h"
#include "fwd_announce.h"
#include "fwd_apply.h"
#include "fwd_control.h"
#include "fwd_data.h"
#include "fwd_fast.h"
#include "fwd_gateway.h"
#include "fwd_ifaces.h"
#include "fwd_parser.h"
#include "fwd_pins.h"
#include "fwd_poll.h"
#include "fwd_settings.h"
#include "fwd_tables.h"
#include "fwd_tap.h"
#include "fwd_trust.h"
#include "fwd_types.h"
#include "netio/netlink.h"
#include "state.h"

#define FWD_EVENTS_MAX	32
#define FWD_TAP_BURST	64	/* TAP frames read per wake-up */
#define FWD_PURGE_MS	1000	/* table expiry runs this often */
/*
 * Free heap goes back to the kernel this often (and this long after the
 * start).  What start-up, a policy reload or a long control answer
 * allocated and freed stays resident otherwise: glibc only gives back
 * the top of the heap, and only above 128 KiB (measured: 96 KiB of the
 * forwarder's 280 KiB heap on an idle 50-node chain).
 */
#define FWD_TRIM_MS	60000
#define FWD_TRIM_FIRST_MS 10000

/* ---- the parser ------------------------------------------------------------------------ */

/* What the parser's vetted messages change, and who owns it. */
static const struct fwd_chan_handler fwd_chan_handlers[] = {
	{ IPC_NEIGH, fwd_apply_neigh },
	{ IPC_ROUTE_ADD, fwd_apply_route_add },
	{ IPC_ROUTE_DEL, fwd_apply_route_del },
	{ IPC_ROUTE_ALT, fwd_apply_route_alt },
	{ IPC_TT, fwd_apply_tt },
	{ IPC_GW, fwd_apply_gw },
	{ IPC_MCAST, fwd_apply_mcast },
	{ IPC_DESC_WANT, fwd_apply_desc_want },
	{ IPC_HELLO_SIGN, fwd_apply_hello_sign },
	{ IPC_RELAY, fwd_announce_on_relay },
	{ IPC_REVOKE, fwd_trust_on_revoke },
	{ IPC_PIN, fwd_pins_on_pin },
	{ IPC_CERT, fwd_admit_on_cert },
	{ 0, NULL }
};

void
forwarder_handlers(struct fwd *f)
{
	fwd_parser_handlers(&f->parser, fwd_chan_handlers, f);
	/* Every key the parser vouches for, checked against our policy. */
	fwd_parser_gate(&f->parser, fwd_admit_gate, f);
	/* And a trust edit removes what it refuses at once. */
	f->trust.changed = fwd_admit_sync;
	fwd_parser_link_keys(&f->parser, fwd_announce_link_key);
}

/*
 * Keep epoll in step with the channel: a new channel (respawn; the fd
 * number may be the old one's) is added, and POLLOUT is watched only
 * while messages wait in its queue.
 */
static void
fwd_chan_watch(struct fwd *f)
{
	int fd = fwd_parser_fd(&f->parser);
	uint32_t want = EPOLLIN |
	    (fwd_parser_pending(&f->parser) ? EPOLLOUT : 0);

	if (fd != f->chan_fd || f->parser.c.spawns != f->chan_gen) {
		f->chan_fd = -1;
		f->chan_gen = f->parser.c.spawns;
		if (fd < 0)
			return;
		if (fwd_poll_add(f->epfd, fd, want,
		    FWD_POLL_TAG(FWD_POLL_CHAN, 0)) != 0)
			fatal("epoll: parser channel");
		f->chan_fd = fd;
		f->chan_events = want;
		return;
	}
	if (fd < 0 || want == f->chan_events)
		return;
	if (fwd_poll_mod(f->epfd, fd, want,
	    FWD_POLL_TAG(FWD_POLL_CHAN, 0)) != 0)
		fatal("epoll: parser channel");
	f->chan_events = want;
}

/* A new parser learns everything it needs, in this order. */
static void
fwd_spawn_parser(struct fwd *f)
{
	char err[256];

	/*
	 * A new parser knows no neighbour (its ipc_ctx starts empty) and
	 * announces everything again: forget what the last one said, so the
	 * tables stay in step with what ipc_check will allow.  Until now
	 * the last vetted tables kept the data plane going.
	 */
	if (f->tables != NULL && f->parser.c.spawns > 0) {
		fwd_tables_parser_reset(f->tables);
		f->fast_dirty = 1;
	}
	/*
	 * New link salts at every respawn: the OGM keys the last parser
	 * held stop working once the neighbours' grace for them is over.
	 */
	if (f->data != NULL && f->parser.c.spawns > 0)
		fwd_links_rotate_all(&f->data->links, log_now_ms());

	if (fwd_parser_spawn(&f->parser, f->own_addr, log_now_ms(), err,
	    sizeof(err)) != 0) {
		log_warnx("starting the parser: %s", err);
		f->parser.respawn_at_ms = log_now_ms() + FWD_RESPAWN_MAX_MS;
		return;
	}
	fwd_send_config(f);
	fwd_trust_push(f);
	fwd_pins_push(f);
	fwd_ifaces_announce(f);
	/*
	 * A new parser holds no link key: the neighbours' tagged HELLOs wait
	 * for the signed ones ours (with the fresh flag and the new salts)
	 * make them send at once, so ours go out at once too.
	 */
	if (f->parser.c.spawns > 1)
		fwd_announce_hello_burst_all(f, log_now_ms());
}

static void
fwd_on_chan(struct fwd *f, uint32_t events)
{
	char why[256] = "";
	enum fwd_chan_rc rc;

	if ((events & EPOLLOUT) && fwd_parser_flush(&f->parser) < 0) {
		log_warn("parser channel");
		fwd_parser_kill(&f->parser, NULL);
		return;
	}
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return;
	rc = fwd_parser_read(&f->parser, why, sizeof(why));
	if (rc == FWD_CHAN_KILL)
		fwd_parser_kill(&f->parser, why);
	else if (rc == FWD_CHAN_EOF) {
		log_warnx("parser (pid %ld) %s", (long)f->parser.pid, why);
		fwd_parser_kill(&f->parser, NULL);
	}
}

static void
fwd_reap(struct fwd *f)
{
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if (!fwd_parser_reaped(&f->parser, pid, status, log_now_ms()))
			log_debug("reaped unknown child %ld", (long)pid);
}

/* ---- TAP ------------------------------------------------------------------------------ */

/* A frame for the mesh, as the host would have sent it (tapoff_tx). */
static void
fwd_on_tap_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct fwd *f = arg;

	f->tap_rx_frames++;
	fwd_data_tap_rx(f->data, frame, len, f->tap_now);
	fwd_announce_clients(f, f->tap_now);
}

/*
 * Frames the host sends into the mesh: with offloads, a read may be a TCP
 * packet of up to 64 KiB, cut here into segments the mesh can carry
 * (tapoff.h), at most the TAP's MTU each.
 */
static void
fwd_on_tap(struct fwd *f)
{
	uint8_t vnet[TAP_VNET_LEN];
	ssize_t n;
	int i;

	for (i = 0; i < FWD_TAP_BURST; i++) {
		n = tap_read_vnet(&f->tap, vnet, f->tapbuf, TAP_PKT_MAX);
		if (n >= 0) {
			f->tap_now = log_now_ms();
			(void)tapoff_tx(vnet, f->tapbuf, (size_t)n, f->tapseg,
			    f->tap_mtu + 14 + 4, fwd_on_tap_frame, f,
			    &f->tapoff);
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		f->tap_rx_errors++;
		if (errno != EMSGSIZE && errno != EPROTO && errno != EINTR) {
			log_rl(&f->rx_rl, LOG_WARNING, "%s: read: %s",
			    f->tap.name, strerror(errno));
			break;
		}
	}
	/* What the burst queued goes out in one sendmmsg per interface. */
	fwd_data_flush(f->data);
}

/* ---- reload (SIGHUP) ---------------------------------------------------------------------- */

static void
fwd_note_fixed(const char *what, int changed)
{
	if (changed)
		log_warnx("reload: %s cannot change while batsecd runs; "
		    "restart it to apply", what);
}

/* Warn about every setting that needs a restart. */
static void
fwd_reload_fixed(const struct bs_config *o, const struct bs_config *n)
{
	fwd_note_fixed("tap", strcmp(o->tap, n->tap) != 0);
	fwd_note_fixed("key", strcmp(o->key, n->key) != 0);
	fwd_note_fixed("socket", strcmp(o->socket, n->socket) != 0);
	fwd_note_fixed("state-dir", strcmp(o->state_dir, n->state_dir) != 0);
	fwd_note_fixed("user", strcmp(o->user, n->user) != 0);
	fwd_note_fixed("chroot", strcmp(o->chroot_dir, n->chroot_dir) != 0);
	fwd_note_fixed("ethertype", o->ethertype != n->ethertype);
	fwd_note_fixed("link-rekey", o->link_rekey_s != n->link_rekey_s);
	fwd_note_fixed("fast-path", o->fast_path != n->fast_path);
	fwd_note_fixed("e2e-cipher", o->e2e_cipher != n->e2e_cipher);
}

static int
fwd_ifaces_differ(const struct bs_config *a, const struct bs_config *b)
{
	size_t i;

	if (a->n_ifaces != b->n_ifaces)
		return 1;
	for (i = 0; i < a->n_ifaces; i++)
		if (strcmp(a->ifaces[i], b->ifaces[i]) != 0 ||
		    !config_iface_opt_equal(&a->iface_opt[i],
		    &b->iface_opt[i]))
			return 1;
	return 0;
}

static void
fwd_reload_config(struct fwd *f)
{
	struct bs_config n;
	char err[512];

	if (config_load(&n, &f->args, err, sizeof(err)) != 0) {
		log_warnx("reload: %s; keeping the running configuration", err);
		return;
	}
	fwd_reload_fixed(&f->cfg, &n);
	if (fwd_ifaces_differ(&f->cfg, &n)) {
		memcpy(f->cfg.ifaces, n.ifaces, sizeof(n.ifaces));
		memcpy(f->cfg.iface_opt, n.iface_opt, sizeof(n.iface_opt));
		f->cfg.n_ifaces = n.n_ifaces;
		fwd_ifaces_reconfigure(f, &n);
	}
	memcpy(f->cfg.policy, n.policy, sizeof(n.policy));
	/* The file's values again, over any batsec-ctl set. */
	(void)fwd_settings_apply(f, &n, "reload");
}

static void
fwd_reload_policy(struct fwd *f)
{
	char err[512];

	if (fwd_trust_reload(f, err, sizeof(err)) != 0)
		log_warnx("reload: %s; keeping the old policy", err);
}

/* ---- signals ------------------------------------------------------------------------------ */

static void
fwd_on_signal(struct fwd *f)
{
	struct signalfd_siginfo si;
	ssize_t n;

	while ((n = read(f->sigfd, &si, sizeof(si))) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGTERM:
		case SIGINT:
			log_info("SIG%s: shutting down", log_signame(
			    (int)si.ssi_signo));
			f->quit = 1;
			break;
		case SIGHUP:
			log_info("SIGHUP: reloading");
			fwd_reload_config(f);
			fwd_reload_policy(f);
			break;
		case SIGCHLD:
			fwd_reap(f);
			break;
		}
	}
}

/* The signals the loop handles (blocked, read from a signalfd). */
static void
fwd_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
}

static void
fwd_signals(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	fwd_sigset(&set);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		fatal("sigprocmask");
}

/*
 * After daemon(): a signalfd wakes epoll through the wait queue of the
 * process that created it, so one made before the fork would never wake
 * the daemon.
 */
static void
fwd_signalfd(struct fwd *f)
{
	sigset_t set;

	fwd_sigset(&set);
	if ((f->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
		fatal("signalfd");
	if (fwd_poll_add(f->epfd, f->sigfd, EPOLLIN,
	    FWD_POLL_TAG(FWD_POLL_SIG, 0)) != 0)
		fatal("epoll: signalfd");
}

/* ---- start-up ------------------------------------------------------------------------------ */

static volatile sig_atomic_t fwd_wait_sig;

static void
fwd_wait_on_signal(int sig)
{
	fwd_wait_sig = sig;
}

/*
 * The epoch (state.h).  Without an epoch file and with epoch-seed clock,
 * waits for a plausible clock, looking every second; SIGTERM or SIGINT
 * end the wait and the daemon (exit 0), nothing having been created;
 * SIGHUP is ignored meanwhile (there is nothing to reload yet).
 */
static void
fwd_epoch(struct fwd *f)
{
	const struct timespec second = { 1, 0 };
	struct sigaction sa, ign, old_term, old_int, old_hup;
	enum state_epoch_how how = STATE_EPOCH_COUNTED;
	char err[1024], clk[48];
	uint64_t now_s;
	int r, waited = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fwd_wait_on_signal;
	sigemptyset(&sa.sa_mask);
	fwd_wait_sig = 0;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;	/* a reload while waiting: no matter */
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGTERM, &sa, &old_term) != 0 ||
	    sigaction(SIGINT, &sa, &old_int) != 0 ||
	    sigaction(SIGHUP, &ign, &old_hup) != 0)
		fatal("sigaction");
	while ((r = state_epoch_bump(f->cfg.state_dir, f->cfg.epoch_seed,
	    now_s = (uint64_t)time(NULL), &f->epoch, &how, err,
	    sizeof(err))) == 1) {
		if (!waited) {
			state_clock_text(now_s, clk, sizeof(clk));
			log_warnx("no epoch file in %s and the clock reads %s: "
			    "waiting for the clock (epoch-seed clock)",
			    f->cfg.state_dir, clk);
			waited = 1;
		}
		if (fwd_wait_sig == 0)
			(void)nanosleep(&second, NULL);
		if (fwd_wait_sig != 0)
			break;
	}
	if (sigaction(SIGTERM, &old_term, NULL) != 0 ||
	    sigaction(SIGINT, &old_int, NULL) != 0 ||
	    sigaction(SIGHUP, &old_hup, NULL) != 0)
		fatal("sigaction");
	if (r < 0)
		fatalx("%s", err);
	if (fwd_wait_sig != 0) {
		log_info("SIG%s while %s: exiting",
		    log_signame((int)fwd_wait_sig), r == 1 ?
		    "waiting for the clock" : "starting");
		bs_identity_wipe(&f->id);
		exit(0);
	}
	if (how == STATE_EPOCH_CLOCK)
		log_info("no epoch file in %s: epoch %u from the clock",
		    f->cfg.state_dir, f->epoch);
	else if (how == STATE_EPOCH_FIRST)
		log_info("no epoch file in %s: epoch 1 (%s)", f->cfg.state_dir,
		    f->cfg.epoch_seed == BS_EPOCH_SEED_NONE ?
		    "epoch-seed none" : "no plausible clock; a new key");
}

/* Everything a bad setting can break, before anything is created. */
static void
fwd_load(struct fwd *f)
{
	char err[1024];

	if (config_load(&f->cfg, &f->args, err, sizeof(err)) != 0)
		fatalx("%s", err);
	log_set_level(f->args.debug ? LOG_DEBUG : (int)f->cfg.log_level);
	if (bs_crypto_init() != 0)
		fatalx("libsodium initialisation failed");
	if (bs_seckey_load(f->cfg.key, &f->id, err, sizeof(err)) != 0)
		fatalx("%s", err);
	bs_mesh_addr(f->own_addr, f->id.pk);
	if (bs_policy_parse_file(f->cfg.policy, 0, &f->policy, err,
	    sizeof(err)) != 0)
		fatalx("%s", err);
	f->policy_serial = 1;
	if (state_dir_open(f->cfg.state_dir, err, sizeof(err)) != 0 ||
	    fwd_trust_start(f, err, sizeof(err)) != 0 ||
	    fwd_pins_start(f, err, sizeof(err)) != 0 ||
	    sandbox_chroot_prepare(f->cfg.chroot_dir, err, sizeof(err)) != 0)
		fatalx("%s", err);
	fwd_parser_init(&f->parser, &f->id);
	forwarder_handlers(f);
	if (fwd_parser_setup(&f->parser, f->cfg.user, f->cfg.chroot_dir,
	    f->args.debug, err, sizeof(err)) != 0 ||
	    sandbox_parser_user_check(f->cfg.user, CONTROL_GROUP, err,
	    sizeof(err)) != 0)
		fatalx("%s", err);
	fwd_epoch(f);
	/* Before any interface exists: a path in use by a running daemon
	 * is a configuration error like any other. */
	if (fwd_control_open(f, err, sizeof(err)) != 0)
		fatalx("%s", err);
}

/* Netlink, epoll, signals, TAP and mesh interfaces. */
static void
fwd_open(struct fwd *f)
{
	struct log_rl rl = LOG_RL_INIT(5, 1);

	f->rx_rl = rl;
	f->chan_fd = -1;
	if ((f->nlev = nl_events_open(0)) == NULL)
		fatal("netlink event socket");
	if ((f->nl = nl_open()) == NULL)
		fatal("netlink socket");
	if ((f->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0)
		fatal("epoll_create1");
	f->rxbufs = malloc((size_t)RAWSOCK_BATCH_MAX * FWD_RXBUF_LEN);
	f->tapbuf = malloc(TAP_PKT_MAX);
	f->tapseg = malloc(TAP_PKT_MAX);
	if (f->rxbufs == NULL || f->tapbuf == NULL || f->tapseg == NULL ||
	    fwd_tap_init(f) != 0)
		fatal("receive buffers");
	if (fwd_data_setup(f) != 0)
		fatal("forwarding tables");
	fwd_gw_reset(f);
	fwd_signals();
	fwd_tap_open(f);
	fwd_fast_start(f);
	fwd_ifaces_init(f);
	fwd_ifaces_start(f);
	fwd_tap_up(f);
	if (fwd_poll_add(f->epfd, nl_fd(f->nlev), EPOLLIN,
	    FWD_POLL_TAG(FWD_POLL_NLEV, 0)) != 0 ||
	    fwd_poll_add(f->epfd, f->tap.fd, EPOLLIN,
	    FWD_POLL_TAG(FWD_POLL_TAP, 0)) != 0 ||
	    fwd_poll_add(f->epfd, control_fd(f->ctl), EPOLLIN,
	    FWD_POLL_TAG(FWD_POLL_CTL, 0)) != 0)
		fatal("epoll");
}

static void
fwd_daemonise(struct fwd *f)
{
	if (chdir("/") != 0)
		fatal("chdir /");
	if (!f->args.foreground && daemon(0, 0) != 0)
		fatal("daemon");
	if (!f->args.debug)
		log_init(LOG_DEST_SYSLOG, log_get_level(), "batsecd");
	fwd_signalfd(f);
}

static void
fwd_sandbox(struct fwd *f)
{
	char err[512];

	sandbox_set_debug(f->args.debug);
	if (geteuid() == 0 && sandbox_forwarder_caps(err, sizeof(err)) != 0)
		fatalx("%s", err);
	if (sandbox_forwarder_seccomp(f->parser.exe_fd) != 0)
		fatal("loading the forwarder's seccomp filter");
}

/* ---- the loop ----------------------------------------------------------------------------- */

static void
fwd_dispatch(struct fwd *f, const struct epoll_event *ev)
{
	uint64_t kind = FWD_POLL_KIND(ev->data.u64);
	size_t i = FWD_POLL_INDEX(ev->data.u64);

	switch (kind) {
	case FWD_POLL_SIG:
		fwd_on_signal(f);
		break;
	case FWD_POLL_NLEV:
		fwd_ifaces_events(f);
		break;
	case FWD_POLL_TAP:
		fwd_on_tap(f);
		break;
	case FWD_POLL_CHAN:
		if (fwd_parser_up(&f->parser))
			fwd_on_chan(f, ev->events);
		break;
	case FWD_POLL_RAW:
		if (i < f->ifs.n)
			(void)fwd_ifaces_rx(f, i);
		/* Before anything may change the tables (fwd_data.h). */
		if (f->data != NULL)
			fwd_data_flush(f->data);
		fwd_tap_flush(f);
		break;
	case FWD_POLL_CTL:
		control_run(f->ctl, log_now_ms());
		break;
	}
}

/* The earlier of two deadlines; 0 is "none". */
static uint64_t
fwd_earlier(uint64_t a, uint64_t b)
{
	if (a == 0)
		return b;
	return b != 0 && b < a ? b : a;
}

/* Milliseconds until the next timed job, -1 for none. */
static int
fwd_timeout(const struct fwd *f)
{
	uint64_t now = log_now_ms(), at = 0, wait;
	int ct;

	if (f->parser.pid == 0 && f->parser.respawn_at_ms != 0)
		at = f->parser.respawn_at_ms;
	if (f->policy_pending && fwd_parser_up(&f->parser))
		at = fwd_earlier(at, now + 1000);
	at = fwd_earlier(at, fwd_parser_deadline(&f->parser));
	at = fwd_earlier(at, fwd_announce_deadline(f));
	at = fwd_earlier(at, f->purge_at_ms);
	at = fwd_earlier(at, fwd_pins_due(&f->pins));
	if (f->data != NULL)
		at = fwd_earlier(at, fwd_data_repeat_deadline(f->data));
	if (f->ctl != NULL && (ct = control_timeout(f->ctl, now)) >= 0)
		at = fwd_earlier(at, now + (uint64_t)ct);
	if (at == 0)
		return -1;
	wait = at > now ? at - now : 0;
	return wait > 60000 ? 60000 : (int)wait;
}

static void
fwd_timers(struct fwd *f)
{
	uint64_t now = log_now_ms();
	char why[256];

	if (fwd_parser_tick(&f->parser, now, why, sizeof(why)) ==
	    FWD_CHAN_KILL)
		fwd_parser_kill(&f->parser, why);
	if (fwd_parser_respawn_due(&f->parser, now))
		fwd_spawn_parser(f);
	else if (f->policy_pending && fwd_parser_up(&f->parser) &&
	    !fwd_parser_pending(&f->parser))
		fwd_trust_push(f);
	fwd_announce_run(f, now);
	if (f->data != NULL)
		fwd_data_repeat_run(f->data, now);
	fwd_pins_tick(f, now);
	fwd_trust_tick(f, now);
	if (now >= f->purge_at_ms) {
		if (f->tables != NULL && fwd_tables_purge(f->tables, now) > 0)
			f->fast_dirty = 1;
		if (f->data != NULL && fwd_data_bla_tick(f->data, now))
			f->fast_dirty = 1;
		fwd_announce_clients(f, now);
		if (f->data != NULL)
			(void)fwd_dat_purge(&f->data->dat, f->tables, now);
		fwd_admit_tick(f, now);
		fwd_gw_elect(f);
		/* FRAG chains time out even when no piece follows. */
		if (f->data != NULL)
			fwd_frag_expire(&f->data->frag, now);
		fwd_fast_tick(f);
		fwd_ifaces_collect_drops(f, now);
		fwd_ifaces_ring_tick(f, now);
		f->purge_at_ms = now + FWD_PURGE_MS;
	}
	if (now >= f->trim_at_ms) {
#ifdef __GLIBC__	/* musl's allocator gives freed memory back itself */
		(void)malloc_trim(0);
#endif
		f->trim_at_ms = now + FWD_TRIM_MS;
	}
	/* Idle clients, and accepting again after a pause (EMFILE). */
	if (f->ctl != NULL && control_timeout(f->ctl, now) == 0)
		control_run(f->ctl, now);
}

static void
fwd_loop(struct fwd *f)
{
	struct epoll_event ev[FWD_EVENTS_MAX];
	int n, k;

	while (!f->quit) {
		fwd_chan_watch(f);
		n = epoll_wait(f->epfd, ev, FWD_EVENTS_MAX, fwd_timeout(f));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fatal("epoll_wait");
		}
		for (k = 0; k < n && !f->quit; k++)
			fwd_dispatch(f, &ev[k]);
		fwd_timers(f);
		/* A trust edit this round: its keys leave the tables now. */
		fwd_admit_sync(f);
		if (f->gw_dirty)
			fwd_gw_elect(f);
		fwd_fast_sync(f);
	}
}

static void
fwd_shutdown(struct fwd *f)
{
	control_close(f->ctl);
	f->ctl = NULL;
	fwd_parser_stop(&f->parser);
	fwd_fast_stop(f);
	fwd_ifaces_close(f);
	fwd_tap_close(f);
	nl_close(f->nlev);
	nl_close(f->nl);
	bs_policy_free(f->policy);
	fwd_trust_stop(f);
	fwd_pins_stop(f);
	fwd_admit_stop(f);
	bs_identity_wipe(&f->id);
	free(f->rxbufs);
	free(f->tapbuf);
	free(f->tapseg);
	fwd_data_teardown(f);
	log_info("exiting");
}

int
forwarder_main(const struct bs_args *args)
{
	static struct fwd f;	/* large; one per process */

	f.args = *args;
	f.tap.fd = -1;
	log_init(LOG_DEST_STDERR, args->debug ? LOG_DEBUG : LOG_INFO,
	    "batsecd");
	fwd_load(&f);
	fwd_open(&f);
	fwd_daemonise(&f);
	fwd_sandbox(&f);
	log_info("batsecd %s running: epoch %u, %zu mesh interface(s)",
	    BATSEC_VERSION, f.epoch, f.ifs.n);
	f.started_ms = log_now_ms();
	f.purge_at_ms = f.started_ms + FWD_PURGE_MS;
	f.trim_at_ms = f.started_ms + FWD_TRIM_FIRST_MS;
	fwd_announce_setup(&f, f.started_ms);
	fwd_spawn_parser(&f);
	fwd_loop(&f);
	fwd_shutdown(&f);
	return f.exit_code;
}
