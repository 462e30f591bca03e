/*
 * args.h — helpers for the `weir sql-client` command line (private to src/cli), as Flink's
 * CliOptionsParser checks them.
 *
 * Contract: wcli_local_path accepts a plain path or a `file:` URI (file:/x, file:///x, file:x)
 * and returns it as an absolute path (heap); any other scheme (hdfs://, s3://, http:) gives NULL,
 * for which the caller prints Flink's "SQL Client only supports to load files in local.".
 * wcli_valid_session_id checks `[a-zA-Z0-9_\-.]+`. Depends on common/ only.
 */
#ifndef WEIR_CLI_ARGS_H
#define WEIR_CLI_ARGS_H

#include <stdbool.h>

char *wcli_local_path(const char *arg);
bool wcli_valid_session_id(const char *id);

#endif
