/*
 * version.h — the release version of batsecd and batsec-ctl.
 */
#ifndef BATSEC_VERSION_H
#define BATSEC_VERSION_H

#define BATSEC_VERSION		"0.1.0"

#endif /* BATSEC_VERSION_H */
