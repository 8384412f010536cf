/*
 * netlink.c — links over rtnetlink with libmnl: requests (each with
 * NLM_F_ACK, answers matched by sequence number and port id), the link
 * message parser, the RTMGRP_LINK event socket and the MTU policy.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <net/if.h>
#include <net/if_arp.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "netlink.h"

#define NL_BUF_SIZE	32768	/* receive buffer: what the kernel advises */
#define NL_REQ_SIZE	512	/* our requests are small and fixed */
#define NL_TIMEOUT_SEC	5	/* request socket: wait this long for an answer */
#define NL_MSG_MAX	(1u << 20)	/* nl_link_parse: longest message */
#define NL_EVENTS_BATCH	64	/* datagrams per nl_events_recv() call */
#define NL_DRAIN_MAX	4096	/* datagrams discarded by a resync at most */
#define NL_HDRLEN	((size_t)NLMSG_HDRLEN)
#define NL_ATTR_OFF	(NL_HDRLEN + NLMSG_ALIGN(sizeof(struct ifinfomsg)))

/* nl_walk() results besides 0 (done) and -1 (error). */
#define NL_MORE		1

struct nl_sock {
	struct mnl_socket	*mnl;
	uint32_t		 portid;
	uint32_t		 seq;
	char			 errmsg[NL_ERRMSG_MAX];
	_Alignas(8) uint8_t	 buf[NL_BUF_SIZE];
};

/* What a request expects back, and what has come so far. */
struct nl_reply {
	uint32_t	 seq;
	bool		 dump;		/* ends with NLMSG_DONE, not an ACK */
	nl_link_cb	 cb;		/* link messages go here ... */
	void		*arg;
	struct nl_link	*one;		/* ... or into this single slot */
	int		 count;		/* link messages received */
	int		 err;		/* first problem met while reading on */
};

/* ---- names and helpers ------------------------------------------------ */

/* The kernel's isspace() also counts Latin-1 NBSP (0xa0). */
static bool
nl_ifname_badchar(unsigned char c)
{
	return c == '/' || c == ':' || c == '%' || c == ' ' ||
	    (c >= '\t' && c <= '\r') || c == 0xa0;
}

bool
nl_ifname_valid(const char *name)
{
	size_t len, i;

	len = strnlen(name, IFNAMSIZ);
	if (len == 0 || len >= IFNAMSIZ)
		return false;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (i = 0; i < len; i++)
		if (nl_ifname_badchar((unsigned char)name[i]))
			return false;
	return true;
}

bool
nl_link_running(const struct nl_link *link)
{
	/* The kernel sets IFF_RUNNING for operstate UP or UNKNOWN. */
	return (link->flags & (IFF_UP | IFF_RUNNING)) == (IFF_UP | IFF_RUNNING);
}

/* ---- the link message parser (pure) ------------------------------------ */

struct nl_parse {
	struct nl_link	*link;
	const uint8_t	*base;		/* first attribute */
	size_t		 end;		/* end of the last attribute, padded */
	size_t		 end_unpadded;	/* the same without its padding */
	uint64_t	 seen;		/* one bit per attribute type used */
};

static int
nl_attr_ifname(const struct nlattr *attr, struct nl_link *link)
{
	size_t len = mnl_attr_get_payload_len(attr);
	const char *s = mnl_attr_get_str(attr);

	/* NUL-terminated, with no NUL before the end, within IFNAMSIZ. */
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0 ||
	    len > IFNAMSIZ || strnlen(s, len) != len - 1 ||
	    !nl_ifname_valid(s))
		return MNL_CB_ERROR;
	memcpy(link->name, s, len);
	return MNL_CB_OK;
}

static int
nl_attr_address(const struct nlattr *attr, struct nl_link *link)
{
	if (link->type == ARPHRD_ETHER) {
		if (mnl_attr_validate2(attr, MNL_TYPE_BINARY, NL_MAC_LEN) < 0)
			return MNL_CB_ERROR;
	} else if (mnl_attr_get_payload_len(attr) != NL_MAC_LEN) {
		return MNL_CB_OK;	/* not a MAC: nothing batsec uses */
	}
	memcpy(link->mac, mnl_attr_get_payload(attr), NL_MAC_LEN);
	link->has_mac = true;
	return MNL_CB_OK;
}

static int
nl_attr_u32(const struct nlattr *attr, uint32_t *out)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	*out = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int
nl_attr_operstate(const struct nlattr *attr, struct nl_link *link)
{
	uint8_t v;

	if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0)
		return MNL_CB_ERROR;
	v = mnl_attr_get_u8(attr);
	/* A state newer than RFC 2863's list is not one we can act on. */
	link->operstate = v <= NL_OPER_UP ? v : NL_OPER_UNKNOWN;
	return MNL_CB_OK;
}

static int
nl_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_parse *p = data;
	struct nl_link *link = p->link;
	uint16_t type = mnl_attr_get_type(attr);
	size_t off = (size_t)((const uint8_t *)attr - p->base);

	p->end_unpadded = off + attr->nla_len;
	p->end = off + MNL_ALIGN(attr->nla_len);
	/*
	 * The kernel never repeats an attribute, except IFLA_PAD: on
	 * architectures without efficient unaligned access (32-bit MIPS and
	 * ARM) each 64-bit attribute (IFLA_STATS64, ...) comes after its own
	 * empty IFLA_PAD.  Found in the emulated MIPS router, where every
	 * link message was refused.
	 */
	if (type < 64 && type != IFLA_PAD) {
		if (p->seen & (UINT64_C(1) << type))
			return MNL_CB_ERROR;
		p->seen |= UINT64_C(1) << type;
	}
	switch (type) {
	case IFLA_IFNAME:
		return nl_attr_ifname(attr, link);
	case IFLA_ADDRESS:
		return nl_attr_address(attr, link);
	case IFLA_MTU:
		return nl_attr_u32(attr, &link->mtu);
	case IFLA_MIN_MTU:
		return nl_attr_u32(attr, &link->min_mtu);
	case IFLA_MAX_MTU:
		return nl_attr_u32(attr, &link->max_mtu);
	case IFLA_OPERSTATE:
		return nl_attr_operstate(attr, link);
	default:
		return MNL_CB_OK;	/* unknown or unused: skipped */
	}
}

/* The attributes after struct ifinfomsg: all valid, none cut, no residue. */
static int
nl_link_attrs(const uint8_t *msg, size_t len, struct nl_link *out)
{
	struct nl_parse p;
	size_t alen = len - NL_ATTR_OFF;

	memset(&p, 0, sizeof(p));
	p.link = out;
	p.base = msg + NL_ATTR_OFF;
	if (mnl_attr_parse_payload(p.base, alen, nl_attr_cb, &p) != MNL_CB_OK)
		return -1;
	/* libmnl stops quietly at a cut attribute: demand it reached the end. */
	if (p.end != alen && p.end_unpadded != alen)
		return -1;
	if (!(p.seen & (UINT64_C(1) << IFLA_IFNAME)))
		return -1;
	return 0;
}

int
nl_link_parse(const void *buf, size_t len, struct nl_link *out)
{
	const uint8_t *msg = buf;
	const struct nlmsghdr *nlh = buf;
	const struct ifinfomsg *ifm;

	memset(out, 0, sizeof(*out));
	if ((uintptr_t)buf % NLMSG_ALIGNTO != 0) {
		errno = EINVAL;
		return -1;
	}
	if (len < NL_HDRLEN || len > NL_MSG_MAX || nlh->nlmsg_len != len)
		goto bad;
	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return 1;
	if (len < NL_ATTR_OFF)
		goto bad;
	ifm = (const struct ifinfomsg *)(msg + NL_HDRLEN);
	if (ifm->ifi_family != AF_UNSPEC)
		return 1;	/* AF_BRIDGE port messages and the like */
	if (ifm->ifi_index <= 0)
		goto bad;
	out->event = nlh->nlmsg_type == RTM_NEWLINK ? NL_LINK_NEW : NL_LINK_DEL;
	out->ifindex = ifm->ifi_index;
	out->flags = ifm->ifi_flags;
	out->type = ifm->ifi_type;
	if (nl_link_attrs(msg, len, out) != 0)
		goto bad;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	errno = EBADMSG;
	return -1;
}

int
nl_events_parse(const void *buf, size_t len, nl_link_cb cb, void *arg)
{
	const uint8_t *p = buf;
	const struct nlmsghdr *nlh;
	struct nl_link link;
	size_t off = 0, mlen;
	int count = 0, rc;

	if ((uintptr_t)buf % NLMSG_ALIGNTO != 0) {
		errno = EINVAL;
		return -1;
	}
	while (len - off >= NL_HDRLEN) {
		nlh = (const struct nlmsghdr *)(p + off);
		mlen = nlh->nlmsg_len;
		if (mlen < NL_HDRLEN || mlen > len - off)
			break;
		rc = nl_link_parse(nlh, mlen, &link);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			cb(&link, arg);
			count++;
		}
		/* The last message may lack its padding. */
		if (MNL_ALIGN(mlen) >= len - off)
			return count;
		off += MNL_ALIGN(mlen);
	}
	if (off == len)
		return count;
	errno = EBADMSG;
	return -1;
}

/* ---- sockets ---------------------------------------------------------- */

static struct nl_sock *
nl_new(int flags, unsigned int groups)
{
	struct nl_sock *ns;
	int saved;

	if ((ns = calloc(1, sizeof(*ns))) == NULL)
		return NULL;
	ns->mnl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC | flags);
	if (ns->mnl == NULL)
		goto fail;
	if (mnl_socket_bind(ns->mnl, groups, MNL_SOCKET_AUTOPID) != 0)
		goto fail;
	ns->portid = mnl_socket_get_portid(ns->mnl);
	ns->seq = (uint32_t)time(NULL);
	return ns;
fail:
	saved = errno;
	nl_close(ns);
	errno = saved;
	return NULL;
}

static void
nl_setopt_flag(struct nl_sock *ns, int opt)
{
	int one = 1;

	/* Best effort: each only improves error reporting or checking. */
	(void)setsockopt(nl_fd(ns), SOL_NETLINK, opt, &one, sizeof(one));
}

struct nl_sock *
nl_open(void)
{
	struct nl_sock *ns;
	struct timeval tv = { .tv_sec = NL_TIMEOUT_SEC, .tv_usec = 0 };
	int saved;

	if ((ns = nl_new(0, 0)) == NULL)
		return NULL;
	nl_setopt_flag(ns, NETLINK_EXT_ACK);
	nl_setopt_flag(ns, NETLINK_CAP_ACK);
	nl_setopt_flag(ns, NETLINK_GET_STRICT_CHK);
	if (setsockopt(nl_fd(ns), SOL_SOCKET, SO_RCVTIMEO, &tv,
	    sizeof(tv)) != 0) {
		saved = errno;
		nl_close(ns);
		errno = saved;
		return NULL;
	}
	return ns;
}

struct nl_sock *
nl_events_open(size_t rcvbuf)
{
	struct nl_sock *ns;
	int size, saved;

	if (rcvbuf == 0)
		rcvbuf = NL_EVENTS_RCVBUF;
	if (rcvbuf > (size_t)(INT32_MAX / 2)) {
		errno = EINVAL;
		return NULL;
	}
	size = (int)rcvbuf;
	if ((ns = nl_new(SOCK_NONBLOCK, RTMGRP_LINK)) == NULL)
		return NULL;
	/* FORCE passes rmem_max when we may (CAP_NET_ADMIN). */
	if (setsockopt(nl_fd(ns), SOL_SOCKET, SO_RCVBUFFORCE, &size,
	    sizeof(size)) != 0 &&
	    setsockopt(nl_fd(ns), SOL_SOCKET, SO_RCVBUF, &size,
	    sizeof(size)) != 0) {
		saved = errno;
		nl_close(ns);
		errno = saved;
		return NULL;
	}
	return ns;
}

void
nl_close(struct nl_sock *ns)
{
	if (ns == NULL)
		return;
	if (ns->mnl != NULL)
		(void)mnl_socket_close(ns->mnl);
	free(ns);
}

int
nl_fd(const struct nl_sock *ns)
{
	return mnl_socket_get_fd(ns->mnl);
}

const char *
nl_errmsg(const struct nl_sock *ns)
{
	return ns->errmsg;
}

/*
 * Reads one datagram into ns->buf.  Returns its length; 0 when it did not
 * come from the kernel (port id 0) and was dropped; -1 with errno
 * (EMSGSIZE when it did not fit).
 */
static ssize_t
nl_recv(struct nl_sock *ns)
{
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = ns->buf, .iov_len = sizeof(ns->buf) };
	struct msghdr msg = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	memset(&sa, 0, sizeof(sa));
	n = recvmsg(nl_fd(ns), &msg, 0);
	if (n < 0)
		return -1;
	if (msg.msg_flags & MSG_TRUNC) {
		errno = EMSGSIZE;
		return -1;
	}
	if (msg.msg_namelen != sizeof(sa) || sa.nl_family != AF_NETLINK ||
	    sa.nl_pid != 0)
		return 0;
	return n;
}

/* ---- requests ---------------------------------------------------------- */

static int
nl_extack_cb(const struct nlattr *attr, void *data)
{
	struct nl_sock *ns = data;
	const char *s;
	size_t i, len;

	if (mnl_attr_get_type(attr) != NLMSGERR_ATTR_MSG)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return MNL_CB_STOP;
	s = mnl_attr_get_str(attr);
	len = strnlen(s, sizeof(ns->errmsg) - 1);
	/* Keep it to one printable line for the log. */
	for (i = 0; i < len; i++)
		ns->errmsg[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	ns->errmsg[len] = '\0';
	return MNL_CB_STOP;
}

/* The kernel's extended-ACK message, when it attached one. */
static void
nl_extack(struct nl_sock *ns, const uint8_t *msg, size_t mlen)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)msg;
	const struct nlmsgerr *e = (const struct nlmsgerr *)(msg + NL_HDRLEN);
	size_t body = sizeof(*e), off;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		/* The whole request was echoed before the TLVs. */
		if (e->msg.nlmsg_len < NL_HDRLEN ||
		    e->msg.nlmsg_len - NL_HDRLEN > NL_MSG_MAX)
			return;
		body += e->msg.nlmsg_len - NL_HDRLEN;
	}
	if (NLMSG_ALIGN(body) > mlen - NL_HDRLEN)
		return;
	off = NL_HDRLEN + NLMSG_ALIGN(body);
	(void)mnl_attr_parse_payload(msg + off, mlen - off, nl_extack_cb, ns);
}

static int
nl_reply_error(struct nl_sock *ns, const uint8_t *msg,
    size_t mlen, struct nl_reply *r)
{
	const struct nlmsgerr *e;
	int err;

	if (mlen < NL_HDRLEN + sizeof(*e)) {
		errno = EBADMSG;
		return -1;
	}
	e = (const struct nlmsgerr *)(msg + NL_HDRLEN);
	err = e->error;
	if (err > 0 || err < -4095) {
		errno = EBADMSG;
		return -1;
	}
	if (err < 0) {
		nl_extack(ns, msg, mlen);
		errno = -err;
		return -1;
	}
	/* A plain ACK: the request is complete. */
	if (r->err != 0) {
		errno = r->err;
		return -1;
	}
	if (r->one != NULL && r->count == 0) {
		errno = ENODEV;
		return -1;
	}
	return 0;
}

static int
nl_reply_done(const uint8_t *msg, size_t mlen, struct nl_reply *r)
{
	int32_t status = 0;

	if (!r->dump)
		return NL_MORE;		/* not ours to end: wait for the ACK */
	if (mlen >= NL_HDRLEN + sizeof(status))
		memcpy(&status, msg + NL_HDRLEN, sizeof(status));
	if (status < 0 && status >= -4095) {
		errno = -status;
		return -1;
	}
	if (r->err != 0) {
		errno = r->err;
		return -1;
	}
	return 0;
}

/* A data message: a link for the caller, else nothing we asked for. */
static int
nl_reply_data(const uint8_t *msg, size_t mlen, struct nl_reply *r)
{
	struct nl_link link;
	int rc;

	rc = nl_link_parse(msg, mlen, &link);
	if (rc < 0) {
		/* Read on to the end, so no half answer stays queued. */
		if (r->err == 0)
			r->err = EBADMSG;
		return NL_MORE;
	}
	if (rc > 0)
		return NL_MORE;
	if (r->one != NULL) {
		if (r->count > 0 && r->err == 0)
			r->err = EBADMSG;	/* one link asked, two came */
		*r->one = link;
	} else if (r->cb != NULL) {
		r->cb(&link, r->arg);
	}
	if (r->count < INT32_MAX)
		r->count++;
	return NL_MORE;
}

static int
nl_reply_one(struct nl_sock *ns, const uint8_t *msg, size_t mlen,
    struct nl_reply *r)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)msg;

	switch (nlh->nlmsg_type) {
	case NLMSG_NOOP:
		return NL_MORE;
	case NLMSG_ERROR:
		return nl_reply_error(ns, msg, mlen, r);
	case NLMSG_DONE:
		return nl_reply_done(msg, mlen, r);
	case NLMSG_OVERRUN:
		errno = ENOBUFS;
		return -1;
	default:
		return nl_reply_data(msg, mlen, r);
	}
}

/* Walks one datagram of answers; messages of other requests are skipped. */
static int
nl_walk(struct nl_sock *ns, size_t len, struct nl_reply *r)
{
	const struct nlmsghdr *nlh;
	size_t off = 0, mlen;
	int rc;

	while (len - off >= NL_HDRLEN) {
		nlh = (const struct nlmsghdr *)(ns->buf + off);
		mlen = nlh->nlmsg_len;
		if (mlen < NL_HDRLEN || mlen > len - off) {
			errno = EBADMSG;
			return -1;
		}
		if (nlh->nlmsg_seq == r->seq && nlh->nlmsg_pid == ns->portid) {
			rc = nl_reply_one(ns, ns->buf + off, mlen, r);
			if (rc != NL_MORE)
				return rc;
		}
		if (MNL_ALIGN(mlen) >= len - off)
			return NL_MORE;
		off += MNL_ALIGN(mlen);
	}
	if (off == len)
		return NL_MORE;
	errno = EBADMSG;
	return -1;
}

/* Sends req (NLM_F_ACK added) and reads until its answer is complete. */
static int
nl_transact(struct nl_sock *ns, struct nlmsghdr *req,
    struct nl_reply *r)
{
	ssize_t n;
	int rc;

	ns->errmsg[0] = '\0';
	if (++ns->seq == 0)
		ns->seq = 1;
	req->nlmsg_seq = ns->seq;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	r->seq = ns->seq;
	n = mnl_socket_sendto(ns->mnl, req, req->nlmsg_len);
	if (n < 0)
		return -1;
	if ((size_t)n != req->nlmsg_len) {
		errno = EIO;
		return -1;
	}
	for (;;) {
		n = nl_recv(ns);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				errno = ETIMEDOUT;
			if (errno == EINTR)
				continue;
			return -1;
		}
		if ((rc = nl_walk(ns, (size_t)n, r)) != NL_MORE)
			return rc;
	}
}

/* A cleared request of this type and flags in buf (NL_REQ_SIZE bytes). */
static struct nlmsghdr *
nl_req_start(uint8_t *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, NL_REQ_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	return nlh;
}

/* Starts an RTM_*LINK request for ifindex in buf (NL_REQ_SIZE bytes). */
static struct nlmsghdr *
nl_link_req(uint8_t *buf, uint16_t type,
    uint16_t flags, int ifindex)
{
	struct nlmsghdr *nlh = nl_req_start(buf, type, flags);
	struct ifinfomsg *ifm;

	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = ifindex;
	return nlh;
}

static int
nl_simple(struct nl_sock *ns, struct nlmsghdr *req)
{
	struct nl_reply r;

	memset(&r, 0, sizeof(r));
	return nl_transact(ns, req, &r);
}

int
nl_link_set_up(struct nl_sock *ns, int ifindex, bool up)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	if (ifindex <= 0) {
		errno = EINVAL;
		return -1;
	}
	nlh = nl_link_req(buf, RTM_NEWLINK, 0, ifindex);
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_change = IFF_UP;
	ifm->ifi_flags = up ? IFF_UP : 0;
	return nl_simple(ns, nlh);
}

int
nl_link_set_mtu(struct nl_sock *ns, int ifindex, uint32_t mtu)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;

	if (ifindex <= 0) {
		errno = EINVAL;
		return -1;
	}
	nlh = nl_link_req(buf, RTM_NEWLINK, 0, ifindex);
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	return nl_simple(ns, nlh);
}

int
nl_link_set_mac(struct nl_sock *ns, int ifindex,
    const uint8_t mac[static NL_MAC_LEN])
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;

	if (ifindex <= 0) {
		errno = EINVAL;
		return -1;
	}
	nlh = nl_link_req(buf, RTM_NEWLINK, 0, ifindex);
	mnl_attr_put(nlh, IFLA_ADDRESS, NL_MAC_LEN, mac);
	return nl_simple(ns, nlh);
}

static int
nl_get(struct nl_sock *ns, struct nlmsghdr *req,
    struct nl_link *out)
{
	struct nl_reply r;

	memset(&r, 0, sizeof(r));
	r.one = out;
	mnl_attr_put_u32(req, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	if (nl_transact(ns, req, &r) != 0) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

int
nl_link_get_by_index(struct nl_sock *ns, int ifindex, struct nl_link *out)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];

	if (ifindex <= 0) {
		memset(out, 0, sizeof(*out));
		errno = EINVAL;
		return -1;
	}
	if (nl_get(ns, nl_link_req(buf, RTM_GETLINK, 0, ifindex), out) != 0)
		return -1;
	if (out->ifindex != ifindex || out->event != NL_LINK_NEW) {
		memset(out, 0, sizeof(*out));
		errno = EPROTO;
		return -1;
	}
	return 0;
}

int
nl_link_get_by_name(struct nl_sock *ns, const char *name,
    struct nl_link *out)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;

	if (name == NULL || !nl_ifname_valid(name)) {
		memset(out, 0, sizeof(*out));
		errno = EINVAL;
		return -1;
	}
	nlh = nl_link_req(buf, RTM_GETLINK, 0, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (nl_get(ns, nlh, out) != 0)
		return -1;
	if (strcmp(out->name, name) != 0 || out->event != NL_LINK_NEW) {
		memset(out, 0, sizeof(*out));
		errno = EPROTO;
		return -1;
	}
	return 0;
}

int
nl_link_dump(struct nl_sock *ns, nl_link_cb cb, void *arg)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct nl_reply r;

	memset(&r, 0, sizeof(r));
	r.dump = true;
	r.cb = cb;
	r.arg = arg;
	nlh = nl_link_req(buf, RTM_GETLINK, NLM_F_DUMP, 0);
	mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	if (nl_transact(ns, nlh, &r) != 0)
		return -1;
	return r.count;
}

int
nl_veth_create(struct nl_sock *ns, const char *name, const char *peer)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *info, *data, *pinfo;

	if (name == NULL || peer == NULL || !nl_ifname_valid(name) ||
	    !nl_ifname_valid(peer)) {
		errno = EINVAL;
		return -1;
	}
	nlh = nl_link_req(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	pinfo = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	/* The peer's attributes follow its own (zeroed) struct ifinfomsg. */
	(void)mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	mnl_attr_nest_end(nlh, pinfo);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return nl_simple(ns, nlh);
}

int
nl_link_delete(struct nl_sock *ns, int ifindex)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];

	if (ifindex <= 0) {
		errno = EINVAL;
		return -1;
	}
	return nl_simple(ns, nl_link_req(buf, RTM_DELLINK, 0, ifindex));
}

/* ---- tc ----------------------------------------------------------------- */

/* Starts an RTM_*QDISC / RTM_*TFILTER request on ifindex's clsact. */
static struct nlmsghdr *
nl_tc_req(uint8_t *buf, uint16_t type,
    uint16_t flags, int ifindex, uint32_t parent, uint32_t handle,
    uint32_t info)
{
	struct nlmsghdr *nlh = nl_req_start(buf, type, flags);
	struct tcmsg *tcm;

	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = parent;
	tcm->tcm_handle = handle;
	tcm->tcm_info = info;
	return nlh;
}

int
nl_tc_bpf_attach(struct nl_sock *ns, int ifindex, int prog_fd,
    const char *name, uint16_t prio, uint16_t ethertype)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *opt;

	if (ifindex <= 0 || prog_fd < 0 || prio == 0 || name == NULL ||
	    strlen(name) >= 64) {
		errno = EINVAL;
		return -1;
	}
	/* The clsact qdisc: ours, or one that was there (kept as it is). */
	nlh = nl_tc_req(buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
	    ifindex, TC_H_CLSACT, TC_H_MAKE(TC_H_CLSACT, 0), 0);
	mnl_attr_put_strz(nlh, TCA_KIND, "clsact");
	if (nl_simple(ns, nlh) != 0 && errno != EEXIST)
		return -1;
	/* The filter at its preference, replacing one left there. */
	nlh = nl_tc_req(buf, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_REPLACE,
	    ifindex, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS), 1,
	    TC_H_MAKE((uint32_t)prio << 16, htons(ethertype)));
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	opt = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u32(nlh, TCA_BPF_FD, (uint32_t)prog_fd);
	mnl_attr_put_strz(nlh, TCA_BPF_NAME, name);
	mnl_attr_put_u32(nlh, TCA_BPF_FLAGS, TCA_BPF_FLAG_ACT_DIRECT);
	mnl_attr_nest_end(nlh, opt);
	return nl_simple(ns, nlh);
}

int
nl_tc_bpf_detach(struct nl_sock *ns, int ifindex, uint16_t prio)
{
	_Alignas(NLMSG_ALIGNTO) uint8_t buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;

	/* Preference 0 would mean every filter there. */
	if (ifindex <= 0 || prio == 0) {
		errno = EINVAL;
		return -1;
	}
	nlh = nl_tc_req(buf, RTM_DELTFILTER, 0, ifindex,
	    TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS), 0, (uint32_t)prio << 16);
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	return nl_simple(ns, nlh);
}

/* ---- events ------------------------------------------------------------ */

int
nl_events_recv(struct nl_sock *ev, nl_link_cb cb, void *arg)
{
	ssize_t n;
	int total = 0, rc, i;

	for (i = 0; i < NL_EVENTS_BATCH; i++) {
		n = nl_recv(ev);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return total;
			if (errno == EMSGSIZE)
				errno = ENOBUFS;	/* a lost event all the same */
			return -1;
		}
		if (n == 0)
			continue;
		rc = nl_events_parse(ev->buf, (size_t)n, cb, arg);
		if (rc < 0)
			return -1;
		total += rc;
	}
	return total;
}

int
nl_events_resync(struct nl_sock *ev, struct nl_sock *req, nl_link_cb cb,
    void *arg)
{
	int i;

	/* What is queued predates the dump that follows: drop it. */
	for (i = 0; i < NL_DRAIN_MAX; i++) {
		if (nl_recv(ev) >= 0)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		if (errno != ENOBUFS && errno != EMSGSIZE && errno != EINTR)
			return -1;
	}
	return nl_link_dump(req, cb, arg);
}

/* ---- MTU policy -------------------------------------------------------- */

uint32_t
nl_mtu_for_tap(const uint32_t *mesh_mtu, size_t n,
    uint32_t inner_mtu)
{
	uint64_t need = (uint64_t)inner_mtu + BATSEC_DATA_OVERHEAD;
	uint32_t low = UINT32_MAX;
	size_t i;

	for (i = 0; i < n; i++)
		if (mesh_mtu[i] < low)
			low = mesh_mtu[i];
	if (n == 0 || low >= need)
		return inner_mtu;
	if (low < BATSEC_FRAG_MTU_MIN)
		return 0;
	return inner_mtu < BATSEC_INNER_MTU ? inner_mtu : BATSEC_INNER_MTU;
}

/* Errors by which a device says "not this MTU" rather than "broken". */
static bool
nl_mtu_refused(int err)
{
	return err == EINVAL || err == ERANGE || err == EPERM ||
	    err == EOPNOTSUPP || err == EBUSY;
}

/* Raises one mesh interface to need if it is below; its MTU after. */
static int
nl_mtu_raise(struct nl_sock *ns, int ifindex, uint32_t need,
    uint32_t *mtu)
{
	struct nl_link link;

	if (nl_link_get_by_index(ns, ifindex, &link) != 0)
		return -1;
	*mtu = link.mtu;
	if (link.mtu >= need)
		return 0;
	if (nl_link_set_mtu(ns, ifindex, need) == 0)
		*mtu = need;
	else if (!nl_mtu_refused(errno))
		return -1;
	return 0;
}

int
nl_mtu_apply(struct nl_sock *ns, const int *mesh_ifindex, size_t n,
    uint32_t inner_mtu, int tap_ifindex, uint32_t *mesh_mtu,
    uint32_t *tap_mtu)
{
	uint32_t need, mtu, low = UINT32_MAX, tap;
	size_t i;

	*tap_mtu = 0;
	if (inner_mtu < NL_MTU_MIN || inner_mtu > 65535) {
		errno = EINVAL;
		return -1;
	}
	need = inner_mtu + BATSEC_DATA_OVERHEAD;
	for (i = 0; i < n; i++) {
		if (nl_mtu_raise(ns, mesh_ifindex[i], need, &mtu) != 0)
			return -1;
		if (mesh_mtu != NULL)
			mesh_mtu[i] = mtu;
		if (mtu < low)
			low = mtu;
	}
	tap = nl_mtu_for_tap(&low, n > 0 ? 1 : 0, inner_mtu);
	if (tap == 0) {
		errno = ERANGE;
		return -1;
	}
	if (tap_ifindex > 0 && nl_link_set_mtu(ns, tap_ifindex, tap) != 0)
		return -1;
	*tap_mtu = tap;
	return 0;
}
