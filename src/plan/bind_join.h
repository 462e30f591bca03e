/* bind_join.h — private: join and subquery binding (bind_join.c), used by bind.c. */
#ifndef WEIR_PLAN_BIND_JOIN_H
#define WEIR_PLAN_BIND_JOIN_H

#include "bind_internal.h"

typedef WRel *(*BindFromFn)(void *q, AstFrom *f, BScope *scope);

WRel *bind_join_rel(BindCtx *b, WRel *l, BScope *ls, WRel *r, BScope *rs, AstFrom *f, BScope *out);
bool ast_has_subquery_conjunct(const AstExpr *e);
const char *scope_single_name(const BScope *s);
/* l = r with Flink's operand coercion; NULL with the error set (at pos). */
WExpr *bind_make_eq(BindCtx *b, WExpr *l, WExpr *r, AstPos pos);
/* Split e into its AND conjuncts (at most max). */
void bind_ast_conjuncts(AstExpr *e, AstExpr **out, int *n, int max);
/* Turn IN/EXISTS conjuncts of `where` into semi/anti joins over `in`; *rest gets the other
   conjuncts (NULL if none). */
WRel *bind_where_subqueries(BindCtx *b, WRel *in, BScope *s, AstExpr *where, AstExpr **rest,
                            BindFromFn bind_from_fn, void *q);

#endif
