/*
 * gen_netlink.c — writes the seed corpus of fuzz_netlink into the directory
 * named by argv[1], each file named by (the first 20 bytes of) its SHA-256.
 *
 * The seeds are link messages laid out as the kernel sends them, built
 * with libmnl: a veth, a TAP, the loopback, a tunnel with a 4-byte
 * address, a message full of attributes batsec skips (nests, strings,
 * blobs), RTM_DELLINK, a bridge-port message, an ACK, and whole event
 * datagrams of several messages.  Deterministic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <net/if.h>
#include <net/if_arp.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "lib/t_seed.h"
#include "netio/netlink.h"

#define GEN_BUF	4096

static _Alignas(8) uint8_t gen_dgram[GEN_BUF];
static size_t gen_dlen, gen_two, gen_count;

/* Writes one message as a seed and appends it to the datagram. */
static void
gen_emit(const struct nlmsghdr *nlh)
{
	struct nl_link l;

	if (nlh->nlmsg_type == RTM_NEWLINK && nlh->nlmsg_len > 32 &&
	    nl_link_parse(nlh, nlh->nlmsg_len, &l) < 0) {
		fprintf(stderr, "gen_netlink: own seed refused\n");
		exit(1);
	}
	t_seed_write(nlh, nlh->nlmsg_len);
	if (gen_dlen + MNL_ALIGN(nlh->nlmsg_len) <= sizeof(gen_dgram)) {
		memcpy(gen_dgram + gen_dlen, nlh, nlh->nlmsg_len);
		gen_dlen += MNL_ALIGN(nlh->nlmsg_len);
	}
	if (++gen_count == 2)
		gen_two = gen_dlen;
}

static struct nlmsghdr *
gen_start(void *buf, uint16_t type, uint8_t family,
    int index, uint16_t hwtype, unsigned int flags)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	memset(buf, 0, GEN_BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = 0;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = family;
	ifm->ifi_index = index;
	ifm->ifi_type = hwtype;
	ifm->ifi_flags = flags;
	ifm->ifi_change = 0xffffffff;
	return nlh;
}

static void
gen_common(struct nlmsghdr *nlh, const char *name,
    const uint8_t *mac, uint32_t mtu, uint8_t oper)
{
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (mac != NULL)
		mnl_attr_put(nlh, IFLA_ADDRESS, 6, mac);
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	mnl_attr_put_u32(nlh, IFLA_MIN_MTU, 68);
	mnl_attr_put_u32(nlh, IFLA_MAX_MTU, 65535);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, oper);
}

/* Attributes the parser skips, as a kernel message carries them. */
static void
gen_skipped(struct nlmsghdr *nlh)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t stats[64];
	struct nlattr *n1, *n2;

	mnl_attr_put_u32(nlh, IFLA_TXQLEN, 1000);
	mnl_attr_put_u8(nlh, IFLA_LINKMODE, 0);
	mnl_attr_put_u32(nlh, IFLA_GROUP, 0);
	mnl_attr_put_u32(nlh, IFLA_PROMISCUITY, 0);
	mnl_attr_put_u32(nlh, IFLA_NUM_TX_QUEUES, 2);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, 1);
	mnl_attr_put_strz(nlh, IFLA_QDISC, "noqueue");
	mnl_attr_put(nlh, IFLA_BROADCAST, 6, bcast);
	mnl_attr_put(nlh, IFLA_STATS64, sizeof(stats), stats);
	mnl_attr_put_u32(nlh, IFLA_LINK, 5);
	n1 = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	mnl_attr_nest_end(nlh, n1);
	n1 = mnl_attr_nest_start(nlh, IFLA_AF_SPEC);
	n2 = mnl_attr_nest_start(nlh, AF_INET);
	mnl_attr_put_u32(nlh, 1, 1);
	mnl_attr_nest_end(nlh, n2);
	mnl_attr_nest_end(nlh, n1);
	mnl_attr_put_u32(nlh, 0x7fff, 0xdeadbeef);	/* beyond IFLA_MAX */
}

static void
gen_links(void)
{
	static const uint8_t veth[6] = { 0x02, 0xba, 0x75, 0xec, 0x00, 0x01 };
	static const uint8_t tap[6] = { 0x5a, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const uint8_t zero[6];
	_Alignas(8) uint8_t buf[GEN_BUF];
	struct nlmsghdr *nlh;
	struct nlmsghdr *done;

	nlh = gen_start(buf, RTM_NEWLINK, AF_UNSPEC, 5, ARPHRD_ETHER,
	    IFF_UP | IFF_BROADCAST | IFF_RUNNING | IFF_MULTICAST);
	gen_common(nlh, "mesh0", veth, 1534, NL_OPER_UP);
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_NEWLINK, AF_UNSPEC, 6, ARPHRD_ETHER,
	    IFF_BROADCAST | IFF_MULTICAST);
	gen_common(nlh, "veth-peer1", veth, 1500, NL_OPER_DOWN);
	gen_skipped(nlh);
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_NEWLINK, AF_UNSPEC, 7, ARPHRD_ETHER,
	    IFF_UP | IFF_RUNNING | IFF_MULTICAST);
	gen_common(nlh, "batsec0", tap, 1500, NL_OPER_UNKNOWN);
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_NEWLINK, AF_UNSPEC, 1, ARPHRD_LOOPBACK,
	    IFF_UP | IFF_LOOPBACK | IFF_RUNNING);
	gen_common(nlh, "lo", zero, 65536, NL_OPER_UNKNOWN);
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_NEWLINK, AF_UNSPEC, 8, ARPHRD_TUNNEL,
	    IFF_UP | IFF_RUNNING);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "ipip0");
	mnl_attr_put(nlh, IFLA_ADDRESS, 4, "\x0a\x00\x00\x01");
	mnl_attr_put_u32(nlh, IFLA_MTU, 1480);
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_NEWLINK, AF_UNSPEC, 9, ARPHRD_ETHER, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "m");
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_NEWLINK, AF_BRIDGE, 5, ARPHRD_ETHER, IFF_UP);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "mesh0");
	mnl_attr_put_u32(nlh, IFLA_MASTER, 3);
	gen_emit(nlh);

	nlh = gen_start(buf, RTM_DELLINK, AF_UNSPEC, 5, ARPHRD_ETHER, 0);
	gen_common(nlh, "mesh0", veth, 1534, NL_OPER_DOWN);
	gen_emit(nlh);

	/* An ACK (NLMSG_ERROR with error 0), then NLMSG_DONE. */
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	(void)mnl_nlmsg_put_extra_header(nlh, sizeof(struct nlmsgerr));
	gen_emit(nlh);
	done = mnl_nlmsg_put_header(buf);
	done->nlmsg_type = NLMSG_DONE;
	(void)mnl_nlmsg_put_extra_header(done, sizeof(int32_t));
	gen_emit(done);
}

int
main(int argc, char **argv)
{
	t_seed_main(argc, argv, "gen_netlink", T_SEED_SHA256);
	gen_links();
	/* Every message above as one datagram, and its first two. */
	t_seed_write(gen_dgram, gen_dlen);
	t_seed_write(gen_dgram, gen_two);
	return 0;
}
