# Text changed or cut (issue 32.7). Captured log text arrives as it was: a
# conversion template's standard-form line held the log's backslashes as
# escapes ("C:\temp\new" became "C:tempnew" in the trace, CSV and SQLite, exit
# 0); now the text of the log and of macro values put outside macro calls is
# escaped as it is written into the line (backslashes only: a comma still
# separates arguments, as in TLV; spec §6), on every path (general and
# compiled templates, one and two threads). Marker names are cut at a
# character boundary (a cut at 47 bytes inside a UTF-8 character made the
# SQLite export hold invalid UTF-8). A log's ESC or BEL is shown as \e, \x07 on a
# terminal by messages and `tlv query`, never sent to it raw.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"path":{"VariableType":"String","AllocationType":"Dynamic","Default":"none"},
  "state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}},
  "Behaviors":{"call":{"Arguments":{"a":"String","b":"String"}}}}}}
JSON
cat >k.cnv <<'JSON'
{"k": {
  "^(?<t>\\d+) path (?<p>.*)$": "[${t}]A.path=${p}",
  "^(?<t>\\d+) call (?<a>.*)$": "[${t}]A.call(${a})",
  "^(?<t>\\d+) copy$": "[${t}]B.path=$ATTR{A.path}",
  "^(?<t>\\d+) tail ": "[${t}]A.path=",
  "^(?<t>\\d+) both (?<p>.*)$": "[${t}]A.path=${p}|$ATTR{A.state}",
  "^(?<t>\\d+) find (?<p>.*)$": "[${t}]$RES_NAME{Task(path==${p})}.state=FOUND"
}}
JSON
cat >k.viz <<'JSON'
{"k":{"Shapes":{"b":[{"Type":"Rectangle"}]},
 "VisualizeRules":{"p":{"Target":"Task","Shapes":{"s":{"From":"${TARGET}.path","To":"${TARGET}.path","Figures":"b"}}}}}}
JSON
cat >k.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],"VisualizeRules":["k"],
 "Resources":{"A":{"Type":"Task"},"B":{"Type":"Task"},"C":{"Type":"Task","Attributes":{"path":"D:\\x\\y"}}}}
JSON
# A group in a value, in arguments, a macro's value, the rest of a line
# glued on (Regex.Replace), a line holding '$' and braces (the general path,
# not the compiled one), and a group inside a macro's argument (read as it
# is: the condition compares the log's text).
printf '%s\n' '1 path C:\temp\new, file "a\,b"' '2 call x\y, (z)' '3 copy' '4 tail C:\dir\' \
  '5 both C:\a\b' '6 both C:\a\b $x {y}' '7 find D:\x\y' >k.log
cat >want.csv <<'EOF2'
ts,name,name,value,args
1.0,A,path,"C:\temp\new, file ""a\,b""",
2.0,A,call,"x\y,(z)","[""x\\y"",""(z)""]"
3.0,B,path,"C:\temp\new, file ""a\,b""",
4.0,A,path,C:\dir\,
5.0,A,path,C:\a\b|IDLE,
6.0,A,path,C:\a\b $x {y}|IDLE,
7.0,C,state,FOUND,
EOF2
sql="select e.ts, r.name, e.name, e.value, e.args from events e join resources r on r.id = e.resource_id"
for threads in 1 2; do
  run "$TLV" query -f csv --threads $threads -R . -r k.res k.log "$sql"
  expect_status 0 "backslashes, $threads thread(s)"
  tr -d '\r' <"$TMP/out" >got.csv
  checks=$((checks + 1))
  cmp -s got.csv want.csv || fail "backslashes, $threads thread(s): the log's text changed:$(echo; diff want.csv got.csv)"
done
# The standard form escapes them, and reads back to the same events.
run "$TLV" convert -q -R . -r k.res k.log -o k.std
expect_line k.std '[1]A.path=C:\\temp\\new\, file "a\\\,b"' "standard form: a value escaped"
expect_line k.std '[2]A.call(x\\y,\(z\))' "standard form: arguments escaped"
run "$TLV" query -f csv -R . -r k.res k.std "$sql"
tr -d '\r' <"$TMP/out" >got.csv
checks=$((checks + 1))
cmp -s got.csv want.csv || fail "standard form read back:$(echo; diff want.csv got.csv)"

# TOPPERS: the project's rules on the sample give the same trace as before
# (no backslash in its logs; e2e/samples and cmp_outputs.sh compare more).
run "$TLV" convert -q -r "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log"
expect_line "$TMP/out" "[1085281]LOGTASK.enterSVC(ena_int,intno=2)" "TOPPERS: arguments split at commas as before"

# Marker names cut at a character boundary: 20 x U+3042 (60 bytes) keeps 15
# whole characters; 46 ASCII bytes and an e-acute keep the 46.
python3 - <<'PY' >s.tlvsession
import json
print(json.dumps({"tlv_session": 1, "markers": [{"name": "\u3042" * 20, "time": 1},
                                                {"name": "x" * 46 + "\u00e9", "time": 2}]},
                 ensure_ascii=False))
PY
run "$TLV" query -f csv --session s.tlvsession -R . -r k.res k.log "select length(name), hex(name) from markers order by ts"
expect_line "$TMP/out" "15,$(printf 'E38182%.0s' $(seq 15))"$'\r' "marker cut between characters"
expect_line "$TMP/out" "46,$(printf '78%.0s' $(seq 46))"$'\r' "marker cut before a 2-byte character"

# Control characters on a terminal (script(1) gives tlv one): \xHH, never raw.
printf '1 path red \033[31mX\007 done\n\033]0;pwned\007 junk line\n' >esc.log
if command -v script >/dev/null; then
  script -qec "$TLV query -R . -r k.res esc.log 'select value from events'" /dev/null >tty.out 2>&1
  expect_contains tty.out 'red \e[31mX\x07 done' "query on a terminal: ESC and BEL shown"
  script -qec "$TLV convert -R . -r k.res esc.log -o /dev/null" /dev/null >tty.out 2>&1
  expect_contains tty.out 'line 2: \e]0;pwned\x07 junk line' "messages on a terminal: ESC shown"
  checks=$((checks + 1))
  grep -q $'\033' tty.out && fail "messages on a terminal: a raw ESC"
else
  echo "skipped: no script(1) to give tlv a terminal"
fi
# Into a file the text is kept byte for byte.
run "$TLV" query -f csv -R . -r k.res esc.log "select value from events"
expect_line "$TMP/out" "red "$'\033'"[31mX"$'\007'" done"$'\r' "query into a file: as it was"

finish
