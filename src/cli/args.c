/*
 * args.c — command-line checks of the SQL client (see args.h).
 */
#include "args.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "../common/arena.h"
#include "../common/strbuf.h"

char *wcli_local_path(const char *arg)
{
    if (!arg) return NULL;
    const char *colon = strchr(arg, ':');
    const char *slash = strchr(arg, '/');
    /* A scheme is "letters:" before the first '/' (one letter would be a Windows drive). */
    if (colon && (!slash || colon < slash) && colon - arg > 1) {
        if (strncmp(arg, "file:", 5) != 0) return NULL;
        arg += 5;
        if (strncmp(arg, "//", 2) == 0) arg += 2;       /* file:///x -> /x */
    }
    if (!*arg) return NULL;
    if (arg[0] == '/') return wstrdup(arg);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return wstrdup(arg);
    WStrBuf sb;
    wsb_init(&sb);
    wsb_printf(&sb, "%s/%s", cwd, arg);
    return wsb_detach(&sb);
}

bool wcli_valid_session_id(const char *id)
{
    if (!id || !*id) return false;
    for (const char *p = id; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
    }
    return true;
}
