/*
 * proc_clock.h — a job's processing-time source.
 *
 * Contract: every operator, state backend and connector of a job reads processing time from the
 * one WProcClock of its job (WExecCtx.clock / clock_ctx, with wproc_clock_fn as the WClockFn);
 * nothing in exec, state or runtime calls the wall clock for processing time itself. A clock is
 *   - WALL: the system's real-time clock (every job, unless told otherwise);
 *   - STEP: starts at a given time and advances by a fixed step after every chunk a source
 *     delivers (weir.exec.simulated-clock.step: reproducible TTL in demonstrations and goldens);
 *   - MANUAL: only its driver moves it (the conformance runner, as Flink's tests drive a
 *     ManualProcessingTimeService between their input steps). `at_input_end_ms` is one such step
 *     the job performs itself: once all its sources have read their input, before they end (or
 *     before the savepoint a stop-at-end takes), the clock advances by it and the operators'
 *     processing-time timers fire.
 * A clock never goes backwards while a job runs. Reads and advances are atomic (lanes read it from their threads).
 */
#ifndef WEIR_PROC_CLOCK_H
#define WEIR_PROC_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { WPROC_CLOCK_WALL = 0, WPROC_CLOCK_STEP, WPROC_CLOCK_MANUAL } WProcClockKind;

typedef struct WProcClock {
    WProcClockKind kind;
    int64_t now;                /* STEP, MANUAL: the current time (ms since the epoch); atomic */
    int64_t step_ms;            /* STEP: advance after every source chunk (> 0) */
    int64_t at_input_end_ms;    /* MANUAL: advance once the input is read (0: no such step) */
} WProcClock;

/* The system's real-time clock in ms since the epoch. */
int64_t wproc_wall_ms(void);
/* The monotonic clock in ns (durations: task times, slow firings, a source's waits). */
int64_t wproc_mono_ns(void);
/* The calling thread's CPU time in ns (an operator measuring its own work: not counting the time
   its thread was descheduled; a system call, about a microsecond: per chunk, not per row). */
int64_t wproc_thread_cpu_ns(void);
/* The coarse monotonic clock in ns (a few ns to read, a resolution of a few ms: per-row timing). */
int64_t wproc_mono_coarse_ns(void);
void wproc_clock_init_wall(WProcClock *c);
/* A STEP clock at start_ms advancing step_ms (> 0) per source chunk. */
void wproc_clock_init_step(WProcClock *c, int64_t start_ms, int64_t step_ms);
/* A MANUAL clock at start_ms; at_input_end_ms >= 0 (see above). */
void wproc_clock_init_manual(WProcClock *c, int64_t start_ms, int64_t at_input_end_ms);
bool wproc_clock_is_simulated(const WProcClock *c);
/* Processing time now (ms). */
int64_t wproc_clock_now(const WProcClock *c);
/* As a WClockFn (state/state.h, connectors): ctx is the WProcClock. */
int64_t wproc_clock_fn(void *ctx);
/* Move a simulated clock forward by by_ms (>= 0). */
void wproc_clock_advance(WProcClock *c, int64_t by_ms);
/* Move a simulated clock to t when t is later than now. */
void wproc_clock_advance_to(WProcClock *c, int64_t t);
/* A STEP clock of a job restored from a checkpoint, before the job runs: it resumes at the time
   the checkpoint recorded (earlier than the new job's start, as processing time in a replay). */
void wproc_clock_resume(WProcClock *c, int64_t t);
/* A source delivered a chunk: a STEP clock takes its step. */
void wproc_clock_on_chunk(WProcClock *c);

#endif
