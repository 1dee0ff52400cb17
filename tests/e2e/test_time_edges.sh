# Times at the edges of 64 bits (issue 32.2): a standard-form trace with
# events at -2^63 and 2^63 - 1 (times the docs call fine) gave CSV durations
# of -1 and -9223372036854775808, SQLite intervals with dur < 0, Chrome
# "dur":-1, and tlv stats -1 everywhere; the values before the first event
# were read at "start - 1", which wrapped to the end of the trace. Every span
# is now right over the whole range (exact in CSV, 17 digits where a double
# holds it), and options that would take times or scales past it are refused.
# Under the sanitizer build (TLV_SANITIZE=1) every command here also runs
# with UBSan's signed-overflow and float-cast checks, which abort on a wrap.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cp "$SRC"/tests/e2e/mini/mini.res "$SRC"/tests/e2e/mini/mini.resh "$SRC"/tests/e2e/mini/mini.viz \
  "$SRC"/tests/e2e/mini/mini.cnv .

cat >edge.std <<'EOF'
[-9223372036854775808]ctrl.state=RUNNING
[-9223372036854775807]log.state=RUNNING
[0]TIMER.state=RUNNING
[1]TIMER.state=IDLE
[9223372036854775806]log.state=READY
[9223372036854775807]ctrl.state=READY
EOF
tlv() { run "$TLV" "$@" -R . -r mini.res edge.std; }
# CSV lines end in CR LF (RFC 4180): compared without the CR.
uncr() { tr -d '\r' <"$TMP/out" >"$TMP/out.lf" && mv "$TMP/out.lf" "$TMP/out"; }

# CSV: durations exact, as unsigned numbers past 2^63 - 1 (never negative).
tlv export --format csv
expect_status 0 "csv"
uncr
expect_line "$TMP/out" "taskState,state,ctrl,-9223372036854775808,9223372036854775807,18446744073709551615,RUNNING" "csv: a span of 2^64 - 1 ticks"
expect_line "$TMP/out" "taskState,state,log,-9223372036854775807,9223372036854775806,18446744073709551613,RUNNING" "csv: a span of 2^64 - 3 ticks"
expect_line "$TMP/out" "taskState,state,log,9223372036854775806,9223372036854775807,1,READY" "csv: a short span at the end"
checks=$((checks + 1))
awk -F, 'NR > 1 && $6 ~ /^-/ { bad = 1 } END { exit bad }' "$TMP/out" || fail "csv: a negative duration:$(cat "$TMP/out")"

# A fraction on a span past 2^63 ticks keeps its digits.
printf '[-9223372036854775808]ctrl.state=RUNNING\n[9223372036854775806.25]ctrl.state=READY\n' >frac.std
run "$TLV" export --format csv -R . -r mini.res frac.std
uncr
expect_line "$TMP/out" "taskState,state,ctrl,-9223372036854775808,9223372036854775806.25,18446744073709551614.25,RUNNING" "csv: a fraction past 2^63 ticks"

# SQLite: every dur >= 0 and right to a double's precision; the values
# before the first event are the resource file's and the Defaults (they were
# read at "start - 1", which wrapped to the last values).
run "$TLV" export --format sqlite -o edge.db -R . -r mini.res edge.std
expect_status 0 "sqlite"
# ... and the clamping of the Perfetto-shaped tables below is said, not silent.
expect_line "$TMP/err" "tlv export: warning: edge.db: 14 times or durations in slice, sched, counter and trace_bounds lie more than 2^63 ns (292 years) from the first event: clamped to +-(2^63 - 1) ns (the intervals and events tables hold them exactly)" "sqlite: the clamping is warned of"
run "$TLV" query -R . -r mini.res edge.std "select count(*) from trace_bounds"
expect_contains "$TMP/err" "tlv query: warning: edge.std: 14 times or durations" "query of a log: the clamping is warned of"
printf '[0]ctrl.state=RUNNING\n[5]ctrl.state=READY\n' >small.std
run "$TLV" export --format sqlite -o small.db -R . -r mini.res small.std
checks=$((checks + 1))
[ -s "$TMP/err" ] && fail "sqlite: a warning for a trace that fits: $(cat "$TMP/err")"
run "$TLV" query edge.db "select count(*) from intervals where dur < 0 or end_ts < ts"
expect_line "$TMP/out" "0" "sqlite: no interval with dur < 0"
run "$TLV" query edge.db "select dur from intervals where resource_id = 1 and value = 'RUNNING'"
expect_line "$TMP/out" "1.8446744073709552e+19" "sqlite: dur of 2^64 - 1 ticks"
run "$TLV" query edge.db "select name, attributes from resources order by id"
expect_line "$TMP/out" 'ctrl       {"state":"READY"}' "sqlite: ctrl's Default before the first event"
expect_line "$TMP/out" 'log        {"state":"WAITING"}' "sqlite: log's value of the resource file"

# The Perfetto-shaped tables count integer ns from the first event: a time
# more than 2^63 ns after it is clamped to 2^63 - 1, never wrapped (sched
# and slice had dur -1000 and -3000, trace_bounds ended before it began,
# and a task running from the start was read at "start - 1", the end).
run "$TLV" query edge.db "select count(*) from sched where dur < 0 or ts < 0"
expect_line "$TMP/out" "0" "sqlite: no sched slice with dur < 0"
run "$TLV" query edge.db "select count(*) from slice where dur < 0 or ts < 0"
expect_line "$TMP/out" "0" "sqlite: no slice with dur < 0"
run "$TLV" query edge.db "select start_ts || ' ' || end_ts from trace_bounds"
expect_line "$TMP/out" "0 9223372036854775807" "sqlite: trace_bounds clamped, not wrapped"
run "$TLV" query edge.db "select ts || ' ' || dur || ' ' || end_state from sched where utid = (select utid from thread where name = 'Control')"
expect_line "$TMP/out" "0 9223372036854775807 READY" "sqlite: ctrl's sched slice from the first event"

# Chrome: "dur" positive (was -1).
tlv export --format chrome
expect_status 0 "chrome"
expect_contains "$TMP/out" '"ph":"X","ts":-9.2233720368547758e+18,"dur":1.8446744073709552e+19,"pid":1,"tid":1' "chrome: dur of 2^64 - 1 ticks"
checks=$((checks + 1))
grep -q '"dur":-' "$TMP/out" && fail "chrome: a negative dur"
# A scale that would make times infinite ("ts":null) is refused.
run "$TLV" export --format chrome --us-per-unit 1e300 -R . -r mini.res edge.std
expect_status 2 "chrome: --us-per-unit 1e300"
expect_line "$TMP/err" "tlv export: --us-per-unit needs a positive number up to 1e15, not '1e300'" "chrome: --us-per-unit 1e300 message"
run "$TLV" export --format chrome --us-per-unit inf -R . -r mini.res edge.std
expect_status 2 "chrome: --us-per-unit inf"

# stats: no -1, no wrapped busy time; numbers past 2^53 as 17 digits (a
# double holds no more), utilization 100% of the span.
tlv stats
expect_status 0 "stats"
expect_grep "$TMP/out" '^ctrl  *RUNNING  *1  *1.8446744073709552e+19  ' "stats: ctrl's RUNNING time"
expect_line "$TMP/out" "CPU utilization from -9.2233720368547758e+18 to 9.2233720368547758e+18 us (running: state=RUNNING; one processor):" "stats: the span"
expect_grep "$TMP/out" '^CPU  *1.8446744073709552e+19  *100.0%$' "stats: busy"
checks=$((checks + 1))
grep -qE -- '(^| )-1( |$)' "$TMP/out" && fail "stats: -1:$(cat "$TMP/out")"
tlv stats --json
expect_contains "$TMP/out" '"total":	1.8446744073709552e+19' "stats --json: total"
checks=$((checks + 1))
grep -q -- ':	-1$\|:	-1,' "$TMP/out" && fail "stats --json: -1"

# shapes and render: the range as it is; render's --from/--to within 64 bits.
tlv shapes
expect_status 0 "shapes"
expect_line "$TMP/out" '{"rule":"taskState","event":"state","resource":"ctrl","from":-9223372036854775808,"to":9223372036854775807,"type":"Rectangle","text":null,"fill":"ff00aa00","pen":null,"row":1}' "shapes: the whole range"
run "$TLV" render -R . -r mini.res edge.std -o edge.png --size 700x450
expect_status 0 "render the whole range"
run "$TLV" render -R . -r mini.res edge.std -o edge2.png --from -9223372036854775808 --to 9223372036854775807
expect_status 0 "render --from -2^63 --to 2^63 - 1"
run "$TLV" render -R . -r mini.res edge.std -o bad.png --from -1e300
expect_status 2 "render --from -1e300"
expect_line "$TMP/err" "tlv render: --from needs a time within the 64-bit range of trace times (-9223372036854775808 to 9223372036854775807), got '-1e300'" "render --from -1e300: message"
run "$TLV" render -R . -r mini.res edge.std -o bad.png --to 1e19
expect_status 2 "render --to 1e19"

# $CALC on times at the edges: exact, or an error naming the line (it read
# no 19-digit number before: "'9223372036854775807' is not a number").
python3 - <<'PY'
import json
c = json.load(open("mini.cnv"))
c["mini"]["^\\[(?<t>-?\\d+)\\] add (?<n>-?\\d+)$"] = "[$CALC{${t}+${n}}]ctrl.state=ADDED"
json.dump(c, open("mini.cnv", "w"))
PY
printf '[9223372036854775806] add 1
[9223372036854775807] add 1
[-9223372036854775807] add -1
' >calc.log
run "$TLV" convert -q -R . -r mini.res calc.log
expect_status 1 "\$CALC at the edges"
expect_line "$TMP/out" "[9223372036854775807]ctrl.state=ADDED" "\$CALC: 2^63 - 2 + 1"
expect_line "$TMP/out" "[-9223372036854775808]ctrl.state=ADDED" "\$CALC: -2^63 + 1 - 1"
expect_line "$TMP/err" 'calc.log:2: error: rule "^\[(?<t>-?\d+)\] add (?<n>-?\d+)$": $CALC{9223372036854775807+1}: the result is too large (column 20)' "\$CALC past 2^63 - 1: an error naming the line"

# tlv verify and the instances: a state held from -2^63 to 2^63 - 1 lasts
# 2^64 - 1 ticks (it lasted -1, and "at most 1 ms" passed as "never"); the
# values before the first event are the resource file's (read at "start -
# 1", the trace's end).
cat >reqs.json <<'JSON'
{"ResourceFile": "mini.res",
 "Requirements": {
  "ctrl runs at most 1 ms": {"Check": "state", "Resource": "ctrl", "State": "RUNNING", "Max": "1 ms"},
  "ctrl ready within 10 ms": {"Check": "followed", "Event": "ctrl.state=RUNNING",
                              "FollowedBy": "ctrl.state=READY", "Within": "10 ms"}}}
JSON
run "$TLV" verify -R . reqs.json edge.std
expect_status 1 "verify: requirements broken over the whole range"
expect_line "$TMP/out" "FAIL  ctrl runs at most 1 ms: state=RUNNING for at most 18446744073709551615 us > 1000 us; longest: Control at -9223372036854775808 us, line 1; 1 of 1 interval over" "verify: a state over 2^64 - 1 ticks, exact"
expect_line "$TMP/out" "FAIL  ctrl ready within 10 ms: ctrl.state=RUNNING followed by ctrl.state=READY within at most 18446744073709551615 us > 10000 us; slowest: Control at -9223372036854775808 us, line 1; 1 of 1 over" "verify: followed after 2^64 - 1 ticks, exact"

# Past 2^53 a double holds no odd whole number: a state held 2^53 + 1 us
# printed as 2^53 and passed a bound of 2^53 us (issue 28). Exact now, as
# are the comparisons with the bound.
printf '[0]ctrl.state=RUNNING\n[9007199254740993]ctrl.state=READY\n' >big.std
cat >big.json <<'JSON'
{"ResourceFile": "mini.res",
 "Requirements": {
  "ctrl runs at most 2^53 us": {"Check": "state", "Resource": "ctrl", "State": "RUNNING", "Max": 9007199254740992},
  "ctrl ready in 2^53 us": {"Check": "followed", "Event": "ctrl.state=RUNNING",
                            "FollowedBy": "ctrl.state=READY", "Within": 9007199254740992},
  "ctrl within 2^53 + 2 us": {"Check": "state", "Resource": "ctrl", "State": "RUNNING", "Max": 9007199254740994}}}
JSON
run "$TLV" verify -q -R . big.json big.std
expect_status 1 "verify: 2^53 + 1 us over a bound of 2^53"
expect_line "$TMP/out" "FAIL  ctrl runs at most 2^53 us: state=RUNNING for at most 9007199254740993 us > 9007199254740992 us; longest: Control at 0 us, line 1; 1 of 1 interval over" "verify: a state of 2^53 + 1 us, exact"
expect_line "$TMP/out" "FAIL  ctrl ready in 2^53 us: ctrl.state=RUNNING followed by ctrl.state=READY within at most 9007199254740993 us > 9007199254740992 us; slowest: Control at 0 us, line 1; 1 of 1 over" "verify: followed after 2^53 + 1 us, exact"
expect_line "$TMP/out" "PASS  ctrl within 2^53 + 2 us: state=RUNNING for at most 9007199254740993 us <= 9007199254740994 us; longest: Control at 0 us, line 1; 0 of 1 interval over" "verify: 2^53 + 1 us within 2^53 + 2"

# A bound past 2^63 - 1 ns is an error naming it and the largest (it was
# taken, a bound no trace could break, or one that overflows in ns).
cat >huge.json <<'JSON'
{"ResourceFile": "mini.res",
 "Requirements": {
  "a": {"Check": "state", "Resource": "ctrl", "State": "RUNNING", "Max": "1e300 ms"},
  "b": {"Check": "followed", "Event": "ctrl.state=RUNNING", "FollowedBy": "ctrl.state=READY",
        "Within": "9223372037 s"}}}
JSON
run "$TLV" verify -q -R . huge.json big.std
expect_status 2 "verify: bounds past 2^63 - 1 ns"
expect_line "$TMP/err" "huge.json:3:74: error: requirement 'a': \"Max\": '1e300 ms' is too large: the largest duration is 9223372036854.775807 ms (2^63 - 1 ns)" "verify: 1e300 ms"
expect_line "$TMP/err" "huge.json:5:19: error: requirement 'b': \"Within\": '9223372037 s' is too large: the largest duration is 9223372036.854775807 s (2^63 - 1 ns)" "verify: 9223372037 s"
cat >huge2.json <<'JSON'
{"ResourceFile": "mini.res",
 "Requirements": {"a": {"Check": "state", "Resource": "ctrl", "State": "RUNNING", "Max": 1e300}}}
JSON
run "$TLV" verify -q -R . huge2.json big.std
expect_status 2 "verify: a bound past 2^63 - 1 ns in the TimeScale"
expect_line "$TMP/err" "huge2.json:2:90: error: requirement 'a': \"Max\": 1e300 (in the trace's TimeScale, us) is too large: the largest duration is 9223372036854775.807 us (2^63 - 1 ns)" "verify: 1e300 us"
tlv stats --instances
expect_status 0 "stats --instances"
expect_grep "$TMP/out" '^TIMER  *response  *1  *1  *1  *1  *1  *1  *1  *0 ' "stats --instances: TIMER's response"
checks=$((checks + 1))
grep -q '^log  *latency' "$TMP/out" && fail "stats --instances: log's initial WAITING read at the trace's end:$(cat "$TMP/out")"

# Times past 64 bits are errors naming the line (docs/robustness.md).
printf '[9223372036854775808]ctrl.state=RUNNING\n[1]ctrl.state=READY\n' >over.std
run "$TLV" convert -q -R . -r mini.res over.std
expect_status 1 "a time past 2^63 - 1"
expect_contains "$TMP/err" "over.std:1: error:" "a time past 2^63 - 1: the line"
expect_contains "$TMP/err" "time does not fit in 64 bits" "a time past 2^63 - 1: why"
expect_line "$TMP/out" "[1]ctrl.state=READY" "a time past 2^63 - 1: the next line"

finish
