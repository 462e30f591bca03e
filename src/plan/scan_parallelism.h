/*
 * scan_parallelism.h — a table source's own parallelism ('scan.parallelism', FLIP-367) and the
 * exchange Flink's CommonExecTableSourceScan puts behind such a source.
 *
 * Contract: one answer for everyone who shows or runs the source — the job graph
 * (runtime/vertices.c, and through it the runtime's lanes and exchanges) and EXPLAIN's JSON
 * execution plan (explain/explain_text.c). Measured on Flink 2.3.0: a scan with 'scan.parallelism'
 * runs at that parallelism and is wrapped (SourceTransformationWrapper) so that the operator after
 * it runs at parallelism.default, not at the source's: an insert-only source feeds it over a
 * REBALANCE edge when the parallelisms differ (FORWARD when equal); a source that emits updates
 * over a HASH edge on the table's primary key, even when the parallelisms are equal. Without the
 * option the source runs at parallelism.default and nothing is added. Depends on plan/, catalog/,
 * common/.
 */
#ifndef WEIR_PLAN_SCAN_PARALLELISM_H
#define WEIR_PLAN_SCAN_PARALLELISM_H

#include <stdbool.h>
#include "plan.h"

/* Checks 'scan.parallelism' of every table scan under root as Flink's translation does (EXPLAIN,
   queries, INSERTs): not an integer -> NumberFormatException 'For input string: "x"'; 0 or less ->
   TableException 'Invalid configured parallelism n for table '<qualified name>'.'. False with err
   set on the first bad one. */
bool wscan_check_parallelism(const WRel *root, WError *err);

/* Scan r's 'scan.parallelism' (a positive int), 0 when r is not a table scan or the option is unset. */
int wscan_parallelism(const WRel *r);

/* Whether Flink keys the edge behind scan r by its table's primary key: 'scan.parallelism' set,
   the source emits updates, and the table has a primary key. */
bool wscan_keyed_by_pk(const WRel *r);

/* The output columns of scan r that hold its table's primary key, in key order, into keys (room
   for r->table->npk); their number, 0 when the scan does not read every key column. */
int wscan_pk_out_cols(const WRel *r, int *keys);

#endif
