#!/usr/bin/env bash
# test_diff.sh — tlv diff on two runs of a sample program, one deliberately
# slower (tlv-gen --slower 3:150: task 3, TASK2, works half as long again):
# every figure of a row is the figure tlv stats gives for that run, and the
# change is B - A; the ASP sample against its first 100 lines: the actors
# of one run only (INH_SIO, CYCHDR1 and ALMHDR1 first run at lines 128, 181
# and later), INH_TIMER's 22 and 89 returns (its longest 488 and 1696 us);
# a run against itself; Linux runs paired by label without ids; CSV, JSON,
# --top and the usage errors.
. "$(dirname "$0")/lib.sh"

GEN="${TLV_GEN:?TLV_GEN must point to tlv-gen}"
"$GEN" --emit-res | retarget_res /dev/stdin >"$TMP/gen.res"
"$GEN" --lines 3000 -o "$TMP/a.log"
"$GEN" --lines 3000 --slower 3:150 -o "$TMP/b.log"
G=(-r "$TMP/gen.res")

# The slower run against the other: the rows are tlv stats' figures.
run "$TLV" diff --format json "${G[@]}" "$TMP/a.log" "$TMP/b.log"
expect_status 0 "diff of two runs"
cp "$TMP/out" "$TMP/diff.json"
for side in a b; do
  "$TLV" stats --json "${G[@]}" "$TMP/$side.log" >"$TMP/stats_$side.json" 2>/dev/null
  "$TLV" stats --instances --json "${G[@]}" "$TMP/$side.log" >"$TMP/inst_$side.json" 2>/dev/null
done
jq -c '[.states[] | select(.resource == "TASK2" and .state == "RUNNING") | .count, .total][]' \
  "$TMP/stats_a.json" "$TMP/stats_b.json" | paste -sd, >"$TMP/want"
jq -c '.states[] | select(.actor == "TASK2" and .state == "RUNNING") | [.a.count, .a.time, .b.count, .b.time] | map(tostring) | join(",")' -r \
  "$TMP/diff.json" >"$TMP/got"
checks=$((checks + 1))
cmp -s "$TMP/want" "$TMP/got" || fail "TASK2 RUNNING: diff $(cat "$TMP/got"), stats $(cat "$TMP/want")"
jq -e '.states[] | select(.actor == "TASK2" and .state == "RUNNING") | .change == .b.time - .a.time and .b.time > .a.time' \
  "$TMP/diff.json" >/dev/null
expect_status 0 "the slower task runs longer, and the change is B - A"
jq -c '.instances[] | select(.resource == "TASK2" and .kind == "response") | [.count, .p50, .p90, .p99, .max]' \
  "$TMP/inst_a.json" "$TMP/inst_b.json" | paste -sd, >"$TMP/want"
jq -c '.instances[] | select(.actor == "TASK2" and .kind == "response") | [.a.count, .a.p50, .a.p90, .a.p99, .a.max], [.b.count, .b.p50, .b.p90, .b.p99, .b.max]' \
  "$TMP/diff.json" | paste -sd, >"$TMP/got"
checks=$((checks + 1))
cmp -s "$TMP/want" "$TMP/got" || fail "TASK2 response: diff $(cat "$TMP/got"), stats $(cat "$TMP/want")"
jq -e '[.instances[] | (.change | fabs)] as $c | $c == ($c | sort | reverse)' "$TMP/diff.json" >/dev/null
expect_status 0 "instances sorted by the largest change"

# Sorted by the mean execution time, the slowed task comes first: its work
# takes longer whatever the schedule did around it.
run "$TLV" diff --kind response --sort exec --format json "${G[@]}" "$TMP/a.log" "$TMP/b.log"
expect_status 0 "--sort exec"
jq -r '.instances[0].actor' "$TMP/out" >"$TMP/first"
expect_line "$TMP/first" TASK2 "the slowed task first"
jq -e '.instances[0] | .b.executionMean > 1.2 * .a.executionMean' "$TMP/out" >/dev/null
expect_status 0 "the slowed task's execution time grew by more than 20%"
run "$TLV" diff --sort median -r "$TMP/gen.res" "$TMP/a.log" "$TMP/b.log"
expect_status 2 "a bad --sort"
expect_contains "$TMP/err" "--sort must be max, p50, p90, p99 or exec, not 'median'" "a bad --sort"

# The ASP sample against its first 100 lines, as text.
ASP="$SRC/samples/asp/sample.log"
head -100 "$ASP" >"$TMP/asp100.log"
run "$TLV" diff --kind response -r "$SRC/samples/asp/sample.res" "$TMP/asp100.log" "$ASP"
expect_status 0 "diff of a log and its beginning"
expect_line "$TMP/out" "A: $TMP/asp100.log" "A named"
expect_line "$TMP/out" "Response times (us), by the largest change of the maximum:" "the table's title"
expect_grep "$TMP/out" "^INH_TIMER  response  *22  *89  *252  *252  *334  *488  *488  *1696  *488  *1696  .* +1208  +247.5%$" "INH_TIMER side by side"
expect_grep "$TMP/out" "^TASK1      response  *-  *3  *-  *295901  *-  *376717  *-  *376717  *-  *376717  .* +376717  *new$" "an actor with instances in B only"
expect_line "$TMP/out" "Only in A ($TMP/asp100.log): none" "nothing in A only"
expect_line "$TMP/out" "Only in B ($ASP): INH_SIO, CYCHDR1, ALMHDR1" "actors of B only"

# A run against itself: no change at all.
run "$TLV" diff --format csv -r "$SRC/samples/asp/sample.res" "$ASP" "$ASP"
expect_status 0 "diff of a log with itself"
expect_line "$TMP/out" "section,actor,state_or_kind,name,a_count,b_count,a_value,b_value,change,change_percent,a_p50,b_p50,a_p90,b_p90,a_p99,b_p99,a_exec_mean,b_exec_mean" "CSV header"
expect_line "$TMP/out" "states,TASK1,RUNNING,,10,10,545657,545657,0,0,,,,,,,," "a state row in CSV"
checks=$((checks + 1))
awk -F, 'NR > 1 && $9 != 0 { bad++ } END { exit bad > 0 }' "$TMP/out" || fail "a log compared with itself changed"

# Linux: threads pair by their labels without ids (xz[4330] and xz[16419]).
run "$TLV" diff --format json --kind response -r linux_sched.res "$SRC/samples/linux/sched/xz.log" \
  "$SRC/samples/linux/sched/xz-trace-cmd.log"
expect_status 0 "diff of two Linux recordings"
jq -c '.instances[] | select(.actor == "xz") | [(.a != null), (.b != null)]' "$TMP/out" >"$TMP/xz"
expect_line "$TMP/xz" '[true,true]' "xz paired across runs"

run "$TLV" diff --top 2 --states -r "$SRC/samples/asp/sample.res" "$TMP/asp100.log" "$ASP"
expect_status 0 "--top"
checks=$((checks + 1))
[ "$(grep -c '^[A-Z_0-9]* *[A-Z-]* *[0-9-]' "$TMP/out")" -eq 2 ] || fail "--top 2 printed $(cat "$TMP/out")"

run "$TLV" diff -r "$SRC/samples/asp/sample.res" "$ASP"
expect_status 2 "one log"
expect_contains "$TMP/err" "give two logs: tlv diff -r FILE.res A B" "one log"
run "$TLV" diff --format xml -r "$SRC/samples/asp/sample.res" "$ASP" "$ASP"
expect_status 2 "a bad format"
expect_contains "$TMP/err" "--format must be text, csv or json, not 'xml'" "a bad format"

finish
