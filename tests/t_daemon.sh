#!/bin/sh
# t_daemon.sh — batsecd end to end: two daemons in two network namespaces
# joined by a veth pair, each with its own socket, state directory and
# chroot.  Checks the TAP and its MTU, the parser's sandbox (uid, seccomp,
# capabilities, no_new_privs, chroot, descriptors), the forwarder's
# capabilities, frames reaching the parser, respawn after kill -9 and
# after the parser stops answering the heartbeat (SIGSTOP), mesh
# interfaces that appear late or are deleted and re-created, SIGHUP
# (good and bad policy), SIGTERM (exit 0, TAP gone), a higher epoch on
# every start, daemonising, and configuration errors (one line naming
# file:line, exit 1, no TAP left behind).
#
# The parser's user: the configuration keeps the default "batsec".  When
# that user does not exist, batsecd falls back to "nobody" (and says so);
# the test accepts either and only requires a non-root uid, so it never
# adds users to the machine.
. "$(dirname "$0")/lib.sh"
need_root

case $B in /*) ;; *) B=$TOP/$B ;; esac
D=$B/batsecd
CTL=$B/batsec-ctl
INJ=$B/tests/check_forwarder
for f in "$D" "$CTL" "$INJ"; do
	if [ ! -x "$f" ]; then
		fail "built: $f"
		finish
	fi
done

# mktmp and ns_add register what they make for lib.sh's cleanup; our
# trap copies the daemons' logs out of the temp dir before it runs.
T=$(mktmp)
T=$(cd "$T" && pwd -P)
LOGS=$B/test-logs
on_exit() {
	mkdir -p "$LOGS"
	for f in "$T"/*.log; do
		[ -f "$f" ] && cp "$f" "$LOGS/t_daemon.$(basename "$f")"
	done
	cleanup
}
trap on_exit EXIT
for n in a b c; do
	ns_add "$n" >/dev/null || { fail "namespace $n"; finish; }
done
NA=$TEST_TAG-a
NB=$TEST_TAG-b
NC=$TEST_TAG-c

# ---- keys, policy, configuration ---------------------------------------------

for n in a b c; do
	"$CTL" key generate -o "$T/$n.key" >/dev/null 2>&1 ||
	    { fail "batsec-ctl key generate"; finish; }
done
{
	echo "mode allowlist"
	echo "trust $("$CTL" key public "$T/a.key") name a"
	echo "trust $("$CTL" key public "$T/b.key") name b"
} >"$T/policy"

# conf NAME IFACE...: a configuration for node NAME.
conf() {
	n=$1; shift
	{
		for i in "$@"; do echo "interface $i"; done
		echo "key $T/$n.key"
		echo "policy $T/policy"
		echo "socket $T/$n.sock"
		echo "state-dir $T/$n.state"
		# A TMPDIR on tmpfs: seed a missing epoch from the clock
		# whatever the default (batsec.conf(5)).
		case $(stat -f -c %T "$T") in
		tmpfs|ramfs) echo "epoch-seed clock" ;;
		esac
		echo "chroot $T/$n.empty"
		echo "log-level info"
	} >"$T/$n.conf"
	chmod 644 "$T/$n.conf"
}
conf a mesh0
# b also has an interface whose MTU cannot be raised (a macvlan on a link
# of MTU 1400) and one that does not exist yet.
conf b mesh0 mv0 late0

ip -n "$NA" link add mesh0 type veth peer name mesh0 netns "$NB"
ip -n "$NA" link set mesh0 up
ip -n "$NB" link set mesh0 up
ip -n "$NB" link add low0 type veth peer name low1
ip -n "$NB" link set low0 mtu 1400
ip -n "$NB" link add link low0 name mv0 type macvlan
ip -n "$NB" link set mv0 up

# start NS NAME: batsecd in the foreground with debug logs, pid in $PID.
start() {
	ip netns exec "$1" "$D" -f -d -c "$T/$2.conf" 2>>"$T/$2.log" &
	PID=$!
	track_pid "$PID"
}
running() { kill -0 "$1" 2>/dev/null; }
tap_up() { ip -n "$1" link show batsec0 2>/dev/null | grep -q '[<,]UP[,>]'; }
tap_gone() { ! ip -n "$1" link show batsec0 >/dev/null 2>&1; }
mtu_is() { ip -n "$1" -o link show "$2" 2>/dev/null | grep -q " mtu $3 "; }
logged() { grep -q -- "$2" "$T/$1.log"; }
parser_of() { pgrep -P "$1" | head -n 1; }
has_parser() { [ -n "$(parser_of "$1")" ]; }
status_is() { grep -q "^$2:[[:space:]]*$3\$" "/proc/$1/status"; }

# sandboxed PID: the parser child of forwarder PID finished its set-up.
sandboxed() {
	p=$(parser_of "$1")
	[ -n "$p" ] && grep -q "^Seccomp:[[:space:]]*2\$" "/proc/$p/status" &&
	    grep -q "^Seccomp_filters:[[:space:]]*2\$" "/proc/$p/status"
}
# stop PID: SIGTERM, then its exit status in $RC (255: did not exit).
stop() {
	kill -TERM "$1"
	if wait_for 30 sh -c "! kill -0 $1 2>/dev/null"; then
		wait "$1"
		RC=$?
	else
		kill -9 "$1"
		RC=255
	fi
}

start "$NA" a
FA=$PID
start "$NB" b
FB=$PID

check "a: batsec0 is up" wait_for 20 tap_up "$NA"
check "b: batsec0 is up" wait_for 20 tap_up "$NB"
check "a: a sandboxed parser runs" wait_for 30 sandboxed "$FA"
check "b: a sandboxed parser runs" wait_for 30 sandboxed "$FB"

# ---- MTU policy ---------------------------------------------------------------

check "a: mesh0 raised to 1630" mtu_is "$NA" mesh0 1630
check "a: batsec0 carries 1500" mtu_is "$NA" batsec0 1500
check "b: mv0 could not be raised" mtu_is "$NB" mv0 1400
# mv0 stays at 1400: batsec0 still carries 1500, longer frames go as FRAG
# pieces (batsecd(8), "Mesh interfaces and MTU").
check "b: batsec0 carries 1500 over a 1400 mesh link" mtu_is "$NB" batsec0 1500

# ---- the parser's sandbox and the forwarder's privileges ----------------------

P=$(parser_of "$FA")
check "parser runs as a non-root user" \
    sh -c "awk '/^Uid:/ { exit !(\$2 != 0 && \$3 != 0 && \$4 != 0) }' /proc/$P/status"
check "parser: Seccomp 2" status_is "$P" Seccomp 2
check "parser: no effective capabilities" status_is "$P" CapEff 0000000000000000
check "parser: no permitted capabilities" status_is "$P" CapPrm 0000000000000000
check "parser: NoNewPrivs 1" status_is "$P" NoNewPrivs 1
check "parser: root is the empty chroot" \
    test "$(readlink "/proc/$P/root")" = "$T/a.empty"
check "parser: only fds 0-3" test "$(ls "/proc/$P/fd" | sort | tr '\n' ' ')" = "0 1 2 3 "
check "parser: fds 0-2 are /dev/null" sh -c "for i in 0 1 2; do \
    [ \"\$(readlink /proc/$P/fd/\$i)\" = /dev/null ] || exit 1; done"
check "parser: fd 3 is a socket" sh -c "readlink /proc/$P/fd/3 | grep -q '^socket:'"
check "parser: argv" sh -c "tr '\\0' ' ' </proc/$P/cmdline | \
    grep -qx 'batsecd -P -d -u [^ ]* -r $T/a.empty '"
check "forwarder: CapEff is NET_ADMIN|NET_RAW" status_is "$FA" CapEff 0000000000003000
check "forwarder: CapPrm adds SETGID|SETUID|KILL|SETPCAP|SYS_CHROOT" \
    status_is "$FA" CapPrm 00000000000431e0
check "forwarder: Seccomp 2" status_is "$FA" Seccomp 2
check "state dir is 0700" test "$(stat -c %a "$T/a.state")" = 700
check "epoch file is 0600" test "$(stat -c %a "$T/a.state/epoch")" = 600
check "chroot dir was created root:root 0755" \
    test "$(stat -c '%U:%G %a' "$T/a.empty")" = "root:root 755"

# ---- frames reach the parser ---------------------------------------------------

# stats_after MARK NAME: a parser stats line with HELLOs after line MARK.
stats_after() {
	tail -n "+$(($1 + 1))" "$T/$2.log" |
	    grep -q 'parser stats: rx_frames [0-9]* rx_hello [1-9]'
}
lines() { wc -l <"$T/$1.log"; }

M=$(lines a)
ip netns exec "$NB" "$INJ" inject mesh0 hello 3 >/dev/null 2>&1
check "a: HELLOs from b reach the parser" wait_for 20 stats_after "$M" a
M=$(lines a)
ip netns exec "$NB" "$INJ" inject mesh0 junk 3 >/dev/null 2>&1
check "a: junk is counted as malformed" wait_for 20 sh -c \
    "tail -n +$((M + 1)) '$T/a.log' | grep -q 'drop_malformed [1-9]'"

# ---- stopped and continued (a debugger, job control) ---------------------------

# The parser sleeps in poll(2) with a timeout; after SIGSTOP and SIGCONT
# the kernel resumes that sleep with restart_syscall(2), which the seccomp
# filter must allow.
kill -STOP "$P"
sleep 0.5
kill -CONT "$P"
sleep 1
check "a: the parser survives SIGSTOP and SIGCONT" running "$P"

# ---- kill -9 of the parser -----------------------------------------------------

new_parser() { p=$(parser_of "$FA"); [ -n "$p" ] && [ "$p" != "$P" ]; }
kill -9 "$P"
check "a: a new parser within 2 s" wait_for 2 new_parser
check "a: the death was logged" wait_for 10 logged a "killed by signal SIGKILL"
check "a: forwarder still running" running "$FA"
check "a: batsec0 still up" tap_up "$NA"
check "a: the new parser is sandboxed too" wait_for 30 sandboxed "$FA"
P2=$(parser_of "$FA")
M=$(lines a)
ip netns exec "$NB" "$INJ" inject mesh0 hello 2 >/dev/null 2>&1
check "a: the new parser gets frames" wait_for 20 stats_after "$M" a

# ---- a parser that stops answering (hung, or a stopped process) ----------------

# The forwarder's heartbeat (batsecd(8), PRIVILEGE SEPARATION): a parser
# that leaves one unanswered for 3 intervals of 2 s is killed and a new
# one started.
silent_kills() {
	"$CTL" -s "$T/a.sock" -j stats 2>/dev/null |
	    grep -q '"parser_silent":1[,}]' &&
	"$CTL" -s "$T/a.sock" -j status 2>/dev/null |
	    grep -q '"parser_silent":1[,}]'
}
new_parser2() { p=$(parser_of "$FA"); [ -n "$p" ] && [ "$p" != "$P2" ]; }
kill -STOP "$P2"
check "a: a stopped parser is replaced within 12 s" wait_for 12 new_parser2
check "a: for not answering the heartbeat" \
    logged a "no answer to heartbeat [0-9]* for 6000 ms; killing it"
check "a: counted as parser_silent (stats, status)" wait_for 5 silent_kills
check "a: the replacement is sandboxed" wait_for 30 sandboxed "$FA"
P2=$(parser_of "$FA")	# the parser the reloads below must leave alone

# ---- interfaces that come late, go, and come back -------------------------------

check "b: late0 is awaited" logged b "late0 does not exist (yet)"
ip -n "$NB" link add late0 type veth peer name late1
ip -n "$NB" link set late0 up
ip -n "$NB" link set late1 up
check "b: late0 is picked up" wait_for 20 logged b "mesh interface late0 (ifindex [0-9]*) present"
M=$(lines b)
ip netns exec "$NB" "$INJ" inject late1 hello 2 >/dev/null 2>&1
check "b: frames on late0 reach the parser" wait_for 20 stats_after "$M" b

M=$(lines a)
ip -n "$NA" link del mesh0
check "a: deletion noticed" wait_for 20 logged a "mesh interface mesh0 (ifindex [0-9]*) was deleted"
ip -n "$NA" link add mesh0 type veth peer name mesh0 netns "$NB"
ip -n "$NA" link set mesh0 up
ip -n "$NB" link set mesh0 up
check "a: re-created mesh0 is used again" wait_for 20 sh -c \
    "tail -n +$((M + 1)) '$T/a.log' | grep -q 'mesh interface mesh0 (ifindex [0-9]*) present'"
check "a: re-created mesh0 raised to 1630" wait_for 20 mtu_is "$NA" mesh0 1630
M=$(lines a)
ip netns exec "$NB" "$INJ" inject mesh0 hello 2 >/dev/null 2>&1
check "a: frames on the re-created mesh0 reach the parser" \
    wait_for 20 stats_after "$M" a
check "a: still running after the interface churn" running "$FA"

# ---- SIGHUP ------------------------------------------------------------------------

kill -HUP "$FA"
check "a: SIGHUP reloads the policy" wait_for 20 logged a "policy $T/policy reloaded"
check "a: running after SIGHUP" running "$FA"
cp "$T/policy" "$T/policy.good"
echo "mode sometimes" >>"$T/policy"
kill -HUP "$FA"
check "a: a bad policy keeps the old one" wait_for 20 logged a "keeping the old policy"
check "a: running after a bad policy" running "$FA"
cp "$T/policy.good" "$T/policy"
echo "hop-penalty 12" >>"$T/a.conf"
echo "link-rekey 20" >>"$T/a.conf"
kill -HUP "$FA"
check "a: fixed settings are reported" wait_for 20 logged a "link-rekey cannot change"
check "a: runtime settings apply" wait_for 20 logged a "reload: hop-penalty 12 (was 30)"
check "a: running after a config change" running "$FA"
check "a: parser untouched by reloads" test "$(parser_of "$FA")" = "$P2"

# The interface list can change at run time.
sed 's/^interface mesh0$/interface extra0/' "$T/a.conf" >"$T/a.conf.new"
mv "$T/a.conf.new" "$T/a.conf"
M=$(lines a)
kill -HUP "$FA"
check "a: SIGHUP drops an interface no longer configured" wait_for 20 sh -c \
    "tail -n +$((M + 1)) '$T/a.log' | grep -q 'mesh0 (ifindex [0-9]*) is no longer configured'"
check "a: SIGHUP awaits a new interface" wait_for 20 sh -c \
    "tail -n +$((M + 1)) '$T/a.log' | grep -q 'extra0 does not exist (yet)'"
sed 's/^interface extra0$/interface mesh0/' "$T/a.conf" >"$T/a.conf.new"
mv "$T/a.conf.new" "$T/a.conf"
M=$(lines a)
kill -HUP "$FA"
check "a: SIGHUP takes an interface back" wait_for 20 sh -c \
    "tail -n +$((M + 1)) '$T/a.log' | grep -q 'mesh interface mesh0 (ifindex [0-9]*) present'"
M=$(lines a)
ip netns exec "$NB" "$INJ" inject mesh0 hello 2 >/dev/null 2>&1
check "a: frames flow again after the reload" wait_for 20 stats_after "$M" a

# ---- SIGTERM -----------------------------------------------------------------------

# The TAP's MAC: derived from the node key (stable), locally administered
# and unicast (first octet & 3 == 2).
mac_of() {
	ip -n "$1" -o link show batsec0 2>/dev/null |
	    sed -n 's|.*link/ether \([0-9a-f:]*\) .*|\1|p'
}
MAC1=$(mac_of "$NA")
check "a: TAP MAC is locally administered unicast" \
    test $(( 0x${MAC1%%:*} & 3 )) -eq 2
check "a: TAP MAC is not the MAC of another node" \
    test "$MAC1" != "$(mac_of "$NB")"

E1=$(cat "$T/a.state/epoch")
stop "$FA"
check "a: SIGTERM: exit status 0" test "$RC" -eq 0
check "a: batsec0 is gone" tap_gone "$NA"
check "a: the parser is gone" sh -c "! kill -0 $P2 2>/dev/null"
# A parser that does not go away on its own (frozen here) is killed at
# shutdown: the forwarder (uid 0) needs CAP_KILL for a parser of
# another user, and would otherwise wait for it forever.
PB=$(parser_of "$FB")
kill -STOP "$PB"
stop "$FB"
check "b: SIGTERM with a frozen parser: exit status 0" test "$RC" -eq 0
check "b: the frozen parser was killed" sh -c "! kill -0 $PB 2>/dev/null"
check "b: batsec0 is gone" tap_gone "$NB"

# ---- a restart uses a higher epoch -----------------------------------------------------

start "$NA" a
check "a: restarts" wait_for 20 tap_up "$NA"
check "a: the epoch went up" sh -c "[ \$(cat '$T/a.state/epoch') -gt $E1 ]"
check "a: the TAP MAC survives a restart" test "$(mac_of "$NA")" = "$MAC1"
check "a: parser of the second run" wait_for 30 sandboxed "$PID"

# Someone deletes the TAP: nothing left to serve, exit 1.
ip -n "$NA" link del batsec0
if wait_for 30 sh -c "! kill -0 $PID 2>/dev/null"; then
	wait "$PID"
	RC=$?
else
	kill -9 "$PID"
	RC=255
fi
check "a: a deleted TAP ends batsecd with status 1" test "$RC" -eq 1
check "a: and says why" logged a "TAP interface batsec0 was deleted"

# ---- daemonising ----------------------------------------------------------------------

conf c nothere0
ip netns exec "$NC" "$D" -c "$T/c.conf" >"$T/c.out" 2>&1
check "without -f the command returns 0" test $? -eq 0
check "c: the daemon runs" wait_for 20 tap_up "$NC"
DC=$(pgrep -f "^$D -c $T/c.conf\$" | head -n 1)
if [ -n "$DC" ]; then
	track_pid "$DC"
	check "c: detached (session leader of its own)" \
	    test "$(ps -o sid= -p "$DC" | tr -d ' ')" = "$DC"
	kill -TERM "$DC"
	check "c: stops on SIGTERM" wait_for 20 sh -c "! kill -0 $DC 2>/dev/null"
	check "c: batsec0 is gone" wait_for 10 tap_gone "$NC"
else
	fail "c: daemon process found"
fi

# ---- configuration errors -----------------------------------------------------------------

# bad NAME EXPECT: batsecd on $T/bad.conf must exit 1 with one line
# containing EXPECT and leave no TAP behind.
bad() {
	ip netns exec "$NC" "$D" -f -d -c "$T/bad.conf" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] &&
	    grep -q -- "$2" "$T/bad.err" && tap_gone "$NC"; then
		pass "config error: $1"
	else
		fail "config error: $1 (exit $rc: $(head -n 2 "$T/bad.err"))"
	fi
}
conf c mesh0
cp "$T/c.conf" "$T/bad.conf"
echo "hop-penalty 300" >>"$T/bad.conf"
bad "value out of range names file:line" \
    "$T/bad.conf:$(wc -l <"$T/bad.conf" | tr -d ' '):"
conf c mesh0
sed "s|^key .*|key $T/missing.key|" "$T/c.conf" >"$T/bad.conf"
bad "missing key" "missing.key"
cp "$T/a.key" "$T/loose.key"
chmod 644 "$T/loose.key"
sed "s|^key .*|key $T/loose.key|" "$T/c.conf" >"$T/bad.conf"
bad "key readable by others" "loose.key"
ln -s "$T/a.key" "$T/link.key"
sed "s|^key .*|key $T/link.key|" "$T/c.conf" >"$T/bad.conf"
bad "key through a symbolic link" "link.key: is a symbolic link"
cp "$T/policy" "$T/loose.policy"
chmod 664 "$T/loose.policy"
sed "s|^policy .*|policy $T/loose.policy|" "$T/c.conf" >"$T/bad.conf"
bad "policy writable by group" "loose.policy: writable by group or others"
# A state directory on tmpfs with the clock in 1970: t_epoch_wait.sh.
sed "s|^policy .*|policy $T/missing.policy|" "$T/c.conf" >"$T/bad.conf"
bad "missing policy" "missing.policy"
echo "mode sometimes" >"$T/bad.policy"
sed "s|^policy .*|policy $T/bad.policy|" "$T/c.conf" >"$T/bad.conf"
bad "bad policy names file:line" "bad.policy:1"
mkdir -p "$T/notempty"
touch "$T/notempty/file"
sed "s|^chroot .*|chroot $T/notempty|" "$T/c.conf" >"$T/bad.conf"
bad "chroot not empty" "notempty"
grep -v '^interface' "$T/c.conf" >"$T/bad.conf"
bad "no interface" "interface"
ip netns exec "$NC" "$D" -f -x >/dev/null 2>"$T/bad.err"
check "unknown option: exit 1" test $? -eq 1
check "unknown option: one line" test "$(wc -l <"$T/bad.err")" -eq 1
ip netns exec "$NC" "$D" -P >/dev/null 2>&1 3>&-
check "-P by hand is refused" test $? -ne 0
check "-V prints the version" sh -c "'$D' -V | grep -q '^batsecd [0-9]'"

finish
