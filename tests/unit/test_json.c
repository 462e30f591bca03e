/* test_json.c — unit tests for src/common/json (parser, writer, Java renderings) and
   src/expr/json_path (Jayway-style path compile and evaluation, lax and strict). */
#include "unit.h"
#include "../../src/common/json.h"
#include "../../src/expr/json_path.h"

#include <string.h>

static char *roundtrip(WArena *a, const char *text, bool sort)
{
    char err[256];
    WJson *v = wjson_parse(a, text, strlen(text), false, err, sizeof err);
    if (!v) return wa_sprintf(a, "ERR: %s", err);
    WStrBuf b;
    wsb_init(&b);
    wjson_write(v, sort, &b);
    char *r = wa_strdup(a, b.buf);
    wsb_free(&b);
    return r;
}

WTEST(json_parse_and_write)
{
    WArena a;
    warena_init(&a, 0);
    CHECK_STR(roundtrip(&a, " {\"b\": [1, 2.50, -0, true, null], \"a\": \"x\\ny\\u00e9\\ud83d\\ude00\"} ", false),
              "{\"b\":[1,2.50,0,true,null],\"a\":\"x\\ny\xc3\xa9\xf0\x9f\x98\x80\"}");
    CHECK_STR(roundtrip(&a, "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", true), "{\"a\":{\"c\":2,\"d\":1},\"b\":1}");
    /* a repeated key keeps its first place with the last value (LinkedHashMap) */
    CHECK_STR(roundtrip(&a, "{\"k\":1,\"j\":2,\"k\":3}", false), "{\"k\":3,\"j\":2}");
    /* content after the first value is not examined, as Jackson's readValue */
    CHECK_STR(roundtrip(&a, "[1] trailing", false), "[1]");
    CHECK_STR(roundtrip(&a, "\"\\u0001\\t\"", false), "\"\\u0001\\t\"");
    CHECK_STR(roundtrip(&a, "", false), "ERR: No content to map due to end-of-input");
    CHECK_STR(roundtrip(&a, "{\"a\":1", false), "ERR: Unexpected end-of-input: expected close marker for Object");
    CHECK_STR(roundtrip(&a, "01", false), "ERR: Invalid numeric value: Leading zeroes not allowed");
    CHECK_STR(roundtrip(&a, "abc", false),
              "ERR: Unrecognized token 'abc': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
    CHECK_STR(roundtrip(&a, "{'a':1}", false),
              "ERR: Unexpected character (''' (code 39)): was expecting double-quote to start field name");
    CHECK_STR(roundtrip(&a, "\"a\nb\"", false),
              "ERR: Illegal unquoted character ((CTRL-CHAR, code 10)): has to be escaped using backslash to be included in string value");
    CHECK_STR(roundtrip(&a, "[1,]", false),
              "ERR: Unexpected character (']' (code 93)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
    char err[128];
    CHECK(wjson_parse(&a, "[1] x", 5, true, err, sizeof err) == NULL);
    /* nesting limit: no stack overflow */
    char deep[3000];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    CHECK(wjson_parse(&a, deep, strlen(deep), false, err, sizeof err) == NULL);
    CHECK(strstr(err, "nesting depth") != NULL);
    warena_free(&a);
}

static char *num(WArena *a, const char *t)
{
    WStrBuf b;
    wsb_init(&b);
    wjson_number_java(t, strlen(t), &b);
    char *r = wa_strdup(a, b.buf);
    wsb_free(&b);
    return r;
}

WTEST(json_number_java_rendering)
{
    WArena a;
    warena_init(&a, 0);
    CHECK_STR(num(&a, "10"), "10");
    CHECK_STR(num(&a, "-0"), "0");
    CHECK_STR(num(&a, "1.50"), "1.50");
    CHECK_STR(num(&a, "1e3"), "1E+3");
    CHECK_STR(num(&a, "12.5e1"), "125");
    CHECK_STR(num(&a, "1.0E10"), "1.0E+10");
    CHECK_STR(num(&a, "0.00000001"), "1E-8");
    CHECK_STR(num(&a, "0.000001"), "0.000001");
    CHECK_STR(num(&a, "-0.0"), "0.0");
    CHECK_STR(num(&a, "123456789012345678901234567890123456789012"), "123456789012345678901234567890123456789012");
    char b[64];
    wjson_fmt_datetime(1704164645120LL, 0, ' ', b);
    CHECK_STR(b, "2024-01-02 03:04:05.12");
    wjson_fmt_datetime(-1, 999999, 'T', b);
    CHECK_STR(b, "1969-12-31T23:59:59.999999999");
    wjson_fmt_time(0, b);
    CHECK_STR(b, "00:00:00");
    warena_free(&a);
}

/* Evaluate path on doc; "ERR: msg", "NULL" or the JSON text of the result. */
static char *ev(WArena *a, const char *doc, const char *path)
{
    char err[512];
    WJsonPath p;
    if (!wjpath_compile(a, path, strlen(path), &p, err, sizeof err)) return wa_sprintf(a, "BAD: %s", err);
    WJson *root = wjson_parse(a, doc, strlen(doc), false, err, sizeof err);
    if (!root) return wa_sprintf(a, "DOC: %s", err);
    const WJson *out;
    if (!wjpath_eval(a, &p, root, &out, err, sizeof err)) return wa_sprintf(a, "ERR: %s", err);
    if (!out) return "NULL";
    WStrBuf b;
    wsb_init(&b);
    wjson_write(out, false, &b);
    char *r = wa_strdup(a, b.buf);
    wsb_free(&b);
    return r;
}

WTEST(json_path_eval)
{
    WArena a;
    warena_init(&a, 0);
    const char *d = "{\"a\":{\"b\":[10,{\"c\":\"x\"},30]},\"k y\":1,\"n\":null}";
    CHECK_STR(ev(&a, d, "$.a.b[0]"), "10");
    CHECK_STR(ev(&a, d, "strict $.a.b[-1]"), "30");
    CHECK_STR(ev(&a, d, "lax $.a.b[1].c"), "\"x\"");
    CHECK_STR(ev(&a, d, "$['k y']"), "1");
    CHECK_STR(ev(&a, d, "a.b[2]"), "30");                    /* '$.' is implied */
    CHECK_STR(ev(&a, d, "$"), "{\"a\":{\"b\":[10,{\"c\":\"x\"},30]},\"k y\":1,\"n\":null}");
    CHECK_STR(ev(&a, d, "$.a.b[*]"), "[10,{\"c\":\"x\"},30]");
    CHECK_STR(ev(&a, d, "$.a.b[0,2]"), "[10,30]");
    CHECK_STR(ev(&a, d, "$.a.b[1:]"), "[{\"c\":\"x\"},30]");
    CHECK_STR(ev(&a, d, "$.a.b[:-1]"), "[10,{\"c\":\"x\"}]");
    CHECK_STR(ev(&a, d, "$..c"), "[\"x\"]");
    CHECK_STR(ev(&a, d, "$.*"), "[{\"b\":[10,{\"c\":\"x\"},30]},1,null]");
    CHECK_STR(ev(&a, d, "$.a.b[*].c"), "[\"x\"]");
    CHECK_STR(ev(&a, d, "$.n"), "NULL");
    /* strict: Jayway's exceptions */
    CHECK_STR(ev(&a, d, "$.zz"), "ERR: No results for path: $['zz']");
    CHECK_STR(ev(&a, d, "strict $.zz.y"), "ERR: Missing property in path $['zz']");
    CHECK_STR(ev(&a, d, "$.a.b[7]"), "ERR: No results for path: $['a']['b'][7]");
    CHECK_STR(ev(&a, d, "$.a[0]"), "ERR: Filter: [0] can only be applied to arrays. Current context is: {b=[10, {c=x}, 30]}");
    CHECK_STR(ev(&a, d, "$.a.b.x"),
              "ERR: Expected to find an object with property ['x'] in path $['a']['b'] but found 'java.util.ArrayList'. "
              "This is not a json object according to the JsonProvider: 'com.jayway.jsonpath.spi.json.JacksonJsonProvider'.");
    CHECK_STR(ev(&a, d, "$.n.x"), "ERR: Expected to find an object with property ['x'] in path $['n'] but found 'null'. "
                                  "This is not a json object according to the JsonProvider: 'com.jayway.jsonpath.spi.json.JacksonJsonProvider'.");
    /* lax: nothing instead of errors */
    CHECK_STR(ev(&a, d, "lax $.zz"), "NULL");
    CHECK_STR(ev(&a, d, "lax $.zz.y"), "NULL");
    CHECK_STR(ev(&a, d, "LAX $.a[0]"), "NULL");
    CHECK_STR(ev(&a, d, "lax $.zz[*]"), "[]");
    /* indefinite paths skip what is missing even in strict mode */
    CHECK_STR(ev(&a, "[{\"a\":1},{\"b\":2}]", "$[*].a"), "[1]");
    /* invalid paths */
    CHECK_STR(ev(&a, d, "$["), "BAD: Illegal jsonpath spec ''$['', format of the spec should be: ''<lax|strict> $'{'expr'}'''");
    CHECK_STR(ev(&a, d, "lax $.a."), "BAD: Illegal jsonpath spec ''lax $.a.'', format of the spec should be: ''<lax|strict> $'{'expr'}'''");
    CHECK_STR(ev(&a, d, "$.a[?(@.b)]"), "BAD: Illegal jsonpath spec ''$.a[?(@.b)]'', format of the spec should be: ''<lax|strict> $'{'expr'}'''");
    CHECK_STR(ev(&a, d, ""), "BAD: Path can not be null or empty");
    CHECK_STR(ev(&a, "null", "$"), "ERR: json object can not be null");
    warena_free(&a);
}

/* The json format's options (connectors/format_json.h), validated as JsonFormatOptionsUtil does. */
#include "../../src/connectors/format_json.h"

static const char *fmt_err(const char *k1, const char *v1, const char *k2, const char *v2, bool as_source, WJsonFmt *out)
{
    static _Thread_local char msg[512];
    WOptions o;
    wopts_init(&o);
    if (k1) wopts_set(&o, k1, v1);
    if (k2) wopts_set(&o, k2, v2);
    WError e;
    werr_clear(&e);
    WJsonFmt cfg;
    bool ok = wjsonfmt_config(&cfg, &o, "json", as_source, &e);
    snprintf(msg, sizeof msg, "%s", ok ? "ok" : e.msg);
    if (out && ok) { *out = cfg; } else wjsonfmt_config_free(&cfg);
    wopts_free(&o);
    return msg;
}

WTEST(json_format_options)
{
    WJsonFmt c;
    CHECK_STR(fmt_err(NULL, NULL, NULL, NULL, true, &c), "ok");
    CHECK(!c.fail_on_missing && !c.ignore_errors && !c.iso8601 && c.null_key == WJF_NULLKEY_FAIL);
    CHECK_STR(c.null_key_literal, "null");
    wjsonfmt_config_free(&c);
    CHECK_STR(fmt_err("json.fail-on-missing-field", "true", "json.ignore-parse-errors", "true", true, NULL),
              "fail-on-missing-field and ignore-parse-errors shouldn't both be true.");
    CHECK_STR(fmt_err("json.fail-on-missing-field", "true", "json.ignore-parse-errors", "true", false, NULL), "ok");
    CHECK_STR(fmt_err("json.timestamp-format.standard", "iso", NULL, NULL, true, NULL),
              "Unsupported value 'iso' for timestamp-format.standard. Supported values are [SQL, ISO-8601].");
    CHECK_STR(fmt_err("json.map-null-key.mode", "KEEP", NULL, NULL, false, NULL),
              "Unsupported value 'KEEP' for option map-null-key.mode. Supported values are [LITERAL, FAIL, DROP].");
    CHECK_STR(fmt_err("json.map-null-key.mode", "KEEP", NULL, NULL, true, NULL), "ok");    /* decoding ignores it */
    CHECK_STR(fmt_err("json.map-null-key.mode", "literal", "json.map-null-key.literal", "N/A", false, &c), "ok");
    CHECK(c.null_key == WJF_NULLKEY_LITERAL);
    CHECK_STR(c.null_key_literal, "N/A");
    wjsonfmt_config_free(&c);
    CHECK_STR(fmt_err("json.timestamp-format.standard", "ISO-8601", "json.encode.ignore-null-fields", "true", false, &c), "ok");
    CHECK(c.iso8601 && c.ignore_null_fields);
    wjsonfmt_config_free(&c);
    CHECK(strcmp(fmt_err("json.ignore-parse-errors", "maybe", NULL, NULL, true, NULL), "ok") != 0);
}

/* an empty document given as a NULL buffer (an empty string's data pointer may be NULL) is
   "no content", with no arithmetic on the null pointer (issue 19, UBSan) */
WTEST(json_parse_null_buffer)
{
    WArena *a = warena_new(0);
    char err[256];
    CHECK(wjson_parse(a, NULL, 0, false, err, sizeof err) == NULL);
    CHECK(strstr(err, "No content to map due to end-of-input") != NULL);
    WStrBuf sb;
    wsb_init(&sb);
    wjson_number_java(NULL, 0, &sb);
    wsb_free(&sb);
    warena_delete(a);
}

/* The fast line reader of the json format (format_json.c) against the document tree: each line
   read alone by a reader with and without the fast path must give the same row (or the same
   error), under each decoding option. */
#include "../../src/types/format.h"
#include "../../src/types/chunk.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The rows r reads from path into a new chunk of n columns (empty, and "ERR <message>" on out,
   when the read fails; *skipped: lines skipped). */
static WChunk *read_rows(WJsonReader *r, const char *path, int n, const WType **types, WStrBuf *out, int64_t *skipped)
{
    WError e;
    werr_clear(&e);
    WChunk *ch = wchunk_new(n, types, 4);
    *skipped = 0;
    if (!wjsonfmt_reader_open(r, path, 0, 1, &e) || wjsonfmt_reader_fill(r, ch, skipped, &e) < 0) {
        wsb_append(out, "ERR ");
        wsb_append(out, e.msg);
        ch->nrows = 0;
    }
    return ch;
}

static void read_json_line(const WJsonFmt *cfg, int n, const char **names, const WType **types, const char *path,
                           bool tree, int64_t *fast, WStrBuf *out)
{
    WJsonReader *r = wjsonfmt_reader_new(cfg, n, names, types);
    if (tree) wjsonfmt_reader_tree_only(r);
    wjsonfmt_reader_skip_column(r, n - 1);      /* the last column is never read */
    int64_t skipped;
    WChunk *ch = read_rows(r, path, n, types, out, &skipped);
    for (int row = 0; row < ch->nrows; row++) {
        for (int c = 0; c < n; c++) {
            if (c) wsb_append(out, ", ");
            wfmt_java(types[c], ch->cols[c].data[row], ch->cols[c].nulls[row] != 0, NULL, out);
        }
        wsb_putc(out, ';');
    }
    if (skipped) wsb_append(out, " skipped");
    *fast += wjsonfmt_reader_fast_lines(r);
    wchunk_free(ch);
    wjsonfmt_reader_free(r);
}

/* The file at path read by the fast line reader and through the document tree only
   (read_json_line): true when both give the same text; else both are printed after `what`. */
static bool fast_and_tree_agree(const WJsonFmt *cfg, int n, const char **names, const WType **types, const char *path,
                                const char *what, int64_t *fast, int64_t *tree_fast)
{
    WStrBuf got, want;
    wsb_init(&got);
    wsb_init(&want);
    wsb_append(&got, "");
    wsb_append(&want, "");
    read_json_line(cfg, n, names, types, path, false, fast, &got);
    read_json_line(cfg, n, names, types, path, true, tree_fast, &want);
    bool same = strcmp(got.buf, want.buf) == 0;
    if (!same) fprintf(stderr, "%s: fast \"%s\", tree \"%s\"\n", what, got.buf, want.buf);
    wsb_free(&got);
    wsb_free(&want);
    return same;
}

/* A fresh directory made from the template in dir (mkdtemp), and path = its file l.json. */
static bool json_tmp_file(char *dir, char *path, size_t n)
{
    if (!mkdtemp(dir)) return false;
    snprintf(path, n, "%s/l.json", dir);
    return true;
}

/* cfg from the json options with one option set (key NULL: none). */
static bool json_cfg_with(const char *key, const char *val, WJsonFmt *cfg)
{
    WOptions wo;
    wopts_init(&wo);
    if (key) wopts_set(&wo, key, val);
    WError e;
    werr_clear(&e);
    bool ok = wjsonfmt_config(cfg, &wo, "json", true, &e);
    wopts_free(&wo);
    return ok;
}

/* path holds line and a newline, alone. */
static bool write_line(const char *path, const char *line)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fprintf(f, "%s\n", line);
    return fclose(f) == 0;
}

WTEST(json_fast_reader_matches_tree)
{
    WArena *a = warena_new(0);
    const char *zn[] = {"q"};
    const WType *zt[] = {&WTYPE_INT};
    const char *rn[] = {"x", "y", "z"};
    const WType *rt[] = {&WTYPE_BIGINT, &WTYPE_STRING, wtype_row(a, 1, zn, zt, true)};
    const char *names[] = {"a", "b", "s", "d", "r", "arr", "ts", "dec", "bo", "m", "sm", "f", "unread"};
    const WType *types[] = {&WTYPE_BIGINT, &WTYPE_INT, &WTYPE_STRING, &WTYPE_DOUBLE, wtype_row(a, 3, rn, rt, true),
                            wtype_array(a, &WTYPE_INT, true), wtype_timestamp(a, WT_TIMESTAMP, 3, true),
                            wtype_decimal(a, 10, 2, true), &WTYPE_BOOLEAN, wtype_map(a, &WTYPE_STRING, &WTYPE_INT, true),
                            &WTYPE_SMALLINT, &WTYPE_FLOAT, &WTYPE_STRING};
    int n = (int)(sizeof names / sizeof *names);
    static const char *lines[] = {
        "{\"a\":1,\"b\":2,\"s\":\"x\",\"d\":1.5,\"unread\":\"u\"}",
        "{\"s\":\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"}",
        "{\"s\":\"\\u00e9\\u4e2d\\ud83d\\ude00!\"}",
        "{\"s\":\"\\ud83dx\"}", "{\"s\":\"\\ude00\"}", "{\"s\":\"\\ud83d\\u0041\"}", "{\"s\":\"\\uD83D\\uDE00\"}",
        "{\"s\":\"\\u00zz\"}", "{\"s\":\"\\x\"}", "{\"s\":\"ctl\x01\"}", "{\"s\":\"open}",
        "{\"a\":9223372036854775807}", "{\"a\":-9223372036854775808}", "{\"a\":9223372036854775808}",
        "{\"a\":123456789012345678}", "{\"a\":-123456789012345678}", "{\"a\":999999999999999999}",
        "{\"a\":1.9}", "{\"a\":-1e18}", "{\"a\":1e19}", "{\"a\":\"42\"}", "{\"a\":\" 42 \"}", "{\"a\":-0}",
        "{\"b\":2147483647}", "{\"b\":-2147483648}", "{\"b\":2147483648}", "{\"b\":-2147483649}", "{\"b\":1e3}",
        "{\"d\":1e308}", "{\"d\":1e309}", "{\"d\":-0.0}", "{\"d\":\"1.5\"}", "{\"d\":4.9e-324}", "{\"d\":12}",
        "{\"f\":3.4028236e38}", "{\"f\":0.1}",
        "{\"dec\":1.005}", "{\"dec\":\"1.23\"}", "{\"dec\":12345678.9}", "{\"dec\":1e2}", "{\"dec\":123456789012}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}",
        "{\"r\":{\"x\":1,\"y\":\"q\",\"z\":{\"q\":5}}}", "{\"r\":{\"z\":null}}", "{\"r\":\"str\"}", "{\"r\":[1]}",
        "{\"r\":{\"x\":1,\"x\":2}}", "{\"a\":1,\"a\":2}", "{\"r\":{\"zz\":[{}],\"y\":\"\\u0041\"},\"r2\":1}",
        "{\"s\":{\"k\":[1,2.50,{\"z\":null}],\"k\":3}}", "{\"s\":[1, 2]}", "{\"s\":12.50}", "{\"s\":true}",
        "{\"arr\":[1,2,null]}", "{\"arr\":[1,\"x\"]}", "{\"m\":{\"k\":1,\"j\":null}}", "{\"m\":[]}",
        "{\"zz\":{\"a\":[1,{\"b\":\"\\u0041\"}],\"c\":true},\"a\":7}", "{\"zz\":[[[[]]]],\"a\":8}",
        "  { \"a\" : 1 , \"s\" : \"x\" }  trailing", "{}", "{\"a\":1}garbage", "{\"a\":1,}", "{,}", "{\"a\" 1}",
        "{\"a\":tru}", "{\"a\":truex}", "{\"a\":null}", "{\"a\":null,\"b\":nul}", "{\"bo\":true}", "{\"bo\":false}",
        "{\"bo\":\"TRUE\"}", "{\"bo\":1}", "[1,2]", "", "   ", "\"str\"", "{\"ts\":\"2024-01-02 03:04:05.678\"}",
        "{\"ts\":\"bad\"}", "{\"ts\":\"2024-01-02T03:04:05\"}",
        "{\"ts\":\"2024-02-30 00:00:00\"}", "{\"ts\":\"2024-02-29 23:59:59.123456789\"}", "{\"ts\":\"2023-02-29 01:02:03\"}",
        "{\"ts\":\"2024-01-02 03:04:05.\"}", "{\"ts\":\"2024-01-02 03:04\"}", "{\"ts\":\"0001-01-01 00:00:00\"}",
        "{\"ts\":\"9999-12-31 23:59:59.999999999\"}", "{\"ts\":\"2024-01-02 24:00:00\"}", "{\"ts\":\"1969-12-31 23:59:59.5\"}",
        "{\"ts\":\"2024-01-02 03:04:05.1234567890\"}", "{\"ts\":\"2024-1-02 03:04:05\"}", "{\"ts\":\"+2024-01-02 03:04:05\"}",
        "{\"ts\":\"2024-01-02T03:04:05.5\"}", "{\"ts\":\"2024-01-02 03:04:05Z\"}", "{\"ts\":\"12024-01-02 03:04:05\"}", "{\"\\u0061\":5}", "\xEF\xBB\xBF{\"a\":3}",
        "{\"sm\":12}", "{\"sm\":70000}", "{\"sm\":\"7\"}", "{\"a\":1,\"zz\":\"\\q\"}", "{\"a\":1,\"zz\":01}",
        "{\"a\":1,\"zz\":[1,]}", "{\"a\":1", "{\"a\":1,\"r\":{\"x\":2}", "{\"unread\":{\"x\":[}}",
        /* escapes on both sides of the unescape's 16-byte blocks, runs of them, one at the end */
        "{\"s\":\"0123456789abcde\\\\f\"}", "{\"s\":\"0123456789abcdef\\\\g\"}",
        "{\"s\":\"0123456789abcdef0123456789abcde\\u00e9\"}", "{\"s\":\"0123456789abcdef0123456789abcdef\"}",
        "{\"s\":\"\\\\\\\\\\\\0123456789abcdef0123456789abcdef\\n\"}",
        "{\"s\":\"a\\\\b\\\\c\\\\d\\\\e\\\\f\\\\g\\\\h\\\\i\\\\j\\\\k\\\\l\\\\m\", \"b\":3}",
        "{\"s\":\"0123456789abcdefghijklmnopqrstu\\\"\", \"r\":{\"y\":\"0123456789abcdefghijklmn\\/\"}}",
        /* whitespace beside the colons and commas the compact path takes without a scan, and
           lines that end at a key, a colon or a comma */
        "{\"a\" :1,\"b\":2}", "{\"a\": 1,\"b\":2}", "{\"a\":1 ,\"b\":2}", "{\"a\":1, \"b\":2}",
        "{\"a\":1,\"b\":2 }", "{\"a\":\t1,\r\"b\":2}", "{ \"r\":{ \"x\" : 1 },\"a\":2 }",
        "{\"r\":{\"x\":1 , \"y\":\"v\"} ,\"a\":3}", "{\"a\":}", "{\"a\":", "{\"a\"", "{\"a\":1,",
        "{\"a\":1,\"b\"", "{\"a\":1,\"b\":", "{\"r\":{\"x\":", "{\"a\"::1}", "{\"a\":,\"b\":2}",
    };
    const char *opts[][2] = {{NULL, NULL}, {"json.ignore-parse-errors", "true"}, {"json.fail-on-missing-field", "true"},
                             {"json.decode.json-parser.enabled", "false"},
                             {"json.timestamp-format.standard", "ISO-8601"}};
    char dir[] = "/tmp/weir-jsonfast-XXXXXX";
    char path[96];
    CHECK(json_tmp_file(dir, path, sizeof path));
    int64_t fast_default = 0;
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
        WJsonFmt cfg;
        CHECK(json_cfg_with(opts[o][0], opts[o][1], &cfg));
        int64_t fast = 0, tree_fast = 0;
        for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
            CHECK(write_line(path, lines[i]));
            char what[512];
            snprintf(what, sizeof what, "option %s, line %s", opts[o][0] ? opts[o][0] : "-", lines[i]);
            CHECK(fast_and_tree_agree(&cfg, n, names, types, path, what, &fast, &tree_fast));
        }
        CHECK(tree_fast == 0);
        if (o == 0) fast_default = fast;
        wjsonfmt_config_free(&cfg);
    }
    CHECK(fast_default >= 40);          /* the plain lines went through the fast path */
    unlink(path);
    rmdir(dir);
    warena_delete(a);
}

/* Member names on both sides of the fast reader's in-place key match (a name of up to 14 bytes,
   its quote and the colon compared as two words): names of 13-16 bytes, keys that are a name's
   prefix or extend it by a byte, whitespace before the colon, members out of order, a key at the
   line's end: each line reads as the tree path reads it. */
WTEST(json_fast_reader_key_lengths_match_tree)
{
    const char *names[] = {"k", "abcdefghijklm", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop", "unread"};
    const WType *types[] = {&WTYPE_BIGINT, &WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_STRING};
    int n = (int)(sizeof names / sizeof *names);
    static const char *lines[] = {
        "{\"k\":1,\"abcdefghijklm\":2,\"abcdefghijklmn\":\"x\",\"abcdefghijklmno\":4,\"abcdefghijklmnop\":\"y\"}",
        "{\"abcdefghijklmnop\":\"y\",\"abcdefghijklmno\":4,\"abcdefghijklmn\":\"x\",\"abcdefghijklm\":2,\"k\":1}",
        "{\"k\" :1,\"abcdefghijklm\" :2,\"abcdefghijklmn\" : \"x\",\"abcdefghijklmno\"\t:4}",
        "{\"k\":1,\"abcdefghijklmX\":2,\"abcdefghijklmnX\":\"x\",\"abcdefghijklmnoX\":4,\"abcdefghijklmnopX\":5}",
        "{\"k\":1,\"abcdefghijkl\":2,\"abcdefghijklm\":3,\"abcdefghijklmno\":4}",
        "{\"k\":1,\"kk\":2,\"\":3,\"abcdefghijklm\":7}", "{\"k\":1,\"abcdefghijklm\"",
        "{\"k\":1,\"abcdefghijklmn\":", "{\"k\":1,\"abcdefghijklmn\":\"x\",\"abcdefghijklmn\":\"z\"}",
        "{\"k\":1,\"abcdefghijklm\":2,\"abcdefghijklmn\"", "{\"k\":1,\"abcdefghijklmno\"::4}",
        "{\"abcdefghijklm\":\n2}", "{\"k\": 1, \"abcdefghijklmno\": 4 , \"unread\": \"u\"}",
    };
    char dir[] = "/tmp/weir-jsonkeys-XXXXXX";
    char path[96];
    CHECK(json_tmp_file(dir, path, sizeof path));
    WJsonFmt cfg;
    CHECK(json_cfg_with(NULL, NULL, &cfg));
    int64_t fast = 0, tree_fast = 0;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        for (int eol = 0; eol < 2; eol++) {     /* with its newline, and as the file's last bytes */
            FILE *f = fopen(path, "wb");
            CHECK(f != NULL);
            fprintf(f, "%s%s", lines[i], eol ? "" : "\n");
            CHECK(fclose(f) == 0);
            CHECK(fast_and_tree_agree(&cfg, n, names, types, path, lines[i], &fast, &tree_fast));
        }
    }
    CHECK(tree_fast == 0);
    CHECK(fast >= 10);                  /* the good lines went through the fast path */
    wjsonfmt_config_free(&cfg);
    unlink(path);
    rmdir(dir);
}

/* Long strings, with more of the line behind them in the reader's buffer (the fast reader's
   scans run on past a string's end): an escape (good or bad), a control character or the closing
   quote at every offset from 40 to 140 of a string (alone, and after a control character), read into a column, read into an
   unread column or skipped as an unknown member, with more of the line behind it, reads as the
   tree path reads it. */
WTEST(json_fast_reader_long_strings_match_tree)
{
    const char *names[] = {"a", "s", "unread"};
    const WType *types[] = {&WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_STRING};
    static const char *marks[] = {"\\\\", "\\\"", "\\u00e9", "\\n", "\\/", "\\x", "\\u00zz", "\x01", "\\\\\\\"",
                                  "\\\\\\\\\\\"", "\\ud83d\\ude00", "\",\"b2\":\""};
    static const char *members[] = {"s", "unread", "zz"};
    char dir[] = "/tmp/weir-jsonlong-XXXXXX";
    char path[96];
    CHECK(json_tmp_file(dir, path, sizeof path));
    WJsonFmt cfg;
    CHECK(json_cfg_with(NULL, NULL, &cfg));
    int64_t fast = 0, tree_fast = 0;
    int lines = 0;
    for (size_t m = 0; m < sizeof marks / sizeof *marks; m++) {
        for (size_t mem = 0; mem < sizeof members / sizeof *members; mem++) {
            for (int k = 0; k <= 2 * 101 - 1; k++) {
                int pos = 40 + k % 101;
                bool ctl_first = k > 100;       /* the second round: a control character before it */
                char body[400], line[600];
                int n = 0;
                for (int i = 0; i < pos; i++) body[n++] = (char)(ctl_first && i == 20 ? 0x02 : 'a' + i % 26);
                n += snprintf(body + n, sizeof body - (size_t)n, "%s", marks[m]);
                for (int i = 0; i < 90; i++) body[n++] = (char)('A' + i % 26);
                body[n] = 0;
                snprintf(line, sizeof line, "{\"a\":%d,\"%s\":\"%s\",\"tail\":\"%0120d\"}", pos, members[mem], body, 7);
                CHECK(write_line(path, line));
                CHECK(fast_and_tree_agree(&cfg, 3, names, types, path, line, &fast, &tree_fast));
                lines++;
            }
        }
    }
    CHECK(tree_fast == 0);
    CHECK(fast >= lines / 3);           /* the good escapes without a control character: fast path */
    wjsonfmt_config_free(&cfg);
    unlink(path);
    rmdir(dir);
}

/* Lines that cross the reader's buffer (256 KiB) at every kind of place and lines longer than it
   (the buffer grows for them): every row is read, in order, with its whole string, over many
   fills of small chunks. */
WTEST(json_reader_lines_across_and_beyond_the_buffer)
{
    const char *names[] = {"id", "s"};
    const WType *types[] = {&WTYPE_BIGINT, &WTYPE_STRING};
    char dir[] = "/tmp/weir-jsonbuf-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[96];
    snprintf(path, sizeof path, "%s/b.json", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    enum { LINES = 3000 };
    static int len[LINES];
    char *body = wmalloc(700001);
    for (int i = 0; i < 700000; i++) body[i] = (char)('a' + i % 26);
    body[700000] = 0;
    for (int i = 0; i < LINES; i++) {
        len[i] = i == 7 ? 700000 : i == 1500 ? 300000 : 1 + (i * 7919) % 997;
        fprintf(f, "{\"id\":%d,\"s\":\"%.*s\"}\n", i, len[i], body);
    }
    CHECK(fclose(f) == 0);
    WJsonFmt cfg;
    CHECK(json_cfg_with(NULL, NULL, &cfg));
    WJsonReader *r = wjsonfmt_reader_new(&cfg, 2, names, types);
    WError e;
    werr_clear(&e);
    CHECK(wjsonfmt_reader_open(r, path, 0, 1, &e));
    int rows = 0;
    bool same = true;
    for (;;) {
        WChunk *ch = wchunk_new(2, types, 16);
        int64_t skipped = 0;
        int k = wjsonfmt_reader_fill(r, ch, &skipped, &e);
        CHECK(k >= 0 && skipped == 0);
        for (int row = 0; row < ch->nrows; row++, rows++) {
            WStr sv = ch->cols[1].data[row].s;
            same = same && rows < LINES && ch->cols[0].data[row].i == rows && sv.len == len[rows] &&
                   memcmp(sv.p, body, (size_t)sv.len) == 0;
        }
        bool more = ch->nrows > 0;
        wchunk_free(ch);
        if (!more || k <= 0) break;
    }
    CHECK(same);
    CHECK_INT(rows, LINES);
    CHECK(wjsonfmt_reader_fast_lines(r) == LINES);
    wjsonfmt_reader_free(r);
    wjsonfmt_config_free(&cfg);
    free(body);
    unlink(path);
    rmdir(dir);
}

/* Fields of a ROW column the query does not read (wjsonfmt_reader_read_fields): the fast reader
   leaves its unread VARCHAR fields NULL, converts the other fields (whose conversion can fail a
   line) and checks every field's syntax, so a line gives the read fields' values, or the error,
   that the full read gives; under fail-on-missing-field the mask is not used. */
static void read_row_fields(const WJsonFmt *cfg, const WType *rt, const char *path, uint64_t mask, WStrBuf *out,
                            int64_t *fast)
{
    const char *names[] = {"id", "r"};
    const WType *types[] = {&WTYPE_BIGINT, rt};
    WJsonReader *r = wjsonfmt_reader_new(cfg, 2, names, types);
    wjsonfmt_reader_read_fields(r, 1, mask);
    int64_t skipped;
    WChunk *ch = read_rows(r, path, 2, types, out, &skipped);
    for (int row = 0; row < ch->nrows; row++) {
        wfmt_java(types[0], ch->cols[0].data[row], ch->cols[0].nulls[row] != 0, NULL, out);
        const WComposite *cx = ch->cols[1].nulls[row] ? NULL : ch->cols[1].data[row].cx;
        for (int f = 0; f < rt->nfields; f++) {
            wsb_append(out, f ? ", " : " (");
            if (!(mask >> f & 1)) { wsb_append(out, cx && !cx->nulls[f] ? "set" : "-"); continue; }
            wfmt_java(rt->fields[f], cx ? cx->vals[f] : (WDatum){0}, !cx || cx->nulls[f], NULL, out);
        }
        wsb_append(out, ");");
    }
    if (skipped) wsb_append(out, " skipped");
    *fast += wjsonfmt_reader_fast_lines(r);
    wchunk_free(ch);
    wjsonfmt_reader_free(r);
}

WTEST(json_fast_reader_unread_fields)
{
    WArena *a = warena_new(0);
    const char *fn[] = {"x", "y", "w", "ts"};
    const WType *ft[] = {&WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_STRING, wtype_timestamp(a, WT_TIMESTAMP, 3, true)};
    const WType *rt = wtype_row(a, 4, fn, ft, true);
    const uint64_t mask = 1;            /* the query reads r.x */
    static const struct { const char *line, *want; } cases[] = {
        {"{\"id\":1,\"r\":{\"x\":5,\"y\":\"a\\\\b\",\"w\":\"c\",\"ts\":\"2024-01-02 03:04:05\"}}", "1 (5, -, -, set);"},
        {"{\"id\":2,\"r\":{\"y\":{\"k\":[1,2]},\"w\":7.5,\"x\":6}}", "2 (6, -, -, -);"},
        {"{\"id\":3,\"r\":{\"x\":7,\"y\":true}}", "3 (7, -, -, -);"},
        {"{\"id\":4,\"r\":{\"x\":8,\"y\":\"\\q\"}}", "ERR"},              /* a bad escape: the line fails */
        {"{\"id\":5,\"r\":{\"x\":9,\"y\":[1,}}", "ERR"},                  /* bad syntax in an unread field */
        {"{\"id\":6,\"r\":{\"x\":1,\"ts\":\"bad\"}}", "ERR"},               /* an unread TIMESTAMP is converted */
        {"{\"id\":7,\"r\":{\"x\":1,\"y\":\"a\",\"y\":\"b\"}}", "7 (1, -, -, -);"},
    };
    const char *opts[][2] = {{NULL, NULL}, {"json.ignore-parse-errors", "true"}, {"json.fail-on-missing-field", "true"}};
    char dir[] = "/tmp/weir-jsonunread-XXXXXX";
    char path[96];
    CHECK(json_tmp_file(dir, path, sizeof path));
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
        WJsonFmt cfg;
        CHECK(json_cfg_with(opts[o][0], opts[o][1], &cfg));
        int64_t fast = 0, fast_all = 0;
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            CHECK(write_line(path, cases[i].line));
            WStrBuf got, all;
            wsb_init(&got);
            wsb_init(&all);
            wsb_append(&got, "");
            wsb_append(&all, "");
            read_row_fields(&cfg, rt, path, mask, &got, &fast);
            read_row_fields(&cfg, rt, path, UINT64_MAX, &all, &fast_all);
            /* the read field, or the error, is the full read's */
            if (!strcmp(cases[i].want, "ERR") || o == 2) {
                if (strncmp(all.buf, "ERR", 3) == 0 || strstr(all.buf, "skipped")) CHECK_STR(got.buf, all.buf);
            }
            if (o == 0) {
                if (!strcmp(cases[i].want, "ERR")) CHECK(strncmp(got.buf, "ERR", 3) == 0);
                else CHECK_STR(got.buf, cases[i].want);
            }
            if (o == 1 && !strcmp(cases[i].want, "ERR"))     /* a bad line skipped, a bad field NULL */
                CHECK_STR(got.buf, i == 5 ? "6 (1, -, -, -);" : " skipped");
            wsb_free(&got);
            wsb_free(&all);
        }
        /* lines 1-3 and 7 take the fast path with the mask (line 7: a duplicate unread field) */
        if (o != 2) CHECK(fast == 4);
        if (o == 2) CHECK(fast == fast_all);     /* fail-on-missing-field: the mask is not used */
        wjsonfmt_config_free(&cfg);
    }
    unlink(path);
    rmdir(dir);
    warena_delete(a);
}

/* All rows of path through one reader (fast path or document tree), formatted; "ERR <message>"
   ends the text where a read fails. */
static void read_json_file(const WJsonFmt *cfg, int n, const char **names, const WType **types, const char *path,
                           bool tree, int64_t *fast, WStrBuf *out)
{
    WJsonReader *r = wjsonfmt_reader_new(cfg, n, names, types);
    if (tree) wjsonfmt_reader_tree_only(r);
    WError e;
    werr_clear(&e);
    bool ok = wjsonfmt_reader_open(r, path, 0, 1, &e);
    while (ok) {
        WChunk *ch = wchunk_new(n, types, 7);
        int64_t skipped = 0;
        int k = wjsonfmt_reader_fill(r, ch, &skipped, &e);
        for (int row = 0; row < ch->nrows; row++) {
            for (int c = 0; c < n; c++) {
                if (c) wsb_append(out, ", ");
                wfmt_java(types[c], ch->cols[c].data[row], ch->cols[c].nulls[row] != 0, NULL, out);
            }
            wsb_putc(out, ';');
        }
        if (skipped) wsb_printf(out, " %lld skipped;", (long long)skipped);
        wchunk_free(ch);
        if (k < 0) { wsb_append(out, "ERR "); wsb_append(out, e.msg); }
        if (k <= 0) break;
    }
    *fast += wjsonfmt_reader_fast_lines(r);
    wjsonfmt_reader_free(r);
}

/* Timestamps read one after another by one reader, which keeps the last one's second
   (fast_timestamp's memo): lines that share the first 19 bytes with the line before, that differ
   from it in any one of those bytes, and that share them but end in a bad fraction or suffix,
   read as the document tree reads them. */
WTEST(json_fast_reader_timestamps_in_sequence)
{
    WArena *a = warena_new(0);
    const char *names[] = {"i", "ts", "t9"};
    const WType *types[] = {&WTYPE_INT, wtype_timestamp(a, WT_TIMESTAMP, 3, true), wtype_timestamp(a, WT_TIMESTAMP, 9, true)};
    static const char *base[] = {"2024-01-02 03:04:05", "2024-01-02T03:04:05", "1969-12-31 23:59:59", "2024-02-29 12:00:00"};
    static const char *tails[] = {"", ".5", ".123456789", ".", ".12x", "Z", ".1234567890", ".000"};
    char dir[] = "/tmp/weir-jsonts-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[96];
    snprintf(path, sizeof path, "%s/t.json", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    int i = 0;
    for (size_t b = 0; b < sizeof base / sizeof *base; b++) {
        for (int pos = -1; pos < 19; pos++) {           /* -1: the base itself */
            char ts[20];
            memcpy(ts, base[b], 20);
            if (pos >= 0) ts[pos] = ts[pos] == '9' ? '0' : ts[pos] == '-' || ts[pos] == ':' ? '/' : (char)(ts[pos] + 1);
            for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
                fprintf(f, "{\"i\":%d,\"ts\":\"%s%s\",\"t9\":\"%s%s\"}\n", i++, ts, tails[t], ts, tails[t]);
                fprintf(f, "{\"i\":%d,\"ts\":\"%s%s\",\"t9\":\"%s\"}\n", i++, ts, tails[(t + 1) % 8], base[b]);
            }
        }
    }
    CHECK(fclose(f) == 0);
    const char *opts[][2] = {{"json.ignore-parse-errors", "true"}, {"json.timestamp-format.standard", "ISO-8601"}, {NULL, NULL}};
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
        WJsonFmt cfg;
        CHECK(json_cfg_with(opts[o][0], opts[o][1], &cfg));
        WStrBuf got, want;
        wsb_init(&got);
        wsb_init(&want);
        wsb_append(&got, "");
        wsb_append(&want, "");
        int64_t fast = 0, tree_fast = 0;
        read_json_file(&cfg, 3, names, types, path, false, &fast, &got);
        read_json_file(&cfg, 3, names, types, path, true, &tree_fast, &want);
        CHECK_STR(got.buf, want.buf);
        CHECK(tree_fast == 0);
        if (o == 0) CHECK(fast >= 100);                 /* the good lines went through the fast path */
        wsb_free(&got);
        wsb_free(&want);
        wjsonfmt_config_free(&cfg);
    }
    unlink(path);
    rmdir(dir);
    warena_delete(a);
}
