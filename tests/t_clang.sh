#!/bin/sh
# t_clang.sh — clang's checks that gcc lacks hold over every C file of the
# tree (`make clang-syntax`: -Wunsequenced as an error), and a planted
# unsequenced change and read of one variable is caught.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/.." && pwd)
syntax_pass clang clang clang-syntax \
    "every C file passes clang -Werror=unsequenced"
# The check can fail: the shape of the attack tool's old bug.
D=$(mktmp) || exit 1
cat >"$D/u.c" <<'C'
struct fld { unsigned off, len; };
unsigned put(struct fld *fl, unsigned n);
unsigned
put(struct fld *fl, unsigned n)
{
	fl[n++] = (struct fld){ 4, 8 };
	fl[n++] = (struct fld){ fl[n - 1].off + fl[n - 1].len, 64 };
	return n;
}
C
if clang -std=gnu11 -Wno-everything -Werror=unsequenced -fsyntax-only \
    "$D/u.c" >/dev/null 2>&1; then
	fail "clang refuses an unsequenced change and read (planted)"
else
	pass "clang refuses an unsequenced change and read (planted)"
fi
finish
