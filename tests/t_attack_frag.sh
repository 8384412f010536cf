#!/bin/sh
# t_attack_frag.sh — a fragment flood (batsec-protocol(7), FRAG, and
# batsec-attack's fflood mode): chain 1-2-3 whose link 1-2 is a macvlan
# of MTU 1280, so node 1 cuts its full-size frames for node 3, which puts
# them together; node 4's key is admitted, and batsec-attack holds it on
# a link to node 3, never running batsecd.  While the attacker, a real
# neighbour with correct hop tags, starts thousands of reassembly chains
# at node 3 that it never completes, in the names of every originator it
# heard, node 3 holds at most 32 chains (16 of the attacker's), its
# forwarder grows by less than 4 MiB, and 1500-byte pings with DF and a
# 2 MiB TCP transfer from node 1 still arrive intact.  Then the same
# flood with random hop tags (a forged neighbour) is dropped at the hop
# check: no piece of it reaches reassembly.  FLOOD_RATE (300) sets the
# real flood's pieces a second.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_attack_frag
ATK=$B/tests/attack/batsec-attack
[ -x "$ATK" ] || { fail "built: $ATK"; finish; }

mesh_build 4 "1-2 2-3 3-4"
if mesh_link_small 1 2 1280; then
	pass "link 1-2: macvlan over a veth of MTU 1280"
else
	fail "link 1-2: macvlan over a veth of MTU 1280"
	finish
fi
for i in 1 2 3; do mesh_start "$i" || finish; done
if mesh_wait_converged 60 1 2 3; then
	pass "nodes 1-3 converged (${MESH_CONV_SECS} s)"
else
	fail "nodes 1-3 converged within 60 s"
	finish
fi
big() { mesh_ping1 1 3 4 3 5 1472 || mesh_ping1 1 3 4 3 5 1472 ||
    mesh_ping1 1 3 4 3 5 1472; }
check "ping 1 -> 3, 1500 bytes with DF, before the flood" big
s3() { mesh_stat 3 "$1"; }
check "node 3 put node 1's frames together" test "$(s3 frag_reassembled)" -gt 0
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$(cat "$MT/n3.pid")/status"; }
RSS0=$(rss_kb)

# The flood: 6 s to become a neighbour and originator, then pieces at up
# to 300 a second, stopped once the honest traffic is done (60 s at most).
A3=$(mesh_addr 3)
ip netns exec "$(mesh_ns 4)" "$ATK" -i m3 -m fflood -t 60 -r ${FLOOD_RATE:-300} \
    -K "$MT/n4.key" -V "$A3" >"$MT/atk.real.txt" 2>&1 &
APID=$!
track_pid "$APID"
flooding() { [ "$(s3 frag_drop_evicted)" -gt 1000 ]; }
check "node 3: the flood arrives and its chains are pushed out" \
    wait_for 60 flooding
most=0
sample() {
	local c
	c=$(s3 frag_chains)
	[ "${c:-99}" -gt "$most" ] && most=$c
	[ "${c:-99}" -le 32 ]
}
check "node 3 holds at most 32 chains during the flood" sample

# Honest traffic through the flood: pings and TCP, node 1 to node 3.
check "ping 1 -> 3, 1500 bytes with DF, during the flood" big
head -c 2097152 /dev/urandom >"$MT/blob"
cat >"$MT/sink.py" <<'EOF2'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5303)); s.listen(1); s.settimeout(30)
open(sys.argv[2] + ".ready", "w").close()
c, _ = s.accept(); c.settimeout(30)
with open(sys.argv[2], "wb") as out:
    b = c.recv(65536)
    while b:
        out.write(b); b = c.recv(65536)
EOF2
tcp() {
	local p
	ip netns exec "$(mesh_ns 3)" timeout 40 python3 "$MT/sink.py" \
	    "$(mesh_ip4 3)" "$MT/got" &
	p=$!
	track_pid "$p"
	wait_for 10 test -e "$MT/got.ready" &&
	    ip netns exec "$(mesh_ns 1)" timeout 40 python3 -c "
import socket, sys
c = socket.create_connection(('$(mesh_ip4 3)', 5303), timeout=30)
c.sendall(open('$MT/blob', 'rb').read()); c.close()"
	wait "$p"
	cmp -s "$MT/got" "$MT/blob"
}
r0=$(s3 frag_reassembled); e0=$(s3 frag_drop_evicted)
check "TCP 1 -> 3 during the flood: 2 MiB arrive intact" tcp
e1=$(s3 frag_drop_evicted)
check "the flood went on during the transfer ($e0 -> $e1 evicted)" \
    test "$e1" -gt "$e0"
# The flood must reach reassembly to test it: the attacker stays node 3's
# neighbour.  On a loaded machine (a sanitizer build) its neighbour entry
# may lapse for a moment between two HELLOs; a few pieces dropped then
# are fine, most must get through.
nn=$(s3 data_drop_not_neighbour)
check "the attacker stayed node 3's neighbour ($nn pieces dropped as a stranger)" \
    test "$((nn * 10))" -lt "$(s3 frag_received)"
check "node 3 still puts node 1's frames together" \
    test "$(s3 frag_reassembled)" -gt "$r0"
check "node 3 holds at most 32 chains after the transfer" sample
kill "$APID" 2>/dev/null
wait "$APID"
echo "node 3: most chains $most, evicted $(s3 frag_drop_evicted)," \
    "pieces received $(s3 frag_received)"
check "node 3 received thousands of the attacker's pieces" \
    test "$(s3 frag_received)" -gt 2000
RSS1=$(rss_kb)
check "node 3's forwarder grew by less than 4 MiB (${RSS0} -> ${RSS1} kB)" \
    test "$((RSS1 - RSS0))" -lt 4096
drained() { [ "$(s3 frag_chains)" -eq 0 ]; }
check "node 3: every chain of the flood timed out" wait_for 20 drained

# A forged neighbour: the same flood with random hop tags.
f0=$(s3 frag_received)
b0=$(mesh_json 3 s "j['data_drop_bad_tag'] + j['data_drop_stale_key']")
ip netns exec "$(mesh_ns 4)" "$ATK" -i m3 -m fflood -t 4 -r 2000 -x forge \
    -K "$MT/n4.key" -V "$A3" >"$MT/atk.forge.txt" 2>&1
b1=$(mesh_json 3 s "j['data_drop_bad_tag'] + j['data_drop_stale_key']")
check "forged pieces fail the hop tag on node 3 ($b0 -> $b1)" \
    test "$((b1 - b0))" -gt 1000
check "no forged piece reached reassembly" test "$(s3 frag_received)" -eq "$f0"
check "ping 1 -> 3, 1500 bytes with DF, after the floods" big
finish
