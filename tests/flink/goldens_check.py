#!/usr/bin/env python3
"""goldens_check.py — weir's golden transcripts against the committed Flink recordings; no Flink
is needed (tests/run.sh runs it after the golden section).

Usage: python3 tests/flink/goldens_check.py [--actual DIR] [names...]
  --actual DIR   weir's output of this test run: DIR/<name>.stdout (stdout with the placeholders
                 tests/run.sh writes) and DIR/<name>.status (exit status). Without it the
                 committed weir recordings tests/golden/<name>.out/.exit are checked.

For every golden test with a Flink recording (tests/golden/flink/<name>.out, written by
tests/flink/record_goldens.py), weir's stdout is normalized (tests/flink/normalize.py) and must
equal the recording, and weir's exit status must be normalize.expected_weir_exit(...). One line
per test:
  PASS name                 equal
  FAIL name                 different (a unified diff follows, Flink's recording first)
  XFAIL name: reason        different, and listed in tests/golden/flink/EXPECTED_DIFFERENCES
  XPASS name: ...           listed there but now equal (remove it from the list)
  SKIP name: reason         weir-only (tests/golden/flink/WEIR_ONLY) or no recording
The last line is "flink-goldens: P passed, F failed, S skipped (X expected differences)";
the exit status is 1 when any test failed.
"""
import argparse
import difflib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden")
FLINK = os.path.join(GOLDEN, "flink")
sys.path.insert(0, HERE)
import normalize  # noqa: E402


def read(path, default=None):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return default


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actual")
    ap.add_argument("--max-diff", type=int, default=60, help="diff lines shown per failure")
    ap.add_argument("--show-expected", action="store_true",
                    help="also print the diff of tests listed in EXPECTED_DIFFERENCES")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    names = a.names or sorted(f[:-4] for f in os.listdir(GOLDEN)
                              if f.endswith(".sql") and not f.endswith(".init.sql"))
    weir_only = normalize.read_list(os.path.join(FLINK, "WEIR_ONLY"))
    expected = normalize.read_list(os.path.join(FLINK, "EXPECTED_DIFFERENCES"))
    p = f = s = x = 0
    for name in names:
        if name in weir_only:
            print("SKIP %s: weir-only: %s" % (name, weir_only[name]))
            s += 1
            continue
        flink = read(os.path.join(FLINK, name + ".out"))
        if flink is None:
            print("SKIP %s: no Flink recording (python3 tests/flink/record_goldens.py %s)"
                  % (name, name))
            s += 1
            continue
        flink_status = int((read(os.path.join(FLINK, name + ".exit"), "0").strip() or "0"))
        if a.actual:
            out = read(os.path.join(a.actual, name + ".stdout"))
            status = read(os.path.join(a.actual, name + ".status"))
        else:
            out = read(os.path.join(GOLDEN, name + ".out"))
            status = read(os.path.join(GOLDEN, name + ".exit"), "0")
        if out is None or status is None:
            print("FAIL %s: no weir output" % name)
            f += 1
            continue
        script = read(os.path.join(GOLDEN, name + ".sql"))
        init = read(os.path.join(GOLDEN, name + ".init.sql"))
        weir = normalize.normalize(out, script, source="weir", init=init)
        want_status = normalize.expected_weir_exit(flink, flink_status)
        status = int(status.strip() or "0")
        same = weir == flink and status == want_status
        if name in expected and not (a.show_expected and not same):
            if same:
                print("XPASS %s: equal to Flink now; remove it from tests/golden/flink/"
                      "EXPECTED_DIFFERENCES" % name)
                p += 1
            else:
                print("XFAIL %s: %s" % (name, expected[name]))
                s += 1
                x += 1
            continue
        if same:
            print("PASS %s" % name)
            p += 1
            continue
        print("FAIL %s" % name)
        f += 1
        diff = list(difflib.unified_diff(flink.splitlines(True), weir.splitlines(True),
                                         "tests/golden/flink/%s.out (Flink)" % name,
                                         "weir %s (normalized)" % name))
        for line in diff[:a.max_diff]:
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        if len(diff) > a.max_diff:
            print("... (%d more diff lines)" % (len(diff) - a.max_diff))
        if status != want_status:
            print("exit status %d, expected %d (Flink's client exited %d)"
                  % (status, want_status, flink_status))
    print("flink-goldens: %d passed, %d failed, %d skipped (%d expected differences)"
          % (p, f, s, x))
    return 1 if f else 0


if __name__ == "__main__":
    sys.exit(main())
