/*
 * fs_legacy.c — a table of Flink's legacy descriptor options, 'connector.type' = 'filesystem' with
 * 'format.type' = 'csv': the CsvTableSource that Flink 2.x still plans (Nexmark q13's side input).
 * It is a source (its file read by the filesystem connector's CSV reader, with the legacy format's
 * rules: no quote character, an empty STRING field is '') and a lookup source, as Flink's
 * CsvTableSource is (its lookup function loads the whole file once and answers every key from
 * memory). It is found through wconnector_id (no 'connector' option) and is not listed among the
 * factory identifiers. Depends on conn_internal.h, fs_internal.h, types/compare.h.
 */
#include "conn_internal.h"
#include "fs_internal.h"
#include "../types/compare.h"
#include "../types/type.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The legacy CSV source factory's properties (Flink's CsvTableSourceFactoryBase): those weir
   accepts (the path, the format, the field delimiter; the property versions change nothing in
   Flink either), and those it does not read yet. */
static const char *const ACCEPTED[] = {"connector.type", "connector.path", "format.type", "format.field-delimiter",
                                      "connector.property-version", "format.property-version", NULL};
static const char *const NOT_YET[] = {"format.line-delimiter", "format.quote-character", "format.comment-prefix",
                                      "format.ignore-first-line", "format.ignore-parse-errors", NULL};

static bool listed(const char *const *list, const char *key)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], key) == 0) return true;
    return false;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Flink's NoMatchingTableFactoryException: the reason, then the properties it was given (the
   table's options and its schema), sorted. */
static bool no_matching_factory(const WTableSpec *spec, bool as_source, const char *reason, WError *err)
{
    const WOptions *o = spec->options;
    WArena a;
    warena_init(&a, 0);
    int n = 0;
    char **props = WA_ARRAY(&a, char *, o->n + 2 * spec->ncols + 1);
    for (int i = 0; i < o->n; i++) props[n++] = wa_sprintf(&a, "%s=%s", o->items[i].key, o->items[i].value);
    for (int c = 0; c < spec->ncols; c++) {
        const WType *t = spec->col_types[c];
        /* the descriptor's type string: STRING and BYTES by their lengths */
        const char *ts = t->id == WT_VARCHAR && t->precision == WT_MAX_LENGTH ? "VARCHAR(2147483647)"
                         : t->id == WT_VARBINARY && t->precision == WT_MAX_LENGTH ? "VARBINARY(2147483647)"
                         : wtype_str(&a, t);
        props[n++] = wa_sprintf(&a, "schema.%d.data-type=%s", c, ts);
        props[n++] = wa_sprintf(&a, "schema.%d.name=%s", c, spec->col_names[c]);
    }
    qsort(props, (size_t)n, sizeof *props, cmp_str);
    WStrBuf m;
    wsb_init(&m);
    wsb_printf(&m, "Could not find a suitable table factory for 'org.apache.flink.table.legacy.factories.%s' in\n"
                   "the classpath.\n\nReason: %s\nThe following properties are requested:\n",
               as_source ? "TableSourceFactory" : "TableSinkFactory", reason);
    for (int i = 0; i < n; i++) wsb_printf(&m, "%s\n", props[i]);
    wsb_append(&m, "\nThe following factories have been considered:\n"
                   "org.apache.flink.table.sources.CsvBatchTableSourceFactory\n"
                   "org.apache.flink.table.sources.CsvAppendTableSourceFactory");
    werr_set(err, "org.apache.flink.table.factories.NoMatchingTableFactoryException", "%s", m.buf);
    wsb_free(&m);
    warena_free(&a);
    return false;
}

static bool legacy_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    const WOptions *o = spec->options;
    assert(as_source);      /* wconnector_lookup refuses it as a sink */
    const char *fmt = wopts_get(o, "format.type");
    if (fmt && strcmp(fmt, "csv") != 0) {
        char reason[256];
        snprintf(reason, sizeof reason, "Required context properties mismatch.\n\nThe matching candidates:\n"
                 "org.apache.flink.table.sources.CsvBatchTableSourceFactory\nMismatched properties:\n"
                 "'format.type' expects 'csv', but is '%s'\n", fmt);
        return no_matching_factory(spec, as_source, reason, err);
    }
    WStrBuf unsupported;
    wsb_init(&unsupported);
    for (int i = 0; i < o->n; i++) {
        const char *k = o->items[i].key;
        if (listed(NOT_YET, k) || strncmp(k, "format.fields.", 14) == 0) {
            wsb_free(&unsupported);
            return werr_set(err, WEXC_VALIDATION, "The legacy filesystem table option '%s' is not supported by weir yet.", k);
        }
        if (!listed(ACCEPTED, k)) wsb_printf(&unsupported, "%s\n", k);
    }
    if (unsupported.len) {
        WStrBuf reason;
        wsb_init(&reason);
        wsb_printf(&reason, "No factory supports all properties.\n\nThe matching candidates:\n"
                            "org.apache.flink.table.sources.CsvBatchTableSourceFactory\nUnsupported property keys:\n%s",
                   unsupported.buf);
        no_matching_factory(spec, as_source, reason.buf, err);
        wsb_free(&reason);
        wsb_free(&unsupported);
        return false;
    }
    wsb_free(&unsupported);
    if (!fmt) return werr_set(err, WEXC_VALIDATION, "Could not find required property 'format.type'.");
    if (!wopts_get(o, "connector.path"))
        return werr_set(err, WEXC_VALIDATION, "Could not find required property 'connector.path'.");
    return true;
}

/* The filesystem connector's options for the same file and format rules. */
static void modern_options(const WOptions *legacy, WOptions *out)
{
    wopts_init(out);
    wopts_set(out, "connector", "filesystem");
    wopts_set(out, "path", wopts_get(legacy, "connector.path"));
    wopts_set(out, "format", "csv");
    wopts_set(out, "csv.disable-quote-character", "true");
    const char *d = wopts_get(legacy, "format.field-delimiter");
    if (d) wopts_set(out, "csv.field-delimiter", d);
}

static WSource *legacy_open_source(const WTableSpec *spec, WError *err)
{
    if (!legacy_validate(spec, true, err)) return NULL;
    WOptions modern;
    modern_options(spec->options, &modern);
    WTableSpec s = *spec;
    s.options = &modern;           /* the file source copies what it keeps */
    WSource *src = wfs_open_legacy_csv_source(&s, err);
    wopts_free(&modern);
    return src;
}

/* ---- lookup: the whole file in memory, rows by key ---- */

typedef struct LegacyLookup {
    WLookupSource base;
    int ncols;
    const WType **types;
    int nkeys;
    int *key_cols;
    WChunk **store;             /* the file's rows, deep copies, WCHUNK_CAP a chunk */
    int nstore;
    /* open addressing over the rows: (hash, row number + 1), 0 = empty */
    uint64_t *hashes;
    int64_t *rows;
    size_t cap;
    WChunk *out;                /* the last lookup's rows */
} LegacyLookup;

static uint64_t key_hash(const LegacyLookup *l, const WChunk *c, int r, const WDatum *key)
{
    uint64_t h = 0x6c6f6f6b7570ULL;
    for (int k = 0; k < l->nkeys; k++) {
        const WType *t = l->types[l->key_cols[k]];
        h = wdatum_hash(t, c ? c->cols[l->key_cols[k]].data[r] : key[k], h);
    }
    return h;
}

static bool row_has_key(const LegacyLookup *l, const WChunk *c, int r, const WDatum *key)
{
    for (int k = 0; k < l->nkeys; k++) {
        int col = l->key_cols[k];
        if (c->cols[col].nulls[r] || !wdatum_equal(l->types[col], c->cols[col].data[r], key[k])) return false;
    }
    return true;
}

static const WChunk *ll_lookup(WLookupSource *base, const WDatum *key, WError *err)
{
    LegacyLookup *l = (LegacyLookup *)base;
    (void)err;
    wchunk_reset(l->out);
    if (!l->cap) return l->out;
    uint64_t h = key_hash(l, NULL, 0, key);
    for (size_t i = h & (l->cap - 1); l->rows[i]; i = (i + 1) & (l->cap - 1)) {
        if (l->hashes[i] != h) continue;
        int64_t n = l->rows[i] - 1;
        const WChunk *c = l->store[n / WCHUNK_CAP];
        int r = (int)(n % WCHUNK_CAP);
        if (!row_has_key(l, c, r, key)) continue;
        if (l->out->nrows == l->out->cap) {     /* more matches than a chunk: a larger one */
            WChunk *bigger = wchunk_new(l->ncols, l->types, l->out->cap * 2);
            for (int j = 0; j < l->out->nrows; j++) wchunk_append_rows(bigger, l->out, &j, 1, false);
            wchunk_free(l->out);
            l->out = bigger;
        }
        /* the row's values by reference: the store outlives the result */
        wchunk_append_rows(l->out, c, &r, 1, false);
    }
    return l->out;
}

static void ll_close(WLookupSource *base)
{
    LegacyLookup *l = (LegacyLookup *)base;
    for (int i = 0; i < l->nstore; i++) wchunk_free(l->store[i]);
    free(l->store);
    free(l->hashes);
    free(l->rows);
    free(l->key_cols);
    free(l->types);
    wchunk_free(l->out);
    free(l);
}

static void index_row(LegacyLookup *l, int64_t n)
{
    const WChunk *c = l->store[n / WCHUNK_CAP];
    int r = (int)(n % WCHUNK_CAP);
    for (int k = 0; k < l->nkeys; k++)
        if (c->cols[l->key_cols[k]].nulls[r]) return;      /* a NULL key matches no lookup */
    uint64_t h = key_hash(l, c, r, NULL);
    size_t i = h & (l->cap - 1);
    while (l->rows[i]) i = (i + 1) & (l->cap - 1);
    l->hashes[i] = h;
    l->rows[i] = n + 1;
}

static WLookupSource *legacy_open_lookup(const WTableSpec *spec, int nkeys, const int *key_cols, WError *err)
{
    WTableSpec all = *spec;
    all.col_read = NULL;
    all.col_fields_read = NULL;
    all.nmeta = 0;
    all.npartition = 0;
    all.subtask = 0;            /* every subtask's lookup reads the whole file */
    all.parallelism = 1;
    WSource *src = legacy_open_source(&all, err);
    if (!src) return NULL;
    LegacyLookup *l = wcalloc(1, sizeof *l);
    l->ncols = spec->ncols;
    l->types = wmalloc(sizeof *l->types * (size_t)(spec->ncols ? spec->ncols : 1));
    memcpy(l->types, spec->col_types, sizeof *l->types * (size_t)spec->ncols);
    l->nkeys = nkeys;
    l->key_cols = wmalloc(sizeof *l->key_cols * (size_t)(nkeys ? nkeys : 1));
    memcpy(l->key_cols, key_cols, sizeof *l->key_cols * (size_t)nkeys);
    l->base.lookup = ll_lookup;
    l->base.close = ll_close;
    l->out = wchunk_new(l->ncols, l->types, 64);
    /* read the file: every row copied into the store */
    WChunk *c = wchunk_new(l->ncols, l->types, WCHUNK_CAP);
    int64_t nrows = 0;
    WSourceStatus st;
    do {
        wchunk_reset(c);
        st = src->next(src, c, err);
        if (st == WSRC_ERROR) break;
        for (int r = 0; r < c->nrows; r++, nrows++) {
            if (nrows % WCHUNK_CAP == 0) {
                l->store = wrealloc(l->store, sizeof *l->store * (size_t)(l->nstore + 1));
                l->store[l->nstore++] = wchunk_new(l->ncols, l->types, WCHUNK_CAP);
            }
            wchunk_append_row(l->store[l->nstore - 1], c, r);
        }
    } while (st != WSRC_END);
    wchunk_free(c);
    if (src->close) src->close(src);
    if (st == WSRC_ERROR) {
        ll_close(&l->base);
        return NULL;
    }
    l->cap = 16;
    while ((int64_t)l->cap < nrows * 2) l->cap *= 2;
    l->hashes = wcalloc(l->cap, sizeof *l->hashes);
    l->rows = wcalloc(l->cap, sizeof *l->rows);
    for (int64_t n = 0; n < nrows; n++) index_row(l, n);
    return &l->base;
}

const WConnector wconn_filesystem_legacy = {
    .name = WCONN_LEGACY_FILESYSTEM,
    .caps = {.source_summary = "CsvTableSource", .projection_pushdown = true},
    .can_source = true,
    .can_sink = false,
    .validate = legacy_validate,
    .open_source = legacy_open_source,
    .open_lookup = legacy_open_lookup,
};
