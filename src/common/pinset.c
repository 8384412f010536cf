/*
 * pinset.c — a sorted set of TOFU pins (pinset.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pinset.h"

/* Index of addr, or where it would go; *found when it is there. */
static size_t
pinset_index(const struct pinset *s, const uint8_t addr[static BS_ADDR_LEN],
    int *found)
{
	return bs_sorted_index(s->v, s->n, sizeof(*s->v),
	    offsetof(struct pinset_entry, addr), addr, BS_ADDR_LEN, found);
}

const uint8_t *
pinset_find(const struct pinset *s, const uint8_t addr[static BS_ADDR_LEN])
{
	size_t i;
	int found;

	if (s->n == 0)
		return NULL;
	i = pinset_index(s, addr, &found);
	return found ? s->v[i].pk : NULL;
}

struct pinset_entry *
pinset_get(struct pinset *s, const uint8_t addr[static BS_ADDR_LEN])
{
	size_t i;
	int found;

	if (s->n == 0)
		return NULL;
	i = pinset_index(s, addr, &found);
	return found ? &s->v[i] : NULL;
}

size_t
pinset_expire(struct pinset *s, uint64_t before)
{
	size_t i, k = 0;

	for (i = 0; i < s->n; i++)
		if (s->v[i].seen == 0 || s->v[i].seen >= before)
			s->v[k++] = s->v[i];
	i = s->n - k;
	s->n = k;
	return i;
}

int
pinset_add(struct pinset *s, const uint8_t addr[static BS_ADDR_LEN],
    const uint8_t pk[static BS_PK_LEN], size_t max)
{
	struct pinset_entry *v;
	size_t i, cap;
	int found;

	i = pinset_index(s, addr, &found);
	if (found)
		return 0;
	if (s->n >= max)
		return -1;
	if (s->n == s->cap) {
		cap = s->cap == 0 ? 64 : s->cap * 2;
		if ((v = realloc(s->v, cap * sizeof(*v))) == NULL)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	memcpy(s->v[i].addr, addr, BS_ADDR_LEN);
	memcpy(s->v[i].pk, pk, BS_PK_LEN);
	s->v[i].seen = 0;
	s->v[i].told = 0;
	s->n++;
	return 1;
}

void
pinset_free(struct pinset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
