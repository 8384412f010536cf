#!/bin/sh
# t_layout.sh — the tree keeps the shape ARCHITECTURE.md draws
# (tests/layout.py): includes only from the wings a wing may use, no
# include circle, every src/ header declaring only its own file's
# functions.  Then each kind of breach, planted in a copy of the tree, must
# be caught.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/.." && pwd)
L=$TOP/tests/layout.py

out=$(python3 "$L" "$TOP" 2>&1)
rc=$?
for rule in resolve boundary circle "own declarations"; do
	if echo "$out" | grep -q "^ok: $rule "; then
		pass "layout: $rule"
	else
		fail "layout: $rule"
	fi
done
[ $rc -eq 0 ] && pass "layout.py exits 0 on the tree" ||
	{ fail "layout.py exits 0 on the tree"; echo "$out" | grep -v '^ok:'; }

D=$(mktmp) || exit 1
fresh() {
	rm -rf "$D/t"
	mkdir -p "$D/t"
	cp -r "$TOP/src" "$TOP/crypto" "$TOP/keys" "$TOP/policy" "$D/t/"
}
# caught NAME WHAT: layout.py must fail on the planted copy and say WHAT.
caught() {
	o=$(python3 "$L" "$D/t" 2>&1)
	if [ $? -ne 0 ] && echo "$o" | grep -q "$2"; then
		pass "caught: $1"
	else
		fail "caught: $1"; echo "$o" | tail -n 5
	fi
}

fresh
echo '#include "forwarder/fwd_tables.h"' >>"$D/t/src/parser/pcore_hello.c"
caught "the parser including a forwarder header" \
    "src/parser/ may not include src/forwarder/fwd_tables.h"

fresh
echo '#include "proto/wire.h"' >>"$D/t/policy/policy.c"
caught "a library including a daemon header" "policy/ may not include"

fresh
echo '#include "parser/pcore.h"' >>"$D/t/src/netio/tap.c"
caught "a lower wing including a higher one" "src/netio/ may not include"

fresh
echo '#include "forwarder/fwd_data.h"' >>"$D/t/src/batsecd.c"
caught "main taking more than the entry points" "may take only"

fresh
echo '#include "fwd_control.h"' >>"$D/t/src/forwarder/fwd_tables.c"
caught "a circle inside a wing" "^circle: .*fwd_tables"

fresh
printf 'int fwd_data_something_else(int);\n' >>"$D/t/src/forwarder/fwd_tap.h"
caught "a header declaring another file's function" \
    "fwd_tap.h: declares fwd_data_something_else"

fresh
echo '#include "nowhere/missing.h"' >>"$D/t/src/common/log.c"
caught "an include that is no file of the tree" "is no file of the tree"
