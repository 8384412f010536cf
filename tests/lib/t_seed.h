/*
 * t_seed.h — how the fuzz seed generators (fuzz/gen_T.c) write a corpus:
 * each seed is a file in the folder named on the command line, named by
 * the hex of a hash of its content, so that a seed written twice is one
 * file and the corpus of a deterministic generator is the same every run.
 *
 * One generator per process: the folder, the naming and the program name
 * for messages are set once by t_seed_main() or t_seed_open().  Every
 * failure is a message naming the program and exit status 1.
 */
#ifndef BATSEC_T_SEED_H
#define BATSEC_T_SEED_H

#include <stddef.h>
#include <stdint.h>

/* How a seed file is named. */
enum t_seed_name {
	T_SEED_SHA256,		/* the first 20 bytes of its SHA-256 */
	T_SEED_BLAKE2B,		/* its BLAKE2b-128 */
	T_SEED_BLAKE2B_64,	/* its BLAKE2b-64 */
};

/*
 * The command line "prog DIR": exits 2 with a usage line unless argc is
 * 2, initialises libsodium, and writes seeds into argv[1].
 */
void	t_seed_main(int argc, char **argv, const char *prog,
	    enum t_seed_name name);
/* The same for a generator that reads its command line itself. */
void	t_seed_open(const char *prog, const char *dir, enum t_seed_name name);
/* Runs fn over every seed once it is written (the included harness). */
void	t_seed_run(int (*fn)(const uint8_t *, size_t));

/* Writes one seed. */
void	t_seed_write(const void *data, size_t len);

/* "prog: what failed", exit 1; t_seed_ok does that when r is not 0. */
void	t_seed_fail(const char *what) __attribute__((__noreturn__));
void	t_seed_ok(int r, const char *what);

/* A seed put together piece by piece in a buffer of the generator's. */
struct t_seedbuf {
	uint8_t	*buf;
	size_t	 cap;
	size_t	 len;
};

/* Appends n bytes (fails when they do not fit). */
void	t_seed_put(struct t_seedbuf *s, const void *p, size_t n);
/* Writes what was put as one seed and empties the buffer. */
void	t_seed_flush(struct t_seedbuf *s);

#endif /* BATSEC_T_SEED_H */
