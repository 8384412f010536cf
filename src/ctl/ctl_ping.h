/*
 * ctl_ping.h — batsec-ctl ping: the mesh-layer ping through batsecd.
 */
#ifndef BATSEC_CTL_PING_H
#define BATSEC_CTL_PING_H

#include "ctl.h"

ctl_run_fn ctl_ping;

#endif /* BATSEC_CTL_PING_H */
