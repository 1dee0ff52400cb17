#!/usr/bin/env bash
# samples/linux/record_sched.sh — records which task runs on which CPU while a
# command runs (perf sched record: the whole machine's context switches,
# wake-ups, migrations, forks, execs and exits) and prints it as the
# linux_sched rules read it (perf script, default format), with the resource
# file next to the log.
#
#   samples/linux/record_sched.sh OUT.log COMMAND [ARGS...]   record any command
#   samples/linux/record_sched.sh OUT.log                     build and record threads.c
#
# Then: tlv view -r OUT.res OUT.log   (or tlv render / tlv stats; -r linux_sched.res
# works from anywhere). The log and OUT.res are written even when the command
# fails; the script exits with the command's status (2 when perf cannot record).
# Needs perf (Debian: apt-get install linux-perf; scripts/setup.sh installs it)
# and a kernel that lets you record scheduler events (root, or
# /proc/sys/kernel/perf_event_paranoid at most 1 and access to tracefs).
#
# SCHED_RECORDER=trace-cmd records the same events with trace-cmd instead
# and writes `trace-cmd report` text (the same rules read it). Where
# trace-cmd record cannot enable ftrace (a container whose /proc/sys is
# read-only) but tracefs is writable (root), the events are enabled through
# tracefs and the buffer read with trace-cmd extract; the tracing settings
# are put back afterwards. Needs trace-cmd (apt-get install trace-cmd).
. "$(dirname "$0")/record_lib.sh"
[ $# -ge 1 ] || rec_usage
out="$1"
shift
rec_tmp
if [ $# -eq 0 ]; then
  # The bundled program: threads passing a token wake each other up.
  set -- "$(rec_demo threads.c -O2 -pthread)"
fi
if [ "${SCHED_RECORDER:-perf}" = trace-cmd ]; then
  rec_need trace-cmd "Debian/Ubuntu: apt-get install trace-cmd"
  events=(sched_switch sched_waking sched_wakeup_new sched_migrate_task sched_process_fork
          sched_process_exec sched_process_exit)
  # The command starts as a task named perf-exec (a link to sh that execs
  # it), as under perf: the rules give the tasks it starts their rows. A
  # shell around it keeps its status (trace-cmd's own is not the command's).
  ln -s "$(command -v sh)" "$tmp/perf-exec"
  set -- sh -c '"$0" -c '\''exec "$@"'\'' sh "$@"; echo $? >"$(dirname "$0")/status"' "$tmp/perf-exec" "$@"
  # shellcheck disable=SC2046
  trace-cmd record -q -o "$tmp/trace.dat" $(printf -- '-e sched:%s ' "${events[@]}") "$@" \
    >/dev/null 2>"$tmp/tc.err" || true
  if [ ! -s "$tmp/trace.dat" ]; then
    # trace-cmd stopped before running the command: record through tracefs.
    tracefs=/sys/kernel/tracing
    [ -w "$tracefs/tracing_on" ] || tracefs=/sys/kernel/debug/tracing
    if [ ! -w "$tracefs/tracing_on" ]; then
      echo "record_sched.sh: trace-cmd could not record scheduler events:" >&2
      cat "$tmp/tc.err" >&2
      echo "record_sched.sh: and tracefs is not writable here (run as root, mount tracefs)" >&2
      exit 2
    fi
    saved_on="$(cat "$tracefs/tracing_on")"
    saved_kb="$(cat "$tracefs/buffer_size_kb")"
    saved_enable=()
    for e in "${events[@]}"; do saved_enable+=("$(cat "$tracefs/events/sched/$e/enable")"); done
    restore() {
      echo 0 >"$tracefs/tracing_on"
      local i
      for i in "${!events[@]}"; do echo "${saved_enable[$i]}" >"$tracefs/events/sched/${events[$i]}/enable"; done
    }
    trap 'restore; echo "$saved_kb" >"$tracefs/buffer_size_kb"; echo "$saved_on" >"$tracefs/tracing_on"; rm -rf "$tmp"' EXIT
    echo 0 >"$tracefs/tracing_on"
    echo 16384 >"$tracefs/buffer_size_kb" # per CPU: make -j2 fits
    echo >"$tracefs/trace"
    for e in "${events[@]}"; do echo 1 >"$tracefs/events/sched/$e/enable"; done
    echo 1 >"$tracefs/tracing_on"
    "$@" || true
    restore
    trace-cmd extract -o "$tmp/trace.dat" >/dev/null 2>"$tmp/tc.err" ||
      { cat "$tmp/tc.err" >&2; echo "record_sched.sh: trace-cmd extract failed" >&2; exit 2; }
    echo >"$tracefs/trace"
  fi
  status="$(cat "$tmp/status" 2>/dev/null || echo 2)"
  trace-cmd report -i "$tmp/trace.dat" >"$out" 2>"$tmp/report.err" ||
    { cat "$tmp/report.err" >&2; echo "record_sched.sh: trace-cmd report failed" >&2; exit 2; }
  rec_finish "$out" linux_sched "$status"
fi
rec_need perf "Debian: apt-get install linux-perf; Ubuntu: linux-tools-generic"
# perf's own status is the command's; a perf that cannot record at all says
# so on standard error and leaves no data.
status=0
perf sched record -q -o "$tmp/perf.data" -e sched:sched_process_exec -e sched:sched_process_exit \
  -- "$@" 2>"$tmp/perf.err" || status=$?
if [ ! -s "$tmp/perf.data" ]; then
  echo "record_sched.sh: perf could not record scheduler events:" >&2
  cat "$tmp/perf.err" >&2
  echo "record_sched.sh: (perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo unknown); run as root or lower it)" >&2
  exit 2
fi
perf script -i "$tmp/perf.data" >"$out" 2>"$tmp/script.err" ||
  { cat "$tmp/script.err" >&2; echo "record_sched.sh: perf script failed" >&2; exit 2; }
rec_finish "$out" linux_sched "$status"
