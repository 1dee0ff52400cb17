# The project's own rules and bundled samples: they pass tlv check, and the
# sample converts without errors into the events a user expects. The key
# shapes of each sample are in test_sample_shapes.sh.
. "$(dirname "$0")/lib.sh"

run "$TLV" check "$SRC"/rules/*
expect_status 0 "tlv check rules/"
expect_line "$TMP/err" "tlv check: 0 errors, 0 warnings" "rules/ are clean"
# Each bundled resource file with the rules it requests.
for res in "$SRC"/samples/asp/*.res "$SRC"/samples/fmp/*.res "$SRC"/samples/linux/*.res; do
  run "$TLV" check -r "$res"
  expect_status 0 "tlv check -r $(basename "$res")"
  expect_line "$TMP/err" "tlv check: 0 errors, 0 warnings" "$(basename "$res") is clean"
done

# Found without -R: the source tree's rules/ is the default rules directory
# of an uninstalled build.
run "$TLV" convert -r "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log"
expect_status 0 "convert samples/asp"
expect_contains "$TMP/err" "tlv: 400 lines read, 349 matched, 861 events written, 0 errors," "sample summary"
expect_line "$TMP/out" "[1082473]LOGTASK.dispatch()" "first dispatch"
expect_line "$TMP/out" "[1082473]CurrentContext.name=LOGTASK" "context follows the dispatch"
expect_line "$TMP/out" "[1085281]LOGTASK.enterSVC(ena_int,intno=2)" "service call without the log's final dot"
expect_line "$TMP/out" "[1086134]LOGTASK.wait()" "behavior from a state transition"
# After an interrupt handler returns, the context goes back to the running
# task (the original left it on the handler).
checks=$((checks + 1))
awk '/INH.*\.leave\(\)/ { want = 1; next } want && /CurrentContext.name=/ { print; exit }' "$TMP/out" |
  grep -qE 'CurrentContext.name=(LOGTASK|MAIN_TASK|TASK[0-9]+|None)$' ||
  fail "context is not restored after an interrupt handler"
finish
