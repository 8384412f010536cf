/*
 * fwd_trust.h — trust management in the forwarder: live policy edits from
 * the control socket (written atomically, pushed to the parser at once),
 * the node's own certificate (sent in HELLOs and OGMs), and CA-signed
 * revocation records (kept in the state directory, carried in our OGMs,
 * learnt from the parser).  batsec-policy(5) and batsec-ctl(8) describe
 * what users see.
 *
 * The forwarder's policy (struct fwd.policy) is always what the policy
 * file says.  What the parser gets is that policy plus a `revoke` entry
 * for every stored revocation record that counts under it now
 * (fwd_trust_effective; bs_policy_revoke_problem, and the issuer not an
 * anchor revoked by another record), judged again at every change of
 * the policy; fwd_trust_push() queues it to the parser after every
 * change.
 *
 * Every change of the policy or of the revocations in force calls
 * f->trust.changed, when registered (forwarder_handlers: fwd_admit_sync,
 * which removes what the new policy refuses from the tables), before the
 * new snapshot is queued to the parser.
 *
 * The module's state is struct fwd_trust (fwd_types.h), f->trust.
 */
#ifndef BATSEC_FWD_TRUST_H
#define BATSEC_FWD_TRUST_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"
#include "proto/ctlproto.h"

struct bs_policy;
struct ctl_reply;
struct fwd;
struct fwd_trust;
union ipc_payload;

/* Revocation records kept at most; none is dropped to make room, only
 * expired ones leave (fwd_trust_tick). */
#define FWD_TRUST_REVOKE_MAX	1024
/* The file in the state directory: one base64 record per line. */
#define FWD_TRUST_REVOKE_FILE	"revocations"
/* The node certificate: the key file's path with this appended. */
#define FWD_TRUST_CERT_SUFFIX	".cert"
/* After start-up or a new certificate, it rides on this many OGMs. */
#define FWD_TRUST_CERT_BURST	3
/* A clock before 2024-01-01 is taken as none: records do not expire. */
#define FWD_TRUST_CLOCK_MIN	1704067200
/* How often expired revocation records are looked for, ms. */
#define FWD_TRUST_REV_CHECK_MS	60000
/* Policy file mode when the file does not exist yet. */
#define FWD_TRUST_POLICY_MODE	0644

/*
 * Start-up, after the policy was loaded and the state directory opened:
 * the own certificate (if KEY.cert exists; a malformed one, or one for
 * another key, is an error) and the stored revocation records (a bad
 * line is logged and skipped).  0, or -1 with err set.
 */
int	fwd_trust_start(struct fwd *f, char *err, size_t errlen);
/* Free what fwd_trust_start allocated. */
void	fwd_trust_stop(struct fwd *f);

/*
 * Once every FWD_TRUST_REV_CHECK_MS: revocation records that have expired
 * (their issuer's revocation-days, batsec-policy(5)) leave the store and
 * the file, and the parser gets a new snapshot.
 */
void	fwd_trust_tick(struct fwd *f, uint64_t now_ms);

/*
 * Read the policy file again (SIGHUP, `batsec-ctl reload`) and the own
 * certificate.  On a parse error the running policy stays and err holds
 * "FILE:LINE: ..."; 0 or -1.
 */
int	fwd_trust_reload(struct fwd *f, char *err, size_t errlen);

/*
 * The policy for the parser: f->policy itself (*owned NULL) or a copy
 * with the anchors' revocations added (*owned is that copy, the caller
 * frees it).  NULL when out of memory.
 */
const struct bs_policy *fwd_trust_effective(struct fwd *f,
	    struct bs_policy **owned);
/*
 * Queue the effective policy to the parser as a snapshot, or remember
 * (f->policy_pending) to do so when the channel is up or has room.
 */
void	fwd_trust_push(struct fwd *f);

/*
 * Extra TVLV containers for our next OGM, at most room bytes, into buf:
 * the certificate every limit cert-every OGMs (and on the first
 * FWD_TRUST_CERT_BURST after a change), and one revocation record in
 * turn.  Returns the length written.
 */
size_t	fwd_trust_ogm_tvlvs(struct fwd *f, uint8_t *buf, size_t room);
/* Our certificate (BS_CERT_LEN bytes) for HELLOs, or NULL. */
const uint8_t *fwd_trust_own_cert(const struct fwd_trust *t);

/*
 * IPC_REVOKE from the parser (a channel handler, fwd_parser.h; arg a
 * struct fwd): a record it verified.  The forwarder checks it again
 * (format, that it counts under its policy, signature); a record it
 * already holds is ignored.  One it refuses returns -1 (the parser is killed),
 * or 0 while the parser may not have read the newest policy
 * (fwd_parser_settled); a record that passed but cannot be stored (full,
 * disk) is only logged.
 */
int	fwd_trust_on_revoke(void *arg, const union ipc_payload *u);

/*
 * The revocation store (STATE_DIR/revocations, one base64 record a line):
 * fwd_trust_rev_parse() takes the records of the file's len bytes in buf
 * (path only names it in warnings) that are canonical, carry a valid
 * signature of their issuer and are not known yet, up to
 * FWD_TRUST_REVOKE_MAX; every other line is skipped with a warning
 * naming path:line.  fwd_trust_start() reads the file through it; the
 * fuzz target revstore calls it directly.  The records kept so far:
 * fwd_trust_rev_count(t) of them, the i-th one's BS_REVOKE_LEN bytes from
 * fwd_trust_rev_record(t, i) (NULL past the end).
 */
#define FWD_TRUST_REVOKE_FILE_MAX \
	((size_t)FWD_TRUST_REVOKE_MAX * (CTLP_REVOKE_B64_LEN + 1))
void	fwd_trust_rev_parse(struct fwd *f, const char *path,
	    const char *buf, size_t len);
size_t	fwd_trust_rev_count(const struct fwd_trust *t);
const uint8_t *fwd_trust_rev_record(const struct fwd_trust *t, size_t i);

/* Control-socket handlers (control.h's control_handler_fn). */
void	fwd_trust_ctl_list(void *ctx, size_t argc, const char *const argv[],
	    struct ctl_reply *r);
void	fwd_trust_ctl_add(void *ctx, size_t argc, const char *const argv[],
	    struct ctl_reply *r);
void	fwd_trust_ctl_remove(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);
void	fwd_trust_ctl_block(void *ctx, size_t argc, const char *const argv[],
	    struct ctl_reply *r);
void	fwd_trust_ctl_unblock(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);
void	fwd_trust_ctl_revoke(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);
void	fwd_trust_ctl_revoke_record(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);
void	fwd_trust_ctl_reload(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);
void	fwd_trust_ctl_anchors(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);
void	fwd_trust_ctl_policy_show(void *ctx, size_t argc,
	    const char *const argv[], struct ctl_reply *r);

#endif /* BATSEC_FWD_TRUST_H */
