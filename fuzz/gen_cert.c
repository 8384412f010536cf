/*
 * gen_cert.c — writes the seed corpus of fuzz_cert into the directory named
 * by argv[1], each file named by (the first 20 bytes of) its SHA-256.
 * Deterministic: fixed keys, and Ed25519 signatures are deterministic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "lib/t_ident.h"
#include "lib/t_seed.h"

static void
gen_cert(const struct bs_identity *ca, const uint8_t *node, const char *name,
    uint8_t roles, uint64_t nb, uint64_t na, int version)
{
	struct bs_cert c;
	uint8_t enc[BS_CERT_LEN];

	if (bs_cert_issue(&c, ca, node, name, roles, nb, na) != 0)
		exit(1);
	bs_cert_encode(enc, &c);
	if (version >= 0)
		enc[0] = (uint8_t)version;
	t_seed_write(enc, sizeof(enc));
}

static void
gen_revoke(const struct bs_identity *ca, const uint8_t *pk, uint64_t at)
{
	struct bs_revoke r;
	uint8_t enc[BS_REVOKE_LEN];

	if (bs_revoke_issue(&r, ca, pk, at) != 0)
		exit(1);
	bs_revoke_encode(enc, &r);
	t_seed_write(enc, sizeof(enc));
}

/* [domain][signature][public key][message], as fuzz_cert reads it. */
static void
gen_sig(const struct bs_identity *id, uint8_t dom, const char *msg)
{
	uint8_t buf[1 + BS_SIG_LEN + BS_PK_LEN + 64];
	size_t n = strlen(msg);

	buf[0] = dom;
	if (bs_sign(buf + 1, (enum bs_domain)dom, (const uint8_t *)msg, n,
	    id) != 0)
		memset(buf + 1, 0, BS_SIG_LEN);
	memcpy(buf + 1 + BS_SIG_LEN, id->pk, BS_PK_LEN);
	memcpy(buf + 1 + BS_SIG_LEN + BS_PK_LEN, msg, n);
	t_seed_write(buf, 1 + BS_SIG_LEN + BS_PK_LEN + n);
}

/* A valid MAC and a valid hop chain in fuzz_cert's layout. */
static void
gen_link(void)
{
	static const char frame[] = "batsec fuzz frame";
	uint8_t buf[1 + BS_SIG_LEN + BS_PK_LEN + sizeof(frame) - 1];
	uint8_t *key = buf + 1 + BS_SIG_LEN;
	uint8_t seed[BS_CHAIN_LEN];
	unsigned hops = 3;

	memset(buf, 0x11, sizeof(buf));
	memcpy(buf + 1 + BS_SIG_LEN + BS_PK_LEN, frame, sizeof(frame) - 1);
	bs_put64(buf + 1 + BS_TAG_LEN + BS_ADDR_LEN, 42);
	bs_link_mac(buf + 1, key, buf + 1 + BS_TAG_LEN, 42,
	    buf + 1 + BS_SIG_LEN + BS_PK_LEN, sizeof(frame) - 1);
	t_seed_write(buf, sizeof(buf));

	memset(seed, 0x22, sizeof(seed));
	buf[0] = (uint8_t)hops;
	(void)bs_chain_iter(buf + 1, seed, BS_MAXHOPS);
	(void)bs_chain_iter(buf + 1 + BS_CHAIN_LEN, seed, hops);
	t_seed_write(buf, sizeof(buf));
}

int
main(int argc, char **argv)
{
	struct bs_identity ca, node;
	uint8_t ca_seed[BS_SEED_LEN];
	uint8_t low_order[1 + BS_SIG_LEN + BS_PK_LEN + 4];
	uint8_t d;

	t_seed_main(argc, argv, "gen_cert", T_SEED_SHA256);
	/* The CA is RFC 8032 TEST 1, as fuzz_cert.c expects. */
	if (sodium_hex2bin(ca_seed, sizeof(ca_seed), "9d61b19deffd5a60ba844af4"
	    "92ec2cc44449c5697b326919703bac031cae7f60", 64, NULL, NULL,
	    NULL) != 0 || bs_identity_from_seed(&ca, ca_seed) != 0)
		return 1;
	t_ident(&node, 0x42);
	gen_cert(&ca, node.pk, "node-1.example", BS_ROLE_GATEWAY, 1700000000,
	    1800000000, -1);
	gen_cert(&ca, node.pk, "", 0, 1, 2, -1);
	gen_cert(&ca, node.pk, "abcdefghijklmnopqrstuvwxyz012345", 0, 0,
	    UINT64_MAX, -1);
	gen_cert(&ca, ca.pk, "ca", BS_ROLE_GATEWAY, 1700000000, 1700000001, -1);
	gen_cert(&ca, node.pk, "old-version", 0, 1, 2, 2);
	gen_revoke(&ca, node.pk, 1750000000);
	gen_revoke(&ca, ca.pk, 0);
	for (d = 0; d <= 6; d++)
		gen_sig(&node, d, "batsec fuzz seed");
	gen_sig(&ca, BS_DOM_OGM, "");
	memset(low_order, 0, sizeof(low_order));
	low_order[0] = BS_DOM_HELLO;
	t_seed_write(low_order, sizeof(low_order));
	gen_link();
	return 0;
}
