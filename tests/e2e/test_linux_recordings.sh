# Real recordings of samples/linux/server.c (a forking server: two threads
# blocking in futex, three workers blocking on pipes and writing files), made
# on this 2-core machine while other builds kept it busy, with the project's
# recorders (samples/linux/server/README.md), and one with a sched_switch
# line cut out (a lost event). The numbers asserted here were worked out by
# hand from the raw logs (the comments say how); the test never records.
#
# And the invariant on every sample and recording that has processors: the
# busy time `tlv stats` gives each CPU equals the sum of the running
# intervals drawn for the tasks on that CPU (per-CPU mode, counted through
# SQL: another path through the library), and neither exceeds the trace.
. "$(dirname "$0")/lib.sh"
R="$SRC/samples/linux/server"
L="$SRC/tests/e2e/linux"

# ---- strace -f -ttt -T of the server (record.sh) -------------------------------------------
run "$TLV" convert -r linux_strace.res --unmatched "$TMP/um" "$R/strace.log" -o "$TMP/strace.std"
expect_status 0 "convert the strace recording"
checks=$((checks + 1)); [ ! -s "$TMP/um" ] || fail "strace: lines not read: $(head -3 "$TMP/um")"
run "$TLV" stats -r linux_strace.res "$R/strace.log"
# write: the ten lines `grep ' write(' strace.log` lists, all complete: 8+12+6+12+9+5+7+16+7+21 us
expect_grep "$TMP/out" '^write  *10  *0  *103  *103  *0.18  *10.3  *21$' "write: 10 calls, 103 us"
# futex, read, clock_nanosleep: complete lines' <durations> plus, for a call split in two, from
# the <unfinished ...> line's time to the <... resumed> line's (the time strace printed it)
expect_grep "$TMP/out" '^futex  *19  *2  *7847  *7847 ' "futex: 19 calls, 2 ETIMEDOUT/EAGAIN, 7847 us"
expect_grep "$TMP/out" '^read  *7  *0  *21973  *21973 ' "read: 7 calls (the workers' blocking reads), 21973 us"
expect_grep "$TMP/out" '^clock_nanosleep  *14  *2  *23049  *23049 ' "clock_nanosleep: 14 calls, 23049 us"
expect_grep "$TMP/out" '^openat  *5  *0  *215  *215 ' "openat: 5 calls"
run "$TLV" query -r linux_strace.res "$R/strace.log" "SELECT json_extract(args, '\$[2]') AS path FROM events WHERE name = 'enter' AND json_extract(args, '\$[0]') = 'openat' AND json_extract(args, '\$[2]') LIKE '/tmp/%' ORDER BY ts"
expect_status 0 "the paths of the workers' openat"
checks=$((checks + 1))
[ "$(tail -n +3 "$TMP/out" | tr -s ' \n' '|')" = "/tmp/tlv-server-0.txt|/tmp/tlv-server-1.txt|/tmp/tlv-server-2.txt|" ] ||
  fail "openat paths: $(cat "$TMP/out")"

# ---- perf sched record + perf script of the server (record_sched.sh) ----------------------------
run "$TLV" stats -r linux_sched.res "$R/sched.log"
expect_status 0 "stats of the perf sched recording"
# server[13762] (the main thread): on CPU 1 816228 (its exec; perf-exec before) - 817189,
# 827251-827592, 830686-830712, 833848-833864, 836953-836970, 840886-840904, 840965-841069:
# 961 + 341 + 26 + 16 + 17 + 18 + 104 = 1483 us
expect_line "$TMP/out" "server[13762]          RUNNING        7   1483     16    211.857    961" "the main thread's run time"
# per CPU: the time from each sched_switch to the next on that CPU whose incoming task is not
# the idle task (summed over the raw switch lines): the machine was busy
expect_line "$TMP/out" "CPU 0      58756       100.0%" "CPU 0 busy"
expect_line "$TMP/out" "CPU 1      56558        96.3%" "CPU 1 busy"
run "$TLV" check --json -r linux_sched.res "$R/sched.log"
checks=$((checks + 1))
[ "$(jq -c '[.consistency.inconsistencies[] | [.line, .check]]' "$TMP/out")" = '[[17,"OtherTask.switchedOutNotRunning"],[443,"OtherTask.switchedInTwice"]]' ] ||
  fail "the recording's own contradictions (perf's switches at the edges of the recording): $(jq -c '.consistency.inconsistencies' "$TMP/out")"

# ---- the same with line 94 cut out: server[13762] switched out to server[13811] at 827592 -------
run "$TLV" stats -r linux_sched.res "$R/sched-lost.log"
# 13762 now runs on to the next switch on CPU 1, 827604 (13811 ==> 13812): 12 us more, the
# interval the lost switch belonged to; then unknown until woken at 830652 (3048 us)
expect_line "$TMP/out" "server[13762]          RUNNING        7   1495     16    213.571    961" "a lost switch costs its interval: 1483 + 12 us"
expect_line "$TMP/out" "server[13762]          UNKNOWN        1   3048   3048       3048   3048" "then unknown until woken"
expect_line "$TMP/out" "server[13811]          RUNNING        8     98      4      12.25     20" "13811 loses the 12 us it ran (110 before)"
expect_line "$TMP/out" "CPU 1      56558        96.3%" "CPU 1 stays as busy as it was"
run "$TLV" check -r linux_sched.res "$R/sched-lost.log"
expect_line "$TMP/err" "$R/sched-lost.log:95: inconsistent: T13762 (server[13762]) state=UNKNOWN: was running on CPU 1 when another task was switched out there (its switch-out is missing) [Task.lostSwitchOut]" "the lost switch is reported where it shows"
expect_line "$TMP/err" "$R/sched-lost.log:95: inconsistent: T13811 (server[13811]) state=SLEEPING: switched out while it was RUNNABLE, not running (its switch-in is missing) [Task.switchedOutNotRunning]" "and the task it switched in"

# ---- ltrace -f -S of the server (record_heap.sh) ---------------------------------------------
run "$TLV" stats -r linux_heap.res "$R/heap.log"
expect_status 0 "stats of the ltrace recording"
# malloc(256) at 756635, freed at 789202: the only block of the server itself
expect_grep "$TMP/out" '^server\[14030\]  *inuse  *4  *0  *256 ' "the server's heap: 0 to 256 bytes"
# ltrace's own garbled line (a piece of a write the worker made) is reported, not dropped
run "$TLV" convert -r linux_heap.res "$R/heap.log" -o "$TMP/heap.std"
expect_contains "$TMP/err" 'line 20: , "ok", 2)' "ltrace's garbled line is named"
# the workers have no heap activity: their rows are empty, not half full
run "$TLV" shapes -r linux_heap.res "$R/heap.log"
checks=$((checks + 1))
[ "$(grep -c '"rule":"bytesInUse","event":"inuse","resource":"P1403[789]"' "$TMP/out")" -eq 0 ] ||
  fail "a worker without heap activity is drawn: $(grep '"rule":"bytesInUse".*P1403[789]' "$TMP/out" | head -2)"
checks=$((checks + 1))
[ "$(grep -c '"rule":"bytesInUse","event":"inuse","resource":"P14030".*"type":"Rectangle"' "$TMP/out")" -eq 1 ] ||
  fail "the server's 256 bytes: one area"

# ---- the invariant: per-CPU busy = the tasks' running time on that CPU <= the range -------------
# invariant RES RULE LOG...: for each log, stats' busy time per CPU and the sum of RULE's
# RUNNING intervals drawn under each CPU (per-CPU mode), which must agree within a
# thousandth of a time unit, and neither may exceed the trace's span.
invariant() {
  local res=$1 rule=$2 log
  shift 2
  for log in "$@"; do
    "$TLV" stats --json -r "$res" "$log" 2>/dev/null |
      jq -r '(.end - .start) as $span | .cpu.processors[] | "\(.processor)|\(.busy)|\($span)"' | sort >"$TMP/busy"
    "$TLV" query --per-cpu --format csv -r "$res" "$log" \
      "SELECT r.grp, SUM(i.dur) FROM intervals i JOIN rows r ON r.id = i.row_id WHERE i.rule = '$rule' AND i.value = 'RUNNING' AND r.resource_id IS NOT NULL GROUP BY r.grp" \
      2>/dev/null | tail -n +2 | tr -d '\r' | tr ',' '|' | sort >"$TMP/running"
    checks=$((checks + 1))
    [ -s "$TMP/busy" ] || { fail "$(basename "$log"): no processor in tlv stats"; continue; }
    join -t '|' "$TMP/busy" "$TMP/running" | awk -F'|' -v name="$(basename "$log")" '
      { d = $2 - $4; if (d < 0) d = -d
        if (d > 0.001 || $2 > $3 + 0.001 || $4 > $3 + 0.001) { print name ": " $1 " busy " $2 ", tasks running " $4 ", span " $3; bad = 1 } n++ }
      END { exit bad || n == 0 }' >"$TMP/inv" || fail "per-CPU busy != tasks' running time: $(cat "$TMP/inv") $(cat "$TMP/busy" "$TMP/running" | tr '\n' ' ')"
  done
}
invariant linux_sched_all.res taskStates "$SRC"/samples/linux/sched/*.log "$R"/sched.log "$R"/sched-lost.log \
  "$L"/perf_sched_cases.log "$L"/perf_sched_lost.log "$L"/trace_cmd_cases.log
invariant "$SRC/samples/fmp/sample.res" taskState "$SRC/samples/fmp/sample.log"
finish
