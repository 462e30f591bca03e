/*
 * sink_rules.c — physical planning of sinks: the row kinds a sink accepts, Flink's error for an
 * insert-only sink fed updates, SinkUpsertMaterializer (table.exec.sink.upsert-materialize) with
 * its keyBy on the primary key, the shuffle by dynamic partition columns of a filesystem sink
 * (sink.shuffle-by-partition.enable) and the global exchange in front of the client's collect
 * sink; Flink 2.3's INSERT ... ON CONFLICT DO DEDUPLICATE | ERROR | NOTHING and
 * table.exec.sink.require-on-conflict (FLIP-558: an upsert sink whose primary key does not
 * contain the input's upsert key needs a conflict clause). Runs after the changelog derivation.
 * See physical_internal.h.
 */
#include "physical_internal.h"
#include "sort_rules.h"
#include "sink_constraints.h"
#include "../connectors/connector.h"

#include <string.h>
#include <strings.h>

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

_Static_assert((int)WCM_INSERT == (int)WCONN_INSERT && (int)WCM_UPDATE_BEFORE == (int)WCONN_UPDATE_BEFORE &&
               (int)WCM_UPDATE_AFTER == (int)WCONN_UPDATE_AFTER && (int)WCM_DELETE == (int)WCONN_DELETE &&
               (int)ALL_KINDS == (int)WCONN_ALL_KINDS, "the planner's row kinds are the connectors'");

/* The row kinds a sink accepts and whether it takes exactly those (*fixed): 'sink.changelog-mode'
   (weir's option; fixed), else what the connector says (connector.h WConnCaps: print takes every
   kind as given, blackhole every kind but UPDATE_BEFORE as given, the filesystem sink inserts
   unless its format carries row kinds, kafka inserts, jdbc and upsert-kafka upsert); a table
   without a connector takes inserts. */
static uint8_t sink_mode(const WTable *t, bool *fixed)
{
    *fixed = true;
    const char *m = wopts_get(&t->options, "sink.changelog-mode");
    if (m) return wphys_parse_mode(m);
    if (!wconnector_id(&t->options)) return WCM_INSERT;
    const WConnCaps *caps = wconnector_caps(&t->options);
    *fixed = caps && caps->sink_kinds_fixed;
    uint8_t kinds = !caps ? 0 : caps->sink_kinds_for ? caps->sink_kinds_for(&t->options) : caps->sink_kinds;
    return kinds ? kinds : ALL_KINDS;
}

uint8_t wphys_sink_mode(const WTable *t)
{
    bool fixed;
    return sink_mode(t, &fixed);
}

static bool sink_accepts_updates(const WTable *t) { return wphys_sink_mode(t) != WCM_INSERT; }

/* What the sink is for an input of changelog `in` (Flink: the sink's getChangelogMode of the
   mode the planner asks for, an upsert request): connectors with a fixed mode (a
   'sink.changelog-mode', filesystem by its format, kafka, jdbc, upsert-kafka) are what they are;
   print and blackhole take what they are given, without UPDATE_BEFORE. */
typedef enum SinkKind { SK_APPEND, SK_RETRACT, SK_UPSERT } SinkKind;

static SinkKind sink_kind(const WTable *t, uint8_t in)
{
    bool fixed;
    uint8_t mode = sink_mode(t, &fixed);
    uint8_t eff = fixed ? mode : (uint8_t)((in & ~WCM_UPDATE_BEFORE) | WCM_INSERT) & mode;
    if (eff == WCM_INSERT) return SK_APPEND;
    return eff & WCM_UPDATE_BEFORE ? SK_RETRACT : SK_UPSERT;
}

const char *wplan_conflict_name(AstConflict c)
{
    return c == ACF_DEDUPLICATE ? "DEDUPLICATE" : c == ACF_ERROR ? "ERROR" : c == ACF_NOTHING ? "NOTHING" : "";
}

void wplan_target_columns_text(WStrBuf *out, const WRel *sink)
{
    const WRelSink *sk = wrel_sink(sink);
    if (!sk->ntarget_cols) return;
    wsb_puts(out, "targetColumns=[");
    for (int k = 0; k < sk->ntarget_cols; k++) wsb_printf(out, "%s[%d]", k ? "," : "", sk->target_cols[k]);
    wsb_puts(out, "], ");
}

AstConflict wplan_conflict_from_name(const char *name)
{
    if (!name) return ACF_NONE;
    for (AstConflict c = ACF_DEDUPLICATE; c <= ACF_NOTHING; c++)
        if (strcmp(name, wplan_conflict_name(c)) == 0) return c;
    return ACF_NONE;
}

/* "[a, b]": names[cols[i]] for each i (cols NULL: names[i]), as Flink's messages list keys */
static const char *bracketed(WPlanCtx *p, int n, const char *const *names, const int *cols)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_putc(&b, '[');
    for (int i = 0; i < n; i++) wsb_printf(&b, "%s%s", i ? ", " : "", names[cols ? cols[i] : i]);
    wsb_putc(&b, ']');
    char *r = wa_strdup(p->arena, b.buf);
    wsb_free(&b);
    return r;
}

/* The names of table t's primary key columns. */
static const char **pk_names(WPlanCtx *p, const WTable *t)
{
    const char **n = WA_ARRAY(p->arena, const char *, t->npk ? t->npk : 1);
    for (int k = 0; k < t->npk; k++) n[k] = t->cols[t->pk[k]].name;
    return n;
}

/* The scans under r of tables without a WATERMARK, depth first (Flink lists them so). */
static void scans_without_watermark(const WRel *r, WStrBuf *out)
{
    if (r->kind == WR_SCAN) {
        const WRelScan *sc = wrel_scan(r);
        if (sc->table && sc->table->wm_col < 0)
            wsb_printf(out, "%s%s", out->len ? ", " : "", sc->table_qname ? sc->table_qname : sc->table->name);
        return;
    }
    for (int i = 0; i < r->ninputs; i++) scans_without_watermark(r->inputs[i], out);
}

/* Flink 2.3's checks of a conflict clause: only an upsert sink takes one; ERROR and NOTHING
   compact on watermarks, so every source must declare one. */
static bool check_conflict(WPlanCtx *p, const WRel *s, SinkKind kind)
{
    const WRelSink *sk = wrel_sink(s);
    AstConflict c = sk->conflict;
    if (c == ACF_NONE) return true;
    if (kind != SK_UPSERT) {
        werr_set(p->err, WEXC_VALIDATION,
                 "ON CONFLICT clause is only allowed for upsert sinks. The sink '%s' is not an upsert sink because %s.",
                 sk->qname, kind == SK_APPEND ? "it only accepts INSERT (append-only) changes"
                                                  : "it requires UPDATE_BEFORE (retract mode)");
        return false;
    }
    if (c == ACF_ERROR || c == ACF_NOTHING) {
        WStrBuf no;
        wsb_init(&no);
        scans_without_watermark(s->inputs[0], &no);
        if (no.len) {
            werr_set(p->err, WEXC_VALIDATION,
                     "ON CONFLICT DO %s requires all source tables to define watermarks, but the following source(s) "
                     "do not: %s. Please add a WATERMARK declaration to these tables.", wplan_conflict_name(c), no.buf);
            wsb_free(&no);
            return false;
        }
        wsb_free(&no);
    }
    return true;
}

/* Does the sink's primary key contain the input's upsert key (Flink's
   primaryKeysContainsUpsertKey)? An input without one does not. */
static bool pk_contains_upsert_key(const WRel *in, int npk, const int *pk)
{
    if (in->nunique < 0) return false;
    for (int i = 0; i < in->nunique; i++) {
        bool f = false;
        for (int k = 0; k < npk; k++) if (pk[k] == in->unique[i]) f = true;
        if (!f) return false;
    }
    return true;
}

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
    const WRelSink *sk = wrel_sink(s);
    WRel *in = s->inputs[0];
    WTable *t = sk->table;
    WRel *x = wphys_exchange(p, in, t->npk, pk);
    WRel *m = wrel_new(p, WR_SINK_MATERIALIZER, 1);
    WRelSink *mk = wrel_sink_mut(m);
    m->inputs[0] = x;
    m->out = in->out;
    m->nkeys = t->npk;
    m->keys = pk;
    m->changelog = WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;
    m->ttl_ms = wphys_state_ttl(p);
    m->input_retracts = true;
    mk->conflict = sk->conflict;
    mk->key_names = pk_names(p, t);
    s->inputs[0] = m;
    return s;
}

/* table.exec.sink.upsert-materialize: FORCE materializes every sink with a primary key that is
   not a retract sink, whatever its input (Flink 2.3.0: an insert-only INSERT into a print sink with
   a key gets ConstraintEnforcer -> HASH -> SinkMaterializer); NONE never; AUTO an upsert sink fed
   updates (or fed anything under ON CONFLICT DO ERROR / NOTHING) whose primary key does not contain
   the input's upsert key — which, with table.exec.sink.require-on-conflict (default true), needs
   an ON CONFLICT clause, as Flink 2.3 requires. Batch plans take no conflict clause (Flink's
   ignores it). */
static WRel *plan_sink(WPlanCtx *p, WRel *s)
{
    WRelSink *sk = wrel_sink_mut(s);
    WRel *in = s->inputs[0];
    if (!wsink_check_modes(p->config, p->err)) return NULL;
    const char *mode = wopts_get_or(p->config, "table.exec.sink.upsert-materialize", "auto");
    bool force = strcasecmp(mode, "force") == 0;
    bool none = strcasecmp(mode, "none") == 0;
    if (!sk->table || wplan_is_batch(p)) sk->conflict = ACF_NONE;
    if (sk->table && in->changelog != WCM_INSERT && !sink_accepts_updates(sk->table) && !wplan_is_batch(p)) {
        werr_set(p->err, WEXC_TABLE,
                 "Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s",
                 sk->qname, first_update_producer(in));
        return NULL;
    }
    if (!sk->table) return s;
    WTable *t = sk->table;
    if (wplan_is_batch(p)) {
        /* Flink's batch plans are insert-only (a batch GROUP BY writes each group once): every
           sink takes the final rows, whatever changes it could consume */
        if (in->changelog != WCM_INSERT) sk->final_rows = true;
        return s;
    }
    SinkKind kind = sink_kind(t, in->changelog);
    if (!check_conflict(p, s, kind)) return NULL;
    if (t->npk && force) {
        if (kind != SK_RETRACT) return materialize(p, s, sink_pk(p, t));
    }
    const WConnCaps *caps = wconnector_caps(&t->options);
    if (in->changelog != WCM_INSERT && !t->npk && caps && caps->sink_needs_pk_for_updates) {
        /* Flink's JdbcDynamicTableSink.validatePrimaryKey */
        werr_set(p->err, "java.lang.IllegalStateException",
                 "please declare primary key for sink table when query contains update/delete record.");
        return NULL;
    }
    if (!t->npk || force || none || kind != SK_UPSERT) return s;
    if (in->changelog == WCM_INSERT && sk->conflict == ACF_DEDUPLICATE) return s;
    int *pk = sink_pk(p, t);
    if (pk_contains_upsert_key(in, t->npk, pk)) return s;
    bool require = true;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_bool(p->config, "table.exec.sink.require-on-conflict", true, &require, &tmp)) {
        *p->err = tmp;
        return NULL;
    }
    if (require && sk->conflict == ACF_NONE) {
        werr_set(p->err, WEXC_VALIDATION,
                 "The query has an upsert key that differs from the primary key of the sink table '%s'. Primary key: "
                 "%s, upsert key: %s. This can lead to non-deterministic results when multiple records with different "
                 "upsert keys map to the same primary key. Please specify an ON CONFLICT clause to define how "
                 "conflicts should be handled: ON CONFLICT DO DEDUPLICATE (update to the latest record, state "
                 "intensive, since we need to keep the entire history), or ON CONFLICT DO ERROR (fail on conflict), "
                 "or ON CONFLICT DO NOTHING (keep first record).",
                 sk->qname, bracketed(p, t->npk, pk_names(p, t), NULL),
                 in->nunique >= 0 ? bracketed(p, in->nunique, in->out.names, in->unique) : "");
        return NULL;
    }
    return materialize(p, s, pk);
}

/* 'sink.shuffle-by-partition.enable' of a partitioned filesystem sink: as Flink's sink rules, a
   hash distribution on the dynamic partition columns (those no PARTITION (k = 'v') clause fixes)
   in front of the sink, so that each partition is written by one subtask. */
static WRel *shuffle_by_partition(WPlanCtx *p, WRel *s)
{
    const WRelSink *sk = wrel_sink(s);
    WTable *t = sk->table;
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
            if (phys[i] == t->partition_keys[k] && !(sk->static_col && sk->static_col[i])) keys[n++] = i;
    if (n == 0) return s;
    s->inputs[0] = wphys_exchange(p, s->inputs[0], n, keys);
    return s;
}

WRel *wphys_sinks(WPlanCtx *p, WRel *r)
{
    if (r->kind != WR_SINK) return r;
    if (wrel_sink(r)->table) r = shuffle_by_partition(p, r);
    /* the client's collect sink is one subtask: a global exchange gathers parallel results */
    int64_t par = 1;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_long(p->config, "parallelism.default", 1, &par, &tmp);
    if (!wrel_sink(r)->table && par > 1 && r->inputs[0]->kind != WR_EXCHANGE) {
        r->inputs[0] = wphys_exchange(p, r->inputs[0], 0, NULL);
        wrel_exchange_mut(r->inputs[0])->collect = true;
    }
    return plan_sink(p, r);
}
