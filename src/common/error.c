/* error.c — user-facing errors; see error.h for the contract. */
#include "error.h"

#include <stdio.h>
#include <string.h>

/* Resets the fields, not the 8 KB message buffer: errors are cleared per row in places (TRY_CAST,
   an aggregate's result cast), and a message is only ever read as a string. */
void werr_clear(WError *e)
{
    if (!e) return;
    e->set = false;
    e->cls[0] = e->msg[0] = e->file[0] = e->outer[0] = 0;
    e->line = e->col = 0;
    e->file_line = 0;
}

bool werr_setv(WError *e, const char *cls, const char *fmt, va_list ap)
{
    if (!e || e->set) return false;
    e->set = true;
    e->outer[0] = 0;
    snprintf(e->cls, sizeof e->cls, "%s", cls ? cls : WEXC_TABLE);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    return false;
}

bool werr_set(WError *e, const char *cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    werr_setv(e, cls, fmt, ap);
    va_end(ap);
    return false;
}

bool werr_set_at(WError *e, int line, int col, const char *cls, const char *fmt, ...)
{
    if (!e || e->set) return false;
    va_list ap;
    va_start(ap, fmt);
    werr_setv(e, cls, fmt, ap);
    va_end(ap);
    e->line = line;
    e->col = col;
    return false;
}

void werr_wrap(WError *e, const char *cls, const char *fmt, ...)
{
    if (!e || !e->set || e->outer[0]) return;
    int n = snprintf(e->outer, sizeof e->outer, "%s: ", cls);
    if (n < 0 || (size_t)n >= sizeof e->outer) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->outer + n, sizeof e->outer - (size_t)n, fmt, ap);
    va_end(ap);
}

void werr_prefix(WError *e, const char *fmt, ...)
{
    if (!e || !e->set) return;
    char pre[1024], old[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    snprintf(e->msg, sizeof e->msg, "%s%s", pre, old);
}
