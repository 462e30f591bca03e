/* test_dedup.c — Deduplicate operator (exec/dedup.c): Flink's proctime/rowtime keep-first/last
   changelogs, TTL, NULL keys, changelog input, insert-only rowtime keep-first, conformance cases
   dedup__deduplicate-asc-proctime / -asc / -desc translated by hand. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"

#include <stdlib.h>
#include <string.h>

static const WType *ORDER_T[4] = {&WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_STRING, &WTYPE_BIGINT};
static const int PRODUCT_KEY[1] = {2};

typedef struct Fix {
    TestEnv env;
    WOperator *op;
    Capture *cap;
} Fix;

static void fix_open(Fix *f, WDedupSpec spec)
{
    test_env_init(&f->env);
    f->op = wop_dedup_new(&f->env.ctx, &spec);
    f->cap = capture_new(&f->env, spec.in_ncols, spec.in_types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
}

static WDedupSpec order_spec(bool keep_last, bool rowtime)
{
    WDedupSpec s = {.in_ncols = 4, .in_types = ORDER_T, .nkeys = 1, .keys = PRODUCT_KEY,
                    .keep_last = keep_last, .rowtime = rowtime, .time_col = 3,
                    .generate_update_before = true};
    return s;
}

static const char *ORDERS_1 =
    "+I,1,terry,pen,1000\n+I,2,alice,pen,2000\n+I,3,bob,pen,3000\n+I,4,bob,apple,4000\n"
    "+I,5,fish,apple,5000\n";
static const char *ORDERS_2 =
    "+I,6,jerry,pen,6000\n+I,7,larry,apple,7000\n+I,8,bill,banana,8000\n+I,9,carol,apple,9000\n";

WTEST(dedup_conformance_asc_proctime)
{
    Fix f;
    WDedupSpec s = order_spec(false, false);
    s.generate_insert_only = true;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, ORDER_T, ORDERS_1);
    CHECK_STR(f.cap->text.buf, "+I[1, terry, pen, 1000]\n+I[4, bob, apple, 4000]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 4, ORDER_T, ORDERS_2);
    CHECK_STR(f.cap->text.buf, "+I[8, bill, banana, 8000]\n");
    CHECK(!f.env.err.set);
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "deduplicateState.entries=3") != NULL);
    CHECK(strstr(m, "ttlExpiredRecords=0") != NULL);
    fix_close(&f);
}

WTEST(dedup_conformance_asc_rowtime)
{
    Fix f;
    fix_open(&f, order_spec(false, true));
    push_text_rows(&f.env, f.op, 4, ORDER_T, ORDERS_1);
    push_text_rows(&f.env, f.op, 4, ORDER_T, ORDERS_2);
    CHECK_STR(f.cap->text.buf,
              "+I[1, terry, pen, 1000]\n+I[4, bob, apple, 4000]\n+I[8, bill, banana, 8000]\n");
    fix_close(&f);
}

WTEST(dedup_conformance_desc_rowtime)
{
    Fix f;
    fix_open(&f, order_spec(true, true));
    push_text_rows(&f.env, f.op, 4, ORDER_T, ORDERS_1);
    CHECK_STR(f.cap->text.buf,
              "+I[1, terry, pen, 1000]\n-U[1, terry, pen, 1000]\n+U[2, alice, pen, 2000]\n"
              "-U[2, alice, pen, 2000]\n+U[3, bob, pen, 3000]\n+I[4, bob, apple, 4000]\n"
              "-U[4, bob, apple, 4000]\n+U[5, fish, apple, 5000]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 4, ORDER_T, ORDERS_2);
    CHECK_STR(f.cap->text.buf,
              "-U[3, bob, pen, 3000]\n+U[6, jerry, pen, 6000]\n-U[5, fish, apple, 5000]\n"
              "+U[7, larry, apple, 7000]\n+I[8, bill, banana, 8000]\n-U[7, larry, apple, 7000]\n"
              "+U[9, carol, apple, 9000]\n");
    fix_close(&f);
}

WTEST(dedup_rowtime_keep_first_out_of_order)
{
    /* a row with an earlier time replaces the kept one; an equal time does not */
    Fix f;
    fix_open(&f, order_spec(false, true));
    push_text_rows(&f.env, f.op, 4, ORDER_T,
              "+I,1,a,pen,5000\n+I,2,b,pen,5000\n+I,3,c,pen,3000\n+I,4,d,pen,9000\n");
    CHECK_STR(f.cap->text.buf,
              "+I[1, a, pen, 5000]\n-U[1, a, pen, 5000]\n+U[3, c, pen, 3000]\n");
    fix_close(&f);
}

WTEST(dedup_rowtime_keep_last_equal_time_and_late)
{
    /* keep-last keeps a row with an equal time (<=) and ignores an older one */
    Fix f;
    WDedupSpec s = order_spec(true, true);
    s.generate_update_before = false;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, ORDER_T,
              "+I,1,a,pen,5000\n+I,2,b,pen,5000\n+I,3,c,pen,3000\n");
    CHECK_STR(f.cap->text.buf, "+I[1, a, pen, 5000]\n+U[2, b, pen, 5000]\n");
    fix_close(&f);
}

WTEST(dedup_rowtime_timestamp_column)
{
    WArena *a = warena_new(0);
    const WType *ts = wtype_timestamp(a, WT_TIMESTAMP, 3, true);
    const WType *tys[2] = {&WTYPE_STRING, ts};
    int key[1] = {0};
    WDedupSpec s = {.in_ncols = 2, .in_types = tys, .nkeys = 1, .keys = key, .keep_last = true,
                    .rowtime = true, .time_col = 1, .generate_update_before = true};
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 2, tys,
              "+I,k,2020-10-10 00:00:05\n+I,k,2020-10-10 00:00:01\n+I,k,2020-10-10 00:01:00\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 2020-10-10T00:00:05]\n-U[k, 2020-10-10T00:00:05]\n+U[k, 2020-10-10T00:01]\n");
    fix_close(&f);
    warena_delete(a);
}

WTEST(dedup_proctime_keep_last)
{
    Fix f;
    fix_open(&f, order_spec(true, false));
    push_text_rows(&f.env, f.op, 4, ORDER_T,
              "+I,1,a,pen,1\n+I,2,b,pen,2\n+I,2,b,pen,2\n+I,3,c,apple,3\n");
    /* the identical row (2,b,pen,2) emits nothing without TTL */
    CHECK_STR(f.cap->text.buf,
              "+I[1, a, pen, 1]\n-U[1, a, pen, 1]\n+U[2, b, pen, 2]\n+I[3, c, apple, 3]\n");
    fix_close(&f);
}

WTEST(dedup_proctime_keep_last_no_update_before)
{
    Fix f;
    WDedupSpec s = order_spec(true, false);
    s.generate_update_before = false;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,1,a,pen,1\n+I,2,b,pen,2\n");
    CHECK_STR(f.cap->text.buf, "+I[1, a, pen, 1]\n+U[2, b, pen, 2]\n");
    fix_close(&f);
}

WTEST(dedup_proctime_keep_last_ttl_reemits_identical_and_expires)
{
    Fix f;
    WDedupSpec s = order_spec(true, false);
    s.ttl_ms = 1000;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,1,a,pen,1\n+I,1,a,pen,1\n");
    /* with TTL enabled the identical row is re-emitted as -U/+U */
    CHECK_STR(f.cap->text.buf, "+I[1, a, pen, 1]\n-U[1, a, pen, 1]\n+U[1, a, pen, 1]\n");
    capture_clear(f.cap);
    f.env.now += 1000;              /* state expired: the next row is a first row again */
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,2,b,pen,2\n");
    CHECK_STR(f.cap->text.buf, "+I[2, b, pen, 2]\n");
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    /* the heap backend's incremental cleanup may drop the entry before the lookup sees it */
    CHECK(strstr(m, "ttlExpiredRecords=") != NULL);
    fix_close(&f);
}

WTEST(dedup_proctime_keep_first_ttl_expiry)
{
    Fix f;
    WDedupSpec s = order_spec(false, false);
    s.ttl_ms = 500;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,1,a,pen,1\n");
    f.env.now += 499;
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,2,b,pen,2\n");
    f.env.now += 1;                 /* 500 ms after the first (and only) write */
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,3,c,pen,3\n");
    CHECK_STR(f.cap->text.buf, "+I[1, a, pen, 1]\n+I[3, c, pen, 3]\n");
    fix_close(&f);
}

WTEST(dedup_null_key_is_its_own_group)
{
    const WType *tys[2] = {&WTYPE_STRING, &WTYPE_STRING};
    int key[1] = {0};
    WDedupSpec s = {.in_ncols = 2, .in_types = tys, .nkeys = 1, .keys = key};
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 2, tys, "+I,null,login\n+I,Vas,click\n+I,null,click\n");
    CHECK_STR(f.cap->text.buf, "+I[null, login]\n+I[Vas, click]\n");
    fix_close(&f);
}

WTEST(dedup_no_partition_key_keeps_one_row)
{
    const WType *tys[2] = {&WTYPE_STRING, &WTYPE_STRING};
    WDedupSpec s = {.in_ncols = 2, .in_types = tys, .nkeys = 0};
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 2, tys, "+I,Vas,login\n+I,Alice,click\n+I,Bob,view\n");
    CHECK_STR(f.cap->text.buf, "+I[Vas, login]\n");
    fix_close(&f);
}

WTEST(dedup_retraction_on_insert_only_input_is_an_error)
{
    Fix f;
    fix_open(&f, order_spec(false, false));
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,1,a,pen,1\n-D,1,a,pen,1\n+I,2,b,apple,2\n");
    CHECK(f.env.err.set);
    CHECK(strstr(f.env.err.msg, "insert-only") != NULL);
    CHECK_STR(f.cap->text.buf, "+I[1, a, pen, 1]\n");
    fix_close(&f);
}

WTEST(dedup_keep_last_changelog_input)
{
    Fix f;
    WDedupSpec s = order_spec(true, false);
    s.input_retracts = true;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, ORDER_T,
              "+I,1,a,pen,1\n+U,2,b,pen,2\n-U,9,x,pen,9\n-D,5,q,apple,5\n+U,3,c,pen,3\n");
    CHECK_STR(f.cap->text.buf,
              "+I[1, a, pen, 1]\n-U[1, a, pen, 1]\n+U[2, b, pen, 2]\n-D[2, b, pen, 2]\n"
              "+I[3, c, pen, 3]\n");
    CHECK(!f.env.err.set);
    fix_close(&f);
}

WTEST(dedup_rowtime_insert_only_keep_first_on_watermark)
{
    Fix f;
    WDedupSpec s = order_spec(false, true);
    s.generate_insert_only = true;
    fix_open(&f, s);
    wop_input_watermark(f.op, 0, 50);
    push_text_rows(&f.env, f.op, 4, ORDER_T,
              "+I,0,late,pen,1\n+I,1,a,pen,101\n+I,2,b,pen,99\n+I,3,c,pen,99\n+I,4,d,pen,100\n");
    CHECK_STR(f.cap->text.buf, "");
    CHECK_INT(f.op->late_dropped, 1);
    wop_input_watermark(f.op, 0, 99);
    CHECK_STR(f.cap->text.buf, "+I[2, b, pen, 99]\n");
    CHECK_INT(f.cap->last_wm, 99);
    push_text_rows(&f.env, f.op, 4, ORDER_T, "+I,5,e,pen,120\n");
    wop_input_watermark(f.op, 0, 200);
    CHECK_STR(f.cap->text.buf, "+I[2, b, pen, 99]\n");
    fix_close(&f);
}

WTEST(dedup_large_input_spans_chunks)
{
    /* more output rows than one chunk holds: everything flushed in order */
    const WType *tys[2] = {&WTYPE_BIGINT, &WTYPE_STRING};
    int key[1] = {0};
    WDedupSpec s = {.in_ncols = 2, .in_types = tys, .nkeys = 1, .keys = key};
    Fix f;
    test_env_init(&f.env);
    f.env.ctx.chunk_rows = 4;
    f.op = wop_dedup_new(&f.env.ctx, &s);
    f.cap = capture_new(&f.env, 2, tys);
    wop_connect(f.op, &f.cap->base, 0);
    WChunk *c = wchunk_new(2, tys, 10);
    for (int i = 0; i < 10; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[r].i = i % 7;
        c->cols[1].data[r].s = (WStr){"xyzxyzxyzxyz", 12};
    }
    wop_push(f.op, 0, c);
    CHECK_INT(f.cap->rows, 7);
    CHECK(strncmp(f.cap->text.buf, "+I[0, xyzxyzxyzxyz]\n+I[1, ", 26) == 0);
    wchunk_free(c);
    fix_close(&f);
}

WTEST(dedup_invalid_spec_is_an_error_not_a_crash)
{
    static const int BAD[1] = {9};
    WDedupSpec s = order_spec(true, false);
    s.keys = BAD;
    Fix f;
    fix_open(&f, s);
    CHECK(f.env.err.set);
    fix_close(&f);
}
