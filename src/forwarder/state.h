/*
 * state.h — batsecd's persistent state directory and epoch.
 *
 * The state directory (state-dir in batsec.conf(5), default
 * /var/lib/batsec) is created mode 0700 when missing and must be a real
 * directory (not a symbolic link) owned by the effective user and not
 * writable by group or others.  It holds:
 *
 *   epoch	the node's epoch: one decimal number and a newline.  Peers
 *		reject OGMs and HELLOs of an (originator, epoch) older than
 *		the newest they saw, so every start must use a higher epoch
 *		than any earlier one; a repeated one would let frames recorded
 *		in an earlier run be replayed, and repeat the end-to-end keys
 *		and counters of two nodes that both repeat theirs.  It is a
 *		counter: the stored epoch + 1 at every start, whatever the
 *		clock says (a clock that once read 2106 cannot use up the
 *		epochs).  Only when there is no file does it start afresh,
 *		as epoch-seed (batsec.conf(5)) says: state_epoch_decide.  The
 *		new epoch is written (atomically, file and directory fsync'ed,
 *		see bs_file_write_atomic) before anything is sent.
 * and the stores of other modules, files of lines that they write
 * (atomically) and read through state_read_lines():
 *
 *   revocations	CA revocation records (fwd_trust.h)
 *   pins		TOFU pins (fwd_pins.h)
 *
 * (The parser's chroot directory is sandbox_chroot_prepare's business.)
 *
 * Functions return 0, or -1 with one line in err naming the path.
 */
#ifndef BATSEC_STATE_H
#define BATSEC_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/config.h"

#define STATE_EPOCH_FILE	"epoch"
#define STATE_EPOCH_TEXT_MAX	16	/* "4294967295\n" and then some */
/*
 * A clock reading before this (2024-01-01) is taken as "no clock" (a
 * router without a real-time clock starts in 1970); one after
 * STATE_SEED_MAX (2105-08) is not used as a first epoch either, so at
 * least 2^24 starts are left after a seed from a wrong clock.
 */
#define STATE_CLOCK_MIN		1704067200u
#define STATE_SEED_MAX		(UINT32_MAX - (1u << 24))

/* Create (0700) or check the state directory. */
int	state_dir_open(const char *dir, char *err, size_t errlen);

/* Pure: 1 when a clock reading may seed an epoch (2024 to 2105-08). */
int	state_clock_plausible(uint64_t now_s);

/* What state_epoch_decide chose. */
enum state_epoch_how {
	STATE_EPOCH_COUNTED = 0,	/* the stored epoch + 1 */
	STATE_EPOCH_CLOCK,		/* no file: the clock */
	STATE_EPOCH_FIRST,		/* no file: 1 */
	STATE_EPOCH_WAIT,		/* no file, no clock yet: wait */
	STATE_EPOCH_REFUSED,		/* no file, no clock, on tmpfs */
	STATE_EPOCH_LAST,		/* stored UINT32_MAX: none higher */
};

/*
 * Pure: the epoch to use after `old` (have_old: 0 when none is stored),
 * in *out for COUNTED, CLOCK and FIRST.  With a stored epoch: old + 1
 * (LAST when old is UINT32_MAX), whatever mode, clock and file system.
 * Without one, now_s the wall clock (seconds since 1970) and on_tmpfs
 * whether the state directory forgets its files at boot:
 *   auto	the clock when plausible; else REFUSED on tmpfs (every
 *		boot would start at 1 again), and 1 on persistent storage
 *		(no file there: this key never ran with this directory)
 *   clock	the clock when plausible, else WAIT
 *   none	1
 */
enum state_epoch_how state_epoch_decide(enum bs_epoch_seed mode,
	    uint32_t old, int have_old, uint64_t now_s, int on_tmpfs,
	    uint32_t *out);

/*
 * Pure: 1 when a file system of this statfs(2) f_type forgets its files
 * at every boot (tmpfs, ramfs).
 */
int	state_fs_volatile(long f_type);

/*
 * Pure: parse the epoch file's text (decimal, no sign or leading zero,
 * one trailing newline).  -1 with err set on anything else.
 */
int	state_epoch_parse(const char *buf, size_t len, uint32_t *out,
	    const char *name, char *err, size_t errlen);

/*
 * Read dir/epoch (missing: none), find out whether dir is on tmpfs or
 * ramfs (statfs), choose the next epoch (state_epoch_decide), write it
 * atomically (mode 0600, file and directory fsync'ed) and return 0 with
 * it in *epoch; *how says why.  1 (nothing written) for WAIT: call
 * again once the clock may have moved.  A file that exists but cannot
 * be read or parsed is an error, like REFUSED and LAST (-1, err names
 * the fix): batsecd never guesses an epoch that could be lower than one
 * it used.
 */
int	state_epoch_bump(const char *dir, enum bs_epoch_seed mode,
	    uint64_t now_s, uint32_t *epoch, enum state_epoch_how *how,
	    char *err, size_t errlen);

/* The clock reading now_s as text (UTC), for messages. */
void	state_clock_text(uint64_t now_s, char *buf, size_t len);

/*
 * A store of the state directory, line by line: state_lines() calls fn
 * for each line of buf's len bytes (without its newline; the last one
 * needs none), numbered from 1, with path only to name it;
 * state_read_lines() does so for the file at path, which must be a
 * regular file (not a symbolic link) of at most max bytes, and returns
 * 1, or 0 when there is no file, or -1 with err when it cannot be read.
 */
typedef void state_line_fn(void *arg, const char *path,
	    size_t lineno, const char *s, size_t len);
void	state_lines(const char *path, const char *buf, size_t len,
	    state_line_fn *fn, void *arg);
int	state_read_lines(const char *path, size_t max, state_line_fn *fn,
	    void *arg, char *err, size_t errlen);

#endif /* BATSEC_STATE_H */
