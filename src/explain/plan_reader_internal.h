/*
 * plan_reader_internal.h — private to EXECUTE PLAN (plan_reader.c and its plan_reader_*.c): the
 * reader's state and the helpers that turn compiled-plan JSON (types, row types, RexNodes, key
 * lists, aggregate calls, state TTLs) back into plan structures.
 *
 * Contract: everything is allocated in the statement's plan arena; every helper returns
 * false/NULL with the statement error set when the JSON is not what COMPILE PLAN writes.
 * Depends on explain_internal.h (plan/, types/, jansson).
 */
#ifndef WEIR_EXPLAIN_PLAN_READER_INTERNAL_H
#define WEIR_EXPLAIN_PLAN_READER_INTERNAL_H

#include "explain_internal.h"

#include <limits.h>

typedef struct Rd Rd;

/* A hook for RexNode kinds only one node type has (MATCH_RECOGNIZE's navigation calls): returns
   the expression for j, or NULL with *handled false to read j the ordinary way (NULL with
   *handled true: an error is set). */
typedef WExpr *(*RdRexHook)(Rd *r, json_t *j, void *ctx, bool *handled);

struct Rd {
    WPlanCtx *p;
    WArena *a;
    int64_t dflt_ttl;
    bool minibatch;         /* table.exec.mini-batch.enabled in a streaming session */
    int n;
    json_t **nodes;         /* by position */
    int *ids;
    WRel **rels;            /* built node per position */
    json_t *edges;
    int next_id;
    const WSchema *correl;  /* Correlate: the left input FIELD_ACCESS($cor0, name) reads, else NULL */
    RdRexHook hook;         /* see RdRexHook; NULL = none */
    void *hook_ctx;
    int cur_id;             /* the node being read (its "id") and "type", for error messages */
    const char *cur_type;
};

enum { ALL_KINDS = WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE };

/* An index read from the plan that is not a usable int (not an integer, below -1, too large). */
#define RD_BAD_INDEX INT_MIN

/* Sets a TABLE error from fmt (one %s: what) and returns false. */
bool rd_fail(Rd *r, const char *fmt, const char *what);
const WType *rd_type(Rd *r, json_t *j);
bool rd_schema(Rd *r, json_t *j, WSchema *out);
/* A RexNode over the row `in`. */
WExpr *rd_rex(Rd *r, json_t *j, const WSchema *in);
/* An integer field: `absent` when v is NULL, RD_BAD_INDEX when it is not an int in -1..INT_MAX. */
int rd_int(json_t *v, int absent);
/* An array of indexes (entries that are not ints become RD_BAD_INDEX, refused by rd_check_node). */
int rd_ints(Rd *r, json_t *arr, int **out);
/* plan_reader_check.c: every index and shape of node x against its inputs and its outputType;
   false with "Invalid compiled plan: node <id> (<type>): '<field>' ..." set. */
bool rd_check_node(Rd *r, WRel *x);
int64_t rd_ttl(Rd *r, json_t *node, int index);
WRel *rd_new_rel(Rd *r, WRelKind kind, int nin);
/* orderBy.fields of node j into x's sort columns (indexes checked against in's row). */
bool rd_sort_fields(Rd *r, json_t *j, WRel *x, const WRel *in);
/* aggCalls into wrel_agg_mut(x)->naggs / aggs (x of an aggregating kind). */
bool rd_aggs(Rd *r, json_t *calls, WRel *x);
/* A windowing strategy into x's win_* fields (attached start/end columns for the window
   aggregates, rank, deduplicate and join). */
void rd_window(Rd *r, json_t *w, WRel *x);
/* A joinSpec into x's join type, keys, filterNulls and non-equi condition over the row of its two
   inputs ins[0] ++ ins[1]. */
bool rd_join_spec(Rd *r, json_t *js, WRel *x, WRel *const *ins);
WSchema rd_concat(Rd *r, const WSchema *a, const WSchema *b);
/* The changelog mode (and unique key) of node x from its inputs, as the planner derives it. */
void rd_derive_mode(WRel *x);

/* ---- plan_reader_tables.c ---- */
/* A catalog table from {identifier, resolvedTable{schema, options}}; its qualified name in *qname. */
WTable *rd_table_from_json(Rd *r, json_t *tj, const char **qname);
/* A sink's out: its table's physical columns (left as is when their number differs). */
void rd_sink_schema_from_table(Rd *r, WRel *x);

/* ---- plan_reader_windows.c ---- */
/* Adds the window_time column Flink leaves out of a window aggregate's outputType. */
bool rd_window_time(Rd *r, json_t *windowing, const WRel *x, WSchema *out);
/* An ISO-8601 duration (PTnHnMn.nS, PnD) in milliseconds; 0 for NULL. */
int64_t rd_iso_ms(const char *s);
/* The attached window columns of `w` (a WindowAttached strategy) over a row of n fields into
   *ws / *we; false with the error set when they are missing or out of range. */
bool rd_attached_cols(Rd *r, json_t *w, int n, int *ws, int *we);
/* Whether the nk key indexes k are within a row of n fields; false with the error set naming what. */
bool rd_keys_in_range(Rd *r, int nk, const int *k, int n, const char *what);

/* ---- plan_reader_rex.c ---- */
/* The internal name of call j (its "internalName"), NULL when it has none. */
const char *rd_call_name(json_t *j);

#endif
