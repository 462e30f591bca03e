/*
 * test_match_nfa.c — the MATCH_RECOGNIZE NFA (exec/match_nfa.c): pattern compilation and
 * matching with Flink CEP's semantics, over events that are letters. Variable i accepts the
 * letters in accept[i].
 */
#include "unit.h"
#include "../../src/exec/match_nfa.h"

#include <string.h>

typedef struct T {
    const char *events;
    const char *accept[8];
    char out[16][32];           /* per match: "<first seq>-<last seq>:<vars as letters>" */
    int nout;
} T;

static bool t_cond(void *ctx, int var, const WNfaStep *path, int npath, int64_t seq, bool *err)
{
    T *t = ctx;
    (void)path; (void)npath; (void)err;
    return strchr(t->accept[var], t->events[seq]) != NULL;
}

static void t_match(void *ctx, const WNfaStep *path, int npath, int64_t ts)
{
    T *t = ctx;
    (void)ts;
    if (t->nout >= 16) return;
    char *o = t->out[t->nout++];
    int n = snprintf(o, 32, "%lld-%lld:", (long long)path[0].seq, (long long)path[npath - 1].seq);
    for (int i = 0; i < npath && n < 31; i++) o[n++] = (char)('A' + path[i].var);
    o[n] = 0;
}

/* elems: per variable min, max (-1 unbounded), reluctant */
static int run_ex(T *t, int n, const int (*q)[3], WMatchAfter after, int after_var, int64_t within, bool roundtrip);
static int run(T *t, int n, const int (*q)[3], WMatchAfter after, int after_var, int64_t within)
{
    return run_ex(t, n, q, after, after_var, within, false);
}

/* roundtrip: the run goes through wnfa_run_encode / wnfa_run_decode after every event, as the
   Match operator keeps it in keyed state between records. */
static int run_ex(T *t, int n, const int (*q)[3], WMatchAfter after, int after_var, int64_t within, bool roundtrip)
{
    WMatchElem el[8];
    memset(el, 0, sizeof el);
    for (int i = 0; i < n; i++) {
        el[i].var = i;
        el[i].min = q[i][0];
        el[i].max = q[i][1];
        el[i].reluctant = q[i][2];
        bool optional = q[i][0] == 0 && q[i][1] == 1;
        el[i].greedy = !q[i][2] && !(optional || q[i][0] == q[i][1]);
    }
    WNfa nfa;
    const char *msg;
    if (!wnfa_compile(el, n, within, after, after_var, &nfa, &msg)) return -1;
    WNfaRun r;
    wnfa_run_init(&nfa, &r);
    WNfaCallbacks cb = {.cond = t_cond, .match = t_match, .ctx = t};
    int64_t len = (int64_t)strlen(t->events);
    for (int64_t i = 0; i < len; i++) {
        wnfa_advance(&nfa, &r, i, &cb);
        wnfa_process(&nfa, &r, i, i, &cb);
        if (roundtrip) {
            WStrBuf b;
            wsb_init(&b);
            wnfa_run_encode(&r, &b);
            wnfa_run_free(&r);
            if (!wnfa_run_decode(&nfa, &r, b.buf, b.len)) t->nout = -100;
            wsb_free(&b);
        }
    }
    wnfa_advance(&nfa, &r, INT64_MAX / 2, &cb);
    wnfa_run_free(&r);
    wnfa_free(&nfa);
    return t->nout;
}

WTEST(nfa_skip_past_last_row)
{
    T t = {.events = "aaab", .accept = {"a", "b"}};
    static const int q[][3] = {{1, -1, 0}, {1, 1, 0}};      /* A+ B */
    CHECK_INT(run(&t, 2, q, WMA_PAST_LAST_ROW, 0, 0), 1);
    CHECK_STR(t.out[0], "0-3:AAAB");
}

WTEST(nfa_skip_to_next_row)
{
    T t = {.events = "aaab", .accept = {"a", "b"}};
    static const int q[][3] = {{1, -1, 0}, {1, 1, 0}};
    CHECK_INT(run(&t, 2, q, WMA_TO_NEXT_ROW, 0, 0), 3);
    CHECK_STR(t.out[0], "0-3:AAAB");
    CHECK_STR(t.out[1], "1-3:AAB");
    CHECK_STR(t.out[2], "2-3:AB");
}

WTEST(nfa_skip_to_last_and_first)
{
    T t = {.events = "aaab", .accept = {"a", "b"}};
    static const int q[][3] = {{1, -1, 0}, {1, 1, 0}};
    CHECK_INT(run(&t, 2, q, WMA_TO_LAST, 0, 0), 2);        /* TO LAST A: row 2 */
    CHECK_STR(t.out[1], "2-3:AB");
    T u = {.events = "aaab", .accept = {"a", "b"}};
    CHECK_INT(run(&u, 2, q, WMA_TO_FIRST, 0, 0), 3);       /* TO FIRST A: nothing pruned */
    T v = {.events = "aaab", .accept = {"a", "b"}};
    CHECK_INT(run(&v, 2, q, WMA_TO_FIRST, 1, 0), 1);       /* TO FIRST B: row 3 */
}

WTEST(nfa_reluctant_vs_greedy)
{
    static const int rel[][3] = {{1, 1, 0}, {1, -1, 1}, {1, 1, 0}};   /* A B+? C */
    static const int gre[][3] = {{1, 1, 0}, {1, -1, 0}, {1, 1, 0}};   /* A B+ C */
    T t = {.events = "abbcc", .accept = {"a", "bc", "c"}};
    CHECK_INT(run(&t, 3, rel, WMA_PAST_LAST_ROW, 0, 0), 1);
    CHECK_STR(t.out[0], "0-3:ABBC");
    T u = {.events = "abbcc", .accept = {"a", "bc", "c"}};
    CHECK_INT(run(&u, 3, gre, WMA_PAST_LAST_ROW, 0, 0), 0);
    T w = {.events = "abbcd", .accept = {"a", "bc", "d"}};     /* greedy: takes c as B, then d */
    CHECK_INT(run(&w, 3, gre, WMA_PAST_LAST_ROW, 0, 0), 1);
    CHECK_STR(w.out[0], "0-4:ABBBC");
}

WTEST(nfa_optional_and_times)
{
    static const int opt[][3] = {{1, 1, 0}, {0, 1, 0}, {1, 1, 0}};    /* A B? C */
    T t = {.events = "acxabc", .accept = {"a", "b", "c"}};
    CHECK_INT(run(&t, 3, opt, WMA_PAST_LAST_ROW, 0, 0), 2);
    CHECK_STR(t.out[0], "0-1:AC");
    CHECK_STR(t.out[1], "3-5:ABC");
    static const int two[][3] = {{2, 2, 0}, {1, 1, 0}};               /* A{2} B */
    T u = {.events = "abaab", .accept = {"a", "b"}};
    CHECK_INT(run(&u, 2, two, WMA_PAST_LAST_ROW, 0, 0), 1);
    CHECK_STR(u.out[0], "2-4:AAB");
    static const int range[][3] = {{1, 3, 0}, {1, 1, 0}};             /* A{1,3} B greedy */
    T v = {.events = "aaaab", .accept = {"a", "b"}};
    CHECK_INT(run(&v, 2, range, WMA_PAST_LAST_ROW, 0, 0), 1);
    CHECK_STR(v.out[0], "1-4:AAAB");
}

WTEST(nfa_within)
{
    static const int q[][3] = {{1, 1, 0}, {1, -1, 1}, {1, 1, 0}};     /* A B+? C */
    T t = {.events = "abbbc" "abc", .accept = {"a", "b", "c"}};
    CHECK_INT(run(&t, 3, q, WMA_PAST_LAST_ROW, 0, 3), 1);             /* the first is 4 rows long */
    CHECK_STR(t.out[0], "5-7:ABC");
}

WTEST(nfa_compile_refuses)
{
    static const int bad[][3] = {{3, 2, 0}};
    T t = {.events = "a", .accept = {"a"}};
    CHECK_INT(run(&t, 1, bad, WMA_PAST_LAST_ROW, 0, 0), -1);
}

WTEST(nfa_run_encode_round_trip)
{
    /* every pattern above gives the same matches when the run is stored and reloaded after each row */
    static const int gre[][3] = {{1, 1, 0}, {1, -1, 0}, {1, 1, 0}};
    static const int rel[][3] = {{1, 1, 0}, {1, -1, 1}, {1, 1, 0}};
    static const int ab[][3] = {{1, -1, 0}, {1, 1, 0}};
    const WMatchAfter afters[] = {WMA_PAST_LAST_ROW, WMA_TO_NEXT_ROW, WMA_TO_LAST, WMA_TO_FIRST};
    for (int a = 0; a < 4; a++) {
        T x = {.events = "aaabaab", .accept = {"a", "b"}}, y = x;
        CHECK_INT(run_ex(&x, 2, ab, afters[a], 0, 0, false), run_ex(&y, 2, ab, afters[a], 0, 0, true));
        for (int i = 0; i < x.nout; i++) CHECK_STR(x.out[i], y.out[i]);
    }
    T x = {.events = "abbcdabcd", .accept = {"a", "bc", "d"}}, y = x;
    CHECK_INT(run_ex(&y, 3, gre, WMA_PAST_LAST_ROW, 0, 0, true), run_ex(&x, 3, gre, WMA_PAST_LAST_ROW, 0, 0, false));
    for (int i = 0; i < x.nout; i++) CHECK_STR(x.out[i], y.out[i]);
    T u = {.events = "abbbc" "abc", .accept = {"a", "b", "c"}}, w = u;
    CHECK_INT(run_ex(&u, 3, rel, WMA_PAST_LAST_ROW, 0, 3, true), 1);
    CHECK_INT(run_ex(&w, 3, rel, WMA_PAST_LAST_ROW, 0, 3, false), 1);
    CHECK_STR(u.out[0], w.out[0]);
}

WTEST(nfa_run_decode_refuses_damaged_bytes)
{
    static const WMatchElem el[2] = {{.var = 0, .min = 1, .max = -1, .greedy = true}, {.var = 1, .min = 1, .max = 1}};
    WNfa nfa;
    const char *msg;
    CHECK(wnfa_compile(el, 2, 0, WMA_PAST_LAST_ROW, 0, &nfa, &msg));
    T t = {.events = "aa", .accept = {"a", "b"}};
    WNfaCallbacks cb = {.cond = t_cond, .match = t_match, .ctx = &t};
    WNfaRun r;
    wnfa_run_init(&nfa, &r);
    wnfa_process(&nfa, &r, 0, 0, &cb);
    wnfa_process(&nfa, &r, 1, 1, &cb);
    WStrBuf b;
    wsb_init(&b);
    wnfa_run_encode(&r, &b);
    int partial = r.n;
    wnfa_run_free(&r);
    CHECK(wnfa_run_decode(&nfa, &r, b.buf, b.len));
    CHECK_INT(r.n, partial);
    CHECK(!wnfa_idle(&r));
    CHECK_INT(wnfa_min_seq(&r), 0);
    wnfa_run_free(&r);
    for (size_t cut = 0; cut < b.len; cut += 3) {        /* truncated: refused, a fresh run */
        CHECK(!wnfa_run_decode(&nfa, &r, b.buf, cut));
        CHECK(wnfa_idle(&r));
        wnfa_run_free(&r);
    }
    int32_t bad = 99;                                       /* a state the NFA does not have */
    memcpy(b.buf + 20, &bad, 4);
    CHECK(!wnfa_run_decode(&nfa, &r, b.buf, b.len));
    wnfa_run_free(&r);
    wsb_free(&b);
    wnfa_free(&nfa);
}
