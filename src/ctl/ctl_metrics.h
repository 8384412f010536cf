/*
 * ctl_metrics.h — batsecd's state, as the control socket gives it, shown
 * for monitoring: Prometheus text (batsec-ctl metrics) and a
 * respondd-like JSON object for community maps (batsec-ctl nodeinfo).
 * Pure renderers over replies already read; ctl_mon.c fetches them.
 */
#ifndef BATSEC_CTL_METRICS_H
#define BATSEC_CTL_METRICS_H

#include <stdio.h>

#include "ctl_client.h"

/* The replies the renderers read; a reply not fetched is empty. */
struct ctl_mon_in {
	int up;				/* batsecd answered every request */
	struct ctl_in status, stats, neighbors, interfaces, gateways,
	    clients;
};

/* Free the replies' buffers (the struct itself is the caller's). */
void	ctl_mon_in_free(struct ctl_mon_in *in);

/*
 * The exposition on out: batsec_up, and when in->up everything else.
 * 0, or -1 when a name from the daemon broke the format or out failed.
 */
int	ctl_metrics_prom(FILE *out, const struct ctl_mon_in *in);
/*
 * One JSON object on out: sections "nodeinfo", "statistics" and
 * "neighbours" as Gluon's respondd names them.  0, or -1 when out failed.
 */
int	ctl_metrics_nodeinfo(FILE *out, const struct ctl_mon_in *in,
	    const char *hostname);

#endif /* BATSEC_CTL_METRICS_H */
