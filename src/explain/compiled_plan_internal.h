/*
 * compiled_plan_internal.h — private to the COMPILE PLAN writer (compiled_plan.c, the document and
 * the node kinds; compiled_plan_aggs.c, the fields of the two-phase and over aggregates and the
 * accumulator row types): the JSON helpers both use. Depends on explain_internal.h.
 */
#ifndef WEIR_EXPLAIN_COMPILED_PLAN_INTERNAL_H
#define WEIR_EXPLAIN_COMPILED_PLAN_INTERNAL_H

#include "explain_internal.h"

/* ---- compiled_plan.c ---- */
json_t *cp_ints_json(int n, const int *v);                       /* [v0, v1, ...] */
json_t *cp_bools_json(int n, bool v);                            /* n times v */
/* "state": [{index: 0, ttl, name}] of a node with one state */
json_t *cp_one_state(int64_t ttl_ms, const char *name);
/* A node's "configuration" of table.exec.mini-batch.enabled and .size, in this order (the aggregates,
   ChangelogNormalize, Deduplicate after its own keys, the legacy group window before the time zone) */
json_t *cp_minibatch_configuration(const ExCtx *x);
/* aggCalls: Flink's serialized AggregateCalls, named by `names` (NULL: Calcite's $fN) */
json_t *cp_agg_calls_json(int n, const WAggCall *aggs, const char *const *names);

/* ---- compiled_plan_aggs.c ---- */
/* The GlobalWindowAggregate reading local window aggregate `local` (through its exchange), or NULL. */
const WRel *cp_window_global_of(const ExCtx *x, const WRel *local);
/* The fields of a Local/Global/IncrementalGroupAggregate. */
void cp_two_phase_json(const ExCtx *x, const WRel *r, json_t *j);
/* overSpec of a streaming OverAggregate over input `in`. */
void cp_over_spec_json(const ExCtx *x, const WRel *r, const WRel *in, json_t *j);
/* outputType of node r with output row os: a row type whose accumulator fields (two-phase
   aggregates) carry Flink's RAW / view types. */
json_t *cp_acc_row_type_json(const ExCtx *x, const WRel *r, const WSchema *os);

#endif
