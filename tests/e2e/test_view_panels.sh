# `tlv view` panels under Xvfb, driven by --script like a person: the
# rows/rules panel (hide a row and a rule by clicking their check boxes,
# close it with its button), collapsing a group by a click on its name and
# by the key x, the session's round trip of all of it, and the trace-log
# panel (toggle, the line under the cursor's time, wheel, double-click on a
# line and on a shape). Runs on samples/asp and, with the corpus, on
# asp_short and fmp_short (per-CPU groups). Asserts on dump-state (exact
# line indexes and ranges) and on pixels of screenshots (png_probe). Skips
# (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "r rows and rules panel" "help: r"
expect_contains "$TMP/out" "l trace-log panel" "help: l"
expect_contains "$TMP/out" "x collapse or expand" "help: x"

. "$(dirname "$0")/view_lib.sh"
JQ_DEFS="$JQ_DEFS"'
def item(n): [.rows_panel_items.items[] | select(.name == n)][0];
def labels: [.bands[] | .label // ("[" + .collapsed + "]")];'

# q FILE FILTER: one value from a state file.
q() { jq -r "$JQ_DEFS $2" "$1"; }
# count PNG X0 Y0 X1 Y1 COLOR: pixels of COLOR in the rectangle.
count() { "$PROBE" "$1" count "$2" "$3" "$4" "$5" "$6"; }
expect_ge() { checks=$((checks + 1)); [ "$2" -ge "$3" ] || fail "$1: $2, expected >= $3"; }
expect_le() { checks=$((checks + 1)); [ "$2" -le "$3" ] || fail "$1: $2, expected <= $3"; }

# suite NAME LOG RULE-ARGS...: every check on one log.
suite() {
  local name=$1 log=$2
  shift 2
  local D="$TMP/$name"
  mkdir -p "$D"
  "$TLV" shapes "$@" "$log" >"$D/shapes.jsonl" 2>/dev/null
  # every event as {t, res, text}, in the trace's order
  "$TLV" convert "$@" "$log" 2>/dev/null |
    jq -R -s -c '[split("\n")[] | select(length > 0) |
      {t: (capture("^\\[(?<t>[0-9]+)\\]").t | tonumber), res: capture("^\\[[0-9]+\\](?<r>[^.]+)").r, text: .}]' \
      >"$D/events.json"

  # ---- the panel's geometry, to know where to click --------------------------------
  printf 'key r\ndump-state %s\nwheel -100 900 200\ndump-state %s\n' "$D/g0.json" "$D/g1.json" >"$D/g.txt"
  view "$@" --no-session --size 1000x500 --script "$D/g.txt" "$log"
  expect_status 0 "$name: geometry run"
  check "$name: r opens the panel, listing rows and rules" '.[0].rows_panel and
    ([.[0].rows_panel_items.items[].kind] | index("group") and index("row") and index("rule")) and
    .[1].rows_panel_items.first > 0' "$D/g0.json" "$D/g1.json"
  local last_row rule
  last_row=$(q "$D/g0.json" '.bands | length - 1')
  rule=$(jq -r -s "[.[] | select(.row == $last_row)][0].rule" "$D/shapes.jsonl")
  local tx ty rx ry cx cy
  tx=$(q "$D/g0.json" 'item("TASK1").x')
  ty=$(q "$D/g0.json" 'item("TASK1").y')
  rx=$(q "$D/g1.json" "item(\"$rule\").x")
  ry=$(q "$D/g1.json" "item(\"$rule\").y")
  cx=$(q "$D/g0.json" '.rows_panel_items.close.x')
  cy=$(q "$D/g0.json" '.rows_panel_items.close.y')
  checks=$((checks + 1))
  [ "$ty" -lt "$(q "$D/g0.json" .layout.main_height)" ] && [ "$ry" -gt 0 ] ||
    fail "$name: panel lines out of view: TASK1 at $ty, $rule at $ry"

  # where TASK1 is running (a filled rectangle of its state), and its band
  local L W t0 S rh rt x1 y1 xl yl
  L=$(q "$D/g0.json" .layout.label_width)
  W=$(q "$D/g0.json" .layout.pixel_width)
  t0=$(q "$D/g0.json" .trace.t0)
  S=$(q "$D/g0.json" '.trace.t1 - .trace.t0')
  rh=$(q "$D/g0.json" .layout.row_height)
  rt=$(q "$D/g0.json" .layout.ruler_height)
  x1=$(jq -s -r --argjson L "$L" --argjson W "$W" --argjson t0 "$t0" --argjson S "$S" \
    '[.[] | select(.resource == "TASK1" and .type == "Rectangle" and (.rule | startswith("taskState")) and
      .fill != null and (.to - .from) * ($W - $L) / $S > 12)][0] |
     $L + ((.from + .to) / 2 - $t0) * ($W - $L) / $S | floor' "$D/shapes.jsonl")
  local task1=$(q "$D/g0.json" '[.bands[].label] | index("TASK1")')
  y1=$(jq -n "$rt + $rh * ($task1 + 0.5) | floor")
  checks=$((checks + 1))
  [ -n "$x1" ] && [ "$x1" != null ] && [ "$x1" -lt 690 ] || fail "$name: no running bar of TASK1 left of the panel ($x1)"
  # TASK1's group starts at the band of its first row; its name is in the label column
  local grp=$(q "$D/g0.json" '[.bands[] | select(.label == "TASK1")][0].group')
  local task_band=$(q "$D/g0.json" "[.bands[].group] | index(\"$grp\")")
  local grp_n=$(q "$D/g0.json" "[.bands[] | select(.group == \"$grp\")] | length")
  xl=20
  yl=$(jq -n "$rt + $rh * ($task_band + 0.5) | floor")
  local last_top=$(jq -n "$rt + $rh * $last_row + 2 | ceil")
  local main_h=$(q "$D/g0.json" .layout.main_height)

  # ---- hide and show a row and a rule, collapse a group ------------------------------
  cat >"$D/rows.txt" <<EOF
screenshot $D/a0.png
key r
click $tx $ty
mouse-leave
dump-state $D/a1.json
screenshot $D/a1.png
click $tx $ty
mouse-leave
dump-state $D/a2.json
screenshot $D/a2.png
wheel -100 900 200
click $rx $ry
mouse-leave
dump-state $D/a3.json
screenshot $D/a3.png
click $rx $ry
mouse-leave
dump-state $D/a4.json
screenshot $D/a4.png
click $cx $cy
dump-state $D/a5.json
click $xl $yl
mouse-leave
dump-state $D/a6.json
screenshot $D/a6.png
click $xl $yl
dump-state $D/a7.json
mouse-move 400 $yl
key x
dump-state $D/a8.json
key x
dump-state $D/a9.json
EOF
  view "$@" --no-session --size 1000x500 --script "$D/rows.txt" "$log"
  expect_status 0 "$name: rows script"
  check "$name: TASK1 hidden by its check box" '.[0].hidden_rows == ["TASK1"] and
    (.[0] | item("TASK1").checked == false and (labels | index("TASK1") | not)) and 
    (.[0].bands | length) == (.[1].bands | length) - 1 and (.[0].rows | length) == (.[1].rows | length)' \
    "$D/a1.json" "$D/g0.json"
  check "$name: the $grp group partly shown" ".[0] | item(\"$grp\").checked == \"partly\"" "$D/a1.json"
  check "$name: TASK1 shown again" '.[0].hidden_rows == [] and .[0].bands == .[1].bands' "$D/a2.json" "$D/g0.json"
  local c
  c=$("$PROBE" "$D/a0.png" pixel "$x1" "$y1")
  expect_ge "$name: TASK1's running bar at $x1,$y1 (#$c) before" "$(count "$D/a0.png" $((x1 - 2)) $((y1 - 2)) $((x1 + 3)) $((y1 + 3)) "$c")" 20
  expect_le "$name: TASK1's running bar gone when hidden" "$(count "$D/a1.png" $((x1 - 2)) $((y1 - 2)) $((x1 + 3)) $((y1 + 3)) "$c")" 0
  expect_ge "$name: TASK1's running bar back" "$(count "$D/a2.png" $((x1 - 2)) $((y1 - 2)) $((x1 + 3)) $((y1 + 3)) "$c")" 20
  check "$name: rule $rule hidden, rows kept" ".[0].hidden_rules == [\"$rule\"] and
    (.[0] | item(\"$rule\").checked == false) and .[0].bands == .[1].bands" "$D/a3.json" "$D/g0.json"
  check "$name: rule shown again" '.[0].hidden_rules == [] and .[0].message == "rule '"$rule"' shown"' "$D/a4.json"
  local before after again
  before=$("$PROBE" "$D/a2.png" colors $((L + 2)) "$last_top" 690 "$main_h")
  after=$("$PROBE" "$D/a3.png" colors $((L + 2)) "$last_top" 690 "$main_h")
  again=$("$PROBE" "$D/a4.png" colors $((L + 2)) "$last_top" 690 "$main_h")
  expect_ge "$name: colours of $rule's row before" "$before" 12
  expect_le "$name: colours of $rule's row with the rule hidden" "$after" 5
  checks=$((checks + 1))
  [ "$again" -eq "$before" ] || fail "$name: $rule's row shown again has $again colours, $before before"
  check "$name: the close button" '(.[0].rows_panel | not) and .[0].rows_panel_items == null' "$D/a5.json"
  check "$name: a click on the group's name collapses it" ".[0].collapsed_groups == [\"$grp\"] and
    (.[0] | labels | index(\"[$grp]\")) == $task_band and
    ([.[0].bands[] | select(.collapsed == \"$grp\")][0].rows == $grp_n) and $grp_n >= 5 and
    (.[0].bands | length) == (.[1].bands | length) - $grp_n + 1" "$D/a6.json" "$D/g0.json"
  check "$name: and expands it" '.[0].collapsed_groups == [] and .[0].bands == .[1].bands' \
    "$D/a7.json" "$D/g0.json"
  local band_y=$(q "$D/a6.json" "(.layout.ruler_height + .layout.row_height * ($task_band + 0.5)) | floor")
  expect_ge "$name: the collapsed band drawn" "$(count "$D/a6.png" 0 $((band_y - 2)) 1000 $((band_y + 3)) dce4f2)" 2000
  expect_le "$name: no collapsed band before" "$(count "$D/a0.png" 0 0 1000 "$main_h" dce4f2)" 0
  check "$name: x collapses the group under the cursor" ".[0].collapsed_groups == [\"$grp\"] and
    .[0].message == \"group $grp collapsed\" and .[1].collapsed_groups == []" "$D/a8.json" "$D/a9.json"

  # ---- the session keeps hidden rows and rules, collapsed groups, the panels ----------
  cp "$log" "$D/s.log"
  cat >"$D/s1.txt" <<EOF
click $xl $yl
key r
click $tx $ty
wheel -100 900 200
click $rx $ry
key l
dump-state $D/s1.json
EOF
  view "$@" --size 1000x500 --script "$D/s1.txt" "$D/s.log"
  expect_status 0 "$name: session, first run"
  check "$name: session file" ".[0].hidden_rows == [\"TASK1\"] and .[0].hidden_rules == [\"$rule\"] and
    .[0].collapsed_groups == [\"$grp\"] and .[0].rows_panel and .[0].log_panel" "$D/s.log.tlvsession"
  echo "dump-state $D/s2.json" >"$D/s2.txt"
  view "$@" --size 1000x500 --script "$D/s2.txt" "$D/s.log"
  expect_status 0 "$name: session, second run"
  check "$name: session round trip" '[.[] | {hidden_rows, hidden_rules, collapsed_groups, rows_panel,
    log_panel, bands, visible}] | .[0] == .[1] and .[1].log_panel' "$D/s1.json" "$D/s2.json"
  check "$name: the hidden rule stays hidden" ".[0] | item(\"$rule\").checked == false" "$D/s2.json"

  # ---- the trace-log panel ---------------------------------------------------------------
  local xm=$(((L + 690) / 2))
  cat >"$D/log.txt" <<EOF
dump-state $D/l0.json
key l
dump-state $D/l1.json
mouse-move $xm 100
dump-state $D/l2.json
screenshot $D/l2.png
EOF
  view "$@" --no-session --size 1000x600 --script "$D/log.txt" "$log"
  expect_status 0 "$name: log script"
  check "$name: the log is hidden at first" '(.[0].log.shown | not) and (.[0].log_panel | not)' "$D/l0.json"
  check "$name: l shows it, the timeline gets shorter" '.[1].log.shown and .[1].log.events == (.[2] | length) and
    .[1].log.first_line == 0 and .[1].log.lines[0] == .[2][0].text and
    .[1].layout.main_height < .[0].layout.main_height and .[1].log.y == .[1].layout.main_height and
    .[1].layout.macro_y == .[1].log.y + .[1].log.height' "$D/l0.json" "$D/l1.json" "$D/events.json"
  check "$name: hovering highlights the last event at or before the cursor" '.[0].cursor.time as $t |
    ([.[1][] | select(.t <= $t)] | length - 1) as $i | $i > 0 and .[0].log.highlighted == $i and
    .[0].log.first_line <= $i and $i < .[0].log.first_line + .[0].log.visible_lines and
    .[0].log.lines[$i - .[0].log.first_line] == .[1][$i].text and .[1][$i + 1].t > $t' \
    "$D/l2.json" "$D/events.json"
  local hy=$(q "$D/l2.json" '.log.lines_top + .log.line_height * (.log.highlighted - .log.first_line) + 2')
  expect_ge "$name: the highlighted line drawn" "$(count "$D/l2.png" $((L + 2)) "$hy" 1000 $((hy + 6)) ffe2a8)" 500

  # a line double-clicked: the timeline centres on its event
  local ly=$(q "$D/l1.json" '.log.lines_top + .log.line_height * 2.5 | floor')
  local lx=$((L + 100))
  # a shape of TASK1 under the cursor, then double-clicked
  cat >"$D/log2.txt" <<EOF
key l
wheel -2 $lx $ly
dump-state $D/l3.json
dclick $lx $ly
dump-state $D/l4.json
key f
mouse-move $x1 $(jq -n "$(q "$D/l1.json" .layout.ruler_height) + $(q "$D/l1.json" .layout.row_height) * ($task1 + 0.5) | floor")
dump-state $D/l5.json
dclick $x1 $(jq -n "$(q "$D/l1.json" .layout.ruler_height) + $(q "$D/l1.json" .layout.row_height) * ($task1 + 0.5) | floor")
dump-state $D/l6.json
key l
dump-state $D/l7.json
EOF
  view "$@" --no-session --size 1000x600 --script "$D/log2.txt" "$log"
  expect_status 0 "$name: log script 2"
  check "$name: the wheel scrolls the log" '.[0].log.first_line == 6 and .[0].log.lines[0] == .[1][6].text' \
    "$D/l3.json" "$D/events.json"
  check "$name: a double-clicked line centres the timeline on its event" '.[1][8].t as $t |
    .[0].log.highlighted == 8 and centred(.[0].visible; $t) and
    near(span(.[0].visible); .[0].trace.t1 - .[0].trace.t0)' "$D/l4.json" "$D/events.json"
  check "$name: a shape under the cursor" '.[0].tooltip.resource == "TASK1"' "$D/l5.json"
  check "$name: a double-clicked shape scrolls the log to its event" '.[0].tooltip as $s |
    ([.[2] | to_entries[] | select(.value.t == $s.from and .value.res == $s.resource)][0].key) as $i |
    $i != null and .[1].log.highlighted == $i and .[1].log.first_line <= $i and
    $i < .[1].log.first_line + .[1].log.visible_lines and
    .[1].log.lines[$i - .[1].log.first_line] == .[2][$i].text' "$D/l5.json" "$D/l6.json" "$D/events.json"
  check "$name: l hides the log again" '(.[0].log.shown | not) and .[0].layout.main_height > .[1].layout.main_height' \
    "$D/l7.json" "$D/l6.json"
}

cp "$SRC/samples/asp/sample.log" "$TMP/sample.log"
suite sample "$TMP/sample.log" -r "$SRC/samples/asp/sample.res"

# The tooltip of a shape just left of the open rows panel goes on the
# pointer's other side: it never hides the panel (issue 27.8).
cat >"$TMP/tip.txt" <<EOF
key r
mouse-move 640 120
dump-state $TMP/tip.json
screenshot $TMP/tip.png
EOF
view -r "$SRC/samples/fmp/sample.res" --no-session --size 1000x600 --script "$TMP/tip.txt" \
  "$SRC/samples/fmp/sample.log"
expect_status 0 "tooltip beside the rows panel"
check "tooltip beside the rows panel: a shape hovered, the panel open" \
  '.[0].tooltip.resource == "TASK1_1" and (.[0].rows_panel_items | length) > 0' "$TMP/tip.json"
expect_count "tooltip beside the rows panel: none of it over the panel" "$TMP/tip.png" 701 0 1000 500 ffffe8 0 0
expect_count "tooltip beside the rows panel: drawn left of the pointer" "$TMP/tip.png" 400 100 640 260 ffffe8 2000

if have_corpus; then
  cp "$CORPUS/logs/asp/asp_short.log" "$CORPUS/logs/fmp/fmp_short.log" "$TMP/"
  suite asp_short "$TMP/asp_short.log" -R "$CORPUS/rules" -r "$CORPUS/logs/asp/asp_short.res"
  # per-CPU rows: a processor's row and its resources make a group (u: no
  # CPU load tracks above them, so that CPU 1's name is the first band's)
  cat >"$TMP/fmp.txt" <<EOF
key c
key u
dump-state $TMP/fmp0.json
click 20 40
dump-state $TMP/fmp1.json
click 20 40
dump-state $TMP/fmp2.json
EOF
  view -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res" --no-session --size 1000x600 \
    --script "$TMP/fmp.txt" "$TMP/fmp_short.log"
  expect_status 0 "fmp_short per-CPU groups"
  check "fmp_short: CPU 1 collapses" '.[0].per_cpu and .[0].bands[0].group == "CPU 1" and
    .[1].collapsed_groups == ["CPU 1"] and .[1].bands[0].collapsed == "CPU 1" and
    .[1].bands[0].rows == ([.[0].bands[] | select(.group == "CPU 1")] | length) and
    .[1].bands[1].group != "CPU 1" and .[2].bands == .[0].bands' \
    "$TMP/fmp0.json" "$TMP/fmp1.json" "$TMP/fmp2.json"
fi
finish
