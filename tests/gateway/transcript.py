#!/usr/bin/env python3
"""transcript.py — compares two transcripts of Flink's sql-client (gateway mode): the one recorded
against Flink's own gateway and the one against weir's, modulo what depends on the run.

Usage: transcript.py EXPECTED ACTUAL   exit 0 when equal after normalize(), else 1 and a diff.
normalize(): ANSI sequences and jline's terminal warnings dropped; elapsed times "(7.62 seconds)"
become "(<t> seconds)"; the statement the dumb terminal echoes after "Flink SQL> " is dropped (it is
cut at a point that depends on timing); job ids become <jobid>.
"""
import difflib
import re
import sys


def normalize(text):
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    lines = [l for l in text.splitlines() if "org.jline" not in l
             and not l.startswith("WARNING: Unable to create a system terminal") and not l.startswith("rc=")
             and not l.startswith("Command history file path:")]
    text = "\n".join(lines)
    text = re.sub(r"\(\d+(\.\d+)? seconds\)", "(<t> seconds)", text)
    text = re.sub(r"Flink SQL> .*?(?=\[INFO\]|\[ERROR\]|\+-|$)", "Flink SQL> ", text, flags=re.M)
    text = re.sub(r"\b[0-9a-f]{32}\b", "<jobid>", text)
    return text.strip() + "\n"


def compare_files(expected, actual, normalize_text=None):
    """0 when the two transcript files are equal after normalize_text (default normalize()), else
    1 with the unified diff on stdout."""
    norm = normalize_text or normalize
    with open(expected, errors="replace") as f:
        exp = norm(f.read())
    with open(actual, errors="replace") as f:
        act = norm(f.read())
    if exp == act:
        return 0
    sys.stdout.writelines(difflib.unified_diff(exp.splitlines(True), act.splitlines(True), "flink", "weir"))
    return 1


def main():
    return compare_files(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
