/*
 * explain_text.c — EXPLAIN: the sections Flink prints (Abstract Syntax Tree, Optimized Physical
 * Plan [With Advice], Optimized Execution Plan, Physical Execution Plan), the tree layout of
 * RelTreeWriterImpl (`:- ` / `+- ` / `:  `), ESTIMATED_COST and CHANGELOG_MODE attributes, plan
 * advice (Flink's local-global advice and weir's own state advice), and the JSON execution
 * plan of JSON_EXECUTION_PLAN. The cost of each node is its kind's cost operation (its file in
 * src/kinds/, reached through wkinds_cost: explain_kinds.h). See explain.h.
 */
#include "explain_internal.h"
#include "explain_kinds.h"
#include "json_out.h"
#include "../plan/scan_parallelism.h"
#include "../plan/sink_constraints.h"
#include "../common/duration.h"
#include "../common/hash.h"
#include "../types/format.h"
#include "../expr/functions.h"
#include "../connectors/connector.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- tree layout ---------------- */

typedef struct TreeCtx {
    const ExCtx *x;
    ExDialect d;
    int details;
    WStrBuf *out;
    /* advice ids per node (PLAN_ADVICE) */
    int nadv;
    const WRel **adv_node;
    int *adv_id;
    ExReuse *reuse;                 /* execution plan: sub-plan reuse (NULL = none) */
} TreeCtx;

static void prefix(WStrBuf *out, const bool *last, int depth)
{
    for (int i = 1; i < depth; i++) wsb_puts(out, last[i] ? "   " : ":  ");
    if (depth > 0) wsb_puts(out, last[depth] ? "+- " : ":- ");
}

/* Flink's average value sizes (FlinkRelMdSize): CHAR 1, VARCHAR 12, DECIMAL and date/time 12,
   BINARY 16, collections 16 elements, a RAW value (a DISTINCT's MapView, which weir types as
   BYTES in partial-aggregate rows: `raw_bytes`) 128 */
static double type_size(const WType *t, bool raw_bytes)
{
    switch (t->id) {
    case WT_BOOLEAN: case WT_TINYINT: case WT_CHAR: return 1;
    case WT_SMALLINT: return 2;
    case WT_INT: case WT_FLOAT: case WT_INTERVAL_DT: return 4;
    case WT_BIGINT: case WT_DOUBLE: case WT_INTERVAL_YM: return 8;
    case WT_DECIMAL: case WT_VARCHAR: case WT_DATE: case WT_TIME: case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return 12;
    case WT_BINARY: return 16;
    case WT_VARBINARY: return raw_bytes ? 128 : 16;
    case WT_ARRAY: return t->elem ? 16 * type_size(t->elem, false) : 16 * 8;
    case WT_MULTISET: return t->elem ? 16 * (type_size(t->elem, false) + 4) : 16 * 12;
    case WT_MAP: return t->key && t->elem ? 16 * (type_size(t->key, false) + type_size(t->elem, false)) : 16 * 16;
    case WT_ROW: {
        double b = 0;
        for (int i = 0; i < t->nfields; i++) b += type_size(t->fields[i], false);
        return b;
    }
    default: return 8;
    }
}

double cost_row_size(const WSchema *s, bool raw_bytes)
{
    double b = 0;
    for (int i = 0; i < s->n; i++) b += type_size(s->types[i], raw_bytes);
    return b;
}

/* Flink's stream cost model without statistics: the operator keeps its input's row count and
   costs (rows, rows) itself */
void cost_of_its_input(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self) {}

static Cost cost_of(const ExCtx *x, const WRel *r)
{
    Cost c = {0};
    const WRel **ins = WA_ARRAY(x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
    int n = ex_inputs(x, r, ins);
    Cost in = {0};
    for (int i = 0; i < n; i++) {
        Cost k = cost_of(x, ins[i]);
        in.rowcount += k.rowcount;
        in.rows += k.rows;
        in.cpu += k.cpu;
        in.io += k.io;
        in.network += k.network;
        in.memory += k.memory;
    }
    /* Flink's stream cost model without statistics: most operators keep their input's row
       count and cost (rows, rows) themselves; the kind's cost operation says otherwise */
    SelfCost self = {.rows = in.rowcount, .cpu = in.rowcount};
    c.rowcount = in.rowcount;
    assert((unsigned)r->kind < WR__COUNT);
    wkinds_cost[r->kind]->cost(x, r, n, &in, &c, &self);
    c.rows = in.rows + self.rows;
    c.cpu = in.cpu + self.cpu;
    c.io = in.io + self.io;
    c.network = in.network + self.net;
    c.memory = in.memory + self.mem;
    return c;
}

static void java_double(WStrBuf *out, double d)
{
    char buf[64];
    wfmt_double_java(d, buf);
    wsb_puts(out, buf);
}

static int advice_of(const TreeCtx *t, const WRel *r)
{
    for (int i = 0; i < t->nadv; i++) if (t->adv_node[i] == r) return t->adv_id[i];
    return 0;
}

static void tree(TreeCtx *t, const WRel *r, bool *last, int depth)
{
    WStrBuf *out = t->out;
    prefix(out, last, depth);
    int reuse_id = ex_reuse_id(t->reuse, r);
    if (reuse_id && !ex_reuse_first(t->reuse, r, true)) {
        wsb_printf(out, "Reused(reference_id=[%d])\n", reuse_id);
        return;
    }
    WStrBuf line;
    wsb_init(&line);
    ex_digest(t->x, r, t->d, &line);
    const char *s = line.buf ? line.buf : "";
    int adv = t->d == EXD_REL ? advice_of(t, r) : 0;
    /* batch nodes carry no changelog traits: Flink prints no changelogMode in batch mode */
    bool cm = t->d == EXD_REL && (t->details & AX_CHANGELOG_MODE) && !t->x->batch;
    if (adv || cm) {
        /* attributes go inside the parentheses: advice first, changelogMode last */
        const char *paren = strchr(s, '(');
        size_t name_len = paren ? (size_t)(paren - s) : strlen(s);
        wsb_appendn(out, s, name_len);
        wsb_putc(out, '(');
        bool any = false;
        if (adv) {
            wsb_printf(out, "advice=[%d]", adv);
            any = true;
        }
        /* the node's own terms; a STATE_TTL hint is the last of them, after changelogMode (as
           Flink's Join and GroupAggregate print it, measured: changelogMode=[I], stateTtlHints=...) */
        const char *terms = paren ? paren + 1 : "";
        size_t plen = paren ? strlen(paren) : 0, len = plen > 2 ? plen - 2 : 0;
        const char *hints = NULL;
        for (const char *h = strstr(terms, ", stateTtlHints=["); h && h < terms + len; h = strstr(h + 1, ", stateTtlHints=["))
            hints = h;
        size_t own = hints ? (size_t)(hints - terms) : len;
        if (own) {
            if (any) wsb_puts(out, ", ");
            wsb_appendn(out, terms, own);
            any = true;
        }
        if (cm) {
            if (any) wsb_puts(out, ", ");
            wsb_puts(out, "changelogMode=[");
            ex_changelog(ex_changelog_mode(t->x, r), out);
            wsb_putc(out, ']');
        }
        if (hints) wsb_appendn(out, hints, len - own);
        wsb_putc(out, ')');
    } else {
        wsb_puts(out, s);
    }
    wsb_free(&line);
    if (t->d == EXD_REL && (t->details & AX_ESTIMATED_COST)) {
        Cost c = cost_of(t->x, r);
        wsb_puts(out, ": rowcount = ");
        java_double(out, c.rowcount);
        wsb_puts(out, ", cumulative cost = {");
        java_double(out, c.rows);
        wsb_puts(out, " rows, ");
        java_double(out, c.cpu);
        wsb_puts(out, " cpu, ");
        java_double(out, c.io);
        wsb_puts(out, " io, ");
        java_double(out, c.network);
        wsb_puts(out, " network, ");
        java_double(out, c.memory);
        wsb_puts(out, " memory}");
    }
    if (reuse_id) wsb_printf(out, "(reuse_id=[%d])", reuse_id);
    wsb_putc(out, '\n');
    if (ex_reuse_stopped(t->reuse, r)) return;
    const WRel **ins = WA_ARRAY(t->x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
    int n = ex_inputs(t->x, r, ins);
    if (depth >= 254) return;
    if (n == 1 && r->kind == WR_OVER_AGG && wrel_over(r)->batch && r->nkeys > 0 &&
        (ins[0]->kind == WR_SORT || (ins[0]->kind == WR_OVER_AGG && wrel_over(ins[0])->batch))) {
        /* Flink's batch plan keeps the sorted partitions with a forward exchange (the
           ForwardHashExchangeProcessor); weir chains the two operators */
        last[depth + 1] = true;
        prefix(out, last, depth + 1);
        wsb_puts(out, "Exchange(distribution=[forward]");
        if (t->d == EXD_REL && (t->details & AX_CHANGELOG_MODE) && !t->x->batch) wsb_puts(out, ", changelogMode=[I]");
        wsb_puts(out, ")\n");
        depth++;
    }
    for (int i = 0; i < n; i++) {
        last[depth + 1] = i == n - 1;
        tree(t, ins[i], last, depth + 1);
    }
}

/* Flink's ExecNodePlanDumper.dagToString: inputs first, each reused node its own block (then a
   border the later blocks stop at, printing Reused), each root (a sink) a block. */
static void dag_blocks(TreeCtx *t, ExReuse *u, const WRel *const *tops, int ntops, const WRel *r, int *visits,
                       int *blocks, bool *last, int depth)
{
    if (depth > 2000) return;
    int k = 0;
    while (k < t->x->n && t->x->nodes[k].rel != r) k++;
    bool first = true;
    if (k < t->x->n) first = ++visits[k] == 1;
    if (first) {
        const WRel **ins = WA_ARRAY(t->x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
        int nin = ex_inputs(t->x, r, ins);
        for (int i = 0; i < nin; i++) dag_blocks(t, u, tops, ntops, ins[i], visits, blocks, last, depth + 1);
    }
    int rid = ex_reuse_id(u, r);
    bool root = false;
    for (int i = 0; i < ntops; i++) root |= tops[i] == r;
    if (!root && !(rid && first)) return;
    int ui = -1;
    for (int i = 0; i < u->n; i++) if (u->node[i] == r) ui = i;
    if (ui >= 0) u->first[ui] = true;
    if ((*blocks)++) wsb_putc(t->out, '\n');
    last[0] = true;
    tree(t, r, last, 0);
    if (ui >= 0) {
        u->stop[u->nstop++] = r;
        u->first[ui] = false;
    }
}

/* ---------------- advice ---------------- */

typedef struct Advice {
    const WRel *node;       /* NULL = query level */
    const char *kind;       /* ADVICE / WARNING */
    char *text;
} Advice;

typedef struct AdviceList { int n, cap; Advice *items; WArena *a; } AdviceList;

static void add_advice(AdviceList *l, const WRel *node, const char *kind, const char *text)
{
    /* a node shared by sub-plan reuse is reached once per consumer: its advice counts once */
    for (int i = 0; i < l->n; i++)
        if (node && l->items[i].node == node && !strcmp(l->items[i].kind, kind) && !strcmp(l->items[i].text, text))
            return;
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 8;
        Advice *na = WA_ARRAY(l->a, Advice, nc);
        if (l->n) memcpy(na, l->items, sizeof *na * (size_t)l->n);
        l->items = na;
        l->cap = nc;
    }
    l->items[l->n++] = (Advice){node, kind, wa_strdup(l->a, text)};
}

/* Do nodes a and b have the same advices (kinds and texts, in order)? */
static bool same_advice(const AdviceList *l, const WRel *a, const WRel *b)
{
    int i = 0, k = 0;
    for (;;) {
        while (i < l->n && l->items[i].node != a) i++;
        while (k < l->n && l->items[k].node != b) k++;
        if (i == l->n || k == l->n) return i == l->n && k == l->n;
        if (strcmp(l->items[i].kind, l->items[k].kind) || strcmp(l->items[i].text, l->items[k].text)) return false;
        i++;
        k++;
    }
}

static bool agg_splittable(const WRel *r)
{
    const WRelAgg *ag = wrel_agg(r);
    for (int i = 0; i < ag->naggs; i++) {
        switch (ag->aggs[i].kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT: case WAGG_SUM: case WAGG_SUM0: case WAGG_MIN: case WAGG_MAX:
        case WAGG_AVG: case WAGG_BOOL_AND: case WAGG_BOOL_OR: case WAGG_LISTAGG: case WAGG_SINGLE_VALUE:
            break;
        default:
            return false;
        }
        /* (DISTINCT calls merge through their value maps: Flink advises two-phase for them too,
           measured with COUNT(DISTINCT x) and LISTAGG) */
    }
    return true;
}

static bool source_unbounded(const WRel *r)
{
    const WTable *t = r->kind == WR_SCAN ? wrel_scan(r)->table : NULL;
    if (t) {
        const WConnCaps *caps = wconnector_caps(&t->options);
        return caps && caps->unbounded && caps->unbounded(&t->options);
    }
    for (int i = 0; i < r->ninputs; i++) if (source_unbounded(r->inputs[i])) return true;
    return false;
}

static const char *ttl_text(WArena *a, int64_t ms)
{
    char buf[48];
    wduration_format(ms, buf, sizeof buf);
    return wa_strdup(a, buf);
}

static const WRel *below_exchanges(const WRel *r)
{
    while (r->kind == WR_EXCHANGE || (r->kind == WR_CALC && !wrel_calc(r)->cond)) r = r->inputs[0];
    return r;
}

static int rowtime_col(const WRel *r)
{
    for (int i = 0; i < r->out.n; i++)
        if (wtype_is_timestamp(r->out.types[i]) && r->out.types[i]->time_attr == WTA_ROWTIME) return i;
    return -1;
}

static bool keys_cover(int nkeys, const int *keys, int nu, const int *u)
{
    for (int i = 0; i < nu; i++) {
        bool in = false;
        for (int k = 0; k < nkeys; k++) if (keys[k] == u[i]) in = true;
        if (!in) return false;
    }
    return true;
}

static void collect_advice(const ExCtx *x, const WRel *r, AdviceList *l, int depth)
{
    if (depth > 1000) return;
    WArena *a = x->p->arena;
    const WOptions *cfg = x->p->config;
    if (r->kind == WR_GROUP_AGG && agg_splittable(r)) {
        WError tmp;
        werr_clear(&tmp);
        bool mb = false;
        int64_t lat = 0, size = -1;
        wopts_get_bool(cfg, "table.exec.mini-batch.enabled", false, &mb, &tmp);
        wopts_get_duration_ms(cfg, "table.exec.mini-batch.allow-latency", 0, &lat, &tmp);
        wopts_get_long(cfg, "table.exec.mini-batch.size", -1, &size, &tmp);
        const char *strategy = wopts_get(cfg, "table.optimizer.agg-phase-strategy");
        WStrBuf b;
        wsb_init(&b);
        bool any = false;
        if (strategy && !strcasecmp(strategy, "ONE_PHASE")) {
            wsb_printf(&b, "%s'table.optimizer.agg-phase-strategy' to 'AUTO'", any ? ", " : "");
            any = true;
        }
        if (!mb) { wsb_printf(&b, "%s'table.exec.mini-batch.enabled' to 'true'", any ? ", " : ""); any = true; }
        if (lat <= 0) {
            wsb_printf(&b, "%s'table.exec.mini-batch.allow-latency' to a positive long value", any ? ", " : "");
            any = true;
        }
        if (size <= 0) {
            wsb_printf(&b, "%s'table.exec.mini-batch.size' to a positive long value", any ? ", " : "");
            any = true;
        }
        if (any) {
            char *t = wa_sprintf(a, "You might want to enable local-global two-phase optimization by configuring (%s).",
                                 b.buf);
            add_advice(l, r, "ADVICE", t);
        }
        wsb_free(&b);
    }
    /* weir's state advice: state that never expires on an unbounded input */
    bool stateful = r->kind == WR_GROUP_AGG || r->kind == WR_JOIN || r->kind == WR_DEDUP ||
                    r->kind == WR_RANK || r->kind == WR_SORT_LIMIT || r->kind == WR_CHANGELOG_NORMALIZE;
    const WRelJoin *rj = r->kind == WR_JOIN ? wrel_join(r) : NULL;     /* NULL unless a Join */
    bool never = rj ? (rj->ttl_left_ms == 0 || rj->ttl_right_ms == 0) : r->ttl_ms == 0;
    if (stateful && never && source_unbounded(r)) {
        const char *state = r->kind == WR_GROUP_AGG ? "groupAggregateState"
                          : rj ? (rj->ttl_left_ms == 0 && rj->ttl_right_ms == 0 ? "leftState and rightState"
                                  : rj->ttl_left_ms == 0 ? "leftState" : "rightState")
                          : r->kind == WR_DEDUP ? "deduplicateState"
                          : r->kind == WR_RANK || r->kind == WR_SORT_LIMIT ? "rankState" : "changelogNormalizeState";
        char *t = wa_sprintf(a, "The state of %s (%s) never expires: 'table.exec.state.ttl' is 0 ms and no "
                                "STATE_TTL hint applies, while its input is unbounded, so the state grows with "
                                "every new key. Consider setting 'table.exec.state.ttl' or a STATE_TTL hint.",
                             ex_rel_name(r), state);
        add_advice(l, r, "WARNING", t);
    }
    /* weir's state advice: a hinted join side that no hint key can reach */
    const WStateTtlHint *h = ex_hint(x, r);
    if (h && rj && (h->left || h->right)) {
        for (int side = 0; side < 2; side++) {
            bool unnamed = side == 0 ? h->left_unnamed : h->right_unnamed;
            const char *v = side == 0 ? h->left : h->right;
            if (!unnamed || v) continue;
            char *t = wa_sprintf(a, "The %s hint does not reach the %s input of this Join: that input is the result "
                                    "of another join and has no table name or alias, so its state (%s) keeps the "
                                    "job default 'table.exec.state.ttl' (%s). Hint keys only match tables, views "
                                    "or aliased subqueries that are direct inputs of a join.",
                                 h->hint_name, side == 0 ? "left" : "right", side == 0 ? "leftState" : "rightState",
                                 ttl_text(a, side == 0 ? rj->ttl_left_ms : rj->ttl_right_ms));
            add_advice(l, r, "ADVICE", t);
        }
    }
    /* weir's state advice: a regular join against a versioned (primary-keyed, updating) table
       from an append-only input with a rowtime: an event-time temporal join keeps far less */
    if (rj && !rj->semi && !rj->anti && (rj->type == AJ_INNER || rj->type == AJ_LEFT)) {
        const WRel *lt = below_exchanges(r->inputs[0]), *rt = below_exchanges(r->inputs[1]);
        int tcol = rowtime_col(lt);
        if (lt->changelog == WCM_INSERT && tcol >= 0 && rt->changelog != WCM_INSERT && rt->nunique > 0 &&
            keys_cover(r->nkeys, rj->right_keys, rt->nunique, rt->unique)) {
            char *t = wa_sprintf(a, "This regular join keeps every row of both inputs in state, but its right input "
                                    "is a versioned table (it has a unique key covered by the join key and updates) "
                                    "and its left input is append-only with the time attribute %s. An event-time "
                                    "temporal join (JOIN ... FOR SYSTEM_TIME AS OF %s) joins each row with the "
                                    "version valid at its time and drops versions the watermark has passed.",
                                 lt->out.names[tcol], lt->out.names[tcol]);
            add_advice(l, r, "ADVICE", t);
        }
    }
    const WRel **ins = WA_ARRAY(a, const WRel *, r->ninputs ? r->ninputs : 1);
    int n = ex_inputs(x, r, ins);
    for (int i = 0; i < n; i++) collect_advice(x, ins[i], l, depth + 1);
}

/* Advice from a running job's figures (WExplainAdvisor): asked for every node once, by exec node id. */
typedef struct JobAdviceCtx { AdviceList *l; const WRel *node; } JobAdviceCtx;

static void add_job_advice(void *actx, const char *kind, const char *text)
{
    JobAdviceCtx *c = actx;
    add_advice(c->l, c->node, wa_strdup(c->l->a, kind), wa_strdup(c->l->a, text));
}

static void job_advice(const ExCtx *x, const WRel *r, const WExplainAdvisor *adv, AdviceList *l, const WRel **seen,
                       int *nseen, int depth)
{
    if (depth > 1000) return;
    for (int i = 0; i < *nseen; i++) if (seen[i] == r) return;
    if (*nseen < 4096) seen[(*nseen)++] = r;
    if (r->id > 0) {
        JobAdviceCtx c = {.l = l, .node = r};
        adv->advise(adv->ctx, r->id, add_job_advice, &c);
    }
    const WRel **ins = WA_ARRAY(x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
    int n = ex_inputs(x, r, ins);
    for (int i = 0; i < n; i++) job_advice(x, ins[i], adv, l, seen, nseen, depth + 1);
}

/* weir's advice: with max parallelism not a multiple of parallelism, keyed subtasks get unequal
   numbers of key groups (../shared/seeds/002, trap 1). Query level, once. */
static bool has_hash_exchange(const WRel *r)
{
    if (r->kind == WR_EXCHANGE && r->nkeys > 0) return true;
    for (int i = 0; i < r->ninputs; i++) if (has_hash_exchange(r->inputs[i])) return true;
    return false;
}

static void skew_advice(const ExCtx *x, const WRel *const *roots, int n, AdviceList *l)
{
    WError tmp;
    werr_clear(&tmp);
    int64_t par = 1, maxp = 0;
    wopts_get_long(x->p->config, "parallelism.default", 1, &par, &tmp);
    wopts_get_long(x->p->config, "pipeline.max-parallelism", 0, &maxp, &tmp);
    if (par <= 1 || par > 32768) return;
    bool keyed = false;
    for (int i = 0; i < n && !keyed; i++) keyed = has_hash_exchange(roots[i]);
    if (!keyed) return;
    bool dflt = maxp <= 0;
    if (dflt) maxp = wflink_default_max_parallelism((int)par);
    if (maxp % par == 0) return;
    int64_t lo = maxp / par, hi = lo + 1, nhi = maxp % par;
    char *t = wa_sprintf(l->a, "Key groups are unevenly spread: max parallelism %lld%s is not a multiple of "
                               "parallelism %lld, so %lld keyed subtask(s) own %lld key groups and %lld own %lld "
                               "(up to %lld%% more keys, state and work for the former). Set "
                               "'pipeline.max-parallelism' to a multiple of the parallelism, e.g. %lld.",
                         (long long)maxp, dflt ? " (the default for this parallelism)" : "", (long long)par,
                         (long long)nhi, (long long)hi, (long long)(par - nhi), (long long)lo,
                         lo ? (long long)(100 * (hi - lo) / lo) : 100LL,
                         (long long)(((maxp + par - 1) / par) * par));
    add_advice(l, NULL, "WARNING", t);
}

/* ---------------- JSON execution plan ---------------- */

typedef struct SNode { const WRel *rel; int sid; int par; } SNode;

static int stream_id(SNode *s, int n, const WRel *r)
{
    for (int i = 0; i < n; i++) if (s[i].rel == r) return s[i].sid;
    return 0;
}

/* One operator of the stream graph: type = contents = name (the operators a sink V2 adds). */
static void named_operator(json_t *arr, int sid, const char *name, int parallelism, int pred, const char *ship)
{
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(sid));
    json_object_set_new(j, "type", json_string(name));
    json_object_set_new(j, "pact", json_string("Operator"));
    json_object_set_new(j, "contents", json_string(name));
    json_object_set_new(j, "parallelism", json_integer(parallelism));
    json_t *preds = json_array();
    json_t *e = json_object();
    json_object_set_new(e, "id", json_integer(pred));
    json_object_set_new(e, "ship_strategy", json_string(ship));
    json_object_set_new(e, "side", json_string("second"));
    json_array_append_new(preds, e);
    json_object_set_new(j, "predecessors", preds);
    json_array_append_new(arr, j);
}

static int stream_id(SNode *s, int n, const WRel *r);

/* The stream operators that feed a consumer of r, as (id, ship strategy) entries of `preds`: an
   Exchange is the partitioner of the edge (HASH, or GLOBAL for a single one), a Union a virtual
   node whose inputs feed the consumer directly (Flink's StreamGraph has no operator for either). */
static void add_preds(const ExCtx *x, const WRel *r, const char *ship, SNode *s, int n, json_t *preds, int depth)
{
    if (depth > 2000) return;
    if (r->kind == WR_EXCHANGE || r->kind == WR_UNION) {
        if (r->kind == WR_EXCHANGE) ship = wrel_exchange(r)->single || r->nkeys == 0 ? "GLOBAL" : "HASH";
        const WRel **ins = WA_ARRAY(x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
        int nin = ex_inputs(x, r, ins);
        for (int i = 0; i < nin; i++) add_preds(x, ins[i], ship, s, n, preds, depth + 1);
        return;
    }
    /* behind a source with its own scan.parallelism that emits updates: a keyBy on its key */
    if (r->kind == WR_SCAN && !strcmp(ship, "FORWARD") && wscan_keyed_by_pk(r)) ship = "HASH";
    json_t *e = json_object();
    json_object_set_new(e, "id", json_integer(stream_id(s, n, r)));
    json_object_set_new(e, "ship_strategy", json_string(ship));
    json_object_set_new(e, "side", json_string("second"));
    json_array_append_new(preds, e);
}

/* One operator of the stream graph with its own contents and its predecessors (may be empty). */
static int stream_op_preds(json_t *arr, int sid, const char *type, const char *pact, const char *contents,
                           int parallelism, json_t *preds)
{
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(sid));
    json_object_set_new(j, "type", json_string(type));
    json_object_set_new(j, "pact", json_string(pact));
    json_object_set_new(j, "contents", json_string(contents));
    json_object_set_new(j, "parallelism", json_integer(parallelism));
    if (preds && json_array_size(preds)) json_object_set_new(j, "predecessors", preds);
    else json_decref(preds);
    json_array_append_new(arr, j);
    return sid;
}

static json_t *one_pred(int id, const char *ship)
{
    json_t *preds = json_array(), *e = json_object();
    json_object_set_new(e, "id", json_integer(id));
    json_object_set_new(e, "ship_strategy", json_string(ship));
    json_object_set_new(e, "side", json_string("second"));
    json_array_append_new(preds, e);
    return preds;
}

static int sid_par(const SNode *s, int n, int sid)
{
    for (int i = 0; i < n; i++) if (s[i].sid == sid) return s[i].par > 0 || s[i].par == -1 ? s[i].par : 1;
    return 1;
}

/* The parallelism an operator fed FORWARD by stream node sid inherits: its own, except a table
   source's: the default (plan/scan_parallelism.h). */
static int sid_fed_par(const SNode *s, int n, int sid, int dflt)
{
    for (int i = 0; i < n; i++)
        if (s[i].sid == sid && s[i].rel && s[i].rel->kind == WR_SCAN) return dflt;
    return sid_par(s, n, sid);
}

/* The parallelism Flink's translation gives an operator fed by `preds`: its inputs' over forward
   edges, 1 after a global exchange, the default after a keyBy. */
static int fed_parallelism(json_t *preds, const SNode *s, int n, int dflt)
{
    size_t i;
    json_t *e;
    bool all_fwd = true, all_global = json_array_size(preds) > 0;
    int maxp = 0;
    json_array_foreach(preds, i, e) {
        const char *ship = json_string_value(json_object_get(e, "ship_strategy"));
        int pp = sid_fed_par(s, n, (int)json_integer_value(json_object_get(e, "id")), dflt);
        if (strcmp(ship, "FORWARD") != 0) all_fwd = false;
        else if (pp > maxp) maxp = pp;
        if (strcmp(ship, "GLOBAL") != 0) all_global = false;
    }
    if (all_global) return 1;
    return all_fwd && maxp > 0 ? maxp : dflt;
}

/* A forward edge between different parallelisms is a rebalance (Flink's StreamGraph). */
static void rebalance_edges(json_t *preds, const SNode *s, int n, int p)
{
    size_t i;
    json_t *e;
    json_array_foreach(preds, i, e) {
        const char *ship = json_string_value(json_object_get(e, "ship_strategy"));
        if (!strcmp(ship, "FORWARD") && sid_par(s, n, (int)json_integer_value(json_object_get(e, "id"))) != p)
            json_object_set_new(e, "ship_strategy", json_string("REBALANCE"));
    }
}

static void sink_nodes(const ExCtx *x, const WRel *r, const WRel *in, int id, SNode *s, int *n, int cap, json_t *arr,
                       int parallelism)
{
    WArena *a = x->p->arena;
    const WRelSink *sk = wrel_sink(r);
    if (*n + 5 > cap) return;
    const WRel *mat = r->ninputs == 1 && r->inputs[0]->kind == WR_SINK_MATERIALIZER ? r->inputs[0] : NULL;
    WStrBuf d;
    wsb_init(&d);
    bool enforce = wsink_constraint_digest(r, x->p->config, &d);
    /* a materializer's keyBy (folded in the plan, view.c) is the edge into the materializer */
    json_t *preds = json_array();
    add_preds(x, in, mat && !enforce ? "HASH" : "FORWARD", s, *n, preds, 0);
    const int dflt = parallelism;
    int chain_p = fed_parallelism(preds, s, *n, dflt);      /* the sink's input side */
    /* the writer (and a materializer) run at sink.parallelism, else at the input's parallelism */
    int sink_p = chain_p;
    int64_t sp = 0;
    WError tmp;
    werr_clear(&tmp);
    if (sk->table && wopts_get_long(&sk->table->options, "sink.parallelism", 0, &sp, &tmp) && sp > 0 &&
        sp <= 32768)
        sink_p = (int)sp;
    parallelism = chain_p;
    if (enforce) {
        rebalance_edges(preds, s, *n, chain_p);
        int sid = *n + 1;
        s[(*n)++] = (SNode){NULL, sid, chain_p};
        stream_op_preds(arr, sid, wa_sprintf(a, "ConstraintEnforcer[%d]", id), "Operator",
                        wa_sprintf(a, "[%d]:%s", id, d.buf), chain_p, preds);
        preds = one_pred(sid, mat ? "HASH" : "FORWARD");
    }
    wsb_free(&d);
    if (mat) {
        const WRelSink *mk = wrel_sink(mat);
        WStrBuf pk;
        wsb_init(&pk);
        for (int k = 0; k < mat->nkeys; k++)
            wsb_printf(&pk, "%s%s", k ? ", " : "", mk->key_names ? mk->key_names[k]
                                                   : mat->keys[k] < mat->out.n ? mat->out.names[mat->keys[k]] : "?");
        if (mk->conflict == ACF_ERROR || mk->conflict == ACF_NOTHING) {
            /* Flink 2.3: the compacting materializer is fed by a WatermarkTimestampAssigner */
            int aid = *n + 1;
            s[(*n)++] = (SNode){NULL, aid, sink_p};
            stream_op_preds(arr, aid, wa_sprintf(a, "WatermarkTimestampAssigner[%d]", id), "Operator",
                            wa_sprintf(a, "[%d]:WatermarkTimestampAssigner", id), sink_p, preds);
            preds = one_pred(aid, "FORWARD");
        }
        int sid = *n + 1;
        s[(*n)++] = (SNode){NULL, sid, sink_p};
        stream_op_preds(arr, sid, wa_sprintf(a, "SinkMaterializer[%d]", id), "Operator",
                        wa_sprintf(a, "[%d]:SinkMaterializer(pk=[%s])", id, pk.buf ? pk.buf : ""), sink_p, preds);
        preds = one_pred(sid, "FORWARD");
        parallelism = sink_p;
        wsb_free(&pk);
    }
    /* a keyBy on the primary key (keyed shuffle) or a rebalance when the writer's parallelism
       differs from its input's */
    const char *edge = wsink_keyed_shuffle(r, x->p->config, parallelism, sink_p) ? "HASH" : NULL;
    size_t pi;
    json_t *pe;
    if (edge) json_array_foreach(preds, pi, pe) json_object_set_new(pe, "ship_strategy", json_string(edge));
    rebalance_edges(preds, s, *n, sink_p);
    parallelism = sink_p;
    int sid = *n + 1;
    if (wrel_sink_writer(r)) {
        s[(*n)++] = (SNode){r, sid, parallelism};
        const char *w = wa_sprintf(a, "%s[%d]: Writer", sk->table->name, id);
        stream_op_preds(arr, sid, w, "Operator", w, parallelism, preds);
        return;
    }
    if (wrel_sink_file_writer(r) && x->batch) {
        s[(*n)++] = (SNode){r, sid, parallelism};
        stream_op_preds(arr, sid, "Sink: Filesystem", "Data Sink", "Sink: Filesystem", parallelism, preds);
        return;
    }
    if (!wrel_sink_file_writer(r)) {
        WStrBuf dg;
        wsb_init(&dg);
        ex_digest(x, r, EXD_EXEC, &dg);
        s[(*n)++] = (SNode){r, sid, parallelism};
        stream_op_preds(arr, sid, wa_sprintf(a, "Sink: %s[%d]", sk->table ? sk->table->name : "collect", id),
                        "Data Sink", wa_sprintf(a, "[%d]:%s", id, dg.buf ? dg.buf : ""), parallelism, preds);
        wsb_free(&dg);
        return;
    }
    int rowtime = -1;
    for (int i = 0; i < in->out.n; i++)
        if (wtype_is_timestamp(in->out.types[i]) && in->out.types[i]->time_attr == WTA_ROWTIME) rowtime = i;
    if (rowtime >= 0) {
        s[(*n)++] = (SNode){NULL, sid, parallelism};
        stream_op_preds(arr, sid, wa_sprintf(a, "StreamRecordTimestampInserter[%d]", id), "Operator",
                        wa_sprintf(a, "[%d]:StreamRecordTimestampInserter(rowtime field: %d)", id, rowtime),
                        parallelism, preds);
        preds = one_pred(sid, "FORWARD");
    }
    int writer = *n + 1;
    s[(*n)++] = (SNode){NULL, writer, parallelism};
    bool compact = wrel_sink_compaction(r);
    const char *wname = compact ? "streaming-writer" : "StreamingFileWriter";
    stream_op_preds(arr, writer, wname, "Operator", wname, parallelism, preds);
    int last = writer, last_p = parallelism;
    if (compact) {
        /* auto-compaction: the writers' files go to one coordinator, its units to the compactors */
        int co = *n + 1;
        s[(*n)++] = (SNode){NULL, co, 1};
        named_operator(arr, co, "compact-coordinator", 1, writer, parallelism == 1 ? "FORWARD" : "REBALANCE");
        int cp = *n + 1;
        s[(*n)++] = (SNode){NULL, cp, parallelism};
        named_operator(arr, cp, "compact-operator", parallelism, co, "BROADCAST");
        last = cp;
    }
    if (wrel_sink_partition_committer(r)) {
        int pc = *n + 1;
        s[(*n)++] = (SNode){NULL, pc, 1};
        named_operator(arr, pc, "PartitionCommitter", 1, last, parallelism == 1 ? "FORWARD" : "REBALANCE");
        last = pc;
        last_p = 1;
    }
    int end = *n + 1;
    s[(*n)++] = (SNode){r, end, 1};
    named_operator(arr, end, "end: Writer", 1, last, last_p == 1 ? "FORWARD" : "REBALANCE");
}

static void stream_nodes(const ExCtx *x, const WRel *r, SNode *s, int *n, int cap, json_t *arr, int parallelism)
{
    if (stream_id(s, *n, r) || *n >= cap) return;
    const WRel **ins = WA_ARRAY(x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
    int nin = ex_inputs(x, r, ins);
    for (int i = 0; i < nin; i++) stream_nodes(x, ins[i], s, n, cap, arr, parallelism);
    if (r->kind == WR_EXCHANGE || r->kind == WR_UNION) return;  /* an edge's partitioner, a virtual node */
    ExNode *en = ex_node(x, r);
    int id = en ? en->id : 0;
    if (r->kind == WR_SINK && nin == 1) {
        sink_nodes(x, r, ins[0], id, s, n, cap, arr, parallelism);
        return;
    }
    int sid = *n + 1;
    s[(*n)++] = (SNode){r, sid, 0};
    WStrBuf d;
    wsb_init(&d);
    ex_digest(x, r, EXD_EXEC, &d);
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(sid));
    char *type;
    const char *pact = "Operator";
    if (r->kind == WR_SCAN || r->kind == WR_VALUES) {
        const WTable *t = r->kind == WR_SCAN ? wrel_scan(r)->table : NULL;
        type = wa_sprintf(x->p->arena, "Source: %s[%d]", t ? t->name : "Values", id);
        pact = "Data Source";
    } else if (r->kind == WR_SINK) {
        type = wa_sprintf(x->p->arena, "Sink: %s[%d]", wrel_sink(r)->table ? wrel_sink(r)->table->name : "collect", id);
        pact = "Data Sink";
    } else {
        type = wa_sprintf(x->p->arena, "%s[%d]", ex_rel_name(r), id);
    }
    json_object_set_new(j, "type", json_string(type));
    json_object_set_new(j, "pact", json_string(pact));
    json_object_set_new(j, "contents", json_string(wa_sprintf(x->p->arena, "[%d]:%s", id, d.buf ? d.buf : "")));
    wsb_free(&d);
    /* Flink's parallelism: VALUES 1, a scan its scan.parallelism, others their inputs' (fed_parallelism) */
    int p = parallelism;
    json_t *preds = json_array();
    for (int i = 0; i < nin; i++) add_preds(x, ins[i], "FORWARD", s, *n, preds, 0);
    if (r->kind == WR_VALUES) {
        p = 1;
    } else if (r->kind == WR_SCAN) {
        if (wscan_parallelism(r) > 0) p = wscan_parallelism(r);
    } else if (nin) {
        p = fed_parallelism(preds, s, *n, parallelism);
        rebalance_edges(preds, s, *n, p);
    }
    assert(s[sid - 1].sid == sid);
    s[sid - 1].par = p;
    json_object_set_new(j, "parallelism", json_integer(p));
    if (nin) json_object_set_new(j, "predecessors", preds);
    else json_decref(preds);
    json_array_append_new(arr, j);
}

/* ---------------- sections ---------------- */

/* Flink translates the plan to operators for EXPLAIN too: mini-batch operators need a size. */
static bool needs_minibatch_size(const WRel *r, int depth)
{
    if (depth > 2000) return false;
    if (r->kind == WR_MINIBATCH_ASSIGNER && wrel_minibatch(r)->check_size) return true;
    for (int i = 0; i < r->ninputs; i++) if (needs_minibatch_size(r->inputs[i], depth + 1)) return true;
    return false;
}

static bool check_minibatch_size(WPlanCtx *p, WRel **roots, int n)
{
    bool need = false;
    for (int i = 0; i < n && !need; i++) need = needs_minibatch_size(roots[i], 0);
    if (!need) return true;
    int64_t size = -1;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_long(p->config, "table.exec.mini-batch.size", -1, &size, &tmp);
    if (size > 0) return true;
    return werr_set(p->err, WEXC_ILLEGAL_ARG,
                    "Key: 'table.exec.mini-batch.size' , default: -1 (fallback keys: []) must be > 0.");
}

bool wexplain_text(WPlanCtx *p, WRel **ast_roots, WRel **roots, int n, int details, WStrBuf *out)
{
    return wexplain_text_advised(p, ast_roots, roots, n, details, NULL, out);
}

bool wexplain_text_advised(WPlanCtx *p, WRel **ast_roots, WRel **roots, int n, int details,
                           const WExplainAdvisor *adv, WStrBuf *out)
{
    if (p->err && p->err->set) return false;
    if (!check_minibatch_size(p, roots, n)) return false;
    ExCtx x;
    if (!ex_ctx_init(&x, p, roots, n)) return false;
    bool batch = false;
    const char *mode = wopts_get(p->config, "execution.runtime-mode");
    if (mode && !strcasecmp(mode, "batch")) batch = true;
    if (batch && (details & AX_PLAN_ADVICE))
        return werr_set(p->err, WEXC_TABLE, "EXPLAIN PLAN_ADVICE is not supported under batch mode.");

    wsb_puts(out, "== Abstract Syntax Tree ==\n");
    for (int i = 0; i < n; i++) {
        ex_ast_tree(p, ast_roots ? ex_root(ast_roots[i]) : ex_root(roots[i]), out);
        wsb_putc(out, '\n');
    }
    bool advice = (details & AX_PLAN_ADVICE) != 0;
    wsb_puts(out, advice ? "== Optimized Physical Plan With Advice ==\n" : "== Optimized Physical Plan ==\n");
    AdviceList al = {.a = p->arena};
    TreeCtx t = {.x = &x, .d = EXD_REL, .details = details, .out = out};
    if (advice) {
        for (int i = 0; i < n; i++) collect_advice(&x, ex_skip(&x, ex_root(roots[i])), &al, 0);
        const WRel **rr = WA_ARRAY(p->arena, const WRel *, n ? n : 1);
        for (int i = 0; i < n; i++) rr[i] = ex_root(roots[i]);
        skew_advice(&x, rr, n, &al);
        if (adv && adv->advise) {
            const WRel **seen = WA_ARRAY(p->arena, const WRel *, 4096);
            int nseen = 0;
            for (int i = 0; i < n; i++) job_advice(&x, ex_skip(&x, ex_root(roots[i])), adv, &al, seen, &nseen, 0);
        }
        t.adv_node = WA_ARRAY(p->arena, const WRel *, al.n ? al.n : 1);
        t.adv_id = WA_ARRAY(p->arena, int, al.n ? al.n : 1);
        int next = 1;
        for (int i = 0; i < al.n; i++) {
            if (!al.items[i].node) continue;
            int id = 0;
            for (int k = 0; k < t.nadv; k++) if (t.adv_node[k] == al.items[i].node) id = t.adv_id[k];
            if (!id) {
                /* nodes with the same advice share its id (Flink's advice lists all its nodes) */
                for (int k = 0; k < t.nadv && !id; k++)
                    if (same_advice(&al, t.adv_node[k], al.items[i].node)) id = t.adv_id[k];
                t.adv_node[t.nadv] = al.items[i].node;
                t.adv_id[t.nadv++] = id ? id : next++;
            }
        }
    }
    bool last[256];
    x.costs = (details & AX_ESTIMATED_COST) != 0;
    for (int i = 0; i < n; i++) {
        last[0] = true;
        tree(&t, ex_skip(&x, ex_root(roots[i])), last, 0);
        wsb_putc(out, '\n');
    }
    x.costs = false;
    if (advice) {
        if (al.n == 0) {
            wsb_puts(out, "No available advice...\n");
        } else {
            /* node-level advice by node id, several advices of one node share its id */
            for (int k = 0; k < t.nadv; k++)
                for (int i = 0; i < al.n; i++)
                    if (al.items[i].node == t.adv_node[k] && (k == 0 || t.adv_id[k] > t.adv_id[k - 1]))
                        wsb_printf(out, "advice[%d]: [%s] %s\n", t.adv_id[k], al.items[i].kind, al.items[i].text);
            int next = t.nadv + 1;
            for (int i = 0; i < al.n; i++)
                if (!al.items[i].node) wsb_printf(out, "advice[%d]: [%s] %s\n", next++, al.items[i].kind, al.items[i].text);
        }
        wsb_putc(out, '\n');
    }
    wsb_puts(out, "== Optimized Execution Plan ==\n");
    TreeCtx e = {.x = &x, .d = EXD_EXEC, .details = 0, .out = out};
    const WRel **tops = WA_ARRAY(p->arena, const WRel *, n ? n : 1);
    for (int i = 0; i < n; i++) tops[i] = ex_skip(&x, ex_root(roots[i]));
    ExReuse reuse;
    ex_reuse_init(&x, tops, n, &reuse);
    if (reuse.n) e.reuse = &reuse;
    if (n == 1 || !reuse.n) {
        for (int i = 0; i < n; i++) {
            if (i) wsb_putc(out, '\n');
            last[0] = true;
            tree(&e, tops[i], last, 0);
        }
    } else {
        int blocks = 0;
        int *visits = WA_ARRAY(p->arena, int, x.n + 1);
        for (int i = 0; i < n; i++) dag_blocks(&e, &reuse, tops, n, tops[i], visits, &blocks, last, 0);
    }
    if (details & AX_JSON_EXECUTION_PLAN) {
        int64_t par = 1;
        WError tmp;
        werr_clear(&tmp);
        wopts_get_long(p->config, "parallelism.default", 1, &par, &tmp);
        if (par < 1 && par != -1) par = 1;  /* -1 (the cluster's default) is shown as Flink shows it */
        json_t *doc = json_object();
        json_t *arr = json_array();
        int cap = x.n + 5 * n + 1, ns = 0;
        SNode *s = WA_ARRAY(p->arena, SNode, cap);
        for (int i = 0; i < n; i++) stream_nodes(&x, ex_skip(&x, ex_root(roots[i])), s, &ns, cap, arr, (int)par);
        /* Flink's JSONGenerator lists the stream nodes by id with the sinks last (a statement
           set's first sink comes after the operators of the later INSERTs) */
        json_t *sorted = json_array();
        for (int pass = 0; pass < 2; pass++) {
            size_t k;
            json_t *node;
            json_array_foreach(arr, k, node) {
                const char *pact = json_string_value(json_object_get(node, "pact"));
                if ((pact && !strcmp(pact, "Data Sink")) == (pass == 1)) json_array_append(sorted, node);
            }
        }
        json_decref(arr);
        arr = sorted;
        json_object_set_new(doc, "nodes", arr);
        wsb_puts(out, "\n== Physical Execution Plan ==\n");
        wjson_pretty(doc, out);
        json_decref(doc);
    }
    return true;
}
