/* database.c — databases of a catalog: CREATE / DROP DATABASE and USE with Flink's rules and
   messages (Flink's CatalogManager and GenericInMemoryCatalog). See catalog.h. */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>

WDatabase *wcatalog_find_database(const WCatalogEntry *e, const char *name)
{
    for (int i = 0; i < e->ndb; i++)
        if (strcmp(e->dbs[i]->name, name) == 0) return e->dbs[i];
    return NULL;
}

WDatabase *wdatabase_add(WCatalogEntry *e, const char *name, const char *comment, const WOptions *props)
{
    WDatabase *d = wcalloc(1, sizeof *d);
    d->name = wstrdup(name);
    d->comment = comment ? wstrdup(comment) : NULL;
    if (props) wopts_copy(&d->properties, props);
    else wopts_init(&d->properties);
    if (e->ndb == e->capdb) {
        e->capdb = e->capdb ? e->capdb * 2 : 4;
        e->dbs = wrealloc(e->dbs, sizeof(WDatabase *) * (size_t)e->capdb);
    }
    e->dbs[e->ndb++] = d;
    return d;
}

void wdatabase_free(WDatabase *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) wtable_free(d->tables[i]);
    free(d->tables);
    wopts_free(&d->properties);
    free(d->comment);
    free(d->name);
    free(d);
}

/* [catalog.]database -> (catalog name, database name) */
static void split_db(const WCatalog *c, const AstName *name, const char **cat, const char **db)
{
    *cat = name->n >= 2 ? name->parts[0] : c->current_catalog;
    *db = name->parts[name->n - 1];
}

WDatabase *wcatalog_database_or_error(const WCatalog *c, const AstName *name, WError *err)
{
    const char *cat, *db;
    split_db(c, name, &cat, &db);
    WCatalogEntry *e = wcatalog_find_catalog(c, cat);
    if (!e) {
        werr_set(err, WEXC_CATALOG_MISSING, "Catalog %s does not exist.", cat);
        return NULL;
    }
    WDatabase *d = wcatalog_find_database(e, db);
    if (!d) werr_set(err, WEXC_DB_MISSING, "Database %s does not exist in Catalog %s.", db, cat);
    return d;
}

bool wcatalog_create_database(WCatalog *c, const AstName *name, const char *comment, const WOptions *props,
                              bool if_not_exists, WError *err)
{
    const char *cat, *db;
    split_db(c, name, &cat, &db);
    WCatalogEntry *e = wcatalog_find_catalog(c, cat);
    if (!e) return werr_set(err, WEXC_VALIDATION, "Catalog %s does not exist", cat);
    if (wcatalog_find_database(e, db)) {
        if (if_not_exists) return true;
        return werr_set(err, WEXC_DB_EXISTS, "Database %s already exists in Catalog %s.", db, cat);
    }
    wdatabase_add(e, db, comment, props);
    return true;
}

bool wcatalog_drop_database(WCatalog *c, const AstName *name, bool if_exists, bool cascade, WError *err)
{
    const char *cat, *db;
    split_db(c, name, &cat, &db);
    if (c->current_catalog && c->current_database && strcmp(cat, c->current_catalog) == 0
        && strcmp(db, c->current_database) == 0)
        return werr_set(err, WEXC_VALIDATION, "Cannot drop a database which is currently in use.");
    WCatalogEntry *e = wcatalog_find_catalog(c, cat);
    if (!e) return werr_set(err, WEXC_CATALOG_MISSING, "Catalog %s does not exist.", cat);
    for (int i = 0; i < e->ndb; i++) {
        WDatabase *d = e->dbs[i];
        if (strcmp(d->name, db)) continue;
        if (!cascade && d->n > 0)
            return werr_set(err, WEXC_DB_NOT_EMPTY, "Database %s in catalog %s is not empty.", db, cat);
        wdatabase_free(d);
        memmove(&e->dbs[i], &e->dbs[i + 1], sizeof(WDatabase *) * (size_t)(e->ndb - i - 1));
        e->ndb--;
        return true;
    }
    if (if_exists) return true;
    return werr_set(err, WEXC_DB_MISSING, "Database %s does not exist in Catalog %s.", db, cat);
}

bool wcatalog_use_database(WCatalog *c, const AstName *name, WError *err)
{
    const char *cat, *db;
    split_db(c, name, &cat, &db);
    WCatalogEntry *e = wcatalog_find_catalog(c, cat);
    if (!e) return werr_set(err, WEXC_CATALOG, "A catalog with name [%s] does not exist.", cat);
    if (!wcatalog_find_database(e, db))
        return werr_set(err, WEXC_CATALOG, "A database with name [%s] does not exist in the catalog: [%s].", db, cat);
    char *ncat = wstrdup(cat), *ndb = wstrdup(db);
    free(c->current_catalog);
    free(c->current_database);
    c->current_catalog = ncat;
    c->current_database = ndb;
    return true;
}
