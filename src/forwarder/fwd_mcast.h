/*
 * fwd_mcast.h — multicast listeners (batsecd(8) "Multicast",
 * batsec-protocol(7) "MULTICAST LISTENERS").
 *
 * Local: the IGMP (v1, v2, v3) and MLD (v1, v2) reports our clients (and
 * this host) send on batsec0 say which groups they listen to; a group
 * lives FWD_MCAST_LISTEN_MS after its last report (an IGMPv2 leave, an
 * MLDv1 done or a version-3/2 record that leaves the group ends it at
 * once), except one this host itself reported (source MAC = the TAP's):
 * the kernel reports its groups when it joins and leaves them and, with
 * no querier, never in between, so those last until the leave.  Up to
 * WIRE_MCAST_MAX groups are announced in our OGMs (MCAST container); with
 * more, or with a report the table cannot hold, the family's "every
 * group" flag is announced instead for FWD_MCAST_LISTEN_MS.  Mode
 * (batsec.conf(5) multicast-listeners): auto announces every group once
 * batsec0 has clients other than this host (a bridge: a snooping bridge
 * keeps its ports' reports from batsec0), exact lists the groups all the
 * same, flood announces every group and floods our group frames.
 *
 * Remote: each originator's newest MCAST container (from the parser,
 * IPC_MCAST); an originator whose newest OGM had none is unknown.
 *
 * The rule for a frame from our clients to a group address:
 *  - broadcast, non-IP multicast, IPv4 224.0.0.0/24 (01:00:5e:00:00:xx)
 *    and IPv6 groups whose MAC is 33:33:00:00:00:xx (ff02::1 all-nodes,
 *    ::2 all-routers, ::16 MLDv2 reports, ::fb mDNS, ...) are flooded:
 *    their listeners do not report, or everyone listens;
 *  - any other IPv4 or IPv6 group: when an originator we have a route
 *    to is unknown, flooded; else sent as one UNICAST to each originator
 *    that lists the group or asks for every group of its family, when
 *    there are 1..FWD_MCAST_UNICAST_MAX of them; flooded when more; and
 *    not sent at all (counted) when none.
 */
#ifndef BATSEC_FWD_MCAST_H
#define BATSEC_FWD_MCAST_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "common/config.h"
#include "proto/wire.h"

#define FWD_MCAST_LOCAL_MAX	64	/* groups we keep (announce 32) */
#define FWD_MCAST_ORIG_MAX	256	/* originators' listener sets */
#define FWD_MCAST_UNICAST_MAX	4
#define FWD_MCAST_LISTEN_MS	260000	/* RFC 3376 group membership */

struct fwd_tables;
struct ipc_mcast;

struct fwd_mcast_local {
	uint8_t group[BS_ADDR_LEN];
	uint8_t used;
	uint8_t own;			/* this host reported it */
	uint64_t seen_ms;
};

struct fwd_mcast_orig {
	uint8_t orig[BS_ADDR_LEN];
	uint8_t used;
	uint8_t known;			/* its newest OGM had a container */
	uint8_t flags;			/* WIRE_MCAST_F_* */
	uint8_t n;
	uint8_t group[WIRE_MCAST_MAX][BS_ADDR_LEN];
	uint64_t since_ms;
};

struct fwd_mcast_counters {
	uint64_t reports;		/* joins and refreshes snooped */
	uint64_t leaves;
	uint64_t local_full;		/* a group the table could not hold */
	uint64_t orig_full;		/* an originator's set not kept */
	uint64_t unicast;		/* group frames sent as UNICASTs */
	uint64_t unicast_copies;
	uint64_t flooded;		/* optimisable groups flooded */
	uint64_t no_listener;		/* not sent: no listener */
};

struct fwd_mcast {
	uint8_t mode;			/* enum bs_mcast_mode */
	struct fwd_mcast_local local[FWD_MCAST_LOCAL_MAX];
	uint64_t all_until_ms[2];	/* IPv4, IPv6 "every group" */
	struct fwd_mcast_orig orig[FWD_MCAST_ORIG_MAX];
	struct fwd_mcast_counters c;
};

void	fwd_mcast_init(struct fwd_mcast *m);
/*
 * A frame our clients sent on batsec0: when it is an IGMP or MLD report
 * or leave, the local table learns from it (nothing else is touched).
 */
void	fwd_mcast_snoop(struct fwd_mcast *m, const uint8_t *frame,
	    size_t len, int own, uint64_t now_ms);
/*
 * Our MCAST container for the next OGM at buf[*len], when it fits cap;
 * bridged: batsec0 has clients other than this host.
 */
int	fwd_mcast_put(struct fwd_mcast *m, uint8_t *buf, size_t cap,
	    size_t *len, int bridged, uint64_t now_ms);
/* An originator's newest container (IPC_MCAST, checked). */
void	fwd_mcast_remote(struct fwd_mcast *m, const struct ipc_mcast *msg,
	    uint64_t now_ms);
/* 1 when frames to this group address are optimised (the rule above). */
int	fwd_mcast_snoopable(const uint8_t dst[static BS_ADDR_LEN]);
/*
 * Where a frame to the optimisable group dst goes: -1 flood; else the
 * number of originators written to out (at most FWD_MCAST_UNICAST_MAX),
 * 0 meaning nowhere.  Counted.
 */
int	fwd_mcast_targets(struct fwd_mcast *m, const struct fwd_tables *t,
	    const uint8_t dst[static BS_ADDR_LEN],
	    uint8_t out[][BS_ADDR_LEN]);
/* Local groups now (for batsec-ctl): the count; group i in out. */
unsigned fwd_mcast_local_list(const struct fwd_mcast *m, uint64_t now_ms,
	    uint8_t out[][BS_ADDR_LEN], unsigned max);

#endif /* BATSEC_FWD_MCAST_H */
