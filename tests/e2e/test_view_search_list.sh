#!/usr/bin/env bash
# test_view_search_list.sh — the search's results list and the trace-log
# panel following jumps in `tlv view`, under Xvfb, driven by --script like a
# person: / opens the list (each match's exact time, row and event, the
# current one highlighted), n/N keep working and move its highlight, a click
# on a line goes there, the list is capped with the total count, its x
# button and Esc close it; the log panel highlights the line of every jump
# (a search's match, n, a click in the list, g, a marker jump). Runs on
# samples/fmp and, with the corpus, fmp_short. Asserts on dump-state and on
# screenshots' pixels. Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {visible, search, log: (.log | {highlighted, first_line}), results: (.search_results | del(.lines))}]'

# suite NAME LOG QUERY RULE-ARGS...
suite() {
  local name=$1 log=$2 query=$3
  shift 3
  local D="$TMP/$name"
  mkdir -p "$D"
  # every event's text as the search sees it (RES.name=value), in the trace's order
  "$TLV" convert "$@" "$log" 2>/dev/null | sed 's/^\[[^]]*\]//' >"$D/events.txt"
  local want
  want=$(grep -ciF -- "$query" "$D/events.txt")
  cat >"$D/s.txt" <<EOF
key l
key /
text $query
key Return
dump-state $D/s0.json
screenshot $D/s0.png
key n
key n
dump-state $D/s1.json
EOF
  view "$@" --no-session --size 1000x700 --script "$D/s.txt" "$log"
  expect_status 0 "$name: search run"
  check "$name: / lists every match, the first highlighted, and the log shows its line" \
    ".[0].search_results.shown and .[0].search_results.count == $want and
     .[0].search.count == $want and .[0].search.index == 1 and
     .[0].search_results.lines[0].index == 1 and
     .[0].log.highlighted == .[0].search_results.lines[0].event and
     (.[0].search_results.lines[0].text | ascii_downcase | contains(\"$query\" | ascii_downcase))" \
    "$D/s0.json"
  check "$name: n twice: the third match, in the list and in the log" \
    '.[0].search.index == 3 and .[0].log.highlighted == .[0].search_results.lines[2].event' \
    "$D/s1.json"
  # the log opened after the jump shows the match's line too
  printf 'key /\ntext %s\nkey Return\nkey n\nkey l\ndump-state %s\n' "$query" "$D/s2.json" >"$D/s2.txt"
  view "$@" --no-session --size 1000x700 --script "$D/s2.txt" "$log"
  expect_status 0 "$name: log opened after the search"
  check "$name: the log opened after a jump shows its line" \
    '.[0].log.shown and .[0].log.highlighted == .[0].search_results.lines[1].event' "$D/s2.json"
  # the lines' texts are the events' own, in the trace's order
  checks=$((checks + 1))
  local ev text
  ev=$(jq '.search_results.lines[1].event' "$D/s0.json")
  text=$(jq -r '.search_results.lines[1].text' "$D/s0.json")
  [ "$(sed -n "$((ev + 1))p" "$D/events.txt" | sed 's/\\//g')" = "$text" ] ||
    fail "$name: line 2 of the list '$text' is not event $ev '$(sed -n "$((ev + 1))p" "$D/events.txt")'"
  local ly
  ly=$(jq '.search_results.lines[1].y | floor' "$D/s0.json")
  expect_count "$name: the current match highlighted in the list" "$D/s0.png" 0 "$((ly - 20))" 1000 "$((ly - 12))" fbd3ea 3000
  expect_count "$name: the log's highlighted line" "$D/s0.png" 191 0 1000 700 ffe2a8 3000

  local y4 cx cy t0
  y4=$(jq '.search_results.lines[4].y' "$D/s0.json")
  cx=$(jq '.search_results.close.x' "$D/s0.json")
  cy=$(jq '.search_results.close.y' "$D/s0.json")
  t0=$(jq '(.trace.t0 * 0.7 + .trace.t1 * 0.3) | floor' "$D/s0.json")
  cat >"$D/t.txt" <<EOF
key l
key Up
key Up
key Up
key /
text $query
key Return
click 500 $y4
dump-state $D/t0.json
key g
text $t0 $((t0 + 1000))
key Return
dump-state $D/t1.json
click $cx $cy
dump-state $D/t3.json
key f
mouse-move 700 100
key m
key f
mouse-leave
key Up
key Up
key Up
key Escape
key ]
dump-state $D/t2.json
key /
text .
key Return
dump-state $D/t4.json
key Escape
dump-state $D/t5.json
EOF
  view "$@" --no-session --size 1000x700 --script "$D/t.txt" "$log"
  expect_status 0 "$name: list run"
  check "$name: a click on the list's 5th line goes to that match; the log follows" \
    '.[0].search.index == .[0].search_results.lines[4].index and
     .[0].log.highlighted == .[0].search_results.lines[4].event and
     .[0].search.time > .[0].visible.t0 and .[0].search.time < .[0].visible.t1' "$D/t0.json"
  # the last event at or before a time, from the converted trace
  local at_g mt at_m
  at_g=$(jq -r '.trace.t0' "$D/t1.json" >/dev/null; "$TLV" convert "$@" "$log" 2>/dev/null |
    sed -n 's/^\[\([0-9]*\)\].*/\1/p' | awk -v t="$t0" '$1 <= t { n = NR } END { print n - 1 }')
  check "$name: g: the log shows the line at the range's start" \
    ".[0].log.highlighted == $at_g and .[0].visible.t0 == $t0" "$D/t1.json"
  mt=$(jq '.markers[0].time' "$D/t2.json")
  at_m=$("$TLV" convert "$@" "$log" 2>/dev/null | sed -n 's/^\[\([0-9]*\)\].*/\1/p' |
    awk -v t="$mt" '$1 <= t { n = NR } END { print n - 1 }')
  check "$name: a marker jump: the log shows the line at the marker" \
    ".[0].log.highlighted == $at_m and near(mid(.[0].visible); .[0].markers[0].time)" "$D/t2.json"
  check "$name: the x button closes the list; a new search opens it, capped; Esc closes it" \
    '(.[0].search_results.shown | not) and .[0].search.query != null and
     .[1].search_results.shown and .[1].search_results.count == .[1].search.count and
     .[1].search_results.listed == ([.[1].search.count, 1000] | min) and
     (.[2].search_results.shown | not)' "$D/t3.json" "$D/t4.json" "$D/t5.json"
}

cp "$SRC/samples/fmp/sample.log" "$TMP/sample.log"
suite sample "$TMP/sample.log" task1_2 -r "$SRC/samples/fmp/sample.res"
check "sample: '.' matches more than the cap: 1000 listed of all" \
  '.[0].search_results.count == 1273 and .[0].search_results.listed == 1000' "$TMP/sample/t4.json"
if have_corpus; then
  cp "$CORPUS/logs/fmp/fmp_short.log" "$TMP/"
  suite fmp_short "$TMP/fmp_short.log" TASK2_1 -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res"
fi
finish
