/*
 * changelog_source.c — sources that send updates: their changelog mode (upsert-kafka's [UA,D],
 * a changelog format's 'changelog-csv.changelog-mode'), ChangelogNormalize (with a hash exchange
 * on the primary key, and a DropUpdateBefore below it when the source sends UPDATE_BEFORE) for
 * upsert sources and for CDC sources under table.exec.source.cdc-events-duplicate, a filter
 * above it pushed into it, and its removal when nothing downstream needs UPDATE_BEFORE (Flink
 * 2.3). See physical_internal.h.
 */
#include "physical_internal.h"
#include "sort_rules.h"
#include "../connectors/connector.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

bool wplan_upsert_connector(const char *connector)
{
    const WConnector *c = wconnector_find(connector);
    return c && c->caps.upsert_source;
}

bool wplan_changelog_format(const char *format) { return wconnector_format_is_changelog(format); }

uint8_t wphys_parse_mode(const char *m)
{
    if (!m) return ALL_KINDS;
    uint8_t bits = 0;
    const char *p = m;
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == ';') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',' && *e != ';' && *e != ' ') e++;
        size_t n = (size_t)(e - p);
        if ((n == 1 && *p == 'I') || (n == 6 && strncasecmp(p, "INSERT", 6) == 0)) bits |= WCM_INSERT;
        else if ((n == 2 && strncasecmp(p, "UB", 2) == 0) || (n == 13 && strncasecmp(p, "UPDATE_BEFORE", 13) == 0)) bits |= WCM_UPDATE_BEFORE;
        else if ((n == 2 && strncasecmp(p, "UA", 2) == 0) || (n == 12 && strncasecmp(p, "UPDATE_AFTER", 12) == 0)) bits |= WCM_UPDATE_AFTER;
        else if ((n == 1 && *p == 'D') || (n == 6 && strncasecmp(p, "DELETE", 6) == 0)) bits |= WCM_DELETE;
        p = e;
    }
    return bits ? bits : ALL_KINDS;
}

bool wphys_cdc_duplicates(WPlanCtx *p)
{
    bool v = false;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(p->config, "table.exec.source.cdc-events-duplicate", false, &v, &tmp);
    return v;
}

bool wplan_check_changelog_source(WPlanCtx *p, const WTable *t, const char *qname)
{
    const char *fmt = wopts_get(&t->options, "format");
    if (!wplan_changelog_format(fmt) || t->npk || !wphys_cdc_duplicates(p)) return true;
    if (wphys_parse_mode(wopts_get(&t->options, "changelog-csv.changelog-mode")) == WCM_INSERT) return true;
    werr_set(p->err, WEXC_TABLE,
             "Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the changelog "
             "sources to define a PRIMARY KEY. However, table '%s' doesn't have a primary key.", qname);
    return false;
}

bool wplan_check_changelog_sources(WPlanCtx *p, const WRel *r, int depth)
{
    if (!r || depth > 2000) return true;
    if (r->kind == WR_SCAN) {
        const WRelScan *sc = wrel_scan(r);
        if (sc->table && !wplan_check_changelog_source(p, sc->table, sc->table_qname)) return false;
    }
    for (int i = 0; i < r->ninputs; i++)
        if (!wplan_check_changelog_sources(p, r->inputs[i], depth + 1)) return false;
    return true;
}

/* A scan's unique key (its primary key), changelog mode and ChangelogNormalize: r itself, or
   the ChangelogNormalize above it; NULL with p->err set for a source Flink refuses. */
WRel *wphys_derive_scan(WPlanCtx *p, WRel *r, int64_t ttl)
{
    const WRelScan *sc = wrel_scan(r);
    WTable *t = sc->table;
    if (t->npk) {
        int *pk = ints(p, t->npk);
        int *phys = ints(p, t->ncols);
        int np = wtable_physical(t, phys);
        for (int k = 0; k < t->npk; k++)
            for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) pk[k] = i;
        wphys_set_unique(p, r, t->npk, pk);
    }
    if (!sc->source_changelog) { r->changelog = WCM_INSERT; return r; }
    if (wplan_upsert_connector(wconnector_id(&t->options)) && wplan_is_batch(p)) {
        werr_set(p->err, WEXC_TABLE,
                 "Querying a table in batch mode is currently only possible for INSERT-only table sources. "
                 "But the source for table '%s' produces other changelog messages than just INSERT.",
                 sc->table_qname);
        return NULL;
    }
    /* upsert-kafka: Flink 2.3 shows its scan's mode as [UA,D] */
    r->changelog = wplan_upsert_connector(wconnector_id(&t->options))
                       ? WCM_UPDATE_AFTER | WCM_DELETE
                       : wphys_parse_mode(wopts_get(&t->options, "changelog-csv.changelog-mode"));
    bool upsert = !(r->changelog & WCM_UPDATE_BEFORE) && (r->changelog & (WCM_UPDATE_AFTER | WCM_DELETE));
    if (t->npk && (upsert || (wphys_cdc_duplicates(p) && r->changelog != WCM_INSERT))) {
        WRel *below = r;
        if (r->changelog & WCM_UPDATE_BEFORE) {
            /* ChangelogNormalize needs no UPDATE_BEFORE: Flink drops them before it */
            WRel *d = wrel_new(p, WR_DROP_UPDATE_BEFORE, 1);
            d->inputs[0] = r;
            d->out = r->out;
            d->changelog = r->changelog & (uint8_t)~WCM_UPDATE_BEFORE;
            d->nunique = r->nunique;
            d->unique = r->unique;
            below = d;
        }
        WRel *x = wphys_exchange(p, below, r->nunique, r->unique);
        WRel *cn = wrel_new(p, WR_CHANGELOG_NORMALIZE, 1);
        cn->inputs[0] = x;
        cn->out = r->out;
        cn->nkeys = r->nunique;
        cn->keys = r->unique;
        cn->changelog = WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE;
        cn->nunique = r->nunique;
        cn->unique = r->unique;
        cn->ttl_ms = ttl;
        cn->input_retracts = true;
        return cn;
    }
    /* upsert-kafka's own validation (at build) refuses it with Flink's message, after its options */
    if (upsert && !t->npk && !wplan_upsert_connector(wconnector_id(&t->options)))
        return fail(p, WEXC_VALIDATION, "An upsert source (changelog mode without UPDATE_BEFORE) requires a PRIMARY KEY.");
    return r;
}

/* Flink's PushCalcPastChangelogNormalizeRule, then its filter push into ChangelogNormalize, for a
   Calc right above ChangelogNormalize over the hash exchange of its key: the conjuncts of the
   Calc's condition that read primary key columns only, and a projection to the columns the Calc
   reads (the key columns included) when that leaves some out, go into a Calc under the exchange
   (measured on Flink 2.3: "Calc(select=[id, amount]) under Exchange(hash[id])",
   "Calc(select=[id, name, amount], where=[>(id, 3)])"); the rest of the condition is evaluated
   inside ChangelogNormalize, so that a key whose new version fails it retracts the version
   emitted before; the Calc left above disappears when it is an identity. */
static bool reads_only(const WExpr *e, const bool *cols, bool *tmp, int n)
{
    memset(tmp, 0, (size_t)n);
    wplan_mark_refs(e, tmp, n);
    for (int i = 0; i < n; i++) if (tmp[i] && !cols[i]) return false;
    return true;
}

WRel *wphys_push_calc_past_normalize(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = wphys_push_calc_past_normalize(p, r->inputs[i]);
    if (r->kind != WR_CALC || r->inputs[0]->kind != WR_CHANGELOG_NORMALIZE || wrel_normalize(r->inputs[0])->filter) return r;
    const WRelCalc *rc = wrel_calc(r);
    WRel *cn = r->inputs[0];
    WRel *x = cn->inputs[0];
    int n = cn->out.n;
    enum { MAXC = 64 };
    WExpr *conj[MAXC], *pushed[MAXC], *kept[MAXC];
    int nc = 0, np = 0, nk = 0;
    if (rc->cond) wplan_split_and(rc->cond, conj, &nc, MAXC);
    bool *pk = WA_ARRAY(p->arena, bool, n ? n : 1), *tmp = WA_ARRAY(p->arena, bool, n ? n : 1);
    bool *used = WA_ARRAY(p->arena, bool, n ? n : 1);
    for (int k = 0; k < cn->nkeys; k++) pk[cn->keys[k]] = used[cn->keys[k]] = true;
    bool movable = x->kind == WR_EXCHANGE && !x->reused && !cn->reused && nc < MAXC;
    for (int i = 0; i < nc; i++) {
        if (movable && reads_only(conj[i], pk, tmp, n)) pushed[np++] = conj[i];
        else kept[nk++] = conj[i];
    }
    for (int i = 0; i < rc->nexprs; i++) wplan_mark_refs(rc->exprs[i], used, n);
    for (int i = 0; i < nk; i++) wplan_mark_refs(kept[i], used, n);
    int nused = 0;
    for (int i = 0; i < n; i++) nused += used[i];
    WRel *c = wa_memdup(p->arena, r, sizeof *r);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs = WA_ARRAY(p->arena, WRel *, 1);
    if (!movable || (np == 0 && nused == n)) {
        /* nothing goes under the exchange: the condition is evaluated inside ChangelogNormalize */
        WRel *ncn = wa_memdup(p->arena, cn, sizeof *cn);
        wrel_normalize_mut(ncn)->filter = rc->cond;
        c->inputs[0] = ncn;
        cc->cond = NULL;
        return rc->cond ? wplan_simplify_calc(p, c) : r;
    }
    /* the Calc under the exchange: the used columns (all when none is left out), the key filters */
    int *map;
    WRel *below;
    WRel *src = x->inputs[0];
    WRel *dub = src->kind == WR_DROP_UPDATE_BEFORE ? src : NULL;
    if (dub) src = dub->inputs[0];
    if (np == 0 && src->kind == WR_SCAN && wrel_scan(src)->table &&
        !wplan_upsert_connector(wconnector_id(&wrel_scan(src)->table->options))) {
        /* a changelog format's scan (table.exec.source.cdc-events-duplicate) without a key filter:
           Flink's projection push-down reaches the scan, in the order the Calc above reads the
           columns, then the primary key (measured on Flink 2.3: SELECT price, name reads
           project=[price, name, id], under the DropUpdateBefore) */
        int *order = WA_ARRAY(p->arena, int, n ? n : 1);
        bool *seen = WA_ARRAY(p->arena, bool, n ? n : 1);
        int no = 0;
        for (int i = 0; i < rc->nexprs; i++) wplan_refs_in_order(rc->exprs[i], seen, order, &no, n);
        for (int i = 0; i < nk; i++) wplan_refs_in_order(kept[i], seen, order, &no, n);
        for (int k = 0; k < cn->nkeys; k++)
            if (!seen[cn->keys[k]]) { seen[cn->keys[k]] = true; order[no++] = cn->keys[k]; }
        assert(no == nused);
        map = WA_ARRAY(p->arena, int, n ? n : 1);
        for (int i = 0; i < n; i++) map[i] = -1;
        for (int k = 0; k < no; k++) map[order[k]] = k;
        /* over the scan itself: wphys_drop_source_ub puts the DropUpdateBefore back between them,
           and EXPLAIN shows the projection inside the scan (explain/view.c) */
        below = wplan_pick_cols(p, src, order, no);
    } else {
        map = wplan_positions(p, used, n);
        below = wplan_pick(p, x->inputs[0], used);
        WRelCalc *bc = wrel_calc_mut(below);
        bc->late_calc = true;
        bc->cond = np ? wplan_remap(p, wplan_and(p, pushed, np), map) : NULL;
    }
    int *keys = WA_ARRAY(p->arena, int, cn->nkeys ? cn->nkeys : 1);
    for (int k = 0; k < cn->nkeys; k++) keys[k] = map[cn->keys[k]];
    wphys_set_unique(p, below, cn->nkeys, keys);
    WRel *ncn = wa_memdup(p->arena, cn, sizeof *cn);
    ncn->inputs = WA_ARRAY(p->arena, WRel *, 1);
    ncn->inputs[0] = wphys_exchange(p, below, cn->nkeys, keys);
    ncn->out = below->out;
    ncn->keys = keys;
    ncn->unique = keys;
    wrel_normalize_mut(ncn)->filter = nk ? wplan_remap(p, wplan_and(p, kept, nk), map) : NULL;
    c->inputs[0] = ncn;
    cc->exprs = WA_ARRAY(p->arena, WExpr *, rc->nexprs ? rc->nexprs : 1);
    for (int i = 0; i < rc->nexprs; i++) cc->exprs[i] = wplan_remap(p, rc->exprs[i], map);
    cc->cond = NULL;
    /* a consumer that reads no column (COUNT(*)) reads the normalize itself, as in Flink's plans
       (measured: GroupAggregate over ChangelogNormalize, no Calc between) */
    if (rc->nexprs == 0) return ncn;
    return wplan_simplify_calc(p, c);
}

/* Flink 2.3 drops the ChangelogNormalize of an upsert source (upsert-kafka) when its consumers
   need no UPDATE_BEFORE and it evaluates no filter: the source's upserts and deletes by key go on
   as they are (an upsert sink keyed the same way, blackhole, an EXPLAINed query). */
WRel *wphys_drop_unneeded_normalize(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        WRel *c = r->inputs[i];
        r->inputs[i] = wphys_drop_unneeded_normalize(p, c);
        /* Flink derives the modify kinds before it drops the normalize: its consumer keeps the
           INSERT (measured: "Calc(..., changelogMode=[I,UA,D])" over the scan's [UA,D]) */
        if (c->kind == WR_CHANGELOG_NORMALIZE && r->inputs[i] != c) r->keeps_insert = true;
    }
    if (r->kind != WR_CHANGELOG_NORMALIZE || r->generate_update_before || wrel_normalize(r)->filter) return r;
    WRel *below = r->inputs[0]->kind == WR_EXCHANGE ? r->inputs[0]->inputs[0] : r->inputs[0];
    WRel *scan = below;
    while (scan->kind == WR_CALC && wrel_calc(scan)->late_calc) scan = scan->inputs[0];   /* pushed under it */
    if (scan->kind != WR_SCAN || !wrel_scan(scan)->table ||
        !wplan_upsert_connector(wconnector_id(&wrel_scan(scan)->table->options)))
        return r;
    return below;
}

