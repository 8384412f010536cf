/*
 * ctl_files.c — the key, certificate and record arguments of batsec-ctl:
 * base64 text, a file, or "-" for stdin (read once); and saving a new
 * key, certificate or record file with the keys library's atomic writer,
 * which refuses to replace an existing file unless -f was given.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "ctl_files.h"
#include "ctl_util.h"

/* ---- reading ----------------------------------------------------------- */

/*
 * Read all of stdin into buf (at most BS_KEYFILE_MAX bytes); the length,
 * or -1 after reporting.  Only one argument may name stdin.
 */
static ssize_t
ctl_read_stdin(struct ctl *ctl, char *buf, size_t buflen)
{
	size_t got = 0, limit = buflen - 1;
	ssize_t r;

	if (ctl->stdin_used) {
		ctl_warnx("only one argument can be read from stdin");
		return -1;
	}
	ctl->stdin_used = 1;
	for (;;) {
		r = read(STDIN_FILENO, buf + got, buflen - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ctl_warnx(CTL_STDIN_NAME ": read failed: %s",
			    strerror(errno));
			return -1;
		}
		if (r == 0)
			return (ssize_t)got;
		got += (size_t)r;
		if (got > limit) {
			ctl_warnx(CTL_STDIN_NAME ": more than %zu bytes",
			    limit);
			return -1;
		}
	}
}

/* The identity in secret key file path ("-": stdin); 0 or exit status. */
int
ctl_load_seckey(struct ctl *ctl, const char *path, struct bs_identity *id)
{
	char buf[BS_KEYFILE_MAX + 1], err[CTL_ERRLEN];
	uint8_t seed[BS_SEED_LEN];
	ssize_t n;
	int rc = CTL_EXIT_FAIL;

	if (strcmp(path, "-") != 0)
		return bs_seckey_load(path, id, err, sizeof(err)) == 0 ?
		    CTL_EXIT_OK : ctl_fail(err);
	n = ctl_read_stdin(ctl, buf, sizeof(buf));
	if (n < 0)
		goto out;
	if (bs_seckey_parse(buf, (size_t)n, seed, CTL_STDIN_NAME, err,
	    sizeof(err)) != 0) {
		(void)ctl_fail(err);
		goto out;
	}
	if (bs_identity_from_seed(id, seed) != 0) {
		ctl_warnx(CTL_STDIN_NAME ": cannot derive the key pair");
		goto out;
	}
	rc = CTL_EXIT_OK;
out:
	sodium_memzero(buf, sizeof(buf));
	sodium_memzero(seed, sizeof(seed));
	return rc;
}

/*
 * Load a public key argument that is not "-": key text or a file.  When
 * no such file exists, say that the text is not a key either, rather than
 * only "No such file".
 */
static int
ctl_load_pubkey_arg(const char *arg, uint8_t pk[BS_PK_LEN])
{
	char err[CTL_ERRLEN];
	struct stat st;

	if (bs_pubkey_load(arg, pk, err, sizeof(err)) == 0)
		return CTL_EXIT_OK;
	if (lstat(arg, &st) != 0 && errno == ENOENT) {
		ctl_warnx("%s: not a base64 public key (%d characters) "
		    "and no such file", arg, BS_KEY_B64_LEN);
		return CTL_EXIT_FAIL;
	}
	return ctl_fail(err);
}

/*
 * A public key given as base64 text, a public key file, or "-" (stdin).
 * An existing file of the same name as valid key text wins (bs_pubkey_load).
 * The key must be a valid Ed25519 point of the main subgroup, so garbage
 * (or a secret key read as a public key, half of the time) is refused.
 */
int
ctl_load_pubkey(struct ctl *ctl, const char *arg, uint8_t pk[BS_PK_LEN])
{
	char buf[BS_KEYFILE_MAX + 1], err[CTL_ERRLEN];
	const char *name = arg;
	ssize_t n;

	if (strcmp(arg, "-") != 0) {
		if (ctl_load_pubkey_arg(arg, pk) != 0)
			return CTL_EXIT_FAIL;
	} else {
		name = CTL_STDIN_NAME;
		n = ctl_read_stdin(ctl, buf, sizeof(buf));
		if (n < 0)
			return CTL_EXIT_FAIL;
		if (bs_pubkey_parse(buf, (size_t)n, pk, name, err,
		    sizeof(err)) != 0)
			return ctl_fail(err);
	}
	if (crypto_core_ed25519_is_valid_point(pk) != 1) {
		ctl_warnx("%s: not a valid Ed25519 public key", name);
		return CTL_EXIT_FAIL;
	}
	return CTL_EXIT_OK;
}

/* A certificate from an armoured file or "-" (stdin). */
int
ctl_load_cert(struct ctl *ctl, const char *arg, struct bs_cert *c)
{
	char buf[BS_KEYFILE_MAX + 1], err[CTL_ERRLEN];
	ssize_t n;

	if (strcmp(arg, "-") != 0)
		return bs_cert_load(arg, c, err, sizeof(err)) == 0 ?
		    CTL_EXIT_OK : ctl_fail(err);
	n = ctl_read_stdin(ctl, buf, sizeof(buf));
	if (n < 0)
		return CTL_EXIT_FAIL;
	if (bs_cert_parse_armor(buf, (size_t)n, c, CTL_STDIN_NAME, err,
	    sizeof(err)) != 0)
		return ctl_fail(err);
	return CTL_EXIT_OK;
}

/* ---- saving ------------------------------------------------------------ */

int
ctl_write_seckey(const char *path, const void *obj, int flags, char *err,
    size_t errlen)
{
	return bs_seckey_write(path, obj, flags, err, errlen);
}

int
ctl_write_cert(const char *path, const void *obj, int flags, char *err,
    size_t errlen)
{
	return bs_cert_write(path, obj, flags, err, errlen);
}

int
ctl_write_revoke(const char *path, const void *obj, int flags, char *err,
    size_t errlen)
{
	return bs_revoke_write(path, obj, flags, err, errlen);
}

int
ctl_save(const char *path, int force, ctl_write_fn *writer, const void *obj)
{
	char err[CTL_ERRLEN];

	if (writer(path, obj, force ? 0 : BS_FILE_NOREPLACE, err,
	    sizeof(err)) == 0)
		return CTL_EXIT_OK;
	if (!force && errno == EEXIST)
		ctl_warnx("%s; use -f to replace it", err);
	else
		ctl_warnx("%s", err);
	return CTL_EXIT_FAIL;
}
