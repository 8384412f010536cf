#!/bin/sh
# t_mesh_dat6.sh — IPv6 neighbour solicitations answered from the cache
# (batsec.conf(5) dat; #24 item 1, the IPv6 half of t_mesh_dat) in a
# chain of DAT6_NODES nodes (5; 1-2-...-N), each with fd99::I on
# batsec0.  The same workload runs with `dat off` and then with `dat on`
# on every node: twice, node 1 pings6 every other node once, then node 2,
# ..., each ping after both ends flushed their neighbour caches, so that
# every ping resolves its address anew.  tcpdump records every mesh link;
# tshark with contrib/batsec.lua counts the neighbour solicitations (135)
# inside BCASTs (the flooded ones) over all links.
# Asserts: every ping answered and its address resolved to the right MAC
# in both runs; with dat on at least 80 % fewer flooded solicitations than
# with dat off; the caches answered.  What to expect: with dat off every
# ping floods one solicitation, 2 N (N - 1) in all (the target learns the
# asker from it and answers without asking); with dat on a node's address
# is learnt from its first (flooded, announcing) advertisement: N
# solicitations in all, 1 - 1/(2 (N - 1)) fewer (87.5 % for 5 nodes).
# Then: a duplicate address detection solicitation (source ::) for a
# known address is not answered and reaches the owner; a hostile member
# (node H, a plain host sending on its own batsec0) advertising another
# node's address with its own (claimed) MAC makes a conflict, never
# answered from; one advertising an unused address with a MAC another
# node claims is refused (dat_refused_unclaimed) and never answered.
# Every node runs with `multicast-listeners flood`, so that this counts
# what the cache saves alone: by default a solicitation the cache cannot
# answer goes as one UNICAST to the node that announced the solicited-
# node group (batsecd(8) "Multicast"; t_mesh_mcast.sh), which no capture
# here could tell from other unicasts.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
MESH_CONF_EXTRA="${MESH_CONF_EXTRA:+$MESH_CONF_EXTRA
}multicast-listeners flood"
. "$(dirname "$0")/meshlib.sh"
. "$(dirname "$0")/datlib.sh"
dat_chain t_mesh_dat6 "${DAT6_NODES:-5}"

T0=$(mesh_now_ms)
stamp() { echo "# $(mesh_secs_since "$T0") s: $*"; }
dat_write_ping

# nd.py: ICMPv6 tools, run in a node's namespace.
#   nd.py na ADDR MAC SRCMAC: three unsolicited advertisements (Override)
#     to ff02::1 out of batsec0, Ethernet source SRCMAC, stating ADDR is
#     at MAC.
#   nd.py dad ADDR SRCMAC: one duplicate address detection solicitation
#     (source ::) for ADDR out of batsec0, Ethernet source SRCMAC.
cat >"$MT/nd.py" <<'EOF'
import socket, struct, sys, time
def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s >> 16) + (s & 0xffff)
    return ~s & 0xffff
def mac(s):
    return bytes.fromhex(s.replace(':', ''))
def nd(src, dst, icmp):
    ck = csum(src + dst + struct.pack('!IxxxB', len(icmp), 58) + icmp)
    icmp = icmp[:2] + struct.pack('!H', ck) + icmp[4:]
    return struct.pack('!IHBB', 0x60000000, len(icmp), 58, 255) + src + \
        dst + icmp
def send(frames):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind(('batsec0', 0))
    for f in frames:
        s.send(f)
        time.sleep(0.2)
cmd = sys.argv[1]
if cmd == 'na':
    ip = socket.inet_pton(socket.AF_INET6, sys.argv[2])
    grp = socket.inet_pton(socket.AF_INET6, 'ff02::1')
    icmp = struct.pack('!BBHI', 136, 0, 0, 0x20000000) + ip + \
        b'\x02\x01' + mac(sys.argv[3])
    send([b'\x33\x33\0\0\0\x01' + mac(sys.argv[4]) + b'\x86\xdd' +
          nd(ip, grp, icmp)] * 3)
elif cmd == 'dad':
    ip = socket.inet_pton(socket.AF_INET6, sys.argv[2])
    grp = socket.inet_pton(socket.AF_INET6, 'ff02::1:ff00:0')[:13] + ip[13:]
    icmp = struct.pack('!BBHI', 135, 0, 0, 0) + ip
    send([b'\x33\x33' + grp[12:] + mac(sys.argv[3]) + b'\x86\xdd' +
          nd(bytes(16), grp, icmp)])
EOF

# run RUN: the workload with dat RUN, captured; NS_RUN and NA_RUN: the
# flooded solicitations and advertisements (frames x links).
run() {
	stamp "dat $1"
	dat_set_all "$1"
	dat_cap_start "$1"
	dat_workload "$1" 6
	dat_cap_stop
	dat_cap_read "$1" icmpv6.type
	eval "NS_$1=\$(dat_cap_count $1 '\$2 == 135')"
	eval "NA_$1=\$(dat_cap_count $1 '\$2 == 136')"
}
run off
ANS0=$(dat_sum_stat dat_nd_answered)
run on
stamp "counted"
ANSWERED=$(( $(dat_sum_stat dat_nd_answered) - ANS0 ))
MALFORMED=$(dat_sum_stat dat_nd_malformed)
echo "# flooded neighbour solicitations on the $((N - 1)) links (frames x" \
    "links): dat off $NS_off, dat on $NS_on; advertisements: off" \
    "$NA_off, on $NA_on; answered from caches $ANSWERED," \
    "advertisements announced $(dat_sum_stat dat_nd_announced)," \
    "learnt $(dat_sum_stat dat_nd_learnt), malformed $MALFORMED"

dat_assert "neighbour solicitations" "$NS_off" "$NS_on"
check "the caches answered solicitations" [ "$ANSWERED" -gt 0 ]
check "no well-formed ND frame was counted malformed" \
    [ "$MALFORMED" = 0 ]

# ---- duplicate address detection, a hostile member ---------------------------

stamp "DAD, hostile member"
H=$(( (N + 1) / 2 ))		# sends from its batsec0
V=$N				# whose address it states
A=1				# asks
MAC_H=$(mesh_mac "$H")
MAC_V=$(mesh_mac "$V")
nd() { local n=$1; shift; ip netns exec "$(mesh_ns "$n")" python3 "$MT/nd.py" "$@"; }
# spy NODE FILTER: tcpdump on NODE's batsec0 into $MT/spy.NODE.
spy() {
	ip netns exec "$(mesh_ns "$1")" tcpdump -i batsec0 -U -n -l "$2" \
	    >"$MT/spy.$1" 2>"$MT/spy.$1.err" &
	track_pid "$!"
	SPIES="${SPIES:-} $!"
	wait_for 20 grep -q "listening on" "$MT/spy.$1.err" ||
	    fail "tcpdump on node $1's batsec0 is capturing"
}
# Node V hears the DAD probe for its address; node A gets no answer.
spy "$V" "icmp6 and ip6[40] == 135 and ip6 src ::"
spy "$A" "icmp6 and ip6[40] == 136 and ether dst $(mesh_mac "$A")"
ANS1=$(mesh_stat "$A" dat_nd_answered)
nd "$A" dad "$(mesh_ip6 "$V")" "$(mesh_mac "$A")"
check "node $V received node $A's DAD solicitation for its address" \
    wait_for 10 grep -q "who has $(mesh_ip6 "$V")" "$MT/spy.$V"
check "node $A did not answer the DAD solicitation" \
    [ "$(mesh_stat "$A" dat_nd_answered)" = "$ANS1" ]

CONF0=$(mesh_stat "$A" dat_conflicts)
nd "$H" na "$(mesh_ip6 "$V")" "$MAC_H" "$MAC_H"
conflict_seen() { [ "$(mesh_stat "$A" dat_conflicts)" -gt "$CONF0" ]; }
check "node $A saw the conflicting mapping for node $V's address" \
    wait_for 20 conflict_seen
ip -6 -n "$(mesh_ns "$A")" neigh flush dev batsec0
ANS1=$(mesh_stat "$A" dat_nd_answered)
check "node $A pings node $V after the spoof" mesh_ping "$A" "$V" 6
check "node $A was not answered from its cache for node $V" \
    [ "$(mesh_stat "$A" dat_nd_answered)" = "$ANS1" ]
check "node $A has node $V's address at node $V's MAC" sh -c \
    "ip -6 -n '$(mesh_ns "$A")' neigh show '$(mesh_ip6 "$V")' dev batsec0 |
    grep -q 'lladdr $MAC_V'"

# An unused address at a MAC node V claims, stated by H: refused.
UN0=$(dat_sum_stat dat_refused_unclaimed)
nd "$H" na fd99::de "$MAC_V" "$MAC_H"
unclaimed_seen() { [ "$(dat_sum_stat dat_refused_unclaimed)" -gt "$UN0" ]; }
check "a mapping to a MAC the sender does not claim is refused" \
    wait_for 20 unclaimed_seen
ip -6 -n "$(mesh_ns "$A")" neigh flush dev batsec0
ANS1=$(mesh_stat "$A" dat_nd_answered)
check "nobody answers for fd99::de" sh -c \
    "ip netns exec '$(mesh_ns "$A")' python3 '$MT/ping.py' -6 1 3 fd99::de;
    [ \$? -eq 1 ]"
check "node $A did not answer fd99::de from its cache" \
    [ "$(mesh_stat "$A" dat_nd_answered)" = "$ANS1" ]
check_not "node $A has no entry for fd99::de at node $V's MAC" sh -c \
    "ip -6 -n '$(mesh_ns "$A")' neigh show fd99::de dev batsec0 |
    grep -q 'lladdr $MAC_V'"
sleep 1
for p in $SPIES; do kill -INT "$p" 2>/dev/null; done
stamp "done"
check_not "no answer on node $A's batsec0 named node $V's MAC for fd99::de" \
    grep -q "tgt is fd99::de" "$MT/spy.$A"
finish
