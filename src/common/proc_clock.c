/*
 * proc_clock.c — a job's processing-time source; see proc_clock.h.
 */
#include "proc_clock.h"

#include <assert.h>
#include <time.h>

int64_t wproc_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t wproc_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t wproc_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t wproc_mono_coarse_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void wproc_clock_init_wall(WProcClock *c)
{
    *c = (WProcClock){.kind = WPROC_CLOCK_WALL};
}

void wproc_clock_init_step(WProcClock *c, int64_t start_ms, int64_t step_ms)
{
    assert(step_ms > 0);
    *c = (WProcClock){.kind = WPROC_CLOCK_STEP, .now = start_ms, .step_ms = step_ms};
}

void wproc_clock_init_manual(WProcClock *c, int64_t start_ms, int64_t at_input_end_ms)
{
    assert(at_input_end_ms >= 0);
    *c = (WProcClock){.kind = WPROC_CLOCK_MANUAL, .now = start_ms, .at_input_end_ms = at_input_end_ms};
}

bool wproc_clock_is_simulated(const WProcClock *c)
{
    return c && c->kind != WPROC_CLOCK_WALL;
}

int64_t wproc_clock_now(const WProcClock *c)
{
    if (!wproc_clock_is_simulated(c)) return wproc_wall_ms();
    return __atomic_load_n(&c->now, __ATOMIC_ACQUIRE);
}

int64_t wproc_clock_fn(void *ctx)
{
    return wproc_clock_now(ctx);
}

void wproc_clock_advance(WProcClock *c, int64_t by_ms)
{
    assert(wproc_clock_is_simulated(c) && by_ms >= 0);
    __atomic_add_fetch(&c->now, by_ms, __ATOMIC_ACQ_REL);
}

void wproc_clock_advance_to(WProcClock *c, int64_t t)
{
    assert(wproc_clock_is_simulated(c));
    int64_t cur = __atomic_load_n(&c->now, __ATOMIC_ACQUIRE);
    while (t > cur && !__atomic_compare_exchange_n(&c->now, &cur, t, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
}

void wproc_clock_resume(WProcClock *c, int64_t t)
{
    assert(c->kind == WPROC_CLOCK_STEP);
    __atomic_store_n(&c->now, t, __ATOMIC_RELEASE);
}

void wproc_clock_on_chunk(WProcClock *c)
{
    if (c && c->kind == WPROC_CLOCK_STEP) wproc_clock_advance(c, c->step_ms);
}
