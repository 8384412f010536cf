/*
 * keys_impl.h — helpers shared by the files of the keys library only.
 * Not part of the library's interface; include batsec_keys.h instead.
 */
#ifndef BATSEC_KEYS_IMPL_H
#define BATSEC_KEYS_IMPL_H

#include <stddef.h>

/* printf into err (if err and errlen are non-zero), always NUL-terminated. */
void keys_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The name to use in messages for a buffer parsed without a file. */
const char *keys_name(const char *name);

#endif /* BATSEC_KEYS_IMPL_H */
