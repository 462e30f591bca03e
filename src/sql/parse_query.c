/*
 * parse_query.c — queries: WITH, SELECT, VALUES, set operations, FROM items and joins, hints,
 * GROUP BY (incl. GROUPING SETS / ROLLUP / CUBE), WINDOW, ORDER BY / LIMIT / OFFSET / FETCH.
 *
 * Contract: INTERSECT binds tighter than UNION/EXCEPT (all left-associative); joins, including
 * comma joins, are left-associative. ORDER BY and the row limits attach to the query they follow;
 * when that query already has its own (a parenthesised one), it is wrapped in SELECT * FROM (..).
 * Hints are accepted right after SELECT and after a table name (as Flink allows). Depends on
 * parse_int.h.
 */
#include "parse_int.h"

#include <string.h>

static AstQuery *query_body(WSqlParser *p);
static AstFrom *from_clause(WSqlParser *p);

static AstQuery *new_query(WSqlParser *p, AstQueryKind k, AstPos pos)
{
    AstQuery *q = WA_NEW(p->a, AstQuery);
    q->kind = k;
    q->pos = pos;
    return q;
}

static AstFrom *new_from(WSqlParser *p, AstFromKind k, AstPos pos)
{
    AstFrom *f = WA_NEW(p->a, AstFrom);
    f->kind = k;
    f->pos = pos;
    return f;
}

/* SELECT * FROM (inner) — used to keep ORDER BY / LIMIT / WITH levels apart */
static AstQuery *wrap(WSqlParser *p, AstQuery *inner)
{
    AstQuery *q = new_query(p, AQ_SELECT, inner->pos);
    q->nitems = 1;
    q->items = WA_ARRAY(p->a, AstSelectItem, 1);
    q->items[0].expr = ps_new_expr(p, AE_STAR, inner->pos);
    q->from = new_from(p, AFR_SUBQUERY, inner->pos);
    q->from->subquery = inner;
    return q;
}

/* ---- hints ---- */

/* one literal of a hint's literal list (Calcite: a numeric or string literal) */
static AstHintOption hint_literal(WSqlParser *p)
{
    AstHintOption o = {0};
    WSqlToken *t = ps_cur(p);
    if (t->kind == TK_STRING || t->kind == TK_USTRING || t->kind == TK_BINSTRING) {
        o.value = ps_string_plain(p);
    } else if (t->kind == TK_INTEGER || t->kind == TK_DECIMAL || t->kind == TK_APPROX) {
        o.value = t->val;
        ps_next(p);
    } else {
        static const char *const LITS[] = {
            "\"DECIMAL\"", "<UNSIGNED_INTEGER_LITERAL>", "<APPROX_NUMERIC_LITERAL>",
            "<DECIMAL_NUMERIC_LITERAL>", "<BINARY_STRING_LITERAL>", "<QUOTED_STRING>",
            "<PREFIXED_STRING_LITERAL>", "<UNICODE_STRING_LITERAL>", "<C_STYLE_ESCAPED_STRING_LITERAL>",
            "<BIG_QUERY_DOUBLE_QUOTED_STRING>", "<BIG_QUERY_QUOTED_STRING>", "\"+\"", "\"-\"",
        };
        for (size_t i = 0; i < sizeof LITS / sizeof LITS[0]; i++) ps_note_image(p, LITS[i]);
        ps_fail(p);
    }
    return o;
}

AstHints ps_hints_opt(WSqlParser *p)
{
    AstHints h = {0};
    if (!ps_accept(p, TK_HINT_BEG)) return h;
    PsList items = {0};
    do {
        AstHint *hint = WA_NEW(p->a, AstHint);
        hint->pos = ps_pos(p);
        hint->name = ps_ident(p);
        if (!ps_is(p, TK_LPAREN)) {
            /* no options: "(" was expected too */
        } else {
            /* Calcite's choice: key = value pairs, a literal list (both decided by scans), else a
               list of names */
            int lparen = p->pos;
            bool kv = ps_hint_kv_ahead(p);
            bool names = !kv && ps_hint_names_ahead(p);
            bool lits = !kv && !names && ps_hint_literals_ahead(p);
            if (!kv && !names && !lits) p->hint_pos = lparen;   /* only "( )" is left */
            ps_next(p);
            PsList opts = {0};
            hint->kv = kv;
            if (kv || names || lits) {
                do {
                    AstHintOption *o = WA_NEW(p->a, AstHintOption);
                    if (kv) {
                        if (ps_is_string(p)) o->key = ps_string_plain(p);
                        else o->key = ps_ident(p);
                        ps_expect(p, TK_EQ);
                        o->value = ps_string(p);   /* Calcite's string literal: more fragments, UESCAPE */
                    } else if (lits) {
                        *o = hint_literal(p);
                    } else {
                        o->value = ps_ident(p);
                    }
                    ps_list_add(p, &opts, o);
                } while (ps_accept(p, TK_COMMA));
            }
            ps_expect(p, TK_RPAREN);
            hint->nopts = opts.n;
            hint->opts = WA_ARRAY(p->a, AstHintOption, opts.n);
            for (int i = 0; i < opts.n; i++) hint->opts[i] = *(AstHintOption *)opts.v[i];
        }
        ps_list_add(p, &items, hint);
    } while (ps_accept(p, TK_COMMA));
    ps_expect(p, TK_COMMENT_END);
    h.n = items.n;
    h.items = WA_ARRAY(p->a, AstHint, items.n);
    for (int i = 0; i < items.n; i++) h.items[i] = *(AstHint *)items.v[i];
    return h;
}

/* ---- FROM ---- */

static void alias_opt(WSqlParser *p, AstFrom *f)
{
    /* Calcite's table reference may go on with these (weir has neither) */
    (void)ps_is_kw(p, "OUTER");
    (void)ps_is_kw(p, "TABLESAMPLE");
    if (ps_accept_kw(p, "AS")) {
        f->alias = ps_ident(p);
    } else if (ps_is_ident(p)) {
        f->alias = ps_ident(p);
    } else {
        return;
    }
    (void)ps_is_kw(p, "OUTER");
    (void)ps_is_kw(p, "TABLESAMPLE");
    if (ps_accept(p, TK_LPAREN)) {
        PsList l = {0};
        do ps_list_add(p, &l, ps_ident(p));
        while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        f->ncol_aliases = l.n;
        f->col_aliases = (char **)l.v;
    }
}

/* TABLE ( f(args) ) */
static AstExpr *table_function_call(WSqlParser *p)
{
    ps_expect_kw(p, "TABLE");
    ps_expect(p, TK_LPAREN);
    AstExpr *call = ps_expr(p);
    if (call->kind != AE_FUNC)
        ps_fail_at(p, ps_cur(p), "A table function call is expected inside TABLE(...) at line %d, column %d.",
                   call->pos.line, call->pos.col);
    /* Calcite reads a plain named call here: no operator, OVER or FILTER may follow it */
    if (p->exp_pos == p->pos) p->nexp = 0;
    p->cont_pos = -1;
    ps_expect(p, TK_RPAREN);
    return call;
}

AstFrom *ps_table_ref_simple(WSqlParser *p)
{
    AstFrom *f = new_from(p, AFR_TABLE, ps_pos(p));
    f->name = ps_compound(p);
    f->hints = ps_hints_opt(p);
    return f;
}

/* name.name...( : a qualified function call */
static bool call_ahead(WSqlParser *p)
{
    int k = 0;
    while (ps_ident_at(p, k) && ps_at(p, k + 1, TK_DOT)) k += 2;
    return ps_ident_at(p, k) && ps_at(p, k + 1, TK_LPAREN);
}

static AstFrom *table_ref(WSqlParser *p)
{
    ps_enter(p);
    AstPos pos = ps_pos(p);
    AstFrom *f;
    if (ps_is_kw(p, "LATERAL")) {
        ps_next(p);
        if (ps_is_kw(p, "TABLE")) {
            f = new_from(p, AFR_LATERAL, pos);
            f->call = table_function_call(p);
        } else if (ps_kw_at(p, 0, "UNNEST")) {
            /* LATERAL UNNEST(...): UNNEST is lateral already */
            ps_leave(p);
            return table_ref(p);
        } else {
            static const char *const LATERAL_UNNEST[] = {"\"UNNEST\""};   /* decided by a scan */
            ps_lookahead_tokens(p, LATERAL_UNNEST, 1);
            ps_expect(p, TK_LPAREN);
            f = new_from(p, AFR_SUBQUERY, pos);
            f->subquery = ps_query(p);
            ps_expect(p, TK_RPAREN);
        }
    } else if (ps_is_kw(p, "TABLE")) {
        f = new_from(p, AFR_TVF, pos);
        f->call = table_function_call(p);
    } else if (ps_kw_at(p, 0, "UNNEST")) {
        ps_next(p);
        f = new_from(p, AFR_UNNEST, pos);
        ps_expect(p, TK_LPAREN);
        AstExpr *first = ps_expr(p);
        if (ps_at(p, 0, TK_COMMA)) {
            AstExpr *call = ps_new_expr(p, AE_FUNC, first->pos);
            call->name.n = 1;
            call->name.parts = WA_ARRAY(p->a, char *, 1);
            call->name.parts[0] = "UNNEST";
            PsList l = {0};
            ps_list_add(p, &l, first);
            while (ps_accept(p, TK_COMMA)) ps_list_add(p, &l, ps_expr(p));
            call->nargs = l.n;
            call->args = (AstExpr **)l.v;
            first = call;
        }
        f->call = first;
        ps_expect(p, TK_RPAREN);
        if (ps_accept_kw(p, "WITH")) {
            ps_expect_kw(p, "ORDINALITY");
            f->with_ordinality = true;
        }
    } else if (ps_at(p, 0, TK_LPAREN)) {
        if (ps_is_query_start(p, 1)) {
            ps_next(p);
            f = new_from(p, AFR_SUBQUERY, pos);
            f->subquery = ps_query(p);
            ps_expect(p, TK_RPAREN);
        } else {
            ps_next(p);
            f = from_clause(p);
            ps_expect(p, TK_RPAREN);
            ps_leave(p);
            return f;   /* a parenthesised join takes no alias here */
        }
    } else if (ps_ident_at(p, 0) && (ps_at(p, 1, TK_LPAREN) || (ps_at(p, 1, TK_DOT) && call_ahead(p)))) {
        /* a table function called without TABLE(...) (process table functions) */
        f = new_from(p, AFR_TVF, pos);
        f->call = ps_expr(p);
        if (f->call->kind != AE_FUNC) ps_fail(p);
    } else {
        f = new_from(p, AFR_TABLE, pos);
        if (!ps_ident_at(p, 0)) {
            /* Calcite decides between a table name, a parenthesized query or join and UNNEST by
               lookahead: those are its scans here */
            static const char *const STARTS[] = {
                "<IDENTIFIER>", "<HYPHENATED_IDENTIFIER>", "<QUOTED_IDENTIFIER>", "<BACK_QUOTED_IDENTIFIER>",
                "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>", "<BRACKET_QUOTED_IDENTIFIER>",
                "<UNICODE_QUOTED_IDENTIFIER>", "\"(\"", "\"UNNEST\"",
            };
            ps_lookahead_tokens(p, STARTS, (int)(sizeof STARTS / sizeof STARTS[0]));
            ps_fail(p);
        }
        f->name = ps_compound(p);
        int after_name = p->pos;
        f->hints = ps_hints_opt(p);
        (void)ps_is_kw(p, "EXTEND");
        (void)ps_is(p, TK_LPAREN);
        /* the scans after a table name; the compound name's `"." name` scan only right after it
           (not after hints, measured) */
        static const char *const AFTER_NAME[] = {"\"MATCH_RECOGNIZE\"", "\".\"", "\"PIVOT\"", "\"UNPIVOT\""};
        static const char *const AFTER_HINTS[] = {"\"MATCH_RECOGNIZE\"", "\"PIVOT\"", "\"UNPIVOT\""};
        if (p->pos == after_name) ps_lookahead_tokens(p, AFTER_NAME, 4);
        else ps_lookahead_tokens(p, AFTER_HINTS, 3);
        if (ps_accept_kw(p, "FOR")) {
            ps_expect_kw(p, "SYSTEM_TIME");
            ps_expect_kw(p, "AS");
            ps_expect_kw(p, "OF");
            f->system_time = ps_expr(p);
        }
    }
    if (ps_kw_at(p, 0, "MATCH_RECOGNIZE")) f = ps_match_recognize(p, f);   /* parse_match.c */
    alias_opt(p, f);
    ps_leave(p);
    return f;
}

static AstFrom *join(WSqlParser *p, AstFrom *left, AstJoinType jt, bool natural, AstPos pos)
{
    (void)pos;
    AstFrom *j = new_from(p, AFR_JOIN, left->pos);   /* a node starts at its first token */
    j->join_type = jt;
    j->natural = natural;
    j->left = left;
    j->right = table_ref(p);
    if (jt == AJ_COMMA || jt == AJ_CROSS) return j;
    if (ps_accept_kw(p, "ON")) {
        j->on = ps_expr(p);
    } else if (ps_accept_kw(p, "USING")) {
        ps_expect(p, TK_LPAREN);
        PsList l = {0};
        do ps_list_add(p, &l, ps_ident(p));
        while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        j->nusing = l.n;
        j->using_cols = (char **)l.v;
    }
    /* without a condition Calcite's grammar goes on; its validator refuses the join (binder) */
    return j;
}

static AstFrom *from_clause(WSqlParser *p)
{
    static const char *const JOIN_KWS[] = {"NATURAL", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER"};
    AstFrom *left = table_ref(p);
    for (;;) {
        AstPos pos = ps_pos(p);
        /* Calcite's loop: entered at "," or a join keyword; inside, the choice decides by its scans
           (parse_lookahead.c) and fails at the token it entered at when none accepts */
        bool kw = false;
        for (size_t i = 0; i < sizeof JOIN_KWS / sizeof JOIN_KWS[0] && !kw; i++) kw = ps_kw_at(p, 0, JOIN_KWS[i]);
        if (ps_at(p, 0, TK_COMMA)) {
            if (ps_from_comma_ahead(p)) {
                ps_next(p);
                left = join(p, left, AJ_COMMA, false, pos);
                continue;
            }
            for (size_t i = 0; i < sizeof JOIN_KWS / sizeof JOIN_KWS[0]; i++) ps_note(p, JOIN_KWS[i], true, 0);
            p->join_pos = p->pos;
            p->join_kw = false;
            ps_fail(p);
        }
        if (!kw) {
            /* the loop ends: its first tokens were expected here */
            (void)ps_is(p, TK_COMMA);
            for (size_t i = 0; i < sizeof JOIN_KWS / sizeof JOIN_KWS[0]; i++) (void)ps_is_kw(p, JOIN_KWS[i]);
            break;
        }
        if (!ps_join_ahead(p)) {
            p->join_pos = p->pos;
            p->join_kw = true;
            if (ps_kw_at(p, 0, "CROSS") || ps_kw_at(p, 0, "OUTER")) {
                ps_next(p);
                ps_expect_kw(p, "APPLY");
                /* Calcite's grammar action under Flink's conformance */
                ps_fail_calcite(p, ps_peek(p, -1), "APPLY operator is not allowed under the current SQL conformance level");
            }
            ps_note(p, "CROSS", true, 0);
            ps_note(p, "OUTER", true, 0);
            ps_fail(p);
        }
        bool natural = ps_accept_kw(p, "NATURAL");
        AstJoinType jt;
        if (ps_accept_kw(p, "JOIN")) jt = AJ_INNER;
        else if (ps_accept_kw(p, "INNER")) { ps_expect_kw(p, "JOIN"); jt = AJ_INNER; }
        else if (ps_accept_kw(p, "LEFT")) { ps_accept_kw(p, "OUTER"); ps_expect_kw(p, "JOIN"); jt = AJ_LEFT; }
        else if (ps_accept_kw(p, "RIGHT")) { ps_accept_kw(p, "OUTER"); ps_expect_kw(p, "JOIN"); jt = AJ_RIGHT; }
        else if (ps_accept_kw(p, "FULL")) { ps_accept_kw(p, "OUTER"); ps_expect_kw(p, "JOIN"); jt = AJ_FULL; }
        else { ps_expect_kw(p, "CROSS"); ps_expect_kw(p, "JOIN"); jt = AJ_CROSS; }
        left = join(p, left, jt, natural, pos);
    }
    return left;
}

/* ---- SELECT ---- */

static AstExpr **expr_list(WSqlParser *p, int *n)
{
    PsList l = {0};
    do ps_list_add(p, &l, ps_expr(p));
    while (ps_accept(p, TK_COMMA));
    *n = l.n;
    return (AstExpr **)l.v;
}

/* one grouping set: () or (a, b) or a */
static void grouping_set(WSqlParser *p, PsList *sizes, PsList *sets)
{
    int *sz = WA_NEW(p->a, int);
    AstExpr **items = NULL;
    if (ps_at(p, 0, TK_LPAREN) && ps_at(p, 1, TK_RPAREN)) {
        ps_next(p);
        ps_next(p);
        *sz = 0;
    } else if ((ps_kw_at(p, 0, "ROLLUP") || ps_kw_at(p, 0, "CUBE")) && ps_at(p, 1, TK_LPAREN)) {
        /* ROLLUP(...) / CUBE(...) as one element of GROUPING SETS: a call the binder expands */
        AstExpr *f = ps_new_expr(p, AE_FUNC, ps_pos(p));
        f->name.n = 1;
        f->name.parts = WA_ARRAY(p->a, char *, 1);
        f->name.parts[0] = wa_strdup(p->a, ps_kw_at(p, 0, "CUBE") ? "CUBE" : "ROLLUP");
        ps_next(p);
        ps_expect(p, TK_LPAREN);
        f->args = expr_list(p, &f->nargs);
        ps_expect(p, TK_RPAREN);
        *sz = 1;
        items = WA_ARRAY(p->a, AstExpr *, 1);
        items[0] = f;
    } else {
        AstExpr *e = ps_expr_item(p);
        if (e->kind == AE_ROW) {
            *sz = e->nargs;
            items = e->args;
        } else {
            *sz = 1;
            items = WA_ARRAY(p->a, AstExpr *, 1);
            items[0] = e;
        }
    }
    ps_list_add(p, sizes, sz);
    ps_list_add(p, sets, items);
}

static AstGroupItem *group_item(WSqlParser *p)
{
    AstGroupItem *g = WA_NEW(p->a, AstGroupItem);
    AstGroupKind k = AG_EXPR;
    (void)ps_is_kw(p, "CUBE");
    (void)ps_is_kw(p, "ROLLUP");
    if (ps_kw_at(p, 0, "GROUPING") && ps_kw_at(p, 1, "SETS")) {
        ps_next(p);
        ps_next(p);
        k = AG_GROUPING_SETS;
    } else if (ps_kw_at(p, 0, "ROLLUP")) {   /* reserved words: "(" must follow (Flink's message) */
        ps_next(p);
        k = AG_ROLLUP;
    } else if (ps_kw_at(p, 0, "CUBE")) {
        ps_next(p);
        k = AG_CUBE;
    }
    g->kind = k;
    if (k == AG_EXPR) {
        if (ps_at(p, 0, TK_LPAREN) && ps_at(p, 1, TK_RPAREN)) {
            /* () : the empty grouping set */
            ps_next(p);
            ps_next(p);
            g->kind = AG_GROUPING_SETS;
            g->nsets = 1;
            g->set_sizes = WA_ARRAY(p->a, int, 1);
            g->sets = WA_ARRAY(p->a, AstExpr **, 1);
            return g;
        }
        g->expr = ps_expr_item(p);
        return g;
    }
    ps_expect(p, TK_LPAREN);
    PsList sizes = {0}, sets = {0};
    do grouping_set(p, &sizes, &sets);
    while (ps_list_comma(p, k == AG_GROUPING_SETS));   /* LOOKAHEAD(2), as GROUP BY's own list */
    ps_expect(p, TK_RPAREN);
    g->nsets = sets.n;
    g->sets = (AstExpr ***)sets.v;
    g->set_sizes = WA_ARRAY(p->a, int, sets.n);
    for (int i = 0; i < sets.n; i++) g->set_sizes[i] = *(int *)sizes.v[i];
    return g;
}

static AstQuery *select_query(WSqlParser *p)
{
    AstQuery *q = new_query(p, AQ_SELECT, ps_pos(p));
    ps_expect_kw(p, "SELECT");
    q->hints = ps_hints_opt(p);
    (void)ps_is_kw(p, "STREAM");
    if (ps_accept_kw(p, "DISTINCT")) q->distinct = true;
    else ps_accept_kw(p, "ALL");
    PsList items = {0};
    do {
        AstSelectItem *it = WA_NEW(p->a, AstSelectItem);
        if (ps_is(p, TK_STAR)) {
            it->expr = ps_new_expr(p, AE_STAR, ps_pos(p));
            ps_next(p);
        } else {
            it->expr = ps_expr_item(p);
            if (it->expr->kind != AE_STAR) {
                if (ps_accept_kw(p, "AS")) {
                    (void)ps_is(p, TK_STRING);
                    it->alias = ps_ident(p);
                }
                else if (ps_is_ident(p)) it->alias = ps_ident(p);
                else (void)ps_is(p, TK_STRING);   /* Calcite's grammar takes a string alias too */
            }
        }
        ps_list_add(p, &items, it);
    } while (ps_accept(p, TK_COMMA));
    q->nitems = items.n;
    q->items = WA_ARRAY(p->a, AstSelectItem, items.n);
    for (int i = 0; i < items.n; i++) q->items[i] = *(AstSelectItem *)items.v[i];
    /* as in Calcite's grammar, WHERE, GROUP BY, HAVING, WINDOW and QUALIFY follow only a FROM clause */
    if (!ps_accept_kw(p, "FROM")) return q;
    q->from = from_clause(p);
    if (ps_accept_kw(p, "WHERE")) q->where = ps_expr(p);
    if (ps_is_kw(p, "GROUP")) {
        ps_next(p);
        ps_expect_kw(p, "BY");
        if (!ps_accept_kw(p, "DISTINCT")) ps_accept_kw(p, "ALL");
        PsList g = {0};
        do ps_list_add(p, &g, group_item(p));
        while (ps_list_comma(p, true));
        q->ngroup = g.n;
        q->group = WA_ARRAY(p->a, AstGroupItem, g.n);
        for (int i = 0; i < g.n; i++) q->group[i] = *(AstGroupItem *)g.v[i];
    }
    if (ps_accept_kw(p, "HAVING")) q->having = ps_expr(p);
    if (ps_accept_kw(p, "WINDOW")) {
        PsList w = {0};
        do {
            AstNamedWindow *nw = WA_NEW(p->a, AstNamedWindow);
            nw->name = ps_ident(p);
            ps_expect_kw(p, "AS");
            nw->spec = WA_NEW(p->a, AstOver);
            nw->spec->pos = ps_pos(p);
            ps_expect(p, TK_LPAREN);
            ps_over_spec(p, nw->spec);
            ps_expect(p, TK_RPAREN);
            ps_list_add(p, &w, nw);
        } while (ps_accept(p, TK_COMMA));
        q->nwindows = w.n;
        q->windows = WA_ARRAY(p->a, AstNamedWindow, w.n);
        for (int i = 0; i < w.n; i++) q->windows[i] = *(AstNamedWindow *)w.v[i];
    }
    if (ps_accept_kw(p, "QUALIFY")) q->qualify = ps_expr(p);
    return q;
}

static AstQuery *values_query(WSqlParser *p)
{
    AstQuery *q = new_query(p, AQ_VALUES, ps_pos(p));
    ps_expect_kw(p, "VALUES");
    PsList l = {0};
    do {
        p->values_row_pos = p->pos;   /* a row constructor here takes DEFAULT items (parse_expr.c) */
        ps_list_add(p, &l, ps_expr(p));
    } while (ps_accept(p, TK_COMMA));
    q->nrows = l.n;
    q->rows = (AstExpr **)l.v;
    return q;
}

static AstQuery *query_leaf(WSqlParser *p)
{
    ps_enter(p);
    AstQuery *q;
    AstPos pos = ps_pos(p);
    if (ps_is_kw(p, "SELECT")) q = select_query(p);
    else if (ps_is_kw(p, "VALUES")) q = values_query(p);
    else if (ps_is_kw(p, "TABLE")) {
        ps_next(p);
        q = new_query(p, AQ_SELECT, pos);
        q->nitems = 1;
        q->items = WA_ARRAY(p->a, AstSelectItem, 1);
        q->items[0].expr = ps_new_expr(p, AE_STAR, pos);
        q->from = new_from(p, AFR_TABLE, ps_pos(p));
        q->from->name = ps_compound(p);
    } else if (ps_is(p, TK_LPAREN)) {
        ps_next(p);
        q = ps_query(p);
        ps_expect(p, TK_RPAREN);
    } else {
        (void)ps_is_kw(p, "VALUE");
        /* Calcite parses a query or an expression here (LeafQueryOrExpr) */
        p->sorted_start_pos = p->pos;
        ps_note_operand_start(p);
        ps_fail(p);
    }
    ps_leave(p);
    return q;
}

static AstQuery *query_term(WSqlParser *p)
{
    AstQuery *left = query_leaf(p);
    while (ps_is_kw(p, "INTERSECT")) {
        AstQuery *s = new_query(p, AQ_SETOP, left->pos);
        ps_next(p);
        s->setop = ASO_INTERSECT;
        if (ps_accept_kw(p, "ALL")) s->all = true;
        else ps_accept_kw(p, "DISTINCT");
        s->left = left;
        s->right = query_leaf(p);
        left = s;
    }
    return left;
}

static AstQuery *query_body(WSqlParser *p)
{
    AstQuery *left = query_term(p);
    for (;;) {
        AstSetOp op;
        if (ps_is_kw(p, "UNION")) op = ASO_UNION;
        else if (ps_is_kw(p, "EXCEPT") || ps_is_kw(p, "MINUS")) op = ASO_EXCEPT;
        else break;
        AstQuery *s = new_query(p, AQ_SETOP, left->pos);
        ps_next(p);
        s->setop = op;
        if (ps_accept_kw(p, "ALL")) s->all = true;
        else ps_accept_kw(p, "DISTINCT");
        s->left = left;
        s->right = query_term(p);
        left = s;
    }
    return left;
}

static AstExpr *limit_value(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    /* Calcite's grammar reads an unsigned numeric literal here (weir: an integer) */
    static const char *const NUM[] = {"\"DECIMAL\"", "<APPROX_NUMERIC_LITERAL>", "<DECIMAL_NUMERIC_LITERAL>"};
    for (size_t i = 0; i < sizeof NUM / sizeof NUM[0]; i++) ps_note_image(p, NUM[i]);
    if (ps_is(p, TK_INTEGER)) {
        AstExpr *e = ps_new_expr(p, AE_LITERAL, pos);
        e->lit = AL_INTEGER;
        e->text = ps_cur(p)->val;
        ps_next(p);
        return e;
    }
    if (ps_accept(p, TK_HOOK)) return ps_new_expr(p, AE_PARAM, pos);
    ps_fail(p);
}

AstQuery *ps_query(WSqlParser *p)
{
    ps_enter(p);
    AstPos pos = ps_pos(p);
    PsList ctes = {0};
    if (ps_accept_kw(p, "WITH")) {
        ps_accept_kw(p, "RECURSIVE");
        do {
            AstCte *c = WA_NEW(p->a, AstCte);
            c->pos = ps_pos(p);
            c->name = ps_ident(p);
            if (ps_accept(p, TK_LPAREN)) {
                PsList cols = {0};
                do ps_list_add(p, &cols, ps_ident(p));
                while (ps_accept(p, TK_COMMA));
                ps_expect(p, TK_RPAREN);
                c->ncols = cols.n;
                c->cols = (char **)cols.v;
            }
            ps_expect_kw(p, "AS");
            ps_expect(p, TK_LPAREN);
            c->query = ps_query(p);
            ps_expect(p, TK_RPAREN);
            ps_list_add(p, &ctes, c);
        } while (ps_accept(p, TK_COMMA));
    }
    AstQuery *q = query_body(p);
    int norder = 0;
    AstOrderItem *order = NULL;
    AstExpr *limit = NULL, *offset = NULL;
    if (ps_is_kw(p, "ORDER")) {
        ps_next(p);
        ps_expect_kw(p, "BY");
        order = ps_order_list(p, &norder);
    }
    if (ps_accept_kw(p, "LIMIT")) {
        if (!ps_accept_kw(p, "ALL")) {
            limit = limit_value(p);
            (void)ps_is(p, TK_COMMA);
            if (ps_at(p, 0, TK_COMMA))
                ps_fail_at(p, ps_cur(p), "LIMIT start, count is not allowed under the current SQL conformance level");
        }
    }
    if (ps_accept_kw(p, "OFFSET")) {
        offset = limit_value(p);
        if (!ps_accept_kw(p, "ROWS")) ps_accept_kw(p, "ROW");
    }
    if (!limit && ps_accept_kw(p, "FETCH")) {
        if (!ps_accept_kw(p, "FIRST")) ps_expect_kw(p, "NEXT");
        limit = limit_value(p);
        if (!ps_accept_kw(p, "ROWS")) ps_expect_kw(p, "ROW");
        ps_expect_kw(p, "ONLY");
    }
    if (norder || limit || offset) {
        if (q->norder || q->limit || q->offset || q->nctes) q = wrap(p, q);
        q->norder = norder;
        q->order = order;
        q->limit = limit;
        q->offset = offset;
    }
    if (ctes.n) {
        if (q->nctes) q = wrap(p, q);
        q->nctes = ctes.n;
        q->ctes = WA_ARRAY(p->a, AstCte, ctes.n);
        for (int i = 0; i < ctes.n; i++) q->ctes[i] = *(AstCte *)ctes.v[i];
        q->pos = pos;
    }
    ps_leave(p);
    return q;
}
