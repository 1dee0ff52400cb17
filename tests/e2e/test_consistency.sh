# The consistency report (docs/reference.md, "Consistency"): events of a log
# that contradict the state the trace is in, by what the rule set declares
# impossible, listed by `tlv check LOG` (and --json) with their log lines,
# counted in one line after every converting command and noticed in the
# viewer's status line. The TOPPERS and Linux rule sets declare theirs: the
# project's samples and every TOPPERS corpus log contradict nothing, and the
# same logs with one line cut out (a lost event) are reported where it shows.
. "$(dirname "$0")/lib.sh"
F="$SRC/tests/e2e/linux"
ASP="$SRC/samples/asp"

# ---- TOPPERS: the samples are consistent; a lost dispatch is noticed ----------------------------
for s in asp fmp; do
  run "$TLV" check --json -r "$SRC/samples/$s/sample.res" "$SRC/samples/$s/sample.log"
  expect_status 0 "check --json of the $s sample"
  checks=$((checks + 1))
  [ "$(jq '.consistency.count' "$TMP/out")" = 0 ] && [ "$(jq '.consistency.checks | length' "$TMP/out")" -gt 0 ] ||
    fail "$s sample: $(jq -c '.consistency | {count, checks: [.checks[].check]}' "$TMP/out")"
done
# Line 8 of the ASP sample, "[1086499] dispatch to task 5.", lost: MAIN_TASK then waits while it
# is only ready (line 25 of the cut log).
sed 8d "$ASP/sample.log" >"$TMP/cut.log"
run "$TLV" check -r "$ASP/sample.res" "$TMP/cut.log"
expect_status 0 "an inconsistent log is the log's problem: check still exits 0"
expect_line "$TMP/err" "$TMP/cut.log:25: inconsistent: MAIN_TASK state=WAITING: started waiting while it was RUNNABLE: only a running task waits (its dispatch is missing) [Task.waitedNotRunning]" "the lost dispatch is reported where it shows"
expect_grep "$TMP/err" '^  Task.waitedNotRunning  *1  first at line 25  (started waiting while not running)$' "the check's count and first line"
expect_grep "$TMP/err" '^tlv check: 1 inconsistent event; checks declared by the rule set:$' "the count"
run "$TLV" convert -r "$ASP/sample.res" "$TMP/cut.log" -o "$TMP/cut.std"
expect_status 0 "convert the cut log"
expect_line "$TMP/err" "tlv: 1 event contradicts the trace's state (1 Task.waitedNotRunning; tlv check lists them); first: $TMP/cut.log:25: MAIN_TASK state=WAITING: started waiting while it was RUNNABLE: only a running task waits (its dispatch is missing)" "convert's summary says so in one line"
run "$TLV" convert -r "$ASP/sample.res" "$ASP/sample.log" -o "$TMP/ok.std"
checks=$((checks + 1))
! grep -q "contradict" "$TMP/err" || fail "a consistent log gets no consistency line: $(cat "$TMP/err")"

# ---- every TOPPERS corpus log, with the project's rule sets: no false report ---------------------
if have_corpus; then
  for res in "$CORPUS"/logs/*/*.res; do
    dir=$(dirname "$res"); base=$(basename "$res" .res)
    case "$base" in tecs*) continue ;; esac # no TECS rule set in the project
    log="$dir/$base.log"
    [ -f "$log" ] || log=$(ls "$dir"/*.log | head -n 1)
    # TLV's target names to the project's (docs/reference.md, section 9)
    tr -d '\r' <"$res" | sed -e 's/"toppers"/"toppers_common"/; s/"asp"/"toppers_asp"/g; s/"fmp"/"toppers_fmp"/g' \
      -e 's/"fmp_mig"/"toppers_fmp_mig"/g; s/"fmp\(_mig\)\{0,1\}_core\([0-9]\)"/"toppers_fmp_core\2"/g' >"$TMP/$base.res"
    run "$TLV" check --json -r "$TMP/$base.res" "$log"
    expect_status 0 "check $base with the project's rules"
    checks=$((checks + 1))
    [ "$(jq '.consistency.count' "$TMP/out")" = 0 ] && [ "$(jq '.lines_matched' "$TMP/out")" -gt 100 ] ||
      fail "$base: $(jq -c '{lines_matched, c: .consistency.inconsistencies[:3]}' "$TMP/out")"
  done
else
  echo "note: corpus not found at $CORPUS: its logs not checked"
fi

# ---- perf sched: lost switches, time going back -----------------------------------------------
L="$F/perf_sched_lost.log"
run "$TLV" check -r linux_sched.res "$L"
expect_status 0 "check the perf sched log with lost switches"
expect_line "$TMP/err" "$L:7: inconsistent: T2001 (spin[2001]) state=UNKNOWN: was running on CPU 1 when another task was switched out there (its switch-out is missing) [Task.lostSwitchOut]" "a task still running where another is switched out"
expect_line "$TMP/err" "$L:11: inconsistent: O60 (kworker/1:0[60]) state=SLEEPING: switched out while it was SLEEPING, not running (its switch-in is missing) [OtherTask.switchedOutNotRunning]" "a task switched out that was not running"
run "$TLV" check --json -r linux_sched.res "$L"
expect_status 0 "check --json"
checks=$((checks + 1))
[ "$(jq -c '.consistency | [.count, .listed, .inconsistencies[0].line, .inconsistencies[0].time, .inconsistencies[0].resource, .inconsistencies[0].check]' "$TMP/out")" = '[2,2,7,"200000500","T2001","Task.lostSwitchOut"]' ] ||
  fail "check --json: $(jq -c '.consistency' "$TMP/out")"
checks=$((checks + 1))
[ "$(jq -c '[.consistency.checks[] | select(.count > 0) | [.check, .count, .first_line]]' "$TMP/out")" = '[["Task.lostSwitchOut",1,7],["OtherTask.switchedOutNotRunning",1,11]]' ] ||
  fail "check --json counts: $(jq -c '.consistency.checks' "$TMP/out")"
run "$TLV" stats -r linux_sched.res "$L"
expect_line "$TMP/err" "tlv: 2 events contradict the trace's state (1 Task.lostSwitchOut, 1 OtherTask.switchedOutNotRunning; tlv check lists them); first: $L:7: T2001 (spin[2001]) state=UNKNOWN: was running on CPU 1 when another task was switched out there (its switch-out is missing)" "stats' consistency line"
# A task switched in on a second CPU; lines out of time order ("InTimeOrder" in linux_sched.res)
{ sed -n 1,5p "$L"
  echo '         swapper     0 [000]   200.000310:       sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=2001 next_prio=120'
  echo '            spin  2001 [000]   200.000305: sched:sched_migrate_task: comm=spin pid=2001 prio=120 orig_cpu=1 dest_cpu=0'
} >"$TMP/two.log"
run "$TLV" check -r linux_sched.res "$TMP/two.log"
expect_line "$TMP/err" "$TMP/two.log:6: inconsistent: T2001 (spin[2001]) state=RUNNING: switched in while it was running on CPU 1: a task on two CPUs at once, or switched in twice (a switch-out is missing) [Task.switchedInTwice]" "a task switched in on a second CPU"
expect_line "$TMP/err" "$TMP/two.log:7: inconsistent: time goes back to 200000305 from 200000310 (line 6) [InTimeOrder]" "time going back"
run "$TLV" stats -r linux_sched.res "$TMP/two.log"
expect_grep "$TMP/out" '^CPU 1  *160 ' "the task's time on CPU 1 ends where it is switched in on CPU 0 (150 to 310)"

# ---- the viewer's notice ---------------------------------------------------------------------
. "$SRC/tests/e2e/view_lib.sh"
printf 'dump-state %s\n' "$TMP/state.json" >"$TMP/s.txt"
view -r linux_sched.res --no-session --size 700x450 --script "$TMP/s.txt" "$L"
expect_status 0 "view the log with lost switches"
check "the status line notices the inconsistent events" \
  '.[0].inconsistent_events == 2 and .[0].message == "2 inconsistent events (first: line 7) - tlv check"' "$TMP/state.json"
expect_contains "$TMP/err" "tlv: 2 events contradict the trace's state" "and stderr says so once"
# dump-state says how times are shown and from what origin (perf's uptime: a clock; strace
# -ttt's seconds since 1970: the wall clock, its start as a date)
check "a perf log's times: a clock, from its first event" \
  '.[0].time_mode == "clock" and .[0].time_origin == "200000050"' "$TMP/state.json"
view -r linux_strace.res --no-session --size 700x450 --script "$TMP/s.txt" "$F/strace_cases.log"
expect_status 0 "view an strace log"
check "an strace -ttt log's times: the wall clock, its start as a date" \
  '.[0].time_mode == "wall-clock" and .[0].time_origin == "1700000000000100" and .[0].time_start == "start 2023-11-14 22:13:20.0001 UTC" and .[0].inconsistent_events == 0' "$TMP/state.json"
finish
