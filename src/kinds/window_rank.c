/*
 * window_rank.c — the node kind WindowRank / WindowDeduplicate: a top-N or deduplication per
 * window (Flink's StreamPhysicalWindowRank / StreamPhysicalWindowDeduplicate and their exec
 * nodes). Its operations in every stage, each beside the others: the physical derivation
 * (changelog mode, unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name
 * and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the
 * Abstract Syntax Tree line, the runtime operator and the job-graph operators; wkind_window_rank
 * at the end names them (kinds.h). Helpers shared with other kinds stay in their stage
 * (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_window_rank(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = WCM_INSERT;
    /* as Flink's WindowRank: hash by the partition keys without the window columns, single
       when there are none */
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_window_rank(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_windowed(dn->r);
    const char *const *inn = dn->inn;
    const WRelWindow *rw = wrel_window(r);
    const WRelRank *rr = wrel_rank(r);
    wsb_puts(out, "(window=[");
    dg_window_spec(out, r, NULL, inn[rw->start_col], inn[rw->end_col], NULL);
    if (rw->dedup) {
        wsb_printf(out, "], keep=[%s], partitionKeys=[", rr->keep_last ? "LastRow" : "FirstRow");
        dg_key_names(out, inn, r->nkeys, r->keys);
        wsb_printf(out, "], orderKey=[%s], order=[%s])", r->nsort ? inn[r->sort_cols[0]] : "",
                   rw->proctime ? "PROCTIME" : "ROWTIME");
        return;
    }
    wsb_printf(out, "], rankType=[%s], rankRange=[rankStart=%lld, rankEnd=%lld], partitionBy=[",
               dg_rank_type(rr->func), (long long)rr->start, (long long)rr->end);
    dg_key_names(out, inn, r->nkeys, r->keys);
    wsb_puts(out, "], orderBy=[");
    dg_sort_list(out, r, inn);
    wsb_puts(out, "], ");
    dg_select_list(x, r, out);
    wsb_putc(out, ')');
}

static const char *name_window_rank(const WRel *r)
{
    return wrel_window(r)->dedup ? "WindowDeduplicate" : "WindowRank";
}

static const char *exec_type_window_rank(const WRel *r)
{
    return wrel_window(r)->dedup ? "stream-exec-window-deduplicate_1" : "stream-exec-window-rank_1";
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

WRel *rd_window_rank(Rd *r, json_t *j, WRel *in, const WSchema *out, bool dedup)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_RANK, 1);
    WRelWindow *xw = wrel_window_mut(x);
    WRelRank *xr = wrel_rank_mut(x);
    json_t *w = json_object_get(j, "windowing");
    rd_window(r, w, x);
    if (!rd_attached_cols(r, w, in->out.n, &xw->start_col, &xw->end_col)) return NULL;
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
    if (!rd_keys_in_range(r, x->nkeys, x->keys, in->out.n, "partition key")) return NULL;
    return x;
}

static WRel *rdn_window_rank(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    const char *type = r->cur_type;
    return rd_window_rank(r, j, in, out, strcmp(type, "stream-exec-window-rank_1") != 0);
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_window_rank(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_window_ok(r, "windowing", x, is) && rdc_indexes_ok(r, "sortSpec.fields", x->sort_cols, x->nsort, is->n) &&
           rdc_columns_ok(r, x, 0, is, 0, is->n);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_window_rank(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelWindow *rw = wrel_window(r);
    const WRelRank *rr = wrel_rank(r);
    WSortKey *sk = WA_ARRAY(p->arena, WSortKey, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++) sk[i] = (WSortKey){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    WWindowRankSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                          .start_col = rw->start_col, .end_col = rw->end_col, .nsort = r->nsort, .sort = sk,
                          .func = (WRankFunc)rr->func, .rank_start = rr->start, .rank_end = rr->end,
                          .output_rank_number = rr->output_number, .dedup = rw->dedup,
                          .keep_last = rr->keep_last, .proctime = rw->proctime,
                          .out = {r->out.n, r->out.types, r->out.names}};
    return wop_window_rank_new(&L->ctx, &sp);
}

/* ---- runtime: job-graph operators (vertices.c) ---- */

const WKindDef wkind_window_rank = {
    .kind = WR_WINDOW_RANK,
    .phys = {.derive = derive_window_rank},
    .ub = {.satisfy = ub_forward},
    .ex = {.name_of = name_window_rank, .exec_type_of = exec_type_window_rank, .digest = dg_window_rank},
    .cp = {.write = cp_window_rank_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-window-rank_1", 1, rdn_window_rank}, {"stream-exec-window-deduplicate_1", 1, rdn_window_rank}}},
    .rd_check = {.check = rdc_window_rank},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_window_rank, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = name_window_rank, .add_ops = vx_plain},
};
