# fuzz/fuzz.mk — fuzzing builds, included through the top Makefile:
#   make fuzz         per target T (fuzz/fuzz_T.c), in fuzz/build/:
#                       T.afl      AFL++ persistent mode (afl-clang-fast -fsanitize=fuzzer)
#                       T.cmplog   AFL++ CmpLog instrumentation
#                       T.asan     AFL++ with ASan+UBSan
#                       T.libfuzzer  clang libFuzzer with ASan+UBSan
#   make fuzz-corpus  regenerate seeds with fuzz/gen_T.c and minimise them
#                     with afl-cmin into fuzz/corpus/T
#   make fuzz-smoke   every target about FUZZ_SECONDS (60) under afl-fuzz;
#                     fails on any crash or hang
#   make fuzz-run     the continuous campaign (fuzz/run)
#
# Every fuzz build defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION; the
# daemon's and the CLI's main files refuse to compile with it.

FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
TARGETS  := $(patsubst fuzz/fuzz_%.c,%,$(FUZZ_SRC))
LIB_SRC  := $(sort $(wildcard crypto/*.c keys/*.c policy/*.c)) \
            $(filter-out src/batsecd.c src/batsec-ctl.c,$(sort $(wildcard src/*.c)))
FB       := fuzz/build
FUZZ_SECONDS ?= 60
FCFLAGS  := -std=gnu11 -g -O1 -D_GNU_SOURCE -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
            -Icrypto -Ikeys -Ipolicy -Isrc
FLIBS    := -lsodium -lmnl -lseccomp
AFLCC    := afl-clang-fast

.PHONY: fuzz fuzz-corpus fuzz-smoke fuzz-run

fuzz: $(foreach t,$(TARGETS),$(FB)/$(t).afl $(FB)/$(t).cmplog $(FB)/$(t).asan $(FB)/$(t).libfuzzer)

$(FB)/%.afl: fuzz/fuzz_%.c $(LIB_SRC)
	@mkdir -p $(FB)
	AFL_QUIET=1 $(AFLCC) $(FCFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_SRC) $(FLIBS)

$(FB)/%.cmplog: fuzz/fuzz_%.c $(LIB_SRC)
	@mkdir -p $(FB)
	AFL_QUIET=1 AFL_LLVM_CMPLOG=1 $(AFLCC) $(FCFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_SRC) $(FLIBS)

$(FB)/%.asan: fuzz/fuzz_%.c $(LIB_SRC)
	@mkdir -p $(FB)
	AFL_QUIET=1 AFL_USE_ASAN=1 AFL_USE_UBSAN=1 $(AFLCC) $(FCFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_SRC) $(FLIBS)

$(FB)/%.libfuzzer: fuzz/fuzz_%.c $(LIB_SRC)
	@mkdir -p $(FB)
	clang $(FCFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(LIB_SRC) $(FLIBS)

# Seed generators: fuzz/gen_T.c writes files into the directory it is given.
$(FB)/gen_%: fuzz/gen_%.c $(LIB_SRC)
	@mkdir -p $(FB)
	cc $(FCFLAGS) -o $@ $< $(LIB_SRC) $(FLIBS)

fuzz-corpus: $(foreach t,$(TARGETS),$(FB)/$(t).afl)
	@for t in $(TARGETS); do \
	    if [ -f fuzz/gen_$$t.c ]; then \
	        $(MAKE) --no-print-directory -f fuzz/fuzz.mk $(FB)/gen_$$t || exit 1; \
	        rm -rf $(FB)/seeds-$$t; mkdir -p $(FB)/seeds-$$t; \
	        $(FB)/gen_$$t $(FB)/seeds-$$t || exit 1; \
	        cp fuzz/corpus/$$t/* $(FB)/seeds-$$t/ 2>/dev/null; \
	        rm -rf $(FB)/cmin-$$t; \
	        AFL_SKIP_BIN_CHECK=1 afl-cmin -i $(FB)/seeds-$$t -o $(FB)/cmin-$$t -- $(FB)/$$t.afl >/dev/null && \
	        rm -rf fuzz/corpus/$$t && mv $(FB)/cmin-$$t fuzz/corpus/$$t && \
	        echo "corpus $$t: $$(ls fuzz/corpus/$$t | wc -l) files"; \
	    fi; \
	done

fuzz-smoke: $(foreach t,$(TARGETS),$(FB)/$(t).afl)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/smoke $(TARGETS)

fuzz-run: fuzz
	@fuzz/run
