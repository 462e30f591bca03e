# bench/peer/flink_cluster.sh — sourced by the benchmark runners for `--peer flink`: starts one
# local Flink session cluster for the run (bench/peer/flink.py start, in a private folder under
# /tmp) and stops it when the runner exits; or, with FRUN already set, checks that the cluster in
# $FRUN runs and leaves it running. Sets FRUN and FSTART (how the cluster came up). Needs ROOT.
# FLINK_TM_MEMORY: the TaskManager's process memory (default 2048m; the 10M-event Nexmark joins
# keep more state than that holds on the heap). FLINK_CONF: more Flink configuration, KEY=VALUE
# pairs separated by spaces (e.g. taskmanager.memory.managed.fraction=0.1: the heap state backend
# does not use managed memory, which takes 40 % of the TaskManager by default).
flink_cluster_up() {
  if [[ -n "${FRUN:-}" ]]; then
    python3 "$ROOT/tests/flink/flinkctl.py" status --run-dir "$FRUN" > /dev/null \
      || { echo "no Flink cluster running in $FRUN" >&2; exit 2; }
    FSTART="already running in $FRUN"
    return
  fi
  FRUN=$(mktemp -d /tmp/weir-bench-flink-XXXXXX)
  trap 'python3 "$ROOT/bench/peer/flink.py" stop --run-dir "$FRUN" >/dev/null 2>&1 || true; rm -rf "$FRUN"' EXIT
  local rc=0 secs
  local confargs=() kv
  for kv in ${FLINK_CONF:-}; do confargs+=(--conf "$kv"); done
  secs=$(python3 "$ROOT/bench/peer/flink.py" start --run-dir "$FRUN" --tm-memory "${FLINK_TM_MEMORY:-2048m}" "${confargs[@]}" 2> "$FRUN/start.err") || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "Flink did not start (status $rc): $(tail -n 1 "$FRUN/start.err")" >&2
    [[ $rc -eq 77 ]] && exit 77
    exit 1
  fi
  FSTART="started in $secs s, TaskManager ${FLINK_TM_MEMORY:-2048m}${FLINK_CONF:+, $FLINK_CONF}"
}
