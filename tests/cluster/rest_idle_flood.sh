#!/usr/bin/env bash
# rest_idle_flood.sh — idle connections never lock clients out of the REST API (issue 19): with
# 200 idle sockets open (more than the server's connection limit), a normal request is answered
# within 5 s; another wave of 150 idle sockets while the first ones stay open changes nothing;
# a client beyond the limit gets a clean answer (200, or 503 with Flink's {"errors":[...]}),
# never a hang. Bounded: 350 sockets, about 10 s.
TEST_NAME=rest_idle_flood
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq python3
cluster_setup
cluster_start
[[ "$(ulimit -n)" -lt 1024 ]] && ulimit -n 1024 2>/dev/null

python3 - "$PORT" > "$TMPD/flood.out" 2>&1 <<'PY'
import socket, sys, time, urllib.request, urllib.error, json
port = int(sys.argv[1])
def request(path="/overview", timeout=5):
    t0 = time.time()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
            return r.status, time.time() - t0, r.read()
    except urllib.error.HTTPError as e:
        return e.code, time.time() - t0, e.read()
    except Exception as e:
        return repr(e), time.time() - t0, b""
def flood(n):
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        socks.append(s)
    return socks
bad = 0
idle = flood(200)
time.sleep(0.3)
st, dt, body = request()
print(f"after 200 idle sockets: status {st} in {dt:.2f} s")
if st != 200: bad += 1
idle += flood(150)
time.sleep(0.3)
for i in range(5):
    st, dt, body = request()
    print(f"after 350 idle sockets, request {i}: status {st} in {dt:.2f} s")
    if st != 200: bad += 1
# a busy server's refusal is clean: 503 with an errors list (checked when it happens)
if st == 503 and not json.loads(body).get("errors"): bad += 1
for s in idle: s.close()
time.sleep(0.3)
st, dt, _ = request()
print(f"after closing them: status {st} in {dt:.2f} s")
if st != 200: bad += 1
sys.exit(1 if bad else 0)
PY
st=$?
cat "$TMPD/flood.out"
check "requests are served while idle connections flood the server" test $st = 0
api GET /jobs/overview > /dev/null
check "the REST API answers afterwards" test "$STATUS" = 200
exit 0
