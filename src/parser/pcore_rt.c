/*
 * pcore_rt.c — the parser's routing tables and the policy: the
 * parameters CONFIG and the policy call for, and the sweep that makes the
 * tables follow the keys' classes whenever they change (a new policy, a
 * revocation record, an expired certificate) (pcore_rt.h).
 */
#include "batsec_policy.h"
#include "pcore_base.h"
#include "pcore_int.h"
#include "pcore_limits.h"
#include "pcore_neigh.h"
#include "pcore_rt.h"
#include "pcore_trust.h"
#include "routing/routing.h"

void
pcore_rt_params(const struct pcore *pc, struct routing_params *p)
{
	routing_params_default(p);
	p->neigh_cap = PCORE_MAX_NEIGH;
	p->hop_penalty = pc->cfg.hop_penalty;
	if (pc->policy != NULL)
		p->orig_cap = pc->policy->limits.originators;
}

/* Remove every neighbour and originator whose key is no longer admitted. */
static void
pcore_rt_unadmitted(struct pcore *pc)
{
	struct routing_orig_info oi;
	struct routing_neigh_info ni;
	uint32_t pos = 0;
	uint8_t cls;

	/* Removal frees slots in place, so the iteration goes on safely. */
	while (routing_orig_next(pc->rt, &pos, &oi)) {
		if (!pcore_key_admitted(pc, oi.pk, &cls))
			routing_remove_key(pc->rt, oi.pk, pcore_event, pc,
			    NULL);
		else if (cls != oi.cls)
			routing_orig_set_class(pc->rt, oi.pk, cls);
	}
	pos = 0;
	while (routing_neigh_next(pc->rt, 0, &pos, &ni))
		if (!pcore_key_admitted(pc, ni.pk, &cls))
			routing_remove_key(pc->rt, ni.pk, pcore_event, pc,
			    NULL);
}

/*
 * A lowered `limit originators`: remove entries until cap is met, worst
 * class first (in table order within a class).  Removing a key removes
 * its neighbour entries too; trusted entries go last.
 */
static void
pcore_evict(struct pcore *pc, uint32_t cap)
{
	static const uint8_t order[] = { BS_CLASS_BLOCKED, BS_CLASS_REFUSED,
	    BS_CLASS_STRANGER, BS_CLASS_CERTIFIED, BS_CLASS_TRUSTED };
	struct routing_orig_info oi;
	uint32_t pos;
	size_t k;

	for (k = 0; k < sizeof(order); k++) {
		pos = 0;
		while (routing_orig_count(pc->rt) > cap &&
		    routing_orig_next(pc->rt, &pos, &oi))
			if (oi.cls == order[k])
				routing_remove_key(pc->rt, oi.pk, pcore_event,
				    pc, NULL);
	}
}

static void
pcore_count_strangers(struct pcore *pc)
{
	struct routing_orig_info oi;
	uint32_t pos = 0;

	pc->n_strangers = 0;
	while (routing_orig_next(pc->rt, &pos, &oi))
		if (oi.cls == BS_CLASS_STRANGER)
			pc->n_strangers++;
	pcore_lim_recount(pc);
}

void
pcore_rt_sweep(struct pcore *pc)
{
	struct routing_params p;

	if (pc->rt == NULL)
		return;
	pcore_rt_unadmitted(pc);
	pcore_rt_params(pc, &p);
	if (routing_set_params(pc->rt, &p) == ROUTING_EFULL) {
		pcore_evict(pc, p.orig_cap);
		if (routing_set_params(pc->rt, &p) != ROUTING_OK)
			pcore_logf(pc, IPC_LOG_ERR, "policy: originator cap "
			    "%u not applied", p.orig_cap);
	}
	pcore_count_strangers(pc);
}
