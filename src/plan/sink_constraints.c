/*
 * sink_constraints.c — the ConstraintEnforcer Flink adds before a sink. See sink_constraints.h.
 */
#include "sink_constraints.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

enum { MAX_SINK_COLS = 256, MAX_PK = 64 };

typedef struct SinkCols {
    int n;
    const char *names[MAX_SINK_COLS];
    const WType *types[MAX_SINK_COLS];
    int npk;
    int pk_idx[MAX_PK];         /* primary key as indexes into names/types */
} SinkCols;


bool wsink_check_modes(const WOptions *config, WError *err)
{
    static const struct { const char *key, *cls; } MODES[] = {
        {"table.exec.sink.keyed-shuffle", "SinkKeyedShuffle"},
        {"table.exec.sink.upsert-materialize", "UpsertMaterialize"},
    };
    for (size_t k = 0; k < sizeof MODES / sizeof MODES[0]; k++) {
        const char *v = config ? wopts_get(config, MODES[k].key) : NULL;
        if (v && strcasecmp(v, "NONE") && strcasecmp(v, "AUTO") && strcasecmp(v, "FORCE"))
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Could not parse value for enum class org.apache.flink.table.api.config."
                            "ExecutionConfigOptions$%s. Expected one of: [[NONE, AUTO, FORCE]]", MODES[k].cls);
    }
    return true;
}
/* The sink's physical columns (the table's, or the query's for a collect sink). */
static void sink_cols(const WRel *sink, SinkCols *sc)
{
    memset(sc, 0, sizeof *sc);
    const WTable *t = wrel_sink(sink)->table;
    if (!t) {
        sc->n = sink->out.n < MAX_SINK_COLS ? sink->out.n : MAX_SINK_COLS;
        for (int i = 0; i < sc->n; i++) {
            sc->names[i] = sink->out.names[i];
            sc->types[i] = sink->out.types[i];
        }
        return;
    }
    for (int i = 0; i < t->ncols && sc->n < MAX_SINK_COLS; i++) {
        if (t->cols[i].kind != WCOL_PHYSICAL) continue;
        for (int k = 0; k < t->npk && sc->npk < MAX_PK; k++)
            if (t->pk[k] == i) sc->pk_idx[sc->npk++] = sc->n;
        sc->names[sc->n] = t->cols[i].name;
        sc->types[sc->n] = t->cols[i].type;
        sc->n++;
    }
}

static bool is_pk(const SinkCols *sc, int i)
{
    for (int k = 0; k < sc->npk; k++) if (sc->pk_idx[k] == i) return true;
    return false;
}

bool wsink_constraint_digest(const WRel *sink, const WOptions *config, WStrBuf *out)
{
    assert(sink && sink->kind == WR_SINK);
    SinkCols sc;
    sink_cols(sink, &sc);
    WStrBuf nn, cl, bl;
    wsb_init(&nn);
    wsb_init(&cl);
    wsb_init(&bl);
    int nnn = 0, ncl = 0, nbl = 0;
    for (int i = 0; i < sc.n; i++) {
        if (sc.types[i] && (!sc.types[i]->nullable || is_pk(&sc, i))) {
            wsb_printf(&nn, "%s%s", nnn ? ", " : "", sc.names[i]);
            nnn++;
        }
    }
    const char *len_enf = config ? wopts_get(config, "table.exec.sink.type-length-enforcer") : NULL;
    if (len_enf && strcasecmp(len_enf, "IGNORE") != 0) {
        for (int i = 0; i < sc.n; i++) {
            const WType *t = sc.types[i];
            if (!t) continue;
            if (t->id == WT_CHAR || (t->id == WT_VARCHAR && t->precision < WT_MAX_LENGTH)) {
                wsb_printf(&cl, "%s%s", ncl ? ", " : "", sc.names[i]);
                ncl++;
            } else if (t->id == WT_BINARY || (t->id == WT_VARBINARY && t->precision < WT_MAX_LENGTH)) {
                wsb_printf(&bl, "%s%s", nbl ? ", " : "", sc.names[i]);
                nbl++;
            }
        }
    }
    bool any = nnn || ncl || nbl;
    if (any) {
        wsb_append(out, "ConstraintEnforcer[");
        int parts = 0;
        if (nnn) { wsb_printf(out, "NotNullEnforcer(fields=[%s])", nn.buf); parts++; }
        if (ncl) { wsb_printf(out, "%sCharLengthEnforcer(fields=[%s])", parts ? ", " : "", cl.buf); parts++; }
        if (nbl) wsb_printf(out, "%sBinaryLengthEnforcer(fields=[%s])", parts ? ", " : "", bl.buf);
        wsb_putc(out, ']');
    }
    wsb_free(&nn);
    wsb_free(&cl);
    wsb_free(&bl);
    return any;
}

bool wsink_keyed_shuffle(const WRel *sink, const WOptions *config, int input_parallelism, int sink_parallelism)
{
    assert(sink && sink->kind == WR_SINK);
    const WTable *t = wrel_sink(sink)->table;
    if (!t || t->npk == 0 || sink->ninputs != 1) return false;
    if (sink->inputs[0]->kind == WR_SINK_MATERIALIZER || sink_parallelism == 1) return false;
    /* Flink's filesystem sink is a DataStream sink provider that sets its writer's parallelism
       itself: CommonExecSink adds no keyBy (measured on Flink 2.3.0: a filesystem table with a
       primary key and 'sink.parallelism' = '3' under parallelism 1 gets a REBALANCE edge) */
    if (wrel_sink_file_writer(sink)) return false;
    const char *rmode = config ? wopts_get(config, "execution.runtime-mode") : NULL;
    if (rmode && !strcasecmp(rmode, "batch")) return false;
    const char *mode = config ? wopts_get(config, "table.exec.sink.keyed-shuffle") : NULL;
    if (!mode || !strcasecmp(mode, "AUTO"))
        return sink->inputs[0]->changelog == WCM_INSERT && input_parallelism != sink_parallelism;
    return strcasecmp(mode, "FORCE") == 0;
}
