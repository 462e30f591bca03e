/*
 * match_digest.c — how the Match node (MATCH_RECOGNIZE) prints, as Flink's CommonPhysicalMatch
 * explainTerms: partitionBy, orderBy, measures (FINAL(...) AS name), rowsPerMatch, after,
 * pattern (Calcite's RexNode digest of the pattern), subset, define ({A=<condition digest>}).
 * The navigation references keep their digests in the spec (plan/match_spec.h); the rest of an
 * expression prints with rex.c. See explain_internal.h.
 */
#include "explain_internal.h"
#include "../plan/match_spec.h"

#include <string.h>

static void prog_text(const WMatchProg *pg, ExDialect d, WStrBuf *out)
{
    const char *names[256];
    int n = pg->nrefs < 256 ? pg->nrefs : 256;
    for (int k = 0; k < n; k++) names[k] = pg->refs[k].text;
    ex_rex(out, pg->expr, names, d);
}

void ex_match_digest(const ExCtx *x, const WRel *r, const char *const *inn, ExDialect d, WStrBuf *out)
{
    (void)x;
    const WMatchSpec *ms = wrel_match(r)->spec;
    wsb_putc(out, '(');
    ex_partition_order_by(out, r, inn);
    if (ms->nmeasures) {
        wsb_puts(out, "measures=[");
        for (int i = 0; i < ms->nmeasures; i++) {
            wsb_puts(out, i ? ", FINAL(" : "FINAL(");
            prog_text(&ms->measures[i], EXD_MATCH, out);
            wsb_printf(out, ") AS %s", ms->measure_names[i]);
        }
        wsb_puts(out, "], ");
    }
    wsb_puts(out, "rowsPerMatch=[ONE ROW PER MATCH], after=[");
    switch (ms->after) {
    case WMA_PAST_LAST_ROW: wsb_puts(out, "SKIP PAST LAST ROW"); break;
    case WMA_TO_NEXT_ROW: wsb_puts(out, "SKIP TO NEXT ROW"); break;
    case WMA_TO_FIRST: wsb_printf(out, "SKIP TO FIRST _UTF-16LE'%s'", ms->vars[ms->after_var]); break;
    case WMA_TO_LAST: wsb_printf(out, "SKIP TO LAST _UTF-16LE'%s'", ms->vars[ms->after_var]); break;
    }
    wsb_printf(out, "], pattern=[%s]", ms->pattern_text);
    if (ms->nsubsets) {
        wsb_puts(out, ", subset=[");
        for (int i = 0; i < ms->nsubsets; i++) {
            wsb_printf(out, "%s%s=[", i ? ", " : "", ms->subset_names[i]);
            bool first = true;
            for (int v = 0; v < ms->nvars; v++)
                if (ms->subset_vars[i] & (1ULL << v)) {
                    wsb_printf(out, "%s%s", first ? "" : ", ", ms->vars[v]);
                    first = false;
                }
            wsb_putc(out, ']');
        }
        wsb_putc(out, ']');
    }
    wsb_puts(out, ", define=[{");
    for (int i = 0; i < ms->ndefine_order; i++) {
        int v = ms->define_order[i];
        wsb_printf(out, "%s%s=", i ? ", " : "", ms->vars[v]);
        prog_text(ms->define[v], EXD_MATCH, out);
    }
    wsb_puts(out, "}])");
}

void ex_match_ast(const WRel *r, WStrBuf *out)
{
    const WMatchSpec *ms = wrel_match(r)->spec;
    const WRel *in = r->inputs[0];
    wsb_puts(out, "LogicalMatch(partition=[[");
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%d", i ? ", " : "", r->keys[i]);
    wsb_puts(out, "]], order=[[");
    for (int i = 0; i < r->nsort; i++)
        wsb_printf(out, "%s%d %s-nulls-%s", i ? ", " : "", r->sort_cols[i], r->sort_desc[i] ? "DESC" : "ASC",
                   r->sort_nulls_first[i] ? "first" : "last");
    wsb_puts(out, "]], outputFields=[[");
    ex_names_list(out, &r->out);
    wsb_puts(out, "]], allRows=[false], after=[");
    switch (ms->after) {
    case WMA_PAST_LAST_ROW: wsb_puts(out, "FLAG(SKIP PAST LAST ROW)"); break;
    case WMA_TO_NEXT_ROW: wsb_puts(out, "FLAG(SKIP TO NEXT ROW)"); break;
    case WMA_TO_FIRST: wsb_printf(out, "SKIP TO FIRST(_UTF-16LE'%s')", ms->vars[ms->after_var]); break;
    case WMA_TO_LAST: wsb_printf(out, "SKIP TO LAST(_UTF-16LE'%s')", ms->vars[ms->after_var]); break;
    }
    wsb_printf(out, "], pattern=[%s], isStrictStarts=[false], isStrictEnds=[false], subsets=[[]], patternDefinitions=[[",
               ms->pattern_text);
    for (int i = 0; i < ms->ndefine_order; i++) {
        if (i) wsb_puts(out, ", ");
        prog_text(ms->define[ms->define_order[i]], EXD_MATCH, out);
    }
    wsb_puts(out, "]], inputFields=[[");
    ex_names_list(out, &in->out);
    wsb_puts(out, "]])\n");
}
