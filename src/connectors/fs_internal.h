/*
 * fs_internal.h — private to the 'filesystem' connector's files (filesystem.c, fs_source.c,
 * fs_writer.c, fs_sink.c): the option helpers of the factory and the source's and sink's
 * constructors. Not a public contract; the connector is wconn_filesystem (conn_internal.h).
 * Depends on connector.h, expr/regex.h, common/.
 */
#ifndef WEIR_CONNECTORS_FS_INTERNAL_H
#define WEIR_CONNECTORS_FS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "connector.h"
#include "../common/arena.h"
#include "../expr/regex.h"

/* 'source.path.regex-pattern' compiled in arena a (Java's PatternSyntaxException on a bad
   pattern); *re = NULL when the option is absent. */
bool wfs_path_regex(const WOptions *o, WArena *a, WRegex **re, WError *err);
/* Does the file's path (as Flink's Path.getPath(): no scheme) match the whole pattern (NULL: any)? */
bool wfs_path_matches(const WRegex *re, const char *file);
/* The rolling policy's options (Flink's defaults: 128MB, 30 min, 30 min, 1 min); check_positive:
   a sink's (a source parses them only, as Flink's factory reads every option). */
bool wfs_rolling_options(const WOptions *o, bool check_positive, int64_t *size, int64_t *rollover,
                         int64_t *inactivity, int64_t *check, WError *err);
/* 'auto-compaction' and 'compaction.file-size' (default: the rolling file size roll_size). */
bool wfs_compaction_options(const WOptions *o, int64_t roll_size, bool *on, int64_t *target, WError *err);
/* Local path of a Flink path ('file:///x' or 'file:/x' or '/x'). */
const char *wfs_local_path(const char *p);
/* The factory's validation of a table used as a source (as_source) or a sink, Flink's messages. */
bool wfs_validate(const WTableSpec *spec, bool as_source, WError *err);

WSource *wfs_open_source(const WTableSpec *spec, WError *err);     /* fs_source.c */
/* The same for a csv table read with the rules of Flink's legacy CsvTableSource (fs_legacy.c). */
WSource *wfs_open_legacy_csv_source(const WTableSpec *spec, WError *err);
WSink *wfs_open_sink(const WTableSpec *spec, WError *err);         /* fs_sink.c */

#endif
