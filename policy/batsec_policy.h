/*
 * batsec_policy.h — the policy file (batsec-policy(5)): parser, evaluator,
 * canonical writer, live-edit mutators and a binary snapshot for IPC.
 *
 * A small library with no knowledge of the daemon.  A policy is parsed into
 * a fresh struct bs_policy; on any error nothing is returned and the
 * caller's current policy stays as it was.  Every list is kept sorted by
 * public key with no duplicates, so lookups are binary searches.
 *
 * Precedence, strongest first: revoke, block, trust, a valid certificate
 * (modes ca and open), mode open (stranger), refused.
 *
 * Functions that can fail return 0 on success or -1 with one line in err
 * (errlen bytes, may be NULL/0), e.g.
 *   "mesh.policy:7: trust: bad key (expected 44 characters of base64)"
 * Call bs_crypto_init() once before using this library.
 */
#ifndef BATSEC_POLICY_H
#define BATSEC_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "batsec_crypto.h"

/*
 * Bounds.  They are chosen so that the canonical text of the largest
 * possible policy stays below BS_POLICY_FILE_MAX; a policy the library
 * writes can therefore always be read back.
 */
#define BS_POLICY_FILE_MAX	(4u << 20)	/* policy file size, bytes */
#define BS_POLICY_LINE_MAX	1024	/* bytes per line, without '\n' */
#define BS_POLICY_NAME_MAX	32	/* [A-Za-z0-9._-]{1,32} */
#define BS_POLICY_PATH_MAX	1016	/* include DIR: fits in one line */
#define BS_POLICY_MAX_TRUST	32768	/* trust entries, includes counted */
#define BS_POLICY_MAX_ANCHOR	64
#define BS_POLICY_MAX_BLOCK	4096
#define BS_POLICY_MAX_REVOKE	4096
#define BS_POLICY_MAX_INCLUDE	16	/* include directives */
#define BS_POLICY_INCLUDE_FILES	4096	/* *.key / *.pub files per DIR */
#define BS_POLICY_INCLUDE_FILE_MAX 4096	/* bytes per included file */

enum bs_policy_mode {
	BS_POLICY_ALLOWLIST = 0,	/* only trusted keys (the default) */
	BS_POLICY_CA = 1,		/* trusted keys and certified keys */
	BS_POLICY_OPEN = 2,		/* anyone; unknown keys are strangers */
};

/*
 * Attack-resistance limits (batsec-policy(5) "limit").  Rates are per
 * second; shares are percentages.  Defaults and ranges are in
 * bs_policy_limit_defs[].
 */
struct bs_policy_limits {
	uint32_t originators;		/* originator table cap */
	uint32_t stranger_share;	/* % of the table strangers may use */
	uint32_t neighbor_stranger_share; /* % of that one neighbour may fill */
	uint32_t intro_rate;		/* new originators/s per neighbour */
	uint32_t intro_burst;
	uint32_t intro_global_rate;	/* new originators/s, all neighbours */
	uint32_t intro_global_burst;
	uint32_t verify_rate;		/* signature checks/s per neighbour */
	uint32_t verify_burst;
	uint32_t verify_global_rate;	/* signature checks/s in total */
	uint32_t verify_global_burst;
	uint32_t frame_rate;		/* control frames/s per neighbour */
	uint32_t frame_burst;
	uint32_t clients_per_originator; /* translation-table entries */
	uint32_t roam_per_minute;	/* client moves/min per client MAC */
	uint32_t pending_certs;		/* certificates awaiting a check */
	uint32_t cert_every;		/* own cert rides on every Nth OGM */
	uint32_t stranger_neighbors;	/* % of neighbour slots strangers may
					   use (per interface and in all) */
	uint32_t pin_after;		/* s a stranger holds a route before
					   its TOFU pin is made */
	uint32_t pins_per_neighbor;	/* new pins per introducing neighbour
					   per hour */
	uint32_t pin_max_age;		/* days a pin may go unused */
};

struct bs_policy_limit_def {
	const char *name;		/* as written after "limit" */
	size_t offset;			/* in struct bs_policy_limits */
	uint32_t def, min, max;		/* default and inclusive range */
};
#define BS_POLICY_LIMIT_COUNT	21
extern const struct bs_policy_limit_def
    bs_policy_limit_defs[BS_POLICY_LIMIT_COUNT];

/* Value of limit i (index into bs_policy_limit_defs). */
uint32_t bs_policy_limit_get(const struct bs_policy_limits *l, size_t i);
/* All limits at their defaults. */
void bs_policy_limits_default(struct bs_policy_limits *l);

struct bs_policy_trust {
	uint8_t pk[BS_PK_LEN];		/* first: the sort key */
	uint8_t gateway;		/* 1: may announce an internet gateway */
	uint16_t include;		/* 0: a trust line; n: from include[n-1] */
	char name[BS_POLICY_NAME_MAX + 1];	/* "" when none */
};

/*
 * An anchor.  revokes_anchors: its revocation records may revoke other
 * anchors (batsec-policy(5) REVOCATION); revocation_days: its records
 * stay in force that many days after their issue time.
 */
#define BS_POLICY_REVOKE_DAYS_DEF	3650	/* batsec-ctl's longest cert */
#define BS_POLICY_REVOKE_DAYS_MAX	36500
struct bs_policy_anchor {
	uint8_t pk[BS_PK_LEN];
	uint8_t revokes_anchors;
	uint32_t revocation_days;	/* 1..BS_POLICY_REVOKE_DAYS_MAX */
	char name[BS_POLICY_NAME_MAX + 1];
};

struct bs_policy_key {
	uint8_t pk[BS_PK_LEN];
};

struct bs_policy {
	enum bs_policy_mode mode;
	struct bs_policy_limits limits;
	struct bs_policy_trust *trust;		/* sorted by pk, unique */
	size_t n_trust;
	struct bs_policy_anchor *anchor;	/* sorted by pk, unique */
	size_t n_anchor;
	struct bs_policy_key *block;		/* sorted by pk, unique */
	size_t n_block;
	struct bs_policy_key *revoke;		/* sorted by pk, unique */
	size_t n_revoke;
	char *include[BS_POLICY_MAX_INCLUDE];	/* DIR as written, in order */
	size_t n_include;
};

/* ---- lifecycle --------------------------------------------------------- */

/* Empty policy: mode allowlist, default limits.  NULL when out of memory. */
struct bs_policy *bs_policy_new(void);
void bs_policy_free(struct bs_policy *pol);
/* Deep copy (edit a copy, write it, then swap).  NULL when out of memory. */
struct bs_policy *bs_policy_dup(const struct bs_policy *pol);
/* 1 when a and b hold the same policy (including provenance), else 0. */
int bs_policy_equal(const struct bs_policy *a, const struct bs_policy *b);
/*
 * Check every invariant a parsed policy has (bounds, sorted unique keys,
 * valid names and include paths, limits in range, mode ca has an anchor).
 * The parser and the snapshot decoder both end with it.
 */
int bs_policy_validate(const struct bs_policy *pol, char *err, size_t errlen);

/* "allowlist", "ca", "open"; NULL for an unknown value. */
const char *bs_policy_mode_name(enum bs_policy_mode mode);
/* 1 when s[0..len) is a valid NAME: 1..32 of [A-Za-z0-9._-]. */
int bs_policy_name_ok(const char *s, size_t len);
/* 1 when s[0..len) is a valid include DIR: 1..BS_POLICY_PATH_MAX bytes of
 * printable ASCII without spaces, not starting with '#'. */
int bs_policy_path_ok(const char *s, size_t len);

/* ---- parsing ----------------------------------------------------------- */

/* Record include directives but read no directory (fuzzing, syntax checks). */
#define BS_POLICY_SKIP_INCLUDE	0x01u

/*
 * Parse the policy file at path (a regular file of at most
 * BS_POLICY_FILE_MAX bytes).  A relative include DIR is taken relative to
 * the directory of path.  On success *out gets a new policy; on error *out
 * is not touched.
 */
int bs_policy_parse_file(const char *path, unsigned flags,
    struct bs_policy **out, char *err, size_t errlen);
/*
 * Parse text already in memory.  name is used in messages ("policy" when
 * NULL); basedir resolves relative include DIRs (the current directory
 * when NULL).
 */
int bs_policy_parse_buf(const char *buf, size_t len, const char *name,
    const char *basedir, unsigned flags, struct bs_policy **out, char *err,
    size_t errlen);

/* ---- evaluation -------------------------------------------------------- */

/* Ordered from worst to best, so a larger class is preferred. */
enum bs_policy_class {
	BS_CLASS_BLOCKED = 0,	/* block or revoke entry: drop everything */
	BS_CLASS_REFUSED,	/* unknown key, mode allowlist or ca */
	BS_CLASS_STRANGER,	/* unknown key, mode open: strict quotas */
	BS_CLASS_CERTIFIED,	/* valid certificate from an anchor */
	BS_CLASS_TRUSTED,	/* trust entry */
};

/* Why a key got its class (for logs and batsec-ctl). */
enum bs_policy_reason {
	BS_PR_REVOKED = 1,	/* revoke entry */
	BS_PR_BLOCKED,		/* block entry */
	BS_PR_TRUSTED,		/* trust entry */
	BS_PR_CERT_OK,		/* certificate verified against an anchor */
	BS_PR_UNKNOWN,		/* no entry and no certificate */
	BS_PR_CERT_IGNORED,	/* mode allowlist does not accept certificates */
	BS_PR_CERT_OTHER_KEY,	/* certificate names another node key */
	BS_PR_CERT_NO_ANCHOR,	/* issuer is not an anchor */
	BS_PR_CERT_ANCHOR_BLOCKED, /* issuer is an anchor that is blocked/revoked */
	BS_PR_CERT_INVALID,	/* bs_cert_verify failed: see cert_err */
};

struct bs_policy_verdict {
	enum bs_policy_class cls;
	enum bs_policy_reason reason;
	int cert_err;		/* bs_cert_verify result (BS_CERT_*) */
};

/* Class of a key on its own: BLOCKED, TRUSTED, STRANGER or REFUSED. */
enum bs_policy_class bs_policy_classify(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN]);
/*
 * Class of a key that may present a certificate (cert may be NULL).  A
 * block, revoke or trust entry decides alone; otherwise, in modes ca and
 * open, a certificate for pk issued by an anchor that is neither blocked
 * nor revoked and valid at now (unix seconds; 0 = no clock, window not
 * checked, see bs_cert_verify) makes the key CERTIFIED.
 */
struct bs_policy_verdict bs_policy_classify_cert(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], const struct bs_cert *cert,
    uint64_t now);
/*
 * 1 when the key may announce an internet gateway: a trust entry with
 * gateway, or (no trust entry) a CERTIFIED key whose certificate has the
 * gateway role.  Strangers, refused and blocked keys never may.
 */
int bs_policy_gateway_ok(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], const struct bs_cert *cert,
    uint64_t now);

const char *bs_policy_class_name(enum bs_policy_class cls);
/* Short text for a verdict, e.g. "certificate expired". */
const char *bs_policy_verdict_str(const struct bs_policy_verdict *v);

/* Lookups: the entry, or NULL. */
const struct bs_policy_trust *bs_policy_trust_find(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN]);
const struct bs_policy_anchor *bs_policy_anchor_find(
    const struct bs_policy *pol, const uint8_t pk[static BS_PK_LEN]);
int bs_policy_is_blocked(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN]);
int bs_policy_is_revoked(const struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN]);

/*
 * Whether a CA revocation record r (signature already checked) counts
 * under pol at now (unix seconds; 0 = no clock, expiry not checked):
 * NULL when it does, else a short static reason.  It counts only when
 *  - its issuer is an anchor of pol that is neither blocked nor revoked;
 *  - it is not expired: now <= issued_at + the issuer's revocation-days
 *    (BS_CERT_SKEW tolerated);
 *  - when the revoked key is an anchor of pol: the issuer is marked
 *    revokes-anchors and the revoked anchor is not (such anchors are
 *    withdrawn only by editing the policy, so who may revoke whom never
 *    goes round in a circle).
 * A caller that holds several records must also refuse a record whose
 * issuer another counting record revokes; with those revocations added
 * to pol as revoke entries (the parser's snapshot), this function alone
 * gives that answer.
 */
const char *bs_policy_revoke_problem(const struct bs_policy *pol,
    const struct bs_revoke *r, uint64_t now);
/* 1 when r has expired at now (never when now is 0): now > issued_at +
 * revocation-days of its issuer (the default when the issuer is no
 * anchor) + BS_CERT_SKEW. */
int bs_policy_revoke_expired(const struct bs_policy *pol,
    const struct bs_revoke *r, uint64_t now);

/* ---- live edits -------------------------------------------------------- */

/*
 * Each mutator validates first and changes nothing on error.  Adding a key
 * that is already in the same list is an error; a key may be trusted and
 * blocked at once (block wins).  Entries that came from an include DIR
 * cannot be removed here: delete their file instead.
 */
int bs_policy_trust_add(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], const char *name, int gateway,
    char *err, size_t errlen);
int bs_policy_trust_remove(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen);
int bs_policy_block(struct bs_policy *pol, const uint8_t pk[static BS_PK_LEN],
    char *err, size_t errlen);
int bs_policy_unblock(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen);
int bs_policy_revoke(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen);
int bs_policy_unrevoke(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen);

/* ---- canonical text ---------------------------------------------------- */

/*
 * Canonical text: a header comment, mode, limits that differ from their
 * defaults, anchors, include directives (their entries are not inlined),
 * trust lines, block lines, revoke lines; lists in key order.  Parsing it
 * gives back an equal policy.  Comments of the original file are not kept.
 * bs_policy_format_len is the exact length without the NUL; for any policy
 * that passes bs_policy_validate it is below BS_POLICY_FILE_MAX.
 */
size_t bs_policy_format_len(const struct bs_policy *pol);
/* NUL-terminated text into buf; -1 when buflen <= the length. */
int bs_policy_format(const struct bs_policy *pol, char *buf, size_t buflen,
    size_t *outlen);

/* ---- binary snapshot (forwarder -> parser IPC) ------------------------- */

/*
 * Version 2 layout, all integers big-endian:
 *   "BSPL" version=2 mode reserved[2] limits[21]×u32
 *   n_include:u8 n_anchor:u8 reserved:u16 n_trust:u32 n_block:u32
 *   n_revoke:u32
 *   include:  len:u16 bytes
 *   anchor:   pk[32] flags:u8 (bit0 revokes-anchors) days:u32 namelen:u8
 *             name
 *   trust:    pk[32] flags:u8 (bit0 gateway) namelen:u8 include:u16 name
 *   block:    pk[32]
 *   revoke:   pk[32]
 * The decoder accepts exactly what the encoder produces: every size and
 * count checked, keys strictly ascending, names and paths validated, no
 * trailing bytes, then bs_policy_validate.
 */
#define BS_POLICY_SNAP_MAGIC	"BSPL"
#define BS_POLICY_SNAP_VERSION	2
#define BS_POLICY_SNAP_HDR_LEN	108
#define BS_POLICY_SNAP_MAX	(BS_POLICY_SNAP_HDR_LEN + \
    BS_POLICY_MAX_INCLUDE * (2 + BS_POLICY_PATH_MAX) + \
    BS_POLICY_MAX_ANCHOR * (BS_PK_LEN + 6 + BS_POLICY_NAME_MAX) + \
    BS_POLICY_MAX_TRUST * (BS_PK_LEN + 4 + BS_POLICY_NAME_MAX) + \
    (BS_POLICY_MAX_BLOCK + BS_POLICY_MAX_REVOKE) * BS_PK_LEN)

size_t bs_policy_snapshot_len(const struct bs_policy *pol);
/* Encode into out; -1 when outlen is too small. */
int bs_policy_snapshot_encode(const struct bs_policy *pol, uint8_t *out,
    size_t outlen, size_t *written);
/* Strict decode; on success *out gets a new policy, else it is untouched. */
int bs_policy_snapshot_decode(const uint8_t *in, size_t len,
    struct bs_policy **out, char *err, size_t errlen);

#endif /* BATSEC_POLICY_H */
