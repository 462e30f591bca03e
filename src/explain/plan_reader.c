/*
 * plan_reader.c — EXECUTE PLAN: a compiled plan (the JSON compiled_plan.c writes, in Flink's
 * shape) read back into finalised exec-graph roots the runtime runs: catalog tables come from the
 * plan's own table definitions (schema, primary key, options), expressions from the RexNode JSON,
 * state TTLs from the `state` lists (an edited TTL wins; a missing list falls back to
 * table.exec.state.ttl). Nodes weir keeps apart from Flink's (the projection of a scan, the
 * upsert materializer of a sink) are rebuilt. A node is read by the kind that lists its type
 * (rd_read, its file in src/kinds/, reached through wkinds_rd_read: explain_kinds.h), and its
 * changelog mode comes from its kind's mode operation (wkinds_rd_mode). See explain.h.
 */
#include "../common/base64.h"
#include "explain_kinds.h"
#include "plan_reader_internal.h"
#include "../sql/parser.h"
#include "../expr/functions.h"
#include "../common/duration.h"
#include "../types/datetime.h"
#include "../types/decimal.h"

#include <limits.h>
#include <stdlib.h>
#include <assert.h>
#include <string.h>
#include <strings.h>

bool rd_fail(Rd *r, const char *fmt, const char *what)
{
    return werr_set(r->p->err, WEXC_TABLE, fmt, what ? what : "");
}

/* ---------------- helpers ---------------- */

int rd_int(json_t *v, int absent)
{
    if (!v) return absent;
    if (!json_is_integer(v)) return RD_BAD_INDEX;
    json_int_t i = json_integer_value(v);
    return i < 0 && i != -1 ? RD_BAD_INDEX : i > INT_MAX ? RD_BAD_INDEX : (int)i;
}

int rd_ints(Rd *r, json_t *arr, int **out)
{
    int n = (int)json_array_size(arr);
    *out = WA_ARRAY(r->a, int, n ? n : 1);
    for (int i = 0; i < n; i++) (*out)[i] = rd_int(json_array_get(arr, (size_t)i), RD_BAD_INDEX);
    return n;
}

int64_t rd_ttl(Rd *r, json_t *node, int index)
{
    json_t *st = json_object_get(node, "state");
    for (size_t i = 0; i < json_array_size(st); i++) {
        json_t *s = json_array_get(st, i);
        if ((int)json_integer_value(json_object_get(s, "index")) != index) continue;
        const char *ttl = json_string_value(json_object_get(s, "ttl"));
        int64_t ms = 0;
        WError tmp;
        werr_clear(&tmp);
        if (ttl && wduration_parse(ttl, &ms, &tmp)) return ms;
    }
    return r->dflt_ttl;
}

WRel *rd_new_rel(Rd *r, WRelKind kind, int nin)
{
    WRel *x = wrel_new(r->p, kind, nin);
    x->id = ++r->next_id;
    x->nunique = -1;
    return x;
}

/* The orderBy fields of a rank / sort node into x's sort columns; false (error set) when an
   index is outside the input row. */
bool rd_sort_fields(Rd *r, json_t *j, WRel *x, const WRel *in)
{
    json_t *of = json_object_get(json_object_get(j, "orderBy"), "fields");
    x->nsort = (int)json_array_size(of);
    x->sort_cols = WA_ARRAY(r->a, int, x->nsort ? x->nsort : 1);
    x->sort_desc = WA_ARRAY(r->a, bool, x->nsort ? x->nsort : 1);
    x->sort_nulls_first = WA_ARRAY(r->a, bool, x->nsort ? x->nsort : 1);
    for (int i = 0; i < x->nsort; i++) {
        json_t *f = json_array_get(of, (size_t)i);
        x->sort_cols[i] = rd_int(json_object_get(f, "index"), RD_BAD_INDEX);
        x->sort_desc[i] = json_is_false(json_object_get(f, "isAscending"));
        x->sort_nulls_first[i] = json_is_false(json_object_get(f, "nullIsLast"));
        if (x->sort_cols[i] < 0 || x->sort_cols[i] >= in->out.n) {
            werr_set(r->p->err, WEXC_TABLE, "Invalid compiled plan: sort field index out of range.");
            return false;
        }
    }
    return true;
}

/* ---------------- changelog modes (as the planner derives them) ---------------- */

/* Calc, Exchange, WatermarkAssigner, Sink, SinkMaterializer, MiniBatchAssigner, Correlate,
   Expand, the Correlate of REPLICATE_ROWS, WindowTableFunction: what the input emits */
void mode_as_input(WRel *x, WRel *in) { x->changelog = in->changelog; }

/* LocalGroupAggregate, IncrementalGroupAggregate: partial accumulators, inserted */
void mode_inserts(WRel *x, WRel *in) { x->changelog = WCM_INSERT; }

/* GroupAggregate, GlobalGroupAggregate, Rank, ChangelogNormalize: every kind of change */
void mode_all_kinds(WRel *x, WRel *in) { x->changelog = ALL_KINDS; }

/* TableSourceScan, Values: their reader set the mode */
void mode_set_by_reader(WRel *x, WRel *in) {}

/* the window and time-bound operators, OverAggregate, LookupJoin, Match, TemporalSort: inserts,
   over an input that may retract */
void mode_appends(WRel *x, WRel *in)
{
    x->changelog = WCM_INSERT;
    if (in) x->input_retracts = in->changelog != WCM_INSERT;
}

/* The changelog mode of node x read back by EXECUTE PLAN, from its kind's mode operation. */
void rd_derive_mode(WRel *x)
{
    assert((unsigned)x->kind < WR__COUNT);
    wkinds_rd_mode[x->kind]->mode(x, x->ninputs ? x->inputs[0] : NULL);
}

bool rd_aggs(Rd *r, json_t *calls, WRel *x)
{
    WRelAgg *xa = wrel_agg_mut(x);
    int n = (int)json_array_size(calls);
    xa->naggs = n;
    xa->aggs = WA_ARRAY(r->a, WAggCall, n ? n : 1);
    static const struct { const char *in; WAggKind k; const char *name; } K[] = {
        {"$COUNT$1", WAGG_COUNT, "COUNT"}, {"$SUM$1", WAGG_SUM, "SUM"}, {"$$SUM0$1", WAGG_SUM0, "SUM0"},
        {"$MIN$1", WAGG_MIN, "MIN"}, {"$MAX$1", WAGG_MAX, "MAX"}, {"$AVG$1", WAGG_AVG, "AVG"},
        {"$FIRST_VALUE$1", WAGG_FIRST_VALUE, "FIRST_VALUE"}, {"$LAST_VALUE$1", WAGG_LAST_VALUE, "LAST_VALUE"},
        {"$LISTAGG$1", WAGG_LISTAGG, "LISTAGG"}, {"$STDDEV_POP$1", WAGG_STDDEV_POP, "STDDEV_POP"},
        {"$STDDEV_SAMP$1", WAGG_STDDEV_SAMP, "STDDEV_SAMP"}, {"$VAR_POP$1", WAGG_VAR_POP, "VAR_POP"},
        {"$VAR_SAMP$1", WAGG_VAR_SAMP, "VAR_SAMP"}, {"$BOOL_AND$1", WAGG_BOOL_AND, "BOOL_AND"},
        {"$BOOL_OR$1", WAGG_BOOL_OR, "BOOL_OR"}, {"$COLLECT$1", WAGG_COLLECT, "COLLECT"},
        {"$SINGLE_VALUE$1", WAGG_SINGLE_VALUE, "SINGLE_VALUE"},
    };
    for (int i = 0; i < n; i++) {
        json_t *c = json_array_get(calls, (size_t)i);
        WAggCall *ac = &xa->aggs[i];
        const char *in = json_string_value(json_object_get(c, "internalName"));
        bool found = false;
        for (size_t k = 0; k < sizeof K / sizeof K[0]; k++)
            if (in && !strcmp(in, K[k].in)) { ac->kind = K[k].k; ac->name = K[k].name; found = true; }
        if (!found) return rd_fail(r, "The compiled plan uses an aggregate function weir does not know: %s", in);
        json_t *args = json_object_get(c, "argList");
        ac->nargs = (int)json_array_size(args);
        if (ac->nargs > 2) ac->nargs = 2;
        for (int k = 0; k < ac->nargs; k++) ac->args[k] = rd_int(json_array_get(args, (size_t)k), RD_BAD_INDEX);
        if (ac->kind == WAGG_COUNT && ac->nargs == 0) ac->kind = WAGG_COUNT_STAR;
        ac->filter_col = rd_int(json_object_get(c, "filterArg"), -1);
        ac->distinct = json_is_true(json_object_get(c, "distinct"));
        ac->type = rd_type(r, json_object_get(c, "type"));
        if (!ac->type) return false;
        const char *nm = json_string_value(json_object_get(c, "name"));
        ac->out_name = nm ? wa_strdup(r->a, nm) : NULL;
    }
    return true;
}

bool rd_join_spec(Rd *r, json_t *js, WRel *x, WRel *const *ins)
{
    WRelJoin *rj = wrel_join_mut(x);
    const char *jt = json_string_value(json_object_get(js, "joinType"));
    rj->type = AJ_INNER;
    if (jt && !strcmp(jt, "LEFT")) rj->type = AJ_LEFT;
    else if (jt && !strcmp(jt, "RIGHT")) rj->type = AJ_RIGHT;
    else if (jt && !strcmp(jt, "FULL")) rj->type = AJ_FULL;
    else if (jt && !strcmp(jt, "SEMI")) rj->semi = true;
    else if (jt && !strcmp(jt, "ANTI")) rj->anti = true;
    x->nkeys = rd_ints(r, json_object_get(js, "leftKeys"), &x->keys);
    int *rk;
    int nr = rd_ints(r, json_object_get(js, "rightKeys"), &rk);
    if (nr != x->nkeys) return rd_fail(r, "The compiled plan has a join with unequal key lists%s", "");
    rj->right_keys = rk;
    json_t *fn = json_object_get(js, "filterNulls");
    rj->key_filter_nulls = WA_ARRAY(r->a, bool, x->nkeys ? x->nkeys : 1);
    for (int k = 0; k < x->nkeys; k++) rj->key_filter_nulls[k] = !json_is_false(json_array_get(fn, (size_t)k));
    json_t *c = json_object_get(js, "nonEquiCondition");
    if (c && !json_is_null(c)) {
        WSchema combined = rd_concat(r, &ins[0]->out, &ins[1]->out);
        rj->cond = rd_rex(r, c, &combined);
        if (!rj->cond) return false;
    }
    return true;
}

WSchema rd_concat(Rd *r, const WSchema *a, const WSchema *b)
{
    WSchema s;
    s.n = a->n + b->n;
    s.names = WA_ARRAY(r->a, const char *, s.n ? s.n : 1);
    s.types = WA_ARRAY(r->a, const WType *, s.n ? s.n : 1);
    for (int i = 0; i < a->n; i++) { s.names[i] = a->names[i]; s.types[i] = a->types[i]; }
    for (int i = 0; i < b->n; i++) { s.names[a->n + i] = b->names[i]; s.types[a->n + i] = b->types[i]; }
    return s;
}

/* ---------------- nodes ---------------- */

/* Rank, SortLimit and Limit (stream-exec-rank_1, -sort-limit_1, -limit_1: kinds/rank.c and
   kinds/sort_limit.c name this reader). */
WRel *rdn_rank(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    const char *type = r->cur_type;
    WRel *x = rd_new_rel(r, strcmp(type, "stream-exec-rank_1") ? WR_SORT_LIMIT : WR_RANK, 1);
    WRelRank *xr = wrel_rank_mut(x);
    const char *rt = json_string_value(json_object_get(j, "rankType"));
    xr->func = rt && !strcmp(rt, "RANK") ? WRANK_RANK : rt && !strcmp(rt, "DENSE_RANK") ? WRANK_DENSE_RANK : WRANK_ROW_NUMBER;
    x->nkeys = rd_ints(r, json_object_get(json_object_get(j, "partition"), "fields"), &x->keys);
    if (!rd_sort_fields(r, j, x, in)) return NULL;
    json_t *rr = json_object_get(j, "rankRange");
    xr->start = json_integer_value(json_object_get(rr, "start"));
    xr->end = json_integer_value(json_object_get(rr, "end"));
    const char *rs = json_string_value(json_object_get(json_object_get(j, "rankStrategy"), "type"));
    xr->strategy = rs && !strcmp(rs, "AppendFast") ? WRANK_APPEND_FAST : rs && !strcmp(rs, "UpdateFast") ? WRANK_UPDATE_FAST : WRANK_RETRACT;
    json_t *pks = json_object_get(json_object_get(j, "rankStrategy"), "primaryKeys");
    if (pks) in->nunique = rd_ints(r, pks, &in->unique);
    xr->output_number = json_is_true(json_object_get(j, "outputRowNumber"));
    xr->col = xr->output_number ? out->n - 1 : -1;
    x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
    x->ttl_ms = rd_ttl(r, j, 0);
    return x;
}

/* The reader of a compiled-plan node type: the kind whose rd_read lists the type. */
static const RdNodeType *node_type(const char *type)
{
    for (int k = 0; k < WR__COUNT; k++)
        for (const RdNodeType *t = wkinds_rd_read[k]->types; t < wkinds_rd_read[k]->types + RD_MAX_TYPES && t->type; t++)
            if (!strcmp(type, t->type)) return t;
    return NULL;
}

static WRel *build_node(Rd *r, int pos, WRel **ins, int nin)
{
    json_t *j = r->nodes[pos];
    const char *type = json_string_value(json_object_get(j, "type"));
    r->cur_id = r->ids[pos];
    r->cur_type = type;
    if (!type) { rd_fail(r, "The compiled plan has a node without type%s", ""); return NULL; }
    WSchema out;
    if (!rd_schema(r, json_object_get(j, "outputType"), &out)) return NULL;
    const RdNodeType *nt = NULL;
    nt = node_type(type);
    if (!nt) {
        rd_fail(r, "EXECUTE PLAN cannot run a plan node of type '%s' yet.", type);
        return NULL;
    }
    if (nt->ninputs >= 0 && nin != nt->ninputs) {
        rd_fail(r, "The compiled plan's node %s has the wrong number of inputs.", type);
        return NULL;
    }
    RdNode n = {.j = j, .ins = ins, .nin = nin, .in = nin ? ins[0] : NULL, .out = out};
    WRel *x = nt->read(r, &n);
    if (!x || n.done) return x;
    WRel *in = n.in;
    out = n.out;
    for (int i = 0; i < nin && i < x->ninputs; i++) x->inputs[i] = ins[i];
    if (x->kind == WR_SINK) x->inputs[0] = in;
    x->out = out;
    if (x->kind == WR_SINK) rd_sink_schema_from_table(r, x);
    rd_derive_mode(x);
    if (x->kind == WR_SINK && in->kind == WR_SINK_MATERIALIZER && !rd_check_node(r, in)) return NULL;
    if (!rd_check_node(r, x)) return NULL;
    return x;
}

int wplan_from_json(WPlanCtx *p, const char *json, WRel ***roots)
{
    json_error_t jerr;
    json_t *doc = json_loads(json, 0, &jerr);
    if (!doc) {
        werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: %s (line %d, column %d).", jerr.text, jerr.line,
                 jerr.column);
        return -1;
    }
    Rd rd;
    memset(&rd, 0, sizeof rd);
    rd.p = p;
    rd.a = p->arena;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_duration_ms(p->config, "table.exec.state.ttl", 0, &rd.dflt_ttl, &tmp)) {
        *p->err = tmp;
        json_decref(doc);
        return -1;
    }
    bool mb = false;
    wopts_get_bool(p->config, "table.exec.mini-batch.enabled", false, &mb, &tmp);
    rd.minibatch = mb && !wplan_batch_mode(p);
    json_t *nodes = json_object_get(doc, "nodes");
    rd.edges = json_object_get(doc, "edges");
    if (!json_is_array(nodes) || !json_is_array(rd.edges) || json_array_size(nodes) == 0) {
        werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: it has no nodes or edges.");
        json_decref(doc);
        return -1;
    }
    rd.n = (int)json_array_size(nodes);
    rd.nodes = WA_ARRAY(p->arena, json_t *, rd.n);
    rd.ids = WA_ARRAY(p->arena, int, rd.n);
    rd.rels = WA_ARRAY(p->arena, WRel *, rd.n);
    for (int i = 0; i < rd.n; i++) {
        rd.nodes[i] = json_array_get(nodes, (size_t)i);
        json_t *idj = json_object_get(rd.nodes[i], "id");
        rd.ids[i] = rd_int(idj, RD_BAD_INDEX);
        rd.rels[i] = NULL;
        if (!json_is_object(rd.nodes[i]) || !json_is_integer(idj) || rd.ids[i] < 0) {
            werr_set(p->err, WEXC_TABLE, "Invalid compiled plan: node %d of 'nodes' has no valid 'id' (an integer from 0).", i + 1);
            json_decref(doc);
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (rd.ids[k] == rd.ids[i]) {
                werr_set(p->err, WEXC_TABLE, "Invalid compiled plan: two nodes have the 'id' %d.", rd.ids[i]);
                json_decref(doc);
                return -1;
            }
    }
    for (size_t e = 0; e < json_array_size(rd.edges); e++) {
        json_t *ed = json_array_get(rd.edges, e);
        json_t *sj = json_object_get(ed, "source"), *tj = json_object_get(ed, "target");
        int src = rd_int(sj, RD_BAD_INDEX), dst = rd_int(tj, RD_BAD_INDEX);
        bool known_src = false, known_dst = false;
        for (int k = 0; k < rd.n; k++) {
            if (rd.ids[k] == src) known_src = true;
            if (rd.ids[k] == dst) known_dst = true;
        }
        if (!json_is_integer(sj) || !json_is_integer(tj) || !known_src || !known_dst) {
            werr_set(p->err, WEXC_TABLE, "Invalid compiled plan: edge %zu of 'edges' does not connect two nodes of the plan "
                     "('source' and 'target' must be node ids).", e + 1);
            json_decref(doc);
            return -1;
        }
    }
    /* nodes are listed inputs first; edges give each node's inputs in order */
    int nroots = 0;
    WRel **out = WA_ARRAY(p->arena, WRel *, rd.n);
    for (int i = 0; i < rd.n; i++) {
        int nin = 0;
        WRel **ins = WA_ARRAY(p->arena, WRel *, json_array_size(rd.edges) + 1);
        for (size_t e = 0; e < json_array_size(rd.edges); e++) {
            json_t *ed = json_array_get(rd.edges, e);
            if ((int)json_integer_value(json_object_get(ed, "target")) != rd.ids[i]) continue;
            int src = (int)json_integer_value(json_object_get(ed, "source"));
            WRel *sr = NULL;
            for (int k = 0; k < i; k++) if (rd.ids[k] == src) sr = rd.rels[k];
            if (!sr) {
                werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: node %d is used before it is defined.", src);
                json_decref(doc);
                return -1;
            }
            ins[nin++] = sr;
        }
        rd.rels[i] = build_node(&rd, i, ins, nin);
        if (!rd.rels[i] && !p->err->set) rd_fail(&rd, "The compiled plan has a node weir cannot read%s", "");
        if (!rd.rels[i] || p->err->set) {
            /* name the node in the reader's own messages (Flink's messages stay as they are) */
            if (strstr(p->err->msg, "compiled plan") && !strstr(p->err->msg, "Invalid compiled plan: node ")) {
                size_t len = strlen(p->err->msg);
                while (len && p->err->msg[len - 1] == '.') len--;
                snprintf(p->err->msg + len, sizeof p->err->msg - len, " (node %d, %s).", rd.ids[i],
                         rd.cur_type ? rd.cur_type : "without type");
            }
            json_decref(doc);
            return -1;
        }
        if (rd.rels[i]->kind == WR_SINK) out[nroots++] = rd.rels[i];
    }
    json_decref(doc);
    if (nroots == 0) {
        werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: it has no sink.");
        return -1;
    }
    *roots = out;
    return nroots;
}
