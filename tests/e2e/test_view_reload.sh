#!/usr/bin/env bash
# test_view_reload.sh — rule files edited into an invalid state while
# `tlv view` shows a trace, then reloaded (F5, Ctrl+R): the last good trace
# stays on screen (same events, same range, its shapes drawn), the errors are
# shown in the window's banner (exactly as `tlv check` words them) and the
# status line; fixed on disk and reloaded, the view recovers (no banner, the
# trace read with the fixed rules). Three ways to break them: a conversion
# regex that does not compile, a resource file that is not JSON, a
# visualization rule file cut short (an editor's half-saved file). Headless (Xvfb), driven by --script while
# this shell edits the files; skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"

D="$TMP/r"
mkdir -p "$D"
cp -r "$SRC/rules" "$D/rules"
cp "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log" "$D/"
events=$("$TLV" convert -r "$D/sample.res" "$D/sample.log" 2>/dev/null | wc -l)

cat >"$D/s.txt" <<EOF
key Up
dump-state $D/r0.json
EOF
for k in 1 2 3; do
  key=F5
  [ "$k" = 2 ] && key=ctrl+r
  cat >>"$D/s.txt" <<EOF
wait-file $D/broken$k
key $key
dump-state $D/b$k.json
screenshot $D/b$k.png
wait-file $D/fixed$k
key $key
dump-state $D/f$k.json
screenshot $D/f$k.png
EOF
done

"$TLV" view -R "$D/rules" -r "$D/sample.res" --no-session \
  --size 1000x600 --script "$D/s.txt" "$D/sample.log" >"$TMP/out" 2>"$TMP/err" &
pid=$!
await() { for _ in $(seq 400); do [ -s "$1" ] && return 0; sleep 0.05; done; fail "no $1"; }

# break K WHAT: the rules broken on disk (by the commands given), checked
# with `tlv check` for the expected first error, the viewer told to reload.
break_rules() {
  local k=$1
  shift
  "$@"
  "$TLV" check -R "$D/rules" -r "$D/sample.res" >/dev/null 2>"$D/check$k.txt"
  touch "$D/broken$k"
  await "$D/b$k.json"
}
fix_rules() {
  rm -rf "$D/rules" && cp -r "$SRC/rules" "$D/rules" && cp "$SRC/samples/asp/sample.res" "$D/"
  touch "$D/fixed$1"
  await "$D/f$1.json"
}

await "$D/r0.json"
break_rules 1 sed -i '3s/dispatch to task (?<id>/dispatch to task ((?<id>/' "$D/rules/toppers_asp.cnv"
fix_rules 1
break_rules 2 sh -c "printf '{\"TimeScale\": \"us\",\n  \"Resources\": {' >'$D/sample.res'"
fix_rules 2
break_rules 3 sh -c "head -c 3000 '$SRC/rules/toppers_common.viz' >'$D/rules/toppers_common.viz'"
fix_rules 3
wait "$pid"
status=$?
expect_status 0 "the viewer ran its script"

check "the trace before: all its events" ".[0].events == $events and .[0].banner == []" "$D/r0.json"
for k in 1 2 3; do
  first=$(grep ": error: " "$D/check$k.txt" | head -1)
  checks=$((checks + 1))
  [ -n "$first" ] || fail "case $k: tlv check found no error: $(cat "$D/check$k.txt")"
  check "case $k: the last good trace kept, the errors in the banner and the status line" \
    ".[1].events == .[0].events and .[1].visible == .[0].visible and .[1].load_errors > 0 and
     .[1].message == \"the rules have errors: kept the last good trace\" and
     .[1].banner[0] == $(jq -Rn --arg s "$first" '$s')" "$D/r0.json" "$D/b$k.json"
  expect_contains "$TMP/err" "$first" "case $k: the error on stderr"
  expect_count "case $k: the error banner drawn" "$D/b$k.png" 0 0 1000 300 ffe8e0 2000
  # the shapes still drawn: the running tasks' green boxes in the timeline
  expect_count "case $k: the last good shapes still drawn" "$D/b$k.png" 200 60 1000 500 99e599 5000
  check "case $k: fixed and reloaded: recovered" \
    ".[1].events == .[0].events and .[1].visible == .[0].visible and .[1].load_errors == 0 and
     .[1].banner == [] and (.[1].message | test(\"^reloaded .* \\\\($events events\\\\)$\"))" \
    "$D/r0.json" "$D/f$k.json"
  expect_count "case $k: no banner after the fix" "$D/f$k.png" 0 0 1000 300 ffe8e0 0 0
done
[ -n "${TLV_KEEP_SHOTS:-}" ] && cp "$D/b1.png" "$TLV_KEEP_SHOTS/reload-broken.png" &&
  cp "$D/f1.png" "$TLV_KEEP_SHOTS/reload-fixed.png"
finish
