# weir — build, test, demo. See README.md.
#   make            optimised build: build/weir
#   make rocksdb-release   once, a release librocksdb that build/weir then loads (scripts/install-rocksdb-release.sh)
#   make test       ASan+UBSan build and every test (unit, golden, errors, conformance), and the TSan stage
#   make demo       runs the example streaming job
#   make flink-fuzz N=.. SEED=..  weir against real Flink on random queries (tests/flink/differential)
#   make fuzz       libFuzzer targets (clang; tests/fuzz), FUZZ_SECONDS each; make test replays their inputs
#   make tsan       ThreadSanitizer build (build-tsan/): the TSan stage of make test, then every cluster test
#   make chaos N=.. crash-restore chains per operator kind, backend and parallelism (tests/recovery/chaos)

CC      ?= gcc
CSTD    := -std=c17 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation
LIBS    := -ledit -ljansson -lrocksdb -lmicrohttpd -lrdkafka -lm -lpthread
LIBS    += -lpq
CSTD    += -I/usr/include/postgresql   # libpq-fe.h (the jdbc connector)

MODULES ?= $(notdir $(wildcard src/*))
SRC     := $(sort $(foreach m,$(MODULES),$(wildcard src/$(m)/*.c)))
MAIN    := src/cli/main.c
LIBSRC  := $(filter-out $(MAIN),$(SRC))
UNITS   ?= $(wildcard tests/unit/*.c)
UNITSRC := $(sort tests/unit/main.c $(UNITS))

REL_DIR ?= build
TST_DIR ?= build-test
TSAN_DIR ?= build-tsan
FUZZ_DIR ?= build-fuzz
FUZZ_TARGETS ?= parser formats plan checkpoint rest options tzif

# The Apache Flink release weir follows, pinned in one place (FLINK_VERSION): the generated
# <build>/gen/flink_version.h gives it to the code (REST flink-version, compiled plans), and
# scripts/install-flink.sh installs the same release for the Flink-backed tests.
FLINK_VERSION := $(shell tr -d '[:space:]' < FLINK_VERSION)

REL_CFLAGS := $(CSTD) $(WARN) -O2 -g -MMD -MP -I$(REL_DIR)/gen
TST_CFLAGS := $(CSTD) $(WARN) -I$(TST_DIR)/gen -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined -MMD -MP -DWEIR_FAULT_INJECTION -DWEIR_TEST_BUILD
TST_LDFLAGS := -fsanitize=address,undefined
TSAN_CFLAGS := $(CSTD) $(WARN) -I$(TSAN_DIR)/gen -O1 -g -fno-omit-frame-pointer -fsanitize=thread -MMD -MP

REL_OBJ := $(patsubst %.c,$(REL_DIR)/%.o,$(SRC))
TST_OBJ := $(patsubst %.c,$(TST_DIR)/%.o,$(LIBSRC))
TST_MAIN_OBJ := $(TST_DIR)/$(MAIN:.c=.o)
UNIT_OBJ := $(patsubst %.c,$(TST_DIR)/%.o,$(UNITSRC))
TSAN_OBJ := $(patsubst %.c,$(TSAN_DIR)/%.o,$(SRC))

.PHONY: all deps rocksdb-release test unit demo fuzz clean bench flink-fuzz tsan chaos

all: deps $(REL_DIR)/weir

deps:
	@scripts/install-deps.sh

# A release librocksdb (NDEBUG) built once, on request, from Debian's source package into
# build-rocksdb/lib: the release weir loads it from there when it exists (RUNPATH, so
# LD_LIBRARY_PATH still overrides it) and Debian's lib, built with assertions and sync points,
# otherwise. Not part of `make`, `make demo` or `make test` (about 15 CPU minutes); the RocksDB
# benchmarks (bench/state) build it. Why: bench/state/README.md, "Debian's librocksdb against a
# release build". The test builds keep Debian's lib.
rocksdb-release: deps
	@scripts/install-rocksdb-release.sh
REL_RUNPATH := -Wl,--enable-new-dtags,-rpath,'$$ORIGIN/../build-rocksdb/lib'

$(REL_DIR)/weir: $(REL_OBJ)
	$(CC) -o $@ $^ $(LIBS) $(REL_RUNPATH)

# every object waits for the packages (deps) and the generated header, also under make -j
$(REL_OBJ): | deps $(REL_DIR)/gen/flink_version.h
$(TST_OBJ) $(TST_MAIN_OBJ) $(UNIT_OBJ): | deps $(TST_DIR)/gen/flink_version.h
$(TSAN_OBJ): | deps $(TSAN_DIR)/gen/flink_version.h

%/gen/flink_version.h: FLINK_VERSION
	@mkdir -p $(dir $@)
	@printf '/* generated from FLINK_VERSION by the Makefile: the Flink release weir follows */\n#define WEIR_FLINK_VERSION "%s"\n' '$(FLINK_VERSION)' > $@.tmp && mv $@.tmp $@

$(REL_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -c $< -o $@

$(TST_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(TST_CFLAGS) -c $< -o $@

$(TSAN_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(TSAN_CFLAGS) -c $< -o $@

$(TSAN_DIR)/weir: $(TSAN_OBJ)
	$(CC) -fsanitize=thread -o $@ $^ $(LIBS)

# ThreadSanitizer: the TSan stage of `make test` (tests/tsan/run.sh: parallel conformance, REST,
# checkpoint and savepoint cluster tests with zero reports), then every cluster test under TSan;
# a data race in a daemon's log fails the test (tests/cluster/lib.sh).
tsan: deps $(TSAN_DIR)/weir
	@tests/tsan/run.sh $(TSAN_DIR) && \
	fails=0; for t in tests/cluster/*.sh; do case "$$(basename $$t)" in lib.sh|setup.sh) continue;; esac; \
	  if BUILD=$(CURDIR)/$(TSAN_DIR) TSAN_OPTIONS="$${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}" \
	     timeout $${CLUSTER_TEST_TIMEOUT:-600} bash $$t > $(TSAN_DIR)/$$(basename $$t .sh).log 2>&1; then \
	    echo "PASS tsan $$(basename $$t .sh)"; \
	  else st=$$?; [ $$st = 77 ] && echo "SKIP tsan $$(basename $$t .sh)" || { echo "FAIL tsan $$(basename $$t .sh) (see $(TSAN_DIR)/$$(basename $$t .sh).log)"; fails=$$((fails+1)); }; fi; \
	done; [ $$fails = 0 ]

$(TST_DIR)/weir: $(TST_OBJ) $(TST_MAIN_OBJ)
	$(CC) $(TST_LDFLAGS) -o $@ $^ $(LIBS)

$(TST_DIR)/unit-tests: $(TST_OBJ) $(UNIT_OBJ)
	$(CC) $(TST_LDFLAGS) -o $@ $^ $(LIBS)

unit: deps $(TST_DIR)/unit-tests
	$(TST_DIR)/unit-tests

# I/O fault injection (tests/fault): an LD_PRELOAD library of the test build, never in weir itself
$(TST_DIR)/libweirfault.so: tests/fault/fault_io.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O1 -g -shared -fPIC -o $@ $< -ldl

test: deps $(TST_DIR)/weir $(TST_DIR)/unit-tests $(TST_DIR)/libweirfault.so \
      $(addprefix $(TST_DIR)/fuzz-replay-,$(FUZZ_TARGETS)) $(TSAN_DIR)/weir
	@TSAN_BUILD=$(CURDIR)/$(TSAN_DIR) tests/run.sh $(TST_DIR)

# crash-restore at scale (tests/recovery/chaos): N chains per operator kind, backend and parallelism
# on the optimised build; make test runs a bounded sample (tests/recovery/chaos_small.sh)
chaos: all
	@python3 tests/recovery/chaos --build $(REL_DIR) --chains $${N:-3} $${SEED:+--seed $$SEED} $${CHAOS_ARGS:-}

demo: all
	@bin/sql-client.sh -f examples/demo.sql

# libFuzzer targets (tests/fuzz/fuzz_<target>.c), built with clang over every library source:
#   make fuzz FUZZ_SECONDS=60 [FUZZ_TARGETS="formats plan"]   each target for FUZZ_SECONDS, corpus in
#   build-fuzz/corpus/<target> (seeded from tests/fuzz/seeds/<target>), crashes in build-fuzz/findings/
FUZZ_CFLAGS := $(CSTD) -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=undefined -I$(FUZZ_DIR)/gen -MMD -MP
FUZZ_OBJ := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(LIBSRC))

$(FUZZ_OBJ): | $(FUZZ_DIR)/gen/flink_version.h
$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz-%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LIBS)

fuzz:
	@scripts/install-deps.sh --fuzz
	@$(MAKE) --no-print-directory $(addprefix $(FUZZ_DIR)/fuzz-,$(FUZZ_TARGETS))
	@tests/fuzz/run.sh $(FUZZ_DIR) $${FUZZ_SECONDS:-600} $(FUZZ_TARGETS)

# the same targets' entry points linked with the test build (gcc, ASan+UBSan) and a plain main:
# make test replays every seed and kept regression input through them
$(TST_DIR)/fuzz-replay-%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(TST_OBJ)
	$(CC) $(TST_CFLAGS) $(TST_LDFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay_main.c $(TST_OBJ) $(LIBS)

# the differential tester against real Flink, any size and seed: make flink-fuzz N=500 SEED=7
# (CDC=1: only queries over changelog inputs, CDC=0: none; default a fifth of them)
flink-fuzz: all
	@python3 tests/flink/differential/fuzz.py --weir $(REL_DIR)/weir -n $${N:-200} --seed $${SEED:-1} \
	    --cdc-share $${CDC:-0.2} --expected tests/flink/differential/expected.txt \
	    --run-dir $(REL_DIR)/flink-run --found tests/flink/found

bench: all
	@echo "see bench/README.md"

clean:
	rm -rf $(REL_DIR) $(TST_DIR) $(TSAN_DIR) $(FUZZ_DIR)

-include $(REL_OBJ:.o=.d) $(TST_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(TST_MAIN_OBJ:.o=.d) $(TSAN_OBJ:.o=.d) \
         $(wildcard $(FUZZ_DIR)/obj/src/*/*.d)
