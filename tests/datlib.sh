# tests/datlib.sh — helpers of the answer cache tests t_mesh_dat.sh
# (ARP) and t_mesh_dat6.sh (IPv6 neighbour discovery), sourced after
# meshlib.sh and mesh_build of a chain of $N nodes (node I's side of link
# I-(I+1) is its interface m(I+1)).

# Every node knows every other node's batsec0 MAC as that node's client
# (the signed claims the answers rest on).
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
