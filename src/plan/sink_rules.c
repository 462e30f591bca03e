/*
 * sink_rules.c — physical planning of sinks: the row kinds a sink accepts, Flink's error for an
 * insert-only sink fed updates, SinkUpsertMaterializer (table.exec.sink.upsert-materialize) with
 * its keyBy on the primary key, the shuffle by dynamic partition columns of a filesystem sink
 * (sink.shuffle-by-partition.enable) and the global exchange in front of the client's collect
 * sink. Runs after the changelog derivation. See physical_internal.h.
 */
#include "physical_internal.h"
#include "sort_rules.h"
#include "sink_constraints.h"

#include <string.h>
#include <strings.h>

static bool same_key_set(int n1, const int *k1, int n2, const int *k2)
{
    if (n1 != n2) return false;
    for (int i = 0; i < n1; i++) {
        bool f = false;
        for (int j = 0; j < n2; j++) if (k1[i] == k2[j]) f = true;
        if (!f) return false;
    }
    return true;
}

static const char *first_update_producer(const WRel *r)
{
    if (r->kind == WR_GROUP_AGG) return "GroupAggregate";
    if (r->kind == WR_JOIN) return "Join";
    if (r->kind == WR_RANK) return "Rank";
    if (r->kind == WR_SORT_LIMIT) return r->nsort ? "SortLimit" : "Limit";
    if (r->kind == WR_DEDUP) return "Deduplicate";
    if (r->kind == WR_CHANGELOG_NORMALIZE) return "ChangelogNormalize";
    if (r->kind == WR_SCAN) return "TableSourceScan";
    for (int i = 0; i < r->ninputs; i++)
        if (r->inputs[i]->changelog != WCM_INSERT) return first_update_producer(r->inputs[i]);
    return "?";
}

/* The row kinds a sink accepts: 'sink.changelog-mode' (weir's option) or the connector's own:
   print takes every kind (as Flink's does, also with a primary key), blackhole every kind but
   UPDATE_BEFORE (Flink's drops it: an upsert sink), the filesystem sink only inserts unless its
   format is a changelog one (changelog-csv, debezium-json), kafka only inserts. */
uint8_t wphys_sink_mode(const WTable *t)
{
    const char *m = wopts_get(&t->options, "sink.changelog-mode");
    if (m) return wphys_parse_mode(m);
    const char *c = wopts_get(&t->options, "connector");
    if (!c) return WCM_INSERT;
    if (strcmp(c, "filesystem") == 0) {
        const char *f = wopts_get(&t->options, "format");
        return wplan_changelog_format(f) ? ALL_KINDS : WCM_INSERT;
    }
    if (strcmp(c, "blackhole") == 0) return WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;
    if (strcmp(c, "jdbc") == 0) return WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;     /* an upsert sink */
    if (strcmp(c, "kafka") == 0) return WCM_INSERT;
    if (wplan_upsert_connector(c)) return WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;   /* an upsert sink */
    return ALL_KINDS;
}

static bool sink_accepts_updates(const WTable *t) { return wphys_sink_mode(t) != WCM_INSERT; }

/* The sink's primary key as indexes into its physical columns. */
static int *sink_pk(WPlanCtx *p, const WTable *t)
{
    int *pk = ints(p, t->npk);
    int *phys = ints(p, t->ncols);
    int np = wtable_physical(t, phys);
    for (int k = 0; k < t->npk; k++)
        for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) pk[k] = i;
    return pk;
}

/* SinkUpsertMaterializer over sink s's input, fed by a keyBy on the primary key. */
static WRel *materialize(WPlanCtx *p, WRel *s, int *pk)
{
    WRel *in = s->inputs[0];
    WTable *t = s->sink_table;
    WRel *x = wphys_exchange(p, in, t->npk, pk);
    WRel *m = wrel_new(p, WR_SINK_MATERIALIZER, 1);
    m->inputs[0] = x;
    m->out = in->out;
    m->nkeys = t->npk;
    m->keys = pk;
    m->changelog = WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;
    m->ttl_ms = wphys_state_ttl(p);
    m->input_retracts = true;
    s->inputs[0] = m;
    return s;
}

/* table.exec.sink.upsert-materialize: FORCE materializes every sink with a primary key, whatever
   its input and changelog mode (Flink 2.3.0: an insert-only INSERT into a print sink with a key
   gets ConstraintEnforcer -> HASH -> SinkMaterializer); NONE never; AUTO when an updating input's
   upsert key is not the primary key of an upsert sink. */
static WRel *plan_sink(WPlanCtx *p, WRel *s)
{
    WRel *in = s->inputs[0];
    if (!wsink_check_modes(p->config, p->err)) return NULL;
    const char *mode = wopts_get_or(p->config, "table.exec.sink.upsert-materialize", "auto");
    bool force = strcasecmp(mode, "force") == 0;
    bool none = strcasecmp(mode, "none") == 0;
    if (s->sink_table && s->sink_table->npk && force && !wplan_is_batch(p)) {
        if (in->changelog != WCM_INSERT && !sink_accepts_updates(s->sink_table)) {
            werr_set(p->err, WEXC_TABLE,
                     "Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s",
                     s->sink_qname, first_update_producer(in));
            return NULL;
        }
        if (in->changelog != WCM_INSERT && !(wphys_sink_mode(s->sink_table) & WCM_UPDATE_BEFORE)) s->upsert_sink = true;
        return materialize(p, s, sink_pk(p, s->sink_table));
    }
    if (!s->sink_table || in->changelog == WCM_INSERT) return s;
    if (wplan_is_batch(p)) {
        /* Flink's batch plans are insert-only (a batch GROUP BY writes each group once): every
           sink takes the final rows, whatever changes it could consume */
        s->sink_final_rows = true;
        return s;
    }
    if (!sink_accepts_updates(s->sink_table)) {
        werr_set(p->err, WEXC_TABLE,
                 "Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s",
                 s->sink_qname, first_update_producer(in));
        return NULL;
    }
    WTable *t = s->sink_table;
    const char *conn = wopts_get(&t->options, "connector");
    if (!t->npk && conn && strcmp(conn, "jdbc") == 0) {
        /* Flink's JdbcDynamicTableSink.validatePrimaryKey */
        werr_set(p->err, "java.lang.IllegalStateException",
                 "please declare primary key for sink table when query contains update/delete record.");
        return NULL;
    }
    if (!t->npk) return s;
    /* a keyed sink that does not take UPDATE_BEFORE is an upsert sink */
    if (wphys_sink_mode(t) & WCM_UPDATE_BEFORE) return s;
    s->upsert_sink = true;
    int *pk = sink_pk(p, t);
    bool matches = in->nunique >= 0 && same_key_set(in->nunique, in->unique, t->npk, pk);
    if (!matches && !none) return materialize(p, s, pk);
    return s;
}

/* 'sink.shuffle-by-partition.enable' of a partitioned filesystem sink: as Flink's sink rules, a
   hash distribution on the dynamic partition columns (those no PARTITION (k = 'v') clause fixes)
   in front of the sink, so that each partition is written by one subtask. */
static WRel *shuffle_by_partition(WPlanCtx *p, WRel *s)
{
    WTable *t = s->sink_table;
    if (!wrel_sink_file_writer(s) || !t->npartition) return s;
    bool on = false;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(&t->options, "sink.shuffle-by-partition.enable", false, &on, &tmp);
    if (!on) return s;
    int *phys = ints(p, t->ncols);
    int np = wtable_physical(t, phys);
    int *keys = ints(p, t->npartition);
    int n = 0;
    for (int k = 0; k < t->npartition; k++)
        for (int i = 0; i < np; i++)
            if (phys[i] == t->partition_keys[k] && !(s->sink_static_col && s->sink_static_col[i])) keys[n++] = i;
    if (n == 0) return s;
    s->inputs[0] = wphys_exchange(p, s->inputs[0], n, keys);
    return s;
}

WRel *wphys_sinks(WPlanCtx *p, WRel *r)
{
    if (r->kind != WR_SINK) return r;
    if (r->sink_table) r = shuffle_by_partition(p, r);
    /* the client's collect sink is one subtask: a global exchange gathers parallel results */
    int64_t par = 1;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_long(p->config, "parallelism.default", 1, &par, &tmp);
    if (!r->sink_table && par > 1 && r->inputs[0]->kind != WR_EXCHANGE) {
        r->inputs[0] = wphys_exchange(p, r->inputs[0], 0, NULL);
        r->inputs[0]->exchange_collect = true;
    }
    return plan_sink(p, r);
}
