# `tlv view`: usage errors (no display needed), then under Xvfb, driven by
# --script like a person: fit, pan and zoom by keys, wheel and drags, range
# selection, double-click, the macro view, markers, the session file's round
# trip; with the corpus also tooltips, per-CPU mode, row scrolling, resizing
# and --bench. Asserts on the dumped state (exact ranges after known steps)
# and on pixels of screenshots (png_probe). Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

RES="$SRC/samples/asp/sample.res"
cp "$SRC/samples/asp/sample.log" "$TMP/sample.log"
LOG="$TMP/sample.log"

# ---- without a display -----------------------------------------------------------
run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "usage: tlv view" "help text"
run "$TLV" view "$LOG"
expect_status 2 "no -r"
expect_contains "$TMP/err" "a resource file is needed" "no -r message"
run "$TLV" view -r "$RES" --size 5x5 "$LOG"
expect_status 2 "bad --size"
run "$TLV" view -r "$RES" "$TMP/no-such.log"
expect_status 2 "missing log"
expect_contains "$TMP/err" "cannot read the log" "missing log message"
run "$TLV" view -r "$RES" --script x --bench "$LOG"
expect_status 2 "--script with --bench"
# No display (issue 27.9): SDL would fall back to its offscreen driver and the
# window wait for events forever; refused at once, with the way to a PNG.
run env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER LSAN_OPTIONS="suppressions=$SRC/tests/e2e/lsan_view.supp:print_suppressions=0" timeout 60 "$TLV" view -r "$RES" --no-session "$LOG"
expect_status 2 "no display: exit status 2, not a hang (124)"
expect_grep "$TMP/err" "^tlv view: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set: SDL found only its '[a-z]*' driver, which shows nothing)\$" \
  "no display: why"
expect_line "$TMP/err" "tlv view: to draw the timeline into a PNG instead: tlv render -r $RES $LOG -o out.png" \
  "no display: how to draw a PNG"
# Asked for (a script on a machine without a display): it runs.
printf 'dump-state %s\n' "$TMP/offscreen.json" >"$TMP/offscreen.txt"
run env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=offscreen LSAN_OPTIONS="suppressions=$SRC/tests/e2e/lsan_view.supp:print_suppressions=0" timeout 60 "$TLV" view -r "$RES" --no-session \
  --script "$TMP/offscreen.txt" "$LOG"
expect_status 0 "SDL_VIDEODRIVER=offscreen asked for: the script runs"
expect_grep "$TMP/offscreen.json" '"events":	861,' "SDL_VIDEODRIVER=offscreen: the trace loaded"

. "$(dirname "$0")/view_lib.sh"

# ---- navigation (the project's own sample) ------------------------------------------
cat >"$TMP/nav.txt" <<EOF
dump-state $TMP/n0.json
key Right
dump-state $TMP/n1.json
key Left
key Left
dump-state $TMP/n2.json
mouse-move 600 200
dump-state $TMP/n3.json
key Up
dump-state $TMP/n4.json
key Backspace
dump-state $TMP/n5.json
wheel 2 600 200 shift
dump-state $TMP/n6.json
wheel 1 600 200 ctrl
dump-state $TMP/n7.json
key f
drag 700 200 680 200
dump-state $TMP/n8.json
key f
drag 500 200 800 200 right
dump-state $TMP/n9.json
key f
dclick 500 200
dump-state $TMP/n10.json
key f
mouse-leave
key Up
click 990 550
dump-state $TMP/n11.json
key f
key Up
drag 666 550 716 550
dump-state $TMP/n12.json
key Backspace
dump-state $TMP/n13.json
EOF
view -r "$RES" --no-session --size 1000x600 --script "$TMP/nav.txt" "$LOG"
expect_status 0 "navigation script"
N="$TMP/n"
check "opens fitted" '.[0].visible == .[0].trace and .[0].first_row == 0 and .[0].history == 0' $N"0.json"
check "window size" '.[0].window == {"width":1000,"height":600}' $N"0.json"
check "Right pans an eighth, stopping a little past the end" 'near(.[1].visible.t1; hi) and
  near(span(.[1].visible); S)' $N"0.json" $N"1.json"
check "Left twice, stopping a little before the start" 'near(.[1].visible.t0; lo) and .[1].history == 1' \
  $N"0.json" $N"2.json"
check "cursor time" 'near(.[1].cursor.time; .[1].visible.t0 + (600 - L) * span(.[1].visible) / (W - L))' \
  $N"0.json" $N"3.json"
check "Up zooms by 2 at the cursor" 'near(span(.[2].visible); span(.[1].visible) / 2) and
  near(.[2].cursor.time; .[1].cursor.time)' $N"0.json" $N"3.json" $N"4.json"
check "Backspace returns" '.[2].visible == .[1].visible' $N"0.json" $N"3.json" $N"5.json"
check "Shift+wheel zooms at the cursor" 'near(span(.[2].visible); span(.[1].visible) * 0.64) and
  near(.[2].cursor.time; .[1].cursor.time)' $N"0.json" $N"5.json" $N"6.json"
check "Ctrl+wheel pans" 'near(.[2].visible.t0; .[1].visible.t0 - 0.1 * span(.[1].visible)) and
  near(span(.[2].visible); span(.[1].visible))' $N"0.json" $N"6.json" $N"7.json"
check "left drag pans" 'near(.[1].visible.t0; .[0].trace.t0 + 20 * S / (W - L)) and
  near(span(.[1].visible); S)' $N"0.json" $N"8.json"
check "right drag selects and zooms" '.[1].visible == .[1].selection and
  near(.[1].visible.t0; at(500)) and near(.[1].visible.t1; at(800))' $N"0.json" $N"9.json"
check "double-click centres" 'centred(.[1].visible; at(500)) and near(span(.[1].visible); S)' \
  $N"0.json" $N"10.json"
check "macro view click jumps" 'centred(.[1].visible; at(990)) and near(span(.[1].visible); S / 2)' \
  $N"0.json" $N"11.json"
check "click is in the macro view" '.[0].layout.macro_y < 550 and .[0].layout.status_y > 550' $N"0.json"
check "macro box drag moves" 'near(.[1].visible.t0; .[0].trace.t0 + S / 4 + 50 * S / (W - L)) and
  near(span(.[1].visible); S / 2)' $N"0.json" $N"12.json"
check "Backspace after a drag" 'near(.[1].visible.t0; .[0].trace.t0 + S / 4)' $N"0.json" $N"13.json"

# the macro view's box edges resize the view (at x of the box's edges, from the layout)
xl=$(jq '(.layout.label_width + (.layout.pixel_width - .layout.label_width) / 4) | round' $N"0.json")
xr=$(jq '(.layout.label_width + 3 * (.layout.pixel_width - .layout.label_width) / 4) | round' $N"0.json")
printf 'mouse-leave\nkey Up\ndrag %s 550 %s 550\ndrag %s 550 %s 550\ndump-state %s\n' \
  "$xr" $((xr + 40)) "$xl" $((xl - 30)) "$TMP/n14.json" >"$TMP/edges.txt"
view -r "$RES" --no-session --size 1000x600 --script "$TMP/edges.txt" "$LOG"
check "macro box edges resize" 'near(.[1].visible.t1; at('$((xr + 40))')) and
  near(.[1].visible.t0; at('$((xl - 30))'))' $N"0.json" "$TMP/n14.json"

# ---- markers and pixels -------------------------------------------------------------
cat >"$TMP/mark.txt" <<EOF
screenshot $TMP/m0.png
mouse-move 500 200
marker-add
mouse-move 800 200
key m
dump-state $TMP/m1.json
mouse-leave
screenshot $TMP/m1.png
key [
dump-state $TMP/m2.json
key ]
dump-state $TMP/m3.json
key ]
dump-state $TMP/m4.json
key Delete
dump-state $TMP/m5.json
EOF
view -r "$RES" --no-session --size 1000x600 --script "$TMP/mark.txt" "$LOG"
expect_status 0 "marker script"
M="$TMP/m"
check "markers at the cursor" '[.[0].markers[].name] == ["M1","M2"] and .[0].selected_marker == 1 and
  near(.[0].markers[0].time; at(500)) and near(.[0].markers[1].time; at(800))' $M"1.json"
check "[ jumps to the previous marker" 'centred(.[1].visible; .[0].markers[0].time) and
  .[1].selected_marker == 0' $M"1.json" $M"2.json"
check "] jumps to the next marker" 'centred(.[1].visible; .[0].markers[1].time) and
  .[1].selected_marker == 1' $M"1.json" $M"3.json"
check "] past the last marker" '.[1].visible == .[0].visible and .[1].message == "no marker after"' \
  $M"3.json" $M"4.json"
check "Delete removes the selected marker" '[.[0].markers[].name] == ["M1"]' $M"5.json"

checks=$((checks + 1))
[ "$("$PROBE" "$M"1.png size)" = "1000 600" ] || fail "screenshot size: $("$PROBE" "$M"1.png size)"
main_h=$(jq .layout.main_height "$M"1.json)
macro_y=$(jq .layout.macro_y "$M"1.json)
status_y=$(jq .layout.status_y "$M"1.json)
expect_count "marker M1 line" "$M"1.png 497 $((main_h - 6)) 503 $((main_h - 2)) d62728 4
expect_count "selected marker M2, 3 px wide" "$M"1.png 796 $((main_h - 6)) 804 $((main_h - 2)) 1f77b4 12
checks=$((checks + 1))
before=$("$PROBE" "$M"0.png count 497 0 503 "$main_h" d62728)
after=$("$PROBE" "$M"1.png count 497 0 503 "$main_h" d62728)
[ "$after" -gt $((before + main_h / 2)) ] || fail "marker M1 line: $before pixels before, $after after"
expect_count "status line" "$M"1.png 0 $((status_y + 2)) 200 600 e4e4e4 1000
expect_count "macro view box" "$M"1.png 300 "$macro_y" 1000 "$status_y" 286edc 500

# ---- the session file ----------------------------------------------------------------
cat >"$TMP/s1.txt" <<EOF
mouse-leave
key Up
mouse-move 700 200
marker-add
resize 900 560
dump-state $TMP/s1.json
EOF
view -r "$RES" --script "$TMP/s1.txt" "$LOG"
expect_status 0 "session: first run"
checks=$((checks + 1))
[ -f "$LOG.tlvsession" ] || fail "no session file $LOG.tlvsession"
check "session file" '.[0].tlv_session == 1 and (.[0].markers | length) == 1' "$LOG.tlvsession"
echo "dump-state $TMP/s2.json" >"$TMP/s2.txt"
view -r "$RES" --script "$TMP/s2.txt" "$LOG"
expect_status 0 "session: second run"
check "session round trip" '[.[] | {visible, first_row, per_cpu, window, markers}] | .[0] == .[1]' \
  "$TMP/s1.json" "$TMP/s2.json"
view -r "$RES" --no-session --script "$TMP/s2.txt" "$LOG"
check "--no-session" '.[0].visible == .[0].trace and .[0].markers == []' "$TMP/s2.json"
view -r "$RES" --session "$TMP/elsewhere.json" --script "$TMP/s1.txt" "$LOG"
check "--session FILE" '.[0].tlv_session == 1' "$TMP/elsewhere.json"
echo "not json" >"$LOG.tlvsession"
view -r "$RES" --script "$TMP/s2.txt" "$LOG"
expect_status 0 "bad session file"
expect_line "$TMP/err" "tlv view: $LOG.tlvsession: not a tlv session file (not JSON: line 1, column 1); ignored" "bad session message"
# The unreadable file is not lost: kept as .bak, the new session written.
expect_line "$LOG.tlvsession.bak" "not json" "bad session kept as .bak"
check "bad session replaced by a good one" '.[0].tlv_session == 1' "$LOG.tlvsession"
# A session from a newer tlv: what is known is used, reported once, kept as .bak.
rm -f "$LOG.tlvsession.bak"
cat >"$LOG.tlvsession" <<'JSON'
{"tlv_session": 99, "markers": [{"name": "M7", "time": 1500000}], "from_the_future": {"x": [1, 2]}}
JSON
view -r "$RES" --script "$TMP/s2.txt" "$LOG"
expect_status 0 "newer session version"
expect_line "$TMP/err" "tlv view: $LOG.tlvsession: written by a newer tlv (session version 99, this one reads 1); what this version knows is used" "newer session message"
expect_line "$TMP/err" "tlv view: $LOG.tlvsession: kept as '$LOG.tlvsession.bak' when the session is saved" "newer session: .bak announced"
checks=$((checks + 1))
[ "$(grep -c "newer tlv" "$TMP/err")" -eq 1 ] || fail "newer session: reported more than once"
check "newer session: its marker used" '(.[0].markers | length) == 1 and .[0].markers[0].name == "M7"' "$TMP/s2.json"
check "newer session kept as .bak" '.[0].tlv_session == 99 and .[0].from_the_future.x == [1, 2]' "$LOG.tlvsession.bak"
check "newer session: rewritten in this version" '.[0].tlv_session == 1' "$LOG.tlvsession"

# Conversion errors: on stderr with file and line, counted in the window; the rest shows.
cp "$LOG" "$TMP/errors.log"
echo "[1979200] dispatch to task 99." >>"$TMP/errors.log"
printf 'dump-state %s\nscreenshot %s\n' "$TMP/e.json" "$TMP/e.png" >"$TMP/e.txt"
view -r "$RES" --no-session --script "$TMP/e.txt" "$TMP/errors.log"
expect_status 0 "log with an error"
expect_contains "$TMP/err" "errors.log:401: error: rule" "error on stderr with file and line"
check "error counted, trace shown" '.[0].load_errors == 1 and .[0].trace.t1 == 1979200' "$TMP/e.json"
expect_count "error banner" "$TMP/e.png" 0 0 1280 400 ffe8e0 2000

echo "frobnicate 1 2" >"$TMP/bad.txt"
view -r "$RES" --no-session --script "$TMP/bad.txt" "$LOG"
expect_status 2 "bad script command"
expect_contains "$TMP/err" "bad.txt:1: cannot run 'frobnicate 1 2'" "bad command message"

# ---- with the corpus: tooltips, per-CPU rows, scrolling, resizing, bench --------------
# ---- a log without events says so (issue 27.8) ----------------------------------------
: >"$TMP/empty.log"
printf 'these lines\nare no TOPPERS log\n' >"$TMP/other.log"
printf 'dump-state %s\nscreenshot %s\n' "$TMP/e0.json" "$TMP/e0.png" >"$TMP/e.txt"
view -r "$RES" --no-session --size 700x450 --script "$TMP/e.txt" "$TMP/empty.log"
expect_status 0 "an empty log"
check "an empty log: said in the status line, not a silent 0 .. 1 us" \
  '.[0].events == 0 and .[0].message == "no events in '"$TMP"'/empty.log: the log is empty"' "$TMP/e0.json"
expect_count "an empty log: the notice over the timeline" "$TMP/e0.png" 200 60 700 200 202020 20
printf 'dump-state %s\n' "$TMP/e1.json" >"$TMP/e.txt"
view -r "$RES" --no-session --size 700x450 --script "$TMP/e.txt" "$TMP/other.log"
expect_status 0 "a log no rule matched"
check "a log no rule matched: no events, and why" \
  '.[0].events == 0 and .[0].message == "no events in '"$TMP"'/other.log: 2 lines read, none made an event" and
   (.[0].banner[0] | test("no rule matched any of the 2 lines"))' "$TMP/e1.json"

# ---- an instant's mark: its tooltip gives when, not a duration (issue 27.8) -----------------
cat >"$TMP/x.txt" <<EOF
key g
text 66.709 ms 67.309 ms
key Return
move-row 1795623843818293 heap[4092]
dump-state $TMP/x0.json
EOF
view -R "$SRC/rules" -r "$SRC/rules/linux_heap.res" --no-session --size 1000x600 --script "$TMP/x.txt" \
  "$SRC/samples/linux/heap/heap.log"
expect_status 0 "an exit mark hovered"
check "an exit mark's tooltip: the instant, no duration" \
  '.[0].tooltip.event == "exit" and .[0].tooltip.from == .[0].tooltip.to and .[0].tooltip.duration == null' \
  "$TMP/x0.json"

# ---- an instant's text before the view's start is not pinned to its left edge (27.8) -------
# cc1[7492] exits (a When mark, its text "exit 0") just before the view: no
# "exit 0" at the timeline's left edge, while cc[7488]'s signal at 350 ms,
# in view, keeps its text where it happened.
cat >"$TMP/p.txt" <<EOF
key g
text 94.358 ms 95.068 ms
key Return
mouse-move 5 5
dump-state $TMP/p0.json
EOF
view -R "$SRC/rules" -r "$SRC/rules/linux_strace.res" --no-session --size 1000x600 --script "$TMP/p.txt" \
  "$SRC/samples/linux/strace/make.log"
expect_status 0 "instant before the view"
check "instant before the view: cc1[7492]'s exit is before it" \
  '.[0].visible.t0 > 1795614988342623' "$TMP/p0.json"
check "instant before the view: no exit text pinned at the left edge, the one in view drawn" \
  '.[0].layout.label_width as $l | ([.[0].labels[] | select(.text == "exit 0" and .x <= $l + 1)] | length) == 0 and
   ([.[0].labels[] | select(.text == "SIGCHLD CLD_EXITED" and .x > $l + 100)] | length) == 1' "$TMP/p0.json"

if have_corpus; then
  A="$CORPUS/logs/asp"
  F="$CORPUS/logs/fmp"
  cp "$A/asp_short.log" "$F/fmp_short.log" "$TMP/"
  echo "dump-state $TMP/a0.json" >"$TMP/a0.txt"
  view -R "$CORPUS/rules" -r "$A/asp_short.res" --no-session --size 1200x700 --script "$TMP/a0.txt" \
    "$TMP/asp_short.log"
  expect_status 0 "asp_short"
  check "asp_short rows" '(.[0].rows | length) == 12 and .[0].rows[1] == "TASK1"' "$TMP/a0.json"
  # hover the middle of row 1 (TASK1) at a third of the timeline
  y=$(jq '.layout.ruler_height + .layout.row_height * 1.5 | floor' "$TMP/a0.json")
  x=$(jq '.layout.label_width + (.layout.pixel_width - .layout.label_width) / 3 | floor' "$TMP/a0.json")
  printf 'mouse-move %s %s\ndump-state %s\nscreenshot %s\n' "$x" "$y" "$TMP/a1.json" "$TMP/a1.png" >"$TMP/a1.txt"
  view -R "$CORPUS/rules" -r "$A/asp_short.res" --no-session --size 1200x700 --script "$TMP/a1.txt" \
    "$TMP/asp_short.log"
  check "tooltip on TASK1" '.[0].tooltip.row == 1 and .[0].tooltip.resource == "TASK1" and
    .[0].tooltip.from <= .[0].cursor.time and .[0].cursor.time <= .[0].tooltip.to and
    (.[0].tooltip.start | endswith(" us"))' "$TMP/a1.json"
  # the tooltip's shape is one `tlv shapes` draws
  "$TLV" shapes -R "$CORPUS/rules" -r "$A/asp_short.res" "$TMP/asp_short.log" >"$TMP/shapes.jsonl" 2>/dev/null
  checks=$((checks + 1))
  jq -e -s --slurpfile s "$TMP/a1.json" '[.[] | select(.rule == $s[0].tooltip.rule and
    .event == $s[0].tooltip.event and .from == $s[0].tooltip.from and .to == $s[0].tooltip.to and
    .resource == "TASK1")] | length > 0' "$TMP/shapes.jsonl" >/dev/null ||
    fail "tooltip shape not among tlv shapes: $(jq -c .tooltip "$TMP/a1.json")"
  checks=$((checks + 1))
  colors=$("$PROBE" "$TMP/a1.png" colors 300 30 1200 500)
  [ "$colors" -ge 20 ] || fail "timeline looks empty: $colors colours"

  cat >"$TMP/f.txt" <<EOF
screenshot $TMP/f0.png
key c
dump-state $TMP/f1.json
screenshot $TMP/f1.png
wheel -3 700 300
dump-state $TMP/f2.json
wheel 10 700 300
dump-state $TMP/f3.json
wheel -100 700 300
dump-state $TMP/f4.json
key c
dump-state $TMP/f5.json
resize 800 500
dump-state $TMP/f6.json
screenshot $TMP/f6.png
quit
EOF
  view -R "$CORPUS/rules" -r "$F/fmp_short.res" --no-session --size 1000x600 --script "$TMP/f.txt" \
    "$TMP/fmp_short.log"
  expect_status 0 "fmp_short"
  check "c: per-CPU rows" '.[0].per_cpu and .[0].rows[0] == "CPU 1" and .[0].layout.row_height == 20' \
    "$TMP/f1.json"
  check "wheel scrolls rows" '.[0].first_row == 3 and .[1].first_row == 0 and .[2].first_row > 3 and
    .[2].first_row + ((.[2].layout.main_height - .[2].layout.ruler_height) / 20 | floor) ==
    (.[2].bands | length)' "$TMP/f2.json" "$TMP/f3.json" "$TMP/f4.json"
  check "c again" '(.[0].per_cpu | not) and (.[0].rows[0] | startswith("CPU") | not)' "$TMP/f5.json"
  check "resize" '.[0].window == {"width":800,"height":500} and .[0].layout.pixel_width == 800' \
    "$TMP/f6.json"
  checks=$((checks + 1))
  [ "$("$PROBE" "$TMP/f6.png" size)" = "800 500" ] || fail "resized screenshot: $("$PROBE" "$TMP/f6.png" size)"
  checks=$((checks + 1))
  [ "$("$PROBE" "$TMP/f0.png" diff "$TMP/f1.png")" -gt 5000 ] || fail "per-CPU frame looks unchanged"

  view -R "$CORPUS/rules" -r "$F/fmp_short.res" --per-cpu --no-session --script "$TMP/a0.txt" \
    "$TMP/fmp_short.log"
  check "--per-cpu" '.[0].per_cpu and .[0].rows[0] == "CPU 1"' "$TMP/a0.json"

  # per-CPU mode is part of the session
  printf 'key c\n' >"$TMP/c.txt"
  view -R "$CORPUS/rules" -r "$F/fmp_short.res" --script "$TMP/c.txt" "$TMP/fmp_short.log"
  view -R "$CORPUS/rules" -r "$F/fmp_short.res" --script "$TMP/a0.txt" "$TMP/fmp_short.log"
  check "per-CPU restored" '.[0].per_cpu and .[0].rows[0] == "CPU 1"' "$TMP/a0.json"

  # the trace tlv convert wrote, opened with the log's resource file
  "$TLV" convert -q -R "$CORPUS/rules" -r "$A/asp_short.res" -o "$TMP/asp_short.std" "$TMP/asp_short.log"
  printf 'dump-state %s\n' "$TMP/log.json" >"$TMP/dl.txt"
  printf 'dump-state %s\n' "$TMP/std.json" >"$TMP/ds.txt"
  view -R "$CORPUS/rules" -r "$A/asp_short.res" --no-session --size 1000x600 --script "$TMP/dl.txt" "$TMP/asp_short.log"
  expect_status 0 "view the log"
  view -R "$CORPUS/rules" -r "$A/asp_short.res" --no-session --size 1000x600 --script "$TMP/ds.txt" "$TMP/asp_short.std"
  expect_status 0 "view TRACE.std"
  check "TRACE.std: the same trace, rows and view as its log" \
    '.[0].trace == .[1].trace and .[0].rows == .[1].rows and .[0].visible == .[1].visible and (.[0].rows | length) > 5' \
    "$TMP/log.json" "$TMP/std.json"

  view -R "$CORPUS/rules" -r "$A/asp_short.res" --no-session --size 640x400 --bench "$TMP/asp_short.log"
  expect_status 0 "--bench"
  expect_contains "$TMP/out" "bench: 300 frames at 640x400, 12 rows" "bench summary"
  expect_contains "$TMP/out" "p99" "bench p99"
fi
finish
