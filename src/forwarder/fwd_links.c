/*
 * fwd_links.c — link salts and the keys of each neighbour link
 * (fwd_links.h).
 */
#include <string.h>

#include <sodium.h>

#include "fwd_links.h"

void
fwd_links_init(struct fwd_links *L, const struct bs_identity *id,
    uint32_t epoch)
{
	memset(L, 0, sizeof(*L));
	L->id = id;
	L->epoch = epoch;
	fwd_links_config(L, FWD_REKEY_DEFAULT_MS, 1000);
}

void
fwd_links_config(struct fwd_links *L, uint64_t rekey_ms, uint64_t hello_ms)
{
	if (rekey_ms < FWD_REKEY_MIN_MS)
		rekey_ms = FWD_REKEY_MIN_MS;
	if (rekey_ms > FWD_REKEY_MAX_MS)
		rekey_ms = FWD_REKEY_MAX_MS;
	L->rekey_ms = rekey_ms;
	L->tx_delay_ms = FWD_TX_DELAY_HELLOS * hello_ms;
	L->grace_ms = FWD_GRACE_HELLOS * hello_ms;
	if (L->grace_ms < FWD_GRACE_MIN_MS)
		L->grace_ms = FWD_GRACE_MIN_MS;
}

/* ---- our salts ------------------------------------------------------------------ */

static void
fwd_salt_new(struct fwd_links *L, struct fwd_link_salt *s, uint64_t now_ms)
{
	uint8_t old[BS_LINKSALT_LEN];

	memcpy(old, s->salt, sizeof(old));
	do
		randombytes_buf(s->salt, sizeof(s->salt));
	while (sodium_is_zero(s->salt, sizeof(s->salt)) ||
	    memcmp(s->salt, old, sizeof(old)) == 0);
	/* The first salt of an interface is no rotation: no old keys. */
	s->tx_new_ms = s->gen == 0 ? now_ms : now_ms + L->tx_delay_ms;
	s->made_ms = now_ms;
	if (s->gen != 0)
		L->rotations++;
	s->gen++;
	sodium_memzero(old, sizeof(old));
}

static struct fwd_link_salt *
fwd_salt_find(struct fwd_links *L, uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < FWD_LINKS_IF_MAX; i++)
		if (L->s[i].ifindex == ifindex)
			return &L->s[i];
	return NULL;
}

/* Our salt on ifindex, made on first use and, when may_rotate, anew. */
static struct fwd_link_salt *
fwd_salt_get(struct fwd_links *L, uint32_t ifindex, uint64_t now_ms,
    int may_rotate, int *rotated)
{
	struct fwd_link_salt *s;

	if (ifindex == 0)
		return NULL;
	if ((s = fwd_salt_find(L, ifindex)) == NULL) {
		if ((s = fwd_salt_find(L, 0)) == NULL)
			return NULL;
		memset(s, 0, sizeof(*s));
		s->ifindex = ifindex;
		fwd_salt_new(L, s, now_ms);
		return s;
	}
	if (may_rotate && (now_ms < s->made_ms ||
	    now_ms - s->made_ms >= L->rekey_ms)) {
		fwd_salt_new(L, s, now_ms);
		*rotated = 1;
	}
	return s;
}

const struct fwd_link_salt *
fwd_links_salt(struct fwd_links *L, uint32_t ifindex, uint64_t now_ms,
    int *rotated)
{
	int r = 0;
	const struct fwd_link_salt *s = fwd_salt_get(L, ifindex, now_ms, 1,
	    &r);

	if (rotated != NULL)
		*rotated = r;
	return s;
}

const struct fwd_link_salt *
fwd_links_own_salt(struct fwd_links *L, uint32_t ifindex, uint64_t now_ms)
{
	return fwd_salt_get(L, ifindex, now_ms, 0, NULL);
}

void
fwd_links_rotate_all(struct fwd_links *L, uint64_t now_ms)
{
	size_t i;

	for (i = 0; i < FWD_LINKS_IF_MAX; i++)
		if (L->s[i].ifindex != 0)
			fwd_salt_new(L, &L->s[i], now_ms);
}

void
fwd_links_iface_gone(struct fwd_links *L, uint32_t ifindex)
{
	struct fwd_link_salt *s;

	if (ifindex != 0 && (s = fwd_salt_find(L, ifindex)) != NULL)
		sodium_memzero(s, sizeof(*s));
}

/* ---- a neighbour's keys ------------------------------------------------------------ */

/* 1 when slot h holds the key of these MACs, epoch and salts. */
static int
fwd_hop_is(const struct fwd_hop *h, const struct fwd_neigh *n,
    const uint8_t *ifmac, const uint8_t *own_salt)
{
	return h->has_key && h->peer_epoch == n->epoch &&
	    memcmp(h->peer_mac, n->mac, BS_ADDR_LEN) == 0 &&
	    memcmp(h->own_mac, ifmac, BS_ADDR_LEN) == 0 &&
	    memcmp(h->peer_salt, n->salt, BS_LINKSALT_LEN) == 0 &&
	    memcmp(h->own_salt, own_salt, BS_LINKSALT_LEN) == 0;
}

/* 1 when slot h is for n's current MACs and epoch (any salts). */
static int
fwd_hop_same_link(const struct fwd_hop *h, const struct fwd_neigh *n,
    const uint8_t *ifmac)
{
	return h->has_key && h->peer_epoch == n->epoch &&
	    memcmp(h->peer_mac, n->mac, BS_ADDR_LEN) == 0 &&
	    memcmp(h->own_mac, ifmac, BS_ADDR_LEN) == 0;
}

/*
 * Derive the key of (ifmac, our epoch, own_salt) -- n's into h.  A slot
 * without a key keeps its replay windows: those the table kept for a
 * neighbour that went and came back (fwd_tables.c).
 */
static int
fwd_hop_make(struct fwd_links *L, struct fwd_hop *h,
    const struct fwd_neigh *n, const uint8_t *ifmac, const uint8_t *own_salt)
{
	uint8_t lk[BS_LINKKEY_LEN], root[BS_LINKROOT_LEN];
	struct bs_replay rx[FWD_HOP_LANES];
	struct bs_hop_end a, b;
	int keep = !h->has_key;

	if (keep)
		memcpy(rx, h->rx, sizeof(rx));
	sodium_memzero(h, sizeof(*h));
	if (keep)
		memcpy(h->rx, rx, sizeof(rx));
	if (L->id == NULL || bs_link_key(lk, L->id, n->pk) != 0) {
		sodium_memzero(lk, sizeof(lk));
		L->keys_refused++;
		return 0;
	}
	a.pk = L->id->pk;
	a.mac = ifmac;
	a.epoch = L->epoch;
	a.salt = own_salt;
	b.pk = n->pk;
	b.mac = n->mac;
	b.epoch = n->epoch;
	b.salt = n->salt;
	bs_link_root(root, lk, &a, &b);
	bs_hop_key(h->key, root);
	bs_hop_keyid(h->keyid, h->key);
	bs_ogm_key(h->ogm_key, root);
	bs_link_keyid(h->ogm_keyid, h->ogm_key);
	sodium_memzero(lk, sizeof(lk));
	sodium_memzero(root, sizeof(root));
	h->peer_epoch = n->epoch;
	memcpy(h->own_salt, own_salt, BS_LINKSALT_LEN);
	memcpy(h->peer_salt, n->salt, BS_LINKSALT_LEN);
	memcpy(h->own_mac, ifmac, BS_ADDR_LEN);
	memcpy(h->peer_mac, n->mac, BS_ADDR_LEN);
	h->has_key = 1;
	L->keys_made++;
	return 1;
}

/*
 * An old key in alt (one in its grace period) moves to the third slot
 * before alt is taken: rotations of both ends close together must not
 * cut short the grace of a key the neighbour may still send under (its
 * in-kernel relay, for one, learns of a new key a little later).
 */
static void
fwd_hop_park(struct fwd_neigh *n)
{
	if (!n->alt.has_key || n->alt_until_ms == 0)
		return;
	n->old = n->alt;
	n->old_until_ms = n->alt_until_ms;
	sodium_memzero(&n->alt, sizeof(n->alt));
}

/* alt becomes the old key hop was, accepted for the grace period. */
static void
fwd_hop_retire(struct fwd_links *L, struct fwd_neigh *n, uint64_t now_ms)
{
	struct fwd_hop tmp;

	fwd_hop_park(n);
	tmp = n->alt;
	n->alt = n->hop;
	n->hop = tmp;
	n->alt_until_ms = now_ms + L->grace_ms;
	sodium_memzero(&tmp, sizeof(tmp));
}

int
fwd_links_ready(struct fwd_links *L, struct fwd_neigh *n,
    const uint8_t ifmac[static BS_ADDR_LEN], uint64_t now_ms)
{
	const struct fwd_link_salt *s;

	if ((s = fwd_salt_get(L, n->ifindex, now_ms, 0, NULL)) == NULL)
		return n->hop.has_key;
	/* An old key past its grace, or of another MAC or epoch, goes. */
	if (n->alt.has_key && (!fwd_hop_same_link(&n->alt, n, ifmac) ||
	    (n->alt_until_ms != 0 && now_ms >= n->alt_until_ms)))
		sodium_memzero(&n->alt, sizeof(n->alt));
	if (n->old.has_key && (!fwd_hop_same_link(&n->old, n, ifmac) ||
	    now_ms >= n->old_until_ms))
		sodium_memzero(&n->old, sizeof(n->old));
	if (n->hop.has_key && !fwd_hop_same_link(&n->hop, n, ifmac))
		sodium_memzero(&n->hop, sizeof(n->hop));
	if (fwd_hop_is(&n->hop, n, ifmac, s->salt))
		return 1;
	if (fwd_hop_is(&n->alt, n, ifmac, s->salt)) {
		/* Our own rotation: send under the new key once due. */
		if (now_ms >= s->tx_new_ms)
			fwd_hop_retire(L, n, now_ms);
		return 1;
	}
	if (n->hop.has_key && now_ms < s->tx_new_ms &&
	    memcmp(n->hop.peer_salt, n->salt, BS_LINKSALT_LEN) == 0) {
		/*
		 * We made a new salt and the neighbour has not moved: accept
		 * the new key at once, keep sending under the old one until
		 * our HELLOs have told the neighbour.
		 */
		fwd_hop_park(n);
		if (!fwd_hop_make(L, &n->alt, n, ifmac, s->salt))
			return 1;
		n->alt_until_ms = 0;
		return 1;
	}
	/*
	 * A first key, or the neighbour's new salt: send under it at once.
	 * Of the old keys, the one the neighbour used last stays for the
	 * grace period (both ends rotating at once: it may already be on
	 * the key of our new salt and its old one).
	 */
	if (n->alt.has_key && n->alt_until_ms == 0)
		n->alt_until_ms = now_ms + L->grace_ms;	/* no longer due */
	if (n->alt.has_key && n->alt.used_ms > n->hop.used_ms) {
		/* hop goes to the third slot, alt stays for the grace. */
		n->old = n->hop;
		n->old_until_ms = now_ms + L->grace_ms;
		sodium_memzero(&n->hop, sizeof(n->hop));
		n->alt_until_ms = now_ms + L->grace_ms;
	} else if (n->hop.has_key)
		fwd_hop_retire(L, n, now_ms);
	return fwd_hop_make(L, &n->hop, n, ifmac, s->salt);
}

struct fwd_hop *
fwd_links_rx(struct fwd_neigh *n, const uint8_t keyid[static BS_KEYID_LEN],
    uint64_t now_ms)
{
	if (n->hop.has_key &&
	    sodium_memcmp(keyid, n->hop.keyid, BS_KEYID_LEN) == 0)
		return &n->hop;
	if (n->alt.has_key &&
	    (n->alt_until_ms == 0 || now_ms < n->alt_until_ms) &&
	    sodium_memcmp(keyid, n->alt.keyid, BS_KEYID_LEN) == 0)
		return &n->alt;
	if (n->old.has_key && now_ms < n->old_until_ms &&
	    sodium_memcmp(keyid, n->old.keyid, BS_KEYID_LEN) == 0)
		return &n->old;
	return NULL;
}

int
fwd_links_ogm_key(struct fwd_links *L, struct fwd_neigh *n,
    const uint8_t ifmac[static BS_ADDR_LEN], uint64_t now_ms,
    uint8_t key[static BS_LINKKEY_LEN], uint8_t key_id[static BS_KEYID_LEN])
{
	const struct fwd_hop *h = &n->hop;

	if (!fwd_links_ready(L, n, ifmac, now_ms))
		return -1;
	/* The newest: alt while our own rotation waits to send under it. */
	if (n->alt.has_key && n->alt_until_ms == 0)
		h = &n->alt;
	memcpy(key, h->ogm_key, BS_LINKKEY_LEN);
	memcpy(key_id, h->ogm_keyid, BS_KEYID_LEN);
	return 0;
}
