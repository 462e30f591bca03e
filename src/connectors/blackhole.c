/*
 * blackhole.c — the 'blackhole' sink: accepts any changelog, discards it, counts the rows.
 * Options as Flink's BlackHoleTableSinkFactory (none besides 'connector'). Depends on common/.
 */
#include "connector.h"
#include "conn_internal.h"

#include <stdlib.h>

static const WConnOption BH_INVENTORY[] = {
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "a legacy version number Flink accepts and ignores",
     .type = WOT_STRING},
    {"sink.changelog-mode", WOPT_APPLIED, NULL, "weir: the row kinds the sink accepts (planner)", .type = WOT_STRING},
    {0},
};

static bool bh_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    if (as_source)
        return werr_set(err, WEXC_VALIDATION,
                        "Connector 'blackhole' can only be used as a sink. It cannot be used as a source.");
    return wconnector_check_inventory(spec, "blackhole", BH_INVENTORY, false, NULL, NULL, err);
}

static bool bh_write(WSink *s, const WChunk *in, WError *err)
{
    (void)err;
    s->rows_written += in->nrows;
    return true;
}

static bool bh_finish(WSink *s, WError *err) { (void)s; (void)err; return true; }

static void bh_close(WSink *s) { free(s); }

static WSink *bh_open_sink(const WTableSpec *spec, WError *err)
{
    if (!bh_validate(spec, false, err)) return NULL;
    WSink *s = wcalloc(1, sizeof *s);
    s->write = bh_write;
    s->finish = bh_finish;
    s->close = bh_close;
    return s;
}

const WConnector wconn_blackhole = {
    .name = "blackhole",
    /* Flink 2.3's blackhole is an upsert SinkV2: every kind but UPDATE_BEFORE */
    .caps = {.sink_kinds = WCONN_INSERT | WCONN_UPDATE_AFTER | WCONN_DELETE, .sink_runtime = WSINK_WRITER},
    .options = BH_INVENTORY,
    .can_source = false,
    .can_sink = true,
    .validate = bh_validate,
    .open_source = NULL,
    .open_sink = bh_open_sink,
    .source_is_changelog = NULL,
};
