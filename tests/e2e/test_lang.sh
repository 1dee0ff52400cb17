#!/bin/sh
# The rule-language extensions of issue 14 as a rule author meets them:
# $CALC{} arithmetic and $CLOCK{} wall-clock times in templates, times and
# conditions, with their errors naming the log line, the rule and the bad
# operand.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cat >a.resh <<'JSON'
{"a":{"Proc":{"Attributes":{"heap":{"VariableType":"Number","AllocationType":"Dynamic","Default":0},
  "big":{"VariableType":"String","AllocationType":"Dynamic","Default":"no"}},
  "Behaviors":{"call":{"Arguments":{"name":"String","size":"Number"}}}}}}
JSON
cat >a.cnv <<'JSON'
{"a":{
 "^(?<t>[\\d:.]+) calloc\\((?<n>[^,]*), (?<s>[^)]*)\\) = (?<p>\\S+)$": [
   "[$CLOCK{${t}}]P.call(calloc,$CALC{${n}*${s}})",
   "[$CLOCK{${t}}]P.heap=$CALC{$ATTR{P.heap}+${n}*${s}}",
   {"$CALC{${n}*${s}} >= 4096": "[$CLOCK{${t}}]P.big=yes"}
 ],
 "^(?<t>[\\d:.]+) rate (?<b>\\S+) (?<d>\\S+)$": "[$CLOCK{${t},ms}]P.call(rate,$CALC{${b}/${d}})",
 "^(?<d>\\d{4}-\\S+ [\\d:.]+) at$": "[$CLOCK{${d}}]P.big=dated"
}}
JSON
cat >a.res <<'JSON'
{"TimeScale":"us","ConvertRules":["a"],"ResourceHeaders":["a"],"Resources":{"P":{"Type":"Proc"}}}
JSON
cat >a.log <<'LOG'
23:59:59.999000 calloc(4, 1024) = 0x1
00:00:00.000500 calloc(0x10, 2) = 0x2
00:00:01 calloc(x, 2) = 0
00:00:02 rate 10 0
25:00:00 calloc(1, 1) = 0
00:00:03 rate 3 4
2024-03-01 12:34:56.789012 at
LOG

run "$TLV" convert -R . -r a.res a.log
expect_status 1 "conversion with arithmetic errors"
cat >want <<'STD'
[86399999000]P.call(calloc,4096)
[86399999000]P.heap=4096
[86399999000]P.big=yes
[86400000500]P.call(calloc,32)
[86400000500]P.heap=4128
[86403000]P.call(rate,0.75)
[1709296496789012]P.big=dated
STD
checks=$((checks + 1)); diff want "$TMP/out" >/dev/null || fail "arithmetic, clock times, midnight wrap, condition: $(diff want "$TMP/out")"
R='rule "^(?<t>[\d:.]+) calloc\((?<n>[^,]*), (?<s>[^)]*)\) = (?<p>\S+)$"'
expect_line "$TMP/err" "a.log:3: error: $R: \$CALC{x*2}: 'x' is not a number (column 1)" "bad operand"
expect_line "$TMP/err" 'a.log:4: error: rule "^(?<t>[\d:.]+) rate (?<b>\S+) (?<d>\S+)$": $CALC{10/0}: division by zero (column 3)' "division by zero"
expect_line "$TMP/err" "a.log:5: error: $R: \$CLOCK{25:00:00}: '25:00:00' is not a clock time: hour 25 is out of range (0-23)" "bad clock time"

# A TimeScale that is no unit of time needs the unit named.
sed 's/"us"/"cycles"/' a.res >c.res
run "$TLV" convert -R . -r c.res a.log
expect_line "$TMP/err" "a.log:1: error: $R: \$CLOCK{23:59:59.999000}: TimeScale 'cycles' is not s, ms, us or ns (name the unit: \$CLOCK{time,us})" "TimeScale cycles"
expect_line "$TMP/out" '[3000]P.call(rate,0.75)' "a unit given works with any TimeScale"

# tlv check knows the new macros (and does not read their arguments as resources).
run "$TLV" check -R . a.res
expect_status 0 "check accepts \$CALC and \$CLOCK"
mkdir bad
sed 's/CALC{\${b}/CALK{${b}/' a.cnv >bad/a.cnv
cp a.resh bad/
run "$TLV" check -R bad a.res
expect_status 1 "check: unknown macro"
expect_contains "$TMP/err" 'unknown macro $CALK in "[$CLOCK{${t},ms}]P.call(rate,$CALK{${b}/${d}})" (known: $EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, $RES_COLOR, $SUM, $CALC, $CLOCK)' "check names the known macros"

finish
