/*
 * memsize.h — Flink's MemorySize text ('64 mb', '1gb', '512 kibibytes', '1024'): a number of bytes
 * with an optional unit (b, k/kb/kibibytes, m/mb/mebibytes, g/gb/gibibytes, t/tb/tebibytes; any
 * case, spaces around). Used by the options that take a memory size. Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_MEMSIZE_H
#define WEIR_COMMON_MEMSIZE_H

#include <stdbool.h>
#include <stdint.h>

/* false when the text is not a memory size or does not fit in int64 bytes */
bool wmemsize_parse(const char *text, int64_t *out_bytes);

#endif
