/*
 * data.c — keys, tags, sealing and replay windows of the version-2 data
 * frames (see batsec_crypto.h and batsec-protocol(7)).
 */
#include <string.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "bs_bytes.h"

static const char root_kdf_prefix[] = "batsec-link-v2";
static const char hop_kdf_prefix[] = "batsec2-hop";
static const char ogm_kdf_prefix[] = "batsec-ogm-link";
static const char hop_keyid_msg[] = "batsec2-hopid";
static const char e2e_kdf_prefix[] = "batsec2-e2e";
static const char e2e_aes_kdf_prefix[] = "batsec2-e2e-aes";

#define ROOT_PREFIX_LEN	(sizeof(root_kdf_prefix) - 1)
#define HOP_PREFIX_LEN	(sizeof(hop_kdf_prefix) - 1)
#define OGM_PREFIX_LEN	(sizeof(ogm_kdf_prefix) - 1)
#define E2E_PREFIX_LEN	(sizeof(e2e_kdf_prefix) - 1)
#define E2E_AES_PREFIX_LEN	(sizeof(e2e_aes_kdf_prefix) - 1)

_Static_assert(crypto_shorthash_siphash24_KEYBYTES == BS_HOPKEY_LEN,
    "SipHash key");
_Static_assert(crypto_shorthash_siphash24_BYTES == BS_HOPTAG_LEN,
    "SipHash tag");
_Static_assert(crypto_aead_chacha20poly1305_ietf_KEYBYTES == BS_E2EKEY_LEN,
    "AEAD key");
_Static_assert(crypto_aead_chacha20poly1305_ietf_ABYTES == BS_AEAD_TAG_LEN,
    "AEAD tag");
_Static_assert(crypto_aead_chacha20poly1305_ietf_NPUBBYTES == 12, "nonce");
_Static_assert(crypto_aead_aes256gcm_KEYBYTES == BS_E2EKEY_LEN, "AES key");
_Static_assert(crypto_aead_aes256gcm_ABYTES == BS_AEAD_TAG_LEN, "AES tag");
_Static_assert(crypto_aead_aes256gcm_NPUBBYTES == 12, "AES nonce");

void
bs_link_root(uint8_t root[static BS_LINKROOT_LEN],
    const uint8_t link_key[static BS_LINKKEY_LEN],
    const struct bs_hop_end *a, const struct bs_hop_end *b)
{
	uint8_t msg[ROOT_PREFIX_LEN + 2 * BS_ADDR_LEN + 8 +
	    2 * BS_LINKSALT_LEN];
	const struct bs_hop_end *lo = a, *hi = b;
	size_t o = ROOT_PREFIX_LEN;
	int order = memcmp(a->mac, b->mac, BS_ADDR_LEN);

	if (order == 0)
		order = memcmp(a->pk, b->pk, BS_PK_LEN);
	if (order > 0) {
		lo = b;
		hi = a;
	}
	memcpy(msg, root_kdf_prefix, ROOT_PREFIX_LEN);
	memcpy(msg + o, lo->mac, BS_ADDR_LEN);
	o += BS_ADDR_LEN;
	memcpy(msg + o, hi->mac, BS_ADDR_LEN);
	o += BS_ADDR_LEN;
	bs_put32(msg + o, lo->epoch);
	bs_put32(msg + o + 4, hi->epoch);
	o += 8;
	memcpy(msg + o, lo->salt, BS_LINKSALT_LEN);
	memcpy(msg + o + BS_LINKSALT_LEN, hi->salt, BS_LINKSALT_LEN);
	crypto_generichash(root, BS_LINKROOT_LEN, msg, sizeof(msg), link_key,
	    BS_LINKKEY_LEN);
	sodium_memzero(msg, sizeof(msg));
}

void
bs_hop_key(uint8_t h[static BS_HOPKEY_LEN],
    const uint8_t root[static BS_LINKROOT_LEN])
{
	crypto_generichash(h, BS_HOPKEY_LEN, (const unsigned char *)
	    hop_kdf_prefix, HOP_PREFIX_LEN, root, BS_LINKROOT_LEN);
}

void
bs_ogm_key(uint8_t k[static BS_LINKKEY_LEN],
    const uint8_t root[static BS_LINKROOT_LEN])
{
	crypto_generichash(k, BS_LINKKEY_LEN, (const unsigned char *)
	    ogm_kdf_prefix, OGM_PREFIX_LEN, root, BS_LINKROOT_LEN);
}

void
bs_hop_keyid(uint8_t id[static BS_KEYID_LEN],
    const uint8_t h[static BS_HOPKEY_LEN])
{
	uint8_t d[crypto_generichash_BYTES];

	crypto_generichash(d, sizeof(d), (const unsigned char *)hop_keyid_msg,
	    sizeof(hop_keyid_msg) - 1, h, BS_HOPKEY_LEN);
	memcpy(id, d, BS_KEYID_LEN);
}

void
bs_hop_tag(uint8_t tag[static BS_HOPTAG_LEN],
    const uint8_t h[static BS_HOPKEY_LEN], const uint8_t *msg, size_t len)
{
	crypto_shorthash_siphash24(tag, msg, len, h);
}

int
bs_hop_tag_verify(const uint8_t tag[static BS_HOPTAG_LEN],
    const uint8_t h[static BS_HOPKEY_LEN], const uint8_t *msg, size_t len)
{
	uint8_t want[BS_HOPTAG_LEN];

	crypto_shorthash_siphash24(want, msg, len, h);
	return sodium_memcmp(want, tag, BS_HOPTAG_LEN) == 0 ? 0 : -1;
}

int
bs_aead_available(enum bs_aead aead)
{
	if (aead == BS_AEAD_CHACHA20)
		return 1;
	return aead == BS_AEAD_AES256GCM &&
	    crypto_aead_aes256gcm_is_available() != 0;
}

void
bs_e2e_key(uint8_t k[static BS_E2EKEY_LEN], enum bs_aead aead,
    const uint8_t link_key[static BS_LINKKEY_LEN],
    const uint8_t src_pk[static BS_PK_LEN],
    const uint8_t dst_pk[static BS_PK_LEN], uint32_t src_epoch,
    uint32_t dst_epoch)
{
	uint8_t msg[E2E_AES_PREFIX_LEN + 2 * BS_PK_LEN + 8];
	size_t n = aead == BS_AEAD_AES256GCM ? E2E_AES_PREFIX_LEN :
	    E2E_PREFIX_LEN;

	memcpy(msg, aead == BS_AEAD_AES256GCM ? e2e_aes_kdf_prefix :
	    e2e_kdf_prefix, n);
	memcpy(msg + n, src_pk, BS_PK_LEN);
	memcpy(msg + n + BS_PK_LEN, dst_pk, BS_PK_LEN);
	bs_put32(msg + n + 2 * BS_PK_LEN, src_epoch);
	bs_put32(msg + n + 2 * BS_PK_LEN + 4, dst_epoch);
	crypto_generichash(k, BS_E2EKEY_LEN, msg, n + 2 * BS_PK_LEN + 8,
	    link_key, BS_LINKKEY_LEN);
}

static void
aead_nonce(uint8_t n[static 12], uint64_t counter)
{
	memset(n, 0, 4);
	bs_put64(n + 4, counter);
}

int
bs_aead_seal(uint8_t *c, uint8_t tag[static BS_AEAD_TAG_LEN],
    enum bs_aead aead, const uint8_t k[static BS_E2EKEY_LEN],
    uint64_t counter, const uint8_t *ad, size_t adlen, const uint8_t *m,
    size_t len)
{
	uint8_t n[12];

	aead_nonce(n, counter);
	if (aead == BS_AEAD_CHACHA20)
		return crypto_aead_chacha20poly1305_ietf_encrypt_detached(c,
		    tag, NULL, m, len, ad, adlen, NULL, n, k) == 0 ? 0 : -1;
	if (bs_aead_available(aead) &&
	    crypto_aead_aes256gcm_encrypt_detached(c, tag, NULL, m, len, ad,
	    adlen, NULL, n, k) == 0)
		return 0;
	memset(c, 0, len);
	memset(tag, 0, BS_AEAD_TAG_LEN);
	return -1;
}

int
bs_aead_open(uint8_t *m, enum bs_aead aead,
    const uint8_t k[static BS_E2EKEY_LEN], uint64_t counter,
    const uint8_t *ad, size_t adlen, const uint8_t *c, size_t len,
    const uint8_t tag[static BS_AEAD_TAG_LEN])
{
	uint8_t n[12];

	aead_nonce(n, counter);
	if (aead == BS_AEAD_CHACHA20)
		return crypto_aead_chacha20poly1305_ietf_decrypt_detached(m,
		    NULL, c, len, tag, ad, adlen, n, k) == 0 ? 0 : -1;
	if (bs_aead_available(aead) &&
	    crypto_aead_aes256gcm_decrypt_detached(m, NULL, c, len, tag, ad,
	    adlen, n, k) == 0)
		return 0;
	memset(m, 0, len);
	return -1;
}

/* ---- replay windows ------------------------------------------------------- */


int
bs_replay_fresh(const struct bs_replay *w, uint64_t counter)
{
	uint64_t bit;

	if (counter == UINT64_MAX)
		return 0;		/* top would wrap */
	if (counter >= w->top)
		return 1;
	if (w->top - counter > BS_REPLAY_BITS)
		return 0;
	bit = counter % BS_REPLAY_BITS;
	return !(w->bits[bit / 64] & ((uint64_t)1 << (bit % 64)));
}

void
bs_replay_mark(struct bs_replay *w, uint64_t counter)
{
	uint64_t c, bit;

	if (!bs_replay_fresh(w, counter))
		return;
	if (counter >= w->top) {
		/* Clear the slots between the old top and the new one. */
		if (counter - w->top >= BS_REPLAY_BITS)
			memset(w->bits, 0, sizeof(w->bits));
		else
			for (c = w->top; c < counter; c++) {
				bit = c % BS_REPLAY_BITS;
				w->bits[bit / 64] &= ~((uint64_t)1 << (bit % 64));
			}
		w->top = counter + 1;
	}
	bit = counter % BS_REPLAY_BITS;
	w->bits[bit / 64] |= (uint64_t)1 << (bit % 64);
}
