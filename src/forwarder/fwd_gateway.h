/*
 * fwd_gateway.h — the forwarder's gateway election in client mode
 * (batsec.conf(5) gw-mode client, gw-sel-class; fwd_gwsel.h for the
 * rules).  The candidates are the gateways of the table (announced by
 * originators the policy lets be gateways: the parser withdraws them, and
 * fwd_admit removes them, on a trust change) that have a route of TQ > 0.
 * Run every second and at the loop round after a gateway or route was
 * withdrawn or a setting changed (f->gw_dirty); the result goes to
 * f->data->gw, where the data plane steers DHCP by it.  A change is
 * logged and noted as a gateway event ("select", "lost").
 */
#ifndef BATSEC_FWD_GATEWAY_H
#define BATSEC_FWD_GATEWAY_H

struct fwd;

void	fwd_gw_elect(struct fwd *f);
/* A new mode or class: forget the choice and elect afresh. */
void	fwd_gw_reset(struct fwd *f);

#endif /* BATSEC_FWD_GATEWAY_H */
