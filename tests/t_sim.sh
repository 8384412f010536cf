#!/bin/sh
# t_sim.sh — the scale simulator (bench/sim) on 10 nodes: the same parser
# core batsecd runs, in virtual time, so nothing here depends on the
# machine's speed.  Chain, grid and random geometric graph without loss:
# every pair is routed and every route has the best TQ the links allow
# (after 80 virtual seconds, when the links' 64-HELLO windows are full).
# A random graph with 10 % loss per link and frame: every pair is routed.
# The simulator is built here (make $B/bench/sim/batsec-sim): `make check`
# builds only the programs and Check tests.
. "$(dirname "$0")/lib.sh"

cd "$TOP" || exit 1
case $B in build-san) san=1 ;; *) san=0 ;; esac
SIM=$B/bench/sim/batsec-sim
if ! make --no-print-directory -s SANITIZE=$san "$SIM" >/dev/null; then
	fail "batsec-sim builds ($SIM)"
	finish
fi
pass "batsec-sim builds"
D=$(mktmp)

# sim NAME ARGS...: one run that must print "check ok".
sim() {
	name=$1; shift
	if "$SIM" --no-header "$@" >"$D/out" 2>"$D/err" &&
	    grep -q '^check ok' "$D/out"; then
		pass "$name"
	else
		fail "$name"
		sed 's/^/    /' "$D/out" "$D/err"
	fi
}

for t in chain grid rgg; do
	sim "$t of 10 nodes: all pairs on best-TQ routes" --topo "$t" -n 10 \
	    --loss 0 --settle 80 --check
done
sim "rgg of 10 nodes, 10% loss: all pairs routed" --topo rgg -n 10 \
    --loss 0.1 --seed 3 --check-reach

# The verification switch is announced on every row.
"$SIM" -n 10 --loss 0 --memo --window 1 >"$D/memo" 2>&1
check "--memo is shown in the output" grep -q ' memo ' "$D/memo"
"$SIM" -n 10 --loss 0 --window 1 >"$D/real" 2>&1
check "real verification is shown in the output" grep -q ' real ' "$D/real"
finish
