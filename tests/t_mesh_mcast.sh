#!/bin/sh
# t_mesh_mcast.sh — multicast listeners (#24 item 2; batsecd(8)
# "Multicast", batsec-protocol(7) MULTICAST LISTENERS) on the chain
# 1-2-3-4.  Each node's own IP stack on batsec0 is its client; listeners
# join with a socket (the kernel sends IGMPv3 / MLDv2 reports, which the
# node snoops and announces in its signed OGMs).  Every datagram below
# goes from node 1, and each node counts it on batsec0:
#
#   * 239.1.2.3 and ff02::1:1234 with a listener on node 4: node 4 hears
#     each (sent as a UNICAST), nodes 2 and 3 do not;
#   * 239.9.9.9 with no listener anywhere: nobody hears it, nothing goes
#     into the mesh (mcast_no_listener counts it);
#   * listeners on nodes 2 and 4: both hear it, node 3 does not;
#   * ff02::1 (all-nodes, router advertisements) and 224.0.0.251 (mDNS,
#     224.0.0.0/24): flooded, every node hears them;
#   * frames on the links: 50 datagrams to a group whose one listener is
#     node 2 cross link 1-2 but not link 3-4; 50 to 224.0.0.251 cross
#     both;
#   * node 4's listener leaves (the kernel's leave report): 239.1.2.3
#     then reaches nobody;
#   * a forged listener announcement (node 3 announces 239.1.2.4 from a
#     made-up report): node 3 gets copies, nodes 2 and 4 still hear it;
#   * node 3 with a bridged client (multicast-listeners auto): it asks
#     for every group, so 239.9.9.9 reaches it.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_mcast

mesh_build 4 "1-2 2-3 3-4"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "chain of 4 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 4 converged within 60 s"
	finish
fi

cat >"$MT/join.py" <<'PY'
import socket, struct, sys, time
# join.py GROUP SECS: listen to GROUP on batsec0 for SECS seconds.
group, secs = sys.argv[1], float(sys.argv[2])
idx = socket.if_nametoindex("batsec0")
if ":" in group:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
                 socket.inet_pton(socket.AF_INET6, group) + struct.pack("@I", idx))
else:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                 socket.inet_aton(group) + struct.pack("@II", 0, idx))
time.sleep(secs)
PY
# join I GROUP SECS: a listener on node I (in the background).
join() {
	ip netns exec "$(mesh_ns "$1")" python3 "$MT/join.py" "$2" "$3" &
	track_pid "$!"
	echo "$!" >"$MT/join.$1.$(echo "$2" | tr ':.' '__').pid"
}
# heard DST WANT: one datagram from node 1 to DST; the nodes 2..4 that
# heard it, as a string like "4" or "2 4" ("" for none), equals WANT.
heard() {
	local got="" i
	mesh_bcast_count 1 3 "$1" || return 1
	for i in 2 3 4; do
		[ "$(cat "$MT/bcast.$i")" -ge 1 ] && got="${got:+$got }$i"
	done
	echo "$1 heard by '$got'" >>"$MT/heard.txt"
	[ "$got" = "$2" ]
}
# until_heard SECS DST WANT: heard, again until it holds (the listener's
# report, then its node's next OGM, must come first).
until_heard() {
	local end
	end=$(( $(mesh_now_ms) + $1 * 1000 ))
	while [ "$(mesh_now_ms)" -lt "$end" ]; do
		heard "$2" "$3" && return 0
	done
	return 1
}

join 4 239.1.2.3 600
join 4 ff02::1:1234 600
check "239.1.2.3, listener on node 4: only node 4 hears it" \
    until_heard 40 239.1.2.3 4
check "... sent as a UNICAST (mcast_unicast on node 1)" \
    eval '[ "$(mesh_stat 1 mcast_unicast)" -ge 1 ]'
check "ff02::1:1234, listener on node 4: only node 4 hears it" \
    until_heard 40 ff02::1:1234 4
check "239.9.9.9, no listener: nobody hears it" heard 239.9.9.9 ""
check "... and node 1 counted it (mcast_no_listener)" \
    eval '[ "$(mesh_stat 1 mcast_no_listener)" -ge 1 ]'
join 2 239.1.2.4 600
join 4 239.1.2.4 600
check "239.1.2.4, listeners on nodes 2 and 4: both hear it, node 3 not" \
    until_heard 40 239.1.2.4 "2 4"
check "ff02::1 (all-nodes): flooded, every node hears it" \
    heard ff02::1 "2 3 4"
check "224.0.0.251 (224.0.0.0/24): flooded, every node hears it" \
    heard 224.0.0.251 "2 3 4"

# Frames on the links: 50 datagrams from node 1 to a group whose only
# listener is node 2 (239.1.2.5) cross link 1-2 and not link 3-4; 50 to
# the flooded 224.0.0.251 cross both.  Counted as the packets m2 of node 1
# and m4 of node 3 sent meanwhile (HELLOs and OGMs add a few).
cat >"$MT/burst.py" <<'PY'
import socket, sys, time
addr, count = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"batsec0")
for i in range(count):
    s.sendto(b"batsec-mcast-burst", (addr, 9))
    time.sleep(0.01)
PY
txp() { ip netns exec "$(mesh_ns "$1")" cat "/sys/class/net/$2/statistics/tx_packets"; }
# linkburst DST: 50 datagrams to DST; "sent-on-1-2 sent-on-3-4" in LB.
linkburst() {
	local a b
	a=$(txp 1 m2); b=$(txp 3 m4)
	ip netns exec "$(mesh_ns 1)" python3 "$MT/burst.py" "$1" 50 || return 1
	sleep 1
	LB="$(( $(txp 1 m2) - a )) $(( $(txp 3 m4) - b ))"
	echo "$1: $LB" >>"$MT/links.txt"
}
join 2 239.1.2.5 600
check "239.1.2.5, listener on node 2: node 2 hears it" \
    until_heard 40 239.1.2.5 2
if linkburst 239.1.2.5; then
	set -- $LB
	check "50 to 239.1.2.5: link 1-2 carried them ($1 frames)" [ "$1" -ge 50 ]
	check "... link 3-4 did not ($2 frames, HELLOs and OGMs only)" \
	    [ "$2" -lt 25 ]
else
	fail "a burst to 239.1.2.5"
fi
if linkburst 224.0.0.251; then
	set -- $LB
	check "50 to 224.0.0.251 (flooded): link 3-4 carried them ($2 frames)" \
	    [ "$2" -ge 50 ]
else
	fail "a burst to 224.0.0.251"
fi

# Node 4's listener of 239.1.2.3 leaves.
kill "$(cat "$MT/join.4.239_1_2_3.pid")" 2>/dev/null
check "239.1.2.3 after node 4's listener left: nobody hears it" \
    until_heard 40 239.1.2.3 ""
check "node 4 snooped the leave (mcast_leaves)" \
    eval '[ "$(mesh_stat 4 mcast_leaves)" -ge 1 ]'

# A forged listener announcement: node 3 announces 239.1.2.4 although
# nothing on it listens (an IGMPv2 report made up and written into its
# batsec0 in the name of node 3's own MAC, so node 3 signs it into its
# OGMs).  Node 3 then gets copies of that group, and nobody loses
# theirs: nodes 2 and 4 still hear it.
cat >"$MT/forge_report.py" <<'EOF'
import socket, struct, sys
grp = socket.inet_aton(sys.argv[1])
src = bytes.fromhex(open("/sys/class/net/batsec0/address").read().strip().replace(":", ""))
dst = bytes([1, 0, 0x5e, grp[1] & 0x7f, grp[2], grp[3]])
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28, 0, 0, 1, 2, 0,
                 socket.inet_aton("10.99.0.99"), grp)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("batsec0", 0))
s.send(dst + src + b"\x08\x00" + ip + bytes([0x16, 0, 0, 0]) + grp)
EOF
check "node 3: a forged IGMP report for 239.1.2.4 written into batsec0" \
    ip netns exec "$(mesh_ns 3)" python3 "$MT/forge_report.py" 239.1.2.4
check "239.1.2.4 after node 3's forged announcement: nodes 2, 3 and 4 hear it" \
    until_heard 40 239.1.2.4 "2 3 4"

# Node 3 bridges a client: with multicast-listeners auto it can no longer
# list its groups (a snooping bridge keeps the client's reports), so it
# asks for all of them.
N3=$(mesh_ns 3)
C=$(ns_add c) || { fail "client namespace"; finish; }
bridge_up() {
	ip -n "$N3" link add br0 type bridge &&
	ip -n "$N3" link set batsec0 master br0 &&
	ip -n "$N3" link add cl type veth peer name eth0 netns "$C" &&
	ip -n "$N3" link set cl master br0 &&
	ip -n "$N3" link set cl up &&
	ip -n "$N3" link set br0 up &&
	ip -n "$C" link set eth0 up &&
	ip netns exec "$C" python3 -c 'import socket
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("eth0", 0))
s.send(b"\xff" * 6 + bytes([2, 0xcc, 0, 0, 0, 1]) + b"\x88\xb6" + bytes(46))'
}
if bridge_up; then
	pass "node 3 bridges a client"
else
	fail "node 3 bridges a client"
fi
check "239.9.9.9 with node 3 bridged: node 3 (every group) hears it" \
    until_heard 40 239.9.9.9 3
finish
