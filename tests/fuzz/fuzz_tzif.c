/*
 * fuzz_tzif.c — libFuzzer target for the TZif reader (src/types/timezone.c): every input is read
 * as a time zone file (RFC 8536, versions 1-4, with the POSIX TZ footer); when accepted, offsets
 * are asked for instants and local times across the whole range, DST rules included.
 * Seeds: files of the system's tzdata (tests/fuzz/seeds/tzif). Depends on src/types, src/common.
 */
#include <stddef.h>
#include <stdint.h>

#include "../../src/types/datetime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    WError err;
    werr_clear(&err);
    WTimeZone *tz = wtz_from_tzif("Fuzz/Zone", data, size, &err);
    if (!tz) return 0;
    static const int64_t probes[] = {INT64_MIN / 2, -62135596800000LL, -2208988800000LL, -1, 0, 1,
                                     946684800000LL, 1700000000000LL, 2147483647000LL, 4102444800000LL,
                                     253402300799000LL, INT64_MAX / 2};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        (void)wtz_offset_at_instant(tz, probes[i]);
        (void)wtz_offset_for_local(tz, probes[i]);
    }
    wtz_free(tz);
    return 0;
}
