/*
 * ast_dump.h — a compact, deterministic text form of syntax trees, for tests, the fuzzer and
 * debugging (not a SQL unparser; the format is weir's own).
 *
 * Contract: expressions print as prefix S-expressions with explicit parentheses, e.g.
 * "(+ a (* b 2))", "COUNT(DISTINCT x)", "(IS NOT NULL a)", "CAST(x AS DECIMAL(10, 2))";
 * queries as "(SELECT items FROM from WHERE e ...)". The result is arena-allocated. Depends on
 * ast.h, common/.
 */
#ifndef WEIR_SQL_AST_DUMP_H
#define WEIR_SQL_AST_DUMP_H

#include "ast.h"

char *wsql_dump_expr(WArena *a, const AstExpr *e);
char *wsql_dump_type(WArena *a, const AstType *t);
char *wsql_dump_query(WArena *a, const AstQuery *q);
char *wsql_dump_from(WArena *a, const AstFrom *f);
char *wsql_dump_stmt(WArena *a, const AstStmt *s);

#endif
