# test_view_rows_reach.sh — reaching the row a gesture means (issue 11),
# driven like a person under Xvfb:
#   - `click-row` on a row scrolled out of sight scrolls it into view first,
#     as a person would, then clicks it; no such row, a hidden row and a time
#     outside the view are script errors that say so;
#   - in per-CPU mode a task that migrated (samples/fmp: TASK1_2 moves from
#     CPU 1 to CPU 2 at 1686219 us) has a row under each processor: a search
#     match, a jump (a details-panel link, the search) and click-row go to
#     the row of the processor it was on at that time, and the search outlines
#     that row; its check box in the rows panel hides all its rows;
#   - counter tracks are named like their resource's row ("heap[4092]
#     inuse", not "P4092 inuse") in the dump, the rows panel and the header.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"

FMP="$SRC/samples/fmp"
cp "$FMP/sample.log" "$TMP/sample.log"
S="$TMP/r"
JQ_DEFS="$JQ_DEFS
def band(l): [.bands[] | .label] | index(l);
def band(l; g): [.bands[] | [.label, .group]] | index([[l, g]]);
def fits: (.layout.main_height - .layout.ruler_height) / .layout.row_height | floor;
def docked_top: .details_panel.shown and .details_panel.y == .layout.ruler_height;
def top: if docked_top then .details_panel.y + .details_panel.height else .layout.ruler_height end;
def bottom: if .details_panel.shown and (docked_top | not) then .details_panel.y
  else .layout.main_height end;
def in_sight(p): .layout.ruler_height + (p - .first_row) * .layout.row_height >= top and
  .layout.ruler_height + (p - .first_row + 1) * .layout.row_height <= bottom;"

# click-row: ALMHDR2 is below the rows a 700x350 window shows
cat >"$TMP/a.txt" <<END
dump-state $S-0.json
click-row 1700000 ALMHDR2
dump-state $S-1.json
screenshot $S-1.png
END
view -r "$FMP/sample.res" --no-session --size 700x350 --script "$TMP/a.txt" "$TMP/sample.log"
expect_status 0 "click-row script"
check "ALMHDR2 out of sight at first" '.[0] | band("ALMHDR2") >= .first_row + fits' "$S-0.json"
check "click-row scrolled it into sight, then selected its shape" '.[1].details.resource == "ALMHDR2" and
  .[1].details.start <= 1700000 and .[1].details.end >= 1700000 and .[1].first_row > 0 and
  (.[0] | fits) as $f | (.[1] | band("ALMHDR2") as $p | $p >= .first_row and $p < .first_row + $f)' \
  "$S-0.json" "$S-1.json"

# what click-row cannot do, it says (the script stops with status 2)
printf 'click-row 1700000 NO_SUCH_ROW\n' >"$TMP/b.txt"
view -r "$FMP/sample.res" --no-session --size 700x350 --script "$TMP/b.txt" "$TMP/sample.log"
expect_status 2 "click-row: no such row"
expect_line "$TMP/err" "$TMP/b.txt:1: click-row: no row is named 'NO_SUCH_ROW'" "click-row: no such row"
printf 'move-row 99999999 TASK1_1\n' >"$TMP/b.txt"
view -r "$FMP/sample.res" --no-session --size 700x350 --script "$TMP/b.txt" "$TMP/sample.log"
expect_status 2 "move-row: a time outside the view"
expect_contains "$TMP/err" "$TMP/b.txt:1: move-row: time 99999999 is outside the view (" \
  "move-row: a time outside the view"

# per-CPU: TASK1_2's rows under CPU 1 and CPU 2; its check box hides both
cat >"$TMP/c.txt" <<END
key c
key r
dump-state $S-2.json
END
view -r "$FMP/sample.res" --no-session --size 900x700 --script "$TMP/c.txt" "$TMP/sample.log"
expect_status 0 "per-CPU rows panel script"
check "a row for TASK1_2 under each processor, each with its check box" \
  '[.[0].bands[] | select(.label == "TASK1_2") | .group] == ["CPU 1", "CPU 2"] and
   ([.[0].rows_panel_items.items[] | select(.kind == "row" and .name == "TASK1_2")] | length) == 2' \
  "$S-2.json"
bx=$(jq '[.rows_panel_items.items[] | select(.kind == "row" and .name == "TASK1_2")][1].x' "$S-2.json")
by=$(jq '[.rows_panel_items.items[] | select(.kind == "row" and .name == "TASK1_2")][1].y' "$S-2.json")
cat >"$TMP/d.txt" <<END
key c
key r
click $bx $by
dump-state $S-3.json
key r
click-row 1860000 TASK1_2
END
view -r "$FMP/sample.res" --no-session --size 900x700 --script "$TMP/d.txt" "$TMP/sample.log"
expect_status 2 "hidden row script"
check "the check box of its CPU 2 row hides both rows" '.[0].hidden_rows == ["TASK1_2"] and
  ([.[0].bands[] | select(.label == "TASK1_2")] == []) and
  ([.[0].rows_panel_items.items[] | select(.name == "TASK1_2") | .checked] == [false, false])' "$S-3.json"
expect_line "$TMP/err" "$TMP/d.txt:6: click-row: row 'TASK1_2' is hidden or in a collapsed group" \
  "click-row: a hidden row"

# per-CPU search: the one match (1856326 us, after the migration) is on the
# CPU 2 row, scrolled into sight and outlined there
cat >"$TMP/e.txt" <<END
key c
key /
text leaveSVC(mig_tsk
key Return
dump-state $S-4.json
screenshot $S-4.png
END
view -r "$FMP/sample.res" --no-session --size 900x420 --script "$TMP/e.txt" "$TMP/sample.log"
expect_status 0 "per-CPU search script"
check "the match is on TASK1_2's CPU 2 row, in sight" '.[0] | band("TASK1_2"; "CPU 2") as $p |
  .search.count == 1 and .search.row == .bands[$p].row and in_sight($p) and
  .search.row != .bands[band("TASK1_2"; "CPU 1")].row' "$S-4.json"
# the outline (magenta) on that band, not on the CPU 1 row's
oy=$(jq '.bands as $b | ([$b[] | [.label, .group]] | index([["TASK1_2", "CPU 2"]])) as $p |
  .layout.ruler_height + ($p - .first_row) * .layout.row_height | floor' "$S-4.json")
expect_count "the CPU 2 row outlined" "$S-4.png" 200 "$oy" 900 "$((oy + 2))" e4007c 500
cy=$(jq '.bands as $b | ([$b[] | [.label, .group]] | index([["TASK1_2", "CPU 1"]])) as $p |
  .layout.ruler_height + ($p - .first_row) * .layout.row_height | floor' "$S-4.json")
if [ "$cy" -ge 24 ]; then
  expect_count "not the CPU 1 row" "$S-4.png" 200 "$cy" 900 "$((cy + 2))" e4007c 0 20
fi

# per-CPU jump: a details-panel link to the event that opened a box on
# TASK1_2's CPU 2 row brings that row back into sight after scrolling away
# (the link's place read after scrolling: the panel docks under the ruler
# while the selected row is in sight at the bottom)
cat >"$TMP/f.txt" <<END
key c
click-row 1860000 TASK1_2
key PageDown
key PageDown
dump-state $S-5.json
END
view -r "$FMP/sample.res" --no-session --size 900x500 --script "$TMP/f.txt" "$TMP/sample.log"
expect_status 0 "per-CPU details script"
check "click-row picked the row TASK1_2 was on at that time (CPU 2)" '.[0] |
  .details.resource == "TASK1_2" and .details.row == .bands[band("TASK1_2"; "CPU 2")].row and
  .details.opened_by.event > 0' "$S-5.json"
lx=$(jq '.details_panel.links[0] | .x + .w / 2 | floor' "$S-5.json")
ly=$(jq '.details_panel.links[0] | .y + .h / 2 | floor' "$S-5.json")
cat >"$TMP/g.txt" <<END
key c
click-row 1860000 TASK1_2
key PageDown
key PageDown
dump-state $S-6.json
click $lx $ly
dump-state $S-7.json
screenshot $S-7.png
END
view -r "$FMP/sample.res" --no-session --size 900x500 --script "$TMP/g.txt" "$TMP/sample.log"
expect_status 0 "per-CPU jump script"
check "scrolled away, then the link brings the CPU 2 row back into sight" \
  '(.[0] | in_sight(band("TASK1_2"; "CPU 2")) | not) and
   (.[1] | in_sight(band("TASK1_2"; "CPU 2"))) and centred(.[1].visible; .[0].details.start)' \
  "$S-6.json" "$S-7.json"

# counter tracks named like their rows
cp "$SRC/samples/linux/heap/heap.log" "$TMP/heap.log"
cat >"$TMP/h.txt" <<END
key r
dump-state $S-8.json
screenshot $S-8.png
END
view -r linux_heap.res --no-session --size 1100x700 --script "$TMP/h.txt" "$TMP/heap.log"
expect_status 0 "counter names script"
check "heap[4092], as its row is labelled; the key stays the resource's" \
  '[.[0].tracks[] | [.name, .key]] == [["heap[4092] inuse", "P4092 inuse"], ["heap[4092] blocks", "P4092 blocks"]] and
   [.[0].bands[0:2][] | .track] == ["heap[4092] inuse", "heap[4092] blocks"] and
   ([.[0].bands[] | select(.label == "heap[4092]")] | length) == 1 and
   ([.[0].rows_panel_items.items[] | select(.kind == "track")][0] |
     .name == "P4092 inuse" and .label == "heap[4092] inuse")' "$S-8.json"
finish
