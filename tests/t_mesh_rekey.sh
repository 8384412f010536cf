#!/bin/sh
# t_mesh_rekey.sh — link keys that rotate (batsec-protocol(7), LINK KEYS),
# on a chain 1-2-3 with link-rekey 10 (the shortest allowed): while node 1
# pings node 3 through node 2 five times a second for 45 s (at least
# four rotations of every salt, on both ends of both links, so a change
# of key on each link every few seconds), at most 2 % of the echoes go
# unanswered (measured: none; a margin for a loaded machine), and no
# data frame is dropped for a stale key; the hop key id each node shows for its
# neighbours (batsec-ctl -j n, hop_keyid) changes at least three times,
# and both ends of a link end up under the same key.  A respawned parser
# (killed by the test) makes new salts: the key id changes at once, and
# the mesh still carries traffic.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
MESH_CONF_EXTRA="link-rekey 10"
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_rekey

mesh_build 3 "1-2 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "chain of 3 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 3 converged within 60 s"
	finish
fi
check "ping 1 -> 3 before any rotation" mesh_ping 1 3

# keyid I J: the hop key id node I sends under to neighbour J.
keyid() {
	mesh_json "$1" n "[r.get('hop_keyid') for r in j if r['address'] == \
'$(mesh_addr "$2")'][0]"
}
has_keyid() { mesh_ctl 2 -j n | grep -q hop_keyid; }
check "batsec-ctl -j n shows the hop key id" has_keyid

# A steady ping: COUNT echoes INTERVAL s apart, each waited for 1 s;
# prints the number answered.
cat >"$MT/steady.py" <<-'EOF'
import os, select, socket, struct, sys, time
dst, count, ivl = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff
ident = os.getpid() & 0xffff
got = set()
nxt = time.monotonic()
sent = 0
end = None
while True:
    now = time.monotonic()
    if sent < count and now >= nxt:
        sent += 1
        body = struct.pack("!HH", ident, sent) + b"batsec-rekey-test!" * 3
        ck = csum(struct.pack("!BBH", 8, 0, 0) + body)
        try:
            s.sendto(struct.pack("!BBH", 8, 0, ck) + body, (dst, 0))
        except OSError:
            pass
        nxt = now + ivl
        if sent == count:
            end = now + 1.0
    if sent == count and now >= end:
        break
    t = (nxt if sent < count else end) - now
    r, _, _ = select.select([s], [], [], max(t, 0))
    if not r:
        continue
    data, addr = s.recvfrom(65536)
    data = data[(data[0] & 15) * 4:]
    if len(data) >= 8 and data[0] == 0 and addr[0] == dst and \
            struct.unpack("!H", data[4:6])[0] == ident:
        got.add(struct.unpack("!H", data[6:8])[0])
print(len(got))
EOF

COUNT=225
ip netns exec "$(mesh_ns 1)" python3 "$MT/steady.py" "$(mesh_ip4 3)" \
    "$COUNT" 0.2 >"$MT/steady.out" 2>&1 &
PING=$!
track_pid "$PING"
: >"$MT/ids12"; : >"$MT/ids21"; : >"$MT/ids23"
i=0
while [ "$i" -lt 23 ]; do
	keyid 1 2 >>"$MT/ids12"
	keyid 2 1 >>"$MT/ids21"
	keyid 2 3 >>"$MT/ids23"
	sleep 2
	i=$((i + 1))
done
wait "$PING"
got=$(cat "$MT/steady.out")
case $got in ''|*[!0-9]*) got=0 ;; esac
lost=$((COUNT - got))
if [ $((lost * 50)) -le "$COUNT" ]; then
	pass "ping 1 -> 3 across the rotations: $got of $COUNT answered"
else
	fail "ping 1 -> 3 across the rotations: only $got of $COUNT" \
	    "answered (more than 2 % lost)"
fi
for f in ids12 ids21 ids23; do
	echo "$f: $(tr '\n' ' ' <"$MT/$f")"
	n=$(grep -v '^None$' "$MT/$f" | sort -u | wc -l)
	if [ "$n" -ge 3 ]; then
		pass "$f: the hop key id changed ($n ids in 45 s)"
	else
		fail "$f: the hop key id took only $n values in 45 s" \
		    "(want 3 or more): $(sort -u "$MT/$f" | tr '\n' ' ')"
	fi
done
# The data-plane drops of each node, per neighbour (for the log).
for n in 1 2 3; do
	echo "node $n drops: $(mesh_json "$n" n "[(r['address'], {k: v for k, v in r.items() if k.startswith('drop') and v}) for r in j]")"
done
stale() {
	mesh_json "$1" n "sum(r.get('drop_stale_key', 0) for r in j)"
}
n_stale=$(($(stale 1) + $(stale 2) + $(stale 3)))
if [ "$n_stale" -eq 0 ]; then
	pass "no data frame dropped for a stale key"
else
	fail "$n_stale data frames dropped for a stale key"
fi
# Both ends of a link send under the same key once a rotation is done.
same_key() { [ "$(keyid 1 2)" = "$(keyid 2 1)" ]; }
check "nodes 1 and 2 agree on their link's key" wait_for 10 same_key

# A new parser: new salts at once, and the mesh still carries traffic.
before=$(keyid 2 1)
PPID2=$(pgrep -P "$(cat "$MT/n2.pid")" 2>/dev/null | head -n 1)
if [ -n "$PPID2" ]; then
	kill -9 "$PPID2" 2>/dev/null
	changed() { a=$(keyid 2 1); [ -n "$a" ] && [ "$a" != None ] &&
	    [ "$a" != "$before" ]; }
	check "node 2's parser respawn: a new key with node 1" wait_for 15 changed
	check "ping 1 -> 3 after node 2's parser respawn" mesh_ping 1 3 4 5
else
	fail "node 2's parser process found"
fi

finish
