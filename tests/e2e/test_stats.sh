#!/usr/bin/env bash
# test_stats.sh — tlv stats on the mini rule set, exact numbers: time per
# resource and state (initial values from the trace start, zero-length
# intervals left out), CPU utilization with one processor and per processor
# (--cpu-attribute), per window, another attribute, --json (parsed back by
# the exact text), and usage errors.
. "$(dirname "$0")/lib.sh"

MINI="$SRC/tests/e2e/mini"
R=(-R "$MINI" -r "$MINI/mini.res")

# expect_output WHAT: $TMP/out equals $TMP/expected.
expect_output() {
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/expected" || fail "$1: output differs:$(echo; diff "$TMP/expected" "$TMP/out")"
}

run "$TLV" stats "${R[@]}" "$MINI/mini.log" --window 200
expect_status 0 "stats --window"
cat >"$TMP/expected" <<'OUT'
Time in each value of "state" (us):
resource   state    count  total  min  mean  max
IDLE_LOOP  READY        1    200  200   200  200
IDLE_LOOP  RUNNING      1    400  400   400  400
ctrl       READY        1     50   50    50   50
ctrl       RUNNING      3    300   50   100  200
ctrl       WAITING      2    250  100   125  150
log        READY        1     50   50    50   50
log        RUNNING      2    150   50    75  100
log        WAITING      2    400  150   200  250
TIMER      IDLE         2    590  100   295  490
TIMER      RUNNING      1     10   10    10   10

CPU utilization from 100 to 700 us (running: state=RUNNING; one processor):
processor  busy  utilization
CPU         550        91.7%

CPU utilization per window of 200 us:
from   to     CPU
 100  300  100.0%
 300  500  100.0%
 500  700   75.0%
OUT
expect_output "stats, one processor"

run "$TLV" stats "${R[@]}" --cpu-attribute cpu --window 250 "$MINI/mini.log"
expect_status 0 "stats --cpu-attribute"
cat >"$TMP/expected" <<'OUT'

CPU utilization from 100 to 700 us (running: state=RUNNING; processors by cpu):
processor  busy  utilization
CPU 1       400        66.7%
CPU 2       450        75.0%

CPU utilization per window of 250 us:
from   to   CPU 1   CPU 2
 100  350  100.0%  100.0%
 350  600   20.0%   80.0%
 600  700  100.0%    0.0%
OUT
sed -n '/^$/,$p' "$TMP/out" >"$TMP/cpu" && mv "$TMP/cpu" "$TMP/out"
expect_output "stats per processor"

# Another attribute; a running definition that never holds.
run "$TLV" stats "${R[@]}" --attribute cpu --running state=GONE "$MINI/mini.log"
expect_status 0 "stats --attribute cpu"
cat >"$TMP/expected" <<'OUT'
Time in each value of "cpu" (us):
resource   state  count  total  min  mean  max
IDLE_LOOP  2          1    600  600   600  600
ctrl       1          1    400  400   400  400
ctrl       2          1    200  200   200  200
log        1          1    600  600   600  600
TIMER      1          1    600  600   600  600

CPU utilization: no resource was ever state=GONE, and none has a processor.
OUT
expect_output "stats --attribute cpu"

run "$TLV" stats "${R[@]}" --cpu-attribute cpu --window 300 --json "$MINI/mini.log" -o "$TMP/stats.json"
expect_status 0 "stats --json"
tr -d '\t\n' <"$TMP/stats.json" | sed 's/, /,/g' >"$TMP/out" # cJSON's pretty form, flattened
expect_contains "$TMP/out" '{"resource":"ctrl","label":"ctrl","state":"RUNNING","count":3,"total":300,"min":50,"mean":100,"max":200}' "json: a state"
expect_contains "$TMP/out" '"processors":[{"processor":"CPU 1","busy":400,"utilization":0.66666666666666663},{"processor":"CPU 2","busy":450,"utilization":0.75}]' "json: processors"
expect_contains "$TMP/out" '"window":300,"windows":[{"from":100,"to":400,"processors":[{"processor":"CPU 1","busy":300,"utilization":1},{"processor":"CPU 2","busy":300,"utilization":1}]}' "json: first window"
expect_contains "$TMP/out" '{"timeScale":"us","start":100,"end":700,"attribute":"state","states":[' "json: header"

run "$TLV" stats "${R[@]}" --window 0 "$MINI/mini.log"
expect_status 2 "stats --window 0"
expect_contains "$TMP/err" "--window needs a positive number of time units, not '0'" "--window 0 message"
run "$TLV" stats "${R[@]}" --running state "$MINI/mini.log"
expect_status 2 "stats --running without ="
run "$TLV" stats "${R[@]}" --window 0.0001 "$MINI/mini.log"
expect_status 2 "stats: too many windows"
expect_contains "$TMP/err" "makes more than 1000000 windows" "too many windows message"
run "$TLV" stats "${R[@]}"
expect_status 2 "stats without a log"
run "$TLV" stats --help
expect_status 0 "stats --help"
expect_contains "$TMP/out" "per processor, its utilization" "stats --help text"

finish
