#!/bin/sh
# t_mesh_dat.sh — ARP answers from the cache (batsec.conf(5) dat; #24
# item 1) in a chain of DAT_NODES nodes (7; 1-2-...-N), each with
# 10.99.0.I on batsec0.  The same workload runs with `dat off` and then
# with `dat on` on every node: twice, node 1 pings every other node once,
# then node 2, ..., each ping after both ends flushed their neighbour
# caches (`ip neigh flush`), so that every ping resolves its address
# anew.  tcpdump records every mesh link (node I's side of I-(I+1));
# tshark with contrib/batsec.lua counts the ARP frames inside BCASTs (the
# flooded ones; a UNICAST's inner frame is sealed) over all links.
# Asserts: every ping answered and its address resolved to the right MAC
# in both runs; with dat on at least 80 % fewer flooded ARP frames than
# with dat off; the caches answered.  What to expect: with dat off every
# ping floods one request, 2 N (N - 1) in all; with dat on node 1's first
# pass floods N - 1 requests and N - 1 announcing replies, then every
# address is known: 1 - 1/N fewer (86 % for 7 nodes, 90 % for 10).
# Then a hostile member (node H, a plain host sending on its own batsec0):
# a gratuitous ARP reply stating another node's address with H's own MAC
# (claimed by H) is never answered from (conflict: the request is
# flooded and the real owner answers), and one stating an unused address
# with a MAC another node claims is refused (dat_refused_unclaimed) and
# never answered.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
. "$(dirname "$0")/datlib.sh"
dat_chain t_mesh_dat "${DAT_NODES:-7}"

T0=$(mesh_now_ms)
stamp() { echo "# $(mesh_secs_since "$T0") s: $*"; }

dat_write_ping

stamp "dat off"
dat_set_all off
dat_cap_start off
dat_workload off 4
dat_cap_stop
dat_cap_read off arp.opcode
ARP_OFF=$(dat_cap_count off '$2 != ""')
REQ_OFF=$(dat_cap_count off '$2 == 1')

stamp "dat on"
dat_set_all on
ANS0=$(dat_sum_stat dat_answered)
dat_cap_start on
dat_workload on 4
dat_cap_stop
dat_cap_read on arp.opcode
stamp "counted"
ARP_ON=$(dat_cap_count on '$2 != ""')
REQ_ON=$(dat_cap_count on '$2 == 1')
ANSWERED=$(( $(dat_sum_stat dat_answered) - ANS0 ))
ANNOUNCED=$(dat_sum_stat dat_announced)
BCAST_ALL_OFF=$(dat_cap_count off '$1 == "0x41" || $1 == "65"')
BCAST_ALL_ON=$(dat_cap_count on '$1 == "0x41" || $1 == "65"')

echo "# flooded ARP frames on the $((N - 1)) links (frames x links):" \
    "dat off $ARP_OFF (requests $REQ_OFF), dat on $ARP_ON (requests" \
    "$REQ_ON, announcing replies $((ARP_ON - REQ_ON))); all BCASTs:" \
    "off $BCAST_ALL_OFF, on $BCAST_ALL_ON; answered from caches" \
    "$ANSWERED, replies announced $ANNOUNCED"

dat_assert "ARP frames" "$ARP_OFF" "$ARP_ON"
check "the caches answered requests" [ "$ANSWERED" -gt 0 ]

stamp "hostile member"
# ---- a hostile member ---------------------------------------------------------

H=$(( (N + 1) / 2 ))		# sends from its batsec0
V=$N				# whose address it states
A=1				# asks
[ "$V" = "$H" ] && V=$((H - 1))
MAC_H=$(mesh_mac "$H")
MAC_A=$(mesh_mac "$A")
# garp NODE IP SHA: three gratuitous ARP replies (broadcast) out of
# NODE's batsec0, Ethernet source NODE's MAC, stating IP is at SHA.
garp() {
	ip netns exec "$(mesh_ns "$1")" python3 - "$2" "$3" "$(mesh_mac "$1")" <<'EOF'
import socket, sys, time
ip = socket.inet_aton(sys.argv[1])
sha = bytes.fromhex(sys.argv[2].replace(':', ''))
src = bytes.fromhex(sys.argv[3].replace(':', ''))
arp = bytes.fromhex('0001080006040002') + sha + ip + sha + ip
f = b'\xff' * 6 + src + b'\x08\x06' + arp + bytes(18)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(('batsec0', 0))
for _ in range(3):
    s.send(f)
    time.sleep(0.2)
EOF
}

# Answers from the caches on node A's batsec0 that name MAC_H (the
# gratuitous replies have a broadcast destination and H as the target).
ip netns exec "$(mesh_ns "$A")" tcpdump -i batsec0 -U -n -l \
    "arp and ether dst $MAC_A and ether src $MAC_H" \
    >"$MT/spoof.txt" 2>"$MT/spoof.err" &
SPY=$!
track_pid "$SPY"
wait_for 20 grep -q "listening on" "$MT/spoof.err" ||
    fail "tcpdump on node $A's batsec0 is capturing"

CONF0=$(mesh_stat "$A" dat_conflicts)
garp "$H" "$(mesh_ip4 "$V")" "$MAC_H"
check "node $A saw the conflicting mapping for node $V's address" \
    wait_for 20 sh -c "[ \$('$CTL' -s '$(mesh_sock "$A")' -j s |
    python3 -c 'import json,sys; print(json.load(sys.stdin)[\"dat_conflicts\"])') \
    -gt $CONF0 ]"
ip -n "$(mesh_ns "$A")" neigh flush dev batsec0
ANS1=$(mesh_stat "$A" dat_answered)
check "node $A pings node $V after the spoof" mesh_ping "$A" "$V" 4
check "node $A was not answered from its cache for node $V" \
    [ "$(mesh_stat "$A" dat_answered)" = "$ANS1" ]
check "node $A has node $V's address at node $V's MAC" sh -c \
    "ip -n '$(mesh_ns "$A")' neigh show '$(mesh_ip4 "$V")' dev batsec0 |
    grep -q 'lladdr $(mesh_mac "$V")'"

# An unused address at a MAC node V claims, stated by H: refused.
UN0=$(dat_sum_stat dat_refused_unclaimed)
garp "$H" 10.99.0.222 "$(mesh_mac "$V")"
unclaimed_seen() { [ "$(dat_sum_stat dat_refused_unclaimed)" -gt "$UN0" ]; }
check "a mapping to a MAC the sender does not claim is refused" \
    wait_for 20 unclaimed_seen
ANS1=$(mesh_stat "$A" dat_answered)
check "nobody answers for 10.99.0.222" mesh_noreply "$A" 222 4 1 3
check "node $A did not answer 10.99.0.222 from its cache" \
    [ "$(mesh_stat "$A" dat_answered)" = "$ANS1" ]
check_not "node $A has no entry for 10.99.0.222 at node $V's MAC" sh -c \
    "ip -n '$(mesh_ns "$A")' neigh show 10.99.0.222 dev batsec0 |
    grep -q 'lladdr $(mesh_mac "$V")'"
sleep 1
kill -INT "$SPY" 2>/dev/null
stamp "done"
check_not "no answer on node $A's batsec0 named node $H's MAC" \
    grep -q "reply" "$MT/spoof.txt"
finish
