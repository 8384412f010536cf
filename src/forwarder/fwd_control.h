/*
 * fwd_control.h — the commands of batsecd's control socket (control.h
 * serves it, ctlproto.h defines the records): dumps of the forwarder's
 * tables and counters, the mesh ping, and the trust commands of
 * fwd_trust.h.  At the top of the wing: it reads every module.
 */
#ifndef BATSEC_FWD_CONTROL_H
#define BATSEC_FWD_CONTROL_H

#include <stddef.h>

#include "control.h"

struct fwd;

/* The command table, ended by a NULL name (ctx: a struct fwd). */
extern const struct control_cmd fwd_control_cmds[];

/*
 * Open the control socket at f->cfg.socket with these commands into
 * f->ctl, before any interface exists: a path in use by a running daemon
 * is a configuration error like any other.  0, or -1 with err.
 */
int	fwd_control_open(struct fwd *f, char *err, size_t errlen);

#endif /* BATSEC_FWD_CONTROL_H */
