# weir — build, test, demo. See README.md.
#   make            optimised build: build/weir
#   make test       ASan+UBSan build and every test (unit, golden, errors, conformance)
#   make demo       runs the example streaming job
#   make flink-fuzz N=.. SEED=..  weir against real Flink on random queries (tests/flink/differential)
#   make fuzz       libFuzzer target for the SQL parser (clang), not part of `make test`
#   make tsan       ThreadSanitizer build (build-tsan/) and the cluster/REST tests under it

CC      ?= gcc
CSTD    := -std=c17 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation
LIBS    := -ledit -ljansson -lrocksdb -lmicrohttpd -lm -lpthread

MODULES ?= $(notdir $(wildcard src/*))
SRC     := $(sort $(foreach m,$(MODULES),$(wildcard src/$(m)/*.c)))
MAIN    := src/cli/main.c
LIBSRC  := $(filter-out $(MAIN),$(SRC))
UNITS   ?= $(wildcard tests/unit/*.c)
UNITSRC := $(sort tests/unit/main.c $(UNITS))

REL_DIR ?= build
TST_DIR ?= build-test
TSAN_DIR ?= build-tsan

# The Apache Flink release weir follows, pinned in one place (FLINK_VERSION): the generated
# <build>/gen/flink_version.h gives it to the code (REST flink-version, compiled plans), and
# scripts/install-flink.sh installs the same release for the Flink-backed tests.
FLINK_VERSION := $(shell tr -d '[:space:]' < FLINK_VERSION)

REL_CFLAGS := $(CSTD) $(WARN) -O2 -g -MMD -MP -I$(REL_DIR)/gen
TST_CFLAGS := $(CSTD) $(WARN) -I$(TST_DIR)/gen -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined -MMD -MP
TST_LDFLAGS := -fsanitize=address,undefined
TSAN_CFLAGS := $(CSTD) $(WARN) -I$(TSAN_DIR)/gen -O1 -g -fno-omit-frame-pointer -fsanitize=thread -MMD -MP

REL_OBJ := $(patsubst %.c,$(REL_DIR)/%.o,$(SRC))
TST_OBJ := $(patsubst %.c,$(TST_DIR)/%.o,$(LIBSRC))
TST_MAIN_OBJ := $(TST_DIR)/$(MAIN:.c=.o)
UNIT_OBJ := $(patsubst %.c,$(TST_DIR)/%.o,$(UNITSRC))
TSAN_OBJ := $(patsubst %.c,$(TSAN_DIR)/%.o,$(SRC))

.PHONY: all deps test unit demo fuzz clean bench flink-fuzz tsan

all: deps $(REL_DIR)/weir

deps:
	@scripts/install-deps.sh

$(REL_DIR)/weir: $(REL_OBJ)
	$(CC) -o $@ $^ $(LIBS)

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

# ThreadSanitizer: the cluster daemon (a thread per HTTP connection, a thread per lane, the
# metrics sampler) under the cluster/REST tests; a data race in the daemon's log fails the test
# (tests/cluster/lib.sh). Not part of `make test` (a second full build).
tsan: deps $(TSAN_DIR)/weir
	@fails=0; for t in tests/cluster/*.sh; do case "$$(basename $$t)" in lib.sh|setup.sh) continue;; esac; \
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

test: deps $(TST_DIR)/weir $(TST_DIR)/unit-tests
	@tests/run.sh $(TST_DIR)

demo: all
	@bin/sql-client.sh -f examples/demo.sql

fuzz:
	@scripts/install-deps.sh --fuzz
	@mkdir -p build-fuzz
	clang $(CSTD) -O1 -g -fsanitize=fuzzer,address,undefined -o build-fuzz/fuzz-parser \
	    tests/fuzz/fuzz_parser.c $(filter src/common/% src/sql/%,$(LIBSRC)) -lm
	@mkdir -p build-fuzz/corpus
	build-fuzz/fuzz-parser -max_total_time=$${FUZZ_SECONDS:-600} -max_len=4096 build-fuzz/corpus tests/fuzz/seeds

# the differential tester against real Flink, any size and seed: make flink-fuzz N=500 SEED=7
# (CDC=1: only queries over changelog inputs, CDC=0: none; default a fifth of them)
flink-fuzz: all
	@python3 tests/flink/differential/fuzz.py --weir $(REL_DIR)/weir -n $${N:-200} --seed $${SEED:-1} \
	    --cdc-share $${CDC:-0.2} --expected tests/flink/differential/expected.txt \
	    --run-dir $(REL_DIR)/flink-run --found tests/flink/found

bench: all
	@echo "see bench/README.md"

clean:
	rm -rf $(REL_DIR) $(TST_DIR) $(TSAN_DIR) build-fuzz

-include $(REL_OBJ:.o=.d) $(TST_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(TST_MAIN_OBJ:.o=.d) $(TSAN_OBJ:.o=.d)
