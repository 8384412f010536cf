/*
 * fuzz_revstore.c — the revocation store of the state directory
 * (STATE_DIR/revocations, src/forwarder/fwd_trust.c): the input is the file's bytes,
 * read with fwd_trust_rev_parse() as fwd_trust_start() reads them.
 *
 * batsecd writes the file itself (one base64 record a line, appended when
 * a CA's revocation arrives), but reads it back after a crash, a full
 * disk or an admin's editor, and what it keeps is flooded to the whole
 * mesh in our OGMs, so it is parsed like any other outside input.  The
 * seeds (gen_revstore.c) hold real records, so the fuzzer mutates around
 * valid signatures; it cannot forge new ones.
 *
 * Oracles (abort): at most FWD_TRUST_REVOKE_MAX records are kept; every
 * kept record is canonical, decodes, carries a valid signature of its
 * issuer and appears (as bytes) in the input's base64; no (revoked key,
 * issuer) pair is kept twice; parsing the same bytes again keeps nothing
 * new.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "forwarder/fwd_trust.h"
#include "forwarder/fwd_types.h"
#include "common/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_PATH	"/var/lib/batsec/revocations"

static void
fz_check(int cond)
{
	if (!cond)
		abort();
}

/* The record's base64 is one of the input's lines. */
static int
fuzz_in_input(const uint8_t raw[static BS_REVOKE_LEN], const char *in,
    size_t len)
{
	char b64[CTLP_REVOKE_B64_LEN + 1];
	size_t pos = 0, end;

	if (bs_b64_encode(b64, sizeof(b64), raw, BS_REVOKE_LEN) !=
	    CTLP_REVOKE_B64_LEN)
		return 0;
	while (pos < len) {
		end = pos;
		while (end < len && in[end] != '\n')
			end++;
		if (end - pos == CTLP_REVOKE_B64_LEN &&
		    memcmp(in + pos, b64, CTLP_REVOKE_B64_LEN) == 0)
			return 1;
		pos = end + 1;
	}
	return 0;
}

static void
fuzz_check_kept(const struct fwd_trust *t, const char *in, size_t len)
{
	struct bs_revoke r, q;
	const uint8_t *raw, *other;
	size_t n = fwd_trust_rev_count(t), i, j;

	fz_check(n <= FWD_TRUST_REVOKE_MAX);
	fz_check(fwd_trust_rev_record(t, n) == NULL);
	for (i = 0; i < n; i++) {
		raw = fwd_trust_rev_record(t, i);
		fz_check(raw != NULL);
		fz_check(bs_revoke_format_problem(raw, BS_REVOKE_LEN) == NULL);
		fz_check(bs_revoke_decode(&r, raw, BS_REVOKE_LEN) == 0);
		fz_check(bs_revoke_verify(&r, r.issuer_pk) == 0);
		fz_check(fuzz_in_input(raw, in, len));
		for (j = 0; j < i; j++) {
			other = fwd_trust_rev_record(t, j);
			fz_check(bs_revoke_decode(&q, other, BS_REVOKE_LEN) ==
			    0);
			fz_check(memcmp(q.revoked_pk, r.revoked_pk,
			    BS_PK_LEN) != 0 || memcmp(q.issuer_pk,
			    r.issuer_pk, BS_PK_LEN) != 0);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	static struct fwd f;	/* the store needs no more of a forwarder */
	const char *in = (const char *)data;
	size_t n;

	if (!inited) {
		if (bs_crypto_init() != 0)
			abort();
		log_init(LOG_DEST_STDERR, LOG_ERR, "fuzz_revstore");
		inited = 1;
	}
	if (size > FWD_TRUST_REVOKE_FILE_MAX)
		return 0;	/* fwd_trust_start() refuses larger files */
	fwd_trust_rev_parse(&f, FUZZ_PATH, in, size);
	fuzz_check_kept(&f.trust, in, size);
	n = fwd_trust_rev_count(&f.trust);
	fwd_trust_rev_parse(&f, FUZZ_PATH, in, size);
	fz_check(fwd_trust_rev_count(&f.trust) == n);
	fwd_trust_stop(&f);
	fz_check(fwd_trust_rev_count(&f.trust) == 0);
	return 0;
}
