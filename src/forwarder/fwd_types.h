/*
 * fwd_types.h — the forwarder's state: struct fwd and the member types
 * that several of its modules share (as batman-adv's types.h).  Types
 * only; each module's functions are declared in its own header.
 *
 * What is here and what is not:
 *
 *  - struct fwd, the mesh interfaces (struct fwd_iface: written by
 *    fwd_ifaces.c, fwd_announce.c and fwd_fast.c, looked up through
 *    fwd_iface.h), and the state of the trust and pin modules (one per
 *    forwarder, passed explicitly, never a file-scope singleton);
 *  - the state of a module that needs nothing of the forwarder is that
 *    module's own type, in its header, included here: the parser channel
 *    (struct fwd_parser, fwd_parser.h) and origination (struct
 *    fwd_orig, fwd_orig.h), so tests, fuzz targets and the simulator use
 *    them without a forwarder;
 *  - opaque modules (fwd_tables.c, fwd_data.c, control.c) are held by
 *    pointer and keep their internals to themselves.
 */
#ifndef BATSEC_FWD_TYPES_H
#define BATSEC_FWD_TYPES_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "common/config.h"
#include "common/log.h"
#include "common/pinset.h"
#include "fwd_events.h"
#include "fwd_orig.h"
#include "fwd_parser.h"
#include "fwd_ttpage.h"
#include "netio/fastpath.h"
#include "netio/rawsock.h"
#include "netio/tap.h"
#include "netio/tapoff.h"

struct bs_policy;
struct control;
struct fwd;
struct fwd_data;	/* fwd_data.h */
struct fwd_tables;	/* fwd_tables.h */
struct nl_sock;

/* ---- mesh interfaces ------------------------------------------------------ */

struct fwd_iface {
	char name[IFNAMSIZ];		/* as configured */
	int ifindex;			/* 0: not present */
	struct rawsock rs;		/* fd -1 when closed */
	uint32_t mtu;			/* as last seen or set */
	uint8_t mac[BS_ADDR_LEN];
	int running;			/* admin and operationally up */
	int wireless;			/* as configured, or auto: the
					   kernel's word when it appeared */
	unsigned bcast_repeat;		/* extra copies of each BCAST */
	uint8_t hop_penalty;		/* its `hop-penalty`, for the parser */
	int seen;			/* resync: reported by the dump */
	uint64_t rx_frames;
	/* Control plane (fwd_announce.c). */
	uint64_t next_hello_ms;		/* 0: as soon as it is up */
	uint32_t hello_seqno;		/* of the last HELLO sent here */
	struct fwd_bucket hello_burst;	/* extra HELLOs (fwd_burst.h) */
	struct fwd_hsign hsign;		/* tags or signature (fwd_orig.h) */
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

/* ---- trust (fwd_trust.c) ------------------------------------------------ */

/* A stored revocation record, verified against its issuer when stored. */
struct fwd_rev {
	struct bs_revoke r;
	uint8_t raw[BS_REVOKE_LEN];
};

struct fwd_trust {
	int have_cert;
	uint8_t cert[BS_CERT_LEN];	/* canonical bytes */
	unsigned cert_burst;		/* OGMs that still carry it at once */
	uint32_t ogms;			/* OGMs built so far */
	struct fwd_rev *rev;		/* in arrival order */
	size_t n_rev;
	size_t rev_next;		/* the next one to send */
	uint64_t rev_check_ms;		/* expiry looked for last */
	/* Called after every change of the policy or the revocations,
	 * before the parser hears of it (forwarder_handlers registers
	 * fwd_admit_sync: refused keys leave the tables at once). */
	void (*changed)(struct fwd *f);
};

/* ---- TOFU pins (fwd_pins.c) ---------------------------------------------- */

struct fwd_pins {
	struct pinset set;
	uint64_t save_at_ms;		/* 0: nothing to write */
	int full_logged;		/* "full" said once */
	uint64_t aged_ms;		/* last fwd_pins_age pass */
};

/* ---- the forwarder's own admission check (fwd_admit.c) ------------------- */

/* A certificate the forwarder verified (signature) when the parser sent it. */
struct fwd_admit_cert {
	struct bs_cert c;		/* sorted by c.node_pk */
	uint8_t addr[BS_ADDR_LEN];	/* bs_mesh_addr(c.node_pk) */
};

/* A key of the policy's trust, block or revoke lists, by its address. */
struct fwd_admit_addr {
	uint8_t addr[BS_ADDR_LEN];	/* sorted by addr */
	uint8_t listed;			/* FWD_ADMIT_TRUST or _BLOCK */
	uint8_t pk[BS_PK_LEN];
};
#define FWD_ADMIT_TRUST		1
#define FWD_ADMIT_BLOCK		2	/* block or revoke entry */

struct fwd_admit {
	struct bs_policy *eff;		/* effective policy (own copy) */
	uint32_t serial;		/* the f->policy_serial of eff */
	struct fwd_admit_addr *addrs;
	size_t n_addrs;
	struct fwd_admit_cert *certs;
	size_t n_certs;
	struct fwd_admit_addr *cert_addrs;	/* the certs by address */
	int cert_addrs_stale;		/* to be sorted again before use */
	uint64_t spawns;		/* the parser the certificates came from */
	uint64_t (*clock)(void);	/* unix seconds; NULL: time(2) */
	uint64_t removed;		/* table entries removed */
	uint64_t refused;		/* messages refused (kill or not) */
	struct log_rl rl;
};

/* ---- the whole forwarder ---------------------------------------------------- */

struct fwd {
	struct bs_args args;		/* the command line (pointers into argv) */
	struct bs_config cfg;
	struct bs_identity id;
	uint8_t own_addr[BS_ADDR_LEN];
	uint32_t epoch;
	struct bs_policy *policy;
	uint32_t policy_serial;
	int policy_pending;		/* not yet queued to this parser */
	struct fwd_trust trust;		/* certificate, revocations */
	struct fwd_pins pins;
	struct fwd_admit admit;		/* what the parser may claim */

	struct tap tap;
	uint32_t tap_mtu;
	struct nl_sock *nl;		/* requests */
	struct nl_sock *nlev;		/* RTMGRP_LINK events */
	struct fwd_ifaces ifs;
	struct fwd_parser parser;
	struct fwd_tables *tables;	/* neighbours, routes, TT, gateways */
	struct fwd_data *data;		/* the data plane (fwd_data.c) */
	struct fwd_orig orig;		/* HELLO, OGM, relays (fwd_orig.h) */
	struct fwd_ttpage ttpage;	/* own TT in pages (fwd_ttpage.h) */
	struct control *ctl;		/* the control socket */
	uint64_t started_ms;
	uint64_t purge_at_ms;		/* next fwd_tables_purge */
	uint64_t trim_at_ms;		/* next malloc_trim */

	int epfd;			/* fwd_poll.h */
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
	struct tapoff_gro tap_gro;	/* frames for the TAP, joined
					   (fwd_tap.c) */
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
	uint64_t fast_replays;		/* verified replays it dropped */
	/* What `batsec-ctl event` shows (fwd_settings.c). */
	struct fwd_events events;
	/* Gateway client mode: elect again at the next loop round
	   (fwd_gateway.h); the selection itself is in data->gw. */
	int gw_dirty;
	/* Local clients learnt / withdrawn as seen by fwd_announce_clients. */
	uint64_t ltt_learnt_seen, ltt_withdrawn_seen;
};

#endif /* BATSEC_FWD_TYPES_H */
