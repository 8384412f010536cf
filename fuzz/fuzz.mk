# fuzz/fuzz.mk — fuzzing builds, run through the top Makefile
# (`make fuzz` is `make -f fuzz/fuzz.mk fuzz`):
#
#   make fuzz         per target T (fuzz/fuzz_T.c), in fuzz/build/:
#                       T.afl        AFL++ persistent mode (afl-clang-fast,
#                                    -fsanitize=fuzzer links libAFLDriver)
#                       T.cmplog     the same with CmpLog (AFL_LLVM_CMPLOG=1),
#                                    for afl-fuzz -c
#                       T.asan       AFL++ with ASan+UBSan (AFL_USE_ASAN,
#                                    AFL_USE_UBSAN)
#                       T.libfuzzer  clang libFuzzer with ASan+UBSan
#   make fuzz-corpus  regenerate seeds with fuzz/gen_T.c, merge the existing
#                     corpus and minimise with afl-cmin into fuzz/corpus/T
#   make fuzz-smoke   every target FUZZ_SECONDS (60) under afl-fuzz; fails on
#                     any crash or hang (fuzz/smoke)
#   make fuzz-run     the continuous campaign (fuzz/run; FUZZ_RUN_ARGS are
#                     passed to it)
#
# The library sources (crypto, keys, policy and the daemon's wings in src/)
# are compiled once per flavour into fuzz/build/obj/FLAVOUR/ and archived,
# so a harness links only the objects it needs: a module that does not
# link on its own yet cannot break the other targets.
#
# The test helpers of tests/lib (identities, frames, seed files; included
# as "lib/t_NAME.h") are compiled per flavour too and archived apart, for
# the harnesses and the seed generators.
#
# Every fuzz build defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (a
# harness may rely on it to skip a check that blocks fuzzing); the
# daemon's and the CLI's main files are never part of a fuzz build.

FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
TARGETS  := $(patsubst fuzz/fuzz_%.c,%,$(FUZZ_SRC))
LIB_SRC  := $(sort $(wildcard crypto/*.c keys/*.c policy/*.c)) \
            $(sort $(foreach w,common proto netio routing parser forwarder,\
                $(wildcard src/$(w)/*.c)))
TLIB_SRC := $(sort $(wildcard tests/lib/*.c))
FB       := fuzz/build
FO       := $(FB)/obj
FUZZ_SECONDS ?= 60
FUZZ_RUN_ARGS ?=
FLAVOURS := afl cmplog asan libfuzzer gen

# Warnings as in the main build; -Werror only on request (FUZZ_WERROR=1),
# since clang warns about things gcc does not and the fuzz build should not
# stop a campaign over a new clang warning in someone's module.
FUZZ_WERROR ?= 0
FWARN    := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wpointer-arith -Wcast-qual -Wvla
ifeq ($(FUZZ_WERROR),1)
FWARN    += -Werror
endif
PKG_CFLAGS := $(shell pkg-config --cflags libsodium libmnl libseccomp 2>/dev/null)
FCFLAGS  := -std=gnu11 -g -O2 -fno-omit-frame-pointer -D_GNU_SOURCE \
            -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
            -Icrypto -Ikeys -Ipolicy -Isrc -Itests $(PKG_CFLAGS) $(FWARN)
FLIBS    := -lsodium -lmnl -lseccomp
AFLCC    := afl-clang-fast
LFCC     := clang

# Compiler, compile-only flags and link flags per flavour.  afl-clang-fast
# replaces -fsanitize=fuzzer with AFL++'s libAFLDriver.a (a persistent-mode
# main), so it appears on the link line only.
CC_afl           := AFL_QUIET=1 $(AFLCC)
CC_cmplog        := AFL_QUIET=1 AFL_LLVM_CMPLOG=1 $(AFLCC)
CC_asan          := AFL_QUIET=1 AFL_USE_ASAN=1 AFL_USE_UBSAN=1 $(AFLCC)
CC_libfuzzer     := $(LFCC)
CC_gen           := cc
CFL_libfuzzer    := -fsanitize=fuzzer-no-link,address,undefined \
                    -fno-sanitize-recover=all
LDF_afl          := -fsanitize=fuzzer
LDF_cmplog       := -fsanitize=fuzzer
LDF_asan         := -fsanitize=fuzzer
LDF_libfuzzer    := -fsanitize=fuzzer,address,undefined \
                    -fno-sanitize-recover=all
LDF_gen          :=

lib_obj = $(patsubst %.c,$(FO)/$(1)/%.o,$(LIB_SRC))
fuzz_lib = $(FO)/$(1)/libbatsec_fuzz.a
test_lib = $(FO)/$(1)/libtest.a

.PHONY: fuzz fuzz-corpus fuzz-smoke fuzz-run fuzz-tools
.SECONDARY:
.DELETE_ON_ERROR:

fuzz: $(foreach t,$(TARGETS),$(FB)/$(t).afl $(FB)/$(t).cmplog \
      $(FB)/$(t).asan $(FB)/$(t).libfuzzer)

# Stops early with one clear line when AFL++ or clang is missing.
fuzz-tools:
	@for p in $(AFLCC) $(LFCC) afl-fuzz afl-cmin afl-tmin afl-whatsup; do \
	    command -v $$p >/dev/null 2>&1 || { \
	        echo "fuzz.mk: $$p not found (make deps installs afl++ and clang)" >&2; \
	        exit 1; }; \
	done

# One compile rule, one archive and one link rule per flavour.
define flavour_rules
$(FO)/$(1)/%.o: %.c | fuzz-tools
	@mkdir -p $$(dir $$@)
	@echo "  CC.$(1)  $$<"
	@$$(CC_$(1)) $$(FCFLAGS) $$(CFL_$(1)) -MMD -MP -c -o $$@ $$<

$(call fuzz_lib,$(1)): $(call lib_obj,$(1))
	@echo "  AR.$(1)  $$@"
	@rm -f $$@ && ar rcs $$@ $$^

$(call test_lib,$(1)): $(patsubst %.c,$(FO)/$(1)/%.o,$(TLIB_SRC))
	@echo "  AR.$(1)  $$@"
	@rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach f,$(FLAVOURS),$(eval $(call flavour_rules,$(f))))

define link_rule
$(FB)/%.$(1): $(FO)/$(1)/fuzz/fuzz_%.o $(call test_lib,$(1)) \
    $(call fuzz_lib,$(1))
	@echo "  LD.$(1)  $$@"
	@$$(CC_$(1)) $$(FCFLAGS) $$(CFL_$(1)) $$(LDF_$(1)) -o $$@ $$^ $$(FLIBS)
endef
$(foreach f,afl cmplog asan libfuzzer,$(eval $(call link_rule,$(f))))

# Seed generators: fuzz/gen_T.c writes files into the directory it is given.
$(FB)/gen_%: $(FO)/gen/fuzz/gen_%.o $(call test_lib,gen) $(call fuzz_lib,gen)
	@echo "  LD.gen  $@"
	@cc -o $@ $^ $(FLIBS)

# Seeds = what the generator writes + the committed corpus, minimised by
# afl-cmin (which refuses /tmp, hence fuzz/build).  The corpus is replaced
# only when afl-cmin succeeded and kept at least one file.
# (No $(MAKE) in the recipe: `make -n fuzz-corpus` must not run it.)
GEN_TARGETS := $(patsubst fuzz/gen_%.c,%,$(wildcard fuzz/gen_*.c))
fuzz-corpus: $(foreach t,$(TARGETS),$(FB)/$(t).afl) \
             $(foreach t,$(filter $(TARGETS),$(GEN_TARGETS)),$(FB)/gen_$(t))
	@for t in $(filter $(TARGETS),$(GEN_TARGETS)); do \
	    rm -rf $(FB)/seeds-$$t $(FB)/cmin-$$t; mkdir -p $(FB)/seeds-$$t; \
	    $(FB)/gen_$$t $(FB)/seeds-$$t || exit 1; \
	    cp fuzz/corpus/$$t/* $(FB)/seeds-$$t/ 2>/dev/null; \
	    if AFL_NO_UI=1 afl-cmin -i $(FB)/seeds-$$t -o $(FB)/cmin-$$t \
	        -- $(FB)/$$t.afl >$(FB)/cmin-$$t.log 2>&1 && \
	        [ -n "$$(ls -A $(FB)/cmin-$$t)" ]; then \
	        rm -rf fuzz/corpus/$$t && mv $(FB)/cmin-$$t fuzz/corpus/$$t && \
	        echo "corpus $$t: $$(ls fuzz/corpus/$$t | wc -l) files"; \
	    else \
	        echo "corpus $$t: afl-cmin failed, corpus kept (see $(FB)/cmin-$$t.log)" >&2; \
	        exit 1; \
	    fi; \
	done

fuzz-smoke: $(foreach t,$(TARGETS),$(FB)/$(t).afl $(FB)/$(t).asan)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/smoke $(TARGETS)

fuzz-run: fuzz
	@fuzz/run $(FUZZ_RUN_ARGS)

-include $(shell find $(FO) -name '*.d' 2>/dev/null)
