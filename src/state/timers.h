/*
 * timers.h — event-time and processing-time timers of keyed operators (Flink's
 * InternalTimerService): a timer is (timestamp, key bytes, namespace), registered at most once,
 * fired in timestamp order when time passes it. Windows use the window end as namespace and
 * timestamp; joins and dedup use cleanup times. Timers are state: they belong in snapshots.
 * Depends on common/.
 */
#ifndef WEIR_STATE_TIMERS_H
#define WEIR_STATE_TIMERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/error.h"

typedef struct WTimerService WTimerService;

/* Called for each due timer; the key bytes are valid during the call. */
typedef void (*WTimerFn)(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns);

WTimerService *wtimers_new(void);
void wtimers_free(WTimerService *t);
/* Register; false when the identical timer exists already. */
bool wtimers_register(WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns);
/* A hint before registering (or deleting) that timer: reads ahead the slot of the timer set
   the call will probe, so that an operator registering several timers overlaps their cache
   misses. Changes nothing. */
void wtimers_prefetch(const WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns);
/* Delete; false when absent. */
bool wtimers_delete(WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns);
/* Fire every timer with timestamp <= time, in timestamp order (ties in registration order).
   A callback may register new timers; those that are due fire in the same call. */
void wtimers_advance(WTimerService *t, int64_t time, WTimerFn fn, void *ctx);
/* The same, and `ahead` is called for a live timer a few timers before it fires (entry false,
   then again, closer, with entry true), to read its state ahead (prefetch.h):
   a hint that must change nothing; the timer may still be deleted before its turn. The service
   reads its own timers ahead too. */
typedef void (*WTimerAheadFn)(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns, bool entry);
void wtimers_advance_ahead(WTimerService *t, int64_t time, WTimerFn fn, WTimerAheadFn ahead, void *ctx);
size_t wtimers_count(const WTimerService *t);
/* Earliest pending timestamp, INT64_MAX when none. */
int64_t wtimers_next(const WTimerService *t);

/* Snapshots (additive). Write every pending timer to one checksummed file (timestamp, namespace,
   key, in firing order); restore re-registers, from one or more such files, the timers whose key
   (by wstate_key_group_of) falls in key groups kg_first..kg_last, in firing order. Every file is
   checked before any timer is added; a damaged file is refused with an error naming it. */
/* Timer keys end with ns_bytes of namespace (see wstate_set_namespace_bytes): restore assigns key
   groups by the bytes before it. Set once, before any timer. */
void wtimers_set_namespace_bytes(WTimerService *t, size_t ns_bytes);
bool wtimers_snapshot(const WTimerService *t, const char *path, int max_parallelism, WError *err);
bool wtimers_restore(WTimerService *t, const char *const *paths, int npaths, int max_parallelism,
                     int kg_first, int kg_last, WError *err);

#endif
