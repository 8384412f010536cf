#!/bin/sh
# t_mesh_allowlist.sh — a node whose key is not on the allow-list:
#
#	1 - 2 - 3
#	    |
#	    4	(untrusted: nodes 1-3 trust only each other; node 4 trusts all)
#
# Nodes 1-3 form a mesh and ping each other.  Node 4 runs a correct daemon
# with a valid key of its own, but it never appears in their originator
# or neighbour tables, it cannot ping them nor they it, and node 2 counts
# its frames as dropped by policy.
. "$(dirname "$0")/lib.sh"
# OGMs and HELLOs every 500 ms (the default is 1000) keep the four mesh
# tests well under the CI's time budget; the behaviour is the same.
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_allowlist

mesh_build 4 "1-2 2-3 2-4"
mesh_policy "$MT/policy" 1 2 3
mesh_policy "$MT/policy.4" 1 2 3 4
mesh_conf 4 "$MT/policy.4"
mesh_start_all || finish

if mesh_wait_converged 60 1 2 3; then
	pass "trusted nodes 1-3 converged (${MESH_CONV_SECS} s)"
else
	fail "trusted nodes 1-3 converged within 60 s"
fi
check "node 4's daemon runs" mesh_running 4
check "ping 1 -> 3 (trusted)" mesh_ping 1 3 4
check "ping 3 -> 1 over IPv6 (trusted)" mesh_ping 3 1 6

# Node 4 is really on the air: it hears node 2's HELLOs (and node 2
# counts node 4's, below).
hears() { [ "$(mesh_stat "$1" rx_hello)" -gt 0 ] 2>/dev/null; }
check "node 4's parser receives HELLOs" wait_for 30 hears 4

# no_node4 I CMD: node I answered CMD and the answer does not name node 4.
A4=$(mesh_addr 4)
no_node4() {
	out=$(mesh_ctl "$1" -j "$2" 2>/dev/null) || return 1
	case $out in
	'['*) ;;
	*) return 1 ;;
	esac
	case $out in
	*"$A4"*) return 1 ;;
	esac
	return 0
}

# Watch for 12 s (a dozen OGM and HELLO intervals), every node each time.
bad=""
k=0
while [ $k -lt 12 ]; do
	for i in 1 2 3; do
		no_node4 "$i" o || bad="$bad o@$i"
		no_node4 "$i" n || bad="$bad n@$i"
	done
	sleep 1
	k=$((k + 1))
done
if [ -z "$bad" ]; then
	pass "node 4 never in the o or n tables of nodes 1-3 (12 s)"
else
	fail "node 4 never in the o or n tables of nodes 1-3 (seen or no" \
	    "answer:$bad)"
	for i in 1 2 3; do echo "node $i:"; mesh_ctl "$i" o; mesh_ctl "$i" n; done
fi

# Three echoes a second apart, 2 s wait after the last: none may get an
# answer (and the ping itself must have run).
no_ping() { mesh_noreply "$1" "$2" "$3" 3 2; }
check "node 4 cannot ping node 2" no_ping 4 2 4
check "node 4 cannot ping node 1" no_ping 4 1 4
check "node 4 cannot ping node 2 over IPv6" no_ping 4 2 6
# Node 4's ARP requests never reached node 2, so no reply came back.  (Once
# node 2 itself sends ARP requests, node 4, which trusts node 2, hears
# them and learns node 2's MAC: so this comes first.)
check "node 4's ARP for node 2 stays unresolved" sh -c \
    "! ip -n '$(mesh_ns 4)' neigh show 10.99.0.2 dev batsec0 | grep -q lladdr"
check "node 2 cannot ping node 4" no_ping 2 4 4
check "node 2's ARP for node 4 stays unresolved" sh -c \
    "! ip -n '$(mesh_ns 2)' neigh show 10.99.0.4 dev batsec0 | grep -q lladdr"
check "trusted ping 1 -> 2 still passes" mesh_ping 1 2 4

# Node 2 dropped node 4's frames by policy, and counts them.
drops=$(mesh_stat 2 drop_policy)
mesh_ctl 2 -j s >"$MT/stats.2.txt" 2>&1
check "node 2: stats drop_policy counts node 4's frames ($drops)" \
    test "${drops:-0}" -gt 0
drops1=$(mesh_stat 1 drop_policy)
check "node 1 (not next to node 4): no policy drops ($drops1)" \
    test "${drops1:-x}" = 0

finish
