/*
 * fwd_tap.h — batsec0, the forwarder's TAP device: creating it (its MAC
 * derived from the node key, offloads, up) and removing it, and the
 * delivery of frames from the mesh to the host, joined where they can be
 * (tapoff.h) and written at the latest at the end of a burst.
 *
 * Low in the wing: the data plane (fwd_data.c) delivers through it and
 * the mesh interfaces (fwd_ifaces.c) end their bursts with it.  Reading
 * from the TAP into the data plane is the event loop's (forwarder.c).
 */
#ifndef BATSEC_FWD_TAP_H
#define BATSEC_FWD_TAP_H

#include <stddef.h>
#include <stdint.h>

struct fwd;

/* The joining buffer (TAP_PKT_MAX bytes).  0, or -1 (out of memory). */
int	fwd_tap_init(struct fwd *f);
/*
 * Create f->cfg.tap with offloads and its MAC, and make that MAC a
 * permanent local client (f->tables).  Exits on failure (start-up).
 */
void	fwd_tap_open(struct fwd *f);
/* Bring it up; exits on failure. */
void	fwd_tap_up(struct fwd *f);
/* Close it (closing removes a TAP that is not persistent: checked). */
void	fwd_tap_close(struct fwd *f);

/*
 * One frame from the mesh for the host, joined with the frames around
 * it where it can be.  0, or -1 when a write to the TAP failed.
 */
int	fwd_tap_deliver(struct fwd *f, const uint8_t *frame, size_t len);
/* The end of a burst from the mesh: what waits to be joined goes out. */
void	fwd_tap_flush(struct fwd *f);

#endif /* BATSEC_FWD_TAP_H */
