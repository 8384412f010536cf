/*
 * ctl_settings.h — batsec-ctl set, get and event: batsecd's runtime
 * settings and its stream of route, neighbour, gateway, trust and
 * settings changes.
 */
#ifndef BATSEC_CTL_SETTINGS_H
#define BATSEC_CTL_SETTINGS_H

#include "ctl.h"

ctl_run_fn ctl_settings_run;	/* set, get */
ctl_run_fn ctl_event;

#endif /* BATSEC_CTL_SETTINGS_H */
