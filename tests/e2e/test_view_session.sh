#!/usr/bin/env bash
# test_view_session.sh — `tlv view` and hostile session files (LOG.tlvsession):
# not JSON, empty, cut short, of the wrong types, huge (10 MB strings, 1e308
# times, a million markers), unknown settings. Each time the trace opens,
# what can be read is used, every problem is reported once on stderr
# (exact lines) and once in the status line (dump-state's "message", and a
# screenshot), and the file is kept byte for byte as LOG.tlvsession.bak
# before the session is saved over it. A session this tlv wrote, with its
# panels open, reads back without a single report and without a .bak.
# Runs under Xvfb on samples/fmp; skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"

RES="$SRC/samples/fmp/sample.res"
LOG="$TMP/s.log"
S="$LOG.tlvsession"
cp "$SRC/samples/fmp/sample.log" "$LOG"
printf 'dump-state %s\nscreenshot %s\n' "$TMP/d.json" "$TMP/d.png" >"$TMP/dump.txt"

# hostile NAME: runs the viewer on the session file as it is now; checks it
# opened the trace, wrote a version-1 session and kept the old file as .bak.
hostile() {
  local name=$1
  rm -f "$S.bak" "$TMP/d.json"
  cp "$S" "$TMP/orig"
  view -r "$RES" --size 900x500 --script "$TMP/dump.txt" "$LOG"
  expect_status 0 "$name: the viewer runs"
  check "$name: the trace opens" '.[0].events == 1273' "$TMP/d.json"
  checks=$((checks + 1))
  cmp -s "$TMP/orig" "$S.bak" || fail "$name: the file is not kept byte for byte as .bak"
  check "$name: a session of this version written" '.[0].tlv_session == 1' "$S"
  checks=$((checks + 1))
  [ "$(grep -cxF "tlv view: $S: kept as '$S.bak' when the session is saved" "$TMP/err")" -eq 1 ] ||
    fail "$name: the .bak not announced once: $(cat "$TMP/err")"
}
# reported TEXT WHAT: stderr has exactly this problem line, once.
reported() {
  checks=$((checks + 1))
  [ "$(grep -cxF -- "tlv view: $S: $1" "$TMP/err")" -eq 1 ] ||
    fail "$2: not once on stderr: 'tlv view: $S: $1' in:$(echo; head -c 1500 "$TMP/err")"
}
message() { check "$2: in the status line" ".[0].message == \"session: $1\"" "$TMP/d.json"; }

# ---- a session this tlv wrote reads back silently ------------------------------------
cat >"$TMP/first.txt" <<EOF
mouse-move 500 100
marker-add
key r
key l
key shift+l
dump-state $TMP/first.json
EOF
view -r "$RES" --size 900x500 --script "$TMP/first.txt" "$LOG"
expect_status 0 "first run"
view -r "$RES" --size 900x500 --script "$TMP/dump.txt" "$LOG"
expect_status 0 "second run"
checks=$((checks + 1))
! grep -q "session" "$TMP/err" || fail "a good session reported: $(cat "$TMP/err")"
checks=$((checks + 1))
[ ! -e "$S.bak" ] || fail "a good session kept as .bak"
check "a good session round trip: panels and marker" \
  '.[0].markers == .[1].markers and (.[0].markers | length) == 1 and .[1].rows_panel and
   .[1].log_panel and .[1].message == ""' "$TMP/first.json" "$TMP/d.json"
cp "$S" "$TMP/good.tlvsession"

# ---- not JSON, empty --------------------------------------------------------------------
echo "not json" >"$S"
hostile "not JSON"
reported "not a tlv session file (not JSON: line 1, column 1); ignored" "not JSON"
message "not a tlv session file (not JSON: line 1, column 1); ignored" "not JSON"
check "not JSON: nothing of it used" '.[0].markers == [] and .[0].visible == .[0].trace' "$TMP/d.json"

: >"$S"
hostile "empty file"
reported "not a tlv session file (not JSON: line 1, column 1); ignored" "empty file"

printf '[1, 2]\n' >"$S"
hostile "JSON, not a session"
reported "not a tlv session file (JSON, but not an object with \"tlv_session\"); ignored" "JSON, not a session"

# ---- cut short: what comes before the cut is used ---------------------------------------
printf '{\n  "tlv_session": 1,\n  "visible": {"t0": 1600000, "t1": 1700000},\n  "markers": [{"name": "A", "time": 1650000, "color": "00ff00"}, {"name": "B", "ti' >"$S"
hostile "cut short"
reported "cut short or damaged at line 4, column 81; what comes before is used" "cut short"
check "cut short: the range and the whole marker used" \
  '.[0].visible == {"t0": 1600000, "t1": 1700000} and .[0].markers == [{"name": "A", "time": 1650000, "color": "00ff00", "layer": ""}]' \
  "$TMP/d.json"
# A good session cut at every 151st byte: the viewer always opens the trace.
size=$(wc -c <"$TMP/good.tlvsession")
for cut in $(seq 1 151 "$size"); do
  head -c "$cut" "$TMP/good.tlvsession" >"$S"
  view -r "$RES" --size 900x500 --script "$TMP/dump.txt" "$LOG"
  checks=$((checks + 1))
  [ "$status" -eq 0 ] && [ "$(jq .events "$TMP/d.json")" = 1273 ] &&
    grep -q "^tlv view: $S: cut short or damaged at line" "$TMP/err" ||
    fail "good session cut at byte $cut: status $status, $(cat "$TMP/err")"
done
printf '{"tlv_session": 1, "row_height": 30} trailing words\n' >"$S"
hostile "text after the end"
reported "more after the end of the session (line 1, column 38); ignored" "text after the end"
check "text after the end: the session before it used" '.[0].layout.row_height == 30' "$TMP/d.json"

# ---- wrong types: each value ignored, reported, the rest used ---------------------------
cat >"$TMP/types.json" <<'JSON'
{"tlv_session": 1, "visible": "yes", "first_row": "3", "per_cpu": 1, "window": [],
 "markers": [{"name": 5, "time": 1600000}, "M9", {"name": "K", "time": 1650000, "color": "red", "layer": 7}],
 "hidden_marker_layers": 5, "label_column": true, "row_height": 30,
 "log_panel": "on", "hidden_rows": 7, "no_such_setting": {}}
JSON
cp "$TMP/types.json" "$S"
hostile "wrong types"
reported "'visible' is not a time range (an object with numbers t0 < t1 within +-1e18); the whole trace is shown" "visible"
reported "'first_row' is a string, not a number; ignored" "first_row"
reported "'per_cpu' is a number, not a boolean; ignored" "per_cpu"
reported "'window' is an array, not an object; ignored" "window"
reported "'markers': 2 of 3 are not objects with a name and a time within +-1e18; skipped (the first: markers[0])" "markers"
reported "'markers': 1 of 3 have a colour that is not RRGGBB in hex; a default used (the first: markers[2])" "marker colour"
reported "'markers': 1 of 3 have a layer that is not a string of at most 31 bytes; the default layer used (the first: markers[2])" "marker layer"
reported "'hidden_marker_layers' is a number, not an array; ignored" "hidden_marker_layers"
reported "... and 4 more problems" "the rest counted"
message "12 problems (on stderr); what could be read is used" "wrong types"
check "wrong types: the good parts used" \
  '.[0].layout.row_height == 30 and (.[0].markers | map(.name)) == ["K"] and .[0].log_panel == false and
   .[0].visible == .[0].trace' "$TMP/d.json"
# the four not listed (label_column, log_panel, hidden_rows, no_such_setting), and
# values inside the panels' settings
cat >"$S" <<'JSON'
{"tlv_session": 1, "label_column": true, "log_panel": "on", "hidden_rows": 7, "no_such_setting": {},
 "hidden_rules": ["a", 3], "tracks_state": {"load": "yes", "hidden": [1, "x"]}}
JSON
hostile "wrong types, panels"
reported "'label_column' is a boolean, not a number; ignored" "label_column"
reported "'log_panel' is a string where this tlv writes a boolean; ignored" "log_panel"
reported "'hidden_rows' is a number where this tlv writes an array; ignored" "hidden_rows"
reported "'no_such_setting' is not a setting this tlv knows; ignored" "unknown setting"
reported "'hidden_rules': 1 of 2 entries are not names (strings); skipped" "a number among names"
reported "'tracks_state.load' is a string where this tlv writes a boolean; ignored" "nested type"
reported "'tracks_state.hidden': 1 of 2 entries are not names (strings); skipped" "nested names"

# ---- huge: 10 MB strings, 1e308 times, a million markers --------------------------------
python3 - "$S" <<'PY'
import json, sys
big = "x" * (10 << 20)
json.dump({"tlv_session": 1, "visible": {"t0": -1e308, "t1": 1e308},
           "markers": [{"name": big, "time": 1600000, "layer": big},
                       {"name": "far", "time": 1e308}, {"name": "near", "time": 1700000}],
           "hidden_rows": [big], big: 1}, open(sys.argv[1], "w"))
PY
hostile "10 MB strings, 1e308 times"
reported "'visible' is not a time range (an object with numbers t0 < t1 within +-1e18); the whole trace is shown" "1e308 range"
reported "'markers': 1 of 3 are not objects with a name and a time within +-1e18; skipped (the first: markers[1])" "1e308 marker"
reported "'markers': 1 of 3 have names longer than 47 bytes; cut (the first: markers[0])" "10 MB name"
reported "'markers': 1 of 3 have a layer that is not a string of at most 31 bytes; the default layer used (the first: markers[0])" "10 MB layer"
reported "'$(printf 'x%.0s' $(seq 80))' is not a setting this tlv knows; ignored" "10 MB key"
check "10 MB strings: the markers in the trace used, the long name cut" \
  '(.[0].markers | map(.name)) == [("x" * 47), "near"] and .[0].visible == .[0].trace' "$TMP/d.json"

python3 - "$S" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"tlv_session": 1, "markers": [')
    f.write(",".join('{"name":"m%d","time":%d}' % (i, 2117180 - i % 658432) for i in range(1000000)))
    f.write("]}\n")
PY
hostile "a million markers"
reported "'markers': 900000 of 1000000 are beyond the 100000 markers kept; skipped (the first: markers[100000])" "a million markers"
message "'markers': 900000 of 1000000 are beyond the 100000 markers kept; skipped (the first: markers[100000])" "a million markers"
check "a million markers: the first 100000 kept, in time order" \
  '(.[0].markers | length) == 100000 and (.[0].markers | map(.time)) == (.[0].markers | map(.time) | sort)' \
  "$TMP/d.json"

# ---- larger than 64 MB: not read at all ----------------------------------------------------
truncate -s 65M "$S"
hostile "larger than 64 MB"
reported "larger than 64 MB (68157440 bytes); ignored" "larger than 64 MB"

# The status line as it looks (the 12-problem case).
cp "$TMP/types.json" "$S"
hostile "status line"
expect_count "status line message drawn" "$TMP/d.png" 0 470 900 500 202020 30
[ -n "${TLV_KEEP_SHOTS:-}" ] && cp "$TMP/d.png" "$TLV_KEEP_SHOTS/session-status.png"
finish
