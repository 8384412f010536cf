/*
 * forwarder.h — batsecd's privileged process (DESIGN.md §3).
 *
 * The forwarder holds the node key, the TAP device, one AF_PACKET socket
 * per mesh interface and the netlink sockets; it spawns the sandboxed
 * parser (`batsecd -P`) and treats every message from it as hostile.
 * Its files:
 *
 *   forwarder.c	start-up, the epoll loop, signals, reload, shutdown
 *   fwd_parser.c	the parser process: spawn, supervision, respawn with
 *			back-off, and the channel (what the parser sends is
 *			checked with ipc_check; any violation kills it; the
 *			vetted updates go to the tables and the relay queue)
 *   fwd_ifaces.c	mesh interfaces: raw sockets, netlink link events
 *			(appear, up/down, deleted, re-created), MTU policy
 *   fwd_orig.c		HELLO and OGM origination, relays, trailers
 *   fwd_control.c	the control socket's commands
 *   fwd_tables.c	neighbours, routes, TT, gateways (fwd_tables.h)
 *   fwd_data.c		the data plane (fwd_data.h)
 *
 * The channel handling (struct fwd_parser) needs nothing else, so
 * tests/check_forwarder.c drives it over a socketpair with a fake parser;
 * with fp->owner set it also applies what it is told to that forwarder.
 */
#ifndef BATSEC_FORWARDER_H
#define BATSEC_FORWARDER_H

#include <sys/types.h>

#include <limits.h>
#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "common/config.h"
#include "control.h"
#include "netio/fastpath.h"
#include "fwd_orig.h"
#include "ipc_check.h"
#include "proto/ipc.h"
#include "common/log.h"
#include "netio/rawsock.h"
#include "netio/tap.h"
#include "netio/tapoff.h"

struct bs_policy;
struct nl_sock;
struct nl_link;
struct fwd_tables;	/* fwd_tables.h */
struct fwd_data;	/* fwd_data.h */

/* ---- the parser process and its channel (fwd_parser.c) ----------------- */

/* Bytes of FRAME messages that may wait in the channel's queue. */
#define FWD_FRAME_QUEUE_MAX	(256u << 10)
/* Messages handled per fwd_parser_read() call, so the loop keeps turning. */
#define FWD_MSGS_PER_READ	64
/* Respawn back-off: at most one spawn per FWD_RESPAWN_MIN_MS; doubling
 * while the parser dies within FWD_PARSER_STABLE_MS, up to the max. */
#define FWD_RESPAWN_MIN_MS	1000
#define FWD_RESPAWN_MAX_MS	30000
#define FWD_PARSER_STABLE_MS	10000
/* Parser LOG lines the forwarder writes: burst, then per second. */
#define FWD_PARSER_LOG_BURST	20
#define FWD_PARSER_LOG_RATE	5

/* What fwd_parser_read() and fwd_parser_handle() report. */
enum fwd_chan_rc {
	FWD_CHAN_OK = 0,	/* carry on */
	FWD_CHAN_KILL = -1,	/* violation: why says it; kill the parser */
	FWD_CHAN_EOF = -2,	/* the parser closed the channel */
};

struct fwd_parser_counters {
	uint64_t spawns;
	uint64_t deaths;
	uint64_t kills;		/* killed for a violation */
	uint64_t msgs;		/* messages accepted from the parser */
	uint64_t stale;		/* about a removed interface: ignored */
	uint64_t frames_sent;
	uint64_t drop_no_parser;	/* no channel (dead, respawning) */
	uint64_t drop_queue;	/* channel queue full */
	uint64_t drop_size;	/* empty or longer than IPC_FRAME_MAX */
	uint64_t drop_src;	/* source MAC not unicast */
};

struct fwd_parser {
	struct fwd *owner;		/* applies vetted updates; NULL: count only */
	struct ipc ipc;			/* fd -1 when there is no channel */
	struct ipc_ctx ctx;		/* what ipc_check needs to know */
	const struct bs_identity *id;	/* answers LINK_KEY_REQ */
	pid_t pid;			/* 0 when no parser process */
	uint64_t spawned_ms;
	uint64_t backoff_ms;
	uint64_t respawn_at_ms;		/* 0: no respawn scheduled */
	uint64_t stat[IPC_STAT_ID_END];	/* the parser's last STATS */
	struct log_rl log_rl;		/* the parser's LOG lines */
	struct log_rl note_rl;		/* our own per-message notes */
	struct fwd_parser_counters c;
	/* How to start it (set by fwd_parser_setup). */
	char exe[PATH_MAX];
	char user[BS_CONF_USER_MAX + 1];
	char chroot_dir[BS_CONF_PATH_MAX + 1];
	int debug;			/* pass -d: seccomp reports, not kills */
};

/* Zero state; id is kept by reference (the forwarder's identity). */
void	fwd_parser_init(struct fwd_parser *fp, const struct bs_identity *id);
/*
 * Remember how to start the parser: the real path of our own binary
 * (readlink of /proc/self/exe, resolved once now so a respawn never
 * depends on /proc), the user and the chroot directory.  0 or -1 + err.
 */
int	fwd_parser_setup(struct fwd_parser *fp, const char *user,
	    const char *chroot_dir, int debug, char *err, size_t errlen);
/*
 * Start a parser: socketpair, fork, and in the child fd 3 = channel,
 * 0-2 = /dev/null, everything else closed, signals reset, then execve
 * of exe as "batsecd -P [-d] -u USER -r CHROOT" with an empty
 * environment (see parser.h).
 * A fresh ipc_ctx knows own_addr and no interface.  0 or -1 + err.
 */
int	fwd_parser_spawn(struct fwd_parser *fp,
	    const uint8_t own_addr[static BS_ADDR_LEN], uint64_t now_ms,
	    char *err, size_t errlen);
/*
 * Take over fd as the channel to process pid (0: none to signal), with a
 * fresh context for own_addr.  Used by fwd_parser_spawn and by tests.
 */
int	fwd_parser_attach(struct fwd_parser *fp, int fd, pid_t pid,
	    const uint8_t own_addr[static BS_ADDR_LEN], char *err,
	    size_t errlen);
/* 1 while there is a channel to send on. */
int	fwd_parser_up(const struct fwd_parser *fp);

/*
 * Read and handle what the parser sent, at most FWD_MSGS_PER_READ
 * messages.  Never kills: on FWD_CHAN_KILL / FWD_CHAN_EOF the caller
 * calls fwd_parser_kill().
 */
enum fwd_chan_rc fwd_parser_read(struct fwd_parser *fp, char *why,
	    size_t whylen);
/* One message that passed ipc_recv: ipc_check, then act on it. */
enum fwd_chan_rc fwd_parser_handle(struct fwd_parser *fp,
	    const struct ipc_msg *m, char *why, size_t whylen);

/*
 * Log why, SIGKILL the parser and close the channel; the process is
 * reaped by fwd_parser_reaped() from the SIGCHLD handler.
 */
void	fwd_parser_kill(struct fwd_parser *fp, const char *why);
/*
 * pid exited with status (waitpid): log how, and schedule the respawn.
 * Returns 1 when pid was the parser, 0 otherwise.
 */
int	fwd_parser_reaped(struct fwd_parser *fp, pid_t pid, int status,
	    uint64_t now_ms);
/* 1 when a scheduled respawn is due at now_ms. */
int	fwd_parser_respawn_due(const struct fwd_parser *fp, uint64_t now_ms);
/* Kill and reap (blocking) the parser at shutdown; close the channel. */
void	fwd_parser_stop(struct fwd_parser *fp);

/*
 * One control frame for the parser.  Dropped (and counted) when there is
 * no channel, the frame is empty or longer than IPC_FRAME_MAX, the source
 * is not unicast, or FWD_FRAME_QUEUE_MAX bytes already wait.
 */
void	fwd_parser_send_frame(struct fwd_parser *fp, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN],
	    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *payload,
	    size_t len);
/* A message of ours (CONFIG, IFACE...); a failure means a bug or no room. */
int	fwd_parser_send(struct fwd_parser *fp, uint16_t type, const void *obj,
	    size_t objsize);
/* "killed by signal SIGSYS", "exited with status 1", ... into buf. */
void	fwd_describe_status(int status, char *buf, size_t len);

/* ---- mesh interfaces (fwd_ifaces.c) -------------------------------------- */

struct fwd_iface {
	char name[IFNAMSIZ];		/* as configured */
	int ifindex;			/* 0: not present */
	struct rawsock rs;		/* fd -1 when closed */
	uint32_t mtu;			/* as last seen or set */
	uint8_t mac[BS_ADDR_LEN];
	int running;			/* admin and operationally up */
	int seen;			/* resync: reported by the dump */
	uint64_t rx_frames;
	/* Control plane (fwd_orig.c). */
	uint64_t next_hello_ms;		/* 0: as soon as it is up */
	uint32_t hello_seqno;		/* of the last HELLO sent here */
	uint64_t tx_hello;
	uint64_t tx_ogm;		/* OGM frames */
	uint64_t tx_errors;		/* control frames the socket refused */
	uint64_t drops_unlogged;	/* rs.stats.rx_queue_drops not yet
					   in the log */
	/* The receive ring while busy (fwd_ifaces_ring_tick). */
	uint64_t ring_frames;		/* rx_frames at the last look */
	uint64_t ring_ms;		/* its time; 0: not yet */
	uint32_t ring_quiet;		/* quiet seconds in a row */
	int fast_link;			/* the in-kernel relay's tcx link,
					   -1: none (fwd_fast.c) */
	int fast_tc;			/* attached as a tc filter instead */
	int fast_refused;		/* attaching failed: not again */
	int fast_swept;			/* a stale filter was looked for */
	uint64_t fast_rx_mark;		/* transit UNICASTs + 1 at the
					   last look, 0: not looked yet */
};

struct fwd_ifaces {
	struct fwd_iface v[BS_CONF_MAX_IFACES];
	size_t n;
	int mtu_dirty;			/* re-run the MTU policy */
	int resyncing;			/* a dump after lost events */
	struct log_rl err_rl;		/* socket errors */
	uint64_t drop_log_ms;		/* receive-queue drops are logged
					   again from this time on */
};

/* Receive buffer per frame: Ethernet header + the largest FRAME. */
#define FWD_RXBUF_LEN	(RAWSOCK_HDR_LEN + IPC_FRAME_MAX)

/* ---- the whole forwarder (forwarder.c) ----------------------------------- */

struct fwd {
	struct bs_args args;		/* the command line (pointers into argv) */
	struct bs_config cfg;
	struct bs_identity id;
	uint8_t own_addr[BS_ADDR_LEN];
	uint32_t epoch;
	struct bs_policy *policy;
	uint32_t policy_serial;
	int policy_pending;		/* not yet queued to this parser */

	struct tap tap;
	uint32_t tap_mtu;
	struct nl_sock *nl;		/* requests */
	struct nl_sock *nlev;		/* RTMGRP_LINK events */
	struct fwd_ifaces ifs;
	struct fwd_parser parser;
	struct fwd_tables *tables;	/* neighbours, routes, TT, gateways */
	struct fwd_data *data;		/* the data plane (fwd_data.c) */
	struct fwd_orig orig;		/* HELLO, OGM, relays (fwd_orig.c) */
	struct control *ctl;		/* the control socket */
	uint64_t started_ms;
	uint64_t purge_at_ms;		/* next fwd_tables_purge */
	uint64_t trim_at_ms;		/* next malloc_trim */

	int epfd;
	int sigfd;
	uint32_t chan_events;		/* what epoll watches on the channel */
	int chan_fd;			/* the fd registered, -1: none */
	uint64_t chan_gen;		/* parser.c.spawns when registered */
	int quit;
	int exit_code;

	uint8_t *rxbufs;		/* RAWSOCK_BATCH_MAX frame buffers */
	uint8_t *tapbuf;		/* TAP_PKT_MAX bytes: one read */
	uint8_t *tapseg;		/* TAP_PKT_MAX bytes: a segment */
	uint8_t *grobuf;		/* TAP_PKT_MAX bytes: tap_gro's */
	struct tapoff_gro tap_gro;	/* frames for the TAP, joined */
	struct tapoff_stats tapoff;
	uint64_t tap_now;		/* the clock at the last TAP read */
	uint64_t tap_rx_frames;
	uint64_t tap_rx_errors;
	struct log_rl rx_rl;		/* per-frame receive notes */
	/* The in-kernel UNICAST relay (fwd_fast.c, fastpath.h). */
	struct fastpath fast;
	int fast_dirty;			/* its maps are to be brought up to date */
	int fast_tc;			/* attach as tc filters (no tcx) */
	uint64_t fast_frames;		/* frames it relayed */
};

/* batsecd without -P.  Returns the exit status. */
int	forwarder_main(const struct bs_args *args);
/*
 * forwarder.c: one frame from the mesh for the host, joined with the
 * frames around it where it can be (tapoff.h); written at the latest at
 * the end of the burst.  0, or -1 when a write to the TAP failed.
 */
int	fwd_tap_deliver(struct fwd *f, const uint8_t *frame, size_t len);

/*
 * fwd_fast.c: the in-kernel UNICAST relay.  Loaded by fwd_fast_start()
 * (before the capabilities go), attached to a mesh interface once it is
 * busy; a
 * route change goes to its map at once, anything else it mirrors sets
 * f->fast_dirty and is synced at the end of the loop round; its counters
 * are taken by fwd_fast_fold() once a second and before they are shown.
 */
void	fwd_fast_start(struct fwd *f);
void	fwd_fast_stop(struct fwd *f);
/* Attach where UNICASTs pass through (FWD_FAST_ATTACH_FPS a second),
 * take the counts, keep the program alive: once a second. */
#define FWD_FAST_ATTACH_FPS	100
/* The program relays only until FWD_FAST_ALIVE_MS after the last tick
 * (fastpath_alive): a tc filter outlives a killed or stuck forwarder. */
#define FWD_FAST_ALIVE_MS	3000
/* The tc filter's preference and name (batsecd(8), "In-kernel relay"). */
#define FWD_FAST_TC_PRIO	0xb5ec
#define FWD_FAST_TC_NAME	"batsec_relay"
void	fwd_fast_tick(struct fwd *f);
void	fwd_fast_if_down(struct fwd *f, struct fwd_iface *v);
/* 1 when the program is attached there (a tcx link or a tc filter). */
int	fwd_fast_attached(const struct fwd_iface *v);
void	fwd_fast_fold(struct fwd *f);
void	fwd_fast_sync(struct fwd *f);
/* 1 when a ROUTE_ADD for orig would add it or move it elsewhere. */
int	fwd_fast_route_moved(const struct fwd *f, const uint8_t *orig,
	    const uint8_t *nexthop, uint32_t ifindex);
/* The route to orig was added, moved or deleted: into the map now. */
void	fwd_fast_route_changed(struct fwd *f, const uint8_t *orig);

/* fwd_ifaces.c, used by forwarder.c */
void	fwd_ifaces_init(struct fwd *f);
/* Look every configured interface up and open what exists. */
void	fwd_ifaces_start(struct fwd *f);
void	fwd_ifaces_close(struct fwd *f);
/* Replace the configured list (SIGHUP): keeps what stays. */
void	fwd_ifaces_reconfigure(struct fwd *f, const struct bs_config *cfg);
/* A netlink link event or dump entry. */
void	fwd_ifaces_link_cb(const struct nl_link *link, void *arg);
/* Read the event socket; resync after ENOBUFS / EBADMSG. */
void	fwd_ifaces_events(struct fwd *f);
/*
 * Frames waiting on mesh interface i: one burst.  0 when one was read,
 * -1 with errno when none (EAGAIN: the socket is empty).
 */
int	fwd_ifaces_rx(struct fwd *f, size_t i);
/* The end of a burst from the mesh: what waits to be joined goes out. */
void	fwd_tap_flush(struct fwd *f);
/*
 * Read what the kernel dropped on every mesh socket because its receive
 * queue was full (once a second, and before the counters are shown);
 * log it at most once a minute.
 */
void	fwd_ifaces_collect_drops(struct fwd *f, uint64_t now);
/* Once a second: a receive ring for busy mesh sockets (fwd_ifaces.c). */
void	fwd_ifaces_ring_tick(struct fwd *f, uint64_t now);
/* Re-apply the MTU policy over the present interfaces. */
void	fwd_ifaces_mtu(struct fwd *f);
/* Send IFACE for every present interface (to a new parser). */
void	fwd_ifaces_announce(struct fwd *f);

/* fwd_orig.c: 1 when v can send: present, up, its socket open. */
int	fwd_iface_usable(const struct fwd_iface *v);
/* forwarder.c: the configured interface with this ifindex, or NULL. */
const struct fwd_iface *fwd_iface_by_index(const struct fwd *f,
	    uint32_t ifindex);

/* fwd_control.c: the control socket's commands. */
extern const struct control_cmd fwd_control_cmds[];
/* Fields fwd_control.c adds to the built-in "status" record. */
void	fwd_control_status(void *ctx, size_t argc, const char *const argv[],
	    struct ctl_reply *r);

/* forwarder.c, used by fwd_ifaces.c: epoll registration of fd i. */
int	fwd_watch_raw(struct fwd *f, size_t i);
void	fwd_unwatch_fd(struct fwd *f, int fd);

#endif /* BATSEC_FORWARDER_H */
