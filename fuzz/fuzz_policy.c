/*
 * fuzz_policy.c — fuzz the policy text parser and the snapshot decoder.
 *
 * The first input byte selects the target: even = policy text, odd =
 * binary snapshot (the generator writes 'T' and 'S').  The rest is the
 * input.  Whatever is accepted must survive the oracles:
 *   text      parse -> validate -> format -> parse: equal policy, same text;
 *             snapshot encode -> decode: equal policy, same bytes;
 *   snapshot  decode -> encode: exactly the input bytes (one encoding per
 *             policy); format -> parse: equal policy when no entry came from
 *             an include DIR (those are not inlined and includes are not
 *             read here).
 * Includes are recorded but never read (BS_POLICY_SKIP_INCLUDE), so the
 * harness touches no file system.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_crypto.h"
#include "batsec_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
oracle(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Canonical text of pol, parsed back: equal, and formats identically. */
static void
check_text(const struct bs_policy *pol)
{
	size_t len = bs_policy_format_len(pol), len2;
	struct bs_policy *back = NULL;
	char *text, *text2;

	oracle(len < BS_POLICY_FILE_MAX);
	text = malloc(len + 1);
	oracle(text != NULL);
	oracle(bs_policy_format(pol, text, len + 1, &len2) == 0 &&
	    len2 == len);
	oracle(bs_policy_parse_buf(text, len, "fmt", NULL,
	    BS_POLICY_SKIP_INCLUDE, &back, NULL, 0) == 0);
	oracle(bs_policy_equal(pol, back));
	len2 = bs_policy_format_len(back);
	text2 = malloc(len2 + 1);
	oracle(text2 != NULL && len2 == len);
	oracle(bs_policy_format(back, text2, len2 + 1, NULL) == 0);
	oracle(memcmp(text, text2, len) == 0);
	free(text2);
	free(text);
	bs_policy_free(back);
}

/* Snapshot of pol decodes to an equal policy; returns the encoding. */
static uint8_t *
check_snapshot(const struct bs_policy *pol, size_t *len)
{
	struct bs_policy *back = NULL;
	uint8_t *buf;

	*len = bs_policy_snapshot_len(pol);
	oracle(*len <= BS_POLICY_SNAP_MAX);
	buf = malloc(*len);
	oracle(buf != NULL);
	oracle(bs_policy_snapshot_encode(pol, buf, *len, len) == 0);
	oracle(bs_policy_snapshot_decode(buf, *len, &back, NULL, 0) == 0);
	oracle(bs_policy_equal(pol, back));
	bs_policy_free(back);
	return buf;
}

/* Lookups agree with the lists; edits keep the invariants. */
static void
check_eval(const struct bs_policy *pol)
{
	struct bs_policy *copy = bs_policy_dup(pol);
	enum bs_policy_class cls;
	size_t i;

	oracle(copy != NULL && bs_policy_equal(pol, copy));
	for (i = 0; i < pol->n_trust && i < 64; i++) {
		cls = bs_policy_classify(pol, pol->trust[i].pk);
		oracle(cls == BS_CLASS_TRUSTED || cls == BS_CLASS_BLOCKED);
		if (pol->trust[i].include == 0)
			oracle(bs_policy_trust_remove(copy, pol->trust[i].pk,
			    NULL, 0) == 0);
	}
	for (i = 0; i < pol->n_block && i < 64; i++) {
		oracle(bs_policy_classify(pol, pol->block[i].pk) ==
		    BS_CLASS_BLOCKED);
		oracle(bs_policy_unblock(copy, pol->block[i].pk, NULL, 0) == 0);
		oracle(bs_policy_revoke(copy, pol->block[i].pk, NULL, 0) == 0 ||
		    bs_policy_is_revoked(pol, pol->block[i].pk) ||
		    copy->n_revoke == BS_POLICY_MAX_REVOKE);
	}
	for (i = 0; i < pol->n_anchor; i++)
		oracle(bs_policy_anchor_find(pol, pol->anchor[i].pk) ==
		    &pol->anchor[i]);
	oracle(bs_policy_validate(copy, NULL, 0) == 0);
	bs_policy_free(copy);
}

static void
fuzz_text(const uint8_t *data, size_t size)
{
	struct bs_policy *pol = NULL;
	char err[256];
	size_t len;
	uint8_t *snap;

	if (bs_policy_parse_buf((const char *)data, size, "fuzz", NULL,
	    BS_POLICY_SKIP_INCLUDE, &pol, err, sizeof(err)) != 0) {
		oracle(pol == NULL && err[0] != '\0');
		return;
	}
	oracle(bs_policy_validate(pol, NULL, 0) == 0);
	check_text(pol);
	snap = check_snapshot(pol, &len);
	free(snap);
	check_eval(pol);
	bs_policy_free(pol);
}

static int
has_included_entries(const struct bs_policy *pol)
{
	size_t i;

	for (i = 0; i < pol->n_trust; i++)
		if (pol->trust[i].include != 0)
			return 1;
	return 0;
}

static void
fuzz_snapshot(const uint8_t *data, size_t size)
{
	struct bs_policy *pol = NULL;
	char err[256];
	size_t len;
	uint8_t *snap;

	if (bs_policy_snapshot_decode(data, size, &pol, err,
	    sizeof(err)) != 0) {
		oracle(pol == NULL && err[0] != '\0');
		return;
	}
	oracle(bs_policy_validate(pol, NULL, 0) == 0);
	snap = check_snapshot(pol, &len);
	oracle(len == size && memcmp(snap, data, size) == 0);
	free(snap);
	if (!has_included_entries(pol))
		check_text(pol);
	check_eval(pol);
	bs_policy_free(pol);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;

	if (!ready) {
		if (bs_crypto_init() != 0)
			abort();
		ready = 1;
	}
	if (size == 0)
		return 0;
	if (data[0] & 1)
		fuzz_snapshot(data + 1, size - 1);
	else
		fuzz_text(data + 1, size - 1);
	return 0;
}
