/*
 * netlink.h — links over rtnetlink (libmnl, NETLINK_ROUTE) for the forwarder.
 *
 * Two kinds of socket, both `struct nl_sock` (opaque, heap-allocated):
 *
 *  - a request socket (nl_open): blocking with a 5-second receive timeout;
 *    every request carries NLM_F_ACK and waits for the kernel's answer,
 *    matched by sequence number and port id.  A failed request returns -1
 *    with errno set to the kernel's error (EINVAL, EPERM, ENODEV, ...) and
 *    nl_errmsg() gives the kernel's extended-ACK text when it sent one.
 *
 *  - an event socket (nl_events_open): non-blocking, joined to RTMGRP_LINK,
 *    with a large receive buffer.  Poll nl_fd() for POLLIN, then call
 *    nl_events_recv(), which hands every RTM_NEWLINK / RTM_DELLINK of an
 *    interface to a callback.  When it fails with ENOBUFS (the kernel
 *    dropped events because the buffer overran) or EBADMSG, events were
 *    lost: call nl_events_resync(), which discards what is queued and
 *    dumps every link again.
 *
 * Only datagrams sent by the kernel (source port id 0) are ever read:
 * anything another process sends to our port is dropped unparsed.
 *
 * Link messages are decoded by nl_link_parse(), a pure function over
 * (buf, len) that the fuzz harness and the event path share.  It checks the
 * payload length before reading struct ifinfomsg, validates every attribute
 * it uses (IFLA_IFNAME a NUL-terminated valid name within IFNAMSIZ,
 * IFLA_ADDRESS exactly 6 bytes on Ethernet, IFLA_MTU / IFLA_MIN_MTU /
 * IFLA_MAX_MTU a u32, IFLA_OPERSTATE a u8, each at most once), skips
 * attributes it does not know, and rejects bytes left after the last
 * attribute.
 *
 * None of these functions log; they return -1 with errno and the caller
 * logs one line naming the interface.
 */
#ifndef BATSEC_NETLINK_H
#define BATSEC_NETLINK_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sizes. */
#define NL_MAC_LEN		6
#define NL_EVENTS_RCVBUF	(4u << 20)	/* event socket, bytes */
#define NL_ERRMSG_MAX		128

/*
 * MTU policy.  A data frame carries the inner frame's own Ethernet header
 * (14 bytes) and adds 68 bytes to a UNICAST (hop part, end-to-end header,
 * AEAD tag) and 96 + 12 per neighbour to a BCAST (hop part, signed header,
 * signature, a tag per neighbour).  A mesh interface of inner IP MTU +
 * BATSEC_DATA_OVERHEAD (1500 + 130 = 1630) carries every UNICAST and a
 * full-size BCAST with one tag (small ones with up to 8); a broadcast
 * for more neighbours than fit goes out as several frames.  A mesh
 * interface with a smaller MTU, down to BATSEC_FRAG_MTU_MIN, still
 * carries every UNICAST of a 1500-byte inner MTU cut into at most 16
 * FRAG pieces (a 44-byte header each, 1562 bytes in all: fwd_frag.h), so
 * the TAP stays at BATSEC_INNER_MTU; broadcasts larger than such an
 * interface's MTU are not sent on it.
 */
#define BATSEC_DATA_OVERHEAD	130
#define BATSEC_INNER_MTU	1500
#define BATSEC_FRAG_MTU_MIN	142	/* 44 + ceil(1562 / 16) */
#define NL_MTU_MIN		68	/* smallest IPv4 MTU: below it, give up */

/* Operational state (RFC 2863, IFLA_OPERSTATE). */
enum nl_operstate {
	NL_OPER_UNKNOWN = 0,
	NL_OPER_NOTPRESENT = 1,
	NL_OPER_DOWN = 2,
	NL_OPER_LOWERLAYERDOWN = 3,
	NL_OPER_TESTING = 4,
	NL_OPER_DORMANT = 5,
	NL_OPER_UP = 6,
};

/* What a link message says happened. */
enum nl_link_event {
	NL_LINK_NEW = 1,	/* RTM_NEWLINK: exists; state may have changed */
	NL_LINK_DEL = 2,	/* RTM_DELLINK: the interface is gone */
};

/* One interface, as decoded from an RTM_NEWLINK / RTM_DELLINK message. */
struct nl_link {
	enum nl_link_event event;
	int		ifindex;	/* > 0 */
	char		name[IFNAMSIZ];	/* NUL-terminated, valid */
	unsigned int	flags;		/* ifi_flags: IFF_UP is the admin state */
	uint16_t	type;		/* ifi_type: ARPHRD_ETHER, ... */
	bool		has_mac;	/* mac holds a 6-byte hardware address */
	uint8_t		mac[NL_MAC_LEN];
	uint32_t	mtu;		/* 0 when the message had none */
	uint32_t	min_mtu;	/* 0 when unknown */
	uint32_t	max_mtu;	/* 0 when unknown */
	uint8_t		operstate;	/* enum nl_operstate */
};

/* Called once per link by dumps and event delivery. */
typedef void (*nl_link_cb)(const struct nl_link *link, void *arg);

struct nl_sock;

/* ---- sockets ---------------------------------------------------------- */

/* A request socket; NULL with errno on failure. */
struct nl_sock	*nl_open(void);

/*
 * An event socket for RTMGRP_LINK, non-blocking, close-on-exec.  rcvbuf is
 * the receive buffer in bytes (0: NL_EVENTS_RCVBUF); as root the system
 * limit is overridden.  NULL with errno on failure.
 */
struct nl_sock	*nl_events_open(size_t rcvbuf);

/* Closes and frees; NULL is fine. */
void		 nl_close(struct nl_sock *ns);

/* The descriptor, for poll(2). */
int		 nl_fd(const struct nl_sock *ns);

/* The kernel's extended-ACK text for the last failed request, or "". */
const char	*nl_errmsg(const struct nl_sock *ns);

/* ---- requests (each: NLM_F_ACK, 0 on success, -1 with errno) -------- */

/* Sets the admin state (IFF_UP) of ifindex. */
int	nl_link_set_up(struct nl_sock *ns, int ifindex, bool up);

/* Sets the MTU; EINVAL when outside the device's min/max. */
int	nl_link_set_mtu(struct nl_sock *ns, int ifindex, uint32_t mtu);

/* Sets the hardware address (Ethernet, 6 bytes). */
int	nl_link_set_mac(struct nl_sock *ns, int ifindex,
	    const uint8_t mac[static NL_MAC_LEN]);

/* Fills *out for one interface; ENODEV when there is none. */
int	nl_link_get_by_index(struct nl_sock *ns, int ifindex,
	    struct nl_link *out);
int	nl_link_get_by_name(struct nl_sock *ns, const char *name,
	    struct nl_link *out);

/*
 * Dumps every interface of the network namespace, calling cb once per link
 * (event NL_LINK_NEW).  Returns the number of links, or -1 with errno
 * (EBADMSG: the kernel sent a message nl_link_parse() refused).
 */
int	nl_link_dump(struct nl_sock *ns, nl_link_cb cb, void *arg);

/* Creates a veth pair name <-> peer (both down); EEXIST if either exists. */
int	nl_veth_create(struct nl_sock *ns, const char *name, const char *peer);

/* Deletes an interface (for a veth, both ends go). */
int	nl_link_delete(struct nl_sock *ns, int ifindex);

/* ---- tc (the in-kernel relay where tcx links are missing) ------------ */

/*
 * Attaches the SCHED_CLS program prog_fd at ifindex's ingress as a tc
 * filter: a clsact qdisc is added unless one is there, then a bpf filter
 * in direct-action mode, named name, at preference prio (non-zero),
 * handle 1, for frames of this ethertype only; a filter already at that
 * preference is replaced.  Unlike a tcx link it outlives the process:
 * nl_tc_bpf_detach() removes it.
 */
int	nl_tc_bpf_attach(struct nl_sock *ns, int ifindex, int prog_fd,
	    const char *name, uint16_t prio, uint16_t ethertype);

/* Removes the bpf filter at preference prio of ifindex's ingress
 * (ENOENT: none there; EINVAL: another kind of filter or no clsact). */
int	nl_tc_bpf_detach(struct nl_sock *ns, int ifindex, uint16_t prio);

/* ---- events ----------------------------------------------------------- */

/*
 * Reads what is queued on an event socket (at most 64 datagrams per call,
 * so the caller's loop keeps turning under a storm) and calls cb for each
 * link message of family AF_UNSPEC (bridge-port messages of family
 * AF_BRIDGE are not interface events and are skipped).
 * Returns the number of events delivered (0: nothing queued), or -1 with
 * errno: ENOBUFS (events were lost: the buffer overran or a datagram was
 * too long) or EBADMSG (a malformed message) — call nl_events_resync() —
 * or another recvmsg(2) error.
 */
int	nl_events_recv(struct nl_sock *ev, nl_link_cb cb, void *arg);

/*
 * After ENOBUFS/EBADMSG: discards what the event socket holds, then dumps
 * every link through the request socket req, calling cb (NL_LINK_NEW) for
 * each.  An interface the caller tracks that this dump does not report was
 * deleted meanwhile (mark everything before, sweep after).  Events queued
 * after the discard are newer than or equal to the dump, so applying them
 * in order afterwards is correct.  Returns what nl_link_dump() returns.
 */
int	nl_events_resync(struct nl_sock *ev, struct nl_sock *req,
	    nl_link_cb cb, void *arg);

/* ---- parsing (pure: no system calls) ---------------------------------- */

/*
 * Decodes one netlink message.  buf must be 4-byte aligned and len must be
 * exactly its nlmsg_len.  Returns 0 with *out filled for an RTM_NEWLINK /
 * RTM_DELLINK of family AF_UNSPEC; 1 for a well-formed message of another
 * type or family (ignore it); -1 with errno EBADMSG (malformed) or EINVAL
 * (misaligned buf).  *out is zeroed unless 0 is returned.
 */
int	nl_link_parse(const void *buf, size_t len, struct nl_link *out);

/*
 * Walks a datagram of netlink messages (as read from an event socket) and
 * calls cb for every link event in it.  Returns the number delivered, or -1
 * with errno EBADMSG at the first malformed message (those before it were
 * delivered) or EINVAL (misaligned buf).
 */
int	nl_events_parse(const void *buf, size_t len, nl_link_cb cb, void *arg);

/* ---- helpers ---------------------------------------------------------- */

/*
 * True when name is a valid interface name: 1..IFNAMSIZ-1 bytes (measured
 * with a bound, so an unterminated array is safe), not "." or "..", and no
 * '/', ':', '%' or white space.  The kernel refuses the same names, except
 * '%', which it would expand as a pattern.
 */
bool	nl_ifname_valid(const char *name);

/* Admin up and operationally up (or unknown, as a TAP reports). */
bool	nl_link_running(const struct nl_link *link);

/*
 * The TAP MTU that mesh interfaces with these MTUs can carry: inner_mtu
 * when every one is at least inner_mtu + BATSEC_DATA_OVERHEAD (frames go
 * whole), else, when every one is at least BATSEC_FRAG_MTU_MIN, the
 * smaller of inner_mtu and BATSEC_INNER_MTU (UNICASTs are cut into FRAG
 * pieces), else 0.  With no mesh interface, inner_mtu.
 */
uint32_t nl_mtu_for_tap(const uint32_t *mesh_mtu, size_t n,
	    uint32_t inner_mtu);

/*
 * Applies the MTU policy: for each mesh interface whose MTU is below
 * inner_mtu + BATSEC_DATA_OVERHEAD, tries to raise it to exactly that; if
 * the device refuses (EINVAL, ERANGE, EPERM, EOPNOTSUPP) it keeps its MTU.
 * Then the TAP MTU is nl_mtu_for_tap() of the resulting MTUs and is set on
 * tap_ifindex when that is > 0.  MTUs are never lowered.
 * mesh_mtu (may be NULL) receives each interface's resulting MTU and
 * *tap_mtu the TAP MTU.  Returns 0, or -1 with errno: ERANGE (a mesh MTU
 * is below BATSEC_FRAG_MTU_MIN) or any other netlink error.
 */
int	nl_mtu_apply(struct nl_sock *ns, const int *mesh_ifindex, size_t n,
	    uint32_t inner_mtu, int tap_ifindex, uint32_t *mesh_mtu,
	    uint32_t *tap_mtu);

#endif /* BATSEC_NETLINK_H */
