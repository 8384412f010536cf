/*
 * fwd_iface.h — looking up the forwarder's mesh interfaces (struct
 * fwd_iface, fwd_types.h): the one place that knows what "present" and
 * "usable" mean and walks the table by ifindex.  Below every module that
 * needs an interface; fwd_ifaces.c is the one that changes them.
 */
#ifndef BATSEC_FWD_IFACE_H
#define BATSEC_FWD_IFACE_H

#include <stdint.h>

struct fwd_iface;
struct fwd_ifaces;

/* 1 when v can send: present, up, its socket open. */
int	fwd_iface_usable(const struct fwd_iface *v);
/* 1 when any interface of ifs is usable. */
int	fwd_iface_any_usable(const struct fwd_ifaces *ifs);
/* Index of the present (configured and existing) interface with ifindex,
 * or -1. */
int	fwd_iface_find(const struct fwd_ifaces *ifs, uint32_t ifindex);
/* That interface, or NULL. */
const struct fwd_iface *fwd_iface_by_index(const struct fwd_ifaces *ifs,
	    uint32_t ifindex);
/* The usable interface with ifindex, or NULL. */
struct fwd_iface *fwd_iface_usable_by_index(struct fwd_ifaces *ifs,
	    uint32_t ifindex);

#endif /* BATSEC_FWD_IFACE_H */
