/*
 * plan_reader_tables.c — EXECUTE PLAN for the nodes that name catalog tables: the table
 * definitions a compiled plan carries ({identifier, resolvedTable{schema, options}}), the source
 * scan (stream-exec-table-source-scan_1/_2, with projection push-down rebuilt as a Calc), the sink
 * (stream-exec-sink_1/_2, with its upsert materializer and Overwrite / Partitioning abilities) and
 * the LookupJoin's dim table (stream-exec-lookup-join_1).
 * Contract: see plan_reader_internal.h.
 */
#include "plan_reader_internal.h"

#include <string.h>

static char *unquote_identifier(WArena *a, const char *id)
{
    WStrBuf b;
    wsb_init(&b);
    for (const char *s = id; *s; s++) if (*s != '`') wsb_putc(&b, *s);
    char *res = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);
    return res;
}

/* A catalog table from {identifier, resolvedTable{schema, options}}. */
static WTable *table_from_json(Rd *r, json_t *tj, const char **qname)
{
    WArena *a = r->a;
    const char *id = json_string_value(json_object_get(tj, "identifier"));
    json_t *rt = json_object_get(tj, "resolvedTable");
    json_t *schema = json_object_get(rt, "schema");
    json_t *cols = json_object_get(schema, "columns");
    if (!id || !cols) { rd_fail(r, "The compiled plan has a table without identifier or schema%s", ""); return NULL; }
    WTable *t = WA_NEW(a, WTable);
    *qname = unquote_identifier(a, id);
    /* catalog.database.object (names with dots inside backticks are not split correctly) */
    const char *dot = strrchr(*qname, '.');
    t->name = wa_strdup(a, dot ? dot + 1 : *qname);
    t->catalog = "default_catalog";
    t->database = "default_database";
    const char *first = strchr(*qname, '.');
    if (dot && first && first != dot) {
        t->catalog = wa_strndup(a, *qname, (size_t)(first - *qname));
        t->database = wa_strndup(a, first + 1, (size_t)(dot - first - 1));
    }
    t->wm_col = -1;
    int n = (int)json_array_size(cols);
    t->ncols = n;
    t->cols = WA_ARRAY(a, WColumn, n ? n : 1);
    for (int i = 0; i < n; i++) {
        json_t *c = json_array_get(cols, (size_t)i);
        WColumn *col = &t->cols[i];
        col->name = wa_strdup(a, json_string_value(json_object_get(c, "name")) ? json_string_value(json_object_get(c, "name")) : "");
        const char *k = json_string_value(json_object_get(c, "kind"));
        if (k && !strcmp(k, "COMPUTED")) {
            col->kind = WCOL_COMPUTED;
            col->type = &WTYPE_STRING;
            continue;
        }
        col->kind = k && !strcmp(k, "METADATA") ? WCOL_METADATA : WCOL_PHYSICAL;
        if (col->kind == WCOL_METADATA) {
            const char *mk = json_string_value(json_object_get(c, "metadataKey"));
            col->metadata_key = mk ? wa_strdup(a, mk) : NULL;
            col->is_virtual = json_is_true(json_object_get(c, "isVirtual"));
        }
        col->type = rd_type(r, json_object_get(c, "dataType"));
        if (!col->type) return NULL;
    }
    json_t *pk = json_object_get(schema, "primaryKey");
    if (pk) {
        json_t *pc = json_object_get(pk, "columns");
        t->npk = (int)json_array_size(pc);
        t->pk = WA_ARRAY(a, int, t->npk ? t->npk : 1);
        for (int k = 0; k < t->npk; k++) {
            const char *cn = json_string_value(json_array_get(pc, (size_t)k));
            t->pk[k] = -1;
            for (int i = 0; i < n; i++) if (cn && !strcmp(t->cols[i].name, cn)) t->pk[k] = i;
            if (t->pk[k] < 0) { rd_fail(r, "The compiled plan's primary key names a missing column: %s", cn); return NULL; }
        }
        const char *pkn = json_string_value(json_object_get(pk, "name"));
        t->pk_name = pkn ? wa_strdup(a, pkn) : NULL;
    }
    /* PARTITIONED BY: the filesystem sink's directories, a static partition's columns */
    json_t *parts = json_object_get(rt, "partitionKeys");
    t->npartition = (int)json_array_size(parts);
    t->partition_keys = WA_ARRAY(a, int, t->npartition ? t->npartition : 1);
    for (int k = 0; k < t->npartition; k++) {
        const char *cn = json_string_value(json_array_get(parts, (size_t)k));
        t->partition_keys[k] = -1;
        for (int i = 0; i < n; i++) if (cn && !strcmp(t->cols[i].name, cn)) t->partition_keys[k] = i;
        if (t->partition_keys[k] < 0) { rd_fail(r, "The compiled plan's partition keys name a missing column: %s", cn); return NULL; }
    }
    json_t *wms = json_object_get(schema, "watermarkSpecs");
    if (json_array_size(wms)) {
        const char *ra = json_string_value(json_object_get(json_array_get(wms, 0), "rowtimeAttribute"));
        for (int i = 0; i < n; i++) if (ra && !strcmp(t->cols[i].name, ra)) t->wm_col = i;
    }
    json_t *opts = json_object_get(rt, "options");
    int no = (int)json_object_size(opts);
    t->options.items = WA_ARRAY(a, WOption, no ? no : 1);
    t->options.cap = no;
    const char *key;
    json_t *val;
    json_object_foreach(opts, key, val) {
        WOption *o = &t->options.items[t->options.n++];
        o->key = wa_strdup(a, key);
        o->value = wa_strdup(a, json_string_value(val) ? json_string_value(val) : "");
    }
    if (!wopts_get(&t->options, "connector"))
        { rd_fail(r, "The compiled plan has no options for table '%s' (compile it with weir to run it here).", *qname); return NULL; }
    return t;
}

/* Adds by to every INPUT_REF's inputIndex in j (a predicate over the dim row read as one over
   the probe row ++ the dim row). */
static void shift_refs(json_t *j, int by)
{
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) shift_refs(json_array_get(j, i), by);
        return;
    }
    if (!json_is_object(j)) return;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    json_t *idx = json_object_get(j, "inputIndex");
    if (kind && !strcmp(kind, "INPUT_REF") && json_is_integer(idx))
        json_object_set_new(j, "inputIndex", json_integer(json_integer_value(idx) + by));
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v) shift_refs(v, by);
}

/* A LookupJoin: the dim table (its physical columns, as weir writes the node) and the probe
   side's key fields; pushed-down abilities of the lookup table (Flink's jdbc filter and
   projection push-down) and constant lookup keys are refused by name. */
WRel *rd_lookup_join(Rd *r, json_t *j, WRel *in)
{
    json_t *lts = json_object_get(json_object_get(j, "temporalTable"), "lookupTableSource");
    json_t *abs = json_object_get(lts, "abilities");
    bool other = false;
    for (size_t i = 0; i < json_array_size(abs); i++) {
        const char *at = json_string_value(json_object_get(json_array_get(abs, i), "type"));
        other = other || !at || strcmp(at, "FilterPushDown") != 0;
    }
    if (other || !json_is_null(json_object_get(j, "projectionOnTemporalTable")) ||
        !json_is_null(json_object_get(j, "filterOnTemporalTable"))) {
        rd_fail(r, "EXECUTE PLAN cannot run a %s with a projection or filter pushed into its table yet.",
                "stream-exec-lookup-join_1");
        return NULL;
    }
    const char *qname;
    WTable *t = table_from_json(r, json_object_get(lts, "table"), &qname);
    if (!t) return NULL;
    WRel *dim = wrel_new(r->p, WR_SCAN, 0);
    WRelScan *ds = wrel_scan_mut(dim);
    dim->nunique = -1;
    ds->table = t;
    ds->table_qname = qname;
    int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    ds->nfields = dim->out.n = np;
    ds->fields = WA_ARRAY(r->a, int, np ? np : 1);
    dim->out.names = WA_ARRAY(r->a, const char *, np ? np : 1);
    dim->out.types = WA_ARRAY(r->a, const WType *, np ? np : 1);
    for (int i = 0; i < np; i++) {
        ds->fields[i] = i;
        dim->out.names[i] = t->cols[phys[i]].name;
        dim->out.types[i] = t->cols[phys[i]].type;
    }
    WRel *x = rd_new_rel(r, WR_LOOKUP_JOIN, 1);
    WRelJoin *rj = wrel_join_mut(x);
    rj->lookup_scan = dim;
    const char *jt = json_string_value(json_object_get(j, "joinType"));
    rj->type = jt && !strcmp(jt, "LEFT") ? AJ_LEFT : AJ_INNER;
    json_t *lk = json_object_get(j, "lookupKeys");
    x->nkeys = (int)json_object_size(lk);
    x->keys = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
    rj->right_keys = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
    const char *key;
    json_t *v;
    int k = 0;
    json_object_foreach(lk, key, v) {
        const char *kt = json_string_value(json_object_get(v, "type"));
        int di = atoi(key), li = rd_int(json_object_get(v, "index"), -1);
        if (!kt || strcmp(kt, "FieldRef") != 0 || di < 0 || di >= np || li < 0 || li >= in->out.n) {
            rd_fail(r, "EXECUTE PLAN cannot run the lookup key '%s' of a stream-exec-lookup-join_1 yet.", key);
            return NULL;
        }
        x->keys[k] = li;
        rj->right_keys[k++] = di;
    }
    WSchema comb = rd_concat(r, &in->out, &dim->out);
    json_t *jc = json_object_get(j, "joinCondition");
    if (jc && !json_is_null(jc) && !(rj->shown_cond = rd_rex(r, jc, &comb))) return NULL;
    /* pushed-down predicates over the dim row: evaluated with the join condition */
    WExpr *all[256];
    int n = 0;
    if (rj->shown_cond) all[n++] = rj->shown_cond;
    for (size_t i = 0; i < json_array_size(abs); i++) {
        json_t *preds = json_object_get(json_array_get(abs, i), "predicates");
        for (size_t k = 0; k < json_array_size(preds) && n < 256; k++) {
            json_t *pj = json_deep_copy(json_array_get(preds, k));
            shift_refs(pj, in->out.n);
            WExpr *e = rd_rex(r, pj, &comb);
            json_decref(pj);
            if (!e) return NULL;
            all[n++] = e;
        }
    }
    rj->cond = wplan_and(r->p, all, n);
    return x;
}

/* stream-exec-table-source-scan_1/_2: the table's physical columns (time attributes as the plan's
   outputType `out` marks them), its metadata columns, its changelog mode and primary key; a
   ProjectPushDown ability becomes a Calc above the scan. */
WRel *rd_scan(Rd *r, json_t *j, const WSchema *out)
{
    WRel *x;
        json_t *sts = json_object_get(j, "scanTableSource");
        const char *qname;
        WTable *t = table_from_json(r, json_object_get(sts, "table"), &qname);
        if (!t) return NULL;
        x = rd_new_rel(r, WR_SCAN, 0);
        WRelScan *sc = wrel_scan_mut(x);
        sc->table = t;
        sc->table_qname = qname;
        int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
        int np = wtable_physical(t, phys);
        sc->nfields = np;
        sc->fields = WA_ARRAY(r->a, int, np ? np : 1);
        x->out.n = np;
        x->out.names = WA_ARRAY(r->a, const char *, np ? np : 1);
        x->out.types = WA_ARRAY(r->a, const WType *, np ? np : 1);
        for (int i = 0; i < np; i++) {
            sc->fields[i] = i;
            x->out.names[i] = t->cols[phys[i]].name;
            x->out.types[i] = t->cols[phys[i]].type;
            /* time attributes as the plan's output type marks them */
            for (int k = 0; k < out->n; k++)
                if (!strcmp(out->names[k], x->out.names[i]) && wtype_is_timestamp(out->types[k]))
                    x->out.types[i] = out->types[k];
        }
        /* the table's metadata columns, read after the physical ones as the binder reads them */
        if (!wplan_scan_metadata(r->p, t, x, wopts_get(&t->options, "connector"))) return NULL;
        const char *fmt = wopts_get(&t->options, "format");
        sc->source_changelog = wplan_changelog_format(fmt);
        x->changelog = sc->source_changelog ? ALL_KINDS : WCM_INSERT;
        if (wplan_upsert_connector(wopts_get(&t->options, "connector"))) {
            sc->source_changelog = true;
            x->changelog = WCM_UPDATE_AFTER | WCM_DELETE;
        }
        if (sc->source_changelog) {
            const char *m = wopts_get(&t->options, "changelog-csv.changelog-mode");
            if (m) {
                uint8_t bits = 0;
                if (strstr(m, "I")) bits |= WCM_INSERT;
                if (strstr(m, "UB")) bits |= WCM_UPDATE_BEFORE;
                if (strstr(m, "UA")) bits |= WCM_UPDATE_AFTER;
                if (strstr(m, "D")) bits |= WCM_DELETE;
                x->changelog = bits;
            }
        }
        if (t->npk) {
            x->nunique = t->npk;
            x->unique = WA_ARRAY(r->a, int, t->npk);
            for (int k = 0; k < t->npk; k++)
                for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) x->unique[k] = i;
        }
        /* projection push-down: the scan reads every column, a Calc picks the projected ones */
        json_t *ab = json_object_get(sts, "abilities");
        for (size_t i = 0; i < json_array_size(ab); i++) {
            json_t *ability = json_array_get(ab, i);
            const char *at = json_string_value(json_object_get(ability, "type"));
            if (!at || strcmp(at, "ProjectPushDown") != 0) continue;
            json_t *pf = json_object_get(ability, "projectedFields");
            /* the metadata keys read come after the projected physical fields */
            json_t *mkeys = NULL;
            for (size_t q = 0; q < json_array_size(ab); q++) {
                const char *qt = json_string_value(json_object_get(json_array_get(ab, q), "type"));
                if (qt && !strcmp(qt, "ReadingMetadata")) mkeys = json_object_get(json_array_get(ab, q), "metadataKeys");
            }
            int nphys = (int)json_array_size(pf);
            int n = nphys + (int)json_array_size(mkeys);
            WRel *c = rd_new_rel(r, WR_CALC, 1);
            c->inputs[0] = x;
            WRelCalc *cc = wrel_calc_mut(c);
            cc->nexprs = n;
            cc->exprs = WA_ARRAY(r->a, WExpr *, n ? n : 1);
            c->out.n = n;
            c->out.names = WA_ARRAY(r->a, const char *, n ? n : 1);
            c->out.types = WA_ARRAY(r->a, const WType *, n ? n : 1);
            for (int k = 0; k < n; k++) {
                int col = RD_BAD_INDEX;
                if (k < nphys) {
                    col = rd_int(json_array_get(json_array_get(pf, (size_t)k), 0), RD_BAD_INDEX);
                    if (col >= np) col = RD_BAD_INDEX;
                } else {
                    const char *key = json_string_value(json_array_get(mkeys, (size_t)(k - nphys)));
                    for (int m = 0; key && m < sc->nmeta; m++) if (!strcmp(sc->meta_keys[m], key)) col = np + m;
                }
                if (col < 0 || col >= x->out.n) { rd_fail(r, "The compiled plan projects a missing column%s", ""); return NULL; }
                cc->exprs[k] = wexpr_column(r->a, col, x->out.types[col], x->out.names[col]);
                c->out.names[k] = x->out.names[col];
                c->out.types[k] = x->out.types[col];
            }
            c->changelog = x->changelog;
            x = c;
        }
        return x;
}

/* The sink abilities of dynamicTableSink: Overwrite {overwrite} and Partitioning {partition:
   {column: value}} (INSERT [OVERWRITE] ... PARTITION (k = 'v')); the static partition is kept in
   the table's partition key order, a column that is not a partition key is refused. */
static bool rd_sink_abilities(Rd *r, json_t *abs, WRel *x)
{
    WRelSink *sk = wrel_sink_mut(x);
    const WTable *t = sk->table;
    for (size_t i = 0; i < json_array_size(abs); i++) {
        json_t *ab = json_array_get(abs, i);
        const char *type = json_string_value(json_object_get(ab, "type"));
        if (type && !strcmp(type, "Overwrite")) {
            sk->overwrite = json_is_true(json_object_get(ab, "overwrite"));
            continue;
        }
        if (type && !strcmp(type, "WritingMetadata")) {
            /* the metadata keys the sink writes, after its physical columns */
            json_t *keys = json_object_get(ab, "metadataKeys");
            const char *conn = wopts_get(&t->options, "connector");
            int n = (int)json_array_size(keys);
            sk->nmeta = 0;
            sk->meta_keys = WA_ARRAY(r->a, const char *, n ? n : 1);
            for (int k = 0; k < n; k++) {
                const char *key = json_string_value(json_array_get(keys, k));
                if (!key || !wplan_sink_metadata_type(conn, key))
                    return rd_fail(r, "The compiled plan's WritingMetadata sink ability names metadata key '%s', "
                                      "which the sink's connector cannot write.", key ? key : "");
                sk->meta_keys[sk->nmeta++] = wa_strdup(r->a, key);
            }
            continue;
        }
        if (!type || strcmp(type, "Partitioning")) continue;
        json_t *part = json_object_get(ab, "partition");
        const char *key;
        json_t *v;
        json_object_foreach(part, key, v) {
            bool found = false;
            for (int k = 0; k < t->npartition; k++) found |= !strcmp(t->cols[t->partition_keys[k]].name, key);
            if (!found || !json_is_string(v))
                return rd_fail(r, "The compiled plan's Partitioning sink ability names '%s', which is not a "
                                  "partition column of the sink table (with a string value).", key);
        }
        int n = t->npartition ? t->npartition : 1;
        sk->static_keys = WA_ARRAY(r->a, const char *, n);
        sk->static_values = WA_ARRAY(r->a, const char *, n);
        sk->nstatic = 0;
        for (int k = 0; k < t->npartition; k++) {
            const char *name = t->cols[t->partition_keys[k]].name;
            json_t *val = json_object_get(part, name);
            if (!val) continue;
            sk->static_keys[sk->nstatic] = name;
            sk->static_values[sk->nstatic++] = wa_strdup(r->a, json_string_value(val));
        }
    }
    return true;
}

/* A sink writes its table's physical columns (then the metadata ones it writes), NOT NULL and lengths included (the node's outputType
   is its input's row type): the ConstraintEnforcer checks the table's types, as after an INSERT. */
void rd_sink_schema_from_table(Rd *r, WRel *x)
{
    const WRelSink *sk = wrel_sink(x);
    const WTable *t = sk->table;
    int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    if (np + sk->nmeta != x->out.n) return;     /* rd_check_node reports the mismatch */
    int n = np + sk->nmeta;
    WSchema s = {.n = n, .names = WA_ARRAY(r->a, const char *, n ? n : 1),
                 .types = WA_ARRAY(r->a, const WType *, n ? n : 1)};
    for (int i = 0; i < np; i++) {
        s.names[i] = t->cols[phys[i]].name;
        s.types[i] = t->cols[phys[i]].type;
    }
    /* written metadata (WritingMetadata): named by their keys, typed by them */
    for (int m = 0; m < sk->nmeta; m++) {
        s.names[np + m] = sk->meta_keys[m];
        s.types[np + m] = wplan_sink_metadata_type(wopts_get(&t->options, "connector"), sk->meta_keys[m]);
    }
    x->out = s;
}

/* stream-exec-sink_1/_2 over *in: the sink table, with a SinkUpsertMaterializer between *in and
   the sink when requireUpsertMaterialize (then *in is the materializer). */
WRel *rd_sink(Rd *r, json_t *j, WRel **in)
{
    WRel *x;
        json_t *dts = json_object_get(j, "dynamicTableSink");
        const char *qname;
        WTable *t = table_from_json(r, json_object_get(dts, "table"), &qname);
        if (!t) return NULL;
        if (json_is_true(json_object_get(j, "requireUpsertMaterialize"))) {
            WRel *m = rd_new_rel(r, WR_SINK_MATERIALIZER, 1);
            WRelSink *mk = wrel_sink_mut(m);
            m->inputs[0] = *in;
            m->out = (*in)->out;
            int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
            int np = wtable_physical(t, phys);
            m->nkeys = t->npk;
            m->keys = WA_ARRAY(r->a, int, t->npk ? t->npk : 1);
            mk->key_names = WA_ARRAY(r->a, const char *, t->npk ? t->npk : 1);
            for (int k = 0; k < t->npk; k++) {
                for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) m->keys[k] = i;
                mk->key_names[k] = t->cols[t->pk[k]].name;
            }
            m->ttl_ms = rd_ttl(r, j, 0);
            rd_derive_mode(m);
            *in = m;
        }
        x = rd_new_rel(r, WR_SINK, 1);
        WRelSink *sk = wrel_sink_mut(x);
        sk->table = t;
        sk->qname = qname;
        json_t *tcs = json_object_get(dts, "targetColumns");
        if (json_is_array(tcs) && json_array_size(tcs)) {
            sk->ntarget_cols = (int)json_array_size(tcs);
            sk->target_cols = WA_ARRAY(r->a, int, sk->ntarget_cols);
            for (int k = 0; k < sk->ntarget_cols; k++)
                sk->target_cols[k] = (int)json_integer_value(json_array_get(json_array_get(tcs, (size_t)k), 0));
        }
        json_t *cs = json_object_get(j, "conflictStrategy");
        if (cs) {
            const char *b = json_string_value(json_object_get(cs, "behavior"));
            sk->conflict = wplan_conflict_from_name(b);
            if (!sk->conflict) {
                rd_fail(r, "The compiled plan's sink has an unknown conflict behavior: '%s'.", b ? b : "");
                return NULL;
            }
            if ((*in)->kind == WR_SINK_MATERIALIZER) wrel_sink_mut(*in)->conflict = sk->conflict;
        }
        if (!rd_sink_abilities(r, json_object_get(dts, "abilities"), x)) return NULL;
    return x;
}
