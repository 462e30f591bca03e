/*
 * conformance.h — runs one case of the Flink conformance corpus (../shared/conformance, format in
 * its FORMAT.md) through a weir session: sources become changelog-csv files, sinks become print
 * sinks captured in memory, and the captured changelog is compared with Flink's expected output
 * under the case's comparison rule (changelog multiset, materialized, materialized per phase).
 *
 * Contract: wconformance_run prints one result line to `out` ("PASS <name>", "FAIL <name>: why"
 * followed by a diff, or "SKIP <name>: reason") and returns 0 (pass), 1 (fail) or 2 (skipped).
 * Temporary files live under $TMPDIR and are removed. Depends on session.h, sql/.
 */
#ifndef WEIR_SESSION_CONFORMANCE_H
#define WEIR_SESSION_CONFORMANCE_H

#include <stdio.h>

enum { WCONF_PASS = 0, WCONF_FAIL = 1, WCONF_SKIP = 2 };

int wconformance_run(const char *case_path, FILE *out, int verbose);

#endif
