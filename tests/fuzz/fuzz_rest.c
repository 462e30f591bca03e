/*
 * fuzz_rest.c — libFuzzer target for REST request handling without sockets: the input is
 * "<method byte><path>\n<query>\n<body>"; the path goes through the shared splitter
 * (rest_path.c), the query through wrest_query for every key the handlers read, the body through
 * the JSON reader (common/json.c) and jansson, and the whole request through wrest_handle (routing,
 * path parameters, Flink's error documents) over a registry without jobs. The SQL gateway is not
 * driven here: its statements would run SQL (fuzz_parser covers that text).
 * Depends on src/server, src/common and what they use.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/common/json.h"
#include "../../src/server/cluster_config.h"
#include "../../src/server/registry.h"
#include "../../src/server/rest.h"
#include "../../src/server/rest_path.h"

static const char *const METHODS[] = {"GET", "POST", "PATCH", "DELETE", "PUT", "HEAD"};
static const char *const QUERY_KEYS[] = {"mode", "get", "agg", "subtasks", "targetDirectory", "cancel-job",
                                         "drain", "formatType", "rowFormat", "token", ""};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *method = METHODS[data[0] % (sizeof METHODS / sizeof METHODS[0])];
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char *query = strchr(text, '\n');
    char *body = "";
    if (query) {
        *query++ = 0;
        char *b = strchr(query, '\n');
        if (b) { *b++ = 0; body = b; }
    } else {
        query = "";
    }
    size_t body_len = strlen(body);

    WRestPath rp;
    (void)wrest_path_split(&rp, text, WREST_PATH_SEGMENTS);
    char buf[256];
    for (size_t i = 0; i < sizeof QUERY_KEYS / sizeof QUERY_KEYS[0]; i++)
        (void)wrest_query(query, QUERY_KEYS[i], buf, sizeof buf);

    WArena a;
    warena_init(&a, 0);
    char jerr[256];
    (void)wjson_parse(&a, body, body_len, true, jerr, sizeof jerr);
    warena_free(&a);
    json_error_t je;
    json_t *doc = json_loadb(body, body_len, 0, &je);
    json_decref(doc);

    static WClusterConfig cfg;
    static WRegistry reg;
    static WRest rest;
    static int ready;
    if (!ready) {
        wcluster_config_init(&cfg);
        wregistry_init(&reg, &cfg);
        wrest_init(&rest, &reg, &cfg, "127.0.0.1", 8081);
        ready = 1;
    }
    json_t *out = NULL;
    (void)wrest_handle(&rest, method, text, query, body, body_len, &out);
    json_decref(out);
    free(text);
    return 0;
}
