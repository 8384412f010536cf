/*
 * ipc_msg.h — every message of the forwarder <-> parser channel.
 *
 * This is the one file that defines the message types and their payloads.
 * ipc.h has the functions that send, receive and check them.
 *
 * Framing: one message per SOCK_SEQPACKET datagram,
 *	struct ipc_hdr (8 bytes) || payload (hdr.len bytes)
 * Both ends are the same binary on the same machine, so integers are in
 * host byte order and payloads are the C structs below, copied whole.
 * Every struct has explicit reserved fields instead of compiler padding
 * (checked by the static assertions at the end), and every reserved field
 * must be 0: the receiver refuses a message whose reserved bytes are not.
 *
 * Fixed-size types: the payload is exactly sizeof(struct).
 * Variable-size types (FRAME, POLICY_CHUNK, PINS, TT, RELAY, STATS,
 * ROUTE_ALT): the struct
 * ends in an array sized for the maximum; the payload is the fixed part
 * (everything before the array) followed by count elements, where count is
 * the struct's own count or length field.  Nothing after them is allowed.
 *
 * Strings (LOG text, IFACE name) live in fixed char fields: they must be
 * NUL-terminated inside the field, printable ASCII (0x20..0x7e) before the
 * NUL and all zero after it.
 *
 * The number ranges of the types say who sends them: 0x01..0x3f go from
 * the forwarder to the parser, 0x41..0x7f from the parser to the
 * forwarder.  A message sent the wrong way is refused like an unknown type.
 */
#ifndef BATSEC_IPC_MSG_H
#define BATSEC_IPC_MSG_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

/* ---- framing ------------------------------------------------------------ */

struct ipc_hdr {
	uint16_t type;		/* enum ipc_type */
	uint16_t len;		/* payload bytes after the header */
	uint32_t reserved;	/* 0 */
};

#define IPC_HDR_LEN		8
/*
 * Largest payload of any type: a FRAME of IPC_FRAME_MAX bytes plus its
 * 20 bytes of metadata, rounded up.  Checked before anything is copied.
 */
#define IPC_MAX_PAYLOAD		4160
#define IPC_MAX_MSG		(IPC_HDR_LEN + IPC_MAX_PAYLOAD)

enum ipc_type {
	/* forwarder -> parser */
	IPC_CONFIG		= 0x01,
	IPC_POLICY_BEGIN	= 0x02,
	IPC_POLICY_CHUNK	= 0x03,
	IPC_POLICY_END		= 0x04,
	IPC_IFACE		= 0x05,
	IPC_FRAME		= 0x06,
	IPC_LINK_KEY		= 0x07,
	IPC_PINS		= 0x08,
	IPC_HEARTBEAT		= 0x09,
	/* parser -> forwarder */
	IPC_LOG			= 0x41,
	IPC_ROUTE_ADD		= 0x42,
	IPC_ROUTE_DEL		= 0x43,
	IPC_NEIGH		= 0x44,
	IPC_LINK_KEY_REQ	= 0x45,
	IPC_TT			= 0x46,
	IPC_GW			= 0x47,
	IPC_RELAY		= 0x48,
	IPC_STATS		= 0x49,
	IPC_REVOKE		= 0x4a,
	IPC_PIN			= 0x4b,
	IPC_HEARTBEAT_ACK	= 0x4c,
	IPC_CERT		= 0x4d,
	IPC_ROUTE_ALT		= 0x4e,
	IPC_MCAST		= 0x4f,
	IPC_DESC_WANT		= 0x50,
	IPC_HELLO_SIGN		= 0x51,
};

/* ---- limits shared by both ends ----------------------------------------- */

/*
 * Control frames (HELLO, OGM) are passed whole.  The wire codec accepts
 * OGM frames up to WIRE_OGM_MAX_LEN (4096) bytes, which is more than the
 * 1518 bytes of a standard Ethernet payload (mesh interfaces usually run
 * with MTU 1630, jumbo links more), so FRAME carries up to 4096 bytes; the
 * forwarder drops a longer control frame before it reaches the channel.
 */
#define IPC_FRAME_MAX		4096
/* An OGM entry: 28 mutable + 64 fixed signed + 1024 TVLV + 64 signature. */
#define IPC_RELAY_MAX		1170
#define IPC_LOG_TEXT_MAX	256	/* field size: up to 255 chars + NUL */
#define IPC_TT_MAX		64	/* client MACs per TT message */
#define IPC_MCAST_MAX		32	/* groups per MCAST (WIRE_MCAST_MAX) */
#define IPC_STATS_MAX		96	/* counters per STATS message */
#define IPC_PINS_MAX		100	/* keys per PINS message */
/*
 * Policy snapshots (bs_policy_snapshot_encode output) travel in chunks:
 * POLICY_BEGIN{serial, total}, POLICY_CHUNK{serial, offset, data}...,
 * POLICY_END{serial, total}.  total is checked against IPC_POLICY_MAX
 * before the receiver allocates anything; chunks must arrive in order and
 * exactly fill total bytes.
 */
#define IPC_POLICY_MAX		(8u << 20)
#define IPC_POLICY_CHUNK_MAX	4096
/* Neighbours the forwarder tracks for the checks in ipc_check(). */
#define IPC_MAX_NEIGH		256
/* The hop count of a route: 1 when the originator is the next hop. */
#define IPC_ROUTE_MAX_HOPS	(BS_MAXHOPS + 1)
/* Next-hop candidates per originator besides the best (8 in all). */
#define IPC_ROUTE_ALT_MAX	7

/* Log levels are syslog(3) priorities; EMERG..CRIT are not accepted. */
#define IPC_LOG_ERR		3
#define IPC_LOG_WARNING		4
#define IPC_LOG_NOTICE		5
#define IPC_LOG_INFO		6
#define IPC_LOG_DEBUG		7

/* Ethertypes below this are 802.3 length fields. */
#define IPC_ETHERTYPE_MIN	0x0600
/* HELLO and OGM intervals, ms (as WIRE_INTERVAL_MIN/MAX). */
#define IPC_INTERVAL_MIN	100
#define IPC_INTERVAL_MAX	60000
#define IPC_MTU_MIN		68
#define IPC_MTU_MAX		65535

/* ---- forwarder -> parser ------------------------------------------------ */

/* IPC_CONFIG: sent once after the parser starts, before anything else. */
struct ipc_config {
	uint8_t own_pk[BS_PK_LEN];
	uint8_t own_addr[BS_ADDR_LEN];	/* == bs_mesh_addr(own_pk) */
	uint16_t ethertype;		/* >= IPC_ETHERTYPE_MIN */
	uint32_t epoch;
	uint16_t hello_ms;		/* IPC_INTERVAL_MIN..MAX */
	uint16_t ogm_ms;		/* IPC_INTERVAL_MIN..MAX */
	uint8_t hop_penalty;		/* 0..255 */
	uint8_t log_level;		/* IPC_LOG_ERR..IPC_LOG_DEBUG */
	uint8_t reserved[2];
};

/* IPC_POLICY_BEGIN and IPC_POLICY_END. */
struct ipc_policy_mark {
	uint32_t serial;		/* the same in BEGIN, CHUNKs and END */
	uint32_t total;			/* snapshot bytes, <= IPC_POLICY_MAX */
};

/* IPC_POLICY_CHUNK: payload = 12 + len bytes. */
struct ipc_policy_chunk {
	uint32_t serial;
	uint32_t offset;		/* bytes of the snapshot before this one */
	uint16_t len;			/* 1..IPC_POLICY_CHUNK_MAX */
	uint16_t reserved;
	uint8_t data[IPC_POLICY_CHUNK_MAX];
};

enum ipc_iface_state {
	IPC_IFACE_DOWN = 0,
	IPC_IFACE_UP = 1,
	IPC_IFACE_REMOVED = 2,	/* gone; mtu and mac are 0 */
};

/*
 * IPC_IFACE: a mesh interface appeared, changed or went away (also sent
 * again when a reload changes its hop penalty or medium).  hop_penalty
 * and half_duplex are 0 when REMOVED.
 */
struct ipc_iface {
	uint32_t ifindex;		/* 1..INT32_MAX */
	uint32_t mtu;			/* IPC_MTU_MIN..MAX (0 when REMOVED) */
	uint8_t mac[BS_ADDR_LEN];	/* unicast, non-zero (0 when REMOVED) */
	uint8_t state;			/* enum ipc_iface_state */
	uint8_t hop_penalty;		/* 0..255: its `hop-penalty` */
	char name[IFNAMSIZ];		/* no '/', ':' or space, not empty */
	uint8_t half_duplex;		/* 0 or 1: wireless */
	uint8_t reserved[3];
};

/* IPC_FRAME: one received control frame; payload = 20 + len bytes. */
struct ipc_frame {
	uint32_t ifindex;		/* where it arrived */
	uint8_t src[BS_ADDR_LEN];	/* Ethernet source: unicast, non-zero */
	uint8_t dst[BS_ADDR_LEN];	/* Ethernet destination */
	uint16_t len;			/* 1..IPC_FRAME_MAX */
	uint16_t reserved;
	uint8_t data[IPC_FRAME_MAX];	/* the Ethernet payload */
};

enum ipc_link_key_status {
	IPC_LINK_KEY_OK = 0,
	IPC_LINK_KEY_REFUSED = 1,	/* no such link key; key, key_id 0 */
};

/*
 * IPC_LINK_KEY: answer to IPC_LINK_KEY_REQ, or unasked when the
 * forwarder made a new link salt.  key is the OGM key of the link (the
 * only link secret the parser ever holds; batsec-protocol(7), LINK KEYS):
 * the parser wipes its copies with sodium_memzero when the neighbour goes
 * away or the key has been replaced.
 */
struct ipc_link_key {
	uint8_t peer_pk[BS_PK_LEN];
	uint32_t ifindex;
	uint8_t status;			/* enum ipc_link_key_status */
	uint8_t reserved[3];
	uint8_t key_id[BS_KEYID_LEN];	/* bs_link_keyid(key) */
	uint8_t key[BS_LINKKEY_LEN];
};

/*
 * IPC_HEARTBEAT (forwarder -> parser) and IPC_HEARTBEAT_ACK (parser ->
 * forwarder, the same seq): the parser's liveness check (batsecd(8),
 * PRIVILEGE SEPARATION).  The forwarder numbers its heartbeats 1, 2, ...
 * on each channel; the parser answers each one when it reads it, so an
 * answer also says that every message sent before that heartbeat (a new
 * policy, say) has been read.  An answer for a heartbeat that was not
 * sent, or answered already, is a violation.
 */
struct ipc_heartbeat {
	uint32_t seq;			/* >= 1 */
	uint32_t reserved;
};

/* ---- parser -> forwarder ------------------------------------------------ */

/* IPC_LOG: a log line of the parser, which has no other way to log. */
struct ipc_log {
	uint8_t level;			/* IPC_LOG_ERR..IPC_LOG_DEBUG */
	uint8_t reserved[3];
	char text[IPC_LOG_TEXT_MAX];	/* printable, NUL-terminated */
};

/*
 * IPC_ROUTE_ADD: add or change the route to an originator.  The next hop
 * must be a neighbour that is up (IPC_NEIGH) on ifindex.  The parser also
 * resends an unchanged route once per new OGM seqno that arrives from the
 * best next hop (a refresh: the forwarder may expire routes that go
 * without one).  epoch is the originator's, from its newest accepted OGM
 * (signed, never lower than before): a higher one tells the forwarder the
 * originator restarted, so its broadcast sequence numbers began anew.
 */
struct ipc_route {
	uint8_t orig_pk[BS_PK_LEN];
	uint8_t orig_addr[BS_ADDR_LEN];	/* == bs_mesh_addr(orig_pk), not ours */
	uint8_t nexthop[BS_ADDR_LEN];	/* neighbour's mesh address */
	uint32_t ifindex;
	uint8_t tq;			/* 1..255 */
	uint8_t hops;			/* 1..IPC_ROUTE_MAX_HOPS */
	uint8_t reserved[2];
	uint32_t epoch;			/* >= 1 */
};

/* One next-hop candidate of an originator that is not the best. */
struct ipc_route_cand {
	uint8_t nexthop[BS_ADDR_LEN];	/* neighbour's mesh address */
	uint8_t tq;			/* its average TQ, 0..255 */
	uint8_t hops;			/* 1..IPC_ROUTE_MAX_HOPS */
	uint32_t ifindex;
};

/*
 * IPC_ROUTE_ALT: the other next-hop candidates of an originator, those
 * besides the best one of its last IPC_ROUTE_ADD, for display (batsec-ctl
 * o); the data plane uses the best only.  Sent after every ROUTE_ADD; it
 * replaces the previous list (count 0 clears it) and goes with the route
 * at ROUTE_DEL.  Each next hop must be an up neighbour (IPC_NEIGH) on its
 * ifindex, and no (nexthop, ifindex) pair may repeat.  Payload = 8 + 12 *
 * count bytes.
 */
struct ipc_route_alt {
	uint8_t orig_addr[BS_ADDR_LEN];	/* not ours */
	uint8_t count;			/* 0..IPC_ROUTE_ALT_MAX */
	uint8_t reserved;
	struct ipc_route_cand c[IPC_ROUTE_ALT_MAX];
};

/* IPC_ROUTE_DEL: forget the route to an originator. */
struct ipc_route_del {
	uint8_t orig_addr[BS_ADDR_LEN];
	uint8_t reserved[2];
};

enum ipc_neigh_state {
	IPC_NEIGH_DOWN = 0,
	IPC_NEIGH_UP = 1,
};

/*
 * IPC_NEIGH: a neighbour (public key on one interface) came up, changed,
 * or went down.  UP for a neighbour that is already up updates mac, tq and
 * rx_count, epoch and salt; the key of an (addr, ifindex) pair can never
 * change.  DOWN carries the same identity with tq = rx_count = 0 and a
 * zero salt.
 */
struct ipc_neigh {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];	/* == bs_mesh_addr(pk), not ours */
	uint8_t mac[BS_ADDR_LEN];	/* its interface MAC: unicast, non-zero */
	uint32_t ifindex;
	uint8_t state;			/* enum ipc_neigh_state */
	uint8_t tq;			/* link TQ, 0..255 */
	uint8_t rx_count;		/* its HELLOs heard of the last 64 */
	uint8_t flags;			/* IPC_NEIGH_F_*; 0 when DOWN */
	uint32_t epoch;			/* its HELLOs' epoch: >= 1 when UP;
					   a new one makes a new hop key */
	uint8_t salt[BS_LINKSALT_LEN];	/* its HELLOs' link salt: a new one
					   makes new link keys */
};

/*
 * IPC_NEIGH flags.  FRESH: the neighbour's HELLO said it knows no full
 * OGM entries yet (WIRE_HELLO_F_FRESH): the forwarder sends its own OGMs
 * full for a while (fwd_ogm_want_full), and signs its next HELLOs on that
 * interface (its parser started again and holds no link key).  SIGN: the
 * neighbour's HELLO does not list us, so it cannot check the tags of our
 * HELLOs: sign one soon (fwd_hello_sign_due).
 */
#define IPC_NEIGH_F_FRESH	0x01
#define IPC_NEIGH_F_SIGN	0x02
/*
 * DESC: this neighbour relays compact entries too far ahead of their
 * chain references for a quarter of the originators the parser knows (it
 * missed more sequence numbers than a walk may cover): the forwarder sets
 * the fresh flag in its HELLOs for a while, so that the neighbours hand
 * the full entries on (pcore_desc.h).  At most every PCORE_DESC_WANT_OGMS.
 */
#define IPC_NEIGH_F_DESC	0x04
/*
 * BACK (on the UP that announces a neighbour): it was our neighbour on
 * that interface and left (missed HELLOs) lately; its link key was kept
 * (pcore_lost_key).  It knows our description as a rule, so the forwarder
 * answers it without the new neighbour's full OGMs and signed HELLOs
 * (fwd_announce_burst with new_neigh 0); should it not, it asks for our
 * address (OWN).
 * OWN: the neighbour's HELLO asked for our own full entry (its want list
 * named us): our next OGM goes full.  At most every PCORE_WANT_AGAIN_OGMS
 * OGM intervals.
 */
#define IPC_NEIGH_F_BACK	0x08
#define IPC_NEIGH_F_OWN		0x10
#define IPC_NEIGH_F_MASK	0x1f

/*
 * IPC_DESC_WANT: a neighbour relayed a compact entry of this originator
 * and the parser holds no full entry it could take it by (or lost the
 * chain): the forwarder asks its neighbours for the full entry in its
 * next HELLOs (fwd_orig.h, struct fwd_wants).  At most PCORE_WANT_PER_OGM
 * per OGM interval.
 */
struct ipc_desc_want {
	uint8_t orig_addr[BS_ADDR_LEN];	/* a mesh address, not our own */
	uint8_t reserved[2];		/* 0 */
};

/*
 * IPC_HELLO_SIGN: a HELLO came in on ifindex with link tags the parser
 * cannot check, from a key the policy admits that is no neighbour there,
 * and it carries no tag under a key the parser holds or keeps for it:
 * the sender does not list us, so neither can check the other's HELLOs.
 * The forwarder signs its next HELLO there, within FWD_HELLO_REQ_GAP of
 * the last signed one (fwd_hello_sign_due), as for IPC_NEIGH_F_SIGN.
 * The HELLO is unauthenticated: the parser asks at most once every
 * PCORE_HELLO_SIGN_GAP HELLO intervals per interface (pcore_hello.c).
 */
struct ipc_hello_sign {
	uint32_t ifindex;
	uint32_t reserved;		/* 0 */
};

/* IPC_LINK_KEY_REQ: derive the link key with an up neighbour. */
struct ipc_link_key_req {
	uint8_t peer_pk[BS_PK_LEN];
	uint32_t ifindex;
};

struct ipc_tt_entry {
	uint8_t mac[BS_ADDR_LEN];	/* client MAC: unicast, non-zero */
	uint16_t vid;			/* 0 or 0x8000 | 1..4094 */
	uint8_t flags;			/* WIRE_TT_F_* as signed, others 0 */
	uint8_t reserved;		/* 0 */
};

/*
 * IPC_TT: with pages 0, the complete client list an originator announces
 * (replaces the previous one; count 0 clears it).  With pages > 0 (a
 * power of two, WIRE_TT_PAGES_MIN..MAX), one page of a paged table
 * (WIRE_TVLV_TT_PAGE): it replaces the originator's clients whose
 * wire_tt_bucket(mac, vid, pages) is page, and every entry must be in
 * that bucket.  Payload = 12 + 10 * count bytes.
 */
struct ipc_tt {
	uint8_t orig_addr[BS_ADDR_LEN];
	uint8_t count;			/* 0..IPC_TT_MAX, no duplicate entries */
	uint8_t pages;			/* 0: the whole list */
	uint8_t page;			/* < pages; 0 when pages is 0 */
	uint8_t reserved[3];
	struct ipc_tt_entry e[IPC_TT_MAX];
};

/*
 * IPC_MCAST: the multicast listeners an originator's newest signed OGM
 * announces (WIRE_TVLV_MCAST): known 1 with its flags and groups, or
 * known 0 (flags 0, count 0) when that OGM had no MCAST container.
 * Payload = 12 + 6 * count bytes.
 */
struct ipc_mcast {
	uint8_t orig_addr[BS_ADDR_LEN];
	uint8_t count;			/* 0..IPC_MCAST_MAX, none twice */
	uint8_t known;			/* 0 or 1 */
	uint8_t flags;			/* WIRE_MCAST_F_* */
	uint8_t reserved[3];
	uint8_t group[IPC_MCAST_MAX][BS_ADDR_LEN];
};

enum ipc_gw_op {
	IPC_GW_WITHDRAW = 0,		/* down = up = 0 */
	IPC_GW_ANNOUNCE = 1,		/* down > 0, up > 0 */
};

/* IPC_GW: an originator's gateway announcement, or its withdrawal. */
struct ipc_gw {
	uint8_t orig_addr[BS_ADDR_LEN];
	uint8_t op;			/* enum ipc_gw_op */
	uint8_t reserved;
	uint32_t down;			/* units of 100 kbit/s */
	uint32_t up;
};

#define IPC_IFINDEX_ALL		0	/* IPC_RELAY: every mesh interface */

/*
 * IPC_RELAY: one OGM entry to rebroadcast, its mutable part already
 * rewritten by the parser (ttl, tq, hops, previous sender, hop-chain
 * element; the previous sender is the neighbour the parser got the entry
 * from, as batsec-protocol(7) says, not this node).  The forwarder aggregates entries into OGM frames and adds the
 * link-auth trailer.  Payload = 8 + len bytes; the entry must be well
 * formed as far as sizes go (a full entry: len == 146 + its tvlv_len; a
 * compact one: len == 32; hops <= 32, ttl > 0, reserved bytes 0);
 * signatures and chains are the parser's business.
 */
struct ipc_relay {
	uint32_t ifindex;		/* IPC_IFINDEX_ALL or one interface */
	uint16_t len;			/* 32 (compact) or 146..
					   IPC_RELAY_MAX (full) */
	uint16_t reserved;
	uint8_t entry[IPC_RELAY_MAX];
};

/*
 * IPC_REVOKE: a CA revocation record (BS_REVOKE_LEN canonical bytes) that
 * arrived in a WIRE_TVLV_REVOKE container and that the parser verified
 * against one of its anchors.  The forwarder checks the format here and
 * the issuer and signature again itself (fwd_trust.h), stores the record
 * and spreads it in its own OGMs.
 */
struct ipc_revoke {
	uint8_t rec[BS_REVOKE_LEN];
};

/*
 * IPC_PIN: the parser pinned a stranger key's mesh address (TOFU, first
 * use, batsec-policy(5)).  The forwarder keeps the pins in
 * STATE_DIR/pins, so that they outlive the parser and the daemon.
 */
struct ipc_pin {
	uint8_t pk[BS_PK_LEN];		/* not all zero */
};

/*
 * IPC_CERT: a node certificate (BS_CERT_LEN canonical bytes) the parser
 * verified and keeps, sent before any message that relies on it (NEIGH,
 * ROUTE_ADD, TT, GW of that key).  The forwarder admits a key by
 * certificate only if it verified the certificate itself against its own
 * policy (fwd_admit.h); the parser's word is not enough.
 */
struct ipc_cert {
	uint8_t cert[BS_CERT_LEN];
};

/*
 * IPC_PINS (forwarder -> parser): the pins the forwarder keeps, sent to
 * every new parser right after its policy; each key owns its mesh address
 * as if the parser had seen it first.  count keys, none twice, none all
 * zero.
 */
struct ipc_pins {
	uint16_t count;			/* 1..IPC_PINS_MAX */
	uint8_t reserved[6];
	uint8_t pk[IPC_PINS_MAX][BS_PK_LEN];
};

/*
 * Counter ids of IPC_STATS, append-only: (id, name shown by batsec-ctl).
 * ipc_stat_name(id) gives the name.  pcore.h says what the parser counts
 * under each; originators, neighbours, strangers, under_load,
 * tofu_pins and tt_synced are current values, not counters.  src1..src4
 * are the four sources (an interface and Ethernet source MAC) with the
 * most drops, most first:
 * srcK_mac packs ifindex << 48 | MAC (0: no such source), the others
 * count that source's drops by reason (pcore_limits.h).
 */
#define IPC_STATS_LIST(X) \
	X(IPC_STAT_RX_FRAMES,		1, "rx_frames") \
	X(IPC_STAT_RX_HELLO,		2, "rx_hello") \
	X(IPC_STAT_RX_OGM,		3, "rx_ogm") \
	X(IPC_STAT_DROP_MALFORMED,	4, "drop_malformed") \
	X(IPC_STAT_DROP_NOT_NEIGH,	5, "drop_not_neighbour") \
	X(IPC_STAT_DROP_LINK_AUTH,	6, "drop_link_auth") \
	X(IPC_STAT_DROP_REPLAY,		7, "drop_replay") \
	X(IPC_STAT_DROP_POLICY,		8, "drop_policy") \
	X(IPC_STAT_DROP_OLD_SEQNO,	9, "drop_old_seqno") \
	X(IPC_STAT_SIG_CACHE_HIT,	10, "sig_cache_hit") \
	X(IPC_STAT_DROP_INTRO_QUOTA,	11, "drop_intro_quota") \
	X(IPC_STAT_DROP_VERIFY_BUDGET,	12, "drop_verify_budget") \
	X(IPC_STAT_SIG_VERIFIED,	13, "sig_verified") \
	X(IPC_STAT_SIG_FAILED,		14, "sig_failed") \
	X(IPC_STAT_DROP_HOP_CHAIN,	15, "drop_hop_chain") \
	X(IPC_STAT_DROP_TABLE_FULL,	16, "drop_table_full") \
	X(IPC_STAT_OGM_RELAYED,		17, "ogm_relayed") \
	X(IPC_STAT_ORIGINATORS,		18, "originators") \
	X(IPC_STAT_NEIGHBOURS,		19, "neighbours") \
	X(IPC_STAT_UNDER_LOAD,		20, "under_load") \
	X(IPC_STAT_DROP_NO_LINK_KEY,	21, "drop_no_link_key") \
	X(IPC_STAT_DROP_DUPLICATE,	22, "drop_duplicate") \
	X(IPC_STAT_DROP_ROUTING,	23, "drop_routing") \
	X(IPC_STAT_DROP_IFACE,		24, "drop_iface") \
	X(IPC_STAT_DROP_OWN,		25, "drop_own") \
	X(IPC_STAT_DROP_DATA,		26, "drop_data") \
	X(IPC_STAT_OGM_ACCEPTED,	27, "ogm_accepted") \
	X(IPC_STAT_EMIT_FAILED,		28, "emit_failed") \
	X(IPC_STAT_DROP_FRAME_RATE,	29, "drop_frame_rate") \
	X(IPC_STAT_UNDER_LOAD_ENTERED,	30, "under_load_entered") \
	X(IPC_STAT_EVICTED,		31, "evicted") \
	X(IPC_STAT_STRANGERS,		32, "strangers") \
	X(IPC_STAT_DROP_GATEWAY,	33, "drop_gateway") \
	X(IPC_STAT_DROP_CLAIM,		34, "drop_claim") \
	X(IPC_STAT_DROP_REMEMBERED,	35, "drop_remembered") \
	X(IPC_STAT_SRC1_MAC,	36, "src1_mac") \
	X(IPC_STAT_SRC1_DROPS,	37, "src1_drops") \
	X(IPC_STAT_SRC1_MALFORMED,	38, "src1_malformed") \
	X(IPC_STAT_SRC1_RATE,	39, "src1_rate") \
	X(IPC_STAT_SRC1_AUTH,	40, "src1_auth") \
	X(IPC_STAT_SRC1_SIG,	41, "src1_sig") \
	X(IPC_STAT_SRC1_QUOTA,	42, "src1_quota") \
	X(IPC_STAT_SRC1_HOPS,	43, "src1_hops") \
	X(IPC_STAT_SRC2_MAC,	44, "src2_mac") \
	X(IPC_STAT_SRC2_DROPS,	45, "src2_drops") \
	X(IPC_STAT_SRC2_MALFORMED,	46, "src2_malformed") \
	X(IPC_STAT_SRC2_RATE,	47, "src2_rate") \
	X(IPC_STAT_SRC2_AUTH,	48, "src2_auth") \
	X(IPC_STAT_SRC2_SIG,	49, "src2_sig") \
	X(IPC_STAT_SRC2_QUOTA,	50, "src2_quota") \
	X(IPC_STAT_SRC2_HOPS,	51, "src2_hops") \
	X(IPC_STAT_SRC3_MAC,	52, "src3_mac") \
	X(IPC_STAT_SRC3_DROPS,	53, "src3_drops") \
	X(IPC_STAT_SRC3_MALFORMED,	54, "src3_malformed") \
	X(IPC_STAT_SRC3_RATE,	55, "src3_rate") \
	X(IPC_STAT_SRC3_AUTH,	56, "src3_auth") \
	X(IPC_STAT_SRC3_SIG,	57, "src3_sig") \
	X(IPC_STAT_SRC3_QUOTA,	58, "src3_quota") \
	X(IPC_STAT_SRC3_HOPS,	59, "src3_hops") \
	X(IPC_STAT_SRC4_MAC,	60, "src4_mac") \
	X(IPC_STAT_SRC4_DROPS,	61, "src4_drops") \
	X(IPC_STAT_SRC4_MALFORMED,	62, "src4_malformed") \
	X(IPC_STAT_SRC4_RATE,	63, "src4_rate") \
	X(IPC_STAT_SRC4_AUTH,	64, "src4_auth") \
	X(IPC_STAT_SRC4_SIG,	65, "src4_sig") \
	X(IPC_STAT_SRC4_QUOTA,	66, "src4_quota") \
	X(IPC_STAT_SRC4_HOPS,	67, "src4_hops") \
	X(IPC_STAT_CERT_ACCEPTED,	68, "cert_accepted") \
	X(IPC_STAT_CERT_REFUSED,	69, "cert_refused") \
	X(IPC_STAT_CERT_MISSING,	70, "cert_missing") \
	X(IPC_STAT_REVOKE_LEARNT,	71, "revoke_learnt") \
	X(IPC_STAT_TOFU_PINS,		72, "tofu_pins") \
	X(IPC_STAT_TT_PAGES,		73, "tt_pages") \
	X(IPC_STAT_TT_SYNCED,		74, "tt_synced") \
	X(IPC_STAT_OGM_COMPACT,		75, "ogm_compact") \
	X(IPC_STAT_DROP_NO_CHAIN,	76, "drop_no_chain") \
	X(IPC_STAT_DROP_CHAIN,		77, "drop_chain") \
	X(IPC_STAT_CHAIN_STEPS,		78, "chain_steps") \
	X(IPC_STAT_DESC_RELAYED,	79, "desc_relayed") \
	X(IPC_STAT_DESC_FULL,		80, "desc_full") \
	X(IPC_STAT_OGM_FISHEYE,		81, "ogm_fisheye") \
	X(IPC_STAT_RX_HELLO_MAC,	82, "rx_hello_mac") \
	X(IPC_STAT_DESC_WANTED,		83, "desc_wanted") \
	X(IPC_STAT_DESC_ASKED,		84, "desc_asked") \
	X(IPC_STAT_DESC_WANT_RX,	85, "desc_want_rx") \
	X(IPC_STAT_DESC_WANT_OVER,	86, "desc_want_over") \
	X(IPC_STAT_HELLO_SIGN_ASKED,	87, "hello_sign_asked")

/* Per source: IPC_STAT_SRC_FIELDS ids from IPC_STAT_SRC1_MAC on. */
#define IPC_STAT_SRC_FIELDS	8
#define IPC_STAT_SRC_SLOTS	4

#define IPC_STAT_ENUM_(sym, id, name)	sym = id,
enum ipc_stat_id {
	IPC_STATS_LIST(IPC_STAT_ENUM_)
	IPC_STAT_ID_END			/* one past the highest id */
};
#undef IPC_STAT_ENUM_

struct ipc_stat {
	uint32_t id;			/* enum ipc_stat_id */
	uint32_t reserved;
	uint64_t value;
};

/* IPC_STATS: payload = 8 + 16 * count bytes, no id twice. */
struct ipc_stats {
	uint16_t count;			/* 1..IPC_STATS_MAX */
	uint16_t reserved;
	uint32_t reserved2;
	struct ipc_stat s[IPC_STATS_MAX];
};

/* Any payload, decoded and aligned: what ipc_get() copies into. */
union ipc_payload {
	struct ipc_config config;
	struct ipc_policy_mark policy_mark;
	struct ipc_policy_chunk policy_chunk;
	struct ipc_iface iface;
	struct ipc_frame frame;
	struct ipc_link_key link_key;
	struct ipc_log log;
	struct ipc_route route;
	struct ipc_route_del route_del;
	struct ipc_route_alt route_alt;
	struct ipc_neigh neigh;
	struct ipc_link_key_req link_key_req;
	struct ipc_tt tt;
	struct ipc_gw gw;
	struct ipc_relay relay;
	struct ipc_stats stats;
	struct ipc_revoke revoke;
	struct ipc_pin pin;
	struct ipc_pins pins;
	struct ipc_heartbeat heartbeat;
	struct ipc_cert cert;
	struct ipc_mcast mcast;
	struct ipc_desc_want desc_want;
	struct ipc_hello_sign hello_sign;
};

/* No compiler padding anywhere in what travels (sizes = sum of fields). */
_Static_assert(sizeof(struct ipc_hdr) == IPC_HDR_LEN, "ipc_hdr");
_Static_assert(sizeof(struct ipc_config) == 52, "ipc_config");
_Static_assert(sizeof(struct ipc_policy_mark) == 8, "ipc_policy_mark");
_Static_assert(offsetof(struct ipc_policy_chunk, data) == 12, "chunk");
_Static_assert(sizeof(struct ipc_iface) == 20 + IFNAMSIZ, "ipc_iface");
_Static_assert(offsetof(struct ipc_frame, data) == 20, "ipc_frame");
_Static_assert(sizeof(struct ipc_link_key) == 76, "ipc_link_key");
_Static_assert(sizeof(struct ipc_log) == 4 + IPC_LOG_TEXT_MAX, "ipc_log");
_Static_assert(sizeof(struct ipc_route) == 56, "ipc_route");
_Static_assert(sizeof(struct ipc_route_del) == 8, "ipc_route_del");
_Static_assert(sizeof(struct ipc_route_cand) == 12, "ipc_route_cand");
_Static_assert(offsetof(struct ipc_route_alt, c) == 8, "ipc_route_alt");
_Static_assert(sizeof(struct ipc_neigh) == 72, "ipc_neigh");
_Static_assert(sizeof(struct ipc_link_key_req) == 36, "ipc_link_key_req");
_Static_assert(sizeof(struct ipc_desc_want) == 8, "ipc_desc_want");
_Static_assert(sizeof(struct ipc_hello_sign) == 8, "ipc_hello_sign");
_Static_assert(sizeof(struct ipc_tt_entry) == 10, "ipc_tt_entry");
_Static_assert(offsetof(struct ipc_tt, e) == 12, "ipc_tt");
_Static_assert(sizeof(struct ipc_gw) == 16, "ipc_gw");
_Static_assert(offsetof(struct ipc_mcast, group) == 12, "ipc_mcast");
_Static_assert(offsetof(struct ipc_relay, entry) == 8, "ipc_relay");
_Static_assert(sizeof(struct ipc_stat) == 16, "ipc_stat");
_Static_assert(offsetof(struct ipc_stats, s) == 8, "ipc_stats");
_Static_assert(sizeof(struct ipc_revoke) == BS_REVOKE_LEN, "ipc_revoke");
_Static_assert(sizeof(struct ipc_pin) == BS_PK_LEN, "ipc_pin");
_Static_assert(offsetof(struct ipc_pins, pk) == 8, "ipc_pins");
_Static_assert(sizeof(struct ipc_heartbeat) == 8, "ipc_heartbeat");
_Static_assert(sizeof(struct ipc_cert) == BS_CERT_LEN, "ipc_cert");
/* The largest payload of every variable type fits. */
_Static_assert(20 + IPC_FRAME_MAX <= IPC_MAX_PAYLOAD, "frame fits");
_Static_assert(12 + IPC_POLICY_CHUNK_MAX <= IPC_MAX_PAYLOAD, "chunk fits");
_Static_assert(8 + IPC_RELAY_MAX <= IPC_MAX_PAYLOAD, "relay fits");
_Static_assert(sizeof(struct ipc_tt) <= IPC_MAX_PAYLOAD, "tt fits");
_Static_assert(sizeof(struct ipc_route_alt) <= IPC_MAX_PAYLOAD, "alt fits");
_Static_assert(sizeof(struct ipc_stats) <= IPC_MAX_PAYLOAD, "stats fits");
_Static_assert(sizeof(struct ipc_pins) <= IPC_MAX_PAYLOAD, "pins fits");
_Static_assert(IPC_MAX_PAYLOAD <= UINT16_MAX, "len is 16 bits");

#endif /* BATSEC_IPC_MSG_H */
