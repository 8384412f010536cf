#!/bin/sh
# t_epoch_wait.sh — the epoch on a node without a real-time clock: the
# real batsecd under libfaketime (package faketime), its state directory on
# tmpfs (/dev/shm) or on the test's TMPDIR, in a network namespace of its
# own.  batsecd(8) NO REAL-TIME CLOCK, batsec.conf(5) epoch-seed:
#   auto, clock in 1970, no epoch file, tmpfs: exit 1, one line naming the
#	fixes, nothing written, no TAP;
#   clock, clock in 1970, no epoch file: "waiting for the clock" logged
#	once, nothing written; SIGHUP ignored; SIGTERM and SIGINT: exit 0;
#   auto, clock in 2030, no epoch file, tmpfs: the epoch from the clock
#	(file and batsec-ctl status); started again with the clock back in
#	1970: that epoch + 1;
#   auto, clock in 1970, no epoch file, persistent storage: epoch 1;
#   none, clock in 1970, tmpfs: epoch 1.
. "$(dirname "$0")/lib.sh"
need_root

case $B in /*) ;; *) B=$TOP/$B ;; esac
D=$B/batsecd
CTL=$B/batsec-ctl
for f in "$D" "$CTL"; do
	[ -x "$f" ] || { fail "built: $f"; finish; }
done
# libfaketime itself, preloaded by env(1): the faketime(1) wrapper
# stays as the parent of what it runs, and the signals are for batsecd.
FT=
for f in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
	[ -f "$f" ] && FT=$f && break
done
if [ -z "$FT" ]; then
	fail "libfaketime is installed (package faketime, make deps)"
	finish
fi
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ]; then
	echo "SKIP: $(basename "$0"): /dev/shm is no tmpfs"
	exit 0
fi
# libfaketime is preloaded into an ASan build: the runtime must not
# insist on coming first.
case $B in *-san) ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	export ASAN_OPTIONS ;;
esac

T=$(mktmp)
T=$(cd "$T" && pwd -P)
# The state directories on tmpfs, removed by lib.sh's cleanup like $T.
SHM=$(mktemp -d /dev/shm/batsec-epoch.XXXXXX) || { fail "mktemp"; finish; }
echo "dir $SHM" >>"$_reg"
# The daemons' logs, kept after the test: $L.NAME.log.
L=$B/test-logs/t_epoch_wait
mkdir -p "$B/test-logs"
rm -f "$L".*.log
NS=$(ns_add e) || { fail "namespace"; finish; }

"$CTL" key generate -o "$T/n.key" >/dev/null 2>&1 ||
    { fail "batsec-ctl key generate"; finish; }
echo "mode allowlist" >"$T/policy"

# conf NAME STATE-DIR [EPOCH-SEED]: a configuration, $T/NAME.conf.
conf() {
	{
		echo "interface mesh0"	# never appears: not needed here
		echo "key $T/n.key"
		echo "policy $T/policy"
		echo "socket $T/$1.sock"
		echo "state-dir $2"
		[ -n "$3" ] && echo "epoch-seed $3"
		echo "chroot $T/empty"
		echo "log-level info"
	} >"$T/$1.conf"
	chmod 644 "$T/$1.conf"
}
# run FAKETIME NAME: batsecd in the foreground with the clock at
# FAKETIME (libfaketime's syntax, "@": it starts there and runs on), log in
# $L.NAME.log, pid in $PID.
run() {
	ip netns exec "$NS" env LD_PRELOAD="$FT" FAKETIME="$1" \
	    "$D" -f -d -c "$T/$2.conf" >>"$L.$2.log" 2>&1 &
	PID=$!
	track_pid "$PID"
}
running() { kill -0 "$1" 2>/dev/null; }
logged() { grep -q -- "$2" "$L.$1.log"; }
tap_up() { ip -n "$NS" link show batsec0 2>/dev/null | grep -q '[<,]UP[,>]'; }
tap_gone() { ! ip -n "$NS" link show batsec0 >/dev/null 2>&1; }
# stop PID SIGNAL: its exit status in $RC (255: did not exit).
stop() {
	kill "-$2" "$1"
	if wait_for 60 sh -c "! kill -0 $1 2>/dev/null"; then
		wait "$1"
		RC=$?
	else
		kill -9 "$1"
		RC=255
	fi
}
epoch_of() { cat "$1/epoch" 2>/dev/null; }
Y1970="@1970-01-01 00:00:10"
Y2030="@2030-01-01 00:00:00"
S2030=1893456000		# date -u -d 2030-01-01 +%s
if [ "$(env LD_PRELOAD="$FT" FAKETIME="$Y1970" date -u +%Y)" != 1970 ]; then
	fail "libfaketime: date says 1970"
	finish
fi

# ---- auto, no clock, tmpfs: refused -------------------------------------------

conf refuse "$SHM/refuse"
run "$Y1970" refuse
wait_for 60 sh -c "! kill -0 $PID 2>/dev/null"
wait "$PID"
RC=$?
check "auto, 1970, tmpfs: exit 1" test "$RC" -eq 1
check "auto, 1970, tmpfs: one line" test "$(wc -l <"$L.refuse.log")" -eq 1
check "auto, 1970, tmpfs: says tmpfs" logged refuse "is on tmpfs or ramfs"
check "auto, 1970, tmpfs: says the clock" logged refuse "1970-01-01"
check "auto, 1970, tmpfs: names persistent storage" \
    logged refuse "persistent storage"
check "auto, 1970, tmpfs: names epoch-seed clock" logged refuse \
    "epoch-seed clock"
check "auto, 1970, tmpfs: names epoch-seed none" logged refuse \
    "epoch-seed none"
check "auto, 1970, tmpfs: no epoch written" test ! -e "$SHM/refuse/epoch"
check "auto, 1970, tmpfs: no TAP" tap_gone

# ---- clock, no clock: waits; SIGHUP ignored, SIGTERM/SIGINT exit 0 ---------

conf wait "$SHM/wait" clock
for sig in TERM INT; do
	: >"$L.wait.log"
	run "$Y1970" wait
	P=$PID
	check "clock, 1970 ($sig): waiting for the clock" \
	    wait_for 60 logged wait "waiting for the clock"
	check "clock, 1970 ($sig): the log names the clock" \
	    logged wait "clock reads 1970-01-01"
	# Three more looks at the clock (one a second) are not logged again.
	sleep 3
	check "clock, 1970 ($sig): still waiting" running "$P"
	check "clock, 1970 ($sig): logged once" \
	    test "$(grep -c "waiting for the clock" "$L.wait.log")" -eq 1
	check "clock, 1970 ($sig): no epoch written" test ! -e "$SHM/wait/epoch"
	check "clock, 1970 ($sig): no TAP" tap_gone
	if [ "$sig" = TERM ]; then
		kill -HUP "$P"
		sleep 1
		check "clock, 1970: SIGHUP while waiting is ignored" running "$P"
	fi
	stop "$P" "$sig"
	check "clock, 1970: SIG$sig: exit 0" test "$RC" -eq 0
	check "clock, 1970: SIG$sig: says so" \
	    logged wait "SIG$sig while waiting for the clock: exiting"
	check "clock, 1970: SIG$sig: still no epoch" test ! -e "$SHM/wait/epoch"
done

# ---- auto, a plausible clock, tmpfs: the epoch from the clock ---------------

conf seed "$SHM/seed"
run "$Y2030" seed
P=$PID
check "auto, 2030, tmpfs: batsec0 is up" wait_for 60 tap_up
E=$(epoch_of "$SHM/seed")
check "auto, 2030, tmpfs: epoch from the clock ($E)" \
    test "${E:-0}" -ge "$S2030" -a "${E:-0}" -le $((S2030 + 600))
check "auto, 2030, tmpfs: logged" logged seed "epoch $E from the clock"
check "auto, 2030, tmpfs: batsec-ctl status shows it" sh -c \
    "'$CTL' -s '$T/seed.sock' status | grep -q '$E'"
stop "$P" TERM
check "auto, 2030, tmpfs: SIGTERM: exit 0" test "$RC" -eq 0
# The same boot, restarted with the clock back in 1970: counted up.
run "$Y1970" seed
P=$PID
check "auto, 1970, epoch file on tmpfs: starts" wait_for 60 tap_up
check "auto, 1970, epoch file on tmpfs: epoch + 1" \
    test "$(epoch_of "$SHM/seed")" = "$((E + 1))"
stop "$P" TERM
check "auto, 1970, epoch file on tmpfs: SIGTERM: exit 0" test "$RC" -eq 0

# ---- auto, no clock, persistent storage; none, no clock, tmpfs: 1 -----------

if [ "$(stat -f -c %T "$T")" != tmpfs ] &&
    [ "$(stat -f -c %T "$T")" != ramfs ]; then
	conf first "$T/first"
	run "$Y1970" first
	P=$PID
	check "auto, 1970, persistent: starts" wait_for 60 tap_up
	check "auto, 1970, persistent: epoch 1" \
	    test "$(epoch_of "$T/first")" = 1
	check "auto, 1970, persistent: logged" logged first \
	    "epoch 1 (no plausible clock; a new key)"
	stop "$P" TERM
	check "auto, 1970, persistent: SIGTERM: exit 0" test "$RC" -eq 0
else
	echo "note: TMPDIR is on tmpfs: auto on persistent storage not run"
fi
conf none "$SHM/none" none
run "$Y1970" none
P=$PID
check "none, 1970, tmpfs: starts" wait_for 60 tap_up
check "none, 1970, tmpfs: epoch 1" test "$(epoch_of "$SHM/none")" = 1
check "none, 1970, tmpfs: logged" logged none "epoch 1 (epoch-seed none)"
stop "$P" TERM
check "none, 1970, tmpfs: SIGTERM: exit 0" test "$RC" -eq 0

finish
