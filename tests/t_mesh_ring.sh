#!/bin/sh
# t_mesh_ring.sh — a busy mesh socket receives through a ring and goes
# back to its queue when quiet (batsecd(8), "Mesh interfaces and MTU").
# A TCP stream from node 1 to node 3 of a chain brings node 2's and
# node 3's sockets far over 20 000 frames a second: the log says each
# switched to a ring and batsec-ctl if shows it, the stream arrives
# whole, pings pass while the ring is on, and ten quiet seconds later
# the ring is gone and pings still pass.  Node 2 relays in its
# forwarder (fast-path off): with the in-kernel relay the stream would
# not reach its socket at all (t_mesh_fastpath).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_ring

mesh_build 3 "1-2 2-3"
echo "fast-path off" >>"$MT/n2.conf"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "three nodes converged (${MESH_CONV_SECS} s)"
else
	fail "three nodes converged within 60 s"
fi
check "node 1 pings node 3 before the stream" mesh_ping 1 3

# The stream: 6 s of 1 MiB blocks, each a block number and then bytes
# derived from it; both ends print the byte count and the SHA-256.
cat >"$MT/rx.py" <<'EOF'
import hashlib, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5202)); s.listen(1); s.settimeout(60)
c, _ = s.accept(); c.settimeout(30)
h = hashlib.sha256(); n = 0; t0 = time.monotonic()
while True:
    d = c.recv(1 << 16)
    if not d:
        break
    h.update(d); n += len(d)
print(n, h.hexdigest(), "%.3f" % (time.monotonic() - t0))
EOF
cat >"$MT/tx.py" <<'EOF'
import hashlib, socket, sys, time
s = socket.create_connection((sys.argv[1], 5202), timeout=30)
h = hashlib.sha256(); n = 0; i = 0
base = hashlib.sha256(b"batsec ring").digest() * 32768
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    b = i.to_bytes(8, "big") + base[8:]
    s.sendall(b); h.update(b); n += len(b); i += 1
s.close()
print(n, h.hexdigest())
EOF
ip netns exec "$(mesh_ns 3)" python3 "$MT/rx.py" "$(mesh_ip4 3)" \
    >"$MT/rx.out" 2>"$MT/rx.err" &
RX=$!
track_pid "$RX"
wait_for 10 sh -c "ip netns exec '$(mesh_ns 3)' ss -ltn | grep -q ':5202 '"
check "node 1 streams to node 3 for 6 s" \
    sh -c "ip netns exec '$(mesh_ns 1)' python3 '$MT/tx.py' \
    '$(mesh_ip4 3)' 6 >'$MT/tx.out' 2>'$MT/tx.err'"
wait "$RX"
read -r TXN TXH <"$MT/tx.out"
read -r RXN RXH RXS <"$MT/rx.out"
check "the stream arrived whole ($RXN bytes)" \
    [ -n "$TXH" ] && [ "$TXN" = "$RXN" ] && [ "$TXH" = "$RXH" ]

# rings_are M1 M3: node 2's rx_ring on m1 and on m3 (yes or no).
ring_of() {
	mesh_json 2 if "[r['rx_ring'] for r in j if r['name'] == '$1'][0]"
}
rings_are() { [ "$(ring_of m1)" = "$1" ] && [ "$(ring_of m3)" = "$2" ]; }

# Frames a second at node 3: MSS-sized segments over the receive time.
FPS=$(python3 -c "print(int(${RXN:-0} / 1448 / max(float(${RXS:-1}), 0.001)))")
if [ "$FPS" -lt 30000 ]; then
	echo "SKIP: $(basename "$0"): the stream ran at $FPS frames/s, too" \
	    "slow for the 20 000 frames/s that switch a ring on"
else
	check "node 2 receives from node 1 through a ring ($FPS frames/s)" \
	    grep -q "mesh interface m1: .* frames/s, receiving through a ring" \
	    "$MT/n2.log"
	check "node 3 receives from node 2 through a ring" \
	    grep -q "mesh interface m2: .* frames/s, receiving through a ring" \
	    "$MT/n3.log"
	check "node 2: batsec-ctl if shows m1's ring, and no ring on m3" \
	    rings_are yes no
	check "node 1 pings node 3 while the rings are on" mesh_ping 1 3
	check "node 3 pings node 1 (IPv6) while the rings are on" \
	    mesh_ping 3 1 6
	check "node 2's ring goes when quiet" wait_for 40 grep -q \
	    "mesh interface m1: quiet, receive ring gone" "$MT/n2.log"
	check "node 3's ring goes when quiet" wait_for 20 grep -q \
	    "mesh interface m2: quiet, receive ring gone" "$MT/n3.log"
	check "node 2: batsec-ctl if shows no ring any more" rings_are no no
	check "node 1 pings node 3 after the rings are gone" mesh_ping 1 3
fi
check_not "no daemon logged an error" \
    grep -qiE "fatal|no receive ring|assert" "$MT/n1.log" "$MT/n2.log" \
    "$MT/n3.log"
finish
