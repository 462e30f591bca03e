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

WTEST(catalog_modules)
{
    WCatalog c;
    wcatalog_init(&c);
    WError e;
    werr_clear(&e);
    WModules *m = &c.modules;
    CHECK(m->nloaded == 1 && m->nused == 1 && wmodules_core_used(m));
    CHECK(!wmodules_load(m, "core", NULL, &e));
    CHECK_STR(e.msg, "A module with name 'core' already exists");
    werr_clear(&e);
    CHECK(!wmodules_load(m, "hive", NULL, &e));
    CHECK(strstr(e.msg, "Could not find any factory for identifier 'hive'") != NULL);
    werr_clear(&e);
    char *both[] = {"core", "core"};
    CHECK(!wmodules_use(m, both, 2, &e));
    CHECK_STR(e.msg, "Module 'core' appears more than once");
    werr_clear(&e);
    char *none[] = {"core", "x"};
    CHECK(!wmodules_use(m, none, 2, &e));
    CHECK_STR(e.msg, "No module with name 'x' exists");
    CHECK(wmodules_use(m, NULL, 0, &e));
    CHECK(m->nloaded == 1 && m->nused == 0 && !wmodules_core_used(m));
    CHECK(wmodules_unload(m, "core", &e));
    CHECK(m->nloaded == 0 && !wmodules_unload(m, "core", &e));
    werr_clear(&e);
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "level", "1");
    CHECK(wmodules_load(m, "core", &o, &e) && wmodules_core_used(m));     /* as Flink: not checked */
    wopts_free(&o);
    wcatalog_free(&c);
}

typedef struct VisitAcc {
    char seen[64];
    int n;
} VisitAcc;

static bool visit(void *ctx, const WFileCatObject *ob, WError *err)
{
    (void)err;
    VisitAcc *acc = ctx;
    snprintf(acc->seen, sizeof acc->seen, "%s|%s|%s", ob->name, ob->view_catalog ? ob->view_catalog : "-",
             ob->view_database ? ob->view_database : "-");
    acc->n++;
    return true;
}

static int count_files(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    fclose(f);
    return 1;
}

WTEST(catalog_weir_file_layout)
{
    char dir[] = "/tmp/weir-file-catalog-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char root[128];
    snprintf(root, sizeof root, "%s/cat", dir);
    WCatalog c;
    wcatalog_init(&c);
    WError e;
    werr_clear(&e);
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "type", "weir-file");
    CHECK(!wcatalog_create_catalog(&c, "p", NULL, &o, true, &e));
    CHECK(strstr(e.msg, "Missing required options are:\n\npath") != NULL);
    wopts_set(&o, "path", root);
    CHECK(wcatalog_create_catalog(&c, "p", NULL, &o, true, &e));
    WCatalogEntry *p = wcatalog_find_catalog(&c, "p");
    CHECK(p && wcatalog_is_file_catalog(p) && p->objects_to_load && p->ndb == 1);
    char path[256];
    snprintf(path, sizeof path, "%s/default/.database.yaml", root);
    CHECK(count_files(path) == 1);
    /* a database with a comment and properties, an object whose name needs encoding */
    WOptions props;
    wopts_init(&props);
    wopts_set(&props, "k", "v");
    WDatabase *d = wdatabase_add(p, "sales/2024", "the sales", &props);
    wopts_free(&props);
    CHECK(wfilecat_save_database(p, d, &e));
    WTable *v = table("p", "sales/2024", "a.b", true, false);
    v->view_catalog = "p";
    v->view_database = "sales/2024";
    CHECK(wfilecat_save_object(p, v, "CREATE VIEW `a.b` AS\nSELECT 1", &e));
    snprintf(path, sizeof path, "%s/sales%%2F2024/a%%2Eb.sql", root);
    CHECK(count_files(path) == 1);
    wtable_free(v);
    /* a second manager reads the databases back and visits the view with its context */
    WCatalog c2;
    wcatalog_init(&c2);
    CHECK(wcatalog_create_catalog(&c2, "p", NULL, &o, true, &e));
    WCatalogEntry *p2 = wcatalog_find_catalog(&c2, "p");
    WDatabase *d2 = p2 ? wcatalog_find_database(p2, "sales/2024") : NULL;
    CHECK(d2 && d2->comment && strcmp(d2->comment, "the sales") == 0);
    if (d2) CHECK_STR(wopts_get(&d2->properties, "k"), "v");
    if (p2) {
        VisitAcc acc = {.n = 0};
        CHECK(wfilecat_objects(p2, visit, &acc, &e));
        CHECK(acc.n == 1);
        CHECK_STR(acc.seen, "a.b|p|sales/2024");
    }
    CHECK(p2 && wfilecat_remove_database(p2, "sales/2024", &e));
    snprintf(path, sizeof path, "%s/sales%%2F2024", root);
    CHECK(rmdir(path) != 0);     /* gone already */
    wcatalog_free(&c2);
    wcatalog_free(&c);
    wopts_free(&o);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    CHECK(system(rm) == 0);
}
