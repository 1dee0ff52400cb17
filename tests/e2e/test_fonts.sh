#!/usr/bin/env bash
# test_fonts.sh — `tlv render` and `tlv view` without the fonts they want,
# through private fontconfig files (FONTCONFIG_FILE): with no font at all
# both still draw every shape and say once, on stderr (and the viewer in its
# status line), that text cannot be drawn; with DejaVu only (no Japanese
# glyphs) Japanese row names (タスク1, タスク2: samples/asp with two tasks
# renamed) are drawn as visible replacement boxes, not left out, and the
# missing Japanese font is said once. The viewer's half runs under Xvfb and
# skips without xvfb-run or jq; the DejaVu half skips without
# /usr/share/fonts/truetype/dejavu.
. "$(dirname "$0")/lib.sh"
PROBE="${TLV_PNG_PROBE:?TLV_PNG_PROBE must point to png_probe}"
LOG="$SRC/samples/asp/sample.log"
sed 's/"TASK1"/"タスク1"/; s/"TASK2"/"タスク2"/' "$SRC/samples/asp/sample.res" >"$TMP/ja.res"
R=(-R "$SRC/rules" -r "$TMP/ja.res")
DEJAVU=/usr/share/fonts/truetype/dejavu
mkdir -p "$TMP/cache"
printf '<?xml version="1.0"?>\n<fontconfig>\n<cachedir>%s</cachedir>\n</fontconfig>\n' \
  "$TMP/cache" >"$TMP/none.conf"
printf '<?xml version="1.0"?>\n<fontconfig>\n<dir>%s</dir>\n<cachedir>%s</cachedir>\n</fontconfig>\n' \
  "$DEJAVU" "$TMP/cache" >"$TMP/dejavu.conf"
NOFONT="warning: no font found through fontconfig (install fonts-dejavu-core); text is not drawn"
NOJA="warning: no font with Japanese glyphs found (install fonts-noto-cjk); drawing labels with "
GREEN=99e599 # a running task's box

# once FILE TEXT WHAT: exactly one line of FILE starts with TEXT.
once() {
  checks=$((checks + 1))
  [ "$(grep -cF -- "$2" "$1")" -eq 1 ] && [ "$(awk -v t="$2" 'index($0, t) == 1' "$1" | wc -l)" -eq 1 ] ||
    fail "$3: not once: '$2' in:$(echo; head -c 800 "$1")"
}
colours() { "$PROBE" "$1" colors "$2" "$3" "$4" "$5"; }
# the shapes of the trace: a full-font render is the reference
run "$TLV" render "${R[@]}" --size 900x400 -o "$TMP/full.png" "$LOG"
expect_status 0 "render with the system's fonts"
full_green=$("$PROBE" "$TMP/full.png" count 180 25 900 400 $GREEN)

# ---- tlv render ------------------------------------------------------------------------
FONTCONFIG_FILE="$TMP/none.conf" run "$TLV" render "${R[@]}" --size 900x400 -o "$TMP/none.png" "$LOG"
expect_status 0 "render, no fonts"
once "$TMP/err" "$NOFONT" "render, no fonts: said once"
expect_count "render, no fonts: the shapes drawn" "$TMP/none.png" 180 25 900 400 $GREEN \
  $((full_green * 9 / 10))
checks=$((checks + 1))
[ "$(colours "$TMP/none.png" 0 75 170 125)" -le 3 ] ||
  fail "render, no fonts: text in the names of タスク1 and TASK3"

if [ -d "$DEJAVU" ]; then
  FONTCONFIG_FILE="$TMP/dejavu.conf" run "$TLV" render "${R[@]}" --size 900x400 -o "$TMP/dejavu.png" "$LOG"
  expect_status 0 "render, DejaVu only"
  once "$TMP/err" "$NOJA" "render, DejaVu only: no Japanese glyphs said once"
  # the row タスク1 (the fourth): its name's first 18 pixels hold the three
  # replaced characters (the 1 comes after); nothing drawn there is 2 colours
  checks=$((checks + 1))
  n=$(colours "$TMP/dejavu.png" 0 75 18 100)
  [ "$n" -ge 4 ] || fail "render, DejaVu only: タスク1 drawn as nothing ($n colours)"
  expect_count "render, DejaVu only: the shapes drawn" "$TMP/dejavu.png" 180 25 900 400 $GREEN \
    $((full_green * 9 / 10))
else
  echo "NOTE: $DEJAVU missing: the no-Japanese-glyph fallback is not checked"
fi

# ---- tlv view --------------------------------------------------------------------------
. "$(dirname "$0")/view_lib.sh"
printf 'screenshot %s\ndump-state %s\n' "$TMP/v.png" "$TMP/v.json" >"$TMP/s.txt" # after a frame
FONTCONFIG_FILE="$TMP/none.conf" view "${R[@]}" --no-session --size 900x400 --script "$TMP/s.txt" "$LOG"
expect_status 0 "view, no fonts"
once "$TMP/err" "tlv view: $NOFONT" "view, no fonts: said once on stderr"
check "view, no fonts: said in the status line" ".[0].message == \"$NOFONT\"" "$TMP/v.json"
expect_count "view, no fonts: the shapes drawn" "$TMP/v.png" 180 25 900 300 $GREEN 3000
checks=$((checks + 1))
[ "$(colours "$TMP/v.png" 0 380 900 400)" -le 3 ] || fail "view, no fonts: text in the status line"
[ -n "${TLV_KEEP_SHOTS:-}" ] && cp "$TMP/v.png" "$TLV_KEEP_SHOTS/fonts-view-none.png"

if [ -d "$DEJAVU" ]; then
  FONTCONFIG_FILE="$TMP/dejavu.conf" view "${R[@]}" --no-session --size 900x400 --script "$TMP/s.txt" "$LOG"
  expect_status 0 "view, DejaVu only"
  once "$TMP/err" "tlv view: $NOJA" "view, DejaVu only: said once on stderr"
  check "view, DejaVu only: said in the status line" ".[0].message | startswith(\"$NOJA\")" "$TMP/v.json"
  checks=$((checks + 1))
  n=$(colours "$TMP/v.png" 0 62 18 82)
  [ "$n" -ge 4 ] || fail "view, DejaVu only: タスク1 drawn as nothing ($n colours)"
  [ -n "${TLV_KEEP_SHOTS:-}" ] && cp "$TMP/v.png" "$TLV_KEEP_SHOTS/fonts-view-dejavu.png"
fi
finish
