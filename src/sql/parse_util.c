/*
 * parse_util.c — token access, expectation tracking and Calcite-style syntax errors for the parser.
 *
 * Contract: see parse_int.h. The expected set is kept for one token index at a time (the one the
 * parser is looking at); a syntax error at that index prints it in Calcite's token order, without
 * non-reserved keywords when an identifier was acceptable (as Calcite's cleanupParseException
 * does). Depends on parse_int.h.
 */
#include "parse_int.h"
#include "../common/sort.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Calcite's token order for non-keyword tokens (keywords use their table ordinal, all < 1000) */
#define WSQL_EXPECTED_TEXT 16384

enum {
    ORD_LIT = 1000, ORD_SEP = 1100, ORD_OP = 1200, ORD_HINT = 1300, ORD_IDENT = 1400
};

typedef struct { const char *img; int ord; } TokImg;

static const TokImg TOK_IMAGES[TK__COUNT] = {
    [TK_EOF] = {"<EOF>", 0},
    [TK_IDENT] = {"<IDENTIFIER>", ORD_IDENT + 5},
    [TK_QIDENT] = {"<BACK_QUOTED_IDENTIFIER>", ORD_IDENT + 2},
    [TK_STRING] = {"<QUOTED_STRING>", ORD_LIT + 4},
    [TK_USTRING] = {"<UNICODE_STRING_LITERAL>", ORD_LIT + 6},
    [TK_BINSTRING] = {"<BINARY_STRING_LITERAL>", ORD_LIT + 3},
    [TK_INTEGER] = {"<UNSIGNED_INTEGER_LITERAL>", ORD_LIT + 0},
    [TK_DECIMAL] = {"<DECIMAL_NUMERIC_LITERAL>", ORD_LIT + 2},
    [TK_APPROX] = {"<APPROX_NUMERIC_LITERAL>", ORD_LIT + 1},
    [TK_LPAREN] = {"(", ORD_SEP + 0}, [TK_RPAREN] = {")", ORD_SEP + 1},
    [TK_LBRACE] = {"{", ORD_SEP + 6}, [TK_RBRACE] = {"}", ORD_SEP + 7},
    [TK_LBRACKET] = {"[", ORD_SEP + 8}, [TK_RBRACKET] = {"]", ORD_SEP + 9},
    [TK_SEMICOLON] = {";", ORD_SEP + 10}, [TK_DOT] = {".", ORD_SEP + 11},
    [TK_COMMA] = {",", ORD_SEP + 12},
    [TK_EQ] = {"=", ORD_OP + 0}, [TK_GT] = {">", ORD_OP + 1}, [TK_LT] = {"<", ORD_OP + 2},
    [TK_HOOK] = {"?", ORD_OP + 3}, [TK_COLON] = {":", ORD_OP + 4}, [TK_LE] = {"<=", ORD_OP + 5},
    [TK_GE] = {">=", ORD_OP + 6}, [TK_NE] = {"<>", ORD_OP + 7}, [TK_NE2] = {"!=", ORD_OP + 8},
    [TK_NULLEQ] = {"<=>", ORD_OP + 9}, [TK_PLUS] = {"+", ORD_OP + 10},
    [TK_MINUS] = {"-", ORD_OP + 11}, [TK_STAR] = {"*", ORD_OP + 12},
    [TK_SLASH] = {"/", ORD_OP + 13}, [TK_PERCENT] = {"%", ORD_OP + 14},
    [TK_CONCAT] = {"||", ORD_OP + 15}, [TK_NAMED_ARG] = {"=>", ORD_OP + 16},
    [TK_DOUBLE_PERIOD] = {"..", ORD_OP + 17}, [TK_QUOTE] = {"'", ORD_OP + 18},
    [TK_DOUBLE_QUOTE] = {"\"", ORD_OP + 19}, [TK_VERTICAL_BAR] = {"|", ORD_OP + 20},
    [TK_CARET] = {"^", ORD_OP + 21}, [TK_DOLLAR] = {"$", ORD_OP + 22},
    [TK_HINT_BEG] = {"/*+", ORD_HINT + 0}, [TK_COMMENT_END] = {"*/", ORD_HINT + 1},
    [TK_BEL] = {"\\u0007", ORD_HINT + 2},
    [TK_LBRACE_D] = {"<LBRACE_D>", ORD_LIT + 20}, [TK_LBRACE_T] = {"<LBRACE_T>", ORD_LIT + 21},
    [TK_LBRACE_TS] = {"<LBRACE_TS>", ORD_LIT + 22}, [TK_LBRACE_FN] = {"<LBRACE_FN>", ORD_LIT + 23},
};

/* ---- tokens ---- */

WSqlToken *ps_cur(WSqlParser *p) { return &p->t[p->pos]; }

WSqlToken *ps_peek(WSqlParser *p, int k)
{
    int i = p->pos + k;
    if (i >= p->n) i = p->n - 1;
    return &p->t[i];
}

void ps_next(WSqlParser *p)
{
    if (p->pos < p->n - 1) p->pos++;
}

AstPos ps_tok_pos(const WSqlToken *t) { return (AstPos){t->line, t->col}; }
AstPos ps_pos(WSqlParser *p) { return ps_tok_pos(ps_cur(p)); }

/* ---- expectations ---- */

void ps_note(WSqlParser *p, const char *image, bool quoted, int order)
{
    if (p->exp_pos != p->pos) {
        p->exp_pos = p->pos;
        p->nexp = 0;
        p->exp_ident = false;
    }
    for (int i = 0; i < p->nexp; i++)
        if (p->exp[i] == image || (p->exp_q[i] == quoted && p->exp[i][0] == image[0] && strcmp(p->exp[i], image) == 0))
            return;
    if (p->nexp >= WSQL_MAX_EXPECTED) return;
    const WSqlKeyword *kw = quoted ? wsql_keyword_lookup(image, (int)strlen(image)) : NULL;
    p->exp[p->nexp] = image;
    p->exp_q[p->nexp] = quoted;
    p->exp_ord[p->nexp] = order;
    p->exp_nonres[p->nexp] = kw && !kw->reserved;
    p->nexp++;
}

static void note_kw(WSqlParser *p, const char *kw)
{
    const WSqlKeyword *k = wsql_keyword_lookup(kw, (int)strlen(kw));
    ps_note(p, k ? k->word : kw, true, k ? k->ordinal : 999);
}

static void note_tok(WSqlParser *p, WSqlTokKind kind)
{
    const TokImg *ti = &TOK_IMAGES[kind];
    bool quoted = kind >= TK_LPAREN;
    ps_note(p, ti->img, quoted, ti->ord);
}

static void note_ident(WSqlParser *p)
{
    ps_note(p, "<BRACKET_QUOTED_IDENTIFIER>", false, ORD_IDENT + 0);
    ps_note(p, "<QUOTED_IDENTIFIER>", false, ORD_IDENT + 1);
    ps_note(p, "<BACK_QUOTED_IDENTIFIER>", false, ORD_IDENT + 2);
    ps_note(p, "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>", false, ORD_IDENT + 3);
    ps_note(p, "<HYPHENATED_IDENTIFIER>", false, ORD_IDENT + 4);
    ps_note(p, "<IDENTIFIER>", false, ORD_IDENT + 5);
    ps_note(p, "<UNICODE_QUOTED_IDENTIFIER>", false, ORD_IDENT + 8);
    p->exp_ident = true;
}

static void note_string(WSqlParser *p)
{
    ps_note(p, "<BINARY_STRING_LITERAL>", false, ORD_LIT + 3);
    ps_note(p, "<QUOTED_STRING>", false, ORD_LIT + 4);
    ps_note(p, "<PREFIXED_STRING_LITERAL>", false, ORD_LIT + 5);
    ps_note(p, "<UNICODE_STRING_LITERAL>", false, ORD_LIT + 6);
    ps_note(p, "<C_STYLE_ESCAPED_STRING_LITERAL>", false, ORD_LIT + 6);
    ps_note(p, "<BIG_QUERY_DOUBLE_QUOTED_STRING>", false, ORD_LIT + 7);
    ps_note(p, "<BIG_QUERY_QUOTED_STRING>", false, ORD_LIT + 8);
}

void ps_note_expr_start(WSqlParser *p)
{
    static const char *const kws[] = {
        "ARRAY", "CASE", "CAST", "CEIL", "CEILING", "CURRENT_DATE", "CURRENT_TIME",
        "CURRENT_TIMESTAMP", "DATE", "EXISTS", "EXTRACT", "FALSE", "FLOOR", "INTERVAL",
        "LOCALTIME", "LOCALTIMESTAMP", "MAP", "NOT", "NULL", "OVERLAY", "POSITION", "ROW",
        "SUBSTRING", "TIME", "TIMESTAMP", "TRIM", "TRUE", "UNKNOWN",
    };
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) note_kw(p, kws[i]);
    ps_note(p, "<UNSIGNED_INTEGER_LITERAL>", false, ORD_LIT + 0);
    ps_note(p, "<APPROX_NUMERIC_LITERAL>", false, ORD_LIT + 1);
    ps_note(p, "<DECIMAL_NUMERIC_LITERAL>", false, ORD_LIT + 2);
    note_string(p);
    note_tok(p, TK_LPAREN);
    note_tok(p, TK_HOOK);
    note_tok(p, TK_PLUS);
    note_tok(p, TK_MINUS);
    note_ident(p);
}

/* ---- keyword / token tests ---- */

static bool tok_is_kw(const WSqlToken *t, const char *kw)
{
    return t->kind == TK_IDENT && t->kw && strcasecmp(t->kw->word, kw) == 0;
}

bool ps_kw_at(WSqlParser *p, int k, const char *kw) { return tok_is_kw(ps_peek(p, k), kw); }

bool ps_is_kw(WSqlParser *p, const char *kw)
{
    if (tok_is_kw(ps_cur(p), kw)) return true;
    note_kw(p, kw);
    return false;
}

bool ps_accept_kw(WSqlParser *p, const char *kw)
{
    if (!ps_is_kw(p, kw)) return false;
    ps_next(p);
    return true;
}

void ps_expect_kw(WSqlParser *p, const char *kw)
{
    if (!ps_accept_kw(p, kw)) ps_fail(p);
}

bool ps_word_at(WSqlParser *p, int k, const char *word)
{
    const WSqlToken *t = ps_peek(p, k);
    return t->kind == TK_IDENT && strcasecmp(t->val, word) == 0;
}

bool ps_at(WSqlParser *p, int k, WSqlTokKind kind) { return ps_peek(p, k)->kind == kind; }

bool ps_is(WSqlParser *p, WSqlTokKind k)
{
    if (ps_cur(p)->kind == k) return true;
    note_tok(p, k);
    return false;
}

bool ps_accept(WSqlParser *p, WSqlTokKind k)
{
    if (!ps_is(p, k)) return false;
    ps_next(p);
    return true;
}

void ps_expect(WSqlParser *p, WSqlTokKind k)
{
    if (!ps_accept(p, k)) ps_fail(p);
}

/* ---- identifiers ---- */

bool ps_ident_at(WSqlParser *p, int k)
{
    const WSqlToken *t = ps_peek(p, k);
    return t->kind == TK_QIDENT || (t->kind == TK_IDENT && (!t->kw || !t->kw->reserved));
}

bool ps_is_ident(WSqlParser *p)
{
    if (ps_ident_at(p, 0)) return true;
    note_ident(p);
    return false;
}

char *ps_ident(WSqlParser *p)
{
    if (!ps_is_ident(p)) ps_fail(p);
    char *v = ps_cur(p)->val;
    ps_next(p);
    return v;
}

AstName ps_compound(WSqlParser *p)
{
    AstName n;
    memset(&n, 0, sizeof n);
    n.pos = ps_pos(p);
    PsList l = {0};
    ps_list_add(p, &l, ps_ident(p));
    while (ps_at(p, 0, TK_DOT) && ps_ident_at(p, 1)) {
        ps_next(p);
        ps_list_add(p, &l, ps_ident(p));
    }
    /* Calcite's LOOKAHEAD(2) for `. name` failed here: an error at the "." lists `"." <IDENTIFIER>` */
    if (ps_at(p, 0, TK_DOT)) p->dot_pos = p->pos;
    else p->name_end_pos = p->pos;
    n.n = l.n;
    n.parts = (char **)l.v;
    return n;
}

char *ps_name_join(WSqlParser *p, const AstName *n)
{
    size_t len = 1;
    for (int i = 0; i < n->n; i++) len += strlen(n->parts[i]) + 1;
    char *s = wa_alloc(p->a, len);
    s[0] = 0;
    size_t o = 0;
    for (int i = 0; i < n->n; i++) {
        if (i) s[o++] = '.';
        size_t l = strlen(n->parts[i]);
        memcpy(s + o, n->parts[i], l);
        o += l;
        s[o] = 0;
    }
    return s;
}

/* ---- literals ---- */

bool ps_is_string(WSqlParser *p)
{
    WSqlTokKind k = ps_cur(p)->kind;
    if (k == TK_STRING || k == TK_USTRING) return true;
    note_string(p);
    return false;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(char *out, int *o, unsigned cp)
{
    if (cp < 0x80) out[(*o)++] = (char)cp;
    else if (cp < 0x800) {
        out[(*o)++] = (char)(0xC0 | (cp >> 6));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xE0 | (cp >> 12));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*o)++] = (char)(0xF0 | (cp >> 18));
        out[(*o)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* U&'...' [UESCAPE 'c']: \XXXX and \+XXXXXX escapes (the escape character doubled is itself) */
static char *unicode_unescape(WSqlParser *p, const WSqlToken *t, const char *body, char esc)
{
    size_t len = strlen(body);
    char *out = wa_alloc(p->a, len * 4 + 1);
    int o = 0;
    for (size_t i = 0; i < len;) {
        char c = body[i];
        if (c != esc) { out[o++] = c; i++; continue; }
        if (i + 1 < len && body[i + 1] == esc) { out[o++] = esc; i += 2; continue; }
        int digits = 4;
        size_t j = i + 1;
        if (j < len && body[j] == '+') { digits = 6; j++; }
        unsigned cp = 0;
        for (int d = 0; d < digits; d++) {
            int h = j + (size_t)d < len ? hexval((unsigned char)body[j + (size_t)d]) : -1;
            if (h < 0)
                ps_fail_at(p, t, "Unicode escape sequence starting at character %d is not exactly four hex digits",
                           (int)i);
            cp = cp * 16 + (unsigned)h;
        }
        if (cp > 0x10FFFF) cp = 0xFFFD;
        put_utf8(out, &o, cp);
        i = j + (size_t)digits;
    }
    out[o] = 0;
    return out;
}

static char *string_lit(WSqlParser *p, bool cont);

/* Flink's own statements (parserImpls.ftl) take a bare <QUOTED_STRING> token (COMMENT, LIKE, AS of
   CREATE FUNCTION, JAR, JOB ids): one fragment, the only string kind listed when it is missing */
char *ps_quoted(WSqlParser *p)
{
    if (ps_cur(p)->kind != TK_STRING) {
        ps_note(p, "<QUOTED_STRING>", false, ORD_LIT + 4);
        ps_fail(p);
    }
    char *v = ps_cur(p)->val;
    ps_next(p);
    return v;
}

char *ps_string(WSqlParser *p) { return string_lit(p, true); }
char *ps_string_plain(WSqlParser *p) { return string_lit(p, false); }

static char *string_lit(WSqlParser *p, bool cont)
{
    if (!ps_is_string(p)) ps_fail(p);
    size_t total = 0;
    int start = p->pos;
    /* the first fragment decides the kind; following plain fragments continue it */
    while (ps_cur(p)->kind == TK_STRING || (p->pos == start && ps_cur(p)->kind == TK_USTRING)) {
        total += strlen(ps_cur(p)->val);
        ps_next(p);
        if (ps_cur(p)->kind == TK_USTRING) break;
    }
    int end = p->pos;
    if (cont && p->t[start].kind == TK_STRING) {
        /* Calcite's string literal may go on with another fragment or UESCAPE */
        (void)ps_is_kw(p, "UESCAPE");
        (void)ps_is(p, TK_STRING);
    }
    char *s = wa_alloc(p->a, total + 1);
    size_t o = 0;
    for (int i = start; i < end; i++) {
        size_t l = strlen(p->t[i].val);
        memcpy(s + o, p->t[i].val, l);
        o += l;
    }
    s[o] = 0;
    if (p->t[start].kind == TK_USTRING) {
        char esc = '\\';
        const WSqlToken *t0 = &p->t[start];
        if (ps_accept_kw(p, "UESCAPE")) {
            const WSqlToken *et = ps_cur(p);
            if (et->kind != TK_STRING || strlen(et->val) != 1) ps_fail(p);
            esc = et->val[0];
            ps_next(p);
        }
        s = unicode_unescape(p, t0, s, esc);
    }
    return s;
}

int ps_uint(WSqlParser *p)
{
    if (!ps_is(p, TK_INTEGER)) ps_fail(p);
    const char *v = ps_cur(p)->val;
    long long x = 0;
    for (const char *c = v; *c; c++) {
        x = x * 10 + (*c - '0');
        if (x > 2147483647LL) {
            ps_fail_at(p, ps_cur(p), "Numeric literal '%s' out of range", v);
        }
    }
    ps_next(p);
    return (int)x;
}

/* ---- errors ---- */

const char *ps_tok_image(WSqlTokKind kind) { return TOK_IMAGES[kind].img ? TOK_IMAGES[kind].img : ""; }

void ps_note_image(WSqlParser *p, const char *printed)
{
    int kind = wsql_calcite_kind(printed);
    if (printed[0] == '"') {
        size_t n = strlen(printed) - 2;
        char *in = wa_alloc(p->a, n + 1);
        memcpy(in, printed + 1, n);
        in[n] = 0;
        ps_note(p, in, true, kind);
    } else {
        ps_note(p, printed, false, kind);
    }
}

static bool seq_eq(const PsSeq *a, const PsSeq *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->tok[i], b->tok[i]) != 0) return false;
    return true;
}

void ps_seq_add(WSqlParser *p, PsSeqList *l, const PsSeq *q)
{
    assert(q->n >= 1 && q->n <= WSQL_MAX_SEQ);
    for (int i = 0; i < l->n; i++)
        if (seq_eq(&l->v[i], q)) return;
    if (l->n == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 64;
        PsSeq *nv = wa_alloc(p->a, sizeof(PsSeq) * (size_t)ncap);
        if (l->n) memcpy(nv, l->v, sizeof(PsSeq) * (size_t)l->n);
        l->v = nv;
        l->cap = ncap;
    }
    l->v[l->n++] = *q;
}

static int exp_cmp(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* a keyword Calcite's metadata calls non-reserved (its cleanup drops those beside an identifier) */
static bool nonreserved_image(const char *printed)
{
    if (printed[0] != '"' || !isalpha((unsigned char)printed[1])) return false;
    const WSqlKeyword *kw = wsql_keyword_lookup(printed + 1, (int)strlen(printed) - 2);
    return kw && !kw->reserved;
}

/* Calcite's cleanupParseException: where an identifier may come, the non-reserved keywords that
   could come at the same place are not listed */
static void cleanup(PsSeqList *l)
{
    int k = 0;
    for (int i = 0; i < l->n; i++) {
        const PsSeq *q = &l->v[i];
        bool drop = false;
        if (nonreserved_image(q->tok[q->n - 1])) {
            for (int j = 0; j < l->n && !drop; j++) {
                const PsSeq *r = &l->v[j];
                if (r->n != q->n || strcmp(r->tok[r->n - 1], "<IDENTIFIER>") != 0) continue;
                bool same = true;
                for (int m = 0; m < q->n - 1; m++)
                    if (strcmp(r->tok[m], q->tok[m]) != 0) same = false;
                drop = same;
            }
        }
        if (!drop) l->v[k++] = *q;
    }
    l->n = k;
}

_Noreturn void ps_fail(WSqlParser *p)
{
    const WSqlToken *t = ps_cur(p);

    /* the single tokens of the choice points that failed here, in token-kind order, then the
       sequences of the lookahead scans (JavaCC's generateParseException) */
    PsSeqList all = {0};
    if (p->exp_pos == p->pos && p->nexp > 0) {
        int idx[WSQL_MAX_EXPECTED][2];
        const char *img[WSQL_MAX_EXPECTED];
        for (int i = 0; i < p->nexp; i++) {
            img[i] = p->exp_q[i] ? wa_sprintf(p->a, "\"%s\"", p->exp[i]) : p->exp[i];
            int kind = wsql_calcite_kind(img[i]);
            idx[i][0] = kind >= 0 ? kind : 100000 + p->exp_ord[i];
            idx[i][1] = i;
        }
        wqsort(idx, (size_t)p->nexp, sizeof idx[0], exp_cmp);
        for (int k = 0; k < p->nexp; k++) {
            PsSeq q;
            memset(&q, 0, sizeof q);
            q.n = 1;
            q.tok[0] = img[idx[k][1]];
            ps_seq_add(p, &all, &q);
        }
    }
    ps_rescan(p, &all);
    cleanup(&all);
    p->failed = all;

    /* the list, each sequence ending with "..." unless it ends the input */
    char *exp = wa_alloc(p->a, WSQL_EXPECTED_TEXT);
    size_t o = 0;
    exp[0] = 0;
    int maxlen = 1;
    bool ident = false;
    for (int i = 0; i < all.n; i++) {
        const PsSeq *q = &all.v[i];
        if (q->n > maxlen) maxlen = q->n;
        if (o == 0)
            o += (size_t)snprintf(exp, WSQL_EXPECTED_TEXT, all.n == 1 ? "\nWas expecting:\n    "
                                                                     : "\nWas expecting one of:\n    ");
        for (int j = 0; j < q->n && o < WSQL_EXPECTED_TEXT - 64; j++) {
            if (strcmp(q->tok[j], "<IDENTIFIER>") == 0) ident = true;
            o += (size_t)snprintf(exp + o, WSQL_EXPECTED_TEXT - o, "%s ", q->tok[j]);
        }
        if (o < WSQL_EXPECTED_TEXT - 64)
            o += (size_t)snprintf(exp + o, WSQL_EXPECTED_TEXT - o, "%s\n    ",
                                  strcmp(q->tok[q->n - 1], "<EOF>") == 0 ? "" : "...");
    }
    /* the list ends with its last entry (no indentation of a next one) */
    if (o >= 5 && strcmp(exp + o - 5, "\n    ") == 0) exp[o - 5] = 0;

    /* as many tokens as the longest expected sequence */
    char enc[1024];
    size_t eo = 0;
    enc[0] = 0;
    for (int i = 0; i < maxlen; i++) {
        const WSqlToken *u = ps_peek(p, i);
        if (i) eo += (size_t)snprintf(enc + eo, sizeof enc - eo, " ");
        if (u->kind == TK_EOF) {
            eo += (size_t)snprintf(enc + eo, sizeof enc - eo, "<EOF>");
            break;
        }
        if (eo < sizeof enc - 1) wsql_add_escapes(enc + eo, sizeof enc - eo, u->start, u->len);
        eo = strlen(enc);
    }
    /* Calcite names a reserved word written in capitals "the keyword" when an identifier could
       have come; in other case it is a token */
    bool capitals = true;
    for (int i = 0; i < t->len; i++) if (islower((unsigned char)t->start[i])) capitals = false;
    if (t->kind == TK_IDENT && t->kw && t->kw->reserved && capitals && ident) {
        char kwtext[256];
        wsql_add_escapes(kwtext, sizeof kwtext, t->start, t->len);
        werr_set_at(p->err, t->line, t->col, WEXC_PARSE,
                    "Incorrect syntax near the keyword '%s' at line %d, column %d.%s", kwtext, t->line, t->col, exp);
    } else {
        werr_set_at(p->err, t->line, t->col, WEXC_PARSE,
                    "Encountered \"%s\" at line %d, column %d.%s", enc, t->line, t->col, exp);
    }
    longjmp(p->jb, 1);
}

_Noreturn void ps_fail_at(WSqlParser *p, const WSqlToken *t, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    werr_set_at(p->err, t->line, t->col, WEXC_PARSE, "%s", msg);
    longjmp(p->jb, 1);
}

_Noreturn void ps_fail_calcite(WSqlParser *p, const WSqlToken *t, const char *msg)
{
    werr_set_at(p->err, t->line, t->col, WEXC_CALCITE_RT, "%s", msg);
    longjmp(p->jb, 1);
}

void ps_enter(WSqlParser *p)
{
    if (++p->depth > WSQL_MAX_DEPTH) {
        const WSqlToken *t = ps_cur(p);
        ps_fail_at(p, t, "The statement is nested too deeply at line %d, column %d (more than %d levels).",
                   t->line, t->col, WSQL_MAX_DEPTH);
    }
}

void ps_leave(WSqlParser *p) { p->depth--; }

void ps_list_add(WSqlParser *p, PsList *l, void *x)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 4;
        void **nv = wa_alloc(p->a, sizeof(void *) * (size_t)ncap);
        if (l->n) memcpy(nv, l->v, sizeof(void *) * (size_t)l->n);
        l->v = nv;
        l->cap = ncap;
    }
    l->v[l->n++] = x;
}
