# test_view_details.sh — selecting a shape and its details panel, the
# hover's value, and flows drawn as arrows (issue 11 items 1 and 4), driven
# like a person under Xvfb on samples/fmp in per-CPU mode: a click on a
# task's running box shows its state, times, opening and closing events and
# who activated it; `.` and `,` step along the row; a click on the opening
# event centres the timeline and the trace-log panel on it; a click on empty
# space clears; the selection survives the session; `o` hides the arrows;
# the panel moves under the ruler rather than hide the selected row.
# With the corpus: FMP migrations drawn between the processors' rows.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"

FMP="$SRC/samples/fmp"
cp "$FMP/sample.log" "$TMP/sample.log"
S="$TMP/s"
cat >"$TMP/d.txt" <<END
key c
dump-state $S-0.json
move-row 1500000 TASK1_1
dump-state $S-1.json
click-row 1500000 TASK1_1
dump-state $S-2.json
screenshot $S-2.png
key .
dump-state $S-3.json
key ,
dump-state $S-4.json
key l
dump-state $S-5.json
END
view -r "$FMP/sample.res" --no-session --size 1100x700 --script "$TMP/d.txt" "$TMP/sample.log"
expect_status 0 "details script"
check "nothing selected at first; flows drawn" '.[0].details == null and .[0].flows_drawn > 0 and
  .[0].flows_total == 27' "$S-0.json"
check "the tooltip names the state" '.[0].tooltip.resource == "TASK1_1" and .[0].tooltip.value == "RUNNING"' \
  "$S-1.json"
# The log's own lines beside the events they became (issue 27.8): line 59, and
# the line the closing event came from, as the file has them.
line59=$(sed -n 59p "$TMP/sample.log")
closed=$(jq '.details.closed_by.line' "$S-2.json")
line_closed=$(sed -n "${closed}p" "$TMP/sample.log")
JQ_DEFS="$JQ_DEFS def line59: $(jq -Rn --arg l "$line59" '$l'); def line_closed: $(jq -Rn --arg l "$line_closed" '$l');"
check "a click on the running box selects it" '.[0].details as $d | $d.resource == "TASK1_1" and
  $d.rule == "taskState" and $d.event == "state" and $d.value == "RUNNING" and
  $d.start == 1476604 and $d.end == 1567874 and $d.duration == 91270 and
  $d.duration_text == "91.27 ms" and
  $d.opened_by.text == "[1476604]TASK1_1.state=RUNNING" and $d.opened_by.line == 59 and
  $d.opened_by.log_text == line59 and $d.closed_by.log_text == line_closed and
  ($d.closed_by.text | startswith("[1567874]TASK1_1.state=")) and
  $d.flows_in[0] == {"resource": "MAIN_TASK_PRC1", "time": 1468701, "name": "activated by", "before": true} and
  .[0].details_panel.shown' "$S-2.json"
expect_count "the selection is outlined" "$S-2.png" 0 0 1100 400 ff7a00 40
expect_count "the details panel" "$S-2.png" 0 300 1100 560 fafafa 20000
check ". selects the next interval of the row, , the one before" '.[0].details.start == 1567874 and
  .[0].details.value != "RUNNING" and .[1].details.start == 1476604' "$S-3.json" "$S-4.json"

# a click on the opening event's line centres the timeline and the log on
# it; with the panel hidden (i), a click on an empty row clears the selection
# (u: without the CPU load tracks, that row is in sight)
lx=$(jq '.details_panel.links[0] | .x + 20' "$S-5.json")
ly=$(jq '.details_panel.links[0] | .y + .h / 2 | floor' "$S-5.json")
cat >"$TMP/e.txt" <<END
key c
click-row 1500000 TASK1_1
key l
key Up
key Up
key Up
wait 1
click $lx $ly
dump-state $S-6.json
key l
key i
key u
click-row 1500000 Interrupt lines disabled
dump-state $S-7.json
click-row 1500000 TASK1_1
key o
dump-state $S-8.json
quit
END
view -r "$FMP/sample.res" --size 1100x700 --script "$TMP/e.txt" "$TMP/sample.log"
expect_status 0 "details links script"
check "the opening event: timeline centred, log line highlighted" '.[0].details.opened_by.event as $e |
  near(mid(.[0].visible); 1476604) and .[0].log.highlighted == $e' "$S-6.json"
check "a click on empty space clears the selection" '.[0].details == null' "$S-7.json"
check "o hides the arrows" '.[0].flows_drawn == 0 and .[0].details.start == 1476604' "$S-8.json"

# the session keeps the selection and the arrows' switch
echo "dump-state $S-9.json" >"$TMP/f.txt"
view -r "$FMP/sample.res" --size 1100x700 --script "$TMP/f.txt" "$TMP/sample.log"
expect_status 0 "session script"
check "the session brings the selection back" '.[0].details.resource == "TASK1_1" and
  .[0].details.start == 1476604 and .[0].flows_drawn == 0' "$S-9.json"

# the panel never hides the selection (issue 11): a click on the last row,
# at the bottom of the timeline where the panel docks, puts the panel under
# the ruler; a click on a row near the top puts it back at the bottom; in a
# small window (rows scroll) and a large one (all rows in sight)
for size in 700x450 1920x1080; do
  cat >"$TMP/h.txt" <<END
key c
click-row 1500000 Processor 2: running task
dump-state $S-h1-$size.json
screenshot $S-h1-$size.png
click-row 1500000 TASK1_1
dump-state $S-h2-$size.json
END
  view -r "$FMP/sample.res" --no-session --size "$size" --script "$TMP/h.txt" "$TMP/sample.log"
  expect_status 0 "selection at the bottom, $size"
  apart='.[0].details_panel as $p | $p.selection_band as $b | $p.shown and $b != null and
    ($p.y + $p.height <= $b.y or $b.y + $b.height <= $p.y)'
  check "$size: the last row selected, the panel is not over it" "$apart and
    .[0].details.row_label == \"Processor 2: running task\" and
    .[0].details_panel.y == .[0].layout.ruler_height and
    .[0].details_panel.selection_band.y > .[0].layout.main_height / 2" "$S-h1-$size.json"
  check "$size: a row near the top selected, the panel is back at the bottom" "$apart and
    .[0].details.row_label == \"TASK1_1\" and
    .[0].details_panel.y + .[0].details_panel.height == .[0].layout.main_height" "$S-h2-$size.json"
  by=$(jq '.details_panel.selection_band.y' "$S-h1-$size.json")
  bh=$(jq '.details_panel.selection_band.height' "$S-h1-$size.json")
  w=${size%x*}
  expect_count "$size: the selection's outline in sight" "$S-h1-$size.png" 0 "$by" "$w" $((by + bh)) ff7a00 40
  expect_count "$size: the panel under the ruler" "$S-h1-$size.png" 0 24 "$w" 174 fafafa 20000
done

if have_corpus; then
  retarget_res "$CORPUS/logs/fmp/fmp_short.res" >"$TMP/fmp.res"
  cp "$CORPUS/logs/fmp/fmp_short.log" "$TMP/fmp_short.log"
  cat >"$TMP/g.txt" <<END
key c
dump-state $S-10.json
screenshot $S-10.png
click-row 13100000 TASK1_1
dump-state $S-11.json
END
  view -r "$TMP/fmp.res" --no-session --size 1400x800 --script "$TMP/g.txt" "$TMP/fmp_short.log"
  expect_status 0 "corpus fmp script"
  check "fmp_short: flows drawn, migrations among them" '.[0].flows_drawn > 10 and .[0].flows_total > 100' \
    "$S-10.json"
  expect_count "fmp_short: migration arrows" "$S-10.png" 0 0 1400 700 d2691e 20
  check "fmp_short: TASK1_1 after its migration" '.[0].details.resource == "TASK1_1" and
    (.[0].details.flows_in | length) > 0' "$S-11.json"
fi
finish
