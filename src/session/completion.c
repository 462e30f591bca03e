/*
 * completion.c — statement completion in a session: sql/complete.c's advisor over the session's
 * catalog manager (the SQL gateway's complete-statement).
 *
 * Contract: wsession_complete hands wsql_complete a read-only view of the session's catalogs,
 * databases, tables and views (temporary ones included) and their columns; the caller must not
 * run a statement on the session meanwhile. Depends on sql/complete.h, catalog/, session.h.
 */
#include "session.h"
#include "session_internal.h"

#include <string.h>

#include "../catalog/catalog.h"
#include "../sql/complete.h"

static int view_names(void *ctx, WArena *a, const char *const *path, int npath, char ***out)
{
    const WCatalog *c = ctx;
    *out = NULL;
    if (npath == 0) {
        *out = WA_ARRAY(a, char *, c->ncat + 1);
        for (int i = 0; i < c->ncat; i++) (*out)[i] = c->cats[i]->name;
        return c->ncat;
    }
    WCatalogEntry *e = wcatalog_find_catalog(c, path[0]);
    if (!e) return -1;
    if (npath == 1) {
        *out = WA_ARRAY(a, char *, e->ndb + 1);
        for (int i = 0; i < e->ndb; i++) (*out)[i] = e->dbs[i]->name;
        return e->ndb;
    }
    if (npath != 2) return -1;
    WDatabase *d = wcatalog_find_database(e, path[1]);
    if (!d) return -1;
    *out = WA_ARRAY(a, char *, d->n + c->ntemp + 1);
    int n = 0;
    for (int i = 0; i < d->n; i++) (*out)[n++] = d->tables[i]->name;
    for (int i = 0; i < c->ntemp; i++) {
        const WTable *t = c->temps[i];
        if (strcmp(t->catalog, path[0]) != 0 || strcmp(t->database, path[1]) != 0) continue;
        bool shadowed = false;   /* a temporary object shadows a permanent one of its name */
        for (int k = 0; k < d->n && !shadowed; k++) shadowed = strcmp(d->tables[k]->name, t->name) == 0;
        if (!shadowed) (*out)[n++] = t->name;
    }
    return n;
}

static int view_columns(void *ctx, WArena *a, const char *const *name, int n, char ***out)
{
    WCatalog *c = ctx;
    *out = NULL;
    AstName an = {.n = n, .parts = (char **)name};
    WTable *t = wcatalog_lookup(c, &an);
    if (!t) return -1;
    *out = WA_ARRAY(a, char *, t->ncols + 1);
    for (int i = 0; i < t->ncols; i++) (*out)[i] = t->cols[i].name;
    return t->ncols;
}

int wsession_complete(WSession *s, WArena *a, const char *sql, int position, char ***out, WError *err)
{
    WCatalog *c = wsession_catalog(s);
    WSqlCatalogView cv = {
        .ctx = c,
        .catalog = c->current_catalog,
        .database = c->current_database,
        .names = view_names,
        .columns = view_columns,
    };
    return wsql_complete(a, sql, position, &cv, out, err);
}
