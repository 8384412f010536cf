#!/bin/sh
# t_dissector_live.sh — the Wireshark dissector (contrib/batsec.lua) on
# frames captured live from a running mesh, not built by the test:
#
#	1 - 2 - 3
#
# tcpdump records node 2's link to node 1 while the mesh converges and
# node 1 pings node 3 (ARP broadcasts, then unicast echoes, both ways).
# tshark with the dissector must find every frame type batsecd sends
# (HELLO of version 4, signed and, once the neighbours hold OGM link keys,
# tagged; OGM of version 3 with relayed entries, full and compact, UNICAST,
# BCAST), decode each one to
# its end without an expert error or warning, "Malformed" or a Lua
# error, and show the nodes' real addresses; the pings travel sealed in
# UNICASTs (no ICMP readable), the ARP requests signed and readable in
# BCASTs.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
for t in tshark tcpdump; do
	if ! command -v "$t" >/dev/null 2>&1; then
		# make check installs both (DEB_PKGS); a hand run may lack them.
		echo "SKIP: $(basename "$0") needs $t"
		exit 0
	fi
done
mesh_init t_dissector_live
LUA=$TOP/contrib/batsec.lua
PCAP=$MT/live.pcap

mesh_build 3 "1-2 2-3"
mesh_start_all || finish

# Capture on node 2's interface toward node 1 (frames in both directions).
ip netns exec "$(mesh_ns 2)" tcpdump -i m1 -U -n -w "$PCAP" \
    ether proto 0x88b5 >"$MT/tcpdump.txt" 2>&1 &
TCPD=$!
track_pid "$TCPD"
check "tcpdump is capturing" wait_for 20 grep -q "listening on" "$MT/tcpdump.txt"

if mesh_wait_converged 60; then
	pass "mesh converged (${MESH_CONV_SECS} s)"
else
	fail "mesh converged within 60 s"
fi
check "ping 1 -> 3 through the capture point" mesh_ping 1 3 4
check "ping 3 -> 1 over IPv6" mesh_ping 3 1 6
# tcpdump may still hold frames in its socket buffer (a loaded machine):
# stop it only once UNICASTs from node 3 to node 1 (the replies, sealed)
# are in the file, which it writes packet by packet (-U).
replies_saved() {
	tshark -X "lua_script:$LUA" -r "$PCAP" -Y "batsec.type == 0x40 &&
	    batsec.src == $(mesh_addr 3) && batsec.dst == $(mesh_addr 1)" \
	    -T fields -e frame.number 2>/dev/null | grep -q .
}
check "the echoes reached the capture file" wait_for 30 replies_saved
# Own OGMs go compact after the first full ones (batsec-protocol(7), "OGM
# CHAIN"): wait for one of node 3's, relayed by node 2, too.
A1=$(mesh_addr 1); A3=$(mesh_addr 3)
compact_saved() {
	tshark -X "lua_script:$LUA" -r "$PCAP" -Y "batsec.ogm.kind == 1 &&
	    batsec.ogm.orig == $A3 && batsec.ogm.hops == 1" \
	    -T fields -e frame.number 2>/dev/null | grep -q .
}
check "node 3's compact OGMs reached the capture file" wait_for 30 \
    compact_saved
# HELLOs go tagged once the neighbour holds an OGM link key with the
# sender (batsec-protocol(7), HELLO); node 2's to node 1 and node 1's.
hexkey() {
	python3 -c 'import base64, sys; print(base64.b64decode(sys.argv[1]).hex())' \
	    "$(mesh_key "$1")"
}
K1=$(hexkey 1); K2=$(hexkey 2)
tagged_saved() {
	for k in "$K1" "$K2"; do
		tshark -X "lua_script:$LUA" -r "$PCAP" -Y "batsec.type == 0x01 &&
		    batsec.trailer.auth == 1 && batsec.hello.pubkey == $k" \
		    -T fields -e frame.number 2>/dev/null | grep -q . || return 1
	done
}
check "tagged HELLOs of nodes 1 and 2 reached the capture file" \
    wait_for 60 tagged_saved
kill -INT "$TCPD" 2>/dev/null
wait_for 10 sh -c "! kill -0 $TCPD 2>/dev/null"

# PCAP_SAVE=FILE keeps the capture (tests/pcap/live-mesh3.pcap was made so).
[ -n "${PCAP_SAVE:-}" ] && cp "$PCAP" "$PCAP_SAVE"

ts() { tshark -X "lua_script:$LUA" -r "$PCAP" "$@" 2>>"$MT/tshark.err"; }
nframes=$(ts -T fields -e frame.number | wc -l)
check "the capture holds frames ($nframes)" test "$nframes" -gt 10

ts -V >"$MT/live.txt"
for t in HELLO OGM UNICAST BCAST; do
	n=$(grep -c "^batsec mesh protocol, $t\$" "$MT/live.txt")
	check "live $t frames decode ($n)" test "$n" -gt 0
done
nb=$(grep -c "^batsec mesh protocol, " "$MT/live.txt")
check "every captured frame is dissected as batsec ($nb of $nframes)" \
    test "$nb" -eq "$nframes"
for bad in 'Expert Info (Error' 'Expert Info (Warning' 'Malformed' \
    'Lua Error' 'Dissector bug'; do
	if grep -qF "$bad" "$MT/live.txt"; then
		fail "live frames raise no '$bad': $(grep -F "$bad" \
		    "$MT/live.txt" | sort | uniq -c | head -n 3)"
	else
		pass "live frames raise no '$bad'"
	fi
done
check "tshark printed no error" sh -c \
    "! grep -v 'Running as user \"root\"' '$MT/tshark.err' | grep -q ."

# Field values: the nodes' own addresses, relayed entries, the pings.
has() { ts -Y "$1" -T fields -e frame.number | grep -q .; }
check "a HELLO from node 1 lists node 2 as a neighbour" \
    has "batsec.hello.neigh.addr == $(mesh_addr 2)"
check "node 3's OGMs arrive relayed (hops 1)" \
    has "batsec.ogm.hops == 1"
check "OGM frames carry the link-MAC trailer" \
    has "batsec.type == 0x02 && batsec.trailer.auth == 1"
for n in 1 2; do
	eval "k=\$K$n"
	check "node $n's HELLOs come signed (version 4, auth 2)" \
	    has "batsec.type == 0x01 && batsec.version == 4 &&
	    batsec.hello.pubkey == $k && batsec.trailer.auth == 2 &&
	    batsec.trailer.num_tags == 0 && batsec.signature"
	check "node $n's HELLOs come tagged (auth 1, a key id and a tag)" \
	    has "batsec.type == 0x01 && batsec.hello.pubkey == $k &&
	    batsec.trailer.auth == 1 && batsec.trailer.num_tags >= 1 &&
	    batsec.trailer.keyid && batsec.trailer.mac"
done
# An ICMP echo of 56 data bytes is an inner frame of 98 bytes.
check "the echo requests 1 -> 3 travel sealed in UNICASTs" \
    has "batsec.type == 0x40 && batsec.src == $A1 && batsec.dst == $A3 &&
    batsec.ciphertext_len >= 98"
check "the echo replies come back sealed in UNICASTs" \
    has "batsec.type == 0x40 && batsec.src == $A3 && batsec.dst == $A1 &&
    batsec.ciphertext_len >= 98"
check_not "no ICMP or IP is readable in a UNICAST" \
    has "batsec.type == 0x40 && (icmp || icmpv6 || ip || ipv6)"
check "UNICASTs carry a hop key id, counter and tag" \
    has "batsec.type == 0x40 && batsec.hop.keyid && batsec.hop.tag &&
    batsec.aead_tag"
check "ARP requests travel readable in signed BCAST frames" \
    has "batsec.type == 0x41 && arp && batsec.bcast.ntags >= 1 &&
    batsec.signature"
check "node 1 sends OGM frames (sender address)" \
    has "batsec.ogm.sender == $A1"
# Node 3's key, as tshark prints bytes fields (hex).
K3=$(hexkey 3)
check "node 3's own OGM entries (its key) pass node 2, relayed" \
    has "batsec.ogm.orig_key == $K3 && batsec.ogm.sender == $(mesh_addr 2)"
check "node 1 sends compact OGM entries of its own (hops 0)" \
    has "batsec.ogm.kind == 1 && batsec.ogm.orig == $A1 &&
    batsec.ogm.hops == 0 && batsec.ogm.sender == $A1"
check "node 3's compact entries pass node 2, relayed (hops 1)" \
    has "batsec.ogm.kind == 1 && batsec.ogm.orig == $A3 &&
    batsec.ogm.hops == 1 && batsec.ogm.sender == $(mesh_addr 2)"
check "node 1 also sends full entries (kind 0, signed)" \
    has "batsec.ogm.kind == 0 && batsec.ogm.sender == $A1 &&
    batsec.ogm.signature"
# The filters can fail: a key and an address of no node match nothing.
check_not "(the test's own check: an unknown key matches no entry)" \
    has "batsec.ogm.orig_key == $(printf '%064d' 0)"
check_not "(the test's own check: an unknown sender matches no frame)" \
    has "batsec.ogm.sender == 02:00:00:00:00:01"

finish
