/*
 * fwd_gwsel.c — gateway selection and DHCP steering of a client node
 * (fwd_gwsel.h).
 */
#include <string.h>

#include "bs_bytes.h"
#include "fwd_gwsel.h"

#define GW_ETH_HLEN	14
#define GW_ETH_P_IP	0x0800
#define GW_ETH_P_IPV6	0x86dd
#define GW_ETH_P_8021Q	0x8100
#define GW_IPPROTO_UDP	17

/* Class 1: TQ² × bandwidth down, exact in 64 bits (≤ 65025 × 2^32). */
static uint64_t
fwd_gw_factor(const struct fwd_gw_cand *c)
{
	return (uint64_t)c->tq * c->tq * c->down;
}

/* 1 when a is a better choice than b for class cls. */
static int
fwd_gw_better(const struct fwd_gw_cand *a, const struct fwd_gw_cand *b,
    unsigned cls)
{
	if (cls == 1 && fwd_gw_factor(a) != fwd_gw_factor(b))
		return fwd_gw_factor(a) > fwd_gw_factor(b);
	return a->tq > b->tq;
}

int
fwd_gw_select(const struct fwd_gw_cand *c, size_t n, unsigned cls, int cur)
{
	size_t i;
	int best = -1;

	for (i = 0; i < n; i++)
		if (best < 0 || fwd_gw_better(&c[i], &c[best], cls))
			best = (int)i;
	if (cur < 0 || (size_t)cur >= n || best < 0)
		return best;
	/* Classes 1 and 2 keep a usable choice. */
	if (cls <= 2)
		return cur;
	if (cls == 3)
		return c[best].tq > c[cur].tq ? best : cur;
	return (unsigned)c[best].tq >= (unsigned)c[cur].tq + cls ? best : cur;
}

enum fwd_dhcp
fwd_dhcp_classify(const uint8_t *frame, size_t len)
{
	const uint8_t *ip, *udp;
	size_t off = GW_ETH_HLEN, ihl;
	uint16_t et, sp, dp;
	int v6;

	if (len < GW_ETH_HLEN)
		return FWD_DHCP_NONE;
	et = bs_get16(frame + 12);
	if (et == GW_ETH_P_8021Q) {
		if (len < GW_ETH_HLEN + 4)
			return FWD_DHCP_NONE;
		et = bs_get16(frame + 16);
		off += 4;
	}
	ip = frame + off;
	if (et == GW_ETH_P_IP) {
		if (len - off < 20 || ip[0] >> 4 != 4)
			return FWD_DHCP_NONE;
		ihl = (size_t)(ip[0] & 0x0f) * 4;
		/* Not UDP, or a fragment without the UDP header. */
		if (ihl < 20 || len - off < ihl + 8 ||
		    ip[9] != GW_IPPROTO_UDP || (bs_get16(ip + 6) & 0x1fff) != 0)
			return FWD_DHCP_NONE;
		udp = ip + ihl;
		v6 = 0;
	} else if (et == GW_ETH_P_IPV6) {
		if (len - off < 40 + 8 || ip[0] >> 4 != 6 ||
		    ip[6] != GW_IPPROTO_UDP)
			return FWD_DHCP_NONE;
		udp = ip + 40;
		v6 = 1;
	} else
		return FWD_DHCP_NONE;
	sp = bs_get16(udp);
	dp = bs_get16(udp + 2);
	if (sp == (v6 ? 546 : 68) && dp == (v6 ? 547 : 67))
		return FWD_DHCP_REQUEST;
	if (sp == (v6 ? 547 : 67) && dp == (v6 ? 546 : 68))
		return FWD_DHCP_ANSWER;
	return FWD_DHCP_NONE;
}

int
fwd_gw_steer(const struct fwd_gwc *g, const uint8_t *frame, size_t len)
{
	return g->client && g->has_sel && len >= GW_ETH_HLEN &&
	    (frame[0] & 0x01) != 0 &&
	    fwd_dhcp_classify(frame, len) == FWD_DHCP_REQUEST;
}

int
fwd_gw_rx_drop(const struct fwd_gwc *g,
    const uint8_t orig[static BS_ADDR_LEN], const uint8_t *frame, size_t len)
{
	return g->client && g->has_sel &&
	    memcmp(orig, g->sel, BS_ADDR_LEN) != 0 &&
	    fwd_dhcp_classify(frame, len) == FWD_DHCP_ANSWER;
}
