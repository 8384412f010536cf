#!/bin/sh
# t_install.sh — `make install` and `make uninstall` into temporary
# DESTDIRs: every file lands where it should with its mode, even under
# umask 077; the unit gets the real paths and its hardening; the
# sysusers.d and tmpfiles.d snippets do what the unit relies on (applied
# to a scratch root, never to this machine); an existing batsec.conf
# survives a second install; PREFIX, SYSCONFDIR, MANDIR and
# SYSTEMDUNITDIR are honoured; uninstall removes what install added and
# nothing else.  `systemd-analyze verify` and `security` check the
# installed unit when systemd-analyze exists (else those parts print
# SKIP).  Needs no root and no network namespace.
. "$(dirname "$0")/lib.sh"

D=$(mktmp)
case $B in /*) ;; *) B=$TOP/$B ;; esac
SAN=0
case $B in *-san) SAN=1 ;; esac

# mk VAR=VALUE... TARGET: make in the top directory under umask 077, in
# the build flavour of $B; the output goes to $D/make.log.  MAKEFLAGS of
# an outer `make check` (jobs, variables) must not leak in.
mk() {
	(umask 077; cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make --no-print-directory SANITIZE=$SAN "$@") >"$D/make.log" 2>&1
}

R=$D/root
if mk DESTDIR="$R" PREFIX=/usr install; then
	pass "make install DESTDIR=... PREFIX=/usr"
else
	fail "make install DESTDIR=... PREFIX=/usr: $(tail -n 3 "$D/make.log")"
	finish
fi

# ---- every file, with its mode --------------------------------------------

# want MODE PATH [SOURCE]: PATH (below $R) is a regular file of exactly
# MODE, owned by us, with SOURCE's content when given.
want() {
	f=$R$2
	if [ ! -f "$f" ]; then
		fail "$2 installed"
	elif [ "$(stat -c %a "$f")" != "$1" ]; then
		fail "$2 has mode $1 (has $(stat -c %a "$f"))"
	elif [ -n "${3:-}" ] && ! cmp -s "$f" "$3"; then
		fail "$2 is a copy of $3"
	else
		pass "$2 installed, mode $1"
	fi
	echo "$2" >>"$D/expected"
}

: >"$D/expected"
want 755 /usr/sbin/batsecd "$B/batsecd"
want 755 /usr/bin/batsec-ctl "$B/batsec-ctl"
for m in "$TOP"/man/*.[1-8]; do
	[ -f "$m" ] || continue
	p=${m##*/}
	want 644 "/usr/share/man/man${p##*.}/$p" "$m"
done
want 644 /etc/batsec/batsec.conf.example "$TOP/contrib/batsec.conf.example"
want 644 /etc/batsec/batsec.conf "$TOP/contrib/batsec.conf.example"
for p in "$TOP"/policy/examples/*.policy; do
	want 644 "/usr/share/batsec/examples/${p##*/}" "$p"
done
want 644 /usr/share/batsec/batsec.lua "$TOP/contrib/batsec.lua"
want 644 /usr/lib/systemd/system/batsecd.service
want 644 /usr/lib/sysusers.d/batsec.conf "$TOP/contrib/batsec.sysusers"
want 644 /usr/lib/tmpfiles.d/batsec.conf "$TOP/contrib/batsec.tmpfiles"

LC_ALL=C sort "$D/expected" >"$D/expected.sorted"
extra=$(cd "$R" && find . -type f | sed 's/^\.//' | LC_ALL=C sort |
    LC_ALL=C comm -23 - "$D/expected.sorted" | tr '\n' ' ')
if [ -z "$extra" ]; then pass "nothing else is installed"; else
	fail "unexpected files installed: $extra"; fi
baddirs=$(cd "$R" && find . -type d ! -perm 755 | head -n 5)
if [ -z "$baddirs" ]; then pass "every directory has mode 755"; else
	fail "directories not 755 under umask 077: $baddirs"; fi

# ---- the unit --------------------------------------------------------------

U=$R/usr/lib/systemd/system/batsecd.service
if grep -q '@[A-Z]*@' "$U"; then
	fail "unit: no @PLACEHOLDER@ left: $(grep '@[A-Z]*@' "$U")"
else pass "unit: every placeholder substituted"; fi

# Each line must appear exactly (the directive and its whole value).
while IFS= read -r line; do
	[ -n "$line" ] || continue
	if grep -qxF -- "$line" "$U"; then pass "unit: $line"; else
		fail "unit lacks '$line' (has: $(grep "^${line%%=*}=" "$U"))"; fi
done <<'EOF'
ExecStart=/usr/sbin/batsecd -f -c /etc/batsec/batsec.conf
ExecReload=/bin/kill -HUP $MAINPID
Restart=on-failure
CapabilityBoundingSet=CAP_NET_ADMIN CAP_NET_RAW CAP_SETUID CAP_SETGID CAP_SYS_CHROOT CAP_SETPCAP CAP_KILL CAP_BPF CAP_PERFMON
AmbientCapabilities=
NoNewPrivileges=yes
RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_PACKET
ProtectSystem=strict
ProtectHome=yes
DevicePolicy=closed
DeviceAllow=/dev/net/tun rw
SystemCallArchitectures=native
StateDirectory=batsec
RuntimeDirectory=batsec
ConfigurationDirectory=batsec
ReadWritePaths=/etc/batsec
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
RestrictNamespaces=yes
UMask=0077
WantedBy=multi-user.target
EOF
# PrivateDevices= would hide /dev/net/tun; User= would take the root the
# parser's privilege drop needs.
for key in PrivateDevices User DynamicUser; do
	if grep -q "^$key=" "$U"; then fail "unit: no $key= ($(grep "^$key=" \
	    "$U"))"; else pass "unit: no $key="; fi
done

# The man pages the unit names are installed.
for doc in $(sed -n 's/^Documentation=//p' "$U"); do
	page=${doc#man:}
	name=${page%(*}
	sec=${page#*(}
	sec=${sec%)}
	if [ -f "$R/usr/share/man/man$sec/$name.$sec" ]; then
		pass "unit documentation $doc is installed"
	else
		fail "unit documentation $doc is installed (no" \
		    "man/$name.$sec in the tree)"
	fi
done

if command -v systemd-analyze >/dev/null 2>&1; then
	# verify checks that ExecStart= is executable: point it at the
	# binary under DESTDIR, leave every other line as installed.
	mkdir -p "$D/verify"
	sed "s|^ExecStart=/usr/sbin/|ExecStart=$R/usr/sbin/|" "$U" \
	    >"$D/verify/batsecd.service"
	if out=$(systemd-analyze verify --man=no "$D/verify/batsecd.service" \
	    2>&1) && [ -z "$out" ]; then
		pass "systemd-analyze verify: unit is clean"
	else
		fail "systemd-analyze verify: $out"
	fi
	# The exposure score may not creep up (2.9 when written; 10 = none).
	if systemd-analyze security --offline=true --threshold=35 \
	    "$D/verify/batsecd.service" >"$D/security.log" 2>&1; then
		pass "systemd-analyze security: $(tail -n 1 "$D/security.log")"
	else
		fail "systemd-analyze security: exposure above 3.5:" \
		    "$(tail -n 1 "$D/security.log")"
	fi
else
	echo "SKIP: systemd-analyze not installed: unit not verified" \
	    "(package systemd)"
fi

# ---- sysusers.d and tmpfiles.d, applied to a scratch root -----------------

S=$D/scratch
mkdir -p "$S/etc"

# The parser's user (batsecd's default) and the control socket's group,
# as the daemon has them.
PU=$(sed -n 's/^#define BS_CONF_DEF_USER[[:space:]]*"\(.*\)"$/\1/p' \
    "$TOP/src/common/config.h")
CG=$(sed -n 's/^#define CONTROL_GROUP[[:space:]]*"\(.*\)"$/\1/p' \
    "$TOP/src/forwarder/control.h")

# sysusers_groups: in $S, the control group exists; the parser's user is
# neither in it by its primary group nor as a listed member.
sysusers_groups() {
	local cg pgid
	cg=$(grep "^$CG:" "$S/etc/group")
	pgid=$(grep "^$PU:" "$S/etc/passwd" | cut -d: -f4)
	if [ -n "$cg" ]; then
		pass "sysusers.d: the control socket's group $CG ($cg)"
	else
		fail "sysusers.d: the control socket's group $CG exists"
	fi
	if [ -n "$cg" ] && [ -n "$pgid" ] &&
	    [ "$pgid" != "$(echo "$cg" | cut -d: -f3)" ] &&
	    ! echo "$cg" | cut -d: -f4 | tr ',' '\n' | grep -qx "$PU"; then
		pass "sysusers.d: the parser's user $PU (gid $pgid) is not in" \
		    "group $CG"
	else
		fail "sysusers.d: the parser's user $PU (gid $pgid) is not in" \
		    "group $CG ($cg)"
	fi
}

# The documentation names the same user and group.
# after_line FILE LINE: the line that follows LINE in FILE.
after_line() { awk -v l="$2" 'f { print; exit } $0 == l { f = 1 }' "$1"; }
if [ "$(after_line "$TOP/man/batsecd.8" \
    "It is created mode 0660, group")" = ".Ql $CG ," ] &&
    [ "$(after_line "$TOP/man/batsec-ctl.8" \
    "The socket is created with mode 0660, owner root and group")" = \
    ".Li $CG" ] &&
    grep -qx "#user $PU" "$TOP/contrib/batsec.conf.example"; then
	pass "batsecd(8), batsec-ctl(8) and batsec.conf.example name group" \
	    "$CG and user $PU"
else
	fail "batsecd(8), batsec-ctl(8) and batsec.conf.example name group" \
	    "$CG and user $PU"
fi
if command -v systemd-sysusers >/dev/null 2>&1; then
	if systemd-sysusers --root="$S" "$R/usr/lib/sysusers.d/batsec.conf" \
	    >"$D/sysusers.log" 2>&1; then
		pw=$(grep '^batsec:' "$S/etc/passwd")
		gr=$(grep '^batsec:' "$S/etc/group")
		home=$(echo "$pw" | cut -d: -f6)
		shell=$(echo "$pw" | cut -d: -f7)
		uid=$(echo "$pw" | cut -d: -f3)
		case $shell in */nologin|*/false) nologin=1 ;; *) nologin=0 ;; esac
		if [ -n "$pw" ] && [ -n "$gr" ] && [ "$uid" != 0 ] &&
		    [ "$home" = /var/empty ] && [ $nologin = 1 ]; then
			pass "sysusers.d: user and group batsec, no login ($pw)"
		else
			fail "sysusers.d: user batsec: '$pw', group '$gr'"
		fi
		sysusers_groups
	else
		fail "systemd-sysusers accepts the snippet: $(cat \
		    "$D/sysusers.log")"
	fi
else
	echo "SKIP: systemd-sysusers not installed: sysusers.d not applied"
fi
if command -v systemd-tmpfiles >/dev/null 2>&1; then
	if systemd-tmpfiles --root="$S" --create \
	    "$R/usr/lib/tmpfiles.d/batsec.conf" >"$D/tmpfiles.log" 2>&1 &&
	    [ "$(stat -c '%a %u %g' "$S/var/empty")" = "755 0 0" ] &&
	    [ -z "$(ls -A "$S/var/empty")" ]; then
		pass "tmpfiles.d: /var/empty is created empty, root, 0755"
	else
		fail "tmpfiles.d: /var/empty: $(cat "$D/tmpfiles.log")" \
		    "$(stat -c '%a %u %g' "$S/var/empty" 2>&1)"
	fi
else
	echo "SKIP: systemd-tmpfiles not installed: tmpfiles.d not applied"
fi

# ---- the daemon with these accounts (root only) -----------------------------

# batsecd in a private mount and network namespace whose /etc/passwd and
# /etc/group are this machine's plus the user and groups sysusers.d made
# above: the control socket gets group $CG, mode 0660.  With the parser's
# user in that group, as its primary group or as a listed member, batsecd
# refuses to start.
L=$D/live
# unshare -m -n sh -c "$LIVE_SH" sh PASSWD GROUP ARGS...: ARGS (batsecd,
# which the exec chain keeps at unshare's pid) under those files.
LIVE_SH='mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/group &&
    shift 2 && exec "$@"'
# live_refused NAME PASSWD GROUP: batsecd exits 1 and says why.
live_refused() {
	if timeout 30 unshare -m -n sh -c "$LIVE_SH" sh "$2" "$3" \
	    "$B/batsecd" -f -d -c "$L/conf" >"$L/refused.log" 2>&1; then
		fail "$1: batsecd refuses to start (it ran)"
	elif grep -q "is in the control socket's group '$CG'" "$L/refused.log"
	then
		pass "$1: batsecd refuses to start"
	else
		fail "$1: batsecd refuses to start: $(tail -n 2 "$L/refused.log")"
	fi
}
if [ "$(id -u)" != 0 ] || ! grep -q "^$CG:" "$S/etc/group" 2>/dev/null ||
    ! command -v unshare >/dev/null 2>&1; then
	echo "SKIP: not root, no unshare(1) or no sysusers.d accounts:" \
	    "batsecd is not started with them"
else
	mkdir -p "$L/empty"
	chmod 755 "$L" "$L/empty"
	"$B/batsec-ctl" key generate -o "$L/key" >/dev/null 2>&1
	echo "mode open" >"$L/policy"
	chmod 644 "$L/policy"
	printf '%s\n' "interface late0" "key $L/key" "policy $L/policy" \
	    "socket $L/sock" "state-dir $L/state" "chroot $L/empty" \
	    "log-level info" >"$L/conf"
	chmod 644 "$L/conf"
	{ cat /etc/passwd; grep "^$PU:" "$S/etc/passwd"; } >"$L/passwd"
	{ cat /etc/group; grep -e "^$PU:" -e "^$CG:" "$S/etc/group"; } \
	    >"$L/group"
	cgid=$(grep "^$CG:" "$L/group" | cut -d: -f3)
	unshare -m -n sh -c "$LIVE_SH" sh "$L/passwd" "$L/group" \
	    "$B/batsecd" -f -d -c "$L/conf" >"$L/daemon.log" 2>&1 &
	lp=$!
	track_pid "$lp"
	if wait_for 20 test -S "$L/sock" &&
	    [ "$(stat -c '%u %g %a' "$L/sock")" = "0 $cgid 660" ]; then
		pass "batsecd under the sysusers.d accounts: control socket" \
		    "root:$CG 0660"
	else
		fail "batsecd under the sysusers.d accounts: control socket" \
		    "root:$CG ($cgid) 0660: $(stat -c '%u %g %a' "$L/sock" \
		    2>&1) $(tail -n 3 "$L/daemon.log")"
	fi
	kill -TERM "$lp" 2>/dev/null
	wait "$lp" 2>/dev/null
	# The parser's user with the control group as its primary group.
	awk -F: -v OFS=: -v u="$PU" -v g="$cgid" '$1 == u { $4 = g } 1' \
	    "$L/passwd" >"$L/passwd.bad"
	live_refused "the parser's user has group $CG" "$L/passwd.bad" \
	    "$L/group"
	# ... or is a listed member of it.
	awk -F: -v OFS=: -v u="$PU" -v g="$CG" \
	    '$1 == g { $4 = ($4 == "" ? u : $4 "," u) } 1' "$L/group" \
	    >"$L/group.bad"
	live_refused "the parser's user is a member of $CG" "$L/passwd" \
	    "$L/group.bad"
fi

# ---- a second install keeps the configuration -------------------------------

C=$R/etc/batsec/batsec.conf
echo "# edited by the operator" >"$C"
echo "# stale" >"$R/etc/batsec/batsec.conf.example"
if mk DESTDIR="$R" PREFIX=/usr install &&
    [ "$(cat "$C")" = "# edited by the operator" ]; then
	pass "a second install leaves an existing batsec.conf alone"
else
	fail "a second install leaves an existing batsec.conf alone:" \
	    "$(head -n 2 "$C") $(tail -n 2 "$D/make.log")"
fi
if cmp -s "$R/etc/batsec/batsec.conf.example" \
    "$TOP/contrib/batsec.conf.example"; then
	pass "a second install refreshes batsec.conf.example"
else
	fail "a second install refreshes batsec.conf.example"
fi

# ---- uninstall ---------------------------------------------------------------

if mk DESTDIR="$R" PREFIX=/usr uninstall; then
	pass "make uninstall"
else
	fail "make uninstall: $(tail -n 3 "$D/make.log")"
fi
left=$(cd "$R" && find . -type f | sed 's/^\.//' | sort | tr '\n' ' ')
eq_left="/etc/batsec/batsec.conf "
if [ "$left" = "$eq_left" ]; then
	pass "uninstall removes everything but the operator's batsec.conf"
else
	fail "after uninstall, files left: '$left' (want '$eq_left')"
fi
if [ ! -d "$R/usr/share/batsec" ]; then
	pass "uninstall removes the emptied share/batsec directory"
else
	fail "uninstall removes the emptied share/batsec directory"
fi

# ---- default PREFIX and overridden directories -------------------------------

R2=$D/defaults
if mk DESTDIR="$R2" install && [ -x "$R2/usr/local/sbin/batsecd" ] &&
    [ -x "$R2/usr/local/bin/batsec-ctl" ] &&
    [ -f "$R2/usr/local/share/man/man5/batsec.conf.5" ] &&
    [ -f "$R2/etc/batsec/batsec.conf.example" ] &&
    [ -f "$R2/usr/local/share/batsec/examples/open.policy" ] &&
    [ -f "$R2/usr/local/lib/sysusers.d/batsec.conf" ] &&
    grep -qx 'ExecStart=/usr/local/sbin/batsecd -f -c /etc/batsec/batsec.conf' \
    "$R2/usr/local/lib/systemd/system/batsecd.service"; then
	pass "PREFIX defaults to /usr/local (SYSCONFDIR stays /etc)"
else
	fail "PREFIX defaults to /usr/local: $(cd "$R2" 2>/dev/null &&
	    find . -type f | head -n 20 | tr '\n' ' ')"
fi

R3=$D/custom
if mk DESTDIR="$R3" PREFIX=/opt/bs SYSCONFDIR=/opt/bs/etc MANDIR=/opt/man \
    SYSTEMDUNITDIR=/lib/systemd/system install &&
    [ -f "$R3/opt/man/man7/batsec-protocol.7" ] &&
    [ -f "$R3/opt/bs/etc/batsec/batsec.conf" ] &&
    grep -qx 'ExecStart=/opt/bs/sbin/batsecd -f -c /opt/bs/etc/batsec/batsec.conf' \
    "$R3/lib/systemd/system/batsecd.service" &&
    grep -qx 'ReadWritePaths=/opt/bs/etc/batsec' \
    "$R3/lib/systemd/system/batsecd.service"; then
	pass "SYSCONFDIR, MANDIR and SYSTEMDUNITDIR are honoured"
else
	fail "SYSCONFDIR, MANDIR and SYSTEMDUNITDIR are honoured:" \
	    "$(cd "$R3" 2>/dev/null && find . -type f | head -n 20 |
	    tr '\n' ' ') $(tail -n 2 "$D/make.log")"
fi

# ---- without DESTDIR: the user and /var/empty are created ----------------

# Stand-ins for systemd's tools record how they are called, so this
# machine's users and /var stay untouched.
mkdir -p "$D/bin"
for t in systemd-sysusers systemd-tmpfiles; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$t" "$D" >"$D/bin/$t"
	chmod 755 "$D/bin/$t"
done
H=$D/host
if (PATH=$D/bin:$PATH; mk PREFIX="$H" SYSCONFDIR="$H/etc" install) &&
    grep -qx "systemd-sysusers $H/lib/sysusers.d/batsec.conf" "$D/calls" &&
    grep -qx "systemd-tmpfiles --create $H/lib/tmpfiles.d/batsec.conf" \
    "$D/calls"; then
	pass "install without DESTDIR applies the sysusers.d and tmpfiles.d" \
	    "snippets"
else
	fail "install without DESTDIR applies the snippets: calls:" \
	    "$(cat "$D/calls" 2>/dev/null) $(tail -n 2 "$D/make.log")"
fi
: >"$D/calls"
if (PATH=$D/bin:$PATH; mk DESTDIR="$D/pkg" install) && [ ! -s "$D/calls" ]
then
	pass "install with DESTDIR leaves users and tmpfiles to the package"
else
	fail "install with DESTDIR ran: $(cat "$D/calls")"
fi

finish
