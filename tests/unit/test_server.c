/*
 * test_server.c — the cluster's pieces without a network: config.yaml reading (server/
 * cluster_config.c), metrics parsing (server/registry.c), REST routing and error answers
 * (server/rest*.c) and the SQL gateway's request handling (server/gateway.c) called directly.
 */
#include "unit.h"
#include "../../src/server/cluster_config.h"
#include "../../src/server/registry.h"
#include "../../src/server/rest.h"
#include "../../src/server/gateway.h"
#include "../../src/server/rest_path.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *first_error(json_t *j)
{
    json_t *e = json_object_get(j, "errors");
    return json_string_value(json_array_get(e, 0));
}

WTEST(yaml_nested_and_flat_keys)
{
    WOptions o;
    wopts_init(&o);
    WError err;
    werr_clear(&err);
    const char *text =
        "# comment\n"
        "rest:\n"
        "  port: 8082   # trailing comment\n"
        "  bind-address: \"0.0.0.0\"\n"
        "parallelism.default: 4\n"
        "state:\n"
        "  backend:\n"
        "    type: rocksdb\n"
        "  checkpoints.dir: 'file:///tmp/it''s'\n"
        "env:\n"
        "  java:\n"
        "    opts: [\"-Xmx1g\", -Dx=1]\n"
        "pipeline.jars:\n"
        "  - a.jar\n"
        "  - b.jar\n"
        "url: http://x#frag\n";
    CHECK(wyaml_flatten(text, "config.yaml", &o, &err));
    CHECK_STR(wopts_get(&o, "rest.port"), "8082");
    CHECK_STR(wopts_get(&o, "rest.bind-address"), "0.0.0.0");
    CHECK_STR(wopts_get(&o, "parallelism.default"), "4");
    CHECK_STR(wopts_get(&o, "state.backend.type"), "rocksdb");
    CHECK_STR(wopts_get(&o, "state.checkpoints.dir"), "file:///tmp/it's");
    CHECK_STR(wopts_get(&o, "env.java.opts"), "-Xmx1g;-Dx=1");
    CHECK_STR(wopts_get(&o, "pipeline.jars"), "a.jar;b.jar");
    CHECK_STR(wopts_get(&o, "url"), "http://x#frag");
    wopts_free(&o);
}

WTEST(yaml_errors_name_the_line)
{
    WOptions o;
    wopts_init(&o);
    WError err;
    werr_clear(&err);
    CHECK(!wyaml_flatten("rest:\n  port: 1\nthis is not yaml\n", "c.yaml", &o, &err));
    CHECK(strstr(err.msg, "c.yaml:3:") != NULL);
    werr_clear(&err);
    CHECK(!wyaml_flatten("a: 'unterminated\n", "c.yaml", &o, &err));
    CHECK(strstr(err.msg, "unterminated") != NULL);
    werr_clear(&err);
    CHECK(!wyaml_flatten("rest:\n\tport: 1\n", "c.yaml", &o, &err));
    CHECK(strstr(err.msg, "tabs") != NULL);
    werr_clear(&err);
    CHECK(!wyaml_flatten("- item\n", "c.yaml", &o, &err));
    wopts_free(&o);
}

WTEST(cluster_config_defaults_and_ports)
{
    WClusterConfig c;
    wcluster_config_init(&c);
    WError err;
    werr_clear(&err);
    CHECK(wcluster_config_load(&c, "/nonexistent/weir/config.yaml", &err));     /* missing: defaults */
    CHECK_STR(wcluster_bind_address(&c), "localhost");
    CHECK_STR(wcluster_connect_address(&c), "localhost");
    int lo = 0, hi = 0;
    CHECK(wcluster_port_range(&c, &lo, &hi, &err));
    CHECK_INT(lo, 8081);
    CHECK_INT(hi, 8081);
    wopts_set(&c.opts, "rest.port", "9000-9010");
    CHECK(wcluster_port_range(&c, &lo, &hi, &err));
    CHECK_INT(lo, 9000);
    CHECK_INT(hi, 9010);
    wopts_set(&c.opts, "rest.port", "90x");
    CHECK(!wcluster_port_range(&c, &lo, &hi, &err));
    werr_clear(&err);
    wopts_set(&c.opts, "rest.port", "9010-9000");
    CHECK(!wcluster_port_range(&c, &lo, &hi, &err));
    werr_clear(&err);
    wopts_set(&c.opts, "rest.port", "70000");
    CHECK(!wcluster_port_range(&c, &lo, &hi, &err));
    wopts_set(&c.opts, "rest.bind-address", "0.0.0.0");
    CHECK_STR(wcluster_bind_address(&c), "0.0.0.0");
    CHECK_STR(wcluster_connect_address(&c), "localhost");
    wopts_set(&c.opts, "rest.address", "myhost");
    CHECK_STR(wcluster_connect_address(&c), "myhost");
    wcluster_config_free(&c);
}

WTEST(state_metrics_parsing)
{
    /* an operator's typed metrics as the REST layer reads them, and as the job report prints them */
    WOpMetrics m;
    memset(&m, 0, sizeof m);
    wop_metrics_state(&m, "leftState", 3, 120);
    wop_metrics_state(&m, "rightState", 1, 40);
    wop_metrics_value(&m, "ttlExpiredRecords", 7);
    wop_metrics_value(&m, "droppedRetractions", 2);
    char text[256];
    wop_metrics_format(&m, text, sizeof text);
    CHECK_STR(text, "leftState.entries=3 leftState.bytes=120 rightState.entries=1 rightState.bytes=40 "
                    "ttlExpiredRecords=7 droppedRetractions=2");
    WStateMetric st[4];
    int64_t expired = -1;
    char rest[128];
    int n = wregistry_state_metrics(&m, st, 4, &expired, rest, sizeof rest);
    CHECK_INT(n, 2);
    CHECK_STR(st[0].name, "leftState");
    CHECK_INT(st[0].entries, 3);
    CHECK_INT(st[0].bytes, 120);
    CHECK_STR(st[1].name, "rightState");
    CHECK_INT(st[1].bytes, 40);
    CHECK_INT(expired, 7);
    CHECK_STR(rest, "droppedRetractions=2");
    WOpMetrics none;
    memset(&none, 0, sizeof none);
    CHECK_INT(wregistry_state_metrics(&none, st, 4, &expired, rest, sizeof rest), 0);
    CHECK_INT(expired, 0);
    CHECK_INT(wregistry_state_metrics(NULL, st, 4, NULL, NULL, 0), 0);
    /* more states than room: the extra ones are dropped, nothing overflows */
    CHECK_INT(wregistry_state_metrics(&m, st, 1, NULL, NULL, 0), 1);
    /* more states than lines: the last line sums the rest, so the totals stay whole */
    WOpMetrics many;
    memset(&many, 0, sizeof many);
    int64_t bytes_sum = 0;
    for (int i = 0; i < WOP_METRICS_STATES + 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        wop_metrics_state(&many, name, 1, 10 + i);
        bytes_sum += 10 + i;
    }
    CHECK_INT(many.nstates, WOP_METRICS_STATES);
    CHECK_STR(many.states[WOP_METRICS_STATES - 1].name, WOP_METRICS_OTHER_STATES);
    CHECK_INT(many.states[WOP_METRICS_STATES - 1].entries, 4);
    int64_t shown = 0;
    for (int i = 0; i < many.nstates; i++) shown += many.states[i].bytes;
    CHECK_INT(shown, bytes_sum);
    for (int i = 0; i < 4; i++) wop_metrics_value(&m, "v", i);
    char small[16];
    CHECK_INT(wregistry_state_metrics(&m, st, 4, NULL, small, sizeof small), 2);
    CHECK_STR(small, "");
    CHECK_STR(wjob_state_name(WJS_CANCELLING), "CANCELLING");
    CHECK(wjob_state_terminal(WJS_CANCELED));
    CHECK(!wjob_state_terminal(WJS_RUNNING));
}

WTEST(rest_routes_and_errors_without_jobs)
{
    WClusterConfig cfg;
    wcluster_config_init(&cfg);
    WRegistry reg;
    wregistry_init(&reg, &cfg);
    WRest rest;
    wrest_init(&rest, &reg, &cfg, "127.0.0.1", 1234);
    json_t *out = NULL;

    CHECK_INT(wrest_handle(&rest, "GET", "/overview", "", NULL, 0, &out), 200);
    CHECK_INT(json_integer_value(json_object_get(out, "jobs-running")), 0);
    CHECK_INT(json_integer_value(json_object_get(out, "slots-total")), 1);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/config", "", NULL, 0, &out), 200);
    CHECK_STR(json_string_value(json_object_get(out, "flink-version")), WEIR_FLINK_VERSION);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/jobs", "", NULL, 0, &out), 200);
    CHECK_INT(json_array_size(json_object_get(out, "jobs")), 0);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/jobmanager/config", "", NULL, 0, &out), 200);
    CHECK(json_is_array(out) && json_array_size(out) > 0);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/taskmanagers", "", NULL, 0, &out), 200);
    CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(out, "taskmanagers"), 0), "id")),
              rest.tm_id);
    json_decref(out);

    CHECK_INT(wrest_handle(&rest, "GET", "/nowhere", "", NULL, 0, &out), 404);
    CHECK_STR(first_error(out), "Not found: /nowhere");
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/", "", NULL, 0, &out), 404);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/jobs/xyz", "", NULL, 0, &out), 400);
    CHECK(strstr(first_error(out), "jobid") != NULL);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/jobs/0123456789abcdef0123456789abcdef", "", NULL, 0, &out), 404);
    CHECK(strstr(first_error(out), "not found") != NULL);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "PATCH", "/jobs/0123456789abcdef0123456789abcdef", "mode=cancel", NULL, 0, &out), 404);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "PATCH", "/jobs/0123456789abcdef0123456789abcdef", "mode=stop", NULL, 0, &out), 400);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "DELETE", "/jobs", "", NULL, 0, &out), 405);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "POST", "/overview", "", NULL, 0, &out), 405);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/taskmanagers/other/thread-dump", "", NULL, 0, &out), 404);
    json_decref(out);
    char tmpath[128];
    snprintf(tmpath, sizeof tmpath, "/taskmanagers/%s/thread-dump", rest.tm_id);
    CHECK_INT(wrest_handle(&rest, "GET", tmpath, "", NULL, 0, &out), 200);
    CHECK(json_array_size(json_object_get(out, "threadInfos")) >= 1);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/weir/jobs/zz/state", "", NULL, 0, &out), 400);
    json_decref(out);
    CHECK_INT(wrest_handle(&rest, "GET", "/weir/other", "", NULL, 0, &out), 404);
    json_decref(out);
    char deep[600];
    memset(deep, 0, sizeof deep);
    for (int i = 0; i < 20; i++) strcat(deep, "/a");
    CHECK_INT(wrest_handle(&rest, "GET", deep, "", NULL, 0, &out), 404);
    json_decref(out);
    char query[32];
    CHECK_STR(wrest_query("a=1&mode=cancel&b", "mode", query, sizeof query), "cancel");
    CHECK_STR(wrest_query("a=1&b", "b", query, sizeof query), "");
    CHECK(wrest_query("a=1", "mode", query, sizeof query) == NULL);
    CHECK(wrest_query("modex=1", "mode", query, sizeof query) == NULL);

    wregistry_destroy(&reg);
    wcluster_config_free(&cfg);
}

WTEST(gateway_requests_and_a_statement)
{
    WClusterConfig cfg;
    wcluster_config_init(&cfg);
    wopts_set(&cfg.opts, "parallelism.default", "1");
    wopts_set(&cfg.opts, "rest.port", "1");       /* not a job key: not set in sessions */
    WRegistry reg;
    wregistry_init(&reg, &cfg);
    FILE *devnull = fopen("/dev/null", "w");
    WGateway *g = wgateway_new(&reg, &cfg, devnull);
    json_t *out = NULL;

    /* Flink's protocol (flink_gateway.c): Flink's router answers 404 for unknown paths and methods,
       a handler's failure (a bad body, an unknown session) 500 */
    CHECK_INT(wgateway_flink_handle(g, "GET", "/v4/sessions", "", NULL, 0, &out), 404);
    json_decref(out);
    CHECK_INT(wgateway_flink_handle(g, "POST", "/v4/nothing", "", NULL, 0, &out), 404);
    json_decref(out);
    CHECK_INT(wgateway_flink_handle(g, "POST", "/v4/sessions", "", "{bad", 4, &out), 400);
    json_decref(out);
    CHECK_INT(wgateway_flink_handle(g, "POST", "/v4/sessions", "", "{\"properties\":{\"a\":1}}", 22, &out), 500);
    json_decref(out);
    const char *body = "{\"properties\":{\"pipeline.name\":\"unit\"}}";
    CHECK_INT(wgateway_flink_handle(g, "POST", "/v4/sessions", "", body, strlen(body), &out), 200);
    char sh[64];
    snprintf(sh, sizeof sh, "%s", json_string_value(json_object_get(out, "sessionHandle")));
    json_decref(out);
    CHECK_INT(strlen(sh), 36);

    char path[256];
    snprintf(path, sizeof path, "/v4/sessions/%s", sh);
    CHECK_INT(wgateway_flink_handle(g, "GET", path, "", NULL, 0, &out), 200);
    json_t *props = json_object_get(out, "properties");
    CHECK_STR(json_string_value(json_object_get(props, "pipeline.name")), "unit");
    CHECK_STR(json_string_value(json_object_get(props, "parallelism.default")), "1");
    CHECK(json_object_get(props, "rest.port") == NULL);
    json_decref(out);

    snprintf(path, sizeof path, "/v4/sessions/%s/statements", sh);
    CHECK_INT(wgateway_flink_handle(g, "POST", path, "", "{\"statement\":1}", 15, &out), 500);
    json_decref(out);
    const char *st = "{\"statement\":\"SHOW JOBS\"}";
    CHECK_INT(wgateway_flink_handle(g, "POST", path, "", st, strlen(st), &out), 200);
    char oh[64];
    snprintf(oh, sizeof oh, "%s", json_string_value(json_object_get(out, "operationHandle")));
    json_decref(out);

    /* fetch until EOS (bounded), following nextResultUri */
    snprintf(path, sizeof path, "/v4/sessions/%s/operations/%s/result/0", sh, oh);
    char query[64] = "rowFormat=PLAIN_TEXT";
    bool got_columns = false, eos = false;
    for (int i = 0; i < 50 && !eos; i++) {
        CHECK_INT(wgateway_flink_handle(g, "GET", path, query, NULL, 0, &out), 200);
        const char *type = json_string_value(json_object_get(out, "resultType"));
        json_t *cols = json_object_get(json_object_get(out, "results"), "columns");
        if (json_array_size(cols)) {
            got_columns = true;
            CHECK_STR(json_string_value(json_object_get(json_array_get(cols, 0), "name")), "job id");
            CHECK_STR(json_string_value(json_object_get(out, "resultKind")), "SUCCESS_WITH_CONTENT");
            CHECK(json_is_false(json_object_get(out, "isQueryResult")));
        }
        eos = !strcmp(type, "EOS");
        const char *next = json_string_value(json_object_get(out, "nextResultUri"));
        CHECK(eos == (next == NULL));
        if (next) {
            const char *q = strchr(next, '?');
            snprintf(path, sizeof path, "%.*s", q ? (int)(q - next) : (int)strlen(next), next);
            snprintf(query, sizeof query, "%s", q ? q + 1 : "");
        }
        json_decref(out);
    }
    CHECK(got_columns);
    CHECK(eos);
    snprintf(path, sizeof path, "/v4/sessions/%s/operations/%s/result/99", sh, oh);
    CHECK_INT(wgateway_flink_handle(g, "GET", path, "", NULL, 0, &out), 500);
    json_decref(out);
    snprintf(path, sizeof path, "/v4/sessions/%s/operations/%s/status", sh, oh);
    CHECK_INT(wgateway_flink_handle(g, "GET", path, "", NULL, 0, &out), 200);
    CHECK_STR(json_string_value(json_object_get(out, "status")), "FINISHED");
    json_decref(out);
    snprintf(path, sizeof path, "/v4/sessions/%s/operations/%s/close", sh, oh);
    CHECK_INT(wgateway_flink_handle(g, "DELETE", path, "", NULL, 0, &out), 200);
    json_decref(out);
    CHECK_INT(wgateway_flink_handle(g, "DELETE", path, "", NULL, 0, &out), 500);
    json_decref(out);
    snprintf(path, sizeof path, "/v4/sessions/%s", sh);
    CHECK_INT(wgateway_flink_handle(g, "DELETE", path, "", NULL, 0, &out), 200);
    json_decref(out);
    CHECK_INT(wgateway_flink_handle(g, "DELETE", path, "", NULL, 0, &out), 500);
    json_decref(out);

    wgateway_shutdown_begin(g);
    wregistry_stop_jobs(&reg);
    wgateway_free(g);
    wregistry_destroy(&reg);
    fclose(devnull);
    wcluster_config_free(&cfg);
}

WTEST(checkpoint_percentiles_as_flink)
{
    int64_t one[] = {42};
    CHECK(wrest_percentile(one, 1, 0.5) == 42.0);
    CHECK(wrest_percentile(one, 0, 0.5) == 0.0);
    int64_t v[] = {10, 20, 30, 40};
    /* LEGACY estimation: pos = p * (n + 1), interpolated between neighbours */
    CHECK(wrest_percentile(v, 4, 0.5) == 25.0);
    CHECK(wrest_percentile(v, 4, 0.9) == 40.0);
    CHECK(wrest_percentile(v, 4, 0.1) == 10.0);
    CHECK(wrest_percentile(v, 4, 0.3) == 15.0);
}

static WCkptStats fake_ckpt(int64_t id, bool ok, bool savepoint, int64_t full, int64_t dur)
{
    WCkptStats s;
    memset(&s, 0, sizeof s);
    s.id = id;
    s.completed = ok;
    s.savepoint = savepoint;
    s.trigger_ms = 1000 * id;
    s.duration_ms = dur;
    s.full_bytes = full;
    s.incremental_bytes = full / 2;
    snprintf(s.path, sizeof s.path, "/nonexistent/weir-test/chk-%lld", (long long)id);
    if (!ok) snprintf(s.failure, sizeof s.failure, "disk full");
    return s;
}

WTEST(checkpoint_statistics_json)
{
    WRegJob j;
    memset(&j, 0, sizeof j);
    wopts_init(&j.config);
    j.nlanes = 2;
    /* no checkpointing: zeros and nulls */
    json_t *o = wrest_checkpoints(&j);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(o, "counts"), "total")), 0);
    CHECK(json_is_null(json_object_get(json_object_get(o, "latest"), "completed")));
    CHECK_INT((int64_t)json_array_size(json_object_get(o, "history")), 0);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(json_object_get(o, "summary"), "state_size"), "max")), 0);
    json_decref(o);

    WCkptStats st[4] = {fake_ckpt(1, true, false, 100, 5), fake_ckpt(2, false, false, 0, 9),
                        fake_ckpt(3, true, false, 300, 15), fake_ckpt(4, true, true, 200, 10)};
    j.ckpt_kept = true;
    j.nckpts = 4;
    j.ckpts = st;
    o = wrest_checkpoints(&j);
    json_t *c = json_object_get(o, "counts");
    CHECK_INT(json_integer_value(json_object_get(c, "total")), 4);
    CHECK_INT(json_integer_value(json_object_get(c, "completed")), 3);
    CHECK_INT(json_integer_value(json_object_get(c, "failed")), 1);
    CHECK_INT(json_integer_value(json_object_get(c, "restored")), 0);
    json_t *ss = json_object_get(json_object_get(o, "summary"), "state_size");
    CHECK_INT(json_integer_value(json_object_get(ss, "min")), 100);
    CHECK_INT(json_integer_value(json_object_get(ss, "max")), 300);
    CHECK_INT(json_integer_value(json_object_get(ss, "avg")), 200);
    CHECK(json_real_value(json_object_get(ss, "p50")) == 200.0);
    json_t *cs = json_object_get(json_object_get(o, "summary"), "checkpointed_size");
    CHECK_INT(json_integer_value(json_object_get(cs, "max")), 150);
    json_t *lat = json_object_get(o, "latest");
    json_t *lc = json_object_get(lat, "completed");
    CHECK_INT(json_integer_value(json_object_get(lc, "id")), 3);
    CHECK_STR(json_string_value(json_object_get(lc, "@class")), "completed");
    CHECK_STR(json_string_value(json_object_get(lc, "checkpoint_type")), "CHECKPOINT");
    CHECK_INT(json_integer_value(json_object_get(lc, "latest_ack_timestamp")), 3015);
    CHECK_STR(json_string_value(json_object_get(lc, "external_path")), "<checkpoint-not-externally-addressable>");
    CHECK(json_is_true(json_object_get(lc, "discarded")));
    CHECK_INT(json_integer_value(json_object_get(lc, "num_subtasks")), 2);
    json_t *sp = json_object_get(lat, "savepoint");
    CHECK_INT(json_integer_value(json_object_get(sp, "id")), 4);
    CHECK_STR(json_string_value(json_object_get(sp, "checkpoint_type")), "SAVEPOINT");
    CHECK_STR(json_string_value(json_object_get(sp, "external_path")), "file:/nonexistent/weir-test/chk-4");
    json_t *lf = json_object_get(lat, "failed");
    CHECK_STR(json_string_value(json_object_get(lf, "status")), "FAILED");
    CHECK_STR(json_string_value(json_object_get(lf, "failure_message")), "disk full");
    CHECK(json_is_null(json_object_get(lat, "restored")));
    json_t *h = json_object_get(o, "history");
    CHECK_INT((int64_t)json_array_size(h), 4);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(h, 0), "id")), 4);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(h, 3), "id")), 1);
    json_decref(o);

    /* web.checkpoints.history bounds the history; a restore shows in counts and latest */
    wopts_set(&j.config, "web.checkpoints.history", "2");
    wopts_set(&j.config, "execution.savepoint.path", "file:///nonexistent/weir-test/chk-7");
    o = wrest_checkpoints(&j);
    CHECK_INT((int64_t)json_array_size(json_object_get(o, "history")), 2);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(o, "counts"), "restored")), 1);
    json_t *rs = json_object_get(json_object_get(o, "latest"), "restored");
    CHECK_STR(json_string_value(json_object_get(rs, "external_path")), "file:/nonexistent/weir-test/chk-7");
    json_decref(o);

    /* details */
    int status = wrest_checkpoint_details(&j, "3", &o);
    CHECK_INT(status, 200);
    CHECK_INT(json_integer_value(json_object_get(o, "id")), 3);
    json_decref(o);
    status = wrest_checkpoint_details(&j, "9", &o);
    CHECK_INT(status, 404);
    CHECK_STR(first_error(o), "Could not find checkpointing statistics for checkpoint 9.");
    json_decref(o);
    status = wrest_checkpoint_details(&j, "x1", &o);
    CHECK_INT(status, 400);
    json_decref(o);
    status = wrest_checkpoint_details(&j, "", &o);
    CHECK_INT(status, 400);
    json_decref(o);
    wopts_free(&j.config);
}

/* rest_path.h: the one reentrant path splitter of the REST and gateway routes (issue 19: strtok
   shared its position between connection threads) */
WTEST(rest_path_split)
{
    WRestPath p;
    CHECK_INT(wrest_path_split(&p, "/jobs/abc/vertices/def/watermarks", WREST_PATH_SEGMENTS), 5);
    CHECK_STR(p.seg[0], "jobs");
    CHECK_STR(p.seg[2], "vertices");
    CHECK_STR(p.seg[4], "watermarks");
    CHECK_INT(wrest_path_split(&p, "//jobs///overview/", WREST_PATH_SEGMENTS), 2);
    CHECK_STR(p.seg[0], "jobs");
    CHECK_STR(p.seg[1], "overview");
    CHECK_INT(wrest_path_split(&p, "/", WREST_PATH_SEGMENTS), 0);
    CHECK_INT(wrest_path_split(&p, "", WREST_PATH_SEGMENTS), 0);
    CHECK_INT(wrest_path_split(&p, "/a/b/c", 2), -1);
    CHECK_INT(wrest_path_split(&p, "/a/b", 2), 2);
    char longp[WREST_PATH_MAX + 8];
    memset(longp, 'a', sizeof longp - 1);
    longp[sizeof longp - 1] = 0;
    CHECK_INT(wrest_path_split(&p, longp, WREST_PATH_SEGMENTS), -1);
    /* two splitters interleaved keep their own positions */
    WRestPath q;
    CHECK_INT(wrest_path_split(&p, "/jobs/overview", WREST_PATH_SEGMENTS), 2);
    CHECK_INT(wrest_path_split(&q, "/taskmanagers/x/thread-dump", WREST_PATH_SEGMENTS), 3);
    CHECK_STR(p.seg[1], "overview");
    CHECK_STR(q.seg[2], "thread-dump");
}

WTEST(rest_json_text_writes_doubles_as_java)
{
    json_t *j = json_pack("{s:f, s:f, s:f, s:f, s:f, s:I, s:s, s:[b, n, f]}", "a", 0.1, "b", 0.004, "c", 9333.333333333334,
                          "d", 1e7, "e", 172.0, "f", (json_int_t)-5, "g", "x\"\\\n\x01\xc3\xa9\xf0\x9f\x98\x80", "h", 1,
                          0.30000000000000004);
    char *t = wrest_json_text(j);
    CHECK_STR(t, "{\"a\":0.1,\"b\":0.004,\"c\":9333.333333333334,\"d\":1.0E7,\"e\":172.0,\"f\":-5,"
                 "\"g\":\"x\\\"\\\\\\n\\u0001\\u00E9\\uD83D\\uDE00\",\"h\":[true,null,0.30000000000000004]}");
    free(t);
    json_decref(j);
}
