/*
 * kinds/registry.c — the list of node kinds (WREL_KINDS, plan/plan.h) made into each stage's table:
 * the arrays plan/, explain/ and runtime/ declare in their kinds headers and dispatch through,
 * each entry pointing at the stage's member of a kind's WKindDef.
 */
#include "kinds.h"

#include <assert.h>
#include <string.h>

#define WKIND_ENTRY(k, file, name) [k] = &wkind_##file,
static const WKindDef *const WKIND_DEFS[WR__COUNT] = {WREL_KINDS(WKIND_ENTRY)};
#undef WKIND_ENTRY

#define WKIND_PHYS(k, file, name) [k] = &wkind_##file.phys,
const PhysKindOps *const wkinds_phys[WR__COUNT] = {WREL_KINDS(WKIND_PHYS)};
#undef WKIND_PHYS

#define WKIND_UB(k, file, name) [k] = &wkind_##file.ub,
const UbKindOps *const wkinds_ub[WR__COUNT] = {WREL_KINDS(WKIND_UB)};
#undef WKIND_UB

#define WKIND_EX(k, file, name) [k] = &wkind_##file.ex,
const ExKindOps *const wkinds_ex[WR__COUNT] = {WREL_KINDS(WKIND_EX)};
#undef WKIND_EX

#define WKIND_CP(k, file, name) [k] = &wkind_##file.cp,
const CpKindOps *const wkinds_cp[WR__COUNT] = {WREL_KINDS(WKIND_CP)};
#undef WKIND_CP

#define WKIND_RD_CHECK(k, file, name) [k] = &wkind_##file.rd_check,
const RdKindOps *const wkinds_rd_check[WR__COUNT] = {WREL_KINDS(WKIND_RD_CHECK)};
#undef WKIND_RD_CHECK

#define WKIND_RD_READ(k, file, name) [k] = &wkind_##file.rd_read,
const RdReadKindOps *const wkinds_rd_read[WR__COUNT] = {WREL_KINDS(WKIND_RD_READ)};
#undef WKIND_RD_READ

#define WKIND_RD_MODE(k, file, name) [k] = &wkind_##file.rd_mode,
const RdModeKindOps *const wkinds_rd_mode[WR__COUNT] = {WREL_KINDS(WKIND_RD_MODE)};
#undef WKIND_RD_MODE

#define WKIND_COST(k, file, name) [k] = &wkind_##file.cost,
const CostKindOps *const wkinds_cost[WR__COUNT] = {WREL_KINDS(WKIND_COST)};
#undef WKIND_COST

#define WKIND_AST(k, file, name) [k] = &wkind_##file.ast,
const AstKindOps *const wkinds_ast[WR__COUNT] = {WREL_KINDS(WKIND_AST)};
#undef WKIND_AST

#define WKIND_BUILD(k, file, name) [k] = &wkind_##file.build,
const BuildKindOps *const wkinds_build[WR__COUNT] = {WREL_KINDS(WKIND_BUILD)};
#undef WKIND_BUILD

#define WKIND_VX(k, file, name) [k] = &wkind_##file.vx,
const VxKindOps *const wkinds_vx[WR__COUNT] = {WREL_KINDS(WKIND_VX)};
#undef WKIND_VX

const WKindDef *wkind_def(WRelKind k)
{
    assert((unsigned)k < WR__COUNT && WKIND_DEFS[k] && WKIND_DEFS[k]->kind == k);
    return WKIND_DEFS[k];
}

static bool has(bool present, const char *file, WRelKind k, const char *op, WStrBuf *err)
{
    if (!present) wsb_printf(err, "%s: node kind %s (%d) has no %s operation\n", file, wrel_kind_name(k), (int)k, op);
    return present;
}

bool wkind_def_check(const WKindDef *d, WRelKind k, const char *file, WStrBuf *err)
{
    if (!d || d->kind != k) {
        wsb_printf(err, "%s: node kind %s (%d) has %s\n", file, wrel_kind_name(k), (int)k,
                   d ? "the definition of another kind" : "no definition");
        return false;
    }
    bool ok = has(d->phys.derive, file, k, "phys.derive", err);
    ok &= has(d->ub.satisfy, file, k, "ub.satisfy", err);
    /* a name and an exec type: exactly one of a fixed value and a function of the node */
    ok &= has(!d->ex.name != !d->ex.name_of, file, k, "ex.name", err);
    ok &= has(!d->ex.exec_type != !d->ex.exec_type_of, file, k, "ex.exec_type", err);
    ok &= has(d->ex.digest, file, k, "ex.digest", err);
    ok &= has(d->cp.write, file, k, "cp.write", err);
    ok &= has(d->cp.output_schema, file, k, "cp.output_schema", err);
    ok &= has(d->cp.after_description, file, k, "cp.after_description", err);
    ok &= has(d->rd_check.check, file, k, "rd_check.check", err);
    ok &= has(d->rd_mode.mode, file, k, "rd_mode.mode", err);
    /* the compiled-plan types it reads, each with its reader, or an explicit "no type" */
    ok &= has(d->rd_read.types[0].type || d->rd_read.no_type, file, k, "rd_read", err);
    for (int i = 0; i < RD_MAX_TYPES && d->rd_read.types[i].type; i++)
        ok &= has(d->rd_read.types[i].read && d->rd_read.types[i].ninputs >= -1, file, k, "rd_read.read", err);
    ok &= has(d->cost.cost, file, k, "cost.cost", err);
    ok &= has(d->ast.print, file, k, "ast.print", err);
    ok &= has(d->build.build, file, k, "build.build", err);
    ok &= has(d->build.bundle, file, k, "build.bundle", err);
    ok &= has(!d->vx.name != !d->vx.name_of, file, k, "vx.name", err);
    ok &= has(d->vx.add_ops, file, k, "vx.add_ops", err);
    return ok;
}

/* The file of each kind, from its definition's name (wkind_join: kinds/join.c). */
#define WKIND_FILE(k, file, name) [k] = "kinds/" #file ".c",
static const char *const WKIND_FILES[WR__COUNT] = {WREL_KINDS(WKIND_FILE)};
#undef WKIND_FILE

/* No compiled-plan type is read by two kinds (EXECUTE PLAN takes the first it finds). */
static bool types_unique(WStrBuf *err)
{
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++)
        for (int i = 0; i < RD_MAX_TYPES && wkinds_rd_read[k]->types[i].type; i++)
            for (int k2 = k; k2 < WR__COUNT; k2++)
                for (int i2 = k2 == k ? i + 1 : 0; i2 < RD_MAX_TYPES && wkinds_rd_read[k2]->types[i2].type; i2++)
                    if (!strcmp(wkinds_rd_read[k]->types[i].type, wkinds_rd_read[k2]->types[i2].type)) {
                        wsb_printf(err, "%s and %s: both read the compiled-plan type %s\n", WKIND_FILES[k],
                                   WKIND_FILES[k2], wkinds_rd_read[k]->types[i].type);
                        ok = false;
                    }
    return ok;
}

bool wkinds_check(WStrBuf *err)
{
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++)
        ok &= wkind_def_check(WKIND_DEFS[k], (WRelKind)k, WKIND_FILES[k], err);   /* both made from WREL_KINDS */
    return ok && types_unique(err);
}
