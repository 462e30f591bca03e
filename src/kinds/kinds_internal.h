/*
 * kinds/kinds_internal.h — private to src/kinds: what a kind's operations call, the headers of
 * every stage they run in (plan, explain, runtime and what those build on).
 */
#ifndef WEIR_KINDS_INTERNAL_H
#define WEIR_KINDS_INTERNAL_H

#include "kinds.h"
#include "../plan/physical_internal.h"
#include "../plan/agg_rules.h"
#include "../plan/sort_rules.h"
#include "../plan/bind_unnest.h"
#include "../plan/over_rules.h"
#include "../plan/reduce.h"
#include "../explain/explain_internal.h"
#include "../plan/over_window.h"
#include "../common/duration.h"
#include "../explain/json_out.h"
#include "../explain/compiled_plan_internal.h"
#include "flink_version.h"
#include "../explain/plan_reader_internal.h"
#include "../common/base64.h"
#include "../sql/parser.h"
#include "../expr/functions.h"
#include "../types/datetime.h"
#include "../types/decimal.h"
#include "../plan/scan_parallelism.h"
#include "../plan/sink_constraints.h"
#include "../common/hash.h"
#include "../types/format.h"
#include "../connectors/connector.h"
#include "../runtime/job_internal.h"
#include "../runtime/final_rows.h"
#include "../runtime/fs_compact_flow.h"
#include "../exec/calc.h"
#include "../exec/correlate.h"
#include "../exec/watermark.h"
#include "../exec/union.h"
#include "../exec/expand.h"
#include "../exec/replicate_rows.h"
#include "../exec/stateful.h"
#include "../exec/windowed.h"
#include "../exec/sort.h"
#include "../exec/match.h"
#include "../exec/over_batch.h"
#include "../exec/insight.h"
#include "../exec/minibatch.h"
#include "../exec/lookup_join.h"
#include "../plan/table_factory.h"
#include "../types/row.h"
#include "../runtime/vertices.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>
#include <ctype.h>
#include <strings.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>

#endif
