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
expect_contains "$TMP/err" 'unknown macro $CALK in "[$CLOCK{${t},ms}]P.call(rate,$CALK{${b}/${d}})" (known: $EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, $RES_COLOR, $SUM, $CALC, $CLOCK, $OUTCOME)' "check names the known macros"

# Unmatched lines are never silent: the summary names the first few, and
# --unmatched FILE lists every one with its line number, on every command
# that converts.
printf 'junk one\n\n00:00:05 rate 1 2\nmore junk\n00:00:06 rate 1 4\nthird junk\nfourth junk\n' >b.log
run "$TLV" convert -R . -r a.res b.log
expect_status 0 "unmatched lines are no error"
expect_line "$TMP/err" 'tlv: 4 lines matched no rule (--unmatched FILE lists them all):' "summary counts them"
expect_line "$TMP/err" '  line 1: junk one' "first unmatched"
expect_line "$TMP/err" '  line 6: third junk' "third unmatched"
expect_line "$TMP/err" '  ... and 1 more' "the rest counted"
checks=$((checks + 1)); grep -q 'line 2:' "$TMP/err" && fail "a blank line was listed"
run "$TLV" convert -q -R . -r a.res b.log --unmatched um.txt
checks=$((checks + 1)); [ -s "$TMP/err" ] && fail "-q still names unmatched lines: $(cat "$TMP/err")"
printf '1: junk one\n4: more junk\n6: third junk\n7: fourth junk\n' >want.um
checks=$((checks + 1)); diff want.um um.txt >/dev/null || fail "--unmatched file: $(diff want.um um.txt)"
for cmd in shapes stats "export --format csv" render; do
  rm -f um.txt
  run "$TLV" $cmd -R . -r a.res b.log --unmatched=um.txt -o out.any
  checks=$((checks + 1)); diff want.um um.txt >/dev/null || fail "$cmd --unmatched: $(cat um.txt 2>&1)"
  expect_line "$TMP/err" 'tlv: 4 lines matched no rule (all listed in um.txt):' "$cmd names the file"
done
run "$TLV" convert -R . -r a.res b.log --unmatched /nonexistent/dir/um.txt
expect_status 2 "--unmatched into a missing directory"
expect_line "$TMP/err" "tlv: cannot write '/nonexistent/dir/um.txt': No such file or directory" "unwritable --unmatched"
run "$TLV" convert -R . -r a.res b.log --unmatched
expect_status 2 "--unmatched without a file"
expect_line "$TMP/err" 'tlv: option --unmatched needs a file name' "--unmatched needs a value"

# tlv check LOG: matches per rule, a rule that matched nothing, unmatched lines.
run "$TLV" check -R . -r a.res b.log
expect_status 0 "check LOG without errors"
expect_line "$TMP/err" "./a.cnv:2:2: warning: rule \"^(?<t>[\\d:.]+) calloc\\((?<n>[^,]*), (?<s>[^)]*)\\) = (?<p>\\S+)\$\" matched no line of b.log" "a rule that matched nothing"
expect_line "$TMP/err" './a.cnv:7:2: rule "^(?<t>[\d:.]+) rate (?<b>\S+) (?<d>\S+)$": 2 lines' "matches per rule"
expect_line "$TMP/err" '  line 7: fourth junk' "check lists the unmatched lines"
expect_line "$TMP/err" 'tlv check: 7 lines read, 2 matched, 2 events, 0 errors, 2 rules matched nothing' "check LOG summary"
run "$TLV" check -R . -r a.res a.log
expect_status 1 "check LOG with conversion errors"
expect_contains "$TMP/err" "a.log:4: error: rule" "check LOG shows the errors"
run "$TLV" check -R . -r a.res a.log b.log
expect_status 2 "check: two logs"

# The tail trap: a match that stops before the end of the line keeps the rest
# after each output. tlv check warns for a "^..." regex that may stop early;
# conversion warns once per rule when a tail was really glued on.
cat >tr.cnv <<'JSON'
{"tr":{"^(?<t>\\d+) write\\((?<fd>\\d+)\\) = (?<r>\\d+)": "[${t}]P.call(write,${r})",
 "^(?<t>\\d+) ok (?<r>\\d+)$": "[${t}]P.call(ok,${r})",
 "^(?<t>\\d+) all .*": "[${t}]P.call(all,1)",
 "^(?<t>\\d+) lazy .*?": "[${t}]P.call(lazy,1)",
 "(?<t>\\d+) tlvstyle (?<r>\\d+)": "[${t}]P.call(tlv,${r})"}}
JSON
sed 's/"ConvertRules":\["a"\]/"ConvertRules":["tr"]/' a.res >tr.res
printf '5 write(1) = 1000 <0.000126>\n6 write(1) = 1000 <0.000127>\n7 ok 3\n8 all foo\n9 tlvstyle 4\n' >tr.log
run "$TLV" convert -R . -r tr.res tr.log
expect_status 1 "the glued tail breaks the event"
W='rule "^(?<t>\d+) write\((?<fd>\d+)\) = (?<r>\d+)"'
expect_line "$TMP/err" "tr.log:1: warning: $W: the match ends before the end of the line, so ' <0.000126>' is kept after each of its outputs (end the regex with .*\$ to drop it); said once per rule" "tail warning"
expect_line "$TMP/err" "tr.log:1: error: $W: '[5]P.call(write,1000) <0.000126>' is not a standard-form event: unexpected text after ')' (column 23)" "the tail in the output"
checks=$((checks + 1)); [ "$(grep -c 'warning:' "$TMP/err")" -eq 1 ] || fail "tail warned more than once per rule: $(cat "$TMP/err")"
expect_line "$TMP/out" '[9]P.call(tlv,4)' "a whole-line match has no tail"
run "$TLV" check -R . -r tr.res
expect_status 0 "tail trap is a warning"
expect_line "$TMP/err" "./tr.cnv:1:8: warning: regex \"^(?<t>\\d+) write\\((?<fd>\\d+)\\) = (?<r>\\d+)\" may end before the end of the line: the rest of the line is then kept after every output (\"size=1000 <0.000126>\"); end it with \$ (or .*\$ to drop the rest)" "check warns"
expect_contains "$TMP/err" 'regex "^(?<t>\d+) lazy .*?" may end before' "a lazy .*? at the end is a trap"
expect_line "$TMP/err" "tlv check: 0 errors, 2 warnings" "anchored, greedy .* and TLV-style rules pass"

# Expected errors: $OUTCOME{failed; expected} classes a call's end as ok,
# expected (EAGAIN, EINTR, a futex timeout) or error, for rules to colour.
cat >o.resh <<'JSON'
{"o":{"T":{"Attributes":{},"Behaviors":{"ret":{"Arguments":{"name":"String","result":"String","class":"String"}}}}}}
JSON
cat >o.cnv <<'JSON'
{"o":{"^(?<t>\\d+) (?<name>\\w+) = (?<ret>-?\\d+) ?(?<errno>E[A-Z]*)?$":
  "[${t}]T1.ret(${name},${ret},$OUTCOME{${ret}<0; ${errno}==EAGAIN || ${errno}==EINTR || (${name}==futex && ${errno}==ETIMEDOUT)})",
  "^(?<t>\\d+) bad (?<c>.*)$": "[${t}]T1.ret(bad,0,$OUTCOME{${c}})"}}
JSON
cat >o.res <<'JSON'
{"ConvertRules":["o"],"ResourceHeaders":["o"],"Resources":{"T1":{"Type":"T"}}}
JSON
printf '1 read = 5\n2 read = -1 EAGAIN\n3 futex = -1 ETIMEDOUT\n4 open = -1 ENOENT\n5 poll = -1 ETIMEDOUT\n6 bad 1==1\n7 bad 1==; (x\n' >o.log
run "$TLV" convert -R . -r o.res o.log
expect_status 1 "outcome errors"
cat >want <<'STD'
[1]T1.ret(read,5,ok)
[2]T1.ret(read,-1,expected)
[3]T1.ret(futex,-1,expected)
[4]T1.ret(open,-1,error)
[5]T1.ret(poll,-1,error)
STD
checks=$((checks + 1)); diff want "$TMP/out" >/dev/null || fail "outcome classes: $(diff want "$TMP/out")"
expect_line "$TMP/err" "o.log:6: error: rule \"^(?<t>\\d+) bad (?<c>.*)\$\": \$OUTCOME{1==1}: expected two conditions separated by ';' (failed; expected)" "one condition"
expect_line "$TMP/err" "o.log:7: error: rule \"^(?<t>\\d+) bad (?<c>.*)\$\": \$OUTCOME{1==; (x}: the expected condition ' (x': expected an operator such as '==' after 'x'" "a malformed condition"

# Counters: tlv stats reports them, tlv export --format chrome writes "ph":"C".
T="$SRC/samples/tutorial"
run "$TLV" stats -R "$T" -r "$T/nrtos_bytes.res" "$T/nrtos.log"
expect_status 0 "stats with a counter"
expect_line "$TMP/out" 'Counters (time-weighted over the trace, in us):' "counter table"
expect_line "$TMP/out" 'logger    sent           2    0   12     6               9.046' "logger's bytes"
run "$TLV" stats --json -R "$T" -r "$T/nrtos_bytes.res" "$T/nrtos.log"
expect_contains "$TMP/out" '"timeWeightedMean":	9.046153846153846' "JSON counters"
run "$TLV" stats -R "$T" -r "$T/nrtos.res" "$T/nrtos.log"
checks=$((checks + 1)); grep -q Counters "$TMP/out" && fail "a rule set without counters printed a counter table"
run "$TLV" export --format chrome -R "$T" -r "$T/nrtos_bytes.res" "$T/nrtos.log"
expect_status 0 "chrome export with a counter"
expect_contains "$TMP/out" '{"name":"logger Bytes sent","ph":"C","ts":1900,"pid":1,"args":{"sent":12}}' "counter event"
expect_contains "$TMP/out" '{"name":"blink Bytes sent","ph":"C","ts":1100,"pid":1,"args":{"sent":0}}' "initial value"
checks=$((checks + 1)); python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" || fail "chrome export is not JSON"

finish
