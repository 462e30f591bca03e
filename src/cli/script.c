/*
 * script.c — statement accumulation and the `-f` script echo (see script.h).
 *
 * Contract: pure text handling plus calls of the caller's statement callback; never touches the
 * session directly. Completeness comes from wsql_is_complete (sql/parser.h).
 */
#include "script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "messages.h"
#include "../sql/parser.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

/* Skip whitespace, `-- ...` and `/ * ... * /` comments. */
static const char *skip_blank(const char *p)
{
    for (;;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n') p++;
        } else if (p[0] == '/' && p[1] == '*' && p[2] != '+') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else {
            return p;
        }
    }
}

void wcli_first_word(const char *buf, char *word, size_t n)
{
    size_t k = 0;
    const char *p = skip_blank(buf ? buf : "");
    while (*p && (isalnum((unsigned char)*p) || *p == '_') && k + 1 < n)
        word[k++] = (char)toupper((unsigned char)*p++);
    if (n) word[k < n ? k : n - 1] = 0;
}

static bool java_space(char c) { return (unsigned char)c <= ' '; }

WCliCmd wcli_classify(const char *buf)
{
    if (!buf) return WCMD_NONE;
    const char *b = buf, *e = buf + strlen(buf);
    while (b < e && java_space(*b)) b++;
    while (e > b && java_space(e[-1])) e--;
    if (b == e || (e - b == 1 && *b == ';')) return WCMD_NONE;
    const char *p = skip_blank(b);
    if (!*p) return WCMD_NONE;      /* only comments: keep reading */
    char w[8];
    wcli_first_word(p, w, sizeof w);
    /* The word must be a whole token (QUITX is not QUIT). */
    size_t wl = strlen(w);
    if (wl && wl < sizeof w - 1 && !(isalnum((unsigned char)p[wl]) || p[wl] == '_' || p[wl] == '$')) {
        if (!strcmp(w, "QUIT") || !strcmp(w, "EXIT")) return WCMD_QUIT;
        if (!strcmp(w, "HELP")) return WCMD_HELP;
        if (!strcmp(w, "CLEAR")) return WCMD_CLEAR;
    }
    return WCMD_OTHER;
}

bool wcli_buffer_complete(const char *buf)
{
    /* Flink: the text must literally end with ';' (a trailing `-- comment` keeps reading) and
       the lexer must be outside quotes and comments there. */
    const char *e = buf + strlen(buf);
    while (e > buf && java_space(e[-1])) e--;
    if (e == buf || e[-1] != ';') return false;
    return wsql_is_complete(buf) && wcli_classify(buf) != WCMD_NONE;
}

char *wcli_format_script(const char *content, bool add_semicolon)
{
    const char *b = content ? content : "", *e = b + strlen(b);
    while (b < e && java_space(*b)) b++;
    while (e > b && java_space(e[-1])) e--;
    WStrBuf sb;
    wsb_init(&sb);
    wsb_appendn(&sb, b, (size_t)(e - b));
    if (add_semicolon && (e == b || e[-1] != ';')) wsb_putc(&sb, ';');
    wsb_putc(&sb, '\n');
    return wsb_detach(&sb);
}

WCliScriptEnd wcli_run_script(const WCliScript *sc, const char *text)
{
    const char *p = text ? text : "";
    WStrBuf buf, echo;
    wsb_init(&buf);
    wsb_init(&echo);
    WCliScriptEnd end = WCS_EOF;

    for (;;) {
        /* Blank lines between statements belong to the next one and are echoed with it, as in
           Flink, whose line reader keeps them in the buffer of the statement that follows. */
        if (sc->echo) {
            fputs("\n", sc->out);
            fputs(wmsg_prompt(sc->color), sc->out);
            fflush(sc->out);
        }
        wsb_clear(&buf);
        wsb_clear(&echo);
        bool first = true, complete = false;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            size_t m = n;
            if (m > 0 && p[m - 1] == '\r') m--;     /* CRLF scripts */
            if (!first) wsb_append(&echo, WMSG_CONT_PROMPT);
            wsb_appendn(&echo, p, m);
            wsb_putc(&echo, '\n');
            if (!first) wsb_putc(&buf, '\n');
            wsb_appendn(&buf, p, m);
            first = false;
            p += n;
            if (*p == '\n') p++;
            if (wcli_buffer_complete(buf.buf)) {
                complete = true;
                break;
            }
        }
        if (!complete) {
            /* End of input. An unterminated statement still runs (its error tells the user why);
               trailing comments do not. */
            if (buf.len == 0 || wcli_classify(buf.buf) == WCMD_NONE) break;
        }
        /* The echo of a statement, printed once it is known to be one: comments after the last
           statement are not echoed (Flink's prompt stays empty there). */
        if (sc->echo) {
            fwrite(echo.buf, 1, echo.len, sc->out);
            fflush(sc->out);
        }
        bool quit = false;
        bool ok = sc->fn(sc->ctx, buf.buf, wcli_classify(buf.buf), &quit);
        if (quit) {
            end = WCS_QUIT;
            break;
        }
        if (!ok && sc->exit_on_failure) {
            end = WCS_FAILED;
            break;
        }
        if (!complete) break;
    }
    wsb_free(&buf);
    wsb_free(&echo);
    fflush(sc->out);
    return end;
}
