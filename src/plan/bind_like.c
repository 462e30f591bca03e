/*
 * bind_like.c — CREATE TABLE ... LIKE: merges the statement with its base table's definition
 * (given as the base's own parsed CREATE TABLE) into one CREATE TABLE statement, with Flink's
 * MergeTableLikeUtil rules: per feature (constraints, partitions, watermarks, generated and
 * metadata columns, options) INCLUDING, EXCLUDING or OVERWRITING; default INCLUDING ALL
 * OVERWRITING OPTIONS; physical columns of the base always come first. Flink's messages for the
 * conflicts. Works on the AST only; wbind_create_table then binds the merged statement.
 */
#include "plan.h"
#include "../common/arena.h"

#include <string.h>

static const char *const FEATURE_NAME[] = {"ALL", "CONSTRAINTS", "PARTITIONS", "WATERMARKS", "GENERATED",
                                           "METADATA", "OPTIONS", "DISTRIBUTION"};
static const char *const MODE_NAME[] = {"INCLUDING", "EXCLUDING", "OVERWRITING"};

static int find_col(const AstColumnDef *cols, int n, const char *name)
{
    for (int i = 0; i < n; i++) if (strcmp(cols[i].name, name) == 0) return i;
    return -1;
}

AstStmt *wbind_merge_like(WPlanCtx *p, const AstStmt *s, const AstStmt *base)
{
    WArena *a = p->arena;
    /* merging strategies: INCLUDING ALL OVERWRITING OPTIONS unless the clause says otherwise */
    AstLikeMode mode[8];
    for (int f = 0; f < 8; f++) mode[f] = ALM_INCLUDING;
    mode[ALF_OPTIONS] = ALM_OVERWRITING;
    for (int i = 0; i < s->nlike_opts; i++) {
        AstLikeFeature f = s->like_feature[i];
        AstLikeMode m = s->like_mode[i];
        if (m == ALM_OVERWRITING && (f == ALF_CONSTRAINTS || f == ALF_PARTITIONS || f == ALF_DISTRIBUTION)) {
            werr_set(p->err, WEXC_VALIDATION, "Illegal merging strategy '%s' for '%s' option.", MODE_NAME[m],
                     FEATURE_NAME[f]);
            return NULL;
        }
        if (f == ALF_ALL) {
            for (int k = 1; k < 8; k++)
                mode[k] = m == ALM_OVERWRITING && (k == ALF_CONSTRAINTS || k == ALF_PARTITIONS ||
                                                   k == ALF_DISTRIBUTION) ? ALM_INCLUDING : m;
        } else {
            mode[f] = m;
        }
    }
    AstStmt *m = WA_NEW(a, AstStmt);
    *m = *s;
    m->like_table.n = 0;
    m->nlike_opts = 0;

    /* columns: the base's (computed / metadata ones unless excluded), then the new ones */
    int cap = base->ncols + s->ncols;
    AstColumnDef *cols = WA_ARRAY(a, AstColumnDef, cap ? cap : 1);
    int n = 0;
    for (int i = 0; i < base->ncols; i++) {
        const AstColumnDef *c = &base->cols[i];
        if (c->computed && mode[ALF_GENERATED] == ALM_EXCLUDING) continue;
        if (c->metadata && mode[ALF_METADATA] == ALM_EXCLUDING) continue;
        cols[n] = *c;
        cols[n].primary_key = false;
        n++;
    }
    for (int i = 0; i < s->ncols; i++) {
        const AstColumnDef *c = &s->cols[i];
        int k = find_col(cols, n, c->name);
        if (k < 0) { cols[n++] = *c; continue; }
        const AstColumnDef *b = &cols[k];
        if (b->computed && c->computed && mode[ALF_GENERATED] == ALM_OVERWRITING) { cols[k] = *c; continue; }
        if (b->metadata && c->metadata && mode[ALF_METADATA] == ALM_OVERWRITING) { cols[k] = *c; continue; }
        if (b->computed)
            werr_set(p->err, WEXC_VALIDATION, "A generated column named '%s' already exists in the base table. You "
                     "might want to specify EXCLUDING GENERATED or OVERWRITING GENERATED.", c->name);
        else if (b->metadata)
            werr_set(p->err, WEXC_VALIDATION, "A metadata column named '%s' already exists in the base table. You "
                     "might want to specify EXCLUDING METADATA or OVERWRITING METADATA.", c->name);
        else
            werr_set(p->err, WEXC_VALIDATION, "A column named '%s' already exists in the base table.", c->name);
        return NULL;
    }
    m->cols = cols;
    m->ncols = n;

    /* watermark */
    bool new_wm = s->wm_column != NULL;
    if (base->wm_column && mode[ALF_WATERMARKS] != ALM_EXCLUDING) {
        if (new_wm && mode[ALF_WATERMARKS] == ALM_INCLUDING) {
            werr_set(p->err, WEXC_VALIDATION, "There already exists a watermark spec for column '%s' in the base "
                     "table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.",
                     base->wm_column);
            return NULL;
        }
        if (!new_wm) {
            m->wm_column = base->wm_column;
            m->wm_expr = base->wm_expr;
            m->wm_pos = base->wm_pos;
        }
    }

    /* primary key */
    bool base_pk = base->npk > 0;
    for (int i = 0; i < base->ncols; i++) if (base->cols[i].primary_key) base_pk = true;
    bool new_pk = s->npk > 0;
    for (int i = 0; i < s->ncols; i++) if (s->cols[i].primary_key) new_pk = true;
    if (base_pk && mode[ALF_CONSTRAINTS] == ALM_INCLUDING) {
        if (new_pk) {
            werr_set(p->err, WEXC_VALIDATION,
                     "The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.");
            return NULL;
        }
        if (base->npk) {
            m->npk = base->npk;
            m->pk_cols = base->pk_cols;
            m->pk_enforced = false;
        } else {
            for (int i = 0; i < base->ncols; i++)
                if (base->cols[i].primary_key) {
                    int k = find_col(cols, n, base->cols[i].name);
                    if (k >= 0) cols[k].primary_key = true;
                }
        }
    }

    /* partitions */
    if (base->npartitioned && mode[ALF_PARTITIONS] == ALM_INCLUDING) {
        if (s->npartitioned) {
            werr_set(p->err, WEXC_VALIDATION,
                     "The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.");
            return NULL;
        }
        m->npartitioned = base->npartitioned;
        m->partitioned_by = base->partitioned_by;
    }

    /* options */
    if (mode[ALF_OPTIONS] != ALM_EXCLUDING && base->noptions) {
        int total = base->noptions + s->noptions;
        AstOption *opts = WA_ARRAY(a, AstOption, total);
        int no = 0;
        for (int i = 0; i < base->noptions; i++) opts[no++] = base->options[i];
        for (int i = 0; i < s->noptions; i++) {
            int k = -1;
            for (int j = 0; j < no && k < 0; j++) if (strcmp(opts[j].key, s->options[i].key) == 0) k = j;
            if (k < 0) { opts[no++] = s->options[i]; continue; }
            if (mode[ALF_OPTIONS] == ALM_INCLUDING) {
                werr_set(p->err, WEXC_VALIDATION, "There already exists an option ['%s' -> '%s']  in the base table. "
                         "You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.", opts[k].key,
                         opts[k].value);
                return NULL;
            }
            opts[k] = s->options[i];
        }
        m->options = opts;
        m->noptions = no;
    }
    return m;                               /* the comment is the new table's own, as in Flink */
}
