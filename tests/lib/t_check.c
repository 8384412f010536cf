/*
 * t_check.c — the frame of every Check program (t_check.h).
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "t_check.h"

int
t_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void
t_tmpdir(char *dir, size_t size, const char *name)
{
	const char *base = getenv("TMPDIR");

	if (base == NULL || *base == '\0')
		base = "/tmp";
	ck_assert_int_lt(snprintf(dir, size, "%s/%s.XXXXXX", base, name),
	    (int)size);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void
t_rmtree(const char *dir)
{
	(void)nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void
t_write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_msg(fd >= 0, "%s: cannot create", path);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	ck_assert_int_eq(close(fd), 0);
}

char *
t_slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "%s: cannot open", path);
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(read(fd, buf, (size_t)st.st_size), st.st_size);
	buf[st.st_size] = '\0';
	close(fd);
	if (len != NULL)
		*len = (size_t)st.st_size;
	return buf;
}

uint8_t *
t_dup(const void *p, size_t n)
{
	uint8_t *q = malloc(n != 0 ? n : 1);

	ck_assert_ptr_nonnull(q);
	if (n != 0)
		memcpy(q, p, n);
	return q;
}

size_t
t_count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

void
t_unhex(uint8_t *out, size_t outlen, const char *hex)
{
	size_t got = 0;

	ck_assert_int_eq(sodium_hex2bin(out, outlen, hex, strlen(hex), NULL,
	    &got, NULL), 0);
	ck_assert_uint_eq(got, outlen);
}
