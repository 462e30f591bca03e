/*
 * plan_reader_check.c — EXECUTE PLAN never trusts a compiled plan: every index and shape a node
 * read from the JSON (key, field, sort, time-attribute and window-column indexes, aggregate
 * arguments, the width and column types of its outputType against what the node computes from
 * its inputs) is checked against the rows it refers to before the runtime sees it. A damaged or
 * hand-edited plan is refused with "Invalid compiled plan: node <id> (<type>): '<field>' ..." and
 * never reaches an operator (which indexes rows without checks).
 * Contract: rd_check_node(r, x) after a node is read (r->cur_id / r->cur_type name it); false
 * with the statement error set. The check of each kind is its row of RD_KIND_OPS
 * (ex_plan_reader_ops_check: no kind without one). Depends on plan_reader_internal.h.
 */
#include "plan_reader_internal.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

static bool bad(Rd *r, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool bad(Rd *r, const char *field, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return werr_set(r->p->err, WEXC_TABLE, "Invalid compiled plan: node %d (%s): '%s' %s", r->cur_id,
                    r->cur_type ? r->cur_type : "?", field, msg);
}

/* the type as Flink writes it (for messages) */
static const char *tn(const WType *t, char *buf)
{
    WStrBuf sb;
    wsb_init(&sb);
    wtype_to_string(t, &sb);
    snprintf(buf, 96, "%s", sb.buf ? sb.buf : "?");
    wsb_free(&sb);
    return buf;
}

static bool index_ok(Rd *r, const char *field, int v, int n)
{
    if (v >= 0 && v < n) return true;
    if (v == RD_BAD_INDEX) return bad(r, field, "holds a value that is not a field index (an integer from 0).");
    return bad(r, field, "refers to field %d, outside the row of %d field(s) it indexes.", v, n);
}

static bool indexes_ok(Rd *r, const char *field, const int *v, int cnt, int n)
{
    if (cnt < 0) return bad(r, field, "has a negative length.");
    for (int i = 0; i < cnt; i++)
        if (!index_ok(r, field, v[i], n)) return false;
    return true;
}

static bool time_col_ok(Rd *r, const char *field, const WSchema *s, int c)
{
    if (!index_ok(r, field, c, s->n)) return false;
    WTypeId id = s->types[c]->id;
    if (id != WT_TIMESTAMP && id != WT_TIMESTAMP_LTZ)
        return bad(r, field, "refers to field %d, which is not a TIMESTAMP or TIMESTAMP_LTZ column.", c);
    return true;
}

/* How a value of type id is held in a datum (values of one class share the representation). */
static int repr_class(WTypeId id)
{
    switch (id) {
    case WT_NULL: return 0;
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT: return 1;
    case WT_FLOAT: case WT_DOUBLE: return 2;
    case WT_DECIMAL: return 3;
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY: return 4;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return 5;
    case WT_ARRAY: case WT_MULTISET: return 6;
    case WT_MAP: return 7;
    case WT_ROW: return 8;
    default: return -1;
    }
}

/* a and b hold their values the same way (NULL fits anything); composites compared deeply */
static bool same_repr(const WType *a, const WType *b, int depth)
{
    if (!a || !b) return false;
    if (a->id == WT_NULL || b->id == WT_NULL) return true;
    if (repr_class(a->id) != repr_class(b->id) || repr_class(a->id) < 0) return false;
    if (depth > 64) return true;
    switch (a->id) {
    case WT_ARRAY: case WT_MULTISET: return same_repr(a->elem, b->elem, depth + 1);
    case WT_MAP: return same_repr(a->key, b->key, depth + 1) && same_repr(a->elem, b->elem, depth + 1);
    case WT_ROW:
        if (a->nfields != b->nfields) return false;
        for (int i = 0; i < a->nfields; i++)
            if (!same_repr(a->fields[i], b->fields[i], depth + 1)) return false;
        return true;
    default: return true;
    }
}

static bool width_ok(Rd *r, const WRel *x, int want)
{
    if (x->out.n == want) return true;
    return bad(r, "outputType", "has %d field(s), but the node produces %d.", x->out.n, want);
}

/* out columns [at, at+n) hold what src columns [from, from+n) hold */
static bool columns_ok(Rd *r, const WRel *x, int at, const WSchema *src, int from, int n)
{
    for (int i = 0; i < n; i++) {
        const WType *o = x->out.types[at + i], *s = src->types[from + i];
        if (!same_repr(o, s, 0))
            return bad(r, "outputType", "declares field %d as %s, but the node produces a %s there.", at + i,
                       tn(o, (char[96]){0}), tn(s, (char[96]){0}));
    }
    return true;
}

static bool passthrough_ok(Rd *r, const WRel *x, const WSchema *in)
{
    return width_ok(r, x, in->n) && columns_ok(r, x, 0, in, 0, in->n);
}

static bool aggs_ok(Rd *r, const char *field, const WRel *x, int nin)
{
    const WRelAgg *xa = wrel_agg(x);
    for (int i = 0; i < xa->naggs; i++) {
        const WAggCall *c = &xa->aggs[i];
        if (c->nargs < 0 || c->nargs > 2) return bad(r, field, "has a call with %d arguments.", c->nargs);
        for (int k = 0; k < c->nargs; k++)
            if (!index_ok(r, field, c->args[k], nin)) return false;
        if (c->filter_col != -1 && !index_ok(r, field, c->filter_col, nin)) return false;
    }
    return true;
}

/* keys, then aggregate results, at the start of the output */
static bool keys_aggs_out_ok(Rd *r, const WRel *x, const WSchema *in, int extra)
{
    const WRelAgg *xa = wrel_agg(x);
    if (!width_ok(r, x, x->nkeys + xa->naggs + extra)) return false;
    for (int k = 0; k < x->nkeys; k++)
        if (!columns_ok(r, x, k, in, x->keys[k], 1)) return false;
    for (int i = 0; i < xa->naggs; i++) {
        const WType *o = x->out.types[x->nkeys + i];
        if (xa->aggs[i].type && !same_repr(o, xa->aggs[i].type, 0))
            return bad(r, "outputType", "declares field %d as %s, but aggregate %d produces a %s.", x->nkeys + i,
                       tn(o, (char[96]){0}), i, tn(xa->aggs[i].type, (char[96]){0}));
    }
    return true;
}

static bool window_ok(Rd *r, const char *w, const WRel *x, const WSchema *in)
{
    char f[96];
    const WRelWindow *xw = wrel_window(x);
    if ((int)xw->kind < 0 || xw->kind >= WWIN_NKINDS) { snprintf(f, sizeof f, "%s.window", w); return bad(r, f, "has an unknown window kind."); }
    if (xw->attached) {
        snprintf(f, sizeof f, "%s.windowStart", w);
        if (!index_ok(r, f, xw->start_col, in->n)) return false;
        snprintf(f, sizeof f, "%s.windowEnd", w);
        if (!index_ok(r, f, xw->end_col, in->n)) return false;
    } else {
        snprintf(f, sizeof f, "%s.timeAttributeIndex", w);
        if (!time_col_ok(r, f, in, xw->time_col)) return false;
    }
    /* sizes, slides, steps and gaps are checked where the window is set up, with Flink's messages
       (exec/window_util.c) */
    return true;
}

/* a source reads no input: its reader checked its fields */
static bool rdc_leaf(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return true;
}

static bool rdc_calc(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelCalc *xc = wrel_calc(x);
    if (!width_ok(r, x, xc->nexprs)) return false;
    for (int i = 0; i < xc->nexprs; i++)
        if (!same_repr(x->out.types[i], xc->exprs[i]->type, 0))
            return bad(r, "outputType", "declares field %d as %s, but projection %d is a %s.", i,
                       tn(x->out.types[i], (char[96]){0}), i, tn(xc->exprs[i]->type, (char[96]){0}));
    return true;
}

static bool rdc_watermark(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return time_col_ok(r, "rowtimeFieldIndex", is, wrel_watermark(x)->rowtime_col) && passthrough_ok(r, x, is);
}

static bool rdc_exchange(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return indexes_ok(r, "inputProperties.requiredDistribution.keys", x->keys, x->nkeys, is->n) &&
           passthrough_ok(r, x, is);
}

static bool rdc_passthrough(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return passthrough_ok(r, x, is);
}

static bool rdc_union(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (x->ninputs < 1) return bad(r, "edges", "give the union no input.");
    for (int i = 0; i < x->ninputs; i++)
        if (!passthrough_ok(r, x, &x->inputs[i]->out)) return false;
    return true;
}

static bool rdc_sink_materializer(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return indexes_ok(r, "dynamicTableSink.table.resolvedTable.schema.primaryKey", x->keys, x->nkeys, is->n) &&
           passthrough_ok(r, x, is);
}

static bool rdc_sink(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WTable *t = wrel_sink(x)->table;
    int phys = 0;
    for (int i = 0; i < t->ncols; i++) if (t->cols[i].kind == WCOL_PHYSICAL) phys++;
    if (is->n < phys)
        return bad(r, "dynamicTableSink.table", "has %d physical column(s), but the sink's input has %d.", phys, is->n);
    if (is->n < phys + wrel_sink(x)->nmeta)
        return bad(r, "dynamicTableSink.abilities", "writes %d metadata column(s) after %d physical one(s), but the "
                   "sink's input has %d column(s).", wrel_sink(x)->nmeta, phys, is->n);
    return true;
}

static bool rdc_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && aggs_ok(r, "aggCalls", x, is->n) &&
           keys_aggs_out_ok(r, x, is, 0);
}

static bool rdc_local_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (!indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) || !aggs_ok(r, "aggCalls", x, is->n)) return false;
    if (x->out.n < x->nkeys) return width_ok(r, x, x->nkeys);
    for (int k = 0; k < x->nkeys; k++)
        if (!columns_ok(r, x, k, is, x->keys[k], 1)) return false;
    return true;
}

static bool rdc_global_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelAgg *xa = wrel_agg(x);
    return indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) &&
           aggs_ok(r, "aggCalls", x, xa->agg_input.n) && keys_aggs_out_ok(r, x, is, 0);
}

static bool rdc_incremental_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelAgg *xa = wrel_agg(x);
    return indexes_ok(r, "partialAggGrouping", x->keys, x->nkeys, is->n) &&
           indexes_ok(r, "finalAggGrouping", xa->final_keys, xa->nfinal_keys, is->n) &&
           aggs_ok(r, "partialOriginalAggCalls", x, xa->agg_input.n);
}

static bool rdc_join(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelJoin *rj = wrel_join(x);
    const WSchema *ls = &x->inputs[0]->out, *rs = &x->inputs[1]->out;
    if (!indexes_ok(r, "joinSpec.leftKeys", x->keys, x->nkeys, ls->n) ||
        !indexes_ok(r, "joinSpec.rightKeys", rj->right_keys, x->nkeys, rs->n))
        return false;
    if (x->kind == WR_INTERVAL_JOIN &&
        (!time_col_ok(r, "intervalJoinSpec.windowBounds.leftTimeIndex", ls, rj->left_time_col) ||
         !time_col_ok(r, "intervalJoinSpec.windowBounds.rightTimeIndex", rs, rj->right_time_col)))
        return false;
    if (x->kind == WR_TEMPORAL_JOIN &&
        (!time_col_ok(r, "leftTimeAttributeIndex", ls, rj->left_time_col) ||
         (rj->right_time_col != -1 && !time_col_ok(r, "rightTimeAttributeIndex", rs, rj->right_time_col))))
        return false;
    if (rj->semi || rj->anti) return passthrough_ok(r, x, ls);
    if (!width_ok(r, x, ls->n + rs->n)) return false;
    return columns_ok(r, x, 0, ls, 0, ls->n) && columns_ok(r, x, ls->n, rs, 0, rs->n);
}

static bool rdc_unique_keys(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return indexes_ok(r, "uniqueKeys", x->keys, x->nkeys, is->n) && passthrough_ok(r, x, is);
}

static bool rdc_rank(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (!indexes_ok(r, "partition.fields", x->keys, x->nkeys, is->n) ||
        !indexes_ok(r, "orderBy.fields", x->sort_cols, x->nsort, is->n) ||
        (in->nunique > 0 && !indexes_ok(r, "rankStrategy.primaryKeys", in->unique, in->nunique, is->n)))
        return false;
    bool num = x->kind == WR_RANK && wrel_rank(x)->output_number;
    if (!width_ok(r, x, is->n + (num ? 1 : 0)) || !columns_ok(r, x, 0, is, 0, is->n)) return false;
    if (num && repr_class(x->out.types[is->n]->id) != 1)
        return bad(r, "outputType", "declares the rank number (field %d) as %s, not BIGINT.", is->n,
                   tn(x->out.types[is->n], (char[96]){0}));
    return true;
}

static bool rdc_window_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (wrel_window(x)->legacy) return indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && aggs_ok(r, "aggCalls", x, is->n);
    return indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && aggs_ok(r, "aggCalls", x, is->n) &&
           window_ok(r, "windowing", x, is) && keys_aggs_out_ok(r, x, is, 3);
}

static bool rdc_local_window_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && aggs_ok(r, "aggCalls", x, is->n) &&
           window_ok(r, "windowing", x, is);
}

static bool rdc_global_window_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelAgg *xa = wrel_agg(x);
    return indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && aggs_ok(r, "aggCalls", x, xa->agg_input.n) &&
           window_ok(r, "windowing", x, &xa->agg_input) && keys_aggs_out_ok(r, x, is, 3);
}

static bool rdc_window_tvf(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelWindow *xw = wrel_window(x);
    if (!window_ok(r, "windowing", x, is) ||
        !indexes_ok(r, "windowing.window.partition_key_indices", xw->partition, xw->npartition, is->n) ||
        !width_ok(r, x, is->n + 3) || !columns_ok(r, x, 0, is, 0, is->n))
        return false;
    for (int i = is->n; i < is->n + 3; i++)
        if (repr_class(x->out.types[i]->id) != 5)
            return bad(r, "outputType", "declares window column %d as %s, not a TIMESTAMP.", i,
                       tn(x->out.types[i], (char[96]){0}));
    return true;
}

static bool rdc_window_rank(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return window_ok(r, "windowing", x, is) && indexes_ok(r, "sortSpec.fields", x->sort_cols, x->nsort, is->n) &&
           columns_ok(r, x, 0, is, 0, is->n);
}

static bool rdc_expand(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    for (int i = 0; i < wrel_expand(x)->n * x->out.n; i++)
        if (wrel_expand(x)->src[i] >= 0 && !index_ok(r, "projects", wrel_expand(x)->src[i], is->n)) return false;
    return true;
}

static bool rdc_own_reader(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    /* their readers check their own indexes (plan_reader_nodes.c); the kept input columns */
    if (x->kind == WR_OVER_AGG && !indexes_ok(r, "overSpec.partition.fields", x->keys, x->nkeys, is->n)) return false;
    if (x->kind == WR_OVER_AGG && !indexes_ok(r, "overSpec.groups.orderBy.fields", x->sort_cols, x->nsort, is->n)) return false;
    if (x->kind == WR_OVER_AGG && !aggs_ok(r, "overSpec.groups.aggCalls", x, is->n)) return false;
    if (x->kind == WR_OVER_AGG && (x->out.n < is->n || !columns_ok(r, x, 0, is, 0, is->n)))
        return x->out.n < is->n ? width_ok(r, x, is->n) : false;
    return true;
}
/* Kinds whose reader checks the indexes it reads (LookupJoin: its lookup keys, plan_reader_tables.c)
   and kinds no compiled
   plan holds (OverRank: logical only; Sort: batch), which the reader never makes: nothing more to
   check, as before the table. */
#define RDC_CHECKED_BY_ITS_READER rdc_leaf
#define RDC_NOT_IN_A_COMPILED_PLAN rdc_leaf

/* The check of a node read from a compiled plan, per kind. A kind added to WRelKind needs its row
   here (ex_plan_reader_ops_check fails otherwise). */
typedef struct RdKindOps {
    bool (*check)(Rd *r, WRel *x, const WRel *in, const WSchema *is);
} RdKindOps;

static const RdKindOps RD_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.check = rdc_leaf},
    [WR_VALUES] = {.check = rdc_leaf},
    [WR_CALC] = {.check = rdc_calc},
    [WR_UNION] = {.check = rdc_union},
    [WR_WATERMARK] = {.check = rdc_watermark},
    [WR_SINK] = {.check = rdc_sink},
    [WR_EXCHANGE] = {.check = rdc_exchange},
    [WR_GROUP_AGG] = {.check = rdc_group_agg},
    [WR_JOIN] = {.check = rdc_join},
    [WR_DEDUP] = {.check = rdc_unique_keys},
    [WR_RANK] = {.check = rdc_rank},
    [WR_SORT_LIMIT] = {.check = rdc_rank},
    [WR_WINDOW_AGG] = {.check = rdc_window_agg},
    [WR_CHANGELOG_NORMALIZE] = {.check = rdc_unique_keys},
    [WR_DROP_UPDATE_BEFORE] = {.check = rdc_passthrough},
    [WR_SINK_MATERIALIZER] = {.check = rdc_sink_materializer},
    [WR_OVER_RANK] = {.check = RDC_NOT_IN_A_COMPILED_PLAN},
    [WR_WINDOW_TVF] = {.check = rdc_window_tvf},
    [WR_WINDOW_RANK] = {.check = rdc_window_rank},
    [WR_WINDOW_JOIN] = {.check = rdc_join},
    [WR_INTERVAL_JOIN] = {.check = rdc_join},
    [WR_TEMPORAL_JOIN] = {.check = rdc_join},
    [WR_LOOKUP_JOIN] = {.check = RDC_CHECKED_BY_ITS_READER},
    [WR_OVER_AGG] = {.check = rdc_own_reader},
    [WR_MINIBATCH_ASSIGNER] = {.check = rdc_passthrough},
    [WR_LOCAL_GROUP_AGG] = {.check = rdc_local_group_agg},
    [WR_GLOBAL_GROUP_AGG] = {.check = rdc_global_group_agg},
    [WR_INCREMENTAL_GROUP_AGG] = {.check = rdc_incremental_group_agg},
    [WR_SORT] = {.check = RDC_NOT_IN_A_COMPILED_PLAN},
    [WR_TEMPORAL_SORT] = {.check = rdc_passthrough},
    [WR_LOCAL_WINDOW_AGG] = {.check = rdc_local_window_agg},
    [WR_GLOBAL_WINDOW_AGG] = {.check = rdc_global_window_agg},
    [WR_EXPAND] = {.check = rdc_expand},
    [WR_REPLICATE_ROWS] = {.check = rdc_own_reader},
    [WR_CORRELATE] = {.check = rdc_own_reader},
    [WR_MATCH] = {.check = rdc_own_reader},
};

bool ex_plan_reader_ops_check(WStrBuf *err)
{
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++)
        ok &= wrel_kind_op_check(RD_KIND_OPS[k].check != NULL, k, "explain/plan_reader_check.c", "check", err);
    return ok;
}

bool rd_check_node(Rd *r, WRel *x)
{
    const WRel *in = x->ninputs ? x->inputs[0] : NULL;
    const WSchema *is = in ? &in->out : NULL;
    for (int i = 0; i < x->ninputs; i++)
        if (!x->inputs[i]) return bad(r, "edges", "leave input %d of the node unconnected.", i);
    if (x->nunique > 0 && !indexes_ok(r, "upsertKeys", x->unique, x->nunique, x->out.n)) return false;
    assert((unsigned)x->kind < WR__COUNT);
    return RD_KIND_OPS[x->kind].check(r, x, in, is);
}
