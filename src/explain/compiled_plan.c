/*
 * compiled_plan.c — COMPILE PLAN: the exec graph as the JSON document Flink writes
 * (flinkVersion, nodes with Flink's per-type fields and `state` lists {index, ttl, name}, edges),
 * laid out by Jackson's pretty printer. State lists exist exactly where Flink has them
 * (group aggregate, join, deduplicate, rank, changelog normalize, sink with upsert materialize);
 * TTLs are the resolved ones (state_ttl.c) in Flink's largest-whole-unit format. A node's
 * kind-specific fields, its outputType row and the fields after its description come from
 * CP_KIND_OPS, one row per WRelKind (ex_compiled_plan_ops_check: no kind without them). See
 * explain.h.
 */
#include "explain_internal.h"
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

static json_t *state_entry(int index, int64_t ttl_ms, const char *name)
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
    json_array_append_new(a, state_entry(0, ttl_ms, name));
    return a;
}

/* SortSpec: {"fields": [{index, isAscending, nullIsLast}]} */
static json_t *sort_spec_json(const WRel *r)
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
static void rank_range_and_strategy(json_t *j, const WRel *r, const WRel *in)
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

static const char *bool_str(const WOptions *o, const char *key, const char *dflt)
{
    const char *v = wopts_get(o, key);
    return v ? v : dflt;
}

static const char *opt_str(const WOptions *o, const char *key, const char *dflt)
{
    const char *v = wopts_get(o, key);
    return v ? v : dflt;
}

/* An enum option as Flink's compiled plan writes it: the constant's name (Flink reads the value
   case-insensitively; 'drop' is written "DROP", measured). */
static json_t *enum_option(const ExCtx *x, const char *key, const char *def)
{
    const char *v = opt_str(x->p->config, key, def);
    char *u = wa_strdup(x->p->arena, v);
    for (char *c = u; *c; c++) *c = (char)toupper((unsigned char)*c);
    return json_string(u);
}

json_t *cp_agg_configuration(const ExCtx *x)
{
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.mini-batch.enabled",
                        json_string(bool_str(x->p->config, "table.exec.mini-batch.enabled", "false")));
    json_object_set_new(c, "table.exec.mini-batch.size",
                        json_string(opt_str(x->p->config, "table.exec.mini-batch.size", "-1")));
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
static json_t *table_json(const ExCtx *x, const WTable *t, const char *qname, const WRel *wm)
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

static json_t *changelog_json(uint8_t m)
{
    json_t *a = json_array();
    if (m & WCM_INSERT) json_array_append_new(a, json_string("INSERT"));
    if (m & WCM_UPDATE_BEFORE) json_array_append_new(a, json_string("UPDATE_BEFORE"));
    if (m & WCM_UPDATE_AFTER) json_array_append_new(a, json_string("UPDATE_AFTER"));
    if (m & WCM_DELETE) json_array_append_new(a, json_string("DELETE"));
    return a;
}

/* joinSpec's nonEquiCondition: join r's residual condition, null for none */
static json_t *non_equi_json(const ExCtx *x, const WRel *r)
{
    const WRelJoin *rj = wrel_join(r);
    return rj->cond ? ex_rex_json(x->p, rj->cond, NULL) : json_null();
}

static json_t *join_spec(const WRel *r)
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

static json_t *upsert_keys(const WRel *in)
{
    json_t *a = json_array();
    /* the empty key (a global aggregate: at most one row) is [[]] */
    if (in->nunique >= 0) json_array_append_new(a, cp_ints_json(in->nunique, in->unique));
    return a;
}

/* The input column map of a node reading a projected scan (directly or through its watermark
   assigner): real column -> projected position. NULL when no projection applies. */
static int *input_colmap(const ExCtx *x, const WRel *in)
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
static json_t *input_ref_json(const WRel *in, int i, const int *cm)
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
    json_object_set_new(c, "table.local-time-zone", json_string(opt_str(x->p->config, "table.local-time-zone", "default")));
    json_object_set_new(j, "configuration", c);
    const WRel *in = r->inputs[0];
    const WRelWindow *rw = wrel_window(r);
    if (r->kind == WR_WINDOW_JOIN) {
        json_t *js = join_spec(r);
        json_object_set_new(js, "nonEquiCondition", non_equi_json(x, r));
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
        json_object_set_new(j, "sortSpec", sort_spec_json(r));
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
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.mini-batch.enabled",
                        json_string(bool_str(x->p->config, "table.exec.mini-batch.enabled", "false")));
    json_object_set_new(c, "table.exec.mini-batch.size",
                        json_string(opt_str(x->p->config, "table.exec.mini-batch.size", "-1")));
    json_object_set_new(c, "table.local-time-zone", json_string(opt_str(x->p->config, "table.local-time-zone", "default")));
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



/* Flink's WritingMetadata sink ability: the metadata keys written (in the connector's order) and
   the type the sink consumes: the physical columns, then the metadata columns (named as in the
   table, typed by their keys), as measured on Flink 2.3 with the Kafka connector. */
static json_t *writing_metadata_json(const ExCtx *x, const WRel *r)
{
    WArena *a = x->p->arena;
    const WRelSink *sk = wrel_sink(r);
    const WTable *t = sk->table;
    int np = r->out.n - sk->nmeta;
    WSchema cons = {.n = r->out.n, .names = WA_ARRAY(a, const char *, r->out.n),
                    .types = WA_ARRAY(a, const WType *, r->out.n)};
    for (int i = 0; i < np; i++) { cons.names[i] = r->out.names[i]; cons.types[i] = r->out.types[i]; }
    json_t *keys = json_array();
    for (int m = 0; m < sk->nmeta; m++) {
        json_array_append_new(keys, json_string(sk->meta_keys[m]));
        cons.names[np + m] = sk->meta_keys[m];
        cons.types[np + m] = r->out.types[np + m];
        for (int c = 0; c < t->ncols; c++) {
            const WColumn *col = &t->cols[c];
            if (col->kind == WCOL_METADATA && !col->is_virtual &&
                !strcmp(col->metadata_key ? col->metadata_key : col->name, sk->meta_keys[m]))
                cons.names[np + m] = col->name;
        }
    }
    json_t *rt = ex_row_type_json(a, &cons);
    char *ct = wa_sprintf(a, "%s NOT NULL", json_string_value(rt));
    json_decref(rt);
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("WritingMetadata"));
    json_object_set_new(j, "metadataKeys", keys);
    json_object_set_new(j, "consumedType", json_string(ct));
    return j;
}

/* One node being written: the node, its exec view, its first exec input and the map of that
   input's columns to the ones a projected scan produces (NULL = identity). */
typedef struct CpNode {
    const ExCtx *x;
    const WRel *r;
    WArena *a;
    const ExNode *node;             /* may be NULL */
    const WRel *in;                 /* first exec input, NULL for a source */
    const int *cm;
} CpNode;

/* ---- the kind-specific fields of a node (each returns true when the node is complete: a source
   has no inputProperties) ---- */

static bool cp_scan(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_scan(cn->r);
    const WRelScan *sc = wrel_scan(r);
    WArena *a = cn->a;
    const ExNode *node = cn->node;
    json_t *sts = json_object();
    const WRel *wm = NULL;
    json_object_set_new(sts, "table", table_json(x, sc->table, sc->table_qname, wm));
    json_t *ab = json_array();
    if (node && node->pushed_filter) {
        json_t *f = json_object();
        json_object_set_new(f, "type", json_string("FilterPushDown"));
        json_t *preds = json_array();
        const WExpr *c = node->pushed_filter;
        int *m = input_colmap(x, r);
        if (c->kind == WX_AND) {
            for (int i = 0; i < c->nargs; i++) json_array_append_new(preds, ex_rex_json(x->p, c->args[i], m));
        } else {
            json_array_append_new(preds, ex_rex_json(x->p, c, m));
        }
        json_object_set_new(f, "predicates", preds);
        json_array_append_new(ab, f);
    }
    WSchema produced = r->out;
    if (node && node->nproj) {
        /* the physical fields projected (ProjectPushDown), then the metadata keys read
           (ReadingMetadata), each with the row type it produces */
        produced.n = node->nproj;
        produced.names = WA_ARRAY(a, const char *, node->nproj);
        produced.types = WA_ARRAY(a, const WType *, node->nproj);
        json_t *pf = json_array(), *keys = json_array();
        int nphys = 0;
        for (int k = 0; k < node->nproj; k++) {
            produced.names[k] = r->out.names[node->proj[k]];
            produced.types[k] = r->out.types[node->proj[k]];
            if (node->proj[k] < sc->nfields) { json_array_append_new(pf, cp_ints_json(1, &node->proj[k])); nphys++; }
            else json_array_append_new(keys, json_string(sc->meta_keys[node->proj[k] - sc->nfields]));
        }
        WStrBuf pt, ptp;
        wsb_init(&pt);
        wsb_init(&ptp);
        wsb_puts(&pt, "ROW<");
        wsb_puts(&ptp, "ROW<");
        for (int k = 0, q = 0; k < produced.n; k++) {
            wsb_printf(&pt, "%s`%s` %s", k ? ", " : "", produced.names[k], ex_type_serial(a, produced.types[k]));
            if (node->proj[k] < sc->nfields)
                wsb_printf(&ptp, "%s`%s` %s", q++ ? ", " : "", produced.names[k], ex_type_serial(a, produced.types[k]));
        }
        wsb_puts(&pt, "> NOT NULL");
        wsb_puts(&ptp, "> NOT NULL");
        json_t *p = json_object();
        json_object_set_new(p, "type", json_string("ProjectPushDown"));
        json_object_set_new(p, "projectedFields", pf);
        json_object_set_new(p, "producedType", json_string(nphys == produced.n ? pt.buf : ptp.buf));
        json_array_append_new(ab, p);
        json_t *md = json_object();
        json_object_set_new(md, "type", json_string("ReadingMetadata"));
        json_object_set_new(md, "metadataKeys", keys);
        json_object_set_new(md, "producedType", json_string(pt.buf));
        json_array_append_new(ab, md);
        wsb_free(&pt);
        wsb_free(&ptp);
    }
    if (json_array_size(ab)) json_object_set_new(sts, "abilities", ab);
    else json_decref(ab);
    json_object_set_new(j, "scanTableSource", sts);
    /* the source produces plain timestamps: the WatermarkAssigner above makes the rowtime */
    WSchema plain = produced;
    plain.types = WA_ARRAY(a, const WType *, produced.n ? produced.n : 1);
    for (int k = 0; k < produced.n; k++) {
        const WType *pt0 = produced.types[k];
        plain.types[k] = wtype_is_timestamp(pt0) && pt0->time_attr == WTA_ROWTIME
                       ? wtype_with_time_attr(a, pt0, WTA_NONE) : pt0;
    }
    json_object_set_new(j, "outputType", ex_row_type_json(a, &plain));
    WStrBuf d;
    wsb_init(&d);
    ex_digest(x, r, EXD_EXEC, &d);
    json_object_set_new(j, "description", json_string(d.buf));
    wsb_free(&d);
    return true;       /* a source has no inputProperties (stream-exec-table-source-scan_2) */
}

static bool cp_calc(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelCalc *rc = wrel_calc(r);
    const int *cm = cn->cm;
    json_t *proj = json_array();
    for (int i = 0; i < rc->nexprs; i++) json_array_append_new(proj, ex_rex_json(x->p, rc->exprs[i], cm));
    json_object_set_new(j, "projection", proj);
    json_object_set_new(j, "condition", rc->cond ? ex_rex_json(x->p, rc->cond, cm) : json_null());
    return false;
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

static bool cp_values(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelValues *rv = wrel_values(r);
    json_t *tuples = json_array();
    for (int i = 0; i < rv->nrows; i++) {
        json_t *row = json_array();
        for (int k = 0; k < r->out.n; k++) {
            WExpr lit = {.kind = WX_LITERAL, .type = r->out.types[k], .lit = rv->rows[i][k],
                         .is_null = rv->row_nulls[i][k] != 0};
            json_array_append_new(row, ex_rex_json(x->p, &lit, NULL));
        }
        json_array_append_new(tuples, row);
    }
    json_object_set_new(j, "tuples", tuples);
    return false;
}

static bool cp_minibatch_assigner(const CpNode *cn, json_t *j)
{
    const WRel *r = cn->r;
    json_t *mi = json_object();
    json_object_set_new(mi, "interval", json_integer(wrel_minibatch(r)->interval_ms));
    json_object_set_new(mi, "mode", json_string(wrel_minibatch(r)->rowtime ? "RowTime" : "ProcTime"));
    json_object_set_new(j, "miniBatchInterval", mi);
    return false;
}

static bool cp_two_phase_group(const CpNode *cn, json_t *j)
{
    cp_two_phase_json(cn->x, wrel_as_two_phase(cn->r), j);
    return false;
}

static bool cp_group_agg(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelAgg *ag = wrel_agg(r);
    json_object_set_new(j, "configuration", cp_agg_configuration(x));
    json_object_set_new(j, "grouping", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "aggCalls", cp_agg_calls_json(ag->naggs, ag->aggs,
                                                      ag->partial_final != WPF_NONE ? NULL : ex_out_names(x, r) + r->nkeys));
    json_object_set_new(j, "aggCallNeedRetractions", cp_bools_json(ag->naggs, r->input_retracts));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "needRetraction", json_boolean(r->input_retracts));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "groupAggregateState"));
    return false;
}

static bool cp_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_join(cn->r);
    json_t *js = join_spec(r);
    json_object_set_new(js, "nonEquiCondition", non_equi_json(x, r));
    json_object_set_new(j, "joinSpec", js);
    /* Flink 2.3 writes the inputs' upsert keys only when they have some */
    if (r->inputs[0]->nunique >= 0) json_object_set_new(j, "leftUpsertKeys", upsert_keys(r->inputs[0]));
    if (r->inputs[1]->nunique >= 0) json_object_set_new(j, "rightUpsertKeys", upsert_keys(r->inputs[1]));
    json_t *st = json_array();
    json_array_append_new(st, state_entry(0, wrel_join(r)->ttl_left_ms, "leftState"));
    json_array_append_new(st, state_entry(1, wrel_join(r)->ttl_right_ms, "rightState"));
    json_object_set_new(j, "state", st);
    return false;
}

static bool cp_interval_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *ij = json_object();
    json_t *js = join_spec(r);
    json_object_set_new(js, "nonEquiCondition", non_equi_json(x, r));
    json_object_set_new(ij, "joinSpec", js);
    json_t *wb = json_object();
    bool rowtime = r->inputs[0]->out.types[wrel_join(r)->left_time_col]->time_attr != WTA_PROCTIME;
    json_object_set_new(wb, "isEventTime", json_boolean(rowtime));
    json_object_set_new(wb, "leftLowerBound", json_integer(wrel_interval(r)->lower_ms));
    json_object_set_new(wb, "leftUpperBound", json_integer(wrel_interval(r)->upper_ms));
    json_object_set_new(wb, "leftTimeIndex", json_integer(wrel_join(r)->left_time_col));
    json_object_set_new(wb, "rightTimeIndex", json_integer(wrel_join(r)->right_time_col));
    json_object_set_new(ij, "windowBounds", wb);
    json_object_set_new(j, "intervalJoinSpec", ij);
    return false;
}

static bool cp_temporal_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *js = join_spec(r);
    json_object_set_new(js, "nonEquiCondition", non_equi_json(x, r));
    json_object_set_new(j, "joinSpec", js);
    json_object_set_new(j, "isTemporalFunctionJoin", json_false());
    json_object_set_new(j, "leftTimeAttributeIndex", json_integer(wrel_join(r)->left_time_col));
    json_object_set_new(j, "rightTimeAttributeIndex", json_integer(wrel_join(r)->right_time_col));
    return false;
}

static bool cp_dedup(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.deduplicate.insert-update-after-sensitive-enabled",
                        json_string(bool_str(x->p->config, "table.exec.deduplicate.insert-update-after-sensitive-enabled", "true")));
    json_object_set_new(c, "table.exec.deduplicate.mini-batch.compact-changes-enabled",
                        json_string(bool_str(x->p->config, "table.exec.deduplicate.mini-batch.compact-changes-enabled", "false")));
    json_object_set_new(c, "table.exec.mini-batch.enabled",
                        json_string(bool_str(x->p->config, "table.exec.mini-batch.enabled", "false")));
    json_object_set_new(c, "table.exec.mini-batch.size",
                        json_string(opt_str(x->p->config, "table.exec.mini-batch.size", "-1")));
    json_object_set_new(j, "configuration", c);
    json_object_set_new(j, "uniqueKeys", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "isRowtime", json_boolean(wrel_rank(r)->dedup_rowtime));
    json_object_set_new(j, "keepLastRow", json_boolean(wrel_rank(r)->keep_last));
    json_object_set_new(j, "outputInsertOnly", json_boolean(r->changelog == WCM_INSERT));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "deduplicateState"));
    return false;
}

static bool cp_rank(const CpNode *cn, json_t *j)
{
    const WRel *r = wrel_as_rank(cn->r);
    const WRel *in = cn->in;
    static const char *const RT[] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
    json_object_set_new(j, "rankType", json_string(RT[wrank_func_index(wrel_rank(r)->func)]));
    json_t *part = json_object();
    json_object_set_new(part, "fields", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "partition", part);
    json_object_set_new(j, "orderBy", sort_spec_json(r));
    rank_range_and_strategy(j, r, in);
    json_object_set_new(j, "outputRowNumber", json_boolean(wrel_rank(r)->output_number));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "rankState"));
    return false;
}

static bool cp_sort_limit(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_rank(cn->r);
    const WRel *in = cn->in;
    /* StreamExecSortLimit / StreamExecLimit (a StreamExecRank): the rank's own fields
       (rankType, partition, outputRowNumber; Limit's empty orderBy) follow the description */
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.rank.topn-cache-size",
                        json_string(opt_str(x->p->config, "table.exec.rank.topn-cache-size", "10000")));
    json_object_set_new(j, "configuration", c);
    if (r->nsort) json_object_set_new(j, "orderBy", sort_spec_json(r));
    rank_range_and_strategy(j, r, in);
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "rankState"));
    return false;
}

static bool cp_temporal_sort(const CpNode *cn, json_t *j)
{
    json_object_set_new(j, "orderBy", sort_spec_json(cn->r));
    return false;
}

static bool cp_changelog_normalize(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.mini-batch.enabled",
                        json_string(bool_str(x->p->config, "table.exec.mini-batch.enabled", "false")));
    json_object_set_new(c, "table.exec.mini-batch.size",
                        json_string(opt_str(x->p->config, "table.exec.mini-batch.size", "-1")));
    json_object_set_new(j, "configuration", c);
    json_object_set_new(j, "uniqueKeys", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    const WExpr *filter = wrel_normalize(r)->filter;
    if (filter) json_object_set_new(j, "filterCondition", ex_rex_json(x->p, filter, NULL));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "changelogNormalizeState"));
    return false;
}

static bool cp_window_rank_join(const CpNode *cn, json_t *j)
{
    window_rank_join_json(cn->x, cn->r, j);
    return false;
}

static bool cp_windowed_agg(const CpNode *cn, json_t *j)
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
    json_object_set_new(c, "table.local-time-zone", json_string(opt_str(x->p->config, "table.local-time-zone", "default")));
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

static bool cp_sink(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_sink(cn->r);
    const WRelSink *sk = wrel_sink(r);
    const WRel *in = cn->in;
    const ExNode *node = cn->node;
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.sink.keyed-shuffle", enum_option(x, "table.exec.sink.keyed-shuffle", "AUTO"));
    json_object_set_new(c, "table.exec.sink.not-null-enforcer", enum_option(x, "table.exec.sink.not-null-enforcer", "ERROR"));
    json_object_set_new(c, "table.exec.sink.rowtime-inserter", enum_option(x, "table.exec.sink.rowtime-inserter", "ENABLED"));
    json_object_set_new(c, "table.exec.sink.type-length-enforcer", enum_option(x, "table.exec.sink.type-length-enforcer", "IGNORE"));
    json_object_set_new(c, "table.exec.sink.upsert-materialize", enum_option(x, "table.exec.sink.upsert-materialize", "AUTO"));
    json_object_set_new(j, "configuration", c);
    json_t *dts = json_object();
    if (sk->table) json_object_set_new(dts, "table", table_json(x, sk->table, sk->qname, NULL));
    if (sk->ntarget_cols) {
        json_t *tc = json_array();
        for (int k = 0; k < sk->ntarget_cols; k++) json_array_append_new(tc, json_pack("[i]", sk->target_cols[k]));
        json_object_set_new(dts, "targetColumns", tc);
    }
    json_t *ab = json_array();
    if (sk->nstatic) {
        /* INSERT ... PARTITION (k = 'v'): Flink's Partitioning sink ability */
        json_t *pa = json_object(), *part = json_object();
        json_object_set_new(pa, "type", json_string("Partitioning"));
        for (int k = 0; k < sk->nstatic; k++)
            json_object_set_new(part, sk->static_keys[k], json_string(sk->static_values[k]));
        json_object_set_new(pa, "partition", part);
        json_array_append_new(ab, pa);
    }
    if (sk->nmeta && sk->table) json_array_append_new(ab, writing_metadata_json(x, r));
    if (json_array_size(ab)) json_object_set_new(dts, "abilities", ab);
    else json_decref(ab);
    json_object_set_new(j, "dynamicTableSink", dts);
    /* the modes the input really sends (an aggregate over an insert-only input sends no DELETE) */
    json_object_set_new(j, "inputChangelogMode", changelog_json(in ? ex_changelog_mode(x, in) : WCM_INSERT));
    if (node && node->materializer) json_object_set_new(j, "requireUpsertMaterialize", json_true());
    if (in && in->nunique > 0 && in->changelog != WCM_INSERT)
        json_object_set_new(j, "inputUpsertKey", cp_ints_json(in->nunique, in->unique));
    if (node && node->materializer)
        json_object_set_new(j, "state", cp_one_state(node->materializer->ttl_ms, "sinkMaterializeState"));
    if (sk->conflict)
        json_object_set_new(j, "conflictStrategy", json_pack("{s:s}", "behavior", wplan_conflict_name(sk->conflict)));
    return false;
}

static bool cp_correlate(const CpNode *cn, json_t *j)
{
    ex_correlate_json(cn->x, cn->r, j);
    return false;
}

static bool cp_replicate_rows(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    WArena *a = cn->a;
    const WRel *in = cn->in;
    const int *cm = cn->cm;
    /* Correlate with the internal table function $REPLICATE_ROWS$1 over all input fields
       (the count first); its row type is the fields it appends */
    json_object_set_new(j, "joinType", json_string("INNER"));
    json_t *fc = json_object(), *ops = json_array();
    json_object_set_new(fc, "kind", json_string("CALL"));
    json_object_set_new(fc, "internalName", json_string("$REPLICATE_ROWS$1"));
    for (int i = 0; i < in->out.n; i++) json_array_append_new(ops, input_ref_json(in, i, cm));
    json_object_set_new(fc, "operands", ops);
    const char *const *on = ex_out_names(x, r);
    int nf = r->out.n - in->out.n;
    WSchema fs = {nf, (const char **)on + in->out.n, r->out.types + in->out.n};
    json_t *row = ex_row_type_json(a, &fs);
    if (json_is_string(row)) {
        json_t *nn = json_string(wa_sprintf(a, "%s NOT NULL", json_string_value(row)));
        json_decref(row);
        row = nn;
    }
    json_object_set_new(fc, "type", row);
    json_object_set_new(j, "functionCall", fc);
    json_object_set_new(j, "condition", json_null());
    return false;
}

static bool cp_expand(const CpNode *cn, json_t *j)
{
    const WRel *r = cn->r;
    WArena *a = cn->a;
    const WRel *in = cn->in;
    const int *cm = cn->cm;
    /* projects: one RexNode list per projection: input fields, typed NULLs, the expand id */
    json_t *projects = json_array();
    int nc = r->out.n;
    for (int k = 0; k < wrel_expand(r)->n; k++) {
        json_t *pr = json_array();
        for (int c = 0; c < nc; c++) {
            int src = wrel_expand(r)->src[k * nc + c];
            if (src >= 0) {
                json_array_append_new(pr, input_ref_json(in, src, cm));
            } else {
                json_t *l = json_object();
                json_object_set_new(l, "kind", json_string("LITERAL"));
                json_object_set_new(l, "value", src == -1 ? json_null() : json_integer(wrel_expand(r)->ids[k]));
                json_object_set_new(l, "type", ex_type_json(src == -1 ? wtype_with_nullable(a, r->out.types[c], true)
                                                                      : r->out.types[c]));
                json_array_append_new(pr, l);
            }
        }
        json_array_append_new(projects, pr);
    }
    json_object_set_new(j, "projects", projects);
    return false;
}

static bool cp_lookup_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelJoin *rj = wrel_join(r);
    WArena *a = cn->a;
    const WRel *in = cn->in;
    const WRel *dim = rj->lookup_scan;
    const WRelScan *ds = wrel_scan(dim);
    json_object_set_new(j, "joinType", json_string(rj->type == AJ_LEFT ? "LEFT" : "INNER"));
    json_object_set_new(j, "joinCondition", rj->shown_cond ? ex_rex_json(x->p, rj->shown_cond, NULL) : json_null());
    json_t *tt = json_object(), *lts = json_object();
    json_object_set_new(lts, "table", table_json(x, ds->table, ds->table_qname, NULL));
    /* the conjuncts on dim columns alone (not in joinCondition): Flink's jdbc source takes
       them as pushed-down predicates over the dim row */
    WExpr *cs[256];
    int n = 0, ln = r->inputs[0]->out.n;
    wplan_split_and(rj->cond, cs, &n, 256);
    int *m = WA_ARRAY(a, int, ln + dim->out.n);
    for (int i = 0; i < ln + dim->out.n; i++) m[i] = i - ln;
    json_t *preds = json_array();
    for (int i = 0; i < n; i++) {
        WExpr *sh[256];
        int ns = 0;
        wplan_split_and(rj->shown_cond, sh, &ns, 256);
        bool shown = false;
        for (int k = 0; k < ns; k++) shown = shown || sh[k] == cs[i];
        if (!shown) json_array_append_new(preds, ex_rex_json(x->p, cs[i], m));
    }
    if (json_array_size(preds)) {
        json_t *ab = json_array(), *f = json_object();
        json_object_set_new(f, "type", json_string("FilterPushDown"));
        json_object_set_new(f, "predicates", preds);
        json_array_append_new(ab, f);
        json_object_set_new(lts, "abilities", ab);
    } else {
        json_decref(preds);
    }
    json_object_set_new(tt, "lookupTableSource", lts);
    json_t *ot = ex_row_type_json(a, &dim->out);
    WStrBuf t;
    wsb_init(&t);
    wsb_printf(&t, "%s NOT NULL", json_string_value(ot));
    json_decref(ot);
    json_object_set_new(tt, "outputType", json_string(t.buf));
    wsb_free(&t);
    json_object_set_new(j, "temporalTable", tt);
    json_t *keys = json_object();
    bool pk_in_keys = ds->table->npk > 0;
    for (int k = 0; k < r->nkeys; k++) {
        json_t *f = json_object();
        json_object_set_new(f, "type", json_string("FieldRef"));
        json_object_set_new(f, "index", json_integer(r->keys[k]));
        char idx[16];
        snprintf(idx, sizeof idx, "%d", rj->right_keys[k]);
        json_object_set_new(keys, idx, f);
    }
    for (int p = 0; p < ds->table->npk; p++) {
        bool found = false;
        for (int k = 0; k < r->nkeys; k++)
            found = found || !strcmp(dim->out.names[rj->right_keys[k]], ds->table->cols[ds->table->pk[p]].name);
        pk_in_keys = pk_in_keys && found;
    }
    json_object_set_new(j, "lookupKeys", keys);
    json_object_set_new(j, "projectionOnTemporalTable", json_null());
    json_object_set_new(j, "filterOnTemporalTable", json_null());
    json_object_set_new(j, "lookupKeyContainsPrimaryKey", json_boolean(pk_in_keys));
    json_object_set_new(j, "inputChangelogMode", changelog_json(in->changelog));
    return false;
}

static bool cp_over_agg(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRel *in = cn->in;
    if (wrel_over(r)->stream) cp_over_spec_json(x, r, in, j);
    return false;
}

static bool cp_match(const CpNode *cn, json_t *j)
{
    ex_match_json(cn->x, cn->r, j);
    return false;
}

/* A node whose JSON is the common fields only (Union, Exchange, DropUpdateBefore). */
static bool cp_common_fields_only(const CpNode *cn, json_t *j) { (void)cn; (void)j; return false; }

/* ---- the row type a node produces (outputType) ---- */

static WSchema cp_own_schema(const CpNode *cn) { return ex_schema(cn->x, cn->r); }

/* a sink's output type is its input row (Flink 2.x: the query's names, not the table's) */
static WSchema cp_schema_sink_input(const CpNode *cn)
{
    return cn->in ? ex_schema(cn->x, cn->in) : ex_schema(cn->x, cn->r);
}

/* a watermark assigner (or mini-batch assigner) over a projected scan produces the projected columns */
static WSchema cp_schema_projected(const CpNode *cn)
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
static WSchema cp_schema_window_time_if_used(const CpNode *cn)
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

static void cp_nothing_after(const CpNode *cn, json_t *j) { (void)cn; (void)j; }

static void cp_after_lookup_join(const CpNode *cn, json_t *j)
{
    json_object_set_new(j, "preferCustomShuffle", json_false());
}

/* StreamExecLimit / StreamExecSortLimit are StreamExecRanks: the rank's own fields */
static void cp_after_limit_rank(const CpNode *cn, json_t *j)
{
    const WRel *r = wrel_as_rank(cn->r);
    json_object_set_new(j, "rankType", json_string("ROW_NUMBER"));
    json_t *part = json_object();
    json_object_set_new(part, "fields", json_array());
    json_object_set_new(j, "partition", part);
    if (!r->nsort) json_object_set_new(j, "orderBy", sort_spec_json(r));
    json_object_set_new(j, "outputRowNumber", json_false());
}

/* Kinds that never reach a compiled plan: OverRank (logical only, the rank rule replaces it),
   SinkMaterializer (folded into its sink: requireUpsertMaterialize), Sort (batch: Flink compiles
   no batch plan). Written as the common fields, as before the table. */
#define CP_NOT_IN_A_COMPILED_PLAN cp_common_fields_only
#define CP_NOT_IN_A_COMPILED_PLAN_SCHEMA cp_own_schema
#define CP_NOT_IN_A_COMPILED_PLAN_AFTER cp_nothing_after

/* The JSON-write operations of each node kind. A kind added to WRelKind needs its row here
   (ex_compiled_plan_ops_check fails otherwise). */
typedef struct CpKindOps {
    bool (*write)(const CpNode *cn, json_t *j);                 /* the kind's own fields */
    WSchema (*output_schema)(const CpNode *cn);                 /* outputType's row */
    void (*after_description)(const CpNode *cn, json_t *j);     /* fields after "description" */
} CpKindOps;

static const CpKindOps CP_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.write = cp_scan, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_VALUES] = {.write = cp_values, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_CALC] = {.write = cp_calc, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_UNION] = {.write = cp_common_fields_only, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_WATERMARK] = {.write = cp_watermark, .output_schema = cp_schema_projected, .after_description = cp_nothing_after},
    [WR_SINK] = {.write = cp_sink, .output_schema = cp_schema_sink_input, .after_description = cp_nothing_after},
    [WR_EXCHANGE] = {.write = cp_common_fields_only, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_GROUP_AGG] = {.write = cp_group_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_JOIN] = {.write = cp_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_DEDUP] = {.write = cp_dedup, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_RANK] = {.write = cp_rank, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_SORT_LIMIT] = {.write = cp_sort_limit, .output_schema = cp_own_schema, .after_description = cp_after_limit_rank},
    [WR_WINDOW_AGG] = {.write = cp_windowed_agg, .output_schema = cp_schema_window_time_if_used, .after_description = cp_nothing_after},
    [WR_CHANGELOG_NORMALIZE] = {.write = cp_changelog_normalize, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_DROP_UPDATE_BEFORE] = {.write = cp_common_fields_only, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_SINK_MATERIALIZER] = {.write = CP_NOT_IN_A_COMPILED_PLAN, .output_schema = CP_NOT_IN_A_COMPILED_PLAN_SCHEMA, .after_description = CP_NOT_IN_A_COMPILED_PLAN_AFTER},
    [WR_OVER_RANK] = {.write = CP_NOT_IN_A_COMPILED_PLAN, .output_schema = CP_NOT_IN_A_COMPILED_PLAN_SCHEMA, .after_description = CP_NOT_IN_A_COMPILED_PLAN_AFTER},
    [WR_WINDOW_TVF] = {.write = cp_windowed_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_WINDOW_RANK] = {.write = cp_window_rank_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_WINDOW_JOIN] = {.write = cp_window_rank_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_INTERVAL_JOIN] = {.write = cp_interval_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_TEMPORAL_JOIN] = {.write = cp_temporal_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_LOOKUP_JOIN] = {.write = cp_lookup_join, .output_schema = cp_own_schema, .after_description = cp_after_lookup_join},
    [WR_OVER_AGG] = {.write = cp_over_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_MINIBATCH_ASSIGNER] = {.write = cp_minibatch_assigner, .output_schema = cp_schema_projected, .after_description = cp_nothing_after},
    [WR_LOCAL_GROUP_AGG] = {.write = cp_two_phase_group, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_GLOBAL_GROUP_AGG] = {.write = cp_two_phase_group, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_INCREMENTAL_GROUP_AGG] = {.write = cp_two_phase_group, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_SORT] = {.write = CP_NOT_IN_A_COMPILED_PLAN, .output_schema = CP_NOT_IN_A_COMPILED_PLAN_SCHEMA, .after_description = CP_NOT_IN_A_COMPILED_PLAN_AFTER},
    [WR_TEMPORAL_SORT] = {.write = cp_temporal_sort, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_LOCAL_WINDOW_AGG] = {.write = cp_windowed_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_GLOBAL_WINDOW_AGG] = {.write = cp_windowed_agg, .output_schema = cp_schema_window_time_if_used, .after_description = cp_nothing_after},
    [WR_EXPAND] = {.write = cp_expand, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_REPLICATE_ROWS] = {.write = cp_replicate_rows, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_CORRELATE] = {.write = cp_correlate, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    [WR_MATCH] = {.write = cp_match, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
};

bool ex_compiled_plan_ops_check(WStrBuf *err)
{
    static const char *const W = "explain/compiled_plan.c";
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++) {
        const CpKindOps *o = &CP_KIND_OPS[k];
        ok &= wrel_kind_op_check(o->write != NULL, k, W, "write", err);
        ok &= wrel_kind_op_check(o->output_schema != NULL, k, W, "output schema", err);
        ok &= wrel_kind_op_check(o->after_description != NULL, k, W, "after-description", err);
    }
    return ok;
}

static json_t *node_json(const ExCtx *x, const WRel *r, int id)
{
    assert((unsigned)r->kind < WR__COUNT);
    const CpKindOps *ops = &CP_KIND_OPS[r->kind];
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(id));
    json_object_set_new(j, "type", json_string(ex_exec_type(r)));
    const WRel *ins[8];
    int nin = ex_inputs(x, r, ins);
    CpNode cn = {.x = x, .r = r, .a = x->p->arena, .node = ex_node(x, r), .in = nin ? ins[0] : NULL,
                 .cm = nin ? input_colmap(x, r->inputs[0]) : NULL};
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
