/*
 * match_json.c — the matchSpec of stream-exec-match_1 as COMPILE PLAN writes it, in Flink's shape
 * (MatchSpec: pattern, patternDefinitions, measures, after, subsets, allRows, partition, orderBy,
 * interval). DEFINE conditions and MEASURES are weir programs over navigation references
 * (match_spec.h); each reference is written as the RexNode Flink has for it: a
 * PATTERN_INPUT_REF {alpha, inputIndex} under $PREV$1 / $FIRST$1 / $LAST$1 (with the offset
 * literal), an aggregate call ($SUM$1(A.price), $COUNT$1()), $MATCH_ROWTIME$1 /
 * $MATCH_PROCTIME$1; measures are wrapped in $FINAL$1 as in ONE ROW PER MATCH. Differences from
 * Flink's document: a plain pattern column in MEASURES (A.price) is written as the bare
 * PATTERN_INPUT_REF where Flink writes FINAL(LAST(A.price, 0)), and the pattern is one flat
 * PATTERN_CONCAT call over all elements where Calcite nests binary ones.
 * kinds/match.c reads it back (EXECUTE PLAN). See explain_internal.h.
 */
#include "explain_internal.h"
#include "../plan/match_spec.h"

#include <string.h>

static json_t *lit_json(json_t *value, const char *type)
{
    json_t *l = json_object();
    json_object_set_new(l, "kind", json_string("LITERAL"));
    json_object_set_new(l, "value", value);
    json_object_set_new(l, "type", json_string(type));
    return l;
}

static json_t *var_lit(const char *v)
{
    char t[48];
    snprintf(t, sizeof t, "CHAR(%d) NOT NULL", (int)strlen(v));
    return lit_json(json_string(v), t);
}

static json_t *call_json(const char *syntax, const char *internal, json_t *ops, json_t *type)
{
    json_t *c = json_object();
    json_object_set_new(c, "kind", json_string("CALL"));
    if (syntax) json_object_set_new(c, "syntax", json_string(syntax));
    json_object_set_new(c, "internalName", json_string(internal));
    json_object_set_new(c, "operands", ops);
    json_object_set_new(c, "type", type);
    return c;
}

/* The name a reference's variables go by: *, the variable, or the SUBSET naming them. */
static const char *alpha_of(const WMatchSpec *ms, const WMatchRef *f)
{
    if (f->all) return "*";
    for (int i = 0; i < ms->nvars; i++) if (f->vars == (1ULL << i)) return ms->vars[i];
    for (int i = 0; i < ms->nsubsets; i++) if (f->vars == ms->subset_vars[i]) return ms->subset_names[i];
    return "*";
}

static json_t *pattern_ref(WArena *a, const WMatchSpec *ms, const WRel *in, const WMatchRef *f, const char *alpha)
{
    json_t *p = json_object();
    json_object_set_new(p, "kind", json_string("PATTERN_INPUT_REF"));
    json_object_set_new(p, "alpha", json_string(alpha ? alpha : alpha_of(ms, f)));
    json_object_set_new(p, "inputIndex", json_integer(f->col));
    json_object_set_new(p, "type", ex_type_json(wtype_with_time_attr(a, in->out.types[f->col], WTA_NONE)));
    return p;
}

static json_t *ref_json(WArena *a, const WMatchSpec *ms, const WRel *in, const WMatchRef *f)
{
    json_t *ops = json_array();
    switch (f->kind) {
    case WMR_FIELD: {
        const char *nav = !strncmp(f->text, "PREV(", 5) ? "$PREV$1" : !strncmp(f->text, "FIRST(", 6) ? "$FIRST$1"
                        : !strncmp(f->text, "LAST(", 5) ? "$LAST$1" : NULL;
        if (!nav) {
            json_decref(ops);
            return pattern_ref(a, ms, in, f, NULL);
        }
        json_array_append_new(ops, pattern_ref(a, ms, in, f, NULL));
        json_array_append_new(ops, lit_json(json_integer(f->offset), "INT NOT NULL"));
        return call_json(NULL, nav, ops, ex_type_json(f->type));
    }
    case WMR_AGG: {
        const char *an = f->agg == WAGG_COUNT || f->agg == WAGG_COUNT_STAR ? "$COUNT$1" : f->agg == WAGG_SUM ? "$SUM$1"
                       : f->agg == WAGG_AVG ? "$AVG$1" : f->agg == WAGG_MIN ? "$MIN$1" : "$MAX$1";
        if (f->col >= 0) json_array_append_new(ops, pattern_ref(a, ms, in, f, NULL));
        return call_json(NULL, an, ops, ex_type_json(f->type));
    }
    case WMR_ROWTIME: case WMR_PROCTIME:
        if (f->kind == WMR_ROWTIME && !strncmp(f->text, "MATCH_ROWTIME(*.", 16)) {
            for (int c = 0; c < in->out.n; c++)
                if (!strncmp(f->text + 16, in->out.names[c], strlen(in->out.names[c])) &&
                    f->text[16 + strlen(in->out.names[c])] == ')') {
                    WMatchRef g = *f;
                    g.col = c;
                    json_array_append_new(ops, pattern_ref(a, ms, in, &g, "*"));
                    break;
                }
        }
        return call_json(NULL, f->kind == WMR_ROWTIME ? "$MATCH_ROWTIME$1" : "$MATCH_PROCTIME$1", ops, ex_type_json(f->type));
    }
    return ops;
}

/* The program's column k (reference k) replaced by the reference's RexNode. Takes j (owned). */
static json_t *subst_refs(json_t *j, json_t *const *refs, int nrefs)
{
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++)
            json_array_set_new(j, i, subst_refs(json_incref(json_array_get(j, i)), refs, nrefs));
        return j;
    }
    if (!json_is_object(j)) return j;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    if (kind && !strcmp(kind, "INPUT_REF")) {
        int idx = (int)json_integer_value(json_object_get(j, "inputIndex"));
        if (idx >= 0 && idx < nrefs) {
            json_decref(j);
            return json_deep_copy(refs[idx]);
        }
        return j;
    }
    json_t *ops = json_object_get(j, "operands");
    if (ops) json_object_set_new(j, "operands", subst_refs(json_incref(ops), refs, nrefs));
    return j;
}

static json_t *prog_json(const ExCtx *x, const WMatchSpec *ms, const WRel *in, const WMatchProg *pg)
{
    json_t **refs = WA_ARRAY(x->p->arena, json_t *, pg->nrefs ? pg->nrefs : 1);
    for (int i = 0; i < pg->nrefs; i++) refs[i] = ref_json(x->p->arena, ms, in, &pg->refs[i]);
    json_t *e = subst_refs(ex_rex_json(x->p, pg->expr, NULL), refs, pg->nrefs);
    for (int i = 0; i < pg->nrefs; i++) json_decref(refs[i]);
    return e;
}

static json_t *sort_fields(const WRel *r)
{
    json_t *ob = json_object(), *fields = json_array();
    for (int i = 0; i < r->nsort; i++) {
        json_t *f = json_object();
        json_object_set_new(f, "index", json_integer(r->sort_cols[i]));
        json_object_set_new(f, "isAscending", json_boolean(!r->sort_desc[i]));
        json_object_set_new(f, "nullIsLast", json_boolean(!r->sort_nulls_first[i]));
        json_array_append_new(fields, f);
    }
    json_object_set_new(ob, "fields", fields);
    return ob;
}

void ex_match_json(const ExCtx *x, const WRel *r, json_t *j)
{
    const WMatchSpec *ms = wrel_match(r)->spec;
    const WRel *in = r->inputs[0];
    json_t *s = json_object();
    /* pattern */
    json_t *elems = json_array();
    for (int i = 0; i < ms->nelems; i++) {
        const WMatchElem *e = &ms->elems[i];
        json_t *v = var_lit(ms->vars[e->var]);
        if (e->quantified) {
            json_t *ops = json_array();
            json_array_append_new(ops, v);
            json_array_append_new(ops, lit_json(json_integer(e->min), "INT NOT NULL"));
            json_array_append_new(ops, lit_json(json_integer(e->max), "INT NOT NULL"));
            json_array_append_new(ops, lit_json(json_boolean(e->reluctant), "BOOLEAN NOT NULL"));
            v = call_json("SPECIAL", "$PATTERN_QUANTIFIER$1", ops, json_string("NULL"));
        }
        json_array_append_new(elems, v);
    }
    if (ms->nelems == 1) {
        json_object_set(s, "pattern", json_array_get(elems, 0));
        json_decref(elems);
    } else {
        json_t *c = json_object();
        json_object_set_new(c, "kind", json_string("CALL"));
        json_object_set_new(c, "syntax", json_string("BINARY"));
        json_object_set_new(c, "sqlKind", json_string("PATTERN_CONCAT"));
        json_object_set_new(c, "operands", elems);
        json_object_set_new(c, "type", json_string("NULL"));
        json_object_set_new(s, "pattern", c);
    }
    /* DEFINE in the order written */
    json_t *defs = json_object();
    for (int i = 0; i < ms->ndefine_order; i++) {
        int vi = ms->define_order[i];
        if (ms->define[vi]) json_object_set_new(defs, ms->vars[vi], prog_json(x, ms, in, ms->define[vi]));
    }
    json_object_set_new(s, "patternDefinitions", defs);
    json_t *meas = json_object();
    for (int i = 0; i < ms->nmeasures; i++) {
        json_t *e = prog_json(x, ms, in, &ms->measures[i]);
        json_t *ops = json_array();
        json_array_append_new(ops, e);
        json_object_set_new(meas, ms->measure_names[i],
                            call_json("PREFIX", "$FINAL$1", ops, ex_type_json(ms->measures[i].expr->type)));
    }
    json_object_set_new(s, "measures", meas);
    /* after */
    json_t *after;
    if (ms->after == WMA_TO_FIRST || ms->after == WMA_TO_LAST) {
        json_t *ops = json_array();
        json_array_append_new(ops, var_lit(ms->vars[ms->after_var]));
        after = call_json("PREFIX", ms->after == WMA_TO_FIRST ? "$SKIP TO FIRST$1" : "$SKIP TO LAST$1", ops, json_string("NULL"));
    } else {
        after = json_object();
        json_object_set_new(after, "kind", json_string("LITERAL"));
        json_object_set_new(after, "symbol", json_string("MATCH_RECOGNIZE_AFTER_OPTION"));
        json_object_set_new(after, "value", json_string(ms->after == WMA_PAST_LAST_ROW ? "SKIP_PAST_LAST_ROW" : "SKIP_TO_NEXT_ROW"));
        json_t *t = json_object();
        json_object_set_new(t, "type", json_string("SYMBOL"));
        json_object_set_new(t, "nullable", json_false());
        json_object_set_new(after, "type", t);
    }
    json_object_set_new(s, "after", after);
    json_t *subs = json_object();
    for (int i = 0; i < ms->nsubsets; i++) {
        json_t *vs = json_array();
        for (int v = 0; v < ms->nvars; v++)
            if (ms->subset_vars[i] & (1ULL << v)) json_array_append_new(vs, json_string(ms->vars[v]));
        json_object_set_new(subs, ms->subset_names[i], vs);
    }
    json_object_set_new(s, "subsets", subs);
    json_object_set_new(s, "allRows", json_false());
    json_t *part = json_object(), *pf = json_array();
    for (int i = 0; i < r->nkeys; i++) json_array_append_new(pf, json_integer(r->keys[i]));
    json_object_set_new(part, "fields", pf);
    json_object_set_new(s, "partition", part);
    json_object_set_new(s, "orderBy", sort_fields(r));
    if (ms->has_within) {
        WExpr lit = {.kind = WX_LITERAL, .type = wtype_interval(x->p->arena, WT_INTERVAL_DT, WIQ_SECOND, 2, 3, false), .lit.i = ms->within_ms};
        json_object_set_new(s, "interval", ex_rex_json(x->p, &lit, NULL));
    } else {
        json_object_set_new(s, "interval", json_null());
    }
    json_object_set_new(j, "matchSpec", s);
}
