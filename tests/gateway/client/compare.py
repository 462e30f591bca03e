#!/usr/bin/env python3
"""compare.py — compares two sql-client transcripts of the same script through a SQL gateway (for
tests/gateway/weir_client.sh): Flink's own client's (EXPECTED) and weir's client's (ACTUAL).

Usage: compare.py EXPECTED ACTUAL   exit 0 when equal after normalize(), else 1 and a diff.
normalize(): weir's echo of a -f statement ("Flink SQL> <statement>;" and its line break; Flink's
dumb terminal echoes a cut copy without them) becomes "Flink SQL> "; then SHOW JOBS tables keep
only the rows of the jobs this transcript submitted (its "Job ID:" lines; the gateway's other jobs
depend on the run), reduced to their cells, without the row count; a `savepoint path` table
becomes its column name and "<path>"; then transcript.py's normalize() (ANSI colours, elapsed
times, job ids, jline lines, the cut echo).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from transcript import compare_files, normalize as base_normalize  # noqa: E402

ROW = re.compile(r"^\| ([0-9a-f]{32}) \|")


def tables(lines):
    """Yields (start, end) line ranges of tableau tables: from the first border to the last."""
    i = 0
    while i < len(lines):
        m = re.search(r"\+-[-+]*\+\s*$", lines[i])
        if m and i + 2 < len(lines) and lines[i + 1].startswith("|"):
            j = i + 2
            borders = 1
            while j < len(lines):
                if lines[j].startswith("+-"):
                    borders += 1
                    if borders == 3:
                        break
                j += 1
            yield i, j
            i = j + 1
        else:
            i += 1


def cells(text):
    return [c.strip() for c in text.strip().strip("|").split(" | ")]


def normalize(text):
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    text = re.sub(r"Flink SQL> [^\n]*;\n", "Flink SQL> ", text)
    jobs = set(re.findall(r"^Job ID: ([0-9a-f]{32})$", text, flags=re.M))
    lines = text.split("\n")
    out, last = [], 0
    for a, b in tables(lines):
        header = lines[a + 1]
        prefix = lines[a][:lines[a].index("+-")]
        out.extend(lines[last:a])
        if "job id" in header and "job name" in header:
            out.extend([prefix, "SHOW JOBS: " + " | ".join(cells(header))])
            rows, cur = [], None
            for l in lines[a + 3:b]:
                if l.startswith("| "):
                    cur = [l]
                    rows.append(cur)
                elif cur is not None:
                    cur.append(l)
            for r in rows:
                m = ROW.match(r[0])
                if m and m.group(1) in jobs:
                    c = cells(" ".join(r))
                    out.append("job: %s | %s" % (c[1], c[2]))
            last = b + 2 if b + 1 < len(lines) and re.match(r"^\d+ rows? in set", lines[b + 1]) else b + 1
        elif "savepoint path" in header:
            out.extend([prefix, "savepoint path: <path>"])
            last = b + 1
        else:
            out.extend(lines[a:b + 1])
            last = b + 1
    out.extend(lines[last:])
    return base_normalize("\n".join(out))


def main():
    return compare_files(sys.argv[1], sys.argv[2], normalize)


if __name__ == "__main__":
    sys.exit(main())
