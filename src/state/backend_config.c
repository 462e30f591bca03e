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

static bool memory_option(const WOptions *c, const char *key, int64_t *out, WError *err)
{
    return !wopts_get(c, key) || wopts_get_bytes(c, key, 0, out, err);
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
