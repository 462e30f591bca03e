/*
 * table_factory.h — the planner's side of Flink's FactoryUtil.createDynamicTableSource / Sink: a
 * table's connector is found and its options validated while the statement is planned, so
 * EXPLAIN, EXPLAIN PLAN FOR, COMPILE PLAN, a query and an INSERT of a table with bad options all
 * fail there, with the connector's own message (measured on Flink 2.3.0: the SQL client prints
 * the root cause of "Unable to create a source for reading table '<name>'." / "Unable to create a
 * sink for writing table '<name>'.", e.g. "Unsupported options found for 'datagen'. ...").
 *
 * Contract: pure option checks (connectors/ validate functions); nothing is opened. The runtime
 * (runtime/build.c) finds connectors and fills table specs through the same functions. Depends on
 * plan/, catalog/, connectors/ (connector.h), common/.
 */
#ifndef WEIR_PLAN_TABLE_FACTORY_H
#define WEIR_PLAN_TABLE_FACTORY_H

#include <stdbool.h>
#include "plan.h"
#include "../connectors/connector.h"

/* The connector named by table t's 'connector' option, with Flink's messages when there is none
   or no factory has that identifier (err set, NULL). */
const WConnector *wplan_table_connector(const WTable *t, WError *err);

/* A table spec of t (physical columns, primary key and partition keys as indexes into the
   physical columns, options) for subtask 0 of 1, allocated in a; the caller sets the rest. */
WTableSpec *wplan_table_spec(WArena *a, WTable *t, const char *qname);

/* Creates (validates) every table source of the bound plans roots[0..n) in query order, then
   every table sink, as Flink's planner does while it converts the statement: the connector of
   each, its side (a sink-only connector read, a source-only one written), its options
   (connector's validate), and INSERT OVERWRITE on a connector without it. False with p->err set
   on the first failure. */
bool wplan_create_tables(WPlanCtx *p, WRel **roots, int n);

#endif
