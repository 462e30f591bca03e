/*
 * regex.h — the regular-expression engine with java.util.regex semantics (func_regex_engine.c),
 * for the SQL regex functions and for anything else that must match as Flink's Java does (the
 * filesystem connector's source.path.regex-pattern).
 *
 * Contract: wre_compile builds a program in the arena given (NULL and *errmsg, Java's
 * PatternSyntaxException text, on a syntax error); wre_exec matches UTF-8 text without
 * allocating anything that outlives the call. Depends on common/.
 */
#ifndef WEIR_EXPR_REGEX_H
#define WEIR_EXPR_REGEX_H

#include <stdbool.h>
#include "../common/arena.h"

typedef struct WRegex WRegex;
/* Compile; NULL and *errmsg set (arena string) on a syntax error. */
WRegex *wre_compile(WArena *a, const char *pat, int len, char **errmsg);
int wre_ngroups(const WRegex *re);
/* Search from byte offset `start`; caps gets 2*(ngroups+1) offsets (-1 unset). `anchored`:
   match must start at `start`; `full`: match must also end at the end of the text. */
bool wre_exec(const WRegex *re, const char *s, int len, int start, bool anchored, bool full, int *caps);

#endif
