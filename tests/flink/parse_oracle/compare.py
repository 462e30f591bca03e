#!/usr/bin/env python3
"""compare.py — parse-error messages of weir against Flink 2.3.0's own SQL parser.

Usage: python3 tests/flink/parse_oracle/compare.py [-v] [--weir build/weir] FILE...
  FILE   statements separated by lines "----" (typos1.sql .. typos5.sql here)
  -v     print the difference of each message that is not equal

Flink's side runs FlinkParse.java (the Parser of a TableEnvironment, as the client's statement goes
through it: the extended parser for SET/RESET/..., Calcite's parser, validation and conversion; no
cluster, nothing executed)
against the planner jar inside $FLINK_HOME/lib/flink-table-planner-loader-*.jar (default: the
Flink scripts/install-flink.sh installs); the jar and the class are built once under
/tmp/weir-parse-oracle. weir's side runs each statement as a `-f` script (embedded) and takes the
[ERROR] reason. Prints SAME/DIFF per statement and "equal: N of M" per file. Measured for the parser
errors of issue 14 (docs/user-guide.md: parser errors).
"""
import argparse
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
WORK = "/tmp/weir-parse-oracle"


def flink_classpath():
    home = os.environ.get("FLINK_HOME", os.path.expanduser("~/.cache/weir/flink-2.3.0"))
    lib = os.path.join(home, "lib")
    os.makedirs(WORK, exist_ok=True)
    planner = os.path.join(WORK, "flink-table-planner.jar")
    if not os.path.exists(planner):
        loader = glob.glob(os.path.join(lib, "flink-table-planner-loader-*.jar"))[0]
        with zipfile.ZipFile(loader) as z, open(planner, "wb") as out:
            out.write(z.read("flink-table-planner.jar"))
    jars = [planner] + [j for j in glob.glob(os.path.join(lib, "*.jar")) if "planner-loader" not in j]
    cp = ":".join(jars)
    cls, src = os.path.join(WORK, "FlinkParse.class"), os.path.join(HERE, "FlinkParse.java")
    if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
        subprocess.run(["javac", "-d", WORK, "-cp", cp, os.path.join(HERE, "FlinkParse.java")], check=True)
    return cp + ":" + WORK


def flink_messages(path):
    out = subprocess.run(["java", "-cp", flink_classpath(), "FlinkParse", path],
                         capture_output=True, text=True).stdout
    msgs = {}
    for blk in out.split("==== ")[1:]:
        head, _, body = blk.partition("\n")
        msgs[head] = "\n".join(l.rstrip() for l in body.rstrip().split("\n"))
    return msgs


def weir_message(weir, stmt):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as tf:
        tf.write(stmt if stmt.rstrip().endswith(";") else stmt + "\n")
        name = tf.name
    try:
        out = subprocess.run([weir, "sql-client", "-f", name], capture_output=True, text=True,
                             env=dict(os.environ, WEIR_EMBEDDED="1")).stdout
    finally:
        os.unlink(name)
    m = re.search(r"Reason:\n(.*?)\n\n", out, re.S)
    w = m.group(1) if m else ("OK" if "[ERROR]" not in out else out)
    return "\n".join(l.rstrip() for l in w.split("\n"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--weir", default=os.path.join(ROOT, "build", "weir"))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    for path in a.files:
        stmts = [s for s in open(path).read().split("\n----\n") if s.strip()]
        fl = flink_messages(path)
        same = 0
        for s in stmts:
            key = s.replace("\n", "\\n")
            f = fl.get(key, "?")
            w = weir_message(a.weir, s)
            same += f == w
            print(("SAME " if f == w else "DIFF ") + key)
            if f != w and a.v:
                print("\n".join(difflib.unified_diff(f.split("\n"), w.split("\n"), "flink", "weir",
                                                     lineterm="", n=1)))
        print("%s: equal: %d of %d" % (os.path.basename(path), same, len(stmts)))


if __name__ == "__main__":
    sys.exit(main())
