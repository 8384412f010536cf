#!/bin/sh
# t_mesh_apiso.sh — AP isolation (batsec.conf(5) ap-isolation) on the
# mesh 1-3-2: nodes 1 and 2 have ap-isolation on, node 3 is a gateway
# (policy and gateway server) with it off.  Each node bridges batsec0
# with a client namespace (clients 11, 22, 33).
#
#   * clients 11 and 22 both reach client 33 (the gateway's client);
#   * node 3 sees 11 and 22 announced isolated, node 1 sees 22 isolated
#     and 33 not;
#   * client 11 cannot ping client 22 (ARP, a broadcast, passes; the
#     unicast between the two isolated clients is dropped), and the
#     drop is counted;
#   * `batsec-ctl set ap-isolation off` on node 1: once node 2 has node
#     1's next OGM (client 11 no longer isolated), 11 and 22 reach each
#     other (polled).
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_apiso

mesh_build 3 "1-3 2-3"
# Node 3 may announce a gateway, and does; 1 and 2 isolate their clients.
awk -v k="$(mesh_key 3)" '$2 == k { print $0 " gateway"; next } { print }' \
    "$MT/policy" >"$MT/policy.new" && cat "$MT/policy.new" >"$MT/policy"
echo "gateway server 10mbit/2mbit" >>"$MT/n3.conf"
echo "ap-isolation on" >>"$MT/n1.conf"
echo "ap-isolation on" >>"$MT/n2.conf"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "mesh 1-3-2 converged (${MESH_CONV_SECS} s)"
else
	fail "mesh 1-3-2 converged within 60 s"
	finish
fi

getval() { mesh_ctl "$1" -j get "$2" | python3 -c 'import json, sys
print(json.load(sys.stdin)[sys.argv[1].replace("-", "_")])' "$2"; }
is_val() { [ "$(getval "$1" "$2")" = "$3" ]; }
check "get ap-isolation on node 1: on" is_val 1 ap-isolation on
check "get ap-isolation on node 3: off" is_val 3 ap-isolation off

# client I: namespace cI with eth0 (address I I, e.g. 10.99.0.11), its
# peer cl and batsec0 in node I's bridge br0, which takes node I's
# addresses.
client_up() {
	local n c ns
	n=$1; c=$2
	ns=$(mesh_ns "$n")
	ip -n "$ns" link add br0 type bridge &&
	ip -n "$ns" addr flush dev batsec0 &&
	ip -n "$ns" link set batsec0 master br0 &&
	ip -n "$ns" link add cl type veth peer name eth0 netns "$c" &&
	ip -n "$ns" link set cl master br0 &&
	ip -n "$ns" link set cl up &&
	ip -n "$ns" link set br0 up &&
	ip -n "$ns" addr add "$(mesh_ip4 "$n")/24" dev br0 &&
	ip -n "$c" link set eth0 up &&
	ip -n "$c" addr add "$(mesh_ip4 "$n$n")/24" dev eth0
}
C1=$(ns_add c1) && C2=$(ns_add c2) && C3=$(ns_add c3) ||
    { fail "client namespaces"; finish; }
check "client 11 behind node 1" client_up 1 "$C1"
check "client 22 behind node 2" client_up 2 "$C2"
check "client 33 behind node 3" client_up 3 "$C3"
cmac() { ip -n "$1" -o link show eth0 |
    sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'; }
M1=$(cmac "$C1"); M2=$(cmac "$C2"); M3=$(cmac "$C3")

# cping NS DST [COUNT]: ping.py from a client namespace, COUNT (3)
# echoes, 2 s each; 0 at the first reply.
cping() {
	ip netns exec "$1" python3 "$MT/ping.py" -4 "${3:-3}" 2 \
	    "$(mesh_ip4 "$2")" >/dev/null 2>&1
}
# cnoreply NS DST: the echoes went out and none was answered.
cnoreply() {
	cping "$@"
	[ $? -eq 1 ]
}
# retry N CMD...: CMD up to N times.
retry() {
	local n
	n=$1; shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		n=$((n - 1))
	done
	return 1
}

# Both isolated clients reach the gateway's client (and make themselves
# known to their nodes).
check "client 11 -> client 33 (the gateway's)" retry 5 cping "$C1" 33
check "client 22 -> client 33 (the gateway's)" retry 5 cping "$C2" 33
check "client 33 -> client 11" retry 3 cping "$C3" 11

# tt_iso I MAC YES|NO: node I has MAC in its table, isolated or not.
tt_iso() {
	mesh_json "$1" tt "any(r['client'] == '$2' and \
r.get('isolated', False) == ('$3' == 'yes') for r in j)" | grep -qx yes
}
check "node 3: client 11 announced isolated" wait_for 30 tt_iso 3 "$M1" yes
check "node 3: client 22 announced isolated" wait_for 30 tt_iso 3 "$M2" yes
check "node 1: client 22 isolated" wait_for 30 tt_iso 1 "$M2" yes
check "node 1: client 33 (gateway's) not isolated" wait_for 30 \
    tt_iso 1 "$M3" no
check "node 1: its own client 11 isolated" tt_iso 1 "$M1" yes
mesh_ctl 1 tt | sed 's/^/  node 1 tt: /'

# Between the two isolated clients: no reply either way.
d0=$(( $(mesh_stat 1 data_drop_ap_isolation_out) +
    $(mesh_stat 2 data_drop_ap_isolation_out) ))
check "client 11 -/-> client 22 (both isolated)" cnoreply "$C1" 22 2
check "client 22 -/-> client 11 (both isolated)" cnoreply "$C2" 11 2
d1=$(( $(mesh_stat 1 data_drop_ap_isolation_out) +
    $(mesh_stat 2 data_drop_ap_isolation_out) ))
echo "  drop_ap_isolation_out on nodes 1 and 2: $d0 -> $d1"
check "the sending nodes counted the drops" [ "$d1" -gt "$d0" ]
check "the gateway's client still reachable" cping "$C1" 33

# Off at run time on node 1: its clients are announced without the flag.
check "set ap-isolation off on node 1" mesh_ctl 1 set ap-isolation off
check "get ap-isolation on node 1: off" is_val 1 ap-isolation off
check "node 2: client 11 no longer isolated" wait_for 30 tt_iso 2 "$M1" no
check "client 11 -> client 22 after set off" retry 5 cping "$C1" 22
check "client 22 -> client 11 after set off" retry 5 cping "$C2" 11

check "node 1: batsecd still running" mesh_running 1
check "node 2: batsecd still running" mesh_running 2
check "node 3: batsecd still running" mesh_running 3
finish
