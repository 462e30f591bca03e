/*
 * replay_main.c — runs a libFuzzer target's LLVMFuzzerTestOneInput over files without libFuzzer:
 * linked with the ASan+UBSan test build (gcc) so that `make test` replays every seed and every
 * kept regression input (tests/fuzz/seeds/<target>, tests/fuzz/regressions/<target>) in seconds.
 * Usage: fuzz-replay-<target> FILE... ; prints "replayed N inputs" (a sanitizer report aborts).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) { fprintf(stderr, "cannot read %s\n", argv[i]); return 2; }
        size_t cap = 1 << 16, len = 0;
        uint8_t *buf = malloc(cap);
        size_t r;
        while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
            len += r;
            if (len == cap) buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf) return 2;
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        n++;
    }
    printf("replayed %d inputs\n", n);
    return 0;
}
