/*
 * check_netio.c — the forwarder's network I/O: TAP (tap.c), rtnetlink
 * (netlink.c) and AF_PACKET sockets (rawsock.c).
 *
 * Runs as root.  Every test runs in its own forked child (Check's default)
 * that first calls unshare(CLONE_NEWNET): it works in a private network
 * namespace with its own veth pairs and TAPs, and nothing touches the
 * host.  Waits are polls with generous deadlines, never fixed sleeps.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <net/if.h>
#include <net/if_arp.h>
#include <libmnl/libmnl.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <linux/rtnetlink.h>

#include "netio/netlink.h"
#include "netio/rawsock.h"
#include "netio/tap.h"
#include "lib/t_check.h"

#define DEADLINE_MS	15000	/* generous: slow 2-core machines */
#define FRAME_BUF	2048

static struct nl_sock *nl;
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* ---- fixture and helpers ------------------------------------------------ */

static void
netns_setup(void)
{
	int fd;

	ck_assert_msg(unshare(CLONE_NEWNET) == 0,
	    "unshare(CLONE_NEWNET): %s (these tests run as root)",
	    strerror(errno));
	/*
	 * No IPv6 on new interfaces: no router solicitations or MLD reports
	 * on the TAP while a test reads it.  Best effort (IPv6 may be absent).
	 */
	fd = open("/proc/sys/net/ipv6/conf/default/disable_ipv6", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, "1\n", 2);
		close(fd);
	}
	nl = nl_open();
	ck_assert_msg(nl != NULL, "nl_open: %s", strerror(errno));
}

static void
netns_teardown(void)
{
	nl_close(nl);
	nl = NULL;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits up to ms for fd to become readable; true if it did. */
static bool
readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static int
ifindex_of(const char *name)
{
	struct nl_link l;

	ck_assert_msg(nl_link_get_by_name(nl, name, &l) == 0,
	    "get %s: %s", name, strerror(errno));
	return l.ifindex;
}

/* Creates the veth pair a <-> b and brings both ends up. */
static void
veth_up(const char *a, const char *b, int *ia, int *ib)
{
	ck_assert_msg(nl_veth_create(nl, a, b) == 0, "veth %s/%s: %s (%s)",
	    a, b, strerror(errno), nl_errmsg(nl));
	*ia = ifindex_of(a);
	*ib = ifindex_of(b);
	ck_assert_int_eq(nl_link_set_up(nl, *ia, true), 0);
	ck_assert_int_eq(nl_link_set_up(nl, *ib, true), 0);
}

static bool
is_probe(const struct rawsock_frame *f)
{
	return f->len >= 5 && memcmp(f->payload, "probe", 5) == 0;
}

/*
 * Receives the next frame that is not a readiness probe: 1, or 0 when
 * none came before the deadline, or -1 with errno from rawsock_recv().
 */
static int
recv_next(struct rawsock *rs, uint8_t *buf, size_t len,
    struct rawsock_frame *f)
{
	int64_t end = now_ms() + DEADLINE_MS;
	int rc;

	while (now_ms() < end) {
		if (!readable(rs->fd, 200))
			continue;
		rc = rawsock_recv(rs, buf, len, f);
		if (rc == 1 && is_probe(f))
			continue;
		if (rc == 1 || (rc < 0 && errno != EAGAIN))
			return rc;
	}
	return 0;
}

/*
 * Sends probes from a to b until one arrives: veth ends start forwarding
 * a moment after they are set up.  Later probes are skipped by recv_next.
 */
static void
link_ready(struct rawsock *a, struct rawsock *b)
{
	int64_t end = now_ms() + DEADLINE_MS;
	uint8_t buf[FRAME_BUF];
	struct rawsock_frame f;

	while (now_ms() < end) {
		(void)rawsock_send(a, b->mac, "probe", 5);
		if (!readable(b->fd, 100))
			continue;
		while (rawsock_recv(b, buf, sizeof(buf), &f) >= 0)
			if (is_probe(&f))
				return;
	}
	ck_abort_msg("no probe crossed the veth pair");
}

/* A pair of veth ends with a batsec socket on each, ready to carry. */
struct pair {
	int		ia, ib;
	struct rawsock	a, b;
};

static void
pair_open(struct pair *p)
{
	veth_up("va", "vb", &p->ia, &p->ib);
	ck_assert_int_eq(rawsock_open(&p->a, p->ia, RAWSOCK_ETHERTYPE), 0);
	ck_assert_int_eq(rawsock_open(&p->b, p->ib, RAWSOCK_ETHERTYPE), 0);
	link_ready(&p->a, &p->b);
	link_ready(&p->b, &p->a);
}

static void
assert_fd_flags(int fd)
{
	ck_assert(fcntl(fd, F_GETFL) & O_NONBLOCK);
	ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
}

/* ---- link message parser: messages built here with libmnl -------------- */

static _Alignas(8) uint8_t mbuf[1024];

static struct nlmsghdr *
lm_start(uint16_t type, uint8_t family, int index,
    uint16_t hwtype)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	memset(mbuf, 0, sizeof(mbuf));
	nlh = mnl_nlmsg_put_header(mbuf);
	nlh->nlmsg_type = type;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = family;
	ifm->ifi_index = index;
	ifm->ifi_type = hwtype;
	ifm->ifi_flags = IFF_UP | IFF_RUNNING;
	return nlh;
}

static const uint8_t mac1[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

/* A complete valid message; the cases below change one thing each. */
static struct nlmsghdr *
lm_valid(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "mesh0");
	mnl_attr_put(nlh, IFLA_ADDRESS, 6, mac1);
	mnl_attr_put_u32(nlh, IFLA_MTU, 1630);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, NL_OPER_UP);
	return nlh;
}

/* Appends raw bytes after the last attribute, inside nlmsg_len. */
static void
lm_raw(struct nlmsghdr *nlh, const void *p, size_t n)
{
	memcpy(mbuf + nlh->nlmsg_len, p, n);
	nlh->nlmsg_len += n;
}

static struct nlmsghdr *
lm_base(uint16_t hwtype)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, hwtype);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "mesh0");
	return nlh;
}

static struct nlmsghdr *
c_valid(void) { return lm_valid(); }

static struct nlmsghdr *
c_unknown_attrs(void)
{
	struct nlmsghdr *nlh = lm_valid();
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, 250, 1);		/* beyond IFLA_MAX */
	nest = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_put(nlh, IFLA_BROADCAST, 6, bcast);
	return nlh;
}

static struct nlmsghdr *
c_dellink(void)
{
	struct nlmsghdr *nlh = lm_valid();

	nlh->nlmsg_type = RTM_DELLINK;
	return nlh;
}

static struct nlmsghdr *
c_bridge(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_DELLINK, AF_BRIDGE, 7, ARPHRD_ETHER);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "mesh0");
	return nlh;
}

static struct nlmsghdr *
c_newaddr(void)
{
	struct nlmsghdr *nlh = lm_valid();

	nlh->nlmsg_type = RTM_NEWADDR;
	return nlh;
}

static struct nlmsghdr *
c_nonether_addr(void)
{
	struct nlmsghdr *nlh = lm_base(ARPHRD_NONE);

	mnl_attr_put(nlh, IFLA_ADDRESS, 4, mac1);	/* like an IPIP tunnel */
	return nlh;
}

static struct nlmsghdr *
c_short_payload(void)
{
	struct nlmsghdr *nlh = lm_valid();

	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + sizeof(struct ifinfomsg) - 4;
	return nlh;
}

static struct nlmsghdr *
c_index0(void)
{
	struct nlmsghdr *nlh = lm_valid();

	((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_index = 0;
	return nlh;
}

static struct nlmsghdr *
c_no_name(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	return nlh;
}

static struct nlmsghdr *
c_name_unterminated(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put(nlh, IFLA_IFNAME, 5, "mesh0");
	return nlh;
}

static struct nlmsghdr *
c_name_long(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "abcdefghijklmnop");	/* 16 */
	return nlh;
}

static struct nlmsghdr *
c_name_empty(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "");
	return nlh;
}

static struct nlmsghdr *
c_name_inner_nul(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put(nlh, IFLA_IFNAME, 6, "ab\0cd");
	return nlh;
}

static struct nlmsghdr *
c_name_slash(void)
{
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "../x");
	return nlh;
}

static struct nlmsghdr *
c_addr5(void)
{
	struct nlmsghdr *nlh = lm_base(ARPHRD_ETHER);

	mnl_attr_put(nlh, IFLA_ADDRESS, 5, mac1);
	return nlh;
}

static struct nlmsghdr *
c_addr7(void)
{
	static const uint8_t seven[7] = { 2, 0, 0, 0, 0, 1, 9 };
	struct nlmsghdr *nlh = lm_base(ARPHRD_ETHER);

	mnl_attr_put(nlh, IFLA_ADDRESS, 7, seven);
	return nlh;
}

static struct nlmsghdr *
c_mtu2(void)
{
	struct nlmsghdr *nlh = lm_base(ARPHRD_ETHER);

	mnl_attr_put_u16(nlh, IFLA_MTU, 1500);
	return nlh;
}

static struct nlmsghdr *
c_mtu8(void)
{
	struct nlmsghdr *nlh = lm_base(ARPHRD_ETHER);

	mnl_attr_put_u64(nlh, IFLA_MTU, 1500);
	return nlh;
}

static struct nlmsghdr *
c_maxmtu2(void)
{
	struct nlmsghdr *nlh = lm_base(ARPHRD_ETHER);

	mnl_attr_put_u16(nlh, IFLA_MAX_MTU, 1500);
	return nlh;
}

static struct nlmsghdr *
c_operstate4(void)
{
	struct nlmsghdr *nlh = lm_base(ARPHRD_ETHER);

	mnl_attr_put_u32(nlh, IFLA_OPERSTATE, NL_OPER_UP);
	return nlh;
}

static struct nlmsghdr *
c_dup_mtu(void)
{
	struct nlmsghdr *nlh = lm_valid();

	mnl_attr_put_u32(nlh, IFLA_MTU, 9000);
	return nlh;
}

static struct nlmsghdr *
c_dup_name(void)
{
	struct nlmsghdr *nlh = lm_valid();

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "other0");
	return nlh;
}

static struct nlmsghdr *
c_cut_attr(void)
{
	/* An attribute header claiming 8 bytes, of which 4 are present. */
	static const uint8_t cut[4] = { 8, 0, IFLA_MTU, 0 };
	struct nlmsghdr *nlh = lm_valid();

	lm_raw(nlh, cut, sizeof(cut));
	return nlh;
}

static struct nlmsghdr *
c_tiny_attr(void)
{
	static const uint8_t tiny[4] = { 2, 0, IFLA_MTU, 0 };
	struct nlmsghdr *nlh = lm_valid();

	lm_raw(nlh, tiny, sizeof(tiny));
	return nlh;
}

static struct nlmsghdr *
c_residue(void)
{
	static const uint8_t two[2] = { 0, 0 };
	struct nlmsghdr *nlh = lm_valid();

	lm_raw(nlh, two, sizeof(two));
	return nlh;
}

static struct nlmsghdr *
c_unpadded_last(void)
{
	/* A last attribute without its padding is still whole. */
	struct nlmsghdr *nlh = lm_start(RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, "mesh0");	/* 4 + 6, padded */
	nlh->nlmsg_len -= 2;
	return nlh;
}

static struct nlmsghdr *
c_pads32(void)
{
	/* A 32-bit MIPS or ARM kernel: an empty IFLA_PAD before each 64-bit
	 * attribute, so IFLA_PAD comes several times. */
	static const uint8_t stats64[24 * 8];
	struct nlmsghdr *nlh = lm_valid();

	mnl_attr_put(nlh, IFLA_PAD, 0, NULL);
	mnl_attr_put(nlh, IFLA_STATS64, sizeof(stats64), stats64);
	mnl_attr_put(nlh, IFLA_PAD, 0, NULL);
	mnl_attr_put_u32(nlh, IFLA_GROUP, 0);
	return nlh;
}

static const struct parse_case {
	const char		*what;
	struct nlmsghdr		*(*build)(void);
	int			 rc;		/* nl_link_parse() result */
} parse_cases[] = {
	{ "valid",			c_valid,		0 },
	{ "unknown attributes skipped",	c_unknown_attrs,	0 },
	{ "RTM_DELLINK",		c_dellink,		0 },
	{ "AF_BRIDGE ignored",		c_bridge,		1 },
	{ "RTM_NEWADDR ignored",	c_newaddr,		1 },
	{ "4-byte address, not Ethernet", c_nonether_addr,	0 },
	{ "unpadded last attribute",	c_unpadded_last,	0 },
	{ "IFLA_PAD twice (32-bit kernel)", c_pads32,		0 },
	{ "payload shorter than ifinfomsg", c_short_payload,	-1 },
	{ "ifindex 0",			c_index0,		-1 },
	{ "no IFLA_IFNAME",		c_no_name,		-1 },
	{ "name without NUL",		c_name_unterminated,	-1 },
	{ "name of IFNAMSIZ bytes",	c_name_long,		-1 },
	{ "empty name",			c_name_empty,		-1 },
	{ "NUL inside the name",	c_name_inner_nul,	-1 },
	{ "name with '/'",		c_name_slash,		-1 },
	{ "Ethernet address of 5",	c_addr5,		-1 },
	{ "Ethernet address of 7",	c_addr7,		-1 },
	{ "IFLA_MTU of 2 bytes",	c_mtu2,			-1 },
	{ "IFLA_MTU of 8 bytes",	c_mtu8,			-1 },
	{ "IFLA_MAX_MTU of 2 bytes",	c_maxmtu2,		-1 },
	{ "IFLA_OPERSTATE of 4 bytes",	c_operstate4,		-1 },
	{ "IFLA_MTU twice",		c_dup_mtu,		-1 },
	{ "IFLA_IFNAME twice",		c_dup_name,		-1 },
	{ "cut attribute at the end",	c_cut_attr,		-1 },
	{ "attribute length below 4",	c_tiny_attr,		-1 },
	{ "two bytes of residue",	c_residue,		-1 },
};
#define N_PARSE_CASES (int)(sizeof(parse_cases) / sizeof(parse_cases[0]))

START_TEST(test_parse_table)
{
	const struct parse_case *c = &parse_cases[_i];
	struct nlmsghdr *nlh = c->build();
	struct nl_link l;
	uint8_t *copy;
	int rc;

	/* An exactly sized heap copy, so a sanitizer sees any over-read. */
	copy = malloc(nlh->nlmsg_len);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, nlh, nlh->nlmsg_len);
	errno = 0;
	rc = nl_link_parse(copy, nlh->nlmsg_len, &l);
	ck_assert_msg(rc == c->rc, "%s: got %d, want %d", c->what, rc, c->rc);
	if (rc < 0)
		ck_assert_int_eq(errno, EBADMSG);
	if (rc != 0)
		ck_assert_int_eq(l.ifindex, 0);	/* zeroed on refusal */
	else
		ck_assert_int_eq(l.ifindex, 7);
	free(copy);
}
END_TEST

START_TEST(test_parse_fields)
{
	struct nlmsghdr *nlh = lm_valid();
	struct nl_link l;

	mnl_attr_put_u32(nlh, IFLA_MIN_MTU, 68);
	mnl_attr_put_u32(nlh, IFLA_MAX_MTU, 65535);
	ck_assert_int_eq(nl_link_parse(nlh, nlh->nlmsg_len, &l), 0);
	ck_assert_int_eq(l.event, NL_LINK_NEW);
	ck_assert_int_eq(l.ifindex, 7);
	ck_assert_str_eq(l.name, "mesh0");
	ck_assert(l.has_mac);
	ck_assert_mem_eq(l.mac, mac1, 6);
	ck_assert_uint_eq(l.mtu, 1630);
	ck_assert_uint_eq(l.min_mtu, 68);
	ck_assert_uint_eq(l.max_mtu, 65535);
	ck_assert_uint_eq(l.operstate, NL_OPER_UP);
	ck_assert_uint_eq(l.type, ARPHRD_ETHER);
	ck_assert(nl_link_running(&l));
	l.flags &= ~(unsigned int)IFF_UP;
	ck_assert(!nl_link_running(&l));
}
END_TEST

START_TEST(test_parse_framing)
{
	struct nlmsghdr *nlh = lm_valid();
	uint32_t len = nlh->nlmsg_len;
	struct nl_link l;

	/* len must be exactly nlmsg_len, and at least a header. */
	ck_assert_int_eq(nl_link_parse(mbuf, len + 4, &l), -1);
	ck_assert_int_eq(errno, EBADMSG);
	ck_assert_int_eq(nl_link_parse(mbuf, len - 4, &l), -1);
	ck_assert_int_eq(nl_link_parse(mbuf, 8, &l), -1);
	ck_assert_int_eq(nl_link_parse(mbuf, 0, &l), -1);
	/* A misaligned buffer is refused, not read. */
	memmove(mbuf + 1, mbuf, len);
	ck_assert_int_eq(nl_link_parse(mbuf + 1, len, &l), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static void
count_cb(const struct nl_link *l, void *arg)
{
	int *n = arg;

	ck_assert_str_eq(l->name, "mesh0");
	(*n)++;
}

START_TEST(test_events_parse)
{
	_Alignas(8) uint8_t dg[2048];
	struct nlmsghdr *nlh;
	size_t len = 0;
	int n = 0;

	/* A datagram: NEWLINK, a bridge message, DELLINK, NLMSG_DONE. */
	nlh = lm_valid();
	memcpy(dg + len, nlh, nlh->nlmsg_len);
	len += MNL_ALIGN(nlh->nlmsg_len);
	nlh = c_bridge();
	memcpy(dg + len, nlh, nlh->nlmsg_len);
	len += MNL_ALIGN(nlh->nlmsg_len);
	nlh = c_dellink();
	memcpy(dg + len, nlh, nlh->nlmsg_len);
	len += MNL_ALIGN(nlh->nlmsg_len);
	nlh = mnl_nlmsg_put_header(dg + len);
	nlh->nlmsg_type = NLMSG_DONE;
	len += nlh->nlmsg_len;
	ck_assert_int_eq(nl_events_parse(dg, len, count_cb, &n), 2);
	ck_assert_int_eq(n, 2);

	/* Residue shorter than a header; a length past the end; 0. */
	n = 0;
	ck_assert_int_eq(nl_events_parse(dg, len + 3, count_cb, &n), -1);
	ck_assert_int_eq(errno, EBADMSG);
	nlh->nlmsg_len = 64;
	ck_assert_int_eq(nl_events_parse(dg, len, count_cb, &n), -1);
	nlh->nlmsg_len = 0;
	ck_assert_int_eq(nl_events_parse(dg, len, count_cb, &n), -1);
	/* A malformed link message stops the walk with EBADMSG. */
	nlh = c_addr5();
	memcpy(dg, nlh, nlh->nlmsg_len);
	ck_assert_int_eq(nl_events_parse(dg, nlh->nlmsg_len, count_cb, &n), -1);
	ck_assert_int_eq(errno, EBADMSG);
	ck_assert_int_eq(nl_events_parse(dg, 0, count_cb, &n), 0);
}
END_TEST

static const struct name_case {
	const char	*name;
	bool		 ok;
} name_cases[] = {
	{ "batsec0", true },
	{ "a", true },
	{ "abcdefghijklmno", true },		/* 15 bytes: the longest */
	{ "", false },
	{ "abcdefghijklmnop", false },		/* 16 = IFNAMSIZ */
	{ "abcdefghijklmnopqrstuvwxyz0123456789", false },
	{ ".", false },
	{ "..", false },
	{ "a/b", false },
	{ "a:b", false },
	{ "a b", false },
	{ "a\tb", false },
	{ "tap%d", false },
};
#define N_NAME_CASES (int)(sizeof(name_cases) / sizeof(name_cases[0]))

START_TEST(test_ifname_valid)
{
	const struct name_case *c = &name_cases[_i];

	ck_assert_msg(nl_ifname_valid(c->name) == c->ok, "'%s'", c->name);
}
END_TEST

START_TEST(test_ifname_unterminated)
{
	char raw[IFNAMSIZ];

	/* An array of IFNAMSIZ letters with no NUL is read only in bounds. */
	memset(raw, 'a', sizeof(raw));
	ck_assert(!nl_ifname_valid(raw));
}
END_TEST

/* ---- MTU policy (pure) ---------------------------------------------------- */

static const struct mtu_case {
	uint32_t	mesh[3];
	size_t		n;
	uint32_t	inner, tap;
} mtu_cases[] = {
	{ { 1630, 1630 }, 2, 1500, 1500 },	/* raised: full frames */
	{ { 9000 }, 1, 1500, 1500 },		/* never more than inner */
	{ { 1500 }, 1, 1500, 1500 },		/* could not raise: FRAG */
	{ { 1630, 1280, 1500 }, 3, 1500, 1500 },	/* a VPN link: FRAG */
	{ { 0 }, 0, 1500, 1500 },		/* no mesh interface yet */
	{ { 142 }, 1, 1500, 1500 },	/* the least FRAG can use */
	{ { 141 }, 1, 1500, 0 },	/* 16 pieces are not enough */
	{ { 1630, 141 }, 2, 1500, 0 },
	{ { 1280 + 130 }, 1, 9000, 1500 },	/* FRAG: 1500 at most */
	{ { 1280 }, 1, 1400, 1400 },
};
#define N_MTU_CASES (int)(sizeof(mtu_cases) / sizeof(mtu_cases[0]))

START_TEST(test_mtu_for_tap)
{
	const struct mtu_case *c = &mtu_cases[_i];

	ck_assert_uint_eq(nl_mtu_for_tap(c->mesh, c->n, c->inner), c->tap);
}
END_TEST

/* ---- netlink requests (namespace) ------------------------------------------ */

START_TEST(test_veth_up_down)
{
	struct nl_link l;
	int ia, ib;
	int64_t end;

	veth_up("va", "vb", &ia, &ib);
	ck_assert_int_ne(ia, ib);
	ck_assert_int_eq(nl_link_get_by_index(nl, ia, &l), 0);
	ck_assert_str_eq(l.name, "va");
	ck_assert_uint_eq(l.type, ARPHRD_ETHER);
	ck_assert(l.has_mac);
	ck_assert_uint_eq(l.mtu, 1500);
	ck_assert(l.flags & IFF_UP);
	/* Both ends up: operationally up once the kernel has noticed. */
	end = now_ms() + DEADLINE_MS;
	while (!nl_link_running(&l) && now_ms() < end) {
		(void)readable(-1, 50);
		ck_assert_int_eq(nl_link_get_by_index(nl, ia, &l), 0);
	}
	ck_assert(nl_link_running(&l));
	ck_assert_uint_eq(l.operstate, NL_OPER_UP);
	ck_assert_int_eq(nl_link_set_up(nl, ia, false), 0);
	ck_assert_int_eq(nl_link_get_by_index(nl, ia, &l), 0);
	ck_assert(!(l.flags & IFF_UP));
	ck_assert(!nl_link_running(&l));
}
END_TEST

START_TEST(test_mtu_mac)
{
	static const uint8_t mac[6] = { 0x02, 0xba, 0x75, 0xec, 0x00, 0x01 };
	struct nl_link a, b;
	int ia, ib;

	veth_up("va", "vb", &ia, &ib);
	ck_assert_int_eq(nl_link_set_mtu(nl, ia, 1400), 0);
	ck_assert_int_eq(nl_link_set_mac(nl, ia, mac), 0);
	ck_assert_int_eq(nl_link_get_by_name(nl, "va", &a), 0);
	ck_assert_int_eq(nl_link_get_by_index(nl, ia, &b), 0);
	ck_assert_uint_eq(a.mtu, 1400);
	ck_assert_mem_eq(a.mac, mac, 6);
	ck_assert_int_eq(a.ifindex, ia);
	ck_assert(memcmp(&a, &b, sizeof(a)) == 0);
	ck_assert_uint_gt(a.max_mtu, 1630);
	/* The kernel's refusal comes back as errno and a message. */
	ck_assert_int_eq(nl_link_set_mtu(nl, ia, 10), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(nl_errmsg(nl)[0] != '\0', "no extended ACK text");
	ck_assert_int_eq(nl_link_set_mac(nl, ia, bcast), -1);
	ck_assert_int_eq(nl_link_set_mtu(nl, ia, 1401), 0);
	ck_assert_str_eq(nl_errmsg(nl), "");
}
END_TEST

START_TEST(test_request_errors)
{
	struct nl_link l;
	int ia, ib;

	ck_assert_int_eq(nl_link_get_by_name(nl, "nosuch0", &l), -1);
	ck_assert_int_eq(errno, ENODEV);
	ck_assert_int_eq(nl_link_get_by_index(nl, 4242, &l), -1);
	ck_assert_int_eq(errno, ENODEV);
	ck_assert_int_eq(nl_link_set_up(nl, 4242, true), -1);
	ck_assert_int_eq(errno, ENODEV);
	ck_assert_int_eq(nl_link_get_by_name(nl, "a/b", &l), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(nl_link_get_by_name(nl, "abcdefghijklmnop", &l), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(nl_link_get_by_index(nl, 0, &l), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(nl_link_set_mtu(nl, -1, 1500), -1);
	ck_assert_int_eq(nl_link_delete(nl, 0), -1);
	ck_assert_int_eq(nl_veth_create(nl, "", "vb"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(nl_veth_create(nl, "va", "abcdefghijklmnop"), -1);
	ck_assert_int_eq(errno, EINVAL);
	veth_up("va", "vb", &ia, &ib);
	ck_assert_int_eq(nl_veth_create(nl, "va", "vc"), -1);
	ck_assert_int_eq(errno, EEXIST);
	/* The socket stays usable after errors. */
	ck_assert_int_eq(nl_link_get_by_name(nl, "vb", &l), 0);
	ck_assert_int_eq(l.ifindex, ib);
}
END_TEST

struct seen {
	int	n;
	char	names[16][IFNAMSIZ];
	int	index[16];
};

static void
seen_cb(const struct nl_link *l, void *arg)
{
	struct seen *s = arg;

	ck_assert_int_eq(l->event, NL_LINK_NEW);
	ck_assert_int_lt(s->n, 16);
	memcpy(s->names[s->n], l->name, IFNAMSIZ);
	s->index[s->n] = l->ifindex;
	s->n++;
}

static int
seen_find(const struct seen *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return s->index[i];
	return 0;
}

START_TEST(test_dump)
{
	struct seen s;
	int ia, ib;

	memset(&s, 0, sizeof(s));
	veth_up("va", "vb", &ia, &ib);
	ck_assert_int_eq(nl_link_dump(nl, seen_cb, &s), 3);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(seen_find(&s, "lo"), 1);
	ck_assert_int_eq(seen_find(&s, "va"), ia);
	ck_assert_int_eq(seen_find(&s, "vb"), ib);
	/* Twice in a row on one socket: nothing of the first stays queued. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(nl_link_dump(nl, seen_cb, &s), 3);
	ck_assert_int_eq(nl_link_delete(nl, ia), 0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(nl_link_dump(nl, seen_cb, &s), 1);
	ck_assert_int_eq(nl_link_get_by_index(nl, ib, &(struct nl_link){0}), -1);
	ck_assert_int_eq(errno, ENODEV);
}
END_TEST

/* ---- MTU policy (namespace) ------------------------------------------------ */

START_TEST(test_mtu_apply_raise)
{
	struct tap tap;
	struct nl_link l;
	uint32_t mesh[2], tap_mtu;
	int idx[2];

	veth_up("va", "vb", &idx[0], &idx[1]);
	ck_assert_int_eq(nl_link_set_mtu(nl, idx[1], 9000), 0);
	ck_assert_int_eq(tap_open(&tap, "bs0"), 0);
	ck_assert_int_eq(nl_mtu_apply(nl, idx, 2, BATSEC_INNER_MTU,
	    tap.ifindex, mesh, &tap_mtu), 0);
	ck_assert_uint_eq(mesh[0], 1630);	/* raised */
	ck_assert_uint_eq(mesh[1], 9000);	/* never lowered */
	ck_assert_uint_eq(tap_mtu, 1500);
	ck_assert_int_eq(nl_link_get_by_index(nl, idx[0], &l), 0);
	ck_assert_uint_eq(l.mtu, 1630);
	ck_assert_int_eq(nl_link_get_by_index(nl, tap.ifindex, &l), 0);
	ck_assert_uint_eq(l.mtu, 1500);
	tap_close(&tap);
}
END_TEST

START_TEST(test_mtu_apply_fallback)
{
	struct tap tap;
	struct nl_link l;
	uint32_t mesh[2], tap_mtu;
	int idx[2];

	/*
	 * Ask for an inner MTU no device can carry whole (65535 + 34 is past
	 * every device's maximum): the raise is refused with EINVAL and the
	 * TAP gets 1500, what FRAG pieces carry (it had the smallest mesh
	 * MTU - 130 before fragmentation).
	 */
	veth_up("va", "vb", &idx[0], &idx[1]);
	ck_assert_int_eq(nl_link_set_mtu(nl, idx[0], 1400), 0);
	ck_assert_int_eq(tap_open(&tap, "bs0"), 0);
	ck_assert_int_eq(nl_mtu_apply(nl, idx, 2, 65535, tap.ifindex, mesh,
	    &tap_mtu), 0);
	ck_assert_uint_eq(mesh[0], 1400);
	ck_assert_uint_eq(mesh[1], 1500);
	ck_assert_uint_eq(tap_mtu, 1500);
	ck_assert_int_eq(nl_link_get_by_index(nl, tap.ifindex, &l), 0);
	ck_assert_uint_eq(l.mtu, 1500);
	/* Too small even for 16 pieces: ERANGE, the TAP left alone. */
	ck_assert_int_eq(nl_link_set_mtu(nl, idx[0], 141), 0);
	ck_assert_int_eq(nl_mtu_apply(nl, idx, 2, 65535, tap.ifindex, NULL,
	    &tap_mtu), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_uint_eq(tap_mtu, 0);
	/* Bad arguments, and an interface that does not exist. */
	ck_assert_int_eq(nl_mtu_apply(nl, idx, 2, 65536, 0, NULL, &tap_mtu),
	    -1);
	ck_assert_int_eq(errno, EINVAL);
	idx[1] = 4242;
	ck_assert_int_eq(nl_mtu_apply(nl, idx, 2, 1500, 0, NULL, &tap_mtu), -1);
	ck_assert_int_eq(errno, ENODEV);
	tap_close(&tap);
}
END_TEST

/* ---- TAP ------------------------------------------------------------------- */

START_TEST(test_tap_create_close)
{
	struct tap tap;
	struct nl_link l;
	uint8_t buf[64];
	int64_t end;

	ck_assert_int_eq(tap_open(&tap, "batsec0"), 0);
	ck_assert_str_eq(tap.name, "batsec0");
	ck_assert_int_gt(tap.ifindex, 0);
	assert_fd_flags(tap.fd);
	ck_assert_int_eq(nl_link_get_by_name(nl, "batsec0", &l), 0);
	ck_assert_int_eq(l.ifindex, tap.ifindex);
	ck_assert_uint_eq(l.type, ARPHRD_ETHER);
	ck_assert_uint_eq(l.mtu, 1500);
	ck_assert(l.has_mac);
	ck_assert(!(l.flags & IFF_UP));
	ck_assert_int_eq(tap_read(&tap, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* Not persistent: closing the descriptor removes the interface. */
	tap_close(&tap);
	ck_assert_int_eq(tap.fd, -1);
	tap_close(&tap);
	end = now_ms() + DEADLINE_MS;
	while (nl_link_get_by_name(nl, "batsec0", &l) == 0 && now_ms() < end)
		(void)readable(-1, 50);
	ck_assert_int_eq(nl_link_get_by_name(nl, "batsec0", &l), -1);
	ck_assert_int_eq(errno, ENODEV);
}
END_TEST

START_TEST(test_tap_bad_name)
{
	const struct name_case *c = &name_cases[_i];
	struct tap tap;

	if (c->ok)
		return;		/* the valid names are used elsewhere */
	errno = 0;
	ck_assert_int_eq(tap_open(&tap, c->name), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tap.fd, -1);
}
END_TEST

START_TEST(test_tap_busy)
{
	struct tap t1, t2;
	int ia, ib;

	ck_assert_int_eq(tap_open(&t1, "bs0"), 0);
	ck_assert_int_eq(tap_open(&t2, "bs0"), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(t2.fd, -1);
	veth_up("va", "vb", &ia, &ib);
	ck_assert_int_eq(tap_open(&t2, "va"), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(tap_open(&t2, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	tap_close(&t1);
}
END_TEST

/* Reads from the TAP until a batsec frame comes; its length, or -1. */
static ssize_t
tap_read_batsec(struct tap *tap, uint8_t *buf, size_t len)
{
	int64_t end = now_ms() + DEADLINE_MS;
	ssize_t n;

	while (now_ms() < end) {
		if (!readable(tap->fd, 200))
			continue;
		n = tap_read(tap, buf, len);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n < 0 || (buf[12] == 0x88 && buf[13] == 0xb5))
			return n;
	}
	errno = ETIMEDOUT;
	return -1;
}

START_TEST(test_tap_io)
{
	static const uint8_t host[6] = { 0x02, 0, 0, 0, 0, 0x99 };
	struct tap tap;
	struct rawsock rs;
	struct rawsock_frame f;
	uint8_t frame[300], buf[TAP_FRAME_MAX];
	ssize_t n;

	ck_assert_int_eq(tap_open(&tap, "bs0"), 0);
	ck_assert_int_eq(nl_link_set_up(nl, tap.ifindex, true), 0);
	ck_assert_int_eq(rawsock_open(&rs, tap.ifindex, RAWSOCK_ETHERTYPE), 0);

	/* Host side -> kernel: what tap_write sends arrives on the interface. */
	memcpy(frame, rs.mac, 6);
	memcpy(frame + 6, host, 6);
	frame[12] = 0x88;
	frame[13] = 0xb5;
	memcpy(frame + 14, "from-host", 9);
	ck_assert_int_eq(tap_write(&tap, frame, 23), 0);
	ck_assert_int_eq(recv_next(&rs, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.src, host, 6);
	ck_assert_uint_eq(f.pkttype, PACKET_HOST);
	ck_assert_uint_eq(f.len, 9);
	ck_assert_mem_eq(f.payload, "from-host", 9);

	/* Interface -> tap_read, whole frame with the Ethernet header. */
	ck_assert_int_eq(rawsock_send(&rs, host, "to-host", 7), 0);
	n = tap_read_batsec(&tap, buf, sizeof(buf));
	ck_assert_int_eq(n, 21);
	ck_assert_mem_eq(buf, host, 6);
	ck_assert_mem_eq(buf + 6, rs.mac, 6);
	ck_assert_mem_eq(buf + 14, "to-host", 7);

	/* A frame longer than the buffer is an error, never a cut frame. */
	memset(frame, 0xab, sizeof(frame));
	ck_assert_int_eq(rawsock_send(&rs, host, frame, 200), 0);
	ck_assert_int_eq(rawsock_send(&rs, host, "after", 5), 0);
	ck_assert_int_eq(tap_read_batsec(&tap, buf, 100), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	n = tap_read_batsec(&tap, buf, sizeof(buf));
	ck_assert_int_eq(n, 19);
	ck_assert_mem_eq(buf + 14, "after", 5);

	/* Bad lengths are refused before the system call. */
	ck_assert_int_eq(tap_write(&tap, frame, 13), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tap_write(&tap, frame, TAP_FRAME_MAX + 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tap_read(&tap, buf, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	rawsock_close(&rs);
	tap_close(&tap);
}
END_TEST

/* ---- AF_PACKET --------------------------------------------------------------- */

START_TEST(test_raw_send_recv)
{
	struct pair p;
	struct nl_link l;
	struct rawsock_frame f;
	uint8_t buf[FRAME_BUF];

	pair_open(&p);
	assert_fd_flags(p.a.fd);
	ck_assert_int_eq(nl_link_get_by_index(nl, p.ia, &l), 0);
	ck_assert_mem_eq(p.a.mac, l.mac, 6);
	ck_assert_int_eq(p.a.ifindex, p.ia);
	ck_assert_uint_eq(p.a.ethertype, 0x88B5);

	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "hello mesh", 10), 0);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.src, p.a.mac, 6);
	ck_assert_mem_eq(f.dst, p.b.mac, 6);
	ck_assert_uint_eq(f.len, 10);
	ck_assert_mem_eq(f.payload, "hello mesh", 10);
	ck_assert_uint_eq(f.pkttype, PACKET_HOST);
	ck_assert_ptr_eq(f.payload, buf + 14);

	ck_assert_int_eq(rawsock_send(&p.a, bcast, "all", 3), 0);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.dst, bcast, 6);
	ck_assert_uint_eq(f.pkttype, PACKET_BROADCAST);

	/* Empty queue; an empty payload is a valid frame too. */
	ck_assert_int_eq(rawsock_recv(&p.b, buf, sizeof(buf), &f), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, NULL, 0), 0);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_uint_eq(f.len, 0);
	ck_assert_uint_ge(p.b.stats.rx_frames, 3);
}
END_TEST

/*
 * Sends a frame the receiver must not accept from sock, then a good one
 * from p->a; the first frame b receives must be the good one.
 */
static void
assert_refused_first(struct pair *p, struct rawsock *sock,
    const uint8_t *dst)
{
	struct rawsock_frame f;
	uint8_t buf[FRAME_BUF];

	ck_assert_int_eq(rawsock_send(sock, dst, "refused", 7), 0);
	ck_assert_int_eq(rawsock_send(&p->a, p->b.mac, "accepted", 8), 0);
	ck_assert_int_eq(recv_next(&p->b, buf, sizeof(buf), &f), 1);
	ck_assert_uint_eq(f.len, 8);
	ck_assert_mem_eq(f.payload, "accepted", 8);
	/* The kernel filter refused it: it never reached rawsock_recv(). */
	ck_assert_uint_eq(p->b.stats.rx_foreign, 0);
}

START_TEST(test_raw_other_ethertype)
{
	struct pair p;
	struct rawsock other;

	pair_open(&p);
	ck_assert_int_eq(rawsock_open(&other, p.ia, 0x88B6), 0);
	assert_refused_first(&p, &other, p.b.mac);
	assert_refused_first(&p, &other, bcast);
	rawsock_close(&other);
}
END_TEST

START_TEST(test_raw_other_host)
{
	static const uint8_t elsewhere[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct pair p;

	/* veth delivers frames for any MAC; the filter keeps only ours. */
	pair_open(&p);
	assert_refused_first(&p, &p.a, elsewhere);
}
END_TEST

/* A frame with the receiver's own source MAC (a replay of its frames). */
START_TEST(test_raw_own_source)
{
	struct rawsock_frame f;
	struct pair p;
	uint8_t amac[6], buf[FRAME_BUF];

	pair_open(&p);
	memcpy(amac, p.a.mac, 6);
	memcpy(p.a.mac, p.b.mac, 6);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "echo", 4), 0);
	ck_assert_int_eq(rawsock_send(&p.a, bcast, "echo", 4), 0);
	memcpy(p.a.mac, amac, 6);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "accepted", 8), 0);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_uint_eq(f.len, 8);
	ck_assert_mem_eq(f.payload, "accepted", 8);
	ck_assert_mem_eq(f.src, amac, 6);
	ck_assert_uint_eq(p.b.stats.rx_own, 2);
}
END_TEST

START_TEST(test_raw_ignore_outgoing)
{
	struct pair p;
	struct rawsock_frame f;
	uint8_t buf[FRAME_BUF];
	int v = 0;
	socklen_t vl = sizeof(v);

	pair_open(&p);
	ck_assert_int_eq(getsockopt(p.a.fd, SOL_PACKET, PACKET_IGNORE_OUTGOING,
	    &v, &vl), 0);
	ck_assert_int_eq(v, 1);
	/* a sends, then b answers: a's first frame must be b's. */
	ck_assert_int_eq(rawsock_send(&p.a, bcast, "mine", 4), 0);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "mine", 4), 0);
	ck_assert_int_eq(rawsock_send(&p.b, p.a.mac, "yours", 5), 0);
	ck_assert_int_eq(recv_next(&p.a, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.src, p.b.mac, 6);
	ck_assert_mem_eq(f.payload, "yours", 5);
}
END_TEST

START_TEST(test_raw_filter_locked)
{
	struct sock_filter all[] = { BPF_STMT(BPF_RET | BPF_K, 0x40000) };
	struct sock_fprog prog = { .len = 1, .filter = all };
	struct pair p;
	int dummy = 0;

	pair_open(&p);
	ck_assert_int_eq(setsockopt(p.b.fd, SOL_SOCKET, SO_DETACH_FILTER,
	    &dummy, sizeof(dummy)), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_int_eq(setsockopt(p.b.fd, SOL_SOCKET, SO_ATTACH_FILTER,
	    &prog, sizeof(prog)), -1);
	ck_assert_int_eq(errno, EPERM);
	/* Still filtering after the attempts. */
	assert_refused_first(&p, &p.a,
	    (const uint8_t[6]){ 0x02, 9, 9, 9, 9, 9 });
}
END_TEST

START_TEST(test_raw_truncated)
{
	struct pair p;
	struct rawsock_frame f;
	uint8_t big[1000], buf[FRAME_BUF];
	int64_t end;
	int rc;

	pair_open(&p);
	memset(big, 0x5a, sizeof(big));
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, big, sizeof(big)), 0);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "next", 4), 0);
	/* With a 100-byte buffer the big frame fails whole, with EMSGSIZE. */
	end = now_ms() + DEADLINE_MS;
	do {
		(void)readable(p.b.fd, 200);
		rc = rawsock_recv(&p.b, buf, 100, &f);
	} while ((rc == 1 && is_probe(&f)) ||
	    (rc < 0 && errno == EAGAIN && now_ms() < end));
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_uint_eq(p.b.stats.rx_trunc, 1);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.payload, "next", 4);
}
END_TEST

START_TEST(test_raw_send_errors)
{
	struct pair p;
	static uint8_t big[RAWSOCK_PAYLOAD_MAX + 1];

	pair_open(&p);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, big, 1501), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, big, sizeof(big)), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, NULL, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* Exactly the MTU is fine. */
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, big, 1500), 0);
}
END_TEST

/* sendmmsg: every frame arrives, in order; bad frames end the batch. */
START_TEST(test_raw_send_batch)
{
	struct pair p;
	struct rawsock_txmsg m[4];
	struct rawsock_frame f;
	uint8_t buf[FRAME_BUF];
	static uint8_t big[1501];
	static const char *const txt[3] = { "one", "two!", "three" };
	int i;

	pair_open(&p);
	for (i = 0; i < 3; i++) {
		m[i].dst = i == 1 ? bcast : p.b.mac;
		m[i].payload = txt[i];
		m[i].len = strlen(txt[i]);
	}
	ck_assert_int_eq(rawsock_send_batch(&p.a, m, 3), 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
		ck_assert_uint_eq(f.len, strlen(txt[i]));
		ck_assert_mem_eq(f.payload, txt[i], f.len);
		ck_assert_mem_eq(f.src, p.a.mac, 6);
		ck_assert_mem_eq(f.dst, i == 1 ? bcast : p.b.mac, 6);
	}
	/* A frame over the MTU: the ones before it go, it and the rest not. */
	m[1].payload = big;
	m[1].len = sizeof(big);
	ck_assert_int_eq(rawsock_send_batch(&p.a, m, 3), 1);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.payload, "one", 3);
	ck_assert_int_eq(rawsock_recv(&p.b, buf, sizeof(buf), &f), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* The first one bad: -1 with its error. */
	ck_assert_int_eq(rawsock_send_batch(&p.a, m + 1, 2), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	m[1].len = RAWSOCK_PAYLOAD_MAX + 1;
	ck_assert_int_eq(rawsock_send_batch(&p.a, m + 1, 1), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	m[1].payload = NULL;
	m[1].len = 1;
	ck_assert_int_eq(rawsock_send_batch(&p.a, m + 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	m[1].payload = "x";
	m[1].dst = NULL;
	ck_assert_int_eq(rawsock_send_batch(&p.a, m + 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rawsock_send_batch(&p.a, m, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rawsock_send_batch(&p.a, m, RAWSOCK_BATCH_MAX + 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rawsock_send_batch(&p.a, NULL, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* An empty payload is a frame too. */
	m[0].payload = NULL;
	m[0].len = 0;
	ck_assert_int_eq(rawsock_send_batch(&p.a, m, 1), 1);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_uint_eq(f.len, 0);
}
END_TEST

START_TEST(test_raw_open_errors)
{
	struct rawsock rs;
	int ia, ib;

	veth_up("va", "vb", &ia, &ib);
	ck_assert_int_eq(rawsock_open(&rs, 0, RAWSOCK_ETHERTYPE), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rs.fd, -1);
	ck_assert_int_eq(rawsock_open(&rs, ia, 0x05DC), -1);	/* a length */
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rawsock_open(&rs, 4242, RAWSOCK_ETHERTYPE), -1);
	ck_assert_int_eq(errno, ENODEV);
	ck_assert_int_eq(rawsock_open(&rs, ifindex_of("lo"),
	    RAWSOCK_ETHERTYPE), -1);
	ck_assert_int_eq(errno, EAFNOSUPPORT);
	ck_assert_int_eq(rs.fd, -1);
}
END_TEST

START_TEST(test_raw_batch)
{
	struct pair p;
	struct rawsock_frame f[8];
	static uint8_t bufs[8 * FRAME_BUF];
	char msg[2];
	int i, got = 0, rc, seen[5] = { 0 };
	int64_t end;

	pair_open(&p);
	for (i = 0; i < 5; i++) {
		msg[0] = 'b';
		msg[1] = (char)('0' + i);
		ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, msg, 2), 0);
	}
	end = now_ms() + DEADLINE_MS;
	while (got < 5 && now_ms() < end) {
		if (!readable(p.b.fd, 200))
			continue;
		rc = rawsock_recv_batch(&p.b, bufs, FRAME_BUF, 8, f);
		if (rc < 0 && errno == EAGAIN)
			continue;
		ck_assert_int_ge(rc, 0);
		for (i = 0; i < rc; i++) {
			if (is_probe(&f[i]))
				continue;
			ck_assert_uint_eq(f[i].len, 2);
			ck_assert_int_eq(f[i].payload[0], 'b');
			ck_assert_mem_eq(f[i].src, p.a.mac, 6);
			seen[f[i].payload[1] - '0']++;
			got++;
		}
	}
	ck_assert_int_eq(got, 5);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], 1);
	ck_assert_int_eq(rawsock_recv_batch(&p.b, bufs, FRAME_BUF, 8, f), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* A frame longer than its slot is dropped and counted. */
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, bufs, 500), 0);
	end = now_ms() + DEADLINE_MS;
	while (p.b.stats.rx_trunc == 0 && now_ms() < end)
		if (readable(p.b.fd, 200))
			(void)rawsock_recv_batch(&p.b, bufs, 64, 8, f);
	ck_assert_uint_eq(p.b.stats.rx_trunc, 1);
	ck_assert_int_eq(rawsock_recv_batch(&p.b, bufs, FRAME_BUF, 0, f), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rawsock_recv_batch(&p.b, bufs, FRAME_BUF,
	    RAWSOCK_BATCH_MAX + 1, f), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* ---- the receive ring ---------------------------------------------------------- */

/*
 * A ring block as the kernel fills one (TPACKET_V3): n frames of lens[i]
 * bytes, frame i all 'a' + i, packet type pt; returns its used length.
 */
static size_t
ring_block(uint8_t *blk, size_t size, const size_t *lens,
    size_t n, uint8_t pt)
{
	struct tpacket_block_desc bd;
	struct tpacket3_hdr h;
	struct sockaddr_ll sll;
	size_t first = TPACKET_ALIGN(sizeof(bd)), off = first, i, next;
	size_t mac = TPACKET_ALIGN(TPACKET_ALIGN(sizeof(h)) + sizeof(sll));

	memset(blk, 0, size);
	for (i = 0; i < n; i++) {
		next = TPACKET_ALIGN(mac + lens[i]);
		ck_assert_uint_le(off + next, size);
		memset(&h, 0, sizeof(h));
		h.tp_mac = (uint16_t)mac;
		h.tp_snaplen = h.tp_len = (uint32_t)lens[i];
		h.tp_next_offset = i + 1 < n ? (uint32_t)next : 0;
		memcpy(blk + off, &h, sizeof(h));
		memset(&sll, 0, sizeof(sll));
		sll.sll_pkttype = pt;
		memcpy(blk + off + TPACKET_ALIGN(sizeof(h)), &sll, sizeof(sll));
		memset(blk + off + mac, 'a' + (int)i, lens[i]);
		off += next;
	}
	memset(&bd, 0, sizeof(bd));
	bd.hdr.bh1.num_pkts = (uint32_t)n;
	bd.hdr.bh1.offset_to_first_pkt = (uint32_t)first;
	bd.hdr.bh1.blk_len = (uint32_t)off;
	memcpy(blk, &bd, sizeof(bd));
	return off;
}

/* The first frame's header in a block made by ring_block. */
static struct tpacket3_hdr *
ring_first(uint8_t *blk)
{
	return (struct tpacket3_hdr *)(void *)(blk +
	    TPACKET_ALIGN(sizeof(struct tpacket_block_desc)));
}

/* A field of the first frame's header, for ring_first_walk. */
enum ring_field { RING_LEN, RING_SNAPLEN, RING_MAC, RING_NEXT };

/*
 * The three-frame block of test_ring_block_parse with one field of the
 * first frame's header set to v, opened afresh: what rawsock_block_next
 * says of the first frame, and in *second (and *len2) of the next one
 * when there is one (else 0).
 */
static int
ring_first_walk(uint8_t *blk, size_t size, enum ring_field which,
    uint32_t v, int *second, size_t *len2)
{
	static const size_t lens[3] = { 60, 1500, 14 };
	struct tpacket3_hdr *h;
	const uint8_t *fr;
	size_t blen, off;
	uint32_t left;
	uint8_t pt;
	int r;

	ring_block(blk, size, lens, 3, PACKET_HOST);
	h = ring_first(blk);
	switch (which) {
	case RING_LEN:		h->tp_len = v; break;
	case RING_SNAPLEN:	h->tp_snaplen = v; break;
	case RING_MAC:		h->tp_mac = (uint16_t)v; break;
	case RING_NEXT:		h->tp_next_offset = v; break;
	}
	ck_assert_int_eq(rawsock_block_open(blk, size, &blen, &off, &left), 0);
	r = rawsock_block_next(blk, blen, &off, &left, &fr, len2, &pt);
	*second = r > 0 ? rawsock_block_next(blk, blen, &off, &left, &fr,
	    len2, &pt) : 0;
	return r;
}

/*
 * The ring block walker takes what the kernel wrote as hostile: frames
 * come out whole and in order, and a header that points outside the
 * block, or a next frame that overlaps this one, ends the block.
 */
START_TEST(test_ring_block_parse)
{
	static _Alignas(8) uint8_t blk[8192];
	static const size_t lens[3] = { 60, 1500, 14 };
	const uint8_t *fr;
	size_t blen, off, len, used;
	uint32_t left;
	uint8_t pt;
	int i, x;

	used = ring_block(blk, sizeof(blk), lens, 3, PACKET_HOST);
	ck_assert_int_eq(rawsock_block_open(blk, sizeof(blk), &blen, &off,
	    &left), 0);
	ck_assert_uint_eq(blen, used);
	ck_assert_uint_eq(left, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(rawsock_block_next(blk, blen, &off, &left, &fr,
		    &len, &pt), 1);
		ck_assert_uint_eq(len, lens[i]);
		ck_assert_int_eq(fr[0], 'a' + i);
		ck_assert_int_eq(fr[len - 1], 'a' + i);
		ck_assert(fr >= blk && fr + len <= blk + blen);
		ck_assert_uint_eq(pt, PACKET_HOST);
	}
	ck_assert_int_eq(rawsock_block_next(blk, blen, &off, &left, &fr, &len,
	    &pt), 0);
	/* Block headers: longer than the block, first frame in the header. */
	ck_assert_int_eq(rawsock_block_open(blk, used - 1, &blen, &off,
	    &left), -1);
	ck_assert_int_eq(rawsock_block_open(blk, 8, &blen, &off, &left), -1);
	((struct tpacket_block_desc *)(void *)blk)->hdr.bh1.offset_to_first_pkt
	    = 4;
	ck_assert_int_eq(rawsock_block_open(blk, sizeof(blk), &blen, &off,
	    &left), -1);
	/* A frame cut short: skipped, the next one still read. */
	ck_assert_int_eq(ring_first_walk(blk, sizeof(blk), RING_LEN, 9000,
	    &x, &len), 2);
	ck_assert_int_eq(x, 1);
	ck_assert_uint_eq(len, 1500);
	/* Data past the block's end. */
	ck_assert_int_eq(ring_first_walk(blk, sizeof(blk), RING_SNAPLEN, 9000,
	    &x, &len), -1);
	ck_assert_int_eq(ring_first_walk(blk, sizeof(blk), RING_MAC, 60000,
	    &x, &len), -1);
	/* The next frame inside this one, or past the end. */
	ck_assert_int_eq(ring_first_walk(blk, sizeof(blk), RING_NEXT, 32,
	    &x, &len), -1);
	ck_assert_int_eq(ring_first_walk(blk, sizeof(blk), RING_NEXT, 7000,
	    &x, &len), -1);
}
END_TEST

/*
 * Through a ring: every frame, in order; a frame too long for its slot
 * is counted; after rawsock_ring_off() the queue carries again.
 */
START_TEST(test_raw_ring)
{
	static uint8_t bufs[RAWSOCK_BATCH_MAX * FRAME_BUF];
	struct rawsock_frame f[RAWSOCK_BATCH_MAX];
	char msg[32];
	struct pair p;
	int64_t end;
	int i, rc, got = 0;

	pair_open(&p);
	ck_assert_int_eq(rawsock_ring_on(&p.b), 0);
	ck_assert_ptr_nonnull(p.b.ring.map);
	ck_assert_int_eq(rawsock_ring_on(&p.b), 0);	/* already on */
	for (i = 0; i < 400; i++) {
		snprintf(msg, sizeof(msg), "frame %04d", i);
		memset(bufs, 'x', 1000);
		memcpy(bufs, msg, 10);
		ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, bufs,
		    i % 2 ? 1000 : 10), 0);
	}
	end = now_ms() + DEADLINE_MS;
	while (got < 400 && now_ms() < end) {
		if (!readable(p.b.fd, 200))
			continue;
		rc = rawsock_recv_batch(&p.b, bufs, FRAME_BUF, RAWSOCK_BATCH_MAX,
		    f);
		if (rc < 0 && errno == EAGAIN)
			continue;
		ck_assert_int_ge(rc, 0);
		for (i = 0; i < rc; i++) {
			if (is_probe(&f[i]))
				continue;
			snprintf(msg, sizeof(msg), "frame %04d", got);
			ck_assert_uint_eq(f[i].len, (got % 2) ? 1000 : 10);
			ck_assert_mem_eq(f[i].payload, msg, 10);
			ck_assert_mem_eq(f[i].src, p.a.mac, 6);
			got++;
		}
	}
	ck_assert_int_eq(got, 400);
	ck_assert_int_eq(rawsock_recv_batch(&p.b, bufs, FRAME_BUF, 8, f), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* Too long for a 64-byte slot: dropped and counted, ring or not. */
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, bufs, 500), 0);
	end = now_ms() + DEADLINE_MS;
	while (p.b.stats.rx_trunc == 0 && now_ms() < end)
		if (readable(p.b.fd, 200))
			(void)rawsock_recv_batch(&p.b, bufs, 64, 8, f);
	ck_assert_uint_eq(p.b.stats.rx_trunc, 1);
	ck_assert_int_eq(rawsock_ring_busy(&p.b), 0);
	rawsock_ring_off(&p.b);
	ck_assert_ptr_null(p.b.ring.map);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "after", 5), 0);
	end = now_ms() + DEADLINE_MS;
	rc = 0;
	while (rc <= 0 && now_ms() < end)
		if (readable(p.b.fd, 200))
			rc = rawsock_recv_batch(&p.b, bufs, FRAME_BUF, 8, f);
	ck_assert_int_eq(rc, 1);
	ck_assert_mem_eq(f[0].payload, "after", 5);
	rawsock_close(&p.b);
	ck_assert_ptr_null(p.b.ring.map);
}
END_TEST

START_TEST(test_raw_mac_change)
{
	static const uint8_t mac[6] = { 0x02, 0xba, 0x75, 0xec, 0, 0x42 };
	struct pair p;
	struct rawsock_frame f;
	uint8_t buf[FRAME_BUF];

	pair_open(&p);
	ck_assert_int_eq(nl_link_set_mac(nl, p.ia, mac), 0);
	ck_assert_int_eq(rawsock_refresh_mac(&p.a), 0);
	ck_assert_mem_eq(p.a.mac, mac, 6);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "new", 3), 0);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.src, mac, 6);
}
END_TEST

START_TEST(test_raw_link_down_up_delete)
{
	struct pair p;
	struct rawsock_frame f;
	uint8_t buf[FRAME_BUF];
	int rc;

	pair_open(&p);
	/* Down: one ENETDOWN, then the socket carries again once up. */
	ck_assert_int_eq(nl_link_set_up(nl, p.ib, false), 0);
	rc = rawsock_recv(&p.b, buf, sizeof(buf), &f);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(errno, ENETDOWN);
	ck_assert_int_eq(nl_link_set_up(nl, p.ib, true), 0);
	link_ready(&p.a, &p.b);
	ck_assert_int_eq(rawsock_send(&p.a, p.b.mac, "again", 5), 0);
	ck_assert_int_eq(recv_next(&p.b, buf, sizeof(buf), &f), 1);
	ck_assert_mem_eq(f.payload, "again", 5);
	/* Deleted: ENETDOWN, and the socket is no longer bound anywhere. */
	ck_assert_int_eq(nl_link_delete(nl, p.ib), 0);
	ck_assert_int_eq(rawsock_recv(&p.b, buf, sizeof(buf), &f), -1);
	ck_assert_int_eq(errno, ENETDOWN);
	ck_assert_int_eq(rawsock_refresh_mac(&p.b), -1);
	ck_assert_int_eq(errno, ENODEV);
}
END_TEST

/* ---- link events ------------------------------------------------------------ */

struct evlog {
	int		n;
	struct nl_link	ev[256];
};

static void
evlog_cb(const struct nl_link *l, void *arg)
{
	struct evlog *log = arg;

	ck_assert_int_lt(log->n, 256);
	log->ev[log->n++] = *l;
}

/*
 * Reads events until one for name matches (event kind, and flags & mask ==
 * want), looking at events logged from *from on; returns its position.
 */
static int
wait_event(struct nl_sock *ev, struct evlog *log, int *from,
    enum nl_link_event kind, const char *name, unsigned int mask,
    unsigned int want)
{
	int64_t end = now_ms() + DEADLINE_MS;
	int i;

	for (;;) {
		for (i = *from; i < log->n; i++) {
			const struct nl_link *l = &log->ev[i];

			if (l->event == kind && strcmp(l->name, name) == 0 &&
			    (l->flags & mask) == want) {
				*from = i + 1;
				return i;
			}
		}
		*from = log->n;
		ck_assert_msg(now_ms() < end, "no %s event for %s",
		    kind == NL_LINK_NEW ? "NEW" : "DEL", name);
		if (readable(nl_fd(ev), 200))
			ck_assert_int_ge(nl_events_recv(ev, evlog_cb, log), 0);
	}
}

START_TEST(test_events)
{
	struct nl_sock *ev;
	struct evlog *log = calloc(1, sizeof(*log));
	int ia, ib, from = 0, i, old;

	ck_assert_ptr_nonnull(log);
	ev = nl_events_open(0);
	ck_assert_ptr_nonnull(ev);
	assert_fd_flags(nl_fd(ev));
	ck_assert_int_eq(nl_events_recv(ev, evlog_cb, log), 0);

	ck_assert_int_eq(nl_veth_create(nl, "ea", "eb"), 0);
	ia = ifindex_of("ea");
	ib = ifindex_of("eb");
	i = wait_event(ev, log, &from, NL_LINK_NEW, "ea", IFF_UP, 0);
	ck_assert_int_eq(log->ev[i].ifindex, ia);
	ck_assert(log->ev[i].has_mac);
	ck_assert_int_eq(nl_link_set_up(nl, ia, true), 0);
	i = wait_event(ev, log, &from, NL_LINK_NEW, "ea", IFF_UP, IFF_UP);
	ck_assert_int_eq(log->ev[i].ifindex, ia);
	ck_assert_int_eq(nl_link_set_up(nl, ia, false), 0);
	(void)wait_event(ev, log, &from, NL_LINK_NEW, "ea", IFF_UP, 0);

	/* Deleting one end removes both; re-creating gives new indexes. */
	from = log->n;
	ck_assert_int_eq(nl_link_delete(nl, ia), 0);
	old = from;
	i = wait_event(ev, log, &from, NL_LINK_DEL, "ea", 0, 0);
	ck_assert_int_eq(log->ev[i].ifindex, ia);
	from = old;
	i = wait_event(ev, log, &from, NL_LINK_DEL, "eb", 0, 0);
	ck_assert_int_eq(log->ev[i].ifindex, ib);
	ck_assert_int_eq(nl_veth_create(nl, "ea", "eb"), 0);
	i = wait_event(ev, log, &from, NL_LINK_NEW, "ea", 0, 0);
	ck_assert_int_eq(log->ev[i].ifindex, ifindex_of("ea"));
	ck_assert_int_ne(log->ev[i].ifindex, ia);
	nl_close(ev);
	free(log);
}
END_TEST

START_TEST(test_events_tap)
{
	struct nl_sock *ev = nl_events_open(0);
	struct evlog *log = calloc(1, sizeof(*log));
	struct tap tap;
	int from = 0, i, idx;

	ck_assert_ptr_nonnull(ev);
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(tap_open(&tap, "bs0"), 0);
	idx = tap.ifindex;
	i = wait_event(ev, log, &from, NL_LINK_NEW, "bs0", 0, 0);
	ck_assert_int_eq(log->ev[i].ifindex, idx);
	tap_close(&tap);
	i = wait_event(ev, log, &from, NL_LINK_DEL, "bs0", 0, 0);
	ck_assert_int_eq(log->ev[i].ifindex, idx);
	nl_close(ev);
	free(log);
}
END_TEST

START_TEST(test_events_forged)
{
	struct nl_sock *ev = nl_events_open(0);
	struct evlog *log = calloc(1, sizeof(*log));
	struct sockaddr_nl self, dst;
	socklen_t sl = sizeof(self);
	struct nlmsghdr *nlh;
	int fd, ia, ib, from = 0, i;

	ck_assert_ptr_nonnull(ev);
	ck_assert_ptr_nonnull(log);
	veth_up("va", "vb", &ia, &ib);
	/* Another process's socket sends a fake RTM_DELLINK to our port. */
	ck_assert_int_eq(getsockname(nl_fd(ev), (struct sockaddr *)&self, &sl),
	    0);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	ck_assert_int_ge(fd, 0);
	memset(&dst, 0, sizeof(dst));
	dst.nl_family = AF_NETLINK;
	dst.nl_pid = self.nl_pid;
	nlh = lm_valid();
	nlh->nlmsg_type = RTM_DELLINK;
	((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_index = ia;
	ck_assert_int_eq(sendto(fd, nlh, nlh->nlmsg_len, 0,
	    (struct sockaddr *)&dst, sizeof(dst)), (ssize_t)nlh->nlmsg_len);
	close(fd);
	/* A real event after it; the forged one never shows up. */
	ck_assert_int_eq(nl_link_set_mtu(nl, ia, 1400), 0);
	(void)wait_event(ev, log, &from, NL_LINK_NEW, "va", 0, 0);
	for (i = 0; i < log->n; i++)
		ck_assert_int_ne(log->ev[i].event, NL_LINK_DEL);
	nl_close(ev);
	free(log);
}
END_TEST

static void
mtu_of_vb(const struct nl_link *l, void *arg)
{
	if (strcmp(l->name, "vb") == 0)
		*(uint32_t *)arg = l->mtu;
}

START_TEST(test_events_overrun)
{
	struct nl_sock *ev;
	struct evlog *log = calloc(1, sizeof(*log));
	struct seen s;
	uint32_t mtu = 0;
	int ia, ib, ic, id, i, rc = 0;

	ck_assert_ptr_nonnull(log);
	/* The smallest receive buffer the kernel allows: a few messages. */
	ev = nl_events_open(1);
	ck_assert_ptr_nonnull(ev);
	veth_up("va", "vb", &ia, &ib);
	veth_up("vc", "vd", &ic, &id);
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(nl_link_set_mtu(nl, ib, 1400 + (uint32_t)i), 0);
	/* While we did not read, the pair vc/vd went away. */
	ck_assert_int_eq(nl_link_delete(nl, ic), 0);
	for (i = 0; i < 1000; i++) {
		rc = nl_events_recv(ev, evlog_cb, log);
		if (rc <= 0)
			break;
		log->n = 0;
	}
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(errno, ENOBUFS);
	/* Resync: mark everything, the dump unmarks what still exists. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(nl_events_resync(ev, nl, seen_cb, &s), 3);
	ck_assert_int_eq(seen_find(&s, "va"), ia);
	ck_assert_int_eq(seen_find(&s, "vb"), ib);
	ck_assert_int_eq(seen_find(&s, "vc"), 0);
	ck_assert_int_eq(seen_find(&s, "vd"), 0);
	ck_assert_int_eq(nl_link_dump(nl, mtu_of_vb, &mtu), 3);
	ck_assert_uint_eq(mtu, 1463);
	/* The event socket works normally afterwards. */
	log->n = 0;
	ck_assert_int_ge(nl_events_recv(ev, evlog_cb, log), 0);
	nl_close(ev);
	free(log);
}
END_TEST

/* ---- suite ------------------------------------------------------------------- */

static TCase *
tc_new(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, netns_setup, netns_teardown);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return tc;
}

static Suite *
netio_suite(void)
{
	Suite *s = suite_create("netio");
	TCase *tc;

	tc = tc_new(s, "parse");
	tcase_add_loop_test(tc, test_parse_table, 0, N_PARSE_CASES);
	tcase_add_test(tc, test_parse_fields);
	tcase_add_test(tc, test_parse_framing);
	tcase_add_test(tc, test_events_parse);
	tcase_add_loop_test(tc, test_ifname_valid, 0, N_NAME_CASES);
	tcase_add_test(tc, test_ifname_unterminated);
	tcase_add_loop_test(tc, test_mtu_for_tap, 0, N_MTU_CASES);

	tc = tc_new(s, "netlink");
	tcase_add_test(tc, test_veth_up_down);
	tcase_add_test(tc, test_mtu_mac);
	tcase_add_test(tc, test_request_errors);
	tcase_add_test(tc, test_dump);
	tcase_add_test(tc, test_mtu_apply_raise);
	tcase_add_test(tc, test_mtu_apply_fallback);

	tc = tc_new(s, "tap");
	tcase_add_test(tc, test_tap_create_close);
	tcase_add_loop_test(tc, test_tap_bad_name, 0, N_NAME_CASES);
	tcase_add_test(tc, test_tap_busy);
	tcase_add_test(tc, test_tap_io);

	tc = tc_new(s, "rawsock");
	tcase_add_test(tc, test_raw_send_recv);
	tcase_add_test(tc, test_raw_other_ethertype);
	tcase_add_test(tc, test_raw_other_host);
	tcase_add_test(tc, test_raw_own_source);
	tcase_add_test(tc, test_raw_ignore_outgoing);
	tcase_add_test(tc, test_raw_filter_locked);
	tcase_add_test(tc, test_raw_truncated);
	tcase_add_test(tc, test_raw_send_errors);
	tcase_add_test(tc, test_raw_send_batch);
	tcase_add_test(tc, test_raw_open_errors);
	tcase_add_test(tc, test_raw_batch);
	tcase_add_test(tc, test_ring_block_parse);
	tcase_add_test(tc, test_raw_ring);
	tcase_add_test(tc, test_raw_mac_change);
	tcase_add_test(tc, test_raw_link_down_up_delete);

	tc = tc_new(s, "events");
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_events_tap);
	tcase_add_test(tc, test_events_forged);
	tcase_add_test(tc, test_events_overrun);
	return s;
}

int
main(void)
{
	return t_run(netio_suite());
}
