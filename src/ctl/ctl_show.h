/*
 * ctl_show.h — the daemon commands that show batsecd's tables and state.
 */
#ifndef BATSEC_CTL_SHOW_H
#define BATSEC_CTL_SHOW_H

#include "ctl.h"

/*
 * originators, neighbors, interfaces, gateways, clients, stats, status,
 * anchors, policy show: the one that cmd names.
 */
ctl_run_fn ctl_show_run;

#endif /* BATSEC_CTL_SHOW_H */
