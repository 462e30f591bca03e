/*
 * interactive.c — the interactive SQL client loop on libedit (see interactive.h).
 *
 * Contract: owns the terminal loop only; statements are run by wcli_execute (client.c).
 */
#include "interactive.h"

#include <errno.h>
#include <histedit.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "messages.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#define PROMPT_ESC '\1'

typedef struct LoopState {
    bool color;
    bool continuation;
} LoopState;

static char *prompt_fn(EditLine *el)
{
    LoopState *st = NULL;
    el_get(el, EL_CLIENTDATA, &st);
    if (st && st->continuation) return (char *)WMSG_CONT_PROMPT;
    if (st && st->color) return (char *)"\1\x1b[32m\1" WMSG_PROMPT "\1\x1b[0m\1> ";
    return (char *)WMSG_PROMPT "> ";
}

static char *default_history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    WStrBuf sb;
    wsb_init(&sb);
    wsb_printf(&sb, "%s/.weir-sql-history", home);
    return wsb_detach(&sb);
}

static bool ensure_file(const char *path)
{
    if (!path) return false;
    if (access(path, F_OK) == 0) return true;
    FILE *f = fopen(path, "a");
    if (!f) return false;
    fclose(f);
    return true;
}

static void set_sigint_blocked(bool blocked)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

/* stdin is not a terminal: read everything and run it as an echoed script. */
static int run_piped(WClient *c)
{
    WStrBuf in;
    wsb_init(&in);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) wsb_appendn(&in, buf, n);
    char *text = wcli_format_script(in.buf ? in.buf : "", false);
    wsb_free(&in);
    c->mode = WCLI_INTERACTIVE;
    WCliScript sc = {.out = c->out, .color = c->color, .echo = true, .exit_on_failure = false,
                     .fn = wcli_execute, .ctx = c};
    wcli_run_script(&sc, text);
    free(text);
    return 0;
}

int wcli_interactive(WClient *c, const char *history_path, const char *version)
{
    c->mode = WCLI_INTERACTIVE;
    if (!isatty(STDIN_FILENO)) return run_piped(c);

    fputc('\n', c->out);
    wmsg_banner(c->out, version);

    char *owned = NULL;
    const char *hpath = history_path;
    if (!hpath) hpath = owned = default_history_path();
    bool have_hist = ensure_file(hpath);
    if (have_hist)
        fprintf(c->out, "Command history file path: %s\n", hpath);
    else
        fprintf(c->out, "Unable to create history file: %s\n", hpath ? hpath : "(no HOME)");

    LoopState st = {.color = c->color, .continuation = false};
    EditLine *el = el_init("weir", stdin, stdout, stderr);
    History *hist = history_init();
    HistEvent ev;
    history(hist, &ev, H_SETSIZE, 2000);
    history(hist, &ev, H_SETUNIQUE, 1);
    if (have_hist) history(hist, &ev, H_LOAD, hpath);
    el_set(el, EL_CLIENTDATA, &st);
    el_set(el, EL_EDITOR, "emacs");
    el_set(el, EL_PROMPT_ESC, prompt_fn, PROMPT_ESC);
    el_set(el, EL_HIST, history, hist);
    el_source(el, NULL);

    WStrBuf stmt;
    wsb_init(&stmt);
    bool running = true;
    while (running) {
        fputc('\n', c->out);
        fflush(c->out);
        wsb_clear(&stmt);
        st.continuation = false;
        bool got = false, eof = false;
        for (;;) {
            int count = 0;
            errno = 0;
            set_sigint_blocked(false);
            const char *line = el_gets(el, &count);
            int e = errno;
            set_sigint_blocked(true);
            bool interrupted = wcli_take_sigint() || (!line && count < 0 && e == EINTR);
            if (interrupted) {
                /* Ctrl-C at the prompt: drop what was typed (Flink: UserInterruptException). */
                el_reset(el);
                fputc('\n', c->out);
                break;
            }
            if (!line || count == 0) {
                eof = true;
                break;
            }
            size_t n = strlen(line);
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
            if (st.continuation) wsb_putc(&stmt, '\n');
            wsb_appendn(&stmt, line, n);
            st.continuation = true;
            if (wcli_buffer_complete(stmt.buf)) {
                got = true;
                break;
            }
        }
        if (eof) break;
        if (!got) continue;

        history(hist, &ev, H_ENTER, stmt.buf);
        if (have_hist) history(hist, &ev, H_SAVE, hpath);
        bool quit = false;
        wcli_execute(c, stmt.buf, wcli_classify(stmt.buf), &quit);
        c->interrupted = false;
        if (quit) running = false;
    }
    wsb_free(&stmt);
    history_end(hist);
    el_end(el);
    free(owned);
    return 0;
}
