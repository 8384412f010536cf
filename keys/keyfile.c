/*
 * keyfile.c — secret and public key files: one line of base64.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <sodium.h>

#include "batsec_keys.h"
#include "keys_impl.h"

/*
 * Parse "<44 chars of base64>[\n]" holding 32 bytes into key.  `what`
 * names the content in messages ("secret key", "public key").
 */
static int
keyfile_parse_line(const char *buf, size_t len, uint8_t key[static 32],
    const char *what, const char *name, char *err, size_t errlen)
{
	const char *nl;
	size_t line;

	name = keys_name(name);
	if (buf == NULL || len == 0) {
		keys_errf(err, errlen, "%s: empty file, expected a %s", name,
		    what);
		return -1;
	}
	nl = memchr(buf, '\n', len);
	line = nl != NULL ? (size_t)(nl - buf) : len;
	if (nl != NULL && line + 1 != len) {
		keys_errf(err, errlen, "%s: unexpected data after the %s line",
		    name, what);
		return -1;
	}
	if (line != BS_KEY_B64_LEN) {
		keys_errf(err, errlen, "%s: %s is %zu characters long, "
		    "expected %d", name, what, line, BS_KEY_B64_LEN);
		return -1;
	}
	if (bs_key_from_b64(key, buf, line) != 0) {
		keys_errf(err, errlen, "%s: %s is not valid base64 of 32 bytes",
		    name, what);
		return -1;
	}
	return 0;
}

int
bs_seckey_parse(const char *buf, size_t len, uint8_t seed[static 32],
    const char *name, char *err, size_t errlen)
{
	return keyfile_parse_line(buf, len, seed, "secret key", name, err,
	    errlen);
}

int
bs_pubkey_parse(const char *buf, size_t len, uint8_t pk[static BS_PK_LEN],
    const char *name, char *err, size_t errlen)
{
	return keyfile_parse_line(buf, len, pk, "public key", name, err,
	    errlen);
}

int
bs_seckey_load(const char *path, struct bs_identity *id, char *err,
    size_t errlen)
{
	char buf[BS_KEYFILE_MAX];
	uint8_t seed[BS_SEED_LEN];
	int n, rc = -1;

	n = bs_file_read_small(path, buf, sizeof(buf), 1, err, errlen);
	if (n < 0)
		goto out;
	if (bs_seckey_parse(buf, (size_t)n, seed, path, err, errlen) != 0)
		goto out;
	if (bs_identity_from_seed(id, seed) != 0) {
		keys_errf(err, errlen, "%s: cannot derive the key pair", path);
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(buf, sizeof(buf));
	sodium_memzero(seed, sizeof(seed));
	return rc;
}

int
bs_seckey_write(const char *path, const struct bs_identity *id, int flags,
    char *err, size_t errlen)
{
	char line[BS_KEY_B64_LEN + 2];
	int rc;

	bs_key_to_b64(line, id->seed);
	line[BS_KEY_B64_LEN] = '\n';
	line[BS_KEY_B64_LEN + 1] = '\0';
	rc = bs_file_write(path, line, BS_KEY_B64_LEN + 1, 0600, flags, err,
	    errlen);
	sodium_memzero(line, sizeof(line));
	return rc;
}

int
bs_seckey_save(const char *path, const struct bs_identity *id, char *err,
    size_t errlen)
{
	return bs_seckey_write(path, id, 0, err, errlen);
}

/*
 * 1 when arg should be read as the key text itself: no file of that name
 * exists and it is exactly 44 characters of valid base64.
 */
static int
keyfile_is_key_text(const char *arg, uint8_t pk[static BS_PK_LEN])
{
	struct stat st;

	if (strnlen(arg, BS_KEY_B64_LEN + 1) != BS_KEY_B64_LEN)
		return 0;
	if (stat(arg, &st) == 0 || (errno != ENOENT && errno != ENOTDIR))
		return 0;
	return bs_key_from_b64(pk, arg, BS_KEY_B64_LEN) == 0;
}

int
bs_pubkey_load(const char *path, uint8_t pk[static BS_PK_LEN], char *err,
    size_t errlen)
{
	char buf[BS_KEYFILE_MAX];
	int n;

	if (path == NULL) {
		keys_errf(err, errlen, "(null): no public key given");
		return -1;
	}
	if (keyfile_is_key_text(path, pk))
		return 0;
	n = bs_file_read_small(path, buf, sizeof(buf), 0, err, errlen);
	if (n < 0)
		return -1;
	return bs_pubkey_parse(buf, (size_t)n, pk, path, err, errlen);
}
