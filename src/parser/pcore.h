/*
 * pcore.h — the parser's core: plain functions over buffers, no system
 * calls, so unit tests, fuzz harnesses and the simulator call it directly.
 *
 * The sandboxed parser process (parser.c) feeds it what arrives on the
 * channel — CONFIG, policy snapshots, IFACE changes, LINK_KEYs, FRAMEs —
 * and sends whatever it emits back to the forwarder.  Output goes through
 * a callback, so pcore itself never touches a descriptor:
 *
 *	static int emit(void *arg, uint16_t type, const void *obj, size_t n)
 *	{ return ipc_send(arg, type, obj, n); }
 *	pcore_init(&pc, emit, &ipc);	(before the sandbox: it reads random
 *					 bytes for its hash keys)
 *
 * Every frame is hostile.  pcore_frame() applies the receive pipeline of
 * DESIGN.md §5, cheapest check first, and counts each refused frame under
 * exactly one reason (enum pcore_drop); an OGM frame that passes its
 * frame checks has each entry counted under exactly one outcome (enum
 * pcore_entry).  The routing decisions are routing.h's (B.A.T.M.A.N. IV).
 *
 * HELLO: codec; source MAC unicast and == the HELLO's interface MAC; not
 * our key; the policy admits the key (allowlist: only `trust`ed keys;
 * open: strangers too; a refused key is dropped before any signature
 * work and never enters a table); a HELLO of a known neighbour that is
 * not newer is a replay (before the signature); Ed25519 (BS_DOM_HELLO);
 * routing_hello().
 *
 * OGM frame: codec; header sender is not us; the sender is a neighbour on
 * that interface whose interface MAC is the Ethernet source; its link key
 * is known; trailer type 1: the tag under our key id verifies
 * (bs_link_mac_verify over the covered range, sender address, counter),
 * type 2: bs_verify(BS_DOM_LINK) with the neighbour's key; the frame
 * counter is above the last one accepted from that neighbour.  Then per
 * entry, in this order: our own OGM (skipped: link quality comes from
 * the HELLO echo, so the routing core has no use for it; never verified,
 * never relayed); the policy class of the originator key; the hops-0
 * rule (hops 0 <=> the frame sender is the originator, and then
 * prev_sender is the originator too) and the TQ ceiling (tq <=
 * routing_tq_ceiling(hops, hop_penalty)); routing_ogm_check() (old
 * epoch/seqno, duplicates, table full, ...); for an originator not in
 * the table the epoch memory (pcore_limits.h); the hop chain (with what
 * the signature cache remembers of the entry); for a new originator its
 * admission (class shares, eviction plan, introduction quota); the
 * signature cache, then the verification budget and Ed25519
 * (BS_DOM_OGM); a planned eviction; routing_ogm().  All checks that cost
 * no signature come before the signature.
 *
 * Emitted messages (each one as ipc_check() in the forwarder accepts it,
 * given the forwarder applies the NEIGH messages with ipc_ctx_apply):
 *
 *  IPC_NEIGH UP {pk, addr, mac, ifindex, tq = link TQ, rx_count = how
 *	many of the neighbour's last 64 HELLOs we heard}: when a verified
 *	HELLO created the neighbour (tq is usually 0 then: not yet
 *	bidirectional) and whenever its MAC, link TQ, rx_count or echo
 *	changed.  tq > 0 means the link is bidirectional.
 *  IPC_NEIGH DOWN {pk, addr, mac, ifindex, tq 0, rx_count 0}: the
 *	neighbour was purged (not heard for the neighbour timeout), its
 *	interface went down or away, or the policy no longer admits its key.
 *	Every route through it has been moved (ROUTE_ADD) or deleted
 *	(ROUTE_DEL) before.
 *  IPC_LINK_KEY_REQ {peer_pk, ifindex}: right after the first NEIGH UP of
 *	a neighbour (again after PCORE_KEY_RETRY_MS without an answer, on
 *	its next HELLO).  The IPC_LINK_KEY answer is kept per neighbour and
 *	wiped when the neighbour goes.
 *  IPC_ROUTE_ADD {orig pk, addr, nexthop = the best neighbour's mesh
 *	address, ifindex, tq = its TQ average 1..255, hops = 1 + relays
 *	passed}: when a route appears, changes next hop, TQ or hops, and as
 *	a refresh whenever a newer (epoch, seqno) of the originator arrives
 *	from its best next hop (or, for an entry whose hops come with a
 *	fisheye gap above 1, pcore_fisheye_gap, from any neighbour first).
 *	The next hop is always a neighbour whose
 *	NEIGH UP was sent and not followed by a DOWN.
 *  IPC_ROUTE_ALT {orig addr, the other candidates}: right after each
 *	ROUTE_ADD, the originator's other next-hop candidates (nexthop,
 *	ifindex, TQ average, hops) whose neighbours are up as above.
 *  IPC_ROUTE_DEL {orig addr}: the originator has no route any more
 *	(purged, its key refused by a new policy, or its candidates gone).
 *  IPC_TT {orig addr, the complete client list}: when the client list in
 *	the originator's newest signed OGM differs from the one last sent
 *	(an empty list is sent only to clear a non-empty one), and count 0
 *	when an originator that had clients is removed.  At most the
 *	policy's clients-per-originator entries are passed (the first ones).
 *  IPC_TT {orig addr, pages, page, the page's clients}: a TT page of the
 *	newest OGM (pcore_ttpage.h) when it differs from the one last sent
 *	for that page; clients-per-originator counts the whole table.
 *  IPC_GW ANNOUNCE {orig addr, down, up} / WITHDRAW: when the effective
 *	gateway announcement changes: the newest OGM's GATEWAY TVLV counts
 *	only when the policy lets that key be a gateway
 *	(bs_policy_gateway_ok); WITHDRAW also when a gateway is removed.
 *  IPC_RELAY {IPC_IFINDEX_ALL, the entry}: the first copy of a newer
 *	seqno that arrived from the originator's best next hop, with its
 *	mutable part rewritten: ttl - 1, tq = the received TQ after the
 *	ceiling, our link and the receiving interface's hop penalty
 *	(IPC_IFACE), times (255 - hop_penalty) / 255, hops + 1,
 *	prev_sender = the mesh address of the neighbour we got it from
 *	(batman's rule, batsec-protocol(7)), element = bs_chain_step(element);
 *	the signed block is copied unchanged.  When the receiving interface
 *	is half duplex, one RELAY per up interface instead, the one for the
 *	receiving interface with that factor applied twice.
 *  IPC_CERT {the certificate}: when pcore_trust.c accepts a certificate
 *	(new, or one that replaces a key's older one), before it is kept
 *	and before any message about its key: the forwarder admits a
 *	certified key only with a certificate it verified itself.  A
 *	certificate that cannot be sent is not kept.
 *  IPC_PIN {pk}: mode open, a stranger's address pinned (pcore_trust.h);
 *	again when sending failed, but only keys that are strangers still.
 *  IPC_LOG (debug lines about dropped frames, rate limited) and IPC_STATS
 *	(from pcore_tick, at most every PCORE_STATS_MS while counters move).
 *  IPC_HEARTBEAT_ACK is parser.c's, not the core's: the answer to each
 *	IPC_HEARTBEAT, as soon as it is read.
 *
 * Counters (IPC_STATS ids; every refused frame and entry lands in one):
 * rx_frames every frame; rx_hello, rx_ogm HELLOs and OGM frames that
 * passed; rx_hello_mac those of the HELLOs that passed on their link
 * tag (no signature checked); drop_malformed the codec's refusals, a source MAC that is not
 * unicast, a HELLO MAC that is not the source; drop_iface before CONFIG,
 * unknown or down interface; drop_data UNICAST/BCAST; drop_own our own
 * HELLO, OGM frame or OGM entry; drop_policy a HELLO key or entry
 * originator the policy refuses; drop_replay a HELLO not newer, a frame
 * counter not above the last; drop_not_neighbour, drop_no_link_key,
 * drop_link_auth as above (a HELLO with tags from a key that is no
 * neighbour there with a known link key: drop_no_link_key); sig_verified and sig_failed every Ed25519
 * check (HELLO, entry, type-2 trailer; a HELLO or entry with a bad
 * signature is counted only under sig_failed); sig_cache_hit;
 * drop_old_seqno older epoch or seqno out of the window; drop_duplicate
 * the routing core's duplicate, echo and loop refusals; drop_hop_chain
 * the hops-0 rule, the TQ ceiling, the hop chain; drop_table_full a
 * neighbour or originator cap, the stranger share; drop_routing other
 * refusals of the routing core (link not bidirectional, TQ 0, address of
 * another key); ogm_accepted entries the routing core took; ogm_relayed
 * RELAYs sent; ogm_fisheye compact entries the routing core would have
 * relayed that fisheye relaying held back (pcore_fisheye_gap);
 * emit_failed messages the channel refused; originators and
 * neighbours the table sizes.
 *
 * Attack resistance (pcore_limits.h): drop_frame_rate frames over the
 * per-source or per-neighbour frame rate (checked before any parsing
 * beyond the 2-byte header); drop_intro_quota new originators over the
 * per-neighbour or global introduction quota; drop_verify_budget HELLOs
 * and entries over the verification budget, or unknown ones while
 * under load; under_load 1 while the global verification budget is low
 * (under_load_entered counts the times it went low); evicted strangers
 * (and certified keys, by trusted ones) pushed out for a better class;
 * strangers the current count; drop_gateway GATEWAY TVLVs of keys
 * without the gateway right; drop_remembered entries and HELLOs of keys
 * that left the tables, refused by the epoch memory (also counted as
 * drop_old_seqno or drop_replay); tofu_pins the mesh addresses pinned
 * (pcore_trust.h); tt_pages the TT pages of newer OGMs; tt_synced the
 * paged tables held whole now (pcore_ttpage.h); src1..src4 the sources
 * with most drops.  Every drop is also counted against its (interface, source
 * MAC) in the per-source table.
 */
#ifndef BATSEC_PCORE_H
#define BATSEC_PCORE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/ipc_msg.h"
#include "pcore_int.h"
/* The tables the core keeps (pc->rt), for callers that look into them. */
#include "routing/routing.h"
/*
 * The rest of the public API lives with the data it touches: IPC_LINK_KEY
 * and the neighbour lookup (pcore_link_key, pcore_neigh_find:
 * pcore_neigh.h), IPC_PINS (pcore_pins: pcore_trust.h), and the names of
 * the drop reasons and entry outcomes (pcore_drop_name, pcore_entry_name:
 * pcore_drop.h).
 */
#include "pcore_drop.h"
#include "pcore_neigh.h"
#include "pcore_trust.h"

#define PCORE_STATS_MS		1000	/* STATS at most this often */
/* routing_purge this often; a neighbour found lost waits at most this. */
#define PCORE_PURGE_MS		250
/* Debug log lines about dropped frames: burst, then per second. */
#define PCORE_LOG_BURST		10
#define PCORE_LOG_RATE		2

/*
 * Empty core.  Reads random bytes (libsodium) for its hash keys, so call
 * it after bs_crypto_init() and before the sandbox forbids getrandom;
 * fuzzing builds use fixed keys for reproducible runs.
 */
void	pcore_init(struct pcore *pc, pcore_emit_fn emit, void *emit_arg);
/*
 * Free the tables and the policy and wipe the link keys; the struct may
 * be pcore_init'ed again.  Emits nothing.
 */
void	pcore_free(struct pcore *pc);

/*
 * IPC_CONFIG.  The first one configures and allocates the tables; a
 * later one may change only the intervals, hop penalty and log level
 * (own key, address, epoch and ethertype are fixed for the parser's
 * lifetime): 0, or -1 with err set.
 */
int	pcore_config(struct pcore *pc, const struct ipc_config *c, char *err,
	    size_t errlen);

/*
 * A complete policy snapshot (bs_policy_snapshot_decode): 0 or -1.  It
 * applies at once: the originator cap follows `limit originators`
 * (entries beyond a lowered cap are removed, strangers first), and every
 * neighbour and originator whose key the new policy does not admit is
 * removed (ROUTE_DEL / TT / GW / NEIGH DOWN as for a purge).
 */
int	pcore_policy(struct pcore *pc, uint32_t serial, const uint8_t *snap,
	    size_t len, char *err, size_t errlen);

/*
 * IPC_IFACE: add, update or (REMOVED) forget an interface; 0 or -1.
 * When an interface goes down or away its neighbours are removed.
 */
int	pcore_iface(struct pcore *pc, const struct ipc_iface *ifc, char *err,
	    size_t errlen);

/*
 * One received frame: the Ethernet payload `bytes` (len bytes) that
 * arrived on ifindex from src to dst, at now_ms.  Returns PCORE_ACCEPT
 * or the reason it was dropped (also counted).
 */
enum pcore_drop pcore_frame(struct pcore *pc, uint32_t ifindex,
	    const uint8_t src[static BS_ADDR_LEN],
	    const uint8_t dst[static BS_ADDR_LEN], const uint8_t *bytes,
	    size_t len, uint64_t now_ms);

/*
 * Periodic work at now_ms: routing_purge every PCORE_PURGE_MS (emitting
 * ROUTE_ADD/ROUTE_DEL/TT/GW/NEIGH DOWN as needed), and STATS when
 * counters changed and PCORE_STATS_MS passed since the last.  Returns
 * the time of the next call that could do something.
 */
uint64_t pcore_tick(struct pcore *pc, uint64_t now_ms);

/* Fill a STATS message with the counters that have an IPC id; count. */
int	pcore_stats(const struct pcore *pc, struct ipc_stats *out);

#endif /* BATSEC_PCORE_H */
