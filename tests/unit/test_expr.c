/* test_expr.c — unit tests for src/expr: evaluator (null propagation, three-valued logic, lazy
   CASE/COALESCE/IF, IN, CAST), arithmetic and comparison operators with Flink's types and errors. */
#include "test_expr_util.h"

/* ---------------------------------------------------------------- arithmetic */

WTEST(expr_int_arith_types_and_values)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *x = t_call(&e, "+", 2, t_int(&e, 2), t_int(&e, 3));
    CHECK_STR(t_type(&e, x), "INT NOT NULL");
    CHECK_STR(t_eval(&e, x), "5");
    x = t_call(&e, "+", 2, t_int(&e, 2), t_bigint(&e, 3));
    CHECK_STR(t_type(&e, x), "BIGINT NOT NULL");
    /* INT / INT is integer division */
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_int(&e, 7), t_int(&e, 2))), "3");
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_int(&e, -7), t_int(&e, 2))), "-3");
    CHECK_STR(t_eval(&e, t_call(&e, "%", 2, t_int(&e, -7), t_int(&e, 3))), "-1");
    CHECK_STR(t_eval(&e, t_call(&e, "MOD", 2, t_int(&e, 7), t_int(&e, -3))), "1");
    /* Java int overflow wraps */
    CHECK_STR(t_eval(&e, t_call(&e, "+", 2, t_int(&e, 2147483647), t_int(&e, 1))), "-2147483648");
    CHECK_STR(t_eval(&e, t_call(&e, "*", 2, t_bigint(&e, INT64_MAX), t_bigint(&e, 2))), "-2");
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_bigint(&e, INT64_MIN), t_bigint(&e, -1))), "-9223372036854775808");
    CHECK_STR(t_eval(&e, t_call(&e, "NEG", 1, t_int(&e, 5))), "-5");
    tenv_free(&e);
}

WTEST(expr_division_by_zero)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_int(&e, 1), t_int(&e, 0))), "ERR:java.lang.ArithmeticException: / by zero");
    CHECK_STR(t_eval(&e, t_call(&e, "%", 2, t_int(&e, 1), t_int(&e, 0))), "ERR:java.lang.ArithmeticException: / by zero");
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_double(&e, 1), t_double(&e, 0))), "inf");
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_dec(&e, 100, 3, 2), t_dec(&e, 0, 3, 2))),
              "ERR:java.lang.ArithmeticException: Division by zero");
    CHECK_STR(t_eval(&e, t_call(&e, "/", 2, t_dec(&e, 0, 3, 2), t_dec(&e, 0, 3, 2))),
              "ERR:java.lang.ArithmeticException: Division undefined");
    tenv_free(&e);
}

WTEST(expr_decimal_arith)
{
    TEnv e;
    tenv_init(&e, NULL);
    /* 1.50 + 2 -> DECIMAL(13, 2) */
    WExpr *x = t_call(&e, "+", 2, t_dec(&e, 150, 3, 2), t_int(&e, 2));
    CHECK_STR(t_type(&e, x), "DECIMAL(13, 2) NOT NULL");
    CHECK_STR(t_eval(&e, x), "3.50");
    /* 1.5 * 1.5 */
    x = t_call(&e, "*", 2, t_dec(&e, 15, 2, 1), t_dec(&e, 15, 2, 1));
    CHECK_STR(t_type(&e, x), "DECIMAL(5, 2) NOT NULL");
    CHECK_STR(t_eval(&e, x), "2.25");
    /* 10.00 / 3 -> scale max(6, s1 + p2 + 1) */
    x = t_call(&e, "/", 2, t_dec(&e, 1000, 4, 2), t_dec(&e, 3, 1, 0));
    CHECK_STR(t_type(&e, x), "DECIMAL(8, 6) NOT NULL");
    CHECK_STR(t_eval(&e, x), "3.333333");
    /* HALF_UP: 2 / 3 */
    x = t_call(&e, "/", 2, t_dec(&e, 2, 1, 0), t_dec(&e, 3, 1, 0));
    CHECK_STR(t_eval(&e, x), "0.666667");
    x = t_call(&e, "/", 2, t_dec(&e, -2, 1, 0), t_dec(&e, 3, 1, 0));
    CHECK_STR(t_eval(&e, x), "-0.666667");
    /* overflow gives NULL */
    x = t_call(&e, "*", 2, t_dec(&e, 99999999999999999LL, 38, 0), t_dec(&e, 99999999999999999LL, 38, 0));
    CHECK_STR(t_type(&e, x), "DECIMAL(38, 0) NOT NULL");
    WExpr *big = t_dec(&e, 0, 38, 0);
    big->lit.dec = wpow10_i128(37) * 9;
    x = t_call(&e, "*", 2, big, t_dec(&e, 20, 38, 0));
    CHECK_STR(t_eval(&e, x), "NULL");
    /* DECIMAL % */
    x = t_call(&e, "%", 2, t_dec(&e, -755, 3, 2), t_dec(&e, 2, 1, 0));
    CHECK_STR(t_eval(&e, x), "-1.55");
    tenv_free(&e);
}

WTEST(expr_double_and_mixed)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *x = t_call(&e, "+", 2, t_int(&e, 1), t_double(&e, 0.5));
    CHECK_STR(t_type(&e, x), "DOUBLE NOT NULL");
    CHECK_STR(t_eval(&e, x), "1.5");
    x = t_call(&e, "*", 2, t_dec(&e, 15, 2, 1), t_double(&e, 2));
    CHECK_STR(t_eval(&e, x), "3");
    tenv_free(&e);
}

WTEST(expr_arith_errors)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(t_eval(&e, t_call(&e, "+", 2, t_int(&e, 1), t_bool(&e, true))),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Cannot apply '+' to arguments of type "
              "'<INTEGER> + <BOOLEAN>'. Supported form(s): '<NUMERIC> + <NUMERIC>'\n'<DATETIME_INTERVAL> + "
              "<DATETIME_INTERVAL>'\n'<DATETIME> + <DATETIME_INTERVAL>'\n'<DATETIME_INTERVAL> + <DATETIME>'");
    CHECK_STR(t_eval(&e, t_call(&e, "MOD", 2, t_double(&e, 1), t_int(&e, 2))),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Cannot apply 'MOD' to arguments of type "
              "'MOD(<DOUBLE>, <INTEGER>)'. Supported form(s): 'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'");
    tenv_free(&e);
}

WTEST(expr_temporal_arith)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *day = t_lit(&e, wtype_interval(e.a, WT_INTERVAL_DT, WIQ_DAY, 2, 3, false), WDATUM_I(86400000));
    WExpr *month = t_lit(&e, wtype_interval(e.a, WT_INTERVAL_YM, WIQ_MONTH, 2, 0, false), WDATUM_I(1));
    WExpr *x = t_call(&e, "+", 2, t_ts(&e, "2020-01-31 10:00:00", 3), month);
    CHECK_STR(t_type(&e, x), "TIMESTAMP(3) NOT NULL");
    CHECK_STR(t_eval(&e, x), "2020-02-29 10:00:00.000");
    CHECK_STR(t_eval(&e, t_call(&e, "-", 2, t_date(&e, "2020-03-01"), day)), "2020-02-29");
    CHECK_STR(t_eval(&e, t_call(&e, "+", 2, day, t_date(&e, "2020-12-31"))), "2021-01-01");
    tenv_free(&e);
}

/* ---------------------------------------------------------------- comparison */

WTEST(expr_compare_numeric_coercion)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *x = t_call(&e, "=", 2, t_int(&e, 1), t_dec(&e, 100, 3, 2));
    CHECK_STR(t_type(&e, x), "BOOLEAN NOT NULL");
    CHECK(x && x->args[0]->kind == WX_CAST);
    CHECK_STR(t_eval(&e, t_call(&e, "<", 2, t_int(&e, 1), t_double(&e, 1.5))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, ">=", 2, t_bigint(&e, 2), t_int(&e, 2))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "<>", 2, t_str(&e, "a"), t_str(&e, "b"))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "<", 2, t_str(&e, "abc"), t_str(&e, "abd"))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "<", 2, t_str(&e, "ab"), t_str(&e, "abc"))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "=", 2, t_double(&e, NAN), t_double(&e, NAN))), "FALSE");
    CHECK_STR(t_eval(&e, t_call(&e, "<", 2, t_ts(&e, "2020-01-01 00:00:00", 3), t_ts(&e, "2020-01-01 00:00:01", 0))), "TRUE");
    /* NULL operand -> NULL */
    CHECK_STR(t_eval(&e, t_call(&e, "=", 2, t_int(&e, 1), t_null(&e, &WTYPE_INT))), "NULL");
    CHECK_STR(t_type(&e, t_call(&e, "=", 2, t_int(&e, 1), t_null(&e, &WTYPE_INT))), "BOOLEAN");
    tenv_free(&e);
}

WTEST(expr_compare_errors)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(t_eval(&e, t_call(&e, "=", 2, t_int(&e, 1), t_bool(&e, true))),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Cannot apply '=' to arguments of type "
              "'<INTEGER> = <BOOLEAN>'. Supported form(s): '<COMPARABLE_TYPE> = <COMPARABLE_TYPE>'");
    tenv_free(&e);
}

WTEST(expr_is_distinct_and_is_true)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *nul = t_null(&e, &WTYPE_INT);
    CHECK_STR(t_eval(&e, t_call(&e, "IS DISTINCT FROM", 2, t_int(&e, 1), nul)), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "IS DISTINCT FROM", 2, t_null(&e, &WTYPE_INT), t_null(&e, &WTYPE_INT))), "FALSE");
    CHECK_STR(t_eval(&e, t_call(&e, "IS NOT DISTINCT FROM", 2, t_int(&e, 1), t_int(&e, 1))), "TRUE");
    CHECK_STR(t_type(&e, t_call(&e, "IS DISTINCT FROM", 2, t_int(&e, 1), t_null(&e, &WTYPE_INT))), "BOOLEAN NOT NULL");
    WExpr *nb = t_null(&e, &WTYPE_BOOLEAN);
    CHECK_STR(t_eval(&e, t_call(&e, "IS TRUE", 1, nb)), "FALSE");
    CHECK_STR(t_eval(&e, t_call(&e, "IS NOT TRUE", 1, t_null(&e, &WTYPE_BOOLEAN))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "IS FALSE", 1, t_bool(&e, false))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "IS NOT FALSE", 1, t_null(&e, &WTYPE_BOOLEAN))), "TRUE");
    CHECK_STR(t_eval(&e, t_call(&e, "IS UNKNOWN", 1, t_null(&e, &WTYPE_BOOLEAN))), "TRUE");
    tenv_free(&e);
}

/* ---------------------------------------------------------------- logic */

WTEST(expr_three_valued_logic)
{
    TEnv e;
    tenv_init(&e, NULL);
    const char *expect_and[3][3] = { { "TRUE", "FALSE", "NULL" }, { "FALSE", "FALSE", "FALSE" }, { "NULL", "FALSE", "NULL" } };
    const char *expect_or[3][3] = { { "TRUE", "TRUE", "TRUE" }, { "TRUE", "FALSE", "NULL" }, { "TRUE", "NULL", "NULL" } };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            WExpr *a = i == 2 ? t_null(&e, &WTYPE_BOOLEAN) : t_bool(&e, i == 0);
            WExpr *b = j == 2 ? t_null(&e, &WTYPE_BOOLEAN) : t_bool(&e, j == 0);
            CHECK_STR(t_eval(&e, t_node(&e, WX_AND, &WTYPE_BOOLEAN, 2, a, b)), expect_and[i][j]);
            CHECK_STR(t_eval(&e, t_node(&e, WX_OR, &WTYPE_BOOLEAN, 2, a, b)), expect_or[i][j]);
        }
    CHECK_STR(t_eval(&e, t_node(&e, WX_NOT, &WTYPE_BOOLEAN, 1, t_null(&e, &WTYPE_BOOLEAN))), "NULL");
    CHECK_STR(t_eval(&e, t_node(&e, WX_NOT, &WTYPE_BOOLEAN, 1, t_bool(&e, false))), "TRUE");
    tenv_free(&e);
}

WTEST(expr_and_short_circuits_errors)
{
    TEnv e;
    tenv_init(&e, NULL);
    /* FALSE AND (1/0 = 1): the division is never evaluated */
    WExpr *boom = t_call(&e, "=", 2, t_call(&e, "/", 2, t_int(&e, 1), t_int(&e, 0)), t_int(&e, 1));
    CHECK_STR(t_eval(&e, t_node(&e, WX_AND, &WTYPE_BOOLEAN_NN, 2, t_bool(&e, false), boom)), "FALSE");
    CHECK_STR(t_eval(&e, t_node(&e, WX_OR, &WTYPE_BOOLEAN_NN, 2, t_bool(&e, true), boom)), "TRUE");
    CHECK_STR(t_eval(&e, t_node(&e, WX_OR, &WTYPE_BOOLEAN_NN, 2, t_bool(&e, false), boom)),
              "ERR:java.lang.ArithmeticException: / by zero");
    tenv_free(&e);
}

WTEST(expr_case_is_lazy)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *boom = t_call(&e, "/", 2, t_int(&e, 1), t_int(&e, 0));
    WExpr *c = t_node(&e, WX_CASE, &WTYPE_INT_NN, 3, t_bool(&e, true), t_int(&e, 7), boom);
    c->has_else = true;
    CHECK_STR(t_eval(&e, c), "7");
    c = t_node(&e, WX_CASE, &WTYPE_INT, 2, t_bool(&e, false), boom);
    CHECK_STR(t_eval(&e, c), "NULL");
    c = t_node(&e, WX_CASE, &WTYPE_INT_NN, 5, t_null(&e, &WTYPE_BOOLEAN), boom, t_bool(&e, true), t_int(&e, 2), boom);
    c->has_else = true;
    CHECK_STR(t_eval(&e, c), "2");
    /* COALESCE is lazy too */
    WExpr *co = t_node(&e, WX_COALESCE, &WTYPE_INT_NN, 2, t_int(&e, 3), boom);
    CHECK_STR(t_eval(&e, co), "3");
    co = t_node(&e, WX_COALESCE, &WTYPE_INT, 3, t_null(&e, &WTYPE_INT), t_null(&e, &WTYPE_INT), t_int(&e, 9));
    CHECK_STR(t_eval(&e, co), "9");
    /* IF */
    WExpr *iff = t_call(&e, "IF", 3, t_bool(&e, true), t_int(&e, 5), boom);
    CHECK_STR(t_type(&e, iff), "INT NOT NULL");
    CHECK_STR(t_eval(&e, iff), "5");
    iff = t_call(&e, "IF", 3, t_null(&e, &WTYPE_BOOLEAN), boom, t_int(&e, 6));
    CHECK_STR(t_eval(&e, iff), "6");
    tenv_free(&e);
}

WTEST(expr_in_null_semantics)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 4, t_int(&e, 1), t_int(&e, 1), t_int(&e, 2), t_null(&e, &WTYPE_INT));
    CHECK_STR(t_eval(&e, in), "TRUE");
    in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 4, t_int(&e, 4), t_int(&e, 1), t_int(&e, 2), t_null(&e, &WTYPE_INT));
    CHECK_STR(t_eval(&e, in), "NULL");
    in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 3, t_int(&e, 4), t_int(&e, 1), t_int(&e, 2));
    CHECK_STR(t_eval(&e, in), "FALSE");
    in->negated = true;
    CHECK_STR(t_eval(&e, in), "TRUE");
    in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 3, t_int(&e, 1), t_int(&e, 1), t_null(&e, &WTYPE_INT));
    in->negated = true;
    CHECK_STR(t_eval(&e, in), "FALSE");
    in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 2, t_null(&e, &WTYPE_INT), t_int(&e, 1));
    CHECK_STR(t_eval(&e, in), "NULL");
    in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 3, t_vstr(&e, "b"), t_vstr(&e, "a"), t_vstr(&e, "b"));
    CHECK_STR(t_eval(&e, in), "TRUE");
    WExpr *isn = t_node(&e, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1, t_null(&e, &WTYPE_INT));
    CHECK_STR(t_eval(&e, isn), "TRUE");
    isn->negated = true;
    CHECK_STR(t_eval(&e, isn), "FALSE");
    tenv_free(&e);
}

/* ---------------------------------------------------------------- vectors */

WTEST(expr_vector_eval_with_nulls_and_filter)
{
    TEnv e;
    tenv_init(&e, NULL);
    const WType *types[2] = { &WTYPE_BIGINT, &WTYPE_STRING };
    WChunk *c = wchunk_new(2, types, 8);
    for (int i = 0; i < 6; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[r].i = i;
        c->cols[0].nulls[r] = i == 3;
        const char *s = i % 2 ? "odd" : "even";
        c->cols[1].data[r].s.p = s;
        c->cols[1].data[r].s.len = (int32_t)strlen(s);
        c->cols[1].nulls[r] = i == 5;
    }
    /* a * 10 + 1 */
    WExpr *x = t_call(&e, "+", 2, t_call(&e, "*", 2, t_col(&e, 0, &WTYPE_BIGINT), t_int(&e, 10)), t_int(&e, 1));
    CHECK_STR(t_type(&e, x), "BIGINT");
    WVector out = { x->type, WA_ARRAY(e.a, WDatum, 8), WA_ARRAY(e.a, uint8_t, 8) };
    CHECK(wexpr_eval(&e.ctx, x, c, NULL, &out));
    CHECK_INT(out.data[0].i, 1);
    CHECK_INT(out.data[5].i, 51);
    CHECK_INT(out.nulls[3], 1);
    CHECK_INT(out.nulls[4], 0);
    /* filter: b = 'odd' AND a > 0 */
    WExpr *p = t_node(&e, WX_AND, &WTYPE_BOOLEAN, 2,
                      t_call(&e, "=", 2, t_col(&e, 1, &WTYPE_STRING), t_str(&e, "odd")),
                      t_call(&e, ">", 2, t_col(&e, 0, &WTYPE_BIGINT), t_int(&e, 0)));
    uint8_t sel[8];
    memset(sel, 1, sizeof sel);
    CHECK(wexpr_filter(&e.ctx, p, c, sel));
    CHECK_INT(sel[0], 0);
    CHECK_INT(sel[1], 1);
    CHECK_INT(sel[2], 0);
    CHECK_INT(sel[3], 0);   /* NULL a */
    CHECK_INT(sel[4], 0);
    CHECK_INT(sel[5], 0);   /* NULL b */
    /* a division by zero in a row the CASE does not take does not fail */
    WExpr *cs = t_node(&e, WX_CASE, &WTYPE_BIGINT, 3,
                       t_call(&e, "<>", 2, t_col(&e, 0, &WTYPE_BIGINT), t_int(&e, 0)),
                       t_call(&e, "/", 2, t_bigint(&e, 100), t_col(&e, 0, &WTYPE_BIGINT)),
                       t_bigint(&e, -1));
    cs->has_else = true;
    WVector o2 = { cs->type, WA_ARRAY(e.a, WDatum, 8), WA_ARRAY(e.a, uint8_t, 8) };
    CHECK(wexpr_eval(&e.ctx, cs, c, NULL, &o2));
    CHECK_INT(o2.data[0].i, -1);
    CHECK_INT(o2.data[1].i, 100);
    CHECK_INT(o2.data[4].i, 25);
    CHECK_INT(o2.nulls[3], 0);   /* NULL <> 0 is NULL -> ELSE */
    CHECK_INT(o2.data[3].i, -1);
    wchunk_free(c);
    tenv_free(&e);
}

/* Literal arguments broadcast once for the operator (WEvalCtx.consts, as the Calc runs them):
   the same results chunk after chunk, a chunk larger than the vectors grows them, a NULL literal,
   a string literal, and literals beyond WCONST_VECS_MAX broadcast per chunk as before. */
WTEST(expr_const_vectors_kept_across_chunks)
{
    TEnv e;
    tenv_init(&e, NULL);
    WConstVecs consts;
    memset(&consts, 0, sizeof consts);
    e.ctx.consts = &consts;
    const WType *types[2] = { &WTYPE_BIGINT, &WTYPE_STRING };
    /* a * 10 + 1, b = 'odd', a + NULL, and a + 1 + 1 + ... (WCONST_VECS_MAX + 6 ones) */
    WExpr *x = t_call(&e, "+", 2, t_call(&e, "*", 2, t_col(&e, 0, &WTYPE_BIGINT), t_int(&e, 10)), t_int(&e, 1));
    WExpr *eq = t_call(&e, "=", 2, t_col(&e, 1, &WTYPE_STRING), t_str(&e, "odd"));
    WExpr *pn = t_call(&e, "+", 2, t_col(&e, 0, &WTYPE_BIGINT), t_null(&e, &WTYPE_BIGINT));
    enum { ONES = WCONST_VECS_MAX + 6 };
    WExpr *sum = t_col(&e, 0, &WTYPE_BIGINT);
    for (int k = 0; k < ONES; k++) sum = t_call(&e, "+", 2, sum, t_bigint(&e, 1));
    static const int sizes[] = { 6, 3000, 5, 2048 };
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        int n = sizes[z];
        WChunk *c = wchunk_new(2, types, n);
        for (int i = 0; i < n; i++) {
            int r = wchunk_add_row(c, WRK_INSERT);
            c->cols[0].data[r].i = i + (int64_t)z;
            const char *str = i % 2 ? "odd" : "even";
            c->cols[1].data[r].s.p = str;
            c->cols[1].data[r].s.len = (int32_t)strlen(str);
        }
        WArena *oa = warena_new(0);     /* the outputs' (e.a holds the expressions) */
        WVector o1 = { x->type, WA_ARRAY(oa, WDatum, n), WA_ARRAY(oa, uint8_t, n) };
        WVector o2 = { eq->type, WA_ARRAY(oa, WDatum, n), WA_ARRAY(oa, uint8_t, n) };
        WVector o3 = { pn->type, WA_ARRAY(oa, WDatum, n), WA_ARRAY(oa, uint8_t, n) };
        WVector o4 = { sum->type, WA_ARRAY(oa, WDatum, n), WA_ARRAY(oa, uint8_t, n) };
        CHECK(wexpr_eval(&e.ctx, x, c, NULL, &o1));
        CHECK(wexpr_eval(&e.ctx, eq, c, NULL, &o2));
        CHECK(wexpr_eval(&e.ctx, pn, c, NULL, &o3));
        CHECK(wexpr_eval(&e.ctx, sum, c, NULL, &o4));
        int bad = 0;
        for (int i = 0; i < n; i++) {
            int64_t a = i + (int64_t)z;
            bad += o1.nulls[i] || o1.data[i].i != a * 10 + 1;
            bad += o2.nulls[i] || o2.data[i].i != (i % 2);
            bad += !o3.nulls[i];
            bad += o4.nulls[i] || o4.data[i].i != a + ONES;
        }
        CHECK_INT(bad, 0);
        wchunk_free(c);
        warena_delete(oa);
    }
    CHECK_INT(consts.n, WCONST_VECS_MAX);           /* the first 64 literals met; the rest per chunk */
    wconst_vecs_free(&consts);
    tenv_free(&e);
}

/* A subexpression the filter and two projections share (WExprMemo, as the Calc runs them) is
   computed once per row and only for rows some use needs: 100 / a is never computed for a = 0
   (the AND and the CASE keep that row inactive), the filter's values follow the selected rows,
   and every result equals the evaluation without the memo. */
WTEST(expr_memo_shared_subexpressions)
{
    TEnv e;
    tenv_init(&e, NULL);
    const WType *types[1] = { &WTYPE_BIGINT };
    WChunk *c = wchunk_new(1, types, 16);
    for (int i = 0; i < 10; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[r].i = i;
        c->cols[0].nulls[r] = i == 3;
    }
    WExpr *a = t_col(&e, 0, &WTYPE_BIGINT);
    WExpr *cond = t_node(&e, WX_AND, &WTYPE_BOOLEAN, 2,
                         t_call(&e, "=", 2, t_call(&e, "MOD", 2, a, t_int(&e, 2)), t_int(&e, 1)),
                         t_call(&e, ">", 2, t_call(&e, "/", 2, t_int(&e, 100), a), t_int(&e, 10)));
    WExpr *p1 = t_node(&e, WX_CASE, &WTYPE_BIGINT, 3, t_call(&e, ">", 2, a, t_int(&e, 4)),
                       t_call(&e, "/", 2, t_int(&e, 100), a), t_bigint(&e, -1));
    p1->has_else = true;
    WExpr *p2 = t_call(&e, "+", 2, t_call(&e, "/", 2, t_int(&e, 100), a), t_int(&e, 1));
    WExpr *roots[3] = {cond, p1, p2};
    WExprMemo m;
    CHECK(wexpr_memo_plan(&m, e.a, roots, 3));
    CHECK_INT(m.nslots, 1);
    CHECK_INT(m.nocc, 3);
    CHECK_INT(wexpr_memo_slot(&m, p2->args[0]), 0);
    CHECK_INT(wexpr_memo_slot(&m, p2), -1);
    e.ctx.memo = &m;
    wexpr_memo_begin(&m, c->nrows);
    uint8_t sel[16];
    memset(sel, 1, sizeof sel);
    CHECK(wexpr_filter(&e.ctx, cond, c, sel));
    CHECK(!e.err.set);                          /* 100 / 0 not computed */
    int want_sel[10] = {0, 1, 0, 0, 0, 1, 0, 1, 0, 1};
    for (int i = 0; i < 10; i++) CHECK_INT(sel[i], want_sel[i]);
    CHECK_INT(m.done[0][0], 0);                 /* a = 0: the AND stopped before it */
    CHECK_INT(m.done[0][1], 1);
    WChunk *g = wchunk_new(1, types, 16);      /* the selected rows, as the Calc gathers them */
    for (int i = 0; i < c->nrows; i++) {
        if (!sel[i]) continue;
        int r = wchunk_add_row(g, WRK_INSERT);
        g->cols[0].data[r] = c->cols[0].data[i];
        g->cols[0].nulls[r] = c->cols[0].nulls[i];
    }
    wexpr_memo_gather(&m, sel);
    CHECK_INT(m.nrows, 4);
    WVector o1 = { p1->type, WA_ARRAY(e.a, WDatum, 16), WA_ARRAY(e.a, uint8_t, 16) };
    WVector o2 = { p2->type, WA_ARRAY(e.a, WDatum, 16), WA_ARRAY(e.a, uint8_t, 16) };
    CHECK(wexpr_eval(&e.ctx, p1, g, NULL, &o1));
    CHECK(wexpr_eval(&e.ctx, p2, g, NULL, &o2));
    int64_t want1[4] = {-1, 20, 14, 11}, want2[4] = {101, 21, 15, 12};
    for (int i = 0; i < 4; i++) {
        CHECK_INT(o1.data[i].i, want1[i]);
        CHECK_INT(o2.data[i].i, want2[i]);
    }
    e.ctx.memo = NULL;                          /* the same without the memo */
    WVector n1 = { p1->type, WA_ARRAY(e.a, WDatum, 16), WA_ARRAY(e.a, uint8_t, 16) };
    CHECK(wexpr_eval(&e.ctx, p1, g, NULL, &n1));
    for (int i = 0; i < 4; i++) CHECK_INT(n1.data[i].i, o1.data[i].i);
    /* nothing shared, or only non-deterministic / constant repeats: no memo */
    WExpr *r1 = t_call(&e, "RAND", 0), *r2 = t_call(&e, "RAND", 0);
    WExpr *k1 = t_call(&e, "+", 2, t_int(&e, 1), t_int(&e, 2)), *k2 = t_call(&e, "+", 2, t_int(&e, 1), t_int(&e, 2));
    WExpr *others[4] = {r1, r2, k1, k2};
    CHECK(!wexpr_memo_plan(&m, e.a, others, 4));
    wchunk_free(g);
    wchunk_free(c);
    tenv_free(&e);
}

WTEST(expr_const_detection)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK(wexpr_is_const(t_call(&e, "+", 2, t_int(&e, 1), t_int(&e, 2))));
    CHECK(!wexpr_is_const(t_call(&e, "+", 2, t_col(&e, 0, &WTYPE_INT), t_int(&e, 2))));
    CHECK(!wexpr_is_const(t_call(&e, "RAND", 0)));
    CHECK(wfunc_lookup("upper") == wfunc_lookup("UPPER"));
    CHECK(wfunc_lookup("ceiling") == wfunc_lookup("CEIL"));
    CHECK(wfunc_lookup("no_such_fn") == NULL);
    const WType *at[2] = { &WTYPE_INT, &WTYPE_STRING };
    CHECK(!wfunc_unknown_error(&e.err, "foo", at, 2));
    CHECK_STR(e.err.msg, "No match found for function signature foo(<NUMERIC>, <CHARACTER>)");
    CHECK_STR(e.err.cls, WEXC_CALCITE);
    werr_clear(&e.err);
    const WFuncDef *const *all = wfunc_all();
    int n = 0;
    bool has_upper = false;
    for (; all[n]; n++) if (!strcmp(all[n]->name, "UPPER")) has_upper = true;
    CHECK(n > 100);
    CHECK(has_upper);
    tenv_free(&e);
}

WTEST(expr_cast_and_constant_folding)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *c = t_node(&e, WX_CAST, &WTYPE_INT_NN, 1, t_str(&e, "42"));
    CHECK_STR(t_eval(&e, c), "42");
    WExpr *bad = t_node(&e, WX_CAST, &WTYPE_INT_NN, 1, t_str(&e, "abc"));
    CHECK(strncmp(t_eval(&e, bad), "ERR:", 4) == 0);
    bad->try_cast = true;
    CHECK_STR(t_eval(&e, bad), "NULL");
    CHECK_STR(t_eval(&e, t_node(&e, WX_CAST, &WTYPE_STRING, 1, t_null(&e, &WTYPE_NULL))), "NULL");
    CHECK_STR(t_eval(&e, t_node(&e, WX_CAST, &WTYPE_BIGINT_NN, 1, t_int(&e, -5))), "-5");
    CHECK_STR(t_eval(&e, t_node(&e, WX_CAST, &WTYPE_DOUBLE_NN, 1, t_int(&e, 3))), "3");
    /* a failing constant CAST in a branch no row takes does not fail the chunk */
    const WType *types[1] = { &WTYPE_INT };
    WChunk *ch = wchunk_new(1, types, 4);
    for (int i = 0; i < 3; i++) {
        int r = wchunk_add_row(ch, WRK_INSERT);
        ch->cols[0].data[r].i = i;
        ch->cols[0].nulls[r] = 0;
    }
    WExpr *strict = t_node(&e, WX_CAST, &WTYPE_INT_NN, 1, t_str(&e, "abc"));
    WExpr *cs = t_node(&e, WX_CASE, &WTYPE_INT, 3, t_call(&e, ">", 2, t_col(&e, 0, &WTYPE_INT), t_int(&e, 100)),
                       strict, t_int(&e, 0));
    cs->has_else = true;
    WVector out = { cs->type, WA_ARRAY(e.a, WDatum, 4), WA_ARRAY(e.a, uint8_t, 4) };
    CHECK(wexpr_eval(&e.ctx, cs, ch, NULL, &out));
    CHECK_INT(out.data[2].i, 0);
    /* IN with an implicitly cast constant list */
    WExpr *in = t_node(&e, WX_IN, &WTYPE_BOOLEAN, 3, t_node(&e, WX_CAST, &WTYPE_BIGINT, 1, t_col(&e, 0, &WTYPE_INT)),
                       t_node(&e, WX_CAST, &WTYPE_BIGINT_NN, 1, t_int(&e, 2)), t_bigint(&e, 7));
    WVector o2 = { in->type, WA_ARRAY(e.a, WDatum, 4), WA_ARRAY(e.a, uint8_t, 4) };
    CHECK(wexpr_eval(&e.ctx, in, ch, NULL, &o2));
    CHECK_INT(o2.data[0].i, 0);
    CHECK_INT(o2.data[2].i, 1);
    wchunk_free(ch);
    tenv_free(&e);
}
