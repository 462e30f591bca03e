/*
 * parse_match.c — the MATCH_RECOGNIZE clause after a table reference (Calcite's grammar):
 *
 *   MATCH_RECOGNIZE (
 *     [PARTITION BY expr, ...] [ORDER BY item, ...]
 *     [MEASURES expr AS name, ...]
 *     [ONE ROW PER MATCH | ALL ROWS PER MATCH [SHOW EMPTY MATCHES | OMIT EMPTY MATCHES |
 *                                              WITH UNMATCHED ROWS]]
 *     [AFTER MATCH SKIP {TO NEXT ROW | PAST LAST ROW | TO FIRST v | TO LAST v | TO v}]
 *     PATTERN ( [^] term {| term} [$] )  [WITHIN interval]
 *     [SUBSET name = (v, ...), ...]
 *     DEFINE v AS condition, ...
 *   ) [[AS] alias [(cols)]]
 *
 * Pattern terms: factors in sequence (left-nested concatenation as Calcite builds it), factors
 * are a variable, ( expr ), PERMUTE(...), {- expr -} with an optional quantifier * + ? {n}
 * {n,} {,m} {n,m}, each optionally reluctant (trailing ?). See ast_match.h. May call
 * parse_int.h helpers only.
 */
#include "parse_int.h"
#include "ast_match.h"
#include "parser.h"

#include <string.h>



static AstPattern *pat_new(WSqlParser *p, AstPatKind k, AstPos pos)
{
    AstPattern *x = WA_NEW(p->a, AstPattern);
    x->kind = k;
    x->pos = pos;
    return x;
}

static AstPattern *pat_expr(WSqlParser *p);

static AstPattern *pat_items(WSqlParser *p, AstPatKind k, AstPos pos, PsList *l)
{
    AstPattern *x = pat_new(p, k, pos);
    x->nitems = l->n;
    x->items = (AstPattern **)l->v;
    return x;
}

static bool pat_factor_start(WSqlParser *p)
{
    if (ps_at(p, 0, TK_LPAREN)) return true;
    if (ps_at(p, 0, TK_LBRACE) && ps_at(p, 1, TK_MINUS)) return true;
    if (ps_kw_at(p, 0, "PERMUTE")) return true;
    return ps_ident_at(p, 0);
}

static AstPattern *pat_primary(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    if (ps_accept(p, TK_LPAREN)) {
        AstPattern *in = pat_expr(p);
        ps_expect(p, TK_RPAREN);
        AstPattern *g = pat_new(p, APK_GROUP, pos);
        g->nitems = 1;
        g->items = WA_ARRAY(p->a, AstPattern *, 1);
        g->items[0] = in;
        return g;
    }
    if (ps_at(p, 0, TK_LBRACE) && ps_at(p, 1, TK_MINUS)) {
        ps_next(p);
        ps_next(p);
        AstPattern *in = pat_expr(p);
        ps_expect(p, TK_MINUS);
        ps_expect(p, TK_RBRACE);
        AstPattern *g = pat_new(p, APK_EXCLUDE, pos);
        g->nitems = 1;
        g->items = WA_ARRAY(p->a, AstPattern *, 1);
        g->items[0] = in;
        return g;
    }
    if (ps_accept_kw(p, "PERMUTE")) {
        ps_expect(p, TK_LPAREN);
        PsList l = {0};
        do ps_list_add(p, &l, pat_expr(p));
        while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        return pat_items(p, APK_PERMUTE, pos, &l);
    }
    AstPattern *v = pat_new(p, APK_VAR, pos);
    v->var = ps_ident(p);
    return v;
}

static AstPattern *pat_factor(WSqlParser *p)
{
    AstPattern *x = pat_primary(p);
    AstPos pos = ps_pos(p);
    int min, max;
    if (ps_accept(p, TK_STAR)) { min = 0; max = -1; }
    else if (ps_accept(p, TK_PLUS)) { min = 1; max = -1; }
    else if (ps_accept(p, TK_HOOK)) { min = 0; max = 1; }
    else if (ps_at(p, 0, TK_LBRACE) && !ps_at(p, 1, TK_MINUS)) {
        ps_next(p);
        if (ps_accept(p, TK_COMMA)) {
            min = 0;
            max = ps_uint(p);
        } else {
            min = ps_uint(p);
            if (ps_accept(p, TK_COMMA)) max = ps_is(p, TK_RBRACE) ? -1 : ps_uint(p);
            else max = min;
        }
        ps_expect(p, TK_RBRACE);
    } else {
        return x;
    }
    AstPattern *q = pat_new(p, APK_QUANT, pos);
    q->nitems = 1;
    q->items = WA_ARRAY(p->a, AstPattern *, 1);
    q->items[0] = x;
    q->min = min;
    q->max = max;
    q->reluctant = ps_accept(p, TK_HOOK);
    return q;
}

static AstPattern *pat_term(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    AstPattern *left = pat_factor(p);
    while (pat_factor_start(p)) {
        PsList l = {0};
        ps_list_add(p, &l, left);
        ps_list_add(p, &l, pat_factor(p));
        left = pat_items(p, APK_CONCAT, pos, &l);
    }
    return left;
}

static AstPattern *pat_expr(WSqlParser *p)
{
    ps_enter(p);
    AstPos pos = ps_pos(p);
    AstPattern *left = pat_term(p);
    while (ps_accept(p, TK_VERTICAL_BAR)) {
        PsList l = {0};
        ps_list_add(p, &l, left);
        ps_list_add(p, &l, pat_term(p));
        left = pat_items(p, APK_ALT, pos, &l);
    }
    ps_leave(p);
    return left;
}

static AstExpr **expr_list(WSqlParser *p, int *n)
{
    PsList l = {0};
    do ps_list_add(p, &l, ps_expr(p));
    while (ps_accept(p, TK_COMMA));
    *n = l.n;
    return (AstExpr **)l.v;
}

/* Called with the current token MATCH_RECOGNIZE; `input` is the table reference before it. */
AstFrom *ps_match_recognize(WSqlParser *p, AstFrom *input)
{
    ps_enter(p);
    AstFrom *f = WA_NEW(p->a, AstFrom);
    f->kind = AFR_MATCH;
    f->pos = input->pos;
    f->left = input;
    AstMatchRecognize *m = WA_NEW(p->a, AstMatchRecognize);
    f->match = m;
    m->pos = ps_pos(p);
    ps_expect_kw(p, "MATCH_RECOGNIZE");
    ps_expect(p, TK_LPAREN);
    if (ps_accept_kw(p, "PARTITION")) {
        ps_expect_kw(p, "BY");
        m->partition = expr_list(p, &m->npartition);
    }
    if (ps_accept_kw(p, "ORDER")) {
        ps_expect_kw(p, "BY");
        m->order = ps_order_list(p, &m->norder);
    }
    if (ps_accept_kw(p, "MEASURES")) {
        PsList le = {0}, ln = {0};
        do {
            ps_list_add(p, &le, ps_expr(p));
            ps_expect_kw(p, "AS");
            ps_list_add(p, &ln, ps_ident(p));
        } while (ps_accept(p, TK_COMMA));
        m->nmeasures = le.n;
        m->measures = (AstExpr **)le.v;
        m->measure_names = (char **)ln.v;
    }
    m->rows_pos = ps_pos(p);
    if (ps_accept_kw(p, "ONE")) {
        ps_expect_kw(p, "ROW");
        ps_expect_kw(p, "PER");
        ps_expect_kw(p, "MATCH");
    } else if (ps_accept_kw(p, "ALL")) {
        ps_expect_kw(p, "ROWS");
        ps_expect_kw(p, "PER");
        ps_expect_kw(p, "MATCH");
        m->all_rows = true;
        if (ps_accept_kw(p, "SHOW") || ps_accept_kw(p, "OMIT")) {
            ps_expect_kw(p, "EMPTY");
            ps_expect_kw(p, "MATCHES");
        } else if (ps_accept_kw(p, "WITH")) {
            ps_expect_kw(p, "UNMATCHED");
            ps_expect_kw(p, "ROWS");
        }
    }
    if (ps_accept_kw(p, "AFTER")) {
        ps_expect_kw(p, "MATCH");
        ps_expect_kw(p, "SKIP");
        if (ps_accept_kw(p, "PAST")) {
            ps_expect_kw(p, "LAST");
            ps_expect_kw(p, "ROW");
            m->after = AAM_PAST_LAST_ROW;
        } else {
            ps_expect_kw(p, "TO");
            if (ps_kw_at(p, 0, "NEXT") && ps_kw_at(p, 1, "ROW")) {
                ps_next(p);
                ps_next(p);
                m->after = AAM_TO_NEXT_ROW;
            } else if (ps_kw_at(p, 0, "FIRST") && ps_ident_at(p, 1)) {
                ps_next(p);
                m->after = AAM_TO_FIRST;
                m->after_var = ps_ident(p);
            } else if (ps_kw_at(p, 0, "LAST") && ps_ident_at(p, 1)) {
                ps_next(p);
                m->after = AAM_TO_LAST;
                m->after_var = ps_ident(p);
            } else {
                /* SKIP TO v is SKIP TO LAST v */
                m->after = AAM_TO_LAST;
                m->after_var = ps_ident(p);
            }
        }
    }
    ps_expect_kw(p, "PATTERN");
    ps_expect(p, TK_LPAREN);
    m->strict_start = ps_accept(p, TK_CARET);
    m->pattern = pat_expr(p);
    m->strict_end = ps_accept(p, TK_DOLLAR);
    ps_expect(p, TK_RPAREN);
    if (ps_accept_kw(p, "WITHIN")) m->within = ps_expr(p);
    if (ps_accept_kw(p, "SUBSET")) {
        PsList ln = {0}, lc = {0}, lv = {0};
        do {
            ps_list_add(p, &ln, ps_ident(p));
            ps_expect(p, TK_EQ);
            ps_expect(p, TK_LPAREN);
            PsList vs = {0};
            do ps_list_add(p, &vs, ps_ident(p));
            while (ps_accept(p, TK_COMMA));
            ps_expect(p, TK_RPAREN);
            int *c = WA_NEW(p->a, int);
            *c = vs.n;
            ps_list_add(p, &lc, c);
            ps_list_add(p, &lv, vs.v);
        } while (ps_accept(p, TK_COMMA));
        m->nsubsets = ln.n;
        m->subset_names = (char **)ln.v;
        m->subset_nvars = WA_ARRAY(p->a, int, ln.n);
        for (int i = 0; i < ln.n; i++) m->subset_nvars[i] = *(int *)lc.v[i];
        m->subset_vars = (char ***)lv.v;
    }
    ps_expect_kw(p, "DEFINE");
    {
        PsList ln = {0}, le = {0};
        do {
            ps_list_add(p, &ln, ps_ident(p));
            ps_expect_kw(p, "AS");
            ps_list_add(p, &le, ps_expr(p));
        } while (ps_accept(p, TK_COMMA));
        m->ndefines = ln.n;
        m->define_names = (char **)ln.v;
        m->defines = (AstExpr **)le.v;
    }
    ps_expect(p, TK_RPAREN);
    ps_leave(p);
    return f;
}
