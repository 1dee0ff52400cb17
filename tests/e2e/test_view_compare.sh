#!/usr/bin/env bash
# test_view_compare.sh — `tlv view A --compare B` (issue 28.4), under Xvfb,
# driven by --script: two runs of a sample program (tlv-gen, B with task 3
# slowed as in test_diff.sh). B's rows come in A's order, each paired by name
# ("both"); two Linux recordings of different programs mark the rows of one
# run only (xz's threads only in A, heap's only in B), and the same program
# recorded twice pairs its threads though their ids differ. B is aligned at
# the starts: B shifted by 1 s reads 1 s later under the same x (the visible
# range of B is A's plus the offset); --align-at TASK3.state=RUNNING lines
# up the first such events (1935150 in A, 2304377 in B: offset 369227, read
# from tlv convert's output); Shift+B aligns at the event of the shape under
# the pointer. The diff panel (Shift+C) shows tlv diff's rows: its top
# line's figures are those of `tlv diff --format json`'s first row, in both
# tables. A click on B's band names run B in the status line. A B that
# cannot be read, --align-at without --compare, a bad event, --compare -
# and --unmatched are refused with exit 2; --requirements works beside it.
# Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

GEN="${TLV_GEN:?TLV_GEN must point to tlv-gen}"
"$GEN" --emit-res | retarget_res /dev/stdin >"$TMP/gen.res"
"$GEN" --lines 3000 -o "$TMP/a.log"
"$GEN" --lines 3000 --slower 3:150 -o "$TMP/b.log"
G=(-r "$TMP/gen.res")

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "--compare B           compare two runs" "help: --compare"
expect_contains "$TMP/out" "--align-at EVENT      with --compare" "help: --align-at"

# Refused before any window.
run "$TLV" view "${G[@]}" --compare "$TMP/missing.log" "$TMP/a.log"
expect_status 2 "a B that cannot be read"
expect_contains "$TMP/err" "tlv: cannot read the log to compare '$TMP/missing.log' (--compare): No such file or directory" "B named"
run "$TLV" view "${G[@]}" --align-at TASK3.state=RUNNING "$TMP/a.log"
expect_status 2 "--align-at alone"
expect_contains "$TMP/err" "--align-at lines up the run of --compare B: give --compare too" "--align-at alone"
run "$TLV" view "${G[@]}" --compare "$TMP/b.log" --align-at RUNNING "$TMP/a.log"
expect_status 2 "--align-at without an event"
expect_contains "$TMP/err" "--align-at needs an event RESOURCE.attribute=value or RESOURCE.name, not 'RUNNING'" "a bad event"
run "$TLV" view "${G[@]}" --compare - "$TMP/a.log"
expect_status 2 "--compare -"
expect_contains "$TMP/err" "--compare needs a file" "--compare -"
run "$TLV" view "${G[@]}" --compare "$TMP/b.log" --unmatched "$TMP/u.txt" "$TMP/a.log"
expect_status 2 "--unmatched with --compare"
expect_contains "$TMP/err" "--unmatched and --compare do not go together" "--unmatched"
printf '{"bad": \n' >"$TMP/bad.res"
run "$TLV" view -r "$TMP/bad.res" --compare "$TMP/b.log" "$TMP/a.log"
expect_status 2 "rules with errors"

. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {visible, message, compare_panel, diff_panel}]'
D="$TMP/d"
mkdir -p "$D"

# 1. Two runs of one program: rows paired in A's order; aligned at the starts.
cat >"$D/s1.txt" <<EOF
dump-state $D/s1.json
key shift+c
dump-state $D/s2.json
key shift+c
dump-state $D/s3.json
key shift+c
dump-state $D/s4.json
EOF
view "${G[@]}" --no-session --size 1280x800 --compare "$TMP/b.log" --script "$D/s1.txt" "$TMP/a.log"
expect_status 0 "compare two runs"
check "B's rows in A's order, each paired" \
  '[.[0].compare_panel.rows[].label] == [.[0].bands[].label] and
   ([.[0].compare_panel.rows[].in] | unique) == ["both"] and
   ([.[0].compare_panel.rows[].label] | index("TASK3")) != null' "$D/s1.json"
check "aligned at the starts (both start at 1296036): B shows A's range" \
  '.[0].compare_panel.offset == 0 and .[0].compare_panel.aligned == "aligned at the starts" and
   .[0].compare_panel.t0 == .[0].visible.t0 and .[0].compare_panel.t1 == .[0].visible.t1' "$D/s1.json"
check "B's band is below A's timeline, above the overview" \
  '.[0].compare_panel.area.y >= .[0].layout.main_height and
   .[0].compare_panel.area.y + .[0].compare_panel.area.h <= .[0].layout.macro_y' "$D/s1.json"
check "B's band is as tall as A's timeline, with the diff table open too" \
  '[.[] | .compare_panel.area.h - .layout.main_height | abs <= 1] == [true, true]' "$D/s1.json" "$D/s2.json"
check "the diff panel: hidden, response times, states, hidden" \
  '[.[].diff_panel.mode] == ["hidden", "instances", "states", "hidden"]' \
  "$D/s1.json" "$D/s2.json" "$D/s3.json" "$D/s4.json"

# Its top lines are tlv diff's first rows, figure for figure.
run "$TLV" diff --format json "${G[@]}" "$TMP/a.log" "$TMP/b.log"
expect_status 0 "tlv diff of the same runs"
cp "$TMP/out" "$D/diff.json"
jq -c '.instances[0] | [.actor, .kind, .name, .a.count, .b.count, .a.p50, .b.p50, .a.p99, .b.p99, .a.max, .b.max, .change]' \
  "$D/diff.json" >"$D/want_inst"
jq -c '.diff_panel.lines[0] | [.actor, .kind, .name, .a.count, .b.count, .a.p50, .b.p50, .a.p99, .b.p99, .a.max, .b.max, .change]' \
  "$D/s2.json" >"$D/got_inst"
checks=$((checks + 1))
cmp -s "$D/want_inst" "$D/got_inst" || fail "the panel's top response row $(cat "$D/got_inst"), tlv diff's $(cat "$D/want_inst")"
jq -c '.states[0] | [.actor, .state, .a.count, .b.count, .a.time, .b.time, .change]' "$D/diff.json" >"$D/want_st"
jq -c '.diff_panel.lines[0] | [.actor, .state, .a.count, .b.count, .a.time, .b.time, .change]' "$D/s3.json" >"$D/got_st"
checks=$((checks + 1))
cmp -s "$D/want_st" "$D/got_st" || fail "the panel's top state row $(cat "$D/got_st"), tlv diff's $(cat "$D/want_st")"
check "the top response row as drawn: TASK1's slp_tsk calls, 3 and 5, max 1.064 s and 2.644 s, +148.4%" \
  '.[0].diff_panel.lines[0].cells == ["TASK1", "call slp_tsk", "3", "5", "397.534 ms", "1.019 s",
     "1.064 s", "2.644 s", "1.064 s", "2.644 s", "+1.58 s", "+148.4%"]' "$D/s2.json"

# 2. B shifted by 1 s: under the same x, B's time is A's + 1 s.
awk '{ if (match($0, /^\[[0-9]+\]/)) { t = substr($0, 2, RLENGTH - 2) + 1000000;
       print "[" t "]" substr($0, RLENGTH + 1) } else print }' "$TMP/b.log" >"$TMP/b_late.log"
# A click on B's band (TASK2's band, where the first run's dump put it)
# says what run B shows there.
y=$(jq -r '.compare_panel.rows[] | select(.label == "TASK2") | .y' "$D/s1.json")
cat >"$D/t.txt" <<EOF
dump-state $D/t1.json
click 700 $y
dump-state $D/c1.json
EOF
view "${G[@]}" --no-session --size 1280x800 --compare "$TMP/b_late.log" --script "$D/t.txt" "$TMP/a.log"
expect_status 0 "compare with a later B"
check "aligned at the starts: offset 1 s, B's range is A's + 1 s" \
  '.[0].compare_panel.offset == 1000000 and .[0].compare_panel.t0 == .[0].visible.t0 + 1000000 and
   .[0].compare_panel.t1 == .[0].visible.t1 + 1000000' "$D/t1.json"
check "the status line names run B and its row" \
  '(.[0].message | startswith("run B: TASK2  ")) and .[0].compare_panel.clicked == .[0].message' "$D/c1.json"

# 3. --align-at: the first TASK3.state=RUNNING of each (tlv convert's times).
ta=$("$TLV" convert "${G[@]}" "$TMP/a.log" 2>/dev/null | grep -m1 '\]TASK3\.state=RUNNING$' | sed 's/^\[\([0-9]*\)\].*/\1/')
tb=$("$TLV" convert "${G[@]}" "$TMP/b.log" 2>/dev/null | grep -m1 '\]TASK3\.state=RUNNING$' | sed 's/^\[\([0-9]*\)\].*/\1/')
checks=$((checks + 1))
[ "$ta" = 1935150 ] && [ "$tb" = 2304377 ] || fail "TASK3's first RUNNING at $ta and $tb, not 1935150 and 2304377"
cat >"$D/a.txt" <<EOF
dump-state $D/a1.json
move-row 1935200 TASK3
key shift+b
dump-state $D/a2.json
mouse-move 5 5
key shift+b
dump-state $D/a3.json
EOF
view "${G[@]}" --no-session --size 1280x800 --compare "$TMP/b.log" --align-at TASK3.state=RUNNING \
  --script "$D/a.txt" "$TMP/a.log"
expect_status 0 "--align-at"
check "--align-at: B = A + 369227 (2304377 - 1935150)" \
  '.[0].compare_panel.offset == 369227 and .[0].compare_panel.aligned == "aligned at TASK3.state=RUNNING" and
   .[0].compare_panel.t0 == .[0].visible.t0 + 369227' "$D/a1.json"
check "Shift+B over TASK3's first run aligns at the event that began the shape there, first of its kind" \
  '(.[0].compare_panel.aligned | startswith("aligned at TASK3.")) and
   (.[0].compare_panel.aligned | test("#") | not) and
   (.[0].message | startswith("B aligned at TASK3."))' "$D/a2.json"
check "Shift+B with nothing under the pointer: the starts again" \
  '.[0].compare_panel.offset == 0 and .[0].compare_panel.aligned == "aligned at the starts"' "$D/a3.json"
cat >"$D/n.txt" <<EOF
dump-state $D/n1.json
EOF
view "${G[@]}" --no-session --size 1280x800 --compare "$TMP/b.log" --align-at TASK9.state=RUNNING \
  --script "$D/n.txt" "$TMP/a.log"
expect_status 0 "--align-at an event of neither run"
check "an event of neither run: the starts, and the status line says so" \
  '.[0].compare_panel.offset == 0 and
   .[0].message == "align: no event TASK9.state=RUNNING in run A ('"$TMP"'/a.log); aligned at the starts"' "$D/n1.json"

# 4. Linux: rows of one run only; a program's threads paired across runs.
SCHED="$SRC/samples/linux/sched"
cat >"$D/l.txt" <<EOF
dump-state $D/l1.json
EOF
view -r linux_sched.res --no-session --size 1280x800 --compare "$SCHED/heap.log" --script "$D/l.txt" "$SCHED/xz.log"
expect_status 0 "compare two Linux recordings"
check "xz's threads only in A, heap's only in B (last), the CPUs in both" \
  '[.[0].compare_panel.rows[] | [.label, .in]] == [["CPU 0", "both"], ["CPU 1", "both"],
     ["xz[7607]", "only in A"], ["xz[7629]", "only in A"], ["xz[7631]", "only in A"],
     ["heap[8156]", "only in B"], ["heap[8180]", "only in B"], ["heap[8181]", "only in B"]]' "$D/l1.json"
view -r linux_sched.res --no-session --size 1280x800 --compare "$SCHED/xz-trace-cmd.log" --script "$D/l.txt" "$SCHED/xz.log"
expect_status 0 "compare one program recorded twice"
check "xz's threads paired though their ids differ" \
  '([.[0].compare_panel.rows[].in] | unique) == ["both"] and
   [.[0].compare_panel.rows[].label] == [.[0].bands[].label]' "$D/l1.json"

# 5. With --requirements: the violations of A, B beside.
RES="$SRC/samples/asp/sample.res"
LOG="$SRC/samples/asp/sample.log"
head -100 "$LOG" >"$TMP/asp100.log"
view --requirements "$SRC/samples/asp/requirements.json" --no-session --size 1280x800 \
  --compare "$TMP/asp100.log" --script "$D/l.txt" "$LOG"
expect_status 0 "--compare with --requirements"
check "A's violations are markers, B is drawn" \
  '([.[0].markers[] | select(.layer == "violations")] | length) > 0 and
   (.[0].compare_panel.rows | length) > 0' "$D/l1.json"

finish
