/*
 * pcore_rt.h — the parser's routing tables (pc->rt) and the policy.
 * Removals go through pcore_event (pcore_neigh.h), so the forwarder hears
 * of each as for a purge.
 */
#ifndef BATSEC_PCORE_RT_H
#define BATSEC_PCORE_RT_H

struct pcore;
struct routing_params;

/*
 * The routing parameters for the tables: the defaults, the neighbour cap
 * of the IPC, CONFIG's hop penalty and the policy's `limit originators`.
 */
void	pcore_rt_params(const struct pcore *pc, struct routing_params *p);
/*
 * The tables follow the keys' classes as pcore_trust_class() gives them
 * now: every neighbour and originator whose key is no longer admitted is
 * removed, classes are updated, the originator cap follows the policy
 * (entries beyond a lowered cap go, worst class first), and the stranger
 * counts are taken again.  Nothing before the first CONFIG.
 */
void	pcore_rt_sweep(struct pcore *pc);

#endif /* BATSEC_PCORE_RT_H */
