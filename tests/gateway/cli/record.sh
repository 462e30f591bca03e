#!/usr/bin/env bash
# record.sh — records what Flink's `flink` CLI prints and calls against a real Flink cluster, for
# tests/gateway/flink_cli.sh: runs cli/steps.sh against Flink 2.3.0 (flinkctl.py; the jobs are
# submitted with Flink's sql-client) through proxy.py and writes the normalized step outputs to
# tests/gateway/flink-recorded/cli/ and the endpoints with their statuses to
# tests/gateway/flink-recorded/cli.endpoints. Not part of make test (it needs about 2 GB and minutes).
# Usage: record.sh [RUN_DIR]   (a Flink already started there with flinkctl.py is reused, and kept)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$here/../../.." && pwd)"
RUN="${1:-/tmp/weir-cli-record}"
W="$(mktemp -d /tmp/weir-cli-record-w.XXXXXX)"
started=""
if ! python3 "$ROOT/tests/flink/flinkctl.py" status --run-dir "$RUN" > /dev/null 2>&1; then
  python3 "$ROOT/tests/flink/flinkctl.py" start --run-dir "$RUN" || exit 1
  started=1
fi
FLINK_HOME="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["home"])' "$RUN/flink.json")"
RPORT="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rest_port"])' "$RUN/flink.json")"
python3 "$ROOT/tests/gateway/proxy.py" --target "$RPORT" --port-file "$W/proxy.port" --log "$W/endpoints.log" --query &
ppid=$!
cleanup() {
  kill "$ppid" 2>/dev/null
  [[ -n "$started" ]] && python3 "$ROOT/tests/flink/flinkctl.py" stop --run-dir "$RUN"
  rm -rf "$W"
}
trap cleanup EXIT
for i in $(seq 1 100); do [[ -s "$W/proxy.port" ]] && break; sleep 0.1; done
read -r PPORT < "$W/proxy.port"

submit() {
  cat > "$W/$1.sql" <<SQL
CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE TABLE sink (id BIGINT, name STRING) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = '$1';
INSERT INTO sink SELECT id, name FROM gen;
SQL
  python3 "$ROOT/tests/flink/flinkctl.py" sql --run-dir "$RUN" -f "$W/$1.sql" 2>&1 |
    sed -n 's/^Job ID: \([0-9a-f]\{32\}\).*/\1/p' | tail -n 1
}
job_state() { curl -s "http://127.0.0.1:$RPORT/jobs/$1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("status",""))' 2>/dev/null; }

source "$here/steps.sh"
cli_steps "$W/out" "$PPORT" "$W/sp" || { echo "record.sh: the jobs did not start" >&2; exit 1; }
dst="$ROOT/tests/gateway/flink-recorded/cli"
mkdir -p "$dst"
rm -f "$dst"/*.out
for f in "$W"/out/[0-9]*.out; do
  python3 "$here/normalize.py" "$W/out" "$W/sp" "$f" > "$dst/$(basename "$f")"
done
sort -u "$W/endpoints.log" > "$ROOT/tests/gateway/flink-recorded/cli.endpoints"
echo "recorded into $dst and flink-recorded/cli.endpoints"
