/*
 * test_join.c — the regular streaming join (exec/join.c, exec/join_state.c): exact changelogs
 * derived from Flink's StreamingJoinOperator / StreamingSemiAntiJoinOperator, and the join__*
 * conformance cases translated by hand (compared as multisets or materialized tables, as the
 * corpus does).
 */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"
#include "../../src/exec/minibatch.h"
#include "../../src/expr/functions.h"
#include "../../src/types/row.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------- harness ---------------- */

typedef struct JH {
    TestEnv env;
    WOperator *op;
    Capture *cap;
    WJoinSpec spec;
    const WType *out_types[32];
    WArena *arena;
    char text[1 << 16];
} JH;

static bool jh_open(JH *h)
{
    WJoinSpec *s = &h->spec;
    bool semi = s->kind == WJK_SEMI || s->kind == WJK_ANTI;
    int n = 0;
    for (int i = 0; i < s->left_ncols; i++) h->out_types[n++] = s->left_types[i];
    if (!semi)
        for (int i = 0; i < s->right_ncols; i++) h->out_types[n++] = s->right_types[i];
    s->out.ncols = n;
    s->out.types = h->out_types;
    h->op = wop_join_new(&h->env.ctx, s);
    if (!h->op) return false;
    h->cap = capture_new(&h->env, n, h->out_types);
    wop_connect(h->op, &h->cap->base, 0);
    return true;
}

static void jh_init(JH *h, WJoinKind kind, int L, const WType **lt, int R, const WType **rt)
{
    memset(h, 0, sizeof *h);
    test_env_init(&h->env);
    h->arena = warena_new(0);
    h->spec.kind = kind;
    h->spec.left_ncols = L;
    h->spec.left_types = lt;
    h->spec.right_ncols = R;
    h->spec.right_types = rt;
}

static void jh_keys(JH *h, int n, const int *lk, const int *rk, const bool *filter_nulls)
{
    h->spec.nkeys = n;
    h->spec.left_keys = lk;
    h->spec.right_keys = rk;
    h->spec.filter_nulls = filter_nulls;
}

static void jh_free(JH *h)
{
    if (h->op) wop_free(h->op);
    if (h->cap) capture_free(h->cap);
    warena_delete(h->arena);
}

/* Feed rows "kind,v1,v2;kind,v1,v2;..." to input 0 (left) or 1 (right). */
static void feed(JH *h, int input, const char *rows)
{
    int ncols = input ? h->spec.right_ncols : h->spec.left_ncols;
    const WType **types = input ? h->spec.right_types : h->spec.left_types;
    char *copy = strdup(rows);
    int cap = 16, n = 0;
    const char **kinds = malloc(sizeof(char *) * (size_t)cap);
    const char **cells = malloc(sizeof(char *) * (size_t)cap * (size_t)ncols);
    char *save = NULL;
    for (char *line = strtok_r(copy, ";", &save); line; line = strtok_r(NULL, ";", &save)) {
        if (n == cap) {
            cap *= 2;
            kinds = realloc(kinds, sizeof(char *) * (size_t)cap);
            cells = realloc(cells, sizeof(char *) * (size_t)cap * (size_t)ncols);
        }
        char *f = line, *comma = strchr(f, ',');
        if (comma) *comma = 0;
        kinds[n] = f;
        for (int k = 0; k < ncols; k++) {
            f = comma ? comma + 1 : NULL;
            comma = f ? strchr(f, ',') : NULL;
            if (comma) *comma = 0;
            cells[n * ncols + k] = f;
        }
        n++;
    }
    WChunk *c = chunk_from_text(&h->env, ncols, types, n, kinds, cells);
    wop_push(h->op, input, c);
    wchunk_free(c);
    free(kinds);
    free(cells);
    free(copy);
}

/* Captured output so far (then cleared). */
static const char *take(JH *h)
{
    snprintf(h->text, sizeof h->text, "%s", h->cap->text.buf ? h->cap->text.buf : "");
    capture_clear(h->cap);
    return h->text;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Split "kind[f1, f2, ...]" and keep the projected fields: "kind[fp1, fp2]". */
static char *project_line(const char *line, int nproj, const int *proj)
{
    const char *lb = strchr(line, '[');
    const char *rb = strrchr(line, ']');
    if (!lb || !rb || rb < lb) return strdup(line);
    char *body = strndup(lb + 1, (size_t)(rb - lb - 1));
    const char *fields[64];
    int nf = 0;
    char *p = body;
    fields[nf++] = p;
    for (char *q; (q = strstr(p, ", ")) && nf < 64; p = q + 2) {
        *q = 0;
        fields[nf++] = q + 2;
    }
    WStrBuf b;
    wsb_init(&b);
    wsb_appendn(&b, line, (size_t)(lb - line));
    wsb_putc(&b, '[');
    for (int i = 0; i < nproj; i++) {
        if (i) wsb_append(&b, ", ");
        wsb_append(&b, proj[i] < nf ? fields[proj[i]] : "?");
    }
    wsb_putc(&b, ']');
    free(body);
    return wsb_detach(&b);
}

/* Output lines (projected) as a sorted multiset; materialize=true applies retractions first
   (rows are then written +I). */
static const char *result(JH *h, int nproj, const int *proj, bool materialize)
{
    char *all = strdup(h->cap->text.buf ? h->cap->text.buf : "");
    capture_clear(h->cap);
    int cap = 64, n = 0;
    char **rows = malloc(sizeof(char *) * (size_t)cap);
    char *save = NULL;
    for (char *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *pl = project_line(line, nproj, proj);
        if (materialize) {
            bool retract = pl[0] == '-';
            pl[0] = '+';
            pl[1] = 'I';
            if (retract) {
                int i = 0;
                while (i < n && strcmp(rows[i], pl) != 0) i++;
                if (i < n) {
                    free(rows[i]);
                    rows[i] = rows[--n];
                    free(pl);
                    continue;
                }
                pl[0] = '!';    /* retraction of an absent row: shows up as a failure */
            }
        }
        if (n == cap) {
            cap *= 2;
            rows = realloc(rows, sizeof(char *) * (size_t)cap);
        }
        rows[n++] = pl;
    }
    qsort(rows, (size_t)n, sizeof(char *), cmp_str);
    size_t len = 0;
    h->text[0] = 0;
    for (int i = 0; i < n; i++) {
        len += (size_t)snprintf(h->text + len, sizeof h->text - len, "%s\n", rows[i]);
        free(rows[i]);
    }
    free(rows);
    free(all);
    return h->text;
}

/* Sort the lines of an expected block. */
static const char *sorted(const char *lines, char *buf, size_t bufsz)
{
    char *all = strdup(lines);
    char *rows[256];
    int n = 0;
    char *save = NULL;
    for (char *line = strtok_r(all, "\n", &save); line && n < 256; line = strtok_r(NULL, "\n", &save))
        rows[n++] = line;
    qsort(rows, (size_t)n, sizeof(char *), cmp_str);
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) len += (size_t)snprintf(buf + len, bufsz - len, "%s\n", rows[i]);
    free(all);
    return buf;
}

#define CHECK_SET(h, nproj, proj, mat, expected)                                         \
    do {                                                                                 \
        char exp_[1 << 14];                                                              \
        CHECK_STR(result((h), (nproj), (proj), (mat)), sorted((expected), exp_, sizeof exp_)); \
    } while (0)

static WExpr *col(JH *h, int i, const WType *t) { return wexpr_column(h->arena, i, t, "c"); }

static WExpr *call2(JH *h, const char *fn, WExpr *a, WExpr *b)
{
    WExpr *e = wexpr_new(h->arena, WX_CALL, &WTYPE_BOOLEAN, 2);
    e->func = wfunc_lookup(fn);
    e->name = fn;
    e->args[0] = a;
    e->args[1] = b;
    return e;
}

/* ---------------- schemas of the conformance corpus ---------------- */

/* EMPLOYEE (deptno INT, salary BIGINT, name STRING) */
static const WType *EMP[] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_STRING};
/* DEPARTMENT (department_num INT, b2 BIGINT, b3 INT, department_name STRING) */
static const WType *DEPT[] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_INT, &WTYPE_STRING};

#define EMP_BEFORE "+I,null,101,Adam;+I,1,1,Baker;+I,2,2,Charlie;+I,3,2,Don;+I,7,6,Victor"
#define EMP_AFTER "+I,4,3,Juliet;+I,4,4,Helena;+I,1,1,Ivana"
#define DEPT_BEFORE "+I,null,102,0,Accounting;+I,1,1,0,Research;+I,2,2,1,Human Resources;" \
                    "+I,2,3,2,HR;+I,3,1,2,Sales"
#define DEPT_AFTER "+I,2,4,3,People Operations;+I,4,2,4,Engineering"

static const int K0[] = {0};
static const int K1[] = {1};
static const int P2[] = {0, 1};
static const int P4[] = {0, 1, 2, 3};

/* Feed both restore phases; left_first picks the interleaving within each phase. */
static void feed_emp_dept2(JH *h, bool left_first, const char *dept_before, const char *dept_after)
{
    if (left_first) { feed(h, 0, EMP_BEFORE); feed(h, 1, dept_before); }
    else { feed(h, 1, dept_before); feed(h, 0, EMP_BEFORE); }
    if (left_first) { feed(h, 0, EMP_AFTER); feed(h, 1, dept_after); }
    else { feed(h, 1, dept_after); feed(h, 0, EMP_AFTER); }
}

static void feed_emp_dept(JH *h, bool left_first, const char *dept_before)
{
    feed_emp_dept2(h, left_first, dept_before, DEPT_AFTER);
}

/* ---------------- conformance: join__* ---------------- */

static const int P_NAME_DNAME[] = {2, 6};   /* name, department_name */

WTEST(join_conf_inner_non_equi)
{
    /* join-inner-join-with-non-equi-join: ON deptno = department_num AND salary > b2 */
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_INNER, 3, EMP, 4, DEPT);
        jh_keys(&h, 1, K0, K0, NULL);
        h.spec.residual = call2(&h, ">", col(&h, 1, &WTYPE_BIGINT), col(&h, 4, &WTYPE_BIGINT));
        CHECK(jh_open(&h));
        feed_emp_dept(&h, order == 0, DEPT_BEFORE);
        CHECK_SET(&h, 2, P_NAME_DNAME, false,
                  "+I[Don, Sales]\n+I[Helena, Engineering]\n+I[Juliet, Engineering]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_inner_duplicate_key)
{
    /* join-inner-join-with-duplicate-key: ON deptno = department_num AND deptno = b3 */
    static const int lk[] = {0, 0}, rk[] = {0, 2}, proj[] = {0, 3};
    JH h;
    jh_init(&h, WJK_INNER, 3, EMP, 4, DEPT);
    jh_keys(&h, 2, lk, rk, NULL);
    CHECK(jh_open(&h));
    feed_emp_dept(&h, true, DEPT_BEFORE);
    CHECK_SET(&h, 2, proj, false, "+I[2, 2]\n+I[4, 4]\n+I[4, 4]\n");
    jh_free(&h);
}

WTEST(join_conf_left_join)
{
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_LEFT, 3, EMP, 4, DEPT);
        jh_keys(&h, 1, K0, K0, NULL);
        CHECK(jh_open(&h));
        feed_emp_dept(&h, order == 0, DEPT_BEFORE);
        CHECK_SET(&h, 2, P_NAME_DNAME, true,
                  "+I[Adam, null]\n+I[Baker, Research]\n+I[Charlie, Human Resources]\n"
                  "+I[Charlie, HR]\n+I[Don, Sales]\n+I[Victor, null]\n"
                  "+I[Helena, Engineering]\n+I[Juliet, Engineering]\n+I[Ivana, Research]\n"
                  "+I[Charlie, People Operations]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_right_join)
{
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_RIGHT, 3, EMP, 4, DEPT);
        jh_keys(&h, 1, K0, K0, NULL);
        CHECK(jh_open(&h));
        feed_emp_dept(&h, order == 0, DEPT_BEFORE);
        CHECK_SET(&h, 2, P_NAME_DNAME, true,
                  "+I[null, Accounting]\n+I[Baker, Research]\n+I[Charlie, Human Resources]\n"
                  "+I[Charlie, HR]\n+I[Don, Sales]\n"
                  "+I[Helena, Engineering]\n+I[Juliet, Engineering]\n+I[Ivana, Research]\n"
                  "+I[Charlie, People Operations]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_full_outer_join)
{
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_FULL, 3, EMP, 4, DEPT);
        jh_keys(&h, 1, K0, K0, NULL);
        CHECK(jh_open(&h));
        feed_emp_dept(&h, order == 0, DEPT_BEFORE);
        CHECK_SET(&h, 2, P_NAME_DNAME, true,
                  "+I[Adam, null]\n+I[null, Accounting]\n+I[Baker, Research]\n"
                  "+I[Charlie, Human Resources]\n+I[Charlie, HR]\n+I[Don, Sales]\n+I[Victor, null]\n"
                  "+I[Helena, Engineering]\n+I[Juliet, Engineering]\n+I[Ivana, Research]\n"
                  "+I[Charlie, People Operations]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_semi_join)
{
    /* deptno IN (SELECT department_num FROM DEPARTMENT): changelog compared */
    static const int proj[] = {2};
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_SEMI, 3, EMP, 4, DEPT);
        jh_keys(&h, 1, K0, K0, NULL);
        CHECK(jh_open(&h));
        feed_emp_dept(&h, order == 0, DEPT_BEFORE);
        CHECK_SET(&h, 1, proj, false,
                  "+I[Baker]\n+I[Charlie]\n+I[Don]\n+I[Helena]\n+I[Juliet]\n+I[Ivana]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_anti_join_not_in)
{
    /* deptno NOT IN (SELECT department_num FROM DEPARTMENT): no equi-key; the residual is
       deptno = department_num OR (deptno = department_num) IS NULL */
    static const int proj[] = {2};
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_ANTI, 3, EMP, 4, DEPT);
        WExpr *eq = call2(&h, "=", col(&h, 0, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
        WExpr *isn = wexpr_new(h.arena, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1);
        isn->args[0] = call2(&h, "=", col(&h, 0, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
        WExpr *or = wexpr_new(h.arena, WX_OR, &WTYPE_BOOLEAN, 2);
        or->args[0] = eq;
        or->args[1] = isn;
        h.spec.residual = or;
        CHECK(jh_open(&h));
        /* DEPARTMENT_NONULLS: no NULL department, no department 4 */
        feed_emp_dept2(&h, order == 0,
                       "+I,1,1,0,Research;+I,2,2,1,Human Resources;+I,2,3,2,HR;+I,3,1,2,Sales",
                       "+I,2,4,3,People Operations");
        CHECK_SET(&h, 1, proj, true, "+I[Victor]\n+I[Juliet]\n+I[Helena]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_cross_join)
{
    JH h;
    jh_init(&h, WJK_INNER, 3, EMP, 4, DEPT);
    CHECK(jh_open(&h));
    feed_emp_dept(&h, true, DEPT_BEFORE);
    const char *depts[] = {"Accounting", "Research", "Human Resources", "HR", "Sales",
                           "People Operations", "Engineering"};
    const char *names[] = {"Adam", "Baker", "Charlie", "Don", "Victor", "Juliet", "Helena", "Ivana"};
    char exp[8192];
    size_t len = 0;
    for (int e = 0; e < 8; e++) {
        for (int d = 0; d < 7; d++) {
            if (e < 5 && d >= 5) {
                /* before-restore employees meet the after-restore departments too */
            }
            len += (size_t)snprintf(exp + len, sizeof exp - len, "+I[%s, %s]\n", names[e], depts[d]);
        }
    }
    CHECK_SET(&h, 2, P_NAME_DNAME, false, exp);
    jh_free(&h);
}

WTEST(join_conf_with_filter)
{
    /* WHERE salary = b2 AND salary < 2: the filter is pushed to EMPLOYEE, the join is on
       salary = b2 */
    JH h;
    jh_init(&h, WJK_INNER, 3, EMP, 4, DEPT);
    jh_keys(&h, 1, K1, K1, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,1,Baker");
    feed(&h, 1, DEPT_BEFORE);
    feed(&h, 0, "+I,1,1,Ivana");
    feed(&h, 1, DEPT_AFTER);
    CHECK_SET(&h, 2, P_NAME_DNAME, false,
              "+I[Baker, Research]\n+I[Baker, Sales]\n+I[Ivana, Sales]\n+I[Ivana, Research]\n");
    jh_free(&h);
}

/* T1/T2 (a INT, b BIGINT, c STRING), with IF(a = 3, NULL, a) applied to the data */
static const WType *T3[] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_STRING};
#define T1_BEFORE "+I,1,1,Baker1;+I,1,2,Baker2;+I,1,2,Baker2;+I,1,5,Baker3;+I,2,7,Baker5;" \
                  "+I,1,9,Baker6;+I,1,8,Baker8;+I,null,8,Baker9"
#define T2_BEFORE "+I,1,1,BakerBaker;+I,2,2,HeHe;+I,null,2,HeHe"

static void non_window_inner(int *wtest_failed_, bool null_safe)
{
    static const int proj[] = {3, 5, 2};   /* t2.a, t2.c, t1.c */
    static const bool fnull_eq[] = {true}, fnull_safe[] = {false};
    for (int order = 0; order < 2; order++) {
        JH h;
        jh_init(&h, WJK_INNER, 3, T3, 3, T3);
        jh_keys(&h, 1, K0, K0, null_safe ? fnull_safe : fnull_eq);
        h.spec.residual = call2(&h, ">", col(&h, 1, &WTYPE_BIGINT), col(&h, 4, &WTYPE_BIGINT));
        CHECK(jh_open(&h));
        if (order == 0) { feed(&h, 0, T1_BEFORE); feed(&h, 1, T2_BEFORE); }
        else { feed(&h, 1, T2_BEFORE); feed(&h, 0, T1_BEFORE); }
        feed(&h, 0, "+I,1,1,PostRestore");
        feed(&h, 1, "+I,2,1,PostRestoreRight");
        char exp[1024];
        snprintf(exp, sizeof exp,
                 "+I[1, BakerBaker, Baker2]\n+I[1, BakerBaker, Baker2]\n+I[1, BakerBaker, Baker3]\n"
                 "+I[2, HeHe, Baker5]\n+I[1, BakerBaker, Baker6]\n+I[1, BakerBaker, Baker8]\n%s"
                 "+I[2, PostRestoreRight, Baker5]\n",
                 null_safe ? "+I[null, HeHe, Baker9]\n" : "");
        CHECK_SET(&h, 3, proj, false, exp);
        jh_free(&h);
    }
}

WTEST(join_conf_non_window_inner)
{
    non_window_inner(wtest_failed_, false);
}

WTEST(join_conf_non_window_inner_null_safe)
{
    /* join-non-window-inner-join-with-null-cond: (a IS NULL AND b IS NULL) OR a = b */
    non_window_inner(wtest_failed_, true);
}

/* The GROUP BY ... MIN outputs feeding join-inner-join-with-equal-pk / -with-pk. */
static const WType *AGG2[] = {&WTYPE_BIGINT, &WTYPE_INT};   /* (min, dept) */
#define AGG_L_BEFORE "+I,101,null;+I,1,1;+I,2,2;+I,2,3;+I,6,7"
#define AGG_L_AFTER "+I,3,4"
#define AGG_R_BEFORE "+I,102,null;+I,1,1;+I,2,2;+I,1,3"
#define AGG_R_AFTER "+I,2,4"

WTEST(join_conf_inner_equal_pk_and_ttl_hint)
{
    /* ON deptno = department_num, both sides unique on the join key (value state views);
       join-with-state-ttl-hint is the same with long TTLs */
    static const int uk[] = {1}, proj[] = {1, 3};
    for (int ttl = 0; ttl < 2; ttl++) {
        JH h;
        jh_init(&h, WJK_INNER, 2, AGG2, 2, AGG2);
        jh_keys(&h, 1, K1, K1, NULL);
        h.spec.left_nuk = h.spec.right_nuk = 1;
        h.spec.left_uk = h.spec.right_uk = uk;
        h.spec.left_retracts = h.spec.right_retracts = true;
        if (ttl) {
            h.spec.left_ttl_ms = 86400000LL * 4;
            h.spec.right_ttl_ms = 86400000LL * 8;
        }
        CHECK(jh_open(&h));
        feed(&h, 0, AGG_L_BEFORE);
        feed(&h, 1, AGG_R_BEFORE);
        feed(&h, 0, AGG_L_AFTER);
        feed(&h, 1, AGG_R_AFTER);
        CHECK_SET(&h, 2, proj, false, "+I[1, 1]\n+I[2, 2]\n+I[3, 3]\n+I[4, 4]\n");
        jh_free(&h);
    }
}

WTEST(join_conf_inner_with_pk)
{
    /* ON salary = b2 (the MINs); the unique key (dept) is not in the join key */
    static const int uk[] = {1}, proj[] = {1, 3};
    JH h;
    jh_init(&h, WJK_INNER, 2, AGG2, 2, AGG2);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_nuk = h.spec.right_nuk = 1;
    h.spec.left_uk = h.spec.right_uk = uk;
    CHECK(jh_open(&h));
    feed(&h, 0, AGG_L_BEFORE);
    feed(&h, 1, AGG_R_BEFORE);
    feed(&h, 0, AGG_L_AFTER);
    feed(&h, 1, AGG_R_AFTER);
    CHECK_SET(&h, 2, proj, true,
              "+I[1, 1]\n+I[2, 2]\n+I[3, 2]\n+I[1, 3]\n+I[3, 4]\n+I[2, 4]\n");
    jh_free(&h);
}

WTEST(join_conf_duplicate_emission_left_join)
{
    /* join-duplicate-emission-bug: after ChangelogNormalize the upsert side delivers one +I;
       the LEFT JOIN of two literal rows then yields each row once */
    static const WType *lt[] = {&WTYPE_STRING, &WTYPE_STRING};   /* id, section_id */
    static const WType *rt[] = {&WTYPE_STRING};                  /* event_section_id */
    static const int proj[] = {0};
    JH h;
    jh_init(&h, WJK_LEFT, 2, lt, 1, rt);
    jh_keys(&h, 1, K1, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,pk-2,section_id_3;+I,pk-1,section_id_3");
    feed(&h, 1, "+I,section_id_3");
    CHECK_SET(&h, 1, proj, true, "+I[pk-1]\n+I[pk-2]\n");
    jh_free(&h);
}

/* Nested rows: ROW columns are stored and decoded generically. */
static WChunk *row_chunk(JH *h, const WType *rowt, int64_t id, const char *name, WRowKind kind)
{
    const WType *types[] = {rowt, &WTYPE_BIGINT};
    WChunk *c = wchunk_new(2, types, 4);
    int r = wchunk_add_row(c, kind);
    WComposite *cx = WA_NEW(c->arena, WComposite);
    cx->n = rowt->nfields;
    cx->vals = WA_ARRAY(c->arena, WDatum, 2);
    cx->nulls = WA_ARRAY(c->arena, uint8_t, 2);
    cx->vals[0].i = id;
    if (rowt->nfields > 1) {
        cx->vals[1].s.p = name;
        cx->vals[1].s.len = (int32_t)strlen(name);
    }
    c->cols[0].data[r].cx = cx;
    c->cols[1].data[r].i = id;     /* the projected r.order_id the join is keyed on */
    (void)h;
    return c;
}

WTEST(join_conf_nested_row_left_right_full)
{
    JH h0;
    jh_init(&h0, WJK_INNER, 1, NULL, 1, NULL);
    const char *fn[] = {"order_id", "name"};
    const WType *ft[] = {&WTYPE_BIGINT, &WTYPE_STRING};
    const WType *rowt = wtype_row(h0.arena, 2, fn, ft, false);
    const WType *orders[] = {&WTYPE_BIGINT};
    const WType *details[] = {rowt, &WTYPE_BIGINT};
    static const int uk_orders[] = {0}, uk_details[] = {0}, rk[] = {1};
    for (int kind = 0; kind < 3; kind++) {
        JH h;
        WJoinKind jk = kind == 0 ? WJK_LEFT : kind == 1 ? WJK_RIGHT : WJK_FULL;
        /* LEFT: orders LEFT JOIN details; RIGHT: details RIGHT JOIN orders; FULL: orders FULL JOIN details */
        bool details_left = kind == 1;
        if (details_left) jh_init(&h, jk, 2, details, 1, orders);
        else jh_init(&h, jk, 1, orders, 2, details);
        jh_keys(&h, 1, details_left ? rk : K0, details_left ? K0 : rk, NULL);
        h.spec.left_nuk = h.spec.right_nuk = 1;
        h.spec.left_uk = details_left ? uk_details : uk_orders;
        h.spec.right_uk = details_left ? uk_orders : uk_details;
        CHECK(jh_open(&h));
        int det_in = details_left ? 0 : 1;
        feed(&h, 1 - det_in, "+I,1;+I,2");
        WChunk *c = row_chunk(&h, rowt, 1, "first", WRK_INSERT);
        wop_push(h.op, det_in, c);
        wchunk_free(c);
        if (kind == 2) {
            c = row_chunk(&h, rowt, 3, "third", WRK_INSERT);
            wop_push(h.op, det_in, c);
            wchunk_free(c);
        }
        if (kind == 0)
            CHECK_STR(take(&h), "+I[1, null, null]\n+I[2, null, null]\n"
                                "-D[1, null, null]\n+I[1, +I[1, first], 1]\n");
        else if (kind == 1)
            CHECK_STR(take(&h), "+I[null, null, 1]\n+I[null, null, 2]\n"
                                "-D[null, null, 1]\n+I[+I[1, first], 1, 1]\n");
        else
            CHECK_STR(take(&h), "+I[1, null, null]\n+I[2, null, null]\n"
                                "-D[1, null, null]\n+I[1, +I[1, first], 1]\n+I[null, +I[3, third], 3]\n");
        /* retract the nested row: the order is padded again */
        c = row_chunk(&h, rowt, 1, "first", WRK_DELETE);
        wop_push(h.op, det_in, c);
        wchunk_free(c);
        if (kind == 1) CHECK_STR(take(&h), "-D[+I[1, first], 1, 1]\n+I[null, null, 1]\n");
        else CHECK_STR(take(&h), "-D[1, +I[1, first], 1]\n+I[1, null, null]\n");
        jh_free(&h);
    }
    jh_free(&h0);
}

WTEST(join_conf_anti_join_on_nested)
{
    /* NOT EXISTS (... t1.ext.nested = t2.ext.nested.nested1.nested2): anti join on the
       projected strings */
    static const WType *t[] = {&WTYPE_STRING};
    static const int proj[] = {0};
    JH h;
    jh_init(&h, WJK_ANTI, 1, t, 1, t);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,test_diff;+I,test_same");
    feed(&h, 1, "+I,test_same");
    CHECK_SET(&h, 1, proj, true, "+I[test_diff]\n");
    jh_free(&h);
}

/* ---------------- changelogs derived from Flink's operator code ---------------- */

static const WType *KV[] = {&WTYPE_INT, &WTYPE_STRING};

WTEST(join_inner_forwards_row_kinds)
{
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_retracts = h.spec.right_retracts = true;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "+I[1, a, 1, x]\n");
    feed(&h, 0, "-U,1,a;+U,1,b");
    CHECK_STR(take(&h), "-U[1, a, 1, x]\n+U[1, b, 1, x]\n");
    feed(&h, 1, "-D,1,x");
    CHECK_STR(take(&h), "-D[1, b, 1, x]\n");
    feed(&h, 0, "-D,1,b");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "+U,1,y");
    CHECK_STR(take(&h), "");
    jh_free(&h);
}

WTEST(join_left_pads_and_repads)
{
    JH h;
    jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.right_retracts = true;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "+I[1, a, null, null]\n");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "-D[1, a, null, null]\n+I[1, a, 1, x]\n");
    feed(&h, 1, "+I,1,y");
    CHECK_STR(take(&h), "+I[1, a, 1, y]\n");
    /* the inner side's retraction kind is forwarded (-U), the padding comes back only when the
       last match goes */
    feed(&h, 1, "-U,1,x");
    CHECK_STR(take(&h), "-U[1, a, 1, x]\n");
    feed(&h, 1, "-D,1,y");
    CHECK_STR(take(&h), "-D[1, a, 1, y]\n+I[1, a, null, null]\n");
    feed(&h, 0, "+I,1,b");
    CHECK_STR(take(&h), "+I[1, b, null, null]\n");
    feed(&h, 0, "-D,1,a");
    CHECK_STR(take(&h), "-D[1, a, null, null]\n");
    /* an outer-side row with matches is retracted with -D even when it came as -U */
    feed(&h, 1, "+I,1,z");
    CHECK_STR(take(&h), "-D[1, b, null, null]\n+I[1, b, 1, z]\n");
    feed(&h, 0, "-U,1,b");
    CHECK_STR(take(&h), "-D[1, b, 1, z]\n");
    /* right rows without a left partner produce nothing */
    feed(&h, 1, "+I,2,q;-D,2,q");
    CHECK_STR(take(&h), "");
    jh_free(&h);
}

WTEST(join_full_outer_both_sides)
{
    JH h;
    jh_init(&h, WJK_FULL, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "+I[null, null, 1, x]\n");
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "-D[null, null, 1, x]\n+I[1, a, 1, x]\n");
    feed(&h, 0, "+I,1,b");
    CHECK_STR(take(&h), "+I[1, b, 1, x]\n");
    feed(&h, 1, "+I,1,y");
    /* a and b already have a match (no padding to retract) */
    CHECK(strstr(take(&h), "-D") == NULL);
    feed(&h, 1, "-D,1,x");
    CHECK_SET(&h, 4, P4, false, "-D[1, a, 1, x]\n-D[1, b, 1, x]\n");
    feed(&h, 0, "-D,1,a");
    CHECK_STR(take(&h), "-D[1, a, 1, y]\n");
    feed(&h, 0, "-D,1,b");
    CHECK_STR(take(&h), "-D[1, b, 1, y]\n+I[null, null, 1, y]\n");
    feed(&h, 1, "-D,1,y");
    CHECK_STR(take(&h), "-D[null, null, 1, y]\n");
    jh_free(&h);
}

WTEST(join_left_duplicate_rows_no_unique_key)
{
    /* NO_UK views keep occurrence counts; every copy is padded and retracted */
    JH h;
    jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a;+I,1,a");
    CHECK_STR(take(&h), "+I[1, a, null, null]\n+I[1, a, null, null]\n");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "-D[1, a, null, null]\n+I[1, a, 1, x]\n-D[1, a, null, null]\n+I[1, a, 1, x]\n");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "+I[1, a, 1, x]\n+I[1, a, 1, x]\n");
    feed(&h, 1, "-D,1,x");
    CHECK_STR(take(&h), "-D[1, a, 1, x]\n-D[1, a, 1, x]\n");
    feed(&h, 1, "-D,1,x");
    CHECK_STR(take(&h), "-D[1, a, 1, x]\n+I[1, a, null, null]\n-D[1, a, 1, x]\n+I[1, a, null, null]\n");
    feed(&h, 0, "-D,1,a");
    CHECK_STR(take(&h), "-D[1, a, null, null]\n");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "-D[1, a, null, null]\n+I[1, a, 1, x]\n");
    jh_free(&h);
}

WTEST(join_left_upsert_update_is_not_additional_match)
{
    /* right side unique on column 0 (not the join key): a +U replacing a stored row does not
       add a match (Flink's isAdditionalMatch), so its deletion re-pads the left row */
    static const WType *rt[] = {&WTYPE_STRING, &WTYPE_INT, &WTYPE_STRING};
    static const int ruk[] = {0};
    JH h;
    jh_init(&h, WJK_LEFT, 2, KV, 3, rt);
    jh_keys(&h, 1, K0, K1, NULL);
    h.spec.right_nuk = 1;
    h.spec.right_uk = ruk;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "+I[1, a, null, null, null]\n");
    feed(&h, 1, "+I,k1,1,x");
    CHECK_STR(take(&h), "-D[1, a, null, null, null]\n+I[1, a, k1, 1, x]\n");
    feed(&h, 1, "+U,k1,1,y");
    CHECK_STR(take(&h), "+I[1, a, k1, 1, y]\n");
    feed(&h, 1, "-D,k1,1,y");
    CHECK_STR(take(&h), "-D[1, a, k1, 1, y]\n+I[1, a, null, null, null]\n");
    /* a second distinct unique key is an additional match */
    feed(&h, 1, "+I,k1,1,x;+I,k2,1,z");
    CHECK_STR(take(&h), "-D[1, a, null, null, null]\n+I[1, a, k1, 1, x]\n+I[1, a, k2, 1, z]\n");
    feed(&h, 1, "-D,k1,1,x");
    CHECK_STR(take(&h), "-D[1, a, k1, 1, x]\n");
    feed(&h, 1, "-D,k2,1,z");
    CHECK_STR(take(&h), "-D[1, a, k2, 1, z]\n+I[1, a, null, null, null]\n");
    jh_free(&h);
}

WTEST(join_outer_with_value_state_views)
{
    /* unique keys contained in the join key: value state per side, with association counts */
    static const int uk[] = {0};
    JH h;
    jh_init(&h, WJK_FULL, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_nuk = h.spec.right_nuk = 1;
    h.spec.left_uk = h.spec.right_uk = uk;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "+I[1, a, null, null]\n");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "-D[1, a, null, null]\n+I[1, a, 1, x]\n");
    feed(&h, 0, "-U,1,a;+U,1,b");
    CHECK_STR(take(&h), "-D[1, a, 1, x]\n+I[null, null, 1, x]\n-D[null, null, 1, x]\n+I[1, b, 1, x]\n");
    feed(&h, 1, "-D,1,x");
    CHECK_STR(take(&h), "-D[1, b, 1, x]\n+I[1, b, null, null]\n");
    char m[512] = "";
    wop_metrics_text(h.op, m, sizeof m);
    CHECK(strstr(m, "leftState.entries=1") != NULL);
    CHECK(strstr(m, "rightState.entries=0") != NULL);
    CHECK(strstr(m, "ttlExpiredRecords=0") != NULL);
    jh_free(&h);
}

WTEST(join_residual_on_outer_join)
{
    /* LEFT JOIN ... ON k = k AND l.v < r.v: non-matching candidates do not count as
       associations */
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_LEFT, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, "<", col(&h, 1, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,5");
    CHECK_STR(take(&h), "+I[1, 5, null, null]\n");
    feed(&h, 1, "+I,1,3");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "+I,1,7");
    CHECK_STR(take(&h), "-D[1, 5, null, null]\n+I[1, 5, 1, 7]\n");
    feed(&h, 0, "+I,1,4;+I,1,9");
    CHECK_STR(take(&h), "+I[1, 4, 1, 7]\n+I[1, 9, null, null]\n");
    feed(&h, 1, "-D,1,7");
    CHECK_SET(&h, 4, P4, false,
              "-D[1, 5, 1, 7]\n+I[1, 5, null, null]\n-D[1, 4, 1, 7]\n+I[1, 4, null, null]\n");
    /* NULL in the residual's input counts as false */
    feed(&h, 1, "+I,1,null");
    CHECK_STR(take(&h), "");
    jh_free(&h);
}

WTEST(join_semi_anti_changelog)
{
    JH h;
    jh_init(&h, WJK_SEMI, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.right_retracts = true;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "+I[1, a]\n");
    feed(&h, 1, "+I,1,y");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "-D,1,y");
    CHECK_STR(take(&h), "");
    /* the right side's kinds are used: -U / +U */
    feed(&h, 1, "-U,1,x");
    CHECK_STR(take(&h), "-U[1, a]\n");
    feed(&h, 1, "+U,1,z");
    CHECK_STR(take(&h), "+U[1, a]\n");
    /* left rows keep their own kind */
    feed(&h, 0, "-U,1,a;+U,1,b");
    CHECK_STR(take(&h), "-U[1, a]\n+U[1, b]\n");
    feed(&h, 0, "+I,2,c");
    CHECK_STR(take(&h), "");
    jh_free(&h);

    jh_init(&h, WJK_ANTI, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a;+I,1,a");
    CHECK_STR(take(&h), "+I[1, a]\n+I[1, a]\n");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "-D[1, a]\n-D[1, a]\n");
    feed(&h, 1, "+I,1,y");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "-D,1,x");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "-U,1,y");
    CHECK_STR(take(&h), "+I[1, a]\n+I[1, a]\n");
    feed(&h, 0, "-D,1,a");
    CHECK_STR(take(&h), "-D[1, a]\n");
    /* a NULL key never matches with '=': the anti join keeps the row */
    feed(&h, 1, "+I,null,n");
    feed(&h, 0, "+I,null,b");
    CHECK_STR(take(&h), "+I[null, b]\n");
    jh_free(&h);
}

WTEST(join_semi_with_residual_exists)
{
    /* EXISTS (SELECT ... WHERE r.k = l.k AND r.v > l.v) */
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_SEMI, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, ">", col(&h, 3, &WTYPE_INT), col(&h, 1, &WTYPE_INT));
    CHECK(jh_open(&h));
    feed(&h, 1, "+I,1,5");
    feed(&h, 0, "+I,1,4;+I,1,5;+I,1,6");
    CHECK_STR(take(&h), "+I[1, 4]\n");
    feed(&h, 1, "+I,1,10");
    CHECK_SET(&h, 2, P2, false, "+I[1, 5]\n+I[1, 6]\n");
    feed(&h, 1, "-D,1,5");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "-D,1,10");
    CHECK_SET(&h, 2, P2, false, "-D[1, 4]\n-D[1, 5]\n-D[1, 6]\n");
    jh_free(&h);
}

WTEST(join_null_keys)
{
    for (int safe = 0; safe < 2; safe++) {
        static const bool fn_eq[] = {true}, fn_safe[] = {false};
        JH h;
        jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
        jh_keys(&h, 1, K0, K0, safe ? fn_safe : fn_eq);
        CHECK(jh_open(&h));
        feed(&h, 0, "+I,null,a");
        CHECK_STR(take(&h), "+I[null, a, null, null]\n");
        feed(&h, 1, "+I,null,x");
        CHECK_STR(take(&h), safe ? "-D[null, a, null, null]\n+I[null, a, null, x]\n" : "");
        feed(&h, 0, "-D,null,a");
        CHECK_STR(take(&h), safe ? "-D[null, a, null, x]\n" : "-D[null, a, null, null]\n");
        jh_free(&h);
    }
}

WTEST(join_unknown_retraction_does_not_crash)
{
    /* Flink's join does not check the retracted row: it still retracts the joined rows */
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "-D,5,z");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "+I,5,x");
    CHECK_STR(take(&h), "");
    feed(&h, 0, "-U,5,z");
    CHECK_STR(take(&h), "-U[5, z, 5, x]\n");
    CHECK(!h.env.err.set);
    jh_free(&h);
}

WTEST(join_state_ttl_expiry)
{
    /* rows without unique key (map state per join key): each row lives TTL after its write */
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_ttl_ms = 1000;
    h.spec.right_ttl_ms = 5000;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a");
    feed(&h, 1, "+I,2,x");
    h.env.now += 999;
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "+I[1, a, 1, x]\n");
    h.env.now += 1;          /* left (1, a) written 1000 ms ago: expired */
    feed(&h, 1, "+I,1,y");
    CHECK_STR(take(&h), "");
    feed(&h, 0, "+I,2,b");   /* right (2, x) is 1000 ms old: alive */
    CHECK_STR(take(&h), "+I[2, b, 2, x]\n");
    /* a retraction of the expired row meets expired state: counted, nothing emitted for it
       beyond Flink's joined retractions */
    feed(&h, 0, "-D,1,a");
    CHECK_STR(take(&h), "-D[1, a, 1, x]\n-D[1, a, 1, y]\n");
    char m[512] = "";
    wop_metrics_text(h.op, m, sizeof m);
    CHECK(strstr(m, "leftState.entries=1 ") != NULL);   /* (2, b) */
    h.env.now += 10000;
    feed(&h, 0, "+I,1,c");
    CHECK_STR(take(&h), "");
    jh_free(&h);
}

WTEST(join_state_ttl_expiry_value_views)
{
    /* unique keys in the join key (value state): a record meeting expired state is counted */
    static const int uk[] = {0};
    JH h;
    jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_nuk = h.spec.right_nuk = 1;
    h.spec.left_uk = h.spec.right_uk = uk;
    h.spec.left_ttl_ms = h.spec.right_ttl_ms = 1000;
    CHECK(jh_open(&h));
    feed(&h, 1, "+I,1,x");
    h.env.now += 500;
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "+I[1, a, 1, x]\n");
    h.env.now += 500;        /* right (1, x) expired, left (1, a) alive (its update was 500 ms ago) */
    feed(&h, 0, "+I,1,b");
    CHECK_STR(take(&h), "+I[1, b, null, null]\n");
    char m[512] = "";
    wop_metrics_text(h.op, m, sizeof m);
    CHECK(strstr(m, "ttlExpiredRecords=1") != NULL);
    CHECK(strstr(m, "rightState.entries=0") != NULL);
    jh_free(&h);
}

WTEST(join_many_matches_span_windows)
{
    /* more candidates than one joined chunk holds, with a residual */
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_INNER, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, "<", col(&h, 1, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
    CHECK(jh_open(&h));
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < 5000; i++) wsb_printf(&b, "%s+I,7,%d", i ? ";" : "", i);
    feed(&h, 1, b.buf);
    wsb_free(&b);
    feed(&h, 0, "+I,7,999");
    CHECK_INT(h.cap->rows, 4000);
    capture_clear(h.cap);
    feed(&h, 0, "-D,7,999");
    CHECK_INT(h.cap->rows, 4000);
    CHECK(strncmp(h.cap->text.buf, "-D[7, 999, 7, ", 14) == 0);
    jh_free(&h);
}

WTEST(join_batched_residual_rereads_associations)
{
    /* with a residual the rows of a chunk are matched together; association counts changed by
       an earlier row of the same chunk must still be seen by the later ones */
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_FULL, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, "<", col(&h, 1, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,5;+I,2,5");
    CHECK_STR(take(&h), "+I[1, 5, null, null]\n+I[2, 5, null, null]\n");
    feed(&h, 1, "+I,1,7;+I,1,8;+I,1,2;+I,2,9;-D,1,7");
    CHECK_STR(take(&h), "-D[1, 5, null, null]\n+I[1, 5, 1, 7]\n+I[1, 5, 1, 8]\n"
                        "+I[null, null, 1, 2]\n-D[2, 5, null, null]\n+I[2, 5, 2, 9]\n"
                        "-D[1, 5, 1, 7]\n");
    feed(&h, 1, "-D,1,8;+I,1,6;-D,1,6");
    CHECK_STR(take(&h), "-D[1, 5, 1, 8]\n+I[1, 5, null, null]\n"
                        "-D[1, 5, null, null]\n+I[1, 5, 1, 6]\n"
                        "-D[1, 5, 1, 6]\n+I[1, 5, null, null]\n");
    /* the left side: rows of one chunk against the same right records */
    feed(&h, 0, "+I,1,1;+I,1,0;-D,1,1");
    CHECK_STR(take(&h), "-D[null, null, 1, 2]\n+I[1, 1, 1, 2]\n+I[1, 0, 1, 2]\n"
                        "-D[1, 1, 1, 2]\n");
    feed(&h, 0, "-D,1,0");
    CHECK_STR(take(&h), "-D[1, 0, 1, 2]\n+I[null, null, 1, 2]\n");
    jh_free(&h);

    /* semi join: two right rows of one chunk for the same left row emit it once */
    jh_init(&h, WJK_SEMI, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, "<", col(&h, 1, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,5");
    feed(&h, 1, "+I,1,7;+I,1,8;-D,1,7;-D,1,8;+I,1,9");
    CHECK_STR(take(&h), "+I[1, 5]\n-D[1, 5]\n+I[1, 5]\n");
    jh_free(&h);
}

WTEST(join_batched_run_cut_by_a_large_row)
{
    /* a run ends when the next row's candidates do not fit: the rows of the run must still be
       stored under their own key */
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_LEFT, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, "<", col(&h, 1, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
    CHECK(jh_open(&h));
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < 100; i++) wsb_printf(&b, "%s+I,1,%d", i ? ";" : "", 1000 + i);
    for (int i = 0; i < 2000; i++) wsb_printf(&b, ";+I,2,%d", 1000 + i);
    feed(&h, 1, b.buf);
    wsb_free(&b);
    feed(&h, 0, "+I,1,5;+I,2,5");
    CHECK_INT(h.cap->rows, 2100);
    capture_clear(h.cap);
    feed(&h, 1, "-D,1,1000");
    CHECK_STR(take(&h), "-D[1, 5, 1, 1000]\n");
    feed(&h, 0, "-D,1,5");
    CHECK_INT(h.cap->rows, 99);
    capture_clear(h.cap);
    feed(&h, 0, "-D,2,5");
    CHECK_INT(h.cap->rows, 2000);
    jh_free(&h);
}

WTEST(join_outer_many_matches_span_windows)
{
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_FULL, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < 3000; i++) wsb_printf(&b, "%s+I,7,%d", i ? ";" : "", i);
    feed(&h, 1, b.buf);
    wsb_free(&b);
    CHECK_INT(h.cap->rows, 3000);
    capture_clear(h.cap);
    feed(&h, 0, "+I,7,1");
    CHECK_INT(h.cap->rows, 6000);
    CHECK(strncmp(h.cap->text.buf, "-D[null, null, 7, ", 18) == 0);
    capture_clear(h.cap);
    feed(&h, 0, "+I,7,2");
    CHECK_INT(h.cap->rows, 3000);
    capture_clear(h.cap);
    feed(&h, 0, "-D,7,1;-D,7,2");
    CHECK_INT(h.cap->rows, 9000);
    const char *txt = h.cap->text.buf;
    const char *last = txt + strlen(txt) - 1;
    while (last > txt && last[-1] != '\n') last--;
    CHECK(strncmp(last, "+I[null, null, 7, ", 18) == 0);
    jh_free(&h);
}

/* Joined rows are copied to the output a column at a time after the row's other emissions were
   queued (flush_joined): a full outer join's retraction of each padded row must still come right
   before its joined row, across output chunks and candidate windows, in candidate order. */
WTEST(join_joined_rows_keep_order_with_pads)
{
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_FULL, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    enum { N = 2500 };
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < N; i++) wsb_printf(&b, "%s+I,7,%d", i ? ";" : "", i);
    feed(&h, 1, b.buf);
    wsb_free(&b);
    capture_clear(h.cap);
    feed(&h, 0, "+I,7,1;+I,8,1;+I,7,2");
    CHECK_INT(h.cap->rows, 2 * N + 1 + N);
    /* candidates come in the state's order: the same order for both left rows */
    static int order[N];
    static bool seen[N];
    const char *p = h.cap->text.buf;
    int bad = 0;
    for (int i = 0; i < N && !bad; i++) {
        int x = -1, y = -2;
        if (sscanf(p, "-D[null, null, 7, %d]\n", &x) != 1 || x < 0 || x >= N || seen[x]) bad = 1;
        else seen[x] = true, order[i] = x;
        p = strchr(p, '\n') + 1;
        if (sscanf(p, "+I[7, 1, 7, %d]\n", &y) != 1 || y != x) bad = 2;
        p = strchr(p, '\n') + 1;
    }
    CHECK_INT(bad, 0);
    CHECK(strncmp(p, "+I[8, 1, null, null]\n", 21) == 0);
    p = strchr(p, '\n') + 1;
    for (int i = 0; i < N && !bad; i++) {
        int x = -1;
        if (sscanf(p, "+I[7, 2, 7, %d]\n", &x) != 1 || x != order[i]) bad = 3;
        p = strchr(p, '\n') + 1;
    }
    CHECK_INT(bad, 0);
    jh_free(&h);
}

static int count_lines(const char *text, const char *line)
{
    int n = 0;
    size_t len = strlen(line);
    for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
        if (!strncmp(p, line, len) && p[len] == '\n') n++;
        if (!strchr(p, '\n')) break;
    }
    return n;
}

/* A record of count 2 emitted twice and a record the condition rejects, among one row's
   candidates: the output has each copy and nothing of the rejected record, whatever the state's
   order of the three (30 keys: the rejected one lies between the others under some of them). */
WTEST(join_duplicate_records_beside_rejected_ones)
{
    static const WType *t[] = {&WTYPE_INT, &WTYPE_INT};
    JH h;
    jh_init(&h, WJK_INNER, 2, t, 2, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, ">", col(&h, 1, &WTYPE_INT), col(&h, 3, &WTYPE_INT));
    CHECK(jh_open(&h));
    WStrBuf b;
    wsb_init(&b);
    for (int k = 1; k <= 30; k++) wsb_printf(&b, "%s+I,%d,5;+I,%d,5;+I,%d,0;+I,%d,6", k > 1 ? ";" : "", k, k, k, k);
    feed(&h, 0, b.buf);
    for (int k = 1; k <= 30; k++) {          /* a chunk each: a run of three candidates */
        wsb_clear(&b);
        wsb_printf(&b, "+I,%d,1", k);
        feed(&h, 1, b.buf);
    }
    CHECK_INT(h.cap->rows, 90);
    int bad = 0;
    for (int k = 1; k <= 30; k++) {
        char l5[64], l6[64];
        snprintf(l5, sizeof l5, "+I[%d, 5, %d, 1]", k, k);
        snprintf(l6, sizeof l6, "+I[%d, 6, %d, 1]", k, k);
        if (count_lines(h.cap->text.buf, l5) != 2 || count_lines(h.cap->text.buf, l6) != 1) bad++;
    }
    CHECK_INT(bad, 0);
    wsb_free(&b);
    jh_free(&h);
}

WTEST(join_invalid_spec)
{
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    static const int bad[] = {5};
    jh_keys(&h, 1, bad, K0, NULL);
    CHECK(!jh_open(&h));
    CHECK(h.env.err.set);
    jh_free(&h);

    static const WType *st[] = {&WTYPE_STRING};
    jh_init(&h, WJK_INNER, 2, KV, 1, st);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(!jh_open(&h));
    CHECK(strstr(h.env.err.msg, "type") != NULL);
    jh_free(&h);
}

WTEST(join_metrics_state_sizes)
{
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a;+I,1,a;+I,2,b");
    feed(&h, 1, "+I,3,c");
    char m[512] = "";
    wop_metrics_text(h.op, m, sizeof m);
    CHECK(strstr(m, "leftState.entries=2 leftState.bytes=") != NULL);
    CHECK(strstr(m, "rightState.entries=1 rightState.bytes=") != NULL);
    feed(&h, 0, "-D,1,a");
    m[0] = 0;
    wop_metrics_text(h.op, m, sizeof m);
    CHECK(strstr(m, "leftState.entries=2") != NULL);
    feed(&h, 0, "-D,1,a");
    m[0] = 0;
    wop_metrics_text(h.op, m, sizeof m);
    CHECK(strstr(m, "leftState.entries=1") != NULL);
    jh_free(&h);
}

/* ---------------- throughput ---------------- */

static double now_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count_process(WOperator *op, int input, const WChunk *in) { (void)op; (void)input; (void)in; }
static void count_destroy(WOperator *op) { free(op); }
static const WOpOps COUNT_OPS = {.process = count_process, .destroy = count_destroy};

/* Inner join of two inputs with unique keys; 1M rows each with WEIR_JOIN_BENCH set. */
WTEST(join_bench_inner_unique_keys)
{
    const char *env = getenv("WEIR_JOIN_BENCH");
    int n = env ? atoi(env) : 20000;
    if (n <= 0) n = 1000000;
    static const WType *t[] = {&WTYPE_BIGINT, &WTYPE_BIGINT, &WTYPE_STRING};
    static const int uk[] = {0};
    JH h;
    jh_init(&h, WJK_INNER, 3, t, 3, t);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_nuk = h.spec.right_nuk = 1;
    h.spec.left_uk = h.spec.right_uk = uk;
    bool residual = getenv("WEIR_JOIN_BENCH_RESIDUAL") != NULL;
    if (residual)   /* l.v <= r.v: true for every pair */
        h.spec.residual = call2(&h, "<=", col(&h, 1, &WTYPE_BIGINT), col(&h, 4, &WTYPE_BIGINT));
    CHECK(jh_open(&h));
    /* count output rows without rendering them */
    WOperator *sink = wcalloc(1, sizeof *sink);
    wop_init(sink, &COUNT_OPS, &h.env.ctx, 1, 6, h.out_types, NULL);
    h.op->nouts = 0;
    wop_connect(h.op, sink, 0);
    WChunk *c = wchunk_new(3, t, WCHUNK_CAP);
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int side = 0; side < 2; side++) {
        for (int base = 0; base < n; base += WCHUNK_CAP) {
            c->nrows = 0;
            int m = n - base < WCHUNK_CAP ? n - base : WCHUNK_CAP;
            for (int i = 0; i < m; i++) {
                int r = wchunk_add_row(c, WRK_INSERT);
                c->cols[0].data[r].i = base + i;
                c->cols[1].data[r].i = (base + i) * 7;
                c->cols[2].data[r].s.p = side ? "right-value" : "left";
                c->cols[2].data[r].s.len = side ? 11 : 4;
            }
            wop_push(h.op, side, c);
        }
    }
    double dt = now_s(CLOCK_MONOTONIC) - t0, dc = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    CHECK_INT(h.op->rows_out, n);
    if (env) fprintf(stderr, "join bench%s: 2 x %d rows in %.3f s (cpu %.3f s) = %.2f M input rows/s "
                     "(%.2f per cpu second)\n", residual ? " (residual)" : "", n, dt, dc,
                     2.0 * n / dt / 1e6, 2.0 * n / dc / 1e6);
    wchunk_free(c);
    wop_free(sink);
    jh_free(&h);
}

/* ---------------- mini-batch (Flink 2.3's MiniBatchStreamingJoinOperator) ---------------- */

static void jh_minibatch(JH *h, int64_t size)
{
    WMiniBatchSpec mb = {.mode = WMB_JOIN, .size = size};
    wop_minibatch_enable(h->op, &mb);
}

WTEST(join_minibatch_right_before_left)
{
    /* LEFT JOIN, no unique keys: the rows of one batch give only the final joined row (the
       right batch goes into state first); without the bundle the left row is padded first */
    for (int mb = 0; mb < 2; mb++) {
        JH h;
        jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
        jh_keys(&h, 1, K0, K0, NULL);
        CHECK(jh_open(&h));
        if (mb) jh_minibatch(&h, 100);
        feed(&h, 0, "+I,1,a;+I,2,b");
        feed(&h, 1, "+I,1,x");
        if (mb) {
            CHECK_STR(take(&h), "");                        /* buffered */
            wop_input_watermark(h.op, 1, 1000);             /* either input's boundary ends it */
            CHECK_STR(take(&h), "+I[2, b, null, null]\n+I[1, a, 1, x]\n");   /* HashMap order */
        } else {
            CHECK_STR(take(&h), "+I[1, a, null, null]\n+I[2, b, null, null]\n"
                                "-D[1, a, null, null]\n+I[1, a, 1, x]\n");
        }
        jh_free(&h);
    }
}

WTEST(join_minibatch_size_counts_both_inputs)
{
    /* CountCoBundleTrigger: two rows of either input make a batch of size 2 */
    JH h;
    jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    CHECK(jh_open(&h));
    jh_minibatch(&h, 2);
    feed(&h, 0, "+I,1,a");
    CHECK_STR(take(&h), "");
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "+I[1, a, 1, x]\n");
    feed(&h, 0, "+I,1,b;+I,2,c");
    CHECK_STR(take(&h), "+I[2, c, null, null]\n+I[1, b, 1, x]\n");
    feed(&h, 1, "+I,2,y");
    CHECK_STR(take(&h), "");
    wop_input_end(h.op, 0);
    wop_input_end(h.op, 1);                                 /* the end of input ends the batch */
    CHECK_STR(take(&h), "-D[2, c, null, null]\n+I[2, c, 2, y]\n");
    jh_free(&h);
}

WTEST(join_minibatch_folds_no_unique_key)
{
    /* a retraction cancels the equal earlier accumulation of the same key and input; an
       unequal one is processed */
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_retracts = h.spec.right_retracts = true;
    CHECK(jh_open(&h));
    feed(&h, 1, "+I,1,x");
    wop_input_watermark(h.op, 0, 1000);
    CHECK_STR(take(&h), "");
    jh_minibatch(&h, 100);
    feed(&h, 0, "+I,1,a;+I,1,b;-D,1,a;-D,1,c");
    wop_input_watermark(h.op, 0, 2000);
    CHECK_STR(take(&h), "+I[1, b, 1, x]\n-D[1, c, 1, x]\n");   /* -D joins what state has */
    jh_free(&h);
}

WTEST(join_minibatch_suppresses_unique_key_pairs)
{
    /* unique key contained in the join key (value state): +I then -U of a key in one batch
       leave nothing, as Flink 2.3 the later +U stays a +U; an -U/+U pair of a stored row joins
       as -U and +U without touching state in between */
    static const int uk[] = {0};
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.left_nuk = h.spec.right_nuk = 1;
    h.spec.left_uk = h.spec.right_uk = uk;
    h.spec.left_retracts = h.spec.right_retracts = true;
    CHECK(jh_open(&h));
    jh_minibatch(&h, 100);
    feed(&h, 1, "+I,1,x;+I,2,y");
    feed(&h, 0, "+I,1,a;-U,1,a;+U,1,b;+I,2,c");
    wop_input_watermark(h.op, 1, 1000);
    const char *got = take(&h);
    CHECK(strstr(got, "+U[1, b, 1, x]\n") != NULL);
    CHECK(strstr(got, "+I[2, c, 2, y]\n") != NULL);
    CHECK(strstr(got, "[1, a,") == NULL);
    feed(&h, 0, "-U,2,c;+U,2,d");
    wop_input_watermark(h.op, 1, 2000);
    CHECK_STR(take(&h), "-U[2, c, 2, y]\n+U[2, d, 2, y]\n");
    feed(&h, 1, "-D,2,y");
    wop_input_watermark(h.op, 1, 3000);
    CHECK_STR(take(&h), "-D[2, d, 2, y]\n");               /* state holds the new row */
    jh_free(&h);
}

/* The left records' bytes (leftState's entries and bytes, as -v reports them). */
static void left_state(JH *h, int64_t *entries, int64_t *bytes)
{
    WOpMetrics m;
    memset(&m, 0, sizeof m);
    h->op->ops->metrics(h->op, &m);
    *entries = *bytes = -1;
    for (int i = 0; i < m.nstates; i++)
        if (!strcmp(m.states[i].name, "leftState")) { *entries = m.states[i].entries; *bytes = m.states[i].bytes; }
}

WTEST(join_records_keep_the_columns_read)
{
    /* nothing above the join reads the left note (out_reads[1] == 0): the left records store it
       NULL, so rows that differ only there share one record with count 2; each joins and
       retracts as before, the dropped column NULL in rows read from state */
    static const uint64_t READS[] = {1, 0, 1, 1};
    JH h;
    jh_init(&h, WJK_LEFT, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.out_reads = READS;
    CHECK(jh_open(&h));
    feed(&h, 0, "+I,1,a long note;+I,1,another long note");
    CHECK_STR(take(&h), "+I[1, a long note, null, null]\n+I[1, another long note, null, null]\n");
    int64_t entries, bytes;
    left_state(&h, &entries, &bytes);
    CHECK(entries == 1);
    CHECK(bytes < 64);
    feed(&h, 1, "+I,1,x");
    CHECK_STR(take(&h), "-D[1, null, null, null]\n+I[1, null, 1, x]\n-D[1, null, null, null]\n+I[1, null, 1, x]\n");
    feed(&h, 0, "-D,1,a long note");
    CHECK_STR(take(&h), "-D[1, a long note, 1, x]\n");
    left_state(&h, &entries, &bytes);
    CHECK(entries == 1);
    feed(&h, 1, "-D,1,x");
    CHECK_STR(take(&h), "-D[1, null, 1, x]\n+I[1, null, null, null]\n");
    feed(&h, 0, "-D,1,another long note");
    CHECK_STR(take(&h), "-D[1, another long note, null, null]\n");
    left_state(&h, &entries, &bytes);
    CHECK(entries == 0);
    jh_free(&h);
}

WTEST(join_records_keep_keys_and_condition_columns)
{
    /* unread by the consumer, but the key (column 0) and the residual's column (right 1) stay */
    static const uint64_t READS[] = {0, 1, 0, 0};
    JH h;
    jh_init(&h, WJK_INNER, 2, KV, 2, KV);
    jh_keys(&h, 1, K0, K0, NULL);
    h.spec.residual = call2(&h, "<>", col(&h, 1, &WTYPE_STRING), col(&h, 3, &WTYPE_STRING));
    h.spec.out_reads = READS;
    CHECK(jh_open(&h));
    feed(&h, 1, "+I,1,x;+I,1,y");
    feed(&h, 0, "+I,1,x");
    CHECK_STR(take(&h), "+I[1, x, 1, y]\n");
    feed(&h, 0, "+I,2,x");
    CHECK_STR(take(&h), "");
    jh_free(&h);
}
