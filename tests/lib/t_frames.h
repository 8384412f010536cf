/*
 * t_frames.h — frames as a node sends them, for tests, harnesses, seed
 * generators and the benchmarks: made by the wire codec's own builders
 * (so no layout is written down twice) and really signed.
 *
 * The data frames take the codec's structs, so a call names each field:
 *	n = t_unicast(buf, sizeof(buf), (struct wire_unicast){ .ttl = 50,
 *	    .dst = a, .src = b, .inner = in, .inner_len = il });
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

/* Data frames; the length written, padding not included. */
size_t	t_unicast(uint8_t *buf, size_t cap, struct wire_unicast u);
size_t	t_bcast(uint8_t *buf, size_t cap, struct wire_bcast b);
size_t	t_echo(uint8_t *buf, size_t cap, struct wire_echo e);

/* h built and signed by id (h->pk is id's). */
size_t	t_hello(uint8_t *buf, size_t cap, const struct wire_hello *h,
	    const struct bs_identity *id);

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
