/*
 * view_expand.c — SHOW CREATE VIEW in Flink's form: the view's identifier, its column list, its
 * comment, and its query as Flink stores it (Calcite's expanded SQL: every table by its full
 * identifier `catalog`.`database`.`table` AS `alias`, every column qualified by its table's alias,
 * `*` replaced by the columns with unique names, a simple CASE in its searched form, clauses on
 * lines of their own, Calcite's type names, operator spacing and parentheses). The expansion covers
 * SELECT [DISTINCT] over tables, views and aliased subqueries joined with [INNER | LEFT | RIGHT |
 * FULL] JOIN ... ON or commas, WHERE, GROUP BY, HAVING, ORDER BY output columns, LIMIT (FETCH
 * NEXT), OFFSET, UNION / INTERSECT / EXCEPT [ALL], scalar expressions, calls (also with OVER
 * (PARTITION BY ... ORDER BY ... [ROWS | RANGE BETWEEN ...])), CAST, CASE, [NOT] IN lists, BETWEEN,
 * LIKE, IS, intervals, subqueries in expressions ([NOT] IN, EXISTS, scalar; correlated columns
 * resolve in the enclosing queries), the window TVFs TUMBLE / HOP / CUMULATE over a table
 * (positional or named arguments), a SELECT without FROM (a constant row of a set operation), joins
 * with USING or NATURAL (Calcite's COALESCE of the common columns in `*`, select items and GROUP
 * BY); a view using another construct (a named window, ...) is refused with a message naming it
 * (docs/user-guide.md, differences).
 * See session_internal.h.
 */
#include "session_internal.h"
#include "../common/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SCOPE 16
#define MAX_COMMON 32

typedef struct ScopeItem {
    const char *alias;
    const WTable *t;            /* a table or view, else NULL */
    char *sub_sql;              /* a subquery: its expanded text (heap) */
    int ncols;
    char **cols;                /* column names (heap array; strings borrowed or heap for a subquery) */
    bool own_names;
    const AstFrom *from;        /* the FROM item (a window TVF's scope item is found by it) */
    char alias_buf[16];         /* the alias Calcite gives an unaliased window TVF: EXPR$n */
} ScopeItem;

typedef struct Expand {
    const struct Expand *outer; /* the query a subquery in an expression is part of (correlation) */
    WCatalog *c;
    const WTable *view;
    ScopeItem items[MAX_SCOPE];
    int n;
    const char *unsupported;    /* the first construct the expansion does not cover */
    /* joins with USING / NATURAL: each common column, the scope items of its two copies, and
       whether a select item or GROUP BY key may name it unqualified (USING, not NATURAL) */
    struct { const char *name; int l, r; bool named; } common[MAX_COMMON];
    int ncommon;
    bool in_select;             /* writing a select item or GROUP BY key */
    WStrBuf *o;
    int nout;                   /* the derived names of the last select list written */
    char **out;
} Expand;

static void query(Expand *x, const AstQuery *q);

static void expand_free(Expand *x)
{
    for (int i = 0; i < x->n; i++) {
        if (x->items[i].own_names)
            for (int k = 0; k < x->items[i].ncols; k++) free(x->items[i].cols[k]);
        free(x->items[i].cols);
        free(x->items[i].sub_sql);
    }
    for (int i = 0; i < x->nout; i++) free(x->out[i]);
    free(x->out);
    x->n = x->nout = 0;
    x->out = NULL;
}

static void no(Expand *x, const char *what)
{
    if (!x->unsupported) x->unsupported = what;
}

static void ident(WStrBuf *o, const char *s)
{
    wsb_putc(o, '`');
    for (; *s; s++) {
        if (*s == '`') wsb_putc(o, '`');
        wsb_putc(o, *s);
    }
    wsb_putc(o, '`');
}

static void string_lit(WStrBuf *o, const char *s)
{
    wsb_putc(o, '\'');
    for (; *s; s++) {
        if (*s == '\'') wsb_putc(o, '\'');
        wsb_putc(o, *s);
    }
    wsb_putc(o, '\'');
}

/* ---- scope: the FROM items and their columns ---- */

static int column_index(const ScopeItem *s, const char *name)
{
    for (int i = 0; i < s->ncols; i++)
        if (strcmp(s->cols[i], name) == 0) return i;
    return -1;
}

/* the table or view `name` designates, when the scope has room for one more item; else NULL with
   the reason noted */
static WTable *scope_table(Expand *x, const AstName *name)
{
    if (x->n == MAX_SCOPE) {
        no(x, "more than 16 tables");
        return NULL;
    }
    WTable *t = wcatalog_lookup(x->c, name);
    if (!t) no(x, "a table that no longer exists");
    return t;
}

/* `catalog`.`database`.`name` of a table or view */
static void full_name(WStrBuf *o, const WTable *t)
{
    ident(o, t->catalog);
    wsb_putc(o, '.');
    ident(o, t->database);
    wsb_putc(o, '.');
    ident(o, t->name);
}

/* the table a window TVF reads (its TABLE argument, positional or named DATA), or NULL */
static const AstExpr *tvf_table_arg(const AstExpr *call)
{
    for (int i = 0; i < call->nargs; i++) {
        const AstExpr *a = call->args[i];
        if (a->kind == AE_NAMED_ARG && a->nargs == 1) a = a->args[0];
        if (a->kind == AE_TABLE_ARG) return a;
    }
    return NULL;
}

static bool is_window_tvf(const AstExpr *call)
{
    if (!call || call->kind != AE_FUNC || call->name.n != 1) return false;
    const char *n = call->name.parts[0];
    return strcasecmp(n, "TUMBLE") == 0 || strcasecmp(n, "HOP") == 0 || strcasecmp(n, "CUMULATE") == 0;
}

/* TABLE(TUMBLE | HOP | CUMULATE (TABLE t, DESCRIPTOR(c), ...)): the table's columns and the window
   columns, under the alias written or Calcite's EXPR$n */
static bool add_window_tvf(Expand *x, const AstFrom *f)
{
    const AstExpr *targ = is_window_tvf(f->call) ? tvf_table_arg(f->call) : NULL;
    if (!targ || targ->nargs || targ->nwithin || targ->subquery || f->ncol_aliases) {
        no(x, "a table function other than TUMBLE, HOP or CUMULATE over a table");
        return false;
    }
    WTable *t = scope_table(x, &targ->name);
    if (!t) return false;
    static const char *const WIN[] = {"window_start", "window_end", "window_time"};
    ScopeItem *it = &x->items[x->n];
    *it = (ScopeItem){.t = NULL, .ncols = t->ncols + 3, .from = f};
    snprintf(it->alias_buf, sizeof it->alias_buf, "EXPR$%d", x->n);
    it->alias = f->alias ? f->alias : it->alias_buf;
    x->n++;
    it->cols = wcalloc((size_t)t->ncols + 4, sizeof(char *));
    for (int i = 0; i < t->ncols; i++) it->cols[i] = t->cols[i].name;
    for (int i = 0; i < 3; i++) it->cols[t->ncols + i] = (char *)WIN[i];
    return true;
}

/* the first scope item in [from, to) that has a column `col` */
static int item_with(const Expand *x, int from, int to, const char *col)
{
    for (int i = from; i < to; i++)
        if (column_index(&x->items[i], col) >= 0) return i;
    return -1;
}

/* A join with USING / NATURAL over the scope items [first, mid) and [mid, x->n): its common
   columns. A column common to more than two tables is not covered. */
static bool join_commons(Expand *x, const AstFrom *f, int first, int mid)
{
    if (!f->natural && !f->nusing) return true;
    int n = f->nusing;
    const char **names = wcalloc((size_t)(f->natural ? 0 : n) + 1, sizeof(char *));
    if (f->natural) {
        /* the left side's columns the right side has too, in the left side's order */
        for (int i = first; i < mid; i++)
            for (int c = 0; c < x->items[i].ncols; c++) {
                const char *col = x->items[i].cols[c];
                bool dup = false;
                for (int k = 0; k < n && !dup; k++) dup = strcmp(names[k], col) == 0;
                if (dup || item_with(x, mid, x->n, col) < 0) continue;
                names = wrealloc(names, sizeof(char *) * (size_t)(n + 2));
                names[n++] = col;
            }
    } else {
        for (int k = 0; k < n; k++) names[k] = f->using_cols[k];
    }
    for (int k = 0; k < n; k++) {
        bool seen = false;
        for (int j = 0; j < x->ncommon && !seen; j++) seen = strcmp(x->common[j].name, names[k]) == 0;
        if (seen || x->ncommon == MAX_COMMON) {
            no(x, seen ? "a USING / NATURAL column common to more than two tables" : "more than 32 USING columns");
            break;
        }
        int l = item_with(x, first, mid, names[k]), r = item_with(x, mid, x->n, names[k]);
        if (l < 0 || r < 0) { no(x, "a USING column of no table"); break; }
        x->common[x->ncommon].name = names[k];
        x->common[x->ncommon].l = l;
        x->common[x->ncommon].r = r;
        x->common[x->ncommon].named = !f->natural;
        x->ncommon++;
    }
    free(names);
    return !x->unsupported;
}

/* the common column an unqualified name in a select item or GROUP BY key designates, else -1 */
static int named_common(const Expand *x, const AstExpr *e)
{
    if (!x->in_select || e->kind != AE_COLUMN || e->name.n != 1) return -1;
    for (int j = 0; j < x->ncommon; j++)
        if (x->common[j].named && strcmp(x->common[j].name, e->name.parts[0]) == 0) return j;
    return -1;
}

static bool add_from(Expand *x, const AstFrom *f)
{
    if (f->kind == AFR_JOIN) {
        if (!f->natural && !f->nusing && !f->on && f->join_type != AJ_COMMA) {
            no(x, "a join without ON");
            return false;
        }
        int first = x->n;
        if (!add_from(x, f->left)) return false;
        int mid = x->n;
        if (!add_from(x, f->right)) return false;
        return join_commons(x, f, first, mid);
    }
    if (f->kind == AFR_SUBQUERY && f->alias && !f->ncol_aliases && x->n < MAX_SCOPE) {
        /* a subquery has a scope of its own: expanded apart, its derived names are its columns */
        WStrBuf sub;
        wsb_init(&sub);
        Expand y = {.c = x->c, .view = x->view, .o = &sub};
        query(&y, f->subquery);
        if (y.unsupported) no(x, y.unsupported);
        ScopeItem *it = &x->items[x->n++];
        *it = (ScopeItem){.alias = f->alias, .sub_sql = wsb_detach(&sub), .ncols = y.nout, .cols = y.out,
                          .own_names = true};
        if (!it->sub_sql) it->sub_sql = wstrdup("");
        y.out = NULL;
        y.nout = 0;
        expand_free(&y);
        return !x->unsupported;
    }
    if (f->kind == AFR_TVF) return add_window_tvf(x, f);
    if (f->kind != AFR_TABLE) {
        no(x, "a FROM item other than a table, a view or an aliased subquery");
        return false;
    }
    if (f->hints.n || f->system_time || f->ncol_aliases) {
        no(x, "a table with hints, FOR SYSTEM_TIME or column aliases");
        return false;
    }
    WTable *t = scope_table(x, &f->name);
    if (!t) return false;
    ScopeItem *it = &x->items[x->n++];
    *it = (ScopeItem){.alias = f->alias ? f->alias : f->name.parts[f->name.n - 1], .t = t, .ncols = t->ncols};
    it->cols = wcalloc((size_t)t->ncols + 1, sizeof(char *));
    for (int i = 0; i < t->ncols; i++) it->cols[i] = t->cols[i].name;
    return true;
}

/* the scope item a column reference designates (qualified by an alias, or the one table having it) */
static const ScopeItem *resolve(Expand *x, const AstName *name, const char **col)
{
    *col = name->parts[name->n - 1];
    /* the innermost query first, then the queries a subquery is part of (a correlated column) */
    for (const Expand *q = x; q && name->n <= 2; q = q->outer)
        for (int i = 0; i < q->n; i++) {
            if (name->n == 2 && strcmp(q->items[i].alias, name->parts[0]) != 0) continue;
            if (column_index(&q->items[i], *col) >= 0) return &q->items[i];
        }
    no(x, name->n > 2 ? "a column qualified by a table's full name" : "a column of no table in FROM");
    return NULL;
}

/* a subquery in an expression, expanded with its own scope inside this one's */
static void subquery(Expand *x, const AstQuery *q)
{
    Expand y = {.outer = x, .c = x->c, .view = x->view, .o = x->o};
    query(&y, q);
    if (y.unsupported) no(x, y.unsupported);
    expand_free(&y);
}

/* ---- expressions ---- */

/* Calcite's operator precedences (left binding power) */
static int prec(const AstExpr *e)
{
    switch (e->kind) {
    case AE_BINARY:
        switch (e->op) {
        case AO_OR: return 22;
        case AO_AND: return 24;
        case AO_EQ: case AO_NE: case AO_LT: case AO_LE: case AO_GT: case AO_GE: return 30;
        case AO_PLUS: case AO_MINUS: return 40;
        case AO_CONCAT: return 60;
        default: return 60;
        }
    case AE_UNARY: return e->op == AO_NOT ? 26 : 80;
    case AE_IN: case AE_BETWEEN: case AE_LIKE: return 32;
    case AE_IS: return 28;
    default: return 100;
    }
}

static void expr(Expand *x, const AstExpr *e);
static void list(Expand *x, AstExpr *const *args, int n);
static void over(Expand *x, const AstOver *w);

static void operand(Expand *x, const AstExpr *e, int min_prec)
{
    /* a USING column written as Calcite's `COALESCE(...) AS name` call binds loosest of all */
    bool paren = prec(e) < min_prec || named_common(x, e) >= 0;
    if (paren) wsb_putc(x->o, '(');
    expr(x, e);
    if (paren) wsb_putc(x->o, ')');
}

static const char *binop(AstOp op)
{
    switch (op) {
    case AO_PLUS: return "+"; case AO_MINUS: return "-"; case AO_MUL: return "*";
    case AO_DIV: return "/"; case AO_MOD: return "%"; case AO_CONCAT: return "||";
    case AO_EQ: return "="; case AO_NE: return "<>"; case AO_LT: return "<";
    case AO_LE: return "<="; case AO_GT: return ">"; case AO_GE: return ">=";
    case AO_AND: return "AND"; case AO_OR: return "OR";
    default: return NULL;
    }
}

static void type_name(Expand *x, const AstType *t)
{
    WStrBuf *o = x->o;
    switch (t->kind) {
    case AT_BOOLEAN: wsb_append(o, "BOOLEAN"); break;
    case AT_TINYINT: wsb_append(o, "TINYINT"); break;
    case AT_SMALLINT: wsb_append(o, "SMALLINT"); break;
    case AT_INT: wsb_append(o, "INTEGER"); break;
    case AT_BIGINT: wsb_append(o, "BIGINT"); break;
    case AT_FLOAT: wsb_append(o, "FLOAT"); break;
    case AT_DOUBLE: wsb_append(o, "DOUBLE"); break;
    case AT_DATE: wsb_append(o, "DATE"); break;
    case AT_DECIMAL:
        wsb_append(o, "DECIMAL");
        if (t->has_precision) wsb_printf(o, "(%d", t->precision);
        if (t->has_precision && t->has_scale) wsb_printf(o, ", %d", t->scale);
        if (t->has_precision) wsb_putc(o, ')');
        break;
    case AT_CHAR: case AT_VARCHAR: case AT_TIMESTAMP: case AT_TIME:
        wsb_append(o, t->kind == AT_CHAR ? "CHAR" : t->kind == AT_VARCHAR ? "VARCHAR"
                      : t->kind == AT_TIME ? "TIME" : "TIMESTAMP");
        if (t->has_precision) wsb_printf(o, "(%d)", t->precision);
        break;
    default:
        no(x, "a CAST to this type");
    }
    if (t->not_null) wsb_append(o, " NOT NULL");
}

static void literal(Expand *x, const AstExpr *e)
{
    WStrBuf *o = x->o;
    switch (e->lit) {
    case AL_NULL: wsb_append(o, "NULL"); break;
    case AL_TRUE: wsb_append(o, "TRUE"); break;
    case AL_FALSE: wsb_append(o, "FALSE"); break;
    case AL_INTEGER: case AL_DECIMAL: wsb_append(o, e->text); break;
    case AL_STRING: string_lit(o, e->text); break;
    case AL_DATE: wsb_append(o, "DATE "); string_lit(o, e->text); break;
    case AL_TIME: wsb_append(o, "TIME "); string_lit(o, e->text); break;
    case AL_TIMESTAMP: wsb_append(o, "TIMESTAMP "); string_lit(o, e->text); break;
    case AL_INTERVAL: {
        static const char *const UNIT[] = {"", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"};
        if (e->iv_end || e->iv_precision >= 0 || e->iv_frac >= 0 || e->iv_start < 1 || e->iv_start > 8) {
            no(x, "an interval literal of this form");
            break;
        }
        wsb_append(o, e->negative ? "INTERVAL -" : "INTERVAL ");
        string_lit(o, e->text);
        wsb_printf(o, " %s", UNIT[e->iv_start]);
        break;
    }
    default: no(x, "a literal of this kind");
    }
}

static void list(Expand *x, AstExpr *const *args, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) wsb_append(x->o, ", ");
        expr(x, args[i]);
    }
}

static void order_items(Expand *x, const AstOrderItem *items, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) wsb_append(x->o, ", ");
        expr(x, items[i].expr);
        if (items[i].desc) wsb_append(x->o, " DESC");
        if (items[i].nulls) wsb_append(x->o, items[i].nulls == 1 ? " NULLS FIRST" : " NULLS LAST");
    }
}

static bool frame_bound(Expand *x, AstBoundKind k, const AstExpr *e)
{
    WStrBuf *o = x->o;
    switch (k) {
    case AB_UNBOUNDED_PRECEDING: wsb_append(o, "UNBOUNDED PRECEDING"); return true;
    case AB_UNBOUNDED_FOLLOWING: wsb_append(o, "UNBOUNDED FOLLOWING"); return true;
    case AB_CURRENT_ROW: wsb_append(o, "CURRENT ROW"); return true;
    case AB_PRECEDING: case AB_FOLLOWING:
        if (!e) break;
        expr(x, e);
        wsb_append(o, k == AB_PRECEDING ? " PRECEDING" : " FOLLOWING");
        return true;
    default: break;
    }
    no(x, "this window frame");
    return false;
}

/* a window's specification in parentheses (after OVER, or in the WINDOW clause) */
static void window_spec(Expand *x, const AstOver *w)
{
    WStrBuf *o = x->o;
    wsb_putc(o, '(');
    if (w->npartition) {
        wsb_append(o, "PARTITION BY ");
        list(x, w->partition, w->npartition);
    }
    if (w->norder) {
        wsb_append(o, w->npartition ? " ORDER BY " : "ORDER BY ");
        order_items(x, w->order, w->norder);
    }
    if (w->frame != AF_NONE) {
        wsb_append(o, w->frame == AF_ROWS ? " ROWS BETWEEN " : " RANGE BETWEEN ");
        if (!frame_bound(x, w->start_kind, w->start_expr)) return;
        if (w->end_kind == AB_NONE) { no(x, "a window frame without BETWEEN"); return; }
        wsb_append(o, " AND ");
        if (!frame_bound(x, w->end_kind, w->end_expr)) return;
    }
    wsb_putc(o, ')');
}

static void over(Expand *x, const AstOver *w)
{
    if (w->ref_name) {
        /* OVER w names a window of the WINDOW clause; OVER (w ORDER BY ...) refines one */
        if (w->npartition || w->norder || w->frame != AF_NONE) { no(x, "a window refining a named window"); return; }
        wsb_append(x->o, " OVER ");
        ident(x->o, w->ref_name);
        return;
    }
    wsb_append(x->o, " OVER ");
    window_spec(x, w);
}

static void expr(Expand *x, const AstExpr *e)
{
    WStrBuf *o = x->o;
    switch (e->kind) {
    case AE_LITERAL: literal(x, e); return;
    case AE_COLUMN: {
        int k = named_common(x, e);
        if (k >= 0) {
            /* Calcite's expansion of a USING column: COALESCE of its two copies, AS its name */
            wsb_append(o, "COALESCE(");
            ident(o, x->items[x->common[k].l].alias);
            wsb_putc(o, '.');
            ident(o, x->common[k].name);
            wsb_append(o, ", ");
            ident(o, x->items[x->common[k].r].alias);
            wsb_putc(o, '.');
            ident(o, x->common[k].name);
            wsb_append(o, ") AS ");
            ident(o, x->common[k].name);
            return;
        }
        const char *col;
        const ScopeItem *s = resolve(x, &e->name, &col);
        if (!s) return;
        ident(o, s->alias);
        wsb_putc(o, '.');
        ident(o, col);
        return;
    }
    case AE_UNARY:
        if (e->op == AO_NOT) {
            wsb_append(o, "NOT ");
            operand(x, e->args[0], 26);
        } else {
            wsb_append(o, e->op == AO_NEG ? "- " : "+ ");
            operand(x, e->args[0], 80);
        }
        return;
    case AE_BINARY: {
        const char *op = binop(e->op);
        if (!op) { no(x, "this operator"); return; }
        int p = prec(e);
        operand(x, e->args[0], p);
        wsb_printf(o, " %s ", op);
        operand(x, e->args[1], p + 1);
        return;
    }
    case AE_FUNC:
        if ((e->special && e->special != 'N') || e->filter || e->nwithin || e->name.n != 1) {
            no(x, "this function call form");
            return;
        }
        for (const char *s = e->name.parts[0]; *s; s++)
            wsb_putc(o, (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) : *s);
        if (e->special == 'N') return;      /* CURRENT_TIMESTAMP and the like */
        wsb_putc(o, '(');
        if (e->distinct) wsb_append(o, "DISTINCT ");
        if (e->star_arg) wsb_putc(o, '*');
        list(x, e->args, e->nargs);
        wsb_putc(o, ')');
        if (e->over) over(x, e->over);
        return;
    case AE_CAST:
        wsb_append(o, e->try_cast ? "TRY_CAST(" : "CAST(");
        expr(x, e->args[0]);
        wsb_append(o, " AS ");
        type_name(x, e->type);
        wsb_putc(o, ')');
        return;
    case AE_CASE:
        /* Calcite's validator rewrites CASE x WHEN v into CASE WHEN x = v */
        wsb_append(o, "CASE");
        for (int i = 0; i < e->nwhen; i++) {
            wsb_append(o, " WHEN ");
            if (e->case_operand) {
                operand(x, e->case_operand, 30);
                wsb_append(o, " = ");
                operand(x, e->when[i], 31);
            } else {
                expr(x, e->when[i]);
            }
            wsb_append(o, " THEN ");
            expr(x, e->then[i]);
        }
        wsb_append(o, " ELSE ");
        if (e->else_expr) expr(x, e->else_expr);
        else wsb_append(o, "NULL");
        wsb_append(o, " END");
        return;
    case AE_IN:
        operand(x, e->args[0], 33);
        if (e->subquery) {
            wsb_append(o, e->negated ? " NOT IN (" : " IN (");
            subquery(x, e->subquery);
            wsb_putc(o, ')');
            return;
        }
        wsb_append(o, e->negated ? " NOT IN (" : " IN (");
        list(x, e->args + 1, e->nargs - 1);
        wsb_putc(o, ')');
        return;
    case AE_BETWEEN:
        if (e->symmetric) { no(x, "BETWEEN SYMMETRIC"); return; }
        operand(x, e->args[0], 33);
        wsb_append(o, e->negated ? " NOT BETWEEN ASYMMETRIC " : " BETWEEN ASYMMETRIC ");
        operand(x, e->args[1], 33);
        wsb_append(o, " AND ");
        operand(x, e->args[2], 33);
        return;
    case AE_LIKE:
        if (e->similar || e->nargs > 2) { no(x, "SIMILAR TO or LIKE ... ESCAPE"); return; }
        operand(x, e->args[0], 33);
        wsb_append(o, e->negated ? " NOT LIKE " : " LIKE ");
        operand(x, e->args[1], 33);
        return;
    case AE_IS: {
        static const char *const WHAT[] = {"NULL", "TRUE", "FALSE", "UNKNOWN"};
        if (e->nargs == 2) {
            operand(x, e->args[0], 29);
            wsb_append(o, e->negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
            operand(x, e->args[1], 29);
            return;
        }
        if (e->nargs != 1 || (int)e->is_what < 0 || (int)e->is_what > 3) { no(x, "this IS form"); return; }
        operand(x, e->args[0], 29);
        wsb_printf(o, " IS %s%s", e->negated ? "NOT " : "", WHAT[e->is_what]);
        return;
    }
    case AE_EXISTS:
        wsb_append(o, e->negated ? "NOT EXISTS (" : "EXISTS (");
        subquery(x, e->subquery);
        wsb_putc(o, ')');
        return;
    case AE_SUBQUERY:
        /* a scalar subquery: Calcite's unparse nests it in three pairs of parentheses */
        wsb_append(o, "(((");
        subquery(x, e->subquery);
        wsb_append(o, ")))");
        return;
    default:
        no(x, "this kind of expression");
    }
}

/* a window TVF's arguments: its table as Calcite expands it, DESCRIPTOR columns, intervals */
static void tvf_arg(Expand *x, const AstExpr *a)
{
    WStrBuf *o = x->o;
    if (a->kind == AE_NAMED_ARG) {
        ident(o, a->str);
        wsb_append(o, " => ");
        tvf_arg(x, a->args[0]);
        return;
    }
    if (a->kind == AE_TABLE_ARG) {
        WTable *t = wcatalog_lookup(x->c, &a->name);
        if (!t) { no(x, "a table that no longer exists"); return; }
        const char *alias = a->name.parts[a->name.n - 1];
        wsb_append(o, "(SELECT ");
        for (int i = 0; i < t->ncols; i++) {
            if (i) wsb_append(o, ", ");
            ident(o, alias);
            wsb_putc(o, '.');
            ident(o, t->cols[i].name);
        }
        wsb_append(o, "\nFROM ");
        full_name(o, t);
        wsb_append(o, " AS ");
        ident(o, alias);
        wsb_putc(o, ')');
        return;
    }
    if (a->kind == AE_DESCRIPTOR) {
        wsb_append(o, "DESCRIPTOR(");
        for (int i = 0; i < a->nargs; i++) {
            if (i) wsb_append(o, ", ");
            if (a->args[i]->kind != AE_COLUMN || a->args[i]->name.n != 1) { no(x, "this DESCRIPTOR"); return; }
            ident(o, a->args[i]->name.parts[0]);
        }
        wsb_putc(o, ')');
        return;
    }
    expr(x, a);
}

/* ---- the query ---- */

static void from_item(Expand *x, const AstFrom *f, bool first)
{
    WStrBuf *o = x->o;
    if (f->kind == AFR_JOIN) {
        from_item(x, f->left, first);
        if (f->join_type == AJ_COMMA) {
            wsb_append(o, ",\n");
            from_item(x, f->right, false);
            return;
        }
        static const char *const JOIN[] = {"INNER JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"};
        wsb_printf(o, "\n%s%s ", f->natural ? "NATURAL " : "", JOIN[f->join_type]);
        from_item(x, f->right, false);
        if (f->nusing) {
            wsb_append(o, " USING (");
            for (int k = 0; k < f->nusing; k++) {
                if (k) wsb_append(o, ", ");
                ident(o, f->using_cols[k]);
            }
            wsb_putc(o, ')');
        } else if (f->on) {
            wsb_append(o, " ON ");
            expr(x, f->on);
        }
        return;
    }
    if (f->kind == AFR_TVF) {
        for (int i = 0; i < x->n; i++) {
            if (x->items[i].from != f) continue;
            wsb_append(o, "TABLE(");
            for (const char *c = f->call->name.parts[0]; *c; c++)
                wsb_putc(o, (*c >= 'a' && *c <= 'z') ? (char)(*c - 32) : *c);
            wsb_putc(o, '(');
            for (int k = 0; k < f->call->nargs; k++) {
                if (k) wsb_append(o, ", ");
                tvf_arg(x, f->call->args[k]);
            }
            wsb_append(o, ")) AS ");
            ident(o, x->items[i].alias);
            return;
        }
        return;
    }
    if (f->kind == AFR_SUBQUERY) {
        for (int i = 0; i < x->n; i++) {
            if (!x->items[i].sub_sql || strcmp(x->items[i].alias, f->alias) != 0) continue;
            wsb_printf(o, "(%s) AS ", x->items[i].sub_sql);
            ident(o, f->alias);
            return;
        }
        return;
    }
    WTable *t = wcatalog_lookup(x->c, &f->name);
    if (!t) return;
    full_name(o, t);
    wsb_append(o, " AS ");
    ident(o, f->alias ? f->alias : f->name.parts[f->name.n - 1]);
}

typedef struct OutCol {
    const AstExpr *e;           /* NULL: a column of a star */
    const ScopeItem *s;         /* star column: its table */
    int col;                    /* star column: index */
    int common;                 /* star column over USING / NATURAL: 1 + its x->common entry (a
                                   COALESCE of the copies), 0 for a plain column */
    const char *base;           /* star column over USING / NATURAL: its name in the join's row */
    const char *alias;          /* written alias, else NULL */
    char *name;                 /* derived name (heap) */
} OutCol;

static bool same_name_used(OutCol *cols, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(cols[i].name, name) == 0) return true;
    return false;
}

/* Calcite's names of the FROM's columns in the join's row: a later copy of a name gets the first
   free suffix 0, 1, ... (uniq[i][c] for scope item i, column c; heap strings) */
static char ***join_row_names(const Expand *x)
{
    char ***uniq = wcalloc((size_t)x->n + 1, sizeof(char **));
    int total = 0;
    for (int i = 0; i < x->n; i++) total += x->items[i].ncols;
    char **all = wcalloc((size_t)total + 1, sizeof(char *));
    int m = 0;
    for (int i = 0; i < x->n; i++) {
        uniq[i] = wcalloc((size_t)x->items[i].ncols + 1, sizeof(char *));
        for (int c = 0; c < x->items[i].ncols; c++) {
            const char *base = x->items[i].cols[c];
            WStrBuf b;
            wsb_init(&b);
            wsb_append(&b, base);
            for (int k = 0;; k++) {
                bool used = false;
                for (int j = 0; j < m && !used; j++) used = strcmp(all[j], b.buf) == 0;
                if (!used) break;
                b.len = 0;
                wsb_printf(&b, "%s%d", base, k);
            }
            uniq[i][c] = all[m++] = wsb_detach(&b);
        }
    }
    free(all);
    return uniq;
}

/* the plain star column of item s named col, else -1 */
static int star_find(const OutCol *cols, int n, const ScopeItem *s, const char *col)
{
    for (int i = 0; i < n; i++)
        if (!cols[i].common && cols[i].col >= 0 && cols[i].s == s && strcmp(s->cols[cols[i].col], col) == 0) return i;
    return -1;
}

/* `*` over a FROM with USING / NATURAL joins, as Calcite expands it: per join, its common columns
   first (a COALESCE each), then the left side's other columns, then the right side's. *next is
   the next scope item (FROM items are scope items in order). */
static int star_over_joins(Expand *x, const AstFrom *f, int *next, OutCol *out, char ***uniq)
{
    if (f->kind != AFR_JOIN) {
        int it = (*next)++;
        for (int c = 0; c < x->items[it].ncols; c++)
            out[c] = (OutCol){.s = &x->items[it], .col = c, .base = uniq[it][c]};
        return x->items[it].ncols;
    }
    int cap = 0;
    for (int i = 0; i < x->n; i++) cap += x->items[i].ncols;
    OutCol *l = wcalloc((size_t)cap + 1, sizeof(OutCol)), *r = wcalloc((size_t)cap + 1, sizeof(OutCol));
    int nl = star_over_joins(x, f->left, next, l, uniq);
    int nr = star_over_joins(x, f->right, next, r, uniq);
    int n = 0;
    if (f->natural || f->nusing) {
        /* this join's common columns: those with their left copy on its left, right copy on its right */
        for (int j = 0; j < x->ncommon; j++) {
            int li = star_find(l, nl, &x->items[x->common[j].l], x->common[j].name);
            int ri = star_find(r, nr, &x->items[x->common[j].r], x->common[j].name);
            if (li < 0 || ri < 0) continue;
            out[n++] = (OutCol){.common = j + 1, .base = x->common[j].name};
            l[li].col = -1;     /* taken */
            r[ri].col = -1;
        }
    }
    for (int i = 0; i < nl; i++) if (l[i].col >= 0 || l[i].common) out[n++] = l[i];
    for (int i = 0; i < nr; i++) if (r[i].col >= 0 || r[i].common) out[n++] = r[i];
    free(l);
    free(r);
    return n;
}

static void qualified_column(Expand *x, int item, const char *col, char ***uniq)
{
    ident(x->o, x->items[item].alias);
    wsb_putc(x->o, '.');
    ident(x->o, col);
    const char *u = uniq[item][column_index(&x->items[item], col)];
    if (strcmp(u, col) != 0) {
        wsb_append(x->o, " AS ");
        ident(x->o, u);
    }
}

static void select_list(Expand *x, const AstQuery *q)
{
    int cap = 0;
    for (int i = 0; i < q->nitems; i++) {
        const AstExpr *e = q->items[i].expr;
        if (e->kind == AE_STAR) for (int k = 0; k < x->n; k++) cap += x->items[k].ncols;
        else cap++;
    }
    OutCol *cols = wcalloc((size_t)cap + 1, sizeof(OutCol));
    int n = 0;
    char ***uniq = x->ncommon ? join_row_names(x) : NULL;
    for (int i = 0; i < q->nitems; i++) {
        const AstExpr *e = q->items[i].expr;
        if (e->kind == AE_STAR && e->name.n == 0 && x->ncommon && q->from) {
            int next = 0;
            n += star_over_joins(x, q->from, &next, cols + n, uniq);
            continue;
        }
        if (e->kind == AE_STAR) {
            for (int k = 0; k < x->n; k++) {
                if (e->name.n == 1 && strcmp(x->items[k].alias, e->name.parts[0]) != 0) continue;
                if (e->name.n > 1) { no(x, "a qualified star"); break; }
                for (int c = 0; c < x->items[k].ncols; c++)
                    cols[n++] = (OutCol){.s = &x->items[k], .col = c};
            }
            continue;
        }
        cols[n++] = (OutCol){.e = e, .alias = q->items[i].alias};
    }
    /* derived names, made unique as Calcite's validator does (a repeated name gets 0, 1, ...) */
    for (int i = 0; i < n; i++) {
        const char *base = cols[i].alias ? cols[i].alias
                         : cols[i].base ? cols[i].base
                         : !cols[i].e ? cols[i].s->cols[cols[i].col]
                         : cols[i].e->kind == AE_COLUMN ? cols[i].e->name.parts[cols[i].e->name.n - 1] : NULL;
        WStrBuf b;
        wsb_init(&b);
        if (base) wsb_append(&b, base);
        else wsb_printf(&b, "EXPR$%d", i);
        for (int k = 0; same_name_used(cols, i, b.buf); k++) {
            b.len = 0;
            wsb_printf(&b, "%s%d", base ? base : "EXPR$", k);
        }
        cols[i].name = wsb_detach(&b);
    }
    WStrBuf *o = x->o;
    for (int i = 0; i < n; i++) {
        if (i) wsb_append(o, ", ");
        const char *own;
        if (cols[i].common) {
            /* COALESCE(`l`.`a`, `r`.`a` AS `a0`) AS `a`: each copy under its name in the join's row */
            int j = cols[i].common - 1;
            wsb_append(o, "COALESCE(");
            qualified_column(x, x->common[j].l, x->common[j].name, uniq);
            wsb_append(o, ", ");
            qualified_column(x, x->common[j].r, x->common[j].name, uniq);
            wsb_putc(o, ')');
            own = NULL;
        } else if (!cols[i].e) {
            ident(o, cols[i].s->alias);
            wsb_putc(o, '.');
            own = cols[i].s->cols[cols[i].col];
            ident(o, own);
        } else {
            x->in_select = true;
            expr(x, cols[i].e);
            x->in_select = false;
            /* a USING column wrote its own `AS name` */
            own = cols[i].e->kind == AE_COLUMN ? cols[i].e->name.parts[cols[i].e->name.n - 1] : NULL;
        }
        /* Calcite writes an alias that differs from the name the expression has of itself (a
           column's name); an expression without one keeps its derived EXPR$n unwritten */
        bool write_alias = cols[i].common ? true
                         : cols[i].alias ? !own || strcmp(own, cols[i].alias) != 0
                                         : own && strcmp(own, cols[i].name) != 0;
        if (write_alias) {
            wsb_append(o, " AS ");
            ident(o, cols[i].name);
        }
    }
    x->out = wcalloc((size_t)n + 1, sizeof(char *));
    for (int i = 0; i < n; i++) x->out[i] = cols[i].name;
    x->nout = n;
    free(cols);
    for (int i = 0; uniq && i < x->n; i++) {
        for (int c = 0; c < x->items[i].ncols; c++) free(uniq[i][c]);
        free(uniq[i]);
    }
    free(uniq);
}

static void order_and_fetch(Expand *x, const AstQuery *q)
{
    WStrBuf *o = x->o;
    if (q->norder) {
        /* ORDER BY names the query's output columns */
        wsb_append(o, "\nORDER BY ");
        for (int i = 0; i < q->norder; i++) {
            const AstExpr *e = q->order[i].expr;
            bool found = false;
            for (int k = 0; e->kind == AE_COLUMN && e->name.n == 1 && k < x->nout; k++)
                found |= strcmp(x->out[k], e->name.parts[0]) == 0;
            if (!found) { no(x, "ORDER BY an expression that is not an output column"); return; }
            if (i) wsb_append(o, ", ");
            ident(o, e->name.parts[0]);
            if (q->order[i].desc) wsb_append(o, " DESC");
            if (q->order[i].nulls) wsb_append(o, q->order[i].nulls == 1 ? " NULLS FIRST" : " NULLS LAST");
        }
    }
    if (q->offset) {
        if (q->offset->kind != AE_LITERAL || q->offset->lit != AL_INTEGER) { no(x, "this OFFSET"); return; }
        wsb_printf(o, "\nOFFSET %s ROWS", q->offset->text);
    }
    if (q->limit) {
        if (q->limit->kind != AE_LITERAL || q->limit->lit != AL_INTEGER) { no(x, "this LIMIT"); return; }
        wsb_printf(o, "\nFETCH NEXT %s ROWS ONLY", q->limit->text);
    }
}

static void select_query(Expand *x, const AstQuery *q);

static void query(Expand *x, const AstQuery *q)
{
    if (q->kind == AQ_SETOP) {
        if (q->nctes || q->norder || q->limit || q->offset) { no(x, "ORDER BY or LIMIT over a set operation"); return; }
        static const char *const OP[] = {"UNION", "INTERSECT", "EXCEPT"};
        Expand l = {.c = x->c, .view = x->view, .o = x->o};
        query(&l, q->left);
        wsb_printf(x->o, "\n%s%s\n", OP[q->setop], q->all ? " ALL" : "");
        Expand r = {.c = x->c, .view = x->view, .o = x->o};
        query(&r, q->right);
        if (l.unsupported) no(x, l.unsupported);
        if (r.unsupported) no(x, r.unsupported);
        x->out = l.out;                 /* a set operation's columns are its left input's */
        x->nout = l.nout;
        l.out = NULL;
        l.nout = 0;
        expand_free(&l);
        expand_free(&r);
        return;
    }
    select_query(x, q);
}

static void select_query(Expand *x, const AstQuery *q)
{
    if (q->kind != AQ_SELECT) { no(x, "VALUES"); return; }
    if (q->nctes || q->qualify || q->hints.n) {
        no(x, "WITH, QUALIFY or hints");
        return;
    }
    WStrBuf *o = x->o;
    if (!q->from) {
        /* SELECT without FROM (e.g. a constant row in a UNION): the select list alone */
        wsb_append(o, q->distinct ? "SELECT DISTINCT " : "SELECT ");
        select_list(x, q);
        order_and_fetch(x, q);
        return;
    }
    if (!add_from(x, q->from)) return;
    wsb_append(o, q->distinct ? "SELECT DISTINCT " : "SELECT ");
    select_list(x, q);
    wsb_append(o, "\nFROM ");
    from_item(x, q->from, true);
    if (q->where) {
        wsb_append(o, "\nWHERE ");
        expr(x, q->where);
    }
    if (q->ngroup) {
        wsb_append(o, "\nGROUP BY ");
        for (int i = 0; i < q->ngroup; i++) {
            if (q->group[i].kind != AG_EXPR) { no(x, "GROUPING SETS, ROLLUP or CUBE"); return; }
            if (i) wsb_append(o, ", ");
            x->in_select = true;    /* a GROUP BY key names a USING column as a select item does */
            expr(x, q->group[i].expr);
            x->in_select = false;
        }
    }
    if (q->having) {
        wsb_append(o, "\nHAVING ");
        expr(x, q->having);
    }
    for (int i = 0; i < q->nwindows; i++) {
        /* Calcite: WINDOW `w` AS (...),\n`w2` AS (...) */
        wsb_append(o, i ? ",\n" : "\nWINDOW ");
        ident(o, q->windows[i].name);
        wsb_append(o, " AS ");
        window_spec(x, q->windows[i].spec);
    }
    order_and_fetch(x, q);
}

bool wsession_show_create_view(WCatalog *c, const WTable *t, WStrBuf *out, WError *err)
{
    if (!t->view_query)
        return werr_set(err, WEXC_TABLE, "SHOW CREATE VIEW: the view %s has no query.", t->name);
    /* the query's names resolve against the catalog and database current when it was created */
    char *saved_cat = c->current_catalog, *saved_db = c->current_database;
    c->current_catalog = t->view_catalog;
    c->current_database = t->view_database;
    WStrBuf q;
    wsb_init(&q);
    Expand x = {.c = c, .view = t, .o = &q};
    query(&x, t->view_query);
    expand_free(&x);
    c->current_catalog = saved_cat;
    c->current_database = saved_db;
    if (x.unsupported) {
        wsb_free(&q);
        return werr_set(err, WEXC_TABLE,
                        "SHOW CREATE VIEW is not supported in weir for a view whose query uses %s (weir writes "
                        "Flink's expanded query for the forms docs/user-guide.md lists).", x.unsupported);
    }
    wsb_append(out, t->temporary ? "CREATE TEMPORARY VIEW " : "CREATE VIEW ");
    full_name(out, t);
    wsb_append(out, " (\n");
    for (int i = 0; i < t->ncols; i++) {
        wsb_append(out, "  ");
        ident(out, t->cols[i].name);
        wsb_append(out, i + 1 < t->ncols ? ",\n" : "\n");
    }
    wsb_append(out, ")\n");
    if (t->comment) {
        wsb_append(out, "COMMENT ");
        string_lit(out, t->comment);
        wsb_putc(out, '\n');
    }
    wsb_append(out, "AS ");
    wsb_append(out, q.buf ? q.buf : "");
    wsb_putc(out, '\n');
    wsb_free(&q);
    return true;
}
