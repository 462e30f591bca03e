/*
 * watermark.c — the node kind WatermarkAssigner: a table's rowtime column and its watermark
 * expression (Flink's StreamPhysicalWatermarkAssigner / StreamExecWatermarkAssigner). Its
 * operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_watermark at the end names
 * them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_watermark(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const WRelWatermark *ww = wrel_watermark(r);
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    wsb_printf(out, "(rowtime=[%s], watermark=[", inn[ww->rowtime_col]);
    if (ww->expr) ex_rex(out, ww->expr, inn, d);
    wsb_puts(out, "])");
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

/* e with its input references of rowtime type read as plain timestamps (a copy where needed). */
static const WExpr *plain_time_refs(WArena *a, const WExpr *e)
{
    if (e->kind == WX_COLUMN) {
        if (!wtype_is_timestamp(e->type) || e->type->time_attr != WTA_ROWTIME) return e;
        WExpr *c = wa_memdup(a, e, sizeof *e);
        c->type = wtype_with_time_attr(a, e->type, WTA_NONE);
        return c;
    }
    if (!e->nargs) return e;
    WExpr *c = wa_memdup(a, e, sizeof *e);
    c->args = WA_ARRAY(a, WExpr *, e->nargs);
    for (int i = 0; i < e->nargs; i++) c->args[i] = (WExpr *)plain_time_refs(a, e->args[i]);
    return c;
}

static bool cp_watermark(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelWatermark *ww = wrel_watermark(r);
    WArena *a = cn->a;
    const int *cm = cn->cm;
    /* the expression reads the input before it is a time attribute */
    json_object_set_new(j, "watermarkExpr", ww->expr ? ex_rex_json(x->p, plain_time_refs(a, ww->expr), cm)
                                                       : json_null());
    json_object_set_new(j, "rowtimeFieldIndex", json_integer(cm ? cm[ww->rowtime_col] : ww->rowtime_col));
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_watermark_assigner(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_WATERMARK, 1);
    WRelWatermark *ww = wrel_watermark_mut(x);
    ww->rowtime_col = rd_int(json_object_get(j, "rowtimeFieldIndex"), RD_BAD_INDEX);
    ww->expr = rd_rex(r, json_object_get(j, "watermarkExpr"), &in->out);
    if (!ww->expr) return NULL;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_watermark(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_time_col_ok(r, "rowtimeFieldIndex", is, wrel_watermark(x)->rowtime_col) && rdc_passthrough_ok(r, x, is);
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_watermark(AstNode *a)
{
    const WRel *r = a->r;
    const WRelWatermark *ww = wrel_watermark(r);
    WStrBuf *out = a->out;
    wsb_printf(out, "LogicalWatermarkAssigner(rowtime=[%s], watermark=[", r->inputs[0]->out.names[ww->rowtime_col]);
    if (ww->expr) ex_rex(out, ww->expr, NULL, EXD_AST);
    wsb_puts(out, "])\n");
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

/* A source's split name for the WatermarkAssigner's insight (WWmSplits.label). */
static void source_split_label(void *ctx, int split, char *buf, size_t bufsz)
{
    const WSource *src = ctx;
    if (src->split_label) src->split_label(src, split, buf, bufsz);
    else snprintf(buf, bufsz, "split %d", split);
}

/* A source's origin name for insight (WWmOrigin.label): "split <Flink's split id>" for a source
   with per-split watermarks, else the source's own ("file <path>"). */
static void source_origin_label(void *ctx, int split, char *buf, size_t bufsz)
{
    const WSource *src = ctx;
    char name[WINS_ORIGIN_NAME];
    source_split_label(ctx, split, name, sizeof name);
    snprintf(buf, bufsz, "%s%s", src->split_watermarks ? "split " : "", name);
}

/* The WatermarkAssigner r's configuration. Its input is a source of lane L (through Calcs): the
   source's split / file names the origin of the rows (insight's rows behind the watermark); a
   source with per-split watermarks (kafka: Flink pushes the watermark into the scan) gets one per
   split, the table's scan.watermark.* options (emit strategy, default on-periodic as Flink's;
   idle timeout, default table.exec.source.idle-timeout) and pipeline.auto-watermark-interval. */
static bool watermark_config(WPlanCtx *p, Lane *L, const WRel *r, WWmConfig *wc)
{
    const WRelWatermark *ww = wrel_watermark(r);
    *wc = (WWmConfig){.rowtime_col = ww->rowtime_col, .every_record = ww->every_record,
                      .trigger_interval_ms = ww->trigger_interval};
    const WRel *in = r->inputs[0];
    while (in->kind == WR_CALC) in = in->inputs[0];
    const WSource *src = NULL;
    for (int i = 0; in->kind == WR_SCAN && i < L->nsrc; i++)
        if (L->srcs[i].rel == in) src = L->srcs[i].src;
    /* insight: the rows' origin (a source that names its splits or files) */
    if (src && src->split_label) wc->origin = (WWmOrigin){&src->split, source_origin_label, (void *)src};
    if (!src || !src->split_watermarks) return true;
    WScanWatermark sw;
    if (!wconn_scan_watermark(&wrel_scan(in)->table->options, &sw, p->err)) return false;
    const WOptions *conf = L->job->env.config;
    wc->splits = (WWmSplits){&src->nsplits, &src->split, &src->split_finished, source_split_label, (void *)src};
    wc->periodic = sw.emit != 0;
    wc->idle_timeout_ms = sw.idle_timeout_ms >= 0 ? sw.idle_timeout_ms : L->job->idle_timeout_ms;
    wc->interval_ms = 200;
    if (conf && !wopts_get_duration_ms(conf, "pipeline.auto-watermark-interval", 200, &wc->interval_ms, p->err))
        return false;
    return true;
}

static WOperator *bd_watermark(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WWmConfig wc;
    if (!watermark_config(p, L, r, &wc)) return NULL;
    return wop_watermark_new(&L->ctx, wrel_watermark(r)->expr, &wc, r->out.n, r->out.types, r->out.names);
}

const WKindDef wkind_watermark = {
    .kind = WR_WATERMARK,
    .phys = {.derive = derive_forward},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "WatermarkAssigner", .exec_type = "stream-exec-watermark-assigner_1", .digest = dg_watermark},
    .cp = {.write = cp_watermark, .output_schema = cp_schema_projected, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-watermark-assigner_1", 1, rdn_watermark_assigner}}},
    .rd_check = {.check = rdc_watermark},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_watermark},
    .build = {.build = bd_watermark, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
