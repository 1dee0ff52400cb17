#!/usr/bin/env bash
# test_instances.sh — tlv stats --instances on the project's own samples,
# figures checked by hand against their standard-form traces:
#  - TOPPERS/ASP (samples/asp): TASK1 ("task 2") is activated at 1090858
#    (log line 15) and waits at 1467575 (line 172): 376717 us, then
#    1480059..1534291 = 54232 and 1640379..1936280 = 295901; TASK2
#    ("task 3"): 1092951..1312581 = 219630 (lines 18..106) and
#    1499583..1624483 = 124900; its latencies 1166285 - 1092951 = 73334
#    and 1534578 - 1499583 = 34995. TASK1's first instance ran
#    1098757..1166285, 1313106..1383344, 1387439..1410010,
#    1413975..1467575 less the 23 handler runs inside: 208322 us.
#  - TOPPERS/FMP (samples/fmp): TASK1_1 1468701..1591062 = 122361 and
#    1857853 (log line 357)..1991870 = 134017, and a third still open at the end.
#  - Linux perf sched (samples/linux/sched/make.log): make[7915] woken at
#    1772.963273 (line 169), first run at 1772.991174: latency 27901 us.
# The text table, --kind, --json and the errors.
. "$(dirname "$0")/lib.sh"

ASP=(-r "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log")
FMP=(-r "$SRC/samples/fmp/sample.res" "$SRC/samples/fmp/sample.log")

expect_output() {
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/expected" || fail "$1: output differs:$(echo; diff "$TMP/expected" "$TMP/out")"
}

run "$TLV" stats --instances --kind response "${ASP[@]}"
expect_status 0 "ASP instances"
cat >"$TMP/expected" <<'OUT'
Instances: response time per actor and kind (us):
resource   kind      name  count     min     p50     p90     p99     max        mean      stddev  exec max  preempt  worst at  line  partial
LOGTASK    response            8    2082    4330    5130    5130    5130    4015.625      927.98      4417        0   1739499   299        1
TASK1      response            3   54232  295901  376717  376717  376717  242283.333  137004.342    274113        7   1090858    15        0
TASK2      response            2  124900  124900  219630  219630  219630      172265       47365    136134        3   1092951    18        0
TASK3      response            0       -       -       -       -       -           -           -         -        -         -     -        1
MAIN_TASK  response            3    3668    4259    5736    5736    5736    4554.333     869.702      5000        0   1603603   233        1
INH_TIMER  response           89      90     252     488    1696    1696     298.753     267.606       630        0   1639251   264        1
INH_SIO    response            3     583     816     896     896     896         765     132.773       896        0   1754095   310        0
CYCHDR1    response            2     849     849    1360    1360    1360      1104.5       255.5      1360        0   1479247   181        0
ALMHDR1    response            1    1120    1120    1120    1120    1120        1120           0      1120        0   1639530   265        0
(percentiles nearest-rank; partial: begun before the trace or not ended at its end, not counted)
OUT
expect_output "ASP response times"

# The JSON: every group, the worst instance with its execution time.
run "$TLV" stats --instances --json "${ASP[@]}"
expect_status 0 "ASP instances --json"
jq -c '.instances[] | select(.resource == "TASK1" and .kind == "response") | .worst' "$TMP/out" >"$TMP/t1"
expect_line "$TMP/t1" '{"start":1090858,"end":1467575,"response":376717,"execution":208322,"preemptions":3,"interruptions":23,"line":15,"endLine":172}' "TASK1's worst instance"
jq -c '.instances[] | select(.resource == "TASK2" and .kind == "latency") | [.count, .min, .max]' "$TMP/out" >"$TMP/t2"
expect_line "$TMP/t2" '[2,34995,73334]' "TASK2's latencies"
jq -c '.instances[] | select(.resource == "TASK1" and .kind == "call" and .name == "slp_tsk") | [.count, .min, .max]' "$TMP/out" >"$TMP/t3"
expect_line "$TMP/t3" '[2,14169,107555]' "TASK1's slp_tsk calls"
jq -r .timeScale "$TMP/out" >"$TMP/ts"
expect_line "$TMP/ts" us "JSON time scale"

run "$TLV" stats --instances --kind response --json "${FMP[@]}"
expect_status 0 "FMP instances"
jq -c '.instances[] | select(.resource == "TASK1_1") | [.count, .partial, .min, .max, .worst.line]' "$TMP/out" >"$TMP/f1"
expect_line "$TMP/f1" '[2,1,122361,134017,357]' "FMP TASK1_1"

LOG="$SRC/samples/linux/sched/make.log"
run "$TLV" stats --instances --kind latency --json -r linux_sched.res "$LOG"
expect_status 0 "Linux latencies"
jq -c '.instances[] | select(.label == "make[7915]") | [.count, .max, .worst.start, .worst.line]' "$TMP/out" >"$TMP/l1"
expect_line "$TMP/l1" '[10,27901,1772963273,169]' "make[7915]'s worst latency"

run "$TLV" stats --instances --kind nosuch "${ASP[@]}"
expect_status 0 "an unknown kind"
expect_line "$TMP/out" "  none of kind 'nosuch' (kinds here: response, latency, call)" "the kinds there are"

run "$TLV" stats --instances --kind
expect_status 2 "--kind without a value"

finish
