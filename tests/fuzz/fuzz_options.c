/*
 * fuzz_options.c — libFuzzer target for option values and configuration text: every input is
 * parsed as a duration ('30 min', '1d'), a memory size ('64 mb'), a boolean / integer / duration
 * option value, the state backend options that take them (state.h), and as a Flink config.yaml
 * (the cluster configuration's YAML subset, flattened to keys).
 * Depends on src/common, src/state (backend options), src/server (cluster_config).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/common/duration.h"
#include "../../src/common/options.h"
#include "../../src/server/cluster_config.h"
#include "../../src/state/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    WError err;
    int64_t v;
    bool b;

    werr_clear(&err);
    (void)wduration_parse(text, &v, &err);

    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "k", text);
    werr_clear(&err);
    (void)wopts_get_bool(&o, "k", false, &b, &err);
    werr_clear(&err);
    (void)wopts_get_long(&o, "k", 0, &v, &err);
    werr_clear(&err);
    (void)wopts_get_duration_ms(&o, "k", 0, &v, &err);
    werr_clear(&err);
    (void)wopts_get_bytes(&o, "k", 0, &v, &err);
    wopts_set(&o, "state.backend.type", text);
    wopts_set(&o, "state.backend.rocksdb.block.cache-size", text);
    wopts_set(&o, "state.backend.rocksdb.weir.write-cache-entries", text);
    WStateBackendType type;
    WRocksDBConfig rcfg;
    werr_clear(&err);
    (void)wstate_backend_config(&o, &type, &rcfg, &err);
    wopts_free(&o);

    WOptions yaml;
    wopts_init(&yaml);
    werr_clear(&err);
    (void)wyaml_flatten(text, "config.yaml", &yaml, &err);
    wopts_free(&yaml);
    free(text);
    return 0;
}
