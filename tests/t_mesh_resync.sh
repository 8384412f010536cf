#!/bin/sh
# t_mesh_resync.sh — the chain 1-2-3 at 200 ms OGM intervals; node 3
# loses every OGM frame from node 2 (HELLOs still pass, so nobody becomes
# a new neighbour, which would bring full entries anyway), then
# everything passes again (batsec-protocol(7), "OGM CHAIN"):
#
#   * for 6 s (30 sequence numbers): node 3 walks its chain reference of
#     node 1 forward to the next compact entry (up to 69 sequence numbers
#     are walked, paid from node 2's budget) and takes node 1's OGMs
#     again at once, asking for nothing;
#   * for 16 s (80 sequence numbers, beyond the walk): node 3 finds the
#     compact entries too far ahead, asks for node 1's full entry
#     (desc_asked, and desc_wanted: it lost every originator it knew),
#     node 2 hands it on (desc_relayed), and node 3 takes node 1's OGMs
#     again within a few intervals, not only after node 1's next full
#     entry (every 64th, up to 12.8 s) — "Descriptions for new
#     neighbours and on request".
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-200}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_resync

mesh_build 3 "1-2 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "chain of 3 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 3 converged within 60 s"
	finish
fi

# seen3 MS: node 3 accepted an OGM of node 1 less than MS ms ago.
seen3() {
	[ "$(mesh_json 3 o "min([r['last_seen_ms'] for r in j if \
r['address'] == '$(mesh_addr 1)'] or [10**9])")" -lt "$1" ] 2>/dev/null
}
check "node 3 hears node 1's OGMs" wait_for 100 seen3 2000

asks3() {
	echo $(( $(mesh_stat 3 desc_wanted) + $(mesh_stat 3 desc_asked) ))
}
has2() { mesh_neigh_set 3 | grep -q "$(mesh_addr 2)"; }
# outage SECS: node 3's ingress from node 2 drops frames of type 0x02
# (OGM, the first payload byte after the 14-byte Ethernet header) for
# SECS, then passes them again; node 3 must take node 1's OGMs again
# within 1.5 s.
outage() {
	local t0
	mesh_filter 3 2 @ll,112,8 0x02 counter drop ||
	    fail "drop OGMs on 2 -> 3"
	sleep "$1"
	check "node 3 still has node 2 as neighbour" has2
	check "node 3's last OGM of node 1 is older than $(($1 - 2)) s" \
	    eval "! seen3 $((($1 - 2) * 1000))"
	mesh_filter 3 2 || fail "OGMs pass 2 -> 3 again"
	t0=$(mesh_now_ms)
	if wait_for 100 seen3 1500; then
		pass "node 3 takes node 1's OGMs again after ${1} s" \
		    "($(mesh_secs_since "$t0") s later)"
	else
		fail "node 3 takes node 1's OGMs again within 10 s after $1 s"
	fi
}

a0=$(asks3); s0=$(mesh_stat 3 chain_steps)
outage 6
sleep 3		# the parser's counters reach the forwarder
a1=$(asks3); s1=$(mesh_stat 3 chain_steps)
echo "after 6 s: node 3 asks +$((a1 - a0)), chain_steps +$((s1 - s0))"
check "node 3 asked for nothing after 6 s ($((a1 - a0)))" \
    test $((a1 - a0)) -eq 0
check "node 3 walked its chain reference ($((s1 - s0)) hashes)" \
    test $((s1 - s0)) -ge $((25 * 32))

a0=$(asks3); d0=$(mesh_stat 2 desc_relayed)
outage 16
sleep 3
a1=$(asks3); d1=$(mesh_stat 2 desc_relayed)
echo "after 16 s: node 3 asks +$((a1 - a0)), node 2 desc_relayed +$((d1 - d0))"
check "node 3 asked for descriptions ($((a1 - a0)))" test $((a1 - a0)) -ge 1
check "node 2 handed full entries on ($((d1 - d0)))" test $((d1 - d0)) -ge 1
check "node 3 reaches node 1 through node 2" wait_for 50 mesh_nexthop_is 3 1 2
check "ping 3 -> 1" mesh_ping 3 1 4
finish
