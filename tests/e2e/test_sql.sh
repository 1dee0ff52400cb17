#!/usr/bin/env bash
# test_sql.sh — SQL over traces: every example query of docs/sql.md runs on
# its sample (through a database written by `tlv export --format sqlite`,
# and straight from the log) and prints exactly the result the page shows;
# the tables hold what the trace holds (events, resources, intervals against
# `tlv export --format csv`, markers from a session); CSV and JSON output;
# and the errors: bad SQL, a database without -o, a missing session.
. "$(dirname "$0")/lib.sh"

DOC="$SRC/docs/sql.md"

# Splits docs/sql.md into $TMP/ex/N.sql (with its "-- tlv query -r RES LOG"
# first line) and $TMP/ex/N.txt (the text block after it).
mkdir -p "$TMP/ex"
awk -v dir="$TMP/ex" '
  /^```sql$/ { n++; out = dir "/" n ".sql"; inblock = 1; next }
  /^```text$/ && n { out = dir "/" n ".txt"; inblock = 1; next }
  /^```$/ { inblock = 0; next }
  inblock && out { print > out }
' "$DOC"
count="$(ls "$TMP"/ex/*.sql 2>/dev/null | wc -l)"
checks=$((checks + 1))
[ "$count" -ge 4 ] || fail "docs/sql.md has $count example queries, expected at least 4"

declare -A db
for q in "$TMP"/ex/*.sql; do
  n="$(basename "$q" .sql)"
  read -r _ _ _ _ res log _ < "$q"
  checks=$((checks + 1))
  [ -f "$SRC/$res" ] && [ -f "$SRC/$log" ] || { fail "example $n: no sample '$res' '$log'"; continue; }
  if [ -z "${db[$log]:-}" ]; then
    db[$log]="$TMP/db$n.db"
    (cd "$SRC" && "$TLV" export --format sqlite -r "$res" -o "${db[$log]}" "$log") 2>"$TMP/err"
    status=$?
    expect_status 0 "export --format sqlite of $log"
  fi
  run "$TLV" query "${db[$log]}" "$(cat "$q")"
  expect_status 0 "example $n on the database"
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/ex/$n.txt" || fail "example $n: result differs from docs/sql.md:$(echo; diff "$TMP/ex/$n.txt" "$TMP/out")"
  (cd "$SRC" && "$TLV" query -r "$res" "$log" "$(cat "$q")") >"$TMP/out" 2>"$TMP/err"
  status=$?
  expect_status 0 "example $n straight from the log"
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/ex/$n.txt" || fail "example $n from the log: result differs"
done

ASP_RES="$SRC/samples/asp/sample.res"
ASP_LOG="$SRC/samples/asp/sample.log"
DB="$TMP/asp.db"
run "$TLV" export -f sqlite -r "$ASP_RES" -o "$DB" "$ASP_LOG"
expect_status 0 "export asp"

# The tables hold the trace: as many events as 'tlv convert' writes lines,
# the resources of the resource file, the intervals of the CSV export.
run "$TLV" convert -r "$ASP_RES" "$ASP_LOG"
events="$(grep -c '^\[' "$TMP/out")"
run "$TLV" query -f csv "$DB" "SELECT COUNT(*) AS n FROM events"
expect_line "$TMP/out" "$events"$'\r' "events: one per converted line"
run "$TLV" query "$DB" "SELECT name, type, attributes FROM resources WHERE name IN ('TASK1', 'INH_TIMER') ORDER BY id"
cat >"$TMP/want" <<'OUT'
name       type              attributes
---------  ----------------  --------------------------------------
TASK1      Task              {"state":"DORMANT","applog_state":"0"}
INH_TIMER  InterruptHandler  {"state":"DORMANT"}
OUT
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/want" || fail "resources:$(echo; diff "$TMP/want" "$TMP/out")"
run "$TLV" export -f csv -r "$ASP_RES" "$ASP_LOG"
csv_rows=$(($(wc -l <"$TMP/out") - 1))
run "$TLV" query -f csv "$DB" "SELECT COUNT(*) FROM intervals"
expect_line "$TMP/out" "$csv_rows"$'\r' "intervals: one per row of the CSV export"
run "$TLV" query -f json "$DB" "SELECT e.id, e.ts, r.name AS resource, e.kind, e.name, e.value, e.args, e.line FROM events e JOIN resources r ON r.id = e.resource_id WHERE e.id IN (1, 3)"
cat >"$TMP/want" <<'OUT'
[
{"id":1,"ts":1082473,"resource":"LOGTASK","kind":"attribute","name":"state","value":"RUNNING","args":null,"line":1},
{"id":3,"ts":1085281,"resource":"LOGTASK","kind":"behavior","name":"enterSVC","value":"ena_int,intno=2","args":"[\"ena_int\",\"intno=2\"]","line":2}
]
OUT
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/want" || fail "events as JSON:$(echo; diff "$TMP/want" "$TMP/out")"

# The Perfetto-shaped tables hold the same trace: a slice per interval, at
# the interval's time in ns from the first event; every slice inside its
# parent; a thread per row with intervals; the sched slices' time per CPU
# is what tlv stats counts busy; real Linux ids.
run "$TLV" query -f csv "$DB" "SELECT (SELECT COUNT(*) FROM slice) = (SELECT COUNT(*) FROM intervals) AND
  NOT EXISTS (SELECT 1 FROM slice s JOIN intervals i USING (id)
              WHERE s.ts <> CAST(ROUND((i.ts - 1082473) * 1000) AS INTEGER) OR s.dur <> CAST(ROUND(i.dur * 1000) AS INTEGER)) AND
  NOT EXISTS (SELECT 1 FROM slice c JOIN slice p ON p.id = c.parent_id
              WHERE c.ts < p.ts OR c.ts + c.dur > p.ts + p.dur OR c.depth <> p.depth + 1 OR c.track_id <> p.track_id) AND
  (SELECT COUNT(*) FROM thread) = (SELECT COUNT(DISTINCT row_id) FROM intervals) AS ok"
expect_line "$TMP/out" "1"$'\r' "slices are the intervals, nested"
run "$TLV" query -f csv "$DB" "SELECT key, string_value FROM args WHERE arg_set_id = (SELECT arg_set_id FROM slice WHERE id = 0) ORDER BY key"
expect_line "$TMP/out" "args.event,call"$'\r' "args of slice 0: its event"
expect_line "$TMP/out" "args.resource,ALMHDR1"$'\r' "args of slice 0: its resource"
expect_line "$TMP/out" "args.text,iwup_tsk(tskid=2)"$'\r' "args of slice 0: its text"
run "$TLV" query -f csv "$DB" "PRAGMA foreign_key_check"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/out")" -le 1 ] || fail "dangling references: $(head -5 "$TMP/out")"
(cd "$SRC" && "$TLV" query -f csv -r rules/linux_sched.res samples/linux/sched/xz.log "SELECT cpu, SUM(dur) / 1000 FROM sched GROUP BY cpu ORDER BY cpu") >"$TMP/out" 2>"$TMP/err"
expect_line "$TMP/out" "0,371910"$'\r' "sched: CPU 0 busy as tlv stats says"
expect_line "$TMP/out" "1,357216"$'\r' "sched: CPU 1 busy as tlv stats says"
(cd "$SRC" && "$TLV" stats -r rules/linux_sched.res samples/linux/sched/xz.log) >"$TMP/out" 2>"$TMP/err"
expect_grep "$TMP/out" "^CPU 0  *371910 " "tlv stats: CPU 0 busy"
(cd "$SRC" && "$TLV" query -f csv -r rules/linux_strace.res samples/linux/strace/xz.log "SELECT p.pid, t.tid FROM thread t JOIN process p USING (upid) ORDER BY t.tid") >"$TMP/out" 2>"$TMP/err"
expect_line "$TMP/out" "7404,7408"$'\r' "strace: a thread's real tid in its process's pid"

# Markers come from a session file.
cat >"$TMP/s.tlvsession" <<'JSON'
{"tlv_session": 1, "markers": [{"name": "boot", "time": 1082473, "color": "ff0000"},
                               {"name": "late", "time": 1900000.5}]}
JSON
run "$TLV" query -f csv --session "$TMP/s.tlvsession" -r "$ASP_RES" "$ASP_LOG" "SELECT ts, name FROM markers ORDER BY ts"
expect_line "$TMP/out" "1082473.0,boot"$'\r' "marker boot"
expect_line "$TMP/out" "1900000.5,late"$'\r' "marker late"

# Errors.
run "$TLV" query "$DB" "SELEC 1"
expect_status 2 "bad SQL"
expect_line "$TMP/err" 'tlv query: SQL error: near "SELEC": syntax error' "bad SQL message"
run "$TLV" query "$DB" "SELECT nope FROM events"
expect_status 2 "unknown column"
expect_line "$TMP/err" 'tlv query: SQL error: no such column: nope' "unknown column message"
run "$TLV" export -f sqlite -r "$ASP_RES" "$ASP_LOG"
expect_status 2 "sqlite to standard output"
expect_contains "$TMP/err" "--format sqlite writes a database file: give -o FILE" "sqlite needs -o"
run "$TLV" query --session "$TMP/none.tlvsession" -r "$ASP_RES" "$ASP_LOG" "SELECT 1"
expect_status 2 "missing session"
expect_contains "$TMP/err" "no session '$TMP/none.tlvsession'" "missing session message"
run "$TLV" query "$DB" </dev/null
expect_status 0 "no SQL: read from standard input, here none"
checks=$((checks + 1))
[ ! -s "$TMP/out" ] || fail "no SQL: printed $(head -3 "$TMP/out")"
run "$TLV" query -r "$ASP_RES" - </dev/null
expect_status 2 "the log and the SQL both from standard input"
expect_contains "$TMP/err" "give the SQL on the command line or with --file" "stdin taken message"
run "$TLV" query -F - -r "$ASP_RES" - </dev/null
expect_status 2 "the log and --file - both from standard input"
expect_contains "$TMP/err" "give the SQL on the command line or with --file" "stdin taken message"
run "$TLV" query -r "$ASP_RES" "$DB" "SELECT 1"
expect_status 2 "-r with a database"
expect_contains "$TMP/err" "is a database already" "-r with a database message"
checks=$((checks + 1))
[ -z "$(ls "$TMP"/*.tmp.* 2>/dev/null)" ] || fail "temporary files left behind"

finish
