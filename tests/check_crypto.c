/*
 * check_crypto.c — unit tests of the crypto library: RFC 8032 vectors,
 * known answers for every batsec encoding, and tamper loops.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "batsec_crypto.h"
#include "lib/t_check.h"

/* ---- helpers ------------------------------------------------------------ */

static void
assert_hex(const uint8_t *got, size_t len, const char *want)
{
	char buf[2 * 512 + 1];

	ck_assert_uint_le(len, 512);
	sodium_bin2hex(buf, sizeof(buf), got, len);
	ck_assert_str_eq(buf, want);
}

/* RFC 8032 section 7.1, TEST 1 and TEST 2 key pairs, used as fixtures. */
#define SEED_A "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
#define PK_A   "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
#define SEED_B "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"
#define PK_B   "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"

static void
ident(struct bs_identity *id, const char *seed_hex)
{
	uint8_t seed[BS_SEED_LEN];

	t_unhex(seed, sizeof(seed), seed_hex);
	ck_assert_int_eq(bs_identity_from_seed(id, seed), 0);
}

static void
setup(void)
{
	ck_assert_int_eq(bs_crypto_init(), 0);
}

/* ---- RFC 8032 ----------------------------------------------------------- */

struct rfc_vec {
	const char *name, *seed, *pk, *msg, *sig;
};

static const struct rfc_vec rfc8032[] = {
	{ "TEST 1", SEED_A, PK_A, "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "TEST 2", SEED_B, PK_B, "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "TEST 3",
	  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
	{ "TEST SHA(abc)",
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	  "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704" },
};

START_TEST(test_rfc8032)
{
	const struct rfc_vec *v = &rfc8032[_i];
	struct bs_identity id;
	uint8_t msg[64], sig[BS_SIG_LEN], want[BS_SIG_LEN];
	size_t mlen = strlen(v->msg) / 2;

	ident(&id, v->seed);
	assert_hex(id.pk, BS_PK_LEN, v->pk);
	t_unhex(msg, mlen, v->msg);
	t_unhex(want, sizeof(want), v->sig);
	ck_assert_int_eq(bs_ed25519_sign_raw(sig, mlen ? msg : NULL, mlen,
	    &id), 0);
	ck_assert_msg(memcmp(sig, want, BS_SIG_LEN) == 0, "%s: signature",
	    v->name);
	ck_assert_int_eq(bs_ed25519_verify_raw(want, msg, mlen, id.pk), 0);
	want[0] ^= 1;
	ck_assert_int_eq(bs_ed25519_verify_raw(want, msg, mlen, id.pk), -1);
	/* A domain-labelled signature is not a raw one, and vice versa. */
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, msg, mlen, &id), 0);
	ck_assert_int_eq(bs_ed25519_verify_raw(sig, msg, mlen, id.pk), -1);
}
END_TEST

/* ---- identity and address ----------------------------------------------- */

START_TEST(test_identity)
{
	struct bs_identity a, b, c;
	uint8_t zero[sizeof(a)];

	ident(&a, SEED_A);
	/* The seed may alias the identity's own seed field. */
	memcpy(&c, &a, sizeof(c));
	memset(c.pk, 0, sizeof(c.pk));
	ck_assert_int_eq(bs_identity_from_seed(&c, c.seed), 0);
	ck_assert_mem_eq(c.pk, a.pk, BS_PK_LEN);
	ck_assert_mem_eq(c.sk, a.sk, BS_SK_LEN);
	ck_assert_int_eq(bs_identity_generate(&b), 0);
	ck_assert_int_eq(bs_identity_generate(&c), 0);
	ck_assert(memcmp(b.pk, c.pk, BS_PK_LEN) != 0);
	bs_identity_wipe(&b);
	memset(zero, 0, sizeof(zero));
	ck_assert_mem_eq(&b, zero, sizeof(b));
}
END_TEST

START_TEST(test_mesh_addr_kat)
{
	uint8_t pk[BS_PK_LEN], addr[BS_ADDR_LEN];

	t_unhex(pk, sizeof(pk), PK_A);
	bs_mesh_addr(addr, pk);
	assert_hex(addr, sizeof(addr), "2e0334b72b7b");
	t_unhex(pk, sizeof(pk), PK_B);
	bs_mesh_addr(addr, pk);
	assert_hex(addr, sizeof(addr), "6ab390582bee");
}
END_TEST

/* The address formula as documented, against random keys. */
START_TEST(test_mesh_addr_formula)
{
	uint8_t pk[BS_PK_LEN], addr[BS_ADDR_LEN], h[32];
	int i;

	for (i = 0; i < 64; i++) {
		bs_random(pk, sizeof(pk));
		bs_mesh_addr(addr, pk);
		crypto_generichash(h, 32, pk, 32,
		    (const unsigned char *)"batsec-addr-v1", 14);
		h[0] = (uint8_t)((h[0] | 0x02) & ~0x01);
		ck_assert_mem_eq(addr, h, BS_ADDR_LEN);
		ck_assert_uint_eq(addr[0] & 0x03, 0x02);
	}
}
END_TEST

/*
 * The address memo: keys that share a slot (same first byte), asked in
 * turn and again, each get their own address, equal to the formula's.
 */
START_TEST(test_mesh_addr_memo)
{
	uint8_t pk[4][BS_PK_LEN], addr[BS_ADDR_LEN], h[32];
	int i, round;

	for (i = 0; i < 4; i++) {
		bs_random(pk[i], BS_PK_LEN);
		pk[i][0] = 0x5a;
	}
	memcpy(pk[3], pk[2], BS_PK_LEN);
	pk[3][BS_PK_LEN - 1] ^= 1;	/* differs in the last byte only */
	for (round = 0; round < 3; round++)
		for (i = 0; i < 4; i++) {
			bs_mesh_addr(addr, pk[i]);
			crypto_generichash(h, 32, pk[i], 32,
			    (const unsigned char *)"batsec-addr-v1", 14);
			h[0] = (uint8_t)((h[0] | 0x02) & ~0x01);
			ck_assert_mem_eq(addr, h, BS_ADDR_LEN);
			bs_mesh_addr(addr, pk[i]);	/* from the memo */
			ck_assert_mem_eq(addr, h, BS_ADDR_LEN);
		}
}
END_TEST

/* ---- domain signatures -------------------------------------------------- */

START_TEST(test_sign_kat)
{
	struct bs_identity a;
	uint8_t sig[BS_SIG_LEN], raw[BS_DOMAIN_LABEL_LEN + 5];

	ident(&a, SEED_A);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_HELLO,
	    (const uint8_t *)"hello", 5, &a), 0);
	assert_hex(sig, sizeof(sig),
	    "2d0944b3638074bcffc7cfc7bb643cc371147e36348a8a94f0019e41c8300a5d"
	    "68feb49b736741664847bff06900d7ad3c247e65f336e5ddb87ec7670a77e505");
	/* The documented message: 16-byte NUL-padded label, then the bytes. */
	memset(raw, 0, sizeof(raw));
	memcpy(raw, "batsec1 hello", 13);
	memcpy(raw + BS_DOMAIN_LABEL_LEN, "hello", 5);
	ck_assert_int_eq(bs_ed25519_verify_raw(sig, raw, sizeof(raw), a.pk), 0);
}
END_TEST

static const char *const dom_labels[] = {
	NULL, "batsec1 hello", "batsec1 ogm", "batsec1 cert",
	"batsec1 revoke", "batsec1 link", "batsec2 bcast", "batsec2 bla",
};

START_TEST(test_sign_domains)
{
	enum bs_domain d = (enum bs_domain)_i, e;
	struct bs_identity a;
	uint8_t msg[100], sig[BS_SIG_LEN], raw[BS_DOMAIN_LABEL_LEN + 100];

	ident(&a, SEED_A);
	bs_random(msg, sizeof(msg));
	ck_assert_int_eq(bs_sign(sig, d, msg, sizeof(msg), &a), 0);
	ck_assert_int_eq(bs_verify(sig, d, msg, sizeof(msg), a.pk), 0);
	for (e = BS_DOM_HELLO; e <= BS_DOM_BLA; e++)
		if (e != d)
			ck_assert_int_eq(bs_verify(sig, e, msg, sizeof(msg),
			    a.pk), -1);
	memset(raw, 0, sizeof(raw));
	memcpy(raw, dom_labels[d], strlen(dom_labels[d]));
	memcpy(raw + BS_DOMAIN_LABEL_LEN, msg, sizeof(msg));
	ck_assert_int_eq(bs_ed25519_verify_raw(sig, raw, sizeof(raw), a.pk), 0);
}
END_TEST

START_TEST(test_sign_bad_args)
{
	static uint8_t msg[BS_SIGN_MAX_MSG + 1];
	struct bs_identity a;
	uint8_t sig[BS_SIG_LEN];

	ident(&a, SEED_A);
	ck_assert_int_eq(bs_sign(sig, (enum bs_domain)0, msg, 1, &a), -1);
	ck_assert_int_eq(bs_sign(sig, (enum bs_domain)(BS_DOM_BLA + 1), msg, 1,
	    &a), -1);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, msg, sizeof(msg), &a), -1);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, NULL, 1, &a), -1);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, msg, BS_SIGN_MAX_MSG, &a), 0);
	ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg, BS_SIGN_MAX_MSG, a.pk),
	    0);
	ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg, sizeof(msg), a.pk),
	    -1);
	ck_assert_int_eq(bs_verify(sig, (enum bs_domain)0, msg,
	    BS_SIGN_MAX_MSG, a.pk), -1);
	ck_assert_int_eq(bs_sign(sig, BS_DOM_LINK, NULL, 0, &a), 0);
	ck_assert_int_eq(bs_verify(sig, BS_DOM_LINK, NULL, 0, a.pk), 0);
}
END_TEST

/* Every single changed byte of message, signature or key is rejected. */
START_TEST(test_sign_tamper)
{
	struct bs_identity a;
	uint8_t msg[96], sig[BS_SIG_LEN], pk[BS_PK_LEN];
	const uint8_t flips[] = { 0x01, 0x80, 0xff };
	size_t i, f;

	ident(&a, SEED_B);
	bs_random(msg, sizeof(msg));
	ck_assert_int_eq(bs_sign(sig, BS_DOM_OGM, msg, sizeof(msg), &a), 0);
	memcpy(pk, a.pk, sizeof(pk));
	for (f = 0; f < sizeof(flips); f++) {
		for (i = 0; i < sizeof(msg); i++) {
			msg[i] ^= flips[f];
			ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg,
			    sizeof(msg), pk), -1);
			msg[i] ^= flips[f];
		}
		for (i = 0; i < sizeof(sig); i++) {
			sig[i] ^= flips[f];
			ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg,
			    sizeof(msg), pk), -1);
			sig[i] ^= flips[f];
		}
		for (i = 0; i < sizeof(pk); i++) {
			pk[i] ^= flips[f];
			ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg,
			    sizeof(msg), pk), -1);
			pk[i] ^= flips[f];
		}
	}
	/* Shorter and longer messages are different messages. */
	ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg, sizeof(msg) - 1, pk),
	    -1);
	ck_assert_int_eq(bs_verify(sig, BS_DOM_OGM, msg, sizeof(msg), pk), 0);
}
END_TEST

/* ---- link keys and MACs ------------------------------------------------- */

#define LINK_KAT "d7234db496e4060a248961b1a2e7aa10d17c7d03e8a41405a51929159aeae90d"

START_TEST(test_link_kat)
{
	struct bs_identity a, b;
	uint8_t k[BS_LINKKEY_LEN], id[BS_KEYID_LEN];

	ident(&a, SEED_A);
	ident(&b, SEED_B);
	ck_assert_int_eq(bs_link_key(k, &a, b.pk), 0);
	assert_hex(k, sizeof(k), LINK_KAT);
	ck_assert_int_eq(bs_link_key(k, &b, a.pk), 0);
	assert_hex(k, sizeof(k), LINK_KAT);
	bs_link_keyid(id, k);
	assert_hex(id, sizeof(id), "b26b5292");
}
END_TEST

START_TEST(test_link_symmetry)
{
	struct bs_identity a, b, c;
	uint8_t kab[BS_LINKKEY_LEN], kba[BS_LINKKEY_LEN], kac[BS_LINKKEY_LEN];
	uint8_t ia[BS_KEYID_LEN], ib[BS_KEYID_LEN];
	int i;

	for (i = 0; i < 16; i++) {
		ck_assert_int_eq(bs_identity_generate(&a), 0);
		ck_assert_int_eq(bs_identity_generate(&b), 0);
		ck_assert_int_eq(bs_identity_generate(&c), 0);
		ck_assert_int_eq(bs_link_key(kab, &a, b.pk), 0);
		ck_assert_int_eq(bs_link_key(kba, &b, a.pk), 0);
		ck_assert_int_eq(bs_link_key(kac, &a, c.pk), 0);
		ck_assert_mem_eq(kab, kba, BS_LINKKEY_LEN);
		ck_assert(memcmp(kab, kac, BS_LINKKEY_LEN) != 0);
		bs_link_keyid(ia, kab);
		bs_link_keyid(ib, kba);
		ck_assert_mem_eq(ia, ib, BS_KEYID_LEN);
	}
}
END_TEST

/* Low-order points (libsodium's blocklist) and a non-canonical encoding. */
static const char *const bad_peers[] = {
	"0000000000000000000000000000000000000000000000000000000000000000",
	"0100000000000000000000000000000000000000000000000000000000000000",
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
	"0000000000000000000000000000000000000000000000000000000000000080",
	"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
};

START_TEST(test_link_bad_peer)
{
	struct bs_identity a;
	uint8_t peer[BS_PK_LEN], k[BS_LINKKEY_LEN];

	ident(&a, SEED_A);
	t_unhex(peer, sizeof(peer), bad_peers[_i]);
	ck_assert_int_eq(bs_link_key(k, &a, peer), -1);
}
END_TEST

START_TEST(test_link_self)
{
	struct bs_identity a;
	uint8_t k[BS_LINKKEY_LEN];

	ident(&a, SEED_A);
	ck_assert_int_eq(bs_link_key(k, &a, a.pk), -1);
}
END_TEST

#define MAC_FRAME "batsec test frame"
#define MAC_CTR 0x0102030405060708ULL

START_TEST(test_mac_kat)
{
	uint8_t k[BS_LINKKEY_LEN], pk[BS_PK_LEN], addr[BS_ADDR_LEN];
	uint8_t tag[BS_TAG_LEN];
	const uint8_t *frame = (const uint8_t *)MAC_FRAME;

	t_unhex(k, sizeof(k), LINK_KAT);
	t_unhex(pk, sizeof(pk), PK_A);
	bs_mesh_addr(addr, pk);
	bs_link_mac(tag, k, addr, MAC_CTR, frame, strlen(MAC_FRAME));
	assert_hex(tag, sizeof(tag), "81f2b92162d67ae7");
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, MAC_CTR, frame,
	    strlen(MAC_FRAME)), 0);
}
END_TEST

/* Every changed byte of frame, tag, key, address or counter is rejected. */
START_TEST(test_mac_tamper)
{
	uint8_t k[BS_LINKKEY_LEN], addr[BS_ADDR_LEN], frame[200];
	uint8_t tag[BS_TAG_LEN];
	uint64_t ctr = 77;
	size_t i;
	int b;

	bs_random(k, sizeof(k));
	bs_random(addr, sizeof(addr));
	bs_random(frame, sizeof(frame));
	bs_link_mac(tag, k, addr, ctr, frame, sizeof(frame));
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, ctr, frame,
	    sizeof(frame)), 0);
#define MAC_REJECTED() ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, \
	    ctr, frame, sizeof(frame)), -1)
	for (i = 0; i < sizeof(frame); i++) {
		frame[i] ^= 0x01; MAC_REJECTED(); frame[i] ^= 0x01;
		frame[i] ^= 0x80; MAC_REJECTED(); frame[i] ^= 0x80;
	}
	for (i = 0; i < sizeof(tag); i++) {
		tag[i] ^= 0x01; MAC_REJECTED(); tag[i] ^= 0x01;
	}
	for (i = 0; i < sizeof(k); i++) {
		k[i] ^= 0x01; MAC_REJECTED(); k[i] ^= 0x01;
	}
	for (i = 0; i < sizeof(addr); i++) {
		addr[i] ^= 0x01; MAC_REJECTED(); addr[i] ^= 0x01;
	}
	for (b = 0; b < 64; b++) {
		ctr ^= 1ULL << b; MAC_REJECTED(); ctr ^= 1ULL << b;
	}
#undef MAC_REJECTED
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, ctr, frame,
	    sizeof(frame) - 1), -1);
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, ctr, frame,
	    sizeof(frame)), 0);
}
END_TEST

START_TEST(test_mac_empty_frame)
{
	uint8_t k[BS_LINKKEY_LEN], addr[BS_ADDR_LEN], tag[BS_TAG_LEN];

	bs_random(k, sizeof(k));
	bs_random(addr, sizeof(addr));
	bs_link_mac(tag, k, addr, 1, NULL, 0);
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, 1, NULL, 0), 0);
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, 2, NULL, 0), -1);
	ck_assert_int_eq(bs_link_mac_verify(tag, k, addr, 1, NULL, 1), -1);
}
END_TEST

/* ---- hop chain ---------------------------------------------------------- */

START_TEST(test_chain_kat)
{
	uint8_t x[BS_CHAIN_LEN], y[BS_CHAIN_LEN];
	unsigned i;

	/*
	 * python3 -c "import hashlib; H=lambda x: hashlib.blake2b(
	 *   b'batsec-chain-v3\0'+x,digest_size=16).digest()[:12];
	 *   x=bytes(range(12)); print(H(x).hex())"  (and H applied 32 times)
	 */
	for (i = 0; i < BS_CHAIN_LEN; i++)
		x[i] = (uint8_t)i;
	bs_chain_step(y, x);
	assert_hex(y, sizeof(y), "67b4ad82325ee608001b9615");
	ck_assert_int_eq(bs_chain_iter(y, x, BS_MAXHOPS), 0);
	assert_hex(y, sizeof(y), "b852e9af0cef436bec0ed569");
	/* In place. */
	bs_chain_step(x, x);
	assert_hex(x, sizeof(x), "67b4ad82325ee608001b9615");
	ck_assert_int_eq(bs_chain_iter(x, x, 0), 0);
	assert_hex(x, sizeof(x), "67b4ad82325ee608001b9615");
	ck_assert_int_eq(bs_chain_iter(y, x, BS_MAXHOPS + 1), -1);
}
END_TEST

/* At every hop count the honest element verifies; claiming fewer fails. */
START_TEST(test_chain_hops)
{
	uint8_t seed[BS_CHAIN_LEN], anchor[BS_CHAIN_LEN], el[BS_CHAIN_LEN];
	unsigned hops = (unsigned)_i;

	bs_chain_new(seed, anchor);
	ck_assert_int_eq(bs_chain_verify(anchor, seed, 0), 0);
	ck_assert_int_eq(bs_chain_iter(el, seed, hops), 0);
	ck_assert_int_eq(bs_chain_verify(anchor, el, hops), 0);
	if (hops > 0)
		ck_assert_int_eq(bs_chain_verify(anchor, el, hops - 1), -1);
	if (hops < BS_MAXHOPS)
		ck_assert_int_eq(bs_chain_verify(anchor, el, hops + 1), -1);
	ck_assert_int_eq(bs_chain_verify(anchor, el, BS_MAXHOPS + 1), -1);
	ck_assert_int_eq(bs_chain_verify(anchor, el, ~0u), -1);
	el[_i % BS_CHAIN_LEN] ^= 1;
	ck_assert_int_eq(bs_chain_verify(anchor, el, hops), -1);
}
END_TEST

/* ---- certificates ------------------------------------------------------- */

#define CERT_NB 1700000000ULL
#define CERT_NA 1800000000ULL
#define CERT_KAT \
	"01010e003d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f1" \
	"2af4660cd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68" \
	"f707511a000000006553f100000000006b49d2006e6f64652d312e6578616d70" \
	"6c65000000000000000000000000000000000000474b386a0d30d9087a1c118c" \
	"5736372374d8f4f4a7ab51df4a4950874067aa276562b9e3507c91fae47a3a82" \
	"502b973eca2af90a1ba370f172dbea3c49f41200"

/* Certificate for B issued by A, encoded into out. */
static void
cert_fixture(struct bs_cert *c, struct bs_identity *ca, uint8_t *out)
{
	struct bs_identity b;

	ident(ca, SEED_A);
	ident(&b, SEED_B);
	ck_assert_int_eq(bs_cert_issue(c, ca, b.pk, "node-1.example",
	    BS_ROLE_GATEWAY, CERT_NB, CERT_NA), 0);
	if (out != NULL)
		bs_cert_encode(out, c);
}

START_TEST(test_cert_kat)
{
	struct bs_identity ca;
	struct bs_cert c, d;
	uint8_t enc[BS_CERT_LEN], again[BS_CERT_LEN];

	cert_fixture(&c, &ca, enc);
	assert_hex(enc, sizeof(enc), CERT_KAT);
	/* The documented layout, field by field. */
	ck_assert_uint_eq(enc[0], BS_CERT_VERSION);
	ck_assert_uint_eq(enc[1], BS_ROLE_GATEWAY);
	ck_assert_uint_eq(enc[2], 14);
	ck_assert_uint_eq(enc[3], 0);
	ck_assert_mem_eq(enc + 4, c.node_pk, BS_PK_LEN);
	ck_assert_mem_eq(enc + 36, ca.pk, BS_PK_LEN);
	ck_assert_uint_eq(bs_get64(enc + 68), CERT_NB);
	ck_assert_uint_eq(bs_get64(enc + 76), CERT_NA);
	ck_assert_mem_eq(enc + 84, "node-1.example", 14);
	ck_assert_int_eq(bs_verify(enc + 116, BS_DOM_CERT, enc, 116, ca.pk), 0);
	/* Decode, verify, re-encode. */
	ck_assert_int_eq(bs_cert_decode(&d, enc, sizeof(enc)), BS_CERT_OK);
	ck_assert_str_eq(d.name, "node-1.example");
	ck_assert_uint_eq(d.roles, BS_ROLE_GATEWAY);
	ck_assert_uint_eq(d.not_before, CERT_NB);
	ck_assert_uint_eq(d.not_after, CERT_NA);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, CERT_NB + 1), BS_CERT_OK);
	bs_cert_encode(again, &d);
	ck_assert_mem_eq(again, enc, BS_CERT_LEN);
	ck_assert_ptr_null(bs_cert_format_problem(enc, sizeof(enc)));
}
END_TEST

struct cert_bad {
	size_t off;		/* byte to overwrite */
	uint8_t val;
	const char *why;	/* expected bs_cert_format_problem phrase */
};

static const struct cert_bad cert_bads[] = {
	{ 0, 0, "unsupported format version" },
	{ 0, 2, "unsupported format version" },
	{ 1, 0x02, "unknown role bits" },
	{ 1, 0x80, "unknown role bits" },
	{ 1, 0xff, "unknown role bits" },
	{ 2, 33, "name longer than 32 bytes" },
	{ 2, 255, "name longer than 32 bytes" },
	{ 3, 1, "reserved byte not zero" },
	{ 84, ' ', "name has a byte outside 0x21..0x7e" },
	{ 85, 0x7f, "name has a byte outside 0x21..0x7e" },
	{ 90, 0x00, "name has a byte outside 0x21..0x7e" },
	{ 97, 0x80, "name has a byte outside 0x21..0x7e" },
	{ 2, 13, "name has a byte outside 0x21..0x7e" },	/* see below */
	{ 98, 'x', "name padding not zero" },
	{ 115, 1, "name padding not zero" },
	{ 2, 0, "name padding not zero" },
	{ 80, 0x00, "not-after is not later than not-before" },
};

START_TEST(test_cert_decode_strict)
{
	const struct cert_bad *t = &cert_bads[_i];
	struct bs_identity ca;
	struct bs_cert c;
	uint8_t enc[BS_CERT_LEN];
	const char *why;

	cert_fixture(&c, &ca, enc);
	enc[t->off] = t->val;
	if (t->off == 2 && t->val == 13)
		enc[84 + 12] = 0x09;	/* a tab inside the shortened name */
	why = bs_cert_format_problem(enc, sizeof(enc));
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, t->why);
	memset(&c, 0xaa, sizeof(c));
	ck_assert_int_eq(bs_cert_decode(&c, enc, sizeof(enc)), BS_CERT_EFORMAT);
}
END_TEST

START_TEST(test_cert_decode_length)
{
	struct bs_identity ca;
	struct bs_cert c;
	uint8_t enc[BS_CERT_LEN + 1];

	cert_fixture(&c, &ca, enc);
	enc[BS_CERT_LEN] = 0;
	ck_assert_int_eq(bs_cert_decode(&c, enc, BS_CERT_LEN - 1),
	    BS_CERT_EFORMAT);
	ck_assert_int_eq(bs_cert_decode(&c, enc, BS_CERT_LEN + 1),
	    BS_CERT_EFORMAT);
	ck_assert_int_eq(bs_cert_decode(&c, enc, 0), BS_CERT_EFORMAT);
	ck_assert_int_eq(bs_cert_decode(&c, NULL, BS_CERT_LEN),
	    BS_CERT_EFORMAT);
	ck_assert_str_eq(bs_cert_format_problem(enc, 1),
	    "length is not 180 bytes");
	bs_put64(enc + 76, bs_get64(enc + 68));
	ck_assert_str_eq(bs_cert_format_problem(enc, BS_CERT_LEN),
	    "not-after is not later than not-before");
	/* not-after one second after not-before is the smallest window. */
	bs_put64(enc + 76, bs_get64(enc + 68) + 1);
	ck_assert_ptr_null(bs_cert_format_problem(enc, BS_CERT_LEN));
}
END_TEST

START_TEST(test_cert_names)
{
	struct bs_identity ca, b;
	struct bs_cert c, d;
	uint8_t enc[BS_CERT_LEN];
	char name[40];

	ident(&ca, SEED_A);
	ident(&b, SEED_B);
	/* Empty and maximal names; every printable byte. */
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "", 0, 1, 2), 0);
	bs_cert_encode(enc, &c);
	ck_assert_int_eq(bs_cert_decode(&d, enc, sizeof(enc)), 0);
	ck_assert_str_eq(d.name, "");
	memset(name, 'z', 32);
	name[32] = '\0';
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, name, 0, 1, 2), 0);
	bs_cert_encode(enc, &c);
	ck_assert_int_eq(bs_cert_decode(&d, enc, sizeof(enc)), 0);
	ck_assert_str_eq(d.name, name);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_OK);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk,
	    "!\"#$%&'()*+,-./0123456789:;<=>?@", 0, 1, 2), 0);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`", 0, 1, 2), 0);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk,
	    "abcdefghijklmnopqrstuvwxyz{|}~", 0, 1, 2), 0);
	/* Refusals: too long, space, control, high byte, NULL. */
	name[32] = 'z';
	name[33] = '\0';
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, name, 0, 1, 2), -1);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "a b", 0, 1, 2), -1);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "a\tb", 0, 1, 2), -1);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "caf\xc3\xa9", 0, 1, 2),
	    -1);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, NULL, 0, 1, 2), -1);
	/* Bad roles and windows. */
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "n", 0x02, 1, 2), -1);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "n", 0, 2, 2), -1);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "n", 0, 3, 2), -1);
}
END_TEST

START_TEST(test_cert_verify_errors)
{
	struct bs_identity ca, other;
	struct bs_cert c, d;
	uint8_t buf[BS_CERT_LEN];

	cert_fixture(&c, &ca, NULL);
	ck_assert_int_eq(bs_identity_generate(&other), 0);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, 0), BS_CERT_OK);
	ck_assert_int_eq(bs_cert_verify(&c, other.pk, 0), BS_CERT_EISSUER);
	/* Claims the anchor as issuer but is signed by someone else. */
	d = c;
	ck_assert_int_eq(bs_cert_issue(&d, &other, c.node_pk, c.name, c.roles,
	    c.not_before, c.not_after), 0);
	memcpy(d.issuer_pk, ca.pk, BS_PK_LEN);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_ESIG);
	/* The anchor's signature over the same bytes in another domain. */
	d = c;
	bs_cert_encode(buf, &c);
	ck_assert_int_eq(bs_sign(d.sig, BS_DOM_REVOKE, buf, BS_CERT_SIGNED_LEN,
	    &ca), 0);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_ESIG);
	/* A struct with fields no decoder would produce. */
	d = c;
	d.roles = 0x40;
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_EFORMAT);
	d = c;
	memset(d.name, 'x', sizeof(d.name));
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_EFORMAT);
	d = c;
	d.not_after = d.not_before;
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_EFORMAT);
	d = c;
	d.name[3] = ' ';
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_EFORMAT);
}
END_TEST

struct window_case {
	uint64_t now;
	int want;
};

static const struct window_case windows[] = {
	{ 0, BS_CERT_OK },
	{ 1, BS_CERT_ENOTYET },
	{ CERT_NB - BS_CERT_SKEW - 1, BS_CERT_ENOTYET },
	{ CERT_NB - BS_CERT_SKEW, BS_CERT_OK },
	{ CERT_NB, BS_CERT_OK },
	{ (CERT_NB + CERT_NA) / 2, BS_CERT_OK },
	{ CERT_NA, BS_CERT_OK },
	{ CERT_NA + BS_CERT_SKEW, BS_CERT_OK },
	{ CERT_NA + BS_CERT_SKEW + 1, BS_CERT_EEXPIRED },
	{ UINT64_MAX, BS_CERT_EEXPIRED },
};

START_TEST(test_cert_window)
{
	struct bs_identity ca;
	struct bs_cert c;

	cert_fixture(&c, &ca, NULL);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, windows[_i].now),
	    windows[_i].want);
}
END_TEST

/* Windows at the ends of the uint64 range must not overflow. */
START_TEST(test_cert_window_extremes)
{
	struct bs_identity ca, b;
	struct bs_cert c;

	ident(&ca, SEED_A);
	ident(&b, SEED_B);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "x", 0, UINT64_MAX - 1,
	    UINT64_MAX), 0);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, UINT64_MAX), BS_CERT_OK);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, 1), BS_CERT_ENOTYET);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, 0), BS_CERT_OK);
	ck_assert_int_eq(bs_cert_issue(&c, &ca, b.pk, "x", 0, 0, 1), 0);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, BS_CERT_SKEW + 1),
	    BS_CERT_OK);
	ck_assert_int_eq(bs_cert_verify(&c, ca.pk, BS_CERT_SKEW + 2),
	    BS_CERT_EEXPIRED);
}
END_TEST

/* Every single changed byte of an encoded certificate is rejected. */
START_TEST(test_cert_tamper)
{
	struct bs_identity ca;
	struct bs_cert c, d;
	uint8_t enc[BS_CERT_LEN];
	const uint8_t flips[] = { 0x01, 0x80 };
	size_t i, f;

	cert_fixture(&c, &ca, enc);
	for (f = 0; f < sizeof(flips); f++) {
		for (i = 0; i < sizeof(enc); i++) {
			enc[i] ^= flips[f];
			ck_assert_msg(bs_cert_decode(&d, enc, sizeof(enc)) !=
			    BS_CERT_OK || bs_cert_verify(&d, ca.pk, 0) !=
			    BS_CERT_OK, "byte %zu ^ %02x accepted", i, flips[f]);
			enc[i] ^= flips[f];
		}
	}
	ck_assert_int_eq(bs_cert_decode(&d, enc, sizeof(enc)), BS_CERT_OK);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_OK);
}
END_TEST

START_TEST(test_cert_strerror)
{
	const int errs[] = { BS_CERT_OK, BS_CERT_EFORMAT, BS_CERT_EISSUER,
	    BS_CERT_ESIG, BS_CERT_ENOTYET, BS_CERT_EEXPIRED };
	size_t i, j;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		for (j = 0; j < i; j++)
			ck_assert_str_ne(bs_cert_strerror(errs[i]),
			    bs_cert_strerror(errs[j]));
	ck_assert_str_eq(bs_cert_strerror(-99), "unknown certificate error");
	ck_assert_str_eq(bs_cert_strerror(BS_CERT_EEXPIRED), "expired");
}
END_TEST

/* ---- revocations -------------------------------------------------------- */

#define REVOKE_AT 1750000000ULL
#define REVOKE_KAT \
	"010000003d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f1" \
	"2af4660cd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68" \
	"f707511a00000000684ee1803d4d1a09c330cebc47c1a9c6a0fac622b204c365" \
	"1785e6b6a329ab1fdbba2dd6d67a9acab6dc65786db8271148a03e249aa20cff" \
	"caf1bc820da5811874e89805"

static void
revoke_fixture(struct bs_revoke *r, struct bs_identity *ca, uint8_t *out)
{
	struct bs_identity b;

	ident(ca, SEED_A);
	ident(&b, SEED_B);
	ck_assert_int_eq(bs_revoke_issue(r, ca, b.pk, REVOKE_AT), 0);
	bs_revoke_encode(out, r);
}

START_TEST(test_revoke_kat)
{
	struct bs_identity ca;
	struct bs_revoke r, d;
	uint8_t enc[BS_REVOKE_LEN], again[BS_REVOKE_LEN], pkb[BS_PK_LEN];

	revoke_fixture(&r, &ca, enc);
	assert_hex(enc, sizeof(enc), REVOKE_KAT);
	t_unhex(pkb, sizeof(pkb), PK_B);
	ck_assert_uint_eq(enc[0], BS_REVOKE_VERSION);
	ck_assert_uint_eq(enc[1] | enc[2] | enc[3], 0);
	ck_assert_mem_eq(enc + 4, pkb, BS_PK_LEN);
	ck_assert_mem_eq(enc + 36, ca.pk, BS_PK_LEN);
	ck_assert_uint_eq(bs_get64(enc + 68), REVOKE_AT);
	ck_assert_int_eq(bs_verify(enc + 76, BS_DOM_REVOKE, enc, 76, ca.pk), 0);
	ck_assert_int_eq(bs_revoke_decode(&d, enc, sizeof(enc)), 0);
	ck_assert_int_eq(bs_revoke_verify(&d, ca.pk), 0);
	ck_assert_uint_eq(d.issued_at, REVOKE_AT);
	bs_revoke_encode(again, &d);
	ck_assert_mem_eq(again, enc, BS_REVOKE_LEN);
}
END_TEST

START_TEST(test_revoke_decode_strict)
{
	struct bs_identity ca;
	struct bs_revoke r;
	uint8_t enc[BS_REVOKE_LEN + 1];
	size_t i;

	revoke_fixture(&r, &ca, enc);
	enc[BS_REVOKE_LEN] = 0;
	ck_assert_ptr_null(bs_revoke_format_problem(enc, BS_REVOKE_LEN));
	ck_assert_int_eq(bs_revoke_decode(&r, enc, BS_REVOKE_LEN - 1), -1);
	ck_assert_int_eq(bs_revoke_decode(&r, enc, BS_REVOKE_LEN + 1), -1);
	ck_assert_int_eq(bs_revoke_decode(&r, NULL, BS_REVOKE_LEN), -1);
	ck_assert_str_eq(bs_revoke_format_problem(enc, 0),
	    "length is not 140 bytes");
	enc[0] = 2;
	ck_assert_str_eq(bs_revoke_format_problem(enc, BS_REVOKE_LEN),
	    "unsupported format version");
	ck_assert_int_eq(bs_revoke_decode(&r, enc, BS_REVOKE_LEN), -1);
	enc[0] = BS_REVOKE_VERSION;
	for (i = 1; i < 4; i++) {
		enc[i] = 0x10;
		ck_assert_str_eq(bs_revoke_format_problem(enc, BS_REVOKE_LEN),
		    "reserved byte not zero");
		ck_assert_int_eq(bs_revoke_decode(&r, enc, BS_REVOKE_LEN), -1);
		enc[i] = 0;
	}
}
END_TEST

START_TEST(test_revoke_tamper)
{
	struct bs_identity ca, other;
	struct bs_revoke r, d;
	uint8_t enc[BS_REVOKE_LEN], buf[BS_REVOKE_SIGNED_LEN];
	size_t i;

	revoke_fixture(&r, &ca, enc);
	for (i = 0; i < sizeof(enc); i++) {
		enc[i] ^= 0x01;
		ck_assert_msg(bs_revoke_decode(&d, enc, sizeof(enc)) != 0 ||
		    bs_revoke_verify(&d, ca.pk) != 0, "byte %zu accepted", i);
		enc[i] ^= 0x01;
	}
	ck_assert_int_eq(bs_identity_generate(&other), 0);
	ck_assert_int_eq(bs_revoke_verify(&r, other.pk), -1);
	/* The anchor's certificate-domain signature over the same bytes. */
	d = r;
	memcpy(buf, enc, sizeof(buf));
	ck_assert_int_eq(bs_sign(d.sig, BS_DOM_CERT, buf, sizeof(buf), &ca), 0);
	ck_assert_int_eq(bs_revoke_verify(&d, ca.pk), -1);
	ck_assert_int_eq(bs_revoke_verify(&r, ca.pk), 0);
}
END_TEST

/* ---- helpers ------------------------------------------------------------ */

START_TEST(test_be_helpers)
{
	uint8_t b[8];

	bs_put64(b, 0x0102030405060708ULL);
	assert_hex(b, 8, "0102030405060708");
	ck_assert_uint_eq(bs_get64(b), 0x0102030405060708ULL);
	ck_assert_uint_eq(bs_get32(b), 0x01020304u);
	ck_assert_uint_eq(bs_get16(b + 6), 0x0708u);
	bs_put16(b, 0xfffe);
	ck_assert_uint_eq(bs_get16(b), 0xfffe);
	bs_put32(b, 0x80000001u);
	assert_hex(b, 4, "80000001");
}
END_TEST

START_TEST(test_random)
{
	uint8_t a[32], b[32];
	int i;

	bs_random(a, sizeof(a));
	bs_random(b, sizeof(b));
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	for (i = 0; i < 1000; i++)
		ck_assert_uint_lt(bs_random_uniform(7), 7);
	ck_assert_uint_eq(bs_random_uniform(1), 0);
}
END_TEST

/* ---- data frames, version 2 --------------------------------------------- */

/*
 * Fixtures: a link key L = 00 01 .. 1f (any 32 bytes: the derivations do
 * not care where it came from), public keys 11.. and 22.., two MACs.
 */
static uint8_t d_lk[BS_LINKKEY_LEN], d_pka[BS_PK_LEN], d_pkb[BS_PK_LEN];
static const uint8_t d_maca[BS_ADDR_LEN] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t d_macb[BS_ADDR_LEN] = { 0x00, 0x16, 0x3e, 0, 0, 0x09 };

static void
d_setup(void)
{
	unsigned i;

	setup();
	for (i = 0; i < sizeof(d_lk); i++)
		d_lk[i] = (uint8_t)i;
	memset(d_pka, 0x11, sizeof(d_pka));
	memset(d_pkb, 0x22, sizeof(d_pkb));
}

static const uint8_t d_salta[BS_LINKSALT_LEN] = {
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf };
static const uint8_t d_saltb[BS_LINKSALT_LEN] = {
	0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf };

/* The root of a link; end a has salt sa, end b salt sb. */
static void
link_root_s(uint8_t r[BS_LINKROOT_LEN], const uint8_t *lk,
    const uint8_t *pka, const uint8_t *maca, uint32_t ea, const uint8_t *sa,
    const uint8_t *pkb, const uint8_t *macb, uint32_t eb, const uint8_t *sb)
{
	struct bs_hop_end a = { pka, maca, ea, sa }, b = { pkb, macb, eb, sb };

	bs_link_root(r, lk, &a, &b);
}

/* The hop key of a link whose ends have the fixture salts a and b. */
static void
hop_key(uint8_t h[BS_HOPKEY_LEN], const uint8_t *lk, const uint8_t *pka,
    const uint8_t *maca, uint32_t ea, const uint8_t *pkb,
    const uint8_t *macb, uint32_t eb)
{
	uint8_t r[BS_LINKROOT_LEN];

	link_root_s(r, lk, pka, maca, ea, d_salta, pkb, macb, eb, d_saltb);
	bs_hop_key(h, r);
}

START_TEST(test_hop_key_kat)
{
	uint8_t r[BS_LINKROOT_LEN], r2[BS_LINKROOT_LEN], h[BS_HOPKEY_LEN],
	    k[BS_LINKKEY_LEN], id[BS_KEYID_LEN];

	/*
	 * python3 -c "import hashlib,struct; L=bytes(range(32));
	 *   ma=bytes.fromhex('020000000001'); mb=bytes.fromhex('00163e000009');
	 *   sa=bytes(range(0xa0,0xb0)); sb=bytes(range(0xb0,0xc0));
	 *   print(hashlib.blake2b(b'batsec-link-v2'+mb+ma+struct.pack('>II',
	 *   7,0x01020304)+sb+sa,key=L,digest_size=32).hexdigest())"
	 * (mac_b is the lower MAC, so its epoch 7 and salt come first)
	 */
	link_root_s(r, d_lk, d_pka, d_maca, 0x01020304, d_salta, d_pkb, d_macb,
	    7, d_saltb);
	assert_hex(r, sizeof(r), "ec786397ee57dbec4d7ad480dfef3aee"
	    "6d3bb3fd491c477b39bac6e3c643423e");
	/* From the other end: the same root. */
	link_root_s(r2, d_lk, d_pkb, d_macb, 7, d_saltb, d_pka, d_maca,
	    0x01020304, d_salta);
	ck_assert_mem_eq(r, r2, sizeof(r));
	/*
	 * R as above; H = blake2b(b'batsec2-hop', key=R, digest_size=16),
	 * its id = blake2b(b'batsec2-hopid', key=H)[:4];
	 * K = blake2b(b'batsec-ogm-link', key=R, digest_size=32), its id =
	 * blake2b(b'batsec-keyid', key=K)[:4].
	 */
	bs_hop_key(h, r);
	assert_hex(h, sizeof(h), "90586030922d13fbdce52535c1c4e04f");
	bs_hop_keyid(id, h);
	assert_hex(id, sizeof(id), "92191917");
	bs_ogm_key(k, r);
	assert_hex(k, sizeof(k), "e761e14156b565f9a662818a70258c45"
	    "fd87f24fb3a1a607e33e8d0055334b58");
	bs_link_keyid(id, k);
	assert_hex(id, sizeof(id), "39183fb6");
	/*
	 * Equal MACs: ordered by public key (11.. before 22..):
	 * ... b'batsec-link-v2'+ma+ma+struct.pack('>II',0x01020304,7)+sa+sb
	 */
	link_root_s(r, d_lk, d_pka, d_maca, 0x01020304, d_salta, d_pkb, d_maca,
	    7, d_saltb);
	assert_hex(r, sizeof(r), "d6dfa4c8e5f7eb1e9924f13ad21224d4"
	    "93b94660589282fadc9b927cbb3c6893");
	link_root_s(r2, d_lk, d_pkb, d_maca, 7, d_saltb, d_pka, d_maca,
	    0x01020304, d_salta);
	ck_assert_mem_eq(r, r2, sizeof(r));
}
END_TEST

/*
 * Either salt changes the root and both keys; the salts swapped between
 * the ends too.  The hop key and the OGM key of one root are unrelated:
 * the OGM key (all the parser ever holds) is not the hop key's source.
 */
START_TEST(test_link_root_salts)
{
	uint8_t r0[BS_LINKROOT_LEN], r[BS_LINKROOT_LEN], s[BS_LINKSALT_LEN],
	    h0[BS_HOPKEY_LEN], h[BS_HOPKEY_LEN], k0[BS_LINKKEY_LEN],
	    k[BS_LINKKEY_LEN];

	link_root_s(r0, d_lk, d_pka, d_maca, 5, d_salta, d_pkb, d_macb, 9,
	    d_saltb);
	bs_hop_key(h0, r0);
	bs_ogm_key(k0, r0);
	memcpy(s, d_salta, sizeof(s));
	s[15] ^= 0x01;
	link_root_s(r, d_lk, d_pka, d_maca, 5, s, d_pkb, d_macb, 9, d_saltb);
	ck_assert_mem_ne(r, r0, sizeof(r));
	bs_hop_key(h, r);
	bs_ogm_key(k, r);
	ck_assert_mem_ne(h, h0, sizeof(h));
	ck_assert_mem_ne(k, k0, sizeof(k));
	memcpy(s, d_saltb, sizeof(s));
	s[0] ^= 0x80;
	link_root_s(r, d_lk, d_pka, d_maca, 5, d_salta, d_pkb, d_macb, 9, s);
	ck_assert_mem_ne(r, r0, sizeof(r));
	link_root_s(r, d_lk, d_pka, d_maca, 5, d_saltb, d_pkb, d_macb, 9,
	    d_salta);
	ck_assert_mem_ne(r, r0, sizeof(r));
	/* OGM key and hop key: different derivations of the root. */
	ck_assert_mem_ne(k0, h0, sizeof(h0));
	bs_hop_key(h, k0);
	ck_assert_mem_ne(h, h0, sizeof(h));
}
END_TEST

/* Each input changes the hop key (and its id). */
START_TEST(test_hop_key_inputs)
{
	uint8_t h0[BS_HOPKEY_LEN], h[BS_HOPKEY_LEN], lk[BS_LINKKEY_LEN],
	    m[BS_ADDR_LEN], id0[BS_KEYID_LEN], id[BS_KEYID_LEN],
	    r[BS_LINKROOT_LEN];

	hop_key(h0, d_lk, d_pka, d_maca, 5, d_pkb, d_macb, 9);
	bs_hop_keyid(id0, h0);
	/* either epoch */
	hop_key(h, d_lk, d_pka, d_maca, 6, d_pkb, d_macb, 9);
	ck_assert_mem_ne(h, h0, sizeof(h));
	hop_key(h, d_lk, d_pka, d_maca, 5, d_pkb, d_macb, 10);
	ck_assert_mem_ne(h, h0, sizeof(h));
	/* the epochs swapped between the ends */
	hop_key(h, d_lk, d_pka, d_maca, 9, d_pkb, d_macb, 5);
	ck_assert_mem_ne(h, h0, sizeof(h));
	/* either MAC */
	memcpy(m, d_maca, sizeof(m));
	m[5] ^= 0x01;
	hop_key(h, d_lk, d_pka, m, 5, d_pkb, d_macb, 9);
	ck_assert_mem_ne(h, h0, sizeof(h));
	memcpy(m, d_macb, sizeof(m));
	m[0] ^= 0x80;
	hop_key(h, d_lk, d_pka, d_maca, 5, d_pkb, m, 9);
	ck_assert_mem_ne(h, h0, sizeof(h));
	/* the link key */
	memcpy(lk, d_lk, sizeof(lk));
	lk[31] ^= 0x01;
	hop_key(h, lk, d_pka, d_maca, 5, d_pkb, d_macb, 9);
	ck_assert_mem_ne(h, h0, sizeof(h));
	bs_hop_keyid(id, h);
	ck_assert_mem_ne(id, id0, sizeof(id));
	/* with distinct MACs the public keys do not matter */
	hop_key(h, d_lk, d_pkb, d_maca, 5, d_pka, d_macb, 9);
	ck_assert_mem_eq(h, h0, sizeof(h));
	/* with equal MACs the public keys order the epochs */
	hop_key(h0, d_lk, d_pka, d_maca, 5, d_pkb, d_maca, 9);
	hop_key(h, d_lk, d_pkb, d_maca, 5, d_pka, d_maca, 9);
	ck_assert_mem_ne(h, h0, sizeof(h));
	link_root_s(r, d_lk, d_pkb, d_maca, 9, d_saltb, d_pka, d_maca, 5,
	    d_salta);
	bs_hop_key(h, r);
	ck_assert_mem_eq(h, h0, sizeof(h));
	/* the id is deterministic */
	bs_hop_keyid(id, h0);
	bs_hop_keyid(id0, h0);
	ck_assert_mem_eq(id, id0, sizeof(id));
}
END_TEST

/* Both ends with real identities and bs_link_key: the same key. */
START_TEST(test_hop_key_ends)
{
	struct bs_identity a, b;
	uint8_t la[BS_LINKKEY_LEN], lb[BS_LINKKEY_LEN], ha[BS_HOPKEY_LEN],
	    hb[BS_HOPKEY_LEN], ka[BS_E2EKEY_LEN], kb[BS_E2EKEY_LEN],
	    r[BS_LINKROOT_LEN];

	ident(&a, SEED_A);
	ident(&b, SEED_B);
	ck_assert_int_eq(bs_link_key(la, &a, b.pk), 0);
	ck_assert_int_eq(bs_link_key(lb, &b, a.pk), 0);
	ck_assert_mem_eq(la, lb, sizeof(la));
	hop_key(ha, la, a.pk, d_maca, 3, b.pk, d_macb, 4);
	link_root_s(r, lb, b.pk, d_macb, 4, d_saltb, a.pk, d_maca, 3,
	    d_salta);
	bs_hop_key(hb, r);
	ck_assert_mem_eq(ha, hb, sizeof(ha));
	/* Both ends derive the same key for each direction. */
	bs_e2e_key(ka, BS_AEAD_CHACHA20, la, a.pk, b.pk, 3, 4);
	bs_e2e_key(kb, BS_AEAD_CHACHA20, lb, a.pk, b.pk, 3, 4);
	ck_assert_mem_eq(ka, kb, sizeof(ka));
	bs_identity_wipe(&a);
	bs_identity_wipe(&b);
}
END_TEST

START_TEST(test_hop_tag)
{
	uint8_t k[BS_HOPKEY_LEN], m[64], t[BS_HOPTAG_LEN];
	size_t i, bit;

	/*
	 * SipHash-2-4 reference vector (Aumasson and Bernstein, "SipHash: a
	 * fast short-input PRF", appendix A): key 00..0f, message 00..0e,
	 * output 0xa129ca6149be45e5, i.e. the bytes e5 45 .. a1.
	 */
	for (i = 0; i < sizeof(k); i++)
		k[i] = (uint8_t)i;
	for (i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)i;
	bs_hop_tag(t, k, m, 15);
	assert_hex(t, sizeof(t), "e545be4961ca29a1");
	ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 15), 0);
	/* The empty message (vector 0): 310e0edd47db6f72. */
	bs_hop_tag(t, k, m, 0);
	assert_hex(t, sizeof(t), "310e0edd47db6f72");
	/* Any flipped bit of tag, key or message fails; so does a length. */
	bs_hop_tag(t, k, m, 60);
	ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 60), 0);
	ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 59), -1);
	ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 61), -1);
	for (bit = 0; bit < 8 * sizeof(t); bit++) {
		t[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 60), -1);
		t[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	for (bit = 0; bit < 8 * sizeof(k); bit++) {
		k[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 60), -1);
		k[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	for (bit = 0; bit < 8 * 60; bit++) {
		m[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 60), -1);
		m[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	ck_assert_int_eq(bs_hop_tag_verify(t, k, m, 60), 0);
}
END_TEST

START_TEST(test_e2e_key)
{
	uint8_t k[BS_E2EKEY_LEN], k2[BS_E2EKEY_LEN], lk[BS_LINKKEY_LEN];

	/*
	 * python3 -c "import hashlib,struct; L=bytes(range(32));
	 *   print(hashlib.blake2b(b'batsec2-e2e'+b'\x11'*32+b'\x22'*32+
	 *   struct.pack('>II',0x01020304,7),key=L,digest_size=32).hexdigest())"
	 */
	bs_e2e_key(k, BS_AEAD_CHACHA20, d_lk, d_pka, d_pkb, 0x01020304, 7);
	assert_hex(k, sizeof(k), "d4a917c17a4abc5dabf28a6a6c4268dc"
	    "fabf9dac1e029dd22ad65050ce10711d");
	/* the other direction */
	bs_e2e_key(k2, BS_AEAD_CHACHA20, d_lk, d_pkb, d_pka, 7, 0x01020304);
	ck_assert_mem_ne(k, k2, sizeof(k));
	/* either epoch, or the epochs swapped */
	bs_e2e_key(k2, BS_AEAD_CHACHA20, d_lk, d_pka, d_pkb, 0x01020305, 7);
	ck_assert_mem_ne(k, k2, sizeof(k));
	bs_e2e_key(k2, BS_AEAD_CHACHA20, d_lk, d_pka, d_pkb, 0x01020304, 8);
	ck_assert_mem_ne(k, k2, sizeof(k));
	bs_e2e_key(k2, BS_AEAD_CHACHA20, d_lk, d_pka, d_pkb, 7, 0x01020304);
	ck_assert_mem_ne(k, k2, sizeof(k));
	/* the link key */
	memcpy(lk, d_lk, sizeof(lk));
	lk[0] ^= 0x80;
	bs_e2e_key(k2, BS_AEAD_CHACHA20, lk, d_pka, d_pkb, 0x01020304, 7);
	ck_assert_mem_ne(k, k2, sizeof(k));
	bs_e2e_key(k2, BS_AEAD_CHACHA20, d_lk, d_pka, d_pkb, 0x01020304, 7);
	ck_assert_mem_eq(k, k2, sizeof(k));
	/* AES-256-GCM: its own label, so never the ChaCha20-Poly1305 key
	 * (the same python with b'batsec2-e2e-aes'). */
	bs_e2e_key(k2, BS_AEAD_AES256GCM, d_lk, d_pka, d_pkb, 0x01020304, 7);
	assert_hex(k2, sizeof(k2), "b2fa795700fe14c32c2084d53c3a5449"
	    "5ff57ab9b473ae444e248b43c76c2000");
}
END_TEST

/* Seal and open with aead: round trips, in place, every refusal. */
static void
aead_check(enum bs_aead aead)
{
	static const uint8_t ad[29] = { 0x40, 1, 2, 3 };
	uint8_t k[BS_E2EKEY_LEN], k2[BS_E2EKEY_LEN], m[1518], c[1518],
	    buf[1518], tag[BS_AEAD_TAG_LEN], tag2[BS_AEAD_TAG_LEN],
	    ad2[sizeof(ad)];
	size_t i, len = sizeof(m);

	bs_e2e_key(k, aead, d_lk, d_pka, d_pkb, 1, 2);
	bs_e2e_key(k2, aead, d_lk, d_pkb, d_pka, 2, 1);
	for (i = 0; i < len; i++)
		m[i] = (uint8_t)(i * 13);
	bs_aead_seal(c, tag, aead, k, 77, ad, sizeof(ad), m, len);
	ck_assert_mem_ne(c, m, 64);
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(bs_aead_open(buf, aead, k, 77, ad, sizeof(ad), c, len,
	    tag), 0);
	ck_assert_mem_eq(buf, m, len);
	/* In place, both ways: the same bytes. */
	memcpy(buf, m, len);
	bs_aead_seal(buf, tag2, aead, k, 77, ad, sizeof(ad), buf, len);
	ck_assert_mem_eq(buf, c, len);
	ck_assert_mem_eq(tag2, tag, sizeof(tag));
	ck_assert_int_eq(bs_aead_open(buf, aead, k, 77, ad, sizeof(ad), buf,
	    len, tag), 0);
	ck_assert_mem_eq(buf, m, len);
	/* Another counter: another ciphertext. */
	bs_aead_seal(buf, tag2, aead, k, 78, ad, sizeof(ad), m, len);
	ck_assert_mem_ne(buf, c, 64);
	/* Refusals: nothing usable is written (never the plaintext). */
#define OPEN_FAILS(key, ctr, a, cc, tg) do {				\
	memset(buf, 0xa5, sizeof(buf));					\
	ck_assert_int_eq(bs_aead_open(buf, aead, key, ctr, a,		\
	    sizeof(ad), cc, len, tg), -1);				\
	ck_assert_mem_ne(buf, m, 64);					\
} while (0)
	OPEN_FAILS(k2, 77, ad, c, tag);
	OPEN_FAILS(k, 76, ad, c, tag);
	OPEN_FAILS(k, 77 | (1ull << 63), ad, c, tag);
	memcpy(ad2, ad, sizeof(ad));
	ad2[28] ^= 1;
	OPEN_FAILS(k, 77, ad2, c, tag);
	ad2[28] ^= 1;
	ad2[0] = 0x42;				/* the type is bound */
	OPEN_FAILS(k, 77, ad2, c, tag);
	memcpy(tag2, tag, sizeof(tag));
	tag2[15] ^= 0x80;
	OPEN_FAILS(k, 77, ad, c, tag2);
	c[700] ^= 1;
	OPEN_FAILS(k, 77, ad, c, tag);
	c[700] ^= 1;
#undef OPEN_FAILS
	/* A shorter ciphertext (cut frame) fails too. */
	ck_assert_int_eq(bs_aead_open(buf, aead, k, 77, ad, sizeof(ad), c,
	    len - 1, tag), -1);
	/* In place refusal: the frame does not become the plaintext. */
	memcpy(buf, c, len);
	ck_assert_int_eq(bs_aead_open(buf, aead, k2, 77, ad, sizeof(ad), buf,
	    len, tag), -1);
	ck_assert_mem_ne(buf, m, 64);
	/* Still opens with the right inputs. */
	ck_assert_int_eq(bs_aead_open(buf, aead, k, 77, ad, sizeof(ad), c, len,
	    tag), 0);
	ck_assert_mem_eq(buf, m, len);
}

START_TEST(test_aead)
{
	static const uint8_t ad[29] = { 0x40, 1, 2, 3 };
	uint8_t k[BS_E2EKEY_LEN], ka[BS_E2EKEY_LEN], m[600], c[600], buf[600];
	uint8_t tag[BS_AEAD_TAG_LEN];

	ck_assert_int_eq(bs_aead_available(BS_AEAD_CHACHA20), 1);
	ck_assert_int_eq(bs_aead_available((enum bs_aead)7), 0);
	aead_check(BS_AEAD_CHACHA20);
	if (!bs_aead_available(BS_AEAD_AES256GCM)) {
		/* No AES-NI (the cross-built runs): sealing refuses and
		 * writes nothing usable, opening refuses. */
		memset(m, 0x5a, sizeof(m));
		bs_e2e_key(k, BS_AEAD_AES256GCM, d_lk, d_pka, d_pkb, 1, 2);
		ck_assert_int_eq(bs_aead_seal(c, tag, BS_AEAD_AES256GCM, k, 1,
		    ad, sizeof(ad), m, sizeof(m)), -1);
		ck_assert_mem_ne(c, m, 64);
		ck_assert_int_eq(bs_aead_open(buf, BS_AEAD_AES256GCM, k, 1, ad,
		    sizeof(ad), c, sizeof(c), tag), -1);
		return;
	}
	aead_check(BS_AEAD_AES256GCM);
	/* The two AEADs' keys differ, and neither opens the other's frame,
	 * even under the same key and nonce. */
	bs_e2e_key(k, BS_AEAD_CHACHA20, d_lk, d_pka, d_pkb, 1, 2);
	bs_e2e_key(ka, BS_AEAD_AES256GCM, d_lk, d_pka, d_pkb, 1, 2);
	ck_assert_mem_ne(k, ka, sizeof(k));
	memset(m, 0x5a, sizeof(m));
	ck_assert_int_eq(bs_aead_seal(c, tag, BS_AEAD_AES256GCM, k, 9, ad,
	    sizeof(ad), m, sizeof(m)), 0);
	ck_assert_int_eq(bs_aead_open(buf, BS_AEAD_CHACHA20, k, 9, ad,
	    sizeof(ad), c, sizeof(c), tag), -1);
	ck_assert_int_eq(bs_aead_open(buf, BS_AEAD_AES256GCM, k, 9, ad,
	    sizeof(ad), c, sizeof(c), tag), 0);
	ck_assert_mem_eq(buf, m, sizeof(m));
	ck_assert_int_eq(bs_aead_seal(c, tag, BS_AEAD_CHACHA20, k, 9, ad,
	    sizeof(ad), m, sizeof(m)), 0);
	ck_assert_int_eq(bs_aead_open(buf, BS_AEAD_AES256GCM, k, 9, ad,
	    sizeof(ad), c, sizeof(c), tag), -1);
}
END_TEST

START_TEST(test_replay)
{
	struct bs_replay w;
	uint64_t c;

	/* The zero window: nothing seen, 0 and up are fresh. */
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(bs_replay_fresh(&w, 0), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 1), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX - 1), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX), 0);
	bs_replay_mark(&w, 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 0), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 1), 1);

	/* Above the top: fresh; duplicates refused. */
	memset(&w, 0, sizeof(w));
	bs_replay_mark(&w, 1000);
	ck_assert_int_eq(bs_replay_fresh(&w, 1000), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 1001), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 5000), 1);
	/* Out of order within 256: each accepted once. */
	for (c = 1000 - 255; c < 1000; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), 1);
	for (c = 999; c >= 1000 - 255; c -= 2)
		bs_replay_mark(&w, c);
	for (c = 1000 - 255; c < 1000; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), (1000 - c) % 2 == 0);
	/* Older than 256 below the highest: refused. */
	ck_assert_int_eq(bs_replay_fresh(&w, 1000 - 256), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 1000 - 257), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 0), 0);
	/* Marking a refused counter changes nothing. */
	bs_replay_mark(&w, 1000 - 257);
	ck_assert_int_eq(bs_replay_fresh(&w, 1001), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 1000 - 2), 1);

	/* Sliding by less than 256 keeps what is still in the window. */
	bs_replay_mark(&w, 1100);
	ck_assert_int_eq(bs_replay_fresh(&w, 1000), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 999), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 998), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 1050), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 1100 - 256), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 1100 - 255), 0);	/* seen */
	ck_assert_int_eq(bs_replay_fresh(&w, 1100 - 254), 1);	/* not */
	/* The slots between the old top and the new one are cleared. */
	for (c = 1001; c < 1100; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), 1);

	/* A jump of more than 256 clears the window. */
	memset(&w, 0, sizeof(w));
	for (c = 100; c < 356; c++)
		bs_replay_mark(&w, c);
	for (c = 100; c < 356; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), 0);
	bs_replay_mark(&w, 355 + 300);
	for (c = 355 + 300 - 255; c < 355 + 300; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 355 + 300), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 355), 0);
	/* A jump of exactly 256: the old top falls out, the rest are new. */
	memset(&w, 0, sizeof(w));
	for (c = 0; c < 256; c++)
		bs_replay_mark(&w, c);
	bs_replay_mark(&w, 255 + 256);
	for (c = 256; c < 255 + 256; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, 255), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 255 + 256), 0);
	/* A jump of 255: the old top stays seen. */
	memset(&w, 0, sizeof(w));
	bs_replay_mark(&w, 10);
	bs_replay_mark(&w, 10 + 255);
	ck_assert_int_eq(bs_replay_fresh(&w, 10), 0);
	for (c = 11; c < 10 + 255; c++)
		ck_assert_int_eq(bs_replay_fresh(&w, c), 1);

	/* The end of the counter space: UINT64_MAX is never accepted. */
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX), 0);
	bs_replay_mark(&w, UINT64_MAX);
	ck_assert_uint_eq(w.top, 0);
	ck_assert_int_eq(bs_replay_fresh(&w, 0), 1);
	bs_replay_mark(&w, UINT64_MAX - 1);
	ck_assert_uint_eq(w.top, UINT64_MAX);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX - 1), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX - 2), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX - 256), 1);
	ck_assert_int_eq(bs_replay_fresh(&w, UINT64_MAX - 257), 0);

	/* Lanes: counters with a top byte are just large counters. */
	memset(&w, 0, sizeof(w));
	bs_replay_mark(&w, (1ull << 56) | 5);
	ck_assert_int_eq(bs_replay_fresh(&w, 5), 0);
	ck_assert_int_eq(bs_replay_fresh(&w, (1ull << 56) | 4), 1);
}
END_TEST

static Suite *
crypto_suite(void)
{
	Suite *s = suite_create("crypto");
	TCase *tc;

	tc = tcase_create("sign");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_rfc8032, 0, T_NELEM(rfc8032));
	tcase_add_test(tc, test_identity);
	tcase_add_test(tc, test_mesh_addr_kat);
	tcase_add_test(tc, test_mesh_addr_formula);
	tcase_add_test(tc, test_mesh_addr_memo);
	tcase_add_test(tc, test_sign_kat);
	tcase_add_loop_test(tc, test_sign_domains, BS_DOM_HELLO,
	    BS_DOM_BLA + 1);
	tcase_add_test(tc, test_sign_bad_args);
	tcase_add_test(tc, test_sign_tamper);
	suite_add_tcase(s, tc);

	tc = tcase_create("link");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_link_kat);
	tcase_add_test(tc, test_link_symmetry);
	tcase_add_loop_test(tc, test_link_bad_peer, 0, T_NELEM(bad_peers));
	tcase_add_test(tc, test_link_self);
	tcase_add_test(tc, test_mac_kat);
	tcase_add_test(tc, test_mac_tamper);
	tcase_add_test(tc, test_mac_empty_frame);
	suite_add_tcase(s, tc);

	tc = tcase_create("chain");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_chain_kat);
	tcase_add_loop_test(tc, test_chain_hops, 0, BS_MAXHOPS + 1);
	suite_add_tcase(s, tc);

	tc = tcase_create("cert");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cert_kat);
	tcase_add_loop_test(tc, test_cert_decode_strict, 0, T_NELEM(cert_bads));
	tcase_add_test(tc, test_cert_decode_length);
	tcase_add_test(tc, test_cert_names);
	tcase_add_test(tc, test_cert_verify_errors);
	tcase_add_loop_test(tc, test_cert_window, 0, T_NELEM(windows));
	tcase_add_test(tc, test_cert_window_extremes);
	tcase_add_test(tc, test_cert_tamper);
	tcase_add_test(tc, test_cert_strerror);
	suite_add_tcase(s, tc);

	tc = tcase_create("revoke");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_revoke_kat);
	tcase_add_test(tc, test_revoke_decode_strict);
	tcase_add_test(tc, test_revoke_tamper);
	suite_add_tcase(s, tc);

	tc = tcase_create("data");
	tcase_add_checked_fixture(tc, d_setup, NULL);
	tcase_add_test(tc, test_hop_key_kat);
	tcase_add_test(tc, test_link_root_salts);
	tcase_add_test(tc, test_hop_key_inputs);
	tcase_add_test(tc, test_hop_key_ends);
	tcase_add_test(tc, test_hop_tag);
	tcase_add_test(tc, test_e2e_key);
	tcase_add_test(tc, test_aead);
	tcase_add_test(tc, test_replay);
	suite_add_tcase(s, tc);

	tc = tcase_create("misc");
	tcase_add_test(tc, test_be_helpers);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(crypto_suite());
}
