/*
 * test_parser.c — unit tests for the Flink SQL lexer/parser (src/sql): statement kinds, expression
 * precedence, special syntaxes, hints, window TVFs, literals, script splitting, and the exact
 * error texts/positions Flink (Calcite) reports. Error-text tests live in test_parser_errors.c.
 */
#include "unit.h"

#include <stdlib.h>

#include "../../src/sql/ast_dump.h"
#include "../../src/sql/parser.h"

static WArena A;
static bool A_init;

static WArena *arena(void)
{
    if (!A_init) { warena_init(&A, 0); A_init = true; }
    return &A;
}

static AstStmt *P(const char *sql)
{
    WError e;
    werr_clear(&e);
    AstStmt *s = wsql_parse_statement(arena(), sql, &e);
    if (!s) fprintf(stderr, "    parse of [%s] failed: %s\n", sql, e.msg);
    return s;
}

/* the dump of a query statement's query */
static const char *Q(const char *sql)
{
    AstStmt *s = P(sql);
    if (!s) return "(error)";
    if (!s->query) return "(no query)";
    return wsql_dump_query(arena(), s->query);
}

static const char *S(const char *sql)
{
    AstStmt *s = P(sql);
    return s ? wsql_dump_stmt(arena(), s) : "(error)";
}

static const char *E(const char *sql)
{
    WError e;
    werr_clear(&e);
    AstExpr *x = wsql_parse_expression(arena(), sql, &e);
    if (!x) { fprintf(stderr, "    expr [%s] failed: %s\n", sql, e.msg); return "(error)"; }
    return wsql_dump_expr(arena(), x);
}

static const char *T(const char *sql)
{
    WError e;
    werr_clear(&e);
    AstType *t = wsql_parse_type(arena(), sql, &e);
    if (!t) { fprintf(stderr, "    type [%s] failed: %s\n", sql, e.msg); return "(error)"; }
    return wsql_dump_type(arena(), t);
}

/* ---------------- statements ---------------- */

WTEST(parser_select_basic)
{
    CHECK_STR(Q("SELECT a, b + 1 AS c, d e FROM t WHERE x > 1"),
              "(SELECT a, (+ b 1) AS c, d AS e FROM t WHERE (> x 1))");
    CHECK_STR(Q("select DISTINCT * from cat.db.t as x"), "(SELECT DISTINCT * FROM cat.db.t AS x)");
    CHECK_STR(Q("SELECT t.*, `Weird``Name` FROM t"), "(SELECT t.*, Weird`Name FROM t)");
    CHECK_STR(Q("SELECT 1"), "(SELECT 1)");
    AstStmt *s = P("  SELECT 1 ;  ");
    CHECK(s && s->kind == AS_QUERY);
    if (s) CHECK_STR(s->sql, "SELECT 1");
}

WTEST(parser_identifiers_keep_case)
{
    AstStmt *s = P("SELECT MyCol FROM MyTable");
    CHECK(s != NULL);
    if (!s) return;
    CHECK_STR(s->query->items[0].expr->name.parts[0], "MyCol");
    CHECK_STR(s->query->from->name.parts[0], "MyTable");
    /* non-reserved keywords are usable as names */
    CHECK_STR(Q("SELECT name, type, data, `timestamp`, `value` FROM t"),
              "(SELECT name, type, data, timestamp, value FROM t)");
}

WTEST(parser_where_group_having_order_limit)
{
    CHECK_STR(Q("SELECT a, COUNT(*) FROM t WHERE b = 'x' GROUP BY a HAVING COUNT(*) > 2 ORDER BY a DESC NULLS FIRST, 2 LIMIT 5"),
              "(SELECT a, COUNT(*) FROM t WHERE (= b 'x') GROUP BY a HAVING (> COUNT(*) 2) ORDER BY a DESC NULLS FIRST, 2 LIMIT 5)");
    CHECK_STR(Q("SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY"),
              "(SELECT a FROM t ORDER BY a LIMIT 3 OFFSET 2)");
    CHECK_STR(Q("SELECT a FROM t FETCH NEXT 1 ROW ONLY"), "(SELECT a FROM t LIMIT 1)");
}

WTEST(parser_grouping_sets)
{
    CHECK_STR(Q("SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, ())"),
              "(SELECT a FROM t GROUP BY GROUPING SETS((a, b), (a), ()))");
    CHECK_STR(Q("SELECT a FROM t GROUP BY ROLLUP (a, b), CUBE (c, (d, e)), f"),
              "(SELECT a FROM t GROUP BY ROLLUP((a), (b)), CUBE((c), (d, e)), f)");
    CHECK_STR(Q("SELECT 1 FROM t GROUP BY ()"), "(SELECT 1 FROM t GROUP BY GROUPING SETS(()))");
}

WTEST(parser_joins)
{
    CHECK_STR(Q("SELECT * FROM a JOIN b ON a.x = b.x LEFT OUTER JOIN c ON TRUE"),
              "(SELECT * FROM (LEFT JOIN (JOIN a b ON (= a.x b.x)) c ON TRUE))");
    CHECK_STR(Q("SELECT * FROM a INNER JOIN b USING (k, l) RIGHT JOIN c ON x FULL JOIN d ON y"),
              "(SELECT * FROM (FULL JOIN (RIGHT JOIN (JOIN a b USING(k, l)) c ON x) d ON y))");
    CHECK_STR(Q("SELECT * FROM a, b CROSS JOIN c NATURAL JOIN d"),
              "(SELECT * FROM (NATURAL JOIN (CROSS JOIN (, a b) c) d))");
    CHECK_STR(Q("SELECT * FROM (a JOIN b ON x) JOIN c ON y"),
              "(SELECT * FROM (JOIN (JOIN a b ON x) c ON y))");
}

WTEST(parser_from_subquery_values_unnest_lateral)
{
    CHECK_STR(Q("SELECT * FROM (SELECT a FROM t) AS s (x) WHERE x > 0"),
              "(SELECT * FROM (SELECT a FROM t) AS s(x) WHERE (> x 0))");
    CHECK_STR(Q("SELECT id FROM (VALUES (1, 'Hello'), (2, 'Hi')) as T(id, str)"),
              "(SELECT id FROM (VALUES ROW(1, 'Hello'), ROW(2, 'Hi')) AS T(id, str))");
    CHECK_STR(Q("SELECT o.id, t.tag FROM orders o CROSS JOIN UNNEST(o.tags) AS t (tag)"),
              "(SELECT o.id, t.tag FROM (CROSS JOIN orders AS o UNNEST(o.tags) AS t(tag)))");
    CHECK_STR(Q("SELECT * FROM t, UNNEST(t.a) WITH ORDINALITY AS x(v, i)"),
              "(SELECT * FROM (, t UNNEST(t.a) WITH ORDINALITY AS x(v, i)))");
    CHECK_STR(Q("SELECT s, w FROM t, LATERAL TABLE(split(s)) AS T(w)"),
              "(SELECT s, w FROM (, t LATERAL TABLE(split(s)) AS T(w)))");
    CHECK_STR(Q("SELECT * FROM t LEFT JOIN LATERAL TABLE(f(a)) AS x(y) ON TRUE"),
              "(SELECT * FROM (LEFT JOIN t LATERAL TABLE(f(a)) AS x(y) ON TRUE))");
}

WTEST(parser_temporal_join)
{
    AstStmt *s = P("SELECT * FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.proctime AS r ON o.c = r.c");
    CHECK(s != NULL);
    if (!s) return;
    AstFrom *r = s->query->from->right;
    CHECK_INT(r->kind, AFR_TABLE);
    CHECK_STR(r->alias, "r");
    CHECK(r->system_time != NULL);
    if (r->system_time) CHECK_STR(wsql_dump_expr(arena(), r->system_time), "o.proctime");
}

WTEST(parser_ptf_and_partitioned_table_args)
{
    CHECK_STR(Q("SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY name, DESCRIPTOR(rowtime), INTERVAL '5' SECOND))"),
              "(SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY name, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)))");
    CHECK_STR(Q("SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY (a, b) ORDER BY ts)"),
              "(SELECT * FROM TABLE(DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY a, b ORDER BY ts)))");
    CHECK_STR(Q("SELECT * FROM cat.db.f(1) AS x"), "(SELECT * FROM TABLE(cat.db.f(1)) AS x)");
}

WTEST(parser_window_tvf)
{
    CHECK_STR(Q("SELECT window_start, SUM(price) FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) GROUP BY window_start"),
              "(SELECT window_start, SUM(price) FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTE)) GROUP BY window_start)");
    AstStmt *s = P("SELECT * FROM TABLE(HOP(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), "
                   "SLIDE => INTERVAL '5' MINUTE, SIZE => INTERVAL '10' MINUTE)) AS w");
    CHECK(s != NULL);
    if (!s) return;
    AstFrom *f = s->query->from;
    CHECK_INT(f->kind, AFR_TVF);
    CHECK_STR(f->alias, "w");
    CHECK_INT(f->call->nargs, 4);
    CHECK_INT(f->call->args[0]->kind, AE_NAMED_ARG);
    CHECK_STR(f->call->args[0]->str, "DATA");
    CHECK_INT(f->call->args[0]->args[0]->kind, AE_TABLE_ARG);
    CHECK_STR(f->call->args[0]->args[0]->name.parts[0], "Bid");
    CHECK_INT(f->call->args[1]->args[0]->kind, AE_DESCRIPTOR);
    CHECK_STR(f->call->args[3]->str, "SIZE");
    CHECK_STR(Q("SELECT * FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY))"),
              "(SELECT * FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY)))");
}

WTEST(parser_over_and_named_windows)
{
    CHECK_STR(Q("SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY ts DESC) AS rn FROM t"),
              "(SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY ts DESC) AS rn FROM t)");
    CHECK_STR(Q("SELECT SUM(x) OVER (ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM t"),
              "(SELECT SUM(x) OVER (ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM t)");
    CHECK_STR(Q("SELECT SUM(x) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)"),
              "(SELECT SUM(x) OVER (w) FROM t WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW))");
    CHECK_STR(Q("SELECT MAX(x) OVER (ORDER BY ts RANGE UNBOUNDED PRECEDING) FROM t"),
              "(SELECT MAX(x) OVER (ORDER BY ts RANGE UNBOUNDED PRECEDING) FROM t)");
    AstStmt *s = P("SELECT SUM(x) OVER w FROM t WINDOW w AS (ORDER BY ts)");
    CHECK(s && s->query->items[0].expr->over && s->query->items[0].expr->over->ref_name);
}

WTEST(parser_set_operations_and_with)
{
    CHECK_STR(Q("SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4"),
              "(EXCEPT (UNION ALL (SELECT 1) (INTERSECT (SELECT 2) (SELECT 3))) (SELECT 4))");
    CHECK_STR(Q("WITH a AS (SELECT 1 AS x), b (y) AS (VALUES 2) SELECT x FROM a UNION SELECT y FROM b ORDER BY 1"),
              "(WITH a AS (SELECT 1 AS x), b(y) AS (VALUES 2) UNION (SELECT x FROM a) (SELECT y FROM b) ORDER BY 1)");
    CHECK_STR(Q("(SELECT a FROM t ORDER BY a LIMIT 1) ORDER BY a"),
              "(SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 1) ORDER BY a)");
    CHECK_STR(Q("VALUES (1, 'a'), (2, 'b')"), "(VALUES ROW(1, 'a'), ROW(2, 'b'))");
}

WTEST(parser_select_hints)
{
    AstStmt *s = P("SELECT /*+ STATE_TTL('o' = '1d', 'c' = '12h'), BROADCAST(c) */ * FROM o JOIN c ON o.k = c.k");
    CHECK(s != NULL);
    if (!s) return;
    AstHints *h = &s->query->hints;
    CHECK_INT(h->n, 2);
    CHECK_STR(h->items[0].name, "STATE_TTL");
    CHECK(h->items[0].kv);
    CHECK_INT(h->items[0].nopts, 2);
    CHECK_STR(h->items[0].opts[0].key, "o");
    CHECK_STR(h->items[0].opts[0].value, "1d");
    CHECK_STR(h->items[1].name, "BROADCAST");
    CHECK(!h->items[1].kv);
    CHECK(h->items[1].opts[0].key == NULL);
    CHECK_STR(h->items[1].opts[0].value, "c");
}

WTEST(parser_table_hints)
{
    AstStmt *s = P("SELECT * FROM kafka_t /*+ OPTIONS('scan.startup.mode' = 'earliest-offset') */ AS k");
    CHECK(s != NULL);
    if (!s) return;
    AstFrom *f = s->query->from;
    CHECK_INT(f->hints.n, 1);
    CHECK_STR(f->hints.items[0].name, "OPTIONS");
    CHECK_STR(f->hints.items[0].opts[0].key, "scan.startup.mode");
    CHECK_STR(f->hints.items[0].opts[0].value, "earliest-offset");
    CHECK_STR(f->alias, "k");
    AstStmt *i = P("INSERT INTO sink /*+ OPTIONS('sink.parallelism' = '4') */ SELECT * FROM src");
    CHECK(i && i->target_hints.n == 1);
    if (i) CHECK_STR(i->target_hints.items[0].opts[0].value, "4");
}

WTEST(parser_insert)
{
    AstStmt *s = P("INSERT INTO cat.db.sink PARTITION (dt = '2020-01-01', h = 10) (a, b) SELECT a, b FROM src");
    CHECK(s != NULL);
    if (!s) return;
    CHECK_INT(s->kind, AS_INSERT);
    CHECK(!s->overwrite);
    CHECK_INT(s->target.n, 3);
    CHECK_INT(s->npartition, 2);
    CHECK_STR(s->partition[0].key, "dt");
    CHECK_STR(s->partition[0].value, "2020-01-01");
    CHECK_STR(s->partition[1].value, "10");
    CHECK_INT(s->ninsert_cols, 2);
    CHECK_STR(s->insert_cols[1], "b");
    CHECK_STR(wsql_dump_query(arena(), s->query), "(SELECT a, b FROM src)");
    AstStmt *o = P("INSERT OVERWRITE t VALUES (1, 'x')");
    CHECK(o && o->overwrite && o->query->kind == AQ_VALUES);
    AstStmt *w = P("INSERT INTO t WITH x AS (SELECT 1) SELECT * FROM x");
    CHECK(w && w->query->nctes == 1);
    AstStmt *p = P("INSERT INTO t (SELECT 1)");
    CHECK(p && p->ninsert_cols == 0);
}

WTEST(parser_create_table_full)
{
    AstStmt *s = P("CREATE TABLE IF NOT EXISTS orders (\n"
                   " `user` BIGINT NOT NULl,\n"
                   " product VARCHAR(32) COMMENT 'the product',\n"
                   " amount DECIMAL(10, 2),\n"
                   " ts TIMESTAMP(3),\n"
                   " ptime AS PROCTIME(),\n"
                   " `offset` BIGINT METADATA VIRTUAL,\n"
                   " kts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',\n"
                   " PRIMARY KEY(`user`) NOT ENFORCED,\n"
                   " WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS\n"
                   ") COMMENT 'orders' PARTITIONED BY (product) with (\n"
                   " 'connector' = 'datagen', 'rows-per-second' = '5'\n"
                   ");");
    CHECK(s != NULL);
    if (!s) return;
    CHECK_INT(s->kind, AS_CREATE_TABLE);
    CHECK(s->if_not_exists);
    CHECK(!s->temporary);
    CHECK_INT(s->ncols, 7);
    CHECK_STR(s->cols[0].name, "user");
    CHECK(s->cols[0].type->not_null);
    CHECK_INT(s->cols[0].type->kind, AT_BIGINT);
    CHECK_STR(s->cols[1].comment, "the product");
    CHECK_INT(s->cols[2].type->precision, 10);
    CHECK_INT(s->cols[2].type->scale, 2);
    CHECK(s->cols[4].type == NULL);
    CHECK_STR(wsql_dump_expr(arena(), s->cols[4].computed), "PROCTIME()");
    CHECK(s->cols[5].metadata && s->cols[5].is_virtual && !s->cols[5].metadata_key);
    CHECK_STR(s->cols[6].metadata_key, "timestamp");
    CHECK_INT(s->npk, 1);
    CHECK_STR(s->pk_cols[0], "user");
    CHECK(!s->pk_enforced);
    CHECK_STR(s->wm_column, "ts");
    CHECK_STR(wsql_dump_expr(arena(), s->wm_expr), "(- ts INTERVAL '1' SECOND)");
    CHECK_INT(s->wm_pos.line, 10);
    CHECK_STR(s->comment, "orders");
    CHECK_INT(s->npartitioned, 1);
    CHECK_INT(s->noptions, 2);
    CHECK_STR(s->options[1].key, "rows-per-second");
    CHECK_STR(s->options[1].value, "5");
    CHECK(s->sql[strlen(s->sql) - 1] == ')');
}

WTEST(parser_create_table_pk_enforced_and_column_pk)
{
    AstStmt *s = P("CREATE TEMPORARY TABLE t (a INT, PRIMARY KEY (a)) WITH ('connector' = 'x')");
    CHECK(s && s->temporary && s->npk == 1 && s->pk_enforced);
    AstStmt *c = P("CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED, b INT CONSTRAINT pk PRIMARY KEY)");
    CHECK(c != NULL);
    if (!c) return;
    CHECK(c->cols[0].primary_key && !c->cols[0].pk_enforced);
    CHECK(c->cols[1].primary_key && c->cols[1].pk_enforced);
    CHECK_INT(c->npk, 0);
}

WTEST(parser_create_table_like_and_ctas)
{
    AstStmt *s = P("CREATE TABLE t2 (x INT) WITH ('k' = 'v') LIKE cat.db.t1 (EXCLUDING ALL INCLUDING OPTIONS OVERWRITING WATERMARKS)");
    CHECK(s && s->like_table.n == 3);
    AstStmt *c = P("CREATE TABLE t3 WITH ('connector' = 'print') AS SELECT * FROM t1");
    CHECK(c && c->kind == AS_CREATE_TABLE && c->query && c->noptions == 1 && c->ncols == 0);
}

WTEST(parser_types)
{
    CHECK_STR(T("DECIMAL(10, 2) NOT NULL"), "DECIMAL(10, 2) NOT NULL");
    CHECK_STR(T("ARRAY<INT NOT NULL>"), "ARRAY<INT NOT NULL>");
    CHECK_STR(T("MAP<STRING, ARRAY<ROW<a INT, `b c` VARCHAR(3)>>>"), "MAP<STRING, ARRAY<ROW<a INT, b c VARCHAR(3)>>>");
    CHECK_STR(T("ROW(a INT, b STRING 'doc')"), "ROW<a INT, b STRING>");
    CHECK_STR(T("INT ARRAY"), "ARRAY<INT>");
    CHECK_STR(T("TIMESTAMP(3) WITH LOCAL TIME ZONE"), "TIMESTAMP_LTZ(3)");
    CHECK_STR(T("TIMESTAMP_LTZ(6)"), "TIMESTAMP_LTZ(6)");
    CHECK_STR(T("TIMESTAMP WITHOUT TIME ZONE"), "TIMESTAMP");
    CHECK_STR(T("CHAR VARYING(5)"), "VARCHAR(5)");
    CHECK_STR(T("DOUBLE PRECISION"), "DOUBLE");
    CHECK_STR(T("INTERVAL DAY(2) TO SECOND(3)"), "INTERVAL DAY(2) TO SECOND(3)");
    CHECK_STR(T("BYTES"), "BYTES");
    CHECK_STR(T("MULTISET<STRING>"), "MULTISET<STRING>");
    CHECK_STR(T("INTEGER"), "INT");
    CHECK_STR(T("BINARY(4)"), "BINARY(4)");
}

WTEST(parser_create_view)
{
    AstStmt *s = P("CREATE TEMPORARY VIEW IF NOT EXISTS v (a, b) COMMENT 'c' AS SELECT 1, 2");
    CHECK(s != NULL);
    if (!s) return;
    CHECK_INT(s->kind, AS_CREATE_VIEW);
    CHECK(s->temporary && s->if_not_exists);
    CHECK_INT(s->nview_cols, 2);
    CHECK_STR(s->comment, "c");
    CHECK(s->query != NULL);
}

WTEST(parser_drop)
{
    AstStmt *s = P("DROP TEMPORARY TABLE IF EXISTS db.t");
    CHECK(s && s->kind == AS_DROP_TABLE && s->temporary && s->if_exists && s->target.n == 2);
    AstStmt *v = P("drop view v");
    CHECK(v && v->kind == AS_DROP_VIEW && !v->if_exists);
    AstStmt *f = P("DROP TEMPORARY SYSTEM FUNCTION f");
    CHECK(f && f->kind == AS_DROP_FUNCTION && f->temporary && f->system_function && !f->if_exists);
    AstStmt *cf = P("DROP FUNCTION IF EXISTS db.f");
    CHECK(cf && cf->kind == AS_DROP_FUNCTION && !cf->temporary && cf->if_exists && cf->target.n == 2);
    AstStmt *d = P("DROP DATABASE IF EXISTS d CASCADE");
    CHECK(d && d->kind == AS_DROP_DATABASE && d->if_exists && d->cascade && d->target.n == 1);
    AstStmt *d2 = P("DROP DATABASE c.d RESTRICT");
    CHECK(d2 && d2->kind == AS_DROP_DATABASE && !d2->cascade && d2->target.n == 2);
    AstStmt *c = P("DROP CATALOG IF EXISTS c1");
    CHECK(c && c->kind == AS_DROP_CATALOG && c->if_exists);
    if (c) CHECK_STR(c->target.parts[0], "c1");
}

WTEST(parser_catalog_statements)
{
    AstStmt *s = P("ALTER CATALOG c SET ('default-database' = 'x')");
    CHECK(s && s->kind == AS_ALTER_CATALOG && s->alter_kind == AAL_SET_OPTIONS && s->noptions == 1);
    AstStmt *r = P("ALTER CATALOG c RESET ('a', 'b')");
    CHECK(r && r->kind == AS_ALTER_CATALOG && r->alter_kind == AAL_RESET_OPTIONS && r->noptions == 2);
    AstStmt *m = P("ALTER CATALOG c COMMENT 'hello'");
    CHECK(m && m->alter_kind == AAL_COMMENT);
    if (m) CHECK_STR(m->comment, "hello");
    AstStmt *d = P("ALTER DATABASE c.d SET ('k' = 'v')");
    CHECK(d && d->kind == AS_ALTER_DATABASE && d->target.n == 2 && d->noptions == 1);
    AstStmt *x = P("DESCRIBE CATALOG EXTENDED c");
    CHECK(x && x->kind == AS_DESCRIBE_CATALOG && x->extended);
    AstStmt *y = P("desc catalog c");
    CHECK(y && y->kind == AS_DESCRIBE_CATALOG && !y->extended);
    AstStmt *z = P("SHOW CREATE CATALOG c");
    CHECK(z && z->kind == AS_SHOW && z->show == ASH_CREATE_CATALOG);
    AstStmt *cd = P("CREATE DATABASE IF NOT EXISTS c.d COMMENT 'x' WITH ('k' = 'v')");
    CHECK(cd && cd->kind == AS_CREATE_DATABASE && cd->if_not_exists && cd->noptions == 1);
    /* SHOW TABLES / COLUMNS have no ILIKE in Flink's grammar */
    WError e;
    werr_clear(&e);
    CHECK(!wsql_parse_statement(arena(), "SHOW TABLES ILIKE 'a'", &e));
    werr_clear(&e);
    CHECK(!wsql_parse_statement(arena(), "SHOW COLUMNS FROM t ILIKE 'a'", &e));
}

WTEST(parser_alter_table)
{
    AstStmt *s = P("alter table non_exist rename to non_exist2");
    CHECK(s && s->kind == AS_ALTER_TABLE && s->alter_kind == AAL_RENAME);
    if (s) {
        CHECK_STR(s->target.parts[0], "non_exist");
        CHECK_STR(s->rename_to.parts[0], "non_exist2");
    }
    AstStmt *o = P("ALTER TABLE t SET ('k' = 'v')");
    CHECK(o && o->alter_kind == AAL_SET_OPTIONS && o->noptions == 1);
    AstStmt *r = P("ALTER TABLE t RESET ('k', 'j')");
    CHECK(r && r->alter_kind == AAL_RESET_OPTIONS && r->noptions == 2 && r->options[1].value == NULL);
    AstStmt *a = P("ALTER TABLE t ADD (c INT, d AS c + 1)");
    CHECK(a && a->kind == AS_ALTER_TABLE && a->alter_kind == AAL_ADD && a->ncols == 2);
    AstStmt *v = P("ALTER VIEW v AS SELECT 1 ");
    CHECK(v && v->kind == AS_ALTER_VIEW && v->alter_kind == AAL_VIEW_QUERY && v->query);
    if (v) CHECK_STR(v->query_sql, "SELECT 1");
    AstStmt *vr = P("ALTER VIEW c.d.v RENAME TO w");
    CHECK(vr && vr->kind == AS_ALTER_VIEW && vr->alter_kind == AAL_RENAME && vr->target.n == 3 && vr->rename_to.n == 1);
    AstStmt *cv = P("CREATE VIEW v COMMENT 'c' AS SELECT a FROM t /* x */ WHERE a > 1;");
    CHECK(cv && cv->kind == AS_CREATE_VIEW);
    if (cv) CHECK_STR(cv->query_sql, "SELECT a FROM t /* x */ WHERE a > 1");
    AstStmt *f = P("ALTER TABLE t ADD x BIGINT FIRST");
    CHECK(f && f->alter_kind == AAL_ADD && f->ncols == 1 && f->cols[0].first);
    AstStmt *af = P("ALTER TABLE t MODIFY (x BIGINT AFTER y, WATERMARK FOR ts AS ts)");
    CHECK(af && af->alter_kind == AAL_MODIFY && af->ncols == 1 && af->wm_column != NULL);
    if (af && af->ncols == 1) CHECK_STR(af->cols[0].after, "y");
    AstStmt *pk = P("ALTER TABLE t ADD PRIMARY KEY (a, b) NOT ENFORCED");
    CHECK(pk && pk->alter_kind == AAL_ADD && pk->npk == 2 && pk->ncols == 0);
    AstStmt *dc = P("ALTER TABLE t DROP (a, b)");
    CHECK(dc && dc->alter_kind == AAL_DROP_COLUMNS && dc->nview_cols == 2);
    AstStmt *dp = P("ALTER TABLE t DROP PRIMARY KEY");
    CHECK(dp && dp->alter_kind == AAL_DROP_PRIMARY_KEY);
    AstStmt *dw = P("ALTER TABLE t DROP WATERMARK");
    CHECK(dw && dw->alter_kind == AAL_DROP_WATERMARK);
    AstStmt *rc = P("ALTER TABLE t RENAME a TO b");
    CHECK(rc && rc->alter_kind == AAL_RENAME_COLUMN);
    if (rc) { CHECK_STR(rc->key, "a"); CHECK_STR(rc->value, "b"); }
}

WTEST(parser_show)
{
    struct { const char *sql; AstShowKind k; } cases[] = {
        {"SHOW TABLES", ASH_TABLES}, {"show views", ASH_VIEWS}, {"SHOW JOBS", ASH_JOBS},
        {"SHOW FUNCTIONS", ASH_FUNCTIONS}, {"SHOW USER FUNCTIONS", ASH_USER_FUNCTIONS},
        {"SHOW CATALOGS", ASH_CATALOGS}, {"SHOW DATABASES", ASH_DATABASES},
        {"SHOW CURRENT CATALOG", ASH_CURRENT_CATALOG}, {"SHOW CURRENT DATABASE", ASH_CURRENT_DATABASE},
        {"SHOW MODULES", ASH_MODULES}, {"SHOW FULL MODULES", ASH_FULL_MODULES}, {"SHOW JARS", ASH_JARS},
        {"SHOW CREATE TABLE t", ASH_CREATE_TABLE}, {"SHOW CREATE VIEW v", ASH_CREATE_VIEW},
        {"SHOW COLUMNS FROM t", ASH_COLUMNS}, {"SHOW COLUMNS IN t LIKE 'a%'", ASH_COLUMNS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        AstStmt *s = P(cases[i].sql);
        CHECK(s && s->kind == AS_SHOW && s->show == cases[i].k);
    }
    AstStmt *s = P("SHOW TABLES FROM cat.db NOT LIKE 'x%'");
    CHECK(s && s->target.n == 2 && s->not_like);
    if (s) CHECK_STR(s->like_pattern, "x%");
    AstStmt *c = P("SHOW CREATE TABLE cat.db.t");
    CHECK(c && c->target.n == 3);
    AstStmt *il = P("show catalogs ilike 'C%'");
    CHECK(il && il->ilike);
}

WTEST(parser_describe_use)
{
    AstStmt *d = P("DESCRIBE orders2");
    CHECK(d && d->kind == AS_DESCRIBE && d->target.n == 1);
    AstStmt *d2 = P("desc extended cat.db.orders");
    CHECK(d2 && d2->kind == AS_DESCRIBE && d2->target.n == 3);
    AstStmt *u = P("USE CATALOG my_cat");
    CHECK(u && u->kind == AS_USE && u->use_catalog);
    AstStmt *u2 = P("USE cat.db");
    CHECK(u2 && u2->kind == AS_USE && !u2->use_catalog && u2->target.n == 2);
    /* Flink 2.3 takes USE CATALOG as the catalog form (`USE catalog;` fails after CATALOG); a
       database named catalog is quoted */
    AstStmt *u3 = P("USE `catalog`");
    CHECK(u3 && u3->kind == AS_USE && !u3->use_catalog);
    WError err;
    werr_clear(&err);
    CHECK(wsql_parse_statement(arena(), "USE catalog", &err) == NULL);
    CHECK(strstr(err.msg, "Encountered \"<EOF>\" at line 1, column 11.") != NULL);
}

WTEST(parser_set_reset)
{
    AstStmt *s = P("SET 'sql-client.execution.result-mode' = 'tableau';");
    CHECK(s && s->kind == AS_SET);
    if (s) {
        CHECK_STR(s->key, "sql-client.execution.result-mode");
        CHECK_STR(s->value, "tableau");
    }
    AstStmt *all = P("SET");
    CHECK(all && all->kind == AS_SET && all->key == NULL);
    AstStmt *u = P("SET pipeline.name = 'test name'");
    CHECK(u && u->key && strcmp(u->key, "pipeline.name") == 0);
    AstStmt *t = P("SET table.exec.state.ttl = 1000");
    CHECK(t && t->key && strcmp(t->key, "table.exec.state.ttl") == 0 && strcmp(t->value, "1000") == 0);
    AstStmt *r = P("RESET 'execution.runtime-mode'");
    CHECK(r && r->kind == AS_RESET);
    if (r) CHECK_STR(r->key, "execution.runtime-mode");
    AstStmt *ra = P("reset;");
    CHECK(ra && ra->kind == AS_RESET && ra->key == NULL);
}

WTEST(parser_explain)
{
    AstStmt *s = P("EXPLAIN PLAN FOR SELECT * FROM t");
    CHECK(s && s->kind == AS_EXPLAIN && s->explain_plan_for && s->inner && s->inner->kind == AS_QUERY);
    AstStmt *d = P("EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE, JSON_EXECUTION_PLAN INSERT INTO s SELECT 1");
    CHECK(d && d->explain_details == (AX_ESTIMATED_COST | AX_CHANGELOG_MODE | AX_PLAN_ADVICE | AX_JSON_EXECUTION_PLAN));
    CHECK(d && d->inner && d->inner->kind == AS_INSERT);
    if (d && d->inner) CHECK_STR(d->inner->sql, "INSERT INTO s SELECT 1");
    AstStmt *ss = P("EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END");
    CHECK(ss && ss->inner && ss->inner->kind == AS_STATEMENT_SET && ss->inner->nstmts == 2);
    AstStmt *plain = P("EXPLAIN SELECT 1");
    CHECK(plain && plain->explain_details == 0 && !plain->explain_plan_for);
}

WTEST(parser_compile_execute_plan)
{
    AstStmt *c = P("COMPILE PLAN '/tmp/plan.json' IF NOT EXISTS FOR INSERT INTO s SELECT * FROM t");
    CHECK(c && c->kind == AS_COMPILE_PLAN && c->if_not_exists && c->inner && c->inner->kind == AS_INSERT);
    if (c) CHECK_STR(c->plan_file, "/tmp/plan.json");
    AstStmt *ce = P("COMPILE AND EXECUTE PLAN 'f.json' FOR STATEMENT SET BEGIN INSERT INTO a SELECT 1; END");
    CHECK(ce && ce->kind == AS_COMPILE_AND_EXECUTE && ce->inner->kind == AS_STATEMENT_SET);
    AstStmt *e = P("EXECUTE PLAN 'f.json'");
    CHECK(e && e->kind == AS_EXECUTE_PLAN);
    if (e) CHECK_STR(e->plan_file, "f.json");
    AstStmt *x = P("EXECUTE INSERT INTO a SELECT 1");
    CHECK(x && x->kind == AS_EXECUTE && x->inner->kind == AS_INSERT);
    AstStmt *xq = P("EXECUTE SELECT 1");
    CHECK(xq && xq->kind == AS_EXECUTE && xq->inner->kind == AS_QUERY);
}

WTEST(parser_statement_sets)
{
    AstStmt *s = P("EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO a SELECT * FROM s;\nINSERT INTO b SELECT CASE WHEN x THEN 1 END FROM s;\nEND;");
    CHECK(s && s->kind == AS_STATEMENT_SET && s->nstmts == 2);
    if (s && s->nstmts == 2) {
        CHECK_STR(s->stmts[0]->sql, "INSERT INTO a SELECT * FROM s");
        CHECK_INT(s->stmts[1]->pos.line, 4);
    }
    AstStmt *b = P("BEGIN STATEMENT SET;");
    CHECK(b && b->kind == AS_BEGIN_STATEMENT_SET);
    AstStmt *e = P("END");
    CHECK(e && e->kind == AS_END);
}

WTEST(parser_stop_job)
{
    AstStmt *s = P("STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT WITH DRAIN");
    CHECK(s && s->kind == AS_STOP_JOB && s->with_savepoint && s->with_drain);
    if (s) CHECK_STR(s->job_id, "228d70913eab60dda85c5e7f78b5782c");
    AstStmt *p = P("stop job 'x'");
    CHECK(p && !p->with_savepoint && !p->with_drain);
}

WTEST(parser_unsupported_kinds)
{
    AstStmt *f = P("CREATE TEMPORARY FUNCTION f AS 'com.example.F' LANGUAGE JAVA");
    CHECK(f && f->kind == AS_CREATE_FUNCTION && f->temporary);
    AstStmt *c = P("CREATE CATALOG c WITH ('type' = 'generic_in_memory')");
    CHECK(c && c->kind == AS_CREATE_CATALOG && c->noptions == 1);
    AstStmt *d = P("CREATE DATABASE IF NOT EXISTS d COMMENT 'x'");
    CHECK(d && d->kind == AS_CREATE_DATABASE && d->if_not_exists);
    AstStmt *j = P("ADD JAR '/tmp/x.jar'");
    CHECK(j && j->kind == AS_ADD_JAR);
    if (j) CHECK_STR(j->value, "/tmp/x.jar");
    AstStmt *rj = P("REMOVE JAR '/tmp/x.jar'");
    CHECK(rj && rj->kind == AS_REMOVE_JAR);
    if (rj) CHECK_STR(rj->value, "/tmp/x.jar");
    AstStmt *l = P("LOAD MODULE hive WITH ('hive-version' = '3.1')");
    CHECK(l && l->kind == AS_LOAD_MODULE && l->noptions == 1 && l->target.n == 1);
    if (l) CHECK_STR(l->target.parts[0], "hive");
    AstStmt *ul = P("UNLOAD MODULE core");
    CHECK(ul && ul->kind == AS_UNLOAD_MODULE);
    AstStmt *um = P("USE MODULES core, hive");
    CHECK(um && um->kind == AS_USE_MODULES && um->nnames == 2);
    if (um && um->nnames == 2) CHECK_STR(um->names[1], "hive");
    AstStmt *df = P("DESCRIBE FUNCTION EXTENDED `ABS`");
    CHECK(df && df->kind == AS_DESCRIBE_FUNCTION && df->extended && df->target.n == 1);
    AstStmt *dt = P("DESCRIBE `function`");
    CHECK(dt && dt->kind == AS_DESCRIBE && dt->target.n == 1);
}

WTEST(parser_client_commands)
{
    AstStmt *h = P("help;");
    CHECK(h && h->kind == AS_HELP);
    AstStmt *q = P("QUIT");
    CHECK(q && q->kind == AS_QUIT);
    AstStmt *x = P("exit;");
    CHECK(x && x->kind == AS_QUIT);
    AstStmt *c = P("Clear");
    CHECK(c && c->kind == AS_CLEAR);
}

/* ---------------- expressions ---------------- */

WTEST(parser_precedence_arith)
{
    CHECK_STR(E("1 + 2 * 3 - 4 / 5 % 6"), "(- (+ 1 (* 2 3)) (% (/ 4 5) 6))");
    CHECK_STR(E("-a * b"), "(* (- a) b)");
    CHECK_STR(E("a - -b"), "(- a (- b))");
    CHECK_STR(E("a - b - c"), "(- (- a b) c)");
    /* || binds like * in Calcite */
    CHECK_STR(E("a || b + c"), "(+ (|| a b) c)");
    CHECK_STR(E("a + b || c"), "(+ a (|| b c))");
}

WTEST(parser_precedence_logic)
{
    CHECK_STR(E("a OR b AND c"), "(OR a (AND b c))");
    CHECK_STR(E("NOT a AND b"), "(AND (NOT a) b)");
    CHECK_STR(E("NOT a = b"), "(NOT (= a b))");
    CHECK_STR(E("NOT a IS NULL"), "(NOT (IS NULL a))");
    CHECK_STR(E("a = b IS NULL"), "(IS NULL (= a b))");
    CHECK_STR(E("a = b AND c <> d OR e >= f"), "(OR (AND (= a b) (<> c d)) (>= e f))");
    CHECK_STR(E("a < b + 1"), "(< a (+ b 1))");
    CHECK_STR(E("a <> b"), "(<> a b)");
    CHECK_STR(E("a != b"), "(error)");   /* Flink's conformance refuses != (test_parser_errors.c) */
    CHECK_STR(E("a = b LIKE c"), "(= a (LIKE b c))");
    CHECK_STR(E("a BETWEEN 1 AND 2 AND b"), "(AND (BETWEEN a 1 2) b)");
    CHECK_STR(E("a BETWEEN b + 1 AND c * 2"), "(BETWEEN a (+ b 1) (* c 2))");
}

WTEST(parser_predicates)
{
    CHECK_STR(E("x NOT IN (1, 2, 3)"), "(NOT IN x 1 2 3)");
    CHECK_STR(E("x IN (SELECT a FROM t)"), "(IN x (SELECT a FROM t))");
    CHECK_STR(E("x NOT BETWEEN SYMMETRIC 1 AND 2"), "(NOT BETWEEN SYMMETRIC x 1 2)");
    CHECK_STR(E("x BETWEEN ASYMMETRIC 1 AND 2"), "(BETWEEN x 1 2)");
    CHECK_STR(E("s NOT LIKE 'a!%' ESCAPE '!'"), "(NOT LIKE s 'a!%' '!')");
    CHECK_STR(E("s SIMILAR TO 'x'"), "(SIMILAR s 'x')");
    CHECK_STR(E("s NOT SIMILAR TO 'x' ESCAPE 'y'"), "(NOT SIMILAR s 'x' 'y')");
    CHECK_STR(E("a IS NOT DISTINCT FROM b"), "(IS NOT DISTINCT FROM a b)");
    CHECK_STR(E("a IS TRUE OR b IS NOT FALSE OR c IS UNKNOWN"),
              "(OR (OR (IS TRUE a) (IS NOT FALSE b)) (IS UNKNOWN c))");
    CHECK_STR(E("NOT EXISTS (SELECT 1)"), "(NOT (EXISTS (SELECT 1)))");
    CHECK_STR(E("a = ANY (SELECT b FROM t)"), "(= ANY a (SELECT b FROM t))");
    CHECK_STR(E("a > ALL (SELECT b FROM t)"), "(> ALL a (SELECT b FROM t))");
    CHECK_STR(E("a < SOME (SELECT b FROM t)"), "(< ANY a (SELECT b FROM t))");
    CHECK_STR(E("(SELECT MAX(x) FROM t) + 1"), "(+ (SELECT MAX(x) FROM t) 1)");
}

WTEST(parser_case_cast)
{
    CHECK_STR(E("CASE WHEN a IS NULL THEN 'x' WHEN b THEN 'y' ELSE 'z' END"),
              "(CASE WHEN (IS NULL a) THEN 'x' WHEN b THEN 'y' ELSE 'z')");
    CHECK_STR(E("CASE a WHEN 1 THEN 2 END"), "(CASE a WHEN 1 THEN 2)");
    CHECK_STR(E("CAST(a AS DECIMAL(10,2))"), "CAST(a AS DECIMAL(10, 2))");
    CHECK_STR(E("TRY_CAST(s AS INT NOT NULL)"), "TRY_CAST(s AS INT NOT NULL)");
    CHECK_STR(E("CAST(m AS MAP<STRING, INT>)"), "CAST(m AS MAP<STRING, INT>)");
}

WTEST(parser_literals)
{
    CHECK_STR(E("'it''s'"), "'it''s'");
    CHECK_STR(E("'a'\n'b' 'c'"), "'abc'");
    CHECK_STR(E("U&'\\0041\\+000042x'"), "'ABx'");
    CHECK_STR(E("U&'!0041' UESCAPE '!'"), "'A'");
    CHECK_STR(E("X'0AfF'"), "X'0AfF'");
    CHECK_STR(E("N'abc'"), "'abc'");
    CHECK_STR(E("123"), "123");
    CHECK_STR(E("1.50"), "1.50");
    CHECK_STR(E(".5"), ".5");
    CHECK_STR(E("1e3"), "1e3");
    CHECK_STR(E("1.5E-2"), "1.5E-2");
    CHECK_STR(E("TRUE AND FALSE OR UNKNOWN IS NULL"), "(OR (AND TRUE FALSE) (IS NULL UNKNOWN))");
    CHECK_STR(E("NULL"), "NULL");
    CHECK_STR(E("DATE '2020-01-01'"), "DATE '2020-01-01'");
    CHECK_STR(E("TIME '10:00:00'"), "TIME '10:00:00'");
    CHECK_STR(E("TIMESTAMP '2020-01-01 10:00:00.123'"), "TIMESTAMP '2020-01-01 10:00:00.123'");
    CHECK_STR(E("TIMESTAMP_LTZ '2020-01-01 10:00:00'"), "TIMESTAMP_LTZ '2020-01-01 10:00:00'");
    WError e;
    werr_clear(&e);
    AstExpr *x = wsql_parse_expression(arena(), "123", &e);
    CHECK(x && x->kind == AE_LITERAL && x->lit == AL_INTEGER);
    x = wsql_parse_expression(arena(), "1e3", &e);
    CHECK(x && x->lit == AL_APPROX);
    x = wsql_parse_expression(arena(), "1.0", &e);
    CHECK(x && x->lit == AL_DECIMAL);
}

WTEST(parser_interval_literals)
{
    CHECK_STR(E("INTERVAL '5' SECOND"), "INTERVAL '5' SECOND");
    CHECK_STR(E("INTERVAL '1' SECONDS"), "INTERVAL '1' SECOND");
    CHECK_STR(E("INTERVAL '10' MINUTES"), "INTERVAL '10' MINUTE");
    CHECK_STR(E("INTERVAL '1 02:00' DAY TO MINUTE"), "INTERVAL '1 02:00' DAY TO MINUTE");
    CHECK_STR(E("INTERVAL '1-2' YEAR(3) TO MONTH"), "INTERVAL '1-2' YEAR(3) TO MONTH");
    CHECK_STR(E("INTERVAL '1.5' SECOND(2, 3)"), "INTERVAL '1.5' SECOND(2, 3)");
    CHECK_STR(E("INTERVAL '1:2.3' MINUTE TO SECOND(3)"), "INTERVAL '1:2.3' MINUTE TO SECOND(3)");
    CHECK_STR(E("INTERVAL -'1' DAY"), "INTERVAL -'1' DAY");
    CHECK_STR(E("INTERVAL '-1' DAY"), "INTERVAL '-1' DAY");
    WError e;
    werr_clear(&e);
    AstExpr *x = wsql_parse_expression(arena(), "INTERVAL '1 02:00:00.5' DAY(2) TO SECOND(3)", &e);
    CHECK(x && x->lit == AL_INTERVAL && x->iv_start == AU_DAY && x->iv_end == AU_SECOND && x->iv_precision == 2
          && x->iv_frac == 3);
}

WTEST(parser_constructors_and_access)
{
    CHECK_STR(E("ROW(1, 'a')"), "ROW(1, 'a')");
    CHECK_STR(E("(1, 2)"), "ROW(1, 2)");
    CHECK_STR(E("ARRAY[1, 2][1]"), "ARRAY[1, 2][1]");
    CHECK_STR(E("MAP['a', 1, 'b', 2]"), "MAP['a', 1, 'b', 2]");
    CHECK_STR(E("a[1][2]"), "a[1][2]");
    CHECK_STR(E("(r).f.g"), "((r).f).g");
    CHECK_STR(E("t.r.f"), "t.r.f");
    CHECK_STR(E("a['k'].f"), "(a['k']).f");
    CHECK_STR(E("f(x).y"), "(f(x)).y");
    CHECK_STR(E("?"), "?");
}

WTEST(parser_special_functions)
{
    CHECK_STR(E("TRIM(BOTH 'x' FROM s)"), "TRIM(T: 'BOTH', 'x', s)");
    CHECK_STR(E("TRIM(LEADING FROM s)"), "TRIM(T: 'LEADING', <none>, s)");
    CHECK_STR(E("TRIM(s)"), "TRIM(T: 'BOTH', <none>, s)");
    CHECK_STR(E("TRIM('a' FROM s)"), "TRIM(T: 'BOTH', 'a', s)");
    CHECK_STR(E("SUBSTRING(s FROM 2 FOR 3)"), "SUBSTRING(S: s, 2, 3)");
    CHECK_STR(E("SUBSTRING(s FROM 2)"), "SUBSTRING(S: s, 2)");
    CHECK_STR(E("SUBSTRING(s, 1, 2)"), "SUBSTRING(s, 1, 2)");
    CHECK_STR(E("POSITION('a' IN s)"), "POSITION(P: 'a', s)");
    CHECK_STR(E("OVERLAY(s PLACING 'x' FROM 1 FOR 2)"), "OVERLAY(O: s, 'x', 1, 2)");
    CHECK_STR(E("EXTRACT(YEAR FROM ts)"), "EXTRACT(E: YEAR, ts)");
    CHECK_STR(E("EXTRACT(DOW FROM ts)"), "EXTRACT(E: DOW, ts)");
    CHECK_STR(E("FLOOR(ts TO HOUR)"), "FLOOR(F: ts, HOUR)");
    CHECK_STR(E("CEIL(ts TO DAY)"), "CEIL(F: ts, DAY)");
    CHECK_STR(E("FLOOR(1.5)"), "FLOOR(1.5)");
    CHECK_STR(E("TIMESTAMPADD(MINUTE, 5, ts)"), "TIMESTAMPADD(MINUTE, 5, ts)");
    CHECK_STR(E("TIMESTAMPDIFF(SQL_TSI_SECOND, a, b)"), "TIMESTAMPDIFF(SECOND, a, b)");
    CHECK_STR(E("JSON_VALUE(j, '$.a' RETURNING INT)"), "JSON_VALUE(j, '$.a', CAST(NULL AS INT), 'NULL', NULL, 'NULL', NULL)");
    CHECK_STR(E("JSON_VALUE(j, 'lax $.a' DEFAULT 0 ON EMPTY ERROR ON ERROR)"),
              "JSON_VALUE(j, 'lax $.a', NULL, 'DEFAULT', 0, 'ERROR', NULL)");
    CHECK_STR(E("JSON_VALUE(j, '$.a' DEFAULT x ON ERROR)"), "JSON_VALUE(j, '$.a', NULL, 'NULL', NULL, 'DEFAULT', x)");
}

WTEST(parser_json_functions)
{
    CHECK_STR(E("JSON_OBJECT(KEY 'a' VALUE 1, 'b' VALUE c ABSENT ON NULL)"),
              "JSON_OBJECT(J: 'ABSENT_ON_NULL', 'a', 1, 'b', c)");
    CHECK_STR(E("JSON_OBJECT('k' : 1)"), "JSON_OBJECT(J: 'NULL_ON_NULL', 'k', 1)");
    CHECK_STR(E("JSON_ARRAY(1, 'x')"), "JSON_ARRAY(J: 'ABSENT_ON_NULL', 1, 'x')");
    CHECK_STR(E("JSON_ARRAYAGG(x ORDER BY y NULL ON NULL)"),
              "JSON_ARRAYAGG(J: 'NULL_ON_NULL', x) WITHIN GROUP (ORDER BY y)");
    CHECK_STR(E("JSON_OBJECTAGG(k VALUE v)"), "JSON_OBJECTAGG(J: 'NULL_ON_NULL', k, v)");
    CHECK_STR(E("s IS NOT JSON OBJECT"), "IS NOT JSON OBJECT(I: s)");
    CHECK_STR(E("s IS JSON"), "IS JSON VALUE(I: s)");
    CHECK_STR(E("JSON_QUERY(j, '$.a')"), "JSON_QUERY(j, '$.a', 'WITHOUT', 'NULL', 'NULL')");
    CHECK_STR(E("JSON_QUERY(j, '$.a' WITH CONDITIONAL ARRAY WRAPPER EMPTY OBJECT ON EMPTY EMPTY ARRAY ON ERROR)"),
              "JSON_QUERY(j, '$.a', 'CONDITIONAL', 'EMPTY OBJECT', 'EMPTY ARRAY')");
    CHECK_STR(E("JSON_EXISTS(j, '$.a' UNKNOWN ON ERROR)"), "JSON_EXISTS(j, '$.a', 'UNKNOWN')");
    CHECK_STR(E("JSON_EXISTS(j, '$.a')"), "JSON_EXISTS(j, '$.a')");
}

WTEST(parser_long_lists_are_linear)
{
    /* a 20000-element IN list and a 5000-term sum parse quickly (no quadratic copying) */
    size_t cap = 200000;
    char *sql = malloc(cap);
    strcpy(sql, "x IN (0");
    size_t len = strlen(sql);
    for (int i = 1; i < 20000; i++) len += (size_t)snprintf(sql + len, cap - len, ", %d", i);
    strcpy(sql + len, ")");
    WError e;
    werr_clear(&e);
    AstExpr *x = wsql_parse_expression(arena(), sql, &e);
    CHECK(x && x->kind == AE_IN && x->nargs == 20001);
    strcpy(sql, "0");
    len = 1;
    for (int i = 1; i < 5000; i++) len += (size_t)snprintf(sql + len, cap - len, " + %d", i);
    x = wsql_parse_expression(arena(), sql, &e);
    CHECK(x && x->kind == AE_BINARY);
    free(sql);
}

WTEST(parser_aggregates)
{
    CHECK_STR(E("COUNT(*)"), "COUNT(*)");
    CHECK_STR(E("COUNT(DISTINCT x)"), "COUNT(DISTINCT x)");
    CHECK_STR(E("SUM(ALL x)"), "SUM(x)");
    CHECK_STR(E("COUNT(*) FILTER (WHERE x > 1)"), "COUNT(*) FILTER ((> x 1))");
    CHECK_STR(E("LISTAGG(s, ',') WITHIN GROUP (ORDER BY s DESC)"), "LISTAGG(s, ',') WITHIN GROUP (ORDER BY s DESC)");
    CHECK_STR(E("my_cat.my_db.f(1)"), "my_cat.my_db.f(1)");
}

WTEST(parser_reserved_function_names)
{
    CHECK_STR(E("LEFT(s, 2) || RIGHT(s, 1)"), "(|| LEFT(s, 2) RIGHT(s, 1))");
    CHECK_STR(E("YEAR(ts) + MONTH(ts) + HOUR(ts)"), "(+ (+ YEAR(ts) MONTH(ts)) HOUR(ts))");
    CHECK_STR(E("CHAR_LENGTH(s) + MOD(a, 2) + POWER(2, 3)"), "(+ (+ CHAR_LENGTH(s) MOD(a, 2)) POWER(2, 3))");
    CHECK_STR(E("COALESCE(a, b)"), "COALESCE(a, b)");
    CHECK_STR(E("upper(s)"), "UPPER(s)");
}

WTEST(parser_niladic_time_functions)
{
    WError e;
    werr_clear(&e);
    AstExpr *x = wsql_parse_expression(arena(), "CURRENT_TIMESTAMP", &e);
    CHECK(x && x->kind == AE_FUNC && x->nargs == 0);
    if (x) CHECK_STR(x->name.parts[0], "CURRENT_TIMESTAMP");
    CHECK(x && x->special == 'N');
    x = wsql_parse_expression(arena(), "CURRENT_TIMESTAMP(3)", &e);
    CHECK(x && x->special == 0 && x->nargs == 1);
    x = wsql_parse_expression(arena(), "user", &e);
    CHECK(x && x->kind == AE_FUNC && x->special == 'N');
    CHECK_STR(E("LOCALTIMESTAMP"), "N: LOCALTIMESTAMP()");
    CHECK_STR(E("current_date"), "N: CURRENT_DATE()");
    CHECK_STR(E("CURRENT_TIME"), "N: CURRENT_TIME()");
    CHECK_STR(E("CURRENT_ROW_TIMESTAMP"), "N: CURRENT_ROW_TIMESTAMP()");
    CHECK_STR(E("CURRENT_ROW_TIMESTAMP()"), "CURRENT_ROW_TIMESTAMP()");
    CHECK_STR(E("`CURRENT_ROW_TIMESTAMP`"), "CURRENT_ROW_TIMESTAMP");   /* quoted: a column */
    CHECK_STR(E("PROCTIME()"), "PROCTIME()");
}

WTEST(parser_positions)
{
    AstStmt *s = P("SELECT a,\n  b + c\nFROM t");
    CHECK(s != NULL);
    if (!s) return;
    AstExpr *b = s->query->items[1].expr;
    CHECK_INT(b->pos.line, 2);
    CHECK_INT(b->pos.col, 3);     /* a node starts at its first token */
    CHECK_INT(b->args[0]->pos.line, 2);
    CHECK_INT(b->args[0]->pos.col, 3);
    CHECK_INT(s->query->from->pos.line, 3);
    CHECK_INT(s->query->from->pos.col, 6);
}

WTEST(parser_comments)
{
    CHECK_STR(Q("SELECT /* c1 */ a -- trailing\n FROM // slash comment\n t"), "(SELECT a FROM t)");
    CHECK_STR(Q("/* leading */ SELECT 1"), "(SELECT 1)");
}

/* ---------------- splitting ---------------- */

WTEST(parser_split_script)
{
    const char *script =
        "-- header comment\n"
        "SET 'a' = 'b';\n"
        "\n"
        "CREATE TABLE t (\n"
        "  s STRING -- a ; in a comment\n"
        ") WITH ('k' = 'v;w');\n"
        "SELECT `x;y` /* ; */ FROM t;\n"
        "  -- only a comment;\n"
        "SELECT 1";
    WSqlPiece *p = NULL;
    int n = wsql_split(arena(), script, &p);
    CHECK_INT(n, 4);
    if (n != 4) return;
    CHECK_INT(p[0].line, 1);      /* the leading comment belongs to the statement */
    CHECK(strncmp(p[0].text, "-- header comment\nSET 'a' = 'b'", (size_t)p[0].len) == 0);
    CHECK_INT(p[0].len, (int)strlen("-- header comment\nSET 'a' = 'b'"));
    CHECK(p[0].terminated);
    CHECK_INT(p[1].line, 4);
    CHECK(strncmp(p[1].text + p[1].len - 6, "'v;w')", 6) == 0);
    CHECK_INT(p[2].line, 7);
    CHECK_INT(p[3].line, 8);
    CHECK(!p[3].terminated);
    CHECK_INT(p[3].len, (int)strlen("-- only a comment;\nSELECT 1") - 0);
}

WTEST(parser_split_drops_blank_pieces)
{
    WSqlPiece *p = NULL;
    CHECK_INT(wsql_split(arena(), "  ;; -- x\n ; /* y */ ;\n", &p), 0);
    CHECK_INT(wsql_split(arena(), "", &p), 0);
}

WTEST(parser_split_statement_set_block)
{
    const char *script =
        "EXECUTE STATEMENT SET\n"
        "BEGIN\n"
        "INSERT INTO a SELECT CASE WHEN x THEN 1 END FROM s;\n"
        "INSERT INTO b SELECT 2;\n"
        "END;\n"
        "BEGIN STATEMENT SET;\n"
        "INSERT INTO a SELECT 1;\n"
        "END;\n";
    WSqlPiece *p = NULL;
    int n = wsql_split(arena(), script, &p);
    CHECK_INT(n, 4);
    if (n < 1) return;
    WError e;
    werr_clear(&e);
    AstStmt *s = wsql_parse_statement(arena(), wa_strndup(arena(), p[0].text, (size_t)p[0].len), &e);
    CHECK(s && s->kind == AS_STATEMENT_SET && s->nstmts == 2);
    if (n == 4) {
        CHECK_INT(p[1].line, 6);
        CHECK_INT(p[3].line, 8);
    }
}

WTEST(parser_split_unterminated_comment_keeps_text)
{
    /* the conformance case: the piece keeps its ';' (inside the comment), the lexer fails at col 11 */
    WSqlPiece *p = NULL;
    int n = wsql_split(arena(), "SELECT /*;\n", &p);
    CHECK_INT(n, 1);
    if (n != 1) return;
    CHECK(!p[0].terminated);
    char *t = wa_strndup(arena(), p[0].text, (size_t)p[0].len);
    CHECK_STR(t, "SELECT /*;");
    WError e;
    werr_clear(&e);
    CHECK(wsql_parse_statement(arena(), t, &e) == NULL);
    CHECK_STR(e.msg, "Lexical error at line 1, column 11.  Encountered: <EOF> after : \"\"");
}

WTEST(parser_is_complete)
{
    CHECK(wsql_is_complete("SELECT 1;"));
    CHECK(!wsql_is_complete("SELECT 1;  -- done\n"));   /* Flink: the text itself must end with ; */
    CHECK(!wsql_is_complete("SELECT 1"));
    /* Flink 2.3's client keeps reading while the text ends inside a string, a `name`, a comment
       or a hint (SqlClientParserState), even when the line ends with ';' */
    CHECK(!wsql_is_complete("SELECT ';"));
    CHECK(!wsql_is_complete("SELECT 'it''s;"));
    CHECK(wsql_is_complete("SELECT 'it''s;';"));
    CHECK(!wsql_is_complete("SELECT 'abc;\ndef;"));
    CHECK(wsql_is_complete("SELECT 'abc;\ndef';"));
    CHECK(!wsql_is_complete("SELECT 1 AS `a;"));
    CHECK(wsql_is_complete("SELECT 1 AS `a;\n`;"));
    CHECK(!wsql_is_complete("SELECT /*;"));
    CHECK(!wsql_is_complete("SELECT /*+ OPTIONS('a'='b') ;"));
    CHECK(!wsql_is_complete("SELECT /*+ hint\n;"));
    CHECK(wsql_is_complete("SELECT /*+ hint\n;\n*/ 3;"));
    CHECK(wsql_is_complete("SELECT 1 /* a */ /* b */;"));
    CHECK(!wsql_is_complete("-- only a comment;"));
    CHECK(wsql_is_complete("-- a comment\nSELECT 1;"));
    CHECK(!wsql_is_complete("SELECT 1; -- done"));
    CHECK(!wsql_is_complete("SELECT 1 /* ; */"));
    CHECK(!wsql_is_complete("SELECT 1 /* ; "));
    /* a lexical error outside those states ends the input so that it is reported */
    CHECK(wsql_is_complete("SELECT 1 \x01;"));
    CHECK(!wsql_is_complete("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT CASE WHEN x THEN 1 END;"));
    CHECK(!wsql_is_complete("SELECT 1 -- ;"));
    CHECK(!wsql_is_complete(""));
    CHECK(!wsql_is_complete("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;"));
    CHECK(wsql_is_complete("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END;"));
    CHECK(wsql_is_complete("SELECT 1; SELECT 2;"));
    CHECK(!wsql_is_complete("SELECT 1; SELECT 2"));
}

WTEST(parser_stmt_sql_text)
{
    CHECK_STR(S("DROP VIEW IF EXISTS v;"), "[DROP VIEW v]");
    AstStmt *s = P("\n  SELECT 'a;' FROM t  ; \n");
    CHECK(s != NULL);
    if (s) CHECK_STR(s->sql, "SELECT 'a;' FROM t");
    AstStmt *s2 = P("SELECT 1 -- c");
    CHECK(s2 != NULL);
    if (s2) CHECK_STR(s2->sql, "SELECT 1 -- c");
}
