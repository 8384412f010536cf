#!/bin/sh
# t_mesh_fastpath.sh — the in-kernel relay (batsecd(8), "In-kernel
# relay"; fast-path in batsec.conf(5)) on a chain 1-2-3.  Node 2 attaches
# its program to m1 once node 1's stream makes m1 busy (not before, and
# not to the quiet m3); then it relays the stream from node 1 to node 3
# without its forwarder reading one frame of it; every
# datagram arrives intact; node 2's counters (interfaces, neighbours,
# stats) include what the kernel relayed.  When node 2's daemon stops,
# nothing relays any more.  With fast-path tc (what a kernel without tcx
# links gets) the program is a tc filter: the same relay, the filter
# removed when the daemon stops; one left by a killed daemon relays
# nothing once its deadline passed.  Restarted with fast-path off, node
# 2 removes that filter and relays in the forwarder again, and the kernel
# relays nothing.
#
# Node 2 runs with exactly the capabilities the shipped unit
# (contrib/batsecd.service) gives batsecd, through setpriv(1): its
# CapabilityBoundingSet=, AmbientCapabilities= (nothing inheritable) and
# NoNewPrivileges=; so the relay attaching shows that the unit's set loads
# it.  Started with that set less CAP_BPF, or less CAP_PERFMON, it cannot
# load the program and says so.  Its forwarder ends with neither.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_fastpath

# unit_setpriv [CAP]: setpriv(1) and its options for the unit's sets,
# less CAP (such as CAP_BPF) when given.
unit_setpriv() {
	local u=$TOP/contrib/batsecd.service bnd="-all" amb="-all" c
	for c in $(sed -n 's/^CapabilityBoundingSet=//p' "$u"); do
		[ "$c" = "${1:-}" ] && continue
		c=$(echo "${c#CAP_}" | tr 'A-Z' 'a-z')
		bnd="$bnd,+$c"
	done
	for c in $(sed -n 's/^AmbientCapabilities=//p' "$u"); do
		c=$(echo "${c#CAP_}" | tr 'A-Z' 'a-z')
		amb="$amb,+$c"
	done
	echo "setpriv --bounding-set=$bnd --inh-caps=$amb --ambient-caps=$amb" \
	    "$(grep -qx 'NoNewPrivileges=yes' "$u" && echo --no-new-privs)"
}
MESH_WRAP_2=$(unit_setpriv)
echo "node 2 runs under: $MESH_WRAP_2"

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
# 8 MB (SO_RCVBUFFORCE, 33: as root, past rmem_max): a receiver that a
# loaded machine leaves unscheduled for a while must not be what drops.
s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)
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

# capset NAME: node 2's forwarder's capability set NAME (CapBnd, ...).
capset() {
	sed -n "s/^$1:[[:space:]]*//p" "/proc/$(cat "$MT/n2.pid")/status"
}
# no_relay_caps: neither CAP_PERFMON (38) nor CAP_BPF (39) in any of node
# 2's forwarder's sets, and its bounding set no more than it permits.
no_relay_caps() {
	local s
	for s in CapEff CapPrm CapInh CapBnd CapAmb; do
		[ $(( 0x$(capset $s) & (3 << 38) )) -eq 0 ] || return 1
	done
	[ "$(capset CapBnd)" = "$(capset CapPrm)" ]
}
check "node 2's forwarder dropped CAP_BPF and CAP_PERFMON after loading (CapPrm $(capset CapPrm), CapBnd $(capset CapBnd))" \
    no_relay_caps

# The relay lives no longer than the daemon: right after node 2 stops,
# node 1 (which still has its route) reaches node 3 no more.
mesh_stop 2
check "node 2 stopped: nothing relays node 1's pings" mesh_noreply 1 3 4 3 2

# Without CAP_BPF, or without CAP_PERFMON, the program does not load.
check_not "under the unit's set node 2 loaded the relay" \
    grep -q "in-kernel relay unavailable" "$MT/n2.log"
for cap in CAP_BPF CAP_PERFMON; do
	: >"$MT/n2.log"
	MESH_WRAP_2=$(unit_setpriv $cap)
	mesh_start 2 || finish
	check "the unit's set less $cap: node 2 cannot load the relay" \
	    grep -q "in-kernel relay unavailable" "$MT/n2.log"
	mesh_stop 2
done
MESH_WRAP_2=$(unit_setpriv)

# ---- as a tc filter -----------------------------------------------------------
# tc_filter I IFACE: node I has the relay's tc filter at IFACE's ingress.
tc_filter() {
	ip netns exec "$(mesh_ns "$1")" tc filter show dev "$2" ingress |
	    grep -q "batsec_relay"
}
echo "fast-path tc" >>"$MT/n2.conf"
# n2_busy: node 2 started and converged, a stream made m1 busy.
n2_busy() {
	mesh_start 2 || finish
	if mesh_wait_converged 60; then
		pass "node 2 back with fast-path tc (${MESH_CONV_SECS} s)"
	else
		fail "node 2 back with fast-path tc within 60 s"
	fi
	GOT=$(stream)
	check "node 2 attaches the relay to m1 once it is busy" \
	    wait_for 10 fast_on 2 m1
}
n2_busy
check "node 2 logs it as a tc filter" grep -q \
    "mesh interface m1: busy, relaying through the kernel (a tc filter)" \
    "$MT/n2.log"
check "tc lists node 2's filter at m1's ingress" tc_filter 2 m1
check_not "node 2 has no filter at the quiet m3" tc_filter 2 m3
set -- $(n2_counts)
F0=$1 S0=$2
GOT=$(stream)
set -- $(n2_counts)
check "all $N datagrams arrived intact through the tc filter ($GOT)" \
    [ "${GOT:-0}" -eq "$N" ]
check "node 2's kernel relay counted them (fast_path_frames $F0 -> $1)" \
    [ $(($1 - F0)) -ge "$N" ]
check "node 2's forwarder read none of them from m1 ($(($2 - S0)) frames)" \
    [ $(($2 - S0)) -lt "$N" ]
mesh_stop 2
check_not "node 2 removed its filter when it stopped" tc_filter 2 m1

# Killed, node 2 leaves its filter behind.  UNICASTs for node 3 are
# written by hand on node 1's m2 in the version-2 layout, with node 1's
# MAC and mesh address but without its key (a guessed hop tag), as an
# outsider on the link would send them (to node 2's m1, from node 1 to
# node 3): the filter relays none of them while the daemon runs (the
# tag), and none after it was killed (the tag, and its deadline of 3 s,
# FWD_FAST_ALIVE_MS).  Node 3's m2 counts what arrives.  That the filter
# relays real frames is shown by the datagrams above.
cat >"$MT/uc.py" <<'EOF'
import socket, sys, time
ET = 0x88b5
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ET))
s.bind((sys.argv[2], ET))
if sys.argv[1] == "count":
    # 3 s in all: HELLOs and OGMs keep arriving too.
    end = time.monotonic() + 3
    n = 0
    while time.monotonic() < end:
        s.settimeout(max(end - time.monotonic(), 0.01))
        try:
            if b"fastpath-test" in s.recv(2048):
                n += 1
        except socket.timeout:
            break
    print(n)
    sys.exit(0)
mac = lambda a: bytes.fromhex(a.replace(":", ""))
inner = b"\xff" * 6 + mac(sys.argv[4]) + b"\x88\xb6" + b"fastpath-test" + bytes(50)
import os
me = s.getsockname()[4]
for i in range(int(sys.argv[6])):
    hop = bytes([0x40, 2, 5, 0]) + os.urandom(4) + \
        (1000 + i).to_bytes(8, "big") + os.urandom(8)
    e2e = mac(sys.argv[5]) + mac(sys.argv[4]) + (1).to_bytes(4, "big") + \
        (1).to_bytes(4, "big") + (1000 + i).to_bytes(8, "big")
    s.send(mac(sys.argv[3]) + me + ET.to_bytes(2, "big") + hop + e2e +
        inner + os.urandom(16))
    time.sleep(0.002)
EOF
M=50
N2M1=$(ip -n "$(mesh_ns 2)" -o link show m1 |
    sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p')
# by_hand: M UNICASTs from node 1 to node 3 through node 2's m1; how many
# arrived at node 3.
by_hand() {
	local rx
	ip netns exec "$(mesh_ns 3)" python3 "$MT/uc.py" count m2 \
	    >"$MT/uc.out" 2>&1 &
	rx=$!
	track_pid "$rx"
	sleep 0.5
	ip netns exec "$(mesh_ns 1)" python3 "$MT/uc.py" send m2 "$N2M1" \
	    "$(mesh_addr 1)" "$(mesh_addr 3)" "$M"
	wait "$rx"
	cat "$MT/uc.out"
}
n2_busy
GOT=$(by_hand)
check "node 2's filter relays none of $M forged UNICASTs ($GOT)" [ "${GOT:-1}" -eq 0 ]
P=$(cat "$MT/n2.pid")
kill -9 "$P"
wait "$P" 2>/dev/null
check "node 2 killed: its filter is still at m1" tc_filter 2 m1
sleep 4
GOT=$(by_hand)
check "the filter it left relayed none of them ($GOT)" [ "${GOT:-1}" -eq 0 ]

# ---- in the forwarder -----------------------------------------------------------
sed -i '/^fast-path /d' "$MT/n2.conf"
echo "fast-path off" >>"$MT/n2.conf"
mesh_start 2 || finish
if mesh_wait_converged 60; then
	pass "node 2 back with fast-path off (${MESH_CONV_SECS} s)"
else
	fail "node 2 back with fast-path off within 60 s"
fi
check "node 2 logs that the relay is off" \
    grep -q "in-kernel relay off (fast-path off)" "$MT/n2.log"
check "node 2 removed the filter the killed daemon left" \
    wait_for 5 sh -c "! ip netns exec $(mesh_ns 2) tc filter show dev m1 ingress | grep -q batsec_relay"
check "node 2 logs it" grep -q \
    "mesh interface m1: removed the in-kernel relay's tc filter an earlier batsecd left" \
    "$MT/n2.log"
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
