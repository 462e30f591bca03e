/*
 * test_parser_errors.c — the parser's error texts, classes and positions: Calcite's
 * `Encountered "X" at line L, column C.` / `Incorrect syntax near the keyword 'X' ...` with the
 * `Was expecting` list, lexical errors worded like TokenMgrError, and the depth limit.
 */
#include "unit.h"

#include "../../src/sql/parser.h"

static WArena EA;
static bool EA_init;

static WError ERR_(const char *sql)
{
    if (!EA_init) { warena_init(&EA, 0); EA_init = true; }
    WError e;
    werr_clear(&e);
    AstStmt *s = wsql_parse_statement(&EA, sql, &e);
    if (s) snprintf(e.msg, sizeof e.msg, "(parsed)");
    return e;
}

/* the message up to its first newline */
static const char *first_line(const char *msg)
{
    static char buf[1024];
    size_t n = strcspn(msg, "\n");
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, msg, n);
    buf[n] = 0;
    return buf;
}

#define CHECK_ERR(sql, want_first_line)                                         \
    do {                                                                        \
        WError e_ = ERR_(sql);                                                  \
        CHECK_STR(first_line(e_.msg), want_first_line);                        \
        CHECK_STR(e_.cls, WEXC_PARSE);                                          \
    } while (0)

#define LEX_CLS "org.apache.flink.sql.parser.impl.TokenMgrError"

WTEST(parser_err_eof_after_from)
{
    WError e = ERR_("SELECT * FROM");
    CHECK_STR(first_line(e.msg), "Encountered \"<EOF>\" at line 1, column 13.");
    CHECK_STR(e.cls, WEXC_PARSE);
    CHECK_INT(e.line, 1);
    CHECK_INT(e.col, 13);
    CHECK(strstr(e.msg, "\nWas expecting one of:\n    \"LATERAL\" ...\n") != NULL);
    CHECK(strstr(e.msg, "    <IDENTIFIER> ...\n") != NULL);
}

WTEST(parser_err_eof_position_counts_trailing_blanks)
{
    /* Calcite reports <EOF> at the last character read, blanks included */
    CHECK_ERR("SELECT a\nFROM t\nWHERE ", "Encountered \"<EOF>\" at line 3, column 6.");
    CHECK_ERR("SELECT * FROM t WHERE", "Encountered \"<EOF>\" at line 1, column 21.");
}

WTEST(parser_err_lexical_unterminated_comment)
{
    /* the select.q case: an unterminated comment after SELECT */
    WError e = ERR_("SELECT /*;");
    CHECK_STR(e.cls, LEX_CLS);
    CHECK_STR(e.msg, "Lexical error at line 1, column 11.  Encountered: <EOF> after : \"\"");
    CHECK_INT(e.line, 1);
    CHECK_INT(e.col, 11);
}

WTEST(parser_err_lexical_comment_ending_in_newline)
{
    WError e = ERR_("SELECT 1 /* x\n");
    CHECK_STR(e.msg, "Lexical error at line 2, column 0.  Encountered: <EOF> after : \"\"");
}

WTEST(parser_err_lexical_bad_char)
{
    WError e = ERR_("SELECT #");
    CHECK_STR(e.cls, LEX_CLS);
    CHECK_STR(e.msg, "Lexical error at line 1, column 8.  Encountered: \"#\" (35), after : \"\"");
}

WTEST(parser_err_lexical_backquote_eof)
{
    WError e = ERR_("SELECT `abc");
    CHECK_STR(e.msg, "Lexical error at line 1, column 12.  Encountered: <EOF> after : \"`abc\"");
}

WTEST(parser_err_lexical_backquote_newline)
{
    WError e = ERR_("SELECT `a\nb`");
    CHECK_STR(e.msg, "Lexical error at line 1, column 10.  Encountered: \"\\n\" (10), after : \"`a\"");
}

WTEST(parser_err_lexical_non_letter)
{
    WError e = ERR_("SELECT \xEF\xBD\x98");   /* U+FF58 is no Calcite letter */
    CHECK_STR(e.msg, "Lexical error at line 1, column 8.  Encountered: \"\\uff58\" (65368), after : \"\"");
}

WTEST(parser_err_reserved_column_name)
{
    WError e = ERR_("CREATE TABLE t (user INT)");
    /* a reserved word in lower case is a token to Calcite; in capitals, "the keyword" (Flink 2.3) */
    CHECK_STR(first_line(e.msg), "Encountered \"user\" at line 1, column 17.");
    CHECK_STR(e.cls, WEXC_PARSE);
    CHECK(strstr(e.msg, "\nWas expecting one of:\n") != NULL);
    CHECK_ERR("CREATE TABLE t (a INT, method STRING)",
              "Encountered \"method\" at line 1, column 24.");
    CHECK_ERR("create table t (value int)",
              "Encountered \"value\" at line 1, column 17.");
    CHECK_ERR("CREATE TABLE t (a INT, `timestamp` TIMESTAMP(3), comment STRING)",
              "Encountered \"comment\" at line 1, column 50.");
    CHECK_ERR("CREATE TABLE t (id INT, USER STRING)",
              "Incorrect syntax near the keyword 'USER' at line 1, column 25.");
}

WTEST(parser_err_reserved_in_select)
{
    CHECK_ERR("SELECT FROM t", "Incorrect syntax near the keyword 'FROM' at line 1, column 8.");
    CHECK_ERR("SELECT value FROM t", "Encountered \"value\" at line 1, column 8.");
    CHECK_ERR("SELECT VALUE FROM t", "Incorrect syntax near the keyword 'VALUE' at line 1, column 8.");
    CHECK_ERR("SELECT a FROM t AS order",
              "Encountered \"order\" at line 1, column 20.");
}

WTEST(parser_err_unterminated_string)
{
    /* an unterminated literal is a lone quote token for Calcite */
    CHECK_ERR("SELECT 'abc", "Encountered \"\\'\" at line 1, column 8.");
}

WTEST(parser_err_string_token_image)
{
    CHECK_ERR("SELECT a FROM t WHERE 'x' 'y' z",
              "Encountered \"z\" at line 1, column 31.");
    CHECK_ERR("SELECT ROW(a, 'literal') x y FROM t", "Encountered \"y\" at line 1, column 28.");
    CHECK_ERR("SHOW TABLES LIKE x", "Encountered \"x\" at line 1, column 18.");
    CHECK_ERR("SELECT 1 'abc'", "Encountered \"\\'abc\\'\" at line 1, column 10.");
}

WTEST(parser_err_set_key_hyphen)
{
    /* Flink's own test: SET execution.runtime-type= */
    CHECK_ERR("SET execution.runtime-type=", "Encountered \"-\" at line 1, column 22.");
}

WTEST(parser_err_show_likes)
{
    /* FlinkSqlParserImplTest: show catalogs ^likes^ / show databases not ^likes^ */
    CHECK_ERR("show catalogs likes", "Encountered \"likes\" at line 1, column 15.");
    CHECK_ERR("show databases likes", "Encountered \"likes\" at line 1, column 16.");
    CHECK_ERR("show databases not likes", "Encountered \"likes\" at line 1, column 20.");
    CHECK_ERR("show catalogs not ilikes", "Encountered \"ilikes\" at line 1, column 19.");
}

WTEST(parser_err_single_expected)
{
    WError e = ERR_("SELECT a FROM t ORDER a");
    CHECK_STR(e.msg, "Encountered \"a\" at line 1, column 23.\nWas expecting:\n    \"BY\" ...");
    /* IN without "(" fails Calcite's lookahead at IN (measured on Flink 2.3.0) */
    WError e2 = ERR_("SELECT a FROM t WHERE a IN 1");
    CHECK_STR(first_line(e2.msg), "Encountered \"IN 1\" at line 1, column 25.");
    CHECK(strstr(e2.msg, "\n    \"IN\" \"(\" ...\n") != NULL);
}

WTEST(parser_err_trailing_statement)
{
    /* Flink parses the list, then refuses more than one statement */
    WError e = ERR_("SELECT 1; SELECT 2");
    CHECK_STR(e.cls, WEXC_ILLEGAL_ARG);
    CHECK_STR(e.msg, "only single statement supported");
    /* a broken second statement reports its own syntax error */
    CHECK_ERR("SELECT 1; SELECT", "Encountered \"<EOF>\" at line 1, column 16.");
    CHECK_ERR("SELECT 1 SELECT 2", "Incorrect syntax near the keyword 'SELECT' at line 1, column 10.");
    WError ok = ERR_("SELECT 1;;");
    CHECK_STR(ok.msg, "(parsed)");
}

WTEST(parser_err_closing_paren)
{
    CHECK_ERR("SELECT a FROM t WHERE a = )", "Encountered \"= )\" at line 1, column 25.");
    CHECK_ERR("SELECT (1 + 2 FROM t", "Encountered \"FROM\" at line 1, column 15.");
    CHECK_ERR("INSERT INTO t VALUES (1", "Encountered \"<EOF>\" at line 1, column 23.");
    CHECK_ERR("SELECT f(a,) FROM t", "Encountered \")\" at line 1, column 12.");
}

WTEST(parser_err_multiline_position)
{
    WError e = ERR_("CREATE TABLE t (\n  a INT,\n  b STRING\n  c INT\n)");
    CHECK_STR(first_line(e.msg), "Encountered \"c\" at line 4, column 3.");
    CHECK_INT(e.line, 4);
    CHECK_INT(e.col, 3);
}

WTEST(parser_err_cast_without_as)
{
    CHECK_ERR("SELECT CAST(a INT) FROM t", "Encountered \"INT\" at line 1, column 15.");
}

WTEST(parser_err_incomplete_expressions)
{
    /* a dangling operator is reported with the token after it (Calcite's two-token lookahead) */
    CHECK_ERR("SELECT 1 +", "Encountered \"+ <EOF>\" at line 1, column 10.");
    /* BETWEEN without AND: Calcite reduces the expression and fails (measured on Flink 2.3.0) */
    WError b = ERR_("SELECT a FROM t WHERE a BETWEEN 1");
    CHECK_STR(b.msg, "BETWEEN operator has no terminating AND");
    CHECK_STR(b.cls, WEXC_CALCITE);
    b = ERR_("SELECT a FROM t WHERE a BETWEEN 1 OR 2");
    CHECK_STR(b.msg, "BETWEEN operator has no terminating AND");
    CHECK_ERR("SELECT CASE WHEN a THEN 1 FROM t", "Encountered \"FROM\" at line 1, column 27.");
    CHECK_ERR("SELECT a IS b FROM t", "Incorrect syntax near the keyword 'IS' at line 1, column 10.");
}

WTEST(parser_err_statements)
{
    CHECK_ERR("EXPLAIN", "Encountered \"<EOF>\" at line 1, column 7.");
    CHECK_ERR("DROP TABLE", "Encountered \"<EOF>\" at line 1, column 10.");
    CHECK_ERR("BEGIN STATEMENT", "Encountered \"<EOF>\" at line 1, column 15.");
    CHECK_ERR("STOP JOB abc", "Encountered \"abc\" at line 1, column 10.");
    /* Calcite raises this one from a grammar action: a CalciteException (measured on Flink 2.3.0) */
    WError nq = ERR_("SELEC 1");
    CHECK_STR(nq.msg, "Non-query expression encountered in illegal context");
    CHECK_STR(nq.cls, "org.apache.calcite.runtime.CalciteException");
    WError nq2 = ERR_("1 + 1");
    CHECK_STR(nq2.msg, "Non-query expression encountered in illegal context");
    CHECK_ERR("GRANT x", "Incorrect syntax near the keyword 'GRANT' at line 1, column 1.");
    CHECK_ERR("COMPILE PLAN 'f' FOR SELECT 1", "Encountered \"SELECT\" at line 1, column 22.");
    CHECK_ERR("EXECUTE STATEMENT SET BEGIN SELECT 1; END",
              "Encountered \"SELECT\" at line 1, column 29.");
}

WTEST(parser_err_ddl)
{
    CHECK_ERR("CREATE TABLE t (a INT, WATERMARK ts AS ts)", "Encountered \"ts\" at line 1, column 34.");
    CHECK_ERR("CREATE TABLE t (a INT) WITH ('k' = 1)", "Encountered \"1\" at line 1, column 36.");
    CHECK_ERR("CREATE TABLE t (a INT) WITH (k = 'v')", "Encountered \"k\" at line 1, column 30.");
    CHECK_ERR("CREATE TABLE t (a INT PRIMARY KEY NOT)", "Encountered \")\" at line 1, column 38.");
    CHECK_ERR("CREATE TABLE t (a VARCHAR(x))", "Encountered \"x\" at line 1, column 27.");
    CHECK_ERR("CREATE VIEW v SELECT 1", "Encountered \"SELECT\" at line 1, column 15.");
}

WTEST(parser_err_types)
{
    WError e;
    werr_clear(&e);
    if (!EA_init) { warena_init(&EA, 0); EA_init = true; }
    CHECK(wsql_parse_type(&EA, "ARRAY<INT", &e) == NULL);
    CHECK_STR(first_line(e.msg), "Encountered \"<EOF>\" at line 1, column 9.");
    werr_clear(&e);
    CHECK(wsql_parse_type(&EA, "MAP<INT>", &e) == NULL);
    CHECK_STR(first_line(e.msg), "Encountered \">\" at line 1, column 8.");
    werr_clear(&e);
    CHECK(wsql_parse_type(&EA, "INT extra", &e) == NULL);
    CHECK_STR(first_line(e.msg), "Encountered \"extra\" at line 1, column 5.");
}

WTEST(parser_err_hint_misplaced)
{
    CHECK_ERR("SELECT a /*+ X */ FROM t", "Encountered \"/*+\" at line 1, column 10.");
    /* the hint's key = value scan fails at the hint's end: Calcite is left with "( )" and fails at
       the first option, with the scans' sequences (as Flink 2.3, measured with compare.py) */
    CHECK_ERR("SELECT /*+ OPTIONS('a' = 'b' */ a FROM t",
              "Encountered \"\\'a\\' = \\'b\\' */\" at line 1, column 20.");
}

WTEST(parser_err_double_quotes)
{
    /* back-tick quoting: a double quote starts nothing */
    CHECK_ERR("SELECT \"a\" FROM t", "Encountered \"\\\"\" at line 1, column 8.");
}

WTEST(parser_err_interval_unit)
{
    CHECK_ERR("SELECT INTERVAL '1' FOO", "Encountered \"FOO\" at line 1, column 21.");
    CHECK_ERR("SELECT INTERVAL 1 DAY", "Encountered \"1\" at line 1, column 17.");
}

WTEST(parser_err_unicode_escape)
{
    CHECK_ERR("SELECT U&'\\00G1'",
              "Unicode escape sequence starting at character 0 is not exactly four hex digits");
}

WTEST(parser_err_depth_limit)
{
    char sql[2200];
    strcpy(sql, "SELECT ");
    for (int i = 0; i < 1000; i++) strcat(sql, "(");
    strcat(sql, "1");
    WError e = ERR_(sql);
    CHECK_STR(e.cls, WEXC_PARSE);
    CHECK(strstr(e.msg, "nested too deeply") != NULL);
    /* unary chains and nested types are bounded too */
    char neg[2100];
    strcpy(neg, "SELECT ");
    for (int i = 0; i < 1000; i++) strcat(neg, "- ");   /* "--" would start a comment */
    strcat(neg, "1");
    e = ERR_(neg);
    CHECK(strstr(e.msg, "nested too deeply") != NULL);
    char ty[8200];
    strcpy(ty, "CREATE TABLE t (a ");
    for (int i = 0; i < 1000; i++) strcat(ty, "ARRAY<");
    e = ERR_(ty);
    CHECK(strstr(e.msg, "nested too deeply") != NULL);
}

WTEST(parser_err_deep_but_fine)
{
    char sql[400];
    strcpy(sql, "SELECT ");
    for (int i = 0; i < 50; i++) strcat(sql, "(");
    strcat(sql, "1");
    for (int i = 0; i < 50; i++) strcat(sql, ")");
    WError e = ERR_(sql);
    CHECK_STR(e.msg, "(parsed)");
}

WTEST(parser_err_natural_join_needs_join)
{
    /* the join loop's three-token scan (NATURAL JoinType table) fails: the error is at NATURAL,
       as in Flink 2.3 (measured with tests/flink/parse_oracle/compare.py) */
    CHECK_ERR("SELECT * FROM a NATURAL b", "Incorrect syntax near the keyword 'NATURAL' at line 1, column 17.");
    /* a join without a condition parses; Flink's validator refuses it (the binder does) */
    CHECK_STR(ERR_("SELECT * FROM a JOIN b").msg, "(parsed)");
}

WTEST(parser_err_empty_input)
{
    WError e = ERR_("   ");
    CHECK_STR(first_line(e.msg), "Encountered \"<EOF>\" at line 1, column 3.");
    WError c = ERR_("-- only a comment");
    CHECK_STR(first_line(c.msg), "Encountered \"<EOF>\" at line 1, column 17.");
}

WTEST(parser_err_expression_api)
{
    if (!EA_init) { warena_init(&EA, 0); EA_init = true; }
    WError e;
    werr_clear(&e);
    CHECK(wsql_parse_expression(&EA, "a +", &e) == NULL);
    CHECK_STR(first_line(e.msg), "Encountered \"+ <EOF>\" at line 1, column 3.");
    werr_clear(&e);
    CHECK(wsql_parse_expression(&EA, "a b", &e) == NULL);
    CHECK_STR(first_line(e.msg), "Encountered \"b\" at line 1, column 3.");
}

/* Calcite's grammar: WHERE, GROUP BY, HAVING, WINDOW, QUALIFY follow only a FROM clause (measured on
   Flink 2.3.0: the same first line) */
WTEST(parser_err_where_without_from)
{
    CHECK_ERR("SELECT 1 WHERE TRUE", "Incorrect syntax near the keyword 'WHERE' at line 1, column 10.");
    WError e = ERR_("SELECT 1 b c");
    CHECK_STR(first_line(e.msg), "Encountered \"c\" at line 1, column 12.");
    CHECK(strstr(e.msg, "\"GROUP\"") == NULL && strstr(e.msg, "\"WHERE\"") == NULL);
    CHECK(strstr(e.msg, "    \"FROM\" ...\n") != NULL);
}

/* Calcite's lookahead sequences (parse_lookahead.c), as Flink 2.3.0's parser reports them */
WTEST(parser_err_lookahead_sequences)
{
    /* a dangling operator: the operator and the token after it, then each operand start after it */
    WError e = ERR_("SELECT x - FROM t");
    CHECK_STR(first_line(e.msg), "Encountered \"- FROM\" at line 1, column 10.");
    CHECK(strstr(e.msg, "\n    \"-\" \"CASE\" ...\n") != NULL);
    CHECK(strstr(e.msg, "\n    \"-\" <IDENTIFIER> ...\n") != NULL);
    /* a comparison may take a quantifier: "<=" "SOME" before the operand starts */
    WError c = ERR_("SELECT x FROM t WHERE y <=");
    CHECK_STR(first_line(c.msg), "Encountered \"<= <EOF>\" at line 1, column 25.");
    CHECK(strstr(c.msg, "\"<=\" \"SOME\" ...\n    \"<=\" \"ANY\" ...\n    \"<=\" \"ALL\" ...") != NULL);
    /* a reserved word in capitals with an identifier among the sequences is "the keyword" */
    CHECK_ERR("SELECT x FROM t WHERE y OR", "Incorrect syntax near the keyword 'OR' at line 1, column 25.");
    /* the comma of an ORDER BY list is decided by lookahead */
    CHECK_ERR("SELECT x FROM t ORDER BY x DESC, LIMIT 1", "Encountered \", LIMIT\" at line 1, column 32.");
    /* after a complete operand: the single tokens first (sorted), then the operator scans, the
       identifier's "(" last; non-reserved keywords dropped beside an identifier (select item) */
    WError s = ERR_("SELECT y 2");
    CHECK(strstr(s.msg, "\"[\" ...\n    \"(\" ...") != NULL);
    CHECK(strstr(s.msg, "\"FORMAT\"") == NULL);
    WError w = ERR_("SELECT y FROM t WHERE z w");
    CHECK(strstr(w.msg, "\"[\" ...\n    \"FORMAT\" ...\n    \"(\" ...") != NULL);
}

/* Flink 2.3.0's conformance level refuses != (a CalciteException from the parser) */
WTEST(parser_err_bang_equal)
{
    WError e = ERR_("SELECT a FROM t WHERE a != 1");
    CHECK_STR(e.cls, "org.apache.calcite.runtime.CalciteException");
    CHECK_STR(e.msg, "Bang equal '!=' is not allowed under the current SQL conformance level");
    /* a dangling != is a syntax error first */
    CHECK_ERR("SELECT a FROM t WHERE a !=", "Encountered \"!= <EOF>\" at line 1, column 25.");
}

/* lookahead scans that started before the error token (ps_scan_failed): the rest of the scan is
   listed from the error token on, after the single tokens (measured on Flink 2.3.0) */
WTEST(parser_err_scans_before_error_token)
{
    /* IF NOT EXISTS: IF alone is the name; `IF NOT t` fails at NOT with "NOT" "EXISTS" */
    WError e = ERR_("CREATE DATABASE IF db");
    CHECK_STR(first_line(e.msg), "Encountered \"db\" at line 1, column 20.");
    CHECK(strstr(e.msg, "    \"COMMENT\" ...\n    \";\" ...\n    \"NOT\" ...\n    \".\" ...") != NULL);
    e = ERR_("CREATE DATABASE IF NOT db");
    CHECK_STR(first_line(e.msg), "Encountered \"NOT db\" at line 1, column 20.");
    CHECK(strstr(e.msg, "    \"NOT\" \"EXISTS\" ...\n") != NULL);
    e = ERR_("DROP TABLE IF");
    CHECK_STR(e.msg, "(parsed)");
    /* FUNCTION is scanned with the name's first token: listed last, and DROP FUNCTION fails at it */
    e = ERR_("DROP t");
    CHECK(strstr(e.msg, "    \"MATERIALIZED\" ...\n    \"FUNCTION\" ...") != NULL);
    e = ERR_("DROP FUNCTION;");
    CHECK_STR(first_line(e.msg), "Incorrect syntax near the keyword 'FUNCTION' at line 1, column 6.");
    CHECK(strstr(e.msg, "    \"FUNCTION\" <IDENTIFIER> ...\n") != NULL);
    /* COUNT('s `( *` and `( )` scans come after the argument's single tokens */
    e = ERR_("SELECT COUNT( FROM t");
    const char *star = strstr(e.msg, "    \"*\" ...\n    \")\" ...");
    CHECK(star != NULL && strstr(e.msg, "<UNICODE_QUOTED_IDENTIFIER> ...\n    \"*\"") != NULL);
    /* a column type: NOT / NULL single tokens, MULTISET / ARRAY scans last */
    e = ERR_("CREATE TABLE t (a INT b INT)");
    CHECK(strstr(e.msg, "    \"CONSTRAINT\" ...\n    \"NOT\" ...\n    \"NULL\" ...\n") != NULL);
    CHECK(strstr(e.msg, "    \",\" ...\n    \"MULTISET\" ...\n    \"ARRAY\" ...") != NULL);
    /* INTERVAL ... TO: a scan per start unit, the error at TO */
    e = ERR_("SELECT INTERVAL '1' YEAR TO DAY");
    CHECK_STR(first_line(e.msg), "Incorrect syntax near the keyword 'TO' at line 1, column 26.");
    CHECK(strstr(e.msg, "    \"TO\" \"MONTH\" ...\n    \"TO\" \"MONTHS\" ...") != NULL);
}
