"""cases.py — the function sweep's cases: for each built-in scalar function, an expression template and
the edge-case argument tuples it is evaluated over.

A case is (group, name, template, types, rows): template has {0}, {1}, ... for the varying arguments
(fixed arguments such as a format or a precision that must be literal are written into the template);
types gives each varying argument's SQL type (every value is written CAST(value AS type), so the literal
and the column forms have the same type); rows are tuples of SQL literal texts. Data only.
"""

NULL = "NULL"

# ------------------------------------------------------------------------------------ values
STR = [NULL, "''", "'abc'", "'Hello wORLD'", "'ß'", "'straße'", "'😀x😀'", "'  pad  '", "'日本語'"]
STR_SHORT = [NULL, "''", "'abc'", "'ß😀'"]
INTS = [NULL, "0", "-1", "3", "2147483647", "-2147483648"]
SMALLN = [NULL, "-1", "0", "2", "100"]
DBL = [NULL, "0.0", "-0.0", "1.5", "-2.5", "0.1", "1e308", "4.9E-324", "123456789.125"]
DEC = [NULL, "0.000", "-1.235", "2.5", "-2.5", "12345678901234567.891"]
DATES = [NULL, "'2024-02-29'", "'2023-02-28'", "'1970-01-01'", "'1969-12-31'", "'2000-02-29'",
         "'1900-03-01'", "'9999-12-31'"]
TS = [NULL, "'2024-02-29 23:59:59.999'", "'1970-01-01 00:00:00'", "'1969-12-31 23:59:59.123'",
      "'2024-12-31 12:00:00.5'", "'2000-01-01 00:00:00.001'"]
TS6 = [NULL, "'2024-02-29 23:59:59.999999'", "'1969-12-31 23:59:59.000001'", "'2024-03-10 02:30:00'"]
BADNUM = ["'12'", "' 7 '", "'-0'", "'1.5'", "'abc'", "''", "'2147483648'", "'1e3'", "'+4'", NULL]
BADDEC = ["'1.005'", "'-0.0'", "'123.456'", "'1e2'", "'x'", "'99999'", NULL]
BADDATE = ["'2024-02-29'", "'2023-02-29'", "'2024-13-01'", "'1970-1-1'", "'20240229'", "'x'", "''", NULL]
BADTS = ["'2024-02-29 12:34:56.789'", "'2024-02-29'", "'2024-02-29T12:34:56'", "'2024-02-30 00:00:00'",
         "'2024-02-29 12:34:56.123456789'", "'x'", NULL]
BOOLS = ["'true'", "'FALSE'", "'1'", "'yes'", "' true '", "'x'", NULL]


def one(vals):
    return [(v,) for v in vals]


def cross(*lists):
    out = [()]
    for l in lists:
        out = [o + (v,) for o in out for v in l]
    return out


def C(group, name, tmpl, types, rows):
    return (group, name, tmpl, types, rows)


S, I, D, DC, DT, T = "STRING", "INT", "DOUBLE", "DECIMAL(20,3)", "DATE", "TIMESTAMP(3)"
BY = "BYTES"
F, B = "FLOAT", "BOOLEAN"
JSON_TEXTS = [NULL, "'{\"a\" : [1, 2]}'", "'[1, 2 ,3]'", "'\"str\"'", "'42'", "'null'", "'true'",
              "' {\"b\" : [ {} ] } '", "''", "'{\"a\":1} x'", "'1.50'"]

URLS = [NULL, "''", "'not a url'", "'http://user:pw@ex.com:8080/p/a.html?q=1&r=2#frag'", "'https://ex.com'",
        "'https://ex.com/'", "'HTTP://Ex.COM/P?Q'", "'ftp://ftp.ex.org/pub/file.txt'", "'file:/tmp/a.txt'",
        "'file:///tmp/a.txt'", "'file:////srv/share/x'", "'mailto:someone@ex.com?subject=hi#top'", "'mailto:'",
        "'http://[::1]:9000/x?y#z'", "'http://[::1]x/'", "'http://[zz]/'", "'http://ex.com:abc/'",
        "'http://ex.com:-5/'", "'http://ex.com:/p'", "'http://a@b@c/x'", "'hdfs://nn:8020/data'",
        "'  http://ex.com/trim  '", "'url:http://ex.com/u'", "'http://ex.com?q=1'", "'http:?q'", "'http:p?x#y'",
        "'http:///p'", "'jar:file:/a.jar!/b/c.class?x#r'", "'jar:file:/a.jar'", "'#frag'", "'x-y.z://h/p'",
        "'jrt:/java.base/java/lang/Object.class'", "'http://ex.com/a?b?c#d#e'"]
CHARSETS = ["'UTF-8'", "'US-ASCII'", "'ISO-8859-1'", "'UTF-16BE'", "'UTF-16LE'", "'UTF-16'", "'utf8'", "'latin1'"]
# bytes in no charset of these decode to a control character (a NUL prints differently)
U8_BYTES = [NULL, "X''", "X'616263'", "X'c3a9'", "X'ff'", "X'c3'", "X'c341'", "X'e282'", "X'e28241'", "X'e282ac41'",
            "X'e08080'", "X'eda080'", "X'f09f9880'", "X'f09f98'", "X'f09f9841'", "X'f0928041'", "X'f8414243'",
            "X'c041'", "X'80'"]
U16_BYTES = [NULL, "X''", "X'00610062'", "X'feff0061'", "X'fffe6100'", "X'd83dde00'", "X'd83d'", "X'd83d0041'",
             "X'dc000041'", "X'006100'", "X'3dd800de'", "X'd83d41'"]

CASES = [
    # ----------------------------------------------------------------------------- string
    C("string", "UPPER", "UPPER({0})", [S], one(STR)),
    C("string", "LOWER", "LOWER({0})", [S], one(STR)),
    C("string", "INITCAP", "INITCAP({0})", [S], one(STR + ["'hello-world foo_bar'", "'ǆemal x'"])),
    C("string", "CHAR_LENGTH", "CHAR_LENGTH({0})", [S], one(STR)),
    C("string", "OCTET_LENGTH", "OCTET_LENGTH({0})", [S], one(STR)),
    C("string", "TRIM", "TRIM({0})", [S], one(STR)),
    C("string", "TRIM BOTH x", "TRIM(BOTH 'x' FROM {0})", [S], one(STR + ["'xxaxx'"])),
    C("string", "LTRIM", "LTRIM({0})", [S], one(STR)),
    C("string", "RTRIM", "RTRIM({0})", [S], one(STR)),
    C("string", "BTRIM", "BTRIM({0}, {1})", [S, S], cross(["'xxaxx'", "'abc'", NULL], ["'x'", "''", NULL])),
    C("string", "REVERSE", "REVERSE({0})", [S], one(STR)),
    C("string", "ASCII", "ASCII({0})", [S], one(STR)),
    C("string", "CHR", "CHR({0})", [I], one([NULL, "65", "0", "-1", "255", "256", "223"])),
    C("string", "MD5", "MD5({0})", [S], one(STR_SHORT)),
    C("string", "SHA1", "SHA1({0})", [S], one(STR_SHORT)),
    C("string", "SHA256", "SHA256({0})", [S], one(STR_SHORT)),
    C("string", "TO_BASE64", "TO_BASE64({0})", [S], one(STR_SHORT)),
    C("string", "FROM_BASE64", "FROM_BASE64({0})", [S], one([NULL, "''", "'YWJj'", "'w58='", "'!!'", "'YWJ'"])),
    C("string", "SUBSTRING", "SUBSTRING({0} FROM {1} FOR {2})", [S, I, I],
      cross(["'straße😀'", "''", NULL], ["0", "1", "2", "-1", "-3", "100"], ["0", "2", "-1", NULL])),
    C("string", "SUBSTR", "SUBSTR({0}, {1})", [S, I], cross(["'abcdef'", "'ß😀x'"], ["0", "1", "3", "-2", "-10", "10"])),
    C("string", "LEFT", "`LEFT`({0}, {1})", [S, I], cross(["'abc😀'", NULL], ["-1", "0", "2", "100", NULL])),
    C("string", "RIGHT", "`RIGHT`({0}, {1})", [S, I], cross(["'abc😀'", NULL], ["-1", "0", "2", "100", NULL])),
    C("string", "LPAD", "LPAD({0}, {1}, {2})", [S, I, S], cross(["'ab'", "'ß😀'", NULL], ["-1", "0", "1", "5"], ["''", "'xy'", "'ß'"])),
    C("string", "RPAD", "RPAD({0}, {1}, {2})", [S, I, S], cross(["'ab'", "'ß😀'", NULL], ["-1", "0", "1", "5"], ["''", "'xy'", "'ß'"])),
    C("string", "REPEAT", "REPEAT({0}, {1})", [S, I], cross(["'ab'", "''", "'ß'", NULL], ["-1", "0", "3", NULL])),
    C("string", "POSITION", "POSITION({0} IN {1})", [S, S], cross(["'b'", "''", "'ß'", NULL], ["'abcb'", "'straße'", "''"])),
    C("string", "LOCATE", "LOCATE({0}, {1})", [S, S], cross(["'b'", "''", "'😀'"], ["'abcb'", "'x😀b'", "''"])),
    C("string", "LOCATE3", "LOCATE({0}, {1}, {2})", [S, S, I], cross(["'b'", "''"], ["'abcb'"], ["-1", "0", "1", "3", "5", "9"])),
    C("string", "INSTR", "INSTR({0}, {1})", [S, S], cross(["'abcb'", "'x😀b'", "''", NULL], ["'b'", "''"])),
    C("string", "REPLACE", "REPLACE({0}, {1}, {2})", [S, S, S], cross(["'aaa'", "'straße'", "''"], ["'a'", "''", "'ß'"], ["'XY'", "''"])),
    C("string", "OVERLAY", "OVERLAY({0} PLACING {1} FROM {2} FOR {3})", [S, S, I, I],
      cross(["'abcdef'", "'ß😀x'"], ["'ZZ'", "''"], ["1", "3", "10", "0"], ["0", "2", "-1"])),
    C("string", "OVERLAY2", "OVERLAY({0} PLACING {1} FROM {2})", [S, S, I], cross(["'abcdef'"], ["'ZZ'", "''"], ["1", "5", "7", "8"])),
    C("string", "CONCAT", "CONCAT({0}, {1})", [S, S], cross(["'a'", "''", NULL], ["'ß'", "''", NULL])),
    C("string", "||", "{0} || {1}", [S, S], cross(["'a'", "''", NULL], ["'😀'", NULL])),
    C("string", "CONCAT_WS", "CONCAT_WS({0}, {1}, {2})", [S, S, S], cross(["'-'", "''", NULL], ["'a'", NULL], ["'b'", "''", NULL])),
    C("string", "SPLIT_INDEX", "SPLIT_INDEX({0}, {1}, {2})", [S, S, I],
      cross(["'a,b,,c'", "''", "',a'"], ["','", "''", "',,'"], ["-1", "0", "2", "5"])),
    C("string", "REGEXP_REPLACE", "REGEXP_REPLACE({0}, {1}, {2})", [S, S, S],
      cross(["'abc123def'", "''", "'straße'"], ["'[0-9]+'", "''", "'(b)(c)'", "'['"], ["'#'", "'$1'", "''"])),
    C("string", "REGEXP_EXTRACT", "REGEXP_EXTRACT({0}, {1}, {2})", [S, S, I],
      cross(["'foo123bar45'", "''"], ["'([a-z]+)([0-9]+)'", "'x(y)?'", "'('"], ["0", "1", "2", "3", "-1"])),
    C("string", "REGEXP", "REGEXP({0}, {1})", [S, S], cross(["'abc'", "''", NULL], ["'b'", "'^b'", "''", "'('"])),
    C("string", "LIKE", "{0} LIKE {1}", [S, S], cross(["'abc'", "'a_c'", "'ß'", "''"], ["'a%'", "'a\\_c'", "'_'", "'%'", "''"])),
    C("string", "SIMILAR TO", "{0} SIMILAR TO {1}", [S, S], cross(["'abc'", "''"], ["'a%'", "'(a|b)c'", "'[a-c]+'"])),
    C("string", "STARTSWITH", "STARTSWITH({0}, {1})", [S, S], cross(["'abc'", "''", NULL], ["'a'", "''", "'abcd'"])),
    C("string", "ENDSWITH", "ENDSWITH({0}, {1})", [S, S], cross(["'abc'", "''", NULL], ["'c'", "''", "'abcd'"])),
    C("string", "TRANSLATE", "TRANSLATE({0}, {1}, {2})", [S, S, S], cross(["'abcabc'", "'straße'", NULL], ["'ab'", "'ß'", "''"], ["'x'", "'XYZ'", "''"])),
    C("string", "ELT", "ELT({0}, 'a', 'b', 'c')", [I], one([NULL, "0", "1", "3", "4", "-1"])),
    C("string", "PRINTF", "PRINTF({0}, 42, 'x')", [S], one(["'%d-%s'", "'%5d]%-3s]'", "'%%'", "''", NULL])),
    # PRINTF: java.util.Formatter (Locale.US) over Flink's internal values; an exception is NULL (no '|'
    # in the formats: the sweep splits weir's tableau rows at it)
    C("string", "PRINTF int", "PRINTF({0}, CAST(-42 AS INT))", [S],
      one(["'%d'", "'%5d]'", "'%-5d]'", "'%05d'", "'%+d'", "'% d'", "'%(d'", "'%,d'", "'%x'", "'%X'", "'%#x'",
           "'%o'", "'%#o'", "'%08X'", "'%s'", "'%c'", "'%b'", "'%f'", "'%.2d'", "'%-d'", "'%+ d'", "'%#d'",
           "'%,x'", "'%2$d'", "'%<d'", "'%1$d %<x'"])),
    C("string", "PRINTF int positive", "PRINTF({0}, 1234567)", [S],
      one(["'%,d'", "'%+,010d'", "'%(d'", "'%c'", "'%10x]'", "'%-#10o]'"])),
    C("string", "PRINTF bigint", "PRINTF({0}, CAST(-1234567890123 AS BIGINT))", [S],
      one(["'%d'", "'%,d'", "'%x'", "'%o'", "'%020d'", "'%e'", "'%s'"])),
    C("string", "PRINTF tinyint", "PRINTF({0}, CAST(-1 AS TINYINT))", [S], one(["'%x'", "'%d'", "'%c'", "'%o'", "'%s'"])),
    C("string", "PRINTF smallint", "PRINTF({0}, CAST(-2 AS SMALLINT))", [S], one(["'%x'", "'%X'", "'%d'"])),
    C("string", "PRINTF double", "PRINTF({0}, CAST(1234.5678 AS DOUBLE))", [S],
      one(["'%f'", "'%.2f'", "'%.0f'", "'%10.3f]'", "'%-12.1f]'", "'%012.2f'", "'%+.3e'", "'%e'", "'%E'",
           "'%.0e'", "'%g'", "'%G'", "'%.3g'", "'%.0g'", "'%#.0f'", "'%,.2f'", "'%(.1f'", "'%s'", "'%d'",
           "'%#.0e'", "'%,e'", "'%#g'", "'% .1f'"])),
    C("string", "PRINTF double values", "PRINTF('%.2f]%e]%g]%s', {0}, {0}, {0}, {0})", [D], one(DBL)),
    C("string", "PRINTF double rounding", "PRINTF('%.2f]%.1e]%.3g', {0}, {0}, {0})", [D],
      one(["0.125", "2.675", "0.005", "0.0049", "9.995", "99.5", "-0.5", "1e-5", "123456.5", "0.00001234"])),
    C("string", "PRINTF negative double", "PRINTF({0}, CAST(-1234.5678 AS DOUBLE))", [S],
      one(["'%(,.2f'", "'%+f'", "'%010.1f'", "'%(e'", "'%s'"])),
    C("string", "PRINTF float", "PRINTF('%s]%.3f]%e', {0}, {0}, {0})", [F], one([NULL, "0.1", "1.5", "-3.25"])),
    C("string", "PRINTF string", "PRINTF({0}, 'héllo')", [S],
      one(["'%s'", "'%S'", "'%10s]'", "'%-10s]'", "'%.3s'", "'%b'", "'%c'", "'%d'", "'%#s'", "'%05s'", "'%-s'",
           "'%10.2s]'"])),
    C("string", "PRINTF upper", "PRINTF('%S', {0})", [S], one(["'straße'", "'abc'", NULL])),
    C("string", "PRINTF null arg", "PRINTF({0}, CAST(NULL AS INT))", [S],
      one(["'%s'", "'%d'", "'%b'", "'%5.2f]'", "'%c'", "'%X'", "'%.2s'"])),
    C("string", "PRINTF misc", "PRINTF({0}, 1, 2)", [S],
      one(["'%%'", "'%5%]'", "'%-5%]'", "'%q'", "'%'", "'abc'", "'%3$s'", "'%2$s %1$s'", "'%s %s %s'",
           "'%0$s'", "'%.s'", "'%-%'", "'%5n'", "'%D'"])),
    C("string", "PRINTF decimal", "PRINTF({0}, CAST(12.50 AS DECIMAL(5,2)))", [S], one(["'%s'", "'%f'", "'%d'", "'%b'", "'%10s]'"])),
    C("string", "PRINTF timestamp", "PRINTF({0}, CAST({1} AS TIMESTAMP(3)))", [S, None],
      cross(["'%s'", "'%b'"], ["'2024-02-29 12:34:56.789'", "'2024-02-29 00:00:00'", "'2024-02-29 12:34:56'"])),
    C("string", "PRINTF date time", "PRINTF({0}, DATE '2024-02-29', TIME '12:34:56')", [S], one(["'%s %s'", "'%d %d'"])),
    C("string", "PRINTF boolean", "PRINTF({0}, {1})", [S, B], cross(["'%s'", "'%b'", "'%B'", "'%d'"], ["TRUE", "FALSE"])),
    C("string", "URL_ENCODE", "URL_ENCODE({0})", [S], one(STR_SHORT + ["'a b&c=d/é'"])),
    C("string", "URL_DECODE", "URL_DECODE({0})", [S], one([NULL, "''", "'a+b%26c'", "'%C3%A9'", "'%zz'", "'%'"])),
    C("string", "HEX", "HEX({0})", [S], one(STR_SHORT)),
    C("string", "STR_TO_MAP", "STR_TO_MAP({0})", [S], one([NULL, "''", "'a=1,b=2'", "'a,b=,=c'", "'a=1,a=2'"])),
    C("string", "INET_ATON", "INET_ATON({0})", [S], one([NULL, "'127.0.0.1'", "'255.255.255.255'", "'1.2.3'", "'256.1.1.1'", "''"])),
    C("string", "INET_NTOA", "INET_NTOA({0})", [I], one([NULL, "0", "2130706433", "-1"])),
    C("string", "UNHEX", "UNHEX({0})", [S], one([NULL, "''", "'616263'", "'6'", "'zz'", "'abc'", "'ABCDEF'", "'g1'",
                                                "'1g'", "' 61'", "'0x61'", "'z6'", "'ß'"])),
    # PARSE_URL: the parts java.net.URL gives (Flink calls its getters) over URLs of every shape it
    # parses or refuses
] + [C("string", "PARSE_URL " + part.strip("'"), "PARSE_URL({0}, %s)" % part, [S], one(URLS))
     for part in ["'HOST'", "'PATH'", "'QUERY'", "'REF'", "'PROTOCOL'", "'FILE'", "'AUTHORITY'", "'USERINFO'",
                  "'host'", "'PORT'"]] + [
    C("string", "PARSE_URL part", "PARSE_URL('http://ex.com/p?q=1', {0})", [S], one([NULL, "''"])),
    C("string", "PARSE_URL QUERY key", "PARSE_URL({0}, 'QUERY', {1})", [S, S],
      cross(["'http://ex.com/p?q=1&r=2&q=3'", "'http://ex.com/p?a.b=1&axb=2&=e'", "'http://ex.com/p?q'",
             "'http://ex.com/p#q=1'"], ["'q'", "'r'", "'a.b'", "''", "'x'", NULL])),
    C("string", "PARSE_URL HOST key", "PARSE_URL({0}, 'HOST', 'q')", [S], one(["'http://ex.com/p?q=1'", NULL])),
] + [C("string", "ENCODE " + cs.strip("'"), "ENCODE({0}, %s)" % cs, [S], one(["''", "'abc'", "'é'", "'ß😀'", NULL]))
     for cs in CHARSETS] + [
    C("string", "ENCODE charset", "ENCODE('abc', {0})", [S], one([NULL, "'bogus'"])),
] + [C("string", "DECODE " + cs.strip("'"), "DECODE({0}, %s)" % cs, [BY], one(U16_BYTES if "16" in cs else U8_BYTES))
     for cs in CHARSETS] + [
    C("string", "DECODE charset", "DECODE(X'61', {0})", [S], one([NULL, "'bogus'"])),
    C("string", "ENCODE/DECODE", "DECODE(ENCODE({0}, 'UTF-8'), 'UTF-8')", [S], one(STR_SHORT)),
    # ----------------------------------------------------------------------------- numeric
    C("numeric", "ABS int", "ABS({0})", [I], one(INTS)),
    C("numeric", "ABS double", "ABS({0})", [D], one(DBL)),
    C("numeric", "ABS decimal", "ABS({0})", [DC], one(DEC)),
    C("numeric", "SIGN", "SIGN({0})", [D], one(DBL)),
    C("numeric", "SIGN decimal", "SIGN({0})", [DC], one(DEC)),
    C("numeric", "MOD", "MOD({0}, {1})", [I, I], cross(["7", "-7", "0", NULL], ["3", "-3", "0"])),
    C("numeric", "%", "{0} % {1}", [DC, DC], cross(["7.5", "-7.5"], ["2.000", "-2"])),
    C("numeric", "POWER", "POWER({0}, {1})", [D, D], cross(["2", "-8", "0", "-0.0"], ["0.5", "-1", "3", "0"])),
    C("numeric", "SQRT", "SQRT({0})", [D], one(DBL + ["-4"])),
    C("numeric", "EXP", "EXP({0})", [D], one(DBL + ["710"])),
    C("numeric", "LN", "LN({0})", [D], one(DBL + ["-1"])),
    C("numeric", "LOG10", "LOG10({0})", [D], one([NULL, "0", "-1", "1000", "0.001"])),
    C("numeric", "LOG2", "LOG2({0})", [D], one([NULL, "0", "-1", "8", "0.5"])),
    C("numeric", "LOG", "LOG({0}, {1})", [D, D], cross(["2", "10", "1", "0"], ["8", "100", "1", "-1"])),
    C("numeric", "CEIL double", "CEIL({0})", [D], one(DBL)),
    C("numeric", "FLOOR double", "FLOOR({0})", [D], one(DBL)),
    C("numeric", "CEIL decimal", "CEIL({0})", [DC], one(DEC)),
    C("numeric", "FLOOR decimal", "FLOOR({0})", [DC], one(DEC)),
    C("numeric", "ROUND double", "ROUND({0}, {1})", [D, I], cross(["2.5", "-2.5", "1.005", "123456789.125", "-0.0", NULL], ["0", "2", "-1"])),
    C("numeric", "ROUND decimal", "ROUND({0}, {1})", [DC, I], cross(["2.500", "-2.5", "1.005", "-1.235", "12345678901234567.891"], ["0", "2", "-1", "5"])),
    C("numeric", "ROUND int", "ROUND({0}, {1})", [I, I], cross(["15", "-15", "2147483647"], ["-1", "0", "1"])),
    C("numeric", "ROUND1", "ROUND({0})", [D], one(DBL)),
    C("numeric", "TRUNCATE double", "TRUNCATE({0}, {1})", [D, I], cross(["2.567", "-2.567", "-0.0", NULL], ["0", "2", "-1"])),
    C("numeric", "TRUNCATE decimal", "TRUNCATE({0}, {1})", [DC, I], cross(["2.567", "-2.567", "12345678901234567.891"], ["0", "2", "-1"])),
    C("numeric", "SIN/COS/TAN", "CONCAT_WS(' ', CAST(SIN({0}) AS STRING), CAST(COS({0}) AS STRING), CAST(TAN({0}) AS STRING))", [D], one([NULL, "0", "-0.0", "1", "1e308"])),
    C("numeric", "COT", "COT({0})", [D], one([NULL, "0", "1", "-1"])),
    C("numeric", "ASIN/ACOS/ATAN", "CONCAT_WS(' ', CAST(ASIN({0}) AS STRING), CAST(ACOS({0}) AS STRING), CAST(ATAN({0}) AS STRING))", [D], one([NULL, "0", "1", "2", "-0.5"])),
    C("numeric", "ATAN2", "ATAN2({0}, {1})", [D, D], cross(["0", "-0.0", "1"], ["0", "-1", "1"])),
    C("numeric", "SINH/COSH/TANH", "CONCAT_WS(' ', CAST(SINH({0}) AS STRING), CAST(COSH({0}) AS STRING), CAST(TANH({0}) AS STRING))", [D], one([NULL, "0", "1", "800"])),
    C("numeric", "DEGREES/RADIANS", "CONCAT_WS(' ', CAST(DEGREES({0}) AS STRING), CAST(RADIANS({0}) AS STRING))", [D], one([NULL, "0", "180", "-1.5"])),
    C("numeric", "BIN", "BIN({0})", [I], one(INTS)),
    C("numeric", "HEX int", "HEX({0})", [I], one(INTS)),
    C("numeric", "PI/E", "PI() + {0} * E()", [D], one(["0", "1"])),
    C("numeric", "int +", "{0} + {1}", [I, I], cross(["2147483647", "-2147483648", "1"], ["1", "-1"])),
    C("numeric", "int *", "{0} * {1}", [I, I], cross(["2147483647", "65536"], ["2", "65536"])),
    C("numeric", "int /", "{0} / {1}", [I, I], cross(["7", "-7", "0"], ["2", "-2", "0"])),
    C("numeric", "bigint /", "{0} / {1}", ["BIGINT", "BIGINT"], cross(["-9223372036854775808", "9"], ["-1", "4"])),
    C("numeric", "double /", "{0} / {1}", [D, D], cross(["1", "-1", "0"], ["0", "-0.0", "3"])),
    C("numeric", "decimal /", "{0} / {1}", [DC, DC], cross(["1", "-2.5", "12345678901234567.891"], ["3", "0.007", "0"])),
    C("numeric", "decimal *", "{0} * {1}", ["DECIMAL(38,10)", "DECIMAL(38,10)"], cross(["1.5", "12345678901234567890.5"], ["2", "1234567890123456789.25"])),
    C("numeric", "decimal +", "{0} + {1}", ["DECIMAL(10,2)", "DECIMAL(5,4)"], cross(["99999999.99", "-0.01"], ["9.9999", "0.0001"])),
    C("numeric", "int-decimal", "{0} * {1}", [I, "DECIMAL(5,2)"], cross(["3", "-2147483648"], ["1.25", "-0.01"])),
    C("numeric", "double-decimal", "{0} + {1}", [D, "DECIMAL(5,2)"], cross(["0.1", "-0.0"], ["0.2", "1.25"])),
    C("numeric", "unary -", "-{0}", [I], one(INTS)),
    C("numeric", "unary - double", "-{0}", [D], one(["0.0", "-0.0", "1.5"])),
    C("numeric", "float ops", "{0} * 3", ["FLOAT"], one(["0.1", "-0.0", "3.4e38", "1e-45", NULL])),
    # ----------------------------------------------------------------------------- cast
    C("cast", "CAST STRING AS INT", "CAST({0} AS INT)", [S], one(BADNUM)),
    C("cast", "CAST STRING AS BIGINT", "CAST({0} AS BIGINT)", [S], one(BADNUM)),
    C("cast", "CAST STRING AS TINYINT", "CAST({0} AS TINYINT)", [S], one(["'127'", "'128'", "'-128'", "'1.9'", NULL])),
    C("cast", "TRY_CAST STRING AS INT", "TRY_CAST({0} AS INT)", [S], one(BADNUM)),
    C("cast", "CAST STRING AS DOUBLE", "CAST({0} AS DOUBLE)", [S], one(BADNUM + ["'NaN'", "'-Infinity'", "'1e400'", "'0x10'", "'1d'"])),
    C("cast", "CAST STRING AS DECIMAL", "CAST({0} AS DECIMAL(5,2))", [S], one(BADDEC)),
    C("cast", "TRY_CAST STRING AS DECIMAL", "TRY_CAST({0} AS DECIMAL(5,2))", [S], one(BADDEC)),
    C("cast", "CAST STRING AS BOOLEAN", "CAST({0} AS BOOLEAN)", [S], one(BOOLS)),
    C("cast", "CAST STRING AS DATE", "CAST({0} AS DATE)", [S], one(BADDATE)),
    C("cast", "TRY_CAST STRING AS DATE", "TRY_CAST({0} AS DATE)", [S], one(BADDATE)),
    C("cast", "CAST STRING AS TIMESTAMP", "CAST({0} AS TIMESTAMP(3))", [S], one(BADTS)),
    C("cast", "TRY_CAST STRING AS TIMESTAMP", "TRY_CAST({0} AS TIMESTAMP(6))", [S], one(BADTS)),
    C("cast", "CAST STRING AS TIME", "CAST({0} AS TIME)", [S], one(["'12:34:56'", "'12:34'", "'25:00:00'", "'12:34:56.789'", "'x'", NULL])),
    C("cast", "CAST DOUBLE AS STRING", "CAST({0} AS STRING)", [D], one(DBL + ["1e7", "1.0E-3", "123456789012345678"])),
    C("cast", "CAST FLOAT AS STRING", "CAST({0} AS STRING)", ["FLOAT"], one(["0.1", "-0.0", "1e7", "3.4e38", NULL])),
    C("cast", "CAST DOUBLE AS INT", "CAST({0} AS INT)", [D], one(DBL + ["-1.9", "3e9"])),
    C("cast", "CAST DOUBLE AS BIGINT", "CAST({0} AS BIGINT)", [D], one(["1e19", "-9.9", "0.5"])),
    C("cast", "CAST DOUBLE AS DECIMAL", "CAST({0} AS DECIMAL(6,2))", [D], one(["1.005", "-2.675", "9999.995", "123456.7", "-0.0", NULL])),
    C("cast", "CAST DECIMAL AS INT", "CAST({0} AS INT)", [DC], one(DEC + ["3000000000.5"])),
    C("cast", "CAST DECIMAL AS DECIMAL", "CAST({0} AS DECIMAL(4,1))", [DC], one(DEC + ["999.95", "-999.949"])),
    C("cast", "CAST DECIMAL AS STRING", "CAST({0} AS STRING)", [DC], one(DEC)),
    C("cast", "CAST DECIMAL AS DOUBLE", "CAST({0} AS DOUBLE)", [DC], one(DEC)),
    C("cast", "CAST INT AS TINYINT", "CAST({0} AS TINYINT)", [I], one(INTS + ["200"])),
    C("cast", "CAST INT AS BOOLEAN", "CAST({0} AS BOOLEAN)", [I], one(["0", "1", "-5", NULL])),
    C("cast", "CAST BOOLEAN AS INT", "CAST({0} AS INT)", ["BOOLEAN"], one(["TRUE", "FALSE", NULL])),
    C("cast", "CAST DATE AS STRING", "CAST({0} AS STRING)", [DT], one(DATES)),
    C("cast", "CAST TIMESTAMP AS STRING", "CAST({0} AS STRING)", [T], one(TS)),
    C("cast", "CAST TIMESTAMP(6) AS STRING", "CAST({0} AS STRING)", ["TIMESTAMP(6)"], one(TS6)),
    C("cast", "CAST TIMESTAMP AS DATE", "CAST({0} AS DATE)", [T], one(TS)),
    C("cast", "CAST TIMESTAMP AS TIME", "CAST({0} AS TIME(0))", [T], one(TS)),
    C("cast", "CAST TIMESTAMP(6) AS TIMESTAMP(0)", "CAST({0} AS TIMESTAMP(0))", ["TIMESTAMP(6)"], one(TS6)),
    C("cast", "CAST DATE AS TIMESTAMP", "CAST({0} AS TIMESTAMP(3))", [DT], one(DATES)),
    C("cast", "CAST STRING AS CHAR", "CAST({0} AS CHAR(3))", [S], one(STR)),
    C("cast", "CAST STRING AS VARCHAR", "CAST({0} AS VARCHAR(2))", [S], one(STR)),
    C("cast", "CAST STRING AS BYTES", "CAST({0} AS BYTES)", [S], one(STR_SHORT)),
    C("cast", "CAST INT AS STRING", "CAST({0} AS STRING)", [I], one(INTS)),
    C("cast", "CAST BIGINT AS INT", "CAST({0} AS INT)", ["BIGINT"], one(["9223372036854775807", "-2147483649", NULL])),
    C("cast", "CAST BIGINT AS DOUBLE", "CAST({0} AS DOUBLE)", ["BIGINT"], one(["9223372036854775807", "123456789012345678", NULL])),
    # ----------------------------------------------------------------------------- conditional
    C("conditional", "COALESCE", "COALESCE({0}, {1}, 'z')", [S, S], cross([NULL, "''", "'a'"], [NULL, "'b'"])),
    C("conditional", "NULLIF", "NULLIF({0}, {1})", [I, I], cross([NULL, "1", "2"], [NULL, "1"])),
    C("conditional", "IFNULL", "IFNULL({0}, {1})", [D, D], cross([NULL, "-0.0"], [NULL, "2"])),
    C("conditional", "IF", "IF({0} > 0, 'pos', 'nonpos')", [I], one([NULL, "0", "5", "-5"])),
    C("conditional", "CASE", "CASE {0} WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'other' END", [I], one([NULL, "1", "2", "3"])),
    C("conditional", "CASE searched", "CASE WHEN {0} < 0 THEN -1 WHEN {0} = 0 THEN 0 END", [D], one([NULL, "-0.0", "0.0", "-1", "1"])),
    C("conditional", "GREATEST", "GREATEST({0}, {1}, 2)", [I, I], cross([NULL, "1", "5"], [NULL, "3"])),
    C("conditional", "LEAST", "LEAST({0}, {1})", [S, S], cross([NULL, "'a'", "'ß'", "''"], ["'b'", "'ä'"])),
    C("conditional", "GREATEST double", "GREATEST({0}, {1})", [D, D], cross(["-0.0", "0.0", "1.5"], ["0.0", "-0.0"])),
    C("conditional", "IS DISTINCT FROM", "{0} IS DISTINCT FROM {1}", [I, I], cross([NULL, "1"], [NULL, "1", "2"])),
    C("conditional", "BETWEEN", "{0} BETWEEN {1} AND 5", [I, I], cross([NULL, "1", "3", "6"], [NULL, "2", "7"])),
    C("conditional", "BETWEEN SYMMETRIC", "{0} BETWEEN SYMMETRIC 5 AND {1}", [I, I], cross([NULL, "3", "6"], ["2", "7"])),
    C("conditional", "IN", "{0} IN (1, 2, NULL)", [I], one([NULL, "1", "3"])),
    C("conditional", "NOT IN", "{0} NOT IN (1, 2)", [I], one([NULL, "1", "3"])),
    C("conditional", "IS TRUE", "CONCAT_WS(',', CAST({0} IS TRUE AS STRING), CAST({0} IS NOT FALSE AS STRING), CAST({0} IS UNKNOWN AS STRING))", ["BOOLEAN"], one([NULL, "TRUE", "FALSE"])),
    C("conditional", "AND/OR", "CONCAT_WS(',', CAST({0} AND {1} AS STRING), CAST({0} OR {1} AS STRING), CAST(NOT {0} AS STRING))", ["BOOLEAN", "BOOLEAN"], cross([NULL, "TRUE", "FALSE"], [NULL, "TRUE", "FALSE"])),
    C("conditional", "= on strings", "{0} = {1}", [S, "CHAR(3)"], cross(["'ab'", "'ab '", "''"], ["'ab'", "''"])),
    C("conditional", "< mixed numeric", "{0} < {1}", [I, D], cross(["1", "-1", NULL], ["1.5", "-0.0"])),
    # ----------------------------------------------------------------------------- time
    C("time", "DATE_FORMAT", "DATE_FORMAT({0}, {1})", [T, S],
      cross(TS, ["'yyyy-MM-dd HH:mm:ss.SSS'", "'EEE dd MMM yy'", "'D w u a hh'", "''", "'x''y'"])),
    C("time", "DATE_FORMAT weeks", "DATE_FORMAT({0}, 'YYYY-ww w u uu S SSSSSS')", ["TIMESTAMP(6)"],
      one(["'2021-01-01 00:00:00.123456'", "'2020-12-27 10:00:00'", "'2016-01-02 23:59:59.5'",
           "'2016-01-03 00:00:00.000001'", "'2019-12-29 12:00:00'", "'2022-12-31 08:00:00'", "'2023-01-01 08:00:00'"])),
    C("time", "DATE_FORMAT string", "DATE_FORMAT({0}, 'yyyy/MM/dd')", [S], one(BADTS)),
    C("time", "TO_DATE", "TO_DATE({0})", [S], one(BADDATE)),
    C("time", "TO_DATE fmt", "TO_DATE({0}, {1})", [S, S], cross(["'29/02/2024'", "'31/04/2024'", "'1/1/70'", "'x'"], ["'dd/MM/yyyy'", "'d/M/yy'"])),
    C("time", "TO_TIMESTAMP", "TO_TIMESTAMP({0})", [S], one(BADTS)),
    C("time", "TO_TIMESTAMP fmt", "TO_TIMESTAMP({0}, {1})", [S, S], cross(["'2024/02/29 01:02:03'", "'2024/02/29'", "'x'"], ["'yyyy/MM/dd HH:mm:ss'", "'yyyy/MM/dd'"])),
    C("time", "UNIX_TIMESTAMP", "UNIX_TIMESTAMP({0})", [S], one(BADTS)),
    C("time", "UNIX_TIMESTAMP fmt", "UNIX_TIMESTAMP({0}, {1})", [S, S], cross(["'2024-02-29'", "'1969-12-31'", "'x'"], ["'yyyy-MM-dd'"])),
    C("time", "FROM_UNIXTIME", "FROM_UNIXTIME({0})", ["BIGINT"], one([NULL, "0", "-1", "1709251199", "253402300799"])),
    C("time", "FROM_UNIXTIME fmt", "FROM_UNIXTIME({0}, {1})", ["BIGINT", S], cross(["0", "1709251199"], ["'yyyy-MM-dd'", "'HH:mm:ss.SSS'", "''"])),
    C("time", "TO_TIMESTAMP_LTZ 3", "TO_TIMESTAMP_LTZ({0}, 3)", ["BIGINT"], one([NULL, "0", "-1", "1709251199999"])),
    C("time", "TO_TIMESTAMP_LTZ 0", "TO_TIMESTAMP_LTZ({0}, 0)", ["BIGINT"], one([NULL, "0", "-1", "1709251199"])),
    C("time", "TO_TIMESTAMP_LTZ string", "TO_TIMESTAMP_LTZ({0})", [S], one(BADTS)),
    C("time", "LTZ AS STRING", "CAST(TO_TIMESTAMP_LTZ({0}, 3) AS STRING)", ["BIGINT"], one(["0", "1709251199999", "1710037800000"])),
    C("time", "LTZ AS TIMESTAMP", "CAST(TO_TIMESTAMP_LTZ({0}, 3) AS TIMESTAMP(3))", ["BIGINT"], one(["0", "1709251199999", "1710037800000"])),
    C("time", "TIMESTAMP AS LTZ", "CAST({0} AS TIMESTAMP_LTZ(3))", [T], one(TS)),
    C("time", "CONVERT_TZ", "CONVERT_TZ({0}, 'UTC', {1})", [S, S],
      cross(["'2024-02-29 23:30:00'", "'1970-01-01 00:00:00'", "'x'"], ["'Asia/Kolkata'", "'America/Los_Angeles'", "'Nowhere/X'"])),
    C("time", "EXTRACT date", "EXTRACT({1} FROM {0})", [DT, None],
      cross(DATES, ["YEAR", "MONTH", "DAY", "DOW", "DOY", "WEEK", "QUARTER", "DECADE", "CENTURY", "MILLENNIUM", "ISODOW", "ISOYEAR", "EPOCH"])),
    C("time", "EXTRACT ts", "EXTRACT({1} FROM {0})", ["TIMESTAMP(6)", None],
      cross(TS6, ["HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "EPOCH"])),
    C("time", "YEAR..DAYOFWEEK", "CONCAT_WS(',', CAST(YEAR({0}) AS STRING), CAST(QUARTER({0}) AS STRING), CAST(MONTH({0}) AS STRING), CAST(WEEK({0}) AS STRING), CAST(DAYOFYEAR({0}) AS STRING), CAST(DAYOFMONTH({0}) AS STRING), CAST(DAYOFWEEK({0}) AS STRING))", [DT], one(DATES)),
    C("time", "HOUR/MINUTE/SECOND", "CONCAT_WS(',', CAST(HOUR({0}) AS STRING), CAST(MINUTE({0}) AS STRING), CAST(SECOND({0}) AS STRING))", [T], one(TS)),
    C("time", "FLOOR ts", "FLOOR({0} TO {1})", [T, None], cross(TS, ["SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR"])),
    C("time", "CEIL ts", "CEIL({0} TO {1})", [T, None], cross(TS, ["SECOND", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"])),
    C("time", "FLOOR date", "FLOOR({0} TO {1})", [DT, None], cross(DATES, ["WEEK", "MONTH", "YEAR"])),
    C("time", "TIMESTAMPADD", "TIMESTAMPADD({1}, {2}, {0})", [T, None, I],
      cross(TS[:4], ["SECOND", "DAY", "MONTH", "YEAR"], ["1", "-1", "12", NULL])),
    C("time", "TIMESTAMPADD date", "TIMESTAMPADD({1}, {2}, {0})", [DT, None, I], cross(DATES[:5], ["DAY", "MONTH", "YEAR"], ["1", "-1"])),
    C("time", "TIMESTAMPDIFF", "TIMESTAMPDIFF({2}, {0}, {1})", [T, T, None],
      cross(TS[1:4], TS[1:4], ["SECOND", "DAY", "MONTH", "YEAR"])),
    C("time", "date + interval", "{0} + INTERVAL '1' MONTH", [DT], one(DATES[:-1] + ["'2024-01-31'"])),
    C("time", "date - interval year", "{0} - INTERVAL '1' YEAR", [DT], one(DATES[:-1])),
    C("time", "ts + interval", "{0} + INTERVAL '1 02:03:04.5' DAY TO SECOND", [T], one(TS)),
    C("time", "date - date", "TIMESTAMPDIFF(DAY, {0}, {1})", [DT, DT], cross(["'2024-02-29'", "'1969-12-31'"], ["'2024-03-01'", "'1970-01-01'"])),
    C("time", "LAST_DAY", "LAST_DAY({0})", [DT], one(DATES)),
    C("time", "DAYNAME", "DAYNAME({0})", [DT], one(DATES)),
    C("time", "DATE literal fn", "DATE_FORMAT({0}, 'yyyy-MM-dd')", [DT], one(DATES)),
    C("time", "CAST LTZ AS DATE", "CAST(TO_TIMESTAMP_LTZ({0}, 3) AS DATE)", ["BIGINT"], one(["0", "-1", "1709251199999"])),
    # ----------------------------------------------------------------------------- json
    C("json", "JSON_VALUE", "JSON_VALUE({0}, {1})", [S, None],
      cross(["'{\"a\": 1, \"b\": [1, 2], \"c\": \"ß\", \"d\": null, \"e\": 1.50, \"f\": true}'", "'[1,2]'", "'not json'", "''", NULL],
            ["'$.a'", "'$.b'", "'$.b[1]'", "'$.c'", "'$.d'", "'$.e'", "'$.f'", "'$.x'", "'$'", "'lax $.a'", "'strict $.x'"])),
    C("json", "JSON_VALUE RETURNING", "JSON_VALUE({0}, '$.a' RETURNING {1})", [S, None],
      cross(["'{\"a\": 1.5}'", "'{\"a\": \"x\"}'", "'{\"a\": true}'", "'{\"a\": \"2024-02-29\"}'"], ["INT", "DOUBLE", "BOOLEAN", "DATE", "DECIMAL(5,2)", "STRING"])),
    C("json", "JSON_VALUE DEFAULT", "JSON_VALUE({0}, '$.a' RETURNING INT DEFAULT -1 ON EMPTY DEFAULT -2 ON ERROR)", [S],
      one(["'{\"a\": 1}'", "'{}'", "'{\"a\": \"x\"}'", "'x'"])),
    C("json", "JSON_VALUE ERROR ON ERROR", "JSON_VALUE({0}, 'strict $.a' ERROR ON ERROR)", [S], one(["'{\"a\": 1}'", "'{}'", "'x'"])),
    C("json", "JSON_QUERY", "JSON_QUERY({0}, {1})", [S, None],
      cross(["'{\"a\": {\"x\": [1, \"ß\"]}, \"b\": [1, 2], \"c\": 3}'", "'x'", NULL], ["'$.a'", "'$.b'", "'$.c'", "'$.z'", "'$'"])),
    C("json", "JSON_QUERY wrapper", "JSON_QUERY({0}, {1} WITH CONDITIONAL ARRAY WRAPPER)", [S, None],
      cross(["'{\"a\": {\"x\": 1}, \"b\": [1, 2], \"c\": \"s\"}'"], ["'$.a'", "'$.b'", "'$.c'", "'$.z'"])),
    C("json", "JSON_QUERY unconditional", "JSON_QUERY({0}, {1} WITH ARRAY WRAPPER)", [S, None],
      cross(["'{\"a\": {\"x\": 1}, \"b\": [1, 2], \"c\": \"s\"}'"], ["'$.a'", "'$.b'", "'$.c'", "'$.z'"])),
    C("json", "JSON_QUERY EMPTY", "JSON_QUERY({0}, '$.z' EMPTY ARRAY ON EMPTY)", [S], one(["'{}'", "'x'"])),
    C("json", "JSON_EXISTS", "JSON_EXISTS({0}, {1})", [S, None], cross(["'{\"a\": null, \"b\": [1]}'", "'x'", NULL], ["'$.a'", "'$.b[0]'", "'$.b[3]'", "'$.z'", "'strict $.z'"])),
    C("json", "IS JSON", "CONCAT_WS(',', CAST({0} IS JSON AS STRING), CAST({0} IS JSON OBJECT AS STRING), CAST({0} IS JSON ARRAY AS STRING), CAST({0} IS JSON SCALAR AS STRING))", [S],
      one([NULL, "''", "'1'", "'\"s\"'", "'{}'", "'[1,]'", "'[]'", "'{\"a\":1} x'", "'null'"])),
    C("json", "JSON_OBJECT", "JSON_OBJECT('k' VALUE {0}, 'n' VALUE {1})", [S, I], cross([NULL, "'ß\"\\'", "''"], [NULL, "-1"])),
    C("json", "JSON_OBJECT ABSENT", "JSON_OBJECT('k' VALUE {0} ABSENT ON NULL)", [D], one([NULL, "-0.0", "1e20", "0.1"])),
    C("json", "JSON_ARRAY", "JSON_ARRAY({0}, {1} NULL ON NULL)", [S, "BOOLEAN"], cross([NULL, "'😀'"], [NULL, "TRUE"])),
    C("json", "JSON_ARRAY nested", "JSON_ARRAY(JSON_OBJECT('a' VALUE {0}), JSON('[1]'))", [DC], one([NULL, "1.500", "-0.000"])),
    # JSON(text): text inserted as JSON by the JSON_OBJECT / JSON_ARRAY it is a value of
    C("json", "JSON in JSON_OBJECT", "JSON_OBJECT('k' VALUE JSON({0}))", [S], one(JSON_TEXTS)),
    C("json", "JSON in JSON_ARRAY", "JSON_ARRAY(JSON({0}), 1)", [S], one(JSON_TEXTS)),
    C("json", "JSON in JSON_OBJECT absent", "JSON_OBJECT('k' VALUE JSON({0}) ABSENT ON NULL)", [S], one(["'[1]'", NULL])),
    C("json", "JSON in JSON_ARRAY null", "JSON_ARRAY(JSON({0}) NULL ON NULL)", [S], one(["'[1]'", NULL])),
    C("json", "JSON alone", "JSON({0})", [S], one(["'{}'"])),
    C("json", "JSON invalid", "JSON_ARRAY(JSON({0}))", [S], one(["'nope'", "'[1'"])),
    C("json", "JSON as key", "JSON_OBJECT(KEY JSON({0}) VALUE 1)", [S], one(["'k'"])),
    C("json", "JSON in JSON_STRING", "JSON_STRING(JSON({0}))", [S], one(["'[1]'"])),
    C("json", "JSON nested twice", "JSON_OBJECT('a' VALUE JSON_ARRAY(JSON({0})))", [S], one(["'{\"b\": null}'", NULL])),
    C("json", "JSON_STRING", "JSON_STRING({0})", [S], one(STR_SHORT + ["'a\"b\\c'", "'tab\tx'"])),
    C("json", "JSON_STRING double", "JSON_STRING({0})", [D], one(DBL)),
    C("json", "JSON_STRING date", "JSON_STRING({0})", [DT], one(DATES[:3])),
    C("json", "JSON_QUOTE", "JSON_QUOTE({0})", [S], one(STR_SHORT + ["'a\"b\\c/'", "'\u0001'"])),
    C("json", "JSON_UNQUOTE", "JSON_UNQUOTE({0})", [S], one([NULL, "'\"a\\\"b\"'", "'\"\\u00df\"'", "'abc'", "'\"unterminated'", "'[1]'"])),
]


# ------------------------------------------------------------------------------------ fuzz
# Seeded random PRINTF formats and URLs (the same on every run): the "fuzz" group, a differential
# check beyond the hand-picked tuples above. Formats avoid %h, %a and %t, which weir refuses, and
# %n (a newline splits the sweep's reading of weir's tableau rows).
def _sql(s):
    return "'" + s.replace("'", "''") + "'"


def _fuzz():
    import random
    rng = random.Random(36)
    fmt_parts = ["%", "%", "%", "-", "#", "+", " ", "0", ",", "(", "<", ".", "$", "1", "2", "5", "10",
                 "s", "S", "d", "x", "X", "o", "e", "E", "f", "g", "G", "c", "b", "B", "%", "q", "x",
                 "[", "]", "ß"]
    formats = []
    while len(formats) < 48:
        f = "".join(rng.choice(fmt_parts) for _ in range(rng.randint(1, 9)))
        if "%" in f and _sql(f) not in formats:
            formats.append(_sql(f))
    url_parts = ["http", "https", "ftp", "file", "mailto", "jar", "x", ":", "://", "//", "/", "?", "#",
                 "@", "&", "=", "k", "a.b", "[::1]", "[", "]", ":80", ":x", "!/", " ", "%20", "~", "ß",
                 "url:", "user:pw@", "host.example", "q=1", "k=v"]
    urls = []
    while len(urls) < 48:
        head = ""
        if rng.random() < 0.8:      # most start as a URL does
            head = rng.choice(["http", "https", "ftp", "file", "mailto", "jar", "x-y", "HTTP"]) + \
                rng.choice([":", "://", ":/", ":///", "://user@"])
        u = head + "".join(rng.choice(url_parts) for _ in range(rng.randint(1, 8)))
        if _sql(u) not in urls:
            urls.append(_sql(u))
    return formats, urls


FUZZ_FORMATS, FUZZ_URLS = _fuzz()
CASES += [
    C("fuzz", "PRINTF random", "PRINTF({0}, 7, -2.5E0, 'x', CAST(NULL AS INT), TRUE)", [S], one(FUZZ_FORMATS)),
] + [C("fuzz", "PARSE_URL random " + part, "PARSE_URL({0}, '%s')" % part, [S], one(FUZZ_URLS))
     for part in ["HOST", "PATH", "QUERY", "REF", "PROTOCOL", "FILE", "AUTHORITY", "USERINFO"]] + [
    C("fuzz", "PARSE_URL random key", "PARSE_URL({0}, 'QUERY', 'k')", [S], one(FUZZ_URLS)),
]
