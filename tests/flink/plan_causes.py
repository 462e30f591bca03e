#!/usr/bin/env python3
"""plan_causes.py — names the cause of a difference between weir's and Flink's plan output, from
the first differing line (tests/flink/plans.py uses it to group the report and to write the
reasons of tests/flink/plans.xfail). A cause is a short sentence; the rules are tried in order and
the first that matches wins, so specific rules come first. Unmatched differences are reported as
"other: <node>" so that they stay visible.
"""
import re

COST_RE = re.compile(r": rowcount = [^,]+, cumulative cost = \{[^}]*\}")


def _node(line):
    m = re.match(r"\s*[:+| -]*([A-Za-z]+)(\(|$)", line or "")
    return m.group(1) if m else None


RULES = [
    # (section regex, flink line regex, weir line regex, cause); None matches anything
    (None, r"^flink rejects: Querying a table in batch mode", None,
     "Flink rejects changelog sources in batch mode; weir runs them"),
    (None, r"^flink rejects: Conversion to relational algebra failed to preserve datatypes", None,
     "Flink fails on the statement (a Flink planner bug: types change in conversion); weir plans it"),
    (None, r"^flink rejects:", None, "Flink rejects the statement, weir accepts it"),
    (None, r"^weir rejects:", None, "weir rejects the statement, Flink accepts it"),
    (r"json-plan", r'Writer"', None, "JSON plan: Flink 2.x shows the sink as '<table>[id]: Writer' (sink V2)"),
    (r"json-plan", r'"parallelism"', None, "JSON plan: parallelism of a node"),
    (r"json-plan", r'StreamRecordTimestampInserter', None, "JSON plan: Flink adds a StreamRecordTimestampInserter"),
    (None, r"Values\((type=\[RecordType\(INTEGER ZERO\)\], )?tuples=\[\[\{ 0 \}\]\]", None,
     "VALUES for a SELECT without FROM: Flink's single row { 0 } (ZERO column)"),
    (None, r"LogicalValues\(tuples=\[\[\{ 0 \}\]\]\)", None,
     "VALUES for a SELECT without FROM: Flink's single row { 0 } (ZERO column)"),
    (r"ast", r"LogicalTableFunctionScan\(invocation=\[(TUMBLE|HOP|CUMULATE|SESSION)\(TABLE", None,
     "AST: window TVF call (Flink prints TABLE(#0), DESCRIPTOR('col'), intervals in ms and a LogicalProject)"),
    (None, r"IS TRUE\(", r"^(?!.*IS TRUE\()", "IS TRUE(...) around a FILTER / boolean expression"),
    (None, r"\) IS TRUE", r"^(?!.*\) IS TRUE)", "IS TRUE(...) around a FILTER / boolean expression"),
    (None, r"CAST\([^()]* AS [A-Z]", r"CAST\([^()]*\):", "CAST printed as CAST(x AS T) in physical digests (Flink 2.x)"),
    (None, r"TRIM\(FLAG\(BOTH\)", None, "TRIM flags printed as FLAG(BOTH)"),
    (None, r"Sarg\[[^\]]*L:BIGINT", None, "SEARCH/Sarg literal types (1L:BIGINT)"),
    (None, r"=\(\$e, \d+\)", r"=\(\$e, \d+:BIGINT\)", "Expand id literal printed without :BIGINT"),
]


def cause(section, detail, flink_text=None, weir_text=None):
    """The cause of one difference; `detail` is plans.py's 'flink: ... | weir: ...' line."""
    if section == "physical-all" and flink_text and weir_text and not detail.startswith(("flink rejects", "weir rejects")):
        a, b = COST_RE.sub("", flink_text), COST_RE.sub("", weir_text)
        if a == b:
            return "ESTIMATED_COST: weir's row counts / costs differ from Flink's cost model"
        for x, y in zip(a.split("\n"), b.split("\n")):
            if x != y:
                detail = "flink: %s | weir: %s" % (x.strip(), y.strip())
                break
    fl, wl = detail, ""
    m = re.match(r"^flink: (.*) \| weir: (.*)$", detail or "")
    if m:
        fl, wl = m.group(1), m.group(2)
    for sec, fr, wr, why in RULES:
        if sec and not re.search(sec, section):
            continue
        if fr and not re.search(fr, fl if m else detail):
            continue
        if wr and not re.search(wr, wl):
            continue
        return why
    if m:
        if COST_RE.sub("", fl) == COST_RE.sub("", wl) and fl != wl:
            return "ESTIMATED_COST: weir's row counts / costs differ from Flink's cost model"
        a = re.sub(r"changelogMode=\[[A-Z,]*\]", "", fl)
        b = re.sub(r"changelogMode=\[[A-Z,]*\]", "", wl)
        if a == b:
            return "changelog mode of %s" % (_node(fl) or "a node")
        nf, nw = _node(fl), _node(wl)
        if nf and nw and nf != nw:
            return "plan shape: Flink has %s where weir has %s" % (nf, nw)
        if section == "compiled" or section == "json-plan":
            km = re.match(r'\s*"([^"]+)"', fl) or re.match(r'\s*"([^"]+)"', wl)
            return "%s: field %s" % (section, km.group(1) if km else "(layout)")
        return "other: %s digest" % (nf or "?")
    return "other"
