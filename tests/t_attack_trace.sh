#!/bin/sh
# t_attack_trace.sh — a hostile member against the mesh traceroute
# (batsec-ctl traceroute; batsec-protocol(7), TRACE and TTLX):
#
#	1 =seg= 2 - 3	(1 and 2 share a segment s0, as a radio channel;
#	    |		 node 4 listens on it: batsec-attack, node 4's key,
#	    4		 an admitted member, no daemon)
#
# fake: for each TRACE it overhears, the attacker answers node 1 with a
# TTLX in node 2's name (sealed with its own key) and, for TTL 1, one in
# its own name; node 1's traceroute to node 3 must still show exactly
# nodes 2 and 3, never node 4, and node 1 counts the refusals.
# flood: TRACEs with TTL 1 at node 2, from the attacker's address and
# from node 1's (spoofed); node 2's answers stay within the limits of
# batsecd(8) (FWD_TTLX_*: 3/s and 6 at once per source, 10/s and 20 at
# once in all), the attacker gets at most its own source's share back.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_atk_trace

ATK=$B/tests/attack/batsec-attack
if [ ! -x "$ATK" ]; then
	fail "built: $ATK"
	finish
fi

mesh_build 4 "2-3"
SEG=$(ns_add seg) || { fail "segment namespace"; finish; }
ip -n "$SEG" link add br0 type bridge ageing_time 0 mcast_snooping 0 &&
    ip -n "$SEG" link set br0 up || { fail "segment bridge"; finish; }
for i in 1 2 4; do
	mesh_seg_port "$SEG" "$i" || { fail "segment port of node $i"; finish; }
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
A1=$(mesh_addr 1); A2=$(mesh_addr 2); A3=$(mesh_addr 3); A4=$(mesh_addr 4)
OUT=$MT/trace.out
gt0() { [ "${1:-0}" -gt 0 ] 2>/dev/null; }
akey() { awk -v k="$2" '$1 == k { print $2 }' "$MT/atk.$1.txt"; }

# A traceroute 1 -> 3 that shows nodes 2 and 3, in that order, and only
# them (a probe may go unanswered on a loaded machine: retried).
trace_ok() {
	mesh_ctl 1 traceroute -w 2 "$A3" >"$OUT" 2>&1 || return 1
	[ "$(awk '/^ *[0-9]+:/ { print $2 }' "$OUT" | tr '\n' ' ')" = \
	    "$A2 $A3 " ] && ! grep -q "$A4" "$OUT"
}
check "traceroute 1 -> 3: nodes 2, 3 (before the attack)" wait_for 30 trace_ok

# ---- fake answers --------------------------------------------------------------

e0=$(mesh_stat 1 data_drop_e2e)
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m trace -x fake -t 12 \
    -K "$MT/n4.key" -V "$A2" -C "$A2" >"$MT/atk.fake.txt" 2>&1 &
apid=$!
track_pid "$apid"
knows4() { mesh_knows 1 4; }
check "node 1 knows the attacker (node 4) as an originator" wait_for 20 knows4
# Traceroutes for as long as the attacker runs (it listens first).
runs=0; good=0; seen4=0
while kill -0 "$apid" 2>/dev/null; do
	runs=$((runs + 1))
	trace_ok && good=$((good + 1))
	grep -q "$A4" "$OUT" && seen4=$((seen4 + 1))
done
sed 's/^/  | /' "$OUT"
check "fake: node 4 never shown as a hop ($seen4 of $runs runs)" test "$seen4" -eq 0
check "fake: traceroute still shows nodes 2, 3 ($good of $runs runs)" gt0 "$good"
wait "$apid"
echo "fake: $(tr '\n' ' ' <"$MT/atk.fake.txt")"
check "fake: the attacker answered probes ($(akey fake trace_fakes))" \
    gt0 "$(akey fake trace_fakes)"
e1=$(mesh_stat 1 data_drop_e2e)
check "fake: node 1 refused the TTLXs in node 2's name (drop_e2e +$((e1 - e0)))" \
    gt0 $((e1 - e0))
check "fake: node 1 refused node 4's own TTL-1 answers (trace_ttlx_wrong_hop)" \
    gt0 "$(mesh_stat 1 trace_ttlx_wrong_hop)"

# ---- a flood of expiring TRACEs ------------------------------------------------

s0=$(mesh_stat 2 trace_ttlx_sent); x0=$(mesh_stat 2 trace_expired_here)
ip netns exec "$(mesh_ns 4)" "$ATK" -i s0 -m trace -x flood -t 8 \
    -K "$MT/n4.key" -V "$A2" -C "$A1" -T "$A3" >"$MT/atk.flood.txt" 2>&1
# The bounds over the flood's own time (whole seconds, rounded up).
secs=$(( ($(akey flood flood_ms) + 999) / 1000 ))
s1=$(mesh_stat 2 trace_ttlx_sent); x1=$(mesh_stat 2 trace_expired_here)
echo "flood: $(tr '\n' ' ' <"$MT/atk.flood.txt"); ${secs} s; node 2:" \
    "expired +$((x1 - x0)), answered +$((s1 - s0))," \
    "src-rate drops $(mesh_stat 2 trace_ttlx_drop_src_rate)"
check "flood: node 2 got the expiring TRACEs (+$((x1 - x0)) > 100)" \
    test $((x1 - x0)) -gt 100
check "flood: node 2 answered at most 20 + 10/s ($((s1 - s0)) in ${secs} s)" \
    test $((s1 - s0)) -le $((20 + 10 * secs))
check "flood: ... and at most 6 + 3/s for each of its 2 sources" \
    test $((s1 - s0)) -le $((2 * (6 + 3 * secs)))
n=$(akey flood ttlx_to_us)
check "flood: the attacker got at most 6 + 3/s back (${n:-x} in ${secs} s)" \
    test "${n:-999}" -le $((6 + 3 * secs))
check "flood: node 2 counted the per-source limit" \
    gt0 "$(mesh_stat 2 trace_ttlx_drop_src_rate)"
check "node 2's forwarder alive" kill -0 "$(cat "$MT/n2.pid")"
check "traceroute 1 -> 3: nodes 2, 3 (after the flood)" wait_for 30 trace_ok
finish
