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
need_root
for t in tcpdump tshark; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "SKIP: t_mesh_dat needs $t"
		exit 0
	fi
done
mesh_init t_mesh_dat
N=${DAT_NODES:-7}

EDGES=""
i=1
while [ "$i" -lt "$N" ]; do EDGES="$EDGES $i-$((i + 1))"; i=$((i + 1)); done
mesh_build "$N" "$EDGES"
mesh_start_all || finish
if mesh_wait_converged 120; then
	pass "chain of $N converged (${MESH_CONV_SECS} s)"
else
	fail "chain of $N converged within 120 s"
	finish
fi
check "every node knows the other nodes' clients" wait_for 60 dat_clients_known

T0=$(mesh_now_ms)
stamp() { echo "# $(mesh_secs_since "$T0") s: $*"; }

# ---- the workload --------------------------------------------------------------

# pinglist.py NS,ADDR,MAC...: for each in turn, the neighbour caches of
# batsec0 here and in namespace NS flushed, then one ICMP echo to ADDR (a
# second one when no reply came within 3 s), then the ARP table must map
# ADDR to MAC; prints the addresses not answered or at another MAC.
cat >"$MT/pinglist.py" <<'EOF'
import os, select, socket, struct, subprocess, sys, time
def csum(b):
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff
sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
ident = os.getpid() & 0xffff
seq = 0
fails = []
def flush(*ns):
    subprocess.run(['ip', *ns, 'neigh', 'flush', 'dev', 'batsec0'],
                   check=True)
for arg in sys.argv[1:]:
    ns, dst, mac = arg.split(',')
    flush()
    flush('-n', ns)
    ok = False
    for attempt in range(2):
        seq += 1
        h = struct.pack('!BBHHH', 8, 0, 0, ident, seq) + b'dat' * 8
        h = h[:2] + struct.pack('!H', csum(h)) + h[4:]
        sock.sendto(h, (dst, 0))
        end = time.monotonic() + 3
        while not ok and time.monotonic() < end:
            r, _, _ = select.select([sock], [], [], end - time.monotonic())
            if not r:
                break
            pkt, src = sock.recvfrom(2048)
            ihl = (pkt[0] & 15) * 4
            t, _, _, i, q = struct.unpack('!BBHHH', pkt[ihl:ihl + 8])
            ok = t == 0 and i == ident and q == seq and src[0] == dst
        if ok:
            break
    if not ok:
        fails.append(dst)
        continue
    with open('/proc/net/arp') as f:
        hw = [l.split()[3] for l in f if l.split()[0] == dst]
    if hw != [mac]:
        fails.append('%s at %s' % (dst, hw))
print(' '.join(fails))
EOF

# workload RUN: twice: node 1 pings every other node once, then node 2,
# ..., each ping after both ends flushed their neighbour caches (every
# address is resolved anew); the pings not answered, or whose address
# resolved to a wrong MAC, in $MT/RUN.fail.
workload() {
	local r i j dsts
	: >"$MT/$1.fail"
	for r in 1 2; do
		dat_flush_all
		for i in $(mesh_seq "$N"); do
			dsts=""
			for j in $(mesh_seq "$N"); do
				[ "$i" = "$j" ] ||
				    dsts="$dsts $(mesh_ns "$j"),$(mesh_ip4 "$j"),$(mesh_mac "$j")"
			done
			ip netns exec "$(mesh_ns "$i")" python3 \
			    "$MT/pinglist.py" $dsts 2>&1 |
			    sed "/^\$/d; s/^/round $r, node $i: /" >>"$MT/$1.fail"
		done
	done
}

stamp "dat off"
dat_set_all off
dat_cap_start off
workload off
dat_cap_stop
dat_cap_read off arp.opcode
ARP_OFF=$(dat_cap_count off '$2 != ""')
REQ_OFF=$(dat_cap_count off '$2 == 1')

stamp "dat on"
dat_set_all on
ANS0=$(dat_sum_stat dat_answered)
dat_cap_start on
workload on
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

for run in off on; do
	if [ -s "$MT/$run.fail" ]; then
		fail "dat $run: all $((2 * N * (N - 1))) pings answered," \
		    "each address resolved to the right MAC (not:" \
		    "$(head -n 3 "$MT/$run.fail" | tr '\n' ';'))"
	else
		pass "dat $run: all $((2 * N * (N - 1))) pings answered," \
		    "each address resolved to the right MAC"
	fi
done
check "the captures saw flooded ARP with dat off" [ "$ARP_OFF" -gt 0 ]
if [ $((ARP_ON * 100)) -le $((ARP_OFF * 20)) ]; then
	pass "dat on floods >= 80 % fewer ARP frames ($ARP_ON vs $ARP_OFF)"
else
	fail "dat on floods >= 80 % fewer ARP frames ($ARP_ON vs $ARP_OFF)"
fi
check "the caches answered requests" [ "$ANSWERED" -gt 0 ]
check "tshark printed no error" sh -c \
    "! grep -v 'Running as user \"root\"' '$MT/tshark.err' | grep -q ."

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
