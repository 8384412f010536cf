#!/bin/sh
# t_musl.sh — every source file of batsecd and batsec-ctl compiles against
# musl (OpenWrt's C library) with the project's warnings as errors:
# `make musl-syntax` (musl-gcc -fsyntax-only).  glibc-only calls
# (sigabbrev_np, mallopt, malloc_trim, close_range's wrapper) are guarded.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/.." && pwd)
syntax_pass musl-gcc musl-tools musl-syntax \
    "the tree compiles against musl with warnings as errors"
# The check can fail: a glibc-only call in a copy of a file must be caught.
D=$(mktmp) || exit 1
printf '#include <signal.h>\nconst char *f(void);\nconst char *f(void) { return sigabbrev_np(1); }\n' >"$D/g.c"
if musl-gcc -std=gnu11 -D_GNU_SOURCE -Wall -Werror -fsyntax-only "$D/g.c" \
    >/dev/null 2>&1; then
	fail "musl-gcc refuses a glibc-only call (sigabbrev_np)"
else
	pass "musl-gcc refuses a glibc-only call (sigabbrev_np)"
fi
finish
