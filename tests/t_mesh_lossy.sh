#!/bin/sh
# t_mesh_lossy.sh — the chain 1-2-3-4 with 20 % random loss in each
# direction of every link (nftables netdev ingress, numgen random), set up
# before the daemons start: the mesh still converges and carries pings.
#
# A ping end to end crosses six lossy links (three each way), so one echo
# gets through with probability 0.8^6 = 0.26; runs of 5 echoes, up to 8 of
# them, fail by chance with probability about 0.74^40 < 1e-5.
. "$(dirname "$0")/lib.sh"
# OGMs and HELLOs every 500 ms (the default is 1000) keep the four mesh
# tests well under the CI's time budget; the behaviour is the same.
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_lossy

LOSS=20
mesh_build 4 "1-2 2-3 3-4"
mesh_loss_all "$LOSS"
mesh_start_all || finish

if mesh_wait_converged 120; then
	pass "lossy chain of 4 converged (${MESH_CONV_SECS} s)"
else
	fail "lossy chain of 4 converged within 120 s"
	for i in 1 2 3 4; do
		echo "node $i originators:"; mesh_ctl "$i" o 2>&1
	done
fi
check "node 1 reaches node 4 through node 2" wait_for 30 mesh_nexthop_is 1 4 2

MESH_PING_COUNT=5
check "ping IPv4 1 -> 4 through 20 % loss" mesh_ping 1 4 4 8
check "ping IPv4 4 -> 1 through 20 % loss" mesh_ping 4 1 4 8
check "ping IPv6 1 -> 4 through 20 % loss" mesh_ping 1 4 6 8

# The loss was real: the filters dropped frames on every link.
lost() {
	n=$(ip netns exec "$(mesh_ns "$1")" nft list chain netdev meshtest \
	    "in_m$2" 2>/dev/null | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
	[ "${n:-0}" -gt 0 ]
}
both_lost() { lost "$1" "$2" && lost "$2" "$1"; }
for e in $MESH_EDGES; do
	check "link $e: frames were dropped both ways" both_lost "${e%-*}" "${e#*-}"
done

# Still converged after the pings (routes are not flapping away).
check "still converged" mesh_wait_converged 60

for i in 1 2 3 4; do
	check "node $i: batsecd still running" mesh_running "$i"
done

finish
