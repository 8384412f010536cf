#!/bin/sh
# t_trust_live.sh — live trust changes with batsec-ctl on running daemons
# (mode allowlist):
#
#	1 - 2 - 3	nodes 1 and 2 trust only each other at first;
#			node 3 trusts everyone
#
# `trust add` of node 3's key on nodes 1 and 2 lets it join; `block`, and
# later `trust remove`, remove it and every route through it from their
# tables within 5 OGM intervals (batsec-policy(5) LIVE CHANGES); every
# change is in the policy file.  The control socket refuses a user that is
# neither root nor in the batsec group.  kill -9 during a stream of
# `trust add` never leaves a truncated or unreadable policy file.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-1000}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_trust_live

# The bound this test holds the daemons to: 5 OGM intervals.
LIMIT_S=$(( 5 * MESH_ORIG_MS / 1000 ))

mesh_build 3 "1-2 2-3"
for i in 1 2; do
	mesh_policy "$MT/policy.$i" 1 2
	mesh_conf "$i" "$MT/policy.$i"
done
mesh_policy "$MT/policy.3" 1 2 3
mesh_conf 3 "$MT/policy.3"
mesh_start_all || finish

if mesh_wait_converged 60 1 2; then
	pass "nodes 1 and 2 converged (${MESH_CONV_SECS} s)"
else
	fail "nodes 1 and 2 converged within 60 s"
fi
check_not "node 1 does not know node 3 before trust add" mesh_knows 1 3
K3=$(mesh_key 3)

# ---- trust add: node 3 joins ---------------------------------------------------
for i in 1 2; do
	check "node $i: trust add node 3" mesh_ctl "$i" trust add "$K3" \
	    name node3
done
if mesh_wait_converged 60; then
	pass "node 3 joined after trust add (${MESH_CONV_SECS} s)"
else
	fail "node 3 joined within 60 s of trust add"
fi
check "ping 1 -> 3 after trust add" mesh_ping 1 3 4
check "policy file of node 1 has the trust line" \
    grep -q "^trust $K3 name node3\$" "$MT/policy.1"
check "trust list shows node 3" sh -c \
    "'$CTL' -s '$(mesh_sock 1)' -j trust list | grep -q '\"name\":\"node3\"'"
check "policy show prints the running policy" sh -c \
    "'$CTL' -s '$(mesh_sock 1)' policy show | grep -q '^mode allowlist'"
check "anchors answers (none in mode allowlist)" sh -c \
    "test \"\$('$CTL' -s '$(mesh_sock 1)' -j anchors)\" = '[]'"

# ---- errors: refused, and nothing changes -------------------------------------
cp "$MT/policy.1" "$MT/policy.1.before"
check_not "trust add of a key already trusted fails" \
    mesh_ctl 1 trust add "$K3"
check_not "trust add of a bad key fails" mesh_ctl 1 trust add \
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
check_not "trust remove of a key not trusted fails" \
    mesh_ctl 1 trust remove "$(mesh_key 3 | tr 'A-Za-y' 'B-Zab-z')"
check_not "unblock of a key not blocked fails" mesh_ctl 1 unblock "$K3"
check "the policy file is unchanged by refused edits" \
    cmp -s "$MT/policy.1" "$MT/policy.1.before"

# gone I J: node I has neither a route to J nor J as a neighbour.
A3=$(mesh_addr 3)
gone() {
	out=$(mesh_ctl "$1" -j o 2>/dev/null) || return 1
	nb=$(mesh_ctl "$1" -j n 2>/dev/null) || return 1
	case "$out$nb" in *"$A3"*) return 1 ;; esac
	return 0
}
# gone_everywhere: node 3 is in no table of nodes 1 and 2.
gone_everywhere() { gone 1 && gone 2; }

# ---- block: node 3 is cut off at once ----------------------------------------
t0=$(mesh_now_ms)
for i in 2 1; do
	check "node $i: block node 3" mesh_ctl "$i" block "$K3"
done
if wait_for "$LIMIT_S" gone_everywhere; then
	pass "block removed node 3's routes and neighbour entries on nodes" \
	    "1 and 2 in $(mesh_secs_since "$t0") s (limit $LIMIT_S s)"
else
	fail "block removed node 3 from nodes 1 and 2 within $LIMIT_S s"
fi
check "policy file of node 2 has the block line" \
    grep -q "^block $K3\$" "$MT/policy.2"
no_ping() { mesh_noreply "$1" "$2" "$3" 3 2; }
check "node 3 cannot ping node 1 once blocked" no_ping 3 1 4
# Still blocked after a dozen OGM intervals: nothing brings it back.
sleep $(( 12 * MESH_ORIG_MS / 1000 ))
check "node 3 stays out while blocked" gone_everywhere

# ---- unblock: back again; trust remove: out again ----------------------------
for i in 1 2; do
	check "node $i: unblock node 3" mesh_ctl "$i" unblock "$K3"
done
if mesh_wait_converged 60; then
	pass "node 3 back after unblock (${MESH_CONV_SECS} s)"
else
	fail "node 3 back within 60 s of unblock"
fi
t0=$(mesh_now_ms)
for i in 2 1; do
	check "node $i: trust remove node 3" mesh_ctl "$i" trust remove "$K3"
done
if wait_for "$LIMIT_S" gone_everywhere; then
	pass "trust remove took node 3 out of nodes 1 and 2 in" \
	    "$(mesh_secs_since "$t0") s (limit $LIMIT_S s)"
else
	fail "trust remove took node 3 out within $LIMIT_S s"
fi
check_not "policy file of node 1 no longer trusts node 3" \
    grep -q "$K3" "$MT/policy.1"

# ---- reload: a broken file is refused, the running policy stays ----------------
cp "$MT/policy.1" "$MT/policy.1.good"
echo "trust not-a-key" >>"$MT/policy.1"
badline=$(wc -l <"$MT/policy.1")
out=$(mesh_ctl 1 reload 2>&1)
case $out in
*"policy.1:$badline: trust: bad key"*) pass "reload of a broken policy fails naming file:line" ;;
*) fail "reload of a broken policy fails naming file:line (got: $out)" ;;
esac
check "node 1 still routes to node 2 after the failed reload" mesh_knows 1 2
cp "$MT/policy.1.good" "$MT/policy.1"
check "reload of the repaired policy succeeds" mesh_ctl 1 reload

# ---- the control socket refuses other users -----------------------------------
S1=$(mesh_sock 1)
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -s "$S1" "$@"
}
chmod 711 "$MT"
out=$(as_nobody trust list 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	pass "nobody cannot use the socket file (exit $rc)"
else
	fail "nobody cannot use the socket file (got: $out)"
fi
# Past the file mode, the daemon's SO_PEERCRED check still refuses.
chmod 666 "$S1"
out=$(as_nobody trust add "$K3" 2>&1)
rc=$?
case "$rc:$out" in
0:*) fail "batsecd refuses nobody (exit 0: $out)" ;;
*"permission denied"*) pass "batsecd refuses nobody: $out" ;;
*) fail "batsecd refuses nobody with 'permission denied' (got: $out)" ;;
esac
check_not "nobody's trust add changed nothing" grep -q "$K3" "$MT/policy.1"
chmod 700 "$MT"

# ---- kill -9 during trust add never corrupts the policy file -------------------
for k in $(mesh_seq 30); do
	"$CTL" key generate 2>/dev/null | "$CTL" key public - 2>/dev/null
done >"$MT/extra.keys"
check "30 extra keys generated" test "$(wc -l <"$MT/extra.keys")" -eq 30

# After each kill: the file ends in a newline, holds only whole lines of
# the expected shapes, lost no trust line, and a daemon starts on it.
bad_kill=""
for round in 1 2 3 4; do
	n0=$(grep -c '^trust ' "$MT/policy.1")
	(
		while read -r key; do
			"$CTL" -s "$S1" trust add "$key" name x$round \
			    >/dev/null 2>&1
		done <"$MT/extra.keys"
	) &
	adder=$!
	track_pid "$adder"
	sleep 0.$((round * 2))
	kill -9 "$(cat "$MT/n1.pid")"
	wait "$adder" 2>/dev/null
	wait "$(cat "$MT/n1.pid")" 2>/dev/null
	n1=$(grep -c '^trust ' "$MT/policy.1")
	# Every line is complete: a directive and a newline at the end.
	if [ -s "$MT/policy.1" ] && [ "$(tail -c 1 "$MT/policy.1" | od -An -c |
	    tr -d ' ')" = '\n' ] && [ "$n1" -ge "$n0" ] &&
	    ! grep -qv '^\(#.*\|mode .*\|trust [A-Za-z0-9+/]\{43\}= name [a-z0-9]*\|\)$' \
	    "$MT/policy.1"; then
		:
	else
		bad_kill="$bad_kill round$round"
		cp "$MT/policy.1" "$MT/policy.1.round$round.txt"
	fi
	# The daemon starts again on what is there (it parses).
	mesh_start 1 >/dev/null 2>&1 || bad_kill="$bad_kill restart$round"
	# Start over with only nodes 1 and 2 trusted.
	mesh_policy "$MT/policy.1" 1 2
	mesh_ctl 1 reload >/dev/null 2>&1 || bad_kill="$bad_kill reload$round"
done
if [ -z "$bad_kill" ]; then
	pass "kill -9 during trust add: the policy file stayed whole and" \
	    "loadable (4 rounds)"
else
	fail "kill -9 during trust add left a bad policy file:$bad_kill"
fi
leftover=$(ls "$MT" | grep -c '^policy\.1\.tmp\.')
echo "note: $leftover temporary files left by the killed daemons"
check "node 1 converges again after the restarts" mesh_wait_converged 60 1 2

finish
