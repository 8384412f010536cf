/*
 * ctl_cert.h — the certificate commands of batsec-ctl (issue, show,
 * verify).
 */
#ifndef BATSEC_CTL_CERT_H
#define BATSEC_CTL_CERT_H

#include "ctl.h"

ctl_run_fn ctl_cert_issue, ctl_cert_show, ctl_cert_verify;

#endif /* BATSEC_CTL_CERT_H */
