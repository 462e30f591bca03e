/*
 * lookup_join.c — the node kind LookupJoin: each row joined with the rows a lookup source returns
 * for its key (Flink's StreamPhysicalLookupJoin / StreamExecLookupJoin). Its operations in every
 * stage, each beside the others: the physical derivation (changelog mode, unique key, TTL,
 * exchanges), the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields,
 * the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime
 * operator and the job-graph operators; wkind_lookup_join at the end names them (kinds.h). Helpers
 * shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_lookup_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelJoin *rj = wrel_join(r);
    ExDialect d = dn->d;
    /* conjuncts on the dim table's columns alone are pushed into the jdbc source (Flink's
       SupportsFilterPushDown) and are not shown */
    const char *const *jn = dg_join_names(x, r);
    wsb_printf(out, "(table=[%s], joinType=[%s], lookup=[", wrel_scan(rj->lookup_scan)->table_qname,
               dg_join_type_name(r));
    for (int k = 0; k < r->nkeys; k++)
        wsb_printf(out, "%s%s=%s", k ? ", " : "", rj->lookup_scan->out.names[rj->right_keys[k]],
                   jn[r->keys[k]]);
    wsb_putc(out, ']');
    WRel shown = *r;
    shown.nkeys = 0;
    wrel_join_mut(&shown)->cond = rj->shown_cond;
    if (wrel_join(&shown)->cond) {
        wsb_puts(out, ", joinCondition=[");
        dg_join_condition(x, &shown, jn, d, out);
        wsb_putc(out, ']');
    }
    wsb_puts(out, ", ");
    dg_select_list(x, r, out);
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_lookup_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelJoin *rj = wrel_join(r);
    WArena *a = cn->a;
    const WRel *in = cn->in;
    const WRel *dim = rj->lookup_scan;
    const WRelScan *ds = wrel_scan(dim);
    json_object_set_new(j, "joinType", json_string(rj->type == AJ_LEFT ? "LEFT" : "INNER"));
    json_object_set_new(j, "joinCondition", rj->shown_cond ? ex_rex_json(x->p, rj->shown_cond, NULL) : json_null());
    json_t *tt = json_object(), *lts = json_object();
    json_object_set_new(lts, "table", cp_table_json(x, ds->table, ds->table_qname, NULL));
    /* the conjuncts on dim columns alone (not in joinCondition): Flink's jdbc source takes
       them as pushed-down predicates over the dim row */
    WExpr *cs[256];
    int n = 0, ln = r->inputs[0]->out.n;
    wplan_split_and(rj->cond, cs, &n, 256);
    int *m = WA_ARRAY(a, int, ln + dim->out.n);
    for (int i = 0; i < ln + dim->out.n; i++) m[i] = i - ln;
    json_t *preds = json_array();
    for (int i = 0; i < n; i++) {
        WExpr *sh[256];
        int ns = 0;
        wplan_split_and(rj->shown_cond, sh, &ns, 256);
        bool shown = false;
        for (int k = 0; k < ns; k++) shown = shown || sh[k] == cs[i];
        if (!shown) json_array_append_new(preds, ex_rex_json(x->p, cs[i], m));
    }
    if (json_array_size(preds)) {
        json_t *ab = json_array(), *f = json_object();
        json_object_set_new(f, "type", json_string("FilterPushDown"));
        json_object_set_new(f, "predicates", preds);
        json_array_append_new(ab, f);
        json_object_set_new(lts, "abilities", ab);
    } else {
        json_decref(preds);
    }
    json_object_set_new(tt, "lookupTableSource", lts);
    json_t *ot = ex_row_type_json(a, &dim->out);
    WStrBuf t;
    wsb_init(&t);
    wsb_printf(&t, "%s NOT NULL", json_string_value(ot));
    json_decref(ot);
    json_object_set_new(tt, "outputType", json_string(t.buf));
    wsb_free(&t);
    json_object_set_new(j, "temporalTable", tt);
    json_t *keys = json_object();
    bool pk_in_keys = ds->table->npk > 0;
    for (int k = 0; k < r->nkeys; k++) {
        json_t *f = json_object();
        json_object_set_new(f, "type", json_string("FieldRef"));
        json_object_set_new(f, "index", json_integer(r->keys[k]));
        char idx[16];
        snprintf(idx, sizeof idx, "%d", rj->right_keys[k]);
        json_object_set_new(keys, idx, f);
    }
    for (int p = 0; p < ds->table->npk; p++) {
        bool found = false;
        for (int k = 0; k < r->nkeys; k++)
            found = found || !strcmp(dim->out.names[rj->right_keys[k]], ds->table->cols[ds->table->pk[p]].name);
        pk_in_keys = pk_in_keys && found;
    }
    json_object_set_new(j, "lookupKeys", keys);
    json_object_set_new(j, "projectionOnTemporalTable", json_null());
    json_object_set_new(j, "filterOnTemporalTable", json_null());
    json_object_set_new(j, "lookupKeyContainsPrimaryKey", json_boolean(pk_in_keys));
    json_object_set_new(j, "inputChangelogMode", cp_changelog_json(in->changelog));
    return false;
}

static void cp_after_lookup_join(const CpNode *cn, json_t *j)
{
    json_object_set_new(j, "preferCustomShuffle", json_false());
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

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
    WTable *t = rd_table_from_json(r, json_object_get(lts, "table"), &qname);
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

static WRel *rdn_lookup_join(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    return rd_lookup_join(r, j, in);    /* plan_reader_tables.c */
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_lookup_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WJob *j = L->job;
    WRel *l = r->inputs[0], *dim = rj->lookup_scan;
    const WRelScan *ds = wrel_scan(dim);
    const WConnector *c = bd_find_connector(p, ds->table);
    if (!c) return NULL;
    /* a lookup source splits nothing: every lane (idle copies too) is one of nlanes */
    WTableSpec *ts = bd_make_spec(p, L, ds->table, ds->table_qname, j->nlanes);
    if (c->validate && !c->validate(ts, true, p->err)) return NULL;
    WLookupJoinSpec sp = {
        .left_outer = rj->type == AJ_LEFT, .left_ncols = l->out.n, .left_types = l->out.types,
        .dim_ncols = dim->out.n, .dim_types = dim->out.types, .nkeys = r->nkeys, .left_keys = r->keys,
        .residual = rj->cond, .out = {r->out.n, r->out.types, r->out.names}};
    if (!wjob_lookup_fetcher(c, ts, r, &sp, p->err)) return NULL;
    return wop_lookup_join_new(&L->ctx, &sp);
}

const WKindDef wkind_lookup_join = {
    .kind = WR_LOOKUP_JOIN,
    .phys = {.derive = derive_input_modes},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "LookupJoin", .exec_type = "stream-exec-lookup-join_1", .digest = dg_lookup_join},
    .cp = {.write = cp_lookup_join, .output_schema = cp_own_schema, .after_description = cp_after_lookup_join},
    .rd_read = {.types = {{"stream-exec-lookup-join_1", 1, rdn_lookup_join}}},
    .rd_check = {.check = RDC_CHECKED_BY_ITS_READER},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_lookup_join, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
