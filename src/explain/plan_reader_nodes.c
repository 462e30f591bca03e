/*
 * plan_reader_nodes.c — EXECUTE PLAN for the exec nodes of UNNEST and INTERSECT/EXCEPT ALL
 * (stream-exec-correlate_1), grouping sets and the distinct split (stream-exec-expand_1), OVER
 * windows (stream-exec-over-aggregate_1), MATCH_RECOGNIZE (stream-exec-match_1) and the window
 * Top-N, deduplicate and join (stream-exec-window-rank_1 / -window-deduplicate_1 / -window-join_1,
 * read into the WR_WINDOW_RANK / WR_WINDOW_JOIN the window rules of window_rules.c make): the JSON
 * compiled_plan.c writes, in Flink's shape, read back into the WRel the binder builds.
 * Contract: see plan_reader_internal.h. Depends on plan/ (match_spec.h, over_window.h).
 */
#include "plan_reader_internal.h"
#include "../plan/match_spec.h"
#include "../plan/over_window.h"

#include <stdlib.h>
#include <string.h>

static const char *call_name(json_t *j)
{
    return json_string_value(json_object_get(j, "internalName"));
}

/* ---------------- Correlate ---------------- */

WRel *rd_correlate(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    json_t *fc = json_object_get(j, "functionCall");
    const char *fn = call_name(fc);
    if (fn && !strcmp(fn, "$REPLICATE_ROWS$1")) {
        WRel *x = rd_new_rel(r, WR_REPLICATE_ROWS, 1);
        if (out->n != 2 * in->out.n - 1)
            return rd_fail(r, "Invalid compiled plan: the $REPLICATE_ROWS$1 Correlate has %s output fields.", "the wrong number of"), NULL;
        return x;
    }
    bool ord = fn && !strcmp(fn, "$UNNEST_ROWS_WITH_ORDINALITY$1");
    if (!fn || (!ord && strcmp(fn, "$UNNEST_ROWS$1") != 0))
        return rd_fail(r, "EXECUTE PLAN cannot run a Correlate of the table function %s (only UNNEST and the set operations' $REPLICATE_ROWS$1).",
                       fn ? fn : "(none)"), NULL;
    json_t *ops = json_object_get(fc, "operands");
    if (json_array_size(ops) != 1) return rd_fail(r, "Invalid compiled plan: %s takes one operand.", fn), NULL;
    WRel *x = rd_new_rel(r, WR_CORRELATE, 1);
    WRelCorrelate *xc = wrel_correlate_mut(x);
    xc->ordinality = ord;
    xc->physical = true;
    r->correl = &in->out;
    WExpr *coll = rd_rex(r, json_array_get(ops, 0), &in->out);
    r->correl = NULL;
    if (!coll) return NULL;
    xc->collection = coll;
    const char **phys, **sql;
    const WType **types;
    int nf = wunnest_columns(r->p, coll->type, ord, false, &phys, &sql, &types);
    if (nf <= 0 || nf > out->n) return rd_fail(r, "Invalid compiled plan: %s over a value that is not a collection.", fn), NULL;
    xc->nleft_out = out->n - nf;
    const char *jt = json_string_value(json_object_get(j, "joinType"));
    xc->join_type = jt && !strcmp(jt, "LEFT") ? AJ_LEFT : AJ_INNER;
    xc->cor_id = 0;
    /* the $cor<N> of the correlation variable, where the operand names it */
    const char *s = json_dumps(json_array_get(ops, 0), JSON_COMPACT);
    const char *c = s ? strstr(s, "\"$cor") : NULL;
    if (c) xc->cor_id = atoi(c + 5);
    free((void *)s);
    json_t *cond = json_object_get(j, "condition");
    if (cond && !json_is_null(cond)) {
        /* over the function's columns only */
        WSchema fs = {nf, out->names + xc->nleft_out, out->types + xc->nleft_out};
        if (!(xc->cond = rd_rex(r, cond, &fs))) return NULL;
    }
    return x;
}

/* ---------------- Expand ---------------- */

WRel *rd_expand(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    json_t *projects = json_object_get(j, "projects");
    int np = (int)json_array_size(projects), nc = out->n;
    if (np == 0) return rd_fail(r, "Invalid compiled plan: an Expand without %s.", "projects"), NULL;
    WRel *x = rd_new_rel(r, WR_EXPAND, 1);
    wrel_expand_mut(x)->n = np;
    wrel_expand_mut(x)->src = WA_ARRAY(r->a, int, np * nc);
    wrel_expand_mut(x)->ids = WA_ARRAY(r->a, int64_t, np);
    for (int k = 0; k < np; k++) {
        json_t *pr = json_array_get(projects, (size_t)k);
        if ((int)json_array_size(pr) != nc)
            return rd_fail(r, "Invalid compiled plan: an Expand projection has %s fields.", "the wrong number of"), NULL;
        for (int c = 0; c < nc; c++) {
            json_t *e = json_array_get(pr, (size_t)c);
            const char *kind = json_string_value(json_object_get(e, "kind"));
            json_t *v = json_object_get(e, "value");
            if (kind && !strcmp(kind, "INPUT_REF")) {
                int idx = rd_int(json_object_get(e, "inputIndex"), RD_BAD_INDEX);
                if (idx < 0 || idx >= in->out.n) return rd_fail(r, "The compiled plan refers to a missing input field%s", ""), NULL;
                wrel_expand_mut(x)->src[k * nc + c] = idx;
            } else if (kind && !strcmp(kind, "LITERAL") && json_is_null(v)) {
                wrel_expand_mut(x)->src[k * nc + c] = -1;
            } else if (kind && !strcmp(kind, "LITERAL") && (json_is_integer(v) || json_is_string(v))) {
                wrel_expand_mut(x)->src[k * nc + c] = -2;
                wrel_expand_mut(x)->ids[k] = json_is_integer(v) ? json_integer_value(v) : strtoll(json_string_value(v), NULL, 10);
            } else {
                return rd_fail(r, "EXECUTE PLAN reads only input fields, NULL and the expand id in an Expand projection%s", ""), NULL;
            }
        }
    }
    return x;
}

/* ---------------- OverAggregate ---------------- */

static bool const_value(Rd *r, json_t *consts, int nin, json_t *ref, double *out)
{
    int idx = (int)json_integer_value(json_object_get(ref, "inputIndex")) - nin;
    json_t *lit = json_array_get(consts, (size_t)(idx < 0 ? 0 : idx));
    if (idx < 0 || !lit) return rd_fail(r, "Invalid compiled plan: an OVER window refers to a missing constant%s", "");
    json_t *v = json_object_get(lit, "value");
    *out = json_is_string(v) ? strtod(json_string_value(v), NULL) : json_number_value(v);
    return true;
}

WRel *rd_over_aggregate(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    WArena *a = r->a;
    json_t *spec = json_object_get(j, "overSpec");
    json_t *groups = json_object_get(spec, "groups");
    json_t *consts = json_object_get(spec, "constants");
    if (json_array_size(groups) != 1)
        return rd_fail(r, "EXECUTE PLAN runs a streaming OverAggregate with exactly one window group%s", ""), NULL;
    int nin = in->out.n;
    json_t *g = json_array_get(groups, 0);
    WRel *x = rd_new_rel(r, WR_OVER_AGG, 1);
    WRelOver *xo = wrel_over_mut(x);
    x->nkeys = rd_ints(r, json_object_get(json_object_get(spec, "partition"), "fields"), &x->keys);
    if (!rd_sort_fields(r, g, x, in)) return NULL;
    if (x->nsort != 1) return rd_fail(r, "The window can only be ordered by a single time column.%s", ""), NULL;
    x->time_col = x->sort_cols[0];
    xo->proctime = in->out.types[x->time_col]->time_attr == WTA_PROCTIME;
    WOverSpec *os = WA_NEW(a, WOverSpec);
    os->nwindows = 1;
    os->windows = WA_NEW(a, WOverWindow);
    WOverWindow *w = os->windows;
    w->rows = xo->rows = json_is_true(json_object_get(g, "isRows"));
    w->upper.kind = WOB_CURRENT_ROW;
    json_t *lb = json_object_get(g, "lowerBound");
    const char *lk = json_string_value(json_object_get(lb, "kind"));
    if (lk && !strcmp(lk, "UNBOUNDED_PRECEDING")) {
        xo->unbounded = true;
        w->lower.kind = WOB_UNBOUNDED_PRECEDING;
    } else if (lk && !strcmp(lk, "BOUNDED_WINDOW") && json_is_true(json_object_get(lb, "isPreceding"))) {
        double off;
        if (!const_value(r, consts, nin, json_object_get(lb, "offset"), &off)) return NULL;
        w->lower.kind = WOB_PRECEDING;
        w->lower.offset = off;
        xo->preceding = (int64_t)off;
    } else {
        return rd_fail(r, "OVER RANGE FOLLOWING windows are not supported yet.%s", ""), NULL;
    }
    const char *uk = json_string_value(json_object_get(json_object_get(g, "upperBound"), "kind"));
    if (!uk || strcmp(uk, "CURRENT_ROW") != 0) return rd_fail(r, "OVER RANGE FOLLOWING windows are not supported yet.%s", ""), NULL;
    json_t *calls = json_object_get(g, "aggCalls");
    int n = (int)json_array_size(calls);
    if (nin + n != out->n) return rd_fail(r, "Invalid compiled plan: the OverAggregate's calls do not match its %s.", "outputType"), NULL;
    /* the aggregate functions as one list (wrel_agg(x)->aggs), the calls in output order */
    json_t *aggs = json_array();
    for (int i = 0; i < n; i++) {
        const char *in_name = call_name(json_array_get(calls, (size_t)i));
        if (!in_name || (strcmp(in_name, "$LAG$1") && strcmp(in_name, "$ROW_NUMBER$1") && strcmp(in_name, "$RANK$1") &&
                         strcmp(in_name, "$DENSE_RANK$1")))
            json_array_append(aggs, json_array_get(calls, (size_t)i));
    }
    bool ok = rd_aggs(r, aggs, x);
    json_decref(aggs);
    if (!ok) return NULL;
    w->ncalls = n;
    w->calls = WA_ARRAY(a, WOverCall, n ? n : 1);
    for (int i = 0, ai = 0; i < n; i++) {
        json_t *cj = json_array_get(calls, (size_t)i);
        WOverCall *c = &w->calls[i];
        const char *in_name = call_name(cj);
        c->arg = c->default_col = -1;
        c->name = out->names[nin + i];
        c->type = out->types[nin + i];
        c->args_text = "*";
        if (!strcmp(in_name ? in_name : "", "$ROW_NUMBER$1")) c->fn = WOF_ROW_NUMBER;
        else if (!strcmp(in_name ? in_name : "", "$RANK$1")) c->fn = WOF_RANK;
        else if (!strcmp(in_name ? in_name : "", "$DENSE_RANK$1")) c->fn = WOF_DENSE_RANK;
        else if (!strcmp(in_name ? in_name : "", "$LAG$1")) {
            c->fn = WOF_LAG;
            json_t *al = json_object_get(cj, "argList");
            int na = (int)json_array_size(al);
            c->arg = na > 0 ? rd_int(json_array_get(al, 0), RD_BAD_INDEX) : -1;
            c->n = 1;
            if (na > 1) {
                json_t *ref = json_object();
                json_object_set(ref, "inputIndex", json_array_get(al, 1));
                double off = 1;
                ok = const_value(r, consts, nin, ref, &off);
                json_decref(ref);
                if (!ok) return NULL;
                c->n = (int64_t)off;
            }
            if (na > 2) {
                c->default_col = rd_int(json_array_get(al, 2), RD_BAD_INDEX);
                if (c->default_col < 0 || c->default_col >= nin)
                    return rd_fail(r, "EXECUTE PLAN reads LAG's default value only from an input field%s", ""), NULL;
            }
            if (c->arg < 0 || c->arg >= nin) return rd_fail(r, "The compiled plan refers to a missing input field%s", ""), NULL;
            c->args_text = c->default_col >= 0
                ? wa_sprintf(a, "%s, %lld, %s", in->out.names[c->arg], (long long)c->n, in->out.names[c->default_col])
                : c->n != 1 ? wa_sprintf(a, "%s, %lld", in->out.names[c->arg], (long long)c->n) : in->out.names[c->arg];
        } else {
            c->fn = WOF_AGG;
            c->agg = wrel_agg(x)->aggs[ai++];
            c->args_text = NULL;
        }
    }
    xo->stream = os;
    return x;
}

/* ---------------- Match ---------------- */

typedef struct MatchRd {
    WMatchSpec *ms;
    const WRel *in;
    bool define;
    int nrefs, cap;
    WMatchRef *refs;
} MatchRd;

static int var_of(const WMatchSpec *ms, const char *v)
{
    for (int i = 0; i < ms->nvars; i++) if (!strcmp(ms->vars[i], v)) return i;
    return -1;
}

/* A navigation reference (PATTERN_INPUT_REF, PREV/FIRST/LAST, an aggregate, MATCH_ROWTIME,
   MATCH_PROCTIME) becomes a column of the program's reference row. */
static WExpr *match_hook(Rd *r, json_t *j, void *ctx, bool *handled)
{
    MatchRd *m = ctx;
    WArena *a = r->a;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    const char *fn = call_name(j);
    json_t *ops = json_object_get(j, "operands");
    if (fn && (!strcmp(fn, "$FINAL$1") || !strcmp(fn, "$RUNNING$1")) && json_array_size(ops) == 1) {
        *handled = true;
        static const WSchema none = {0, NULL, NULL};
        return rd_rex(r, json_array_get(ops, 0), &none);
    }
    WMatchRef ref;
    memset(&ref, 0, sizeof ref);
    json_t *pir = NULL;
    const char *nav = NULL;
    if (kind && !strcmp(kind, "PATTERN_INPUT_REF")) {
        pir = j;
        ref.kind = WMR_FIELD;
    } else if (fn && (!strcmp(fn, "$PREV$1") || !strcmp(fn, "$FIRST$1") || !strcmp(fn, "$LAST$1"))) {
        pir = json_array_get(ops, 0);
        ref.kind = WMR_FIELD;
        nav = fn[1] == 'P' ? "PREV" : fn[1] == 'F' ? "FIRST" : "LAST";
        ref.first = fn[1] == 'F';
        ref.offset = (int)json_integer_value(json_object_get(json_array_get(ops, 1), "value"));
    } else if (fn && (!strcmp(fn, "$MATCH_ROWTIME$1") || !strcmp(fn, "$MATCH_PROCTIME$1"))) {
        ref.kind = fn[7] == 'R' ? WMR_ROWTIME : WMR_PROCTIME;
        ref.all = true;
        ref.vars = ~0ULL;
        json_t *o = json_array_get(ops, 0);
        int col = o ? rd_int(json_object_get(o, "inputIndex"), RD_BAD_INDEX) : -1;
        ref.col = col;
        ref.text = ref.kind == WMR_PROCTIME ? "MATCH_PROCTIME()"
                 : col >= 0 && col < m->in->out.n ? wa_sprintf(a, "MATCH_ROWTIME(*.%s)", m->in->out.names[col]) : "MATCH_ROWTIME()";
    } else if (fn && (!strcmp(fn, "$SUM$1") || !strcmp(fn, "$AVG$1") || !strcmp(fn, "$COUNT$1") ||
                      !strcmp(fn, "$MIN$1") || !strcmp(fn, "$MAX$1"))) {
        ref.kind = WMR_AGG;
        ref.agg = fn[1] == 'S' ? WAGG_SUM : fn[1] == 'A' ? WAGG_AVG : fn[1] == 'C' ? WAGG_COUNT : fn[2] == 'I' ? WAGG_MIN : WAGG_MAX;
        pir = json_array_get(ops, 0);
        if (!pir) {
            ref.agg = WAGG_COUNT_STAR;
            ref.col = -1;
            ref.all = true;
            ref.vars = ~0ULL;
            ref.text = "COUNT()";
        }
    } else {
        return NULL;
    }
    *handled = true;
    if (pir) {
        const char *pk = json_string_value(json_object_get(pir, "kind"));
        const char *alpha = json_string_value(json_object_get(pir, "alpha"));
        if (!pk || strcmp(pk, "PATTERN_INPUT_REF") != 0 || !alpha)
            return rd_fail(r, "EXECUTE PLAN reads only pattern columns (A.price) as arguments of %s in MATCH_RECOGNIZE.", fn), NULL;
        ref.col = rd_int(json_object_get(pir, "inputIndex"), RD_BAD_INDEX);
        if (ref.col < 0 || ref.col >= m->in->out.n) return rd_fail(r, "The compiled plan refers to a missing input field%s", ""), NULL;
        if (!strcmp(alpha, "*")) {
            ref.all = true;
            ref.vars = ~0ULL;
        } else {
            int vi = var_of(m->ms, alpha);
            if (vi >= 0) ref.vars = 1ULL << vi;
            for (int i = 0; vi < 0 && i < m->ms->nsubsets; i++)
                if (!strcmp(m->ms->subset_names[i], alpha)) { ref.vars = m->ms->subset_vars[i]; vi = i; }
            if (vi < 0) return rd_fail(r, "The compiled plan's pattern refers to an unknown variable: %s", alpha), NULL;
        }
        const char *ct = m->define ? wa_sprintf(a, "%s.$%d", alpha, ref.col) : wa_sprintf(a, "%s.%s", alpha, m->in->out.names[ref.col]);
        if (ref.kind == WMR_AGG) {
            const char *an = ref.agg == WAGG_COUNT ? "COUNT" : ref.agg == WAGG_SUM ? "SUM" : ref.agg == WAGG_AVG ? "AVG"
                           : ref.agg == WAGG_MIN ? "MIN" : "MAX";
            ref.text = wa_sprintf(a, "%s(%s)", an, ct);
        } else if (nav) {
            ref.text = wa_sprintf(a, "%s(%s, %d)", nav, ct, ref.offset);
        } else {
            ref.text = m->define ? wa_sprintf(a, "PREV(%s, 0)", ct) : ct;
        }
    }
    ref.type = rd_type(r, json_object_get(j, "type"));
    if (!ref.type) return NULL;
    int idx = -1;
    for (int i = 0; i < m->nrefs; i++) if (!strcmp(m->refs[i].text, ref.text)) idx = i;
    if (idx < 0) {
        if (m->nrefs == m->cap) {
            int nc = m->cap ? m->cap * 2 : 8;
            WMatchRef *nr = WA_ARRAY(a, WMatchRef, nc);
            if (m->nrefs) memcpy(nr, m->refs, sizeof *nr * (size_t)m->nrefs);
            m->refs = nr;
            m->cap = nc;
        }
        m->refs[m->nrefs] = ref;
        idx = m->nrefs++;
    }
    return wexpr_column(a, idx, m->refs[idx].type, wa_sprintf(a, "$mr%d", idx));
}

static WMatchProg *match_prog(Rd *r, MatchRd *m, json_t *e, bool define)
{
    m->define = define;
    m->nrefs = m->cap = 0;
    m->refs = NULL;
    static const WSchema none = {0, NULL, NULL};
    r->hook = match_hook;
    r->hook_ctx = m;
    WExpr *x = rd_rex(r, e, &none);
    r->hook = NULL;
    r->hook_ctx = NULL;
    if (!x) return NULL;
    WMatchProg *pg = WA_NEW(r->a, WMatchProg);
    pg->expr = x;
    pg->nrefs = m->nrefs;
    pg->refs = m->refs;
    return pg;
}

/* The pattern: a PATTERN_CONCAT tree of variables, plain or under $PATTERN_QUANTIFIER$1. */
static bool match_pattern(Rd *r, json_t *p, WMatchSpec *ms, WMatchElem *elems, const char **vars, WStrBuf *text)
{
    const char *kind = json_string_value(json_object_get(p, "kind"));
    const char *fn = call_name(p);
    const char *sk = json_string_value(json_object_get(p, "sqlKind"));
    json_t *ops = json_object_get(p, "operands");
    if (kind && !strcmp(kind, "CALL") && sk && !strcmp(sk, "PATTERN_CONCAT")) {
        for (size_t i = 0; i < json_array_size(ops); i++)
            if (!match_pattern(r, json_array_get(ops, i), ms, elems, vars, text)) return false;
        return true;
    }
    if (ms->nelems >= WMATCH_MAX_VARS) return rd_fail(r, "Too many pattern variables (at most 64).%s", "");
    WMatchElem *e = &elems[ms->nelems];
    memset(e, 0, sizeof *e);
    e->var = ms->nelems;
    e->min = e->max = 1;
    json_t *v = p;
    if (fn && !strcmp(fn, "$PATTERN_QUANTIFIER$1") && json_array_size(ops) == 4) {
        v = json_array_get(ops, 0);
        e->quantified = true;
        e->min = (int)json_integer_value(json_object_get(json_array_get(ops, 1), "value"));
        e->max = (int)json_integer_value(json_object_get(json_array_get(ops, 2), "value"));
        e->reluctant = json_is_true(json_object_get(json_array_get(ops, 3), "value"));
        bool optional = e->min == 0 && e->max == 1;
        e->greedy = !e->reluctant && !(optional || e->min == e->max);
    }
    const char *name = json_string_value(json_object_get(v, "value"));
    const char *vk = json_string_value(json_object_get(v, "kind"));
    if (!name || !vk || strcmp(vk, "LITERAL") != 0)
        return rd_fail(r, "EXECUTE PLAN reads only sequences of (quantified) pattern variables in a Match%s", "");
    vars[ms->nelems] = wa_strdup(r->a, name);
    if (text->len) wsb_puts(text, ", ");
    if (e->quantified)
        wsb_printf(text, "PATTERN_QUANTIFIER(_UTF-16LE'%s', %d, %d, %s)", name, e->min, e->max, e->reluctant ? "true" : "false");
    else
        wsb_printf(text, "_UTF-16LE'%s'", name);
    ms->nelems++;
    return true;
}

WRel *rd_match(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    WArena *a = r->a;
    json_t *spec = json_object_get(j, "matchSpec");
    if (!json_is_object(spec)) return rd_fail(r, "Invalid compiled plan: a Match without %s.", "matchSpec"), NULL;
    if (json_is_true(json_object_get(spec, "allRows"))) return rd_fail(r, "All rows per match mode is not supported yet.%s", ""), NULL;
    WRel *x = rd_new_rel(r, WR_MATCH, 1);
    WMatchSpec *ms = WA_NEW(a, WMatchSpec);
    wrel_match_mut(x)->spec = ms;
    x->nkeys = rd_ints(r, json_object_get(json_object_get(spec, "partition"), "fields"), &x->keys);
    for (int i = 0; i < x->nkeys; i++)
        if (x->keys[i] < 0 || x->keys[i] >= in->out.n) return rd_fail(r, "The compiled plan refers to a missing input field%s", ""), NULL;
    if (!rd_sort_fields(r, spec, x, in)) return NULL;
    if (!x->nsort || in->out.types[x->sort_cols[0]]->time_attr == WTA_NONE)
        return rd_fail(r, "You must specify either rowtime or proctime for order by as the first one.%s", ""), NULL;
    ms->time_col = x->time_col = x->sort_cols[0];
    ms->proctime = in->out.types[ms->time_col]->time_attr == WTA_PROCTIME;
    /* pattern */
    WMatchElem *elems = WA_ARRAY(a, WMatchElem, WMATCH_MAX_VARS);
    const char **vars = WA_ARRAY(a, const char *, WMATCH_MAX_VARS);
    WStrBuf text;
    wsb_init(&text);
    ms->elems = elems;
    ms->vars = vars;
    bool ok = match_pattern(r, json_object_get(spec, "pattern"), ms, elems, vars, &text);
    ms->nvars = ms->nelems;
    ms->pattern_text = ms->nelems > 1 ? wa_sprintf(a, "(%s)", text.buf ? text.buf : "") : wa_strdup(a, text.buf ? text.buf : "");
    wsb_free(&text);
    if (!ok) return NULL;
    if (!ms->nelems) return rd_fail(r, "Invalid compiled plan: a Match without %s.", "pattern"), NULL;
    /* subsets: {"name": ["A", "B"]} */
    json_t *subs = json_object_get(spec, "subsets");
    ms->nsubsets = (int)json_object_size(subs);
    ms->subset_names = WA_ARRAY(a, const char *, ms->nsubsets ? ms->nsubsets : 1);
    ms->subset_vars = WA_ARRAY(a, uint64_t, ms->nsubsets ? ms->nsubsets : 1);
    {
        const char *key;
        json_t *val;
        int i = 0;
        json_object_foreach(subs, key, val) {
            ms->subset_names[i] = wa_strdup(a, key);
            for (size_t k = 0; k < json_array_size(val); k++) {
                int vi = var_of(ms, json_string_value(json_array_get(val, k)) ? json_string_value(json_array_get(val, k)) : "");
                if (vi < 0) return rd_fail(r, "The compiled plan's SUBSET names an unknown variable of %s", key), NULL;
                ms->subset_vars[i] |= 1ULL << vi;
            }
            i++;
        }
    }
    /* after */
    json_t *after = json_object_get(spec, "after");
    const char *av = json_string_value(json_object_get(after, "value"));
    const char *afn = call_name(after);
    if (av && !strcmp(av, "SKIP_PAST_LAST_ROW")) ms->after = WMA_PAST_LAST_ROW;
    else if (av && !strcmp(av, "SKIP_TO_NEXT_ROW")) ms->after = WMA_TO_NEXT_ROW;
    else if (afn && (!strcmp(afn, "$SKIP TO FIRST$1") || !strcmp(afn, "$SKIP TO LAST$1"))) {
        ms->after = afn[9] == 'F' ? WMA_TO_FIRST : WMA_TO_LAST;
        const char *v = json_string_value(json_object_get(json_array_get(json_object_get(after, "operands"), 0), "value"));
        ms->after_var = v ? var_of(ms, v) : -1;
        if (ms->after_var < 0) return rd_fail(r, "The compiled plan's AFTER MATCH names an unknown variable: %s", v), NULL;
    } else {
        return rd_fail(r, "Invalid compiled plan: a Match with an unknown %s.", "after option"), NULL;
    }
    /* WITHIN */
    json_t *iv = json_object_get(spec, "interval");
    if (iv && !json_is_null(iv)) {
        static const WSchema none = {0, NULL, NULL};
        WExpr *w = rd_rex(r, iv, &none);
        if (!w) return NULL;
        if (w->kind != WX_LITERAL || w->type->id != WT_INTERVAL_DT || w->is_null)
            return rd_fail(r, "Only constant intervals with millisecond resolution are supported as time constraints of patterns.%s", ""), NULL;
        ms->has_within = true;
        ms->within_ms = w->lit.i;
    }
    MatchRd m = {.ms = ms, .in = in};
    /* DEFINE, in the order written */
    json_t *defs = json_object_get(spec, "patternDefinitions");
    ms->define = WA_ARRAY(a, WMatchProg *, ms->nvars);
    ms->define_order = WA_ARRAY(a, int, ms->nvars);
    {
        const char *key;
        json_t *val;
        json_object_foreach(defs, key, val) {
            int vi = var_of(ms, key);
            if (vi < 0 || ms->define[vi]) continue;
            if (!(ms->define[vi] = match_prog(r, &m, val, true))) return NULL;
            ms->define_order[ms->ndefine_order++] = vi;
        }
    }
    /* MEASURES: the output is the partition columns, then the measures */
    json_t *meas = json_object_get(spec, "measures");
    ms->nmeasures = (int)json_object_size(meas);
    if (x->nkeys + ms->nmeasures != out->n)
        return rd_fail(r, "Invalid compiled plan: the Match's measures do not match its %s.", "outputType"), NULL;
    ms->measure_names = WA_ARRAY(a, const char *, ms->nmeasures ? ms->nmeasures : 1);
    ms->measures = WA_ARRAY(a, WMatchProg, ms->nmeasures ? ms->nmeasures : 1);
    {
        const char *key;
        json_t *val;
        int i = 0;
        json_object_foreach(meas, key, val) {
            WMatchProg *pg = match_prog(r, &m, val, false);
            if (!pg) return NULL;
            ms->measure_names[i] = wa_strdup(a, key);
            ms->measures[i++] = *pg;
        }
    }
    return x;
}

/* ---------------- WindowRank / WindowDeduplicate / WindowJoin ---------------- */

/* The attached window columns of `w` (a WindowAttached strategy) over a row of n fields into
   *ws / *we; false with the error set when they are missing or out of range. */
static bool attached_cols(Rd *r, json_t *w, int n, int *ws, int *we)
{
    const char *strategy = json_string_value(json_object_get(w, "strategy"));
    json_t *js = json_object_get(w, "windowStart"), *je = json_object_get(w, "windowEnd");
    if (!strategy || strcmp(strategy, "WindowAttached") != 0 || !json_is_integer(js) || !json_is_integer(je))
        return rd_fail(r, "Invalid compiled plan: a window rank, deduplicate or join needs a %s windowing strategy.",
                       "WindowAttached");
    *ws = rd_int(js, RD_BAD_INDEX);
    *we = rd_int(je, RD_BAD_INDEX);
    if (*ws < 0 || *ws >= n || *we < 0 || *we >= n)
        return rd_fail(r, "Invalid compiled plan: the window %s columns are out of range.", "start/end");
    return true;
}

static bool keys_in_range(Rd *r, int nk, const int *k, int n, const char *what)
{
    for (int i = 0; i < nk; i++)
        if (k[i] < 0 || k[i] >= n) return rd_fail(r, "Invalid compiled plan: a %s index is out of range.", what);
    return true;
}

WRel *rd_window_rank(Rd *r, json_t *j, WRel *in, const WSchema *out, bool dedup)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_RANK, 1);
    WRelWindow *xw = wrel_window_mut(x);
    WRelRank *xr = wrel_rank_mut(x);
    json_t *w = json_object_get(j, "windowing");
    rd_window(r, w, x);
    if (!attached_cols(r, w, in->out.n, &xw->start_col, &xw->end_col)) return NULL;
    xw->time_col = xw->end_col;
    xw->dedup = dedup;
    if (dedup) {
        x->nkeys = rd_ints(r, json_object_get(j, "partitionKeys"), &x->keys);
        json_t *ok = json_object_get(j, "orderKey");
        int oc = json_is_integer(ok) ? rd_int(ok, -1) : -1;
        if (oc < 0 || oc >= in->out.n)
            return rd_fail(r, "Invalid compiled plan: the window deduplicate's %s is out of range.", "orderKey"), NULL;
        xr->keep_last = json_is_true(json_object_get(j, "keepLastRow"));
        x->nsort = 1;
        x->sort_cols = WA_ARRAY(r->a, int, 1);
        x->sort_desc = WA_ARRAY(r->a, bool, 1);
        x->sort_nulls_first = WA_ARRAY(r->a, bool, 1);
        x->sort_cols[0] = oc;
        x->sort_desc[0] = xr->keep_last;
        x->sort_nulls_first[0] = !xr->keep_last;
        x->time_col = oc;
        xr->dedup_rowtime = !xw->proctime;
        xr->func = WRANK_ROW_NUMBER;
        xr->start = xr->end = 1;
        xr->output_number = false;
        xr->col = -1;
        if (out->n != in->out.n)
            return rd_fail(r, "Invalid compiled plan: the window deduplicate has %s output fields.", "the wrong number of"), NULL;
    } else {
        const char *rt = json_string_value(json_object_get(j, "rankType"));
        if (rt && strcmp(rt, "ROW_NUMBER") && strcmp(rt, "RANK") && strcmp(rt, "DENSE_RANK"))
            return rd_fail(r, "Invalid compiled plan: unknown rank type %s.", rt), NULL;
        xr->func = rt && !strcmp(rt, "RANK") ? WRANK_RANK : rt && !strcmp(rt, "DENSE_RANK") ? WRANK_DENSE_RANK : WRANK_ROW_NUMBER;
        x->nkeys = rd_ints(r, json_object_get(json_object_get(j, "partitionSpec"), "fields"), &x->keys);
        json_t *ob = json_object();
        json_object_set(ob, "orderBy", json_object_get(j, "sortSpec"));
        bool ok = rd_sort_fields(r, ob, x, in);
        json_decref(ob);
        if (!ok) return NULL;
        json_t *rr = json_object_get(j, "rankRange");
        const char *rrt = json_string_value(json_object_get(rr, "type"));
        if (rrt && strcmp(rrt, "Constant") != 0)
            return rd_fail(r, "EXECUTE PLAN cannot run a window rank with a %s rank range.", rrt), NULL;
        xr->start = json_integer_value(json_object_get(rr, "start"));
        xr->end = json_integer_value(json_object_get(rr, "end"));
        xr->output_number = json_is_true(json_object_get(j, "outputRowNumber"));
        xr->col = xr->output_number ? out->n - 1 : -1;
        if (out->n != in->out.n + (xr->output_number ? 1 : 0))
            return rd_fail(r, "Invalid compiled plan: the window rank has %s output fields.", "the wrong number of"), NULL;
    }
    if (!keys_in_range(r, x->nkeys, x->keys, in->out.n, "partition key")) return NULL;
    return x;
}

WRel *rd_window_join(Rd *r, json_t *j, WRel **ins, const WSchema *out)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_JOIN, 2);
    WRelWindow *xw = wrel_window_mut(x);
    WSchema comb = rd_concat(r, &ins[0]->out, &ins[1]->out);
    if (!rd_join_spec(r, json_object_get(j, "joinSpec"), x, &comb)) return NULL;
    if (!keys_in_range(r, x->nkeys, x->keys, ins[0]->out.n, "join key") ||
        !keys_in_range(r, x->nkeys, wrel_join(x)->right_keys, ins[1]->out.n, "join key"))
        return NULL;
    json_t *lw = json_object_get(j, "leftWindowing"), *rw = json_object_get(j, "rightWindowing");
    rd_window(r, lw, x);
    if (!attached_cols(r, lw, ins[0]->out.n, &xw->start_col, &xw->end_col) ||
        !attached_cols(r, rw, ins[1]->out.n, &xw->rstart_col, &xw->rend_col))
        return NULL;
    xw->time_col = xw->end_col;
    int expect = ins[0]->out.n + (wrel_join(x)->semi || wrel_join(x)->anti ? 0 : ins[1]->out.n);
    if (out->n != expect)
        return rd_fail(r, "Invalid compiled plan: the window join has %s output fields.", "the wrong number of"), NULL;
    return x;
}
