/*
 * parser.h — Flink SQL text to syntax trees.
 *
 * Contract: wsql_parse_statement parses exactly one statement (an optional trailing ';' is
 * allowed) into a tree allocated in `a`; on failure it returns NULL and sets err to Flink's message
 * and class (WEXC_PARSE): `SQL parse failed. Encountered "X" at line L, column C.` followed by
 * `Was expecting one of:` lines where useful; lexical errors read
 * `SQL parse failed. Lexical error at line L, column C.  Encountered: ...`.
 * wsql_split splits a script into statements the way Flink's SQL client does (on ';' outside
 * quotes, comments and hints), reporting each statement's starting line so that positions in
 * errors are relative to the statement, as Flink's are. Depends on ast.h, common/.
 */
#ifndef WEIR_SQL_PARSER_H
#define WEIR_SQL_PARSER_H

#include "ast.h"
#include "../common/error.h"

AstStmt *wsql_parse_statement(WArena *a, const char *sql, WError *err);
/* The same, telling on a syntax error what Calcite's SqlParseException.getExpectedTokenNames
   reports: the last token of each of the longest `Was expecting` sequences (printed images:
   "\"AND\"", "<IDENTIFIER>"), unsorted, repeats possible; n = 0 for other errors (lexical, from a
   grammar action) and on success. */
typedef struct WSqlExpected { int n; const char **names; } WSqlExpected;
AstStmt *wsql_parse_statement_ex(WArena *a, const char *sql, WError *err, WSqlExpected *exp);
/* Parse a standalone expression (used for computed columns in compiled plans and tests). */
AstExpr *wsql_parse_expression(WArena *a, const char *sql, WError *err);
/* Parse a standalone data type, e.g. "DECIMAL(10, 2) NOT NULL" (used by compiled plans). */
AstType *wsql_parse_type(WArena *a, const char *sql, WError *err);

typedef struct WSqlPiece {
    const char *text;   /* points into the script (not NUL-terminated) */
    int len;            /* without the ';' */
    int line;           /* 1-based line where the statement starts in the script */
    bool terminated;    /* ended by ';' (false for trailing text at EOF) */
} WSqlPiece;

/* Splits script into pieces (arena-allocated array). Blank/comment-only pieces are dropped. */
int wsql_split(WArena *a, const char *script, WSqlPiece **out);

/* true when text (e.g. the lines typed so far in interactive mode) is a complete statement:
   it ends with ';' outside strings, quoted identifiers, comments and hints, as Flink's client
   decides it (see split.c). */
bool wsql_is_complete(const char *text);

#endif
