#!/usr/bin/env python3
"""plan_cases.py — the plan-bearing statements of weir's tests, as scripts both engines can run.

A *unit* is one golden test (tests/golden/<name>.sql with its .init.sql), one conformance case
(../shared/conformance/cases/*.case, tests/conformance/*.case) or one SQL-client transcript
(../shared/conformance/sql-client/*.qcase). Its statements are replayed in order:

  setup   SET / RESET / CREATE / DROP / ALTER / USE / LOAD / UNLOAD / ADD, CREATE TABLE AS
          (run on both engines, their results ignored unless they fail);
  target  a query, an INSERT or a statement set (also the statement inside an EXPLAIN or a
          COMPILE PLAN of the test): never executed, only explained and compiled (see PROBES);
  other   SHOW, DESCRIBE, EXECUTE PLAN, QUIT, ...: dropped.

Each engine gets its own text of a setup statement when weir's test uses something Flink's
distribution lacks. The translations, all here:

  * format 'changelog-csv' (weir's own CSV with a row-kind column): Flink reads the same kinds of
    change with 'debezium-json'. Only possible when the source may send every kind (weir's default
    mode, or 'changelog-csv.changelog-mode' I,UB,UA,D in any order): Flink's distribution has no
    format or connector for upsert sources (I,UA,D) or other subsets (only the 'values' test
    connector of Flink's own tests has them); targets that read such a table are not compared.
  * connector 'nexmark' (a separate jar in Flink, not in its distribution): the table is a
    'filesystem' / 'csv' table on BOTH engines (weir's nexmark source has the filesystem source's
    push-down abilities: projection, no filter), so the plan still shows the queries' operators.
  * conformance cases' '<abstract>' connector (Flink's 'values' test connector): sources as
    filesystem 'csv' (insert-only) or changelog sources as above; sinks as the values sink's
    default changelog: with a primary key (or 'sink-changelog-mode: I,UA,D') the 'blackhole' sink
    (Flink's blackhole drops UPDATE_BEFORE, an upsert sink), else 'print' (takes every kind), the
    same DDL on both engines.
  * the 'print' sink's 'sink.changelog-mode' (weir's option): 'I,UA,D' -> 'blackhole' on both
    engines, every kind -> 'print' without the option on both.
Tables whose translation is engine-specific record it (`Unit.translated`) so that
plan_normalize.py can put weir's options into Flink's compiled plan (the only place where
connector options show).
"""
import os
import re

from flinkctl import split_statements

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden")
DATA = os.path.join(GOLDEN, "data")
SHARED_CONF = os.environ.get("WEIR_CONFORMANCE") or os.path.join(os.path.dirname(ROOT), "shared",
                                                                 "conformance")
OWN_CONF = os.path.join(ROOT, "tests", "conformance")

ALL_KINDS = {"I", "UB", "UA", "D"}
DETAILS_ALL = "ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE, JSON_EXECUTION_PLAN"
DETAILS_ALL_BATCH = "ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN"   # no PLAN_ADVICE in batch


class Stmt:
    """One statement of a unit: kind 'setup' or 'target'; `flink` / `weir` texts."""

    def __init__(self, kind, flink, weir=None, batch=False, skip=None):
        self.kind = kind
        self.flink = flink
        self.weir = flink if weir is None else weir
        self.batch = batch          # targets: execution.runtime-mode was batch
        self.skip = skip            # targets: why the engines cannot be compared on it
        self.index = None           # targets: 1-based number within the unit


class Unit:
    def __init__(self, name, cwd=None):
        self.name = name            # e.g. golden/explain_forms, case/join__join-left-join
        self.cwd = cwd or GOLDEN    # weir's working directory
        self.stmts = []
        self.translated = {}        # table name -> weir's WITH options (engine-specific DDL)
        self.untranslatable = {}    # table name (lower case) -> reason

    def targets(self):
        return [s for s in self.stmts if s.kind == "target"]

    def prefix(self, target):
        """The setups before `target` (the script both engines replay for it)."""
        out = []
        for s in self.stmts:
            if s is target:
                return out
            if s.kind == "setup":
                out.append(s)
        return out


# ------------------------------------------------------------------------------- probes
def probes(target):
    """(probe name, statement per engine) pairs for one target. The compiled plan's file path
    is a placeholder `@PLAN@` the runner replaces."""
    q = target
    out = [("explain", "EXPLAIN " + q.flink, "EXPLAIN " + q.weir)]
    if not q.batch:
        out.append(("changelog", "EXPLAIN CHANGELOG_MODE " + q.flink, "EXPLAIN CHANGELOG_MODE " + q.weir))
        out.append(("advice", "EXPLAIN PLAN_ADVICE " + q.flink, "EXPLAIN PLAN_ADVICE " + q.weir))
    d = DETAILS_ALL_BATCH if q.batch else DETAILS_ALL
    out.append(("all", "EXPLAIN %s %s" % (d, q.flink), "EXPLAIN %s %s" % (d, q.weir)))
    if not q.batch and re.match(r"(?is)^(INSERT|STATEMENT\s+SET)\b", q.flink):
        out.append(("compiled", "COMPILE PLAN 'file://@PLAN@' FOR " + q.flink,
                    "COMPILE PLAN 'file://@PLAN@' FOR " + q.weir))
    return out


# ------------------------------------------------------------------------------- statements
def strip_leading_comments(s):
    while True:
        t = s.lstrip()
        if t.startswith("--"):
            nl = t.find("\n")
            s = "" if nl < 0 else t[nl + 1:]
        elif t.startswith("/*") and "*/" in t:
            s = t[t.index("*/") + 2:]
        else:
            return t.rstrip()


EXPLAIN_RE = re.compile(r"(?is)^EXPLAIN\s+(?:PLAN\s+FOR\s+|(?:(?:ESTIMATED_COST|CHANGELOG_MODE|PLAN_ADVICE|"
                        r"JSON_EXECUTION_PLAN)\s*,\s*)*(?:ESTIMATED_COST|CHANGELOG_MODE|PLAN_ADVICE|"
                        r"JSON_EXECUTION_PLAN)\s+)?(.*)$")
COMPILE_RE = re.compile(r"(?is)^COMPILE\s+(?:AND\s+EXECUTE\s+)?PLAN\s+'(?:[^']|'')*'\s+(?:IF\s+NOT\s+EXISTS\s+)?"
                        r"FOR\s+(.*)$")
SETUP_RE = re.compile(r"(?is)^(SET|RESET|CREATE|DROP|ALTER|USE|LOAD|UNLOAD|ADD)\b")
QUERY_RE = re.compile(r"(?is)^(SELECT|WITH|VALUES|TABLE|\()")
INSERT_RE = re.compile(r"(?is)^(INSERT|UPSERT)\b")
CTAS_RE = re.compile(r"(?is)^CREATE\s+(OR\s+REPLACE\s+)?TABLE\b.*?\bAS\s+(SELECT|WITH|VALUES|\()")


def classify(s):
    """('setup'|'target'|'other', text): a target's text is the query/INSERT/statement set."""
    m = EXPLAIN_RE.match(s)
    if m and re.match(r"(?i)^EXPLAIN\b", s):
        return classify_target(m.group(1).strip())
    m = COMPILE_RE.match(s)
    if m:
        return classify_target(m.group(1).strip())
    if re.match(r"(?is)^EXECUTE\s+STATEMENT\s+SET\b", s):
        return classify_target(re.sub(r"(?is)^EXECUTE\s+", "", s))
    if re.match(r"(?is)^EXECUTE\s+(INSERT|SELECT|WITH)\b", s):
        return classify_target(re.sub(r"(?is)^EXECUTE\s+", "", s))
    if CTAS_RE.match(s):
        return "setup", s
    if SETUP_RE.match(s):
        return "setup", s
    return classify_target(s)


def classify_target(s):
    if QUERY_RE.match(s) or INSERT_RE.match(s) or re.match(r"(?is)^STATEMENT\s+SET\s+BEGIN\b", s):
        return "target", s
    return "other", s


def split_script(text):
    """Statements of a script as Flink's client splits them, with statement sets kept whole
    (STATEMENT SET BEGIN ... END, also inside EXPLAIN / COMPILE PLAN / EXECUTE, and the client's
    BEGIN STATEMENT SET; ...; END; which becomes one STATEMENT SET BEGIN ... END)."""
    out, acc, client_set = [], None, None
    for raw in split_statements(text):
        s = strip_leading_comments(raw)
        if not s:
            continue
        end = re.match(r"(?i)^END$", s) is not None
        if acc is not None:
            if not end:
                acc.append(s)
                continue
            head, rest = acc[0], acc[1:]
            if re.search(r"(?i)\bBEGIN$", head):
                out.append(head + "\n" + "".join(p + ";\n" for p in rest) + "END")
            else:
                out.append("".join(p + ";\n" for p in acc) + "END")
            acc = None
            continue
        if client_set is not None:
            if end:
                if client_set:
                    out.append("STATEMENT SET BEGIN\n" + "".join(p + ";\n" for p in client_set) + "END")
                client_set = None
            else:
                client_set.append(s)
            continue
        if re.match(r"(?is)^BEGIN\s+STATEMENT\s+SET$", s):
            client_set = []
            continue
        if re.search(r"(?is)\bSTATEMENT\s+SET\s+BEGIN\b", s) and not re.search(r"(?is)\bEND$", s):
            acc = [s]
            continue
        out.append(s)
    return out


# ------------------------------------------------------------------------------- translation
WITH_RE = re.compile(r"(?is)\bWITH\s*\(")


def with_span(ddl):
    """(start, end) of the option list inside WITH ( ... ) of a CREATE TABLE, or None."""
    m = None
    for m in WITH_RE.finditer(ddl):
        pass
    if not m:
        return None
    i, depth, q = m.end(), 1, None
    while i < len(ddl):
        c = ddl[i]
        if q:
            if c == q:
                if i + 1 < len(ddl) and ddl[i + 1] == q:
                    i += 1
                else:
                    q = None
        elif c in "'\"`":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return m.end(), i
        i += 1
    return None


def parse_options(text):
    return [(k.replace("''", "'"), v.replace("''", "'"))
            for k, v in re.findall(r"'((?:[^']|'')*)'\s*=\s*'((?:[^']|'')*)'", text)]


def render_options(opts):
    return ", ".join("'%s' = '%s'" % (k.replace("'", "''"), v.replace("'", "''")) for k, v in opts)


def table_name(ddl):
    m = re.match(r"(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"
                 r"((?:`[^`]+`|[\w$]+)(?:\.(?:`[^`]+`|[\w$]+))*)", ddl)
    if not m:
        return None
    return m.group(1).split(".")[-1].strip("`")


def kinds(mode):
    return {k.strip().upper() for k in (mode or "").split(",") if k.strip()}


def translate_ddl(unit, ddl):
    """(flink ddl, weir ddl) for one setup statement (see the module doc)."""
    if not re.match(r"(?is)^CREATE\s+(OR\s+REPLACE\s+)?(TEMPORARY\s+)?TABLE\b", ddl):
        return ddl, ddl
    span = with_span(ddl)
    name = table_name(ddl)
    if not span or not name:
        return ddl, ddl
    opts = parse_options(ddl[span[0]:span[1]])
    d = dict(opts)
    conn = d.get("connector")
    fl = wr = None
    if conn == "nexmark":
        path = os.path.join(DATA, "nexmark-%s.csv" % name)
        fl = wr = [("connector", "filesystem"), ("path", path), ("format", "csv")]
    elif conn == "filesystem" and d.get("format") == "changelog-csv":
        mode = d.get("changelog-csv.changelog-mode")
        if mode is not None and kinds(mode) != ALL_KINDS:
            unit.untranslatable[name.lower()] = (
                "source %s has changelog mode %s; Flink's distribution has no source with it" % (name, mode))
        fl = [(k, v) for k, v in opts if not k.startswith("changelog-csv.")]
        fl = [(k, "debezium-json" if k == "format" else v) for k, v in fl]
        unit.translated[name] = opts
    elif conn == "print" and "sink.changelog-mode" in d:
        m = kinds(d["sink.changelog-mode"])
        if m == ALL_KINDS:
            fl = wr = [(k, v) for k, v in opts if k != "sink.changelog-mode"]
        elif m == {"I", "UA", "D"}:
            fl = wr = [("connector", "blackhole")]
        else:
            unit.untranslatable[name.lower()] = (
                "sink %s accepts %s only; no sink of Flink's distribution does" % (name, d["sink.changelog-mode"]))
    if fl is None:
        return ddl, ddl
    wr = wr or opts

    def put(o):
        return ddl[:span[0]] + render_options(o) + ddl[span[1]:]
    return put(fl), put(wr)


# ------------------------------------------------------------------------------- units
class ModeTracker:
    """execution.runtime-mode as SET / RESET leave it."""

    def __init__(self):
        self.batch = False

    def feed(self, s):
        m = re.match(r"(?is)^SET\s+'execution\.runtime-mode'\s*=\s*'(\w+)'", s)
        if m:
            self.batch = m.group(1).lower() == "batch"
        elif re.match(r"(?is)^RESET\s*('execution\.runtime-mode')?\s*$", s):
            self.batch = False


def add_statements(unit, texts, mode):
    for s in texts:
        kind, t = classify(s)
        if kind == "other":
            continue
        if kind == "setup":
            fl, wr = translate_ddl(unit, t)
            unit.stmts.append(Stmt("setup", fl, wr))
            mode.feed(t)
            continue
        st = Stmt("target", t, batch=mode.batch)
        for tbl, why in unit.untranslatable.items():
            if re.search(r"(?i)(?<![\w$`])`?%s`?(?![\w$])" % re.escape(tbl), t):
                st.skip = why
        unit.stmts.append(st)


def subst(text, tmp):
    return text.replace("$DATA", DATA).replace("$TMP", tmp)


def golden_units(tmp_root):
    units = []
    for f in sorted(os.listdir(GOLDEN)):
        if not f.endswith(".sql") or f.endswith(".init.sql"):
            continue
        name = f[:-4]
        u = Unit("golden/" + name)
        tmp = os.path.join(tmp_root, "golden", name)
        mode = ModeTracker()
        texts = []
        init = os.path.join(GOLDEN, name + ".init.sql")
        if os.path.exists(init):
            texts += split_script(subst(open(init, encoding="utf-8").read(), tmp))
        texts += split_script(subst(open(os.path.join(GOLDEN, f), encoding="utf-8").read(), tmp))
        add_statements(u, texts, mode)
        units.append(u)
    return units


def parse_case(path):
    """The objects, config lines and sql block of a .case file (FORMAT.md §2-3)."""
    objs, cfg, sql, cur, reqs = [], [], None, None, []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"^([a-z-]+):(.*)$", line)
        if not m:
            continue
        key, val = m.group(1), m.group(2).strip()
        if val == "" and key not in ("source", "sink"):
            body = []
            while i < len(lines) and lines[i] != ".end":
                body.append(lines[i])
                i += 1
            i += 1
            if key == "sql":
                sql = "\n".join(body)
            elif key == "ddl" and cur is not None:
                cur["ddl"] = "\n".join(body)
            elif key in ("rows", "rows-before-restore", "rows-after-restore") and cur is not None:
                cur["rows"].extend(r for r in body if r.strip())
            continue
        if key in ("source", "sink"):
            cur = {"name": val, "sink": key == "sink", "mode": None, "ddl": None, "rows": []}
            objs.append(cur)
        elif key in ("changelog-mode", "sink-changelog-mode") and cur is not None:
            cur["mode"] = val
        elif key == "config":
            cfg.append(val)
        elif key == "requires":
            reqs.append(val)
    return objs, cfg, sql, reqs


def case_unit(path, tmp_root):
    base = os.path.basename(path)[:-5]
    u = Unit("case/" + base)
    objs, cfg, sql, reqs = parse_case(path)
    skip = None
    for r in reqs:
        if r.startswith("java-udf") or r.startswith("table-api") or r == "ptf":
            skip = "the case requires %s (not available in SQL)" % r.split(" ")[0].split("=")[0]
    data = os.path.join(tmp_root, "case", base)
    for c in cfg:
        if "=" in c:
            k, v = c.split("=", 1)
            u.stmts.append(Stmt("setup", "SET '%s' = '%s'" % (k, v)))
    for o in objs:
        ddl = (o["ddl"] or "").rstrip().rstrip(";")
        span = with_span(ddl)
        if not span or "'connector' = '<abstract>'" not in ddl:
            continue
        if o["sink"]:
            has_pk = re.search(r"(?i)PRIMARY\s+KEY", ddl) is not None
            m = kinds(o["mode"]) if o["mode"] else ({"I", "UA", "D"} if has_pk else ALL_KINDS)
            if m == {"I", "UA", "D"}:
                fl = wr = [("connector", "blackhole")]
            elif m == ALL_KINDS:
                fl = wr = [("connector", "print"), ("print-identifier", o["name"])]
            else:
                fl = wr = [("connector", "print"), ("print-identifier", o["name"])]
                u.untranslatable[o["name"].lower()] = "sink %s accepts %s only" % (o["name"], o["mode"])
        else:
            p = os.path.join(data, o["name"] + ".csv")
            m = kinds(o["mode"] or "I")
            if m == {"I"}:
                fl = wr = [("connector", "filesystem"), ("path", p), ("format", "csv")]
            else:
                wr = [("connector", "filesystem"), ("path", p), ("format", "changelog-csv"),
                      ("changelog-csv.changelog-mode", o["mode"])]
                fl = [("connector", "filesystem"), ("path", p), ("format", "debezium-json")]
                u.translated[o["name"]] = wr
                if m != ALL_KINDS:
                    u.untranslatable[o["name"].lower()] = (
                        "source %s has changelog mode %s; Flink's distribution has no source with it (only "
                        "the 'values' test connector)" % (o["name"], o["mode"]))
        u.stmts.append(Stmt("setup", ddl[:span[0]] + render_options(fl) + ddl[span[1]:],
                            ddl[:span[0]] + render_options(wr) + ddl[span[1]:]))
    add_statements(u, split_script(sql or ""), ModeTracker())
    if skip:
        for t in u.targets():
            t.skip = t.skip or skip
    return u


def qcase_unit(path, tmp_root):
    base = os.path.basename(path)[:-6]
    u = Unit("qcase/" + base)
    tmp = os.path.join(tmp_root, "qcase", base)
    text = open(path, encoding="utf-8").read()
    stmts = re.findall(r"(?ms)^statement:\n(.*?)^\.end$", text)
    script = "\n".join(stmts)
    script = re.sub(r"\$VAR_[A-Z_]+", lambda m: os.path.join(tmp, m.group(0)[1:].lower()), script)
    add_statements(u, split_script(script), ModeTracker())
    return u


def all_units(tmp_root):
    units = golden_units(tmp_root)
    for d in (os.path.join(SHARED_CONF, "cases"), OWN_CONF):
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if f.endswith(".case"):
                    units.append(case_unit(os.path.join(d, f), tmp_root))
    q = os.path.join(SHARED_CONF, "sql-client")
    if os.path.isdir(q):
        for f in sorted(os.listdir(q)):
            if f.endswith(".qcase"):
                units.append(qcase_unit(os.path.join(q, f), tmp_root))
    for u in units:
        n = 0
        for s in u.stmts:
            if s.kind == "target":
                n += 1
                s.index = n
    return [u for u in units if u.targets()]
