/*
 * ctl_files.h — the key, certificate and record arguments of batsec-ctl
 * (base64 text, a file, or "-" for stdin) and saving new files.
 */
#ifndef BATSEC_CTL_FILES_H
#define BATSEC_CTL_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "ctl.h"

/* How messages name standard input. */
#define CTL_STDIN_NAME		"<stdin>"

/*
 * Each loader returns 0 or an exit status after reporting.  Only one
 * argument of a command may be "-" (stdin).
 */
/* The identity in the secret key file path, or stdin. */
int	ctl_load_seckey(struct ctl *ctl, const char *path,
	    struct bs_identity *id);
/* A valid Ed25519 public key: base64 text, a public key file or stdin. */
int	ctl_load_pubkey(struct ctl *ctl, const char *arg,
	    uint8_t pk[BS_PK_LEN]);
/* A certificate from an armoured file or stdin. */
int	ctl_load_cert(struct ctl *ctl, const char *arg, struct bs_cert *c);

/* A writer of the keys library (bs_*_write) for ctl_save. */
typedef int ctl_write_fn(const char *path, const void *obj, int flags,
    char *err, size_t errlen);
ctl_write_fn ctl_write_seckey, ctl_write_cert, ctl_write_revoke;

/*
 * Write obj to path atomically with writer; an existing file is replaced
 * only when force is set.  0 or an exit status after reporting.
 */
int	ctl_save(const char *path, int force, ctl_write_fn *writer,
	    const void *obj);

#endif /* BATSEC_CTL_FILES_H */
