/*
 * print.c — the 'print' sink: every row as a line, as Flink's PrintSinkOutputWriter writes it.
 *
 * Line = prefix + Row.toString(): the prefix is 'print-identifier' (if any), then each column of
 * a static partition as k=v (':' between the items, as Flink's PrintSink), then, when the sink
 * runs with parallelism > 1, ':' (only after an identifier) and the 1-based subtask index, then
 * '> ' if the prefix is non-empty. Row.toString is `<kind>[v1, v2, ...]` with values rendered by
 * wfmt_java (Java toString rules). Lines go to stderr with 'standard-error' = true, otherwise to
 * spec->out (stdout when NULL); they are flushed at finish. Depends on types/, common/.
 */
#include "connector.h"
#include "conn_internal.h"
#include "../types/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const WConnOption PRINT_INVENTORY[] = {
    {"print-identifier", WOPT_APPLIED, NULL, "the prefix of every printed line", .type = WOT_STRING},
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "a legacy version number Flink accepts and ignores",
     .type = WOT_STRING},
    {"sink.parallelism", WOPT_APPLIED, NULL, "the sink's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {"standard-error", WOPT_APPLIED, "false", "print to stderr instead of stdout", .type = WOT_BOOL},
    {"sink.changelog-mode", WOPT_APPLIED, NULL, "weir: the row kinds the sink accepts (planner; default all)",
     .type = WOT_STRING},
    {0},
};

static bool print_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    if (as_source)
        return werr_set(err, WEXC_VALIDATION,
                        "Connector 'print' can only be used as a sink. It cannot be used as a source.");
    return wconnector_check_inventory(spec, "print", PRINT_INVENTORY, false, NULL, NULL, err);
}

typedef struct PrintSink {
    WSink base;
    FILE *out;
    char *prefix;
    int ncols;
    const WType **types;
    const WTimeZone *tz;
    WStrBuf line;
} PrintSink;

static bool print_write(WSink *base, const WChunk *in, WError *err)
{
    PrintSink *s = (PrintSink *)base;
    WStrBuf *l = &s->line;
    for (int r = 0; r < in->nrows; r++) {
        wsb_clear(l);
        wsb_append(l, s->prefix);
        wsb_append(l, wrowkind_short((WRowKind)in->kinds[r]));
        wsb_putc(l, '[');
        for (int c = 0; c < s->ncols; c++) {
            if (c) wsb_append(l, ", ");
            wfmt_java(s->types[c], in->cols[c].data[r], in->cols[c].nulls[r] != 0, s->tz, l);
        }
        wsb_append(l, "]\n");
        if (fwrite(l->buf, 1, l->len, s->out) != l->len)
            return werr_set(err, WEXC_IO, "Failed to write print output.");
    }
    base->rows_written += in->nrows;
    return true;
}

static bool print_finish(WSink *base, WError *err)
{
    PrintSink *s = (PrintSink *)base;
    if (fflush(s->out) != 0) return werr_set(err, WEXC_IO, "Failed to flush print output.");
    return true;
}

static void print_close(WSink *base)
{
    PrintSink *s = (PrintSink *)base;
    fflush(s->out);
    wsb_free(&s->line);
    free(s->prefix);
    free(s->types);
    free(s);
}

static WSink *print_open_sink(const WTableSpec *spec, WError *err)
{
    if (!print_validate(spec, false, err)) return NULL;
    bool to_stderr = false;
    wopts_get_bool(spec->options, "standard-error", false, &to_stderr, err);
    PrintSink *s = wcalloc(1, sizeof *s);
    s->base.write = print_write;
    s->base.finish = print_finish;
    s->base.close = print_close;
    s->out = to_stderr ? stderr : (spec->out ? spec->out : stdout);
    WStrBuf p;
    wsb_init(&p);
    const char *id = wopts_get(spec->options, "print-identifier");
    if (id) wsb_append(&p, id);
    /* a static partition (INSERT ... PARTITION (k = 'v')) follows as :k=v, as Flink's PrintSink */
    for (int k = 0; k < spec->nstatic; k++) {
        if (p.len) wsb_putc(&p, ':');
        wsb_printf(&p, "%s=%s", spec->static_keys[k], spec->static_values[k]);
    }
    if (spec->parallelism > 1) {
        if (p.len) wsb_putc(&p, ':');
        wsb_printf(&p, "%d", spec->subtask + 1);
    }
    if (p.len) wsb_append(&p, "> ");
    if (!p.buf) wsb_append(&p, "");
    s->prefix = wsb_detach(&p);
    s->ncols = spec->ncols;
    s->types = wmalloc(sizeof(WType *) * (size_t)(spec->ncols ? spec->ncols : 1));
    for (int i = 0; i < spec->ncols; i++) s->types[i] = spec->col_types[i];
    s->tz = spec->cast ? spec->cast->tz : NULL;
    wsb_init(&s->line);
    return &s->base;
}

const WConnector wconn_print = {
    .name = "print",
    .options = PRINT_INVENTORY,
    .can_source = false,
    .can_sink = true,
    .validate = print_validate,
    .open_source = NULL,
    .open_sink = print_open_sink,
    .source_is_changelog = NULL,
};
