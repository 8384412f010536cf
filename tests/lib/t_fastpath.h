/*
 * t_fastpath.h — the tables, frames and oracle of the in-kernel relay's
 * tests, shared by tests/check_fastpath.c, fuzz/fuzz_fastpath.c and
 * fuzz/gen_fastpath.c.
 *
 * The program runs under BPF_PROG_TEST_RUN as if the frame arrived on
 * the loopback device of the current namespace (ifindex 1, MAC all
 * zero).  The tables: that interface and T_FPM_OUT_IF (any ifindex: a
 * test run sends nothing), one neighbour on each with its own hop key
 * (t_fpm_in_hop, t_fpm_nh_hop), and a route to t_fpm_dst via the
 * neighbour on T_FPM_OUT_IF.
 *
 * The oracle is a reference of DP2.md's relay written in C over
 * libsodium's SipHash-2-4 (crypto_shorthash_siphash24), with replay
 * windows of its own (a shifting bitmap per lane, the plain reading of
 * the spec): what the program relays, the reference relays, byte for
 * byte but for the hop counter, which must be of a relay lane (1..255),
 * growing in that lane, and under the new tag; what the reference relays
 * the program relays; a verified replay the program drops; everything
 * else it leaves unchanged.  The reference keeps the windows between
 * calls, as the program does: judge every run of one program, in order.
 */
#ifndef BATSEC_T_FASTPATH_H
#define BATSEC_T_FASTPATH_H

#include <stddef.h>
#include <stdint.h>

#include "netio/fastpath.h"

#define T_FPM_IN_IF	1	/* the namespace's loopback */
#define T_FPM_OUT_IF	7
#define T_FPM_MTU	1600
#define T_FPM_ET	0x88b5
#define T_FPM_FRAME_MAX	2048
#define T_FPM_V2	2	/* the data frames' version (DP2.md) */
#define T_FPM_OVERHEAD	68	/* hop part + e2e header + AEAD tag */
#define T_FPM_ECHO_LEN	6

extern const uint8_t t_fpm_own[6], t_fpm_dst[6], t_fpm_src[6];
extern const uint8_t t_fpm_in_mac[6], t_fpm_nh_mac[6], t_fpm_out_mac[6];
extern const uint8_t t_fpm_lo_mac[6];
extern const struct fastpath_hop t_fpm_in_hop, t_fpm_nh_hop;

/* The program and its tables, the reference's windows empty: 0, or -1
 * (err says why). */
int	 t_fpm_open(struct fastpath *fp, char *err, size_t errlen);
/*
 * A v2 UNICAST from the neighbour to us, t_fpm_src -> t_fpm_dst, TTL 5,
 * with a ciphertext of inner bytes (14..1518 are valid), the hop counter
 * the next of lane 0 (a counter of this process, so every frame made is
 * fresh), tagged with the neighbour's key: its length.
 */
size_t	 t_fpm_frame(uint8_t *f, size_t inner);
/* The same of type (WIRE_T_UNICAST or WIRE_T_ECHO) and hop counter. */
size_t	 t_fpm_frame_ctr(uint8_t *f, size_t inner, uint8_t type,
	    uint64_t counter);
/* The hop counter at f (big endian) read, written. */
uint64_t t_fpm_counter(const uint8_t *f);
void	 t_fpm_set_counter(uint8_t *f, uint64_t counter);
/* The hop tag SipHash-2-4(key, covered bytes) of frame f[0..len): into
 * tag, 0; -1 when the frame is too short to have one. */
int	 t_fpm_tag(const uint8_t *f, size_t len, const uint8_t key[16],
	    uint8_t tag[8]);
/* Written into the frame with key (t_fpm_in_hop.key: as the neighbour
 * would send it); nothing when too short. */
void	 t_fpm_retag(uint8_t *f, size_t len, const uint8_t key[16]);

enum t_fpm_verdict {
	T_FPM_PASS,		/* to user space unchanged */
	T_FPM_DROP,		/* verified replay */
	T_FPM_RELAY,
};
/*
 * What the reference relay does with frame f under these tables; with
 * commit, its windows take the counter as the program's would.  For
 * T_FPM_RELAY, want is the frame it sends but for the hop counter and
 * tag (bytes 22..37 of want are zero).
 */
enum t_fpm_verdict t_fpm_model(const uint8_t *f, size_t len, uint8_t *want,
	    int commit);
/*
 * The oracle over one run: the program's verdict and output for input
 * f.  NULL when they are right, else what is wrong.
 */
const char *t_fpm_judge(const uint8_t *f, size_t len, int verdict,
	    const uint8_t *out);

#endif /* BATSEC_T_FASTPATH_H */
