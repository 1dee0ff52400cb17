#!/usr/bin/env bash
# test_check_conditions.sh — tlv check parses every condition expression it
# can see in rule files (spec §7): conversion conditions, resource conditions
# of Type(...) references, figure conditions and event-pattern resource
# conditions, with substitutions read as operands. A malformed one is an
# error at file:line:col with its text and what was expected; loading the
# same rules for a run warns and goes on (each line that reaches it fails).
. "$(dirname "$0")/lib.sh"

cd "$TMP"
printf '%s\n' '{"Task": {"Attributes": {"state": {"VariableType": "String"}}, "Behaviors": {}}}' \
  | sed 's/^/{"cc": /; s/$/}/' >cc.resh
cat >cc.cnv <<'CNV'
{
  "cc": {
    "^(?<t>\\d+) ok$": "[${t}]A.state=ok",
    "^(?<t>\\d+) (?<x>R\\w+)$": {
      "${x}==RUN ||": "[${t}]A.state=RUN",
      "$EXIST{Task((state==RUN)}": "[${t}]A.state=X",
      "${x}==ok": "[${t}]A.state=${x}"
    }
  }
}
CNV
cat >cc.viz <<'VIZ'
{
  "cc": {
    "Shapes": {"bar": [{"Type": "Rectangle"}]},
    "VisualizeRules": {
      "s": {"Target": "Task", "Shapes": {"e": {
        "From": "Task(state RUN).state", "To": "${TARGET}.state",
        "Figures": {"${FROM_VAL}==RUN && (${TO_VAL}==X": "bar"}}}}
    }
  }
}
VIZ
printf '%s\n' '{"TimeScale": "us", "ConvertRules": ["cc"], "ResourceHeaders": ["cc"],' \
  '"VisualizeRules": ["cc"], "Resources": {"A": {"Type": "Task"}}}' >cc.res

run "$TLV" check -R . cc.cnv cc.viz cc.resh
expect_status 1 "check with malformed conditions"
expect_line "$TMP/err" 'cc.cnv:5:7: error: malformed condition "${x}==RUN ||": expected an operand after '"'||'" "conversion condition"
expect_line "$TMP/err" 'cc.cnv:6:7: error: malformed resource condition "(state==RUN)": missing '"')'" "resource condition in a macro"
expect_line "$TMP/err" 'cc.viz:6:17: error: malformed resource condition "state RUN": expected an operator such as '"'=='"" after 'state RUN'" "event pattern"
expect_line "$TMP/err" 'cc.viz:7:21: error: malformed condition "${FROM_VAL}==RUN && (${TO_VAL}==X": missing '"')'" "figure condition"
expect_line "$TMP/err" "tlv check: 4 errors, 0 warnings" "check summary"

# The same rules checked through the resource file.
run "$TLV" check -R . -r cc.res
expect_status 1 "check the resource file"
expect_line "$TMP/err" "tlv check: 4 errors, 0 warnings" "resource file check summary"

# A run warns, converts what it can, and reports the lines the bad condition stops.
printf '1 ok\n2 RUN\n' >cc.log
run "$TLV" convert -R . -r cc.res cc.log
expect_status 1 "convert with a malformed condition"
expect_contains "$TMP/err" 'cc.cnv:5:7: warning: malformed condition "${x}==RUN ||": expected an operand after '"'||'" "load warning"
expect_line "$TMP/out" "[1]A.state=ok" "the other lines are converted"

# Well-formed conditions, substitutions included, pass.
sed -i 's/"${x}==RUN ||"/"${x}==RUN || ${x}==GO"/; s/Task((state==RUN)/Task(state==RUN)/' cc.cnv
sed -i 's/Task(state RUN)/Task(state!=RUN)/; s/(${TO_VAL}==X/(${TO_VAL}==X)/' cc.viz
run "$TLV" check -R . cc.cnv cc.viz cc.resh
expect_status 0 "check after the fixes"
expect_line "$TMP/err" "tlv check: 0 errors, 0 warnings" "clean summary"

finish
