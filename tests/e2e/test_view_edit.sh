# `tlv view`: the prompt and what uses it, driven by --script under Xvfb:
# g with exact ranges (and bad ones), editing markers (rename, recolour,
# drag in the ruler) with their round trip through the session file, and /
# search (plain text, regex, n/N wrapping, no match) with its highlight's
# pixels. Expected times and counts come from `tlv convert`'s output, not
# from the viewer. Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

RES="$SRC/samples/asp/sample.res"
cp "$SRC/samples/asp/sample.log" "$TMP/sample.log"
LOG="$TMP/sample.log"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "g asks for a range to show" "help: g"
expect_contains "$TMP/out" "/regex/ (or /regex/i, ignoring case)" "help: search"
expect_contains "$TMP/out" "F2 or Enter renames the selected marker, k gives it the next colour" "help: markers"

. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {visible, message, prompt, search, markers}]'

# ---- g: go to an exact range -------------------------------------------------------------
cat >"$TMP/g.txt" <<EOF
dump-state $TMP/g0.json
key g
text 1100000 1200000
dump-state $TMP/g1.json
key Return
dump-state $TMP/g2.json
key g
text 1150000..1250000
key Return
dump-state $TMP/g3.json
key g
text 1.1 s, 1250 ms
key Return
dump-state $TMP/g4.json
key Backspace
dump-state $TMP/g5.json
key g
text 12x 5
key Return
dump-state $TMP/g6.json
key Escape
dump-state $TMP/g7.json
key g
text 2000000 1000000
key Return
dump-state $TMP/g8.json
key End
key Home
key Delete
key Delete
key Right
text 9
key BackSpace
key BackSpace
dump-state $TMP/g9.json
key Escape
key g
text 0 1000
key Return
dump-state $TMP/g10.json
key f
key m
key Up
key Escape
dump-state $TMP/g11.json
EOF
view -r "$RES" --no-session --size 1000x600 --script "$TMP/g.txt" "$LOG"
expect_status 0 "goto script"
G="$TMP/g"
t0=$(jq .trace.t0 "$G"0.json)
t1=$(jq .trace.t1 "$G"0.json)
check "prompt open with the typed text" '.[0].prompt == {"label":"Go to:","text":"1100000 1200000","caret":15} and
  .[0].visible == .[0].trace' "$G"1.json
check "g START END" '.[0].visible == {"t0":1100000,"t1":1200000} and .[0].prompt == null and
  .[0].history == 1' "$G"2.json
check "g START..END" '.[0].visible == {"t0":1150000,"t1":1250000} and .[0].history == 2' "$G"3.json
check "g with units of seconds" '.[0].visible == {"t0":1100000,"t1":1250000}' "$G"4.json
check "Backspace after g" '.[0].visible == {"t0":1150000,"t1":1250000}' "$G"5.json
check "bad range: message, nothing changes, prompt still open" '.[1].visible == .[0].visible and
  .[1].history == .[0].history and .[1].prompt.text == "12x 5" and
  .[1].message == "expected START END in us, e.g. '"$t0 $t1"'"' "$G"5.json "$G"6.json
check "Esc cancels" '.[1].prompt == null and .[1].visible == .[0].visible' "$G"5.json "$G"7.json
check "end before start" '.[1].visible == .[0].visible and
  .[1].message == "the end must be after the start (START END in us)"' "$G"5.json "$G"8.json
check "editing: End, Home, Delete, Right, Backspace" \
  '.[0].prompt.text == "0000 1000000" and .[0].prompt.caret == 0' "$G"9.json
check "range outside the trace" '.[1].visible == .[0].visible and
  .[1].message == "that range is outside the trace ('"$t0 .. $t1"' us)"' "$G"5.json "$G"10.json
check "keys go to the prompt, not to navigation" '.[1].visible == .[0].visible and .[1].markers == [] and
  .[1].prompt == null' "$G"5.json "$G"11.json

# ---- markers: rename, recolour, move; the session file ---------------------------------------
cat >"$TMP/m.txt" <<EOF
screenshot $TMP/m0.png
mouse-move 500 200
marker-add
key F2
dump-state $TMP/m1.json
text xé
key BackSpace
key BackSpace
key BackSpace
key BackSpace
text Début
key Return
key k
dump-state $TMP/m2.json
key k
drag 520 6 820 6
dump-state $TMP/m3.json
key shift+]
key shift+]
dump-state $TMP/m3b.json
key shift+[
key shift+[
mouse-move 300 200
key m
key Return
key End
key BackSpace
key BackSpace
text B
key Return
mouse-move 900 200
dump-state $TMP/m4.json
mouse-leave
click 800 300
key F2
key Home
key Delete
key Delete
key Delete
key Delete
key Delete
key Return
dump-state $TMP/m5.json
key Escape
key Escape
mouse-leave
dump-state $TMP/m6.json
screenshot $TMP/m6.png
EOF
view -r "$RES" --size 1000x600 --script "$TMP/m.txt" "$LOG"
expect_status 0 "marker script"
M="$TMP/m"
check "F2 opens the prompt with the name, selected" '.[0].prompt == {"label":"Rename marker:","text":"M1","caret":2} and
  .[0].prompt_selection == "M1"' "$M"1.json
check "rename (UTF-8 backspace) and recolour" '[.[0].markers[] | {name, color}] == [{"name":"Début","color":"1f77b4"}] and
  near(.[0].markers[0].time; at(500)) and
  .[0].prompt == null and .[0].message == "marker Début: colour #1f77b4"' "$M"2.json
check "drag by the name in the ruler moves by the pointer" '(.[0].markers | length) == 1 and
  near(.[0].markers[0].time; at(800)) and .[0].markers[0].color == "2ca02c" and
  .[0].visible == .[0].trace and .[0].history == 0 and (.[0].message | startswith("marker Début moved to "))' "$M"3.json
check "Shift+] nudges by a pixel" 'near(.[1].markers[0].time; .[0].markers[0].time + 2 * S / (W - L)) and
  .[1].visible == .[0].visible' "$M"3.json "$M"3b.json
check "Enter renames the selected marker; markers in time order" \
  '[.[0].markers[] | {name, color}] == [{"name":"B","color":"1f77b4"},{"name":"Début","color":"2ca02c"}] and
  near(.[0].markers[0].time; at(300)) and near(.[0].markers[1].time; .[1].markers[0].time) and
  .[0].selected_marker == 0' "$M"4.json "$M"3.json
check "time from the selected marker to the cursor" '(.[0].marker_to_cursor | startswith("B +"))' "$M"4.json
check "an empty name is refused" '.[0].prompt.text == "" and .[0].message == "a marker needs a name" and
  .[0].markers[1].name == "Début"' "$M"5.json
check "Esc keeps the name" '.[0].prompt == null and .[0].markers[1].name == "Début"' "$M"6.json
main_h=$(jq .layout.main_height "$M"6.json)
# the timeline draws green too: compare with the frame before any marker
checks=$((checks + 1))
before=$("$PROBE" "$M"0.png count 797 0 804 "$main_h" 2ca02c)
after=$("$PROBE" "$M"6.png count 797 0 804 "$main_h" 2ca02c)
[ "$after" -gt $((before + main_h * 3 / 4)) ] || fail "moved marker's line: $before pixels before, $after after"
checks=$((checks + 1))
before=$("$PROBE" "$M"0.png count 497 60 504 "$main_h" 2ca02c) # below the markers' span lane
after=$("$PROBE" "$M"6.png count 497 60 504 "$main_h" 2ca02c)
[ "$after" -eq "$before" ] || fail "a marker line left at the old place: $before pixels before, $after after"
check "markers in the session file" '.[0].markers == .[1].markers and .[0].tlv_session == 1' \
  "$LOG.tlvsession" "$M"6.json
echo "dump-state $TMP/m7.json" >"$TMP/m7.txt"
view -r "$RES" --size 1000x600 --script "$TMP/m7.txt" "$LOG"
check "markers restored from the session" '.[0].markers == .[1].markers' "$M"6.json "$M"7.json
rm -f "$LOG.tlvsession"

# ---- search --------------------------------------------------------------------------------
"$TLV" convert -r "$RES" "$LOG" >"$TMP/std.txt" 2>/dev/null
times_of() { grep -E "$1" "$TMP/std.txt" | sed 's/^\[\([0-9]*\)\].*/\1/'; }
running=$(times_of '\]TASK1\.state=RUNNING$')
count=$(echo "$running" | wc -l)
first=$(echo "$running" | head -1)
second=$(echo "$running" | sed -n 2p)
last=$(echo "$running" | tail -1)
re_count=$(times_of '\]TASK[23]\.state=(RUNNING|DORMANT)$' | wc -l)
svc_count=$(grep -cF 'enterSVC(ena_int,' "$TMP/std.txt")
checks=$((checks + 1))
[ "$count" -ge 3 ] && [ "$re_count" -gt "$count" ] && [ "$svc_count" -ge 1 ] ||
  fail "sample changed: $count, $re_count, $svc_count matches"

cat >"$TMP/s.txt" <<EOF
mouse-leave
screenshot $TMP/s0.png
key /
text TASK1.state=RUNNING
key Return
dump-state $TMP/s1.json
screenshot $TMP/s1.png
key n
dump-state $TMP/s2.json
key shift+n
key shift+n
dump-state $TMP/s3.json
key n
dump-state $TMP/s4.json
key /
text task1.STATE=running
key Return
dump-state $TMP/s5.json
key /
text /^TASK[23]\.state=(RUNNING|DORMANT)\$/
key Return
dump-state $TMP/s6.json
key /
text /^task1\.state=running\$/i
key Return
dump-state $TMP/s7.json
key /
text xyz-nothing
key Return
dump-state $TMP/s8.json
key n
dump-state $TMP/s9.json
key /
text /(/
key Return
dump-state $TMP/s10.json
key Escape
key /
text enterSVC(ena_int,
key Return
dump-state $TMP/s11.json
key Escape
dump-state $TMP/s12.json
screenshot $TMP/s12.png
key f
mouse-move 700 200
dump-state $TMP/s13.json
key /
text TASK1.state=RUNNING
key Return
dump-state $TMP/s14.json
EOF
view -r "$RES" --no-session --size 1000x600 --script "$TMP/s.txt" "$LOG"
expect_status 0 "search script"
S="$TMP/s"
check "search: first match, count, centred, zoom kept" '.[0].search == {"query":"TASK1.state=RUNNING",
  "regex":false,"count":'"$count"',"index":1,"time":'"$first"',"text":"['"$first"' us] TASK1.state=RUNNING",
  "row":.[0].search.row} and .[0].message == "match 1/'"$count"': ['"$first"' us] TASK1.state=RUNNING" and
  centred(.[0].visible; '"$first"') and near(span(.[0].visible); S) and .[0].history == 1 and
  .[0].rows[.[0].search.row] == "TASK1"' "$S"1.json
check "n: the next match" '.[0].search.index == 2 and .[0].search.time == '"$second"' and
  centred(.[0].visible; '"$second"')' "$S"2.json
check "N wraps back to the last" '.[0].search.index == '"$count"' and .[0].search.time == '"$last"' and
  (.[0].message | startswith("search wrapped; match '"$count/$count"': ['"$last"' us]"))' "$S"3.json
check "n wraps forward to the first" '.[0].search.index == 1 and (.[0].message | startswith("search wrapped; match 1/"))' \
  "$S"4.json
check "plain text ignores case" '.[0].search.count == '"$count"' and .[0].search.regex == false' "$S"5.json
check "regex" '.[0].search.count == '"$re_count"' and .[0].search.regex and
  (.[0].search.text | test("^\\[[0-9]+ us\\] TASK[23]\\.state=(RUNNING|DORMANT)$"))' "$S"6.json
check "regex /i" '.[0].search.count == '"$count"'' "$S"7.json
check "no match: message, nothing moves" '.[1].message == "no event matches '"'xyz-nothing'"'" and
  .[1].visible == .[0].visible and .[1].search.count == 0 and .[1].search.index == null and
  .[1].prompt == null' "$S"7.json "$S"8.json
check "n after no match" '.[0].message == "no event matches '"'xyz-nothing'"'"' "$S"9.json
check "bad regex: message, prompt stays" '(.[0].message | startswith("bad regular expression /(/: ")) and
  .[0].prompt.text == "/(/" and .[0].search.query == "xyz-nothing"' "$S"10.json
check "behaviours with arguments" '.[0].search.count == '"$svc_count"' and
  (.[0].search.text | test("^\\[[0-9]+ us\\] [A-Z_0-9]+\\.enterSVC\\(ena_int,"))' "$S"11.json
check "Esc drops the highlight, keeps the query" '.[0].search.index == null and .[0].search.count == '"$svc_count"'' \
  "$S"12.json
cursor=$(jq .cursor.time "$S"13.json)
after=$(echo "$running" | awk -v c="$cursor" '$1 >= c { print; exit }')
check "Enter searches from the cursor" '.[0].search.time == '"${after:-0}"' and
  .[0].search.index > 1' "$S"14.json

# the highlight: a line at the match's x, its row outlined, in a colour nothing else uses
x=$(jq '(.layout.label_width + (.search.time - .visible.t0) * (.layout.pixel_width - .layout.label_width)
  / (.visible.t1 - .visible.t0)) | floor' "$S"1.json)
main_h=$(jq .layout.main_height "$S"1.json)
ruler_h=$(jq .layout.ruler_height "$S"1.json)
row_y=$(jq '.layout.ruler_height + .search.row * .layout.row_height | floor' "$S"1.json)
row_end=$(jq '.layout.ruler_height + (.search.row + 1) * .layout.row_height | floor' "$S"1.json)
expect_count "no highlight colour before searching" "$S"0.png 0 0 1000 600 e4007c 0 0
expect_count "highlight line at x=$x" "$S"1.png $((x - 1)) "$ruler_h" $((x + 3)) "$main_h" e4007c \
  $(((main_h - ruler_h) * 2 - 60))
expect_count "highlight only there" "$S"1.png $((x + 40)) $((row_end + 1)) 1000 "$main_h" e4007c 0 0
expect_count "row outlined" "$S"1.png 0 "$row_y" 1000 $((row_y + 2)) e4007c 1800
expect_count "no highlight after Esc" "$S"12.png 0 0 1000 600 e4007c 0 0

# ---- the corpus's asp_short: a search over a real trace ---------------------------------------
if have_corpus; then
  A="$CORPUS/logs/asp"
  cp "$A/asp_short.log" "$TMP/"
  "$TLV" convert -R "$CORPUS/rules" -r "$A/asp_short.res" "$TMP/asp_short.log" >"$TMP/a.txt" 2>/dev/null
  a_times=$(grep -E '\]TASK2\.state=(RUNNING|WAITING)$' "$TMP/a.txt" | sed 's/^\[\([0-9]*\)\].*/\1/')
  a_count=$(echo "$a_times" | wc -l)
  a_second=$(echo "$a_times" | sed -n 2p)
  printf 'key g\ntext %s %s\nkey Return\nkey /\ntext /TASK2\\.state=(RUNNING|WAITING)$/\nkey Return\nkey n\ndump-state %s\n' \
    "$(echo "$a_times" | head -1)" "$a_second" "$TMP/a1.json" >"$TMP/a1.txt"
  view -R "$CORPUS/rules" -r "$A/asp_short.res" --no-session --size 1200x700 --script "$TMP/a1.txt" \
    "$TMP/asp_short.log"
  expect_status 0 "asp_short search"
  check "asp_short: regex count and n" '.[0].search.count == '"$a_count"' and .[0].search.index == 2 and
    .[0].search.time == '"$a_second"' and .[0].rows[.[0].search.row] == "TASK2" and
    near(span(.[0].visible); '"$a_second"' - '"$(echo "$a_times" | head -1)"')' "$TMP/a1.json"
fi
finish
