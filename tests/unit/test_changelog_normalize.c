/* test_changelog_normalize.c — ChangelogNormalize (exec/changelog_normalize.c): upsert -> full
   changelog, identical rows, deletes of absent keys, TTL, pushed-in filters; the conformance cases
   changelog-normalize__* translated by hand. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"

#include <stdlib.h>
#include <string.h>

static const WType *SRC_T[3] = {&WTYPE_STRING, &WTYPE_INT, &WTYPE_STRING};
static const int KEY_A[1] = {0};

typedef struct Fix {
    TestEnv env;
    WOperator *op;
    Capture *cap;
    WArena *a;
} Fix;

static void fix_open(Fix *f, bool gen_ub, int64_t ttl, WExpr *(*mkfilter)(WArena *))
{
    test_env_init(&f->env);
    f->a = warena_new(0);
    WChangelogNormalizeSpec s = {.in_ncols = 3, .in_types = SRC_T, .nkeys = 1, .keys = KEY_A,
                                 .generate_update_before = gen_ub, .ttl_ms = ttl,
                                 .filter = mkfilter ? mkfilter(f->a) : NULL};
    f->op = wop_changelog_normalize_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, 3, SRC_T);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_delete(f->a);
}

/* a NOT IN ('three')  (the case's a <> 'three') */
static WExpr *filter_a_not_three(WArena *a)
{
    WExpr *in = wexpr_new(a, WX_IN, &WTYPE_BOOLEAN, 2);
    in->negated = true;
    in->args[0] = wexpr_column(a, 0, &WTYPE_STRING, "a");
    in->args[1] = wexpr_literal(a, &WTYPE_STRING, (WDatum){.s = {"three", 5}}, false);
    return in;
}

/* b IN (1, 2)  (the case's b < 3 over its data) */
static WExpr *filter_b_lt_3(WArena *a)
{
    WExpr *in = wexpr_new(a, WX_IN, &WTYPE_BOOLEAN, 3);
    in->args[0] = wexpr_column(a, 1, &WTYPE_INT, "b");
    in->args[1] = wexpr_literal(a, &WTYPE_INT, WDATUM_I(1), false);
    in->args[2] = wexpr_literal(a, &WTYPE_INT, WDATUM_I(2), false);
    return in;
}

/* b IS NOT NULL  (the case's b < 10: every row passes) */
static WExpr *filter_b_not_null(WArena *a)
{
    WExpr *e = wexpr_new(a, WX_IS_NULL, &WTYPE_BOOLEAN, 1);
    e->negated = true;
    e->args[0] = wexpr_column(a, 1, &WTYPE_INT, "b");
    return e;
}

static const char *CASE_ROWS =
    "+I,one,1,a\n+U,one,2,bb\n+U,three,3,ccc\n+U,three,3,ccc\n+I,one,4,aaaa\n+U,one,4,aaaa\n"
    "-D,three,3,cc\n";

WTEST(cn_conformance_changelog_normalize)
{
    /* upsert sink: no UPDATE_BEFORE needed */
    Fix f;
    fix_open(&f, false, 0, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T, CASE_ROWS);
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n+U[one, 2, bb]\n+I[three, 3, ccc]\n+U[one, 4, aaaa]\n"
              "-D[three, 3, ccc]\n");
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "changelogNormalizeState.entries=1") != NULL);
    fix_close(&f);
}

WTEST(cn_conformance_filter_all_pass)
{
    Fix f;
    fix_open(&f, false, 0, filter_b_not_null);
    push_text_rows(&f.env, f.op, 3, SRC_T, CASE_ROWS);
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n+U[one, 2, bb]\n+I[three, 3, ccc]\n+U[one, 4, aaaa]\n"
              "-D[three, 3, ccc]\n");
    fix_close(&f);
}

WTEST(cn_conformance_upsert_with_retract_sink)
{
    Fix f;
    fix_open(&f, true, 0, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+I,one,1,a\n+U,one,2,bb\n+I,three,3,ccc\n+U,three,3,ccc\n+I,one,4,aaaa\n"
              "+U,one,4,aaaa\n-D,three,3,cc\n");
    /* the -D carries the stored row (ccc), not the delete's content (cc) */
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n-U[one, 1, a]\n+U[one, 2, bb]\n+I[three, 3, ccc]\n-U[one, 2, bb]\n"
              "+U[one, 4, aaaa]\n-D[three, 3, ccc]\n");
    fix_close(&f);
}

WTEST(cn_conformance_upsert_key_filter)
{
    Fix f;
    fix_open(&f, true, 0, filter_a_not_three);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+I,one,1,a\n+U,one,2,bb\n+U,three,3,ccc\n+U,three,3,ccc\n+I,one,4,aaaa\n"
              "+U,one,4,aaaa\n+I,two,1,d\n+U,two,1,d\n-D,three,3,ccc\n-D,two,1,d\n");
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n-U[one, 1, a]\n+U[one, 2, bb]\n-U[one, 2, bb]\n+U[one, 4, aaaa]\n"
              "+I[two, 1, d]\n-D[two, 1, d]\n");
    fix_close(&f);
}

WTEST(cn_conformance_key_filter_upsert_sink)
{
    Fix f;
    fix_open(&f, false, 0, filter_a_not_three);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+I,one,1,a\n+U,one,2,bb\n+U,three,3,ccc\n+U,three,3,ccc\n+I,one,4,aaaa\n"
              "+U,one,4,aaaa\n+I,two,1,d\n+U,two,1,d\n-D,three,3,cc\n-D,two,1,d\n");
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n+U[one, 2, bb]\n+U[one, 4, aaaa]\n+I[two, 1, d]\n-D[two, 1, d]\n");
    fix_close(&f);
}

WTEST(cn_conformance_upsert_with_filter)
{
    /* a present key whose new version fails the filter is retracted with -D(stored) */
    Fix f;
    fix_open(&f, true, 0, filter_b_lt_3);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+I,one,1,a\n+U,one,2,bb\n+U,three,3,ccc\n+U,three,3,ccc\n+I,one,4,aaaa\n"
              "+U,one,4,aaaa\n-D,three,5,ccc\n");
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n-U[one, 1, a]\n+U[one, 2, bb]\n-D[one, 2, bb]\n");
    CHECK(!f.env.err.set);
    fix_close(&f);
}

WTEST(cn_conformance_source_after_drop_update_before)
{
    /* changelog-normalize-source: Flink's planner drops -U before ChangelogNormalize
       (DropUpdateBefore), so the operator sees the stream without them */
    Fix f;
    fix_open(&f, true, 0, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+I,one,1,a\n+I,two,2,b\n+U,one,1,aa\n+I,three,3,c\n-D,two,2,b\n+U,three,3,cc\n");
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n+I[two, 2, b]\n-U[one, 1, a]\n+U[one, 1, aa]\n+I[three, 3, c]\n"
              "-D[two, 2, b]\n-U[three, 3, c]\n+U[three, 3, cc]\n");
    capture_clear(f.cap);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+I,four,4,d\n+I,five,5,e\n+U,four,4,dd\n+I,six,6,f\n-D,six,6,f\n");
    CHECK_STR(f.cap->text.buf,
              "+I[four, 4, d]\n+I[five, 5, e]\n-U[four, 4, d]\n+U[four, 4, dd]\n+I[six, 6, f]\n"
              "-D[six, 6, f]\n");
    fix_close(&f);
}

WTEST(cn_update_before_input_deletes)
{
    /* processLastRowOnChangelog: an UPDATE_BEFORE removes the stored row (-D); the following
       +U is then a first row (+I) */
    Fix f;
    fix_open(&f, true, 0, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T, "+I,one,1,a\n-U,one,1,a\n+U,one,1,aa\n-U,zzz,1,a\n");
    CHECK_STR(f.cap->text.buf, "+I[one, 1, a]\n-D[one, 1, a]\n+I[one, 1, aa]\n");
    fix_close(&f);
}

WTEST(cn_conformance_upsert)
{
    Fix f;
    fix_open(&f, true, 0, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+U,one,1,a\n+U,two,2,b\n+U,one,1,aa\n+U,three,3,c\n-D,two,2,b\n+U,three,3,cc\n");
    push_text_rows(&f.env, f.op, 3, SRC_T,
              "+U,four,4,d\n+U,five,5,e\n+U,six,6,f\n+U,five,5,ee\n-D,six,6,f\n+U,four,4,dd\n");
    CHECK_STR(f.cap->text.buf,
              "+I[one, 1, a]\n+I[two, 2, b]\n-U[one, 1, a]\n+U[one, 1, aa]\n+I[three, 3, c]\n"
              "-D[two, 2, b]\n-U[three, 3, c]\n+U[three, 3, cc]\n"
              "+I[four, 4, d]\n+I[five, 5, e]\n+I[six, 6, f]\n-U[five, 5, e]\n+U[five, 5, ee]\n"
              "-D[six, 6, f]\n-U[four, 4, d]\n+U[four, 4, dd]\n");
    fix_close(&f);
}

WTEST(cn_ttl_reemits_identical_and_expires)
{
    Fix f;
    fix_open(&f, true, 1000, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T, "+I,one,1,a\n+U,one,1,a\n");
    CHECK_STR(f.cap->text.buf, "+I[one, 1, a]\n-U[one, 1, a]\n+U[one, 1, a]\n");
    capture_clear(f.cap);
    f.env.now += 999;
    push_text_rows(&f.env, f.op, 3, SRC_T, "+U,one,2,b\n");
    CHECK_STR(f.cap->text.buf, "-U[one, 1, a]\n+U[one, 2, b]\n");
    capture_clear(f.cap);
    f.env.now += 1000;              /* expired: a delete is dropped, an upsert is a first row */
    push_text_rows(&f.env, f.op, 3, SRC_T, "-D,one,2,b\n+U,one,3,c\n");
    CHECK_STR(f.cap->text.buf, "+I[one, 3, c]\n");
    fix_close(&f);
}

WTEST(cn_null_key_and_null_values)
{
    Fix f;
    fix_open(&f, true, 0, NULL);
    push_text_rows(&f.env, f.op, 3, SRC_T, "+I,null,1,null\n+U,null,null,x\n-D,null,0,y\n-D,null,0,y\n");
    CHECK_STR(f.cap->text.buf,
              "+I[null, 1, null]\n-U[null, 1, null]\n+U[null, null, x]\n-D[null, null, x]\n");
    fix_close(&f);
}

WTEST(cn_filter_rejecting_first_row_is_not_stored)
{
    /* a row failing the filter for a new key is ignored; a later passing row is a first row */
    Fix f;
    fix_open(&f, true, 0, filter_b_lt_3);
    push_text_rows(&f.env, f.op, 3, SRC_T, "+I,k,5,x\n+U,k,1,y\n+U,k,1,y\n+U,k,7,z\n-D,k,7,z\n");
    CHECK_STR(f.cap->text.buf, "+I[k, 1, y]\n-D[k, 1, y]\n");
    fix_close(&f);
}

WTEST(cn_invalid_spec_is_an_error_not_a_crash)
{
    static const int BAD[1] = {-1};
    TestEnv env;
    test_env_init(&env);
    WChangelogNormalizeSpec s = {.in_ncols = 3, .in_types = SRC_T, .nkeys = 1, .keys = BAD};
    WOperator *op = wop_changelog_normalize_new(&env.ctx, &s);
    CHECK(env.err.set);
    wop_free(op);
}
