/*
 * fwd_announce.c — what the forwarder announces on its mesh interfaces
 * (see fwd_announce.h): HELLOs, its own OGM and the entries it relays,
 * built by fwd_orig.c and sent here on their timers.
 */
#include <errno.h>
#include <string.h>

#include <sodium.h>

#include "common/config.h"
#include "common/log.h"
#include "fwd_announce.h"
#include "fwd_data.h"
#include "fwd_iface.h"
#include "fwd_links.h"
#include "fwd_parser.h"
#include "fwd_orig.h"
#include "fwd_tables.h"
#include "fwd_trust.h"
#include "fwd_ttpage.h"
#include "fwd_types.h"
#include "netio/rawsock.h"

static const uint8_t fwd_bcast_mac[BS_ADDR_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

/* ---- sending ------------------------------------------------------------------ */

/* Where an aggregate's frames go: one mesh interface. */
struct fwd_tx {
	struct fwd *f;
	struct fwd_iface *v;
};

/* One HELLO or OGM frame to everyone on v's link: 0, or -1 (counted). */
static int
fwd_announce_send(struct fwd *f, struct fwd_iface *v, const uint8_t *frame,
    size_t len)
{
	if (rawsock_send(&v->rs, fwd_bcast_mac, frame, len) == 0)
		return 0;
	v->tx_errors++;
	f->orig.c.send_errors++;
	if (errno != EAGAIN && errno != ENETDOWN && errno != ENXIO)
		log_rl(&f->ifs.err_rl, LOG_WARNING, "mesh interface %s: "
		    "sending a control frame: %s", v->name, strerror(errno));
	return -1;
}

static int
fwd_announce_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct fwd_tx *tx = arg;

	if (fwd_announce_send(tx->f, tx->v, frame, len) != 0)
		return -1;
	tx->v->tx_ogm++;
	return 0;
}

/* Keys of the neighbours a frame on v is tagged for (more: signature). */
static size_t
fwd_announce_keys(struct fwd *f, const struct fwd_iface *v,
    struct fwd_tagkey *keys)
{
	if (f->tables == NULL || f->data == NULL)
		return 0;
	return fwd_orig_tagkeys(f->tables, &f->data->links,
	    (uint32_t)v->ifindex, v->rs.mac, log_now_ms(), keys, WIRE_MAX_TAGS,
	    &f->orig.c);
}

/* An interface whose MTU netlink did not tell: assume Ethernet's. */
#define FWD_MTU_DEFAULT	1500

/*
 * The OGM frames of interface v: the own entry (when own is set) and the
 * waiting relay entries meant for it.
 */
static void
fwd_announce_ogms(struct fwd *f, struct fwd_iface *v, int own)
{
	static struct fwd_agg a;	/* 4 KiB of frame: not on the stack */
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	const struct fwd_relay_ent *e;
	struct fwd_tx tx = { f, v };
	size_t nkeys, i;

	nkeys = fwd_announce_keys(f, v, keys);
	fwd_agg_begin(&a, &f->orig, keys, nkeys,
	    v->mtu > 0 ? v->mtu : FWD_MTU_DEFAULT, fwd_announce_tx, &tx);
	if (own && f->orig.own_len > 0)
		(void)fwd_agg_add(&a, f->orig.own, f->orig.own_len);
	for (i = 0; i < f->orig.rq.n; i++) {
		e = fwd_relayq_at(&f->orig.rq, i);
		if (e->ifindex != IPC_IFINDEX_ALL &&
		    e->ifindex != (uint32_t)v->ifindex)
			continue;
		if (fwd_relay_back_only(f->tables, (uint32_t)v->ifindex,
		    e->entry, e->len)) {
			f->orig.c.relay_not_back++;
			continue;
		}
		if (fwd_agg_add(&a, e->entry, e->len) == WIRE_OK)
			f->orig.c.relay_sent++;
	}
	(void)fwd_agg_end(&a);
}

/* Relay entries whose interface is not usable now are lost: counted. */
static void
fwd_announce_lost(struct fwd *f)
{
	const struct fwd_relay_ent *e;
	int any = fwd_iface_any_usable(&f->ifs);
	size_t i;

	for (i = 0; i < f->orig.rq.n; i++) {
		e = fwd_relayq_at(&f->orig.rq, i);
		if (e->ifindex == IPC_IFINDEX_ALL) {
			if (!any)
				f->orig.c.relay_drop_iface++;
			continue;
		}
		if (fwd_iface_usable_by_index(&f->ifs, e->ifindex) == NULL)
			f->orig.c.relay_drop_iface++;
	}
}

/* Send own OGM (when own) and every waiting relay entry; empty the queue. */
static void
fwd_announce_flush(struct fwd *f, int own)
{
	size_t i;

	fwd_announce_lost(f);
	for (i = 0; i < f->ifs.n; i++)
		if (fwd_iface_usable(&f->ifs.v[i]))
			fwd_announce_ogms(f, &f->ifs.v[i], own);
	fwd_relayq_clear(&f->orig.rq);
}

/* Our own OGM: new seqno, signed, out with the waiting relays. */
static void
fwd_announce_ogm(struct fwd *f)
{
	static struct wire_tt_entry tt[FWD_LTT_MAX];
	uint8_t extra[WIRE_TVLV_MAX];
	unsigned ntt = 0;
	uint32_t down = 0, up = 0;
	uint64_t version = 0;
	size_t room, elen = 0, plen, trlen;
	uint8_t desc[16];
	int r, paged = 0;

	if (!fwd_iface_any_usable(&f->ifs)) {
		fwd_announce_flush(f, 0);
		return;
	}
	if (f->tables != NULL)
		ntt = fwd_local_tt(f->tables, tt, FWD_LTT_MAX, &version);
	if (f->cfg.gw_mode == BS_GW_SERVER) {
		down = f->cfg.gw_down;
		up = f->cfg.gw_up;
	}
	room = WIRE_TVLV_MAX - (down > 0 && up > 0 ? WIRE_TVLV_HDR_LEN +
	    WIRE_GW_LEN : 0);
	/* More clients than one TT holds: one page of them (fwd_ttpage.h). */
	if (ntt > WIRE_TT_MAX) {
		paged = 1;
		if ((r = fwd_ttpage_put(&f->ttpage, tt, ntt, version, extra,
		    room, &elen)) != WIRE_OK)
			log_rl(&f->rx_rl, LOG_WARNING, "TT page not built: %s",
			    wire_strerror(r));
		ntt = 0;
	} else {
		if (f->ttpage.built)
			fwd_ttpage_reset(&f->ttpage);
		if (ntt > 0)
			room -= WIRE_TVLV_HDR_LEN +
			    (size_t)ntt * WIRE_TT_ENTRY_LEN;
	}
	/* What TT and GATEWAY leave of the TVLV room goes to fwd_trust. */
	plen = elen;
	trlen = fwd_trust_ogm_tvlvs(f, extra + elen, room - elen);
	elen += trlen;
	/* Multicast listeners in what is left (fwd_mcast.h: without room,
	 * the others flood our groups to us, as for an unknown node). */
	if (f->data != NULL)
		(void)fwd_mcast_put(&f->data->mcast, extra, room, &elen,
		    f->tables != NULL && fwd_local_count(f->tables) > 1,
		    log_now_ms());
	/*
	 * Full (signed, with the TVLVs) or compact (batsec-protocol(7), "OGM
	 * CHAIN"): a certificate, revocation or page always goes full.
	 */
	fwd_ogm_desc_digest(desc, tt, ntt, down, up, extra, plen,
	    extra + plen + trlen, elen - plen - trlen);
	if (fwd_ogm_full_due(&f->orig, desc, paged || trlen > 0))
		r = fwd_ogm_originate_ext(&f->orig, tt, ntt, down, up, extra,
		    elen);
	else
		r = fwd_ogm_originate_compact(&f->orig);
	if (r != WIRE_OK)
		log_rl(&f->rx_rl, LOG_WARNING, "own OGM not built: %s",
		    wire_strerror(r));
	fwd_announce_flush(f, 1);
}

/*
 * The keys of v's neighbours brought up to date (fwd_links_ready: our
 * sending switches to the new key when due, old keys go after their
 * grace); after a new salt of ours, the parser gets the new OGM key of
 * each at once, so that it accepts it as soon as the neighbour uses it.
 */
static void
fwd_announce_links(struct fwd *f, struct fwd_iface *v, int rotated,
    uint64_t now_ms)
{
	struct ipc_link_key k;
	struct fwd_neigh *nb;
	size_t cur = 0;

	while ((nb = fwd_neigh_next(f->tables, (uint32_t)v->ifindex, &cur)) !=
	    NULL) {
		if (!rotated) {
			(void)fwd_links_ready(&f->data->links, nb, v->rs.mac,
			    now_ms);
			continue;
		}
		memset(&k, 0, sizeof(k));
		memcpy(k.peer_pk, nb->pk, BS_PK_LEN);
		k.ifindex = (uint32_t)v->ifindex;
		if (fwd_links_ogm_key(&f->data->links, nb, v->rs.mac, now_ms,
		    k.key, k.key_id) == 0 &&
		    fwd_parser_send(&f->parser, IPC_LINK_KEY, &k,
		    sizeof(k)) != 0)
			log_rl(&f->rx_rl, LOG_WARNING, "%s: new link key not "
			    "sent to the parser", v->name);
		sodium_memzero(&k, sizeof(k));
	}
	f->fast_dirty = 1;
}

/*
 * The neighbours we hear on v, to everyone on v's link: tagged for each
 * of them, or signed (fwd_hello_sign_due).
 */
static void
fwd_announce_hello(struct fwd *f, struct fwd_iface *v)
{
	struct fwd_peer peers[WIRE_HELLO_MAX_NEIGH];
	struct fwd_tagkey keys[WIRE_MAX_TAGS];
	uint8_t buf[WIRE_HELLO_MAX_LEN];
	const uint8_t *want[WIRE_HELLO_MAX_WANT];
	const struct fwd_link_salt *salt;
	uint64_t now_ms = log_now_ms();
	size_t n = 0, len = 0, nkeys;
	int r, rotated = 0, sign;
	unsigned nwant;
	uint8_t fresh;

	if (f->data == NULL || f->tables == NULL ||
	    (salt = fwd_links_salt(&f->data->links, (uint32_t)v->ifindex,
	    now_ms, &rotated)) == NULL)
		return;
	fwd_announce_links(f, v, rotated, now_ms);

	/* A fresh slot continues above every seqno used on any interface,
	 * so a neighbour that heard another of our interfaces never takes
	 * it for an old HELLO. */
	if (v->hello_seqno == 0)
		v->hello_seqno = f->orig.hello_seqno;
	if (f->tables != NULL)
		n = fwd_orig_peers(f->tables, (uint32_t)v->ifindex, peers,
		    WIRE_HELLO_MAX_NEIGH);
	/* For a while after our parser (re)started it knows no full OGM
	 * entries: neighbours hand them on (pcore_desc.h). */
	fresh = (f->parser.spawned_ms != 0 && now_ms >= f->parser.spawned_ms &&
	    now_ms - f->parser.spawned_ms < FWD_FRESH_OGMS *
	    (uint64_t)f->orig.ogm_ms) || now_ms < f->orig.fresh_until_ms ?
	    WIRE_HELLO_F_FRESH : 0;
	nkeys = fwd_announce_keys(f, v, keys);
	nwant = fwd_want_list(&f->orig.want, now_ms, want);
	sign = fwd_hello_sign_due(&v->hsign, n, nkeys);
	r = fwd_hello_build_cert(&f->id, v->rs.mac, f->orig.hello_ms,
	    f->epoch, v->hello_seqno + 1, salt->salt, peers, n,
	    fwd_trust_own_cert(&f->trust), fresh, keys, sign ? 0 : nkeys,
	    want, nwant, buf, sizeof(buf), &len);
	if (r != WIRE_OK) {
		log_rl(&f->rx_rl, LOG_WARNING, "%s: HELLO not built: %s",
		    v->name, wire_strerror(r));
		return;
	}
	v->hello_seqno++;
	if (v->hello_seqno > f->orig.hello_seqno)
		f->orig.hello_seqno = v->hello_seqno;
	if (fwd_announce_send(f, v, buf, len) != 0)
		return;
	v->tx_hello++;
	f->orig.c.hello_sent++;
	if (nwant > 0)
		f->orig.c.want_sent++;
	if (sign)
		f->orig.c.hello_signed++;
}

/* ---- timers ------------------------------------------------------------------------ */

void
fwd_announce_setup(struct fwd *f, uint64_t now_ms)
{
	fwd_orig_init(&f->orig, &f->id, f->epoch,
	    (uint16_t)f->cfg.orig_interval_ms,
	    (uint16_t)f->cfg.hello_interval_ms);
	if (f->data != NULL)
		fwd_links_config(&f->data->links,
		    (uint64_t)f->cfg.link_rekey_s * 1000,
		    f->cfg.hello_interval_ms);
	/* The first OGM after the first HELLOs had a chance to be heard. */
	f->orig.next_ogm_ms = now_ms + fwd_jitter(f->orig.ogm_ms);
}

static uint64_t
fwd_announce_min(uint64_t a, uint64_t b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	return a < b ? a : b;
}

uint64_t
fwd_announce_deadline(const struct fwd *f)
{
	uint64_t at = fwd_announce_min(f->orig.next_ogm_ms,
	    fwd_relayq_deadline(&f->orig.rq));
	size_t i;

	if (f->orig.next_ogm_ms != 0)
		at = fwd_announce_min(at, fwd_bucket_due(&f->orig.ogm_burst));
	for (i = 0; i < f->ifs.n; i++)
		if (fwd_iface_usable(&f->ifs.v[i]))
			at = fwd_announce_min(fwd_announce_min(at,
			    f->ifs.v[i].next_hello_ms > 0 ?
			    f->ifs.v[i].next_hello_ms : 1),
			    fwd_bucket_due(&f->ifs.v[i].hello_burst));
	return at;
}

void
fwd_announce_relay_hold(struct fwd *f, uint64_t now_ms)
{
	fwd_relayq_hold(&f->orig.rq, now_ms + FWD_RELAY_HOLD_OGMS *
	    (uint64_t)f->orig.ogm_ms);
}

void
fwd_announce_burst(struct fwd *f, uint32_t ifindex, int new_neigh,
    uint64_t now_ms)
{
	struct fwd_iface *v = fwd_iface_usable_by_index(&f->ifs, ifindex);

	fwd_announce_relay_hold(f, now_ms);
	if (v == NULL)
		return;
	if (new_neigh) {
		(void)fwd_bucket_want(&v->hello_burst, now_ms, 0);
		/* It holds no link key with us yet. */
		fwd_hello_want_sign(&v->hsign, 1);
		/* It needs our description to take our compact OGMs. */
		fwd_ogm_want_full(&f->orig, 2);
	}
	if (f->orig.next_ogm_ms != 0)
		(void)fwd_bucket_want(&f->orig.ogm_burst, now_ms,
		    FWD_BURST_OGM_DELAY_MS);
}

void
fwd_announce_hello_burst_all(struct fwd *f, uint64_t now_ms)
{
	size_t i;

	for (i = 0; i < f->ifs.n; i++)
		if (fwd_iface_usable(&f->ifs.v[i]))
			(void)fwd_bucket_want(&f->ifs.v[i].hello_burst, now_ms,
			    0);
}

void
fwd_announce_sign(struct fwd *f, uint32_t ifindex)
{
	struct fwd_iface *v = fwd_iface_usable_by_index(&f->ifs, ifindex);

	if (v != NULL)
		fwd_hello_want_sign(&v->hsign, 0);
}

void
fwd_announce_clients(struct fwd *f, uint64_t now_ms)
{
	const struct fwd_tables_counters *tc;
	uint8_t mac[BS_ADDR_LEN];
	uint16_t vid;

	if (f->tables == NULL)
		return;
	tc = fwd_tables_counters(f->tables);
	if (tc->local_learnt != f->ltt_learnt_seen) {
		f->ltt_learnt_seen = tc->local_learnt;
		if (f->orig.next_ogm_ms != 0)
			(void)fwd_bucket_want(&f->orig.ogm_burst, now_ms,
			    FWD_BURST_OGM_DELAY_MS);
	}
	if (tc->local_withdrawn != f->ltt_withdrawn_seen) {
		f->ltt_withdrawn_seen = tc->local_withdrawn;
		fwd_local_last_withdrawn(f->tables, mac, &vid);
		fwd_events_note(&f->events, FWD_EV_CLIENT, "roamed", NULL,
		    "%02x:%02x:%02x:%02x:%02x:%02x vid %u claimed by another "
		    "node: withdrawn (%llu so far)", mac[0], mac[1], mac[2],
		    mac[3], mac[4], mac[5], (unsigned)(vid & WIRE_VID_MASK),
		    (unsigned long long)tc->local_withdrawn);
	}
}

/* A due extra send of bucket b: 1 to send now; a refusal is counted. */
static int
fwd_announce_burst_due(struct fwd *f, struct fwd_bucket *b,
    uint32_t interval_ms, uint64_t now_ms)
{
	switch (fwd_bucket_take(b, interval_ms, now_ms)) {
	case FWD_BURST_SEND:
		return 1;
	case FWD_BURST_REFUSED:
		f->orig.c.burst_refused++;
		return 0;
	default:
		return 0;
	}
}

void
fwd_announce_run(struct fwd *f, uint64_t now_ms)
{
	struct fwd_iface *v;
	size_t i;

	for (i = 0; i < f->ifs.n; i++) {
		v = &f->ifs.v[i];
		if (!fwd_iface_usable(v))
			continue;
		if (fwd_announce_burst_due(f, &v->hello_burst,
		    f->orig.hello_ms, now_ms))
			f->orig.c.burst_hello++;
		else if (v->next_hello_ms > now_ms)
			continue;
		fwd_announce_hello(f, v);
		v->next_hello_ms = now_ms + fwd_jitter(f->orig.hello_ms);
	}
	if (f->orig.next_ogm_ms != 0 && fwd_announce_burst_due(f,
	    &f->orig.ogm_burst, f->orig.ogm_ms, now_ms)) {
		f->orig.c.burst_ogm++;
		fwd_announce_ogm(f);
		f->orig.next_ogm_ms = now_ms + fwd_jitter(f->orig.ogm_ms);
	} else if (f->orig.next_ogm_ms != 0 && f->orig.next_ogm_ms <= now_ms) {
		fwd_announce_ogm(f);
		f->orig.next_ogm_ms = now_ms + fwd_jitter(f->orig.ogm_ms);
	} else if (f->orig.rq.n > 0 &&
	    (fwd_relayq_deadline(&f->orig.rq) <= now_ms ||
	    f->orig.rq.n >= WIRE_OGM_MAX_ENTRIES))
		fwd_announce_flush(f, 0);
}

/* ---- what the parser asks ----------------------------------------------------------- */

int
fwd_announce_relay(struct fwd *f, const struct ipc_relay *r, uint64_t now_ms)
{
	size_t lost;

	if (fwd_relay_entry_ok(r->entry, r->len) != 0)
		return -1;
	/* A frame's worth waits already: out with it before this one, so
	 * that one parser batch (up to 40 entries) cannot overflow it. */
	if (fwd_relayq_deadline(&f->orig.rq) == 1)
		fwd_announce_flush(f, 0);
	lost = fwd_relayq_push(&f->orig.rq, r->ifindex, r->entry, r->len,
	    now_ms);
	f->orig.c.relay_queued++;
	f->orig.c.relay_drop_queue += lost;
	return 0;
}

int
fwd_announce_on_relay(void *arg, const union ipc_payload *u)
{
	return fwd_announce_relay(arg, &u->relay, log_now_ms());
}

int
fwd_announce_link_key(void *arg, const uint8_t peer_pk[static BS_PK_LEN],
    uint32_t ifindex, uint8_t key[static BS_LINKKEY_LEN],
    uint8_t key_id[static BS_KEYID_LEN])
{
	struct fwd *f = arg;
	const struct fwd_iface *v;
	struct fwd_neigh *nb;

	if (f->tables == NULL || f->data == NULL ||
	    (nb = fwd_neigh_find_pk(f->tables, peer_pk, ifindex)) == NULL ||
	    (v = fwd_iface_by_index(&f->ifs, ifindex)) == NULL)
		return -1;
	return fwd_links_ogm_key(&f->data->links, nb, v->rs.mac, log_now_ms(),
	    key, key_id);
}
