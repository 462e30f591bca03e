/*
 * parse_expr.c — expressions, literals and window specifications (data types: parse_type.c).
 *
 * Contract: operator precedence is Calcite's: OR 22 < AND 24 < NOT 26 < IS (postfix) 28 <
 * comparison 30 < BETWEEN/LIKE/SIMILAR/IN 32 < + - 40 < * / % || 60 < unary + - 80 < [] and
 * field access 100; binary operators are left-associative. Special call syntaxes (TRIM, SUBSTRING,
 * POSITION, OVERLAY, EXTRACT, FLOOR/CEIL TO, TIMESTAMPADD/DIFF) map to AE_FUNC as ast.h documents.
 * Calcite's reserved function names (LEFT, YEAR, COUNT, ...) may be called as functions although
 * they cannot be identifiers. Depends on parse_int.h.
 */
#include "parse_int.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

static AstExpr *expr_prec(WSqlParser *p, int minprec);
static void note_query_followers(WSqlParser *p);
static AstExpr *unary(WSqlParser *p);

AstExpr *ps_new_expr(WSqlParser *p, AstExprKind kind, AstPos pos)
{
    AstExpr *e = WA_NEW(p->a, AstExpr);
    e->kind = kind;
    e->pos = pos;
    e->iv_precision = e->iv_frac = -1;
    return e;
}

AstExpr *ps_string_lit(WSqlParser *p, const char *text, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, AE_LITERAL, pos);
    e->lit = AL_STRING;
    e->text = wa_strdup(p->a, text);
    return e;
}

static void set_args(WSqlParser *p, AstExpr *e, PsList *l)
{
    (void)p;
    e->nargs = l->n;
    e->args = (AstExpr **)l->v;
}

static AstExpr *mk_func(WSqlParser *p, const char *name, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, AE_FUNC, pos);
    e->name.n = 1;
    e->name.parts = WA_ARRAY(p->a, char *, 1);
    e->name.parts[0] = wa_strdup(p->a, name);
    e->name.pos = pos;
    return e;
}

static void add_arg(WSqlParser *p, AstExpr *e, AstExpr *x)
{
    AstExpr **na = WA_ARRAY(p->a, AstExpr *, e->nargs + 1);
    if (e->nargs) memcpy(na, e->args, sizeof(AstExpr *) * (size_t)e->nargs);
    na[e->nargs++] = x;
    e->args = na;
}

static AstExpr *bin(WSqlParser *p, AstOp op, AstExpr *l, AstExpr *r, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, AE_BINARY, pos);
    e->op = op;
    e->nargs = 2;
    e->args = WA_ARRAY(p->a, AstExpr *, 2);
    e->args[0] = l;
    e->args[1] = r;
    return e;
}

/* ---- query detection ---- */

bool ps_is_query_start(WSqlParser *p, int k)
{
    while (ps_at(p, k, TK_LPAREN)) k++;
    return ps_kw_at(p, k, "SELECT") || ps_kw_at(p, k, "VALUES") || ps_kw_at(p, k, "WITH");
}

/* ---- time units ---- */

typedef struct { const char *w; AstTimeUnit u; bool interval; } UnitDef;
static const UnitDef UNITS[] = {
    {"YEAR", AU_YEAR, true}, {"YEARS", AU_YEAR, true}, {"QUARTER", AU_QUARTER, true},
    {"QUARTERS", AU_QUARTER, true}, {"MONTH", AU_MONTH, true}, {"MONTHS", AU_MONTH, true},
    {"WEEK", AU_WEEK, true}, {"WEEKS", AU_WEEK, true}, {"DAY", AU_DAY, true},
    {"DAYS", AU_DAY, true}, {"HOUR", AU_HOUR, true}, {"HOURS", AU_HOUR, true},
    {"MINUTE", AU_MINUTE, true}, {"MINUTES", AU_MINUTE, true}, {"SECOND", AU_SECOND, true},
    {"SECONDS", AU_SECOND, true}, {"MILLISECOND", AU_MILLISECOND, false},
    {"MICROSECOND", AU_MICROSECOND, false}, {"NANOSECOND", AU_NANOSECOND, false},
    {"DOW", AU_DOW, false}, {"DOY", AU_DOY, false}, {"EPOCH", AU_EPOCH, false},
    {"DECADE", AU_DECADE, false}, {"CENTURY", AU_CENTURY, false},
    {"MILLENNIUM", AU_MILLENNIUM, false}, {"ISODOW", AU_ISODOW, false},
    {"ISOYEAR", AU_ISOYEAR, false}, {"FRAC_SECOND", AU_MICROSECOND, false},
    {"SQL_TSI_YEAR", AU_YEAR, false}, {"SQL_TSI_QUARTER", AU_QUARTER, false},
    {"SQL_TSI_MONTH", AU_MONTH, false}, {"SQL_TSI_WEEK", AU_WEEK, false},
    {"SQL_TSI_DAY", AU_DAY, false}, {"SQL_TSI_HOUR", AU_HOUR, false},
    {"SQL_TSI_MINUTE", AU_MINUTE, false}, {"SQL_TSI_SECOND", AU_SECOND, false},
    {"SQL_TSI_MICROSECOND", AU_MICROSECOND, false}, {"SQL_TSI_FRAC_SECOND", AU_MICROSECOND, false},
};

static int unit_at(WSqlParser *p, bool interval_only, bool record)
{
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++) {
        if (interval_only && !UNITS[i].interval) continue;
        if (record ? ps_is_kw(p, UNITS[i].w) : ps_kw_at(p, 0, UNITS[i].w)) return (int)UNITS[i].u;
    }
    return AU_NONE;
}

int ps_time_unit(WSqlParser *p, bool required)
{
    int u = unit_at(p, false, true);
    if (u == AU_NONE) {
        if (required) ps_fail(p);
        return AU_NONE;
    }
    ps_next(p);
    return u;
}

static AstExpr *time_unit_expr(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    AstExpr *e = ps_new_expr(p, AE_TIMEUNIT, pos);
    e->unit = (AstTimeUnit)ps_time_unit(p, true);
    return e;
}

/* interval qualifier: unit [(p)] [TO unit [(f)]] or SECOND [(p [, f])] */
void ps_interval_qualifier(WSqlParser *p, int *start, int *end, int *prec, int *frac)
{
    *start = unit_at(p, true, true);
    if (*start == AU_NONE) ps_fail(p);
    ps_next(p);
    *end = AU_NONE;
    *prec = *frac = -1;
    if (ps_accept(p, TK_LPAREN)) {
        *prec = ps_uint(p);
        if (*start == AU_SECOND && ps_accept(p, TK_COMMA)) *frac = ps_uint(p);
        ps_expect(p, TK_RPAREN);
    }
    /* TO and its end unit are decided by a LOOKAHEAD(2) scan per start unit (Flink lists the pairs
       after the operator loop's scans and fails at TO: `INTERVAL '1' YEAR TO;`, measured) */
#define TO_SCAN(u) {"\"TO\"", "\"" u "\""}, {"\"TO\"", "\"" u "S\""}
    static const char *const TO_UNITS[][2] = {TO_SCAN("MONTH"), TO_SCAN("HOUR"), TO_SCAN("MINUTE"), TO_SCAN("SECOND")};
#undef TO_SCAN
    int from = *start == AU_YEAR ? 0 : *start == AU_DAY ? 2 : *start == AU_HOUR ? 4 : *start == AU_MINUTE ? 6 : 8;
    int to = *start == AU_YEAR ? 2 : 8;
    bool valid = false;
    for (int i = from; i < to && ps_kw_at(p, 0, "TO"); i++) {
        const char *img = TO_UNITS[i][1];
        char w[16];
        size_t n = strlen(img) - 2;
        assert(n < sizeof w);
        memcpy(w, img + 1, n);
        w[n] = 0;
        if (ps_kw_at(p, 1, w)) valid = true;
    }
    if (!valid) {
        for (int i = from; i < to; i++) ps_scan_failed_late(p, TO_UNITS[i], 2);
    } else {
        ps_next(p);
        *end = unit_at(p, true, true);
        ps_next(p);
        if (*end == AU_SECOND && ps_accept(p, TK_LPAREN)) {
            *frac = ps_uint(p);
            ps_expect(p, TK_RPAREN);
        }
    }
}

/* ---- literals ---- */

static AstExpr *literal(WSqlParser *p, AstLitKind k, const char *text, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, AE_LITERAL, pos);
    e->lit = k;
    e->text = text ? wa_strdup(p->a, text) : NULL;
    return e;
}

static AstExpr *interval_literal(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    ps_expect_kw(p, "INTERVAL");
    bool neg = false;
    if (ps_accept(p, TK_MINUS)) neg = true;
    else ps_accept(p, TK_PLUS);
    char *s = ps_string_plain(p);
    AstExpr *e = literal(p, AL_INTERVAL, s, pos);
    e->negative = neg;
    ps_interval_qualifier(p, &e->iv_start, &e->iv_end, &e->iv_precision, &e->iv_frac);
    return e;
}

/* ---- window specification ---- */

static void frame_bound(WSqlParser *p, AstBoundKind *kind, AstExpr **x)
{
    if (ps_accept_kw(p, "UNBOUNDED")) {
        if (ps_accept_kw(p, "PRECEDING")) *kind = AB_UNBOUNDED_PRECEDING;
        else {
            ps_expect_kw(p, "FOLLOWING");
            *kind = AB_UNBOUNDED_FOLLOWING;
        }
        return;
    }
    if (ps_accept_kw(p, "CURRENT")) {
        ps_expect_kw(p, "ROW");
        *kind = AB_CURRENT_ROW;
        return;
    }
    *x = expr_prec(p, 33);
    if (ps_accept_kw(p, "PRECEDING")) *kind = AB_PRECEDING;
    else {
        ps_expect_kw(p, "FOLLOWING");
        *kind = AB_FOLLOWING;
    }
}

AstOrderItem *ps_order_list(WSqlParser *p, int *n)
{
    PsList l = {0};
    do {
        AstOrderItem *it = WA_NEW(p->a, AstOrderItem);
        it->expr = ps_expr(p);
        if (ps_accept_kw(p, "DESC")) it->desc = true;
        else ps_accept_kw(p, "ASC");
        if (ps_accept_kw(p, "NULLS")) {
            if (ps_accept_kw(p, "FIRST")) it->nulls = 1;
            else {
                ps_expect_kw(p, "LAST");
                it->nulls = 2;
            }
        }
        ps_list_add(p, &l, it);
    } while (ps_list_comma(p, false));
    AstOrderItem *arr = WA_ARRAY(p->a, AstOrderItem, l.n);
    for (int i = 0; i < l.n; i++) arr[i] = *(AstOrderItem *)l.v[i];
    *n = l.n;
    return arr;
}

void ps_over_spec(WSqlParser *p, AstOver *o)
{
    if (ps_is_ident(p) && !ps_kw_at(p, 0, "PARTITION") && !ps_kw_at(p, 0, "ORDER")
        && !ps_kw_at(p, 0, "ROWS") && !ps_kw_at(p, 0, "RANGE"))
        o->ref_name = ps_ident(p);
    if (ps_accept_kw(p, "PARTITION")) {
        ps_expect_kw(p, "BY");
        PsList l = {0};
        do ps_list_add(p, &l, ps_expr(p));
        while (ps_accept(p, TK_COMMA));
        o->npartition = l.n;
        o->partition = (AstExpr **)l.v;
    }
    if (ps_accept_kw(p, "ORDER")) {
        ps_expect_kw(p, "BY");
        o->order = ps_order_list(p, &o->norder);
    }
    if (ps_is_kw(p, "ROWS") || ps_is_kw(p, "RANGE")) {
        o->frame = ps_kw_at(p, 0, "ROWS") ? AF_ROWS : AF_RANGE;
        ps_next(p);
        if (ps_accept_kw(p, "BETWEEN")) {
            frame_bound(p, &o->start_kind, &o->start_expr);
            ps_expect_kw(p, "AND");
            frame_bound(p, &o->end_kind, &o->end_expr);
        } else {
            frame_bound(p, &o->start_kind, &o->start_expr);
        }
    }
    if (ps_accept_kw(p, "ALLOW") || ps_accept_kw(p, "DISALLOW")) ps_expect_kw(p, "PARTIAL");
}

/* ---- function calls ---- */

static AstExpr *func_arg_value(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    if (ps_is_kw(p, "TABLE")) {
        ps_next(p);
        AstExpr *e = ps_new_expr(p, AE_TABLE_ARG, pos);
        e->name = ps_compound(p);       /* Flink 2.3: a name only (TABLE (SELECT ...) is a parse error) */
        /* set semantics: TABLE t PARTITION BY k [, ...] [ORDER BY ...] */
        if (ps_is_kw(p, "PARTITION")) {
            ps_next(p);
            ps_expect_kw(p, "BY");
            PsList l = {0};
            if (ps_at(p, 0, TK_LPAREN) && !ps_is_query_start(p, 1)) {
                ps_next(p);
                do ps_list_add(p, &l, ps_expr(p));
                while (ps_accept(p, TK_COMMA));
                ps_expect(p, TK_RPAREN);
            } else {
                do ps_list_add(p, &l, expr_prec(p, 33));
                while (ps_at(p, 0, TK_COMMA) && !ps_at(p, 1, TK_NAMED_ARG) && !ps_kw_at(p, 1, "DESCRIPTOR")
                       && !ps_kw_at(p, 1, "TABLE") && !ps_kw_at(p, 1, "INTERVAL") && ps_ident_at(p, 1)
                       && !ps_at(p, 2, TK_NAMED_ARG) && (ps_next(p), true));
            }
            set_args(p, e, &l);
        }
        if (ps_kw_at(p, 0, "ORDER") && ps_kw_at(p, 1, "BY")) {
            ps_next(p);
            ps_next(p);
            e->within = ps_order_list(p, &e->nwithin);
        }
        return e;
    }
    if (ps_kw_at(p, 0, "DESCRIPTOR") && ps_at(p, 1, TK_LPAREN)) {
        ps_next(p);
        ps_next(p);
        AstExpr *e = ps_new_expr(p, AE_DESCRIPTOR, pos);
        PsList l = {0};
        do {
            AstExpr *c = ps_new_expr(p, AE_COLUMN, ps_pos(p));
            c->name = ps_compound(p);
            ps_list_add(p, &l, c);
        } while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        set_args(p, e, &l);
        return e;
    }
    if (ps_is_query_start(p, 0) && !ps_at(p, 0, TK_LPAREN)) {
        AstExpr *e = ps_new_expr(p, AE_SUBQUERY, pos);
        e->subquery = ps_query(p);
        return e;
    }
    (void)ps_is_kw(p, "DEFAULT");
    return ps_expr_item(p);
}

static AstExpr *func_arg(WSqlParser *p)
{
    if (ps_ident_at(p, 0) && ps_at(p, 1, TK_NAMED_ARG)) {
        AstPos pos = ps_pos(p);
        char *name = ps_ident(p);
        ps_next(p);
        AstExpr *e = ps_new_expr(p, AE_NAMED_ARG, pos);
        e->str = name;
        add_arg(p, e, func_arg_value(p));
        return e;
    }
    return func_arg_value(p);
}

/* after the closing parenthesis: WITHIN GROUP, FILTER, OVER */
static void call_suffix(WSqlParser *p, AstExpr *e)
{
    (void)ps_is_kw(p, "WITHIN");
    if (ps_kw_at(p, 0, "WITHIN") && ps_kw_at(p, 1, "GROUP")) {
        ps_next(p);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        ps_expect_kw(p, "ORDER");
        ps_expect_kw(p, "BY");
        e->within = ps_order_list(p, &e->nwithin);
        ps_expect(p, TK_RPAREN);
    }
    if (ps_accept_kw(p, "FILTER")) {
        ps_expect(p, TK_LPAREN);
        ps_expect_kw(p, "WHERE");
        e->filter = ps_expr(p);
        ps_expect(p, TK_RPAREN);
    }
    if ((ps_kw_at(p, 0, "RESPECT") || ps_kw_at(p, 0, "IGNORE")) && ps_kw_at(p, 1, "NULLS")) {
        ps_fail_at(p, ps_cur(p), "%s NULLS is not supported at line %d, column %d.",
                   ps_kw_at(p, 0, "RESPECT") ? "RESPECT" : "IGNORE", ps_cur(p)->line, ps_cur(p)->col);
    }
    if (ps_is_kw(p, "OVER")) {
        AstOver *o = WA_NEW(p->a, AstOver);
        o->pos = ps_pos(p);
        ps_next(p);
        if (ps_accept(p, TK_LPAREN)) {
            ps_over_spec(p, o);
            ps_expect(p, TK_RPAREN);
        } else {
            o->ref_name = ps_ident(p);
        }
        e->over = o;
    }
}

static AstExpr *func_call(WSqlParser *p, AstName name, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, AE_FUNC, pos);
    e->name = name;
    /* `( *` and `( )` are decided by LOOKAHEAD(2) scans from the "(": listed after the argument's
       single tokens (measured: `COUNT( FROM t`) */
    static const char *const STAR[] = {"\"(\"", "\"*\""}, *const EMPTY[] = {"\"(\"", "\")\""};
    ps_scan_failed(p, STAR, 2);
    ps_scan_failed(p, EMPTY, 2);
    ps_expect(p, TK_LPAREN);
    if (ps_at(p, 0, TK_RPAREN)) ps_next(p);
    else {
        if (ps_at(p, 0, TK_STAR)) {
            ps_next(p);
            e->star_arg = true;
        } else {
            static const char *const QS[] = {"SELECT", "TABLE", "VALUE", "VALUES", "WITH"};
            for (size_t i = 0; i < sizeof QS / sizeof QS[0]; i++) (void)ps_is_kw(p, QS[i]);
            bool quant = false;
            if (ps_accept_kw(p, "DISTINCT")) e->distinct = quant = true;
            else quant = ps_accept_kw(p, "ALL");
            if (quant) {
                /* after the quantifier the argument may still be a query (not TABLE: measured) */
                static const char *const QQ[] = {"SELECT", "VALUE", "VALUES", "WITH"};
                for (size_t i = 0; i < sizeof QQ / sizeof QQ[0]; i++) (void)ps_is_kw(p, QQ[i]);
            }
            PsList l = {0};
            do {
                int arg_start = p->pos;
                ps_list_add(p, &l, func_arg(p));
                /* Calcite reads the first argument as a query or an expression */
                if (l.n == 1) {
                    note_query_followers(p);
                    (void)ps_is_kw(p, "PARTITION");
                }
                /* `name => value` is scanned from a simple name: "=>" is listed after one only */
                if (p->pos == arg_start + 1 && ps_ident_at(p, -1)) (void)ps_is(p, TK_NAMED_ARG);
            } while (ps_accept(p, TK_COMMA));
            set_args(p, e, &l);
        }
        ps_expect(p, TK_RPAREN);
    }
    call_suffix(p, e);
    return e;
}

static AstName kw_name(WSqlParser *p)
{
    AstName n;
    n.n = 1;
    n.pos = ps_pos(p);
    n.parts = WA_ARRAY(p->a, char *, 1);
    n.parts[0] = wa_strdup(p->a, ps_cur(p)->kw ? ps_cur(p)->kw->word : ps_cur(p)->val);
    ps_next(p);
    return n;
}

/* Calcite's ReservedFunctionName: reserved words that may be called like functions */
static const char *const RESERVED_FUNCS[] = {
    "ABS", "AVG", "CARDINALITY", "CHAR", "CHAR_LENGTH", "CHARACTER_LENGTH", "COALESCE", "COLLECT",
    "CONVERT", "COUNT", "COVAR_POP", "COVAR_SAMP", "CUME_DIST", "DAY", "DENSE_RANK", "ELEMENT",
    "EVERY", "EXP", "FIRST_VALUE", "FUSION", "GROUPING", "HOUR", "INTERSECTION", "JSON_ARRAY",
    "JSON_ARRAYAGG", "JSON_EXISTS", "JSON_OBJECT", "JSON_OBJECTAGG", "JSON_QUERY", "JSON_VALUE",
    "LAG", "LAST_VALUE", "LEAD", "LEFT", "LN", "LOWER", "MAX", "MIN", "MINUTE", "MOD", "MONTH",
    "NTH_VALUE", "NTILE", "NULLIF", "OCTET_LENGTH", "PERCENT_RANK", "PERCENTILE_CONT",
    "PERCENTILE_DISC", "POWER", "QUARTER", "RANK", "REGR_COUNT", "REGR_SXX", "REGR_SYY", "RIGHT",
    "ROW_NUMBER", "SECOND", "SOME", "SQRT", "STDDEV_POP", "STDDEV_SAMP", "SUM", "TRANSLATE",
    "TRUNCATE", "UPPER", "VAR_POP", "VAR_SAMP", "WEEK", "YEAR", "EVERY",
    "PREV", "NEXT",     /* MATCH_RECOGNIZE navigation (Calcite's MatchRecognizeNavigationPhysical) */
};

static bool reserved_func(const WSqlToken *t)
{
    if (t->kind != TK_IDENT || !t->kw) return false;
    for (size_t i = 0; i < sizeof RESERVED_FUNCS / sizeof RESERVED_FUNCS[0]; i++)
        if (strcmp(t->kw->word, RESERVED_FUNCS[i]) == 0) return true;
    return false;
}

/* niladic functions written without parentheses */
static const char *const NILADIC[] = {
    "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "USER",
    "CURRENT_USER", "SESSION_USER", "SYSTEM_USER", "CURRENT_ROLE", "CURRENT_PATH",
    "CURRENT_CATALOG", "CURRENT_SCHEMA",
};

/* JSON_VALUE / JSON_QUERY / JSON_EXISTS with their clauses, as ast.h lays the arguments out:
     JSON_VALUE(x, path, returning, empty_mode, empty_default, error_mode, error_default)
       returning: CAST(NULL AS type) for RETURNING type, else an untyped NULL; modes 'NULL' |
       'ERROR' | 'DEFAULT' (defaults: the DEFAULT expressions or NULL)
     JSON_QUERY(x, path, wrapper 'WITHOUT' | 'CONDITIONAL' | 'UNCONDITIONAL', empty_mode,
       error_mode) with modes 'NULL' | 'ERROR' | 'EMPTY ARRAY' | 'EMPTY OBJECT'
     JSON_EXISTS(x, path [, 'TRUE' | 'FALSE' | 'UNKNOWN' | 'ERROR'])
   Calcite's order of the clauses is kept: RETURNING, wrapper, ON EMPTY, ON ERROR. */
static AstExpr *json_behavior(WSqlParser *p, int fn, AstExpr **dflt, const char **mode)
{
    AstPos pos = ps_pos(p);
    *mode = NULL;
    /* the behaviours Calcite's grammar offers at this place */
    static const char *const BEHAVIOURS[3][4] = {
        {"DEFAULT", "ERROR", "NULL", NULL}, {"EMPTY", "ERROR", "NULL", NULL}, {"ERROR", "FALSE", "TRUE", "UNKNOWN"}};
    for (int i = 0; i < 4 && BEHAVIOURS[fn][i]; i++) (void)ps_is_kw(p, BEHAVIOURS[fn][i]);
    if (fn == 0 && ps_kw_at(p, 0, "DEFAULT")) {
        ps_next(p);
        *dflt = ps_expr(p);
        *mode = "DEFAULT";
    } else if (ps_kw_at(p, 0, "NULL") && ps_kw_at(p, 1, "ON")) { ps_next(p); *mode = "NULL"; }
    else if (ps_kw_at(p, 0, "ERROR") && ps_kw_at(p, 1, "ON")) { ps_next(p); *mode = "ERROR"; }
    else if (fn == 1 && ps_kw_at(p, 0, "EMPTY") && (ps_kw_at(p, 1, "ARRAY") || ps_kw_at(p, 1, "OBJECT"))) {
        ps_next(p);
        *mode = ps_kw_at(p, 0, "ARRAY") ? "EMPTY ARRAY" : "EMPTY OBJECT";
        ps_next(p);
    } else if (fn == 2 && (ps_kw_at(p, 0, "TRUE") || ps_kw_at(p, 0, "FALSE") || ps_kw_at(p, 0, "UNKNOWN"))
               && ps_kw_at(p, 1, "ON")) {
        *mode = ps_kw_at(p, 0, "TRUE") ? "TRUE" : ps_kw_at(p, 0, "FALSE") ? "FALSE" : "UNKNOWN";
        ps_next(p);
    }
    if (!*mode) return NULL;
    ps_expect_kw(p, "ON");
    return ps_string_lit(p, *mode, pos);
}

static AstExpr *json_path_call(WSqlParser *p, const char *w, AstPos pos)
{
    int fn = strcmp(w, "JSON_VALUE") == 0 ? 0 : strcmp(w, "JSON_QUERY") == 0 ? 1 : 2;
    AstExpr *e = mk_func(p, w, pos);
    ps_next(p);
    ps_expect(p, TK_LPAREN);
    add_arg(p, e, ps_expr(p));
    if (ps_kw_at(p, 0, "FORMAT") && ps_kw_at(p, 1, "JSON")) { ps_next(p); ps_next(p); }
    ps_expect(p, TK_COMMA);
    add_arg(p, e, ps_expr(p));
    AstPos cpos = ps_pos(p);
    AstExpr *returning = literal(p, AL_NULL, NULL, cpos);
    if (ps_is_kw(p, "PASSING"))   /* in Calcite's grammar; not in weir's */
        ps_fail_at(p, ps_cur(p), "The PASSING clause of %s is not supported at line %d, column %d.", w,
                   ps_cur(p)->line, ps_cur(p)->col);
    if (fn != 2 && ps_accept_kw(p, "RETURNING")) {
        AstExpr *c = ps_new_expr(p, AE_CAST, cpos);
        c->type = ps_type(p);
        add_arg(p, c, literal(p, AL_NULL, NULL, cpos));
        returning = c;
    }
    const char *wrapper = "WITHOUT";
    if (fn == 1) {
        if (ps_accept_kw(p, "WITHOUT")) {
            ps_accept_kw(p, "ARRAY");
            ps_expect_kw(p, "WRAPPER");
        } else if (ps_accept_kw(p, "WITH")) {
            wrapper = "UNCONDITIONAL";
            if (ps_accept_kw(p, "CONDITIONAL")) wrapper = "CONDITIONAL";
            else ps_accept_kw(p, "UNCONDITIONAL");
            ps_accept_kw(p, "ARRAY");
            ps_expect_kw(p, "WRAPPER");
        }
    }
    AstExpr *empty = NULL, *error = NULL, *empty_d = NULL, *error_d = NULL;
    const char *mode;
    AstPos bpos = ps_pos(p);
    AstExpr *b = json_behavior(p, fn, &empty_d, &mode);
    if (b) {
        if (fn != 2 && ps_accept_kw(p, "EMPTY")) {
            empty = b;
            bpos = ps_pos(p);
            b = json_behavior(p, fn, &error_d, &mode);
            if (b) { ps_expect_kw(p, "ERROR"); error = b; }
        } else {
            ps_expect_kw(p, "ERROR");
            error = b;
            error_d = empty_d;
            empty_d = NULL;
        }
    }
    (void)bpos;
    ps_expect(p, TK_RPAREN);
    AstExpr *nul = literal(p, AL_NULL, NULL, cpos);
    if (fn == 0) {
        add_arg(p, e, returning);
        add_arg(p, e, empty ? empty : ps_string_lit(p, "NULL", cpos));
        add_arg(p, e, empty_d ? empty_d : nul);
        add_arg(p, e, error ? error : ps_string_lit(p, "NULL", cpos));
        add_arg(p, e, error_d ? error_d : nul);
    } else if (fn == 1) {
        if (returning->kind == AE_CAST && returning->type->kind != AT_STRING && returning->type->kind != AT_VARCHAR)
            ps_fail_at(p, ps_cur(p), "JSON_QUERY supports RETURNING STRING / VARCHAR only (at line %d, column %d).",
                       cpos.line, cpos.col);
        add_arg(p, e, ps_string_lit(p, wrapper, cpos));
        add_arg(p, e, empty ? empty : ps_string_lit(p, "NULL", cpos));
        add_arg(p, e, error ? error : ps_string_lit(p, "NULL", cpos));
    } else if (error) {
        add_arg(p, e, error);
    }
    return e;
}

static AstExpr *special_call(WSqlParser *p)
{
    WSqlToken *t = ps_cur(p);
    AstPos pos = ps_pos(p);
    const char *w = t->kw ? t->kw->word : "";
    if (strcmp(w, "EXTRACT") == 0) {
        AstExpr *e = mk_func(p, "EXTRACT", pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        e->special = 'E';
        add_arg(p, e, time_unit_expr(p));
        ps_expect_kw(p, "FROM");
        add_arg(p, e, ps_expr(p));
        ps_expect(p, TK_RPAREN);
        return e;
    }
    if (strcmp(w, "POSITION") == 0) {
        AstExpr *e = mk_func(p, "POSITION", pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        e->special = 'P';
        add_arg(p, e, expr_prec(p, 33));
        ps_expect_kw(p, "IN");
        add_arg(p, e, ps_expr(p));
        if (ps_accept_kw(p, "FROM")) add_arg(p, e, ps_expr(p));
        ps_expect(p, TK_RPAREN);
        return e;
    }
    if (strcmp(w, "SUBSTRING") == 0) {
        AstExpr *e = mk_func(p, "SUBSTRING", pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        add_arg(p, e, ps_expr(p));
        if (ps_accept_kw(p, "FROM")) {
            e->special = 'S';
            add_arg(p, e, ps_expr(p));
            if (ps_accept_kw(p, "FOR")) add_arg(p, e, ps_expr(p));
        } else {
            ps_expect(p, TK_COMMA);
            add_arg(p, e, ps_expr(p));
            if (ps_accept(p, TK_COMMA)) add_arg(p, e, ps_expr(p));
        }
        ps_expect(p, TK_RPAREN);
        return e;
    }
    if (strcmp(w, "OVERLAY") == 0) {
        AstExpr *e = mk_func(p, "OVERLAY", pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        e->special = 'O';
        add_arg(p, e, ps_expr(p));
        ps_expect_kw(p, "PLACING");
        add_arg(p, e, ps_expr(p));
        ps_expect_kw(p, "FROM");
        add_arg(p, e, ps_expr(p));
        if (ps_accept_kw(p, "FOR")) add_arg(p, e, ps_expr(p));
        ps_expect(p, TK_RPAREN);
        return e;
    }
    if (strcmp(w, "TRIM") == 0) {
        AstExpr *e = mk_func(p, "TRIM", pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        e->special = 'T';
        const char *mode = "BOTH";
        bool had_mode = false;
        AstPos mpos = ps_pos(p);
        if (ps_accept_kw(p, "BOTH")) had_mode = true;
        else if (ps_accept_kw(p, "LEADING")) { mode = "LEADING"; had_mode = true; }
        else if (ps_accept_kw(p, "TRAILING")) { mode = "TRAILING"; had_mode = true; }
        AstExpr *chars = NULL, *src;
        if (ps_accept_kw(p, "FROM")) {
            src = ps_expr(p);
        } else {
            AstExpr *x = ps_expr(p);
            if (ps_accept_kw(p, "FROM")) {
                chars = x;
                src = ps_expr(p);
            } else {
                if (had_mode) ps_expect_kw(p, "FROM");
                src = x;
            }
        }
        ps_expect(p, TK_RPAREN);
        add_arg(p, e, ps_string_lit(p, mode, mpos));
        add_arg(p, e, chars);
        add_arg(p, e, src);
        return e;
    }
    if (strcmp(w, "FLOOR") == 0 || strcmp(w, "CEIL") == 0 || strcmp(w, "CEILING") == 0) {
        AstExpr *e = mk_func(p, w, pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        add_arg(p, e, ps_expr(p));
        if (ps_accept_kw(p, "TO")) {
            e->special = 'F';
            add_arg(p, e, time_unit_expr(p));
        }
        ps_expect(p, TK_RPAREN);
        call_suffix(p, e);
        return e;
    }
    if (strcmp(w, "TIMESTAMPADD") == 0 || strcmp(w, "TIMESTAMPDIFF") == 0) {
        AstExpr *e = mk_func(p, w, pos);
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        add_arg(p, e, time_unit_expr(p));
        ps_expect(p, TK_COMMA);
        add_arg(p, e, ps_expr(p));
        ps_expect(p, TK_COMMA);
        add_arg(p, e, ps_expr(p));
        ps_expect(p, TK_RPAREN);
        return e;
    }
    if (strcmp(w, "JSON_OBJECT") == 0 || strcmp(w, "JSON_ARRAY") == 0 || strcmp(w, "JSON_OBJECTAGG") == 0
        || strcmp(w, "JSON_ARRAYAGG") == 0) {
        bool object = strstr(w, "OBJECT") != NULL;
        bool agg = strstr(w, "AGG") != NULL;
        AstExpr *e = mk_func(p, w, pos);
        e->special = 'J';
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        AstPos npos = ps_pos(p);
        PsList l = {0};
        ps_list_add(p, &l, NULL);   /* the ON NULL behaviour, filled below */
        bool absent = !object;      /* Calcite's defaults */
        if (!ps_is(p, TK_RPAREN) && !ps_kw_at(p, 0, "NULL") && !ps_kw_at(p, 0, "ABSENT")) {
            do {
                if (object) {
                    if (ps_kw_at(p, 0, "KEY") && !ps_at(p, 1, TK_COLON) && !ps_kw_at(p, 1, "VALUE")) ps_next(p);
                    ps_list_add(p, &l, expr_prec(p, 33));
                    if (!ps_accept(p, TK_COLON)) ps_expect_kw(p, "VALUE");
                }
                ps_list_add(p, &l, ps_expr(p));
                if (ps_kw_at(p, 0, "FORMAT") && ps_kw_at(p, 1, "JSON")) { ps_next(p); ps_next(p); }
            } while (!agg && ps_accept(p, TK_COMMA));
            if (agg && !object && ps_kw_at(p, 0, "ORDER")) {
                ps_next(p);
                ps_expect_kw(p, "BY");
                e->within = ps_order_list(p, &e->nwithin);
            }
        }
        if ((ps_kw_at(p, 0, "NULL") || ps_kw_at(p, 0, "ABSENT")) && ps_kw_at(p, 1, "ON")) {
            absent = ps_kw_at(p, 0, "ABSENT");
            ps_next(p);
            ps_next(p);
            ps_expect_kw(p, "NULL");
        }
        ps_expect(p, TK_RPAREN);
        l.v[0] = ps_string_lit(p, absent ? "ABSENT_ON_NULL" : "NULL_ON_NULL", npos);
        set_args(p, e, &l);
        if (agg) call_suffix(p, e);
        return e;
    }
    if (strcmp(w, "JSON_VALUE") == 0 || strcmp(w, "JSON_QUERY") == 0 || strcmp(w, "JSON_EXISTS") == 0)
        return json_path_call(p, w, pos);
    return NULL;
}

static bool is_special_name(const WSqlToken *t)
{
    static const char *const S[] = {"EXTRACT", "POSITION", "SUBSTRING", "OVERLAY", "TRIM", "FLOOR",
                                    "CEIL", "CEILING", "TIMESTAMPADD", "TIMESTAMPDIFF", "JSON_VALUE",
                                    "JSON_QUERY", "JSON_EXISTS", "JSON_OBJECT", "JSON_ARRAY",
                                    "JSON_OBJECTAGG", "JSON_ARRAYAGG"};
    if (t->kind != TK_IDENT || !t->kw) return false;
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++)
        if (strcmp(t->kw->word, S[i]) == 0) return true;
    return false;
}

/* ---- primary expressions ---- */

static AstExpr *case_expr(WSqlParser *p)
{
    AstExpr *e = ps_new_expr(p, AE_CASE, ps_pos(p));
    ps_expect_kw(p, "CASE");
    if (!ps_is_kw(p, "WHEN")) e->case_operand = ps_expr(p);
    PsList w = {0}, th = {0};
    ps_expect_kw(p, "WHEN");
    do {
        AstExpr *c = ps_expr(p);
        if (e->case_operand) (void)ps_is(p, TK_COMMA);
        if (e->case_operand && ps_at(p, 0, TK_COMMA))
            ps_fail_at(p, ps_cur(p), "A list of values after WHEN is not supported (at line %d, column %d).",
                       ps_cur(p)->line, ps_cur(p)->col);
        ps_list_add(p, &w, c);
        ps_expect_kw(p, "THEN");
        ps_list_add(p, &th, ps_expr(p));
    } while (ps_accept_kw(p, "WHEN"));
    if (ps_accept_kw(p, "ELSE")) e->else_expr = ps_expr(p);
    ps_expect_kw(p, "END");
    e->nwhen = w.n;
    e->when = (AstExpr **)w.v;
    e->then = (AstExpr **)th.v;
    return e;
}

static AstExpr *cast_expr(WSqlParser *p, bool try_cast)
{
    AstExpr *e = ps_new_expr(p, AE_CAST, ps_pos(p));
    e->try_cast = try_cast;
    ps_next(p);
    ps_expect(p, TK_LPAREN);
    add_arg(p, e, ps_expr(p));
    ps_expect_kw(p, "AS");
    e->type = ps_type(p);
    ps_expect(p, TK_RPAREN);
    return e;
}

static AstExpr *bracket_items(WSqlParser *p, AstExprKind kind, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, kind, pos);
    ps_expect(p, TK_LBRACKET);
    PsList l = {0};
    if (!ps_is(p, TK_RBRACKET)) {
        do ps_list_add(p, &l, ps_expr(p));
        while (ps_list_comma(p, false));   /* LOOKAHEAD(2) for `, item` (measured: `ARRAY[1,]`) */
    }
    ps_expect(p, TK_RBRACKET);
    set_args(p, e, &l);
    return e;
}

static AstExpr *ident_expr(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    AstName n;
    memset(&n, 0, sizeof n);
    n.pos = pos;
    PsList l = {0};
    ps_list_add(p, &l, ps_ident(p));
    while (ps_at(p, 0, TK_DOT)) {
        if (ps_at(p, 1, TK_STAR)) {
            ps_next(p);
            ps_next(p);
            n.n = l.n;
            n.parts = (char **)l.v;
            AstExpr *e = ps_new_expr(p, AE_STAR, pos);
            e->name = n;
            return e;
        }
        /* Calcite's LOOKAHEAD(2): a "." no name follows ends the name (the error is at the ".") */
        if (!ps_ident_at(p, 1)) break;
        ps_next(p);
        ps_list_add(p, &l, ps_ident(p));
    }
    n.n = l.n;
    n.parts = (char **)l.v;
    if (ps_at(p, 0, TK_LPAREN)) return func_call(p, n, pos);
    if (n.n == 1 && strcasecmp(n.parts[0], "CURRENT_ROW_TIMESTAMP") == 0 && p->t[p->pos - 1].kind == TK_IDENT) {
        AstExpr *e = mk_func(p, "CURRENT_ROW_TIMESTAMP", pos);
        e->special = 'N';
        e->str = n.parts[0];
        return e;
    }
    AstExpr *e = ps_new_expr(p, AE_COLUMN, pos);
    e->name = n;
    return e;
}

/* Calcite parses a parenthesized list as queries or expressions: after an item, what may follow a query */
static void note_query_followers(WSqlParser *p)
{
    static const char *const KW[] = {"EXCEPT", "FETCH", "INTERSECT", "LIMIT", "OFFSET", "ORDER", "MINUS", "UNION"};
    for (size_t i = 0; i < sizeof KW / sizeof KW[0]; i++) (void)ps_is_kw(p, KW[i]);
}

/* an item of a VALUES row constructor may be DEFAULT (Calcite's grammar): the first item decides it
   by a lookahead scan, the later ones list it with their single tokens (measured); weir, as Flink's
   validator, has no DEFAULT function */
static void values_default(WSqlParser *p, bool first)
{
    static const char *const DEFAULT[] = {"\"DEFAULT\""};
    if (ps_kw_at(p, 0, "DEFAULT")) {
        const WSqlToken *t = ps_cur(p);
        werr_set_at(p->err, t->line, t->col, WEXC_CALCITE, "No match found for function signature DEFAULT");
        longjmp(p->jb, 1);
    }
    if (first) ps_scan_failed(p, DEFAULT, 1);
    else (void)ps_is_kw(p, "DEFAULT");
}

/* *list: the items were a comma list (an AE_ROW built here) */
static AstExpr *paren_list(WSqlParser *p, bool *list)
{
    AstPos pos = ps_pos(p);
    bool vrow = p->pos == p->values_row_pos;
    *list = false;
    ps_expect(p, TK_LPAREN);
    if (vrow) values_default(p, true);
    static const char *const QS[] = {"SELECT", "TABLE", "VALUE", "VALUES", "WITH"};
    for (size_t i = 0; i < sizeof QS / sizeof QS[0]; i++) (void)ps_is_kw(p, QS[i]);
    if (ps_is_query_start(p, 0) && !ps_at(p, 0, TK_LPAREN)) {
        AstExpr *e = ps_new_expr(p, AE_SUBQUERY, pos);
        e->subquery = ps_query(p);
        ps_expect(p, TK_RPAREN);
        return e;
    }
    AstExpr *first = ps_expr_item(p);
    note_query_followers(p);
    if (ps_accept(p, TK_COMMA)) {
        AstExpr *e = ps_new_expr(p, AE_ROW, pos);
        PsList l = {0};
        ps_list_add(p, &l, first);
        do {
            /* a VALUES row decides its later items by their first token, other lists by lookahead */
            if (vrow) values_default(p, false);
            ps_list_add(p, &l, vrow ? ps_expr_item(p) : ps_expr(p));
            note_query_followers(p);
        } while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        set_args(p, e, &l);
        *list = true;
        return e;
    }
    ps_expect(p, TK_RPAREN);
    return first;
}

static AstExpr *paren_expr(WSqlParser *p)
{
    bool list;
    return paren_list(p, &list);
}

static AstExpr *primary(WSqlParser *p)
{
    WSqlToken *t = ps_cur(p);
    AstPos pos = ps_pos(p);
    switch (t->kind) {
    case TK_INTEGER: ps_next(p); return literal(p, AL_INTEGER, t->val, pos);
    case TK_DECIMAL: ps_next(p); return literal(p, AL_DECIMAL, t->val, pos);
    case TK_APPROX: ps_next(p); return literal(p, AL_APPROX, t->val, pos);
    case TK_STRING:
    case TK_USTRING: return literal(p, AL_STRING, ps_string(p), pos);
    case TK_BINSTRING: {
        size_t total = 0;
        int start = p->pos;
        while (ps_cur(p)->kind == TK_BINSTRING) { total += strlen(ps_cur(p)->val); ps_next(p); }
        char *s = wa_alloc(p->a, total + 1);
        size_t o = 0;
        for (int i = start; i < p->pos; i++) {
            size_t l = strlen(p->t[i].val);
            memcpy(s + o, p->t[i].val, l);
            o += l;
        }
        s[o] = 0;
        return literal(p, AL_BINARY, s, pos);
    }
    case TK_HOOK: ps_next(p); return ps_new_expr(p, AE_PARAM, pos);
    case TK_LBRACE_D:
    case TK_LBRACE_T:
    case TK_LBRACE_TS:
    case TK_LBRACE_FN: return ps_jdbc_escape(p);   /* parse_jdbc.c */
    case TK_LPAREN: return paren_expr(p);
    case TK_QIDENT: return ident_expr(p);
    case TK_IDENT: break;
    default:
        ps_note_operand_start(p);
        ps_fail(p);
    }
    /* words */
    const char *w = t->kw ? t->kw->word : NULL;
    if (w) {
        if (!strcmp(w, "NULL")) { ps_next(p); return literal(p, AL_NULL, NULL, pos); }
        if (!strcmp(w, "TRUE")) { ps_next(p); return literal(p, AL_TRUE, NULL, pos); }
        if (!strcmp(w, "FALSE")) { ps_next(p); return literal(p, AL_FALSE, NULL, pos); }
        if (!strcmp(w, "UNKNOWN")) { ps_next(p); return literal(p, AL_UNKNOWN, NULL, pos); }
        if ((!strcmp(w, "DATE") || !strcmp(w, "TIME") || !strcmp(w, "TIMESTAMP") || !strcmp(w, "TIMESTAMP_LTZ"))
            && (ps_at(p, 1, TK_STRING) || ps_at(p, 1, TK_USTRING))) {
            AstLitKind k = !strcmp(w, "DATE") ? AL_DATE : !strcmp(w, "TIME") ? AL_TIME
                         : !strcmp(w, "TIMESTAMP") ? AL_TIMESTAMP : AL_TIMESTAMP_LTZ;
            ps_next(p);
            return literal(p, k, ps_string(p), pos);
        }
        if (!strcmp(w, "INTERVAL")) return interval_literal(p);
        if (!strcmp(w, "CASE")) return case_expr(p);
        if (!strcmp(w, "CAST")) return cast_expr(p, false);
        if (!strcmp(w, "EXISTS")) {
            ps_next(p);
            if (!ps_at(p, 0, TK_LPAREN)) {
                /* Calcite's EXISTS is a prefix operator: any operand parses after it (`EXISTS;` lists
                   the operand starts, measured); only a query in parentheses means something */
                ps_note_operand_start(p);
                const WSqlToken *at = ps_cur(p);
                (void)unary(p);
                ps_fail_at(p, at, "EXISTS takes a query in parentheses (at line %d, column %d).", at->line, at->col);
            }
            AstExpr *e = ps_new_expr(p, AE_EXISTS, pos);
            ps_expect(p, TK_LPAREN);
            e->subquery = ps_query(p);
            ps_expect(p, TK_RPAREN);
            return e;
        }
        if (!strcmp(w, "ROW") && ps_at(p, 1, TK_LPAREN)) {
            /* Calcite's ParenthesizedQueryOrCommaList as for a parenthesized list (no empty ROW()) */
            bool vrow = p->pos == p->values_row_pos;
            ps_next(p);
            if (vrow) p->values_row_pos = p->pos;
            bool list;
            AstExpr *in = paren_list(p, &list);
            if (list) {
                in->pos = pos;
                return in;
            }
            AstExpr *e = ps_new_expr(p, AE_ROW, pos);
            PsList l = {0};
            ps_list_add(p, &l, in);
            set_args(p, e, &l);
            return e;
        }
        if (!strcmp(w, "ARRAY") && ps_at(p, 1, TK_LBRACKET)) {
            ps_next(p);
            return bracket_items(p, AE_ARRAY, pos);
        }
        if (!strcmp(w, "MAP") && ps_at(p, 1, TK_LBRACKET)) {
            ps_next(p);
            return bracket_items(p, AE_MAP, pos);
        }
        if (is_special_name(t) && ps_at(p, 1, TK_LPAREN)) {
            AstExpr *e = special_call(p);
            if (e) return e;
        }
        for (size_t i = 0; i < sizeof NILADIC / sizeof NILADIC[0]; i++) {
            if (strcmp(w, NILADIC[i]) == 0) {
                AstExpr *e = mk_func(p, w, pos);
                e->special = 'N';
                e->str = wa_strdup(p->a, t->val);
                ps_next(p);
                if (ps_at(p, 0, TK_LPAREN) && i < 5) {
                    e->special = 0;
                    /* CURRENT_TIMESTAMP(p) / LOCALTIMESTAMP(p) */
                    ps_next(p);
                    if (!ps_at(p, 0, TK_RPAREN)) add_arg(p, e, primary(p));
                    ps_expect(p, TK_RPAREN);
                }
                return e;
            }
        }
        if (reserved_func(t) && ps_at(p, 1, TK_LPAREN)) {
            AstName n = kw_name(p);
            return func_call(p, n, pos);
        }
    }
    if (t->kind == TK_IDENT && strcasecmp(t->val, "TRY_CAST") == 0 && ps_at(p, 1, TK_LPAREN))
        return cast_expr(p, true);
    if (ps_ident_at(p, 0)) return ident_expr(p);
    ps_note_operand_start(p);
    ps_fail(p);
}

static AstExpr *postfix(WSqlParser *p, AstExpr *e)
{
    for (;;) {
        AstPos pos = ps_pos(p);
        if (ps_at(p, 0, TK_LBRACKET)) {   /* "[" is one of the lookahead scans after an operand */
            ps_next(p);
            AstExpr *it = ps_new_expr(p, AE_ITEM, e->pos);
            add_arg(p, it, e);
            add_arg(p, it, ps_expr(p));
            ps_expect(p, TK_RBRACKET);
            e = it;
            continue;
        }
        if (ps_at(p, 0, TK_DOT) && ps_ident_at(p, 1) && e->kind != AE_STAR) {
            ps_next(p);
            AstExpr *f = ps_new_expr(p, AE_FIELD, e->pos);
            add_arg(p, f, e);
            f->str = ps_ident(p);
            (void)pos;
            e = f;
            continue;
        }
        return e;
    }
}

/* what Calcite's lookahead may still try after this operand (parse_lookahead.c) */
static PsOperand operand_kind(WSqlParser *p, int start, const AstExpr *x, const AstExpr *e)
{
    if (e != x) return PS_OPND_PRIMARY;             /* a[i], (x).f */
    switch (p->t[start].kind) {
    case TK_LPAREN: return x->kind == AE_SUBQUERY ? PS_OPND_PRIMARY : PS_OPND_PAREN;
    case TK_STRING: return PS_OPND_STRING;
    default: break;
    }
    if (x->kind == AE_COLUMN) return PS_OPND_IDENT;
    if (x->kind == AE_FUNC && x->special == 'N') return PS_OPND_IDENT;
    if (x->kind == AE_FUNC && x->special == 0 && p->t[p->pos - 1].kind == TK_RPAREN && !x->over) return PS_OPND_CALL;
    return PS_OPND_PRIMARY;
}

static AstExpr *unary(WSqlParser *p)
{
    ps_enter(p);
    AstPos pos = ps_pos(p);
    AstExpr *e;
    if (ps_is(p, TK_MINUS) || ps_is(p, TK_PLUS)) {
        AstOp op = ps_cur(p)->kind == TK_MINUS ? AO_NEG : AO_POS;
        ps_next(p);
        e = ps_new_expr(p, AE_UNARY, pos);
        e->op = op;
        add_arg(p, e, unary(p));
    } else {
        int start = p->pos;
        AstExpr *x = primary(p);
        e = postfix(p, x);
        p->last_opnd = operand_kind(p, start, x, e);
    }
    ps_leave(p);
    return e;
}

/* ---- operators ---- */

static AstOp cmp_op(WSqlTokKind k)
{
    switch (k) {
    case TK_EQ: return AO_EQ;
    case TK_NE: case TK_NE2: return AO_NE;
    case TK_LT: return AO_LT;
    case TK_LE: return AO_LE;
    case TK_GT: return AO_GT;
    case TK_GE: return AO_GE;
    default: return AO_NONE;
    }
}

/* an operand may start at token k: Calcite's list, an identifier, or one of weir's own operand
   words; an operator not followed by one is left to the caller, as Calcite's lookahead does */
static bool operand_start_at(WSqlParser *p, int k)
{
    if (ps_operand_start_at(p, k) || ps_ident_at(p, k)) return true;
    const WSqlToken *t = ps_peek(p, k);
    if (t->kind != TK_IDENT || !t->kw) return false;
    const char *w = t->kw->word;
    if (!strcmp(w, "MAP") || !strcmp(w, "ARRAY") || !strcmp(w, "TIMESTAMP_LTZ")) return true;
    if (is_special_name(t) || reserved_func(t)) return true;
    for (size_t i = 0; i < sizeof NILADIC / sizeof NILADIC[0]; i++)
        if (strcmp(w, NILADIC[i]) == 0) return true;
    return false;
}

/* Calcite's three-token lookahead after an operator also sees the token after a prefix operator
   (NOT, +, -): `AND NOT;` fails at AND */
static bool operand_at(WSqlParser *p, int k)
{
    if (!operand_start_at(p, k)) return false;
    if (ps_kw_at(p, k, "NOT") || ps_at(p, k, TK_PLUS) || ps_at(p, k, TK_MINUS)) return operand_start_at(p, k + 1);
    return true;
}

/* after a binary operator Calcite scans three tokens: an operand start that is no operand alone
   (TIMESTAMP, CAST, ...) needs the token after it to be one its alternatives go on with */
static bool binary_operand_at(WSqlParser *p, int k)
{
    if (!operand_start_at(p, k)) return false;
    if (operand_at(p, k) && ps_binary_operand_at(p, k)) return true;
    /* the operator's two-token scan matched, its three-token one did not: Flink's parser fails
       here, inside the operator loop */
    ps_fail_operand3(p);
}

static AstExpr *in_rhs(WSqlParser *p, AstExpr *x, bool neg, AstPos pos)
{
    AstExpr *e = ps_new_expr(p, AE_IN, pos);
    e->negated = neg;
    add_arg(p, e, x);
    ps_expect(p, TK_LPAREN);
    if (ps_is_query_start(p, 0) && !ps_at(p, 0, TK_LPAREN)) {
        e->subquery = ps_query(p);
    } else {
        /* Calcite reads a query or an expression list here, deciding by the first token */
        static const char *const QS[] = {"SELECT", "TABLE", "VALUE", "VALUES", "WITH"};
        for (size_t i = 0; i < sizeof QS / sizeof QS[0]; i++) (void)ps_is_kw(p, QS[i]);
        PsList l = {0};
        ps_list_add(p, &l, x);
        ps_list_add(p, &l, ps_expr_item(p));
        while (ps_accept(p, TK_COMMA)) ps_list_add(p, &l, ps_expr(p));
        set_args(p, e, &l);
    }
    ps_expect(p, TK_RPAREN);
    return e;
}

/* longest left-deep operator chain (a + b + c ...) one expression may build: trees are walked
   recursively downstream, so their depth is bounded like the parser's own nesting */
#define MAX_CHAIN 10000

static AstExpr *expr_prec(WSqlParser *p, int minprec)
{
    ps_enter(p);
    int chain = 0;
    AstExpr *left;
    AstPos pos = ps_pos(p);
    if (ps_is_kw(p, "NOT")) {
        ps_next(p);
        left = ps_new_expr(p, AE_UNARY, pos);
        left->op = AO_NOT;
        add_arg(p, left, expr_prec(p, 27));
    } else {
        left = unary(p);
    }
    for (;;) {
        WSqlToken *t = ps_cur(p);
        AstPos opos = left->pos;   /* a node's position is that of its first token */
        if (++chain > MAX_CHAIN)
            ps_fail_at(p, t, "The expression is nested too deeply at line %d, column %d (more than %d operators in a chain).",
                       t->line, t->col, MAX_CHAIN);
        ps_mark_continuation(p, p->last_opnd);
        if (ps_kw_at(p, 0, "OR")) {
            if (22 < minprec || !binary_operand_at(p, 1)) break;
            ps_next(p);
            left = bin(p, AO_OR, left, expr_prec(p, 23), opos);
            continue;
        }
        if (ps_kw_at(p, 0, "AND")) {
            if (24 < minprec || !binary_operand_at(p, 1)) break;
            ps_next(p);
            left = bin(p, AO_AND, left, expr_prec(p, 25), opos);
            continue;
        }
        if (ps_kw_at(p, 0, "IS")) {
            if (28 < minprec) break;
            static const char *const IS_NEXT[] = {"NOT", "NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT", "JSON"};
            bool is_ok = false;
            for (size_t i = 0; i < sizeof IS_NEXT / sizeof IS_NEXT[0]; i++)
                if (ps_kw_at(p, 1, IS_NEXT[i])) is_ok = true;
            if (!is_ok) break;
            ps_next(p);
            AstExpr *e = ps_new_expr(p, AE_IS, opos);
            add_arg(p, e, left);
            if (ps_accept_kw(p, "NOT")) e->negated = true;
            if (ps_accept_kw(p, "NULL")) e->is_what = AIS_NULL;
            else if (ps_accept_kw(p, "TRUE")) e->is_what = AIS_TRUE;
            else if (ps_accept_kw(p, "FALSE")) e->is_what = AIS_FALSE;
            else if (ps_accept_kw(p, "UNKNOWN")) e->is_what = AIS_UNKNOWN;
            else if (ps_kw_at(p, 0, "DISTINCT") && (e->negated || ps_kw_at(p, 1, "FROM"))) {
                /* IS DISTINCT FROM is scanned as two tokens, IS NOT DISTINCT then FROM is not (measured) */
                ps_next(p);
                ps_expect_kw(p, "FROM");
                e->is_what = AIS_DISTINCT_FROM;
                add_arg(p, e, expr_prec(p, 31));
            } else if (ps_accept_kw(p, "JSON")) {
                /* x IS [NOT] JSON [VALUE|OBJECT|ARRAY|SCALAR]: a call "IS JSON <kind>" */
                const char *kind = "VALUE";
                if (ps_accept_kw(p, "VALUE")) kind = "VALUE";
                else if (ps_accept_kw(p, "OBJECT")) kind = "OBJECT";
                else if (ps_accept_kw(p, "ARRAY")) kind = "ARRAY";
                else if (ps_accept_kw(p, "SCALAR")) kind = "SCALAR";
                AstExpr *f = mk_func(p, kind, opos);
                f->name.parts[0] = wa_sprintf(p->a, "IS %sJSON %s", e->negated ? "NOT " : "", kind);
                f->special = 'I';
                f->negated = false;     /* the name says IS NOT JSON */
                add_arg(p, f, left);
                left = f;
                continue;
            } else {
                /* Calcite's postfix IS [NOT] also takes A SET and EMPTY (not in weir); DISTINCT
                   FROM is decided by a scan, listed after them */
                static const char *const SCANNED[] = {"\"DISTINCT\"", "\"FROM\""};
                (void)ps_is_kw(p, "A");
                (void)ps_is_kw(p, "EMPTY");
                if (e->negated) {
                    ps_lookahead_tokens(p, SCANNED, 1);
                } else {
                    ps_scan_failed(p, SCANNED, 2);
                    ps_scan_failed(p, SCANNED, 1);
                }
                ps_fail(p);
            }
            if (e->is_what != AIS_DISTINCT_FROM) p->last_opnd = PS_OPND_POSTFIX;
            left = e;
            continue;
        }
        AstOp cop = cmp_op(t->kind);
        if (cop != AO_NONE) {
            if (30 < minprec) break;
            if (!binary_operand_at(p, 1) && !ps_kw_at(p, 1, "ANY") && !ps_kw_at(p, 1, "SOME") && !ps_kw_at(p, 1, "ALL")) break;
            /* Flink's conformance level refuses != (measured on Flink 2.3.0) */
            if (t->kind == TK_NE2)
                ps_fail_calcite(p, t, "Bang equal '!=' is not allowed under the current SQL conformance level");
            ps_next(p);
            if (ps_kw_at(p, 0, "ANY") || ps_kw_at(p, 0, "SOME") || ps_kw_at(p, 0, "ALL")) {
                /* a quantifier: "(" must follow (Flink's message at `a = ANY;`) */
                AstExpr *e = ps_new_expr(p, AE_QUANTIFIED, opos);
                e->cmp = cop;
                e->all = ps_kw_at(p, 0, "ALL");
                ps_next(p);
                ps_expect(p, TK_LPAREN);
                add_arg(p, e, left);
                if (ps_is_query_start(p, 0) && !ps_at(p, 0, TK_LPAREN)) {
                    e->subquery = ps_query(p);
                } else {
                    PsList l = {0};
                    ps_list_add(p, &l, left);
                    do ps_list_add(p, &l, ps_expr(p));
                    while (ps_accept(p, TK_COMMA));
                    set_args(p, e, &l);
                }
                ps_expect(p, TK_RPAREN);
                left = e;
                continue;
            }
            left = bin(p, cop, left, expr_prec(p, 31), opos);
            continue;
        }
        bool neg = false;
        int k = 0;
        if (ps_kw_at(p, 0, "NOT")
            && (ps_kw_at(p, 1, "IN") || ps_kw_at(p, 1, "LIKE") || ps_kw_at(p, 1, "BETWEEN") || ps_kw_at(p, 1, "SIMILAR"))) {
            neg = true;
            k = 1;
        }
        if (ps_kw_at(p, k, "IN") || ps_kw_at(p, k, "LIKE") || ps_kw_at(p, k, "BETWEEN") || ps_kw_at(p, k, "SIMILAR")) {
            if (32 < minprec) break;
            /* without NOT, Calcite's lookahead also needs what follows the operator */
            if (!neg && ps_kw_at(p, 0, "IN") && !ps_at(p, 1, TK_LPAREN)) break;
            if (!neg && ps_kw_at(p, 0, "LIKE") && !operand_at(p, 1)) break;
            if (!neg && ps_kw_at(p, 0, "SIMILAR") && !ps_kw_at(p, 1, "TO")) break;
            if (!neg && ps_kw_at(p, 0, "BETWEEN") && !operand_at(p, 1) && !ps_kw_at(p, 1, "SYMMETRIC")
                && !ps_kw_at(p, 1, "ASYMMETRIC")) break;
            if (neg) ps_next(p);
            if (ps_accept_kw(p, "IN")) {
                left = in_rhs(p, left, neg, opos);
                continue;
            }
            if (ps_accept_kw(p, "BETWEEN")) {
                AstExpr *e = ps_new_expr(p, AE_BETWEEN, opos);
                e->negated = neg;
                if (ps_accept_kw(p, "SYMMETRIC")) e->symmetric = true;
                else ps_accept_kw(p, "ASYMMETRIC");
                add_arg(p, e, left);
                add_arg(p, e, expr_prec(p, 33));
                /* Calcite reduces BETWEEN after the whole expression: without its AND that fails
                   (a SqlParseException caused by a SqlValidatorException, measured) */
                /* its AND is the loop's binary operator: an AND the operator scan does not take
                   (nothing after it) leaves BETWEEN without one too */
                if (!ps_kw_at(p, 0, "AND") || !binary_operand_at(p, 1)) {
                    werr_set_at(p->err, ps_cur(p)->line, ps_cur(p)->col, WEXC_CALCITE,
                                "BETWEEN operator has no terminating AND");
                    longjmp(p->jb, 1);
                }
                ps_next(p);
                add_arg(p, e, expr_prec(p, 33));
                left = e;
                continue;
            }
            AstExpr *e = ps_new_expr(p, AE_LIKE, opos);
            e->negated = neg;
            if (ps_accept_kw(p, "SIMILAR")) {
                ps_expect_kw(p, "TO");
                e->similar = true;
            } else {
                ps_expect_kw(p, "LIKE");
            }
            add_arg(p, e, left);
            add_arg(p, e, expr_prec(p, 33));
            p->escape_pos = p->pos;   /* [ESCAPE x] is a lookahead scan in Calcite's grammar */
            if (ps_kw_at(p, 0, "ESCAPE") && operand_at(p, 1)) {
                ps_next(p);
                add_arg(p, e, expr_prec(p, 33));
            }
            left = e;
            continue;
        }
        AstOp aop = AO_NONE;
        int prec = 0;
        switch (t->kind) {
        case TK_PLUS: aop = AO_PLUS; prec = 40; break;
        case TK_MINUS: aop = AO_MINUS; prec = 40; break;
        case TK_STAR: aop = AO_MUL; prec = 60; break;
        case TK_SLASH: aop = AO_DIV; prec = 60; break;
        case TK_PERCENT: aop = AO_MOD; prec = 60; break;
        case TK_CONCAT: aop = AO_CONCAT; prec = 60; break;
        default: break;
        }
        if (aop == AO_NONE || prec < minprec || !binary_operand_at(p, 1)) break;
        ps_next(p);
        left = bin(p, aop, left, expr_prec(p, prec + 1), opos);
    }
    ps_leave(p);
    return left;
}

AstExpr *ps_expr(WSqlParser *p) { return expr_prec(p, 0); }

bool ps_list_comma(WSqlParser *p, bool group)
{
    bool item = operand_at(p, 1)
                || (group && (ps_kw_at(p, 1, "GROUPING") || ps_kw_at(p, 1, "ROLLUP") || ps_kw_at(p, 1, "CUBE")));
    if (ps_at(p, 0, TK_COMMA) && item) {
        ps_next(p);
        return true;
    }
    p->comma_pos = p->pos;
    p->comma_group = group;
    return false;
}

AstExpr *ps_expr_item(WSqlParser *p)
{
    p->sorted_start_pos = p->pos;
    return expr_prec(p, 0);
}

AstExpr *ps_expr_or_query(WSqlParser *p)
{
    if (ps_is_query_start(p, 0) && !ps_at(p, 0, TK_LPAREN)) {
        AstExpr *e = ps_new_expr(p, AE_SUBQUERY, ps_pos(p));
        e->subquery = ps_query(p);
        return e;
    }
    return ps_expr(p);
}
