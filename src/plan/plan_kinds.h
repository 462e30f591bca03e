/*
 * plan_kinds.h — what plan/ asks of each node kind: the operation types of its stages (the
 * physical derivation, physical.c; the update-before requirement, update_before.c), the table of
 * each, indexed by WRelKind, and the helpers of those stages that the kinds' operations call.
 * The operations themselves live in src/kinds/<kind>.c; kinds/registry.c defines the tables
 * (the layer above fills them in: plan/ declares what it needs and never includes kinds/).
 */
#ifndef WEIR_PLAN_KINDS_H
#define WEIR_PLAN_KINDS_H

#include "plan.h"


/* derive: changelog modes, unique keys, TTL (plan/physical.c) */
typedef struct PhysKindOps {
    WRel *(*derive)(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl);
} PhysKindOps;

/* Kinds the rules make after this derivation (ChangelogNormalize: the scan's derivation;
   SinkUpsertMaterializer: wphys_sinks; MiniBatchAssigner and the two-phase aggregates:
   agg_rules.c) or before it replace (OverRank: the rank rule): not applicable here; derived as a
   node over its input's modes, as before the table. */
#define DERIVE_MADE_LATER derive_input_modes
extern const PhysKindOps *const wkinds_phys[WR__COUNT];

/* plan/physical.c: shared by several kinds or by the stage itself */
bool phys_minibatch_enabled(WPlanCtx *p);
void phys_calc_unique(WPlanCtx *p, WRel *c);
WRel *derive_forward(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl);
WRel *derive_rank(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl);
WRel *derive_time_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl);
WRel *derive_input_modes(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl);

/* How each node kind satisfies an update-kind requirement (Flink's SatisfyUpdateKindTraitVisitor
   per RelNode type; plan/update_before.c); ub_forward is the explicit choice of a kind that only
   passes the requirement on. */
typedef struct UbKindOps {
    bool (*satisfy)(WRel *r, int req, bool apply);
} UbKindOps;

/* The update kinds a node asks of its input: none, UPDATE_AFTER only, or both. */
enum { UK_NONE, UK_ONLY_UA, UK_BEFORE_AFTER };

extern const UbKindOps *const wkinds_ub[WR__COUNT];

/* plan/update_before.c: shared by several kinds or by the stage itself */
bool ub_has_updates(const WRel *r);
int ub_uk_for(const WRel *child, int want);
bool ub_compacts_by_upsert_key(const WRel *m);
bool ub_needs_both(WRel *r, int req, bool apply);
bool ub_rank(WRel *r, int req, bool apply);
bool ub_forward(WRel *r, int req, bool apply);
bool ub_satisfy(WRel *r, int req, bool apply);

#endif
