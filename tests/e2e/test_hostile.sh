# Hostile and broken inputs through the tlv command, each with its exact
# result: truncated logs, binary garbage, NUL bytes, invalid UTF-8, CR/LF
# mixes, a 10 MB line and one beyond 64 MB, only unmatched lines, an empty
# log, times going backwards or beyond 64 bits, a catastrophically
# backtracking rule, a rule file that never ends, JSON and conditions and
# figures nested beyond reason, and `-o` never leaving a partial trace under
# the final name (read error, SIGINT, SIGTERM). The rule: events are
# converted up to and past the damage, what was skipped or changed is
# reported with its line, and the exit status is 1 only when something was
# lost (0 when bytes were only read as U+FFFD or lines matched nothing).
# docs/robustness.md lists these cases.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"id":{"VariableType":"Number","AllocationType":"Static"},
  "state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}},
  "Behaviors":{"hello":{"Arguments":{"who":"String"}}}}}}
JSON
cat >k.cnv <<'JSON'
{"k": {
  "^(?<t>\\d+) run (?<id>\\d+)$": "[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING",
  "^(?<t>\\d+) hi (?<who>.*)$": "[${t}]A.hello(${who})"
}}
JSON
cat >k.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],
 "Resources":{"A":{"Type":"Task","Attributes":{"id":1}},"B":{"Type":"Task","Attributes":{"id":2}}}}
JSON
convert() { run "$TLV" convert -q -R . -r k.res "$@"; }
expect_empty() { checks=$((checks + 1)); [ ! -s "$1" ] || fail "$2: $(basename "$1") is not empty:$(echo; head -c 600 "$1")"; }
expect_lines() { checks=$((checks + 1)); [ "$(wc -l <"$1")" -eq "$2" ] || fail "$3: $(wc -l <"$1") lines in $(basename "$1"), expected $2"; }
repeat() { head -c "$2" /dev/zero | tr '\0' "$1"; }

# ---- the log's bytes ----------------------------------------------------------

# An empty log: an empty trace, nothing to say, success.
: >empty.log
convert empty.log
expect_status 0 "empty log"
expect_empty "$TMP/out" "empty log: trace"
expect_empty "$TMP/err" "empty log: messages"

# Only unmatched lines: nothing lost, but a log no rule reads is worth a word.
printf 'noise\nmore noise\r\n\n' >unmatched.log
convert unmatched.log
expect_status 0 "only unmatched lines"
expect_empty "$TMP/out" "only unmatched lines: trace"
expect_line "$TMP/err" "unmatched.log: warning: no rule matched any of the 3 lines read" "only unmatched lines: warning"

# A truncated log: every whole line converts; a cut-off last line no rule
# matched is pointed at (a cut inside a UTF-8 sequence is below, with NUL).
printf '1 run 1\n2 hi x\n3 ru' >truncated.log
convert truncated.log
expect_status 0 "truncated log"
expect_lines "$TMP/out" 2 "truncated log: events before the cut"
expect_line "$TMP/out" "[2]A.hello(x)" "truncated log: last whole line"
expect_line "$TMP/err" "truncated.log:3: warning: the last line has no line end and no rule matched it (a truncated log?)" "truncated log: warning"

# NUL bytes and invalid UTF-8 (a stray byte, an overlong '/', a surrogate, a
# sequence cut by the end of the file): each bad byte is read as U+FFFD, so the
# line still converts and the trace stays text; valid UTF-8 is kept as is.
printf '1 run 1\n2 hi a\000b\n3 hi \377x\300\257y\355\240\200z\n4 hi \346\227\245\346\234\254\n5 hi cut \343\201' >bytes.log
convert bytes.log
expect_status 0 "NUL and invalid UTF-8"
expect_line "$TMP/out" "[2]A.hello(a$(printf '\357\277\275')b)" "NUL read as U+FFFD"
expect_line "$TMP/out" "[3]A.hello($(printf '\357\277\275x\357\277\275\357\277\275y\357\277\275\357\277\275\357\277\275z'))" "invalid UTF-8 read as U+FFFD"
expect_line "$TMP/out" "[4]A.hello($(printf '\346\227\245\346\234\254'))" "valid UTF-8 kept"
expect_line "$TMP/out" "[5]A.hello(cut $(printf '\357\277\275\357\277\275'))" "sequence cut by the end of the file"
expect_line "$TMP/err" "bytes.log:2:7: warning: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD" "NUL warning"
expect_line "$TMP/err" "bytes.log:3:6: warning: 6 bytes are not text (invalid UTF-8 or NUL), read as U+FFFD" "invalid UTF-8 warning"
expect_line "$TMP/err" "bytes.log:5:10: warning: 2 bytes are not text (invalid UTF-8 or NUL), read as U+FFFD" "cut sequence warning"

# Binary garbage between good lines: four runs of every byte value 0..255
# (each has an LF at 10 and a CR at 13, so they make 9 lines). The lines around
# convert, and each garbage line with bytes that are not text is listed.
block="$(for i in $(seq 0 255); do printf '\\%03o' "$i"; done)"
{ printf '1 run 1\n'; for i in 1 2 3 4; do printf "$block"; done; printf '\n7 hi after\n'; } >garbage.log
convert garbage.log
expect_status 0 "binary garbage"
expect_lines "$TMP/out" 2 "binary garbage: events"
expect_line "$TMP/out" "[7]A.hello(after)" "binary garbage: the line after"
expect_line "$TMP/err" "garbage.log:2:1: warning: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD" "garbage line 2"
for l in 4 6 8; do
  expect_line "$TMP/err" "garbage.log:$l:115: warning: 129 bytes are not text (invalid UTF-8 or NUL), read as U+FFFD" "garbage line $l"
done
expect_line "$TMP/err" "garbage.log:10:115: warning: 128 bytes are not text (invalid UTF-8 or NUL), read as U+FFFD" "garbage line 10"
expect_lines "$TMP/err" 5 "binary garbage: one warning per line with such bytes"

# CR LF, bare CR and LF mixed, empty lines included: every one ends a line,
# as the line number of the error on line 7 shows.
printf '1 run 1\r\n2 hi a\r3 hi b\n\r\n4 hi c\r\r5 run 9\n6 hi d' >mixed.log
convert mixed.log
expect_status 1 "CR/LF mix"
expect_lines "$TMP/out" 5 "CR/LF mix: events"
expect_line "$TMP/out" "[2]A.hello(a)" "CR/LF mix: bare CR"
expect_line "$TMP/out" "[4]A.hello(c)" "CR/LF mix: after an empty CR LF line"
expect_line "$TMP/out" "[6]A.hello(d)" "CR/LF mix: last line"
expect_line "$TMP/err" 'mixed.log:7: error: rule "^(?<t>\d+) run (?<id>\d+)$": $RES_NAME{Task(id==9)}: no resource matches; exactly one is needed' "CR/LF mix: line numbers"

# A 10 MB line converts whole; a 10 MB line that fails is reported with the
# start and the end of its message (where the reason is), not 10 MB of it.
mb10=10485760
{ printf '1 hi '; repeat x $mb10; printf '\n2 run '; repeat 9 $mb10; printf '\n3 run 2\n'; } >long.log
convert long.log
expect_status 1 "10 MB lines"
expect_lines "$TMP/out" 2 "10 MB lines: events"
checks=$((checks + 1))
[ "$(head -n 1 "$TMP/out" | wc -c)" -eq $((mb10 + 13)) ] || fail "10 MB line: event of $(head -n 1 "$TMP/out" | wc -c) bytes"
expect_line "$TMP/out" "[3]B.state=RUNNING" "10 MB lines: the line after"
prefix='rule "^(?<t>\d+) run (?<id>\d+)$": $RES_NAME{Task(id=='
suffix=')}: no resource matches; exactly one is needed'
head_digits=$((1000 - ${#prefix}))
tail_digits=$((500 - ${#suffix}))
elided=$((${#prefix} + mb10 + ${#suffix} - 1500))
expect_line "$TMP/err" "long.log:2: error: $prefix$(repeat 9 $head_digits) [... $elided bytes ...] $(repeat 9 $tail_digits)$suffix" "10 MB line: elided message"

# A line beyond 64 MB (a device that never sends a line end) is not held in
# memory: it is skipped and reported, and the lines after it convert.
{ head -c 70000000 /dev/zero; printf '\n2 hi after\n'; } | run "$TLV" convert -q -R . -r k.res -
expect_status 1 "a line beyond 64 MB"
expect_line "$TMP/out" "[2]A.hello(after)" "a line beyond 64 MB: the line after"
expect_line "$TMP/err" "<stdin>:1: error: the line is longer than 64 MB; skipped" "a line beyond 64 MB: message"

# ---- times ------------------------------------------------------------------

# Times going backwards are kept in log order, and queries see them in time order.
printf '5 run 1\n3 run 2\n1 hi x\n' >backwards.log
convert backwards.log
expect_status 0 "times going backwards"
checks=$((checks + 1))
[ "$(cat "$TMP/out")" = "$(printf '[5]A.state=RUNNING\n[3]B.state=RUNNING\n[1]A.hello(x)')" ] || fail "times going backwards: $(cat "$TMP/out")"
# A log that starts again (a reset mid-capture): the second half converts
# like the first, with no error.
cat "$SRC/samples/asp/sample.log" "$SRC/samples/asp/sample.log" >twice.log
run "$TLV" convert -q -r "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log" -o once.std
run "$TLV" convert -q -r "$SRC/samples/asp/sample.res" twice.log -o twice.std
expect_status 0 "a log that starts again"
checks=$((checks + 1))
head -n "$(wc -l <once.std)" twice.std | cmp -s - once.std || fail "a log that starts again: the first half differs"

# Times beyond 64 bits: that line is an error (exit 1), the others convert;
# the largest time that fits is fine.
printf '1 run 1\n9223372036854775807 hi max\n9223372036854775808 hi over\n99999999999999999999999 run 2\n4 hi end\n' >overflow.log
convert overflow.log
expect_status 1 "times beyond 64 bits"
expect_lines "$TMP/out" 3 "times beyond 64 bits: events"
expect_line "$TMP/out" "[9223372036854775807]A.hello(max)" "the largest time"
expect_line "$TMP/out" "[4]A.hello(end)" "times beyond 64 bits: the line after"
expect_line "$TMP/err" "overflow.log:3: error: rule \"^(?<t>\\d+) hi (?<who>.*)\$\": '[9223372036854775808]A.hello(over)' is not a standard-form event: bad time: time does not fit in 64 bits (column 2)" "2^63"
expect_line "$TMP/err" "overflow.log:4: error: rule \"^(?<t>\\d+) run (?<id>\\d+)\$\": '[99999999999999999999999]B.state=RUNNING' is not a standard-form event: bad time: time does not fit in 64 bits (column 2)" "a huge time"

# ---- hostile rules --------------------------------------------------------------

# Catastrophic backtracking: (a+)+$ against a long run of 'a' ending in 'b'
# would run for ages; the match limit stops it, the line is reported with the
# rule and skipped, and the other lines convert.
mkdir backtrack && cp k.resh k.res backtrack/
cat >backtrack/k.cnv <<'JSON'
{"k": {"^(?<t>\\d+) (a+)+$": "[${t}]A.state=AS", "^(?<t>\\d+) hi (?<who>.*)$": "[${t}]A.hello(${who})"}}
JSON
{ printf '1 hi before\n2 '; repeat a 5000; printf 'b\n3 aaa\n4 hi after\n'; } >backtrack.log
started=$(date +%s)
run timeout 120 "$TLV" convert -q -R backtrack -r backtrack/k.res backtrack.log
expect_status 1 "catastrophic backtracking"
expect_line "$TMP/err" 'backtrack.log:2: error: rule "^(?<t>\d+) (a+)+$": match limit exceeded' "catastrophic backtracking: reported"
expect_lines "$TMP/out" 3 "catastrophic backtracking: the other lines"
expect_line "$TMP/out" "[3]A.state=AS" "catastrophic backtracking: a short match still works"
checks=$((checks + 1))
[ $(($(date +%s) - started)) -lt 60 ] || fail "catastrophic backtracking took $(($(date +%s) - started)) s"

# JSON nested 10,000 levels deep: an error with its place, no stack overflow.
mkdir deep
{ printf '{"k":'; repeat '[' 10000; repeat ']' 10000; printf '}\n'; } >deep/deep.cnv
run "$TLV" check deep/deep.cnv
expect_status 1 "deep JSON"
expect_line "$TMP/err" "deep/deep.cnv:1:205: error: nesting deeper than 200 levels" "deep JSON: message"
{ printf '{"Resources":'; for i in $(seq 10000); do printf '{"a":'; done; printf 1; repeat '}' 10000; printf '}\n'; } >deep/deep.res
run "$TLV" convert -R deep -r deep/deep.res empty.log
expect_status 2 "deep resource file"
expect_line "$TMP/err" "deep/deep.res:1:1009: error: nesting deeper than 200 levels" "deep resource file: message"

# A rule file that never ends (here /dev/zero) is refused past 64 MB (the
# time-out only bounds a build without that limit).
ln -s /dev/zero deep/endless.cnv
run timeout 60 "$TLV" check deep/endless.cnv
expect_status 1 "endless rule file"
expect_line "$TMP/err" "deep/endless.cnv: error: cannot read the file: File too large" "endless rule file: message"

# Conditions nested beyond reason (150 parentheses; COND_MAX_DEPTH is 100) in
# a rule condition, a Type(cond) target and a macro: each an error naming the
# line; 100,000 '!' are fine (taken in a loop); sane conditions still work.
mkdir conds && cp k.resh k.res conds/
open="$(repeat '(' 150)"
close="$(repeat ')' 150)"
cat >conds/k.cnv <<JSON
{"k": {
  "^(?<t>\\\\d+) deep\$": {"${open}1==1${close}": "[\${t}]A.state=DEEP"},
  "^(?<t>\\\\d+) not\$": {"$(repeat '!' 100000)true": "[\${t}]A.state=NOT"},
  "^(?<t>\\\\d+) target\$": "[\${t}]Task(${open}id==1${close}).state=TARGET",
  "^(?<t>\\\\d+) macro\$": "[\${t}]\$RES_NAME{Task(${open}id==1${close})}.state=MACRO",
  "^(?<t>\\\\d+) ok\$": {"((1==1)) && !(2<1)": "[\${t}]A.state=OK"}
}}
JSON
printf '1 deep\n2 not\n3 target\n4 macro\n5 ok\n' >conds.log
run "$TLV" convert -q -R conds -r conds/k.res conds.log
expect_status 1 "deep conditions"
checks=$((checks + 1))
[ "$(cat "$TMP/out")" = "$(printf '[2]A.state=NOT\n[5]A.state=OK')" ] || fail "deep conditions: events $(cat "$TMP/out")"
expect_line "$TMP/err" "conds.log:1: error: rule \"^(?<t>\\d+) deep\$\": condition \"${open}1==1${close}\" (from \"${open}1==1${close}\"): expression nested too deeply" "deep rule condition"
expect_line "$TMP/err" "conds.log:3: error: rule \"^(?<t>\\d+) target\$\": condition '${open}id==1${close}': expression nested too deeply" "deep Type(cond) target"
expect_line "$TMP/err" "conds.log:4: error: rule \"^(?<t>\\d+) macro\$\": \$RES_NAME{Task(${open}id==1${close})}: condition '$(repeat '(' 60)...': expression nested too deeply" "deep macro condition"

# Figures nested beyond reason (40 arrays, 40 condition objects; the limit is
# 32): an error for each event drawn, and the other figures are drawn.
mkdir figs && cp k.resh k.cnv figs/
cat >figs/k.viz <<JSON
{"k": {
  "Shapes": {"bar": [{"Type": "Rectangle", "Fill": "ff0000"}]},
  "VisualizeRules": {"r": {"Target": "Task", "Shapes": {
    "arrays": {"When": "\${TARGET}.hello()", "Figures": $(repeat '[' 40)"bar"$(repeat ']' 40)},
    "conds": {"When": "\${TARGET}.hello()", "Figures": $(for i in $(seq 40); do printf '{"true":'; done)"bar"$(repeat '}' 40)},
    "ok": {"When": "\${TARGET}.hello()", "Figures": [[["bar"]]]}
  }}}
}}
JSON
printf '{"ConvertRules":["k"],"ResourceHeaders":["k"],"VisualizeRules":["k"],"Resources":{"A":{"Type":"Task","Attributes":{"id":1}}}}\n' >figs/k.res
printf '1 hi x\n' >figs.log
run "$TLV" shapes -R figs -r figs/k.res figs.log
expect_status 1 "deep figures"
expect_line "$TMP/out" '{"rule":"r","event":"ok","resource":"A","from":1,"to":1,"type":"Rectangle","text":null,"fill":"ffff0000","pen":null,"row":0}' "deep figures: the sane figure"
expect_line "$TMP/err" "figs/k.viz:4:5: error: rule 'r', event 'arrays' (trace line 1): figures nested more than 32 levels deep" "deep figure arrays"
expect_line "$TMP/err" "figs/k.viz:5:5: error: rule 'r', event 'conds' (trace line 1): figures nested more than 32 levels deep" "deep figure conditions"

# ---- -o: no partial trace under the final name ----------------------------------

printf 'old trace\n' >kept.std
# A read error (the "log" is a directory): exit 2, the old file untouched.
mkdir not_a_log
convert not_a_log -o kept.std
expect_status 2 "read error"
expect_line "$TMP/err" "tlv: error reading 'not_a_log': Is a directory" "read error: message"
expect_line kept.std "old trace" "read error: the old trace is kept"
# A run ended by a signal while it waits for more of the log: the temporary
# file existed, and is gone; the old file is untouched.
for sig in INT TERM; do
  rm -f live.fifo
  mkfifo live.fifo
  env --default-signal=INT "$TLV" convert -q -R . -r k.res live.fifo -o kept.std 2>/dev/null &
  pid=$!
  exec 3<>live.fifo # read-write: opening never blocks, even if tlv failed early
  printf '1 run 1\n' >&3
  for i in $(seq 1200); do ls kept.std.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done  # up to 60 s: a loaded machine (or ASan) starts slowly
  checks=$((checks + 1))
  ls kept.std.tmp.* >/dev/null 2>&1 || fail "SIG$sig: no temporary file while running"
  kill -"$sig" "$pid"
  wait "$pid"
  status=$?
  exec 3>&-
  expect_status $((128 + $(kill -l "$sig"))) "SIG$sig: killed by the signal"
  expect_line kept.std "old trace" "SIG$sig: the old trace is kept"
  checks=$((checks + 1))
  [ "$(ls | grep -c '\.tmp\.')" -eq 0 ] || fail "SIG$sig: temporary file left behind: $(ls | grep '\.tmp\.')"
done
# The other commands' -o goes the same way: the new file replaces the old one
# whole, nothing is left beside it, and a device is written, not replaced.
for cmd in "shapes" "export --format csv" "stats" "render"; do
  printf 'old output\n' >kept.out
  run "$TLV" $cmd -r "$SRC/samples/asp/sample.res" -o kept.out "$SRC/samples/asp/sample.log"
  expect_status 0 "$cmd -o: a new file"
  checks=$((checks + 1))
  if grep -qx "old output" kept.out || [ ! -s kept.out ]; then fail "$cmd -o: kept.out not replaced"; fi
  checks=$((checks + 1))
  [ "$(ls | grep -c '\.tmp\.')" -eq 0 ] || fail "$cmd -o: temporary file left behind: $(ls | grep '\.tmp\.')"
  run "$TLV" $cmd -r "$SRC/samples/asp/sample.res" -o /dev/null "$SRC/samples/asp/sample.log"
  expect_status 0 "$cmd -o /dev/null"
  checks=$((checks + 1))
  [ -c /dev/null ] || fail "$cmd -o /dev/null replaced the device"
done
# A full disk (a 64 KB tmpfs filled up, when the test runs as root): every
# command's -o says which file it could not write and why, exits 2, leaves
# nothing beside the old output, and the old output is kept.
full="$TMP/full"
mkdir -p "$full"
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: full-disk checks need root (mount -t tmpfs)"
elif ! mount -t tmpfs -o size=64k tlvfull "$full" 2>/dev/null; then
  echo "skipped: full-disk checks: cannot mount a tmpfs here"
else
  printf 'old output\n' >"$full/kept.out"
  dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null
  for cmd in "convert" "shapes" "export --format csv" "stats" "render"; do
    run "$TLV" $cmd -r "$SRC/samples/asp/sample.res" -o "$full/kept.out" "$SRC/samples/asp/sample.log"
    expect_status 2 "full disk: $cmd -o"
    expect_line "$TMP/err" "tlv: cannot write '$full/kept.out': No space left on device" "full disk: $cmd -o: message"
    expect_line "$full/kept.out" "old output" "full disk: $cmd -o: the old output is kept"
    checks=$((checks + 1))
    [ "$(ls "$full" | grep -c '\.tmp\.')" -eq 0 ] || fail "full disk: $cmd -o: temporary file left behind"
  done
  umount "$full"
fi
finish
