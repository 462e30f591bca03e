/* test_rank.c — Rank operator (exec/rank.c, rank_retract.c): Flink's AppendOnlyFirstN, FastTop1,
   AppendOnlyTopN, UpdatableTopN and RetractableTopN changelogs with and without the rank number,
   offsets, retractions inside/outside the top N, unknown retractions, TTL, NULL sort keys, the
   unsupported RANK/DENSE_RANK; conformance cases rank__* translated by hand. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"

#include <stdlib.h>
#include <string.h>

typedef struct Fix {
    TestEnv env;
    WOperator *op;
    Capture *cap;
    const WType *otypes[9];
} Fix;

static void fix_open(Fix *f, WRankSpec s)
{
    test_env_init(&f->env);
    f->op = wop_rank_new(&f->env.ctx, &s);
    int n = s.in_ncols;
    for (int i = 0; i < n; i++) f->otypes[i] = s.in_types[i];
    if (s.output_rank_number) f->otypes[n++] = &WTYPE_BIGINT_NN;
    f->cap = capture_new(&f->env, n, f->otypes);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
}

/* (k STRING, v INT) partitioned by k, ordered by v ASC */
static const WType *KV_T[2] = {&WTYPE_STRING, &WTYPE_INT};
static const int K0[1] = {0};
static const WSortKey V_ASC[1] = {{.col = 1, .desc = false, .nulls_first = true}};

static WRankSpec kv_spec(WRankStrategy strat, int64_t start, int64_t end, bool rank_number)
{
    WRankSpec s = {.in_ncols = 2, .in_types = KV_T, .nkeys = 1, .keys = K0, .nsort = 1,
                   .sort = V_ASC, .func = WRANK_ROW_NUMBER, .strategy = strat, .rank_start = start,
                   .rank_end = end, .output_rank_number = rank_number,
                   .input_retracts = strat == WRANK_RETRACT, .generate_update_before = true};
    return s;
}

/* ---- conformance: rank-test-* (a INT, b VARCHAR, c INT), PARTITION BY b ORDER BY c, top 1;
   Flink removes the constant rank column (c = 1) from the Rank node ---- */

static const WType *ABC_T[3] = {&WTYPE_INT, &WTYPE_STRING, &WTYPE_INT};
static const int B1[1] = {1};
static const WSortKey C_ASC[1] = {{.col = 2, .desc = false, .nulls_first = true}};
static const char *ABC_1 = "+I,2,a,6\n+I,4,b,8\n+I,6,c,10\n+I,1,a,5\n+I,3,b,7\n+I,5,c,9\n";
static const char *ABC_2 = "+I,4,d,7\n+I,3,e,8\n";

static WRankSpec abc_spec(WRankStrategy strat)
{
    WRankSpec s = {.in_ncols = 3, .in_types = ABC_T, .nkeys = 1, .keys = B1, .nsort = 1,
                   .sort = C_ASC, .func = WRANK_ROW_NUMBER, .strategy = strat, .rank_start = 1,
                   .rank_end = 1, .input_retracts = strat == WRANK_RETRACT,
                   .generate_update_before = true};
    return s;
}

WTEST(rank_conformance_append_fast_top1)
{
    Fix f;
    fix_open(&f, abc_spec(WRANK_APPEND_FAST));
    push_text_rows(&f.env, f.op, 3, ABC_T, ABC_1);
    CHECK_STR(f.cap->text.buf,
              "+I[2, a, 6]\n+I[4, b, 8]\n+I[6, c, 10]\n-U[2, a, 6]\n+U[1, a, 5]\n-U[4, b, 8]\n"
              "+U[3, b, 7]\n-U[6, c, 10]\n+U[5, c, 9]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 3, ABC_T, ABC_2);
    CHECK_STR(f.cap->text.buf, "+I[4, d, 7]\n+I[3, e, 8]\n");
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "rankState.entries=5") != NULL);
    fix_close(&f);
}

WTEST(rank_conformance_retract_top1)
{
    Fix f;
    fix_open(&f, abc_spec(WRANK_RETRACT));
    push_text_rows(&f.env, f.op, 3, ABC_T, ABC_1);
    CHECK_STR(f.cap->text.buf,
              "+I[2, a, 6]\n+I[4, b, 8]\n+I[6, c, 10]\n-D[2, a, 6]\n+I[1, a, 5]\n-D[4, b, 8]\n"
              "+I[3, b, 7]\n-D[6, c, 10]\n+I[5, c, 9]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 3, ABC_T, ABC_2);
    CHECK_STR(f.cap->text.buf, "+I[4, d, 7]\n+I[3, e, 8]\n");
    fix_close(&f);
}

WTEST(rank_conformance_update_fast)
{
    /* input: SELECT a, b, COUNT(*) ... GROUP BY a, b (upsert key a, b); PARTITION BY b ORDER BY
       count_c DESC, a ASC; row_num <= 10 */
    static const WType *T[3] = {&WTYPE_INT, &WTYPE_STRING, &WTYPE_BIGINT};
    static const int UK[2] = {0, 1};
    static const WSortKey S[2] = {{.col = 2, .desc = true, .nulls_first = false},
                                  {.col = 0, .desc = false, .nulls_first = true}};
    WRankSpec s = {.in_ncols = 3, .in_types = T, .nkeys = 1, .keys = B1, .nsort = 2, .sort = S,
                   .func = WRANK_ROW_NUMBER, .strategy = WRANK_UPDATE_FAST, .rank_start = 1,
                   .rank_end = 10, .output_rank_number = true, .nuk = 2, .uk = UK,
                   .generate_update_before = true};
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 3, T, "+I,2,a,1\n+I,4,b,1\n+I,6,c,1\n+I,1,a,1\n+I,3,b,1\n+I,5,c,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[2, a, 1, 1]\n+I[4, b, 1, 1]\n+I[6, c, 1, 1]\n-U[2, a, 1, 1]\n+U[1, a, 1, 1]\n"
              "+I[2, a, 1, 2]\n-U[4, b, 1, 1]\n+U[3, b, 1, 1]\n+I[4, b, 1, 2]\n-U[6, c, 1, 1]\n"
              "+U[5, c, 1, 1]\n+I[6, c, 1, 2]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 3, T, "+I,4,d,1\n+I,0,a,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[4, d, 1, 1]\n-U[1, a, 1, 1]\n+U[0, a, 1, 1]\n-U[2, a, 1, 2]\n+U[1, a, 1, 2]\n"
              "+I[2, a, 1, 3]\n");
    /* an update moving a row up: rows in between shift down */
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 3, T, "+U,2,a,2\n");
    CHECK_STR(f.cap->text.buf,
              "-U[0, a, 1, 1]\n-U[2, a, 1, 3]\n+U[2, a, 2, 1]\n-U[1, a, 1, 2]\n+U[0, a, 1, 2]\n"
              "+U[1, a, 1, 3]\n");
    /* same sort key, same row key: updated in place */
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 3, T, "+U,2,a,2\n");
    CHECK_STR(f.cap->text.buf, "-U[2, a, 2, 1]\n+U[2, a, 2, 1]\n");
    fix_close(&f);
}

WTEST(rank_conformance_first_n_proctime)
{
    WArena *a = warena_new(0);
    const WType *pt = wtype_with_time_attr(a, wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, false), WTA_PROCTIME);
    const WType *T[4] = {&WTYPE_STRING, &WTYPE_INT, &WTYPE_INT, pt};
    static const int A0[1] = {0};
    static const WSortKey S[1] = {{.col = 3, .desc = false, .nulls_first = true}};
    WRankSpec s = {.in_ncols = 4, .in_types = T, .nkeys = 1, .keys = A0, .nsort = 1, .sort = S,
                   .func = WRANK_ROW_NUMBER, .strategy = WRANK_APPEND_FAST, .rank_start = 1,
                   .rank_end = 2, .output_rank_number = true};
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 4, T,
              "+I,book,1,12,null\n+I,book,2,19,null\n+I,book,4,11,null\n+I,fruit,4,33,null\n");
    CHECK_STR(f.cap->text.buf,
              "+I[book, 1, 12, null, 1]\n+I[book, 2, 19, null, 2]\n+I[fruit, 4, 33, null, 1]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 4, T,
              "+I,cereal,6,21,null\n+I,cereal,7,23,null\n+I,apple,8,31,null\n+I,fruit,9,41,null\n");
    CHECK_STR(f.cap->text.buf,
              "+I[cereal, 6, 21, null, 1]\n+I[cereal, 7, 23, null, 2]\n+I[apple, 8, 31, null, 1]\n"
              "+I[fruit, 9, 41, null, 2]\n");
    fix_close(&f);
    warena_delete(a);
}

/* ---- AppendOnlyTopN ---- */

WTEST(rank_append_with_row_number_shifts)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_APPEND_FAST, 1, 3, true));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,5\n+I,k,3\n+I,k,4\n+I,k,1\n+I,k,6\n+I,k,4\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 5, 1]\n-U[k, 5, 1]\n+U[k, 3, 1]\n+I[k, 5, 2]\n-U[k, 5, 2]\n+U[k, 4, 2]\n"
              "+I[k, 5, 3]\n-U[k, 3, 1]\n+U[k, 1, 1]\n-U[k, 4, 2]\n+U[k, 3, 2]\n-U[k, 5, 3]\n"
              "+U[k, 4, 3]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,2\n+I,j,9\n");
    CHECK_STR(f.cap->text.buf,
              "-U[k, 3, 2]\n+U[k, 2, 2]\n-U[k, 4, 3]\n+U[k, 3, 3]\n+I[j, 9, 1]\n");
    fix_close(&f);
}

WTEST(rank_append_without_row_number)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_APPEND_FAST, 1, 2, false));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,5\n+I,k,3\n+I,k,4\n+I,k,1\n+I,k,6\n+I,k,3\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 5]\n+I[k, 3]\n-D[k, 5]\n+I[k, 4]\n-D[k, 4]\n+I[k, 1]\n");
    fix_close(&f);
}

WTEST(rank_append_offset_without_rank_column)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_APPEND_FAST, 2, 3, false));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,5\n+I,k,3\n+I,k,4\n");
    CHECK_STR(f.cap->text.buf, "+I[k, 5]\n-U[k, 5]\n+U[k, 4]\n+I[k, 5]\n");
    fix_close(&f);
}

WTEST(rank_append_ties_keep_arrival_order)
{
    static const WType *T[3] = {&WTYPE_STRING, &WTYPE_INT, &WTYPE_STRING};
    WRankSpec s = kv_spec(WRANK_APPEND_FAST, 1, 2, true);
    s.in_ncols = 3;
    s.in_types = T;
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 3, T, "+I,k,1,a\n+I,k,1,b\n+I,k,1,c\n+I,k,0,d\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 1, a, 1]\n+I[k, 1, b, 2]\n-U[k, 1, a, 1]\n+U[k, 0, d, 1]\n-U[k, 1, b, 2]\n"
              "+U[k, 1, a, 2]\n");
    fix_close(&f);
}

WTEST(rank_null_sort_keys_and_desc)
{
    static const WSortKey S[1] = {{.col = 1, .desc = true, .nulls_first = false}};
    WRankSpec s = kv_spec(WRANK_APPEND_FAST, 1, 3, true);
    s.sort = S;
    Fix f;
    fix_open(&f, s);
    /* DESC NULLS LAST: 7, 2, null */
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,null\n+I,k,2\n+I,k,7\n+I,null,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, null, 1]\n-U[k, null, 1]\n+U[k, 2, 1]\n+I[k, null, 2]\n-U[k, 2, 1]\n"
              "+U[k, 7, 1]\n-U[k, null, 2]\n+U[k, 2, 2]\n+I[k, null, 3]\n+I[null, 1, 1]\n");
    fix_close(&f);
}

/* ---- FastTop1 ---- */

WTEST(rank_top1_with_rank_number_and_ttl)
{
    WRankSpec s = kv_spec(WRANK_APPEND_FAST, 1, 1, true);
    s.ttl_ms = 100;
    s.generate_update_before = false;
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,5\n+I,k,5\n+I,k,3\n+I,k,4\n");
    CHECK_STR(f.cap->text.buf, "+I[k, 5, 1]\n+U[k, 3, 1]\n");
    capture_clear(f.cap);
    f.env.now += 100;
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,9\n");
    CHECK_STR(f.cap->text.buf, "+I[k, 9, 1]\n");
    fix_close(&f);
}

WTEST(rank_append_drops_retractions)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_APPEND_FAST, 1, 2, false));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,5\n-D,k,5\n-U,k,5\n");
    CHECK_STR(f.cap->text.buf, "+I[k, 5]\n");
    CHECK(!f.env.err.set);
    fix_close(&f);
}

/* ---- UpdatableTopN without rank number ---- */

WTEST(rank_update_fast_without_row_number)
{
    static const WType *T[3] = {&WTYPE_INT, &WTYPE_STRING, &WTYPE_BIGINT};
    static const int UK[1] = {0};
    static const WSortKey S[1] = {{.col = 2, .desc = true, .nulls_first = false}};
    WRankSpec s = {.in_ncols = 3, .in_types = T, .nkeys = 1, .keys = B1, .nsort = 1, .sort = S,
                   .func = WRANK_ROW_NUMBER, .strategy = WRANK_UPDATE_FAST, .rank_start = 1,
                   .rank_end = 2, .nuk = 1, .uk = UK, .generate_update_before = true};
    Fix f;
    fix_open(&f, s);
    push_text_rows(&f.env, f.op, 3, T, "+I,1,x,1\n+I,2,x,1\n+I,3,x,5\n+U,1,x,7\n+I,4,x,0\n");
    CHECK_STR(f.cap->text.buf,
              "+I[1, x, 1]\n+I[2, x, 1]\n-D[2, x, 1]\n+I[3, x, 5]\n-U[1, x, 1]\n+U[1, x, 7]\n");
    fix_close(&f);
}

/* ---- RetractableTopN ---- */

WTEST(rank_retract_with_row_number)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_RETRACT, 1, 2, true));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,3\n+I,k,1\n+I,k,2\n-D,k,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 3, 1]\n-U[k, 3, 1]\n+U[k, 1, 1]\n+I[k, 3, 2]\n-U[k, 3, 2]\n+U[k, 2, 2]\n"
              "-U[k, 1, 1]\n+U[k, 2, 1]\n-U[k, 2, 2]\n+U[k, 3, 2]\n");
    capture_clear(f.cap);
    /* unknown retraction: nothing; a row outside the top N comes and goes silently */
    push_text_rows(&f.env, f.op, 2, KV_T, "-D,k,5\n+I,k,9\n-U,k,9\n");
    CHECK_STR(f.cap->text.buf, "");
    push_text_rows(&f.env, f.op, 2, KV_T, "-D,k,2\n");
    CHECK_STR(f.cap->text.buf, "-U[k, 2, 1]\n+U[k, 3, 1]\n-D[k, 3, 2]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 2, KV_T, "-D,k,3\n");
    CHECK_STR(f.cap->text.buf, "-D[k, 3, 1]\n");
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "rankState.entries=0") != NULL);
    CHECK(!f.env.err.set);
    fix_close(&f);
}

WTEST(rank_retract_without_row_number)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_RETRACT, 1, 2, false));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,3\n+I,k,1\n+I,k,2\n-D,k,1\n-D,k,2\n-D,k,3\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 3]\n+I[k, 1]\n-D[k, 3]\n+I[k, 2]\n-D[k, 1]\n+I[k, 3]\n-D[k, 2]\n-D[k, 3]\n");
    fix_close(&f);
}

WTEST(rank_retract_duplicates_and_update_pairs)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_RETRACT, 1, 2, false));
    /* two identical rows: retracting one keeps the other; -U/+U of an upstream update */
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,4\n+I,k,4\n-U,k,4\n+U,k,2\n");
    CHECK_STR(f.cap->text.buf, "+I[k, 4]\n+I[k, 4]\n-D[k, 4]\n+I[k, 2]\n");
    fix_close(&f);
}

WTEST(rank_retract_offset_range)
{
    Fix f;
    fix_open(&f, kv_spec(WRANK_RETRACT, 2, 2, true));
    push_text_rows(&f.env, f.op, 2, KV_T, "+I,k,5\n+I,k,3\n+I,k,1\n-D,k,3\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 5, 2]\n-U[k, 5, 2]\n+U[k, 3, 2]\n-U[k, 3, 2]\n+U[k, 5, 2]\n");
    fix_close(&f);
}

/* ---- errors ---- */

WTEST(rank_rank_and_dense_rank_unsupported)
{
    Fix f;
    WRankSpec s = kv_spec(WRANK_RETRACT, 1, 2, true);
    s.func = WRANK_RANK;
    fix_open(&f, s);
    CHECK(f.env.err.set);
    CHECK_STR(f.env.err.msg, "RANK() on streaming table is not supported currently");
    fix_close(&f);
    s.func = WRANK_DENSE_RANK;
    fix_open(&f, s);
    CHECK_STR(f.env.err.msg, "DENSE_RANK() on streaming table is not supported currently");
    fix_close(&f);
}

WTEST(rank_many_keys_and_big_n)
{
    /* 300 partitions x 40 rows, top 25 with row numbers: every partition ends with 25 rows */
    Fix f;
    fix_open(&f, kv_spec(WRANK_APPEND_FAST, 1, 25, true));
    WChunk *c = wchunk_new(2, KV_T, 2048);
    char keys[300][8];
    for (int i = 0; i < 300; i++) snprintf(keys[i], sizeof keys[i], "p%d", i);
    for (int round = 0; round < 6; round++) {
        wchunk_reset(c);
        for (int i = 0; i < 2000; i++) {
            int g = round * 2000 + i;
            int r = wchunk_add_row(c, WRK_INSERT);
            int p = g % 300;
            c->cols[0].data[r].s = (WStr){keys[p], (int32_t)strlen(keys[p])};
            c->cols[1].data[r].i = (g * 7919) % 1000;
        }
        wop_push(f.op, 0, c);
    }
    CHECK(!f.env.err.set);
    CHECK(f.cap->rows > 300 * 25);
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "rankState.entries=300") != NULL);
    wchunk_free(c);
    fix_close(&f);
}

WTEST(rank_invalid_spec_is_an_error_not_a_crash)
{
    static const WSortKey BAD[1] = {{.col = 7}};
    WRankSpec s = kv_spec(WRANK_APPEND_FAST, 1, 2, true);
    s.sort = BAD;
    Fix f;
    fix_open(&f, s);
    CHECK(f.env.err.set);
    fix_close(&f);
    s = kv_spec(WRANK_UPDATE_FAST, 1, 3, true);      /* UpdateFast without a unique key */
    fix_open(&f, s);
    CHECK(f.env.err.set);
    fix_close(&f);
    s = kv_spec(WRANK_RETRACT, 3, 2, true);          /* empty rank range */
    fix_open(&f, s);
    CHECK(f.env.err.set);
    fix_close(&f);
}
