#!/bin/sh
# t_mesh_bcast_repeat.sh — broadcast repeats on lossy (wireless) links:
# the chain 1-2-3 with 20 % random loss in each direction of both links
# (nftables netdev ingress, numgen random), every interface declared
# "wireless".  Node 1 sends 400 UDP broadcasts; node 3, two lossy hops
# away, counts the distinct ones it gets on batsec0.  First with
# "bcast-repeat 0", then (SIGHUP, the same daemons) "bcast-repeat 2".
#
# Without repeats a broadcast crosses both hops with probability
# 0.8^2 = 0.64 (reported, not asserted tightly); with two repeats each hop
# fails only when all three copies are lost, 1 - 0.2^3 = 0.992 a hop,
# 0.984 for both: 380 of 400 (95 %) is more than 7 standard deviations
# below the 394 expected.  Repeats are exact copies: node 3 must deliver
# every broadcast once, never twice.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_bcast_repeat

LOSS=20
COUNT=400
MESH_IF_OPTS="wireless bcast-repeat 0"
mesh_build 3 "1-2 2-3"
mesh_loss_all "$LOSS"
mesh_start_all || finish

if mesh_wait_converged 120; then
	pass "lossy chain of 3 converged (${MESH_CONV_SECS} s)"
else
	fail "lossy chain of 3 converged within 120 s"
	finish
fi
check "node 1 reaches node 3 through node 2" wait_for 30 mesh_nexthop_is 1 3 2

# burst_tx.py TOKEN COUNT GAP_MS: COUNT UDP broadcasts to 10.99.0.255:9
# out of batsec0, payload TOKEN-i, GAP_MS apart.
cat >"$MT/burst_tx.py" <<-'EOF'
import socket, sys, time
token, count, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) / 1000
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"batsec0")
for i in range(count):
    s.sendto(("%s-%05d." % (token, i)).encode(), ("10.99.0.255", 9))
    time.sleep(gap)
EOF
# burst LABEL: COUNT broadcasts 1 -> 3; "distinct total" in $MT/rx.LABEL.
burst() {
	local tok pid
	tok="bsr-$$-$1"
	rm -f "$MT/rx.$1" "$MT/rx.$1.ready"
	# Sending takes COUNT * 10 ms and more on a loaded machine; the
	# receiver listens for long enough either way.
	ip netns exec "$(mesh_ns 3)" python3 "$MT/bcast_rx.py" batsec0 \
	    "$tok" $((COUNT / 100 + 20)) "$MT/rx.$1.ready" seq >"$MT/rx.$1" &
	pid=$!
	track_pid "$pid"
	wait_for 20 test -e "$MT/rx.$1.ready" || return 1
	ip netns exec "$(mesh_ns 1)" python3 "$MT/burst_tx.py" "$tok" \
	    "$COUNT" 10 || return 1
	wait "$pid"
	[ -s "$MT/rx.$1" ]
}

# unheard: the data frames nodes 2 and 3 refused during the last burst
# for coming from no neighbour or under no key they hold (counters taken
# before it in $MT/drops).  A run that fell short (82 %, CI 2026-12-08)
# had 129 such drops on node 2 over the whole test: this says whether
# they fell in a burst.
drops_now() {
	for i in 2 3; do
		printf '%s %s ' "$(mesh_stat "$i" data_drop_not_neighbour)" \
		    "$(mesh_stat "$i" data_drop_no_key)"
	done
}
unheard() {
	set -- $(cat "$MT/drops") $(drops_now)
	echo "during the burst: node 2 not_neighbour +$(($5 - $1)) no_key +$(($6 - $2)), node 3 not_neighbour +$(($7 - $3)) no_key +$(($8 - $4))"
}

# ---- without repeats ----------------------------------------------------------
drops_now >"$MT/drops"
check "400 broadcasts, bcast-repeat 0" burst r0
unheard
read -r got0 all0 <"$MT/rx.r0" 2>/dev/null || { got0=0; all0=0; }
echo "bcast-repeat 0: $got0 of $COUNT delivered over 2 hops at $LOSS % loss" \
    "($((got0 * 100 / COUNT)) %)"
check "bcast-repeat 0: some broadcasts crossed both hops" test "$got0" -gt 0
check "bcast-repeat 0: none delivered twice ($all0 frames)" \
    test "$all0" -eq "$got0"
for i in 1 2 3; do
	check "node $i: no repeats sent with bcast-repeat 0" \
	    test "$(mesh_stat "$i" bcast_repeats)" -eq 0
done

# ---- two repeats, after a reload -------------------------------------------------
MESH_IF_OPTS="wireless bcast-repeat 2"
rep_before=$(mesh_stat 2 bcast_repeats)
rep1_before=$(mesh_stat 1 bcast_repeats)
for i in 1 2 3; do
	mesh_conf "$i"
	kill -HUP "$(cat "$MT/n$i.pid")"
done
reloaded() { grep -q "mesh interface m$2: wireless, bcast-repeat 2" "$MT/n$1.log"; }
check "SIGHUP: node 1 m2 repeats twice" wait_for 20 reloaded 1 2
check "SIGHUP: node 2 m1 repeats twice" wait_for 20 reloaded 2 1
check "SIGHUP: node 2 m3 repeats twice" wait_for 20 reloaded 2 3
check "SIGHUP: node 3 m2 repeats twice" wait_for 20 reloaded 3 2
check "node 1 still reaches node 3" wait_for 30 mesh_nexthop_is 1 3 2
ifopt() { mesh_json 2 if "[r['$2'] for r in j if r['name'] == '$1'][0]"; }
check "node 2 m3: wireless ($(ifopt m3 wireless))" test "$(ifopt m3 wireless)" = yes
check "node 2 m3: bcast_repeat 2 ($(ifopt m3 bcast_repeat))" \
    test "$(ifopt m3 bcast_repeat)" = 2

drops_now >"$MT/drops"
check "400 broadcasts, bcast-repeat 2" burst r2
unheard
read -r got2 all2 <"$MT/rx.r2" 2>/dev/null || { got2=0; all2=0; }
echo "bcast-repeat 2: $got2 of $COUNT delivered over 2 hops at $LOSS % loss" \
    "($((got2 * 100 / COUNT)) %)"
check "bcast-repeat 2: at least 95 % delivered ($got2 of $COUNT)" \
    test "$got2" -ge $((COUNT * 95 / 100))
check "bcast-repeat 2: more than without ($got2 > $got0)" \
    test "$got2" -gt "$got0"
check "bcast-repeat 2: none delivered twice ($all2 frames)" \
    test "$all2" -eq "$got2"
# Node 2 relayed every broadcast node 3 got, and repeated each twice
# (unless its queue was full, which bcast_repeat_drops counts).
rep=$(( $(mesh_stat 2 bcast_repeats) - rep_before ))
drops=$(mesh_stat 2 bcast_repeat_drops)
echo "node 2: bcast_repeats $rep, bcast_repeat_drops $drops"
# Node 1, the source, repeats its own broadcasts on m2 as well: a run that
# fell short of 95 % once (318 of 400, stop 39) had about the 0.8 * 0.992
# a first hop without repeats would give; say what node 1 did.
echo "node 1: bcast_repeats $(( $(mesh_stat 1 bcast_repeats) - rep1_before )), bcast_repeat_drops $(mesh_stat 1 bcast_repeat_drops)"
for i in 2 3; do
	echo "node $i data drops: $(mesh_json "$i" s "' '.join('%s=%s' % (k[10:], v) for k, v in sorted(j.items()) if k.startswith('data_drop_') and v)")"
done
check "node 2 repeated what it relayed ($rep + 2 * $drops >= 2 * $got2)" \
    test $((rep + 2 * drops)) -ge $((2 * got2))
# The extra copies die at the receivers' hop check (replayed counter).
check "node 3 dropped repeats it had already (drop_replay)" \
    test "$(mesh_stat 3 data_drop_replay)" -gt 0

# auto (no words): a veth has neither /sys/class/net/m3/wireless nor
# phy80211, so it is wired with no repeats.
MESH_IF_OPTS=""
mesh_conf 2
kill -HUP "$(cat "$MT/n2.pid")"
check "auto: node 2 m3 is wired, no repeats" \
    wait_for 20 grep -q "mesh interface m3: wired, bcast-repeat 0" "$MT/n2.log"
check "auto: node 2 m3 shows wireless no" test "$(ifopt m3 wireless)" = no

for i in 1 2 3; do
	check "node $i: batsecd still running" mesh_running "$i"
done

finish
