#!/usr/bin/env bash
# test_view_range.sh — the range breakdown and the two-point measurement in
# `tlv view`, under Xvfb, driven by --script like a person: Ctrl+drag
# selects a range without zooming (its length drawn in the ruler) and opens
# the range panel: each shown row's time per value inside the range, checked
# against the shapes `tlv shapes` prints (each processor's row in per-CPU
# mode: the time each task ran there, cut to the range; each processor's
# load track: its busy time there); clicks on the
# headers sort (descending, then ascending); Ctrl+C copies the table as CSV
# and e saves it to a file; z zooms to the range; Ctrl+click twice measures
# (Δt in the ruler); Esc clears both; the session keeps the range, the
# panel's sort and its being closed. Runs on samples/fmp and, with the
# corpus, fmp_short. Asserts on dump-state and on screenshots' pixels.
# Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "Ctrl+drag selects a range" "help: range"
expect_contains "$TMP/out" "Ctrl+click twice measures" "help: measure"

. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {visible, range: (.range | if . then {t0, t1} else . end), measure, message}]'
# count PNG X0 Y0 X1 Y1 COLOR: pixels of COLOR in the rectangle.
count() { "$PROBE" "$1" count "$2" "$3" "$4" "$5" "$6"; }

# suite NAME LOG RULE-ARGS...
suite() {
  local name=$1 log=$2
  shift 2
  local D="$TMP/$name"
  mkdir -p "$D"
  "$TLV" shapes --per-cpu "$@" "$log" >"$D/shapes.jsonl" 2>/dev/null
  cat >"$D/s.txt" <<EOF
key c
dump-state $D/s0.json
drag 400 200 600 200 ctrl
dump-state $D/s1.json
screenshot $D/s1.png
key Escape
dump-state $D/s2.json
EOF
  view "$@" --no-session --size 1000x600 --script "$D/s.txt" "$log"
  expect_status 0 "$name: range run"
  check "$name: Esc clears the range and the status line's offer to zoom to it (issue 27.8)" \
    '.[0].range == null and .[0].message == ""' "$D/s2.json"
  check "$name: Ctrl+drag selects the range without zooming, and opens the panel" \
    '.[1].visible == .[0].visible and near(.[1].range.t0; at(400)) and near(.[1].range.t1; at(600)) and
     .[1].range.length == .[1].range.t1 - .[1].range.t0 and .[1].range_panel.shown and
     .[0].range == null and (.[0].range_panel.shown | not) and (.[1].message | test("^range .*z zooms"))' \
    "$D/s0.json" "$D/s1.json"
  # Each processor's row: the time each task ran on it, cut to the range,
  # from the shapes (one Rectangle per interval).
  local t0 t1 cpu
  t0=$(jq '.range.t0' "$D/s1.json")
  t1=$(jq '.range.t1' "$D/s1.json")
  for cpu in "CPU 1" "CPU 2"; do
    local row
    row=$(jq --arg c "$cpu" '[.bands[] | select(.label == $c)][0].row' "$D/s1.json")
    jq -s -c --argjson r "$row" --argjson t0 "$t0" --argjson t1 "$t1" '
      [.[] | select(.row == $r and .type == "Rectangle") |
        {res: .resource, d: (([.to, $t1] | min) - ([.from, $t0] | max))} | select(.d > 0)] |
      group_by(.res) | map({value: .[0].res, total: (map(.d) | add), count: length}) |
      sort_by(-.total, .value)' "$D/shapes.jsonl" >"$D/expect.json"
    checks=$((checks + 1))
    jq -e -s --arg c "$cpu" '(.[0].range.rows[$c] | map({value, total, count})) as $got | .[1] as $want |
      ($got | length) == ($want | length) and ($got | length) > 0 and
      ([range(0; $got | length) | ($got[.].value == $want[.].value and $got[.].count == $want[.].count and
        (($got[.].total - $want[.].total) | fabs) <= 1e-6 * $want[.].total)] | all)' \
      "$D/s1.json" "$D/expect.json" >/dev/null ||
      fail "$name: $cpu's breakdown $(jq -c --arg c "$cpu" '.range.rows[$c]' "$D/s1.json") is not $(cat "$D/expect.json")"
  done
  check "$name: each processor's load in the range: what its row ran, as tlv stats counts it" \
    '.[0].range as $r | ["CPU 1", "CPU 2"] | map(. as $c |
      ($r.rows[$c + " load"][0] | .value == "busy" and .rule == "load" and .count >= 1) and
      (($r.rows[$c + " load"][0].total - ([$r.rows[$c][].total] | add)) | fabs) <= 1e-6 * $r.length) | all and
      (($r.rows["CPU load (all)"][0].total - $r.rows["CPU 1 load"][0].total - $r.rows["CPU 2 load"][0].total) | fabs) <= 1e-6 * $r.length' \
    "$D/s1.json"
  check "$name: every row's entries: shares, means and bounds agree" \
    '.[0].range.length as $len | [.[0].range.rows[][] |
      (((.share * $len - .total) | fabs) <= 1e-6 * $len and .min <= .mean and .mean <= .max and .max <= .total + 1e-9 and .count >= 1 and
       ((.mean * .count - .total) | fabs) <= 1e-6 * .total)] | all' "$D/s1.json"
  # the range's band over the rows and its length on the ruler; the panel's header line
  local ry
  ry=$(jq '.layout.ruler_height' "$D/s1.json")
  expect_count "$name: the range's length in the ruler" "$D/s1.png" 400 0 600 "$ry" 1f8a8a 300
  expect_count "$name: no range colour outside it in the ruler" "$D/s1.png" \
    "$(jq '.layout.label_width' "$D/s1.json")" 0 395 "$ry" 1f8a8a 0 0
  local hy
  hy=$(jq '.range_panel.headers.total.y | floor' "$D/s1.json")
  expect_count "$name: the panel's column headers" "$D/s1.png" 0 "$((hy - 5))" 1000 "$((hy + 5))" e8eef0 2000

  # sorting, copying, saving, zooming, measuring, clearing
  local tx ty cx cy
  tx=$(jq '.range_panel.headers.total.x' "$D/s1.json")
  ty=$(jq '.range_panel.headers.total.y' "$D/s1.json")
  cx=$(jq '.range_panel.headers.count.x' "$D/s1.json")
  cat >"$D/t.txt" <<EOF
key c
drag 400 200 600 200 ctrl
click $tx $ty
dump-state $D/t0.json
click $tx $ty
dump-state $D/t1.json
click $cx $ty
key ctrl+c
dump-state $D/t2.json
key e
dump-state $D/t3.json
click 350 100 ctrl
click 750 100 ctrl
dump-state $D/t4.json
screenshot $D/t4.png
key z
dump-state $D/t5.json
key Escape
dump-state $D/t6.json
screenshot $D/t6.png
key b
dump-state $D/t7.json
EOF
  status=$(cd "$D" && "$TLV" view "$@" --no-session \
    --size 1000x600 --script "$D/t.txt" "$log" >"$TMP/out" 2>"$TMP/err"; echo $?)
  expect_status 0 "$name: panel run"
  check "$name: a click on Total sorts by it, largest first; again, smallest first" \
    '(.[0].range_panel | .sort == "total" and .descending and
       ([.lines[].total] as $t | $t == ($t | sort | reverse))) and
     (.[1].range_panel | .sort == "total" and (.descending | not) and
       ([.lines[].total] as $t | $t == ($t | sort)))' "$D/t0.json" "$D/t1.json"
  check "$name: Ctrl+C copies the table in the order shown as CSV" \
    '.[0].range_panel.sort == "count" and
     (.[0].range_panel.copied | split("\n")) as $l |
     $l[0] == "row,rule,value,total,percent,count,min,mean,max" and
     ($l | length) == (.[0].range_panel.lines | length) + 2 and $l[-1] == "" and
     ($l[1] | split(",")[0]) == .[0].range_panel.lines[0].row and
     (.[0].message | test("^copied the range"))' "$D/t2.json"
  checks=$((checks + 1))
  local csv
  csv=$(basename "$log")-range-1.csv
  cmp -s "$D/$csv" <(jq -j '.range_panel.copied' "$D/t2.json") ||
    fail "$name: e did not save the same CSV as $csv: $(head -3 "$D/$csv" 2>&1)"
  check "$name: Ctrl+click twice measures; z zooms to the range; Esc clears both" \
    'near(.[0].measure.t0; at(350)) and near(.[0].measure.t1; at(750)) and
     near(.[0].measure.dt; at(750) - at(350)) and (.[0].message | test("^measured")) and
     .[0].range != null and
     .[1].visible == {t0: .[1].range.t0, t1: .[1].range.t1} and
     .[2].range == null and .[2].measure == null and (.[2].range_panel.shown | not) and
     (.[3].range_panel.shown | not) and (.[3].message | test("no range"))' \
    "$D/t4.json" "$D/t5.json" "$D/t6.json" "$D/t7.json"
    local lw
  lw=$(jq '.layout.label_width' "$D/s1.json")
  expect_count "$name: Δt below the ruler" "$D/t4.png" 350 "$ry" 750 "$((ry + 40))" c0208c 300
  expect_count "$name: the measured points' lines" "$D/t4.png" 345 100 355 110 c0208c 5
  expect_count "$name: nothing of either after Esc" "$D/t6.png" "$lw" 0 1000 300 c0208c 0 0
  expect_count "$name: no range after Esc" "$D/t6.png" "$lw" 0 1000 "$ry" 1f8a8a 0 0

  # the session keeps the range, the panel's sort, and the panel closed
  local cl
  cl=$(jq -r '.range_panel.close | "\(.x) \(.y)"' "$D/s1.json")
  printf 'key c\ndrag 400 200 600 200 ctrl\nclick %s %s\ndump-state %s\n' "$tx" "$ty" "$D/u0.json" >"$D/u.txt"
  printf 'dump-state %s\nscreenshot %s\nclick %s\n' "$D/u1.json" "$D/u1.png" "$cl" >"$D/v.txt"
  printf 'dump-state %s\n' "$D/u2.json" >"$D/w.txt"
  for f in u v w; do
    view "$@" --session "$D/range.session" --size 1000x600 --script "$D/$f.txt" "$log"
    expect_status 0 "$name: range session run $f"
  done
  check "$name: the session keeps the range and the panel's sort" \
    '.[1].range.t0 == .[0].range.t0 and .[1].range.t1 == .[0].range.t1 and .[1].range_panel.shown and
     .[1].range_panel.sort == "total" and .[1].range_panel.descending and
     .[1].range.rows == .[0].range.rows' "$D/u0.json" "$D/u1.json"
  expect_count "$name: the kept range drawn in the ruler" "$D/u1.png" 400 0 600 "$ry" 1f8a8a 300
  check "$name: a closed panel stays closed, the range kept" \
    '.[0].range.t0 == .[1].range.t0 and (.[0].range_panel.shown | not)' "$D/u2.json" "$D/u1.json"
}

cp "$SRC/samples/fmp/sample.log" "$TMP/sample.log"
suite sample "$TMP/sample.log" -r "$SRC/samples/fmp/sample.res"
if have_corpus; then
  cp "$CORPUS/logs/fmp/fmp_short.log" "$TMP/"
  suite fmp_short "$TMP/fmp_short.log" -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res"
fi
# The range's length in the ruler hides none of its times (issue 27.8): a
# range centred on a tick's value puts its badge beside it; the ruler's
# text pixels are the same with the range as without.
cat >"$TMP/badge.txt" <<EOF
mouse-move 50 300
screenshot $TMP/badge0.png
drag 350 150 550 150 ctrl
mouse-move 50 300
screenshot $TMP/badge1.png
dump-state $TMP/badge1.json
EOF
view -r "$SRC/samples/fmp/sample.res" --no-session --size 1920x1080 --script "$TMP/badge.txt" \
  "$SRC/samples/fmp/sample.log"
expect_status 0 "range badge run"
check "range badge: a range selected" '.[0].range != null' "$TMP/badge1.json"
lw=$(jq .layout.label_width "$TMP/badge1.json")
rh=$(jq .layout.ruler_height "$TMP/badge1.json")
ticks=$(count "$TMP/badge0.png" "$lw" 0 1920 $((rh - 6)) 404040)
expect_count "range badge: the ruler's times all still drawn ($ticks pixels without the range)" \
  "$TMP/badge1.png" "$lw" 0 1920 $((rh - 6)) 404040 "$ticks" "$ticks"
expect_count "range badge: drawn in the ruler" "$TMP/badge1.png" "$lw" 0 1920 $((rh - 6)) 1f8a8a 200
finish
