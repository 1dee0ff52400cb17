#!/usr/bin/env bash
# test_view_progressive.sh — `tlv view` opens a log progressively: the trace
# fills in while a thread reads the log. --load-pause-at stops the reading
# at a known byte so that a script sees a known partial state: the status
# line's progress (dump-state "loading": bytes of the file, lines, events),
# a trace that is exactly the converted prefix of the log, shapes showing
# all of it, and a view that pans, zooms and selects; then load-resume, and
# the end state is the one a one-shot open of the same log dumps, byte for
# byte (a view changed while loading is kept, per-CPU rows asked for while
# loading are those of a per-CPU open). A generated FMP log (processors
# interleaved out of time order). No timing: the pause makes
# every state exact. Also --bench's load figures and the option's errors.
# Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

RES="$SRC/samples/fmp/sample.res"
GEN="$(dirname "$TLV")/tlv-gen"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }

run "$TLV" view --help
expect_contains "$TMP/out" "fills in while the log is read" "help: progressive open"
expect_contains "$TMP/out" "--load-pause-at BYTES" "help: the test option"
run "$TLV" view -r "$RES" --load-pause-at 100 "$SRC/samples/fmp/sample.log"
expect_status 2 "--load-pause-at without --script"
expect_contains "$TMP/err" "--load-pause-at is for tests: it needs --script (load-resume)" "its reason"
run "$TLV" view -r "$RES" --script x --load-pause-at 12k "$SRC/samples/fmp/sample.log"
expect_status 2 "--load-pause-at 12k"
expect_contains "$TMP/err" "--load-pause-at needs a number of bytes (1 or more), got '12k'" "its reason"

. "$(dirname "$0")/view_lib.sh"

LOG="$TMP/gen.log"
"$GEN" --kernel fmp --lines 60000 --seed 5 -o "$LOG"
size=$(stat -c %s "$LOG")
PAUSE=700001   # in the middle of a line: the unfinished line waits
lines=$(head -c "$PAUSE" "$LOG" | wc -l)
head -n "$lines" "$LOG" >"$TMP/prefix.log"
events=$("$TLV" convert -r "$RES" "$TMP/prefix.log" 2>/dev/null | wc -l)
all_events=$("$TLV" convert -r "$RES" "$LOG" 2>/dev/null | wc -l)
W=(--no-session --size 900x560 -r "$RES")

# The one-shot open: the reference for the end state.
printf 'dump-state %s\n' "$TMP/one.json" >"$TMP/one.txt"
view "${W[@]}" --script "$TMP/one.txt" "$LOG"
expect_status 0 "one-shot open"

printf 'dump-state %s\n' "$TMP/cpu.json" >"$TMP/cpu.txt"
view "${W[@]}" --per-cpu --script "$TMP/cpu.txt" "$LOG"
expect_status 0 "one-shot open, per CPU"

# Paused, looked at, resumed.
cat >"$TMP/p.txt" <<EOF
dump-state $TMP/p0.json
screenshot $TMP/p0.png
load-resume
dump-state $TMP/p1.json
EOF
view "${W[@]}" --load-pause-at "$PAUSE" --script "$TMP/p.txt" "$LOG"
expect_status 0 "paused open"
CHECK_SHOW='[.[] | {loading, trace, visible}]'
check "paused: the status of the load (bytes of the file, lines, events)" \
  ".[0].loading == {active: true, bytes: $PAUSE, size: $size, lines: $lines, events: $events, shown_events: $events}" \
  "$TMP/p0.json"
check "paused: a partial trace from the log's start, shown whole" \
  '.[0].trace.t0 == .[1].trace.t0 and .[0].trace.t1 < .[1].trace.t1 and .[0].visible == .[0].trace' \
  "$TMP/p0.json" "$TMP/one.json"
check "paused: the rows of the whole log already" '.[0].rows == .[1].rows' "$TMP/p0.json" "$TMP/one.json"
check "resumed: loaded" ".[0].loading == {active: false, bytes: $size, size: $size, lines: 60000, events: $all_events, shown_events: $all_events}" \
  "$TMP/p1.json"
checks=$((checks + 1))
cmp -s "$TMP/p1.json" "$TMP/one.json" || fail "the end state differs from a one-shot open: $(diff <(jq -S . "$TMP/p1.json") <(jq -S . "$TMP/one.json") | head -20)"
# The partial trace is drawn: shapes in the timeline's rows (not all white).
expect_count "paused: shapes drawn" "$TMP/p0.png" 200 40 880 440 FFFFFF 0 300000

# Used while loading: zoom, drag-select; the view stays when the rest comes.
cat >"$TMP/u.txt" <<EOF
mouse-move 500 200
key Up
dump-state $TMP/u0.json
drag 300 200 600 200 right
dump-state $TMP/u1.json
key c
dump-state $TMP/u3.json
load-resume
dump-state $TMP/u2.json
EOF
view "${W[@]}" --load-pause-at "$PAUSE" --script "$TMP/u.txt" "$LOG"
expect_status 0 "used while loading"
check "while loading: zoomed in" \
  '.[0].loading.active and (.[0].visible.t1 - .[0].visible.t0) < (.[0].trace.t1 - .[0].trace.t0) * 0.9' "$TMP/u0.json"
check "while loading: a dragged selection zooms to it" \
  '.[1].loading.active and (.[1].visible.t1 - .[1].visible.t0) < (.[0].visible.t1 - .[0].visible.t0) * 0.5' \
  "$TMP/u0.json" "$TMP/u1.json"
check "while loading: per-CPU rows (c)" '.[0].loading.active and .[0].per_cpu and .[0].rows != .[1].rows' \
  "$TMP/u3.json" "$TMP/one.json"
check "after loading: the view kept, the trace whole, per-CPU as a one-shot open of it" \
  '(.[1].loading.active | not) and .[1].visible == .[0].visible and .[1].trace == .[2].trace and
   .[1].per_cpu and .[1].rows == .[3].rows' \
  "$TMP/u1.json" "$TMP/u2.json" "$TMP/one.json" "$TMP/cpu.json"

view "${W[@]}" --bench "$LOG"
expect_status 0 "--bench"
expect_contains "$TMP/out" "bench: first frame " "bench: first frame after start"
expect_contains "$TMP/out" "($all_events events; converted in " "bench: the load's figures"
finish
