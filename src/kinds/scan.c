/*
 * scan.c — the node kind TableSourceScan: a catalog table read through its connector (Flink's
 * StreamPhysicalTableSourceScan / StreamExecTableSourceScan), with the projection, filter and
 * metadata pushed into it. Its operations in every stage, each beside the others: the physical
 * derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement, the
 * EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the
 * cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_scan at the end names them (kinds.h). Helpers shared with other kinds stay in their stage
 * (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_scan(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    return wphys_derive_scan(p, r, ttl);      /* changelog_source.c */
}

/* ---- plan: the update-before requirement (update_before.c) ---- */

static bool ub_source(WRel *r, int req, bool apply)
{
    /* a source sending UPDATE_BEFORE that nobody needs gets a DropUpdateBefore above it */
    return true;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void table_path(WStrBuf *out, const char *qname)
{
    for (const char *s = qname; *s; s++) {
        if (*s == '.') wsb_puts(out, ", ");
        else wsb_putc(out, *s);
    }
}

/* A table of Flink's legacy descriptor options (connectors/fs_legacy.c): Flink plans its
   CsvTableSource as a LegacyTableSourceScan whose table path ends with the source's summary. */
static bool legacy_scan(const WRel *r)
{
    const WTable *t = wrel_scan(r)->table;
    const char *id = t ? wconnector_id(&t->options) : NULL;
    return id && strcmp(id, WCONN_LEGACY_FILESYSTEM) == 0;
}

/* ", source: [CsvTableSource(read fields: a, b)]" of the fields read (proj: indexes into r's
   columns, NULL: all of them) */
static void legacy_source_summary(WStrBuf *out, const WRel *r, const int *proj, int nproj)
{
    wsb_puts(out, ", source: [CsvTableSource(read fields: ");
    int n = proj ? nproj : r->out.n;
    for (int i = 0; i < n; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[proj ? proj[i] : i]);
    wsb_puts(out, ")]");
}

static const char *name_scan(const WRel *r)
{
    return legacy_scan(wrel_as_scan(r)) ? "LegacyTableSourceScan" : "TableSourceScan";
}

/* The filter, projection and metadata pushed into a scan, inside its table path. */
static void dg_pushed(WStrBuf *out, const WRel *r, const ExNode *node)
{
    const WRelScan *sc = wrel_scan(r);
    if (node && node->pushed_filter) {
        /* the pushed predicate refers to the scan's (projected) fields */
        wsb_puts(out, ", filter=[");
        ex_rex(out, node->pushed_filter, (const char *const *)r->out.names, EXD_PUSHED);
        wsb_putc(out, ']');
    }
    if (node && node->nproj) {
        /* the physical columns read, then the metadata keys read (Flink's SupportsReadingMetadata) */
        wsb_puts(out, ", project=[");
        bool first = true;
        for (int i = 0; i < node->nproj; i++) {
            if (node->proj[i] >= sc->nfields) continue;
            wsb_printf(out, "%s%s", first ? "" : ", ", r->out.names[node->proj[i]]);
            first = false;
        }
        wsb_puts(out, "], metadata=[");
        first = true;
        for (int i = 0; i < node->nproj; i++) {
            if (node->proj[i] < sc->nfields) continue;
            wsb_printf(out, "%s%s", first ? "" : ", ", sc->meta_keys[node->proj[i] - sc->nfields]);
            first = false;
        }
        wsb_putc(out, ']');
    } else if (sc->nmeta) {
        wsb_puts(out, ", metadata=[");
        for (int m = 0; m < sc->nmeta; m++) wsb_printf(out, "%s%s", m ? ", " : "", sc->meta_keys[m]);
        wsb_putc(out, ']');
    }
}

static void dg_scan(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_scan(dn->r);
    const WRelScan *sc = wrel_scan(r);
    ExNode *node = dn->node;
    wsb_puts(out, "(table=[[");
    table_path(out, sc->table_qname ? sc->table_qname : sc->table->name);
    if (legacy_scan(r))     /* the source's summary names what it reads */
        legacy_source_summary(out, r, node && node->nproj ? node->proj : NULL, node ? node->nproj : 0);
    else
        dg_pushed(out, r, node);
    wsb_puts(out, "]], fields=[");
    if (node && node->nproj) {
        for (int i = 0; i < node->nproj; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[node->proj[i]]);
    } else {
        ex_names_list(out, &r->out);
    }
    wsb_puts(out, "]");
    ex_options_hints(out, r, false);
    wsb_puts(out, ")");
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_scan(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_scan(cn->r);
    const WRelScan *sc = wrel_scan(r);
    WArena *a = cn->a;
    const ExNode *node = cn->node;
    json_t *sts = json_object();
    const WRel *wm = NULL;
    json_object_set_new(sts, "table", cp_table_json(x, sc->table, sc->table_qname, wm));
    json_t *ab = json_array();
    if (node && node->pushed_filter) {
        json_t *f = json_object();
        json_object_set_new(f, "type", json_string("FilterPushDown"));
        json_t *preds = json_array();
        const WExpr *c = node->pushed_filter;
        int *m = cp_input_colmap(x, r);
        if (c->kind == WX_AND) {
            for (int i = 0; i < c->nargs; i++) json_array_append_new(preds, ex_rex_json(x->p, c->args[i], m));
        } else {
            json_array_append_new(preds, ex_rex_json(x->p, c, m));
        }
        json_object_set_new(f, "predicates", preds);
        json_array_append_new(ab, f);
    }
    WSchema produced = r->out;
    if (node && node->nproj) {
        /* the physical fields projected (ProjectPushDown), then the metadata keys read
           (ReadingMetadata), each with the row type it produces */
        produced.n = node->nproj;
        produced.names = WA_ARRAY(a, const char *, node->nproj);
        produced.types = WA_ARRAY(a, const WType *, node->nproj);
        json_t *pf = json_array(), *keys = json_array();
        int nphys = 0;
        for (int k = 0; k < node->nproj; k++) {
            produced.names[k] = r->out.names[node->proj[k]];
            produced.types[k] = r->out.types[node->proj[k]];
            if (node->proj[k] < sc->nfields) { json_array_append_new(pf, cp_ints_json(1, &node->proj[k])); nphys++; }
            else json_array_append_new(keys, json_string(sc->meta_keys[node->proj[k] - sc->nfields]));
        }
        WStrBuf pt, ptp;
        wsb_init(&pt);
        wsb_init(&ptp);
        wsb_puts(&pt, "ROW<");
        wsb_puts(&ptp, "ROW<");
        for (int k = 0, q = 0; k < produced.n; k++) {
            wsb_printf(&pt, "%s`%s` %s", k ? ", " : "", produced.names[k], ex_type_serial(a, produced.types[k]));
            if (node->proj[k] < sc->nfields)
                wsb_printf(&ptp, "%s`%s` %s", q++ ? ", " : "", produced.names[k], ex_type_serial(a, produced.types[k]));
        }
        wsb_puts(&pt, "> NOT NULL");
        wsb_puts(&ptp, "> NOT NULL");
        json_t *p = json_object();
        json_object_set_new(p, "type", json_string("ProjectPushDown"));
        json_object_set_new(p, "projectedFields", pf);
        json_object_set_new(p, "producedType", json_string(nphys == produced.n ? pt.buf : ptp.buf));
        json_array_append_new(ab, p);
        json_t *md = json_object();
        json_object_set_new(md, "type", json_string("ReadingMetadata"));
        json_object_set_new(md, "metadataKeys", keys);
        json_object_set_new(md, "producedType", json_string(pt.buf));
        json_array_append_new(ab, md);
        wsb_free(&pt);
        wsb_free(&ptp);
    }
    if (json_array_size(ab)) json_object_set_new(sts, "abilities", ab);
    else json_decref(ab);
    json_object_set_new(j, "scanTableSource", sts);
    /* the source produces plain timestamps: the WatermarkAssigner above makes the rowtime */
    WSchema plain = produced;
    plain.types = WA_ARRAY(a, const WType *, produced.n ? produced.n : 1);
    for (int k = 0; k < produced.n; k++) {
        const WType *pt0 = produced.types[k];
        plain.types[k] = wtype_is_timestamp(pt0) && pt0->time_attr == WTA_ROWTIME
                       ? wtype_with_time_attr(a, pt0, WTA_NONE) : pt0;
    }
    json_object_set_new(j, "outputType", ex_row_type_json(a, &plain));
    WStrBuf d;
    wsb_init(&d);
    ex_digest(x, r, EXD_EXEC, &d);
    json_object_set_new(j, "description", json_string(d.buf));
    wsb_free(&d);
    return true;       /* a source has no inputProperties (stream-exec-table-source-scan_2) */
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

/* stream-exec-table-source-scan_1/_2: the table's physical columns (time attributes as the plan's
   outputType `out` marks them), its metadata columns, its changelog mode and primary key; a
   ProjectPushDown ability becomes a Calc above the scan. */
WRel *rd_scan(Rd *r, json_t *j, const WSchema *out)
{
    WRel *x;
        json_t *sts = json_object_get(j, "scanTableSource");
        const char *qname;
        WTable *t = rd_table_from_json(r, json_object_get(sts, "table"), &qname);
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
        if (!wplan_scan_metadata(r->p, t, x, wconnector_id(&t->options))) return NULL;
        const char *fmt = wopts_get(&t->options, "format");
        sc->source_changelog = wplan_changelog_format(fmt);
        x->changelog = sc->source_changelog ? ALL_KINDS : WCM_INSERT;
        if (wplan_upsert_connector(wconnector_id(&t->options))) {
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

static WRel *rdn_table_source_scan(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WSchema *out = &n->out;
    n->done = true;
    return rd_scan(r, j, out);        /* plan_reader_tables.c */
}

/* ---- explain: cost (explain_text.c) ---- */

static void cost_scan(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self)
{
    c->rowcount = 1.0E8;
    self->rows = self->cpu = c->rowcount;
    ExNode *en = ex_node(x, r);
    WSchema ps = r->out;
    if (en && en->nproj) {
        ps.n = en->nproj;
        ps.types = WA_ARRAY(x->p->arena, const WType *, en->nproj);
        for (int i = 0; i < en->nproj; i++) ps.types[i] = r->out.types[en->proj[i]];
    }
    self->io = c->rowcount * cost_row_size(&ps, false);
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_scan(AstNode *a)
{
    const WRel *r = a->r;
    const WRelScan *sc = wrel_scan(r);
    WStrBuf *out = a->out;
    wsb_puts(out, "LogicalTableScan(table=[[");
    const char *q = sc->table_qname ? sc->table_qname : sc->table->name;
    for (const char *s = q; *s; s++) {
        if (*s == '.') wsb_puts(out, ", ");
        else wsb_putc(out, *s);
    }
    if (sc->nmeta) {
        wsb_puts(out, ", metadata=[");
        for (int m = 0; m < sc->nmeta; m++) wsb_printf(out, "%s%s", m ? ", " : "", sc->meta_keys[m]);
        wsb_putc(out, ']');
    }
    if (legacy_scan(r)) legacy_source_summary(out, r, NULL, 0);
    wsb_puts(out, "]]");
    ex_options_hints(out, r, true);
    wsb_puts(out, ")\n");
    return true;
}

/* ---- runtime: job-graph operators (vertices.c) ---- */

static void scan_desc(const WRel *r, int id, WStrBuf *d)
{
    const WTable *t = wrel_scan(r)->table;
    wsb_printf(d, "[%d]:TableSourceScan(table=[[%s, %s, %s]], fields=[", id, t->catalog ? t->catalog : "default_catalog",
               t->database ? t->database : "default_database", t->name);
    for (int i = 0; i < r->out.n; i++) wsb_printf(d, "%s%s", i ? ", " : "", r->out.names[i]);
    wsb_append(d, "])");
}

/* TableSourceScan: a source */
static void vx_scan(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc)
{
    const WTable *t = wrel_scan(r)->table;
    wsb_printf(name, "Source: %s[%d]", t && t->name ? t->name : "?", id);
    if (t) scan_desc(r, id, desc);
    else vx_plain_desc(r, id, desc);
    int op = vx_new_op(b, name->buf, desc->buf, r, WSOP_OPERATOR);
    b->ops[op].is_source = true;
    ri->first_op = ri->last_op = op;
}

const WKindDef wkind_scan = {
    .kind = WR_SCAN,
    .phys = {.derive = derive_scan},
    .ub = {.satisfy = ub_source},
    .ex = {.name_of = name_scan, .exec_type = "stream-exec-table-source-scan_2", .digest = dg_scan},
    .cp = {.write = cp_scan, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-table-source-scan_1", 0, rdn_table_source_scan}, {"stream-exec-table-source-scan_2", 0, rdn_table_source_scan}}},
    .rd_check = {.check = rdc_leaf},
    .rd_mode = {.mode = mode_set_by_reader},
    .cost = {.cost = cost_scan},
    .ast = {.print = ast_scan},
    .build = {.build = bd_scan, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_scan},
};
