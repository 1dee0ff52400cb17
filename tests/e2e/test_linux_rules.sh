# The Linux rule sets (linux_strace, linux_sched, linux_calls, linux_heap) on
# hand-written logs in the recorders' exact formats (tests/e2e/linux/) and on
# the committed recordings of xz -T2, make -j2 and heap.c (samples/linux/):
# every line is read (0 errors, nothing unmatched), rows are labelled with the
# program and tid, and the events a user looks for are there. The generic
# resource files are found by their bare names (rules/linux_*.res).
. "$(dirname "$0")/lib.sh"
F="$SRC/tests/e2e/linux"
S="$SRC/samples/linux"

# convert_clean RES LOG: converts with 0 errors and no unmatched line.
convert_clean() {
  run "$TLV" convert -r "$1" --unmatched "$TMP/unmatched" "$2" -o "$TMP/std"
  expect_status 0 "convert $(basename "$2") with $1"
  checks=$((checks + 1))
  [ ! -s "$TMP/unmatched" ] || fail "$2: lines not read: $(head -c 300 "$TMP/unmatched")"
  expect_contains "$TMP/err" " 0 errors," "$(basename "$2"): no conversion error"
}

# labels RES LOG: the row labels, one per line, in row order (from the chrome export).
labels() {
  "$TLV" export --format chrome -r "$1" "$2" -o - 2>/dev/null |
    jq -r '.traceEvents[] | select(.name == "thread_name") | .args.name'
}

# ---- strace -------------------------------------------------------------------------------
if command -v python3 >/dev/null; then
  checks=$((checks + 1))
  python3 "$SRC/scripts/gen_linux_strace.py" | cmp -s - "$SRC/rules/linux_strace.cnv" ||
    fail "rules/linux_strace.cnv is not what scripts/gen_linux_strace.py writes"
fi
convert_clean linux_strace.res "$F/strace_cases.log"
# an unfinished call whose string argument holds "<" is entered with what strace printed at
# entry, and left with the rest when resumed
expect_line "$TMP/std" '[1700000000000400]T101.enter(sendto,4\, "<!DOCTYPE HTML><html>"...\, 512\, MSG_NOSIGNAL\, NULL\, 0,,4,512,)' "sendto with '<' in its string is entered, fd and size named"
expect_line "$TMP/std" '[1700000000000600]T101.leave(sendto,512,,ok,,)' "and left when resumed"
expect_line "$TMP/std" '[1700000000000300]T100.leave(clone3,101,,ok,,\ => {parent_tid=[101]}\, 88)' "a resumed call's leave holds the rest of its arguments (after a space kept by its escape)"
# expected errors are not failures; ENOENT is: result, errno and its text apart
expect_line "$TMP/std" '[1700000000000460]T100.leave(read,-1,EAGAIN,expected,Resource temporarily unavailable,)' "EAGAIN is expected"
expect_line "$TMP/std" '[1700000000000800]T101.leave(futex,-1,ETIMEDOUT,expected,Connection timed out,)' "ETIMEDOUT is expected"
expect_line "$TMP/std" '[1700000000000850]T100.leave(nanosleep,-1,EINTR,expected,Interrupted system call,)' "EINTR is expected"
expect_line "$TMP/std" '[1700000000000910]T100.leave(openat,-1,ENOENT,error,No such file or directory,)' "ENOENT is an error"
expect_line "$TMP/std" '[1700000000000900]T100.enter(openat,AT_FDCWD\, "/etc/web.conf"\, O_RDONLY,/etc/web.conf,,,O_RDONLY)' "openat: the whole call, its path and flags named"
expect_line "$TMP/std" '[1700000000000700]T101.enter(futex,0x7f\, FUTEX_WAIT_BITSET_PRIVATE\, 0\, {tv_sec=1\, tv_nsec=0}\, FUTEX_BITSET_MATCH_ANY,,,,FUTEX_WAIT_BITSET_PRIVATE)' "futex: its operation and timeout kept"
# the first half of a split openat (make.log line 1339): its flags end where "<unfinished" begins
convert_clean linux_strace.res "$S/strace/make.log"
expect_line "$TMP/std" '[1795614988362352]T7489.enter(openat,AT_FDCWD\, "/etc/ld.so.cache"\, O_RDONLY|O_CLOEXEC,/etc/ld.so.cache,,,O_RDONLY|O_CLOEXEC)' "an unfinished openat: its path and flags"
# strace_args.log: strings with commas, parentheses, braces, quotes, backslashes, '$' and a
# macro's text; a "..." cut; a read split in two; a result with more after it
A="$F/strace_args.log"
convert_clean linux_strace.res "$A"
expect_line "$TMP/std" '[1700000001000100]T200.enter(openat,AT_FDCWD\, "/tmp/a\,b \(c\) {d}\\"e\\\\f"\, O_WRONLY|O_CREAT|O_TRUNC\, 0644,/tmp/a\,b \(c\) {d}\\"e\\\\f,,,O_WRONLY|O_CREAT|O_TRUNC)' "a path with separators in it is one argument"
expect_line "$TMP/std" '[1700000001000200]T200.enter(write,3\, "$ATTR{T200.comm} ${x} \,\)"\, 24,,3,24,)' "text that looks like a macro is kept as text"
expect_line "$TMP/std" '[1700000001000500]T200.leave(read,4096,,ok,,\ "abcdefghijklmnopqrstuvwxyz012345"...\, 4096)' "a resumed read: the rest of its arguments"
expect_line "$TMP/std" '[1700000001301300]T200.leave(poll,1 \([{fd=3\, revents=POLLIN}]\),,ok,,)' "a result with more after it"
run "$TLV" query -r linux_strace.res "$A" "SELECT json_extract(args, '\$[2]') AS path FROM events WHERE name = 'enter' AND json_extract(args, '\$[0]') = 'openat'"
expect_line "$TMP/out" '/tmp/a,b (c) {d}\"e\\f' "SQL: the path of an openat, as strace printed it"
expect_line "$TMP/out" '/very/long/path/that/strace/cut/...' "SQL: a path strace cut keeps its '...'"
run "$TLV" query -r linux_strace.res "$A" "SELECT value, COUNT(*) AS calls, SUM(dur) AS total FROM intervals WHERE rule = 'systemCalls' GROUP BY value ORDER BY value"
expect_line "$TMP/out" "close       2      8.0" "calls grouped by name (the rules' \"Value\"), not by arguments"
expect_line "$TMP/out" "futex       1      300000.0" "the futex wait, 0.3 s"
run "$TLV" shapes -r linux_strace.res "$A"
expect_contains "$TMP/out" '"from":1700000001000300,"to":1700000001000500,"type":"Text","text":"read(3, \"abcdefghijklmnopqrstuvwxyz012345\"..., 4096)"' "the two halves of a read joined in its text"
run "$TLV" stats -r linux_strace.res "$A"
expect_grep "$TMP/out" '^close  *2  *0  *8  *8  *0.00  *4  *4$' "tlv stats: close, 2 calls, 8 us"
convert_clean linux_strace.res "$F/strace_cases.log"
run "$TLV" shapes -r linux_strace.res "$F/strace_cases.log"
checks=$((checks + 1))
[ "$(grep -c '"text":"✗ ' "$TMP/out")" -eq 1 ] || fail "strace: only the ENOENT call is drawn as a failure"
# program names from execve (an unfinished one too), threads under their process
labels linux_strace.res "$F/strace_cases.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(tr '\n' '|' <"$TMP/labels")" = "web[100]|web[100] thread 101|web[100] thread 103|gzip[102]|" ] ||
  fail "strace row labels: $(tr '\n' '|' <"$TMP/labels")"
run "$TLV" shapes --flows -r linux_strace.res "$F/strace_cases.log"
expect_contains "$TMP/out" '"rule":"spawns","flow":"spawn","name":"created by","from":"T100","to":"T102"' "fork drawn as a flow to the child"

# `strace -tt` (the time of day) reads as `-ttt` (seconds since 1970) does: xz.log with its
# stamps written as -tt gives the same trace shifted by its midnight, the same statistics,
# and the same again when its calls cross midnight (23:59:59.897 to 00:00:00.228)
tt_log() { # tt_log SHIFT_S: xz.log's -ttt stamps as HH:MM:SS.us, SHIFT_S seconds later
  awk -v shift="$1" '{
    if (match($0, /[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]/)) {
      s = substr($0, RSTART, RLENGTH - 7) + shift; us = substr($0, RSTART + RLENGTH - 6, 6)
      d = s % 86400
      $0 = substr($0, 1, RSTART - 1) sprintf("%02d:%02d:%02d.%s", int(d / 3600), int(d % 3600 / 60), d % 60, us) substr($0, RSTART + RLENGTH)
    }
    print }' "$S/strace/xz.log"
}
# same_as_ttt TT_LOG FIRST_STAMP BASE_US: TT_LOG converts cleanly, starts at FIRST_STAMP, and
# its trace with BASE_US added to every time is xz.log's, its statistics xz.log's
same_as_ttt() {
  checks=$((checks + 1))
  head -n 1 "$1" | grep -qF "7404  $2 execve(" || fail "strace -tt: $(basename "$1") does not start at $2: $(head -c 80 "$1")"
  convert_clean linux_strace.res "$1"
  awk -v base="$3" '{ if (match($0, /^\[[0-9]+\]/)) $0 = sprintf("[%.0f]", substr($0, 2, RLENGTH - 2) + base) substr($0, RLENGTH + 1); print }' \
    "$TMP/std" >"$TMP/std_shifted"
  checks=$((checks + 1))
  cmp -s "$TMP/std_shifted" "$TMP/std_ttt" ||
    fail "strace -tt: $(basename "$1")'s trace is not xz.log's shifted: $(diff "$TMP/std_shifted" "$TMP/std_ttt" | head -n 6)"
  run "$TLV" stats -r linux_strace.res "$1"
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/stats_ttt" || fail "strace -tt: tlv stats of $(basename "$1") differs from xz.log's: $(diff "$TMP/out" "$TMP/stats_ttt" | head -n 6)"
}
"$TLV" stats -r linux_strace.res "$S/strace/xz.log" >"$TMP/stats_ttt" 2>/dev/null
"$TLV" convert -r linux_strace.res "$S/strace/xz.log" -o "$TMP/std_ttt" 2>/dev/null
tt_log 0 >"$TMP/xz_tt.log"
same_as_ttt "$TMP/xz_tt.log" 13:56:27.897048 1795564800000000 # xz.log's day, 2026-11-25, began at 1795564800 s
tt_log 36212 >"$TMP/xz_midnight.log"                             # 36212 s later: 23:59:59.897048
same_as_ttt "$TMP/xz_midnight.log" 23:59:59.897048 1795528588000000
checks=$((checks + 1))
tail -n 1 "$TMP/xz_midnight.log" | grep -qF "7404  00:00:00.227970 +++ exited" || fail "strace -tt: the midnight log does not end after midnight"

# `strace` without -f prints no thread id: the traced process is thread 0, labelled with its
# program alone, and the threads it creates (not traced) get no row. heap.log's main thread
# without its id gives the -f trace of that thread, renamed, without the spawns.
awk '$1 == 7556' "$S/strace/heap.log" | sed -E 's/^7556 +//' >"$TMP/heap_nof.log"
checks=$((checks + 1))
head -n 1 "$TMP/heap_nof.log" | grep -q '^1795614988\.687338 execve("\./heap"' ||
  fail "strace without -f: the test log does not start with the bare time: $(head -c 80 "$TMP/heap_nof.log")"
"$TLV" convert -r linux_strace.res "$S/strace/heap.log" -o - 2>/dev/null | grep '\]T7556\.' | grep -v '\.spawn(' |
  sed -e 's/\]T7556\./]T0./' -e 's/heap\[7556\]$/heap/' -e 's/\.pid=7556$/.pid=0/' >"$TMP/std_f"
convert_clean linux_strace.res "$TMP/heap_nof.log"
checks=$((checks + 1))
cmp -s "$TMP/std" "$TMP/std_f" || fail "strace without -f: not the -f trace of its thread: $(diff "$TMP/std" "$TMP/std_f" | head -n 6)"
labels linux_strace.res "$TMP/heap_nof.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(tr '\n' '|' <"$TMP/labels")" = "heap|" ] || fail "strace without -f: row labels $(tr '\n' '|' <"$TMP/labels")"

# ---- perf sched ---------------------------------------------------------------------------
convert_clean linux_sched.res "$F/perf_sched_cases.log"
expect_line "$TMP/std" '[100000210]T1001.state=RUNNABLE' "a new task waits for a CPU"
expect_line "$TMP/std" '[100000400]T1000.state=SLEEPING' "S is sleeping"
expect_line "$TMP/std" '[100000800]T1001.state=BLOCKED' "D is blocked"
expect_line "$TMP/std" '[100001100]T1000.state=PREEMPTED' "R+ is preempted"
expect_line "$TMP/std" '[100001300]T1001.state=EXITED' "X is exited"
expect_line "$TMP/std" '[100000800]CPU1.task=idle' "an idle CPU"
expect_line "$TMP/std" '[100000400]CPU0.task=O50' "another program's task runs on the CPU, without a row"
checks=$((checks + 1))
! grep -q '^\[100000700\]T1000.state=RUNNABLE' "$TMP/std" || fail "waking a running task made it runnable"
labels linux_sched.res "$F/perf_sched_cases.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(tr '\n' '|' <"$TMP/labels")" = "CPU 0|CPU 1|app[1000]|app[1001]|" ] ||
  fail "perf sched rows: $(tr '\n' '|' <"$TMP/labels")"
# every task gets a row with linux_sched_all.res
labels linux_sched_all.res "$F/perf_sched_cases.log" >"$TMP/labels"
expect_line "$TMP/labels" "kworker/0:1[50]" "linux_sched_all.res: every task has a row"
# scheduling latency and run time per task, CPU load
run "$TLV" stats -r linux_sched.res "$F/perf_sched_cases.log"
expect_status 0 "stats of the perf sched log"
expect_line "$TMP/out" "app[1001]        RUNNABLE       1     90   90    90   90" "wake-up to running: 90 us, the task named by its label"
expect_line "$TMP/out" "app[1000]        RUNNING        2    800  300   400  500" "run time of app[1000]"
expect_line "$TMP/out" "perf-exec[1000]  RUNNABLE       1     50   50    50   50" "the task before its exec is a row of its own"
expect_contains "$TMP/out" "CPU 1       500        40.0%" "load of CPU 1"
checks=$((checks + 1))
[ "$(grep -cE '^CPU[ 0-9]* [0-9.]+ +[0-9.]+%$' "$TMP/out")" -eq 2 ] || fail "perf sched stats: only CPU 0 and CPU 1, no processor for tasks that never ran: $(grep '^CPU' "$TMP/out" | tr '\n' '|')"
run "$TLV" stats --json -r linux_sched.res "$F/perf_sched_cases.log"
checks=$((checks + 1))
[ "$(jq -c '[.states[] | select(.resource == "T1001" and .state == "RUNNABLE") | .label, .max]' "$TMP/out")" = '["app[1001]",90]' ] ||
  fail "stats --json: a state row has its resource's label: $(jq -c '.states[0]' "$TMP/out")"
run "$TLV" shapes -r linux_sched.res "$F/perf_sched_cases.log"
expect_contains "$TMP/out" '"rule":"cpuTasks","event":"runs","resource":"CPU0","from":100000100,"to":100000400,"type":"Text","text":"app[1000]"' "CPU row names the task"
expect_contains "$TMP/out" '"rule":"cpuTasks","event":"runs","resource":"CPU0","from":100000400,"to":100000600,"type":"Text","text":"kworker/0:1[50]"' "CPU row names other programs' tasks"
expect_contains "$TMP/out" '"rule":"taskStates","event":"state","resource":"T1001","from":100000800,"to":100001100,"type":"Text","text":"blocked (D)"' "blocked interval"
expect_contains "$TMP/out" '"rule":"taskEvents","event":"migrate","resource":"T1001","from":100001000,"to":100001300,"type":"Text","text":"CPU 1→0"' "migration marker"

# ---- perf sched without exec events, and lost switches ---------------------------------------
# perf_sched_lost.log: a plain `perf sched record -- spin` (no sched_process_exec lines) whose
# switch of spin[2001] out of CPU 1 at 200.000400 is missing, and so is kworker/1:0's switch in
# before 200.000660. The command's tasks still get rows (perf's child is seen under its program's
# name), and each lost switch costs at most the interval it belonged to: spin[2001] runs on CPU 1
# until the next switch there (200.000500: 350 us instead of 250), not until the end of the trace.
L="$F/perf_sched_lost.log"
convert_clean linux_sched.res "$L"
expect_line "$TMP/std" '[200000100]T2000.state=RUNNING' "perf's child is the command's task from its first line under its program's name"
expect_line "$TMP/std" '[200000500]T2001.state=UNKNOWN' "a task still running where another is switched out: its state is unknown"
labels linux_sched.res "$L" >"$TMP/labels"
checks=$((checks + 1))
[ "$(tr '\n' '|' <"$TMP/labels")" = "CPU 0|CPU 1|spin[2000]|spin[2001]|" ] ||
  fail "rows of a recording without exec events: $(tr '\n' '|' <"$TMP/labels")"
run "$TLV" stats -r linux_sched.res "$L"
expect_line "$TMP/out" "spin[2001]       RUNNING        3    530   40  176.667  350" "spin[2001] runs 150-500 (to the next switch on CPU 1), 610-650, 660-800"
expect_line "$TMP/out" "spin[2001]       UNKNOWN        1    100  100      100  100" "then its state is unknown until it is woken"
expect_line "$TMP/out" "spin[2000]       RUNNING        2    250   50      125  200" "spin[2000] runs 100-300 and 650-700"
expect_line "$TMP/out" "CPU 0       330        44.0%" "CPU 0: perf-exec 40 + spin[2000] 200 + spin[2001] 40 + spin[2000] 50 of 750 us"
expect_line "$TMP/out" "CPU 1       490        65.3%" "CPU 1: spin[2001] 350 + 140 of 750 us"
run "$TLV" shapes -r linux_sched.res "$L"
expect_contains "$TMP/out" '"rule":"taskStates","event":"state","resource":"T2001","from":200000500,"to":200000600,"type":"Text","text":"unknown: an event is missing"' "the unknown interval is drawn as such"

# ---- trace-cmd report: the same events as perf script make the same trace -------------------
convert_clean linux_sched.res "$F/trace_cmd_cases.log"
mv "$TMP/std" "$TMP/trace_cmd.std"
convert_clean linux_sched.res "$F/perf_sched_cases.log"
checks=$((checks + 1))
cmp -s "$TMP/std" "$TMP/trace_cmd.std" ||
  fail "trace-cmd report and perf script of the same events differ: $(diff "$TMP/std" "$TMP/trace_cmd.std" | head -5)"
labels linux_sched.res "$F/trace_cmd_cases.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(tr '\n' '|' <"$TMP/labels")" = "CPU 0|CPU 1|app[1000]|app[1001]|" ] ||
  fail "trace-cmd rows: $(tr '\n' '|' <"$TMP/labels")"

# ---- uftrace ------------------------------------------------------------------------------
convert_clean linux_calls.res "$S/calls/heap.log"
# recursion: insert calls itself at least 6 deep, and every entry has its exit
expect_contains "$TMP/std" ".enter(insert,6," "uftrace: insert recursion 6 deep"
checks=$((checks + 1))
[ "$(grep -c '\.enter(insert,' "$TMP/std")" -eq "$(grep -c '\.leave(insert,' "$TMP/std")" ] ||
  fail "uftrace: insert entries and exits do not pair"
"$TLV" shapes -r linux_calls.res "$S/calls/heap.log" 2>/dev/null >"$TMP/shapes"
grep '"type":"Text","text":"insert"' "$TMP/shapes" >"$TMP/inserts"
checks=$((checks + 1))
[ "$(grep -c '\.enter(insert,' "$TMP/std")" -eq "$(wc -l <"$TMP/inserts")" ] ||
  fail "uftrace: $(wc -l <"$TMP/inserts") insert calls drawn, $(grep -c '\.enter(insert,' "$TMP/std") made"
# none is left open to the end of the trace (an exit that closed the wrong entry)
end=$(awk -F'"to":|,"type"' '{ if ($2 > m) m = $2 } END { print m }' "$TMP/shapes")
checks=$((checks + 1))
[ "$(grep -c "\"to\":$end," "$TMP/inserts")" -eq 0 ] || fail "uftrace: an insert call runs to the trace end"
labels linux_calls.res "$S/calls/heap.log" >"$TMP/labels"
checks=$((checks + 1))
grep -qE '^[0-9]+: main$' "$TMP/labels" && [ "$(grep -cE '^[0-9]+: worker$' "$TMP/labels")" -eq 2 ] ||
  fail "uftrace rows: $(tr '\n' '|' <"$TMP/labels")"
# same function at two depths: each exit closes its own entry
cat >"$TMP/rec.log" <<'EOF'
1.000000100  7: [entry] main(401000) depth: 0
1.000000200  7: [entry] fact(401100) depth: 1
1.000000300  7: [entry] fact(401100) depth: 2
1.000000400  7: [exit ] fact(401100) depth: 2
1.000000600  7: [exit ] fact(401100) depth: 1
1.000000700  7: [exit ] main(401000) depth: 0
EOF
convert_clean linux_calls.res "$TMP/rec.log"
run "$TLV" shapes -r linux_calls.res "$TMP/rec.log"
expect_contains "$TMP/out" '"rule":"calls","event":"call","resource":"T7","from":1000000200,"to":1000000600,"type":"Text","text":"fact"' "outer fact call"
expect_contains "$TMP/out" '"rule":"calls","event":"call","resource":"T7","from":1000000300,"to":1000000400,"type":"Text","text":"fact"' "inner fact call"
# a colour per function (the same at every depth), another for main
grep '"type":"Rectangle"' "$TMP/out" | sed 's/.*"fill":"\([0-9a-f]*\)".*/\1/' | tr '\n' ' ' >"$TMP/fills"
checks=$((checks + 1))
read -r main_fill fact1 fact2 <"$TMP/fills"
[ "$fact1" = "$fact2" ] && [ "$main_fill" != "$fact1" ] || fail "uftrace: fills per function: $(cat "$TMP/fills")"
# deeper than the 12 sub-rows: drawn in the last one with its depth in the text
printf '%s\n' "1.000000800  7: [entry] deep(401200) depth: 14" "1.000000900  7: [exit ] deep(401200) depth: 14" >"$TMP/deep.log"
run "$TLV" shapes -r linux_calls.res "$TMP/deep.log"
expect_contains "$TMP/out" '"from":1000000800,"to":1000000900,"type":"Text","text":"deep (depth 14)"' "a call 14 deep"

# ---- ltrace -------------------------------------------------------------------------------
if command -v python3 >/dev/null; then
  checks=$((checks + 1))
  python3 "$SRC/scripts/gen_linux_heap.py" | cmp -s - "$SRC/rules/linux_heap.cnv" ||
    fail "rules/linux_heap.cnv is not what scripts/gen_linux_heap.py writes"
fi
convert_clean linux_heap.res "$F/ltrace_cases.log"
expect_line "$TMP/std" '[1700000000000200]P200.inuse=164' "calloc counts n × size"
expect_line "$TMP/std" '[1700000000000350]P200.inuse=64' "realloc releases the old block"
expect_line "$TMP/std" '[1700000000000350]P200.inuse=364' "and holds the new one"
expect_line "$TMP/std" '[1700000000000150]T201.pid=200' "clone3 (ltrace -S, its child's tid in hex) makes a thread of the process"
expect_line "$TMP/std" '[1700000000000400]P200.inuse=1364' "a thread's unfinished malloc counts in its process when it returns"
expect_line "$TMP/std" '[1700000000000500]P200.inuse=364' "a block freed by another thread of the process"
expect_line "$TMP/std" '[1700000000000600]P200.unknown(free,0x9999)' "a block not allocated in the recording"
expect_line "$TMP/std" '[1700000000000800]P200.failed(malloc,1000000000000)' "a failed malloc"
expect_line "$TMP/std" '[1700000000000830]T202.pid=202' "fork (clone without CLONE_VM) makes a process of its own"
expect_line "$TMP/std" '[1700000000000840]P202.inuse=50' "which counts its own heap"
expect_line "$TMP/std" '[1700000000000845]P202.unknown(free,0x6000)' "a block it inherited is not its parent's to free"
expect_line "$TMP/std" '[1700000000000860]P202.label=sh[202]' "exec renames the process"
expect_line "$TMP/std" '[1700000000000890]T203.pid=200' "clone with CLONE_VM|CLONE_THREAD is a thread"
expect_line "$TMP/std" '[1700000000000895]P200.inuse=372' "whose malloc counts in its process"
expect_line "$TMP/std" '[1700000000000880]P200.threadExit(201,0)' "a thread's end is marked on its process"
checks=$((checks + 1))
! grep -qE '^\[170000000000088[678]\]P' "$TMP/std" || fail "ltrace: calls put on libc itself are left out"
checks=$((checks + 1))
! grep -q '^\[[0-9]*\]T[0-9]*\.inuse' "$TMP/std" || fail "ltrace: bytes are counted per process, not per thread"
run "$TLV" shapes -r linux_heap.res "$F/ltrace_cases.log"
expect_contains "$TMP/out" '"text":"leak: 64 B by prog[200]"' "calloc'd block never freed is a leak"
expect_contains "$TMP/out" '"text":"leak: 300 B by prog[200]"' "realloc'd block never freed is a leak"
expect_contains "$TMP/out" '"text":"leak: 8 B by prog[200] thread 203"' "a thread's leak names the thread"
expect_contains "$TMP/out" '"text":"leak: 20 B by sh[202]"' "the child's leak"
checks=$((checks + 1))
[ "$(grep -c '"text":"leak: ' "$TMP/out")" -eq 4 ] || fail "ltrace: exactly four leaks"
labels linux_heap.res "$F/ltrace_cases.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(grep -v '^Live blocks' "$TMP/labels" | tr '\n' '|')" = "prog[200]|sh[202]|" ] && grep -q '^Live blocks' "$TMP/labels" ||
  fail "ltrace rows: one per process, then the blocks: $(tr '\n' '|' <"$TMP/labels")"
# -tt clock times, across midnight
convert_clean linux_heap.res "$F/ltrace_clock.log"
expect_line "$TMP/std" '[86400000100]P300.inuse=0' "clock times (ltrace -tt) cross midnight"
# ltrace without -f prints no thread id: the process is thread and process 0, labelled with
# its program alone; the threads it creates (not traced) get no row. heap.log's main thread
# without its id converts as with it, renamed, less what named its threads
grep '^4092 ' "$S/heap/heap.log" >"$TMP/ltrace_main.log"
sed -E 's/^4092 +//' "$TMP/ltrace_main.log" >"$TMP/ltrace_nof.log"
"$TLV" convert -r linux_heap.res "$TMP/ltrace_main.log" -o - 2>/dev/null | grep -v 'T4096\|T4097' |
  sed -e 's/\]T4092\./]T0./; s/\]P4092\./]P0./; s/\]B4092_/]B0_/; s/=T4092$/=T0/; s/heap\[4092\]/heap/; s/\.pid=4092$/.pid=0/' >"$TMP/std_f"
convert_clean linux_heap.res "$TMP/ltrace_nof.log"
checks=$((checks + 1))
cmp -s "$TMP/std" "$TMP/std_f" || fail "ltrace without -f: not the trace with the id: $(diff "$TMP/std" "$TMP/std_f" | head -n 6)"
expect_line "$TMP/std" '[1795623843817842]P0.inuse=164' "ltrace without -f: malloc(100) and calloc(16, 4) in use"
run "$TLV" stats -r linux_heap.res "$TMP/ltrace_nof.log"
expect_line "$TMP/out" "Live at the end (leaks): 2, 164 bytes" "ltrace without -f: its two leaks"
expect_line "$TMP/out" "P0        heap" "ltrace without -f: the process labelled with its program"

# ---- tlv stats: strace -c style calls, profiler self time, leaks, row labels ----------------
run "$TLV" stats -r linux_strace.res "$F/strace_cases.log"
expect_status 0 "stats of the strace log"
expect_line "$TMP/out" "call             calls  errors  total  self  % self  mean  max" "calls table header"
expect_line "$TMP/out" "sendto               1       0    200   200   26.85   200  200" "the longest call first"
expect_line "$TMP/out" "execve               2       0    150   150   20.13    75  100" "calls counted over every thread"
expect_line "$TMP/out" "futex                1       1    100   100   13.42   100  100" "ETIMEDOUT counted as an error return"
expect_line "$TMP/out" "T101      web[100] thread 101" "row labels listed"
run "$TLV" stats -r linux_calls.res "$TMP/rec.log"
expect_line "$TMP/out" "fact      2       0    500   400   66.67   250  400" "recursion: self time leaves the inner call out"
expect_line "$TMP/out" "main      1       0    600   200   33.33   600  600" "main's self time"
run "$TLV" stats -r linux_heap.res "$F/ltrace_cases.log"
expect_line "$TMP/out" "Live at the end (leaks): 4, 392 bytes" "leaks at exit"
expect_line "$TMP/out" "CPU utilization: no resource was ever state=RUNNING, and none has a processor." "no CPU table for a heap trace"
checks=$((checks + 1))
! grep -qE '^CPU +[0-9]' "$TMP/out" || fail "ltrace stats: a CPU line at 0%"
expect_line "$TMP/out" "B200_0x7000    300         realloc             prog[200]" "a leaked block, its size, call and thread"
expect_line "$TMP/out" "B200_0xc000      8          malloc  prog[200] thread 203" "a thread's leaked block"
expect_line "$TMP/out" "prog[200]  inuse          9    0  1364  310.222              418.55" "bytes in use per process, a counter"
run "$TLV" stats --json -r linux_heap.res "$F/ltrace_cases.log"
checks=$((checks + 1))
[ "$(jq -c '.leaks[0]' "$TMP/out")" = '{"resource":"B200_0x6000","bytes":64,"allocatedWith":"calloc","by":"prog[200]"}' ] ||
  fail "stats --json leaks: $(jq -c '.leaks' "$TMP/out")"

# ---- the committed recordings -----------------------------------------------------------
for set in strace sched calls heap; do
  for log in "$S/$set"/*.log; do
    convert_clean "linux_$set.res" "$log"
  done
done
labels linux_strace.res "$S/strace/xz.log" >"$TMP/labels"
expect_contains "$TMP/labels" "xz[" "strace xz: the process is named"
checks=$((checks + 1))
[ "$(grep -c '^xz\[[0-9]*\] thread [0-9]*$' "$TMP/labels")" -ge 2 ] || fail "strace xz: the two worker threads"
labels linux_strace.res "$S/strace/make.log" >"$TMP/labels"
for p in make cc cc1 as ld; do expect_contains "$TMP/labels" "$p[" "strace make: $p named"; done
labels linux_sched.res "$S/sched/xz.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(grep -vc '^CPU ' "$TMP/labels")" -eq 3 ] && [ "$(grep -c '^xz\[' "$TMP/labels")" -eq 3 ] ||
  fail "perf sched xz: rows $(tr '\n' '|' <"$TMP/labels")"
labels linux_sched.res "$S/sched/xz-trace-cmd.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(grep -vc '^CPU ' "$TMP/labels")" -eq 3 ] && [ "$(grep -c '^xz\[' "$TMP/labels")" -eq 3 ] ||
  fail "trace-cmd xz: rows $(tr '\n' '|' <"$TMP/labels")"
run "$TLV" stats -r linux_sched.res "$S/sched/xz.log"
checks=$((checks + 1))
[ "$(grep -cE '^CPU[ 0-9]* [0-9.]+ +[0-9.]+%$' "$TMP/out")" -eq 2 ] ||
  fail "perf sched xz stats: CPU 0 and CPU 1 only: $(grep '^CPU' "$TMP/out" | tr '\n' '|')"
checks=$((checks + 1))
grep -qE '^xz\[[0-9]+\] +RUNNING ' "$TMP/out" || fail "perf sched xz stats: tasks named by their labels"
labels linux_calls.res "$S/calls/xz.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/labels")" -eq 3 ] || fail "uftrace xz -T2: a row per thread (main and two workers): $(tr '\n' '|' <"$TMP/labels")"
labels linux_heap.res "$S/heap/heap.log" >"$TMP/labels"
checks=$((checks + 1))
[ "$(grep -c '^heap\[' "$TMP/labels")" -eq 1 ] || fail "ltrace heap: one process row: $(tr '\n' '|' <"$TMP/labels")"
run "$TLV" shapes -r linux_heap.res "$S/heap/heap.log"
expect_contains "$TMP/out" '"text":"leak: 100 B by heap[' "heap.c's forgotten malloc(100)"
expect_contains "$TMP/out" '"text":"leak: 64 B by heap[' "heap.c's forgotten calloc(16, 4)"

# ---- resource files found by name; LabelAttribute/GroupAttribute checked -------------------
cd "$TMP"
run "$TLV" convert -q -r linux_heap.res "$F/ltrace_clock.log" -o /dev/null
expect_status 0 "a bare resource file name is found in the rules directory"
run "$TLV" convert -q -r no_such.res "$F/ltrace_clock.log"
expect_status 2 "an unknown resource file"
expect_line "$TMP/err" "no_such.res: error: cannot read the resource file: No such file or directory" "names the file"
sed 's/"LabelAttribute": "label"/"LabelAttribute": "lable"/; s/"GroupAttribute": "pid"/"GroupAttribute": 3/' \
  "$SRC/rules/linux_strace.res" >bad.res
run "$TLV" check -r bad.res
expect_status 1 "bad LabelAttribute and GroupAttribute"
expect_contains "$TMP/err" "bad.res:14:22: error: DynamicResources 'Thread': LabelAttribute: type 'Thread' has no attribute 'lable'" "unknown label attribute"
expect_contains "$TMP/err" "bad.res:15:22: error: DynamicResources 'Thread': GroupAttribute must be an attribute name, found a number" "group attribute not a name"
finish
