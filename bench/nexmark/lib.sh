# bench/nexmark/lib.sh — sourced by bench/nexmark/run and bench/nexmark/profile: how a Nexmark query
# file is filled in, where q13's side input comes from, how the JSON event files of --peer flink are
# written, and how weir's init and job files over them are put together. The functions read the
# caller's variables: HERE (bench/nexmark), OUT (the caller's output folder), EVENTS, TPS, WEIR,
# and for the event files EV (their folder).

# fill FILE... : the files with nexmark's placeholders filled in (NDIR: where ${NEXMARK_DIR} points; default OUT)
fill() {
  sed -e "s/\${TPS}/$TPS/g; s/\${EVENTS_NUM}/$EVENTS/g; s/\${PERSON_PROPORTION}/1/g" \
      -e "s/\${AUCTION_PROPORTION}/3/g; s/\${BID_PROPORTION}/46/g; s/\${NEXMARK_TABLE}/datagen/g" \
      -e "s#\${NEXMARK_DIR}#${NDIR:-$OUT}#g; s#\${FLINK_HOME}#${NDIR:-$OUT}#g; s/\${SUBMIT_TIME}/run/g" "$@"
}

# side_input_write DIR : q13's side input in DIR/side_input.txt, as bin/side_input_gen.sh writes it (10,000 lines "i,i")
side_input_write() {
  mkdir -p "$1"
  [[ -s "$1/side_input.txt" ]] || seq 0 9999 | awk '{print $1 "," $1}' > "$1/side_input.txt"
}

# events_json_ensure : EV holds the EVENTS events as JSON lines in part-0.json and part-1.json (two
# halves); when they are missing, weir's generator writes them (OUT/gen-events.sql, .log). Exits on failure.
events_json_ensure() {
  if [[ ! -s "$EV/part-0.json" || ! -s "$EV/part-1.json" ]]; then   # the events, once per size
    rm -rf "$EV" "$EV.tmp"
    {
      fill "$HERE/queries/ddl_gen.sql"
      sed "s#\${EVENTS_PATH}#$EV.tmp#" "$HERE/ddl_file.sql" | sed "s/^CREATE TABLE datagen/CREATE TABLE events_out/; s/'format' = 'json'/&, 'sink.rolling-policy.file-size' = '1000GB'/" \
        | perl -0pe 's/,\s*`dateTime` AS.*?SECOND\n/\n/s'
      echo "SET 'table.dml-sync' = 'true';"
      echo "INSERT INTO events_out SELECT event_type, person, auction, bid FROM datagen;"
    } > "$OUT/gen-events.sql"
    "$WEIR" sql-client -f "$OUT/gen-events.sql" > "$OUT/gen-events.log" 2>&1 && ! grep -q '^\[ERROR\]' "$OUT/gen-events.log" \
      || { echo "writing the events failed (see $OUT/gen-events.log)" >&2; exit 1; }
    parts=("$EV.tmp"/part-*)
    [[ ${#parts[@]} -eq 1 && -s "${parts[0]}" ]] || { echo "expected one part file in $EV.tmp" >&2; exit 1; }
    mkdir -p "$EV"
    (cd "$EV" && split -n l/2 -d -a 1 "${parts[0]}" part- && mv part-0 part-0.json && mv part-1 part-1.json)
    rm -rf "$EV.tmp"
  fi
  [[ $(cat "$EV"/part-*.json | wc -l) -eq $EVENTS ]] || { echo "$EV does not hold $EVENTS events" >&2; exit 1; }
}

# sets_sql -> run's --set K=V options (SETS, checked when parsed) as SET statements
sets_sql() {
  local kv
  for kv in "${SETS[@]+"${SETS[@]}"}"; do echo "SET '${kv%%=*}' = '${kv#*=}';"; done
}

# peer_init ENGINE P -> the path of OUT/ENGINE-init-pP.sql: parallelism P (and, for weir, run's --set
# options), ddl_file.sql over EV, ddl_views.sql
peer_init() {
  local f="$OUT/$1-init-p$2.sql"
  { echo "SET 'parallelism.default' = '$2';"
    [[ "$1" != weir ]] || sets_sql       # run's --set K=V options: weir's init script only
    sed "s#\${EVENTS_PATH}#$EV#" "$HERE/ddl_file.sql"
    NDIR="$OUT/$1" fill "$HERE/queries/ddl_views.sql"; } > "$f"
  echo "$f"
}

# peer_job ENGINE QUERY -> the path of OUT/ENGINE-QUERY.sql: dml-sync, then the query (NEXMARK_DIR = OUT/ENGINE)
peer_job() {
  local f="$OUT/$1-$2.sql"
  { echo "SET 'table.dml-sync' = 'true';"; NDIR="$OUT/$1" fill "$HERE/queries/$2.sql"; } > "$f"
  echo "$f"
}
