/*
 * complete.h — statement completion as Flink's SQL gateway answers complete-statement: the
 * candidates for the word at a cursor position (Flink's ParserImpl.getCompletionHints: its client
 * commands, then Calcite's SqlAdvisor).
 *
 * Contract: wsql_complete returns the candidate strings Flink 2.3.0 returns for (statement,
 * position): the client commands the text before the cursor is a proper prefix of, then the
 * keywords and symbols weir's parser expects at the cursor (sorted), then the identifiers in scope
 * there (columns and table aliases of the enclosing SELECT, or catalogs, databases and tables as
 * fully qualified names where a table name goes), all filtered by the partial word before the
 * cursor. The catalog is read through a WSqlCatalogView the caller provides (this layer knows no
 * catalog). Where Flink's advisor throws (the cursor in a statement it cannot validate, such as
 * USE or DESCRIBE; a position outside the text) it returns -1 with err set. Depends on parser.h,
 * common/.
 */
#ifndef WEIR_SQL_COMPLETE_H
#define WEIR_SQL_COMPLETE_H

#include "../common/arena.h"
#include "../common/error.h"

typedef struct WSqlCatalogView {
    void *ctx;
    const char *catalog, *database;     /* the current ones */
    /* the names under path: npath 0 the catalogs, 1 the databases of catalog path[0], 2 the tables
       and views (temporary ones included) of database path[0].path[1]; arena-allocated; -1 when
       the catalog or database does not exist */
    int (*names)(void *ctx, WArena *a, const char *const *path, int npath, char ***out);
    /* the column names of the table or view `name` (1 to 3 parts, resolved as in a query); -1 when
       there is no such object */
    int (*columns)(void *ctx, WArena *a, const char *const *name, int n, char ***out);
} WSqlCatalogView;

/* The candidates (arena strings in *out) for the cursor at `position` (UTF-16 units, as Java counts
   them) in sql; their count, or -1 with err set where Flink's gateway answers an error. */
int wsql_complete(WArena *a, const char *sql, int position, const WSqlCatalogView *cv, char ***out,
                  WError *err);

#endif
