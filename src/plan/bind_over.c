/*
 * bind_over.c — OVER windows of a SELECT, as Calcite converts them and Flink's
 * Batch/StreamPhysicalOverAggregateRule plans them: every call `f(...) OVER (PARTITION BY .. ORDER BY ..
 * frame)` of the select items (also inside expressions) is bound; calls with the same partition
 * and order keys share one OverAggregate node, calls with the same frame in it one window
 * (window#i); windows are numbered in order of first appearance across the SELECT and their
 * calls named w<window>$o<call> (identical calls of a window are computed once). Argument,
 * partition and order expressions that are not input columns are computed by a Calc below.
 * Frames: ranking functions, NTILE, LAG and LEAD ignore the written frame (Calcite: ROWS for
 * ROW_NUMBER, RANGE for the others, UNBOUNDED PRECEDING to CURRENT ROW); without a frame it is
 * RANGE UNBOUNDED PRECEDING to CURRENT ROW with ORDER BY, the whole partition without.
 * Streaming (StreamExecOverAggregate): one window only, ordered ascending by one time attribute,
 * from UNBOUNDED / n PRECEDING to CURRENT ROW; aggregates, LAG and ROW_NUMBER / RANK /
 * DENSE_RANK (CUME_DIST, PERCENT_RANK, NTILE, LEAD refused with Flink's messages).
 * See bind_internal.h. May call the binder (bind_expr.c), plan/, types/.
 */
#include "bind_internal.h"
#include "over_window.h"
#include "sort_rules.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_OVER 256

typedef struct OCall {
    AstExpr *ast;
    int npart, *part;               /* columns of the pre-projection */
    int norder, *order;
    bool *desc, *nulls_first;
    WOverWindow frame;              /* rows / lower / upper of its window */
    WOverCall call;
    int window;                     /* Calcite window group (naming) */
    int node;                       /* OverAggregate node (partition + order) */
    int col;                        /* output column in the last node */
} OCall;

typedef struct OCtx {
    BindCtx *b;
    BAgg g;
    int nin;
    int n;
    OCall calls[MAX_OVER];
} OCtx;

/* ---- collecting the calls ---- */

static void collect(AstExpr *e, AstExpr **out, int *n, int depth)
{
    if (!e || depth > 200 || *n >= MAX_OVER) return;
    if (e->kind == AE_SUBQUERY || e->kind == AE_EXISTS) return;
    if (e->kind == AE_FUNC && e->over) { out[(*n)++] = e; return; }
    for (int i = 0; i < e->nargs; i++) collect(e->args[i], out, n, depth + 1);
    for (int i = 0; i < e->nwhen; i++) {
        collect(e->when[i], out, n, depth + 1);
        collect(e->then[i], out, n, depth + 1);
    }
    collect(e->case_operand, out, n, depth + 1);
    collect(e->else_expr, out, n, depth + 1);
}

bool bover_has_over(const AstQuery *aq)
{
    AstExpr *tmp[MAX_OVER];
    int n = 0;
    for (int i = 0; i < aq->nitems && !n; i++) collect(aq->items[i].expr, tmp, &n, 0);
    return n > 0;
}

static const AstOver *resolve(const AstQuery *aq, const AstOver *ov)
{
    if (!ov->ref_name) return ov;
    for (int i = 0; i < aq->nwindows; i++)
        if (strcmp(aq->windows[i].name, ov->ref_name) == 0) return aq->windows[i].spec;
    return NULL;
}

static void *fail(BindCtx *b, AstPos pos, const char *cls, const char *msg)
{
    werr_set_at(b->p->err, pos.line, pos.col, cls, "%s", msg);
    return NULL;
}

/* A column of the pre-projection computing x: the input column itself, or an argument column. */
static int add_arg(OCtx *o, WExpr *x)
{
    if (x->kind == WX_COLUMN && x->col >= 0 && x->col < o->nin) return x->col;
    BAgg *g = &o->g;
    for (int i = 0; i < g->nargs; i++)
        if (wexpr_equal(g->args[i], x)) return o->nin + i;
    if (g->nargs == g->cap_args) {
        int cap = g->cap_args ? g->cap_args * 2 : 8;
        WExpr **n = WA_ARRAY(o->b->p->arena, WExpr *, cap);
        if (g->nargs) memcpy(n, g->args, sizeof(WExpr *) * (size_t)g->nargs);
        g->args = n;
        g->cap_args = cap;
    }
    g->args[g->nargs++] = x;
    return o->nin + g->nargs - 1;
}

/* An argument column registered by bind_agg_register that only repeats an input column. */
static int plain_arg(const OCtx *o, int c)
{
    if (c < o->nin) return c;
    const WExpr *x = o->g.args[c - o->nin];
    return x->kind == WX_COLUMN && x->col >= 0 && x->col < o->nin ? x->col : c;
}

static bool literal_int(BindCtx *b, AstExpr *e, int64_t *v)
{
    BScope empty;
    bscope_init(&empty);
    WError tmp;
    werr_clear(&tmp);
    WError *saved = b->p->err;
    b->p->err = &tmp;
    WExpr *x = bind_expr(b, &empty, e);
    b->p->err = saved;
    if (!x || x->kind != WX_LITERAL || x->is_null) return false;
    switch (x->type->id) {
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: *v = x->lit.i; return true;
    default: return false;
    }
}

static bool bind_bound(OCtx *o, const AstOver *ov, AstBoundKind k, AstExpr *e, bool rows, WOverBound *out)
{
    BindCtx *b = o->b;
    memset(out, 0, sizeof *out);
    switch (k) {
    case AB_UNBOUNDED_PRECEDING: out->kind = WOB_UNBOUNDED_PRECEDING; return true;
    case AB_UNBOUNDED_FOLLOWING: out->kind = WOB_UNBOUNDED_FOLLOWING; return true;
    case AB_NONE: case AB_CURRENT_ROW: out->kind = WOB_CURRENT_ROW; return true;
    case AB_PRECEDING: out->kind = WOB_PRECEDING; break;
    case AB_FOLLOWING: out->kind = WOB_FOLLOWING; break;
    }
    BScope empty;
    bscope_init(&empty);
    WExpr *x = e ? bind_expr(b, &empty, e) : NULL;
    if (!x) {
        if (!b->p->err->set) fail(b, ov->pos, WEXC_TABLE, "The bound of an OVER window must be a literal.");
        return false;
    }
    if (x->kind != WX_LITERAL || x->is_null) {
        fail(b, ov->pos, WEXC_TABLE, "The bound of an OVER window must be a literal.");
        return false;
    }
    out->lit = x;
    switch (x->type->id) {
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: out->offset = (double)x->lit.i; break;
    case WT_INTERVAL_DT:
        if (rows) { fail(b, ov->pos, WEXC_CALCITE, "ROWS value must be a non-negative integral constant"); return false; }
        out->offset = (double)x->lit.i;
        break;
    case WT_DOUBLE: case WT_FLOAT: out->offset = x->lit.d; break;
    default:
        fail(b, ov->pos, WEXC_TABLE, "The bound of an OVER window must be an integer or a day-time interval literal.");
        return false;
    }
    return true;
}

typedef enum { F_RANK_LIKE, F_NO_FRAME, F_FRAMED } FrameUse;

static bool bind_call(OCtx *o, AstQuery *aq, BScope *scope, OCall *c)
{
    BindCtx *b = o->b;
    WArena *a = b->p->arena;
    AstExpr *e = c->ast;
    const AstOver *ov = resolve(aq, e->over);
    if (!ov) return fail(b, e->pos, WEXC_CALCITE, "Window not found"), false;
    char up[64];
    snprintf(up, sizeof up, "%s", e->name.parts[e->name.n - 1]);
    for (char *q = up; *q; q++) *q = (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q);
    WOverCall *k = &c->call;
    memset(k, 0, sizeof *k);
    k->arg = -1;
    k->default_col = -1;
    FrameUse use = F_NO_FRAME;
    if (!strcmp(up, "ROW_NUMBER")) k->fn = WOF_ROW_NUMBER, use = F_RANK_LIKE;
    else if (!strcmp(up, "RANK")) k->fn = WOF_RANK, use = F_RANK_LIKE;
    else if (!strcmp(up, "DENSE_RANK")) k->fn = WOF_DENSE_RANK, use = F_RANK_LIKE;
    else if (!strcmp(up, "PERCENT_RANK")) k->fn = WOF_PERCENT_RANK, use = F_RANK_LIKE;
    else if (!strcmp(up, "CUME_DIST")) k->fn = WOF_CUME_DIST, use = F_RANK_LIKE;
    else if (!strcmp(up, "NTILE")) k->fn = WOF_NTILE;
    else if (!strcmp(up, "LAG")) k->fn = WOF_LAG;
    else if (!strcmp(up, "LEAD")) k->fn = WOF_LEAD;
    else {
        AstExpr tmp = *e;
        tmp.over = NULL;
        if (e->name.n != 1 || !ast_is_aggregate_call(&tmp)) {
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_VALIDATION,
                        "OVER clause is necessary for window functions; '%s' is not an aggregate or window function", up);
            return false;
        }
        k->fn = WOF_AGG;
        use = F_FRAMED;
    }
    /* partition and order keys */
    c->npart = ov->npartition;
    c->part = WA_ARRAY(a, int, ov->npartition ? ov->npartition : 1);
    for (int i = 0; i < ov->npartition; i++) {
        WExpr *x = bind_expr(b, scope, ov->partition[i]);
        if (!x) return false;
        c->part[i] = add_arg(o, x);
    }
    c->norder = ov->norder;
    int no = ov->norder ? ov->norder : 1;
    c->order = WA_ARRAY(a, int, no);
    c->desc = WA_ARRAY(a, bool, no);
    c->nulls_first = WA_ARRAY(a, bool, no);
    for (int i = 0; i < ov->norder; i++) {
        WExpr *x = bind_expr(b, scope, ov->order[i].expr);
        if (!x) return false;
        c->order[i] = add_arg(o, x);
        c->desc[i] = ov->order[i].desc;
        /* Flink's default null direction: ASC NULLS FIRST, DESC NULLS LAST */
        c->nulls_first[i] = ov->order[i].nulls ? ov->order[i].nulls == 1 : !ov->order[i].desc;
    }
    if (use == F_RANK_LIKE && ov->norder == 0)
        return fail(b, e->pos, WEXC_VALIDATION,
                    "Over Agg: The window rank function requires order by clause with non-constant fields. "
                    "please re-check the over window statement."), false;
    /* the frame */
    WOverWindow *f = &c->frame;
    memset(f, 0, sizeof *f);
    if (use != F_FRAMED) {
        f->rows = k->fn == WOF_ROW_NUMBER;
        f->lower.kind = WOB_UNBOUNDED_PRECEDING;
        f->upper.kind = WOB_CURRENT_ROW;
    } else if (ov->frame == AF_NONE) {
        f->lower.kind = WOB_UNBOUNDED_PRECEDING;
        f->upper.kind = ov->norder ? WOB_CURRENT_ROW : WOB_UNBOUNDED_FOLLOWING;
    } else {
        f->rows = ov->frame == AF_ROWS;
        if (!bind_bound(o, ov, ov->start_kind, ov->start_expr, f->rows, &f->lower)) return false;
        if (!bind_bound(o, ov, ov->end_kind, ov->end_expr, f->rows, &f->upper)) return false;
        if (f->lower.kind == WOB_UNBOUNDED_FOLLOWING)
            return fail(b, ov->pos, WEXC_CALCITE, "UNBOUNDED FOLLOWING cannot be specified for the lower frame boundary"), false;
        if (f->upper.kind == WOB_UNBOUNDED_PRECEDING)
            return fail(b, ov->pos, WEXC_CALCITE, "UNBOUNDED PRECEDING cannot be specified for the upper frame boundary"), false;
        bool offset = f->lower.kind == WOB_PRECEDING || f->lower.kind == WOB_FOLLOWING ||
                      f->upper.kind == WOB_PRECEDING || f->upper.kind == WOB_FOLLOWING;
        if (!f->rows && offset && ov->norder != 1)
            return fail(b, ov->pos, WEXC_CALCITE, "RANGE clause cannot be used with compound ORDER BY clause"), false;
        if (!f->rows && offset) {
            const WType *t = o->nin > c->order[0] ? scope->cols[c->order[0]].type
                                                   : o->g.args[c->order[0] - o->nin]->type;
            if (!wtype_is_numeric(t) && !wtype_is_timestamp(t) && t->id != WT_DATE && t->id != WT_TIME)
                return fail(b, ov->pos, WEXC_CALCITE, "Data Type mismatch between ORDER BY and RANGE clause"), false;
        }
    }
    /* the call */
    switch (k->fn) {
    case WOF_AGG: {
        AstExpr *tmp = wa_memdup(a, e, sizeof *e);
        tmp->over = NULL;
        o->g.ncalls = 0;
        b->agg = &o->g;
        int idx = bind_agg_register(b, scope, tmp);
        b->agg = NULL;
        if (idx < 0) return false;
        k->agg = o->g.calls[idx];
        for (int i = 0; i < k->agg.nargs; i++) k->agg.args[i] = plain_arg(o, k->agg.args[i]);
        if (k->agg.filter_col >= 0) k->agg.filter_col = plain_arg(o, k->agg.filter_col);
        k->type = k->agg.type;
        break;
    }
    case WOF_ROW_NUMBER: case WOF_RANK: case WOF_DENSE_RANK: case WOF_PERCENT_RANK: case WOF_CUME_DIST:
        if (e->nargs || e->star_arg) {
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Invalid number of arguments to function '%s'. Was expecting 0 arguments", up);
            return false;
        }
        k->type = k->fn == WOF_PERCENT_RANK || k->fn == WOF_CUME_DIST ? &WTYPE_DOUBLE_NN : &WTYPE_BIGINT_NN;
        break;
    case WOF_NTILE:
        if (e->nargs != 1) {
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Invalid number of arguments to function 'NTILE'. Was expecting 1 arguments");
            return false;
        }
        if (!literal_int(b, e->args[0], &k->n) || k->n <= 0)
            return fail(b, e->args[0]->pos, WEXC_CALCITE, "Argument to function 'NTILE' must be a positive integer literal"), false;
        k->type = &WTYPE_BIGINT_NN;
        break;
    case WOF_LAG: case WOF_LEAD: {
        if (e->nargs < 1 || e->nargs > 3) {
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Invalid number of arguments to function '%s'. Was expecting 1 arguments", up);
            return false;
        }
        WExpr *x = bind_expr(b, scope, e->args[0]);
        if (!x) return false;
        k->type = wtype_with_nullable(a, wtype_with_time_attr(a, x->type, WTA_NONE), true);
        k->arg = add_arg(o, x);
        k->n = 1;
        if (e->nargs >= 2 && !literal_int(b, e->args[1], &k->n))
            return fail(b, e->args[1]->pos, WEXC_TABLE, "The offset of LAG / LEAD must be an integer literal."), false;
        if (e->nargs == 3) {
            WExpr *d = bind_expr(b, scope, e->args[2]);
            if (!d) return false;
            d = bind_cast(b, d, k->type);
            if (!d) return false;
            k->default_col = add_arg(o, d);
        }
        break;
    }
    }
    return true;
}

static bool same_keys(const OCall *x, const OCall *y)
{
    if (x->npart != y->npart || x->norder != y->norder) return false;
    for (int i = 0; i < x->npart; i++) if (x->part[i] != y->part[i]) return false;
    for (int i = 0; i < x->norder; i++)
        if (x->order[i] != y->order[i] || x->desc[i] != y->desc[i] || x->nulls_first[i] != y->nulls_first[i])
            return false;
    return true;
}

static bool same_bound(const WOverBound *x, const WOverBound *y)
{
    return x->kind == y->kind && x->offset == y->offset;
}

static bool same_frame(const OCall *x, const OCall *y)
{
    return x->frame.rows == y->frame.rows && same_bound(&x->frame.lower, &y->frame.lower) &&
           same_bound(&x->frame.upper, &y->frame.upper);
}

static bool same_call(const WOverCall *x, const WOverCall *y)
{
    if (x->fn != y->fn || x->arg != y->arg || x->n != y->n || x->default_col != y->default_col) return false;
    if (x->fn != WOF_AGG) return true;
    const WAggCall *p = &x->agg, *q = &y->agg;
    if (p->kind != q->kind || p->distinct != q->distinct || p->nargs != q->nargs || p->filter_col != q->filter_col)
        return false;
    for (int i = 0; i < p->nargs; i++) if (p->args[i] != q->args[i]) return false;
    return true;
}

static const char *col_name(const OCtx *o, const WSchema *s, int c)
{
    (void)o;
    return c < s->n ? s->names[c] : "?";
}

static const char *args_text(OCtx *o, const WSchema *s, const WOverCall *k)
{
    WArena *a = o->b->p->arena;
    switch (k->fn) {
    case WOF_AGG: return NULL;      /* printed from agg */
    case WOF_NTILE: return wa_sprintf(a, "%lld", (long long)k->n);
    case WOF_LAG: case WOF_LEAD:
        if (k->default_col >= 0)
            return wa_sprintf(a, "%s, %lld, %s", col_name(o, s, k->arg), (long long)k->n, col_name(o, s, k->default_col));
        if (k->n != 1) return wa_sprintf(a, "%s, %lld", col_name(o, s, k->arg), (long long)k->n);
        return col_name(o, s, k->arg);
    default: return "*";
    }
}

static void remap(int *c, const int *map, int nin)
{
    if (*c >= nin) *c = map[*c - nin];
}

/* Drop argument columns no call uses (bind_agg_register adds plain columns too). */
static void compact_args(OCtx *o)
{
    BAgg *g = &o->g;
    if (!g->nargs) return;
    int *map = WA_ARRAY(o->b->p->arena, int, g->nargs);
    bool *used = WA_ARRAY(o->b->p->arena, bool, g->nargs);
    for (int i = 0; i < o->n; i++) {
        OCall *c = &o->calls[i];
        int cols[16], nc = 0;
        cols[nc++] = c->call.arg;
        cols[nc++] = c->call.default_col;
        for (int k = 0; k < c->call.agg.nargs && c->call.fn == WOF_AGG; k++) cols[nc++] = c->call.agg.args[k];
        if (c->call.fn == WOF_AGG) cols[nc++] = c->call.agg.filter_col;
        for (int k = 0; k < nc; k++) if (cols[k] >= o->nin) used[cols[k] - o->nin] = true;
        for (int k = 0; k < c->npart; k++) if (c->part[k] >= o->nin) used[c->part[k] - o->nin] = true;
        for (int k = 0; k < c->norder; k++) if (c->order[k] >= o->nin) used[c->order[k] - o->nin] = true;
    }
    int m = 0;
    for (int i = 0; i < g->nargs; i++) {
        map[i] = used[i] ? o->nin + m : -1;
        if (used[i]) g->args[m++] = g->args[i];
    }
    g->nargs = m;
    for (int i = 0; i < o->n; i++) {
        OCall *c = &o->calls[i];
        remap(&c->call.arg, map, o->nin);
        remap(&c->call.default_col, map, o->nin);
        if (c->call.fn == WOF_AGG) {
            for (int k = 0; k < c->call.agg.nargs; k++) remap(&c->call.agg.args[k], map, o->nin);
            remap(&c->call.agg.filter_col, map, o->nin);
        }
        for (int k = 0; k < c->npart; k++) remap(&c->part[k], map, o->nin);
        for (int k = 0; k < c->norder; k++) remap(&c->order[k], map, o->nin);
    }
}

static void upper_name(const AstExpr *e, char *up, size_t n)
{
    snprintf(up, n, "%s", e->name.parts[e->name.n - 1]);
    for (char *q = up; *q; q++) *q = (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q);
}

/* Streaming: the functions AggFunctionFactory refuses for an unbounded input. */
static bool stream_function_ok(BindCtx *b, const AstExpr *e)
{
    char up[64];
    upper_name(e, up, sizeof up);
    if (!strcmp(up, "CUME_DIST") || !strcmp(up, "PERCENT_RANK") || !strcmp(up, "NTILE") || !strcmp(up, "LEAD")) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_TABLE, "%s Function is not supported in stream mode.", up);
        return false;
    }
    return true;
}

/* Streaming: the OverAggregate's time column, frame and calls as the stream operator takes them
   (StreamExecOverAggregate: one window, ordered by a time attribute, frame ending at CURRENT ROW). */
static bool stream_node(BindCtx *b, WRel *r)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    WRelOver *ro = wrel_over_mut(r);
    const WOverSpec *spec = ro->batch;
    const WOverWindow *w = &spec->windows[0];
    const WRel *in = r->inputs[0];
    if (r->nsort != 1 || spec->nwindows != 1) {
        werr_set(p->err, WEXC_TABLE, "The window can only be ordered by a single time column.");
        return false;
    }
    const WType *t = in->out.types[r->sort_cols[0]];
    if (!wtype_is_timestamp(t) || t->time_attr == WTA_NONE) {
        werr_set(p->err, WEXC_TABLE, "OVER windows' ordering in stream mode must be defined on a time attribute.");
        return false;
    }
    if (w->upper.kind != WOB_CURRENT_ROW ||
        (w->lower.kind != WOB_UNBOUNDED_PRECEDING && w->lower.kind != WOB_PRECEDING)) {
        werr_set(p->err, WEXC_TABLE, "OVER RANGE FOLLOWING windows are not supported yet.");
        return false;
    }
    r->time_col = r->sort_cols[0];
    ro->proctime = t->time_attr == WTA_PROCTIME;
    ro->rows = w->rows;
    ro->unbounded = w->lower.kind == WOB_UNBOUNDED_PRECEDING;
    ro->preceding = 0;
    if (!ro->unbounded) {
        const WExpr *lit = w->lower.lit;
        if (!w->rows && (!lit || lit->type->id != WT_INTERVAL_DT)) {
            werr_set(p->err, WEXC_TABLE, "A RANGE OVER window needs an interval PRECEDING bound.");
            return false;
        }
        ro->preceding = (int64_t)w->lower.offset;
    }
    WRelAgg *ag = wrel_agg_mut(r);
    ag->naggs = 0;
    ag->aggs = WA_ARRAY(a, WAggCall, w->ncalls ? w->ncalls : 1);
    for (int i = 0; i < w->ncalls; i++)
        if (w->calls[i].fn == WOF_AGG) ag->aggs[ag->naggs++] = w->calls[i].agg;
    ro->stream = spec;
    ro->batch = NULL;
    return true;
}

WRel *bover_bind(BindCtx *b, AstQuery *aq, WRel *in, BScope *scope)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    OCtx *o = WA_ARRAY(a, OCtx, 1);
    memset(o, 0, sizeof *o);
    o->b = b;
    o->nin = in->out.n;
    o->g.input = scope;
    o->g.ngroup = o->nin;
    o->g.win_key = -1;
    if (scope->n != o->nin) {
        werr_set(p->err, WEXC_TABLE, "OVER windows: internal scope mismatch");
        return NULL;
    }
    AstExpr *asts[MAX_OVER];
    int n = 0;
    for (int i = 0; i < aq->nitems; i++) collect(aq->items[i].expr, asts, &n, 0);
    if (n >= MAX_OVER) {
        werr_set(p->err, WEXC_TABLE, "Too many OVER calls in one SELECT (at most %d)", MAX_OVER - 1);
        return NULL;
    }
    o->n = n;
    bool stream = !wplan_is_batch(p);
    for (int i = 0; i < n && stream; i++) {
        const AstOver *ov = resolve(aq, asts[i]->over);
        if (!ov) return fail(b, asts[i]->pos, WEXC_CALCITE, "Window not found");
        if (!bover_stream_window_check(b, scope, ov, asts[i]->pos)) return NULL;
        if (!stream_function_ok(b, asts[i])) return NULL;
    }
    for (int i = 0; i < n; i++) {
        o->calls[i].ast = asts[i];
        if (!bind_call(o, aq, scope, &o->calls[i])) return NULL;
    }
    compact_args(o);
    /* Calcite's window groups (naming) and Flink's nodes (partition + order) */
    int nwin = 0, nnode = 0;
    int win_first[MAX_OVER], node_first[MAX_OVER];
    for (int i = 0; i < n; i++) {
        OCall *c = &o->calls[i];
        c->node = -1;
        for (int j = 0; j < nnode && c->node < 0; j++)
            if (same_keys(&o->calls[node_first[j]], c)) c->node = j;
        if (c->node < 0) { node_first[nnode] = i; c->node = nnode++; }
        c->window = -1;
        for (int j = 0; j < nwin && c->window < 0; j++)
            if (o->calls[win_first[j]].node == c->node && same_frame(&o->calls[win_first[j]], c)) c->window = j;
        if (c->window < 0) { win_first[nwin] = i; c->window = nwin++; }
    }
    if (stream && nwin > 1)
        return fail(b, aq->pos, WEXC_TABLE,
                    "Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window. "
                    "please re-check the over window statement.");
    /* the pre-projection: input columns, then arguments and keys that are expressions */
    WRel *cur = in;
    if (o->g.nargs) {
        int m = o->nin + o->g.nargs;
        WRel *calc = wrel_new(p, WR_CALC, 1);
        calc->inputs[0] = in;
        wrel_calc_mut(calc)->nexprs = m;
        wrel_calc_mut(calc)->exprs = WA_ARRAY(a, WExpr *, m);
        calc->out.n = m;
        calc->out.names = WA_ARRAY(a, const char *, m);
        calc->out.types = WA_ARRAY(a, const WType *, m);
        for (int i = 0; i < m; i++) {
            WExpr *x = i < o->nin ? wexpr_column(a, i, in->out.types[i], in->out.names[i]) : o->g.args[i - o->nin];
            wrel_calc_mut(calc)->exprs[i] = x;
            calc->out.names[i] = i < o->nin ? in->out.names[i] : wa_sprintf(a, "$%d", i);
            calc->out.types[i] = x->type;
        }
        calc->changelog = in->changelog;
        cur = calc;
        for (int i = o->nin; i < m; i++) {
            bscope_add(a, scope, NULL, calc->out.names[i], calc->out.types[i]);
            scope->cols[scope->n - 1].hidden = true;
        }
    }
    /* one OverAggregate per node; its windows in order of first appearance */
    for (int nd = 0; nd < nnode; nd++) {
        const OCall *first = &o->calls[node_first[nd]];
        WOverSpec *spec = WA_ARRAY(a, WOverSpec, 1);
        memset(spec, 0, sizeof *spec);
        int wins[MAX_OVER], nw = 0;
        for (int w = 0; w < nwin; w++) if (o->calls[win_first[w]].node == nd) wins[nw++] = w;
        spec->nwindows = nw;
        spec->windows = WA_ARRAY(a, WOverWindow, nw);
        int base = cur->out.n, added = 0;
        const char **new_names = WA_ARRAY(a, const char *, n);
        const WType **new_types = WA_ARRAY(a, const WType *, n);
        for (int wi = 0; wi < nw; wi++) {
            int w = wins[wi];
            WOverWindow *win = &spec->windows[wi];
            *win = o->calls[win_first[w]].frame;
            win->calls = WA_ARRAY(a, WOverCall, n);
            win->ncalls = 0;
            for (int i = 0; i < n; i++) {
                OCall *c = &o->calls[i];
                if (c->window != w) continue;
                int found = -1, col = base + added;
                for (int k = 0; k < win->ncalls && found < 0; k++) if (same_call(&win->calls[k], &c->call)) found = k;
                if (found >= 0) {
                    /* computed once: find its column */
                    int before = 0;
                    for (int q = 0; q < wi; q++) before += spec->windows[q].ncalls;
                    c->col = base + before + found;
                    continue;
                }
                WOverCall k = c->call;
                k.name = wa_sprintf(a, "w%d$o%d", w, win->ncalls);
                k.args_text = args_text(o, &cur->out, &k);
                if (k.fn == WOF_AGG) k.agg.out_name = k.name;
                win->calls[win->ncalls++] = k;
                new_names[added] = k.name;
                new_types[added] = k.type;
                c->col = col;
                added++;
            }
        }
        WRel *r = wrel_new(p, WR_OVER_AGG, 1);
        r->inputs[0] = cur;
        wrel_over_mut(r)->batch = spec;
        r->nkeys = first->npart;
        r->keys = first->part;
        r->nsort = first->norder;
        r->sort_cols = first->order;
        r->sort_desc = first->desc;
        r->sort_nulls_first = first->nulls_first;
        r->time_col = -1;
        r->changelog = cur->changelog;
        r->out.n = base + added;
        r->out.names = WA_ARRAY(a, const char *, r->out.n);
        r->out.types = WA_ARRAY(a, const WType *, r->out.n);
        for (int i = 0; i < base; i++) {
            r->out.names[i] = cur->out.names[i];
            r->out.types[i] = cur->out.types[i];
        }
        for (int i = 0; i < added; i++) {
            r->out.names[base + i] = new_names[i];
            r->out.types[base + i] = new_types[i];
            bscope_add(a, scope, NULL, new_names[i], new_types[i]);
            scope->cols[scope->n - 1].hidden = true;
        }
        if (stream && !stream_node(b, r)) return NULL;
        cur = r;
    }
    /* the calls become column references (bind_expr looks them up) */
    int m = b->nover_map + n;
    AstExpr **ma = WA_ARRAY(a, AstExpr *, m);
    int *mc = WA_ARRAY(a, int, m);
    if (b->nover_map) {
        memcpy(ma, b->over_map_ast, sizeof *ma * (size_t)b->nover_map);
        memcpy(mc, b->over_map_col, sizeof *mc * (size_t)b->nover_map);
    }
    for (int i = 0; i < n; i++) {
        ma[b->nover_map + i] = o->calls[i].ast;
        mc[b->nover_map + i] = o->calls[i].col;
    }
    b->over_map_ast = ma;
    b->over_map_col = mc;
    b->nover_map = m;
    return cur;
}

const char *wover_fn_name(const WOverCall *c)
{
    switch (c->fn) {
    case WOF_ROW_NUMBER: return "ROW_NUMBER";
    case WOF_RANK: return "RANK";
    case WOF_DENSE_RANK: return "DENSE_RANK";
    case WOF_PERCENT_RANK: return "PERCENT_RANK";
    case WOF_CUME_DIST: return "CUME_DIST";
    case WOF_NTILE: return "NTILE";
    case WOF_LAG: return "LAG";
    case WOF_LEAD: return "LEAD";
    case WOF_AGG: break;
    }
    return c->agg.name ? c->agg.name : "AGG";
}

/* ---- streaming: Flink's refusals (StreamExecOverAggregate, AggFunctionFactory) ---- */

bool bover_stream_window_check(BindCtx *b, BScope *scope, const AstOver *ov, AstPos pos)
{
    if (ov->norder != 1)
        return fail(b, pos, WEXC_TABLE, "The window can only be ordered by a single time column."), false;
    if (ov->order[0].desc)
        return fail(b, ov->order[0].expr->pos, WEXC_TABLE, "The window can only be ordered in ASCENDING mode."), false;
    WExpr *oc = bind_expr(b, scope, ov->order[0].expr);
    if (!oc) return false;
    if (oc->kind != WX_COLUMN || !wtype_is_timestamp(oc->type) || oc->type->time_attr == WTA_NONE)
        return fail(b, ov->order[0].expr->pos, WEXC_TABLE,
                    "OVER windows' ordering in stream mode must be defined on a time attribute."), false;
    /* a frame from UNBOUNDED PRECEDING or n PRECEDING to CURRENT ROW, nothing else */
    if (ov->frame != AF_NONE) {
        bool lower_ok = ov->start_kind == AB_UNBOUNDED_PRECEDING || ov->start_kind == AB_PRECEDING;
        bool upper_ok = ov->end_kind == AB_CURRENT_ROW || ov->end_kind == AB_NONE;
        if (!lower_ok || !upper_ok)
            return fail(b, ov->pos, WEXC_TABLE, "OVER RANGE FOLLOWING windows are not supported yet."), false;
    }
    return true;
}

WRel *bover_stream_refuse(BindCtx *b, BScope *scope, AstExpr *e)
{
    char up[64];
    snprintf(up, sizeof up, "%s", e->name.parts[e->name.n - 1]);
    for (char *q = up; *q; q++) *q = (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q);
    if (!e->over->ref_name && !bover_stream_window_check(b, scope, e->over, e->pos)) return NULL;
    if (!stream_function_ok(b, e)) return NULL;
    werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_VALIDATION,
                "OVER clause is necessary for window functions; '%s' is not an aggregate or window function", up);
    return NULL;
}

bool bover_only_rank(const AstQuery *aq)
{
    AstExpr *calls[MAX_OVER];
    int n = 0;
    for (int i = 0; i < aq->nitems; i++) collect(aq->items[i].expr, calls, &n, 0);
    if (n != 1) return false;
    const AstExpr *e = calls[0];
    bool top = false;
    for (int i = 0; i < aq->nitems; i++) top = top || aq->items[i].expr == e;
    const char *f = e->name.parts[e->name.n - 1];
    if (!top || e->over->ref_name || e->nargs || e->over->norder == 0) return false;
    if (strcasecmp(f, "ROW_NUMBER") && strcasecmp(f, "RANK") && strcasecmp(f, "DENSE_RANK")) return false;
    for (int i = 0; i < e->over->npartition; i++) if (e->over->partition[i]->kind != AE_COLUMN) return false;
    for (int i = 0; i < e->over->norder; i++) if (e->over->order[i].expr->kind != AE_COLUMN) return false;
    return true;
}
