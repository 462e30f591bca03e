/*
 * compiled_plan.c — COMPILE PLAN: the exec graph as the JSON document Flink writes
 * (flinkVersion, nodes with Flink's per-type fields and `state` lists {index, ttl, name}, edges),
 * laid out by Jackson's pretty printer. State lists exist exactly where Flink has them
 * (group aggregate, join, deduplicate, rank, changelog normalize, sink with upsert materialize);
 * TTLs are the resolved ones (state_ttl.c) in Flink's largest-whole-unit format. A node's
 * kind-specific fields, its outputType row and the fields after its description come from its
 * kind's operations (its file in src/kinds/, reached through wkinds_cp: explain_kinds.h); the
 * fields several kinds share are written here. See explain.h.
 */
#include "explain_internal.h"
#include "explain_kinds.h"
#include "json_out.h"
#include "compiled_plan_internal.h"
#include "../plan/agg_rules.h"
#include "../plan/over_window.h"
#include "../common/duration.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "flink_version.h"    /* WEIR_FLINK_VERSION, generated from FLINK_VERSION */

/* Flink writes its release's "major.minor" (FlinkVersion) as a plan's flinkVersion. */
static json_t *plan_version_json(void)
{
    const char *v = WEIR_FLINK_VERSION;
    const char *dot = strchr(v, '.');
    const char *end = dot ? strchr(dot + 1, '.') : NULL;
    return json_stringn(v, end ? (size_t)(end - v) : strlen(v));
}

json_t *cp_ints_json(int n, const int *v)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, json_integer(v[i]));
    return a;
}

json_t *cp_state_entry(int index, int64_t ttl_ms, const char *name)
{
    char buf[48];
    wduration_format(ttl_ms, buf, sizeof buf);
    json_t *s = json_object();
    json_object_set_new(s, "index", json_integer(index));
    json_object_set_new(s, "ttl", json_string(buf));
    json_object_set_new(s, "name", json_string(name));
    return s;
}

json_t *cp_one_state(int64_t ttl_ms, const char *name)
{
    json_t *a = json_array();
    json_array_append_new(a, cp_state_entry(0, ttl_ms, name));
    return a;
}

/* SortSpec: {"fields": [{index, isAscending, nullIsLast}]} */
json_t *cp_sort_spec_json(const WRel *r)
{
    json_t *ob = json_object();
    json_t *fields = json_array();
    for (int i = 0; i < r->nsort; i++) {
        json_t *f = json_object();
        json_object_set_new(f, "index", json_integer(r->sort_cols[i]));
        json_object_set_new(f, "isAscending", json_boolean(!r->sort_desc[i]));
        json_object_set_new(f, "nullIsLast", json_boolean(!r->sort_nulls_first[i]));
        json_array_append_new(fields, f);
    }
    json_object_set_new(ob, "fields", fields);
    return ob;
}

/* A rank's (or SortLimit's / Limit's) rankRange and rankStrategy (primary keys of UpdateFast). */
void cp_rank_range_and_strategy(json_t *j, const WRel *r, const WRel *in)
{
    const WRelRank *rk = wrel_rank(r);
    json_t *rr = json_object();
    json_object_set_new(rr, "type", json_string("Constant"));
    json_object_set_new(rr, "start", json_integer(rk->start));
    json_object_set_new(rr, "end", json_integer(rk->end));
    json_object_set_new(j, "rankRange", rr);
    json_t *rs = json_object();
    static const char *const RS[] = {"AppendFast", "UpdateFast", "Retract"};
    json_object_set_new(rs, "type", json_string(RS[wrank_strategy_index(rk->strategy)]));
    if (rk->strategy == WRANK_UPDATE_FAST && in && in->nunique > 0)
        json_object_set_new(rs, "primaryKeys", cp_ints_json(in->nunique, in->unique));
    json_object_set_new(j, "rankStrategy", rs);
}

/* An exec node's input property: as in Flink only an Exchange requires a distribution (its own
   HASH keys or SINGLETON); every other node reads its input as it comes (UNKNOWN). */
static json_t *input_property(const WRel *owner)
{
    json_t *p = json_object();
    json_t *d = json_object();
    if (owner->kind == WR_EXCHANGE) {
        if (wrel_exchange(owner)->single || owner->nkeys == 0) {
            json_object_set_new(d, "type", json_string("SINGLETON"));
        } else {
            json_object_set_new(d, "type", json_string("HASH"));
            json_object_set_new(d, "keys", cp_ints_json(owner->nkeys, owner->keys));
        }
    } else {
        json_object_set_new(d, "type", json_string("UNKNOWN"));
    }
    json_object_set_new(p, "requiredDistribution", d);
    json_object_set_new(p, "damBehavior", json_string("PIPELINED"));
    json_object_set_new(p, "priority", json_integer(0));
    return p;
}

const char *cp_bool_str(const WOptions *o, const char *key, const char *dflt)
{
    const char *v = wopts_get(o, key);
    return v ? v : dflt;
}

const char *cp_opt_str(const WOptions *o, const char *key, const char *dflt)
{
    const char *v = wopts_get(o, key);
    return v ? v : dflt;
}

json_t *cp_minibatch_configuration(const ExCtx *x)
{
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.mini-batch.enabled",
                        json_string(cp_bool_str(x->p->config, "table.exec.mini-batch.enabled", "false")));
    json_object_set_new(c, "table.exec.mini-batch.size",
                        json_string(cp_opt_str(x->p->config, "table.exec.mini-batch.size", "-1")));
    return c;
}

static const char *agg_internal(const WAggCall *c)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: return "$COUNT$1";
    case WAGG_SUM: return "$SUM$1";
    case WAGG_SUM0: return "$$SUM0$1";
    case WAGG_MIN: return "$MIN$1";
    case WAGG_MAX: return "$MAX$1";
    case WAGG_AVG: return "$AVG$1";
    case WAGG_FIRST_VALUE: return "$FIRST_VALUE$1";
    case WAGG_LAST_VALUE: return "$LAST_VALUE$1";
    case WAGG_LISTAGG: return "$LISTAGG$1";
    case WAGG_STDDEV_POP: return "$STDDEV_POP$1";
    case WAGG_STDDEV_SAMP: return "$STDDEV_SAMP$1";
    case WAGG_VAR_POP: return "$VAR_POP$1";
    case WAGG_VAR_SAMP: return "$VAR_SAMP$1";
    case WAGG_BOOL_AND: return "$BOOL_AND$1";
    case WAGG_BOOL_OR: return "$BOOL_OR$1";
    case WAGG_COLLECT: return "$COLLECT$1";
    case WAGG_SINGLE_VALUE: return "$SINGLE_VALUE$1";
    }
    return "$AGG$1";
}

json_t *cp_agg_calls_json(int n, const WAggCall *aggs, const char *const *names)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        const WAggCall *c = &aggs[i];
        json_t *j = json_object();
        const char *nm = names ? names[i] : NULL;
        json_object_set_new(j, "name", nm ? json_string(nm) : json_null());
        /* Calcite's COUNT has the FUNCTION_STAR syntax, with or without arguments */
        if (c->kind == WAGG_COUNT_STAR || c->kind == WAGG_COUNT) json_object_set_new(j, "syntax", json_string("FUNCTION_STAR"));
        json_object_set_new(j, "internalName", json_string(agg_internal(c)));
        json_object_set_new(j, "argList", cp_ints_json(c->nargs, c->args));
        json_object_set_new(j, "filterArg", json_integer(c->filter_col));
        json_object_set_new(j, "distinct", json_boolean(c->distinct));
        json_object_set_new(j, "approximate", json_false());
        json_object_set_new(j, "ignoreNulls", json_false());
        json_object_set_new(j, "type", ex_type_json(c->type));
        json_array_append_new(a, j);
    }
    return a;
}

json_t *cp_bools_json(int n, bool v)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, json_boolean(v));
    return a;
}

/* catalog table: identifier and resolved schema (+ options, as Flink's default ALL persists) */
json_t *cp_table_json(const ExCtx *x, const WTable *t, const char *qname, const WRel *wm)
{
    WArena *a = x->p->arena;
    json_t *table = json_object();
    WStrBuf id;
    wsb_init(&id);
    const char *q = qname ? qname : t->name;
    wsb_putc(&id, '`');
    for (const char *s = q; *s; s++) {
        if (*s == '.') wsb_puts(&id, "`.`");
        else wsb_putc(&id, *s);
    }
    wsb_putc(&id, '`');
    json_object_set_new(table, "identifier", json_string(id.buf));
    wsb_free(&id);
    json_t *rt = json_object();
    json_t *schema = json_object();
    json_t *cols = json_array();
    for (int i = 0; i < t->ncols; i++) {
        const WColumn *c = &t->cols[i];
        json_t *cj = json_object();
        json_object_set_new(cj, "name", json_string(c->name));
        if (c->kind == WCOL_COMPUTED) {
            json_object_set_new(cj, "kind", json_string("COMPUTED"));
            json_t *e = json_object();
            const char *sql = c->expr_sql ? c->expr_sql : "";
            if (!strncmp(sql, "AS ", 3)) sql += 3;
            /* the resolved expression over the physical columns */
            WError berr;
            werr_clear(&berr);
            WPlanCtx bp = *x->p;
            bp.err = &berr;
            WExpr *rx = c->expr ? wbind_table_expr(&bp, t, c->expr, false) : NULL;
            if (rx) json_object_set_new(e, "rexNode", ex_rex_json(x->p, rx, NULL));
            json_object_set_new(e, "serializableString", json_string(sql));
            json_object_set_new(cj, "expression", e);
        } else if (c->kind == WCOL_METADATA) {
            json_object_set_new(cj, "kind", json_string("METADATA"));
            json_object_set_new(cj, "dataType", json_string(ex_type_serial(a, c->type)));
            if (c->metadata_key) json_object_set_new(cj, "metadataKey", json_string(c->metadata_key));
            json_object_set_new(cj, "isVirtual", json_boolean(c->is_virtual));
        } else {
            /* the rowtime column keeps its time attribute in the resolved schema */
            bool rowtime = i == t->wm_col && wtype_is_timestamp(c->type);
            json_object_set_new(cj, "dataType", rowtime ? ex_type_json(wtype_with_time_attr(a, c->type, WTA_ROWTIME))
                                                        : json_string(ex_type_serial(a, wtype_with_time_attr(a, c->type, WTA_NONE))));
        }
        json_array_append_new(cols, cj);
    }
    json_object_set_new(schema, "columns", cols);
    json_t *wms = json_array();
    if (t->wm_col >= 0) {
        json_t *w = json_object();
        json_object_set_new(w, "rowtimeAttribute", json_string(t->cols[t->wm_col].name));
        json_t *e = json_object();
        if (wm && wrel_watermark(wm)->expr) {
            json_object_set_new(e, "rexNode", ex_rex_json(x->p, wrel_watermark(wm)->expr, NULL));
        } else if (t->wm_expr) {
            /* the watermark bound over the table's columns */
            WError berr;
            werr_clear(&berr);
            WPlanCtx bp = *x->p;
            bp.err = &berr;
            WExpr *rx = wbind_table_expr(&bp, t, t->wm_expr, true);
            if (rx) json_object_set_new(e, "rexNode", ex_rex_json(x->p, rx, NULL));
        }
        json_object_set_new(e, "serializableString", json_string(t->wm_sql ? t->wm_sql : ""));
        json_object_set_new(w, "expression", e);
        json_array_append_new(wms, w);
    }
    /* Flink 2.x writes the list only when the table declares a watermark */
    if (json_array_size(wms)) json_object_set_new(schema, "watermarkSpecs", wms);
    else json_decref(wms);
    if (t->npk) {
        json_t *pk = json_object();
        json_object_set_new(pk, "name", json_string(t->pk_name ? t->pk_name : "PK"));
        json_object_set_new(pk, "type", json_string("PRIMARY_KEY"));
        json_t *pc = json_array();
        for (int k = 0; k < t->npk; k++) json_array_append_new(pc, json_string(t->cols[t->pk[k]].name));
        json_object_set_new(pk, "columns", pc);
        json_object_set_new(schema, "primaryKey", pk);
    }
    json_object_set_new(rt, "schema", schema);
    if (t->npartition) {          /* only for a partitioned table, as Flink 2.x */
        json_t *pk = json_array();
        for (int k = 0; k < t->npartition; k++) json_array_append_new(pk, json_string(t->cols[t->partition_keys[k]].name));
        json_object_set_new(rt, "partitionKeys", pk);
    }
    json_t *opts = json_object();
    for (int i = 0; i < t->options.n; i++)
        json_object_set_new(opts, t->options.items[i].key, json_string(t->options.items[i].value));
    json_object_set_new(rt, "options", opts);
    json_object_set_new(table, "resolvedTable", rt);
    return table;
}

json_t *cp_changelog_json(uint8_t m)
{
    json_t *a = json_array();
    if (m & WCM_INSERT) json_array_append_new(a, json_string("INSERT"));
    if (m & WCM_UPDATE_BEFORE) json_array_append_new(a, json_string("UPDATE_BEFORE"));
    if (m & WCM_UPDATE_AFTER) json_array_append_new(a, json_string("UPDATE_AFTER"));
    if (m & WCM_DELETE) json_array_append_new(a, json_string("DELETE"));
    return a;
}

/* joinSpec's nonEquiCondition: join r's residual condition, null for none */
json_t *cp_non_equi_json(const ExCtx *x, const WRel *r)
{
    const WRelJoin *rj = wrel_join(r);
    return rj->cond ? ex_rex_json(x->p, rj->cond, NULL) : json_null();
}

json_t *cp_join_spec(const WRel *r)
{
    const WRelJoin *rj = wrel_join(r);
    json_t *s = json_object();
    const char *jt = rj->semi ? "SEMI" : rj->anti ? "ANTI"
                   : rj->type == AJ_LEFT ? "LEFT" : rj->type == AJ_RIGHT ? "RIGHT"
                   : rj->type == AJ_FULL ? "FULL" : "INNER";
    json_object_set_new(s, "joinType", json_string(jt));
    json_object_set_new(s, "leftKeys", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(s, "rightKeys", cp_ints_json(r->nkeys, rj->right_keys));
    json_t *fn = json_array();
    for (int k = 0; k < r->nkeys; k++)
        json_array_append_new(fn, json_boolean(!rj->key_filter_nulls || rj->key_filter_nulls[k]));
    json_object_set_new(s, "filterNulls", fn);
    return s;
}

/* The input column map of a node reading a projected scan (directly or through its watermark
   assigner): real column -> projected position. NULL when no projection applies. */
int *cp_input_colmap(const ExCtx *x, const WRel *in)
{
    const WRel *s = in;
    if (s->kind == WR_MINIBATCH_ASSIGNER) s = s->inputs[0];
    if (s->kind == WR_WATERMARK) s = s->inputs[0];
    if (s->kind != WR_SCAN) return NULL;
    ExNode *n = ex_node(x, s);
    if (!n || !n->nproj) return NULL;
    int *m = WA_ARRAY(x->p->arena, int, s->out.n ? s->out.n : 1);
    for (int i = 0; i < s->out.n; i++) m[i] = -1;
    for (int k = 0; k < n->nproj; k++) m[n->proj[k]] = k;
    return m;
}

static const char *window_type(WWindowKind k)
{
    return k == WWIN_HOP ? "HoppingWindow" : k == WWIN_CUMULATE ? "CumulativeWindow" : k == WWIN_SESSION ? "SessionWindow" : "TumblingWindow";
}

static json_t *iso_duration(int64_t ms)
{
    char buf[64];
    int64_t s = ms / 1000, rem = ms % 1000;
    int64_t h = s / 3600, m = (s % 3600) / 60, sec = s % 60;
    WStrBuf b;
    wsb_init(&b);
    wsb_puts(&b, "PT");
    if (h) wsb_printf(&b, "%lldH", (long long)h);
    if (m) wsb_printf(&b, "%lldM", (long long)m);
    if (sec || rem || (!h && !m)) {
        if (rem) wsb_printf(&b, "%lld.%03lldS", (long long)sec, (long long)rem);
        else wsb_printf(&b, "%lldS", (long long)sec);
    }
    snprintf(buf, sizeof buf, "%s", b.buf);
    wsb_free(&b);
    return json_string(buf);
}

/* {kind: INPUT_REF, inputIndex, type} of input field i (through a projected scan's map cm) */
json_t *cp_input_ref_json(const WRel *in, int i, const int *cm)
{
    json_t *e = json_object();
    json_object_set_new(e, "kind", json_string("INPUT_REF"));
    json_object_set_new(e, "inputIndex", json_integer(cm ? cm[i] : i));
    json_object_set_new(e, "type", ex_type_json(in->out.types[i]));
    return e;
}
/* The window of a windowing strategy: {type, size | maxSize, slide | step, gap and
   partition_key_indices, offset}. */
static json_t *window_spec_json(const WRel *r)
{
    json_t *win = json_object();
    const WRelWindow *rw = wrel_window(r);
    json_object_set_new(win, "type", json_string(window_type(rw->kind)));
    if (rw->kind == WWIN_SESSION) {
        /* Flink's SessionWindowSpec always carries its partition keys (input indexes; [] for
           none): a plan without them makes Flink's EXECUTE PLAN fail with a NullPointerException */
        json_object_set_new(win, "gap", iso_duration(rw->gap));
        json_object_set_new(win, "partition_key_indices", cp_ints_json(rw->npartition, rw->partition));
    } else {
        json_object_set_new(win, rw->kind == WWIN_CUMULATE ? "maxSize" : "size", iso_duration(rw->size));
        if (rw->kind == WWIN_HOP) json_object_set_new(win, "slide", iso_duration(rw->slide));
        if (rw->kind == WWIN_CUMULATE) json_object_set_new(win, "step", iso_duration(rw->slide));
    }
    if (rw->offset) json_object_set_new(win, "offset", iso_duration(rw->offset));
    return win;
}

/* The time attribute that defined the windows rows of `r` carry (the window table function's or
   the first window aggregate's time column), NULL if none is found. */
static const WType *window_time_type(const WRel *r)
{
    while (r) {
        switch (r->kind) {
        case WR_WINDOW_TVF:
            return r->inputs[0]->out.types[wrel_window(r)->time_col];
        case WR_WINDOW_AGG: case WR_LOCAL_WINDOW_AGG:
            if (!wrel_window(r)->attached) return r->inputs[0]->out.types[wrel_window(r)->time_col];
            r = r->inputs[0];
            break;
        case WR_GLOBAL_WINDOW_AGG:
            if (!wrel_window(r)->attached) return wrel_agg(r)->agg_input.types[wrel_window(r)->time_col];
            r = r->inputs[0];
            break;
        default:
            r = r->ninputs ? r->inputs[0] : NULL;
            break;
        }
    }
    return NULL;
}

/* WindowAttachedWindowingStrategy over input `in` whose rows carry their window in columns
   ws / we: {strategy, window, timeAttributeType, windowStart, windowEnd, isRowtime}. */
static json_t *attached_windowing(const WRel *r, const WRel *in, int ws, int we)
{
    json_t *w = json_object();
    json_object_set_new(w, "strategy", json_string("WindowAttached"));
    json_object_set_new(w, "window", window_spec_json(r));
    const WType *tt = window_time_type(in);
    json_object_set_new(w, "timeAttributeType", ex_type_json(tt ? tt : in->out.types[we]));
    json_object_set_new(w, "windowStart", json_integer(ws));
    json_object_set_new(w, "windowEnd", json_integer(we));
    json_object_set_new(w, "isRowtime", json_boolean(!wrel_window(r)->proctime));
    return w;
}

/* StreamExecWindowRank {rankType, partitionSpec, sortSpec, rankRange, outputRowNumber, windowing},
   StreamExecWindowDeduplicate {partitionKeys, orderKey, keepLastRow, windowing} and
   StreamExecWindowJoin {joinSpec, leftWindowing, rightWindowing}, after their configuration. */
static void window_rank_join_json(const ExCtx *x, const WRel *r, json_t *j)
{
    json_t *c = json_object();
    json_object_set_new(c, "table.local-time-zone", json_string(cp_opt_str(x->p->config, "table.local-time-zone", "default")));
    json_object_set_new(j, "configuration", c);
    const WRel *in = r->inputs[0];
    const WRelWindow *rw = wrel_window(r);
    if (r->kind == WR_WINDOW_JOIN) {
        json_t *js = cp_join_spec(r);
        json_object_set_new(js, "nonEquiCondition", cp_non_equi_json(x, r));
        json_object_set_new(j, "joinSpec", js);
        json_object_set_new(j, "leftWindowing", attached_windowing(r, in, rw->start_col, rw->end_col));
        json_object_set_new(j, "rightWindowing", attached_windowing(r, r->inputs[1], rw->rstart_col, rw->rend_col));
        return;
    }
    const WRelRank *rk = wrel_rank(r);
    if (rw->dedup) {
        json_object_set_new(j, "partitionKeys", cp_ints_json(r->nkeys, r->keys));
        json_object_set_new(j, "orderKey", json_integer(r->nsort ? r->sort_cols[0] : r->time_col));
        json_object_set_new(j, "keepLastRow", json_boolean(rk->keep_last));
    } else {
        static const char *const RT[] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
        json_object_set_new(j, "rankType", json_string(RT[wrank_func_index(rk->func)]));
        json_t *part = json_object();
        json_object_set_new(part, "fields", cp_ints_json(r->nkeys, r->keys));
        json_object_set_new(j, "partitionSpec", part);
        json_object_set_new(j, "sortSpec", cp_sort_spec_json(r));
        json_t *rr = json_object();
        json_object_set_new(rr, "type", json_string("Constant"));
        json_object_set_new(rr, "start", json_integer(rk->start));
        json_object_set_new(rr, "end", json_integer(rk->end));
        json_object_set_new(j, "rankRange", rr);
        json_object_set_new(j, "outputRowNumber", json_boolean(rk->output_number));
    }
    json_object_set_new(j, "windowing", attached_windowing(r, in, rw->start_col, rw->end_col));
}

/* {name: "w$", type} — the window alias Flink's LogicalWindow and its named properties refer to */
static json_t *window_alias_json(const WType *tt)
{
    json_t *al = json_object();
    json_object_set_new(al, "name", json_string("w$"));
    json_object_set_new(al, "type", ex_type_json(tt));
    return al;
}

/* StreamExecGroupWindowAggregate (a legacy GROUP BY TUMBLE / HOP / SESSION window):
   configuration, grouping, aggCalls, window {kind, alias, timeField, isTimeWindow, size | slide |
   gap}, namedWindowProperties, needRetraction. No state list (its operator keeps window state). */
static void group_window_json(const ExCtx *x, const WRel *r, json_t *j)
{
    const WRel *in = r->inputs[0];
    const WRelWindow *rw = wrel_window(r);
    const WRelAgg *ag = wrel_agg(r);
    json_t *c = cp_minibatch_configuration(x);
    json_object_set_new(c, "table.local-time-zone", json_string(cp_opt_str(x->p->config, "table.local-time-zone", "default")));
    json_object_set_new(j, "configuration", c);
    json_object_set_new(j, "grouping", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "aggCalls", cp_agg_calls_json(ag->naggs, ag->aggs, ex_out_names(x, r) + r->nkeys));
    const WType *tt = in->out.types[rw->time_col];
    json_t *w = json_object();
    json_object_set_new(w, "kind", json_string(rw->kind == WWIN_HOP ? "SLIDING" : rw->kind == WWIN_SESSION ? "SESSION" : "TUMBLING"));
    json_object_set_new(w, "alias", window_alias_json(tt));
    json_t *tf = json_object();
    json_object_set_new(tf, "fieldName", json_string(ex_out_names(x, in)[rw->time_col]));
    json_object_set_new(tf, "fieldIndex", json_integer(rw->time_col));
    json_object_set_new(tf, "inputIndex", json_integer(0));
    json_object_set_new(tf, "fieldType", ex_type_json(tt));
    json_object_set_new(w, "timeField", tf);
    json_object_set_new(w, "isTimeWindow", json_true());
    if (rw->kind == WWIN_SESSION) {
        json_object_set_new(w, "gap", iso_duration(rw->gap));
    } else {
        json_object_set_new(w, "size", iso_duration(rw->size));
        if (rw->kind == WWIN_HOP) json_object_set_new(w, "slide", iso_duration(rw->slide));
    }
    json_object_set_new(j, "window", w);
    /* w$start, w$end, [w$rowtime,] w$proctime when the query uses TUMBLE_START & co */
    json_t *props = json_array();
    if (rw->legacy_props) {
        static const char *const NAME[] = {"w$start", "w$end", "w$rowtime", "w$proctime"};
        static const char *const KIND[] = {"WindowStart", "WindowEnd", "Rowtime", "Proctime"};
        for (int i = 0; i < 4; i++) {
            if (i == 2 && rw->proctime) continue;
            json_t *np = json_object(), *pr = json_object();
            json_object_set_new(np, "name", json_string(NAME[i]));
            json_object_set_new(pr, "kind", json_string(KIND[i]));
            json_object_set_new(pr, "reference", window_alias_json(tt));
            json_object_set_new(np, "property", pr);
            json_array_append_new(props, np);
        }
    }
    json_object_set_new(j, "namedWindowProperties", props);
    json_object_set_new(j, "needRetraction", json_boolean(r->input_retracts));
}

/* ---- the kind-specific fields of a node (each returns true when the node is complete: a source
   has no inputProperties) ---- */

bool cp_two_phase_group(const CpNode *cn, json_t *j)
{
    cp_two_phase_json(cn->x, wrel_as_two_phase(cn->r), j);
    return false;
}

bool cp_window_rank_join(const CpNode *cn, json_t *j)
{
    window_rank_join_json(cn->x, cn->r, j);
    return false;
}

bool cp_windowed_agg(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_windowed(cn->r);
    const WRelWindow *rw = wrel_window(r);
    WArena *a = cn->a;
    if (r->kind == WR_WINDOW_AGG && rw->legacy) {
        group_window_json(x, r, j);
        return false;
    }
    json_t *c = json_object();
    json_object_set_new(c, "table.local-time-zone", json_string(cp_opt_str(x->p->config, "table.local-time-zone", "default")));
    json_object_set_new(j, "configuration", c);
    bool agg = r->kind != WR_WINDOW_TVF;
    const WRelAgg *ag = agg ? wrel_agg(r) : NULL;     /* a WindowTableFunction has none */
    if (agg) {
        /* the calls carry the names of the (global) aggregate's results */
        const WRel *g = r->kind == WR_LOCAL_WINDOW_AGG ? cp_window_global_of(x, r) : r;
        json_object_set_new(j, "grouping", cp_ints_json(r->nkeys, r->keys));
        json_object_set_new(j, "aggCalls", cp_agg_calls_json(ag->naggs, ag->aggs, g ? ex_out_names(x, g) + g->nkeys : NULL));
    }
    json_t *w;
    if (r->kind == WR_GLOBAL_WINDOW_AGG) {
        /* the local aggregate's slice end (window end when attached) is the input's last field */
        int end = r->inputs[0]->out.n - 1;
        w = json_object();
        json_object_set_new(w, "strategy", json_string(rw->attached ? "WindowAttached" : "SliceAttached"));
        json_object_set_new(w, "window", window_spec_json(r));
        json_object_set_new(w, "timeAttributeType", ex_type_json(ag->agg_input.types[rw->time_col]));
        if (rw->attached) {
            json_object_set_new(w, "windowStart", json_integer(-1));
            json_object_set_new(w, "windowEnd", json_integer(end));
        } else {
            json_object_set_new(w, "sliceEnd", json_integer(end));
        }
        json_object_set_new(w, "isRowtime", json_boolean(!rw->proctime));
    } else if (agg && rw->attached) {
        w = attached_windowing(r, r->inputs[0], rw->start_col, rw->end_col);
    } else {
        const WRel *src = r->inputs[0];
        w = json_object();
        json_object_set_new(w, "strategy", json_string("TimeAttribute"));
        json_object_set_new(w, "window", window_spec_json(r));
        json_object_set_new(w, "timeAttributeType", ex_type_json(src->out.types[rw->time_col]));
        json_object_set_new(w, "timeAttributeIndex", json_integer(rw->time_col));
        json_object_set_new(w, "isRowtime", json_boolean(!rw->proctime));
    }
    json_object_set_new(j, "windowing", w);
    if (r->kind == WR_WINDOW_AGG || r->kind == WR_GLOBAL_WINDOW_AGG) {
        /* the window properties the aggregate produces: window_start, window_end, and
           window_time when a consumer reads it */
        const WType *tt = r->kind == WR_GLOBAL_WINDOW_AGG ? ag->agg_input.types[rw->time_col]
                                                          : r->inputs[0]->out.types[rw->time_col];
        const ExNode *en = ex_node(x, r);
        const char *const *on = ex_out_names(x, r);
        json_t *props = json_array();
        int cols[3] = {rw->out_start, rw->out_end, en && en->wtime_used ? rw->out_time : -1};
        const char *kinds[3] = {"WindowStart", "WindowEnd", rw->proctime ? "Proctime" : "Rowtime"};
        for (int k = 0; k < 3; k++) {
            if (cols[k] < 0) continue;
            json_t *np = json_object(), *pr = json_object();
            json_object_set_new(np, "name", json_string(on[cols[k]]));
            json_object_set_new(pr, "kind", json_string(kinds[k]));
            json_object_set_new(pr, "reference", window_alias_json(tt));
            json_object_set_new(np, "property", pr);
            json_array_append_new(props, np);
        }
        json_object_set_new(j, "namedWindowProperties", props);
    }
    if (agg) json_object_set_new(j, "needRetraction", json_boolean(r->input_retracts));
    if (r->kind == WR_GLOBAL_WINDOW_AGG)
        json_object_set_new(j, "localAggInputRowType", ex_row_type_json(a, &ag->agg_input));
    return false;
}

/* A node whose JSON is the common fields only (Union, Exchange, DropUpdateBefore). */
bool cp_common_fields_only(const CpNode *cn, json_t *j) { (void)cn; (void)j; return false; }

/* ---- the row type a node produces (outputType) ---- */

WSchema cp_own_schema(const CpNode *cn) { return ex_schema(cn->x, cn->r); }

/* a watermark assigner (or mini-batch assigner) over a projected scan produces the projected columns */
WSchema cp_schema_projected(const CpNode *cn)
{
    WSchema os = ex_schema(cn->x, cn->r);
    const int *cm = cn->cm;
    if (!cm) return os;
    WSchema ps = {0, WA_ARRAY(cn->a, const char *, os.n ? os.n : 1), WA_ARRAY(cn->a, const WType *, os.n ? os.n : 1)};
    for (int i = 0; i < os.n; i++)
        if (cm[i] >= 0) { ps.names[cm[i]] = os.names[i]; ps.types[cm[i]] = os.types[i]; ps.n++; }
    return ps;
}

/* window_time is produced only when a consumer reads it */
WSchema cp_schema_window_time_if_used(const CpNode *cn)
{
    const WRel *r = wrel_as_windowed(cn->r);
    const WRelWindow *rw = wrel_window(r);
    WSchema os = ex_schema(cn->x, r);
    if (rw->legacy || rw->out_time < 0 || rw->out_time >= os.n || (cn->node && cn->node->wtime_used))
        return os;
    WSchema ws = {0, WA_ARRAY(cn->a, const char *, os.n), WA_ARRAY(cn->a, const WType *, os.n)};
    for (int i = 0; i < os.n; i++)
        if (i != rw->out_time) { ws.names[ws.n] = os.names[i]; ws.types[ws.n] = os.types[i]; ws.n++; }
    return ws;
}

/* ---- fields after the description ---- */

void cp_nothing_after(const CpNode *cn, json_t *j) { (void)cn; (void)j; }

static json_t *node_json(const ExCtx *x, const WRel *r, int id)
{
    assert((unsigned)r->kind < WR__COUNT);
    const CpKindOps *ops = wkinds_cp[r->kind];
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(id));
    json_object_set_new(j, "type", json_string(ex_exec_type(r)));
    const WRel *ins[8];
    int nin = ex_inputs(x, r, ins);
    CpNode cn = {.x = x, .r = r, .a = x->p->arena, .node = ex_node(x, r), .in = nin ? ins[0] : NULL,
                 .cm = nin ? cp_input_colmap(x, r->inputs[0]) : NULL};
    if (ops->write(&cn, j)) return j;
    json_t *props = json_array();
    for (int i = 0; i < nin; i++) json_array_append_new(props, input_property(r));
    json_object_set_new(j, "inputProperties", props);
    WSchema os = ops->output_schema(&cn);
    json_object_set_new(j, "outputType", cp_acc_row_type_json(x, r, &os));
    WStrBuf d;
    wsb_init(&d);
    ex_digest(x, r, EXD_EXEC, &d);
    json_object_set_new(j, "description", json_string(d.buf ? d.buf : ""));
    wsb_free(&d);
    ops->after_description(&cn, j);
    return j;
}

static int node_index(const ExCtx *x, const WRel *r)
{
    for (int i = 0; i < x->n; i++) if (x->nodes[i].rel == r) return i;
    return -1;
}

/* A Values node's tuples are RexLiterals in Flink's plan format: a non-NULL constant of a
   constructed type (ARRAY, MAP, MULTISET, ROW) has no literal form there, so writing it would lose
   the value. The binder plans VALUES rows with such constants as Flink does (projections over the
   one-row Values, bind.c), so a Values node holding one is a planner bug: refused, not written. */
static bool values_are_literals(WPlanCtx *p, const WRel *r)
{
    if (r->kind != WR_VALUES) return true;
    const WRelValues *rv = wrel_values(r);
    for (int i = 0; i < rv->nrows; i++)
        for (int k = 0; k < r->out.n; k++) {
            WTypeId id = r->out.types[k]->id;
            if (rv->row_nulls[i][k] || (id != WT_ARRAY && id != WT_MAP && id != WT_MULTISET && id != WT_ROW)) continue;
            WStrBuf t;
            wsb_init(&t);
            wtype_to_string(r->out.types[k], &t);
            werr_set(p->err, WEXC_TABLE,
                     "COMPILE PLAN cannot write row %d of the VALUES clause: its column '%s' is a constant of "
                     "type %s, which has no literal form in a compiled plan.",
                     i + 1, r->out.names[k], t.buf ? t.buf : "?");
            wsb_free(&t);
            return false;
        }
    return true;
}

bool wexplain_compiled_plan(WPlanCtx *p, WRel **roots, int n, WStrBuf *out)
{
    if (p->err && p->err->set) return false;
    const char *mode = wopts_get(p->config, "execution.runtime-mode");
    if (mode && !strcasecmp(mode, "batch"))
        return werr_set(p->err, WEXC_TABLE, "The compiled plan feature is not supported in batch mode.");
    ExCtx x;
    if (!ex_ctx_init(&x, p, roots, n)) return false;
    for (int i = 0; i < n; i++)
        if (roots[i]->kind != WR_SINK || !wrel_sink(roots[i])->table)
            return werr_set(p->err, WEXC_TABLE, "Only INSERT or STATEMENT SET can be compiled into a plan.");
    for (int i = 0; i < x.n; i++)
        if (!values_are_literals(p, x.nodes[i].rel)) return false;
    /* nodes in id order */
    int maxid = 0;
    for (int i = 0; i < x.n; i++) if (x.nodes[i].id > maxid) maxid = x.nodes[i].id;
    json_t *doc = json_object();
    json_object_set_new(doc, "flinkVersion", plan_version_json());
    json_t *nodes = json_array(), *edges = json_array();
    for (int id = 1; id <= maxid; id++) {
        const ExNode *en = NULL;
        for (int i = 0; i < x.n; i++) if (x.nodes[i].id == id) en = &x.nodes[i];
        if (!en) continue;
        json_array_append_new(nodes, node_json(&x, en->rel, id));
        const WRel *ins[8];
        int nin = ex_inputs(&x, en->rel, ins);
        for (int k = 0; k < nin; k++) {
            int si = node_index(&x, ins[k]);
            if (si < 0) continue;
            json_t *e = json_object();
            json_object_set_new(e, "source", json_integer(x.nodes[si].id));
            json_object_set_new(e, "target", json_integer(id));
            json_t *sh = json_object();
            json_object_set_new(sh, "type", json_string("FORWARD"));
            json_object_set_new(e, "shuffle", sh);
            json_object_set_new(e, "shuffleMode", json_string("PIPELINED"));
            json_array_append_new(edges, e);
        }
    }
    json_object_set_new(doc, "nodes", nodes);
    json_object_set_new(doc, "edges", edges);
    wjson_pretty(doc, out);
    json_decref(doc);
    return true;
}
