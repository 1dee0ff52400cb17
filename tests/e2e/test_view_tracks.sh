# test_view_tracks.sh — tracks (issue 11 item 3) driven like a person under
# Xvfb: on samples/fmp in per-CPU mode, CPU-load tracks for the whole system
# and each processor above the rows, whose busy share is what `tlv stats`
# computes; the busy share under the pointer in a tooltip; u turns them off
# and on; they are for per-CPU mode; the rows panel hides a track and moves
# one up, ▼ moves a track or a row down, a numeric attribute becomes a
# counter track when checked; the session keeps that. Counter tracks on the linux_heap recording
# (samples/linux/heap). With the corpus: load tracks on the FMP log. Load
# tracks are shown from the start in per-CPU mode (u hides them).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"

FMP="$SRC/samples/fmp"
cp "$FMP/sample.log" "$TMP/sample.log"
S="$TMP/t"
"$TLV" stats --json -r "$FMP/sample.res" "$TMP/sample.log" >"$TMP/stats.json" 2>/dev/null
cat >"$TMP/a.txt" <<END
key c
dump-state $S-0.json
END
view -r "$FMP/sample.res" --no-session --size 1100x700 --script "$TMP/a.txt" "$TMP/sample.log"
expect_status 0 "tracks script (layout)"
# the pointer over the CPU 1 load track (the second band) in the middle
ty=$(jq '.layout.ruler_height + .layout.row_height * 1.5 | floor' "$S-0.json")
cat >"$TMP/b.txt" <<END
key c
mouse-move 640 $ty
dump-state $S-1.json
screenshot $S-1.png
key u
dump-state $S-2.json
key u
key c
dump-state $S-3.json
key c
key r
dump-state $S-4.json
END
view -r "$FMP/sample.res" --no-session --size 1100x700 --script "$TMP/b.txt" "$TMP/sample.log"
expect_status 0 "tracks script"
check "per-CPU: the load tracks above the rows" '[.[0].tracks[] | .name] ==
  ["CPU load (all)", "CPU 1 load", "CPU 2 load"] and ([.[0].tracks[] | .kind] | unique) == ["load"] and
  [.[0].bands[0:3][] | .track] == ["CPU load (all)", "CPU 1 load", "CPU 2 load"] and
  .[0].bands[3].label == "CPU 1"' "$S-1.json"
check "their busy shares are tlv stats' utilization" '.[1].cpu.processors as $p |
  (.[0].tracks[1].busy_share - $p[0].utilization | fabs) < 1e-9 and
  (.[0].tracks[2].busy_share - $p[1].utilization | fabs) < 1e-9 and
  (.[0].tracks[0].busy_share - ($p[0].utilization + $p[1].utilization) / 2 | fabs) < 1e-9' \
  "$S-1.json" "$TMP/stats.json"
check "the busy share under the pointer" '.[0].track_hover.name == "CPU 1 load" and
  .[0].track_hover.value >= 0 and .[0].track_hover.value <= 1' "$S-1.json"
expect_count "load drawn in green" "$S-1.png" 200 20 1100 90 3c8c3c 2000
check "u turns them off again; not outside per-CPU mode" '.[0].tracks == [] and .[1].tracks == [] and
  .[1].per_cpu == false' "$S-2.json" "$S-3.json"

# the rows panel: hide "CPU load (all)", move "CPU 2 load" above "CPU 1 load"
hx=$(jq '.rows_panel_items.items[] | select(.kind == "track" and .name == "CPU load (all)") | .x' "$S-4.json")
hy=$(jq '.rows_panel_items.items[] | select(.kind == "track" and .name == "CPU load (all)") | .y' "$S-4.json")
ux=$(jq '.rows_panel_items.items[] | select(.kind == "track" and .name == "CPU 2 load") | .up_x' "$S-4.json")
uy=$(jq '.rows_panel_items.items[] | select(.kind == "track" and .name == "CPU 2 load") | .y' "$S-4.json")
cat >"$TMP/c.txt" <<END
key c
key r
click $hx $hy
click $ux $uy
dump-state $S-5.json
quit
END
view -r "$FMP/sample.res" --session "$TMP/tracks.session" --size 1100x700 --script "$TMP/c.txt" \
  "$TMP/sample.log"
expect_status 0 "tracks panel script"
check "hidden and moved in the rows panel" '[.[0].tracks[] | .name] == ["CPU 2 load", "CPU 1 load"] and
  .[0].tracks_all[0:3] == ["CPU load (all)", "CPU 2 load", "CPU 1 load"]' "$S-5.json"
echo "dump-state $S-6.json" >"$TMP/d.txt"
view -r "$FMP/sample.res" --session "$TMP/tracks.session" --size 1100x700 --script "$TMP/d.txt" \
  "$TMP/sample.log"
expect_status 0 "tracks session script"
check "the session keeps them" '[.[0].tracks[] | .name] == ["CPU 2 load", "CPU 1 load"]' "$S-6.json"

# ▼ moves a track and a row down; a numeric attribute the rules do not
# declare a counter (TASK1_2's prcId: it migrates) is offered unchecked and
# shows as a counter track when checked; the session keeps all of it.
item() { jq -r --arg k "$2" --arg n "$3" ".rows_panel_items.items[] | select(.kind == \$k and .name == \$n) | $4" "$1"; }
S4="$S-4.json"
check "the panel offers TASK1_2's prcId, unchecked; the first track has no ▲, the last row of a group no ▼" \
  '(.[0].rows_panel_items.items[] | select(.name == "TASK1_2 prcId") | .offered and (.checked | not)) and
   (.[0].rows_panel_items.items[] | select(.kind == "track" and .name == "CPU load (all)") | .up_x == null and .down_x > 0) and
   (.[0].rows_panel_items.items[] | select(.kind == "row" and .name == "MAIN_TASK_PRC1") | .down_x == null and .up_x > 0) and
   ([.[0].tracks[] | select(.offered)] == [])' "$S4"
cat >"$TMP/m.txt" <<END
key c
key r
click $(item "$S4" track "CPU load (all)" .down_x) $(item "$S4" track "CPU load (all)" .y)
click $(item "$S4" row TASK1_1 .down_x) $(item "$S4" row TASK1_1 .y)
click $(item "$S4" track "TASK1_2 prcId" .x) $(item "$S4" track "TASK1_2 prcId" .y)
dump-state $S-10.json
screenshot $S-10.png
END
view -r "$FMP/sample.res" --session "$TMP/moves.session" --size 1100x700 --script "$TMP/m.txt" \
  "$TMP/sample.log"
expect_status 0 "moves script"
check "▼ moves a track and a row down; the checked numeric attribute is a counter track" \
  '[.[0].tracks[] | .name] == ["CPU 1 load", "CPU load (all)", "CPU 2 load", "TASK1_2 prcId"] and
   (.[0].tracks[3] | .kind == "counter" and .offered and .min == 1 and .max == 2) and
   ([.[0].bands[] | .label // .track] | index("TASK1_2") < index("TASK1_1")) and
   ([.[0].bands[] | .label // .track] | index("TASK1_1") < index("MAIN_TASK_PRC1")) and
   ([.[0].bands[] | .group][4:9] | unique) == ["CPU 1"]' "$S-10.json"
# the counter's band (the fourth) is drawn in the counter colour
oy=$(jq '.layout.ruler_height + .layout.row_height * 3 | floor' "$S-10.json")
expect_count "the offered counter drawn" "$S-10.png" 200 "$oy" 800 "$((oy + 20))" 2f6db5 50
echo "dump-state $S-11.json" >"$TMP/n.txt"
view -r "$FMP/sample.res" --session "$TMP/moves.session" --size 1100x700 --script "$TMP/n.txt" \
  "$TMP/sample.log"
expect_status 0 "moves session script"
check "the session keeps the moves and the checked attribute" '.[0].tracks == .[1].tracks and
  .[0].bands == .[1].bands' "$S-11.json" "$S-10.json"

# --bench in per-CPU mode: the frames with the load tracks and the arrows,
# and the same path without them as the baseline of the same run
view -r "$FMP/sample.res" --per-cpu --no-session --size 640x400 --bench "$TMP/sample.log"
expect_status 0 "--bench --per-cpu"
expect_contains "$TMP/out" "3 load tracks and the flows' arrows shown: median" "bench: with the extras"
expect_contains "$TMP/out" "bench: baseline, the same path without load tracks and arrows" "bench: baseline"
expect_contains "$TMP/out" "p99 CPU time by leg: zoom in" "bench: by leg"

# counter tracks: the heap recording's bytes in use and live blocks per process
cp "$SRC/samples/linux/heap/heap.log" "$TMP/heap.log"
cat >"$TMP/e.txt" <<END
dump-state $S-7.json
screenshot $S-7.png
END
view -r linux_heap.res --no-session --size 1100x700 --script "$TMP/e.txt" "$TMP/heap.log"
expect_status 0 "counter tracks script"
check "a counter track per process and counter" '(.[0].tracks | length) == 2 and
  ([.[0].tracks[] | .kind] | unique) == ["counter"] and
  (.[0].tracks[] | select(.name == "heap[4092] inuse") | .max) == 1176 and
  (.[0].tracks[] | select(.name == "heap[4092] blocks") | .max) == 47' "$S-7.json"
expect_count "counters drawn" "$S-7.png" 340 20 1100 300 2f6db5 500
cy=$(jq '.layout.ruler_height + .layout.row_height * 0.5 | floor' "$S-7.json")
cat >"$TMP/f.txt" <<END
mouse-move 700 $cy
dump-state $S-8.json
END
view -r linux_heap.res --no-session --size 1100x700 --script "$TMP/f.txt" "$TMP/heap.log"
expect_status 0 "counter hover script"
check "the counter's value under the pointer" '.[0].track_hover.name == .[0].tracks[0].name and
  .[0].track_hover.value >= 0 and .[0].track_hover.value <= 1176' "$S-8.json"

if have_corpus; then
  retarget_res "$CORPUS/logs/fmp/fmp_short.res" >"$TMP/fmp.res"
  cp "$CORPUS/logs/fmp/fmp_short.log" "$TMP/fmp_short.log"
  "$TLV" stats --json -r "$TMP/fmp.res" "$TMP/fmp_short.log" >"$TMP/fstats.json" 2>/dev/null
  cat >"$TMP/g.txt" <<END
key c
dump-state $S-9.json
screenshot $S-9.png
END
  view -r "$TMP/fmp.res" --no-session --size 1400x800 --script "$TMP/g.txt" "$TMP/fmp_short.log"
  expect_status 0 "corpus fmp tracks script"
  check "fmp_short: load tracks as tlv stats has them" '.[1].cpu.processors as $p |
    (.[0].tracks | length) == 1 + ($p | length) and
    (.[0].tracks[1].busy_share - $p[0].utilization | fabs) < 1e-9' "$S-9.json" "$TMP/fstats.json"
  expect_count "fmp_short: load drawn" "$S-9.png" 200 20 1400 100 3c8c3c 2000
fi
finish
