/*
 * match_nfa.h — the NFA of a MATCH_RECOGNIZE pattern with Flink CEP's semantics (NFACompiler,
 * NFA.process / advanceTime, the after-match skip strategies), independent of rows.
 *
 * Contract: wnfa_compile builds the states Flink's NFACompiler builds for a sequence of pattern
 * elements joined by strict contiguity (next()) with consecutive() quantifiers: singleton,
 * optional, times(n, m) and looping states, TAKE and PROCEED edges, greedy conditions. A WNfaRun
 * is the per-key state (partial matches, completed matches waiting for earlier partial ones);
 * events are fed in order with increasing sequence numbers. Conditions are asked through a
 * callback (variable, the partial match's rows, the event); completed matches are given to a
 * callback as their rows (sequence numbers with their variables) in order. Pure memory, no I/O;
 * depends on plan/match_spec.h (WMatchElem) and common/.
 */
#ifndef WEIR_EXEC_MATCH_NFA_H
#define WEIR_EXEC_MATCH_NFA_H

#include <stdbool.h>
#include <stdint.h>
#include "../plan/match_spec.h"
#include "../common/strbuf.h"

#define WNFA_MAX_LITS 8

typedef struct WNfaLit { int16_t var; bool neg; } WNfaLit;
typedef struct WNfaCond { int n; WNfaLit lit[WNFA_MAX_LITS]; } WNfaCond;   /* conjunction, n = 0: true */

enum { WNFA_TAKE = 1, WNFA_PROCEED = 2 };

typedef struct WNfaEdge { int action; int target; WNfaCond cond; } WNfaEdge;

typedef struct WNfaState {
    int var;                    /* -1 for the final state */
    bool start, final;
    int nedges;
    WNfaEdge edges[3];
} WNfaState;

typedef struct WNfa {
    int nstates;
    WNfaState *states;          /* malloc'd */
    int start;
    int64_t window_ms;          /* WITHIN; 0 = none */
    WMatchAfter after;
    int after_var;
} WNfa;

/* One row of a (partial) match. */
typedef struct WNfaStep { int64_t seq; int var; } WNfaStep;

typedef struct WNfaCS {
    int state;
    int64_t start_seq;          /* -1: the start state (no rows yet) */
    int64_t start_ts;
    int64_t order;              /* creation order (ties) */
    int npath, cap;
    WNfaStep *path;
} WNfaCS;

typedef struct WNfaRun {
    int n, cap;
    WNfaCS *partial;            /* includes the start state */
    int nc, capc;
    WNfaCS *completed;
    int64_t next_order;
} WNfaRun;

/* Condition of variable `var` for event `seq` given the rows of the partial match. Returns
   false when it does not hold (also for NULL); sets *err on an evaluation error. */
typedef bool (*WNfaCondFn)(void *ctx, int var, const WNfaStep *path, int npath, int64_t seq, bool *err);
/* A completed match (rows in order), emitted at time `ts`. */
typedef void (*WNfaMatchFn)(void *ctx, const WNfaStep *path, int npath, int64_t ts);

typedef struct WNfaCallbacks {
    WNfaCondFn cond;
    WNfaMatchFn match;
    void *ctx;
    bool err;                   /* set when a callback failed: processing stops */
    const char *errmsg;         /* a skip strategy failure (Flink's runtime exception) */
} WNfaCallbacks;

/* false (with a message in *msg) for elements the compiler refuses. */
bool wnfa_compile(const WMatchElem *elems, int n, int64_t window_ms, WMatchAfter after, int after_var,
                  WNfa *out, const char **msg);
void wnfa_free(WNfa *nfa);

void wnfa_run_init(const WNfa *nfa, WNfaRun *run);
void wnfa_run_free(WNfaRun *run);
/* Feed event seq (timestamp ts). */
void wnfa_process(const WNfa *nfa, WNfaRun *run, int64_t seq, int64_t ts, WNfaCallbacks *cb);
/* Advance time: partial matches older than WITHIN are dropped; waiting matches may complete. */
void wnfa_advance(const WNfa *nfa, WNfaRun *run, int64_t ts, WNfaCallbacks *cb);
/* The smallest sequence number still referenced (INT64_MAX when none). */
int64_t wnfa_min_seq(const WNfaRun *run);
/* Only the start state is left. */
bool wnfa_idle(const WNfaRun *run);

/* The run as bytes (appended to out), for keyed state (Flink's nfaStateName): the partial and the
   waiting completed matches with their rows' sequence numbers. wnfa_run_decode replaces *run
   (initialised or freed before) with the decoded run; false for bytes that are not a run of this
   NFA (then *run is a fresh run). */
void wnfa_run_encode(const WNfaRun *run, WStrBuf *out);
bool wnfa_run_decode(const WNfa *nfa, WNfaRun *run, const void *p, size_t len);

#endif
