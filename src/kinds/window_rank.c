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
    .rd_check = {.check = rdc_window_rank},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_window_rank, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = name_window_rank, .add_ops = vx_plain},
};
