/*
 * t_check.h — what every Check program (tests/check_*.c) does around its
 * tests: run the suite, make and remove a scratch folder, write and read
 * files in it, copy a buffer into an exactly sized one (so ASan sees a
 * read past its end), read hex.  Failures are Check assertions, so these are for
 * tests and fixtures, not for main() before the suite runs (except
 * t_run, which is main's).
 */
#ifndef BATSEC_T_CHECK_H
#define BATSEC_T_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <check.h>

/* The number of elements of an array, for tcase_add_loop_test. */
#define T_NELEM(a)	((int)(sizeof(a) / sizeof((a)[0])))

/*
 * The tag of test cases that need what only the build's own machine
 * gives: running the build's other programs, or kernel features qemu-user
 * does not translate.  tests/run-qemu sets CK_EXCLUDE_TAGS to it.
 */
#define T_TAG_NATIVE	"native"

/* Runs the suite (CK_NORMAL): EXIT_SUCCESS when no test failed. */
int	 t_run(Suite *s);

/*
 * A new folder $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR) into dir;
 * t_rmtree removes it and all it holds.
 */
void	 t_tmpdir(char *dir, size_t size, const char *name);
void	 t_rmtree(const char *dir);

/* path holds exactly len bytes of data, with mode. */
void	 t_write_file(const char *path, const void *data, size_t len,
	    mode_t mode);
/* path's content, NUL-terminated, from malloc; *len its length if len. */
char	*t_slurp(const char *path, size_t *len);

/* An exactly sized heap copy of the n bytes at p. */
uint8_t	*t_dup(const void *p, size_t n);
/* How often needle (not empty) occurs in s, without overlaps. */
size_t	 t_count(const char *s, const char *needle);
/* The bytes of hex, which must be exactly outlen of them. */
void	 t_unhex(uint8_t *out, size_t outlen, const char *hex);

#endif /* BATSEC_T_CHECK_H */
