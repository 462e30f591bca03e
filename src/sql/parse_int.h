/*
 * parse_int.h — private to src/sql: the recursive-descent parser's state and shared helpers.
 *
 * Contract: a WSqlParser walks a token array (lexer.h). Every token test made through the helpers
 * below records what was expected at the current position, so that the first syntax error can be
 * reported the way Calcite does (`Encountered "X" at line L, column C.` / `Incorrect syntax near
 * the keyword 'X' ...` plus `Was expecting one of:`). Errors longjmp back to the entry point
 * (parse_stmt.c); everything is arena-allocated, so nothing leaks. Nesting is bounded by
 * WSQL_MAX_DEPTH. Depends on ast.h, lexer.h, common/.
 */
#ifndef WEIR_SQL_PARSE_INT_H
#define WEIR_SQL_PARSE_INT_H

#include <setjmp.h>
#include <stdbool.h>

#include "ast.h"
#include "lexer.h"

#define WSQL_MAX_DEPTH 200
#define WSQL_MAX_EXPECTED 200
#define WSQL_MAX_SEQ 4
#define WSQL_MAX_SCANS 32

/* an expected token sequence, as Calcite prints it (printed token images: "\"AND\"", "<IDENTIFIER>") */
typedef struct PsSeq { int n; const char *tok[WSQL_MAX_SEQ]; } PsSeq;
typedef struct PsSeqList { PsSeq *v; int n, cap; } PsSeqList;

/* the operand an expression ended with (what Calcite's lookahead may still try after it) */
typedef enum PsOperand {
    PS_OPND_PRIMARY = 0,   /* a literal, CAST(...), CASE ..., a[i], ... */
    PS_OPND_IDENT,         /* a (compound) identifier or a niladic function: may go on with "(" */
    PS_OPND_STRING,        /* a character literal: another fragment or UESCAPE may follow */
    PS_OPND_CALL,          /* f(...): IGNORE / RESPECT NULLS may follow */
    PS_OPND_PAREN,         /* (expr): a time unit may follow */
    PS_OPND_POSTFIX,       /* x IS [NOT] NULL / TRUE / ...: no field access follows */
} PsOperand;

typedef struct WSqlParser {
    WArena *a;
    const char *src;
    int srclen;
    WSqlToken *t;
    int n;
    int pos;
    WError *err;
    jmp_buf jb;
    int depth;
    /* tokens expected at token index exp_pos */
    int exp_pos;
    int nexp;
    const char *exp[WSQL_MAX_EXPECTED];
    int exp_ord[WSQL_MAX_EXPECTED];
    bool exp_nonres[WSQL_MAX_EXPECTED];
    bool exp_q[WSQL_MAX_EXPECTED];     /* print in double quotes (keywords, punctuation) */
    bool exp_ident;
    /* syntactic-lookahead positions (parse_lookahead.c); -1 when none */
    int cont_pos;                      /* an expression's operator loop stopped here */
    PsOperand cont_opnd;               /* ... after this kind of operand */
    int start_pos;                     /* an expression starts here (scanned with lookahead) */
    int sorted_start_pos;              /* an expression starts here (decided by its first token) */
    PsOperand last_opnd;               /* the operand parsed last */
    int comma_pos;                     /* a list looked for `, item` here (ps_list_comma) */
    bool comma_group;                  /* ... of GROUP BY items */
    int escape_pos;                    /* LIKE looked for ESCAPE here */
    int stmt_start_pos;
    int values_row_pos;                /* a row of VALUES starts here (its items may be DEFAULT) */
    int op3_pos;                       /* a binary operator's three-token scan failed here */                /* no statement form matched from here (ps_fail_statement_start) */
    int dot_pos;                       /* a compound name stopped at a "." no name follows */
    int name_end_pos;                  /* a compound name ended here (no "." follows it) */
    int join_pos;                      /* the FROM list's join choice failed its scans here */
    bool join_kw;                      /* ... entered at a join keyword (else at a ",") */
    int hint_pos;                      /* a hint's "(" whose option scans all failed */
    int look_pos;                      /* ps_lookahead_tokens: position, images, count */
    const char *const *look;
    int nlook;
    PsSeqList failed;                  /* ps_fail: the expected sequences it reported */
    /* LOOKAHEAD(n) scans of fixed token sequences that failed (ps_scan_failed), in the order of
       Flink's generated jj_3 routines where several may cover one error position */
    struct { int pos; const char *const *imgs; int n; bool late; } scans[WSQL_MAX_SCANS];
    int nscans;
} WSqlParser;

/* ---- tokens (parse_util.c) ---- */
WSqlToken *ps_cur(WSqlParser *p);
WSqlToken *ps_peek(WSqlParser *p, int k);      /* k = 0 is the current token */
void ps_next(WSqlParser *p);
AstPos ps_pos(WSqlParser *p);
AstPos ps_tok_pos(const WSqlToken *t);

/* keyword tests: kw is upper case; is_* record the expectation, *_at do not */
bool ps_is_kw(WSqlParser *p, const char *kw);
bool ps_kw_at(WSqlParser *p, int k, const char *kw);
bool ps_accept_kw(WSqlParser *p, const char *kw);
void ps_expect_kw(WSqlParser *p, const char *kw);
/* a word that is not a Calcite keyword (HELP, QUIT, TRY_CAST, ...): compared case-insensitively */
bool ps_word_at(WSqlParser *p, int k, const char *word);

bool ps_is(WSqlParser *p, WSqlTokKind k);
bool ps_at(WSqlParser *p, int k, WSqlTokKind kind);
bool ps_accept(WSqlParser *p, WSqlTokKind k);
void ps_expect(WSqlParser *p, WSqlTokKind k);

/* identifiers */
bool ps_is_ident(WSqlParser *p);               /* records <IDENTIFIER> */
bool ps_ident_at(WSqlParser *p, int k);        /* no recording */
char *ps_ident(WSqlParser *p);
AstName ps_compound(WSqlParser *p);            /* a.b.c */
char *ps_name_join(WSqlParser *p, const AstName *n);   /* "a.b.c" */

/* literals */
bool ps_is_string(WSqlParser *p);
char *ps_string(WSqlParser *p);                /* a character string literal ('a' 'b' joined) */
char *ps_quoted(WSqlParser *p);                /* a bare <QUOTED_STRING> token (Flink's own statements) */
char *ps_string_plain(WSqlParser *p);          /* the same where Calcite lists no continuation (INTERVAL '1', hints) */
int ps_uint(WSqlParser *p);                    /* an unsigned integer literal */

/* expectations without a token test */
void ps_note(WSqlParser *p, const char *image, bool quoted, int order);
void ps_note_image(WSqlParser *p, const char *printed);   /* "\"ABS\"", "<IDENTIFIER>", ... */
void ps_note_expr_start(WSqlParser *p);
const char *ps_tok_image(WSqlTokKind kind);               /* "(" for TK_LPAREN, ... */
void ps_seq_add(WSqlParser *p, PsSeqList *l, const PsSeq *q);   /* appended unless already there */

/* ---- Calcite's token table and lookahead sequences (calcite_tokens.c, parse_lookahead.c) ---- */
int wsql_calcite_kind(const char *printed);    /* the token kind of a printed image, -1 if unknown */
extern const char *const WSQL_OPERAND_STARTS[];
extern const int WSQL_N_OPERAND_STARTS;
bool ps_operand_start_at(WSqlParser *p, int k);   /* token k may start an operand (Calcite's list) */
/* an operand start that is no operand alone: the three-token scan after a binary operator compares
   the token after it (operand_scans.c, measured) */
typedef struct WOperandStep {
    const char *tok;            /* compared at the operand's first position (NULL: the range below) */
    const char *next;           /* then this one after it (tok is the operand start), or NULL;
                                   WSQL_ANY_OPERAND: each operand start in turn */
    int from, to;               /* tok NULL: WSQL_OPERAND_STARTS[from..to), one after the other */
} WOperandStep;
#define WSQL_ANY_OPERAND "<operand>"
typedef struct WOperandScan {
    const char *start;          /* the operand start, as printed */
    const WOperandStep *steps;
    int nsteps;
} WOperandScan;
extern const WOperandScan WSQL_OPERAND_SCANS[];
extern const int WSQL_N_OPERAND_SCANS;
/* token k starts an operand the binary operator's three-token scan accepts (with token k+1) */
bool ps_binary_operand_at(WSqlParser *p, int k);
/* fail at the current binary operator whose operand the three-token scan did not accept */
_Noreturn void ps_fail_operand3(WSqlParser *p);
/* an expression's operator loop looks at the current token after an operand of kind `last` */
void ps_mark_continuation(WSqlParser *p, PsOperand last);
/* an operand was expected at the current token: its single expected tokens, and (in the clauses
   that scan for it) the lookahead position */
void ps_note_operand_start(WSqlParser *p);
/* Calcite decides by lookahead scans at the current token, which try these tokens in this order */
void ps_lookahead_tokens(WSqlParser *p, const char *const *imgs, int n);
/* a LOOKAHEAD(n) scan for the fixed tokens imgs[0..n) (printed images) failed at the current token:
   an error at a later token that the scan compared lists the rest of the sequence from there
   (`IF db` lists "NOT", `IF NOT db` lists "NOT" "EXISTS" at NOT), as JavaCC's rescan does */
void ps_scan_failed(WSqlParser *p, const char *const *imgs, int n);
/* the same for a scan Flink's parser runs after the operator loop's (listed after all others) */
void ps_scan_failed_late(WSqlParser *p, const char *const *imgs, int n);
/* no statement form matches the tokens at `start`: Flink's statement choice fails at its first token
   (the statement and operand starts, then the scans for BEGIN, END, SHOW x, USE x and EXECUTE) */
_Noreturn void ps_fail_statement_start(WSqlParser *p, int start);
/* the FROM list's join loop (Calcite's FromClause) at the current token: true when its choice's
   scans accept `, table` (comma) or `[NATURAL] join-type table` (LOOKAHEAD(3)); when they do not,
   the failing paths record the scans (join_pos) for the rescan */
bool ps_from_comma_ahead(WSqlParser *p);
bool ps_join_ahead(WSqlParser *p);
/* a hint's options at its "(" (Calcite's SqlHint): key = value pairs (LOOKAHEAD(5)), a list of
   names or of literals (LOOKAHEAD(3) each); when no scan accepts, only "( )" is left (hint_pos) */
bool ps_hint_kv_ahead(WSqlParser *p);
bool ps_hint_names_ahead(WSqlParser *p);
bool ps_hint_literals_ahead(WSqlParser *p);
/* the sequences Calcite's lookahead scans add at the current (error) position */
void ps_rescan(WSqlParser *p, PsSeqList *out);

/* errors: never return */
_Noreturn void ps_fail(WSqlParser *p);
_Noreturn void ps_fail_at(WSqlParser *p, const WSqlToken *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* an error Calcite's parser raises from a grammar action (CalciteException, no position in the text) */
_Noreturn void ps_fail_calcite(WSqlParser *p, const WSqlToken *t, const char *msg);
void ps_enter(WSqlParser *p);
void ps_leave(WSqlParser *p);

/* arena lists */
typedef struct PsList { void **v; int n, cap; } PsList;
void ps_list_add(WSqlParser *p, PsList *l, void *x);

/* ---- expressions and types (parse_expr.c) ---- */
AstExpr *ps_expr(WSqlParser *p);               /* a full expression (OR level) */
/* the same where Calcite's grammar decides by the first token (select item, GROUP BY item, call
   argument, parenthesized expression, VALUES row): an operand start lists its tokens sorted */
AstExpr *ps_expr_item(WSqlParser *p);
/* the comma of an ORDER BY / GROUP BY list: Calcite goes on only when an item follows it
   (LOOKAHEAD(2)), else the comma is the error token; consumes it and returns true to go on */
bool ps_list_comma(WSqlParser *p, bool group);   /* group: GROUP BY items (also GROUPING SETS, ROLLUP, CUBE) */
AstExpr *ps_expr_or_query(WSqlParser *p);
/* a JDBC escape at a TK_LBRACE_D / _T / _TS / _FN token: {d '..'}, {t '..'}, {ts '..'}, {fn f(..)}
   (parse_jdbc.c) */
AstExpr *ps_jdbc_escape(WSqlParser *p);      /* inside parentheses where a query may appear */
AstType *ps_type(WSqlParser *p);              /* Calcite's DataType (CAST, RETURNING) */
/* interval qualifier: unit [(p)] [TO unit [(f)]] or SECOND [(p [, f])] (AU_* units; -1: absent) */
void ps_interval_qualifier(WSqlParser *p, int *start, int *end, int *prec, int *frac);
/* Flink's ExtendedDataType (a column's type, the types inside ARRAY<>, MAP<>, ROW<>): [NOT NULL | NULL]
   after the type and after each ARRAY / MULTISET suffix, the suffix decided by a lookahead scan */
AstType *ps_type_ext(WSqlParser *p);
AstExpr *ps_new_expr(WSqlParser *p, AstExprKind kind, AstPos pos);
AstExpr *ps_string_lit(WSqlParser *p, const char *text, AstPos pos);
void ps_over_spec(WSqlParser *p, AstOver *o);  /* the part inside the parentheses */
bool ps_is_query_start(WSqlParser *p, int k);  /* SELECT / VALUES / WITH / TABLE at token k ('(' skipped) */
AstOrderItem *ps_order_list(WSqlParser *p, int *n);
int ps_time_unit(WSqlParser *p, bool required);   /* AstTimeUnit or AU_NONE */

/* ---- queries (parse_query.c) ---- */
AstQuery *ps_query(WSqlParser *p);             /* [WITH] query [ORDER BY] [LIMIT] ... */
AstHints ps_hints_opt(WSqlParser *p);          /* an optional hint comment */
AstFrom *ps_table_ref_simple(WSqlParser *p);

/* ---- MATCH_RECOGNIZE (parse_match.c) ---- */
/* The clause at the current MATCH_RECOGNIZE token over table reference `input`: an AFR_MATCH. */
AstFrom *ps_match_recognize(WSqlParser *p, AstFrom *input);

#endif
