# tests/meshlib.sh — helpers for the mesh tests and the benchmarks (sourced
# after tests/lib.sh).
#
# A mesh is N network namespaces, nodes 1..N, joined by veth pairs from an
# edge list.  In node I the veth toward node J is called mJ, so the edge
# "2-5" is m5 in node 2 and m2 in node 5.  Each node gets a key, a
# configuration, a state directory, a control socket and a chroot
# directory in one temp dir ($MT), runs `batsecd -f -d -c CONF` in its
# namespace (pid tracked, stderr to $MT/nI.log, copied to $B/test-logs
# as TEST.nI.log when the test fails, or always with MESH_KEEP_LOGS=1) and
# has 10.99.0.I/24 and fd99::I/64 on batsec0.
#
#	mesh_init NAME			checks, temp dir, exit trap
#	mesh_build N "1-2 2-3 ..."	namespaces, veths, keys, policy, configs
#	mesh_start_all / mesh_start I	daemons, then the addresses on batsec0
#	mesh_wait_converged SECS	every node's `o` lists every other node
#	mesh_ping FROM TO [4|6] [TRIES]	3 echoes, 5 s wait, TRIES runs
#	mesh_cut I J / mesh_heal I J	drop everything on the link (nftables)
#	mesh_loss I J PCT		random loss on the link (nftables)
#	mesh_loss_all PCT		the same on every link
#	mesh_stop I			SIGTERM the daemon of node I
#	mesh_ctl I ARGS...		batsec-ctl -s SOCK ARGS in node I
#	mesh_json I CMD EXPR		a python3 expression over `-j CMD`
#	mesh_nexthop_is I J K		node I's best route to J goes via K
#	mesh_bcast_count FROM SECS	one broadcast, counted on every node
#
# Settings (environment): MESH_ORIG_MS, MESH_HELLO_MS (1000),
# MESH_LOG_LEVEL (info), MESH_DAEMON_FLAGS ("-f -d"), MESH_PING=ping to
# use ping(8) instead of the python3 stand-in, MESH_PING_COUNT (3),
# MESH_CONF_EXTRA (lines added to every node's configuration, such as
# "fast-path off"), MESH_IF_OPTS (words after every "interface mJ" line,
# such as "wireless bcast-repeat 2"), MESH_WRAP_I (a command, word-split, that node I's
# batsecd runs under inside its namespace, such as a setpriv(1) line).
#
# -d is passed to batsecd because without it the daemon logs only to
# syslog(3), and a test machine has no /dev/log: with -d the log goes to
# stderr (the parser's seccomp filter then traps instead of killing, and
# the parser still dies on a blocked call).  MESH_DAEMON_FLAGS overrides.
#
# Functions use `local` (dash, bash and busybox sh have it).
#
# Everything runs inside namespaces the test made; the only addresses used
# are 10.99.0.0/24 and fd99::/64 on those namespaces' batsec0.

MESH_ORIG_MS=${MESH_ORIG_MS:-1000}
MESH_HELLO_MS=${MESH_HELLO_MS:-1000}
MESH_DAEMON_FLAGS=${MESH_DAEMON_FLAGS:--f -d}
MESH_LOG_LEVEL=${MESH_LOG_LEVEL:-info}
MESH_N=0
MESH_EDGES=""

# mesh_init NAME: absolute $B, the programs, the temp dir $MT, the trap.
mesh_init() {
	MESH_NAME=$1
	case $B in /*) ;; *) B=$TOP/$B ;; esac
	D=$B/batsecd
	CTL=$B/batsec-ctl
	for f in "$D" "$CTL"; do
		if [ ! -x "$f" ]; then
			fail "built: $f"
			finish
		fi
	done
	for t in ip nft python3; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "SKIP: $MESH_NAME needs $t"
			exit 0
		fi
	done
	MT=$(mktmp) || { fail "temp dir"; finish; }
	MT=$(cd "$MT" && pwd -P)
	trap mesh_on_exit EXIT
	mesh_write_helpers
}

# The trap: on a failure (or with MESH_KEEP_LOGS set), keep the daemons'
# logs; then lib.sh's cleanup.
mesh_on_exit() {
	rc=$?
	if [ "$rc" -ne 0 ] || [ "$TEST_FAILS" -gt 0 ] ||
	    [ -n "${MESH_KEEP_LOGS:-}" ]; then
		mkdir -p "$B/test-logs"
		for f in "$MT"/*.log "$MT"/*.txt; do
			[ -f "$f" ] && cp "$f" "$B/test-logs/$MESH_NAME.$(basename "$f")"
		done
		echo "logs: $B/test-logs/$MESH_NAME.*"
	fi
	cleanup
}

mesh_ns() { echo "$TEST_TAG-n$1"; }
mesh_sock() { echo "$MT/n$1.sock"; }
mesh_addr() { cat "$MT/n$1.addr"; }
mesh_key() { cat "$MT/n$1.pub"; }
mesh_ip4() { echo "10.99.0.$1"; }
mesh_ip6() { echo "fd99::$1"; }
mesh_ctl() { local n=$1; shift; "$CTL" -s "$(mesh_sock "$n")" "$@"; }
mesh_seq() { local i=1; while [ "$i" -le "$1" ]; do echo "$i"; i=$((i + 1)); done; }

# mesh_neighbours I: the nodes linked to I by the edge list.
mesh_neighbours() {
	local e a b
	for e in $MESH_EDGES; do
		a=${e%-*}; b=${e#*-}
		[ "$a" = "$1" ] && echo "$b"
		[ "$b" = "$1" ] && echo "$a"
	done
	return 0
}

# mesh_build N EDGES: namespaces, links, keys, the allow-list policy
# trusting every node, and a configuration per node.
mesh_build() {
	local i e
	MESH_N=$1
	MESH_EDGES=$2
	for i in $(mesh_seq "$MESH_N"); do
		ns_add "n$i" >/dev/null || { fail "namespace n$i"; finish; }
		mesh_keygen "$i" || { fail "key of node $i"; finish; }
	done
	for e in $MESH_EDGES; do
		mesh_link "${e%-*}" "${e#*-}" || { fail "link $e"; finish; }
	done
	mesh_policy "$MT/policy" $(mesh_seq "$MESH_N")
	for i in $(mesh_seq "$MESH_N"); do
		mesh_conf "$i"
	done
}

mesh_keygen() {
	"$CTL" key generate -o "$MT/n$1.key" >/dev/null 2>&1 &&
	    "$CTL" key public "$MT/n$1.key" >"$MT/n$1.pub" 2>/dev/null &&
	    "$CTL" key address "$(cat "$MT/n$1.pub")" >"$MT/n$1.addr" 2>/dev/null
}

# mesh_link I J [P]: a veth pair, mJ in node I and mI in node J (PJ and
# PI with a prefix P other than m: a second link), both up, without
# offloads (so the kernel hands the daemons real frames) and without IPv6
# on the veths themselves (no stray traffic on the links).
mesh_link() {
	local ni nj x p
	ni=$(mesh_ns "$1"); nj=$(mesh_ns "$2"); p=${3:-m}
	ip -n "$ni" link add "$p$2" type veth peer name "$p$1" netns "$nj" ||
	    return 1
	for x in "$ni $p$2" "$nj $p$1"; do
		set -- $x
		ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1" \
		    >/dev/null 2>&1
		ip netns exec "$1" ethtool -K "$2" tso off gso off gro off \
		    >/dev/null 2>&1
		ip -n "$1" link set "$2" up || return 1
	done
}

# mesh_seg_port SEG I: node I's port s0 on a shared segment, the bridge
# br0 in namespace SEG that floods every frame to every port (no
# learning), as a radio channel does; without IPv6 and offloads.
mesh_seg_port() {
	local ns
	ns=$(mesh_ns "$2")
	ip -n "$ns" link add s0 type veth peer name "p$2" netns "$1" &&
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.s0.disable_ipv6=1 &&
	ip netns exec "$ns" ethtool -K s0 tso off gso off gro off \
	    >/dev/null 2>&1
	ip -n "$ns" link set s0 up &&
	ip -n "$1" link set "p$2" master br0 &&
	ip -n "$1" link set "p$2" type bridge_slave learning off flood on &&
	ip -n "$1" link set "p$2" up
}

# mesh_link_small I J MTU: the link I-J made again (after mesh_build)
# as a macvlan over a veth of that MTU on each side: a macvlan's MTU
# cannot exceed its lower device's, so batsecd's raise to 1630 is
# refused, as a VPN uplink's would be (mJ in node I, mI in node J, as
# mesh_link names them; the veths are lJ and lI).
mesh_link_small() {
	local ni nj
	ni=$(mesh_ns "$1"); nj=$(mesh_ns "$2")
	ip -n "$ni" link del "m$2" &&
	    ip -n "$ni" link add "l$2" mtu "$3" type veth peer name "l$1" \
	    mtu "$3" netns "$nj" || return 1
	for x in "$ni $2" "$nj $1"; do
		set -- $x
		ip -n "$1" link add link "l$2" name "m$2" type macvlan \
		    mode bridge || return 1
		ip netns exec "$1" ethtool -K "l$2" tso off gso off gro off
		ip netns exec "$1" ethtool -K "m$2" tso off gso off gro off
		ip -n "$1" link set "l$2" up && ip -n "$1" link set "m$2" up ||
		    return 1
	done
} >/dev/null 2>&1

# mesh_policy FILE NODE...: mode allowlist, trusting exactly those nodes.
mesh_policy() {
	local f i
	f=$1; shift
	{
		echo "mode allowlist"
		for i in "$@"; do
			echo "trust $(mesh_key "$i") name node$i"
		done
	} >"$f"
}

# mesh_conf I [POLICY]: node I's configuration, one interface per edge.
mesh_conf() {
	local pol j
	pol=${2:-$MT/policy}
	{
		for j in $(mesh_neighbours "$1"); do
			echo "interface m$j${MESH_IF_OPTS:+ $MESH_IF_OPTS}"
		done
		echo "key $MT/n$1.key"
		echo "policy $pol"
		echo "socket $(mesh_sock "$1")"
		echo "state-dir $MT/n$1.state"
		# A TMPDIR on tmpfs: seed a missing epoch from the clock
		# whatever the default (batsec.conf(5)).
		case $(stat -f -c %T "$MT") in
		tmpfs|ramfs) echo "epoch-seed clock" ;;
		esac
		echo "chroot $MT/n$1.empty"
		echo "orig-interval $MESH_ORIG_MS"
		echo "hello-interval $MESH_HELLO_MS"
		echo "log-level $MESH_LOG_LEVEL"
		if [ -n "${MESH_CONF_EXTRA:-}" ]; then
			printf '%s\n' "$MESH_CONF_EXTRA"
		fi
		# MESH_CONF_EXTRA_<node>: lines for that node only.
		eval "j=\${MESH_CONF_EXTRA_$1:-}"
		if [ -n "$j" ]; then
			printf '%s\n' "$j"
		fi
	} >"$MT/n$1.conf"
	chmod 644 "$MT/n$1.conf"
}

mesh_tap_up() {
	ip -n "$(mesh_ns "$1")" link show batsec0 2>/dev/null |
	    grep -q '[<,]UP[,>]'
}
mesh_sock_up() { [ -S "$(mesh_sock "$1")" ]; }
mesh_running() { kill -0 "$(cat "$MT/n$1.pid" 2>/dev/null)" 2>/dev/null; }
mesh_mac() {
	ip -n "$(mesh_ns "$1")" -o link show batsec0 2>/dev/null |
	    sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p'
}

# mesh_launch I: batsecd in node I's namespace, in the background.
mesh_launch() {
	local wrap
	eval "wrap=\${MESH_WRAP_$1:-}"
	ip netns exec "$(mesh_ns "$1")" $wrap "$D" $MESH_DAEMON_FLAGS \
	    -c "$MT/n$1.conf" 2>>"$MT/n$1.log" &
	echo $! >"$MT/n$1.pid"
	track_pid "$!"
}

# mesh_addresses I: the IPv4 and IPv6 test addresses on batsec0.
mesh_addresses() {
	local ns
	ns=$(mesh_ns "$1")
	ip -n "$ns" addr add "$(mesh_ip4 "$1")/24" dev batsec0 &&
	    ip -n "$ns" addr add "$(mesh_ip6 "$1")/64" dev batsec0 nodad
}

# mesh_start I: start node I and wait for its TAP and control socket.
mesh_start() {
	mesh_launch "$1"
	if ! wait_for 30 mesh_started "$1"; then
		fail "node $1: batsecd started (TAP up, control socket)"
		return 1
	fi
	mesh_addresses "$1" || { fail "node $1: addresses"; return 1; }
}

# mesh_started I: node I's TAP is up and its control socket exists.
mesh_started() { mesh_tap_up "$1" && mesh_sock_up "$1"; }
mesh_all_started() {
	local i
	for i in $(mesh_seq "$MESH_N"); do mesh_started "$i" || return 1; done
}

# mesh_start_all: every node at once, one wait for all of them (60 s),
# then the addresses.
mesh_start_all() {
	local i ok=0
	for i in $(mesh_seq "$MESH_N"); do mesh_launch "$i"; done
	wait_for 60 mesh_all_started
	for i in $(mesh_seq "$MESH_N"); do
		if ! mesh_started "$i"; then
			ok=1
			fail "node $i: batsecd started (TAP up, control socket)"
		elif ! mesh_addresses "$i"; then
			ok=1
			fail "node $i: addresses on batsec0"
		fi
	done
	return $ok
}

# mesh_stop I: SIGTERM (SIGKILL after 20 s); 0 when it exited by itself.
mesh_stop() {
	local p
	p=$(cat "$MT/n$1.pid" 2>/dev/null) || return 1
	kill -TERM "$p" 2>/dev/null
	if wait_for 20 sh -c "! kill -0 $p 2>/dev/null"; then
		wait "$p" 2>/dev/null
		return 0
	fi
	kill -9 "$p" 2>/dev/null
	return 1
}

# ---- control-socket queries -------------------------------------------------

# mesh_knows I J: node I's originator table lists node J.
mesh_knows() {
	mesh_ctl "$1" -j o 2>/dev/null |
	    grep -q "\"address\":\"$(mesh_addr "$2")\""
}

# mesh_node_converged I [NODES]: I knows every other node of NODES (all).
mesh_node_converged() {
	local me out j
	me=$1; shift
	[ $# -eq 0 ] && set -- $(mesh_seq "$MESH_N")
	out=$(mesh_ctl "$me" -j o 2>/dev/null) || return 1
	for j in "$@"; do
		[ "$j" = "$me" ] && continue
		case $out in
		*"\"address\":\"$(mesh_addr "$j")\""*) ;;
		*) return 1 ;;
		esac
	done
}

# mesh_converged [NODES]: every node of NODES (default all) knows the rest.
mesh_converged() {
	local i
	[ $# -eq 0 ] && set -- $(mesh_seq "$MESH_N")
	for i in "$@"; do
		mesh_node_converged "$i" "$@" || return 1
	done
}

# mesh_wait_converged SECS [NODES]: poll every half second; the seconds it
# took in $MESH_CONV_SECS (with a decimal), 1 on a timeout.
mesh_wait_converged() {
	local lim t0
	lim=$1; shift
	t0=$(mesh_now_ms)
	while :; do
		if mesh_converged "$@"; then
			MESH_CONV_SECS=$(mesh_secs_since "$t0")
			return 0
		fi
		[ $(( $(mesh_now_ms) - t0 )) -ge $((lim * 1000)) ] && break
		sleep 0.5
	done
	MESH_CONV_SECS=""
	return 1
}

mesh_now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# mesh_secs_since T0_MS: seconds since then, with one decimal.
mesh_secs_since() {
	local d
	d=$(( $(mesh_now_ms) - $1 ))
	echo "$((d / 1000)).$(( (d % 1000) / 100 ))"
}

# mesh_json I CMD EXPR: evaluate a python3 expression over the -j output
# of CMD on node I (the parsed JSON is "j"); prints the result.
mesh_json() {
	mesh_ctl "$1" -j "$2" 2>/dev/null |
	    python3 -c 'import json, sys
j = json.load(sys.stdin)
r = eval(sys.argv[1])
print(r if not isinstance(r, bool) else ("yes" if r else "no"))' "$3"
}

# mesh_tt_has I CLIENT ORIG: node I's translation table (batsec-ctl -j tt)
# maps the MAC CLIENT to the originator address ORIG.
mesh_tt_has() {
	mesh_json "$1" tt "any(r['client'] == '$2' and r['originator'] == \
'$3' for r in j)" | grep -qx yes
}

# mesh_nexthop I J: the next hop address of node I's best route to node J.
mesh_nexthop() {
	mesh_json "$1" o "next(r['next_hop'] for r in j if r['address'] == \
'$(mesh_addr "$2")' and r.get('best', True))"
}

# mesh_nexthop_is I J K: node I reaches node J through node K.
mesh_nexthop_is() { [ "$(mesh_nexthop "$1" "$2")" = "$(mesh_addr "$3")" ]; }

# mesh_neigh_set I: node I's neighbour addresses, sorted, one line.
mesh_neigh_set() {
	mesh_json "$1" n "' '.join(sorted(set(r['address'] for r in j)))"
}
# mesh_expected_neigh_set I: the addresses of I's neighbours in the edges.
mesh_expected_neigh_set() {
	local j
	for j in $(mesh_neighbours "$1"); do mesh_addr "$j"; done | sort -u |
	    tr '\n' ' ' | sed 's/ $//'
}

# mesh_stat I NAME: one counter of `stats` (0 when absent).
mesh_stat() { mesh_json "$1" s "j.get('$2', 0)"; }

# ---- traffic ------------------------------------------------------------------

# mesh_ping1 FROM TO FAMILY COUNT WAIT [SIZE [frag]]: one ping run with
# SIZE bytes of ICMP payload (56), not fragmented unless "frag"; 0 on any
# reply.
# The python3 stand-in (ping.py below) by default, which stops at the
# first reply; MESH_PING=ping uses ping(8) (iputils) instead.
mesh_ping1() {
	local dst
	if [ "$3" = 6 ]; then dst=$(mesh_ip6 "$2"); else dst=$(mesh_ip4 "$2"); fi
	if [ "${MESH_PING:-}" = ping ]; then
		ip netns exec "$(mesh_ns "$1")" ping "-$3" -n -q -c "$4" \
		    -W "$5" -s "${6:-56}" -M "$([ "${7:-}" = frag ] && echo dont ||
		    echo do)" "$dst" >/dev/null 2>&1
	else
		ip netns exec "$(mesh_ns "$1")" python3 "$MT/ping.py" "-$3" \
		    "$4" "$5" "$dst" "${6:-56}" ${7:+"$7"} >/dev/null 2>&1
	fi
}

# mesh_noreply FROM TO FAMILY COUNT WAIT [SIZE [frag]]: the echoes went out
# and no reply came (not: the ping could not run).
mesh_noreply() {
	mesh_ping1 "$@"
	[ $? -eq 1 ]	# ping(8) and ping.py: 1 no reply, 2 an error
}

# mesh_ping FROM TO [4|6] [TRIES]: ping -c 3 -W 5 (-c $MESH_PING_COUNT
# when set), up to TRIES runs (default 3); 0 as soon as one run got a
# reply.
mesh_ping() {
	local fam tries
	fam=${3:-4}; tries=${4:-3}
	while [ "$tries" -gt 0 ]; do
		mesh_ping1 "$1" "$2" "$fam" "${MESH_PING_COUNT:-3}" 5 && return 0
		tries=$((tries - 1))
	done
	return 1
}

# ---- links: nftables netdev ingress filters -------------------------------------

# mesh_filter I J RULE...: replace the rules on node I's ingress from J.
mesh_filter() {
	local ns dev
	ns=$(mesh_ns "$1"); dev=m$2; shift 2
	ip netns exec "$ns" nft -f - <<-EOF
	table netdev meshtest {
		chain in_$dev {
			type filter hook ingress device "$dev" priority 0; policy accept;
		}
	}
	flush chain netdev meshtest in_$dev
	EOF
	[ $# -eq 0 ] && return 0
	ip netns exec "$ns" nft add rule netdev meshtest "in_$dev" "$@"
}

# mesh_cut I J: the link I-J loses every frame, both ways.
mesh_cut() { mesh_filter "$1" "$2" drop && mesh_filter "$2" "$1" drop; }
# mesh_heal I J: the link I-J carries everything again.
mesh_heal() { mesh_filter "$1" "$2" && mesh_filter "$2" "$1"; }
# mesh_loss I J PCT: each direction of I-J drops PCT % of frames at random.
mesh_loss() {
	mesh_filter "$1" "$2" numgen random mod 100 "<" "$3" counter drop &&
	    mesh_filter "$2" "$1" numgen random mod 100 "<" "$3" counter drop
}
# mesh_loss_all PCT: mesh_loss on every edge (a FAIL line for each that
# could not be set up).
mesh_loss_all() {
	local e
	for e in $MESH_EDGES; do
		mesh_loss "${e%-*}" "${e#*-}" "$1" || fail "loss on link $e"
	done
}
# mesh_isolate I: node I hears nothing and nobody hears it.
mesh_isolate() {
	local j
	for j in $(mesh_neighbours "$1"); do mesh_cut "$1" "$j" || return 1; done
}

# ---- python3 helpers ------------------------------------------------------------

# ping.py -4|-6 COUNT WAIT ADDR [SIZE [frag]]: COUNT ICMP echoes (SIZE
# bytes after the 8-byte ICMP header, 56 by default; never fragmented
# unless "frag": a packet larger than the MTU is not sent) over a raw
# socket, one a second, for machines without ping(8); exit 0 at the first
# reply, 1 when none came within WAIT seconds of the last echo, 2 when
# the script itself failed.
# bcast_rx.py IFACE TOKEN SECS READY [seq]: count the frames received (not
# sent) on IFACE that contain TOKEN during SECS seconds; touch READY once
# the socket is bound; print the count.  With BCAST_START=FILE in the
# environment the SECS begin when FILE exists (at most 120 s after READY;
# frames are counted meanwhile): the caller creates it once all its
# receivers are ready, so that a slow start of one receiver does not
# leave another's window over before anything was sent.  With "seq":
# frames that contain TOKEN-NUMBER. ; print "distinct total" (distinct
# NUMBERs, frames).  The first 8 frames counted are described on stderr
# (time, packet type, the first 64 bytes), so that a test whose count
# should have been 0 can show what came.
# bcast_tx.py ADDR PORT TOKEN: one UDP datagram out of batsec0, to a
# broadcast or multicast ADDR (IPv4, or IPv6 link scope).
mesh_write_helpers() {
	cat >"$MT/ping.py" <<-'EOF'
	import os, select, socket, struct, sys, time
	# Exit 0: a reply; 1: no reply; 2: the test itself broke.
	sys.excepthook = lambda t, v, tb: (print("ping.py: %s" % v), os._exit(2))

	def csum(b):
	    if len(b) % 2:
	        b += b"\0"
	    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
	    s = (s >> 16) + (s & 0xffff)
	    s += s >> 16
	    return ~s & 0xffff

	fam, count, wait, dst = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
	size = int(sys.argv[5]) if len(sys.argv) > 5 else 56
	v6 = fam == "-6"
	if v6:
	    s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
	    req, rep = 128, 129
	else:
	    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
	    req, rep = 8, 0
	# Never fragment here (IP_PMTUDISC_DO, IPV6_DONTFRAG), unless "frag".
	if len(sys.argv) <= 6 or sys.argv[6] != "frag":
	    if v6:
	        s.setsockopt(socket.IPPROTO_IPV6, 62, 1)
	    else:
	        s.setsockopt(socket.IPPROTO_IP, 10, 2)
	ident = os.getpid() & 0xffff
	sent = 0
	next_send = time.monotonic()
	end = None
	while True:
	    now = time.monotonic()
	    if sent < count and now >= next_send:
	        sent += 1
	        body = struct.pack("!HH", ident, sent) + (b"batsec-meshtest!" * 128)[:size]
	        ck = 0 if v6 else csum(struct.pack("!BBH", req, 0, 0) + body)
	        try:
	            s.sendto(struct.pack("!BBH", req, 0, ck) + body, (dst, 0))
	        except OSError:
	            pass
	        next_send = now + 1.0
	        if sent == count:
	            end = now + wait
	    timeout = (next_send if sent < count else end) - now
	    if timeout <= 0 and sent == count:
	        break
	    r, _, _ = select.select([s], [], [], max(timeout, 0))
	    if not r:
	        continue
	    data, addr = s.recvfrom(65536)
	    if not v6:
	        data = data[(data[0] & 15) * 4:]
	    if len(data) >= 8 and data[0] == rep and addr[0] == dst and \
	            struct.unpack("!H", data[4:6])[0] == ident:
	        print("reply after %d echo(s)" % sent)
	        sys.exit(0)
	print("no reply to %d echo(s)" % count)
	sys.exit(1)
	EOF
	cat >"$MT/bcast_rx.py" <<-'EOF'
	import os, re, select, socket, sys, time
	iface, token, secs, ready = sys.argv[1], sys.argv[2].encode(), float(sys.argv[3]), sys.argv[4]
	seq = re.compile(re.escape(token) + rb"-(\d+)\.") if sys.argv[5:] == ["seq"] else None
	s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
	s.bind((iface, 0))
	open(ready, "w").close()
	n = 0
	seen = set()
	start = os.environ.get("BCAST_START")
	end = time.monotonic() + (120 if start else secs)
	while True:
	    if start and os.path.exists(start):
	        start = None
	        end = time.monotonic() + secs
	    left = end - time.monotonic()
	    if left <= 0:
	        break
	    r, _, _ = select.select([s], [], [], min(left, 0.2) if start else left)
	    if not r:
	        continue
	    data, addr = s.recvfrom(65536)
	    if addr[2] == socket.PACKET_OUTGOING or token not in data:
	        continue
	    m = seq.search(data) if seq else None
	    if seq and not m:
	        continue
	    n += 1
	    if m:
	        seen.add(m.group(1))
	    if n <= 8:
	        sys.stderr.write("bcast_rx %s %s: frame %d at %.3f, pkttype %d, %d bytes: %s\n" % (
	            os.environ.get("BCAST_NAME", iface), token.decode(), n, time.monotonic(), addr[2], len(data), data[:64].hex()))
	print("%d %d" % (len(seen), n) if seq else n)
	EOF
	cat >"$MT/bcast_tx.py" <<-'EOF'
	import socket, sys
	addr, port, token = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
	fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
	s = socket.socket(fam, socket.SOCK_DGRAM)
	s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
	s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"batsec0")
	if fam == socket.AF_INET6:
	    s.sendto(token, (addr, port, 0, socket.if_nametoindex("batsec0")))
	else:
	    s.sendto(token, (addr, port))
	EOF
}

# mesh_bcast_count FROM SECS [ADDR]: send one UDP datagram with a unique
# payload from node FROM to ADDR (default the broadcast 10.99.0.255; a
# multicast group works the same) while every node counts it on batsec0
# for SECS seconds; the counts in $MT/bcast.I.
mesh_bcast_count() {
	local tok i
	tok="batsec-bcast-$$-$(date +%s%N)"
	rm -f "$MT/bcast.start"
	for i in $(mesh_seq "$MESH_N"); do
		rm -f "$MT/bcast.$i" "$MT/bcast.$i.ready"
		BCAST_START=$MT/bcast.start ip netns exec "$(mesh_ns "$i")" \
		    python3 "$MT/bcast_rx.py" batsec0 "$tok" "$2" \
		    "$MT/bcast.$i.ready" >"$MT/bcast.$i" 2>>"$MT/bcast.txt" &
		track_pid "$!"
		echo "$!" >"$MT/bcast.$i.pid"
	done
	for i in $(mesh_seq "$MESH_N"); do
		wait_for 60 test -e "$MT/bcast.$i.ready" || return 1
	done
	: >"$MT/bcast.start"
	ip netns exec "$(mesh_ns "$1")" python3 "$MT/bcast_tx.py" \
	    "${3:-10.99.0.255}" 9 "$tok" 2>>"$MT/bcast.txt" || return 1
	for i in $(mesh_seq "$MESH_N"); do
		wait "$(cat "$MT/bcast.$i.pid")" 2>/dev/null
	done
}
