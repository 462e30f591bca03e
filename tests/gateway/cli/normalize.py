#!/usr/bin/env python3
"""normalize.py — one step's output of Flink's `flink` CLI, modulo what depends on the run: job ids
become <jid-a> / <jid-b> / <jid-c> (the order steps.sh submitted them, from DIR/jobs) or <jobid>;
dates "02.12.2026 15:33:50" <time>; savepoint paths file:<spdir>/savepoint-<...> become
file:<spdir>/savepoint-<id>; the savepoint directory itself <spdir>.

Usage: normalize.py DIR SPDIR FILE   prints FILE normalized.
"""
import re
import sys


def normalize(text, jobs, spdir):
    for name, jid in zip(("a", "b", "c"), jobs):
        text = text.replace(jid, "<jid-%s>" % name)
    text = re.sub(r"\b[0-9a-f]{32}\b", "<jobid>", text)
    text = re.sub(r"\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d", "<time>", text)
    text = text.replace(spdir.rstrip("/"), "<spdir>")
    text = re.sub(r"savepoint-[0-9a-f]{6}-[0-9a-f]{12}", "savepoint-<id>", text)
    return text


def main():
    d, spdir, path = sys.argv[1:4]
    with open(d + "/jobs") as f:
        jobs = f.read().split()
    with open(path, errors="replace") as f:
        sys.stdout.write(normalize(f.read(), jobs, spdir))


if __name__ == "__main__":
    main()
