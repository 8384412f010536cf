/*
 * policy_edit.c — live edits of a policy (batsec-ctl trust/block/revoke).
 *
 * Each mutator checks everything first and changes the policy only when
 * it will succeed, so a failed edit leaves the policy as it was.  Lists
 * stay sorted: a binary search finds the place, memmove opens or closes it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batsec_keys.h"
#include "batsec_policy.h"

static int eerr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
eerr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Index of the first element whose key is >= pk; *found when equal.  The
 * arrays searched here (trust entries, blocked keys) start with the key.
 */
static size_t
lower_bound(const void *base, size_t n, size_t stride,
    const uint8_t pk[static BS_PK_LEN], int *found)
{
	return bs_sorted_index(base, n, stride, 0, pk, BS_PK_LEN, found);
}

/* Insert elem (stride bytes) at index i of *arr holding *n elements. */
static int
insert_at(void **arr, size_t *n, size_t stride, size_t i,
    const void *elem)
{
	uint8_t *p = realloc(*arr, (*n + 1) * stride);

	if (p == NULL)
		return -1;
	memmove(p + (i + 1) * stride, p + i * stride, (*n - i) * stride);
	memcpy(p + i * stride, elem, stride);
	*arr = p;
	(*n)++;
	return 0;
}

static void
remove_at(void *arr, size_t *n, size_t stride, size_t i)
{
	uint8_t *p = arr;

	memmove(p + i * stride, p + (i + 1) * stride, (*n - i - 1) * stride);
	(*n)--;
}

int
bs_policy_trust_add(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], const char *name, int gateway,
    char *err, size_t errlen)
{
	char b64[BS_KEY_B64_LEN + 1];
	struct bs_policy_trust e;
	size_t i, nlen = name != NULL ? strnlen(name, BS_POLICY_NAME_MAX + 1) : 0;
	int found;

	bs_key_to_b64(b64, pk);
	if (nlen > 0 && !bs_policy_name_ok(name, nlen))
		return eerr(err, errlen, "trust %s: bad name (1..%d characters "
		    "of A-Z a-z 0-9 . _ -)", b64, BS_POLICY_NAME_MAX);
	i = lower_bound(pol->trust, pol->n_trust, sizeof(e), pk, &found);
	if (found && pol->trust[i].include != 0)
		return eerr(err, errlen, "trust %s: already trusted by "
		    "include %s", b64, pol->include[pol->trust[i].include - 1]);
	if (found)
		return eerr(err, errlen, "trust %s: already trusted", b64);
	if (pol->n_trust >= BS_POLICY_MAX_TRUST)
		return eerr(err, errlen, "trust %s: more than %d entries", b64,
		    BS_POLICY_MAX_TRUST);
	memset(&e, 0, sizeof(e));
	memcpy(e.pk, pk, BS_PK_LEN);
	memcpy(e.name, name != NULL ? name : "", nlen);
	e.gateway = gateway != 0;
	if (insert_at((void **)&pol->trust, &pol->n_trust, sizeof(e), i,
	    &e) != 0)
		return eerr(err, errlen, "trust %s: out of memory", b64);
	return 0;
}

int
bs_policy_trust_remove(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen)
{
	char b64[BS_KEY_B64_LEN + 1];
	size_t i;
	int found;

	bs_key_to_b64(b64, pk);
	i = lower_bound(pol->trust, pol->n_trust, sizeof(*pol->trust), pk,
	    &found);
	if (!found)
		return eerr(err, errlen, "trust %s: not trusted", b64);
	if (pol->trust[i].include != 0)
		return eerr(err, errlen, "trust %s: comes from include %s; "
		    "remove its file there", b64,
		    pol->include[pol->trust[i].include - 1]);
	remove_at(pol->trust, &pol->n_trust, sizeof(*pol->trust), i);
	return 0;
}

/* Add pk to a key list; what names the list in messages. */
static int
key_add(struct bs_policy_key **arr, size_t *n, size_t max,
    const char *what, const uint8_t pk[static BS_PK_LEN], char *err,
    size_t errlen)
{
	char b64[BS_KEY_B64_LEN + 1];
	struct bs_policy_key e;
	size_t i;
	int found;

	bs_key_to_b64(b64, pk);
	i = lower_bound(*arr, *n, sizeof(e), pk, &found);
	if (found)
		return eerr(err, errlen, "%s %s: already listed", what, b64);
	if (*n >= max)
		return eerr(err, errlen, "%s %s: more than %zu entries", what,
		    b64, max);
	memcpy(e.pk, pk, BS_PK_LEN);
	if (insert_at((void **)arr, n, sizeof(e), i, &e) != 0)
		return eerr(err, errlen, "%s %s: out of memory", what, b64);
	return 0;
}

static int
key_remove(struct bs_policy_key *arr, size_t *n, const char *what,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen)
{
	char b64[BS_KEY_B64_LEN + 1];
	size_t i;
	int found;

	i = lower_bound(arr, *n, sizeof(*arr), pk, &found);
	if (!found) {
		bs_key_to_b64(b64, pk);
		return eerr(err, errlen, "%s %s: not listed", what, b64);
	}
	remove_at(arr, n, sizeof(*arr), i);
	return 0;
}

int
bs_policy_block(struct bs_policy *pol, const uint8_t pk[static BS_PK_LEN],
    char *err, size_t errlen)
{
	return key_add(&pol->block, &pol->n_block, BS_POLICY_MAX_BLOCK,
	    "block", pk, err, errlen);
}

int
bs_policy_unblock(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen)
{
	return key_remove(pol->block, &pol->n_block, "block", pk, err, errlen);
}

int
bs_policy_revoke(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen)
{
	return key_add(&pol->revoke, &pol->n_revoke, BS_POLICY_MAX_REVOKE,
	    "revoke", pk, err, errlen);
}

int
bs_policy_unrevoke(struct bs_policy *pol,
    const uint8_t pk[static BS_PK_LEN], char *err, size_t errlen)
{
	return key_remove(pol->revoke, &pol->n_revoke, "revoke", pk, err,
	    errlen);
}
