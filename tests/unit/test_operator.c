/* test_operator.c — the operator framework: watermark minimum over inputs, idle inputs, end. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/union.h"

WTEST(operator_watermark_min_and_idle_inputs)
{
    TestEnv e;
    test_env_init(&e);
    const WType *types[1] = {&WTYPE_INT};
    WOperator *u = wop_union_new(&e.ctx, 2, 1, types, NULL);
    Capture *c = capture_new(&e, 1, types);
    wop_connect(u, &c->base, 0);
    wop_input_watermark(u, 0, 100);
    CHECK_INT(c->last_wm, 0);              /* input 1 still at -inf */
    wop_input_watermark(u, 1, 50);
    CHECK_INT(c->last_wm, 50);
    wop_input_watermark(u, 0, 200);
    CHECK_INT(c->last_wm, 50);             /* held back by input 1 */
    wop_input_idle(u, 1, true);
    CHECK_INT(c->last_wm, 200);            /* an idle input no longer holds it back */
    wop_input_watermark(u, 0, 300);
    CHECK_INT(c->last_wm, 300);
    wop_input_idle(u, 1, false);           /* active again: behind inputs cannot move it back */
    wop_input_watermark(u, 0, 400);
    CHECK_INT(c->last_wm, 300);
    wop_input_watermark(u, 1, 350);
    CHECK_INT(c->last_wm, 350);
    wop_input_end(u, 0);
    CHECK(!c->ended);
    wop_input_end(u, 1);
    CHECK(c->ended);
    wop_free(u);
    capture_free(c);
}

WTEST(operator_all_inputs_idle_propagates)
{
    TestEnv e;
    test_env_init(&e);
    const WType *types[1] = {&WTYPE_INT};
    WOperator *u = wop_union_new(&e.ctx, 2, 1, types, NULL);
    WOperator *u2 = wop_union_new(&e.ctx, 1, 1, types, NULL);
    wop_connect(u, u2, 0);
    wop_input_idle(u, 0, true);
    CHECK(!u2->input_idle[0]);
    wop_input_idle(u, 1, true);
    CHECK(u->idle);
    CHECK(u2->input_idle[0]);
    wop_input_idle(u, 0, false);
    CHECK(!u2->input_idle[0]);
    wop_free(u);
    wop_free(u2);
}
