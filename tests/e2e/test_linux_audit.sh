# An independent audit of the Linux rule sets on recordings of one program,
# samples/linux/audit/spin.c (two threads burning the CPU and passing a token
# under a mutex, a forked child opening a file that exists and one that does
# not), made with each of the project's recorders (samples/linux/audit/README.md).
# Every figure here was worked out from the raw log by a small script written
# for the audit, not by tlv's rules (the comments give the sums); the test
# never records.
. "$(dirname "$0")/lib.sh"
A="$SRC/samples/linux/audit"

# ---- strace -f -ttt -T (record.sh) ----------------------------------------------------------
run "$TLV" convert -r linux_strace.res --unmatched "$TMP/um" "$A/strace.log" -o "$TMP/strace.std"
expect_status 0 "convert the strace recording"
checks=$((checks + 1)); [ ! -s "$TMP/um" ] || fail "strace: lines not read: $(head -3 "$TMP/um")"
run "$TLV" stats -r linux_strace.res "$A/strace.log"
expect_status 0 "stats of the strace recording"
# Per call name: the calls (a split call once), the -1 ERRNO returns, and the time: a whole
# line's <duration>, a split call's from its <unfinished ...> line to its <... resumed> line.
# futex: 16 calls, 1 EAGAIN; 5 whole (6 + 4 + 6 + 4 + 3) and 11 split (22 + 2553 + 2555 + 18 +
# 19 + 1910 + 3971 + 23 + 4082 + 22 + 14011): 29209 us
expect_grep "$TMP/out" '^futex  *16  *1  *29209  *29209 ' "futex: 16 calls, 1 EAGAIN, 29209 us"
# wait4 of the child: 1795917653.263135 <unfinished ...> to .270138 <... wait4 resumed>
expect_grep "$TMP/out" '^wait4  *1  *0  *7003  *7003 ' "wait4: 7003 us"
expect_grep "$TMP/out" '^clock_nanosleep  *1  *0  *4583  *4583 ' "the child's nanosleep: 4583 us"
# openat: 5 + 5 (ld.so.cache, libc) + 24 + 16 (split: hostname, /nonexistent) + 39 (gmon.out)
expect_grep "$TMP/out" '^openat  *5  *1  *89  *89 ' "openat: 5 calls, 1 ENOENT, 89 us"
expect_grep "$TMP/out" '^close  *4  *0  *125  *125 ' "close: 4 calls, 125 us"
expect_grep "$TMP/out" '^read  *2  *0  *26  *26 ' "read: 2 calls, 26 us"
expect_grep "$TMP/out" '^access  *1  *1  *5  *5 ' "access of ld.so.preload: ENOENT"
# The arguments kept: every openat's path and result, in time order, and the futex operations
# (grep -o 'futex(0x[0-9a-f]*, [A-Z_|]*' strace.log | sort | uniq -c)
run "$TLV" query --format csv -r linux_strace.res "$A/strace.log" \
  "SELECT json_extract(e.args, '\$[2]') AS path, json_extract(l.args, '\$[1]') AS result, json_extract(l.args, '\$[2]') AS errno FROM events e JOIN events l ON l.resource_id = e.resource_id AND l.name = 'leave' AND l.ts = (SELECT MIN(ts) FROM events x WHERE x.resource_id = e.resource_id AND x.name = 'leave' AND x.ts >= e.ts) WHERE e.name = 'enter' AND json_extract(e.args, '\$[0]') = 'openat' ORDER BY e.ts"
expect_status 0 "the paths of openat"
checks=$((checks + 1))
[ "$(tr -d '\r' <"$TMP/out" | tr '\n' ' ')" = "path,result,errno /etc/ld.so.cache,3, /lib/x86_64-linux-gnu/libc.so.6,3, /etc/hostname,3, /nonexistent/tlv-audit,-1,ENOENT gmon.out,3, " ] ||
  fail "openat paths and results: $(cat "$TMP/out")"
run "$TLV" query --format csv -r linux_strace.res "$A/strace.log" \
  "SELECT json_extract(args, '\$[5]') AS op, COUNT(*) AS n FROM events WHERE name = 'enter' AND json_extract(args, '\$[0]') = 'futex' GROUP BY 1 ORDER BY 1"
checks=$((checks + 1))
[ "$(tr -d '\r' <"$TMP/out" | tr '\n' ' ')" = "op,n FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME,3 FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME,1 FUTEX_WAIT_PRIVATE,3 FUTEX_WAKE_PRIVATE,9 " ] ||
  fail "futex operations: $(cat "$TMP/out")"
# The CSV's times count from the trace's start (its first line, 1795917653.261219): the failing
# openat from .265397 to its <... openat resumed> at .265413; --absolute-times as the log has them
run "$TLV" export --format csv -r linux_strace.res "$A/strace.log"
tr -d '\r' <"$TMP/out" >"$TMP/csv"
expect_line "$TMP/csv" 'systemCalls,call,T32189,4178,4194,16,"openat(AT_FDCWD, ""/nonexistent/tlv-audit"", O_RDONLY)"' "csv: times from the start"
run "$TLV" export --format csv --absolute-times -r linux_strace.res "$A/strace.log"
tr -d '\r' <"$TMP/out" >"$TMP/csv"
expect_line "$TMP/csv" 'systemCalls,call,T32189,1795917653265397,1795917653265413,16,"openat(AT_FDCWD, ""/nonexistent/tlv-audit"", O_RDONLY)"' "csv --absolute-times: the log's times"
# The texts drawn: a ruler from the trace's start (23.3 ms long), not epoch seconds
run "$TLV" render -r linux_strace.res "$A/strace.log" --size 1920x1080 -o "$TMP/s.png" --texts "$TMP/texts.json"
expect_status 0 "render the strace recording"
checks=$((checks + 1))
[ "$(jq -c '.ticks' "$TMP/texts.json")" = '["0 ms","2 ms","4 ms","6 ms","8 ms","10 ms","12 ms","14 ms","16 ms","18 ms","20 ms","22 ms"]' ] ||
  fail "strace ruler: $(jq -c '.ticks' "$TMP/texts.json")"

# ---- perf sched record + perf script (record_sched.sh) -------------------------------------
run "$TLV" stats -r linux_sched.res "$A/sched.log"
expect_status 0 "stats of the perf recording"
# Each task's running time: from each sched_switch to it to the next switch on that CPU.
# 32313 (perf-exec, then spin at its exec, 12856.344500): 343988-345434 (512 + 934),
# 351981-352226, 368088-368119, 420056-420143, 440062-440393 on CPU 1:
# 512 + 934 + 245 + 31 + 87 + 331 = 2140 us
expect_line "$TMP/out" "perf-exec[32313]        RUNNING        1     512     512        512     512" "the command before its exec"
expect_line "$TMP/out" "spin[32313]             RUNNING        5    1628      31      325.6     934" "the main thread: 1628 us"
expect_line "$TMP/out" "spin[32348]             RUNNING        7    6125       6        875    2028" "thread 32348: 6125 us"
expect_line "$TMP/out" "spin[32349]             RUNNING        6    5827       5    971.167    2058" "thread 32349: 5827 us"
expect_line "$TMP/out" "spin[32350]             RUNNING        2     228     112        114     116" "the child: 228 us"
# Each CPU: the time from each switch to the next one on that CPU whose next task is not
# the idle task (CPU 0 from its first switch at .298645, both to the last line, .440574)
expect_line "$TMP/out" "CPU 0      141929       100.0%" "CPU 0 busy"
expect_line "$TMP/out" "CPU 1      128376        90.4%" "CPU 1 busy"
# over the trace's span, from its first event (.298642) to its last (.440574), from the start
expect_line "$TMP/out" "CPU utilization from 0 to 141932 us after the trace's start (running: state=RUNNING; processors by prcId):" "stats: times from the start"
# per window of 50 ms: CPU 1 recorded nothing before its first switch at .312198 (13556 us in)
run "$TLV" stats --window 50000 -r linux_sched.res "$A/sched.log"
expect_line "$TMP/out" "     0   50000  100.0%   72.9%" "the first window"
expect_line "$TMP/out" "100000  141932  100.0%  100.0%" "the last window, cut at the end"
# the CSV from the start too: spin[32350] exits at .367999
run "$TLV" export --format csv -r linux_sched.res "$A/sched.log"
tr -d '\r' <"$TMP/out" >"$TMP/csv"
expect_line "$TMP/csv" "taskEvents,exit,T32350,69357,69357,0,exit" "csv of perf: times from the start"
# The recording's own contradictions: a switch whose task is not the one switched in last
# on that CPU (lines 291, 335, 394: after tokio-rt-worker[75] was switched in), the last
# line's switch-in of perf on CPU 1 while CPU 0 runs it, and perf switched out at line 29
# (CPU 1's first switch: its switch-in came before CPU 1 recorded anything)
run "$TLV" check --json -r linux_sched.res "$A/sched.log"
checks=$((checks + 1))
[ "$(jq -c '[.consistency.inconsistencies[] | [.line, .check]]' "$TMP/out")" = '[[29,"OtherTask.switchedOutNotRunning"],[291,"OtherTask.lostSwitchOut"],[291,"Task.switchedOutNotRunning"],[335,"OtherTask.lostSwitchOut"],[335,"OtherTask.switchedOutNotRunning"],[394,"OtherTask.lostSwitchOut"],[394,"OtherTask.switchedOutNotRunning"],[451,"OtherTask.switchedInTwice"]]' ] ||
  fail "perf: the contradictions: $(jq -c '.consistency.inconsistencies' "$TMP/out")"

# ---- the same with line 140 cut out: 32313 switched out to 32348 on CPU 0 at .352226 -------
run "$TLV" stats -r linux_sched.res "$A/sched-lost.log"
# 32313 runs on to the next switch on CPU 0 (.354254, 32348 ==> 32349): 1628 + 2028 us,
# then unknown until its next event (woken at .368080: 13826 us); 32348 loses those 2028
expect_line "$TMP/out" "spin[32313]             RUNNING        5    3656      31      731.2    2273" "a lost switch costs its interval"
expect_line "$TMP/out" "spin[32313]             UNKNOWN        1   13826   13826      13826   13826" "then unknown until woken"
expect_line "$TMP/out" "spin[32348]             RUNNING        6    4097       6    682.833    2009" "32348 loses 2028 us"
expect_line "$TMP/out" "CPU 0      141929       100.0%" "CPU 0 as busy as it was"
run "$TLV" check -r linux_sched.res "$A/sched-lost.log"
expect_line "$TMP/err" "$A/sched-lost.log:141: inconsistent: T32313 (spin[32313]) state=UNKNOWN: was running on CPU 0 when another task was switched out there (its switch-out is missing) [Task.lostSwitchOut]" "the lost switch is named where it shows"
expect_line "$TMP/err" "$A/sched-lost.log:141: inconsistent: T32348 (spin[32348]) state=SLEEPING: switched out while it was RUNNABLE, not running (its switch-in is missing) [Task.switchedOutNotRunning]" "and the task it switched in"

# ---- trace-cmd record + report (SCHED_RECORDER=trace-cmd) -----------------------------------
run "$TLV" stats -r linux_sched.res "$A/trace-cmd.log"
expect_status 0 "stats of the trace-cmd recording"
# 32458 runs 652226-653658 (1130 as sh until the exec of ./spin at .653356, then 302),
# 674280-675044, 690129-690150, 748251-748315, 748797-748906, 748912-749032:
# 302 + 764 + 21 + 64 + 109 + 120 = 1380 us
expect_line "$TMP/out" "sh[32458]               RUNNING        1    1130    1130       1130    1130" "the command before its exec"
expect_line "$TMP/out" "spin[32458]             RUNNING        6    1380      21        230     764" "the main thread: 1380 us"
expect_line "$TMP/out" "spin[32460]             RUNNING        5    5272      10     1054.4    2076" "thread 32460"
expect_line "$TMP/out" "spin[32461]             RUNNING        5    6127       6     1225.4    2056" "thread 32461"
expect_line "$TMP/out" "spin[32462]             RUNNING        2     161      76       80.5      85" "the child"
expect_line "$TMP/out" "CPU 0      151450        99.3%" "CPU 0 busy (idle 1123 us before its first switch)"
expect_line "$TMP/out" "CPU 1      152563       100.0%" "CPU 1 busy"
run "$TLV" check --json -r linux_sched.res "$A/trace-cmd.log"
checks=$((checks + 1))
[ "$(jq -c '[.consistency.inconsistencies[] | .line] | unique' "$TMP/out")" = '[99,105,108,115]' ] ||
  fail "trace-cmd: the four lost switch-outs of tokio-rt-worker: $(jq -c '.consistency.inconsistencies' "$TMP/out")"

# ---- no task on two CPUs at once, no CPU busier than the trace, busy = the tasks' time ---------
for log in sched sched-lost trace-cmd; do
  run "$TLV" query --format csv -r linux_sched_all.res "$A/$log.log" \
    "SELECT (SELECT COUNT(*) FROM sched a JOIN sched b ON a.utid = b.utid AND a.id < b.id AND a.ts < b.ts + b.dur AND b.ts < a.ts + a.dur) AS task_twice, (SELECT COUNT(*) FROM sched a JOIN sched b ON a.cpu = b.cpu AND a.id < b.id AND a.ts < b.ts + b.dur AND b.ts < a.ts + a.dur) AS cpu_twice, (SELECT GROUP_CONCAT(s, ' ') FROM (SELECT SUM(dur) / 1000 AS s FROM sched GROUP BY cpu ORDER BY cpu)) AS busy"
  expect_status 0 "the sched table of $log"
  case $log in trace-cmd) busy="151450 152563" ;; *) busy="141929 128376" ;; esac
  tr -d '\r' <"$TMP/out" >"$TMP/sched.csv"
  expect_line "$TMP/sched.csv" "0,0,$busy" "$log: no overlap on a task or a CPU, each CPU busy as stats says"
done

# ---- ltrace -f -S (record_heap.sh) ------------------------------------------------------------
run "$TLV" stats -r linux_heap.res "$A/ltrace.log"
expect_status 0 "stats of the ltrace recording"
# The main process: malloc(100) at .508106, realloc to 300 at .600373, freed at .600486, the
# trace ending at .608612: (100 * 92267 + 300 * 113) / 100506 us = 92.14 bytes on average
expect_grep "$TMP/out" '^spin\[32206\]  *inuse  *6  *0  *300  *66.667  *92.14$' "the main process's heap"
# The child's 40 bytes, at the address the parent's realloc later returns in its own process
expect_line "$TMP/out" "Live at the end (leaks): 1, 40 bytes" "one leak"
expect_grep "$TMP/out" '^B32210_0x55e58c872a60  *40  *malloc  *spin\[32210\]$' "the child's block, not the parent's"

# ---- uftrace record + dump (record_calls.sh) --------------------------------------------------
run "$TLV" stats -r linux_calls.res "$A/uftrace.log"
expect_status 0 "stats of the uftrace recording"
# Entry/exit pairs per thread (the child's first line, the exit of the fork it inherited,
# has no entry and is no call): calls and total ns
expect_grep "$TMP/out" '^spinner  *2  *0  *163576110 ' "spinner: 2 calls"
expect_grep "$TMP/out" '^main  *1  *0  *98231737 ' "main"
expect_grep "$TMP/out" '^clock_gettime  *481  *0  *36957 ' "clock_gettime: 481 calls"
expect_grep "$TMP/out" '^fork  *1  *0  *255600 ' "fork: the parent's call only"
expect_grep "$TMP/out" '^open  *2  *0  *21211 ' "the child's two opens"
expect_grep "$TMP/out" '^malloc  *2  *0  *596 ' "malloc: 2 calls"
finish
