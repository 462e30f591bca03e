#!/usr/bin/env bash
# run.sh — the `make test` runner: unit tests, SQL golden tests, error tests, conformance cases.
#
# Usage: tests/run.sh <build-dir>            (e.g. build-test; needs <build-dir>/weir and unit-tests)
#        UPDATE=1 tests/run.sh <build-dir>   rewrite the expected .out/.err/.exit files
#        JOBS=4 tests/run.sh <build-dir>     golden/error tests in parallel (default 2)
#        TEST_TIMEOUT=60                      seconds per golden/error/conformance run (default 60)
#
#  (a) <build-dir>/unit-tests: its "unit: N passed, M failed" line is added to the totals.
#  (b) tests/golden/<name>.sql, with tests/golden/<name>.init.sql as -i when present:
#      `$DATA` in the scripts is replaced by the absolute path of tests/golden/data, the script runs
#      as `weir sql-client [-i init] -f script` in tests/golden with WEIR_TEST_DATA set, and the
#      output is compared exactly with <name>.out (stdout), <name>.err (stderr; without it stderr
#      must be empty) and <name>.exit (exit status, when the file exists). Absolute paths in the
#      output are written back as $DATA (the data folder) and $GOLDEN (the test folder).
#  (b') golden vs Flink: weir's golden transcripts, normalized (tests/flink/normalize.py), against
#      Flink's recordings in tests/golden/flink (tests/flink/goldens_check.py; no Flink needed).
#  (c) tests/errors/*.sql the same way.
#  (d) conformance cases (../shared/conformance relative to the repository, or $WEIR_CONFORMANCE):
#      `weir conformance <case>` per case; a binary that answers "unknown command" skips them all.
#  (e) cluster tests: tests/cluster/*.sh against a daemon each starts and stops (see there);
#      then tests/gateway/*.sh: Flink's own clients against weir's SQL gateway endpoint.
#  (t) ThreadSanitizer: tests/tsan/run.sh with the TSan build (parallel conformance, cluster REST and
#      checkpoint tests; zero TSan reports).
#  (g) client tests: tests/client/*.sh, the interactive client driven through tmux.
#  (h) jdbc tests: tests/jdbc/*.sh, the jdbc connector against a real PostgreSQL server.
#  (i) kafka tests: tests/kafka/*.sh against a real Kafka server each starts and stops.
#  (f) real Flink (one cluster for the section): the differential sample, the seed labs, and the
#      compiled plans across engines (weir's plans run by Flink's EXECUTE PLAN and Flink's by weir).
# The last line is exactly "N passed, N failed, N skipped"; the exit status is 1 if any failed.
set -uo pipefail

# ----------------------------------------------------------------------------- one test (worker)
if [[ "${1:-}" == "--one" ]]; then
  build="$2" dir="$3" results="$4" sql="$5"
  name="$(basename "$sql" .sql)"
  data="$(cd "$dir/.." && pwd)/golden/data"
  [[ -d "$dir/data" ]] && data="$(cd "$dir/data" && pwd)"
  golden="$(cd "$dir" && pwd)"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT

  mkdir -p "$tmp/work"
  subst() { # replace $DATA with the absolute data path, $TMP with a fresh scratch folder
    local esc esct
    esc="$(printf '%s' "$data" | sed -e 's/[\/&|]/\\&/g')"
    esct="$(printf '%s' "$tmp/work" | sed -e 's/[\/&|]/\\&/g')"
    sed -e "s|\\\$DATA|$esc|g" -e "s|\\\$TMP|$esct|g" "$1" > "$2"
  }
  subst "$sql" "$tmp/$name.sql"
  args=()
  if [[ -f "$dir/$name.init.sql" ]]; then
    subst "$dir/$name.init.sql" "$tmp/$name.init.sql"
    args+=(-i "$tmp/$name.init.sql")
  fi
  if [[ -f "$dir/$name.args" ]]; then read -r -a extra < "$dir/$name.args"; args+=("${extra[@]}"); fi
  args+=(-f "$tmp/$name.sql")

  status=0
  (cd "$dir" && WEIR_EMBEDDED=1 WEIR_CHECK_JOB_GRAPH=1 WEIR_TEST_DATA="$data" timeout "${TEST_TIMEOUT:-60}" "$build/weir" sql-client \
      "${args[@]}" > "$tmp/stdout" 2> "$tmp/stderr" < /dev/null) || status=$?
  if [[ $status -eq 124 ]]; then echo "timed out after ${TEST_TIMEOUT:-60}s" >> "$tmp/stderr"; fi

  normalize() { # absolute paths back to placeholders
    local d g t
    d="$(printf '%s' "$data" | sed -e 's/[\/&|.]/\\&/g')"
    g="$(printf '%s' "$golden" | sed -e 's/[\/&|.]/\\&/g')"
    t="$(printf '%s' "$tmp" | sed -e 's/[\/&|.]/\\&/g')"
    # job ids are random (as Flink's): compare them as a placeholder
    sed -e "s|$d|\$DATA|g" -e "s|$g|\$GOLDEN|g" -e "s|$t|\$GOLDEN|g" \
        -e 's/^Job ID: [0-9a-f]\{32\}$/Job ID: <job id>/' "$1"
  }
  normalize "$tmp/stdout" > "$tmp/out"
  normalize "$tmp/stderr" > "$tmp/err"
  cp "$tmp/out" "$results/$name.stdout"        # for the Flink comparison (section b')
  echo "$status" > "$results/$name.status"

  rel="${dir#"$ROOT/"}/$name"
  if [[ -n "${UPDATE:-}" ]]; then
    cp "$tmp/out" "$dir/$name.out"
    if [[ -f "$dir/$name.err" || -s "$tmp/err" ]]; then cp "$tmp/err" "$dir/$name.err"; fi
    if [[ -f "$dir/$name.exit" || $status -ne 0 ]]; then echo "$status" > "$dir/$name.exit"; fi
    echo "PASS" > "$results/$name.result"
    echo "updated $rel" > "$results/$name.log"
    exit 0
  fi

  ok=1
  : > "$results/$name.log"
  if [[ ! -f "$dir/$name.out" ]]; then
    ok=0; echo "missing $rel.out (run with UPDATE=1 to create it)" >> "$results/$name.log"
  elif ! diff -u --label "$rel.out (expected)" --label "$rel.out (actual)" \
         "$dir/$name.out" "$tmp/out" >> "$results/$name.log"; then
    ok=0
  fi
  if [[ -f "$dir/$name.err" ]]; then
    if ! diff -u --label "$rel.err (expected)" --label "$rel.err (actual)" \
         "$dir/$name.err" "$tmp/err" >> "$results/$name.log"; then ok=0; fi
  elif [[ -s "$tmp/err" ]]; then
    ok=0
    { echo "unexpected stderr (add $rel.err if it is expected):"; head -n 40 "$tmp/err"; } \
      >> "$results/$name.log"
  fi
  if [[ -f "$dir/$name.exit" ]]; then
    want="$(tr -d '[:space:]' < "$dir/$name.exit")"
    if [[ "$want" != "$status" ]]; then
      ok=0; echo "exit status $status, expected $want" >> "$results/$name.log"
    fi
  fi
  if [[ $ok -eq 1 ]]; then echo PASS > "$results/$name.result"; else echo FAIL > "$results/$name.result"; fi
  exit 0
fi

# ----------------------------------------------------------------------------- driver
if [[ $# -lt 1 ]]; then
  echo "usage: tests/run.sh <build-dir>" >&2
  exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
BUILD="$(cd "$1" 2>/dev/null && pwd)" || { echo "run.sh: no build directory $1" >&2; exit 2; }
SELF="$ROOT/tests/run.sh"
passed=0 failed=0 skipped=0

# (a) unit tests
if [[ -x "$BUILD/unit-tests" ]]; then
  unit_out="$("$BUILD/unit-tests" 2>&1)"; unit_status=$?
  line="$(printf '%s\n' "$unit_out" | grep -E '^unit: [0-9]+ passed, [0-9]+ failed' | tail -n 1)"
  if [[ -n "$line" ]]; then
    up="$(sed -E 's/^unit: ([0-9]+) passed.*/\1/' <<< "$line")"
    uf="$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<< "$line")"
    passed=$((passed + up)); failed=$((failed + uf))
    if [[ $unit_status -ne 0 && $uf -eq 0 ]]; then failed=$((failed + 1)); fi
  else
    failed=$((failed + 1))
  fi
  if [[ $unit_status -ne 0 ]]; then printf '%s\n' "$unit_out" | grep -v '^unit: ' | head -n 60; fi
  echo "$line"
else
  echo "unit: $BUILD/unit-tests not found"
  failed=$((failed + 1))
fi

# (b) golden and (c) error tests
run_dir() { # $1 = folder, $2 = label
  local dir="$1" label="$2" results p=0 f=0
  local files=()
  while IFS= read -r -d '' s; do
    [[ "$s" == *.init.sql ]] && continue
    files+=("$s")
  done < <(find "$dir" -maxdepth 1 -name '*.sql' -print0 2>/dev/null | sort -z)
  if [[ ${#files[@]} -eq 0 ]]; then echo "$label: no tests"; return; fi
  if [[ ! -x "$BUILD/weir" ]]; then
    echo "$label: $BUILD/weir not found"; failed=$((failed + ${#files[@]})); return
  fi
  results="$(mktemp -d)"
  printf '%s\0' "${files[@]}" |
    xargs -0 -P "${JOBS:-2}" -n 1 "$SELF" --one "$BUILD" "$dir" "$results"
  for s in "${files[@]}"; do
    local name r
    name="$(basename "$s" .sql)"
    r="$(cat "$results/$name.result" 2>/dev/null || echo FAIL)"
    if [[ "$r" == PASS ]]; then
      p=$((p + 1))
      [[ -n "${UPDATE:-}" ]] && cat "$results/$name.log"
    else
      f=$((f + 1))
      echo "FAIL $label/$name"
      sed -n '1,80p' "$results/$name.log" 2>/dev/null
    fi
  done
  echo "$label: $p passed, $f failed"
  passed=$((passed + p)); failed=$((failed + f))
  [[ "$label" == golden && -z "${UPDATE:-}" ]] && flink_goldens "$results"
  rm -rf "$results"
}

# (b') golden vs Flink: weir's stdout of each golden test (normalized by tests/flink/normalize.py)
#      must equal Flink's committed recording tests/golden/flink/<name>.out (python3
#      tests/flink/record_goldens.py re-records them; Flink is not needed here). Tests listed in
#      tests/golden/flink/EXPECTED_DIFFERENCES are expected failures (XFAIL, counted as skipped;
#      XPASS when they match again), tests in tests/golden/flink/WEIR_ONLY are skipped.
flink_goldens() { # $1 = folder with the golden run's <name>.stdout and <name>.status
  local out st fp ff fs
  out="$(python3 "$ROOT/tests/flink/goldens_check.py" --actual "$1" 2>&1)"; st=$?
  fp="$(grep -c '^PASS \|^XPASS ' <<< "$out")"; ff="$(grep -c '^FAIL ' <<< "$out")"
  fs="$(grep -c '^SKIP \|^XFAIL ' <<< "$out")"
  [[ $st -ne 0 && $ff -eq 0 ]] && ff=1
  grep -v '^PASS \|^SKIP ' <<< "$out" | grep -v '^flink-goldens: ' | head -n 200
  echo "golden vs Flink: $fp passed, $ff failed, $fs skipped ($(grep -c '^XFAIL ' <<< "$out") expected differences)"
  passed=$((passed + fp)); failed=$((failed + ff)); skipped=$((skipped + fs))
}
run_dir "$ROOT/tests/golden" golden
run_dir "$ROOT/tests/errors" errors

# (d) conformance, at parallelism 1, then 2 and 4 (final tables must be the same; see
#     WEIR_CONFORMANCE_PARALLELISM in src/session/conformance.c), then on the RocksDB state backend
#     (WEIR_CONFORMANCE_BACKEND); weir's own cases in tests/conformance run with them
run_conformance() { # $1 = parallelism, $2 = state backend (default hashmap)
  local par="$1" backend="${2:-hashmap}" label="conformance"
  [[ "$par" != 1 ]] && label="conformance (parallelism $par)"
  [[ "$backend" != hashmap ]] && label="conformance ($backend)"
  conf="${WEIR_CONFORMANCE:-$ROOT/../shared/conformance}"
  if [[ ! -d "$conf" ]]; then echo "$label: $conf not found, skipped"; return; fi
  local cases=() cp=0 cf=0 cs=0 unknown=0
  while IFS= read -r -d '' s; do cases+=("$s"); done < <(
    find "$conf" "$ROOT/tests/conformance" \( -name '*.case' -o -name '*.qcase' \) -type f -print0 2>/dev/null | sort -z)
  for c in "${cases[@]}"; do
    if [[ ( "$par" != 1 || "$backend" != hashmap ) && "$c" == *.qcase ]]; then continue; fi
    if [[ $unknown -eq 1 || ! -x "$BUILD/weir" ]]; then cs=$((cs + 1)); continue; fi
    out="$(WEIR_CHECK_JOB_GRAPH=1 WEIR_CONFORMANCE_PARALLELISM="$par" WEIR_CONFORMANCE_BACKEND="$backend" timeout "${TEST_TIMEOUT:-60}" "$BUILD/weir" conformance "$c" 2>&1 < /dev/null)"; st=$?
    if grep -q "unknown command" <<< "$out"; then
      unknown=1; cs=$((cs + 1)); continue
    fi
    cname="$(basename "$c")"
    known="$(grep -E "^${cname//./\\.}[[:space:]]" "$ROOT/tests/conformance.xfail" 2>/dev/null | head -n 1)"
    if [[ -n "$known" && $st -ne 0 && $st -ne 77 ]]; then
      cs=$((cs + 1))          # a known failure, listed with its reason in tests/conformance.xfail
      continue
    fi
    if [[ -n "$known" && $st -eq 0 ]]; then
      echo "XPASS conformance/$cname: remove it from tests/conformance.xfail"
    fi
    if [[ $st -eq 0 ]]; then
      cp=$((cp + 1))
    elif [[ $st -eq 77 ]]; then
      cs=$((cs + 1))        # the case declares itself unsupported (automake's skip status)
    else
      cf=$((cf + 1))
      echo "FAIL $label/${c#"$conf/"}"
      printf '%s\n' "$out" | head -n 30
    fi
  done
  echo "$label: $cp passed, $cf failed, $cs skipped"
  passed=$((passed + cp)); failed=$((failed + cf)); skipped=$((skipped + cs))
}
run_conformance 1
run_conformance 2
run_conformance 4
run_conformance 1 rocksdb

# (e0) plans: tests/plans/compare.sh compares weir's COMPILE PLAN node sequence (types and state
#      names/TTLs) with Flink's stored restore-test plans ("PASS/FAIL/SKIP name" lines; exit 77 when
#      the conformance corpus is absent)
if [[ -x "$ROOT/tests/plans/compare.sh" && -x "$BUILD/weir" ]]; then
  pout="$(WEIR_EMBEDDED=1 TMPDIR="${TMPDIR:-/tmp}" timeout 600 "$ROOT/tests/plans/compare.sh" "$BUILD" 2>&1)"; pst=$?
  pp="$(grep -c '^PASS ' <<< "$pout")"; pf="$(grep -c '^FAIL ' <<< "$pout")"; ps="$(grep -c '^SKIP ' <<< "$pout")"
  if [[ $pst -eq 77 ]]; then ps=$((ps > 0 ? ps : 1)); elif [[ $pst -ne 0 && $pf -eq 0 ]]; then pf=1; fi
  grep '^FAIL ' <<< "$pout" | head -n 40
  echo "plans: $pp passed, $pf failed, $ps skipped"
  passed=$((passed + pp)); failed=$((failed + pf)); skipped=$((skipped + ps))
fi

# (e0') plans against Flink: tests/flink/plans.py check runs every query / INSERT of the golden tests
#       and conformance cases through weir's EXPLAIN (plain, CHANGELOG_MODE, PLAN_ADVICE, all details)
#       and COMPILE PLAN and compares each section with Flink's stored output (tests/flink/plans/,
#       re-recorded by `plans.py record` where Flink is installed): "PASS/FAIL/XFAIL/SKIP name"
#       lines; XFAIL (a known difference, tests/flink/plans.xfail) and SKIP count as skipped
if [[ -f "$ROOT/tests/flink/plans.py" && -x "$BUILD/weir" ]] && command -v python3 > /dev/null 2>&1; then
  fout="$(WEIR_EMBEDDED=1 TMPDIR="${TMPDIR:-/tmp}" timeout 900 python3 "$ROOT/tests/flink/plans.py" check --build "$BUILD" 2>&1)"; fst=$?
  fp="$(grep -c '^PASS ' <<< "$fout")"; ff="$(grep -c '^FAIL ' <<< "$fout")"; fx="$(grep -cE '^(XFAIL|SKIP) ' <<< "$fout")"
  if [[ $fst -eq 77 ]]; then fx=$((fx > 0 ? fx : 1)); elif [[ $fst -ne 0 && $ff -eq 0 ]]; then ff=1; fi
  grep -E '^FAIL |XPASS' <<< "$fout" | head -n 40
  echo "plans vs flink: $fp passed, $ff failed, $fx skipped"
  passed=$((passed + fp)); failed=$((failed + ff)); skipped=$((skipped + fx))
fi

# Golden, error and recovery runs use the embedded mode (WEIR_EMBEDDED=1) even when a developer's
# cluster is running, so that they never submit to it.
# (e) recovery: tests/recovery/*.sh kill checkpointed jobs and restore them (one "PASS name" /
#     "FAIL name" line per case)
for rs in "$ROOT"/tests/recovery/*.sh; do
  [[ -x "$rs" && -x "$BUILD/weir" ]] || continue
  rout="$(WEIR_EMBEDDED=1 TMPDIR="${TMPDIR:-/tmp}" timeout 300 "$rs" "$BUILD" 2>&1)"
  rp="$(grep -c '^PASS ' <<< "$rout")"; rf="$(grep -c '^FAIL ' <<< "$rout")"
  [[ $rp -eq 0 && $rf -eq 0 ]] && rf=1
  grep -A 20 '^FAIL ' <<< "$rout" | head -n 60
  echo "recovery/$(basename "$rs" .sh): $rp passed, $rf failed"
  passed=$((passed + rp)); failed=$((failed + rf))
done

# (e2) fault injection (tests/fault/sweep): a sample of the I/O and allocation fault points of
#      small checkpointing jobs — always the first and the last two calls of each kind, the rest
#      at random (`tests/fault/sweep --build <dir>` runs every point); needs the test build's
#      libweirfault.so. Passed = fault points that behaved.
if [[ -x "$ROOT/tests/fault/sweep" && -x "$BUILD/weir" && -f "$BUILD/libweirfault.so" ]]; then
  fout="$(TMPDIR="${TMPDIR:-/tmp}" timeout 600 python3 "$ROOT/tests/fault/sweep" --build "$BUILD" \
      --scenarios "${FAULT_SCENARIOS:-checkpoint-hashmap,checkpoint-rocksdb}" --sample "${FAULT_SAMPLE:-3}" \
      --alloc-sample "${FAULT_ALLOC_SAMPLE:-3}" --rows 1500 --seed "$RANDOM" 2>&1)"; fst=$?
  fp="$(grep -o '^# fault sweep: [0-9]* passed' <<< "$fout" | grep -o '[0-9]*')"
  ff="$(grep -c '^FAIL ' <<< "$fout")"
  if [[ -z "$fp" ]]; then fp=0; ff=$((ff > 0 ? ff : 1)); tail -n 10 <<< "$fout"; fi
  [[ $fst -ne 0 && $ff -eq 0 ]] && ff=1
  grep -A 6 '^FAIL ' <<< "$fout" | head -n 40
  grep '^# ' <<< "$fout"
  echo "fault: $fp passed, $ff failed"
  passed=$((passed + fp)); failed=$((failed + ff))
fi

# (e3) fuzz regressions: every seed and kept regression input of each libFuzzer target
#      (tests/fuzz/seeds/<t>, tests/fuzz/regressions/<t>) replayed through the target's entry
#      point linked with this build (<build>/fuzz-replay-<t>); one test per target
for fr in "$BUILD"/fuzz-replay-*; do
  [[ -x "$fr" ]] || continue
  t="${fr##*/fuzz-replay-}"
  inputs=()
  for d in "$ROOT/tests/fuzz/seeds/$t" "$ROOT/tests/fuzz/regressions/$t"; do
    [[ -d "$d" ]] && while IFS= read -r f; do inputs+=("$f"); done < <(find "$d" -type f | sort)
  done
  if rout="$(timeout 300 "$fr" "${inputs[@]}" 2>&1)"; then
    passed=$((passed + 1))
  else
    echo "FAIL fuzz-replay $t"; tail -n 20 <<< "$rout"
    failed=$((failed + 1))
  fi
  echo "fuzz-replay/$t: $(grep -o 'replayed [0-9]* inputs' <<< "$rout" || echo 'no result')"
done

# (e') consistency: tests/consistency/*.sh run a query in streaming and batch mode and compare the
#      final tables ("PASS name" / "FAIL name" lines)
for cs_script in "$ROOT"/tests/consistency/*.sh; do
  [[ -x "$cs_script" && -x "$BUILD/weir" ]] || continue
  cout="$(WEIR_EMBEDDED=1 TMPDIR="${TMPDIR:-/tmp}" timeout 300 "$cs_script" "$BUILD" 2>&1)"
  cp_="$(grep -c '^PASS ' <<< "$cout")"; cf="$(grep -c '^FAIL ' <<< "$cout")"
  [[ $cp_ -eq 0 && $cf -eq 0 ]] && cf=1
  grep -A 8 '^FAIL ' <<< "$cout" | head -n 40
  echo "consistency/$(basename "$cs_script" .sh): $cp_ passed, $cf failed"
  passed=$((passed + cp_)); failed=$((failed + cf))
done

# ----------------------------------------------------------------------------- (f) real Flink
# One Flink cluster (tests/flink/flinkctl.py: the release pinned in FLINK_VERSION, installed by
# scripts/install-flink.sh) serves the Flink-backed suites of this run; it is stopped on exit.
# The differential tester runs a fixed-seed sample (FLINK_DIFF_N queries from FLINK_DIFF_SEED,
# each at parallelism 1 and 2) on weir and on Flink; each query is one test. Known differences
# are listed with their reason in tests/flink/differential/expected.txt ("seed query reason") and
# count as expected failures (skipped, with the reason printed). When Flink cannot be installed
# here the section says why and counts as skipped. WEIR_SKIP_FLINK=1 skips it. Then the seed labs
# and REST shapes (tests/flink/labs/labs.py) run on the same Flink cluster and on a private weir
# cluster, one test per artifact.
if [[ -z "${WEIR_SKIP_FLINK:-}" && -x "$BUILD/weir" ]]; then
  flink_run="$BUILD/flink-run"
  trap 'python3 "$ROOT/tests/flink/flinkctl.py" stop --run-dir "$flink_run" >/dev/null 2>&1' EXIT
  fstart=$(date +%s)
  if python3 "$ROOT/tests/flink/flinkctl.py" start --run-dir "$flink_run" > /dev/null 2> "$BUILD/flink-start.log"; then
    export FLINK_RUN_DIR="$flink_run"     # the gateway section's weir_client.sh uses it too
    fout="$(timeout 1800 python3 "$ROOT/tests/flink/differential/fuzz.py" --weir "$BUILD/weir" \
        -n "${FLINK_DIFF_N:-100}" --seed "${FLINK_DIFF_SEED:-20261201}" --run-dir "$flink_run" \
        --found "$BUILD/flink-found" --expected "$ROOT/tests/flink/differential/expected.txt" --quiet 2>&1)"; fst=$?
    summary="$(grep '^flink-differential:' <<< "$fout" | tail -n 1)"
    grep -E '^(DIFFER|EXPECTED|SKIP)|^  ' <<< "$fout" | head -n 80
    if [[ -z "$summary" ]]; then
      echo "FAIL flink-differential (exit $fst)"; printf '%s\n' "$fout" | tail -n 20
      failed=$((failed + 1))
    else
      fa="$(sed -E 's/^flink-differential: ([0-9]+)\/.*/\1/' <<< "$summary")"
      fn="$(sed -E 's/^flink-differential: [0-9]+\/([0-9]+).*/\1/' <<< "$summary")"
      fs="$(sed -E 's/.*, ([0-9]+) skipped.*/\1/' <<< "$summary")"
      fx="$(grep -c '^EXPECTED ' <<< "$fout")"
      passed=$((passed + fa)); failed=$((failed + fn - fa - fx)); skipped=$((skipped + fs + fx))
      echo "$summary ($(( $(date +%s) - fstart )) s with Flink's start)"
    fi
    # the seed labs (001 state/TTL, 004 EXPLAIN) and Flink's REST endpoints, on both engines, each
    # artifact one test (tests/flink/labs/labs.py; known differences in its EXPECTED_DIFFERENCES
    # count as skipped)
    lout="$(timeout 600 python3 "$ROOT/tests/flink/labs/labs.py" --weir "$BUILD/weir" \
        --run-dir "$flink_run" 2>&1)"; lst=$?
    lsum="$(grep '^flink-labs:' <<< "$lout" | tail -n 1)"
    lp="$(grep -c '^PASS ' <<< "$lout")"; lf="$(grep -c '^FAIL' <<< "$lout")"; lx="$(grep -c '^XFAIL ' <<< "$lout")"
    [[ $lst -ne 0 && $lf -eq 0 ]] && lf=1
    grep -E '^(FAIL|UNUSED)|^  ' <<< "$lout" | head -n 60
    [[ -z "$lsum" ]] && printf '%s\n' "$lout" | tail -n 20
    echo "${lsum:-flink-labs: no summary (exit $lst)}"
    passed=$((passed + lp)); failed=$((failed + lf)); skipped=$((skipped + lx))
    # compiled plans across the engines: weir's COMPILE PLAN of every streaming INSERT of the
    # goldens and conformance cases run by Flink's EXECUTE PLAN, Flink's recorded plans run by
    # weir, results compared per direction (tests/flink/execute_plans.py; known differences in
    # tests/flink/execute_plans.xfail count as skipped)
    eout="$(JOBS=4 timeout 2400 python3 "$ROOT/tests/flink/execute_plans.py" --run-dir "$flink_run" \
        --build "$BUILD" 2>&1)"; est=$?
    esum="$(grep '^execute-plans:' <<< "$eout" | tail -n 1)"
    grep -E '^(FAIL|XPASS)' <<< "$eout" | head -n 60
    if [[ -z "$esum" ]]; then
      echo "FAIL execute-plans (exit $est)"; printf '%s\n' "$eout" | tail -n 20
      failed=$((failed + 1))
    else
      echo "$esum"
      passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$esum")))
      failed=$((failed + $(sed -E 's/.*, ([0-9]+) failed.*/\1/' <<< "$esum")))
      skipped=$((skipped + $(sed -E 's/.*, ([0-9]+) skipped.*/\1/' <<< "$esum")))
    fi
    # the walk-through of docs/scale-out.md: weir's compiled plan on a Flink cluster of two
    # TaskManager processes (its own cluster, started and stopped by the script)
    sout="$(BUILD="$BUILD" timeout 900 bash "$ROOT/tests/flink/scale_out.sh" 2>&1 < /dev/null)"; sst=$?
    if [[ $sst -eq 0 ]]; then passed=$((passed + 1)); grep '^PASS' <<< "$sout"
    elif [[ $sst -eq 77 ]]; then skipped=$((skipped + 1)); grep '^SKIP' <<< "$sout"
    else failed=$((failed + 1)); echo "FAIL flink/scale_out (exit $sst)"; printf '%s\n' "$sout" | tail -n 15
    fi
  else
    st=$?
    reason="$(tail -n 3 "$BUILD/flink-start.log" | tr '\n' ' ')"
    if [[ $st -eq 77 ]]; then
      echo "flink: skipped, Flink cannot be installed here: $reason"; skipped=$((skipped + 1))
    else
      echo "FAIL flink: the Flink cluster did not start: $reason"; failed=$((failed + 1))
    fi
  fi
fi

# run_scripts LABEL DIR TIMEOUT LINES: every DIR/*.sh but its helpers (lib.sh, setup.sh) with
# BUILD set, no standard input and TIMEOUT seconds; exit 0 pass, 77 skipped (its SKIP line shown),
# else fail (LINES of its output shown: head -n N, or tail -n N when negative).
run_scripts() {
  local label="$1" dir="$2" limit="$3" lines="$4" p=0 f=0 s=0 t out st
  for t in "$dir"/*.sh; do
    case "$(basename "$t")" in lib.sh|setup.sh) continue ;; esac
    out="$(BUILD="$BUILD" timeout "$limit" bash "$t" 2>&1 < /dev/null)"; st=$?
    if [[ $st -eq 0 ]]; then
      p=$((p + 1))
    elif [[ $st -eq 77 ]]; then
      s=$((s + 1)); printf '%s\n' "$out" | grep '^SKIP' | head -n 3
    else
      f=$((f + 1)); echo "FAIL $label/$(basename "$t" .sh) (exit $st)"
      if [[ $lines -lt 0 ]]; then printf '%s\n' "$out" | tail -n $((-lines)); else printf '%s\n' "$out" | head -n "$lines"; fi
    fi
  done
  echo "$label: $p passed, $f failed, $s skipped"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

# ----------------------------------------------------------------------------- (e) cluster tests
# tests/cluster/*.sh (helpers in tests/cluster/lib.sh): each starts its own cluster daemon on a free
# 127.0.0.1 port with private conf/log folders and stops it when it ends, also on failure or
# timeout. Exit 0 pass, 77 skipped (a tool such as chromium is missing), else fail.
# WEIR_SKIP_CLUSTER=1 skips the section.
if [[ -z "${WEIR_SKIP_CLUSTER:-}" && -x "$BUILD/weir" ]]; then
  "$ROOT/tests/cluster/setup.sh" > /dev/null 2>&1 || true
  run_scripts cluster "$ROOT/tests/cluster" "${CLUSTER_TEST_TIMEOUT:-300}" 40
fi

# ----------------------------------------------------------------------------- (e2) gateway tests
# tests/gateway/*.sh: Flink's own clients (its SQL Gateway REST protocol, its sql-client in gateway
# mode, its JDBC driver; its `flink` CLI and web dashboard against the REST port) against a weir
# daemon each starts (tests/cluster/lib.sh), compared with what they do against Flink's own gateway
# and cluster (recordings in tests/gateway/flink-recorded/); and weir's own client against a Flink
# cluster's SQL gateway that weir_client.sh starts (FLINK_RUN_DIR: one already running), compared
# with Flink's client there. Exit 0 pass, 77 skipped (Flink, its driver or chromium cannot be
# installed here), else fail.
# WEIR_SKIP_CLUSTER=1 skips the section too.
if [[ -z "${WEIR_SKIP_CLUSTER:-}" && -x "$BUILD/weir" ]]; then
  run_scripts gateway "$ROOT/tests/gateway" "${CLUSTER_TEST_TIMEOUT:-600}" 60
fi

# ----------------------------------------------------------------------------- (i) kafka tests
# tests/kafka/*.sh (helpers in tests/kafka/lib.sh): each starts its own Apache Kafka server (KRaft,
# the jars scripts/install-kafka.sh caches) on free 127.0.0.1 ports with a throw-away log dir, and
# stops it when it ends, also on failure or timeout. Exit 0 pass, 77 skipped (java, kcat or the
# Kafka jars missing), else fail. WEIR_SKIP_KAFKA=1 skips the section.
if [[ -z "${WEIR_SKIP_KAFKA:-}" && -x "$BUILD/weir" ]]; then
  run_scripts kafka "$ROOT/tests/kafka" "${KAFKA_TEST_TIMEOUT:-600}" -40
fi

# ----------------------------------------------------------------------------- (t) ThreadSanitizer
# tests/tsan/run.sh: the TSan build ($TSAN_BUILD, default build-tsan, made by `make test`) runs the
# parallel conformance cases, the REST / checkpoint / savepoint cluster tests with zero TSan
# reports (the sample and its cost are described there). WEIR_SKIP_TSAN=1 skips the section.
if [[ -z "${WEIR_SKIP_TSAN:-}" ]]; then
  tb="${TSAN_BUILD:-$ROOT/build-tsan}"
  tout="$(timeout "${TSAN_STAGE_TIMEOUT:-1500}" "$ROOT/tests/tsan/run.sh" "$tb" 2>&1 < /dev/null)"; tst=$?
  tp="$(grep -c '^PASS ' <<< "$tout")"; tf="$(grep -c '^FAIL ' <<< "$tout")"; ts="$(grep -c '^SKIP ' <<< "$tout")"
  if [[ $tst -ne 0 && $tst -ne 77 && $tf -eq 0 ]]; then tf=1; echo "FAIL tsan: tests/tsan/run.sh exited $tst"; fi
  grep -A 60 '^FAIL ' <<< "$tout" | head -n 120
  [[ $tst -eq 77 ]] && grep '^SKIP tsan' <<< "$tout" | head -n 1
  echo "tsan: $tp passed, $tf failed, $ts skipped"
  passed=$((passed + tp)); failed=$((failed + tf)); skipped=$((skipped + ts))
fi

# ----------------------------------------------------------------------------- (g) client tests
# tests/client/*.sh (helpers in tests/client/lib.sh): the interactive client in a private tmux
# terminal (typed keys, screen contents). Exit 0 pass, 77 skipped (tmux missing), else fail.
if [[ -x "$BUILD/weir" ]]; then
  run_scripts client "$ROOT/tests/client" "${CLIENT_TEST_TIMEOUT:-120}" 40
fi

# ----------------------------------------------------------------------------- (h) jdbc tests
# tests/jdbc/*.sh (helpers in tests/jdbc/lib.sh): the jdbc connector against a throw-away
# PostgreSQL server each test starts on a free loopback port and stops. Exit 0 pass, 77 skipped
# (PostgreSQL not installed), else fail.
if [[ -x "$BUILD/weir" ]]; then
  run_scripts jdbc "$ROOT/tests/jdbc" "${JDBC_TEST_TIMEOUT:-300}" 40
fi

echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
