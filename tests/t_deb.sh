#!/bin/sh
# t_deb.sh — the Debian package (debian/): `make deb` builds it with
# `dpkg-buildpackage -us -uc -b`, lintian reports no error (and does report
# one on a copy without its copyright file, so the check can fail), and the
# .deb installs with dpkg in a clean Debian 12 (bookworm) minbase chroot
# made by debootstrap.  There batsecd -V gives the changelog's version,
# `batsec-ctl key generate` makes a key, the binaries, manual pages, unit,
# sysusers.d and tmpfiles.d entries are where they belong, the postinst
# created user batsec, group batsec-ctl and /var/empty, and the unit is
# neither enabled nor started; `systemd-analyze verify --root` checks the
# installed unit when the host has systemd-analyze; purge removes it all.
#
# The chroot (with the package's dependencies, read from the .deb) is made
# once from the mirror of this machine's apt sources and cached as a
# tarball in .cache/deb (ignored by git; DEB_CACHE=DIR puts it elsewhere,
# as .ci/run does to keep it between clean clones); each run unpacks a
# fresh copy.
# Root only (chroot, mounts in a private mount namespace).  SKIP for
# sanitizer builds (the package is never built with them), without root,
# and when offline with no cached chroot.
. "$(dirname "$0")/lib.sh"

case ${B:-build} in
*-san) echo "SKIP: t_deb: sanitizer build (B=$B); the package is built without sanitizers"; exit 0 ;;
esac
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: t_deb needs root (dpkg in a chroot)"; exit 0
fi

D=$(mktmp) || exit 1
CACHE=${DEB_CACHE:-$TOP/.cache/deb}
SUITE=bookworm

# mirror: the Debian archive of this machine's apt sources (one-line or
# deb822 format), else deb.debian.org.
mirror() {
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
	    awk '$1 == "deb" && $0 !~ /security/ {
		for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }')
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
	    awk '$1 == "URIs:" && $2 !~ /security/ { print $2; exit }')
	echo "${m:-http://deb.debian.org/debian}"
}
MIRROR=$(mirror)
online() {
	if command -v curl >/dev/null 2>&1; then
		timeout 30 curl -sfI "$MIRROR/dists/$SUITE/Release" >/dev/null
	else
		timeout 30 wget -q --spider "$MIRROR/dists/$SUITE/Release"
	fi
}

# ---- build ----------------------------------------------------------------

tools_ok=1
for p in debhelper dpkg-dev lintian fakeroot debootstrap; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
	    grep -q 'install ok installed' || tools_ok=0
done
if [ "$tools_ok" = 0 ] && ! online; then
	echo "SKIP: t_deb: packaging tools missing and $MIRROR unreachable"
	exit 0
fi

t0=$(date +%s)
if (cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make --no-print-directory deb DEB_OUT="$D/out") >"$D/make.log" 2>&1; then
	pass "make deb (dpkg-buildpackage -us -uc -b) builds the package"
else
	fail "make deb: $(tail -n 5 "$D/make.log")"
	finish
fi
echo "t_deb: package built in $(( $(date +%s) - t0 ))s"
VER=$(cd "$TOP" && dpkg-parsechangelog -S Version)
DEB=$(ls "$D"/out/batsec_"$VER"_*.deb 2>/dev/null | head -n 1)
if [ -f "$DEB" ]; then pass "batsec_${VER} .deb produced"; else
	fail "batsec_${VER}_ARCH.deb in $D/out"; finish; fi

# ---- lintian ---------------------------------------------------------------

lintian "$DEB" >"$D/lintian.log" 2>&1
if grep -q '^E:' "$D/lintian.log"; then
	fail "lintian reports no error: $(grep '^E:' "$D/lintian.log" | head -n 5)"
else
	pass "lintian reports no error ($(grep -c '^W:' "$D/lintian.log") warnings)"
fi
grep -E '^[EW]:' "$D/lintian.log" | head -n 10
# The check can fail: the same package without its copyright file.
mkdir "$D/bad"
dpkg-deb -R "$DEB" "$D/bad/root"
rm -f "$D/bad/root/usr/share/doc/batsec/copyright"
dpkg-deb -b "$D/bad/root" "$D/bad/bad.deb" >/dev/null 2>&1
if lintian "$D/bad/bad.deb" 2>&1 | grep -q '^E: .*no-copyright-file'; then
	pass "lintian reports E: no-copyright-file on a copy without it"
else
	fail "lintian reports an error on a package without copyright file"
fi

# ---- the clean chroot -----------------------------------------------------

# The package's dependencies, first alternative, without versions.
deps=$(dpkg-deb -f "$DEB" Depends | tr ',' '\n' |
    sed -e 's/|.*//' -e 's/(.*)//' -e 's/[[:space:]]//g' | grep . |
    LC_ALL=C sort -u | tr '\n' ',' | sed 's/,$//')
key=$(printf '%s %s %s\n' "$SUITE" "$MIRROR" "$deps" | sha256sum | cut -c1-12)
TAR=$CACHE/$SUITE-minbase-$key.tar.gz
t0=$(date +%s)
if [ ! -f "$TAR" ]; then
	if ! online; then
		echo "SKIP: t_deb: no cached chroot ($TAR) and $MIRROR unreachable"
		finish
	fi
	mkdir -p "$CACHE" "$D/boot"
	if debootstrap --variant=minbase --include="$deps" "$SUITE" \
	    "$D/boot/root" "$MIRROR" >"$D/debootstrap.log" 2>&1; then
		rm -rf "$D"/boot/root/var/cache/apt/archives/*.deb \
		    "$D"/boot/root/var/lib/apt/lists/*_*
		# One chroot is kept: the one for today's dependencies.
		rm -f "$CACHE/$SUITE"-minbase-*.tar.gz
		tar -C "$D/boot/root" -czf "$TAR.tmp" . && mv "$TAR.tmp" "$TAR"
		rm -rf "$D/boot"
		echo "t_deb: debootstrap $SUITE minbase (+$deps) in $(( $(date +%s) - t0 ))s, cached as $TAR"
	else
		fail "debootstrap $SUITE: $(tail -n 5 "$D/debootstrap.log")"
		finish
	fi
fi
R=$D/root
mkdir "$R"
tar -C "$R" -xzf "$TAR" || { fail "unpack $TAR"; finish; }
echo "t_deb: fresh chroot ready in $(( $(date +%s) - t0 ))s"
cp "$DEB" "$R/tmp/batsec.deb"

# inroot CMD...: CMD in the chroot with /proc, in a private mount namespace
# (the mounts go away with it); output to $D/inroot.log.
inroot() {
	unshare --mount --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' \
	    sh "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C "$@" \
	    >"$D/inroot.log" 2>&1
}

if inroot dpkg -i /tmp/batsec.deb; then
	pass "dpkg -i installs the package in a clean $SUITE chroot"
else
	fail "dpkg -i in the chroot: $(tail -n 5 "$D/inroot.log")"
	finish
fi

# ---- in the chroot ----------------------------------------------------------

if inroot batsecd -V && grep -qx "batsecd $VER" "$D/inroot.log"; then
	pass "batsecd -V in the chroot prints 'batsecd $VER'"
else
	fail "batsecd -V in the chroot: $(head -n 3 "$D/inroot.log")"
fi
if inroot batsec-ctl key generate -o /etc/batsec/node.key &&
    [ "$(stat -c %a "$R/etc/batsec/node.key")" = 600 ] &&
    inroot batsec-ctl key public /etc/batsec/node.key &&
    [ -s "$D/inroot.log" ]; then
	pass "batsec-ctl key generate in the chroot (mode 600, public key readable)"
else
	fail "batsec-ctl key generate in the chroot: $(head -n 3 "$D/inroot.log")"
fi

# where FILE...: each is a regular file in the chroot.
where() {
	for f in "$@"; do
		if [ -f "$R$f" ]; then pass "$f installed"; else
			fail "$f installed"; fi
	done
}
where /usr/sbin/batsecd /usr/bin/batsec-ctl /etc/batsec/batsec.conf \
    /lib/systemd/system/batsecd.service /usr/lib/sysusers.d/batsec.conf \
    /usr/lib/tmpfiles.d/batsec.conf /usr/share/doc/batsec/copyright
for m in "$TOP"/man/*.[1-8]; do
	p=${m##*/}
	where "/usr/share/man/man${p##*.}/$p.gz"
done
if cmp -s "$R/usr/lib/sysusers.d/batsec.conf" "$TOP/contrib/batsec.sysusers" &&
    cmp -s "$R/usr/lib/tmpfiles.d/batsec.conf" "$TOP/contrib/batsec.tmpfiles"; then
	pass "sysusers.d and tmpfiles.d entries are contrib's"
else
	fail "sysusers.d and tmpfiles.d entries are contrib's"
fi
if grep -qx 'ExecStart=/usr/sbin/batsecd -f -c /etc/batsec/batsec.conf' \
    "$R/lib/systemd/system/batsecd.service" &&
    grep -qx 'ProtectSystem=strict' "$R/lib/systemd/system/batsecd.service"; then
	pass "the unit has the real paths and its hardening"
else
	fail "the unit has the real paths and its hardening"
fi
members=$(awk -F: '$1 == "batsec-ctl" { print "," $4 "," }' "$R/etc/group")
if grep -q '^batsec:' "$R/etc/passwd" && [ -n "$members" ] &&
    case $members in *,batsec,*) false ;; *) true ;; esac; then
	pass "postinst created user batsec and group batsec-ctl (batsec not in it)"
else
	fail "postinst created user batsec and group batsec-ctl"
fi
if [ -d "$R/var/empty" ] && [ "$(stat -c '%a %U' "$R/var/empty")" = "755 root" ]; then
	pass "postinst created /var/empty (755 root)"
else
	fail "postinst created /var/empty (755 root)"
fi
if [ -z "$(find "$R/etc/systemd/system" -name batsecd.service 2>/dev/null)" ]; then
	pass "the unit is not enabled on installation"
else
	fail "the unit is not enabled on installation"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
	if out=$(systemd-analyze verify --man=no --root="$R" \
	    /lib/systemd/system/batsecd.service 2>&1) && [ -z "$out" ]; then
		pass "systemd-analyze verify --root: the installed unit is clean"
	else
		fail "systemd-analyze verify: $out"
	fi
else
	echo "SKIP: systemd-analyze not on the host; unit not verified"
fi

if inroot dpkg --purge batsec &&
    [ ! -e "$R/usr/sbin/batsecd" ] && [ ! -e "$R/lib/systemd/system/batsecd.service" ] &&
    [ ! -e "$R/etc/batsec/batsec.conf" ]; then
	pass "dpkg --purge removes the package and its conffiles"
else
	fail "dpkg --purge: $(tail -n 3 "$D/inroot.log")"
fi
finish
