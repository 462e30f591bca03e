/*
 * catalog.h — the session's catalog manager (Flink's CatalogManager): catalogs, their databases,
 * the tables and views in them, and the session's temporary tables and views.
 *
 * Contract: a WTable owns its definition: columns (physical, computed, metadata) with their
 * resolved types, watermark, primary key, connector options, or for a view its query. Each table
 * owns the arena its parsed statement lives in (the computed-column and watermark expressions are
 * syntax trees the binder re-binds per query). Names are case-sensitive as in Flink.
 *
 * The manager (WCatalog) holds catalogs in creation order (catalog_entry.c: WCatalogEntry, with
 * its databases), the current catalog and database, and the temporary objects keyed by their full
 * identifier (a temporary object needs no existing catalog or database and shadows a permanent
 * one of the same identifier). 1-, 2- and 3-part names resolve against the current catalog and
 * database. Failing calls set Flink's exception class and message. Depends on sql/ast.h, types/,
 * common/.
 */
#ifndef WEIR_CATALOG_CATALOG_H
#define WEIR_CATALOG_CATALOG_H

#include <stdbool.h>
#include "../sql/ast.h"
#include "../types/type.h"
#include "../common/options.h"
#include "../common/error.h"
#include "../common/strbuf.h"

/* Exception classes of Flink's catalog layer. */
#define WEXC_CATALOG          "org.apache.flink.table.catalog.exceptions.CatalogException"
#define WEXC_CATALOG_MISSING  "org.apache.flink.table.api.CatalogNotExistException"
#define WEXC_DB_MISSING       "org.apache.flink.table.catalog.exceptions.DatabaseNotExistException"
#define WEXC_DB_EXISTS        "org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException"
#define WEXC_TABLE_EXISTS     "org.apache.flink.table.catalog.exceptions.TableAlreadyExistException"
#define WEXC_DB_NOT_EMPTY     "org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException"

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
    char *view_catalog, *view_database; /* current catalog and database when the view was created:
                                           its query's names resolve against them (Flink expands them) */
    int nview_cols;
    char **view_cols;
    char *comment;
    int npartition;             /* PARTITIONED BY (..): column indexes, in the clause's order */
    int *partition_keys;
    WArena *arena;              /* owns everything above */
} WTable;

/* A database of a catalog: its properties and its permanent tables and views. */
typedef struct WDatabase {
    char *name;
    char *comment;              /* NULL when none */
    WOptions properties;
    int n, cap;
    WTable **tables;
} WDatabase;

/* One catalog (an instance of a catalog type, created from its descriptor: options + comment). */
typedef struct WCatalogEntry {
    char *name;
    char *comment;              /* NULL when none */
    WOptions options;           /* the descriptor's options, 'type' included */
    bool in_store;              /* created by CREATE CATALOG (the built-in one is not in the store) */
    bool objects_to_load;       /* a weir-file catalog whose stored tables and views the session has
                                   still to bind (wfilecat_objects), set by wfilecat_open */
    int ndb, capdb;
    WDatabase **dbs;            /* in creation order */
} WCatalogEntry;

/* The session's modules (modules.c): loaded ones in load order, used ones in resolution order. */
typedef struct WModules {
    int nloaded, nused, cap;
    char **loaded, **used;
} WModules;

/* The catalog manager of a session. */
typedef struct WCatalog {
    int ncat, capcat;
    WCatalogEntry **cats;       /* in creation order */
    int ntemp, captemp;
    WTable **temps;             /* temporary tables and views */
    char *current_catalog, *current_database;
    char *store_dir;            /* the file catalog store's folder, NULL for the in-memory store */
    WModules modules;
} WCatalog;

/* A resolved object identifier (strings borrowed from the name or the manager). */
typedef struct WObjectId { const char *catalog, *database, *object; } WObjectId;

void wcatalog_init(WCatalog *c);
void wcatalog_free(WCatalog *c);

/* ---- identifiers ---- */
/* Resolve a 1..3 part name; false when it has more parts ("Object identifier must consist of 1 to 3
   parts." is set on err when err is not NULL). */
bool wcatalog_resolve(const WCatalog *c, const AstName *name, WObjectId *id, WError *err);
/* Fully qualified identifier as Flink prints it: default_catalog.default_database.t */
char *wcatalog_qualified(WArena *a, const WCatalog *c, const AstName *name);

/* ---- tables and views ---- */
/* Look up by a 1..3 part name (temporary objects first); NULL when absent. */
WTable *wcatalog_lookup(WCatalog *c, const AstName *name);
WTable *wcatalog_lookup_simple(WCatalog *c, const char *name);
WTable *wcatalog_lookup_id(WCatalog *c, const WObjectId *id);
WTable *wcatalog_find_temporary(WCatalog *c, const WObjectId *id);
WTable *wcatalog_find_permanent(WCatalog *c, const WObjectId *id);
/* Why a name does not resolve to a table in a query (Calcite's and Flink's messages): sets err. */
void wcatalog_missing_error(const WCatalog *c, const AstName *name, WError *err);
/* Takes ownership of t (and its arena). A permanent table needs its catalog and database; fails
   when the identifier is taken (by an object of the same temporary-ness). */
bool wcatalog_add(WCatalog *c, WTable *t, WError *err);
/* DROP [TEMPORARY] TABLE / VIEW with Flink's rules for temporary objects shadowing permanent ones. */
bool wcatalog_drop(WCatalog *c, const AstName *name, bool want_view, bool temporary, bool if_exists,
                   WError *err);
/* Put nt (a new definition: owned by the catalog from now on) in the place of permanent t (freed). */
bool wcatalog_replace(WCatalog *c, WTable *t, WTable *nt, WError *err);
/* Remove a table without checks (a failed CTAS). */
void wcatalog_remove(WCatalog *c, WTable *t);
void wtable_free(WTable *t);
/* Physical column indexes in order (count returned). */
int wtable_physical(const WTable *t, int *idx);

/* ---- catalogs (catalog_entry.c) ---- */
WCatalogEntry *wcatalog_find_catalog(const WCatalog *c, const char *name);
/* Validate a catalog descriptor as the catalog factory does (known 'type', supported options). */
bool wcatalog_validate_options(const WOptions *options, WError *err);
/* CREATE CATALOG (options copied; validated first). */
bool wcatalog_create_catalog(WCatalog *c, const char *name, const char *comment, const WOptions *options,
                             bool in_store, WError *err);
/* Re-create a catalog from its (changed) descriptor: an in-memory catalog loses its databases and
   tables (as Flink's); a weir-file catalog reads them again from its folder. */
bool wcatalog_reinit_catalog(WCatalogEntry *e, WError *err);
bool wcatalog_drop_catalog(WCatalog *c, const char *name, bool if_exists, WError *err);
bool wcatalog_use_catalog(WCatalog *c, const char *name, WError *err);
/* The default database a catalog type creates ('default-database', else "default"). */
const char *wcatalog_default_database(const WCatalogEntry *e);
void wcatalog_entry_free(WCatalogEntry *e);

/* ---- the catalog store (catalog_store.c) ---- */
/* Open the catalog store of table.catalog-store.kind ('generic_in_memory' or NULL: nothing to do;
   'file': table.catalog-store.file.path, created when missing) and create the catalogs it holds. */
bool wcatalog_store_open(WCatalog *c, const char *kind, const char *path, WError *err);
/* Write / delete a catalog's definition in the file store (no-op for the in-memory store). */
bool wcatalog_store_save(const WCatalog *c, const WCatalogEntry *e, WError *err);
bool wcatalog_store_remove(const WCatalog *c, const char *name, WError *err);

/* YAML of the store files: `key: "value"` lines (sorted by key) and back; a scalar after the colon. */
void wcatalog_yaml_write(WStrBuf *b, const WOptions *o);
void wcatalog_yaml_quoted(WStrBuf *b, const char *s);
char *wcatalog_yaml_scalar(const char *s);
bool wcatalog_yaml_read(const char *path, WOptions *o, WError *err);
/* 'file:///x/y' or '/x/y' -> /x/y; NULL for another scheme */
const char *wcatalog_local_dir(const char *uri);

/* ---- the weir-file catalog type (file_catalog.c) ---- */
#define WCATALOG_FILE_TYPE "weir-file"
bool wcatalog_is_file_catalog(const WCatalogEntry *e);
/* Open the catalog's folder ('path', created when missing): add its stored databases to e (and the
   default database when it has none), mark its tables and views to be loaded. */
bool wfilecat_open(WCatalogEntry *e, WError *err);
/* One stored table or view: its database, name, DDL text (and file), and for a view the catalog
   and database its query resolves against. */
typedef struct WFileCatObject {
    const char *database, *name, *ddl, *file;
    char *view_catalog, *view_database;     /* NULL for a table */
} WFileCatObject;
typedef bool (*WFileCatVisit)(void *ctx, const WFileCatObject *o, WError *err);
/* Visit every stored object of e's databases (by database, then name); stops at the first false. */
bool wfilecat_objects(const WCatalogEntry *e, WFileCatVisit visit, void *ctx, WError *err);
/* Write / delete a database's folder and file, a permanent table's or view's file (ddl: its
   CREATE statement). */
bool wfilecat_save_database(const WCatalogEntry *e, const WDatabase *d, WError *err);
bool wfilecat_remove_database(const WCatalogEntry *e, const char *db, WError *err);
bool wfilecat_save_object(const WCatalogEntry *e, const WTable *t, const char *ddl, WError *err);
bool wfilecat_remove_object(const WCatalogEntry *e, const char *db, const char *name, WError *err);

/* ---- modules (modules.c) ---- */
void wmodules_init(WModules *m);         /* 'core' loaded and used */
void wmodules_free(WModules *m);
/* LOAD MODULE name [WITH (options)] / UNLOAD MODULE name / USE MODULES names, Flink's messages
   (the core module, as Flink's, does not check the options: it has none). */
bool wmodules_load(WModules *m, const char *name, const WOptions *options, WError *err);
bool wmodules_unload(WModules *m, const char *name, WError *err);
bool wmodules_use(WModules *m, char *const *names, int n, WError *err);
/* Whether the core module (weir's built-in functions) takes part in function resolution. */
bool wmodules_core_used(const WModules *m);

/* ---- databases (database.c) ---- */
WDatabase *wcatalog_find_database(const WCatalogEntry *e, const char *name);
WDatabase *wdatabase_add(WCatalogEntry *e, const char *name, const char *comment, const WOptions *props);
/* CREATE / DROP DATABASE and USE on a [catalog.]database name (1 or 2 parts). */
bool wcatalog_create_database(WCatalog *c, const AstName *name, const char *comment, const WOptions *props,
                              bool if_not_exists, WError *err);
bool wcatalog_drop_database(WCatalog *c, const AstName *name, bool if_exists, bool cascade, WError *err);
bool wcatalog_use_database(WCatalog *c, const AstName *name, WError *err);
/* The database a name designates; sets Flink's DatabaseNotExistException message when absent. */
WDatabase *wcatalog_database_or_error(const WCatalog *c, const AstName *name, WError *err);
void wdatabase_free(WDatabase *d);

#endif
