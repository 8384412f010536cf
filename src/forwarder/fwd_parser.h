/*
 * fwd_parser.h — the forwarder's side of the parser: the process (spawn,
 * supervision, respawn with back-off) and the channel, where every
 * message from the parser is hostile.
 *
 * The channel frames and checks (ipc_recv: layers 1-2 of proto/ipc.h;
 * ipc_check: layer 3) and keeps its own conversation with the parser: LOG
 * lines, STATS, and the answer to LINK_KEY_REQ (it holds a reference to
 * the node identity for that).  Everything else it dispatches, as
 * OpenBSD's dhcpleased does, to a table of handlers the parent registers
 * (fwd_parser_handlers): the handlers live in the modules that own the
 * state they change, and this module calls none of them by name.
 * Without a table it only counts, so tests/check_forwarder.c drives a
 * bare channel over a socketpair with a fake parser.
 *
 * The channel's state is its own type, not the forwarder's (struct fwd
 * holds one, fwd_types.h): this module needs nothing else.
 */
#ifndef BATSEC_FWD_PARSER_H
#define BATSEC_FWD_PARSER_H

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "common/config.h"
#include "common/log.h"
#include "ipc_check.h"
#include "proto/ipc.h"

/* Bytes of FRAME messages that may wait in the channel's queue. */
#define FWD_FRAME_QUEUE_MAX	(256u << 10)
/* Messages handled per fwd_parser_read() call, so the loop keeps turning. */
#define FWD_MSGS_PER_READ	64
/* Respawn back-off: at most one spawn per FWD_RESPAWN_MIN_MS; doubling
 * while the parser dies within FWD_PARSER_STABLE_MS, up to the max. */
#define FWD_RESPAWN_MIN_MS	1000
#define FWD_RESPAWN_MAX_MS	30000
#define FWD_PARSER_STABLE_MS	10000
/*
 * Liveness (batsecd(8), PRIVILEGE SEPARATION): a HEARTBEAT every
 * FWD_HEARTBEAT_MS while the last one was answered, and one right after
 * every policy snapshot (the fence: its answer proves the parser read
 * that policy).  A parser that leaves a heartbeat unanswered for
 * FWD_HEARTBEAT_MISS intervals (counted from the first tick that saw it
 * waiting, or from the last answer) is killed and respawned.
 */
#define FWD_HEARTBEAT_MS	2000
#define FWD_HEARTBEAT_MISS	3
/* Parser LOG lines the forwarder writes: burst, then per second. */
#define FWD_PARSER_LOG_BURST	20
#define FWD_PARSER_LOG_RATE	5

/* What fwd_parser_read() and fwd_parser_handle() report. */
enum fwd_chan_rc {
	FWD_CHAN_OK = 0,	/* carry on */
	FWD_CHAN_KILL = -1,	/* violation: why says it; kill the parser */
	FWD_CHAN_EOF = -2,	/* the parser closed the channel */
};

/*
 * A handler of vetted messages: arg is what the parent registered, u the
 * payload of the type it was registered for (u->neigh for IPC_NEIGH, ...).
 * Returns 0, or -1 when the payload breaks the contract in a way the
 * checks could not see (the parser is then killed).
 */
typedef int fwd_chan_fn(void *arg, const union ipc_payload *u);

/*
 * The key that answers a LINK_KEY_REQ for peer_pk on ifindex (the
 * parent's, with the handlers' arg): 0 with key and key_id set, or -1
 * (the answer says refused).
 */
typedef int fwd_link_key_fn(void *arg, const uint8_t *peer_pk,
    uint32_t ifindex, uint8_t *key, uint8_t *key_id);

struct fwd_chan_handler {
	uint16_t type;			/* enum ipc_type */
	fwd_chan_fn *fn;
};

/*
 * The policy gate (fwd_admit.h): called for every message that passed
 * ipc_check, before anything is applied.  Returns IPC_CHECK_OK (apply
 * it), IPC_CHECK_STALE (refused, but the parser may not have read the
 * policy that refuses it yet: drop the message, keep the parser, and
 * still let ipc_ctx follow it) or IPC_CHECK_BAD (why says it: kill).
 */
typedef int fwd_chan_gate_fn(void *arg, const struct ipc_msg *m, char *why,
    size_t whylen);

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
	uint64_t silent;	/* killed for an unanswered heartbeat */
	uint64_t refused;	/* refused by the gate while the parser
				   had not read the newest policy */
};

struct fwd_parser {
	const struct fwd_chan_handler *handlers;	/* NULL: count only */
	void *handlers_arg;
	fwd_chan_gate_fn *gate;			/* NULL: no policy gate */
	void *gate_arg;
	struct ipc ipc;			/* fd -1 when there is no channel */
	struct ipc_ctx ctx;		/* what ipc_check needs to know */
	const struct bs_identity *id;	/* our node key (not owned) */
	fwd_link_key_fn *link_key;	/* answers LINK_KEY_REQ; NULL: refused */
	pid_t pid;			/* 0 when no parser process */
	uint64_t spawned_ms;
	uint64_t backoff_ms;
	uint64_t respawn_at_ms;		/* 0: no respawn scheduled */
	uint64_t stat[IPC_STAT_ID_END];	/* the parser's last STATS */
	struct log_rl log_rl;		/* the parser's LOG lines */
	struct log_rl note_rl;		/* notes about its messages */
	struct fwd_parser_counters c;
	/* Heartbeats on this channel (0: none yet). */
	uint32_t hb_seq;		/* the last one sent */
	uint32_t hb_acked;		/* the last one answered */
	uint32_t hb_fence;		/* the one after the last policy */
	uint64_t hb_wait_ms;		/* waiting for an answer since; 0 */
	uint64_t hb_next_ms;		/* the next periodic one; 0: now */
	/* How to start it (set by fwd_parser_setup). */
	int exe_fd;			/* sandbox_exe_open(): our binary */
	char user[BS_CONF_USER_MAX + 1];
	char chroot_dir[BS_CONF_PATH_MAX + 1];
	int debug;			/* pass -d: seccomp reports, not kills */
};

/* Zero state; id is kept by reference (the forwarder's identity). */
void	fwd_parser_init(struct fwd_parser *fp, const struct bs_identity *id);
/*
 * Dispatch vetted messages to the handlers of table h (ended by a NULL
 * fn) with arg; a type without a handler is only counted.
 */
void	fwd_parser_handlers(struct fwd_parser *fp,
	    const struct fwd_chan_handler *h, void *arg);
/* Register the policy gate (fn NULL: none). */
void	fwd_parser_gate(struct fwd_parser *fp, fwd_chan_gate_fn *fn,
	    void *arg);
/* Answer LINK_KEY_REQs with fn (and the handlers' arg). */
void	fwd_parser_link_keys(struct fwd_parser *fp, fwd_link_key_fn *fn);
/*
 * The heartbeat's timer, called from the loop: sends the periodic
 * heartbeat when due; FWD_CHAN_KILL (why says it, counted as silent)
 * when an answer is overdue, then the caller calls fwd_parser_kill().
 */
enum fwd_chan_rc fwd_parser_tick(struct fwd_parser *fp, uint64_t now_ms,
	    char *why, size_t whylen);
/* When fwd_parser_tick() has work next (0: no channel). */
uint64_t fwd_parser_deadline(const struct fwd_parser *fp);
/*
 * 1 when the parser answered the heartbeat sent after the last policy
 * snapshot (or got none): what it sends now was decided under that
 * policy.
 */
int	fwd_parser_settled(const struct fwd_parser *fp);

/*
 * Remember how to start the parser: a descriptor of our own binary
 * (sandbox_exe_open of /proc/self/exe, opened once now, before the
 * seccomp filter, so a respawn never depends on /proc or on a path; one
 * already set is kept), the user and the chroot directory.  0 or -1 + err.
 */
int	fwd_parser_setup(struct fwd_parser *fp, const char *user,
	    const char *chroot_dir, int debug, char *err, size_t errlen);
/*
 * Start a parser: socketpair, fork, and in the child fd 3 = channel,
 * 0-2 = /dev/null, everything else closed, signals reset, then
 * sandbox_exe_exec of exe_fd as "batsecd -P [-d] -u USER -r CHROOT" with
 * an empty environment (see parser.h).
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
/* The channel's descriptor for the event loop, -1 when there is none. */
int	fwd_parser_fd(const struct fwd_parser *fp);
/* Non-zero while messages wait in the channel's queue (poll POLLOUT). */
int	fwd_parser_pending(const struct fwd_parser *fp);
/* Send what waits; as ipc_flush(): 0 empty, 1 more waits, -1 gone. */
int	fwd_parser_flush(struct fwd_parser *fp);

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
/*
 * A policy snapshot, as ipc_send_policy(): all of it queued, or -1.  A
 * heartbeat follows it (the fence, fwd_parser_settled()).
 */
int	fwd_parser_send_policy(struct fwd_parser *fp, uint32_t serial,
	    const uint8_t *data, size_t len);
/* "killed by signal SIGSYS", "exited with status 1", ... into buf. */
void	fwd_describe_status(int status, char *buf, size_t len);

#endif /* BATSEC_FWD_PARSER_H */
