#!/usr/bin/env bash
# test_export.sh — tlv export --format csv on the mini rule set: the header,
# known rows (quoting per RFC 4180, CRLF line ends, When instants with a zero
# duration), one row per distinct shape group of `tlv shapes`; every format
# of libtlv-export's table (as `tlv export --help` lists them) written on the
# mini rules, the shapes and flows formats equal to `tlv shapes`; and the
# usage errors of tlv export, built from the same table. The Chrome JSON is
# checked by tests/unit/test_export.c and test_chrome.sh.
. "$(dirname "$0")/lib.sh"

MINI="$SRC/tests/e2e/mini"
R=(-R "$MINI" -r "$MINI/mini.res")

run "$TLV" export --format csv "${R[@]}" "$MINI/mini.log" -o "$TMP/out.csv"
expect_status 0 "export --format csv"
tr -d '\r' <"$TMP/out.csv" >"$TMP/csv"
checks=$((checks + 1))
[ "$(grep -c $'\r$' "$TMP/out.csv")" -eq "$(wc -l <"$TMP/out.csv")" ] || fail "csv: not every line ends with CRLF"
checks=$((checks + 1))
[ "$(head -1 "$TMP/csv")" = "rule,event,resource,start,end,duration,value" ] || fail "csv header: $(head -1 "$TMP/csv")"
expect_line "$TMP/csv" 'calls,call,ctrl,150,180,30,"read(a, b)"' "csv: a text with a comma is quoted"
expect_line "$TMP/csv" 'calls,call,log,620,650,30,"print(""x"")"' "csv: quotes are doubled"
expect_line "$TMP/csv" 'calls,call,ctrl,380,520,140,sleep(10)' "csv: a plain text"
expect_line "$TMP/csv" 'taskState,state,ctrl,100,300,200,RUNNING' "csv: the From event's value"
expect_line "$TMP/csv" 'taskState,state,log,100,250,150,WAITING' "csv: the initial value from the trace start"
expect_line "$TMP/csv" 'irq,fire,TIMER,200,200,0,RUNNING' "csv: a When instant"

# An interval a behavior opens without drawing text: its value is the
# behavior's arguments, unescaped, joined with commas (shapes.h).
mkdir -p "$TMP/bare"
cp "$MINI/mini.resh" "$TMP/bare/"
sed 's/, "label(${FROM_ARG0})"//' "$MINI/mini.viz" >"$TMP/bare/mini.viz"
sed 's/"ConvertRules": \["mini"\]/"ConvertRules": [""]/' "$MINI/mini.res" >"$TMP/bare/std.res"
printf '%s\n' '[100]ctrl.state=RUNNING' '[150]ctrl.call(dly_tsk, dlytim=10)' '[180]ctrl.back()' \
    '[200]log.call(read\(a\, b\))' '[250]log.back()' '[300]ctrl.call()' '[310]ctrl.back()' >"$TMP/bare/t.log"
run "$TLV" export -f csv -R "$TMP/bare" -r "$TMP/bare/std.res" "$TMP/bare/t.log"
expect_status 0 "export csv of bare behavior intervals"
tr -d '\r' <"$TMP/out" >"$TMP/bare.csv"
expect_line "$TMP/bare.csv" 'calls,call,ctrl,150,180,30,"dly_tsk,dlytim=10"' "csv: a behavior's arguments joined"
expect_line "$TMP/bare.csv" 'calls,call,log,200,250,50,"read(a, b)"' "csv: one argument, unescaped"
expect_line "$TMP/bare.csv" 'calls,call,ctrl,300,310,10,' "csv: a behavior without arguments has no value"
run "$TLV" export -R "$TMP/bare" -r "$TMP/bare/std.res" "$TMP/bare/t.log"
expect_status 0 "export chrome of bare behavior intervals"
expect_contains "$TMP/out" '"name":"dly_tsk,dlytim=10","cat":"calls","ph":"X","ts":150,"dur":30' "chrome: named by the arguments"
expect_contains "$TMP/out" '"args":{"event":"call","resource":"ctrl","value":"dly_tsk,dlytim=10"' "chrome: the value in args"
expect_contains "$TMP/out" '"name":"call","cat":"calls","ph":"X","ts":300,"dur":10' "chrome: no arguments, named by the event"

# One row per group of primitives drawn by one event over one interval.
run "$TLV" shapes "${R[@]}" "$MINI/mini.log"
expect_status 0 "shapes"
groups="$(sed 's/,"type":.*"row":\([0-9]*\)}$/ \1/' "$TMP/out" | sort -u | wc -l)"
checks=$((checks + 1))
[ "$(($(wc -l <"$TMP/csv") - 1))" -eq "$groups" ] || fail "csv: $(($(wc -l <"$TMP/csv") - 1)) rows for $groups shape groups"

# The same from standard input, to standard output.
run "$TLV" export -f csv "${R[@]}" - <"$MINI/mini.log"
expect_status 0 "export csv from stdin"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/out.csv" || fail "csv from stdin differs"

# Every format of the table: `tlv export --help` lists them (name, help,
# "(needs -o FILE)" for a file format) under --format; each writes the
# TOPPERS sample without a word on standard error, and the unknown-format
# error names them all.
run "$TLV" export --help
expect_status 0 "export --help"
awk '/^  -f, --format NAME/ { on = 1; next } on && /^      [a-z]/ { print $1, ($0 ~ /needs -o FILE/) } on && !/^      [a-z]/ { on = 0 }' \
  "$TMP/out" >"$TMP/formats"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/formats")" -ge 5 ] || fail "export --help lists $(wc -l <"$TMP/formats") formats: $(cat "$TMP/formats")"
ASP=(-r "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log") # it has flows
names=()
while read -r name file; do
  names+=("$name")
  if [ "$file" = 1 ]; then
    run "$TLV" export -f "$name" "${ASP[@]}"
    expect_status 2 "format $name to standard output"
    expect_contains "$TMP/err" "--format $name writes a database file: give -o FILE" "format $name needs -o"
    run "$TLV" export -f "$name" "${ASP[@]}" -o "$TMP/format.$name"
  else
    run "$TLV" export -f "$name" "${ASP[@]}"
    cp "$TMP/out" "$TMP/format.$name"
  fi
  expect_status 0 "format $name"
  checks=$((checks + 1))
  [ -s "$TMP/format.$name" ] && [ ! -s "$TMP/err" ] || fail "format $name: empty output or a message: $(head -3 "$TMP/err")"
done <"$TMP/formats"
list="$(printf '%s, ' "${names[@]:0:${#names[@]}-1}")"
list="${list%, } or ${names[${#names[@]}-1]}"
run "$TLV" export --format=xml "${ASP[@]}"
expect_status 2 "unknown format"
expect_contains "$TMP/err" "unknown format 'xml' ($list)" "unknown format message names every format"
run "$TLV" shapes "${ASP[@]}"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/format.shapes" || fail "export -f shapes differs from tlv shapes"
run "$TLV" shapes --flows "${ASP[@]}"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/format.flows" || fail "export -f flows differs from tlv shapes --flows"
checks=$((checks + 1))
[ "$(head -c 15 "$TMP/format.sqlite")" = "SQLite format 3" ] || fail "format sqlite: not a database"
run "$TLV" export "$MINI/mini.log"
expect_status 2 "no resource file"
expect_contains "$TMP/err" "a resource file is needed" "no resource file message"
run "$TLV" export "${R[@]}" --us-per-unit 0 "$MINI/mini.log"
expect_status 2 "bad --us-per-unit"
run "$TLV" export --help
expect_status 0 "export --help"
expect_contains "$TMP/out" "Chrome Trace Event JSON" "export --help text"

# Chrome: times in microseconds from the TimeScale (ms here), or as told.
sed 's/"TimeScale": "us"/"TimeScale": "ms"/' "$MINI/mini.res" >"$TMP/ms.res"
run "$TLV" export -R "$MINI" -r "$TMP/ms.res" "$MINI/mini.log"
expect_status 0 "export with TimeScale ms"
expect_contains "$TMP/out" '"name":"sleep(10)","cat":"calls","ph":"X","ts":380000,"dur":140000' "ms to us"
sed 's/"TimeScale": "us"/"TimeScale": "cycles"/' "$MINI/mini.res" >"$TMP/cy.res"
run "$TLV" export -R "$MINI" -r "$TMP/cy.res" "$MINI/mini.log" --us-per-unit 0.5
expect_status 0 "export with --us-per-unit"
expect_contains "$TMP/out" '"ts":190,"dur":70' "--us-per-unit"

finish
