#!/usr/bin/env bash
# test_view_live.sh — `tlv view` on logs that grow while it shows them, and
# reloading, under Xvfb, driven by --script like a person while this shell
# plays the program writing the log: a file appended to (the view of the
# whole trace grows with it; follow mode keeps the newest time in view with
# the span kept, and panning away stops it), a FIFO and standard input; F5
# and Ctrl+R reload keeping the view; a rule file broken on disk makes the
# reload fail visibly (banner, message) and keeps the last good trace. The
# script and this shell meet through files (wait-file, dump-state). Runs on
# samples/fmp and, with the corpus, fmp_short. Asserts on dump-state and on
# the status line's LIVE/FOLLOW badge in screenshots. Skips (77) without
# xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "F5 or Ctrl+R reloads" "help: reload"
expect_contains "$TMP/out" "Shift+F follows" "help: follow"
expect_contains "$TMP/out" "Ctrl+O asks for" "help: open"

. "$(dirname "$0")/view_lib.sh"

# view_bg ARGS...: like view, in the background ($pid); view_wait collects it.
view_bg() { "$TLV" view "$@" >"$TMP/out" 2>"$TMP/err" & pid=$!; }
view_wait() { wait "$pid"; status=$?; }
# await FILE: until the viewer wrote FILE (10 s at most).
await() { for _ in $(seq 200); do [ -s "$1" ] && return 0; sleep 0.05; done; fail "no $1"; }
# badge PNG COLOR MIN: pixels of the status line's badge colour at its right end.
badge() { expect_count "$1" "$2" 600 570 1000 600 "$3" "$4" "${5:-99999999}"; }

# live NAME LOG RULE-ARGS...: the log written in three parts while the viewer runs.
live() {
  local name=$1 log=$2
  shift 2
  local D="$TMP/$name"
  mkdir -p "$D"
  local total lines
  total=$("$TLV" convert "$@" "$log" 2>/dev/null | wc -l)
  lines=$(wc -l <"$log")
  local a=$((lines / 3)) b=$((2 * lines / 3))
  head -n "$a" "$log" >"$D/g.log"
  cat >"$D/s.txt" <<EOF
screenshot $D/s0.png
dump-state $D/s0.json
wait-events $((total * 2 / 5)) 20
wait-file $D/go1
wait-events $((total * 3 / 5)) 20
dump-state $D/s1.json
key Up
key Up
key shift+f
dump-state $D/s2.json
screenshot $D/s2.png
wait-file $D/go2
wait-events $total 20
dump-state $D/s3.json
screenshot $D/s3.png
key Left
dump-state $D/s4.json
screenshot $D/s4.png
key shift+f
key Up
dump-state $D/s5.json
EOF
  view_bg "$@" --no-session --size 1000x600 --script "$D/s.txt" "$D/g.log"
  await "$D/s0.json"
  sed -n "$((a + 1)),${b}p" "$log" >>"$D/g.log"
  touch "$D/go1"
  await "$D/s2.json"
  sed -n "$((b + 1)),\$p" "$log" >>"$D/g.log"
  touch "$D/go2"
  view_wait
  expect_status 0 "$name: live run"
  # the last event's time, as the finished conversion has it
  local end
  end=$("$TLV" convert "$@" "$log" 2>/dev/null | sed -n 's/^\[\([0-9]*\)\].*/\1/p' | sort -n | tail -1)
  check "$name: the trace grows while it is written, the whole-trace view with it" \
    ".[0].live and .[0].events < $total and .[1].events > .[0].events and
     .[1].trace.t1 > .[0].trace.t1 and .[1].visible == .[1].trace and .[0].follow == false" \
    "$D/s0.json" "$D/s1.json"
  check "$name: Shift+F follows: the newest time stays in view with the span kept" \
    ".[0].follow and .[0].visible.t1 == .[0].trace.t1 and .[1].follow and
     .[1].events == $total and .[1].trace.t1 == $end and .[1].visible.t1 == $end and
     ((span(.[1].visible) - span(.[0].visible)) | abs) < 1e-6 * span(.[0].visible)" \
    "$D/s2.json" "$D/s3.json"
  check "$name: panning away stops following; zooming in while following keeps it" \
    '.[0].follow == false and (.[0].message | test("follow off")) and .[1].follow and
     .[1].visible.t1 == .[1].trace.t1' "$D/s4.json" "$D/s5.json"
  badge "$name: no LIVE badge before the file grows" "$D/s0.png" 5a8f5a 0 0
  badge "$name: FOLLOW badge when following" "$D/s3.png" 1e9e3c 60
  badge "$name: no FOLLOW badge after panning away" "$D/s4.png" 1e9e3c 0 0
  badge "$name: LIVE badge again" "$D/s4.png" 5a8f5a 60
}

# reload NAME LOG RES: F5 keeps the view; a broken rule file keeps the last good trace.
reload() {
  local name=$1 log=$2 res=$3
  local D="$TMP/$name"
  mkdir -p "$D"
  cp -r "$SRC/rules" "$D/rules"
  cat >"$D/r.txt" <<EOF
key Up
key Up
dump-state $D/r0.json
key F5
dump-state $D/r1.json
wait-file $D/broken
key ctrl+r
dump-state $D/r2.json
screenshot $D/r2.png
wait-file $D/fixed
key Escape
key F5
dump-state $D/r3.json
screenshot $D/r3.png
EOF
  view_bg -R "$D/rules" -r "$res" --no-session --size 1000x600 --script "$D/r.txt" "$log"
  await "$D/r1.json"
  cp "$D/rules/toppers_fmp.viz" "$D/good.viz"
  printf '{"broken": [\n' >"$D/rules/toppers_fmp.viz"
  touch "$D/broken"
  await "$D/r2.json"
  cp "$D/good.viz" "$D/rules/toppers_fmp.viz"
  touch "$D/fixed"
  view_wait
  expect_status 0 "$name: reload run"
  check "$name: F5 reloads keeping the view" \
    '.[1].visible == .[0].visible and .[1].events == .[0].events and
     (.[1].message | test("^reloaded"))' "$D/r0.json" "$D/r1.json"
  check "$name: a broken rule file: the last good trace kept, the error shown" \
    '.[1].events == .[0].events and .[1].visible == .[0].visible and .[1].load_errors > 0 and
     (.[1].message | test("the rules have errors: kept the last good trace"))' \
    "$D/r1.json" "$D/r2.json"
  expect_contains "$TMP/err" "toppers_fmp.viz" "$name: the broken file named on stderr"
  expect_count "$name: error banner" "$D/r2.png" 0 0 1000 300 ffe8e0 2000
  check "$name: fixed again, F5 loads it" \
    '.[1].events == .[0].events and .[1].visible == .[0].visible and .[1].load_errors == 0' \
    "$D/r1.json" "$D/r3.json"
  expect_count "$name: no banner after the fix" "$D/r3.png" 0 0 1000 300 ffe8e0 0 0
}

# Ctrl+O: another log with the same rules; a path that cannot be read keeps the prompt open.
head -n 300 "$SRC/samples/fmp/sample.log" >"$TMP/other.log"
cp "$SRC/samples/fmp/sample.log" "$TMP/first.log"
{
  printf 'mouse-move 500 100\nkey m\nkey ctrl+o\ndump-state %s\ntext .missing\nkey Return\ndump-state %s\n' \
    "$TMP/o0.json" "$TMP/o1.json"
  for _ in $(seq $(( ${#TMP} + 20 ))); do echo "key BackSpace"; done
  printf 'text %s\nkey Return\ndump-state %s\n' "$TMP/other.log" "$TMP/o2.json"
} >"$TMP/o.txt"
view -r "$SRC/samples/fmp/sample.res" --no-session --size 800x500 --script "$TMP/o.txt" "$TMP/first.log"
expect_status 0 "Ctrl+O run"
other_events=$("$TLV" convert -r "$SRC/samples/fmp/sample.res" "$TMP/other.log" 2>/dev/null | wc -l)
check "Ctrl+O: asks with the current path; a missing file keeps the prompt; another log opens" \
  ".[0].prompt != null and .[0].prompt.text == \"$TMP/first.log\" and
   .[1].prompt != null and (.[1].message | test(\"cannot read\")) and .[1].events == 1273 and
   .[2].prompt == null and .[2].events == $other_events and .[2].markers == [] and
   (.[2].message | test(\"^opened\")) and .[2].visible == .[2].trace" \
  "$TMP/o0.json" "$TMP/o1.json" "$TMP/o2.json"

live sample "$SRC/samples/fmp/sample.log" -r "$SRC/samples/fmp/sample.res"
reload sample_reload "$SRC/samples/fmp/sample.log" "$SRC/samples/fmp/sample.res"

# A FIFO: the viewer opens it before the writer does, and reads as it comes.
mkfifo "$TMP/fifo"
cat >"$TMP/f.txt" <<EOF
dump-state $TMP/f0.json
wait-events 600 20
dump-state $TMP/f1.json
EOF
view_bg -r "$SRC/samples/fmp/sample.res" --no-session --size 800x500 --script "$TMP/f.txt" "$TMP/fifo"
await "$TMP/f0.json"
exec 3>"$TMP/fifo"
head -n 300 "$SRC/samples/fmp/sample.log" >&3
exec 3>&-
view_wait
expect_status 0 "fifo run"
check "fifo: empty at first, then the lines written" \
  '.[0].events == 0 and .[0].live and .[1].events >= 600 and .[1].trace.t1 > .[1].trace.t0' \
  "$TMP/f0.json" "$TMP/f1.json"

# Standard input: the same from a pipe.
cat >"$TMP/i.txt" <<EOF
dump-state $TMP/i0.json
wait-file $TMP/igo
wait-events 1273 20
dump-state $TMP/i1.json
EOF
{ head -n 300 "$SRC/samples/fmp/sample.log"; while [ ! -s "$TMP/i0.json" ]; do sleep 0.05; done
  tail -n +301 "$SRC/samples/fmp/sample.log"; touch "$TMP/igo"; sleep 1; } |
  "$TLV" view -r "$SRC/samples/fmp/sample.res" \
    --size 800x500 --script "$TMP/i.txt" - >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 0 "stdin run"
check "stdin: the rest arrives while it runs" \
  '.[0].live and .[0].events < 1273 and .[1].events == 1273' "$TMP/i0.json" "$TMP/i1.json"

# A complete file whose last line has no line end (an editor saved it so): the
# line is shown, and nothing claims the log is still being written (issue 27.8).
head -c -1 "$SRC/samples/fmp/sample.log" >"$TMP/noend.log"
checks=$((checks + 1))
[ "$(tail -c 1 "$TMP/noend.log" | od -An -c | tr -d ' ')" != '\n' ] || fail "noend.log still ends a line"
cat >"$TMP/n.txt" <<EOF
wait-live-idle 20
dump-state $TMP/n0.json
EOF
view -r "$SRC/samples/fmp/sample.res" --no-session --size 800x500 --script "$TMP/n.txt" "$TMP/noend.log"
expect_status 0 "a complete file without a last line end"
check "a complete file without a last line end: all its events, no '(yet)'" \
  '.[0].events == 1273 and .[0].message == ""' "$TMP/n0.json"

if have_corpus; then
  cp "$CORPUS/logs/fmp/fmp_short.log" "$TMP/"
  live fmp_short "$TMP/fmp_short.log" -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res"
fi
finish
