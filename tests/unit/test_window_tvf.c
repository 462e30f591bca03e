/* test_window_tvf.c — window table functions (exec/window_tvf.c, SESSION in window_session.c). */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"

#include <stdlib.h>
#include <string.h>
