#!/bin/sh
# t_mesh_runtime.sh — runtime settings and the event stream on a running
# chain 1-2-3 (batsec-ctl set / get / event):
#
#   * get shows the file's values; set changes them and get shows that;
#   * set hop-penalty on node 2 lowers the TQ node 1 sees for node 3
#     (node 2 relays node 3's OGMs with its penalty);
#   * set orig-interval changes how fast node 1's OGM seqno advances;
#   * set hello-interval on node 3 to six times the old one: node 2 does
#     not lose it (neighbours measure silence in max(measured, announced)
#     interval, batsec.conf(5));
#   * set gateway server on node 3 (a gateway by policy): node 1 lists it;
#   * bad values are refused with the parser's message, exit status != 0;
#   * SIGHUP applies the file's values again;
#   * event (lines, and -j JSON lines) shows node 3's neighbour and route
#     going away on node 2 when node 3 stops, and a trust event for block.
#
# No timing assertions: rates are compared with wide margins (a loaded
# machine sends fewer OGMs, never more), everything else is polled.
. "$(dirname "$0")/lib.sh"
MESH_ORIG_MS=${MESH_ORIG_MS:-500}
MESH_HELLO_MS=${MESH_HELLO_MS:-500}
. "$(dirname "$0")/meshlib.sh"
need_root
mesh_init t_mesh_runtime

mesh_build 3 "1-2 2-3"
# Node 3 may announce a gateway.
awk -v k="$(mesh_key 3)" '$2 == k { print $0 " gateway"; next } { print }' \
    "$MT/policy" >"$MT/policy.new" && cat "$MT/policy.new" >"$MT/policy"
check "policy: node 3 is a gateway" grep -q "name node3 gateway" "$MT/policy"
mesh_start_all || finish
if mesh_wait_converged 90; then
	pass "chain of 3 converged (${MESH_CONV_SECS} s)"
else
	fail "chain of 3 converged within 90 s"
	finish
fi

A3=$(mesh_addr 3)

# ---- get ----------------------------------------------------------------------
getval() { mesh_ctl "$1" -j get "$2" | python3 -c 'import json, sys
print(json.load(sys.stdin)[sys.argv[1].replace("-", "_")])' "$2"; }
is_val() { [ "$(getval "$1" "$2")" = "$3" ]; }

# The daemons run with -d, which sets log-level debug over the file's.
out=$(mesh_ctl 1 get 2>&1)
echo "$out" | sed 's/^/  get: /'
for kv in "hop_penalty: 30" "orig_interval: $MESH_ORIG_MS" \
    "hello_interval: $MESH_HELLO_MS" "gateway: off" "log_level: debug"; do
	case $out in
	*"$kv"*) pass "get shows $kv" ;;
	*) fail "get shows $kv" ;;
	esac
done
check "get hop-penalty: one value" is_val 1 hop-penalty 30

# ---- refused values -----------------------------------------------------------
# refused WANT ARGS...: set ARGS fails (status != 0) with WANT on stderr.
refused() {
	local want err rc
	want=$1; shift
	err=$(mesh_ctl 2 set "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -ne 0 ] && case $err in *"$want"*) true ;; *) false ;; esac
	then
		pass "set $* refused ($err)"
	else
		fail "set $* refused with '$want' (status $rc: $err)"
	fi
}
refused "hop-penalty: 256 is out of range 0..255" hop-penalty 256
refused "orig-interval: 99 is out of range 100..60000" orig-interval 99
refused "hello-interval: 'fast' is not a decimal number" hello-interval fast
refused "log-level: 'verbose' is not one of error, warning, info, debug" \
    log-level verbose
refused "not a multiple of 100 kbit/s" gateway server 150k/1m
refused "'ethertype' cannot be set at run time" ethertype 0x88b6
refused "needs a NAME and a VALUE" hop-penalty
check_not "get of an unknown name fails" mesh_ctl 2 get ethertype
check "after the refusals node 2 still has hop-penalty 30" \
    is_val 2 hop-penalty 30

# ---- hop-penalty ---------------------------------------------------------------
# tq I J: node I's TQ for node J (0 when it has no route).
tq() {
	mesh_json "$1" o "max([r['tq'] for r in j if r['address'] == \
'$(mesh_addr "$2")' and r.get('best', True)] or [0])"
}
tq_above() { [ "$(tq "$1" "$2")" -gt "$3" ]; }
tq_below() { local v; v=$(tq "$1" "$2"); [ "$v" -gt 0 ] && [ "$v" -lt "$3" ]; }

check "node 1: TQ for node 3 above 150 with hop-penalty 30" \
    wait_for 30 tq_above 1 3 150
echo "  node 1's TQ for node 3: $(tq 1 3)"
if out=$(mesh_ctl 2 set hop-penalty 200 2>&1); then
	pass "set hop-penalty 200 on node 2 ($out)"
else
	fail "set hop-penalty 200 on node 2 ($out)"
fi
check "get hop-penalty on node 2 is 200" is_val 2 hop-penalty 200
# 255 * (255 - 200) / 255 = 55 at most, before the link's share.
check "node 1: TQ for node 3 falls below 100" wait_for 30 tq_below 1 3 100
echo "  node 1's TQ for node 3: $(tq 1 3)"

# ---- SIGHUP restores the file's values ------------------------------------------
mesh_ctl 2 set log-level warning >/dev/null 2>&1
check "get log-level on node 2 is warning" is_val 2 log-level warning
kill -HUP "$(cat "$MT/n2.pid")"
check "SIGHUP: node 2's hop-penalty is 30 again" \
    wait_for 20 is_val 2 hop-penalty 30
check "SIGHUP: node 2's log-level is debug again (-d)" \
    is_val 2 log-level debug
check "node 1: TQ for node 3 back above 150" wait_for 30 tq_above 1 3 150

# ---- orig-interval --------------------------------------------------------------
seqno() { mesh_json "$1" status "j['ogm_seqno']"; }
# advance I SECS: how far node I's OGM seqno moves in SECS seconds.
advance() {
	local a b
	a=$(seqno "$1"); sleep "$2"; b=$(seqno "$1")
	echo $((b - a))
}
# rate_is MS N OP BOUND: N OGMs in 5 s at orig-interval MS pass [ N OP BOUND ].
rate_is() {
	echo "  node 1: $2 OGMs in 5 s at orig-interval $1"
	if [ "$2" "$3" "$4" ]; then
		pass "OGM rate at $1 ms ($2 in 5 s)"
	else
		fail "OGM rate at $1 ms: $2 in 5 s, not $3 $4"
	fi
}
# Nominally 10 (more when the two queries took long); a loaded machine
# may send fewer.
rate_is "$MESH_ORIG_MS" "$(advance 1 5)" -ge 3
check "set orig-interval 20000 on node 1" mesh_ctl 1 set orig-interval 20000
# The OGM already due may still go; then one every 20 s (+-jitter).
rate_is 20000 "$(advance 1 5)" -le 2
check "set orig-interval back on node 1" \
    mesh_ctl 1 set orig-interval "$MESH_ORIG_MS"
seq_past() { [ "$(seqno "$1")" -ge "$2" ]; }
check "node 1: OGMs flow again" wait_for 20 seq_past 1 $(( $(seqno 1) + 2 ))

# ---- events: a live stream on node 2 ---------------------------------------------
"$CTL" -s "$(mesh_sock 2)" event >"$MT/ev2.txt" 2>"$MT/ev2.err" &
EVT=$!
track_pid "$EVT"
"$CTL" -s "$(mesh_sock 2)" event -j >"$MT/ev2.json" 2>"$MT/ev2j.err" &
EVJ=$!
track_pid "$EVJ"
# A setting change shows the streams are live before anything else.
live() { grep -q "setting set log-level info (was debug)" "$MT/ev2.txt" &&
    grep -q '"detail":"log-level info (was debug)' "$MT/ev2.json"; }
sleep 1
mesh_ctl 2 set log-level info >/dev/null 2>&1
check "event: a setting change on both streams" wait_for 20 live
# The ring from its start (-a): node 2 saw both neighbours come up.
timeout 5 "$CTL" -s "$(mesh_sock 2)" event -a >"$MT/ev2a.txt" 2>&1
check "event -a: neighbour up for node 1" grep -q "neighbour up $(mesh_addr 1)" \
    "$MT/ev2a.txt"
check "event -a: neighbour up for node 3" grep -q "neighbour up $A3" \
    "$MT/ev2a.txt"
mesh_ctl 2 set log-level debug >/dev/null 2>&1

# ---- hello-interval: a neighbour with a longer interval is not lost ---------------
A3_DOWN="neighbour down $A3"
check "set hello-interval 3000 on node 3" mesh_ctl 3 set hello-interval 3000
# Twelve seconds: four of node 3's new intervals, 24 of the old ones.
sleep 12
check "node 2 still has node 3 as neighbour" sh -c \
    "$CTL -s $(mesh_sock 2) -j n | grep -q '\"address\":\"$A3\"'"
check_not "event: no neighbour down for node 3 on node 2" \
    grep -q "$A3_DOWN" "$MT/ev2.txt"
check "set hello-interval back on node 3" \
    mesh_ctl 3 set hello-interval "$MESH_HELLO_MS"

# ---- gateway -----------------------------------------------------------------------
gw_listed() { mesh_ctl 1 -j gw | grep -q "\"address\":\"$A3\""; }
check_not "node 1 lists no gateway yet" gw_listed
check "set gateway server 10mbit/2mbit on node 3" \
    mesh_ctl 3 set gateway server 10mbit/2mbit
check "get gateway on node 3" is_val 3 gateway "server 10000/2000"
check "node 1 lists node 3 as gateway" wait_for 30 gw_listed
check "event: node 2 saw the gateway added" wait_for 20 \
    grep -q "gateway add $A3 down 10000 kbit/s up 2000 kbit/s" "$MT/ev2.txt"

# ---- node 3 stops: neighbour and route events on node 2 ------------------------------
mesh_stop 3
check "event: neighbour down for node 3" wait_for 30 grep -q "$A3_DOWN" \
    "$MT/ev2.txt"
check "event: route to node 3 deleted" wait_for 30 \
    grep -q "route del $A3" "$MT/ev2.txt"
check "event -j: neighbour down for node 3" wait_for 10 grep -q \
    "\"type\":\"neighbour\",\"event\":\"down\",\"address\":\"$A3\"" \
    "$MT/ev2.json"

# ---- trust: block ------------------------------------------------------------------
check "block node 3's key on node 2" mesh_ctl 2 block "$MT/n3.pub"
check "event: trust block for node 3" wait_for 20 \
    grep -q "trust block $A3 key $(mesh_key 3)" "$MT/ev2.txt"

# Every JSON line is an object.
check "event -j: every line is JSON" python3 -c 'import json, sys
n = 0
for line in open(sys.argv[1]):
    json.loads(line); n += 1
sys.exit(0 if n > 0 else 1)' "$MT/ev2.json"

# Interrupted, the streams end cleanly.
ended() { ! kill -0 "$1" 2>/dev/null; }
kill -INT "$EVT" "$EVJ"
for p in "$EVT" "$EVJ"; do
	if wait_for 10 ended "$p"; then
		st=0; wait "$p" || st=$?
		check "event (pid $p) ends with status 0 on SIGINT" [ "$st" -eq 0 ]
	else
		fail "event (pid $p) ends on SIGINT"
		kill -9 "$p" 2>/dev/null
	fi
done
echo "  node 2's events:"; sed 's/^/    /' "$MT/ev2.txt"
[ -s "$MT/ev2.err" ] && sed 's/^/  event stderr: /' "$MT/ev2.err"

for i in 1 2; do
	check "node $i: batsecd still running" mesh_running "$i"
done
finish
