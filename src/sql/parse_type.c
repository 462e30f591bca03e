/*
 * parse_type.c — data types as Flink's parser reads them: Calcite's DataType (CAST, RETURNING) and
 * Flink's ExtendedDataType in column definitions ([NOT] NULL after every type, ARRAY / MULTISET
 * suffixes decided by lookahead scans), with precisions, ROW fields and character sets; an
 * INTERVAL type's qualifier is the one interval literals use (ps_interval_qualifier, parse_expr.c).
 * Depends on parse_int.h.
 */
#include "parse_int.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

static AstType *new_type(WSqlParser *p, AstTypeKind k, AstPos pos)
{
    AstType *t = WA_NEW(p->a, AstType);
    t->kind = k;
    t->pos = pos;
    t->precision = t->scale = -1;
    t->iv_precision = t->iv_frac = -1;
    return t;
}

static void opt_precision(WSqlParser *p, AstType *t, bool allow_scale)
{
    if (!ps_accept(p, TK_LPAREN)) return;
    t->has_precision = true;
    t->precision = ps_uint(p);
    if (allow_scale && ps_accept(p, TK_COMMA)) {
        t->has_scale = true;
        t->scale = ps_uint(p);
    }
    ps_expect(p, TK_RPAREN);
}

static void row_fields(WSqlParser *p, AstType *t, WSqlTokKind close)
{
    PsList names = {0}, types = {0};
    if (!ps_at(p, 0, close)) {
        do {
            ps_list_add(p, &names, ps_ident(p));
            ps_list_add(p, &types, ps_type_ext(p));
            if (ps_is(p, TK_STRING)) (void)ps_quoted(p);  /* field description: one <QUOTED_STRING> */
        } while (ps_accept(p, TK_COMMA));
    }
    ps_expect(p, close);
    t->nfields = names.n;
    t->field_names = (char **)names.v;
    t->fields = (AstType **)types.v;
}

static AstType *ext_type(WSqlParser *p, bool suffix);

/* Calcite's character types end with an optional CHARACTER SET name, which weir does not have */
static void char_set(WSqlParser *p)
{
    if (ps_is_kw(p, "CHARACTER"))
        ps_fail_at(p, ps_cur(p), "CHARACTER SET of a character type is not supported (at line %d, column %d).",
                   ps_cur(p)->line, ps_cur(p)->col);
}

static AstType *base_type(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    WSqlToken *tok = ps_cur(p);
    AstType *t = NULL;
    ps_enter(p);
    /* types of Flink's grammar that weir does not have: listed where a type is expected */
    static const char *const OTHER[] = {"ANY", "VARIANT", "BITMAP", "STRUCTURED"};
    for (size_t i = 0; i < sizeof OTHER / sizeof OTHER[0]; i++) (void)ps_is_kw(p, OTHER[i]);
    if (ps_accept_kw(p, "BOOLEAN")) t = new_type(p, AT_BOOLEAN, pos);
    else if (ps_accept_kw(p, "TINYINT")) t = new_type(p, AT_TINYINT, pos);
    else if (ps_accept_kw(p, "SMALLINT")) t = new_type(p, AT_SMALLINT, pos);
    else if (ps_accept_kw(p, "INT") || ps_accept_kw(p, "INTEGER")) t = new_type(p, AT_INT, pos);
    else if (ps_accept_kw(p, "BIGINT")) t = new_type(p, AT_BIGINT, pos);
    else if (ps_accept_kw(p, "FLOAT") || ps_accept_kw(p, "REAL")) {
        t = new_type(p, AT_FLOAT, pos);
        opt_precision(p, t, false);
    } else if (ps_accept_kw(p, "DOUBLE")) {
        ps_accept_kw(p, "PRECISION");
        t = new_type(p, AT_DOUBLE, pos);
    } else if (ps_accept_kw(p, "DECIMAL") || ps_accept_kw(p, "DEC") || ps_accept_kw(p, "NUMERIC")) {
        t = new_type(p, AT_DECIMAL, pos);
        opt_precision(p, t, true);
    } else if (ps_accept_kw(p, "CHAR") || ps_accept_kw(p, "CHARACTER")) {
        t = new_type(p, ps_accept_kw(p, "VARYING") ? AT_VARCHAR : AT_CHAR, pos);
        opt_precision(p, t, false);
        char_set(p);
    } else if (ps_accept_kw(p, "VARCHAR")) {
        t = new_type(p, AT_VARCHAR, pos);
        opt_precision(p, t, false);
        char_set(p);
    } else if (ps_accept_kw(p, "STRING")) t = new_type(p, AT_STRING, pos);
    else if (ps_accept_kw(p, "BINARY")) {
        t = new_type(p, ps_accept_kw(p, "VARYING") ? AT_VARBINARY : AT_BINARY, pos);
        opt_precision(p, t, false);
    } else if (ps_accept_kw(p, "VARBINARY")) {
        t = new_type(p, AT_VARBINARY, pos);
        opt_precision(p, t, false);
    } else if (ps_accept_kw(p, "BYTES")) t = new_type(p, AT_BYTES, pos);
    else if (ps_accept_kw(p, "DATE")) t = new_type(p, AT_DATE, pos);
    else if (ps_accept_kw(p, "TIME")) {
        t = new_type(p, AT_TIME, pos);
        opt_precision(p, t, false);
        if (ps_accept_kw(p, "WITHOUT")) {
            ps_expect_kw(p, "TIME");
            ps_expect_kw(p, "ZONE");
        } else if (ps_kw_at(p, 0, "WITH") && ps_kw_at(p, 1, "LOCAL")) {
            ps_fail_at(p, tok, "Type TIME WITH LOCAL TIME ZONE is not supported.");
        }
    } else if (ps_accept_kw(p, "TIMESTAMP")) {
        t = new_type(p, AT_TIMESTAMP, pos);
        opt_precision(p, t, false);
        if (ps_accept_kw(p, "WITHOUT")) {
            ps_expect_kw(p, "TIME");
            ps_expect_kw(p, "ZONE");
        } else if (ps_accept_kw(p, "WITH")) {
            ps_expect_kw(p, "LOCAL");
            ps_expect_kw(p, "TIME");
            ps_expect_kw(p, "ZONE");
            t->kind = AT_TIMESTAMP_LTZ;
        }
    } else if (ps_accept_kw(p, "TIMESTAMP_LTZ")) {
        t = new_type(p, AT_TIMESTAMP_LTZ, pos);
        opt_precision(p, t, false);
    } else if (ps_is_kw(p, "INTERVAL")) {
        ps_next(p);
        t = new_type(p, AT_INTERVAL, pos);
        ps_interval_qualifier(p, &t->iv_start, &t->iv_end, &t->iv_precision, &t->iv_frac);
    } else if (ps_is_kw(p, "ARRAY") || ps_is_kw(p, "MULTISET")) {
        bool arr = ps_kw_at(p, 0, "ARRAY");
        ps_next(p);
        t = new_type(p, arr ? AT_ARRAY : AT_MULTISET, pos);
        ps_expect(p, TK_LT);
        t->elem = ext_type(p, false);
        ps_expect(p, TK_GT);
    } else if (ps_accept_kw(p, "MAP")) {
        t = new_type(p, AT_MAP, pos);
        ps_expect(p, TK_LT);
        t->key = ps_type_ext(p);
        ps_expect(p, TK_COMMA);
        t->elem = ps_type_ext(p);
        ps_expect(p, TK_GT);
    } else if (ps_accept_kw(p, "ROW")) {
        t = new_type(p, AT_ROW, pos);
        if (ps_accept(p, TK_LT)) row_fields(p, t, TK_GT);
        else {
            ps_expect(p, TK_LPAREN);
            row_fields(p, t, TK_RPAREN);
        }
    } else if (ps_kw_at(p, 0, "NULL")) {   /* not among the types Calcite's grammar lists */
        ps_next(p);
        t = new_type(p, AT_NULL, pos);
    }
    else if (ps_is_kw(p, "RAW")) {
        ps_fail_at(p, tok, "RAW types are not supported (at line %d, column %d).", tok->line, tok->col);
    } else if (ps_is_ident(p)) {
        /* Flink's parser takes the name as a user-defined type; its validator then fails (measured
           on Flink 2.3, in a CAST and in CREATE TABLE alike: no position in the message) */
        AstName n = ps_compound(p);
        werr_set_at(p->err, tok->line, tok->col, WEXC_CALCITE, "Unknown identifier '%s'", ps_name_join(p, &n));
        longjmp(p->jb, 1);
    } else {
        ps_fail(p);
    }
    ps_leave(p);
    return t;
}

AstType *ps_type(WSqlParser *p)
{
    ps_enter(p);
    AstType *t = base_type(p);
    for (;;) {
        if (ps_kw_at(p, 0, "NOT") && ps_kw_at(p, 1, "NULL")) {
            ps_next(p);
            ps_next(p);
            t->not_null = true;
        } else if (ps_kw_at(p, 0, "NULL")) {
            ps_next(p);
            t->not_null = false;
        }
        if (ps_is_kw(p, "ARRAY") || ps_is_kw(p, "MULTISET")) {
            AstType *w = new_type(p, ps_kw_at(p, 0, "ARRAY") ? AT_ARRAY : AT_MULTISET, ps_pos(p));
            ps_next(p);
            w->elem = t;
            t = w;
            continue;
        }
        break;
    }
    ps_leave(p);
    return t;
}

/* [NOT NULL | NULL] after a type of Flink's ExtendedDataType: single tokens of its choice */
static void nullability(WSqlParser *p, AstType *t)
{
    if (ps_accept_kw(p, "NOT")) {
        ps_expect_kw(p, "NULL");
        t->not_null = true;
    } else if (ps_accept_kw(p, "NULL")) {
        t->not_null = false;
    }
}

/* suffix: ARRAY / MULTISET may follow (not after the element type of ARRAY<> / MULTISET<>) */
static AstType *ext_type(WSqlParser *p, bool suffix)
{
    static const char *const MULTISET[] = {"\"MULTISET\""}, *const ARRAY[] = {"\"ARRAY\""};
    ps_enter(p);
    AstType *t = base_type(p);
    nullability(p, t);
    if (!suffix) {
        ps_leave(p);
        return t;
    }
    while (ps_kw_at(p, 0, "ARRAY") || ps_kw_at(p, 0, "MULTISET")) {
        AstType *w = new_type(p, ps_kw_at(p, 0, "ARRAY") ? AT_ARRAY : AT_MULTISET, ps_pos(p));
        ps_next(p);
        w->elem = t;
        t = w;
        nullability(p, t);
    }
    /* the collection suffix is decided by a lookahead scan (MULTISET tried first) */
    ps_scan_failed(p, MULTISET, 1);
    ps_scan_failed(p, ARRAY, 1);
    ps_leave(p);
    return t;
}

AstType *ps_type_ext(WSqlParser *p) { return ext_type(p, true); }
