/* test_over_agg.c — OverAggregate (exec/over_agg.c): the COUNT(a) / SUM(a) columns of the corpus
   cases over-aggregate-unbounded-partitioned-rows (RANGE UNBOUNDED), -bounded-partitioned-rows
   (RANGE 10 s) and -bounded-partitioned-preceding-rows (ROWS 5) translated by hand (the LTCNT Java
   UDAF column is left out; the watermark is the row time after every row), plus ROWS UNBOUNDED,
   RANGE peers, Flink's lateness rules, MAX with retraction, processing time and errors. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"
#include "../../src/common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MyTable: ts BIGINT (seconds), a BIGINT, b INT, c STRING, rowtime TIMESTAMP(3) */
typedef struct Fix {
    TestEnv env;
    WArena arena;
    const WType *types[5];
    WAggCall aggs[2];
    WOperator *op;
    Capture *cap;
} Fix;

static WAggCall call(WAggKind kind, int arg, const WType *type)
{
    WAggCall c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.name = "AGG";
    c.nargs = arg >= 0 ? 1 : 0;
    c.args[0] = arg;
    c.filter_col = -1;
    c.type = type;
    return c;
}

static const int C_KEY[1] = {3};

static void fix_open_aggs(Fix *f, bool rows, bool unbounded, int64_t preceding, bool proctime,
                          int nkeys, WAggCall a0, WAggCall a1)
{
    warena_init(&f->arena, 0);
    f->types[0] = &WTYPE_BIGINT;
    f->types[1] = &WTYPE_BIGINT;
    f->types[2] = &WTYPE_INT;
    f->types[3] = &WTYPE_STRING;
    f->types[4] = wtype_timestamp(&f->arena, WT_TIMESTAMP, 3, true);
    f->aggs[0] = a0;
    f->aggs[1] = a1;
    test_env_init(&f->env);
    WOverAggSpec s = {.in_ncols = 5, .in_types = f->types, .nkeys = nkeys, .keys = C_KEY,
                      .time_col = 4, .proctime = proctime, .rows_frame = rows,
                      .unbounded = unbounded, .preceding = preceding, .naggs = 2, .aggs = f->aggs};
    f->op = wop_over_agg_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, f->op->ncols, f->op->types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_open(Fix *f, bool rows, bool unbounded, int64_t preceding)
{
    fix_open_aggs(f, rows, unbounded, preceding, false, 1, call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN),
                  call(WAGG_SUM, 1, &WTYPE_BIGINT));
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_free(&f->arena);
}

/* Lines "+I,ts,a,b,c" (rowtime = ts seconds; the watermark follows every row at the largest
   row time so far) or "WM,<seconds>" or "NOWM" (no watermark after the following rows). */
static void feed(Fix *f, const char *script, int64_t *max_wm)
{
    char *copy = strdup(script);
    char *save1 = NULL;
    for (char *line = strtok_r(copy, "\n", &save1); line; line = strtok_r(NULL, "\n", &save1)) {
        if (strncmp(line, "WM,", 3) == 0) {
            wop_input_watermark(f->op, 0, atoll(line + 3) * 1000);
            continue;
        }
        char *save2 = NULL;
        const char *kinds[1];
        const char *cells[5];
        kinds[0] = strtok_r(line, ",", &save2);
        for (int k = 0; k < 4; k++) cells[k] = strtok_r(NULL, ",", &save2);
        long long ts = atoll(cells[0]);
        char tsbuf[64];
        snprintf(tsbuf, sizeof tsbuf, "1970-01-01 %02lld:%02lld:%02lld", ts / 3600, ts / 60 % 60, ts % 60);
        cells[4] = tsbuf;
        WChunk *c = chunk_from_text(&f->env, 5, f->types, 1, kinds, cells);
        wop_push(f->op, 0, c);
        wchunk_free(c);
        if (max_wm) {
            if (ts * 1000 > *max_wm) *max_wm = ts * 1000;
            wop_input_watermark(f->op, 0, *max_wm);
        }
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

/* Keep fields idx[0..n) of rows "+I[f0, f1, ...]". */
static char *project(const char *text, int n, const int *idx)
{
    char *copy = strdup(text);
    char *out = calloc(strlen(text) * 2 + 64, 1);
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char kind[3] = {l[0], l[1], 0};
        char *body = l + 3;
        body[strlen(body) - 1] = 0;
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
        strcat(out, "]\n");
    }
    free(copy);
    return out;
}

/* Output (ts, a, b, c, rowtime, COUNT, SUM) -> sink (c, ts, rowtime, b, COUNT, SUM). */
static const int OUT_TO_SINK[6] = {3, 0, 4, 2, 5, 6};
/* Corpus sink rows (c, ts, rowtime, b, LTCNT, COUNT, SUM) without LTCNT. */
static const int DROP_LTCNT[6] = {0, 1, 2, 3, 5, 6};

#define CHECK_CORPUS(got, want)                                                    \
    do {                                                                           \
        char *g_p = project(got, 6, OUT_TO_SINK), *w_p = project(want, 6, DROP_LTCNT); \
        char *g_s = sorted(g_p), *w_s = sorted(w_p);                               \
        CHECK_STR(g_s, w_s);                                                       \
        free(g_p);                                                                 \
        free(w_p);                                                                 \
        free(g_s);                                                                 \
        free(w_s);                                                                 \
    } while (0)

static const char *ROWS_BEFORE =
    "+I,10,1,1,Hello\n+I,15,1,15,Hello\n+I,16,1,16,Hello\n+I,20,2,2,Hello\n+I,20,2,2,Hello\n"
    "+I,20,2,3,Hello\n+I,30,3,3,Hello\n+I,40,4,4,Hello\n+I,50,5,5,Hello\n+I,60,6,6,Hello\n"
    "+I,65,6,65,Hello\n+I,51,19,15,Hello\n+I,90,6,9,Hello\n+I,95,6,18,Hello\n+I,90,6,10,Hello\n"
    "+I,90,7,9,Hello\n+I,92,7,9,Hello\n+I,100,7,7,Hello World\n+I,99,19,15,Hello\n"
    "+I,110,7,17,Hello World\n+I,110,7,77,Hello World\n+I,140,7,18,Hello World\n"
    "+I,53,19,15,Hello\n+I,150,8,8,Hello World\n+I,200,20,20,Hello World\n"
    "+I,12,1,1,Hello World\n+I,33,17,1,Hello\n+I,37,19,15,Hello\n+I,52,19,15,Hello\n"
    "+I,13,1,1,Hello\n+I,19,1,15,Hello\n";
static const char *ROWS_AFTER =
    "+I,150,8,8,Hello World\n+I,149,8,8,Hello World\n+I,148,8,8,Hello World\n"
    "+I,151,8,8,Hello World\n+I,202,20,20,Hello World\n";

WTEST(over_agg_conformance_range_unbounded)
{
    Fix f;
    fix_open(&f, false, true, 0);
    int64_t wm = INT64_MIN;
    feed(&f, ROWS_BEFORE, &wm);
    CHECK_CORPUS(f.cap->text.buf,
                 "+I[Hello, 10, 1970-01-01T00:00:10, 1, 0, 1, 1]\n"
                 "+I[Hello, 15, 1970-01-01T00:00:15, 15, 0, 2, 2]\n"
                 "+I[Hello, 16, 1970-01-01T00:00:16, 16, 0, 3, 3]\n"
                 "+I[Hello, 20, 1970-01-01T00:00:20, 2, 0, 4, 5]\n"
                 "+I[Hello, 30, 1970-01-01T00:00:30, 3, 0, 5, 8]\n"
                 "+I[Hello, 40, 1970-01-01T00:00:40, 4, 0, 6, 12]\n"
                 "+I[Hello, 50, 1970-01-01T00:00:50, 5, 1, 7, 17]\n"
                 "+I[Hello, 60, 1970-01-01T00:01, 6, 2, 8, 23]\n"
                 "+I[Hello, 65, 1970-01-01T00:01:05, 65, 3, 9, 29]\n"
                 "+I[Hello, 90, 1970-01-01T00:01:30, 9, 4, 10, 35]\n"
                 "+I[Hello, 95, 1970-01-01T00:01:35, 18, 5, 11, 41]\n"
                 "+I[Hello World, 100, 1970-01-01T00:01:40, 7, 1, 1, 7]\n"
                 "+I[Hello World, 110, 1970-01-01T00:01:50, 17, 2, 2, 14]\n"
                 "+I[Hello World, 140, 1970-01-01T00:02:20, 18, 3, 3, 21]\n"
                 "+I[Hello World, 150, 1970-01-01T00:02:30, 8, 4, 4, 29]\n"
                 "+I[Hello World, 200, 1970-01-01T00:03:20, 20, 5, 5, 49]\n");
    /* 31 rows, 16 emitted, 15 at or behind the watermark */
    CHECK_INT(f.op->late_dropped, 15);
    fix_close(&f);
}

/* RANGE 10 s: per-key last triggering time decides lateness; cleanup timers clear a key's state
   (so 53 and later 13..52 of Hello are accepted again). */
WTEST(over_agg_conformance_range_bounded)
{
    Fix f;
    fix_open(&f, false, false, 10000);
    int64_t wm = INT64_MIN;
    feed(&f, ROWS_BEFORE, &wm);
    CHECK_CORPUS(f.cap->text.buf,
                 "+I[Hello, 10, 1970-01-01T00:00:10, 1, 0, 1, 1]\n"
                 "+I[Hello, 15, 1970-01-01T00:00:15, 15, 0, 2, 2]\n"
                 "+I[Hello, 16, 1970-01-01T00:00:16, 16, 0, 3, 3]\n"
                 "+I[Hello, 20, 1970-01-01T00:00:20, 2, 0, 4, 5]\n"
                 "+I[Hello, 30, 1970-01-01T00:00:30, 3, 0, 2, 5]\n"
                 "+I[Hello, 40, 1970-01-01T00:00:40, 4, 0, 2, 7]\n"
                 "+I[Hello, 50, 1970-01-01T00:00:50, 5, 1, 2, 9]\n"
                 "+I[Hello, 60, 1970-01-01T00:01, 6, 2, 2, 11]\n"
                 "+I[Hello, 65, 1970-01-01T00:01:05, 65, 2, 2, 12]\n"
                 "+I[Hello, 90, 1970-01-01T00:01:30, 9, 1, 1, 6]\n"
                 "+I[Hello, 95, 1970-01-01T00:01:35, 18, 2, 2, 12]\n"
                 "+I[Hello World, 100, 1970-01-01T00:01:40, 7, 1, 1, 7]\n"
                 "+I[Hello, 99, 1970-01-01T00:01:39, 15, 3, 3, 31]\n"
                 "+I[Hello World, 110, 1970-01-01T00:01:50, 17, 2, 2, 14]\n"
                 "+I[Hello World, 140, 1970-01-01T00:02:20, 18, 1, 1, 7]\n"
                 "+I[Hello, 53, 1970-01-01T00:00:53, 15, 1, 1, 19]\n"
                 "+I[Hello World, 150, 1970-01-01T00:02:30, 8, 2, 2, 15]\n"
                 "+I[Hello World, 200, 1970-01-01T00:03:20, 20, 1, 1, 20]\n");
    capture_clear(f.cap);
    /* Flink restarts the watermark at -inf after the restore; the rows 13..52 waiting for a
       timer fire at the next watermark advance there as here. */
    feed(&f, ROWS_AFTER, &wm);
    wop_input_watermark(f.op, 0, INT64_MAX);
    CHECK_CORPUS(f.cap->text.buf,
                 "+I[Hello, 13, 1970-01-01T00:00:13, 1, 0, 1, 1]\n"
                 "+I[Hello, 19, 1970-01-01T00:00:19, 15, 0, 2, 2]\n"
                 "+I[Hello, 33, 1970-01-01T00:00:33, 1, 1, 1, 17]\n"
                 "+I[Hello, 37, 1970-01-01T00:00:37, 15, 2, 2, 36]\n"
                 "+I[Hello, 52, 1970-01-01T00:00:52, 15, 1, 1, 19]\n"
                 "+I[Hello World, 202, 1970-01-01T00:03:22, 20, 2, 2, 40]\n");
    fix_close(&f);
}

WTEST(over_agg_conformance_rows_bounded)
{
    Fix f;
    fix_open(&f, true, false, 5);
    int64_t wm = INT64_MIN;
    feed(&f, ROWS_BEFORE, &wm);
    CHECK_CORPUS(f.cap->text.buf,
                 "+I[Hello, 10, 1970-01-01T00:00:10, 1, 0, 1, 1]\n"
                 "+I[Hello, 15, 1970-01-01T00:00:15, 15, 0, 2, 2]\n"
                 "+I[Hello, 16, 1970-01-01T00:00:16, 16, 0, 3, 3]\n"
                 "+I[Hello, 20, 1970-01-01T00:00:20, 2, 0, 4, 5]\n"
                 "+I[Hello, 30, 1970-01-01T00:00:30, 3, 0, 5, 8]\n"
                 "+I[Hello, 40, 1970-01-01T00:00:40, 4, 0, 6, 12]\n"
                 "+I[Hello, 50, 1970-01-01T00:00:50, 5, 1, 6, 16]\n"
                 "+I[Hello, 60, 1970-01-01T00:01, 6, 2, 6, 21]\n"
                 "+I[Hello, 65, 1970-01-01T00:01:05, 65, 3, 6, 26]\n"
                 "+I[Hello, 90, 1970-01-01T00:01:30, 9, 4, 6, 30]\n"
                 "+I[Hello, 95, 1970-01-01T00:01:35, 18, 5, 6, 33]\n"
                 "+I[Hello World, 100, 1970-01-01T00:01:40, 7, 1, 1, 7]\n"
                 "+I[Hello, 99, 1970-01-01T00:01:39, 15, 6, 6, 48]\n"
                 "+I[Hello World, 110, 1970-01-01T00:01:50, 17, 2, 2, 14]\n"
                 "+I[Hello World, 140, 1970-01-01T00:02:20, 18, 3, 3, 21]\n"
                 "+I[Hello World, 150, 1970-01-01T00:02:30, 8, 4, 4, 29]\n"
                 "+I[Hello World, 200, 1970-01-01T00:03:20, 20, 5, 5, 49]\n");
    capture_clear(f.cap);
    feed(&f, ROWS_AFTER, &wm);
    wop_input_watermark(f.op, 0, INT64_MAX);
    CHECK_CORPUS(f.cap->text.buf, "+I[Hello World, 202, 1970-01-01T00:03:22, 20, 6, 6, 69]\n");
    fix_close(&f);
}

/* Rows of one time: RANGE gives all of them the same value, ROWS one row at a time; rows wait
   until the watermark reaches their time. */
WTEST(over_agg_peers_rows_vs_range)
{
    Fix f;
    fix_open(&f, false, true, 0);
    feed(&f, "+I,10,1,1,k\n+I,10,2,2,k\n+I,11,4,3,k\n", NULL);
    CHECK_STR(f.cap->text.buf, "");
    feed(&f, "WM,10\n", NULL);
    CHECK_STR(f.cap->text.buf,
              "+I[10, 1, 1, k, 1970-01-01T00:00:10, 2, 3]\n"
              "+I[10, 2, 2, k, 1970-01-01T00:00:10, 2, 3]\n");
    capture_clear(f.cap);
    feed(&f, "WM,11\n", NULL);
    CHECK_STR(f.cap->text.buf, "+I[11, 4, 3, k, 1970-01-01T00:00:11, 3, 7]\n");
    fix_close(&f);

    fix_open(&f, true, true, 0);
    feed(&f, "+I,11,4,3,k\n+I,10,1,1,k\n+I,10,2,2,k\nWM,20\n", NULL);
    CHECK_STR(f.cap->text.buf,
              "+I[10, 1, 1, k, 1970-01-01T00:00:10, 1, 1]\n"
              "+I[10, 2, 2, k, 1970-01-01T00:00:10, 2, 3]\n"
              "+I[11, 4, 3, k, 1970-01-01T00:00:11, 3, 7]\n");
    fix_close(&f);
}

/* MAX over a bounded frame needs the retractable MAX; NULL arguments are ignored; no keys. */
WTEST(over_agg_max_retract_and_global)
{
    Fix f;
    fix_open_aggs(&f, true, false, 1, false, 0, call(WAGG_MAX, 1, &WTYPE_BIGINT),
                  call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN));
    feed(&f, "+I,1,9,0,x\n+I,2,3,0,y\n+I,3,null,0,x\n+I,4,5,0,z\nWM,10\n", NULL);
    CHECK_STR(f.cap->text.buf,
              "+I[1, 9, 0, x, 1970-01-01T00:00:01, 9, 1]\n"
              "+I[2, 3, 0, y, 1970-01-01T00:00:02, 9, 2]\n"
              "+I[3, null, 0, x, 1970-01-01T00:00:03, 3, 2]\n"
              "+I[4, 5, 0, z, 1970-01-01T00:00:04, 5, 2]\n");
    fix_close(&f);
}

/* Processing time: unbounded emits at once; RANGE groups the rows of one millisecond. */
WTEST(over_agg_proctime)
{
    Fix f;
    fix_open_aggs(&f, false, true, 0, true, 1, call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN),
                  call(WAGG_SUM, 1, &WTYPE_BIGINT));
    feed(&f, "+I,0,1,0,k\n+I,0,2,0,k\n", NULL);
    CHECK_STR(f.cap->text.buf,
              "+I[0, 1, 0, k, 1970-01-01T00:00, 1, 1]\n"
              "+I[0, 2, 0, k, 1970-01-01T00:00, 2, 3]\n");
    fix_close(&f);

    fix_open_aggs(&f, false, false, 1000, true, 1, call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN),
                  call(WAGG_SUM, 1, &WTYPE_BIGINT));
    f.env.now = 5000;
    feed(&f, "+I,0,1,0,k\n+I,0,2,0,k\n", NULL);
    CHECK_STR(f.cap->text.buf, "");
    f.env.now = 5500;
    feed(&f, "+I,0,4,0,k\n", NULL);
    CHECK_STR(f.cap->text.buf,
              "+I[0, 1, 0, k, 1970-01-01T00:00, 2, 3]\n"
              "+I[0, 2, 0, k, 1970-01-01T00:00, 2, 3]\n");
    capture_clear(f.cap);
    f.env.now = 6600;                       /* 5000 leaves the 1 s frame of 6600 */
    feed(&f, "+I,0,8,0,k\n", NULL);
    CHECK_STR(f.cap->text.buf, "+I[0, 4, 0, k, 1970-01-01T00:00, 3, 7]\n");
    capture_clear(f.cap);
    wop_input_end(f.op, 0);
    /* the cleanup timer (5500 + 1 s + 1 ms) cleared the key: 5500 is outside 6600's frame */
    CHECK_STR(f.cap->text.buf, "+I[0, 8, 0, k, 1970-01-01T00:00, 1, 8]\n");
    fix_close(&f);

    fix_open_aggs(&f, true, false, 1, true, 1, call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN),
                  call(WAGG_SUM, 1, &WTYPE_BIGINT));
    feed(&f, "+I,0,1,0,k\n+I,0,2,0,k\n+I,0,4,0,k\n", NULL);
    CHECK_STR(f.cap->text.buf,
              "+I[0, 1, 0, k, 1970-01-01T00:00, 1, 1]\n"
              "+I[0, 2, 0, k, 1970-01-01T00:00, 2, 3]\n"
              "+I[0, 4, 0, k, 1970-01-01T00:00, 2, 6]\n");
    fix_close(&f);
}

WTEST(over_agg_rejects_retractions)
{
    Fix f;
    fix_open(&f, false, true, 0);
    feed(&f, "-D,1,1,1,k\n", NULL);
    CHECK(f.env.err.set);
    CHECK(strstr(f.env.err.msg, "OverAggregate doesn't support consuming update and delete changes") != NULL);
    fix_close(&f);
}
