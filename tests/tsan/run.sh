#!/usr/bin/env bash
# tsan/run.sh — the ThreadSanitizer stage of `make test`: the multi-threaded paths of weir, run by
# the TSan build (make build-tsan/weir), must give their usual results with zero TSan reports.
#
# What runs, and why (measured on 2 cores: a conformance case takes 0.3-4 s under TSan, the cluster
# tests 10-70 s; the whole stage took 13 min with the load average at 30, less on an idle machine):
#  - every conformance case at parallelism 2, and at parallelism 4 the first case of each operator
#    family (calc, join, window-agg, ...: the prefix before "__" in the case name) plus weir's own
#    cases. Every family crosses lanes through hash exchanges, bounded inboxes and checkpoint
#    barriers, and the cases stop with a savepoint and restore, so these cover lanes, exchanges,
#    back-pressure, alignment, snapshots and restore for every operator kind; parallelism 4 adds
#    more lanes than cores (worker slots) once per kind.
#  - the golden nexmark_parallel (two generators, strings crossing the exchanges);
#  - cluster tests (tests/cluster/lib.sh fails a test whose daemon log shows a TSan report):
#    rest_concurrency (concurrent REST readers of a running job's metrics and state figures, with
#    fewer requests: its load is bounded by time), checkpoints (periodic checkpoints and their REST
#    statistics), savepoints (savepoints and stop-with-savepoint requested from REST threads while
#    lanes run at parallelism 2).
# Usage: tests/tsan/run.sh <tsan-build-dir>  ("PASS name" / "FAIL name" / "SKIP reason" lines;
#        exit 0 when nothing failed, 77 when the TSan build is missing).
#   TSAN_CASES_PER_FAMILY=n  cases per family at parallelism 4 (default 1)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TB="$(cd "${1:?usage: tests/tsan/run.sh <tsan-build-dir>}" 2>/dev/null && pwd)"
if [[ -z "$TB" || ! -x "$TB/weir" ]]; then echo "SKIP tsan: ${1}/weir not built (make build-tsan/weir)"; exit 77; fi
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 exitcode=66 second_deadlock_stack=1}"
REPORT='WARNING: ThreadSanitizer|ThreadSanitizer: reported'
fails=0
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# ---- conformance sample ----
conf="${WEIR_CONFORMANCE:-$ROOT/../shared/conformance}"
per="${TSAN_CASES_PER_FAMILY:-1}"
if [[ -d "$conf" ]]; then
  all=() sample=()
  declare -A seen=()
  while IFS= read -r -d '' c; do
    all+=("$c")
    fam="$(basename "$c" .case)"; fam="${fam%%__*}"
    n="${seen[$fam]:-0}"
    [[ $n -ge $per ]] && continue
    seen[$fam]=$((n + 1)); sample+=("$c")
  done < <(find "$conf" -name '*.case' -type f -print0 | sort -z)
  while IFS= read -r -d '' c; do all+=("$c"); sample+=("$c"); done < <(find "$ROOT/tests/conformance" -name '*.case' -type f -print0 | sort -z)
  run_cases() { # $1 = parallelism, then the cases
    local par="$1" c name out st; shift
    for c in "$@"; do
      name="conformance-p$par/$(basename "$c")"
      if grep -qE "^$(basename "$c" | sed 's/\./\\./g')[[:space:]]" "$ROOT/tests/conformance.xfail" 2>/dev/null; then
        echo "SKIP $name: listed in tests/conformance.xfail"; continue
      fi
      out="$(WEIR_CONFORMANCE_PARALLELISM="$par" timeout "${TSAN_TEST_TIMEOUT:-300}" "$TB/weir" conformance "$c" 2>&1 < /dev/null)"; st=$?
      if grep -qE "$REPORT" <<< "$out"; then
        fail "$name: ThreadSanitizer report"; grep -A 40 -m 1 "WARNING: ThreadSanitizer" <<< "$out" | head -n 60
      elif [[ $st -ne 0 && $st -ne 77 ]]; then
        fail "$name (exit $st)"; printf '%s\n' "$out" | head -n 20
      else
        echo "PASS $name"
      fi
    done
  }
  run_cases 2 "${all[@]}"
  run_cases 4 "${sample[@]}"
else
  echo "SKIP tsan conformance: $conf not found"
fi

# ---- goldens at parallelism 2 on a generator ----
# nexmark_parallel: each lane's generator, strings crossing the exchanges into an aggregate, a
# Top-N and a join (the conformance cases read values and files); a TSan report is unexpected
# stderr, which fails the golden
gres="$(mktemp -d)"
for g in nexmark_parallel; do
  TEST_TIMEOUT="${TSAN_TEST_TIMEOUT:-300}" ROOT="$ROOT" bash "$ROOT/tests/run.sh" --one "$TB" "$ROOT/tests/golden" "$gres" "$ROOT/tests/golden/$g.sql"
  if [[ "$(cat "$gres/$g.result" 2>/dev/null)" == PASS ]]; then echo "PASS golden/$g"
  else fail "golden/$g"; head -n 60 "$gres/$g.log"; fi
done
rm -rf "$gres"

# ---- cluster tests under TSan ----
for t in rest_concurrency checkpoints savepoints; do
  # rest_concurrency bounds its load by time (60 s); TSan serves ~200 requests/s, so it asks fewer
  run_cluster() { LOAD_REQUESTS="${TSAN_LOAD_REQUESTS:-1200}" BUILD="$TB" timeout "${TSAN_CLUSTER_TIMEOUT:-600}" bash "$ROOT/tests/cluster/$t.sh" 2>&1 < /dev/null; }
  out="$(run_cluster)"; st=$?
  # these tests pace bounded sources by the wall clock (savepoints: a 20 s datagen must still run
  # when STOP JOB arrives); TSan on a loaded machine can miss that once: one retry, never after a
  # TSan report
  if [[ $st -ne 0 && $st -ne 77 ]] && ! grep -qE "$REPORT" <<< "$out"; then
    echo "# cluster/$t failed once under TSan (exit $st), retried:"; printf '%s\n' "$out" | grep '^FAIL' | sed 's/^/#   /'
    out="$(run_cluster)"; st=$?
  fi
  if [[ $st -eq 0 ]]; then echo "PASS cluster/$t"
  elif [[ $st -eq 77 ]]; then grep '^SKIP' <<< "$out" | head -n 1
  else fail "cluster/$t (exit $st)"; printf '%s\n' "$out" | head -n 60; fi
done
[[ $fails -eq 0 ]]
