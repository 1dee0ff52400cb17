#!/usr/bin/env bash
# test_chrome.sh — `tlv export --format chrome` complete, read as consumers
# read it: tests/e2e/chrome_check.py (a structural checker: phases and
# fields, nesting per thread, counters, flows paired and anchored, threads
# named and sorted) on the TOPPERS sample, whose flow rules make arrows;
# exact counter events ("ph":"C") for the mini rules with a counter
# attribute; the threads in tlv's row order; and, when the Chrome DevTools
# trace engine is installed (scripts/setup.sh puts @paulirish/trace_engine
# under build/npm), that it loads the file and keeps every slice, thread
# name, the nesting and every flow (a flow starts from the slice its source
# row is in at its time, so that its two ends bind to slices of different
# times: the engine keyed both to one and lost every flow before); real
# Linux pids and tids (strace sample).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
RES="$SRC/samples/asp/sample.res"
LOG="$SRC/samples/asp/sample.log"

run "$TLV" export -r "$RES" "$LOG" -o "$TMP/asp.json"
expect_status 0 "export asp"
run python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/asp.json" --threads
expect_status 0 "chrome_check on the asp sample: $(head -3 "$TMP/out")"
expect_line "$TMP/out" "ok: 604 slices on 16 threads, 0 counter events on 0 tracks, 17 flows" "asp summary"
# The flows: as many as the database has between rows with intervals.
run "$TLV" query -f csv -r "$RES" "$LOG" "SELECT COUNT(*) FROM flows f
  JOIN rows a ON a.resource_id = f.from_resource_id JOIN rows b ON b.resource_id = f.to_resource_id
  WHERE a.id IN (SELECT row_id FROM intervals) AND b.id IN (SELECT row_id FROM intervals)"
expect_line "$TMP/out" "17"$'\r' "flows in the database"
# Threads in tlv's row order: each row (lanes "ROW (2)" right after it).
python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/asp.json" --threads | sed 1d | grep -v ' ([0-9]*)$' >"$TMP/threads"
run "$TLV" query -f csv -r "$RES" "$LOG" "SELECT label FROM rows WHERE id IN (SELECT row_id FROM intervals) ORDER BY id"
tr -d '\r' <"$TMP/out" | sed 1d >"$TMP/rows"
checks=$((checks + 1))
cmp -s "$TMP/threads" "$TMP/rows" || fail "threads not in row order:$(echo; diff "$TMP/rows" "$TMP/threads")"
grep -F '"ph":"s"' "$TMP/asp.json" | head -1 >"$TMP/first_flow"
expect_line "$TMP/first_flow" '{"name":"activated by","cat":"taskCalls","ph":"s","id":1,"ts":1090690,"pid":2,"tid":10,"args":{"rule":"taskFlows"}},' "first flow start: bound to MAIN_TASK's call that encloses the flow"
grep -F '"ph":"f"' "$TMP/asp.json" | head -1 >"$TMP/first_flow"
expect_line "$TMP/first_flow" '{"name":"activated by","cat":"taskCalls","ph":"f","bp":"e","id":1,"ts":1090858,"pid":2,"tid":4,"args":{"rule":"taskFlows"}},' "first flow end: at the flow's time, in the start's category"
expect_contains "$TMP/asp.json" '{"name":"activated by","cat":"taskCalls","ph":"X","ts":1090858,"dur":0,"pid":2,"tid":4},' "first flow end's anchor"

# Real Linux ids: the strace sample's threads are their tids in their
# process (its pid), named by the main thread's row.
LRULES="$SRC/rules"
run "$TLV" export -R "$LRULES" -r "$LRULES/linux_strace.res" "$SRC/samples/linux/strace/xz.log" -o "$TMP/strace.json"
expect_status 0 "export strace"
expect_contains "$TMP/strace.json" '{"name":"process_name","ph":"M","pid":7404,"tid":0,"args":{"name":"xz[7404]"}}' "strace: the process by its pid"
expect_contains "$TMP/strace.json" '{"name":"thread_name","ph":"M","pid":7404,"tid":7408,"args":{"name":"xz[7404] thread 7408"}}' "strace: a thread by its tid"
run python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/strace.json"
expect_status 0 "chrome_check on strace: $(head -3 "$TMP/out")"
FMP_RES="$SRC/samples/fmp/sample.res"
run "$TLV" export -r "$FMP_RES" "$SRC/samples/fmp/sample.log" -o "$TMP/fmp.json"
expect_status 0 "export fmp"
run python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/fmp.json"
expect_line "$TMP/out" "ok: 858 slices on 29 threads, 0 counter events on 0 tracks, 27 flows" "fmp summary"

# Counters: the mini rules with "cpu" declared a counter: a sample for the
# initial value at the trace start, then one per change (to the same value too).
mkdir -p "$TMP/mini"
cp "$SRC"/tests/e2e/mini/mini.{res,cnv,viz,log} "$TMP/mini/"
sed 's/"cpu": {"VariableType": "Number", "AllocationType": "Dynamic", "Default": 1}/"cpu": {"VariableType": "Number", "AllocationType": "Dynamic", "Default": 1, "Counter": true}/' \
  "$SRC/tests/e2e/mini/mini.resh" >"$TMP/mini/mini.resh"
run "$TLV" export -R "$TMP/mini" -r "$TMP/mini/mini.res" "$TMP/mini/mini.log" -o "$TMP/mini.json"
expect_status 0 "export mini with a counter"
run python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/mini.json"
expect_status 0 "chrome_check on mini: $(head -3 "$TMP/out")"
expect_line "$TMP/out" "ok: 17 slices on 5 threads, 9 counter events on 4 tracks, 0 flows" "mini summary"
grep -F '"ph":"C"' "$TMP/mini.json" | grep -F '"name":"ctrl cpu"' >"$TMP/ctrl"
cat >"$TMP/want" <<'OUT'
{"name":"ctrl cpu","ph":"C","ts":100,"pid":1,"args":{"cpu":1}},
{"name":"ctrl cpu","ph":"C","ts":100,"pid":1,"args":{"cpu":1}},
{"name":"ctrl cpu","ph":"C","ts":350,"pid":1,"args":{"cpu":1}},
{"name":"ctrl cpu","ph":"C","ts":500,"pid":1,"args":{"cpu":2}},
OUT
checks=$((checks + 1))
cmp -s "$TMP/ctrl" "$TMP/want" || fail "ctrl's counter events:$(echo; diff "$TMP/want" "$TMP/ctrl")"

# The checker catches what it must: a broken nesting and an unpaired flow.
sed 's/"ph":"f","bp":"e","id":1,/"ph":"f","bp":"e","id":99,/' "$TMP/asp.json" >"$TMP/broken.json"
run python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/broken.json"
expect_status 1 "chrome_check on an unpaired flow"
expect_contains "$TMP/out" "flow 1: phases ['s']" "unpaired flow found"

# A real consumer: the Chrome DevTools performance panel's trace engine.
ENGINE="${TLV_DEVTOOLS_ENGINE:-$SRC/build/npm/node_modules/@paulirish/trace_engine}"
if command -v node >/dev/null && [ -f "$ENGINE/models/trace/trace.js" ]; then
  run node "$SRC/tests/e2e/chrome_devtools.mjs" "$ENGINE" "$TMP/asp.json"
  expect_status 0 "DevTools trace engine: $(head -5 "$TMP/out")"
  expect_line "$TMP/out" "devtools ok: 16 threads, 604 entries, nesting kept, 17 of 17 flows kept, 0 of 0 counter events kept (no counter tracks)" "DevTools summary"
  run node "$SRC/tests/e2e/chrome_devtools.mjs" "$ENGINE" "$TMP/fmp.json"
  expect_status 0 "DevTools trace engine on fmp: $(head -5 "$TMP/out")"
  expect_contains "$TMP/out" "27 of 27 flows kept" "DevTools keeps fmp's 27 flows (0 before)"
  run node "$SRC/tests/e2e/chrome_devtools.mjs" "$ENGINE" "$TMP/strace.json"
  expect_status 0 "DevTools trace engine on strace: $(head -5 "$TMP/out")"
  run node "$SRC/tests/e2e/chrome_devtools.mjs" "$ENGINE" "$TMP/mini.json"
  expect_status 0 "DevTools trace engine on mini: $(head -5 "$TMP/out")"
  expect_contains "$TMP/out" "0 of 9 counter events kept (no counter tracks)" "DevTools and counters"
else
  echo "note: the DevTools trace engine is not installed (scripts/setup.sh, npm); checked structurally only"
fi

finish
