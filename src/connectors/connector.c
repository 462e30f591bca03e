/*
 * connector.c — the connector registry (Flink's factory discovery by 'connector' identifier) and
 * the shared option validation with Flink's FactoryUtil messages. See connector.h.
 * Depends on connectors' own files, types/, common/.
 */
#include "connector.h"
#include "../common/proc_clock.h"

#include <time.h>
#include "../common/sort.h"
#include "conn_internal.h"
#include "../common/duration.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Sorted by identifier, as Flink lists "Available factory identifiers". */
static const WConnector *const ALL[] = {
    &wconn_blackhole, &wconn_datagen, &wconn_filesystem, &wconn_jdbc, &wconn_kafka, &wconn_nexmark, &wconn_print,
    &wconn_upsert_kafka, NULL,
};

const WConnector *wconnector_find(const char *name)
{
    if (!name) return NULL;
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

const WConnCaps *wconnector_caps(const WOptions *options)
{
    const WConnector *c = options ? wconnector_find(wopts_get(options, "connector")) : NULL;
    return c ? &c->caps : NULL;
}

bool wconnector_lookup(const WOptions *options, bool as_source, const WConnector **out, WError *err)
{
    *out = NULL;
    const char *name = options ? wopts_get(options, "connector") : NULL;
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
    if (!as_source && !c->can_sink)
        return werr_set(err, WEXC_VALIDATION,
                        "Connector '%s' can only be used as a source. It cannot be used as a sink.", name);
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

bool wconn_scan_watermark(const WOptions *o, WScanWatermark *out, WError *err)
{
    out->emit = -1;
    const char *v = wopts_get(o, "scan.watermark.emit.strategy");
    if (v && strcasecmp(v, "on-event") == 0) out->emit = 0;
    else if (v && strcasecmp(v, "on-periodic") == 0) out->emit = 1;
    else if (v)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value for enum class "
                        "org.apache.flink.table.watermark.WatermarkEmitStrategy. Expected one of: [[on-event, on-periodic]]");
    out->idle_timeout_ms = -1;
    const char *it = wopts_get(o, "scan.watermark.idle-timeout");
    WError inner;
    werr_clear(&inner);
    if (it && !wduration_parse(it, &out->idle_timeout_ms, &inner))
        /* measured on Flink 2.3 (TimeUtils.parseDuration): the cause, with its text */
        return werr_set(err, inner.cls, "%s%s%s", inner.msg,
                        strcmp(inner.cls, WEXC_NUMBER) == 0 ? ", and is not a valid ISO-8601 duration format: " : "",
                        strcmp(inner.cls, WEXC_NUMBER) == 0 ? it : "");
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

bool wconnector_check_options(const WTableSpec *spec, const char *connector,
                              const char *const *required, const char *const *optional,
                              const char *const *prefixes, WError *err)
{
    const WOptions *o = spec->options;
    int nopts = o ? o->n : 0;
    /* missing required options (sorted) */
    int nreq = 0;
    while (required && required[nreq]) nreq++;
    const char **missing = wmalloc(sizeof(char *) * (size_t)(nreq + 1));
    int nmiss = 0;
    for (int i = 0; i < nreq; i++)
        if (!o || !wopts_get(o, required[i])) missing[nmiss++] = required[i];
    if (nmiss) {
        WStrBuf s;
        wsb_init(&s);
        join_sorted(missing, nmiss, &s);
        werr_set(err, WEXC_VALIDATION,
                 "One or more required options are missing.\n\nMissing required options are:\n\n%s", s.buf);
        wsb_free(&s);
        free(missing);
        return false;
    }
    free(missing);
    /* unsupported options */
    int nunsup = 0;
    const char **unsup = wmalloc(sizeof(char *) * (size_t)(nopts + 1));
    for (int i = 0; i < nopts; i++) {
        const char *k = o->items[i].key;
        if (strcmp(k, "connector") == 0 || in_list(required, k) || in_list(optional, k) ||
            has_prefix(prefixes, k))
            continue;
        unsup[nunsup++] = k;
    }
    if (nunsup) {
        int nopt = 0;
        while (optional && optional[nopt]) nopt++;
        const char **sup = wmalloc(sizeof(char *) * (size_t)(1 + nreq + nopt + nopts + 1));
        int ns = 0;
        sup[ns++] = "connector";
        for (int i = 0; i < nreq; i++) sup[ns++] = required[i];
        for (int i = 0; i < nopt; i++) sup[ns++] = optional[i];
        for (int i = 0; i < nopts; i++)
            if (has_prefix(prefixes, o->items[i].key)) sup[ns++] = o->items[i].key;
        WStrBuf a, b;
        wsb_init(&a);
        wsb_init(&b);
        join_sorted(unsup, nunsup, &a);
        join_sorted(sup, ns, &b);
        werr_set(err, WEXC_VALIDATION,
                 "Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
                 connector, a.buf, b.buf);
        wsb_free(&a);
        wsb_free(&b);
        free(sup);
        free(unsup);
        return false;
    }
    free(unsup);
    const WConnector *c = wconnector_find(connector);
    return !c || wconn_refuse_unimplemented(c->options, connector, "connector", "", o, err);
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
