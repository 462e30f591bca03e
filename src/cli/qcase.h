/*
 * qcase.h — runs a SQL-client transcript of the conformance corpus (`*.qcase`, FORMAT.md §7):
 * each statement goes through the client exactly as typed, and what the client prints is compared
 * with Flink's recorded output (exactly for !ok and !info; ignoring whitespace for !error). The
 * "succeed."/"succeeded." wording of older Flink versions counts as equal (weir prints the newest).
 * Returns WCONF_PASS / WCONF_FAIL / WCONF_SKIP (session/conformance.h). Depends on cli/client.
 */
#ifndef WEIR_CLI_QCASE_H
#define WEIR_CLI_QCASE_H

#include <stdio.h>

int wqcase_run(const char *path, FILE *out, int verbose);

#endif
