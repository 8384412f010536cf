/*
 * ctl_ping.h — batsec-ctl ping and traceroute: the mesh-layer ping and
 * traceroute through batsecd.
 */
#ifndef BATSEC_CTL_PING_H
#define BATSEC_CTL_PING_H

#include "ctl.h"

ctl_run_fn ctl_ping;
ctl_run_fn ctl_traceroute;

#endif /* BATSEC_CTL_PING_H */
