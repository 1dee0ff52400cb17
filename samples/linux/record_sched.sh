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
. "$(dirname "$0")/record_lib.sh"
[ $# -ge 1 ] || rec_usage
out="$1"
shift
rec_need perf "Debian: apt-get install linux-perf; Ubuntu: linux-tools-generic"
rec_tmp
if [ $# -eq 0 ]; then
  # The bundled program: threads passing a token wake each other up.
  set -- "$(rec_demo threads.c -O2 -pthread)"
fi
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
