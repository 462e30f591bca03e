/*
 * file_catalog.c — the 'weir-file' catalog type: a catalog whose databases, tables and views are
 * kept as files under its 'path' option, so that they outlive the session and a restart of the
 * cluster daemon (Flink's in-memory catalog loses them; Flink keeps them with its Hive or JDBC
 * catalogs, which weir does not have).
 *
 * Layout: one folder per database, <path>/<database>/, holding `.database.yaml` (its comment and
 * properties, `key: "value"` lines as the file catalog store writes them) and one file
 * `<object>.sql` per table or view with its DDL: a table's CREATE TABLE as SHOW CREATE TABLE prints
 * it, a view's CREATE VIEW with the query as written, after two comment lines naming the catalog
 * and database its query's names resolve against. Names are percent-encoded in file names (every
 * byte but letters, digits, '_' and '-'), so any identifier maps to one file and no object file
 * can be taken for the database file.
 *
 * This file owns the layout only: the session turns the DDL into tables (the catalog layer cannot
 * bind) through wfilecat_objects, and writes the files after each statement that changes the
 * catalog (wfilecat_save_* / wfilecat_remove_*). See catalog.h.
 */
#include "catalog.h"
#include "../common/sort.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../common/strbuf.h"

#define DATABASE_FILE ".database.yaml"
#define VIEW_CATALOG_LINE "-- view-catalog: "
#define VIEW_DATABASE_LINE "-- view-database: "

bool wcatalog_is_file_catalog(const WCatalogEntry *e)
{
    const char *type = wopts_get(&e->options, "type");
    return type && strcmp(type, WCATALOG_FILE_TYPE) == 0;
}

static const char *root_dir(const WCatalogEntry *e)
{
    const char *path = wopts_get(&e->options, "path");
    assert(path);
    return wcatalog_local_dir(path);
}

static void encode_name(WStrBuf *b, const char *name)
{
    for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
        if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'
            || *s == '-')
            wsb_putc(b, (char)*s);
        else
            wsb_printf(b, "%%%02X", *s);
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* NULL when the file name is not one this file writes */
static char *decode_name(const char *s, size_t n)
{
    WStrBuf b;
    wsb_init(&b);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            wsb_putc(&b, (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2])));
            i += 2;
        } else if (s[i] == '%' || s[i] == '.') {
            wsb_free(&b);
            return NULL;
        } else {
            wsb_putc(&b, s[i]);
        }
    }
    if (!b.buf) wsb_append(&b, "");
    return wsb_detach(&b);
}

static char *db_dir(const WCatalogEntry *e, const char *db)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "%s/", root_dir(e));
    encode_name(&b, db);
    return wsb_detach(&b);
}

static char *object_file(const WCatalogEntry *e, const char *db, const char *name)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "%s/", root_dir(e));
    encode_name(&b, db);
    wsb_putc(&b, '/');
    encode_name(&b, name);
    wsb_append(&b, ".sql");
    return wsb_detach(&b);
}

static bool fail(WError *err, const WCatalogEntry *e, const char *what, const char *path)
{
    return werr_set(err, WEXC_CATALOG, "Catalog %s: could not %s %s: %s", e->name, what, path, strerror(errno));
}

/* write through a temporary file of its own (sessions of the cluster daemon are threads of one
   process) and rename, so a reader never sees half a definition */
static bool write_file(const WCatalogEntry *e, const char *path, const char *text, WError *err)
{
    WStrBuf tmp;
    wsb_init(&tmp);
    wsb_printf(&tmp, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp.buf);
    if (fd >= 0) (void)fchmod(fd, 0644);       /* mkstemp's 0600 -> the usual mode of a definition */
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) close(fd);
    size_t n = strlen(text);
    bool ok = f && (n == 0 || fwrite(text, 1, n, f) == n);
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp.buf, path) != 0) ok = false;
    if (!ok) {
        fail(err, e, "write", path);
        if (fd >= 0) unlink(tmp.buf);
    }
    wsb_free(&tmp);
    return ok;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    WStrBuf b;
    wsb_init(&b);
    char buf[8192];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) wsb_appendn(&b, buf, k);
    fclose(f);
    if (!b.buf) wsb_append(&b, "");
    return wsb_detach(&b);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the entries of a folder (no dot files), sorted */
static char **list_dir(const char *dir, int *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    int cap = 8;
    char **names = wcalloc((size_t)cap, sizeof(char *));
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        if (*n == cap) names = wrealloc(names, sizeof(char *) * (size_t)(cap *= 2));
        names[(*n)++] = wstrdup(de->d_name);
    }
    closedir(d);
    wqsort(names, (size_t)*n, sizeof(char *), cmp_str);
    return names;
}

static void free_list(char **names, int n)
{
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

bool wfilecat_save_database(const WCatalogEntry *e, const WDatabase *d, WError *err)
{
    char *dir = db_dir(e, d->name);
    bool ok = mkdir(dir, 0777) == 0 || errno == EEXIST || fail(err, e, "create", dir);
    if (ok) {
        WOptions o;
        wopts_init(&o);
        if (d->comment) wopts_set(&o, "comment", d->comment);
        for (int i = 0; i < d->properties.n; i++) {
            WStrBuf k;
            wsb_init(&k);
            wsb_printf(&k, "properties.%s", d->properties.items[i].key);
            wopts_set(&o, k.buf, d->properties.items[i].value);
            wsb_free(&k);
        }
        WStrBuf text, path;
        wsb_init(&text);
        wsb_init(&path);
        wcatalog_yaml_write(&text, &o);
        wsb_printf(&path, "%s/%s", dir, DATABASE_FILE);
        ok = write_file(e, path.buf, text.buf ? text.buf : "", err);
        wsb_free(&text);
        wsb_free(&path);
        wopts_free(&o);
    }
    free(dir);
    return ok;
}

bool wfilecat_remove_database(const WCatalogEntry *e, const char *db, WError *err)
{
    char *dir = db_dir(e, db);
    int n;
    char **names = list_dir(dir, &n);
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        size_t len = strlen(names[i]);
        if (len < 4 || strcmp(names[i] + len - 4, ".sql") != 0) continue;
        WStrBuf p;
        wsb_init(&p);
        wsb_printf(&p, "%s/%s", dir, names[i]);
        if (unlink(p.buf) != 0 && errno != ENOENT) ok = fail(err, e, "remove", p.buf);
        wsb_free(&p);
    }
    free_list(names, n);
    if (ok) {
        WStrBuf p;
        wsb_init(&p);
        wsb_printf(&p, "%s/%s", dir, DATABASE_FILE);
        if (unlink(p.buf) != 0 && errno != ENOENT) ok = fail(err, e, "remove", p.buf);
        wsb_free(&p);
    }
    /* a folder that still holds files weir did not write stays (without its database file) */
    if (ok && rmdir(dir) != 0 && errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
        ok = fail(err, e, "remove", dir);
    free(dir);
    return ok;
}

bool wfilecat_save_object(const WCatalogEntry *e, const WTable *t, const char *ddl, WError *err)
{
    assert(!t->temporary);
    WStrBuf text;
    wsb_init(&text);
    if (t->is_view) {
        wsb_append(&text, VIEW_CATALOG_LINE);
        wcatalog_yaml_quoted(&text, t->view_catalog);
        wsb_append(&text, "\n" VIEW_DATABASE_LINE);
        wcatalog_yaml_quoted(&text, t->view_database);
        wsb_putc(&text, '\n');
    }
    wsb_append(&text, ddl);
    wsb_putc(&text, '\n');
    char *path = object_file(e, t->database, t->name);
    bool ok = write_file(e, path, text.buf, err);
    free(path);
    wsb_free(&text);
    return ok;
}

bool wfilecat_remove_object(const WCatalogEntry *e, const char *db, const char *name, WError *err)
{
    char *path = object_file(e, db, name);
    bool ok = unlink(path) == 0 || errno == ENOENT || fail(err, e, "remove", path);
    free(path);
    return ok;
}

/* the value of a `-- key: "value"` header line of an object file, or NULL */
static char *header_value(const char *text, const char *prefix)
{
    for (const char *line = text; line && !strncmp(line, "--", 2); line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (!strncmp(line, prefix, strlen(prefix))) return wcatalog_yaml_scalar(line + strlen(prefix));
    return NULL;
}

bool wfilecat_open(WCatalogEntry *e, WError *err)
{
    const char *dir = root_dir(e);
    if (!dir)
        return werr_set(err, WEXC_VALIDATION, "Unsupported file system scheme of the catalog path '%s'; only local "
                        "folders are supported.", wopts_get(&e->options, "path"));
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) return fail(err, e, "create", dir);
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return werr_set(err, WEXC_CATALOG, "Catalog %s: the path %s is not a folder.", e->name, dir);
    int n;
    char **names = list_dir(dir, &n);
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        char *db = decode_name(names[i], strlen(names[i]));
        WStrBuf p;
        wsb_init(&p);
        wsb_printf(&p, "%s/%s/%s", dir, names[i], DATABASE_FILE);
        if (db && access(p.buf, F_OK) == 0 && !wcatalog_find_database(e, db)) {
            WOptions o, props;
            wopts_init(&o);
            wopts_init(&props);
            ok = wcatalog_yaml_read(p.buf, &o, err);
            for (int k = 0; ok && k < o.n; k++)
                if (!strncmp(o.items[k].key, "properties.", 11))
                    wopts_set(&props, o.items[k].key + 11, o.items[k].value);
            if (ok) wdatabase_add(e, db, wopts_get(&o, "comment"), &props);
            wopts_free(&o);
            wopts_free(&props);
        }
        wsb_free(&p);
        free(db);
    }
    free_list(names, n);
    if (!ok) return false;
    if (!wcatalog_find_database(e, wcatalog_default_database(e)))
        ok = wfilecat_save_database(e, wdatabase_add(e, wcatalog_default_database(e), NULL, NULL), err);
    e->objects_to_load = ok;
    return ok;
}

bool wfilecat_objects(const WCatalogEntry *e, WFileCatVisit visit, void *ctx, WError *err)
{
    bool ok = true;
    for (int d = 0; ok && d < e->ndb; d++) {
        char *dir = db_dir(e, e->dbs[d]->name);
        int n;
        char **names = list_dir(dir, &n);
        for (int i = 0; ok && i < n; i++) {
            size_t len = strlen(names[i]);
            if (len <= 4 || strcmp(names[i] + len - 4, ".sql") != 0) continue;
            char *name = decode_name(names[i], len - 4);
            if (!name) continue;
            WStrBuf p;
            wsb_init(&p);
            wsb_printf(&p, "%s/%s", dir, names[i]);
            char *text = read_file(p.buf);
            if (!text) {
                ok = fail(err, e, "read", p.buf);
            } else {
                WFileCatObject o = {
                    .database = e->dbs[d]->name, .name = name, .ddl = text, .file = p.buf,
                    .view_catalog = header_value(text, VIEW_CATALOG_LINE),
                    .view_database = header_value(text, VIEW_DATABASE_LINE),
                };
                ok = visit(ctx, &o, err);
                free(o.view_catalog);
                free(o.view_database);
            }
            free(text);
            free(name);
            wsb_free(&p);
        }
        free_list(names, n);
        free(dir);
    }
    return ok;
}
