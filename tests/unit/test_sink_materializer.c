/* test_sink_materializer.c — SinkUpsertMaterializer (exec/sink_materializer.c): rows per sink
   key, rollback to the previous row, retractions of non-latest rows, upsert-key replacement, TTL;
   conformance case sink__insert-into-upsert-with-sink-upsert-materializer-writable-metadata. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"

#include <stdlib.h>
#include <string.h>

static const WType *ROW_T[3] = {&WTYPE_STRING, &WTYPE_BIGINT, &WTYPE_BIGINT};
static const int KEY0[1] = {0};

typedef struct Fix {
    TestEnv env;
    WOperator *op;
    Capture *cap;
} Fix;

static void fix_open(Fix *f, int nuk, const int *uk, int64_t ttl)
{
    test_env_init(&f->env);
    WSinkMaterializerSpec s = {.in_ncols = 3, .in_types = ROW_T, .nkeys = 1, .keys = KEY0,
                               .ttl_ms = ttl, .nuk = nuk, .uk = uk};
    f->op = wop_sink_materializer_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, 3, ROW_T);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
}

WTEST(sum_conformance_rollback_to_previous_row)
{
    Fix f;
    fix_open(&f, 0, NULL, 0);
    push_text_rows(&f.env, f.op, 3, ROW_T, "+I,BOB,5,5\n+I,BOB,6,6\n-D,BOB,6,6\n");
    CHECK_STR(f.cap->text.buf, "+I[BOB, 5, 5]\n+U[BOB, 6, 6]\n+U[BOB, 5, 5]\n");
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "sinkMaterializeState.entries=1") != NULL);
    fix_close(&f);
}

WTEST(sum_retract_non_latest_is_swallowed)
{
    Fix f;
    fix_open(&f, 0, NULL, 0);
    push_text_rows(&f.env, f.op, 3, ROW_T,
              "+I,a,1,1\n+U,a,2,2\n-U,a,1,1\n-D,a,2,2\n+I,a,3,3\n-D,a,3,3\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 1, 1]\n+U[a, 2, 2]\n-D[a, 2, 2]\n+I[a, 3, 3]\n-D[a, 3, 3]\n");
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "sinkMaterializeState.entries=0") != NULL);
    fix_close(&f);
}

WTEST(sum_duplicates_and_unknown_retractions)
{
    Fix f;
    fix_open(&f, 0, NULL, 0);
    /* two identical rows: retracting one keeps the other (the
       first one is removed silently); a retraction of a row never seen is dropped */
    push_text_rows(&f.env, f.op, 3, ROW_T,
              "+I,a,1,1\n+I,a,1,1\n-D,a,9,9\n-D,b,1,1\n-D,a,1,1\n-D,a,1,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 1, 1]\n+U[a, 1, 1]\n-D[a, 1, 1]\n");
    CHECK(!f.env.err.set);
    fix_close(&f);
}

WTEST(sum_middle_of_three)
{
    Fix f;
    fix_open(&f, 0, NULL, 0);
    push_text_rows(&f.env, f.op, 3, ROW_T, "+I,k,1,0\n+I,k,2,0\n+I,k,3,0\n-D,k,2,0\n-D,k,3,0\n-D,k,1,0\n");
    CHECK_STR(f.cap->text.buf,
              "+I[k, 1, 0]\n+U[k, 2, 0]\n+U[k, 3, 0]\n+U[k, 1, 0]\n-D[k, 1, 0]\n");
    fix_close(&f);
}

WTEST(sum_upsert_key_replaces_in_place)
{
    static const int UK[1] = {1};
    Fix f;
    fix_open(&f, 1, UK, 0);
    push_text_rows(&f.env, f.op, 3, ROW_T,
              "+I,k,1,10\n+I,k,2,20\n+U,k,1,11\n-D,k,2,99\n-U,k,1,0\n");
    /* +U(k,1,11) replaces the first row in place (emitted as +U); deleting the latest (uk 2)
       rolls back to (k,1,11); the retraction by upsert key empties the list: -D with its own row */
    CHECK_STR(f.cap->text.buf,
              "+I[k, 1, 10]\n+U[k, 2, 20]\n+U[k, 1, 11]\n+U[k, 1, 11]\n-D[k, 1, 0]\n");
    fix_close(&f);
}

WTEST(sum_null_values_and_keys)
{
    Fix f;
    fix_open(&f, 0, NULL, 0);
    push_text_rows(&f.env, f.op, 3, ROW_T, "+I,null,null,1\n+I,null,2,null\n-D,null,2,null\n-D,null,null,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[null, null, 1]\n+U[null, 2, null]\n+U[null, null, 1]\n-D[null, null, 1]\n");
    fix_close(&f);
}

WTEST(sum_ttl_expiry)
{
    Fix f;
    fix_open(&f, 0, NULL, 100);
    push_text_rows(&f.env, f.op, 3, ROW_T, "+I,a,1,1\n");
    f.env.now += 100;
    push_text_rows(&f.env, f.op, 3, ROW_T, "-D,a,1,1\n+I,a,2,2\n");
    CHECK_STR(f.cap->text.buf, "+I[a, 1, 1]\n+I[a, 2, 2]\n");
    fix_close(&f);
}

WTEST(sum_invalid_spec_is_an_error_not_a_crash)
{
    static const int BAD[1] = {3};
    Fix f;
    fix_open(&f, 1, BAD, 0);
    CHECK(f.env.err.set);
    fix_close(&f);
}
