/*
 * sink_metadata.c — the metadata columns an INSERT writes (Flink's SupportsWritingMetadata):
 * a table's persisted metadata columns (`METADATA [FROM 'key']` without VIRTUAL) are sink columns
 * the query fills like physical ones, in declaration order; the sink consumes the physical columns
 * followed by the metadata columns in the connector's order of writable keys, each cast to its
 * key's type (DynamicSinkUtils.validateAndApplyMetadata / pushMetadataProjection).
 * Writable keys: kafka and upsert-kafka (KafkaDynamicSink.WritableMetadata): `headers`
 * (MAP<STRING, BYTES>) and `timestamp` (TIMESTAMP_LTZ(3)). No other connector writes metadata.
 * Depends on plan.h (catalog, types).
 */
#include "plan.h"
#include "../types/cast.h"

#include <assert.h>

#include <string.h>

/* KafkaDynamicSink.WritableMetadata, in its order (listWritableMetadata's LinkedHashMap). */
static const char *const KAFKA_WRITABLE[] = {"headers", "timestamp"};

static const WType *kafka_writable_type(WArena *a, int k)
{
    return k == 0 ? wtype_map(a, &WTYPE_STRING, &WTYPE_BYTES, true) : wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, true);
}

const WType *wplan_sink_metadata_type(WArena *a, const char *conn, const char *key)
{
    if (!conn || (strcmp(conn, "kafka") && !wplan_upsert_connector(conn))) return NULL;
    for (int k = 0; k < 2; k++) if (!strcmp(key, KAFKA_WRITABLE[k])) return kafka_writable_type(a, k);
    return NULL;
}

int wplan_sink_metadata(WPlanCtx *p, const WTable *t, const char *qn, WSinkMetaCol **out)
{
    WArena *a = p->arena;
    *out = NULL;
    int n = 0;
    for (int i = 0; i < t->ncols; i++) n += t->cols[i].kind == WCOL_METADATA && !t->cols[i].is_virtual;
    if (!n) return 0;
    const char *conn = wopts_get(&t->options, "connector");
    bool kafka = conn && (!strcmp(conn, "kafka") || wplan_upsert_connector(conn));
    if (!kafka) {
        werr_set(p->err, WEXC_VALIDATION,
                 "Table '%s' declares persistable metadata columns, but the underlying DynamicTableSink doesn't "
                 "implement the SupportsWritingMetadata interface. If the column should not be persisted, it can be "
                 "declared with the VIRTUAL keyword.", qn);
        return -1;
    }
    WSinkMetaCol *m = WA_ARRAY(a, WSinkMetaCol, n);
    int got = 0;
    /* checked in declaration order (Flink's first error), listed in the writable keys' order */
    for (int i = 0; i < t->ncols; i++) {
        const WColumn *c = &t->cols[i];
        if (c->kind != WCOL_METADATA || c->is_virtual) continue;
        const char *key = c->metadata_key ? c->metadata_key : c->name;
        const WType *mt = wplan_sink_metadata_type(a, conn, key);
        if (!mt) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Invalid metadata key '%s' in column '%s' of table '%s'. The DynamicTableSink class "
                     "'org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink' supports the following "
                     "metadata keys for writing:\nheaders\ntimestamp", key, c->name, qn);
            return -1;
        }
        if (!wcast_supported(c->type, mt) && !strcmp(key, c->name)) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Invalid data type for metadata column '%s' of table '%s'. The column cannot be declared as '%s' "
                     "because the type must be castable to metadata type '%s'.",
                     c->name, qn, wtype_str(a, c->type), wtype_str(a, mt));
            return -1;
        }
        if (!wcast_supported(c->type, mt)) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Invalid data type for metadata column '%s' with metadata key '%s' of table '%s'. The column "
                     "cannot be declared as '%s' because the type must be castable to metadata type '%s'.",
                     c->name, key, qn, wtype_str(a, c->type), wtype_str(a, mt));
            return -1;
        }
    }
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < t->ncols; i++) {
            const WColumn *c = &t->cols[i];
            if (c->kind != WCOL_METADATA || c->is_virtual) continue;
            const char *key = c->metadata_key ? c->metadata_key : c->name;
            if (strcmp(key, KAFKA_WRITABLE[k])) continue;
            m[got++] = (WSinkMetaCol){.col = i, .key = KAFKA_WRITABLE[k], .type = kafka_writable_type(a, k)};
        }
    }
    assert(got == n);       /* one column per key (bind_ddl refuses two columns of one key) */
    *out = m;
    return got;
}
