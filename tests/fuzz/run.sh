#!/usr/bin/env bash
# run.sh — runs libFuzzer targets for a given time each (make fuzz).
# Usage: tests/fuzz/run.sh <fuzz-build-dir> <seconds per target> <target>...
# The corpus of a target grows in <dir>/corpus/<target> (seeded from tests/fuzz/seeds/<target> and
# the kept regressions tests/fuzz/regressions/<target>); a crash, leak or sanitizer report is
# written to <dir>/findings/<target>/ and fails the run. One summary line per target:
# "fuzz <target>: <runs> runs in <s> s, corpus <n>, <k> finding(s)".
set -uo pipefail
dir="$1" secs="$2"
shift 2
root="$(cd "$(dirname "$0")" && pwd)"
fails=0
for t in "$@"; do
  corpus="$dir/corpus/$t" findings="$dir/findings/$t"
  mkdir -p "$corpus" "$findings"
  seeds=("$root/seeds/$t")
  [[ -d "$root/regressions/$t" ]] && seeds+=("$root/regressions/$t")
  log="$dir/fuzz-$t.log"
  start=$(date +%s)
  "$dir/fuzz-$t" -max_total_time="$secs" -max_len=8192 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$findings/" "$corpus" "${seeds[@]}" > "$log" 2>&1
  st=$?
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)"
  # a slow-unit-* file is libFuzzer's note of an input that took over 10 s (on a loaded machine
  # often only starvation: replay it alone); crashes, leaks, timeouts (-timeout) and OOMs count
  n="$(find "$findings" -type f ! -name 'slow-unit-*' | wc -l)"
  slow="$(find "$findings" -type f -name 'slow-unit-*' | wc -l)"
  echo "fuzz $t: ${runs:-?} runs in $(( $(date +%s) - start )) s, corpus $(ls "$corpus" | wc -l), $n finding(s)$([[ $slow -gt 0 ]] && echo ", $slow slow input(s) in $findings")$([[ $st -ne 0 ]] && echo " (exit $st, see $log)")"
  [[ $st -ne 0 || $n -gt 0 ]] && fails=$((fails + 1))
done
[[ $fails -eq 0 ]]
