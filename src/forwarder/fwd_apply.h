/*
 * fwd_apply.h — what the parser decided about neighbours, routes,
 * clients (TT) and gateways, applied to the forwarder's tables
 * (fwd_tables.h) and to the in-kernel relay's maps (fwd_fast.h).  These
 * are handlers of the parser channel (fwd_parser.h's fwd_chan_fn, arg a
 * struct fwd); the messages passed every check before they get here, so
 * a full table is a note in the log, never a violation.
 */
#ifndef BATSEC_FWD_APPLY_H
#define BATSEC_FWD_APPLY_H

union ipc_payload;

int	fwd_apply_neigh(void *arg, const union ipc_payload *u);
int	fwd_apply_route_add(void *arg, const union ipc_payload *u);
int	fwd_apply_route_del(void *arg, const union ipc_payload *u);
int	fwd_apply_route_alt(void *arg, const union ipc_payload *u);
int	fwd_apply_tt(void *arg, const union ipc_payload *u);
int	fwd_apply_gw(void *arg, const union ipc_payload *u);
int	fwd_apply_mcast(void *arg, const union ipc_payload *u);
/* IPC_DESC_WANT: the originator goes in our next HELLOs (struct fwd_wants). */
int	fwd_apply_desc_want(void *arg, const union ipc_payload *u);
/* IPC_HELLO_SIGN: our next HELLO on that interface is signed, within
 * FWD_HELLO_REQ_GAP (fwd_announce_sign). */
int	fwd_apply_hello_sign(void *arg, const union ipc_payload *u);

#endif /* BATSEC_FWD_APPLY_H */
