/*
 * pcore_neigh.h — the neighbour store and route emission: the parser's
 * side of each neighbour, next to its routing entry (created with the
 * first accepted HELLO, removed with it), and every message a table
 * change sends: NEIGH UP / DOWN, LINK_KEY_REQ, ROUTE_ADD / ROUTE_DEL,
 * and TT count 0 / GW WITHDRAW for an originator that left (pcore.h,
 * Emitted messages).  pcore_link_key and pcore_neigh_find are part of
 * the public API (pcore.h).
 */
#ifndef BATSEC_PCORE_NEIGH_H
#define BATSEC_PCORE_NEIGH_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "pcore_int.h"

struct ipc_link_key;
struct routing_event;
struct routing_hello_result;
struct routing_neigh_info;
struct routing_orig_info;
struct wire_trailer;

#define PCORE_KEY_RETRY_MS	5000	/* LINK_KEY_REQ again after */

/*
 * IPC_LINK_KEY, the answer to a LINK_KEY_REQ or a new key the forwarder
 * sends unasked.  Stored with the neighbour (peer_pk, ifindex), the key
 * it replaces kept as the previous one; an answer for a neighbour that is
 * gone meanwhile is ignored.  The caller wipes its copy of k afterwards.  0, or -1 with
 * err set when the key id is not the key's (a forwarder bug).
 */
int	pcore_link_key(struct pcore *pc, const struct ipc_link_key *k,
	    char *err, size_t errlen);
/* Forget n's previous link key (the neighbour uses the new one). */
void	pcore_neigh_prev_drop(struct pcore_neigh *n);
/*
 * The tag under n's link key id (or, during a rotation's overlap, the
 * previous key's) in trailer t (auth WIRE_AUTH_MAC) verifies, sender
 * being n's mesh address: 0 (a tag under the new key retires the old
 * one), or -1.
 */
int	pcore_neigh_tag_ok(struct pcore_neigh *n, const struct wire_trailer *t,
	    const uint8_t sender[static BS_ADDR_LEN]);
/* The parser's state of neighbour (ifindex, addr), or NULL. */
const struct pcore_neigh *pcore_neigh_find(const struct pcore *pc,
	    uint32_t ifindex, const uint8_t addr[static BS_ADDR_LEN]);
/* The same, to change: NULL when there is none. */
struct pcore_neigh *pcore_neigh_get(struct pcore *pc, uint32_t ifindex,
	    const uint8_t addr[static BS_ADDR_LEN]);
/*
 * After an accepted HELLO (res from routing_hello, ni the neighbour as
 * the table has it now, salt the HELLO's link salt): a slot for a new
 * neighbour, NEIGH UP when something the forwarder shows changed, then
 * LINK_KEY_REQ when due (again after a new epoch or salt: a new key).
 * back: the neighbour left this interface lately (pcore_neigh_was_lost):
 * its first UP carries IPC_NEIGH_F_BACK.
 */
void	pcore_neigh_tell(struct pcore *pc,
	    const struct routing_hello_result *res,
	    const struct routing_neigh_info *ni,
	    const uint8_t salt[static BS_LINKSALT_LEN], int back,
	    uint64_t now_ms);
/*
 * What the neighbour's HELLO asks of our forwarder: NEIGH UP again with
 * flags IPC_NEIGH_F_FRESH (it said it knows no full OGM entries,
 * WIRE_HELLO_F_FRESH: our OGMs go full, our HELLOs signed for a while)
 * and/or IPC_NEIGH_F_SIGN (it does not list us: sign a HELLO soon).
 */
void	pcore_neigh_ask(struct pcore *pc, const struct routing_neigh_info *ni,
	    const uint8_t salt[static BS_LINKSALT_LEN], uint8_t flags);

/*
 * A tagged HELLO (trailer t) of a key that is no neighbour on ifindex:
 * 0 when it was one there and its tag verifies under the link key it
 * left with (pcore_lost_key; that key is then forgotten); -1 when it
 * carries a tag under that key that does not verify; 1 when it carries
 * no tag under a key we keep for it (none kept, or it does not list us).
 */
int	pcore_neigh_lost_tag_ok(struct pcore *pc, uint32_t ifindex,
	    const uint8_t pk[static BS_PK_LEN], const struct wire_trailer *t,
	    const uint8_t sender[static BS_ADDR_LEN]);
/*
 * 1 when pk (address addr) left ifindex, its link key is kept, and it
 * left in this epoch (a node that restarted since is new again).
 */
int	pcore_neigh_was_lost(struct pcore *pc, uint32_t ifindex,
	    const uint8_t pk[static BS_PK_LEN],
	    const uint8_t addr[static BS_ADDR_LEN], uint32_t epoch);
/*
 * This node needs descriptions (pcore_desc.h): neighbour (ifindex, addr)
 * relayed compact entries too far ahead of their chain references for
 * many of the originators it knows (pcore_ogm.c, pcore_chain_lost).  At most
 * once every PCORE_DESC_WANT_OGMS OGM intervals, NEIGH UP of that
 * neighbour with IPC_NEIGH_F_DESC: the forwarder sets the fresh flag in
 * the node's HELLOs, and the neighbours hand on the full entries
 * (desc_wanted counts the requests).
 */
#define PCORE_DESC_WANT_OGMS	32	/* intervals between two requests */
void	pcore_neigh_want_desc(struct pcore *pc, uint32_t ifindex,
	    const uint8_t addr[static BS_ADDR_LEN], uint64_t now_ms);

/* ROUTE_ADD for an originator with a route via an announced neighbour. */
void	pcore_route_add(struct pcore *pc,
	    const struct routing_orig_info *oi);
void	pcore_route_del(struct pcore *pc,
	    const uint8_t addr[static BS_ADDR_LEN]);
/*
 * routing_event_fn: turns what a removal did to the tables into messages
 * and forgets the parser's side of what left; arg is pc.  Every call
 * that removes entries from pc->rt passes it.
 */
void	pcore_event(void *arg, const struct routing_event *ev);

#endif /* BATSEC_PCORE_NEIGH_H */
