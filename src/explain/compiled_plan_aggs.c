/*
 * compiled_plan_aggs.c — COMPILE PLAN fields of the aggregates split in two (Local/Global/
 * IncrementalGroupAggregate: grouping, calls, accumulator indexes, count star), of the streaming
 * OverAggregate (overSpec: partition, groups with their frames, calls and constants) and the
 * accumulator row types Flink writes for the partial aggregates (RAW / MapView types). See
 * compiled_plan_internal.h.
 */
#include "compiled_plan_internal.h"
#include "../plan/agg_rules.h"
#include "../plan/over_window.h"

#include <string.h>

/* The GlobalWindowAggregate reading local window aggregate `local` (through its exchange). */
const WRel *cp_window_global_of(const ExCtx *x, const WRel *local)
{
    for (int i = 0; i < x->n; i++) {
        const WRel *g = x->nodes[i].rel;
        if (g->kind == WR_GLOBAL_WINDOW_AGG && g->inputs[0]->kind == WR_EXCHANGE && g->inputs[0]->inputs[0] == local)
            return g;
    }
    return NULL;
}

/* The GlobalGroupAggregate reading local aggregate `local` (through its exchange), or NULL. */
static const WRel *global_of(const ExCtx *x, const WRel *local)
{
    for (int i = 0; i < x->n; i++) {
        const WRel *g = x->nodes[i].rel;
        if (g->kind == WR_GLOBAL_GROUP_AGG && g->inputs[0]->kind == WR_EXCHANGE && g->inputs[0]->inputs[0] == local)
            return g;
    }
    return NULL;
}

void cp_two_phase_json(const ExCtx *x, const WRel *r, json_t *j)
{
    WArena *a = x->p->arena;
    const WRelAgg *ag = wrel_agg(r);
    json_object_set_new(j, "configuration", cp_minibatch_configuration(x));
    /* call names as Flink's aggregate calls carry them: the select items, none after a split */
    const char *const *names = NULL;
    if (ag->partial_final == WPF_NONE && r->kind != WR_INCREMENTAL_GROUP_AGG) {
        const WRel *g = r->kind == WR_GLOBAL_GROUP_AGG ? r : global_of(x, r);
        if (g) names = ex_out_names(x, g) + g->nkeys;
    }
    if (r->kind == WR_INCREMENTAL_GROUP_AGG) {
        json_object_set_new(j, "partialAggGrouping", cp_ints_json(r->nkeys, r->keys));
        json_object_set_new(j, "finalAggGrouping", cp_ints_json(ag->nfinal_keys, ag->final_keys));
        json_object_set_new(j, "partialOriginalAggCalls", cp_agg_calls_json(ag->naggs, ag->aggs, NULL));
        json_object_set_new(j, "partialAggCallNeedRetractions", cp_bools_json(ag->naggs, r->input_retracts));
        json_object_set_new(j, "partialLocalAggInputRowType", ex_row_type_json(a, &ag->agg_input));
        json_object_set_new(j, "partialAggNeedRetraction", json_boolean(r->input_retracts));
        json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "incrementalGroupAggregateState"));
        return;
    }
    json_object_set_new(j, "grouping", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "aggCalls", cp_agg_calls_json(ag->naggs, ag->aggs, names));
    json_object_set_new(j, "aggCallNeedRetractions", cp_bools_json(ag->naggs, r->input_retracts));
    if (r->kind == WR_GLOBAL_GROUP_AGG) {
        json_object_set_new(j, "localAggInputRowType", ex_row_type_json(a, &ag->agg_input));
        json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    }
    json_object_set_new(j, "needRetraction", json_boolean(r->input_retracts));
    int count_star = wagg_index_of_count_star(r);
    if (count_star >= 0) json_object_set_new(j, "indexOfCountStar", json_integer(count_star));
    if (r->kind == WR_GLOBAL_GROUP_AGG)
        json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "globalGroupAggregateState"));
}

/* A constant of an OverAggregate's window group: its input index (after the input's fields),
   equal literals shared as in Calcite's RexProgram. Takes lit (owned). */
static int over_constant(json_t *consts, int nin, json_t *lit)
{
    for (size_t i = 0; i < json_array_size(consts); i++)
        if (json_equal(json_array_get(consts, i), lit)) { json_decref(lit); return nin + (int)i; }
    json_array_append_new(consts, lit);
    return nin + (int)json_array_size(consts) - 1;
}

/* StreamExecOverAggregate's overSpec: partition, one group (orderBy, frame, calls: aggregates,
   $LAG$1 with its offset among the constants, $ROW_NUMBER$1 / $RANK$1 / $DENSE_RANK$1),
   constants, originalInputFields. */
void cp_over_spec_json(const ExCtx *x, const WRel *r, const WRel *in, json_t *j)
{
    WArena *a = x->p->arena;
    const WRelOver *ro = wrel_over(r);
    const WOverWindow *w = &ro->stream->windows[0];
    int nin = in->out.n;
    const char *const *on = ex_out_names(x, r);
    json_t *spec = json_object(), *consts = json_array();
    json_t *part = json_object();
    json_object_set_new(part, "fields", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(spec, "partition", part);
    json_t *g = json_object();
    json_t *ob = json_object(), *of = json_array(), *f = json_object();
    json_object_set_new(f, "index", json_integer(r->time_col));
    json_object_set_new(f, "isAscending", json_true());
    json_object_set_new(f, "nullIsLast", json_false());
    json_array_append_new(of, f);
    json_object_set_new(ob, "fields", of);
    json_object_set_new(g, "orderBy", ob);
    json_object_set_new(g, "isRows", json_boolean(ro->rows));
    json_t *lb = json_object();
    if (ro->unbounded) {
        json_object_set_new(lb, "kind", json_string("UNBOUNDED_PRECEDING"));
    } else {
        json_object_set_new(lb, "kind", json_string("BOUNDED_WINDOW"));
        json_object_set_new(lb, "isPreceding", json_true());
        json_t *lit;
        if (w->lower.lit) {
            lit = ex_rex_json(x->p, w->lower.lit, NULL);
        } else {
            WExpr l = {.kind = WX_LITERAL, .type = &WTYPE_BIGINT_NN, .lit.i = ro->preceding};
            lit = ex_rex_json(x->p, &l, NULL);
        }
        json_t *ref = json_object();
        json_object_set_new(ref, "kind", json_string("INPUT_REF"));
        json_object_set_new(ref, "inputIndex", json_integer(over_constant(consts, nin, json_incref(lit))));
        json_object_set(ref, "type", json_object_get(lit, "type"));
        json_decref(lit);
        json_object_set_new(lb, "offset", ref);
    }
    json_object_set_new(g, "lowerBound", lb);
    json_t *ub = json_object();
    json_object_set_new(ub, "kind", json_string("CURRENT_ROW"));
    json_object_set_new(g, "upperBound", ub);
    json_t *calls = json_array();
    for (int i = 0; i < w->ncalls; i++) {
        const WOverCall *c = &w->calls[i];
        const char *name = nin + i < r->out.n ? on[nin + i] : c->name;
        if (c->fn == WOF_AGG) {
            json_t *one = cp_agg_calls_json(1, &c->agg, &name);
            json_array_append(calls, json_array_get(one, 0));
            json_decref(one);
            continue;
        }
        json_t *cj = json_object();
        json_object_set_new(cj, "name", json_string(name));
        const char *in_name = c->fn == WOF_LAG ? "$LAG$1" : c->fn == WOF_RANK ? "$RANK$1"
                            : c->fn == WOF_DENSE_RANK ? "$DENSE_RANK$1" : "$ROW_NUMBER$1";
        json_object_set_new(cj, "internalName", json_string(in_name));
        json_t *al = json_array();
        if (c->fn == WOF_LAG) {
            json_array_append_new(al, json_integer(c->arg));
            WExpr l = {.kind = WX_LITERAL, .type = &WTYPE_INT_NN, .lit.i = c->n};
            json_array_append_new(al, json_integer(over_constant(consts, nin, ex_rex_json(x->p, &l, NULL))));
            if (c->default_col >= 0) json_array_append_new(al, json_integer(c->default_col));
        }
        json_object_set_new(cj, "argList", al);
        json_object_set_new(cj, "filterArg", json_integer(-1));
        json_object_set_new(cj, "distinct", json_false());
        json_object_set_new(cj, "approximate", json_false());
        json_object_set_new(cj, "ignoreNulls", json_false());
        json_object_set_new(cj, "type", ex_type_json(c->type));
        json_array_append_new(calls, cj);
    }
    json_object_set_new(g, "aggCalls", calls);
    json_t *groups = json_array();
    json_array_append_new(groups, g);
    json_object_set_new(spec, "groups", groups);
    json_object_set_new(spec, "constants", consts);
    json_object_set_new(spec, "originalInputFields", json_integer(nin));
    json_object_set_new(j, "overSpec", spec);
    (void)a;
}

/* The local aggregate whose accumulator row r carries (r itself, or below an exchange). */
static const WRel *acc_producer(const WRel *r)
{
    if (r->kind == WR_EXCHANGE) r = r->inputs[0];
    return r->kind == WR_LOCAL_GROUP_AGG || r->kind == WR_INCREMENTAL_GROUP_AGG || r->kind == WR_LOCAL_WINDOW_AGG
               ? r : NULL;
}

/* Flink's internal conversion class of a value of type t (LogicalTypeUtils
   .toInternalConversionClass) where it is not the type's default conversion class, else NULL. */
static const char *internal_class_if_not_default(const WType *t)
{
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: return "org.apache.flink.table.data.StringData";
    case WT_DECIMAL: return "org.apache.flink.table.data.DecimalData";
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: return "java.lang.Integer";
    case WT_INTERVAL_DT: return "java.lang.Long";
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return "org.apache.flink.table.data.TimestampData";
    case WT_ARRAY: return "org.apache.flink.table.data.ArrayData";
    case WT_MAP: case WT_MULTISET: return "org.apache.flink.table.data.MapData";
    case WT_ROW: return "org.apache.flink.table.data.RowData";
    default: return NULL;
    }
}

/* The external data type of a DISTINCT's MapView over keys of type kt, as Flink serializes it:
   the structured type as a string, wrapped with the key's conversion class when Flink's view holds
   internal values of a class that is not the type's default (StringData for a VARCHAR key, ...).
   Without that class Flink's job reads the view's keys as the default class (ClassCastException
   BinaryStringData -> String). Measured with Flink 2.3.0's COMPILE PLAN. */
static json_t *map_view_data_type(WArena *a, const WType *kt)
{
    json_t *logical = json_string(wa_sprintf(a, "STRUCTURED<'org.apache.flink.table.api.dataview.MapView', `map` MAP<%s, BIGINT NOT NULL>>",
                                             ex_type_serial(a, kt)));
    const char *kc = internal_class_if_not_default(kt);
    if (!kc) return logical;
    json_t *wrap = json_object(), *fl = json_array(), *fm = json_object(), *kco = json_object();
    json_object_set_new(wrap, "logicalType", logical);
    json_object_set_new(fm, "name", json_string("map"));
    json_object_set_new(kco, "conversionClass", json_string(kc));
    json_object_set_new(fm, "keyClass", kco);
    json_array_append_new(fl, fm);
    json_object_set_new(wrap, "fields", fl);
    return wrap;
}

/* outputType: accumulator rows hold RAW fields (the MapView of a DISTINCT, the accumulator of
   MIN/MAX with retraction), which Flink writes as structured types. */
json_t *cp_acc_row_type_json(const ExCtx *x, const WRel *r, const WSchema *os)
{
    WArena *a = x->p->arena;
    const WRel *lp = acc_producer(r);
    bool raw = false;
    for (int i = 0; lp && i < os->n; i++) if (os->types[i]->id == WT_VARBINARY) raw = true;
    if (!raw) return ex_row_type_json(a, os);
    WAggPartial L;
    const WRelAgg *la = wrel_agg(lp);
    if (lp->kind == WR_LOCAL_WINDOW_AGG)
        wagg_window_partial_layout(a, la->aggs, la->naggs, &la->agg_input, wrel_window(lp)->kind, &L);
    else wagg_partial_layout(a, la->aggs, la->naggs, &la->agg_input, lp->input_retracts, false, &L);
    int nk = lp->kind == WR_INCREMENTAL_GROUP_AGG ? la->nfinal_keys : lp->nkeys;
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("ROW"));
    json_t *fields = json_array();
    for (int i = 0; i < os->n; i++) {
        json_t *f = json_object();
        json_object_set_new(f, "name", json_string(os->names[i]));
        json_t *ft = NULL;
        int col = i - nk;
        if (os->types[i]->id == WT_VARBINARY && col >= 0) {
            for (int k = 0; k < L.ndistinct && !ft; k++) {
                if (L.distinct_col[k] != col) continue;
                const WType *kt = la->agg_input.types[L.distinct_args[2 * k]];
                ft = json_object();
                json_object_set_new(ft, "type", json_string("RAW"));
                json_object_set_new(ft, "class", json_string("org.apache.flink.table.api.dataview.MapView"));
                json_object_set_new(ft, "externalDataType", map_view_data_type(a, kt));
            }
            for (int m = 0; m < L.naggs && !ft; m++) {
                if (L.first[m] != col) continue;
                const WAggCall *c = &la->aggs[m];
                const char *cls = c->kind == WAGG_MIN
                    ? "org.apache.flink.table.runtime.functions.aggregate.MinWithRetractAggFunction$MinWithRetractAccumulator"
                    : "org.apache.flink.table.runtime.functions.aggregate.MaxWithRetractAggFunction$MaxWithRetractAccumulator";
                ft = json_object();
                json_object_set_new(ft, "type", json_string("RAW"));
                json_object_set_new(ft, "class", json_string(cls));
            }
        }
        json_object_set_new(f, "fieldType", ft ? ft : ex_type_json(os->types[i]));
        json_array_append_new(fields, f);
    }
    json_object_set_new(j, "fields", fields);
    return j;
}
