/*
 * t_ipc.h — IPC messages for tests, harnesses, seed generators and the
 * benchmarks: named-field builders of the messages whose fields are
 * arrays (a configuration, an interface, a neighbour, a route), one
 * message encoded as the sender puts it on the channel, and
 * the input format of fuzz_ipc.c and fuzz_fwdchan.c (a role byte, then
 * datagrams each after its 2-byte big-endian length).
 *
 * Encoding failures print the codec's reason and abort.
 */
#ifndef BATSEC_T_IPC_H
#define BATSEC_T_IPC_H

#include <stddef.h>
#include <stdint.h>

#include "proto/ipc_msg.h"
#include "t_seed.h"

/* The fields of an IPC_CONFIG; own_addr is the mesh address of pk. */
struct t_config {
	const uint8_t	*pk;		/* BS_PK_LEN */
	uint16_t	 ethertype;
	uint32_t	 epoch;
	uint16_t	 hello_ms;
	uint16_t	 ogm_ms;
	uint8_t		 hop_penalty;
	uint8_t		 log_level;
};

/* The fields of an IPC_IFACE; mac NULL leaves it zero. */
struct t_iface {
	uint32_t	 ifindex;
	uint32_t	 mtu;
	const uint8_t	*mac;
	uint8_t		 state;
	const char	*name;
	uint8_t		 hop_penalty;
	uint8_t		 half_duplex;
};

/* The fields of an IPC_NEIGH; the pointers are copied from. */
struct t_neigh {
	const uint8_t	*pk;		/* BS_PK_LEN */
	const uint8_t	*addr;		/* mesh address */
	const uint8_t	*mac;		/* interface MAC */
	uint32_t	 ifindex;
	uint8_t		 state;		/* IPC_NEIGH_UP or IPC_NEIGH_DOWN */
	uint8_t		 tq;
	uint8_t		 rx_count;
	uint32_t	 epoch;		/* 0: 1 when UP */
	const uint8_t	*salt;		/* NULL: t_salt(pk) when UP */
};

/* The fields of an IPC_ROUTE_ADD. */
struct t_route {
	const uint8_t	*orig_pk;	/* BS_PK_LEN */
	const uint8_t	*orig_addr;
	const uint8_t	*nexthop;
	uint32_t	 ifindex;
	uint8_t		 tq;
	uint8_t		 hops;
	uint32_t	 epoch;
};

struct ipc_config	t_ipc_config(struct t_config f);
struct ipc_iface	t_ipc_iface(struct t_iface f);
struct ipc_neigh	t_ipc_neigh(struct t_neigh f);
struct ipc_route	t_ipc_route(struct t_route f);
/* IPC_ROUTE_ALT for orig_addr with one candidate: nexthop on ifindex. */
struct ipc_route_alt	t_ipc_route_alt(const uint8_t *orig_addr,
			    const uint8_t *nexthop, uint32_t ifindex);

/* Message type with its fixed-size payload obj, as ipc_send frames it. */
/* Page `page` of `pages` of orig's table: up to n clients of that bucket. */
struct ipc_tt		t_ipc_tt_page(const uint8_t *orig_addr, unsigned pages,
			    unsigned page, unsigned n);
/* orig's listeners: every IPv6 group, 239.1.2.3 and ff02::1:1234. */
struct ipc_mcast	t_ipc_mcast(const uint8_t *orig_addr);
size_t	t_ipc_encode(uint8_t *buf, size_t cap, uint16_t type,
	    const void *obj);

/* fuzz_ipc.c's input: the role byte (0 forwarder, 1 parser) first. */
void	t_ipcs_start(struct t_seedbuf *s, uint8_t role);
/* One datagram of n bytes (0 and 1 are events to fuzz_fwdchan.c). */
void	t_ipcs_raw(struct t_seedbuf *s, const void *p, size_t n);
/* One message, encoded. */
void	t_ipcs_msg(struct t_seedbuf *s, uint16_t type, const void *obj);

#endif /* BATSEC_T_IPC_H */
