/*
 * batsec_crypto.h — the cryptographic primitives of batsec, over libsodium.
 *
 * A small library with no knowledge of the daemon: node identity, detached
 * signatures with domain separation, pairwise link keys and MAC tags, the
 * hop chain, certificates and revocation records.  Every function works on
 * caller-provided buffers of fixed, stated sizes and never allocates.
 *
 * All multi-byte integers in encoded structures are big-endian.  Every
 * string used below as a BLAKE2b key or message prefix ("batsec-addr-v1",
 * ...) means its ASCII bytes without a terminating NUL.
 */
#ifndef BATSEC_CRYPTO_H
#define BATSEC_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "bs_bytes.h"

#define BS_SEED_LEN	32	/* Ed25519 seed: the secret key file's content */
#define BS_PK_LEN	32	/* Ed25519 public key */
#define BS_SK_LEN	64	/* libsodium's expanded Ed25519 secret key */
#define BS_SIG_LEN	64	/* Ed25519 signature */
#define BS_ADDR_LEN	6	/* mesh address */
#define BS_LINKKEY_LEN	32	/* pairwise link key */
#define BS_TAG_LEN	8	/* link MAC tag: BLAKE2b-128 cut to 8 */
#define BS_KEYID_LEN	4	/* short key id naming a link key in a trailer */
#define BS_CHAIN_LEN	12	/* hop-chain element: BLAKE2b truncated to 12 */
#define BS_CHAIN_LABEL_LEN 16	/* the chain hash's label (chain.c) */
#define BS_MAXHOPS	32	/* hop-chain length: anchor = H^BS_MAXHOPS(seed) */

/* Call once before anything else (wraps sodium_init); 0 on success. */
int bs_crypto_init(void);

/* ---- identity ---------------------------------------------------------- */

struct bs_identity {
	uint8_t seed[BS_SEED_LEN];
	uint8_t pk[BS_PK_LEN];
	uint8_t sk[BS_SK_LEN];
};

/* Derive the key pair from a seed (seed may alias id->seed). 0 on success. */
int bs_identity_from_seed(struct bs_identity *id,
    const uint8_t seed[static BS_SEED_LEN]);
/* Fresh random identity. 0 on success. */
int bs_identity_generate(struct bs_identity *id);
/* Wipe secret material (sodium_memzero). */
void bs_identity_wipe(struct bs_identity *id);

/*
 * Mesh address of a public key: the first 6 bytes of
 * BLAKE2b-256(key = "batsec-addr-v1", msg = pk), with the locally
 * administered bit (0x02) set and the multicast bit (0x01) cleared in
 * byte 0.
 */
void bs_mesh_addr(uint8_t addr[static BS_ADDR_LEN],
    const uint8_t pk[static BS_PK_LEN]);

/* ---- signatures -------------------------------------------------------- */

/*
 * Every signature is over a domain label followed by the exact bytes, so a
 * signature made for one structure can never verify as another:
 *   signed message = label (16 bytes, NUL-padded ASCII) || msg
 * BS_SIGN_MAX_MSG bounds msg so the concatenation lives on the stack.
 */
enum bs_domain {
	BS_DOM_HELLO = 1,	/* "batsec1 hello"   */
	BS_DOM_OGM,		/* "batsec1 ogm"     */
	BS_DOM_CERT,		/* "batsec1 cert"    */
	BS_DOM_REVOKE,		/* "batsec1 revoke"  */
	BS_DOM_LINK,		/* "batsec1 link"    (trailer signature mode) */
	BS_DOM_BCAST,		/* "batsec2 bcast"   (data broadcasts, v2) */
	BS_DOM_BLA,		/* "batsec2 bla"     (LAN backbone announces) */
};
#define BS_DOMAIN_LABEL_LEN	16
#define BS_SIGN_MAX_MSG		4096

/* 0 on success; -1 on an unknown domain or msg longer than BS_SIGN_MAX_MSG. */
int bs_sign(uint8_t sig[static BS_SIG_LEN], enum bs_domain dom,
    const uint8_t *msg, size_t len, const struct bs_identity *id);
/* 0 when valid; -1 otherwise (including bad domain or oversize msg). */
int bs_verify(const uint8_t sig[static BS_SIG_LEN], enum bs_domain dom,
    const uint8_t *msg, size_t len, const uint8_t pk[static BS_PK_LEN]);

/* Raw RFC 8032 Ed25519 (no domain label), for test vectors and benches. */
int bs_ed25519_sign_raw(uint8_t sig[static BS_SIG_LEN], const uint8_t *msg,
    size_t len, const struct bs_identity *id);
int bs_ed25519_verify_raw(const uint8_t sig[static BS_SIG_LEN],
    const uint8_t *msg, size_t len, const uint8_t pk[static BS_PK_LEN]);

/* ---- link keys and MACs ------------------------------------------------ */

/*
 * K = BLAKE2b-256(key = X25519(own_x, peer_x),
 *                 msg = "batsec-link-v1" || lower_pk || higher_pk)
 * where both Ed25519 keys are converted to X25519 and lower/higher is the
 * byte-wise order of the two Ed25519 public keys, so both ends derive the
 * same K.  -1 when the peer key is invalid, a low-order point, or equal to
 * our own key.
 */
int bs_link_key(uint8_t key[static BS_LINKKEY_LEN],
    const struct bs_identity *own, const uint8_t peer_pk[static BS_PK_LEN]);

/*
 * Short id of a link key: the first 4 bytes of
 * BLAKE2b-256(key = K, msg = "batsec-keyid").
 */
void bs_link_keyid(uint8_t id[static BS_KEYID_LEN],
    const uint8_t key[static BS_LINKKEY_LEN]);

/*
 * tag = the first 8 bytes of
 *       BLAKE2b-128(key = K, msg = sender_addr || counter (be64) || frame)
 * (libsodium's BLAKE2b gives 16 to 64 bytes).  The sender's mesh address
 * in the input stops a frame being reflected back to its sender under the
 * shared key.  64 bits as the data plane's hop tag: a forger gets one
 * guess per frame the receiver checks (batsec-protocol(7), LINK
 * AUTHENTICATION).
 */
void bs_link_mac(uint8_t tag[static BS_TAG_LEN],
    const uint8_t key[static BS_LINKKEY_LEN],
    const uint8_t sender_addr[static BS_ADDR_LEN], uint64_t counter,
    const uint8_t *frame, size_t len);
/* 0 when the tag matches (constant-time comparison), -1 otherwise. */
int bs_link_mac_verify(const uint8_t tag[static BS_TAG_LEN],
    const uint8_t key[static BS_LINKKEY_LEN],
    const uint8_t sender_addr[static BS_ADDR_LEN], uint64_t counter,
    const uint8_t *frame, size_t len);

/* ---- hop chain --------------------------------------------------------- */

/*
 * H(x) = the first 12 bytes of BLAKE2b-128(msg = "batsec-chain-v3"
 * padded with zero bytes to 16 || x), unkeyed (libsodium's BLAKE2b gives
 * 16 to 64 bytes).  out may alias in.
 */
void bs_chain_step(uint8_t out[static BS_CHAIN_LEN],
    const uint8_t in[static BS_CHAIN_LEN]);
/* The label: "batsec-chain-v3" and a zero byte. */
extern const uint8_t bs_chain_label[BS_CHAIN_LABEL_LEN];
/* The BLAKE2b output the element is the head of (16, libsodium's least). */
#define BS_CHAIN_HASH_LEN	16
/* out = H^n(in), n <= BS_MAXHOPS; -1 if n is larger. */
int bs_chain_iter(uint8_t out[static BS_CHAIN_LEN],
    const uint8_t in[static BS_CHAIN_LEN], unsigned n);
/* Fresh random seed and its anchor H^BS_MAXHOPS(seed). */
void bs_chain_new(uint8_t seed[static BS_CHAIN_LEN],
    uint8_t anchor[static BS_CHAIN_LEN]);
/*
 * 0 when H^(BS_MAXHOPS - hops)(element) == anchor (constant-time compare),
 * -1 otherwise or when hops > BS_MAXHOPS.  The originator sends hops = 0
 * with element = seed; each relay applies one step and adds one hop.
 */
int bs_chain_verify(const uint8_t anchor[static BS_CHAIN_LEN],
    const uint8_t element[static BS_CHAIN_LEN], unsigned hops);

/*
 * The OGM chain (batsec-protocol(7), "OGM CHAIN"): one hash chain whose
 * stretch of BS_MAXHOPS steps per sequence number is that OGM's hop
 * chain, so that an element proves both the sequence number (only the
 * originator knows the elements of later ones) and the hops.  For
 * sequence number s = base + i of a chain, the hops-0 element is
 * H^(BS_MAXHOPS * (BS_OGMCHAIN_SEQNOS - 1 - i))(seed), and the hop-chain
 * anchor a signed entry carries is H^BS_MAXHOPS of it, which is the
 * hops-0 element of s - 1.  The originator keeps only the hops-0
 * elements: 1.5 KiB, made with 4 096 steps per 128 sequence numbers.
 */
#define BS_OGMCHAIN_SEQNOS	128
struct bs_ogmchain {
	uint8_t hop0[BS_OGMCHAIN_SEQNOS][BS_CHAIN_LEN];
	uint8_t anchor0[BS_CHAIN_LEN];	/* anchor of base (H^32(hop0[0])) */
	uint32_t base;			/* first sequence number */
	int valid;
};
/* A fresh chain (random seed) for base .. base + BS_OGMCHAIN_SEQNOS - 1. */
void bs_ogmchain_new(struct bs_ogmchain *c, uint32_t base);
/* Hops-0 element and anchor of seqno: 0, or -1 outside the chain. */
int bs_ogmchain_get(const struct bs_ogmchain *c, uint32_t seqno,
    uint8_t element[static BS_CHAIN_LEN], uint8_t anchor[static BS_CHAIN_LEN]);
/*
 * 0 when element is the chain element of (seqno, hops) in the chain of
 * which ref is the element of (ref_seqno, ref_hops): the one of the two
 * nearer the seed is hashed |d| times onto the other, d = BS_MAXHOPS *
 * (seqno - ref_seqno, in serial arithmetic) + ref_hops - hops.  -1 when
 * they differ, a hop count is above BS_MAXHOPS or |d| > max_steps (then
 * nothing is hashed).  *steps: the hashes spent.
 */
/*
 * Steps from the element of (ref_seqno, ref_hops) to that of (seqno,
 * hops): BS_MAXHOPS * (seqno - ref_seqno, serial) + ref_hops - hops;
 * negative when the second is the farther from the seed.
 */
int64_t bs_chain_dist(uint32_t ref_seqno, unsigned ref_hops, uint32_t seqno,
    unsigned hops);
int bs_chain_link(const uint8_t ref[static BS_CHAIN_LEN], uint32_t ref_seqno,
    unsigned ref_hops, const uint8_t element[static BS_CHAIN_LEN],
    uint32_t seqno, unsigned hops, unsigned max_steps, unsigned *steps);

/* ---- certificates ------------------------------------------------------ */

/*
 * Canonical certificate encoding, BS_CERT_LEN bytes:
 *   off  size
 *     0     1  format version (BS_CERT_VERSION)
 *     1     1  roles bitmask (BS_ROLE_*), unknown bits rejected
 *     2     1  name length, 0..BS_CERT_NAME_MAX
 *     3     1  reserved, 0
 *     4    32  node public key
 *    36    32  issuer (CA) public key
 *    68     8  not-before, unix seconds
 *    76     8  not-after, unix seconds (> not-before)
 *    84    32  name: printable ASCII without space (0x21..0x7e), the rest 0
 *   116    64  Ed25519 signature by the issuer, domain BS_DOM_CERT, over 0..115
 */
#define BS_CERT_VERSION		1
#define BS_CERT_NAME_MAX	32
#define BS_CERT_SIGNED_LEN	116
#define BS_CERT_LEN		180
#define BS_ROLE_GATEWAY		0x01
#define BS_ROLE_MASK		0x01

struct bs_cert {
	uint8_t roles;
	uint8_t node_pk[BS_PK_LEN];
	uint8_t issuer_pk[BS_PK_LEN];
	uint64_t not_before;
	uint64_t not_after;
	char name[BS_CERT_NAME_MAX + 1];	/* NUL-terminated */
	uint8_t sig[BS_SIG_LEN];
};

enum bs_cert_err {
	BS_CERT_OK = 0,
	BS_CERT_EFORMAT = -1,	/* malformed encoding */
	BS_CERT_EISSUER = -2,	/* issuer is not the given anchor */
	BS_CERT_ESIG = -3,	/* signature does not verify */
	BS_CERT_ENOTYET = -4,	/* now + skew < not-before */
	BS_CERT_EEXPIRED = -5,	/* now - skew > not-after */
};
/* Tolerated clock skew when checking validity windows, in seconds. */
#define BS_CERT_SKEW		300

/* Fill and sign (issuer_pk is taken from ca). -1 on a bad name/window/role. */
int bs_cert_issue(struct bs_cert *c, const struct bs_identity *ca,
    const uint8_t node_pk[static BS_PK_LEN], const char *name,
    uint8_t roles, uint64_t not_before, uint64_t not_after);
/* Canonical bytes. */
void bs_cert_encode(uint8_t out[static BS_CERT_LEN], const struct bs_cert *c);
/* Strict decode, no signature check: BS_CERT_OK or BS_CERT_EFORMAT. */
int bs_cert_decode(struct bs_cert *c, const uint8_t *in, size_t len);
/*
 * Why bs_cert_decode rejects in: a short static phrase naming the field
 * ("name padding not zero", ...), or NULL when it would decode.
 */
const char *bs_cert_format_problem(const uint8_t *in, size_t len);
/*
 * Full check: issuer == anchor_pk, signature, and validity window at `now`
 * (unix seconds) with BS_CERT_SKEW tolerance.  now == 0 means "no real-time
 * clock": the window is not checked (documented in batsec-policy(5)).
 * Returns BS_CERT_OK or the first failing enum bs_cert_err, checked in
 * the order format (fields a decode would refuse), issuer, signature, window.
 */
int bs_cert_verify(const struct bs_cert *c,
    const uint8_t anchor_pk[static BS_PK_LEN], uint64_t now);
const char *bs_cert_strerror(int err);

/* ---- revocation records ------------------------------------------------ */

/*
 * Canonical revocation encoding, BS_REVOKE_LEN bytes:
 *     0     1  format version (1)
 *     1     3  reserved, 0
 *     4    32  revoked public key
 *    36    32  issuer (CA) public key
 *    68     8  issued at, unix seconds
 *    76    64  Ed25519 signature by the issuer, domain BS_DOM_REVOKE, over 0..75
 */
#define BS_REVOKE_VERSION	1
#define BS_REVOKE_SIGNED_LEN	76
#define BS_REVOKE_LEN		140

struct bs_revoke {
	uint8_t revoked_pk[BS_PK_LEN];
	uint8_t issuer_pk[BS_PK_LEN];
	uint64_t issued_at;
	uint8_t sig[BS_SIG_LEN];
};

int bs_revoke_issue(struct bs_revoke *r, const struct bs_identity *ca,
    const uint8_t revoked_pk[static BS_PK_LEN], uint64_t issued_at);
void bs_revoke_encode(uint8_t out[static BS_REVOKE_LEN],
    const struct bs_revoke *r);
/* Strict decode (exact length, version, reserved zero): 0 or -1. */
int bs_revoke_decode(struct bs_revoke *r, const uint8_t *in, size_t len);
/* As bs_cert_format_problem, for revocation records. */
const char *bs_revoke_format_problem(const uint8_t *in, size_t len);
/* 0 when issuer == anchor_pk and the signature verifies, -1 otherwise. */
int bs_revoke_verify(const struct bs_revoke *r,
    const uint8_t anchor_pk[static BS_PK_LEN]);


/* ---- data frames, version 2 (batsec-protocol(7)) ------------------------ */

#define BS_HOPKEY_LEN	16	/* SipHash-2-4 key of one link */
#define BS_HOPTAG_LEN	8	/* hop tag */
#define BS_E2EKEY_LEN	32	/* end-to-end key of one direction */
#define BS_AEAD_TAG_LEN	16	/* AEAD tag (both AEADs) */
#define BS_HOPTAG_MAX_IN 128	/* bytes a hop tag may cover */

#define BS_LINKSALT_LEN	16	/* a node's link salt of one interface */
#define BS_LINKROOT_LEN	32	/* root key of one link */

/*
 * One end of a link: its node key, interface MAC, epoch and the link salt
 * it announces in its HELLOs on that interface (batsec-protocol(7),
 * "LINK KEYS").
 */
struct bs_hop_end {
	const uint8_t *pk;		/* BS_PK_LEN */
	const uint8_t *mac;		/* BS_ADDR_LEN */
	uint32_t epoch;
	const uint8_t *salt;		/* BS_LINKSALT_LEN */
};
/*
 * The root key of one link, from the static link key L (bs_link_key) and
 * both ends' interface MAC, epoch and link salt:
 *   R = BLAKE2b-256(key = L, msg = "batsec-link-v2" || mac_lo || mac_hi ||
 *       epoch_lo (be32) || epoch_hi (be32) || salt_lo || salt_hi)
 * lo is the end with the smaller MAC (the smaller public key when both
 * MACs are equal), so both ends derive the same R; a new epoch or salt on
 * either end, or another pair of interfaces, gives another root.
 */
void bs_link_root(uint8_t root[static BS_LINKROOT_LEN],
    const uint8_t link_key[static BS_LINKKEY_LEN],
    const struct bs_hop_end *a, const struct bs_hop_end *b);
/*
 * The two keys of a link, independent of each other:
 *   hop key  H = BLAKE2b-128(key = R, msg = "batsec2-hop")   (data frames)
 *   OGM key  K = BLAKE2b-256(key = R, msg = "batsec-ogm-link") (OGM tags)
 * Only K ever leaves the forwarder (IPC_LINK_KEY).
 */
void bs_hop_key(uint8_t h[static BS_HOPKEY_LEN],
    const uint8_t root[static BS_LINKROOT_LEN]);
void bs_ogm_key(uint8_t k[static BS_LINKKEY_LEN],
    const uint8_t root[static BS_LINKROOT_LEN]);
/* Key id: the first 4 bytes of BLAKE2b-256(key = H, msg = "batsec2-hopid"). */
void bs_hop_keyid(uint8_t id[static BS_KEYID_LEN],
    const uint8_t h[static BS_HOPKEY_LEN]);
/* tag = SipHash-2-4(H, msg); len <= BS_HOPTAG_MAX_IN is not required. */
void bs_hop_tag(uint8_t tag[static BS_HOPTAG_LEN],
    const uint8_t h[static BS_HOPKEY_LEN], const uint8_t *msg, size_t len);
/* 0 when tag matches (constant time), -1 otherwise. */
int bs_hop_tag_verify(const uint8_t tag[static BS_HOPTAG_LEN],
    const uint8_t h[static BS_HOPKEY_LEN], const uint8_t *msg, size_t len);

/*
 * The two AEADs of the end-to-end part (batsec-protocol(7), "Keys"): a
 * pair of originators uses AES-256-GCM when both can (libsodium offers
 * it only where the CPU has AES-NI and CLMUL), ChaCha20-Poly1305 (IETF)
 * otherwise.  Both have 32-byte keys, 12-byte nonces and 16-byte tags.
 */
enum bs_aead {
	BS_AEAD_CHACHA20 = 0,		/* ChaCha20-Poly1305, everywhere */
	BS_AEAD_AES256GCM = 1,		/* AES-256-GCM: AES-NI only */
};
/* 1 when aead can be used on this machine (after bs_crypto_init). */
int bs_aead_available(enum bs_aead aead);

/*
 * The end-to-end key of the direction src -> dst for aead:
 *   K = BLAKE2b-256(key = L, msg = P || src_pk || dst_pk ||
 *       src_epoch (be32) || dst_epoch (be32))
 * with L = bs_link_key of the two node keys and P "batsec2-e2e"
 * (ChaCha20-Poly1305) or "batsec2-e2e-aes" (AES-256-GCM): a key is never
 * used with both.
 */
void bs_e2e_key(uint8_t k[static BS_E2EKEY_LEN], enum bs_aead aead,
    const uint8_t link_key[static BS_LINKKEY_LEN],
    const uint8_t src_pk[static BS_PK_LEN],
    const uint8_t dst_pk[static BS_PK_LEN], uint32_t src_epoch,
    uint32_t dst_epoch);

/*
 * aead with nonce = 4 zero bytes || counter (be64).  Seal encrypts
 * m[0..len) into c (may equal m) and writes the tag: 0, or -1 when aead
 * is not available here (c and the tag are zeroed then).  Open checks the
 * tag and decrypts c into m (may equal c): 0, or -1 (m[0..len) is zeroed
 * then: open into a buffer of its own; also -1 for an aead this machine
 * lacks).
 */
int bs_aead_seal(uint8_t *c, uint8_t tag[static BS_AEAD_TAG_LEN],
    enum bs_aead aead, const uint8_t k[static BS_E2EKEY_LEN],
    uint64_t counter, const uint8_t *ad, size_t adlen, const uint8_t *m,
    size_t len);
int bs_aead_open(uint8_t *m, enum bs_aead aead,
    const uint8_t k[static BS_E2EKEY_LEN], uint64_t counter,
    const uint8_t *ad, size_t adlen, const uint8_t *c, size_t len,
    const uint8_t tag[static BS_AEAD_TAG_LEN]);

/*
 * A sliding replay window of BS_REPLAY_BITS counters (RFC 6479's idea, as
 * WireGuard uses it): a counter is fresh when it is above the highest
 * seen, or within the last BS_REPLAY_BITS and not seen yet.  Check first
 * (cheap, before authenticating), mark after the frame authenticated.
 * A zeroed window has seen nothing.
 */
#define BS_REPLAY_BITS	256
struct bs_replay {
	uint64_t top;			/* highest counter marked + 1; 0: none */
	uint64_t bits[BS_REPLAY_BITS / 64];
};
/* 1 when counter may be accepted, 0 when it is old or seen. */
int bs_replay_fresh(const struct bs_replay *w, uint64_t counter);
/* Mark counter seen (call only for a fresh one that authenticated). */
void bs_replay_mark(struct bs_replay *w, uint64_t counter);

/* ---- small helpers ----------------------------------------------------- */

/* Fill with random bytes (randombytes_buf). */
void bs_random(void *buf, size_t len);
/* Uniform random value in [0, upper) (randombytes_uniform). */
uint32_t bs_random_uniform(uint32_t upper);

#endif /* BATSEC_CRYPTO_H */
