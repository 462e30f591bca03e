/*
 * update_before.c — Flink's UpdateKindTrait, top-down: which nodes must send UPDATE_BEFORE
 * (SatisfyUpdateKindTraitVisitor), DropUpdateBefore above a source whose UPDATE_BEFORE nobody
 * reads, and the changelog modes settled after the decision. Runs after the sink rules. What each
 * node kind asks of its inputs is its row of UB_KIND_OPS. See physical_internal.h.
 */
#include "physical_internal.h"

#include <assert.h>

/* What a parent needs of a node's updates (Flink's UpdateKindTrait): nothing (the node sends
   none), UPDATE_AFTER only, or UPDATE_BEFORE with UPDATE_AFTER. */
enum { UK_NONE, UK_ONLY_UA, UK_BEFORE_AFTER };

static bool has_updates(const WRel *r) { return (r->changelog & (WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER)) != 0; }

/* `want` for a child that sends updates, nothing for one that does not */
static int uk_for(const WRel *child, int want) { return has_updates(child) ? want : UK_NONE; }

/* The join's input `side` has a unique key that contains its join keys (Flink's
   inputUniqueKeyContainsJoinKey): then the join can work with UPDATE_AFTER only. */
static bool join_input_keyed(const WRel *j, int side)
{
    const WRel *in = j->inputs[side];
    const int *keys = side == 0 ? j->keys : wrel_join(j)->right_keys;
    if (in->nunique < 0 || !keys) return false;
    for (int k = 0; k < j->nkeys; k++) {
        bool found = false;
        for (int u = 0; u < in->nunique && !found; u++) found = in->unique[u] == keys[k];
        if (!found) return false;
    }
    return true;
}

/* A compacting materializer (ON CONFLICT DO ERROR / NOTHING, under FORCE) whose sink key contains
   the input's upsert key: rows of one key replace each other, no UPDATE_BEFORE needed (measured:
   Flink 2.3 plans [I,UA] below it, [I,UB,UA] when the key differs). */
static bool compacts_by_upsert_key(const WRel *m)
{
    if (m->kind != WR_SINK_MATERIALIZER || !(wrel_sink(m)->conflict == ACF_ERROR || wrel_sink(m)->conflict == ACF_NOTHING))
        return false;
    const WRel *in = m->inputs[0];
    if (in->nunique <= 0) return false;
    for (int u = 0; u < in->nunique; u++) {
        bool found = false;
        for (int k = 0; k < m->nkeys && !found; k++) found = m->keys[k] == in->unique[u];
        if (!found) return false;
    }
    return true;
}

/* The Calc's condition reads only columns of its input's unique key. */
static bool cond_on_unique_key(const WRel *calc)
{
    const WRel *in = calc->inputs[0];
    int n = in->out.n;
    if (in->nunique <= 0 || n <= 0 || n > 4096) return false;
    bool used[4096] = {0};
    wplan_mark_refs(wrel_calc(calc)->cond, used, n);
    for (int i = 0; i < n; i++) {
        if (!used[i]) continue;
        bool key = false;
        for (int u = 0; u < in->nunique && !key; u++) key = in->unique[u] == i;
        if (!key) return false;
    }
    return true;
}

static bool satisfy_ub(WRel *r, int req, bool apply);

static bool ub_sink_materializer(WRel *r, int req, bool apply)
{
    /* see compacts_by_upsert_key */
    if (compacts_by_upsert_key(r))
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_ONLY_UA), apply);
    return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
}

static bool ub_sink(WRel *r, int req, bool apply)
{
    return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
}

static bool ub_changelog_normalize(WRel *r, int req, bool apply)
{
    /* emits either; reads its upsert input without UPDATE_BEFORE */
    return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_ONLY_UA), apply);
}

/* GroupAggregate, WindowAggregate, OverAggregate, Deduplicate, batch Sort */
static bool ub_needs_both(WRel *r, int req, bool apply)
{
    /* emit either; need UPDATE_BEFORE from an updating input */
    return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
}

/* Rank, SortLimit / Limit */
static bool ub_rank(WRel *r, int req, bool apply)
{
    if (r->kind == WR_SORT_LIMIT && !r->nsort)
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
    /* UpdateFast reads UPDATE_AFTER only, Retract needs UPDATE_BEFORE */
    int want = wrel_rank(r)->strategy == WRANK_UPDATE_FAST ? UK_ONLY_UA : UK_BEFORE_AFTER;
    if (apply && r->changelog == WCM_INSERT) r->generate_update_before = false;
    return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], want), apply);
}

static bool ub_calc(WRel *r, int req, bool apply)
{
    /* a filter does not keep UPDATE_AFTER-only streams correct (a row leaving the filter
       would need a retraction): Flink refuses, and the parent falls back; unless it reads
       only the input's unique key, which every version of a key shares (measured on Flink
       2.3: "Calc(select=[id, name, amount], where=[>(id, 3)], changelogMode=[UA,D])" over an
       upsert-kafka source under an upsert sink) */
    if (req == UK_ONLY_UA && wrel_calc(r)->cond && !cond_on_unique_key(r)) return false;
    return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], req == UK_NONE ? UK_BEFORE_AFTER : req), apply);
}

static bool ub_join(WRel *r, int req, bool apply)
{
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        WRel *c = r->inputs[i];
        if (req == UK_ONLY_UA && has_updates(c) && !join_input_keyed(r, i)) return false;
        ok = satisfy_ub(c, uk_for(c, req == UK_ONLY_UA ? UK_ONLY_UA : UK_BEFORE_AFTER), apply);
    }
    return ok;
}

static bool ub_temporal_join(WRel *r, int req, bool apply)
{
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    if (!satisfy_ub(l, uk_for(l, req == UK_BEFORE_AFTER ? UK_BEFORE_AFTER : UK_ONLY_UA), apply)) return false;
    /* the versioned side: UPDATE_AFTER only if it can, else both */
    if (satisfy_ub(rt, uk_for(rt, UK_ONLY_UA), false))
        return satisfy_ub(rt, uk_for(rt, UK_ONLY_UA), apply);
    return satisfy_ub(rt, uk_for(rt, UK_BEFORE_AFTER), apply);
}

static bool ub_source(WRel *r, int req, bool apply)
{
    /* a source sending UPDATE_BEFORE that nobody needs gets a DropUpdateBefore above it */
    return true;
}

/* Any other node: its inputs deliver what is asked of it (both kinds when it is asked for none) */
static bool ub_forward(WRel *r, int req, bool apply)
{
    bool ok = true;
    for (int i = 0; i < r->ninputs && ok; i++)
        ok = satisfy_ub(r->inputs[i], uk_for(r->inputs[i], req == UK_NONE ? UK_BEFORE_AFTER : req), apply);
    return ok;
}

/* How each node kind satisfies an update-kind requirement (Flink's SatisfyUpdateKindTraitVisitor
   per RelNode type). A kind added to WRelKind needs its row here (wphys_update_before_ops_check
   fails otherwise); ub_forward is the explicit choice of a kind that only passes the requirement
   on. */
typedef struct UbKindOps {
    bool (*satisfy)(WRel *r, int req, bool apply);
} UbKindOps;

static const UbKindOps UB_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.satisfy = ub_source},
    [WR_VALUES] = {.satisfy = ub_forward},
    [WR_CALC] = {.satisfy = ub_calc},
    [WR_UNION] = {.satisfy = ub_forward},
    [WR_WATERMARK] = {.satisfy = ub_forward},
    [WR_SINK] = {.satisfy = ub_sink},
    [WR_EXCHANGE] = {.satisfy = ub_forward},
    [WR_GROUP_AGG] = {.satisfy = ub_needs_both},
    [WR_JOIN] = {.satisfy = ub_join},
    [WR_DEDUP] = {.satisfy = ub_needs_both},
    [WR_RANK] = {.satisfy = ub_rank},
    [WR_SORT_LIMIT] = {.satisfy = ub_rank},
    [WR_WINDOW_AGG] = {.satisfy = ub_needs_both},
    [WR_CHANGELOG_NORMALIZE] = {.satisfy = ub_changelog_normalize},
    [WR_DROP_UPDATE_BEFORE] = {.satisfy = ub_forward},
    [WR_SINK_MATERIALIZER] = {.satisfy = ub_sink_materializer},
    [WR_OVER_RANK] = {.satisfy = ub_forward},
    [WR_WINDOW_TVF] = {.satisfy = ub_forward},
    [WR_WINDOW_RANK] = {.satisfy = ub_forward},
    [WR_WINDOW_JOIN] = {.satisfy = ub_forward},
    [WR_INTERVAL_JOIN] = {.satisfy = ub_forward},
    [WR_TEMPORAL_JOIN] = {.satisfy = ub_temporal_join},
    [WR_LOOKUP_JOIN] = {.satisfy = ub_forward},
    [WR_OVER_AGG] = {.satisfy = ub_needs_both},
    [WR_MINIBATCH_ASSIGNER] = {.satisfy = ub_forward},
    [WR_LOCAL_GROUP_AGG] = {.satisfy = ub_forward},
    [WR_GLOBAL_GROUP_AGG] = {.satisfy = ub_forward},
    [WR_INCREMENTAL_GROUP_AGG] = {.satisfy = ub_forward},
    [WR_SORT] = {.satisfy = ub_needs_both},
    [WR_TEMPORAL_SORT] = {.satisfy = ub_forward},
    [WR_LOCAL_WINDOW_AGG] = {.satisfy = ub_forward},
    [WR_GLOBAL_WINDOW_AGG] = {.satisfy = ub_forward},
    [WR_EXPAND] = {.satisfy = ub_forward},
    [WR_REPLICATE_ROWS] = {.satisfy = ub_forward},
    [WR_CORRELATE] = {.satisfy = ub_forward},
    [WR_MATCH] = {.satisfy = ub_forward},
};

bool wphys_update_before_ops_check(WStrBuf *err)
{
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++)
        ok &= wrel_kind_op_check(UB_KIND_OPS[k].satisfy != NULL, k, "plan/update_before.c", "satisfy", err);
    return ok;
}


/* Flink's SatisfyUpdateKindTraitVisitor: can `r` deliver what `req` asks, and (apply) record
   the decision in generate_update_before. A dry run (apply = false) changes nothing. */
static bool satisfy_ub(WRel *r, int req, bool apply)
{
    if (apply) r->generate_update_before = req == UK_BEFORE_AFTER;
    assert((unsigned)r->kind < WR__COUNT);
    return UB_KIND_OPS[r->kind].satisfy(r, req, apply);
}

/* The root's requirement: a sink taking UPDATE_BEFORE (print, the client's collect sink) gets
   both kinds; one that drops it (blackhole, an upsert sink) UPDATE_AFTER only when the whole plan
   can deliver that and a primary key of the sink is the query's upsert key; an EXPLAINed query
   (Flink plans it without the collect sink) likewise prefers UPDATE_AFTER only. */
void wphys_require_ub(WPlanCtx *p, WRel *root)
{
    WRel *top = root;
    bool try_ua;
    if (root->kind == WR_SINK) {
        top = root->inputs[0];
        const WRelSink *sk = wrel_sink(root);
        if (!sk->table) try_ua = p->explain;
        else if (sk->final_rows) try_ua = false;     /* final rows: retractions applied */
        else if (wphys_sink_mode(sk->table) & WCM_UPDATE_BEFORE) try_ua = false;
        else try_ua = top->kind != WR_SINK_MATERIALIZER || compacts_by_upsert_key(top);
        root->generate_update_before = !try_ua;
    } else {
        try_ua = true;
    }
    int want = try_ua && satisfy_ub(top, uk_for(top, UK_ONLY_UA), false) ? UK_ONLY_UA : UK_BEFORE_AFTER;
    satisfy_ub(top, uk_for(top, want), true);
    if (root != top) root->generate_update_before = want == UK_BEFORE_AFTER;
}

/* DropUpdateBefore above a source whose UPDATE_BEFORE messages no operator reads (the source's
   generate_update_before says whether its parent needs them, see satisfy_ub) */
WRel *wphys_drop_source_ub(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        WRel *c = r->inputs[i];
        if (c->kind == WR_SCAN && (c->changelog & WCM_UPDATE_BEFORE) && !c->generate_update_before &&
            r->kind != WR_DROP_UPDATE_BEFORE) {
            WRel *d = wrel_new(p, WR_DROP_UPDATE_BEFORE, 1);
            d->inputs[0] = c;
            d->out = c->out;
            d->changelog = c->changelog & (uint8_t)~WCM_UPDATE_BEFORE;
            d->nunique = c->nunique;
            d->unique = c->unique;
            r->inputs[i] = d;
        } else {
            r->inputs[i] = wphys_drop_source_ub(p, c);
        }
    }
    return r;
}

/* Recompute UB bits after the decision; insert DropUpdateBefore where a source's UB is unwanted. */
void wphys_settle(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) wphys_settle(p, r->inputs[i]);
    switch (r->kind) {
    case WR_GROUP_AGG: case WR_JOIN: case WR_DEDUP: case WR_RANK: case WR_CHANGELOG_NORMALIZE:
    case WR_SORT_LIMIT: case WR_SORT: case WR_TEMPORAL_SORT:
        if (r->changelog != WCM_INSERT) {
            if (r->generate_update_before) r->changelog |= WCM_UPDATE_BEFORE;
            else r->changelog &= (uint8_t)~WCM_UPDATE_BEFORE;
        }
        break;
    case WR_SCAN: case WR_VALUES:
        break;
    case WR_WINDOW_AGG: case WR_WINDOW_RANK: case WR_WINDOW_JOIN: case WR_INTERVAL_JOIN:
    case WR_OVER_AGG: case WR_MATCH:
        /* insert-only whatever their inputs send (Flink's ModifyKindSet: INSERT_ONLY) */
        if (!(r->kind == WR_OVER_AGG && wrel_over(r)->batch)) break;
        r->changelog = r->inputs[0]->changelog;
        break;
    case WR_TEMPORAL_JOIN:
        /* forwards the probe side's kinds; the versioned side's changes are state */
        r->changelog = r->inputs[0]->changelog;
        break;
    default:
        if (r->ninputs) {
            r->changelog = r->keeps_insert ? WCM_INSERT : 0;    /* over a dropped normalize */
            for (int i = 0; i < r->ninputs; i++) r->changelog |= r->inputs[i]->changelog;
        }
    }
}
