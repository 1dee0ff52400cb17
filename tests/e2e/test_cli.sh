# The tlv command as a user meets it: usage errors, unreadable inputs, rule
# errors, conversion errors with their line, rule and macro, exit statuses,
# -o, standard input, and tlv check listing every problem.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"id":{"VariableType":"Number","AllocationType":"Static"},
  "state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}},
  "Behaviors":{"hello":{"Arguments":{"who":"String"}}}}}}
JSON
cat >k.cnv <<'JSON'
{
  "k": {
    "^(?<t>\\d+) run (?<id>\\d+)$": "[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING",
    "^(?<t>\\d+) hi (?<who>.*)$": "[${t}]A.hello(${who})"
  }
}
JSON
cat >k.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],
 "Resources":{"A":{"Type":"Task","Attributes":{"id":1}},"B":{"Type":"Task","Attributes":{"id":2}},
              "C":{"Type":"Task","Attributes":{"id":2}}}}
JSON
printf '1 run 1\n2 run 7\n3 run 2\nnoise\n4 hi big world, (x)\n' >k.log

# Conversion errors: reported with file, line, rule and macro; the run goes on; exit 1.
run "$TLV" convert -R . -r k.res k.log
expect_status 1 "conversion with errors"
expect_line "$TMP/out" '[1]A.state=RUNNING' "first event"
expect_line "$TMP/out" '[4]A.hello(big world,\(x\))' "inner spaces kept, parentheses escaped"
expect_line "$TMP/err" 'k.log:2: error: rule "^(?<t>\d+) run (?<id>\d+)$": $RES_NAME{Task(id==7)}: no resource matches; exactly one is needed' "zero matches"
expect_line "$TMP/err" 'k.log:3: error: rule "^(?<t>\d+) run (?<id>\d+)$": $RES_NAME{Task(id==2)}: 2 resources match (B, C); exactly one is needed' "two matches"
expect_contains "$TMP/err" 'tlv: 5 lines read, 4 matched, 2 events written, 2 errors, ' "summary"

# --max-errors limits what is printed and says how many are not shown.
run "$TLV" convert -R . -r k.res k.log --max-errors 1
expect_line "$TMP/err" '... and 1 more problem not shown' "max-errors"

# --threads 1 (the serial path) and 2 write the same trace and errors; a
# long log goes through the matching thread, which the summary reports.
run "$TLV" convert --threads 1 -R . -r k.res k.log -o one.std
expect_status 1 "convert --threads 1"
cp "$TMP/err" one.err
run "$TLV" convert --threads 2 -R . -r k.res k.log -o two.std
expect_status 1 "convert --threads 2"
checks=$((checks + 1)); cmp -s one.std two.std || fail "--threads 1 and 2 write different traces"
checks=$((checks + 1))
[ "$(grep -v 'lines read' one.err)" = "$(grep -v 'lines read' "$TMP/err")" ] || fail "--threads 1 and 2 report differently"
awk '{ for (i = 0; i < 5000; i++) print }' k.log >long.log
run "$TLV" convert --threads 2 -R . -r k.res long.log -o long2.std --max-errors 0
expect_contains "$TMP/err" "errors, " "long log summary"
expect_contains "$TMP/err" "(matching thread " "the matching thread ran"
run "$TLV" convert --threads 1 -R . -r k.res long.log -o long1.std --max-errors 0
checks=$((checks + 1)); cmp -s long1.std long2.std || fail "--threads 1 and 2 differ on a long log"
checks=$((checks + 1)); grep -q "matching thread" "$TMP/err" && fail "--threads 1 used a matching thread"
run "$TLV" convert --threads 3 -R . -r k.res k.log
expect_status 2 "--threads 3"
expect_contains "$TMP/err" "--threads needs 1 or 2, got '3'" "--threads 3 message"

# -q: no summary.
run "$TLV" convert -q -R . -r k.res k.log
checks=$((checks + 1)); grep -q "lines read" "$TMP/err" && fail "-q still prints the summary"

# -o writes the file and leaves no temporary file behind.
run "$TLV" convert -q -R . -r k.res k.log -o trace.std
expect_status 1 "convert -o"
expect_line trace.std '[1]A.state=RUNNING' "-o output"
checks=$((checks + 1)); [ "$(ls | grep -c '\.tmp\.')" -eq 0 ] || fail "temporary output left behind"

# An output that is not a regular file (a FIFO here, /dev/null for users) is
# written in place, never replaced by renaming a temporary file over it.
mkfifo pipe
cat pipe >from_pipe &
run "$TLV" convert -q -R . -r k.res k.log -o pipe
wait
checks=$((checks + 1)); [ -p pipe ] || fail "-o FIFO: the FIFO was replaced"
expect_line from_pipe '[1]A.state=RUNNING' "-o FIFO output"

# Standard input.
run sh -c "printf '9 run 1\n' | '$TLV' convert -q -R . -r k.res -"
expect_status 0 "stdin"
expect_line "$TMP/out" '[9]A.state=RUNNING' "stdin output"

# Usage errors and unreadable inputs: exit 2 with a clear message.
run "$TLV" convert -R . k.log
expect_status 2 "no -r"
expect_line "$TMP/err" 'tlv convert: a resource file is needed: -r FILE.res' "no -r message"
run "$TLV" convert -R . -r k.res nope.log
expect_status 2 "missing log"
expect_line "$TMP/err" "tlv: cannot open the log 'nope.log': No such file or directory" "missing log message"
run "$TLV" convert -R . -r k.res k.log --bogus
expect_status 2 "unknown option"
expect_line "$TMP/err" "tlv convert: unknown option '--bogus'" "unknown option message"
run "$TLV" convert -R . -r nope.res k.log
expect_status 2 "missing res"
expect_line "$TMP/err" "nope.res: error: cannot read the resource file: No such file or directory" "missing res message"
run "$TLV" frobnicate
expect_status 2 "unknown command"
expect_line "$TMP/err" "tlv: unknown command 'frobnicate'" "unknown command message"

# Rule errors stop before converting: a target that no file provides.
run "$TLV" convert -R /nonexistent -r k.res k.log
expect_status 2 "missing target"
expect_contains "$TMP/err" "k.res:1:35: error: target 'k' (ConvertRules) is not in any .cnv file of the rule path (searched: /nonexistent" "missing target message"

# Help is complete and exits 0.
run "$TLV" --help
expect_status 0 "tlv --help"
expect_contains "$TMP/out" "convert   convert a log into a standard-form trace" "main help"
run "$TLV" convert --help
expect_status 0 "convert --help"
expect_contains "$TMP/out" "Exit status: 0 converted without errors; 1 trace written but some lines had" "convert help"
run "$TLV" check --help
expect_status 0 "check --help"

# tlv check lists every problem, not only the first. (The broken files live
# in their own directory: in the rule path they would merge into target k.)
mkdir bad && cd bad
printf '{\n  "k": {\n    "(unclosed": "[1]A.state=X",\n    "^(?<t>\\\\d+) x$": "[${t}]$RES_NAM{Task(id==1)}.state=X",\n    "^(?<t>\\\\d+) y$": "[${t}]A.state=${nosuch}"\n  }\n}\n' >bad.cnv
printf '{\n  "k": {\n    "Task": {"Attributes": {"id": {"VariableType": "Numbr"}}\n  }\n' >bad.resh
printf '{"k":{"Task":{"Attributes":{"id":{"VariableType":"Numbr","AllocationType":"Sometimes"}}}}}\n' >bad2.resh
run "$TLV" check bad.cnv bad.resh bad2.resh ../k.cnv
expect_status 1 "check with errors"
expect_line "$TMP/err" 'bad.cnv:3:5: error: regex "(unclosed" does not compile: missing closing parenthesis at character 10' "bad regex"
expect_line "$TMP/err" 'bad.cnv:4:23: error: unknown macro $RES_NAM in "[${t}]$RES_NAM{Task(id==1)}.state=X" (known: $EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, $RES_COLOR, $SUM, $CALC, $CLOCK, $OUTCOME)' "unknown macro"
expect_line "$TMP/err" "bad.cnv:5:23: warning: \${nosuch} names no group of the rule's regex and is kept as text in \"[\${t}]A.state=\${nosuch}\"" "unknown group"
expect_line "$TMP/err" "bad.resh:5:1: error: expected ',' or '}' after an object member, found end of file" "malformed JSON"
expect_line "$TMP/err" "bad2.resh:1:50: error: attribute 'id': unknown VariableType 'Numbr' (expected String, Number or Boolean)" "bad VariableType"
expect_line "$TMP/err" "bad2.resh:1:75: error: attribute 'id': unknown AllocationType 'Sometimes' (expected Static or Dynamic)" "bad AllocationType"
# bad2.resh declares a Task without "state", so k.cnv's use of it is reported too.
expect_line "$TMP/err" "../k.cnv:3:37: error: type 'Task' has no attribute 'state' (in \"[\${t}]\$RES_NAME{Task(id==\${id})}.state=RUNNING\")" "reference against the checked headers"
expect_line "$TMP/err" "tlv check: 6 errors, 1 warning" "check summary"
cd ..
run "$TLV" check -R . -r k.res
expect_status 0 "check a good resource file"
run "$TLV" check
expect_status 2 "check without files"

# References to types, attributes, behaviors, resources and shapes are checked
# where they are written literally.
mkdir refs
cp k.resh refs/
cat >refs/k.cnv <<'JSON'
{"k":{
 "^(?<t>\\d+) a (?<id>\\d+)$": ["[${t}]$RES_NAME{Tsk(id==${id})}.state=X", "[${t}]$RES_NAME{Task(id==${id})}.stat=X", "[${t}]A.hi()", "[${t}]A.hello(x)"],
 "^(?<t>\\d+) b$": {"$ATTR{A.nope}==1": "[${t}]Nobody.state=1"}
}}
JSON
cat >refs/k.viz <<'JSON'
{"k":{"Shapes":{"s1":[{"Type":"Line","Points":["0,0","1,1"]}]},
 "VisualizeRules":{"r":{"Target":"Task","Shapes":{"e":{"From":"${TARGET}.stte","To":"${TARGET}.state","Figures":["s1","s2(1)"]}}}}}}
JSON
printf '{"ConvertRules":["k"],"ResourceHeaders":["k"],"VisualizeRules":["k"],"Resources":{"A":{"Type":"Task"}}}\n' >refs/k.res
run "$TLV" check -R refs -r refs/k.res
expect_status 1 "check references"
expect_line "$TMP/err" "refs/k.cnv:2:33: error: no resource type named 'Tsk' (in \"[\${t}]\$RES_NAME{Tsk(id==\${id})}.state=X\")" "unknown type"
expect_line "$TMP/err" "refs/k.cnv:2:76: error: type 'Task' has no attribute 'stat' (in \"[\${t}]\$RES_NAME{Task(id==\${id})}.stat=X\")" "unknown attribute"
expect_line "$TMP/err" "refs/k.cnv:2:119: error: type 'Task' has no behavior 'hi' (in \"[\${t}]A.hi()\")" "unknown behavior"
expect_line "$TMP/err" "refs/k.cnv:3:41: error: type 'Task' has no attribute 'nope' (in \"\$ATTR{A.nope}==1\")" "unknown attribute in \$ATTR"
expect_line "$TMP/err" "refs/k.cnv:3:41: error: no resource or resource type named 'Nobody' (in \"[\${t}]Nobody.state=1\")" "unknown resource"
expect_line "$TMP/err" "refs/k.viz:2:63: error: type 'Task' has no attribute 'stte' (in \"\${TARGET}.stte\")" "unknown attribute in a pattern"
expect_line "$TMP/err" "refs/k.viz:2:119: error: rule 'r': figure 's2' names no shape of the requested targets" "unknown shape"
expect_line "$TMP/err" "tlv check: 7 errors, 0 warnings" "reference check summary"
# An unknown macro (one not in macro.c's table) stops convert when the rules
# load, before any line is read, with the file, line and column of the rule.
mkdir umac
sed 's/\$RES_NAME{Task(id==${id})}\.state=RUNNING/$RES_NAME{Task(id==${id})}.state=$RES_COLOUR{A}/' k.cnv >umac/k.cnv
cp k.resh k.res umac/
run "$TLV" convert -R umac -r umac/k.res k.log
expect_status 2 "convert with an unknown macro"
expect_line "$TMP/err" 'umac/k.cnv:3:37: error: unknown macro $RES_COLOUR in "[${t}]$RES_NAME{Task(id==${id})}.state=$RES_COLOUR{A}" (known: $EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, $RES_COLOR, $SUM, $CALC, $CLOCK, $OUTCOME)' "unknown macro at load time"
checks=$((checks + 1))
[ ! -s "$TMP/out" ] || fail "convert with an unknown macro wrote: $(head -3 "$TMP/out")"

finish
