/*
 * jar_statements.c — ADD JAR, REMOVE JAR and SHOW JARS with Flink 2.3's answers. weir runs no Java
 * code, so no jar is ever added to a session: a file that does not exist fails with Flink's
 * FileNotFoundException, an existing file without the .jar suffix with Flink's ValidationException,
 * ADD JAR of an existing jar is refused with a message saying why, REMOVE JAR of one succeeds as in
 * Flink for a jar that was never added, and SHOW JARS is always empty.
 * Paths are checked as Flink's resource manager checks them: a relative path against the working
 * directory of the client (weir's process). See session_internal.h.
 */
#include "session_internal.h"

#include <assert.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static bool missing(const char *path, WError *err)
{
    return werr_set(err, "java.io.FileNotFoundException", "jar or artifact resource [%s] not found.", path);
}

bool wsession_jar_statement(const AstStmt *st, WStmtResult *res, WError *err)
{
    if (st->kind == AS_SHOW) {
        static const char *const COL[] = {"jars"};
        wres_table(res, 1, COL);
        res->empty_as_empty_set = true;
        return true;
    }
    assert(st->kind == AS_ADD_JAR || st->kind == AS_REMOVE_JAR);
    const char *path = st->value;
    /* as Flink: the file must exist (checked first), then have the .jar suffix (measured) */
    if (!exists(path)) return missing(path, err);
    size_t n = strlen(path);
    if (n < 4 || strcasecmp(path + n - 4, ".jar") != 0)
        return werr_set(err, WEXC_VALIDATION,
                        "The registering or unregistering resource [%s] must end with a '.jar' suffix.", path);
    if (st->kind == AS_ADD_JAR)
        return werr_set(err, WEXC_TABLE,
                        "ADD JAR is not supported in weir: weir runs no Java code, so the jar [%s] cannot be "
                        "loaded.", path);
    /* an existing jar that was never added: Flink removes nothing and succeeds (measured) */
    res->kind = WSR_OK;
    return true;
}

bool wsession_is_jar_statement(const AstStmt *st)
{
    return st->kind == AS_ADD_JAR || st->kind == AS_REMOVE_JAR || (st->kind == AS_SHOW && st->show == ASH_JARS);
}
