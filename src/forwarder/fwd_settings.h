/*
 * fwd_settings.h — runtime settings and the event ring on the control
 * socket: `batsec-ctl set NAME VALUE`, `get [NAME]` and `event`.
 *
 * Settings are hop-penalty, orig-interval, hello-interval, gateway and
 * log-level (config_set_runtime checks them with the file's own code).
 * A change is runtime only: batsec.conf is not written, and a SIGHUP
 * applies the file's values again (forwarder.c calls fwd_settings_apply
 * with the reloaded configuration).  The forwarder stays the authority:
 * it changes its own copy, then sends the parser a new IPC_CONFIG.
 */
#ifndef BATSEC_FWD_SETTINGS_H
#define BATSEC_FWD_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "fwd_events.h"

struct bs_config;
struct ctl_reply;
struct fwd;

/*
 * Make the runtime settings of n the running ones: the announce timers,
 * the log level, the parser's CONFIG (once, if any of its fields
 * changed), an event per changed setting naming why ("set", "reload").
 * Returns how many changed.
 */
int	fwd_settings_apply(struct fwd *f, const struct bs_config *n,
	    const char *why);

/*
 * Send the parser an IPC_CONFIG from f->cfg: at its start, and again when
 * the intervals, hop penalty or log level change (SIGHUP, batsec-ctl set).
 */
void	fwd_send_config(struct fwd *f);

/* Control handlers (fwd_control.c's table). */
void	fwd_settings_ctl_set(void *ctx, size_t argc, const char *const argv[],
	    struct ctl_reply *r);
void	fwd_settings_ctl_get(void *ctx, size_t argc, const char *const argv[],
	    struct ctl_reply *r);
void	fwd_settings_ctl_events(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);

#endif /* BATSEC_FWD_SETTINGS_H */
