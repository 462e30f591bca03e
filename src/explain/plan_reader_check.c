/*
 * plan_reader_check.c — EXECUTE PLAN never trusts a compiled plan: every index and shape a node
 * read from the JSON (key, field, sort, time-attribute and window-column indexes, aggregate
 * arguments, the width and column types of its outputType against what the node computes from
 * its inputs) is checked against the rows it refers to before the runtime sees it. A damaged or
 * hand-edited plan is refused with "Invalid compiled plan: node <id> (<type>): '<field>' ..." and
 * never reaches an operator (which indexes rows without checks).
 * Contract: rd_check_node(r, x) after a node is read (r->cur_id / r->cur_type name it); false
 * with the statement error set. The check of each node is its kind's check operation (its file
 * in src/kinds/, reached through wkinds_rd_check: explain_kinds.h); the checks several kinds
 * share are here. Depends on plan_reader_internal.h.
 */
#include "plan_reader_internal.h"
#include "explain_kinds.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

bool rdc_bad(Rd *r, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool rdc_bad(Rd *r, const char *field, const char *fmt, ...)
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
const char *rdc_tn(const WType *t, char *buf)
{
    WStrBuf sb;
    wsb_init(&sb);
    wtype_to_string(t, &sb);
    snprintf(buf, 96, "%s", sb.buf ? sb.buf : "?");
    wsb_free(&sb);
    return buf;
}

bool rdc_index_ok(Rd *r, const char *field, int v, int n)
{
    if (v >= 0 && v < n) return true;
    if (v == RD_BAD_INDEX) return rdc_bad(r, field, "holds a value that is not a field index (an integer from 0).");
    return rdc_bad(r, field, "refers to field %d, outside the row of %d field(s) it indexes.", v, n);
}

bool rdc_indexes_ok(Rd *r, const char *field, const int *v, int cnt, int n)
{
    if (cnt < 0) return rdc_bad(r, field, "has a negative length.");
    for (int i = 0; i < cnt; i++)
        if (!rdc_index_ok(r, field, v[i], n)) return false;
    return true;
}

bool rdc_time_col_ok(Rd *r, const char *field, const WSchema *s, int c)
{
    if (!rdc_index_ok(r, field, c, s->n)) return false;
    WTypeId id = s->types[c]->id;
    if (id != WT_TIMESTAMP && id != WT_TIMESTAMP_LTZ)
        return rdc_bad(r, field, "refers to field %d, which is not a TIMESTAMP or TIMESTAMP_LTZ column.", c);
    return true;
}

/* How a value of type id is held in a datum (values of one class share the representation). */
int rdc_repr_class(WTypeId id)
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
bool rdc_same_repr(const WType *a, const WType *b, int depth)
{
    if (!a || !b) return false;
    if (a->id == WT_NULL || b->id == WT_NULL) return true;
    if (rdc_repr_class(a->id) != rdc_repr_class(b->id) || rdc_repr_class(a->id) < 0) return false;
    if (depth > 64) return true;
    switch (a->id) {
    case WT_ARRAY: case WT_MULTISET: return rdc_same_repr(a->elem, b->elem, depth + 1);
    case WT_MAP: return rdc_same_repr(a->key, b->key, depth + 1) && rdc_same_repr(a->elem, b->elem, depth + 1);
    case WT_ROW:
        if (a->nfields != b->nfields) return false;
        for (int i = 0; i < a->nfields; i++)
            if (!rdc_same_repr(a->fields[i], b->fields[i], depth + 1)) return false;
        return true;
    default: return true;
    }
}

bool rdc_width_ok(Rd *r, const WRel *x, int want)
{
    if (x->out.n == want) return true;
    return rdc_bad(r, "outputType", "has %d field(s), but the node produces %d.", x->out.n, want);
}

/* out columns [at, at+n) hold what src columns [from, from+n) hold */
bool rdc_columns_ok(Rd *r, const WRel *x, int at, const WSchema *src, int from, int n)
{
    for (int i = 0; i < n; i++) {
        const WType *o = x->out.types[at + i], *s = src->types[from + i];
        if (!rdc_same_repr(o, s, 0))
            return rdc_bad(r, "outputType", "declares field %d as %s, but the node produces a %s there.", at + i,
                       rdc_tn(o, (char[96]){0}), rdc_tn(s, (char[96]){0}));
    }
    return true;
}

bool rdc_passthrough_ok(Rd *r, const WRel *x, const WSchema *in)
{
    return rdc_width_ok(r, x, in->n) && rdc_columns_ok(r, x, 0, in, 0, in->n);
}

bool rdc_aggs_ok(Rd *r, const char *field, const WRel *x, int nin)
{
    const WRelAgg *xa = wrel_agg(x);
    for (int i = 0; i < xa->naggs; i++) {
        const WAggCall *c = &xa->aggs[i];
        if (c->nargs < 0 || c->nargs > 2) return rdc_bad(r, field, "has a call with %d arguments.", c->nargs);
        for (int k = 0; k < c->nargs; k++)
            if (!rdc_index_ok(r, field, c->args[k], nin)) return false;
        if (c->filter_col != -1 && !rdc_index_ok(r, field, c->filter_col, nin)) return false;
    }
    return true;
}

/* keys, then aggregate results, at the start of the output */
bool rdc_keys_aggs_out_ok(Rd *r, const WRel *x, const WSchema *in, int extra)
{
    const WRelAgg *xa = wrel_agg(x);
    if (!rdc_width_ok(r, x, x->nkeys + xa->naggs + extra)) return false;
    for (int k = 0; k < x->nkeys; k++)
        if (!rdc_columns_ok(r, x, k, in, x->keys[k], 1)) return false;
    for (int i = 0; i < xa->naggs; i++) {
        const WType *o = x->out.types[x->nkeys + i];
        if (xa->aggs[i].type && !rdc_same_repr(o, xa->aggs[i].type, 0))
            return rdc_bad(r, "outputType", "declares field %d as %s, but aggregate %d produces a %s.", x->nkeys + i,
                       rdc_tn(o, (char[96]){0}), i, rdc_tn(xa->aggs[i].type, (char[96]){0}));
    }
    return true;
}

bool rdc_window_ok(Rd *r, const char *w, const WRel *x, const WSchema *in)
{
    char f[96];
    const WRelWindow *xw = wrel_window(x);
    if ((int)xw->kind < 0 || xw->kind >= WWIN_NKINDS) { snprintf(f, sizeof f, "%s.window", w); return rdc_bad(r, f, "has an unknown window kind."); }
    if (xw->attached) {
        snprintf(f, sizeof f, "%s.windowStart", w);
        if (!rdc_index_ok(r, f, xw->start_col, in->n)) return false;
        snprintf(f, sizeof f, "%s.windowEnd", w);
        if (!rdc_index_ok(r, f, xw->end_col, in->n)) return false;
    } else {
        snprintf(f, sizeof f, "%s.timeAttributeIndex", w);
        if (!rdc_time_col_ok(r, f, in, xw->time_col)) return false;
    }
    /* sizes, slides, steps and gaps are checked where the window is set up, with Flink's messages
       (exec/window_util.c) */
    return true;
}

/* a source reads no input: its reader checked its fields */
bool rdc_leaf(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return true;
}

bool rdc_passthrough(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_passthrough_ok(r, x, is);
}

bool rdc_join(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelJoin *rj = wrel_join(x);
    const WSchema *ls = &x->inputs[0]->out, *rs = &x->inputs[1]->out;
    if (!rdc_indexes_ok(r, "joinSpec.leftKeys", x->keys, x->nkeys, ls->n) ||
        !rdc_indexes_ok(r, "joinSpec.rightKeys", rj->right_keys, x->nkeys, rs->n))
        return false;
    if (x->kind == WR_INTERVAL_JOIN &&
        (!rdc_time_col_ok(r, "intervalJoinSpec.windowBounds.leftTimeIndex", ls, rj->left_time_col) ||
         !rdc_time_col_ok(r, "intervalJoinSpec.windowBounds.rightTimeIndex", rs, rj->right_time_col)))
        return false;
    if (x->kind == WR_TEMPORAL_JOIN &&
        (!rdc_time_col_ok(r, "leftTimeAttributeIndex", ls, rj->left_time_col) ||
         (rj->right_time_col != -1 && !rdc_time_col_ok(r, "rightTimeAttributeIndex", rs, rj->right_time_col))))
        return false;
    if (rj->semi || rj->anti) return rdc_passthrough_ok(r, x, ls);
    if (!rdc_width_ok(r, x, ls->n + rs->n)) return false;
    return rdc_columns_ok(r, x, 0, ls, 0, ls->n) && rdc_columns_ok(r, x, ls->n, rs, 0, rs->n);
}

bool rdc_unique_keys(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_indexes_ok(r, "uniqueKeys", x->keys, x->nkeys, is->n) && rdc_passthrough_ok(r, x, is);
}

bool rdc_rank(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (!rdc_indexes_ok(r, "partition.fields", x->keys, x->nkeys, is->n) ||
        !rdc_indexes_ok(r, "orderBy.fields", x->sort_cols, x->nsort, is->n) ||
        (in->nunique > 0 && !rdc_indexes_ok(r, "rankStrategy.primaryKeys", in->unique, in->nunique, is->n)))
        return false;
    bool num = x->kind == WR_RANK && wrel_rank(x)->output_number;
    if (!rdc_width_ok(r, x, is->n + (num ? 1 : 0)) || !rdc_columns_ok(r, x, 0, is, 0, is->n)) return false;
    if (num && rdc_repr_class(x->out.types[is->n]->id) != 1)
        return rdc_bad(r, "outputType", "declares the rank number (field %d) as %s, not BIGINT.", is->n,
                   rdc_tn(x->out.types[is->n], (char[96]){0}));
    return true;
}

bool rdc_own_reader(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    /* their readers check their own indexes (src/kinds/: correlate.c, expand.c, over_agg.c, match.c); the kept input columns */
    if (x->kind == WR_OVER_AGG && !rdc_indexes_ok(r, "overSpec.partition.fields", x->keys, x->nkeys, is->n)) return false;
    if (x->kind == WR_OVER_AGG && !rdc_indexes_ok(r, "overSpec.groups.orderBy.fields", x->sort_cols, x->nsort, is->n)) return false;
    if (x->kind == WR_OVER_AGG && !rdc_aggs_ok(r, "overSpec.groups.aggCalls", x, is->n)) return false;
    if (x->kind == WR_OVER_AGG && (x->out.n < is->n || !rdc_columns_ok(r, x, 0, is, 0, is->n)))
        return x->out.n < is->n ? rdc_width_ok(r, x, is->n) : false;
    return true;
}
bool rd_check_node(Rd *r, WRel *x)
{
    const WRel *in = x->ninputs ? x->inputs[0] : NULL;
    const WSchema *is = in ? &in->out : NULL;
    for (int i = 0; i < x->ninputs; i++)
        if (!x->inputs[i]) return rdc_bad(r, "edges", "leave input %d of the node unconnected.", i);
    if (x->nunique > 0 && !rdc_indexes_ok(r, "upsertKeys", x->unique, x->nunique, x->out.n)) return false;
    assert((unsigned)x->kind < WR__COUNT);
    return wkinds_rd_check[x->kind]->check(r, x, in, is);
}
