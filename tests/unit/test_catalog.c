/*
 * test_catalog.c — unit tests for the catalog manager (src/catalog): catalogs and databases,
 * name resolution, temporary objects shadowing permanent ones, and Flink's messages.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/catalog/catalog.h"

static WTable *table(const char *cat, const char *db, const char *name, bool view, bool temporary)
{
    WArena *a = warena_new(0);
    WTable *t = WA_NEW(a, WTable);
    t->arena = a;
    t->name = wa_strdup(a, name);
    t->catalog = cat ? wa_strdup(a, cat) : NULL;
    t->database = db ? wa_strdup(a, db) : NULL;
    t->is_view = view;
    t->temporary = temporary;
    t->wm_col = -1;
    return t;
}

static AstName name_of(char **parts, int n)
{
    AstName nm = {.n = n, .parts = parts};
    return nm;
}

WTEST(catalog_catalogs_and_databases)
{
    WCatalog c;
    wcatalog_init(&c);
    WError e;
    werr_clear(&e);
    CHECK_INT(c.ncat, 1);
    CHECK_STR(c.current_catalog, "default_catalog");
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "type", "generic_in_memory");
    CHECK(wcatalog_create_catalog(&c, "c1", NULL, &o, true, &e));
    CHECK(!wcatalog_create_catalog(&c, "c1", NULL, &o, true, &e));
    CHECK_STR(e.msg, "Catalog c1 already exists.");
    werr_clear(&e);
    wopts_set(&o, "colour", "blue");
    CHECK(!wcatalog_create_catalog(&c, "c2", NULL, &o, true, &e));
    CHECK(strstr(e.msg, "Unsupported options found for 'generic_in_memory'.") == e.msg);
    werr_clear(&e);
    wopts_free(&o);
    WCatalogEntry *c1 = wcatalog_find_catalog(&c, "c1");
    CHECK(c1 && c1->ndb == 1);
    if (c1) CHECK_STR(c1->dbs[0]->name, "default");
    char *p1[] = {"c1", "d1"};
    AstName n1 = name_of(p1, 2);
    CHECK(wcatalog_create_database(&c, &n1, "x", NULL, false, &e));
    CHECK(!wcatalog_create_database(&c, &n1, NULL, NULL, false, &e));
    CHECK_STR(e.msg, "Database d1 already exists in Catalog c1.");
    werr_clear(&e);
    CHECK(wcatalog_use_database(&c, &n1, &e));
    CHECK_STR(c.current_catalog, "c1");
    CHECK_STR(c.current_database, "d1");
    CHECK(!wcatalog_drop_database(&c, &n1, false, true, &e));
    CHECK_STR(e.msg, "Cannot drop a database which is currently in use.");
    werr_clear(&e);
    CHECK(!wcatalog_drop_catalog(&c, "c1", false, &e));
    CHECK_STR(e.msg, "Cannot drop a catalog which is currently in use.");
    werr_clear(&e);
    CHECK(wcatalog_use_catalog(&c, "default_catalog", &e));
    CHECK_STR(c.current_database, "default_database");
    /* a non-empty database needs CASCADE */
    CHECK(wcatalog_add(&c, table("c1", "d1", "t", false, false), &e));
    CHECK(!wcatalog_drop_database(&c, &n1, false, false, &e));
    CHECK_STR(e.msg, "Database d1 in catalog c1 is not empty.");
    werr_clear(&e);
    CHECK(wcatalog_drop_database(&c, &n1, false, true, &e));
    CHECK(wcatalog_drop_catalog(&c, "c1", false, &e));
    CHECK(!wcatalog_drop_catalog(&c, "c1", false, &e));
    CHECK_STR(e.msg, "Catalog c1 does not exist.");
    wcatalog_free(&c);
}

WTEST(catalog_temporary_shadowing)
{
    WCatalog c;
    wcatalog_init(&c);
    WError e;
    werr_clear(&e);
    CHECK(wcatalog_add(&c, table(NULL, NULL, "t", false, false), &e));
    CHECK(wcatalog_add(&c, table(NULL, NULL, "t", false, true), &e));
    WTable *t = wcatalog_lookup_simple(&c, "t");
    CHECK(t && t->temporary);
    char *p[] = {"t"};
    AstName n = name_of(p, 1);
    CHECK(!wcatalog_drop(&c, &n, false, false, false, &e));
    CHECK_STR(e.msg, "Temporary table with identifier '`default_catalog`.`default_database`.`t`' exists. Drop it "
                     "first before removing the permanent table.");
    werr_clear(&e);
    CHECK(wcatalog_drop(&c, &n, false, true, false, &e));
    t = wcatalog_lookup_simple(&c, "t");
    CHECK(t && !t->temporary);
    CHECK(!wcatalog_drop(&c, &n, false, true, false, &e));
    CHECK_STR(e.msg, "Temporary table or view with identifier 'default_catalog.default_database.t' does not exist.");
    werr_clear(&e);
    CHECK(!wcatalog_drop(&c, &n, true, false, false, &e));
    CHECK_STR(e.msg, "View with identifier 'default_catalog.default_database.t' does not exist.");
    werr_clear(&e);
    CHECK(wcatalog_drop(&c, &n, false, false, false, &e));
    CHECK(wcatalog_lookup_simple(&c, "t") == NULL);
    /* a temporary object needs no existing database; a permanent one does */
    CHECK(wcatalog_add(&c, table("default_catalog", "nodb", "x", false, true), &e));
    WTable *y = table("default_catalog", "nodb", "y", false, false);
    CHECK(!wcatalog_add(&c, y, &e));        /* not taken over on failure */
    CHECK_STR(e.msg, "Database nodb does not exist in Catalog default_catalog.");
    wtable_free(y);
    wcatalog_free(&c);
}

WTEST(catalog_missing_errors)
{
    WCatalog c;
    wcatalog_init(&c);
    WError e;
    werr_clear(&e);
    char *p1[] = {"nope", "t"};
    AstName n1 = name_of(p1, 2);
    wcatalog_missing_error(&c, &n1, &e);
    CHECK_STR(e.msg, "Object 'nope' not found");
    werr_clear(&e);
    char *p2[] = {"default_database", "t"};
    AstName n2 = name_of(p2, 2);
    wcatalog_missing_error(&c, &n2, &e);
    CHECK_STR(e.msg, "Object 't' not found within 'default_catalog.default_database'");
    werr_clear(&e);
    char *p3[] = {"c9", "d", "t"};
    AstName n3 = name_of(p3, 3);
    wcatalog_missing_error(&c, &n3, &e);
    CHECK_STR(e.msg, "Object 'c9' not found");
    werr_clear(&e);
    char *p4[] = {"a", "b", "c", "d"};
    AstName n4 = name_of(p4, 4);
    WObjectId id;
    CHECK(!wcatalog_resolve(&c, &n4, &id, &e));
    CHECK_STR(e.msg, "Object identifier must consist of 1 to 3 parts.");
    wcatalog_free(&c);
}

WTEST(catalog_file_store_round_trip)
{
    char dir[] = "/tmp/weir-catalog-store-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char store[128];
    snprintf(store, sizeof store, "file://%s/store", dir);
    WCatalog c;
    wcatalog_init(&c);
    WError e;
    werr_clear(&e);
    CHECK(wcatalog_store_open(&c, "file", store, &e));
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "type", "generic_in_memory");
    wopts_set(&o, "default-database", "say \"hi\"");
    CHECK(wcatalog_create_catalog(&c, "c1", NULL, &o, true, &e));
    CHECK(wcatalog_store_save(&c, wcatalog_find_catalog(&c, "c1"), &e));
    wopts_free(&o);
    char path[160];
    snprintf(path, sizeof path, "%s/store/c1.yaml", dir);
    FILE *f = fopen(path, "r");
    char buf[256] = {0};
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
    }
    CHECK_STR(buf, "default-database: \"say \\\"hi\\\"\"\ntype: \"generic_in_memory\"\n");
    wcatalog_free(&c);
    /* a new manager reads the catalog back */
    wcatalog_init(&c);
    CHECK(wcatalog_store_open(&c, "file", store, &e));
    WCatalogEntry *c1 = wcatalog_find_catalog(&c, "c1");
    CHECK(c1 && c1->in_store);
    if (c1) CHECK_STR(wcatalog_default_database(c1), "say \"hi\"");
    CHECK(wcatalog_drop_catalog(&c, "c1", false, &e));
    CHECK(fopen(path, "r") == NULL);
    CHECK(!wcatalog_store_open(&c, "nosuch", NULL, &e));
    wcatalog_free(&c);
    char rm[200];
    snprintf(rm, sizeof rm, "%s/store", dir);
    rmdir(rm);
    rmdir(dir);
}
