/*
 * fuzz_cert.c — certificate and revocation decoding and verification on
 * arbitrary bytes, and signature, link-key, MAC and hop-chain checks on
 * arbitrary keys, signatures and messages.
 *
 * The whole input is tried as a certificate and as a revocation record.
 * Then, when long enough, it is read as
 *   [0] domain/hops  [1..64] signature  [65..96] public key  [97..] message
 * Invariants that must hold are checked with abort().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* RFC 8032 TEST 1: the CA that signed the seed corpus (fuzz/gen_cert.c). */
static const uint8_t fuzz_anchor_seed[BS_SEED_LEN] = {
	0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a,
	0xf4, 0x92, 0xec, 0x2c, 0xc4, 0x44, 0x49, 0xc5, 0x69, 0x7b, 0x32,
	0x69, 0x19, 0x70, 0x3b, 0xac, 0x03, 0x1c, 0xae, 0x7f, 0x60,
};
static struct bs_identity fuzz_ca;

static const uint64_t fuzz_times[] = {
	0, 1, 1700000000, 1750000000, 1800000000, UINT64_MAX,
};

static void
fuzz_cert_windows(const struct bs_cert *c, const uint8_t *anchor)
{
	size_t i;
	int rc;

	for (i = 0; i < sizeof(fuzz_times) / sizeof(fuzz_times[0]); i++) {
		rc = bs_cert_verify(c, anchor, fuzz_times[i]);
		if (rc != BS_CERT_OK && rc != BS_CERT_ENOTYET &&
		    rc != BS_CERT_EEXPIRED)
			abort();
	}
	/* With no clock the window is never the reason for a refusal. */
	if (bs_cert_verify(c, anchor, 0) != BS_CERT_OK)
		abort();
}

static void
fuzz_cert(const uint8_t *data, size_t size)
{
	uint8_t again[BS_CERT_LEN];
	const char *why = bs_cert_format_problem(data, size);
	struct bs_cert c;
	int rc = bs_cert_decode(&c, data, size);

	if ((why == NULL) != (rc == BS_CERT_OK))
		abort();
	if (rc != BS_CERT_OK)
		return;
	/* Strict decoding means one encoding per certificate. */
	bs_cert_encode(again, &c);
	if (memcmp(again, data, BS_CERT_LEN) != 0 ||
	    strlen(c.name) != data[2])
		abort();
	rc = bs_cert_verify(&c, c.issuer_pk, 0);
	if (rc != BS_CERT_OK && rc != BS_CERT_ESIG)
		abort();
	if (rc == BS_CERT_OK)
		fuzz_cert_windows(&c, c.issuer_pk);
	rc = bs_cert_verify(&c, fuzz_ca.pk, 1750000000);
	if (bs_cert_strerror(rc) == NULL)
		abort();
}

static void
fuzz_revoke(const uint8_t *data, size_t size)
{
	uint8_t again[BS_REVOKE_LEN];
	const char *why = bs_revoke_format_problem(data, size);
	struct bs_revoke r;
	int rc = bs_revoke_decode(&r, data, size);

	if ((why == NULL) != (rc == 0))
		abort();
	if (rc != 0)
		return;
	bs_revoke_encode(again, &r);
	if (memcmp(again, data, BS_REVOKE_LEN) != 0)
		abort();
	(void)bs_revoke_verify(&r, r.issuer_pk);
	(void)bs_revoke_verify(&r, fuzz_ca.pk);
}

#define FZ_SIG	1
#define FZ_PK	(FZ_SIG + BS_SIG_LEN)
#define FZ_MSG	(FZ_PK + BS_PK_LEN)

static void
fuzz_sig(const uint8_t *data, size_t size)
{
	uint8_t key[BS_LINKKEY_LEN];
	enum bs_domain dom;
	int rc;

	if (size < FZ_MSG)
		return;
	/* Unknown domains (0, 6, 7) must be refused, never crash. */
	dom = (enum bs_domain)(data[0] % 8);
	rc = bs_verify(data + FZ_SIG, dom, data + FZ_MSG, size - FZ_MSG,
	    data + FZ_PK);
	if (rc == 0 && (dom < BS_DOM_HELLO || dom > BS_DOM_LINK))
		abort();
	(void)bs_ed25519_verify_raw(data + FZ_SIG, data + FZ_MSG,
	    size - FZ_MSG, data + FZ_PK);
	/* Arbitrary peer keys through the X25519 conversion, both ways. */
	if (bs_link_key(key, &fuzz_ca, data + FZ_PK) == 0 &&
	    memcmp(fuzz_ca.pk, data + FZ_PK, BS_PK_LEN) == 0)
		abort();
	(void)bs_link_mac_verify(data + FZ_SIG, data + FZ_PK, data + FZ_SIG +
	    BS_TAG_LEN, bs_get64(data + FZ_SIG + BS_TAG_LEN + BS_ADDR_LEN),
	    data + FZ_MSG, size - FZ_MSG);
	(void)bs_chain_verify(data + FZ_SIG, data + FZ_SIG + BS_CHAIN_LEN,
	    data[0]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;

	if (!ready) {
		if (bs_crypto_init() != 0 ||
		    bs_identity_from_seed(&fuzz_ca, fuzz_anchor_seed) != 0)
			abort();
		ready = 1;
	}
	fuzz_cert(data, size);
	fuzz_revoke(data, size);
	fuzz_sig(data, size);
	return 0;
}
