/*
 * t_frames.h — frames as a node sends them, for tests, harnesses, seed
 * generators and the benchmarks: made by the wire codec's own builders
 * (so no layout is written down twice) and really signed.
 *
 * The data frames (version 2) take structs too, so a call names each field:
 *	n = t_sealed(buf, sizeof(buf), (struct t_sealed){ .ttl = 50,
 *	    .hop = &link, .e2e_key = k, .e = { .dst = a, .src = b, ... },
 *	    .pt = in, .pt_len = il });
 * An OGM entry is a struct t_ogm_entry with designated initialisers too.
 * When the codec refuses, these print why and abort: the frame a test
 * means to send is always a valid one; a test that needs a broken frame
 * breaks the bytes afterwards.
 */
#ifndef BATSEC_T_FRAMES_H
#define BATSEC_T_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "proto/wire.h"

/*
 * An Ethernet frame of len bytes: dst, src, an 802.1Q tag of vid when vid
 * is not 0, the IPv4 ethertype, then byte i is (uint8_t)i.
 */
size_t	t_eth(uint8_t *buf, const uint8_t *dst, const uint8_t *src,
	    uint16_t vid, size_t len);

/*
 * An ARP frame (Ethernet, IPv4; opcode op) of 60 bytes (64 with an 802.1Q
 * tag of vid when vid is not 0): Ethernet dst edst, source and sender
 * hardware address sha, sender address spa, target tha and tpa.
 */
size_t	t_arp(uint8_t *buf, uint16_t op, const uint8_t *edst,
	    const uint8_t *sha, const uint8_t spa[4], const uint8_t *tha,
	    const uint8_t tpa[4], uint16_t vid);

/*
 * An IPv6 neighbour solicitation (type 135) or advertisement (136) over
 * Ethernet, as RFC 4861 has it (hop limit 255, checksum right): Ethernet
 * dst edst and source esrc, an 802.1Q tag of vid when vid is not 0, IPv6
 * src and dst, the target, the NA flags byte, and when lla is not NULL
 * its link-layer address option (source for a solicitation, target for
 * an advertisement).  Its length (at most 98 bytes).
 */
size_t	t_nd(uint8_t *buf, uint8_t type, const uint8_t *edst,
	    const uint8_t *esrc, const uint8_t src[16], const uint8_t dst[16],
	    const uint8_t target[16], uint8_t flags, const uint8_t *lla,
	    uint16_t vid);

/*
 * The ICMPv6 checksum of the IPv6 frame buf (untagged or one tag) set
 * right again after a change, for its IPv6 payload length.
 */
void	t_icmp6_fix(uint8_t *buf);

/* ---- data frames, version 2 ---- */

/* One end of a link, as the link root takes it. */
struct t_end {
	const struct bs_identity *id;	/* the node (only its pk is used
					   for the far end) */
	const uint8_t	*mac;		/* its interface MAC */
	uint32_t	 epoch;
	const uint8_t	*salt;		/* its link salt; NULL: t_salt(pk) */
};

/* The link salt a test node uses unless told otherwise: pk ^ 0x5a. */
void	t_salt(uint8_t salt[BS_LINKSALT_LEN], const uint8_t *pk);
/* The root of a link, as both ends derive it (from a's secret). */
void	t_link_root(uint8_t root[BS_LINKROOT_LEN], struct t_end a,
	    struct t_end b);
/* A link's hop key and OGM key with their ids, from its root. */
struct t_link {
	uint8_t		 key[BS_HOPKEY_LEN];
	uint8_t		 keyid[BS_KEYID_LEN];
	uint8_t		 ogm_key[BS_LINKKEY_LEN];
	uint8_t		 ogm_keyid[BS_KEYID_LEN];
};
void	t_link_keys(struct t_link *l, struct t_end a, struct t_end b);
/* The end-to-end key of the direction src -> dst (ChaCha20-Poly1305). */
void	t_e2e_key(uint8_t k[BS_E2EKEY_LEN], const struct bs_identity *src,
	    uint32_t src_epoch, const uint8_t *dst_pk, uint32_t dst_epoch);
/* The same for aead. */
void	t_e2e_key_aead(uint8_t k[BS_E2EKEY_LEN], enum bs_aead aead,
	    const struct bs_identity *src, uint32_t src_epoch,
	    const uint8_t *dst_pk, uint32_t dst_epoch);

/*
 * A UNICAST or ECHO, sealed under e2e_key with aead (0: ChaCha20-Poly1305;
 * the suite byte of e.counter is the caller's), hop-tagged with hop.
 */
struct t_sealed {
	uint8_t		 type;		/* 0: WIRE_T_UNICAST */
	uint8_t		 ttl;
	const struct t_link *hop;
	uint64_t	 hop_ctr;
	const uint8_t	*e2e_key;	/* BS_E2EKEY_LEN */
	enum bs_aead	 aead;
	struct wire_e2e	 e;
	const uint8_t	*pt;		/* inner frame or ECHO body */
	size_t		 pt_len;
};
size_t	t_sealed(uint8_t *buf, size_t cap, struct t_sealed s);
/* Re-tag a sealed frame of len bytes for another hop (ttl, counter). */
void	t_sealed_retag(uint8_t *buf, size_t len, const struct t_link *hop,
	    uint8_t ttl, uint64_t hop_ctr);

/* A BCAST signed by orig, with a tag for each of the num_tags links. */
struct t_bcast {
	uint8_t		 ttl;
	uint64_t	 hop_ctr;
	const struct t_link *const *hops;	/* num_tags of them */
	unsigned	 num_tags;
	const struct bs_identity *orig;
	uint32_t	 epoch;
	uint32_t	 seqno;
	const uint8_t	*inner;
	size_t		 inner_len;
};
size_t	t_bcast(uint8_t *buf, size_t cap, struct t_bcast b);

/* h built and signed by id (h->pk is id's); salt NULL: t_salt(pk). */
size_t	t_hello(uint8_t *buf, size_t cap, const struct wire_hello *h,
	    const struct bs_identity *id);
/*
 * h built with num_tags (1..WIRE_MAX_TAGS) link tags, as a node sends it
 * to neighbours that hold OGM link keys with it: tag i under
 * links[i]->ogm_key, listed under links[i]->ogm_keyid, over the HELLO up
 * to its trailer header, with the sender address bs_mesh_addr(h->pk) and
 * the counter epoch << 32 | seqno (h->tr is ignored; salt NULL:
 * t_salt(pk)).
 */
size_t	t_hello_tagged(uint8_t *buf, size_t cap, const struct wire_hello *h,
	    const struct t_link *const *links, unsigned num_tags);

/* One OGM entry: what its originator signs and what the last hop set. */
struct t_ogm_entry {
	const struct bs_identity *orig;	/* signs; its key is in the entry */
	uint32_t	 epoch;
	uint32_t	 seqno;
	uint16_t	 interval_ms;
	/* The hop chain: anchor H^BS_MAXHOPS(seed), element H^hops(seed). */
	const uint8_t	*chain_seed;	/* BS_CHAIN_LEN */
	const uint8_t	*tvlv;
	size_t		 tvlv_len;
	uint8_t		 ttl;
	uint8_t		 tq;
	uint8_t		 hops;
	const uint8_t	*prev_sender;	/* mesh address */
};

/* The signed block (signed part, then the signature); its length. */
size_t	t_ogm_block(uint8_t *out, size_t cap, const struct t_ogm_entry *e);
/* The mutable part; m->chain points to elem. */
void	t_ogm_mut(struct wire_ogm_mut *m, uint8_t elem[BS_CHAIN_LEN],
	    const struct t_ogm_entry *e);
/* The whole entry into a frame being built. */
void	t_ogm_add(struct wire_ogm_builder *b, const struct t_ogm_entry *e);
/* The whole entry as a relay hands it on (IPC_RELAY): mutable part, block. */
size_t	t_ogm_raw(uint8_t *out, size_t cap, const struct t_ogm_entry *e);

/*
 * The tag of a frame's trailer that the link key of from and to_pk gives
 * (sender: the frame's sender address; cov: what the trailer covers).
 */
void	t_link_tag(uint8_t keyid[BS_KEYID_LEN], uint8_t tag[BS_TAG_LEN],
	    const struct bs_identity *from, const uint8_t *to_pk,
	    const uint8_t *sender, uint64_t counter, const uint8_t *cov,
	    size_t cov_len);

/* A whole OGM frame. */
struct t_ogm_frame {
	const uint8_t	*sender;	/* mesh address of from */
	const struct t_ogm_entry *e;
	unsigned	 n;
	uint64_t	 counter;
	uint8_t		 auth;		/* WIRE_AUTH_MAC or WIRE_AUTH_SIG */
	const struct bs_identity *from;	/* MAC: one end of the key; SIG: signs */
	const uint8_t	*to_pk;		/* MAC: the other end */
};

/* The frame's length; one tag for WIRE_AUTH_MAC. */
size_t	t_ogm_frame(uint8_t *buf, size_t cap, const struct t_ogm_frame *f);

#endif /* BATSEC_T_FRAMES_H */
