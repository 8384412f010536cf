# tests/lib.sh — helpers for the shell tests (sourced).
#
# Each assertion prints one line "PASS: name" or "FAIL: name"; tests/run
# counts them.  Network-namespace tests make uniquely named namespaces with
# ns_add, which registers them for removal by the EXIT trap.

TEST_TAG="bs$$"
TEST_FAILS=0
# Namespaces, pids and temp dirs are registered in a file, so helpers
# called as $(ns_add x) or $(mktmp) (a subshell) still get cleaned up.
_reg=$(mktemp "${TMPDIR:-/tmp}/batsec-reg.XXXXXX") || exit 1

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; TEST_FAILS=$((TEST_FAILS + 1)); }
# check NAME CMD...: PASS if CMD succeeds.
check() {
	name=$1; shift
	if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name"; fi
}
# check_not NAME CMD...: PASS if CMD fails.
check_not() {
	name=$1; shift
	if "$@" >/dev/null 2>&1; then fail "$name"; else pass "$name"; fi
}
# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	t=$(( $1 * 10 )); shift
	while [ "$t" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1; t=$((t - 1))
	done
	return 1
}

need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: $(basename "$0") needs root (network namespaces)"
		exit 0
	fi
}

mktmp() {
	d=$(mktemp -d "${TMPDIR:-/tmp}/batsec-test.XXXXXX") || return 1
	echo "dir $d" >>"$_reg"
	echo "$d"
}

# syntax_pass TOOL PACKAGE TARGET NAME: PASS NAME when `make TARGET` (a
# compiler run over the tree) succeeds, with the first errors otherwise;
# a FAIL and the end of the test when TOOL is missing.
syntax_pass() {
	if ! command -v "$1" >/dev/null 2>&1; then
		fail "$1 installed (Debian package $2; make deps)"
		finish
	fi
	out=$(make -C "$TOP" --no-print-directory -s B="${B:-build}" "$3" 2>&1)
	if [ $? -eq 0 ]; then
		pass "$4"
	else
		fail "$4"
		echo "$out" | grep -E 'error|^[a-z-]+: [^ ]+\.c$' | head -n 20
	fi
}

# ns_add NAME: creates namespace "$TEST_TAG-NAME", echoes its full name.
ns_add() {
	n="$TEST_TAG-$1"
	ip netns add "$n" || return 1
	echo "ns $n" >>"$_reg"
	ip -n "$n" link set lo up
	echo "$n"
}

# gen_wire_build TOP B OUT: fuzz/gen_wire.c (the wire codec's own frames)
# built as the program OUT against the libraries of the build B (absolute),
# tests/lib included, under the sanitizers when B is a build-san.
gen_wire_build() {
	_san=
	case $2 in *-san) _san="-fsanitize=address,undefined" ;; esac
	${CC:-cc} -std=gnu11 -D_GNU_SOURCE $_san -I"$1/src" -I"$1/crypto" \
	    -I"$1/keys" -I"$1/policy" -I"$1/tests" -o "$3" \
	    "$1/fuzz/gen_wire.c" "$2/tests/lib/libtest.a" "$2/libbatsec.a" \
	    "$2/libbatsec_policy.a" "$2/libbatsec_keys.a" \
	    "$2/libbatsec_crypto.a" $(pkg-config --libs libsodium)
}

# track_pid PID: a process this test started, killed at exit.
track_pid() { echo "pid $1" >>"$_reg"; }

_registered() { sed -n "s/^$1 //p" "$_reg" 2>/dev/null; }

cleanup() {
	_pids=$(_registered pid)
	for p in $_pids; do kill "$p" 2>/dev/null; done
	for p in $_pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 30 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	for n in $(_registered ns); do ip netns del "$n" 2>/dev/null; done
	for d in $(_registered dir); do rm -rf "$d"; done
	rm -f "$_reg"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# finish: exit status from the assertions made.
finish() { [ "$TEST_FAILS" -eq 0 ]; exit $?; }

B=${B:-build}
TOP=$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)
