/*
 * interactive.c — the interactive SQL client loop (see interactive.h).
 *
 * Contract: owns the statement loop only; lines come from cli/line_editor (libedit, UTF-8),
 * statements are run by wcli_execute (client.c).
 */
#include "interactive.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line_editor.h"
#include "messages.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

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

    WLineEditor *le = wle_open(stdin, stdout, have_hist ? hpath : NULL, c->color);
    if (!wle_utf8(le))
        wmsg_warning(c->out, c->color, "No UTF-8 locale is available: characters beyond ASCII "
                                       "cannot be typed.");

    WStrBuf stmt;
    wsb_init(&stmt);
    bool running = true;
    while (running) {
        fputc('\n', c->out);
        fflush(c->out);
        wsb_clear(&stmt);
        bool continuation = false, got = false, eof = false;
        for (;;) {
            const char *line = NULL;
            size_t n = 0;
            set_sigint_blocked(false);
            WLineStatus ls = wle_read(le, continuation, &line, &n);
            set_sigint_blocked(true);
            if (wcli_take_sigint() || ls == WLE_INTERRUPTED) {
                /* Ctrl-C at the prompt: drop what was typed (Flink: UserInterruptException). */
                wle_reset(le);
                fputc('\n', c->out);
                break;
            }
            if (ls == WLE_EOF) {
                eof = true;
                break;
            }
            if (continuation) wsb_putc(&stmt, '\n');
            wsb_appendn(&stmt, line, n);
            continuation = true;
            if (wcli_buffer_complete(stmt.buf)) {
                got = true;
                break;
            }
        }
        if (eof) break;
        if (!got) continue;

        wle_add_history(le, stmt.buf);
        bool quit = false;
        wcli_execute(c, stmt.buf, wcli_classify(stmt.buf), &quit);
        c->interrupted = false;
        if (quit) running = false;
    }
    wsb_free(&stmt);
    wle_close(le);
    free(owned);
    return 0;
}
