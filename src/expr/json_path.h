/*
 * json_path.h — SQL/JSON path expressions as Flink evaluates them (SqlJsonUtils: an optional
 * `lax` / `strict` mode prefix, strict when omitted, then a Jayway JsonPath expression).
 *
 * Contract: wjpath_compile splits the mode and compiles the Jayway part: `$`, `.name`, `['name']`,
 * `["name"]`, `[n]` (negative from the end), `[n, m]`, `[a:b]` slices, `[*]` / `.*` wildcards and
 * `..name` deep scan; a path not starting with `$` gets `$.` in front as Jayway does. Filters
 * (`[?(...)]`) and functions are not supported (reported as invalid paths). wjpath_eval follows
 * Jayway's evaluation with Flink's options: lax = SUPPRESS_EXCEPTIONS (missing parts yield nothing),
 * strict = exceptions with Jayway's messages ("No results for path: $['a']", "Missing property in
 * path $['a']", ...). A definite path yields one value (NULL for none); an indefinite one yields
 * an array node of all matches (in lax mode possibly empty).
 * Depends on common/json.h.
 */
#ifndef WEIR_EXPR_JSON_PATH_H
#define WEIR_EXPR_JSON_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include "../common/json.h"
#include "../common/arena.h"

typedef struct WJsonPathTok WJsonPathTok;

typedef struct WJsonPath {
    bool lax;                   /* 'lax' prefix; otherwise strict */
    bool definite;              /* no wildcard, scan, slice or index list */
    int ntok;
    WJsonPathTok *toks;
} WJsonPath;

/* Compile spec (the whole path argument). false: invalid, with Flink's message in err (the
   caller raises it according to the ON ERROR behaviour). */
bool wjpath_compile(WArena *a, const char *spec, size_t len, WJsonPath *out, char *err, size_t errsz);

/* Evaluate on root. Returns true with *out = the value (NULL: no value / JSON null for a definite
   path; an array node for an indefinite path), or false with Jayway's exception message in err
   (strict mode only). Result nodes may be allocated in a. */
bool wjpath_eval(WArena *a, const WJsonPath *p, const WJson *root, const WJson **out, char *err, size_t errsz);

#endif
