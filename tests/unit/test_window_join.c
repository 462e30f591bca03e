/* test_window_join.c — WindowJoin (exec/window_join.c): the corpus cases
   window-join-{inner,left,right,full-outer,semi,anti}-tumble-event-time translated by hand (both
   sources interleaved row by row, each followed by its own watermark ts - 1 s; the operator's
   watermark is the minimum), plus residual conditions, late rows, NULL keys and retractions. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"
#include "../../src/common/arena.h"
#include "../../src/expr/functions.h"

#include <stdlib.h>
#include <string.h>

static int64_t parse_ts(TestEnv *e, const char *s)
{
    WArena a;
    warena_init(&a, 0);
    const WType *t = wtype_timestamp(&a, WT_TIMESTAMP, 3, true);
    const char *kinds[1] = {"+I"};
    const char *cells[1] = {s};
    WChunk *c = chunk_from_text(e, 1, &t, 1, kinds, cells);
    int64_t ms = c->cols[0].data[0].ts.ms;
    wchunk_free(c);
    warena_free(&a);
    return ms;
}

/* Script lines: "L,+I,v1,..." / "R,+I,v1,..." rows of input 0 / 1, "WL,<ts>" / "WR,<ts>"
   watermarks of one input, "W,<ts>" of both. */
static void feed2(TestEnv *e, WOperator *op, int ncols, const WType **types, const char *script)
{
    char *copy = strdup(script);
    char *save1 = NULL;
    for (char *line = strtok_r(copy, "\n", &save1); line; line = strtok_r(NULL, "\n", &save1)) {
        if (line[0] == 'W') {
            char *comma = strchr(line, ',');
            int64_t wm = parse_ts(e, comma + 1);
            if (line[1] == 'L' || line[1] == ',') wop_input_watermark(op, 0, wm);
            if (line[1] == 'R' || line[1] == ',') wop_input_watermark(op, 1, wm);
            continue;
        }
        int input = line[0] == 'R' ? 1 : 0;
        char *save2 = NULL;
        strtok_r(line, ",", &save2);
        const char *kinds[1];
        const char *cells[16];
        kinds[0] = strtok_r(NULL, ",", &save2);
        for (int k = 0; k < ncols; k++) cells[k] = strtok_r(NULL, ",", &save2);
        WChunk *c = chunk_from_text(e, ncols, types, 1, kinds, cells);
        wop_push(op, input, c);
        wchunk_free(c);
    }
    free(copy);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *sorted(const char *text)
{
    char *copy = strdup(text);
    char *lines[512];
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 512; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    char *out = calloc(strlen(text) + 2, 1);
    for (int i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
    }
    free(copy);
    return out;
}

/* Project captured rows "+I[f0, f1, ...]" to the fields idx[0..n) (values contain no ", "). */
static char *project(const char *text, int n, const int *idx, const char *suffix)
{
    char *copy = strdup(text);
    size_t cap = strlen(text) * 2 + 64;
    char *out = calloc(cap, 1);
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char kind[3] = {l[0], l[1], 0};
        char *body = l + 3;
        body[strlen(body) - 1] = 0;            /* drop ']' */
        char *fields[32];
        int nf = 0;
        for (char *p = body; p && nf < 32;) {
            fields[nf++] = p;
            char *q = strstr(p, ", ");
            if (q) { *q = 0; p = q + 2; } else p = NULL;
        }
        strcat(out, kind);
        strcat(out, "[");
        for (int i = 0; i < n; i++) {
            if (i) strcat(out, ", ");
            strcat(out, idx[i] < nf ? fields[idx[i]] : "?");
        }
        if (suffix) strcat(out, suffix);
        strcat(out, "]\n");
    }
    free(copy);
    return out;
}

/* Sink columns: L.window_start, L.window_end, L.name, L.id, L.num, R.id, R.num. */
static const int SINK_COLS[7] = {0, 1, 4, 2, 3, 7, 8};

#define CHECK_SINK(got, want, n, suffix)                                           \
    do {                                                                           \
        char *p_ = project(got, n, SINK_COLS, suffix);                             \
        char *g_s = sorted(p_), *w_s = sorted(want);                               \
        CHECK_STR(g_s, w_s);                                                       \
        free(p_);                                                                  \
        free(g_s);                                                                 \
        free(w_s);                                                                 \
    } while (0)

typedef struct Fix {
    TestEnv env;
    WArena arena;
    const WType *types[5];      /* window_start, window_end, id, num, name */
    WOperator *op;
    Capture *cap;
} Fix;

static const int NAME_KEY[1] = {4};

static void fix_open(Fix *f, WJoinKind kind, WExpr *residual)
{
    warena_init(&f->arena, 0);
    const WType *ts = wtype_timestamp(&f->arena, WT_TIMESTAMP, 3, true);
    f->types[0] = ts;
    f->types[1] = ts;
    f->types[2] = &WTYPE_STRING;
    f->types[3] = &WTYPE_INT;
    f->types[4] = &WTYPE_STRING;
    test_env_init(&f->env);
    WWindowJoinSpec s = {.kind = kind, .left_ncols = 5, .right_ncols = 5, .left_types = f->types,
                         .right_types = f->types, .nkeys = 1, .left_keys = NAME_KEY,
                         .right_keys = NAME_KEY, .left_start_col = 0, .left_end_col = 1,
                         .right_start_col = 0, .right_end_col = 1, .residual = residual};
    f->op = wop_window_join_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, f->op->ncols, f->op->types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_free(&f->arena);
}

#define TS(s) "2020-10-10 00:00:" s

static const char *PHASE1 =
    "L,+I," TS("00") "," TS("05") ",L1,1,a\nWL," TS("00") "\n"
    "R,+I," TS("00") "," TS("05") ",R1,5,a\nWR," TS("00") "\n"
    "L,+I," TS("00") "," TS("05") ",L2,2,c\nWL," TS("01") "\n"
    "R,+I," TS("00") "," TS("05") ",R2,7,b\nWR," TS("01") "\n"
    "L,+I," TS("00") "," TS("05") ",L3,2,x\nWL," TS("02") "\n"
    "R,+I," TS("00") "," TS("05") ",R3,7,f\nWR," TS("02") "\n"
    "L,+I," TS("00") "," TS("05") ",L7,5,a\nWL," TS("03") "\n"
    "R,+I," TS("00") "," TS("05") ",R7,3,g\nWR," TS("03") "\n"
    "L,+I," TS("05") "," TS("10") ",L8,3,b\nWL," TS("06") "\n"
    "R,+I," TS("05") "," TS("10") ",R8,8,b\nWR," TS("06") "\n"
    "L,+I," TS("05") "," TS("10") ",L6,6,b\nWL," TS("06") "\n"
    "R,+I," TS("05") "," TS("10") ",R6,6,b\nWR," TS("06") "\n"
    "L,+I," TS("05") "," TS("10") ",L9,3,a\nWL," TS("07") "\n"
    "R,+I," TS("05") "," TS("10") ",R9,3,a\nWR," TS("07") "\n"
    "L,+I," TS("00") "," TS("05") ",L4,5,a\nWL," TS("07") "\n"
    "R,+I," TS("00") "," TS("05") ",R4,5,a\nWR," TS("07") "\n"
    "L,+I," TS("15") "," TS("20") ",L10,4,b\nWL," TS("15") "\n"
    "R,+I," TS("15") "," TS("20") ",R17,4,k\nWR," TS("16") "\n"
    "L,+I," TS("30") "," TS("35") ",L11,7,null\nWL," TS("31") "\n"
    "R,+I," TS("30") "," TS("35") ",R31,7,null\nWR," TS("30") "\n"
    "L,+I," TS("30") "," TS("35") ",L12,1,b\nWL," TS("33") "\n"
    "R,+I," TS("30") "," TS("35") ",R33,1,b\nWR," TS("32") "\n";
static const char *PHASE2 =
    "L,+I," TS("40") "," TS("45") ",L41,10,a\nWL," TS("40") "\n"
    "R,+I," TS("40") "," TS("45") ",R41,10,y\nWR," TS("40") "\n"
    "L,+I," TS("40") "," TS("45") ",L42,11,d\nWL," TS("41") "\n"
    "R,+I," TS("40") "," TS("45") ",R42,11,c\nWR," TS("41") "\n"
    "L,+I," TS("40") "," TS("45") ",L43,12,c\nWL," TS("42") "\n"
    "R,+I," TS("40") "," TS("45") ",R43,12,x\nWR," TS("42") "\n"
    "L,+I," TS("40") "," TS("45") ",L44,13,d\nWL," TS("43") "\n"
    "R,+I," TS("40") "," TS("45") ",R44,13,z\nWR," TS("43") "\n"
    "W,2100-01-01 00:00:00\n";

WTEST(window_join_conformance_full_outer)
{
    Fix f;
    fix_open(&f, WJK_FULL, NULL);
    feed2(&f.env, f.op, 5, f.types, PHASE1);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R1, 5]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L7, 5, R1, 5]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, x, L3, 2, null, null]\n"
               "+I[null, null, null, null, null, R7, 3]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, c, L2, 2, null, null]\n"
               "+I[null, null, null, null, null, R2, 7]\n"
               "+I[null, null, null, null, null, R3, 7]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, a, L9, 3, R9, 3]\n"
               "+I[2020-10-10T00:00:15, 2020-10-10T00:00:20, b, L10, 4, null, null]\n"
               "+I[null, null, null, null, null, R17, 4]\n", 7, NULL);
    CHECK_INT(f.op->late_dropped, 2);
    capture_clear(f.cap);
    feed2(&f.env, f.op, 5, f.types, PHASE2);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, b, L12, 1, R33, 1]\n"
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, null, L11, 7, null, null]\n"
               "+I[null, null, null, null, null, R31, 7]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, a, L41, 10, null, null]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, d, L42, 11, null, null]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, d, L44, 13, null, null]\n"
               "+I[null, null, null, null, null, R43, 12]\n"
               "+I[null, null, null, null, null, R44, 13]\n"
               "+I[null, null, null, null, null, R41, 10]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, c, L43, 12, R42, 11]\n", 7, NULL);
    char m[512] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "leftNumLateRecordsDropped=1 rightNumLateRecordsDropped=1") != NULL);
    CHECK(strstr(m, "left-records.entries=0") != NULL);
    fix_close(&f);
}

WTEST(window_join_conformance_inner)
{
    Fix f;
    fix_open(&f, WJK_INNER, NULL);
    feed2(&f.env, f.op, 5, f.types, PHASE1);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R1, 5]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L7, 5, R1, 5]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, a, L9, 3, R9, 3]\n", 7, NULL);
    capture_clear(f.cap);
    feed2(&f.env, f.op, 5, f.types, PHASE2);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, b, L12, 1, R33, 1]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, c, L43, 12, R42, 11]\n", 7, NULL);
    fix_close(&f);
}

WTEST(window_join_conformance_left_and_right)
{
    Fix f;
    fix_open(&f, WJK_LEFT, NULL);
    feed2(&f.env, f.op, 5, f.types, PHASE1);
    feed2(&f.env, f.op, 5, f.types, PHASE2);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R1, 5]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L7, 5, R1, 5]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, x, L3, 2, null, null]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, c, L2, 2, null, null]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, a, L9, 3, R9, 3]\n"
               "+I[2020-10-10T00:00:15, 2020-10-10T00:00:20, b, L10, 4, null, null]\n"
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, b, L12, 1, R33, 1]\n"
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, null, L11, 7, null, null]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, a, L41, 10, null, null]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, d, L42, 11, null, null]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, d, L44, 13, null, null]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, c, L43, 12, R42, 11]\n", 7, NULL);
    fix_close(&f);

    fix_open(&f, WJK_RIGHT, NULL);
    feed2(&f.env, f.op, 5, f.types, PHASE1);
    feed2(&f.env, f.op, 5, f.types, PHASE2);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R1, 5]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L7, 5, R1, 5]\n"
               "+I[null, null, null, null, null, R7, 3]\n"
               "+I[null, null, null, null, null, R2, 7]\n"
               "+I[null, null, null, null, null, R3, 7]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R8, 8]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, R6, 6]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, a, L9, 3, R9, 3]\n"
               "+I[null, null, null, null, null, R17, 4]\n"
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, b, L12, 1, R33, 1]\n"
               "+I[null, null, null, null, null, R31, 7]\n"
               "+I[null, null, null, null, null, R43, 12]\n"
               "+I[null, null, null, null, null, R44, 13]\n"
               "+I[null, null, null, null, null, R41, 10]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, c, L43, 12, R42, 11]\n", 7, NULL);
    fix_close(&f);
}

WTEST(window_join_conformance_semi_anti)
{
    Fix f;
    fix_open(&f, WJK_SEMI, NULL);
    CHECK_INT(f.op->ncols, 5);
    feed2(&f.env, f.op, 5, f.types, PHASE1);
    feed2(&f.env, f.op, 5, f.types, PHASE2);
    /* the corpus sink adds two constant columns */
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L7, 5, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L8, 3, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, b, L6, 6, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:05, 2020-10-10T00:00:10, a, L9, 3, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, b, L12, 1, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, c, L43, 12, NOT_PRESENT, 0]\n",
               5, ", NOT_PRESENT, 0");
    fix_close(&f);

    fix_open(&f, WJK_ANTI, NULL);
    feed2(&f.env, f.op, 5, f.types, PHASE1);
    feed2(&f.env, f.op, 5, f.types, PHASE2);
    CHECK_SINK(f.cap->text.buf,
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, x, L3, 2, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00, 2020-10-10T00:00:05, c, L2, 2, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:15, 2020-10-10T00:00:20, b, L10, 4, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:30, 2020-10-10T00:00:35, null, L11, 7, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, a, L41, 10, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, d, L42, 11, NOT_PRESENT, 0]\n"
               "+I[2020-10-10T00:00:40, 2020-10-10T00:00:45, d, L44, 13, NOT_PRESENT, 0]\n",
               5, ", NOT_PRESENT, 0");
    fix_close(&f);
}

/* A residual L.num < R.num restricts the pairs; unmatched left rows are padded. */
WTEST(window_join_residual_condition)
{
    Fix f;
    WArena a;
    warena_init(&a, 0);
    const WFuncDef *lt = wfunc_lookup("<");
    WExpr *cond = NULL;
    if (lt) {
        cond = wexpr_new(&a, WX_CALL, &WTYPE_BOOLEAN, 2);
        cond->func = lt;
        cond->args[0] = wexpr_column(&a, 3, &WTYPE_INT, "L.num");
        cond->args[1] = wexpr_column(&a, 8, &WTYPE_INT, "R.num");
    }
    fix_open(&f, WJK_LEFT, cond);
    feed2(&f.env, f.op, 5, f.types,
          "L,+I," TS("00") "," TS("05") ",L1,1,a\n"
          "L,+I," TS("00") "," TS("05") ",L2,9,a\n"
          "R,+I," TS("00") "," TS("05") ",R1,5,a\n"
          "R,+I," TS("00") "," TS("05") ",R2,6,a\n"
          "W," TS("10") "\n");
    if (lt)
        CHECK_SINK(f.cap->text.buf,
                   "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R1, 5]\n"
                   "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R2, 6]\n"
                   "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L2, 9, null, null]\n", 7, NULL);
    fix_close(&f);
    warena_free(&a);
}

WTEST(window_join_watermark_is_minimum_and_retraction_fails)
{
    Fix f;
    fix_open(&f, WJK_INNER, NULL);
    feed2(&f.env, f.op, 5, f.types,
          "L,+I," TS("00") "," TS("05") ",L1,1,a\n"
          "R,+I," TS("00") "," TS("05") ",R1,5,a\n"
          "WL," TS("10") "\n");
    CHECK_STR(f.cap->text.buf, "");          /* right watermark still at -inf */
    feed2(&f.env, f.op, 5, f.types, "WR," TS("04.999") "\n");
    CHECK_SINK(f.cap->text.buf, "+I[2020-10-10T00:00, 2020-10-10T00:00:05, a, L1, 1, R1, 5]\n", 7,
               NULL);
    CHECK_INT(f.cap->last_wm, parse_ts(&f.env, TS("04.999")));
    feed2(&f.env, f.op, 5, f.types, "R,-D," TS("05") "," TS("10") ",R1,5,a\n");
    CHECK(f.env.err.set);
    fix_close(&f);
}
