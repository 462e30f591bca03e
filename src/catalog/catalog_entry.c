/* catalog_entry.c — catalogs of the catalog manager: the catalog types weir has (Flink's
   generic_in_memory), their option validation with Flink's factory messages, CREATE / DROP / USE
   CATALOG and re-creation after ALTER CATALOG. See catalog.h. */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>
#include "../common/strbuf.h"

/* A catalog type: its factory identifier, the options it supports (besides 'type'), the one it
   requires, and whether Flink's distribution has it too. The "Available factory identifiers" of an
   unknown type are Flink's (what its client prints with the distribution's lib/); weir's own
   types are accepted but not listed there (docs/user-guide.md, persistent catalogs). */
typedef struct CatalogType {
    const char *identifier;
    const char *const *options;     /* sorted, NULL-terminated */
    const char *required;           /* NULL when none */
    bool flink;                     /* a factory of Flink's distribution */
} CatalogType;

static const char *const IN_MEMORY_OPTIONS[] = {"default-database", "property-version", NULL};
static const char *const FILE_OPTIONS[] = {"default-database", "path", "property-version", NULL};
static const CatalogType CATALOG_TYPES[] = {
    {"generic_in_memory", IN_MEMORY_OPTIONS, NULL, true},
    {WCATALOG_FILE_TYPE, FILE_OPTIONS, "path", false},   /* weir's own: see file_catalog.c */
};
#define NTYPES (sizeof CATALOG_TYPES / sizeof CATALOG_TYPES[0])

WCatalogEntry *wcatalog_find_catalog(const WCatalog *c, const char *name)
{
    for (int i = 0; i < c->ncat; i++)
        if (strcmp(c->cats[i]->name, name) == 0) return c->cats[i];
    return NULL;
}

bool wcatalog_validate_options(const WOptions *options, WError *err)
{
    const char *type = wopts_get(options, "type");
    if (!type)
        return werr_set(err, WEXC_VALIDATION,
                        "Catalog options do not contain an option key 'type' for discovering a catalog.");
    const CatalogType *ct = NULL;
    for (size_t i = 0; i < NTYPES; i++)
        if (strcmp(CATALOG_TYPES[i].identifier, type) == 0) ct = &CATALOG_TYPES[i];
    if (!ct) {
        WStrBuf b;
        wsb_init(&b);
        for (size_t i = 0; i < NTYPES; i++)
            if (CATALOG_TYPES[i].flink) wsb_printf(&b, "%s%s", b.len ? "\n" : "", CATALOG_TYPES[i].identifier);
        werr_set(err, WEXC_VALIDATION,
                 "Could not find any factory for identifier '%s' that implements "
                 "'org.apache.flink.table.factories.CatalogFactory' in the classpath.\n\n"
                 "Available factory identifiers are:\n\n%s", type, b.buf);
        wsb_free(&b);
        return false;
    }
    /* unsupported keys, sorted as Flink lists them */
    int nbad = 0;
    const char **bad = wcalloc((size_t)options->n + 1, sizeof(char *));
    for (int i = 0; i < options->n; i++) {
        const char *k = options->items[i].key;
        bool known = strcmp(k, "type") == 0;
        for (int j = 0; ct->options[j] && !known; j++) known = strcmp(ct->options[j], k) == 0;
        if (!known) bad[nbad++] = k;
    }
    if (nbad) {
        for (int i = 1; i < nbad; i++)
            for (int j = i; j > 0 && strcmp(bad[j - 1], bad[j]) > 0; j--) {
                const char *x = bad[j]; bad[j] = bad[j - 1]; bad[j - 1] = x;
            }
        WStrBuf b;
        wsb_init(&b);
        wsb_printf(&b, "Unsupported options found for '%s'.\n\nUnsupported options:\n\n", type);
        for (int i = 0; i < nbad; i++) wsb_printf(&b, "%s\n", bad[i]);
        wsb_append(&b, "\nSupported options:\n\n");
        for (int j = 0; ct->options[j]; j++) wsb_printf(&b, "%s%s", j ? "\n" : "", ct->options[j]);
        werr_set(err, WEXC_VALIDATION, "%s", b.buf);
        wsb_free(&b);
    }
    free(bad);
    if (nbad == 0 && ct->required && !wopts_get(options, ct->required))
        return werr_set(err, WEXC_VALIDATION,
                        "One or more required options are missing.\n\nMissing required options are:\n\n%s",
                        ct->required);
    return nbad == 0;
}

const char *wcatalog_default_database(const WCatalogEntry *e)
{
    return wopts_get_or(&e->options, "default-database", "default");
}

bool wcatalog_reinit_catalog(WCatalogEntry *e, WError *err)
{
    for (int i = 0; i < e->ndb; i++) wdatabase_free(e->dbs[i]);
    e->ndb = 0;
    e->objects_to_load = false;
    if (wcatalog_is_file_catalog(e)) return wfilecat_open(e, err);
    wdatabase_add(e, wcatalog_default_database(e), NULL, NULL);
    return true;
}

bool wcatalog_create_catalog(WCatalog *c, const char *name, const char *comment, const WOptions *options,
                             bool in_store, WError *err)
{
    if (wcatalog_find_catalog(c, name)) return werr_set(err, WEXC_CATALOG, "Catalog %s already exists.", name);
    if (!wcatalog_validate_options(options, err)) return false;
    WCatalogEntry *e = wcalloc(1, sizeof *e);
    e->name = wstrdup(name);
    e->comment = comment ? wstrdup(comment) : NULL;
    wopts_copy(&e->options, options);
    e->in_store = in_store;
    if (!wcatalog_reinit_catalog(e, err)) {
        wcatalog_entry_free(e);
        return false;
    }
    if (c->ncat == c->capcat) {
        c->capcat = c->capcat ? c->capcat * 2 : 4;
        c->cats = wrealloc(c->cats, sizeof(WCatalogEntry *) * (size_t)c->capcat);
    }
    c->cats[c->ncat++] = e;
    return true;
}

bool wcatalog_drop_catalog(WCatalog *c, const char *name, bool if_exists, WError *err)
{
    for (int i = 0; i < c->ncat; i++) {
        if (strcmp(c->cats[i]->name, name)) continue;
        if (c->current_catalog && strcmp(c->current_catalog, name) == 0)
            return werr_set(err, WEXC_CATALOG, "Cannot drop a catalog which is currently in use.");
        if (c->cats[i]->in_store && !wcatalog_store_remove(c, name, err)) return false;
        wcatalog_entry_free(c->cats[i]);
        memmove(&c->cats[i], &c->cats[i + 1], sizeof(WCatalogEntry *) * (size_t)(c->ncat - i - 1));
        c->ncat--;
        return true;
    }
    return if_exists ? true : werr_set(err, WEXC_CATALOG, "Catalog %s does not exist.", name);
}

bool wcatalog_use_catalog(WCatalog *c, const char *name, WError *err)
{
    WCatalogEntry *e = wcatalog_find_catalog(c, name);
    if (!e) return werr_set(err, WEXC_CATALOG, "A catalog with name [%s] does not exist.", name);
    free(c->current_catalog);
    free(c->current_database);
    c->current_catalog = wstrdup(name);
    c->current_database = wstrdup(wcatalog_default_database(e));
    return true;
}

void wcatalog_entry_free(WCatalogEntry *e)
{
    if (!e) return;
    for (int i = 0; i < e->ndb; i++) wdatabase_free(e->dbs[i]);
    free(e->dbs);
    wopts_free(&e->options);
    free(e->comment);
    free(e->name);
    free(e);
}
