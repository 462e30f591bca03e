"""gen.py — random but typed tables, data and queries for the differential tester.

Contract: everything is drawn from one random.Random, so a seed names a case exactly.
  gen_tables(rng, folder) -> [Table]: 1-3 tables with random typed columns (every type the
      generator knows: TINYINT..BIGINT, DECIMAL(p,s), DOUBLE, STRING with unicode, BOOLEAN, DATE,
      TIMESTAMP(0..6)), NULLs everywhere, duplicates and skewed keys, an event-time column with
      out-of-order and late rows and a watermark; written as csv or json files in `folder`.
  gen_cdc_tables(rng, folder) -> [Table]: 1-3 changelog tables written as debezium-json (the
      format both engines read): inserts ("c", or "r" as a snapshot read), updates ("u" with
      "before" and "after") and deletes ("d"), with a PRIMARY KEY (a consistent history per key:
      a key is inserted, updated, deleted and maybe inserted again) or without one (a retract
      stream: updates and deletes retract rows that are live at that point, keys may change and be
      NULL). Table.rows holds the events; Table.write keeps any subset of them consistent.
  gen_cdc_query(rng, tables) -> Query: a query over changelog tables from the categories Flink
      accepts on updating input (projection, filter, casts, group aggregation, DISTINCT, Top-N,
      Top-1, set operations, joins, subqueries, invalid ones); its category is "cdc_<category>".
  gen_query(rng, tables) -> Query(category, sql, order): one query of a category (projection,
      filter, scalar functions, CAST/TRY_CAST, CASE, group aggregation with DISTINCT/FILTER/HAVING,
      grouping sets, joins of every kind, deduplication, Top-N, window TVFs with aggregation,
      set operations, subqueries, OVER, deliberately invalid queries). `order` says how results
      compare: "changelog" (the exact sequence, only where Flink's order is deterministic) or
      "final" (the folded final table, order-insensitive).
A table's DDL is the same text for both engines.
"""
import json
import os
import random

# ----------------------------------------------------------------------------------------- types
INTS = ["TINYINT", "SMALLINT", "INT", "BIGINT"]
INT_RANGE = {"TINYINT": 100, "SMALLINT": 1000, "INT": 100000, "BIGINT": 10 ** 12}
STRINGS = ["a", "b", "c", "A", "ab", "abc", "x y", "Ünïcödé", "日本語", "ß", "straße", "0", "12",
           "-3.5", "true", "TRUE", "2020-01-01", "é", "zz", "hello world", "foo_bar", "%x", "a_c"]


def is_num(t):
    return t in INTS or t.startswith("DECIMAL") or t == "DOUBLE"


def is_int(t):
    return t in INTS


def is_ts(t):
    return t.startswith("TIMESTAMP")


class Column:
    def __init__(self, name, typ):
        self.name, self.type = name, typ


class Table:
    """format "debezium-json": rows are change events (op, before, after, extra) with op in c, r,
    u, d and before/after value lists or None; pk says whether column 0 is the PRIMARY KEY."""

    def __init__(self, name, columns, rows, fmt, path, rowtime=None, delay=0, pk=False):
        self.name, self.columns, self.rows, self.format = name, columns, rows, fmt
        self.path, self.rowtime, self.delay, self.pk = path, rowtime, delay, pk

    def is_changelog(self):
        return self.format == "debezium-json"

    def has_late_rows(self):
        """A row whose rowtime is not after the watermark of the rows before it (Flink's sources emit
        the watermark after every record)."""
        if not self.rowtime:
            return False
        i = [c.name for c in self.columns].index(self.rowtime)
        mx = None
        for r in self.rows:
            v = r[i]
            if v is None:
                continue
            if mx is not None and v <= _ts_minus(mx, self.delay):
                return True
            mx = v if mx is None or v > mx else mx
        return False

    def ddl(self, rows=None):
        cols = ["%s %s" % (c.name, c.type) for c in self.columns]
        if self.pk:
            cols.append("PRIMARY KEY (%s) NOT ENFORCED" % self.columns[0].name)
        if self.rowtime:
            cols.append("WATERMARK FOR %s AS %s - INTERVAL '%d' SECOND" % (self.rowtime, self.rowtime, self.delay))
        opts = ["'connector' = 'filesystem'", "'path' = '%s'" % self.path, "'format' = '%s'" % self.format]
        if self.format == "csv":
            opts.append("'csv.null-literal' = ''")
        return "CREATE TABLE %s (\n  %s\n) WITH (%s)" % (self.name, ",\n  ".join(cols), ", ".join(opts))

    def write(self, rows=None):
        rows = self.rows if rows is None else rows
        if self.is_changelog():
            return self.write_events(rows)
        with open(self.path, "w", encoding="utf-8") as f:
            for r in rows:
                if self.format == "csv":
                    f.write(",".join(csv_field(v) for v in r) + "\n")
                else:
                    f.write(json.dumps({c.name: json_value(v, c.type) for c, v in zip(self.columns, r)},
                                       ensure_ascii=False) + "\n")


    def obj(self, r):
        return None if r is None else {c.name: json_value(v, c.type) for c, v in zip(self.columns, r)}

    def write_events(self, events):
        """Debezium JSON lines. An update or delete whose "before" row is not live (after the
        reducer dropped the event that inserted it) is left out, so every subset of the events is a
        consistent changelog."""
        live = []
        with open(self.path, "w", encoding="utf-8") as f:
            for op, before, after, extra in events:
                if op in ("u", "d"):
                    if before not in live:
                        continue
                    live.remove(before)
                if op != "d":
                    live.append(after)
                e = {"before": self.obj(before), "after": self.obj(after), "op": op}
                e.update(extra)
                f.write(json.dumps(e, ensure_ascii=False) + "\n")


def _ts_minus(ts, seconds):
    import datetime
    t = datetime.datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f") - datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")[:23]


def csv_field(v):
    if v is None:
        return ""
    s = str(v)
    if any(ch in s for ch in ',"\n') or s == "" or s != s.strip():
        return '"' + s.replace('"', '""') + '"'
    return s


def json_value(v, typ):
    if v is None:
        return None
    if is_int(typ):
        return int(v)
    if typ == "BOOLEAN":
        return v == "true"
    if typ == "DOUBLE":
        return float(v)
    return v   # DECIMAL, STRING, DATE, TIMESTAMP as text (Flink's json format reads them from strings)


def gen_type(rng):
    r = rng.random()
    if r < 0.30:
        return rng.choice(INTS)
    if r < 0.42:
        p = rng.choice([5, 10, 18, 38])
        return "DECIMAL(%d, %d)" % (p, rng.randint(0, min(p - 1, 4)))
    if r < 0.52:
        return "DOUBLE"
    if r < 0.78:
        return "STRING"
    if r < 0.86:
        return "BOOLEAN"
    if r < 0.92:
        return "DATE"
    return "TIMESTAMP(%d)" % rng.choice([0, 3, 3, 6])


def gen_value(rng, typ, null_rate, key_pool=None):
    if rng.random() < null_rate:
        return None
    if key_pool is not None and rng.random() < 0.7:
        return rng.choice(key_pool)
    if is_int(typ):
        lim = INT_RANGE[typ]
        return str(rng.choice([rng.randint(-5, 20), rng.randint(-lim, lim)]) if rng.random() < 0.8 else rng.randint(0, 3))
    if typ.startswith("DECIMAL"):
        p, s = [int(x) for x in typ[8:-1].split(",")]
        ip = min(p - s, 6)
        whole = rng.randint(-(10 ** ip - 1), 10 ** ip - 1) if ip > 0 else 0
        frac = rng.randint(0, 10 ** s - 1) if s else 0
        sign = "-" if whole < 0 or (whole == 0 and rng.random() < 0.2) else ""
        return "%s%d%s" % (sign, abs(whole), ("." + str(frac).zfill(s)) if s else "")
    if typ == "DOUBLE":
        return rng.choice(["%d" % rng.randint(-50, 50), "%.2f" % (rng.randint(-2000, 2000) / 4),
                           "%g" % rng.uniform(-1000, 1000), "0.1", "1e10", "-0.0"])
    if typ == "STRING":
        return rng.choice(STRINGS)
    if typ == "BOOLEAN":
        return rng.choice(["true", "false"])
    if typ == "DATE":
        return "20%02d-%02d-%02d" % (rng.randint(0, 30), rng.randint(1, 12), rng.randint(1, 28))
    if is_ts(typ):
        prec = int(typ[10:-1])
        base = "2020-01-01 00:%02d:%02d" % (rng.randint(0, 3), rng.randint(0, 59))
        if prec:
            base += "." + str(rng.randint(0, 10 ** prec - 1)).zfill(prec)
        return base
    raise ValueError(typ)


def gen_tables(rng, folder, n=None):
    tables = []
    n = n or rng.choice([1, 2, 2, 3])
    for ti in range(n):
        name = "t%d" % ti
        ncols = rng.randint(2, 5)
        cols = [Column("k", rng.choice(["INT", "STRING", "BIGINT"]))]
        for ci in range(ncols):
            cols.append(Column("c%d" % ci, gen_type(rng)))
        with_time = rng.random() < 0.6
        if with_time:
            cols.append(Column("ts", "TIMESTAMP(3)"))
        null_rate = rng.choice([0.0, 0.1, 0.3])
        nrows = rng.choice([0, 1, 5, 12, 30, 60])
        key_pool = [gen_value(rng, cols[0].type, 0) for _ in range(rng.choice([1, 3, 6]))]
        rows = []
        t0 = 0
        for ri in range(nrows):
            r = [gen_value(rng, cols[0].type, null_rate / 3, key_pool)]
            r += [gen_value(rng, c.type, null_rate) for c in cols[1:len(cols) - (1 if with_time else 0)]]
            if with_time:
                t0 += rng.choice([0, 500, 1000, 2000, 3000])
                t = t0 - (rng.choice([0, 0, 0, 1500, 4000, 9000]) if rng.random() < 0.25 else 0)
                t = max(t, 0)
                r.append("2020-01-01 %02d:%02d:%02d.%03d" % (t // 3600000, t // 60000 % 60, t // 1000 % 60, t % 1000))
            if rows and rng.random() < 0.1:
                r = list(rows[-1]) if not with_time else list(rows[-1][:-1]) + [r[-1]]
            rows.append(r)
        fmt = "csv" if rng.random() < 0.7 else "json"
        path = os.path.join(folder, "%s.%s" % (name, fmt))
        t = Table(name, cols, rows, fmt, path, rowtime="ts" if with_time else None,
                  delay=rng.choice([0, 1, 2, 5]))
        t.write()
        tables.append(t)
    return tables


def gen_cdc_tables(rng, folder, n=None):
    """Changelog tables in debezium-json: with a PRIMARY KEY (column k, never NULL) a consistent
    history per key, without one a retract stream over a live multiset of rows."""
    tables = []
    n = n or rng.choice([1, 2, 2, 3])
    for ti in range(n):
        name = "t%d" % ti
        pk = rng.random() < 0.5
        cols = [Column("k", rng.choice(["INT", "STRING", "BIGINT"]))]    # a PRIMARY KEY column is NOT NULL
        for ci in range(rng.randint(1, 4)):
            cols.append(Column("c%d" % ci, gen_type(rng)))
        null_rate = rng.choice([0.0, 0.1, 0.3])
        key_pool = [gen_value(rng, cols[0].type, 0) for _ in range(rng.choice([1, 3, 6, 10]))]

        def new_row(key=None):
            k = key if key is not None else (rng.choice(key_pool) if pk or rng.random() > null_rate / 3
                                             else None)
            return [k] + [gen_value(rng, c.type, null_rate) for c in cols[1:]]

        def extra():
            r = rng.random()
            if r < 0.3:
                return {"source": {"db": "inventory", "table": name, "ts_ms": 1700000000000 + rng.randint(0, 999)},
                        "ts_ms": 1700000000000 + rng.randint(1000, 9999)}
            if r < 0.4:
                return {"transaction": None}
            return {}

        events, live = [], []
        for _ in range(rng.choice([0, 1, 5, 12, 30, 60])):
            r = rng.random()
            if pk:
                key = rng.choice(key_pool)
                cur = next((x for x in live if x[0] == key), None)
                if cur is None:
                    row = new_row(key)
                    events.append((rng.choice(["c", "c", "c", "r"]), None, row, extra()))
                    live.append(row)
                elif r < 0.65:
                    row = new_row(key)
                    if rng.random() < 0.15:
                        row = list(cur)        # an update that changes nothing
                    events.append(("u", cur, row, extra()))
                    live[live.index(cur)] = row
                else:
                    events.append(("d", cur, None, extra()))
                    live.remove(cur)
            else:
                if not live or r < 0.5:
                    row = new_row() if not live or rng.random() > 0.15 else list(rng.choice(live))
                    events.append((rng.choice(["c", "c", "c", "r"]), None, row, extra()))
                    live.append(row)
                elif r < 0.8:
                    cur = rng.choice(live)
                    row = new_row(cur[0] if rng.random() < 0.7 else None)
                    events.append(("u", cur, row, extra()))
                    live[live.index(cur)] = row
                else:
                    cur = rng.choice(live)
                    events.append(("d", cur, None, extra()))
                    live.remove(cur)
        path = os.path.join(folder, "%s.json" % name)
        t = Table(name, cols, events, "debezium-json", path, pk=pk)
        t.write()
        tables.append(t)
    return tables


# ----------------------------------------------------------------------------------- expressions
def cls_of(typ):
    if is_int(typ):
        return "int"
    if typ.startswith("DECIMAL"):
        return "dec"
    if typ == "DOUBLE":
        return "dbl"
    if typ == "STRING":
        return "str"
    if typ == "BOOLEAN":
        return "bool"
    if typ == "DATE":
        return "date"
    return "ts"


NUMERIC = ("int", "dec", "dbl")


class ExprGen:
    """Typed expressions over a list of (sql name, type) columns."""

    def __init__(self, rng, cols):
        self.rng, self.cols = rng, cols

    def col(self, want):
        c = [n for n, t in self.cols if cls_of(t) == want]
        return self.rng.choice(c) if c else None

    def lit(self, want):
        r = self.rng
        if want == "int":
            return str(r.choice([0, 1, 2, 3, 7, 10, -1, 100]))
        if want == "dec":
            return r.choice(["1.5", "0.25", "-2.75", "10.00", "0.1"])
        if want == "dbl":
            return r.choice(["1.5e0", "CAST(0.1 AS DOUBLE)", "2e0", "-0.5e0"])
        if want == "str":
            return "'%s'" % r.choice(STRINGS).replace("'", "''")
        if want == "bool":
            return r.choice(["TRUE", "FALSE"])
        if want == "date":
            return "DATE '2020-0%d-1%d'" % (r.randint(1, 9), r.randint(0, 9))
        return "TIMESTAMP '2020-01-01 00:0%d:%02d'" % (r.randint(0, 3), r.randint(0, 59))

    def expr(self, want, depth=0):
        r = self.rng
        if depth >= 3 or r.random() < 0.35:
            c = self.col(want)
            if c and r.random() < 0.8:
                return c
            return self.lit(want)
        d = depth + 1
        if want in NUMERIC:
            a, b = self.expr(want, d), self.expr(r.choice(["int", want]), d)
            ops = [lambda: "%s + %s" % (a, b), lambda: "%s - %s" % (a, b), lambda: "%s * %s" % (a, b),
                   lambda: "ABS(%s)" % a, lambda: "-(%s)" % a,
                   lambda: "COALESCE(%s, %s)" % (a, self.lit(want)),
                   lambda: "CASE WHEN %s THEN %s ELSE %s END" % (self.expr("bool", d), a, b),
                   lambda: "(%s) / NULLIF(%s, 0)" % (a, b)]
            if want == "int":
                ops += [lambda: "MOD(%s, %d)" % (a, r.choice([2, 3, 7])), lambda: "CHAR_LENGTH(%s)" % self.expr("str", d),
                        lambda: "CAST(%s AS INT)" % self.expr(r.choice(["dec", "dbl", "int"]), d),
                        lambda: "EXTRACT(YEAR FROM %s)" % self.expr("date", d),
                        lambda: "EXTRACT(SECOND FROM %s)" % self.expr("ts", d),
                        lambda: "POSITION(%s IN %s)" % (self.lit("str"), self.expr("str", d))]
            if want == "dec":
                ops += [lambda: "ROUND(%s, %d)" % (a, r.randint(0, 2)), lambda: "CAST(%s AS DECIMAL(10, 2))" % self.expr(r.choice(NUMERIC), d),
                        lambda: "FLOOR(%s)" % a, lambda: "CEIL(%s)" % a]
            if want == "dbl":
                ops += [lambda: "CAST(%s AS DOUBLE)" % self.expr(r.choice(NUMERIC), d), lambda: "POWER(%s, 2)" % a,
                        lambda: "SQRT(ABS(%s))" % a]
            return r.choice(ops)()
        if want == "str":
            a = self.expr("str", d)
            ops = [lambda: "UPPER(%s)" % a, lambda: "LOWER(%s)" % a, lambda: "CONCAT(%s, %s)" % (a, self.expr("str", d)),
                   lambda: "%s || %s" % (a, self.expr("str", d)), lambda: "SUBSTRING(%s, %d, %d)" % (a, r.randint(1, 3), r.randint(0, 3)),
                   lambda: "TRIM(%s)" % a, lambda: "REPLACE(%s, 'a', 'X')" % a,
                   lambda: "CAST(%s AS STRING)" % self.expr(r.choice(["int", "dec", "dbl", "bool", "date", "ts"]), d),
                   lambda: "COALESCE(%s, 'none')" % a, lambda: "LPAD(%s, %d, '*')" % (a, r.randint(0, 6)),
                   lambda: "CASE WHEN %s THEN %s ELSE 'other' END" % (self.expr("bool", d), a),
                   lambda: "INITCAP(%s)" % a, lambda: "REVERSE(%s)" % a,
                   lambda: "DATE_FORMAT(%s, 'yyyy-MM-dd HH:mm')" % self.expr("ts", d)]
            return r.choice(ops)()
        if want == "bool":
            c = r.choice(["int", "dec", "dbl", "str", "date", "ts", "int", "str"])
            a, b = self.expr(c, d), self.expr(c, d) if r.random() < 0.5 else self.lit(c)
            ops = [lambda: "%s %s %s" % (a, r.choice(["=", "<>", "<", ">", "<=", ">="]), b),
                   lambda: "%s IS NULL" % a, lambda: "%s IS NOT NULL" % a,
                   lambda: "(%s AND %s)" % (self.expr("bool", d), self.expr("bool", d)),
                   lambda: "(%s OR %s)" % (self.expr("bool", d), self.expr("bool", d)),
                   lambda: "NOT %s" % self.expr("bool", d),
                   lambda: "%s IN (%s, %s)" % (a, self.lit(c), self.lit(c)),
                   lambda: "%s BETWEEN %s AND %s" % (a, self.lit(c), self.lit(c)),
                   lambda: "%s LIKE '%s'" % (self.expr("str", d), r.choice(["a%", "%b%", "_", "a_c", "%"])),
                   lambda: "%s IS TRUE" % self.expr("bool", d), lambda: "%s IS NOT FALSE" % self.expr("bool", d)]
            return r.choice(ops)()
        if want == "date":
            return r.choice(["CAST(%s AS DATE)" % self.expr("ts", d), self.lit("date")])
        if want == "ts":
            return r.choice(["CAST(%s AS TIMESTAMP(3))" % self.expr("date", d), self.lit("ts")])
        raise ValueError(want)

    def any_expr(self, depth=0):
        return self.expr(self.rng.choice(["int", "dec", "dbl", "str", "bool", "int", "str", "date", "ts"]), depth)


# --------------------------------------------------------------------------------------- queries
class Query:
    """order "changelog" with key_idx: Flink's order is deterministic per key only (rows a timer
    firing emits for several keys come in the timer queue's internal order, which differs even
    between Flink's own state backends), so the changelog is compared per value of those columns."""

    def __init__(self, category, sql, order, tables, key_idx=None):
        self.category, self.sql, self.order, self.tables = category, sql, order, tables
        self.key_idx = key_idx


def qcols(t, alias=None):
    p = (alias + ".") if alias else ""
    return [(p + c.name, c.type) for c in t.columns]


AGGS_NUM = ["SUM", "MIN", "MAX", "AVG", "COUNT"]


def agg_call(rng, eg, mergeable=False):
    """mergeable: only aggregates Flink can merge (HOP/CUMULATE windows share slices; Flink 2.3's
    FIRST_VALUE, LAST_VALUE and LISTAGG have no merge method there and are refused)."""
    r = rng.random()
    if r < 0.15:
        return "COUNT(*)"
    c = rng.choice(["int", "dec", "dbl", "str", "int", "dec"])
    e = eg.expr(c, 2)
    if c in ("str",):
        f = rng.choice(["MIN", "MAX", "COUNT", "FIRST_VALUE", "LAST_VALUE"]) if rng.random() < 0.9 else "LISTAGG"
    else:
        f = rng.choice(AGGS_NUM + ["FIRST_VALUE", "LAST_VALUE"] if rng.random() < 0.1 else AGGS_NUM)
    if mergeable and f in ("FIRST_VALUE", "LAST_VALUE", "LISTAGG"):
        f = "MAX"
    distinct = "DISTINCT " if rng.random() < 0.15 and f in ("SUM", "COUNT", "MIN", "MAX") else ""
    call = "%s(%s%s)" % (f, distinct, e)
    if rng.random() < 0.15:
        call += " FILTER (WHERE %s)" % eg.expr("bool", 2)
    return call


CDC_CATEGORIES = ["project", "filter", "agg", "agg", "agg", "agg_global", "distinct", "topn", "top1",
                  "union", "cast", "invalid"]


def gen_cdc_query(rng, tables):
    cats = list(CDC_CATEGORIES)
    if len(tables) >= 2:
        cats += ["join", "join", "join", "subquery"]
    q = gen_query(rng, tables, rng.choice(cats), cdc=True)
    q.category = "cdc_" + q.category
    return q


def gen_query(rng, tables, cat=None, cdc=False):
    cats = ["project", "project", "filter", "agg", "agg", "agg_global", "distinct", "topn", "union",
            "invalid", "cast", "typeof"]
    if len(tables) >= 2:
        cats += ["join", "join", "subquery"]
    if any(t.rowtime for t in tables):
        cats += ["window", "window", "dedup", "over"]
    if sum(1 for t in tables if t.rowtime) >= 2:
        cats += ["interval_join"]
    cat = cat or rng.choice(cats)
    t = rng.choice(tables)
    eg = ExprGen(rng, qcols(t))
    single = "changelog"   # one source at parallelism 1: Flink's order is deterministic

    def sel_list(n):
        return ", ".join("%s AS e%d" % (eg.any_expr(1), i) for i in range(n))

    if cat == "typeof":
        # the result types the engines infer, compared directly (DECIMAL precision and scale,
        # nullability)
        sql = "SELECT DISTINCT %s FROM %s" % (", ".join("TYPEOF(%s) AS t%d" % (eg.any_expr(1), i)
                                                       for i in range(rng.randint(1, 4))), t.name)
        return Query(cat, sql, "final", [t])
    if cat in ("project", "filter", "cast"):
        if cat == "cast":
            target = rng.choice(["INT", "BIGINT", "DECIMAL(10, 2)", "DOUBLE", "STRING", "BOOLEAN", "DATE", "TIMESTAMP(3)"])
            fn = rng.choice(["CAST", "TRY_CAST", "TRY_CAST"])
            src = eg.any_expr(2)
            sql = "SELECT %s, %s(%s AS %s) AS v FROM %s" % (t.columns[0].name, fn, src, target, t.name)
        else:
            sql = "SELECT %s FROM %s" % (sel_list(rng.randint(1, 4)), t.name)
            if cat == "filter" or rng.random() < 0.4:
                sql += " WHERE " + eg.expr("bool", 1)
        return Query(cat, sql, single, [t])
    if cat in ("agg", "agg_global"):
        keys = [] if cat == "agg_global" else [eg.expr(rng.choice(["int", "str", "bool", "date"]), 2)
                                                for _ in range(rng.randint(1, 2))]
        aggs = [agg_call(rng, eg) for _ in range(rng.randint(1, 3))]
        sel = ["%s AS g%d" % (k, i) for i, k in enumerate(keys)] + ["%s AS a%d" % (a, i) for i, a in enumerate(aggs)]
        sql = "SELECT %s FROM %s" % (", ".join(sel), t.name)
        if rng.random() < 0.3:
            sql += " WHERE " + eg.expr("bool", 1)
        if keys:
            if rng.random() < 0.15:
                sql += " GROUP BY %s(%s)" % (rng.choice(["ROLLUP", "CUBE", "GROUPING SETS"]), ", ".join(keys))
            else:
                sql += " GROUP BY " + ", ".join(keys)
        if rng.random() < 0.2:
            sql += " HAVING COUNT(*) > %d" % rng.randint(0, 2)
        return Query(cat, sql, single, [t])
    if cat == "distinct":
        sql = "SELECT DISTINCT %s FROM %s" % (", ".join(eg.expr(rng.choice(["int", "str", "bool"]), 2) for _ in range(rng.randint(1, 2))), t.name)
        return Query(cat, sql, single, [t])
    if cat == "topn":
        # over changelog input not ordered by the partition key: over an upsert source Flink 2.3 then
        # picks its UpdateFastStrategy (the order key is constant per partition) and emits -U/+U
        # where weir's retracting Top-N emits -D/+I (docs/user-guide.md, differences)
        order_col = rng.choice([c.name for c in t.columns[1 if cdc else 0:]
                                if cls_of(c.type) in ("int", "dec", "dbl", "str", "date", "ts")] or [t.columns[-1].name])
        n = rng.randint(1, 3)
        sql = ("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY %s ORDER BY %s %s) AS rn FROM %s) "
               "WHERE rn <= %d" % (t.columns[0].name, order_col, rng.choice(["ASC", "DESC"]), t.name, n))
        # ties make the row picked by Top-N depend on arrival order only; still deterministic at p=1
        return Query(cat, sql, single, [t])
    if cat == "top1":
        # Top-1 (deduplication without a time attribute: a Rank over the updating input)
        order_col = rng.choice([c.name for c in t.columns[1:] if cls_of(c.type) in ("int", "dec", "str", "date")]
                               or [t.columns[-1].name])   # not the partition key: see "topn" below
        sql = ("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY %s ORDER BY %s %s) AS rn FROM %s) "
               "WHERE rn = 1" % (t.columns[0].name, order_col, rng.choice(["ASC", "DESC"]), t.name))
        return Query(cat, sql, single, [t])
    if cat == "union":
        o = rng.choice(tables)
        k1, k2 = t.columns[0], o.columns[0]
        e1 = "CAST(%s AS STRING)" % k1.name
        e2 = "CAST(%s AS STRING)" % k2.name
        op = rng.choice(["UNION ALL", "UNION", "INTERSECT", "EXCEPT"])
        sql = "SELECT %s AS u FROM %s %s SELECT %s AS u FROM %s" % (e1, t.name, op, e2, o.name)
        return Query(cat, sql, "final", [t, o])
    if cat == "invalid":
        bad = rng.choice([
            lambda: "SELECT nosuchcol FROM %s" % t.name,
            lambda: "SELECT * FROM nosuchtable",
            lambda: "SELECT %s FROM %s GROUP BY %s" % (t.columns[-1].name, t.name, t.columns[0].name)
            if len(t.columns) > 1 else "SELECT SUM(SUM(1)) FROM %s" % t.name,
            lambda: "SELECT SUM(%s) FROM %s" % (next((c.name for c in t.columns if c.type in ("STRING", "BOOLEAN")), "'x'"), t.name),
            lambda: "SELECT %s + TRUE FROM %s" % (t.columns[0].name, t.name),
            lambda: "SELECT UPPER(%s, 1) FROM %s" % (t.columns[0].name, t.name),
            lambda: "SELECT * FROM %s WHERE %s" % (t.name, t.columns[0].name if cls_of(t.columns[0].type) != "bool" else "1"),
            lambda: "SELECT nofunc(%s) FROM %s" % (t.columns[0].name, t.name),
            lambda: "SELECT %s FROM %s WHERE" % (t.columns[0].name, t.name),
            lambda: "SELECT CAST(%s AS NOTATYPE) FROM %s" % (t.columns[0].name, t.name),
        ])()
        return Query(cat, bad, single, [t])
    if cat == "join":
        o = rng.choice([x for x in tables if x is not t])
        kind = rng.choice(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN", "JOIN"])
        l_k, r_k = t.columns[0], o.columns[0]
        cond = "CAST(a.%s AS STRING) = CAST(b.%s AS STRING)" % (l_k.name, r_k.name) if l_k.type != r_k.type \
            else "a.%s = b.%s" % (l_k.name, r_k.name)
        jeg = ExprGen(rng, qcols(t, "a") + qcols(o, "b"))
        if rng.random() < 0.3:
            cond += " AND " + jeg.expr("bool", 2)
        sel = ", ".join("%s AS j%d" % (jeg.any_expr(2), i) for i in range(rng.randint(1, 3)))
        sql = "SELECT %s FROM %s a %s %s b ON %s" % (sel, t.name, kind, o.name, cond)
        if rng.random() < 0.2:
            sql += " WHERE " + jeg.expr("bool", 2)
        return Query(cat, sql, "final", [t, o])
    if cat == "subquery":
        o = rng.choice([x for x in tables if x is not t])
        sql = "SELECT %s FROM %s WHERE CAST(%s AS STRING) %s (SELECT CAST(%s AS STRING) FROM %s)" % (
            ", ".join(c.name for c in t.columns[:2]), t.name, t.columns[0].name, rng.choice(["IN", "NOT IN"]),
            o.columns[0].name, o.name)
        return Query(cat, sql, "final", [t, o])
    if cat == "interval_join":
        a, b = rng.sample([x for x in tables if x.rowtime], 2)
        lo, hi = rng.choice([(0, 2), (-2, 2), (1, 5), (-5, 0)])
        kind = rng.choice(["JOIN", "JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN"])
        cond = "CAST(a.k AS STRING) = CAST(b.k AS STRING)"
        sql = ("SELECT a.k AS ak, a.ts AS ats, b.ts AS bts FROM %s a %s %s b ON %s AND "
               "b.ts BETWEEN a.ts + INTERVAL '%d' SECOND AND a.ts + INTERVAL '%d' SECOND"
               % (a.name, kind, b.name, cond, lo, hi)) if lo >= 0 else (
               "SELECT a.k AS ak, a.ts AS ats, b.ts AS bts FROM %s a %s %s b ON %s AND "
               "b.ts BETWEEN a.ts - INTERVAL '%d' SECOND AND a.ts + INTERVAL '%d' SECOND"
               % (a.name, kind, b.name, cond, -lo, hi))
        return Query(cat, sql, "final", [a, b])
    # event-time categories
    tt = rng.choice([x for x in tables if x.rowtime])
    eg = ExprGen(rng, qcols(tt))
    if cat == "window":
        size = rng.choice([2, 5, 10])
        kind = rng.choice(["TUMBLE", "HOP", "CUMULATE"])
        if kind == "TUMBLE":
            tvf = "TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '%d' SECOND)" % (tt.name, size)
        elif kind == "HOP":
            tvf = "HOP(TABLE %s, DESCRIPTOR(ts), INTERVAL '%d' SECOND, INTERVAL '%d' SECOND)" % (tt.name, size, size * 2)
        else:
            tvf = "CUMULATE(TABLE %s, DESCRIPTOR(ts), INTERVAL '%d' SECOND, INTERVAL '%d' SECOND)" % (tt.name, size, size * 2)
        aggs = ", ".join("%s AS a%d" % (agg_call(rng, eg, kind != "TUMBLE"), i) for i in range(rng.randint(1, 3)))
        by_key = rng.random() < 0.6
        sql = "SELECT window_start, window_end, %s%s FROM TABLE(%s) GROUP BY window_start, window_end%s" % (
            "k, " if by_key else "", aggs, tvf, ", k" if by_key else "")
        return Query(cat, sql, "changelog", [tt], key_idx=[0, 1, 2] if by_key else [0, 1])
    if cat == "dedup":
        sql = ("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts %s) AS rn FROM %s) WHERE rn = 1"
               % (rng.choice(["ASC", "DESC"]), tt.name))
        return Query(cat, sql, "changelog", [tt], key_idx=[0])
    # over
    num = [c.name for c in tt.columns if cls_of(c.type) in ("int", "dec")] or ["1"]
    frame = rng.choice(["ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW",
                        "RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW"])
    sql = "SELECT k, ts, %s(%s) OVER (PARTITION BY k ORDER BY ts %s) AS o FROM %s" % (
        rng.choice(["SUM", "COUNT", "MIN", "MAX"]), rng.choice(num), frame, tt.name)
    return Query(cat, sql, "changelog", [tt], key_idx=[0])
