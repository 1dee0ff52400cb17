# test_flows.sh — `tlv shapes --flows` lists the flows the shipped rules
# define: TOPPERS activations and wake-ups (samples/fmp), strace clones to the
# child thread (samples/linux), and with the corpus FMP log, migrations drawn
# between processor rows in per-CPU mode (own rules, the corpus's .res with
# our target names).
. "$(dirname "$0")/lib.sh"

run "$TLV" shapes --flows -r "$SRC/samples/fmp/sample.res" "$SRC/samples/fmp/sample.log"
expect_status 0 "fmp sample flows"
expect_line "$TMP/out" '{"rule":"taskFlows","flow":"activated","name":"activated by","from":"MAIN_TASK_PRC2","to":"TASK2_1","from_processor":null,"to_processor":null,"time":1463963,"line":25,"from_row":9,"to_row":5}' "act_tsk: the caller activates the task"
expect_line "$TMP/out" '{"rule":"taskFlows","flow":"woken","name":"woken by","from":"INH_TIMER_PRC2","to":"LOGTASK_PRC2","from_processor":null,"to_processor":null,"time":1564876,"line":106,"from_row":13,"to_row":3}' "a timeout: the timer handler releases the task"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/out")" -eq 27 ] || fail "fmp sample: $(wc -l <"$TMP/out") flows, expected 27"
checks=$((checks + 1))
sort -c -t: -k9 -n <(sed 's/.*"time":\([0-9]*\).*/x:x:x:x:x:x:x:x:\1/' "$TMP/out") 2>/dev/null ||
  fail "flows not in time order"

run "$TLV" shapes --flows -r "$SRC/samples/linux/sample.res" "$SRC/samples/linux/sample.log"
expect_status 0 "strace sample flows"
expect_line "$TMP/out" '{"rule":"spawns","flow":"spawn","name":"created by","from":"T25933","to":"T25934","from_processor":null,"to_processor":null,"time":1795282150728512,"line":42,"from_row":0,"to_row":1}' "clone3 points to the child (at its return)"
expect_contains "$TMP/out" '"rule":"spawns","flow":"spawn","name":"created by","from":"T25933","to":"T25937"' "clone (resumed) points to the child"

# a flow naming no resource is an error with the rule, flow and line
mkdir -p "$TMP/r"
cp "$SRC/rules/toppers_fmp."* "$SRC/rules/toppers_common.viz" "$TMP/r/"
sed -i 's|"From": "${ARG0}", "To": "${TARGET}"}|"From": "${ARG0}", "To": "NO_${TARGET}"}|' "$TMP/r/toppers_common.viz"
run "$TLV" shapes --flows -R "$TMP/r" -r "$SRC/samples/fmp/sample.res" "$SRC/samples/fmp/sample.log"
expect_status 1 "flows naming no resource"
expect_contains "$TMP/err" "toppers_common.viz:119:11: error: rule 'taskFlows', event 'activated' (trace line 25): To 'NO_TASK2_1' is not a resource" "the error names rule, flow and line"

if have_corpus; then
  retarget_res "$CORPUS/logs/fmp/fmp_short.res" >"$TMP/fmp.res"
  run "$TLV" shapes --flows --per-cpu -r "$TMP/fmp.res" "$CORPUS/logs/fmp/fmp_short.log"
  expect_status 0 "corpus fmp flows"
  expect_line "$TMP/out" '{"rule":"migrationOfTask","flow":"migrate","name":"migrated from","from":"TASK1_1","to":"TASK1_1","from_processor":"1","to_processor":"2","time":13035709,"line":399,"from_row":0,"to_row":7}' "a migration runs from CPU 1's row to CPU 2's"
fi
finish
