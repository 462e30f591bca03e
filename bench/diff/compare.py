"""compare.py — bench/diff/run's comparer: the same queries in weir (batch mode, tableau output
parsed) and DuckDB, over one generated CSV table t(id INT, k STRING, v INT, g INT)."""
import difflib, random, subprocess, sys

weir, out, queries = sys.argv[1:4]
csv = f"{out}/t.csv"
random.seed(7)
with open(csv, "w") as f:
    for i in range(300):
        v = random.choice([None] + list(range(-5, 20)))
        f.write(f"{i},{random.choice('abcde')},{'' if v is None else v},{random.randint(1, 4)}\n")
ddl = (f"CREATE TABLE t (id INT, k STRING, v INT, g INT) WITH ('connector'='filesystem','path'='{csv}',"
       "'format'='csv');\nSET 'sql-client.execution.result-mode'='tableau';\nSET 'execution.runtime-mode'='batch';\n")
duck_ddl = (f"CREATE TABLE t AS SELECT * FROM read_csv('{csv}', header=false, columns={{'id':'INTEGER',"
            "'k':'VARCHAR','v':'INTEGER','g':'INTEGER'}); ")


def run_weir(q):
    with open(f"{out}/q.sql", "w") as f:
        f.write(ddl + q + ";\n")
    text = subprocess.run([weir, "sql-client", "-f", f"{out}/q.sql"], capture_output=True, text=True).stdout
    if "[ERROR]" in text:
        return None, text[text.index("[ERROR]"):][:300]
    rows, borders = [], 0
    for line in text.splitlines():
        if line.startswith("+-"):
            borders += 1
        elif line.startswith("| ") and borders >= 2:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.append("|".join("NULL" if c == "<NULL>" else c for c in cells))
    return rows, None


def run_duck(q):
    p = subprocess.run(["node", "duck_rows.mjs", duck_ddl + q], capture_output=True, text=True, cwd=out)
    return (None, p.stderr[:300]) if p.returncode else (p.stdout.splitlines(), None)


def same_number(a, b):
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


qs = [l.strip() for l in open(queries) if l.strip() and not l.startswith("#")]
bad = 0
for q in qs:
    ordered = q.startswith("!")
    q = q.lstrip("!")
    w, we = run_weir(q)
    d, de = run_duck(q)
    if we or de:
        bad += 1
        print("ERR ", q[:100], "\n  weir:", we, "\n  duckdb:", de)
        continue
    if not ordered:
        w, d = sorted(w), sorted(d)
    # DOUBLE renders differently (weir prints Java's 0.0, DuckDB 0): compare cells as numbers
    equal = len(w) == len(d) and all(
        len(x.split("|")) == len(y.split("|")) and all(same_number(a, b) for a, b in zip(x.split("|"), y.split("|")))
        for x, y in zip(w, d))
    if not equal:
        bad += 1
        print("DIFF", q[:120])
        for line in list(difflib.unified_diff(d, w, "duckdb", "weir", lineterm=""))[:12]:
            print("    ", line)
print(f"{len(qs)} queries, {bad} bad")
