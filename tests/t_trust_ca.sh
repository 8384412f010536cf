#!/bin/sh
# t_trust_ca.sh — mode ca: certificates from a community CA, and a CA
# revocation that cuts a node off mesh-wide:
#
#	1 - 2 - 3 - 4		every node: "mode ca" + "anchor CA", no trust
#	        |		lines; nodes 1-4 hold certificates from CA
#	        5		(KEY.cert), node 5 one from another CA
#
# Nodes 1-3 start and converge on their certificates alone.  Nodes 1 and
# 2 both announce a gateway; only node 2's certificate has the gateway
# role, so only node 2 is listed as a gateway elsewhere.  Node 4 gets
# a fresh certificate and joins with no change on the others.  Node 5 is
# refused.  `batsec-ctl revoke --ca` on node 1 makes a revocation record
# for node 4; it travels in OGMs, every node stores it, and node 4 leaves
# every table within 5 OGM intervals, and stays out after a restart.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-1000}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_trust_ca
LIMIT_S=$(( 5 * MESH_ORIG_MS / 1000 ))

mesh_build 5 "1-2 2-3 3-4 3-5"
"$CTL" key generate -o "$MT/ca.key" >/dev/null 2>&1 &&
    "$CTL" key public "$MT/ca.key" >"$MT/ca.pub" 2>/dev/null
"$CTL" key generate -o "$MT/rogue.key" >/dev/null 2>&1
check "CA keys made" test -s "$MT/ca.pub" -a -s "$MT/rogue.key"

# cert I CAKEY [--gateway]: node I's certificate, next to its key.
cert() {
	"$CTL" cert issue --ca "$2" --key "$MT/n$1.pub" --name "node$1" \
	    --days 30 ${3:-} -o "$MT/n$1.key.cert" >/dev/null
}
for i in 1 3; do
	check "certificate for node $i" cert "$i" "$MT/ca.key"
done
check "certificate with the gateway role for node 2" cert 2 "$MT/ca.key" \
    --gateway
check "node 5's certificate from another CA" cert 5 "$MT/rogue.key"
for i in $(mesh_seq 5); do
	printf 'mode ca\nanchor %s name testca\n' "$(cat "$MT/ca.pub")" \
	    >"$MT/policy.$i"
	cp "$MT/policy.$i" "$MT/policy.$i.orig"
	mesh_conf "$i" "$MT/policy.$i"
done
for i in 1 2; do echo "gateway server 100mbit/20mbit" >>"$MT/n$i.conf"; done

# Nodes 1-3 first.
for i in 1 2 3; do mesh_start "$i" || finish; done
if mesh_wait_converged 60 1 2 3; then
	pass "nodes 1-3 converged on certificates alone (${MESH_CONV_SECS} s)"
else
	fail "nodes 1-3 converged on certificates within 60 s"
fi
check "ping 1 -> 3 (certified)" mesh_ping 1 3 4
A1=$(mesh_addr 1)
A2=$(mesh_addr 2)
gw2() { mesh_ctl 3 -j gw 2>/dev/null | grep -q "\"address\":\"$A2\""; }
check "node 3 lists node 2 as a gateway (certificate role)" wait_for 30 gw2
check_not "node 3 does not list node 1 as a gateway (no role)" sh -c \
    "'$CTL' -s '$(mesh_sock 3)' -j gw | grep -q '$A1'"
gwdrop3() { [ "$(mesh_stat 3 drop_gateway)" -gt 0 ] 2>/dev/null; }
check "node 3 counts node 1's refused gateway announcements" \
    wait_for 10 gwdrop3

# A new node with a fresh certificate joins; nothing changes elsewhere.
check "fresh certificate for node 4" cert 4 "$MT/ca.key"
mesh_start 4 || finish
if mesh_wait_converged 60 1 2 3 4; then
	pass "node 4 joined with a fresh certificate (${MESH_CONV_SECS} s)"
else
	fail "node 4 joined with a fresh certificate within 60 s"
fi
check "ping 1 -> 4" mesh_ping 1 4 4
same=yes
for i in 1 2 3; do
	cmp -s "$MT/policy.$i" "$MT/policy.$i.orig" || same=no
done
check "the policies of nodes 1-3 did not change" test "$same" = yes
accepted3() { [ "$(mesh_stat 3 cert_accepted)" -gt 0 ] 2>/dev/null; }
check "node 3 counts accepted certificates" wait_for 10 accepted3

# Node 5: a certificate from a CA nobody trusts.
mesh_start 5 || finish
hears5() { [ "$(mesh_stat 5 rx_hello)" -gt 0 ] 2>/dev/null; }
check "node 5 is on the air" wait_for 30 hears5
sleep $(( 6 * MESH_ORIG_MS / 1000 ))
check_not "node 3 does not know node 5 (another CA)" mesh_knows 3 5
check_not "node 1 does not know node 5 (another CA)" mesh_knows 1 5
check "node 3 refuses node 5 by policy" \
    test "$(mesh_stat 3 drop_policy)" -gt 0

# ---- CA revocation of node 4, issued on node 1 ------------------------------
A4=$(mesh_addr 4)
gone4() {
	out=$(mesh_ctl "$1" -j o 2>/dev/null) || return 1
	nb=$(mesh_ctl "$1" -j n 2>/dev/null) || return 1
	case "$out$nb" in *"$A4"*) return 1 ;; esac
	return 0
}
gone4_all() { gone4 1 && gone4 2 && gone4 3; }
t0=$(mesh_now_ms)
check "node 1: revoke --ca node 4" mesh_ctl 1 revoke --ca "$MT/ca.key" \
    "$MT/n4.pub"
if wait_for "$LIMIT_S" gone4_all; then
	pass "node 4 left the tables of nodes 1-3 in $(mesh_secs_since "$t0")" \
	    "s (limit $LIMIT_S s = 5 OGM intervals)"
else
	fail "node 4 left the tables of nodes 1-3 within $LIMIT_S s"
	for i in 1 2 3; do mesh_ctl "$i" o; mesh_ctl "$i" n; done
fi
for i in 1 2 3; do
	check "node $i stored the revocation" \
	    test -s "$MT/n$i.state/revocations"
done
learnt3() { [ "$(mesh_stat 3 revoke_learnt)" -gt 0 ] 2>/dev/null; }
check "node 3 learnt it from the mesh (revoke_learnt)" wait_for 10 learnt3
check "anchors on node 3 shows one revocation" test \
    "$(mesh_json 3 anchors "j[0]['revocations']")" = 1
check "policy show on node 2 lists the revocation" sh -c \
    "'$CTL' -s '$(mesh_sock 2)' policy show | grep -q '^# revoked by anchor'"
check_not "a second copy of the record is refused as known" \
    mesh_ctl 1 revoke --ca "$MT/ca.key" "$MT/n4.pub"
# A record written on the CA's machine (no daemon) and handed over.
check "revoke --ca -o writes a record file without a daemon" \
    "$CTL" -s "$MT/no.sock" revoke --ca "$MT/ca.key" -o "$MT/n4.rev" \
    "$MT/n4.pub"
check "the record file is armoured" \
    grep -q 'BEGIN BATSEC REVOCATION' "$MT/n4.rev"
out=$(mesh_ctl 2 revoke --record "$MT/n4.rev" 2>&1)
case $out in
*"already stored"*) pass "revoke --record: node 2 already holds it" ;;
*) fail "revoke --record: node 2 already holds it (got: $out)" ;;
esac
mesh_ping1 4 3 4 3 2
rc=$?
if [ $rc -eq 1 ]; then
	pass "node 4 cannot ping node 3 once revoked"
else
	fail "node 4 cannot ping node 3 once revoked (ping exit $rc)"
	mesh_ctl 3 n; mesh_ctl 3 o; mesh_ctl 3 -j s >"$MT/stats.3.txt"
fi
check "ping 1 -> 3 still passes" mesh_ping 1 3 4

# The record survives a restart of node 3 (state directory).
mesh_stop 3
mesh_start 3 || finish
if mesh_wait_converged 60 1 2 3; then
	pass "node 3 back after a restart (${MESH_CONV_SECS} s)"
else
	fail "node 3 back after a restart within 60 s"
fi
sleep $(( 6 * MESH_ORIG_MS / 1000 ))
check "node 4 stays out of node 3's tables after its restart" gone4 3

finish
