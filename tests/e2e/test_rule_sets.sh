# The project's rule sets drawing their samples: the shapes a user looks for
# are there (task states, markers, service calls with their results, failed
# calls, handlers, locks, app logs with ten colors, processor strips and
# migrations, per-processor rows, threads created on first use, system calls
# split across threads, signals, exits). And every TOPPERS log of the corpus
# converts and draws with our rules, given the corpus resource file with
# only its target names changed.
. "$(dirname "$0")/lib.sh"

# shapes NAME RES LOG [OPTS...]: the shapes into $TMP/NAME.jsonl, exit status 0.
shapes() {
  local name=$1 res=$2 log=$3
  shift 3
  "$TLV" shapes "$@" -r "$res" "$log" >"$TMP/$name.jsonl" 2>"$TMP/$name.err"
  status=$?
  expect_status 0 "shapes of $name"
  checks=$((checks + 1))
  [ ! -s "$TMP/$name.err" ] || fail "$name: diagnostics: $(head -c 400 "$TMP/$name.err")"
}

# has NAME TEXT WHAT: some shape of NAME contains TEXT.
has() { expect_contains "$TMP/$1.jsonl" "$2" "$1: $3"; }

# count NAME PATTERN: how many shapes match the extended regex.
count() { grep -cE -- "$2" "$TMP/$1.jsonl" || true; }

# ---- TOPPERS/ASP: the feature tour --------------------------------------------------
S="$SRC/samples"
shapes tour "$S/asp/tour.res" "$S/asp/tour.log"
has tour '"rule":"taskState","event":"state","resource":"TASK_A","from":1000,"to":3800,"type":"Rectangle"' "control task runs until the worker preempts it"
has tour '"rule":"taskState","event":"preempt","resource":"TASK_A","from":3800' "preemption marker"
has tour '"rule":"taskState","event":"activate","resource":"TASK_C","from":3200' "activation marker"
has tour '"rule":"taskState","event":"exit","resource":"TASK_A","from":10800' "exit marker"
has tour '"rule":"taskState","event":"terminate","resource":"TASK_C","from":9900' "termination marker"
has tour '"rule":"taskCalls","event":"call","resource":"TASK_A","from":1200,"to":1400,"type":"Text","text":"act_tsk(tskid=2)"' "service call with its arguments"
has tour '"rule":"taskCalls","event":"call","resource":"TASK_A","from":1200,"to":1400,"type":"Text","text":"→ ercd=0"' "service call with its result"
has tour '"rule":"taskCalls","event":"call","resource":"TASK_A","from":5800,"to":8400,"type":"Text","text":"✗ -50"' "failed service call"
checks=$((checks + 1))
[ "$(count tour '"text":"✗ ')" -eq 1 ] || fail "tour: only twai_sem failed"
has tour '"rule":"taskCalls","event":"call","resource":"TASK_A","from":10700,"to":10800,"type":"Text","text":"ext_tsk()"' "ext_tsk ends when the task exits"
has tour '"rule":"taskLocks","event":"cpuLock","resource":"TASK_A","from":1800,"to":2200' "CPU lock from loc_cpu's return to unl_cpu"
has tour '"rule":"taskLocks","event":"dispatchOff","resource":"TASK_A","from":2500,"to":3600' "dispatch disabled"
has tour '"rule":"interruptLines","event":"masked","resource":null,"from":4100,"to":4600,"type":"Text","text":"intno=2 disabled by worker"' "interrupt line disabled until another task enables it"
for rule in handlerState isrState cyclicState alarmState cpuExceptionState taskExceptionState; do
  checks=$((checks + 1))
  [ "$(count tour "\"rule\":\"$rule\".*\"fill\":\"803366ff\"")" -ge 1 ] || fail "tour: $rule draws no running bar"
done
has tour '"rule":"handlerCalls","event":"call","resource":"TIMER","from":3100,"to":3300,"type":"Text","text":"iact_tsk(tskid=3)"' "service call of an interrupt handler"
has tour '"rule":"context","event":"runs","resource":"CurrentContext","from":3000,"to":3400,"type":"Text","text":"timer interrupt"' "current context shows the handler"
has tour '"rule":"runningTask","event":"runs","resource":null,"from":3800,"to":4400,"type":"Text","text":"worker"' "running-task row"
has tour '"rule":"appLogText","event":"text","resource":"MESSAGES","from":1500' "app-log string row"
has tour '"text":"boot done"' "app-log text"
has tour '"rule":"taskLogText","event":"text","resource":"TASK_C","from":3900' "app-log string on a task row"
has tour '"rule":"taskLogState","event":"state","resource":"TASK_C","from":4000' "user state on a task row"
checks=$((checks + 1))
colors=$(grep '"rule":"appLogState"' "$TMP/tour.jsonl" | grep '"type":"Rectangle"' | grep -o '"fill":"[0-9a-f]*"' | sort -u | wc -l)
[ "$colors" -ge 10 ] || fail "tour: user-defined states 0..9 in $colors colors, expected 10 distinct"

# ---- TOPPERS/ASP: the bundled sample ---------------------------------------------------
shapes asp "$S/asp/sample.res" "$S/asp/sample.log"
has asp '"rule":"taskState","event":"state","resource":"LOGTASK","from":1082473' "first dispatch"
has asp '"rule":"context","event":"runs","resource":"CurrentContext"' "context row"

# ---- TOPPERS/FMP: generated two-processor sample --------------------------------------------
shapes fmp "$S/fmp/sample.res" "$S/fmp/sample.log"
has fmp '"rule":"migrationOfTask","event":"migrate","resource":"TASK1_2"' "task migration marker"
has fmp '"text":"PE 1 → PE 2"' "migration text"
has fmp '"rule":"processorOfTask","event":"processor","resource":"TASK1_2"' "processor strip"
checks=$((checks + 1))
[ "$(grep '"rule":"processorOfTask","event":"processor","resource":"TASK1_2"' "$TMP/fmp.jsonl" | grep -c '"type":"Rectangle"')" -eq 2 ] ||
  fail "fmp: TASK1_2's processor strip does not change at its migration"
has fmp '"rule":"runningOnProcessor1","event":"runs","resource":null' "processor 1 row"
has fmp '"rule":"runningOnProcessor2","event":"runs","resource":null' "processor 2 row"
has fmp '"rule":"context","event":"runs","resource":"CurrentContext_PRC1"' "context of processor 1"
has fmp '"rule":"context","event":"runs","resource":"CurrentContext_PRC2"' "context of processor 2"
shapes fmpcpu "$S/fmp/sample.res" "$S/fmp/sample.log" --per-cpu
has fmpcpu '"rule":"perCpu","event":"running","resource":"TASK1_2"' "per-CPU bars"

# ---- Linux strace: a real recording of samples/linux/threads.c --------------------------------
shapes linux "$S/linux/sample.res" "$S/linux/sample.log"
checks=$((checks + 1))
threads=$(grep -o '"resource":"T[0-9]*"' "$TMP/linux.jsonl" | sort -u | wc -l)
[ "$threads" -eq 5 ] || fail "linux: $threads thread rows, expected 5 (main, 3 workers, the child)"
has linux '"type":"Text","text":"openat(AT_FDCWD, \"/no/such/file\", O_RDONLY)"' "the whole system call, its path included"
has linux '"text":"✗ ENOENT -1"' "failed call marked with its errno"
checks=$((checks + 1))
[ "$(grep '"rule":"systemCalls"' "$TMP/linux.jsonl" | grep -c '"fill":"aaee3333"')" -ge 2 ] ||
  fail "linux: failed calls are not drawn in red"
has linux '"rule":"signals","event":"signal"' "signal marker"
has linux '"text":"SIGCHLD CLD_EXITED"' "signal text"
has linux '"text":"exit 3"' "the child's exit status"
checks=$((checks + 1))
[ "$(count linux '"rule":"exits","event":"exit"')" -ge 10 ] || fail "linux: not every thread's exit is marked"
# A read that blocks while other threads run: <unfinished ...> on one line,
# <... read resumed> later; it is one interval, long compared with the others.
checks=$((checks + 1))
awk -F'"from":|,"to":|,"type"' '/"rule":"systemCalls"/ && /"text":"read\(3, \\"x\\", 1\)"/ { if ($3 - $2 > 500) found = 1 } END { exit !found }' "$TMP/linux.jsonl" ||
  fail "linux: the worker's blocking read is not one long interval"

# ---- every corpus TOPPERS log with our rules -------------------------------------------------
if have_corpus; then
  n=0
  for res in "$CORPUS"/logs/asp/*.res "$CORPUS"/logs/program_asp/*.res "$CORPUS"/logs/fmp/*.res \
             "$CORPUS"/logs/fmp_mig/*.res "$CORPUS"/logs/program_fmp/*.res; do
    dir=$(dirname "$res"); base=$(basename "$res" .res); log="$dir/$base.log"
    [ -f "$log" ] || log=$(ls "$dir"/*.log | head -n 1)   # fmp_mig.res goes with fmp_short.log
    retarget_res "$res" >"$TMP/$base.res"
    checks=$((checks + 1))
    diff <(tr -d '\r' <"$res" | grep -v 'Rules"\|ResourceHeaders"') \
         <(tr -d '\r' <"$TMP/$base.res" | grep -v 'Rules"\|ResourceHeaders"') >/dev/null ||
      fail "$base: retargeting changed more than the target lists"
    run "$TLV" convert -q -r "$TMP/$base.res" "$log" -o "$TMP/$base.std"
    expect_status 0 "our rules convert corpus $base"
    run "$TLV" shapes -r "$TMP/$base.res" "$log"
    expect_status 0 "our rules draw corpus $base"
    checks=$((checks + 1))
    [ ! -s "$TMP/err" ] || fail "$base: $(head -c 400 "$TMP/err")"
    checks=$((checks + 1))
    [ "$(wc -l <"$TMP/out")" -gt 100 ] || fail "$base: only $(wc -l <"$TMP/out") shapes"
    n=$((n + 1))
  done
  checks=$((checks + 1))
  [ "$n" -eq 13 ] || fail "expected the 13 TOPPERS logs of the corpus, found $n"
  # The per-processor layout: a migrated task leaves its old copy NONEXISTENT.
  run "$TLV" convert -q -r "$TMP/fmp_mig.res" "$CORPUS/logs/fmp_mig/fmp_short.log"
  expect_contains "$TMP/out" ".migrate(1,2)" "fmp_mig: migration behaviors"
  expect_contains "$TMP/out" ".state=NONEXISTENT" "fmp_mig: the copy left behind"
else
  echo "corpus not found at $CORPUS: corpus part skipped"
fi
finish
