# tlv shapes: From/To pairing, When instants, condition figures, a rule
# without Target, macros in figure arguments, the JSON Lines output, rule
# errors reported with rule, event and trace line while other shapes are still
# drawn; and the corpus logs all drawn.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cat >v.resh <<'JSON'
{"v":{"Task":{"DisplayName":"Task","Attributes":{"state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}},
  "Behaviors":{"enter":{"Arguments":{"name":"String"}},"leave":{"Arguments":{"name":"String","ret":"String"}},"mark":{}}}}}
JSON
cat >v.cnv <<'JSON'
{"v":{
 "^(?<t>\\d+) (?<task>\\w+) (?<st>RUN|IDLE|WAIT)$": "[${t}]${task}.state=${st}",
 "^(?<t>\\d+) (?<task>\\w+) enter (?<n>\\w+)$": "[${t}]${task}.enter(${n})",
 "^(?<t>\\d+) (?<task>\\w+) leave (?<n>\\w+) (?<r>.*)$": "[${t}]${task}.leave(${n},${r})",
 "^(?<t>\\d+) (?<task>\\w+) mark$": "[${t}]${task}.mark()"
}}
JSON
cat >v.viz <<'JSON'
{"v":{
 "Shapes":{
   "run":[{"Type":"Rectangle","Size":"100%,80%","Fill":"${ARG0}"}],
   "line":[{"Type":"Line","Points":["l(0),50%","r(0),50%"],"Pen":{"Color":"ff0000ff"}}],
   "call":[{"Type":"Rectangle","Size":"100%,40%","Fill":"80ff0000"},{"Type":"Text","Text":"${ARG0} -> ${ARG1}"}],
   "flag":[{"Type":"Arrow","Points":["0,100%","0,0"]}],
   "who":[{"Type":"Text","Text":"${ARG0}"}]
 },
 "VisualizeRules":{
   "states":{"Target":"Task","Shapes":{"st":{"From":"${TARGET}.state","To":"${TARGET}.state",
        "Figures":{"${FROM_VAL}==RUN":"run(00ff00)","${FROM_VAL}!=RUN":["line",{"${TO_VAL}==RUN":"flag"}]}}}},
   "calls":{"Target":"Task","Shapes":{"call":{"From":"${TARGET}.enter()","To":"${TARGET}.leave(${FROM_ARG0})","Figures":"call(${FROM_ARG0},${TO_ARG1})"}}},
   "marks":{"Target":"Task","Shapes":{"m":{"When":"${TARGET}.mark()","Figures":"flag"}}},
   "running":{"DisplayName":"Who runs","Shapes":{"r":{"From":"Task(state!=RUN).state=RUN","To":"${FROM_TARGET}.state","Figures":"who($RES_DISPLAYNAME{${FROM_TARGET}})"}}}
 }}}
JSON
cat >v.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["v"],"ResourceHeaders":["v"],"VisualizeRules":["v"],
 "Resources":{"A":{"Type":"Task","DisplayName":"Alpha"},"B":{"Type":"Task"}}}
JSON
# A's "bar" never returns and stays open to the end; B's "quit" never returns
# either but B's later call supersedes it, so it is not drawn.
printf '10 A RUN\n12 A enter foo\n13 A enter bar\n15 A leave foo ok then\n20 A WAIT\n20 B RUN\n25 B mark\n26 B enter quit\n27 B enter foo\n28 B leave foo x\n30 B IDLE\n30 A RUN\n40 B mark\n50 A IDLE\n' >v.log

run "$TLV" shapes -R . -r v.res v.log
expect_status 0 "tlv shapes"
cat >expected.jsonl <<'EOF2'
{"rule":"calls","event":"call","resource":"A","from":12,"to":15,"type":"Rectangle","text":null,"fill":"80ff0000","pen":null,"row":0}
{"rule":"calls","event":"call","resource":"A","from":12,"to":15,"type":"Text","text":"foo -> ok then","fill":null,"pen":null,"row":0}
{"rule":"calls","event":"call","resource":"A","from":13,"to":50,"type":"Rectangle","text":null,"fill":"80ff0000","pen":null,"row":0}
{"rule":"calls","event":"call","resource":"A","from":13,"to":50,"type":"Text","text":"bar -> (open)","fill":null,"pen":null,"row":0}
{"rule":"calls","event":"call","resource":"B","from":27,"to":28,"type":"Rectangle","text":null,"fill":"80ff0000","pen":null,"row":1}
{"rule":"calls","event":"call","resource":"B","from":27,"to":28,"type":"Text","text":"foo -> x","fill":null,"pen":null,"row":1}
{"rule":"marks","event":"m","resource":"B","from":25,"to":40,"type":"Arrow","text":null,"fill":null,"pen":"ff000000","row":1}
{"rule":"marks","event":"m","resource":"B","from":40,"to":50,"type":"Arrow","text":null,"fill":null,"pen":"ff000000","row":1}
{"rule":"running","event":"r","resource":null,"from":10,"to":20,"type":"Text","text":"Alpha","fill":null,"pen":null,"row":2}
{"rule":"running","event":"r","resource":null,"from":20,"to":30,"type":"Text","text":"B","fill":null,"pen":null,"row":2}
{"rule":"running","event":"r","resource":null,"from":30,"to":50,"type":"Text","text":"Alpha","fill":null,"pen":null,"row":2}
{"rule":"states","event":"st","resource":"A","from":10,"to":10,"type":"Line","text":null,"fill":null,"pen":"ff0000ff","row":0}
{"rule":"states","event":"st","resource":"A","from":10,"to":10,"type":"Arrow","text":null,"fill":null,"pen":"ff000000","row":0}
{"rule":"states","event":"st","resource":"A","from":10,"to":20,"type":"Rectangle","text":null,"fill":"ff00ff00","pen":null,"row":0}
{"rule":"states","event":"st","resource":"A","from":20,"to":30,"type":"Line","text":null,"fill":null,"pen":"ff0000ff","row":0}
{"rule":"states","event":"st","resource":"A","from":20,"to":30,"type":"Arrow","text":null,"fill":null,"pen":"ff000000","row":0}
{"rule":"states","event":"st","resource":"A","from":30,"to":50,"type":"Rectangle","text":null,"fill":"ff00ff00","pen":null,"row":0}
{"rule":"states","event":"st","resource":"A","from":50,"to":50,"type":"Line","text":null,"fill":null,"pen":"ff0000ff","row":0}
{"rule":"states","event":"st","resource":"B","from":10,"to":20,"type":"Line","text":null,"fill":null,"pen":"ff0000ff","row":1}
{"rule":"states","event":"st","resource":"B","from":10,"to":20,"type":"Arrow","text":null,"fill":null,"pen":"ff000000","row":1}
{"rule":"states","event":"st","resource":"B","from":20,"to":30,"type":"Rectangle","text":null,"fill":"ff00ff00","pen":null,"row":1}
{"rule":"states","event":"st","resource":"B","from":30,"to":50,"type":"Line","text":null,"fill":null,"pen":"ff0000ff","row":1}
EOF2
checks=$((checks + 1))
diff expected.jsonl "$TMP/out" >diff.txt || fail "tlv shapes output differs: $(cat diff.txt)"

# A figure that names no shape: reported (with rule, event and trace line),
# the other shapes still drawn, exit 1.
mkdir bad && cp v.resh v.cnv bad/
sed 's/"flag"}\]}}}},/"flg"}]}}}},/' v.viz >bad/v.viz
run "$TLV" shapes -R bad -r v.res v.log
expect_status 1 "figure naming no shape"
expect_line "$TMP/err" "bad/v.viz:11:98: warning: rule 'states': figure 'flg' names no shape of the requested targets" "found when loading"
expect_line "$TMP/err" "bad/v.viz:10:40: error: rule 'states', event 'st' (trace line 5): figure 'flg' names no shape" "reported with its trace line"
expect_line "$TMP/err" "bad/v.viz:10:40: error: rule 'states', event 'st' (initial values): figure 'flg' names no shape" "initial values"
expect_contains "$TMP/out" '"rule":"marks","event":"m","resource":"B","from":25,"to":40' "other shapes still drawn"

# No visualization rules requested: a clear error.
printf '{"ConvertRules":["v"],"ResourceHeaders":["v"],"Resources":{"A":{"Type":"Task"}}}\n' >nov.res
run "$TLV" shapes -R . -r nov.res v.log
expect_status 1 "no visualization rules"
expect_contains "$TMP/err" "nov.res: error: no visualization rules: the resource file requests none in \"VisualizeRules\"" "no rules message"

# ---- a trace that tlv convert wrote, drawn with the raw log's resource file --------
SRES="$SRC/samples/asp/sample.res"
run "$TLV" convert -q -r "$SRES" -o sample.std "$SRC/samples/asp/sample.log"
expect_status 0 "convert the sample"
run "$TLV" shapes -r "$SRES" -o from_log.jsonl "$SRC/samples/asp/sample.log"
expect_status 0 "shapes of the sample log"
run "$TLV" shapes -r "$SRES" -o from_std.jsonl sample.std
expect_status 0 "shapes of sample.std"
checks=$((checks + 1)); [ -s from_log.jsonl ] && cmp -s from_log.jsonl from_std.jsonl ||
  fail "shapes of sample.std differ from those of the log it came from"
cp sample.std sample.trace
run "$TLV" shapes -r "$SRES" -o from_txt.jsonl sample.trace
expect_status 0 "shapes of a trace not named .std"
expect_contains "$TMP/err" "sample.trace: warning: no rule matched any of the 861 lines read (they look like a standard-form trace: tlv reads one with --std, or when its name ends in .std)" "the hint for a trace given as a log"
run "$TLV" shapes -r "$SRES" --std -o from_txt.jsonl sample.trace
expect_status 0 "shapes --std"
checks=$((checks + 1)); cmp -s from_log.jsonl from_txt.jsonl || fail "--std: shapes differ from the log's"
run "$TLV" convert -q -r "$SRES" -o again.std sample.std
expect_status 0 "convert a .std again"
checks=$((checks + 1)); cmp -s sample.std again.std || fail "a standard-form trace read and written again changed"

# Many shapes (and an export's trace events) are formatted on several
# threads, in chunks of 16384, and written in order: the same bytes as one
# thread's (a generated log of 40000 lines, some 50000 shapes: several
# chunks); a write that fails is an error.
GEN="${TLV_GEN:-$(dirname "$TLV")/tlv-gen}"
if [ -x "$GEN" ]; then
  "$GEN" --kernel asp --emit-res >gen.res
  retarget_res gen.res >own.res
  "$GEN" --kernel asp --lines 40000 -o g.log
  run "$TLV" shapes --threads 1 -r own.res -o one.jsonl g.log
  expect_status 0 "shapes of a generated log, 1 thread"
  checks=$((checks + 1))
  [ "$(wc -l <one.jsonl)" -gt 40000 ] || fail "generated log: $(wc -l <one.jsonl) shapes, expected more than 40000"
  for t in 2 3; do
    run "$TLV" shapes --threads $t -r own.res -o many.jsonl g.log
    expect_status 0 "shapes of a generated log, $t threads"
    checks=$((checks + 1)); cmp -s one.jsonl many.jsonl || fail "shapes written on $t threads differ from 1 thread's"
  done
  run "$TLV" shapes --threads 2 -r own.res g.log
  checks=$((checks + 1)); cmp -s one.jsonl "$TMP/out" || fail "shapes on standard output, 2 threads, differ"
  # tlv export writes its trace events the same way
  run "$TLV" export --threads 1 -r own.res -o one.json g.log
  expect_status 0 "export of a generated log, 1 thread"
  for t in 2 3; do
    run "$TLV" export --threads $t -r own.res -o many.json g.log
    expect_status 0 "export of a generated log, $t threads"
    checks=$((checks + 1)); cmp -s one.json many.json || fail "export written on $t threads differs from 1 thread's"
  done
  run "$TLV" shapes --threads 2 -r own.res -o /dev/full g.log
  expect_status 2 "shapes to a full disk"
  expect_contains "$TMP/err" "cannot write '/dev/full'" "shapes to a full disk"
  run "$TLV" export --threads 2 -r own.res -o /dev/full g.log
  expect_status 2 "export to a full disk"
fi

if have_corpus; then
  run "$TLV" shapes -R "$CORPUS/rules" -r "$CORPUS/logs/asp/asp_short.res" "$CORPUS/logs/asp/asp_short.log"
  expect_status 0 "corpus asp_short shapes"
  checks=$((checks + 1)); [ "$(wc -l <"$TMP/out")" -eq 1774 ] || fail "asp_short: $(wc -l <"$TMP/out") shapes, expected 1774"
  expect_line "$TMP/out" '{"rule":"callSvc","event":"callSvcEvent","resource":"LOGTASK","from":1926446,"to":1926624,"type":"Text","text":"ena_int(intno=2.)","fill":null,"pen":null,"row":0}' "a service call's text"
  # Per-CPU mode on the two-processor FMP log: a "CPU n" row per processor
  # showing what ran on it; at most one task runs on a processor at a time.
  run "$TLV" shapes --per-cpu -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res" "$CORPUS/logs/fmp/fmp_short.log"
  expect_status 0 "per-CPU shapes"
  expect_contains "$TMP/out" '{"rule":"perCpu","event":"running","resource":"LOGTASK1","from":954133,"to":983500,"type":"Rectangle"' "first bar on CPU 1"
  grep '"rule":"perCpu"' "$TMP/out" | grep '"type":"Rectangle"' |
    sed 's/.*"from":\([0-9]*\),"to":\([0-9]*\),.*"row":\([0-9]*\)}/\3 \1 \2/' | sort -n -k1,1 -k2,2 >bars.txt
  checks=$((checks + 1))
  [ "$(cut -d' ' -f1 bars.txt | sort -u | wc -l)" -eq 2 ] || fail "per-CPU: expected bars on 2 processor rows"
  checks=$((checks + 1))
  awk '$1 == row && $2 < end { bad = 1 } { row = $1; end = $3 } END { exit bad }' bars.txt ||
    fail "per-CPU: two tasks running on one processor at once"
  for res in "$CORPUS"/logs/*/*.res; do
    dir=$(dirname "$res"); base=$(basename "$res" .res); log="$dir/$base.log"
    [ -f "$log" ] || log=$(ls "$dir"/*.log | head -n 1)
    run "$TLV" shapes -R "$CORPUS/rules" -r "$res" "$log"
    expect_status 0 "shapes of $base"
    checks=$((checks + 1)); [ -s "$TMP/out" ] || fail "$base: no shapes"
  done
fi
finish
