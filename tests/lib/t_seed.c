/*
 * t_seed.c — the seed writer of the fuzz generators (t_seed.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "t_seed.h"

static const char *seed_prog = "gen";
static const char *seed_dir;
static enum t_seed_name seed_name;
static int (*seed_fn)(const uint8_t *, size_t);

void
t_seed_main(int argc, char **argv, const char *prog, enum t_seed_name name)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", prog);
		exit(2);
	}
	t_seed_open(prog, argv[1], name);
}

void
t_seed_open(const char *prog, const char *dir, enum t_seed_name name)
{
	seed_prog = prog;
	seed_dir = dir;
	seed_name = name;
	if (sodium_init() < 0)
		t_seed_fail("sodium_init");
}

void
t_seed_run(int (*fn)(const uint8_t *, size_t))
{
	seed_fn = fn;
}

void
t_seed_fail(const char *what)
{
	fprintf(stderr, "%s: %s failed\n", seed_prog, what);
	exit(1);
}

void
t_seed_ok(int r, const char *what)
{
	if (r != 0)
		t_seed_fail(what);
}

/* The file name of a seed: hex digits of its hash, NUL-terminated. */
static void
seed_hex(char hex[static 41], const void *data, size_t len)
{
	uint8_t h[crypto_hash_sha256_BYTES];
	size_t n;

	switch (seed_name) {
	case T_SEED_SHA256:
		crypto_hash_sha256(h, data, len);
		n = 20;
		break;
	case T_SEED_BLAKE2B:
		n = 16;
		crypto_generichash(h, n, data, len, NULL, 0);
		break;
	default:
		n = 8;
		crypto_generichash(h, n, data, len, NULL, 0);
		break;
	}
	sodium_bin2hex(hex, 41, h, n);
}

void
t_seed_write(const void *data, size_t len)
{
	char hex[41], path[4096];
	FILE *f;

	if (seed_dir == NULL)
		t_seed_fail("t_seed_open");
	seed_hex(hex, data, len);
	if (snprintf(path, sizeof(path), "%s/%s", seed_dir, hex) >=
	    (int)sizeof(path) || (f = fopen(path, "wb")) == NULL ||
	    fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "%s: %s: %s\n", seed_prog, path,
		    strerror(errno));
		exit(1);
	}
	if (seed_fn != NULL)
		(void)seed_fn(data, len);
}

void
t_seed_put(struct t_seedbuf *s, const void *p, size_t n)
{
	if (n > s->cap - s->len)
		t_seed_fail("seed size");
	if (n != 0)
		memcpy(s->buf + s->len, p, n);
	s->len += n;
}

void
t_seed_flush(struct t_seedbuf *s)
{
	t_seed_write(s->buf, s->len);
	s->len = 0;
}
