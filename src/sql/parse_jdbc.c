/*
 * parse_jdbc.c — JDBC escapes in expressions, as Calcite's parser reads them: `{d '2024-01-02'}`,
 * `{t '10:11:12'}`, `{ts '2024-01-02 10:11:12'}` (a DATE / TIME / TIMESTAMP literal) and
 * `{fn NAME(args)}` (a JDBC scalar function, mapped to the SQL function Calcite's
 * SqlJdbcFunctionCall names for it: UCASE is UPPER, LOCATE is POSITION, ...).
 *
 * Contract: ps_jdbc_escape is called at a TK_LBRACE_D / _T / _TS / _FN token and returns the
 * expression the escape stands for. A literal takes one <QUOTED_STRING> (no continuation, as in
 * Calcite) and is checked like `DATE '...'`. A {fn} name outside the JDBC table gives an AE_FUNC
 * with special 'j', which the binder refuses as Flink's validator does (`Function '{fn NAME}' is
 * not defined`); a name Flink's code generator cannot run gives special 'u' (the binder's
 * "Unsupported call"). What each name gives was measured on Flink 2.3.0 (tests/golden/jdbc_escapes).
 * Depends on parse_int.h.
 */
#include "parse_int.h"

#include <string.h>

/* how a JDBC function becomes a SQL one */
typedef enum { J_RENAME, J_CONCAT, J_LOCATE, J_LTRIM, J_RTRIM, J_INSERT, J_UNSUPPORTED } JdbcMap;

typedef struct JdbcFn {
    const char *jdbc;       /* the JDBC name, as written (Flink keeps unquoted names' case) */
    JdbcMap map;
    const char *sql;        /* J_RENAME: the SQL function; J_UNSUPPORTED: Calcite's operator */
} JdbcFn;

/* Calcite's SqlJdbcFunctionCall table. J_UNSUPPORTED: Calcite maps the name to one of its own
   operators that Flink's code generator lacks, and Flink 2.3 fails with "Unsupported call"
   (measured for each; the binder gives the same message) */
static const JdbcFn JDBC_FNS[] = {
    {"ABS", J_RENAME, "ABS"}, {"ACOS", J_RENAME, "ACOS"}, {"ASIN", J_RENAME, "ASIN"},
    {"ATAN", J_RENAME, "ATAN"}, {"ATAN2", J_RENAME, "ATAN2"}, {"CBRT", J_UNSUPPORTED, "CBRT"},
    {"CEILING", J_RENAME, "CEILING"}, {"COS", J_RENAME, "COS"}, {"COT", J_RENAME, "COT"},
    {"DEGREES", J_RENAME, "DEGREES"}, {"EXP", J_RENAME, "EXP"}, {"FLOOR", J_RENAME, "FLOOR"},
    {"LOG", J_RENAME, "LN"}, {"LOG10", J_RENAME, "LOG10"}, {"MOD", J_RENAME, "MOD"},
    {"PI", J_RENAME, "PI"}, {"POWER", J_RENAME, "POWER"}, {"RADIANS", J_RENAME, "RADIANS"},
    {"RAND", J_UNSUPPORTED, "RAND"}, {"ROUND", J_UNSUPPORTED, "ROUND"}, {"SIGN", J_RENAME, "SIGN"},
    {"SIN", J_RENAME, "SIN"}, {"SQRT", J_RENAME, "SQRT"}, {"TAN", J_RENAME, "TAN"},
    {"TRUNCATE", J_UNSUPPORTED, "TRUNCATE"},
    {"ASCII", J_UNSUPPORTED, "ASCII"}, {"CHAR", J_UNSUPPORTED, "CHAR"}, {"CONCAT", J_CONCAT, NULL},
    {"DIFFERENCE", J_UNSUPPORTED, "DIFFERENCE"}, {"INSERT", J_INSERT, NULL}, {"LCASE", J_RENAME, "LOWER"},
    {"LEFT", J_UNSUPPORTED, "LEFT"}, {"LENGTH", J_RENAME, "CHAR_LENGTH"}, {"LOCATE", J_LOCATE, NULL},
    {"LTRIM", J_LTRIM, NULL}, {"REPEAT", J_UNSUPPORTED, "REPEAT"}, {"REPLACE", J_UNSUPPORTED, "REPLACE"},
    {"REVERSE", J_UNSUPPORTED, "REVERSE"}, {"RIGHT", J_UNSUPPORTED, "RIGHT"}, {"RTRIM", J_RTRIM, NULL},
    {"SOUNDEX", J_UNSUPPORTED, "SOUNDEX"}, {"SPACE", J_UNSUPPORTED, "SPACE"},
    {"SUBSTRING", J_UNSUPPORTED, "SUBSTRING"}, {"UCASE", J_RENAME, "UPPER"},
    {"CURDATE", J_UNSUPPORTED, "CURRENT_DATE"}, {"CURTIME", J_UNSUPPORTED, "LOCALTIME"},
    {"DAYNAME", J_UNSUPPORTED, "DAYNAME"}, {"DAYOFMONTH", J_RENAME, "DAYOFMONTH"},
    {"DAYOFWEEK", J_RENAME, "DAYOFWEEK"}, {"DAYOFYEAR", J_RENAME, "DAYOFYEAR"},
    {"HOUR", J_RENAME, "HOUR"}, {"MINUTE", J_RENAME, "MINUTE"}, {"MONTH", J_RENAME, "MONTH"},
    {"MONTHNAME", J_UNSUPPORTED, "MONTHNAME"}, {"NOW", J_UNSUPPORTED, "CURRENT_TIMESTAMP"},
    {"QUARTER", J_RENAME, "QUARTER"}, {"SECOND", J_RENAME, "SECOND"}, {"WEEK", J_RENAME, "WEEK"},
    {"YEAR", J_RENAME, "YEAR"},
    {"DATABASE", J_UNSUPPORTED, "CURRENT_CATALOG"}, {"IFNULL", J_RENAME, "COALESCE"},
    {"USER", J_UNSUPPORTED, "CURRENT_USER"},
};

static AstExpr *func(WSqlParser *p, const char *name, AstPos pos, AstExpr **args, int nargs)
{
    AstExpr *e = ps_new_expr(p, AE_FUNC, pos);
    e->name.n = 1;
    e->name.parts = WA_ARRAY(p->a, char *, 1);
    e->name.parts[0] = wa_strdup(p->a, name);
    e->name.pos = pos;
    e->nargs = nargs;
    e->args = WA_ARRAY(p->a, AstExpr *, nargs > 0 ? nargs : 1);
    for (int i = 0; i < nargs; i++) e->args[i] = args[i];
    return e;
}

static AstExpr *literal(WSqlParser *p, WSqlTokKind kind, AstPos pos)
{
    ps_next(p);
    if (!ps_at(p, 0, TK_STRING)) {
        (void)ps_is(p, TK_STRING);
        ps_fail(p);
    }
    AstExpr *e = ps_new_expr(p, AE_LITERAL, pos);
    e->lit = kind == TK_LBRACE_D ? AL_DATE : kind == TK_LBRACE_T ? AL_TIME : AL_TIMESTAMP;
    e->text = wa_strdup(p->a, ps_cur(p)->val);
    ps_next(p);
    ps_expect(p, TK_RBRACE);
    return e;
}

/* the JDBC call's mapping onto weir's AST (the forms parse_expr.c builds for the SQL syntax) */
static AstExpr *mapped(WSqlParser *p, const JdbcFn *f, AstPos pos, AstExpr **args, int nargs)
{
    switch (f->map) {
    case J_RENAME: return func(p, f->sql, pos, args, nargs);
    case J_UNSUPPORTED: {
        AstExpr *e = func(p, f->sql, pos, args, nargs);
        e->special = 'u';
        return e;
    }
    case J_CONCAT:
        if (nargs == 2) {
            AstExpr *e = ps_new_expr(p, AE_BINARY, pos);
            e->op = AO_CONCAT;
            e->nargs = 2;
            e->args = WA_ARRAY(p->a, AstExpr *, 2);
            e->args[0] = args[0];
            e->args[1] = args[1];
            return e;
        }
        return func(p, "CONCAT", pos, args, nargs);
    case J_LOCATE:
        if (nargs == 2 || nargs == 3) {
            AstExpr *e = func(p, "POSITION", pos, args, nargs);
            e->special = 'P';
            return e;
        }
        return func(p, "LOCATE", pos, args, nargs);
    case J_LTRIM:
    case J_RTRIM:
        if (nargs == 1) {
            AstExpr *targs[3] = {ps_string_lit(p, f->map == J_LTRIM ? "LEADING" : "TRAILING", pos), NULL, args[0]};
            AstExpr *e = func(p, "TRIM", pos, targs, 3);
            e->special = 'T';
            return e;
        }
        return func(p, f->jdbc, pos, args, nargs);
    case J_INSERT:
        if (nargs == 4) {
            /* INSERT(s, start, length, r) is OVERLAY(s PLACING r FROM start FOR length) */
            AstExpr *oargs[4] = {args[0], args[3], args[1], args[2]};
            AstExpr *e = func(p, "OVERLAY", pos, oargs, 4);
            e->special = 'O';
            return e;
        }
        return func(p, "INSERT", pos, args, nargs);
    }
    return NULL;
}

AstExpr *ps_jdbc_escape(WSqlParser *p)
{
    WSqlToken *open = ps_cur(p);
    AstPos pos = ps_pos(p);
    if (open->kind != TK_LBRACE_FN) return literal(p, open->kind, pos);
    ps_next(p);
    if (ps_kw_at(p, 0, "TIMESTAMPADD") || ps_kw_at(p, 0, "TIMESTAMPDIFF")) {
        AstExpr *e = ps_expr_item(p);
        ps_expect(p, TK_RBRACE);
        return e;
    }
    const WSqlToken *nt = ps_cur(p);
    if (nt->kind != TK_IDENT && nt->kind != TK_QIDENT) {
        (void)ps_is_ident(p);
        ps_fail(p);
    }
    if (ps_kw_at(p, 0, "CONVERT"))
        ps_fail_at(p, nt, "The JDBC escape {fn CONVERT(value, SQL_type)} is not supported yet; use CAST.");
    /* the name as written: Flink's parser keeps the case of unquoted names, and the JDBC table
       is upper case ({fn ucase(x)} is not defined, measured) */
    char *name = wa_strndup(p->a, nt->start, (size_t)nt->len);
    if (nt->kind == TK_QIDENT) name = wa_strdup(p->a, nt->val);
    ps_next(p);
    ps_expect(p, TK_LPAREN);
    PsList l = {0};
    if (!ps_accept(p, TK_RPAREN)) {
        do ps_list_add(p, &l, ps_expr_item(p));
        while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
    }
    ps_expect(p, TK_RBRACE);
    AstExpr **args = (AstExpr **)l.v;
    for (size_t i = 0; i < sizeof JDBC_FNS / sizeof JDBC_FNS[0]; i++)
        if (strcmp(JDBC_FNS[i].jdbc, name) == 0) return mapped(p, &JDBC_FNS[i], pos, args, l.n);
    AstExpr *e = func(p, name, pos, args, l.n);
    e->special = 'j';
    return e;
}
