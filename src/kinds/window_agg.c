/*
 * window_agg.c — the node kind WindowAggregate: aggregation over TUMBLE / HOP / CUMULATE / SESSION
 * windows, also the legacy group window (Flink's StreamPhysicalWindowAggregate /
 * StreamExecWindowAggregate, StreamExecGroupWindowAggregate). Its operations in every stage, each
 * beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges), the
 * update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_window_agg at the end names them (kinds.h). Helpers shared with
 * other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_window_agg(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r = wrel_cast_mut(r, WR_WINDOW_AGG);
    r->changelog = WCM_INSERT;
    r->input_retracts = in->changelog != WCM_INSERT;
    int nk = r->nkeys + 2;
    int *u = ints(p, nk);
    for (int i = 0; i < r->nkeys; i++) u[i] = i;
    u[r->nkeys] = wrel_window(r)->out_start;
    u[r->nkeys + 1] = wrel_window(r)->out_end;
    wphys_set_unique(p, r, nk, u);
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

/* A legacy group window's window, Flink's LogicalWindow toString: TumblingGroupWindow('w$,
   rowtime, 5000), SlidingGroupWindow('w$, proctime, size, slide), SessionGroupWindow('w$, ts, gap). */
static void legacy_window_spec(WStrBuf *out, const WRel *r, const char *time_name)
{
    const WRelWindow *rw = wrel_window(r);
    switch (rw->kind) {
    case WWIN_HOP:
        wsb_printf(out, "SlidingGroupWindow('w$, %s, %lld, %lld)", time_name, (long long)rw->size,
                   (long long)rw->slide);
        break;
    case WWIN_SESSION: wsb_printf(out, "SessionGroupWindow('w$, %s, %lld)", time_name, (long long)rw->gap); break;
    default: wsb_printf(out, "TumblingGroupWindow('w$, %s, %lld)", time_name, (long long)rw->size); break;
    }
}

/* GroupWindowAggregate's digest after its groupBy: window, properties, select (Flink
   StreamPhysicalGroupWindowAggregate explainTerms). */
static void legacy_window_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out)
{
    const WRelAgg *ag = wrel_agg(r);
    wsb_puts(out, "window=[");
    legacy_window_spec(out, r, inn[wrel_window(r)->time_col]);
    wsb_putc(out, ']');
    int p0 = r->nkeys + ag->naggs, np = r->out.n - p0;
    static const char *const FN[] = {"start", "end", "rowtime", "proctime"};
    if (np > 0) {
        wsb_puts(out, ", properties=[");
        for (int i = 0; i < np; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[p0 + i]);
        wsb_putc(out, ']');
    }
    wsb_puts(out, ", select=[");
    int q = 0;
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", q++ ? ", " : "", inn[r->keys[i]]);
    for (int j = 0; j < ag->naggs; j++) {
        if (q++) wsb_puts(out, ", ");
        ex_agg_call(&ag->aggs[j], inn, ex_out_names(x, r)[r->nkeys + j], out, false);
    }
    for (int i = 0; i < np; i++) {
        int f = np == 3 && i == 2 ? 3 : i < 4 ? i : 3;
        wsb_printf(out, "%s%s('w$) AS %s", q++ ? ", " : "", FN[f], r->out.names[p0 + i]);
    }
    wsb_puts(out, "])");
}

static void dg_window_agg(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_windowed(dn->r);
    const WRelAgg *ag = wrel_agg(r);
    const char *const *inn = dn->inn;
    ExNode *node = dn->node;
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "groupBy=[");
        dg_key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "], ");
    }
    const WRelWindow *rw = wrel_window(r);
    if (rw->legacy) {
        legacy_window_digest(x, r, inn, out);
        return;
    }
    wsb_puts(out, "window=[");
    if (rw->attached) dg_window_spec(out, r, NULL, inn[rw->start_col], inn[rw->end_col], NULL);
    else dg_window_spec(out, r, inn[rw->time_col], NULL, NULL, inn);
    wsb_puts(out, "], select=[");
    int q = 0;
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", q++ ? ", " : "", inn[r->keys[i]]);
    for (int j = 0; j < ag->naggs; j++) {
        if (q++) wsb_puts(out, ", ");
        ex_agg_call(&ag->aggs[j], inn, ex_out_names(x, r)[r->nkeys + j], out, false);
    }
    if (rw->out_start >= 0) wsb_printf(out, "%sstart('w$) AS %s", q++ ? ", " : "", r->out.names[rw->out_start]);
    if (rw->out_end >= 0) wsb_printf(out, "%send('w$) AS %s", q++ ? ", " : "", r->out.names[rw->out_end]);
    if (rw->out_time >= 0 && node && node->wtime_used)
        wsb_printf(out, "%s%s('w$) AS %s", q++ ? ", " : "", rw->proctime ? "proctime" : "rowtime",
                   r->out.names[rw->out_time]);
    wsb_puts(out, "])");
}

static const char *name_window_agg(const WRel *r)
{
    return wrel_window(r)->legacy ? "GroupWindowAggregate" : "WindowAggregate";
}

static const char *exec_type_window_agg(const WRel *r)
{
    return wrel_window(r)->legacy ? "stream-exec-group-window-aggregate_1" : "stream-exec-window-aggregate_1";
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

/* StreamExecGroupWindowAggregate (legacy GROUP BY TUMBLE / HOP / SESSION): grouping, aggCalls,
   window {kind, alias, timeField, isTimeWindow, size | slide | gap}, namedWindowProperties (none,
   or w$start, w$end, [w$rowtime,] w$proctime after the aggregates), needRetraction. */
WRel *rd_group_window(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_AGG, 1);
    WRelWindow *xw = wrel_window_mut(x);
    xw->legacy = true;
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    json_t *w = json_object_get(j, "window");
    const char *kind = json_string_value(json_object_get(w, "kind"));
    if (!kind || (strcmp(kind, "TUMBLING") && strcmp(kind, "SLIDING") && strcmp(kind, "SESSION")) ||
        json_is_false(json_object_get(w, "isTimeWindow"))) {
        rd_fail(r, "The compiled plan has an unsupported group window kind: %s", kind ? kind : "(none)");
        return NULL;
    }
    xw->kind = !strcmp(kind, "SLIDING") ? WWIN_HOP : !strcmp(kind, "SESSION") ? WWIN_SESSION : WWIN_TUMBLE;
    if (xw->kind == WWIN_SESSION) {
        xw->gap = rd_iso_ms(json_string_value(json_object_get(w, "gap")));
    } else {
        xw->size = rd_iso_ms(json_string_value(json_object_get(w, "size")));
        if (xw->kind == WWIN_HOP) xw->slide = rd_iso_ms(json_string_value(json_object_get(w, "slide")));
    }
    json_t *tf = json_object_get(w, "timeField");
    json_t *fi = json_object_get(tf, "fieldIndex");
    xw->time_col = (int)json_integer_value(fi);
    if (!json_is_integer(fi) || xw->time_col < 0 || xw->time_col >= in->out.n ||
        in->out.types[xw->time_col]->time_attr == WTA_NONE) {
        rd_fail(r, "The compiled plan's group window has no time attribute field%s", "");
        return NULL;
    }
    xw->proctime = in->out.types[xw->time_col]->time_attr == WTA_PROCTIME;
    size_t nprops = json_array_size(json_object_get(j, "namedWindowProperties"));
    size_t want = nprops == 0 ? 0 : xw->proctime ? 3 : 4;
    if (nprops != want || out->n != x->nkeys + wrel_agg(x)->naggs + (int)want) {
        rd_fail(r, "The compiled plan's group window has unexpected named window properties%s", "");
        return NULL;
    }
    xw->legacy_props = nprops > 0;
    xw->out_start = xw->out_end = xw->out_time = -1;
    if (nprops) {
        xw->out_start = x->nkeys + wrel_agg(x)->naggs;
        xw->out_end = xw->out_start + 1;
        xw->out_time = xw->out_start + 2;
    }
    x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
    return x;
}

static WRel *rdn_group_window_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    return rd_group_window(r, j, in, out);
}

static WRel *rdn_window_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WSchema *out = &n->out;
    WRel *x = rd_new_rel(r, WR_WINDOW_AGG, 1);
    WRelWindow *xw = wrel_window_mut(x);
    WRelAgg *xa = wrel_agg_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    rd_window(r, json_object_get(j, "windowing"), x);
    xw->out_start = x->nkeys + xa->naggs;
    xw->out_end = xw->out_start + 1;
    xw->out_time = xw->out_start + 2;
    if (!rd_window_time(r, json_object_get(j, "windowing"), x, out)) return NULL;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_window_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (wrel_window(x)->legacy) return rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && rdc_aggs_ok(r, "aggCalls", x, is->n);
    return rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && rdc_aggs_ok(r, "aggCalls", x, is->n) &&
           rdc_window_ok(r, "windowing", x, is) && rdc_keys_aggs_out_ok(r, x, is, 3);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_window_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                         .naggs = ag->naggs, .aggs = ag->aggs, .win = bd_window_def(L, r, in),
                         .input_retracts = r->input_retracts, .out = {r->out.n, r->out.types, r->out.names},
                         .group_window = wrel_window(r)->legacy, .group_props = wrel_window(r)->legacy};
    return wop_window_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_window_agg = {
    .kind = WR_WINDOW_AGG,
    .phys = {.derive = derive_window_agg},
    .ub = {.satisfy = ub_needs_both},
    .ex = {.name_of = name_window_agg, .exec_type_of = exec_type_window_agg, .digest = dg_window_agg},
    .cp = {.write = cp_windowed_agg, .output_schema = cp_schema_window_time_if_used, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-group-window-aggregate_1", 1, rdn_group_window_aggregate}, {"stream-exec-window-aggregate_1", 1, rdn_window_aggregate}}},
    .rd_check = {.check = rdc_window_agg},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_window_agg, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = name_window_agg, .add_ops = vx_plain},
};
