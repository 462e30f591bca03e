/* test_watermark_splits.c — the WatermarkAssigner with per-split watermarks (exec/watermark.c), as
   Flink's KafkaSource combines its partitions' watermarks (measured on Flink 2.3 against a real
   broker: tests/kafka/partition_watermarks.sh): the minimum over the active splits, finished splits
   left out, idle splits after the timeout, the largest of all when every split is idle, and the
   periodic emission. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/watermark.h"
#include "../../src/exec/insight.h"

#include <stdio.h>

#define T0 1704067200000LL      /* 2024-01-01 00:00:00 */

typedef struct WmFixture {
    TestEnv e;
    WArena *a;
    const WType *types[1];
    int nsplits, split;
    uint8_t fin[4];
    const uint8_t *finp;
    WOperator *wm;
    Capture *cap;
} WmFixture;

static void fixture(WmFixture *f, bool periodic)
{
    memset(f, 0, sizeof *f);
    test_env_init(&f->e);
    f->a = warena_new(0);
    f->types[0] = wtype_timestamp(f->a, WT_TIMESTAMP, 3, true);
    f->nsplits = 3;
    f->finp = f->fin;
    WWmConfig cfg = {.rowtime_col = 0, .splits = {&f->nsplits, &f->split, &f->finp}, .periodic = periodic,
                     .interval_ms = 200, .idle_timeout_ms = 1000};
    f->wm = wop_watermark_new(&f->e.ctx, wexpr_column(f->a, 0, f->types[0], "ts"), &cfg, 1, f->types, NULL);
    f->cap = capture_new(&f->e, 1, f->types);
    wop_connect(f->wm, &f->cap->base, 0);
}

static void rows(WmFixture *f, int split, const char *text)
{
    f->split = split;
    push_text_rows(&f->e, f->wm, 1, f->types, text);
}

static void tick(WmFixture *f) { f->wm->ops->tick(f->wm); }

static void fixture_free(WmFixture *f)
{
    wop_free(f->wm);
    capture_free(f->cap);
    warena_delete(f->a);
}

WTEST(watermark_per_split_minimum_finished_idle)
{
    WmFixture f;
    fixture(&f, false);
    rows(&f, 0, "+I,2024-01-01 00:10:00\n");     /* split 0 far ahead: splits 1 and 2 hold it back */
    CHECK(f.cap->last_wm == 0);
    rows(&f, 1, "+I,2024-01-01 00:00:05\n");
    CHECK(f.cap->last_wm == 0);
    rows(&f, 2, "+I,2024-01-01 00:00:03\n");
    CHECK(f.cap->last_wm == T0 + 3000);
    rows(&f, 1, "+I,2024-01-01 00:00:09\n");
    CHECK(f.cap->last_wm == T0 + 3000);           /* split 2 is the minimum */
    f.fin[2] = 1;                                  /* split 2 read to its end: left out */
    tick(&f);
    CHECK(f.cap->last_wm == T0 + 9000);
    CHECK(!f.cap->base.idle);
    f.e.now += 1000;                               /* no rows for the idle timeout: all idle */
    tick(&f);
    CHECK(f.cap->last_wm == T0 + 600000);          /* the largest of them (CombinedWatermarkStatus) */
    CHECK(f.cap->base.idle);
    rows(&f, 1, "+I,2024-01-01 00:10:01\n");      /* a row: split 1 active again */
    CHECK(!f.cap->base.idle);
    CHECK(f.cap->last_wm == T0 + 601000);
    CHECK(f.cap->rows == 5);
    fixture_free(&f);
}

WTEST(watermark_per_split_idle_partition_and_periodic)
{
    WmFixture f;
    fixture(&f, true);
    tick(&f);                                      /* the first tick schedules the emission */
    rows(&f, 0, "+I,2024-01-01 00:00:10\n");
    rows(&f, 1, "+I,2024-01-01 00:00:20\n");
    CHECK(f.cap->last_wm == 0);                    /* on-periodic: nothing after the rows */
    f.e.now += 200;
    tick(&f);
    CHECK(f.cap->last_wm == 0);                    /* split 2 never had a row: it holds the watermark */
    f.e.now += 700;
    rows(&f, 0, "+I,2024-01-01 00:00:15\n");
    rows(&f, 1, "+I,2024-01-01 00:00:25\n");
    f.e.now += 300;                                /* split 2 idle (1000 ms without rows), 0 and 1 not */
    tick(&f);
    CHECK(f.cap->last_wm == T0 + 15000);
    CHECK(!f.cap->base.idle);
    fixture_free(&f);
}

static void origin_label(void *ctx, int id, char *buf, size_t bufsz)
{
    (void)ctx;
    snprintf(buf, bufsz, "file /data/part-%d.csv", id);
}

/* Insight: rows at or behind the watermark already emitted are counted by their origin (the
   source's file or split of the chunk), with the most any was behind; rows ahead are not. */
WTEST(watermark_rows_behind_by_origin)
{
    WmFixture f;
    memset(&f, 0, sizeof f);
    test_env_init(&f.e);
    f.a = warena_new(0);
    f.types[0] = wtype_timestamp(f.a, WT_TIMESTAMP, 3, true);
    WWmConfig cfg = {.rowtime_col = 0, .origin = {&f.split, origin_label, NULL}};
    f.wm = wop_watermark_new(&f.e.ctx, wexpr_column(f.a, 0, f.types[0], "ts"), &cfg, 1, f.types, NULL);
    f.cap = capture_new(&f.e, 1, f.types);
    wop_connect(f.wm, &f.cap->base, 0);
    CHECK(f.wm->insight != NULL);
    rows(&f, 0, "+I,2024-01-01 00:00:10\n+I,2024-01-01 00:00:20\n");
    rows(&f, 1, "+I,2024-01-01 00:00:05\n+I,2024-01-01 00:00:30\n+I,2024-01-01 00:00:12\n");
    rows(&f, 0, "+I,2024-01-01 00:00:30\n+I,2024-01-01 00:00:31\n");
    CHECK(f.cap->last_wm == T0 + 31000);
    winsight_publish(f.wm, 1000, true);
    WInsightSnap s;
    CHECK(winsight_read(f.wm, &s));
    CHECK_INT(s.behind_total, 3);                  /* 00:05 and 00:12 (file 1), 00:30 at 00:30 (file 0) */
    CHECK_INT(s.norigins, 2);
    CHECK_STR(s.origins[0].name, "file /data/part-1.csv");
    CHECK_INT(s.origins[0].behind, 2);
    CHECK_INT(s.origins[0].behind_max_ms, 18000);  /* 00:12 behind 00:30 */
    CHECK_STR(s.origins[1].name, "file /data/part-0.csv");
    CHECK_INT(s.origins[1].behind, 1);
    CHECK_INT(s.origins[1].behind_max_ms, 0);
    CHECK(f.cap->rows == 7);                       /* counted, not dropped */
    fixture_free(&f);
}
