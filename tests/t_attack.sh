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
	for i in 1 2 3; do echo "trust $(mesh_key "$i") name node$i"; done
} >"$MT/policy"
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

mesh_ctl 2 s >"$MT/stats.final.txt" 2>&1
finish
