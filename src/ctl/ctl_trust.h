/*
 * ctl_trust.h — the daemon commands that change or list whom batsecd
 * trusts.
 */
#ifndef BATSEC_CTL_TRUST_H
#define BATSEC_CTL_TRUST_H

#include "ctl.h"

/* trust add/remove/list, block, unblock, reload: the one cmd names. */
ctl_run_fn ctl_trust_run;
/* revoke KEY, revoke --ca CAKEYFILE [-o FILE [-f]] KEY, revoke --record. */
ctl_run_fn ctl_revoke;

#endif /* BATSEC_CTL_TRUST_H */
