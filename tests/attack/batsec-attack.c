/*
 * batsec-attack.c — a hostile mesh node for the attack tests
 * (tests/t_attack.sh).  It speaks the batsec wire protocol through the
 * project's own encoders on one AF_PACKET socket, in a network namespace
 * the test made, and never anywhere else.
 *
 *   batsec-attack -i IFACE -m MODE [-t SECS] [-r FRAMES/S] [-f FILE]
 *	[-c MAC,...] [-e ETHERTYPE] [-K KEYFILE] [-V ADDR] [-C ADDR]
 *	[-T ADDR] [-M MAC] [-w TOKEN] [-y data] [-S MAC] [-x KINDS] [-n N]
 *
 * Control-plane modes:
 *   forge	HELLOs and OGM frames signed by random unknown keys (and
 *		random link tags), as fast as -r allows (0: no pause)
 *   sybil	become a neighbour with a fresh key (a stranger in mode
 *		open), then announce OGMs of freshly generated keys, each
 *		correctly signed, many per frame
 *   capture	write every frame heard for SECS to FILE (-y data: only
 *		UNICAST, BCAST and ECHO; -S MAC: only from that source)
 *   replay	send the frames of FILE again, as they were captured
 *		(both MAC addresses kept), again and again for SECS
 *   inflate	become a neighbour, then relay every OGM entry heard
 *		with TQ 255 and one hop fewer than it had (hops 0 when
 *		it had 1), unchanged hop-chain element
 *   malformed	frames of every type, cut, padded and with bad counts
 *   chain	compact OGM entries of every originator heard, with made-up
 *		chain elements and seqnos ahead (OGM chain desynchronisation)
 *   claim	become a neighbour and originate OGMs announcing the
 *		client MACs of -c and a gateway it has no right to
 *   roam	forged roaming (tests/t_mesh_roam.sh): as claim with a key
 *		the mesh admits (-K), no gateway, and the clients of -c
 *		claimed in every other OGM only, so that each OGM that
 *		claims them looks like a fresh roam to their owners
 *   linksig	as -C (MAC and mesh address learnt from its HELLOs): OGM
 *		frames with garbage type-2 (signature) trailers and fresh
 *		frame counters, as fast as -r allows
 *   hellotag	as -C (key, MAC, epoch, salt and tag key ids learnt from its
 *		HELLOs): HELLOs with random link tags under those key ids,
 *		newer seqnos and no neighbours, as fast as -r allows
 *   hellos	-n fresh keys, each with its own random source MAC, send
 *		correctly signed HELLOs every second (strangers in mode
 *		open, each wanting a neighbour slot)
 *   wants	-K, a neighbour of -V: HELLOs asking for the full OGM
 *		entries of 8 originators heard (descriptions on request),
 *		as fast as -r allows
 *
 * Data-plane modes (version-2 data frames, laid out here by hand from
 * the specification, see "version-2 data frames" below).  -V names the
 * victim neighbour by mesh address, -C the member whose interface MAC and
 * mesh address are copied, -T the destination originator; their MACs,
 * keys and epochs are learnt from the HELLOs and OGMs heard.  Every inner
 * frame carries -w TOKEN followed by a suffix naming its kind, so a
 * listener on batsec0 can count what was delivered:
 *   outsider	no admitted key: as -C, UNICAST, ECHO (to -T and to -V) and
 *		BCAST frames of version 2 with random or sniffed key ids and
 *		random tags ("-o2u", "-o2b"), and the same of version 1
 *		("-o1u", "-o1b")
 *   mutate	each frame of FILE, with one bit flipped in each of its
 *		fields (first and last byte), once each; then -n copies of
 *		nothing else
 *   insider	-K: a node key the mesh admits; become a neighbour and
 *		originator, then with correct hop tags send -x KINDS
 *		(default "own,forge"): own = UNICAST to -T ("-iu"), ECHO to
 *		-T, BCAST ("-ib"), all correct; forge = UNICAST and ECHO
 *		with -C's source address ("-fu") and a BCAST of -C signed
 *		by our key ("-fb")
 *   bseq	-K as insider; each time a BCAST of -C is heard, send -n
 *		BCASTs of -C with the next sequence numbers, correctly
 *		hop-tagged for every neighbour but signed by our key
 *   dflood	as -C to -V, UNICASTs with the sniffed (or a random) key
 *		id and random tags, as fast as -r allows
 *   trace	-K as insider; -x fake and/or flood: fake = for every
 *		TRACE heard (a traceroute probe of another node), a TTLX
 *		to its source in -C's name (sealed with our key: the
 *		forgery) and, when its TTL is 1, one in our own name
 *		(correct, but we are not its first hop); flood = TRACEs
 *		with TTL 1 to -V, for -T, from our address and from -C's
 *		(spoofed), as fast as -r allows; reports trace_fakes,
 *		ttlx_to_us (the TTLXs that came back to us) and flood_ms
 *   fflood	-K as insider; then FRAG pieces to -V for -T (default -V):
 *		the first 100 bytes of chains of 1562 that never complete,
 *		a new seqno each, in the name of every originator heard and
 *		ours in turn, correctly hop-tagged (-x forge: random tags),
 *		as fast as -r allows (-t counting from the first piece);
 *		prints "chains N"
 *
 * Prints "sent N frames" at the end, and for the data-plane modes
 * "KEY VALUE" lines (echo_replies, echo_to_copy, keyid, ...); exit 0, or
 * 1 with a line on stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "lib/t_frames.h"
#include "proto/wire.h"

#define ATK_MAX_PEERS	16
#define ATK_MAX_ORIGS	64
#define ATK_POOL	64	/* random keys reused by forge */
#define ATK_HOPKEY_LEN	16

/*
 * A HELLO sender: the static key of our two node keys, and the OGM key
 * and hop key of our link with it (from both MACs, epochs and salts).
 */
struct atk_peer {
	uint8_t pk[BS_PK_LEN];
	uint8_t addr[BS_ADDR_LEN];
	uint8_t lkey[BS_LINKKEY_LEN];
	uint8_t key[BS_LINKKEY_LEN];
	uint8_t keyid[BS_KEYID_LEN];
	int keyed;
	uint8_t mac[6];
	uint32_t epoch;
	uint8_t salt[BS_LINKSALT_LEN];
	uint8_t hop[ATK_HOPKEY_LEN];
	uint8_t hopid[BS_KEYID_LEN];
	/* Its last HELLO with link tags: their key ids and its seqno. */
	uint8_t hkid[WIRE_MAX_TAGS][BS_KEYID_LEN];
	unsigned n_hkid;
	uint32_t hseq;
};

/* An originator heard in an OGM (or a HELLO): its key and epoch. */
struct atk_orig {
	uint8_t addr[BS_ADDR_LEN];
	uint8_t pk[BS_PK_LEN];
	uint32_t epoch;
	uint32_t seqno;			/* newest heard (full or compact) */
	int keyed;			/* pk and epoch known: a full entry or
					   a HELLO was heard, not only compact
					   entries */
};

struct atk {
	int fd;
	int ifindex;
	uint16_t etype;
	uint8_t mac[6];
	struct bs_identity id;
	uint8_t addr[BS_ADDR_LEN];
	uint32_t epoch;
	uint32_t hello_seqno, ogm_seqno;
	uint64_t counter;
	struct atk_peer peer[ATK_MAX_PEERS];
	int n_peer;
	struct atk_orig orig[ATK_MAX_ORIGS];
	int n_orig;
	uint64_t sent;
	unsigned rate;
	uint64_t start_ns;
	uint8_t rx_dst[6];		/* destination MAC of the last frame */
	/* The data-plane modes' targets (mesh addresses; set: non-zero). */
	uint8_t victim[BS_ADDR_LEN], copy[BS_ADDR_LEN], target[BS_ADDR_LEN];
	uint8_t inner_dst[6];		/* -M */
	const char *token;		/* -w */
	const char *kinds;		/* -x */
	unsigned count;			/* -n */
	int data_only;			/* -y data */
	uint8_t only_src[6];		/* -S */
	int has_only_src;
	uint64_t hop_ctr;		/* our hop counter, lane 0 */
	uint64_t e2e_ctr;
	/* What the data-plane modes sniffed and saw. */
	uint8_t sniff_keyid[BS_KEYID_LEN];
	uint64_t sniff_ctr;
	int sniffed;
	uint64_t echo_replies, echo_to_copy;
	uint64_t trace_fakes, ttlx_to_us;
};

static uint64_t
atk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
atk_die(const char *what)
{
	fprintf(stderr, "batsec-attack: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
atk_open(struct atk *a, const char *ifname)
{
	struct sockaddr_ll sll;
	struct packet_mreq mr;
	struct ifreq ifr;

	a->fd = socket(AF_PACKET, SOCK_RAW, htons(a->etype));
	if (a->fd < 0)
		atk_die("socket");
	memset(&ifr, 0, sizeof(ifr));
	if (strlen(ifname) >= IFNAMSIZ) {
		fprintf(stderr, "batsec-attack: interface name too long\n");
		exit(1);
	}
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(a->fd, SIOCGIFINDEX, &ifr) != 0)
		atk_die(ifname);
	a->ifindex = ifr.ifr_ifindex;
	if (ioctl(a->fd, SIOCGIFHWADDR, &ifr) != 0)
		atk_die("SIOCGIFHWADDR");
	memcpy(a->mac, ifr.ifr_hwaddr.sa_data, 6);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(a->etype);
	sll.sll_ifindex = a->ifindex;
	if (bind(a->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		atk_die("bind");
	/* Hear the frames of the segment addressed to other stations. */
	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = a->ifindex;
	mr.mr_type = PACKET_MR_PROMISC;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
	    sizeof(mr)) != 0)
		atk_die("PACKET_ADD_MEMBERSHIP");
}

/* Keep to the rate: -r frames per second on average. */
static void
atk_pace(struct atk *a)
{
	uint64_t due, now;

	if (a->rate == 0)
		return;
	due = a->start_ns + a->sent * (1000000000u / a->rate);
	now = atk_now_ns();
	if (due > now)
		usleep((useconds_t)((due - now) / 1000));
}

/* One Ethernet frame to dst (NULL: broadcast), from src (NULL: our MAC). */
static void
atk_send_to(struct atk *a, const uint8_t *dst, const uint8_t *src,
    const uint8_t *p, size_t len)
{
	uint8_t f[14 + WIRE_OGM_MAX_LEN + 64];

	if (len > sizeof(f) - 14)
		return;
	if (dst != NULL)
		memcpy(f, dst, 6);
	else
		memset(f, 0xff, 6);
	memcpy(f + 6, src != NULL ? src : a->mac, 6);
	f[12] = (uint8_t)(a->etype >> 8);
	f[13] = (uint8_t)a->etype;
	memcpy(f + 14, p, len);
	atk_pace(a);
	if (send(a->fd, f, 14 + len, 0) >= 0)
		a->sent++;
}

static void
atk_send(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	atk_send_to(a, NULL, src, p, len);
}

/* A frame received within ms, payload into p (Ethernet header cut). */
static ssize_t
atk_recv(struct atk *a, uint8_t *src, uint8_t *p, size_t cap, int ms)
{
	uint8_t f[14 + 9200];
	struct pollfd pfd = { a->fd, POLLIN, 0 };
	struct sockaddr_ll sll;
	socklen_t sl = sizeof(sll);
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return -1;
	n = recvfrom(a->fd, f, sizeof(f), MSG_DONTWAIT,
	    (struct sockaddr *)&sll, &sl);
	if (n < 14 || (size_t)(n - 14) > cap)
		return -1;
	if (sll.sll_pkttype == PACKET_OUTGOING)
		return -1;	/* what we sent, whatever its source MAC */
	if (memcmp(f + 6, a->mac, 6) == 0)
		return -1;	/* our own */
	memcpy(a->rx_dst, f, 6);
	memcpy(src, f + 6, 6);
	memcpy(p, f + 14, (size_t)n - 14);
	return n - 14;
}

/* ---- version-2 data frames, laid out by hand --------------------------------- */

/*
 * The hostile node writes these frames itself, from the text of the
 * specification (batsec-protocol(7), "Data frames"), rather than through
 * the codec: it must write the frames the codec refuses to build, and
 * its keys and tags, derived here with libsodium from the same text,
 * check the daemon's own derivations (a control frame that the daemon
 * refuses fails the test as surely as a forged one it accepts).
 *
 * UNICAST and ECHO: type, version, ttl, reserved, hop key id (4), hop
 * counter (8), hop tag (8), then dst (6), src (6), src epoch (4), dst
 * epoch (4), suite byte (1) and e2e counter (7), ciphertext, AEAD tag (16).
 * BCAST: type, version, ttl, number of tags, hop counter (8), tags of 12
 * (key id, tag), signed header of 20, inner frame, signature (64).
 */
#define D2_VERSION	2
#define D2_TTL		50
#define D2_KEYID_OFF	4
#define D2_HCTR_OFF	8
#define D2_HTAG_OFF	16
#define D2_HTAG_LEN	8
#define D2_E2E_OFF	24
#define D2_E2E_LEN	28
#define D2_CT_OFF	52
#define D2_AEAD_LEN	16
#define D2_OVERHEAD	(D2_CT_OFF + D2_AEAD_LEN)
#define D2_HOP_IN	(16 + D2_E2E_LEN + D2_AEAD_LEN)
#define D2_AD_LEN	(1 + D2_E2E_LEN)
#define D2_BC_FIXED	12
#define D2_BC_TAG_LEN	12
#define D2_BC_MAX_TAGS	8
#define D2_BC_SGN_LEN	20
#define D2_BC_TAG_IN	(D2_BC_FIXED + D2_BC_SGN_LEN + BS_SIG_LEN)
#define D2_ECHO_BODY	6
#define D2_E2E_KEY_LEN	32
#define D2_INNER_MAX	1518

static const char d2_hopid_label[] = "batsec2-hopid";
static const char d2_e2e_label[] = "batsec2-e2e";
static const char d2_bcast_label[] = "batsec2 bcast";

static void
d2_hop_keyid(uint8_t id[BS_KEYID_LEN], const uint8_t h[ATK_HOPKEY_LEN])
{
	uint8_t d[32];

	crypto_generichash(d, sizeof(d), (const uint8_t *)d2_hopid_label,
	    sizeof(d2_hopid_label) - 1, h, ATK_HOPKEY_LEN);
	memcpy(id, d, BS_KEYID_LEN);
}

/* K(src -> dst) = BLAKE2b-256(key = L, "batsec2-e2e" || pks || epochs). */
static void
d2_e2e_key(uint8_t k[D2_E2E_KEY_LEN], const uint8_t link[BS_LINKKEY_LEN],
    const uint8_t *src_pk, const uint8_t *dst_pk, uint32_t src_ep,
    uint32_t dst_ep)
{
	uint8_t msg[sizeof(d2_e2e_label) - 1 + 2 * BS_PK_LEN + 8];
	size_t o = sizeof(d2_e2e_label) - 1;

	memcpy(msg, d2_e2e_label, o);
	memcpy(msg + o, src_pk, BS_PK_LEN);
	memcpy(msg + o + BS_PK_LEN, dst_pk, BS_PK_LEN);
	bs_put32(msg + o + 2 * BS_PK_LEN, src_ep);
	bs_put32(msg + o + 2 * BS_PK_LEN + 4, dst_ep);
	crypto_generichash(k, D2_E2E_KEY_LEN, msg, sizeof(msg), link,
	    BS_LINKKEY_LEN);
}

/* The hop tag of a sealed frame of len bytes (random without a key). */
static void
d2_sealed_tag(uint8_t *f, size_t len, const uint8_t *hop)
{
	uint8_t in[D2_HOP_IN];

	if (hop == NULL) {
		bs_random(f + D2_HTAG_OFF, D2_HTAG_LEN);
		return;
	}
	memcpy(in, f, 16);
	memcpy(in + 16, f + D2_E2E_OFF, D2_E2E_LEN);
	memcpy(in + 16 + D2_E2E_LEN, f + len - D2_AEAD_LEN, D2_AEAD_LEN);
	crypto_shorthash_siphash24(f + D2_HTAG_OFF, in, sizeof(in), hop);
}

/* A UNICAST or ECHO as its source seals it and one hop tags it. */
struct d2_sealed {
	uint8_t type;
	const uint8_t *dst, *src;	/* mesh addresses */
	uint32_t src_epoch, dst_epoch;
	uint64_t e2e_ctr;
	const uint8_t *pt;
	size_t pt_len;
	const uint8_t *e2e_key;		/* NULL: pt as it is, random AEAD tag */
	const uint8_t *hop;		/* NULL: a random hop tag */
	const uint8_t *keyid;		/* NULL: a random key id */
	uint64_t hop_ctr;
	uint8_t ttl;			/* 0: D2_TTL */
};

/* The frame's length, 0 when it does not fit. */
static size_t
d2_sealed(uint8_t *buf, size_t cap, const struct d2_sealed *s)
{
	uint8_t nonce[12], ad[D2_AD_LEN];
	size_t len;

	if (cap < D2_OVERHEAD || s->pt_len > cap - D2_OVERHEAD)
		return 0;
	len = D2_OVERHEAD + s->pt_len;
	buf[0] = s->type;
	buf[1] = D2_VERSION;
	buf[2] = s->ttl != 0 ? s->ttl : D2_TTL;
	buf[3] = 0;
	if (s->keyid != NULL)
		memcpy(buf + D2_KEYID_OFF, s->keyid, BS_KEYID_LEN);
	else
		bs_random(buf + D2_KEYID_OFF, BS_KEYID_LEN);
	bs_put64(buf + D2_HCTR_OFF, s->hop_ctr);
	memcpy(buf + D2_E2E_OFF, s->dst, BS_ADDR_LEN);
	memcpy(buf + D2_E2E_OFF + 6, s->src, BS_ADDR_LEN);
	bs_put32(buf + D2_E2E_OFF + 12, s->src_epoch);
	bs_put32(buf + D2_E2E_OFF + 16, s->dst_epoch);
	bs_put64(buf + D2_E2E_OFF + 20, s->e2e_ctr);
	if (s->e2e_key != NULL) {
		ad[0] = buf[0];
		memcpy(ad + 1, buf + D2_E2E_OFF, D2_E2E_LEN);
		memset(nonce, 0, 4);
		bs_put64(nonce + 4, s->e2e_ctr);
		crypto_aead_chacha20poly1305_ietf_encrypt_detached(
		    buf + D2_CT_OFF, buf + len - D2_AEAD_LEN, NULL, s->pt,
		    s->pt_len, ad, sizeof(ad), NULL, nonce, s->e2e_key);
	} else {
		memcpy(buf + D2_CT_OFF, s->pt, s->pt_len);
		bs_random(buf + len - D2_AEAD_LEN, D2_AEAD_LEN);
	}
	d2_sealed_tag(buf, len, s->hop);
	return len;
}

/*
 * FRAG: the hop part of UNICAST, then dst (6), fragmenter (6), seqno
 * (4), total (2), offset (2), the piece; the hop tag covers bytes 0..16
 * and 24 to the end.  hop NULL: a random tag.  The frame's length.
 */
#define D2_FRAG_HDR	44
#define D2_FRAG_PIECE	100

static size_t
d2_frag(uint8_t *buf, size_t cap, const uint8_t *dst, const uint8_t *orig,
    uint32_t seqno, uint16_t total, const uint8_t *piece,
    const uint8_t *hop, const uint8_t *keyid, uint64_t hop_ctr)
{
	uint8_t in[D2_FRAG_HDR + D2_FRAG_PIECE];
	size_t len = D2_FRAG_HDR + D2_FRAG_PIECE;

	if (cap < len)
		return 0;
	buf[0] = WIRE_T_FRAG;
	buf[1] = D2_VERSION;
	buf[2] = D2_TTL;
	buf[3] = 0;
	memcpy(buf + D2_KEYID_OFF, keyid, BS_KEYID_LEN);
	bs_put64(buf + D2_HCTR_OFF, hop_ctr);
	memcpy(buf + D2_E2E_OFF, dst, BS_ADDR_LEN);
	memcpy(buf + D2_E2E_OFF + 6, orig, BS_ADDR_LEN);
	bs_put32(buf + D2_E2E_OFF + 12, seqno);
	bs_put16(buf + D2_E2E_OFF + 16, total);
	bs_put16(buf + D2_E2E_OFF + 18, 0);
	memcpy(buf + D2_FRAG_HDR, piece, D2_FRAG_PIECE);
	if (hop == NULL) {
		bs_random(buf + D2_HTAG_OFF, D2_HTAG_LEN);
		return len;
	}
	memcpy(in, buf, D2_HTAG_OFF);
	memcpy(in + D2_HTAG_OFF, buf + D2_E2E_OFF, len - D2_E2E_OFF);
	crypto_shorthash_siphash24(buf + D2_HTAG_OFF, in, len - D2_HTAG_LEN,
	    hop);
	return len;
}

/* A BCAST: the originator's signed block, one tag per hop key. */
struct d2_bcast {
	uint64_t hop_ctr;
	const uint8_t *orig;
	uint32_t epoch, seqno;
	const uint8_t *inner;
	size_t inner_len;
	const struct bs_identity *signer;	/* NULL: a random signature */
	unsigned ntags;				/* 1..8 */
	const uint8_t *const *hop;		/* ntags keys; NULL: random */
	const uint8_t *const *keyid;		/* ntags ids; NULL: random */
};

static size_t
d2_bcast(uint8_t *buf, size_t cap, const struct d2_bcast *b)
{
	uint8_t msg[16 + D2_BC_SGN_LEN + D2_INNER_MAX], in[D2_BC_TAG_IN];
	size_t s, len, blen;
	uint8_t *sig;
	unsigned i;

	if (b->ntags < 1 || b->ntags > D2_BC_MAX_TAGS ||
	    b->inner_len > D2_INNER_MAX)
		return 0;
	s = D2_BC_FIXED + D2_BC_TAG_LEN * b->ntags;
	blen = D2_BC_SGN_LEN + b->inner_len;
	if (cap < s + blen + BS_SIG_LEN)
		return 0;
	len = s + blen + BS_SIG_LEN;
	buf[0] = WIRE_T_BCAST;
	buf[1] = D2_VERSION;
	buf[2] = D2_TTL;
	buf[3] = (uint8_t)b->ntags;
	bs_put64(buf + 4, b->hop_ctr);
	memset(buf + s, 0, D2_BC_SGN_LEN);
	bs_put16(buf + s + 2, (uint16_t)b->inner_len);
	memcpy(buf + s + 4, b->orig, BS_ADDR_LEN);
	bs_put32(buf + s + 10, b->epoch);
	bs_put32(buf + s + 14, b->seqno);
	memcpy(buf + s + D2_BC_SGN_LEN, b->inner, b->inner_len);
	sig = buf + s + blen;
	if (b->signer != NULL) {
		memset(msg, 0, 16);
		memcpy(msg, d2_bcast_label, sizeof(d2_bcast_label) - 1);
		memcpy(msg + 16, buf + s, blen);
		crypto_sign_detached(sig, NULL, msg, 16 + blen,
		    b->signer->sk);
	} else
		bs_random(sig, BS_SIG_LEN);
	memcpy(in, buf, D2_BC_FIXED);
	memcpy(in + D2_BC_FIXED, buf + s, D2_BC_SGN_LEN);
	memcpy(in + D2_BC_FIXED + D2_BC_SGN_LEN, sig, BS_SIG_LEN);
	for (i = 0; i < b->ntags; i++) {
		uint8_t *t = buf + D2_BC_FIXED + D2_BC_TAG_LEN * i;

		if (b->keyid != NULL && b->keyid[i] != NULL)
			memcpy(t, b->keyid[i], BS_KEYID_LEN);
		else
			bs_random(t, BS_KEYID_LEN);
		if (b->hop != NULL && b->hop[i] != NULL)
			crypto_shorthash_siphash24(t + BS_KEYID_LEN, in,
			    sizeof(in), b->hop[i]);
		else
			bs_random(t + BS_KEYID_LEN, D2_HTAG_LEN);
	}
	return len;
}

/* The originator, epoch and seqno of a version-2 BCAST; 0 when it is one. */
static int
d2_bcast_peek(const uint8_t *p, size_t len, const uint8_t **orig,
    uint32_t *epoch, uint32_t *seqno)
{
	size_t s;

	if (len < D2_BC_FIXED || p[0] != WIRE_T_BCAST || p[1] != D2_VERSION ||
	    p[3] < 1 || p[3] > D2_BC_MAX_TAGS)
		return -1;
	s = D2_BC_FIXED + (size_t)D2_BC_TAG_LEN * p[3];
	if (len - D2_BC_FIXED < s - D2_BC_FIXED + D2_BC_SGN_LEN)
		return -1;
	*orig = p + s + 4;
	*epoch = bs_get32(p + s + 10);
	*seqno = bs_get32(p + s + 14);
	return 0;
}

/*
 * Version-1 data frames, as the version-1 codec laid them out: UNICAST
 * type, version, ttl, 0, dst, src, inner length, 0, 0, inner; BCAST type,
 * version, ttl, 0, seqno, originator, inner length, inner; ECHO type,
 * version, ttl, kind, dst, src, ident, seqno.
 */
static size_t
d1_frame(uint8_t *buf, size_t cap, uint8_t type, const uint8_t *dst,
    const uint8_t *src, uint32_t seqno, const uint8_t *inner,
    size_t inner_len)
{
	size_t h = type == WIRE_T_BCAST ? 16 : 20;

	if (cap < h || inner_len > cap - h || inner_len > D2_INNER_MAX)
		return 0;
	memset(buf, 0, h);
	buf[0] = type;
	buf[1] = 1;
	buf[2] = D2_TTL;
	if (type == WIRE_T_BCAST) {
		bs_put32(buf + 4, seqno);
		memcpy(buf + 8, src, BS_ADDR_LEN);
		bs_put16(buf + 14, (uint16_t)inner_len);
	} else {
		memcpy(buf + 4, dst, BS_ADDR_LEN);
		memcpy(buf + 10, src, BS_ADDR_LEN);
		if (type == WIRE_T_ECHO) {
			buf[3] = 1;	/* request */
			bs_put16(buf + 16, (uint16_t)seqno);
			bs_put16(buf + 18, (uint16_t)seqno);
			return 20;
		}
		bs_put16(buf + 16, (uint16_t)inner_len);
	}
	memcpy(buf + h, inner, inner_len);
	return h + inner_len;
}

/* ---- being a neighbour -------------------------------------------------------- */

static void
atk_identity(struct atk *a)
{
	if (bs_identity_generate(&a->id) != 0) {
		fprintf(stderr, "batsec-attack: key generation failed\n");
		exit(1);
	}
	bs_mesh_addr(a->addr, a->id.pk);
	a->epoch = (uint32_t)time(NULL);
}

/* Our HELLO; ask: its want list names the first originators heard. */
static void
atk_hello_asking(struct atk *a, int ask)
{
	struct wire_hello h;
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	int i;

	memset(&h, 0, sizeof(h));
	h.pk = a->id.pk;
	h.ifmac = a->mac;
	h.interval_ms = 500;
	h.epoch = a->epoch;
	h.seqno = ++a->hello_seqno;
	for (i = 0; i < a->n_peer; i++) {
		h.neigh[i].addr = a->peer[i].addr;
		h.neigh[i].rx_count = WIRE_RX_WINDOW;	/* "heard all" */
	}
	h.num_neigh = (unsigned)a->n_peer;
	for (i = 0; ask && i < a->n_orig && i < WIRE_HELLO_MAX_WANT; i++)
		h.want[h.num_want++] = a->orig[i].addr;
	atk_send(a, NULL, buf, t_hello(buf, sizeof(buf), &h, &a->id));
}

static void
atk_hello(struct atk *a)
{
	atk_hello_asking(a, 0);
}

static struct atk_orig *
atk_orig_find(struct atk *a, const uint8_t *addr)
{
	int i;

	for (i = 0; i < a->n_orig; i++)
		if (memcmp(a->orig[i].addr, addr, BS_ADDR_LEN) == 0)
			return &a->orig[i];
	return NULL;
}

static struct atk_peer *
atk_peer_find(struct atk *a, const uint8_t *addr)
{
	int i;

	for (i = 0; i < a->n_peer; i++)
		if (memcmp(a->peer[i].addr, addr, BS_ADDR_LEN) == 0)
			return &a->peer[i];
	return NULL;
}

/* An originator's key and latest epoch. */
static void
atk_orig_note(struct atk *a, const uint8_t *pk, uint32_t epoch)
{
	uint8_t addr[BS_ADDR_LEN];
	struct atk_orig *o;

	bs_mesh_addr(addr, pk);
	if ((o = atk_orig_find(a, addr)) == NULL) {
		if (a->n_orig >= ATK_MAX_ORIGS)
			return;
		o = &a->orig[a->n_orig++];
		memcpy(o->addr, addr, BS_ADDR_LEN);
	}
	memcpy(o->pk, pk, BS_PK_LEN);
	o->epoch = epoch;
	o->keyed = 1;
}

/* An originator named by a compact entry only (address, no key yet). */
static void
atk_orig_seen(struct atk *a, const uint8_t addr[static BS_ADDR_LEN])
{
	struct atk_orig *o;

	if (atk_orig_find(a, addr) != NULL || a->n_orig >= ATK_MAX_ORIGS)
		return;
	o = &a->orig[a->n_orig++];
	memset(o, 0, sizeof(*o));
	memcpy(o->addr, addr, BS_ADDR_LEN);
}

/*
 * The keys of our link with q: the root from the static key, both MACs,
 * epochs and salts (ours: t_salt, what t_hello puts in our HELLOs), then
 * the OGM key and the hop key (batsec-protocol(7), LINK KEYS).
 */
static void
atk_link_keys(struct atk *a, struct atk_peer *q)
{
	uint8_t own_salt[BS_LINKSALT_LEN], root[BS_LINKROOT_LEN];
	struct bs_hop_end me = { a->id.pk, a->mac, a->epoch, own_salt };
	struct bs_hop_end it = { q->pk, q->mac, q->epoch, q->salt };

	t_salt(own_salt, a->id.pk);
	bs_link_root(root, q->lkey, &me, &it);
	bs_ogm_key(q->key, root);
	bs_link_keyid(q->keyid, q->key);
	bs_hop_key(q->hop, root);
	d2_hop_keyid(q->hopid, q->hop);
}

/* Learn the HELLO senders around us (link keys, MACs, hop keys). */
static void
atk_learn(struct atk *a, const uint8_t *p, size_t len)
{
	struct wire_hello h;
	struct atk_peer *q;
	uint8_t addr[BS_ADDR_LEN];

	if (wire_hello_parse(p, len, &h) != WIRE_OK)
		return;
	bs_mesh_addr(addr, h.pk);
	atk_orig_note(a, h.pk, h.epoch);
	if ((q = atk_peer_find(a, addr)) == NULL) {
		if (a->n_peer >= ATK_MAX_PEERS)
			return;
		q = &a->peer[a->n_peer++];
		memcpy(q->pk, h.pk, BS_PK_LEN);
		memcpy(q->addr, addr, BS_ADDR_LEN);
		if (bs_link_key(q->lkey, &a->id, q->pk) == 0)
			q->keyed = 1;
	}
	if (h.tr.auth == WIRE_AUTH_MAC) {
		unsigned i;

		for (i = 0; i < h.tr.num_tags && i < WIRE_MAX_TAGS; i++)
			memcpy(q->hkid[i], h.tr.tags[i].keyid, BS_KEYID_LEN);
		q->n_hkid = h.tr.num_tags;
		q->hseq = h.seqno;
	}
	if (q->epoch == h.epoch && memcmp(q->mac, h.ifmac, 6) == 0 &&
	    memcmp(q->salt, h.salt, BS_LINKSALT_LEN) == 0)
		return;
	q->epoch = h.epoch;
	memcpy(q->mac, h.ifmac, 6);
	memcpy(q->salt, h.salt, BS_LINKSALT_LEN);
	if (q->keyed)
		atk_link_keys(a, q);
}

/*
 * The originators of an OGM frame and their newest seqnos (unverified:
 * we only aim with them); a compact entry names a known one by address.
 */
static void
atk_learn_ogm(struct atk *a, const uint8_t *p, size_t len)
{
	static struct wire_ogm o;
	struct atk_orig *g;
	uint8_t addr[BS_ADDR_LEN];
	unsigned i;

	if (wire_ogm_parse(p, len, &o) != WIRE_OK)
		return;
	for (i = 0; i < o.num_entries; i++) {
		const struct wire_ogm_entry *e = &o.e[i];

		if (e->mut.kind == WIRE_OGM_FULL) {
			atk_orig_note(a, e->sgn.pk, e->sgn.epoch);
			bs_mesh_addr(addr, e->sgn.pk);
		} else {
			memcpy(addr, e->cp.orig, BS_ADDR_LEN);
			atk_orig_seen(a, addr);
		}
		if ((g = atk_orig_find(a, addr)) != NULL &&
		    (int32_t)((e->mut.kind == WIRE_OGM_FULL ? e->sgn.seqno :
		    e->cp.seqno) - g->seqno) > 0)
			g->seqno = e->mut.kind == WIRE_OGM_FULL ?
			    e->sgn.seqno : e->cp.seqno;
	}
}

/* Frames heard for up to ms, handed to fn (may be NULL). */
static void
atk_listen(struct atk *a, int ms,
    void (*fn)(struct atk *, const uint8_t *, const uint8_t *, size_t))
{
	uint8_t p[9200], src[6];
	uint64_t end = atk_now_ns() + (uint64_t)ms * 1000000u;
	uint8_t type;
	ssize_t n;

	while (atk_now_ns() < end) {
		n = atk_recv(a, src, p, sizeof(p), 20);
		if (n <= 0)
			continue;
		if (wire_peek(p, (size_t)n, &type) == WIRE_OK &&
		    type == WIRE_T_HELLO)
			atk_learn(a, p, (size_t)n);
		else if (wire_peek(p, (size_t)n, &type) == WIRE_OK &&
		    type == WIRE_T_OGM)
			atk_learn_ogm(a, p, (size_t)n);
		if (fn != NULL)
			fn(a, src, p, (size_t)n);
	}
}

/* HELLOs every 250 ms for secs, so every peer sees a good link. */
static void
atk_join(struct atk *a, int secs)
{
	int i;

	for (i = 0; i < secs * 4; i++) {
		atk_hello(a);
		atk_listen(a, 250, NULL);
	}
}

/* An OGM frame of the given entries, tagged for every known peer. */
static void
atk_ogm_send(struct atk *a, const struct wire_ogm_mut *m,
    uint8_t (*blocks)[1200], const size_t *blen, unsigned n)
{
	uint8_t buf[WIRE_OGM_MAX_LEN], tag[BS_TAG_LEN];
	struct wire_ogm_builder b;
	const uint8_t *cov;
	size_t clen, len;
	unsigned i, tags = 0;
	uint64_t ctr;
	int k;

	for (k = 0; k < a->n_peer; k++)
		tags += a->peer[k].keyed;
	if (tags == 0 || tags > WIRE_MAX_TAGS ||
	    wire_ogm_begin(&b, buf, sizeof(buf), a->addr) != WIRE_OK)
		return;
	for (i = 0; i < n; i++)
		if (wire_ogm_add(&b, &m[i], blocks[i], blen[i]) != WIRE_OK)
			return;
	ctr = (uint64_t)a->epoch << 32 | ++a->counter;
	if (wire_ogm_trailer(&b, WIRE_AUTH_MAC, tags, ctr, &cov, &clen) !=
	    WIRE_OK)
		return;
	for (k = 0; k < a->n_peer; k++) {
		if (!a->peer[k].keyed)
			continue;
		bs_link_mac(tag, a->peer[k].key, a->addr, ctr, cov, clen);
		wire_ogm_add_tag(&b, a->peer[k].keyid, tag);
	}
	if (wire_ogm_finish(&b, &len) == WIRE_OK)
		atk_send(a, NULL, buf, len);
}

/*
 * A signed block (signed part + signature) of key id, or with a random
 * signature when forged: its length.
 */
static size_t
atk_block2(const struct bs_identity *id, uint32_t epoch, uint32_t seqno,
    const uint8_t seed[BS_CHAIN_LEN], const uint8_t *tvlv, size_t tvlv_len,
    uint8_t *out, size_t cap, int forged)
{
	size_t len = t_ogm_block(out, cap, &(struct t_ogm_entry){ .orig = id,
	    .epoch = epoch, .seqno = seqno, .interval_ms = 1000,
	    .chain_seed = seed, .tvlv = tvlv, .tvlv_len = tvlv_len });

	if (forged)
		bs_random(out + len - BS_SIG_LEN, BS_SIG_LEN);
	return len;
}

static size_t
atk_block(const struct bs_identity *id, uint32_t epoch, uint32_t seqno,
    const uint8_t seed[BS_CHAIN_LEN], const uint8_t *tvlv, size_t tvlv_len,
    uint8_t *out, size_t cap)
{
	return atk_block2(id, epoch, seqno, seed, tvlv, tvlv_len, out, cap, 0);
}

/* ---- the modes ---------------------------------------------------------------- */

static int
atk_running(const struct atk *a, int secs)
{
	return atk_now_ns() - a->start_ns < (uint64_t)secs * 1000000000u;
}

/* Random keys, random tags: nothing verifies, all of it costs. */
static void
mode_forge(struct atk *a, int secs)
{
	static struct bs_identity pool[ATK_POOL];
	uint8_t blocks[4][1200], seed[BS_CHAIN_LEN], elem[BS_CHAIN_LEN];
	uint8_t src[6], buf[WIRE_OGM_MAX_LEN], kid[BS_KEYID_LEN];
	uint8_t tag[BS_TAG_LEN], addr[BS_ADDR_LEN];
	struct wire_ogm_mut m[4];
	struct wire_ogm_builder b;
	size_t blen[4], len;
	const uint8_t *cov;
	size_t clen;
	unsigned i, k = 0;

	for (i = 0; i < ATK_POOL; i++)
		bs_identity_generate(&pool[i]);
	while (atk_running(a, secs)) {
		struct bs_identity *id = &pool[k++ % ATK_POOL];

		/* A HELLO from a random key and a random source MAC. */
		bs_random(src, 6);
		src[0] = (uint8_t)((src[0] & 0xfe) | 0x02);
		a->hello_seqno++;
		{
			struct wire_hello h;
			uint8_t hb[WIRE_HELLO_MAX_LEN], sig[BS_SIG_LEN];
			uint8_t salt[BS_LINKSALT_LEN];

			memset(&h, 0, sizeof(h));
			h.pk = id->pk;
			h.ifmac = src;
			h.interval_ms = 500;
			h.epoch = 1;
			h.seqno = a->hello_seqno;
			bs_random(salt, sizeof(salt));
			h.salt = salt;
			if (wire_hello_build(hb, sizeof(hb), &h, &len) ==
			    WIRE_OK) {
				bs_random(sig, sizeof(sig));
				if (wire_sig_append(hb, sizeof(hb), &len, sig) ==
				    WIRE_OK)
					atk_send(a, src, hb, len);
			}
		}
		/* An OGM frame of 4 entries of random keys, random tag. */
		bs_mesh_addr(addr, id->pk);
		for (i = 0; i < 4; i++) {
			bs_random(seed, sizeof(seed));
			blen[i] = atk_block2(&pool[(k + i) % ATK_POOL], 1,
			    a->hello_seqno, seed, NULL, 0, blocks[i],
			    sizeof(blocks[i]), 1);
			bs_chain_iter(elem, seed, 1);
			memset(&m[i], 0, sizeof(m[i]));
			m[i].ttl = 50;
			m[i].tq = 225;
			m[i].hops = 1;
			m[i].prev_sender = addr;
			m[i].chain = elem;
		}
		if (wire_ogm_begin(&b, buf, sizeof(buf), addr) != WIRE_OK)
			continue;
		for (i = 0; i < 4; i++)
			wire_ogm_add(&b, &m[i], blocks[i], blen[i]);
		wire_ogm_trailer(&b, WIRE_AUTH_MAC, 1, k, &cov, &clen);
		bs_random(kid, sizeof(kid));
		bs_random(tag, sizeof(tag));
		wire_ogm_add_tag(&b, kid, tag);
		if (wire_ogm_finish(&b, &len) == WIRE_OK)
			atk_send(a, src, buf, len);
	}
}

/* Fresh keys, each a valid stranger, 8 entries per frame. */
static void
mode_sybil(struct atk *a, int secs)
{
	struct bs_identity id;
	uint8_t blocks[8][1200], seed[BS_CHAIN_LEN], elem[8][BS_CHAIN_LEN];
	struct wire_ogm_mut m[8];
	size_t blen[8];
	uint64_t last_hello = 0;
	unsigned i;

	atk_join(a, 3);
	while (atk_running(a, secs)) {
		if (atk_now_ns() - last_hello > 250000000u) {
			atk_hello(a);
			atk_listen(a, 1, NULL);
			last_hello = atk_now_ns();
		}
		for (i = 0; i < 8; i++) {
			bs_identity_generate(&id);
			bs_random(seed, sizeof(seed));
			blen[i] = atk_block(&id, a->epoch, 1, seed, NULL, 0,
			    blocks[i], sizeof(blocks[i]));
			bs_chain_iter(elem[i], seed, 1);
			memset(&m[i], 0, sizeof(m[i]));
			m[i].ttl = 50;
			m[i].tq = 225;
			m[i].hops = 1;
			m[i].prev_sender = a->addr;
			m[i].chain = elem[i];
		}
		atk_ogm_send(a, m, blocks, blen, 8);
	}
}

static FILE *cap_file;

/* A captured frame: its length (u16, host order), then the whole frame. */
static void
cap_one(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	uint16_t l = (uint16_t)(len + 14);
	uint8_t et[2] = { (uint8_t)(a->etype >> 8), (uint8_t)a->etype };

	if (len > 9000)
		return;
	if (a->data_only && (len < 2 || p[0] < WIRE_T_UNICAST ||
	    p[0] > WIRE_T_ECHO))
		return;
	if (a->has_only_src && memcmp(src, a->only_src, 6) != 0)
		return;
	fwrite(&l, sizeof(l), 1, cap_file);
	fwrite(a->rx_dst, 6, 1, cap_file);
	fwrite(src, 6, 1, cap_file);
	fwrite(et, 2, 1, cap_file);
	fwrite(p, len, 1, cap_file);
}

static void
mode_capture(struct atk *a, int secs, const char *file)
{
	if ((cap_file = fopen(file, "wb")) == NULL)
		atk_die(file);
	atk_listen(a, secs * 1000, cap_one);
	fclose(cap_file);
}

/* The next frame of a capture file; its length, 0 at the end. */
static size_t
cap_read(FILE *f, uint8_t *frame, size_t cap)
{
	uint16_t l;

	if (fread(&l, sizeof(l), 1, f) != 1 || l < 14 || l > cap ||
	    fread(frame, l, 1, f) != 1)
		return 0;
	return l;
}

/* Every captured frame, as it was captured, again and again. */
static void
mode_replay(struct atk *a, int secs, const char *file)
{
	uint8_t f[14 + 9200];
	size_t l;
	FILE *fp;

	while (atk_running(a, secs)) {
		if ((fp = fopen(file, "rb")) == NULL)
			atk_die(file);
		while ((l = cap_read(fp, f, sizeof(f))) > 0)
			atk_send_to(a, f, f + 6, f + 14, l - 14);
		fclose(fp);
	}
}

/* Each entry heard, relayed with TQ 255 and one hop fewer. */
static void
inflate_one(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	static struct wire_ogm o;
	uint8_t blocks[1][1200];
	struct wire_ogm_mut m = { .kind = WIRE_OGM_FULL };
	size_t blen;
	unsigned i;

	(void)src;
	if (wire_ogm_parse(p, len, &o) != WIRE_OK)
		return;
	for (i = 0; i < o.num_entries; i++) {
		const struct wire_ogm_entry *e = &o.e[i];

		if (e->block_len > sizeof(blocks[0]))
			continue;
		memcpy(blocks[0], e->block, e->block_len);
		blen = e->block_len;
		m = e->mut;
		m.tq = 255;
		if (m.hops > 1)
			m.hops--;
		m.prev_sender = o.sender;
		atk_ogm_send(a, &m, blocks, &blen, 1);
	}
}

static void
mode_inflate(struct atk *a, int secs)
{
	atk_join(a, 3);
	while (atk_running(a, secs)) {
		atk_hello(a);
		atk_listen(a, 250, inflate_one);
	}
}

/*
 * Chain desynchronisation (batsec-protocol(7), "OGM CHAIN"): compact
 * entries for every originator heard, 30 to a frame and two frames
 * every 10 ms, each with a made-up chain element, a seqno 1 to 24 ahead
 * of the newest heard (the walk a receiver does grows with it, beyond 17
 * it refuses to walk) and hops 1, as if relayed from the originator:
 * every one must be refused, the walks paid from our verification
 * budget.
 */
/* 30 compact entries and 16 tags fit a 1500-byte frame. */
#define ATK_CHAIN_ENTRIES	30

static void
mode_chain(struct atk *a, int secs)
{
	static uint8_t blocks[WIRE_OGM_MAX_ENTRIES][1200];
	struct wire_ogm_mut m[WIRE_OGM_MAX_ENTRIES];
	uint8_t elem[WIRE_OGM_MAX_ENTRIES][BS_CHAIN_LEN];
	size_t blen[WIRE_OGM_MAX_ENTRIES];
	unsigned i, k = 0, n;

	atk_join(a, 3);
	while (atk_running(a, secs)) {
		atk_hello(a);
		for (n = 0; n < ATK_CHAIN_ENTRIES && a->n_orig > 0; n++) {
			const struct atk_orig *g = &a->orig[k % a->n_orig];

			memset(&m[n], 0, sizeof(m[n]));
			bs_random(elem[n], BS_CHAIN_LEN);
			m[n].kind = WIRE_OGM_COMPACT;
			m[n].ttl = 49;
			m[n].tq = 225;
			m[n].hops = 1;
			m[n].prev_sender = g->addr;
			m[n].chain = elem[n];
			if (wire_ogm_compact_build(blocks[n], g->addr,
			    g->seqno + 1 + k % 24) != WIRE_OK)
				break;
			blen[n] = WIRE_OGM_COMPACT_BLOCK;
			k++;
		}
		for (i = 0; i < 2 && n > 0; i++)
			atk_ogm_send(a, m, blocks, blen, n);
		atk_listen(a, 10, NULL);
	}
}

/* Truncations, paddings and bad counts of every frame type. */
static void
mode_malformed(struct atk *a, int secs)
{
	uint8_t p[2048], src[6];
	unsigned k = 0;
	size_t len;

	atk_join(a, 1);
	while (atk_running(a, secs)) {
		len = 1 + bs_random_uniform(1500);
		bs_random(p, len);
		p[1] = 1;	/* version */
		switch (k++ % 8) {
		case 0:
			p[0] = WIRE_T_HELLO;
			break;
		case 1:
			p[0] = WIRE_T_OGM;
			break;
		case 2:
			p[0] = WIRE_T_OGM;
			p[2] = 16;	/* entries claimed */
			len = 12 + bs_random_uniform(64);
			break;
		case 3:
			p[0] = WIRE_T_HELLO;
			len = WIRE_HELLO_FIXED_LEN - 1;
			break;
		case 4:
			p[0] = WIRE_T_UNICAST;
			len = 1 + bs_random_uniform(20);
			break;
		case 5:
			p[0] = WIRE_T_BCAST;
			len = 1 + bs_random_uniform(20);
			break;
		case 6:
			p[1] = 2;	/* a future version */
			break;
		default:
			p[0] = (uint8_t)(0x03 + bs_random_uniform(0x3c));
			break;
		}
		/* Half from our MAC, half from random ones (past the
		 * per-source frame rate, into the codec). */
		memcpy(src, a->mac, 6);
		if (k % 2 == 0) {
			bs_random(src, 6);
			src[0] = (uint8_t)((src[0] & 0xfe) | 0x02);
		}
		if (k % 16 == 0)
			atk_hello(a);
		atk_send(a, src, p, len);
	}
}

/*
 * Our own OGMs with clients and a gateway that are not ours; roam: no
 * gateway, and the clients only in every other OGM.
 */
static void
mode_claim(struct atk *a, int secs, const char *clients, int roam)
{
	struct wire_tt_entry tt[WIRE_TT_MAX] = { 0 };
	uint8_t macs[WIRE_TT_MAX][6], tv[1024], blocks[1][1200];
	uint8_t seed[BS_CHAIN_LEN], elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m;
	unsigned n = 0, x[6];
	size_t tvlen = 0, blen;
	const char *c = clients;
	uint64_t k = 0;

	while (c != NULL && *c != '\0' && n < WIRE_TT_MAX &&
	    sscanf(c, "%x:%x:%x:%x:%x:%x", &x[0], &x[1], &x[2], &x[3],
	    &x[4], &x[5]) == 6) {
		for (int i = 0; i < 6; i++)
			macs[n][i] = (uint8_t)x[i];
		tt[n].mac = macs[n];
		tt[n].vid = 0;
		n++;
		c = strchr(c, ',');
		c = c != NULL ? c + 1 : NULL;
	}
	if (n > 0)
		wire_tvlv_put_tt(tv, sizeof(tv), &tvlen, tt, n);
	if (!roam)
		wire_tvlv_put_gateway(tv, sizeof(tv), &tvlen, 100000, 100000);
	atk_join(a, 3);
	while (atk_running(a, secs)) {
		atk_hello(a);
		bs_random(seed, sizeof(seed));
		blen = atk_block(&a->id, a->epoch, ++a->ogm_seqno, seed, tv,
		    roam && k++ % 2 == 1 ? 0 : tvlen, blocks[0],
		    sizeof(blocks[0]));
		bs_chain_iter(elem, seed, 0);
		memset(&m, 0, sizeof(m));
		m.ttl = 50;
		m.tq = 255;
		m.hops = 0;
		m.prev_sender = a->addr;
		m.chain = elem;
		if (blen > 0)
			atk_ogm_send(a, &m, blocks, &blen, 1);
		atk_listen(a, 250, NULL);
	}
}

/* ---- the data-plane modes ------------------------------------------------------ */

static const uint8_t atk_bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static int
atk_set(const uint8_t *addr)
{
	static const uint8_t zero[BS_ADDR_LEN];

	return memcmp(addr, zero, BS_ADDR_LEN) != 0;
}

/*
 * The inner Ethernet frame of a data frame: dst (NULL: broadcast), our
 * client MAC, ethertype 0x88b6, "TOKEN-kind" zero-padded to 64 bytes.
 */
static size_t
atk_inner(const struct atk *a, uint8_t buf[14 + 64], const uint8_t *dst,
    const char *kind)
{
	static const uint8_t client[6] = { 0x02, 0xba, 0x7a, 0xc4, 0x00, 0x01 };

	memcpy(buf, dst != NULL ? dst : atk_bcast_mac, 6);
	memcpy(buf + 6, client, 6);
	buf[12] = 0x88;
	buf[13] = 0xb6;
	memset(buf + 14, 0, 64);
	snprintf((char *)buf + 14, 64, "%s-%s", a->token, kind);
	return 14 + 64;
}

/* The MAC we pose with as -C: heard in its HELLOs, else -S, else its address. */
static const uint8_t *
atk_copy_mac(struct atk *a)
{
	struct atk_peer *c = atk_peer_find(a, a->copy);

	if (c != NULL)
		return c->mac;
	return a->has_only_src ? a->only_src : a->copy;
}

static uint32_t
atk_epoch_of(struct atk *a, const uint8_t *addr)
{
	struct atk_orig *o = atk_orig_find(a, addr);

	return o != NULL && o->keyed ? o->epoch : (uint32_t)time(NULL);
}

/*
 * Watch the data frames heard: the key id and counter of -C's frames to
 * -V (for guessed tags that reach the tag check), ECHOs sent to us, and
 * ECHOs from -V to -C (replies to requests forged in -C's name).
 */
static void
atk_watch(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	struct atk_peer *v = atk_peer_find(a, a->victim);

	if (len < D2_OVERHEAD || p[1] != D2_VERSION ||
	    (p[0] != WIRE_T_UNICAST && p[0] != WIRE_T_ECHO))
		return;
	if (p[0] == WIRE_T_ECHO && memcmp(a->rx_dst, a->mac, 6) == 0)
		a->echo_replies++;
	if (v == NULL || !atk_set(a->copy))
		return;
	if (memcmp(src, atk_copy_mac(a), 6) == 0 &&
	    memcmp(a->rx_dst, v->mac, 6) == 0) {
		memcpy(a->sniff_keyid, p + D2_KEYID_OFF, BS_KEYID_LEN);
		if (bs_get64(p + D2_HCTR_OFF) > a->sniff_ctr)
			a->sniff_ctr = bs_get64(p + D2_HCTR_OFF);
		a->sniffed = 1;
	}
	if (p[0] == WIRE_T_ECHO && memcmp(src, v->mac, 6) == 0 &&
	    memcmp(a->rx_dst, atk_copy_mac(a), 6) == 0)
		a->echo_to_copy++;
}

/*
 * Listen until -V said HELLO and -C and -T (when set) were heard as
 * originators, at most secs; 0 when so.  The modes that seal frames in
 * their names (hello: they become a neighbour, whose first OGMs and the
 * full entries handed on to it carry the keys) need their keys; the
 * others aim with addresses, which compact entries give (full entries go
 * out only every 64th interval).
 */
static int
atk_aim(struct atk *a, int secs, int hello)
{
	const struct atk_orig *c, *t;
	int i;

	for (i = 0; i < secs * 4; i++) {
		if (hello)
			atk_hello(a);
		atk_listen(a, 250, atk_watch);
		c = atk_orig_find(a, a->copy);
		t = atk_orig_find(a, a->target);
		if (atk_peer_find(a, a->victim) != NULL &&
		    (!atk_set(a->copy) || (c != NULL && (!hello || c->keyed))) &&
		    (!atk_set(a->target) || (t != NULL && (!hello || t->keyed))))
			return 0;
	}
	fprintf(stderr, "batsec-attack: victim, copy or target not heard\n");
	return -1;
}

static void
atk_report(const struct atk *a)
{
	printf("echo_replies %llu\n", (unsigned long long)a->echo_replies);
	printf("echo_to_copy %llu\n", (unsigned long long)a->echo_to_copy);
	printf("keyid %s\n", a->sniffed ? "sniffed" : "guessed");
}

/* As -C, without its keys: version-2 frames with bad tags, version 1. */
static void
mode_outsider(struct atk *a, int secs)
{
	uint8_t f[D2_OVERHEAD + 14 + 64 + 256], in[14 + 64], echo[D2_ECHO_BODY];
	const uint8_t *cm, *dst, *vmac, *ids[1];
	struct atk_peer *v;
	unsigned k = 0;
	size_t il, n;

	if (atk_aim(a, 8, 0) != 0)
		exit(1);
	v = atk_peer_find(a, a->victim);
	vmac = v->mac;
	cm = atk_copy_mac(a);
	dst = atk_set(a->target) ? a->target : a->victim;
	memset(echo, 0, sizeof(echo));
	echo[0] = 1;
	while (atk_running(a, secs)) {
		struct d2_sealed s = { .type = WIRE_T_UNICAST, .dst = dst,
		    .src = a->copy, .src_epoch = atk_epoch_of(a, a->copy),
		    .dst_epoch = atk_epoch_of(a, dst),
		    .e2e_ctr = (uint64_t)time(NULL) << 22 | k,
		    .hop_ctr = a->sniff_ctr + 1 + k };
		const uint8_t *to = vmac;

		n = 0;
		switch (k++ % 9) {
		case 0:		/* random key id */
			il = atk_inner(a, in, a->inner_dst, "o2u");
			s.pt = in;
			s.pt_len = il;
			n = d2_sealed(f, sizeof(f), &s);
			break;
		case 1:		/* -C's key id with -V, a guessed tag */
			il = atk_inner(a, in, a->inner_dst, "o2u");
			s.pt = in;
			s.pt_len = il;
			s.keyid = a->sniffed ? a->sniff_keyid : NULL;
			n = d2_sealed(f, sizeof(f), &s);
			break;
		case 2:		/* ECHO to the destination */
		case 3:		/* ECHO to the victim itself */
			s.type = WIRE_T_ECHO;
			s.dst = k % 9 == 3 ? dst : a->victim;
			s.pt = echo;
			s.pt_len = sizeof(echo);
			s.keyid = a->sniffed ? a->sniff_keyid : NULL;
			n = d2_sealed(f, sizeof(f), &s);
			break;
		case 4:		/* BCAST of -C, random signature and tag */
			il = atk_inner(a, in, NULL, "o2b");
			ids[0] = a->sniffed ? a->sniff_keyid : NULL;
			n = d2_bcast(f, sizeof(f), &(struct d2_bcast){
			    .hop_ctr = s.hop_ctr, .orig = a->copy,
			    .epoch = s.src_epoch, .seqno = bs_random_uniform(
			    1u << 30), .inner = in, .inner_len = il,
			    .ntags = 1, .keyid = ids });
			to = NULL;
			break;
		case 5:
			il = atk_inner(a, in, a->inner_dst, "o1u");
			n = d1_frame(f, sizeof(f), WIRE_T_UNICAST, dst,
			    a->copy, 0, in, il);
			break;
		case 6:
			il = atk_inner(a, in, NULL, "o1b");
			n = d1_frame(f, sizeof(f), WIRE_T_BCAST, NULL,
			    a->copy, bs_random_uniform(1u << 30), in, il);
			to = NULL;
			break;
		case 7:
			n = d1_frame(f, sizeof(f), WIRE_T_ECHO, dst, a->copy,
			    k, NULL, 0);
			break;
		default:	/* keep watching */
			atk_listen(a, 1, atk_watch);
			break;
		}
		if (n > 0)
			atk_send_to(a, to, cm, f, n);
	}
	atk_listen(a, 1000, atk_watch);
	atk_report(a);
}

/* Each field of a captured data frame: [off, off + len). */
struct atk_field {
	size_t off, len;
	int inner;	/* not under the hop tag: the end-to-end part */
};

/* The fields of a data frame of len bytes; their number. */
static unsigned
atk_fields(const uint8_t *p, size_t len, struct atk_field *fl, unsigned max)
{
	static const struct atk_field sealed[] = { { 0, 1, 0 }, { 1, 1, 0 },
	    { 2, 1, 0 }, { 3, 1, 0 }, { 4, 4, 0 }, { 8, 8, 0 }, { 16, 8, 0 },
	    { 24, 6, 0 }, { 30, 6, 0 }, { 36, 4, 0 }, { 40, 4, 0 }, { 44, 8, 0 } };
	static const struct atk_field bfix[] = { { 0, 1, 0 }, { 1, 1, 0 },
	    { 2, 1, 0 }, { 3, 1, 0 }, { 4, 8, 0 } };
	static const struct atk_field bsgn[] = { { 0, 1, 0 }, { 1, 1, 0 },
	    { 2, 2, 0 }, { 4, 6, 0 }, { 10, 4, 0 }, { 14, 4, 0 }, { 18, 2, 0 } };
	unsigned n = 0, i, t;
	size_t s, il;

	if (len < D2_OVERHEAD || max < 32)
		return 0;
	if (p[0] != WIRE_T_BCAST) {
		for (i = 0; i < sizeof(sealed) / sizeof(sealed[0]); i++)
			fl[n++] = sealed[i];
		fl[n++] = (struct atk_field){ D2_CT_OFF,
		    len - D2_OVERHEAD, 1 };
		fl[n++] = (struct atk_field){ len - D2_AEAD_LEN, D2_AEAD_LEN,
		    0 };
		return n;
	}
	t = p[3];
	if (t < 1 || t > D2_BC_MAX_TAGS)
		return 0;
	s = D2_BC_FIXED + (size_t)D2_BC_TAG_LEN * t;
	if (len < s + D2_BC_SGN_LEN + BS_SIG_LEN)
		return 0;
	for (i = 0; i < sizeof(bfix) / sizeof(bfix[0]); i++)
		fl[n++] = bfix[i];
	/*
	 * A tag group is checked only by the neighbour it is for: with
	 * several, a flip in one leaves the frame authentic for the others,
	 * which may rightly deliver it when they missed the original.  So
	 * the groups are flipped only in a frame with one group.
	 */
	for (i = 0; t == 1 && i < t && n + 2 < max; i++) {
		fl[n++] = (struct atk_field){ D2_BC_FIXED + D2_BC_TAG_LEN * i,
		    BS_KEYID_LEN, 0 };
		fl[n++] = (struct atk_field){ D2_BC_FIXED + D2_BC_TAG_LEN * i +
		    BS_KEYID_LEN, D2_HTAG_LEN, 0 };
	}
	for (i = 0; i < sizeof(bsgn) / sizeof(bsgn[0]) && n < max; i++)
		fl[n++] = (struct atk_field){ s + bsgn[i].off, bsgn[i].len, 0 };
	il = bs_get16(p + s + 2);
	s += D2_BC_SGN_LEN;
	if (il > len - s - BS_SIG_LEN || n + 2 > max)
		return n;
	fl[n++] = (struct atk_field){ s, il, 1 };
	fl[n++] = (struct atk_field){ s + il, BS_SIG_LEN, 0 };
	return n;
}

/*
 * Each frame of FILE with one bit flipped in each field, at its first and
 * at its last byte; then each cut short by one byte.  None is sent as it
 * was captured.  -x hop: only the fields under the hop tag (a frame that
 * passes the hop check uses up its hop counter, so a control can send
 * the originals afterwards only then); -x e2e: only the ciphertext or
 * the broadcast's inner frame, which the hop tag does not cover.
 */
static void
mode_mutate(struct atk *a, const char *file)
{
	uint8_t f[14 + 9200], g[14 + 9200];
	struct atk_field fl[40];
	unsigned n, i, j, bit = 0, frames = 0;
	char what[16 * 12] = "";
	size_t l, pos, w = 0;
	FILE *fp;

	if ((fp = fopen(file, "rb")) == NULL)
		atk_die(file);
	while ((l = cap_read(fp, f, sizeof(f))) > 0) {
		n = atk_fields(f + 14, l - 14, fl, 40);
		if (n == 0)
			continue;
		frames++;
		/* Type and length of the first 16, to tell what was tried. */
		if (frames <= 16 && w < sizeof(what))
			w += (size_t)snprintf(what + w, sizeof(what) - w,
			    " %02x/%zu", f[14], l - 14);
		for (i = 0; i < n; i++) {
			for (j = 0; j < 2; j++) {
				if (fl[i].len == 0 || (j == 1 && fl[i].len == 1))
					continue;
				/* A flip past the end would send the frame as
				 * captured: a delivery that proves nothing. */
				if (fl[i].off + fl[i].len > l - 14) {
					fprintf(stderr, "mutate: field %zu+%zu "
					    "past the frame's %zu bytes\n",
					    fl[i].off, fl[i].len, l - 14);
					exit(2);
				}
				if ((fl[i].inner && strcmp(a->kinds, "hop") == 0) ||
				    (!fl[i].inner && strcmp(a->kinds, "e2e") == 0))
					continue;
				memcpy(g, f, l);
				pos = 14 + fl[i].off + (j == 0 ? 0 : fl[i].len - 1);
				g[pos] ^= (uint8_t)(1u << (bit++ % 8));
				atk_send_to(a, g, g + 6, g + 14, l - 14);
			}
		}
		if (strcmp(a->kinds, "e2e") != 0)
			atk_send_to(a, f, f + 6, f + 14, l - 15);
	}
	fclose(fp);
	printf("frames %u\n", frames);
	printf("types%s\n", what);
}

/* Our own OGM, so the mesh knows our key and epoch. */
static void
atk_originate(struct atk *a)
{
	uint8_t blocks[1][1200], seed[BS_CHAIN_LEN], elem[BS_CHAIN_LEN];
	struct wire_ogm_mut m;
	size_t blen;

	bs_random(seed, sizeof(seed));
	blen = atk_block(&a->id, a->epoch, ++a->ogm_seqno, seed, NULL, 0,
	    blocks[0], sizeof(blocks[0]));
	bs_chain_iter(elem, seed, 0);
	memset(&m, 0, sizeof(m));
	m.ttl = 50;
	m.tq = 255;
	m.prev_sender = a->addr;
	m.chain = elem;
	if (blen > 0)
		atk_ogm_send(a, &m, blocks, &blen, 1);
}

/* HELLO every 250 ms and an OGM every 500 ms, while listening ms. */
static void
atk_node(struct atk *a, int ms,
    void (*fn)(struct atk *, const uint8_t *, const uint8_t *, size_t))
{
	static uint64_t last_hello, last_ogm;
	uint64_t now = atk_now_ns();

	if (now - last_hello >= 250000000u) {
		atk_hello(a);
		last_hello = now;
	}
	if (now - last_ogm >= 500000000u) {
		atk_originate(a);
		last_ogm = now;
	}
	atk_listen(a, ms, fn);
}

/* The hop keys of every neighbour we share a key with (at most 8). */
static unsigned
atk_all_tags(struct atk *a, const uint8_t **hop, const uint8_t **ids)
{
	unsigned n = 0;
	int i;

	for (i = 0; i < a->n_peer && n < D2_BC_MAX_TAGS; i++) {
		if (!a->peer[i].keyed || a->peer[i].epoch == 0)
			continue;
		hop[n] = a->peer[i].hop;
		ids[n++] = a->peer[i].hopid;
	}
	return n;
}

/*
 * One sealed frame from src (our address, or another's) to dst with ttl
 * (0: D2_TTL) and correct hop tags toward neighbour v, sealed under the
 * key of our pair with dst (the only one we have): for our own source the
 * right key.
 */
static void
atk_sealed_via(struct atk *a, struct atk_peer *v, uint8_t ttl, uint8_t type,
    const uint8_t *src, const uint8_t *dst, const uint8_t *pt, size_t pt_len)
{
	uint8_t f[D2_OVERHEAD + 14 + 64 + 256], link[BS_LINKKEY_LEN];
	uint8_t k[D2_E2E_KEY_LEN];
	struct atk_orig *d = atk_orig_find(a, dst), *so;
	const uint8_t *spk = a->id.pk;
	uint32_t sep = a->epoch;
	size_t n;

	if (v == NULL || !v->keyed || d == NULL || !d->keyed ||
	    bs_link_key(link, &a->id, d->pk) != 0)
		return;
	if (src != a->addr) {
		if ((so = atk_orig_find(a, src)) == NULL || !so->keyed)
			return;
		spk = so->pk;
		sep = so->epoch;
	}
	d2_e2e_key(k, link, spk, d->pk, sep, d->epoch);
	/* A forged source's counter far above the real one's (which starts
	 * at ms << 16), within the 56 bits below the suite byte, so that the
	 * frame is refused by the AEAD and not as a replay. */
	n = d2_sealed(f, sizeof(f), &(struct d2_sealed){ .type = type,
	    .dst = dst, .src = src, .src_epoch = sep, .dst_epoch = d->epoch,
	    .e2e_ctr = (src != a->addr ? (uint64_t)1 << 54 : 0) +
	    ++a->e2e_ctr, .pt = pt, .pt_len = pt_len,
	    .e2e_key = k, .hop = v->hop, .keyid = v->hopid,
	    .hop_ctr = ++a->hop_ctr, .ttl = ttl });
	if (n > 0)
		atk_send_to(a, v->mac, NULL, f, n);
}

/* As atk_sealed_via, toward -V at full TTL. */
static void
atk_insider_sealed(struct atk *a, uint8_t type, const uint8_t *src,
    const uint8_t *dst, const uint8_t *pt, size_t pt_len)
{
	atk_sealed_via(a, atk_peer_find(a, a->victim), 0, type, src, dst, pt,
	    pt_len);
}

/* A BCAST of orig, signed by us, tagged for every neighbour. */
static void
atk_insider_bcast(struct atk *a, const uint8_t *orig, uint32_t epoch,
    uint32_t seqno, const char *kind)
{
	uint8_t f[D2_BC_MAX_TAGS * D2_BC_TAG_LEN + 200], in[14 + 64];
	const uint8_t *hop[D2_BC_MAX_TAGS], *ids[D2_BC_MAX_TAGS];
	unsigned nt = atk_all_tags(a, hop, ids);
	size_t il, n;

	if (nt == 0)
		return;
	il = atk_inner(a, in, NULL, kind);
	n = d2_bcast(f, sizeof(f), &(struct d2_bcast){
	    .hop_ctr = ++a->hop_ctr, .orig = orig, .epoch = epoch,
	    .seqno = seqno, .inner = in, .inner_len = il, .signer = &a->id,
	    .ntags = nt, .hop = hop, .keyid = ids });
	if (n > 0)
		atk_send_to(a, NULL, NULL, f, n);
}

/* An admitted node: its own frames (controls), and -C's forged. */
static void
mode_insider(struct atk *a, int secs)
{
	uint8_t in[14 + 64], echo[D2_ECHO_BODY];
	const uint8_t *dst = atk_set(a->target) ? a->target : a->victim;
	int own = strstr(a->kinds, "own") != NULL;
	int forge = strstr(a->kinds, "forge") != NULL;
	uint32_t bseq = 0;
	unsigned k = 0;

	if (atk_aim(a, 8, 1) != 0)
		exit(1);
	while (atk_running(a, 6))	/* the mesh learns our OGMs */
		atk_node(a, 100, atk_watch);
	while (atk_running(a, secs)) {
		atk_node(a, 100, atk_watch);
		k++;
		memset(echo, 0, sizeof(echo));
		echo[0] = 1;
		bs_put16(echo + 2, 0xa7c4);
		bs_put16(echo + 4, (uint16_t)k);
		if (own) {
			atk_insider_sealed(a, WIRE_T_UNICAST, a->addr, dst, in,
			    atk_inner(a, in, a->inner_dst, "iu"));
			atk_insider_sealed(a, WIRE_T_ECHO, a->addr, dst, echo,
			    sizeof(echo));
			atk_insider_bcast(a, a->addr, a->epoch, ++bseq, "ib");
		}
		if (forge && atk_set(a->copy)) {
			atk_insider_sealed(a, WIRE_T_UNICAST, a->copy, dst, in,
			    atk_inner(a, in, a->inner_dst, "fu"));
			atk_insider_sealed(a, WIRE_T_ECHO, a->copy, dst, echo,
			    sizeof(echo));
			atk_insider_bcast(a, a->copy, atk_epoch_of(a, a->copy),
			    bs_random_uniform(1u << 30), "fb");
		}
	}
	atk_listen(a, 1000, atk_watch);
	atk_report(a);
}

/*
 * trace, fake: a TRACE heard (from any neighbour to any other): to its
 * source, a TTLX naming it in -C's name (our key: refused) and, when its
 * TTL is 1, one in our own name (authentic, but not from its first hop);
 * TTLXs sent to us counted.
 */
static void
trace_one(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	uint8_t body[16];
	struct atk_peer *t;
	const uint8_t *tsrc = p + D2_E2E_OFF + 6;

	(void)src;
	if (len < D2_OVERHEAD || p[1] != D2_VERSION)
		return;
	if (p[0] == WIRE_T_TTLX && memcmp(a->rx_dst, a->mac, 6) == 0)
		a->ttlx_to_us++;
	if (p[0] != WIRE_T_TRACE || strstr(a->kinds, "fake") == NULL ||
	    memcmp(tsrc, a->addr, BS_ADDR_LEN) == 0 ||
	    (t = atk_peer_find(a, tsrc)) == NULL || !t->keyed)
		return;
	memcpy(body, p + D2_E2E_OFF, BS_ADDR_LEN);	/* its dst */
	body[6] = body[7] = 0;
	memcpy(body + 8, p + D2_E2E_OFF + 20, 8);	/* its counter */
	if (atk_set(a->copy)) {
		atk_sealed_via(a, t, 0, WIRE_T_TTLX, a->copy, tsrc, body,
		    sizeof(body));
		a->trace_fakes++;
	}
	if (p[2] == 1) {
		atk_sealed_via(a, t, 0, WIRE_T_TTLX, a->addr, tsrc, body,
		    sizeof(body));
		a->trace_fakes++;
	}
}

/* Fake traceroute answers, and/or a flood of expiring TRACEs at -V. */
static void
mode_trace(struct atk *a, int secs)
{
	uint8_t echo[D2_ECHO_BODY];
	struct atk_peer *v;
	int flood = strstr(a->kinds, "flood") != NULL;
	unsigned k = 0;

	if (atk_aim(a, 8, 1) != 0)
		exit(1);
	while (atk_running(a, 6))	/* the mesh learns our OGMs */
		atk_node(a, 100, trace_one);
	v = atk_peer_find(a, a->victim);
	a->start_ns = atk_now_ns();
	a->sent = 0;
	while (atk_running(a, secs)) {
		atk_node(a, flood ? 1 : 100, trace_one);
		if (!flood || v == NULL || !atk_set(a->target))
			continue;
		memset(echo, 0, sizeof(echo));
		echo[0] = 1;
		bs_put16(echo + 4, (uint16_t)++k);
		atk_sealed_via(a, v, 1, WIRE_T_TRACE, a->addr, a->target, echo,
		    sizeof(echo));
		if (atk_set(a->copy))
			atk_sealed_via(a, v, 1, WIRE_T_TRACE, a->copy,
			    a->target, echo, sizeof(echo));
	}
	atk_listen(a, 1000, trace_one);
	/* From the first frame of the flood to the last answer awaited. */
	printf("flood_ms %llu\n", (unsigned long long)((atk_now_ns() -
	    a->start_ns) / 1000000u));
	printf("trace_fakes %llu\n", (unsigned long long)a->trace_fakes);
	printf("ttlx_to_us %llu\n", (unsigned long long)a->ttlx_to_us);
}

static uint32_t bseq_last;
static uint64_t bseq_sent;

/* On each new BCAST of -C: its next -n sequence numbers, first. */
static void
bseq_one(struct atk *a, const uint8_t *src, const uint8_t *p, size_t len)
{
	const uint8_t *orig;
	uint32_t epoch, seqno, i;

	(void)src;
	if (d2_bcast_peek(p, len, &orig, &epoch, &seqno) != 0 ||
	    memcmp(orig, a->copy, BS_ADDR_LEN) != 0 || seqno == bseq_last)
		return;
	bseq_last = seqno;
	for (i = 1; i <= a->count; i++, bseq_sent++)
		atk_insider_bcast(a, a->copy, epoch, seqno + i, "bs");
}

static void
mode_bseq(struct atk *a, int secs)
{
	if (atk_aim(a, 8, 1) != 0)
		exit(1);
	while (atk_running(a, secs))
		atk_node(a, 100, bseq_one);
	printf("preempted %llu\n", (unsigned long long)bseq_sent);
}

/* Bad tags at line rate, as -C to -V, to wear -V's forwarder out. */
static void
mode_dflood(struct atk *a, int secs)
{
	uint8_t f[D2_OVERHEAD + 14 + 64 + 256], in[14 + 64];
	const uint8_t *cm, *vmac, *dst;
	uint64_t t0;
	size_t il, n;
	unsigned k = 0;

	if (atk_aim(a, 8, 0) != 0)
		exit(1);
	for (k = 0; k < 12 && !a->sniffed; k++)	/* a real key id costs */
		atk_listen(a, 250, atk_watch);	/* the victim a SipHash */
	k = 0;
	vmac = atk_peer_find(a, a->victim)->mac;
	cm = atk_copy_mac(a);
	dst = atk_set(a->target) ? a->target : a->victim;
	il = atk_inner(a, in, a->inner_dst, "fl");
	t0 = atk_now_ns();
	a->start_ns = t0;
	a->sent = 0;
	while (atk_running(a, secs)) {
		n = d2_sealed(f, sizeof(f), &(struct d2_sealed){
		    .type = WIRE_T_UNICAST, .dst = dst, .src = a->copy,
		    .src_epoch = 1, .dst_epoch = 1, .e2e_ctr = k,
		    .pt = in, .pt_len = il,
		    .keyid = a->sniffed ? a->sniff_keyid : NULL,
		    .hop_ctr = a->sniff_ctr + 1 + k });
		k++;
		if (n > 0)
			atk_send_to(a, vmac, cm, f, n);
	}
	printf("rate %llu frames/s\n", (unsigned long long)(a->sent *
	    1000000000u / (atk_now_ns() - t0 + 1)));
	atk_report(a);
}

/*
 * An admitted neighbour of -V starts reassembly chains at -V (for -T)
 * that it never completes, in the names of every originator it heard
 * and its own, staying a neighbour (HELLO, OGM) as it goes.
 */
static void
mode_fflood(struct atk *a, int secs)
{
	uint8_t f[D2_FRAG_HDR + D2_FRAG_PIECE], piece[D2_FRAG_PIECE];
	const uint8_t *dst = atk_set(a->target) ? a->target : a->victim;
	const uint8_t *orig;
	int forge = strcmp(a->kinds, "forge") == 0;
	uint32_t seqno = bs_random_uniform(1u << 30);
	struct atk_peer *v;
	unsigned k = 0, chains = 0;
	size_t n;

	if (atk_aim(a, 8, 1) != 0)
		exit(1);
	while (atk_running(a, 6))	/* the mesh learns our OGMs */
		atk_node(a, 100, atk_watch);
	if ((v = atk_peer_find(a, a->victim)) == NULL || !v->keyed) {
		fprintf(stderr, "batsec-attack: no hop key with -V\n");
		exit(1);
	}
	bs_random(piece, sizeof(piece));
	/* -t and -r count from here: no burst to catch up on the wait. */
	a->start_ns = atk_now_ns();
	a->sent = 0;
	while (atk_running(a, secs)) {
		k++;
		/* Stay a neighbour: our HELLOs, and -V's read (rx_count). */
		if ((k & 63) == 0)
			atk_node(a, 20, atk_watch);
		orig = (int)(k % (unsigned)(a->n_orig + 1)) == a->n_orig ?
		    a->addr : a->orig[k % (unsigned)(a->n_orig + 1)].addr;
		if (memcmp(orig, dst, BS_ADDR_LEN) == 0)
			continue;
		n = d2_frag(f, sizeof(f), dst, orig, seqno++, 1562, piece,
		    forge ? NULL : v->hop, v->hopid, ++a->hop_ctr);
		if (n > 0) {
			atk_send_to(a, v->mac, NULL, f, n);
			chains++;
		}
	}
	printf("chains %u\n", chains);
}

/*
 * As -C (its MAC and mesh address, learnt from its HELLOs): OGM frames
 * with a type-2 (signature) trailer of random bytes and fresh frame
 * counters (its epoch, above any counter it used), so that each reaches
 * the signature check of every node that has -C as a neighbour.
 */
static void
mode_linksig(struct atk *a, int secs)
{
	uint8_t buf[WIRE_OGM_MAX_LEN], block[1200], seed[BS_CHAIN_LEN];
	uint8_t elem[BS_CHAIN_LEN], sig[BS_SIG_LEN];
	struct wire_ogm_builder b;
	struct wire_ogm_mut m;
	struct atk_peer *c = NULL;
	const uint8_t *cov;
	size_t blen, clen, len;
	uint32_t k = 0;
	int i;

	for (i = 0; i < 32 && (c = atk_peer_find(a, a->copy)) == NULL; i++)
		atk_listen(a, 250, NULL);
	if (c == NULL) {
		fprintf(stderr, "batsec-attack: -C not heard\n");
		exit(1);
	}
	bs_random(seed, sizeof(seed));
	bs_chain_iter(elem, seed, 1);
	blen = atk_block2(&a->id, a->epoch, 1, seed, NULL, 0, block,
	    sizeof(block), 1);
	memset(&m, 0, sizeof(m));
	m.ttl = 50;
	m.tq = 225;
	m.hops = 1;
	m.prev_sender = a->copy;
	m.chain = elem;
	a->start_ns = atk_now_ns();
	a->sent = 0;
	while (atk_running(a, secs)) {
		if (wire_ogm_begin(&b, buf, sizeof(buf), a->copy) != WIRE_OK ||
		    wire_ogm_add(&b, &m, block, blen) != WIRE_OK ||
		    wire_ogm_trailer(&b, WIRE_AUTH_SIG, 0, (uint64_t)c->epoch <<
		    32 | (0x80000000u + k++), &cov, &clen) != WIRE_OK)
			break;
		bs_random(sig, sizeof(sig));
		if (wire_ogm_add_sig(&b, sig) == WIRE_OK &&
		    wire_ogm_finish(&b, &len) == WIRE_OK)
			atk_send(a, c->mac, buf, len);
	}
}

/*
 * As -C (key, interface MAC, epoch and salt learnt from its HELLOs):
 * HELLOs with link tags under the key ids -C's own tagged HELLOs carry,
 * random tags, sequence numbers ahead of -C's and an empty neighbour list
 * (taken, they would cut every link of -C's), as fast as -r allows.  A
 * receiver must refuse each on its tag, without a signature check.
 */
static void
mode_hellotag(struct atk *a, int secs)
{
	uint8_t buf[WIRE_HELLO_MAX_LEN], tag[BS_TAG_LEN];
	struct wire_hello h;
	struct atk_peer *c = NULL;
	size_t len;
	uint32_t k = 0;
	unsigned i;
	int t;

	for (t = 0; t < 80 && ((c = atk_peer_find(a, a->copy)) == NULL ||
	    c->n_hkid == 0); t++)
		atk_listen(a, 250, NULL);
	if (c == NULL || c->n_hkid == 0) {
		fprintf(stderr, "batsec-attack: no tagged HELLO of -C heard\n");
		exit(1);
	}
	a->start_ns = atk_now_ns();
	a->sent = 0;
	while (atk_running(a, secs)) {
		memset(&h, 0, sizeof(h));
		h.pk = c->pk;
		h.ifmac = c->mac;
		h.interval_ms = 1000;
		h.epoch = c->epoch;
		h.seqno = c->hseq + 1 + k++ % 1000;
		h.salt = c->salt;
		h.tr.auth = WIRE_AUTH_MAC;
		h.tr.num_tags = c->n_hkid;
		if (wire_hello_build(buf, sizeof(buf), &h, &len) != WIRE_OK)
			break;
		for (i = 0; i < c->n_hkid; i++) {
			bs_random(tag, sizeof(tag));
			if (wire_tag_append(buf, sizeof(buf), &len, c->hkid[i],
			    tag) != WIRE_OK)
				break;
		}
		if (i == c->n_hkid)
			atk_send(a, c->mac, buf, len);
	}
}

/*
 * wants: -K as insider, a neighbour of -V; then HELLOs whose want lists
 * name the first 8 originators heard (descriptions on request), as fast
 * as -r allows.  Prints "originators N" (how many it could name).
 */
static void
mode_wants(struct atk *a, int secs)
{
	if (atk_aim(a, 8, 1) != 0)
		exit(1);
	while (atk_running(a, 6))	/* the mesh learns our OGMs */
		atk_node(a, 100, NULL);
	a->start_ns = atk_now_ns();
	a->sent = 0;
	while (atk_running(a, secs)) {
		atk_node(a, 0, NULL);
		atk_hello_asking(a, 1);
	}
	printf("originators %d\n", a->n_orig);
}

/*
 * -n fresh keys (at most ATK_HELLO_KEYS), each with a random source MAC,
 * send correctly signed HELLOs every second (slow enough that a busy
 * test machine's pauses do not make the victim drop them as lost): in
 * mode open each is a stranger that wants a slot of the neighbour table.
 */
#define ATK_HELLO_KEYS	256

static void
mode_hellos(struct atk *a, int secs)
{
	static struct bs_identity id[ATK_HELLO_KEYS];
	static uint8_t mac[ATK_HELLO_KEYS][6];
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	struct wire_hello h;
	unsigned i, n = a->count < ATK_HELLO_KEYS ? a->count : ATK_HELLO_KEYS;
	uint32_t seqno = 0;

	for (i = 0; i < n; i++) {
		if (bs_identity_generate(&id[i]) != 0)
			exit(1);
		bs_random(mac[i], 6);
		mac[i][0] = (uint8_t)((mac[i][0] & 0xfe) | 0x02);
	}
	while (atk_running(a, secs)) {
		seqno++;
		for (i = 0; i < n; i++) {
			memset(&h, 0, sizeof(h));
			h.pk = id[i].pk;
			h.ifmac = mac[i];
			h.interval_ms = 1000;
			h.epoch = a->epoch;
			h.seqno = seqno;
			atk_send(a, mac[i], buf, t_hello(buf, sizeof(buf), &h,
			    &id[i]));
		}
		atk_listen(a, 1000, NULL);
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: batsec-attack -i IFACE -m forge|sybil|capture|"
	    "replay|inflate|malformed|chain|claim|roam|outsider|mutate|insider|bseq|"
	    "dflood|linksig|hellotag|hellos|wants|trace [-t SECS] [-r RATE] [-f FILE] [-c MAC,...] [-e ETHERTYPE] "
	    "[-K KEYFILE] [-V ADDR] [-C ADDR] [-T ADDR] [-M MAC] [-w TOKEN] "
	    "[-y data] [-S MAC] [-x KINDS] [-n N]\n");
	exit(2);
}

static void
atk_mac_arg(uint8_t out[6], const char *s)
{
	unsigned x[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &x[0], &x[1], &x[2], &x[3], &x[4],
	    &x[5]) != 6)
		usage();
	for (i = 0; i < 6; i++) {
		if (x[i] > 0xff)
			usage();
		out[i] = (uint8_t)x[i];
	}
}

/* Our key: -K's file (an admitted node), or a fresh one. */
static void
atk_key(struct atk *a, const char *keyfile)
{
	char err[256];

	if (keyfile == NULL) {
		atk_identity(a);
		return;
	}
	if (bs_seckey_load(keyfile, &a->id, err, sizeof(err)) != 0) {
		fprintf(stderr, "batsec-attack: %s\n", err);
		exit(1);
	}
	bs_mesh_addr(a->addr, a->id.pk);
	a->epoch = (uint32_t)time(NULL);
}

int
main(int argc, char **argv)
{
	const char *ifname = NULL, *mode = NULL, *file = NULL, *clients = NULL;
	const char *keyfile = NULL;
	struct atk a;
	int c, secs = 10;

	memset(&a, 0, sizeof(a));
	a.etype = 0x88b5;
	a.token = "batsec-attack";
	a.kinds = "own,forge";
	a.count = 32;
	memcpy(a.inner_dst, atk_bcast_mac, 6);
	while ((c = getopt(argc, argv, "i:m:t:r:f:c:e:K:V:C:T:M:w:y:S:x:n:")) !=
	    -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mode = optarg; break;
		case 't': secs = atoi(optarg); break;
		case 'r': a.rate = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'f': file = optarg; break;
		case 'c': clients = optarg; break;
		case 'e': a.etype = (uint16_t)strtoul(optarg, NULL, 0); break;
		case 'K': keyfile = optarg; break;
		case 'V': atk_mac_arg(a.victim, optarg); break;
		case 'C': atk_mac_arg(a.copy, optarg); break;
		case 'T': atk_mac_arg(a.target, optarg); break;
		case 'M': atk_mac_arg(a.inner_dst, optarg); break;
		case 'w': a.token = optarg; break;
		case 'y': a.data_only = strcmp(optarg, "data") == 0; break;
		case 'S':
			atk_mac_arg(a.only_src, optarg);
			a.has_only_src = 1;
			break;
		case 'x': a.kinds = optarg; break;
		case 'n': a.count = (unsigned)strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (ifname == NULL || mode == NULL || secs <= 0 || bs_crypto_init() != 0)
		usage();
	atk_open(&a, ifname);
	atk_key(&a, keyfile);
	a.start_ns = atk_now_ns();
	if (strcmp(mode, "forge") == 0)
		mode_forge(&a, secs);
	else if (strcmp(mode, "sybil") == 0)
		mode_sybil(&a, secs);
	else if (strcmp(mode, "capture") == 0 && file != NULL)
		mode_capture(&a, secs, file);
	else if (strcmp(mode, "replay") == 0 && file != NULL)
		mode_replay(&a, secs, file);
	else if (strcmp(mode, "inflate") == 0)
		mode_inflate(&a, secs);
	else if (strcmp(mode, "malformed") == 0)
		mode_malformed(&a, secs);
	else if (strcmp(mode, "chain") == 0)
		mode_chain(&a, secs);
	else if (strcmp(mode, "claim") == 0)
		mode_claim(&a, secs, clients, 0);
	else if (strcmp(mode, "roam") == 0)
		mode_claim(&a, secs, clients, 1);
	else if (strcmp(mode, "outsider") == 0 && atk_set(a.victim))
		mode_outsider(&a, secs);
	else if (strcmp(mode, "mutate") == 0 && file != NULL)
		mode_mutate(&a, file);
	else if (strcmp(mode, "insider") == 0 && atk_set(a.victim))
		mode_insider(&a, secs);
	else if (strcmp(mode, "bseq") == 0 && atk_set(a.victim) &&
	    atk_set(a.copy))
		mode_bseq(&a, secs);
	else if (strcmp(mode, "dflood") == 0 && atk_set(a.victim))
		mode_dflood(&a, secs);
	else if (strcmp(mode, "fflood") == 0 && atk_set(a.victim))
		mode_fflood(&a, secs);
	else if (strcmp(mode, "linksig") == 0 && atk_set(a.copy))
		mode_linksig(&a, secs);
	else if (strcmp(mode, "hellotag") == 0 && atk_set(a.copy))
		mode_hellotag(&a, secs);
	else if (strcmp(mode, "hellos") == 0)
		mode_hellos(&a, secs);
	else if (strcmp(mode, "wants") == 0 && atk_set(a.victim))
		mode_wants(&a, secs);
	else if (strcmp(mode, "trace") == 0 && atk_set(a.victim))
		mode_trace(&a, secs);
	else
		usage();
	printf("sent %llu frames\n", (unsigned long long)a.sent);
	return 0;
}
