/*
 * bind_insert.c — INSERT INTO a table (with PARTITION (k = 'v'), OVERWRITE and a column list) as
 * a sink root: the query bound, its columns matched to the sink's physical columns by position
 * (or by the column list), cast where Flink casts implicitly, and Flink's validation messages when
 * they do not fit. See plan.h (wbind_insert).
 */
#include "bind_internal.h"
#include "../types/cast.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

/* Flink's LogicalTypeCasts.supportsAvoidingCast: a query column of type `have` goes into a sink
   column of type `want` without a cast (the same type but NOT NULL, a CHAR / VARCHAR or BINARY /
   VARBINARY that fits the sink's VARCHAR / VARBINARY). */
static bool avoidable_cast(const WType *have, const WType *want)
{
    if (have->nullable && !want->nullable) return false;
    if (wtype_equals(have, want, true)) return true;
    if ((have->id == WT_CHAR || have->id == WT_VARCHAR) && want->id == WT_VARCHAR) return have->precision <= want->precision;
    if ((have->id == WT_BINARY || have->id == WT_VARBINARY) && want->id == WT_VARBINARY) return have->precision <= want->precision;
    return false;
}

static char *schema_text(WArena *a, const WSchema *s)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_putc(&b, '[');
    for (int i = 0; i < s->n; i++) {
        if (i) wsb_append(&b, ", ");
        wsb_printf(&b, "%s: ", s->names[i]);
        wtype_to_string(s->types[i], &b);
    }
    wsb_putc(&b, ']');
    char *r = wa_strdup(a, b.buf);
    wsb_free(&b);
    return r;
}

WRel *wbind_insert(WPlanCtx *p, AstStmt *s)
{
    WArena *a = p->arena;
    WTable *t = wcatalog_lookup(p->catalog, &s->target);
    char *qn = wcatalog_qualified(a, p->catalog, &s->target);
    if (!t) {
        /* Flink's message for a sink that is not there (in any part of its name) */
        WObjectId id;
        if (!wcatalog_resolve(p->catalog, &s->target, &id, p->err)) return NULL;
        WStrBuf b;
        wsb_init(&b);
        for (int i = 0; i < p->catalog->ncat; i++) wsb_printf(&b, "%s%s", i ? ", " : "", p->catalog->cats[i]->name);
        werr_set(p->err, WEXC_VALIDATION,
                 "Cannot find table '`%s`.`%s`.`%s`' in any of the catalogs [%s], nor as a temporary table.",
                 id.catalog, id.database, id.object, b.buf ? b.buf : "");
        wsb_free(&b);
        return NULL;
    }
    if (t->is_view) {
        werr_set(p->err, WEXC_VALIDATION, "The view '%s' cannot be used as a sink.", qn);
        return NULL;
    }
    WRel *r = wbind_query(p, s->query);
    if (!r) return NULL;
    /* the metadata columns written (Flink checks them before the query's columns) */
    WSinkMetaCol *meta = NULL;
    int nmeta = wplan_sink_metadata(p, t, qn, &meta);
    if (nmeta < 0) return NULL;
    /* the query fills the persisted columns: physical and written metadata ones, in table order */
    int *phys = WA_ARRAY(a, int, t->ncols ? t->ncols : 1);
    int np = 0;
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].kind == WCOL_PHYSICAL || (t->cols[i].kind == WCOL_METADATA && !t->cols[i].is_virtual)) phys[np++] = i;
    WSchema sink_schema;
    bind_schema_alloc(p, &sink_schema, np);
    for (int i = 0; i < np; i++) {
        sink_schema.names[i] = t->cols[phys[i]].name;
        sink_schema.types[i] = t->cols[phys[i]].type;
    }
    /* column list: map query columns to sink positions, others NULL; static partition
       columns (PARTITION (k = 'v')) take their value from the clause */
    int *src_of = WA_ARRAY(a, int, np ? np : 1);
    for (int i = 0; i < np; i++) src_of[i] = i;
    const char **static_val = WA_ARRAY(a, const char *, np ? np : 1);
    if (s->npartition) {
        for (int k = 0; k < s->npartition; k++) {
            int found = -1;
            for (int i = 0; i < np; i++) if (strcmp(sink_schema.names[i], s->partition[k].key) == 0) found = i;
            if (found < 0) {
                werr_set(p->err, WEXC_VALIDATION, "Unknown static partition column '%s'.", s->partition[k].key);
                return NULL;
            }
            static_val[found] = s->partition[k].value;
        }
        if (!s->ninsert_cols) {
            int q = 0;
            for (int i = 0; i < np; i++) src_of[i] = static_val[i] ? -1 : q++;
            if (q != r->out.n) {
                werr_set(p->err, WEXC_VALIDATION,
                         "Column types of query result and sink for '%s' do not match.\n"
                         "Cause: Different number of columns.\n\n"
                         "Query schema: %s\nSink schema:  %s",
                         qn, schema_text(a, &r->out), schema_text(a, &sink_schema));
                return NULL;
            }
        }
    }
    int *target = WA_ARRAY(a, int, s->ninsert_cols ? s->ninsert_cols : 1);
    if (s->ninsert_cols) {
        if (s->ninsert_cols != r->out.n) {
            werr_set(p->err, WEXC_CALCITE, "Number of INSERT target columns (%d) does not equal number of source items (%d)",
                     s->ninsert_cols, r->out.n);
            return NULL;
        }
        for (int i = 0; i < np; i++) src_of[i] = -1;
        for (int k = 0; k < s->ninsert_cols; k++) {
            int found = -1;
            for (int i = 0; i < np; i++) if (strcmp(sink_schema.names[i], s->insert_cols[k]) == 0) found = i;
            if (found < 0) {
                werr_set(p->err, WEXC_CALCITE, "Unknown target column '%s'", s->insert_cols[k]);
                return NULL;
            }
            src_of[found] = k;
            target[k] = found;
        }
    } else if (!s->npartition && r->out.n != np) {
        werr_set(p->err, WEXC_VALIDATION,
                 "Column types of query result and sink for '%s' do not match.\n"
                 "Cause: Different number of columns.\n\n"
                 "Query schema: %s\nSink schema:  %s",
                 qn, schema_text(a, &r->out), schema_text(a, &sink_schema));
        return NULL;
    }
    /* (the position in the incompatible-type message counts from 1 when the table writes metadata
       columns, from 0 otherwise: measured on Flink 2.3) */
    WExpr **ex = WA_ARRAY(a, WExpr *, np ? np : 1);
    /* a column list that names the columns in the table's order needs no reordering projection
       (Flink's AST has none then) */
    bool need_calc = s->ninsert_cols > 0 && (s->ninsert_cols != np || r->out.n != np), real_cast = false;
    for (int i = 0; i < np && s->ninsert_cols && !need_calc; i++) need_calc = src_of[i] != i;
    BindCtx bc = {.p = p};
    for (int i = 0; i < np; i++) {
        const WType *want = sink_schema.types[i];
        if (src_of[i] < 0 && static_val[i]) {
            WDatum d = {.s = {static_val[i], (int32_t)strlen(static_val[i])}};
            WExpr *lit = wexpr_literal(a, wtype_char(a, (int)strlen(static_val[i]), false), d, false);
            if (!wcast_supported(lit->type, want)) {
                werr_set(p->err, WEXC_VALIDATION, "Cannot use the static partition value '%s' for column '%s' of type %s.",
                         static_val[i], sink_schema.names[i], wtype_str(a, want));
                return NULL;
            }
            ex[i] = bind_cast(&bc, lit, want);
            need_calc = true;
            continue;
        }
        if (src_of[i] < 0) {
            if (!want->nullable) {
                werr_set(p->err, WEXC_CALCITE, "Column '%s' has no default value and does not allow NULLs",
                         sink_schema.names[i]);
                return NULL;
            }
            WDatum z = {0};
            ex[i] = wexpr_literal(a, want, z, true);
            continue;
        }
        const WType *have = r->out.types[src_of[i]];
        WExpr *c = wexpr_column(a, src_of[i], have, r->out.names[src_of[i]]);
        const WType *h = wtype_with_time_attr(a, have, WTA_NONE);
        if (!wtype_equals(h, want, true) && !avoidable_cast(h, want)) {
            if (have->id != WT_NULL && !wcast_implicit(have, want)) {
                werr_set(p->err, WEXC_VALIDATION,
                         "Column types of query result and sink for '%s' do not match.\n"
                         "Cause: Incompatible types for sink column '%s' at position %d.\n\n"
                         "Query schema: %s\nSink schema:  %s",
                         qn, sink_schema.names[i], i + (nmeta > 0), schema_text(a, &r->out), schema_text(a, &sink_schema));
                return NULL;
            }
            c = bind_cast(&bc, c, want);
            need_calc = true;
            real_cast = true;
        }
        ex[i] = c;
    }
    if (real_cast) {
        /* Flink's DynamicSinkUtils.validateSchemaAndApplyImplicitCast: once a column needs a cast,
           every column whose type differs is cast to the sink's type, also one that differs only in
           being NOT NULL or a shorter string (CAST(cnt AS BIGINT) for a COUNT into a BIGINT column;
           measured) */
        for (int i = 0; i < np; i++) {
            if (ex[i]->kind != WX_COLUMN) continue;
            const WType *have = wtype_with_time_attr(a, ex[i]->type, WTA_NONE);
            const WType *want = sink_schema.types[i];
            /* (a nullable column into a NOT NULL one is left to the sink's NOT NULL check) */
            if (!wtype_equals(have, want, false) && !(have->nullable && !want->nullable && wtype_equals(have, want, true))) {
                WExpr *c = wexpr_new(a, WX_CAST, want, 1);
                c->args[0] = ex[i];
                ex[i] = c;
            }
        }
    }
    if (nmeta) {
        /* the consumed row: the physical columns, then the metadata ones in the connector's order,
           named by their keys and cast to their keys' types (Flink's pushMetadataProjection) */
        int nout = np;
        WSchema cons;
        bind_schema_alloc(p, &cons, nout);
        WExpr **ex2 = WA_ARRAY(a, WExpr *, nout);
        int k = 0;
        for (int i = 0; i < np; i++) {
            if (t->cols[phys[i]].kind != WCOL_PHYSICAL) continue;
            cons.names[k] = sink_schema.names[i];
            cons.types[k] = sink_schema.types[i];
            ex2[k++] = ex[i];
        }
        for (int m = 0; m < nmeta; m++) {
            int i = 0;
            while (phys[i] != meta[m].col) i++;
            WExpr *e = ex[i];
            if (!wtype_equals(wtype_with_time_attr(a, e->type, WTA_NONE), meta[m].type, true)) {
                /* (a BIGINT column for 'timestamp' passes the castability check but not the cast's
                   own: Flink's NUMERIC to TIMESTAMP_LTZ message, measured) */
                if (!wcast_check(e->type, meta[m].type, p->err)) return NULL;
                e = bind_cast(&bc, e, meta[m].type);
            } else if (e->kind == WX_CAST && !e->type->nullable) {
                /* the implicit cast to the column's type, cast again to the key's nullable type:
                   one cast to that type (Flink's row type after simplification, measured) */
                WExpr *c = wexpr_new(a, WX_CAST, meta[m].type, 1);
                c->args[0] = e->args[0];
                e = c;
            }
            cons.names[k] = meta[m].key;
            cons.types[k] = meta[m].type;
            ex2[k++] = e;
        }
        assert(k == nout);
        for (int i = 0; i < nout && !need_calc; i++)
            need_calc = ex2[i]->kind != WX_COLUMN || ex2[i]->col != i;
        ex = ex2;
        sink_schema = cons;
    }
    const char **calc_names = sink_schema.names;
    if (s->ninsert_cols && !nmeta) {
        /* Flink's reordering projection for a column list: a column the query passes through
           keeps its name, any other expression (the query's own after Calcite merges the two
           projections, or a NULL for a column not named) is EXPR$<position> */
        calc_names = WA_ARRAY(a, const char *, np ? np : 1);
        for (int i = 0; i < np; i++) {
            const WExpr *e = ex[i];
            bool passed = e->kind == WX_COLUMN &&
                          !(r->kind == WR_CALC && e->col < wrel_calc(r)->nexprs && wrel_calc(r)->exprs[e->col]->kind != WX_COLUMN);
            calc_names[i] = passed ? r->out.names[e->col] : wa_sprintf(a, "EXPR$%d", i);
        }
    }
    if (need_calc) r = bind_make_calc(p, r, np, ex, calc_names, NULL);
    WRel *sink = wrel_new(p, WR_SINK, 1);
    WRelSink *sk = wrel_sink_mut(sink);
    sk->nmeta = nmeta;
    sk->meta_keys = WA_ARRAY(a, const char *, nmeta ? nmeta : 1);
    for (int m = 0; m < nmeta; m++) sk->meta_keys[m] = meta[m].key;
    sink->inputs[0] = r;
    sk->table = t;
    sk->qname = qn;
    sk->overwrite = s->overwrite;
    sk->conflict = s->on_conflict;
    /* (Flink 2.3 shows no targetColumns when the sink writes metadata columns: measured, kafka) */
    sk->ntarget_cols = nmeta ? 0 : s->ninsert_cols;
    sk->target_cols = target;
    if (s->npartition) {
        /* Flink's Partitioning ability: the static partition in the table's partition key order */
        sk->static_keys = WA_ARRAY(a, const char *, t->npartition ? t->npartition : 1);
        sk->static_values = WA_ARRAY(a, const char *, t->npartition ? t->npartition : 1);
        for (int k = 0; k < t->npartition; k++) {
            const char *key = t->cols[t->partition_keys[k]].name;
            for (int i = 0; i < np; i++) {
                if (!static_val[i] || strcmp(sink_schema.names[i], key)) continue;
                sk->static_keys[sk->nstatic] = key;
                sk->static_values[sk->nstatic++] = static_val[i];
            }
        }
        sk->static_col = wa_zalloc(a, (size_t)(np ? np : 1));
        for (int i = 0; i < np; i++) sk->static_col[i] = static_val[i] != NULL;
    }
    sink->out = sink_schema;
    sink->changelog = r->changelog;
    return sink;
}
