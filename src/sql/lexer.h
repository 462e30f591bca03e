/*
 * lexer.h — private to src/sql: tokens of Flink's SQL dialect and the keyword table.
 *
 * Contract: wsql_lex turns a whole statement text into a token array (arena-allocated, ending with
 * a TK_EOF token) the way Calcite's generated token manager would in Flink's back-tick quoting mode:
 * whitespace and comments (dash-dash, slash-slash and slash-star comments) are skipped; the hint
 * opener slash-star-plus and the comment end star-slash are tokens; positions are 1-based
 * line/column counted in UTF-16 units. A lexical error (unterminated
 * comment or back-quoted identifier, a character that starts no token) sets err exactly like
 * Calcite's TokenMgrError and returns false. Depends on common/.
 */
#ifndef WEIR_SQL_LEXER_H
#define WEIR_SQL_LEXER_H

#include <stdbool.h>
#include "../common/arena.h"
#include "../common/error.h"

/* the exception class Flink's client shows for lexical errors */
#define WEXC_TOKEN_MGR "org.apache.flink.sql.parser.impl.TokenMgrError"

typedef enum WSqlTokKind {
    TK_EOF = 0,
    TK_IDENT,       /* unquoted word (keyword or identifier); kw set when it is a keyword */
    TK_QIDENT,      /* `back quoted` identifier; val holds the unescaped name */
    TK_STRING,      /* 'abc' or N'abc' or _charset'abc'; val unescaped */
    TK_USTRING,     /* U&'...'; val holds the raw body ('' unescaped, \XXXX kept) */
    TK_BINSTRING,   /* X'0A1B'; val holds the hex digits */
    TK_INTEGER,     /* 123 */
    TK_DECIMAL,     /* 1.5 .5 1. */
    TK_APPROX,      /* 1e3 1.5E-2 */
    /* separators and operators */
    TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_LBRACKET, TK_RBRACKET, TK_SEMICOLON, TK_DOT,
    TK_COMMA, TK_EQ, TK_GT, TK_LT, TK_HOOK, TK_COLON, TK_LE, TK_GE, TK_NE, TK_NE2, TK_NULLEQ,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_CONCAT, TK_NAMED_ARG, TK_DOUBLE_PERIOD,
    TK_QUOTE, TK_DOUBLE_QUOTE, TK_VERTICAL_BAR, TK_CARET, TK_DOLLAR,
    TK_HINT_BEG,    /* slash-star-plus: a hint starts */
    TK_COMMENT_END, /* star-slash: a hint ends */
    TK_BEL,         /* the character U+0007: a token no rule accepts (Calcite's BEL, which its SQL
                       advisor puts at the cursor to learn what may come there) */
    /* JDBC escapes (Calcite's LBRACE_D / _T / _TS / _FN): "{", spaces, then d, t, ts or fn in any
       case; the longest token wins, so `{dx` is {d then x */
    TK_LBRACE_D, TK_LBRACE_T, TK_LBRACE_TS, TK_LBRACE_FN,
    TK__COUNT
} WSqlTokKind;

typedef struct WSqlKeyword {
    const char *word;   /* upper case */
    int ordinal;        /* Calcite token order */
    bool reserved;      /* cannot be an unquoted identifier */
} WSqlKeyword;

typedef struct WSqlToken {
    WSqlTokKind kind;
    const char *start;  /* into the source text */
    int len;            /* bytes of source text */
    int line, col;      /* 1-based position of the first character */
    int end_line, end_col;  /* position of the last character */
    char *val;          /* decoded text for identifiers/strings/numbers (arena) */
    const WSqlKeyword *kw;  /* TK_IDENT that is a keyword, else NULL */
} WSqlToken;

typedef struct WSqlTokens {
    WSqlToken *t;
    int n;
} WSqlTokens;

bool wsql_lex(WArena *a, const char *src, int len, WSqlTokens *out, WError *err);

const WSqlKeyword *wsql_keyword_lookup(const char *word, int len);
int wsql_keyword_count(void);
const WSqlKeyword *wsql_keyword_at(int i);

/* JavaCC's addEscapes: \b \t \n \f \r \" \' \\ and non-printable characters as \uXXXX */
void wsql_add_escapes(char *out, int cap, const char *s, int len);

#endif
