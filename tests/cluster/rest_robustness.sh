#!/usr/bin/env bash
# rest_robustness.sh — bad requests (unknown paths, wrong methods, bad ids and tokens, huge and
# broken bodies, foreign Host/Origin headers, garbage on the socket, random paths) each get a 4xx
# (with Flink's {"errors": [...]} where the answer is weir's), and the server stays up and keeps
# serving the REST API and SQL statements.
TEST_NAME=rest_robustness
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"
cluster_start

# expect STATUS METHOD PATH [curl args...]: the answer has that status and an "errors" list
expect() {
  local want="$1" method="$2" path="$3"; shift 3
  local body
  api "$method" "$path" "$@" > "$TMPD/resp"
  body="$(cat "$TMPD/resp")"
  if [[ "$STATUS" != "$want" ]]; then
    fail "$method ${path:0:60}: status $STATUS, expected $want ($(head -c 200 <<< "$body"))"
  elif ! jq -e '.errors | type == "array" and length > 0' <<< "$body" > /dev/null 2>&1; then
    fail "$method ${path:0:60}: no {\"errors\": [...]} body: $(head -c 200 <<< "$body")"
  else
    pass "$method ${path:0:60} -> $want"
  fi
}
# expect4xx METHOD PATH [curl args...]: any 4xx
expect4xx() {
  local method="$1" path="$2"; shift 2
  api "$method" "$path" "$@" > /dev/null
  if [[ "$STATUS" =~ ^4[0-9][0-9]$ ]]; then pass "$method ${path:0:40} -> $STATUS"; else fail "$method ${path:0:60}: status $STATUS"; fi
}
alive() {
  api GET /overview > /dev/null
  [[ "$STATUS" == 200 ]]
}

# a real job to aim at
echo "1,a" > "$W/t.csv"
cat > "$W/job.sql" <<SQL
CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$W/t.csv', 'format' = 'csv');
CREATE TABLE b (id INT, s STRING) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'target';
INSERT INTO b SELECT * FROM t;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name target)"
check "a target job exists" test -n "$jid"
JSON=(-H "Content-Type: application/json")

expect 404 GET /nope
expect 404 GET /jobs/$jid/nope
expect 404 GET /jobs/$jid/checkpoints/details/17
expect 405 DELETE /jobs
expect 405 POST /overview
expect 405 PUT /overview
expect 405 HEAD /overview
expect 404 DELETE /jobs/$jid/savepoints/x/y
expect 400 GET /jobs/not-a-job-id
expect 400 GET "/jobs/0123456789abcdef0123456789abcdeZ"
expect 404 GET /jobs/0123456789abcdef0123456789abcdef
expect 404 GET /jobs/0123456789abcdef0123456789abcdef/checkpoints/config
expect 404 PATCH "/jobs/0123456789abcdef0123456789abcdef?mode=cancel"
expect 400 PATCH "/jobs/$jid?mode=explode"
expect 400 GET /jobs/$jid/vertices/zzz
expect 404 GET /jobs/$jid/vertices/0123456789abcdef0123456789abcdef
expect 400 GET "/jobs/$jid/exceptions?maxExceptions=-3"
expect 404 GET /jobs/$jid/savepoints/0123456789abcdef0123456789abcdef
expect 400 POST /jobs/$jid/savepoints "${JSON[@]}" --data '{"target-directory":'
expect 404 GET /taskmanagers/nobody
expect 400 GET /weir/jobs/xyz/state
expect 404 GET /weir/jobs/$jid/nothing
head -c 2100000 /dev/zero | tr '\0' 'x' > "$W/huge.json"
expect 413 POST /jobs/$jid/savepoints "${JSON[@]}" --data-binary "@$W/huge.json"
# the REST port serves no SQL gateway: sessions live on the gateway endpoint, in Flink's protocol
expect 404 POST /v1/sessions "${JSON[@]}" --data '{}'
# ---- the SQL gateway endpoint (Flink's SQL Gateway REST API): Flink's statuses for bad requests ----
REST_BASE="$BASE"
BASE="http://127.0.0.1:$GWPORT"
expect 400 POST /v4/sessions "${JSON[@]}" --data '{"properties":'
expect 400 POST /v4/sessions "${JSON[@]}" --data '[1,2,3]'
expect 500 POST /v4/sessions "${JSON[@]}" --data '{"properties":[1]}'
expect 500 POST /v4/sessions "${JSON[@]}" --data '{"properties":{"parallelism.default":7}}'
expect 413 POST /v4/sessions "${JSON[@]}" --data-binary "@$W/huge.json"
expect 500 POST /v4/sessions/not-a-session/statements "${JSON[@]}" --data '{"statement":"SELECT 1"}'
expect 500 POST /v4/sessions/01234567-89ab-4cde-8f01-23456789abcd/statements "${JSON[@]}" --data '{"statement":"SELECT 1"}'
expect 404 GET /v4/sessions
sh="$(api POST /v4/sessions "${JSON[@]}" --data '{}' | jq -r .sessionHandle)"
check "a session opens" test -n "$sh" -a "$sh" != null
expect 500 POST /v4/sessions/$sh/statements "${JSON[@]}" --data '{"statement":5}'
expect 500 POST /v4/sessions/$sh/statements "${JSON[@]}" --data '{}'
expect 500 GET /v4/sessions/$sh/operations/01234567-89ab-4cde-8f01-23456789abcd/status
oh="$(api POST /v4/sessions/$sh/statements "${JSON[@]}" --data '{"statement":"SELEC 1"}' | jq -r .operationHandle)"
check "a broken statement still gets an operation" test -n "$oh" -a "$oh" != null
expect 500 GET "/v4/sessions/$sh/operations/$oh/result/abc"
expect 500 GET "/v4/sessions/$sh/operations/$oh/result/99999"
expect 500 GET "/v4/sessions/$sh/operations/$oh/result/-1"
for i in $(seq 1 50); do
  res="$(api GET "/v4/sessions/$sh/operations/$oh/result/0?rowFormat=JSON")"
  [[ "$STATUS" != 200 ]] && break
  sleep 0.1
done
check "the broken statement's fetch answers 500 with its parse error as the last cause (Flink's root: Calcite's)" \
  jqe '.errors[1] | test("Caused by: org.apache.calcite.runtime.CalciteException: Non-query expression encountered in illegal context")' <<< "$res"
expect 404 PATCH /v4/sessions/$sh
api DELETE /v4/sessions/$sh > /dev/null
check "the session closes" test "$STATUS" = 200
expect 500 DELETE /v4/sessions/$sh
BASE="$REST_BASE"

# foreign Host / Origin headers (DNS rebinding, cross-site requests)
expect 403 GET /overview -H "Host: evil.example:$PORT"
expect 403 POST /v1/sessions "${JSON[@]}" -H "Origin: http://evil.example" --data '{}'
expect 403 PATCH "/jobs/$jid?mode=cancel" -H "Origin: http://evil.example"

# long paths, many parameters, control characters
long="$(head -c 5000 /dev/zero | tr '\0' 'a')"
expect4xx GET "/jobs/$long"
params="$(for i in $(seq 1 100); do printf 'p%d=1&' "$i"; done)"
expect 400 GET "/overview?$params"
expect 400 GET "/jobs/%0a%0d"

# garbage on the socket
for junk in "GARBAGE\r\n\r\n" "GET\r\n\r\n" "POST /v1/sessions HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n" \
            "GET / HTTP/9.9\r\n\r\n" "\x00\x01\x02\x03\r\n\r\n"; do
  exec 3<> "/dev/tcp/127.0.0.1/$PORT" || { fail "cannot connect"; break; }
  printf "$junk" >&3
  timeout 5 head -c 200 <&3 > /dev/null 2>&1
  exec 3>&-
done
check "the server is up after garbage on the socket" alive

# random paths and methods (bounded)
chars='abcdefxyz0123456789-_.~%/'
methods=(GET POST PATCH DELETE)
for ((n = 0; n < 150; n++)); do
  p="/"
  for ((k = 0; k < 1 + RANDOM % 40; k++)); do p+="${chars:RANDOM % ${#chars}:1}"; done
  [[ "$p" == "/" || "$p" == "/index.html" ]] && continue
  m="${methods[RANDOM % 4]}"
  # --path-as-is: curl would otherwise squash dot segments ("/." becomes "/", the dashboard)
  api "$m" "$p" "${JSON[@]}" --path-as-is --data '{"x":' > /dev/null
  if [[ ! "$STATUS" =~ ^4[0-9][0-9]$ ]]; then fail "$m $p: status $STATUS"; fi
done

check "the server still answers /overview" alive
check "the target job is still listed" test "$(jid_by_name target)" = "$jid"
cat > "$W/after.sql" <<'SQL'
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT 1 + 1 AS two;
SQL
sql "$W/after.sql" > "$W/after.out" 2>&1
check "SQL still runs on the cluster" grep -q "Received a total of 1 row" "$W/after.out"
exit 0
