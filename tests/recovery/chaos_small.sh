#!/usr/bin/env bash
# chaos_small.sh — the bounded sample of tests/recovery/chaos that `make test` runs: every operator
# kind once on a random backend and parallelism (a new seed each run; the seed is printed so that a
# failure can be replayed with `tests/recovery/chaos --seed S ...`), small input, at most
# CHAOS_BUDGET seconds (default 60). One "PASS"/"FAIL" line per chain.
# Usage: tests/recovery/chaos_small.sh <build-dir>
set -uo pipefail
exec python3 "$(dirname "$0")/chaos" --build "$1" --chains 1 --rows 3000 --chunk-rows 50 --source-delay 8 \
    --kills 1..2 --sample-cases 1 --budget "${CHAOS_BUDGET:-60}" ${CHAOS_SEED:+--seed "$CHAOS_SEED"}
