/*
 * sink_constraints.h — what Flink's CommonExecSink puts in front of a sink: the ConstraintEnforcer
 * (NOT NULL columns incl. the primary key, and CHAR/VARCHAR/BINARY/VARBINARY lengths when
 * table.exec.sink.type-length-enforcer is not IGNORE), described as Flink describes it.
 *
 * Contract: one description for everyone who shows or runs the enforcer — the job graph
 * (runtime/vertices.c), EXPLAIN's JSON execution plan (explain/explain_text.c) — so that the
 * operator that is explained is the operator that runs. Depends on plan/, catalog/, common/.
 */
#ifndef WEIR_PLAN_SINK_CONSTRAINTS_H
#define WEIR_PLAN_SINK_CONSTRAINTS_H

#include <stdbool.h>
#include "plan.h"
#include "../common/options.h"
#include "../common/strbuf.h"

/* Appends "ConstraintEnforcer[NotNullEnforcer(fields=[a, b]), CharLengthEnforcer(fields=[c])]"
   for sink `sink` (a WR_SINK) under `config`; false (nothing appended) when Flink adds no
   enforcer. */
bool wsink_constraint_digest(const WRel *sink, const WOptions *config, WStrBuf *out);

/* table.exec.sink.keyed-shuffle: whether Flink's CommonExecSink puts a keyBy on the primary key
   in front of sink `sink` (a WR_SINK of a streaming job without a SinkMaterializer, which has its
   own) whose input runs at `input_parallelism` and the sink at `sink_parallelism`: NONE never;
   AUTO (the default) for an insert-only input when the parallelisms differ; FORCE always — both
   only for a table with a primary key and a sink of more than one subtask, never for the
   filesystem connector's writer (measured on Flink 2.3.0). */
/* table.exec.sink.keyed-shuffle and table.exec.sink.upsert-materialize hold one of NONE / AUTO /
   FORCE (any case); else Flink's enum error. */
bool wsink_check_modes(const WOptions *config, WError *err);

bool wsink_keyed_shuffle(const WRel *sink, const WOptions *config, int input_parallelism, int sink_parallelism);

#endif
