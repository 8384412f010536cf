#!/bin/sh
# t_mesh_bla.sh — bridge loop avoidance (batsec.conf(5) bla; #24 item 4).
# Mesh 1-3-2.  Nodes 1 and 2 both bridge batsec0 (br0) into ONE LAN: a
# namespace L with the bridge sw and ports p1 (to node 1's br0), p2 (to
# node 2's br0) and pc (to the client namespace C, eth0 10.99.0.33).
# Node 3 is the host on the far side (10.99.0.3 on batsec0).  IPv6 is off
# in the LAN's namespaces so that only the test's own frames are
# broadcast.
#
#  (a) bla off: one UDP broadcast of the client is counted on the
#      client's eth0 for BLA_OFF_SECS (2) seconds: it comes back again and
#      again (a loop through the mesh; or, when the client's counter missed
#      them on a loaded machine, nodes 1 and 2 read hundreds of frames
#      from batsec0 meanwhile).  Then both LAN ports go down (the
#      loop ends), nodes 1 and 2 restart with "bla on", the ports go up.
#      BLA_OFF=0 skips this half.
#  (b) bla on: each gateway sees the other (bla_backbones 1); a burst of
#      BLA_BURST (5) broadcasts from the client, counted for 10 s: node 3
#      sees each exactly once, the client none come back; a burst from
#      node 3: the client sees each exactly once, node 3 none come back.
#  (c) IPv4 ping client <-> node 3 both ways; node 3 maps the client's
#      MAC to exactly one of nodes 1 and 2 (the elected one).
#  (d) the elected gateway's batsecd stops (its br0 stays on the LAN;
#      BLA_PORT_DOWN=1 also takes its LAN port down, as a node that is
#      switched off): the other times it out (bla_backbones 0), claims
#      node 3's MAC on the LAN (CLAIM frames) and ping client -> node 3
#      works again through it within BLA_RECOVER_S (30) seconds; the time
#      taken is printed (one echo a second, 1 s wait each).
#  (e) it starts again (LAN port up again) while the client sends 50
#      broadcasts, one each 0.2 s: none comes back to the client, node 3
#      sees at least 40 and copies of them at most twice as many.
#  (f) after all that, a host on the LAN (the client) floods forged
#      ANNOUNCEs and CLAIMs for 5 s: refused or only counted, no extra
#      backbone, the client's broadcasts cross once and do not loop.
# BLA_ONLY_OFF=1 stops after (a); BLA_DEBUG=1 prints the TT entries of
# the client while (d) waits.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_bla

BURST=${BLA_BURST:-5}
OFF_SECS=${BLA_OFF_SECS:-2}
RECOVER_S=${BLA_RECOVER_S:-30}
T0=$(mesh_now_ms)
stamp() { echo "# $(mesh_secs_since "$T0") s: $*"; }

mesh_build 3 "1-3 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "mesh 1-3-2 converged (${MESH_CONV_SECS} s)"
else
	fail "mesh 1-3-2 converged within 60 s"
	finish
fi
N1=$(mesh_ns 1)
N2=$(mesh_ns 2)
N3=$(mesh_ns 3)
A1=$(mesh_addr 1)
A2=$(mesh_addr 2)

v6off() {
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
	    ip netns exec "$1" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
}
L=$(ns_add lan) || { fail "LAN namespace"; finish; }
C=$(ns_add c) || { fail "client namespace"; finish; }
lan_up() {
	local i
	for ns in "$L" "$C" "$N1" "$N2" "$N3"; do v6off "$ns" || return 1; done
	ip -n "$L" link add sw type bridge &&
	ip -n "$L" link set sw up &&
	ip -n "$L" link add pc type veth peer name eth0 netns "$C" &&
	ip -n "$L" link set pc master sw &&
	ip -n "$L" link set pc up &&
	ip -n "$C" link set eth0 up &&
	ip -n "$C" addr add "$(mesh_ip4 33)/24" dev eth0 || return 1
	for i in 1 2; do
		ns=$(mesh_ns "$i")
		ip -n "$ns" link add br0 type bridge &&
		ip -n "$ns" link add lan type veth peer name "p$i" netns "$L" &&
		ip -n "$ns" link set lan master br0 &&
		ip -n "$ns" link set lan up &&
		ip -n "$ns" link set br0 up &&
		ip -n "$L" link set "p$i" master sw &&
		bridge_tap "$i" || return 1
	done
}
# bridge_tap I: node I's batsec0 into its br0, its address on br0.
bridge_tap() {
	local ns
	ns=$(mesh_ns "$1")
	ip -n "$ns" addr flush dev batsec0 &&
	ip -n "$ns" link set batsec0 master br0 &&
	{ ip -n "$ns" -o addr show dev br0 | grep -q "$(mesh_ip4 "$1")/" ||
	    ip -n "$ns" addr add "$(mesh_ip4 "$1")/24" dev br0; }
}
ports() { ip -n "$L" link set p1 "$1" && ip -n "$L" link set p2 "$1"; }
# Both nodes' LAN links up on both ends.
lan_carrier() {
	ip -n "$N1" -o link show lan | grep -q "state UP" &&
	ip -n "$N2" -o link show lan | grep -q "state UP" &&
	ip -n "$L" -o link show p1 | grep -q "state UP" &&
	ip -n "$L" -o link show p2 | grep -q "state UP"
}
check "LAN: bridge sw with nodes 1 and 2 (br0) and the client" lan_up
CM=$(ip -n "$C" -o link show eth0 | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')

# The client's broadcasts (UDP to 10.99.0.255:9, a token in each) and a
# counter of frames holding a token on an interface (bcast_rx.py:
# incoming frames only).
cat >"$MT/lan_tx.py" <<'EOF'
import socket, sys, time
dev, token, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
gap = float(sys.argv[4]) if len(sys.argv) > 4 else 0.05
for i in range(n):
    s.sendto(("%s-%d." % (token, i)).encode(), ("10.99.0.255", 9))
    time.sleep(gap)
EOF
# count NS IFACE TOKEN SECS OUT: count in the background, pid in OUT.pid.
count() {
	rm -f "$5" "$5.ready"
	ip netns exec "$1" python3 "$MT/bcast_rx.py" "$2" "$3" "$4" \
	    "$5.ready" seq >"$5" 2>>"$MT/bcast.txt" &
	track_pid "$!"
	echo "$!" >"$5.pid"
	wait_for 30 test -e "$5.ready"
}
# counted OUT: wait for that count (in this shell, not a subshell).
counted() { wait "$(cat "$1.pid")" 2>/dev/null; }
# burst NS DEV: BURST broadcasts from NS out of DEV; their token in TOK.
burst() {
	ip netns exec "$1" python3 "$MT/lan_tx.py" "$2" "$TOK" "$BURST"
}

# ---- (a) bla off ------------------------------------------------------------
if [ "${BLA_OFF:-1}" != 0 ]; then
	ports up
	wait_for 10 lan_carrier
	sleep 1
	TOK="bla-off-$$"
	TAP0=$(( $(mesh_stat 1 tap_rx_frames) + $(mesh_stat 2 tap_rx_frames) ))
	count "$C" eth0 "$TOK" "$OFF_SECS" "$MT/off.c"
	ip netns exec "$C" python3 "$MT/lan_tx.py" eth0 "$TOK" 1
	counted "$MT/off.c"
	OFF=$(cat "$MT/off.c")
	ports down
	OFF_N=${OFF#* }
	stamp "bla off: one broadcast of the client came back $OFF_N times" \
	    "in $OFF_SECS s; TAP frames read by node 1:" \
	    "$(mesh_stat 1 tap_rx_frames), node 2: $(mesh_stat 2 tap_rx_frames)"
	# The loop shows at the client (copies back) and at nodes 1 and 2
	# (frames read from batsec0, which were a handful a second before);
	# on a loaded machine the client's counter has missed them once.
	TAPD=$(( $(mesh_stat 1 tap_rx_frames) + $(mesh_stat 2 tap_rx_frames) -
	    TAP0 ))
	if [ "${OFF_N:-0}" -gt 10 ] || [ "$TAPD" -gt 200 ]; then
		pass "bla off: the broadcast loops ($OFF_N copies back at the" \
		    "client, $TAPD frames read from batsec0 by nodes 1 and 2" \
		    "in $OFF_SECS s)"
	else
		fail "bla off: the broadcast loops (${OFF_N:-?} copies back," \
		    "$TAPD frames read from batsec0)"
	fi
	sleep 2
	[ -n "${BLA_ONLY_OFF:-}" ] && finish
fi

# ---- nodes 1 and 2 (re)started with bla on ------------------------------------
restart_bla() {
	local i
	for i in 1 2; do
		grep -qx "bla on" "$MT/n$i.conf" || echo "bla on" >>"$MT/n$i.conf"
		mesh_stop "$i"
		mesh_launch "$i"
	done
	for i in 1 2; do
		wait_for 30 mesh_started "$i" && bridge_tap "$i" || return 1
	done
}
check "nodes 1 and 2 restarted with bla on" restart_bla
T_ON=$(mesh_now_ms)
ports up
if mesh_wait_converged 60; then
	pass "mesh converged again (${MESH_CONV_SECS} s)"
else
	fail "mesh converged again within 60 s"
fi
backbones() { [ "$(mesh_stat "$1" bla_backbones)" = "$2" ]; }
check "node 1 sees node 2 on its LAN (bla_backbones 1)" wait_for 20 backbones 1 1
check "node 2 sees node 1 on its LAN (bla_backbones 1)" wait_for 20 backbones 2 1
check "node 3 (not bridged) sees no backbone" backbones 3 0

# ---- (b) no storm -------------------------------------------------------------
# For FWD_BLA_WAIT_MS (2.5 s) after bla is turned on a backbone drops
# broadcasts both ways (batsecd(8)); the mesh and the backbones can be up
# before that is over.
left=$(( T_ON + 3000 - $(mesh_now_ms) ))
[ "$left" -gt 0 ] && sleep "$(awk "BEGIN { print $left / 1000 }")"
TOK="bla-on-c-$$"
count "$C" eth0 "$TOK" 10 "$MT/on.c"
count "$N3" batsec0 "$TOK" 10 "$MT/on.3"
burst "$C" eth0
counted "$MT/on.c"
counted "$MT/on.3"
ON_C=$(cat "$MT/on.c")
ON_3=$(cat "$MT/on.3")
stamp "bla on, $BURST broadcasts of the client, 10 s: back at the client" \
    "'$ON_C', at node 3 '$ON_3' (distinct copies)"
check "bla on: none of the client's broadcasts comes back to it in 10 s" \
    [ "${ON_C#* }" = 0 ]
check "bla on: node 3 gets each of the client's $BURST broadcasts once" \
    [ "$ON_3" = "$BURST $BURST" ]
TOK="bla-on-3-$$"
count "$C" eth0 "$TOK" 10 "$MT/on3.c"
count "$N3" batsec0 "$TOK" 10 "$MT/on3.3"
burst "$N3" batsec0
counted "$MT/on3.c"
counted "$MT/on3.3"
R_C=$(cat "$MT/on3.c")
R_3=$(cat "$MT/on3.3")
stamp "bla on, $BURST broadcasts of node 3, 10 s: at the client '$R_C'," \
    "back at node 3 '$R_3'"
check "bla on: the client gets each of node 3's $BURST broadcasts once" \
    [ "$R_C" = "$BURST $BURST" ]
check "bla on: none of node 3's broadcasts comes back to it" \
    [ "${R_3#* }" = 0 ]
for i in 1 2; do
	stamp "node $i: bla_drops_lan $(mesh_stat $i bla_drops_lan)" \
	    "bla_drops_mesh $(mesh_stat $i bla_drops_mesh)" \
	    "bla_drops_backbone $(mesh_stat $i bla_drops_backbone)" \
	    "bla_heard $(mesh_stat $i bla_heard)"
done

# ---- (c) unicast through the elected gateway ----------------------------------
client_ping() {
	ip netns exec "$C" python3 "$MT/ping.py" -4 3 5 "$1" >/dev/null 2>&1
}
check "ping client -> node 3" client_ping "$(mesh_ip4 3)"
check "ping node 3 -> client" mesh_ping 3 33 4
elected() {
	if mesh_tt_has 3 "$CM" "$A1" && ! mesh_tt_has 3 "$CM" "$A2"; then
		echo 1
	elif mesh_tt_has 3 "$CM" "$A2" && ! mesh_tt_has 3 "$CM" "$A1"; then
		echo 2
	else
		return 1
	fi
}
E=$(wait_for 20 elected >/dev/null && elected)
if [ -n "$E" ]; then
	pass "node 3 maps the client's MAC to one gateway: node $E"
else
	fail "node 3 maps the client's MAC to exactly one of nodes 1 and 2"
	E=1
fi
O=$((3 - E))

# ---- (d) the elected gateway goes ----------------------------------------------
TS=$(mesh_now_ms)
if [ "${BLA_PORT_DOWN:-0}" = 1 ]; then
	stamp "stopping node $E (batsecd, and its LAN port p$E down)"
	mesh_stop "$E"
	ip -n "$L" link set "p$E" down
else
	stamp "stopping node $E (its batsecd; its br0 stays on the LAN)"
	mesh_stop "$E"
fi
check "node $O times node $E out (bla_backbones 0)" wait_for 15 backbones "$O" 0
# One echo a second (1 s wait each) until one is answered or RECOVER_S.
recovered() {
	while [ $(( $(mesh_now_ms) - TS )) -lt $((RECOVER_S * 1000)) ]; do
		ip netns exec "$C" python3 "$MT/ping.py" -4 1 1 \
		    "$(mesh_ip4 3)" >/dev/null 2>&1 && return 0
		[ -n "${BLA_DEBUG:-}" ] && stamp "node 3 tt: $(mesh_json 3 tt \
		    "[r['originator'] for r in j if r['client'] == '$CM']")" \
		    "node $O: $(mesh_json "$O" tt \
		    "[r['originator'] for r in j if r['client'] == '$CM']")" \
		    "local_learnt $(mesh_stat "$O" local_learnt)" \
		    "withdrawn $(mesh_stat "$O" local_withdrawn)" \
		    "drops_lan_unicast $(mesh_stat "$O" bla_drops_lan_unicast)" \
		    "tap rx $(mesh_json "$O" s "j.get('tap_rx_frames')")"
	done
	return 1
}
if recovered; then
	pass "ping client -> node 3 through node $O after node $E stopped" \
	    "($(mesh_secs_since "$TS") s)"
else
	fail "ping client -> node 3 within $RECOVER_S s of node $E stopping"
fi
check "ping node 3 -> client through node $O" mesh_ping 3 33 4
check "node 3 maps the client's MAC to node $O" \
    wait_for 20 mesh_tt_has 3 "$CM" "$(mesh_addr "$O")"

# ---- (e) it comes back while the client broadcasts -------------------------------
# 50 broadcasts, one each 0.2 s, while node E's batsecd starts again (its
# br0 on the LAN): none comes back to the client, node 3 sees none twice.
TOK="bla-rejoin-$$"
count "$C" eth0 "$TOK" 14 "$MT/rj.c"
count "$N3" batsec0 "$TOK" 14 "$MT/rj.3"
ip netns exec "$C" python3 "$MT/lan_tx.py" eth0 "$TOK" 50 0.2 &
TX=$!
track_pid "$TX"
mesh_launch "$E"
if wait_for 30 mesh_started "$E" && bridge_tap "$E"; then
	ip -n "$L" link set "p$E" up
	pass "node $E started again, batsec0 in its br0"
else
	fail "node $E started again"
fi
wait "$TX" 2>/dev/null
counted "$MT/rj.c"
counted "$MT/rj.3"
RJ_C=$(cat "$MT/rj.c")
RJ_3=$(cat "$MT/rj.3")
stamp "node $E back, 50 broadcasts of the client: back at the client" \
    "'$RJ_C', at node 3 '$RJ_3' (distinct copies); node $O:" \
    "bla_drops_new_orig $(mesh_stat "$O" bla_drops_new_orig)," \
    "node $E: bla_drops_wait $(mesh_stat "$E" bla_drops_wait)"
check "node $E back: none of the client's broadcasts comes back to it" \
    [ "${RJ_C#* }" = 0 ]
# A copy twice is possible (the returning node may end its wait before it
# heard the other, and forward the other's share too for a moment); a
# loop would bring many.
check "node $E back: node 3 sees no more than 2 copies of any of them" \
    [ "${RJ_3#* }" -le $(( 2 * ${RJ_3% *} )) ]
check "node $E back: node 3 sees most of them (at least 40 of 50)" \
    [ "${RJ_3% *}" -ge 40 ]
check "node $E back: node 1 sees node 2 again" wait_for 20 backbones 1 1
check "node $E back: node 2 sees node 1 again" wait_for 20 backbones 2 1
check "node $O: batsecd still running" mesh_running "$O"
check "node 3: batsecd still running" mesh_running 3

# ---- (f) a hostile host on the LAN floods LAN frames -----------------------------
# For 5 s the client sends a thousand or more frames a second to the LAN
# group: ANNOUNCEs in the name of nodes 1 and 2 (newer epoch, bad
# signature) and of unknown addresses, and CLAIMs for made-up MACs.
# Nothing forged is believed (signatures checked at most 20 a second, the
# rest refused for the rate), CLAIMs are only counted, the two nodes
# still see each other, and the client's broadcasts still cross once and
# never loop.
cat >"$MT/lan_flood.py" <<'EOF'
import os, socket, struct, sys, time
secs, addrs = float(sys.argv[1]), [bytes.fromhex(a.replace(":", "")) for a in sys.argv[2:]]
grp = bytes.fromhex("ff4305ba5e00")
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("eth0", 0))
end, seq, n = time.monotonic() + secs, 1 << 20, 0
while time.monotonic() < end:
    for a in addrs + [bytes([2]) + os.urandom(5)]:
        seq += 1
        body = b"BSBL" + bytes([1, 1, 0, 0]) + a + b"\0\0" + struct.pack(">II", 0x7fff0000, seq)
        s.send(grp + a + b"\x88\xb5" + body + os.urandom(64))
        c = bytes([2]) + os.urandom(5)
        s.send(grp + c + b"\x88\xb5" + b"BSBL" + bytes([1, 2, 0, 0]) + a + bytes(32))
        n += 2
    time.sleep(0.002)
print(n)
EOF
refused() {
	echo $(( $(mesh_stat 1 bla_refused_sig) + $(mesh_stat 1 bla_refused_rate) +
	    $(mesh_stat 1 bla_refused_unknown) + $(mesh_stat 1 bla_refused_replay) ))
}
REF0=$(refused)
CL0=$(mesh_stat 1 bla_claims_heard)
FLOOD_N=$(ip netns exec "$C" python3 "$MT/lan_flood.py" 5 "$(mesh_addr 1)" \
    "$(mesh_addr 2)")
REF=$(( $(refused) - REF0 ))
CL=$(( $(mesh_stat 1 bla_claims_heard) - CL0 ))
stamp "LAN flood: ${FLOOD_N:-?} frames; node 1 refused $REF ANNOUNCEs" \
    "(in all: sig $(mesh_stat 1 bla_refused_sig)," \
    "rate $(mesh_stat 1 bla_refused_rate)," \
    "unknown $(mesh_stat 1 bla_refused_unknown)), counted $CL CLAIMs"
check "LAN flood: sent (${FLOOD_N:-0} frames)" [ "${FLOOD_N:-0}" -gt 1000 ]
check "LAN flood: node 1 refused the forged ANNOUNCEs ($REF)" [ "$REF" -gt 100 ]
check "LAN flood: node 1 counted the CLAIMs ($CL)" [ "$CL" -gt 100 ]
check "LAN flood: node 1 believes no extra backbone" backbones 1 1
check "LAN flood: node 2 believes no extra backbone" backbones 2 1
TOK="bla-flood-$$"
count "$C" eth0 "$TOK" 8 "$MT/fl.c"
count "$N3" batsec0 "$TOK" 8 "$MT/fl.3"
burst "$C" eth0
counted "$MT/fl.c"
counted "$MT/fl.3"
FL_C=$(cat "$MT/fl.c")
FL_3=$(cat "$MT/fl.3")
check "after the flood: none of the $BURST broadcasts comes back to the client" \
    [ "${FL_C#* }" = 0 ]
check "after the flood: node 3 gets each of them once ('$FL_3')" \
    [ "$FL_3" = "$BURST $BURST" ]
check "after the flood: nodes 1, 2 and 3 still running" sh -c \
    "kill -0 $(cat "$MT/n1.pid") && kill -0 $(cat "$MT/n2.pid") &&
    kill -0 $(cat "$MT/n3.pid")"
finish
