/*
 * ast_dump.c — syntax trees to a compact text form; see ast_dump.h.
 *
 * Contract: pure function of the tree; recursion follows the tree (whose depth the parser bounds).
 * Depends on ast_dump.h, common/strbuf.h.
 */
#include "ast_dump.h"

#include <string.h>

#include "../common/strbuf.h"

static void expr(WStrBuf *b, const AstExpr *e);
static void query(WStrBuf *b, const AstQuery *q);
static void from(WStrBuf *b, const AstFrom *f);
static void type(WStrBuf *b, const AstType *t);

static const char *UNIT_NAMES[] = {
    "NONE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND",
    "MICROSECOND", "NANOSECOND", "DOW", "DOY", "EPOCH", "DECADE", "CENTURY", "MILLENNIUM", "ISODOW",
    "ISOYEAR",
};

static const char *unit_name(int u)
{
    return u >= 0 && u < (int)(sizeof UNIT_NAMES / sizeof UNIT_NAMES[0]) ? UNIT_NAMES[u] : "?";
}

static void name(WStrBuf *b, const AstName *n)
{
    for (int i = 0; i < n->n; i++) {
        if (i) wsb_putc(b, '.');
        wsb_append(b, n->parts[i]);
    }
}

static void quoted(WStrBuf *b, const char *s)
{
    wsb_putc(b, '\'');
    for (const char *c = s ? s : ""; *c; c++) {
        if (*c == '\'') wsb_putc(b, '\'');
        wsb_putc(b, *c);
    }
    wsb_putc(b, '\'');
}

static void qualifier(WStrBuf *b, int start, int end, int prec, int frac)
{
    wsb_append(b, unit_name(start));
    if (prec >= 0) {
        if (start == AU_SECOND && end == AU_NONE && frac >= 0) wsb_printf(b, "(%d, %d)", prec, frac);
        else wsb_printf(b, "(%d)", prec);
    }
    if (end != AU_NONE) {
        wsb_printf(b, " TO %s", unit_name(end));
        if (frac >= 0) wsb_printf(b, "(%d)", frac);
    }
}

static const char *op_name(AstOp op)
{
    switch (op) {
    case AO_PLUS: return "+";
    case AO_MINUS: return "-";
    case AO_MUL: return "*";
    case AO_DIV: return "/";
    case AO_MOD: return "%";
    case AO_CONCAT: return "||";
    case AO_EQ: return "=";
    case AO_NE: return "<>";
    case AO_LT: return "<";
    case AO_LE: return "<=";
    case AO_GT: return ">";
    case AO_GE: return ">=";
    case AO_AND: return "AND";
    case AO_OR: return "OR";
    case AO_NEG: return "-";
    case AO_POS: return "+";
    case AO_NOT: return "NOT";
    default: return "?";
    }
}

static void args(WStrBuf *b, const AstExpr *e, int from_i, const char *sep)
{
    for (int i = from_i; i < e->nargs; i++) {
        if (i > from_i) wsb_append(b, sep);
        if (e->args[i]) expr(b, e->args[i]);
        else wsb_append(b, "<none>");
    }
}

static void order_items(WStrBuf *b, const AstOrderItem *o, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) wsb_append(b, ", ");
        expr(b, o[i].expr);
        if (o[i].desc) wsb_append(b, " DESC");
        if (o[i].nulls == 1) wsb_append(b, " NULLS FIRST");
        if (o[i].nulls == 2) wsb_append(b, " NULLS LAST");
    }
}

static void bound(WStrBuf *b, AstBoundKind k, const AstExpr *x)
{
    switch (k) {
    case AB_UNBOUNDED_PRECEDING: wsb_append(b, "UNBOUNDED PRECEDING"); break;
    case AB_UNBOUNDED_FOLLOWING: wsb_append(b, "UNBOUNDED FOLLOWING"); break;
    case AB_CURRENT_ROW: wsb_append(b, "CURRENT ROW"); break;
    case AB_PRECEDING: expr(b, x); wsb_append(b, " PRECEDING"); break;
    case AB_FOLLOWING: expr(b, x); wsb_append(b, " FOLLOWING"); break;
    default: break;
    }
}

static void over(WStrBuf *b, const AstOver *o)
{
    bool sp = false;
    wsb_putc(b, '(');
    if (o->ref_name) { wsb_append(b, o->ref_name); sp = true; }
    if (o->npartition) {
        if (sp) wsb_putc(b, ' ');
        wsb_append(b, "PARTITION BY ");
        for (int i = 0; i < o->npartition; i++) {
            if (i) wsb_append(b, ", ");
            expr(b, o->partition[i]);
        }
        sp = true;
    }
    if (o->norder) {
        if (sp) wsb_putc(b, ' ');
        wsb_append(b, "ORDER BY ");
        order_items(b, o->order, o->norder);
        sp = true;
    }
    if (o->frame != AF_NONE) {
        if (sp) wsb_putc(b, ' ');
        wsb_append(b, o->frame == AF_ROWS ? "ROWS " : "RANGE ");
        if (o->end_kind != AB_NONE) {
            wsb_append(b, "BETWEEN ");
            bound(b, o->start_kind, o->start_expr);
            wsb_append(b, " AND ");
            bound(b, o->end_kind, o->end_expr);
        } else {
            bound(b, o->start_kind, o->start_expr);
        }
    }
    wsb_putc(b, ')');
}

static void literal(WStrBuf *b, const AstExpr *e)
{
    switch (e->lit) {
    case AL_NULL: wsb_append(b, "NULL"); break;
    case AL_TRUE: wsb_append(b, "TRUE"); break;
    case AL_FALSE: wsb_append(b, "FALSE"); break;
    case AL_UNKNOWN: wsb_append(b, "UNKNOWN"); break;
    case AL_INTEGER: case AL_DECIMAL: case AL_APPROX: wsb_append(b, e->text); break;
    case AL_STRING: quoted(b, e->text); break;
    case AL_BINARY: wsb_append(b, "X"); quoted(b, e->text); break;
    case AL_DATE: wsb_append(b, "DATE "); quoted(b, e->text); break;
    case AL_TIME: wsb_append(b, "TIME "); quoted(b, e->text); break;
    case AL_TIMESTAMP: wsb_append(b, "TIMESTAMP "); quoted(b, e->text); break;
    case AL_TIMESTAMP_LTZ: wsb_append(b, "TIMESTAMP_LTZ "); quoted(b, e->text); break;
    case AL_INTERVAL:
        wsb_append(b, e->negative ? "INTERVAL -" : "INTERVAL ");
        quoted(b, e->text);
        wsb_putc(b, ' ');
        qualifier(b, e->iv_start, e->iv_end, e->iv_precision, e->iv_frac);
        break;
    }
}

static void expr(WStrBuf *b, const AstExpr *e)
{
    if (!e) { wsb_append(b, "<none>"); return; }
    switch (e->kind) {
    case AE_LITERAL: literal(b, e); break;
    case AE_COLUMN: name(b, &e->name); break;
    case AE_STAR:
        if (e->name.n) { name(b, &e->name); wsb_append(b, ".*"); }
        else wsb_putc(b, '*');
        break;
    case AE_PARAM: wsb_putc(b, '?'); break;
    case AE_UNARY:
    case AE_BINARY:
        wsb_printf(b, "(%s ", op_name(e->op));
        args(b, e, 0, " ");
        wsb_putc(b, ')');
        break;
    case AE_FUNC:
        if (e->negated) wsb_append(b, "NOT ");
        if (e->special == 'N') wsb_append(b, "N: ");
        name(b, &e->name);
        wsb_putc(b, '(');
        if (e->star_arg) wsb_putc(b, '*');
        if (e->distinct) wsb_append(b, "DISTINCT ");
        if (e->special && e->special != 'N') wsb_printf(b, "%c: ", e->special);
        args(b, e, 0, ", ");
        if (e->type) { wsb_append(b, " RETURNING "); type(b, e->type); }
        wsb_putc(b, ')');
        if (e->nwithin) { wsb_append(b, " WITHIN GROUP (ORDER BY "); order_items(b, e->within, e->nwithin); wsb_putc(b, ')'); }
        if (e->filter) { wsb_append(b, " FILTER ("); expr(b, e->filter); wsb_putc(b, ')'); }
        if (e->over) { wsb_append(b, " OVER "); over(b, e->over); }
        break;
    case AE_CASE:
        wsb_append(b, "(CASE");
        if (e->case_operand) { wsb_putc(b, ' '); expr(b, e->case_operand); }
        for (int i = 0; i < e->nwhen; i++) {
            wsb_append(b, " WHEN ");
            expr(b, e->when[i]);
            wsb_append(b, " THEN ");
            expr(b, e->then[i]);
        }
        if (e->else_expr) { wsb_append(b, " ELSE "); expr(b, e->else_expr); }
        wsb_putc(b, ')');
        break;
    case AE_CAST:
        wsb_append(b, e->try_cast ? "TRY_CAST(" : "CAST(");
        args(b, e, 0, ", ");
        wsb_append(b, " AS ");
        type(b, e->type);
        wsb_putc(b, ')');
        break;
    case AE_IN:
        wsb_append(b, e->negated ? "(NOT IN " : "(IN ");
        args(b, e, 0, " ");
        if (e->subquery) { wsb_putc(b, ' '); query(b, e->subquery); }
        wsb_putc(b, ')');
        break;
    case AE_BETWEEN:
        wsb_printf(b, "(%sBETWEEN%s ", e->negated ? "NOT " : "", e->symmetric ? " SYMMETRIC" : "");
        args(b, e, 0, " ");
        wsb_putc(b, ')');
        break;
    case AE_LIKE:
        wsb_printf(b, "(%s%s ", e->negated ? "NOT " : "", e->similar ? "SIMILAR" : "LIKE");
        args(b, e, 0, " ");
        wsb_putc(b, ')');
        break;
    case AE_IS: {
        static const char *w[] = {"NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT FROM"};
        wsb_printf(b, "(IS %s%s ", e->negated ? "NOT " : "", w[e->is_what]);
        args(b, e, 0, " ");
        wsb_putc(b, ')');
        break;
    }
    case AE_EXISTS: wsb_append(b, "(EXISTS "); query(b, e->subquery); wsb_putc(b, ')'); break;
    case AE_SUBQUERY: query(b, e->subquery); break;
    case AE_QUANTIFIED:
        wsb_printf(b, "(%s %s ", op_name(e->cmp), e->all ? "ALL" : "ANY");
        args(b, e, 0, " ");
        if (e->subquery) { wsb_putc(b, ' '); query(b, e->subquery); }
        wsb_putc(b, ')');
        break;
    case AE_ROW: wsb_append(b, "ROW("); args(b, e, 0, ", "); wsb_putc(b, ')'); break;
    case AE_ARRAY: wsb_append(b, "ARRAY["); args(b, e, 0, ", "); wsb_putc(b, ']'); break;
    case AE_MAP: wsb_append(b, "MAP["); args(b, e, 0, ", "); wsb_putc(b, ']'); break;
    case AE_ITEM:
        expr(b, e->args[0]);
        wsb_putc(b, '[');
        expr(b, e->args[1]);
        wsb_putc(b, ']');
        break;
    case AE_FIELD:
        wsb_putc(b, '(');
        expr(b, e->args[0]);
        wsb_printf(b, ").%s", e->str);
        break;
    case AE_TIMEUNIT: wsb_append(b, unit_name(e->unit)); break;
    case AE_DESCRIPTOR: wsb_append(b, "DESCRIPTOR("); args(b, e, 0, ", "); wsb_putc(b, ')'); break;
    case AE_TABLE_ARG:
        wsb_append(b, "TABLE ");
        if (e->subquery) query(b, e->subquery);
        else name(b, &e->name);
        if (e->nargs) { wsb_append(b, " PARTITION BY "); args(b, e, 0, ", "); }
        if (e->nwithin) { wsb_append(b, " ORDER BY "); order_items(b, e->within, e->nwithin); }
        break;
    case AE_NAMED_ARG: wsb_printf(b, "%s => ", e->str); args(b, e, 0, ", "); break;
    case AE_INTERVAL_EXPR: wsb_append(b, "<interval-expr>"); break;
    case AE_SCOPE_REF: name(b, &e->name); break;
    }
}

static void type(WStrBuf *b, const AstType *t)
{
    static const char *names[] = {
        "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR",
        "VARCHAR", "STRING", "BINARY", "VARBINARY", "BYTES", "DATE", "TIME", "TIMESTAMP",
        "TIMESTAMP_LTZ", "INTERVAL", "ARRAY", "MAP", "MULTISET", "ROW", "NULL",
    };
    if (!t) { wsb_append(b, "<none>"); return; }
    wsb_append(b, names[t->kind]);
    switch (t->kind) {
    case AT_ARRAY: case AT_MULTISET: wsb_putc(b, '<'); type(b, t->elem); wsb_putc(b, '>'); break;
    case AT_MAP: wsb_putc(b, '<'); type(b, t->key); wsb_append(b, ", "); type(b, t->elem); wsb_putc(b, '>'); break;
    case AT_ROW:
        wsb_putc(b, '<');
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_append(b, ", ");
            wsb_printf(b, "%s ", t->field_names[i]);
            type(b, t->fields[i]);
        }
        wsb_putc(b, '>');
        break;
    case AT_INTERVAL:
        wsb_putc(b, ' ');
        qualifier(b, t->iv_start, t->iv_end, t->iv_precision, t->iv_frac);
        break;
    default:
        if (t->has_precision && t->has_scale) wsb_printf(b, "(%d, %d)", t->precision, t->scale);
        else if (t->has_precision) wsb_printf(b, "(%d)", t->precision);
    }
    if (t->not_null) wsb_append(b, " NOT NULL");
}

static void hints(WStrBuf *b, const AstHints *h)
{
    if (!h->n) return;
    wsb_append(b, "/*+ ");
    for (int i = 0; i < h->n; i++) {
        const AstHint *x = &h->items[i];
        if (i) wsb_append(b, ", ");
        wsb_append(b, x->name);
        if (x->nopts || x->kv) {
            wsb_putc(b, '(');
            for (int k = 0; k < x->nopts; k++) {
                if (k) wsb_append(b, ", ");
                if (x->opts[k].key) { quoted(b, x->opts[k].key); wsb_append(b, "="); }
                quoted(b, x->opts[k].value);
            }
            wsb_putc(b, ')');
        }
    }
    wsb_append(b, " */ ");
}

static void alias(WStrBuf *b, const AstFrom *f)
{
    if (!f->alias) return;
    wsb_printf(b, " AS %s", f->alias);
    if (f->ncol_aliases) {
        wsb_putc(b, '(');
        for (int i = 0; i < f->ncol_aliases; i++) {
            if (i) wsb_append(b, ", ");
            wsb_append(b, f->col_aliases[i]);
        }
        wsb_putc(b, ')');
    }
}

static void from(WStrBuf *b, const AstFrom *f)
{
    static const char *jt[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", ","};
    switch (f->kind) {
    case AFR_TABLE:
        name(b, &f->name);
        if (f->hints.n) { wsb_putc(b, ' '); hints(b, &f->hints); b->len--; b->buf[b->len] = 0; }
        if (f->system_time) { wsb_append(b, " FOR SYSTEM_TIME AS OF "); expr(b, f->system_time); }
        break;
    case AFR_SUBQUERY: query(b, f->subquery); break;
    case AFR_JOIN:
        wsb_printf(b, "(%s%s ", f->natural ? "NATURAL " : "", jt[f->join_type]);
        from(b, f->left);
        wsb_putc(b, ' ');
        from(b, f->right);
        if (f->on) { wsb_append(b, " ON "); expr(b, f->on); }
        if (f->nusing) {
            wsb_append(b, " USING(");
            for (int i = 0; i < f->nusing; i++) {
                if (i) wsb_append(b, ", ");
                wsb_append(b, f->using_cols[i]);
            }
            wsb_putc(b, ')');
        }
        wsb_putc(b, ')');
        return;
    case AFR_TVF: wsb_append(b, "TABLE("); expr(b, f->call); wsb_putc(b, ')'); break;
    case AFR_UNNEST:
        wsb_append(b, "UNNEST(");
        expr(b, f->call);
        wsb_putc(b, ')');
        if (f->with_ordinality) wsb_append(b, " WITH ORDINALITY");
        break;
    case AFR_LATERAL: wsb_append(b, "LATERAL TABLE("); expr(b, f->call); wsb_putc(b, ')'); break;
    case AFR_MATCH: from(b, f->left); wsb_append(b, " MATCH_RECOGNIZE (...)"); break;
    }
    alias(b, f);
}

static void group(WStrBuf *b, const AstGroupItem *g)
{
    static const char *k[] = {"", "GROUPING SETS", "ROLLUP", "CUBE"};
    if (g->kind == AG_EXPR) { expr(b, g->expr); return; }
    wsb_printf(b, "%s(", k[g->kind]);
    for (int i = 0; i < g->nsets; i++) {
        if (i) wsb_append(b, ", ");
        wsb_putc(b, '(');
        for (int j = 0; j < g->set_sizes[i]; j++) {
            if (j) wsb_append(b, ", ");
            expr(b, g->sets[i][j]);
        }
        wsb_putc(b, ')');
    }
    wsb_putc(b, ')');
}

static void query(WStrBuf *b, const AstQuery *q)
{
    static const char *so[] = {"UNION", "INTERSECT", "EXCEPT"};
    if (!q) { wsb_append(b, "<none>"); return; }
    wsb_putc(b, '(');
    if (q->nctes) {
        wsb_append(b, "WITH ");
        for (int i = 0; i < q->nctes; i++) {
            if (i) wsb_append(b, ", ");
            wsb_append(b, q->ctes[i].name);
            if (q->ctes[i].ncols) {
                wsb_putc(b, '(');
                for (int k = 0; k < q->ctes[i].ncols; k++) {
                    if (k) wsb_append(b, ", ");
                    wsb_append(b, q->ctes[i].cols[k]);
                }
                wsb_putc(b, ')');
            }
            wsb_append(b, " AS ");
            query(b, q->ctes[i].query);
        }
        wsb_putc(b, ' ');
    }
    switch (q->kind) {
    case AQ_SELECT:
        wsb_append(b, "SELECT ");
        hints(b, &q->hints);
        if (q->distinct) wsb_append(b, "DISTINCT ");
        for (int i = 0; i < q->nitems; i++) {
            if (i) wsb_append(b, ", ");
            expr(b, q->items[i].expr);
            if (q->items[i].alias) wsb_printf(b, " AS %s", q->items[i].alias);
        }
        if (q->from) { wsb_append(b, " FROM "); from(b, q->from); }
        if (q->where) { wsb_append(b, " WHERE "); expr(b, q->where); }
        if (q->ngroup) {
            wsb_append(b, " GROUP BY ");
            for (int i = 0; i < q->ngroup; i++) {
                if (i) wsb_append(b, ", ");
                group(b, &q->group[i]);
            }
        }
        if (q->having) { wsb_append(b, " HAVING "); expr(b, q->having); }
        for (int i = 0; i < q->nwindows; i++) {
            wsb_printf(b, "%s%s AS ", i ? ", " : " WINDOW ", q->windows[i].name);
            over(b, q->windows[i].spec);
        }
        if (q->qualify) { wsb_append(b, " QUALIFY "); expr(b, q->qualify); }
        break;
    case AQ_SETOP:
        wsb_printf(b, "%s%s ", so[q->setop], q->all ? " ALL" : "");
        query(b, q->left);
        wsb_putc(b, ' ');
        query(b, q->right);
        break;
    case AQ_VALUES:
        wsb_append(b, "VALUES ");
        for (int i = 0; i < q->nrows; i++) {
            if (i) wsb_append(b, ", ");
            expr(b, q->rows[i]);
        }
        break;
    }
    if (q->norder) { wsb_append(b, " ORDER BY "); order_items(b, q->order, q->norder); }
    if (q->limit) { wsb_append(b, " LIMIT "); expr(b, q->limit); }
    if (q->offset) { wsb_append(b, " OFFSET "); expr(b, q->offset); }
    wsb_putc(b, ')');
}

static char *finish(WArena *a, WStrBuf *b)
{
    char *r = wa_strdup(a, b->buf ? b->buf : "");
    wsb_free(b);
    return r;
}

char *wsql_dump_expr(WArena *a, const AstExpr *e)
{
    WStrBuf b;
    wsb_init(&b);
    expr(&b, e);
    return finish(a, &b);
}

char *wsql_dump_type(WArena *a, const AstType *t)
{
    WStrBuf b;
    wsb_init(&b);
    type(&b, t);
    return finish(a, &b);
}

char *wsql_dump_query(WArena *a, const AstQuery *q)
{
    WStrBuf b;
    wsb_init(&b);
    query(&b, q);
    return finish(a, &b);
}

char *wsql_dump_from(WArena *a, const AstFrom *f)
{
    WStrBuf b;
    wsb_init(&b);
    from(&b, f);
    return finish(a, &b);
}

static void stmt(WStrBuf *b, const AstStmt *s)
{
    static const char *kinds[] = {
        "QUERY", "INSERT", "CREATE TABLE", "CREATE VIEW", "DROP TABLE", "DROP VIEW", "ALTER TABLE",
        "SHOW", "DESCRIBE", "SET", "RESET", "EXPLAIN", "COMPILE PLAN", "COMPILE AND EXECUTE PLAN",
        "EXECUTE PLAN", "BEGIN STATEMENT SET", "END", "STATEMENT SET", "EXECUTE", "STOP JOB", "USE",
        "CREATE FUNCTION", "CREATE CATALOG", "CREATE DATABASE", "DROP CATALOG", "DROP DATABASE",
        "ALTER CATALOG", "ALTER DATABASE", "DESCRIBE CATALOG", "ADD JAR", "REMOVE JAR", "ALTER VIEW",
        "LOAD MODULE", "UNLOAD MODULE", "USE MODULES", "DROP FUNCTION", "DESCRIBE FUNCTION", "HELP", "QUIT",
        "CLEAR", "OTHER",
    };
    wsb_printf(b, "[%s", (unsigned)s->kind < sizeof kinds / sizeof kinds[0] ? kinds[s->kind] : "?");
    if (s->kind == AS_OTHER && s->other) wsb_printf(b, " %s", s->other);
    if (s->target.n) { wsb_putc(b, ' '); name(b, &s->target); }
    if (s->target_hints.n) { wsb_putc(b, ' '); hints(b, &s->target_hints); b->len--; b->buf[b->len] = 0; }
    for (int i = 0; i < s->ncols; i++) {
        const AstColumnDef *c = &s->cols[i];
        wsb_printf(b, "%s%s", i ? ", " : " (", c->name);
        if (c->computed) { wsb_append(b, " AS "); expr(b, c->computed); }
        if (c->type) { wsb_putc(b, ' '); type(b, c->type); }
        if (c->metadata) {
            wsb_append(b, " METADATA");
            if (c->metadata_key) { wsb_append(b, " FROM "); quoted(b, c->metadata_key); }
            if (c->is_virtual) wsb_append(b, " VIRTUAL");
        }
        if (c->primary_key) wsb_append(b, c->pk_enforced ? " PRIMARY KEY" : " PRIMARY KEY NOT ENFORCED");
        if (c->comment) { wsb_append(b, " COMMENT "); quoted(b, c->comment); }
        if (i == s->ncols - 1) wsb_putc(b, ')');
    }
    if (s->wm_column) { wsb_printf(b, " WATERMARK FOR %s AS ", s->wm_column); expr(b, s->wm_expr); }
    if (s->npk) {
        wsb_append(b, " PRIMARY KEY(");
        for (int i = 0; i < s->npk; i++) wsb_printf(b, "%s%s", i ? ", " : "", s->pk_cols[i]);
        wsb_append(b, s->pk_enforced ? ")" : ") NOT ENFORCED");
    }
    if (s->npartitioned) {
        wsb_append(b, " PARTITIONED BY(");
        for (int i = 0; i < s->npartitioned; i++) wsb_printf(b, "%s%s", i ? ", " : "", s->partitioned_by[i]);
        wsb_putc(b, ')');
    }
    if (s->comment) { wsb_append(b, " COMMENT "); quoted(b, s->comment); }
    if (s->noptions) {
        wsb_append(b, " WITH(");
        for (int i = 0; i < s->noptions; i++) {
            if (i) wsb_append(b, ", ");
            quoted(b, s->options[i].key);
            if (s->options[i].value) { wsb_putc(b, '='); quoted(b, s->options[i].value); }
        }
        wsb_putc(b, ')');
    }
    if (s->like_table.n) { wsb_append(b, " LIKE "); name(b, &s->like_table); }
    if (s->key) { wsb_append(b, " key="); quoted(b, s->key); }
    if (s->value) { wsb_append(b, " value="); quoted(b, s->value); }
    if (s->query) { wsb_putc(b, ' '); query(b, s->query); }
    if (s->inner) { wsb_putc(b, ' '); stmt(b, s->inner); }
    for (int i = 0; i < s->nstmts; i++) { wsb_putc(b, ' '); stmt(b, s->stmts[i]); }
    wsb_putc(b, ']');
}

char *wsql_dump_stmt(WArena *a, const AstStmt *s)
{
    WStrBuf b;
    wsb_init(&b);
    stmt(&b, s);
    return finish(a, &b);
}
