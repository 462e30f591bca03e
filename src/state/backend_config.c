/*
 * backend_config.c — the state backend's options from a configuration (state.h:
 * wstate_backend_config): `state.backend.type` / `state.backend` and the state.backend.rocksdb.*
 * options weir reads (localdir, block.cache-size, writebuffer.size, and weir's own
 * weir.write-cache-entries). Calls common/ only.
 */
#include "state.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WRITE_CACHE_KEY "state.backend.rocksdb.weir.write-cache-entries"

static bool parse_memory(const char *s, int64_t *out)
{
    char *end;
    while (*s == ' ') s++;
    if (*s < '0' || *s > '9') return false;
    unsigned long long v = strtoull(s, &end, 10);
    while (*end == ' ') end++;
    int64_t mul = 1;
    if (*end) {
        static const struct { const char *u; int64_t m; } units[] = {
            {"b", 1}, {"bytes", 1}, {"k", 1LL << 10}, {"kb", 1LL << 10}, {"kibibytes", 1LL << 10},
            {"m", 1LL << 20}, {"mb", 1LL << 20}, {"mebibytes", 1LL << 20}, {"g", 1LL << 30},
            {"gb", 1LL << 30}, {"gibibytes", 1LL << 30}, {"t", 1LL << 40}, {"tb", 1LL << 40},
            {"tebibytes", 1LL << 40}};
        size_t i;
        for (i = 0; i < sizeof units / sizeof units[0]; i++) if (strcasecmp(end, units[i].u) == 0) break;
        if (i == sizeof units / sizeof units[0]) return false;
        mul = units[i].m;
    }
    if (v > (unsigned long long)(INT64_MAX / mul)) return false;
    *out = (int64_t)v * mul;
    return true;
}

static bool memory_option(const WOptions *c, const char *key, int64_t *out, WError *err)
{
    const char *v = wopts_get(c, key);
    if (!v) return true;
    if (!parse_memory(v, out)) {
        werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value '%s' for key '%s'.", v, key);
        return false;
    }
    return true;
}

bool wstate_backend_config(const WOptions *config, WStateBackendType *type, WRocksDBConfig *rcfg,
                           WError *err)
{
    *type = WSTATE_BACKEND_HASHMAP;
    if (rcfg) memset(rcfg, 0, sizeof *rcfg);
    if (!config) return true;
    const char *name = wopts_get(config, "state.backend.type");
    if (!name) name = wopts_get(config, "state.backend");
    if (name) {
        if (strcasecmp(name, "hashmap") == 0 || strcasecmp(name, "filesystem") == 0 ||
            strcasecmp(name, "jobmanager") == 0) {
            *type = WSTATE_BACKEND_HASHMAP;
        } else if (strcasecmp(name, "rocksdb") == 0) {
            *type = WSTATE_BACKEND_ROCKSDB;
        } else {
            werr_set(err, "org.apache.flink.util.DynamicCodeLoadingException",
                     "Cannot find configured state backend factory class: %s", name);
            return false;
        }
    }
    if (!rcfg) return true;
    rcfg->local_dir = wopts_get(config, "state.backend.rocksdb.localdir");
    if (!memory_option(config, "state.backend.rocksdb.block.cache-size", &rcfg->block_cache_bytes, err) ||
        !memory_option(config, "state.backend.rocksdb.writebuffer.size", &rcfg->write_buffer_bytes, err))
        return false;
    const char *wc = wopts_get(config, WRITE_CACHE_KEY);
    if (wc) {
        char *end;
        while (*wc == ' ') wc++;
        errno = 0;
        long long n = *wc >= '0' && *wc <= '9' ? strtoll(wc, &end, 10) : -1;
        if (n >= 0) while (*end == ' ') end++;
        if (n < 0 || errno || *end || n > INT32_MAX) {
            werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value '%s' for key '%s'.",
                     wopts_get(config, WRITE_CACHE_KEY), WRITE_CACHE_KEY);
            return false;
        }
        rcfg->write_cache_entries = n == 0 ? -1 : n;
    }
    return true;
}
