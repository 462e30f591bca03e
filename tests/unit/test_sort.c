/* test_sort.c — the sort buffer (exec/sort_buffer.c: stable multi-key order with absolute null
   direction, removal by value, compaction), the batch Sort / SortLimit / Limit operator (exec/sort.c)
   with retractions and offsets, and the rank operator as Limit (no sort key, no partition). */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/sort.h"
#include "../../src/exec/stateful.h"

#include <stdlib.h>
#include <string.h>

static const WType *KV_T[2] = {&WTYPE_STRING, &WTYPE_INT};

static void push_rows(TestEnv *e, WOperator *op, const char *text)
{
    const char *kinds[64];
    const char *cells[128];
    char *copy = strdup(text);
    int n = 0;
    for (char *line = strtok(copy, "\n"); line && n < 64; line = strtok(NULL, "\n")) {
        char *save = NULL;
        kinds[n] = strtok_r(line, ",", &save);
        for (int c = 0; c < 2; c++) cells[n * 2 + c] = strtok_r(NULL, ",", &save);
        n++;
    }
    WChunk *c = chunk_from_text(e, 2, KV_T, n, kinds, cells);
    wop_push(op, 0, c);
    wchunk_free(c);
    free(copy);
}

static WChunk *rows(TestEnv *e, int n, const char **cells)
{
    const char *kinds[16];
    for (int i = 0; i < n; i++) kinds[i] = "+I";
    return chunk_from_text(e, 2, KV_T, n, kinds, cells);
}

WTEST(sortbuf_stable_multi_key_with_nulls)
{
    TestEnv e;
    test_env_init(&e);
    const char *cells[] = {"b", "2", "a", NULL, "c", "1", "d", "2", "e", NULL, "f", "1"};
    WChunk *c = rows(&e, 6, cells);
    /* v DESC NULLS LAST: nulls stay last although the order is descending */
    WSortKeySpec k1[1] = {{1, true, false}};
    WSortBuf b;
    wsortbuf_init(&b, 2, KV_T, 1, k1, false);
    for (int r = 0; r < 6; r++) wsortbuf_add(&b, c, r);
    int64_t idx[6] = {0, 1, 2, 3, 4, 5};
    wsortbuf_sort(&b, idx, 6, 0);
    /* 2 (b, d in arrival order), 1 (c, f), NULL (a, e) */
    int64_t want[6] = {0, 3, 2, 5, 1, 4};
    for (int i = 0; i < 6; i++) CHECK_INT(idx[i], want[i]);
    wsortbuf_free(&b);
    /* v ASC NULLS FIRST, then k DESC */
    WSortKeySpec k2[2] = {{1, false, true}, {0, true, false}};
    wsortbuf_init(&b, 2, KV_T, 2, k2, false);
    for (int r = 0; r < 6; r++) wsortbuf_add(&b, c, r);
    for (int i = 0; i < 6; i++) idx[i] = i;
    wsortbuf_sort(&b, idx, 6, 0);
    int64_t want2[6] = {4, 1, 5, 2, 3, 0};
    for (int i = 0; i < 6; i++) CHECK_INT(idx[i], want2[i]);
    /* from key 1 on: k DESC only */
    for (int i = 0; i < 6; i++) idx[i] = i;
    wsortbuf_sort(&b, idx, 6, 1);
    CHECK_INT(idx[0], 5);
    CHECK_INT(idx[5], 1);
    wsortbuf_free(&b);
    wchunk_free(c);
}

WTEST(sortbuf_remove_latest_equal_and_compact)
{
    TestEnv e;
    test_env_init(&e);
    const char *cells[] = {"a", "1", "b", "2", "a", "1", "c", NULL};
    WChunk *c = rows(&e, 4, cells);
    WSortKeySpec k[1] = {{1, false, true}};
    WSortBuf b;
    wsortbuf_init(&b, 2, KV_T, 1, k, true);
    for (int i = 0; i < 3000; i++) wsortbuf_add(&b, c, i % 4);    /* grows the index */
    CHECK_INT(b.live, 3000);
    CHECK(wsortbuf_remove(&b, c, 0));
    CHECK(!wsortbuf_is_live(&b, 2998));             /* the latest ("a", 1) */
    CHECK(wsortbuf_is_live(&b, 2996));
    CHECK(wsortbuf_remove(&b, c, 3));               /* NULL equals NULL */
    CHECK(!wsortbuf_is_live(&b, 2999));
    const char *other[] = {"z", "9"};
    WChunk *z = rows(&e, 1, other);
    CHECK(!wsortbuf_remove(&b, z, 0));
    for (int64_t i = 0; i < 2996; i++) wsortbuf_kill(&b, i);
    CHECK_INT(b.live, 2);
    wsortbuf_compact(&b);
    CHECK_INT(b.n, 2);
    bool isnull;
    WDatum v = wsortbuf_get(&b, 0, 1, &isnull);
    CHECK(!isnull && v.i == 1);
    CHECK(wsortbuf_remove(&b, c, 1));               /* the index survives compaction */
    CHECK_INT(b.live, 1);
    wsortbuf_free(&b);
    wchunk_free(c);
    wchunk_free(z);
}

typedef struct Fix {
    TestEnv env;
    WOperator *op;
    Capture *cap;
} Fix;

static void fix_sort(Fix *f, int nkeys, const WSortKeySpec *keys, int64_t offset, int64_t fetch)
{
    test_env_init(&f->env);
    WSortOpSpec s = {.ncols = 2, .types = KV_T, .nkeys = nkeys, .keys = keys, .offset = offset, .fetch = fetch};
    f->op = wop_sort_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, 2, KV_T);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
}

WTEST(batch_sort_applies_retractions_then_sorts)
{
    Fix f;
    WSortKeySpec k[1] = {{1, true, false}};
    fix_sort(&f, 1, k, -1, -1);
    push_rows(&f.env, f.op, "+I,a,1\n+I,b,5\n-U,a,1\n+U,a,7\n+I,c,null\n-D,b,5\n+I,d,3\n-D,x,9");
    CHECK_INT(f.cap->rows, 0);                      /* nothing before the end of input */
    wop_input_end(f.op, 0);
    CHECK_STR(f.cap->text.buf, "+I[a, 7]\n+I[d, 3]\n+I[c, null]\n");
    CHECK(f.cap->ended);
    CHECK(!f.env.err.set);
    fix_close(&f);
}

WTEST(batch_sort_limit_offset_and_limit_without_keys)
{
    Fix f;
    WSortKeySpec k[1] = {{1, false, true}};
    fix_sort(&f, 1, k, 1, 2);
    push_rows(&f.env, f.op, "+I,a,4\n+I,b,2\n+I,c,3\n+I,d,1\n+I,e,null");
    wop_input_end(f.op, 0);
    CHECK_STR(f.cap->text.buf, "+I[d, 1]\n+I[b, 2]\n");
    fix_close(&f);
    /* Limit: arrival order, offset past the end gives nothing */
    fix_sort(&f, 0, NULL, 1, 2);
    push_rows(&f.env, f.op, "+I,a,4\n+I,b,2\n+I,c,3\n+I,d,1");
    wop_input_end(f.op, 0);
    CHECK_STR(f.cap->text.buf, "+I[b, 2]\n+I[c, 3]\n");
    fix_close(&f);
    fix_sort(&f, 0, NULL, 10, -1);
    push_rows(&f.env, f.op, "+I,a,4");
    wop_input_end(f.op, 0);
    CHECK_INT(f.cap->rows, 0);
    CHECK(f.cap->ended);
    fix_close(&f);
}

WTEST(batch_sort_rejects_bad_key_column)
{
    Fix f;
    WSortKeySpec k[1] = {{5, false, true}};
    fix_sort(&f, 1, k, -1, -1);
    CHECK(f.env.err.set);
    fix_close(&f);
}

WTEST(rank_as_limit_without_sort_keys)
{
    /* StreamExecLimit: a rank with no partition and no sort key; first rows only, insert-only */
    TestEnv e;
    test_env_init(&e);
    WRankSpec s = {.in_ncols = 2, .in_types = KV_T, .nkeys = 0, .nsort = 0, .func = WRANK_ROW_NUMBER,
                   .strategy = WRANK_APPEND_FAST, .rank_start = 1, .rank_end = 2,
                   .generate_update_before = false};
    WOperator *op = wop_rank_new(&e.ctx, &s);
    CHECK(!e.err.set);
    Capture *cap = capture_new(&e, 2, KV_T);
    wop_connect(op, &cap->base, 0);
    push_rows(&e, op, "+I,a,4\n+I,b,2\n+I,c,9\n+I,d,1");
    CHECK_STR(cap->text.buf, "+I[a, 4]\n+I[b, 2]\n");
    wop_free(op);
    capture_free(cap);
}
