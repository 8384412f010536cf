/*
 * wire.h — the batsec wire codec, protocol version 1.
 *
 * The layout of every frame is documented in batsec-protocol(7); the
 * constants below are the ones that page names.  Everything here is plain
 * functions over caller buffers: no allocation, no system calls.
 *
 * Parsing: wire_*_parse(p, len, &view) validates a whole frame and fills a
 * typed view holding decoded integers and pointers into p (so the view is
 * valid only as long as the buffer).  It returns WIRE_OK or a negative
 * enum wire_err; on error only view.where is meaningful: the field that was
 * refused and its byte offset in the frame, for a log line such as
 *	"OGM from %s: %s at offset %zu: %s", addr, where.field, where.off,
 *	wire_strerror(err)
 *
 * Building: builders write canonical bytes into a caller buffer of a stated
 * capacity, validate their input against the same rules the parser
 * applies (so parse(build(x)) == x; bad input is WIRE_EINVAL), never touch
 * a byte past the capacity, and return WIRE_ESPACE when the result would
 * not fit; the appending builders then leave *len (or the OGM builder's
 * state) as it was.  Signatures and MAC tags are computed by the caller
 * (bs_sign, bs_link_mac) over the byte ranges the builders and views
 * report, then appended with the functions below.
 */
#ifndef BATSEC_WIRE_H
#define BATSEC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

/* ---- common ------------------------------------------------------------ */

/* Default ethertype: IEEE 802 local experimental 1; configurable. */
#define WIRE_ETHERTYPE		0x88B5
#define WIRE_VERSION		1
#define WIRE_HDR_LEN		2	/* type, version */

enum wire_type {
	WIRE_T_HELLO = 0x01,
	WIRE_T_OGM = 0x02,
	WIRE_T_UNICAST = 0x40,
	WIRE_T_BCAST = 0x41,
	WIRE_T_ECHO = 0x42,
	WIRE_T_TRACE = 0x43,		/* an ECHO request that relays answer */
	WIRE_T_TTLX = 0x44,		/* a relay's TTL-exceeded answer */
	WIRE_T_FRAG = 0x45,
};

enum wire_err {
	WIRE_OK = 0,
	WIRE_ETRUNC = -1,	/* ends before a field it must hold */
	WIRE_EVERSION = -2,	/* not the version of the frame's type */
	WIRE_ETYPE = -3,	/* unknown type, or not the expected one */
	WIRE_ERESERVED = -4,	/* reserved field or unknown flag not 0 */
	WIRE_ECOUNT = -5,	/* count outside its allowed range */
	WIRE_ELEN = -6,		/* length odd, too large, inconsistent */
	WIRE_ERANGE = -7,	/* value outside its allowed range */
	WIRE_EADDR = -8,	/* not a mesh address / not a unicast MAC */
	WIRE_EVID = -9,		/* invalid VLAN id field */
	WIRE_EAUTH = -10,	/* unknown link-auth type */
	WIRE_EDUP = -11,	/* repeated TVLV, client, neighbour, key id */
	WIRE_ECERT = -12,	/* malformed certificate or revocation */
	WIRE_ETRAILING = -13,	/* bytes after the end of the frame */
	WIRE_EPADDING = -14,	/* Ethernet padding that is not all zero */
	WIRE_ETOOLONG = -15,	/* frame longer than its type allows */
	WIRE_ESPACE = -16,	/* builder: output buffer too small */
	WIRE_EINVAL = -17,	/* builder: invalid argument or call order */
};

/* One short phrase per error ("frame truncated", ...); never NULL. */
const char *wire_strerror(int err);

/* Where a parser stopped: the field it refused and its offset in the frame. */
struct wire_where {
	const char *field;	/* static string, NULL on success */
	size_t off;
};

/*
 * Dispatch helper: 0 (WIRE_OK) and *type set when p starts with a known
 * type and the version of that type (HELLO 4, OGM 3, data frames 2);
 * WIRE_ETRUNC, WIRE_EVERSION or WIRE_ETYPE otherwise.
 */
int wire_peek(const uint8_t *p, size_t len, uint8_t *type);

/* 1 when addr has the mesh address form (locally administered, unicast). */
int wire_addr_is_mesh(const uint8_t addr[static BS_ADDR_LEN]);
/* 1 when mac is a unicast (multicast bit clear), non-zero MAC address. */
int wire_mac_is_unicast(const uint8_t mac[static BS_ADDR_LEN]);

/* Append a 64-byte signature at buf[*len]; *len grows by BS_SIG_LEN. */
int wire_sig_append(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t sig[static BS_SIG_LEN]);

#define WIRE_INTERVAL_MIN	100	/* ms, HELLO and OGM intervals */
#define WIRE_INTERVAL_MAX	60000

/* ---- link trailer (OGM frames and HELLOs) ------------------------------ */

#define WIRE_AUTH_MAC		1
#define WIRE_AUTH_SIG		2
#define WIRE_TRAILER_HDR_LEN	12	/* an OGM frame's, with the counter */
#define WIRE_TAG_ENTRY_LEN	(BS_KEYID_LEN + BS_TAG_LEN)
/*
 * Most MAC tags in a trailer (a node with more neighbours on the
 * interface signs): 32, 396 trailer bytes on an OGM frame.  With 16, the
 * 31 nodes of 1 000 with more neighbours (a simulated mesh of mean
 * degree 10) signed every frame, and their neighbours' checks of those
 * were 40 % of all Ed25519 checks (bench/README.md, seventh session).
 */
#define WIRE_MAX_TAGS		32

struct wire_tag {
	const uint8_t *keyid;		/* BS_KEYID_LEN */
	const uint8_t *tag;		/* BS_TAG_LEN */
};

struct wire_trailer {
	uint8_t auth;			/* WIRE_AUTH_MAC, WIRE_AUTH_SIG */
	unsigned num_tags;
	uint64_t counter;
	struct wire_tag tags[WIRE_MAX_TAGS];
	const uint8_t *sig;		/* WIRE_AUTH_SIG: 64, else NULL */
	/* What the tags or the signature cover: frame start .. counter end. */
	const uint8_t *covered;
	size_t covered_len;
};

/* ---- HELLO ------------------------------------------------------------- */

/*
 * HELLO is version WIRE_HELLO_VERSION: version 2 added the link salt
 * (16 bytes after the sequence number), version 3 the link trailer
 * (4-byte header, then MAC tags under the neighbours' OGM link keys or
 * one signature), version 4 cut the tags from 16 to 8 bytes; an older
 * HELLO is refused (WIRE_EVERSION) like any other unknown version.
 */
#define WIRE_HELLO_VERSION	4
#define WIRE_HELLO_FIXED_LEN	68
#define WIRE_HELLO_TRAILER_HDR_LEN 4	/* auth, num_tags, reserved 2 */
#define WIRE_HELLO_SALT_OFF	52
#define WIRE_HELLO_NEIGH_LEN	8
#define WIRE_HELLO_MAX_NEIGH	64
#define WIRE_HELLO_F_CERT	0x01
#define WIRE_HELLO_F_FRESH	0x02	/* the sender knows no full OGM
					   entries yet (pcore_desc.h) */
#define WIRE_HELLO_F_WANT	0x04	/* a want list follows the
					   certificate (pcore_desc.h) */
#define WIRE_HELLO_F_MASK	0x07
#define WIRE_HELLO_MAX_WANT	8	/* originators asked for at once */
#define WIRE_RX_WINDOW		64	/* rx_count: of the last 64 */
#define WIRE_HELLO_MAX_LEN	(WIRE_HELLO_FIXED_LEN + \
    WIRE_HELLO_NEIGH_LEN * WIRE_HELLO_MAX_NEIGH + BS_CERT_LEN + \
    1 + BS_ADDR_LEN * WIRE_HELLO_MAX_WANT + WIRE_HELLO_TRAILER_HDR_LEN + WIRE_MAX_TAGS * WIRE_TAG_ENTRY_LEN)

struct wire_hello_neigh {
	const uint8_t *addr;		/* mesh address, 6 bytes */
	uint8_t rx_count;		/* 0..WIRE_RX_WINDOW */
};

/*
 * Parsed HELLO.  As builder input: flags, signed_*, sig, len, where and
 * all of tr but auth and num_tags are ignored (the certificate flag
 * follows cert != NULL, the want flag num_want > 0; tr.auth 0 means
 * WIRE_AUTH_SIG).
 */
struct wire_hello {
	uint8_t flags;
	unsigned num_neigh;
	const uint8_t *pk;		/* sender public key, 32 */
	const uint8_t *ifmac;		/* sender interface MAC, 6 */
	uint16_t interval_ms;
	uint32_t epoch;
	uint32_t seqno;
	const uint8_t *salt;		/* link salt, BS_LINKSALT_LEN */
	struct wire_hello_neigh neigh[WIRE_HELLO_MAX_NEIGH];
	const uint8_t *cert;		/* BS_CERT_LEN bytes or NULL */
	/* Originators whose last full OGM entry the sender asks its
	 * neighbours to hand on (mesh addresses, none twice). */
	unsigned num_want;		/* 0, or 1..WIRE_HELLO_MAX_WANT */
	const uint8_t *want[WIRE_HELLO_MAX_WANT];
	/*
	 * The trailer: tr.auth WIRE_AUTH_SIG (tr.sig) or WIRE_AUTH_MAC
	 * (tr.tags under bs_link_mac(K, sender address, tr.counter,
	 * tr.covered...)); tr.counter is epoch << 32 | seqno.
	 */
	struct wire_trailer tr;
	const uint8_t *signed_ptr;	/* == tr.covered: for bs_verify */
	size_t signed_len;		/* (BS_DOM_HELLO) or the tags */
	const uint8_t *sig;		/* == tr.sig: 64, or NULL (tags) */
	size_t len;			/* whole frame */
	struct wire_where where;
};

int wire_hello_parse(const uint8_t *p, size_t len, struct wire_hello *h);
/*
 * Write the HELLO up to its trailer header (everything the signature or
 * the tags cover) at buf; *len = its length.  Then either sign
 * buf[0..*len) with bs_sign(BS_DOM_HELLO) and wire_sig_append(), or
 * append tr.num_tags tags with wire_tag_append() (bs_link_mac over the
 * same bytes, counter epoch << 32 | seqno).
 */
int wire_hello_build(uint8_t *buf, size_t cap, const struct wire_hello *h,
    size_t *len);
/* Append a key id and a tag at buf[*len]; *len grows by 12. */
int wire_tag_append(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t keyid[static BS_KEYID_LEN],
    const uint8_t tag[static BS_TAG_LEN]);

/* ---- TVLV containers (inside the signed part of an OGM entry) ----------- */

#define WIRE_TVLV_HDR_LEN	4
#define WIRE_TVLV_MAX		1024	/* TVLV bytes per OGM entry */
#define WIRE_TVLV_VERSION	1

enum wire_tvlv_type {
	WIRE_TVLV_GATEWAY = 0x01,
	WIRE_TVLV_TT = 0x02,
	WIRE_TVLV_CERT = 0x03,
	WIRE_TVLV_REVOKE = 0x04,
	WIRE_TVLV_TT_PAGE = 0x05,
	WIRE_TVLV_MCAST = 0x06,
};

#define WIRE_GW_LEN		8
#define WIRE_TT_ENTRY_LEN	12
#define WIRE_TT_MAX		64
#define WIRE_VID_TAGGED		0x8000	/* vid: tagged flag ... */
#define WIRE_VID_MASK		0x0fff	/* ... and VLAN id 1..4094 */
/* TT entry flags (byte 8): isolated client (ap-isolation); others 0. */
#define WIRE_TT_F_ISOLATED	0x01
#define WIRE_TT_F_MASK		WIRE_TT_F_ISOLATED

/*
 * TT page (batsec-protocol(7), LARGE TRANSLATION TABLES): an originator
 * with more than WIRE_TT_MAX clients splits its table into `pages`
 * buckets (a power of two) by wire_tt_bucket() and sends one bucket per
 * OGM.  Value: ttvn u16, total u16, checksum u32, pages u8, page u8,
 * reserved u16 (0), then the bucket's entries (12 bytes each, as in TT),
 * in ascending (MAC, vid) order.
 */
#define WIRE_TT_PAGE_HDR_LEN	12
#define WIRE_TT_PAGE_MAX	60	/* entries per page */
#define WIRE_TT_PAGES_MIN	2
#define WIRE_TT_PAGES_MAX	64
#define WIRE_TT_TOTAL_MAX	(WIRE_TT_PAGES_MAX * WIRE_TT_PAGE_MAX)

/*
 * MCAST (batsec-protocol(7), MULTICAST LISTENERS): flags u8, reserved u8
 * (0), then n group MAC addresses (6 bytes each, n <= WIRE_MCAST_MAX):
 * the IPv4 (01:00:5e, low bit of byte 3 clear) and IPv6 (33:33) groups
 * the originator's clients listen to, none twice.  The flags ask for
 * every group of a family (listeners the node cannot list).
 */
#define WIRE_MCAST_HDR_LEN	2
#define WIRE_MCAST_MAX		32
#define WIRE_MCAST_F_ALL4	0x01	/* every IPv4 group */
#define WIRE_MCAST_F_ALL6	0x02	/* every IPv6 group */
#define WIRE_MCAST_F_MASK	0x03

struct wire_tvlv {
	uint8_t type;
	uint8_t version;
	uint16_t len;			/* value length */
	const uint8_t *value;
};

struct wire_tvlv_iter {
	const uint8_t *p;
	size_t rem;
	size_t off;			/* offset of p within the region */
};

void wire_tvlv_iter_init(struct wire_tvlv_iter *it, const uint8_t *region,
    size_t len);
/*
 * Next container: 1 and *t filled, 0 at the clean end of the region, or a
 * negative wire_err (WIRE_ELEN: a header or value does not fit what is
 * left, or the value length is odd); it->off then names the container.
 */
int wire_tvlv_next(struct wire_tvlv_iter *it, struct wire_tvlv *t);

/* A container is "known" when its type is one above and its version is 1. */
int wire_tvlv_is_known(const struct wire_tvlv *t);

/* One translation-table entry: a client MAC and its VLAN field. */
struct wire_tt_entry {
	const uint8_t *mac;		/* unicast, non-zero */
	uint16_t vid;			/* 0, or WIRE_VID_TAGGED | id */
	uint8_t flags;			/* WIRE_TT_F_*, others 0 */
};

/* Typed decoders of a known container; each checks the value exactly. */
int wire_tvlv_gateway(const struct wire_tvlv *t, uint32_t *down,
    uint32_t *up);
/* *entries: n × WIRE_TT_ENTRY_LEN bytes, read them with wire_tt_get(). */
int wire_tvlv_tt(const struct wire_tvlv *t, const uint8_t **entries,
    unsigned *n);
int wire_tvlv_cert(const struct wire_tvlv *t, const uint8_t **cert);
int wire_tvlv_revoke(const struct wire_tvlv *t, const uint8_t **rec);
/* Entry i of a validated TT value (i < n, not checked again). */
void wire_tt_get(const uint8_t *entries, unsigned i,
    struct wire_tt_entry *out);

/*
 * The bucket of a client under `pages` (a power of two): FNV-1a 32 over
 * the MAC and the vid (big-endian), its low bits.
 */
unsigned wire_tt_bucket(const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
    unsigned pages);
/*
 * One entry's share of a table checksum: FNV-1a 32 over MAC, vid (big-
 * endian) and flags.  A table's checksum is the sum (mod 2^32) of its
 * entries' shares, so a page's share adds up with the others'.
 */
uint32_t wire_tt_sum(const uint8_t mac[static BS_ADDR_LEN], uint16_t vid,
    uint8_t flags);

/* A decoded TT page, or the builder's input (e: n entries, sorted). */
struct wire_tt_page {
	uint16_t ttvn;			/* version: changes with the table */
	uint16_t total;			/* entries in the whole table */
	uint32_t sum;			/* checksum of the whole table */
	uint8_t pages;			/* WIRE_TT_PAGES_MIN..MAX, power of 2 */
	uint8_t page;			/* < pages */
	unsigned n;			/* 0..WIRE_TT_PAGE_MAX, <= total */
	const uint8_t *entries;		/* parsed: wire_tt_get() */
	const struct wire_tt_entry *e;	/* builder input */
};

/* Every known container of a region, decoded; unknown ones are counted. */
struct wire_tvlvs {
	unsigned present;		/* bit (1 << type) per known type */
	uint32_t gw_down, gw_up;	/* units of 100 kbit/s */
	const uint8_t *tt;		/* tt_count entries: wire_tt_get */
	unsigned tt_count;
	const uint8_t *cert;		/* BS_CERT_LEN bytes or NULL */
	const uint8_t *revoke;		/* BS_REVOKE_LEN bytes or NULL */
	struct wire_tt_page page;	/* when WIRE_TVLV_TT_PAGE is present
					   (never together with TT) */
	uint8_t mcast_flags;		/* when WIRE_TVLV_MCAST is present */
	unsigned mcast_count;
	const uint8_t *mcast;		/* mcast_count groups, 6 bytes each */
	unsigned unknown;		/* skipped containers */
	struct wire_where where;	/* offset within the region */
};

/* Walk, decode and reject duplicates of a known type. */
int wire_tvlvs_parse(const uint8_t *region, size_t len,
    struct wire_tvlvs *out);

/* Append one container at buf[*len] (builders of the TVLV region). */
int wire_tvlv_put(uint8_t *buf, size_t cap, size_t *len, uint8_t type,
    uint8_t version, const uint8_t *value, size_t vlen);
int wire_tvlv_put_gateway(uint8_t *buf, size_t cap, size_t *len,
    uint32_t down, uint32_t up);
int wire_tvlv_put_tt(uint8_t *buf, size_t cap, size_t *len,
    const struct wire_tt_entry *e, unsigned n);
/* 1 when mac is an IPv4 (01:00:5e:0x) or IPv6 (33:33) group address. */
int wire_mcast_group_ok(const uint8_t mac[static BS_ADDR_LEN]);
/* MCAST: flags and n group addresses (groups + 6 * i), none twice. */
int wire_tvlv_put_mcast(uint8_t *buf, size_t cap, size_t *len,
    uint8_t flags, const uint8_t *groups, unsigned n);
/* One TT page: pg->e holds pg->n entries of bucket pg->page, ascending. */
int wire_tvlv_put_tt_page(uint8_t *buf, size_t cap, size_t *len,
    const struct wire_tt_page *pg);
int wire_tvlv_put_cert(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t cert[static BS_CERT_LEN]);
int wire_tvlv_put_revoke(uint8_t *buf, size_t cap, size_t *len,
    const uint8_t rec[static BS_REVOKE_LEN]);

/* ---- OGM aggregate ----------------------------------------------------- */

/*
 * OGM frames are version WIRE_OGM_VERSION: version 2 added compact
 * entries (kind byte in the mutable part, the OGM chain), version 3 cut
 * the link tags from 16 to 8 bytes, the hop-chain elements and anchor
 * from 16 to 12 and the mutable part's 2 reserved bytes (28 to 22 bytes);
 * an older OGM is refused (WIRE_EVERSION).
 */
#define WIRE_OGM_VERSION	3
#define WIRE_OGM_HDR_LEN	12
#define WIRE_OGM_MUT_LEN	22
#define WIRE_OGM_FIXED_LEN	60	/* signed fields before the TVLVs */
#define WIRE_OGM_ENTRY_MIN	(WIRE_OGM_MUT_LEN + WIRE_OGM_FIXED_LEN + \
    BS_SIG_LEN)
#define WIRE_OGM_ENTRY_LEN(tvlv_len)	(WIRE_OGM_ENTRY_MIN + (tvlv_len))
/* Entry kinds (mutable part, byte 3). */
#define WIRE_OGM_FULL		0	/* signed part and signature */
#define WIRE_OGM_COMPACT	1	/* originator address and seqno */
#define WIRE_OGM_COMPACT_BLOCK	10	/* mesh address 6, seqno 4 */
#define WIRE_OGM_COMPACT_LEN	(WIRE_OGM_MUT_LEN + WIRE_OGM_COMPACT_BLOCK)
#define WIRE_OGM_MAX_ENTRIES	40
#define WIRE_OGM_MAX_LEN	4096	/* whole OGM frame */
#define WIRE_OGM_FLAGS_MASK	0x00	/* no flag in a full entry's
					   signed part */


/* The part of an entry each relay rewrites; not signed. */
struct wire_ogm_mut {
	uint8_t ttl;
	uint8_t tq;
	uint8_t hops;			/* 0..BS_MAXHOPS */
	uint8_t kind;			/* WIRE_OGM_FULL or WIRE_OGM_COMPACT */
	const uint8_t *prev_sender;	/* mesh address, 6 */
	const uint8_t *chain;		/* hop-chain element, 12 */
};

/* The part the originator signs. */
struct wire_ogm_signed {
	const uint8_t *pk;		/* originator public key, 32 */
	uint32_t epoch;
	uint32_t seqno;
	uint8_t flags;			/* none defined: 0 */
	uint16_t interval_ms;
	const uint8_t *anchor;		/* H^BS_MAXHOPS(seed), 12 */
	const uint8_t *tvlv;		/* TVLV region */
	size_t tvlv_len;		/* even, <= WIRE_TVLV_MAX */
};

/* What a compact entry carries instead of the signed part. */
struct wire_ogm_compact {
	const uint8_t *orig;		/* originator mesh address, 6 */
	uint32_t seqno;
};

/*
 * One entry.  A compact one (mut.kind WIRE_OGM_COMPACT) has cp, block
 * and raw; sgn, tv, signed_ptr and sig are zero.  A full one has no cp.
 */
struct wire_ogm_entry {
	struct wire_ogm_mut mut;
	struct wire_ogm_compact cp;
	struct wire_ogm_signed sgn;
	struct wire_tvlvs tv;		/* the TVLV region decoded */
	const uint8_t *signed_ptr;	/* bs_verify(sig, BS_DOM_OGM, ...) */
	size_t signed_len;
	const uint8_t *sig;		/* 64 */
	const uint8_t *block;		/* signed part + signature: what */
	size_t block_len;		/* a relay copies unchanged */
	const uint8_t *raw;		/* the whole entry */
	size_t raw_len;
};

/* A parsed OGM frame, about 3.5 KiB: keep one per parser, not per frame. */
struct wire_ogm {
	unsigned num_entries;
	const uint8_t *sender;		/* sending neighbour's address */
	struct wire_ogm_entry e[WIRE_OGM_MAX_ENTRIES];
	struct wire_trailer tr;
	size_t len;
	struct wire_where where;
};

int wire_ogm_parse(const uint8_t *p, size_t len, struct wire_ogm *o);
/* Index of the tag carrying keyid, or -1. */
int wire_trailer_find(const struct wire_trailer *t,
    const uint8_t keyid[static BS_KEYID_LEN]);

/*
 * Originator: write the signed part of an entry (fixed fields + TVLVs) at
 * buf, *len = its length; sign buf[0..*len) with bs_sign(BS_DOM_OGM) and
 * wire_sig_append() to get the block that wire_ogm_add() takes.
 */
int wire_ogm_signed_build(uint8_t *buf, size_t cap,
    const struct wire_ogm_signed *s, size_t *len);
/* Write the 22-byte mutable part at dst (avail bytes there), in place. */
int wire_ogm_mut_put(uint8_t *dst, size_t avail, const struct wire_ogm_mut *m);
/*
 * Read the 22-byte mutable part at src (avail bytes there) as
 * wire_ogm_mut_put() writes it, without judging its values; m's pointers
 * point into src.  WIRE_OK, or WIRE_ETRUNC when avail is too short.
 */
int wire_ogm_mut_get(const uint8_t *src, size_t avail, struct wire_ogm_mut *m);

/*
 * The fixed fields of one entry held on its own (mutable part, signed
 * part and signature, as IPC_RELAY carries it), read without judging
 * them, for checkers that give their own reasons (ipc.c, ipc_check.c,
 * the forwarder's relay queue).  The TVLVs and the signature are not
 * looked at.
 */
struct wire_ogm_head {
	struct wire_ogm_mut mut;
	const uint8_t *pk;		/* full: originator public key, 32;
					   compact: NULL */
	const uint8_t *orig;		/* compact: originator address, 6 */
	uint8_t flags;
	uint8_t sgn_reserved;		/* the signed part's, or'ed */
	uint16_t interval_ms;
	uint16_t tvlv_len;		/* as written, not checked */
};

/*
 * WIRE_OK, or WIRE_ETRUNC when len is shorter than the entry's kind needs
 * (WIRE_OGM_ENTRY_MIN, WIRE_OGM_COMPACT_LEN), WIRE_ERANGE for an unknown
 * kind.
 */
int wire_ogm_head_get(const uint8_t *e, size_t len, struct wire_ogm_head *h);
/*
 * Compact entry: write the 10 bytes after the mutable part (the block
 * wire_ogm_add() takes with a mutable part of kind WIRE_OGM_COMPACT).
 */
int wire_ogm_compact_build(uint8_t out[static WIRE_OGM_COMPACT_BLOCK],
    const uint8_t orig[static BS_ADDR_LEN], uint32_t seqno);
/*
 * Offset of entry idx's mutable part in a frame whose header and entries
 * are well formed (the trailer is not looked at), for rewriting it with
 * wire_ogm_mut_put(); WIRE_ERANGE when idx >= num_entries.
 */
int wire_ogm_entry_offset(const uint8_t *frame, size_t len, unsigned idx,
    size_t *off);

/*
 * Frame builder.  Call order: begin, add (1..40 times), trailer, then
 * num_tags × add_tag or one add_sig, then finish.  A call that fails leaves
 * the builder as it was.
 */
struct wire_ogm_builder {
	uint8_t *buf;
	size_t cap;			/* at most WIRE_OGM_MAX_LEN */
	size_t len;
	unsigned num_entries;
	size_t entry_off[WIRE_OGM_MAX_ENTRIES];
	size_t trailer_off;		/* 0 until wire_ogm_trailer() */
	uint8_t auth;
	unsigned num_tags;
	unsigned tags_done;
	int sig_done;
};

int wire_ogm_begin(struct wire_ogm_builder *b, uint8_t *buf, size_t cap,
    const uint8_t sender[static BS_ADDR_LEN]);
/*
 * Append an entry: the mutable part m and a block (checked): the signed
 * part and signature for m->kind WIRE_OGM_FULL, the compact block for
 * WIRE_OGM_COMPACT.
 */
int wire_ogm_add(struct wire_ogm_builder *b, const struct wire_ogm_mut *m,
    const uint8_t *block, size_t block_len);
/* Rewrite the mutable part of entry idx (before the trailer only). */
int wire_ogm_set_mut(struct wire_ogm_builder *b, unsigned idx,
    const struct wire_ogm_mut *m);
/* Bytes a trailer with this auth type and tag count takes (0: invalid). */
size_t wire_trailer_len(uint8_t auth, unsigned num_tags);
/*
 * Write the trailer header; covered and covered_len (optional) receive
 * the range to MAC with bs_link_mac(key, sender, counter, ...) or to sign with
 * bs_sign(BS_DOM_LINK); room for the tags or signature is checked now.
 */
int wire_ogm_trailer(struct wire_ogm_builder *b, uint8_t auth,
    unsigned num_tags, uint64_t counter, const uint8_t **covered,
    size_t *covered_len);
int wire_ogm_add_tag(struct wire_ogm_builder *b,
    const uint8_t keyid[static BS_KEYID_LEN],
    const uint8_t tag[static BS_TAG_LEN]);
int wire_ogm_add_sig(struct wire_ogm_builder *b,
    const uint8_t sig[static BS_SIG_LEN]);
/* Check the frame is complete; *len = its length. */
int wire_ogm_finish(struct wire_ogm_builder *b, size_t *len);

/* ---- data frames, version 2 ---------------------------------------------- */

/*
 * Data frames (UNICAST, BCAST, ECHO) are version WIRE_DATA_VERSION; a
 * version-1 data frame is refused (WIRE_EVERSION).  Layouts, keys and
 * checks: batsec-protocol(7), "Data frames".  This codec lays the bytes
 * out and checks every length; the forwarder does the cryptography.
 *
 * UNICAST, ECHO, TRACE and TTLX ("sealed" frames):
 *    0  1 type  1 version  2 ttl  3 reserved
 *    4  4 hop key id       8  8 hop counter     16  8 hop tag
 *   24 28 end-to-end header: dst 6, src 6, src epoch 4, dst epoch 4,
 *         counter 8
 *   52  n ciphertext (UNICAST: the inner Ethernet frame; ECHO and TRACE:
 *         the 6-byte echo body; TTLX: the 16-byte TTLX body)
 * 52+n 16 AEAD tag
 * The hop tag covers bytes 0..15, 24..51 and the AEAD tag (60 bytes,
 * wire_sealed_hop_input); the AEAD's associated data is byte 0 and bytes
 * 24..51 (wire_sealed_ad).
 *
 * The counter field's top byte is the suite byte (WIRE_E2E_S_*), the
 * low 56 bits the end-to-end counter; the AEAD's nonce is the whole field.
 * Only the destination reads it (the forwarder, fwd_data.c): a relay,
 * in user space or in the kernel, passes it on as it came.
 */
#define WIRE_DATA_VERSION	2
#define WIRE_INNER_MIN		14	/* an Ethernet header */
#define WIRE_INNER_MAX		1518	/* 1500 + header + VLAN tag */
#define WIRE_ETH_MIN_PAYLOAD	46	/* 60-byte minimum - header */

#define WIRE_HOP_LEN		24
#define WIRE_HOP_KEYID_OFF	4
#define WIRE_HOP_CTR_OFF	8
#define WIRE_HOP_TAG_OFF	16
#define WIRE_E2E_OFF		24
#define WIRE_E2E_HDR_LEN	28
#define WIRE_SEALED_CT_OFF	(WIRE_E2E_OFF + WIRE_E2E_HDR_LEN)	/* 52 */
#define WIRE_SEALED_OVERHEAD	(WIRE_SEALED_CT_OFF + BS_AEAD_TAG_LEN)	/* 68 */
#define WIRE_SEALED_HOP_IN	(16 + WIRE_E2E_HDR_LEN + BS_AEAD_TAG_LEN) /* 60 */
#define WIRE_SEALED_AD_LEN	(1 + WIRE_E2E_HDR_LEN)			/* 29 */
#define WIRE_ECHO_BODY_LEN	6
#define WIRE_ECHO_LEN		(WIRE_SEALED_OVERHEAD + WIRE_ECHO_BODY_LEN)
#define WIRE_ECHO_REQUEST	1
#define WIRE_ECHO_REPLY		2
/*
 * TTLX body: the dst 6 and e2e counter 8 (after 2 reserved zero bytes)
 * of the TRACE whose TTL ran out at the TTLX's source.
 */
#define WIRE_TTLX_BODY_LEN	16
#define WIRE_TTLX_LEN		(WIRE_SEALED_OVERHEAD + WIRE_TTLX_BODY_LEN)

/* The hop counter's top byte names its lane (batsec-protocol(7)). */
#define WIRE_LANE_SHIFT		56
#define WIRE_LANE_USER		0	/* batsecd's own frames */

#define WIRE_E2E_SUITE_SHIFT	56
#define WIRE_E2E_CTR_MASK	((UINT64_C(1) << WIRE_E2E_SUITE_SHIFT) - 1)
#define WIRE_E2E_S_AES		0x01	/* sealed with AES-256-GCM,
					   else ChaCha20-Poly1305 */
#define WIRE_E2E_S_CAN_AES	0x02	/* the source opens AES-256-GCM */
#define WIRE_E2E_S_KNOWN	(WIRE_E2E_S_AES | WIRE_E2E_S_CAN_AES)

struct wire_e2e {
	const uint8_t *dst;		/* destination originator */
	const uint8_t *src;		/* source originator */
	uint32_t src_epoch;
	uint32_t dst_epoch;
	uint64_t counter;		/* suite byte << 56 | counter */
};

/* A parsed UNICAST or ECHO; pointers into the frame. */
struct wire_sealed {
	uint8_t type;			/* WIRE_T_UNICAST, ECHO, TRACE, TTLX */
	uint8_t ttl;
	const uint8_t *keyid;		/* BS_KEYID_LEN */
	uint64_t hop_counter;
	const uint8_t *hop_tag;		/* BS_HOPTAG_LEN */
	struct wire_e2e e;
	const uint8_t *ct;		/* ciphertext */
	size_t ct_len;			/* UNICAST: 14..1518, ECHO, TRACE:
					   6, TTLX: 16 */
	const uint8_t *aead_tag;	/* BS_AEAD_TAG_LEN */
	size_t len;			/* exact: nothing may follow */
	struct wire_where where;
};

int wire_sealed_parse(const uint8_t *p, size_t len, struct wire_sealed *s);
/*
 * Lay out a sealed frame of type for a plaintext of pt_len bytes at buf:
 * type, version, e2e header; ttl and the hop fields zero.  *len = the
 * frame's length; the caller seals into buf + WIRE_SEALED_CT_OFF and
 * writes the AEAD tag at buf + *len - BS_AEAD_TAG_LEN.
 */
int wire_sealed_layout(uint8_t *buf, size_t cap, uint8_t type,
    const struct wire_e2e *e, size_t pt_len, size_t *len);
/* Write ttl, key id and hop counter of a laid-out frame (len >= 68). */
void wire_sealed_set_hop(uint8_t *frame, uint8_t ttl,
    const uint8_t keyid[static BS_KEYID_LEN], uint64_t counter);
/* The 60 bytes the hop tag covers, of a frame of len >= 68 bytes. */
void wire_sealed_hop_input(const uint8_t *frame, size_t len,
    uint8_t out[static WIRE_SEALED_HOP_IN]);
/* The 29 bytes of associated data, of a frame of len >= 68 bytes. */
void wire_sealed_ad(const uint8_t *frame, uint8_t out[static WIRE_SEALED_AD_LEN]);

/* 1 when type is a sealed frame's (UNICAST, ECHO, TRACE or TTLX). */
int wire_is_sealed(uint8_t type);

/* The ECHO (and TRACE) plaintext. */
struct wire_echo {
	uint8_t kind;			/* WIRE_ECHO_REQUEST or _REPLY */
	uint16_t ident;			/* the sender's, per daemon start */
	uint16_t seqno;
};
int wire_echo_body_parse(const uint8_t *p, size_t len, struct wire_echo *e);
void wire_echo_body_put(uint8_t out[static WIRE_ECHO_BODY_LEN],
    const struct wire_echo *e);

/* The TTLX plaintext: which TRACE expired. */
struct wire_ttlx {
	const uint8_t *dst;		/* the TRACE's destination */
	uint64_t counter;		/* and its end-to-end counter */
};
int wire_ttlx_body_parse(const uint8_t *p, size_t len, struct wire_ttlx *x);
void wire_ttlx_body_put(uint8_t out[static WIRE_TTLX_BODY_LEN],
    const struct wire_ttlx *x);

/*
 * BCAST:
 *    0  1 type  1 version  2 ttl  3 number of tags (1..WIRE_BCAST_MAX_TAGS)
 *    4  8 hop counter
 *   12 12 per tag: hop key id 4, hop tag 8
 *    S 20 signed header: flags 1 (0), reserved 1, inner length 2,
 *         originator 6, epoch 4, broadcast seqno 4, reserved 2
 * S+20  n inner Ethernet frame
 *  ... 64 Ed25519 signature of the originator (BS_DOM_BCAST) over the
 *         signed header and the inner frame
 * Each tag covers bytes 0..11, the signed header and the signature (96
 * bytes, wire_bcast_tag_input).  Relays copy the signed block (signed
 * header .. signature) unchanged.  Zero Ethernet padding may follow.
 */
#define WIRE_BCAST_FIXED	12
#define WIRE_BCAST_TAG_LEN	(BS_KEYID_LEN + BS_HOPTAG_LEN)	/* 12 */
#define WIRE_BCAST_MAX_TAGS	8
#define WIRE_BCAST_SGN_LEN	20
#define WIRE_BCAST_BLOCK_MAX	(WIRE_BCAST_SGN_LEN + WIRE_INNER_MAX + BS_SIG_LEN)
#define WIRE_BCAST_TAG_IN	(WIRE_BCAST_FIXED + WIRE_BCAST_SGN_LEN + BS_SIG_LEN)
#define WIRE_BCAST_MAX_LEN	(WIRE_BCAST_FIXED + WIRE_BCAST_MAX_TAGS * \
    WIRE_BCAST_TAG_LEN + WIRE_BCAST_BLOCK_MAX)

struct wire_bcast {
	uint8_t ttl;
	unsigned num_tags;
	uint64_t hop_counter;
	const uint8_t *tags;		/* num_tags * WIRE_BCAST_TAG_LEN */
	const uint8_t *block;		/* signed header .. signature */
	size_t block_len;
	const uint8_t *orig;		/* originator, mesh address */
	uint32_t epoch;
	uint32_t seqno;
	const uint8_t *inner;
	size_t inner_len;
	const uint8_t *signed_ptr;	/* bs_verify(sig, BS_DOM_BCAST, ...) */
	size_t signed_len;
	const uint8_t *sig;
	size_t len;			/* without padding */
	size_t pad_len;
	struct wire_where where;
};

int wire_bcast_parse(const uint8_t *p, size_t len, struct wire_bcast *b);
/* Index of the tag with keyid, or -1. */
int wire_bcast_find_tag(const struct wire_bcast *b,
    const uint8_t keyid[static BS_KEYID_LEN]);
/* The 96 bytes each tag covers (frame as parsed into b). */
void wire_bcast_tag_input(const uint8_t *frame, const struct wire_bcast *b,
    uint8_t out[static WIRE_BCAST_TAG_IN]);
/*
 * Originator: write the signed header and the inner frame at buf; *len =
 * their length (what bs_sign(BS_DOM_BCAST) covers); append the signature
 * with wire_sig_append() to make the block wire_bcast_frame() takes.
 */
struct wire_bcast_sgn {
	const uint8_t *orig;
	uint32_t epoch;			/* >= 1 */
	uint32_t seqno;
	const uint8_t *inner;
	size_t inner_len;		/* WIRE_INNER_MIN..WIRE_INNER_MAX */
};
int wire_bcast_signed_build(uint8_t *buf, size_t cap,
    const struct wire_bcast_sgn *s, size_t *len);
/*
 * One transmission: the fixed part (ttl, num_tags, hop counter), zeroed
 * tags and the block (checked with a parse) at buf; *len = the frame's
 * length.  Then fill each tag with wire_bcast_set_tag().
 */
int wire_bcast_frame(uint8_t *buf, size_t cap, uint8_t ttl,
    unsigned num_tags, uint64_t counter, const uint8_t *block,
    size_t block_len, size_t *len);
void wire_bcast_set_tag(uint8_t *frame, unsigned idx,
    const uint8_t keyid[static BS_KEYID_LEN],
    const uint8_t tag[static BS_HOPTAG_LEN]);

/*
 * FRAG: a piece of the end-to-end part (bytes 24..end: e2e header,
 * ciphertext, AEAD tag) of a UNICAST too long for the next hop's MTU.
 *    0  1 type  1 version  2 ttl  3 reserved
 *    4  4 hop key id       8  8 hop counter     16  8 hop tag
 *   24  6 destination originator  30  6 fragmenter (the node that cut)
 *   36  4 fragment seqno (the fragmenter's)
 *   40  2 total length (of the whole e2e part, WIRE_FRAG_TOTAL_MIN..MAX)
 *   42  2 offset of this piece in it
 *   44  n the piece: 1 <= n, offset + n <= total, n < total
 * The hop tag covers bytes 0..15 and 24..end (wire_frag_hop_input).
 * Nothing may follow (a FRAG is never shorter than 45 bytes, so it needs
 * no Ethernet padding).
 */
#define WIRE_FRAG_HDR_LEN	44
#define WIRE_FRAG_TOTAL_MIN	(WIRE_E2E_HDR_LEN + WIRE_INNER_MIN + \
    BS_AEAD_TAG_LEN)						/* 58 */
#define WIRE_FRAG_TOTAL_MAX	(WIRE_E2E_HDR_LEN + WIRE_INNER_MAX + \
    BS_AEAD_TAG_LEN)						/* 1562 */
#define WIRE_FRAG_MAX_LEN	(WIRE_FRAG_HDR_LEN + WIRE_FRAG_TOTAL_MAX - 1)
#define WIRE_FRAG_HOP_IN_MAX	(WIRE_FRAG_MAX_LEN - BS_HOPTAG_LEN)

/* A parsed FRAG (pointers into the frame); as builder input hop fields
 * and len are ignored. */
struct wire_frag {
	uint8_t ttl;
	const uint8_t *keyid;		/* BS_KEYID_LEN */
	uint64_t hop_counter;
	const uint8_t *hop_tag;		/* BS_HOPTAG_LEN */
	const uint8_t *dst;		/* destination originator */
	const uint8_t *orig;		/* fragmenter */
	uint32_t seqno;
	uint16_t total;
	uint16_t offset;
	const uint8_t *piece;
	size_t piece_len;
	size_t len;			/* exact: nothing may follow */
	struct wire_where where;
};

int wire_frag_parse(const uint8_t *p, size_t len, struct wire_frag *f);
/*
 * Write a FRAG with ttl and hop fields zero at buf (set them with
 * wire_sealed_set_hop, the same offsets); *len = the frame's length.
 */
int wire_frag_build(uint8_t *buf, size_t cap, const struct wire_frag *f,
    size_t *len);
/* The bytes the hop tag covers (len - 8 of them, returned) into out. */
size_t wire_frag_hop_input(const uint8_t *frame, size_t len,
    uint8_t out[static WIRE_FRAG_HOP_IN_MAX]);

#endif /* BATSEC_WIRE_H */
