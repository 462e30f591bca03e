#!/usr/bin/env bash
# table_factory_chain.sh — a statement on a table whose connector options fail is refused while it
# is planned, and the SQL gateway's error body carries Flink's chain (measured on Flink 2.3.0's
# gateway): "Unable to create a source for reading table '<name>'." (or "... a sink for writing
# ...") wrapping the connector's message, which stays the last "Caused by:" (what clients print).
TEST_NAME=gateway/table_factory_chain
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools curl python3
cluster_setup
cluster_start
[[ -n "$GWPORT" ]] || { fail "the daemon did not log its SQL gateway endpoint"; exit 1; }
W="$TMPD/work"
cat > "$W/chain.py" <<'PY'
import json, re, sys, time, urllib.request, urllib.error
base = "http://127.0.0.1:%s/v3" % sys.argv[1]
def call(path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")
_, s = call("/sessions", {"properties": {}})
sess = s["sessionHandle"]
for stmt in sys.argv[2:]:
    st, r = call("/sessions/%s/statements" % sess, {"statement": stmt})
    if st != 200:
        print(json.dumps({"statement": stmt, "errors": r.get("errors", [])})); continue
    op, errors = r["operationHandle"], None
    for _ in range(200):
        st, r = call("/sessions/%s/operations/%s/result/0?rowFormat=PLAIN_TEXT" % (sess, op))
        if st != 200:
            errors = r.get("errors", []); break
        if r.get("resultType") == "EOS": break
        time.sleep(0.05)
    text = "\n".join(e for e in (errors or []) if isinstance(e, str))
    print(json.dumps({"statement": stmt, "causes": re.findall(r"Caused by: ([^\n]*)", text)}))
PY
python3 "$W/chain.py" "$GWPORT" \
  "CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'sink.parallelism' = '2')" \
  "CREATE TABLE ok (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')" \
  "CREATE TABLE pr (a INT) WITH ('connector' = 'print', 'standard-error' = 'maybe')" \
  "EXPLAIN SELECT a FROM g" \
  "INSERT INTO pr SELECT a FROM ok" \
  "SELECT a FROM nosuch" > "$W/out.jsonl" 2> "$W/err.txt"
line() { sed -n "$1p" "$W/out.jsonl"; }
check "the source's wrapper comes before the connector's message, which is the last cause" \
  python3 -c "
import json,sys; c=json.loads(sys.argv[1])['causes']
assert c[-2] == \"org.apache.flink.table.api.ValidationException: Unable to create a source for reading table 'default_catalog.default_database.g'.\", c
assert c[-1] == \"org.apache.flink.table.api.ValidationException: Unsupported options found for 'datagen'.\", c" "$(line 4)"
check "an INSERT is refused while it is planned, the sink's wrapper around the option's parse error" \
  python3 -c "
import json,sys; c=json.loads(sys.argv[1])['causes']
assert c[-2] == \"org.apache.flink.table.api.ValidationException: Unable to create a sink for writing table 'default_catalog.default_database.pr'.\", c
assert c[-1] == 'java.lang.IllegalArgumentException: Unrecognized option for boolean: maybe. Expected either true or false(case insensitive)', c" "$(line 5)"
check "another error has no such wrapper" \
  python3 -c "
import json,sys; c=json.loads(sys.argv[1])['causes']
assert not any('Unable to create' in x for x in c), c
assert 'nosuch' in c[-1], c" "$(line 6)"
if [[ $FAILS -gt 0 ]]; then cat "$W/out.jsonl" "$W/err.txt"; fi
exit 0
