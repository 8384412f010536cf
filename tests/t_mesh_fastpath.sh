#!/bin/sh
# t_mesh_fastpath.sh — the in-kernel relay (batsecd(8), "In-kernel
# relay"; fast-path in batsec.conf(5)) on a chain 1-2-3.  Node 2 attaches
# its program to m1 once node 1's stream makes m1 busy (not before, and
# not to the quiet m3); then it relays the stream from node 1 to node 3
# without its forwarder reading one frame of it; every
# datagram arrives intact; node 2's counters (interfaces, neighbours,
# stats) include what the kernel relayed.  When node 2's daemon stops,
# nothing relays any more.  Restarted with fast-path off, node 2 relays
# in the forwarder again and the kernel relays nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_fastpath

mesh_build 3 "1-2 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "three nodes converged (${MESH_CONV_SECS} s)"
else
	fail "three nodes converged within 60 s"
fi

# fast_on I IFACE: node I's interface IFACE has the relay attached.
fast_on() {
	[ "$(mesh_json "$1" if "[r['fast_path'] for r in j if r['name'] == '$2'][0]")" = yes ]
}
check_not "node 2's relay is not attached while the mesh is idle" \
    fast_on 2 m1
check "node 1 pings node 3 (IPv4)" mesh_ping 1 3 4
check "node 1 pings node 3 (IPv6)" mesh_ping 1 3 6

# N datagrams of 1000 bytes from node 1 to node 3; node 3 prints how many
# arrived with the right contents.
N=300
cat >"$MT/udp_rx.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 5300)); s.settimeout(5)
good = 0
while True:
    try:
        d = s.recv(2048)
    except socket.timeout:
        break
    i = int.from_bytes(d[:4], "big")
    if len(d) == 1000 and d[4:] == bytes((i + k) & 0xff for k in range(996)):
        good += 1
print(good)
EOF
cat >"$MT/udp_tx.py" <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(int(sys.argv[2])):
    s.sendto(i.to_bytes(4, "big") + bytes((i + k) & 0xff for k in range(996)),
             (sys.argv[1], 5300))
    time.sleep(0.002)
EOF
# stream: run the datagrams, print how many arrived intact.
stream() {
	local rx
	ip netns exec "$(mesh_ns 3)" python3 "$MT/udp_rx.py" "$(mesh_ip4 3)" \
	    >"$MT/udp_rx.out" 2>&1 &
	rx=$!
	track_pid "$rx"
	sleep 0.5
	ip netns exec "$(mesh_ns 1)" python3 "$MT/udp_tx.py" "$(mesh_ip4 3)" \
	    "$N" 2>/dev/null
	wait "$rx"
	cat "$MT/udp_rx.out"
}
# Node 2's counters: stats fast_path_frames, m1's socket reads, the data
# frames it counted from node 1 and to node 3.
n2_counts() {
	local a1 a3
	a1=$(mesh_addr 1); a3=$(mesh_addr 3)
	echo "$(mesh_stat 2 fast_path_frames)" \
	    "$(mesh_json 2 if "[r['rx_mesh_frames'] for r in j if r['name'] == 'm1'][0]")" \
	    "$(mesh_json 2 n "[r['rx_frames'] for r in j if r['address'] == '$a1'][0]")" \
	    "$(mesh_json 2 n "[r['tx_frames'] for r in j if r['address'] == '$a3'][0]")"
}

# A first stream makes m1 busy: over 100 UNICASTs for node 3 a second.
GOT=$(stream)
check "the first $N datagrams arrived intact ($GOT)" [ "${GOT:-0}" -eq "$N" ]
check "node 2 attaches the relay to m1 once it is busy" \
    wait_for 10 fast_on 2 m1
check "node 2 logs it" grep -q "mesh interface m1: busy, relaying through the kernel" \
    "$MT/n2.log"
check_not "node 2 leaves the quiet m3 alone" fast_on 2 m3

set -- $(n2_counts)
F0=$1 S0=$2 R0=$3 T0=$4
GOT=$(stream)
set -- $(n2_counts)
check "all $N datagrams arrived intact through the kernel relay ($GOT)" \
    [ "${GOT:-0}" -eq "$N" ]
check "node 2's kernel relay counted them (fast_path_frames $F0 -> $1)" \
    [ $(($1 - F0)) -ge "$N" ]
check "node 2's forwarder read none of them from m1 ($(($2 - S0)) frames)" \
    [ $(($2 - S0)) -lt "$N" ]
check "node 2's neighbour counters include them (rx from 1: +$(($3 - R0)), tx to 3: +$(($4 - T0)))" \
    [ $(($3 - R0)) -ge "$N" ] && [ $(($4 - T0)) -ge "$N" ]

# The relay lives no longer than the daemon: right after node 2 stops,
# node 1 (which still has its route) reaches node 3 no more.
mesh_stop 2
check "node 2 stopped: nothing relays node 1's pings" mesh_noreply 1 3 4 3 2

# Relaying in the forwarder again.
echo "fast-path off" >>"$MT/n2.conf"
mesh_start 2 || finish
if mesh_wait_converged 60; then
	pass "node 2 back with fast-path off (${MESH_CONV_SECS} s)"
else
	fail "node 2 back with fast-path off within 60 s"
fi
check "node 2 logs that the relay is off" \
    grep -q "in-kernel relay off (fast-path off)" "$MT/n2.log"
check "node 1 pings node 3 through the forwarder" mesh_ping 1 3 4
set -- $(n2_counts)
S0=$2
GOT=$(stream)
check_not "node 2 attached no relay" fast_on 2 m1
set -- $(n2_counts)
check "all $N datagrams arrived intact through the forwarder ($GOT)" \
    [ "${GOT:-0}" -eq "$N" ]
check "the kernel relayed none of them (fast_path_frames $1)" [ "$1" -eq 0 ]
check "node 2's forwarder read them from m1 (+$(($2 - S0)))" \
    [ $(($2 - S0)) -ge "$N" ]
finish
