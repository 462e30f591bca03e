/*
 * plan_reader_tables.c — EXECUTE PLAN for the nodes that name catalog tables, what the readers of
 * the scan, the sink and the LookupJoin share (src/kinds/scan.c, sink.c, lookup_join.c): the table
 * definitions a compiled plan carries ({identifier, resolvedTable{schema, options}}) and a sink's
 * schema from its table.
 * Contract: see plan_reader_internal.h.
 */
#include "plan_reader_internal.h"
#include "../connectors/connector.h"

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
WTable *rd_table_from_json(Rd *r, json_t *tj, const char **qname)
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
    if (!wconnector_id(&t->options))
        { rd_fail(r, "The compiled plan has no options for table '%s' (compile it with weir to run it here).", *qname); return NULL; }
    return t;
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
        s.types[np + m] = wplan_sink_metadata_type(wconnector_id(&t->options), sk->meta_keys[m]);
    }
    x->out = s;
}

