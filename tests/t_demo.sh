#!/bin/sh
# t_demo.sh — `make demo` (contrib/demo) keeps working: it runs to the
# end with exit status 0, every one of its nine steps reports, no step
# failed, and it leaves no namespace of its own behind.
. "$(dirname "$0")/lib.sh"
need_root
D=$(mktmp)
# The demo names its namespaces bsPID-nI after its own pid.
B=$B "$TOP/contrib/demo" >"$D/out" 2>&1 &
pid=$!
wait "$pid"
rc=$?
check "contrib/demo exits 0" test "$rc" -eq 0
for s in 1 2 3 4 5 6 7 8 9; do
	check "step $s reported" grep -q "^\[$s\] " "$D/out"
done
check "no step failed" sh -c "! grep -q 'FAILED' '$D/out'"
check "it says every step worked" grep -q "every step worked" "$D/out"
check "node 6 answers a mesh-layer ping" \
    grep -q "ok: node 6 answered at the mesh layer" "$D/out"
check "the revoked node is cut off" grep -q "ok: ping 1 -> 6 fails now" "$D/out"
check "its namespaces are gone" sh -c "! ip netns list | grep -q '^bs$pid-'"
if [ "$TEST_FAILS" -gt 0 ]; then
	sed 's/^/# /' "$D/out"
fi
finish
