/*
 * test_kind_ops.c — the node kinds' definitions (issue 15; src/kinds/, one file per kind): every
 * WRelKind has its WKindDef with every operation of every stage (plan: changelog derivation and
 * update-before requirement; explain: name, compiled-plan type, EXPLAIN digest, JSON write, the
 * check and changelog mode of a node read back by EXECUTE PLAN, cost, AST line; runtime: the
 * operator and its mini-batch bundle, the job graph's stream operators and their name), or an
 * explicit "not applicable" marker, and each stage's table points at the kind's own definition.
 * A kind added without its operations fails here (and at start-up of the test build).
 * Also the checked accessors (wrel_as_*) and the named rank constants the plan uses.
 */
#include "unit.h"
#include "../../src/plan/plan.h"
#include "../../src/explain/explain.h"
#include "../../src/runtime/job.h"
#include "../../src/kinds/kinds.h"

static const char *name_of_test_only(const WRel *r) { (void)r; return "Join"; }

WTEST(kind_ops_tables_complete)
{
    WStrBuf err;
    wsb_init(&err);
    bool ok = wkinds_check(&err);
    if (err.len) fprintf(stderr, "%s", err.buf);
    CHECK(ok);
    CHECK(err.len == 0);
    /* each stage's table is the kind's own definition */
    for (int k = 0; k < WR__COUNT; k++) {
        const WKindDef *d = wkind_def((WRelKind)k);
        CHECK(d->kind == (WRelKind)k);
        CHECK(wkinds_phys[k] == &d->phys && wkinds_ex[k] == &d->ex && wkinds_cp[k] == &d->cp);
        CHECK(wkinds_build[k] == &d->build && wkinds_vx[k] == &d->vx && wkinds_ast[k] == &d->ast);
    }
    wsb_free(&err);
}

WTEST(kind_ops_check_names_the_gap)
{
    WStrBuf err;
    wsb_init(&err);
    WKindDef d = wkind_join;
    CHECK(wkind_def_check(&d, WR_JOIN, "kinds/join.c", &err));
    CHECK(err.len == 0);
    d.phys.derive = NULL;
    d.ex.name_of = name_of_test_only;   /* a fixed name and a function of the node: a gap too */
    CHECK(!wkind_def_check(&d, WR_JOIN, "kinds/x.c", &err));
    CHECK_STR(err.buf, "kinds/x.c: node kind Join (8) has no phys.derive operation\n"
                       "kinds/x.c: node kind Join (8) has no ex.name operation\n");
    wsb_clear(&err);
    d = wkind_join;
    memset(&d.rd_read, 0, sizeof d.rd_read);    /* no compiled-plan type and no "none" marker */
    CHECK(!wkind_def_check(&d, WR_JOIN, "kinds/join.c", &err));
    CHECK_STR(err.buf, "kinds/join.c: node kind Join (8) has no rd_read operation\n");
    wsb_clear(&err);
    d.rd_read.no_type = true;
    CHECK(wkind_def_check(&d, WR_JOIN, "kinds/join.c", &err));
    d = wkind_join;
    d.rd_read.types[0].read = NULL;              /* a type without its reader */
    CHECK(!wkind_def_check(&d, WR_JOIN, "kinds/join.c", &err));
    CHECK_STR(err.buf, "kinds/join.c: node kind Join (8) has no rd_read.read operation\n");
    wsb_clear(&err);
    CHECK(!wkind_def_check(&wkind_calc, WR_JOIN, "kinds/join.c", &err));
    CHECK_STR(err.buf, "kinds/join.c: node kind Join (8) has the definition of another kind\n");
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
