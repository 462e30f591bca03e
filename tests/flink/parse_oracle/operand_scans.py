#!/usr/bin/env python3
"""operand_scans.py — measures, with Flink 2.3.0's parser, how its three-token lookahead after a
binary operator goes on past an operand's first token, and writes src/sql/operand_scans.c.

Usage: python3 tests/flink/parse_oracle/operand_scans.py [--out src/sql/operand_scans.c]

For each token X that may start an operand (WSQL_OPERAND_STARTS in src/sql/calcite_tokens.c) it
parses `SELECT a FROM t WHERE a >= X;` (FlinkParse.java, no cluster). When Flink reports the
error at the operator (`Encountered ">= X ;"`), X alone is no operand: its LOOKAHEAD(3) scan went
on to the token after X. The sequences the message lists after the operator are, for X, what the
operand scan compares in order: the operand starts at the second position, X's alternatives with
the token they compare third, at the place they are tried (`">=" "TIMESTAMP" <QUOTED_STRING>` after
"TIME", `">=" "TIMESTAMP" "("` after "CONTAINS_SUBSTR"); the closing `">=" X` is the operator's
two-token scan (parse_lookahead.c adds it).
"""
import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
import compare  # noqa: E402

SAMPLE = {  # a token of each kind, as the lexer reads it
    "<UNSIGNED_INTEGER_LITERAL>": "1", "<DECIMAL_NUMERIC_LITERAL>": "1.5", "<APPROX_NUMERIC_LITERAL>": "1e5",
    "<BINARY_STRING_LITERAL>": "X'AB'", "<PREFIXED_STRING_LITERAL>": "_UTF8'x'", "<QUOTED_STRING>": "'x'",
    "<UNICODE_STRING_LITERAL>": "U&'x'", "<IDENTIFIER>": "b", "<BACK_QUOTED_IDENTIFIER>": "`b`",
    "<LBRACE_FN>": "{fn", "<LBRACE_D>": "{d", "<LBRACE_T>": "{t", "<LBRACE_TS>": "{ts",
}


def operand_starts():
    src = open(os.path.join(ROOT, "src/sql/calcite_tokens.c")).read()
    i = src.index("WSQL_OPERAND_STARTS[]")
    body = src[i:src.index("};", i)]
    return [o.replace('\\"', '"') for o in re.findall(r'"((?:\\.|[^"\\])*)"', body)]


def entries(msg):
    out = []
    for line in msg.split("\n")[2:]:
        s = line.strip()
        if s.endswith("..."):
            s = s[:-3].strip()
        out.append(re.findall(r'"(?:\\.|[^"])*"|<[A-Z_]+>', s))
    return out


def c_str(img):
    return '"' + img.replace("\\", "\\\\").replace('"', '\\"') + '"'


def compact(ops, starts):
    """the steps as C initializers: a run of operand starts in WSQL_OPERAND_STARTS order is one
    range step {NULL, NULL, from, to}; X followed by every operand start is {X, WSQL_ANY_OPERAND}"""
    out, i = [], 0
    while i < len(ops):
        e = ops[i]
        if len(e) == 2:
            run = [o[1] for o in ops[i:i + len(starts)] if len(o) == 2 and o[0] == e[0]]
            if run[:len(starts)] == starts:
                out.append("{%s, WSQL_ANY_OPERAND, 0, 0}" % c_str(e[0]))
                i += len(starts)
                continue
            out.append("{%s, %s, 0, 0}" % (c_str(e[0]), c_str(e[1])))
            i += 1
            continue
        k = starts.index(e[0]) if e[0] in starts else -1
        j = i
        while j < len(ops) and len(ops[j]) == 1 and k >= 0 and k + (j - i) < len(starts) \
                and ops[j][0] == starts[k + j - i]:
            j += 1
        if j - i >= 2:
            out.append("{NULL, NULL, %d, %d}" % (k, k + j - i))
            i = j
        else:
            out.append("{%s, NULL, 0, 0}" % c_str(e[0]))
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "src/sql/operand_scans.c"))
    a = ap.parse_args()
    starts = operand_starts()
    probes = {}
    for x in starts:
        text = x[1:-1] if x.startswith('"') else SAMPLE.get(x)
        if text:
            probes["SELECT a FROM t WHERE a >= %s;" % text] = x
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as tf:
        tf.write("\n----\n".join(probes) + "\n")
    msgs = compare.flink_messages(tf.name)
    os.unlink(tf.name)
    rows = []
    for stmt, x in probes.items():
        m = msgs.get(stmt) or msgs.get(stmt + "\\n")
        if not m or not m.startswith('org.apache.flink.sql.parser.impl.ParseException: Encountered ">= '):
            continue
        ops = [e[1:] for e in entries(m) if len(e) >= 2 and e[0] == '">="']
        ops = ops[3:] if [o[0] for o in ops[:3]] == ['"SOME"', '"ANY"', '"ALL"'] else ops   # IN / quantifier scan
        assert ops[-1] == [x], (x, ops[-1])          # the operator's two-token scan closes the list
        ops = ops[:-1]
        # ">=" is measured, whose quantifier scan listed `">=" "SOME"` first: the operand scan's own
        # "SOME" (after "SECOND", as after any other operator) was dropped as a repeat there
        if ['"SOME"'] not in ops and ['"SECOND"'] in ops:
            ops.insert(ops.index(['"SECOND"']) + 1, ['"SOME"'])
        rows.append((x, ops))
    with open(a.out, "w") as f:
        f.write("""/*
 * operand_scans.c — how Flink 2.3.0's three-token lookahead after a binary operator goes on past
 * an operand's first token: generated by tests/flink/parse_oracle/operand_scans.py (measured with
 * Flink's parser), do not edit.
 *
 * Contract: constant data. For each token that is no operand by itself (`a >= TIMESTAMP;` fails at
 * the operator), WSQL_OPERAND_SCANS lists what the scan compares after the operator, in order:
 * {tok, NULL} a token at the operand's first position, {start, next} the token's own alternative
 * going on with `next` (`"TIMESTAMP" <QUOTED_STRING>`; WSQL_ANY_OPERAND: each operand start),
 * {NULL, NULL, from, to} the operand starts WSQL_OPERAND_STARTS[from..to). Depends on parse_int.h.
 */
#include "parse_int.h"

""")
        for n, (x, ops) in enumerate(rows):
            f.write("static const WOperandStep STEPS_%d[] = {\n" % n)
            for step in compact(ops, starts):
                f.write("    %s,\n" % step)
            f.write("};\n")
        f.write("\nconst WOperandScan WSQL_OPERAND_SCANS[] = {\n")
        for n, (x, ops) in enumerate(rows):
            f.write("    {%s, STEPS_%d, %d},\n" % (c_str(x), n, len(compact(ops, starts))))
        f.write("};\nconst int WSQL_N_OPERAND_SCANS = (int)(sizeof WSQL_OPERAND_SCANS / sizeof WSQL_OPERAND_SCANS[0]);\n")
    print("%s: %d tokens" % (a.out, len(rows)))


if __name__ == "__main__":
    main()
