/* test_operator.c — the operator framework: watermark minimum over inputs, idle inputs, end. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/union.h"

#include <stdlib.h>
#include <time.h>

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

/* ---- time accounting (operator.h wop_time_*) ---- */

typedef struct SleepyOp {
    WOperator base;
    int64_t sleep_ms;
} SleepyOp;

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {0, (long)(ms * 1000000)};
    nanosleep(&ts, NULL);
}

/* sleeps, then emits what it got */
static void sleepy_process(WOperator *op, int input, const WChunk *in)
{
    (void)input;
    sleep_ms(((SleepyOp *)op)->sleep_ms);
    wop_emit(op, in);
}

static const WOpOps SLEEPY_OPS = {.process = sleepy_process};

WTEST(operator_time_accounting_charges_each_operator_its_own_time)
{
    TestEnv e;
    test_env_init(&e);
    const WType *types[1] = {&WTYPE_INT};
    SleepyOp *pa = wcalloc(1, sizeof *pa), *pb = wcalloc(1, sizeof *pb);
    pa->sleep_ms = 30;
    pb->sleep_ms = 60;
    wop_init(&pa->base, &SLEEPY_OPS, &e.ctx, 1, 1, types, NULL);
    wop_init(&pb->base, &SLEEPY_OPS, &e.ctx, 1, 1, types, NULL);
    WOperator *plumbing = wop_union_new(&e.ctx, 1, 1, types, NULL);
    plumbing->untimed = true;                   /* its time is its caller's */
    Capture *c = capture_new(&e, 1, types);
    wop_connect(&pa->base, plumbing, 0);
    wop_connect(plumbing, &pb->base, 0);
    wop_connect(&pb->base, &c->base, 0);
    push_text_rows(&e, &pa->base, 1, types, "+I,1\n+I,2\n");
    CHECK_INT(c->rows, 2);
    CHECK(e.ctx.timed_op == NULL);              /* back to the runtime's own time */
    WOpCounters ka, kb;
    wop_read_counters(&pa->base, &ka);
    wop_read_counters(&pb->base, &kb);
    /* exclusive: a's 30 ms without b's 60 ms (generous upper bounds for a loaded machine) */
    CHECK(ka.busy_ns >= 30000000 && ka.busy_ns < 55000000);
    CHECK(kb.busy_ns >= 60000000 && kb.busy_ns < 200000000);
    CHECK_INT(plumbing->busy_ns, 0);
    /* a wait while b runs is b's back-pressured time; a wait outside any operator is nobody's */
    WOperator *prev = wop_time_enter(&e.ctx, &pb->base);
    wop_time_block_begin(&e.ctx);
    sleep_ms(20);
    wop_time_block_end(&e.ctx);
    wop_time_leave(&e.ctx, prev);
    wop_read_counters(&pb->base, &kb);
    CHECK(kb.backpressured_ns >= 20000000 && kb.backpressured_ns < 150000000);
    CHECK(kb.busy_ns < 200000000);
    wop_time_block_begin(&e.ctx);
    sleep_ms(5);
    wop_time_block_end(&e.ctx);
    WOpCounters kb2;
    wop_read_counters(&pb->base, &kb2);
    CHECK_INT(kb2.backpressured_ns, kb.backpressured_ns);
    /* a source's waits for input inside its own time are idle */
    int64_t before = ka.busy_ns;
    wop_time_waited(&pa->base, 10000000);
    wop_read_counters(&pa->base, &ka);
    CHECK_INT(ka.busy_ns, before - 10000000);
    wop_free(plumbing);
    capture_free(c);
    wop_free(&pa->base);        /* no destroy: the framework frees the struct */
    wop_free(&pb->base);
}
