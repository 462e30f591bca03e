/*
 * fuzz_parser.c — libFuzzer target for the SQL front end (src/sql): every input is parsed as one
 * statement, as a script (split, then each piece parsed), as an expression and as a type; trees
 * are walked by the dumper so that every reachable node is touched. Each run uses a fresh arena
 * that is freed at the end, so ASan reports leaks and bad accesses.
 * Depends on src/sql (parser.h, ast_dump.h) and src/common.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/sql/ast_dump.h"
#include "../../src/sql/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sql = malloc(size + 1);
    if (!sql) return 0;
    memcpy(sql, data, size);
    sql[size] = 0;

    WArena a;
    warena_init(&a, 0);
    WError err;

    werr_clear(&err);
    AstStmt *s = wsql_parse_statement(&a, sql, &err);
    if (s) (void)wsql_dump_stmt(&a, s);

    WSqlPiece *pieces = NULL;
    int n = wsql_split(&a, sql, &pieces);
    for (int i = 0; i < n; i++) {
        char *piece = wa_strndup(&a, pieces[i].text, (size_t)pieces[i].len);
        werr_clear(&err);
        AstStmt *ps = wsql_parse_statement(&a, piece, &err);
        if (ps) (void)wsql_dump_stmt(&a, ps);
    }
    (void)wsql_is_complete(sql);

    werr_clear(&err);
    AstExpr *e = wsql_parse_expression(&a, sql, &err);
    if (e) (void)wsql_dump_expr(&a, e);

    werr_clear(&err);
    AstType *t = wsql_parse_type(&a, sql, &err);
    if (t) (void)wsql_dump_type(&a, t);

    warena_free(&a);
    free(sql);
    return 0;
}
