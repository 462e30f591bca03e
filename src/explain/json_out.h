/*
 * json_out.h — writing a jansson value in the layout of Flink's Jackson pretty printer (compiled
 * plans, JSON execution plans). Depends on common/strbuf.h and jansson.
 */
#ifndef WEIR_EXPLAIN_JSON_OUT_H
#define WEIR_EXPLAIN_JSON_OUT_H

#include <jansson.h>
#include "../common/strbuf.h"

void wjson_pretty(json_t *v, WStrBuf *out);

#endif
