/*
 * batsec_keys.h — key and certificate files: formats, loading with
 * permission checks, atomic writing.  No knowledge of the daemon.
 *
 * Formats ('\n' terminated lines; a missing final newline is accepted,
 * anything after it is not; no other whitespace, no '\r', no comments):
 *   secret key   base64 (standard alphabet, padded) of the 32-byte seed;
 *                file mode must not give group or others any access
 *   public key   base64 of the 32-byte Ed25519 public key
 *   certificate  "-----BEGIN BATSEC CERTIFICATE-----"
 *                base64 of the BS_CERT_LEN canonical bytes (one line)
 *                "-----END BATSEC CERTIFICATE-----"
 *   revocation   same armour with "BATSEC REVOCATION"
 *                (base64 of the BS_REVOKE_LEN canonical bytes)
 * Base64 is always libsodium's sodium_base64_VARIANT_ORIGINAL: standard
 * alphabet, '=' padding required, unused bits zero (one text per value).
 *
 * Every loader returns 0 on success or -1 with a one-line message in
 * err (of errlen bytes) that names the file and the problem, e.g.
 *   "/etc/batsec/node.key: accessible by group or others (mode 0644); run
 *    chmod 600 /etc/batsec/node.key"
 */
#ifndef BATSEC_KEYS_H
#define BATSEC_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

#define BS_KEY_B64_LEN	44	/* base64 of 32 bytes, padded */
#define BS_KEYFILE_MAX	4096	/* larger files are refused unread */
#define BS_ARMOR_MAX	512	/* buffer for either armoured text, with NUL */

/* Base64 (standard, padded) of exactly 32 bytes; out gets 44 chars + NUL. */
void bs_key_to_b64(char out[static BS_KEY_B64_LEN + 1],
    const uint8_t key[static 32]);
/* Strict: exactly 44 chars of valid padded base64 decoding to 32 bytes. */
int bs_key_from_b64(uint8_t key[static 32], const char *s, size_t len);

/*
 * Generic base64 helpers for the armoured formats.  bs_b64_encode writes
 * the text and a NUL and returns its length (without the NUL), or -1 when
 * outlen is too small.
 */
int bs_b64_encode(char *out, size_t outlen, const uint8_t *in, size_t inlen);
/* Returns decoded length, or -1 on invalid input / not exactly outlen bytes. */
int bs_b64_decode_exact(uint8_t *out, size_t outlen, const char *in,
    size_t inlen);

/* Secret key file. */
int bs_seckey_load(const char *path, struct bs_identity *id, char *err,
    size_t errlen);
/* Parse secret key file content already in memory (no mode check). */
int bs_seckey_parse(const char *buf, size_t len, uint8_t seed[static 32],
    const char *name, char *err, size_t errlen);
/*
 * Atomic write (bs_file_write), mode 0600; the file holds the base64 seed
 * and a newline.  flags: 0 or BS_FILE_NOREPLACE.  _save is _write with 0.
 */
int bs_seckey_write(const char *path, const struct bs_identity *id, int flags,
    char *err, size_t errlen);
int bs_seckey_save(const char *path, const struct bs_identity *id, char *err,
    size_t errlen);

/*
 * Public key: a file, or the base64 text itself when no file of that name
 * exists and the argument is 44 characters of valid base64.
 */
int bs_pubkey_load(const char *path, uint8_t pk[static BS_PK_LEN], char *err,
    size_t errlen);
int bs_pubkey_parse(const char *buf, size_t len, uint8_t pk[static BS_PK_LEN],
    const char *name, char *err, size_t errlen);

/* Certificates. */
int bs_cert_load(const char *path, struct bs_cert *c, char *err,
    size_t errlen);
int bs_cert_parse_armor(const char *buf, size_t len, struct bs_cert *c,
    const char *name, char *err, size_t errlen);
/* Armoured text and a NUL into out; returns its length (without NUL) or -1. */
int bs_cert_to_armor(char *out, size_t outlen, const struct bs_cert *c);
/* Atomic write, mode 0644, as bs_seckey_write and bs_seckey_save. */
int bs_cert_write(const char *path, const struct bs_cert *c, int flags,
    char *err, size_t errlen);
int bs_cert_save(const char *path, const struct bs_cert *c, char *err,
    size_t errlen);

/* Revocation records, same shape as certificates. */
int bs_revoke_parse_armor(const char *buf, size_t len, struct bs_revoke *r,
    const char *name, char *err, size_t errlen);
int bs_revoke_to_armor(char *out, size_t outlen, const struct bs_revoke *r);
int bs_revoke_load(const char *path, struct bs_revoke *r, char *err,
    size_t errlen);
/* Atomic write, mode 0644, as bs_seckey_write and bs_seckey_save. */
int bs_revoke_write(const char *path, const struct bs_revoke *r, int flags,
    char *err, size_t errlen);
int bs_revoke_save(const char *path, const struct bs_revoke *r, char *err,
    size_t errlen);

/*
 * Read a whole small file (at most BS_KEYFILE_MAX and at most buflen bytes)
 * into buf; returns the length or -1 with err set.  The buffer is not NUL
 * terminated.  Anything but a regular file (directory, FIFO, device) is
 * refused; if secret is non-zero, so is a symbolic link (O_NOFOLLOW) and
 * a file that bs_file_check_perms refuses as secret.
 */
int bs_file_read_small(const char *path, char *buf, size_t buflen, int secret,
    char *err, size_t errlen);
/*
 * Owner and mode of a file or directory someone relies on (from fstat of
 * the open file): owned by root or by the effective user (the daemon's
 * user, or whoever runs batsec-ctl), and not writable by group or others;
 * with secret, not readable or searchable by them either.  0, or -1 with
 * "PATH: ..." and the command that fixes it in err.
 */
int bs_file_check_perms(const char *path, uint32_t uid, uint32_t mode,
    int secret, char *err, size_t errlen);

/* bs_file_write: refuse to replace an existing path (errno EEXIST). */
#define BS_FILE_NOREPLACE	0x1

/*
 * Write data atomically: path.tmp.XXXXXX in the same directory with exactly
 * the given mode (umask does not apply), write all, fsync, rename over path,
 * fsync the directory.  On failure before the rename the temporary file is
 * removed and path is untouched.  A symlink at path is replaced, not
 * followed.  Used for keys, certificates and (by the daemon) policy and
 * state files.  0 or -1 with err set.
 *
 * With BS_FILE_NOREPLACE the temporary file is published with link(2)
 * instead of rename(2): an existing path (a symlink too, even a dangling
 * one) is never replaced, however a race with another writer goes; the
 * call fails with errno EEXIST and "PATH: already exists" in err.  A path
 * that cannot be created is reported as "PATH: cannot create: REASON".
 */
int bs_file_write(const char *path, const void *data, size_t len,
    unsigned mode, int flags, char *err, size_t errlen);
/* bs_file_write with flags 0. */
int bs_file_write_atomic(const char *path, const void *data, size_t len,
    unsigned mode, char *err, size_t errlen);
/*
 * write(2) all len bytes of buf to fd, retrying on EINTR and after short
 * writes (a secret then never sits in a stdio buffer).  0, or -1 with errno.
 */
int bs_fd_write_all(int fd, const void *buf, size_t len);

/*
 * fsync the directory that holds path, so a rename or link there survives
 * a power cut (EINVAL from file systems that cannot sync a directory is not
 * an error).  0 or -1 with err set.
 */
int bs_file_sync_dir(const char *path, char *err, size_t errlen);

/* "xx:xx:xx:xx:xx:xx" (18 bytes with NUL). */
void bs_addr_to_str(char out[static 18], const uint8_t addr[static 6]);

#endif /* BATSEC_KEYS_H */
