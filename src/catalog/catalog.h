/*
 * catalog.h — the session's tables and views (Flink's default_catalog.default_database).
 *
 * Contract: a WTable owns its definition: columns (physical, computed, metadata) with their
 * resolved types, watermark, primary key, connector options, or for a view its query. Each table
 * owns the arena its parsed statement lives in (the computed-column and watermark expressions are
 * syntax trees the binder re-binds per query). Names are case-sensitive as in Flink. The catalog
 * resolves 1-, 2- and 3-part identifiers against the current catalog and database.
 * Depends on sql/ast.h, types/, common/.
 */
#ifndef WEIR_CATALOG_CATALOG_H
#define WEIR_CATALOG_CATALOG_H

#include <stdbool.h>
#include "../sql/ast.h"
#include "../types/type.h"
#include "../common/options.h"
#include "../common/error.h"

typedef enum WColumnKind { WCOL_PHYSICAL, WCOL_COMPUTED, WCOL_METADATA } WColumnKind;

typedef struct WColumn {
    char *name;
    const WType *type;          /* resolved (computed: derived from the expression) */
    WColumnKind kind;
    AstExpr *expr;              /* computed column expression */
    char *expr_sql;             /* its text as DESCRIBE shows it, e.g. "AS PROCTIME()" */
    char *metadata_key;
    bool is_virtual;
    char *comment;
} WColumn;

typedef struct WTable {
    char *name;                 /* object name, e.g. orders */
    char *catalog, *database;
    bool is_view;
    bool temporary;
    int ncols;
    WColumn *cols;
    int wm_col;                 /* rowtime column index, -1 if none */
    AstExpr *wm_expr;
    char *wm_sql;               /* normalized watermark expression for DESCRIBE/plans */
    int npk;
    int *pk;                    /* column indexes */
    char *pk_name;              /* constraint name, e.g. PK_user */
    WOptions options;
    AstQuery *view_query;       /* views */
    char *view_sql;             /* the view's query text */
    int nview_cols;
    char **view_cols;
    char *comment;
    int npartition;             /* PARTITIONED BY (..): column indexes, in the clause's order */
    int *partition_keys;
    WArena *arena;              /* owns everything above */
} WTable;

typedef struct WCatalog {
    int n, cap;
    WTable **tables;
    char *current_catalog, *current_database;
} WCatalog;

void wcatalog_init(WCatalog *c);
void wcatalog_free(WCatalog *c);
/* Look up by a 1..3 part name; NULL when absent. */
WTable *wcatalog_lookup(WCatalog *c, const AstName *name);
WTable *wcatalog_lookup_simple(WCatalog *c, const char *name);
/* Fully qualified identifier as Flink prints it: default_catalog.default_database.t */
char *wcatalog_qualified(WArena *a, const WCatalog *c, const AstName *name);
/* Takes ownership of t (and its arena). Fails when the name exists and !replace. */
bool wcatalog_add(WCatalog *c, WTable *t, WError *err);
bool wcatalog_drop(WCatalog *c, const AstName *name, bool want_view, bool if_exists, WError *err);
void wtable_free(WTable *t);
/* Physical column indexes in order (count returned). */
int wtable_physical(const WTable *t, int *idx);

#endif
