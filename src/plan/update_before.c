/*
 * update_before.c — Flink's UpdateKindTrait, top-down: which nodes must send UPDATE_BEFORE
 * (SatisfyUpdateKindTraitVisitor), DropUpdateBefore above a source whose UPDATE_BEFORE nobody
 * reads, and the changelog modes settled after the decision. Runs after the sink rules. What each
 * node kind asks of its inputs is its satisfy operation (its file in src/kinds/, reached through
 * wkinds_ub: plan_kinds.h). See physical_internal.h.
 */
#include "physical_internal.h"
#include "plan_kinds.h"

#include <assert.h>

/* What a parent needs of a node's updates (Flink's UpdateKindTrait): nothing (the node sends
   none), UPDATE_AFTER only, or UPDATE_BEFORE with UPDATE_AFTER. */

bool ub_has_updates(const WRel *r) { return (r->changelog & (WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER)) != 0; }

/* `want` for a child that sends updates, nothing for one that does not */
int ub_uk_for(const WRel *child, int want) { return ub_has_updates(child) ? want : UK_NONE; }

/* A compacting materializer (ON CONFLICT DO ERROR / NOTHING, under FORCE) whose sink key contains
   the input's upsert key: rows of one key replace each other, no UPDATE_BEFORE needed (measured:
   Flink 2.3 plans [I,UA] below it, [I,UB,UA] when the key differs). */
bool ub_compacts_by_upsert_key(const WRel *m)
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

bool ub_satisfy(WRel *r, int req, bool apply);

/* GroupAggregate, WindowAggregate, OverAggregate, Deduplicate, batch Sort */
bool ub_needs_both(WRel *r, int req, bool apply)
{
    /* emit either; need UPDATE_BEFORE from an updating input */
    return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
}

/* Rank, SortLimit / Limit */
bool ub_rank(WRel *r, int req, bool apply)
{
    if (r->kind == WR_SORT_LIMIT && !r->nsort)
        return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
    /* UpdateFast reads UPDATE_AFTER only, Retract needs UPDATE_BEFORE */
    int want = wrel_rank(r)->strategy == WRANK_UPDATE_FAST ? UK_ONLY_UA : UK_BEFORE_AFTER;
    if (apply && r->changelog == WCM_INSERT) r->generate_update_before = false;
    return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], want), apply);
}

/* Any other node: its inputs deliver what is asked of it (both kinds when it is asked for none) */
bool ub_forward(WRel *r, int req, bool apply)
{
    bool ok = true;
    for (int i = 0; i < r->ninputs && ok; i++)
        ok = ub_satisfy(r->inputs[i], ub_uk_for(r->inputs[i], req == UK_NONE ? UK_BEFORE_AFTER : req), apply);
    return ok;
}

/* Flink's SatisfyUpdateKindTraitVisitor: can `r` deliver what `req` asks, and (apply) record
   the decision in generate_update_before. A dry run (apply = false) changes nothing. */
bool ub_satisfy(WRel *r, int req, bool apply)
{
    if (apply) r->generate_update_before = req == UK_BEFORE_AFTER;
    assert((unsigned)r->kind < WR__COUNT);
    return wkinds_ub[r->kind]->satisfy(r, req, apply);
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
        else try_ua = top->kind != WR_SINK_MATERIALIZER || ub_compacts_by_upsert_key(top);
        root->generate_update_before = !try_ua;
    } else {
        try_ua = true;
    }
    int want = try_ua && ub_satisfy(top, ub_uk_for(top, UK_ONLY_UA), false) ? UK_ONLY_UA : UK_BEFORE_AFTER;
    ub_satisfy(top, ub_uk_for(top, want), true);
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
