/* test_window_rank.c — WindowRank / WindowDeduplicate (exec/window_rank.c): top-N per window
   emitted when the watermark passes window_end - 1, ties in arrival order, late rows dropped and
   counted, rank ranges, PARTITION BY keys, dedup first/last, -D input rejected, and the conformance
   cases window-rank-tumble-tvf-min-top-n, window-rank-tumble-tvf-max-top-n,
   window-rank-hop-tvf-min-top-n, window-deduplicate-desc-tumble-last-row,
   window-deduplicate-asc-tumble-first-row translated by hand (the corpus advances the watermark
   after every row: bid_time - 1 s). */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"
#include "../../src/common/arena.h"

#include <stdlib.h>
#include <string.h>

/* ---- script feeding: lines "+I,v1,v2,..." (rows) or "WM,<timestamp>" (watermark) ---- */

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

static void feed(TestEnv *e, WOperator *op, int input, int ncols, const WType **types,
                 const char *script)
{
    char *copy = strdup(script);
    const char *kinds[256];
    const char **cells = calloc(256 * (size_t)ncols, sizeof *cells);
    int n = 0;
    char *save1 = NULL;
    for (char *line = strtok_r(copy, "\n", &save1);; line = strtok_r(NULL, "\n", &save1)) {
        bool wm = line && strncmp(line, "WM,", 3) == 0;
        if ((!line || wm) && n > 0) {
            WChunk *c = chunk_from_text(e, ncols, types, n, kinds, cells);
            wop_push(op, input, c);
            wchunk_free(c);
            n = 0;
        }
        if (!line) break;
        if (wm) {
            wop_input_watermark(op, input, parse_ts(e, line + 3));
            continue;
        }
        char *save2 = NULL;
        kinds[n] = strtok_r(line, ",", &save2);
        for (int k = 0; k < ncols; k++) cells[n * ncols + k] = strtok_r(NULL, ",", &save2);
        n++;
    }
    free(cells);
    free(copy);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Lines sorted (multiset comparison, as the corpus compares changelogs). */
static char *sorted(const char *text)
{
    char *copy = strdup(text);
    char *lines[512];
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 512; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    size_t len = strlen(text) + 2;
    char *out = calloc(len, 1);
    for (int i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
    }
    free(copy);
    return out;
}

#define CHECK_MULTISET(got, want)                                                  \
    do {                                                                           \
        char *g_s = sorted(got), *w_s = sorted(want);                              \
        CHECK_STR(g_s, w_s);                                                       \
        free(g_s);                                                                 \
        free(w_s);                                                                 \
    } while (0)

/* ---- fixture: bid rows after a TUMBLE/HOP TVF ----
   columns: window_start, window_end, bid_time, supplier_id, price, item */

typedef struct Fix {
    TestEnv env;
    WArena arena;
    const WType *types[6];
    WOperator *op;
    Capture *cap;
} Fix;

static void fix_types(Fix *f)
{
    warena_init(&f->arena, 0);
    const WType *ts = wtype_timestamp(&f->arena, WT_TIMESTAMP, 3, true);
    f->types[0] = ts;
    f->types[1] = ts;
    f->types[2] = ts;
    f->types[3] = &WTYPE_STRING;
    f->types[4] = wtype_decimal(&f->arena, 10, 2, true);
    f->types[5] = &WTYPE_STRING;
}

static const int NO_KEYS[1] = {0};

static void fix_open(Fix *f, WWindowRankSpec *s)
{
    test_env_init(&f->env);
    s->in_ncols = 6;
    s->in_types = f->types;
    s->start_col = 0;
    s->end_col = 1;
    f->op = wop_window_rank_new(&f->env.ctx, s);
    f->cap = capture_new(&f->env, f->op->ncols, f->op->types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_free(&f->arena);
}

#define T(s) "2020-04-15 08:00:" s

/* Rows of the TUMBLE(10 s) cases, each followed by the watermark bid_time - 1 s. */
static const char *TUMBLE_PHASE1 =
    "+I," T("00") "," T("10") "," T("05") ",supplier1,4.00,A\nWM," T("04") "\n"
    "+I," T("00") "," T("10") "," T("06") ",supplier2,4.00,C\nWM," T("05") "\n"
    "+I," T("00") "," T("10") "," T("07") ",supplier1,2.00,G\nWM," T("06") "\n"
    "+I," T("00") "," T("10") "," T("08") ",supplier3,2.00,B\nWM," T("07") "\n"
    "+I," T("00") "," T("10") "," T("09") ",supplier4,5.00,D\nWM," T("08") "\n"
    "+I," T("10") "," T("20") "," T("11") ",supplier3,2.00,B\nWM," T("10") "\n"
    "+I," T("10") "," T("20") "," T("13") ",supplier1,1.00,E\nWM," T("12") "\n"
    "+I," T("10") "," T("20") "," T("15") ",supplier2,3.00,H\nWM," T("14") "\n"
    "+I," T("10") "," T("20") "," T("17") ",supplier5,6.00,F\nWM," T("16") "\n";
static const char *TUMBLE_PHASE2 =
    "+I," T("20") "," T("30") "," T("21") ",supplier7,2.00,B\nWM," T("20") "\n"
    "+I," T("20") "," T("30") "," T("23") ",supplier4,1.00,A\nWM," T("22") "\n"
    "+I," T("20") "," T("30") "," T("25") ",supplier3,3.00,C\nWM," T("24") "\n"
    "+I," T("20") "," T("30") "," T("28") ",supplier8,6.00,A\nWM," T("27") "\n"
    "WM,2100-01-01 00:00:00\n";

static const WSortKey PRICE_ASC[1] = {{.col = 4, .desc = false, .nulls_first = true}};
static const WSortKey PRICE_DESC[1] = {{.col = 4, .desc = true, .nulls_first = false}};

WTEST(window_rank_conformance_tumble_min_top_n)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nkeys = 0, .keys = NO_KEYS, .nsort = 1, .sort = PRICE_ASC,
                         .func = WRANK_ROW_NUMBER, .rank_start = 1, .rank_end = 3,
                         .output_rank_number = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE1);
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:07, supplier1, 2.00, G, 1]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:08, supplier3, 2.00, B, 2]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:05, supplier1, 4.00, A, 3]\n");
    capture_clear(f.cap);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE2);
    CHECK_MULTISET(f.cap->text.buf,
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]\n"
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:11, supplier3, 2.00, B, 2]\n"
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:15, supplier2, 3.00, H, 3]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:23, supplier4, 1.00, A, 1]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:21, supplier7, 2.00, B, 2]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:25, supplier3, 3.00, C, 3]\n");
    CHECK_INT(f.op->late_dropped, 0);
    fix_close(&f);
}

WTEST(window_rank_conformance_tumble_max_top_n)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_DESC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 3, .output_rank_number = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE1);
    /* 4.00 ties: A arrived before C */
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09, supplier4, 5.00, D, 1]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:05, supplier1, 4.00, A, 2]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:06, supplier2, 4.00, C, 3]\n");
    capture_clear(f.cap);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE2);
    CHECK_MULTISET(f.cap->text.buf,
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:17, supplier5, 6.00, F, 1]\n"
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:15, supplier2, 3.00, H, 2]\n"
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:11, supplier3, 2.00, B, 3]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:28, supplier8, 6.00, A, 1]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:25, supplier3, 3.00, C, 2]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:21, supplier7, 2.00, B, 3]\n");
    fix_close(&f);
}

WTEST(window_rank_rank_range_without_number)
{
    Fix f;
    fix_types(&f);
    /* rows 2..3 only, no rank column */
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_ASC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 2, .rank_end = 3, .output_rank_number = false};
    fix_open(&f, &s);
    CHECK_INT(f.op->ncols, 6);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE1);
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:08, supplier3, 2.00, B]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:05, supplier1, 4.00, A]\n");
    fix_close(&f);
}

WTEST(window_rank_partition_keys_and_nulls)
{
    Fix f;
    fix_types(&f);
    static const int ITEM_KEY[1] = {5};
    WWindowRankSpec s = {.nkeys = 1, .keys = ITEM_KEY, .nsort = 1, .sort = PRICE_ASC,
                         .func = WRANK_ROW_NUMBER, .rank_start = 1, .rank_end = 1,
                         .output_rank_number = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("01") ",s1,3.00,A\n"
         "+I," T("00") "," T("10") "," T("02") ",s2,null,A\n"      /* NULL price sorts first (ASC, nulls first) */
         "+I," T("00") "," T("10") "," T("03") ",s3,1.00,null\n"   /* NULL partition key */
         "+I," T("00") "," T("10") "," T("04") ",s4,0.50,null\n"
         "+I," T("00") "," T("10") "," T("05") ",s5,2.00,B\n"
         "WM," T("09.998") "\n");
    CHECK_STR(f.cap->text.buf, "");
    feed(&f.env, f.op, 0, 6, f.types, "WM," T("09.999") "\n");
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:02, s2, null, A, 1]\n"
                   "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:04, s4, 0.50, null, 1]\n"
                   "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:05, s5, 2.00, B, 1]\n");
    fix_close(&f);
}

WTEST(window_rank_late_rows_dropped)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_ASC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 2, .output_rank_number = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("01") ",s1,3.00,A\n"
         "WM," T("09.999") "\n"                                   /* fires [00, 10) */
         "+I," T("00") "," T("10") "," T("02") ",late,1.00,A\n"   /* its window fired: late */
         "+I," T("10") "," T("20") "," T("12") ",s2,1.00,B\n"
         "WM," T("30") "\n");
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:01, s1, 3.00, A, 1]\n"
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:12, s2, 1.00, B, 1]\n");
    CHECK_INT(f.op->late_dropped, 1);
    CHECK_INT(f.cap->last_wm, parse_ts(&f.env, T("30")));
    char m[512] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "window_rank.entries=0") != NULL);
    CHECK(strstr(m, "numLateRecordsDropped=1") != NULL);
    fix_close(&f);
}

WTEST(window_rank_retraction_fails)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_ASC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 2, .output_rank_number = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types, "-D," T("00") "," T("10") "," T("01") ",s1,3.00,A\n");
    CHECK(f.env.err.set);
    CHECK(strstr(f.env.err.msg, "Window rank does not support input RowKind: -D") != NULL);
    fix_close(&f);
}

/* HOP(5 s slide, 10 s size): each bid appears in two windows. Before restore only windows ending
   by 08:00:16 fired (watermark 08:00:16). */
WTEST(window_rank_conformance_hop_min_top_n_phase1)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_ASC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 3, .output_rank_number = true};
    fix_open(&f, &s);
    /* window_start, window_end of both windows per row */
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("05") ",supplier1,4.00,A\n"
         "+I," T("05") "," T("15") "," T("05") ",supplier1,4.00,A\nWM," T("04") "\n"
         "+I," T("00") "," T("10") "," T("06") ",supplier2,4.00,C\n"
         "+I," T("05") "," T("15") "," T("06") ",supplier2,4.00,C\nWM," T("05") "\n"
         "+I," T("00") "," T("10") "," T("07") ",supplier1,2.00,G\n"
         "+I," T("05") "," T("15") "," T("07") ",supplier1,2.00,G\nWM," T("06") "\n"
         "+I," T("00") "," T("10") "," T("08") ",supplier3,2.00,B\n"
         "+I," T("05") "," T("15") "," T("08") ",supplier3,2.00,B\nWM," T("07") "\n"
         "+I," T("00") "," T("10") "," T("09") ",supplier4,5.00,D\n"
         "+I," T("05") "," T("15") "," T("09") ",supplier4,5.00,D\nWM," T("08") "\n"
         "+I," T("05") "," T("15") "," T("11") ",supplier3,2.00,B\n"
         "+I," T("10") "," T("20") "," T("11") ",supplier3,2.00,B\nWM," T("10") "\n"
         "+I," T("05") "," T("15") "," T("13") ",supplier1,1.00,E\n"
         "+I," T("10") "," T("20") "," T("13") ",supplier1,1.00,E\nWM," T("12") "\n"
         "+I," T("10") "," T("20") "," T("15") ",supplier2,3.00,H\n"
         "+I," T("15") "," T("25") "," T("15") ",supplier2,3.00,H\nWM," T("14") "\n"
         "+I," T("10") "," T("20") "," T("17") ",supplier5,6.00,F\n"
         "+I," T("15") "," T("25") "," T("17") ",supplier5,6.00,F\nWM," T("16") "\n");
    CHECK_MULTISET(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:07, supplier1, 2.00, G, 1]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:08, supplier3, 2.00, B, 2]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:05, supplier1, 4.00, A, 3]\n"
              "+I[2020-04-15T08:00:05, 2020-04-15T08:00:15, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]\n"
              "+I[2020-04-15T08:00:05, 2020-04-15T08:00:15, 2020-04-15T08:00:07, supplier1, 2.00, G, 2]\n"
              "+I[2020-04-15T08:00:05, 2020-04-15T08:00:15, 2020-04-15T08:00:08, supplier3, 2.00, B, 3]\n");
    fix_close(&f);
}

/* ---- window deduplicate ---- */

static const WSortKey BID_TIME_ASC[1] = {{.col = 2, .desc = false, .nulls_first = true}};
static const WSortKey BID_TIME_DESC[1] = {{.col = 2, .desc = true, .nulls_first = false}};

WTEST(window_dedup_conformance_desc_tumble_last_row)
{
    Fix f;
    fix_types(&f);
    /* the case selects row_num: dedup with the rank column (always 1) */
    WWindowRankSpec s = {.nsort = 1, .sort = BID_TIME_DESC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 1, .output_rank_number = true,
                         .dedup = true, .keep_last = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE1);
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09, supplier4, 5.00, D, 1]\n");
    capture_clear(f.cap);
    feed(&f.env, f.op, 0, 6, f.types, TUMBLE_PHASE2);
    CHECK_MULTISET(f.cap->text.buf,
              "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:17, supplier5, 6.00, F, 1]\n"
              "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:28, supplier8, 6.00, A, 1]\n");
    fix_close(&f);
}

WTEST(window_dedup_first_row_and_ties)
{
    Fix f;
    fix_types(&f);
    static const int ITEM_KEY[1] = {5};
    WWindowRankSpec s = {.nkeys = 1, .keys = ITEM_KEY, .nsort = 1, .sort = BID_TIME_ASC,
                         .func = WRANK_ROW_NUMBER, .rank_start = 1, .rank_end = 1,
                         .dedup = true, .keep_last = false};
    fix_open(&f, &s);
    CHECK_INT(f.op->ncols, 6);
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("05") ",s1,1.00,A\n"
         "+I," T("00") "," T("10") "," T("03") ",s2,1.00,A\n"     /* earlier: replaces */
         "+I," T("00") "," T("10") "," T("03") ",s3,1.00,A\n"     /* tie: the first stays */
         "+I," T("00") "," T("10") "," T("04") ",s4,1.00,B\n"
         "+I," T("00") "," T("10") "," T("06") ",s5,1.00,B\n"
         "WM," T("20") "\n");
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:03, s2, 1.00, A]\n"
                   "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:04, s4, 1.00, B]\n");
    fix_close(&f);
}

WTEST(window_dedup_last_row_ties_take_later)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = BID_TIME_DESC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 1, .dedup = true, .keep_last = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("05") ",s1,1.00,A\n"
         "+I," T("00") "," T("10") "," T("05") ",s2,1.00,A\n"
         "+I," T("00") "," T("10") "," T("04") ",s3,1.00,A\n"
         "WM," T("20") "\n");
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:05, s2, 1.00, A]\n");
    fix_close(&f);
}

WTEST(window_rank_proctime_fires_on_clock)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_ASC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 1, .output_rank_number = true,
                         .proctime = true};
    fix_open(&f, &s);
    f.env.now = parse_ts(&f.env, T("01"));
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("01") ",s1,2.00,A\n"
         "+I," T("00") "," T("10") "," T("01") ",s2,1.00,A\n");
    CHECK_STR(f.cap->text.buf, "");
    f.env.now = parse_ts(&f.env, T("10"));
    feed(&f.env, f.op, 0, 6, f.types, "+I," T("10") "," T("20") "," T("10") ",s3,1.00,A\n");
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:01, s2, 1.00, A, 1]\n");
    fix_close(&f);
}

/* A full top-N buffer skips rows that sort after or equal to its last row without copying it
   (ties keep arrival order); a better row, a NULL sorting first, still enter. One chunk. */
WTEST(window_rank_full_buffer_skips_rows_after_the_last)
{
    Fix f;
    fix_types(&f);
    WWindowRankSpec s = {.nsort = 1, .sort = PRICE_ASC, .func = WRANK_ROW_NUMBER,
                         .rank_start = 1, .rank_end = 3, .output_rank_number = true};
    fix_open(&f, &s);
    feed(&f.env, f.op, 0, 6, f.types,
         "+I," T("00") "," T("10") "," T("01") ",s1,3.00,X\n"
         "+I," T("00") "," T("10") "," T("02") ",s2,1.00,Y\n"
         "+I," T("00") "," T("10") "," T("03") ",s3,3.00,Z\n"
         "+I," T("00") "," T("10") "," T("04") ",s4,2.00,W\n"
         "+I," T("00") "," T("10") "," T("05") ",s5,3.00,V\n"
         "+I," T("00") "," T("10") "," T("06") ",s6,9.00,U\n"
         "+I," T("00") "," T("10") "," T("07") ",s7,null,N\n"
         "WM,2100-01-01 00:00:00\n");
    CHECK_STR(f.cap->text.buf,
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:07, s7, null, N, 1]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:02, s2, 1.00, Y, 2]\n"
              "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:04, s4, 2.00, W, 3]\n");
    fix_close(&f);
}
