#!/usr/bin/env bash
# test_view_markers_panel.sh — the marker list and marker layers in `tlv
# view`, under Xvfb, driven by --script like a person: Shift+M lists the
# markers by layer (colour, name, time, the time since the previous marker
# of the layer); a double-click renames one, LAYER/NAME moving it to a layer
# where the next new marker goes too; a layer's box hides the whole layer
# (its markers leave the ruler and the [ ] jumps); a click on a marker goes
# there (the log panel following); its x deletes it; layers, hidden layers
# and the panel are kept in the session. Runs on samples/fmp and, with the
# corpus, fmp_short. Asserts on dump-state and on screenshots' pixels. Skips
# (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "Shift+M lists the markers" "help: marker list"

. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {visible, markers, panel: .markers_panel, message}]'
JQ_DEFS="$JQ_DEFS"'
def line(n): [.markers_panel.lines[] | select(.name == n)][0];
def layer(n): [.markers_panel.lines[] | select(.kind == "layer" and .layer == n)][0];
def same(a; b): ((a - b) | fabs) <= 1e-9 * ((a | fabs) + 1);'

# suite NAME LOG RULE-ARGS...
suite() {
  local name=$1 log=$2
  shift 2
  local D="$TMP/$name"
  mkdir -p "$D"
  cat >"$D/a.txt" <<EOF
mouse-move 350 100
key m
mouse-move 500 100
key m
mouse-move 700 100
key m
key shift+m
mouse-leave
dump-state $D/m0.json
EOF
  view "$@" --session "$D/sess" --size 1000x700 --script "$D/a.txt" "$log"
  expect_status 0 "$name: list run"
  check "$name: Shift+M lists the markers in the default layer, with the time since the previous" \
    'near(.[0].markers_panel.lines[1].time; at(350)) and (.[0] | .markers_panel.shown and
     layer("").count == 3 and line("M1").delta == null and
     same(line("M2").delta; line("M2").time - line("M1").time) and
     same(line("M3").delta; line("M3").time - line("M2").time))' "$D/m0.json"
  local y2 y1 y3 x1 bx
  y2=$(jq '[.markers_panel.lines[] | select(.name == "M2")][0].y' "$D/m0.json")
  cat >"$D/b.txt" <<EOF
dclick 400 $y2
key BackSpace
key BackSpace
text boot/B2
key Return
dump-state $D/m1.json
mouse-move 600 100
key m
mouse-leave
dump-state $D/m2.json
screenshot $D/m2.png
EOF
  view "$@" --session "$D/sess" --size 1000x700 --script "$D/b.txt" "$log"
  expect_status 0 "$name: rename run"
  check "$name: LAYER/NAME renames into a layer; the next marker goes there; Δ within a layer" \
    '.[0] | (line("B2").layer == "boot" and .markers_panel.lines[0].layer == "" and
     layer("").count == 2 and layer("boot").count == 1 and
     same(line("M3").delta; line("M3").time - line("M1").time) and line("B2").delta == null)' \
    "$D/m1.json"
  check "$name: the new marker in layer boot, Δ from B2" \
    '.[0] | (line("M4").layer == "boot" and same(line("M4").delta; line("M4").time - line("B2").time))' \
    "$D/m2.json"
  local ry
  ry=$(jq '.layout.ruler_height' "$D/m2.json")
  expect_count "$name: B2's colour in the ruler" "$D/m2.png" 495 0 560 "$ry" 1f77b4 20
  bx=$(jq '[.markers_panel.lines[] | select(.kind == "layer" and .layer == "boot")][0].box_x' "$D/m2.json")
  local by
  by=$(jq '[.markers_panel.lines[] | select(.kind == "layer" and .layer == "boot")][0].y' "$D/m2.json")
  y3=$(jq '[.markers_panel.lines[] | select(.name == "M3")][0].y' "$D/m2.json")
  y1=$(jq '[.markers_panel.lines[] | select(.name == "M1")][0].y' "$D/m2.json")
  x1=$(jq '[.markers_panel.lines[] | select(.name == "M1")][0].delete_x' "$D/m2.json")
  cat >"$D/c.txt" <<EOF
click $bx $by
dump-state $D/m3.json
screenshot $D/m3.png
key f
key Up
key Up
key Up
key l
click 400 $y3
dump-state $D/m4.json
click $x1 $y1
dump-state $D/m5.json
EOF
  view "$@" --session "$D/sess" --size 1000x700 --script "$D/c.txt" "$log"
  expect_status 0 "$name: layers run"
  check "$name: a layer's box hides the layer; a click goes to a marker; x deletes one" \
    '(.[0] | layer("boot").layer_shown == false and .hidden_marker_layers == ["boot"] and
       (.message | test("hidden"))) and
     near(mid(.[1].visible); (.[1] | line("M3").time)) and
     (.[2] | [.markers[].name] == ["B2", "M4", "M3"])' "$D/m3.json" "$D/m4.json" "$D/m5.json"
  expect_count "$name: hidden B2 leaves the ruler" "$D/m3.png" 191 0 1000 "$ry" 1f77b4 0 0
  expect_count "$name: M1 stays in the ruler" "$D/m3.png" 345 0 410 "$ry" d62728 20
  # the session keeps layers, hidden layers and the panel
  printf 'dump-state %s\n' "$D/m6.json" >"$D/d.txt"
  view "$@" --session "$D/sess" --size 1000x700 --script "$D/d.txt" "$log"
  check "$name: the session keeps the layers, what is hidden and the panel" \
    '.[0].markers_panel.shown and .[0].hidden_marker_layers == ["boot"] and
     ([.[0].markers[] | {name, layer}] == [{name: "B2", layer: "boot"}, {name: "M4", layer: "boot"},
       {name: "M3", layer: ""}])' "$D/m6.json"
}

cp "$SRC/samples/fmp/sample.log" "$TMP/sample.log"
suite sample "$TMP/sample.log" -r "$SRC/samples/fmp/sample.res"
if have_corpus; then
  cp "$CORPUS/logs/fmp/fmp_short.log" "$TMP/"
  suite fmp_short "$TMP/fmp_short.log" -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res"
fi
finish
