/*
 * table_factory.c — table sources and sinks created (validated) while planning, as Flink's
 * FactoryUtil does when the planner converts a statement. See table_factory.h.
 */
#include "table_factory.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

const WConnector *wplan_table_connector(const WTable *t, WError *err)
{
    const char *cn = wconnector_id(&t->options);
    if (!cn) {
        werr_set(err, WEXC_VALIDATION,
                 "Table options do not contain an option key 'connector' for discovering a connector. "
                 "Therefore, Flink assumes a managed table. However, a managed table factory that "
                 "implements org.apache.flink.table.factories.ManagedTableFactory is not in the classpath.");
        return NULL;
    }
    const WConnector *c = wconnector_find(cn);
    if (!c) {
        WStrBuf s;
        wsb_init(&s);
        wsb_printf(&s, "Could not find any factory for identifier '%s' that implements "
                       "'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.\n\n"
                       "Available factory identifiers are:\n\n", cn);
        const WConnector *const *all = wconnector_all();
        for (int i = 0; all[i]; i++) wsb_printf(&s, "%s%s", i ? "\n" : "", all[i]->name);
        werr_set(err, WEXC_VALIDATION, "%s", s.buf);
        wsb_free(&s);
        return NULL;
    }
    return c;
}

WTableSpec *wplan_table_spec(WArena *a, WTable *t, const char *qname)
{
    WTableSpec *sp = WA_NEW(a, WTableSpec);
    int *phys = WA_ARRAY(a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    sp->name = qname;
    sp->short_name = t->name;
    sp->ncols = np;
    sp->col_names = WA_ARRAY(a, const char *, np ? np : 1);
    sp->col_types = WA_ARRAY(a, const WType *, np ? np : 1);
    for (int i = 0; i < np; i++) {
        sp->col_names[i] = t->cols[phys[i]].name;
        sp->col_types[i] = t->cols[phys[i]].type;
    }
    /* primary key as indexes into the physical columns */
    sp->npk = t->npk;
    int *pk = WA_ARRAY(a, int, t->npk ? t->npk : 1);
    for (int k = 0; k < t->npk; k++)
        for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) pk[k] = i;
    sp->pk = pk;
    /* partition keys as indexes into the physical columns */
    int *part = WA_ARRAY(a, int, t->npartition ? t->npartition : 1);
    sp->npartition = 0;
    for (int k = 0; k < t->npartition; k++)
        for (int i = 0; i < np; i++) if (phys[i] == t->partition_keys[k]) part[sp->npartition++] = i;
    sp->partition = part;
    sp->options = &t->options;
    sp->subtask = 0;
    sp->parallelism = 1;
    return sp;
}

static bool batch_mode(const WPlanCtx *p)
{
    const char *m = p->config ? wopts_get(p->config, "execution.runtime-mode") : NULL;
    return m && strcasecmp(m, "batch") == 0;
}

/* Flink's CatalogSourceTable.toRel: the source of a scan. */
static bool create_source_of(WPlanCtx *p, WRel *scan)
{
    const WRelScan *sc = wrel_scan(scan);
    assert(sc->table);
    const WConnector *c = wplan_table_connector(sc->table, p->err);
    if (!c) return false;
    if (!c->can_source)
        return werr_set(p->err, WEXC_VALIDATION,
                        "Connector '%s' can only be used as a sink. It cannot be used as a source.", c->name);
    WTableSpec *sp = wplan_table_spec(p->arena, sc->table, sc->table_qname);
    sp->cast = p->cast;
    sp->bounded = batch_mode(p);
    return !c->validate || c->validate(sp, true, p->err);
}

static bool create_source(WPlanCtx *p, WRel *scan)
{
    if (create_source_of(p, scan)) return true;
    werr_wrap(p->err, WEXC_VALIDATION, "Unable to create a source for reading table '%s'.", wrel_scan(scan)->table_qname);
    return false;
}

/* Flink's PlannerBase.translateToRel (getTableSink): the sink of an INSERT. */
static const WConnector *create_sink_of(WPlanCtx *p, WRel *sink)
{
    assert(sink->kind == WR_SINK && wrel_sink(sink)->table);
    const WConnector *c = wplan_table_connector(wrel_sink(sink)->table, p->err);
    if (!c) return NULL;
    if (!c->can_sink) {
        wconnector_refuse_sink(c, p->err);
        return NULL;
    }
    WTableSpec *sp = wplan_table_spec(p->arena, wrel_sink(sink)->table, wrel_sink(sink)->qname);
    sp->cast = p->cast;
    sp->bounded = batch_mode(p);
    sp->overwrite = wrel_sink(sink)->overwrite;
    sp->nstatic = wrel_sink(sink)->nstatic;
    sp->static_keys = wrel_sink(sink)->static_keys;
    sp->static_values = wrel_sink(sink)->static_values;
    return !c->validate || c->validate(sp, false, p->err) ? c : NULL;
}

static bool create_sink(WPlanCtx *p, WRel *sink)
{
    const WConnector *c = create_sink_of(p, sink);
    if (!c) {
        werr_wrap(p->err, WEXC_VALIDATION, "Unable to create a sink for writing table '%s'.", wrel_sink(sink)->qname);
        return false;
    }
    /* DynamicSinkUtils: the sink's abilities, once it exists */
    if (wrel_sink(sink)->overwrite && !c->can_overwrite)
        return werr_set(p->err, WEXC_VALIDATION,
                        "INSERT OVERWRITE requires that the underlying DynamicTableSink of table '%s' implements "
                        "the SupportsOverwrite interface.", wrel_sink(sink)->qname);
    return true;
}

/* Every table scan under r, inputs left to right (the order of the query's FROM items). */
static bool create_sources(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++)
        if (!create_sources(p, r->inputs[i])) return false;
    if (r->kind == WR_LOOKUP_JOIN && wrel_join(r)->lookup_scan && !create_sources(p, wrel_join(r)->lookup_scan))
        return false;
    if (r->kind == WR_SCAN && wrel_scan(r)->table) return create_source(p, r);
    return true;
}

bool wplan_create_tables(WPlanCtx *p, WRel **roots, int n)
{
    for (int i = 0; i < n; i++)
        if (roots[i] && !create_sources(p, roots[i])) return false;
    for (int i = 0; i < n; i++)
        if (roots[i] && roots[i]->kind == WR_SINK && wrel_sink(roots[i])->table && !create_sink(p, roots[i]))
            return false;
    return true;
}
