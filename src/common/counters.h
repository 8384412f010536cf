/*
 * counters.h — a set of counters is a struct of uint64_t fields only,
 * listed by an X-macro that also gives each its name (FWD_DCOUNT_LIST,
 * FWD_OCOUNT_LIST): the control socket walks such a set by index.
 */
#ifndef BATSEC_COUNTERS_H
#define BATSEC_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The name of counter i of n, or NULL past the end. */
static inline const char *
counter_name(const char *const *names, size_t n, size_t i)
{
	return i < n ? names[i] : NULL;
}

/* Counter i of the n in set, or 0 past the end. */
static inline uint64_t
counter_get(const void *set, size_t n, size_t i)
{
	uint64_t v;

	if (i >= n)
		return 0;
	memcpy(&v, (const uint8_t *)set + i * sizeof(v), sizeof(v));
	return v;
}

/* In a header: struct TYPE with one uint64_t per entry of LIST. */
#define COUNTERS_FIELD_(f, name)	uint64_t f;
#define COUNTERS_STRUCT(type, LIST)	struct type { LIST(COUNTERS_FIELD_) }

/*
 * In the .c file: const char *NAME_FN(size_t i) and
 * uint64_t GET_FN(const struct TYPE *c, size_t i) over LIST's names.
 */
#define COUNTERS_NAME_(f, name)		name,
#define COUNTERS_DEFINE(name_fn, get_fn, type, LIST)			\
static const char *const name_fn##_tab_[] = { LIST(COUNTERS_NAME_) };	\
_Static_assert(sizeof(name_fn##_tab_) / sizeof(name_fn##_tab_[0]) ==	\
    sizeof(struct type) / sizeof(uint64_t), "one name per counter");	\
const char *								\
name_fn(size_t i)							\
{									\
	return counter_name(name_fn##_tab_,				\
	    sizeof(name_fn##_tab_) / sizeof(name_fn##_tab_[0]), i);	\
}									\
uint64_t								\
get_fn(const struct type *c, size_t i)					\
{									\
	return counter_get(c, sizeof(*c) / sizeof(uint64_t), i);	\
}

#endif /* BATSEC_COUNTERS_H */
