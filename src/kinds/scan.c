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

static void dg_scan(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_scan(dn->r);
    const WRelScan *sc = wrel_scan(r);
    ExNode *node = dn->node;
    wsb_puts(out, "(table=[[");
    table_path(out, sc->table_qname ? sc->table_qname : sc->table->name);
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
    .ex = {.name = "TableSourceScan", .exec_type = "stream-exec-table-source-scan_2", .digest = dg_scan},
    .cp = {.write = cp_scan, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_check = {.check = rdc_leaf},
    .rd_mode = {.mode = mode_set_by_reader},
    .cost = {.cost = cost_scan},
    .ast = {.print = ast_scan},
    .build = {.build = bd_scan, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_scan},
};
