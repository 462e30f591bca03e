/*
 * bind_match.c — binds MATCH_RECOGNIZE (ast_match.h) into a WR_MATCH node (match_spec.h), with
 * Flink's checks and messages:
 *   ORDER BY        the first key a time attribute ("You must specify either rowtime or proctime
 *                   for order by[ as the first one].", "Primary sort order of a streaming table
 *                   must be ascending on time.");
 *   PATTERN         variables with quantifiers in sequence (StreamExecMatch's PatternVisitor:
 *                   groups, alternation, PERMUTE and {- -} refused; unique variables; no
 *                   reluctant optional; not all optional; no greedy quantifier last);
 *   ALL ROWS        "All rows per match mode is not supported yet.";
 *   DEFINE/MEASURES navigation (A.col, PREV(x, 0), FIRST/LAST(x, n)), aggregates over one
 *                   variable, MATCH_ROWTIME(), MATCH_PROCTIME(); PREV with an offset is refused
 *                   ("Flink does not support physical offsets within partition.").
 * A DEFINE / MEASURES expression is rewritten: every navigation subtree becomes a reference
 * column ($mr<k>) of a one-row scope, and the rest binds as any expression over that scope.
 * May call bind_internal.h, match_spec.h, plan.h, sql/ast_match.h.
 */
#include "bind_match.h"
#include "match_spec.h"
#include "../sql/ast_match.h"
#include "../common/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct MB {
    BindCtx *b;
    WPlanCtx *p;
    WArena *a;
    WRel *in;
    BScope *in_scope;
    WMatchSpec *ms;
    /* the program being built */
    bool define;                /* DEFINE (else MEASURES) */
    int nrefs, cap;
    WMatchRef *refs;
    BScope scope;
    bool failed;
} MB;

static void *fail_at(MB *m, AstPos pos, const char *cls, const char *msg)
{
    if (!m->failed) {
        if (pos.line > 0) werr_set_at(m->p->err, pos.line, pos.col, cls, "%s", msg);
        else werr_set(m->p->err, cls, "%s", msg);
    }
    m->failed = true;
    return NULL;
}

static int var_index(const WMatchSpec *ms, const char *name)
{
    for (int i = 0; i < ms->nvars; i++)
        if (strcmp(ms->vars[i], name) == 0) return i;
    return -1;
}

/* ---- pattern ---- */

static void pattern_text(WStrBuf *s, const AstPattern *x)
{
    switch (x->kind) {
    case APK_VAR: wsb_printf(s, "_UTF-16LE'%s'", x->var); break;
    case APK_GROUP: pattern_text(s, x->items[0]); break;
    case APK_QUANT:
        wsb_append(s, "PATTERN_QUANTIFIER(");
        pattern_text(s, x->items[0]);
        wsb_printf(s, ", %d, %d, %s)", x->min, x->max, x->reluctant ? "true" : "false");
        break;
    case APK_CONCAT: case APK_ALT: case APK_PERMUTE: case APK_EXCLUDE:
        wsb_append(s, x->kind == APK_ALT ? "|(" : x->kind == APK_PERMUTE ? "PATTERN_PERMUTE("
                      : x->kind == APK_EXCLUDE ? "PATTERN_EXCLUDE(" : "(");
        for (int i = 0; i < x->nitems; i++) {
            if (i) wsb_append(s, ", ");
            pattern_text(s, x->items[i]);
        }
        wsb_putc(s, ')');
        break;
    }
}

static char *ptext(MB *m, const AstPattern *x)
{
    WStrBuf s;
    wsb_init(&s);
    pattern_text(&s, x);
    char *r = wa_strdup(m->a, s.buf);
    wsb_free(&s);
    return r;
}

static const AstPattern *ungroup(const AstPattern *x)
{
    while (x->kind == APK_GROUP) x = x->items[0];
    return x;
}

/* Flink's PatternVisitor over the (ungrouped) pattern: elements in order. */
static bool collect_elems(MB *m, const AstPattern *x, WMatchElem *out, int *n, const char **vars)
{
    x = ungroup(x);
    char msg[1024];
    switch (x->kind) {
    case APK_CONCAT:
        return collect_elems(m, x->items[0], out, n, vars) && collect_elems(m, x->items[1], out, n, vars);
    case APK_ALT:
        snprintf(msg, sizeof msg, "Expression not supported: %s. Currently, CEP doesn't support branching patterns.", ptext(m, x));
        return fail_at(m, (AstPos){0}, WEXC_TABLE, msg), false;
    case APK_PERMUTE:
        snprintf(msg, sizeof msg, "Expression not supported: %s. Currently, CEP doesn't support PERMUTE patterns.", ptext(m, x));
        return fail_at(m, (AstPos){0}, WEXC_TABLE, msg), false;
    case APK_EXCLUDE:
        snprintf(msg, sizeof msg, "Expression not supported: %s. Currently, CEP doesn't support '{-' '-}' patterns.", ptext(m, x));
        return fail_at(m, (AstPos){0}, WEXC_TABLE, msg), false;
    case APK_GROUP:
        return false;
    case APK_VAR:
    case APK_QUANT: {
        const AstPattern *v = x->kind == APK_QUANT ? ungroup(x->items[0]) : x;
        if (v->kind != APK_VAR) {
            snprintf(msg, sizeof msg, "Expression not supported: %s Group patterns are not supported yet.", ptext(m, v));
            return fail_at(m, (AstPos){0}, WEXC_TABLE, msg), false;
        }
        for (int i = 0; i < *n; i++)
            if (strcmp(vars[i], v->var) == 0)
                return fail_at(m, (AstPos){0}, WEXC_TABLE, "Pattern variables must be unique. That might change in the future."), false;
        if (*n >= WMATCH_MAX_VARS) return fail_at(m, v->pos, WEXC_TABLE, "Too many pattern variables (at most 64)."), false;
        WMatchElem *e = &out[*n];
        vars[*n] = v->var;
        e->var = *n;
        e->min = e->max = 1;
        if (x->kind == APK_QUANT) {
            e->quantified = true;
            e->reluctant = x->reluctant;
            e->min = x->min;
            e->max = x->max;
            bool optional = x->min == 0 && x->max == 1;
            if (x->max != -1 && x->max < x->min)
                return fail_at(m, x->pos, WEXC_TABLE, "To should be greater than or equal to from."), false;
            if (x->max == 0) return fail_at(m, x->pos, WEXC_TABLE, "To should be greater than or equal to from."), false;
            if (!x->reluctant && !(optional || x->min == x->max)) e->greedy = true;
            if (x->reluctant && optional)
                return fail_at(m, x->pos, WEXC_TABLE, "Reluctant optional variables are not supported yet."), false;
        }
        (*n)++;
        return true;
    }
    }
    return false;
}

/* ---- navigation references ---- */

static AstExpr *ast_col(MB *m, AstPos pos, const char *name)
{
    AstExpr *c = WA_NEW(m->a, AstExpr);
    c->kind = AE_COLUMN;
    c->pos = pos;
    c->name.n = 1;
    c->name.parts = WA_ARRAY(m->a, char *, 1);
    c->name.parts[0] = (char *)name;
    return c;
}

static int add_ref(MB *m, const WMatchRef *r)
{
    for (int i = 0; i < m->nrefs; i++)
        if (strcmp(m->refs[i].text, r->text) == 0) return i;
    if (m->nrefs == m->cap) {
        int nc = m->cap ? m->cap * 2 : 8;
        WMatchRef *n = WA_ARRAY(m->a, WMatchRef, nc);
        if (m->nrefs) memcpy(n, m->refs, sizeof *n * (size_t)m->nrefs);
        m->refs = n;
        m->cap = nc;
    }
    m->refs[m->nrefs] = *r;
    bscope_add(m->a, &m->scope, NULL, wa_sprintf(m->a, "$mr%d", m->nrefs), r->type);
    return m->nrefs++;
}

static int input_col(MB *m, const char *name)
{
    for (int i = 0; i < m->in->out.n; i++)
        if (strcasecmp(m->in->out.names[i], name) == 0) return i;
    return -1;
}

/* A pattern column reference (A.col, col): fills vars / all / col; false with the error set. */
static bool pattern_col(MB *m, const AstExpr *e, WMatchRef *r, const char **alpha)
{
    if (e->kind != AE_COLUMN || e->name.n < 1 || e->name.n > 2)
        return fail_at(m, e->pos, WEXC_CALCITE, "Expected a pattern column reference, e.g. A.price"), false;
    const char *colname = e->name.parts[e->name.n - 1];
    if (e->name.n == 2) {
        const char *v = e->name.parts[0];
        int vi = var_index(m->ms, v);
        if (vi >= 0) r->vars = 1ULL << vi;
        else {
            int si = -1;
            for (int i = 0; i < m->ms->nsubsets; i++)
                if (strcmp(m->ms->subset_names[i], v) == 0) si = i;
            if (si < 0) {
                char msg[512];
                snprintf(msg, sizeof msg, "Table '%s' not found", v);
                return fail_at(m, e->pos, WEXC_CALCITE, msg), false;
            }
            r->vars = m->ms->subset_vars[si];
        }
        *alpha = v;
    } else {
        r->all = true;
        r->vars = ~0ULL;
        *alpha = "*";
    }
    r->col = input_col(m, colname);
    if (r->col < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "Column '%s' not found in any table", colname);
        return fail_at(m, e->pos, WEXC_CALCITE, msg), false;
    }
    return true;
}

static const WType *ref_type(MB *m, int col)
{
    const WType *t = m->in->out.types[col];
    return wtype_with_nullable(m->a, wtype_with_time_attr(m->a, t, WTA_NONE), true);
}

static bool int_lit(const AstExpr *e, int *out)
{
    if (e->kind == AE_LITERAL && e->lit == AL_INTEGER && e->text) {
        char *end;
        long v = strtol(e->text, &end, 10);
        if (*end || v < 0 || v > 1000000) return false;
        *out = (int)v;
        return true;
    }
    return false;
}

static const char *col_text(MB *m, const char *alpha, int col)
{
    return m->define ? wa_sprintf(m->a, "%s.$%d", alpha, col) : wa_sprintf(m->a, "%s.%s", alpha, m->in->out.names[col]);
}

static bool is_fn(const AstExpr *e, const char *name)
{
    return e->kind == AE_FUNC && e->name.n == 1 && strcasecmp(e->name.parts[0], name) == 0 && !e->over;
}

static int agg_kind(const char *n)
{
    static const struct { const char *n; int k; } K[] = {
        {"SUM", WAGG_SUM}, {"AVG", WAGG_AVG}, {"COUNT", WAGG_COUNT}, {"MIN", WAGG_MIN}, {"MAX", WAGG_MAX}};
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++)
        if (strcasecmp(K[i].n, n) == 0) return K[i].k;
    return -1;
}

static const WType *agg_type(MB *m, int kind, const WType *arg)
{
    switch (kind) {
    case WAGG_COUNT: case WAGG_COUNT_STAR: return wtype_new(m->a, WT_BIGINT, false);
    case WAGG_SUM: return wtype_with_nullable(m->a, wtype_sum_result(m->a, arg), true);
    case WAGG_AVG: return wtype_with_nullable(m->a, wtype_avg_result(m->a, arg), true);
    default: return wtype_with_nullable(m->a, arg, true);
    }
}

static AstExpr *rewrite(MB *m, AstExpr *e);

static AstExpr *nav_ref(MB *m, AstExpr *e, WMatchRef *r)
{
    if (m->failed) return NULL;
    return ast_col(m, e->pos, wa_sprintf(m->a, "$mr%d", add_ref(m, r)));
}

static AstExpr *rewrite_nav(MB *m, AstExpr *e)
{
    WMatchRef r;
    memset(&r, 0, sizeof r);
    const char *alpha = NULL;
    if (e->kind == AE_COLUMN) {
        if (e->name.n == 1 && input_col(m, e->name.parts[0]) < 0) return e;   /* the binder reports it */
        if (!pattern_col(m, e, &r, &alpha)) return NULL;
        r.kind = WMR_FIELD;
        r.type = ref_type(m, r.col);
        r.text = m->define ? wa_sprintf(m->a, "PREV(%s, 0)", col_text(m, alpha, r.col)) : col_text(m, alpha, r.col);
        return nav_ref(m, e, &r);
    }
    const char *fn = e->name.parts[0];
    if (is_fn(e, "PREV") || is_fn(e, "NEXT") || is_fn(e, "FIRST") || is_fn(e, "LAST")) {
        bool prev = is_fn(e, "PREV") || is_fn(e, "NEXT");
        int off = prev ? 1 : 0;
        if (e->nargs < 1 || e->nargs > 2 || (e->nargs == 2 && !int_lit(e->args[1], &off))) {
            char msg[256];
            snprintf(msg, sizeof msg, "Invalid number of arguments to function '%s'. Was expecting 1 or 2 arguments", fn);
            return fail_at(m, e->pos, WEXC_CALCITE, msg);
        }
        if (prev && off != 0)
            return fail_at(m, (AstPos){0}, WEXC_TABLE, "Flink does not support physical offsets within partition.");
        if (!pattern_col(m, e->args[0], &r, &alpha)) return NULL;
        r.kind = WMR_FIELD;
        r.first = is_fn(e, "FIRST");
        r.offset = off;
        r.type = ref_type(m, r.col);
        r.text = wa_sprintf(m->a, "%s(%s, %d)", prev ? "PREV" : r.first ? "FIRST" : "LAST", col_text(m, alpha, r.col), off);
        return nav_ref(m, e, &r);
    }
    if (is_fn(e, "MATCH_ROWTIME") || is_fn(e, "MATCH_PROCTIME")) {
        bool rt = is_fn(e, "MATCH_ROWTIME");
        r.kind = rt ? WMR_ROWTIME : WMR_PROCTIME;
        const WType *tt = m->in->out.types[m->ms->time_col];
        if (rt) {
            if (m->ms->proctime) {
                /* MATCH_ROWTIME over a proctime-ordered input: Flink's generated code reads the
                   record timestamp; weir gives the processing time of the match */
            }
            const WType *base = tt->id == WT_TIMESTAMP_LTZ && e->nargs ? tt : wtype_timestamp(m->a, WT_TIMESTAMP, 3, false);
            r.type = wtype_with_time_attr(m->a, wtype_with_nullable(m->a, base, false), WTA_ROWTIME);
        } else {
            r.type = wtype_with_time_attr(m->a, wtype_timestamp(m->a, WT_TIMESTAMP_LTZ, 3, false), WTA_PROCTIME);
        }
        if (rt && e->nargs == 1 && e->args[0]->kind == AE_COLUMN) {
            int c = input_col(m, e->args[0]->name.parts[e->args[0]->name.n - 1]);
            r.text = wa_sprintf(m->a, "MATCH_ROWTIME(*.%s)", c >= 0 ? m->in->out.names[c] : "?");
        } else {
            r.text = rt ? "MATCH_ROWTIME()" : "MATCH_PROCTIME()";
        }
        return nav_ref(m, e, &r);
    }
    /* an aggregate over one variable */
    int k = agg_kind(fn);
    if (e->distinct) return fail_at(m, e->pos, WEXC_CALCITE, "DISTINCT aggregations are not supported in MATCH_RECOGNIZE.");
    r.kind = WMR_AGG;
    r.agg = k;
    if (e->star_arg || e->nargs == 0) {
        r.agg = WAGG_COUNT_STAR;
        r.col = -1;
        r.all = true;
        r.vars = ~0ULL;
        r.type = agg_type(m, WAGG_COUNT_STAR, NULL);
        r.text = "COUNT()";
        return nav_ref(m, e, &r);
    }
    if (e->nargs != 1) return fail_at(m, e->pos, WEXC_CALCITE, "Aggregation must be applied to a single pattern variable");
    const AstExpr *arg = e->args[0];
    if (arg->kind != AE_COLUMN) {
        /* which variables does the argument use? */
        const char *seen[2] = {0};
        int nseen = 0;
        const AstExpr *stack[64];
        int sp = 0;
        stack[sp++] = arg;
        while (sp) {
            const AstExpr *x = stack[--sp];
            if (x->kind == AE_COLUMN && x->name.n == 2) {
                if (!nseen || (strcmp(seen[0], x->name.parts[0]) != 0 && nseen < 2)) seen[nseen++] = x->name.parts[0];
            }
            for (int i = 0; i < x->nargs && sp < 64; i++) stack[sp++] = x->args[i];
        }
        if (nseen > 1)
            return fail_at(m, e->pos, WEXC_CALCITE, "Aggregation must be applied to a single pattern variable");
        return fail_at(m, arg->pos, WEXC_TABLE, "weir supports only a column of a pattern variable as the argument of an aggregate in MATCH_RECOGNIZE (e.g. SUM(A.price)).");
    }
    if (!pattern_col(m, arg, &r, &alpha)) return NULL;
    const WType *at = m->in->out.types[r.col];
    if ((k == WAGG_SUM || k == WAGG_AVG) && !(wtype_is_integer(at) || wtype_is_approx(at)))
        return fail_at(m, e->pos, WEXC_TABLE, "weir supports SUM and AVG in MATCH_RECOGNIZE over integer and floating-point columns only.");
    r.type = agg_type(m, k, wtype_with_time_attr(m->a, at, WTA_NONE));
    const char *an = k == WAGG_COUNT ? "COUNT" : k == WAGG_SUM ? "SUM" : k == WAGG_AVG ? "AVG" : k == WAGG_MIN ? "MIN" : "MAX";
    r.text = wa_sprintf(m->a, "%s(%s)", an, col_text(m, alpha, r.col));
    return nav_ref(m, e, &r);
}

static AstExpr **rewrite_list(MB *m, AstExpr **xs, int n, bool *changed)
{
    AstExpr **out = xs;
    for (int i = 0; i < n; i++) {
        AstExpr *x = rewrite(m, xs[i]);
        if (m->failed) return xs;
        if (x != xs[i]) {
            if (out == xs) {
                out = WA_ARRAY(m->a, AstExpr *, n);
                memcpy(out, xs, sizeof *out * (size_t)n);
            }
            out[i] = x;
            *changed = true;
        }
    }
    return out;
}

static AstExpr *rewrite(MB *m, AstExpr *e)
{
    if (!e || m->failed) return e;
    if (e->kind == AE_COLUMN) return rewrite_nav(m, e);
    if (e->kind == AE_FUNC && e->name.n == 1 && !e->over &&
        (is_fn(e, "PREV") || is_fn(e, "NEXT") || is_fn(e, "FIRST") || is_fn(e, "LAST") ||
         is_fn(e, "MATCH_ROWTIME") || is_fn(e, "MATCH_PROCTIME") || agg_kind(e->name.parts[0]) >= 0))
        return rewrite_nav(m, e);
    if (e->kind == AE_SUBQUERY || e->kind == AE_EXISTS) return e;
    bool changed = false;
    AstExpr **args = rewrite_list(m, e->args, e->nargs, &changed);
    AstExpr **when = rewrite_list(m, e->when, e->nwhen, &changed);
    AstExpr **then = rewrite_list(m, e->then, e->nwhen, &changed);
    AstExpr *co = rewrite(m, e->case_operand), *el = rewrite(m, e->else_expr);
    if (m->failed) return NULL;
    if (!changed && co == e->case_operand && el == e->else_expr) return e;
    AstExpr *c = wa_memdup(m->a, e, sizeof *e);
    c->args = args;
    c->when = when;
    c->then = then;
    c->case_operand = co;
    c->else_expr = el;
    return c;
}

static WMatchProg *bind_prog(MB *m, AstExpr *e, bool define)
{
    m->define = define;
    m->nrefs = m->cap = 0;
    m->refs = NULL;
    bscope_init(&m->scope);
    AstExpr *rw = rewrite(m, e);
    if (m->failed || !rw) return NULL;
    WExpr *x = define ? bind_condition(m->b, &m->scope, rw, "DEFINE") : bind_expr(m->b, &m->scope, rw);
    if (!x) { m->failed = true; return NULL; }
    WMatchProg *pg = WA_NEW(m->a, WMatchProg);
    pg->expr = x;
    pg->nrefs = m->nrefs;
    pg->refs = m->refs;
    return pg;
}

static int bind_input_col(MB *m, AstExpr *e)
{
    WExpr *x = bind_expr(m->b, m->in_scope, e);
    if (!x) { m->failed = true; return -1; }
    if (x->kind != WX_COLUMN) {
        fail_at(m, e->pos, WEXC_TABLE, "weir supports only columns in PARTITION BY / ORDER BY of MATCH_RECOGNIZE.");
        return -1;
    }
    return x->col;
}

WRel *bind_match_rel(BindCtx *b, WRel *in, BScope *in_scope, AstFrom *f, BScope *out)
{
    WPlanCtx *p = b->p;
    AstMatchRecognize *am = f->match;
    MB mb = {.b = b, .p = p, .a = p->arena, .in = in, .in_scope = in_scope};
    MB *m = &mb;
    WMatchSpec *ms = WA_NEW(p->arena, WMatchSpec);
    m->ms = ms;
    WRel *r = wrel_new(p, WR_MATCH, 1);
    r->inputs[0] = in;
    wrel_match_mut(r)->spec = ms;
    /* PARTITION BY / ORDER BY */
    r->nkeys = am->npartition;
    r->keys = WA_ARRAY(p->arena, int, am->npartition ? am->npartition : 1);
    for (int i = 0; i < am->npartition; i++)
        if ((r->keys[i] = bind_input_col(m, am->partition[i])) < 0) return NULL;
    r->nsort = am->norder;
    r->sort_cols = WA_ARRAY(p->arena, int, am->norder ? am->norder : 1);
    r->sort_desc = WA_ARRAY(p->arena, bool, am->norder ? am->norder : 1);
    r->sort_nulls_first = WA_ARRAY(p->arena, bool, am->norder ? am->norder : 1);
    for (int i = 0; i < am->norder; i++) {
        if ((r->sort_cols[i] = bind_input_col(m, am->order[i].expr)) < 0) return NULL;
        r->sort_desc[i] = am->order[i].desc;
        r->sort_nulls_first[i] = am->order[i].nulls ? am->order[i].nulls == 1 : !am->order[i].desc;
    }
    /* StreamExecMatch.checkOrderKeys */
    if (am->norder == 0)
        return fail_at(m, (AstPos){0}, WEXC_TABLE, "You must specify either rowtime or proctime for order by.");
    const WType *tt = in->out.types[r->sort_cols[0]];
    if (!wtype_is_timestamp(tt) || tt->time_attr == WTA_NONE)
        return fail_at(m, (AstPos){0}, WEXC_TABLE, "You must specify either rowtime or proctime for order by as the first one.");
    if (r->sort_desc[0])
        return fail_at(m, (AstPos){0}, WEXC_TABLE, "Primary sort order of a streaming table must be ascending on time.");
    ms->time_col = r->sort_cols[0];
    ms->proctime = tt->time_attr == WTA_PROCTIME;
    r->time_col = ms->time_col;
    /* PATTERN */
    WMatchElem *elems = WA_ARRAY(p->arena, WMatchElem, WMATCH_MAX_VARS);
    const char **vars = WA_ARRAY(p->arena, const char *, WMATCH_MAX_VARS);
    int n = 0;
    {
        WStrBuf s;
        wsb_init(&s);
        pattern_text(&s, am->pattern);
        ms->pattern_text = wa_strdup(p->arena, s.buf);
        wsb_free(&s);
    }
    if (!collect_elems(m, am->pattern, elems, &n, vars)) return NULL;
    ms->nvars = ms->nelems = n;
    ms->vars = vars;
    ms->elems = elems;
    /* SUBSET */
    ms->nsubsets = am->nsubsets;
    ms->subset_names = (const char **)am->subset_names;
    ms->subset_vars = WA_ARRAY(p->arena, uint64_t, am->nsubsets ? am->nsubsets : 1);
    for (int i = 0; i < am->nsubsets; i++)
        for (int j = 0; j < am->subset_nvars[i]; j++) {
            int vi = var_index(ms, am->subset_vars[i][j]);
            if (vi < 0) {
                char msg[512];
                snprintf(msg, sizeof msg, "Unknown pattern '%s'", am->subset_vars[i][j]);
                return fail_at(m, am->pos, WEXC_CALCITE, msg);
            }
            ms->subset_vars[i] |= 1ULL << vi;
        }
    /* AFTER MATCH */
    switch (am->after) {
    case AAM_DEFAULT: case AAM_TO_NEXT_ROW: ms->after = WMA_TO_NEXT_ROW; break;
    case AAM_PAST_LAST_ROW: ms->after = WMA_PAST_LAST_ROW; break;
    case AAM_TO_FIRST: case AAM_TO_LAST:
        ms->after = am->after == AAM_TO_FIRST ? WMA_TO_FIRST : WMA_TO_LAST;
        ms->after_var = var_index(ms, am->after_var);
        if (ms->after_var < 0) {
            char msg[512];
            snprintf(msg, sizeof msg, "Unknown pattern '%s'", am->after_var);
            return fail_at(m, am->pos, WEXC_CALCITE, msg);
        }
        break;
    }
    /* WITHIN */
    if (am->within) {
        WExpr *w = bind_expr(b, in_scope, am->within);
        if (!w) return NULL;
        if (w->kind != WX_LITERAL || w->type->id != WT_INTERVAL_DT || w->is_null)
            return fail_at(m, (AstPos){0}, WEXC_TABLE, "Only constant intervals with millisecond resolution are supported as time constraints of patterns.");
        ms->has_within = true;
        ms->within_ms = w->lit.i;
    }
    /* DEFINE */
    ms->define = WA_ARRAY(p->arena, WMatchProg *, n ? n : 1);
    ms->define_order = WA_ARRAY(p->arena, int, am->ndefines ? am->ndefines : 1);
    for (int i = 0; i < am->ndefines; i++) {
        int vi = var_index(ms, am->define_names[i]);
        if (vi < 0) {
            /* a definition of a variable the pattern does not use: Calcite accepts it; it is unused */
            continue;
        }
        if (ms->define[vi]) {
            char msg[512];
            snprintf(msg, sizeof msg, "Pattern variable '%s' has already been defined", am->define_names[i]);
            return fail_at(m, am->defines[i]->pos, WEXC_CALCITE, msg);
        }
        ms->define[vi] = bind_prog(m, am->defines[i], true);
        if (!ms->define[vi]) return NULL;
        ms->define_order[ms->ndefine_order++] = vi;
    }
    /* Flink's checks after translating the pattern */
    bool all_optional = true;
    for (int i = 0; i < n; i++)
        if (elems[i].min > 0) all_optional = false;
    if (all_optional)
        return fail_at(m, (AstPos){0}, WEXC_TABLE, "Patterns that can produce empty matches are not supported. There must be at least one non-optional state.");
    if (elems[n - 1].greedy)
        return fail_at(m, (AstPos){0}, WEXC_TABLE, "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.");
    if (am->all_rows)
        return fail_at(m, (AstPos){0}, WEXC_TABLE, "All rows per match mode is not supported yet.");
    /* MEASURES */
    ms->nmeasures = am->nmeasures;
    ms->measure_names = (const char **)am->measure_names;
    ms->measures = WA_ARRAY(p->arena, WMatchProg, am->nmeasures ? am->nmeasures : 1);
    for (int i = 0; i < am->nmeasures; i++) {
        WMatchProg *pg = bind_prog(m, am->measures[i], false);
        if (!pg) return NULL;
        ms->measures[i] = *pg;
    }
    /* output: partition columns, then the measures */
    int nout = am->npartition + am->nmeasures;
    r->out.n = nout;
    r->out.names = WA_ARRAY(p->arena, const char *, nout ? nout : 1);
    r->out.types = WA_ARRAY(p->arena, const WType *, nout ? nout : 1);
    for (int i = 0; i < am->npartition; i++) {
        r->out.names[i] = in->out.names[r->keys[i]];
        r->out.types[i] = in->out.types[r->keys[i]];
    }
    for (int i = 0; i < am->nmeasures; i++) {
        r->out.names[am->npartition + i] = am->measure_names[i];
        r->out.types[am->npartition + i] = ms->measures[i].expr->type;
    }
    /* Calcite: Columns ambiguously defined */
    {
        WStrBuf dup;
        wsb_init(&dup);
        for (int i = 0; i < nout; i++)
            for (int j = 0; j < i; j++)
                if (strcasecmp(r->out.names[i], r->out.names[j]) == 0) {
                    wsb_printf(&dup, "%s%s", dup.len ? ", " : "", r->out.names[i]);
                    break;
                }
        if (dup.len) {
            char msg[1024];
            snprintf(msg, sizeof msg, "Columns ambiguously defined: {%s}", dup.buf);
            wsb_free(&dup);
            return fail_at(m, am->pos, WEXC_CALCITE, msg);
        }
        wsb_free(&dup);
    }
    r->changelog = WCM_INSERT;
    bscope_init(out);
    for (int i = 0; i < nout; i++) bscope_add(p->arena, out, f->alias, r->out.names[i], r->out.types[i]);
    return r;
}
