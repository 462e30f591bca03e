#!/usr/bin/env python3
"""statement_counts.py — per-statement agreement of weir's golden transcripts with Flink's
recordings: each transcript is cut at its `Flink SQL> ` prompts into one block per statement (the
echo and what the statement printed), and a statement counts as identical when its block is equal
in both (after tests/flink/normalize.py). A statement after the point where one engine stopped
counts as different.

Usage: python3 tests/flink/statement_counts.py [--actual DIR] PATTERN...
  PATTERN  golden test names or globs (e.g. 'session_*')
  --actual DIR   weir's stdout of a test run (DIR/<name>.stdout, as tests/run.sh --one writes it);
                 without it the committed tests/golden/<name>.out are used.
Prints one line per test ("<same>/<total> name") and the totals.
"""
import argparse
import fnmatch
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden")
sys.path.insert(0, HERE)
import normalize  # noqa: E402


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def blocks(text):
    """Statement blocks: each starts at a line beginning with 'Flink SQL> ' that has text after it
    (the final bare prompt and the shutdown lines are not a statement)."""
    out, cur = [], None
    for line in text.split("\n"):
        if line.startswith("Flink SQL> "):
            if cur is not None:
                out.append("\n".join(cur))
            cur = [line]
        elif cur is not None:
            cur.append(line)
    if cur is not None:
        out.append("\n".join(cur))
    # the last block is the final prompt + shutdown (or an error's shutdown lines)
    return [b for b in out if b.split("\n")[0].strip() != "Flink SQL>"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("patterns", nargs="+")
    ap.add_argument("--actual")
    a = ap.parse_args()
    names = sorted(f[:-4] for f in os.listdir(os.path.join(GOLDEN, "flink")) if f.endswith(".out"))
    names = [n for n in names if any(fnmatch.fnmatch(n, p) for p in a.patterns)]
    tot_same = tot = 0
    for n in names:
        script = read(os.path.join(GOLDEN, n + ".sql"))
        init = read(os.path.join(GOLDEN, n + ".init.sql"))
        flink = read(os.path.join(GOLDEN, "flink", n + ".out"))
        weir = read(os.path.join(a.actual, n + ".stdout")) if a.actual else read(os.path.join(GOLDEN, n + ".out"))
        fb = blocks(flink)
        wb = blocks(normalize.normalize(weir or "", script, source="weir", init=init))
        same = sum(1 for i, b in enumerate(fb) if i < len(wb) and wb[i] == b)
        print("%d/%d %s" % (same, len(fb), n))
        tot_same += same
        tot += len(fb)
    print("statements identical to Flink: %d of %d" % (tot_same, tot))


if __name__ == "__main__":
    main()
