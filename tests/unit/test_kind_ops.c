/*
 * test_kind_ops.c — the per-kind operation tables (issue 15): every WRelKind has every operation
 * of plan/physical.c's table (changelog derivation) and of explain/'s (digest.c: name, compiled-
 * plan type, EXPLAIN digest; compiled_plan.c: JSON write; plan_reader_check.c: the check of a
 * node read back by EXECUTE PLAN; runtime/build.c: the operator and its mini-batch bundle;
 * runtime/vertices.c: the job graph's stream operators and their name), or an explicit
 * "not applicable" marker. A kind added without its operations fails here (and at start-up of the test build).
 * Also the checked accessors (wrel_as_*) and the named rank constants the plan uses.
 */
#include "unit.h"
#include "../../src/plan/plan.h"
#include "../../src/explain/explain.h"
#include "../../src/runtime/job.h"

WTEST(kind_ops_tables_complete)
{
    WStrBuf err;
    wsb_init(&err);
    bool plan = wplan_check_kind_ops(&err);
    bool explain = wexplain_check_kind_ops(&err);
    bool runtime = wjob_check_kind_ops(&err);
    if (err.len) fprintf(stderr, "%s", err.buf);
    CHECK(plan);
    CHECK(explain);
    CHECK(runtime);
    CHECK(err.len == 0);
    wsb_free(&err);
}

WTEST(kind_ops_check_names_the_gap)
{
    WStrBuf err;
    wsb_init(&err);
    CHECK(wrel_kind_op_check(true, WR_JOIN, "x.c", "derive", &err));
    CHECK(err.len == 0);
    CHECK(!wrel_kind_op_check(false, WR_JOIN, "plan/x.c", "derive", &err));
    CHECK_STR(err.buf, "plan/x.c: node kind Join (8) has no derive operation\n");
    wsb_free(&err);
}

WTEST(kind_ops_every_kind_named)
{
    /* wrel_kind_name covers every kind (the tables' messages name the kind) */
    for (int k = 0; k < WR__COUNT; k++) {
        const char *n = wrel_kind_name((WRelKind)k);
        CHECK(n != NULL && n[0] != '\0');
    }
}

WTEST(kind_ops_checked_accessors)
{
    WRel r;
    memset(&r, 0, sizeof r);
    r.kind = WR_JOIN;
    CHECK(wrel_as_join(&r) == &r);
    CHECK(wrel_cast(&r, WR_JOIN) == &r);
    r.kind = WR_SORT_LIMIT;
    CHECK(wrel_as_rank(&r) == &r);
    r.kind = WR_GLOBAL_WINDOW_AGG;
    CHECK(wrel_as_windowed(&r) == &r);
    CHECK(wrel_as_two_phase(&r) == &r);
    r.kind = WR_SCAN;
    CHECK(wrel_as_scan(&r) == &r);
    r.kind = WR_SINK;
    CHECK(wrel_cast_mut(&r, WR_SINK) == &r);
}

WTEST(kind_ops_rank_indexes)
{
    /* the names tables of EXPLAIN / COMPILE PLAN are indexed by these; out of range reads as
       ROW_NUMBER / Retract, as the numeric tests did */
    CHECK_INT(wrank_func_index(WRANK_DENSE_RANK), 2);
    CHECK_INT(wrank_func_index((WRankFunc)7), WRANK_ROW_NUMBER);
    CHECK_INT(wrank_strategy_index(WRANK_UPDATE_FAST), 1);
    CHECK_INT(wrank_strategy_index((WRankStrategy)9), WRANK_RETRACT);
    CHECK_INT(WSO_INTERSECT, 1 + ASO_INTERSECT);
}
