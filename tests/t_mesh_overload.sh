#!/bin/sh
# t_mesh_overload.sh — frames the kernel drops before the forwarder reads
# them are counted and logged.  Node 2's forwarder is stopped (SIGSTOP)
# while node 1's namespace sends far more batsec frames at it than a mesh
# socket's receive queue holds (1 MiB); after SIGCONT, batsec-ctl shows
# the drops on the interface (rx_queue_drops) and in stats, the log says
# so once, and the mesh still works.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_overload

mesh_build 2 "1-2"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "two nodes converged (${MESH_CONV_SECS} s)"
else
	fail "two nodes converged within 60 s"
fi

check "node 2: no receive-queue drops before the flood" \
    [ "$(mesh_json 2 if "sum(r['rx_queue_drops'] for r in j)")" = 0 ]

# 4000 frames of 1400 bytes (5.6 MB) to node 2's veth, type 0x00: not a
# batsec frame type, so whatever node 2 reads afterwards it drops.
cat >"$MT/flood.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
dst = bytes.fromhex(sys.argv[2].replace(":", ""))
frame = dst + s.getsockname()[4][:6] + b"\x88\xb5" + b"\x00" * 1400
sent = 0
while sent < 4000:
    try:
        s.send(frame)
        sent += 1
    except BlockingIOError:
        pass
EOF
MAC2=$(ip -n "$(mesh_ns 2)" -o link show m1 |
    sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
P2=$(cat "$MT/n2.pid")
kill -STOP "$P2"
check "node 1 sends 4000 frames at node 2's stopped forwarder" \
    ip netns exec "$(mesh_ns 1)" python3 "$MT/flood.py" m2 "$MAC2"
kill -CONT "$P2"

drops_if() {
	d=$(mesh_json 2 if "[r['rx_queue_drops'] for r in j if r['name'] == 'm1'][0]")
	[ -n "$d" ] && [ "$d" -gt 0 ] && [ "$d" -le 4000 ]
}
check "node 2: batsec-ctl if counts the frames the kernel dropped on m1" \
    wait_for 10 drops_if
check "node 2: stats rx_queue_drops is the interfaces' sum" \
    [ "$(mesh_json 2 s "j['rx_queue_drops']")" = \
    "$(mesh_json 2 if "sum(r['rx_queue_drops'] for r in j)")" ]
check "node 1: nothing dropped on its side" \
    [ "$(mesh_json 1 if "sum(r['rx_queue_drops'] for r in j)")" = 0 ]
logged() { grep -q 'mesh interface m1: the kernel dropped [0-9]* received frames' "$MT/n2.log"; }
check "node 2: the log says so" wait_for 10 logged
check "node 2: ... once (at most once a minute)" \
    [ "$(grep -c 'the kernel dropped' "$MT/n2.log")" = 1 ]

check "node 2: batsecd still running" mesh_running 2
check "ping IPv4 1 -> 2 after the flood" mesh_ping 1 2 4
finish
