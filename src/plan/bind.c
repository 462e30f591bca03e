/*
 * bind.c — binding queries: FROM items (tables with computed columns and watermarks, views,
 * subqueries, VALUES), WHERE, SELECT lists, GROUP BY / aggregates / HAVING, DISTINCT, UNION ALL,
 * CTEs; and the statement roots (SELECT to the client; INSERT INTO a table in bind_insert.c). See
 * plan.h.
 */
#include "bind_internal.h"
#include "reduce.h"

#include "bind_join.h"
#include "bind_scalar_subquery.h"
#include "bind_unnest.h"
#include "bind_match.h"
#include "sort_rules.h"
#include "../expr/functions.h"
#include "table_factory.h"

#include <ctype.h>
#include <stdlib.h>
#include <assert.h>
#include <string.h>
#include <strings.h>

typedef struct CteFrame {
    int n;
    AstCte *ctes;
    struct CteFrame *outer;
} CteFrame;

typedef struct QCtx {
    BindCtx *b;
    CteFrame *ctes;
    WRel *pre_bound;        /* group windows: the window function's input, already bound */
    BScope *pre_scope;
    int gs_copy;            /* repeated grouping sets: the copy this binding of the SELECT computes */
    int gs_copies;          /* set by bind_aggregate: copies of its repeated grouping sets (1: none) */
} QCtx;

static WRel *bind_query_in(QCtx *q, AstQuery *aq);
static WRel *bind_from(QCtx *q, AstFrom *f, BScope *scope);

WRel *wrel_new(WPlanCtx *p, WRelKind kind, int ninputs)
{
    WRel *r = WA_NEW(p->arena, WRel);
    r->kind = kind;
    r->ninputs = ninputs;
    r->inputs = WA_ARRAY(p->arena, WRel *, ninputs ? ninputs : 1);
    r->changelog = WCM_INSERT;
    return r;
}

bool wrel_sink_writer(const WRel *r)
{
    const WTable *t = r->kind == WR_SINK ? wrel_sink(r)->table : NULL;
    if (!t) return false;
    const WConnCaps *caps = wconnector_caps(&t->options);
    return caps && caps->sink_runtime == WSINK_WRITER;
}

bool wrel_sink_file_writer(const WRel *r)
{
    const WTable *t = r->kind == WR_SINK ? wrel_sink(r)->table : NULL;
    if (!t) return false;
    const WConnCaps *caps = wconnector_caps(&t->options);
    return caps && caps->sink_runtime == WSINK_FILES;
}

bool wrel_sink_compaction(const WRel *r)
{
    if (!wrel_sink_file_writer(r)) return false;
    const char *v = wopts_get(&wrel_sink(r)->table->options, "auto-compaction");
    return v && !strcasecmp(v, "true");
}

bool wrel_sink_partition_committer(const WRel *r)
{
    if (!wrel_sink_file_writer(r)) return false;
    const WTable *t = wrel_sink(r)->table;
    return t->npartition > 0 && wopts_get(&t->options, "sink.partition-commit.policy.kind") != NULL;
}

const char *wrel_kind_name(WRelKind k)
{
#define WREL_KIND_NAME(k, file, name) [k] = name,
    static const char *const N[WR__COUNT] = {WREL_KINDS(WREL_KIND_NAME)};
#undef WREL_KIND_NAME
    return (unsigned)k < WR__COUNT ? N[k] : "?";
}

void bind_schema_alloc(WPlanCtx *p, WSchema *s, int n)
{
    s->n = n;
    s->names = WA_ARRAY(p->arena, const char *, n ? n : 1);
    s->types = WA_ARRAY(p->arena, const WType *, n ? n : 1);
}

static WRel *fail_rel(WPlanCtx *p, AstPos pos, const char *cls, const char *msg)
{
    werr_set_at(p->err, pos.line, pos.col, cls, "%s", msg);
    return NULL;
}

/* A NULL literal as a select item or a VALUES cell has no type Calcite can infer, whatever the
   other rows hold or the sink column it goes to (checked on Flink 2.3.0: `SELECT NULL`,
   `VALUES (1, NULL), (2, 'x')`, `INSERT INTO t VALUES (NULL, 'a')`): a validation error, not a
   NULL for the sink's enforcer. CAST(NULL AS type) is the typed form. */
#define ILLEGAL_NULL "Illegal use of 'NULL'"
static bool is_bare_null(const AstExpr *e) { return e && e->kind == AE_LITERAL && e->lit == AL_NULL; }

/* A Calc over `in` computing exprs (and optional condition). */
WRel *bind_make_calc(WPlanCtx *p, WRel *in, int n, WExpr **exprs, const char **names, WExpr *cond)
{
    WRel *c = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs[0] = in;
    cc->nexprs = n;
    cc->exprs = exprs;
    cc->cond = cond;
    bind_schema_alloc(p, &c->out, n);
    for (int i = 0; i < n; i++) {
        c->out.names[i] = names[i];
        c->out.types[i] = exprs[i]->type;
    }
    c->changelog = in->changelog;
    return c;
}

static WRel *make_filter(WPlanCtx *p, WRel *in, WExpr *cond)
{
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) ex[i] = wexpr_column(p->arena, i, in->out.types[i], in->out.names[i]);
    return bind_make_calc(p, in, in->out.n, ex, in->out.names, cond);
}

static void scope_from_rel(WPlanCtx *p, BScope *s, const WRel *r, const char *qual)
{
    bscope_init(s);
    for (int i = 0; i < r->out.n; i++) bscope_add(p->arena, s, qual, r->out.names[i], r->out.types[i]);
}

/* ---- tables ---- */

/* Table OPTIONS hints (Flink's dynamic table options): a copy of the table, in the plan's arena,
   whose options are the table's with the hints' options set over them. */
static WTable *with_hint_options(WPlanCtx *p, const WTable *t, const AstHints *hints)
{
    WArena *a = p->arena;
    int extra = 0;
    for (int h = 0; h < hints->n; h++) extra += hints->items[h].nopts;
    WTable *c = WA_NEW(a, WTable);
    *c = *t;
    c->options.items = WA_ARRAY(a, WOption, t->options.n + extra + 1);
    c->options.n = t->options.n;
    c->options.cap = t->options.n + extra + 1;
    memcpy(c->options.items, t->options.items, sizeof(WOption) * (size_t)t->options.n);
    for (int h = 0; h < hints->n; h++) {
        const AstHint *hint = &hints->items[h];
        if (strcasecmp(hint->name, "OPTIONS") != 0) continue;
        for (int k = 0; k < hint->nopts; k++) {
            const char *key = hint->opts[k].key, *value = hint->opts[k].value;
            if (!key || !value) continue;
            int i = 0;
            while (i < c->options.n && strcmp(c->options.items[i].key, key) != 0) i++;
            if (i == c->options.n) c->options.n++;
            c->options.items[i].key = wa_strdup(a, key);
            c->options.items[i].value = wa_strdup(a, value);
        }
    }
    return c;
}

WExpr *wbind_table_expr(WPlanCtx *p, const WTable *t, AstExpr *e, bool all_columns)
{
    BScope ps;
    bscope_init(&ps);
    for (int i = 0; i < t->ncols; i++) {
        if (!all_columns && t->cols[i].kind != WCOL_PHYSICAL) continue;
        const WType *ct = t->cols[i].type;
        if (wtype_is_timestamp(ct) && ct->time_attr == WTA_ROWTIME) ct = wtype_with_time_attr(p->arena, ct, WTA_NONE);
        bscope_add(p->arena, &ps, NULL, t->cols[i].name, ct);
    }
    BindCtx inner = {.p = p};
    return bind_expr(&inner, &ps, e);
}

/* The metadata columns of t, read by the scan after its physical columns with the types of their
   keys, as the connector describes its readable metadata (WConnCaps.read_metadata: Flink 2.3's
   filesystem source offers file.path, file.name, file.size and file.modification-time, kafka and
   upsert-kafka Flink's KafkaDynamicSource keys); a format's metadata (e.g. debezium-json's
   source.table) is not passed through. Flink's errors: the connector's factory not found, a source
   without SupportsReadingMetadata, an unknown key. */
bool wplan_scan_metadata(WPlanCtx *p, const WTable *t, WRel *scan, const char *conn)
{
    WArena *a = p->arena;
    WRelScan *sc = wrel_scan_mut(scan);
    int nmeta = 0;
    for (int i = 0; i < t->ncols; i++) nmeta += t->cols[i].kind == WCOL_METADATA;
    if (!nmeta) return true;
    const WConnector *c = wconnector_find(conn);
    if (!c) return wplan_table_connector(t, p->err) != NULL;    /* Flink's "Could not find any factory" */
    const WConnMetadata *md = c->caps.read_metadata;
    if (!md)
        return werr_set(p->err, WEXC_VALIDATION,
                        "Table '%s' declares metadata columns, but the underlying DynamicTableSource doesn't "
                        "implement the SupportsReadingMetadata interface. Therefore, metadata cannot be read from "
                        "the given source.", c->caps.source_summary ? c->caps.source_summary : c->name);
    int np = scan->out.n;
    WSchema out;
    bind_schema_alloc(p, &out, np + nmeta);
    for (int i = 0; i < np; i++) { out.names[i] = scan->out.names[i]; out.types[i] = scan->out.types[i]; }
    sc->meta_keys = WA_ARRAY(a, const char *, nmeta);
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].kind != WCOL_METADATA) continue;
        const char *key = t->cols[i].metadata_key ? t->cols[i].metadata_key : t->cols[i].name;
        const WConnMetaKey *mk = wconn_metadata_key(md, key);
        if (!mk) return wconn_metadata_invalid_key(p->err, md, true, key, t->cols[i].name, sc->table_qname);
        out.names[np + sc->nmeta] = t->cols[i].name;
        out.types[np + sc->nmeta] = mk->type;
        sc->meta_keys[sc->nmeta++] = mk->key;
    }
    scan->out = out;
    return true;
}

static WRel *bind_table_scan(QCtx *q, WTable *t, const AstName *name, const char *qual, BScope *scope)
{
    WPlanCtx *p = q->b->p;
    WArena *a = p->arena;
    WRel *scan = wrel_new(p, WR_SCAN, 0);
    WRelScan *sc = wrel_scan_mut(scan);
    sc->table = t;
    sc->table_qname = wa_sprintf(a, "%s.%s.%s", t->catalog, t->database, t->name);
    int *phys = WA_ARRAY(a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    sc->nfields = np;
    sc->fields = WA_ARRAY(a, int, np ? np : 1);
    bind_schema_alloc(p, &scan->out, np);
    for (int i = 0; i < np; i++) {
        sc->fields[i] = i;
        scan->out.names[i] = t->cols[phys[i]].name;
        scan->out.types[i] = t->cols[phys[i]].type;
    }
    const char *conn = wconnector_id(&t->options);
    const char *fmt = wopts_get(&t->options, "format");
    if (!wplan_scan_metadata(p, t, scan, conn)) return NULL;
    sc->source_changelog = wplan_changelog_format(fmt) || wplan_upsert_connector(conn);
    /* a CDC source without a PRIMARY KEY under cdc-events-duplicate is refused by the planner,
       after the query validated (plan/changelog_source.c, wphys_derive_scan) */
    if (sc->source_changelog) scan->changelog = WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE;
    (void)name;
    WRel *top = scan;
    bool has_computed = np != t->ncols;
    if (has_computed) {
        /* Calc producing all columns in table order: physical refs + computed expressions */
        BScope ps;
        scope_from_rel(p, &ps, scan, qual);
        WExpr **ex = WA_ARRAY(a, WExpr *, t->ncols);
        const char **names = WA_ARRAY(a, const char *, t->ncols);
        int k = 0;
        BindCtx inner = {.p = p};
        for (int i = 0; i < t->ncols; i++) {
            names[i] = t->cols[i].name;
            if (t->cols[i].kind == WCOL_PHYSICAL) {
                ex[i] = wexpr_column(a, k, scan->out.types[k], names[i]);
                k++;
            } else if (t->cols[i].kind == WCOL_COMPUTED) {
                ex[i] = bind_expr(&inner, &ps, t->cols[i].expr);
                if (!ex[i]) return NULL;
                ex[i]->name = names[i];
            } else {
                /* a metadata column: the scan reads it after the physical columns (its key's type),
                   cast to the declared type as Flink's projection does */
                int at = -1;
                for (int q = 0; q < sc->nmeta; q++)
                    if (strcmp(scan->out.names[sc->nfields + q], t->cols[i].name) == 0) at = sc->nfields + q;
                assert(at >= 0);
                WExpr *ref = wexpr_column(a, at, scan->out.types[at], names[i]);
                if (!wtype_equals(ref->type, t->cols[i].type, false)) {
                    WExpr *c = wexpr_new(a, WX_CAST, t->cols[i].type, 1);
                    c->args[0] = ref;
                    ref = c;
                }
                ref->name = names[i];
                ex[i] = ref;
            }
        }
        top = bind_make_calc(p, scan, t->ncols, ex, names, NULL);
    }
    if (t->wm_col >= 0) {
        BScope fs;
        scope_from_rel(p, &fs, top, qual);
        BindCtx inner = {.p = p};
        WExpr *wm = bind_expr(&inner, &fs, t->wm_expr);
        if (!wm) return NULL;
        WRel *w = wrel_new(p, WR_WATERMARK, 1);
        w->inputs[0] = top;
        WRelWatermark *ww = wrel_watermark_mut(w);
        ww->rowtime_col = t->wm_col;
        ww->expr = wm;
        ww->sql = t->wm_sql;
        w->out = top->out;
        /* the rowtime column becomes a time attribute */
        bind_schema_alloc(p, &w->out, top->out.n);
        for (int i = 0; i < top->out.n; i++) {
            w->out.names[i] = top->out.names[i];
            w->out.types[i] = i == t->wm_col ? wtype_with_time_attr(a, top->out.types[i], WTA_ROWTIME)
                                             : top->out.types[i];
        }
        w->changelog = top->changelog;
        top = w;
    }
    scope_from_rel(p, scope, top, qual);
    return top;
}

static AstCte *find_cte(QCtx *q, const AstName *name, CteFrame **frame)
{
    if (name->n != 1) return NULL;
    for (CteFrame *f = q->ctes; f; f = f->outer)
        for (int i = 0; i < f->n; i++)
            if (strcmp(f->ctes[i].name, name->parts[0]) == 0) { *frame = f; return &f->ctes[i]; }
    return NULL;
}

static WRel *rename_output(WPlanCtx *p, WRel *r, int n, char **names, AstPos pos)
{
    if (n == 0) return r;
    if (n != r->out.n)
        return fail_rel(p, pos, WEXC_CALCITE, "List of column aliases must have same degree as table");
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, n);
    const char **nm = WA_ARRAY(p->arena, const char *, n);
    for (int i = 0; i < n; i++) {
        ex[i] = wexpr_column(p->arena, i, r->out.types[i], names[i]);
        nm[i] = names[i];
    }
    return bind_make_calc(p, r, n, ex, nm, NULL);
}

/* An interval literal argument in milliseconds. */
static bool interval_ms(BindCtx *b, AstExpr *e, const char *what, int64_t *out, const WExpr **lit)
{
    WExpr *x = e ? bind_expr(b, &(BScope){0}, e) : NULL;
    if (!x) return false;
    if (x->kind != WX_LITERAL || x->type->id != WT_INTERVAL_DT || x->is_null) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_VALIDATION,
                    "The %s of a window must be an interval literal of days to seconds.", what);
        return false;
    }
    *out = x->lit.i;
    if (lit) *lit = x;
    return true;
}

/* TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(ts), ...)): the input columns plus
   window_start, window_end and window_time. */
static WRel *bind_window_tvf(QCtx *q, AstExpr *call)
{
    BindCtx *b = q->b;
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    if (!call || call->kind != AE_FUNC)
        return fail_rel(p, call ? call->pos : (AstPos){0, 0}, WEXC_TABLE, "Only window table functions are supported in TABLE(...)");
    const char *fn = call->name.parts[call->name.n - 1];
    WWindowKind kind;
    if (strcasecmp(fn, "TUMBLE") == 0) kind = WWIN_TUMBLE;
    else if (strcasecmp(fn, "HOP") == 0) kind = WWIN_HOP;
    else if (strcasecmp(fn, "CUMULATE") == 0) kind = WWIN_CUMULATE;
    else if (strcasecmp(fn, "SESSION") == 0) kind = WWIN_SESSION;
    else {
        werr_set_at(p->err, call->pos.line, call->pos.col, WEXC_CALCITE,
                    "No match found for function signature %s(<TABLE>)", fn);
        return NULL;
    }
    /* arguments by position or by name */
    AstExpr *data = NULL, *timecol = NULL, *size = NULL, *slide = NULL, *offset = NULL;
    static const char *const POS_NAMES[4][5] = {
        {"DATA", "TIMECOL", "SIZE", "OFFSET", NULL}, {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"},
        {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"}, {"DATA", "TIMECOL", "GAP", NULL, NULL}};
    for (int i = 0; i < call->nargs; i++) {
        AstExpr *arg = call->args[i];
        const char *nm = NULL;
        if (arg->kind == AE_NAMED_ARG) { nm = arg->str; arg = arg->args[0]; }
        else if (i < 5) nm = POS_NAMES[kind][i];
        if (!nm) return fail_rel(p, arg->pos, WEXC_VALIDATION, "Too many arguments for the window function");
        if (strcasecmp(nm, "DATA") == 0) data = arg;
        else if (strcasecmp(nm, "TIMECOL") == 0) timecol = arg;
        else if (strcasecmp(nm, "SIZE") == 0) size = arg;
        else if (strcasecmp(nm, "SLIDE") == 0 || strcasecmp(nm, "STEP") == 0) slide = arg;
        else if (strcasecmp(nm, "GAP") == 0) size = arg;
        else if (strcasecmp(nm, "OFFSET") == 0) offset = arg;
        else {
            werr_set_at(p->err, arg->pos.line, arg->pos.col, WEXC_VALIDATION,
                        "Unknown parameter name '%s' of the %s window function", nm, fn);
            return NULL;
        }
    }
    if (!data || data->kind != AE_TABLE_ARG || (!q->pre_bound && !data->subquery && data->name.n == 0) || !timecol || timecol->kind != AE_DESCRIPTOR || !size)
        return fail_rel(p, call->pos, WEXC_VALIDATION,
                        "A window table function takes (TABLE t, DESCRIPTOR(time_col), interval...) arguments");
    /* the input */
    BScope in_scope;
    WRel *in;
    if (q->pre_bound) {
        in = q->pre_bound;
        in_scope = *q->pre_scope;
    } else if (data->subquery) {
        in = bind_query_in(q, data->subquery);
        if (!in) return NULL;
        scope_from_rel(p, &in_scope, in, NULL);
    } else {
        AstFrom tf = {.kind = AFR_TABLE, .pos = data->pos, .name = data->name};
        in = bind_from(q, &tf, &in_scope);
        if (!in) return NULL;
    }
    if (timecol->nargs != 1)
        return fail_rel(p, timecol->pos, WEXC_VALIDATION, "The DESCRIPTOR of a window must name one time attribute column");
    WExpr *tc = bind_expr(b, &in_scope, timecol->args[0]);
    if (!tc) return NULL;
    const WType *tt = tc->type;
    if (tc->kind != WX_COLUMN || !wtype_is_timestamp(tt) || tt->time_attr == WTA_NONE) {
        werr_set_at(p->err, timecol->pos.line, timecol->pos.col, WEXC_VALIDATION,
                    "The window function %s(TABLE table_name, DESCRIPTOR(timecol), ...) requires the timecol "
                    "to be a time attribute type, but is %s.", fn, wtype_str(a, tt));
        return NULL;
    }
    WRel *w = wrel_new(p, WR_WINDOW_TVF, 1);
    WRelWindow *ww = wrel_window_mut(w);
    w->inputs[0] = in;
    ww->kind = kind;
    ww->table_input = !q->pre_bound && !data->subquery;
    if (data->nargs) {
        /* SESSION(TABLE t PARTITION BY k, ...): sessions per partition key */
        if (kind != WWIN_SESSION) return fail_rel(p, data->pos, WEXC_VALIDATION, "Only SESSION windows take PARTITION BY.");
        ww->npartition = data->nargs;
        ww->partition = WA_ARRAY(a, int, data->nargs);
        for (int i = 0; i < data->nargs; i++) {
            WExpr *k = bind_expr(b, &in_scope, data->args[i]);
            if (!k) return NULL;
            if (k->kind != WX_COLUMN) return fail_rel(p, data->args[i]->pos, WEXC_VALIDATION, "PARTITION BY of a window must name columns.");
            ww->partition[i] = k->col;
        }
    }
    ww->time_col = tc->col;
    ww->proctime = tt->time_attr == WTA_PROCTIME;
    int64_t v;
    if (!interval_ms(b, size, kind == 3 ? "gap" : "size", &v, &ww->args[0])) return NULL;
    if (kind == 3) ww->gap = v; else ww->size = v;
    if (slide) {
        if (!interval_ms(b, slide, kind == 2 ? "step" : "slide", &v, &ww->args[1])) return NULL;
        ww->slide = v;
    }
    if (offset) {
        if (!interval_ms(b, offset, "offset", &v, &ww->args[2])) return NULL;
        ww->offset = v;
    }
    if (ww->size <= 0 && kind != 3) return fail_rel(p, size->pos, WEXC_VALIDATION, "The window size must be positive.");
    if ((kind == 1 || kind == 2) && ww->slide <= 0)
        return fail_rel(p, call->pos, WEXC_VALIDATION, "The window slide/step must be positive.");
    if (kind == 2 && ww->size % ww->slide != 0) {
        werr_set_at(p->err, call->pos.line, call->pos.col, WEXC_VALIDATION,
                    "CUMULATE table function based aggregate requires maxSize must be an integral multiple of step, "
                    "but got maxSize %lld ms and step %lld ms.", (long long)ww->size, (long long)ww->slide);
        return NULL;
    }
    int n = in->out.n;
    bind_schema_alloc(p, &w->out, n + 3);
    for (int i = 0; i < n; i++) { w->out.names[i] = in->out.names[i]; w->out.types[i] = in->out.types[i]; }
    const WType *ts3 = wtype_timestamp(a, WT_TIMESTAMP, 3, false);
    w->out.names[n] = "window_start";
    w->out.types[n] = ts3;
    w->out.names[n + 1] = "window_end";
    w->out.types[n + 1] = ts3;
    w->out.names[n + 2] = "window_time";
    w->out.types[n + 2] = ww->proctime
        ? wtype_with_time_attr(a, wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, false), WTA_PROCTIME)
        : wtype_with_time_attr(a, wtype_timestamp(a, tt->id, 3, false), WTA_ROWTIME);
    w->changelog = in->changelog;
    return w;
}

/* A legacy group window: the window TVF over an input that is already bound. */
static WRel *bind_group_window(QCtx *q, AstExpr *call, WRel *in, BScope *scope)
{
    q->pre_bound = in;
    q->pre_scope = scope;
    WRel *w = bind_window_tvf(q, call);
    q->pre_bound = NULL;
    q->pre_scope = NULL;
    return w;
}

static WRel *bind_from(QCtx *q, AstFrom *f, BScope *scope)
{
    WPlanCtx *p = q->b->p;
    switch (f->kind) {
    case AFR_TABLE: {
        const char *qual = f->alias ? f->alias : f->name.parts[f->name.n - 1];
        CteFrame *frame = NULL;
        AstCte *cte = find_cte(q, &f->name, &frame);
        if (cte) {
            /* a CTE sees the CTEs defined before it in the same WITH, and the outer ones */
            CteFrame before = {(int)(cte - frame->ctes), frame->ctes, frame->outer};
            QCtx inner = {.b = q->b, .ctes = before.n ? &before : frame->outer};
            WRel *r = bind_query_in(&inner, cte->query);
            if (!r) return NULL;
            r = rename_output(p, r, cte->ncols, cte->cols, cte->pos);
            if (r) r = rename_output(p, r, f->ncol_aliases, f->col_aliases, f->pos);
            if (r) scope_from_rel(p, scope, r, qual);
            return r;
        }
        WTable *t = wcatalog_lookup(p->catalog, &f->name);
        if (!t) {
            wcatalog_missing_error(p->catalog, &f->name, p->err);
            return NULL;
        }
        for (int h = 0; h < f->hints.n && t->is_view; h++)
            if (strcasecmp(f->hints.items[h].name, "OPTIONS") == 0)
                return fail_rel(p, f->pos, WEXC_VALIDATION,
                                wa_sprintf(p->arena, "View '`%s`.`%s`.`%s`' cannot be enriched with new options. Hints "
                                           "can only be applied to tables.", t->catalog, t->database, t->name));
        if (f->system_time && t->is_view)
            return fail_rel(p, f->pos, WEXC_TABLE, "FOR SYSTEM_TIME AS OF on a view is not supported yet");
        WRel *r;
        if (t->is_view) {
            QCtx inner = {.b = q->b};
            if (++p->depth > 64) return fail_rel(p, f->pos, WEXC_VALIDATION, "Views are nested too deeply");
            /* the view's names resolve where the view was created */
            char *cur_cat = p->catalog->current_catalog, *cur_db = p->catalog->current_database;
            if (t->view_catalog && t->view_database) {
                p->catalog->current_catalog = t->view_catalog;
                p->catalog->current_database = t->view_database;
            }
            r = bind_query_in(&inner, t->view_query);
            p->catalog->current_catalog = cur_cat;
            p->catalog->current_database = cur_db;
            p->depth--;
            if (!r) return NULL;
            if (t->nview_cols) r = rename_output(p, r, t->nview_cols, t->view_cols, f->pos);
            if (r && f->ncol_aliases) r = rename_output(p, r, f->ncol_aliases, f->col_aliases, f->pos);
            if (r) scope_from_rel(p, scope, r, qual);
            return r;
        }
        int noptions_hints = 0;
        for (int h = 0; h < f->hints.n; h++) noptions_hints += strcasecmp(f->hints.items[h].name, "OPTIONS") == 0;
        if (noptions_hints) t = with_hint_options(p, t, &f->hints);
        r = bind_table_scan(q, t, &f->name, qual, scope);
        if (r && noptions_hints) {
            /* the scan is the first node of the table's chain (a Calc of computed columns may sit above) */
            WRel *scan = r;
            while (scan->kind != WR_SCAN && scan->ninputs == 1) scan = scan->inputs[0];
            if (scan->kind == WR_SCAN) {
                scan->hints = WA_ARRAY(p->arena, AstHint, noptions_hints);
                for (int h = 0; h < f->hints.n; h++)
                    if (strcasecmp(f->hints.items[h].name, "OPTIONS") == 0) scan->hints[scan->nhints++] = f->hints.items[h];
            }
        }
        if (r && f->system_time) r->temporal_as_of = f->system_time;
        if (r && f->ncol_aliases) {
            r = rename_output(p, r, f->ncol_aliases, f->col_aliases, f->pos);
            if (r) scope_from_rel(p, scope, r, qual);
        }
        return r;
    }
    case AFR_SUBQUERY: {
        WRel *r = bind_query_in(q, f->subquery);
        if (!r) return NULL;
        if (f->ncol_aliases && r->kind == WR_VALUES && f->ncol_aliases == r->out.n) {
            /* (VALUES ...) AS t(a, b): the names are the Values' own, as Calcite's RelBuilder.rename
               gives them to a Values node (LogicalValues in Flink's plans, no LogicalProject) */
            const char **nm = WA_ARRAY(p->arena, const char *, r->out.n);
            for (int i = 0; i < r->out.n; i++) nm[i] = f->col_aliases[i];
            r->out.names = nm;
        } else if (f->ncol_aliases) {
            r = rename_output(p, r, f->ncol_aliases, f->col_aliases, f->pos);
        }
        if (r) scope_from_rel(p, scope, r, f->alias);
        return r;
    }
    case AFR_JOIN: {
        BScope ls, rs;
        WRel *l = bind_from(q, f->left, &ls);
        if (!l) return NULL;
        if (f->right->kind == AFR_UNNEST)       /* a lateral UNNEST of the left's columns */
            return bind_unnest_rel(q->b, l, &ls, f->right, f->join_type, f->on, f->right->pos, scope);
        WRel *r = bind_from(q, f->right, &rs);
        if (!r) return NULL;
        return bind_join_rel(q->b, l, &ls, r, &rs, f, scope);
    }
    case AFR_TVF: {
        WRel *r = bind_window_tvf(q, f->call);
        if (!r) return NULL;
        const char *qual = f->alias;
        if (f->ncol_aliases) r = rename_output(p, r, f->ncol_aliases, f->col_aliases, f->pos);
        if (r) scope_from_rel(p, scope, r, qual);
        return r;
    }
    case AFR_UNNEST:
        return bind_unnest_rel(q->b, NULL, NULL, f, AJ_CROSS, NULL, f->pos, scope);
    case AFR_LATERAL:
        return fail_rel(p, f->pos, WEXC_TABLE, "LATERAL TABLE is not supported yet");
    case AFR_MATCH: {
        BScope is;
        WRel *in = bind_from(q, f->left, &is);
        if (!in) return NULL;
        WRel *r = bind_match_rel(q->b, in, &is, f, scope);
        if (r && f->ncol_aliases) {
            r = rename_output(p, r, f->ncol_aliases, f->col_aliases, f->pos);
            if (r) scope_from_rel(p, scope, r, f->alias);
        }
        return r;
    }
    }
    return NULL;
}

/* ---- VALUES ---- */

/* Calcite's one-row relation (LogicalValues.createOneRow): one INT NOT NULL column ZERO holding 0,
   under a SELECT without FROM and each row of a VALUES that is not all literals. */
static WRel *one_row(WPlanCtx *p)
{
    WArena *a = p->arena;
    WRel *in = wrel_new(p, WR_VALUES, 0);
    WRelValues *rv = wrel_values_mut(in);
    bind_schema_alloc(p, &in->out, 1);
    in->out.names[0] = "ZERO";
    in->out.types[0] = wtype_new(a, WT_INT, false);
    rv->nrows = 1;
    rv->rows = WA_ARRAY(a, WDatum *, 1);
    rv->row_nulls = WA_ARRAY(a, uint8_t *, 1);
    rv->rows[0] = WA_ARRAY(a, WDatum, 1);
    rv->row_nulls[0] = WA_ARRAY(a, uint8_t, 1);
    rv->rows[0][0].i = 0;
    return in;
}

/* A cell Calcite's SqlToRelConverter puts into a LogicalValues tuple: a SqlLiteral (a number, also
   negative, a string, a boolean, NULL, a DATE / TIME / TIMESTAMP / INTERVAL or X'' literal);
   a CAST, a function call, ARRAY / MAP / ROW are not. */
static bool calcite_literal(const AstExpr *e)
{
    if (e->kind == AE_UNARY && (e->op == AO_NEG || e->op == AO_POS) && e->nargs == 1 &&
        e->args[0]->kind == AE_LITERAL)
        e = e->args[0];
    return e->kind == AE_LITERAL;
}

/* VALUES with a row that is not all literals, as SqlToRelConverter.convertValuesImpl plans it:
   each row a projection of its cells (with their own types) over the one-row relation, the rows
   a UNION ALL (one row: its projection alone). The union's inputs are cast to the column types by
   Calcs the AST does not show (Calcite's LogicalUnion has the common type; Flink's planner casts
   each input). */
static WRel *values_union(QCtx *q, WExpr ***cells, int nrows, int ncols, const WSchema *out)
{
    WPlanCtx *p = q->b->p;
    WArena *a = p->arena;
    WRel **sides = WA_ARRAY(a, WRel *, nrows);
    for (int r = 0; r < nrows; r++) {
        for (int c = 0; c < ncols; c++) cells[r][c] = wplan_fold_literal_casts(p, cells[r][c]);     /* a projection */
        sides[r] = bind_make_calc(p, one_row(p), ncols, cells[r], out->names, NULL);
    }
    if (nrows == 1) return sides[0];
    WRel **rows = WA_ARRAY(a, WRel *, nrows);
    memcpy(rows, sides, sizeof(WRel *) * (size_t)nrows);
    bsetop_cast_sides(p, sides, nrows, out->types);
    for (int r = 0; r < nrows; r++)
        if (sides[r] != rows[r]) sides[r]->ast_hidden = true;
    WRel *u = wrel_new(p, WR_UNION, nrows);
    u->out = *out;
    u->changelog = 0;
    for (int r = 0; r < nrows; r++) {
        u->inputs[r] = sides[r];
        u->changelog |= sides[r]->changelog;
    }
    return u;
}

static WRel *bind_values(QCtx *q, AstQuery *aq)
{
    WPlanCtx *p = q->b->p;
    WArena *a = p->arena;
    int nrows = aq->nrows;
    int ncols = -1;
    WExpr ***cells = WA_ARRAY(a, WExpr **, nrows);
    BScope empty;
    bscope_init(&empty);
    for (int r = 0; r < nrows; r++) {
        AstExpr *row = aq->rows[r];
        int n = row->kind == AE_ROW ? row->nargs : 1;
        if (ncols < 0) ncols = n;
        else if (n != ncols)
            return fail_rel(p, row->pos, WEXC_CALCITE, "Values passed to VALUES operator must have compatible types");
        cells[r] = WA_ARRAY(a, WExpr *, n);
        for (int c = 0; c < n; c++) {
            AstExpr *ce = row->kind == AE_ROW ? row->args[c] : row;
            if (is_bare_null(ce)) return fail_rel(p, ce->pos, WEXC_CALCITE, ILLEGAL_NULL);
            cells[r][c] = bind_expr(q->b, &empty, ce);
            if (!cells[r][c]) return NULL;
        }
    }
    WRel *v = wrel_new(p, WR_VALUES, 0);
    bind_schema_alloc(p, &v->out, ncols);
    for (int c = 0; c < ncols; c++) {
        const WType *t = NULL;
        for (int r = 0; r < nrows; r++) {
            const WType *ct = cells[r][c]->type;
            t = t ? wtype_common(a, t, ct) : ct;
            if (!t) return fail_rel(p, aq->pos, WEXC_CALCITE, "Values passed to VALUES operator must have compatible types");
        }
        if (t->id == WT_NULL) t = wtype_with_nullable(a, &WTYPE_NULL, true);
        v->out.types[c] = t;
        v->out.names[c] = wa_sprintf(a, "EXPR$%d", c);
    }
    for (int r = 0; r < nrows; r++) {
        AstExpr *row = aq->rows[r];
        for (int c = 0; c < ncols; c++)
            if (!calcite_literal(row->kind == AE_ROW ? row->args[c] : row))
                return values_union(q, cells, nrows, ncols, &v->out);
    }
    WRelValues *rv = wrel_values_mut(v);
    rv->nrows = nrows;
    rv->rows = WA_ARRAY(a, WDatum *, nrows);
    rv->row_nulls = WA_ARRAY(a, uint8_t *, nrows);
    WEvalCtx ec = {.arena = a, .err = p->err};
    if (p->cast) ec.cast = *p->cast;
    for (int r = 0; r < nrows; r++) {
        rv->rows[r] = WA_ARRAY(a, WDatum, ncols ? ncols : 1);
        rv->row_nulls[r] = WA_ARRAY(a, uint8_t, ncols ? ncols : 1);
        for (int c = 0; c < ncols; c++) {
            WExpr *x = bind_cast(q->b, cells[r][c], v->out.types[c]);
            if (!wexpr_is_const(x))
                return fail_rel(p, aq->pos, WEXC_VALIDATION, "VALUES may only contain constant expressions");
            bool isnull;
            if (!wexpr_eval_const(&ec, x, &rv->rows[r][c], &isnull)) return NULL;
            rv->row_nulls[r][c] = isnull;
        }
    }
    return v;
}

/* ---- SELECT ---- */

static const char *item_name(BindCtx *b, AstSelectItem *it, int idx)
{
    if (it->alias) return it->alias;
    AstExpr *e = it->expr;
    if (e->kind == AE_COLUMN) return e->name.parts[e->name.n - 1];
    if ((e->kind == AE_FIELD || (e->kind == AE_FUNC && e->special == 'N')) && e->str) return e->str;
    return wa_sprintf(b->p->arena, "EXPR$%d", idx);
}

/* Expand the select list into (expr ast or column index) pairs. */
typedef struct SelCol {
    AstExpr *expr;      /* NULL when col >= 0 */
    int col;            /* star-expanded input column */
    const char *name;
    bool expands_using; /* a select item (not ORDER BY's): an unqualified USING column in it is the
                           COALESCE of its copies — unless the item is that bare name with an
                           alias, which Calcite leaves ambiguous (measured on Flink 2.3) */
} SelCol;

static int expand_items(BindCtx *b, AstQuery *aq, BScope *scope, SelCol **out)
{
    WArena *a = b->p->arena;
    int cap = aq->nitems + scope->n * 2 + 4, n = 0;
    SelCol *cols = WA_ARRAY(a, SelCol, cap);
    for (int i = 0; i < aq->nitems; i++) {
        AstSelectItem *it = &aq->items[i];
        if (it->expr->kind == AE_STAR) {
            const char *qual = it->expr->name.n ? it->expr->name.parts[it->expr->name.n - 1] : NULL;
            bool any = false;
            for (int k = 0; !qual && k < scope->nstar; k++) {
                /* over a join with USING / NATURAL (bind_join.c) */
                if (n == cap) {
                    SelCol *nc = WA_ARRAY(a, SelCol, cap * 2);
                    memcpy(nc, cols, sizeof(SelCol) * (size_t)n);
                    cols = nc;
                    cap *= 2;
                }
                AstExpr *x = scope->star[k].expr;
                if (x->kind == AE_SCOPE_REF) cols[n++] = (SelCol){NULL, x->scope_col, scope->star[k].name, false};
                else cols[n++] = (SelCol){x, -1, scope->star[k].name, false};
                any = true;
            }
            for (int c = 0; c < scope->n && !(!qual && scope->nstar); c++) {
                if (scope->cols[c].hidden) continue;
                if (qual && (!scope->cols[c].qual || strcmp(scope->cols[c].qual, qual) != 0)) continue;
                if (n == cap) {
                    SelCol *nc = WA_ARRAY(a, SelCol, cap * 2);
                    memcpy(nc, cols, sizeof(SelCol) * (size_t)n);
                    cols = nc;
                    cap *= 2;
                }
                cols[n++] = (SelCol){NULL, c, scope->cols[c].name, false};
                any = true;
            }
            if (qual && !any) {
                werr_set_at(b->p->err, it->expr->pos.line, it->expr->pos.col, WEXC_CALCITE,
                            "Unknown identifier '%s'", qual);
                return -1;
            }
            if (!qual && scope->n == 0) {
                werr_set_at(b->p->err, it->expr->pos.line, it->expr->pos.col, WEXC_CALCITE,
                            "SELECT * not allowed in query with no FROM clause");
                return -1;
            }
            continue;
        }
        if (n == cap) {
            SelCol *nc = WA_ARRAY(a, SelCol, cap * 2);
            memcpy(nc, cols, sizeof(SelCol) * (size_t)n);
            cols = nc;
            cap *= 2;
        }
        cols[n] = (SelCol){it->expr, -1, item_name(b, it, n), !(it->alias && it->expr->kind == AE_COLUMN)};
        n++;
    }
    *out = cols;
    return n;
}

void bind_uniquify(WArena *a, int n, const char **names)
{
    for (int i = 1; i < n; i++) {
        for (int j = 0; j < i; j++) {
            if (strcmp(names[i], names[j]) == 0) {
                for (int k = 0;; k++) {
                    const char *cand = wa_sprintf(a, "%s%d", names[i], k);
                    bool clash = false;
                    for (int m = 0; m < n; m++) if (m != i && strcmp(names[m], cand) == 0) clash = true;
                    if (!clash) { names[i] = cand; break; }
                }
                break;
            }
        }
    }
}


/* The aggregate arguments no call reads any more (the arguments of COUNT(1), dropped by the
   binder) leave the projection below the aggregate; the others keep their $f names. Returns the
   projection's new width and renumbers the calls' argument columns. */
static int drop_unused_agg_args(WArena *a, BAgg *g, int npre, WExpr **pre, const char **pre_names)
{
    int *to = WA_ARRAY(a, int, npre ? npre : 1);
    for (int i = 0; i < npre; i++) to[i] = i < g->ngroup ? i : -1;
    for (int k = 0; k < g->ncalls; k++) {
        const WAggCall *c = &g->calls[k];
        for (int m = 0; m < c->nargs; m++) to[c->args[m]] = c->args[m];
        if (c->filter_col >= 0) to[c->filter_col] = c->filter_col;
    }
    int n = 0;
    for (int i = 0; i < npre; i++) {
        if (to[i] < 0) continue;
        pre[n] = pre[i];
        pre_names[n] = pre_names[i];
        to[i] = n++;
    }
    for (int k = 0; k < g->ncalls; k++) {
        WAggCall *c = &g->calls[k];
        for (int m = 0; m < c->nargs; m++) {
            c->args[m] = to[c->args[m]];
            assert(c->args[m] >= 0);   /* a column a call reads stays */
        }
        if (c->filter_col >= 0) c->filter_col = to[c->filter_col];
    }
    return n;
}

/* Calcite's name for GROUP BY item ge in the projection below the aggregate: that of the select
   item written the same way (its alias, or the name derived for it: EXPR$<position>, a column's
   name), the last such item winning; NULL when no select item is (measured on Flink 2.3:
   SELECT UPPER(s) AS u ... GROUP BY UPPER(s) groups by u, SELECT s AS ss ... GROUP BY s by ss). */
static const char *group_key_name(WArena *a, const AstQuery *aq, const SelCol *cols, int ncols, const AstExpr *ge)
{
    if (!ge) return NULL;
    const char *gsql = NULL, *name = NULL;
    for (int i = 0; i < ncols; i++) {
        if (!cols[i].expr) continue;
        bool item = false;
        for (int k = 0; k < aq->nitems && !item; k++) item = aq->items[k].expr == cols[i].expr;
        if (!item) continue;        /* a star's column, an ORDER BY key */
        if (!gsql) gsql = ast_expr_sql(a, ge);
        if (!strcmp(ast_expr_sql(a, cols[i].expr), gsql)) name = cols[i].name;
    }
    return name;
}

static WRel *bind_aggregate(QCtx *q, AstQuery *aq, WRel *in, BScope *scope, SelCol *cols, int ncols)
{
    BindCtx *b = q->b;
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    BAgg g = {0};
    g.input = scope;
    g.win_key = -1;
    /* group keys: the GROUP BY expressions, or the keys of its grouping sets (grouping_sets.c) */
    int ng = 0;
    AstExpr *group_window = NULL;
    BGroupSets gs = {0};
    bool has_sets = false;
    for (int i = 0; i < aq->ngroup; i++) has_sets |= aq->group[i].kind != AG_EXPR;
    if (has_sets && !bgs_collect(b, aq, &gs)) return NULL;
    int ngk = has_sets ? gs.nkeys : aq->ngroup;
    AstExpr **gk = WA_ARRAY(a, AstExpr *, ngk ? ngk : 1);
    for (int i = 0; i < ngk; i++) gk[i] = has_sets ? gs.keys[i] : aq->group[i].expr;
    for (int i = 0; i < ngk; i++) {
        AstExpr *ge = gk[i];
        if (ge->kind == AE_FUNC && ge->name.n == 1 &&
            (!strcasecmp(ge->name.parts[0], "TUMBLE") || !strcasecmp(ge->name.parts[0], "HOP") ||
             !strcasecmp(ge->name.parts[0], "SESSION"))) {
            if (group_window)
                return fail_rel(p, ge->pos, WEXC_VALIDATION, "Multiple group windows are not supported");
            if (has_sets)
                return fail_rel(p, ge->pos, WEXC_TABLE, "Group windows with GROUPING SETS, ROLLUP or CUBE are not supported yet");
            group_window = ge;
            ng += 2;
        }
        ng++;
    }
    if (group_window) {
        /* legacy group window: TUMBLE(ts, size), HOP(ts, slide, size), SESSION(ts, gap) as a window
           table function under the aggregate, grouped by its window_start, window_end, window_time */
        const char *fn = group_window->name.parts[0];
        int nargs = group_window->nargs;
        bool hop = !strcasecmp(fn, "HOP");
        if (nargs != (hop ? 3 : 2))
            return fail_rel(p, group_window->pos, WEXC_VALIDATION, "Invalid number of arguments for the group window function");
        AstExpr *targs[4] = {0};
        AstExpr tab = {.kind = AE_TABLE_ARG, .pos = group_window->pos};
        AstExpr desc = {.kind = AE_DESCRIPTOR, .pos = group_window->pos, .nargs = 1};
        AstExpr *dargs[1] = {group_window->args[0]};
        desc.args = dargs;
        targs[0] = &tab;
        targs[1] = &desc;
        if (hop) { targs[2] = group_window->args[1]; targs[3] = group_window->args[2]; }
        else targs[2] = group_window->args[1];
        AstExpr call = {.kind = AE_FUNC, .pos = group_window->pos, .name = group_window->name,
                        .nargs = hop ? 4 : 3, .args = targs};
        WRel *w = bind_group_window(q, &call, in, scope);
        if (!w) return NULL;
        wrel_window_mut(w)->legacy = true;
        in = w;
        /* the window columns join the scope, hidden from * */
        int n = w->out.n - 3;
        for (int k = 0; k < 3; k++) {
            bscope_add(a, scope, NULL, w->out.names[n + k], w->out.types[n + k]);
            scope->cols[scope->n - 1].hidden = true;
        }
    }
    g.group = WA_ARRAY(a, WExpr *, ng ? ng : 1);
    const AstExpr **key_ast = WA_ARRAY(a, const AstExpr *, ng ? ng : 1);    /* the GROUP BY item of each key */
    int *key_of = WA_ARRAY(a, int, ngk ? ngk : 1);
    for (int i = 0; i < ngk; i++) {
        AstExpr *ge = gk[i];
        if (ge == group_window) {
            int n = in->out.n - 3;
            g.win_key = g.ngroup;
            for (int k = 0; k < 3; k++) {
                key_ast[g.ngroup] = NULL;
                g.group[g.ngroup++] = wexpr_column(a, n + k, in->out.types[n + k], in->out.names[n + k]);
            }
            continue;
        }
        /* GROUP BY may name a select alias? Flink (Calcite default conformance) does not. An
           ordinal is not allowed either by default. */
        if (ast_contains_aggregate(ge))
            return fail_rel(p, ge->pos, WEXC_CALCITE, "Aggregate expression is illegal in GROUP BY clause");
        b->expand_using = true;   /* GROUP BY a USING column: the COALESCE of its copies (Calcite) */
        WExpr *x = bind_expr(b, scope, ge);
        b->expand_using = false;
        if (!x) return NULL;
        key_of[i] = -1;
        for (int j = 0; j < g.ngroup; j++) if (wexpr_equal(g.group[j], x)) key_of[i] = j;
        if (key_of[i] < 0) {
            key_of[i] = g.ngroup;
            key_ast[g.ngroup] = ge;
            g.group[g.ngroup++] = x;
        }
    }
    if (has_sets) {
        gs.copy = q->gs_copy;
        if (!bgs_remap(b, &gs, key_of, g.ngroup, aq->pos)) return NULL;
        q->gs_copies = gs.copies;
        g.gsets = &gs;
        if (gs.active) {
            g.key_types = WA_ARRAY(a, const WType *, g.ngroup ? g.ngroup : 1);
            for (int i = 0; i < g.ngroup; i++)
                g.key_types[i] = wtype_with_time_attr(a, wtype_with_nullable(a, g.group[i]->type, true), WTA_NONE);
        }
    }
    /* bind select items and HAVING in aggregate mode */
    b->agg = &g;
    WExpr **out = WA_ARRAY(a, WExpr *, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) {
        if (cols[i].expr) {
            b->expand_using = cols[i].expands_using;
            out[i] = wplan_fold_literal_casts(p, bind_expr(b, scope, cols[i].expr));
            b->expand_using = false;
        } else {
            AstExpr fake = {0};
            char *parts[1] = {(char *)scope->cols[cols[i].col].name};
            fake.kind = AE_COLUMN;
            fake.name.n = 1;
            fake.name.parts = parts;
            fake.pos = aq->pos;
            out[i] = bind_expr(b, scope, &fake);
        }
        if (!out[i]) { b->agg = NULL; return NULL; }
    }
    WExpr *having = NULL;
    if (aq->having) {
        having = bind_condition(b, scope, aq->having, "HAVING");
        if (!having) { b->agg = NULL; return NULL; }
    }
    b->agg = NULL;
    if (group_window && g.win_props_used) wrel_window_mut(in)->legacy_props = true;
    /* pre-projection: group keys then aggregate arguments */
    int npre = g.ngroup + g.nargs;
    WExpr **pre = WA_ARRAY(a, WExpr *, npre ? npre : 1);
    const char **pre_names = WA_ARRAY(a, const char *, npre ? npre : 1);
    for (int i = 0; i < g.ngroup; i++) {
        pre[i] = wplan_fold_literal_casts(p, g.group[i]);
        const char *named = has_sets ? NULL : group_key_name(a, aq, cols, ncols, key_ast[i]);
        pre_names[i] = named ? named : g.group[i]->kind == WX_COLUMN ? g.group[i]->name : wa_sprintf(a, "$f%d", i);
    }
    for (int i = 0; i < g.nargs; i++) {
        pre[g.ngroup + i] = wplan_fold_literal_casts(p, g.args[i]);
        pre_names[g.ngroup + i] = g.args[i]->kind == WX_COLUMN ? g.args[i]->name : wa_sprintf(a, "$f%d", g.ngroup + i);
    }
    bind_uniquify(a, npre, pre_names);
    npre = drop_unused_agg_args(a, &g, npre, pre, pre_names);
    WRel *calc = bind_make_calc(p, in, npre, pre, pre_names, NULL);
    /* an aggregate that reads no column (COUNT(*)) sits on its input in Calcite's plan: Flink's
       AST shows no empty LogicalProject (measured) */
    if (npre == 0 && calc->kind == WR_CALC) calc->ast_hidden = true;
    /* the output columns refer to the aggregate's output by index */
    const char **names = WA_ARRAY(a, const char *, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) names[i] = cols[i].name;
    bind_uniquify(a, ncols, names);
    /* Calcite names an aggregate call after the first select item that is exactly that call; a
       later item written the same way renames it (SUM(a) AS s1, SUM(a) AS s2 keeps s2), one that
       only became the same call (COUNT(*) after COUNT(1)) does not */
    int *named_by = WA_ARRAY(a, int, g.ncalls ? g.ncalls : 1);
    for (int k = 0; k < g.ncalls; k++) named_by[k] = -1;
    for (int i = 0; i < ncols; i++) {
        const WExpr *e = out[i];
        if (!e || e->kind != WX_COLUMN || e->col < g.ngroup || e->col >= g.ngroup + g.ncalls) continue;
        /* CAST(SUM(a) AS INT) binds to the call itself when the types agree, yet is no call */
        if (!cols[i].expr || !ast_is_aggregate_call(cols[i].expr)) continue;
        int k = e->col - g.ngroup;
        if (named_by[k] >= 0) {
            const AstExpr *first = cols[named_by[k]].expr;
            if (!first || !cols[i].expr || strcmp(ast_expr_sql(a, first), ast_expr_sql(a, cols[i].expr))) continue;
        }
        named_by[k] = i;
        bool clash = false;
        for (int j = 0; j < g.ngroup; j++) if (!strcmp(pre_names[j], names[i])) clash = true;
        if (!clash) { g.calls[k].out_name = names[i]; g.calls[k].named = true; }
    }
    if (gs.active) {
        WRel *agg = bgs_aggregate(b, &g, &gs, calc);
        agg->left_name = scope_single_name(scope);
        for (int i = 0; i < ncols; i++) out[i] = bgs_shift_post(a, out[i], g.ngroup);
        having = bgs_shift_post(a, having, g.ngroup);
        return bind_make_calc(p, agg, ncols, out, names, having);
    }
    WRel *agg = wrel_new(p, WR_GROUP_AGG, 1);
    agg->inputs[0] = calc;
    agg->left_name = scope_single_name(scope);
    agg->nkeys = g.ngroup;
    agg->keys = WA_ARRAY(a, int, g.ngroup ? g.ngroup : 1);
    for (int i = 0; i < g.ngroup; i++) agg->keys[i] = i;
    wrel_agg_mut(agg)->naggs = g.ncalls;
    wrel_agg_mut(agg)->aggs = g.calls;
    bind_schema_alloc(p, &agg->out, g.ngroup + g.ncalls);
    for (int i = 0; i < g.ngroup; i++) {
        agg->out.names[i] = pre_names[i];
        agg->out.types[i] = wtype_with_time_attr(a, pre[i]->type, WTA_NONE);
    }
    for (int i = 0; i < g.ncalls; i++) {
        agg->out.names[g.ngroup + i] = g.calls[i].out_name;
        agg->out.types[g.ngroup + i] = g.calls[i].type;
    }
    WRel *post = bind_make_calc(p, agg, ncols, out, names, having);
    return post;
}

static WRel *bind_from_cb(void *q, AstFrom *f, BScope *scope) { return bind_from((QCtx *)q, f, scope); }

/* ROW_NUMBER/RANK/DENSE_RANK() OVER (PARTITION BY .. ORDER BY ..): a logical rank node that
   appends the rank column; the rank rule (rank_rules.c) turns it into Rank or Deduplicate when a
   filter on the rank follows. */
static WRel *bind_over_rank(QCtx *q, WRel *in, BScope *scope, AstExpr *e)
{
    BindCtx *b = q->b;
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    const char *fname = e->name.parts[e->name.n - 1];
    WRankFunc func;
    if (strcasecmp(fname, "ROW_NUMBER") == 0) func = WRANK_ROW_NUMBER;
    else if (strcasecmp(fname, "RANK") == 0) func = WRANK_RANK;
    else if (strcasecmp(fname, "DENSE_RANK") == 0) func = WRANK_DENSE_RANK;
    else return bover_stream_refuse(b, scope, e);
    AstOver *ov = e->over;
    if (ov->ref_name) return fail_rel(p, e->pos, WEXC_TABLE, "Named windows (OVER w) are not supported yet");
    if (ov->norder == 0)
        return fail_rel(p, e->pos, WEXC_VALIDATION, "Over Agg: The window rank function requires order by clause with non-constant fields. please re-check the over window statement.");
    WRel *r = wrel_new(p, WR_OVER_RANK, 1);
    WRelRank *rr = wrel_rank_mut(r);
    r->inputs[0] = in;
    rr->func = func;
    r->nkeys = ov->npartition;
    r->keys = WA_ARRAY(a, int, ov->npartition ? ov->npartition : 1);
    for (int i = 0; i < ov->npartition; i++) {
        WExpr *x = bind_expr(b, scope, ov->partition[i]);
        if (!x) return NULL;
        if (x->kind != WX_COLUMN)
            return fail_rel(p, ov->partition[i]->pos, WEXC_TABLE, "PARTITION BY expressions must be columns (compute them in a subquery)");
        r->keys[i] = x->col;
    }
    r->nsort = ov->norder;
    r->sort_cols = WA_ARRAY(a, int, ov->norder);
    r->sort_desc = WA_ARRAY(a, bool, ov->norder);
    r->sort_nulls_first = WA_ARRAY(a, bool, ov->norder);
    for (int i = 0; i < ov->norder; i++) {
        WExpr *x = bind_expr(b, scope, ov->order[i].expr);
        if (!x) return NULL;
        if (x->kind != WX_COLUMN)
            return fail_rel(p, ov->order[i].expr->pos, WEXC_TABLE, "ORDER BY expressions of a ranking function must be columns (compute them in a subquery)");
        r->sort_cols[i] = x->col;
        r->sort_desc[i] = ov->order[i].desc;
        /* Flink default: ASC -> NULLS FIRST, DESC -> NULLS LAST */
        r->sort_nulls_first[i] = ov->order[i].nulls ? ov->order[i].nulls == 1 : !ov->order[i].desc;
    }
    rr->start = 1;
    rr->end = INT64_MAX;
    rr->output_number = true;
    int n = in->out.n;
    bind_schema_alloc(p, &r->out, n + 1);
    for (int i = 0; i < n; i++) { r->out.names[i] = in->out.names[i]; r->out.types[i] = in->out.types[i]; }
    r->out.names[n] = "w0$o0";
    r->out.types[n] = &WTYPE_BIGINT_NN;
    rr->col = n;
    bscope_add(a, scope, NULL, "w0$o0", &WTYPE_BIGINT_NN);
    scope->cols[scope->n - 1].hidden = true;
    r->changelog = in->changelog;
    return r;
}

/* Query hints reach the joins and aggregates of their own SELECT (not those of subqueries,
   which were bound before and carry their own). */
static void attach_hints(WRel *r, AstHints *h, int depth)
{
    if (depth > 64) return;
    if ((r->kind == WR_JOIN || r->kind == WR_GROUP_AGG) && r->nhints == 0) {
        r->nhints = h->n;
        r->hints = h->items;
    }
    if (r->kind == WR_SCAN || r->kind == WR_VALUES) return;
    for (int i = 0; i < r->ninputs; i++) {
        /* stop at a node that belongs to another SELECT (a nested aggregate or join already hinted) */
        attach_hints(r->inputs[i], h, depth + 1);
    }
}

/* The ORDER BY items of a query, resolved by bind_order_cols. */
typedef struct OrderCols {
    int *cols;              /* per item: output column (visible or hidden) */
    int nvisible;           /* the query's own columns; hidden ORDER BY columns follow */
} OrderCols;

static const char *order_item_name(BindCtx *b, AstExpr *e, int idx)
{
    if (e->kind == AE_COLUMN) return e->name.parts[e->name.n - 1];
    if ((e->kind == AE_FIELD || (e->kind == AE_FUNC && e->special == 'N')) && e->str) return e->str;
    return wa_sprintf(b->p->arena, "EXPR$%d", idx);
}

/* ORDER BY items of a SELECT: an ordinal or a select alias names an output column; any other
   expression becomes a column appended to the select list (hidden: removed after the sort).
   Returns the extended column list (*ncols grows) or NULL on error. */
static SelCol *bind_order_cols(BindCtx *b, AstQuery *aq, SelCol *cols, int *ncols, OrderCols *oc)
{
    WArena *a = b->p->arena;
    int nvis = *ncols, n = *ncols;
    SelCol *ext = WA_ARRAY(a, SelCol, n + aq->norder);
    memcpy(ext, cols, sizeof(SelCol) * (size_t)n);
    const char **names = WA_ARRAY(a, const char *, nvis ? nvis : 1);
    for (int i = 0; i < nvis; i++) names[i] = cols[i].name;
    oc->cols = WA_ARRAY(a, int, aq->norder);
    oc->nvisible = nvis;
    for (int k = 0; k < aq->norder; k++) {
        AstExpr *e = aq->order[k].expr;
        int idx = bsort_ordinal_or_alias(b, e, nvis, names);
        if (idx == -2) return NULL;
        if (idx < 0) {
            ext[n] = (SelCol){e, -1, order_item_name(b, e, n), false};
            idx = n++;
        }
        oc->cols[k] = idx;
    }
    *ncols = n;
    return ext;
}

/* Hidden ORDER BY columns equal to a select item (or to an earlier hidden one) are dropped and
   the item refers to that column instead, as Calcite does. */
static WRel *dedupe_order_cols(WPlanCtx *p, WRel *calc, OrderCols *oc, int norder)
{
    const WRelCalc *cc = wrel_calc(calc);
    int n = cc->nexprs, nvis = oc->nvisible;
    int *map = WA_ARRAY(p->arena, int, n ? n : 1);
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, n ? n : 1);
    const char **names = WA_ARRAY(p->arena, const char *, n ? n : 1);
    int m = 0;
    for (int i = 0; i < n; i++) {
        map[i] = -1;
        for (int j = 0; j < m && i >= nvis; j++)
            if (wexpr_equal(ex[j], cc->exprs[i])) { map[i] = j; break; }
        if (map[i] >= 0) continue;
        ex[m] = cc->exprs[i];
        names[m] = calc->out.names[i];
        map[i] = m++;
    }
    for (int k = 0; k < norder; k++) oc->cols[k] = map[oc->cols[k]];
    if (m == n) return calc;
    WRel *c = bind_make_calc(p, calc->inputs[0], m, ex, names, cc->cond);
    c->nhints = calc->nhints;
    c->hints = calc->hints;
    return c;
}

static WRel *bind_select_once(QCtx *q, AstQuery *aq, OrderCols *oc);

/* A SELECT; when its GROUP BY repeats a grouping set, Calcite's rewrite: the SELECT once per copy
   of the repeated sets (GROUP_ID() = the copy), under a UNION ALL; DISTINCT applies to the union. */
static WRel *bind_select_core(QCtx *q, AstQuery *aq, OrderCols *oc)
{
    q->gs_copy = 0;
    q->gs_copies = 1;
    WRel *first = bind_select_once(q, aq, oc);
    if (!first || q->gs_copies == 1) return first;
    int copies = q->gs_copies;
    bool distinct = aq->distinct;
    aq->distinct = false;
    WRel **sides = WA_ARRAY(q->b->p->arena, WRel *, copies);
    if (distinct) {             /* copy 0 again, without its own DISTINCT */
        q->gs_copy = 0;
        first = bind_select_once(q, aq, oc);
    }
    sides[0] = first;
    for (int k = 1; k < copies && sides[k - 1]; k++) {
        q->gs_copy = k;
        sides[k] = bind_select_once(q, aq, oc);
    }
    aq->distinct = distinct;
    q->gs_copy = 0;
    for (int k = 0; k < copies; k++) if (!sides[k]) return NULL;
    WRel *u = bsetop_union_all(q->b->p, sides, copies);
    if (distinct) {
        WRel *agg = wrel_new(q->b->p, WR_GROUP_AGG, 1);
        agg->inputs[0] = u;
        agg->nkeys = u->out.n;
        agg->keys = WA_ARRAY(q->b->p->arena, int, u->out.n ? u->out.n : 1);
        for (int i = 0; i < u->out.n; i++) agg->keys[i] = i;
        agg->out = u->out;
        u = agg;
    }
    return u;
}

static WRel *bind_select_once(QCtx *q, AstQuery *aq, OrderCols *oc)
{
    BindCtx *b = q->b;
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    if (bover_in_aggregate(aq)) {      /* OVER windows after GROUP BY (bind_over_group.c) */
        AstQuery *outer = bover_split_aggregate(b, aq);
        return outer ? bind_select_core(q, outer, oc) : NULL;
    }
    BScope scope;
    bscope_init(&scope);
    WRel *in;
    if (aq->from) {
        in = bind_from(q, aq->from, &scope);
        if (!in) return NULL;
    } else {
        /* Calcite's single row of a SELECT without FROM: one INT NOT NULL column ZERO holding 0,
           which no name in the query can reach (the scope stays empty) */
        in = one_row(p);
    }
    if (aq->from && bsubq_has_scalar(aq)) {
        /* scalar subqueries in WHERE and select items: joined to the FROM (bind_scalar_subquery.c) */
        in = bsubq_bind(b, aq, in, &scope, bind_from_cb, q);
        if (!in) return NULL;
    }
    if (aq->where) {
        if (ast_contains_aggregate(aq->where))
            return fail_rel(p, aq->where->pos, WEXC_CALCITE, "Aggregate expression is illegal in WHERE clause");
        AstExpr *where = aq->where;
        if (ast_has_subquery_conjunct(where)) {
            in = bind_where_subqueries(b, in, &scope, where, &where, bind_from_cb, q);
            if (!in) return NULL;
        }
        if (where) {
            WExpr *cond = bind_condition(b, &scope, where, "WHERE");
            if (!cond) return NULL;
            in = make_filter(p, in, cond);
        }
    }
    AstExpr *rank_ast = NULL;
    int rank_col = -1;
    /* OVER windows (bind_over.c): OverAggregate nodes appending the calls' results; a lone
       ROW_NUMBER / RANK / DENSE_RANK is a ranking node instead (a Top-N filter may follow) */
    bool has_over = bover_has_over(aq), rank_only = has_over && bover_only_rank(aq);
    if (has_over && !rank_only) {
        b->expand_using = true;   /* the calls are in select items */
        in = bover_bind(b, aq, in, &scope);
        b->expand_using = false;
        if (!in) return NULL;
    }
    for (int i = 0; i < aq->nitems; i++) {
        AstExpr *e = aq->items[i].expr;
        if (!rank_only || e->kind != AE_FUNC || !e->over) continue;
        if (rank_ast)
            return fail_rel(p, e->pos, WEXC_TABLE, "Only one ranking function (ROW_NUMBER/RANK/DENSE_RANK) per SELECT is supported yet");
        in = bind_over_rank(q, in, &scope, e);
        if (!in) return NULL;
        rank_ast = e;
        rank_col = wrel_rank(in)->col;
    }
    for (int i = 0; i < aq->nitems; i++)
        if (is_bare_null(aq->items[i].expr)) return fail_rel(p, aq->items[i].expr->pos, WEXC_CALCITE, ILLEGAL_NULL);
    SelCol *cols;
    int ncols = expand_items(b, aq, &scope, &cols);
    if (ncols < 0) return NULL;
    if (oc) {
        cols = bind_order_cols(b, aq, cols, &ncols, oc);
        if (!cols) return NULL;
    }
    bool has_agg = aq->ngroup > 0 || aq->having != NULL;
    for (int i = 0; i < ncols && !has_agg; i++) has_agg = cols[i].expr && ast_contains_aggregate(cols[i].expr);
    WRel *out;
    if (has_agg) {
        out = bind_aggregate(q, aq, in, &scope, cols, ncols);
    } else {
        WExpr **ex = WA_ARRAY(a, WExpr *, ncols ? ncols : 1);
        const char **names = WA_ARRAY(a, const char *, ncols ? ncols : 1);
        for (int i = 0; i < ncols; i++) {
            if (cols[i].expr && cols[i].expr == rank_ast) {
                ex[i] = wexpr_column(a, rank_col, in->out.types[rank_col], cols[i].name);
            } else if (cols[i].expr) {
                b->expand_using = cols[i].expands_using;
                ex[i] = wplan_fold_literal_casts(p, bind_expr(b, &scope, cols[i].expr));
                b->expand_using = false;
                if (!ex[i]) return NULL;
            } else {
                ex[i] = wexpr_column(a, cols[i].col, scope.cols[cols[i].col].type, cols[i].name);
            }
            names[i] = cols[i].name;
        }
        bind_uniquify(a, ncols, names);
        out = bind_make_calc(p, in, ncols, ex, names, NULL);
    }
    if (!out) return NULL;
    if (oc && ncols > oc->nvisible) {
        out = dedupe_order_cols(p, out, oc, aq->norder);
        if (aq->distinct && out->out.n > oc->nvisible) {
            for (int k = 0; k < aq->norder; k++) {
                if (oc->cols[k] < oc->nvisible) continue;
                AstExpr *e = aq->order[k].expr;
                /* Calcite prints an identifier unquoted (SqlIdentifier.toString) */
                const char *txt = ast_expr_sql(a, e);
                if (e->kind == AE_COLUMN) {
                    WStrBuf nb;
                    wsb_init(&nb);
                    for (int i = 0; i < e->name.n; i++) wsb_printf(&nb, "%s%s", i ? "." : "", e->name.parts[i]);
                    txt = wa_strdup(a, nb.buf);
                    wsb_free(&nb);
                }
                werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                            "Expression '%s' is not in the select clause", txt);
                return NULL;
            }
        }
    }
    if (aq->hints.n) attach_hints(out, &aq->hints, 0);
    if (aq->distinct) {
        WRel *agg = wrel_new(p, WR_GROUP_AGG, 1);
        agg->inputs[0] = out;
        agg->nkeys = out->out.n;
        agg->keys = WA_ARRAY(a, int, out->out.n ? out->out.n : 1);
        for (int i = 0; i < out->out.n; i++) agg->keys[i] = i;
        agg->out = out->out;
        out = agg;
    }
    return out;
}


static WRel *bind_union(QCtx *q, AstQuery *aq)
{
    WPlanCtx *p = q->b->p;
    WArena *a = p->arena;
    const char *opname = aq->setop == ASO_INTERSECT ? "INTERSECT" : aq->setop == ASO_EXCEPT ? "EXCEPT" : "UNION";
    WRel *l = bind_query_in(q, aq->left);
    if (!l) return NULL;
    WRel *r = bind_query_in(q, aq->right);
    if (!r) return NULL;
    if (l->out.n != r->out.n) {
        werr_set_at(p->err, aq->pos.line, aq->pos.col, WEXC_CALCITE, "Column count mismatch in %s", opname);
        return NULL;
    }
    int n = l->out.n;
    WRel *sides[2] = {l, r};
    const WType **ct = WA_ARRAY(a, const WType *, n ? n : 1);
    if (!bsetop_union_types(p, sides, 2, ct, opname, aq->pos)) return NULL;
    if (aq->setop != ASO_UNION) {
        bsetop_cast_sides(p, sides, 2, ct);
        WSchema os;
        bind_schema_alloc(p, &os, n);
        for (int i = 0; i < n; i++) {
            os.names[i] = l->out.names[i];
            os.types[i] = ct[i];
        }
        return bsetop_rewrite(q->b, aq->setop, aq->all, sides[0], sides[1], &os);
    }
    WRel *u = bsetop_union_all(p, sides, 2);
    if (!u) return NULL;
    if (!aq->all) {
        WRel *agg = wrel_new(p, WR_GROUP_AGG, 1);
        agg->inputs[0] = u;
        agg->nkeys = n;
        agg->keys = WA_ARRAY(a, int, n ? n : 1);
        for (int i = 0; i < n; i++) agg->keys[i] = i;
        agg->out = u->out;
        return agg;
    }
    return u;
}

static WRel *bind_query_in(QCtx *q, AstQuery *aq)
{
    WPlanCtx *p = q->b->p;
    if (++p->depth > 200) { p->depth--; return fail_rel(p, aq->pos, WEXC_VALIDATION, "Query is nested too deeply"); }
    CteFrame frame = {aq->nctes, aq->ctes, q->ctes};
    QCtx inner = {.b = q->b, .ctes = aq->nctes ? &frame : q->ctes};
    WRel *r = NULL;
    OrderCols oc = {0};
    bool sorted = aq->norder || aq->limit || aq->offset;
    /* Calcite drops the ORDER BY of a subquery (a view, a CTE, a FROM or IN subquery) that has no
       LIMIT / OFFSET: only the statement's own query is sorted */
    if (p->depth > 1 && !aq->limit && !aq->offset) sorted = false;
    int saved_norder = aq->norder;
    if (!sorted) aq->norder = 0;
    switch (aq->kind) {
    case AQ_SELECT: r = bind_select_core(&inner, aq, aq->norder ? &oc : NULL); break;
    case AQ_SETOP: r = bind_union(&inner, aq); break;
    case AQ_VALUES: r = bind_values(&inner, aq); break;
    }
    if (r && sorted && aq->norder && aq->kind != AQ_SELECT)
        r = bsort_resolve_output(q->b, r, aq, &oc.cols, &oc.nvisible);
    if (r && sorted) r = bsort_node(q->b, r, aq, oc.cols, aq->norder ? oc.nvisible : r->out.n);
    aq->norder = saved_norder;
    p->depth--;
    return r;
}

WRel *wbind_query(WPlanCtx *p, AstQuery *aq)
{
    BindCtx b = {.p = p};
    QCtx q = {.b = &b};
    return bind_query_in(&q, aq);
}

WRel *wbind_select(WPlanCtx *p, AstStmt *s)
{
    WRel *r = wbind_query(p, s->query);
    if (!r) return NULL;
    WRel *sink = wrel_new(p, WR_SINK, 1);
    sink->inputs[0] = r;
    sink->out = r->out;
    sink->changelog = r->changelog;
    return sink;
}
