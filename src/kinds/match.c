/*
 * match.c — the node kind Match: MATCH_RECOGNIZE (Flink's StreamPhysicalMatch / StreamExecMatch).
 * Its operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_match at the end names them
 * (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h,
 * runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_match(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    /* StreamPhysicalMatchRule: a hash exchange on the partition keys */
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "Match doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_match(const DgNode *dn, WStrBuf *out)
{
    ex_match_digest(dn->x, dn->r, dn->inn, dn->d, out);
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_match(const CpNode *cn, json_t *j)
{
    ex_match_json(cn->x, cn->r, j);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

/* MATCH_RECOGNIZE read back: the spec being built, the input, whether a DEFINE or a MEASURES
   expression is being read, and the pattern variables it refers to. */
typedef struct MatchRd {
    WMatchSpec *ms;
    const WRel *in;
    bool define;
    int nrefs, cap;
    WMatchRef *refs;
} MatchRd;

static WMatchProg *match_prog(Rd *r, MatchRd *m, json_t *e, bool define);

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
    const char *fn = rd_call_name(j);
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
    const char *fn = rd_call_name(p);
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
    const char *afn = rd_call_name(after);
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

static WRel *rdn_match(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    return rd_match(r, j, in, out);
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_match(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    ex_match_ast(r, out);
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_match(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WSortKeySpec *ks = WA_ARRAY(p->arena, WSortKeySpec, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++)
        ks[i] = (WSortKeySpec){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    WMatchOpSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                       .norder = r->nsort, .order = ks, .spec = wrel_match(r)->spec, .out_ncols = r->out.n,
                       .out_types = r->out.types, .out_names = r->out.names};
    return wop_match_new(&L->ctx, &sp);
}

const WKindDef wkind_match = {
    .kind = WR_MATCH,
    .phys = {.derive = derive_match},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Match", .exec_type = "stream-exec-match_1", .digest = dg_match},
    .cp = {.write = cp_match, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-match_1", 1, rdn_match}}},
    .rd_check = {.check = rdc_own_reader},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_match},
    .build = {.build = bd_match, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
