#!/bin/sh
# t_dissector.sh — the Wireshark dissector contrib/batsec.lua, run by
# tshark over real frames: the output of fuzz/gen_wire.c, built here
# (HELLO of version 4, signed and with link tags, OGM aggregates of
# version 3 with every TVLV type and both link-auth modes, full and compact entries mixed, 40 compact entries,
# version-2 UNICAST and ECHO sealed with real end-to-end and hop keys,
# FRAG pieces of a UNICAST with real hop tags,
# BCAST signed and tagged, all built by src/proto/wire.c's builders; not
# fuzz/corpus/wire, which afl-cmin rewrites), wrapped in Ethernet headers
# by tests/pcap/mkpcap.py.
#
# (tests/pcap/live-mesh3.pcap is a capture of a 3-node mesh made by
# t_dissector_live.sh with PCAP_SAVE: HELLOs of version 4, signed and
# tagged, data frames of version 2, OGMs of version 3 with full and
# compact entries, none of which the codec or the dissector refuses;
# live-mesh3-tags16.pcap, the one it replaced, from before 8-byte tags
# (HELLO version 3, OGM version 2), whose HELLOs and OGMs both refuse,
# read to their ends with the old layouts; live-mesh3-hello2.pcap, the
# one before, from before HELLO version 3, whose HELLOs (version 2) and
# OGMs (version 2) both refuse;
# live-mesh3-ogm1.pcap, the one before, from before OGM version 2 (and
# HELLO version 2), whose OGMs and HELLOs both refuse; live-mesh3-v1.pcap
# one from before data frames of version 2, whose data frames, HELLOs and
# OGMs both refuse: each asserted below.)  Asserts: every frame type
# decodes; known frames
# show the field values gen_wire.c put in them; the inner frame of a BCAST
# goes to the Ethernet dissector; a version-1 data frame, a version-1 OGM
# and a version-2 HELLO are flagged as refused; valid frames raise no expert
# error or warning, no "Malformed" and no Lua error; each frame of a set
# with one defect each raises the expert info naming that defect;
# truncations and random byte changes of every frame never raise a Lua
# error or a dissector bug; and on all of these frames, and on captures
# committed as tests/pcap/*.pcap, the dissector raises an expert error
# exactly when batsecd's own parser (src/proto/wire.c, driven by
# tests/pcap/wirecheck.c) rejects the frame.
# Needs tshark (installed with apt-get when missing and root), python3, a
# C compiler and the libraries in $B.
. "$(dirname "$0")/lib.sh"

LUA=$TOP/contrib/batsec.lua
D=$(mktmp)

# ---- tools ----------------------------------------------------------------

install_tshark() {
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
	# wireshark-common asks whether non-root users may capture; answer
	# "no" beforehand so the install never waits for a terminal.
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
	    debconf-set-selections 2>/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends tshark >"$D/apt.log" 2>&1 ||
	{ apt-get update -q >>"$D/apt.log" 2>&1 &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends tshark >>"$D/apt.log" 2>&1; }
}

if ! command -v tshark >/dev/null 2>&1; then
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: $(basename "$0"): tshark is missing (install" \
		    "package tshark, or run as root)"
		exit 0
	fi
	install_tshark
fi
if ! command -v tshark >/dev/null 2>&1; then
	fail "tshark installs (apt-get install tshark; see $D/apt.log:" \
	    "$(tail -n 1 "$D/apt.log" 2>/dev/null))"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	fail "python3 is available (tests/pcap/mkpcap.py needs it)"
	finish
fi

# tshark with the dissector loaded; the "running as root" notice is noise.
ts() {
	tshark -X "lua_script:$LUA" "$@" 2>"$D/stderr"
}
stderr_clean() {
	! grep -v 'Running as user "root"' "$D/stderr" | grep -q .
}

# ---- the capture files ----------------------------------------------------

# The frames: fuzz/gen_wire.c against the libraries of this build.
case $B in /*) ;; *) B=$TOP/$B ;; esac
SANF=
case $B in *-san) SANF="-fsanitize=address,undefined" ;; esac
CORPUS=$D/seeds
mkdir -p "$CORPUS"
if ! gen_wire_build "$TOP" "$B" "$D/gen_wire" >"$D/gen_cc.log" 2>&1 ||
    ! "$D/gen_wire" "$CORPUS" >"$D/gen.log" 2>&1
then
	fail "fuzz/gen_wire.c builds and writes the frames: $(head -n 3 \
	    "$D/gen_cc.log" "$D/gen.log")"
	finish
fi

if ! python3 "$TOP/tests/pcap/mkpcap.py" "$CORPUS" "$D" 2>"$D/mkpcap.err"
then
	fail "mkpcap.py builds the captures: $(cat "$D/mkpcap.err")"
	finish
fi
pass "capture files built from $(wc -l <"$D/valid.list") corpus frames"

if tshark -G fields -X "lua_script:$LUA" >"$D/fields" 2>"$D/stderr" &&
    grep -q '	batsec.ogm.seqno	' "$D/fields" && stderr_clean; then
	pass "the dissector loads and registers its fields"
else
	fail "the dissector loads: $(grep -v 'Running as' "$D/stderr" |
	    head -n 3)"
	finish
fi

# ---- valid frames: the full tree ------------------------------------------

if ts -r "$D/valid.pcap" -V >"$D/valid.txt" && stderr_clean; then
	pass "tshark -V decodes valid.pcap without a message"
else
	fail "tshark -V on valid.pcap: $(grep -v 'Running as' "$D/stderr" |
	    head -n 3)"
fi

for t in HELLO OGM UNICAST BCAST ECHO TRACE TTLX FRAG; do
	want=$(awk -F'\t' -v t=$t '$2 == t' "$D/valid.list" | wc -l)
	got=$(grep -c "^batsec mesh protocol, $t\$" "$D/valid.txt")
	if [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then
		pass "$t: all $want frames decode as $t"
	else
		fail "$t: $got of $want frames decode as $t"
	fi
done

for bad in 'Expert Info (Error' 'Expert Info (Warning' 'Malformed' \
    'Lua Error' 'Dissector bug'; do
	if grep -qF "$bad" "$D/valid.txt"; then
		fail "valid frames raise no '$bad': $(grep -F "$bad" \
		    "$D/valid.txt" | sort | uniq -c | head -n 3)"
	else
		pass "valid frames raise no '$bad'"
	fi
done

# The ethertype preference moves the registration (batsec.conf allows
# another ethertype; every node of a mesh uses the same).
n_other=$(ts -o batsec.ethertype:0x88b6 -r "$D/valid.pcap" -Y batsec |
    wc -l)
n_same=$(ts -o batsec.ethertype:34997 -r "$D/valid.pcap" -Y batsec | wc -l)
if [ "$n_other" -eq 0 ] && [ "$n_same" -eq "$(wc -l <"$D/valid.list")" ]
then
	pass "the ethertype preference selects the frames dissected"
else
	fail "ethertype preference: 0x88b6 gives $n_other batsec frames" \
	    "(want 0), 34997 gives $n_same"
fi

# ---- valid frames: field values -------------------------------------------

FIELDS="frame.number batsec.type frame.protocols batsec.hello.seqno
batsec.hello.epoch batsec.hello.interval batsec.hello.num_neigh
batsec.hello.neigh.addr batsec.hello.ifmac batsec.hello.num_want
batsec.hello.want batsec.cert.name
batsec.cert.not_before batsec.cert.not_after batsec.ogm.num_entries
batsec.ogm.seqno batsec.ogm.epoch batsec.ogm.hops batsec.ogm.tq
batsec.ogm.kind batsec.ogm.orig batsec.ogm.prev_sender
batsec.ogm.interval batsec.tvlv.gw.down batsec.tvlv.gw.up batsec.tvlv.tt.mac
batsec.tvlv.tt.flags batsec.tvlv.ttpage.ttvn batsec.tvlv.ttpage.total
batsec.tvlv.ttpage.checksum batsec.tvlv.ttpage.pages batsec.tvlv.ttpage.page
batsec.tvlv.mcast.group batsec.tvlv.mcast.flags
batsec.revoke.issued_at batsec.trailer.auth batsec.trailer.num_tags
batsec.trailer.counter batsec.trailer.keyid batsec.trailer.mac
batsec.inner_len
batsec.bcast.seqno batsec.ttl batsec.hop.keyid batsec.hop.counter
batsec.hop.lane batsec.hop.count batsec.hop.tag batsec.bcast.ntags
batsec.e2e.src_epoch batsec.e2e.dst_epoch batsec.e2e.counter
batsec.e2e.suite batsec.e2e.count
batsec.ciphertext_len batsec.aead_tag batsec.bcast.epoch batsec.orig
batsec.src batsec.dst batsec.signature batsec.frag.fragmenter
batsec.frag.seqno batsec.frag.total batsec.frag.offset
batsec.frag.piece_len"
set --
for f in $FIELDS; do set -- "$@" -e "$f"; done
TSV=$D/valid.tsv
ts -r "$D/valid.pcap" -T fields -E header=y -E occurrence=a \
    -E aggregator='|' "$@" >"$TSV"

# get KEYFIELD VALUE FIELD: FIELD of the first frame whose KEYFIELD is VALUE.
get() {
	awk -F'\t' -v k="$1" -v v="$2" -v n="$3" '
	    NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h[k] == v { print $h[n]; exit }' "$TSV"
}
# count KEYFIELD VALUE FIELD: how many values FIELD has in that frame.
count() {
	get "$@" | awk -F'|' '{ print ($0 == "" ? 0 : NF) }'
}
# eq NAME GOT WANT
eq() {
	if [ "$2" = "$3" ]; then pass "$1 = $3"; else
		fail "$1: got '$2', want '$3'"; fi
}

# HELLOs (gen_hello: seqno 1000 + n, epoch 3, interval 500).
eq "HELLO 1000: neighbours" "$(get batsec.hello.seqno 1000 \
    batsec.hello.num_neigh)" 0
eq "HELLO 1000: epoch" "$(get batsec.hello.seqno 1000 batsec.hello.epoch)" 3
eq "HELLO 1000: interval" "$(get batsec.hello.seqno 1000 \
    batsec.hello.interval)" 500
eq "HELLO 1000: interface MAC" "$(get batsec.hello.seqno 1000 \
    batsec.hello.ifmac)" 00:16:3e:01:02:03
eq "HELLO 1000: no certificate" "$(count batsec.hello.seqno 1000 \
    batsec.cert.name)" 0
eq "HELLO 1003: neighbour entries shown" "$(count batsec.hello.seqno 1003 \
    batsec.hello.neigh.addr)" 3
# Want lists (gen_hello: seqno 3000 + n): 8 wanted originators signed, 3
# with a certificate and tags.
eq "HELLO 3001: num_want" "$(get batsec.hello.seqno 3001 \
    batsec.hello.num_want)" 8
eq "HELLO 3001: wanted originators shown" "$(count batsec.hello.seqno 3001 \
    batsec.hello.want)" 8
eq "HELLO 3002: wanted originators shown" "$(count batsec.hello.seqno 3002 \
    batsec.hello.want)" 3
eq "HELLO 3002: certificate after the neighbours" "$(get \
    batsec.hello.seqno 3002 batsec.cert.name)" node-1
eq "HELLO 1003: no want list" "$(count batsec.hello.seqno 1003 \
    batsec.hello.want)" 0
eq "HELLO 1003: certificate name" "$(get batsec.hello.seqno 1003 \
    batsec.cert.name)" node-1
eq "HELLO 1003: not before" "$(get batsec.hello.seqno 1003 \
    batsec.cert.not_before)" 1700000000
eq "HELLO 1003: not after" "$(get batsec.hello.seqno 1003 \
    batsec.cert.not_after)" 1800000000
eq "HELLO 1064: neighbour entries shown" "$(count batsec.hello.seqno 1064 \
    batsec.hello.neigh.addr)" 64
# Version 3: the link trailer.  Signed HELLOs (seqno 1000 + n): auth 2, no
# tag, the signature; tagged ones (gen_hello: seqno 2000 + n, tags under
# made-up OGM link keys; the counter the tags cover is 3 << 32 | seqno).
eq "HELLO 1000: auth (signature)" "$(get batsec.hello.seqno 1000 \
    batsec.trailer.auth)" 2
eq "HELLO 1000: tags" "$(get batsec.hello.seqno 1000 \
    batsec.trailer.num_tags)" 0
eq "HELLO 1000: signature shown" "$(count batsec.hello.seqno 1000 \
    batsec.signature)" 1
eq "HELLO 1000: no key id" "$(count batsec.hello.seqno 1000 \
    batsec.trailer.keyid)" 0
eq "HELLO 1064: auth (signature)" "$(get batsec.hello.seqno 1064 \
    batsec.trailer.auth)" 2
eq "HELLO 2001: auth (MAC tags)" "$(get batsec.hello.seqno 2001 \
    batsec.trailer.auth)" 1
eq "HELLO 2001: tags" "$(get batsec.hello.seqno 2001 \
    batsec.trailer.num_tags)" 1
eq "HELLO 2003: auth (MAC tags)" "$(get batsec.hello.seqno 2003 \
    batsec.trailer.auth)" 1
eq "HELLO 2003: tags" "$(get batsec.hello.seqno 2003 \
    batsec.trailer.num_tags)" 3
eq "HELLO 2003: key ids shown" "$(count batsec.hello.seqno 2003 \
    batsec.trailer.keyid)" 3
eq "HELLO 2003: no signature" "$(count batsec.hello.seqno 2003 \
    batsec.signature)" 0
eq "HELLO 2003: counter covered (generated)" "$(get batsec.hello.seqno 2003 \
    batsec.trailer.counter)" 12884903891
eq "HELLO 2064: neighbour entries shown" "$(count batsec.hello.seqno 2064 \
    batsec.hello.neigh.addr)" 64
eq "HELLO 2064: certificate name" "$(get batsec.hello.seqno 2064 \
    batsec.cert.name)" node-1
eq "HELLO 2064: tags" "$(get batsec.hello.seqno 2064 \
    batsec.trailer.num_tags)" 32
eq "HELLO 2064: key ids shown" "$(count batsec.hello.seqno 2064 \
    batsec.trailer.keyid)" 32
eq "HELLO 2064: MAC tags shown" "$(count batsec.hello.seqno 2064 \
    batsec.trailer.mac)" 32

# OGMs (gen_ogm: seqno 100 + i, epoch 2, TQ 255 - 30 * hops, counter
# 2 << 32 | 17; one entry with 1 tag, three with 16, two signed).
eq "OGM of 1: seqno" "$(get batsec.ogm.num_entries 1 batsec.ogm.seqno)" 100
eq "OGM of 1: auth" "$(get batsec.ogm.num_entries 1 batsec.trailer.auth)" 1
eq "OGM of 1: tags" "$(count batsec.ogm.num_entries 1 \
    batsec.trailer.keyid)" 1
eq "OGM of 1: counter" "$(get batsec.ogm.num_entries 1 \
    batsec.trailer.counter)" 8589934609
eq "OGM of 3: seqnos" "$(get batsec.ogm.num_entries 3 batsec.ogm.seqno)" \
    "100|101|102"
eq "OGM of 3: epochs" "$(get batsec.ogm.num_entries 3 batsec.ogm.epoch)" \
    "2|2|2"
eq "OGM of 3: hops" "$(get batsec.ogm.num_entries 3 batsec.ogm.hops)" \
    "0|4|32"
eq "OGM of 3: TQ" "$(get batsec.ogm.num_entries 3 batsec.ogm.tq)" \
    "255|135|15"
eq "OGM of 3: intervals" "$(get batsec.ogm.num_entries 3 \
    batsec.ogm.interval)" "1000|1000|1000"
eq "OGM of 3: gateway down" "$(get batsec.ogm.num_entries 3 \
    batsec.tvlv.gw.down)" 500
eq "OGM of 3: gateway up" "$(get batsec.ogm.num_entries 3 \
    batsec.tvlv.gw.up)" 100
eq "OGM of 3: TT clients" "$(count batsec.ogm.num_entries 3 \
    batsec.tvlv.tt.mac)" 5
eq "OGM of 3: first client" "$(get batsec.ogm.num_entries 3 \
    batsec.tvlv.tt.mac | cut -d'|' -f1)" 00:16:3e:aa:00:00
eq "OGM of 3: TT flags (client 2 isolated)" "$(get batsec.ogm.num_entries 3 \
    batsec.tvlv.tt.flags | cut -d'|' -f1-5)" "0x00|0x00|0x01|0x00|0x00"
eq "OGM of 3: certificate" "$(get batsec.ogm.num_entries 3 \
    batsec.cert.name)" node-1
eq "OGM of 3: revocation" "$(get batsec.ogm.num_entries 3 \
    batsec.revoke.issued_at)" 1750000000
eq "OGM of 3: MAC tags" "$(get batsec.ogm.num_entries 3 \
    batsec.trailer.num_tags)" 32
eq "OGM of 3: key ids shown" "$(count batsec.ogm.num_entries 3 \
    batsec.trailer.keyid)" 32
eq "OGM of 2: auth" "$(get batsec.ogm.num_entries 2 batsec.trailer.auth)" 2
eq "OGM of 2: tags" "$(get batsec.ogm.num_entries 2 \
    batsec.trailer.num_tags)" 0
eq "OGM of 2: TT clients (2 + 64)" "$(count batsec.ogm.num_entries 2 \
    batsec.tvlv.tt.mac)" 66
eq "OGM of 2: TQ" "$(get batsec.ogm.num_entries 2 batsec.ogm.tq)" \
    "225|195"
# gen_wire.c's OGM of 4: a TT page (page 3 of 8, 20 of 300 clients).
eq "OGM of 4: TT page clients" "$(count batsec.ogm.num_entries 4 \
    batsec.tvlv.tt.mac)" 20
ttp() { get batsec.ogm.num_entries 4 "batsec.tvlv.ttpage.$1"; }
eq "OGM of 4: MCAST groups" "$(get batsec.ogm.num_entries 4 \
    batsec.tvlv.mcast.group)" "01:00:5e:01:02:03|33:33:00:01:12:34"
eq "OGM of 4: MCAST flags" "$(get batsec.ogm.num_entries 4 \
    batsec.tvlv.mcast.flags)" "0x02"
eq "OGM of 4: TT page header" \
    "$(ttp ttvn) $(ttp total) $(ttp checksum) $(ttp pages) $(ttp page)" \
    "9 300 0x12345678 8 3"

# Compact entries (OGM version 2; gen_wire.c: the OGM of 5 is full
# (node 1, hops 0), compact (node 2, hops 1), compact (node 3, hops 32),
# full (node 2, hops 4), compact (node 1, hops 0); the OGM of 40 is
# compact entries of nodes 1, 2, 3 in turn, hops 0..3 in turn; seqnos
# 100 + i).
eq "OGM of 1: kind" "$(get batsec.ogm.num_entries 1 batsec.ogm.kind)" 0
eq "OGM of 5: kinds" "$(get batsec.ogm.num_entries 5 batsec.ogm.kind)" \
    "0|1|1|0|1"
eq "OGM of 5: seqnos" "$(get batsec.ogm.num_entries 5 batsec.ogm.seqno)" \
    "100|101|102|103|104"
eq "OGM of 5: epochs (full entries only)" "$(get batsec.ogm.num_entries 5 \
    batsec.ogm.epoch)" "2|2"
eq "OGM of 5: hops" "$(get batsec.ogm.num_entries 5 batsec.ogm.hops)" \
    "0|1|32|4|0"
eq "OGM of 5: TQ" "$(get batsec.ogm.num_entries 5 batsec.ogm.tq)" \
    "255|225|15|135|255"
eq "OGM of 5: TTL" "$(get batsec.ogm.num_entries 5 batsec.ttl)" \
    "50|49|18|46|50"
eq "OGM of 5: compact originators shown" "$(count batsec.ogm.num_entries 5 \
    batsec.ogm.orig)" 3
eq "OGM of 5: TT clients of its first (full) entry" "$(count \
    batsec.ogm.num_entries 5 batsec.tvlv.tt.mac)" 5
eq "OGM of 5: tags" "$(get batsec.ogm.num_entries 5 \
    batsec.trailer.num_tags)" 2
eq "OGM of 40: kinds" "$(get batsec.ogm.num_entries 40 batsec.ogm.kind |
    tr '|' '\n' | sort | uniq -c | awk '{ print $1 "x" $2 }')" "40x1"
eq "OGM of 40: first and last seqno" "$(get batsec.ogm.num_entries 40 \
    batsec.ogm.seqno | awk -F'|' '{ print $1, $NF, NF }')" "100 139 40"
eq "OGM of 40: hops" "$(get batsec.ogm.num_entries 40 batsec.ogm.hops |
    cut -d'|' -f1-5)" "0|1|2|3|0"
eq "OGM of 40: three originators" "$(get batsec.ogm.num_entries 40 \
    batsec.ogm.orig | tr '|' '\n' | sort -u | wc -l)" 3
eq "OGM of 40: originators repeat every third entry" "$(get \
    batsec.ogm.num_entries 40 batsec.ogm.orig | cut -d'|' -f1,4,7,40 |
    tr '|' '\n' | sort -u | wc -l)" 1
o5=$(get batsec.ogm.num_entries 5 batsec.ogm.orig)
eq "OGM of 5: node 2's compact entry names the UNICAST source" \
    "$(echo "$o5" | cut -d'|' -f1)" "$(get batsec.ciphertext_len 98 \
    batsec.src)"
eq "OGM of 5: node 1's compact entry names the UNICAST destination" \
    "$(echo "$o5" | cut -d'|' -f3)" "$(get batsec.ciphertext_len 98 \
    batsec.dst)"
eq "OGM of 5: node 1's compact entry at hops 0: previous sender is it" \
    "$(get batsec.ogm.num_entries 5 batsec.ogm.prev_sender |
    cut -d'|' -f5)" "$(echo "$o5" | cut -d'|' -f3)"
if grep -q '^ *Compact part: originator [0-9a-f:]*, seqno 104$' \
    "$D/valid.txt"; then
	pass "tshark -V shows the compact part's originator and seqno"
else
	fail "tshark -V shows no 'Compact part: originator ..., seqno 104'"
fi

# Data frames, version 2 (gen_wire.c: UNICAST/ECHO from node 2 to node 1,
# epochs 7 and 5, e2e counter 1234 << 22 | 1, a UNICAST's suite byte 0x02
# (it offers AES-256-GCM), the others' 0, hop counter 1000 + inner
# length, ECHO on lane 1; BCAST of node 2, epoch 7, seqno 4242, hop
# counter 3 << 32 | inner length; every hop key id of the link to node 1).
lens=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["batsec.inner_len"] != "" || $h["batsec.ciphertext_len"] != "" {
	t = $h["batsec.type"]
	n = t ~ /^(0x40|64)$/ ? "UNICAST" : t ~ /^(0x41|65)$/ ? "BCAST" : t
	if (t ~ /^(0x42|66)$/) n = "ECHO"
	if (t ~ /^(0x43|67)$/) n = "TRACE"
	if (t ~ /^(0x44|68)$/) n = "TTLX"
	print n, $h["batsec.inner_len"] $h["batsec.ciphertext_len"] }' "$TSV" |
    LC_ALL=C sort -k1,1 -k2,2n | tr '\n' ',')
eq "data frames: type and inner or ciphertext length" "$lens" \
    "BCAST 14,BCAST 342,BCAST 1518,BCAST 1518,ECHO 6,ECHO 6,TRACE 6,TTLX 16,UNICAST 14,UNICAST 98,UNICAST 1518,"
eq "UNICAST 98: TTL" "$(get batsec.ciphertext_len 98 batsec.ttl)" 50
eq "UNICAST 98: hop counter" "$(get batsec.ciphertext_len 98 \
    batsec.hop.counter)" 1098
eq "UNICAST 98: lane" "$(get batsec.ciphertext_len 98 batsec.hop.lane)" 0
eq "UNICAST 98: source epoch" "$(get batsec.ciphertext_len 98 \
    batsec.e2e.src_epoch)" 7
eq "UNICAST 98: destination epoch" "$(get batsec.ciphertext_len 98 \
    batsec.e2e.dst_epoch)" 5
eq "UNICAST 98: suite byte and e2e counter" "$(get batsec.ciphertext_len 98 \
    batsec.e2e.counter)" 144115193251627009
eq "UNICAST 98: suite byte" "$(printf '%d' "$(get batsec.ciphertext_len 98 \
    batsec.e2e.suite)")" 2
eq "UNICAST 98: e2e counter, 56 bits" "$(get batsec.ciphertext_len 98 \
    batsec.e2e.count)" 5175771137
eq "TTLX: suite byte" "$(printf '%d' "$(get batsec.ciphertext_len 16 \
    batsec.e2e.suite)")" 0
eq "UNICAST 98: AEAD tag bytes" "$(get batsec.ciphertext_len 98 \
    batsec.aead_tag | tr -d ':' | awk '{ print length($0) / 2 }')" 16
eq "UNICAST 98: hop tag bytes" "$(get batsec.ciphertext_len 98 \
    batsec.hop.tag | tr -d ':' | awk '{ print length($0) / 2 }')" 8
eq "ECHO, TRACE and TTLX frames on lane 1" "$(awk -F'\t' 'NR == 1 {
    for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["batsec.ciphertext_len"] == 6 || $h["batsec.ciphertext_len"] == 16 {
	print $h["batsec.hop.lane"] }' "$TSV" | tr '\n' ' ')" "1 1 1 1 "
kid=$(get batsec.ciphertext_len 98 batsec.hop.keyid)
eq "UNICAST and BCAST: one hop key id for the link to node 1" \
    "$(get batsec.inner_len 342 batsec.hop.keyid | cut -d'|' -f1)" "$kid"
eq "BCAST 342: tags" "$(get batsec.inner_len 342 batsec.bcast.ntags)" 3
eq "BCAST 342: key ids shown" "$(count batsec.inner_len 342 \
    batsec.hop.keyid)" 3
eq "BCAST 342: TTL" "$(get batsec.inner_len 342 batsec.ttl)" 49
eq "BCAST 342: seqno" "$(get batsec.inner_len 342 batsec.bcast.seqno)" 4242
eq "BCAST 342: epoch" "$(get batsec.inner_len 342 batsec.bcast.epoch)" 7
eq "BCAST 342: hop counter" "$(get batsec.inner_len 342 \
    batsec.hop.counter)" 12884902230
eq "BCAST 342: originator = UNICAST source" "$(get batsec.inner_len 342 \
    batsec.orig)" "$(get batsec.ciphertext_len 98 batsec.src)"
eq "BCAST 342: signature bytes" "$(get batsec.inner_len 342 \
    batsec.signature | tr -d ':' | awk '{ print length($0) / 2 }')" 64
inner=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["batsec.inner_len"] != "" && $h["frame.protocols"] ~ /:batsec:eth/' \
    "$TSV" | wc -l)
eq "BCAST frames whose inner frame went to the Ethernet dissector" \
    "$inner" 4

# FRAG (gen_wire.c: node 2 cut 1562 bytes for node 1 into pieces of 1236
# and 326, and 58 bytes into 40 and 18; seqno 77, TTL 50, hop counter
# 2000 + offset, the key id of the link to node 1).
eq "FRAG pieces: offset/length/total" "$(awk -F'\t' 'NR == 1 {
    for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["batsec.frag.total"] != "" { print $h["batsec.frag.offset"] "/" \
    $h["batsec.frag.piece_len"] "/" $h["batsec.frag.total"] }' "$TSV" |
    LC_ALL=C sort -t/ -k3,3n -k1,1n | tr '\n' ' ')" \
    "0/40/58 40/18/58 0/1236/1562 1236/326/1562 "
eq "FRAG 1236: seqno" "$(get batsec.frag.offset 1236 batsec.frag.seqno)" 77
eq "FRAG 1236: TTL" "$(get batsec.frag.offset 1236 batsec.ttl)" 50
eq "FRAG 1236: hop counter" "$(get batsec.frag.offset 1236 \
    batsec.hop.counter)" 3236
eq "FRAG 1236: hop key id of the link to node 1" "$(get batsec.frag.offset \
    1236 batsec.hop.keyid)" "$kid"
eq "FRAG 1236: fragmenter = UNICAST source" "$(get batsec.frag.offset 1236 \
    batsec.frag.fragmenter)" "$(get batsec.ciphertext_len 98 batsec.src)"
eq "FRAG 1236: destination = UNICAST destination" "$(get batsec.frag.offset \
    1236 batsec.dst)" "$(get batsec.ciphertext_len 98 batsec.dst)"

# old_layout PCAP TYPE VERSION FILTER NAME WHAT UPTO: every frame of TYPE
# in PCAP is refused as VERSION, the one expert info being "version
# VERSION NAME WHAT: obsolete, batsecd refuses it (NAME is version N)",
# and is read to its end with the old layout (the display filter FILTER
# holds on it); UPTO names what the decoding reached.
old_layout() {
	ol_n_all=$(ts -r "$1" -Y "batsec.type == $2" -T fields \
	    -e frame.number | wc -l)
	ol_n_old=$(ts -r "$1" -Y "batsec.type == $2 && batsec.version == $3 &&
	    $4" -T fields -e frame.number | wc -l)
	ol_msgs=$(ts -r "$1" -Y "batsec.type == $2" -T fields \
	    -e _ws.expert.message | sort -u | tr '\n' '/')
	case $5 in
	OGM) ol_cur=3 ;;
	*) ol_cur=4 ;;
	esac
	ol_want="version $3 $5 $6: obsolete, batsecd refuses it ($5 is"
	ol_want="$ol_want version $ol_cur)/"
	if [ "$ol_n_all" -gt 0 ] && [ "$ol_n_old" -eq "$ol_n_all" ] &&
	    [ "$ol_msgs" = "$ol_want" ]; then
		pass "version-$3 ${5}s: all $ol_n_all refused and decoded to" \
		    "the $7 with the old layout"
	else
		fail "version-$3 ${5}s: $ol_n_old of $ol_n_all decoded with" \
		    "the old layout; expert infos: $ol_msgs"
	fi
}

# A version-1 OGM (tests/pcap/live-mesh3-ogm1.pcap, captured before
# compact entries): entries without a kind, the trailer.
V1=$TOP/tests/pcap/live-mesh3-ogm1.pcap
if [ -f "$V1" ]; then
	old_layout "$V1" 0x02 1 \
	    'batsec.ogm.seqno && batsec.trailer.auth && !batsec.ogm.kind' \
	    OGM "(no compact entries)" trailer
fi

# A version-2 HELLO (tests/pcap/live-mesh3-hello2.pcap, captured before
# the link trailer): a bare signature after the neighbours, no trailer.
V2=$TOP/tests/pcap/live-mesh3-hello2.pcap
if [ -f "$V2" ]; then
	old_layout "$V2" 0x01 2 \
	    'batsec.hello.seqno && batsec.signature && !batsec.trailer' \
	    HELLO "(no link trailer)" signature
else
	fail "tests/pcap/live-mesh3-hello2.pcap is there"
fi

# An OGM of version 2 and a HELLO of version 3 (tests/pcap/
# live-mesh3-tags16.pcap, captured before 8-byte tags and 12-byte chain
# elements): 16-byte chain elements and tags, the trailer.
T16=$TOP/tests/pcap/live-mesh3-tags16.pcap
if [ -f "$T16" ]; then
	old_layout "$T16" 0x02 2 batsec.trailer.auth OGM \
	    "(16-byte tags and chain elements)" trailer
	old_layout "$T16" 0x01 3 batsec.trailer.auth HELLO "(16-byte tags)" \
	    trailer
else
	fail "tests/pcap/live-mesh3-tags16.pcap is there"
fi

# ---- one defect per frame -------------------------------------------------

ts -r "$D/bad.pcap" -T fields -E occurrence=a -E aggregator='|' \
    -e frame.number -e _ws.expert.severity -e _ws.expert.message \
    -e _ws.lua.error >"$D/bad.tsv"
while IFS='	' read -r n sev text; do
	line=$(awk -F'\t' -v n="$n" '$1 == n' "$D/bad.tsv")
	case $sev in
	error) code='8388608|Error' ;;
	*) code='6291456|Warning' ;;
	esac
	sevs=$(echo "$line" | cut -f2 | tr '|' '\n')
	lua=$(echo "$line" | cut -f4)
	if [ -n "$lua" ]; then
		fail "defect $n ($text): Lua error: $lua"
	elif ! echo "$line" | cut -f3 | grep -qF -- "$text"; then
		fail "defect $n: no expert info '$text' (got:" \
		    "$(echo "$line" | cut -f3))"
	elif ! echo "$sevs" | grep -qxE "$code"; then
		fail "defect $n ($text): no $sev expert info"
	else
		pass "defect $n: $sev '$text'"
	fi
done <"$D/bad.expect"

# ---- robustness and agreement with batsecd's codec ---------------------

# Every truncation and random byte changes of every frame: never a Lua
# error or a dissector bug, and tshark finishes.
if ts -r "$D/mutants.pcap" -T fields -e frame.number -e _ws.lua.error \
    -e _ws.malformed.dissector_bug >"$D/mut.tsv"; then
	total=$(wc -l <"$D/mut.tsv")
	bad=$(awk -F'\t' '$2 != "" || $3 != ""' "$D/mut.tsv" | head -n 3)
	if [ "$total" -gt 1000 ] && [ -z "$bad" ]; then
		pass "$total truncated or mutated frames: no Lua error or" \
		    "dissector bug"
	else
		fail "mutants ($total frames): $bad"
	fi
else
	fail "tshark on mutants.pcap: $(grep -v 'Running as' "$D/stderr" |
	    head -n 3)"
fi

# The dissector flags a frame with an expert error exactly when batsecd's
# parser (src/proto/wire.c, through tests/pcap/wirecheck.c) rejects it.
if ! ${CC:-cc} -std=gnu11 -D_GNU_SOURCE $SANF -Wall -Wextra -Werror \
    -I"$TOP/src" -I"$TOP/crypto" -I"$TOP/keys" -I"$TOP/policy" \
    -o "$D/wirecheck" "$TOP/tests/pcap/wirecheck.c" "$B/libbatsec.a" \
    "$B/libbatsec_policy.a" "$B/libbatsec_keys.a" "$B/libbatsec_crypto.a" \
    $(pkg-config --libs libsodium) >"$D/cc.log" 2>&1; then
	fail "wirecheck builds against $B/libbatsec.a: $(head -n 3 \
	    "$D/cc.log")"
	finish
fi
ERRORS="truncated version type reserved count length range address vid auth
duplicate cert trailing padding too_long"
FILTER=$(for e in $ERRORS; do printf 'batsec.malformed.%s || ' "$e"; done)
FILTER=${FILTER% || }
# Captures committed in tests/pcap/ (from a live mesh) are compared too.
for p in "$D/valid.pcap" "$D/bad.pcap" "$D/truncated.pcap" \
    "$D/mutants.pcap" "$TOP"/tests/pcap/*.pcap; do
	[ -f "$p" ] || continue
	case $p in
	"$D"/*) f=$(basename "$p" .pcap) ;;
	*) f=committed_$(basename "$p" .pcap) ;;
	esac
	"$D/wirecheck" "$p" >"$D/$f.wire" || {
		fail "wirecheck reads $p"; continue; }
	awk -F'\t' '$2 != "ok" && $2 != "skip" { print $1 }' "$D/$f.wire" \
	    >"$D/$f.rej"
	ts -r "$p" -Y "$FILTER" -T fields -e frame.number >"$D/$f.flagged"
	total=$(wc -l <"$D/$f.wire")
	rej=$(wc -l <"$D/$f.rej")
	diffs=$(diff "$D/$f.rej" "$D/$f.flagged" | grep '^[<>]' |
	    head -n 3 | tr '\n' ' ')
	if [ -n "$diffs" ]; then
		n=$(echo "$diffs" | sed -E 's/^[<>] ([0-9]+).*/\1/')
		fail "$f.pcap: dissector and codec disagree (< codec only," \
		    "> dissector only): $diffs; codec on frame $n:" \
		    "$(awk -F'\t' -v n="$n" '$1 == n' "$D/$f.wire")"
	else
		pass "$f.pcap: dissector errors = codec rejections on all" \
		    "$total frames ($rej rejected)"
	fi
done
eq "valid frames the codec rejects" "$(wc -l <"$D/valid.rej")" 0
# Which frames of the committed captures both refuse (they agree, above):
# each frame type and version present, "ok" or "refused" by the codec.
verdicts() {
	ts -r "$TOP/tests/pcap/$1.pcap" -T fields -e frame.number \
	    -e batsec.type -e batsec.version |
	    awk -F'\t' 'NR == FNR { v[$1] = ($2 == "ok" ? "ok" : "refused")
		next }
	    $2 != "" { print $2 " v" $3 " " v[$1] }' \
	    "$D/committed_$1.wire" - | sort -u | tr '\n' ','
}
eq "live-mesh3.pcap: frame types, versions, verdicts" \
    "$(verdicts live-mesh3)" "0x01 v4 ok,0x02 v3 ok,0x40 v2 ok,0x41 v2 ok,"
eq "live-mesh3-tags16.pcap: frame types, versions, verdicts" \
    "$(verdicts live-mesh3-tags16)" \
    "0x01 v3 refused,0x02 v2 refused,0x40 v2 ok,0x41 v2 ok,"
eq "live-mesh3-hello2.pcap: frame types, versions, verdicts" \
    "$(verdicts live-mesh3-hello2)" \
    "0x01 v2 refused,0x02 v2 refused,0x40 v2 ok,0x41 v2 ok,"
eq "live-mesh3-ogm1.pcap: frame types, versions, verdicts" \
    "$(verdicts live-mesh3-ogm1)" \
    "0x01 v1 refused,0x02 v1 refused,0x40 v2 ok,0x41 v2 ok,"
eq "live-mesh3-v1.pcap: frame types, versions, verdicts" \
    "$(verdicts live-mesh3-v1)" \
    "0x01 v1 refused,0x02 v1 refused,0x40 v1 refused,0x41 v1 refused,"
eq "truncated frames the codec accepts" \
    "$(awk -F'\t' '$2 == "ok"' "$D/truncated.wire" | wc -l)" 0
# bad.pcap: every defect but the HELLO interface MAC (a receiver check,
# not a structural one) is a codec rejection.
eq "defects the codec accepts" "$(awk -F'\t' '$2 == "ok"' "$D/bad.wire" |
    wc -l)" 1

finish
