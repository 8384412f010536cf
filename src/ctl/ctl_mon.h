/*
 * ctl_mon.h — the monitoring commands: metrics (Prometheus text, to
 * stdout or atomically to a file for node_exporter's textfile collector)
 * and nodeinfo (respondd-like JSON).
 */
#ifndef BATSEC_CTL_MON_H
#define BATSEC_CTL_MON_H

#include "ctl.h"

ctl_run_fn ctl_mon_metrics, ctl_mon_nodeinfo;

#endif /* BATSEC_CTL_MON_H */
