#!/bin/sh
# t_mesh_resync.sh — the chain 1-2-3; node 3 loses every OGM frame from
# node 2 (HELLOs still pass, so nobody becomes a new neighbour, which
# would bring full entries anyway) for longer than a compact OGM's chain
# walk covers (17 sequence numbers, 8.5 s at the 500 ms interval here),
# then everything passes again.  Node 3 takes node 1's compact entries
# again within a few intervals, not only after node 1's next full entry
# (up to 64 intervals, 32 s): its parser finds them too far ahead of its
# chain reference and asks for descriptions (desc_wanted), its HELLOs
# carry the fresh flag, and node 2 hands node 1's last full entry on
# (desc_relayed) — batsec-protocol(7), "Descriptions for new
# neighbours".
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
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

w0=$(mesh_stat 3 desc_wanted); d0=$(mesh_stat 2 desc_relayed)
# Node 3's ingress from node 2: drop frames of type 0x02 (OGM), the
# first payload byte after the 14-byte Ethernet header.
mesh_filter 3 2 @ll,112,8 0x02 counter drop || fail "drop OGMs on 2 -> 3"
sleep 12
has2() { mesh_neigh_set 3 | grep -q "$(mesh_addr 2)"; }
check "node 3 still has node 2 as neighbour" has2
stale() { ! seen3 8000; }
check "node 3's last OGM of node 1 is older than 8 s" stale
mesh_filter 3 2 || fail "OGMs pass 2 -> 3 again"
t0=$(mesh_now_ms)
if wait_for 100 seen3 1500; then
	pass "node 3 takes node 1's OGMs again ($(mesh_secs_since "$t0") s later)"
else
	fail "node 3 takes node 1's OGMs again within 10 s"
fi
w1=$(mesh_stat 3 desc_wanted); d1=$(mesh_stat 2 desc_relayed)
echo "node 3 desc_wanted +$((w1 - w0)), node 2 desc_relayed +$((d1 - d0))"
check "node 3 asked for descriptions ($((w1 - w0)))" test $((w1 - w0)) -ge 1
check "node 2 handed full entries on ($((d1 - d0)))" test $((d1 - d0)) -ge 1
check "node 3 reaches node 1 through node 2" wait_for 50 mesh_nexthop_is 3 1 2
check "ping 3 -> 1" mesh_ping 3 1 4
finish
