/*
 * insight_advice.h — PLAN_ADVICE from a running job's figures: the advice weir's insight gives about
 * one operator of a registered job (hot keys by records and by state bytes, slow keys, late rows,
 * slow windows, watermark lag, state growth), worded for EXPLAIN PLAN_ADVICE (docs/insight.md).
 */
#ifndef WEIR_SERVER_INSIGHT_ADVICE_H
#define WEIR_SERVER_INSIGHT_ADVICE_H

#include "registry.h"

/* For every job-graph operator of j made from exec node node_id: add(actx, kind, text) per finding
   ("WARNING" for something to act on, "ADVICE" for a forecast). The caller holds the registry lock. */
void winsight_advice(const WRegJob *j, int node_id, void (*add)(void *actx, const char *kind, const char *text),
                     void *actx);

#endif
