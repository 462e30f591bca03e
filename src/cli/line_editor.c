/*
 * line_editor.c — libedit with a UTF-8 character type and a history file (see line_editor.h).
 *
 * Contract: owns the EditLine/History handles and the LC_CTYPE switch; knows nothing about
 * statements. libedit reads wide characters through mbrtowc and measures them with wcwidth, both
 * of which follow LC_CTYPE: in the "C" locale every byte above 0x7f is an invalid character and
 * was dropped, hence the switch to a UTF-8 locale while the editor is open.
 */
#include "line_editor.h"

#include <assert.h>
#include <errno.h>
#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "messages.h"
#include "../common/arena.h"

#define PROMPT_ESC '\1'

struct WLineEditor {
    EditLine *el;
    History *hist;
    char *history_path;         /* NULL: no history file */
    char *saved_ctype;          /* LC_CTYPE before wle_open */
    bool color, continuation, utf8;
};

static bool ctype_is_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

/* The user's LC_CTYPE when it is UTF-8, else the first UTF-8 locale available. */
static bool use_utf8_ctype(void)
{
    if (setlocale(LC_CTYPE, "") && ctype_is_utf8()) return true;
    static const char *const FALLBACK[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"};
    for (size_t i = 0; i < sizeof FALLBACK / sizeof FALLBACK[0]; i++)
        if (setlocale(LC_CTYPE, FALLBACK[i]) && ctype_is_utf8()) return true;
    return false;
}

static char *prompt_fn(EditLine *el)
{
    WLineEditor *le = NULL;
    el_get(el, EL_CLIENTDATA, &le);
    if (le && le->continuation) return (char *)WMSG_CONT_PROMPT;
    if (le && le->color) return (char *)"\1\x1b[32m\1" WMSG_PROMPT "\1\x1b[0m\1> ";
    return (char *)WMSG_PROMPT "> ";
}

WLineEditor *wle_open(FILE *in, FILE *out, const char *history_path, bool color)
{
    WLineEditor *le = wcalloc(1, sizeof *le);
    const char *cur = setlocale(LC_CTYPE, NULL);
    le->saved_ctype = wstrdup(cur ? cur : "C");
    le->utf8 = use_utf8_ctype();
    if (!le->utf8) setlocale(LC_CTYPE, le->saved_ctype);
    le->color = color;
    le->history_path = history_path ? wstrdup(history_path) : NULL;

    le->hist = history_init();
    HistEvent ev;
    history(le->hist, &ev, H_SETSIZE, 2000);
    history(le->hist, &ev, H_SETUNIQUE, 1);
    if (le->history_path) history(le->hist, &ev, H_LOAD, le->history_path);

    le->el = el_init("weir", in, out, stderr);
    el_set(le->el, EL_CLIENTDATA, le);
    el_set(le->el, EL_EDITOR, "emacs");
    el_set(le->el, EL_PROMPT_ESC, prompt_fn, PROMPT_ESC);
    el_set(le->el, EL_HIST, history, le->hist);
    el_source(le->el, NULL);
    return le;
}

WLineStatus wle_read(WLineEditor *le, bool continuation, const char **line, size_t *len)
{
    assert(le && line && len);
    le->continuation = continuation;
    int count = 0;
    errno = 0;
    const char *l = el_gets(le->el, &count);
    if (!l && count < 0 && errno == EINTR) return WLE_INTERRUPTED;
    if (!l || count == 0) return WLE_EOF;
    size_t n = strlen(l);
    while (n > 0 && (l[n - 1] == '\n' || l[n - 1] == '\r')) n--;
    *line = l;
    *len = n;
    return WLE_LINE;
}

void wle_reset(WLineEditor *le)
{
    el_reset(le->el);
}

void wle_add_history(WLineEditor *le, const char *statement)
{
    HistEvent ev;
    history(le->hist, &ev, H_ENTER, statement);
    if (le->history_path) history(le->hist, &ev, H_SAVE, le->history_path);
}

bool wle_utf8(const WLineEditor *le)
{
    return le->utf8;
}

void wle_close(WLineEditor *le)
{
    if (!le) return;
    el_end(le->el);
    history_end(le->hist);
    setlocale(LC_CTYPE, le->saved_ctype);
    free(le->saved_ctype);
    free(le->history_path);
    free(le);
}
