/*
 * connector.c — the connector registry (Flink's factory discovery by 'connector' identifier) and
 * the shared option validation with Flink's FactoryUtil messages. See connector.h.
 * Depends on connectors' own files, types/, common/.
 */
#include "connector.h"
#include "../common/proc_clock.h"

#include <assert.h>
#include <time.h>
#include "../common/sort.h"
#include "conn_internal.h"
#include "../types/cast.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Sorted by identifier, as Flink lists "Available factory identifiers". */
static const WConnector *const ALL[] = {
    &wconn_blackhole, &wconn_datagen, &wconn_filesystem, &wconn_jdbc, &wconn_kafka, &wconn_nexmark, &wconn_print,
    &wconn_upsert_kafka, NULL,
};

bool wconnector_refuse_sink(const WConnector *c, WError *err)
{
    assert(!c->can_sink);
    if (c == &wconn_filesystem_legacy)
        return werr_set(err, WEXC_VALIDATION, "weir reads tables of the legacy options 'connector.type' = 'filesystem'; "
                                              "it does not write them (use 'connector' = 'filesystem').");
    return werr_set(err, WEXC_VALIDATION, "Connector '%s' can only be used as a source. It cannot be used as a sink.",
                    c->name);
}

const char *wconnector_id(const WOptions *options)
{
    const char *c = wopts_get(options, "connector");
    if (c) return c;
    const char *legacy = wopts_get(options, "connector.type");
    return legacy && strcmp(legacy, "filesystem") == 0 ? WCONN_LEGACY_FILESYSTEM : NULL;
}

const WConnector *wconnector_find(const char *name)
{
    if (!name) return NULL;
    if (strcmp(name, WCONN_LEGACY_FILESYSTEM) == 0) return &wconn_filesystem_legacy;
    for (int i = 0; ALL[i]; i++)
        if (strcmp(ALL[i]->name, name) == 0) return ALL[i];
    return NULL;
}

const WConnector *const *wconnector_all(void) { return ALL; }

bool wconnector_format_is_changelog(const char *format)
{
    const WConnFormat *f = format ? wconn_format_find(format) : NULL;
    return f && f->changelog;
}

const WConnMetaKey *wconn_metadata_key(const WConnMetadata *m, const char *key)
{
    for (int i = 0; i < m->nkeys; i++)
        if (strcmp(m->keys[i].key, key) == 0) return &m->keys[i];
    return NULL;
}

bool wconn_metadata_invalid_key(WError *err, const WConnMetadata *m, bool reading, const char *key,
                                const char *column, const char *table)
{
    WStrBuf keys;
    wsb_init(&keys);
    for (int k = 0; k < m->nkeys; k++) wsb_printf(&keys, "\n%s", m->keys[k].key);
    werr_set(err, WEXC_VALIDATION,
             "Invalid metadata key '%s' in column '%s' of table '%s'. The %s class '%s' supports the following "
             "metadata keys for %s:%s", key, column, table, reading ? "DynamicTableSource" : "DynamicTableSink",
             m->class_name, reading ? "reading" : "writing", keys.buf);
    wsb_free(&keys);
    return false;
}

const WConnCaps *wconnector_caps(const WOptions *options)
{
    const WConnector *c = options ? wconnector_find(wconnector_id(options)) : NULL;
    return c ? &c->caps : NULL;
}

bool wconnector_lookup(const WOptions *options, bool as_source, const WConnector **out, WError *err)
{
    *out = NULL;
    const char *name = options ? wconnector_id(options) : NULL;
    if (!name)
        return werr_set(err, WEXC_VALIDATION,
                        "Table options do not contain an option key 'connector' for discovering a connector.");
    const WConnector *c = wconnector_find(name);
    if (!c) {
        char ids[512];
        size_t o = 0;
        ids[0] = 0;
        for (int i = 0; ALL[i]; i++)
            o += (size_t)snprintf(ids + o, o < sizeof ids ? sizeof ids - o : 0, "%s%s", i ? "\n" : "", ALL[i]->name);
        return werr_set(err, WEXC_VALIDATION,
                        "Could not find any factory for identifier '%s' that implements "
                        "'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.\n\n"
                        "Available factory identifiers are:\n\n%s", name, ids);
    }
    if (as_source && !c->can_source)
        return werr_set(err, WEXC_VALIDATION,
                        "Connector '%s' can only be used as a sink. It cannot be used as a source.", name);
    if (!as_source && !c->can_sink) return wconnector_refuse_sink(c, err);
    *out = c;
    return true;
}

bool wconn_option_key_matches(const char *pattern, const char *key)
{
    if (*pattern == 0) return *key == 0;
    if (*pattern == '#') {
        /* one or more characters, then the rest of the pattern */
        for (const char *k = key + 1; k <= key + strlen(key); k++)
            if (*key && wconn_option_key_matches(pattern + 1, k)) return true;
        return false;
    }
    return *key == *pattern && wconn_option_key_matches(pattern + 1, key + 1);
}

const WConnOption *wconn_option_find(const WConnOption *inv, const char *key)
{
    for (int i = 0; inv && inv[i].key; i++)
        if (wconn_option_key_matches(inv[i].key, key)) return &inv[i];
    return NULL;
}

bool wconn_refuse_unimplemented(const WConnOption *inv, const char *owner, const char *owner_kind,
                                const char *prefix, const WOptions *o, WError *err)
{
    size_t pl = strlen(prefix);
    for (int i = 0; o && i < o->n; i++) {
        const char *k = o->items[i].key, *v = o->items[i].value;
        if (strncmp(k, prefix, pl) != 0) continue;
        const WConnOption *e = wconn_option_find(inv, k + pl);
        if (!e || e->effect != WOPT_REFUSED) continue;
        if (e->dflt && strcasecmp(e->dflt, v) == 0) continue;      /* the default changes nothing */
        return werr_set(err, WEXC_VALIDATION,
                        "Option '%s' of the '%s' %s is not supported by weir yet (%s).", k, owner, owner_kind,
                        e->what);
    }
    return true;
}

bool wconn_enum_error(const WOptEnum *e, WError *err)
{
    return werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value for enum class %s. Expected one of: [[%s]]",
                    e->java_class, e->values);
}

const WOptEnum wconn_watermark_emit_enum = {"org.apache.flink.table.watermark.WatermarkEmitStrategy",
                                             "on-event, on-periodic"};

bool wconn_scan_watermark(const WOptions *o, WScanWatermark *out, WError *err)
{
    out->emit = -1;
    const char *v = wopts_get(o, "scan.watermark.emit.strategy");
    if (v && strcasecmp(v, "on-event") == 0) out->emit = 0;
    else if (v && strcasecmp(v, "on-periodic") == 0) out->emit = 1;
    else if (v)
        return wconn_enum_error(&wconn_watermark_emit_enum, err);
    out->idle_timeout_ms = -1;
    const char *it = wopts_get(o, "scan.watermark.idle-timeout");
    /* measured on Flink 2.3 (TimeUtils.parseDuration): the cause, with its text */
    if (it && !wopts_parse_duration_ms(it, &out->idle_timeout_ms, err)) return false;
    return true;
}

static bool in_list(const char *const *list, const char *key)
{
    for (int i = 0; list && list[i]; i++)
        if (strcmp(list[i], key) == 0) return true;
    return false;
}

static bool has_prefix(const char *const *prefixes, const char *key)
{
    for (int i = 0; prefixes && prefixes[i]; i++)
        if (strncmp(key, prefixes[i], strlen(prefixes[i])) == 0) return true;
    return false;
}

/* A key pattern that is a prefix: '#' only at its end ("properties.#"). */
static bool prefix_pattern(const char *pattern)
{
    const char *h = strchr(pattern, '#');
    return h && h[1] == 0 && h > pattern;
}

static bool under_prefix_pattern(const WConnOption *inv, const char *key)
{
    for (int i = 0; inv && inv[i].key; i++)
        if (prefix_pattern(inv[i].key) && strncmp(key, inv[i].key, strlen(inv[i].key) - 1) == 0) return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Append sorted, de-duplicated keys joined by '\n'. */
static void join_sorted(const char **keys, int n, WStrBuf *out)
{
    wqsort(keys, (size_t)n, sizeof *keys, cmp_str);
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (i > 0 && strcmp(keys[i], keys[i - 1]) == 0) continue;
        if (!first) wsb_putc(out, '\n');
        wsb_append(out, keys[i]);
        first = false;
    }
}

/* Java's Integer.parseInt / Long.parseLong of the text as it is (measured on Flink 2.3: ' 5 ' is
   'For input string: " 5 "'): an optional sign and decimal digits within [lo, hi]. */
static bool java_parse_integer(const char *v, int64_t lo, int64_t hi, WError *err)
{
    const char *p = v;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+') p++;
    bool ok = *p != 0;
    __int128 x = 0;
    for (; ok && *p; p++) {
        if (*p < '0' || *p > '9') ok = false;
        else if ((x = x * 10 + (*p - '0')) > (__int128)hi + 1) ok = false;
    }
    if (neg) x = -x;
    if (ok && x >= lo && x <= hi) return true;
    return werr_set(err, WEXC_NUMBER, "For input string: \"%s\"", v);
}

/* Java's Double.parseDouble, as CAST(v AS DOUBLE) reads it (types/cast.c: the same messages,
   'For input string: "v"' and "empty String"). */
static bool java_parse_double(const char *v, WError *err)
{
    WDatum d;
    const WCastCtx ctx = {0};
    return wcast_from_text_ex(&ctx, v, (int)strlen(v), &WTYPE_DOUBLE, &d, NULL, err) == WCAST_OK;
}

bool wconn_option_check_value(const WConnOption *e, const char *v, WError *err)
{
    bool b;
    int64_t x;
    switch (e->type) {
    case WOT_STRING: case WOT_LIST: case WOT_BY_COLUMN: return true;
    case WOT_INT: return java_parse_integer(v, INT32_MIN, INT32_MAX, err);
    case WOT_LONG: return java_parse_integer(v, INT64_MIN, INT64_MAX, err);
    case WOT_DOUBLE: return java_parse_double(v, err);
    case WOT_BOOL: return wopts_parse_bool(v, &b, err);
    case WOT_DURATION: return wopts_parse_duration_ms(v, &x, err);
    case WOT_MEMORY: return wopts_parse_bytes(v, &x, err);
    case WOT_ENUM: {
        /* ConfigurationUtils.convertToEnum: the constants' names compared in upper case */
        const char *vals = e->enum_of->values;
        size_t vl = strlen(v);
        for (const char *p = vals; *p;) {
            const char *q = strstr(p, ", ");
            size_t n = q ? (size_t)(q - p) : strlen(p);
            if (n == vl && strncasecmp(p, v, n) == 0) return true;
            p += n + (q ? 2 : 0);
        }
        return wconn_enum_error(e->enum_of, err);
    }
    }
    return true;
}

/* Is key one of the options the connector supports here (see wconnector_check_inventory)? */
static bool supported(const WConnOption *inv, const char *const *extra, const char *const *prefixes, const char *key)
{
    if (strcmp(key, "connector") == 0 || in_list(extra, key) || has_prefix(prefixes, key) ||
        under_prefix_pattern(inv, key))
        return true;
    for (int i = 0; inv && inv[i].key; i++)
        if (!strchr(inv[i].key, '#') && strcmp(inv[i].key, key) == 0) return true;
    return false;
}

bool wconnector_check_inventory(const WTableSpec *spec, const char *connector, const WConnOption *inv,
                                bool as_source, const char *const *extra, const char *const *prefixes,
                                WError *err)
{
    const WOptions *o = spec->options;
    int nopts = o ? o->n : 0;
    int ninv = 0;
    while (inv && inv[ninv].key) ninv++;
    int nextra = 0;
    while (extra && extra[nextra]) nextra++;
    /* missing required options (sorted) */
    uint8_t use = as_source ? WOPT_REQ_SOURCE : WOPT_REQ_SINK;
    const char **keys = wmalloc(sizeof(char *) * (size_t)(1 + ninv + nextra + nopts + 1));
    int n = 0;
    for (int i = 0; i < ninv; i++)
        if ((inv[i].required & use) && (!o || !wopts_get(o, inv[i].key))) keys[n++] = inv[i].key;
    if (n) {
        WStrBuf s;
        wsb_init(&s);
        join_sorted(keys, n, &s);
        werr_set(err, WEXC_VALIDATION,
                 "One or more required options are missing.\n\nMissing required options are:\n\n%s", s.buf);
        wsb_free(&s);
        free(keys);
        return false;
    }
    /* the values of the supported options, as their types (Flink reads every declared option) */
    for (int i = 0; i < nopts; i++) {
        const char *k = o->items[i].key;
        const WConnOption *e = wconn_option_find(inv, k);
        if (e && supported(inv, extra, prefixes, k) && !wconn_option_check_value(e, o->items[i].value, err)) {
            free(keys);
            return false;
        }
    }
    /* unsupported options */
    const char **unsup = wmalloc(sizeof(char *) * (size_t)(nopts + 1));
    int nunsup = 0;
    for (int i = 0; i < nopts; i++)
        if (!supported(inv, extra, prefixes, o->items[i].key)) unsup[nunsup++] = o->items[i].key;
    if (nunsup) {
        n = 0;
        keys[n++] = "connector";
        for (int i = 0; i < ninv; i++)
            if (!strchr(inv[i].key, '#')) keys[n++] = inv[i].key;
        for (int i = 0; i < nextra; i++) keys[n++] = extra[i];
        for (int i = 0; i < nopts; i++)
            if (has_prefix(prefixes, o->items[i].key) || under_prefix_pattern(inv, o->items[i].key))
                keys[n++] = o->items[i].key;
        WStrBuf a, b;
        wsb_init(&a);
        wsb_init(&b);
        join_sorted(unsup, nunsup, &a);
        join_sorted(keys, n, &b);
        werr_set(err, WEXC_VALIDATION,
                 "Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
                 connector, a.buf, b.buf);
        wsb_free(&a);
        wsb_free(&b);
        free(unsup);
        free(keys);
        return false;
    }
    free(unsup);
    free(keys);
    return wconn_refuse_unimplemented(inv, connector, "connector", "", o, err);
}

void wsrc_add_wait(WSource *s, int64_t since_ns)
{
    int64_t d = wproc_mono_ns() - since_ns;
    if (d > 0) s->waited_ns += d;
}

void wsrc_sleep_ns(WSource *s, int64_t ns)
{
    if (ns <= 0) return;
    int64_t t0 = wproc_mono_ns();
    struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    nanosleep(&ts, NULL);
    wsrc_add_wait(s, t0);
}
