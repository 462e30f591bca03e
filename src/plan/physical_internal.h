/*
 * physical_internal.h — private to the physical planning files of plan/: the rules that
 * wplan_physical (physical.c) runs in order, one file each, and the helpers they share.
 * Depends on plan.h; nothing outside plan/ includes it.
 */
#ifndef WEIR_PLAN_PHYSICAL_INTERNAL_H
#define WEIR_PLAN_PHYSICAL_INTERNAL_H

#include "plan.h"

#include <stdint.h>

#define ALL_KINDS (WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE)

static inline WRel *fail(WPlanCtx *p, const char *cls, const char *msg)
{
    werr_set(p->err, cls, "%s", msg);
    return NULL;
}

static inline int *ints(WPlanCtx *p, int n) { return WA_ARRAY(p->arena, int, n ? n : 1); }

/* physical_expr.c: expression helpers */
void wphys_col_range(const WExpr *e, int *lo, int *hi);     /* min/max column read, -1 if none */
bool wphys_refs_col(const WExpr *e, int col);
WExpr *wphys_shift_cols(WPlanCtx *p, const WExpr *e, int from, int delta);  /* cols >= from += delta */
WExpr *wphys_replace_col(WPlanCtx *p, const WExpr *e, int col, WExpr *with);
bool wphys_is_func(const WExpr *e, const char *name);
int64_t wphys_const_int(const WExpr *e, bool *ok);          /* an integer literal, maybe cast */

/* physical.c: shared by the rules */
void wphys_set_unique(WPlanCtx *p, WRel *r, int n, const int *cols);
int64_t wphys_state_ttl(WPlanCtx *p);                       /* table.exec.state.ttl in ms, 0 none */
WRel *wphys_exchange(WPlanCtx *p, WRel *in, int nkeys, const int *keys);  /* hash, single if 0 keys */

/* rank_rules.c: Calc(filter on the rank) over an OVER ranking node -> Rank / Deduplicate */
WRel *wphys_rank_rules(WPlanCtx *p, WRel *r);

/* window_rules.c: WindowAggregate, window-attached WindowAggregate, WindowRank */
WRel *wphys_window_rules(WPlanCtx *p, WRel *r);
/* Output columns of r carrying window_start / window_end of a window, -1 when none. */
void wphys_window_props(const WRel *r, int *ws, int *we);
/* Copies the definition of the window that produced r's window columns onto w, if any. */
void wphys_copy_window_spec(WRel *w, const WRel *r);

/* join_rules.c: join filters pushed into inputs; keys and the join's kind */
WRel *wphys_merge_join_filters(WPlanCtx *p, WRel *r);
WRel *wphys_join_keys(WPlanCtx *p, WRel *r);

/* changelog_source.c: changelog modes of sources and ChangelogNormalize */
uint8_t wphys_parse_mode(const char *m);                    /* "I,UB,UA,D" -> WCM_* bits */
bool wphys_cdc_duplicates(WPlanCtx *p);                     /* table.exec.source.cdc-events-duplicate */
WRel *wphys_derive_scan(WPlanCtx *p, WRel *r, int64_t ttl);
WRel *wphys_push_calc_past_normalize(WPlanCtx *p, WRel *r);
WRel *wphys_drop_unneeded_normalize(WPlanCtx *p, WRel *r);

/* agg_remove.c: GroupAggregate grouped by a unique key of its input -> Calc, or NULL */
WRel *wphys_remove_unique_agg(WPlanCtx *p, WRel *agg, WRel *in);

/* sink_rules.c: the row kinds a sink accepts; materializer, shuffles, collect exchange */
uint8_t wphys_sink_mode(const WTable *t);
WRel *wphys_sinks(WPlanCtx *p, WRel *r);

/* update_before.c: UPDATE_BEFORE requirements top-down, DropUpdateBefore, settled modes */
void wphys_require_ub(WPlanCtx *p, WRel *root);
WRel *wphys_drop_source_ub(WPlanCtx *p, WRel *r);
void wphys_settle(WPlanCtx *p, WRel *r);

#endif
