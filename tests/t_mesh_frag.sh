#!/bin/sh
# t_mesh_frag.sh — fragmentation (batsec-protocol(7), FRAG): a chain
# 1-2-3-4 whose middle link 2-3 is a macvlan on a veth of MTU 1280, which
# batsecd cannot raise to the 1630 a whole UNICAST needs.  batsec0 stays
# at 1500 on every node; 1500-byte IPv4 and IPv6 packets with DF set (the
# python3 stand-in for `ping -s 1472 -M do`, or ping(8) with
# MESH_PING=ping) and a TCP transfer cross the chain both ways; node 2
# and node 3 cut, nodes 4 and 1 put the pieces together, node 3 (a relay
# of pieces) reassembles nothing, and nothing is dropped as too big.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_frag

mesh_build 4 "1-2 2-3 3-4"

# The middle link again, as macvlans over veths of MTU 1280, which the
# daemon cannot raise (meshlib.sh).
if mesh_link_small 2 3 1280; then
	pass "link 2-3: macvlan over a veth of MTU 1280"
else
	fail "link 2-3: macvlan over a veth of MTU 1280"
	finish
fi

mesh_start_all || finish
mtu_of() { ip -n "$(mesh_ns "$1")" -o link show "$2" |
    sed -n 's/.* mtu \([0-9]*\) .*/\1/p'; }
mtu_is() { [ "$(mtu_of "$1" "$2")" = "$3" ]; }

if mesh_wait_converged 60; then
	pass "chain of 4 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 4 converged within 60 s"
fi
check "node 2: m3 kept MTU 1280 (the raise was refused)" mtu_is 2 m3 1280
check "node 3: m2 kept MTU 1280" mtu_is 3 m2 1280
check "node 1: m2 raised to 1630" mtu_is 1 m2 1630
for i in 1 2 3 4; do
	check "node $i: batsec0 MTU 1500" mtu_is "$i" batsec0 1500
done

# ---- ping, DF set ---------------------------------------------------------

big() { mesh_ping1 "$@" || mesh_ping1 "$@" || mesh_ping1 "$@"; }
check "ping IPv4 1 -> 4, 1500-byte packets, DF" big 1 4 4 3 5 1472
check "ping IPv6 4 -> 1, 1500-byte packets" big 4 1 6 3 5 1452
check "(the test's own check: 1501 bytes with DF do not go)" \
    mesh_noreply 1 4 4 1 2 1473
check "ping IPv4 1 -> 4, small packets go whole" big 1 4 4 3 5 56
check "node 2 cut frames for node 4" \
    test "$(mesh_stat 2 frag_cut)" -gt 0
check "node 3 cut frames for node 1" \
    test "$(mesh_stat 3 frag_cut)" -gt 0
check "node 4 put frames together" \
    test "$(mesh_stat 4 frag_reassembled)" -gt 0
check "node 1 put frames together" \
    test "$(mesh_stat 1 frag_reassembled)" -gt 0
check "node 3 relays pieces, reassembles none" \
    test "$(mesh_stat 3 frag_reassembled)" -eq 0 -a \
    "$(mesh_stat 3 frag_sent)" -gt 0

# ---- TCP ------------------------------------------------------------------

# 2 MiB of random bytes from FROM to TO's port 5302; the receiver writes
# what came to a file whose SHA-256 must be the sender's.
head -c 2097152 /dev/urandom >"$MT/blob"
cat >"$MT/sink.py" <<'EOF2'
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(fam, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5302)); s.listen(1); s.settimeout(40)
open(sys.argv[2] + ".ready", "w").close()
c, _ = s.accept(); c.settimeout(40)
with open(sys.argv[2], "wb") as out:
    while True:
        b = c.recv(65536)
        if not b:
            break
        out.write(b)
EOF2
cat >"$MT/source.py" <<'EOF2'
import socket, sys
c = socket.create_connection((sys.argv[1], 5302), timeout=40)
c.sendall(open(sys.argv[2], "rb").read()); c.close()
EOF2
xfer() {
	local from=$1 to=$2 addr=$3 got=$MT/got.$1.$2 p
	ip netns exec "$(mesh_ns "$to")" timeout 60 python3 "$MT/sink.py" \
	    "$addr" "$got" &
	p=$!
	track_pid "$p"
	wait_for 10 test -e "$got.ready" &&
	    ip netns exec "$(mesh_ns "$from")" timeout 60 python3 \
	    "$MT/source.py" "$addr" "$MT/blob"
	wait "$p"
	[ "$(sha256sum <"$got")" = "$(sha256sum <"$MT/blob")" ]
}
check "TCP IPv4 1 -> 4, 2 MiB arrive intact" xfer 1 4 "$(mesh_ip4 4)"
check "TCP IPv6 4 -> 1, 2 MiB arrive intact" xfer 4 1 "$(mesh_ip6 1)"
for i in 1 2 3 4; do
	check "node $i: nothing dropped as too big" \
	    test "$(mesh_stat "$i" data_drop_too_big)" -eq 0
	check "node $i: no piece refused" test "$(mesh_json "$i" s \
	    "sum(v for k, v in j.items() if k.startswith('frag_drop_'))")" -eq 0
done
check "node 4: no reassembly buffer left behind" \
    test "$(mesh_stat 4 frag_chains)" -eq 0
finish
