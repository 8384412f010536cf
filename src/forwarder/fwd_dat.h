/*
 * fwd_dat.h — the local ARP and IPv6 neighbour discovery answer cache
 * ("distributed ARP table", batsec-protocol(7) "ARP ANSWERS",
 * batsecd(8)).
 *
 * A node caches IPv4 address -> (MAC, VLAN, originator) mappings it
 * reads from ARP frames (requests' sender fields, replies, gratuitous
 * ARP) that reached it from the mesh inside a verified BCAST or an
 * opened UNICAST, and answers an ARP request of one of its own clients
 * on batsec0 from that cache instead of flooding it into the mesh.
 *
 * IPv6 the same way (RFC 4861): mappings target -> target link-layer
 * address (and the Router flag) come from neighbour advertisements only
 * (solicited, unsolicited, or our clients' announcing ones, below); a
 * multicast neighbour solicitation of one of our clients to the target's
 * solicited-node address is answered with a neighbour advertisement
 * (Solicited set, Override clear, the learnt Router flag, the target
 * link-layer address option).  Duplicate address detection (source ::)
 * is never answered.  One table holds both: IPv4 addresses are keyed as
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d), which no ND frame may
 * state.
 *
 * What makes a mapping trustworthy enough to answer from:
 *  - learnt: its MAC is, at that moment, a client the frame's originator
 *    claims in its signed TT (the remote TT, fwd_client_find), else it
 *    is refused (refused_unclaimed);
 *  - served: the MAC is still claimed by that same originator, which we
 *    still have a route to, and the entry is younger than
 *    FWD_DAT_TIMEOUT_MS since it was last learnt; otherwise it is
 *    dropped (invalidated / expired) and the request flooded;
 *  - conflict: a second, different MAC (or originator) for an address
 *    that has a mapping stops all answers for that address for
 *    FWD_DAT_TIMEOUT_MS after the last conflicting frame (the requests
 *    are flooded, the hosts see every answer themselves).
 * IP addresses are not signed anywhere: a member that announces an
 * address with its own claimed MAC before the real owner was ever heard
 * is believed until the owner is heard (then: conflict).
 *
 * Bounded: FWD_DAT_MAX entries, a keyed hash index, least recently
 * learnt entry evicted when full; at most FWD_DAT_PER_ORIG entries
 * learnt from one originator (its own least recently learnt one makes
 * room), so that one member cannot push the others' mappings out.
 */
#ifndef BATSEC_FWD_DAT_H
#define BATSEC_FWD_DAT_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "fwd_tables.h"

#define FWD_DAT_MAX		1024
/* Entries one originator's frames may hold; its own oldest go first. */
#define FWD_DAT_PER_ORIG	128
#define FWD_DAT_BUCKETS		2048		/* power of two */
#define FWD_DAT_TIMEOUT_MS	300000		/* 5 minutes */
/*
 * Our own clients' addresses: an ARP reply of one of them goes into the
 * mesh as BCAST (every node learns the mapping) when its address was not
 * announced so (or by a flooded request of it) for
 * FWD_DAT_ANNOUNCE_MS; FWD_DAT_OWN_MAX addresses remembered, the oldest
 * forgotten first.
 */
#define FWD_DAT_OWN_MAX		256
#define FWD_DAT_ANNOUNCE_MS	(FWD_DAT_TIMEOUT_MS / 2)
/*
 * A reply we build: Ethernet, optional 802.1Q tag, then ARP and padding
 * (64 bytes at most) or IPv6 and a neighbour advertisement with its
 * target link-layer address option (18 + 40 + 32 = 90 bytes).
 */
#define FWD_DAT_REPLY_MAX	96

/* An ARP frame over Ethernet, IPv4 (RFC 826), as read from a frame. */
struct fwd_arp {
	uint16_t vid;			/* 0, or WIRE_VID_TAGGED | id */
	int tagged;			/* an 802.1Q header was present */
	uint16_t tci;			/* its TCI when tagged */
	uint16_t op;			/* 1 request, 2 reply */
	const uint8_t *eth_dst;
	const uint8_t *eth_src;
	const uint8_t *sha;		/* sender hardware address */
	uint8_t spa[4];			/* sender protocol address */
	const uint8_t *tha;
	uint8_t tpa[4];
};

/*
 * An IPv6 neighbour solicitation or advertisement (RFC 4861) over
 * Ethernet, untagged or one 802.1Q tag, checked whole: IPv6 next header
 * ICMPv6 (no extension headers), hop limit 255, the payload length to the
 * end of the frame, ICMPv6 code 0, checksum, a target that is not
 * multicast, every option of non-zero length within the message, at most
 * one link-layer address option of the kind the message carries (source
 * in a solicitation, target in an advertisement), 8 bytes long; none in a
 * solicitation from ::; no Solicited flag to a multicast destination.
 */
#define FWD_ND_NS		135
#define FWD_ND_NA		136
#define FWD_ND_F_ROUTER		0x80	/* NA flags, ICMPv6 byte 4 */
#define FWD_ND_F_SOLICITED	0x40
#define FWD_ND_F_OVERRIDE	0x20

struct fwd_nd {
	uint16_t vid;			/* 0, or WIRE_VID_TAGGED | id */
	int tagged;
	uint16_t tci;
	uint8_t type;			/* FWD_ND_NS or FWD_ND_NA */
	uint8_t flags;			/* NA: FWD_ND_F_* */
	const uint8_t *eth_dst;
	const uint8_t *eth_src;
	uint8_t src[16];		/* IPv6 source */
	uint8_t dst[16];		/* IPv6 destination */
	uint8_t target[16];
	const uint8_t *lla;		/* NS: source, NA: target LLA; or NULL */
};

struct fwd_dat_counters {
	uint64_t answered;		/* requests answered on batsec0 */
	uint64_t flooded;		/* requests of our clients flooded */
	uint64_t learnt;		/* mappings stored or refreshed */
	uint64_t refused_unclaimed;	/* MAC not claimed by the sender */
	uint64_t conflicts;		/* a second mapping for an address */
	uint64_t invalidated;		/* claim moved or gone, no route */
	uint64_t expired;		/* older than FWD_DAT_TIMEOUT_MS */
	uint64_t evicted;		/* the cache was full */
	uint64_t announced;		/* our clients' replies flooded */
	/* IPv6 neighbour discovery; the ones above count ARP, except
	 * refused_unclaimed .. evicted, which count both. */
	uint64_t nd_answered;		/* solicitations answered */
	uint64_t nd_flooded;		/* answerable ones flooded */
	uint64_t nd_learnt;		/* from advertisements */
	uint64_t nd_announced;		/* our clients' NAs flooded */
	uint64_t nd_malformed;		/* NS/NA failing fwd_dat_nd_parse */
};

struct fwd_dat_entry {
	uint8_t ip[16];			/* IPv6, or IPv4-mapped */
	uint16_t vid;
	uint8_t mac[BS_ADDR_LEN];
	uint8_t orig[BS_ADDR_LEN];
	uint64_t learnt_ms;		/* last learnt (or conflict seen) */
	uint8_t conflict;		/* 1: never answered from */
	uint8_t router;			/* IPv6: the NA's Router flag */
	uint8_t used;
	int32_t hnext;			/* hash chain */
	int32_t prev, next;		/* learning order, newest first */
};

struct fwd_dat_own {
	uint8_t ip[16];			/* as in fwd_dat_entry */
	uint16_t vid;
	uint64_t ms;			/* announced; 0: free slot */
};

struct fwd_dat {
	int enabled;
	uint8_t hkey[crypto_shorthash_KEYBYTES];
	struct fwd_dat_entry e[FWD_DAT_MAX];
	int32_t bucket[FWD_DAT_BUCKETS];
	int32_t head, tail;		/* newest, oldest; -1: empty */
	int32_t free_;			/* free list (through hnext) */
	size_t n;
	struct fwd_dat_own own[FWD_DAT_OWN_MAX];
	struct fwd_dat_counters c;
};

/* Empty, enabled, with a fresh hash key. */
void	fwd_dat_init(struct fwd_dat *dt);
/* Forget every mapping (counters kept); e.g. when turned off. */
void	fwd_dat_clear(struct fwd_dat *dt);
size_t	fwd_dat_count(const struct fwd_dat *dt);

/*
 * Parse an Ethernet frame as an ARP frame for IPv4 over Ethernet
 * (untagged or one 802.1Q tag).  1 and *a filled, or 0.
 */
int	fwd_dat_arp_parse(const uint8_t *frame, size_t len, struct fwd_arp *a);

/*
 * The mapping spa -> sha of ARP frame a, which came from originator orig
 * in a verified frame: stored when t's remote TT has (sha, vid) claimed
 * by orig.  1 stored or refreshed, 0 ignored (not a unicast MAC, address
 * 0.0.0.0 or a group address), -1 refused (unclaimed or conflict).
 */
int	fwd_dat_learn(struct fwd_dat *dt, const struct fwd_tables *t,
	    const struct fwd_arp *a, const uint8_t orig[static BS_ADDR_LEN],
	    uint64_t now_ms);

/*
 * The MAC to answer for ip in vid, in mac (and its originator in orig,
 * optional): 1 when an entry may be served now (checks above; an entry
 * that fails them is dropped and counted), 0 otherwise.
 */
int	fwd_dat_lookup(struct fwd_dat *dt, const struct fwd_tables *t,
	    const uint8_t ip[static 4], uint16_t vid, uint64_t now_ms,
	    uint8_t mac[static BS_ADDR_LEN], uint8_t *orig);

/*
 * A request a of one of our clients: when it can be answered, the reply
 * (to the requester, from the cached MAC, in the request's VLAN) into
 * out (FWD_DAT_REPLY_MAX bytes), its length returned and counted as
 * answered; 0: flood it (counted as flooded when it was a request that
 * could have been answered: not gratuitous, not a probe).
 */
size_t	fwd_dat_answer(struct fwd_dat *dt, const struct fwd_tables *t,
	    const struct fwd_arp *a, uint64_t now_ms,
	    uint8_t out[static FWD_DAT_REPLY_MAX]);

/*
 * ARP frame a of one of our clients goes into the mesh.  A request (not
 * answered) announces its sender's mapping to every node: noted, 0.  A
 * reply: 1 when it is to be flooded (BCAST) as the announcement of its
 * sender's address, noted and counted; 0: sent as usual.
 */
int	fwd_dat_own(struct fwd_dat *dt, const struct fwd_arp *a,
	    uint64_t now_ms);

/*
 * Parse an Ethernet frame as a neighbour solicitation or advertisement
 * (the checks above).  1 and *nd filled; 0: not one (not IPv6, not
 * ICMPv6 types 135 or 136 right after the IPv6 header); -1: one that
 * fails a check (to be counted nd_malformed and left alone).
 */
int	fwd_dat_nd_parse(const uint8_t *frame, size_t len, struct fwd_nd *nd);

/*
 * fwd_dat_learn for the advertisement nd (a solicitation, or an
 * advertisement without a target link-layer address: 0, ignored).
 */
int	fwd_dat_nd_learn(struct fwd_dat *dt, const struct fwd_tables *t,
	    const struct fwd_nd *nd, const uint8_t orig[static BS_ADDR_LEN],
	    uint64_t now_ms);

/* fwd_dat_lookup for an IPv6 address; *router (optional): its flag. */
int	fwd_dat_lookup6(struct fwd_dat *dt, const struct fwd_tables *t,
	    const uint8_t ip[static 16], uint16_t vid, uint64_t now_ms,
	    uint8_t mac[static BS_ADDR_LEN], uint8_t *router);

/*
 * fwd_dat_answer for a solicitation nd of one of our clients: answered
 * when it is multicast to the target's solicited-node address (Ethernet
 * and IPv6), from a unicast source (not ::, so never duplicate address
 * detection) with a source link-layer address equal to the Ethernet
 * source, and the target is served; the advertisement (to that source,
 * from the cached MAC and the target, in the request's VLAN) into out.
 */
size_t	fwd_dat_nd_answer(struct fwd_dat *dt, const struct fwd_tables *t,
	    const struct fwd_nd *nd, uint64_t now_ms,
	    uint8_t out[static FWD_DAT_REPLY_MAX]);

/*
 * fwd_dat_own for an advertisement nd of one of our clients to a unicast
 * destination: 1 when it is to be flooded as the announcement of its
 * target (once per FWD_DAT_ANNOUNCE_MS, shared with ARP's bound).
 */
int	fwd_dat_nd_own(struct fwd_dat *dt, const struct fwd_nd *nd,
	    uint64_t now_ms);

/* Drop expired entries and those whose claim moved; how many went. */
size_t	fwd_dat_purge(struct fwd_dat *dt, const struct fwd_tables *t,
	    uint64_t now_ms);

#endif /* BATSEC_FWD_DAT_H */
