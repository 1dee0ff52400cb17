# External-process rules: refused unless --allow-scripts (a rule file alone
# cannot start a program), then run with the resource JSON, "---" and the raw
# log on standard input; failures, time-outs and garbage output are reported.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cat >s.resh <<'JSON'
{"s":{"Task":{"Attributes":{"state":{"VariableType":"String","AllocationType":"Dynamic"}}}}}
JSON
# The inline script marks that it ran, checks its input, and echoes one event
# per log line after the "---" separator.
cat >s.cnv <<'JSON'
{"s":{"$STYLE":"script","fileName":"sh","arguments":"{0} ran.marker",
      "script":"touch \"$1\"\nIFS= read -r json\ncase \"$json\" in *'\"Resources\":{\"A\":{\"Type\":\"Task\"'*) ;; *) echo bad-json >&2; exit 9;; esac\nread -r sep\n[ \"$sep\" = --- ] || exit 8\nn=0\nwhile IFS= read -r line; do n=$((n+1)); echo \"[$n]A.state=$line\"; done\n"}}
JSON
cat >s.res <<'JSON'
{"ConvertRules":["s"],"ResourceHeaders":["s"],"Resources":{"A":{"Type":"Task"}}}
JSON
printf 'one\ntwo words\n' >s.log

run "$TLV" convert -R . -r s.res s.log
expect_status 2 "script refused"
expect_contains "$TMP/err" "s.cnv:1:6: error: target 's' is an external-process rule (it runs \"sh {0} ran.marker\"); it runs only when scripts are allowed (tlv: --allow-scripts)" "refusal message"
checks=$((checks + 1)); [ ! -e ran.marker ] || fail "the program ran without --allow-scripts"

run "$TLV" convert -q --allow-scripts -R . -r s.res s.log
expect_status 0 "script allowed"
expect_line "$TMP/out" "[1]A.state=one" "script event 1"
expect_line "$TMP/out" "[2]A.state=two words" "script event 2"
checks=$((checks + 1)); [ -e ran.marker ] || fail "the program did not run with --allow-scripts"

# A failing program: its status and standard error are reported; exit 1.
mkdir fail && cd fail && cp ../s.resh ../s.res ../s.log .
cat >s.cnv <<'JSON'
{"s":{"$STYLE":"script","fileName":"sh","arguments":"-c \"echo broken pipe dream >&2; exit 3\""}}
JSON
run "$TLV" convert -q --allow-scripts -R . -r s.res s.log
expect_status 1 "failing script"
expect_line "$TMP/err" "./s.cnv:1:6: error: external-process rule 's' (\"sh -c \"echo broken pipe dream >&2; exit 3\"\"): the program exited with status 3: broken pipe dream" "failure message"
cd ..

# A program that never finishes is killed after the time-out.
mkdir slow && cd slow && cp ../s.resh ../s.res ../s.log .
cat >s.cnv <<'JSON'
{"s":{"$STYLE":"script","fileName":"sleep","arguments":"30"}}
JSON
run "$TLV" convert -q --allow-scripts --script-timeout 300 -R . -r s.res s.log
expect_status 1 "slow script"
expect_contains "$TMP/err" "external-process rule 's' (\"sleep 30\"): timed out after 300 ms" "time-out message"
cd ..

# Garbage output lines are conversion errors naming the output line; good lines still count.
mkdir garbage && cd garbage && cp ../s.resh ../s.res ../s.log .
cat >s.cnv <<'JSON'
{"s":{"$STYLE":"script","fileName":"printf","arguments":"\"[1]A.state=ok\\nnot an event\\n\""}}
JSON
run "$TLV" convert -q --allow-scripts -R . -r s.res s.log
expect_status 1 "garbage output"
expect_line "$TMP/out" "[1]A.state=ok" "good line kept"
expect_line "$TMP/err" "s.log: error: external-process rule 's', output line 2: 'not an event' is not a standard-form event: expected '[' at the start of the line (column 1)" "garbage message"
cd ..

# A program that does not exist.
mkdir missing && cd missing && cp ../s.resh ../s.res ../s.log .
cat >s.cnv <<'JSON'
{"s":{"$STYLE":"script","fileName":"/nonexistent/ruby","arguments":"x.rb"}}
JSON
run "$TLV" convert -q --allow-scripts -R . -r s.res s.log
expect_status 1 "missing program"
expect_contains "$TMP/err" "cannot run \"/nonexistent/ruby\": No such file or directory" "missing program message"
cd ..

# Only `tlv convert --allow-scripts` runs a program: checking, drawing and
# rendering the same rule files never do. And output bytes that are not text
# (NUL, invalid UTF-8) are read as U+FFFD with a warning naming the output line.
mkdir bytes && cd bytes && cp ../s.resh ../s.res ../s.log .
cat >s.cnv <<'JSON'
{"s":{"$STYLE":"script","fileName":"sh","arguments":"{0}",
      "script":"touch ran.marker\nprintf '[1]A.state=a\\000b\\n[2]A.state=\\377\\n[3]A.state=ok\\n'\n"}}
JSON
run "$TLV" check -R . -r s.res
expect_status 0 "check a script rule"
run "$TLV" check s.cnv
expect_status 0 "check a script rule file"
run "$TLV" shapes -R . -r s.res s.log
expect_status 2 "shapes refuses scripts"
run "$TLV" render -R . -r s.res s.log -o s.png
expect_status 2 "render refuses scripts"
run "$TLV" export -R . -r s.res s.log
expect_status 2 "export refuses scripts"
expect_contains "$TMP/err" "it runs only when scripts are allowed (tlv: --allow-scripts)" "export refusal message"
run "$TLV" stats -R . -r s.res s.log
expect_status 2 "stats refuses scripts"
expect_contains "$TMP/err" "it runs only when scripts are allowed (tlv: --allow-scripts)" "stats refusal message"
checks=$((checks + 1)); [ ! -e ran.marker ] || fail "check, shapes, render, export or stats ran the program"
run "$TLV" convert -q --allow-scripts -R . -r s.res s.log
expect_status 0 "script output bytes"
expect_line "$TMP/out" "[1]A.state=a$(printf '\357\277\275')b" "NUL in script output"
expect_line "$TMP/out" "[2]A.state=$(printf '\357\277\275')" "invalid UTF-8 in script output"
expect_line "$TMP/out" "[3]A.state=ok" "script output after the bad bytes"
expect_line "$TMP/err" "s.log: warning: external-process rule 's', output line 1, column 13: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD" "NUL warning"
expect_line "$TMP/err" "s.log: warning: external-process rule 's', output line 2, column 12: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD" "invalid UTF-8 warning"
finish
