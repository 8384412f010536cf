/*
 * t_fastpath.h — the tables, frames and oracle of the in-kernel relay's
 * tests, shared by tests/check_fastpath.c, fuzz/fuzz_fastpath.c and
 * fuzz/gen_fastpath.c.
 *
 * The program runs under BPF_PROG_TEST_RUN as if the frame arrived on
 * the loopback device of the current namespace (ifindex 1, MAC all
 * zero).  The tables: that interface and FPM_OUT_IF (any ifindex: a test
 * run sends nothing), one neighbour on each, and a route to FPM_DST via
 * the neighbour on FPM_OUT_IF.
 *
 * The oracle holds the program against what batsecd's own relay does
 * (fwd_data_mesh_rx, fwd_data_forward): what the program relays,
 * batsecd would relay the same way, byte for byte; what batsecd would
 * relay without Ethernet padding, the program relays; everything else
 * leaves the program unchanged.
 */
#ifndef BATSEC_T_FASTPATH_H
#define BATSEC_T_FASTPATH_H

#include <stddef.h>
#include <stdint.h>

#include "netio/fastpath.h"

#define T_FPM_IN_IF	1	/* the namespace's loopback */
#define T_FPM_OUT_IF	7
#define T_FPM_MTU	1630
#define T_FPM_ET	0x88b5
#define T_FPM_FRAME_MAX	2048

extern const uint8_t t_fpm_own[6], t_fpm_dst[6], t_fpm_src[6];
extern const uint8_t t_fpm_in_mac[6], t_fpm_nh_mac[6], t_fpm_out_mac[6];
extern const uint8_t t_fpm_lo_mac[6];

/* The program and its tables: 0, or -1 (err says why). */
int	 t_fpm_open(struct fastpath *fp, char *err, size_t errlen);
/* A UNICAST from the neighbour to us, t_fpm_src -> t_fpm_dst, TTL 5, with
 * an inner frame of inner bytes: its length. */
size_t	 t_fpm_frame(uint8_t *f, size_t inner);
/*
 * What batsecd's relay does with frame f under these tables: 1 and the
 * frame it sends in want, or 0 when it does not relay it.  *padded: it
 * does, but the frame had Ethernet padding.
 */
int	 t_fpm_model(const uint8_t *f, size_t len, uint8_t *want, int *padded);
/*
 * The oracle over one run: the program's verdict and output for input
 * f.  NULL when they are right, else what is wrong.
 */
const char *t_fpm_judge(const uint8_t *f, size_t len, int verdict,
	    const uint8_t *out);

#endif /* BATSEC_T_FASTPATH_H */
