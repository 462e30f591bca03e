/*
 * cluster_config.c — conf/config.yaml reading and the REST endpoint settings. See cluster_config.h.
 */
#include "cluster_config.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wcluster_config_init(WClusterConfig *c)
{
    memset(c, 0, sizeof *c);
    wopts_init(&c->opts);
}

void wcluster_config_free(WClusterConfig *c)
{
    wopts_free(&c->opts);
    free(c->path);
    c->path = NULL;
}

/* ------------------------------------------------------------------ YAML subset */

typedef struct Level {
    int indent;
    char *prefix;               /* dotted key of this map ("" at top level) */
} Level;

/* Strip a comment (# at the start or after a blank, outside quotes) and trailing blanks. */
static void strip_comment(char *s)
{
    char q = 0;
    for (char *p = s; *p; p++) {
        if (q) {
            if (*p == q) q = 0;
            continue;
        }
        if (*p == '\'' || *p == '"') {
            q = *p;
            continue;
        }
        if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
            *p = 0;
            break;
        }
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
}

/* Unquote a scalar into a heap string; NULL on an unterminated quote. */
static char *scalar(const char *v)
{
    while (*v == ' ' || *v == '\t') v++;
    size_t n = strlen(v);
    if (n && (v[0] == '"' || v[0] == '\'')) {
        char q = v[0];
        WStrBuf s;
        wsb_init(&s);
        size_t i = 1;
        for (; i < n; i++) {
            if (v[i] == q) {
                if (q == '\'' && i + 1 < n && v[i + 1] == '\'') {
                    wsb_putc(&s, '\'');
                    i++;
                    continue;
                }
                break;
            }
            if (q == '"' && v[i] == '\\' && i + 1 < n) {
                i++;
                char c = v[i];
                wsb_putc(&s, c == 'n' ? '\n' : c == 't' ? '\t' : c);
                continue;
            }
            wsb_putc(&s, v[i]);
        }
        if (i >= n) {
            wsb_free(&s);
            return NULL;
        }
        if (!s.buf) wsb_append(&s, "");
        return wsb_detach(&s);
    }
    if (n >= 2 && v[0] == '[' && v[n - 1] == ']') {
        /* inline list: items joined with ';' */
        WStrBuf s;
        wsb_init(&s);
        char *inner = wstrdup(v + 1);
        inner[n - 2] = 0;
        int k = 0;
        char *save = NULL;
        for (char *tok = strtok_r(inner, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            char *item = scalar(tok);
            if (!item) continue;
            size_t m = strlen(item);
            while (m && item[m - 1] == ' ') item[--m] = 0;
            wsb_printf(&s, "%s%s", k++ ? ";" : "", item);
            free(item);
        }
        free(inner);
        if (!s.buf) wsb_append(&s, "");
        return wsb_detach(&s);
    }
    return wstrdup(v);
}

bool wyaml_flatten(const char *text, const char *name, WOptions *out, WError *err)
{
    Level lv[32];
    int depth = 0;
    lv[0] = (Level){-1, wstrdup("")};
    char *list_key = NULL;      /* key whose "- item" lines are being collected */
    int list_indent = -1;
    WStrBuf list;
    wsb_init(&list);
    bool ok = true;
    int lineno = 0;
    const char *p = text ? text : "";
    while (*p && ok) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = wmalloc(len + 1);
        memcpy(line, p, len);
        line[len] = 0;
        p = eol ? eol + 1 : p + len;
        lineno++;
        strip_comment(line);
        int indent = 0;
        while (line[indent] == ' ') indent++;
        if (line[indent] == '\t') {
            ok = werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                          "%s:%d: tabs are not allowed for indentation in YAML.", name, lineno);
            free(line);
            break;
        }
        char *s = line + indent;
        if (!*s || !strcmp(s, "---")) {
            free(line);
            continue;
        }
        if (s[0] == '-' && (s[1] == ' ' || s[1] == 0)) {
            if (!list_key || indent < list_indent) {
                ok = werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                              "%s:%d: a list item must follow a key.", name, lineno);
                free(line);
                break;
            }
            char *item = scalar(s + 1);
            if (!item) {
                ok = werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                              "%s:%d: unterminated quoted value.", name, lineno);
                free(line);
                break;
            }
            wsb_printf(&list, "%s%s", list.len ? ";" : "", item);
            free(item);
            free(line);
            continue;
        }
        if (list_key) {
            if (list.len) wopts_set(out, list_key, list.buf);
            free(list_key);
            list_key = NULL;
            wsb_clear(&list);
        }
        /* key: value — the key ends at the first ": " or a trailing ':' outside quotes */
        char *colon = NULL;
        for (char *q = s; *q; q++) {
            if (*q == ':' && (q[1] == ' ' || q[1] == 0)) {
                colon = q;
                break;
            }
        }
        if (!colon || colon == s) {
            ok = werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                          "%s:%d: expected 'key: value', found '%s'.", name, lineno, s);
            free(line);
            break;
        }
        *colon = 0;
        char *key = scalar(s);
        char *val = colon[1] ? scalar(colon + 1) : wstrdup("");
        if (!key || !val) {
            free(key);
            free(val);
            ok = werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                          "%s:%d: unterminated quoted value.", name, lineno);
            free(line);
            break;
        }
        while (depth > 0 && indent <= lv[depth].indent) free(lv[depth--].prefix);
        char *full = lv[depth].prefix[0] ? NULL : wstrdup(key);
        if (!full) {
            WStrBuf f;
            wsb_init(&f);
            wsb_printf(&f, "%s.%s", lv[depth].prefix, key);
            full = wsb_detach(&f);
        }
        if (val[0]) {
            wopts_set(out, full, val);
            free(full);
        } else if (depth + 1 < 32) {
            /* a nested map or a list follows */
            lv[++depth] = (Level){indent, full};
            list_key = wstrdup(full);
            list_indent = indent;
        } else {
            free(full);
            ok = werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                          "%s:%d: nesting too deep.", name, lineno);
        }
        free(key);
        free(val);
        free(line);
    }
    if (ok && list_key && list.len) wopts_set(out, list_key, list.buf);
    free(list_key);
    wsb_free(&list);
    for (int i = 0; i <= depth; i++) free(lv[i].prefix);
    return ok;
}

bool wcluster_config_load(WClusterConfig *c, const char *path, WError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return true;
        return werr_set(err, WEXC_IO, "Cannot read the configuration file %s: %s", path, strerror(errno));
    }
    WStrBuf sb;
    wsb_init(&sb);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && sb.len < (1u << 20)) wsb_appendn(&sb, buf, n);
    fclose(f);
    bool ok = wyaml_flatten(sb.buf ? sb.buf : "", path, &c->opts, err);
    wsb_free(&sb);
    if (ok) {
        free(c->path);
        c->path = wstrdup(path);
    }
    return ok;
}

const char *wcluster_get(const WClusterConfig *c, const char *key, const char *dflt)
{
    const char *v = c ? wopts_get(&c->opts, key) : NULL;
    return v && *v ? v : dflt;
}

const char *wcluster_bind_address(const WClusterConfig *c)
{
    const char *v = wcluster_get(c, "rest.bind-address", NULL);
    if (!v) v = wcluster_get(c, "rest.address", NULL);
    return v ? v : "localhost";
}

const char *wcluster_connect_address(const WClusterConfig *c)
{
    const char *v = wcluster_get(c, "rest.address", NULL);
    if (!v) v = wcluster_bind_address(c);
    if (!strcmp(v, "0.0.0.0") || !strcmp(v, "::")) return "localhost";
    return v;
}

static bool parse_port(const char *s, const char *end, int *out)
{
    long v = 0;
    if (s == end) return false;
    for (const char *p = s; p < end; p++) {
        if (!isdigit((unsigned char)*p)) return false;
        v = v * 10 + (*p - '0');
        if (v > 65535) return false;
    }
    *out = (int)v;
    return true;
}

static bool port_range_of(const char *text, int *lo, int *hi, WError *err)
{
    const char *v = text;
    while (*v == ' ') v++;
    const char *dash = strchr(v, '-');
    const char *end = v + strlen(v);
    while (end > v && end[-1] == ' ') end--;
    bool ok = dash ? parse_port(v, dash, lo) && parse_port(dash + 1, end, hi) : parse_port(v, end, lo);
    if (!dash) *hi = *lo;
    if (!ok || *lo > *hi)
        return werr_set(err, "org.apache.flink.configuration.IllegalConfigurationException",
                        "Invalid port range definition: %s", text);
    return true;
}

bool wcluster_port_range(const WClusterConfig *c, int *lo, int *hi, WError *err)
{
    return port_range_of(wcluster_get(c, "rest.port", "8081"), lo, hi, err);
}

bool wcluster_gateway_port_range(const WClusterConfig *c, int *lo, int *hi, WError *err)
{
    const char *v = wcluster_get(c, "sql-gateway.endpoint.rest.bind-port", NULL);
    if (!v) v = wcluster_get(c, "sql-gateway.endpoint.rest.port", "8083");
    return port_range_of(v, lo, hi, err);
}

const char *wcluster_gateway_bind_address(const WClusterConfig *c)
{
    const char *v = wcluster_get(c, "sql-gateway.endpoint.rest.bind-address", NULL);
    if (!v) v = wcluster_get(c, "sql-gateway.endpoint.rest.address", NULL);
    return v ? v : wcluster_bind_address(c);
}

const char *wcluster_gateway_connect_address(const WClusterConfig *c)
{
    const char *v = wcluster_get(c, "sql-gateway.endpoint.rest.address", NULL);
    if (!v) v = wcluster_gateway_bind_address(c);
    if (!strcmp(v, "0.0.0.0") || !strcmp(v, "::")) return "localhost";
    return v;
}
