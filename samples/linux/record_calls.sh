#!/usr/bin/env bash
# samples/linux/record_calls.sh — records every function call of a program
# built with -pg or -finstrument-functions (and the library calls of any
# program) with uftrace, and prints them as the linux_calls rules read them
# (uftrace dump: entry/exit lines with time, thread and depth), with the
# resource file next to the log.
#
#   samples/linux/record_calls.sh OUT.log COMMAND [ARGS...]   record any command
#   samples/linux/record_calls.sh OUT.log                     build heap.c with -pg and record it
#
# Then: tlv view -r OUT.res OUT.log   (or tlv render / tlv stats; -r linux_calls.res
# works from anywhere). A program built without -pg shows only its library
# calls (uftrace --force). Extra uftrace record options come from
# UFTRACE_OPTS, e.g. UFTRACE_OPTS="-t 100us" keeps only calls that took at
# least 100 us (a make -j2 otherwise records a million library calls).
# The log and OUT.res are written even when the command fails; the script exits with the command's status (2 when uftrace
# cannot record). Needs uftrace (Debian: apt-get install uftrace;
# scripts/setup.sh installs it).
. "$(dirname "$0")/record_lib.sh"
[ $# -ge 1 ] || rec_usage
out="$1"
shift
rec_need uftrace "Debian/Ubuntu: apt-get install uftrace"
rec_tmp
if [ $# -eq 0 ]; then
  # The bundled program, instrumented: two threads, recursive tree code.
  set -- "$(rec_demo heap.c -pg -O0 -pthread)"
fi
status=0
# shellcheck disable=SC2086
uftrace record --force ${UFTRACE_OPTS:-} -d "$tmp/uftrace.data" "$@" 2>"$tmp/uftrace.err" || status=$?
if [ ! -d "$tmp/uftrace.data" ]; then
  echo "record_calls.sh: uftrace could not record:" >&2
  cat "$tmp/uftrace.err" >&2
  exit 2
fi
cat "$tmp/uftrace.err" >&2
# uftrace's own status is 1 for any failing command; its info has the real one.
if [ "$status" -ne 0 ]; then
  code="$(uftrace info -d "$tmp/uftrace.data" 2>/dev/null | sed -n 's/.*exit status *: exited with code: *\([0-9]*\).*/\1/p')"
  sig="$(uftrace info -d "$tmp/uftrace.data" 2>/dev/null | grep -c 'exit status *: terminated by' || true)"
  if [ -n "$code" ]; then status="$code"; elif [ "$sig" -gt 0 ]; then status=128; fi
fi
# A command that made no call uftrace saw leaves no data to dump: the log
# is then empty, which is what happened.
uftrace dump -d "$tmp/uftrace.data" >"$out" 2>"$tmp/dump.err" ||
  { cat "$tmp/dump.err" >&2; echo "record_calls.sh: uftrace recorded no calls" >&2; }
rec_finish "$out" linux_calls "$status"
