/*
 * fwd_bla.h — bridge loop avoidance (batsecd(8) "BRIDGE LOOP AVOIDANCE",
 * batsec-protocol(7) "LAN ANNOUNCES", batsec.conf(5) bla).
 *
 * Two or more nodes that bridge batsec0 into the same LAN ("backbone
 * gateways") would loop every broadcast: one node floods a LAN client's
 * broadcast into the mesh, the other delivers it back into the LAN, the
 * first reads it again from batsec0, and so on, with a new seqno each
 * time.  Both would also announce every LAN client in their TT.
 *
 * With bla on, every node writes a signed ANNOUNCE frame into batsec0
 * every FWD_BLA_ANNOUNCE_MS (to the group address fwd_bla_group, so the
 * LAN's bridges flood it); a node that reads another node's ANNOUNCE
 * from batsec0 knows that node bridges the same LAN.  An ANNOUNCE is
 * believed when its mesh address is an originator we have a route to,
 * its epoch is not older than that route's, its (epoch, seqno) is newer
 * than the last one of that node, and its Ed25519 signature
 * (BS_DOM_BLA) verifies with
 * the originator's key; at most FWD_BLA_VERIFY_RATE checks a second.
 * A backbone not heard for FWD_BLA_TIMEOUT_MS no longer counts.  Fail
 * safe under a flood of checks: an ANNOUNCE refused for the rate alone
 * keeps an alive backbone of its address and epoch alive (a forger can
 * keep a stopped backbone alive, and so this node from serving its
 * share of the LAN; it cannot make broadcasts loop).
 *
 * The rule, while at least one other backbone is alive ("engaged"):
 *  - each (client MAC, VLAN) is served by exactly one backbone: the one
 *    of {us} + the alive backbones with the highest
 *    BLAKE2b-64(MAC || VLAN || backbone address) (rendezvous hashing:
 *    every backbone computes the same from the same set, and a backbone
 *    that goes away only moves its own clients);
 *  - from the LAN (read from batsec0): broadcast and multicast of a
 *    client another backbone serves are dropped; unicast goes on, but
 *    its source is only learnt into our TT when we serve it, and a
 *    unicast to a client that another backbone announces is dropped (its
 *    destination is on this LAN and got it there);
 *  - from the mesh: a BCAST whose originator is a backbone of this LAN is
 *    not delivered (the LAN had it from that node), other broadcasts only
 *    when we serve their inner source; unicast is always delivered;
 *  - local clients another backbone serves are forgotten (not announced)
 *    when the set changes (fwd_bla_tick).
 *  - when the set of alive backbones changes, we write a CLAIM frame into
 *    batsec0 for every mesh client (remote TT) we serve now, with that
 *    client's MAC as its Ethernet source: the bridges of the LAN (and
 *    our own br0) learn that the client is reached through us, not
 *    through the backbone that served it before (as batman-adv's claim
 *    frames); at most FWD_BLA_CLAIM_BURST a tick.  A CLAIM read from
 *    batsec0 is only counted: it carries no authority.
 * For FWD_BLA_WAIT_MS after bla is turned on (the daemon starts), before
 * the other backbones can have been heard, broadcast and multicast are
 * dropped both ways; and the BCASTs of an originator whose route is
 * younger than FWD_BLA_NEW_ORIG_MS are not delivered (it may be a
 * backbone of this LAN whose ANNOUNCE we could not check without that
 * route), whether another backbone is alive or not.
 * Independent of bla: frames to the group address are never sent into
 * the mesh, and never delivered from it.
 *
 * Bounded: FWD_BLA_BACKBONE_MAX backbones (an entry is only made for a
 * verified ANNOUNCE; when full, a timed-out one is reused, else refused).
 */
#ifndef BATSEC_FWD_BLA_H
#define BATSEC_FWD_BLA_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "fwd_tables.h"

#define FWD_BLA_BACKBONE_MAX	16
#define FWD_BLA_ANNOUNCE_MS	1000
#define FWD_BLA_TIMEOUT_MS	3500
#define FWD_BLA_WAIT_MS		2500
#define FWD_BLA_NEW_ORIG_MS	1500		/* > FWD_BLA_ANNOUNCE_MS */
#define FWD_BLA_VERIFY_RATE	20		/* signature checks a second */
#define FWD_BLA_ETHERTYPE	0x88b5		/* IEEE 802 local experimental */
/*
 * ANNOUNCE: Ethernet (dst fwd_bla_group, src the node's mesh address,
 * FWD_BLA_ETHERTYPE), then "BSBL", version 1, type 1, two zero bytes,
 * mesh address (6), two zero bytes, epoch (4), seqno (4), all big endian,
 * then the Ed25519 signature (64) over those 24 body bytes.
 */
#define FWD_BLA_MAGIC		"BSBL"
#define FWD_BLA_VERSION		1
#define FWD_BLA_T_ANNOUNCE	1
#define FWD_BLA_BODY_LEN	24
#define FWD_BLA_FRAME_LEN	(14 + FWD_BLA_BODY_LEN + BS_SIG_LEN)	/* 102 */
/*
 * CLAIM: Ethernet (dst fwd_bla_group, src the claimed client's MAC,
 * FWD_BLA_ETHERTYPE), the body as an ANNOUNCE's with type 2 and epoch
 * and seqno zero, then zeros to 60 bytes; not signed.
 */
#define FWD_BLA_T_CLAIM		2
#define FWD_BLA_CLAIM_LEN	60
#define FWD_BLA_CLAIM_BURST	128		/* CLAIMs a tick */

extern const uint8_t fwd_bla_group[BS_ADDR_LEN];	/* ff:43:05:ba:5e:00 */

struct fwd_bla_announce {
	uint8_t addr[BS_ADDR_LEN];
	uint32_t epoch;
	uint32_t seqno;
	const uint8_t *body;		/* FWD_BLA_BODY_LEN signed bytes */
	const uint8_t *sig;
};

struct fwd_bla_backbone {
	uint8_t addr[BS_ADDR_LEN];
	uint32_t epoch;			/* of its last ANNOUNCE */
	uint32_t seqno;
	uint64_t first_ms;		/* heard first (this time alive) */
	uint64_t last_ms;		/* last ANNOUNCE believed */
	uint8_t used;
	uint8_t alive;			/* 0 after FWD_BLA_TIMEOUT_MS */
};

struct fwd_bla_counters {
	uint64_t announced;		/* our ANNOUNCEs written */
	uint64_t heard;			/* ANNOUNCEs believed */
	uint64_t own;			/* our own, come back */
	uint64_t malformed;		/* to the group, not an ANNOUNCE */
	uint64_t refused_unknown;	/* no route, or not its epoch */
	uint64_t refused_replay;	/* seqno not newer */
	uint64_t refused_sig;		/* bad signature */
	uint64_t refused_rate;		/* over FWD_BLA_VERIFY_RATE */
	uint64_t refused_full;		/* table full of alive backbones */
	uint64_t timeouts;		/* backbones no longer heard */
	uint64_t drops_lan;		/* LAN bcast/mcast of another's client */
	uint64_t drops_lan_unicast;	/* LAN unicast to another's client */
	uint64_t drops_mesh;		/* mesh bcast for another's source */
	uint64_t drops_backbone;	/* mesh bcast from a backbone of ours */
	uint64_t drops_wait;		/* bcast/mcast in the wait period */
	uint64_t drops_new_orig;	/* mesh bcast of a new originator */
	uint64_t drops_group;		/* group frames from the mesh */
	uint64_t unlearnt;		/* local clients given up */
	uint64_t claims_sent;		/* our CLAIMs written */
	uint64_t claims_heard;		/* other backbones' CLAIMs read */
};

struct fwd_bla {
	int enabled;
	uint64_t enabled_ms;		/* wait period from here */
	uint64_t announce_ms;		/* last ANNOUNCE written, 0 none */
	uint32_t seqno;			/* of our last ANNOUNCE */
	uint32_t tokens;		/* signature checks (a bucket) */
	uint64_t refill_ms;
	struct fwd_bla_backbone bb[FWD_BLA_BACKBONE_MAX];
	int claiming;			/* the set changed: CLAIMs to write */
	size_t claim_cursor;		/* in the remote TT */
	struct fwd_bla_counters c;
};

/* Disabled, empty. */
void	fwd_bla_init(struct fwd_bla *b);
/* On or off (the table emptied, a new wait period when turned on). */
void	fwd_bla_enable(struct fwd_bla *b, int on, uint64_t now_ms);

/* 1 when frame (at least 14 bytes) is to the group address. */
int	fwd_bla_is_group(const uint8_t *frame, size_t len);

/* Build our ANNOUNCE into out; its length (FWD_BLA_FRAME_LEN) or 0. */
size_t	fwd_bla_build(uint8_t out[static FWD_BLA_FRAME_LEN],
	    const struct bs_identity *id, uint32_t epoch, uint32_t seqno);

/*
 * Our CLAIM of the remote client (mac, vid) into out: its length
 * (FWD_BLA_CLAIM_LEN).  Untagged (vid 0) or one 802.1Q tag before the
 * ethertype (then the same length: the padding is 4 bytes shorter).
 */
size_t	fwd_bla_claim_build(uint8_t out[static FWD_BLA_CLAIM_LEN],
	    const uint8_t own[static BS_ADDR_LEN],
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid);
/* A CLAIM, exactly FWD_BLA_CLAIM_LEN bytes: 1, else 0. */
int	fwd_bla_claim_parse(const uint8_t *frame, size_t len);

/*
 * The next CLAIM to write, when the set changed (fwd_bla_tick says so):
 * its length, 0 when there is none left.
 */
size_t	fwd_bla_claim_next(struct fwd_bla *b, const struct fwd_tables *t,
	    const uint8_t own[static BS_ADDR_LEN],
	    uint8_t out[static FWD_BLA_CLAIM_LEN]);

/* Parse an ANNOUNCE, exactly FWD_BLA_FRAME_LEN bytes: 1, else 0. */
int	fwd_bla_parse(const uint8_t *frame, size_t len,
	    struct fwd_bla_announce *a);

/*
 * A group frame read from batsec0: checked as above and, when believed,
 * its sender (re)made an alive backbone.  1 believed, 0 not.
 */
int	fwd_bla_heard(struct fwd_bla *b, const struct fwd_tables *t,
	    const uint8_t own[static BS_ADDR_LEN], const uint8_t *frame,
	    size_t len, uint64_t now_ms);

/* Alive backbones other than us. */
size_t	fwd_bla_alive(const struct fwd_bla *b);
/* In the wait period after turning on. */
int	fwd_bla_waiting(const struct fwd_bla *b, uint64_t now_ms);
/* enabled and (waiting or another backbone alive): the rule applies. */
int	fwd_bla_engaged(const struct fwd_bla *b, uint64_t now_ms);
/* addr is an alive backbone (not us). */
int	fwd_bla_is_backbone(const struct fwd_bla *b,
	    const uint8_t addr[static BS_ADDR_LEN]);

/*
 * The backbone serving (mac, vid) among us and the alive backbones, into
 * winner (optional); 1 when it is us.
 */
int	fwd_bla_elect(const struct fwd_bla *b,
	    const uint8_t own[static BS_ADDR_LEN],
	    const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
	    uint8_t *winner);

enum fwd_bla_verdict {
	FWD_BLA_PASS = 0,		/* on, source learnt as usual */
	FWD_BLA_PASS_NOLEARN,		/* on, source not learnt */
	FWD_BLA_DROP,			/* dropped (counted) */
	FWD_BLA_CONSUMED		/* a group frame: not for the mesh */
};

/*
 * A frame read from batsec0 (len >= 14, a unicast source, vid as the TT
 * entry would have it): what becomes of it.
 */
enum fwd_bla_verdict fwd_bla_from_lan(struct fwd_bla *b,
	    const struct fwd_tables *t, const uint8_t own[static BS_ADDR_LEN],
	    const uint8_t *frame, size_t len, uint16_t vid, uint64_t now_ms);

/*
 * An inner frame (len >= 14) of a BCAST from originator orig: 1 deliver
 * it to batsec0, 0 not (counted).
 */
int	fwd_bla_to_lan(struct fwd_bla *b, const struct fwd_tables *t,
	    const uint8_t own[static BS_ADDR_LEN],
	    const uint8_t orig[static BS_ADDR_LEN], const uint8_t *inner,
	    size_t len, uint16_t vid, uint64_t now_ms);

/*
 * Once a second or so: time backbones out, forget local clients another
 * backbone serves (while engaged), and when FWD_BLA_ANNOUNCE_MS passed,
 * our next ANNOUNCE into out (its length returned; 0: none due).
 */
size_t	fwd_bla_tick(struct fwd_bla *b, struct fwd_tables *t,
	    const struct bs_identity *id, uint32_t epoch, uint64_t now_ms,
	    uint8_t out[static FWD_BLA_FRAME_LEN]);

#endif /* BATSEC_FWD_BLA_H */
