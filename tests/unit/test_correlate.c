/* test_correlate.c — the UNNEST Correlate operator: elements per row, row kinds kept, LEFT
   padding, maps, rows of ROW type, ordinality, the pushed condition, chunks larger than one. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/correlate.h"
#include "../../src/expr/functions.h"

#include <string.h>

static WComposite *ints(WArena *a, int n, const int64_t *v, const uint8_t *nulls)
{
    WComposite *c = WA_NEW(a, WComposite);
    c->n = n;
    c->vals = WA_ARRAY(a, WDatum, n ? n : 1);
    c->nulls = wa_zalloc(a, (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        c->vals[i].i = v[i];
        c->nulls[i] = nulls ? nulls[i] : 0;
    }
    return c;
}

/* a row (id, arr) with kind k; arr NULL when cx is NULL */
static void add(WChunk *ch, WRowKind k, int64_t id, WComposite *cx)
{
    int r = wchunk_add_row(ch, k);
    ch->cols[0].data[r].i = id;
    ch->cols[0].nulls[r] = 0;
    ch->cols[1].data[r].cx = cx;
    ch->cols[1].nulls[r] = cx == NULL;
}

typedef struct Fix {
    TestEnv e;
    WArena *a;
    const WType *in_types[2];
    const WType *out_types[4];
    WExpr *coll;
} Fix;

static void fix_init(Fix *f, const WType *coll_type)
{
    test_env_init(&f->e);
    f->a = warena_new(0);
    f->in_types[0] = &WTYPE_INT;
    f->in_types[1] = coll_type;
    f->coll = wexpr_column(f->a, 1, coll_type, "arr");
}

static WOperator *make(Fix *f, int nf, const WType **ftypes, bool ord, bool left, WExpr *cond, Capture **cap)
{
    f->out_types[0] = &WTYPE_INT;
    f->out_types[1] = f->in_types[1];
    for (int i = 0; i < nf; i++) f->out_types[2 + i] = ftypes[i];
    WCorrelateSpec sp = {.in_ncols = 2, .in_types = f->in_types, .nleft = 2, .collection = f->coll,
                         .ordinality = ord, .left_join = left, .cond = cond, .ncols = 2 + nf,
                         .types = f->out_types, .names = NULL};
    WOperator *op = wop_correlate_new(&f->e.ctx, &sp);
    *cap = capture_new(&f->e, 2 + nf, f->out_types);
    wop_connect(op, &(*cap)->base, 0);
    return op;
}

WTEST(correlate_array_keeps_row_kinds)
{
    Fix f;
    WArena *ta = warena_new(0);
    fix_init(&f, wtype_array(ta, &WTYPE_INT, true));
    const WType *ft[1] = {&WTYPE_INT};
    Capture *cap;
    WOperator *op = make(&f, 1, ft, false, false, NULL, &cap);
    WChunk *ch = wchunk_new(2, f.in_types, 16);
    int64_t v1[] = {1, 2}, v2[] = {7};
    uint8_t n2[] = {1};
    add(ch, WRK_INSERT, 10, ints(ch->arena, 2, v1, NULL));
    add(ch, WRK_INSERT, 11, NULL);                          /* NULL array: nothing */
    add(ch, WRK_INSERT, 12, ints(ch->arena, 0, NULL, NULL));/* empty: nothing */
    add(ch, WRK_UPDATE_BEFORE, 10, ints(ch->arena, 2, v1, NULL));
    add(ch, WRK_DELETE, 13, ints(ch->arena, 1, v2, n2));    /* a NULL element is a row */
    wop_push(op, 0, ch);
    CHECK_STR(cap->text.buf, "+I[10, [1, 2], 1]\n+I[10, [1, 2], 2]\n-U[10, [1, 2], 1]\n-U[10, [1, 2], 2]\n"
                             "-D[13, [null], null]\n");
    wchunk_free(ch);
    wop_free(op);
    capture_free(cap);
    warena_delete(f.a);
    warena_delete(ta);
}

WTEST(correlate_left_join_pads_and_ordinality)
{
    Fix f;
    WArena *ta = warena_new(0);
    fix_init(&f, wtype_array(ta, &WTYPE_INT, true));
    const WType *ft[2] = {&WTYPE_INT, &WTYPE_INT};
    Capture *cap;
    WOperator *op = make(&f, 2, ft, true, true, NULL, &cap);
    WChunk *ch = wchunk_new(2, f.in_types, 16);
    int64_t v1[] = {5, 6};
    add(ch, WRK_INSERT, 1, ints(ch->arena, 2, v1, NULL));
    add(ch, WRK_INSERT, 2, NULL);
    add(ch, WRK_DELETE, 3, ints(ch->arena, 0, NULL, NULL));
    wop_push(op, 0, ch);
    CHECK_STR(cap->text.buf, "+I[1, [5, 6], 5, 1]\n+I[1, [5, 6], 6, 2]\n+I[2, null, null, null]\n"
                             "-D[3, [], null, null]\n");
    wchunk_free(ch);
    wop_free(op);
    capture_free(cap);
    warena_delete(f.a);
    warena_delete(ta);
}

WTEST(correlate_map_and_condition)
{
    Fix f;
    WArena *ta = warena_new(0);
    fix_init(&f, wtype_map(ta, &WTYPE_INT, &WTYPE_INT, true));
    const WType *ft[2] = {&WTYPE_INT, &WTYPE_INT};
    /* condition on the function's second column ($1 = value) > 15; LEFT pads when none passes */
    const WFuncDef *fd = wfunc_lookup(">");
    WExpr *gt = wexpr_new(f.a, WX_CALL, &WTYPE_BOOLEAN, 2);
    gt->func = fd;
    gt->name = fd->name;
    gt->args[0] = wexpr_column(f.a, 1, &WTYPE_INT, "f1");
    WDatum fifteen = {.i = 15};
    gt->args[1] = wexpr_literal(f.a, &WTYPE_INT_NN, fifteen, false);
    Capture *cap;
    WOperator *op = make(&f, 2, ft, false, true, gt, &cap);
    WChunk *ch = wchunk_new(2, f.in_types, 16);
    int64_t kv[] = {1, 10, 2, 20};
    WComposite *m = ints(ch->arena, 4, kv, NULL);
    m->n = 2;                                       /* MAP: n entries, 2n slots */
    add(ch, WRK_INSERT, 1, m);
    int64_t kv2[] = {3, 5};
    WComposite *m2 = ints(ch->arena, 2, kv2, NULL);
    m2->n = 1;
    add(ch, WRK_UPDATE_AFTER, 2, m2);
    wop_push(op, 0, ch);
    CHECK_STR(cap->text.buf, "+I[1, {1=10, 2=20}, 2, 20]\n+U[2, {3=5}, null, null]\n");
    wchunk_free(ch);
    wop_free(op);
    capture_free(cap);
    warena_delete(f.a);
    warena_delete(ta);
}

WTEST(correlate_rows_and_large_arrays)
{
    Fix f;
    WArena *ta = warena_new(0);
    const char *fn[2] = {"a", "b"};
    const WType *fts[2] = {&WTYPE_INT, &WTYPE_INT};
    const WType *rt = wtype_row(ta, 2, fn, fts, true);
    fix_init(&f, wtype_array(ta, rt, true));
    Capture *cap;
    WOperator *op = make(&f, 2, fts, false, false, NULL, &cap);
    WChunk *ch = wchunk_new(2, f.in_types, 16);
    /* 5000 ROW elements, one of them NULL: more than one output chunk */
    int n = 5000;
    WComposite *arr = WA_NEW(ch->arena, WComposite);
    arr->n = n;
    arr->vals = WA_ARRAY(ch->arena, WDatum, n);
    arr->nulls = wa_zalloc(ch->arena, (size_t)n);
    for (int i = 0; i < n; i++) {
        int64_t v[2] = {i, i * 2};
        arr->vals[i].cx = ints(ch->arena, 2, v, NULL);
    }
    arr->nulls[3] = 1;
    add(ch, WRK_INSERT, 9, arr);
    wop_push(op, 0, ch);
    CHECK_INT(cap->rows, n);
    /* the NULL row element gives NULL fields */
    CHECK(strstr(cap->text.buf, ", null, null]\n") != NULL);
    CHECK(strstr(cap->text.buf, ", 4999, 9998]\n") != NULL);
    wchunk_free(ch);
    wop_free(op);
    capture_free(cap);
    warena_delete(f.a);
    warena_delete(ta);
}
