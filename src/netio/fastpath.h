/*
 * fastpath.h — relaying UNICAST frames inside the kernel.
 *
 * A relay's work on a UNICAST for another originator is small (check
 * the frame, look the destination up, rewrite two MAC addresses, TTL - 1,
 * send), but done in user space it costs two copies, two system calls'
 * share and a wake-up per frame.  The forwarder therefore loads a small
 * eBPF program (tc, attached at the ingress of a busy mesh interface)
 * that does exactly the user-space relay's work for the
 * frames it is sure about and hands everything else on unchanged to the
 * AF_PACKET socket, where the full checks run and count.  The program is
 * assembled here, without libbpf; the kernel's verifier proves it safe
 * before it runs.
 *
 * The frames the program relays: pkt_type HOST, the configured
 * ethertype, a version-1 UNICAST whose header is exactly as
 * wire_unicast_parse() wants it (reserved bytes zero, both addresses of
 * mesh form, inner length 14..1518 and the frame exactly that long, so no
 * padding), TTL above 1, a source originator that is not us, a source MAC
 * that is a neighbour on the receiving interface, a route to the
 * destination whose next hop is a neighbour on an up interface, and a
 * frame that fits that interface's MTU.  Anything else -- frames for us,
 * broadcasts, control frames, every malformed or unusual frame -- goes
 * to user space as before.
 *
 * Maps (all written by the forwarder, read by the program):
 *	route	originator address -> { out ifindex, next hop MAC }
 *	neigh	{ ifindex, MAC } -> counters (rx from it, tx to it)
 *	iface	ifindex -> counters, the interface's MAC and MTU
 *	alive	one deadline (CLOCK_MONOTONIC, ns): after it, or before
 *		the first fastpath_alive(), every frame goes to user space
 * The program adds to the counters; the forwarder takes them (lookup
 * and delete, then insert afresh) into its own once a second and before
 * it shows them.
 *
 * Needs CAP_BPF when loading, and Linux 6.6 or newer for a tcx link
 * (older kernels take the program as a tc filter); the forwarder loads
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

struct fastpath {
	int prog_fd;			/* -1: not loaded */
	int route_fd;
	int neigh_fd;
	int iface_fd;
	int alive_fd;
};

struct fastpath_count {
	uint64_t rx_frames;
	uint64_t rx_bytes;		/* after the Ethernet header */
	uint64_t tx_frames;
	uint64_t tx_bytes;
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

/* Neighbours: add with zero counters (kept when present), take. */
int	fastpath_neigh_add(const struct fastpath *fp, uint32_t ifindex,
	    const uint8_t mac[static FASTPATH_ADDR_LEN]);
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
 * (BPF_PROG_TEST_RUN, for the tests): its verdict (FASTPATH_REDIRECT or
 * FASTPATH_PASS) and the frame as it left, or -1.
 */
#define FASTPATH_PASS		(-1)	/* TCX_NEXT: on to user space */
#define FASTPATH_REDIRECT	7	/* TC_ACT_REDIRECT */
int	fastpath_test_run(const struct fastpath *fp, const uint8_t *frame,
	    size_t len, uint8_t *out, size_t outcap, int *verdict);

#endif /* BATSEC_FASTPATH_H */
