/*
 * window_kind.h — the four kinds of time window Flink SQL knows (window table functions TUMBLE,
 * HOP, CUMULATE, SESSION and the legacy group windows TUMBLE, HOP, SESSION).
 *
 * Contract: one enum shared by the plan (wrel_window(r)->kind, plan/plan.h), EXPLAIN / compiled
 * plans and the window operators (exec/windowed.h), so that no layer tests a window kind by
 * number. The values are the order of the kinds in Flink's digests; WWIN_NKINDS bounds tables
 * indexed by kind.
 */
#ifndef WEIR_COMMON_WINDOW_KIND_H
#define WEIR_COMMON_WINDOW_KIND_H

typedef enum WWindowKind { WWIN_TUMBLE, WWIN_HOP, WWIN_CUMULATE, WWIN_SESSION } WWindowKind;
#define WWIN_NKINDS 4

#endif
