/*
 * session_options.c — the inventory of session options weir knows and SET's warning for the
 * others, see session_options.h. Depends on common/strbuf.
 */
#include "session_options.h"
#include "../common/arena.h"
#include "../common/options.h"
#include "../common/strbuf.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const WSessionOption OPTIONS[] = {
    /* table.exec.* */
    {"table.exec.mini-batch.enabled", WSO_APPLIED, "tests/golden/minibatch_changelog.sql"},
    {"table.exec.mini-batch.allow-latency", WSO_APPLIED, "tests/golden/minibatch_changelog.sql"},
    {"table.exec.mini-batch.size", WSO_APPLIED, "tests/golden/minibatch_changelog.sql"},
    {"table.exec.state.ttl", WSO_APPLIED, "tests/golden/job_report_state_ttl.sql"},
    {"table.exec.sink.not-null-enforcer", WSO_APPLIED, "tests/golden/sink_not_null_drop.sql"},
    {"table.exec.sink.type-length-enforcer", WSO_APPLIED, "tests/golden/sink_type_length.sql"},
    {"table.exec.sink.upsert-materialize", WSO_APPLIED, "tests/golden/sink_upsert_materialize_force.sql"},
    {"table.exec.sink.keyed-shuffle", WSO_APPLIED, "tests/golden/sink_keyed_shuffle.sql"},
    {"table.exec.sink.require-on-conflict", WSO_APPLIED, "tests/golden/sink_on_conflict_plans.sql"},
    {"table.exec.source.cdc-events-duplicate", WSO_APPLIED, "tests/golden/debezium_json_primary_key.sql"},
    {"table.exec.source.idle-timeout", WSO_APPLIED, "tests/kafka/partition_watermarks.sh"},
    {"table.exec.insert-and-updateafter-sensitive", WSO_UNPROVEN,
     "exec/dedup.c: whether the deduplication emits +I for a key's first row (Flink's generateInsert)"},
    {"table.exec.rank.topn-cache-size", WSO_TUNING,
     "the size of Flink's Top-N cache (performance only); weir writes it into COMPILE PLAN as Flink does"},
    {"table.exec.deduplicate.insert-update-after-sensitive-enabled", WSO_SHOWN_ONLY,
     "only written into COMPILE PLAN"},
    {"table.exec.deduplicate.mini-batch.compact-changes-enabled", WSO_SHOWN_ONLY,
     "only written into COMPILE PLAN; the mini-batch deduplication does not compact changes"},
    {"table.exec.sink.rowtime-inserter", WSO_SHOWN_ONLY,
     "only written into COMPILE PLAN; weir's sinks carry no record timestamp"},
    /* table.optimizer.* */
    {"table.optimizer.agg-phase-strategy", WSO_APPLIED, "tests/golden/minibatch_changelog.sql"},
    {"table.optimizer.distinct-agg.split.enabled", WSO_APPLIED, "tests/golden/minibatch_changelog.sql"},
    {"table.optimizer.distinct-agg.split.bucket-num", WSO_APPLIED, "tests/golden/explain_minibatch_distinct_split.sql"},
    {"table.optimizer.incremental-agg-enabled", WSO_APPLIED, "tests/golden/explain_split_distinct_expand.sql"},
    {"table.optimizer.reuse-sub-plan-enabled", WSO_APPLIED, "tests/golden/subplan_reuse.sql"},
    {"table.optimizer.reuse-source-enabled", WSO_APPLIED, "tests/golden/subplan_reuse.sql"},
    /* execution.* */
    {"execution.runtime-mode", WSO_APPLIED, "tests/golden/agg_batch_final.sql"},
    {"execution.checkpointing.interval", WSO_APPLIED, "tests/cluster/checkpoints.sh"},
    {"execution.checkpointing.dir", WSO_APPLIED, "tests/cluster/checkpoints.sh"},
    {"execution.checkpointing.timeout", WSO_APPLIED, "tests/recovery/kill_restore.sh"},
    {"execution.checkpointing.tolerable-failed-checkpoints", WSO_APPLIED, "tests/cluster/checkpoint_failures.sh"},
    {"execution.checkpointing.externalized-checkpoint-retention", WSO_APPLIED, "tests/recovery/kill_restore.sh"},
    {"execution.checkpointing.incremental", WSO_APPLIED, "tests/recovery/kill_restore.sh"},
    {"execution.checkpointing.savepoint-dir", WSO_APPLIED, "tests/cluster/savepoints.sh"},
    {"execution.savepoint.path", WSO_APPLIED, "tests/cluster/savepoints.sh"},
    {"execution.checkpointing.min-pause", WSO_UNPROVEN,
     "runtime/checkpoint.c: no checkpoint starts sooner than this after the last completed one"},
    {"execution.checkpointing.mode", WSO_UNPROVEN, "runtime/checkpoint_options.c: EXACTLY_ONCE / AT_LEAST_ONCE"},
    {"execution.checkpointing.num-retained", WSO_UNPROVEN, "runtime/checkpoint.c: completed checkpoints kept"},
    {"execution.checkpointing.externalized-checkpoint-retention.type", WSO_UNPROVEN,
     "runtime/checkpoint_options.c: the older spelling of externalized-checkpoint-retention"},
    {"execution.savepoint.allow-non-restored-state", WSO_UNPROVEN, "runtime/checkpoint_restore.c: restore with unmatched state"},
    {"execution.savepoint.ignore-unclaimed-state", WSO_UNPROVEN, "runtime/checkpoint_options.c: the older spelling of allow-non-restored-state"},
    {"execution.checkpointing.aligned-checkpoint-timeout", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration; weir's checkpoints are always aligned"},
    {"execution.checkpointing.unaligned", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration; weir's checkpoints are always aligned"},
    {"execution.checkpointing.unaligned.enabled", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration; weir's checkpoints are always aligned"},
    {"execution.checkpointing.max-concurrent-checkpoints", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration; weir runs one checkpoint at a time"},
    {"execution.checkpointing.checkpoints-after-tasks-finish", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration"},
    {"execution.checkpointing.checkpoints-after-tasks-finish.enabled", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration"},
    {"execution.checkpointing.storage", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration; execution.checkpointing.dir decides where checkpoints go"},
    /* pipeline.*, parallelism.default */
    {"parallelism.default", WSO_APPLIED, "tests/golden/parallel_worker_slots.sql"},
    {"pipeline.max-parallelism", WSO_APPLIED, "tests/golden/explain_state_advice.sql"},
    {"pipeline.auto-watermark-interval", WSO_APPLIED, "tests/kafka/partition_watermarks.sh"},
    {"pipeline.name", WSO_APPLIED, "tests/cluster/submission.sh"},
    {"pipeline.operator-chaining.enabled", WSO_APPLIED, "tests/cluster/chaining.sh"},
    /* state.* */
    {"state.backend.type", WSO_APPLIED, "tests/cluster/rocksdb_step.sh"},
    {"state.backend", WSO_APPLIED, "tests/unit/test_state_rocksdb.c"},
    {"state.backend.rocksdb.localdir", WSO_APPLIED, "tests/unit/test_state_rocksdb.c"},
    {"state.backend.rocksdb.block.cache-size", WSO_APPLIED, "tests/unit/test_state_rocksdb.c"},
    {"state.backend.rocksdb.weir.write-cache-entries", WSO_APPLIED, "tests/unit/test_state_rocksdb_cache.c"},
    {"state.checkpoints.dir", WSO_APPLIED, "tests/unit/test_server.c"},
    {"state.backend.rocksdb.writebuffer.size", WSO_TUNING, "the size of RocksDB's memtable (performance only)"},
    {"state.backend.incremental", WSO_UNPROVEN, "runtime/checkpoint_options.c: the older spelling of execution.checkpointing.incremental"},
    {"state.checkpoints.num-retained", WSO_UNPROVEN, "runtime/checkpoint_options.c: the older spelling of execution.checkpointing.num-retained"},
    {"state.savepoints.dir", WSO_UNPROVEN, "server/gateway.c: the default folder of a savepoint the REST API triggers"},
    {"state.checkpoint-storage", WSO_SHOWN_ONLY, "only shown in the REST checkpoint configuration"},
    {"state.changelog.enabled", WSO_SHOWN_ONLY, "only shown in the REST checkpoint configuration; weir has no changelog state backend"},
    {"state.backend.changelog.enabled", WSO_SHOWN_ONLY, "only shown in the REST checkpoint configuration; weir has no changelog state backend"},
    {"state.changelog.storage", WSO_SHOWN_ONLY, "only shown in the REST checkpoint configuration; weir has no changelog state backend"},
    {"state.changelog.periodic-materialize.interval", WSO_SHOWN_ONLY,
     "only shown in the REST checkpoint configuration; weir has no changelog state backend"},
    {NULL, WSO_APPLIED, NULL},
};

const WSessionOption *wsession_options(void) { return OPTIONS; }

const WSessionOption *wsession_option_find(const char *key)
{
    for (const WSessionOption *o = OPTIONS; o->key; o++)
        if (strcmp(o->key, key) == 0) return o;
    return NULL;
}

bool wsession_option_watched(const char *key)
{
    static const char *const PREFIXES[] = {"table.exec.", "table.optimizer.", "execution.", "state.", "pipeline.", NULL};
    if (strcmp(key, "parallelism.default") == 0) return true;
    for (int i = 0; PREFIXES[i]; i++)
        if (strncmp(key, PREFIXES[i], strlen(PREFIXES[i])) == 0) return true;
    return false;
}

char *wsession_option_warning(const char *key)
{
    if (!wsession_option_watched(key)) return NULL;
    const WSessionOption *o = wsession_option_find(key);
    if (o && o->cls != WSO_SHOWN_ONLY) return NULL;
    WStrBuf b;
    wsb_init(&b);
    if (o)
        wsb_printf(&b, "weir does not apply the option '%s' (%s): it is accepted, as Flink accepts it, and has no effect.",
                   key, o->note);
    else
        wsb_printf(&b, "weir does not know the option '%s': it is accepted, as Flink accepts any key, and has no effect.",
                   key);
    return wsb_detach(&b);
}

/* ---- SET's own checks (Flink 2.3's SQL client, measured for each key and kind of value) ---- */

typedef enum SetCheckKind { SC_PARALLELISM, SC_INT_POSITIVE, SC_INT_NON_NEGATIVE, SC_DURATION, SC_ENUM } SetCheckKind;

typedef struct SetCheck {
    const char *key;
    SetCheckKind kind;
    const char *what;           /* SC_INT_*: the message for a value out of range; SC_ENUM: the class */
    const char *values;         /* SC_ENUM: the constants, as Flink lists them */
} SetCheck;

/* The environment's options weir reads, as Flink's SET checks them. Flink also refuses a
   checkpoint interval or timeout under 10 ms at the SET; weir takes them (its recovery tests
   checkpoint every 1-8 ms; docs/user-guide.md, differences). */
static const SetCheck SET_CHECKS[] = {
    {"parallelism.default", SC_PARALLELISM, NULL, NULL},
    {"pipeline.max-parallelism", SC_INT_POSITIVE, "The maximum parallelism must be greater than 0.", NULL},
    {"pipeline.auto-watermark-interval", SC_DURATION, NULL, NULL},
    {"execution.runtime-mode", SC_ENUM, "org.apache.flink.api.common.RuntimeExecutionMode", "STREAMING, BATCH, AUTOMATIC"},
    {"execution.checkpointing.mode", SC_ENUM, "org.apache.flink.core.execution.CheckpointingMode",
     "EXACTLY_ONCE, AT_LEAST_ONCE"},
    {"execution.checkpointing.externalized-checkpoint-retention", SC_ENUM,
     "org.apache.flink.configuration.ExternalizedCheckpointRetention",
     "DELETE_ON_CANCELLATION, RETAIN_ON_CANCELLATION, NO_EXTERNALIZED_CHECKPOINTS"},
    {"execution.checkpointing.interval", SC_DURATION, NULL, NULL},
    {"execution.checkpointing.timeout", SC_DURATION, NULL, NULL},
    {"execution.checkpointing.min-pause", SC_DURATION, NULL, NULL},
    {"execution.checkpointing.tolerable-failed-checkpoints", SC_INT_NON_NEGATIVE,
     "The tolerable failure checkpoint number must be non-negative.", NULL},
    {NULL, SC_PARALLELISM, NULL, NULL},
};

/* v (n bytes) is one of the constants in values (case-insensitive, as Flink's enum options read). */
static bool enum_value(const char *v, size_t n, const char *values)
{
    for (const char *c = values; *c;) {
        const char *e = strchr(c, ',');
        size_t len = e ? (size_t)(e - c) : strlen(c);
        if (len == n && strncasecmp(c, v, n) == 0) return true;
        if (!e) break;
        c = e + 2;                      /* ", " */
    }
    return false;
}

bool wsession_option_check(const char *key, const char *value, char **stored, WError *err)
{
    *stored = NULL;
    const SetCheck *c = SET_CHECKS;
    while (c->key && strcmp(c->key, key) != 0) c++;
    if (!c->key) return true;
    int64_t x;
    switch (c->kind) {
    case SC_PARALLELISM:
        if (!wopts_parse_int(value, &x, err)) return false;
        if (x < 1 && x != -1)           /* -1: ExecutionConfig.PARALLELISM_DEFAULT */
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT (use system default).");
        return true;
    case SC_INT_POSITIVE:
    case SC_INT_NON_NEGATIVE:
        if (!wopts_parse_int(value, &x, err)) return false;
        if (x < (c->kind == SC_INT_POSITIVE ? 1 : 0)) return werr_set(err, WEXC_ILLEGAL_ARG, "%s", c->what);
        return true;
    case SC_DURATION:
        return wopts_parse_duration_ms(value, &x, err);
    case SC_ENUM: {
        /* trimmed, as Flink reads it (' batch' is BATCH): stored so, for every reader of the key */
        size_t n;
        value = wopts_trimmed(value, &n);
        if (enum_value(value, n, c->values)) {
            *stored = wmalloc(n + 1);
            memcpy(*stored, value, n);
            (*stored)[n] = 0;
            return true;
        }
        return werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value for enum class %s. Expected one of: [[%s]]",
                        c->what, c->values);
    }
    }
    return true;
}
