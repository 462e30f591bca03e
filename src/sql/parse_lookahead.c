/*
 * parse_lookahead.c — the expected-token sequences Calcite's generated parser reports from its
 * syntactic lookaheads at the position of a syntax error.
 *
 * Contract: JavaCC lists, after the single tokens of the choice points that failed at the error
 * token (parse_util.c), the token sequences its LOOKAHEAD scans tried there: it re-runs each scan and
 * records every token it compared, at its position (1 = the error token); a sequence is written
 * out whenever a scan steps back to an earlier position, and repeats are dropped
 * (jj_rescan_token / jj_add_error_token). These grammar positions decide by such scans in Flink's
 * parser, and weir's parser marks them:
 *   - after an operand (ps_mark_continuation): the operator loop of Calcite's Expression2 (a field
 *     access, IN / comparison with a quantifier, BETWEEN, LIKE / SIMILAR TO, a binary operator
 *     followed by an operand, a subscript, a postfix IS ..., FORMAT JSON), then what may follow
 *     the operand itself (an identifier's "(", a call's IGNORE / RESPECT NULLS, a parenthesized
 *     expression's time unit);
 *   - where an expression starts in a clause that parses it with lookahead (WHERE, HAVING, ON,
 *     ORDER BY, ...; ps_note_operand_start): the tokens that may start an operand, one by one;
 *   - after a compound name that stopped at a "." with no name behind it (ps_compound): `"."`
 *     followed by each kind of identifier; after a name outside an expression that ended at
 *     another token: `"."` alone (the scan failed at its first token);
 *   - the FROM list's join loop (join_pos: `, table`, `[NATURAL] join-type table`) and a hint's
 *     options (hint_pos: key = value, names, literals), rescanned from the token where their
 *     choice started (ps_from_comma_ahead / ps_join_ahead / ps_hint_*_ahead decide with the same
 *     scans).
 * A binary operator not followed by an operand makes the scan fail at the operator, so Calcite
 * reports the operator itself with the two-token sequences (`"+" "NOT"`, ...). The scans and their
 * order are Flink 2.3.0's (measured with its parser for the typos in tests/golden/session_err_parse_*).
 * Depends on parse_int.h.
 */
#include "parse_int.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

/* ---- matching a token against a printed token image ---- */

static bool tok_is(const WSqlToken *t, const char *img)
{
    size_t n = strlen(img);
    if (img[0] == '"') {
        const char *in = img + 1;
        size_t len = n - 2;
        if (isalpha((unsigned char)in[0]) || in[0] == '_')
            return t->kind == TK_IDENT && (size_t)t->len == len && strncasecmp(t->start, in, len) == 0;
        return t->kind >= TK_LPAREN && strlen(ps_tok_image(t->kind)) == len
               && strncmp(ps_tok_image(t->kind), in, len) == 0;
    }
    if (strcmp(img, "<EOF>") == 0) return t->kind == TK_EOF;
    if (strcmp(img, "<IDENTIFIER>") == 0) return t->kind == TK_IDENT && (!t->kw || !t->kw->reserved);
    if (strcmp(img, "<BACK_QUOTED_IDENTIFIER>") == 0) return t->kind == TK_QIDENT;
    if (strcmp(img, "<UNSIGNED_INTEGER_LITERAL>") == 0) return t->kind == TK_INTEGER;
    if (strcmp(img, "<DECIMAL_NUMERIC_LITERAL>") == 0) return t->kind == TK_DECIMAL;
    if (strcmp(img, "<APPROX_NUMERIC_LITERAL>") == 0) return t->kind == TK_APPROX;
    if (strcmp(img, "<QUOTED_STRING>") == 0) return t->kind == TK_STRING;
    if (strcmp(img, "<UNICODE_STRING_LITERAL>") == 0) return t->kind == TK_USTRING;
    if (strcmp(img, "<BINARY_STRING_LITERAL>") == 0) return t->kind == TK_BINSTRING;
    if (strcmp(img, "<LBRACE_D>") == 0) return t->kind == TK_LBRACE_D;
    if (strcmp(img, "<LBRACE_T>") == 0) return t->kind == TK_LBRACE_T;
    if (strcmp(img, "<LBRACE_TS>") == 0) return t->kind == TK_LBRACE_TS;
    if (strcmp(img, "<LBRACE_FN>") == 0) return t->kind == TK_LBRACE_FN;
    return false;
}

bool ps_operand_start_at(WSqlParser *p, int k)
{
    const WSqlToken *t = ps_peek(p, k);
    for (int i = 0; i < WSQL_N_OPERAND_STARTS; i++)
        if (tok_is(t, WSQL_OPERAND_STARTS[i])) return true;
    return false;
}

/* ---- the rescan (JavaCC's jj_scan_token / jj_add_error_token) ---- */

typedef struct Scan {
    WSqlParser *p;
    PsSeqList *out;
    int base;             /* token index of position 1 */
    int pos;              /* tokens matched by the current scan */
    int la;               /* its lookahead limit */
    bool hit;             /* the limit was reached: the scan succeeded */
    const char *last[WSQL_MAX_SEQ];
    int endpos;
    const char *arg;      /* the token a parameterized scan looks for */
} Scan;

static void emit(Scan *s)
{
    if (!s->out) return;   /* a scan run to decide, not to report */
    PsSeq q;
    memset(&q, 0, sizeof q);
    q.n = s->endpos;
    for (int i = 0; i < q.n; i++) q.tok[i] = s->last[i];
    ps_seq_add(s->p, s->out, &q);
}

static void add_error_token(Scan *s, const char *img, int pos)
{
    if (pos > WSQL_MAX_SEQ) return;
    if (pos >= 1 && pos == s->endpos + 1) {
        s->last[s->endpos++] = img;
    } else if (s->endpos != 0) {
        emit(s);
        if (pos > 0 && pos <= WSQL_MAX_SEQ) {
            s->endpos = pos;
            s->last[pos - 1] = img;
        }
    }
}

/* compare the next token with img: true when it matches (or the scan already succeeded) */
static bool T(Scan *s, const char *img)
{
    if (s->hit) return true;
    int pos = s->pos + 1;
    /* positions count from the error token (1); a scan that started before it (base < p->pos)
       compared its first tokens at positions <= 0, which JavaCC does not list */
    add_error_token(s, img, pos - (s->p->pos - s->base));
    if (!tok_is(ps_peek(s->p, s->base + pos - 1 - s->p->pos), img)) return false;
    s->pos++;
    if (s->pos == s->la) s->hit = true;
    return true;
}

/* the first alternative (a list of images, each one token) that matches */
static bool any(Scan *s, const char *const *imgs, int n)
{
    for (int i = 0; i < n; i++)
        if (T(s, imgs[i])) return true;
    return false;
}
#define ANY(s, ...) any(s, (const char *const[]){__VA_ARGS__}, \
                        (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)))

static bool operand(Scan *s) { return any(s, WSQL_OPERAND_STARTS, WSQL_N_OPERAND_STARTS); }

static const char *const IDENTS[] = {
    "<IDENTIFIER>", "<HYPHENATED_IDENTIFIER>", "<QUOTED_IDENTIFIER>", "<BACK_QUOTED_IDENTIFIER>",
    "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>", "<BRACKET_QUOTED_IDENTIFIER>", "<UNICODE_QUOTED_IDENTIFIER>",
};

static bool comp(Scan *s) { return ANY(s, "\"<\"", "\"<=\"", "\">\"", "\">=\"", "\"=\"", "\"<>\"", "\"!=\""); }

/* IN / NOT IN / comparison with SOME, ANY or ALL, then "(" */
static bool g_in(Scan *s)
{
    int save = s->pos;
    bool ok = (T(s, "\"NOT\"") && T(s, "\"IN\""));
    if (!ok) { s->pos = save; ok = T(s, "\"IN\""); }
    if (!ok) { s->pos = save; ok = comp(s) && ANY(s, "\"SOME\"", "\"ANY\"", "\"ALL\""); }
    return ok && T(s, "\"(\"");
}

static bool g_between(Scan *s)
{
    int save = s->pos;
    bool ok = T(s, "\"NOT\"") && T(s, "\"BETWEEN\"");
    if (!ok) { s->pos = save; ok = T(s, "\"BETWEEN\""); }
    if (!ok) return false;
    save = s->pos;
    if (!ANY(s, "\"SYMMETRIC\"", "\"ASYMMETRIC\"")) s->pos = save;
    return operand(s);
}

static bool g_like(Scan *s)
{
    int save = s->pos;
    bool ok = T(s, "\"NOT\"") && ANY(s, "\"LIKE\"", "\"ILIKE\"", "\"RLIKE\"");
    if (!ok) { s->pos = save; ok = T(s, "\"NOT\"") && T(s, "\"SIMILAR\"") && T(s, "\"TO\""); }
    if (!ok) { s->pos = save; ok = ANY(s, "\"LIKE\"", "\"ILIKE\"", "\"RLIKE\""); }
    if (!ok) { s->pos = save; ok = T(s, "\"SIMILAR\"") && T(s, "\"TO\""); }
    return ok && operand(s);
}

static bool binary_op(Scan *s)
{
    int save = s->pos;
    if (ANY(s, "\"=\"", "\">\"", "\"<\"", "\"<=\"", "\">=\"", "\"<>\"", "\"!=\"", "\"+\"", "\"-\"", "\"*\"",
            "\"/\"", "\"%\"", "\"||\"", "\"AND\"", "\"OR\"")) return true;
    if (T(s, "\"IS\"") && T(s, "\"DISTINCT\"") && T(s, "\"FROM\"")) return true;
    s->pos = save;
    if (T(s, "\"IS\"") && T(s, "\"NOT\"") && T(s, "\"DISTINCT\"") && T(s, "\"FROM\"")) return true;
    s->pos = save;
    if (T(s, "\"MEMBER\"") && T(s, "\"OF\"")) return true;
    s->pos = save;
    if (T(s, "\"SUBMULTISET\"") && T(s, "\"OF\"")) return true;
    s->pos = save;
    if (T(s, "\"NOT\"") && T(s, "\"SUBMULTISET\"") && T(s, "\"OF\"")) return true;
    s->pos = save;
    if (ANY(s, "\"CONTAINS\"", "\"OVERLAPS\"", "\"EQUALS\"", "\"PRECEDES\"", "\"SUCCEEDS\"")) return true;
    if (T(s, "\"IMMEDIATELY\"") && T(s, "\"PRECEDES\"")) return true;
    s->pos = save;
    if (T(s, "\"IMMEDIATELY\"") && T(s, "\"SUCCEEDS\"")) return true;
    s->pos = save;
    if (T(s, "\"MULTISET\"") && ANY(s, "\"UNION\"", "\"INTERSECT\"", "\"EXCEPT\"")) return true;
    s->pos = save;
    return false;
}

/* the operand start at the scan's next position, when it is no operand alone (operand_scans.c) */
static const WOperandScan *scan_row(WSqlParser *p, int k)
{
    const WSqlToken *t = ps_peek(p, k);
    for (int i = 0; i < WSQL_N_OPERAND_SCANS; i++)
        if (tok_is(t, WSQL_OPERAND_SCANS[i].start)) return &WSQL_OPERAND_SCANS[i];
    return NULL;
}

bool ps_binary_operand_at(WSqlParser *p, int k)
{
    const WOperandScan *o = scan_row(p, k);
    if (!o) return true;
    const WSqlToken *t = ps_peek(p, k + 1);
    for (int i = 0; i < o->nsteps; i++) {
        const char *next = o->steps[i].next;
        if (!next) continue;
        if (strcmp(next, WSQL_ANY_OPERAND) == 0 ? ps_operand_start_at(p, k + 1) : tok_is(t, next)) return true;
    }
    return false;
}

/* one step of the three-token scan (T for each token it compares), true when the scan succeeded */
static bool operand_step(Scan *s, int save, const char *tok, const char *next)
{
    s->pos = save;
    return T(s, tok) && (!next || T(s, next));
}

/* the operand of the three-token scan: the measured steps when the operand start is no operand alone */
static bool operand3(Scan *s)
{
    int save = s->pos;
    const WOperandScan *o = scan_row(s->p, s->base + save - s->p->pos);
    if (!o) return operand(s);
    for (int i = 0; i < o->nsteps; i++) {
        const WOperandStep *st = &o->steps[i];
        if (!st->tok) {
            for (int j = st->from; j < st->to; j++)
                if (operand_step(s, save, WSQL_OPERAND_STARTS[j], NULL)) return true;
        } else if (st->next && strcmp(st->next, WSQL_ANY_OPERAND) == 0) {
            for (int j = 0; j < WSQL_N_OPERAND_STARTS; j++)
                if (operand_step(s, save, st->tok, WSQL_OPERAND_STARTS[j])) return true;
        } else if (operand_step(s, save, st->tok, st->next)) {
            return true;
        }
    }
    s->pos = save;
    return false;
}

static bool g_binary(Scan *s) { return binary_op(s) && operand3(s); }
/* the operator's two-token scan, tried after: it matches an operand start the three-token one did not accept */
static bool g_binary2(Scan *s) { return binary_op(s) && operand(s); }

static bool g_postfix(Scan *s)
{
    if (!T(s, "\"IS\"")) return false;
    int save = s->pos;
    if (!T(s, "\"NOT\"")) s->pos = save;
    return ANY(s, "\"A\"", "\"NULL\"", "\"TRUE\"", "\"FALSE\"", "\"UNKNOWN\"", "\"EMPTY\"", "\"JSON\"");
}

static bool g_comma(Scan *s)
{
    if (!T(s, "\",\"")) return false;
    if (s->p->comma_group && ANY(s, "\"GROUPING\"", "\"ROLLUP\"", "\"CUBE\"", "\"(\"")) return true;
    return operand(s);
}
static bool g_escape(Scan *s) { return T(s, "\"ESCAPE\"") && operand(s); }
static bool g_dot(Scan *s) { return T(s, "\".\"") && any(s, IDENTS, 7); }
static bool g_bracket(Scan *s) { return T(s, "\"[\""); }
static bool g_format(Scan *s) { return T(s, "\"FORMAT\"") && T(s, "\"JSON\""); }
static bool g_ident_tail(Scan *s) { return T(s, "\".\"") && (any(s, IDENTS, 7) || T(s, "\"*\"")); }
static bool g_call_tail(Scan *s) { return T(s, "\"(\""); }
static bool g_nulls(Scan *s) { return ANY(s, "\"IGNORE\"", "\"RESPECT\"") && T(s, "\"NULLS\""); }
static bool g_unit(Scan *s)
{
    return ANY(s, "\"YEAR\"", "\"YEARS\"", "\"QUARTER\"", "\"QUARTERS\"", "\"MONTH\"", "\"MONTHS\"", "\"WEEK\"",
               "\"WEEKS\"", "\"DAY\"", "\"DAYS\"", "\"HOUR\"", "\"HOURS\"", "\"MINUTE\"", "\"MINUTES\"",
               "\"SECOND\"", "\"SECONDS\"");
}

static bool run(Scan *s, int la, bool (*g)(Scan *))
{
    s->pos = 0;
    s->la = la;
    s->hit = false;
    return g(s) || s->hit;
}

/* the FROM list's join loop (Calcite's FromClause; measured with Flink's parser): entered at a ","
   or a join keyword, its choice tries `"," TableRef2` (LOOKAHEAD(2)), then `[NATURAL] JoinType
   TableRef1` (LOOKAHEAD(3); JoinType: JOIN, INNER JOIN, LEFT / RIGHT / FULL [OUTER] JOIN, CROSS
   JOIN), then CROSS APPLY / OUTER APPLY by their first token */
static const char *const TABLE_STARTS[] = {
    "<IDENTIFIER>", "<HYPHENATED_IDENTIFIER>", "<QUOTED_IDENTIFIER>", "<BACK_QUOTED_IDENTIFIER>",
    "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>", "<BRACKET_QUOTED_IDENTIFIER>", "<UNICODE_QUOTED_IDENTIFIER>",
    "\"LATERAL\"", "\"(\"", "\"UNNEST\"", "\"TABLE\"",
};
static bool table_start(Scan *s) { return any(s, TABLE_STARTS, (int)(sizeof TABLE_STARTS / sizeof TABLE_STARTS[0])); }
static bool g_from_comma(Scan *s) { return T(s, "\",\"") && table_start(s); }

static bool join_type(Scan *s)
{
    int save = s->pos;
    if (T(s, "\"JOIN\"")) return true;
    s->pos = save;
    if (T(s, "\"INNER\"") && T(s, "\"JOIN\"")) return true;
    static const char *const SIDES[] = {"\"LEFT\"", "\"RIGHT\"", "\"FULL\""};
    for (int i = 0; i < 3; i++) {
        s->pos = save;
        if (T(s, SIDES[i])) {
            (void)T(s, "\"OUTER\"");   /* optional: a failed compare does not move the scan */
            if (T(s, "\"JOIN\"")) return true;
        }
    }
    s->pos = save;
    return T(s, "\"CROSS\"") && T(s, "\"JOIN\"");
}

static bool g_join(Scan *s)
{
    (void)T(s, "\"NATURAL\"");
    return join_type(s) && table_start(s);
}

/* a hint's options (Calcite's SqlHint, measured): `( key = value (, | ))` with a key that is a
   name or a string (LOOKAHEAD(5)), `( name (, | ))` (LOOKAHEAD(3)), `( literal (, | ))`
   (LOOKAHEAD(3)); Calcite's string literal tries its kinds in this order */
static bool string_scan(Scan *s)
{
    if (T(s, "<BINARY_STRING_LITERAL>") || T(s, "<PREFIXED_STRING_LITERAL>")) return true;
    if (T(s, "<QUOTED_STRING>")) {
        while (!s->hit && T(s, "<QUOTED_STRING>")) {}   /* more fragments */
        if (!s->hit && T(s, "\"UESCAPE\"")) return T(s, "<QUOTED_STRING>");
        return true;
    }
    return ANY(s, "<UNICODE_STRING_LITERAL>", "<C_STYLE_ESCAPED_STRING_LITERAL>",
               "<BIG_QUERY_DOUBLE_QUOTED_STRING>", "<BIG_QUERY_QUOTED_STRING>");
}
/* Calcite's SimpleIdentifier in a scan: the identifier kinds, then the non-reserved keyword the
   token is (listed as itself: `"K" "="`, measured) */
static bool ident_scan(Scan *s)
{
    if (s->hit) return true;
    const WSqlToken *t = ps_peek(s->p, s->base + s->pos - s->p->pos);
    if (t->kind != TK_IDENT || !t->kw) return any(s, IDENTS, 7);
    for (int i = 0; i < 7; i++) add_error_token(s, IDENTS[i], s->pos + 1 - (s->p->pos - s->base));
    if (t->kw->reserved) return false;
    return T(s, wa_sprintf(s->p->a, "\"%s\"", t->kw->word));
}

static bool g_hint_kv(Scan *s)
{
    return T(s, "\"(\"") && (ident_scan(s) || string_scan(s)) && T(s, "\"=\"") && string_scan(s)
           && ANY(s, "\",\"", "\")\"");
}
static bool g_hint_names(Scan *s)
{
    return T(s, "\"(\"") && ident_scan(s) && ANY(s, "\",\"", "\")\"");
}
static bool g_hint_literals(Scan *s)
{
    if (!T(s, "\"(\"")) return false;
    bool num = false;
    if (T(s, "\"+\"") || T(s, "\"-\"")) num = true;
    if (ANY(s, "<UNSIGNED_INTEGER_LITERAL>", "<DECIMAL_NUMERIC_LITERAL>")) {
    } else if (T(s, "\"DECIMAL\"")) {
        if (!T(s, "<QUOTED_STRING>")) return false;
    } else if (T(s, "<APPROX_NUMERIC_LITERAL>")) {
    } else if (num || !string_scan(s)) {
        return false;
    }
    return ANY(s, "\",\"", "\")\"");
}

static bool decide(WSqlParser *p, int la, bool (*g)(Scan *))
{
    Scan s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.base = p->pos;
    return run(&s, la, g);
}

bool ps_from_comma_ahead(WSqlParser *p) { return decide(p, 2, g_from_comma); }
bool ps_join_ahead(WSqlParser *p) { return decide(p, 3, g_join); }
bool ps_hint_kv_ahead(WSqlParser *p) { return decide(p, 5, g_hint_kv); }
bool ps_hint_names_ahead(WSqlParser *p) { return decide(p, 3, g_hint_names); }
bool ps_hint_literals_ahead(WSqlParser *p) { return decide(p, 3, g_hint_literals); }

/* the statement choice of Flink's parser: the scans of its LOOKAHEAD alternatives, in grammar order */
static const char *const SHOW_FIRST[] = {"\"CATALOGS\"", "\"CURRENT\""};
static const char *const SHOW_MORE[] = {
    "\"DATABASES\"", "\"USER\"", "\"FUNCTIONS\"", "\"MODELS\"", "\"CONNECTIONS\"", "\"TABLES\"",
    "\"VIEWS\"", "\"MATERIALIZED\"", "\"COLUMNS\"", "\"CREATE\"", "\"FULL\"", "\"MODULES\"",
    "\"PARTITIONS\"", "\"PROCEDURES\"",
};
static const char *const SHOW_LAST[] = {"\"JARS\"", "\"JOBS\""};
static bool g_show(Scan *s) { return T(s, "\"SHOW\"") && T(s, s->arg); }
static bool g_begin(Scan *s) { return T(s, "\"BEGIN\""); }
static bool g_end(Scan *s) { return T(s, "\"END\""); }
static bool g_execute(Scan *s) { return T(s, "\"EXECUTE\""); }
static bool g_use(Scan *s) { return T(s, "\"USE\"") && (any(s, IDENTS, 7) || T(s, "\"MODULES\"")); }

static void show_scans(Scan *s, const char *const *targets, int n)
{
    for (int i = 0; i < n; i++) {
        s->arg = targets[i];
        run(s, 2, g_show);
    }
}

static void statement_scans(Scan *s)
{
    run(s, 1, g_begin);
    run(s, 1, g_end);
    show_scans(s, SHOW_FIRST, 2);
    run(s, 2, g_use);
    show_scans(s, SHOW_MORE, (int)(sizeof SHOW_MORE / sizeof SHOW_MORE[0]));
    run(s, 1, g_execute);
    show_scans(s, SHOW_LAST, 2);
    add_error_token(s, NULL, 0);
}

_Noreturn void ps_fail_statement_start(WSqlParser *p, int start)
{
    static const char *const STMT[] = {
        "\"ALTER\"", "\"CALL\"", "\"CREATE\"", "\"DELETE\"", "\"DESCRIBE\"", "\"DROP\"", "\"EXPLAIN\"",
        "\"INSERT\"", "\"MERGE\"", "\"RESET\"", "\"SELECT\"", "\"SET\"", "\"TABLE\"", "\"UPDATE\"",
        "\"UPSERT\"", "\"VALUE\"", "\"VALUES\"", "\"WITH\"",
    };
    p->pos = start;
    p->exp_pos = -1;
    for (size_t i = 0; i < sizeof STMT / sizeof STMT[0]; i++) ps_note_image(p, STMT[i]);
    for (int i = 0; i < WSQL_N_OPERAND_STARTS; i++) ps_note_image(p, WSQL_OPERAND_STARTS[i]);
    p->stmt_start_pos = start;
    ps_fail(p);
}

_Noreturn void ps_fail_operand3(WSqlParser *p)
{
    /* the loop's choice has no single tokens of its own: only the scans are listed */
    p->exp_pos = -1;
    p->nexp = 0;
    p->op3_pos = p->pos;
    ps_fail(p);
}

void ps_mark_continuation(WSqlParser *p, PsOperand last)
{
    p->cont_pos = p->pos;
    p->cont_opnd = last;
    if (last == PS_OPND_STRING) {
        /* a character literal may go on with another fragment or UESCAPE */
        (void)ps_is_kw(p, "UESCAPE");
        (void)ps_is(p, TK_STRING);
    }
}

void ps_lookahead_tokens(WSqlParser *p, const char *const *imgs, int n)
{
    p->look_pos = p->pos;
    p->look = imgs;
    p->nlook = n;
}

static void scan_add(WSqlParser *p, const char *const *imgs, int n, bool late);

void ps_scan_failed(WSqlParser *p, const char *const *imgs, int n) { scan_add(p, imgs, n, false); }
void ps_scan_failed_late(WSqlParser *p, const char *const *imgs, int n) { scan_add(p, imgs, n, true); }

static void scan_add(WSqlParser *p, const char *const *imgs, int n, bool late)
{
    assert(n >= 1 && n <= WSQL_MAX_SEQ);
    /* the parser only moves forward: a scan whose tokens all lie behind the current one can no
       longer cover an error */
    int k = 0;
    for (int i = 0; i < p->nscans; i++)
        if (p->scans[i].pos + p->scans[i].n > p->pos) p->scans[k++] = p->scans[i];
    p->nscans = k;
    assert(p->nscans < WSQL_MAX_SCANS);
    if (p->nscans == WSQL_MAX_SCANS) return;
    p->scans[p->nscans].pos = p->pos;
    p->scans[p->nscans].imgs = imgs;
    p->scans[p->nscans].n = n;
    p->scans[p->nscans].late = late;
    p->nscans++;
}

/* the scans of fixed sequences that compared the error token: the tokens they compared from it on,
   up to the one that failed */
static void fixed_scans(WSqlParser *p, PsSeqList *out, bool late)
{
    for (int i = 0; i < p->nscans; i++) {
        if (p->scans[i].late != late) continue;
        int at = p->pos - p->scans[i].pos;   /* the error token's index in the sequence */
        if (at < 0 || at >= p->scans[i].n) continue;
        bool reached = true;
        for (int k = 0; k < at && reached; k++)
            reached = tok_is(ps_peek(p, k - at), p->scans[i].imgs[k]);
        if (!reached) continue;
        PsSeq q;
        memset(&q, 0, sizeof q);
        for (int k = at; k < p->scans[i].n; k++) {
            q.tok[q.n++] = p->scans[i].imgs[k];
            if (!tok_is(ps_peek(p, k - at), p->scans[i].imgs[k])) break;
        }
        ps_seq_add(p, out, &q);
    }
}

static void rescan(WSqlParser *p, PsSeqList *out);

void ps_rescan(WSqlParser *p, PsSeqList *out)
{
    rescan(p, out);
    fixed_scans(p, out, true);
}

static void rescan(WSqlParser *p, PsSeqList *out)
{
    Scan s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.out = out;
    s.base = p->pos;
    if (p->join_pos >= 0 && p->join_pos <= p->pos) {
        /* the join loop's scans, from where its choice started */
        s.base = p->join_pos;
        (void)run(&s, 2, g_from_comma);
        if (p->join_kw) (void)run(&s, 3, g_join);
        add_error_token(&s, NULL, 0);
        s.base = p->pos;
    }
    if (p->hint_pos >= 0 && p->hint_pos < p->pos && p->pos - p->hint_pos < 5) {
        /* the hint option scans, from its "(" */
        s.base = p->hint_pos;
        (void)run(&s, 5, g_hint_kv);
        (void)run(&s, 3, g_hint_names);
        (void)run(&s, 3, g_hint_literals);
        add_error_token(&s, NULL, 0);
        s.base = p->pos;
    }
    if (p->pos == p->look_pos) {
        for (int i = 0; i < p->nlook; i++) {
            PsSeq q;
            memset(&q, 0, sizeof q);
            q.n = 1;
            q.tok[0] = p->look[i];
            ps_seq_add(p, out, &q);
        }
    }
    fixed_scans(p, out, false);
    if (p->pos == p->stmt_start_pos) {
        statement_scans(&s);
        return;
    }
    if (p->pos == p->start_pos) {
        /* an expression starts here: the scans for each kind of operand, one token each */
        for (int i = 0; i < WSQL_N_OPERAND_STARTS; i++) {
            PsSeq q;
            memset(&q, 0, sizeof q);
            q.n = 1;
            q.tok[0] = WSQL_OPERAND_STARTS[i];
            ps_seq_add(p, out, &q);
        }
        return;
    }
    if (p->pos == p->comma_pos) run(&s, 2, g_comma);
    if (p->pos == p->dot_pos && p->pos != p->cont_pos) run(&s, 2, g_dot);
    if (p->pos != p->cont_pos) {
        /* a name outside an expression: its LOOKAHEAD(2) for `. name` failed at the "." */
        if (p->pos == p->name_end_pos) run(&s, 2, g_dot);
        add_error_token(&s, NULL, 0);
        return;
    }
    bool primary = p->cont_opnd != PS_OPND_POSTFIX;
    if (p->pos == p->op3_pos) {
        /* failing inside the operator loop, the scans come in the order of the grammar's sites */
        run(&s, 2, g_format);
        run(&s, 2, g_postfix);
        run(&s, 1, g_bracket);
    }
    if (primary) run(&s, 2, g_dot);
    if (p->pos == p->escape_pos) run(&s, 2, g_escape);
    run(&s, 2, g_in);
    run(&s, 2, g_between);
    run(&s, 2, g_like);
    run(&s, 3, g_binary);
    if (scan_row(p, 1)) run(&s, 2, g_binary2);
    run(&s, 1, g_bracket);
    run(&s, 2, g_postfix);
    run(&s, 2, g_format);
    switch (p->cont_opnd) {
    case PS_OPND_IDENT:
        run(&s, 2, g_ident_tail);
        run(&s, 1, g_call_tail);
        break;
    case PS_OPND_CALL: run(&s, 2, g_nulls); break;
    case PS_OPND_PAREN: run(&s, 1, g_unit); break;
    default: break;
    }
    add_error_token(&s, NULL, 0);
}

void ps_note_operand_start(WSqlParser *p)
{
    if (p->pos == p->sorted_start_pos) {
        /* a clause that decides by its first token: every operand start is a single token */
        for (int i = 0; i < WSQL_N_OPERAND_STARTS; i++) ps_note_image(p, WSQL_OPERAND_STARTS[i]);
        return;
    }
    static const char *const FIRST[] = {"\"CURSOR\"", "\"EXISTS\"", "\"NOT\"", "\"ROW\"", "\"UNIQUE\"",
                                        "\"(\"", "\"+\"", "\"-\""};
    for (size_t i = 0; i < sizeof FIRST / sizeof FIRST[0]; i++) ps_note_image(p, FIRST[i]);
    p->start_pos = p->pos;
}
