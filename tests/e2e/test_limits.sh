# The resource limits of docs/robustness.md ("Limits"), each at its edge
# (accepted) and just past it (a clear error naming the file and line, never
# a hang or a crash): rule and resource file size, JSON nesting, condition,
# output, macro and figure nesting, arguments per event, regex size, rule
# directories, render sizes, stats windows, diagnostics kept; and the sizes
# with no fixed limit (resources, rules, attributes) at a scale that would
# take minutes if loading were quadratic. The log's line length, the session
# file's size and its markers are tested at their edges in unit/hostile and
# e2e/view_session (the table names them).
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cp "$SRC"/tests/e2e/mini/mini.* .
printf '[5] ctrl sleeps\n[6] ctrl wakes\n' >l.log

# in_dir DIR: a copy of the mini rules in DIR, to change one file there.
in_dir() { mkdir -p "$1" && cp mini.res mini.resh mini.viz mini.cnv "$1"/; }

# ---- rule and resource files: 64 MB ------------------------------------------------------
# A resource file of exactly 64 MiB (the JSON, then blanks) is read; one byte
# more is refused before it is read whole.
python3 - <<'PY'
import os
text = open("mini.res").read().rstrip() + "\n"
size = 64 << 20
with open("edge.res", "w") as f:
    f.write(text + " " * (size - len(text)))
with open("past.res", "w") as f:
    f.write(text + " " * (size + 1 - len(text)))
PY
run "$TLV" convert -q -R . -r edge.res l.log
expect_status 0 "a 64 MiB resource file"
expect_line "$TMP/out" "[5]ctrl.state=WAITING" "a 64 MiB resource file: converted"
run "$TLV" convert -q -R . -r past.res l.log
expect_status 2 "a resource file of 64 MiB + 1 byte"
expect_line "$TMP/err" "past.res: error: cannot read the resource file: File too large" "64 MiB + 1: message"
rm -f edge.res past.res

# ---- nesting ------------------------------------------------------------------------------
# JSON: 200 levels (the resource file's object is the first).
for d in 200 201; do
  python3 -c "import sys; d=int(sys.argv[1]); t=open('mini.res').read().rstrip().rstrip('}'); print(t + ', \"Deep\": ' + '['*(d-1) + ']'*(d-1) + '}')" $d >deep$d.res
done
run "$TLV" check -R . -r deep200.res
expect_status 0 "JSON nested 200 levels"
run "$TLV" check -R . -r deep201.res
expect_status 1 "JSON nested 201 levels"
expect_grep "$TMP/err" "^deep201.res:13:[0-9]*: error: nesting deeper than 200 levels$" "JSON nested 201 levels: message"

# Conditions: 100 levels of parentheses.
for d in 100 101; do
  in_dir c$d
  python3 -c "import json,sys; d=int(sys.argv[1]); json.dump({'mini': {'^\\\\[(?<t>\\\\d+)\\\\] (?<n>\\\\w+) sleeps\$': {'('*d + '\${n}==ctrl' + ')'*d: '[\${t}]ctrl.state=WAITING'}}}, open('c%d/mini.cnv' % d, 'w'))" $d
done
run "$TLV" convert -q -R c100 -r c100/mini.res l.log
expect_status 0 "a condition nested 100 levels"
expect_line "$TMP/out" "[5]ctrl.state=WAITING" "a condition nested 100 levels: converted"
run "$TLV" check -R c101 -r c101/mini.res
expect_status 1 "a condition nested 101 levels"
expect_grep "$TMP/err" "^c101/mini.cnv:1:[0-9]*: error: malformed condition \"(((.*: expression nested too deeply$" "a condition nested 101 levels: message"

# Outputs (lists in lists): 64 levels below the rule.
for d in 64 65; do
  in_dir o$d
  python3 -c "import json,sys; d=int(sys.argv[1]); v='[\${t}]ctrl.state=WAITING'
for _ in range(d): v=[v]
json.dump({'mini': {'^\\\\[(?<t>\\\\d+)\\\\] ctrl sleeps\$': v}}, open('o%d/mini.cnv' % d, 'w'))" $d
done
run "$TLV" convert -q -R o64 -r o64/mini.res l.log
expect_status 0 "outputs nested 64 levels"
expect_line "$TMP/out" "[5]ctrl.state=WAITING" "outputs nested 64 levels: converted"
run "$TLV" convert -q -R o65 -r o65/mini.res l.log
expect_status 2 "outputs nested 65 levels"
expect_grep "$TMP/err" "^o65/mini.cnv:1:[0-9]*: error: outputs nested more than 64 levels deep$" "outputs nested 65 levels: message"

# Macros: 256 open at once ($CALC{...} inside $CALC{...}).
for d in 256 257; do
  in_dir m$d
  python3 -c "import json,sys; d=int(sys.argv[1]); json.dump({'mini': {'^\\\\[(?<t>\\\\d+)\\\\] ctrl sleeps\$': '[\${t}]ctrl.state=' + '\$CALC{'*d + '1' + '}'*d}}, open('m%d/mini.cnv' % d, 'w'))" $d
done
run "$TLV" convert -q -R m256 -r m256/mini.res l.log
expect_status 0 "macros nested 256 levels"
expect_line "$TMP/out" "[5]ctrl.state=1" "macros nested 256 levels: converted"
run "$TLV" convert -q -R m257 -r m257/mini.res l.log
expect_status 1 "macros nested 257 levels"
expect_grep "$TMP/err" "^l.log:1: error: .*macros nested too deeply" "macros nested 257 levels: message"

# Figures (arrays of figures in arrays): 32 levels.
for d in 32 33; do
  in_dir f$d
  python3 - "$d" <<'PY'
import json, sys
d = int(sys.argv[1])
viz = json.load(open("mini.viz"))
fig = "bar(ff00aa00)"
for _ in range(d):
    fig = [fig]
viz["mini"]["VisualizeRules"]["taskState"]["Shapes"]["state"]["Figures"] = fig
json.dump(viz, open("f%d/mini.viz" % d, "w"))
PY
done
run "$TLV" shapes -R f32 -r f32/mini.res l.log
expect_status 0 "figures nested 32 levels"
expect_contains "$TMP/out" '"fill":"ff00aa00"' "figures nested 32 levels: drawn"
run "$TLV" shapes -R f33 -r f33/mini.res l.log
expect_status 1 "figures nested 33 levels"
expect_contains "$TMP/err" "figures nested more than 32 levels deep" "figures nested 33 levels: message"

# ---- sizes -----------------------------------------------------------------------------------
# Arguments per event: 64.
for n in 64 65; do
  printf '[1]ctrl.call(%s)\n' "$(seq -s, -f 'a%g' 1 $n)" >args$n.std
done
run "$TLV" convert -q -R . -r mini.res args64.std
expect_status 0 "64 arguments"
expect_contains "$TMP/out" ",a64)" "64 arguments: all kept"
run "$TLV" convert -q -R . -r mini.res args65.std
expect_status 1 "65 arguments"
expect_grep "$TMP/err" "^args65.std:1: error: .* is not a standard-form event: too many arguments (column [0-9]*)$" "65 arguments: message"

# Regex size: PCRE2's compiled-size limit (64 KB of code with Debian's
# LINK_SIZE=2): a 30,000-character regex compiles, a 100,000-character one is
# an error naming the rule (not a crash, not a truncated rule).
for n in 30000 100000; do
  in_dir r$n
  python3 -c "import json,sys; n=int(sys.argv[1]); json.dump({'mini': {'^\\\\[(?<t>\\\\d+)\\\\] ' + 'x'*n + '\$': '[\${t}]ctrl.state=X', '^\\\\[(?<t>\\\\d+)\\\\] ctrl sleeps\$': '[\${t}]ctrl.state=WAITING'}}, open('r%d/mini.cnv' % n, 'w'))" $n
done
run "$TLV" convert -q -R r30000 -r r30000/mini.res l.log
expect_status 0 "a 30,000-character regex"
run "$TLV" check -R r100000 -r r100000/mini.res
expect_status 1 "a 100,000-character regex"
expect_grep "$TMP/err" "^r100000/mini.cnv:1:[0-9]*: error: regex \".*\" does not compile: regular expression is too large at character [0-9]*$" "a 100,000-character regex: message"

# Rule directories: 64 -R options.
args=()
for i in $(seq 64); do args+=(-R .); done
run "$TLV" convert -q "${args[@]}" -r mini.res l.log
expect_status 0 "64 rule directories"
run "$TLV" convert -q "${args[@]}" -R . -r mini.res l.log
expect_status 2 "65 rule directories"
expect_line "$TMP/err" "tlv: too many -R options (at most 64)" "65 rule directories: message"

# render --size: 16384 pixels a side.
run "$TLV" render -R . -r mini.res l.log -o wide.png --size 16384x16
expect_status 0 "render 16384 pixels wide"
run "$TLV" render -R . -r mini.res l.log -o wide.png --size 16385x16
expect_status 2 "render 16385 pixels wide"
expect_line "$TMP/err" "tlv render: --size needs WxH, 16 to 16384 pixels each, got '16385x16'" "render 16385 wide: message"

# stats --window: 1,000,000 windows.
printf '[0] ctrl sleeps\n[1000000] ctrl wakes\n' >w.log
run "$TLV" stats -R . -r mini.res w.log --window 1
expect_status 0 "1,000,000 windows"
run "$TLV" stats -R . -r mini.res w.log --window 0.999
expect_status 2 "1,001,002 windows"
expect_grep "$TMP/err" "^tlv stats: --window 0.999 makes more than 1000000 windows" "too many windows: message"

# Diagnostics: 1000 kept, the rest counted.
awk 'BEGIN { for (i = 1; i <= 1001; i++) printf "[%d] nobody%d sleeps\n", i, i }' >e.log
run "$TLV" convert -q --max-errors 0 -R . -r mini.res e.log
expect_status 1 "1001 error lines"
checks=$((checks + 1))
[ "$(grep -c ': error: ' "$TMP/err")" -eq 1000 ] || fail "1001 error lines: $(grep -c ': error: ' "$TMP/err") printed, expected 1000"
expect_line "$TMP/err" "... and 1 more problem not shown" "1001 error lines: the rest counted"

# ---- no fixed limit: scale ------------------------------------------------------------------
# 50,000 attributes of one type, each set in the resource file: 10 s before
# (every attribute added scanned all those before it), a fraction of one now.
python3 - <<'PY'
import json
n = 50000
json.dump({"a": {"Task": {"Attributes": {"a%d" % i: {"VariableType": "String",
           "AllocationType": "Dynamic", "Default": "x"} for i in range(n)}}}}, open("a.resh", "w"))
json.dump({"a": {"^(?<t>\\d+) set (?<a>\\w+) (?<v>\\w+)$": "[${t}]A.${a}=${v}"}}, open("a.cnv", "w"))
json.dump({"TimeScale": "us", "ConvertRules": ["a"], "ResourceHeaders": ["a"],
           "Resources": {"A": {"Type": "Task", "Attributes": {"a%d" % i: "y" for i in range(n)}}}},
          open("a.res", "w"))
PY
mkdir attrs && mv a.resh a.cnv attrs/
printf '1 set a49999 z\n2 set a0 q\n' >a.log
t0=$(date +%s)
run timeout 120 "$TLV" convert -q -R attrs -r a.res a.log
expect_status 0 "50,000 attributes"
expect_line "$TMP/out" "[1]A.a49999=z" "50,000 attributes: the last one"
echo "50,000 attributes: $(( $(date +%s) - t0 )) s"
# (1,000,000 resources and 100,000 rules: e2e/rule_files and tests/bench/bench_load.sh.)

finish
