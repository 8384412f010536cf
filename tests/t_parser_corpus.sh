#!/bin/sh
# t_parser_corpus.sh — the real sandboxed parser process (batsecd -P,
# started the way the forwarder starts it) over the frames of captures:
# the four that tests/pcap/mkpcap.py builds (valid, bad, truncated,
# mutants) and every committed tests/pcap/*.pcap.  mkpcap.py gets the
# frames of fuzz/gen_wire.c, built here against the libraries in $B, and
# not fuzz/corpus/wire: corpus minimisation may replace the generator's
# frames there with smaller fuzzer-made ones, which mkpcap.py cannot use.
#
# The work is done by $B/tests/check_parser_proc, whose other cases make
# check runs over fuzz/corpus/wire and fuzz/corpus/pcore.  Its "pcap" case
# enters the forwarder's sandbox, spawns the parser with fwd_parser_spawn
# (channel on fd 3, chroot, user nobody, seccomp), sends CONFIG, a policy
# and an interface, then every batsec frame of the capture as a received
# FRAME, and handles what the parser answers with the forwarder's own
# checks.  It passes when the parser is still running and sandboxed,
# counted every frame (STATS rx_frames), sent nothing the forwarder
# refused, and exits with status 0 at EOF.  A parser killed by SIGSYS
# (a system call its seccomp filter does not allow) fails it, naming the
# capture and frame.  One PASS/FAIL line per capture.
. "$(dirname "$0")/lib.sh"
need_root

TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$TOP/$B ;; esac
DRV=$B/tests/check_parser_proc

check "the driver $DRV is built" test -x "$DRV"
check "batsecd is built" test -x "$B/batsecd"
[ -x "$DRV" ] && [ -x "$B/batsecd" ] || finish

D=$(mktmp) || { fail "mktmp"; finish; }

# feed NAME FILE: one run of the pcap case over FILE.
feed() {
	log=$D/$(echo "$1" | tr '/' '_').log
	BATSEC_PARSER_PCAP=$2 CK_RUN_CASE=pcap "$DRV" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] &&
	    grep -q '^100%: Checks: 1, Failures: 0, Errors: 0' "$log"; then
		got=$(sed -n 's/^pcap: \([0-9]* frames [a-z ,0-9]* on\);.*/\1/p' \
		    "$log")
		rx=$(sed -n 's/^pcap: .* rx_frames \([0-9]*\).*/\1/p' "$log")
		pass "parser survives $1: $got, rx_frames $rx"
	else
		fail "parser survives $1 (exit $rc)"
		grep -v 'parser started' "$log" | tail -n 15 | sed 's/^/      /'
	fi
}

# The wire codec's own frames: fuzz/gen_wire.c, as t_dissector.sh builds
# them.
mkdir -p "$D/seeds"
if ! gen_wire_build "$TOP" "$B" "$D/gen_wire" >"$D/cc.log" 2>&1; then
	fail "fuzz/gen_wire.c builds against $B: $(head -n 3 "$D/cc.log")"
elif ! "$D/gen_wire" "$D/seeds" >"$D/gen.log" 2>&1; then
	fail "gen_wire writes the frames: $(head -n 3 "$D/gen.log")"
elif ! command -v python3 >/dev/null 2>&1; then
	fail "python3 is available (tests/pcap/mkpcap.py needs it)"
elif python3 "$TOP/tests/pcap/mkpcap.py" "$D/seeds" "$D" \
    2>"$D/mkpcap.err"; then
	pass "mkpcap.py builds the captures from gen_wire's" \
	    "$(ls "$D/seeds" | wc -l) frames"
	for c in valid bad truncated mutants; do
		feed "$c.pcap" "$D/$c.pcap"
	done
else
	fail "mkpcap.py builds the captures: $(head -c 300 "$D/mkpcap.err")"
fi

for f in "$TOP"/tests/pcap/*.pcap; do
	[ -f "$f" ] || continue
	feed "tests/pcap/$(basename "$f")" "$f"
done

finish
