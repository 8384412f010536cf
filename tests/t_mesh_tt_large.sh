#!/bin/sh
# t_mesh_tt_large.sh — more clients than one TT container holds (#23
# item 3; batsec-protocol(7) LARGE TRANSLATION TABLES) on the chain
# 1-2-3:
#
#   * 1000 client MACs speak on node 1's batsec0: node 1 announces them
#     in pages (tt_pages_sent grows), and node 3 comes to hold all 1000
#     under node 1, with node 1's table synced (tt_synced: the checksum of
#     the pages it holds is the one announced);
#   * a client that speaks afterwards reaches node 3 before the pages'
#     rotation would bring it (its changed page goes first);
#   * a frame sent on node 3 to one of those clients comes out of node
#     1's batsec0 (the paged entry routes unicast);
#   * client 7 roams to node 3: node 2 maps it to node 3, node 1
#     withdraws it (its changed page), and node 3 holds node 1's other
#     1000 clients, synced;
#   * 100 more MACs: node 1 keeps 1024 local clients (local_full counts
#     the rest) and node 3 never holds more than 1024 under node 1.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_tt_large

mesh_build 3 "1-2 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "mesh 1-2-3 converged (${MESH_CONV_SECS} s)"
else
	fail "mesh 1-2-3 converged within 60 s"
	finish
fi

cat >"$MT/clients.py" <<'PY'
import socket, struct, sys
# clients.py FIRST COUNT: one broadcast frame (ethertype 0x88b6) from each
# of the MACs 02:aa:00:00:HH:LL, i = FIRST .. FIRST+COUNT-1, on batsec0.
first, count = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("batsec0", 0))
for i in range(first, first + count):
    src = bytes([2, 0xaa, 0, 0, i >> 8, i & 0xff])
    s.send(b"\xff" * 6 + src + struct.pack("!H", 0x88b6) + b"batsec-tt" + bytes(37))
PY
cat >"$MT/catch.py" <<'PY'
import socket, sys, time
# catch.py MAC SECONDS: exit 0 when a frame to MAC with ethertype 0x88b6
# arrives on batsec0 within SECONDS.
want = bytes.fromhex(sys.argv[1].replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b6))
s.bind(("batsec0", 0))
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    s.settimeout(max(end - time.monotonic(), 0.01))
    try:
        f = s.recv(2048)
    except socket.timeout:
        break
    if f[:6] == want and b"batsec-uni" in f:
        sys.exit(0)
sys.exit(1)
PY
cat >"$MT/send.py" <<'PY'
import socket, struct, sys, time
# send.py MAC: ten frames to MAC (ethertype 0x88b6), 0.2 s apart.
dst = bytes.fromhex(sys.argv[1].replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("batsec0", 0))
src = bytes.fromhex(open("/sys/class/net/batsec0/address").read().strip().replace(":", ""))
for i in range(10):
    s.send(dst + src + struct.pack("!H", 0x88b6) + b"batsec-uni" + bytes(36))
    time.sleep(0.2)
PY
clients() { ip netns exec "$(mesh_ns "$1")" python3 "$MT/clients.py" "$2" "$3"; }
# held I: how many 02:aa:... clients node I's table has under node 1.
held() {
	mesh_json "$1" tt "sum(1 for r in j if r['client'].startswith('02:aa:') \
and r['originator'] == '$(mesh_addr 1)')"
}
held_is() { [ "$(held "$1")" = "$2" ]; }
# poll SECONDS CMD...: CMD every 0.5 s until it succeeds or SECONDS of
# wall time passed (wait_for counts its own sleeps only, and each python
# call here takes a while).
poll() {
	local end
	end=$(( $(mesh_now_ms) + $1 * 1000 )); shift
	while [ "$(mesh_now_ms)" -lt "$end" ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	"$@" >/dev/null 2>&1
}
synced() { [ "$(mesh_stat "$1" tt_synced)" -ge 1 ]; }

# 1000 frames written at once overrun batsec0's queue when the machine is
# loaded (a frame or two dropped by the kernel before the forwarder reads
# it); a real client speaks again (ARP, DHCP), so the clients speak up to
# three times until node 1 holds them all.
local_ge() { [ "$(mesh_stat 1 fwd_local_clients)" -ge "$1" ]; }
speak_until() {
	local want=$1 round
	shift
	for round in 1 2 3; do
		clients "$@" || return 1
		poll 10 local_ge "$want" && return 0
	done
	return 1
}
check "1000 clients speak on node 1" clients 1 0 1000
check "node 1 holds 1000 local clients" eval \
    'poll 10 local_ge 1000 || speak_until 1000 1 0 1000'
t0=$(mesh_now_ms)
if poll 120 held_is 3 1000; then
	pass "node 3 holds node 1's 1000 clients ($(mesh_secs_since "$t0") s)"
else
	fail "node 3 holds node 1's 1000 clients (has $(held 3))"
fi
check "node 2 holds them too" held_is 2 1000
check "node 1 sent pages" eval '[ "$(mesh_stat 1 tt_pages_sent)" -gt 0 ]'
check "node 3: node 1's paged table is synced (checksum)" poll 30 synced 3
check "nothing left out of a page" eval '[ "$(mesh_stat 1 tt_page_full)" = 0 ]'

# A new client: its page goes first; a rotation of 16+ pages at 0.5 s
# would take 8 s or more.
check "client 1000 speaks on node 1" speak_until 1001 1 1000 1
t0=$(mesh_now_ms)
if poll 20 held_is 3 1001; then
	d=$(( $(mesh_now_ms) - t0 ))
	pass "node 3 learns client 1000 ($d ms)"
	check "... before a rotation of the pages would bring it (< 6 s)" \
	    [ "$d" -lt 6000 ]
else
	fail "node 3 learns client 1000"
fi

# Unicast from node 3 to a paged client comes out of node 1's batsec0.
ip netns exec "$(mesh_ns 1)" python3 "$MT/catch.py" 02:aa:00:00:01:23 20 &
cpid=$!
track_pid "$cpid"
sleep 1
ip netns exec "$(mesh_ns 3)" python3 "$MT/send.py" 02:aa:00:00:01:23
if wait "$cpid"; then
	pass "a frame from node 3 to client 02:aa:00:00:01:23 leaves node 1's batsec0"
else
	fail "a frame from node 3 to client 02:aa:00:00:01:23 leaves node 1's batsec0"
fi

# Roaming out of a paged table: client 7 speaks on node 3.  Node 3's
# claim takes it, node 1 withdraws it (its page changes and goes first),
# node 2 maps it to node 3.
tt_maps() { mesh_tt_has "$1" 02:aa:00:00:00:07 "$(mesh_addr "$2")"; }
check "client 7 speaks on node 3" clients 3 7 1
check "node 2 maps client 7 to node 3" poll 20 tt_maps 2 3
check "node 1 withdrew client 7 from its table" poll 20 eval \
    '[ "$(mesh_stat 1 local_withdrawn)" -ge 1 ]'
check "node 3 holds node 1's other 1000 clients, synced" poll 30 \
    eval 'synced 3 && held_is 3 1000'

# The cap: 1024 local clients per node.
check "100 more clients speak on node 1" speak_until 1024 1 1100 100
check "node 1 keeps 1024 local clients, counts the rest" poll 10 eval \
    '[ "$(mesh_stat 1 fwd_local_clients)" = 1024 ] && [ "$(mesh_stat 1 local_full)" -gt 0 ]'
sleep 5
n=$(held 3)
check "node 3 holds at most 1024 of node 1's clients ($n)" \
    eval "[ '$n' -le 1024 ] && [ '$n' -ge 1000 ]"
finish
