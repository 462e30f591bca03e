/*
 * fuzz_checkpoint.c — libFuzzer target for the files a restore reads: checkpoint/savepoint
 * _metadata (runtime/checkpoint_restore.c), a keyed-state snapshot (its _keyed_state manifest and a state
 * file, state/snapshot.c, restored into a heap backend) and a timer snapshot (state/timers.c).
 * Every file carries a CRC32C, so a random file is refused at its checksum; to reach the parsers
 * behind it, the target frames the input as weir writes it (magic, payload, CRC32C, end magic)
 * and writes the manifest's checksum and the file's size and CRC itself. What is fuzzed is
 * therefore a file that passes the checksum but whose content is anything: it must be refused with
 * an error or restored, never trusted past its bounds. The first byte picks the file; for the
 * keyed state the rest is "<manifest lines>\0<state file payload>".
 * Depends on src/runtime (checkpoint), src/state, src/common.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/common/options.h"
#include "../../src/runtime/checkpoint.h"
#include "../../src/state/snapshot.h"
#include "../../src/state/state.h"
#include "../../src/state/timers.h"

static char root[64];

/* magic | payload | CRC32C(magic | payload) big-endian | end magic; returns the data part's CRC */
static uint32_t write_framed(const char *path, const char magic[8], const uint8_t *p, size_t n, const char end[4],
                             int64_t *size)
{
    uint32_t crc = wsnap_crc32c(0, magic, 8);
    crc = wsnap_crc32c(crc, p, n);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fwrite(magic, 1, 8, f);
    fwrite(p, 1, n, f);
    unsigned char t[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16), (unsigned char)(crc >> 8),
                          (unsigned char)crc};
    fwrite(t, 1, 4, f);
    fwrite(end, 1, 4, f);
    fclose(f);
    if (size) *size = (int64_t)(8 + n + 8);
    return crc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (!*root) {
        snprintf(root, sizeof root, "/tmp/weir-fuzz-ckpt-%d", (int)getpid());
        WError e;
        werr_clear(&e);
        if (!wsnap_mkdirs(root, &e)) abort();
    }
    char dir[128], path[192];
    snprintf(dir, sizeof dir, "%s/chk-1", root);
    wsnap_rmtree(dir);
    WError err;
    werr_clear(&err);
    if (!wsnap_mkdirs(dir, &err)) abort();
    const uint8_t *p = data + 1;
    size_t n = size - 1;

    switch (data[0] % 3) {
    case 0: {   /* _metadata, read when a job restores from the directory */
        snprintf(path, sizeof path, "%s/_metadata", dir);
        write_framed(path, "WEIRCKP1", p, n, "WEND", NULL);
        WOptions o;
        wopts_init(&o);
        wopts_set(&o, "execution.savepoint.path", dir);
        wopts_set(&o, "execution.checkpointing.interval", "1 s");
        WCkpt *c = wckpt_new(&o, NULL, 1, &err);
        if (c) {
            int maxp = 0;
            WError e2;
            werr_clear(&e2);
            (void)wckpt_max_parallelism(c, 0, 128, &maxp, &e2);
            wckpt_free(c);
        }
        wopts_free(&o);
        break;
    }
    case 1: {   /* a keyed-state snapshot: manifest + one local state file, restored into a heap backend */
        const uint8_t *z = memchr(p, 0, n);
        size_t mlen = z ? (size_t)(z - p) : n;
        const uint8_t *sp = z ? z + 1 : p + n;
        size_t slen = z ? n - mlen - 1 : 0;
        snprintf(path, sizeof path, "%s/s0", dir);
        int64_t fsize;
        uint32_t crc = write_framed(path, "WEIRKST1", sp, slen, "WKSE", &fsize);
        char *text = malloc(mlen + 128);
        memcpy(text, p, mlen);
        int len = (int)mlen;
        len += snprintf(text + len, 128, "%sfile private %lld %08x s0\n", mlen && p[mlen - 1] != '\n' ? "\n" : "",
                        (long long)fsize, crc);
        char *line = malloc((size_t)len + 32);
        memcpy(line, text, (size_t)len);
        snprintf(line + len, 32, "checksum %08x\n", wsnap_crc32c(0, text, (size_t)len));
        snprintf(path, sizeof path, "%s/%s", dir, WSNAP_MANIFEST);
        FILE *f = fopen(path, "wb");
        if (!f) abort();
        fputs(line, f);
        fclose(f);
        free(text);
        free(line);
        WStateBackendConfig cfg = {.operator_name = "fuzz", .max_parallelism = 128};
        WStateBackend *b = wstate_heap_new(&cfg);
        const char *dirs[1] = {dir};
        (void)wstate_restore(b, dirs, 1, 0, 127, &err);
        wstate_backend_free(b);
        break;
    }
    default: {  /* a timer snapshot */
        snprintf(path, sizeof path, "%s/timers", dir);
        write_framed(path, "WEIRTMR1", p, n, "WTME", NULL);
        WTimerService *t = wtimers_new();
        const char *paths[1] = {path};
        (void)wtimers_restore(t, paths, 1, 128, 0, 63, &err);
        wtimers_free(t);
        break;
    }
    }
    return 0;
}
