/*
 * catalog_store.c — Flink's catalog store: where CREATE CATALOG definitions are kept. The default
 * kind ('generic_in_memory') keeps them in the session only; kind 'file' (Flink's FileCatalogStore)
 * keeps each catalog's options in <table.catalog-store.file.path>/<catalog>.yaml, one
 * `key: "value"` line per option, so a new session (after a cluster restart, say) finds the catalogs
 * again. As in Flink, the comment is not part of the stored definition. See catalog.h.
 */
#include "catalog.h"
#include "../common/sort.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../common/strbuf.h"

const char *wcatalog_local_dir(const char *uri)
{
    if (!strncmp(uri, "file://", 7)) return uri + 7;
    if (!strncmp(uri, "file:", 5)) return uri + 5;
    if (strstr(uri, "://")) return NULL;
    return uri;
}

static char *catalog_file(const WCatalog *c, const char *name)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "%s/%s.yaml", c->store_dir, name);
    return wsb_detach(&b);
}

/* "..." with \" \\ \n \t escapes, or a plain scalar up to the end of the line */
char *wcatalog_yaml_scalar(const char *s)
{
    WStrBuf b;
    wsb_init(&b);
    while (*s == ' ') s++;
    if (*s == '"' || *s == '\'') {
        char q = *s++;
        for (; *s && *s != q; s++) {
            if (q == '"' && *s == '\\' && s[1]) {
                s++;
                wsb_putc(&b, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s);
            } else if (q == '\'' && *s == '\'' && s[1] == '\'') {
                wsb_putc(&b, *s++);
            } else {
                wsb_putc(&b, *s);
            }
        }
    } else {
        size_t n = strcspn(s, "\r\n");
        while (n && s[n - 1] == ' ') n--;
        wsb_appendn(&b, s, n);
    }
    if (!b.buf) wsb_append(&b, "");
    return wsb_detach(&b);
}

bool wcatalog_yaml_read(const char *path, WOptions *o, WError *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return werr_set(err, WEXC_CATALOG, "Failed to load catalog definition from %s: %s", path, strerror(errno));
    char line[8192];
    int no = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        no++;
        char *s = line;
        while (*s == ' ') s++;
        if (!*s || *s == '#' || *s == '\n' || *s == '\r') continue;
        char *colon = NULL;
        if (*s == '"' || *s == '\'') {
            char *close = strchr(s + 1, *s);
            colon = close ? strchr(close, ':') : NULL;
        } else {
            colon = strstr(s, ": ");
            if (!colon) colon = strchr(s, ':');
        }
        if (!colon) {
            ok = werr_set(err, WEXC_CATALOG, "Failed to load catalog definition from %s: line %d is not 'key: value'",
                          path, no);
            break;
        }
        *colon = 0;
        char *key = wcatalog_yaml_scalar(s), *value = wcatalog_yaml_scalar(colon + 1);
        wopts_set(o, key, value);
        free(key);
        free(value);
    }
    fclose(f);
    return ok;
}

void wcatalog_yaml_quoted(WStrBuf *b, const char *s)
{
    wsb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') wsb_putc(b, '\\');
        if (*s == '\n') wsb_append(b, "\\n");
        else if (*s == '\t') wsb_append(b, "\\t");
        else wsb_putc(b, *s);
    }
    wsb_putc(b, '"');
}

static int cmp_option(const void *a, const void *b)
{
    return strcmp(((const WOption *)a)->key, ((const WOption *)b)->key);
}

void wcatalog_yaml_write(WStrBuf *b, const WOptions *o)
{
    WOption *sorted = wcalloc((size_t)o->n + 1, sizeof(WOption));
    if (o->n) memcpy(sorted, o->items, sizeof(WOption) * (size_t)o->n);
    wqsort(sorted, (size_t)o->n, sizeof(WOption), cmp_option);
    for (int i = 0; i < o->n; i++) {
        wsb_printf(b, "%s: ", sorted[i].key);
        wcatalog_yaml_quoted(b, sorted[i].value);
        wsb_putc(b, '\n');
    }
    free(sorted);
}

bool wcatalog_store_save(const WCatalog *c, const WCatalogEntry *e, WError *err)
{
    if (!c->store_dir || !e->in_store) return true;
    WStrBuf b;
    wsb_init(&b);
    wcatalog_yaml_write(&b, &e->options);
    char *path = catalog_file(c, e->name);
    FILE *f = fopen(path, "w");
    bool ok = f && (b.len == 0 || fwrite(b.buf, 1, b.len, f) == b.len);
    if (f && fclose(f) != 0) ok = false;
    if (!ok) werr_set(err, WEXC_CATALOG, "Failed to store catalog %s in %s: %s", e->name, path, strerror(errno));
    free(path);
    wsb_free(&b);
    return ok;
}

bool wcatalog_store_remove(const WCatalog *c, const char *name, WError *err)
{
    if (!c->store_dir) return true;
    char *path = catalog_file(c, name);
    bool ok = unlink(path) == 0 || errno == ENOENT;
    if (!ok) werr_set(err, WEXC_CATALOG, "Failed to remove catalog %s from %s: %s", name, path, strerror(errno));
    free(path);
    return ok;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool wcatalog_store_open(WCatalog *c, const char *kind, const char *path, WError *err)
{
    if (!kind || strcmp(kind, "generic_in_memory") == 0) return true;
    if (strcmp(kind, "file") != 0)
        return werr_set(err, WEXC_VALIDATION,
                        "Could not find any factory for identifier '%s' that implements "
                        "'org.apache.flink.table.factories.CatalogStoreFactory' in the classpath.\n\n"
                        "Available factory identifiers are:\n\nfile\ngeneric_in_memory", kind);
    if (!path || !*path)
        return werr_set(err, WEXC_VALIDATION,
                        "One or more required options are missing.\n\nMissing required options are:\n\npath");
    const char *dir = wcatalog_local_dir(path);
    if (!dir) return werr_set(err, WEXC_CATALOG, "Unsupported file system scheme of the catalog store path '%s'.", path);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return werr_set(err, WEXC_CATALOG, "Failed to open file catalog store directory %s: %s", path, strerror(errno));
    DIR *d = opendir(dir);
    if (!d) return werr_set(err, WEXC_CATALOG, "Failed to open file catalog store directory %s: %s", path, strerror(errno));
    free(c->store_dir);
    c->store_dir = wstrdup(dir);
    int n = 0, cap = 8;
    char **names = wcalloc((size_t)cap, sizeof(char *));
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml") != 0) continue;
        if (n == cap) names = wrealloc(names, sizeof(char *) * (size_t)(cap *= 2));
        names[n] = wstrdup(de->d_name);
        names[n++][len - 5] = 0;
    }
    closedir(d);
    wqsort(names, (size_t)n, sizeof(char *), cmp_name);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (ok && !wcatalog_find_catalog(c, names[i])) {
            WOptions o;
            wopts_init(&o);
            char *file = catalog_file(c, names[i]);
            ok = wcatalog_yaml_read(file, &o, err) && wcatalog_create_catalog(c, names[i], NULL, &o, true, err);
            free(file);
            wopts_free(&o);
        }
        free(names[i]);
    }
    free(names);
    return ok;
}
