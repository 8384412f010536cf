/*
 * fwd_gwsel.h — gateway client mode (batsec.conf(5) gw-mode client,
 * gw-sel-class): which announced gateway a client node uses, and what
 * its data plane does with DHCP.
 *
 * Selection (fwd_gw_select), batman-adv's classes for B.A.T.M.A.N. IV:
 *   class 1	the gateway of the highest TQ² × bandwidth down (ties: the
 *		higher TQ);
 *   class 2	the gateway of the highest TQ;
 *   both keep their choice for as long as it stays usable (a route and
 *   still announced): no re-election while it lasts;
 *   class 3	the highest TQ, switching as soon as another gateway's TQ
 *		is higher than the chosen one's;
 *   class N > 3	the highest TQ, switching only when another's TQ is at
 *		least N points above the chosen one's (default 20): the
 *		hysteresis that keeps the choice from flapping.
 * A changed mode or class elects afresh (as batman-adv's reselect).
 *
 * DHCP (fwd_dhcp_classify) in an Ethernet frame, untagged or with one
 * 802.1Q tag: IPv4 UDP 68 -> 67 and IPv6 UDP 546 -> 547 are requests;
 * 67 -> 68 and 547 -> 546 answers (an IPv4 fragment other than the first,
 * or an IPv6 header followed by an extension header, is neither).
 *
 * A client node with a selected gateway (fwd_gw_steer, fwd_gw_rx_drop):
 * a request from batsec0 to a group address (the DHCPv4 broadcast,
 * DHCPv6's ff02::1:2) goes as UNICAST to that gateway's originator only,
 * its inner frame unchanged (broadcast destination MAC kept); an answer
 * from the mesh whose authenticated originator (UNICAST source, BCAST
 * originator) is not the selected gateway does not reach batsec0 (a BCAST
 * is still relayed).  Without a selection nothing is steered or dropped.
 */
#ifndef BATSEC_FWD_GWSEL_H
#define BATSEC_FWD_GWSEL_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

/* One usable gateway: announced, with a route of TQ > 0. */
struct fwd_gw_cand {
	uint8_t addr[BS_ADDR_LEN];
	uint8_t tq;
	uint32_t down;			/* units of 100 kbit/s */
};

/*
 * The candidate to use, by class cls (1..255), given the current choice
 * cur (an index into c, or -1 when there is none or it is no longer
 * usable).  An index, or -1 when n == 0.
 */
int	fwd_gw_select(const struct fwd_gw_cand *c, size_t n, unsigned cls,
	    int cur);

enum fwd_dhcp {
	FWD_DHCP_NONE = 0,
	FWD_DHCP_REQUEST,		/* client -> server */
	FWD_DHCP_ANSWER,		/* server -> client */
};

enum fwd_dhcp fwd_dhcp_classify(const uint8_t *frame, size_t len);

/* The client-mode state the data plane reads (struct fwd_data.gw). */
struct fwd_gwc {
	uint8_t client;			/* 1: gw-mode client */
	uint8_t has_sel;		/* sel is a gateway in use */
	uint8_t sel[BS_ADDR_LEN];
	uint64_t steered;		/* requests sent to sel only */
	uint64_t dropped;		/* answers from others not delivered */
	uint64_t switches;		/* selections made (first included) */
};

/* 1 when frame from batsec0 goes as UNICAST to g->sel alone. */
int	fwd_gw_steer(const struct fwd_gwc *g, const uint8_t *frame,
	    size_t len);
/* 1 when inner frame from originator orig must not reach batsec0. */
int	fwd_gw_rx_drop(const struct fwd_gwc *g,
	    const uint8_t orig[static BS_ADDR_LEN], const uint8_t *frame,
	    size_t len);

#endif /* BATSEC_FWD_GWSEL_H */
