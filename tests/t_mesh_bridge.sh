#!/bin/sh
# t_mesh_bridge.sh — a client behind a node: node 3 of the chain 1-2-3
# bridges batsec0 (br0) with a veth to a client namespace that runs no
# batsecd.  The client's MAC is learnt from the frames it sends through
# batsec0, announced in node 3's signed OGMs, and node 1 maps it to node
# 3 (batsec-ctl tt) and reaches the client over IPv4 and IPv6; the
# client reaches node 1 too.
. "$(dirname "$0")/lib.sh"
# OGMs and HELLOs every 500 ms, as in the other mesh tests.
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_bridge

mesh_build 3 "1-2 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "chain of 3 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 3 converged within 60 s"
fi

# The client: namespace C with eth0 (10.99.0.33, fd99::33), its peer cl
# and batsec0 in node 3's bridge br0, which takes node 3's addresses.
N3=$(mesh_ns 3)
C=$(ns_add c) || { fail "client namespace"; finish; }
bridge_up() {
	ip -n "$N3" link add br0 type bridge &&
	ip -n "$N3" addr flush dev batsec0 &&
	ip -n "$N3" link set batsec0 master br0 &&
	ip -n "$N3" link add cl type veth peer name eth0 netns "$C" &&
	ip -n "$N3" link set cl master br0 &&
	ip -n "$N3" link set cl up &&
	ip -n "$N3" link set br0 up &&
	ip -n "$N3" addr add "$(mesh_ip4 3)/24" dev br0 &&
	ip -n "$N3" addr add "$(mesh_ip6 3)/64" dev br0 nodad &&
	ip -n "$C" link set eth0 up &&
	ip -n "$C" addr add "$(mesh_ip4 33)/24" dev eth0 &&
	ip -n "$C" addr add "$(mesh_ip6 33)/64" dev eth0 nodad
}
check "node 3 bridges batsec0 with the client's link" bridge_up
CM=$(ip -n "$C" -o link show eth0 | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')

# mesh_ping works on node numbers: "node 33" is the client's address.
check "ping IPv4 1 -> the client behind node 3" mesh_ping 1 33 4
check "ping IPv6 1 -> the client behind node 3" mesh_ping 1 33 6
check "ping IPv4 node 3 -> node 1 (its address now on br0)" mesh_ping 3 1 4

A3=$(mesh_addr 3)
check "tt on node 3: the client's MAC ($CM) is its own client" \
    wait_for 30 mesh_tt_has 3 "$CM" "$A3"
check "tt on node 1: the client's MAC belongs to node 3" \
    wait_for 30 mesh_tt_has 1 "$CM" "$A3"
check "tt on node 2: the client's MAC belongs to node 3" \
    wait_for 30 mesh_tt_has 2 "$CM" "$A3"

# The client's own ping, answered by node 1's host.
client_ping() {
	ip netns exec "$C" python3 "$MT/ping.py" "-$1" 3 5 "$2" >/dev/null 2>&1
}
check "ping IPv4 client -> node 1" client_ping 4 "$(mesh_ip4 1)"
check "ping IPv6 client -> node 1" client_ping 6 "$(mesh_ip6 1)"

check "node 1: batsecd still running" mesh_running 1
check "node 3: batsecd still running" mesh_running 3
finish
