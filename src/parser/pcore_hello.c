/*
 * pcore_hello.c — the HELLO pipeline (DESIGN.md §5, pcore.h): the codec,
 * the source and key checks, replays and the epoch memory, then the link
 * tag (a neighbour whose key we hold) or the verification budget and the
 * signature, the key's certificate or pin, then routing_hello() and what
 * the neighbour store tells the forwarder.
 */
#include <string.h>

#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_desc.h"
#include "pcore_drop.h"
#include "pcore_hello.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_neigh.h"
#include "pcore_trust.h"
#include "proto/wire.h"
#include "routing/routing.h"

/* ---- the HELLO pipeline -------------------------------------------------------- */

/* Our entry in the sender's list, or -1 when it does not list us. */
static int
pcore_hello_listed(const struct pcore *pc, const struct wire_hello *h)
{
	unsigned i;

	for (i = 0; i < h->num_neigh; i++)
		if (memcmp(h->neigh[i].addr, pc->cfg.own_addr,
		    BS_ADDR_LEN) == 0)
			return (int)i;
	return -1;
}

/* A HELLO of a known neighbour that is not newer: refused before the
 * signature is looked at. */
static int
pcore_hello_replayed(const struct pcore *pc, uint32_t ifindex,
    const struct wire_hello *h, const uint8_t addr[static BS_ADDR_LEN])
{
	struct routing_neigh_info ni;

	if (routing_neigh_get(pc->rt, ifindex, addr, &ni) != ROUTING_OK ||
	    memcmp(ni.pk, h->pk, BS_PK_LEN) != 0)
		return 0;
	return !routing_newer(h->epoch, h->seqno, ni.epoch, ni.seqno);
}

/*
 * An epoch is the node's, not the interface's: a HELLO from an epoch
 * older than the newest one seen in the key's OGMs is a replay (captured
 * before a restart), also on an interface where the key is no neighbour.
 */
static int
pcore_hello_old_epoch(const struct pcore *pc, const struct wire_hello *h)
{
	struct routing_orig_info oi;

	return routing_orig_get(pc->rt, h->pk, &oi) == ROUTING_OK &&
	    h->epoch < oi.epoch;
}

static enum pcore_drop
pcore_hello_refused(int r)
{
	switch (r) {
	case ROUTING_EOLD:
	case ROUTING_EEPOCH:
		return PCORE_DROP_REPLAY;
	case ROUTING_EFULL:
		return PCORE_DROP_TABLE_FULL;
	case ROUTING_EOWN:
		return PCORE_DROP_OWN;
	default:
		return PCORE_DROP_ROUTING;
	}
}

/*
 * After the HELLO's signature: a certificate that admits the key is
 * verified and kept (pcore_trust.h), and a renewed one is offered.  A
 * stranger is not pinned here: only once it held a route for a while
 * (pcore_lim_pins).
 */
static enum pcore_drop
pcore_hello_trust(struct pcore *pc, const struct wire_hello *h, uint8_t cls,
    const struct pcore_cert_cand *cand)
{
	if (cand != NULL)
		return pcore_trust_accept(pc, cand) == 0 ? PCORE_ACCEPT :
		    PCORE_DROP_POLICY;
	if (cls != BS_CLASS_TRUSTED && h->cert != NULL)
		pcore_trust_offer(pc, h->pk, h->cert);
	return PCORE_ACCEPT;
}

/*
 * IPC_HELLO_SIGN for ifindex (pcore_hello.h), unless one went out less
 * than PCORE_HELLO_SIGN_GAP of our HELLO intervals ago.  Nothing else
 * changes: the HELLO that asks is unauthenticated.
 */
static void
pcore_hello_sign_ask(struct pcore *pc, uint32_t ifindex, uint64_t now_ms)
{
	uint64_t gap = (uint64_t)PCORE_HELLO_SIGN_GAP *
	    (pc->cfg.hello_ms > 0 ? pc->cfg.hello_ms : 1000);
	struct ipc_hello_sign m;
	struct pcore_iface *f;
	int i;

	if (ifindex == 0 || (i = pcore_iface_index(pc, ifindex)) < 0)
		return;
	f = &pc->ifaces[i];
	if (f->sign_ask_ms != 0 && now_ms < f->sign_ask_ms + gap)
		return;
	memset(&m, 0, sizeof(m));
	m.ifindex = ifindex;
	if (pcore_emit(pc, IPC_HELLO_SIGN, &m, sizeof(m)) != 0)
		return;
	/* 0 means "never": a clock at 0 counts as 1 ms. */
	f->sign_ask_ms = now_ms > 0 ? now_ms : 1;
	pcore_count(pc, IPC_STAT_HELLO_SIGN_ASKED);
}

/*
 * A HELLO with link tags: only from a neighbour on that interface whose
 * link key we hold, or one that left lately whose key we kept
 * (pcore_lost_key: it comes back at once); anyone else waits for one of
 * its signed HELLOs.  No signature, so no budget: a forger pays one
 * BLAKE2b for its frame, as for an OGM frame.  One from a key that is no
 * neighbour here and carries no tag under a key we keep for it asks for
 * a signed HELLO of ours (pcore_hello_sign_ask): without it, two nodes
 * that both dropped each other, or meet for the first time while each
 * tags for others, wait for each other's periodic signed HELLO.
 */
static enum pcore_drop
pcore_hello_tagged(struct pcore *pc, uint32_t ifindex,
    const struct wire_hello *h, const uint8_t addr[static BS_ADDR_LEN],
    uint64_t now_ms)
{
	struct pcore_neigh *n = pcore_neigh_get(pc, ifindex, addr);
	int r;

	if (n == NULL) {
		if ((r = pcore_neigh_lost_tag_ok(pc, ifindex, h->pk, &h->tr,
		    addr)) == 0)
			return PCORE_ACCEPT;
		if (r > 0)
			pcore_hello_sign_ask(pc, ifindex, now_ms);
		return PCORE_DROP_NO_LINK_KEY;
	}
	if (!n->announced || n->key_state != PCORE_KEY_OK ||
	    memcmp(n->pk, h->pk, BS_PK_LEN) != 0)
		return PCORE_DROP_NO_LINK_KEY;
	return pcore_neigh_tag_ok(n, &h->tr, addr) == 0 ? PCORE_ACCEPT :
	    PCORE_DROP_LINK_AUTH;
}

/* The checks before routing_hello; PCORE_ACCEPT when it may go in. */
static enum pcore_drop
pcore_hello_check(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const struct wire_hello *h,
    const uint8_t addr[static BS_ADDR_LEN], uint64_t now_ms, uint8_t *clsp)
{
	struct pcore_cert_cand cand, *newcert = NULL;
	uint8_t cls;
	int known;

	if (memcmp(h->ifmac, src, BS_ADDR_LEN) != 0)
		return PCORE_DROP_HELLO_MAC;
	if (memcmp(h->pk, pc->cfg.own_pk, BS_PK_LEN) == 0)
		return PCORE_DROP_OWN;
	if (!pcore_key_admitted(pc, h->pk, &cls)) {
		/* Its certificate may admit it: checked in full only
		 * after the HELLO's own signature. */
		if (!pcore_trust_precheck(pc, h->pk, h->cert, &cand))
			return PCORE_DROP_POLICY;
		cls = BS_CLASS_CERTIFIED;
		newcert = &cand;
	}
	*clsp = cls;
	if (pcore_hello_replayed(pc, ifindex, h, addr) ||
	    pcore_hello_old_epoch(pc, h))
		return PCORE_DROP_REPLAY;
	known = pcore_neigh_get(pc, ifindex, addr) != NULL;
	if (!known &&
	    pcore_lim_hello_stale(pc, ifindex, h->pk, h->epoch, h->seqno)) {
		pcore_count(pc, IPC_STAT_DROP_REMEMBERED);
		return PCORE_DROP_REPLAY;
	}
	if (h->tr.auth == WIRE_AUTH_MAC) {
		enum pcore_drop why = pcore_hello_tagged(pc, ifindex, h, addr,
		    now_ms);

		if (why != PCORE_ACCEPT)
			return why;
		pcore_count(pc, IPC_STAT_RX_HELLO_MAC);
	} else {
		if (pcore_lim_hello_budget(pc, ifindex, src, known,
		    now_ms) != 0)
			return PCORE_DROP_BUDGET;
		if (pcore_verify(pc, h->sig, BS_DOM_HELLO, h->signed_ptr,
		    h->signed_len, h->pk) != 0)
			return PCORE_DROP_SIG;
	}
	return pcore_hello_trust(pc, h, cls, newcert);
}

/*
 * routing_hello, with the neighbour table kept by class (pcore_limits.h):
 * a new stranger only within its share; a trusted or certified key that
 * finds the table full takes the slot of a lower class.
 */
static int
pcore_hello_admit(struct pcore *pc, const struct routing_hello *rh,
    uint8_t cls, uint64_t now_ms, struct routing_hello_result *res)
{
	uint8_t vpk[BS_PK_LEN];
	uint32_t vif;
	int r, tries;

	if (pcore_neigh_find(pc, rh->ifindex, rh->addr) == NULL &&
	    pcore_lim_neigh_room(pc, rh->ifindex, cls) != 0)
		return ROUTING_EFULL;
	r = routing_hello(pc->rt, rh, now_ms, res);
	/* Two tries: the interface's cap and the total one. */
	for (tries = 0; r == ROUTING_EFULL && tries < 2; tries++) {
		if (!pcore_lim_neigh_victim(pc, rh->ifindex, cls, &vif, vpk) ||
		    routing_neigh_remove(pc->rt, vif, vpk, pcore_event, pc,
		    NULL) != ROUTING_OK)
			break;
		pcore_count(pc, IPC_STAT_EVICTED);
		r = routing_hello(pc->rt, rh, now_ms, res);
	}
	return r;
}

enum pcore_drop
pcore_hello(struct pcore *pc, uint32_t ifindex,
    const uint8_t src[static BS_ADDR_LEN], const uint8_t *p, size_t len,
    uint64_t now_ms)
{
	struct routing_hello_result res;
	struct routing_neigh_info ni;
	struct routing_hello rh;
	struct wire_hello h;
	struct pcore_neigh *nb;
	uint8_t addr[BS_ADDR_LEN], cls = BS_CLASS_REFUSED, ask = 0;
	enum pcore_drop why;
	int r, us, back;

	if ((r = wire_hello_parse(p, len, &h)) != WIRE_OK)
		return pcore_malformed(pc, r, &h.where, ifindex, src, now_ms);
	bs_mesh_addr(addr, h.pk);
	/* Before the check: a tag under the kept key forgets it.  One that
	 * says fresh (its parser restarted) is new whatever it was. */
	back = (h.flags & WIRE_HELLO_F_FRESH) == 0 &&
	    pcore_neigh_get(pc, ifindex, addr) == NULL &&
	    pcore_neigh_was_lost(pc, ifindex, h.pk, addr, h.epoch);
	if ((why = pcore_hello_check(pc, ifindex, src, &h, addr, now_ms,
	    &cls)) != PCORE_ACCEPT)
		return pcore_drop(pc, why, ifindex, src, NULL, 0, now_ms);
	memset(&rh, 0, sizeof(rh));
	rh.ifindex = ifindex;
	rh.pk = h.pk;
	rh.addr = addr;
	rh.mac = h.ifmac;
	rh.epoch = h.epoch;
	rh.seqno = h.seqno;
	us = pcore_hello_listed(pc, &h);
	rh.echo = us >= 0 ? h.neigh[us].rx_count : 0;
	rh.interval_ms = h.interval_ms;
	if ((r = pcore_hello_admit(pc, &rh, cls, now_ms, &res)) != ROUTING_OK)
		return pcore_drop(pc, pcore_hello_refused(r), ifindex, src,
		    NULL, 0, now_ms);
	pcore_count(pc, IPC_STAT_RX_HELLO);
	pcore_lim_authentic(pc, ifindex, src, now_ms);
	/*
	 * A new neighbour, or one that says it knows no full entry yet:
	 * hand it full entries for a while (pcore_desc.h).  Not one that
	 * comes back after a few missed HELLOs: it kept the originators
	 * (asking for any it lost), and in a lossy mesh such returns would
	 * set every neighbour handing on everything several times a minute.
	 */
	if ((res.neigh_new && !back) || (h.flags & WIRE_HELLO_F_FRESH) != 0)
		pcore_desc_fresh(pc, now_ms);
	/* A neighbour that does not list us cannot check the tags of our
	 * HELLOs: our forwarder signs one soon (fwd_hello_sign_due). */
	if ((h.flags & WIRE_HELLO_F_FRESH) != 0)
		ask |= IPC_NEIGH_F_FRESH;
	/* The originators whose full entries it asks for. */
	if (h.num_want > 0 && (nb = pcore_neigh_get(pc, ifindex, addr)) != NULL &&
	    pcore_desc_wanted(pc, nb, h.want, h.num_want, now_ms))
		ask |= IPC_NEIGH_F_OWN;
	if (us < 0)
		ask |= IPC_NEIGH_F_SIGN;
	if (routing_neigh_get(pc->rt, ifindex, addr, &ni) == ROUTING_OK) {
		pcore_neigh_tell(pc, &res, &ni, h.salt, back, now_ms);
		pcore_neigh_ask(pc, &ni, h.salt, ask);
	}
	return PCORE_ACCEPT;
}
