# Rule and resource files at scale and at their edges (issue 32, items 1, 3
# and 4): a million-member resource file and a hundred thousand rules load in
# linear-ish time (the duplicate-key check scanned every later sibling of each
# member: 100,000 resources took 64 s, 1,000,000 hours); a raw control
# character inside a JSON string is an error at its file:line:col (a NUL cut
# "u<NUL>s" to "u" and made a key "blink<NUL>X" replace "blink"); and a
# member given twice — a target in one file, a rule, a resource — is a warning
# naming both places (the later one wins, spec §2; before, silently).
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"id":{"VariableType":"Number","AllocationType":"Static"},
  "state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}}}}}
JSON
cat >k.cnv <<'JSON'
{"k": {
  "^(?<t>\\d+) run (?<id>\\d+)$": "[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING"
}}
JSON
printf '1 run 1\n2 run 2\n3 run 3\n' >k.log

# cpu_seconds CMD...: runs CMD like `run`, and sets $cpu to the user+system
# CPU seconds it took (wall time on a loaded CI machine says little).
cpu_seconds() {
  local t0 t1
  t0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  run "$@"
  t1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')
}
# expect_fast WHAT LIMIT: the last cpu_seconds took at most LIMIT seconds.
expect_fast() {
  checks=$((checks + 1))
  awk -v c="$cpu" -v l="$2" 'BEGIN { exit !(c <= l) }' || fail "$1: $cpu s of CPU, expected <= $2"
  echo "$1: $cpu s of CPU"
}
# Sanitizer builds run several times slower; the bounds are far below what
# the quadratic loading took (minutes) either way.
slow=1
[ "${TLV_SANITIZE:-0}" = 1 ] && slow=4

# ---- scale -------------------------------------------------------------------

# 200,000 resources (every 10th declared twice): 4 minutes of CPU before,
# under a second now. Each duplicate is named once with both places.
awk 'BEGIN {
  print "{\"TimeScale\":\"ms\",\"ConvertRules\":[\"k\"],\"ResourceHeaders\":[\"k\"],\"Resources\":{"
  for (i = 1; i <= 200000; i++)
    printf "\"T%d\":{\"Type\":\"Task\",\"Attributes\":{\"id\":%d}},\n", i, i
  for (i = 10; i <= 200000; i += 10)
    printf "\"T%d\":{\"Type\":\"Task\",\"Attributes\":{\"id\":%d}},\n", i, i
  print "}}" }' >many.res
cpu_seconds "$TLV" check -R . -r many.res
expect_status 0 "200,000 resources: check"
expect_fast "200,000 resources: check" $((20 * slow))
expect_line "$TMP/err" "tlv check: 0 errors, 20000 warnings" "200,000 resources: duplicates counted"
expect_line "$TMP/err" "many.res:200002:1: warning: resource 'T10' is given again here; the one at line 11, column 1 is not used (the later one wins)" "200,000 resources: first duplicate"
cpu_seconds "$TLV" convert -q -R . -r many.res k.log
expect_status 0 "200,000 resources: convert"
expect_fast "200,000 resources: convert" $((20 * slow))
expect_line "$TMP/out" "[3]T3.state=RUNNING" "200,000 resources: convert output"

# 100,000 rules in one target (before: 50,000 took 20 s to convert, 36 s to
# check; the time grew with the square).
awk 'BEGIN {
  print "{\"big\":{"
  for (i = 0; i < 100000; i++)
    printf "\"^(?<t>\\\\d+) ev%d (?<id>\\\\d+)$\":\"[${t}]T${id}.state=S%d\",\n", i, i
  print "}}" }' >big.cnv
sed 's/"k"/"big"/' k.resh >big.resh
cat >big.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["big"],"ResourceHeaders":["big"],
 "Resources":{"T1":{"Type":"Task","Attributes":{"id":1}},"T2":{"Type":"Task","Attributes":{"id":2}}}}
JSON
printf '1 ev0 1\n2 ev99999 2\n3 ev5000 1\n' >big.log
cpu_seconds "$TLV" convert -q -R . -r big.res big.log
expect_status 0 "100,000 rules: convert"
expect_fast "100,000 rules: convert" $((20 * slow))
expect_line "$TMP/out" "[2]T2.state=S99999" "100,000 rules: the last rule"
expect_line "$TMP/out" "[3]T1.state=S5000" "100,000 rules: a middle rule"
cpu_seconds "$TLV" check big.cnv
expect_status 0 "100,000 rules: check"
expect_fast "100,000 rules: check" $((20 * slow))

# 150,000 visualization rules and as many shapes (before: each rule and each
# shape was looked up by a scan of those read so far, and each figure by a
# scan of the shapes: 100,000 rules took 37 s of CPU on a 3-line log, this
# many about two minutes). A second file's target redefines a rule and a
# shape: the later definition is used.
awk 'BEGIN {
  print "{\"k\":{\"Shapes\":{"
  for (i = 0; i < 150000; i++)
    printf "%s\"b%d\":[{\"Type\":\"Rectangle\",\"Fill\":\"%06x\"}]\n", (i ? "," : ""), i, i
  print "},\"VisualizeRules\":{"
  for (i = 0; i < 150000; i++)
    printf "%s\"r%d\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state=S%d\",\"To\":\"${TARGET}.state\",\"Figures\":\"b%d\"}}}\n", (i ? "," : ""), i, i, i
  print "}}}" }' >k.viz
cat >k2.viz <<'JSON'
{"k2":{"Shapes":{"b149999":[{"Type":"Rectangle","Fill":"abcdef"}]},
 "VisualizeRules":{"r5":{"Target":"Task","Shapes":{"s":{"From":"${TARGET}.state=S5","To":"${TARGET}.state","Figures":"b7"}}}}}}
JSON
cat >viz.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],"VisualizeRules":["k","k2"],
 "Resources":{"T1":{"Type":"Task","Attributes":{"id":1}}}}
JSON
printf '[1]T1.state=S0\n[2]T1.state=S149999\n[3]T1.state=S5\n[4]T1.state=S1\n' >viz.log
cpu_seconds "$TLV" shapes --std -R . -r viz.res viz.log
expect_status 0 "150,000 visualization rules: shapes"
expect_fast "150,000 visualization rules: shapes" $((20 * slow))
expect_line "$TMP/out" '{"rule":"r0","event":"s","resource":"T1","from":1,"to":2,"type":"Rectangle","text":null,"fill":"ff000000","pen":null,"row":0}' "150,000 visualization rules: the first"
expect_line "$TMP/out" '{"rule":"r149999","event":"s","resource":"T1","from":2,"to":3,"type":"Rectangle","text":null,"fill":"ffabcdef","pen":null,"row":0}' "150,000 visualization rules: the last, its shape redefined"
expect_line "$TMP/out" '{"rule":"r5","event":"s","resource":"T1","from":3,"to":4,"type":"Rectangle","text":null,"fill":"ff000007","pen":null,"row":0}' "150,000 visualization rules: a rule redefined"

# A .viz target whose parts are not objects: said, and never a crash (before:
# `"Shapes":[1,2]` crashed tlv check, the others were ignored without a word).
cp viz.res part.res
sed -i 's/"k","k2"/"p"/' part.res
printf '{"p":{"Shapes":[1,2],"VisualizeRules":{"r":{"Target":"Task","Shapes":{"s":{"When":"${TARGET}.state","Figures":"b"}}}}}}\n' >p.viz
run "$TLV" check -R . -r part.res
expect_status 1 "Shapes an array: check"
expect_line "$TMP/err" './p.viz:1:16: error: visualization target '"'p'"': "Shapes" must be an object of named shapes, found an array; not used' "Shapes an array: message"
expect_line "$TMP/err" "./p.viz:1:111: error: rule 'r': figure 'b' names no shape of the requested targets" "Shapes an array: the figure"
printf '{"p":{"Shapes":{},"VisualizeRules":[{"Target":"Task"}]}}\n' >p.viz
run "$TLV" check p.viz
expect_status 1 "VisualizeRules an array: check"
expect_line "$TMP/err" 'p.viz:1:36: error: visualization target '"'p'"': "VisualizeRules" must be an object of named rules, found an array; not used' "VisualizeRules an array: message"
run "$TLV" shapes --std -R . -r part.res viz.log
expect_line "$TMP/err" './p.viz:1:36: warning: visualization target '"'p'"': "VisualizeRules" must be an object of named rules, found an array; not used' "VisualizeRules an array: shapes warns"
printf '{"p":5}\n' >p.viz
run "$TLV" check p.viz
expect_status 1 "a target a number: check"
expect_line "$TMP/err" 'p.viz:1:6: error: visualization target '"'p'"' must be an object of "Shapes" and "VisualizeRules", found a number' "a target a number: message"

# ---- raw control characters inside strings --------------------------------------

# A NUL inside the TimeScale: an error at its column, not "u".
printf '{"TimeScale":"u\000s","ConvertRules":["k"],"ResourceHeaders":["k"],"Resources":{}}\n' >nul.res
run "$TLV" convert -q -R . -r nul.res k.log
expect_status 2 "NUL in TimeScale"
expect_line "$TMP/err" "nul.res:1:16: error: a NUL byte (U+0000) inside a string; a name or text cannot hold one" "NUL in TimeScale: message"
run "$TLV" check -R . -r nul.res
expect_status 1 "NUL in TimeScale: check"
expect_line "$TMP/err" "nul.res:1:16: error: a NUL byte (U+0000) inside a string; a name or text cannot hold one" "NUL in TimeScale: check message"

# A resource key "blink<NUL>X" no longer replaces "blink".
printf '{"ConvertRules":["k"],"ResourceHeaders":["k"],"Resources":{\n"blink":{"Type":"Task"},\n"blink\000X":{"Type":"Task"}}}\n' >key.res
run "$TLV" check -R . -r key.res
expect_status 1 "NUL in a resource key"
expect_line "$TMP/err" "key.res:3:7: error: a NUL byte (U+0000) inside a string; a name or text cannot hold one" "NUL in a resource key: message"
expect_line "$TMP/err" "tlv check: 1 error, 0 warnings" "NUL in a resource key: counted"

# Escaped, the same characters are fine; \u0000 is not (the cut again). (The
# broken rule files go to a directory of their own: a .cnv that does not
# read stops every conversion that searches its directory.)
mkdir bad && cd bad
printf '{"k":{"^(?<t>\\\\d+)\\tx$":"[${t}]A.state=X"}}\n' >tab.cnv
run "$TLV" check tab.cnv
expect_status 0 "escaped tab in a regex"
printf '{"k":{"^(?<t>\\\\d+)\tx$":"[${t}]A.state=X"}}\n' >rawtab.cnv
run "$TLV" check rawtab.cnv
expect_status 1 "raw tab in a regex"
expect_line "$TMP/err" "rawtab.cnv:1:19: error: control character U+0009 inside a string; write it as \\t" "raw tab in a regex: message"
printf '{"k":{"^a\\u0000b$":"[1]A.state=X"}}\n' >u0.cnv
run "$TLV" check u0.cnv
expect_status 1 "\\u0000 in a regex"
expect_line "$TMP/err" "u0.cnv:1:10: error: \\u0000 (NUL) inside a string; a name or text cannot hold one" "\\u0000 in a regex: message"
# A line end inside a string is most often a missing quote: named at the quote.
printf '{"k":{\n  "^(?<t>\\\\d+) x$":"[${t}]A.state=X,\n  "^y$":"[1]A.state=Y"}}\n' >quote.cnv
run "$TLV" check quote.cnv
expect_status 1 "missing closing quote"
expect_line "$TMP/err" "quote.cnv:2:20: error: unterminated string: its line ends before the closing quote (a line end inside a string is written \\n)" "missing closing quote: message"

cd "$TMP"

# ---- members given twice ------------------------------------------------------------

# A target twice in one .cnv: the first one's rules are not used (they were
# dropped without a word); both places are named, by convert and by check.
cat >dup.cnv <<'JSON'
{"d": {
  "^(?<t>\\d+) run (?<id>\\d+)$": "[${t}]T${id}.state=RUNNING"
},
"d": {
  "^(?<t>\\d+) stop (?<id>\\d+)$": "[${t}]T${id}.state=STOPPED",
  "^(?<t>\\d+) stop (?<id>\\d+)$": "[${t}]T${id}.state=HALTED"
}}
JSON
sed 's/"k"/"d"/' k.resh >dup.resh
cat >dup.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["d"],"ResourceHeaders":["d"],
 "Resources":{"T1":{"Type":"Task","Attributes":{"id":1}},"T2":{"Type":"Task","Attributes":{"id":2}}}}
JSON
printf '1 run 1\n2 stop 2\n' >dup.log
run "$TLV" convert -q -R . -r dup.res dup.log
expect_status 0 "target twice in one .cnv"
expect_line "$TMP/out" "[2]T2.state=HALTED" "target twice: the later one wins"
expect_line "$TMP/err" "./dup.cnv:4:1: warning: target 'd' is given again here; the one at line 1, column 2 is not used (the later one wins)" "target twice: both places"
expect_line "$TMP/err" "./dup.cnv:6:3: warning: rule '^(?<t>\\d+) stop (?<id>\\d+)\$' is given again here; the one at line 5, column 3 is not used (the later one wins)" "rule twice: both places"
run "$TLV" check dup.cnv
expect_status 0 "target twice: check"
expect_line "$TMP/err" "dup.cnv:4:1: warning: target 'd' is given again here; the one at line 1, column 2 is not used (the later one wins)" "target twice: check names both places"
expect_line "$TMP/err" "tlv check: 0 errors, 2 warnings" "target twice: check counts"

# Targets of the same name in two files still merge, without a word.
cat >dup2.cnv <<'JSON'
{"d": {"^(?<t>\\d+) go (?<id>\\d+)$": "[${t}]T${id}.state=GO"}}
JSON
printf '1 go 1\n' >go.log
run "$TLV" convert -q -R . -r dup.res go.log
expect_line "$TMP/out" "[1]T1.state=GO" "targets of two files merge"
checks=$((checks + 1))
[ "$(grep -c 'given again' "$TMP/err")" = 2 ] || fail "targets of two files: no more warnings than dup.cnv's own:$(cat "$TMP/err")"

finish
