#!/bin/sh
# t_mesh_metrics.sh — the monitoring commands on a three-node chain 1-2-3:
# `batsec-ctl metrics` passes a strict Prometheus text-format checker
# (tests/lib/promcheck.py, whose own cases run first), exports every
# counter of `batsec-ctl stats`, and its values agree with `stats`, `o`
# and `n` (originator count, each neighbour's TQ, parser restarts after
# the parser is killed); `-o FILE` replaces the file atomically (a reader
# never sees a partial file, no temporary file is left, mode 0644) and
# says batsec_up 0 when batsecd is gone; `batsec-ctl nodeinfo` is valid
# JSON with this node's id, key, version and exactly its neighbours.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_metrics

PC="python3 $TOP/tests/lib/promcheck.py"
check "promcheck: its own valid and invalid cases" $PC --self-test

# Usage errors: exit 2 before any connection.
usage2() { "$CTL" -s "$MT/none.sock" "$@" >/dev/null 2>&1; [ $? = 2 ]; }
check "metrics EXTRA: usage error" usage2 metrics extra
check "metrics -o '': usage error" usage2 metrics -o ""
check "metrics -x: usage error" usage2 metrics -x
check "nodeinfo EXTRA: usage error" usage2 nodeinfo extra

mesh_build 3 "1-2 2-3"
mesh_start_all || finish
if mesh_wait_converged 60; then
	pass "chain of 3 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 3 converged within 60 s"
	finish
fi
A1=$(mesh_addr 1); A2=$(mesh_addr 2); A3=$(mesh_addr 3)

# metrics I FILE: node I's exposition into FILE, exit status kept.
metrics() { mesh_ctl "$1" metrics >"$2" 2>"$2.err"; }
# fam FILE NAME: "labels<TAB>value" lines of family NAME in FILE.
fam() { $PC --dump "$2" "$1"; }

# The parser's counters reach the forwarder at most every second
# (PCORE_STATS_MS): on a loaded machine the mesh can converge before the
# first of them did.
verified_seen() { [ "$(mesh_stat 2 sig_verified)" -gt 0 ] 2>/dev/null; }
check "node 2's parser reported its signature checks" wait_for 20 verified_seen
# `stats` first: the exposition's counters are then at least as high.
mesh_ctl 2 -j s >"$MT/s2"
check "metrics on node 2: exit 0" metrics 2 "$MT/m2"
check "metrics on node 2: a valid exposition, batsec_ names" \
    $PC --prefix batsec_ "$MT/m2"
$PC --stats "$MT/m2"
check "batsec_up 1" sh -c "$PC --dump batsec_up '$MT/m2' | grep -qx '	1'"
check "batsec_info names node 2's address and key" sh -c \
    "$PC --dump batsec_info '$MT/m2' | grep -q 'address=$A2,key=$(mesh_key 2),'"
check "batsec_verify_under_load 0 on an idle mesh" sh -c \
    "$PC --dump batsec_verify_under_load '$MT/m2' | grep -qx '	0'"
check "batsec_parser_running 1" sh -c \
    "$PC --dump batsec_parser_running '$MT/m2' | grep -qx '	1'"

# Every integer of `stats` but the srcN_ slots is one sample of a family
# that is not one of the other commands' (status, n, if, gw).
all_exported() {
	python3 - "$TOP/tests/lib" "$MT/m2" "$MT/s2" <<'EOF'
import json, re, sys
sys.path.insert(0, sys.argv[1])
import promcheck
fams = promcheck.check(open(sys.argv[2]).read(), 'batsec_')
stats = json.load(open(sys.argv[3]))
want = [k for k, v in stats.items()
        if isinstance(v, int) and not isinstance(v, bool)
        and not re.match(r'src[0-9]', k)]
other = re.compile(r'batsec_(up|info|uptime_seconds|parser_running|'
                   r'parser_restarts_total|neighbour_.*|interface_.*|'
                   r'gateway_.*)$')
got = sum(len(f['samples']) for n, f in fams.items() if not other.match(n))
print('stats integers %d, their samples %d' % (len(want), got))
sys.exit(0 if got == len(want) and len(want) > 50 else 1)
EOF
}
check "every counter of stats is exported once" all_exported

# Values taken after `stats` are never smaller than its counters, and a
# counter is where the documented mapping puts it.
ge_stat() {
	v=$($PC --dump "$2" "$MT/m2" | sed -n "s/^$3	//p")
	s=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['$1'])" \
	    "$MT/s2")
	[ -n "$v" ] && [ "$v" -ge "$s" ]
}
check "drop_malformed is batsec_drops_total{parser,malformed}" \
    ge_stat drop_malformed batsec_drops_total "reason=malformed,stage=parser"
check "drop_table_full is batsec_drops_total{parser,table_full}" \
    ge_stat drop_table_full batsec_drops_total "reason=table_full,stage=parser"
check "route_full is batsec_drops_total{tables,route_full}" \
    ge_stat route_full batsec_drops_total "reason=route_full,stage=tables"
check "data_drop_no_route is batsec_drops_total{data,no_route}" \
    ge_stat data_drop_no_route batsec_drops_total "reason=no_route,stage=data"
check "drop_no_parser is batsec_drops_total{forwarder,no_parser}" \
    ge_stat drop_no_parser batsec_drops_total "reason=no_parser,stage=forwarder"
check "rx_frames is batsec_rx_frames_total" \
    ge_stat rx_frames batsec_rx_frames_total ""
check "sig_verified is batsec_signatures_total{verified}" \
    ge_stat sig_verified batsec_signatures_total "result=verified"
check "the parser verified signatures" sh -c \
    "$PC --dump batsec_signatures_total '$MT/m2' | grep -q '^result=verified	[1-9]'"

# The originator count and the neighbours' TQ agree with `o` and `n`.
routes_agree() {
	metrics 2 "$MT/m2b" || return 1
	[ "$(fam "$MT/m2b" batsec_table_entries | sed -n 's/^table=fwd_routes	//p')" \
	    = "$(mesh_json 2 o 'len(j)')" ]
}
check "fwd_routes entries = rows of batsec-ctl o (2)" wait_for 20 routes_agree
two_routes() { [ "$(mesh_json 2 o 'len(j)')" = 2 ]; }
check "  and that is 2" two_routes
neigh_tq() {
	metrics 2 "$MT/m2c" || return 1
	fam "$MT/m2c" batsec_neighbour_tq >"$MT/ntq"
	[ "$(wc -l <"$MT/ntq")" = 2 ] &&
	    grep -q "^interface=m1,neighbour=$A1	[1-9]" "$MT/ntq" &&
	    grep -q "^interface=m3,neighbour=$A3	[1-9]" "$MT/ntq"
}
check "batsec_neighbour_tq: nodes 1 (m1) and 3 (m3), TQ > 0" wait_for 20 neigh_tq
tq_agrees() {
	metrics 2 "$MT/m2d" || return 1
	a=$(fam "$MT/m2d" batsec_neighbour_tq | sed -n "s/^interface=m1,neighbour=$A1	//p")
	b=$(mesh_json 2 n "[r['link_tq'] for r in j if r['address'] == '$A1'][0]")
	[ -n "$a" ] && [ "$a" = "$b" ]
}
check "node 1's TQ equals the link_tq of batsec-ctl n" wait_for 20 tq_agrees
check "batsec_interface_active for m1 and m3" sh -c \
    "[ \"\$($PC --dump batsec_interface_active '$MT/m2' | sort | tr '\n' ' ')\" = \
'interface=m1	1 interface=m3	1 ' ]"

# ---- parser restarts ----------------------------------------------------------

restarts() {
	metrics 2 "$MT/m2e" &&
	    [ "$(fam "$MT/m2e" batsec_parser_restarts_total)" = "	$1" ]
}
check "batsec_parser_restarts_total 0" restarts 0
P2=$(pgrep -P "$(cat "$MT/n2.pid")" | head -n 1)
if [ -n "$P2" ]; then
	kill -9 "$P2"
	check "after the parser is killed, batsec_parser_restarts_total 1" \
	    wait_for 30 restarts 1
	check "  and the exposition is still valid" $PC --prefix batsec_ "$MT/m2e"
else
	fail "node 2's parser found"
fi

# ---- nodeinfo -----------------------------------------------------------------

check "nodeinfo on node 2: exit 0" sh -c \
    "'$CTL' -s '$(mesh_sock 2)' nodeinfo >'$MT/ni2'"
check "nodeinfo is valid JSON" sh -c "python3 -m json.tool <'$MT/ni2' >/dev/null"
nodeinfo_ok() {
	python3 - "$MT/ni2" "$A1 $A3" "$A2" "$(mesh_key 2)" \
	    "$(mesh_json 2 status "j['version']")" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
want, addr, key, ver = set(sys.argv[2].split()), sys.argv[3], sys.argv[4], sys.argv[5]
ni, st, nb = j['nodeinfo'], j['statistics'], j['neighbours']
node_id = addr.replace(':', '')
got = {}
for ifmac, v in nb['batsec'].items():
    for a, n in v['neighbours'].items():
        got[a] = (v['interface'], n['tq'])
checks = [
    ni['node_id'] == node_id, st['node_id'] == node_id,
    nb['node_id'] == node_id, ni['network']['mac'] == addr,
    ni['batsec']['key'] == key, ni['software']['batsec']['version'] == ver,
    isinstance(ni['hostname'], str) and ni['hostname'] != '',
    set(got) == want, all(tq > 0 for _, tq in got.values()),
    sorted(i for i, _ in got.values()) == ['m1', 'm3'],
    isinstance(st['clients']['total'], int), st['uptime'] > 0,
    len(ni['network']['mesh']['batsec']['interfaces']['other']) == 2,
]
print(checks)
sys.exit(0 if all(checks) else 1)
EOF
}
# Right after the parser restart above the forwarder's neighbour table
# starts empty and fills as the new parser takes the neighbours' HELLOs
# (signed ones: the new parser holds no link key), within a few hello
# intervals: ask again until then.
nodeinfo_again() {
	"$CTL" -s "$(mesh_sock 2)" nodeinfo >"$MT/ni2" && nodeinfo_ok
}
check "nodeinfo: node id, key, version, exactly nodes 1 and 3 with TQ" \
    wait_for 10 nodeinfo_again

# ---- -o FILE for the textfile collector ---------------------------------------

TC=$MT/textfile
mkdir -p "$TC"
check "metrics -o: exit 0" mesh_ctl 2 metrics -o "$TC/batsec.prom"
check "metrics -o: the file is a valid exposition" \
    $PC --prefix batsec_ "$TC/batsec.prom"
check "metrics -o: mode 0644" sh -c "[ \"\$(stat -c %a '$TC/batsec.prom')\" = 644 ]"
# A reader that opens the file while it is rewritten again and again
# sees a whole exposition every time.
(
	i=0
	while [ $i -lt 30 ]; do
		mesh_ctl 2 metrics -o "$TC/batsec.prom" || exit 1
		i=$((i + 1))
	done
) &
W=$!
track_pid "$W"
# Copies as fast as cp goes (checked afterwards: the checker is slow).
reads=0
while kill -0 "$W" 2>/dev/null && [ $reads -lt 300 ]; do
	cp "$TC/batsec.prom" "$MT/read.$reads.prom"
	reads=$((reads + 1))
done
check "30 rewrites: the writer succeeded" wait "$W"
check "a reader never saw a partial file ($reads reads)" \
    $PC --prefix batsec_ "$MT"/read.*.prom
check "no temporary file left" sh -c "[ \"\$(ls -A '$TC')\" = batsec.prom ]"

# ---- batsecd gone -------------------------------------------------------------

check "node 3 stopped" mesh_stop 3
check_not "metrics on stopped node 3: exit 1" \
    mesh_ctl 3 metrics -o "$TC/batsec.prom"
check "  and the file says batsec_up 0, nothing else" sh -c \
    "$PC --prefix batsec_ --stats '$TC/batsec.prom' | grep -qx 'families 1 samples 1' &&
     grep -qx 'batsec_up 0' '$TC/batsec.prom'"
check_not "nodeinfo on stopped node 3: exit 1" mesh_ctl 3 nodeinfo
finish
