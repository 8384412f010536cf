#!/bin/sh
# t_attack.sh — a hostile node against a small mesh (batsecd(8), ATTACK
# RESISTANCE):
#
#	1 - 2 - 3
#	    |
#	    4	(no daemon: tests/attack/batsec-attack runs there)
#
# Nodes 1-3 trust each other in mode open, so the attacker's keys are
# admitted as strangers: the worst case for node 2.  The policy caps the
# originator table at 64 (16 strangers, 8 per neighbour) and the global
# verification budget at 500 signatures/s.  For each attack, while it
# runs and after it: node 1 still pings node 3 and routes through node 2;
# node 2's originator table stays within 64 and its strangers within 16;
# node 2's parser used at most PARSER_CPU_PCT % of one CPU over the attack
# and holds at most PARSER_RSS_KB of memory; the attack shows in node 2's
# stats (by reason, and the attacker's source MAC among the worst
# sources); the forwarder and the same parser are still running.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_attack

# The bounds (see batsecd(8)): generous for a slow, loaded 2-core box.
# RSS: at most PARSER_RSS_KB in all, and at most PARSER_GROW_KB more
# than before the first attack; AddressSanitizer's shadow memory and
# quarantine make a build-san parser start near 40 MiB.
PARSER_CPU_PCT=${PARSER_CPU_PCT:-70}
case $B in
*-san) PARSER_RSS_KB=${PARSER_RSS_KB:-131072} ;;
*) PARSER_RSS_KB=${PARSER_RSS_KB:-16384} ;;
esac
PARSER_GROW_KB=${PARSER_GROW_KB:-8192}
SECS=${ATTACK_SECS:-10}
ATK=$B/tests/attack/batsec-attack
if [ ! -x "$ATK" ]; then
	fail "built: $ATK"
	finish
fi
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)

mesh_build 4 "1-2 2-3 2-4"
{
	echo "mode open"
	echo "limit originators 64"
	echo "limit verify-global-rate 500"
	echo "limit verify-global-burst 1000"
	for i in 1 2 3 4; do echo "trust $(mesh_key "$i") name node$i"; done
} >"$MT/policy"

# The shared segment: a bridge in its own namespace that floods every
# frame to every port (no learning, no ageing), as a radio channel does,
# joining s0 of nodes 1, 2 and 4 (4: the attacker's station).
SEG=$(ns_add seg) || { fail "segment namespace"; finish; }
seg_port() { mesh_seg_port "$SEG" "$1"; }
ip -n "$SEG" link add br0 type bridge ageing_time 0 mcast_snooping 0 &&
    ip -n "$SEG" link set br0 up || { fail "segment bridge"; finish; }
for i in 1 2 4; do
	seg_port "$i" || { fail "segment port of node $i"; finish; }
done
echo "interface s0" >>"$MT/n1.conf"
echo "interface s0" >>"$MT/n2.conf"
for i in 1 2 3; do
	mesh_start "$i" || finish
done
if mesh_wait_converged 60 1 2 3; then
	pass "nodes 1-3 converged (${MESH_CONV_SECS} s)"
else
	fail "nodes 1-3 converged within 60 s"
	finish
fi
check "ping 1 -> 3 before any attack" mesh_ping 1 3 4
RSS0=$(awk '/^VmRSS:/ { print $2 }' \
    "/proc/$(pgrep -P "$(cat "$MT/n2.pid")" | head -n 1)/status" 2>/dev/null)
RSS0=${RSS0:-0}
echo "node 2 parser rss before the attacks: ${RSS0} kB"

fwd_pid() { cat "$MT/n$1.pid"; }
parser_pid() { pgrep -P "$(fwd_pid "$1")" 2>/dev/null | head -n 1; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
stat2() { mesh_stat 2 "$1"; }
src_macs() {
	mesh_json 2 s "' '.join(j.get('src%d_mac' % k, '') for k in (1, 2, 3, 4))"
}
ATK_MAC=$(ip -n "$(mesh_ns 4)" -o link show m2 |
    sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p')

# The table bounds on node 2 and routes 1 -> 3 through 2.
bounded() {
	o=$(stat2 originators); s=$(stat2 strangers)
	[ "${o:-999}" -le 64 ] && [ "${s:-999}" -le 16 ]
}
routes_ok() { mesh_nexthop_is 1 3 2 && mesh_nexthop_is 3 1 2; }
gt0() { [ "${1:-0}" -gt 0 ] 2>/dev/null; }

# run_attack NAME NODE IFACE MODE ARGS...: the attacker in node NODE's
# namespace on IFACE for $SECS s; checks during and after.
run_attack() {
	local an ns ifc mode pp t0 t1 w0 w1 apid cpu rss
	an=$1; ns=$(mesh_ns "$2"); ifc=$3; mode=$4; shift 4
	pp=$(parser_pid 2); t0=$(cpu_ticks "$pp"); w0=$(mesh_now_ms)
	ip netns exec "$ns" "$ATK" -i "$ifc" -m "$mode" -t "$SECS" "$@" \
	    >"$MT/atk.$an.txt" 2>&1 &
	apid=$!
	track_pid "$apid"
	sleep 3
	check "$an: ping 1 -> 3 during the attack" mesh_ping 1 3 4 3
	check "$an: node 2 table within 64 originators, 16 strangers" \
	    wait_for 10 bounded
	wait "$apid"
	t1=$(cpu_ticks "$pp"); w1=$(mesh_now_ms)
	echo "$an: $(cat "$MT/atk.$an.txt")"
	cpu=$(( (t1 - t0) * 1000 / HZ * 100 / (w1 - w0 + 1) ))
	rss=$(rss_kb "$pp")
	echo "$an: node 2 parser cpu ${cpu}% of one core, rss ${rss} kB"
	check "$an: parser cpu ${cpu}% <= ${PARSER_CPU_PCT}%" \
	    test "${cpu:-999}" -le "$PARSER_CPU_PCT"
	check "$an: parser rss ${rss} kB <= ${PARSER_RSS_KB} kB" \
	    test "${rss:-999999}" -le "$PARSER_RSS_KB"
	check "$an: parser rss grew by $((rss - RSS0)) kB <= ${PARSER_GROW_KB}" \
	    test "$((rss - RSS0))" -le "$PARSER_GROW_KB"
	check "$an: forwarder of node 2 alive" kill -0 "$(fwd_pid 2)"
	check "$an: the same parser of node 2 alive" \
	    test "$(parser_pid 2)" = "$pp"
	check "$an: routes 1 <-> 3 through node 2" wait_for 20 routes_ok
	check "$an: ping 1 -> 3 after the attack" mesh_ping 1 3 4
	check "$an: node 2 table within bounds after" wait_for 10 bounded
	mesh_ctl 2 -j s >"$MT/stats.$an.txt" 2>&1
}

# ATTACK_PARTS: "control" (the attacks on HELLOs and OGMs), "budget" (the
# signature-trailer flood), "neigh" (stranger HELLOs against the
# neighbour table), "data" (the data plane, below), or any of them (all
# four by default).
want() { case " ${ATTACK_PARTS:-control budget neigh data} " in *" $1 "*) return 0 ;; esac; return 1; }

if want control; then
# 1. Forged HELLOs and OGMs from random unknown keys and source MACs.
m0=$(stat2 sig_failed)
run_attack forge 4 m2 forge -r 0
check "forge: node 2 counted bad signatures or budget drops" \
    gt0 $(( $(stat2 sig_failed) - m0 + $(stat2 drop_verify_budget) ))
check "forge: node 2 counted frames of non-neighbours" \
    gt0 "$(stat2 drop_not_neighbour)"

# 2. A Sybil flood: correctly signed OGMs of fresh keys (strangers).
q0=$(( $(stat2 drop_intro_quota) + $(stat2 drop_table_full) ))
run_attack sybil 4 m2 sybil
q1=$(( $(stat2 drop_intro_quota) + $(stat2 drop_table_full) ))
check "sybil: node 2 refused strangers by quota or share ($((q1 - q0)))" \
    gt0 $((q1 - q0))
o1=$(mesh_stat 1 originators)
check "sybil: node 1 within 64 originators ($o1)" test "${o1:-999}" -le 64
check "sybil: the attacker is among node 2's worst sources" \
    sh -c "echo '$(src_macs)' | grep -q '$ATK_MAC'"

# 3. Replay: frames of node 1 captured on link 1-2, sent again into
# node 2 on that link with node 1's MAC, also after node 1 restarted, and
# then on node 2's other link.  The replayer sits in node 1's namespace
# (a veth has no third station), so node 1 hears its own replayed frames
# too (its forwarder drops frames with its own source MAC on receipt).
ip netns exec "$(mesh_ns 2)" "$ATK" -i m1 -m capture -t 4 \
    -f "$MT/cap.bin" >/dev/null 2>&1
check "replay: frames captured" test -s "$MT/cap.bin"
r0=$(stat2 drop_replay)
run_attack replay 1 m2 replay -f "$MT/cap.bin" -r 300
r1=$(stat2 drop_replay)
check "replay: node 2 counted replays ($((r1 - r0)))" gt0 $((r1 - r0))
mesh_stop 1
mesh_start 1 || finish
check "replay: node 1 back after its restart" wait_for 60 mesh_converged 1 2 3
r0=$(stat2 drop_replay)
run_attack replay-restart 1 m2 replay -f "$MT/cap.bin" -r 300
r1=$(stat2 drop_replay)
check "replay-restart: old-epoch frames refused ($((r1 - r0)))" \
    gt0 $((r1 - r0))
r0=$(stat2 drop_replay)
run_attack replay-elsewhere 4 m2 replay -f "$MT/cap.bin" -r 300
r1=$(stat2 drop_replay)
check "replay-elsewhere: old-epoch HELLOs refused on link 2-4" \
    gt0 $((r1 - r0))
ghost=$(mesh_json 2 n "len([r for r in j if r['address'] == \
'$(mesh_addr 1)' and r['interface'] == 'm4'])")
check "replay-elsewhere: node 1 is no neighbour of node 2 on m4 ($ghost)" \
    test "${ghost:-x}" = 0

# 4. A neighbour relaying real OGMs with TQ 255 and fewer hops.
h0=$(stat2 drop_hop_chain)
run_attack inflate 4 m2 inflate
h1=$(stat2 drop_hop_chain)
check "inflate: node 2 refused them by hop chain or TQ ceiling" \
    gt0 $((h1 - h0))
ih=$(mesh_json 2 s "sum(j.get('src%d_hops' % k, 0) for k in (1, 2, 3, 4) \
if j.get('src%d_mac' % k) == '$ATK_MAC')")
check "inflate: counted against the attacker's MAC ($ih)" gt0 "$ih"

# 5. Malformed frames of every type.
f0=$(stat2 drop_malformed)
run_attack malformed 4 m2 malformed -r 5000
check "malformed: node 2 counted malformed frames" \
    gt0 $(( $(stat2 drop_malformed) - f0 ))

# 5b. Chain desynchronisation (batsec-protocol(7), "OGM CHAIN"): compact
# entries for every originator heard, with made-up chain elements and
# seqnos up to 24 ahead, 60 every 10 ms.  Node 2 refuses every one
# (drop_chain; beyond its walk drop_no_chain; once the attacker's
# verification budget is spent drop_verify_budget), and still takes the
# real compact entries; run_attack checks routes and the parser's CPU.
chain_drops() {
	echo $(( $(stat2 drop_chain) + $(stat2 drop_no_chain) + \
	    $(stat2 drop_verify_budget) ))
}
c0=$(chain_drops); a0=$(stat2 ogm_compact)
osecs=$SECS; SECS=6
run_attack chain 4 m2 chain
SECS=$osecs
c1=$(chain_drops); a1=$(stat2 ogm_compact)
echo "chain: node 2 refused $((c1 - c0)) entries, walked $(stat2 chain_steps) hashes in all"
check "chain: node 2 refused the forged compact entries" gt0 $((c1 - c0))
check "chain: node 2 still takes real compact entries" gt0 $((a1 - a0))

# 6. Clients and a gateway the attacker does not own.
C1=$(mesh_mac 1); C3=$(mesh_mac 3)
run_attack claim 4 m2 claim -c "$C1,$C3"
owner3=$(mesh_json 2 tt "any(r['client'] == '$C3' for r in j) and \
all(r['originator'] == '$(mesh_addr 3)' for r in j if r['client'] == '$C3')")
check "claim: node 3's client still belongs to node 3 on node 2" \
    test "$owner3" = yes
check "claim: node 2 refused the claims" gt0 "$(stat2 drop_claim)"
check "claim: node 2 ignored the gateway announcement" \
    gt0 "$(stat2 drop_gateway)"
gws=$(mesh_json 2 gw "len(j)")
check "claim: no gateway on node 2 ($gws)" test "${gws:-x}" = 0

fi

# 7. OGM frames with garbage signature trailers (type 2) as node 1 (its MAC
# and mesh address, learnt from its HELLOs) on the segment, fresh frame
# counters each: every one reaches node 2's link-signature check.  Node 2
# must pay them from node 1's verification budget on s0: for this attack
# node 2 runs with verify-rate 100 and verify-burst 1000 (the neighbour's
# burst can empty the node's budget of 1000, the rate alone cannot), so
# its signature checks over the attack stay within burst + rate x time
# (plus what the mesh itself costs, at most LEGIT_VPS a second) and the
# under-load mode engages.  Without the charge (issue #20) the checks run
# at the attacker's rate and under_load_entered does not move.
LEGIT_VPS=${LEGIT_VPS:-60}
if want budget; then
sigs2() { echo $(( $(stat2 sig_verified) + $(stat2 sig_failed) )); }
cp "$MT/policy" "$MT/policy.base"
{ cat "$MT/policy.base"; echo "limit verify-rate 100";
  echo "limit verify-burst 1000"; } >"$MT/policy"
check "linksig: node 2 reloads its policy" mesh_ctl 2 reload
sleep 8		# node 1's bucket on s0 fills up to the new burst
v0=$(sigs2); b0=$(stat2 drop_verify_budget); u0=$(stat2 under_load_entered)
w0=$(mesh_now_ms)
run_attack linksig 4 s0 linksig -C "$(mesh_addr 1)" -r 3000
sleep 2		# the parser's last counters reach the forwarder
v1=$(sigs2); b1=$(stat2 drop_verify_budget); u1=$(stat2 under_load_entered)
el=$(( ($(mesh_now_ms) - w0) / 1000 + 1 ))
bound=$(( 1000 + 100 * el + LEGIT_VPS * el ))
echo "linksig: node 2 signature checks +$((v1 - v0)) in ${el} s (bound $bound), drop_verify_budget +$((b1 - b0)), under_load_entered +$((u1 - u0))"
check "linksig: node 2's signature checks $((v1 - v0)) <= $bound" \
    test $((v1 - v0)) -le "$bound"
check "linksig: node 2 refused trailers over the budget" gt0 $((b1 - b0))
check "linksig: node 2 went under load" gt0 $((u1 - u0))
cp "$MT/policy.base" "$MT/policy"
check "linksig: node 2 back on the test's policy" mesh_ctl 2 reload

# 7b. HELLOs as node 1 on the segment (its key, MAC, epoch, salt and the
# key ids of its own tagged HELLOs) with random link tags, newer sequence
# numbers and an empty neighbour list: taken, they would cut node 1's
# link to node 2.  Node 2 refuses each on its tag (drop_link_auth), with
# no signature check (HELLO version 3), and node 1 stays its neighbour on
# s0 with its link quality.
s0_tq1() {
	mesh_json 2 n "max([r.get('link_tq', 0) for r in j if \
r['interface'] == 's0' and r['address'] == '$(mesh_addr 1)'] or [0])"
}
a0=$(stat2 drop_link_auth); v0=$(sigs2); w0=$(mesh_now_ms)
k0=$(stat2 hello_sign_asked); h0=$(stat2 tx_hello_signed)
run_attack hellotag 4 s0 hellotag -C "$(mesh_addr 1)" -r 2000
a1=$(stat2 drop_link_auth); v1=$(sigs2)
k1=$(stat2 hello_sign_asked); h1=$(stat2 tx_hello_signed)
el=$(( ($(mesh_now_ms) - w0) / 1000 + 1 ))
tq1=$(s0_tq1)
echo "hellotag: node 2 drop_link_auth +$((a1 - a0)), signature checks +$((v1 - v0)) in ${el} s, node 1's link TQ on s0 ${tq1}"
# They carry a tag under the key node 2 holds for node 1: refused on it,
# and no request for a signed HELLO (batsec-protocol(7), HELLO
# authentication: only a HELLO with no tag under a key node 2 holds or
# keeps for its sender asks, at most every 4 HELLO intervals).
echo "hellotag: node 2 hello_sign_asked +$((k1 - k0)), tx_hello_signed +$((h1 - h0)) in ${el} s"
check "hellotag: node 2 asked for no signed HELLO ($((k1 - k0)))" \
    test $((k1 - k0)) -eq 0
check "hellotag: node 2 refused the forged HELLOs on their tags" \
    test $((a1 - a0)) -ge 1000
check "hellotag: node 2's signature checks $((v1 - v0)) <= $((LEGIT_VPS * el))" \
    test $((v1 - v0)) -le $((LEGIT_VPS * el))
check "hellotag: node 1 still node 2's neighbour on s0 (link TQ ${tq1})" \
    test "${tq1:-0}" -gt 0

# 7c. Requests amplification: node 4's admitted key, a neighbour of node
# 2, sends 100 HELLOs a second, each asking for the full OGM entries of
# the originators it heard (batsec-protocol(7), "Descriptions for new
# neighbours and on request").  Node 2 takes at most 8 wanted addresses
# per neighbour and OGM interval (desc_want_over counts the rest) and
# hands each originator's full entry on at most once per interval: at
# most 3 originators (1, 3 and 4) x 2 intervals a second.
r0=$(stat2 desc_want_rx); o0=$(stat2 desc_want_over)
d0=$(stat2 desc_relayed); w0=$(mesh_now_ms)
run_attack wants 4 m2 wants -K "$MT/n4.key" -V "$(mesh_addr 2)" -r 100
sleep 2		# the parser's last counters reach the forwarder
r1=$(stat2 desc_want_rx); o1=$(stat2 desc_want_over)
d1=$(stat2 desc_relayed)
el=$(( ($(mesh_now_ms) - w0) / 1000 + 1 ))
echo "wants: node 2 desc_want_rx +$((r1 - r0)), desc_want_over +$((o1 - o0)), desc_relayed +$((d1 - d0)) in ${el} s"
check "wants: node 2 took wants of node 4" gt0 $((r1 - r0))
check "wants: node 2 ignored the wants over the budget" gt0 $((o1 - o0))
check "wants: node 2 handed on $((d1 - d0)) <= $((3 * 2 * el + 6)) full entries" \
    test $((d1 - d0)) -le $((3 * 2 * el + 6))
fi

# 8. 64 strangers' HELLOs on the segment (mode open: each wants one of the
# 64 slots node 2 has for s0): they hold at most stranger-neighbors (75 %,
# 48) of the slots (issue #20: before, they took all but node 1's, 63).
# Node 1, trusted, restarts meanwhile (down until node 2 dropped it, so
# that it comes back as a new key) and is a neighbour of node 2 on s0
# again, the strangers still within their share.
if want neigh; then
s0_strangers() {
	mesh_json 2 n "len([r for r in j if r['interface'] == 's0' and \
r['address'] not in ('$(mesh_addr 1)', '$(mesh_addr 2)', '$(mesh_addr 3)', \
'$(mesh_addr 4)')])"
}
s0_has1() {
	[ "$(mesh_json 2 n "any(r['interface'] == 's0' and \
r['address'] == '$(mesh_addr 1)' for r in j)")" = yes ]
}
many_strangers() { [ "$(s0_strangers)" -ge 40 ] 2>/dev/null; }
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m hellos -n 64 -t 120 \
    >"$MT/atk.hellos.txt" 2>&1 &
hpid=$!
track_pid "$hpid"
check "hellos: node 2 took the strangers in" wait_for 15 many_strangers
sleep 3		# every stranger has sent a few HELLOs
n=$(s0_strangers)
check "hellos: strangers hold ${n:-x} <= 48 of node 2's s0 slots" \
    test "${n:-999}" -le 48
mesh_stop 1
s0_not1() { ! s0_has1; }
check "hellos: node 2 dropped node 1 on s0 while it was down" \
    wait_for 20 s0_not1
echo "hellos: node 1 down: node 2 has $(s0_strangers) strangers on s0"
mesh_start 1 || finish
echo "hellos: node 1 up: node 2 has $(s0_strangers) strangers on s0"
check "hellos: node 1 (trusted) a neighbour of node 2 on s0 again" \
    wait_for 20 s0_has1
n=$(s0_strangers)
check "hellos: strangers still hold ${n:-x} <= 48 of node 2's s0 slots" \
    test "${n:-999}" -le 48
check "hellos: nodes 1-3 converged again" wait_for 60 mesh_converged 1 2 3
kill "$hpid" 2>/dev/null
wait "$hpid"
fi

# ---- the data plane (version-2 data frames) ------------------------------
#
# On the segment (s0 of nodes 1, 2 and the attacker's station 4), with
# the veth 1-2 cut so that 1 <-> 3 runs 1 -s0- 2 -m3- 3: node 2 is the
# victim forwarder, node 1 the member whose MAC and address are copied,
# node 3 the destination.  Delivery is counted on batsec0 of the nodes
# (frames that carry the attack's token; bcast_rx.py), so an attack that
# gets through fails its check; each attack has a control that must get
# through where the test says so.
A1=$(mesh_addr 1); A2=$(mesh_addr 2); A3=$(mesh_addr 3)
M3=$(mesh_mac 3)
S1=$(ip -n "$(mesh_ns 1)" -o link show s0 |
    sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p')
dstat() { mesh_stat "$1" "data_$2"; }
# cnt_start NAME TOKEN SECS NODE...: count TOKEN on the nodes' batsec0.
cnt_start() {
	local nm tok secs i f
	nm=$1; tok=$2; secs=$3; shift 3
	rm -f "$MT/cnt.$nm.start"
	for i in "$@"; do
		f=$MT/cnt.$nm.$i
		rm -f "$f" "$f.ready"
		BCAST_START=$MT/cnt.$nm.start BCAST_NAME="node $i" \
		    ip netns exec "$(mesh_ns "$i")" \
		    python3 "$MT/bcast_rx.py" batsec0 "$tok" "$secs" "$f.ready" \
		    >"$f" 2>>"$MT/cnt.txt" &
		track_pid "$!"
		echo "$!" >"$f.pid"
	done
	for i in "$@"; do
		wait_for 60 test -e "$MT/cnt.$nm.$i.ready" || return 1
	done
	: >"$MT/cnt.$nm.start"
}
# cnt_get NAME NODE: the count, once the listener is done.
cnt_get() {
	wait_for 40 test -s "$MT/cnt.$1.$2"
	cat "$MT/cnt.$1.$2" 2>/dev/null || echo x
}
is0() { [ "${1:-x}" = 0 ]; }
# cnt_why TOKEN NODE...: what the listeners counted (bcast_rx.py's
# descriptions) and the nodes' data counters, for a count that should
# have been 0.
cnt_why() {
	local tok=$1 i
	shift
	grep -F " $tok: " "$MT/cnt.txt" | sed 's/^/  /'
	for i in "$@"; do
		echo "  node $i: $(mesh_ctl "$i" -j s 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(" ".join("%s=%s" % (k, v) for k, v in sorted(j.items())
    if k.startswith("data_") and v))')"
	done
}
# udp_to NODE ADDR TOKEN N: N datagrams from NODE's batsec0.
udp_to() {
	local i=0
	while [ "$i" -lt "$4" ]; do
		ip netns exec "$(mesh_ns "$1")" python3 "$MT/bcast_tx.py" \
		    "$2" 9 "$3" 2>>"$MT/cnt.txt"
		sleep 0.2; i=$((i + 1))
	done
}
atk_run() {	# atk_run NAME NS IFACE ARGS...: the tool, output in atk.NAME
	local nm ns ifc
	nm=$1; ns=$(mesh_ns "$2"); ifc=$3; shift 3
	ip netns exec "$ns" "$ATK" -i "$ifc" "$@" >"$MT/atk.$nm.txt" 2>&1
	echo "$nm: $(tr '\n' ' ' <"$MT/atk.$nm.txt")"
}
akey() { sed -n "s/^$2 //p" "$MT/atk.$1.txt"; }

if want data; then
mesh_cut 1 2
check "data: ping 1 -> 3 over the segment (veth 1-2 cut)" \
    mesh_ping 1 3 4 10
T=atk$$

# D1. A MAC-copying outsider: v2 with random or sniffed key ids and
# random tags, v1 frames, as node 1 into node 2 (segment), then into
# node 2's m4 from station 4's veth.
for where in seg veth; do
	if [ $where = seg ]; then ifc=s0; else ifc=m2; fi
	v0=$(dstat 2 drop_version)
	b0=$(( $(dstat 2 drop_bad_tag) + $(dstat 2 drop_no_key) + \
	    $(dstat 2 drop_stale_key) + $(dstat 2 drop_not_neighbour) ))
	cnt_start out "$T-o" 12 1 2 3
	( sleep 3; mesh_ping 1 3 4 1 ) >/dev/null 2>&1 &
	atk_run "outsider-$where" 4 "$ifc" -m outsider -t 8 -r 500 -V "$A2" \
	    -C "$A1" -S "$S1" -T "$A3" -M "$M3" -w "$T"
	wait $!
	for i in 1 2 3; do
		n=$(cnt_get out "$i")
		check "outsider-$where: nothing delivered on node $i ($n)" is0 "$n"
	done
	e=$(akey "outsider-$where" echo_to_copy)
	check "outsider-$where: no ECHO answered to node 1 (${e:-x})" is0 "$e"
	v1=$(dstat 2 drop_version)
	b1=$(( $(dstat 2 drop_bad_tag) + $(dstat 2 drop_no_key) + \
	    $(dstat 2 drop_stale_key) + $(dstat 2 drop_not_neighbour) ))
	echo "outsider-$where: node 2 drop_version +$((v1 - v0)), bad tag/key/neighbour +$((b1 - b0))"
	check "outsider-$where: node 2 refused the frames" gt0 $((b1 - b0))
	[ $where = seg ] && check "outsider-seg: node 2 refused version 1 (drop_version +$((v1 - v0)))" \
	    gt0 $((v1 - v0))
done

# D2. Bit flips: node 1's data frames held back at the bridge (p1 -> p2),
# captured by station 4, sent again with one bit flipped per field
# (none delivered), then unchanged (delivered: the control).
seg_hold() {
	ip netns exec "$SEG" nft -f - <<-NFT
	table bridge atkhold {
		chain hold {
			type filter hook forward priority 0; policy accept;
			iifname "p1" oifname "p2" ether type 0x88b5 @ll,112,8 { 0x40, 0x41, 0x42 } drop
		}
	}
	NFT
}
seg_release() { ip netns exec "$SEG" nft delete table bridge atkhold; }
check "mutate: node 1's data frames held back at the bridge" seg_hold
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m capture -t 5 -y data -S "$S1" \
    -f "$MT/mut.bin" >/dev/null 2>&1 &
cpid=$!
sleep 1
udp_to 1 "$(mesh_ip4 3)" "$T-mu" 3
udp_to 1 10.99.0.255 "$T-mu" 1
wait $cpid
check "mutate: frames captured" test -s "$MT/mut.bin"
cnt_start mu "$T-mu" 8 2 3
atk_run mutate 4 s0 -m mutate -x hop -f "$MT/mut.bin"
check "mutate: every frame mutated ($(akey mutate frames))" gt0 "$(akey mutate frames)"
for i in 2 3; do
	n=$(cnt_get mu "$i")
	check "mutate: no flipped frame delivered on node $i ($n)" is0 "$n"
	is0 "$n" || cnt_why "$T-mu" "$i"
done
cnt_start mu "$T-mu" 4 3
atk_run mutate-orig 4 s0 -m replay -t 1 -r 20 -f "$MT/mut.bin"
n=$(cnt_get mu 3)
check "mutate: the unchanged frames delivered on node 3 (control, $n)" gt0 "$n"
# The ciphertext and a broadcast's inner frame are not under the hop tag:
# node 2 passes such a flip on (using up the hop counter), node 3 or
# node 2's signature check refuses it.  Fresh frames, held back again.
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m capture -t 4 -y data -S "$S1" \
    -f "$MT/mut2.bin" >/dev/null 2>&1 &
cpid=$!
sleep 1
udp_to 1 "$(mesh_ip4 3)" "$T-me" 3
udp_to 1 10.99.0.255 "$T-me" 1
wait $cpid
cnt_start me "$T-me" 6 2 3
atk_run mutate-e2e 4 s0 -m mutate -x e2e -f "$MT/mut2.bin"
check "mutate-e2e: every frame mutated ($(akey mutate-e2e frames))" \
    gt0 "$(akey mutate-e2e frames)"
for i in 2 3; do
	n=$(cnt_get me "$i")
	check "mutate-e2e: no flipped inner frame delivered on node $i ($n)" \
	    is0 "$n"
	is0 "$n" || cnt_why "$T-me" "$i"
done
seg_release

# D3. Replay of recorded data frames of node 1 (station 4 on the
# segment), then after restarting node 2 (the receiving forwarder), and
# after restarting node 1 (the sender).
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m capture -t 5 -y data -S "$S1" \
    -f "$MT/rep.bin" >/dev/null 2>&1 &
cpid=$!
cnt_start rp0 "$T-rp" 6 3
sleep 1
udp_to 1 "$(mesh_ip4 3)" "$T-rp" 5
udp_to 1 10.99.0.255 "$T-rp" 2
wait $cpid
n=$(cnt_get rp0 3)
check "replay: node 1's frames delivered once on node 3 (control, $n)" gt0 "$n"
for step in plain restart2 restart1; do
	case $step in
	restart2) mesh_stop 2; mesh_start 2 || finish ;;
	restart1) mesh_stop 1; mesh_start 1 || finish ;;
	esac
	[ $step != plain ] && wait_for 60 mesh_converged 1 2 3
	r0=$(( $(dstat 2 drop_replay) + $(dstat 2 drop_stale_key) + \
	    $(dstat 2 drop_no_key) + $(dstat 2 drop_bad_tag) ))
	cnt_start rp "$T-rp" 8 2 3
	atk_run "replay-$step" 4 s0 -m replay -t 5 -r 200 -f "$MT/rep.bin"
	for i in 2 3; do
		n=$(cnt_get rp "$i")
		check "replay-$step: nothing delivered again on node $i ($n)" \
		    is0 "$n"
	done
	r1=$(( $(dstat 2 drop_replay) + $(dstat 2 drop_stale_key) + \
	    $(dstat 2 drop_no_key) + $(dstat 2 drop_bad_tag) ))
	echo "replay-$step: node 2 replay/stale/no-key/bad-tag drops +$((r1 - r0))"
	check "replay-$step: node 2 counted the replays" gt0 $((r1 - r0))
done
check "data: ping 1 -> 3 after the restarts" mesh_ping 1 3 4 10

# D4. An admitted insider (node 4's key) with correct hop tags: its own
# UNICAST, ECHO and BCAST get through (controls); UNICAST and ECHO with
# node 1's source and a BCAST of node 1 signed by node 4 do not.
e0=$(dstat 3 drop_e2e); g0=$(dstat 2 drop_bad_sig)
cnt_start iu "$T-iu" 22 3
cnt_start ib "$T-ib" 22 2 3
cnt_start if "$T-f" 22 1 2 3
atk_run insider 4 s0 -m insider -t 18 -K "$MT/n4.key" -V "$A2" -C "$A1" \
    -T "$A3" -M "$M3" -w "$T"
n=$(cnt_get iu 3)
check "insider: its own UNICAST delivered on node 3 (control, $n)" gt0 "$n"
for i in 2 3; do
	n=$(cnt_get ib "$i")
	check "insider: its own BCAST delivered on node $i (control, $n)" gt0 "$n"
done
for i in 1 2 3; do
	n=$(cnt_get if "$i")
	check "insider: nothing forged in node 1's name delivered on node $i ($n)" \
	    is0 "$n"
done
n=$(akey insider echo_replies)
check "insider: its own ECHOs answered (control, ${n:-x})" gt0 "${n:-0}"
n=$(akey insider echo_to_copy)
check "insider: no ECHO forged as node 1 answered (${n:-x})" is0 "$n"
e1=$(dstat 3 drop_e2e); g1=$(dstat 2 drop_bad_sig)
check "insider: node 3 refused the forged UNICASTs (drop_e2e +$((e1 - e0)))" \
    gt0 $((e1 - e0))
check "insider: node 2 refused the forged BCASTs (drop_bad_sig +$((g1 - g0)))" \
    gt0 $((g1 - g0))

# D5. Broadcast sequence numbers taken ahead: each BCAST of node 1 heard
# makes the insider send node 1's next 32 seqnos (correct hop tags,
# node 4's signature); node 1's later broadcasts must still arrive.
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m bseq -t 30 -n 32 \
    -K "$MT/n4.key" -V "$A2" -C "$A1" -w "$T" >"$MT/atk.bseq.txt" 2>&1 &
bpid=$!
track_pid "$bpid"
sleep 4
k=0
while [ $k -lt 5 ]; do
	cnt_start bs "$T-bc$k" 3 2 3
	udp_to 1 10.99.0.255 "$T-bc$k" 1
	if [ $k -gt 0 ]; then
		for i in 2 3; do
			n=$(cnt_get bs "$i")
			check "bseq: node 1's broadcast $k delivered on node $i ($n)" \
			    gt0 "$n"
		done
	else
		sleep 3
	fi
	k=$((k + 1))
done
wait "$bpid"
echo "bseq: $(tr '\n' ' ' <"$MT/atk.bseq.txt")"
check "bseq: the insider sent seqnos ahead" gt0 "$(akey bseq preempted)"

# D6. A flood of bad tags at line rate into node 2 (segment, then veth):
# node 2's forwarder CPU and its drop counters; 1 -> 3 keeps working.
for where in seg veth; do
	if [ $where = seg ]; then ifc=s0; else ifc=m2; fi
	fp=$(fwd_pid 2); t0=$(cpu_ticks "$fp"); w0=$(mesh_now_ms)
	d0=$(( $(dstat 2 drop_bad_tag) + $(dstat 2 drop_no_key) + \
	    $(dstat 2 drop_stale_key) + $(dstat 2 drop_not_neighbour) ))
	ip netns exec "$(mesh_ns 4)" "$ATK" -i "$ifc" -m dflood -t 8 -V "$A2" \
	    -C "$A1" -S "$S1" -w "$T" >"$MT/atk.flood-$where.txt" 2>&1 &
	fpid=$!
	track_pid "$fpid"
	mesh_ping 1 3 4 1 >/dev/null 2>&1	# a frame whose key id is sniffed
	sleep 1
	check "flood-$where: ping 1 -> 3 during the flood" mesh_ping 1 3 4 2
	wait "$fpid"
	t1=$(cpu_ticks "$fp"); w1=$(mesh_now_ms)
	d1=$(( $(dstat 2 drop_bad_tag) + $(dstat 2 drop_no_key) + \
	    $(dstat 2 drop_stale_key) + $(dstat 2 drop_not_neighbour) ))
	cpu=$(( (t1 - t0) * 1000 / HZ * 100 / (w1 - w0 + 1) ))
	echo "flood-$where: $(tr '\n' ' ' <"$MT/atk.flood-$where.txt")"
	echo "flood-$where: node 2 forwarder cpu ${cpu}% of one core; drops +$((d1 - d0)): bad_tag $(dstat 2 drop_bad_tag) no_key $(dstat 2 drop_no_key) stale_key $(dstat 2 drop_stale_key) not_neighbour $(dstat 2 drop_not_neighbour) (totals)"
	check "flood-$where: node 2 counted the bad frames (+$((d1 - d0)))" \
	    gt0 $((d1 - d0))
	check "flood-$where: forwarder of node 2 alive" kill -0 "$fp"
done
check "data: ping 1 -> 3 after the data-plane attacks" mesh_ping 1 3 4
mesh_heal 1 2
mesh_ctl 2 -j if >"$MT/if.final.txt" 2>&1
fi

mesh_ctl 2 s >"$MT/stats.final.txt" 2>&1
finish
