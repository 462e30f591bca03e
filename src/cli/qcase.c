/* qcase.c — SQL-client transcript runner; see qcase.h. */
#include "qcase.h"
#include "client.h"
#include "../session/conformance.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct Step {
    char *stmt, *mode, *output;
} Step;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    WStrBuf b;
    wsb_init(&b);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) wsb_appendn(&b, buf, n);
    fclose(f);
    return wsb_detach(&b);
}

/* Take a block after "key:\n" up to ".end". */
static char *block(char **pp)
{
    WStrBuf b;
    wsb_init(&b);
    char *p = *pp;
    while (*p) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == 4 && strncmp(p, ".end", 4) == 0) { p = nl ? nl + 1 : p + len; break; }
        wsb_appendn(&b, p, len);
        wsb_putc(&b, '\n');
        p = nl ? nl + 1 : p + len;
    }
    *pp = p;
    return wsb_detach(&b);
}

/* Normalise for comparison: "succeed." -> "succeeded."; for errors, drop all whitespace. */
static char *normalise(const char *s, bool squash)
{
    WStrBuf b;
    wsb_init(&b);
    for (const char *p = s; *p; p++) {
        if (!strncmp(p, "Execute statement succeed.", 26)) {
            wsb_append(&b, "Execute statement succeeded.");
            p += 25;
            continue;
        }
        if (squash && isspace((unsigned char)*p)) continue;
        wsb_putc(&b, *p);
    }
    /* trailing newlines do not matter */
    while (b.len && b.buf[b.len - 1] == '\n') b.buf[--b.len] = 0;
    return wsb_detach(&b);
}

int wqcase_run(const char *path, FILE *out, int verbose)
{
    char *text = slurp(path);
    if (!text) { fprintf(out, "FAIL %s: cannot open: %s\n", path, strerror(errno)); return WCONF_FAIL; }
    const char *name = path;
    Step steps[64];
    int n = 0;
    char *p = text;
    char *cur_name = NULL;
    while (*p && n < 64) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = p;
        p = nl ? nl + 1 : p + len;
        if (!strncmp(line, "name:", 5)) {
            cur_name = strndup(line + 5, len - 5);
            char *t = cur_name;
            while (*t == ' ') t++;
            name = t;
        } else if (!strncmp(line, "statement:", 10) && len == 10) {
            steps[n].stmt = block(&p);
            steps[n].mode = NULL;
            steps[n].output = NULL;
            n++;
        } else if (!strncmp(line, "mode:", 5) && n > 0) {
            steps[n - 1].mode = strndup(line + 5, len - 5);
        } else if (!strncmp(line, "output:", 7) && len == 7 && n > 0) {
            steps[n - 1].output = block(&p);
        }
    }
    /* Flink's runner substitutes $VAR_* placeholders (paths): give each its own temp dir */
    char tmpl[] = "/tmp/weir-qcase-XXXXXX";
    char *dir = mkdtemp(tmpl);
    for (int i = 0; i < n && dir; i++) {
        char *q;
        while ((q = strstr(steps[i].stmt, "$VAR_")) != NULL) {
            size_t vl = 5;
            while (isalnum((unsigned char)q[vl]) || q[vl] == '_') vl++;
            WStrBuf b;
            wsb_init(&b);
            wsb_appendn(&b, steps[i].stmt, (size_t)(q - steps[i].stmt));
            wsb_printf(&b, "%s/%.*s", dir, (int)(vl - 5), q + 5);
            wsb_append(&b, q + vl);
            free(steps[i].stmt);
            steps[i].stmt = wsb_detach(&b);
        }
    }
    int rc = WCONF_PASS;
    WSession *s = wsession_new(stdout);
    for (int i = 0; i < n && rc == WCONF_PASS; i++) {
        char *buf = NULL;
        size_t blen = 0;
        FILE *cap = open_memstream(&buf, &blen);
        WClient c = {.s = s, .out = cap, .err = cap, .mode = WCLI_NON_INTERACTIVE};
        bool quit = false;
        /* the statement text without its trailing ';' */
        /* the statement as typed, its ';' included, as the client hands it to the parser */
        char *st = strdup(steps[i].stmt);
        size_t sl = strlen(st);
        while (sl && isspace((unsigned char)st[sl - 1])) st[--sl] = 0;
        wcli_execute(&c, st, WCMD_OTHER, &quit);
        fclose(cap);
        const char *mode = steps[i].mode ? steps[i].mode : " ok";
        bool is_error = strstr(mode, "error") != NULL;
        char *want = normalise(steps[i].output ? steps[i].output : "", is_error);
        char *got = normalise(buf ? buf : "", is_error);
        if (strcmp(want, got) != 0) {
            fprintf(out, "FAIL %s: step %d (%s)\n--- expected\n%s\n--- got\n%s\n", name, i + 1, st,
                    steps[i].output ? steps[i].output : "", buf ? buf : "");
            rc = WCONF_FAIL;
        } else if (verbose) {
            fprintf(out, "ok step %d\n%s", i + 1, buf ? buf : "");
        }
        free(want);
        free(got);
        free(buf);
        free(st);
    }
    wsession_free(s);
    if (dir) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(out, "warning: could not remove %s\n", dir);
    }
    if (rc == WCONF_PASS) fprintf(out, "PASS %s\n", name);
    for (int i = 0; i < n; i++) { free(steps[i].stmt); free(steps[i].mode); free(steps[i].output); }
    free(cur_name);
    free(text);
    return rc;
}
