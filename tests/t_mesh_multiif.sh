#!/bin/sh
# t_mesh_multiif.sh — two nodes joined by two links (issue 23 item 5):
# m2/m1 plain, v2/v1 declared "hop-penalty 100" on both ends (a VPN link,
# say).  Node 2's OGMs reach node 1 over both: through m2 at TQ 255 (a
# clean veth), through v2 at most 255 * (255 - 100) / 255 = 155.  So
#  - node 1's best route to node 2 goes out on m2;
#  - `batsec-ctl o` lists node 2 twice, through m2 and through v2, with
#    the v2 line's TQ at most 155 and below the m2 line's, and the '*' on
#    the m2 line only (JSON: "best" true on m2, false on v2);
#  - after a reload (SIGHUP) that moves node 1's penalty from v2 to m2,
#    node 1's route moves to v2 (the parser hears of the new penalties),
#    and back to m2 when the penalty goes back to v2;
#  - with m2 taken down, the route moves to v2 and a ping over batsec0
#    gets through (it can only cross v2 now).
# Every wait polls; nothing sleeps a fixed time.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_multiif

mesh_build 2 "1-2"
mesh_link 1 2 v || { fail "second link v2/v1"; finish; }
echo "interface v2 hop-penalty 100" >>"$MT/n1.conf"
echo "interface v1 hop-penalty 100" >>"$MT/n2.conf"
mesh_start_all || finish

if mesh_wait_converged 60; then
	pass "two nodes over two links converged (${MESH_CONV_SECS} s)"
else
	fail "two nodes over two links converged within 60 s"
	finish
fi

A2=$(mesh_addr 2)
# poll SECS CMD...: CMD every half second until it succeeds or SECS of
# wall-clock time have passed (each query spawns batsec-ctl and python3,
# so wait_for's count of 0.1 s steps would stretch on a loaded machine).
poll() {
	local end
	end=$(( $(mesh_now_ms) + $1 * 1000 )); shift
	while :; do
		"$@" >/dev/null 2>&1 && return 0
		[ "$(mesh_now_ms)" -ge "$end" ] && return 1
		sleep 0.5
	done
}
# orig_rows I J: node I's `-j o` records for node J as "iface:tq:best".
orig_rows() {
	mesh_json "$1" o "' '.join(sorted('%s:%d:%s' % (r['interface'], \
r['tq'], 'best' if r['best'] else 'other') for r in j if r['address'] == \
'$(mesh_addr "$2")'))"
}
# both_listed: node 1 lists node 2 through m2 (best) and through v2.
both_listed() {
	ROWS=$(orig_rows 1 2)
	case $ROWS in
	*"m2:"*":best"*"v2:"*":other"*) return 0 ;;
	esac
	return 1
}
check "node 1 lists node 2 through both interfaces, best on m2" \
    poll 40 both_listed
echo "node 1's routes to node 2: $ROWS"
TQ_M=$(echo "$ROWS" | tr ' ' '\n' | sed -n 's/^m2:\([0-9]*\):best$/\1/p')
TQ_V=$(echo "$ROWS" | tr ' ' '\n' | sed -n 's/^v2:\([0-9]*\):other$/\1/p')
check "the penalised link's TQ ($TQ_V) is at most 155" \
    test "${TQ_V:-999}" -le 155
check "the penalised link's TQ ($TQ_V) is below the other's ($TQ_M)" \
    test "${TQ_V:-999}" -lt "${TQ_M:-0}"
check "exactly one best line for node 2" \
    test "$(mesh_json 1 o "sum(1 for r in j if r['address'] == '$A2' and \
r['best'])")" = 1

# The table: the '*' on the m2 line, none on the v2 line.
mesh_ctl 1 o >"$MT/o.txt" 2>&1
cat "$MT/o.txt"
check "table: '*' on node 2's m2 line" \
    grep -Eq "^ *\* +$A2 .* m2 *$" "$MT/o.txt"
check "table: node 2's v2 line without '*'" \
    grep -Eq "^ +$A2 .* v2 *$" "$MT/o.txt"
check "node 2 reachable over batsec0 on both links" mesh_ping 1 2

# best_on I: node 1's best route to node 2 goes out on interface I.
best_on() { [ "$(mesh_json 1 o "next((r['interface'] for r in j if \
r['address'] == '$A2' and r['best']), '')")" = "$1" ]; }
# penalise IFACE: node 1's configuration with the penalty on IFACE, reloaded.
penalise() {
	sed -i -e 's/^interface \(m2\|v2\).*/interface \1/' \
	    -e "s/^interface $1\$/interface $1 hop-penalty 100/" "$MT/n1.conf"
	kill -HUP "$(cat "$MT/n1.pid")"
}
penalise m2
check "reload: node 1 logs m2's new hop penalty" poll 20 \
    grep -q "mesh interface m2: wired, bcast-repeat 0, hop-penalty 100" \
    "$MT/n1.log"
check "reload: penalty moved to m2, the route moves to v2" \
    poll 40 best_on v2
penalise v2
check "reload: penalty back on v2, the route returns to m2" \
    poll 40 best_on m2

# Take the preferred link down: the route moves to v2 and traffic follows.
ip -n "$(mesh_ns 1)" link set m2 down
check "with m2 down, node 1's best route to node 2 goes out on v2" \
    poll 40 best_on v2
check "with m2 down, m2 is gone from node 1's list for node 2" \
    test -z "$(mesh_json 1 o "' '.join(r['interface'] for r in j if \
r['address'] == '$A2' and r['interface'] == 'm2')")"
check "with m2 down, node 2 answers a ping over batsec0 (via v2)" \
    mesh_ping 1 2
finish
