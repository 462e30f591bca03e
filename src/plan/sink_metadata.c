/*
 * sink_metadata.c — the metadata columns an INSERT writes (Flink's SupportsWritingMetadata):
 * a table's persisted metadata columns (`METADATA [FROM 'key']` without VIRTUAL) are sink columns
 * the query fills like physical ones, in declaration order; the sink consumes the physical columns
 * followed by the metadata columns in the connector's order of writable keys, each cast to its
 * key's type (DynamicSinkUtils.validateAndApplyMetadata / pushMetadataProjection).
 * The writable keys and their types are the connector's (WConnCaps.write_metadata: kafka and
 * upsert-kafka write Flink's KafkaDynamicSink keys headers and timestamp).
 * Depends on plan.h (catalog, types).
 */
#include "plan.h"
#include "../connectors/connector.h"
#include "../types/cast.h"

#include <assert.h>

#include <string.h>

static const WConnMetadata *writable(const char *conn)
{
    const WConnector *c = wconnector_find(conn);
    return c ? c->caps.write_metadata : NULL;
}

const WType *wplan_sink_metadata_type(const char *conn, const char *key)
{
    const WConnMetadata *md = writable(conn);
    const WConnMetaKey *mk = md ? wconn_metadata_key(md, key) : NULL;
    return mk ? mk->type : NULL;
}

int wplan_sink_metadata(WPlanCtx *p, const WTable *t, const char *qn, WSinkMetaCol **out)
{
    WArena *a = p->arena;
    *out = NULL;
    int n = 0;
    for (int i = 0; i < t->ncols; i++) n += t->cols[i].kind == WCOL_METADATA && !t->cols[i].is_virtual;
    if (!n) return 0;
    const WConnMetadata *md = writable(wconnector_id(&t->options));
    if (!md) {
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
        const WConnMetaKey *mk = wconn_metadata_key(md, key);
        if (!mk) {
            wconn_metadata_invalid_key(p->err, md, false, key, c->name, qn);
            return -1;
        }
        const WType *mt = mk->type;
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
    for (int k = 0; k < md->nkeys; k++) {
        for (int i = 0; i < t->ncols; i++) {
            const WColumn *c = &t->cols[i];
            if (c->kind != WCOL_METADATA || c->is_virtual) continue;
            const char *key = c->metadata_key ? c->metadata_key : c->name;
            if (strcmp(key, md->keys[k].key)) continue;
            m[got++] = (WSinkMetaCol){.col = i, .key = md->keys[k].key, .type = md->keys[k].type};
        }
    }
    assert(got == n);       /* one column per key (bind_ddl refuses two columns of one key) */
    *out = m;
    return got;
}
