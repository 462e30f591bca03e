/*
 * test_plan_reader.c — EXECUTE PLAN's reader for the nodes of UNNEST, set operations, grouping
 * sets, OVER, MATCH_RECOGNIZE and the window Top-N / deduplicate (plan_reader_nodes.c): hand-written compiled plans read back into
 * WRel fields, and the errors for plans weir cannot run.
 */
#include "unit.h"
#include "../../src/explain/explain.h"
#include "../../src/plan/match_spec.h"
#include "../../src/plan/over_window.h"
#include "../../src/expr/functions.h"

#include <stdio.h>
#include <string.h>

typedef struct RCtx {
    WArena *a;
    WOptions cfg;
    WError err;
    WPlanCtx p;
} RCtx;

static void rctx_init(RCtx *t)
{
    memset(t, 0, sizeof *t);
    t->a = warena_new(0);
    wopts_init(&t->cfg);
    werr_clear(&t->err);
    t->p.arena = t->a;
    t->p.config = &t->cfg;
    t->p.err = &t->err;
}

static void rctx_free(RCtx *t)
{
    wopts_free(&t->cfg);
    warena_delete(t->a);
}

/* values (id INT, k BIGINT, xs ARRAY<INT>) -> node2 -> sink; node2 is given as JSON members */
static char *plan3(const char *node2, const char *out2)
{
    static char buf[8192];
    snprintf(buf, sizeof buf,
        "{\"flinkVersion\":\"1.19\",\"nodes\":["
        "{\"id\":1,\"type\":\"stream-exec-values_1\",\"tuples\":[[{\"kind\":\"LITERAL\",\"value\":1,\"type\":\"INT\"},"
        "{\"kind\":\"LITERAL\",\"value\":7,\"type\":\"BIGINT\"},{\"kind\":\"LITERAL\",\"value\":null,\"type\":\"ARRAY<INT>\"}]],"
        "\"outputType\":\"ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>\"},"
        "{\"id\":2,%s,\"outputType\":\"%s\"},"
        "{\"id\":3,\"type\":\"stream-exec-sink_1\",\"dynamicTableSink\":{\"table\":{\"identifier\":\"`default_catalog`.`default_database`.`s`\","
        "\"resolvedTable\":{\"schema\":{\"columns\":[{\"name\":\"a\",\"dataType\":\"INT\"}]},\"options\":{\"connector\":\"blackhole\"}}}},"
        "\"outputType\":\"%s\"}],"
        "\"edges\":[{\"source\":1,\"target\":2},{\"source\":2,\"target\":3}]}",
        node2, out2, out2);
    return buf;
}

static const WRel *read_mid(RCtx *t, const char *node2, const char *out2)
{
    WRel **roots = NULL;
    int n = wplan_from_json(&t->p, plan3(node2, out2), &roots);
    if (n != 1) return NULL;
    return roots[0]->inputs[0];
}

WTEST(plan_reader_unnest_correlate)
{
    RCtx t;
    rctx_init(&t);
    const WRel *c = read_mid(&t,
        "\"type\":\"stream-exec-correlate_1\",\"joinType\":\"LEFT\",\"functionCall\":{\"kind\":\"CALL\","
        "\"internalName\":\"$UNNEST_ROWS_WITH_ORDINALITY$1\",\"operands\":[{\"kind\":\"FIELD_ACCESS\",\"name\":\"xs\","
        "\"expr\":{\"kind\":\"CORREL_VARIABLE\",\"correl\":\"$cor3\",\"type\":\"INT\"}}],\"type\":\"ROW<`f0` INT, `ORDINALITY` INT NOT NULL> NOT NULL\"},"
        "\"condition\":{\"kind\":\"CALL\",\"internalName\":\"$>$1\",\"operands\":[{\"kind\":\"INPUT_REF\",\"inputIndex\":0,\"type\":\"INT\"},"
        "{\"kind\":\"LITERAL\",\"value\":2,\"type\":\"INT NOT NULL\"}],\"type\":\"BOOLEAN\"}",
        "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>, `f0` INT, `ORDINALITY` INT NOT NULL>");
    CHECK(c != NULL);
    if (c) {
        CHECK_INT(c->kind, WR_CORRELATE);
        CHECK(wrel_correlate(c)->ordinality);
        CHECK_INT(wrel_correlate(c)->join_type, AJ_LEFT);
        CHECK_INT(wrel_correlate(c)->nleft_out, 3);
        CHECK_INT(wrel_correlate(c)->cor_id, 3);
        CHECK(wrel_correlate(c)->collection->kind == WX_COLUMN && wrel_correlate(c)->collection->col == 2);
        CHECK(wrel_correlate(c)->cond != NULL && wrel_correlate(c)->cond->args[0]->col == 0);
    }
    rctx_free(&t);
}

WTEST(plan_reader_correlate_errors)
{
    RCtx t;
    rctx_init(&t);
    WRel **roots;
    int n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-correlate_1\",\"joinType\":\"INNER\",\"functionCall\":{\"kind\":\"CALL\","
                                        "\"systemName\":\"MyUdtf\",\"operands\":[],\"type\":\"ROW<`s` STRING>\"}",
                                        "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>, `s` STRING>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "Correlate of the table function (none)") != NULL);
    rctx_free(&t);
    rctx_init(&t);
    n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-correlate_1\",\"joinType\":\"INNER\",\"functionCall\":{\"kind\":\"CALL\","
                                    "\"internalName\":\"$UNNEST_ROWS$1\",\"operands\":[{\"kind\":\"FIELD_ACCESS\",\"name\":\"nope\","
                                    "\"expr\":{\"kind\":\"CORREL_VARIABLE\",\"correl\":\"$cor0\",\"type\":\"INT\"}}],\"type\":\"ROW<`f0` INT>\"}",
                                    "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>, `f0` INT>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "missing field: nope") != NULL);
    rctx_free(&t);
}

WTEST(plan_reader_expand)
{
    RCtx t;
    rctx_init(&t);
    const WRel *e = read_mid(&t,
        "\"type\":\"stream-exec-expand_1\",\"projects\":[[{\"kind\":\"INPUT_REF\",\"inputIndex\":1,\"type\":\"BIGINT\"},"
        "{\"kind\":\"LITERAL\",\"value\":0,\"type\":\"BIGINT NOT NULL\"}],[{\"kind\":\"LITERAL\",\"value\":null,\"type\":\"BIGINT\"},"
        "{\"kind\":\"LITERAL\",\"value\":1,\"type\":\"BIGINT NOT NULL\"}]]",
        "ROW<`k` BIGINT, `$e` BIGINT NOT NULL>");
    CHECK(e != NULL);
    if (e) {
        CHECK_INT(e->kind, WR_EXPAND);
        CHECK_INT(wrel_expand(e)->n, 2);
        CHECK_INT(wrel_expand(e)->src[0], 1);
        CHECK_INT(wrel_expand(e)->src[1], -2);
        CHECK_INT(wrel_expand(e)->src[2], -1);
        CHECK_INT(wrel_expand(e)->ids[1], 1);
    }
    rctx_free(&t);
    rctx_init(&t);
    WRel **roots;
    int n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-expand_1\",\"projects\":[[{\"kind\":\"INPUT_REF\",\"inputIndex\":9,\"type\":\"BIGINT\"}]]",
                                        "ROW<`k` BIGINT>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "missing input field") != NULL);
    rctx_free(&t);
}

WTEST(plan_reader_over_aggregate)
{
    RCtx t;
    rctx_init(&t);
    /* k is the order key here only for the reader: a time attribute is not checked by it */
    const WRel *o = read_mid(&t,
        "\"type\":\"stream-exec-over-aggregate_1\",\"overSpec\":{\"partition\":{\"fields\":[0]},\"groups\":[{"
        "\"orderBy\":{\"fields\":[{\"index\":1,\"isAscending\":true,\"nullIsLast\":false}]},\"isRows\":true,"
        "\"lowerBound\":{\"kind\":\"BOUNDED_WINDOW\",\"isPreceding\":true,\"offset\":{\"kind\":\"INPUT_REF\",\"inputIndex\":4,\"type\":\"INT NOT NULL\"}},"
        "\"upperBound\":{\"kind\":\"CURRENT_ROW\"},\"aggCalls\":["
        "{\"name\":\"w0$o0\",\"internalName\":\"$LAG$1\",\"argList\":[1,3,1],\"type\":\"BIGINT\"},"
        "{\"name\":\"w0$o1\",\"internalName\":\"$SUM$1\",\"argList\":[1],\"filterArg\":-1,\"type\":\"BIGINT\"},"
        "{\"name\":\"w0$o2\",\"internalName\":\"$ROW_NUMBER$1\",\"argList\":[],\"type\":\"BIGINT NOT NULL\"}]}],"
        "\"constants\":[{\"kind\":\"LITERAL\",\"value\":2,\"type\":\"INT NOT NULL\"},{\"kind\":\"LITERAL\",\"value\":5,\"type\":\"INT NOT NULL\"}],"
        "\"originalInputFields\":3}",
        "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>, `w0$o0` BIGINT, `w0$o1` BIGINT, `w0$o2` BIGINT NOT NULL>");
    CHECK(o != NULL);
    if (o) {
        CHECK_INT(o->kind, WR_OVER_AGG);
        CHECK_INT(o->nkeys, 1);
        CHECK_INT(o->time_col, 1);
        CHECK(wrel_over(o)->rows && !wrel_over(o)->unbounded);
        CHECK_INT((int)wrel_over(o)->preceding, 5);
        CHECK_INT(wrel_agg(o)->naggs, 1);
        CHECK_INT(wrel_agg(o)->aggs[0].kind, WAGG_SUM);
        const WOverWindow *w = &wrel_over(o)->stream->windows[0];
        CHECK_INT(w->ncalls, 3);
        CHECK_INT(w->calls[0].fn, WOF_LAG);
        CHECK_INT((int)w->calls[0].n, 2);
        CHECK_INT(w->calls[0].default_col, 1);
        CHECK_INT(w->calls[1].fn, WOF_AGG);
        CHECK_INT(w->calls[2].fn, WOF_ROW_NUMBER);
    }
    rctx_free(&t);
    rctx_init(&t);
    WRel **roots;
    int n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-over-aggregate_1\",\"overSpec\":{\"partition\":{\"fields\":[]},\"groups\":[{"
                                        "\"orderBy\":{\"fields\":[{\"index\":1,\"isAscending\":true,\"nullIsLast\":false}]},\"isRows\":false,"
                                        "\"lowerBound\":{\"kind\":\"UNBOUNDED_PRECEDING\"},\"upperBound\":{\"kind\":\"UNBOUNDED_FOLLOWING\"},"
                                        "\"aggCalls\":[]}],\"constants\":[],\"originalInputFields\":3}",
                                        "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "FOLLOWING windows are not supported") != NULL);
    rctx_free(&t);
}

WTEST(plan_reader_match_errors)
{
    RCtx t;
    rctx_init(&t);
    WRel **roots;
    int n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-match_1\",\"matchSpec\":{\"allRows\":true}", "ROW<`id` INT>"), &roots);
    CHECK_INT(n, -1);
    CHECK_STR(t.err.msg, "All rows per match mode is not supported yet.");
    rctx_free(&t);
    rctx_init(&t);
    n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-match_1\"", "ROW<`id` INT>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "without matchSpec") != NULL);
    rctx_free(&t);
    /* ordered by a column that is no time attribute */
    rctx_init(&t);
    n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-match_1\",\"matchSpec\":{\"pattern\":{\"kind\":\"LITERAL\",\"value\":\"A\","
                                    "\"type\":\"CHAR(1) NOT NULL\"},\"patternDefinitions\":{},\"measures\":{},\"subsets\":{},\"allRows\":false,"
                                    "\"partition\":{\"fields\":[]},\"orderBy\":{\"fields\":[{\"index\":1,\"isAscending\":true,\"nullIsLast\":false}]},"
                                    "\"interval\":null}", "ROW<`id` INT>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "rowtime or proctime") != NULL);
    rctx_free(&t);
}

#define ATTACHED_HOP "\"windowing\":{\"strategy\":\"WindowAttached\",\"window\":{\"type\":\"HoppingWindow\",\"size\":\"PT10S\"," \
    "\"slide\":\"PT5S\"},\"timeAttributeType\":\"TIMESTAMP(3)\",\"windowStart\":0,\"windowEnd\":1,\"isRowtime\":true}"

WTEST(plan_reader_window_rank_and_dedup)
{
    RCtx t;
    rctx_init(&t);
    const WRel *w = read_mid(&t,
        "\"type\":\"stream-exec-window-rank_1\",\"rankType\":\"DENSE_RANK\",\"partitionSpec\":{\"fields\":[2]},"
        "\"sortSpec\":{\"fields\":[{\"index\":1,\"isAscending\":false,\"nullIsLast\":true}]},"
        "\"rankRange\":{\"type\":\"Constant\",\"start\":1,\"end\":3},\"outputRowNumber\":true," ATTACHED_HOP,
        "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>, `w0$o0` BIGINT NOT NULL>");
    CHECK(w != NULL);
    if (w) {
        CHECK_INT(w->kind, WR_WINDOW_RANK);
        CHECK(!wrel_window(w)->dedup);
        CHECK_INT(wrel_rank(w)->func, 2);
        CHECK_INT(wrel_rank(w)->end, 3);
        CHECK_INT(w->nkeys, 1);
        CHECK_INT(w->keys[0], 2);
        CHECK_INT(w->nsort, 1);
        CHECK(w->sort_desc[0] && !w->sort_nulls_first[0]);
        CHECK_INT(wrel_rank(w)->col, 3);
        CHECK_INT(wrel_window(w)->kind, WWIN_HOP);
        CHECK_INT(wrel_window(w)->slide, 5000);
        CHECK_INT(wrel_window(w)->start_col, 0);
        CHECK_INT(wrel_window(w)->end_col, 1);
    }
    rctx_free(&t);
    rctx_init(&t);
    w = read_mid(&t, "\"type\":\"stream-exec-window-deduplicate_1\",\"partitionKeys\":[0],\"orderKey\":1,"
                     "\"keepLastRow\":true," ATTACHED_HOP, "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>");
    CHECK(w != NULL);
    if (w) {
        CHECK_INT(w->kind, WR_WINDOW_RANK);
        CHECK(wrel_window(w)->dedup && wrel_rank(w)->keep_last);
        CHECK_INT(w->nsort, 1);
        CHECK_INT(w->sort_cols[0], 1);
        CHECK(w->sort_desc[0]);
        CHECK_INT(wrel_rank(w)->start, 1);
        CHECK_INT(wrel_rank(w)->end, 1);
        CHECK(!wrel_rank(w)->output_number);
    }
    rctx_free(&t);
}

WTEST(plan_reader_window_rank_errors)
{
    RCtx t;
    WRel **roots;
    rctx_init(&t);
    int n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-window-deduplicate_1\",\"partitionKeys\":[],\"orderKey\":1,"
                                        "\"keepLastRow\":false,\"windowing\":{\"strategy\":\"TimeAttribute\",\"window\":"
                                        "{\"type\":\"TumblingWindow\",\"size\":\"PT10S\"},\"timeAttributeIndex\":1}",
                                        "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "needs a WindowAttached windowing strategy") != NULL);
    rctx_free(&t);
    rctx_init(&t);
    n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-window-deduplicate_1\",\"partitionKeys\":[],\"orderKey\":9,"
                                    "\"keepLastRow\":false," ATTACHED_HOP, "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "orderKey is out of range") != NULL);
    rctx_free(&t);
    rctx_init(&t);
    n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-window-rank_1\",\"rankType\":\"ROW_NUMBER\",\"partitionSpec\":{\"fields\":[7]},"
                                    "\"sortSpec\":{\"fields\":[]},\"rankRange\":{\"type\":\"Constant\",\"start\":1,\"end\":1},"
                                    "\"outputRowNumber\":false," ATTACHED_HOP, "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "partition key index is out of range") != NULL);
    rctx_free(&t);
    rctx_init(&t);
    n = wplan_from_json(&t.p, plan3("\"type\":\"stream-exec-window-rank_1\",\"rankType\":\"ROW_NUMBER\",\"partitionSpec\":{\"fields\":[]},"
                                    "\"sortSpec\":{\"fields\":[]},\"rankRange\":{\"type\":\"Constant\",\"start\":1,\"end\":1},"
                                    "\"outputRowNumber\":true," ATTACHED_HOP, "ROW<`id` INT, `k` BIGINT, `xs` ARRAY<INT>>"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "window rank has the wrong number of output fields") != NULL);
    rctx_free(&t);
}

/* Flink's serialized nested ROW types (as its plans of the nested-row join cases write them) and
   its RexFieldAccess, which has no type of its own: {kind: FIELD_ACCESS, name, expr}. */
#define NESTED_T "ROW<`nested` ROW<`nested1` ROW<`nested2` VARCHAR(2147483647) NOT NULL>>>"
#define FA(name, expr) "{\"kind\":\"FIELD_ACCESS\",\"name\":\"" name "\",\"expr\":" expr "}"

static const char *nested_plan(const char *field)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
        "{\"flinkVersion\":\"2.3\",\"nodes\":["
        "{\"id\":1,\"type\":\"stream-exec-values_1\",\"tuples\":[[{\"kind\":\"LITERAL\",\"value\":null,\"type\":\"" NESTED_T "\"}]],"
        "\"outputType\":\"ROW<`ext` " NESTED_T ">\"},"
        "{\"id\":2,\"type\":\"stream-exec-calc_1\",\"projection\":["
        FA("%s", FA("nested1", FA("nested", "{\"kind\":\"INPUT_REF\",\"inputIndex\":0,\"type\":\"" NESTED_T "\"}"))) "],"
        "\"condition\":null,\"outputType\":\"ROW<`$f0` VARCHAR(2147483647)>\"},"
        "{\"id\":3,\"type\":\"stream-exec-sink_2\",\"dynamicTableSink\":{\"table\":{\"identifier\":\"`default_catalog`.`default_database`.`s`\","
        "\"resolvedTable\":{\"schema\":{\"columns\":[{\"name\":\"a\",\"dataType\":\"STRING\"}]},\"options\":{\"connector\":\"blackhole\"}}}},"
        "\"outputType\":\"ROW<`$f0` VARCHAR(2147483647)>\"}],"
        "\"edges\":[{\"source\":1,\"target\":2},{\"source\":2,\"target\":3}]}", field);
    return buf;
}

WTEST(plan_reader_nested_row_field_access)
{
    RCtx t;
    WRel **roots = NULL;
    rctx_init(&t);
    int n = wplan_from_json(&t.p, nested_plan("nested2"), &roots);
    CHECK_INT(n, 1);
    if (n == 1) {
        const WRel *v = roots[0]->inputs[0]->inputs[0];
        const WType *ext = v->out.types[0];
        CHECK_INT(ext->id, WT_ROW);
        CHECK(ext->nullable);
        CHECK_INT(ext->nfields, 1);
        CHECK_STR(ext->field_names[0], "nested");
        const WType *n1 = ext->fields[0]->fields[0];
        CHECK_INT(n1->id, WT_ROW);
        CHECK_STR(ext->fields[0]->field_names[0], "nested1");
        CHECK_INT(n1->fields[0]->id, WT_VARCHAR);
        CHECK(!n1->fields[0]->nullable);
        /* nested2 of nested1 of nested of $0: FIELD(FIELD(FIELD($0, 0), 0), 0), nullable (the rows are) */
        const WExpr *e = wrel_calc(roots[0]->inputs[0])->exprs[0];
        CHECK(e->kind == WX_CALL && e->func == wfunc_lookup("FIELD"));
        CHECK(e->type->id == WT_VARCHAR && e->type->nullable);
        CHECK(e->args[0]->kind == WX_CALL && e->args[0]->args[0]->kind == WX_CALL);
        CHECK(e->args[0]->args[0]->args[0]->kind == WX_COLUMN);
    }
    rctx_free(&t);
    rctx_init(&t);
    n = wplan_from_json(&t.p, nested_plan("nested9"), &roots);
    CHECK_INT(n, -1);
    CHECK(strstr(t.err.msg, "accesses a field its ROW expression does not have: nested9") != NULL);
    rctx_free(&t);
}
