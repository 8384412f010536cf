/*
 * fastpath.h — relaying UNICAST and ECHO frames inside the kernel.
 *
 * A relay's work on a data frame for another originator is small (check
 * the hop part, look the destination up, rewrite the MACs and the hop
 * part, send), but done in user space it costs two copies, two system
 * calls' share and a wake-up per frame.  The forwarder therefore loads a
 * small eBPF program (tc, attached at the ingress of a busy mesh
 * interface) that does exactly the user-space relay's work for the frames
 * it is sure about and hands everything else on unchanged to the
 * AF_PACKET socket, where the full checks run and count.  The program is
 * assembled here, without libbpf; the kernel's verifier proves it safe
 * before it runs.
 *
 * The frames the program relays (DP2.md): pkt_type HOST, no VLAN tag
 * (none the kernel took out of the frame at ingress either: the socket
 * filter refuses tagged frames, so the relay passes them on), the
 * configured ethertype, a version-2 UNICAST (0x40) or ECHO (0x42), reserved byte
 * zero, both addresses of mesh form, the frame exactly as long as the
 * type allows (UNICAST: 68 + 14..1518 bytes, ECHO: 68 + 6), TTL above 1,
 * a source originator that is not us, a source MAC that is a neighbour
 * on the receiving interface with a hop key, the frame's keyid that key's
 * id, its hop tag SipHash-2-4(hop key, bytes 0..15 || 24..51 || last 16)
 * right, its hop counter fresh in the replay window of (that neighbour,
 * the counter's lane), a route to the destination whose next hop is a
 * neighbour with a hop key on an up interface, and a frame that fits that
 * interface's MTU.  Relaying: TTL - 1, the next link's keyid, a counter
 * of ours (lane 1 + cpu, cpu below FASTPATH_LANES - 1, the low 56 bits
 * ctr_base + a per-CPU count), the
 * new tag under the next hop's key, the MACs, redirect.
 *
 * Every frame that fails a check or is not to be relayed (for us, no
 * route, BCAST, version 1, a stranger, a bad tag) goes to user space
 * unchanged, with one exception: a frame whose tag is right but whose
 * counter the window has seen (or is older than the window) is dropped
 * here and counted (drop_replay).  The program records in its window
 * every frame it verified, relayed or passed up; user space keeps windows
 * of its own.  Were a replay passed up, the forwarder, whose window never
 * saw the frame the kernel relayed, would take it for new and relay it a
 * second time.  See fastpath.c for the window's concurrency.
 *
 * Maps (written by the forwarder, read by the program; the replay windows
 * and the per-CPU counter are the program's):
 *	route	originator address -> { out ifindex, next hop MAC }
 *	neigh	{ ifindex, MAC } -> counters, hop key, keyid
 *	iface	ifindex -> counters, the interface's MAC and MTU
 *	alive	one deadline (CLOCK_MONOTONIC, ns): after it, or before
 *		the first fastpath_alive(), every frame goes to user space;
 *		and the base of the program's hop counters
 *	replay	{ ifindex, MAC, lane, keyid } -> that lane's window
 *	ctr	per CPU: hop counters used
 * The program adds to the counters; the forwarder takes them (lookup
 * and delete, then insert afresh) into its own once a second and before
 * it shows them.
 *
 * Needs CAP_BPF and CAP_PERFMON when loading (without the latter the
 * verifier refuses adding a variable length to a packet pointer), and
 * Linux 6.6 or newer for a tcx link (older kernels take the program as a
 * tc filter; atomic compare and exchange needs 5.12); the forwarder loads
 * the program before it drops its capabilities and attaches it with
 * CAP_NET_ADMIN.
 */
#ifndef BATSEC_FASTPATH_H
#define BATSEC_FASTPATH_H

#include <stddef.h>
#include <stdint.h>

#define FASTPATH_ADDR_LEN	6
#define FASTPATH_ROUTES_MAX	4096	/* FWD_ROUTE_MAX */
#define FASTPATH_NEIGH_MAX	1024
#define FASTPATH_IFACES_MAX	64
/* Windows: one per (neighbour, its lanes in use, hop key). */
#define FASTPATH_REPLAY_MAX	8192
#define FASTPATH_HOPKEY_LEN	16	/* SipHash-2-4 key */
#define FASTPATH_KEYID_LEN	4
#define FASTPATH_WINDOW		256	/* replay window, counters */
/* Lanes a receiver keeps windows for (FWD_HOP_LANES): 0 and ours, 1 +
 * cpu; the program passes frames up on CPUs 16 and above. */
#define FASTPATH_LANES		17

struct fastpath {
	int prog_fd;			/* -1: not loaded */
	int route_fd;
	int neigh_fd;
	int iface_fd;
	int alive_fd;
	int replay_fd;
	int zero_fd;			/* one empty window to copy */
	int ctr_fd;
	uint64_t ctr_base;		/* our lanes' low 56 bits start here */
};

/* The hop key and key id of one link (DP2.md). */
struct fastpath_hop {
	uint8_t key[FASTPATH_HOPKEY_LEN];
	uint8_t keyid[FASTPATH_KEYID_LEN];
};

struct fastpath_count {
	uint64_t rx_frames;
	uint64_t rx_bytes;		/* after the Ethernet header */
	uint64_t tx_frames;
	uint64_t tx_bytes;
	uint64_t drop_replay;		/* neighbours: right tag, old counter */
};

/* Every fd -1. */
void	fastpath_init(struct fastpath *fp);
/*
 * Create the maps and load the program for this ethertype and our own
 * mesh address.  0, or -1 with a reason in err (the verifier's last
 * words when it refused the program).
 */
int	fastpath_open(struct fastpath *fp, uint16_t ethertype,
	    const uint8_t own[static FASTPATH_ADDR_LEN], char *err,
	    size_t errlen);
void	fastpath_close(struct fastpath *fp);
int	fastpath_loaded(const struct fastpath *fp);

/*
 * The program relays only until until_ns (CLOCK_MONOTONIC, as
 * fastpath_now_ns() reads it): the forwarder renews it while it keeps the
 * maps, so a program left attached by a process that died relays nothing.
 */
uint64_t fastpath_now_ns(void);
int	fastpath_alive(const struct fastpath *fp, uint64_t until_ns);

/*
 * Attach at ifindex's ingress with a tcx link: the link's fd (closing it
 * detaches), or -1 (EINVAL: a kernel without tcx; see nl_tc_bpf_attach()
 * for the tc filter that serves instead).
 */
int	fastpath_attach(const struct fastpath *fp, int ifindex);

/* Routes: set (insert or replace), delete, and walk the keys. */
int	fastpath_route_set(const struct fastpath *fp,
	    const uint8_t orig[static FASTPATH_ADDR_LEN], uint32_t ifindex,
	    const uint8_t nexthop_mac[static FASTPATH_ADDR_LEN]);
int	fastpath_route_get(const struct fastpath *fp,
	    const uint8_t orig[static FASTPATH_ADDR_LEN], uint32_t *ifindex,
	    uint8_t nexthop_mac[static FASTPATH_ADDR_LEN]);
int	fastpath_route_del(const struct fastpath *fp,
	    const uint8_t orig[static FASTPATH_ADDR_LEN]);
/* Up to max keys into out (FASTPATH_ADDR_LEN bytes each): how many. */
size_t	fastpath_route_keys(const struct fastpath *fp, uint8_t *out,
	    size_t max);

/*
 * Neighbours: an entry with this hop key (NULL: none; the program relays
 * nothing from or to a neighbour without one).  Added with zero counters;
 * one present with the same key is kept as it is; one with another key
 * (or none) is replaced, its counters into *taken (when not NULL; zeroed
 * when nothing was taken).  0, or -1.
 */
int	fastpath_neigh_add(const struct fastpath *fp, uint32_t ifindex,
	    const uint8_t mac[static FASTPATH_ADDR_LEN],
	    const struct fastpath_hop *hop, struct fastpath_count *taken);
/* The entry's hop key: 1 and *hop, 0 (none), or -1 (ENOENT: no entry). */
int	fastpath_neigh_hop(const struct fastpath *fp, uint32_t ifindex,
	    const uint8_t mac[static FASTPATH_ADDR_LEN],
	    struct fastpath_hop *hop);
/* The entry's counters into *c: 0, or -1 (ENOENT: none). */
int	fastpath_neigh_get(const struct fastpath *fp, uint32_t ifindex,
	    const uint8_t mac[static FASTPATH_ADDR_LEN],
	    struct fastpath_count *c);
/* Remove the entry, its counters into *c: 0, or -1 (ENOENT: none). */
int	fastpath_neigh_take(const struct fastpath *fp, uint32_t ifindex,
	    const uint8_t mac[static FASTPATH_ADDR_LEN],
	    struct fastpath_count *c);
struct fastpath_neigh_key {
	uint32_t ifindex;
	uint8_t mac[FASTPATH_ADDR_LEN];
	uint16_t pad;			/* zero */
};
size_t	fastpath_neigh_keys(const struct fastpath *fp,
	    struct fastpath_neigh_key *out, size_t max);

/* Replay windows: walk the keys and delete (stale keys, gone neighbours). */
struct fastpath_replay_key {
	uint32_t ifindex;
	uint8_t mac[FASTPATH_ADDR_LEN];
	uint8_t lane;
	uint8_t pad;			/* zero */
	uint8_t keyid[FASTPATH_KEYID_LEN];
};
size_t	fastpath_replay_keys(const struct fastpath *fp,
	    struct fastpath_replay_key *out, size_t max);
int	fastpath_replay_del(const struct fastpath *fp,
	    const struct fastpath_replay_key *k);

/* Interfaces: set MAC and MTU with zero counters, take. */
int	fastpath_iface_add(const struct fastpath *fp, uint32_t ifindex,
	    const uint8_t mac[static FASTPATH_ADDR_LEN], uint32_t mtu);
int	fastpath_iface_get(const struct fastpath *fp, uint32_t ifindex,
	    struct fastpath_count *c);
int	fastpath_iface_take(const struct fastpath *fp, uint32_t ifindex,
	    struct fastpath_count *c);
size_t	fastpath_iface_keys(const struct fastpath *fp, uint32_t *out,
	    size_t max);

/*
 * Run the program once over frame[0..len) as if received on ifindex 1
 * (BPF_PROG_TEST_RUN, for the tests): its verdict (FASTPATH_REDIRECT,
 * FASTPATH_PASS or FASTPATH_DROP) and the frame as it left, or -1.
 */
#define FASTPATH_PASS		(-1)	/* TCX_NEXT: on to user space */
#define FASTPATH_DROP		2	/* TC_ACT_SHOT: a replay */
#define FASTPATH_REDIRECT	7	/* TC_ACT_REDIRECT */
int	fastpath_test_run(const struct fastpath *fp, const uint8_t *frame,
	    size_t len, uint8_t *out, size_t outcap, int *verdict);
/*
 * The same, repeat times over the same buffer (which the program may have
 * rewritten in between): the last verdict and the kernel's mean time per
 * run in *ns (for the benchmark).
 */
int	fastpath_test_repeat(const struct fastpath *fp, const uint8_t *frame,
	    size_t len, uint32_t repeat, int *verdict, uint32_t *ns);

#endif /* BATSEC_FASTPATH_H */
