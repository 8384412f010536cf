#!/bin/sh
# t_mesh_traceroute.sh — batsec-ctl traceroute on a four-node chain
# 1-2-3-4: from node 1 to node 4 it lists nodes 2, 3 and 4 in that order,
# with the names the policy gives them and a round trip per probe, and
# exits 0; by client MAC it takes the
# same path; to an address no node announces it fails with a clear
# message; with -m 2 it stops short of node 4 and exits non-zero; the
# relays counted the TRACEs that expired there and their answers.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_trace

mesh_build 4 "1-2 2-3 3-4"
mesh_start_all || finish

if mesh_wait_converged 60; then
	pass "chain of 4 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 4 converged within 60 s"
fi
check "node 1 reaches node 4 through node 2" wait_for 30 mesh_nexthop_is 1 4 2
check "node 4 reaches node 1 through node 3" wait_for 30 mesh_nexthop_is 4 1 3

A2=$(mesh_addr 2); A3=$(mesh_addr 3); A4=$(mesh_addr 4)
OUT="$MT/trace.out"

# Hop lines: " N: ADDRESS  T ms  T ms  T ms"; what the test wants of
# them: hop N names node N + 1 and has three times (a slow machine may
# lose a probe: at least one time, then).
trace_ok() {
	mesh_ctl 1 traceroute -w 3 "$1" >"$OUT" 2>&1 || return 1
	awk -v a2="$A2" -v a3="$A3" -v a4="$A4" '
		/^traceroute to / { head = 1; next }
		/^ *[0-9]+:/ {
			n++; split("" a2 " " a3 " " a4, want, " ")
			if ($2 != want[n] || $0 !~ /[0-9]+\.[0-9][0-9][0-9] ms/)
				bad = 1
			next
		}
		{ bad = 1 }
		END { exit !(head && n == 3 && !bad) }' "$OUT"
}
retry_trace() { wait_for 30 trace_ok "$1"; }
if retry_trace "$A4"; then
	pass "traceroute 1 -> 4 lists nodes 2, 3, 4 with times"
else
	fail "traceroute 1 -> 4 lists nodes 2, 3, 4 with times"
	cat "$OUT"
fi
sed 's/^/  | /' "$OUT"
named() {
	grep -q "^ 1: $A2 (node2) " "$OUT" && grep -q "^ 2: $A3 (node3) " "$OUT" &&
	    grep -q "^ 3: $A4 (node4) " "$OUT"
}
check "each hop named as the policy names it (node2, node3, node4)" named
three_times() { [ "$(grep -c ' ms  .* ms  .* ms$' "$OUT")" -eq 3 ]; }
check "(each hop answered all three probes on the last run)" three_times

# -j: one object with the hops, their names and round trips.
json_ok() {
	mesh_ctl 1 -j traceroute -w 3 "$A4" >"$MT/trace.json" 2>&1 &&
	    python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
h = j["hops"]
ok = (j["reached"] is True and j["address"] == sys.argv[4] and
    [x["address"] for x in h] == sys.argv[2:5] and
    [x.get("name") for x in h] == ["node2", "node3", "node4"] and
    [x["ttl"] for x in h] == [1, 2, 3] and
    all(len(x["rtt_us"]) == 3 and any(isinstance(t, int) for t in
    x["rtt_us"]) for x in h))
sys.exit(0 if ok else 1)' "$MT/trace.json" "$A2" "$A3" "$A4"
}
check "-j traceroute: hops 2, 3, 4 with names, ttl and round trips" \
    wait_for 30 json_ok

# By the MAC of node 4's TAP, a client it announces once it has sent
# something into the mesh (an IPv4 ping).
M4=$(mesh_mac 4)
check "ping IPv4 4 -> 1 (node 4's MAC into its TT)" mesh_ping 4 1 4
check "traceroute by node 4's client MAC takes the same path" \
    wait_for 30 trace_ok "$M4"

# An address nobody announces: no route, a clear message, exit 1.
unknown() {
	out=$(mesh_ctl 1 traceroute 02:00:5e:00:53:99 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] && echo "$out" | grep -q "no route to 02:00:5e:00:53:99"
}
check "traceroute to an unknown address fails: 'no route to ...'" unknown

# Not reached within -m 2: two hop lines, a message, exit 1.
short() {
	out=$(mesh_ctl 1 traceroute -m 2 -c 1 -w 3 "$A4" 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] && echo "$out" | grep -q "not reached within 2 hops" &&
	    [ "$(echo "$out" | grep -c '^ *[0-9]*:')" -eq 2 ]
}
check "-m 2 stops short of node 4 and exits 1" short

ctr_pos() { [ "$(mesh_stat "$1" "$2")" -gt 0 ]; }
for c in trace_expired_here trace_ttlx_sent; do
	check "node 2: stats $c > 0" ctr_pos 2 "$c"
	check "node 3: stats $c > 0" ctr_pos 3 "$c"
done
check "node 1: stats trace_ttlx_received > 0" ctr_pos 1 trace_ttlx_received
ctr_zero() { [ "$(mesh_stat "$1" "$2")" -eq 0 ]; }
check "node 4 (the destination): no TRACE expired there" \
    ctr_zero 4 trace_expired_here
finish
