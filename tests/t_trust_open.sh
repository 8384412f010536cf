#!/bin/sh
# t_trust_open.sh — mode open on running daemons:
#
#	1 - 2 - 3	nodes 1 and 2 trust each other; node 3 is listed
#			nowhere (it trusts 1 and 2)
#
# Node 3 joins as a stranger without any change on nodes 1 and 2.  A
# `block` on nodes 1 and 2 removes it within 5 OGM intervals, `unblock`
# lets it back.  Node 3's key is pinned (TOFU, once it held a route for
# `limit pin-after 2` seconds) on nodes 1 and 2 and kept
# in their state directories (STATE_DIR/pins); on node 2 a new parser
# (the old one killed) and a restarted daemon get the pin back while
# node 3 is blocked, so it can only come from the kept pins.  (A pin
# refusing a colliding key cannot be shown here: it takes two keys whose
# mesh addresses collide; check_pcore_trust stands one in with
# pcore_trust_pin_addr.)
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-1000}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_trust_open
LIMIT_S=$(( 5 * MESH_ORIG_MS / 1000 ))

mesh_build 3 "1-2 2-3"
for i in 1 2; do
	{ echo "mode open"; echo "trust $(mesh_key 1) name node1";
	  echo "trust $(mesh_key 2) name node2";
	  echo "limit pin-after 2"; } >"$MT/policy.$i"
	mesh_conf "$i" "$MT/policy.$i"
done
mesh_policy "$MT/policy.3" 1 2 3
mesh_conf 3 "$MT/policy.3"
mesh_start_all || finish

if mesh_wait_converged 60; then
	pass "stranger node 3 joined an open mesh (${MESH_CONV_SECS} s)"
else
	fail "stranger node 3 joined an open mesh within 60 s"
fi
check "ping 1 -> 3 (stranger)" mesh_ping 1 3 4
strangers2() { [ "$(mesh_stat 2 strangers)" -ge 1 ] 2>/dev/null; }
check "node 2 counts node 3 as a stranger" wait_for 10 strangers2
# A stranger is pinned once it held a route for `limit pin-after` (2 s).
pins2() { [ "$(mesh_stat 2 tofu_pins)" = 1 ] 2>/dev/null; }
check "node 2 pins node 3 after it held a route for 2 s" wait_for 15 pins2

K3=$(mesh_key 3)
A3=$(mesh_addr 3)
gone() {
	out=$(mesh_ctl "$1" -j o 2>/dev/null) || return 1
	nb=$(mesh_ctl "$1" -j n 2>/dev/null) || return 1
	case "$out$nb" in *"$A3"*) return 1 ;; esac
	return 0
}
gone_both() { gone 1 && gone 2; }
t0=$(mesh_now_ms)
for i in 2 1; do
	check "node $i: block the stranger" mesh_ctl "$i" block "$K3"
done
if wait_for "$LIMIT_S" gone_both; then
	pass "block removed the stranger in $(mesh_secs_since "$t0") s" \
	    "(limit $LIMIT_S s)"
else
	fail "block removed the stranger within $LIMIT_S s"
fi

# TOFU pins: node 3's key (and no trusted one) in node 2's state dir.
pinned() { grep -q "^$K3 [0-9]*\$" "$MT/n2.state/pins" 2>/dev/null; }
check "node 2 keeps node 3's pin in its state directory" wait_for 15 pinned
check "... and only that one (trusted keys are not pinned)" \
    [ "$(wc -l <"$MT/n2.state/pins")" = 1 ]
check "node 2: stats tofu_pins_kept 1" [ "$(mesh_stat 2 tofu_pins_kept)" = 1 ]
check "node 3 pinned nobody (mode allowlist)" [ ! -e "$MT/n3.state/pins" ]
# A new parser on node 2 (the old one killed): node 3 is blocked there,
# so its pin can only come from the forwarder.
parser_of() { pgrep -P "$(cat "$MT/n$1.pid")" | head -n 1; }
spawns0=$(mesh_stat 2 parser_spawns)
kill -KILL "$(parser_of 2)"
respawned_with_pin() {
	[ "$(mesh_stat 2 parser_spawns)" -gt "$spawns0" ] &&
	    [ "$(mesh_stat 2 tofu_pins)" = 1 ]
}
check "node 2: a new parser has the pin back" wait_for 20 respawned_with_pin
# And a restarted daemon.
check "node 2: batsecd stops on SIGTERM" mesh_stop 2
check "node 2: batsecd starts again" mesh_start 2
pin_loaded() { grep -q "pins: 1 TOFU pins" "$MT/n2.log"; }
check "node 2: the log says the pin was read back" wait_for 10 pin_loaded
restarted_with_pin() {
	[ "$(mesh_stat 2 tofu_pins_kept)" = 1 ] &&
	    [ "$(mesh_stat 2 tofu_pins)" = 1 ]
}
check "node 2: the restarted parser has the pin" \
    wait_for 20 restarted_with_pin

for i in 1 2; do
	check "node $i: unblock the stranger" mesh_ctl "$i" unblock "$K3"
done
if mesh_wait_converged 60; then
	pass "the stranger is back after unblock (${MESH_CONV_SECS} s)"
else
	fail "the stranger is back after unblock within 60 s"
fi

check "node 1 still reaches node 2" mesh_knows 1 2

finish
