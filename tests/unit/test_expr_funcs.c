/* test_expr_funcs.c — unit tests for the string, regex, numeric, hashing and conditional
   functions of src/expr: values, result types and validation messages as Flink gives them. */
#include "test_expr_util.h"
#include "../../src/expr/func_impl.h"

#define EVAL(e, name, n, ...) t_eval(e, t_call(e, name, n, __VA_ARGS__))
#define TYPE(e, name, n, ...) t_type(e, t_call(e, name, n, __VA_ARGS__))

WTEST(expr_fn_case_and_length)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "UPPER", 1, t_str(&e, "abc")), "ABC");
    CHECK_STR(TYPE(&e, "UPPER", 1, t_str(&e, "abc")), "CHAR(3) NOT NULL");
    CHECK_STR(TYPE(&e, "LOWER", 1, t_null(&e, &WTYPE_STRING)), "STRING");
    CHECK_STR(EVAL(&e, "LOWER", 1, t_str(&e, "ÀBÇ")), "àbç");
    CHECK_STR(EVAL(&e, "UPPER", 1, t_str(&e, "straße")), "STRASSE");
    /* eight ASCII bytes at a time, the bytes next to the letters ('@' '[' '`' '{') untouched, then
       the rest one by one (non-ASCII, a tail under eight bytes) */
    CHECK_STR(EVAL(&e, "LOWER", 1, t_str(&e, "@AZ[`az{Hello WORLD 0-9~ÀB x")), "@az[`az{hello world 0-9~àb x");
    CHECK_STR(EVAL(&e, "UPPER", 1, t_str(&e, "@AZ[`az{Hello WORLD 0-9~àb x")), "@AZ[`AZ{HELLO WORLD 0-9~ÀB X");
    CHECK_STR(EVAL(&e, "UPPER", 1, t_str(&e, "channel-1234 straße channel")), "CHANNEL-1234 STRASSE CHANNEL");
    CHECK_STR(EVAL(&e, "CHAR_LENGTH", 1, t_str(&e, "héllo")), "5");
    CHECK_STR(TYPE(&e, "CHAR_LENGTH", 1, t_str(&e, "héllo")), "INT NOT NULL");
    CHECK_STR(EVAL(&e, "CHARACTER_LENGTH", 1, t_str(&e, "")), "0");
    CHECK_STR(EVAL(&e, "INITCAP", 1, t_str(&e, "hello WORLD foo-bar 1st")), "Hello World Foo-Bar 1st");
    CHECK_STR(EVAL(&e, "UPPER", 1, t_int(&e, 1)),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Cannot apply 'UPPER' to arguments of type "
              "'UPPER(<INTEGER>)'. Supported form(s): 'UPPER(<CHARACTER>)'");
    CHECK_STR(EVAL(&e, "SUBSTRING", 2, t_str(&e, "x"), t_str(&e, "y")),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Cannot apply 'SUBSTRING' to arguments of type "
              "'SUBSTRING(<CHAR(1)>, <CHAR(1)>)'. Supported form(s): 'SUBSTRING(<CHARACTER>, <INTEGER>)'\n"
              "'SUBSTRING(<CHARACTER>, <INTEGER>, <INTEGER>)'");
    CHECK_STR(EVAL(&e, "SUBSTRING", 1, t_str(&e, "x")),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Invalid number of arguments to function "
              "'SUBSTRING'. Was expecting 2 arguments");
    CHECK_STR(EVAL(&e, "UPPER", 2, t_str(&e, "x"), t_str(&e, "y")),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Invalid number of arguments to function "
              "'UPPER'. Was expecting 1 arguments");
    tenv_free(&e);
}

WTEST(expr_fn_concat)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "||", 2, t_str(&e, "ab"), t_str(&e, "cd")), "abcd");
    CHECK_STR(TYPE(&e, "||", 2, t_str(&e, "ab"), t_str(&e, "cd")), "CHAR(4) NOT NULL");
    CHECK_STR(TYPE(&e, "||", 2, t_str(&e, "ab"), t_vstr(&e, "cd")), "STRING NOT NULL");
    CHECK_STR(EVAL(&e, "CONCAT", 3, t_str(&e, "AA"), t_str(&e, "BB"), t_str(&e, "CC")), "AABBCC");
    CHECK_STR(EVAL(&e, "CONCAT", 2, t_str(&e, "AA"), t_null(&e, &WTYPE_STRING)), "NULL");
    CHECK_STR(TYPE(&e, "CONCAT", 2, t_str(&e, "AA"), t_str(&e, "B")), "STRING NOT NULL");
    CHECK_STR(EVAL(&e, "CONCAT_WS", 6, t_str(&e, "~"), t_str(&e, "AA"), t_null(&e, &WTYPE_STRING), t_str(&e, "BB"),
                   t_vstr(&e, ""), t_str(&e, "CC")), "AA~BB~~CC");
    CHECK_STR(EVAL(&e, "CONCAT_WS", 2, t_null(&e, &WTYPE_STRING), t_str(&e, "AA")), "NULL");
    CHECK_STR(EVAL(&e, "CONCAT_WS", 2, t_str(&e, ","), t_null(&e, &WTYPE_STRING)), "");
    tenv_free(&e);
}

WTEST(expr_fn_substring_family)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "SUBSTRING", 3, t_str(&e, "hello"), t_int(&e, 2), t_int(&e, 3)), "ell");
    CHECK_STR(TYPE(&e, "SUBSTRING", 3, t_str(&e, "hello"), t_int(&e, 2), t_int(&e, 3)), "VARCHAR(5)");
    CHECK_STR(EVAL(&e, "SUBSTRING", 2, t_str(&e, "hello"), t_int(&e, -3)), "llo");
    CHECK_STR(EVAL(&e, "SUBSTR", 3, t_str(&e, "hello"), t_int(&e, 0), t_int(&e, 2)), "he");
    CHECK_STR(EVAL(&e, "SUBSTRING", 2, t_str(&e, "hello"), t_int(&e, 10)), "");
    CHECK_STR(EVAL(&e, "SUBSTRING", 2, t_str(&e, "hello"), t_int(&e, -10)), "");
    CHECK_STR(EVAL(&e, "SUBSTRING", 3, t_str(&e, "hello"), t_int(&e, 2), t_int(&e, -1)), "NULL");
    CHECK_STR(EVAL(&e, "SUBSTRING", 3, t_str(&e, "héllo"), t_int(&e, 2), t_int(&e, 2)), "él");
    CHECK_STR(EVAL(&e, "LEFT", 2, t_str(&e, "hello"), t_int(&e, 2)), "he");
    CHECK_STR(EVAL(&e, "LEFT", 2, t_str(&e, "hello"), t_int(&e, -1)), "");
    CHECK_STR(EVAL(&e, "RIGHT", 2, t_str(&e, "hello"), t_int(&e, 2)), "lo");
    CHECK_STR(EVAL(&e, "RIGHT", 2, t_str(&e, "hello"), t_int(&e, 20)), "hello");
    CHECK_STR(EVAL(&e, "OVERLAY", 3, t_str(&e, "xxxxxtest"), t_str(&e, "xxxx"), t_int(&e, 6)), "xxxxxxxxx");
    CHECK_STR(EVAL(&e, "OVERLAY", 4, t_str(&e, "xxxxxtest"), t_str(&e, "xxxx"), t_int(&e, 6), t_int(&e, 2)), "xxxxxxxxxst");
    tenv_free(&e);
}

WTEST(expr_fn_trim_pad_repeat)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "TRIM", 1, t_str(&e, "  a b  ")), "a b");
    CHECK_STR(EVAL(&e, "TRIM", 3, t_str(&e, "BOTH"), t_str(&e, "xy"), t_str(&e, "xyhiyx")), "hi");
    CHECK_STR(EVAL(&e, "TRIM", 3, t_str(&e, "LEADING"), t_str(&e, "x"), t_str(&e, "xxhixx")), "hixx");
    CHECK_STR(EVAL(&e, "TRIM", 3, t_str(&e, "TRAILING"), t_str(&e, "x"), t_str(&e, "xxhixx")), "xxhi");
    CHECK_STR(TYPE(&e, "TRIM", 3, t_str(&e, "BOTH"), t_str(&e, "x"), t_str(&e, "xxhixx")), "VARCHAR(6) NOT NULL");
    CHECK_STR(EVAL(&e, "LTRIM", 1, t_str(&e, "  a ")), "a ");
    CHECK_STR(EVAL(&e, "RTRIM", 1, t_str(&e, "  a ")), "  a");
    CHECK_STR(EVAL(&e, "LTRIM", 2, t_str(&e, "ééa"), t_str(&e, "é")), "a");
    CHECK_STR(EVAL(&e, "LPAD", 3, t_str(&e, "hi"), t_int(&e, 4), t_str(&e, "??")), "??hi");
    CHECK_STR(EVAL(&e, "LPAD", 3, t_str(&e, "hi"), t_int(&e, 1), t_str(&e, "??")), "h");
    CHECK_STR(EVAL(&e, "LPAD", 3, t_str(&e, "hi"), t_int(&e, 5), t_str(&e, "ab")), "abahi");
    CHECK_STR(EVAL(&e, "RPAD", 3, t_str(&e, "hi"), t_int(&e, 4), t_str(&e, "??")), "hi??");
    CHECK_STR(EVAL(&e, "RPAD", 3, t_str(&e, "hi"), t_int(&e, -1), t_str(&e, "??")), "NULL");
    CHECK_STR(EVAL(&e, "REPEAT", 2, t_str(&e, "ab"), t_int(&e, 3)), "ababab");
    CHECK_STR(EVAL(&e, "REPEAT", 2, t_str(&e, "ab"), t_int(&e, -1)), "");
    CHECK_STR(EVAL(&e, "REVERSE", 1, t_str(&e, "héllo")), "olléh");
    tenv_free(&e);
}

WTEST(expr_fn_search_replace_split)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "POSITION", 2, t_str(&e, "b"), t_str(&e, "abc")), "2");
    CHECK_STR(EVAL(&e, "POSITION", 2, t_str(&e, "z"), t_str(&e, "abc")), "0");
    CHECK_STR(EVAL(&e, "POSITION", 2, t_str(&e, "l"), t_str(&e, "héllo")), "3");
    CHECK_STR(EVAL(&e, "LOCATE", 3, t_str(&e, "b"), t_str(&e, "abcb"), t_int(&e, 3)), "4");
    CHECK_STR(EVAL(&e, "INSTR", 2, t_str(&e, "abcb"), t_str(&e, "b")), "2");
    CHECK_STR(EVAL(&e, "REPLACE", 3, t_str(&e, "hello world"), t_str(&e, "world"), t_str(&e, "flink")), "hello flink");
    CHECK_STR(EVAL(&e, "REPLACE", 3, t_str(&e, "ababab"), t_str(&e, "abab"), t_str(&e, "z")), "zab");
    CHECK_STR(EVAL(&e, "REPLACE", 3, t_str(&e, "abc"), t_vstr(&e, ""), t_str(&e, "x")), "xaxbxcx");
    CHECK_STR(EVAL(&e, "SPLIT_INDEX", 3, t_str(&e, "Jack,John,Mary"), t_str(&e, ","), t_int(&e, 2)), "Mary");
    CHECK_STR(EVAL(&e, "SPLIT_INDEX", 3, t_str(&e, "Jack,John,Mary"), t_str(&e, ","), t_int(&e, 3)), "NULL");
    CHECK_STR(EVAL(&e, "SPLIT_INDEX", 3, t_str(&e, "a,,b"), t_str(&e, ","), t_int(&e, 1)), "");
    CHECK_STR(EVAL(&e, "SPLIT_INDEX", 3, t_str(&e, "a,b"), t_str(&e, ","), t_int(&e, -1)), "NULL");
    CHECK_STR(EVAL(&e, "ASCII", 1, t_str(&e, "abc")), "97");
    CHECK_STR(EVAL(&e, "CHR", 1, t_int(&e, 97)), "a");
    CHECK_STR(EVAL(&e, "CHR", 1, t_int(&e, 353)), "a");
    CHECK_STR(EVAL(&e, "TO_BASE64", 1, t_str(&e, "hello world")), "aGVsbG8gd29ybGQ=");
    CHECK_STR(EVAL(&e, "FROM_BASE64", 1, t_str(&e, "aGVsbG8gd29ybGQ=")), "hello world");
    CHECK_STR(EVAL(&e, "FROM_BASE64", 1, t_str(&e, "a*b")), "ERR:java.lang.IllegalArgumentException: Illegal base64 character 2a");
    WExpr *sp = t_call(&e, "SPLIT", 2, t_str(&e, "a,b,,c"), t_str(&e, ","));
    CHECK_STR(t_type(&e, sp), "ARRAY<STRING> NOT NULL");
    WDatum d;
    bool isnull;
    CHECK(wexpr_eval_const(&e.ctx, sp, &d, &isnull));
    CHECK(!isnull && d.cx && d.cx->n == 4);
    if (d.cx && d.cx->n == 4) CHECK_INT(d.cx->vals[2].s.len, 0);
    tenv_free(&e);
}

WTEST(expr_fn_like)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "abc"), t_str(&e, "a%")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "abc"), t_str(&e, "_b_")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "abc"), t_str(&e, "a")), "FALSE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_vstr(&e, ""), t_str(&e, "%")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "abcabd"), t_str(&e, "%ab_")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "aXbXc"), t_str(&e, "a%b%c")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "héllo"), t_str(&e, "h_llo")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_str(&e, "a\\c"), t_str(&e, "a\\c")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 3, t_str(&e, "a_c"), t_str(&e, "a!_c"), t_str(&e, "!")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 3, t_str(&e, "abc"), t_str(&e, "a!_c"), t_str(&e, "!")), "FALSE");
    CHECK_STR(EVAL(&e, "LIKE", 3, t_str(&e, "a%"), t_str(&e, "a!%"), t_str(&e, "!")), "TRUE");
    CHECK_STR(EVAL(&e, "LIKE", 3, t_str(&e, "a"), t_str(&e, "a!"), t_str(&e, "!")),
              "ERR:java.lang.RuntimeException: Invalid escape sequence 'a!', 1");
    CHECK_STR(EVAL(&e, "LIKE", 3, t_str(&e, "a"), t_str(&e, "a!b"), t_str(&e, "!")),
              "ERR:java.lang.RuntimeException: Invalid escape sequence 'a!b', 1");
    CHECK_STR(EVAL(&e, "LIKE", 3, t_str(&e, "a"), t_str(&e, "a"), t_str(&e, "!!")),
              "ERR:java.lang.RuntimeException: Invalid escape character '!!'");
    CHECK_STR(EVAL(&e, "LIKE", 2, t_null(&e, &WTYPE_STRING), t_str(&e, "a")), "NULL");
    /* a non-constant pattern is compiled per row */
    const WType *types[2] = { &WTYPE_STRING, &WTYPE_STRING };
    WChunk *c = wchunk_new(2, types, 4);
    const char *vals[3][2] = { { "abc", "a%" }, { "abc", "b%" }, { "xyz", "%z" } };
    for (int i = 0; i < 3; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        for (int k = 0; k < 2; k++) {
            c->cols[k].data[r].s.p = vals[i][k];
            c->cols[k].data[r].s.len = (int32_t)strlen(vals[i][k]);
            c->cols[k].nulls[r] = 0;
        }
    }
    WExpr *x = t_call(&e, "LIKE", 2, t_col(&e, 0, &WTYPE_STRING), t_col(&e, 1, &WTYPE_STRING));
    WVector out = { x->type, WA_ARRAY(e.a, WDatum, 4), WA_ARRAY(e.a, uint8_t, 4) };
    CHECK(wexpr_eval(&e.ctx, x, c, NULL, &out));
    CHECK_INT(out.data[0].i, 1);
    CHECK_INT(out.data[1].i, 0);
    CHECK_INT(out.data[2].i, 1);
    wchunk_free(c);
    tenv_free(&e);
}

WTEST(expr_fn_regex)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 3, t_str(&e, "foothebar"), t_str(&e, "foo(.*?)(bar)"), t_int(&e, 2)), "bar");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 3, t_str(&e, "foothebar"), t_str(&e, "foo(.*?)(bar)"), t_int(&e, 1)), "the");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 2, t_str(&e, "foothebar"), t_str(&e, "o+")), "oo");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 3, t_str(&e, "foothebar"), t_str(&e, "foo(.*?)(bar)"), t_int(&e, 3)), "NULL");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 2, t_str(&e, "abc"), t_str(&e, "(")), "NULL");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 2, t_str(&e, "abc"), t_str(&e, "x")), "NULL");
    CHECK_STR(TYPE(&e, "REGEXP_EXTRACT", 2, t_str(&e, "abc"), t_str(&e, "x")), "STRING");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 3, t_str(&e, "ab"), t_str(&e, "(x)?b"), t_int(&e, 1)), "NULL");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "foobar"), t_str(&e, "oo|ar"), t_vstr(&e, "")), "fb");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "abc"), t_str(&e, "x*"), t_str(&e, "-")), "-a-b-c-");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "a.b"), t_str(&e, "\\."), t_str(&e, "$1\\")), "a$1\\b");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "2020-01-02"), t_str(&e, "(\\d+)-(\\d+)"), t_str(&e, "#")), "#-02");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "x"), t_str(&e, "[a"), t_str(&e, "#")), "NULL");
    CHECK_STR(EVAL(&e, "REGEXP", 2, t_str(&e, "abc123"), t_str(&e, "\\d+")), "TRUE");
    CHECK_STR(EVAL(&e, "REGEXP", 2, t_str(&e, "abc"), t_str(&e, "^b")), "FALSE");
    CHECK_STR(EVAL(&e, "REGEXP", 2, t_str(&e, "abc"), t_vstr(&e, "")), "FALSE");
    CHECK_STR(EVAL(&e, "REGEXP", 2, t_str(&e, "abc"), t_str(&e, "{")), "FALSE");
    /* measured on Flink 2.3.0: \b takes letters beyond ASCII as word characters (Java's
       Character.isLetterOrDigit; \w does not), and a multi-line ^ never matches at the end of
       the input nor between the \r and \n of one line break */
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, ". _\u00e9 A\u00e9"), t_str(&e, "\\w?\\b"), t_str(&e, "<>")),
              ". <>_\u00e9<> <>A\u00e9<>");
    CHECK_STR(EVAL(&e, "REGEXP_EXTRACT", 3, t_str(&e, "\u00e9.xb\u00e9"), t_str(&e, "\\b\\s*.+x"), t_int(&e, 0)),
              "\u00e9.x");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "x\u4e2dy"), t_str(&e, "\\b"), t_str(&e, "|")), "|x\u4e2dy|");
    CHECK_STR(EVAL(&e, "REGEXP", 2, t_vstr(&e, ""), t_str(&e, "(?m)^")), "FALSE");
    CHECK_STR(EVAL(&e, "REGEXP", 2, t_str(&e, "a\r\n"), t_str(&e, "(?m)^")), "TRUE");
    CHECK_STR(EVAL(&e, "REGEXP_REPLACE", 3, t_str(&e, "a\r\nb"), t_str(&e, "(?m)^"), t_str(&e, "<>")), "<>a\r\n<>b");
    tenv_free(&e);
}

static const char *re_find(TEnv *e, const char *pat, const char *s, int group)
{
    char *msg = NULL;
    WRegex *re = wre_compile(e->a, pat, (int)strlen(pat), &msg);
    if (!re) { snprintf(e->out, sizeof e->out, "ERR"); return e->out; }
    int caps[64];
    if (!wre_exec(re, s, (int)strlen(s), 0, false, false, caps)) return "NOMATCH";
    if (caps[2 * group] < 0) return "UNSET";
    snprintf(e->out, sizeof e->out, "%.*s", caps[2 * group + 1] - caps[2 * group], s + caps[2 * group]);
    return e->out;
}

WTEST(expr_regex_engine_java_semantics)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(re_find(&e, "a|ab", "ab", 0), "a");                 /* leftmost alternative wins */
    CHECK_STR(re_find(&e, "a+?", "aaa", 0), "a");
    CHECK_STR(re_find(&e, "a{2,3}", "aaaa", 0), "aaa");
    CHECK_STR(re_find(&e, "a{2}", "a", 0), "NOMATCH");
    CHECK_STR(re_find(&e, "(a*)*b", "aab", 1), "");                /* empty last iteration */
    CHECK_STR(re_find(&e, "(a)\\1", "xaay", 0), "aa");
    CHECK_STR(re_find(&e, "[a-c]+", "xxbcay", 0), "bca");
    CHECK_STR(re_find(&e, "[^0-9 ]+", "12 ab3", 0), "ab");
    CHECK_STR(re_find(&e, "\\w+@\\w+\\.com", "mail: bob@example.com!", 0), "bob@example.com");
    CHECK_STR(re_find(&e, "(?i)ABC", "xxabc", 0), "abc");
    CHECK_STR(re_find(&e, "^abc$", "abc\n", 0), "abc");
    CHECK_STR(re_find(&e, "a.c", "a\nc", 0), "NOMATCH");
    CHECK_STR(re_find(&e, "(?s)a.c", "a\nc", 0), "a\nc");
    CHECK_STR(re_find(&e, "\\bis\\b", "this is", 0), "is");
    CHECK_STR(re_find(&e, "(?:ab)+", "ababx", 0), "abab");
    CHECK_STR(re_find(&e, "(?<year>\\d{4})-(\\d\\d)", "on 2024-05", 2), "05");
    CHECK_STR(re_find(&e, "[\\d.]+", "v1.25b", 0), "1.25");
    CHECK_STR(re_find(&e, "é+", "caféé", 0), "éé");
    CHECK_STR(re_find(&e, "\\Qa.b\\E", "axb a.b", 0), "a.b");
    CHECK_STR(re_find(&e, "\\p{Upper}+", "abCDe", 0), "CD");
    CHECK_STR(re_find(&e, "x*", "abc", 0), "");
    CHECK_STR(re_find(&e, "(", "x", 0), "ERR");
    CHECK_STR(re_find(&e, "a{", "x", 0), "ERR");
    CHECK_STR(re_find(&e, "(?=a)", "x", 0), "ERR");
    CHECK_STR(re_find(&e, "*a", "x", 0), "ERR");
    /* pathological pattern terminates */
    char big[64];
    memset(big, 'a', 40);
    big[40] = 'b';
    big[41] = 0;
    CHECK_STR(re_find(&e, "(a|a)*c", big, 0), "NOMATCH");
    /* the required-literal check (a subject without the text every match contains is refused at
       once) must not refuse what matches: literals inside groups and repetitions, not in optional
       parts, alternatives or case-insensitive text */
    CHECK_STR(re_find(&e, "(&|^)channel_id=([^&]*)", "q=1&channel_id=42&x", 2), "42");
    CHECK_STR(re_find(&e, "(&|^)channel_id=([^&]*)", "channel_id=7", 2), "7");
    CHECK_STR(re_find(&e, "(&|^)channel_id=([^&]*)", "q=1&channel=42", 2), "NOMATCH");
    CHECK_STR(re_find(&e, "x(abc)+y", "xabcabcy", 0), "xabcabcy");
    CHECK_STR(re_find(&e, "x(abc)?yz", "xyz", 0), "xyz");
    CHECK_STR(re_find(&e, "abc|xyz", "--xyz", 0), "xyz");
    CHECK_STR(re_find(&e, "(?i)abcd", "ABCD", 0), "ABCD");
    CHECK_STR(re_find(&e, "ab(?i)cd", "abCD", 0), "abCD");
    CHECK_STR(re_find(&e, "ab(?i)cd", "aBCD", 0), "NOMATCH");
    CHECK_STR(re_find(&e, "\\Qa.b\\E+", "a.bb", 0), "a.bb");
    CHECK_STR(re_find(&e, "caf\u00e9s", "les cafés", 0), "cafés");
    /* the first-byte filter (positions after the first one tried are skipped unless their byte can
       start a match) must not skip a match: ^ only at the start, case-insensitive letters, classes,
       non-ASCII text, optional first parts, and patterns that can match empty or start with an
       assertion (no filter) */
    CHECK_STR(re_find(&e, "(&|^)k=([^&]*)", "k=1&k=2", 2), "1");
    CHECK_STR(re_find(&e, "(&|^)k=([^&]*)", "xk=1&k=2", 2), "2");
    CHECK_STR(re_find(&e, "(?i)b+", "aaBb", 0), "Bb");
    CHECK_STR(re_find(&e, "[^a-c]x", "abcdx", 0), "dx");
    CHECK_STR(re_find(&e, "\u00e9t\u00e9", "l'été", 0), "été");
    CHECK_STR(re_find(&e, "a?b", "xxb", 0), "b");
    CHECK_STR(re_find(&e, "(x|)y", "zzy", 0), "y");
    CHECK_STR(re_find(&e, "\\bq", "a q", 0), "q");
    CHECK_STR(re_find(&e, "(?m)^q", "a\nq", 0), "q");
    CHECK_STR(re_find(&e, "b*$", "ab", 0), "b");
    CHECK_STR(re_find(&e, "z", "abc", 0), "NOMATCH");
    /* the literal's lead (tries start at most that many bytes before the subject's first
       occurrence of the required literal) must not skip a match: a match after a first
       occurrence that does not match, a bounded part of several code points before the
       literal, a repetition looked through, and unbounded parts (no skip) */
    CHECK_STR(re_find(&e, "(&|^)channel_id=([^&]*)", "xchannel_id=1&channel_id=2", 2), "2");
    CHECK_STR(re_find(&e, "(&|^)channel_id=([^&]*)", "q=éé&channel_id=3", 2), "3");
    CHECK_STR(re_find(&e, "[éa]{2}key=(\\d+)", "zzéékey=5", 1), "5");
    CHECK_STR(re_find(&e, ".{0,3}key=(\\d)", "abcdefkey=6", 0), "defkey=6");
    CHECK_STR(re_find(&e, "(?i)x.key=(\\d)", "aaXykey=7", 0), "Xykey=7");
    CHECK_STR(re_find(&e, "(ab.key=\\d)+", "--abxkey=1abykey=2", 0), "abxkey=1abykey=2");
    CHECK_STR(re_find(&e, "a.*key=(\\d)", "a----------key=8", 1), "8");
    CHECK_STR(re_find(&e, "(a|bbbb)key", "bbbbkey", 0), "bbbbkey");
    /* a greedy loop of one character takes all it can, then gives back one character per
       backtrack: ASCII, multi-byte text, classes, '.' stopping at a line end, case-insensitive */
    CHECK_STR(re_find(&e, "a.*b", "axxbyyb", 0), "axxbyyb");
    CHECK_STR(re_find(&e, "x[^z]*yz", "xaaayaayz", 0), "xaaayaayz");
    CHECK_STR(re_find(&e, "(.*)(\\d+)", "abc123", 2), "3");
    CHECK_STR(re_find(&e, "\u00e9*\u00e9a", "\u00e9\u00e9\u00e9a", 0), "\u00e9\u00e9\u00e9a");
    CHECK_STR(re_find(&e, "[^x]*\u00e9b", "a\u00e9c\u00e9b", 0), "a\u00e9c\u00e9b");
    CHECK_STR(re_find(&e, ".*", "ab\ncd", 0), "ab");
    CHECK_STR(re_find(&e, "(?i)a*A", "aaA", 0), "aaA");
    CHECK_STR(re_find(&e, "b+c", "abbbd bbc", 0), "bbc");
    CHECK_STR(re_find(&e, "(a*)b", "aaab", 1), "aaa");
    CHECK_STR(re_find(&e, "a.*\u00a9", "a\u00e9", 0), "NOMATCH");      /* never inside a character (A9 is the byte after C3) */
    CHECK_STR(re_find(&e, "a.*\u4e2d", "a\u00e9\u4e2d\u4e2dz", 0), "a\u00e9\u4e2d\u4e2d");
    tenv_free(&e);
}

WTEST(expr_fn_similar_and_str_to_map)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "SIMILAR", 2, t_str(&e, "abc"), t_str(&e, "a(b|c)c")), "TRUE");
    CHECK_STR(EVAL(&e, "SIMILAR", 2, t_str(&e, "abc"), t_str(&e, "%(b|d)%")), "TRUE");
    CHECK_STR(EVAL(&e, "SIMILAR", 2, t_str(&e, "abc"), t_str(&e, "a.c")), "FALSE");
    CHECK_STR(EVAL(&e, "SIMILAR", 2, t_str(&e, "a.c"), t_str(&e, "a.c")), "TRUE");
    CHECK_STR(EVAL(&e, "SIMILAR", 2, t_str(&e, "abc"), t_str(&e, "ab")), "FALSE");
    CHECK_STR(EVAL(&e, "SIMILAR", 2, t_str(&e, "aaa"), t_str(&e, "a{2,3}")), "TRUE");
    WExpr *m = t_call(&e, "STR_TO_MAP", 1, t_str(&e, "a=1,b=2,a=3,c"));
    CHECK_STR(t_type(&e, m), "MAP<STRING, STRING> NOT NULL");
    WDatum d;
    bool isnull;
    CHECK(wexpr_eval_const(&e.ctx, m, &d, &isnull));
    CHECK(d.cx && d.cx->n == 3);
    if (d.cx && d.cx->n == 3) {
        CHECK(d.cx->vals[0].s.len == 1 && d.cx->vals[0].s.p[0] == 'a');
        CHECK(d.cx->vals[1].s.len == 1 && d.cx->vals[1].s.p[0] == '3');
        CHECK(d.cx->nulls[5] == 1);
    }
    m = t_call(&e, "STR_TO_MAP", 3, t_str(&e, "k1:v1;k2:v2"), t_str(&e, ";"), t_str(&e, ":"));
    CHECK(wexpr_eval_const(&e.ctx, m, &d, &isnull));
    CHECK(d.cx && d.cx->n == 2);
    tenv_free(&e);
}

WTEST(expr_fn_numeric)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "ROUND", 2, t_double(&e, 2.675), t_int(&e, 2)), "2.68");
    CHECK_STR(EVAL(&e, "ROUND", 2, t_double(&e, -2.5), t_int(&e, 0)), "-3");
    CHECK_STR(EVAL(&e, "ROUND", 2, t_dec(&e, 125, 3, 2), t_int(&e, 1)), "1.3");
    CHECK_STR(TYPE(&e, "ROUND", 2, t_dec(&e, 125, 3, 2), t_int(&e, 1)), "DECIMAL(3, 1) NOT NULL");
    CHECK_STR(EVAL(&e, "ROUND", 2, t_dec(&e, -125, 3, 2), t_int(&e, 1)), "-1.3");
    CHECK_STR(EVAL(&e, "ROUND", 2, t_dec(&e, 9995, 4, 2), t_int(&e, 1)), "100.0");
    CHECK_STR(EVAL(&e, "ROUND", 2, t_dec(&e, 12345, 5, 2), t_int(&e, -1)), "120");
    CHECK_STR(TYPE(&e, "ROUND", 2, t_dec(&e, 12345, 5, 2), t_int(&e, -1)), "DECIMAL(4, 0) NOT NULL");
    CHECK_STR(EVAL(&e, "ROUND", 1, t_dec(&e, 125, 3, 2)), "1");
    CHECK_STR(EVAL(&e, "ROUND", 2, t_int(&e, 125), t_int(&e, -1)), "130");
    CHECK_STR(TYPE(&e, "ROUND", 2, t_int(&e, 125), t_int(&e, -1)), "INT NOT NULL");
    CHECK_STR(EVAL(&e, "TRUNCATE", 2, t_dec(&e, 42324, 5, 3), t_int(&e, 2)), "42.32");
    CHECK_STR(EVAL(&e, "TRUNCATE", 2, t_double(&e, 42.324), t_int(&e, 2)), "42.32");
    CHECK_STR(EVAL(&e, "TRUNCATE", 1, t_double(&e, -42.9)), "-42");
    CHECK_STR(EVAL(&e, "FLOOR", 1, t_dec(&e, -15, 2, 1)), "-2");
    CHECK_STR(TYPE(&e, "FLOOR", 1, t_dec(&e, -15, 2, 1)), "DECIMAL(2, 0) NOT NULL");
    CHECK_STR(EVAL(&e, "CEIL", 1, t_dec(&e, 12, 2, 1)), "2");
    CHECK_STR(EVAL(&e, "CEILING", 1, t_double(&e, 1.2)), "2");
    CHECK_STR(EVAL(&e, "FLOOR", 1, t_double(&e, -1.5)), "-2");
    CHECK_STR(EVAL(&e, "ABS", 1, t_int(&e, -5)), "5");
    CHECK_STR(EVAL(&e, "ABS", 1, t_dec(&e, -15, 2, 1)), "1.5");
    CHECK_STR(EVAL(&e, "POWER", 2, t_int(&e, 2), t_int(&e, 10)), "1024");
    CHECK_STR(TYPE(&e, "POWER", 2, t_int(&e, 2), t_int(&e, 10)), "DOUBLE NOT NULL");
    CHECK_STR(EVAL(&e, "SQRT", 1, t_int(&e, 16)), "4");
    CHECK_STR(EVAL(&e, "LOG", 2, t_int(&e, 2), t_int(&e, 8)), "3");
    CHECK_STR(EVAL(&e, "LOG10", 1, t_int(&e, 1000)), "3");
    CHECK_STR(EVAL(&e, "LOG2", 1, t_int(&e, 8)), "3");
    CHECK_STR(EVAL(&e, "LN", 1, t_call(&e, "E", 0)), "1");
    CHECK_STR(EVAL(&e, "SIGN", 1, t_dec(&e, -35, 2, 1)), "-1.0");
    CHECK_STR(EVAL(&e, "SIGN", 1, t_int(&e, 7)), "1");
    CHECK_STR(EVAL(&e, "DEGREES", 1, t_call(&e, "PI", 0)), "180");
    CHECK_STR(EVAL(&e, "BIN", 1, t_int(&e, 12)), "1100");
    CHECK_STR(EVAL(&e, "BIN", 1, t_int(&e, -1)), "1111111111111111111111111111111111111111111111111111111111111111");
    CHECK_STR(EVAL(&e, "HEX", 1, t_int(&e, 255)), "FF");
    CHECK_STR(EVAL(&e, "HEX", 1, t_str(&e, "hello,world")), "68656C6C6F2C776F726C64");
    CHECK_STR(EVAL(&e, "RAND", 1, t_int(&e, 42)), "0.727563680032868");
    CHECK_STR(EVAL(&e, "RAND_INTEGER", 2, t_int(&e, 42), t_int(&e, 10)), "0");
    CHECK_STR(TYPE(&e, "RAND_INTEGER", 2, t_int(&e, 42), t_int(&e, 10)), "INT NOT NULL");
    CHECK_STR(EVAL(&e, "SQRT", 1, t_str(&e, "x")),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: Cannot apply 'SQRT' to arguments of type "
              "'SQRT(<CHAR(1)>)'. Supported form(s): 'SQRT(<NUMERIC>)'");
    tenv_free(&e);
}

WTEST(expr_fn_conditional)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "NULLIF", 2, t_int(&e, 5), t_int(&e, 5)), "NULL");
    CHECK_STR(EVAL(&e, "NULLIF", 2, t_int(&e, 5), t_int(&e, 0)), "5");
    CHECK_STR(TYPE(&e, "NULLIF", 2, t_int(&e, 5), t_int(&e, 0)), "INT");
    CHECK_STR(EVAL(&e, "IFNULL", 2, t_null(&e, &WTYPE_INT), t_int(&e, 5)), "5");
    CHECK_STR(TYPE(&e, "IFNULL", 2, t_null(&e, &WTYPE_INT), t_int(&e, 5)), "INT NOT NULL");
    CHECK_STR(EVAL(&e, "GREATEST", 3, t_int(&e, 1), t_int(&e, 7), t_int(&e, 3)), "7");
    CHECK_STR(EVAL(&e, "LEAST", 3, t_int(&e, 4), t_double(&e, 2.5), t_int(&e, 3)), "2.5");
    CHECK_STR(TYPE(&e, "LEAST", 3, t_int(&e, 4), t_double(&e, 2.5), t_int(&e, 3)), "DOUBLE NOT NULL");
    CHECK_STR(EVAL(&e, "GREATEST", 2, t_int(&e, 1), t_null(&e, &WTYPE_INT)), "NULL");
    CHECK_STR(EVAL(&e, "GREATEST", 2, t_str(&e, "b"), t_str(&e, "ab")), "b");
    CHECK_STR(EVAL(&e, "IS_ALPHA", 1, t_str(&e, "abc")), "TRUE");
    CHECK_STR(EVAL(&e, "IS_ALPHA", 1, t_str(&e, "ab1")), "FALSE");
    CHECK_STR(EVAL(&e, "IS_DIGIT", 1, t_str(&e, "123")), "TRUE");
    CHECK_STR(EVAL(&e, "IS_DIGIT", 1, t_null(&e, &WTYPE_STRING)), "FALSE");
    CHECK_STR(EVAL(&e, "IS_DECIMAL", 1, t_str(&e, "-1.5e3")), "TRUE");
    CHECK_STR(EVAL(&e, "IS_DECIMAL", 1, t_str(&e, "1.")), "TRUE");
    CHECK_STR(EVAL(&e, "IS_DECIMAL", 1, t_str(&e, "x1")), "FALSE");
    CHECK_STR(EVAL(&e, "IF", 3, t_call(&e, ">", 2, t_int(&e, 5), t_int(&e, 3)), t_int(&e, 5), t_int(&e, 3)), "5");
    CHECK_STR(EVAL(&e, "IF", 3, t_bool(&e, false), t_str(&e, "a"), t_str(&e, "bc")), "bc");
    tenv_free(&e);
}

WTEST(expr_fn_hashes)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "MD5", 1, t_vstr(&e, "")), "d41d8cd98f00b204e9800998ecf8427e");
    CHECK_STR(EVAL(&e, "MD5", 1, t_str(&e, "abc")), "900150983cd24fb0d6963f7d28e17f72");
    CHECK_STR(TYPE(&e, "MD5", 1, t_str(&e, "abc")), "CHAR(32) NOT NULL");
    CHECK_STR(EVAL(&e, "MD5", 1, t_str(&e, "héllo")), "be50e8478cf24ff3595bc7307fb91b50");
    CHECK_STR(EVAL(&e, "SHA1", 1, t_str(&e, "abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
    CHECK_STR(EVAL(&e, "SHA224", 1, t_str(&e, "abc")), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
    CHECK_STR(EVAL(&e, "SHA256", 1, t_str(&e, "abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK_STR(EVAL(&e, "SHA384", 1, t_str(&e, "abc")),
              "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
    CHECK_STR(EVAL(&e, "SHA512", 1, t_str(&e, "abc")),
              "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
    char a200[201];
    memset(a200, 'a', 200);
    a200[200] = 0;
    CHECK_STR(EVAL(&e, "MD5", 1, t_vstr(&e, a200)), "887f30b43b2867f4a9accceee7d16e6c");
    CHECK_STR(EVAL(&e, "SHA1", 1, t_vstr(&e, a200)), "e61cfffe0d9195a525fc6cf06ca2d77119c24a40");
    CHECK_STR(EVAL(&e, "SHA256", 1, t_vstr(&e, a200)), "c2a908d98f5df987ade41b5fce213067efbcc21ef2240212a41e54b5e7c28ae5");
    CHECK_STR(EVAL(&e, "SHA2", 2, t_vstr(&e, a200), t_int(&e, 224)), "2559984fd15e055f0d84c346483508242f02653ab7956401e551511c");
    CHECK_STR(EVAL(&e, "SHA2", 2, t_vstr(&e, a200), t_int(&e, 384)),
              "0691b6e978614b67d60557b2a2cddd53406508522efa21c624dbbfa8ab6e726d5c586b489c7c09f24109a64c10211d48");
    CHECK_STR(EVAL(&e, "SHA512", 1, t_vstr(&e, a200)),
              "4b11459c33f52a22ee8236782714c150a3b2c60994e9acee17fe68947a3e6789f31e7668394592da7bef827cddca88c4e6f86e4df7ed1ae6cba71f3e98faee9f");
    CHECK_STR(EVAL(&e, "SHA2", 2, t_str(&e, "abc"), t_int(&e, 100)), "NULL");
    CHECK_STR(EVAL(&e, "HASH_CODE", 1, t_int(&e, 7)), "7");
    CHECK_STR(EVAL(&e, "HASH_CODE", 1, t_bool(&e, true)), "1231");
    CHECK_STR(EVAL(&e, "HASH_CODE", 1, t_bigint(&e, 1LL << 32)), "1");
    WExpr *u = t_call(&e, "UUID", 0);
    CHECK_STR(t_type(&e, u), "CHAR(36) NOT NULL");
    const char *uv = t_eval(&e, u);
    CHECK(strlen(uv) == 36 && uv[8] == '-' && uv[14] == '4');
    CHECK_STR(EVAL(&e, "TYPEOF", 1, t_dec(&e, 1, 5, 2)), "DECIMAL(5, 2) NOT NULL");
    tenv_free(&e);
}

WTEST(expr_fn_collections)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *arr = t_call(&e, "ARRAY", 3, t_int(&e, 1), t_int(&e, 2), t_bigint(&e, 3));
    CHECK_STR(t_type(&e, arr), "ARRAY<BIGINT NOT NULL> NOT NULL");
    CHECK(arr && arr->args[0]->kind == WX_CAST);
    CHECK_STR(EVAL(&e, "ITEM", 2, arr, t_int(&e, 2)), "2");
    CHECK_STR(EVAL(&e, "ITEM", 2, t_call(&e, "ARRAY", 2, t_int(&e, 1), t_int(&e, 2)), t_int(&e, 5)), "NULL");
    CHECK_STR(EVAL(&e, "CARDINALITY", 1, t_call(&e, "ARRAY", 2, t_int(&e, 1), t_int(&e, 2))), "2");
    CHECK_STR(EVAL(&e, "ARRAY_CONTAINS", 2, t_call(&e, "ARRAY", 2, t_int(&e, 1), t_int(&e, 2)), t_int(&e, 2)), "TRUE");
    CHECK_STR(EVAL(&e, "ELEMENT", 1, t_call(&e, "ARRAY", 1, t_str(&e, "x"))), "x");
    CHECK_STR(EVAL(&e, "ELEMENT", 1, t_call(&e, "ARRAY", 2, t_int(&e, 1), t_int(&e, 2))),
              "ERR:org.apache.flink.table.api.TableException: Array has more than one element.");
    WExpr *m = t_call(&e, "MAP", 4, t_str(&e, "a"), t_int(&e, 1), t_str(&e, "b"), t_int(&e, 2));
    CHECK_STR(t_type(&e, m), "MAP<CHAR(1) NOT NULL, INT NOT NULL> NOT NULL");
    CHECK_STR(EVAL(&e, "ITEM", 2, m, t_str(&e, "b")), "2");
    CHECK_STR(EVAL(&e, "ITEM", 2, t_call(&e, "MAP", 2, t_str(&e, "a"), t_int(&e, 1)), t_str(&e, "z")), "NULL");
    WExpr *r = t_call(&e, "ROW", 2, t_int(&e, 1), t_str(&e, "ab"));
    CHECK_STR(t_type(&e, r), "ROW<`EXPR$0` INT NOT NULL, `EXPR$1` CHAR(2) NOT NULL> NOT NULL");
    WExpr *f = t_call(&e, "FIELD", 2, r, t_int(&e, 1));
    CHECK_STR(t_type(&e, f), "CHAR(2) NOT NULL");
    CHECK_STR(t_eval(&e, f), "ab");
    tenv_free(&e);
}

/* SPLIT_INDEX at a one-byte separator (read 16 bytes a step) against the tokens a plain loop finds
   (StringUtils.splitByWholeSeparatorPreserveAllTokens: empty tokens kept, one after a trailing
   separator): strings of 0-70 bytes of separators in runs, at both ends and across the 16-byte
   steps, every index from 0 to past the last token, the separator as a string and as a code. */
WTEST(expr_fn_split_index_one_byte_separator)
{
    TEnv e;
    tenv_init(&e, NULL);
    uint64_t seed = 99;
    int bad = 0, cases = 0;
    for (int t = 0; t < 300; t++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        int len = (int)((seed >> 33) % 71);
        char s[80];
        for (int j = 0; j < len; j++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            s[j] = (seed >> 40) % 3 == 0 ? '/' : (char)('a' + (seed >> 45) % 26);
        }
        s[len] = 0;
        for (int idx = 0; idx <= 40; idx++) {
            char want[80];
            if (len == 0) {
                snprintf(want, sizeof want, "NULL");
            } else {
                int k = 0, from = 0, j = 0;
                for (;; j++) {                  /* token k runs from `from` to the next '/' or the end */
                    if (j < len && s[j] != '/') continue;
                    if (k == idx) break;
                    if (j >= len) break;
                    k++;
                    from = j + 1;
                }
                if (k == idx) snprintf(want, sizeof want, "%.*s", j - from, s + from);
                else snprintf(want, sizeof want, "NULL");
            }
            const char *got = EVAL(&e, "SPLIT_INDEX", 3, t_vstr(&e, s), t_str(&e, "/"), t_int(&e, idx));
            bad += strcmp(got, want) != 0;
            got = EVAL(&e, "SPLIT_INDEX", 3, t_vstr(&e, s), t_int(&e, '/'), t_int(&e, idx));
            bad += strcmp(got, want) != 0;
            cases += 2;
        }
    }
    CHECK_INT(bad, 0);
    CHECK(cases > 20000);
    tenv_free(&e);
}
