/*
 * ctl_key.h — the key commands of batsec-ctl (generate, public, address).
 */
#ifndef BATSEC_CTL_KEY_H
#define BATSEC_CTL_KEY_H

#include "ctl.h"

ctl_run_fn ctl_key_generate, ctl_key_public, ctl_key_address;

#endif /* BATSEC_CTL_KEY_H */
