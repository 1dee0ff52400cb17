# ctest-label: slow
# The recorders of samples/linux/ on this machine: each records its bundled
# demo program (threads.c or heap.c) and the log converts with its rule set
# with 0 errors and no line left unread; each writes the log and resource file
# even when the command fails, and exits with the command's status. A
# recorder whose tool is missing or refused by the kernel (perf in a
# container, ptrace forbidden) is skipped with the reason; with none usable
# the test is skipped (77). perf and tracefs take one user at a time: the
# test holds their lock (issue 32.9), in this ctest run and on the machine.
# ctest-resource-lock: tracefs perf
. "$(dirname "$0")/lib.sh"
lock_facility tracefs
lock_facility perf
R="$SRC/samples/linux"
cd "$TMP"
used=0
skipped=""

skip() { echo "skip: $*"; skipped="$skipped; $*"; }

# check_log NAME RES: NAME.log converts cleanly, NAME.res was written.
check_log() {
  checks=$((checks + 1))
  [ -s "$1.log" ] || fail "$1: no log written"
  checks=$((checks + 1))
  [ -s "$1.res" ] || fail "$1: no resource file written"
  run "$TLV" convert -r "$1.res" --unmatched "$1.unmatched" "$1.log" -o "$1.std"
  expect_status 0 "$1: convert the recording"
  expect_contains "$TMP/err" " 0 errors," "$1: no conversion error"
  checks=$((checks + 1))
  [ ! -s "$1.unmatched" ] || fail "$1: lines not read: $(head -c 300 "$1.unmatched")"
}

# A command that fails: log and resource file all the same, its status passed on.
# failing RECORDER NAME
failing() {
  rm -f "$2".*
  "$R/$1" "$2.log" sh -c 'exit 3' >/dev/null 2>"$2.err"
  status=$?
  expect_status 3 "$1 passes the command's exit status on"
  checks=$((checks + 1))
  [ -e "$2.log" ] && [ -s "$2.res" ] || fail "$1: no log or resource file for a failing command"
}

# Without arguments each prints its usage (its header) and exits 2.
for r in record.sh record_sched.sh record_calls.sh record_heap.sh; do
  run "$R/$r"
  expect_status 2 "$r without arguments"
  expect_contains "$TMP/err" "samples/linux/$r OUT.log COMMAND [ARGS...]" "$r usage"
done

# ---- strace -----------------------------------------------------------------------------
if ! command -v strace >/dev/null; then
  skip "strace is not installed"
elif ! strace -o /dev/null true 2>/dev/null; then
  skip "strace cannot trace here (ptrace refused)"
else
  used=$((used + 1))
  "$R/record.sh" strace.log >/dev/null 2>strace.err || fail "record.sh: $(cat strace.err)"
  check_log strace
  expect_contains strace.std ".label=threads[" "strace: the demo's process is named"
  failing record.sh strace_fail
  "$R/record.sh" false.log false >/dev/null 2>&1
  status=$?
  expect_status 1 "record.sh false"
  checks=$((checks + 1))
  [ -s false.res ] || fail "record.sh false wrote no resource file"
fi

# ---- perf sched ---------------------------------------------------------------------------
if ! command -v perf >/dev/null; then
  skip "perf is not installed"
elif ! perf sched record -q -o probe.data -- true >/dev/null 2>probe.err; then
  skip "perf may not record scheduler events here: $(head -n 1 probe.err) (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
else
  used=$((used + 1))
  "$R/record_sched.sh" sched.log >/dev/null 2>sched.err || fail "record_sched.sh: $(cat sched.err)"
  check_log sched
  expect_contains sched.std ".label=threads[" "perf sched: the demo's tasks have rows"
  expect_contains sched.std "CPU0.task=" "perf sched: CPU 0 row"
  failing record_sched.sh sched_fail
fi

# ---- trace-cmd (SCHED_RECORDER=trace-cmd record_sched.sh) -----------------------------------
tracefs=/sys/kernel/tracing
[ -w "$tracefs/tracing_on" ] || tracefs=/sys/kernel/debug/tracing
if ! command -v trace-cmd >/dev/null; then
  skip "trace-cmd is not installed"
elif ! trace-cmd record -q -o probe.dat -e sched:sched_switch true >/dev/null 2>probe.err &&
  [ ! -w "$tracefs/tracing_on" ]; then
  skip "trace-cmd may not record here: $(head -n 1 probe.err), and tracefs is not writable"
else
  used=$((used + 1))
  SCHED_RECORDER=trace-cmd "$R/record_sched.sh" tc.log >/dev/null 2>tc.err || fail "record_sched.sh with trace-cmd: $(cat tc.err)"
  check_log tc
  expect_contains tc.log "sched_switch:" "trace-cmd: report text"
  expect_contains tc.std ".label=threads[" "trace-cmd: the demo's tasks have rows"
  expect_contains tc.std "CPU0.task=" "trace-cmd: CPU 0 row"
  [ ! -w "$tracefs/tracing_on" ] || {
    checks=$((checks + 1))
    [ "$(cat "$tracefs/events/sched/sched_switch/enable")" = 0 ] || fail "trace-cmd: sched_switch left enabled in tracefs"
  }
  export SCHED_RECORDER=trace-cmd
  failing record_sched.sh tc_fail
  unset SCHED_RECORDER
fi

# ---- uftrace ------------------------------------------------------------------------------
if ! command -v uftrace >/dev/null; then
  skip "uftrace is not installed"
elif ! uftrace record --force -d probe.uftrace true >/dev/null 2>probe.err; then
  skip "uftrace cannot record here: $(head -n 1 probe.err)"
else
  used=$((used + 1))
  "$R/record_calls.sh" calls.log >/dev/null 2>calls.err || fail "record_calls.sh: $(cat calls.err)"
  check_log calls
  expect_contains calls.std ".enter(insert,5," "uftrace: heap.c's recursive insert"
  expect_contains calls.std ": worker" "uftrace: worker threads named"
  failing record_calls.sh calls_fail
fi

# ---- ltrace -------------------------------------------------------------------------------
if ! command -v ltrace >/dev/null; then
  skip "ltrace is not installed"
elif ! ltrace -o /dev/null true 2>/dev/null; then
  skip "ltrace cannot trace here (ptrace refused)"
else
  # ltrace 0.7.3 races when two threads hit its breakpoints at once: on a
  # loaded machine it sometimes kills the threaded demo (SIGSEGV, status 139).
  # Such a run says nothing about tlv, so it is tried again, and skipped with
  # the reason if ltrace kills the demo every time.
  tries=0
  while :; do
    tries=$((tries + 1))
    heap_status=0
    "$R/record_heap.sh" heap.log >/dev/null 2>heap.err || heap_status=$?
    # ltrace also races in what it prints: now and then a thread's first call
    # comes out in a way that makes a second process row (or none). A rule
    # regression does it every time; a race not three times in a row.
    if [ "$heap_status" -eq 0 ] && [ "$tries" -lt 3 ] &&
       "$TLV" convert -r heap.res heap.log -o heap.try 2>/dev/null &&
       [ "$(grep -c '^\[[0-9]*\]P[0-9]*\.label=heap\[' heap.try)" -ne 1 ]; then
      echo "retry: ltrace's log gave process labels: $(grep '\.label=' heap.try | tr '\n' ' ')" >&2
      continue
    fi
    [ "$heap_status" -ge 128 ] && [ "$tries" -lt 3 ] || break
  done
  if [ "$heap_status" -ge 128 ]; then
    skip "ltrace killed the threaded demo in $tries tries (status $heap_status, ltrace's breakpoint race)"
  else
    used=$((used + 1))
    [ "$heap_status" -eq 0 ] || fail "record_heap.sh: $(cat heap.err)"
    check_log heap
    expect_contains heap.std ".size=24" "ltrace: heap.c's calloc(1, 24) nodes"
    expect_contains heap.std ".by=calloc" "ltrace: allocated with calloc"
    run "$TLV" shapes -r heap.res heap.log
    expect_contains "$TMP/out" '"text":"leak: 100 B by heap[' "ltrace: the forgotten malloc(100)"
    # the demo's two threads count in its process (ltrace -S's clone3 lines)
    checks=$((checks + 1))
    [ "$(awk -F'[]T.=]' '/^\[[0-9]+\]T[0-9]+\.pid=/ && $3 != $5' heap.std | wc -l)" -eq 2 ] ||
      fail "ltrace: the demo's threads are not in its process: $(grep '\.pid=' heap.std | tr '\n' ' ')"
    checks=$((checks + 1))
    [ "$(grep -c '^\[[0-9]*\]P[0-9]*\.label=heap\[' heap.std)" -eq 1 ] ||
      fail "ltrace: one process row for the demo: $(grep '\.label=' heap.std | tr '\n' ' ')"
    failing record_heap.sh heap_fail
    # make, whose children ltrace 0.7.3 cannot follow: its own heap
    cp -r "$R/tree" tree
    (cd tree && LTRACE_FOLLOW=no "$R/record_heap.sh" ../make.log make -s -j2 >/dev/null 2>../make.err) ||
      fail "LTRACE_FOLLOW=no record_heap.sh make: $(cat make.err)"
    check_log make
    expect_contains make.std ".label=make[" "ltrace make: the process is named"
    checks=$((checks + 1))
    [ -x tree/demo ] || fail "ltrace make: the tree was not built"
    # following make's children: ltrace 0.7.3 aborts; the log so far converts, the hint is given
    (cd tree && make -s clean >/dev/null 2>&1; rm -f ./*.o demo
     "$R/record_heap.sh" ../makef.log make -s -j2 >/dev/null 2>../makef.err)
    makef_status=$?
    if [ "$makef_status" -eq 134 ]; then
      expect_contains makef.err "LTRACE_FOLLOW=no records the command's own heap" "ltrace abort: the way out is named"
      check_log makef
    fi
  fi
fi

if [ "$used" -eq 0 ]; then
  echo "no recorder usable on this machine${skipped}"
  exit 77
fi
finish
