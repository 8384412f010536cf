/*
 * state.c — the state directory, the persisted epoch, and reading the
 * stores of lines other modules keep there (state.h).
 */
#include <sys/stat.h>
#include <sys/vfs.h>

#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "batsec_keys.h"
#include "state.h"

/*
 * dir must be a directory itself (lstat: a symbolic link is refused, it
 * could point anywhere), owned by `owner` and not writable by group or
 * others.
 */
static int
state_check_dir(const char *dir, uid_t owner, const char *what, char *err,
    size_t errlen)
{
	struct stat st;

	if (lstat(dir, &st) != 0)
		return log_errf(err, errlen, "%s %s: %s", what, dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return log_errf(err, errlen, "%s %s: not a directory", what,
		    dir);
	if (st.st_uid != owner)
		return log_errf(err, errlen, "%s %s: owned by uid %u, not %u",
		    what, dir, (unsigned)st.st_uid, (unsigned)owner);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return log_errf(err, errlen, "%s %s: writable by group or "
		    "others (mode %04o)", what, dir,
		    (unsigned)(st.st_mode & 07777));
	return 0;
}

/* mkdir with exactly mode (umask does not apply); 1 created, 0 existed. */
static int
state_mkdir(const char *dir, mode_t mode, const char *what, char *err,
    size_t errlen)
{
	if (mkdir(dir, mode) != 0) {
		if (errno == EEXIST)
			return 0;
		return log_errf(err, errlen, "%s %s: cannot create: %s",
		    what, dir, strerror(errno));
	}
	if (chmod(dir, mode) != 0)
		return log_errf(err, errlen, "%s %s: chmod: %s", what, dir,
		    strerror(errno));
	return 1;
}

int
state_dir_open(const char *dir, char *err, size_t errlen)
{
	if (state_mkdir(dir, 0700, "state directory", err, errlen) < 0)
		return -1;
	return state_check_dir(dir, geteuid(), "state directory", err,
	    errlen);
}

/* ---- epoch ---------------------------------------------------------------- */

int
state_clock_plausible(uint64_t now_s)
{
	return now_s >= STATE_CLOCK_MIN && now_s <= STATE_SEED_MAX;
}

enum state_epoch_how
state_epoch_decide(enum bs_epoch_seed mode, uint32_t old, int have_old,
    uint64_t now_s, int on_tmpfs, uint32_t *out)
{
	if (have_old) {
		if (old == UINT32_MAX)
			return STATE_EPOCH_LAST;
		*out = old + 1;
		return STATE_EPOCH_COUNTED;
	}
	if (mode != BS_EPOCH_SEED_NONE && state_clock_plausible(now_s)) {
		*out = (uint32_t)now_s;
		return STATE_EPOCH_CLOCK;
	}
	if (mode == BS_EPOCH_SEED_CLOCK)
		return STATE_EPOCH_WAIT;
	if (mode == BS_EPOCH_SEED_AUTO && on_tmpfs)
		return STATE_EPOCH_REFUSED;
	*out = 1;
	return STATE_EPOCH_FIRST;
}

int
state_fs_volatile(long f_type)
{
	return f_type == (long)TMPFS_MAGIC || f_type == (long)RAMFS_MAGIC;
}

void
state_clock_text(uint64_t now_s, char *buf, size_t len)
{
	time_t t = (time_t)now_s;
	struct tm tm;

	if ((uint64_t)t != now_s || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, len, "%llu s", (unsigned long long)now_s);
}

/* 1 when dir forgets its files at every boot, 0 when not, -1 on error. */
static int
state_on_tmpfs(const char *dir, char *err, size_t errlen)
{
	struct statfs sf;

	if (statfs(dir, &sf) != 0)
		return log_errf(err, errlen, "state directory %s: statfs: %s",
		    dir, strerror(errno));
	return state_fs_volatile((long)sf.f_type);
}

int
state_epoch_parse(const char *buf, size_t len, uint32_t *out,
    const char *name, char *err, size_t errlen)
{
	uint64_t v = 0;
	size_t i;

	if (len < 2 || buf[len - 1] != '\n')
		return log_errf(err, errlen, "%s: expected a number and a "
		    "newline", name);
	if (buf[0] == '0' && len != 2)
		return log_errf(err, errlen, "%s: leading zero", name);
	for (i = 0; i + 1 < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return log_errf(err, errlen, "%s: byte %zu is not a "
			    "digit", name, i);
		v = v * 10 + (uint64_t)(buf[i] - '0');
		if (v > UINT32_MAX)
			return log_errf(err, errlen, "%s: epoch above %u",
			    name, UINT32_MAX);
	}
	*out = (uint32_t)v;
	return 0;
}

/* Reads path: 1 with *epoch, 0 when there is no file, -1 on error. */
static int
state_epoch_read(const char *path, uint32_t *epoch, char *err, size_t errlen)
{
	char buf[STATE_EPOCH_TEXT_MAX];
	struct stat st;
	int n;

	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		return log_errf(err, errlen, "%s: %s", path,
		    strerror(errno));
	}
	n = bs_file_read_small(path, buf, sizeof(buf), 0, err, errlen);
	if (n < 0)
		return -1;
	if (state_epoch_parse(buf, (size_t)n, epoch, path, err, errlen) != 0)
		return -1;
	return 1;
}

int
state_epoch_bump(const char *dir, enum bs_epoch_seed mode, uint64_t now_s,
    uint32_t *epoch, enum state_epoch_how *how, char *err, size_t errlen)
{
	char path[4096], text[STATE_EPOCH_TEXT_MAX], clk[48];
	uint32_t old = 0, next = 0;
	int have, tmpfs, n;

	n = snprintf(path, sizeof(path), "%s/%s", dir, STATE_EPOCH_FILE);
	if (n < 0 || (size_t)n >= sizeof(path))
		return log_errf(err, errlen, "%s: path too long", dir);
	if ((tmpfs = state_on_tmpfs(dir, err, errlen)) < 0 ||
	    (have = state_epoch_read(path, &old, err, errlen)) < 0)
		return -1;
	*how = state_epoch_decide(mode, old, have, now_s, tmpfs, &next);
	switch (*how) {
	case STATE_EPOCH_WAIT:
		return 1;
	case STATE_EPOCH_REFUSED:
		state_clock_text(now_s, clk, sizeof(clk));
		return log_errf(err, errlen, "state directory %s is on tmpfs "
		    "or ramfs and holds no epoch file, and the clock reads %s "
		    "(not 2024 to 2105): the epoch would start at 1 again after "
		    "every boot, and frames recorded earlier could be "
		    "replayed; keep state-dir on persistent storage, or set "
		    "epoch-seed clock (wait for the clock) or epoch-seed "
		    "none (labs only) (batsec.conf(5))", dir, clk);
	case STATE_EPOCH_LAST:
		return log_errf(err, errlen, "%s: epoch %u is the last one; "
		    "this node needs a new key", path, old);
	case STATE_EPOCH_COUNTED:
	case STATE_EPOCH_CLOCK:
	case STATE_EPOCH_FIRST:
		break;
	}
	n = snprintf(text, sizeof(text), "%u\n", next);
	if (bs_file_write_atomic(path, text, (size_t)n, 0600, err, errlen) != 0)
		return -1;
	*epoch = next;
	return 0;
}

/* ---- stores of lines -------------------------------------------------------- */

/*
 * Read a regular file (not a symlink) of at most max bytes into a new
 * buffer (free it), *len its size.  NULL with err.
 */
static char *
state_read_file(const char *path, size_t max, size_t *len, char *err,
    size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	ssize_t n;
	size_t got = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		log_errf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (size_t)st.st_size > max) {
		log_errf(err, errlen, "%s: not a regular file of at "
		    "most %zu bytes", path, max);
		goto out;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		log_errf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	while (got < (size_t)st.st_size &&
	    (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	if (got != (size_t)st.st_size) {
		log_errf(err, errlen, "%s: short read", path);
		free(buf);
		buf = NULL;
		goto out;
	}
	*len = got;
out:
	close(fd);
	return buf;
}

void
state_lines(const char *path, const char *buf, size_t len, state_line_fn *fn,
    void *arg)
{
	size_t pos = 0, end, lineno = 0;

	while (pos < len) {
		end = pos;
		while (end < len && buf[end] != '\n')
			end++;
		fn(arg, path, ++lineno, buf + pos, end - pos);
		pos = end + 1;
	}
}

int
state_read_lines(const char *path, size_t max, state_line_fn *fn,
    void *arg, char *err, size_t errlen)
{
	size_t len = 0;
	struct stat st;
	char *buf;

	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	if ((buf = state_read_file(path, max, &len, err, errlen)) == NULL)
		return -1;
	state_lines(path, buf, len, fn, arg);
	free(buf);
	return 1;
}
