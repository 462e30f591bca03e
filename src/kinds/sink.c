/*
 * sink.c — the node kind Sink: rows written to a table or collected by the client (Flink's
 * StreamPhysicalSink / StreamExecSink), with its constraint enforcer and writer. Its operations in
 * every stage, each beside the others: the physical derivation (changelog mode, unique key, TTL,
 * exchanges), the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields,
 * the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime
 * operator and the job-graph operators; wkind_sink at the end names them (kinds.h). Helpers shared
 * with other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_sink(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = in->changelog;
    return r;
}

/* ---- plan: the update-before requirement (update_before.c) ---- */

static bool ub_sink(WRel *r, int req, bool apply)
{
    return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_sink(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_sink(dn->r);
    const char *const *inn = dn->inn;
    ExNode *node = dn->node;
    wsb_printf(out, "(table=[%s], ", wrel_sink(r)->qname ? wrel_sink(r)->qname : "collect");
    wplan_target_columns_text(out, r);
    wsb_puts(out, "fields=[");
    /* Flink lists the input's field names (the sink writes by position): those of the node
       printed below it (a Calc that only renames is not in Flink's plan) */
    {
        const WRel *shown = ex_skip(x, r->inputs[0]);
        const char *const *sn = shown->out.n == r->inputs[0]->out.n ? dg_in_names(x, shown) : inn;
        for (int i = 0; i < r->inputs[0]->out.n; i++) wsb_printf(out, "%s%s", i ? ", " : "", sn[i]);
    }
    wsb_putc(out, ']');
    if (node && node->materializer) wsb_puts(out, ", upsertMaterialize=[true]");
    if (wrel_sink(r)->conflict) wsb_printf(out, ", conflictStrategy=[%s]", wplan_conflict_name(wrel_sink(r)->conflict));
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

/* An enum option as Flink's compiled plan writes it: the constant's name (Flink reads the value
   case-insensitively; 'drop' is written "DROP", measured). */
static json_t *enum_option(const ExCtx *x, const char *key, const char *def)
{
    const char *v = cp_opt_str(x->p->config, key, def);
    char *u = wa_strdup(x->p->arena, v);
    for (char *c = u; *c; c++) *c = (char)toupper((unsigned char)*c);
    return json_string(u);
}

/* Flink's WritingMetadata sink ability: the metadata keys written (in the connector's order) and
   the type the sink consumes: the physical columns, then the metadata columns (named as in the
   table, typed by their keys), as measured on Flink 2.3 with the Kafka connector. */
static json_t *writing_metadata_json(const ExCtx *x, const WRel *r)
{
    WArena *a = x->p->arena;
    const WRelSink *sk = wrel_sink(r);
    const WTable *t = sk->table;
    int np = r->out.n - sk->nmeta;
    WSchema cons = {.n = r->out.n, .names = WA_ARRAY(a, const char *, r->out.n),
                    .types = WA_ARRAY(a, const WType *, r->out.n)};
    for (int i = 0; i < np; i++) { cons.names[i] = r->out.names[i]; cons.types[i] = r->out.types[i]; }
    json_t *keys = json_array();
    for (int m = 0; m < sk->nmeta; m++) {
        json_array_append_new(keys, json_string(sk->meta_keys[m]));
        cons.names[np + m] = sk->meta_keys[m];
        cons.types[np + m] = r->out.types[np + m];
        for (int c = 0; c < t->ncols; c++) {
            const WColumn *col = &t->cols[c];
            if (col->kind == WCOL_METADATA && !col->is_virtual &&
                !strcmp(col->metadata_key ? col->metadata_key : col->name, sk->meta_keys[m]))
                cons.names[np + m] = col->name;
        }
    }
    json_t *rt = ex_row_type_json(a, &cons);
    char *ct = wa_sprintf(a, "%s NOT NULL", json_string_value(rt));
    json_decref(rt);
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("WritingMetadata"));
    json_object_set_new(j, "metadataKeys", keys);
    json_object_set_new(j, "consumedType", json_string(ct));
    return j;
}

static bool cp_sink(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_sink(cn->r);
    const WRelSink *sk = wrel_sink(r);
    const WRel *in = cn->in;
    const ExNode *node = cn->node;
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.sink.keyed-shuffle", enum_option(x, "table.exec.sink.keyed-shuffle", "AUTO"));
    json_object_set_new(c, "table.exec.sink.not-null-enforcer", enum_option(x, "table.exec.sink.not-null-enforcer", "ERROR"));
    json_object_set_new(c, "table.exec.sink.rowtime-inserter", enum_option(x, "table.exec.sink.rowtime-inserter", "ENABLED"));
    json_object_set_new(c, "table.exec.sink.type-length-enforcer", enum_option(x, "table.exec.sink.type-length-enforcer", "IGNORE"));
    json_object_set_new(c, "table.exec.sink.upsert-materialize", enum_option(x, "table.exec.sink.upsert-materialize", "AUTO"));
    json_object_set_new(j, "configuration", c);
    json_t *dts = json_object();
    if (sk->table) json_object_set_new(dts, "table", cp_table_json(x, sk->table, sk->qname, NULL));
    if (sk->ntarget_cols) {
        json_t *tc = json_array();
        for (int k = 0; k < sk->ntarget_cols; k++) json_array_append_new(tc, json_pack("[i]", sk->target_cols[k]));
        json_object_set_new(dts, "targetColumns", tc);
    }
    json_t *ab = json_array();
    if (sk->nstatic) {
        /* INSERT ... PARTITION (k = 'v'): Flink's Partitioning sink ability */
        json_t *pa = json_object(), *part = json_object();
        json_object_set_new(pa, "type", json_string("Partitioning"));
        for (int k = 0; k < sk->nstatic; k++)
            json_object_set_new(part, sk->static_keys[k], json_string(sk->static_values[k]));
        json_object_set_new(pa, "partition", part);
        json_array_append_new(ab, pa);
    }
    if (sk->nmeta && sk->table) json_array_append_new(ab, writing_metadata_json(x, r));
    if (json_array_size(ab)) json_object_set_new(dts, "abilities", ab);
    else json_decref(ab);
    json_object_set_new(j, "dynamicTableSink", dts);
    /* the modes the input really sends (an aggregate over an insert-only input sends no DELETE) */
    json_object_set_new(j, "inputChangelogMode", cp_changelog_json(in ? ex_changelog_mode(x, in) : WCM_INSERT));
    if (node && node->materializer) json_object_set_new(j, "requireUpsertMaterialize", json_true());
    if (in && in->nunique > 0 && in->changelog != WCM_INSERT)
        json_object_set_new(j, "inputUpsertKey", cp_ints_json(in->nunique, in->unique));
    if (node && node->materializer)
        json_object_set_new(j, "state", cp_one_state(node->materializer->ttl_ms, "sinkMaterializeState"));
    if (sk->conflict)
        json_object_set_new(j, "conflictStrategy", json_pack("{s:s}", "behavior", wplan_conflict_name(sk->conflict)));
    return false;
}

/* a sink's output type is its input row (Flink 2.x: the query's names, not the table's) */
static WSchema cp_schema_sink_input(const CpNode *cn)
{
    return cn->in ? ex_schema(cn->x, cn->in) : ex_schema(cn->x, cn->r);
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

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
            const char *conn = wconnector_id(&t->options);
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

/* stream-exec-sink_1/_2 over *in: the sink table, with a SinkUpsertMaterializer between *in and
   the sink when requireUpsertMaterialize (then *in is the materializer). */
WRel *rd_sink(Rd *r, json_t *j, WRel **in)
{
    WRel *x;
        json_t *dts = json_object_get(j, "dynamicTableSink");
        const char *qname;
        WTable *t = rd_table_from_json(r, json_object_get(dts, "table"), &qname);
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

static WRel *rdn_sink(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    return rd_sink(r, j, &n->in);    /* plan_reader_tables.c */
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_sink(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WTable *t = wrel_sink(x)->table;
    int phys = 0;
    for (int i = 0; i < t->ncols; i++) if (t->cols[i].kind == WCOL_PHYSICAL) phys++;
    if (is->n < phys)
        return rdc_bad(r, "dynamicTableSink.table", "has %d physical column(s), but the sink's input has %d.", phys, is->n);
    if (is->n < phys + wrel_sink(x)->nmeta)
        return rdc_bad(r, "dynamicTableSink.abilities", "writes %d metadata column(s) after %d physical one(s), but the "
                   "sink's input has %d column(s).", wrel_sink(x)->nmeta, phys, is->n);
    return true;
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_sink(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    wsb_printf(out, "LogicalSink(table=[%s], ", wrel_sink(r)->qname ? wrel_sink(r)->qname : "collect");
    wplan_target_columns_text(out, r);
    wsb_puts(out, "fields=[");
    /* Flink 2.x lists the query's field names (the sink writes by position) */
    ex_names_list(out, r->ninputs ? &r->inputs[0]->out : &r->out);
    wsb_puts(out, "])\n");
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

/* The state the subtasks of sink node `id` share (made by the first lane that builds it). */
static WSinkShared *sink_shared(WJob *j, int id)
{
    pthread_mutex_lock(&j->mu);
    WSinkShared *sh = NULL;
    for (int i = 0; i < j->nshared && !sh; i++) if (j->shared_rel[i] == id) sh = j->shared[i];
    if (!sh) {
        if (j->nshared == j->cap_shared) {
            j->cap_shared = j->cap_shared ? j->cap_shared * 2 : 4;
            j->shared = wrealloc(j->shared, sizeof(WSinkShared *) * (size_t)j->cap_shared);
            j->shared_rel = wrealloc(j->shared_rel, sizeof(int) * (size_t)j->cap_shared);
        }
        sh = wcalloc(1, sizeof *sh);
        pthread_mutex_init(&sh->mu, NULL);
        j->shared_rel[j->nshared] = id;
        j->shared[j->nshared++] = sh;
    }
    pthread_mutex_unlock(&j->mu);
    return sh;
}

/* A streaming file sink's [compact-coordinator -> compact-operator] -> [PartitionCommitter] ->
   end: Writer (fs_compact_flow.h): one set of operators for all lanes; lane 0 registers the
   single-subtask ones, lane i < npar the writer's and compact-operator i, the other lanes idle
   copies. */
static bool build_file_sink_flow(WPlanCtx *p, Lane *L, WRel *r, SinkOp *s, int npar, int kco, int kcp, int kpc,
                                 int kend)
{
    WJob *j = L->job;
    assert((kco >= 0) == (kcp >= 0));
    WFsFlow *f = wfs_flow_get(sink_shared(j, r->id), &L->ctx, npar, kco >= 0, kpc >= 0);
    const int ks[4] = {kco, kcp, kpc, kend};
    for (int q = 0; q < 4; q++) {
        if (ks[q] < 0) continue;
        bool single = q != 1;
        WOperator *op = NULL;
        if (single && L->index == 0) op = q == 0 ? wfs_flow_coordinator(f) : q == 2 ? wfs_flow_committer(f) : wfs_flow_end(f);
        else if (!single && L->index < npar) op = wfs_flow_compactor(f, L->index);
        if (op) {
            bd_add_op(p, L, r, op, ks[q], NULL);
            wfs_flow_registered(f, op);
        } else {
            bd_add_op(p, L, r, bd_simple_op(L, r, &DISCARD_OPS), ks[q], NULL);
        }
    }
    if (L->index < npar) {
        s->flow = f;
        s->subtask = L->index;
        wfs_flow_attach_writer(f, &s->base, s->sink, L->index, &wrel_sink(r)->table->options);
    }
    return true;
}

/* The edge in front of sink r's writer when it is not FORWARD (an edge of the job graph, so an
   exchange of the runtime into the writer's recv_p lanes): the keyBy on the primary key
   (table.exec.sink.keyed-shuffle), or a rebalance (sink.parallelism differs from its input's). */
static WOperator *build_sink_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator *input, bool keyed, int recv_p)
{
    if (L->job->nlanes <= 1) return input;
    WRel *x = NULL;
    for (int i = 0; i < L->job->nexch && !x; i++)     /* one exchange node for every lane */
        if (L->job->exch[i]->inputs[0] == r->inputs[0] && L->job->exch[i]->id == r->id)  /* the sink's id */
            x = L->job->exch[i];
    if (!x) {
        const WTable *t = wrel_sink(r)->table;
        int *phys = WA_ARRAY(p->arena, int, t->ncols ? t->ncols : 1);
        int np = wtable_physical(t, phys);
        int *keys = WA_ARRAY(p->arena, int, t->npk ? t->npk : 1);
        for (int k = 0; k < t->npk; k++)
            for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) keys[k] = i;
        x = WA_NEW(p->arena, WRel);
        x->kind = WR_EXCHANGE;
        x->id = r->id;
        x->ninputs = 1;
        x->inputs = WA_ARRAY(p->arena, WRel *, 1);
        x->inputs[0] = r->inputs[0];
        x->out = r->inputs[0]->out;
        x->changelog = r->inputs[0]->changelog;
        x->nkeys = keyed ? t->npk : 0;
        x->keys = keys;
    }
    return bd_build_exchange(p, L, x, input, L->job->par, recv_p, !keyed);
}

static WOperator *bd_sink(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WJob *j = L->job;
    const WRelSink *sk = wrel_sink(r);
    *done = true;
    /* [ConstraintEnforcer] -> [StreamRecordTimestampInserter] -> the writer -> [end: Writer],
       as the job graph expands the sink (a materialized sink's enforcer is in front of the
       SinkMaterializer: build_materialized) */
    WOperator *feed = ins[0];
    int ke = r->inputs[0]->kind == WR_SINK_MATERIALIZER ? -1 : bd_stream_op_of(j, r, WSOP_CONSTRAINT_ENFORCER);
    if (ke >= 0 && !(feed = bd_build_enforcer(p, L, r, ke, feed))) return NULL;
    int ki = bd_stream_op_of(j, r, WSOP_TIMESTAMP_INSERTER);
    if (ki >= 0) feed = bd_add_op(p, L, r, bd_simple_op(L, r, &TIMESTAMP_INSERTER_OPS), ki, feed);
    int ks = bd_stream_op_of(j, r, WSOP_OPERATOR);
    WShip ship = ks >= 0 && j->graph->ops[ks].ninputs == 1 ? j->graph->ops[ks].inputs[0].ship : WSHIP_FORWARD;
    int npar = wjob_run_par(j, ks);     /* the writer's subtasks */
    /* right behind a source at its own parallelism: its exchange (bd_scan_exchange_rel) already
       brought the rows to the job's lanes */
    if (ship == WSHIP_REBALANCE && npar == j->par && bd_scan_exchange_rel(p, j, r->inputs[0]))
        ship = WSHIP_FORWARD;
    /* an exchange of the plan right below the writer is that edge already */
    bool plan_edge = r->inputs[0]->kind == WR_EXCHANGE && ke < 0 && ki < 0;
    if (sk->table && (ship == WSHIP_HASH || ship == WSHIP_REBALANCE) && !plan_edge &&
        !(feed = build_sink_exchange(p, L, r, feed, ship == WSHIP_HASH, npar)))
        return NULL;
    /* a FORWARD writer runs where its input does: the job's lanes */
    if (sk->table && ship != WSHIP_HASH && ship != WSHIP_REBALANCE && r->inputs[0]->kind != WR_SINK_MATERIALIZER)
        npar = j->par;
    SinkOp *s = wcalloc(1, sizeof *s);
    wop_init(&s->base, &SINK_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    if (!sk->table) {
        s->is_collect = true;
        if (L->index == 0) s->collect = j->env.collect;
    } else if (L->index >= npar) {
        /* beyond the sink's subtasks: an idle copy that opens no sink and receives nothing */
    } else {
        const WConnector *c = bd_find_connector(p, sk->table);
        if (!c) { wop_free(&s->base); return NULL; }
        if (!c->can_sink) {
            wconnector_refuse_sink(c, p->err);
            wop_free(&s->base);
            return NULL;
        }
        WTableSpec *sp = bd_make_spec(p, L, sk->table, sk->qname, npar);
        if (sk->overwrite && !c->can_overwrite) {
            werr_set(p->err, WEXC_VALIDATION,
                     "INSERT OVERWRITE requires that the underlying DynamicTableSink of table '%s' implements "
                     "the SupportsOverwrite interface.", sk->qname);
            wop_free(&s->base);
            return NULL;
        }
        const char *mode = j->env.config ? wopts_get(j->env.config, "execution.runtime-mode") : NULL;
        sp->overwrite = sk->overwrite;
        sp->nmeta = sk->nmeta;      /* metadata columns written, after the physical ones */
        sp->meta_keys = sk->meta_keys;
        sp->nstatic = sk->nstatic;
        sp->static_keys = sk->static_keys;
        sp->static_values = sk->static_values;
        sp->bounded = mode && !strcasecmp(mode, "batch");
        /* one part-file prefix for every subtask of this sink, as Flink's per-sink UUID */
        char idk[64];
        int idn = snprintf(idk, sizeof idk, "%s/%d", j->env.job_id ? j->env.job_id : "", r->id);
        uint64_t h1 = whash_bytes(idk, (size_t)idn, 0x243f6a8885a308d3ULL);
        uint64_t h2 = whash_bytes(idk, (size_t)idn, 0x13198a2e03707344ULL);
        sp->sink_uuid = wa_sprintf(p->arena, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(h1 >> 32),
                                   (unsigned)(h1 >> 16) & 0xffff, (unsigned)h1 & 0xfff,
                                   0x8000 | ((unsigned)(h2 >> 48) & 0x3fff),
                                   (unsigned long long)(h2 & 0xffffffffffffULL));
        sp->shared = sink_shared(j, r->id);
        if (c->validate && !c->validate(sp, false, p->err)) { wop_free(&s->base); return NULL; }
        s->sink = c->open_sink(sp, p->err);
        if (!s->sink) { wop_free(&s->base); return NULL; }
        if (sk->final_rows) s->final = wfinal_new(r->out.n, r->out.types);
        pthread_mutex_lock(&j->mu);
        if (j->nsinks == j->cap_sinks) {
            j->cap_sinks = j->cap_sinks ? j->cap_sinks * 2 : 4;
            j->sinks = wrealloc(j->sinks, sizeof(WSink *) * (size_t)j->cap_sinks);
        }
        j->sinks[j->nsinks++] = s->sink;
        pthread_mutex_unlock(&j->mu);
    }
    bd_add_op(p, L, r, &s->base, bd_stream_op_of(j, r, WSOP_OPERATOR), feed);
    WOperator *tail = &s->base;
    int kco = bd_stream_op_of(j, r, WSOP_COMPACT_COORDINATOR);
    int kcp = bd_stream_op_of(j, r, WSOP_COMPACT_OPERATOR);
    int kpc = bd_stream_op_of(j, r, WSOP_PARTITION_COMMITTER);
    int kend = bd_stream_op_of(j, r, WSOP_SINK_END);
    if (kend >= 0 && sk->table)         /* a streaming file sink */
        return build_file_sink_flow(p, L, r, s, npar, kco, kcp, kpc, kend) ? &s->base : NULL;
    if (kco >= 0) tail = bd_add_op(p, L, r, bd_simple_op(L, r, &DISCARD_OPS), kco, tail);
    if (kcp >= 0) tail = bd_add_op(p, L, r, bd_simple_op(L, r, &DISCARD_OPS), kcp, tail);
    if (kpc >= 0) tail = bd_add_op(p, L, r, bd_simple_op(L, r, &DISCARD_OPS), kpc, tail);
    if (kend >= 0) bd_add_op(p, L, r, bd_simple_op(L, r, &DISCARD_OPS), kend, tail);
    return &s->base;
}

/* ---- runtime: job-graph operators (vertices.c) ---- */

/* The last rowtime column of r's output, -1 when none (the file sink's timestamp inserter). */
static int last_rowtime_col(const WRel *r)
{
    int found = -1;
    for (int i = 0; i < r->out.n; i++)
        if (r->out.types[i] && wtype_is_timestamp(r->out.types[i]) && r->out.types[i]->time_attr == WTA_ROWTIME)
            found = i;
    return found;
}

/* The only rowtime column of r's output, -1 when none or several (the collect sink's inserter). */
static int rowtime_col(const WRel *r)
{
    int found = -1, n = 0;
    for (int i = 0; i < r->out.n; i++)
        if (r->out.types[i] && r->out.types[i]->time_attr == WTA_ROWTIME) { found = i; n++; }
    return n == 1 ? found : -1;
}

static void sink_desc(const WRel *r, int id, WStrBuf *d)
{
    if (wrel_sink(r)->table)
        wsb_printf(d, "[%d]:Sink(table=[%s], fields=[", id, wrel_sink(r)->qname ? wrel_sink(r)->qname : wrel_sink(r)->table->name);
    else
        wsb_printf(d, "[%d]:Sink(table=[*anonymous_collect$%d*], fields=[", id, id);
    for (int i = 0; i < r->out.n; i++) wsb_printf(d, "%s%s", i ? ", " : "", r->out.names[i]);
    wsb_append(d, "])");
}

static void vx_sink(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc)
{
    /* CommonExecSink: [ConstraintEnforcer] -> [StreamRecordTimestampInserter] -> the writer(s) */
    const WRelSink *sk = wrel_sink(r);
    bool mat = r->ninputs == 1 && r->inputs[0]->kind == WR_SINK_MATERIALIZER;
    int first = mat ? -1 : vx_add_enforcer(b, r, r), last = first;
    bool filesystem = wrel_sink_file_writer(r) && !b->batch;
    int rowtime = !sk->table ? rowtime_col(r) : filesystem && r->ninputs ? last_rowtime_col(r->inputs[0]) : -1;
    if (rowtime >= 0) {
        char nm[80];
        snprintf(nm, sizeof nm, "StreamRecordTimestampInserter[%d]", id);
        wsb_printf(desc, "[%d]:StreamRecordTimestampInserter(rowtime field: %d)", id, rowtime);
        int inserter = vx_new_op(b, nm, desc->buf, r, WSOP_TIMESTAMP_INSERTER);
        if (last >= 0) vx_add_input(&b->ops[inserter], last, WSHIP_FORWARD);
        else vx_wire_inputs(b, r, inserter, false);
        if (first < 0) first = inserter;
        last = inserter;
        wsb_clear(desc);
    }
    bool compact = filesystem && wrel_sink_compaction(r);
    if (compact) {                  /* the compacting streaming file sink */
        wsb_append(name, "streaming-writer");
        wsb_append(desc, name->buf);
    } else if (filesystem) {        /* Flink 2.x's streaming file sink */
        wsb_append(name, "StreamingFileWriter");
        wsb_append(desc, name->buf);
    } else if (wrel_sink_file_writer(r)) {      /* batch: FileSystemOutputFormat */
        wsb_append(name, "Sink: Filesystem");
        wsb_append(desc, name->buf);
    } else if (wrel_sink_writer(r)) {      /* a SinkV2 writer (Flink 2.3's blackhole) */
        wsb_printf(name, "%s[%d]: Writer", sk->table->name, id);
        wsb_append(desc, name->buf);
    } else {
        if (sk->table) wsb_printf(name, "Sink: %s[%d]", sk->table->name, id);
        else wsb_append(name, "Sink: Collect table sink");
        sink_desc(r, id, desc);
    }
    int op = vx_new_op(b, name->buf, desc->buf, r, WSOP_OPERATOR);
    b->ops[op].is_sink = true;
    if (last >= 0) vx_add_input(&b->ops[op], last, WSHIP_FORWARD);
    else vx_wire_inputs(b, r, op, false);
    last = op;
    if (compact) {                  /* the writer's files -> coordinator -> compactors */
        int co = vx_new_op(b, "compact-coordinator", "compact-coordinator", r, WSOP_COMPACT_COORDINATOR);
        vx_add_input(&b->ops[co], last, WSHIP_FORWARD);     /* REBALANCE when the writer has more subtasks */
        int cp = vx_new_op(b, "compact-operator", "compact-operator", r, WSOP_COMPACT_OPERATOR);
        vx_add_input(&b->ops[cp], co, WSHIP_BROADCAST);
        last = cp;
    }
    if (filesystem && wrel_sink_partition_committer(r)) {
        int pc = vx_new_op(b, "PartitionCommitter", "PartitionCommitter", r, WSOP_PARTITION_COMMITTER);
        vx_add_input(&b->ops[pc], last, WSHIP_FORWARD);    /* REBALANCE from more subtasks */
        last = pc;
    }
    if (filesystem) {               /* the discarding end of the file sink's committables */
        int end = vx_new_op(b, "end: Writer", "end: Writer", r, WSOP_SINK_END);
        vx_add_input(&b->ops[end], last, WSHIP_FORWARD);
        last = end;
    }
    ri->first_op = first >= 0 ? first : op;
    ri->last_op = last;
}

const WKindDef wkind_sink = {
    .kind = WR_SINK,
    .phys = {.derive = derive_sink},
    .ub = {.satisfy = ub_sink},
    .ex = {.name = "Sink", .exec_type = "stream-exec-sink_2", .digest = dg_sink},
    .cp = {.write = cp_sink, .output_schema = cp_schema_sink_input, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-sink_1", 1, rdn_sink}, {"stream-exec-sink_2", 1, rdn_sink}}},
    .rd_check = {.check = rdc_sink},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_sink},
    .build = {.build = bd_sink, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_sink},
};
