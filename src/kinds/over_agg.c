/*
 * over_agg.c — the node kind OverAggregate: OVER windows, the streaming frames ending at CURRENT
 * ROW and the batch ones (Flink's StreamPhysicalOverAggregate / StreamExecOverAggregate,
 * BatchExecOverAggregate). Its operations in every stage, each beside the others: the physical
 * derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement, the
 * EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the
 * cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_over_agg at the end names them (kinds.h). Helpers shared with other kinds stay in their
 * stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_over_agg(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    if (wrel_over(r)->batch) {  /* batch: Sort + Exchange below (over_rules.c) */
        wover_batch_physical(p, r);
        return r;
    }
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "OverAggregate doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void over_bound(WStrBuf *out, const WOverBound *b, ExDialect d)
{
    switch (b->kind) {
    case WOB_UNBOUNDED_PRECEDING: wsb_puts(out, "UNBOUNDED PRECEDING"); return;
    case WOB_UNBOUNDED_FOLLOWING: wsb_puts(out, "UNBOUNDED FOLLOWING"); return;
    case WOB_CURRENT_ROW: wsb_puts(out, "CURRENT ROW"); return;
    case WOB_PRECEDING: case WOB_FOLLOWING:
        if (b->lit) ex_literal(out, b->lit, d);
        else wsb_printf(out, "%g", b->offset);
        wsb_puts(out, b->kind == WOB_PRECEDING ? " PRECEDING" : " FOLLOWING");
        return;
    }
}

/* BatchPhysicalOverAggregate: partitionBy, orderBy, window#i=[calls frame], select */
static void batch_over_digest(const WRel *r, const char *const *inn, ExDialect d, WStrBuf *out)
{
    const WOverSpec *ov = wrel_over(r)->batch;
    wsb_putc(out, '(');
    ex_partition_order_by(out, r, inn);
    for (int w = 0; w < ov->nwindows; w++) {
        const WOverWindow *win = &ov->windows[w];
        wsb_printf(out, "window#%d=[", w);
        for (int k = 0; k < win->ncalls; k++) {
            const WOverCall *c = &win->calls[k];
            if (k) wsb_puts(out, ", ");
            if (c->fn == WOF_AGG) ex_agg_call(&c->agg, inn, c->name, out, false);
            else wsb_printf(out, "%s(%s) AS %s", wover_fn_name(c), c->args_text ? c->args_text : "*", c->name);
        }
        wsb_printf(out, " %s BETWEEN ", win->rows ? "ROWS" : "RANGE");
        over_bound(out, &win->lower, d);
        wsb_puts(out, " AND ");
        over_bound(out, &win->upper, d);
        wsb_puts(out, "], ");
    }
    wsb_puts(out, "select=[");
    for (int i = 0; i < r->out.n; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[i]);
    wsb_puts(out, "])");
}

/* StreamPhysicalOverAggregate: partitionBy (when keyed), orderBy, window=[ ROWS|RANGE BETWEEN
   UNBOUNDED PRECEDING | n PRECEDING AND CURRENT ROW] (RANGE offsets in ms), select=[input columns,
   calls AS w0$oN] */
static void stream_over_digest(const WRel *r, const char *const *inn, WStrBuf *out)
{
    const WRelOver *ro = wrel_over(r);
    const WRelAgg *ag = wrel_agg(r);
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "partitionBy=[");
        for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[r->keys[i]]);
        wsb_puts(out, "], ");
    }
    wsb_printf(out, "orderBy=[%s ASC], window=[ %s BETWEEN ", r->time_col >= 0 ? inn[r->time_col] : "",
               ro->rows ? "ROWS" : "RANGE");
    if (ro->unbounded) wsb_puts(out, "UNBOUNDED PRECEDING");
    else wsb_printf(out, "%lld PRECEDING", (long long)ro->preceding);
    wsb_puts(out, " AND CURRENT ROW], select=[");
    int nin = r->inputs[0]->out.n;
    for (int i = 0; i < nin; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[i]);
    const WOverWindow *w = ro->stream && ro->stream->nwindows == 1 ? &ro->stream->windows[0] : NULL;
    int ncalls = w ? w->ncalls : ag->naggs;
    for (int k = 0; k < ncalls; k++) {
        const char *name = nin + k < r->out.n ? r->out.names[nin + k] : "?";
        wsb_puts(out, nin + k ? ", " : "");
        if (!w) ex_agg_call(&ag->aggs[k], inn, name, out, false);
        else if (w->calls[k].fn == WOF_AGG) ex_agg_call(&w->calls[k].agg, inn, name, out, false);
        else wsb_printf(out, "%s(%s) AS %s", wover_fn_name(&w->calls[k]),
                        w->calls[k].args_text ? w->calls[k].args_text : "*", name);
    }
    wsb_puts(out, "])");
}

static void dg_over_agg(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    if (wrel_over(r)->batch) {
        batch_over_digest(r, inn, d, out);
        return;
    }
    stream_over_digest(r, inn, out);
}

static const char *exec_type_over_agg(const WRel *r)
{
    return wrel_over(r)->batch ? "batch-exec-over-aggregate_1" : "stream-exec-over-aggregate_1";
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_over_agg(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRel *in = cn->in;
    if (wrel_over(r)->stream) cp_over_spec_json(x, r, in, j);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

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
        const char *in_name = rd_call_name(json_array_get(calls, (size_t)i));
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
        const char *in_name = rd_call_name(cj);
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

static WRel *rdn_over_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    return rd_over_aggregate(r, j, in, out);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_over_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    const WRelOver *ro = wrel_over(r);
    if (ro->batch) {        /* batch */
        WSortKeySpec *ks = WA_ARRAY(p->arena, WSortKeySpec, r->nsort ? r->nsort : 1);
        for (int i = 0; i < r->nsort; i++)
            ks[i] = (WSortKeySpec){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
        WOverBatchSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys,
                             .keys = r->keys, .nsort = r->nsort, .sort = ks, .over = ro->batch,
                             .out = {r->out.n, r->out.types, r->out.names}};
        return wop_over_batch_new(&L->ctx, &sp);
    }
    WOverAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                       .time_col = r->time_col, .proctime = ro->proctime, .rows_frame = ro->rows,
                       .unbounded = ro->unbounded, .preceding = ro->preceding, .naggs = ag->naggs,
                       .aggs = ag->aggs, .out = {r->out.n, r->out.types, r->out.names}};
    if (ro->stream && ro->stream->nwindows == 1) {
        sp.ncalls = ro->stream->windows[0].ncalls;
        sp.calls = ro->stream->windows[0].calls;
    }
    return wop_over_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_over_agg = {
    .kind = WR_OVER_AGG,
    .phys = {.derive = derive_over_agg},
    .ub = {.satisfy = ub_needs_both},
    .ex = {.name = "OverAggregate", .exec_type_of = exec_type_over_agg, .digest = dg_over_agg},
    .cp = {.write = cp_over_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-over-aggregate_1", 1, rdn_over_aggregate}}},
    .rd_check = {.check = rdc_own_reader},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_over_agg, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
