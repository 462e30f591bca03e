/* op_harness.c — see op_harness.h. */
#include "op_harness.h"
#include "../../src/types/format.h"
#include "../../src/types/cast.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static int64_t env_clock(void *ctx) { return ((TestEnv *)ctx)->now; }

void test_env_init(TestEnv *e)
{
    memset(e, 0, sizeof *e);
    werr_clear(&e->err);
    e->ctx.err = &e->err;
    e->ctx.chunk_rows = WCHUNK_CAP;
    e->ctx.max_parallelism = 128;
    e->ctx.clock = env_clock;
    e->ctx.clock_ctx = e;
    e->now = 1000;
}

static void cap_process(WOperator *op, int input, const WChunk *in)
{
    Capture *c = (Capture *)op;
    (void)input;
    for (int r = 0; r < in->nrows; r++) {
        wsb_append(&c->text, wrowkind_short((WRowKind)in->kinds[r]));
        wsb_putc(&c->text, '[');
        for (int k = 0; k < in->ncols; k++) {
            if (k) wsb_append(&c->text, ", ");
            wfmt_java(in->cols[k].type ? in->cols[k].type : in->types[k], in->cols[k].data[r],
                      in->cols[k].nulls[r], NULL, &c->text);
        }
        wsb_append(&c->text, "]\n");
        c->rows++;
    }
}

static void cap_wm(WOperator *op, int64_t wm) { ((Capture *)op)->last_wm = wm; }
static void cap_end(WOperator *op) { ((Capture *)op)->ended = true; }
static void cap_destroy(WOperator *op) { (void)op; }

static const WOpOps CAP_OPS = {.process = cap_process, .watermark = cap_wm, .end_input = cap_end,
                               .destroy = cap_destroy};

Capture *capture_new(TestEnv *e, int ncols, const WType **types)
{
    Capture *c = wcalloc(1, sizeof *c);
    wop_init(&c->base, &CAP_OPS, &e->ctx, 1, ncols, types, NULL);
    wsb_init(&c->text);
    return c;
}

void capture_clear(Capture *c)
{
    wsb_clear(&c->text);
    c->rows = 0;
}

void capture_free(Capture *c)
{
    wsb_free(&c->text);
    wop_free(&c->base);   /* destroy is a no-op: free the struct here */
    free(c);
}

WChunk *chunk_from_text(TestEnv *e, int ncols, const WType **types, int nrows, const char **kinds,
                        const char **cells)
{
    WChunk *c = wchunk_new(ncols, types, nrows > 0 ? nrows : 1);
    WCastCtx cc = {0};
    for (int r = 0; r < nrows; r++) {
        WRowKind k = WRK_INSERT;
        wrowkind_parse(kinds[r], (int)strlen(kinds[r]), &k);
        int row = wchunk_add_row(c, k);
        for (int j = 0; j < ncols; j++) {
            const char *v = cells[r * ncols + j];
            if (!v || strcmp(v, "null") == 0) {
                c->cols[j].nulls[row] = 1;
                continue;
            }
            if (!wcast_from_text(&cc, v, (int)strlen(v), types[j], &c->cols[j].data[row], c->arena, &e->err)) {
                c->cols[j].nulls[row] = 1;
            }
        }
    }
    return c;
}

void push_text_rows(TestEnv *e, WOperator *op, int ncols, const WType **types, const char *text)
{
    assert(ncols <= 8);
    const char *kinds[64];
    const char *cells[64 * 8];
    char *copy = strdup(text);
    int n = 0;
    for (char *line = strtok(copy, "\n"); line && n < 64; line = strtok(NULL, "\n")) {
        char *save = NULL;
        kinds[n] = strtok_r(line, ",", &save);
        for (int c = 0; c < ncols; c++) cells[n * ncols + c] = strtok_r(NULL, ",", &save);
        n++;
    }
    WChunk *c = chunk_from_text(e, ncols, types, n, kinds, cells);
    wop_push(op, 0, c);
    wchunk_free(c);
    free(copy);
}
