#!/usr/bin/env bash
# stream_vs_batch.sh — the same query in streaming mode (parallelism 2, the changelog applied:
# +I/+U add a row, -U/-D remove one) and in batch mode must give the same final table. Covers the
# operators whose streaming form retracts: grouping sets, set operations, nested aggregation, the
# distinct split with Expand, Top-N and SortLimit, with and without mini-batch + split.
# Usage: tests/consistency/stream_vs_batch.sh <build-dir>   ("PASS name" / "FAIL name" lines)
set -uo pipefail
WEIR="$(cd "$1" && pwd)/weir"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
# 300 rows: id, k in a..e, v in -5..19 or NULL, g in 1..4 (a fixed linear congruential sequence)
awk 'BEGIN { s = 7; for (i = 0; i < 300; i++) { s = (s * 1103515245 + 12345) % 2147483648;
  k = substr("abcde", s % 5 + 1, 1); v = int(s / 5) % 26; g = int(s / 130) % 4 + 1;
  printf "%d,%s,%s,%d\n", i, k, (v == 25 ? "" : v - 5), g } }' > "$T/t.csv"
WEIR_EMBEDDED=1 python3 - "$WEIR" "$T" <<'PY'
import collections, subprocess, sys
weir, tmp = sys.argv[1:3]
def run(name, q, mode, extra):
    ddl = (f"CREATE TABLE t (id INT, k STRING, v INT, g INT) WITH ('connector'='filesystem',"
           f"'path'='{tmp}/t.csv','format'='csv','csv.null-literal'='');\nSET 'sql-client.execution.result-mode'='tableau';\n"
           f"SET 'execution.runtime-mode'='{mode}';\nSET 'parallelism.default'='2';\n{extra}")
    with open(f"{tmp}/{name}.sql", "w") as f:
        f.write(ddl + q + ";\n")
    text = subprocess.run([weir, "sql-client", "-f", f"{tmp}/{name}.sql"], capture_output=True, text=True).stdout
    if "[ERROR]" in text:
        return None, text[text.index("[ERROR]"):][:300]
    rows, borders = collections.Counter(), 0
    for line in text.splitlines():
        if line.startswith("+-"):
            borders += 1
        elif line.startswith("| ") and borders >= 2:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if mode == "streaming":
                rows["|".join(cells[1:])] += 1 if cells[0] in ("+I", "+U") else -1
            else:
                rows["|".join(cells)] += 1
    return rows, None
queries = {
    "rollup": "SELECT k, g, COUNT(*), SUM(v), MAX(v) FROM t GROUP BY ROLLUP(k, g)",
    "cube": "SELECT k, g, COUNT(*) FROM t GROUP BY CUBE(k, g)",
    "intersect-all": "SELECT k, v FROM t WHERE g <= 2 INTERSECT ALL SELECT k, v FROM t WHERE g >= 2",
    "except": "SELECT k, v FROM t WHERE g <= 2 EXCEPT SELECT k, v FROM t WHERE g >= 3",
    "nested-agg": "SELECT x, COUNT(*) FROM (SELECT k AS x, g FROM t GROUP BY k, g) GROUP BY x",
    "multi-distinct": "SELECT k, COUNT(DISTINCT v), COUNT(DISTINCT g), SUM(v) FROM t GROUP BY k",
    "sort-limit": "SELECT * FROM (SELECT k, g, SUM(v) s FROM t GROUP BY k, g) ORDER BY s DESC, k, g LIMIT 3",
    "top-n-grouped": ("SELECT * FROM (SELECT k, g, COUNT(*) c, ROW_NUMBER() OVER (PARTITION BY k ORDER BY "
                      "COUNT(*) DESC, g) rn FROM t GROUP BY k, g) WHERE rn <= 2"),
}
variants = {"": "", "-minibatch-split": ("SET 'table.optimizer.distinct-agg.split.enabled'='true';\n"
            "SET 'table.exec.mini-batch.enabled'='true';\nSET 'table.exec.mini-batch.allow-latency'='1 s';\n"
            "SET 'table.exec.mini-batch.size'='100';\n")}
for suffix, extra in variants.items():
    for name, q in queries.items():
        n = name + suffix
        s, se = run(n + "-s", q, "streaming", extra)
        b, be = run(n + "-b", q, "batch", extra)
        if se or be:
            print(f"FAIL {n}: {se or be}")
        elif +s != b or any(c < 0 for c in s.values()):
            print(f"FAIL {n}: streaming {dict(list((+s - b).items())[:3])} batch {dict(list((b - +s).items())[:3])}")
        else:
            print(f"PASS {n} ({sum(b.values())} rows)")
PY
