# batsec — plain GNU Makefile.
#
#   make                 build batsecd and batsec-ctl
#   make check           build and run every test (unit, fuzz replay, netns)
#   make SANITIZE=1 check  the same under ASan+UBSan
#   make deps            install the Debian packages the project needs
#   make install         PREFIX, DESTDIR, MANDIR honoured
#   make fuzz            AFL++ / libFuzzer binaries of every harness
#   make deb             Debian packages (debian/) in build-deb/
#   make V=1 ...         show full commands
#
# Sources are discovered by directory: crypto/*.c, keys/*.c and policy/*.c
# become one static library each; the daemon's wings (src/WING/*.c, see
# ARCHITECTURE.md) become libbatsec.a; src/batsecd.c is the daemon's main and
# src/ctl/*.c make batsec-ctl; tests/check_*.c are Check programs;
# fuzz/fuzz_*.c are harnesses.  Adding a file needs no edit here.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR  ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
DESTDIR ?=

CC      ?= cc
AR      ?= ar
SANITIZE ?= 0
WERROR  ?= 1

# Cross builds (ARCH=armhf, arm64 or mipsel): Debian's cross compiler and
# the multiarch -dev packages of the target, installed like the native
# ones; objects in build-ARCH.  `make ARCH=A` builds the programs and the
# unit tests; `make ARCH=A check-qemu` runs the unit tests under
# qemu-user (README.md, "Routers").
ARCH ?=
CROSS_armhf  := arm-linux-gnueabihf
CROSS_arm64  := aarch64-linux-gnu
CROSS_mipsel := mipsel-linux-gnu
QEMU_armhf   := qemu-arm-static
QEMU_arm64   := qemu-aarch64-static
QEMU_mipsel  := qemu-mipsel-static
ifneq ($(ARCH),)
CROSS := $(CROSS_$(ARCH))
ifeq ($(CROSS),)
$(error ARCH=$(ARCH): the cross builds are armhf, arm64 and mipsel)
endif
ifeq ($(SANITIZE),1)
$(error SANITIZE=1 is for native builds only)
endif
CC := $(CROSS)-gcc
AR := $(CROSS)-ar
B := build-$(ARCH)
# The target's libraries: Debian's packages unpacked into a sysroot
# (contrib/cross-sysroot), not installed.
SYSROOT := $(CURDIR)/$(B)/sysroot
PKG_CONFIG := env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
    PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
    pkg-config
CPPFLAGS += -isystem $(SYSROOT)/usr/include -isystem $(SYSROOT)/usr/include/$(CROSS)
LDFLAGS += -Wl,-rpath-link,$(SYSROOT)/usr/lib/$(CROSS)
else ifeq ($(SANITIZE),1)
B := build-san
else
B := build
endif
PKG_CONFIG ?= pkg-config

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Debian packages: libraries and headers first, tools after.
DEB_PKGS := libsodium-dev libmnl-dev libseccomp-dev check pkg-config \
            afl++ clang mandoc iproute2 nftables tcpdump ethtool procps \
            libcap2-bin tshark systemd python3 busybox musl-tools faketime
PC_MODULES := libsodium libmnl libseccomp check
ifneq ($(ARCH),)
DEB_PKGS := gcc-$(CROSS) libc6-dev-$(ARCH)-cross pkg-config qemu-user-static
endif

WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wpointer-arith -Wcast-qual -Wvla
ifeq ($(WERROR),1)
WARN += -Werror
endif

HARDEN_C  := -fstack-protector-strong -fstack-clash-protection -fPIE
HARDEN_LD := -pie -Wl,-z,relro,-z,now,-z,noexecstack
ifeq ($(SANITIZE),1)
OPT   := -O1 -g -fno-omit-frame-pointer
SANF  := -fsanitize=address,undefined -fno-sanitize-recover=all
else
OPT   := -O2 -g -D_FORTIFY_SOURCE=3
SANF  :=
endif

# '=' (lazy): pkg-config runs when a recipe needs the value, after the
# dependency probe had its chance to install the packages.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags libsodium libmnl libseccomp 2>/dev/null)
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs libsodium libmnl libseccomp 2>/dev/null)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

# 64-bit file offsets, inode numbers and time_t on 32-bit targets too:
# without them readdir() and stat() fail with EOVERFLOW on file systems
# with 64-bit inode numbers, and the clock ends in 2038 (no-ops on 64-bit).
CPPFLAGS_ALL = -Icrypto -Ikeys -Ipolicy -Isrc -D_GNU_SOURCE \
               -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 $(CPPFLAGS)
CFLAGS_ALL   = -std=gnu11 $(OPT) $(WARN) $(HARDEN_C) $(SANF) -MMD -MP \
               $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL  = $(HARDEN_LD) $(SANF) $(LDFLAGS)

CRYPTO_SRC := $(sort $(wildcard crypto/*.c))
KEYS_SRC   := $(sort $(wildcard keys/*.c))
POLICY_SRC := $(sort $(wildcard policy/*.c))
# The daemon's wings, bottom up (ARCHITECTURE.md); src/ctl is batsec-ctl's.
WINGS      := common proto netio routing parser forwarder
CORE_SRC   := $(sort $(foreach w,$(WINGS),$(wildcard src/$(w)/*.c)))
CTL_SRC    := $(sort $(wildcard src/ctl/*.c))
TEST_SRC   := $(sort $(wildcard tests/check_*.c))
TESTLIB_SRC := $(sort $(wildcard tests/lib/*.c))
FUZZ_SRC   := $(sort $(wildcard fuzz/fuzz_*.c))
ATTACK_SRC := $(sort $(wildcard tests/attack/*.c))
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(FUZZ_SRC))

obj = $(patsubst %.c,$(B)/%.o,$(1))

LIBCRYPTO := $(B)/libbatsec_crypto.a
LIBKEYS   := $(B)/libbatsec_keys.a
LIBPOLICY := $(B)/libbatsec_policy.a
LIBCORE   := $(B)/libbatsec.a
# Link order: dependants first.
LIBS_ALL  := $(LIBCORE) $(LIBPOLICY) $(LIBKEYS) $(LIBCRYPTO)

BINS  := $(B)/batsecd $(B)/batsec-ctl
TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRC))
REPLAYERS := $(patsubst %,$(B)/fuzz/replay_%,$(FUZZ_TARGETS))
# The attack tests' hostile node: one program per tests/attack/*.c.
ATTACKS := $(patsubst tests/attack/%.c,$(B)/tests/attack/%,$(ATTACK_SRC))

MANPAGES := $(sort $(wildcard man/*.[1-8]))

.PHONY: all deps deps-ok check check-qemu check-router router-deps musl-syntax clang-syntax fuzz-replayers man-lint install clean \
        fuzz fuzz-corpus fuzz-smoke fuzz-run demo bench sim footprint

ifneq ($(ARCH),)
all: $(BINS) $(TESTS)
else
all: $(BINS)
endif
	$(Q)[ "$(B)" = build ] && ln -sf build/batsecd batsecd && \
	    ln -sf build/batsec-ctl batsec-ctl || true

# --- dependencies ---------------------------------------------------------

deps:
	$(Q)contrib/ensure-deps --install $(DEB_PKGS)

# Fast probe before anything compiles: installs the packages when running
# as root with apt-get, else stops with the list of what is missing.
ifneq ($(ARCH),)
deps-ok:
	$(Q)contrib/ensure-deps --install $(DEB_PKGS)
	$(Q)contrib/cross-sysroot $(ARCH) $(SYSROOT)
else
deps-ok:
	$(Q)contrib/ensure-deps --probe "$(PC_MODULES)" $(DEB_PKGS)
endif

# --- compile --------------------------------------------------------------

$(B)/%.o: %.c | deps-ok
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c -o $@ $<

$(LIBCRYPTO): $(call obj,$(CRYPTO_SRC))
$(LIBKEYS):   $(call obj,$(KEYS_SRC))
$(LIBPOLICY): $(call obj,$(POLICY_SRC))
$(LIBCORE):   $(call obj,$(CORE_SRC))
$(B)/%.a:
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(B)/batsecd: $(B)/src/batsecd.o $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIBS_ALL) $(PKG_LIBS)

$(B)/batsec-ctl: $(call obj,$(CTL_SRC)) $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(call obj,$(CTL_SRC)) $(LIBS_ALL) $(PKG_LIBS)

# The test helpers (tests/lib: identities, frames, seed files) serve the
# Check programs, the hostile node, the fuzz harnesses and generators,
# the benchmarks and the simulator; all include them as "lib/t_NAME.h".
LIBTEST := $(B)/tests/lib/libtest.a
$(LIBTEST): $(call obj,$(TESTLIB_SRC))
$(B)/fuzz/%.o $(B)/bench/%.o $(B)/tests/attack/%.o: CPPFLAGS_ALL += -Itests

$(B)/tests/check_%: $(B)/tests/check_%.o $(LIBTEST) $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIBTEST) $(LIBS_ALL) \
	    $(PKG_LIBS) $(CHECK_LIBS)

# check_ctl_mon tests batsec-ctl's monitoring renderers: it links them.
CTL_MON_OBJ := $(call obj,src/ctl/ctl_prom.c src/ctl/ctl_metrics.c \
    src/ctl/ctl_client.c src/ctl/ctl_util.c)
$(B)/tests/check_ctl_mon: $(B)/tests/check_ctl_mon.o $(CTL_MON_OBJ) \
    $(LIBTEST) $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(CTL_MON_OBJ) $(LIBTEST) \
	    $(LIBS_ALL) $(PKG_LIBS) $(CHECK_LIBS)

$(B)/tests/attack/%: $(B)/tests/attack/%.o $(LIBTEST) $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIBTEST) $(LIBS_ALL) $(PKG_LIBS)

# In-process benchmarks: one program per bench/*.c (bench/parser_bench.c).
$(B)/bench/%: $(B)/bench/%.o $(LIBTEST) $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIBTEST) $(LIBS_ALL) $(PKG_LIBS)

# Replayers: the harness plus fuzz/replay.c's main(), always ASan+UBSan.
$(B)/fuzz/replay_%: $(B)/fuzz/fuzz_%.o $(B)/fuzz/replay.o $(LIBTEST) \
    $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(B)/fuzz/replay.o $(LIBTEST) \
	    $(LIBS_ALL) $(PKG_LIBS)

# --- tests ----------------------------------------------------------------

# make check: unit tests in this build flavour, the fuzz replayers (always
# under sanitizers), the man-page lint and, as root, the network-namespace
# tests.  tests/run prints the closing 'N passed, N failed' line.
# ONLY="pattern ...": only the tests whose names match (tests/run's TESTS,
# which this Makefile's own TESTS, the Check programs, would shadow).
check: $(BINS) $(TESTS) $(ATTACKS) | deps-ok
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 fuzz-replayers
	$(Q)B=$(B) TESTS="$(ONLY)" tests/run

fuzz-replayers: $(REPLAYERS)

# The daemon and batsec-ctl must also compile against musl, OpenWrt's C
# library: musl-gcc -fsyntax-only with the same warnings over every
# source file, the dependencies' headers (and the kernel's) taken from the
# host (tests/t_musl.sh runs it).
MUSL_INC := $(B)/musl-include
musl-syntax:
	$(Q)rm -rf $(MUSL_INC) && mkdir -p $(MUSL_INC)
	$(Q)for f in sodium.h sodium libmnl seccomp.h seccomp-syscalls.h \
	    linux asm-generic; do ln -s /usr/include/$$f $(MUSL_INC)/$$f; done
	$(Q)ln -s /usr/include/$$(gcc -print-multiarch)/asm $(MUSL_INC)/asm
	$(Q)rc=0; for f in $(CRYPTO_SRC) $(KEYS_SRC) $(POLICY_SRC) $(CORE_SRC) \
	    $(CTL_SRC) src/batsecd.c; do \
		musl-gcc -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
		    -Icrypto -Ikeys -Ipolicy -Isrc -isystem $(MUSL_INC) \
		    $(WARN) -fsyntax-only $$f || { echo "musl: $$f"; rc=1; }; \
	done; exit $$rc

# clang's checks that gcc lacks, over every C file of the tree, tests and
# tools included: -Wunsequenced (an object changed and read in one
# expression with no order between the two: gcc's -Wsequence-point misses
# it inside a compound literal, and the attack tool once flipped a byte
# past the frame because of it).  tests/t_clang.sh runs it.
CLANG_SYNTAX_SRC := $(CRYPTO_SRC) $(KEYS_SRC) $(POLICY_SRC) $(CORE_SRC) \
    $(CTL_SRC) src/batsecd.c $(TEST_SRC) $(TESTLIB_SRC) $(FUZZ_SRC) \
    $(ATTACK_SRC) $(sort $(wildcard bench/*.c bench/sim/*.c))
clang-syntax:
	$(Q)rc=0; for f in $(CLANG_SYNTAX_SRC); do \
		clang -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
		    -Icrypto -Ikeys -Ipolicy -Isrc -Itests -Ibench/sim \
		    -Wno-everything -Werror=unsequenced -fsyntax-only $$f || \
		    { echo "clang: $$f"; rc=1; }; \
	done; exit $$rc

# make ARCH=A check-qemu: the cross build's unit tests under qemu-user.
check-qemu: $(BINS) $(TESTS) | deps-ok
	$(Q)$(if $(ARCH),tests/run-qemu $(ARCH),@echo "check-qemu: give ARCH=armhf, arm64 or mipsel" >&2; exit 2)

# make check-router: the mipsel build in an emulated MIPS router (qemu-system,
# tests/router/run; README.md, "Routers").  ROUTER_CACHE: its cache;
# ROUTER_FOOTPRINT=1: the 50-node memory measure instead (bench/README.md).
ROUTER_PKGS := qemu-system-mips debootstrap kmod e2fsprogs xz-utils
router-deps:
	$(Q)contrib/ensure-deps --install $(ROUTER_PKGS)

check-router: router-deps
	$(Q)$(MAKE) --no-print-directory ARCH=mipsel deps-ok
	$(Q)$(MAKE) --no-print-directory ARCH=mipsel build-mipsel/batsecd build-mipsel/batsec-ctl \
	    build-mipsel/tests/check_seccomp_arch build-mipsel/tests/check_sandbox \
	    $(if $(ROUTER_FOOTPRINT),build-mipsel/bench/sim/batsec-sim)
	$(Q)B=build-mipsel tests/router/run

man-lint:
	$(Q)mandoc -Tlint -W warning $(MANPAGES)

# --- Debian package -------------------------------------------------------

# The packaging tools are not among `make deps`'s: `make deb` installs
# them (with the Build-Depends) itself.  tests/t_deb.sh also uses
# debootstrap for its clean chroot.
PACKAGING_PKGS := debhelper dpkg-dev lintian fakeroot debootstrap
DEB_BUILD_DEPS := libsodium-dev libmnl-dev libseccomp-dev pkg-config
DEB_OUT ?= build-deb

deb:
	$(Q)contrib/ensure-deps --install $(PACKAGING_PKGS) $(DEB_BUILD_DEPS)
	$(Q)contrib/build-deb $(DEB_OUT)

.PHONY: deb

# --- fuzzing --------------------------------------------------------------

fuzz fuzz-corpus fuzz-smoke fuzz-run:
	$(Q)$(MAKE) --no-print-directory -f fuzz/fuzz.mk $@

# --- demo -----------------------------------------------------------------

# A mesh of eight namespaces, one of them hostile, from provisioning to
# revocation (root; about two minutes); see contrib/demo.
demo: $(BINS) | deps-ok
	$(Q)B=$(B) contrib/demo

# --- benchmarks -----------------------------------------------------------

# Not part of check: the parser's in-process receive throughput and
# table memory (bench/parser_bench.c), then batsecd against batmand and
# kernel forwarding in network namespaces (bench/run: root, about half an
# hour); see bench/README.md.
bench: $(BINS) $(B)/bench/parser_bench $(B)/bench/aead_bench
	$(Q)$(B)/bench/parser_bench
	$(Q)$(B)/bench/aead_bench
	$(Q)B=$(B) bench/run

# The scale simulator (bench/sim): N parser cores and forwarder models in
# virtual time, one table; bench/README.md "Scale (simulator)".  The wraps
# count (and with --memo remember) signature and hop-chain checks and
# measure each core's heap.  SIM_ARGS replaces the preset sweep's options.
SIM_SRC  := $(sort $(wildcard bench/sim/*.c))
SIM_WRAP := -Wl,--wrap=bs_verify,--wrap=bs_chain_verify,--wrap=bs_chain_link \
            -Wl,--wrap=malloc \
            -Wl,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=aligned_alloc
$(B)/bench/sim/batsec-sim: $(call obj,$(SIM_SRC)) $(LIBTEST) $(LIBS_ALL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) $(SIM_WRAP) -o $@ $(call obj,$(SIM_SRC)) \
	    $(LIBTEST) $(LIBS_ALL) $(PKG_LIBS) -lm

sim: $(B)/bench/sim/batsec-sim
	$(Q)$(B)/bench/sim/batsec-sim --sweep $(SIM_ARGS)

# The footprint of one batsecd holding 50 originators (bench/footprint, as
# root, a few minutes): instructions (callgrind) and resident memory;
# bench/README.md "Footprint on a router".  FOOTPRINT_ARGS: its options.
$(B)/bench/fp_noseccomp.so: bench/fp_noseccomp.c
	@$(if $(Q),echo "  CC      $@")
	@mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 $(OPT) $(WARN) -fPIC -shared -o $@ $<

footprint: $(BINS) $(B)/bench/sim/batsec-sim $(B)/bench/fp_noseccomp.so \
           $(B)/bench/fp_verify
	$(Q)B=$(B) bench/footprint $(FOOTPRINT_ARGS)

# --- install --------------------------------------------------------------

# Where the rest goes; each may be overridden like PREFIX.  The systemd
# directories default below PREFIX, which systemd searches for /usr and
# /usr/local alike.
DATADIR        ?= $(PREFIX)/share
PKGDATADIR     ?= $(DATADIR)/batsec
EXAMPLESDIR    ?= $(PKGDATADIR)/examples
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR    ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR    ?= $(PREFIX)/lib/tmpfiles.d
POLICY_EXAMPLES := $(sort $(wildcard policy/examples/*.policy))
CONFDIR := $(DESTDIR)$(SYSCONFDIR)/batsec
UNIT    := $(DESTDIR)$(SYSTEMDUNITDIR)/batsecd.service

# An existing batsec.conf is never replaced; the example always is.
# Without DESTDIR (installing on this machine) the user batsec (the
# parser's), the group batsec-ctl (the control socket's, which the parser's
# user must not be in) and the chroot directory are created when systemd's
# tools are there, so the unit can start; with DESTDIR a package's scripts
# do that.
install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR)
	install -m 0755 $(B)/batsecd $(DESTDIR)$(SBINDIR)/batsecd
	install -m 0755 $(B)/batsec-ctl $(DESTDIR)$(BINDIR)/batsec-ctl
	for m in $(MANPAGES); do \
	    s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
	    install -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done
	install -d -m 0755 $(CONFDIR) $(DESTDIR)$(EXAMPLESDIR) \
	    $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSUSERSDIR) \
	    $(DESTDIR)$(TMPFILESDIR)
	install -m 0644 contrib/batsec.conf.example $(CONFDIR)/batsec.conf.example
	[ -e $(CONFDIR)/batsec.conf ] || [ -L $(CONFDIR)/batsec.conf ] || \
	    install -m 0644 contrib/batsec.conf.example $(CONFDIR)/batsec.conf
	install -m 0644 $(POLICY_EXAMPLES) $(DESTDIR)$(EXAMPLESDIR)/
	install -m 0644 contrib/batsec.lua $(DESTDIR)$(PKGDATADIR)/batsec.lua
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	    contrib/batsecd.service >$(UNIT).tmp
	install -m 0644 $(UNIT).tmp $(UNIT) && rm -f $(UNIT).tmp
	install -m 0644 contrib/batsec.sysusers $(DESTDIR)$(SYSUSERSDIR)/batsec.conf
	install -m 0644 contrib/batsec.tmpfiles $(DESTDIR)$(TMPFILESDIR)/batsec.conf
	$(Q)if [ -z "$(DESTDIR)" ]; then \
	    if command -v systemd-sysusers >/dev/null 2>&1; then \
	        echo "systemd-sysusers $(SYSUSERSDIR)/batsec.conf"; \
	        systemd-sysusers $(SYSUSERSDIR)/batsec.conf || exit 1; \
	        echo "systemd-tmpfiles --create $(TMPFILESDIR)/batsec.conf"; \
	        systemd-tmpfiles --create $(TMPFILESDIR)/batsec.conf || exit 1; \
	    else \
	        echo "batsec: create the user batsec, the group" \
	            "batsec-ctl (batsec not in it) and the directory" \
	            "/var/empty (root, 0755) before starting batsecd"; \
	    fi; \
	    echo "batsec: edit $(SYSCONFDIR)/batsec/batsec.conf, then" \
	        "'systemctl daemon-reload; systemctl enable --now batsecd'"; \
	fi

# Leaves batsec.conf, keys, policy, state, the user and /var/empty alone.
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/batsecd $(DESTDIR)$(BINDIR)/batsec-ctl
	for m in $(MANPAGES); do \
	    rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	rm -f $(CONFDIR)/batsec.conf.example $(UNIT) \
	    $(DESTDIR)$(SYSUSERSDIR)/batsec.conf \
	    $(DESTDIR)$(TMPFILESDIR)/batsec.conf \
	    $(DESTDIR)$(PKGDATADIR)/batsec.lua \
	    $(patsubst policy/examples/%,$(DESTDIR)$(EXAMPLESDIR)/%,$(POLICY_EXAMPLES))
	rmdir $(DESTDIR)$(EXAMPLESDIR) $(DESTDIR)$(PKGDATADIR) $(CONFDIR) \
	    2>/dev/null || true

.PHONY: uninstall

clean:
	rm -rf build build-san fuzz/build batsecd batsec-ctl

-include $(shell find $(B) -name '*.d' 2>/dev/null)
