# tests/datlib.sh — helpers of the answer cache tests t_mesh_dat.sh
# (ARP) and t_mesh_dat6.sh (IPv6 neighbour discovery), sourced after
# meshlib.sh: a chain of $N nodes (node I's side of link I-(I+1) is its
# interface m(I+1)), captures on its links, the ping workload.

# dat_chain TEST N: root, tcpdump and tshark (else SKIP), then the mesh
# of TEST: a chain of N nodes (N set), converged, every node knowing the
# other nodes' batsec0 MACs as their clients (the signed claims the
# answers rest on).
dat_chain() {
	local t i edges=""
	need_root
	for t in tcpdump tshark; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "SKIP: $1 needs $t"
			exit 0
		fi
	done
	mesh_init "$1"
	N=$2
	i=1
	while [ "$i" -lt "$N" ]; do
		edges="$edges $i-$((i + 1))"
		i=$((i + 1))
	done
	mesh_build "$N" "$edges"
	mesh_start_all || finish
	if mesh_wait_converged 120; then
		pass "chain of $N converged (${MESH_CONV_SECS} s)"
	else
		fail "chain of $N converged within 120 s"
		finish
	fi
	check "every node knows the other nodes' clients" \
	    wait_for 60 dat_clients_known
}

dat_clients_known() {
	local i
	for i in $(mesh_seq "$N"); do
		[ "$(mesh_stat "$i" fwd_clients)" -ge $((N - 1)) ] || return 1
	done
}

# dat_set_all on|off: batsec-ctl set dat on every node.
dat_set_all() {
	local i
	for i in $(mesh_seq "$N"); do
		mesh_ctl "$i" set dat "$1" >/dev/null 2>&1 ||
		    fail "node $i: set dat $1"
	done
}

# dat_sum_stat NAME: the counter NAME of `batsec-ctl s`, summed over nodes.
dat_sum_stat() {
	local i s=0
	for i in $(mesh_seq "$N"); do s=$((s + $(mesh_stat "$i" "$1"))); done
	echo "$s"
}

# dat_flush_all: every node's batsec0 neighbour cache (IPv4 and IPv6).
dat_flush_all() {
	local i
	for i in $(mesh_seq "$N"); do
		ip -n "$(mesh_ns "$i")" neigh flush dev batsec0 2>/dev/null
		ip -6 -n "$(mesh_ns "$i")" neigh flush dev batsec0 2>/dev/null
	done
}

# ---- capture on every link ---------------------------------------------------

DAT_CAPS=""
# dat_cap_start RUN: tcpdump of batsec frames on every link into
# $MT/RUN.I.pcap.
dat_cap_start() {
	local i
	DAT_CAPS=""
	for i in $(mesh_seq $((N - 1))); do
		ip netns exec "$(mesh_ns "$i")" tcpdump -i "m$((i + 1))" -U -n \
		    -w "$MT/$1.$i.pcap" ether proto 0x88b5 \
		    >"$MT/$1.$i.txt" 2>&1 &
		DAT_CAPS="$DAT_CAPS $!"
		track_pid "$!"
	done
	for i in $(mesh_seq $((N - 1))); do
		wait_for 20 grep -q "listening on" "$MT/$1.$i.txt" ||
		    fail "tcpdump on node $i's m$((i + 1)) is capturing"
	done
}
dat_cap_stop() {
	local p
	sleep 1		# what is in flight; -U writes frame by frame
	for p in $DAT_CAPS; do kill -INT "$p" 2>/dev/null; done
	for p in $DAT_CAPS; do wait_for 10 sh -c "! kill -0 $p 2>/dev/null"; done
}
# dat_cap_read RUN FIELD: the links' captures merged, one line per batsec
# frame in $MT/RUN.fields: its type and FIELD of the frame inside (e.g.
# arp.opcode; empty if none), as tshark with contrib/batsec.lua reads it.
dat_cap_read() {
	mergecap -w "$MT/$1.pcap" "$MT/$1".[0-9]*.pcap 2>>"$MT/tshark.err"
	tshark -X "lua_script:$TOP/contrib/batsec.lua" -r "$MT/$1.pcap" \
	    -T fields -e batsec.type -e "$2" 2>>"$MT/tshark.err" \
	    >"$MT/$1.fields"
}
# dat_cap_count RUN AWK-CONDITION: lines of RUN's fields ($1 type, $2 the
# field).
dat_cap_count() {
	awk -F'\t' "$2 { n++ } END { print n + 0 }" "$MT/$1.fields"
}

# ---- the workload --------------------------------------------------------------

# dat_write_ping: $MT/datping.py 4|6 NS,ADDR,MAC...: for each in turn,
# the neighbour caches (IPv4 or IPv6) of batsec0 here and in namespace NS
# flushed, one ICMP echo to ADDR (a second one when no reply came within
# 3 s), then the neighbour cache must map ADDR to MAC; prints the
# addresses not answered or at another MAC.
dat_write_ping() {
	cat >"$MT/datping.py" <<'EOF'
import os, select, socket, struct, subprocess, sys, time
fam = '-' + sys.argv[1]
v6 = fam == '-6'
def csum(b):
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff
if v6:
    sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                         socket.IPPROTO_ICMPV6)
    req, rep = 128, 129
else:
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW,
                         socket.IPPROTO_ICMP)
    req, rep = 8, 0
ident = os.getpid() & 0xffff
seq = 0
fails = []
def ip(*a):
    return subprocess.run(['ip', fam, *a], check=True, capture_output=True,
                          text=True).stdout
for arg in sys.argv[2:]:
    ns, dst, mac = arg.split(',')
    ip('neigh', 'flush', 'dev', 'batsec0')
    ip('-n', ns, 'neigh', 'flush', 'dev', 'batsec0')
    ok = False
    for attempt in range(2):
        seq += 1
        h = struct.pack('!BBHHH', req, 0, 0, ident, seq) + b'dat' * 8
        if not v6:		# the kernel sums ICMPv6
            h = h[:2] + struct.pack('!H', csum(h)) + h[4:]
        sock.sendto(h, (dst, 0))
        end = time.monotonic() + 3
        while not ok and time.monotonic() < end:
            r, _, _ = select.select([sock], [], [], end - time.monotonic())
            if not r:
                break
            pkt, src = sock.recvfrom(2048)
            ihl = 0 if v6 else (pkt[0] & 15) * 4
            t, _, _, i, q = struct.unpack('!BBHHH', pkt[ihl:ihl + 8])
            ok = t == rep and i == ident and q == seq and src[0] == dst
        if ok:
            break
    if not ok:
        fails.append(dst)
        continue
    out = ip('neigh', 'show', dst, 'dev', 'batsec0').split()
    hw = out[out.index('lladdr') + 1] if 'lladdr' in out else None
    if hw != mac:
        fails.append('%s at %s' % (dst, hw))
print(' '.join(fails))
EOF
}

# dat_workload RUN 4|6: twice: node 1 pings every other node once, then
# node 2, ..., with datping.py (each ping after both ends flushed their
# neighbour caches: every address is resolved anew); the pings not
# answered, or whose address resolved to a wrong MAC, in $MT/RUN.fail.
dat_workload() {
	local run=$1 r i j dsts
	: >"$MT/$run.fail"
	for r in 1 2; do
		dat_flush_all
		for i in $(mesh_seq "$N"); do
			dsts=""
			for j in $(mesh_seq "$N"); do
				[ "$i" = "$j" ] ||
				    dsts="$dsts $(mesh_ns "$j"),$(mesh_ip$2 "$j"),$(mesh_mac "$j")"
			done
			ip netns exec "$(mesh_ns "$i")" python3 \
			    "$MT/datping.py" "$2" $dsts 2>&1 |
			    sed "/^\$/d; s/^/round $r, node $i: /" >>"$MT/$run.fail"
		done
	done
}

# dat_assert WHAT OFF ON: every ping of both runs answered at the right
# MAC, the captures saw WHAT (flooded frames) with dat off, and at least
# 80 % fewer with dat on.
dat_assert() {
	local run
	for run in off on; do
		if [ -s "$MT/$run.fail" ]; then
			fail "dat $run: all $((2 * N * (N - 1))) pings answered," \
			    "each address resolved to the right MAC (not:" \
			    "$(head -n 3 "$MT/$run.fail" | tr '\n' ';'))"
		else
			pass "dat $run: all $((2 * N * (N - 1))) pings answered," \
			    "each address resolved to the right MAC"
		fi
	done
	check "the captures saw flooded $1 with dat off" [ "$2" -gt 0 ]
	if [ $(($3 * 100)) -le $(($2 * 20)) ]; then
		pass "dat on floods >= 80 % fewer $1 ($3 vs $2)"
	else
		fail "dat on floods >= 80 % fewer $1 ($3 vs $2)"
	fi
	check "tshark printed no error" sh -c \
	    "! grep -v 'Running as user \"root\"' '$MT/tshark.err' | grep -q ."
}
