/*
 * fileio.c — reading small trusted files with permission checks, and the
 * one atomic file writer: keys, certificates, policy and state files, and
 * batsec-ctl's files that must not replace an existing one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batsec_keys.h"
#include "keys_impl.h"

/* What kind of non-regular file st describes, for messages. */
static const char *
fileio_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return "a device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

/* Check type, mode and size of an open file; 0 or -1 with err set. */
static int
fileio_check(const char *path, const struct stat *st, size_t limit,
    int secret, char *err, size_t errlen)
{
	if (!S_ISREG(st->st_mode)) {
		keys_errf(err, errlen, "%s: is %s, expected a regular file",
		    path, fileio_kind(st));
		return -1;
	}
	if (secret && bs_file_check_perms(path, (uint32_t)st->st_uid,
	    (uint32_t)st->st_mode, 1, err, errlen) != 0)
		return -1;
	if (st->st_size < 0 || (unsigned long long)st->st_size > limit) {
		keys_errf(err, errlen, "%s: too large (%lld bytes, at most %zu)",
		    path, (long long)st->st_size, limit);
		return -1;
	}
	return 0;
}

int
bs_file_check_perms(const char *path, uint32_t uid, uint32_t mode,
    int secret, char *err, size_t errlen)
{
	uint32_t me = (uint32_t)geteuid();

	if (uid != 0 && uid != me) {
		keys_errf(err, errlen, "%s: owned by uid %u, not by root or "
		    "uid %u (this user); run chown root %s", path,
		    (unsigned)uid, (unsigned)me, path);
		return -1;
	}
	if (secret && (mode & 077) != 0) {
		keys_errf(err, errlen, "%s: accessible by group or others "
		    "(mode %04o); run chmod 600 %s", path,
		    (unsigned)(mode & 07777), path);
		return -1;
	}
	if ((mode & 022) != 0) {
		keys_errf(err, errlen, "%s: writable by group or others "
		    "(mode %04o); run chmod go-w %s", path,
		    (unsigned)(mode & 07777), path);
		return -1;
	}
	return 0;
}

/* read(2) until len bytes or end of file, retrying on EINTR. */
static ssize_t
fileio_read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t r;

	while (got < len) {
		r = read(fd, buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Read the open file into buf; the length or -1 with err set. */
static int
fileio_read_fd(int fd, const char *path, char *buf, size_t limit,
    char *err, size_t errlen)
{
	ssize_t n;
	char extra;

	n = fileio_read_all(fd, buf, limit);
	if (n < 0) {
		keys_errf(err, errlen, "%s: read failed: %s", path,
		    strerror(errno));
		return -1;
	}
	/* The file may have grown since fstat: refuse rather than truncate. */
	if ((size_t)n == limit && fileio_read_all(fd, &extra, 1) != 0) {
		keys_errf(err, errlen, "%s: too large (more than %zu bytes)",
		    path, limit);
		return -1;
	}
	return (int)n;
}

int
bs_file_read_small(const char *path, char *buf, size_t buflen, int secret,
    char *err, size_t errlen)
{
	size_t limit = buflen < BS_KEYFILE_MAX ? buflen : BS_KEYFILE_MAX;
	struct stat st;
	int fd, n = -1;

	if (path == NULL || (buf == NULL && buflen != 0)) {
		keys_errf(err, errlen, "(null): no file name");
		return -1;
	}
	/* O_NONBLOCK: opening a FIFO must not hang; it is refused below.
	 * A secret is never read through a symbolic link. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
	    (secret ? O_NOFOLLOW : 0));
	if (fd < 0 && secret && errno == ELOOP) {
		keys_errf(err, errlen, "%s: is a symbolic link; a secret key "
		    "file must be named by its own path", path);
		return -1;
	}
	if (fd < 0) {
		keys_errf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0)
		keys_errf(err, errlen, "%s: cannot stat: %s", path,
		    strerror(errno));
	else if (fileio_check(path, &st, limit, secret, err, errlen) == 0)
		n = fileio_read_fd(fd, path, buf, limit, err, errlen);
	(void)close(fd);
	return n;
}

int
bs_fd_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *data = buf;
	ssize_t w;

	while (len > 0) {
		w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

static int
fileio_fsync(int fd)
{
	while (fsync(fd) != 0) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

/*
 * Make the rename durable by syncing the directory that holds path.  Some
 * file systems cannot sync a directory (EINVAL); that is not an error.
 */
int
bs_file_sync_dir(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc = 0;

	if (slash == NULL)
		(void)snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		(void)snprintf(dir, sizeof(dir), "/");
	else
		(void)snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path),
		    path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (fileio_fsync(fd) != 0 && errno != EINVAL)) {
		keys_errf(err, errlen, "%s: cannot sync directory %s: %s",
		    path, dir, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		(void)close(fd);
	return rc;
}

/* Fill the new temporary file; 0 or -1 with err set (file left in place). */
static int
fileio_fill_tmp(int fd, const char *tmp, const void *data, size_t len,
    unsigned mode, char *err, size_t errlen)
{
	/* fchmod, not the umask-filtered creation mode: exactly `mode`. */
	if (fchmod(fd, (mode_t)mode) != 0) {
		keys_errf(err, errlen, "%s: cannot set mode %04o: %s", tmp,
		    mode, strerror(errno));
		return -1;
	}
	if (bs_fd_write_all(fd, data, len) != 0) {
		keys_errf(err, errlen, "%s: write failed: %s", tmp,
		    strerror(errno));
		return -1;
	}
	if (fileio_fsync(fd) != 0) {
		keys_errf(err, errlen, "%s: fsync failed: %s", tmp,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Publish the filled temporary file tmp under path: rename(2) over it, or
 * with BS_FILE_NOREPLACE link(2), which fails with EEXIST when path exists
 * however a race with another writer goes; the temporary name is then
 * removed.  0, or -1 with err and errno set (tmp left in place).
 */
static int
fileio_publish(const char *tmp, const char *path, int flags, char *err,
    size_t errlen)
{
	int e;

	if ((flags & BS_FILE_NOREPLACE) == 0) {
		if (rename(tmp, path) == 0)
			return 0;
		e = errno;
		keys_errf(err, errlen, "%s: cannot rename %s over it: %s",
		    path, tmp, strerror(e));
	} else {
		if (link(tmp, path) == 0) {
			(void)unlink(tmp);
			return 0;
		}
		e = errno;
		if (e == EEXIST)
			keys_errf(err, errlen, "%s: already exists", path);
		else
			keys_errf(err, errlen, "%s: cannot create: %s", path,
			    strerror(e));
	}
	errno = e;
	return -1;
}

int
bs_file_write(const char *path, const void *data, size_t len, unsigned mode,
    int flags, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	int fd, n, e;

	if (path == NULL || *path == '\0' || (data == NULL && len != 0)) {
		keys_errf(err, errlen, "(null): no file name or data");
		return -1;
	}
	if ((mode & ~07777u) != 0) {
		keys_errf(err, errlen, "%s: invalid file mode %o", path, mode);
		return -1;
	}
	n = snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		keys_errf(err, errlen, "%s: path too long", path);
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		/* A file that must be new cannot be created at all. */
		keys_errf(err, errlen, "%s: cannot create%s: %s", path,
		    flags & BS_FILE_NOREPLACE ? "" : " temporary file",
		    strerror(errno));
		return -1;
	}
	if (fileio_fill_tmp(fd, tmp, data, len, mode, err, errlen) != 0) {
		(void)close(fd);
		goto fail;
	}
	if (close(fd) != 0) {
		keys_errf(err, errlen, "%s: close failed: %s", tmp,
		    strerror(errno));
		goto fail;
	}
	if (fileio_publish(tmp, path, flags, err, errlen) != 0)
		goto fail;
	return bs_file_sync_dir(path, err, errlen);
fail:
	e = errno;
	(void)unlink(tmp);
	errno = e;
	return -1;
}

int
bs_file_write_atomic(const char *path, const void *data, size_t len,
    unsigned mode, char *err, size_t errlen)
{
	return bs_file_write(path, data, len, mode, 0, err, errlen);
}
