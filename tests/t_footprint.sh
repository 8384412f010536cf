#!/bin/sh
# t_footprint.sh — `make footprint` (bench/footprint) at a tiny size: one
# batsecd among 4 simulated nodes for a few seconds, every step.  Checks
# only that each measure is printed (the daemon reached every simulated
# node, a data frame went into the mesh, callgrind counted something):
# the numbers themselves depend on nothing this test controls and are
# not judged here.  Skipped under sanitizer builds (valgrind does not run
# ASan binaries) and without root or valgrind.
. "$(dirname "$0")/lib.sh"

need_root
cd "$TOP" || exit 1
case $B in
build-san|*-san|*/build-san)
	echo "SKIP: t_footprint under a sanitizer build (valgrind)"
	exit 0 ;;
esac
for t in valgrind callgrind_control callgrind_annotate ip python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "SKIP: t_footprint needs $t"
		exit 0
	fi
done
D=$(mktmp)
if ! make --no-print-directory -s B="$B" "$B/bench/sim/batsec-sim" \
    "$B/bench/fp_noseccomp.so" "$B/batsecd" "$B/batsec-ctl" >/dev/null; then
	fail "the footprint programs build"
	finish
fi
pass "the footprint programs build"
# The mipsel count (qemu-user, about 20 s) is left out: no sysroot.
FP_NODES=5 FP_K=2 FP_SETTLE=1 FP_IDLE=3 FP_FRAMES=40 FP_SIM_WIN=1 \
    FP_MIPS_SYSROOT=/nonexistent B="$B" bench/footprint >"$D/out" \
    2>"$D/err"
rc=$?
check "bench/footprint exits 0" test "$rc" = 0
row() {
	check "prints: $1" grep -Eq "^footprint: $2" "$D/out"
}
row "the memory of the forwarder" "memory forwarder VmRSS [0-9]+ kB VmHWM [0-9]+ kB"
row "the memory of the parser" "memory parser VmRSS [0-9]+ kB VmHWM [0-9]+ kB"
row "all 4 originators" "originators 4$"
row "the native CPU time" "native_cpu forwarder [0-9.]+ % parser [0-9.]+ %"
row "the forwarder's idle instructions" "forwarder idle [1-9][0-9]* instructions/s"
row "the forwarder's data frames" "forwarder data [1-9][0-9]* of 40 datagrams"
row "the parser core's instructions" "parser core [1-9][0-9]* instructions per node and second"
row "one Ed25519 verification on x86-64" "ed25519 verify x86-64 [1-9][0-9]* instructions"
row "the end" "done$"
if [ "$TEST_FAILS" -gt 0 ]; then
	sed 's/^/    /' "$D/out" "$D/err"
fi
finish
