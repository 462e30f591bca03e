#!/usr/bin/env python3
"""plan_normalize.py — the ONE place where weir's and Flink's plan outputs are made comparable.

Everything both engines print is compared as printed, except for what the rules below change.
Each rule says why it exists; none of them may hide a difference a user could rely on. A rule
applies to both engines' outputs alike.

  R1 paths        The absolute path of tests/golden/data becomes $DATA and the scratch folder of a
                  run becomes $WORK (in stored outputs too): they depend on where the repository
                  and the run live, not on the engine.
  R2 end of text  Trailing newlines at the end of a section are dropped: weir's side is read back
                  from its SQL client, which (like Flink's) prints a newline after a result that
                  lacks one, so whether the text itself ended in one is not observable there.
  R3 stream ids   In the JSON execution plan (EXPLAIN JSON_EXECUTION_PLAN), the stream-graph node
                  ids ("id", "predecessors"[].id) and the exec-node ids in "type" / "contents"
                  ("GroupAggregate[20]", "[20]:GroupAggregate(...)") are renumbered 1, 2, ... in
                  order of appearance: Flink takes them from process-wide counters (a second
                  EXPLAIN in the same session prints other numbers), so only their structure
                  means anything. Flink's own golden files blank them for the same reason.
  R4 node ids     In a compiled plan, node "id"s and the edges' "source" / "target" are
                  renumbered in "nodes" order, for the same reason (restore plans start at 1, 7,
                  52, 105, ...).
  R5 key order    JSON documents (JSON execution plan, compiled plan) are compared as values:
                  object keys in sorted order, layout re-indented. Arrays keep their order. Key
                  order and whitespace carry no meaning for a JSON reader (Flink reads plans with
                  Jackson, which ignores both).
  R6 translated   Connector options of tables whose DDL was translated per engine
     options      (plan_cases.py: weir's 'changelog-csv' is Flink's 'debezium-json') are replaced
                  by a placeholder in compiled plans: they are the translation, not the engines.

Not normalised, on purpose: ESTIMATED_COST figures (weir reproduces Flink's cost model), the
flinkVersion of compiled plans, generated names (EXPR$0, $f1, PK_...), digests, changelog modes,
advice texts, the JSON execution plan's "parallelism" and ship strategies.
"""
import json
import re

SECTION_RE = re.compile(r"^== (.+) ==$")


def paths(text, data, work):
    """R1."""
    if text is None:
        return None
    for real, ph in sorted(((data, "$DATA"), (work, "$WORK")), key=lambda x: -len(x[0])):
        if real:
            text = text.replace(real, ph)
    return text


def sections(text):
    """EXPLAIN text -> [(section title, body)], R2 applied to each body."""
    out, cur, buf = [], None, []
    for line in text.split("\n"):
        m = SECTION_RE.match(line)
        if m:
            if cur is not None:
                out.append((cur, "\n".join(buf).rstrip("\n")))
            cur, buf = m.group(1), []
        elif cur is not None:
            buf.append(line)
    if cur is not None:
        out.append((cur, "\n".join(buf).rstrip("\n")))
    return out


def _renumber_exec_ids(s, mapping):
    def sub(m):
        k = m.group(1)
        if k not in mapping:
            mapping[k] = str(len(mapping) + 1)
        return "[" + mapping[k] + "]"
    return re.sub(r"\[(\d+)\]", sub, s)


def json_execution_plan(text):
    """R3 + R5 on the Physical Execution Plan section; unparsable JSON is returned as is."""
    try:
        doc = json.loads(text)
    except ValueError:
        return text.rstrip("\n")
    nodes = doc.get("nodes") if isinstance(doc, dict) else None
    if isinstance(nodes, list):
        ids, exec_ids = {}, {}
        for n in nodes:
            if isinstance(n, dict) and "id" in n:
                ids.setdefault(n["id"], len(ids) + 1)
        for n in nodes:
            if not isinstance(n, dict):
                continue
            if "id" in n:
                n["id"] = ids[n["id"]]
            for k in ("type", "contents"):
                if isinstance(n.get(k), str):
                    n[k] = _renumber_exec_ids(n[k], exec_ids)
            for p in n.get("predecessors") or []:
                if isinstance(p, dict) and "id" in p:
                    p["id"] = ids.get(p["id"], "?%s" % p["id"])
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False)


def compiled_plan(text, translated=()):
    """R4 + R5 + R6 on a compiled plan; unparsable JSON is returned as is."""
    try:
        doc = json.loads(text)
    except ValueError:
        return text.rstrip("\n")
    tables = {t.lower() for t in translated}
    if isinstance(doc, dict):
        ids = {}
        for n in doc.get("nodes") or []:
            if isinstance(n, dict) and "id" in n:
                ids.setdefault(n["id"], len(ids) + 1)
                n["id"] = ids[n["id"]]
                for key in ("scanTableSource", "dynamicTableSink", "lookupTableSource"):
                    tbl = (n.get(key) or {}).get("table") if isinstance(n.get(key), dict) else None
                    if not isinstance(tbl, dict):
                        continue
                    ident = str(tbl.get("identifier", "")).split(".")[-1].strip("`").lower()
                    rt = tbl.get("resolvedTable")
                    if ident in tables and isinstance(rt, dict) and "options" in rt:
                        rt["options"] = "<translated connector options>"
        for e in doc.get("edges") or []:
            if isinstance(e, dict):
                for k in ("source", "target"):
                    if k in e:
                        e[k] = ids.get(e[k], "?%s" % e[k])
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False)
