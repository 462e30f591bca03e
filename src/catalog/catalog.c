/* catalog.c — the catalog manager: identifiers, tables and views, temporary objects; see
   catalog.h for the contract. Catalogs are in catalog_entry.c, databases in database.c. */
#include "catalog.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void wcatalog_init(WCatalog *c)
{
    memset(c, 0, sizeof *c);
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "type", "generic_in_memory");
    wopts_set(&o, "default-database", "default_database");
    bool ok = wcatalog_create_catalog(c, "default_catalog", NULL, &o, false, NULL);
    assert(ok);
    (void)ok;
    wopts_free(&o);
    c->current_catalog = wstrdup("default_catalog");
    c->current_database = wstrdup("default_database");
    wmodules_init(&c->modules);
}

void wtable_free(WTable *t)
{
    if (!t) return;
    wopts_free(&t->options);
    warena_delete(t->arena);
}

void wcatalog_free(WCatalog *c)
{
    for (int i = 0; i < c->ncat; i++) wcatalog_entry_free(c->cats[i]);
    free(c->cats);
    for (int i = 0; i < c->ntemp; i++) wtable_free(c->temps[i]);
    free(c->temps);
    free(c->current_catalog);
    free(c->current_database);
    free(c->store_dir);
    wmodules_free(&c->modules);
    memset(c, 0, sizeof *c);
}

bool wcatalog_resolve(const WCatalog *c, const AstName *name, WObjectId *id, WError *err)
{
    id->catalog = c->current_catalog;
    id->database = c->current_database;
    switch (name->n) {
    case 1: id->object = name->parts[0]; return true;
    case 2: id->database = name->parts[0]; id->object = name->parts[1]; return true;
    case 3: id->catalog = name->parts[0]; id->database = name->parts[1]; id->object = name->parts[2]; return true;
    default:
        id->object = name->n ? name->parts[name->n - 1] : "";
        return werr_set(err, WEXC_VALIDATION, "Object identifier must consist of 1 to 3 parts.");
    }
}

char *wcatalog_qualified(WArena *a, const WCatalog *c, const AstName *name)
{
    WObjectId id;
    if (!wcatalog_resolve(c, name, &id, NULL)) {
        /* too many parts: join them as written */
        char *s = wa_strdup(a, name->parts[0]);
        for (int i = 1; i < name->n; i++) s = wa_sprintf(a, "%s.%s", s, name->parts[i]);
        return s;
    }
    return wa_sprintf(a, "%s.%s.%s", id.catalog ? id.catalog : "", id.database ? id.database : "", id.object);
}

static bool same_id(const WTable *t, const WObjectId *id)
{
    return id->catalog && id->database && strcmp(t->name, id->object) == 0 && strcmp(t->catalog, id->catalog) == 0
        && strcmp(t->database, id->database) == 0;
}

WTable *wcatalog_find_temporary(WCatalog *c, const WObjectId *id)
{
    for (int i = 0; i < c->ntemp; i++)
        if (same_id(c->temps[i], id)) return c->temps[i];
    return NULL;
}

WTable *wcatalog_find_permanent(WCatalog *c, const WObjectId *id)
{
    if (!id->catalog || !id->database) return NULL;
    WCatalogEntry *e = wcatalog_find_catalog(c, id->catalog);
    WDatabase *d = e ? wcatalog_find_database(e, id->database) : NULL;
    if (!d) return NULL;
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->tables[i]->name, id->object) == 0) return d->tables[i];
    return NULL;
}

WTable *wcatalog_lookup_id(WCatalog *c, const WObjectId *id)
{
    WTable *t = wcatalog_find_temporary(c, id);
    return t ? t : wcatalog_find_permanent(c, id);
}

WTable *wcatalog_lookup(WCatalog *c, const AstName *name)
{
    WObjectId id;
    if (!wcatalog_resolve(c, name, &id, NULL)) return NULL;
    return wcatalog_lookup_id(c, &id);
}

WTable *wcatalog_lookup_simple(WCatalog *c, const char *name)
{
    char *parts[1] = {(char *)name};
    AstName n = {.n = 1, .parts = parts};
    return wcatalog_lookup(c, &n);
}

/* whether a temporary object lives in catalog.database (Calcite then sees the database) */
static bool has_temporary_in(const WCatalog *c, const char *cat, const char *db)
{
    for (int i = 0; i < c->ntemp; i++)
        if (strcmp(c->temps[i]->catalog, cat) == 0 && strcmp(c->temps[i]->database, db) == 0) return true;
    return false;
}

/* Calcite looks a name up as [current catalog, current database, name...], [current catalog,
   name...] and [name...]; its message names the longest prefix it found. A database Flink's
   catalog does not have but a temporary object lives in is seen, and the catalog then fails. */
void wcatalog_missing_error(const WCatalog *c, const AstName *name, WError *err)
{
    WObjectId id;
    int line = name->pos.line, col = name->pos.col;
    if (name->n == 1 || !wcatalog_resolve(c, name, &id, NULL)) {
        werr_set_at(err, line, col, WEXC_CALCITE, "Object '%s' not found", name->parts[0]);
        return;
    }
    const WCatalogEntry *e = wcatalog_find_catalog(c, id.catalog);
    bool db_exists = e && wcatalog_find_database(e, id.database);
    if (db_exists) {
        werr_set_at(err, line, col, WEXC_CALCITE, "Object '%s' not found within '%s.%s'", id.object, id.catalog,
                    id.database);
        return;
    }
    if (e && has_temporary_in(c, id.catalog, id.database)) {
        werr_set(err, WEXC_DB_MISSING, "Database %s does not exist in Catalog %s.", id.database, id.catalog);
        return;
    }
    if (name->n == 2 && wcatalog_find_catalog(c, name->parts[0])) {
        /* catalog.database read as a catalog and an object in it */
        werr_set_at(err, line, col, WEXC_CALCITE, "Object '%s' not found within '%s'", name->parts[1], name->parts[0]);
        return;
    }
    if (name->n == 3 && e) {
        werr_set_at(err, line, col, WEXC_CALCITE, "Object '%s' not found within '%s'", id.database, id.catalog);
        return;
    }
    werr_set_at(err, line, col, WEXC_CALCITE, "Object '%s' not found", name->parts[0]);
}

static void push_table(WTable ***arr, int *n, int *cap, WTable *t)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *arr = wrealloc(*arr, sizeof(WTable *) * (size_t)*cap);
    }
    (*arr)[(*n)++] = t;
}

bool wcatalog_add(WCatalog *c, WTable *t, WError *err)
{
    if (!t->catalog) t->catalog = wa_strdup(t->arena, c->current_catalog);
    if (!t->database) t->database = wa_strdup(t->arena, c->current_database);
    WObjectId id = {t->catalog, t->database, t->name};
    if (t->temporary) {
        if (wcatalog_find_temporary(c, &id))
            return werr_set(err, WEXC_VALIDATION, "Temporary table '`%s`.`%s`.`%s`' already exists", t->catalog,
                            t->database, t->name);
        push_table(&c->temps, &c->ntemp, &c->captemp, t);
        return true;
    }
    WCatalogEntry *e = wcatalog_find_catalog(c, t->catalog);
    if (!e) return werr_set(err, WEXC_VALIDATION, "Catalog %s does not exist.", t->catalog);
    WDatabase *d = wcatalog_find_database(e, t->database);
    if (!d) return werr_set(err, WEXC_DB_MISSING, "Database %s does not exist in Catalog %s.", t->database, t->catalog);
    if (wcatalog_find_permanent(c, &id))
        return werr_set(err, WEXC_VALIDATION, "Could not execute CreateTable in path `%s`.`%s`.`%s`", t->catalog,
                        t->database, t->name);
    push_table(&d->tables, &d->n, &d->cap, t);
    return true;
}

static bool remove_from(WTable **arr, int *n, WTable *t)
{
    for (int i = 0; i < *n; i++) {
        if (arr[i] != t) continue;
        memmove(&arr[i], &arr[i + 1], sizeof(WTable *) * (size_t)(*n - i - 1));
        (*n)--;
        return true;
    }
    return false;
}

bool wcatalog_replace(WCatalog *c, WTable *t, WTable *nt, WError *err)
{
    assert(!t->temporary && !nt->temporary);
    WCatalogEntry *e = wcatalog_find_catalog(c, t->catalog);
    WDatabase *d = e ? wcatalog_find_database(e, t->database) : NULL;
    for (int i = 0; d && i < d->n; i++) {
        if (d->tables[i] != t) continue;
        if (!nt->catalog) nt->catalog = wa_strdup(nt->arena, t->catalog);
        if (!nt->database) nt->database = wa_strdup(nt->arena, t->database);
        d->tables[i] = nt;
        wtable_free(t);
        return true;
    }
    wtable_free(nt);
    return werr_set(err, WEXC_TABLE, "The table to alter is no longer in its database.");
}

void wcatalog_remove(WCatalog *c, WTable *t)
{
    if (!remove_from(c->temps, &c->ntemp, t)) {
        WCatalogEntry *e = wcatalog_find_catalog(c, t->catalog);
        WDatabase *d = e ? wcatalog_find_database(e, t->database) : NULL;
        if (!d || !remove_from(d->tables, &d->n, t)) return;
    }
    wtable_free(t);
}

bool wcatalog_drop(WCatalog *c, const AstName *name, bool want_view, bool temporary, bool if_exists, WError *err)
{
    WObjectId id;
    if (!wcatalog_resolve(c, name, &id, err)) return false;
    WTable *tmp = wcatalog_find_temporary(c, &id);
    if (temporary) {
        if (tmp && tmp->is_view == want_view) {
            wcatalog_remove(c, tmp);
            return true;
        }
        if (if_exists) return true;
        return werr_set(err, WEXC_VALIDATION, "Temporary table or view with identifier '%s.%s.%s' does not exist.",
                        id.catalog, id.database, id.object);
    }
    const char *what = want_view ? "view" : "table";
    if (tmp && tmp->is_view == want_view)
        return werr_set(err, WEXC_VALIDATION,
                        "Temporary %s with identifier '`%s`.`%s`.`%s`' exists. Drop it first before removing the "
                        "permanent %s.", what, id.catalog, id.database, id.object, what);
    WTable *t = wcatalog_find_permanent(c, &id);
    if (t && t->is_view == want_view) {
        wcatalog_remove(c, t);
        return true;
    }
    if (if_exists) return true;
    return werr_set(err, WEXC_VALIDATION, "%s with identifier '%s.%s.%s' does not exist.",
                    want_view ? "View" : "Table", id.catalog, id.database, id.object);
}

int wtable_physical(const WTable *t, int *idx)
{
    int n = 0;
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].kind == WCOL_PHYSICAL) idx[n++] = i;
    return n;
}
